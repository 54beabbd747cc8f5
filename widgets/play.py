"""The Play panel: a learner (South) plays Rook with an AI partner (North) against two AIs (East, West).

`PlayPanel` is an ``ipywidgets.VBox`` that draws a `rookcore.table.Table` and calls its methods.
It holds no rule logic: legal bids, playable cards and their reasons, hints, tallies and the
score sheet all come from the Table (and through it from the engine).

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

import base64
import functools
import threading
import time
import uuid
from pathlib import Path
from html import escape

import ipywidgets as widgets

from rookcore import annotations, i18n, saved
from rookcore.actions import PASS, NameTrump, Play, bid as make_bid
from rookcore.cards import COLOURS, Card
from rookcore.hand import SEATS, TEAMS, Phase
from rookcore.i18n import N_, _, ngettext, pgettext
from rookcore.rules import Rules
from rookcore.table import Table
from rookcore.words import bird_name as bird_word, colour_name, rules_title, seat_name, team_name

from .cards import PALETTE, border_legend
from .clicks import DecisionButtons, SecondClick
from .hand_end import HandEndPanel, classed as _classed
from .paths import ReplaceGuard, brief, record_path, shown_path
from .progress import AnalysisRun, Cancelled, cancellable_analysis, stop_analysis
from .reasoning import ReasoningPane, decision_html
from .table_view import TableView, seat_long_name

SEAT_NAMES = {0: "North", 1: "East", 2: "South", 3: "West"}
"""The seats' names in English (the page names them with `widgets.table_view.seat_long_name`, translated)."""
TEAM_NAMES = {"NS": "N–S", "EW": "E–W"}
HINDSIGHT = N_("This is hindsight: you could not see the other hands. A card that costs points here can still have "
               "been a fair choice (the Hint weighs the deals that fit what you saw, e.g. a chance to set the bid).")
REVIEW_SCOPE = N_("The review looks at the cards played; the auction, the discard and the choice of trump are not "
                  "reviewed.")
REVIEW_SCOPE_BID = N_("The review looks at the cards played and the final bid; the rest of the auction, the discard "
                      "and the choice of trump are not reviewed.")
"""The scope note once the review also judged the auction (its double-dummy analysis gave the first lead's result)."""


def _small(message: str) -> str:
    """``message`` (an English id of this module) translated, escaped and set in ``<small>``."""
    return f"<small>{escape(_(message), quote=False)}</small>"


def _team(code: str) -> str:
    """The team "NS"/"EW" in the active language ("N–S")."""
    return team_name(0 if code == "NS" else 1)
PLAY_STYLE = ("<style>.rook-play .widget-html, .rook-play .widget-html-content {min-height: 0; line-height: 1.35}"
              ".rook-play .widget-box > * {flex-shrink: 0}"
              ".rook-play .rook-status {margin: 0 0 2px} .rook-play .rook-header {margin: 0}"
              ".rook-play .rook-actions .widget-button {height: 30px; margin: 2px 3px 2px 0}"
              ".rook-play .rook-actions {margin-top: 4px}"
              # the auction line and the discard prompt wrap inside the pane (a phone, long words, Persian)
              ".rook-play .rook-auction .widget-box > .rook-auction-history {flex: 1 1 0; min-width: 0}"
              ".rook-play .rook-discard > .rook-discard-count {flex: 1 1 240px; min-width: 0}"
              ".rook-play .rook-auction-history .widget-html-content, .rook-play .rook-discard-count "
              ".widget-html-content {white-space: normal; overflow-wrap: anywhere; flex-shrink: 1; min-width: 0}"
              # the score sheet fits the side pane; if it cannot, its own box scrolls sideways (not the pane)
              ".rook-play .rook-score-sheet {min-width: 0; max-width: 100%}"
              ".rook-play .rook-score-sheet .widget-html-content {flex-shrink: 1; min-width: 0; width: 100%}"
              ".rook-play .rook-score-scroll {overflow-x: auto; max-width: 100%}</style>")
"""The Play tab's spacing: text lines and buttons packed close, so that the table and the learner's controls fit a
laptop's window (1366×768 and 1024×768) without scrolling; the auction line and the discard prompt wrap, and the
score sheet keeps to the side pane's width."""
_TABLE_STYLE = ("<style>.rook-score-table, .rook-tally-table {border-collapse: collapse}"
                ".rook-score-table {width: 100%; font-size: 12px; line-height: 1.25}"
                ".rook-score-table td, .rook-score-table th {padding: 1px 2px; border-bottom: 1px solid #ddd;"
                " text-align: right} .rook-score-table td {white-space: nowrap}"
                " .rook-score-table th {white-space: normal; font-size: 10.5px; font-weight: 600}</style>")


def _safe(method):
    """Run a callback in the panel's language (``self.lang``); show any error in the status line instead of
    raising to the page."""

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


