"""The shared wording of the exercises and examples (rules.md §1–§3), in the active language (`rookcore.i18n`):
seats by their full names, colours inside a sentence, cards named in a sentence, lists joined with "and", the
counters and the bird's place in words, a trick as a prompt writes it.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from ..cards import Card
from ..i18n import _, pgettext
from ..rules import BIRD_BELOW_RED_ONE, BIRD_BOTTOM, BIRD_TOP, RED_ONE, Rules
from ..words import bird_name, card_text, list_text, seat_name
from .deals import _rules


SEAT_NAMES: tuple[str, ...] = ("North", "East", "South", "West")
"""The seats' full names in English (`seat_full_name` gives them in the active language)."""
BIRD = Card.bird()
_SEAT_WORDS = (lambda: pgettext("seat name", "North"), lambda: pgettext("seat name", "East"),
               lambda: pgettext("seat name", "South"), lambda: pgettext("seat name", "West"))
_COLOUR_WORDS = {"R": lambda: pgettext("colour in a sentence", "red"),
                 "Y": lambda: pgettext("colour in a sentence", "yellow"),
                 "G": lambda: pgettext("colour in a sentence", "green"),
                 "B": lambda: pgettext("colour in a sentence", "black")}


def seat_full_name(seat: int) -> str:
    """Seat ``seat`` (0..3) by its full name in the active language ("North"; de "Nord"). Raises IndexError outside
    0..3."""
    return _SEAT_WORDS[seat]()


def colour_word(letter: str) -> str:
    """The colour ``letter`` as a word inside a sentence, in the active language ("green": "holds a green card").
    Raises KeyError for a letter that is no colour."""
    return _COLOUR_WORDS[letter]()


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def short_name(rules: Rules, card: Card) -> str:
    """Short display name of ``card``: "R9", "Crow"/"Rook", "Red 1" (The Red 1) (`Rules.display_name`)."""
    return rules.display_name(card)


_THE_BIRD = {"Crow": lambda: pgettext("card", "the Crow"), "Rook": lambda: pgettext("card", "the Rook")}


def _name(rules: Rules, card: Card) -> str:
    """``card`` named in a sentence in the active language: "the Crow", "the Red 1", else its code ("R9")."""
    if card == BIRD:
        word = _THE_BIRD.get(rules.bird_name)
        return word() if word else f"the {rules.bird_name}"
    if rules.red_one and card == RED_ONE:
        return pgettext("card", "the Red 1")
    return card.notation()


def and_list(items: Sequence[str]) -> str:
    """``items`` as a list in a sentence, the last joined by "and" in the active language ("R5, R9 and the Crow")."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}", items=list_text(items[:-1]), last=items[-1])


def _names(rules: Rules, cards: Iterable[Card]) -> str:
    return and_list([_name(rules, c) for c in sorted(cards)])


def _semi() -> str:
    """The separator of clauses in one sentence ("; "; fa "؛ ") in the active language."""
    return pgettext("clause separator", "; ")


def bird_place_text(rules: Rules) -> str:
    """Where the bird ranks, in plain words (rules.md §2, §3): "the lowest trump" etc.; "" with no bird."""
    if not rules.bird:
        return ""
    return {BIRD_BOTTOM: lambda: _("the lowest trump"), BIRD_TOP: lambda: _("the highest trump"),
            BIRD_BELOW_RED_ONE: lambda: _("the second-highest trump, under the Red 1")}[rules.bird_place]()


def counters_text(rules: Rules) -> str:
    """The counter values of ``rules`` in words, e.g. "the 5s are worth 5, the 10s and 14s 10, the Crow 20"."""
    by_value: dict[int, list[int]] = {}
    for number, pts in sorted(rules.counters):
        by_value.setdefault(pts, []).append(number)
    parts = []
    for pts, numbers in sorted(by_value.items(), key=lambda kv: min(kv[1])):
        nums = and_list([_("{number}s", number=n) for n in numbers])
        parts.append(_("the {numbers} are worth {points}", numbers=nums, points=pts) if not parts else
                     _("the {numbers} {points}", numbers=nums, points=pts))
    if rules.bird:
        parts.append(_("the {bird} {points}", bird=bird_name(rules.bird_name), points=rules.bird_points))
    if rules.red_one:
        parts.append(_("the Red 1 {points}", points=rules.red_one_points))
    return list_text(parts) if parts else _("no card counts")


def card_points_table(rules: Rules | str | None = None) -> list[tuple[str, int]]:
    """Every counter of the rule set as (card group, points), e.g. [("5s", 5), ("10s", 10), ("Crow", 20)], the
    groups named in the active language."""
    rules = _rules(rules)
    rows = [(_("{number}s", number=n), p) for n, p in sorted(rules.counters)]
    if rules.bird:
        rows.append((bird_name(rules.bird_name), rules.bird_points))
    if rules.red_one:
        rows.append((pgettext("card", "Red 1"), rules.red_one_points))
    return rows


def _trick_text(rules: Rules, leader: int, cards: Sequence[Card]) -> str:
    """The trick as a prompt writes it: "N: R5, E: R9" (seat letters and cards in the active language)."""
    return list_text(pgettext("a card of a trick", "{seat}: {card}", seat=seat_name((leader + i) % 4),
                              card=card_text(rules, c)) for i, c in enumerate(cards))
