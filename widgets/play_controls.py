"""The Play panel's controls: the learner's action buttons (new ones for each decision, `widgets.clicks`), Hint,
Undo, New hand, New game, the bird checkbox and the AI speed slider, drawn from a `rookcore.play.PlaySession`.

The buttons only forward the learner's clicks to the panel's handlers (``actions``: the `widgets.play.PlayPanel`);
whether each may be clicked now, and the Hint, come from the session.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from rookcore.cards import COLOURS
from rookcore.i18n import _, pgettext
from rookcore.play import PlaySession
from rookcore.words import bird_name, colour_name, seat_name

from .cards import PALETTE
from .clicks import DecisionButtons
from .hand_end import classed
from .reasoning import decision_html
from .table_view import seat_long_name


class Commands:
    """The action buttons of the current decision and the lasting controls.

    Args: actions (the panel: its ``call_pass``, ``call_bid``, ``discard``, ``name_trump``, ``undo``,
    ``_new_hand_clicked``, ``_new_game_clicked``, ``show_hint`` handlers), pace (the slider's first value), bird
    (the bird box's first value), on_stale (callable() for a click on a button of an earlier decision), on_pace (callable() when the slider
    moves), on_bird (callable(on: bool) when the learner ticks or unticks the bird box).
    """

    WIDGETS = ("speed", "hint_button", "hint_html", "bird_toggle", "controls")
    """The widgets the panel shows under their own names (the app and the tests use them)."""

    def __init__(self, actions, pace: float, bird: bool, on_stale, on_pace, on_bird) -> None:
        self.actions = actions
        self.buttons = DecisionButtons(on_stale)  # action buttons, new ones for each decision
        self.speed = classed(widgets.FloatSlider(value=float(pace), min=0.0, max=max(2.0, float(pace)), step=0.1,
                                                 style={"description_width": "initial"}), "rook-speed")
        self.speed.observe(lambda _change: on_pace(), names="value")
        self.hint_button = classed(widgets.Button(), "rook-hint-button")
        self.hint_button.on_click(lambda _b: actions.show_hint())
        self.hint_html = classed(widgets.HTML(), "rook-hint")
        self._hint_drawn = None  # the Hint decision on show
        self.bird_toggle = classed(widgets.Checkbox(value=bird, indent=False, layout=widgets.Layout(width="auto")),
                                   "rook-bird-toggle")
        self._drawing_bird = False  # True while the checkbox is set to what the table says (not a click)
        self.bird_toggle.observe(lambda change: None if self._drawing_bird else on_bird(change["new"]),
                                 names="value")
        self.controls = classed(widgets.HBox(layout=widgets.Layout(flex_flow="row wrap")), "rook-controls")

    def draw_words(self) -> None:
        """The lasting controls' words in the active language (the decision's buttons get theirs as they are
        made)."""
        self.speed.description = _("Seconds per AI move")
        self.hint_button.description = _("Hint")

    def start(self, decision: int) -> None:
        """New buttons from now on if ``decision`` (the session's) is a new one."""
        self.buttons.start(decision)

    # ----- the buttons of the current decision ---------------------------------------------------
    @property
    def pass_button(self) -> widgets.Button:
        """The Pass button of the current decision (`widgets.clicks`: a click on an older one is ignored)."""
        return self.buttons.button("pass", lambda: classed(
            widgets.Button(description=pgettext("call", "Pass"), layout=widgets.Layout(width="70px")), "rook-bid",
            "rook-pass"),
            self.actions.call_pass)

    def bid_button(self, amount: int) -> widgets.Button:
        """The "Bid ``amount``" button (points) of the current decision."""
        return self.buttons.button(("bid", amount), lambda: classed(
            widgets.Button(description=_("Bid {amount}", amount=amount), layout=widgets.Layout(width="auto",
                                                                                             min_width="70px")),
            "rook-bid"),
            lambda: self.actions.call_bid(amount))

    @property
    def discard_button(self) -> widgets.Button:
        """The Discard button of the current decision (enabled once exactly ``nest_size`` cards are picked)."""
        return self.buttons.button("discard", lambda: classed(
            widgets.Button(description=pgettext("button", "Discard"), disabled=True, button_style="primary"),
            "rook-discard-button"),
            self.actions.discard)

    @property
    def trump_buttons(self) -> dict[str, widgets.Button]:
        """{colour letter: its "Trump …" button} of the current decision."""
        def make(c: str) -> widgets.Button:
            b = classed(widgets.Button(description=_("Trump {colour}", colour=colour_name(c)),
                                       tooltip=_("Name {colour} as trump", colour=colour_name(c)),
                                       layout=widgets.Layout(width="auto", min_width="148px")), "rook-trump")
            b.style.button_color = PALETTE[c]
            b.style.text_color = "#000000" if c == "Y" else "#ffffff"
            return b

        return {c: self.buttons.button(("trump", c), lambda c=c: make(c), lambda c=c: self.actions.name_trump(c))
                for c in COLOURS}

    @property
    def undo_button(self) -> widgets.Button:
        """The Undo button of the current decision."""
        return self.buttons.button("undo", lambda: classed(
            widgets.Button(description=_("Undo"), tooltip=_("Take back your last action")), "rook-undo"),
            self.actions.undo)

    @property
    def new_hand_button(self) -> widgets.Button:
        """The "New hand" button of the current decision."""
        return self.buttons.button("new hand", lambda: classed(widgets.Button(description=_("New hand")),
                                                               "rook-new-hand"), self.actions._new_hand_clicked)

    @property
    def new_game_button(self) -> widgets.Button:
        """The "New game" button of the current decision."""
        return self.buttons.button("new game", lambda: classed(widgets.Button(description=_("New game")),
                                                               "rook-new-game"), self.actions._new_game_clicked)

    # ----- drawing -------------------------------------------------------------------------------
    def draw(self, session: PlaySession) -> None:
        """Hint, Undo, New hand, New game and the bird box: enabled as the session allows (all wait while the AIs
        move), with their tooltips."""
        t = session.table
        self.controls.children = [self.hint_button, self.undo_button, self.new_hand_button, self.new_game_button,
                                  self.bird_toggle]
        busy = session.ai_moving
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
        self.draw_bird(session)

    def draw_hint(self, session: PlaySession) -> None:
        """The Hint box: what the AI would do in the learner's seat and why, under a heading that says it is advice
        for the learner (the AI's sentences, shared with the AI seats' reasoning, name the seat); empty once the
        learner acted. Drawn when the Hint changes."""
        decision = session.hint
        if decision is self._hint_drawn:
            return
        self._hint_drawn = decision
        if decision is None:
            self.hint_html.value = ""
            return
        t = session.table
        # the AI's sentences name the seat by its letter, as the table does
        head = escape(_("Hint for you ({seat}): what the AI would do in your seat (it calls you {letter}).",
                        seat=seat_long_name(t.learner), letter=seat_name(t.learner)))
        head = head.replace(":", ":</b>", 1) if ":" in head else head + "</b>"
        self.hint_html.value = ("<div style='background:#e3f2fd;padding:6px;border-radius:4px'>"
                                f"<b>{head}" + decision_html(decision, t.rules.bird_name) + "</div>")

    def draw_bird(self, session: PlaySession) -> None:
        """The checkbox shows what the next new game will do; hidden when that rule set has no bird."""
        t = session.table
        upcoming = t.next_game_rules(session.pending_rules)
        has_bird = upcoming.bird_optional and t.rules.bird_optional
        self.bird_toggle.layout.display = None if has_bird else "none"
        self.bird_toggle.description = (_("Play with the {bird} (from the next new game)",
                                          bird=bird_name(upcoming.bird_name)) if has_bird else
                                        _("Play with the bird (from the next new game)"))
        want = upcoming.bird
        if self.bird_toggle.value != want:
            self._drawing_bird = True
            try:
                self.bird_toggle.value = want
            finally:
                self._drawing_bird = False
