"""HTML helpers for card pictures in the ipywidgets panels.

The pictures themselves are drawn by the engine's UI-free `rookcore.svg` (one card drawing in the whole app); this
module re-exports them for the panels and adds small HTML layouts (the blue border's legend, a trick round the table).
"""
from __future__ import annotations

from html import escape

from rookcore.i18n import _

from rookcore.svg import (BACK_COLOUR, BIRD_COLOUR, DARK, HIGHLIGHT_COLOUR, PALETTE, RED_ONE_GOLD, SYMBOLS,  # noqa: F401
                          card_back_svg, card_label, card_svg, card_title, hand_svg)


def border_legend(meaning: str) -> str:
    """A short visible legend for the blue border (`HIGHLIGHT_COLOUR`, drawn by ``highlight`` in `card_svg` and
    `hand_svg`), which marks different things in different places: a small blue-bordered swatch and
    "blue border: <meaning>" in the active language (``meaning``: plain text in it, escaped here, e.g. "the card that
    took the trick").
    Returns an inline HTML fragment (class ``rook-border-legend``). Raises ValueError for an empty ``meaning``."""
    if not str(meaning).strip():
        raise ValueError("the blue border's legend needs a meaning, e.g. 'the card that took the trick'")
    words = _("blue border: {meaning}", meaning=str(meaning).strip())
    swatch = (f"<span style='display:inline-block;width:9px;height:12px;border:2px solid {HIGHLIGHT_COLOUR};"
              f"border-radius:2px;vertical-align:middle;margin-right:4px'></span>")
    return (f"<span class='rook-border-legend' style='font-size:12px;color:#444;white-space:nowrap'>{swatch}"
            f"{escape(words)}</span>")


def compass_html(cells: dict[int, str], caption: str, card_width: int) -> str:
    """A trick laid out round the table, as players sit: N at the top, W left, E right, S at the bottom, and a
    small compass in the middle. ``cells``: seat (0..3 = N, E, S, W) → the HTML of the card it played (a seat
    missing from it gets an empty space of a card's size); ``caption``: plain text above (escaped here);
    ``card_width``: px. Returns an HTML fragment (str). Raises nothing."""
    empty = f"<div style='width:{card_width}px;height:{round(card_width * 1.4)}px'></div>"

    def cell(seat: int) -> str:
        return cells.get(seat, empty)

    grid = "display:inline-grid;grid-template-columns:repeat(3,auto);gap:2px;justify-items:center;align-items:center"
    return (f"<div style='text-align:center'><div style='font-size:12px;color:#444;margin-bottom:2px'>"
            f"{escape(caption)}</div><div style='{grid}'>"
            f"<div></div>{cell(0)}<div></div>{cell(3)}<div style='font-size:11px;color:#888'>N<br>W ✚ E<br>S"
            f"</div>{cell(1)}<div></div>{cell(2)}<div></div></div></div>")
