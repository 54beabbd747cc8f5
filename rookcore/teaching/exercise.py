"""An exercise, its feedback and how answers are read (rules.md §1–§3): `Exercise`, `Feedback`, `ExerciseError`,
`parse_points`, `parse_card_answer`, and the table of exercise kinds (`ExerciseKind`, `register`): each kind's module
(`legal`, `tricks`, `scoring`, `bidding`, `counting`) registers how its exercises are made, how an answer is read,
what the feedback says and which rule a wrong answer broke.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..cards import Card, CardError
from ..i18n import N_, _
from ..records import quoted
from ..rules import RED_ONE, Rules
from .wording import _cap, _name


KINDS: tuple[str, ...] = ("which_cards_legal", "trick_winner", "score_hand", "what_to_bid", "count_points")


class ExerciseError(ValueError):
    """An unknown exercise kind, or an answer that cannot be read (the message says what is expected)."""


@dataclass(frozen=True)
class Feedback:
    """The result of `Exercise.check` (rules.md §1–§3: the rule each kind of exercise is about).

    Fields:
      correct (bool): the answer is among the accepted ones.
      message (str): the whole feedback in plain words, starting "Right:" or "Wrong:"; a wrong answer's message
        names the right answer (as it always has).
      rule (str): for a wrong answer, the rule it broke in plain words, without the right answer (a learner can
        try again after reading it); "" for a right answer. See `Exercise.rule_broken`.
      solution (str): the right answer with the rule behind it (`Exercise.explain`), for a teacher to show after
        a second wrong try or on request.
    Feedback(correct, message) still builds one (rule and solution empty).
    """

    correct: bool
    message: str
    rule: str = ""
    solution: str = ""


@dataclass(frozen=True)
class Exercise:
    """One exercise drawn from a seeded deal (see the module doc for the kinds).

    kind, seed, rules: how it was made; prompt: the question in plain words.
    Position (fields not used by a kind are empty / None):
      seat: the seat asked about (0..3 = N E S W); hand: that seat's cards (sorted);
      trick: cards of the trick in play order; trick_leader: the seat that led it; trump: colour letter;
      cards: the cards to count (count_points); bid, declarer: the contract (score_hand);
      captured: points each team took, (N–S, E–W), nest and bonus included; tricks_won: (N–S, E–W);
      nest_points / last_trick: counters in the nest and the seat that took the last trick;
      calls: (seat, "pass" | amount) before the asked seat's call (what_to_bid).
    answer: the canonical right answer; accepted: every answer counted right (a frozenset);
    choices: what the answer controls should offer (cards, seats, bids ...);
    facts: extra engine facts used in the feedback (e.g. the hand estimate).
    """

    kind: str
    seed: int
    rules: Rules
    prompt: str
    answer: Any
    accepted: frozenset
    seat: int | None = None
    hand: tuple[Card, ...] = ()
    trick: tuple[Card, ...] = ()
    trick_leader: int | None = None
    trump: str | None = None
    cards: tuple[Card, ...] = ()
    bid: int | None = None
    declarer: int | None = None
    captured: tuple[int, int] | None = None
    tricks_won: tuple[int, int] | None = None
    nest_points: int | None = None
    last_trick: int | None = None
    calls: tuple = ()
    choices: tuple = ()
    facts: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def trick_seats(self) -> list[tuple[int, Card]]:
        """The trick as (seat, card) pairs in play order."""
        if self.trick_leader is None:
            return []
        return [((self.trick_leader + i) % 4, c) for i, c in enumerate(self.trick)]

    def normalize(self, answer: Any) -> Any:
        """Read ``answer`` into this kind's answer type (card set, seat index, (NS, EW), bid/"pass", int).

        Cards may be Cards, ids or strings ("R9", "Crow", "Red 1"); seats "W"/"West"/3; bids 85, "85",
        "pass", a `Bid` or `PASS`. Raises ExerciseError if the answer cannot be read.
        """
        return _KINDS[self.kind].normalize(self, answer)

    def is_correct(self, answer: Any) -> bool:
        """True if ``answer`` (any form `normalize` reads) is among the accepted answers."""
        try:
            return self.normalize(answer) in self.accepted
        except ExerciseError:
            return False

    def missing(self, answer: Any) -> str:
        """What to enter before ``answer`` can be graded ("" when it can): a seat to pick (trick_winner, ``answer``
        None), or cards to select (which_cards_legal, an empty selection: a seat always has a legal card,
        rules.md §1.5). Such an answer is no answer, neither right nor wrong. Raises nothing."""
        if self.kind == "trick_winner" and answer is None:
            return _("Pick a seat first: tap the card that wins the trick, then press Check.")
        if self.kind == "which_cards_legal" and not answer:
            return _("Select the cards that may be played first (at least one): tap each of them, then press Check.")
        return ""

    @property
    def points_hint(self) -> str:
        """What to type in this exercise's number box(es): `POINTS_HINT` for a hand's score (it may be negative),
        `COUNT_HINT` for points counted (never negative); "" for kinds answered without typing a number."""
        hint = {"score_hand": POINTS_HINT, "count_points": COUNT_HINT}.get(self.kind)
        return _(hint) if hint else ""

    def read_points(self, text: Any, where: str = "") -> int:
        """Read a number of points typed for this exercise (`parse_points`; ``where`` names the box): a score
        (score_hand) may be negative, points counted (count_points) may not. Raises ExerciseError saying what to
        type (`points_hint`), for a negative count that points captured are never negative."""
        return parse_points(text, where, negative=self.kind != "count_points")

    def check(self, answer: Any) -> Feedback:
        """Check ``answer`` (any form `normalize` reads) against the accepted answers (rules.md §1–§3).

        Args:
          answer: the learner's answer.
        Returns:
          a `Feedback`: ``message`` starts "Right:" / "Wrong:" and explains the rule behind the right answer (a wrong
          answer's message names the right one); for a wrong answer ``rule`` is the rule it broke without the right
          answer (`rule_broken`), and ``solution`` is always the right answer with its rule (`explain`). An answer
          that cannot be read is wrong, its ``rule`` saying what is expected.
        Raises:
          nothing.
        """
        solution = self.explain()
        try:
            value = self.normalize(answer)
        except ExerciseError as e:
            return Feedback(False, _("Wrong: {problem}. {solution}", problem=e, solution=solution), f"{_cap(str(e))}.",
                            solution)
        ok = value in self.accepted
        said = _KINDS[self.kind].said(self, value, ok)
        message = _("Right: {explanation}", explanation=said) if ok else _("Wrong: {explanation}", explanation=said)
        return Feedback(ok, message, "" if ok else _KINDS[self.kind].rule(self, value), solution)

    def rule_broken(self, answer: Any) -> str:
        """The rule ``answer`` broke, in plain words, without giving the right answer away (rules.md §1.5 following
        suit, §1.5/§3 who wins a trick, §1.7 scoring, §1.2 bidding, §2 counters): what a teacher says before letting
        the learner try again.

        Per kind: which picked cards may not be played and why, or how many playable cards were left out and the
        rule that allows them (which_cards_legal); why the picked seat's card cannot win (trick_winner); which
        team's score is off and the scoring rule for it (score_hand); whether the bid is too high, too low or a
        pass gives the hand away (what_to_bid); whether the count is too high or too low and what the counters are
        worth (count_points). Never names the whole set of legal cards, the winner, the right scores, an accepted
        bid or the right count.

        Args:
          answer: the learner's answer, in any form `normalize` reads.
        Returns:
          the rule as one or more sentences ending in "."; "" if ``answer`` is right.
        Raises:
          ExerciseError: ``answer`` cannot be read (the message says what is expected).
        """
        value = self.normalize(answer)
        return "" if value in self.accepted else _KINDS[self.kind].rule(self, value)

    def explain(self) -> str:
        """The right answer with the rule behind it, alone (no "Right:"/"Wrong:" prefix): the solution a teacher
        shows (rules.md §1–§3). Returns a str; raises nothing."""
        return _KINDS[self.kind].said(self, None, True)

    def card_name(self, card: Card) -> str:
        """Name of ``card`` in this rule set for feedback: "R9", "the Crow", "the Red 1"."""
        return _name(self.rules, card)


POINTS_HINT = N_("type a whole number of points, e.g. 85 or -120")
"""What to type for a hand's score, which may be negative (a set declarer scores minus the bid, rules.md §1.7)."""
COUNT_HINT = N_("type a whole number of points, e.g. 85")
"""What to type for points captured or counted: never negative (counters are worth 0 or more, rules.md §2)."""
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # "−" (minus) and "–" (en dash) typed for "-"


def parse_points(text: Any, where: str = "", negative: bool = True) -> int:
    """Read a number of points as a learner types it: a whole number, optionally signed ("85", "-120", " +5 ";
    a typographic minus "−" or dash "–" counts as "-"). An int is taken as it is.

    ``where`` names the place it was typed for the message (e.g. "the N–S box"). ``negative``: whether the number
    may be below 0 (a hand's score may; points captured or counted may not, rules.md §2). Raises ExerciseError,
    whose message ends with the hint of what to type (`POINTS_HINT`, or `COUNT_HINT` when ``negative`` is False),
    for empty text, anything that is not a whole number ("abc", "12.5", "1e3", "85 points"), a bool or any other
    type, and (``negative`` False) a number below 0, saying that points captured are never negative: nothing is
    guessed or rounded.
    """
    hint = _(POINTS_HINT if negative else COUNT_HINT)
    if isinstance(text, int) and not isinstance(text, bool):
        value, shown = text, str(text)
    else:
        t = text.strip().translate(_MINUS_SIGNS) if isinstance(text, str) else None
        if t == "":
            raise ExerciseError(_cap(_("{where} is empty: {hint}", where=where, hint=hint)) if where else
                                _("nothing was typed: {hint}", hint=hint))
        shown = quoted(text.strip()) if isinstance(text, str) else repr(text)
        if t is None or not _WHOLE_NUMBER.fullmatch(t):
            raise ExerciseError(_("{value} in {where} is not a whole number: {hint}", value=shown, where=where,
                                  hint=hint) if where else
                                _("{value} is not a whole number: {hint}", value=shown, hint=hint))
        if len(t) > 12:  # int() refuses more than 4,300 digits; no answer here needs a dozen
            raise ExerciseError(_("{value} in {where} has more digits than any number of points here: {hint}",
                                  value=shown, where=where, hint=hint) if where else
                                _("{value} has more digits than any number of points here: {hint}", value=shown,
                                  hint=hint))
        value = int(t)
    if value < 0 and not negative:
        raise ExerciseError(_("{value} in {where} is below zero, but points captured are never negative (every card "
                              "is worth 0 points or more): {hint}", value=shown, where=where, hint=hint) if where else
                            _("{value} is below zero, but points captured are never negative (every card is worth 0 "
                              "points or more): {hint}", value=shown, hint=hint))
    return value


def parse_card_answer(rules: Rules, text: Any) -> Card:
    """Read one card given as a Card, an int id or text ("R9", "Crow", "Rook", "Red 1"). Raises ExerciseError."""
    if isinstance(text, Card):
        return text
    if isinstance(text, int):
        try:
            return Card.from_id(text)
        except CardError as e:
            raise ExerciseError(str(e)) from e
    if isinstance(text, str):
        t = text.strip().upper().replace("THE ", "")
        if t in ("RED 1", "RED1", "RED ONE"):
            return RED_ONE
        try:
            return Card.parse(t)
        except CardError as e:
            raise ExerciseError(str(e)) from e
    raise ExerciseError(_("{value} is not a card", value=repr(text)))


@dataclass(frozen=True)
class ExerciseKind:
    """How one kind of exercise (one of `KINDS`) is made and graded; each kind's module registers one (`register`).

    Fields:
      name (str): the kind, one of `KINDS`.
      make: ``make(rules, seed)`` → the `Exercise` of this kind for ``rules`` (a Rules, a variant name or None) and
        ``seed`` (an int): same arguments, same exercise.
      normalize: ``normalize(exercise, answer)`` → the answer read into the kind's answer type; raises
        ExerciseError when it cannot be read (`Exercise.normalize`).
      said: ``said(exercise, value, ok)`` → the explanation after "Right:" / "Wrong:" for the read answer ``value``
        (None: the solution alone) that is right (``ok``) or not (`Exercise.check`, `Exercise.explain`).
      rule: ``rule(exercise, value)`` → the rule the wrong answer ``value`` broke, without the right answer
        (`Exercise.rule_broken`).
    """

    name: str
    make: Callable[..., Exercise]
    normalize: Callable[[Exercise, Any], Any]
    said: Callable[[Exercise, Any, bool], str]
    rule: Callable[[Exercise, Any], str]


_KINDS: dict[str, ExerciseKind] = {}


def register(kind: ExerciseKind) -> ExerciseKind:
    """Make ``kind`` the way its exercises are made and graded (``kind.name`` one of `KINDS`); returns it. Raises
    ExerciseError for a name that is not one of `KINDS`."""
    if kind.name not in KINDS:
        raise ExerciseError(f"unknown exercise kind {kind.name!r} (known: {', '.join(KINDS)})")
    _KINDS[kind.name] = kind
    return kind


def exercise_kind(name: str) -> ExerciseKind:
    """The registered `ExerciseKind` called ``name``. Raises ExerciseError for an unknown kind."""
    if name not in _KINDS:
        raise ExerciseError(f"unknown exercise kind {name!r} (known: {', '.join(KINDS)})")
    return _KINDS[name]
