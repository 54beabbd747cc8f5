"""The end-of-hand panel of the Play tab: the result of the hand just played and what to do next.

`HandEndPanel` draws a `rookcore.result.HandResult` (from `rookcore.table.Table.hand_result`; no rule is applied
here): a heading ("N–S made their bid of 120", "E–W set N–S", "All four passed"), a line on the bid and the
declarer, a small table with a column per team — tricks taken, counters in those tricks, the nest (and who got it),
the majority bonus apart, captured, hand score, game score — and the game's standing. Its buttons: the review's
"Could we have done better?" (the Play panel's own button, passed in), "Replay this hand" with the step to open at
(the navigator's numbering: 0 = the deal) and "Next hand" ("New game" once the game is over).

Stable names for browser tests (CSS classes via ``add_class``):

==============================  =====================================================================
element                         how to find it
==============================  =====================================================================
the panel                       class ``rook-hand-end`` (hidden while a hand is played)
heading / detail line           classes ``rook-hand-end-heading`` / ``rook-hand-end-line``
the table                       class ``rook-hand-end-table`` (an HTML ``<table>``; a column per team, rows
                                ``rook-hand-end-row``)
game standing                   class ``rook-hand-end-game``
Replay button / its step        Button "Replay this hand" (class ``rook-hand-end-replay``) / BoundedIntText
                                "at step" (class ``rook-hand-end-step``)
next                            Button "Next hand" or "New game" (class ``rook-hand-end-next``)
==============================  =====================================================================
"""
from __future__ import annotations

from html import escape
from typing import Callable, Sequence

import ipywidgets as widgets

from rookcore import i18n
from rookcore.i18n import _
from rookcore.result import HandResult
from rookcore.words import colour_name, team_name

TEAM_LABELS = {"NS": "N–S", "EW": "E–W"}
"""The teams in English (`team_word` gives them in the active language)."""
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
"""The seats in English (the panel names them in the active language, `widgets.table_view.seat_long_name`)."""
_STYLE = ("<style>.rook-hand-end-table {border-collapse: collapse; margin: 4px 0}"
          ".rook-hand-end-table td, .rook-hand-end-table th {padding: 2px 10px; border-bottom: 1px solid #ddd;"
          " text-align: right} .rook-hand-end-table th.rook-hand-end-label {text-align: left; font-weight: normal}"
          "</style>")


def team_word(team: str) -> str:
    """The team "NS" or "EW" in the active language ("N–S"). Raises KeyError for anything else."""
    return team_name({"NS": 0, "EW": 1}[team])


def _seat(letter: str) -> str:
    from .table_view import seat_long_name  # noqa: PLC0415 (table_view imports nothing from here)
    return seat_long_name(letter)


def signed(points: int) -> str:
    """``points`` (int) with its sign as on a score sheet: "+85", "−90" (a minus sign), "0". Raises nothing."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def points(n: int) -> str:
    """``n`` points (int) as on a score sheet, a minus sign for a negative total ("−70"), no plus sign. Raises
    nothing."""
    return f"−{-n}" if n < 0 else str(n)


def team_label(team: str, learner_team: str | None = None) -> str:
    """"N–S" or "E–W" for ``team`` ("NS"/"EW"), with " (you)" for the learner's team ``learner_team``, in the
    active language. Raises KeyError for an unknown team."""
    return _("{team} (you)", team=team_word(team)) if team == learner_team else team_word(team)


def headline(result: HandResult) -> str:
    """The result in a few words (rules.md §1.7): "N–S made their bid of 120", "E–W set N–S" or "All four passed"
    (plain text). Raises nothing."""
    if result.passed_out:
        return _("All four passed")
    declarers = team_word(result.declarer_team)
    if result.made:
        return _("{team} made their bid of {bid}", team=declarers, bid=result.bid)
    return _("{defenders} set {declarers}", defenders=team_word(result.defender_team), declarers=declarers)


def detail_line(result: HandResult, learner: str | None = None) -> str:
    """One sentence on the bid (plain text): who declared what in which trump and what the declarers took against
    the bid; for a passed-out hand, that nothing is scored. ``learner``: the learner's seat letter (named "you")."""
    if result.passed_out:
        return _("No bid, no score: the same dealer deals again.")
    who = _("{seat} (you)", seat=_seat(result.declarer)) if result.declarer == learner else _seat(result.declarer)
    took = result.teams[result.declarer_team].captured
    args = {"seat": who, "bid": result.bid, "team": team_word(result.declarer_team), "took": took,
            "short": result.bid - took}
    if result.trump:
        args["colour"] = colour_name(result.trump)
        if result.made:
            return _("{seat} bid {bid} with {colour} trump; {team} took {took} points.", **args)
        return _("{seat} bid {bid} with {colour} trump; {team} took {took} points, {short} short.", **args)
    if result.made:
        return _("{seat} bid {bid}; {team} took {took} points.", **args)
    return _("{seat} bid {bid}; {team} took {took} points, {short} short.", **args)


