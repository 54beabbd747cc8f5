"""What the app, the end-of-hand panel and the tests call on a Play panel: its handlers (each forwards the learner's
action to the panel's `rookcore.play.PlaySession`, shows any error in the status line and never raises to the page)
and its properties (each reads or sets the session's). `widgets.play.PlayPanel` mixes this in.
"""
from __future__ import annotations

import functools

import ipywidgets as widgets

from rookcore import i18n
from rookcore.cards import Card
from rookcore.i18n import _
from rookcore.play import PlaySession


def _safe(method):
    """Run a handler in the panel's language (``self.lang``); show any error in the status line instead of raising
    to the page."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with i18n.using(self.lang):
            try:
                return method(self, *args, **kwargs)
            except (ValueError, OSError) as e:  # IllegalAction, RulesError, RecordError, CardError are ValueErrors
                self.show_error(str(e))
            except Exception as e:  # noqa: BLE001 - never let an error reach the page
                self.show_error(_("internal error: {kind}: {error}", kind=type(e).__name__, error=e))
            return None

    return wrapper


def _of(part: str, name: str, doc: str, settable: bool = True) -> property:
    """A property of the panel that is ``name`` of ``self.session`` (``part`` "") or of its ``part``."""
    def owner(self):
        return getattr(self.session, part) if part else self.session

    return property(lambda self: getattr(owner(self), name),
                    (lambda self, value: setattr(owner(self), name, value)) if settable else None, doc=doc)


def _button(name: str, doc: str) -> property:
    """The current decision's button ``name`` of the panel's controls (`widgets.play_controls.Commands`)."""
    return property(lambda self: getattr(self.commands, name), doc=doc)


class PlayAPI:
    """The Play panel's public face. ``session`` is its `PlaySession`; ``board``, ``commands``, ``side``,
    ``save_row`` and ``review_view`` its parts (`widgets.play_board`, `play_controls`, `play_side`, `play_save`,
    `play_review`)."""

    session: PlaySession

    table = _of("", "table", "The `rookcore.table.Table` the panel draws.", settable=False)
    lang = _of("", "lang", "The panel's language (its session's): its words and every callback use it.")
    pending_rules = _of("", "pending_rules", "The `Rules` chosen for the next new game (None: the same as now).")
    confirm = _of("", "confirm", "New hand / New game's question (`rookcore.confirm.SecondClick`).", settable=False)
    on_new_game = _of("", "on_new_game", "Callables (no arguments) run once New game has started a game.", False)
    on_bird_choice = _of("", "on_bird_choice", "Callables(on: bool) run when the learner ticks the bird box.", False)
    on_open_replay = _of("", "on_open_replay", "Callables(record, step) that open Replay at a step.", False)
    keep = _of("keeper", "keep", "Whether the game is saved after every change (`start_keeping`).")
    keep_path = _of("keeper", "path", "Where the game is kept (None: `rookcore.saved.game_path`).")
    keep_extra = _of("keeper", "extra", "The dict kept with the game (the app's deal link, the language).")
    keep_problem = _of("keeper", "problem", "Why the game is not kept, once a save failed; else \"\".")
    page = _of("keeper", "page", "This page's name as the keeper of its game (`rookcore.saved.claim`).", False)
    reviewer = _of("review", "reviewer", "None: `rookcore.annotations.review`; else a callable(record) -> items.")
    review_threshold = _of("review", "threshold", "Points: a learner's card costing this much is listed.")
    review_in_background = _of("review", "background", "Whether the review runs in a background thread.")
    review_budget = _of("review", "budget", "Seconds of search per hand for the review.")
    _review_thread = _of("review", "thread", "The review's thread (None before one ran).", False)
    _review_run = _of("review", "run", "The latest review's `AnalysisRun`.", False)

    pass_button = _button("pass_button", "The Pass button of the current decision.")
    discard_button = _button("discard_button", "The Discard button of the current decision.")
    trump_buttons = _button("trump_buttons", "{colour letter: its \"Trump …\" button} of the current decision.")
    undo_button = _button("undo_button", "The Undo button of the current decision.")
    new_hand_button = _button("new_hand_button", "The \"New hand\" button of the current decision.")
    new_game_button = _button("new_game_button", "The \"New game\" button of the current decision.")

    def bid_button(self, amount: int) -> widgets.Button:
        """The "Bid ``amount``" button (points) of the current decision."""
        return self.commands.bid_button(amount)

    @property
    def pace(self) -> float:
        """Seconds between AI moves (0 = instant); the speed slider's value."""
        return float(self.speed.value)

    @pace.setter
    def pace(self, value: float) -> None:
        """Set the seconds between AI moves (float; below 0 counts as 0, above the slider's end widens it).
        Raises ValueError/TypeError for a value that is not a number."""
        value = max(0.0, float(value))
        if value > self.speed.max:
            self.speed.max = value
        self.speed.value = value

    @property
    def reasoning_html(self) -> str:
        """str: what the reasoning pane shows, as one HTML string: its note, then one ``<div class="rook-decision">``
        per AI move of this hand, latest first (the order on the page), each told only as the whole table saw it until
        the hand is over unless `open_reasoning` is ticked (`Table.reasoning_for_learner`)."""
        return self.reasoning_pane.html

    # ----- the status line ------------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        """Show ``message`` in red in the status line."""
        self.session.complain(message)

    def show_info(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self.session.say(message)

    def _stale_click(self) -> None:
        """A click on a button of an earlier decision: said to be ignored (`PlaySession.stale_click`)."""
        self.session.stale_click()

    # ----- the learner's actions ------------------------------------------------------------------
    def _on_tap(self, card: Card) -> None:
        """A tap on one of South's cards: play it, or (while South discards) pick it or put it back."""
        if self.session.discarding():
            self._toggle_pick(card)
        else:
            self.play_card(card)

    @_safe
    def _toggle_pick(self, card: Card) -> None:
        """Pick ``card`` to put back as the nest, or unpick it (a card not in hand or nest: the error is shown)."""
        self.session.toggle_pick(card)
        self.board.draw_table(self.session)
        self.board.draw_discard_count(self.session, self.commands)

    @_safe
    def play_card(self, card: Card) -> None:
        """Play ``card`` for South, then let the AIs move. Errors (not your turn, must follow) go to the status."""
        self.session.play_card(card)

    @_safe
    def call_bid(self, amount: int) -> None:
        """Bid ``amount`` points for South, then let the AIs call."""
        self.session.call_bid(amount)

    @_safe
    def call_pass(self) -> None:
        """Pass for South, then let the AIs call (or play, if the auction ends)."""
        self.session.call_pass()

    @_safe
    def name_trump(self, colour: str) -> None:
        """Name ``colour`` (R, Y, G, B) as trump for South, then let the AIs play."""
        self.session.name_trump(colour)

    @_safe
    def discard(self, cards=None) -> None:
        """Put back ``cards`` (default: the toggled picks) as the nest; must be exactly nest_size cards."""
        self.session.discard(cards)

    @_safe
    def show_hint(self) -> None:
        """Show what the AI would do in South's seat (from South's view only) and why."""
        self.session.show_hint()
        self.commands.draw_hint(self.session)

    @_safe
    def undo(self) -> None:
        """Take back South's last action and the AI moves after it."""
        self.session.undo()
        self._focus_next()

    @_safe
    def _new_hand_clicked(self) -> None:
        """The New hand button: in the middle of a hand it first asks (`confirm`), then deals (`new_hand`)."""
        self.session.new_hand_clicked()

    @_safe
    def _new_game_clicked(self) -> None:
        """The New game button: once the game has started (and is not over) it first asks (`confirm`)."""
        self.session.new_game_clicked()

    @_safe
    def new_hand(self) -> None:
        """Deal the next hand (or redeal an unfinished one) and let the AIs act up to South's turn."""
        self.session.new_hand()

    @_safe
    def new_game(self) -> None:
        """Start a new game with ``pending_rules`` if Settings chose a rule set (else the same one), applying the bird
        checkbox, and let the AIs act up to South's turn."""
        self.session.new_game()

    @_safe
    def next_hand(self) -> None:
        """The end-of-hand panel's "Next hand": the next hand, or a new game once the game is over; a click while a
        hand is in play only says so."""
        self.session.next_hand()

    @_safe
    def set_bird(self, on: bool | None) -> None:
        """Play with (True) or without (False) the bird from the next new game (`PlaySession.set_bird`), show it on
        the checkbox and say it in the status line. Errors go to the status line."""
        self.session.set_bird(on)
        self.commands.draw_bird(self.session)

    @_safe
    def save(self, path: str | None = None) -> str | None:
        """Write the hand record (rook-hand/1 JSON) to ``path`` (default: the Save-to box), which must lie inside the
        app's folder (`widgets.paths.record_path`: a name without an extension gets ``.json``); show the path
        written and return it. An existing file this panel did not write is only replaced by a second Save
        (`widgets.paths.ReplaceGuard`: the first asks; returns None). An empty path, a folder, a path outside the
        app's folder or a write error is shown in the status line (with the turn prompt) and next to the button,
        not raised past the panel (returns None)."""
        saved = self.session.save(path)
        self.save_row.draw()
        return saved.path if saved.kind == "saved" else None

    # ----- the end of the hand --------------------------------------------------------------------
    @_safe
    def open_replay(self, step: int = 0) -> None:
        """"Replay this hand": open Replay on the finished hand's record at ``step`` through the ``on_open_replay``
        hooks (the app selects the Replay tab). A hand still in play, a bad step or a page without Replay is said in
        the status line; nothing is raised."""
        self.session.open_replay(step)

    @_safe
    def open_replay_at(self, record, step: int) -> None:
        """Open Replay on ``record`` (a finished hand's `HandRecord`) at navigator ``step`` (the review's costly-card
        buttons). Errors (a bad step, no Replay on the page) go to the status line."""
        self.session.open_replay_at(record, step)

    @_safe
    def review(self) -> None:
        """The "Could we have done better?" button (`rookcore.play.ReviewJob.start`): in a background thread unless
        ``review_in_background`` is False; "Analyzing…" is shown meanwhile, with the seconds elapsed."""
        self.session.start_review()

    @_safe
    def stop_review(self) -> None:
        """The review's Stop button: the costly cards proven so far stay listed; the review can start again."""
        self.session.stop_review()

    def wait_review(self, timeout: float | None = None) -> bool:
        """Wait for a background review to end; True if none is running any more."""
        return self.session.review.wait(timeout)

    # ----- the kept game --------------------------------------------------------------------------
    def start_keeping(self, path=None, extra: dict | None = None, claim: bool = True) -> str:
        """Keep the game from now on (`rookcore.play.Keeper.start`). Returns "" when the game is kept (or will be),
        else the sentence saying why not. Raises nothing."""
        return self.session.keeper.start(path, extra, claim)

    def keep_game(self) -> bool:
        """Save the kept game now (`rookcore.play.Keeper.keep_game`). Returns True if it was saved. Raises
        nothing."""
        return self.session.keeper.keep_game()

    def _keep_target(self):
        """Where the game is kept (`rookcore.play.Keeper.target`)."""
        return self.session.keeper.target()
