"""The Play panel: a learner (South) plays Rook with an AI partner (North) against two AIs (East, West).

`PlayPanel` is an ``ipywidgets.VBox`` that draws a `rookcore.play.PlaySession` (the session logic: the AIs' pace,
the status line, the learner's decisions, Hint, the questions before a hand or a game is thrown away, the kept
game, saved records, the end-of-hand review) and its `rookcore.table.Table` (legal bids, playable cards and their
reasons, tallies, the score sheet), and forwards the learner's actions to the session. Its parts draw and forward:
`Board` (play_board: header, status line, card table, auction, discard, trump), `Commands` (play_controls: the
decision's buttons, Hint, Undo, New hand, New game, the bird box, the speed slider), `SidePane` (play_side: tally,
score sheet, game over, reasoning), `SaveRow` (play_save), `ReviewView` (play_review: the end of the hand and the
review); `PlayAPI` (play_api) is what the app and the tests call.

Usage in a notebook / Voila::

    from widgets.play import PlayPanel
    PlayPanel(seed=7)          # pace=0.6 seconds per AI move; PlayPanel(pace=0) for instant AIs

Stable hooks for browser tests (CSS classes via ``add_class`` and widget descriptions):

==============================  =====================================================================
element                         how to find it
==============================  =====================================================================
the whole panel                 class ``rook-play``
header (rules, bid, trump)      class ``rook-header``
status line                     class ``rook-status``; errors inside it are ``<span class="rook-error">``
the card table                  `widgets.table_view.TableView` (class ``rook-table``; in the page ``.rook-tv``):
                                the seats, the trick in the centre, the last trick, the nest and South's hand;
                                South's cards are ``button.rook-tv-card`` (``data-code`` "R14", class ``legal``
                                when a tap plays or picks it, ``picked``, ``from-nest``; ``aria-label`` "Play R14"
                                or the reason it cannot be played, which a tap shows in ``.rook-tv-reason``)
auction buttons                 class ``rook-bid``; descriptions "Bid 75" ... and "Pass"
auction history                 class ``rook-auction-history``
discard picks                   South taps the cards on the table (hand and nest) to pick them
discard counter / button        class ``rook-discard-count`` / Button "Discard" (class ``rook-discard-button``)
trump buttons                   class ``rook-trump``; descriptions "Trump Red", "Trump Yellow", "Trump Green",
                                "Trump Black"
speed control                   FloatSlider class ``rook-speed`` ("Seconds per AI move", 0 = instant)
reasoning pane                  class ``rook-reasoning`` (a box of one HTML per AI move, each a
                                ``<div class="rook-decision">``, latest first, and where a kind of score first
                                appears ``<div class="rook-score-meaning">`` saying what it means) under its note
                                (``rook-reasoning-note``); the cards South cannot see are masked ("buries 5 cards",
                                "plays another card") until the hand is over; Checkbox class ``rook-open-reasoning``
                                ("Reveal hidden cards as they play", off by default: on, the reasoning is whole)
hint button / hint text         Button "Hint" (class ``rook-hint-button``) / class ``rook-hint``
tally                           class ``rook-tally``
score sheet                     class ``rook-score-sheet`` (an HTML ``<table>`` inside)
game-over banner                class ``rook-game-over`` (empty until the game is won)
controls                        Buttons "Undo", "New hand", "New game" (classes ``rook-undo``,
                                ``rook-new-hand``, ``rook-new-game``); Checkbox class ``rook-bird-toggle``
save                            Text class ``rook-save-path``, Button "Save record" (class ``rook-save``),
                                result class ``rook-save-result``, download link class ``rook-download``
                                (``<a download href="data:application/json;base64,...">``)
end of hand                     the end-of-hand panel, class ``rook-hand-end`` (`widgets.hand_end`: the result,
                                "Replay this hand", "Next hand"); shown only once the hand is over
review (after a hand ends)      Button "Could we have done better?" (class ``rook-review``; in the end-of-hand
                                panel), result HTML class ``rook-review-list`` ("Analyzing…", then one
                                ``<li class="rook-review-item">`` per costly South card, or "No costly cards"; the
                                first lead's result with best play, its proven range refined in place, in
                                ``<div class="rook-review-start">``, the auction judged double dummy in
                                ``<div class="rook-review-auction">``, and when the time budget ran out
                                ``<div class="rook-review-budget">``), then a Button per costly card (class
                                ``rook-review-replay``) opening Replay just after it
==============================  =====================================================================

Callbacks never raise to the page: IllegalAction / ValueError / OSError (and any other error) are
shown in red in the status line and the state is left unchanged.
"""
from __future__ import annotations

