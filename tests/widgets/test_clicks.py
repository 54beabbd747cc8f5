"""widgets.clicks: a decision's buttons, once closed, leave no open layout or style behind (ipywidgets' close keeps
them open, so the Play panel kept two more open widgets for every button it replaced)."""
from __future__ import annotations

import ipywidgets as widgets

from rookcore.actions import Play
from rookcore.hand import Phase
from rookcore.table import Table
from widgets.clicks import DecisionButtons, close_with_parts
from widgets.play import PlayPanel


def _open(widget) -> bool:
    return widget.comm is not None


def test_close_with_parts_closes_the_layout_and_the_style():
    button = widgets.Button(description="Bid 75", layout=widgets.Layout(width="70px"))
    layout, style = button.layout, button.style
    assert _open(button) and _open(layout) and _open(style)
    close_with_parts(button)
    assert not _open(button) and not _open(layout) and not _open(style)
    close_with_parts(widgets.HTML("x"))  # an HTML's layout and style too; nothing raised


def test_retired_buttons_are_closed_with_their_parts_one_decision_later():
    buttons = DecisionButtons(on_stale=lambda: None)
    buttons.start("first")
    first = buttons.button("pass", lambda: widgets.Button(description="Pass"), lambda: None)
    buttons.start("second")
    second = buttons.button("pass", lambda: widgets.Button(description="Pass"), lambda: None)
    assert second is not first and _open(first)  # a late click on it may still come: it stays open, said stale
    buttons.start("third")
    third = buttons.button("pass", lambda: widgets.Button(description="Pass"), lambda: None)
    assert not _open(first) and not _open(first.layout) and not _open(first.style)
    assert _open(second) and _open(second.style) and _open(third)


def test_a_played_hand_leaves_no_button_style_without_its_open_button():
    before = set(widgets.Widget.widgets)  # other tests' widgets are not this hand's
    panel = PlayPanel(table=Table(deal=1001, level="rules"), pace=0)
    table = panel.table
    while not table.state.is_over:
        phase = table.state.phase
        if phase is Phase.AUCTION:
            panel.call_pass()
        elif phase is Phase.DISCARD:
            panel.discard(table.discard_options()[-table.rules.nest_size:])
        elif phase is Phase.TRUMP:
            panel.name_trump("R")
        else:
            panel.play_card(next(a.card for a in table.legal_for_learner() if isinstance(a, Play)))
    open_widgets = [w for key, w in widgets.Widget.widgets.items() if key not in before]
    styles_in_use = {id(w.style) for w in open_widgets if isinstance(w, widgets.Button)}
    orphans = [w for w in open_widgets if isinstance(w, widgets.ButtonStyle) and id(w) not in styles_in_use]
    assert not orphans, f"{len(orphans)} open button styles belong to no open button"
