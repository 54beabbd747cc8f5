"""Rule sets as values: the frozen `Rules` dataclass and the seven rule sets (rules.md §2, §3).

A rule set is data. The engine reads these fields and never branches on the
rule set's name. Options (rules.md "choice" points, `target`, "no bird") are
applied with `Rules.with_options`, which returns a new value.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping

from .cards import BIRD_ID, COLOURS, Card
from .i18n import NP_, _, ngettext, pgettext
from .words import bird_name, list_text

BIRD_TOP = "top"            # above every trump (Tournament, Buckeye)
BIRD_BOTTOM = "bottom"      # below every trump (CrowsNest, 1-High)
BIRD_BELOW_RED_ONE = "below-red-1"  # second trump, under the Red 1 (The Red 1)

FIRST_LEAD_DEALER = "left-of-dealer"
FIRST_LEAD_DECLARER = "left-of-declarer"

MAKE_BID = "bid"
MAKE_CAPTURED = "captured"

RED_ONE = Card.of("R", 1)


class RulesError(ValueError):
    """Raised for an unknown rule set name or an unknown / invalid option."""


@dataclass(frozen=True)
class Rules:
    """One rule set of the Rook family (rules.md §2), immutable.

    Fields (units: points, cards):
      variant: record name, e.g. ``"crowsnest"``; title: display name.
      numbers: the numbers of each colour, e.g. (5, ..., 14).
      order: numbers of a colour from highest to lowest rank, e.g. (14, ..., 5).
      bird: the bird is in the deck; bird_name: "Crow" or "Rook".
      bird_place: BIRD_TOP / BIRD_BOTTOM / BIRD_BELOW_RED_ONE among trumps.
      bird_any_time: the bird may be played on any trick (§3).
      red_one: the R1 is the top trump and never a red card (The Red 1).
      red_one_any_time: the Red 1 has the bird's privilege (choice; default False).
      hand_size, nest_size: cards per seat and in the nest.
      counters: (number, points) pairs for every colour, e.g. ((5, 5), (10, 10), (14, 10)).
      bird_points, red_one_points: counter values of the bird and the Red 1.
      majority_bonus: points to the team taking more tricks (0 = none).
      bid_min, bid_step, bid_max: the bid range.
      make_score: MAKE_BID (a made bid scores the bid) or MAKE_CAPTURED.
      target: game target (300).
      first_lead: FIRST_LEAD_DEALER (default) or FIRST_LEAD_DECLARER (choice, §1.5).
      bird_optional: the rule set may be played without the bird (option ``bird``; §2: CrowsNest and Tournament).
      options: the options applied to reach this value (for records).
    """

    variant: str
    title: str
    numbers: tuple[int, ...]
    order: tuple[int, ...]
    bird: bool
    bird_name: str
    bird_place: str
    bird_any_time: bool
    red_one: bool
    red_one_any_time: bool
    hand_size: int
    nest_size: int
    counters: tuple[tuple[int, int], ...]
    bird_points: int
    red_one_points: int
    majority_bonus: int
    bid_min: int
    bid_step: int
    bid_max: int
    make_score: str
    target: int = 300
    first_lead: str = FIRST_LEAD_DEALER
    bird_optional: bool = False
    options: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    option_choices: Mapping[str, tuple] = field(default_factory=dict, compare=False, hash=False, repr=False)

    # ----- derived, cached -------------------------------------------------
    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this rule set's deck (rules.md §2 "cards"), colour by colour."""
        cards = [Card.of(c, n) for c in COLOURS for n in self.numbers]
        if self.red_one:
            cards.append(RED_ONE)
        if self.bird:
            cards.append(Card.bird())
        return tuple(cards)

    @cached_property
    def deck_set(self) -> frozenset[Card]:
        """The deck as a frozenset of Cards."""
        return frozenset(self.deck)

    @cached_property
    def card_points(self) -> dict[Card, int]:
        """Counter value in points of every card in the deck (0 for non-counters)."""
        table = dict(self.counters)
        points = {c: table.get(c.number, 0) for c in self.deck if not c.is_bird}
        if self.bird:
            points[Card.bird()] = self.bird_points
        if self.red_one:
            points[RED_ONE] = self.red_one_points
        return points

    def points_of(self, cards) -> int:
        """Counter points (rules.md §2 "counters") in ``cards``, an iterable of Cards of this deck."""
        points = self.card_points
        return sum(points[c] for c in cards)

    @cached_property
    def counter_total(self) -> int:
        """Points of all counters in the deck (without the majority bonus)."""
        return sum(self.card_points.values())

    @property
    def points_per_hand(self) -> int:
        """Points the two teams capture together in a hand with a majority bonus paid (§2)."""
        return self.counter_total + self.majority_bonus

    @property
    def tricks_per_hand(self) -> int:
        """Number of tricks in a hand (= hand_size)."""
        return self.hand_size

    def is_trump_card(self, card: Card) -> bool:
        """True for cards that are trump whatever colour is named: the bird, and the Red 1 (§1.4)."""
        return card == BIRD_ID or (self.red_one and card == RED_ONE)

    def has_privilege(self, card: Card) -> bool:
        """True if ``card`` may be played on any trick (§3 "plays any time")."""
        if card == BIRD_ID:
            return self.bird and self.bird_any_time
        return self.red_one and self.red_one_any_time and card == RED_ONE

    def trump_order(self, trump: str) -> tuple[Card, ...]:
        """All trump cards for trump colour ``trump``, highest first (§2 order, §3 bird place)."""
        colour = [Card.of(trump, n) for n in self.order if not (self.red_one and trump == "R" and n == 1)]
        top: list[Card] = [RED_ONE] if self.red_one else []
        bird = [Card.bird()] if self.bird else []
        if self.bird_place == BIRD_BOTTOM:
            return tuple(top + colour + bird)
        return tuple(top + bird + colour)

    def card_name(self, card: Card) -> str:
        """Record notation of ``card`` in this rule set (the bird as CROW or ROOK)."""
        return card.notation(self.bird_name)

    def display_name(self, card: Card) -> str:
        """Short name of ``card`` for prose and the page: ``"R14"``, ``"Crow"`` / ``"Rook"``, or ``"Red 1"`` (The
        Red 1's top trump). Raises nothing."""
        if self.red_one and card == RED_ONE:
            return "Red 1"
        return card.display(self.bird_name)

    def same_game(self, other: "Rules") -> bool:
        """Whether ``other`` is this rule set with the same options (``==`` leaves the recorded ``options`` out,
        which is how a choice made, e.g. "game to 500", shows). Returns bool; raises nothing."""
        return self == other and dict(self.options) == dict(other.options)

    def parse_card(self, text: str) -> Card:
        """Parse record notation and check the card is in this deck; raises CardError / RulesError."""
        card = Card.parse(text)
        if card not in self.deck_set:
            raise RulesError(f"{text} is not a card of {self.title}")
        return card

    def legal_bids(self, current: int | None) -> range:
        """Bids allowed after ``current`` (None before the first bid), in points (§1.2)."""
        low = self.bid_min if current is None else current + self.bid_step
        return range(low, self.bid_max + 1, self.bid_step)

    def with_options(self, options: Mapping[str, Any] | None) -> "Rules":
        """Return a copy with ``options`` applied (record "options"; rules.md choices).

        Known options: ``target`` (int > 0), ``bird`` (bool; only where `bird_optional`),
        ``first_lead`` ("left-of-dealer" | "left-of-declarer"), and the rule set's own
        choices listed in ``option_choices`` (e.g. ``bird_any_time``, ``red_one_any_time``,
        ``bid_min``). Raises RulesError naming an unknown option or a bad value.
        """
        if not options:
            return self
        if not isinstance(options, Mapping):
            raise RulesError("options must be an object")
        changes: dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            changes.update(self._option_change(name, value))
        merged = {**self.options, **{k.replace("-", "_"): v for k, v in options.items()}}
        return dataclasses.replace(self, **changes, options=merged)

    def _option_change(self, name: str, value: Any) -> dict[str, Any]:
        if name == "target":
            if type(value) is not int or value <= 0:
                raise RulesError(f"option target must be a positive integer, got {value!r}")
            return {"target": value}
        if name == "first_lead":
            if value not in (FIRST_LEAD_DEALER, FIRST_LEAD_DECLARER):
                raise RulesError(f"option first_lead must be {FIRST_LEAD_DEALER!r} or "
                                 f"{FIRST_LEAD_DECLARER!r}, got {value!r}")
            return {"first_lead": value}
        if name == "bird":
            return self._bird_option(value)
        if name in self.option_choices:
            allowed = self.option_choices[name]
            if value not in allowed or type(value) is not type(allowed[0]):
                raise RulesError(f"option {name} of {self.title} must be one of {list(allowed)}, got {value!r}")
            return {name: value}
        known = ["target", "first_lead"] + (["bird"] if self.bird_optional else []) + list(self.option_choices)
        raise RulesError(f"unknown option {name!r} for {self.title} (known: {', '.join(known)})")

    def _bird_option(self, value: Any) -> dict[str, Any]:
        if type(value) is not bool:
            raise RulesError(f"option bird must be true or false, got {value!r}")
        if not self.bird_optional:
            optional = " and ".join(r.title for r in VARIANTS.values() if r.bird_optional)
            raise RulesError(f"option bird does not apply to {self.title}: only {optional} may be played "
                             "without the bird")
        base = VARIANTS[self.variant]
        if value == base.bird:
            return {"bird": base.bird, "nest_size": base.nest_size, "bid_max": base.bid_max}
        # Without the bird: one card fewer in the nest and its 20 points off the top bid (§2 options).
        return {"bird": False, "nest_size": base.nest_size - 1, "bid_max": base.bid_max - base.bird_points}

    def describe(self) -> list[tuple[str, str]]:
        """Plain-language facts of this rule set as (label, value) rows, for the Rules tab and AI reasoning.

        In the active language (`rookcore.i18n`; English by default), each row one whole message. Returns the
        rows; raises nothing."""
        parts = [_("{number}s = {points}", number=n, points=p) for n, p in sorted(self.counters, reverse=True)]
        if self.bird:
            parts.append(_("the {bird} = {points}", bird=bird_name(self.bird_name), points=self.bird_points))
        if self.red_one:
            parts.append(_("the Red 1 = {points}", points=self.red_one_points))
        rows = [
            (_("Deck"), self._deck_text()),
            (_("Deal"), ngettext("{hand} card to each seat, {nest} to the nest",
                                 "{hand} cards to each seat, {nest} to the nest", self.hand_size,
                                 hand=self.hand_size, nest=self.nest_size) if self.nest_size else
             ngettext("{hand} card to each seat, no nest", "{hand} cards to each seat, no nest", self.hand_size,
                      hand=self.hand_size)),
            (_("Rank in a colour"), _("high to low: {order}", order=list_text(str(n) for n in self.order))),
            (_("Counters"), list_text(parts)),
            (_("Points per hand"), self._points_text()),
            (_("Bids"), _("{low} to {high} in steps of {step}", low=self.bid_min, high=self.bid_max,
                          step=self.bid_step)),
            (_("Made bid scores"), _("exactly the bid") if self.make_score == MAKE_BID
             else _("all the points captured")),
            (_("Game"), _("first team to {target}", target=self.target)),
        ]
        if self.bird:
            label = _("The Crow") if self.bird_name == "Crow" else _("The Rook")
            rows.insert(3, (label, _BIRD_PLACE[self.bird_place, self.bird_any_time]()))
        if self.red_one:
            rows.insert(3, (pgettext("card", "The Red 1"),
                            _("the top trump, never a red card, may be played on any trick") if self.red_one_any_time
                            else _("the top trump, never a red card")))
        if self.majority_bonus:
            rows.append((_("Majority bonus"), _("{bonus} points to the team taking more tricks",
                                                bonus=self.majority_bonus)))
        return rows

    def _deck_text(self) -> str:
        """The Deck row: how many cards, the numbers of a colour, the Red 1 and the bird (one whole sentence)."""
        n, numbers = len(self.deck), _number_ranges(self.numbers)
        bird = bird_name(self.bird_name)
        if self.red_one and self.bird:
            return ngettext("{count} card: numbers {numbers} in four colours, the Red 1 and the {bird}",
                            "{count} cards: numbers {numbers} in four colours, the Red 1 and the {bird}", n,
                            count=n, numbers=numbers, bird=bird)
        if self.red_one:
            return ngettext("{count} card: numbers {numbers} in four colours, the Red 1",
                            "{count} cards: numbers {numbers} in four colours, the Red 1", n,
                            count=n, numbers=numbers)
        if self.bird:
            return ngettext("{count} card: numbers {numbers} in four colours and the {bird}",
                            "{count} cards: numbers {numbers} in four colours and the {bird}", n,
                            count=n, numbers=numbers, bird=bird)
        return ngettext("{count} card: numbers {numbers} in four colours",
                        "{count} cards: numbers {numbers} in four colours", n, count=n, numbers=numbers)

    def _points_text(self) -> str:
        """The Points per hand row: the points, and where a majority bonus and an even number of tricks let the
        tricks split equally (no bonus paid), the points then (rules.md §1.6, §2: Partnership 120, 100 on a 7–7
        split). Returns one string; raises nothing."""
        if not self.majority_bonus or self.hand_size % 2:
            return str(self.points_per_hand)
        half = self.hand_size // 2
        return _("{points} ({split} on a {half}–{half} split of the tricks)", points=self.points_per_hand,
                 split=self.points_per_hand - self.majority_bonus, half=half)

    def _repr_html_(self) -> str:
        """HTML table of `describe()` for notebooks."""
        body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in self.describe())
        return f"<table><caption>{self.title}</caption>{body}</table>"