import time  # (tests pace the AIs by patching widgets.play.time.sleep: the time module the session sleeps with)

import ipywidgets as widgets

from rookcore import i18n
from rookcore.play import PlaySession
from rookcore.play.review_words import HINDSIGHT, REVIEW_SCOPE, REVIEW_SCOPE_BID  # noqa: F401 - re-exported
from rookcore.rules import Rules
from rookcore.table import Table

from . import paths
from .hand_end import classed
from .play_api import PlayAPI
from .play_board import PLAY_STYLE, Board
from .play_controls import Commands
from .play_review import ReviewView
from .play_save import SaveRow
from .play_side import SidePane

SEAT_NAMES = {0: "North", 1: "East", 2: "South", 3: "West"}
"""The seats' names in English (the page names them with `widgets.table_view.seat_long_name`, translated)."""
TEAM_NAMES = {"NS": "N–S", "EW": "E–W"}


class PlayPanel(PlayAPI, widgets.VBox):
    """The Play tab: South's hand on the card table, auction, discard, trump, paced AI moves and reasoning: a view
    of its `PlaySession` (``session``).

    Args:
      table: a `rookcore.table.Table` (default: a new CrowsNest table with ``seed``).
      seed: deal/AI seed for the default table (None = random).
      pace: seconds between AI moves (float >= 0; 0 = instant). Also the ``pace`` attribute and the speed slider.
      pending_rules: the `Rules` chosen for the next new game (None: the same as now); also an attribute.
      lang: the language of the panel's words (a `rookcore.i18n` code; None: the language active when the panel
        is made, English by default). Every callback runs in it (`rookcore.i18n.using`); `set_language` changes it.

    The AIs before the learner's first turn act instantly at construction; later AI moves are paced.
    Public handlers (also wired to the buttons, `widgets.play_api.PlayAPI`): `play_card`, `call_bid`, `call_pass`,
    `name_trump`, `discard`, `show_hint`, `undo`, `new_hand`, `new_game`, `save`, `set_bird`; the New hand and New
    game buttons first ask when they would throw away a hand or a game in play (``confirm``, a
    `rookcore.confirm.SecondClick`: a second click at least ``confirm.wait`` seconds later goes ahead), while the
    methods act at once. ``on_new_game``: callables (no arguments) that `new_game` runs once the new game has
    started (the app's header uses it); ``on_bird_choice``: callables(on: bool) run when the learner ticks or
    unticks "Play with the bird" (Settings follows it); ``on_open_replay``: callables(record: HandRecord,
    step: int) that open Replay on a finished hand at the navigator's step (`open_replay`, the end-of-hand panel's
    "Replay this hand" and the review's costly-card buttons; the app shows the Replay tab). ``hand_end``: the
    end-of-hand panel (`widgets.hand_end.HandEndPanel`), shown once the hand is over; `next_hand` is its "Next hand".
    """

    def __init__(self, table: Table | None = None, seed: int | None = None, pace: float = 0.6,
                 pending_rules: Rules | None = None, lang: str | None = None) -> None:
        self.session = s = PlaySession(table, seed=seed, pace=pace, pending_rules=pending_rules, lang=lang,
                                       files=paths, guard=paths.ReplaceGuard())
        self.resumed = False  # True when the app resumed a kept game into this panel
        with i18n.using(self.lang):
            self.board = Board(pace, on_tap=self._on_tap, on_stale=self._stale_click)
            self.commands = Commands(self, pace, s.table.bird_next_game, on_stale=self._stale_click,
                                     on_pace=self._on_pace, on_bird=self._on_bird)
            self.side = SidePane(on_reveal=self._draw_reasoning)
            self.save_row = SaveRow(s.saver, on_save=lambda: self.save())
            self.review_view = ReviewView(s, self)
        for part in (self.board, self.commands, self.side, self.save_row, self.review_view):
            for name in part.WIDGETS:  # the widgets keep their names on the panel (the app and the tests use them)
                setattr(self, name, getattr(part, name))
        # the table, then what the learner does now right under their hand: all of it inside a laptop's window
        actions = classed(widgets.VBox([self.auction_box, self.discard_box, self.trump_box, self.controls]),
                          "rook-actions")
        self._playing_order = [self.status, self.table_view, actions, self.hint_html, self.hand_end, self.review_box]
        # once the hand is over its result comes first, in the window, above the table and its last trick
        self._result_order = [self.status, self.hand_end, self.review_box, actions, self.table_view, self.hint_html]
        self._main = classed(widgets.VBox(self._playing_order, layout=widgets.Layout(flex="3 1 560px", min_width="0")),
                             "rook-play-main")
        columns = widgets.HBox([self._main, self.side.box],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        style = widgets.HTML(PLAY_STYLE, layout=widgets.Layout(display="none"))
        super().__init__([style, self.header, self.game_over, columns, self.speed, self.save_row.box])
        self.add_class("rook-play")
        s.on_status.append(lambda: self.board.draw_status(s.status))
        s.review.listeners.append(self.review_view.draw)  # from the review's thread too
        s.draw, s.move_ais = self.refresh, lambda: self._advance()
        with i18n.using(self.lang):
            self._draw_words()
        self.refresh()

    def _draw_words(self) -> None:
        """The words of the panel's lasting widgets in the active language (the decision's buttons get theirs as
        they are made)."""
        for part in (self.board, self.commands, self.side, self.save_row, self.review_view):
            part.draw_words()

    def set_language(self, lang: str | None) -> None:
        """Show the panel in ``lang`` (a `rookcore.i18n` code, normalized: an unknown one is English) from now on:
        its words, the table, the status line (the turn prompt) and the end-of-hand panel are redrawn; every later
        callback runs in it. A review already shown keeps its words until it is run again. Raises nothing."""
        self.lang = i18n.normalize(lang)
        # the action buttons are made anew in the new language (a click on an old one is said to be ignored)
        self.commands.start(self.session.start_decision(("language", self.lang, time.monotonic())))
        with i18n.using(self.lang):
            self._draw_words()
            self.refresh()

    def refresh(self) -> None:
        """Redraw everything from the session (which first brings itself in step with the table: `PlaySession.settle`),
        in the panel's language."""
        with i18n.using(self.lang):
            s = self.session
            s.settle()
            self.commands.start(s.decision)
            self.board.draw(s, self.commands)
            self.side.draw(s.table)
            self.commands.draw(s)
            self.commands.draw_hint(s)
            self.save_row.draw()
            self.review_view.draw()
            over = s.table.state.is_over
            order = self._result_order if over else self._playing_order
            if list(self._main.children) != order:
                self._main.children = order
            self.review_view.draw_hand_end()

    def _draw_reasoning(self) -> None:
        """Redraw the reasoning pane (`widgets.reasoning.ReasoningPane.draw`) in the panel's language."""
        with i18n.using(self.lang):
            self.reasoning_pane.draw(self.table)

    def _on_pace(self) -> None:
        self.session.pace = self.pace
        self.table_view.pace = self.pace  # the cards' motion follows the AIs' pace
        self.keep_game()

    def _on_bird(self, on: bool) -> None:
        self.set_bird(on)
        for callback in self.on_bird_choice:
            callback(bool(on))

    def _advance(self) -> None:
        """Let the AIs act until the learner must act, redrawing after each move (`PlaySession.advance`), then move
        the keyboard focus on."""
        self.session.advance(self.refresh)
        self._focus_next()

    def next_focus(self) -> widgets.DOMWidget | None:
        """The control a keyboard player most likely wants next (None: nothing to do): the first playable card,
        the lowest bid (else Pass), the first card of the discard picker, the first trump colour; New hand once
        the hand is over, New game once the game is (`PlaySession.focus`)."""
        target = self.session.focus()
        if target in ("new game", "new hand"):
            return self.new_game_button if target == "new game" else self.new_hand_button
        if target == "bid":
            return self.bid_box.children[0] if self.bid_box.children else None
        if target == "trump":
            return next(iter(self.trump_buttons.values()))
        if target == "discard" or (target == "card" and self.table_view.cards(legal_only=True)):
            return self.table_view
        return None

    def _focus_next(self) -> None:
        """Move the keyboard focus to `next_focus` (its buttons are new after every decision, so the focus the
        player had was lost with the old ones)."""
        target = self.next_focus()
        if target is self.table_view:
            target.focus_first()
        elif target is not None and not getattr(target, "disabled", False):
            target.focus()