def _nest_label(result: HandResult) -> str:
    return (_("Nest (to {team}, who took the last trick)", team=team_word(result.nest_team)) if result.nest_team
            else _("Nest"))


def _bonus_label(result: HandResult) -> str:
    if result.bonus_team:
        return _("Majority bonus (to {team}, more tricks)", team=team_word(result.bonus_team))
    return _("Majority bonus (equal tricks: none)")


def table_rows(result: HandResult) -> list[tuple[str, str, str]]:
    """The rows of the result table as (label, N–S cell, E–W cell), plain text: tricks taken, counters in them, the
    nest (rule sets with one), the majority bonus (rule sets with one), captured, hand score, game score. A
    passed-out hand has only the hand and game scores. Raises nothing."""
    ns, ew = result.teams["NS"], result.teams["EW"]
    rows = []
    if not result.passed_out:
        rows += [(_("Tricks taken"), str(ns.tricks), str(ew.tricks)),
                 (_("Counters in tricks"), str(ns.trick_points), str(ew.trick_points))]
        if result.has_nest:
            rows.append((_nest_label(result), *(str(t.nest_points) if t.team == result.nest_team else "—"
                                                for t in (ns, ew))))
        if result.has_bonus:
            rows.append((_bonus_label(result), *(str(t.bonus) if t.team == result.bonus_team else "—"
                                                 for t in (ns, ew))))
        rows.append((_("Captured"), str(ns.captured), str(ew.captured)))
    rows += [(_("Hand score"), signed(ns.hand_score), signed(ew.hand_score)),
             (_("Game score"), points(ns.game_score), points(ew.game_score))]
    return rows


def table_html(result: HandResult, learner_team: str | None = None) -> str:
    """The result table (HTML, class ``rook-hand-end-table``): a column per team, the learner's named "(you)"."""
    head = ("<tr><th></th>" + "".join(f"<th>{escape(team_label(t, learner_team))}</th>" for t in ("NS", "EW"))
            + "</tr>")
    body = "".join(f"<tr class='rook-hand-end-row'><th class='rook-hand-end-label'>{escape(label)}</th>"
                   f"<td>{escape(a)}</td><td>{escape(b)}</td></tr>" for label, a, b in table_rows(result))
    style = _STYLE
    if i18n.current().direction == "rtl":  # the labels start on the right
        style += "<style>.rook-hand-end-table th.rook-hand-end-label {text-align: right}</style>"
    return f"{style}<table class='rook-hand-end-table'>{head}{body}</table>"


def game_line(result: HandResult, learner_team: str | None = None) -> str:
    """The game's standing after the hand (plain text): "Game: N–S 190 · E–W 95 (to 300)." or "Game over: N–S
    (you) win, 310 to 250." (rules.md "Game end"). Raises nothing."""
    ns, ew = result.teams["NS"].game_score, result.teams["EW"].game_score
    if result.game_over:
        win, lose = (ns, ew) if result.winner == "NS" else (ew, ns)
        return _("Game over: {team} win, {win} to {lose}.", team=team_label(result.winner, learner_team),
                 win=points(win), lose=points(lose))
    return _("Game: {ns_team} {ns} · {ew_team} {ew} (to {target}).", ns_team=team_word("NS"), ns=points(ns),
             ew_team=team_word("EW"), ew=points(ew), target=result.target)


def _heading_colour(result: HandResult, learner_team: str | None) -> str:
    """The heading's colour: green when the hand went the learner's team's way (its bid made, or the other team
    set), red when not, grey for a passed-out hand (or no learner)."""
    if result.passed_out or learner_team is None:
        return "#455a64"
    good = result.made == (result.declarer_team == learner_team)
    return "#2e7d32" if good else "#c62828"