_BIRD_PLACE = {
    (BIRD_TOP, False): lambda: _("the highest trump"),
    (BIRD_TOP, True): lambda: _("the highest trump, may be played on any trick"),
    (BIRD_BOTTOM, False): lambda: _("the lowest trump"),
    (BIRD_BOTTOM, True): lambda: _("the lowest trump, may be played on any trick"),
    (BIRD_BELOW_RED_ONE, False): lambda: _("the second trump, under the Red 1"),
    (BIRD_BELOW_RED_ONE, True): lambda: _("the second trump, under the Red 1, may be played on any trick"),
}
"""The bird's row of `Rules.describe`: (bird_place, bird_any_time) → its whole sentence in the active language."""


def _number_ranges(numbers: tuple[int, ...]) -> str:
    """The numbers of a colour as runs, e.g. (1, 5, 6, …, 14) → "1, 5–14" (rules.md §2, "ranks per colour")."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _colour_numbers(low: int, high: int, ones: bool = False) -> tuple[int, ...]:
    return ((1,) if ones else ()) + tuple(range(low, high + 1))


_STD_COUNTERS = ((5, 5), (10, 10), (14, 10))
_ONE_COUNTERS = ((1, 15), (5, 5), (10, 10), (14, 10))

CROWSNEST = Rules(
    variant="crowsnest", title=NP_("rule set", "CrowsNest"), numbers=_colour_numbers(5, 14),
    order=tuple(range(14, 4, -1)),
    bird=True, bird_name="Crow", bird_place=BIRD_BOTTOM, bird_any_time=True, red_one=False,
    red_one_any_time=False, hand_size=9, nest_size=5, counters=_STD_COUNTERS, bird_points=20,
    red_one_points=0, majority_bonus=0, bid_min=70, bid_step=5, bid_max=120, make_score=MAKE_BID,
    bird_optional=True)

TOURNAMENT = dataclasses.replace(
    CROWSNEST, variant="tournament", title=NP_("rule set", "Tournament Rook (Kentucky Discard)"), bird_name="Rook",
    bird_place=BIRD_TOP, make_score=MAKE_CAPTURED)

PARTNERSHIP = dataclasses.replace(
    TOURNAMENT, variant="partnership", title=NP_("rule set", "Partnership Rook"), numbers=_colour_numbers(1, 14),
    order=tuple(range(14, 0, -1)), bird=False, bird_points=0, hand_size=14, nest_size=0,
    majority_bonus=20, bird_optional=False)

ONE_HIGH = dataclasses.replace(
    PARTNERSHIP, variant="1-high-partnership", title=NP_("rule set", "1-High Partnership Rook"),
    order=(1,) + tuple(range(14, 1, -1)), bird=True, bird_points=20, bird_place=BIRD_BOTTOM,
    bird_any_time=False, hand_size=13, nest_size=5, counters=_ONE_COUNTERS, bid_min=100, bid_max=200,
    option_choices={"bird_any_time": (False, True)})

RED_ONE_RULES = dataclasses.replace(
    TOURNAMENT, variant="red-1", title=NP_("rule set", "The Red 1"), bird_place=BIRD_BELOW_RED_ONE, red_one=True,
    red_one_points=30, nest_size=6, bid_max=150, bird_optional=False,
    option_choices={"red_one_any_time": (False, True)})

BUCKEYE = dataclasses.replace(
    TOURNAMENT, variant="buckeye", title=NP_("rule set", "Buckeye Rook"), numbers=_colour_numbers(5, 14, ones=True),
    order=(1,) + tuple(range(14, 4, -1)), counters=_ONE_COUNTERS, hand_size=10, bid_min=100, bid_max=180,
    bird_optional=False, option_choices={"bid_min": (100, 70)})

DIXIE = dataclasses.replace(
    PARTNERSHIP, variant="dixie", title=NP_("rule set", "Dixie Rook"), counters=((5, 5), (10, 10), (13, 10)),
    hand_size=13, nest_size=4)

VARIANTS: dict[str, Rules] = {r.variant: r for r in
                              (CROWSNEST, TOURNAMENT, PARTNERSHIP, ONE_HIGH, RED_ONE_RULES, BUCKEYE, DIXIE)}
ALIASES: dict[str, str] = {"kentucky-discard": "tournament"}


def get_rules(variant: str = "crowsnest", options: Mapping[str, Any] | None = None) -> Rules:
    """Return the rule set named ``variant`` (record names or alias, case-insensitive) with ``options`` applied.

    Raises RulesError for an unknown variant (listing the known ones) or a bad option.
    """
    if not isinstance(variant, str):
        raise RulesError(f"variant must be a string, got {variant!r}")
    key = ALIASES.get(variant.lower(), variant.lower())
    if key not in VARIANTS:
        raise RulesError(f"unknown variant {variant!r} (known: {', '.join(list(VARIANTS) + list(ALIASES))})")
    return VARIANTS[key].with_options(options)
