"""Saving the hand on show in a Play session as a record (record-format.md rook-hand/1), and the record to download.

`RecordSaver` keeps what the Save-to box holds (``path``: the learner's own name, or the hand's default name,
``hands/hand-<n>.json``, which follows the hand on show), writes the record where that typed path leads (``files``,
a `rookcore.replay.RecordFiles`: the app passes ``widgets.paths``, which keeps paths inside its folder), asks before
it replaces a file it did not write (``guard``) and says what it did (``result``, a `rookcore.replay.Saved`). No UI
import.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..i18n import _
from ..replay.files import PlainFiles, RecordFiles, shown_error
from ..replay.session import Saved

__all__ = ["RecordSaver", "Saved"]


class RecordSaver:
    """Saves ``session``'s hand on show (a `rookcore.play.PlaySession`: its ``table``).

    Args:
      session: the session.
      files: where typed paths lead (`rookcore.replay.RecordFiles`; default `rookcore.replay.PlainFiles`).
      guard: asks before a save replaces a file (``question(path, button) -> str | None`` and ``saved(path)``, as
        ``widgets.paths.ReplaceGuard``), or None: replace without asking.

    Attributes: ``path`` (the Save-to box's text; a view keeps it in step with what the learner types), ``result``
    (the `Saved` of the last save of this hand, or None), ``shown`` (how the last file written is named on the
    page).
    """

    def __init__(self, session, files: RecordFiles | None = None, guard: Any = None) -> None:
        self.session = session
        self.files = files if files is not None else PlainFiles()
        self.guard = guard
        self.path = ""
        self.result: Saved | None = None
        self.shown = ""
        self._auto = ""  # the default name last put in the box
        self._saved_as: tuple[tuple[int, int], str] | None = None  # ((game, hand), name) of the last save

    def _hand_key(self) -> tuple[int, int]:
        """(game, hand number) of the hand on the table: what a saved file's name is remembered for."""
        t = self.session.table
        return id(t.game), t.hand_number

    def follow(self) -> None:
        """The box follows the hand on show: its default name ``hands/hand-<n>.json`` (n: the hand's number) unless
        the learner typed a name of their own."""
        auto = f"hands/hand-{self.session.table.hand_number}.json"
        if self.path in ("", self._auto):
            self.path = auto
        self._auto = auto

    def reset(self) -> None:
        """A new hand starts with the box of a new hand: its own file name (so the last hand's file is not written
        over) and no word about an earlier save."""
        self.path = ""
        self.result = None

    def save(self, typed: str) -> Saved:
        """Write the hand record (`rookcore.table.Table.save`) to where ``typed`` leads (``files.record_path``: a
        name without an extension gets ``.json``). An existing file this saver did not write is only replaced by a
        second save (``guard``: the first asks). Returns the `Saved` (also ``result``): "saved" (``path`` written),
        "question" (nothing written) or "error" (an empty path, a folder, a path refused, a write error; nothing
        written). Raises nothing for a str ``typed``."""
        target = None
        try:
            target = self.files.record_path(typed)
            question = self.guard.question(target, _("Save record")) if self.guard is not None else None
            if question:
                self.result = Saved("question", question)
                return self.result
            written = self.session.table.save(target)
        except (ValueError, OSError) as e:
            message = (shown_error(self.files, e, target) if target else str(e)) if isinstance(e, ValueError) else _("{path}: cannot write: {error}",
                                                                 path=self.files.brief(typed.strip()),
                                                                 error=e.strerror or e)
            self.result = Saved("error", message)
            return self.result
        if self.guard is not None:
            self.guard.saved(target)
        self.shown = self.files.brief(self.files.shown_path(written))
        self.result = Saved("saved", _("Saved {path}", path=self.shown), written)
        self._saved_as = (self._hand_key(), Path(written).name)
        return self.result

    def download(self) -> tuple[str, str]:
        """The record to download: (file name, JSON text) of the hand on show, named as it was last saved (else
        ``hand-<n>.json``). Raises nothing."""
        t = self.session.table
        key, name = self._saved_as or (None, "")
        if key != self._hand_key():
            name = f"hand-{t.hand_number}.json"
        return name, t.record_json()