class PlayPanel(widgets.VBox):
    """The Play tab: South's hand as card buttons, auction, discard, trump, paced AI moves and reasoning.

    Args:
      table: a `rookcore.table.Table` (default: a new CrowsNest table with ``seed``).
      seed: deal/AI seed for the default table (None = random).
      pace: seconds between AI moves (float >= 0; 0 = instant). Also the ``pace`` attribute and the speed slider.
      pending_rules: the `Rules` chosen for the next new game (None: the same as now); also an attribute.
      lang: the language of the panel's words (a `rookcore.i18n` code; None: the language active when the panel
        is made, English by default). Every callback runs in it (`rookcore.i18n.using`); `set_language` changes it.

    The AIs before the learner's first turn act instantly at construction; later AI moves are paced.
    Public handlers (also wired to the buttons): `play_card`, `call_bid`, `call_pass`, `name_trump`,
    `discard`, `show_hint`, `undo`, `new_hand`, `new_game`, `save`, `set_bird`; the New hand and New game
    buttons first ask when they would throw away a hand or a game in play (``confirm``, a
    `widgets.clicks.SecondClick`: a second click at least ``confirm.wait`` seconds later goes ahead), while the
    methods act at once. ``on_new_game``: a list of callables (no arguments) that `new_game` runs once the new game
    has started (the app's header uses it); ``on_bird_choice``: callables(on: bool) run when the learner ticks or
    unticks "Play with the bird" (Settings follows it); ``on_open_replay``: callables(record: HandRecord,
    step: int) that open Replay on a finished hand at the navigator's step (`open_replay`, the end-of-hand panel's
    "Replay this hand" and the review's costly-card buttons; the app shows the Replay tab). ``hand_end``: the
    end-of-hand panel (`widgets.hand_end.HandEndPanel`), shown once the hand is over; `next_hand` is its "Next hand".
    """

    def __init__(self, table: Table | None = None, seed: int | None = None, pace: float = 0.6,
                 pending_rules: Rules | None = None, lang: str | None = None) -> None:
        self.lang = i18n.normalize(lang) if lang is not None else i18n.current_language()
        with i18n.using(self.lang):
            self._build(table, seed, pace, pending_rules)

    def _build(self, table: Table | None, seed: int | None, pace: float, pending_rules: Rules | None) -> None:
        """The panel's widgets (in the active language); see the class."""
        self.table = table if table is not None else Table(seed=seed)
        self.keep = False  # save the game after every change (`start_keeping`)
        self.keep_path = None  # where (None: `rookcore.saved.game_path`)
        self.keep_extra: dict = {}  # saved with the game (the app's deal link: {"deal": seed})
        self.keep_problem = ""  # why the game is not kept, once a save failed
        self._keep_note = ""  # a note about keeping for the next status line, said once
        self._claim_later = None  # (signature, file stamp) while the page keeps the game only from its first change
        self.page = uuid.uuid4().hex  # this page's name as the keeper of its game (`rookcore.saved.claim`)
        self.resumed = False  # True when the app resumed a kept game into this panel
        self.pending_rules = pending_rules  # chosen in Settings, used by the next new game
        self.on_new_game: list = []  # callables (no arguments) run after New game has started a game
        self.on_bird_choice: list = []  # callables(on: bool) run when the learner ticks or unticks the bird box
        self._buttons = DecisionButtons(self._stale_click)  # action buttons, new ones for each decision
        self.confirm = SecondClick()  # New hand / New game ask before throwing a hand or a game away
        self._picks: set[Card] = set()  # the cards tapped to put back as the nest (discard phase)
        self._discard_key = None
        self._auto_path = ""
        self._saved_as: tuple[tuple[int, int], str] | None = None  # ((game, hand), name) of the last save
        self._replace_guard = ReplaceGuard()
        self._ai_moving = False  # True while _advance paces the AIs: Hint, Undo, New hand and New game wait
        self._drawing_bird = False  # True while the bird checkbox is set to what the table says (not a click)

        self.header = _classed(widgets.HTML(), "rook-header")
        self.status = _classed(widgets.HTML(), "rook-status")
        # the card table: seats, trick, nest and South's hand, tapped to play or to pick the discard
        self.table_view = _classed(TableView(pace=float(pace)), "rook-table")
        self.table_view.on_tap(self._on_tap)
        self.table_view.on_stale(self._stale_click)

        # auction
        self.bid_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.auction_html = _classed(widgets.HTML(), "rook-auction-history")
        self.auction_title = widgets.HTML()
        self.auction_box = _classed(widgets.VBox([
            widgets.HBox([self.auction_title, self.auction_html], layout=widgets.Layout(
                align_items="center")), self.bid_box]), "rook-auction")

        # discard
        self.discard_count = _classed(widgets.HTML(), "rook-discard-count")
        self.discard_box = _classed(widgets.HBox(layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
                                    "rook-discard")

        # trump
        self.trump_box = _classed(widgets.HBox(), "rook-trump-box")

        # controls
        self.speed = _classed(widgets.FloatSlider(value=float(pace), min=0.0, max=max(2.0, float(pace)), step=0.1,
                                                  style={"description_width": "initial"}), "rook-speed")
        self.speed.observe(self._on_pace, names="value")
        self.hint_button = _classed(widgets.Button(), "rook-hint-button")
        self.hint_button.on_click(lambda _b: self.show_hint())
        self.bird_toggle = _classed(widgets.Checkbox(value=self.table.bird_next_game, indent=False,
                                                     layout=widgets.Layout(width="auto")), "rook-bird-toggle")
        self.bird_toggle.observe(self._on_bird, names="value")
        self.save_path = _classed(widgets.Text(layout=widgets.Layout(width="360px"),  # the label as wide as its words
                                               style={"description_width": "initial"}), "rook-save-path")
        self.save_button = _classed(widgets.Button(), "rook-save")
        self.save_button.on_click(lambda _b: self.save())
        self.save_result = _classed(widgets.HTML(), "rook-save-result")
        self.download = _classed(widgets.HTML(), "rook-download")

        # "Could we have done better?" (double-dummy review of South's cards once the hand is over)
        self.reviewer = None  # None: rookcore.annotations.review; tests may set a callable(record) -> list[dict]
        self.review_threshold = 10  # points: a South card costing this much (or marked ?/??) is listed
        self.review_in_background = True  # the analysis takes seconds to minutes: keep the page responsive
        self.review_budget = annotations.DEFAULT_BUDGET  # seconds of search per hand, then what is proven is shown
        self._review_run: AnalysisRun | None = None  # the latest review started (its progress, report and clock)
        self._review_record = None  # the record it reviews (no AI reasons)
        self._review_lock = threading.Lock()  # the worker, its clock and the panel write the review under it
        self._review_thread: threading.Thread | None = None
        self._review_solver = None  # the running review's Solver (cancelled when a new hand is dealt)
        self._review_key = None
        self._review_token = 0
        self.review_button = _classed(widgets.Button(layout=widgets.Layout(width="auto", min_width="230px")),
                                      "rook-review")
        self.review_button.on_click(lambda _b: self.review())
        self.review_stop_button = _classed(widgets.Button(
            button_style="danger", layout=widgets.Layout(width="80px", display="none")), "rook-review-stop")
        self.review_stop_button.on_click(lambda _b: self.stop_review())
        self._review_so_far: tuple[int, int, str] | None = None  # (done, total, costly cards html) last shown
        self.review_html = _classed(widgets.HTML(), "rook-review-list")
        self.review_box = _classed(widgets.VBox([widgets.HBox([self.review_button, self.review_stop_button]),
                                                 self.review_html],
                                                layout=widgets.Layout(display="none", margin="6px 0")),
                                   "rook-review-box")
        # the end-of-hand panel (widgets.hand_end): the result, the review's buttons, Replay this hand, Next hand
        self.on_open_replay: list = []  # callables(record: HandRecord, step: int) that open Replay at a step
        self.review_links = _classed(widgets.VBox(), "rook-review-links")  # a Replay button per costly card
        self._review_items_so_far: list[dict] = []  # the costly cards the running review has found so far
        self._review_replay = None  # the reviewed hand's record (the AIs' reasons as comments), for those buttons
        self.review_box.children = [self.review_html, self.review_links]  # its buttons go to the panel
        self.hand_end = HandEndPanel(self.open_replay, self.next_hand, [self.review_button, self.review_stop_button])

        self.hint_html = _classed(widgets.HTML(), "rook-hint")
        self.tally_html = _classed(widgets.HTML(), "rook-tally")
        self.reasoning_pane = ReasoningPane(on_reveal=lambda: self._draw_reasoning())
        self.score_title = widgets.HTML()
        # the pane's parts, as tests and the app know them
        self.reasoning, self.reasoning_note = self.reasoning_pane.moves, self.reasoning_pane.note
        self.open_reasoning = self.reasoning_pane.reveal
        self.score_html = _classed(widgets.HTML(), "rook-score-sheet")
        self.game_over = _classed(widgets.HTML(), "rook-game-over")

        self.controls = _classed(widgets.HBox(layout=widgets.Layout(flex_flow="row wrap")), "rook-controls")
        save_row = widgets.HBox([self.save_path, self.save_button, self.save_result, self.download],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        side = _classed(widgets.VBox([self.tally_html, self.score_title, self.score_html,
                                      self.reasoning_pane],
                                     layout=widgets.Layout(flex="1 1 280px", max_width="460px", min_width="0",
                                                           padding="0 0 0 10px")), "rook-play-side")
        # the table, then what the learner does now right under their hand: all of it inside a laptop's window
        actions = _classed(widgets.VBox([self.auction_box, self.discard_box, self.trump_box, self.controls]),
                           "rook-actions")
        self._playing_order = [self.status, self.table_view, actions, self.hint_html, self.hand_end, self.review_box]
        # once the hand is over its result comes first, in the window, above the table and its last trick
        self._result_order = [self.status, self.hand_end, self.review_box, actions, self.table_view, self.hint_html]
        self._main = _classed(widgets.VBox(self._playing_order,
                                           layout=widgets.Layout(flex="3 1 560px", min_width="0")), "rook-play-main")
        main = self._main
        columns = widgets.HBox([main, side], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        style = widgets.HTML(PLAY_STYLE, layout=widgets.Layout(display="none"))
        super().__init__([style, self.header, self.game_over, columns, self.speed, save_row])
        self.add_class("rook-play")
        self._draw_words()
        self.table.run_ai()  # before the panel is shown: no pacing
        self.refresh()

    # ------------------------------------------------------------------ language
    def _draw_words(self) -> None:
        """The words of the panel's lasting widgets in the active language (the per-decision buttons get theirs as
        they are drawn)."""
        auction = escape(pgettext("heading", "Auction"))
        self.auction_title.value = f"<b>{auction}</b>&nbsp;"
        self.speed.description = _("Seconds per AI move")
        self.hint_button.description = _("Hint")
        self.save_path.description = _("Save to")
        self.save_button.description = _("Save record")
        self.review_button.description = _("Could we have done better?")
        self.review_button.tooltip = _("Double-dummy review of the cards you played")
        self.review_stop_button.description = _("Stop")
        self.review_stop_button.tooltip = _("Stop the review; the costly cards found so far stay listed")
        sheet = escape(_("Score sheet"))
        self.score_title.value = f"<b>{sheet}</b>"
        self.reasoning_pane.draw_words()
        self.hand_end.draw_words()

    def set_language(self, lang: str | None) -> None:
        """Show the panel in ``lang`` (a `rookcore.i18n` code, normalized: an unknown one is English) from now on:
        its words, the table, the status line (the turn prompt) and the end-of-hand panel are redrawn; every later
        callback runs in it. A review already shown keeps its words until it is run again. Raises nothing."""
        self.lang = i18n.normalize(lang)
        # the action buttons are made anew in the new language (a click on an old one is said to be ignored)
        self._buttons.start(("language", self.lang, time.monotonic()))
        with i18n.using(self.lang):
            self._draw_words()
            self.refresh()

    # ------------------------------------------------------------------ pace
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

    def _on_pace(self, _change) -> None:
        self.table_view.pace = self.pace  # the cards' motion follows the AIs' pace
        self.keep_game()

    # ------------------------------------------------------------------ status
    def show_error(self, message: str) -> None:
        """Show ``message`` in red in the status line."""
        self._last_info = ""
        self.status.value = (f'<span class="rook-error" style="color:#c62828;font-weight:bold">{escape(message)}'
                             '</span>')

    _last_info = ""  # the text of the last `show_info`, kept by a stale click's note

    def show_info(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self._last_info = message
        self.status.value = f'<span class="rook-info">{escape(message)}</span>'

    # ------------------------------------------------------------------ drawing
    def _names(self) -> dict:
        r = self.table.rules
        return {"bird_name": r.bird_name, "red_one": r.red_one}

    # ------------------------------------------------------------------ action buttons
    @property
    def pass_button(self) -> widgets.Button:
        """The Pass button of the current decision (`widgets.clicks`: a click on an older one is ignored)."""
        return self._buttons.button("pass", lambda: _classed(
            widgets.Button(description=pgettext("call", "Pass"), layout=widgets.Layout(width="70px")), "rook-bid",
            "rook-pass"),
            self.call_pass)

    def bid_button(self, amount: int) -> widgets.Button:
        """The "Bid ``amount``" button (points) of the current decision."""
        return self._buttons.button(("bid", amount), lambda: _classed(
            widgets.Button(description=_("Bid {amount}", amount=amount), layout=widgets.Layout(width="auto",
                                                                                             min_width="70px")),
            "rook-bid"),
            lambda: self.call_bid(amount))

    @property
    def discard_button(self) -> widgets.Button:
        """The Discard button of the current decision (enabled once exactly ``nest_size`` cards are picked)."""
        return self._buttons.button("discard", lambda: _classed(
            widgets.Button(description=pgettext("button", "Discard"), disabled=True, button_style="primary"),
            "rook-discard-button"),
            self.discard)

    @property
    def trump_buttons(self) -> dict[str, widgets.Button]:
        """{colour letter: its "Trump …" button} of the current decision."""
        def make(c: str) -> widgets.Button:
            b = _classed(widgets.Button(description=_("Trump {colour}", colour=colour_name(c)),
                                        tooltip=_("Name {colour} as trump", colour=colour_name(c)),
                                        layout=widgets.Layout(width="auto", min_width="148px")), "rook-trump")
            b.style.button_color = PALETTE[c]
            b.style.text_color = "#000000" if c == "Y" else "#ffffff"
            return b

        return {c: self._buttons.button(("trump", c), lambda c=c: make(c), lambda c=c: self.name_trump(c))
                for c in COLOURS}

    @property
    def undo_button(self) -> widgets.Button:
        """The Undo button of the current decision."""
        return self._buttons.button("undo", lambda: _classed(
            widgets.Button(description=_("Undo"), tooltip=_("Take back your last action")), "rook-undo"), self.undo)

    @property
    def new_hand_button(self) -> widgets.Button:
        """The "New hand" button of the current decision."""
        return self._buttons.button("new hand", lambda: _classed(widgets.Button(description=_("New hand")),
                                                                 "rook-new-hand"), self._new_hand_clicked)

    @property
    def new_game_button(self) -> widgets.Button:
        """The "New game" button of the current decision."""
        return self._buttons.button("new game", lambda: _classed(widgets.Button(description=_("New game")),
                                                                 "rook-new-game"), self._new_game_clicked)

    def _stale_click(self) -> None:
        """A click on a button of an earlier decision: say it was ignored, keeping what the status said (a new
        hand dealt, say)."""
        with i18n.using(self.lang):
            note = _("A click made before the table changed was ignored.")
            said = self._last_info if self._last_info.strip() else self.table.prompt()
            self.show_info(said if said.startswith(note) else _("{note} {said}", note=note, said=said))

    def _start_decision(self) -> None:
        """A new decision (new action buttons) once the AIs have moved and the learner may act, or nobody can."""
        t = self.table
        if t.is_learner_turn() or not t.ai_to_act():
            self._buttons.start((id(t.game), t.hand_number, id(t.state), len(t.state.history), t.state.phase))

    def refresh(self) -> None:
        """Redraw everything from the Table (no state changes), in the panel's language."""
        with i18n.using(self.lang):
            self._refresh()

    def _refresh(self) -> None:
        t = self.table
        self._start_decision()
        self.keep_game()  # first: the header says when the game is no longer kept
        self._draw_header()
        self._draw_table()
        self._draw_auction()
        self._draw_discard()
        naming = t.is_learner_turn() and t.state.phase is Phase.TRUMP
        self.trump_box.layout.display = "flex" if naming else "none"
        self.trump_box.children = list(self.trump_buttons.values()) if naming else []
        self._draw_reasoning()
        self._draw_tally()
        self._draw_score_sheet()
        self._draw_controls()
        self._draw_review()
        self._draw_hand_end()
        note, self._keep_note = self._keep_note, ""
        self.show_info(t.prompt() + note)

    # ------------------------------------------------------------------ keeping the game for the next visit
    def start_keeping(self, path=None, extra: dict | None = None, claim: bool = True) -> str:
        """Keep the game from now on: this page claims it (`rookcore.saved.claim`: an older page with the same
        game stops saving over it), saves it now and after every change (`keep_game`), to ``path`` (a path-like;
        None: `rookcore.saved.game_path`) with the dict ``extra``. With ``claim`` False (a page opened by a link,
        showing the learner's game that another page may keep) the page claims and saves it only at the first change
        made here, and only if the kept file is still the one it was read from; otherwise its moves are not kept
        and the status line says so once. Returns "" when the game is kept (or will be), else the sentence saying
        why not (for the caller's status line). Raises nothing."""
        self.keep, self.keep_path, self.keep_extra = True, path, dict(extra or {})
        target = self._keep_target()
        self._claim_later = None
        if not claim:  # what the game and the file were when this page opened: `_claim_now`
            self._claim_later = (self._keep_signature(), saved.file_stamp(target))
            return ""
        try:
            if target is not None:
                saved.claim(target, self.page)
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop_keeping(e)
        if self.keep_game():
            return ""
        self._keep_note = ""
        return self.keep_problem

    def _keep_signature(self) -> tuple:
        """What a save would change in the kept file (cheaply: the game, the hand and step on show, the settings)."""
        t = self.table
        return (id(t.game), t.hand_number, t.state.step, len(t.game.hands), t.level, self.pace,
                repr(self.pending_rules), t.bird_next_game, repr(sorted(self.keep_extra.items())))

    def _claim_now(self, path) -> bool:
        """A page that keeps its game from its first change (``start_keeping(claim=False)``): True once it has
        claimed the game at ``path`` (at this, the first change); False while nothing has changed, or when the kept
        file changed since the page read it (another page went on with the game: this one stops keeping, saying
        so). Raises nothing."""
        signature, stamp = self._claim_later
        if self._keep_signature() == signature:
            return False
        if saved.file_stamp(path) != stamp:
            self.keep, self._claim_later = False, None
            self.keep_problem = _("Your game went on in another page after this one opened: moves made here are not "
                                  "kept (reload this page to go on with the game).")
            self._keep_note = f" ({self.keep_problem})"
            return False
        self._claim_later = None
        try:
            saved.claim(path, self.page)
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop_keeping(e)
            return False
        return True

    def _keep_target(self):
        return self.keep_path if self.keep_path is not None else saved.game_path()

    def _stop_keeping(self, why) -> None:
        self.keep = False
        self.keep_problem = _("This game cannot be kept for your next visit: {why}.", why=why)
        self._keep_note = f" ({self.keep_problem})"

    def keep_game(self) -> bool:
        """With ``keep`` on, save the game, ``keep_extra``, the rules chosen for the next game (``pending_rules``)
        and the AI pace for the next visit (`rookcore.saved.save_table`). Returns True if it was saved. Keeping
        stops when a save fails (e.g. a read-only home folder) and when a newer page has claimed the game (the app
        opened again: `rookcore.saved.keeper`); the next status line says so once. Raises nothing."""
        if not self.keep:
            return False
        path = self._keep_target()
        if path is None:
            return False
        if self._claim_later is not None and not self._claim_now(path):
            return False
        if saved.keeper(path) not in (None, self.page):
            self.keep = False
            self.keep_problem = _("This game is open in a newer page, which keeps it from now on: moves made here "
                                  "are not kept.")
            self._keep_note = f" ({self.keep_problem})"
            return False
        try:
            saved.save_table(self.table, path, extra={**self.keep_extra, "pending_rules": self.pending_rules,
                                                      "pace": self.pace})
        except Exception as e:  # noqa: BLE001 - keeping the game is a convenience: never stop play for it
            self._stop_keeping(e)
            return False
        return True

    def _draw_header(self) -> None:
        t = self.table
        s, r = t.state, t.rules
        parts = [f"<b>{escape(rules_title(r))}</b>", escape(_("Hand {number}", number=t.hand_number)),
                 escape(_("Dealer {seat}", seat=seat_long_name(s.dealer)))]
        if s.declarer is not None and s.phase is not Phase.AUCTION:
            parts.append(escape(_("Bid {bid} by {seat}", bid=s.high_bid, seat=seat_long_name(s.declarer))))
        elif s.high_bid is not None:
            parts.append(escape(_("High bid {bid} by {seat}", bid=s.high_bid, seat=seat_long_name(s.declarer))))
        if s.trump:  # the colour's word in the trump colour
            parts.append(escape(_("Trump {colour}", colour="\0")).replace(
                "\0", f"<b style='color:{PALETTE[s.trump]}'>{escape(colour_name(s.trump))}</b>"))
        sc = t.game.scores
        parts.append(escape(_("Game: {ns_team} {ns} · {ew_team} {ew} (to {target})", ns_team=team_name(0), ns=sc[0],
                              ew_team=team_name(1), ew=sc[1], target=r.target)))
        self.header.value = " · ".join(parts) + (
            f"<div class='rook-keep-problem' style='color:#b26a00'>⚠ {escape(self.keep_problem)}</div>"
            if self.keep_problem and not self.keep else "")

    def _draw_table(self) -> None:
        """Draw the table (seats, trick, nest, South's hand) from `Table.view`; taps come back to `_on_tap`."""
        t = self.table
        key = (t.hand_number, t.state.step)
        if key != self._discard_key:  # a new decision: nothing picked yet
            self._picks, self._discard_key = set(), key
        self.table_view.show(t.view(picked=self._picks), t.rules, token=repr(self._buttons.decision))

    def _on_tap(self, card: Card) -> None:
        """A tap on one of South's cards: play it, or (while South discards) pick it or put it back."""
        if self.table.discard_options() and self.table.is_learner_turn():
            self._toggle_pick(card)
        else:
            self.play_card(card)

    @_safe
    def _toggle_pick(self, card: Card) -> None:
        """Pick ``card`` to put back as the nest, or unpick it (a card not in hand or nest: the error is shown)."""
        if card not in self.table.discard_options():
            raise ValueError(_("{card} is neither in your hand nor in the nest", card=self.table.name(card)))
        self._picks ^= {card}
        self._draw_table()
        self._update_discard_count()
        self.show_info(self.table.prompt())  # an earlier message (an ignored click, say) is out of date

    def _draw_auction(self) -> None:
        t = self.table
        phase = t.state.phase
        self.auction_box.layout.display = "flex" if phase is Phase.AUCTION or t.state.calls else "none"
        buttons = []
        if phase is Phase.AUCTION and t.is_learner_turn():
            for action in t.legal_for_learner():
                if action is PASS:
                    continue
                buttons.append(self.bid_button(action.amount))
            buttons.append(self.pass_button)
        self.bid_box.children = buttons
        calls = t.auction_history()
        passed = escape(pgettext("call", "pass"))
        items = " · ".join(f"<span class='rook-call'><b>{escape(seat_name(SEATS.index(seat)))}</b> "
                           f"{passed if c == 'pass' else c}</span>" for seat, c in calls)
        none = escape(_("no calls yet"))
        self.auction_html.value = f"<div class='rook-calls'>{items}</div>" if calls else f"<i>{none}</i>"

    def _draw_discard(self) -> None:
        options = self.table.discard_options() if self.table.is_learner_turn() else []
        self.discard_box.layout.display = "flex" if options else "none"
        self.discard_box.children = [self.discard_count, self.discard_button] if options else []
        if options:
            self._update_discard_count()

    def _picked(self) -> list[Card]:
        """The cards picked to put back, in table order."""
        return [c for c in self.table_view.cards() if c in self._picks]

    def _update_discard_count(self) -> None:
        r = self.table.rules
        picked = self._picked()
        n, k = r.nest_size, len(picked)
        worth = r.points_of(picked)  # what the chosen cards hold
        if k > n:
            chosen = _("{count} chosen: untick {more}, {n} go back ({points} points)", count=k, more=k - n, n=n,
                       points=worth)
        elif k:
            chosen = ngettext("{count} chosen ({points} points)", "{count} chosen ({points} points)", k, count=k,
                              points=worth)
        else:
            chosen = ngettext("{count} chosen", "{count} chosen", k, count=k)
        legend = "\0"  # the border's legend (HTML) goes where the sentence has it
        tap = escape(ngettext("Tap {n} card to put back as the nest ({legend})",
                              "Tap {n} cards to put back as the nest ({legend})", n, n=n, legend=legend))
        self.discard_count.value = (tap.replace(legend, border_legend(_("came from the nest")))
                                    + f" — <b>{escape(chosen)}</b>")
        self.discard_button.disabled = k != n

    def _draw_reasoning(self) -> None:
        """Redraw the reasoning pane (`widgets.reasoning.ReasoningPane.draw`) in the panel's language."""
        with i18n.using(self.lang):
            self.reasoning_pane.draw(self.table)

    @property
    def reasoning_html(self) -> str:
        """str: what the reasoning pane shows, as one HTML string: its note, then one ``<div class="rook-decision">``
        per AI move of this hand, latest first (the order on the page), each told only as the whole table saw it until
        the hand is over unless `open_reasoning` is ticked (`Table.reasoning_for_learner`)."""
        return self.reasoning_pane.html

    def _draw_tally(self) -> None:
        t = self.table.tally()
        cap, tw = t["captured"], t["tricks_won"]
        teams = {"ns_team": team_name(0), "ew_team": team_name(1)}
        rows = [(_("Captured"), _("{ns_team} (you) {ns} · {ew_team} {ew}", ns=cap["NS"], ew=cap["EW"], **teams)),
                (_("Tricks"), _("{ns_team} {ns} · {ew_team} {ew}", ns=tw["NS"], ew=tw["EW"], **teams)),
                (_("Counters still out"), str(t["counters_out"]))]
        if t["in_trick"]:
            rows.append((_("In this trick"), str(t["in_trick"])))
        if t["nest_points"] is not None:
            as_dealt = self.table.state.phase is Phase.DISCARD  # the cards being chosen are counted by the picker
            nest = t["nest_points"]
            if t["nest_team"]:
                value = _("{points} (to {team}, who took the last trick)", points=nest, team=_team(t["nest_team"]))
            elif t["nest_counted"]:
                value = _("{points} (counted)", points=nest)
            else:
                value = _("{points} (go to the last trick's team)", points=nest)
            rows.append((_("Points in the nest as dealt") if as_dealt else _("Points in your nest"), value))
        if t["majority_bonus"]:
            rows.append((_("Majority bonus"), _("{points} points to the team taking more tricks",
                                                points=self.table.rules.majority_bonus)))
        align = "right" if i18n.current().direction == "rtl" else "left"
        body = "".join(f"<tr><th style='text-align:{align}'>{escape(k)}</th><td>{escape(v)}</td></tr>"
                       for k, v in rows)
        self.tally_html.value = f"<table class='rook-tally-table'>{body}</table>"

    def _draw_score_sheet(self) -> None:
        sheet = self.table.score_sheet()
        ns, ew = team_name(0), team_name(1)
        cols = [pgettext("score sheet", "#"), pgettext("score sheet", "Dealer"), pgettext("score sheet", "Declarer"),
                pgettext("score sheet", "Bid"), pgettext("score sheet", "Result"), ns, ew]
        total = escape(pgettext("score sheet", "Total"))
        head = ("<tr>" + "".join(f"<th>{escape(c)}</th>" for c in cols)
                + f"<th>{total}<br>{escape(ns)}</th><th>{total}<br>{escape(ew)}</th></tr>")
        results = {"made": pgettext("result", "made"), "set": pgettext("result", "set"),
                   "passed out": pgettext("result", "passed out")}

        def seat(letter):
            return escape(seat_name(SEATS.index(letter))) if letter else "—"

        rows = "".join(
            f"<tr class='rook-score-row'><td>{r['hand']}</td><td>{seat(r['dealer'])}</td><td>{seat(r['declarer'])}"
            f"</td><td>{r['bid'] if r['bid'] is not None else '—'}</td>"
            f"<td>{escape(results.get(r['result'], r['result']))}</td><td>{r['NS']}</td>"
            f"<td>{r['EW']}</td><td>{r['total_NS']}</td><td>{r['total_EW']}</td></tr>" for r in sheet["rows"])
        tot = sheet["totals"]
        end = "left" if i18n.current().direction == "rtl" else "right"
        totals = escape(pgettext("score sheet", "Totals"))
        foot = (f"<tr><th colspan='7' style='text-align:{end}'>{totals}</th>"
                f"<th>{tot['NS']}</th><th>{tot['EW']}</th></tr>")
        self.score_html.value = (f"{_TABLE_STYLE}<div class='rook-score-scroll' style='overflow-x:auto'><table class='rook-score-table'>"
                                 f"{head}{rows}{foot}</table></div>")
        if sheet["game_over"]:
            win = sheet["winner"]
            scores = {"team": _team(win), "ns_team": ns, "ns": tot["NS"], "ew_team": ew, "ew": tot["EW"]}
            if win == TEAMS[self.table.learner_team]:
                text = _("Game over: you and North win ({team}), {ns_team} {ns} to {ew_team} {ew}. Start a new game.",
                         **scores)
            else:
                text = _("Game over: East and West win ({team}), {ns_team} {ns} to {ew_team} {ew}. Start a new "
                         "game.", **scores)
            self.game_over.value = (f"<div style='background:#fff3cd;border:2px solid #e0a800;padding:8px;"
                                    f"font-size:120%'><b>{escape(text)}</b></div>")
        else:
            self.game_over.value = ""

    def _draw_controls(self) -> None:
        t = self.table
        self.controls.children = [self.hint_button, self.undo_button, self.new_hand_button, self.new_game_button,
                                  self.bird_toggle]
        busy = self._ai_moving
        self.hint_button.disabled = busy or not t.is_learner_turn()
        wait = _("wait for the AIs to finish their moves")
        self.hint_button.tooltip = wait if busy else _("What would the AI play here?")
        self.undo_button.disabled = busy or not t.learner_has_acted
        self.new_hand_button.disabled = busy or t.game.is_over
        self.new_game_button.disabled = busy
        self.undo_button.tooltip = wait if busy else _("Take back your last action")
        self.new_game_button.tooltip = wait if busy else _("start a new game from 0–0")
        self.new_hand_button.tooltip = (wait if busy else _("the game is over: start a new game") if t.game.is_over
                                        else _("next hand") if t.state.is_over else _("throw this hand in and redeal"))
        self._draw_bird_toggle()
        auto = f"hands/hand-{t.hand_number}.json"
        if self.save_path.value in ("", self._auto_path):
            self.save_path.value = auto
        self._auto_path = auto
        self._draw_download()

    def _draw_review(self) -> None:
        t = self.table
        key = (id(t.game), t.hand_number)
        if key != self._review_key:  # another hand: forget the last review (a running one is ignored)
            self._review_key = key
            with self._review_lock:
                self._review_token += 1
                if self._review_run is not None:
                    self._review_run.active = False
            self.review_html.value = ""
            self.review_links.children = []
            self._review_items_so_far = []
            self._stop_review()
        self.review_box.layout.display = "flex" if t.state.is_over else "none"
        running = self._review_thread is not None and self._review_thread.is_alive()
        self._show_review_running(running)
        self.review_button.disabled = running or not t.state.is_over

    def _hand_key(self) -> tuple[int, int]:
        """(game, hand number) of the hand on the table: what a saved file's name is remembered for."""
        return id(self.table.game), self.table.hand_number

    def _draw_download(self) -> None:
        t = self.table
        data = base64.b64encode(t.record_json().encode("utf-8")).decode("ascii")
        key, saved = self._saved_as or (None, "")
        name = saved if key == self._hand_key() else f"hand-{t.hand_number}.json"  # the name it was saved as
        words = escape(_("Download {name}", name=name))
        self.download.value = (f'<a class="rook-download-link" download="{escape(Path(name).name)}" '
                               f'href="data:application/json;base64,{data}">{words}</a>')

    # ------------------------------------------------------------------ AI pacing
    def _advance(self) -> None:
        """Let the AIs act until the learner must act, redrawing after each move (paced by ``pace``)."""
        t = self.table
        if self.pace <= 0:
            if t.ai_to_act():
                self.show_info(_("The AIs are thinking…"))  # the strong AI can take seconds: say why nothing moves
            t.run_ai()
            self.refresh()
            self._focus_next()
            return
        self._ai_moving = True
        try:
            self.refresh()
            while t.ai_to_act():
                time.sleep(self.pace)
                self.show_info(_("{seat} is thinking…", seat=seat_name(t.state.to_act)))
                t.step_ai()
                if t.ai_to_act():
                    self.refresh()
        finally:
            self._ai_moving = False
            self.refresh()
        self._focus_next()

    def next_focus(self) -> widgets.DOMWidget | None:
        """The control a keyboard player most likely wants next (None: nothing to do): the first playable card,
        the lowest bid (else Pass), the first card of the discard picker, the first trump colour; New hand once
        the hand is over, New game once the game is."""
        t = self.table
        if t.state.is_over or not (t.is_learner_turn() or t.ai_to_act()):
            return self.new_game_button if t.game.is_over else self.new_hand_button
        if not t.is_learner_turn():
            return None
        phase = t.state.phase
        if phase is Phase.AUCTION:
            return self.bid_box.children[0] if self.bid_box.children else None
        if phase is Phase.DISCARD:
            return self.table_view
        if phase is Phase.TRUMP:
            return next(iter(self.trump_buttons.values()))
        return self.table_view if self.table_view.cards(legal_only=True) else None

    def _focus_next(self) -> None:
        """Move the keyboard focus to `next_focus` (its buttons are new after every decision, so the focus the
        player had was lost with the old ones)."""
        target = self.next_focus()
        if target is self.table_view:
            target.focus_first()
        elif target is not None and not getattr(target, "disabled", False):
            target.focus()

    # ------------------------------------------------------------------ handlers
    @_safe
    def play_card(self, card: Card) -> None:
        """Play ``card`` for South, then let the AIs move. Errors (not your turn, must follow) go to the status."""
        self.table.learner_act(Play(Card.from_id(int(card))))
        self.hint_html.value = ""
        self._advance()

    @_safe
    def call_bid(self, amount: int) -> None:
        """Bid ``amount`` points for South, then let the AIs call."""
        self.table.learner_act(make_bid(int(amount)))
        self.hint_html.value = ""
        self._advance()

    @_safe
    def call_pass(self) -> None:
        """Pass for South, then let the AIs call (or play, if the auction ends)."""
        self.table.learner_act(PASS)
        self.hint_html.value = ""
        self._advance()

    @_safe
    def name_trump(self, colour: str) -> None:
        """Name ``colour`` (R, Y, G, B) as trump for South, then let the AIs play."""
        self.table.learner_act(NameTrump(colour))
        self.hint_html.value = ""
        self._advance()

    @_safe
    def discard(self, cards=None) -> None:
        """Put back ``cards`` (default: the toggled picks) as the nest; must be exactly nest_size cards."""
        picked = self._picked() if cards is None else list(cards)
        self.table.learner_discard(picked)
        self.hint_html.value = ""
        self._advance()

    @_safe
    def show_hint(self) -> None:
        """Show what the AI would do in South's seat (from South's view only) and why, under a heading that says
        it is advice for the learner (the AI's sentences, shared with the AI seats' reasoning, name the seat)."""
        decision = self.table.hint()
        self.show_info(self.table.prompt())
        seat = seat_long_name(self.table.learner)
        # the AI's sentences name the seat by its letter, as the table does
        head = escape(_("Hint for you ({seat}): what the AI would do in your seat (it calls you {letter}).",
                        seat=seat, letter=seat_name(self.table.learner)))
        head = head.replace(":", ":</b>", 1) if ":" in head else head + "</b>"
        self.hint_html.value = ("<div style='background:#e3f2fd;padding:6px;border-radius:4px'>"
                                f"<b>{head}" + decision_html(decision, self.table.rules.bird_name) + "</div>")

    @_safe
    def undo(self) -> None:
        """Take back South's last action and the AI moves after it."""
        self.table.undo_learner()
        self.hint_html.value = ""
        self.refresh()
        self._focus_next()
        self.show_info(_("Undone. {prompt}", prompt=self.table.prompt()))

    @_safe
    def _new_hand_clicked(self) -> None:
        """The New hand button: in the middle of a hand it first asks (`confirm`), then deals (`new_hand`)."""
        if not self.table.state.is_over and not self.confirm.confirmed(("new hand", self._buttons.decision)):
            self.show_info(_("New hand throws this hand away (it is not scored). Click New hand again to deal a new "
                             "one. {prompt}", prompt=self.table.prompt()))  # still say whose turn it is
            return
        self.new_hand()

    @_safe
    def _new_game_clicked(self) -> None:
        """The New game button: once the game has started (and is not over) it first asks (`confirm`)."""
        t = self.table
        if t.game_started and not t.game.is_over and not self.confirm.confirmed(("new game", self._buttons.decision)):
            ns, ew = t.game.scores
            self.show_info(_("New game ends this game (hand {hand}, {ns_team} {ns} · {ew_team} {ew}). Click New game "
                             "again to start a new one from 0–0. {prompt}", hand=t.hand_number, ns_team=team_name(0),
                             ns=ns, ew_team=team_name(1), ew=ew, prompt=t.prompt()))
            return
        self.new_game()

    @_safe
    def new_hand(self) -> None:
        """Deal the next hand (or redeal an unfinished one) and let the AIs act up to South's turn."""
        self.table.new_hand()
        self.hint_html.value = ""
        self._reset_save_row()
        self._advance()
        t = self.table
        self.show_info(_("Hand {number} dealt by {seat}. {prompt}", number=t.hand_number,
                         seat=seat_name(t.state.dealer), prompt=t.prompt()))

    def _reset_save_row(self) -> None:
        """A new hand starts with the save row of a new hand: its own file name (so the last hand's file is not
        written over) and no message about an earlier save."""
        self.save_path.value = ""
        self.save_result.value = ""

    @_safe
    def new_game(self) -> None:
        """Start a new game with ``pending_rules`` if Settings chose a rule set (else the same one), applying
        the bird checkbox, and let the AIs act up to South's turn."""
        rules, self.pending_rules = self.pending_rules, None
        self.table.new_game(rules)
        self.hint_html.value = ""
        self._reset_save_row()
        for callback in self.on_new_game:  # before the AIs' paced moves, which take seconds to show
            callback()
        self._advance()

    @_safe
    def set_bird(self, on: bool | None) -> None:
        """Play with (True) or without (False) the bird from the next new game (`Table.set_bird`; None: as the next
        game's rules say, e.g. Settings' choice), show it on the checkbox and say it in the status line. Errors go
        to the status line."""
        self.table.set_bird(None if on is None else bool(on))
        self.keep_game()
        self._draw_bird_toggle()
        if on is not None:
            name = bird_word(self.table.next_game_rules(self.pending_rules).bird_name)
            prompt = self.table.prompt()
            self.show_info(_("The next new game is played with the {bird}. {prompt}", bird=name, prompt=prompt) if on
                           else _("The next new game is played without the {bird}. {prompt}", bird=name,
                                  prompt=prompt))

    def _draw_bird_toggle(self) -> None:
        """The checkbox shows what the next new game will do; hidden when that rule set has no bird."""
        t = self.table
        upcoming = t.next_game_rules(self.pending_rules)
        has_bird = upcoming.bird_optional and t.rules.bird_optional
        self.bird_toggle.layout.display = None if has_bird else "none"
        self.bird_toggle.description = (_("Play with the {bird} (from the next new game)",
                                          bird=bird_word(upcoming.bird_name)) if has_bird else
                                        _("Play with the bird (from the next new game)"))
        want = upcoming.bird
        if self.bird_toggle.value != want:
            self._drawing_bird = True
            try:
                self.bird_toggle.value = want
            finally:
                self._drawing_bird = False

    def _on_bird(self, change) -> None:
        if not self._drawing_bird:
            self.set_bird(change["new"])
            for callback in self.on_bird_choice:
                callback(bool(change["new"]))

    @_safe
    def save(self, path: str | None = None) -> str | None:
        """Write the hand record (rook-hand/1 JSON) to ``path`` (default: the Save-to box), which must lie inside the
        app's folder (`widgets.paths.record_path`: a name without an extension gets ``.json``); show the path
        written. An existing file this panel did not write is only replaced by a second Save
        (`widgets.paths.ReplaceGuard`: the first asks; returns None). An empty path, a folder, a path outside the
        app's folder or a write error is shown in the status line (with the turn prompt) and next to the button,
        not raised past the panel (returns None)."""
        path = path or self.save_path.value
        try:
            target = record_path(path)
            question = self._replace_guard.question(target, "Save record")
            if question:
                self.save_result.value = f"<span class='rook-save-question'>{escape(question)}</span>"
                self.show_info(_("{question}. {prompt}", question=question, prompt=self.table.prompt()))
                return None
            written = self.table.save(target)
        except (ValueError, OSError) as e:
            msg = str(e) if isinstance(e, ValueError) else _("{path}: cannot write: {error}", path=brief(path.strip()),
                                                             error=e.strerror or e)
            self.save_result.value = f"<span class='rook-save-error' style='color:#c62828'>{escape(msg)}</span>"
            self.show_error(msg)
            self.status.value += f" {escape(self.table.prompt())}"  # the game goes on: still say what comes next
            return None
        self._replace_guard.saved(target)
        shown = brief(shown_path(written))
        words = escape(_("Saved {path}", path=shown))
        self.save_result.value = f"<span class='rook-saved'>{words}</span>"
        # replaces any earlier error in the status line, and still says whose turn it is
        self.show_info(_("Saved the hand record to {path}. {prompt}", path=shown, prompt=self.table.prompt()))
        self._saved_as = (self._hand_key(), Path(written).name)
        self._draw_download()
        return written

    # ------------------------------------------------------------------ end of hand (widgets.hand_end)
    def _draw_hand_end(self) -> None:
        """Show the end-of-hand panel with the finished hand's result (`Table.hand_result`: rules.md §1.6, §1.7,
        "Game end"), or hide it while a hand is played."""
        t = self.table
        order = self._result_order if t.state.is_over else self._playing_order
        if list(self._main.children) != order:
            self._main.children = order
        if not t.state.is_over:
            self.hand_end.show(None)
            return
        self.hand_end.show(t.hand_result(), n_steps=t.state.step, learner=SEATS[t.learner])

    @_safe
    def open_replay(self, step: int = 0) -> None:
        """"Replay this hand": open Replay on the finished hand's record (`Table.record`, the AIs' reasons as
        comments) at ``step``, the Replay navigator's step (int: actions applied, 0 = the deal; Replay clamps it to
        the hand's end), through the ``on_open_replay`` hooks (the app selects the Replay tab).
        A hand still in play, a bad step or a page without Replay is said in the status line; nothing is raised."""
        if not self.table.state.is_over:
            raise ValueError(_("Replay this hand opens once the hand is over (the cards still in hand stay hidden "
                               "until then)"))
        self._open_replay(self.table.record(), step)

    @_safe
    def open_replay_at(self, record, step: int) -> None:
        """Open Replay on ``record`` (a finished hand's `HandRecord`) at navigator ``step`` (int, actions applied):
        the review's costly-card buttons call it with the step just after the card. Errors (a bad step, no
        Replay on the page) go to the status line."""
        self._open_replay(record, step)

    def _open_replay(self, record, step: int) -> None:
        """Run the ``on_open_replay`` hooks with (``record``, ``step``). Raises ValueError for a step that is not a
        whole number ≥ 0, or when no hook is connected (no Replay on this page)."""
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ValueError(_("the step to open Replay at must be a whole number ≥ 0, not {step}", step=repr(step)))
        if not self.on_open_replay:
            raise ValueError(_("there is no Replay tab on this page: save the record (Save record) and load it in a "
                               "Replay panel"))
        for callback in self.on_open_replay:
            callback(record, step)
        self.show_info(_("The hand is open in Replay at step {step}. {prompt}", step=step, prompt=self.table.prompt()))

    @_safe
    def next_hand(self) -> None:
        """The end-of-hand panel's "Next hand": deal the next hand (`new_hand`), or start a new game from 0–0 once the
        game is over ("New game", `new_game`). A click while a hand is in play (a second click on the button that
        has just dealt) only says so: it never throws the new hand away."""
        t = self.table
        if not t.state.is_over:
            self.show_info(_("The next hand is already dealt. {prompt}", prompt=t.prompt()))
            return
        if t.game.is_over:
            self.new_game()
        else:
            self.new_hand()

    # ------------------------------------------------------------------ review
    def _review_message(self, html: str) -> None:
        self.review_html.value = f"<div class='rook-review-result'>{html}</div>"

    def _draw_review_links(self, items: list[dict]) -> None:
        """One Button per costly card of ``items`` (review items with a record ``step``; class
        ``rook-review-replay``) that opens Replay on the reviewed hand just after that card (navigator step = record
        step + 1, as Replay's "Go to" list). Items without a step get no button."""
        record = self._review_replay
        buttons = []
        for item in items:
            if record is None or isinstance(item.get("step"), bool) or not isinstance(item.get("step"), int):
                continue
            step = item["step"] + 1
            name = self._review_card_name(record, item.get("card"))
            trick = item.get("trick")
            where = _("trick {trick}, {card}", trick=trick, card=name) if trick is not None else name
            button = _classed(widgets.Button(description=_("Replay at step {step} ({where})", step=step, where=where),
                                             tooltip=_("Open the Replay tab just after you played {card}", card=name),
                                             layout=widgets.Layout(width="auto")), "rook-review-replay")
            button.on_click(lambda _b, step=step: self.open_replay_at(record, step))
            buttons.append(button)
        self.review_links.children = buttons

    @staticmethod
    def _review_card_name(record, notation) -> str:
        """The page name ("Crow", "Red 1", "R14") of a review item's card ``notation``; the notation itself (or
        "the card") if it cannot be read."""
        try:
            return record.rules.display_name(Card.parse(notation))
        except Exception:  # noqa: BLE001 - a name for a button, never an error
            return str(notation or _("the card"))

    def _show_review_running(self, running: bool) -> None:
        self.review_button.disabled = running
        self.review_stop_button.layout.display = None if running else "none"

    def _review_facts_html(self, record, report: dict | None, running: bool) -> str:
        """The review's lines on the whole hand from ``report`` (the analysis of ``record``; None: none): the first
        lead's result with best play — its proven range "— proved; refining…" while ``running``, then exact
        (`rookcore.annotations.start_sentence`) — and the auction judged double dummy
        (`rookcore.annotations.auction_sentence`). "" without a result from the first lead."""
        if report is None:
            return ""
        html = ""
        start = annotations.start_sentence(report, record, running=running)
        if start:
            html += f"<div class='rook-review-start'>{escape(start, quote=False)}</div>"
        auction = annotations.auction_facts(record, report)
        if auction is not None:
            html += (f"<div class='rook-review-auction'>{escape(annotations.auction_sentence(auction), quote=False)}"
                     f"</div>")
        return f"<div style='margin:4px 0'>{html}</div>" if html else ""

    def _review_items(self, record, seat: str, shown: dict | None) -> list[dict]:
        """South's (``seat``'s) costly cards proven so far in ``shown`` (the running review's report or cards)."""
        if shown is None:
            return []
        return annotations.review(record, threshold=self.review_threshold, seat=seat, analysis=shown)

    @staticmethod
    def _items_html(items: list[dict]) -> str:
        return "".join(f"<li class='rook-review-item'>{escape(i['text'])}</li>" for i in items)

    @_safe
    def stop_review(self) -> None:
        """The review's Stop button: stop a running "Could we have done better?" search; the costly cards proven so
        far stay listed, with the first lead's proven range and the auction as far as proven, and the button
        starts the review again from the last card."""
        if self._review_thread is None or not self._review_thread.is_alive():
            self.show_info(_("No review is running."))
            return
        with self._review_lock:
            self._review_token += 1  # the worker's late result is dropped
            run = self._review_run
            if run is not None:
                run.active = False
        self._stop_review()
        self._show_review_running(False)
        record, seat = self._review_record, SEATS[self.table.learner]
        shown = run.shown(record.variant) if run is not None else None
        items = self._review_items(record, seat, shown)
        self._review_items_so_far = items
        done, total = run.latest[:2] if run is not None and run.latest else (0, 0)
        if total and run is not None:
            stopped = ngettext("Review stopped after {done} of {total} card ({seconds} s).",
                               "Review stopped after {done} of {total} cards ({seconds} s).", total, done=done,
                               total=total, seconds=f"{run.elapsed():.0f}")
        elif total:
            stopped = ngettext("Review stopped after {done} of {total} card.",
                               "Review stopped after {done} of {total} cards.", total, done=done, total=total)
        else:
            stopped = _("Review stopped.")
        found = self._items_html(items)
        costly = escape(_("Costly so far:"))
        self._review_message(f"<b>{escape(stopped)}</b>"
                             + (f"<br>{costly}<ul style='margin:4px 0'>{found}</ul>" if found
                                else " " + escape(_("No costly card found so far.")))
                             + self._review_facts_html(record, run.report if run is not None else None, False))
        self._draw_review_links(items)

    @_safe
    def review(self) -> None:
        """The "Could we have done better?" button: once the hand is over, list South's costly cards with the
        better choice (`rookcore.annotations.review` of ``table.record()``), within ``review_budget`` seconds
        (`rookcore.analysis.budget`): the cards proven costly, the first lead's proven range (refined in place)
        and the auction judged double dummy show as they come, then what is exact. Runs in a background thread
        unless ``review_in_background`` is False; "Analyzing…" is shown meanwhile, with the seconds elapsed."""
        t = self.table
        if not t.state.is_over:
            raise ValueError(_("the review is ready when the hand is over"))
        if self._review_thread is not None and self._review_thread.is_alive():
            return
        record = self._review_record = t.record(reasons=False)
        self._review_replay = t.record()  # the same hand, with the AIs' reasons: what the costly cards open
        self.review_links.children = []
        self._review_items_so_far = []
        reason = annotations.not_analyzable_reason(record)
        if reason:
            self._review_message(f"<i>{escape(reason)}</i>")
            return
        run = AnalysisRun("the review", None if self.reviewer is not None else self.review_budget)
        with self._review_lock:
            self._review_token += 1
            token = self._review_token
            self._review_run = run
        self._review_message(f"<i>{escape(run.text())}</i>")
        self._review_so_far = None
        self._show_review_running(True)
        if self.review_in_background:
            self._review_thread = threading.Thread(target=self._run_review, args=(record, token, run),
                                                   name="rook-review", daemon=True)
            self._review_thread.start()
            run.start_clock(lambda: self._review_tick(record, token, run))
        else:
            self._run_review(record, token, run)

    def wait_review(self, timeout: float | None = None) -> bool:
        """Wait for a background review to end; True if none is running any more."""
        th = self._review_thread
        if th is not None:
            th.join(timeout)
            return not th.is_alive()
        return True

    def _review_tick(self, record, token: int, run: AnalysisRun) -> bool:
        """One tick of a running review's clock: draw it with the seconds elapsed. Returns False (the clock stops)
        once the review is finished, stopped or a new hand is dealt."""
        with self._review_lock, i18n.using(self.lang):
            if token != self._review_token or not run.active:
                return False
            run.due(force=True)
            self._draw_review_run(record, SEATS[self.table.learner], run)
            return True

    def _review_progress(self, record, token: int, seat: str, run: AnalysisRun | None = None):
        """The ``progress(done, total, cards)`` callback of the review of ``record``: "Analyzing… k of n cards" with
        the costly cards of ``seat`` proven so far (at most every `widgets.progress.PROGRESS_EVERY` seconds); keeps
        every call in ``run`` (default: the latest review started) and raises `Cancelled`, stopping the
        analysis, once a new hand is dealt or Stop is clicked."""
        run = run if run is not None else self._review_run or AnalysisRun("the review")

        def progress(done: int, total: int, cards: list[dict]) -> None:
            self._note_review(record, token, seat, run, lambda: run.note(done, total, cards))

        return progress

    def _review_reports(self, record, token: int, seat: str, run: AnalysisRun | None = None):
        """The ``on_report(report)`` callback of the budgeted review of ``record``: the report of what is proven
        (each card's value or range, the first lead's range) is kept in ``run`` and drawn as `_review_progress`
        draws, with the same `Cancelled`."""
        run = run if run is not None else self._review_run or AnalysisRun("the review")

        def on_report(report: dict) -> None:
            self._note_review(record, token, seat, run, lambda: run.note_report(report))

        return on_report

    def _note_review(self, record, token: int, seat: str, run: AnalysisRun, keep) -> None:
        """Keep a progress call in ``run`` (``keep()``) and draw the review when due; raises `Cancelled` once the
        review of ``token`` is no longer wanted."""
        if token != self._review_token:
            raise Cancelled
        keep()
        with self._review_lock:
            if token == self._review_token and run.due():
                self._draw_review_run(record, seat, run)

    def _draw_review_run(self, record, seat: str, run: AnalysisRun) -> None:
        """The running review as proven so far (under ``_review_lock``): its status with the seconds elapsed, the
        first lead's proven range and the auction, and the costly cards of ``seat`` proven so far."""
        items = self._review_items(record, seat, run.shown(record.variant))
        found = self._items_html(items)
        done, total = run.latest[:2] if run.latest else (0, 0)
        self._review_so_far = (done, total, found)
        self._review_items_so_far = items
        costly = escape(_("Costly so far:"))
        self._review_message(f"<i>{escape(run.text())}</i>" + self._review_facts_html(record, run.report, True)
                             + (f"{costly}<ul style='margin:4px 0'>{found}</ul>" if found else ""))

    def _stop_review(self) -> None:
        """Cancel a running review's search (and its clock) and wait (briefly) for its thread to end."""
        run = self._review_run
        if run is not None:
            run.stop()
        solver, self._review_solver = self._review_solver, None
        stop_analysis(solver, self._review_thread)

    def _run_review(self, record, token: int, run: AnalysisRun | None = None) -> None:
        """The review of ``record`` (in the background thread, or the caller's), then its result or error, unless
        Stop was clicked or a new hand dealt meanwhile (``token`` no longer current)."""
        with i18n.using(self.lang):  # a thread starts without the page's language
            self._run_review_in_language(record, token, run)

    def _run_review_in_language(self, record, token: int, run: AnalysisRun | None) -> None:
        run = run if run is not None else AnalysisRun("the review", self.review_budget)
        seat = SEATS[self.table.learner]
        try:
            if self.reviewer is not None:
                items, error = self.reviewer(record), None
            else:
                items = cancellable_analysis(
                    lambda solver: annotations.review(record, threshold=self.review_threshold, seat=seat,
                                                      progress=self._review_progress(record, token, seat, run),
                                                      solver=solver, budget=run.budget,
                                                      on_report=self._review_reports(record, token, seat, run)),
                    lambda: token == self._review_token, lambda solver: setattr(self, "_review_solver", solver))
                error = None
        except Cancelled:
            return  # a new hand was dealt: nobody waits for this review
        except Exception as e:  # noqa: BLE001 - shown in the panel
            items, error = None, e
        try:
            with self._review_lock:
                if token != self._review_token:
                    return  # a new hand was dealt (or Stop clicked) meanwhile
                run.active = False
                self._show_review_running(False)
                self._show_review_result(record, seat, run, items, error)
        except Exception as e:  # noqa: BLE001 - never raise from the worker
            text = escape(_("internal error: {kind}: {error}", kind=type(e).__name__, error=e))
            self._review_message(f"<span class='rook-error'>{text}</span>")
        finally:
            run.stop()

    def _budget_note(self, report: dict | None, seat: str, budget: float | None) -> str:
        """A line when the time budget ran out before every value was exact: what is listed is proved, and how many
        of ``seat``'s cards are still open. "" for a review whose every value is exact."""
        if report is None or annotations.analysis_complete(report):
            return ""
        n = annotations.analysis_counts(report, seat=seat)
        seconds = f"{budget:.0f}" if budget is not None else None
        if n["open"]:
            args = {"open": n["open"], "cards": n["cards"]}
            text = (ngettext("The {seconds} s time budget ran out before every value was exact: what is said here is "
                             "proved; {open} of your {cards} card could not be judged in time.",
                             "The {seconds} s time budget ran out before every value was exact: what is said here is "
                             "proved; {open} of your {cards} cards could not be judged in time.", n["cards"],
                             seconds=seconds, **args) if seconds else
                    ngettext("The time budget ran out before every value was exact: what is said here is proved; "
                             "{open} of your {cards} card could not be judged in time.",
                             "The time budget ran out before every value was exact: what is said here is proved; "
                             "{open} of your {cards} cards could not be judged in time.", n["cards"], **args))
        elif seconds:
            text = _("The {seconds} s time budget ran out before every value was exact: what is said here is proved; "
                     "every card of yours was judged, some with a range instead of an exact number.", seconds=seconds)
        else:
            text = _("The time budget ran out before every value was exact: what is said here is proved; every card "
                     "of yours was judged, some with a range instead of an exact number.")
        return f"<div class='rook-review-budget'><small>{escape(text)}</small></div>"

    def _show_review_result(self, record, seat: str, run: AnalysisRun, items, error) -> None:
        """The finished review: its error, or the costly cards (or that there are none), the first lead's result
        and the auction, and a note if the time budget cut it short."""
        if error is not None:
            kind = "" if isinstance(error, ValueError) else f"{type(error).__name__}: "
            text = escape(_("The review failed: {error}", error=kind + str(error)))
            self._review_message(f"<span class='rook-error' style='color:#c62828;font-weight:bold'>{text}</span>")
            return
        report = run.report
        facts = self._review_facts_html(record, report, False)
        note = self._budget_note(report, seat, run.budget)
        scope = _small(REVIEW_SCOPE_BID if "rook-review-auction" in facts else REVIEW_SCOPE)
        if not items:
            if note:
                text = escape(_("No costly card proved for you within the time budget."))
                self._review_message(f"<b>{text}</b>{facts}{note}{scope}")
                return
            text = _("No costly cards: every card you played kept the best double-dummy result for {team} (within "
                     "{points} points).", team=team_name(0), points=self.review_threshold)
            self._review_message(f"<b>{escape(text)}</b>{facts} {scope}")
            return
        text = escape(_("Your costly cards (double dummy: all hands known, best play after):"))
        self._review_message(f"<b>{text}</b><ul style='margin:4px 0'>{self._items_html(items)}</ul>{facts}{note}"
                             f"{_small(HINDSIGHT)}<br>{scope}")
        self._draw_review_links(items)
