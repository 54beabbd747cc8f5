"""The Play panel's side pane: the tally of the hand, the score sheet, the game-over banner and the AIs' reasoning
(`widgets.reasoning.ReasoningPane`), drawn from the session's `rookcore.table.Table`."""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from rookcore import i18n
from rookcore.hand import SEATS, TEAMS, Phase
from rookcore.i18n import _, pgettext
from rookcore.table import Table
from rookcore.words import seat_name, team_name

from .hand_end import classed
from .reasoning import ReasoningPane

TABLE_STYLE = ("<style>.rook-score-table, .rook-tally-table {border-collapse: collapse}"
               ".rook-score-table {width: 100%; font-size: 12px; line-height: 1.25}"
               ".rook-score-table td, .rook-score-table th {padding: 1px 2px; border-bottom: 1px solid #ddd;"
               " text-align: right} .rook-score-table td {white-space: nowrap}"
               " .rook-score-table th {white-space: normal; font-size: 10.5px; font-weight: 600}</style>")


def _team(code: str) -> str:
    """The team "NS"/"EW" in the active language ("N–S")."""
    return team_name(0 if code == "NS" else 1)


class SidePane:
    """The tally (``tally_html``), the score sheet (``score_title``, ``score_html``), the game-over banner
    (``game_over``, shown above the columns by the panel) and the reasoning pane (``reasoning_pane``; its parts
    ``reasoning``, ``reasoning_note``, ``open_reasoning``). ``box`` is the side column.

    Args: on_reveal: called with no arguments when the learner ticks or unticks "Reveal hidden cards as they play".
    """

    WIDGETS = ("tally_html", "score_title", "score_html", "game_over", "reasoning_pane", "reasoning",
               "reasoning_note", "open_reasoning")
    """The widgets the panel shows under their own names (the app and the tests use them)."""

    def __init__(self, on_reveal) -> None:
        self.tally_html = classed(widgets.HTML(), "rook-tally")
        self.reasoning_pane = ReasoningPane(on_reveal=on_reveal)
        self.score_title = widgets.HTML()
        # the pane's parts, as tests and the app know them
        self.reasoning, self.reasoning_note = self.reasoning_pane.moves, self.reasoning_pane.note
        self.open_reasoning = self.reasoning_pane.reveal
        self.score_html = classed(widgets.HTML(), "rook-score-sheet")
        self.game_over = classed(widgets.HTML(), "rook-game-over")
        self.box = classed(widgets.VBox([self.tally_html, self.score_title, self.score_html, self.reasoning_pane],
                                        layout=widgets.Layout(flex="1 1 280px", max_width="460px", min_width="0",
                                                              padding="0 0 0 10px")), "rook-play-side")

    def draw_words(self) -> None:
        """The pane's lasting words in the active language."""
        sheet = escape(_("Score sheet"))
        self.score_title.value = f"<b>{sheet}</b>"
        self.reasoning_pane.draw_words()

    def draw(self, table: Table) -> None:
        """The reasoning, the tally, the score sheet and the game-over banner of ``table``."""
        self.reasoning_pane.draw(table)
        self.draw_tally(table)
        self.draw_score_sheet(table)

    def draw_tally(self, table: Table) -> None:
        """The counters of the hand as the learner may know them (`Table.tally`)."""
        t = table.tally()
        cap, tw = t["captured"], t["tricks_won"]
        teams = {"ns_team": team_name(0), "ew_team": team_name(1)}
        rows = [(_("Captured"), _("{ns_team} (you) {ns} · {ew_team} {ew}", ns=cap["NS"], ew=cap["EW"], **teams)),
                (_("Tricks"), _("{ns_team} {ns} · {ew_team} {ew}", ns=tw["NS"], ew=tw["EW"], **teams)),
                (_("Counters still out"), str(t["counters_out"]))]
        if t["in_trick"]:
            rows.append((_("In this trick"), str(t["in_trick"])))
        if t["nest_points"] is not None:
            as_dealt = table.state.phase is Phase.DISCARD  # the cards being chosen are counted by the picker
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
                                                points=table.rules.majority_bonus)))
        align = "right" if i18n.current().direction == "rtl" else "left"
        body = "".join(f"<tr><th style='text-align:{align}'>{escape(k)}</th><td>{escape(v)}</td></tr>"
                       for k, v in rows)
        self.tally_html.value = f"<table class='rook-tally-table'>{body}</table>"

    def draw_score_sheet(self, table: Table) -> None:
        """The game's scored hands (`Table.score_sheet`) and, once the game is won, the banner saying who won."""
        sheet = table.score_sheet()
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
        self.score_html.value = (f"{TABLE_STYLE}<div class='rook-score-scroll' style='overflow-x:auto'>"
                                 f"<table class='rook-score-table'>{head}{rows}{foot}</table></div>")
        if sheet["game_over"]:
            win = sheet["winner"]
            scores = {"team": _team(win), "ns_team": ns, "ns": tot["NS"], "ew_team": ew, "ew": tot["EW"]}
            if win == TEAMS[table.learner_team]:
                text = _("Game over: you and North win ({team}), {ns_team} {ns} to {ew_team} {ew}. Start a new game.",
                         **scores)
            else:
                text = _("Game over: East and West win ({team}), {ns_team} {ns} to {ew_team} {ew}. Start a new "
                         "game.", **scores)
            self.game_over.value = (f"<div style='background:#fff3cd;border:2px solid #e0a800;padding:8px;"
                                    f"font-size:120%'><b>{escape(text)}</b></div>")
        else:
            self.game_over.value = ""
