"""What every lesson widget shares: the lesson page's language (`set_page_language`, `page_language`, the
right-to-left style `RTL_STYLE`, links that carry the language `link_query`) and the small drawing pieces (an HTML
widget with its classes, the trump badge, a trick as a row of cards). Names with a leading underscore are shared by
the lesson modules (`widgets.lessons`, `widgets.lesson_exercise`, `widgets.lesson_examples`) only.
"""
from __future__ import annotations

import functools
from html import escape
from typing import Any, Callable

import ipywidgets as widgets

from rookcore import i18n, teaching
from rookcore.cards import Card
from rookcore.i18n import _
from rookcore.rules import Rules, get_rules
from rookcore.words import card_text, colour_name, seat_name
from widgets.cards import PALETTE, border_legend, card_svg
from widgets.lesson_progress import Progress

RTL_STYLE = ("<style>.rook-rtl {direction: rtl; text-align: right}"
             ".rook-rtl .rook-ltr, .rook-rtl svg, .rook-rtl .rook-answer-cards, .rook-rtl input {direction: ltr}"
             ".rook-rtl .rook-ltr {text-align: right; justify-content: flex-end}"
             ".rook-rtl .rook-answer-cards .rook-cp-row {justify-content: flex-end}"
             ".rook-rtl .widget-label, .rook-rtl .widget-label-basic {text-align: left}"
             # the AI's own sentences (rookcore.ai) take the direction of their own words
             ".rook-rtl .rook-ai-action, .rook-rtl .rook-ai-explanation {unicode-bidi: plaintext}</style>")
"""A right-to-left lesson page (Persian): every lesson widget has the class ``rook-rtl`` (`_html`) and reads from
the right; card pictures, rows of cards (class ``rook-ltr``; the answer cards) and number boxes keep their left-to-right
order, set against the right edge where the page's lines start."""


_page: dict[str, Any] = {"lang": None, "progress": None}
"""The lesson page's state, one page per kernel under Voila: its language (`set_page_language`) and where its
progress is read from (`set_page_progress`)."""


def set_page_language(lang: str | None) -> str:
    """Make ``lang`` (a `rookcore.i18n` code; None or unknown: English) the language of this lesson page: every
    widget this module builds from now on is drawn in it and its buttons answer in it. Returns the code used."""
    _page["lang"] = i18n.normalize(lang)
    i18n.set_language(_page["lang"])
    return _page["lang"]


def page_language() -> str:
    """The language lesson widgets are drawn in: the active `rookcore.i18n` language when one is chosen (the app's
    Learn tab builds its parts inside ``i18n.using``), else the page's (`set_page_language`), else "en"."""
    current = i18n.current_language()
    if current != i18n.SOURCE:
        return current
    return _page["lang"] or i18n.SOURCE


def set_page_progress(progress: Callable[[], Progress]) -> None:
    """Where this page's progress is: ``progress()`` gives the `Progress` that lesson widgets built without one record
    in (`page_progress`). `widgets.lessons` sets it to read its `PROGRESS` (kept there: it decides where the file
    is, `widgets.lessons.progress_path`)."""
    _page["progress"] = progress


def page_progress() -> Progress:
    """The page's progress (`set_page_progress`: `widgets.lessons.PROGRESS`, read now). Raises RuntimeError when no
    module has said where it is (`widgets.lessons` does when imported)."""
    if _page["progress"] is None:
        raise RuntimeError("no lesson progress yet: import widgets.lessons")
    return _page["progress"]()


def _in_page_language(fn: Callable) -> Callable:
    """Run a widget builder in `page_language` (`rookcore.i18n.using`)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with i18n.using(page_language()):
            return fn(*args, **kwargs)
    return wrapper


def _rtl() -> bool:
    return i18n.current().direction == "rtl"


def link_query(lang: str | None = None) -> str:
    """The query string a lesson link carries for the language ``lang`` (default: the active one): ``"?lang=de"``,
    or ``""`` for English (a link without it opens in English)."""
    code = i18n.normalize(lang if lang is not None else i18n.current_language())
    return "" if code == i18n.SOURCE else f"?lang={code}"


def _html(value: str, cls: str | None = None) -> widgets.HTML:
    """An HTML widget with class ``cls``, and ``rook-rtl`` when the active language reads right to left."""
    w = widgets.HTML(value)
    if cls:
        w.add_class(cls)
    if _rtl():
        w.add_class("rook-rtl")
    return w


def _rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return get_rules()
    return get_rules(rules) if isinstance(rules, str) else rules


def _svg_opts(rules: Rules) -> dict:
    return {"bird_name": rules.bird_name, "red_one": rules.red_one}


def _label(rules: Rules, card: Card) -> str:
    """A card as the lessons name it: its code ("R14"), the bird and the Red 1 in words of the active language."""
    return card_text(rules, card)


def trump_badge(trump: str) -> str:
    """HTML badge naming the trump colour (in the active language)."""
    words = _("Trump: {colour}", colour=colour_name(trump))
    return (f"<span style='background:{PALETTE[trump]};color:white;padding:2px 8px;border-radius:8px'>"
            f"{escape(words)}</span>")


def trick_html(rules: Rules, leader: int, cards, winner: int | None = None, width: int = 60) -> str:
    """The trick as a row of cards, each labelled with its seat ("led" on the first; the winner highlighted, with a
    `border_legend` saying so). Returns an HTML fragment (str)."""
    cells = []
    for i, card in enumerate(cards):
        seat = (leader + i) % 4
        tag = _seat_tag(seat, led=i == 0, wins=seat == winner)
        cells.append(f"<div style='text-align:center;margin:0 4px'>"
                     f"{card_svg(card, width=width, highlight=seat == winner, **_svg_opts(rules))}"
                     f"<div style='font-size:12px'>{escape(tag)}</div></div>")
    meaning = _("the card that wins the trick")
    legend = f"<div style='margin-top:2px'>{border_legend(meaning)}</div>" if winner is not None else ""
    return f"<div class='rook-ltr' style='display:flex;align-items:flex-end'>{''.join(cells)}</div>{legend}"


def _seat_tag(seat: int, led: bool = False, wins: bool = False) -> str:
    """A card's caption in a trick: its seat ("N"), "(led)" on the first card, "— wins" on the winner's."""
    name = seat_name(seat)
    if led and wins:
        return _("{seat} (led) — wins", seat=name)
    if led:
        return _("{seat} (led)", seat=name)
    return _("{seat} — wins", seat=name) if wins else name


def _hand_of(seat: int) -> str:
    """"North's hand:" in the active language."""
    return _("{seat}'s hand:", seat=teaching.seat_full_name(seat))


def _hint(text: str) -> widgets.HTML:
    """An italic line saying how to answer."""
    return widgets.HTML(f"<i>{escape(text)}</i>")
