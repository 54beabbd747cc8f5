"""Keeping a Play session's game for the learner's next visit (`rookcore.saved`): one page keeps it at a time.

`Keeper` saves the game, its settings and the AI pace after every change, once ``start`` is called; it stops, and
says why once, when a save fails (a read-only home folder) or a newer page has claimed the game (the app opened
again). A newer page that has only opened the game does not take it from a page in which the learner still acts
(`Keeper.learner_acted`: a tab opened and closed unused leaves the game with the page in use). A page opened by a
link other than a deal claims the game only at its first change, and only if the kept file is still the one it
read. No UI import.
"""
from __future__ import annotations

import uuid

from .. import saved
from ..i18n import _

__all__ = ["Keeper"]


class Keeper:
    """Keeps ``session``'s game (a `rookcore.play.PlaySession`: its ``table``, ``pace`` and ``pending_rules``).

    Attributes: ``keep`` (save after every change), ``path`` (where; None: `rookcore.saved.game_path`), ``extra``
    (a dict saved with the game: the app's deal link, the page's language), ``problem`` (why the game is not kept,
    once a save failed or another page took it over; "" otherwise), ``page`` (this page's name as the keeper of its
    game, `rookcore.saved.claim`).
    """

    def __init__(self, session) -> None:
        self.session = session
        self.keep = False
        self.path = None
        self.extra: dict = {}
        self.problem = ""
        self.page = uuid.uuid4().hex
        self._note = ""  # a note about keeping for the next status line, said once
        self._claim_later = None  # (signature, file stamp) while the page keeps the game only from its first change
        self._lost_to: str | None = None  # the newer page that took the game from this one

    def start(self, path=None, extra: dict | None = None, claim: bool = True) -> str:
        """Keep the game from now on: this page claims it (`rookcore.saved.claim`: an older page with the same
        game stops saving over it), saves it now and after every change (`keep_game`), to ``path`` (a path-like;
        None: `rookcore.saved.game_path`) with the dict ``extra``. With ``claim`` False (a page opened by a link,
        showing the learner's game that another page may keep) the page claims and saves it only at the first change
        made here, and only if the kept file is still the one it was read from; otherwise its moves are not kept
        and the status line says so once. Returns "" when the game is kept (or will be), else the sentence saying
        why not (for the caller's status line). Raises nothing."""
        self.keep, self.path, self.extra = True, path, dict(extra or {})
        target = self.target()
        self._claim_later = None
        if not claim:  # what the game and the file were when this page opened: `_claim_now`
            self._claim_later = (self.signature(), saved.file_stamp(target))
            return ""
        try:
            if target is not None:
                saved.claim(target, self.page, "opened")
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop(e)
        if self.keep_game():
            return ""
        self._note = ""
        return self.problem

    def signature(self) -> tuple:
        """What a save would change in the kept file (cheaply: the game, the hand and step on show, the settings)."""
        s = self.session
        t = s.table
        return (id(t.game), t.hand_number, t.state.step, len(t.game.hands), t.level, s.pace,
                repr(s.pending_rules), t.bird_next_game, repr(sorted(self.extra.items())))

    def _claim_now(self, path) -> bool:
        """A page that keeps its game from its first change (``start(claim=False)``): True once it has claimed the
        game at ``path`` (at this, the first change); False while nothing has changed, or when the kept file changed
        since the page read it (another page went on with the game: this one stops keeping, saying so). Raises
        nothing."""
        signature, stamp = self._claim_later
        if self.signature() == signature:
            return False
        if saved.file_stamp(path) != stamp:
            self.keep, self._claim_later = False, None
            self.problem = _("Your game went on in another page after this one opened: moves made here are not "
                             "kept (reload this page to go on with the game).")
            self._note = f" ({self.problem})"
            return False
        self._claim_later = None
        try:
            saved.claim(path, self.page)
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop(e)
            return False
        return True

    def target(self):
        """Where the game is kept: ``path``, else `rookcore.saved.game_path` (None: nowhere)."""
        return self.path if self.path is not None else saved.game_path()

    def _stop(self, why) -> None:
        self.keep = False
        self.problem = _("This game cannot be kept for your next visit: {why}.", why=why)
        self._note = f" ({self.problem})"

    def keep_game(self) -> bool:
        """With ``keep`` on, save the game, ``extra``, the rules chosen for the next game (the session's
        ``pending_rules``) and the AI pace for the next visit (`rookcore.saved.save_table`). Returns True if it was
        saved. Keeping stops when a save fails (e.g. a read-only home folder) and when a newer page has claimed the
        game (the app opened again: `rookcore.saved.keeper`); the next status line says so once (`take_note`).
        Raises nothing."""
        if not self.keep:
            return False
        path = self.target()
        if path is None:
            return False
        if self._claim_later is not None and not self._claim_now(path):
            return False
        holder = saved.keeper(path)
        if holder not in (None, self.page):
            self.keep, self._lost_to = False, holder
            self.problem = (_("Your game went on in another page after this one opened: moves made here are not "
                              "kept (reload this page to go on with the game).") if saved.claim_state(path) == "back"
                            else
                            _("This game is open in a newer page, which keeps it from now on: moves made here are not "
                              "kept."))
            self._note = f" ({self.problem})"
            return False
        s = self.session
        try:
            saved.save_table(s.table, path, extra={**self.extra, "pending_rules": s.pending_rules, "pace": s.pace})
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop(e)
            return False
        return True

    def learner_acted(self) -> None:
        """Called when the learner acts in this page (a call, a card, a discard, trump, undo, a new hand or game),
        before the game is kept: this page's claim is marked used (`rookcore.saved.claim`), and a game that a newer
        page took only by opening it (`rookcore.saved.claim_state` "opened": nothing done there since) comes back to
        this page, which keeps it again (that page, if the learner acts in it later, says its moves are not kept). A
        page whose game was taken by a page in use, or whose keeping failed, stays as it is. Raises nothing."""
        path = self.target()
        if self._claim_later is not None or path is None:
            return  # a link's page claims at its first change (keep_game)
        holder, state = saved.keeper(path), saved.claim_state(path)
        if holder == self.page:
            new_state = "used" if state == "opened" else None
        elif holder is not None and state == "opened" and (self.keep or self._lost_to == holder):
            new_state = "back"
        else:
            return
        try:
            if new_state is not None:
                saved.claim(path, self.page, new_state)
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop(e)
            return
        if holder != self.page:
            self.keep, self._lost_to, self.problem, self._note = True, None, "", ""

    def take_note(self) -> str:
        """The note about keeping for the status line (" (why the game is no longer kept)"), once; else ""."""
        note, self._note = self._note, ""
        return note
