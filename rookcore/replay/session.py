"""`ReplaySession`: a recorded hand (or game) stepped through, commented, marked, analysed and saved — the
session logic behind the Replay panel (``widgets/replay.py``), with no UI import.

Steps (record-format.md "comments"): the navigator's *position* p (0..n, ``step``) shows the hand after p actions;
record step k (0..n-1) is the action ``record.actions()[k]``. A comment or mark is about the LAST action shown, as a
chess program puts a mark after the move: at position p the editor works on record step p - 1
(`ReplaySession.annotated_step`); at position 0 no action is shown and nothing can be annotated.

Typical use::

    s = ReplaySession(background=False)
    s.load(load_example("crowsnest-made"), name="crowsnest-made", example="crowsnest-made")
    s.go(15)                       # the 15th action (record step 14) is the last one shown
    s.set_mark("??"); s.save_comment("This card!")
    s.analyze(5.0)                 # 5 s of double-dummy search; s.analysis is the report
    s.save("annotated/week1.json")

Refusals raise ValueError (`ReplayError`, or the engine's `RecordError`) with the sentence to show, and leave the
session as it was. Sentences are in the session's language (``lang``); records keep their own words.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .. import annotations, i18n, records
from ..confirm import SecondClick
from ..examples import load_example
from ..hand import HandState
from ..i18n import _, ngettext
from ..records import GameRecord, HandRecord
from .analysis import AnalysisJob, Line
from .files import PlainFiles, RecordFiles, shown_error
from .shown import AnalysisShown, StepShown, analysis_shown, step_shown
from .steps import action_name, hand_label

__all__ = ["ReplaySession", "ReplayError", "Saved", "MAX_RECORD_BYTES", "DEFAULT_FOLDER"]

MAX_RECORD_BYTES = records.MAX_RECORD_BYTES
"""The largest record file or upload read (1 MB, the engine's own record size cap)."""
DEFAULT_FOLDER = "annotated"
"""Where a loaded record is saved unless another path is given (`ReplaySession.default_path`)."""


class ReplayError(ValueError):
    """A request the session refuses; its text is the sentence to show. The session is unchanged."""


@dataclass(frozen=True)
class Saved:
    """What a `ReplaySession.save` did: ``kind`` "saved" (``path`` written), "question" (the file exists and was not
    written by this session: a second save replaces it) or "error"; ``text`` says it."""

    kind: str
    text: str
    path: str | None = None


def annotations_of(doc: HandRecord | GameRecord | None) -> tuple | None:
    """What a hand or game record says in comments and marks, in a form that compares equal whenever two records
    say the same (comments in step order, an empty list or mapping like none). Args: ``doc`` (None gives None).
    Returns a tuple with one ``(comments, marks)`` pair per hand. Raises nothing for a valid record."""
    if doc is None:
        return None
    hands = doc.hands if isinstance(doc, GameRecord) else [doc]
    return tuple((tuple(tuple(sorted(c.items())) for c in sorted(h.comments or (), key=lambda c: c["step"])),
                  tuple(sorted((h.marks or {}).items()))) for h in hands)


def play_key(record: HandRecord) -> str:
    """The deal and the actions of ``record`` as one string (its JSON without comments, marks and meta): equal for
    two records of the same hand however they are annotated. Raises nothing for a valid record."""
    doc = {k: v for k, v in record.to_json().items() if k not in ("comments", "marks", "meta")}
    return json.dumps(doc, sort_keys=True)


def stem(source: str) -> str:
    """A file name's stem, the name a record read from it is saved under ("" → "hand")."""
    return Path(str(source or "")).stem.strip() or "hand"


class ReplaySession:
    """A hand or game record on show, at one step, with its comments, marks and analysis.

    Args (keywords):
      analyzer: a callable(record) -> report used by `analyze` instead of the budgeted double-dummy analysis.
      background: run `analyze` in a background thread (default True; False: it returns when done).
      files: where typed paths lead (`RecordFiles`; default `PlainFiles`, paths as given; the app passes
        ``widgets.paths``, which keeps them inside the app's folder).
      guard: asks before `save` replaces a file (an object with ``question(path, button) -> str | None`` and
        ``saved(path)``, as ``widgets.paths.ReplaceGuard``), or None: replace without asking.
      lang: the session's language (a `rookcore.i18n` code; None: the one active now).

    Attributes: ``record`` (the `HandRecord` on show, or None), ``game`` (the `GameRecord` it belongs to, or None),
    ``hand_index`` (its index in the game, 0 otherwise), ``states`` (its `HandState` after each number of actions),
    ``report`` (its `records.score_report`), ``step`` (the position shown), ``source_name`` (the name it is saved
    and downloaded under), ``example`` (the bundled record's name when one is on show, else None), ``saved_note``
    ("Saved x.json" while the comments and marks are as last saved), ``discard`` (the `SecondClick` of the question
    before unsaved work is dropped), ``job`` (its `AnalysisJob`), ``lang``.
    """

    def __init__(self, *, analyzer: Callable[[HandRecord], dict] | None = None, background: bool = True,
                 files: RecordFiles | None = None, guard: Any = None, lang: str | None = None) -> None:
        self.lang = i18n.normalize(lang) if lang is not None else i18n.current_language()
        self.record: HandRecord | None = None
        self.game: GameRecord | None = None
        self.hand_index = 0
        self.states: list[HandState] = []
        self.report: dict | None = None
        self.step = 0
        self.source_name = "hand"
        self.example: str | None = None
        self.saved_note = ""
        self.files = files if files is not None else PlainFiles()
        self.guard = guard
        self.discard = SecondClick()  # asks before another record replaces unsaved work
        self.job = AnalysisJob(self, analyzer, background)
        self._game_states: list[list[HandState]] = []
        self._saved: tuple | None = None  # `annotations_of` the record when loaded or last saved
        self._drafts: dict[tuple[int, int], str] = {}  # (hand, record step) -> comment typed but not saved

    # ----- what is on show ------------------------------------------------------------------------
    @property
    def n_steps(self) -> int:
        """The last position of the hand on show (its number of actions; 0 without a record)."""
        return max(len(self.states) - 1, 0)

    @property
    def state(self) -> HandState | None:
        """The `HandState` at the position shown (None before a record is loaded)."""
        return self.states[self.step] if self.states else None

    @property
    def document(self) -> HandRecord | GameRecord | None:
        """What is saved and downloaded: the game record when a game is loaded, else the hand record (or None)."""
        return self.game if self.game is not None else self.record

    @property
    def default_path(self) -> str:
        """Where the record loaded is saved unless another path is given: ``annotated/<name>.json``."""
        return f"{DEFAULT_FOLDER}/{self.source_name}.json"

    @i18n.in_own_language
    def shown(self) -> StepShown:
        """Everything shown at the position on show, in the session's language (`rookcore.replay.shown.StepShown`:
        the heading, the last action and its mark, the comments, the table, the facts, the score at the end, the
        editor's action and comment box)."""
        return step_shown(self)

    @i18n.in_own_language
    def analysis_shown(self) -> AnalysisShown:
        """What is shown of the analysis at the position on show, in the session's language
        (`rookcore.replay.shown.AnalysisShown`)."""
        return analysis_shown(self)

    @i18n.in_own_language
    def hand_labels(self) -> list[str]:
        """The labels of the loaded game's hands ("Hand 2 (dealer E): N bid 85, made"); [] without a game."""
        return [hand_label(i, h) for i, h in enumerate(self.game.hands)] if self.game is not None else []

    def go(self, step: int) -> int:
        """Show position ``step`` (clamped to 0..`n_steps`). Returns the position shown."""
        self.step = max(0, min(int(step), self.n_steps))
        return self.step

    # ----- loading ----------------------------------------------------------------------------------
    @i18n.in_own_language
    def parse(self, text: str | bytes, source: str = "") -> HandRecord | GameRecord:
        """The record in the JSON ``text`` (from ``source``, a name for the error), validated (`records.loads`).
        Raises ReplayError ("source: why") for a bad record; nothing changes."""
        try:
            return records.loads(text)
        except records.RecordError as e:
            raise ReplayError(f"{source + ': ' if source else ''}{e}") from e

    @staticmethod
    def read_example(name: str) -> HandRecord | GameRecord:
        """The bundled record ``name`` (one of `rookcore.examples.list_examples`), validated. Raises RecordError."""
        return load_example(name)

    @i18n.in_own_language
    def read_file(self, path: str) -> HandRecord | GameRecord:
        """The record in the file ``path`` names (`files`), read within `MAX_RECORD_BYTES` (a larger file is not
        read in full) and validated. Raises ValueError (a path refused by `files`, a missing or bad file: its
        name as the page shows it, then why); nothing changes."""
        from ..cli import read_record  # noqa: PLC0415 - the engine's capped, validating file reader

        target = str(self.files.readable_record(path))
        try:
            return read_record(target, MAX_RECORD_BYTES)
        except records.RecordError as e:
            message = str(e)[len(target):].lstrip(": ") if str(e).startswith(target) else str(e)
            raise ReplayError(f"{self.files.brief(self.files.shown_path(target))}: {message}") from e

    @property
    def unsaved(self) -> bool:
        """Whether the record on show has comments or marks not yet saved, or a comment typed but not saved."""
        return self.changed or bool(self._drafts)

    @property
    def changed(self) -> bool:
        """Whether the comments and marks of the record on show (every hand of a game) differ from those it had when
        it was loaded or last saved: one added and removed again is no change. Drafts do not count (`unsaved`)."""
        return self.document is not None and annotations_of(self.document) != self._saved

    @i18n.in_own_language
    def check_discard(self, key: Any, again: str) -> None:
        """Whether loading another record (``key`` names it) may go ahead: yes without unsaved work, else only on
        the second request for it (`SecondClick`). Raises ReplayError with the question, naming how to confirm
        (``again``, e.g. "click Load again"), on the first."""
        if not self.unsaved or self.discard.confirmed(key):
            return
        raise ReplayError(_("This record has comments or marks that are not saved: click Save record first, or "
                            "{again} to load the other record without them.", again=again))

    @i18n.in_own_language
    def load(self, record: HandRecord | GameRecord, name: str | None = None, example: str | None = None) -> None:
        """Show ``record`` (a hand, or a game from its first hand) at position 0, under ``name`` (default "hand":
        saved as ``annotated/<name>.json``); ``example`` the bundled record's name when it is one. Its comments and
        marks count as saved; drafts and an open question are dropped; a running analysis is stopped. Raises
        ValueError (a game without hands, a record that does not replay or cannot be scored); nothing changes."""
        hands = record.hands if isinstance(record, GameRecord) else [record]
        if not hands:
            raise ReplayError(_("the game record has no hands"))
        states = [list(h.states()) for h in hands]
        report = records.score_report(hands[0])
        self.game = record if isinstance(record, GameRecord) else None
        self._game_states = states
        self._show_hand(0, hands[0], states[0], report)
        self.example = example
        self.source_name = name or "hand"
        self._saved = annotations_of(self.document)
        self.saved_note = ""
        self._drafts.clear()
        self.discard.forget()

    @i18n.in_own_language
    def choose_hand(self, index: int) -> None:
        """Show hand ``index`` (from 0) of the loaded game at position 0 (its drafts are kept; a running analysis
        is stopped: "hand 2 of the game was chosen"). Raises ValueError without a game, for an index out of range
        or a hand that cannot be scored; nothing changes."""
        if self.game is None or not 0 <= index < len(self.game.hands):  # a caller's slip: the page lists the hands
            raise ValueError(f"no hand {index} in the game on show")
        hand = self.game.hands[index]
        self._show_hand(index, hand, self._game_states[index], records.score_report(hand),
                        why=_("hand {number} of the game was chosen", number=index + 1))

    def _show_hand(self, index: int, record: HandRecord, states: list[HandState], report: dict,
                   why: str | None = None) -> None:
        """Show hand ``index`` (``record``, its replayed ``states`` and score ``report``) at position 0; a running
        analysis of the hand shown before is stopped, saying ``why``."""
        self.hand_index, self.record, self.states, self.report, self.step = index, record, states, report, 0
        self.job.reset(why)

    @i18n.in_own_language
    def open_at(self, record: HandRecord, step: int, name: str | None = None, again: str | None = None) -> bool:
        """Show the hand ``record`` at position ``step`` (clamped) — how Play opens the hand just played. If the
        same hand (the same deal and actions) is on show already only the position changes, so its comments and
        marks stay; otherwise it is loaded under ``name`` once `check_discard` lets it (``again``: how to confirm;
        default "open it again"). Returns True when it was loaded anew. Raises ValueError (not a hand record, a
        step that is not a whole number, the question, a bad record); nothing changes."""
        if not isinstance(record, HandRecord):
            raise ReplayError(_("only a hand record can be opened at a step (a game record: load it and choose the "
                                "hand)"))
        if isinstance(step, bool) or not isinstance(step, int):
            raise ReplayError(_("the step to show must be a whole number of actions, not {value}", value=repr(step)))
        key = play_key(record)
        anew = self.record is None or self.game is not None or play_key(self.record) != key
        if anew:
            self.check_discard(("shown", key), again or _("open it again"))
            self.load(record, name=name)
        self.go(step)
        return anew

    # ----- comments and marks ---------------------------------------------------------------------------
    @property
    def annotated_step(self) -> int | None:
        """The record step that comments and marks are about: the last action shown, record step ``step - 1``.
        None at position 0 (no action shown yet) or without a record."""
        if self.record is None or self.step <= 0:
            return None
        return self.step - 1

    def editor_key(self) -> tuple[int, int] | None:
        """(hand index in the game, or 0; record step) of the action comments are about, or None."""
        k = self.annotated_step
        return None if k is None else (self.hand_index if self.game is not None else 0, k)

    def draft(self) -> str | None:
        """The comment typed on the action shown but not saved, or None."""
        return self._drafts.get(self.editor_key())

    def type_comment(self, text: str) -> bool | None:
        """The learner typed ``text`` as the comment of the action shown: kept as a draft (shown again there, counts
        as unsaved) unless it is the record's own comment. Returns True (a draft), False (the record's comment: no
        draft), None (no action shown)."""
        key = self.editor_key()
        if key is None:
            return None
        if text == self.record.comment_at(key[1]):
            self._drafts.pop(key, None)
            return False
        self._drafts[key] = text
        return True

    def _require_record(self) -> HandRecord:
        if self.record is None:
            raise ReplayError(_("load a record first"))
        return self.record

    def _require_action(self) -> tuple[HandRecord, int, dict]:
        """The record on show, the step annotated and its words (action, step). Raises ReplayError without a
        record, or at position 0."""
        record = self._require_record()
        k = self.annotated_step
        if k is None:
            raise ReplayError(_("No action is shown yet: step forward to comment on an action (a comment or mark is "
                                "about the last action shown)."))
        return record, k, dict(action=action_name(self.states[k + 1]), step=k + 1)

    def _replace(self, new: HandRecord) -> None:
        """Put an edited copy of the hand on show in place (and into the game record, if one is loaded)."""
        self.record = new
        if self.game is not None:
            self.game.hands[self.hand_index] = new

    @i18n.in_own_language
    def save_comment(self, text: str) -> str:
        """Set the comment of the last action shown to ``text`` (empty deletes it; the draft is dropped). Returns
        what was done ("Comment saved on S plays Y13 (step 15)."; a blank text where there is no comment changes
        nothing and says so). Raises ReplayError without a record or at position 0."""
        record, k, what = self._require_action()
        self._drafts.pop(self.editor_key(), None)
        if not text.strip() and not record.comment_at(k):
            return _("There is no comment on {action} (step {step}): type one first.", **what)
        self._replace(annotations.set_comment(record, k, text))
        return (_("Comment saved on {action} (step {step}).", **what) if text.strip()
                else _("Comment on {action} (step {step}) deleted.", **what))

    @i18n.in_own_language
    def delete_comment(self) -> str:
        """Delete the comment of the last action shown (and its draft). Returns what was done (or that there is no
        comment). Raises ReplayError without a record or at position 0."""
        record, k, what = self._require_action()
        self._drafts.pop(self.editor_key(), None)
        if not record.comment_at(k):
            return _("There is no comment on {action} (step {step}).", **what)
        self._replace(annotations.delete_comment(record, k))
        return _("Comment on {action} (step {step}) deleted.", **what)

    @i18n.in_own_language
    def set_mark(self, mark: str) -> str:
        """Mark the last action shown "!", "?" or "??" ("" removes the mark; the documented ``marks`` extension of
        record-format.md). Returns what was done. Raises ValueError without a record, at position 0, or for a
        mark `rookcore.annotations.set_mark` refuses."""
        record, k, what = self._require_action()
        self._replace(annotations.set_mark(record, k, mark))
        return (_("{action} (step {step}) marked {mark} ({name}).", mark=mark, name=annotations.mark_name(mark),
                  **what) if mark else _("Mark of {action} (step {step}) removed.", **what))

    @i18n.in_own_language
    def apply_analysis_marks(self) -> str:
        """Copy the analysis' proven "?"/"??" marks into the record (steps already marked keep their mark). Returns
        how many were added. Raises ReplayError without a record or an analysis."""
        record = self._require_record()
        if self.analysis is None:
            raise ReplayError(_("click Analyze first"))
        before = dict(record.marks or {})
        new = annotations.apply_analysis_marks(record, self.analysis)
        added = {s: m for s, m in (new.marks or {}).items() if s not in before}
        self._replace(new)
        return (ngettext("Marked {count} card from the analysis.", "Marked {count} cards from the analysis.",
                         len(added), count=len(added))
                if added else _("No new marks: the analysis' marked cards already carry a mark."))

    # ----- saving -------------------------------------------------------------------------------
    @i18n.in_own_language
    def save(self, typed: str) -> Saved:
        """Write the annotated record (the whole game, if a game is loaded) to the path ``typed`` (`files`:
        ``record_path``). The ``guard`` may ask first (kind "question": nothing written; a second save replaces).
        Returns `Saved`: "saved" (the comments and marks now count as saved, ``saved_note`` says where, and the
        record is downloaded under that file's name), "question", or "error" (a path refused, a file that cannot be
        written). Raises ReplayError without a record."""
        self._require_record()
        path = typed.strip()
        doc = self.document
        target = None
        try:
            target = self.files.record_path(path)
            question = self.guard.question(target, _("Save record")) if self.guard is not None else None
            if question:
                return Saved("question", question)
            written = annotations.save_record(doc, str(target))
            if self.guard is not None:
                self.guard.saved(target)
        except (ValueError, OSError) as e:
            if isinstance(e, ValueError):
                return Saved("error", shown_error(self.files, e, target) if target is not None else str(e))
            return Saved("error",
                         _("{path}: cannot write: {error}", path=self.files.brief(path), error=e.strerror or e))
        self._saved = annotations_of(doc)
        self.saved_note = _("Saved {path}", path=self.files.brief(self.files.shown_path(written)))
        self.source_name = Path(written).stem  # the download offers the name it was saved as
        return Saved("saved", self.saved_note, written)

    def download(self) -> tuple[str, str] | None:
        """The record to download: (file name, JSON text) of `document` under ``source_name``; None without one."""
        doc = self.document
        return None if doc is None else (f"{self.source_name}.json", records.dumps(doc))

    # ----- analysis -----------------------------------------------------------------------------------
    @property
    def analysis(self) -> dict | None:
        """The analysis report shown for the hand on show (exact, or proven so far: ``"partial"``), or None."""
        return self.job.analysis

    @property
    def analysis_running(self) -> bool:
        """Whether an analysis of the hand on show is running."""
        return self.job.running

    @property
    def analysis_status(self) -> Line | None:
        """The analysis' status line (`Line`), or None."""
        return self.job.status

    def analysis_name(self) -> str:
        """What the analysis of the hand on show is called in messages: the record's name (and the hand of a game,
        "crowsnest-game, hand 2")."""
        if self.game is not None:
            return _("{name}, hand {number}", name=self.source_name, number=self.hand_index + 1)
        return self.source_name

    @i18n.in_own_language
    def analyze(self, budget: float = annotations.DEFAULT_BUDGET) -> None:
        """Analyse the hand on show within ``budget`` seconds of search (`AnalysisJob.start`). Raises ReplayError
        without a record."""
        self.job.start(self._require_record(), float(budget))

    @i18n.in_own_language
    def cancel_analysis(self) -> None:
        """Stop the running analysis, keeping what is proven (`AnalysisJob.cancel`). Raises ReplayError without a
        record."""
        self._require_record()
        self.job.cancel()

    def wait_analysis(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for a background analysis to end; True if none is running any more."""
        return self.job.wait(timeout)
