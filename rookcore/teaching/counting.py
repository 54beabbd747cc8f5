"""The count_points exercise: "How many points of counters are in these cards?" (rules.md §2 counters). Answer: an
int (points, `Rules.card_points`).
"""
from __future__ import annotations

from typing import Any, Iterable

from ..cards import Card
from ..i18n import _
from ..rules import Rules
from ..words import rules_title
from .deals import _rng, _rules
from .exercise import Exercise, ExerciseKind, register
from .wording import _name, counters_text


def count_reason(rules: Rules, cards: Iterable[Card]) -> str:
    """The counters among ``cards`` with their values and total (rules.md §2 "counters")."""
    pts = rules.card_points
    counters = [c for c in sorted(cards) if pts[c]]
    total = sum(pts[c] for c in counters)
    listed = " + ".join(f"{_name(rules, c)} {pts[c]}" for c in counters) or _("no counters")
    return _("In {rules} {counters}; every other card is worth nothing. Here: {listed} = {total} points.",
             rules=rules_title(rules), counters=counters_text(rules), listed=listed, total=total)


def count_points(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "How many points are in these cards?" (rules.md §2 counters). Answer: an int (points)."""
    rules = _rules(rules)
    rng = _rng("count_points", seed, rules)
    deck = list(rules.deck)
    size = rng.choice([4, 5, 6, 7, 8])
    cards: list[Card] = []
    for _attempt in range(50):
        cards = sorted(rng.sample(deck, size))
        if sum(1 for c in cards if rules.card_points[c]) >= 2:
            break
    total = rules.points_of(cards)
    prompt = (_("These {count} cards are a trick. How many points of counters do they hold in {rules}?", count=size,
                rules=rules_title(rules)) if size == 4 else
              _("These {count} cards are a pile of captured cards. How many points of counters do they hold in "
                "{rules}?", count=size, rules=rules_title(rules)))
    return Exercise("count_points", seed, rules, prompt, total, frozenset([total]), cards=tuple(cards))


def _norm_int(ex: Exercise, answer: Any) -> int:
    return ex.read_points(answer)


def _check_count(ex: Exercise, value: int | None, ok: bool) -> str:
    reason = count_reason(ex.rules, ex.cards)
    if ok or value is None:
        return reason
    return _("you counted {value}, but these cards hold {points}. {reason}", value=value, points=ex.answer,
             reason=reason)


def _count_rule(ex: Exercise, value: int) -> str:
    """Whether the count ``value`` is too high or too low, and what the counters are worth (rules.md §2); never the
    right count."""
    r = ex.rules
    words = dict(value=value, rules=rules_title(r), counters=counters_text(r))
    if value > ex.answer:
        return _("{value} is more than these cards hold: in {rules} {counters}; every other card is worth nothing. "
                 "Add up only the counters among them.", **words)
    return _("{value} is less than these cards hold: in {rules} {counters}; every other card is worth nothing. Add "
             "up only the counters among them.", **words)


KIND = register(ExerciseKind("count_points", count_points, _norm_int, _check_count, _count_rule))
