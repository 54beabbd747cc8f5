"""Buttons that belong to one decision of the learner, so that a click made before the table changed is ignored.

A browser sends a click without saying which position the player was looking at, and the kernel handles clicks one
after the other: a double click on "Bid 75", or a second card clicked while the AIs were still playing, used to be
applied to whatever position the table had reached by then (an error at best, at worst a card played into the next
trick). Here each decision of the learner gets new button widgets; a click that reaches a button of an earlier
decision was made before its player could see the new one, and is ignored (``on_stale`` tells the player).
"""
from __future__ import annotations

from typing import Any, Callable, Hashable

import ipywidgets as widgets

from rookcore.confirm import SecondClick  # moved to the engine (sessions ask too); re-exported here

__all__ = ["DecisionButtons", "SecondClick", "close_with_parts"]


class DecisionButtons:
    """The learner's action buttons, one set per decision.

    Args:
      on_stale: called (no arguments) instead of the action when a button of an earlier decision is clicked.

    `start(key)` begins a new decision when ``key`` (anything that identifies the table's position) changed;
    `button(name, make, action)` returns the current decision's button called ``name``, made by ``make()`` the
    first time it is asked for in this decision, whose click runs ``action()``. Buttons of the decision before the
    current one stay open (their late clicks are reported as ignored); older ones are closed.
    """

    def __init__(self, on_stale: Callable[[], Any]) -> None:
        self.decision = 0  # counts decisions since the panel was made
        self._key: Hashable = object()
        self._buttons: dict[Hashable, tuple[int, widgets.Button]] = {}
        self._retired: list[tuple[int, widgets.Button]] = []
        self._on_stale = on_stale

    def start(self, key: Hashable) -> None:
        """Begin a new decision if ``key`` differs from the last one."""
        if key != self._key:
            self._key = key
            self.decision += 1

    def button(self, name: Hashable, make: Callable[[], widgets.Button], action: Callable[[], Any]) -> widgets.Button:
        """The current decision's button ``name`` (made by ``make()`` on first use in this decision), whose click
        runs ``action()`` while this decision lasts and ``on_stale()`` afterwards."""
        found = self._buttons.get(name)
        if found is not None and found[0] == self.decision:
            return found[1]
        self._close_retired()
        made_in = self.decision
        new = make()
        new.on_click(lambda _b: action() if made_in == self.decision else self._on_stale())
        if found is not None:
            self._retired.append((self.decision, found[1]))
        self._buttons[name] = (made_in, new)
        return new

    def _close_retired(self) -> None:
        """Close the buttons replaced before the current decision (no click for them can still be on its way), with
        their layout and style (`close_with_parts`: each button made here has its own)."""
        keep = []
        for retired_in, old in self._retired:
            if retired_in < self.decision:
                close_with_parts(old)
            else:
                keep.append((retired_in, old))
        self._retired = keep


def close_with_parts(widget: widgets.Widget) -> None:
    """Close ``widget`` (an ipywidgets widget) and the ``layout`` and ``style`` widgets it holds. ipywidgets' own
    ``close`` leaves those open, because they may be shared (jupyter-widgets/ipywidgets#2308), so a panel that makes
    new widgets for every decision would keep two more open widgets in the kernel and the page for each one it
    closes (the load benchmark saw ~280 a hand). Only for widgets whose layout and style are their own. Raises
    nothing."""
    parts = [getattr(widget, name, None) for name in ("layout", "style")]
    widget.close()
    for part in parts:
        if isinstance(part, widgets.Widget):
            part.close()
