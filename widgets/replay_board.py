"""Replay's navigator and board: First / Back / slider / Forward / Last with "Step 12 / 45", and what is shown at that
position (heading, last action, comment, the table as a watcher sees it, the facts, the final score). It draws a
`rookcore.replay.StepShown`; the buttons only ask the panel to move.
"""
from __future__ import annotations

from typing import Callable

import ipywidgets as w

from rookcore.i18n import _
from rookcore.replay import StepShown
from rookcore.rules import Rules

from .cards import border_legend
from .replay_view import action_html, comment_html, facts_html, score_html, title_html
from .table_view import TableView


class Board:
    """The navigator (``nav``) and the position shown (``body``: the table, the facts and the score).

    Args:
      go: moves the navigator to a position (clamped by the panel).
    """

    WIDGETS = ("first_button", "back_button", "forward_button", "last_button", "slider", "step_label", "title",
               "action", "comment", "table_view", "table", "info", "score")
    """The widgets the panel offers under the same names (the app and the tests reach them there)."""

    def __init__(self, go: Callable[[int], None]) -> None:
        self.first_button = w.Button(description="First", icon="fast-backward", layout=w.Layout(width="80px"))
        self.back_button = w.Button(description="Back", icon="step-backward", layout=w.Layout(width="80px"))
        self.forward_button = w.Button(description="Forward", icon="step-forward", layout=w.Layout(width="95px"))
        self.last_button = w.Button(description="Last", icon="fast-forward", layout=w.Layout(width="80px"))
        for b, name in ((self.first_button, "first"), (self.back_button, "back"), (self.forward_button, "forward"),
                        (self.last_button, "last")):
            b.add_class(f"rook-replay-{name}")  # found by class in any language
        self.first_button.on_click(lambda _b: go(0))
        self.back_button.on_click(lambda _b: go(self.slider.value - 1))
        self.forward_button.on_click(lambda _b: go(self.slider.value + 1))
        self.last_button.on_click(lambda _b: go(self.slider.max))
        self.slider = w.IntSlider(value=0, min=0, max=0, readout=False, continuous_update=True,
                                  layout=w.Layout(width="320px"))
        self.slider.add_class("rook-replay-slider")
        self.step_label = w.Label("Step 0 / 0")
        self.step_label.add_class("rook-replay-step")
        self.title = _html("rook-replay-title")
        self.action = _html("rook-replay-action")
        self.comment = _html("rook-replay-comment", hidden=True)
        # the table as a watcher sees it (every hand face up), drawn by the Play tab's card table widget
        self.table_view = TableView(pace=0)
        self.table_view.add_class("rook-replay-table-view")
        self.table = _html("rook-replay-table")  # the legend of the blue border, when the last action was a card
        self.info = _html("rook-replay-info")
        self.score = _html("rook-replay-score", hidden=True)
        self.nav = w.HBox([self.first_button, self.back_button, self.slider, self.forward_button, self.last_button,
                           self.step_label], layout=w.Layout(flex_flow="row wrap", align_items="center"))
        board = w.VBox([self.table_view, self.table], layout=w.Layout(flex="1 1 540px", max_width="760px",
                                                                       min_width="0"))
        self.body = w.HBox([board, w.VBox([self.info, self.score], layout=w.Layout(width="430px",
                                                                                  margin="0 0 0 12px"))],
                           layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))

    def draw_words(self) -> None:
        """The buttons' words in the active language."""
        self.first_button.description = _("First")
        self.back_button.description = _("Back")
        self.forward_button.description = _("Forward")
        self.last_button.description = _("Last")

    def start(self, n_steps: int) -> None:
        """Put the slider at 0 of ``n_steps`` (another hand is shown)."""
        # value first, in a message of its own: were the end lowered first, the browser would clamp its old value
        # to the new end and send that back after the 0
        self.slider.value = 0
        self.slider.max = n_steps

    def draw(self, shown: StepShown, rules: Rules | None) -> None:
        """Draw ``shown`` (the position on show; ``rules`` the record's rule set, None without a record)."""
        n, k = shown.n_steps, shown.step
        self.step_label.value = _("Step {step} / {steps}", step=k, steps=n)
        self.first_button.disabled = self.back_button.disabled = k <= 0
        self.forward_button.disabled = self.last_button.disabled = k >= n
        self.title.value = title_html(shown)
        if not shown.loaded:
            self.action.value = self.table.value = self.info.value = ""
            self.table_view.layout.display = "none"
            self.score.layout.display = self.comment.layout.display = "none"
            return
        self.action.value = action_html(shown)
        self.comment.value = comment_html(shown)
        self.comment.layout.display = "" if self.comment.value else "none"
        self.table_view.layout.display = None
        self.table_view.show(shown.table, rules, token=f"replay-{k}")
        self.table.value = border_legend(_("the last card played")) if shown.last_played else ""
        self.info.value = facts_html(shown, rules)
        self.score.value = score_html(shown.score) if shown.score is not None else ""
        self.score.layout.display = "" if shown.score is not None else "none"


def _html(cls: str, hidden: bool = False) -> w.HTML:
    """An empty HTML widget with the CSS class ``cls`` (``hidden``: not displayed until it has something)."""
    widget = w.HTML("", layout=w.Layout(display="none")) if hidden else w.HTML("")
    widget.add_class(cls)
    return widget
