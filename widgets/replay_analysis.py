"""Replay's analysis box: Analyze with its time budget, Cancel, Mark mistakes, the status line, the first lead's
result and the auction, the last card's verdict, the table of costly cards and the "Go to" list. It draws the
session's `rookcore.replay.AnalysisShown` whenever the analysis changes (from its thread too) or the position moves.
"""
from __future__ import annotations

from typing import Callable

import ipywidgets as w

from rookcore import annotations, i18n
from rookcore.i18n import _
from rookcore.replay import ReplaySession
from rookcore.replay.verdicts import CostlyRow

from .replay_view import (BUDGET_CHOICES, GOTO_NONE, GOTO_PROMPT, budget_choices, card_html, safe, start_html,
                          status_html, table_html)


class AnalysisView:
    """The analysis box (``box``).

    Args:
      session: the panel's `ReplaySession`.
      go: moves the navigator to a position (the "Go to" list).
      complain: shows an error in the editor's status line (Analyze without a record).
    """

    WIDGETS = ("analyze_button", "analysis_budget", "cancel_button", "apply_marks_button", "analysis_status",
               "analysis_start", "analysis_card", "analysis_table", "analysis_goto", "analysis_box")
    """The widgets the panel offers under the same names (the app and the tests reach them there)."""

    def __init__(self, session: ReplaySession, go: Callable[[int], None], complain: Callable[[str], None]) -> None:
        self.session = session
        self._go = go
        self.complain = complain
        self.analyze_button = w.Button(description="Analyze", icon="search", layout=w.Layout(width="100px"))
        self.analyze_button.add_class("rook-analyze")
        self.analyze_button.on_click(lambda _b: self.analyze())
        self.analysis_budget = w.Dropdown(description="Time budget", options=list(BUDGET_CHOICES),
                                          value=annotations.DEFAULT_BUDGET, layout=w.Layout(width="190px"),
                                          style={"description_width": "initial"})
        self.analysis_budget.add_class("rook-analysis-budget")
        self.cancel_button = w.Button(description="Cancel", icon="stop", button_style="danger", disabled=True,
                                      layout=w.Layout(width="90px", display="none"))
        self.cancel_button.add_class("rook-analyze-cancel")
        self.cancel_button.on_click(lambda _b: self.cancel_analysis())
        self.apply_marks_button = w.Button(description="Mark mistakes", disabled=True, layout=w.Layout(width="130px"))
        self.apply_marks_button.add_class("rook-analyze-apply")
        self.analysis_status = _html("rook-analysis-status")
        self.analysis_start = _html("rook-analysis-start")  # the first lead's result (proven range, refined), auction
        self.analysis_card = _html("rook-analysis-card")
        self.analysis_table = _html("rook-analysis-table")
        self.analysis_goto = w.Dropdown(description="Go to:", options=[(GOTO_PROMPT, GOTO_NONE)], value=GOTO_NONE,
                                        layout=w.Layout(width="420px", display="none"),
                                        style={"description_width": "initial"})
        self.analysis_goto.add_class("rook-analysis-goto")
        self._goto_sync = False  # the panel, not the learner, is setting the list
        self.analysis_goto.observe(self._on_goto, names="value")
        self.analysis_box = w.VBox([
            w.HBox([self.analyze_button, self.analysis_budget, self.cancel_button, self.apply_marks_button,
                    self.analysis_status], layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.analysis_start, self.analysis_card, self.analysis_goto, self.analysis_table],
            layout=w.Layout(margin="6px 0"))
        self.analysis_box.add_class("rook-analysis")

    @property
    def lang(self) -> str:
        """The session's language (actions run in it)."""
        return self.session.lang

    @property
    def analysis_seconds(self) -> float:
        """The time budget of the next analysis: the "Time budget" list's choice (seconds per hand)."""
        return float(self.analysis_budget.value)

    def draw_words(self) -> None:
        """The box's words, and the budgets' labels, in the active language."""
        self.analyze_button.description = _("Analyze")
        self.analyze_button.tooltip = _("Double-dummy analysis: what each card played cost")
        budget = self.analysis_budget.value
        self.analysis_budget.options = budget_choices()
        self.analysis_budget.value = budget
        self.analysis_budget.description = _("Time budget")
        self.analysis_budget.tooltip = _("How long Analyze searches this hand before it shows what is proven "
                                         "(ranges where the exact value is not found)")
        self.cancel_button.description = _("Cancel")
        self.cancel_button.tooltip = _("Stop the running analysis (what is proven so far stays shown)")
        self.apply_marks_button.description = _("Mark mistakes")
        self.apply_marks_button.tooltip = _("Copy the analysis' ? and ?? marks into the record (steps you marked "
                                            "keep your mark)")
        self.analysis_goto.description = _("Go to:")

    @safe
    def analyze(self) -> None:
        """Analyse the hand on show within the time budget chosen (`ReplaySession.analyze`)."""
        self.session.analyze(self.analysis_seconds)

    @safe
    def cancel_analysis(self) -> None:
        """Stop the running analysis, keeping what is proven (`ReplaySession.cancel_analysis`)."""
        self.session.cancel_analysis()

    def draw(self) -> None:
        """Draw the session's analysis at the position shown: the status, the buttons, the first lead's line, the
        verdict on the last action shown, the table of costly cards (that action's row highlighted) and the "Go to"
        list."""
        shown = self.session.analysis_shown()
        self.analysis_status.value = status_html(shown.status)
        self.analyze_button.disabled = not shown.can_analyze
        self.cancel_button.disabled = not shown.cancel
        self.cancel_button.layout.display = "" if shown.cancel else "none"
        self.apply_marks_button.disabled = not shown.can_apply
        if not shown.report:
            self.analysis_card.value = self.analysis_table.value = self.analysis_start.value = ""
            self._set_goto([], None)
            return
        self.analysis_start.value = start_html(shown)
        self.analysis_card.value = card_html(shown.card)
        self._set_goto(shown.rows, shown.step)
        self.analysis_table.value = table_html(shown)

    def _set_goto(self, rows: list[CostlyRow], k: int | None) -> None:
        """Fill the "Go to" list with the costly cards ``rows`` (hidden when there are none), its value the row of
        record step ``k`` when it is one of them."""
        options = [(_(GOTO_PROMPT), GOTO_NONE)] + [(row.label, row.step) for row in rows]
        self._goto_sync = True
        try:
            if list(self.analysis_goto.options) != options:
                self.analysis_goto.options = options
            self.analysis_goto.value = k if k in {row.step for row in rows} else GOTO_NONE
        finally:
            self._goto_sync = False
        self.analysis_goto.layout.display = "" if rows else "none"

    @i18n.in_own_language
    def _on_goto(self, change) -> None:
        """The "Go to" list: show the chosen card's step (the position just after it)."""
        if self._goto_sync or change["new"] == GOTO_NONE:
            return
        self._go(change["new"] + 1)


def _html(cls: str) -> w.HTML:
    """An empty HTML widget with the CSS class ``cls``."""
    widget = w.HTML("")
    widget.add_class(cls)
    return widget
