"""What the app, Play's "Replay this hand" and the tests call on a Replay panel: each property reads the panel's
`rookcore.replay.ReplaySession`, each method is one of its parts' (`ReplayPanel` mixes this in).
"""
from __future__ import annotations

from rookcore import i18n
from rookcore.records import GameRecord, HandRecord
from rookcore.replay import ReplaySession


def _session(name: str, doc: str) -> property:
    """A read-only property of the panel: the session's ``name``."""
    return property(lambda self: getattr(self.session, name), doc=doc)


class ReplayAPI:
    """The Replay panel's public face. ``session`` is its `ReplaySession`; ``sources``, ``board``, ``editor`` and
    ``analysis_view`` its parts (`widgets.replay_sources`, `replay_board`, `replay_editor`, `replay_analysis`)."""

    session: ReplaySession

    record = _session("record", "The `HandRecord` on show (None before one is loaded).")
    game = _session("game", "The `GameRecord` the hand on show belongs to, or None.")
    states = _session("states", "The hand's `HandState` after each number of actions.")
    state = _session("state", "The `HandState` at the step shown (None before a record is loaded).")
    n_steps = _session("n_steps", "The last step of the loaded hand (its number of actions).")
    annotated_step = _session("annotated_step", "The record step comments and marks are about (the last action "
                                                "shown: ``step - 1``); None at step 0.")
    unsaved = _session("unsaved", "Whether comments or marks (or a comment typed) are not saved yet.")
    changed = _session("changed", "Whether the comments and marks differ from those loaded or last saved.")
    analysis = _session("analysis", "The analysis report shown (exact, or proven so far: ``partial``), or None.")
    analysis_running = _session("analysis_running", "Whether an analysis of the hand on show is running.")
    _discard = _session("discard", "The question before unsaved work is dropped (`rookcore.confirm.SecondClick`).")

    @property
    def lang(self) -> str:
        """The panel's language (its session's): its words, the steps, the analysis and every callback use it."""
        return self.session.lang

    @property
    def step(self) -> int:
        """The step shown (state after this many actions)."""
        return self.session.step

    @property
    def analysis_seconds(self) -> float:
        """The time budget of the next analysis (seconds per hand)."""
        return self.analysis_view.analysis_seconds

    @property
    def analyzer(self):
        """The analyzer used instead of the budgeted double-dummy analysis, or None."""
        return self.session.job.analyzer

    @property
    def analyze_in_background(self) -> bool:
        """Whether Analyze runs in a background thread."""
        return self.session.job.background

    @i18n.in_own_language
    def go(self, step: int) -> None:
        """Show ``step`` (clamped to 0..n_steps)."""
        self.slider.value = self.session.go(step)

    def load_record(self, record: HandRecord | GameRecord, *, name: str | None = None) -> bool:
        """Load a hand or game record and show step 0 (saved as ``annotated/<name>.json``, default "hand"). Returns
        False (error shown, the previous record kept) if it is invalid."""
        return self.sources.load_record(record, name=name)

    def load_text(self, text: str | bytes, source: str = "") -> bool:
        """Parse and load a record from JSON text; on a bad record show its error line and keep the old one."""
        return self.sources.load_text(text, source)

    def load_file(self, path: str) -> bool:
        """Load the record file at ``path`` (inside the app's folder); False with the error line shown."""
        return self.sources.load_file(path)

    def show_record(self, record: HandRecord, step: int = 0, name: str | None = None,
                    again: str | None = None) -> bool:
        """Show the hand ``record`` at navigator ``step`` — how the Play tab opens the hand just played (the same
        hand only moves; unsaved work of another is dropped on a second request, ``again`` naming it). Returns
        True when the hand is on show at ``step``; False with the error line shown. Raises nothing."""
        return self.sources.show_record(record, step, name=name, again=again)

    def show_error(self, message: str) -> None:
        """Show one error line above the replay."""
        self.sources.show_error(message)

    def show_note(self, message: str) -> None:
        """Show one line of information (grey) where errors are shown."""
        self.sources.show_note(message)

    def clear_error(self) -> None:
        """Hide the error line."""
        self.sources.clear_error()

    def save_comment(self, text: str | None = None) -> None:
        """Set the comment of the last action shown (default: the comment box's text; empty deletes it)."""
        self.editor.save_comment(text)

    def delete_comment(self) -> None:
        """Delete the comment of the last action shown."""
        self.editor.delete_comment()

    def set_mark(self, mark: str) -> None:
        """Mark the last action shown "!", "?" or "??" ("" removes the mark)."""
        self.editor.set_mark(mark)

    def save_record(self, path: str | None = None) -> str | None:
        """Write the annotated record to ``path`` (default: the Save-to box); the path written, or None."""
        return self.editor.save_record(path)

    def apply_analysis_marks(self) -> None:
        """Copy the analysis' "?"/"??" marks into the record (steps already marked keep their mark)."""
        self.editor.apply_analysis_marks()

    def analyze(self) -> None:
        """Start the double-dummy analysis of the hand on show within the chosen time budget."""
        self.analysis_view.analyze()

    def cancel_analysis(self) -> None:
        """Stop the running analysis (what is proven so far stays shown)."""
        self.analysis_view.cancel_analysis()

    def wait_analysis(self, timeout: float | None = None) -> bool:
        """Wait for a background analysis to end; True if none is running any more."""
        return self.session.wait_analysis(timeout)
