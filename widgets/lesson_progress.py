"""A learner's lesson progress (`Progress`): lessons visited, exercises answered and answered right, kept in a JSON
file that several pages (each a Voila kernel of its own) share: every change re-reads the file first and writes it
whole, a `Progress.watch` thread picks up another page's changes, `Progress.move_to` carries what was recorded in
memory into a learner's own file once the page knows the learner.

Only keeping and counting lives here; where the file is (`widgets.lessons.progress_path`,
`widgets.lessons.use_learner_progress`) and how progress is drawn (`widgets.lessons.progress_view`) stay in
`widgets.lessons`, which re-exports `Progress`.
"""
from __future__ import annotations

import json
import os
import pathlib
import threading
from typing import Callable

from rookcore import teaching


class Progress:
    """What a learner has done: lessons visited, exercises answered (and answered right).

    ``path``: optional JSON file to load from and save to (shares progress between Voila pages: each change
    re-reads the file first, so two pages' changes add up). Listeners added with `on_change` are called with no
    arguments after every change and after a `reload` that found something new. A missing, unreadable or
    damaged file counts as no progress; a file that cannot be written is left as it is (progress then lasts
    this kernel only).
    """

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        """Start empty (or from ``path`` if it holds saved progress)."""
        self.path = pathlib.Path(path) if path else None
        self.visited: list[str] = []
        self.correct: dict[str, set[tuple[str, int]]] = {}   # kind -> {(variant, seed)} answered right
        self.attempts: dict[str, int] = {}                   # kind -> answers checked
        self._listeners: list[Callable[[], None]] = []
        self._lock = threading.RLock()  # the `watch` thread reloads while the kernel's thread records
        self._watcher: threading.Thread | None = None
        self._unwatch = threading.Event()
        self._watch_every: float | None = None  # a `watch` asked for (it follows `move_to`)
        self._load()

    # persistence
    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            doc = json.loads(self.path.read_text("utf-8"))
            visited = [str(v) for v in doc.get("visited", [])]
            correct = {str(k): {(str(a), int(b)) for a, b in v} for k, v in doc.get("correct", {}).items()}
            attempts = {str(k): int(v) for k, v in doc.get("attempts", {}).items()}
        except (OSError, ValueError, TypeError, AttributeError):
            return  # a damaged file counts as no news
        self.visited, self.correct, self.attempts = visited, correct, attempts

    def _save(self) -> None:
        if self.path is None:
            return
        doc = {"visited": self.visited, "attempts": self.attempts,
               "correct": {k: sorted(v) for k, v in self.correct.items()}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            part = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
            part.write_text(json.dumps(doc), "utf-8")
            os.replace(part, self.path)  # whole files only: another page may be reading it
        except OSError:
            pass

    def _state(self) -> tuple:
        return list(self.visited), {k: set(v) for k, v in self.correct.items()}, dict(self.attempts)

    def reload(self) -> bool:
        """Read the file again (another page may have added to it); tell the listeners if anything changed.
        Returns True if it did."""
        with self._lock:
            before = self._state()
            self._load()
            if self._state() == before:
                return False
            for fn in list(self._listeners):
                fn()
            return True

    def watch(self, every: float = 2.0) -> None:
        """Check the file every ``every`` seconds in a daemon thread and `reload` when it changed, so that a
        page shows what the learner did in another (a lesson opened from the app's Learn tab). Once per
        `Progress`; nothing without a file."""
        self._watch_every = every
        if self.path is None or self._watcher is not None:
            return

        def stamp():
            try:
                return self.path.stat().st_mtime_ns
            except OSError:
                return None

        first = stamp()  # taken now, not when the thread first runs: a change made meanwhile must count

        def loop() -> None:
            last = first
            while not self._unwatch.wait(every):
                now = stamp()
                if now != last:
                    last = now
                    try:
                        self.reload()
                    except Exception:  # noqa: BLE001 - a listener's failure must not stop the watching
                        pass

        self._unwatch.clear()
        self._watcher = threading.Thread(target=loop, name="rook-progress-watch", daemon=True)
        self._watcher.start()

    def stop_watching(self, timeout: float = 5.0) -> None:
        """End the `watch` thread (waiting up to ``timeout`` seconds); `watch` may start it again."""
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            self._unwatch.set()
            watcher.join(timeout)

    def move_to(self, path: str | os.PathLike) -> None:
        """Keep this progress in the file ``path`` from now on (a learner's own file, once the page knows the
        learner: `use_learner_progress`): it then holds what the file held plus, when the progress was kept in
        memory until now, what was recorded here (a page's visit before its learner was known). Listeners are told;
        a `watch` asked for follows the new file. The same path again changes nothing. Raises nothing."""
        path = pathlib.Path(path)
        with self._lock:
            if path == self.path:
                return
            carried = self._state() if self.path is None else ([], {}, {})
            self.path = path
            self.visited, self.correct, self.attempts = [], {}, {}
            self._load()
            self.visited += [v for v in carried[0] if v not in self.visited]
            for kind, answers in carried[1].items():
                self.correct.setdefault(kind, set()).update(answers)
            for kind, n in carried[2].items():
                self.attempts[kind] = self.attempts.get(kind, 0) + n
            self._changed()
        if self._watch_every is not None:
            self.stop_watching()
            self.watch(self._watch_every)

    def _changed(self) -> None:
        self._save()
        for fn in list(self._listeners):
            fn()

    def on_change(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` after every change."""
        self._listeners.append(fn)

    # updates
    def visit(self, lesson: str) -> None:
        """Mark ``lesson`` (a slug such as "01-deck-and-counters") visited."""
        with self._lock:
            self._load()
            if lesson not in self.visited:
                self.visited.append(lesson)
                self._changed()

    def record(self, kind: str, variant: str, seed: int, correct: bool) -> None:
        """Record one checked answer to exercise (kind, variant, seed)."""
        with self._lock:
            self._load()
            self.attempts[kind] = self.attempts.get(kind, 0) + 1
            if correct:
                self.correct.setdefault(kind, set()).add((variant, int(seed)))
            self._changed()

    def reset(self) -> None:
        """Forget everything, in the file too (listeners stay)."""
        with self._lock:
            self.visited, self.correct, self.attempts = [], {}, {}
            self._changed()

    # queries
    def solved(self, kind: str) -> int:
        """Number of different exercises of ``kind`` answered right."""
        return len(self.correct.get(kind, ()))

    def summary(self) -> dict:
        """{"visited": [...], "solved": {kind: n}, "attempts": {kind: n}}."""
        return {"visited": list(self.visited), "solved": {k: self.solved(k) for k in teaching.KINDS},
                "attempts": dict(self.attempts)}