def classed(widget, *classes):
    """Add the CSS ``classes`` (str) to ``widget`` (an ipywidgets DOMWidget) and return it: the panels' stable hooks
    for browser tests. Raises nothing."""
    for c in classes:
        widget.add_class(c)
    return widget


class HandEndPanel(widgets.VBox):
    """The end-of-hand panel (class ``rook-hand-end``): the result of the hand just played and the next steps.

    Args:
      on_replay: callable(step: int) run by "Replay this hand" with the step box's value (the Replay navigator's
        step: actions applied, 0 = the deal).
      on_next: callable() run by "Next hand" / "New game".
      review_widgets: widgets put first in the button row (the Play panel's "Could we have done better?" and its
        Stop button).
    Use `show` to draw a result or hide the panel. The callbacks handle their own errors (the Play panel shows them
    in its status line).
    """

    def __init__(self, on_replay: Callable[[int], None], on_next: Callable[[], None],
                 review_widgets: Sequence[widgets.Widget] = ()) -> None:
        self.result: HandResult | None = None
        self._learner: str | None = "S"
        self.heading = classed(widgets.HTML(), "rook-hand-end-heading")
        self.line = classed(widgets.HTML(), "rook-hand-end-line")
        self.table = classed(widgets.HTML(), "rook-hand-end-table")
        self.game = classed(widgets.HTML(), "rook-hand-end-game")
        self.replay_button = classed(widgets.Button(
            icon="step-forward", layout=widgets.Layout(width="auto", min_width="160px")), "rook-hand-end-replay")
        self.replay_button.on_click(lambda _b: on_replay(int(self.replay_step.value)))
        self.replay_step = classed(widgets.BoundedIntText(
            value=0, min=0, max=0, layout=widgets.Layout(width="auto", max_width="200px"),
            style={"description_width": "initial"}), "rook-hand-end-step")
        self.next_button = classed(widgets.Button(button_style="primary", layout=widgets.Layout(width="auto")),
                                   "rook-hand-end-next")
        self.next_button.on_click(lambda _b: on_next())
        buttons = widgets.HBox([*review_widgets, self.replay_button, self.replay_step, self.next_button],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        super().__init__([self.heading, self.line, self.table, self.game, buttons],
                         layout=widgets.Layout(display="none", border="2px solid #90caf9", padding="6px 10px",
                                               margin="6px 0"))
        self.add_class("rook-hand-end")
        self.draw_words()

    def draw_words(self) -> None:
        """The panel's words in the active language (`rookcore.i18n`): its buttons, and the result on show drawn
        again. Raises nothing."""
        self.replay_button.description = _("Replay this hand")
        self.replay_button.tooltip = _("Open the Replay tab on this hand, at the step chosen next to it")
        self.replay_step.description = _("at step")
        self.replay_step.tooltip = _("the Replay navigator's step: 0 = the deal, the last = the end of the hand")
        self.next_button.description = _("Next hand")
        self.next_button.tooltip = _("deal the next hand")
        if self.result is not None:
            self.show(self.result, self.replay_step.max, self._learner)

    def show(self, result: HandResult | None, n_steps: int = 0, learner: str | None = "S") -> None:
        """Draw ``result`` (a `HandResult`), or hide the panel for None (a hand in play).

        ``n_steps``: the hand's number of actions (int; the last step Replay can open at); ``learner``: the learner's
        seat letter (their team is named "(you)"). The step box keeps its value within 0..n_steps. Raises nothing.
        """
        self.result, self._learner = result, learner
        if result is None:
            self.layout.display = "none"
            return
        team = None if learner is None else ("NS" if learner in "NS" else "EW")
        colour = _heading_colour(result, team)
        self.heading.value = f"<div style='font-size:130%;color:{colour}'><b>{escape(headline(result))}</b></div>"
        self.line.value = f"<div>{escape(detail_line(result, learner))}</div>"
        self.table.value = table_html(result, team)
        self.game.value = f"<div><b>{escape(game_line(result, team))}</b></div>"
        self.replay_step.max = max(0, int(n_steps))
        self.replay_button.disabled = n_steps <= 0
        over = result.game_over
        self.next_button.description = _("New game") if over else _("Next hand")
        self.next_button.tooltip = _("the game is over: start a new game from 0–0") if over else _("deal the next hand")
        self.layout.display = "flex"
