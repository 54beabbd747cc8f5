"""Teaching exercises for the tutorial, generated and checked by the engine (rules.md §1–§3). No UI imports.

Every exercise comes from a seeded deal: ``make_exercise(kind, rules, seed)`` gives the same
exercise for the same (kind, rules, seed) and a fresh one for another seed. An `Exercise` holds
the position needed to draw it (seat, hand, trick so far, trump, bid, captured points ...) and the
set of accepted answers; ``exercise.check(answer)`` returns a `Feedback` whose message starts with
"Right:" or "Wrong:" and explains the rule behind the answer.

Kinds (``KINDS``):

=====================  ==================================================  ===============================
kind                   question                                            answer
=====================  ==================================================  ===============================
``which_cards_legal``  which cards may <seat> play on this trick?          a set of cards
``trick_winner``       who wins this trick?                                a seat ("N".."W" or 0..3)
``score_hand``         score this hand (bid, points each team captured)    (N–S, E–W) hand score
``what_to_bid``        how high would you bid with this hand?              a bid amount or "pass"
``count_points``       how many points of counters are in these cards?     an int (points)
=====================  ==================================================  ===============================

All truths come from the engine: `HandState.legal_cards`, `trick_tables`/`trick_winner`,
`HandState.score`, `Rules.card_points`, and (for bids) the rule-based AI's hand estimate.
Example helpers (`example_deal`, `example_trick`, `example_legal`, `example_hand`, `ai_walkthrough`) give the
live examples the lessons draw; each has its own seeded stream, so a worked example is not an exercise too.
`worked_trick` decides a given trick (rules.md §4's worked examples); `what_to_bid_with` grades a given hand.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .actions import PASS, Bid, Discard, NameTrump, Pass, Play, bid as make_bid
from .cards import COLOUR_NAMES, COLOURS, Card, CardError
# SEATS, TEAM_NAMES: the English names, kept importable from here as before
from .hand import SEATS, TEAM_NAMES, HandState, Phase, seat_index, trick_tables, trick_winner  # noqa: F401
from . import i18n
from .i18n import N_, _, ngettext, pgettext
from .records import quoted
from .rules import BIRD_BELOW_RED_ONE, BIRD_BOTTOM, BIRD_TOP, MAKE_BID, RED_ONE, Rules, get_rules
from .words import bird_name, card_text, colour_name, list_text, rules_title, seat_name, team_name

KINDS: tuple[str, ...] = ("which_cards_legal", "trick_winner", "score_hand", "what_to_bid", "count_points")
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
        return _NORMALIZE[self.kind](self, answer)

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
        said = _CHECKERS[self.kind](self, value, ok)
        message = _("Right: {explanation}", explanation=said) if ok else _("Wrong: {explanation}", explanation=said)
        return Feedback(ok, message, "" if ok else _RULES[self.kind](self, value), solution)

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
        return "" if value in self.accepted else _RULES[self.kind](self, value)

    def explain(self) -> str:
        """The right answer with the rule behind it, alone (no "Right:"/"Wrong:" prefix): the solution a teacher
        shows (rules.md §1–§3). Returns a str; raises nothing."""
        return _CHECKERS[self.kind](self, None, True)

    def card_name(self, card: Card) -> str:
        """Name of ``card`` in this rule set for feedback: "R9", "the Crow", "the Red 1"."""
        return _name(self.rules, card)


# --------------------------------------------------------------------------- small helpers
def _rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return get_rules()
    if isinstance(rules, str):
        return get_rules(rules)
    return rules


def _rng(kind: str, seed: int, rules: Rules | None = None) -> random.Random:
    variant = rules.variant if rules is not None else ""
    return random.Random(f"rook-teaching/{kind}/{variant}/{int(seed)}")


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


# --------------------------------------------------------------------------- playing hands for positions
def _auction(state: HandState, declarer_k: int, amount: int) -> None:
    """Callers before the ``declarer_k``-th pass, that seat bids ``amount``, the rest pass (rules.md §1.2)."""
    for _attempt in range(declarer_k):
        state.apply(PASS)
    state.apply(make_bid(amount))
    while state.phase is Phase.AUCTION:
        state.apply(PASS)


def _longest_colour(rules: Rules, hand: Iterable[Card]) -> str:
    counts = {c: 0 for c in COLOURS}
    for card in hand:
        if not rules.is_trump_card(card):
            counts[card.colour] += 1
    return max(COLOURS, key=lambda c: (counts[c], -COLOURS.index(c)))


def _to_play(state: HandState) -> None:
    """Discard (the nest as dealt) and name the declarer's longest colour as trump."""
    if state.phase is Phase.DISCARD:
        state.apply(Discard(state.dealt_nest))
    if state.phase is Phase.TRUMP:
        state.apply(NameTrump(_longest_colour(state.rules, state.hands[state.declarer])))


def _hand_in_play(rules: Rules, rng: random.Random, amount: int | None = None) -> tuple[HandState, dict]:
    """A seeded deal taken to the play phase; returns (state, how) where ``how`` can rebuild it."""
    how = {"dealer": rng.randrange(4), "deal_seed": rng.getrandbits(32), "declarer_k": rng.randrange(4),
           "play_seed": rng.getrandbits(32)}
    return _rebuild(rules, how, amount if amount is not None else rules.bid_min), how


def _rebuild(rules: Rules, how: dict, amount: int) -> HandState:
    state = HandState.deal(rules, how["dealer"], how["deal_seed"])
    _auction(state, how["declarer_k"], amount)
    _to_play(state)
    return state


def _random_playout(state: HandState, play_seed: int, on_turn=None) -> None:
    """Play random legal cards to the end of the hand; ``on_turn(state)`` is called before each card."""
    prng = random.Random(play_seed)
    while state.phase is Phase.PLAY:
        if on_turn is not None:
            on_turn(state)
        state.apply(Play(prng.choice(state.legal_cards())))


# --------------------------------------------------------------------------- which_cards_legal
def legal_reason(rules: Rules, trump: str, seat: int, hand: Iterable[Card], trick: Sequence[Card]) -> str:
    """Why these cards are the legal ones for ``seat`` holding ``hand`` on ``trick`` (rules.md §1.5, §3), in the
    active language: the rule that decides, then any notes (the bird's and the Red 1's privileges), joined by "; "."""
    hand = sorted(hand)
    who = seat_full_name(seat)
    if not trick:
        return _("{seat} leads this trick, so {seat} may play any card.", seat=who)
    t = trick_tables(rules, trump)
    led = t.suit[trick[0]]
    led_name = colour_name(COLOURS[led])
    led_word = colour_word(COLOURS[led])
    first = trick[0]
    lead_txt = ""
    if rules.is_trump_card(first):
        lead_txt = _("{card} was led, and leading it is leading trump ({colour})", card=_name(rules, first),
                     colour=led_name) + _semi()
    follow = [c for c in hand if t.suit[c] == led]
    special = [c for c in hand if rules.is_trump_card(c)]
    notes = []
    if not follow:
        base = lead_txt + _("{seat} has no {colour} card, so {seat} may play any card (a trump would win unless a "
                            "higher trump is played)", seat=who, colour=led_word)
    elif len(follow) == 1 and led == t.trump and rules.is_trump_card(follow[0]) and follow[0] == BIRD \
            and rules.bird_any_time:
        base = lead_txt + _("trump was led and {bird} is {seat}'s only trump, so {seat} must play it",
                            bird=_name(rules, BIRD), seat=who)
    else:
        shown = list_text(_name(rules, c) for c in follow)
        if led == t.trump:
            base = lead_txt + ngettext(
                "trump ({colour}) was led and {seat} holds a trump ({cards}), so {seat} must play a trump",
                "trump ({colour}) was led and {seat} holds trumps ({cards}), so {seat} must play a trump",
                len(follow), colour=led_word, seat=who, cards=shown)
            if any(rules.is_trump_card(c) for c in follow):
                base += " " + (_("(the {bird} counts as a trump)", bird=bird_name(rules.bird_name)) if BIRD in follow
                               else _("(the Red 1 counts as a trump)"))
        else:
            base = lead_txt + ngettext(
                "{seat} holds a {colour} card ({cards}), so {seat} must follow {colour}",
                "{seat} holds {colour} cards ({cards}), so {seat} must follow {colour}",
                len(follow), colour=led_word, seat=who, cards=shown)
    if follow:
        priv = [c for c in hand if t.suit[c] != led and rules.has_privilege(c)]
        for c in priv:
            notes.append(_("{card} may also be played at any time in {rules}", card=_name(rules, c),
                           rules=rules_title(rules)))
        if BIRD in special and not rules.bird_any_time and t.suit[BIRD] != led:
            notes.append(_("{bird} is an ordinary trump in {rules} ({place}): like any trump it may be played on a "
                           "{colour} lead only by a player with no {colour} card", bird=_name(rules, BIRD),
                           rules=rules_title(rules), place=bird_place_text(rules), colour=led_word))
        if rules.red_one and RED_ONE in hand and trump != "R" and led == COLOURS.index("R") \
                and not rules.red_one_any_time:
            notes.append(_("the Red 1 is a trump, never a red card, so it cannot follow red"))
    return base + "".join(_semi() + n for n in notes) + "."


def _legal_category(rules: Rules, state: HandState) -> str | None:
    if not state.trick or len(state.hands[state.to_act]) < 3:
        return None
    hand = state.hands[state.to_act]
    legal = state.legal_cards()
    led = state.tables.suit[state.trick[0]]
    follow = [c for c in hand if state.tables.suit[c] == led]
    if any(rules.is_trump_card(c) for c in hand) and follow:
        return "bird"
    if not follow:
        return "void"
    if len(legal) < len(hand):
        return "follow"
    return None


LEGAL_KINDS: tuple[str, ...] = ("follow", "bird", "void")


def _sample_legal(rules: Rules, rng: random.Random, wanted: str) -> tuple:
    """A trick in progress of category ``wanted`` ("follow", "bird", "void"; another if none turns up) from
    seeded random hands: (category, seat, hand, leader, trick, trump, legal cards)."""
    found: dict[str, list] = {}
    for _attempt in range(12):
        state, how = _hand_in_play(rules, rng)

        def look(s: HandState) -> None:
            cat = _legal_category(rules, s)
            if cat is not None:
                found.setdefault(cat, []).append((s.to_act, tuple(sorted(s.hands[s.to_act])), s.trick_leader,
                                                  tuple(s.trick), s.trump, tuple(s.legal_cards())))
        _random_playout(state, how["play_seed"], look)
        if wanted in found:
            break
    cat = wanted if wanted in found else next(c for c in ("follow", "void", "bird") if c in found)
    return (cat,) + rng.choice(found[cat])


def which_cards_legal(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "Which cards may <seat> play?" on a trick in progress (rules.md §1.5, §3). Answer: a card set."""
    rules = _rules(rules)
    rng = _rng("which_cards_legal", seed, rules)
    wanted = rng.choice(["follow", "follow", "bird", "void"])
    cat, seat, hand, leader, trick, trump, legal = _sample_legal(rules, rng, wanted)
    prompt = _("{colour} is trump. {leader} led and the trick so far is {trick}. Which cards may {seat} play? Pick "
               "every legal card.", colour=colour_name(trump), leader=seat_full_name(leader),
               trick=_trick_text(rules, leader, trick), seat=seat_full_name(seat))
    answer = frozenset(legal)
    return Exercise("which_cards_legal", seed, rules, prompt, answer, frozenset([answer]), seat=seat, hand=hand,
                    trick=trick, trick_leader=leader, trump=trump, choices=hand, facts={"category": cat})


def _trick_text(rules: Rules, leader: int, cards: Sequence[Card]) -> str:
    """The trick as a prompt writes it: "N: R5, E: R9" (seat letters and cards in the active language)."""
    return list_text(pgettext("a card of a trick", "{seat}: {card}", seat=seat_name((leader + i) % 4),
                              card=card_text(rules, c)) for i, c in enumerate(cards))


def _norm_cards(ex: Exercise, answer: Any) -> frozenset:
    if isinstance(answer, (str, int)):
        answer = [answer] if not (isinstance(answer, str) and "," in answer) else answer.split(",")
    try:
        items = list(answer)
    except TypeError:
        raise ExerciseError(_("{value} is not a set of cards", value=repr(answer))) from None
    return frozenset(parse_card_answer(ex.rules, a) for a in items if not (isinstance(a, str) and not a.strip()))


def _check_legal(ex: Exercise, value: frozenset | None, ok: bool) -> str:
    reason = _cap(legal_reason(ex.rules, ex.trump, ex.seat, ex.hand, ex.trick))
    legal_txt = _("{seat} may play {cards}.", seat=seat_full_name(ex.seat), cards=_names(ex.rules, ex.answer))
    if ok or value is None:
        return f"{reason} {legal_txt}"
    extra = sorted(value - ex.answer)
    missing = sorted(ex.answer - value)
    bits = []
    if extra:
        bits.append(ngettext("{cards} is not allowed", "{cards} are not allowed", len(extra),
                             cards=_names(ex.rules, extra)))
    if missing:
        bits.append(_("you left out {cards}", cards=_names(ex.rules, missing)))
    return f"{_cap(_semi().join(bits))}. {_cap(reason)} {legal_txt}"


def _suit_words(rules: Rules, t, led: int) -> tuple[str, str, str, str]:
    """The colour led in words for the following-suit rule (rules.md §1.5), in the active language: (what a player
    holds to follow, "a green card" or "a trump"; the same after "has no", "green card" or "trump"; the duty to
    follow; the cards that follow, "every green card" or "every trump")."""
    if led == t.trump:
        return (_("a trump"), pgettext("has no", "trump"),
                _("when trump is led, a player who holds a trump must play one"), _("every trump"))
    colour = colour_word(COLOURS[led])
    return (_("a {colour} card", colour=colour), pgettext("has no", "{colour} card", colour=colour),
            _("a player who holds a card of the colour led ({colour}) must follow it", colour=colour),
            _("every {colour} card", colour=colour))


def _legal_rule(ex: Exercise, value: frozenset) -> str:
    """The following-suit rule (rules.md §1.5, §3 privileges) that the card set ``value`` broke: how many picked
    cards may not be played and why, how many playable cards were left out and the rule allowing them. Names only
    the cards a rule is about (the bird, the Red 1), never the set of legal cards."""
    r, who = ex.rules, seat_full_name(ex.seat)
    t = trick_tables(r, ex.trump)
    led = t.suit[ex.trick[0]]
    one, none, duty, every = _suit_words(r, t, led)
    lead_note = (_("{card} was led, and leading it is leading trump", card=_name(r, ex.trick[0])) + _semi()
                 if r.is_trump_card(ex.trick[0]) else "")
    follows = any(t.suit[c] == led for c in ex.hand)
    extra, missing = sorted(value - ex.answer), sorted(ex.answer - value)
    parts = []
    if extra:
        n = len(extra)
        parts.append(ngettext("{count} card you picked may not be played: {lead}{seat} holds {one}, and {duty}",
                              "{count} cards you picked may not be played: {lead}{seat} holds {one}, and {duty}",
                              n, count=n, lead=lead_note, seat=who, one=one, duty=duty))
        parts += [_not_a_follower(r, c, one, led) for c in extra if r.is_trump_card(c)]
    if missing:
        n = len(missing)
        if not follows:
            parts.append(ngettext(
                "you left out {count} card that may be played: {lead}{seat} has no {none}, and a player who cannot "
                "follow the colour led may play any card",
                "you left out {count} cards that may be played: {lead}{seat} has no {none}, and a player who cannot "
                "follow the colour led may play any card", n, count=n, lead=lead_note, seat=who, none=none))
        else:
            parts.append(ngettext("you left out {count} card that may be played: {rule}",
                                  "you left out {count} cards that may be played: {rule}", n, count=n,
                                  rule=_follow_rule(r, t, led, missing, every)))
    return _cap(_semi().join(parts)) + "."


def _not_a_follower(rules: Rules, card: Card, one: str, led: int) -> str:
    """Why the trump card ``card`` (the bird or the Red 1) does not follow a colour led that is not trump (``one``:
    "a green card"; ``led``: the colour led, an index of `COLOURS`)."""
    if card == BIRD:
        return _("{bird} is a trump, not {one}: like any trump it may be played on a {colour} lead only by a player "
                 "with no {colour} card", bird=_name(rules, card), one=one, colour=colour_word(COLOURS[led]))
    return _("the Red 1 is a trump, never a red card, so it cannot follow red")


def _follow_rule(rules: Rules, t, led: int, missing: list[Card], every: str) -> str:
    """The rules that allow the left-out cards ``missing`` when the player can follow: ``every`` card of the colour
    led (the bird and the Red 1 count as trumps), and the cards that may be played at any time (rules.md §3)."""
    reasons = []
    following = [c for c in missing if t.suit[c] == led]
    if following:
        bird = BIRD in following and rules.is_trump_card(BIRD)
        red = RED_ONE in following and rules.is_trump_card(RED_ONE)
        bird_word = bird_name(rules.bird_name)
        note = (" " + _("(the {bird} and the Red 1 count as a trump)", bird=bird_word) if bird and red else
                " " + _("(the {bird} counts as a trump)", bird=bird_word) if bird else
                " " + _("(the Red 1 counts as a trump)") if red else "")
        reasons.append(_("{every} may be played, high or low", every=every) + note)
    privileged = [c for c in missing if t.suit[c] != led]
    if privileged:
        reasons.append(_("in {rules} {cards} may be played at any time, even by a player who could follow",
                         rules=rules_title(rules), cards=_names(rules, privileged)))
    return _("{first}, and {second}", first=reasons[0], second=reasons[1]) if len(reasons) == 2 else reasons[0]


# --------------------------------------------------------------------------- trick_winner
def trick_reason(rules: Rules, trump: str, leader: int, cards: Sequence[Card]) -> str:
    """Why the trick ``cards`` (play order, led by ``leader``) goes to its winner (rules.md §1.5, §3), in the active
    language: the rule that decides, any notes (the bird's place, the Red 1, the 1s) joined by "; ", and where the
    trick's points go."""
    t = trick_tables(rules, trump)
    win_i = trick_winner(t, cards)
    winner = (leader + win_i) % 4
    win = cards[win_i]
    who = seat_full_name(winner)
    led = t.suit[cards[0]]
    trumps = [c for c in cards if t.trump_power[c]]
    trump_name = colour_name(trump)
    title = rules_title(rules)
    bird = bird_name(rules.bird_name)
    notes = []
    if trumps:
        if led == t.trump:
            text = _("trump ({colour}) was led, so the highest trump wins: {card} of {seat}", colour=trump_name,
                     card=_name(rules, win), seat=who)
        elif len(trumps) == 1:
            text = _("{card} is the only trump ({colour}) in the trick, and a trump beats every card of another "
                     "colour, so {seat} wins", card=_name(rules, win), colour=trump_name, seat=who)
        else:
            text = _("when trumps ({colour}) are played, the highest trump wins: {card} of {seat}",
                     colour=trump_name, card=_name(rules, win), seat=who)
        if BIRD in cards:
            place = bird_place_text(rules)
            if win == BIRD and rules.bird_place == BIRD_BOTTOM:
                notes.append(_("the {bird} is {place} in {rules}, but even the lowest trump beats the other colours",
                               bird=bird, place=place, rules=title))
            elif win == BIRD:
                notes.append(_("the {bird} is {place} in {rules}", bird=bird, place=place, rules=title))
            else:
                notes.append(_("the {bird} is only {place} in {rules}, so {card} beats it", bird=bird, place=place,
                               rules=title, card=_name(rules, win)) if rules.bird_place == BIRD_BOTTOM else
                             _("the {bird} is {place} in {rules}", bird=bird, place=place, rules=title))
        if rules.red_one and RED_ONE in cards:
            notes.append(_("the Red 1 is the top trump"))
        if rules.order[0] == 1 and any(c.number == 1 for c in trumps if not c.is_bird):
            notes.append(_("the 1 is the highest card of a colour in {rules}", rules=title))
    else:
        text = _("no trump ({trump}) was played, so the highest {colour} card (the colour led) wins: {card} of {seat}",
                 trump=trump_name, colour=colour_word(COLOURS[led]), card=_name(rules, win), seat=who)
        off = [c for c in cards if t.suit[c] != led]
        if off:
            notes.append(ngettext("{cards} cannot win: it is neither the colour led nor trump",
                                  "{cards} cannot win: they are neither the colour led nor trump", len(off),
                                  cards=_names(rules, off)))
        if rules.order[0] == 1 and win.number == 1:
            notes.append(_("the 1 is the highest card of a colour in {rules}", rules=title))
    pts = rules.points_of(cards)
    return _("{reason}. The trick's {points} points go to {team}.", reason=text + "".join(_semi() + n for n in notes),
             points=pts, team=team_name(winner & 1))


def _trick_category(rules: Rules, t, cards: Sequence[Card]) -> str:
    """The kind of a finished trick for worked examples (`TRICK_KINDS`): "bird" (the bird in it), "trump-led",
    "trumped" (a colour led, trump played on it), "plain" (no trump at all, a card of another colour played) or
    "simple" (no trump, every card of the colour led)."""
    led = t.suit[cards[0]]
    if any(rules.is_trump_card(c) for c in cards):
        return "bird"
    if led == t.trump:
        return "trump-led"
    if any(t.trump_power[c] for c in cards):
        return "trumped"
    if any(t.suit[c] != led for c in cards):
        return "plain"
    return "simple"


TRICK_KINDS = ("trumped", "plain", "bird", "simple", "trump-led")
"""The kinds of worked trick examples (`_trick_category`), in the order a missing kind falls back to."""


def _sample_trick(rules: Rules, rng: random.Random, wanted: str) -> tuple[int, tuple[Card, ...], str]:
    found: dict[str, list] = {}
    for _attempt in range(12):
        state, how = _hand_in_play(rules, rng)
        _random_playout(state, how["play_seed"])
        t = state.tables
        for tr in state.tricks:
            found.setdefault(_trick_category(rules, t, tr.cards), []).append((tr.leader, tr.cards, state.trump))
        if wanted in found:
            break
    cat = wanted if wanted in found else next(c for c in TRICK_KINDS if c in found)
    return rng.choice(found[cat])


def trick_winner_exercise(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "Who wins this trick?" for a complete trick (rules.md §1.5, §3). Answer: a seat."""
    rules = _rules(rules)
    rng = _rng("trick_winner", seed, rules)
    wanted = rng.choice(["trumped", "plain", "bird", "trumped", "simple"])
    leader, cards, trump = _sample_trick(rules, rng, wanted)
    winner = (leader + trick_winner(trick_tables(rules, trump), cards)) % 4
    prompt = _("{colour} is trump. {leader} led; the trick is {trick}. Who wins this trick?", colour=colour_name(trump),
               leader=seat_full_name(leader), trick=_trick_text(rules, leader, cards))
    return Exercise("trick_winner", seed, rules, prompt, winner, frozenset([winner]), trick=tuple(cards),
                    trick_leader=leader, trump=trump, choices=tuple(range(4)))


def _norm_seat(ex: Exercise, answer: Any) -> int:
    if isinstance(answer, str) and answer.strip().capitalize() in SEAT_NAMES:
        return SEAT_NAMES.index(answer.strip().capitalize())
    try:
        return seat_index(answer.strip() if isinstance(answer, str) else answer)
    except (ValueError, TypeError):
        raise ExerciseError(_("{value} is not a seat (N, E, S or W)", value=repr(answer))) from None


def _check_trick(ex: Exercise, value: int | None, ok: bool) -> str:
    reason = trick_reason(ex.rules, ex.trump, ex.trick_leader, ex.trick)
    reason = reason[0].upper() + reason[1:]
    if ok or value is None:
        return reason
    card = dict((s, c) for s, c in ex.trick_seats)[value]
    return _("{seat}'s {card} does not win. {reason}", seat=seat_full_name(value), card=_name(ex.rules, card),
             reason=reason)


def _trick_rule(ex: Exercise, value: int) -> str:
    """Why the card of the picked seat ``value`` does not win the trick (rules.md §1.5, §3 the bird's and the Red
    1's places); never names the winner."""
    r = ex.rules
    t = trick_tables(r, ex.trump)
    card = dict(ex.trick_seats)[value]
    mine = _("{seat}'s {card}", seat=seat_full_name(value), card=card_text(r, card))
    led = t.suit[ex.trick[0]]
    led_name, trump_name = colour_word(COLOURS[led]), colour_word(ex.trump)
    trumps = [c for c in ex.trick if t.trump_power[c]]
    title = rules_title(r)
    if t.trump_power[card]:
        text = _("{card} is a trump, but a higher trump was played: when trumps are played, the highest trump wins",
                 card=mine)
        if BIRD in ex.trick:
            text += _semi() + _("in {rules} the {bird} is {place}", rules=title, bird=bird_name(r.bird_name),
                             place=bird_place_text(r))
        if r.red_one and RED_ONE in ex.trick:
            text += _semi() + _("the Red 1 is the top trump")
        if r.order[0] == 1 and any(c.number == 1 for c in trumps if not c.is_bird):
            text += _semi() + _("the 1 is the highest card of a colour in {rules}", rules=title)
    elif t.suit[card] == led and trumps:
        text = _("{card} follows the colour led ({led}), but a trump ({trump}) was played on this trick, and a trump "
                 "beats every card of another colour", card=mine, led=led_name, trump=trump_name)
    elif t.suit[card] == led:
        text = _("{card} follows the colour led ({led}), but a higher {led} card was played: with no trump in the "
                 "trick, the highest card of the colour led wins", card=mine, led=led_name)
        if r.order[0] == 1 and any(c.number == 1 and t.suit[c] == led for c in ex.trick):
            text += _semi() + _("the 1 is the highest card of a colour in {rules}", rules=title)
    else:
        text = _("{card} is neither the colour led ({led}) nor trump ({trump}), so it cannot win the trick, however "
                 "high it is", card=mine, led=led_name, trump=trump_name)
    return _cap(text) + "."


# --------------------------------------------------------------------------- score_hand
def score_reason(rules: Rules, bid: int, declarer: int, captured: tuple[int, int], score: tuple[int, int]) -> str:
    """Why the hand scores ``score`` (rules.md §1.7): made or set, bid or captured, defenders' take."""
    team = declarer & 1
    dec, dfn = team_name(team), team_name(1 - team)
    took = captured[team]
    if took >= bid:
        how = (_("a made bid scores exactly the bid") if rules.make_score == MAKE_BID
               else _("a made bid scores everything the declarers captured"))
        first = _("{team} bid {bid} and took {took}, so they made it; in {rules} {how}: {team} {score:+d}",
                  team=dec, bid=bid, took=took, rules=rules_title(rules), how=how, score=score[team])
    else:
        first = _("{team} bid {bid} but took only {took}, so they are set: they score minus the bid and nothing "
                  "else: {team} {score:+d}", team=dec, bid=bid, took=took, score=score[team])
    return _("{first}. The defenders {team} always score what they captured: {team} {score:+d}.", first=first,
             team=dfn, score=score[1 - team])


def score_hand(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "Score this hand" from the bid and each team's captured points (rules.md §1.6–§1.7).

    The hand is really played (random legal cards after a seeded deal) and scored by `HandState.score`.
    Answer: (N–S, E–W).
    """
    rules = _rules(rules)
    rng = _rng("score_hand", seed, rules)
    state, how = _hand_in_play(rules, rng)
    _random_playout(state, how["play_seed"])
    team = state.declarer & 1
    took = state.captured[team]
    step = rules.bid_step
    made_bids = [b for b in rules.legal_bids(None) if b <= took]
    set_bids = [b for b in rules.legal_bids(None) if b > took]
    want_made = rng.random() < 0.5
    pool = (made_bids if want_made else set_bids) or made_bids or set_bids
    # prefer bids near the take, as in real play
    near = [b for b in pool if abs(b - took) <= 6 * step] or pool
    amount = rng.choice(near)
    state = _rebuild(rules, how, amount)
    _random_playout(state, how["play_seed"])
    score = state.score()
    nest_pts = rules.points_of(state.nest)
    last = state.tricks[-1].winner
    words = dict(seat=seat_full_name(state.declarer), bid=amount, team=team_name(team), nest=nest_pts,
                 ns_team=team_name(0), ns=state.captured[0], ew_team=team_name(1), ew=state.captured[1])
    if rules.majority_bonus:
        prompt = _("{seat} won the auction with a bid of {bid}, so {team} are the declarers. After the last trick "
                   "(the nest's {nest} points and the {bonus}-point majority bonus included) {ns_team} captured {ns} "
                   "points and {ew_team} {ew}. What does each team score for this hand?", bonus=rules.majority_bonus,
                   **words)
    else:
        prompt = _("{seat} won the auction with a bid of {bid}, so {team} are the declarers. After the last trick "
                   "(the nest's {nest} points included) {ns_team} captured {ns} points and {ew_team} {ew}. What does "
                   "each team score for this hand?", **words)
    return Exercise("score_hand", seed, rules, prompt, score, frozenset([score]), bid=amount,
                    declarer=state.declarer, captured=tuple(state.captured), tricks_won=tuple(state.tricks_won),
                    nest_points=nest_pts, last_trick=last, facts={"made": state.made})


def _norm_score(ex: Exercise, answer: Any) -> tuple[int, int]:
    try:
        if isinstance(answer, str):  # "85" is not the pair ("8", "5")
            raise TypeError
        ns, ew = answer
    except (TypeError, ValueError):
        raise ExerciseError(_("{value} is not a score: give two numbers ({ns_team}, {ew_team})", value=repr(answer),
                              ns_team=team_name(0), ew_team=team_name(1))) from None
    return (parse_points(ns), parse_points(ew))


def _check_score(ex: Exercise, value: tuple[int, int] | None, ok: bool) -> str:
    reason = score_reason(ex.rules, ex.bid, ex.declarer, ex.captured, ex.answer)
    reason = reason[0].upper() + reason[1:]
    if ok or value is None:
        return reason
    return _("you wrote {ns_team} {ns:+d}, {ew_team} {ew:+d}. {reason}", ns_team=team_name(0), ns=value[0],
             ew_team=team_name(1), ew=value[1], reason=reason)


def _score_rule(ex: Exercise, value: tuple[int, int]) -> str:
    """The scoring rule (rules.md §1.7) behind each team's score in ``value`` (N–S, E–W) that is off; never the
    right scores."""
    r, team = ex.rules, ex.declarer & 1
    dec, dfn = team_name(team), team_name(1 - team)
    made = _("scores exactly its bid") if r.make_score == MAKE_BID else _("scores everything it captured")
    parts = []
    if value[team] != ex.answer[team]:
        parts.append(_("{team}'s score is off: compare what {team} captured with their bid. A declaring team that "
                       "takes at least its bid makes it and in {rules} {made}; one that takes less is set and scores "
                       "minus its bid, whatever it captured", team=dec, rules=rules_title(r), made=made))
    if value[1 - team] != ex.answer[1 - team]:
        parts.append(_("{team}'s score is off: the defenders always score the points they captured, whether the bid "
                       "is made or not", team=dfn))
    return ". ".join(parts) + "."


# --------------------------------------------------------------------------- what_to_bid
def estimate_hand(rules: Rules, hand: Iterable[Card]) -> tuple[int, str, int]:
    """Points a seat's team can expect to capture as declarers with ``hand``: (points, trump colour, trumps).

    Uses the rule-based AI's estimate (`rookcore.ai.rules_based.hand_estimate`) when available, else a
    simple count (counters held, long colour, nest help) scaled to the rule set's points per hand.
    """
    hand = list(hand)
    try:
        from .ai.rules_based import hand_estimate  # noqa: PLC0415 - optional: the AI may be absent
        est, col, n_t = hand_estimate(rules, hand)
        return int(round(est)), col, n_t
    except ImportError:  # pragma: no cover - fallback when the AI package is missing
        col = _longest_colour(rules, hand)
        trumps = set(rules.trump_order(col))
        n_t = sum(1 for c in hand if c in trumps)
        share = min(0.9, 0.35 + 0.05 * n_t + 0.02 * rules.nest_size)
        return int(round(share * rules.points_per_hand)), col, n_t


def bid_spread(rules: Rules) -> int:
    """How far one deal's take typically strays from a hand's estimate (`estimate_hand`), in points: a sixth of the
    rule set's points per hand, to a whole bid step, at least one step (20 in CrowsNest).

    Measured in the rule-based AI's play: with one seat's hand kept and the other cards dealt at random, what its
    team takes as declarers spreads by about a sixth of the points per hand (a standard deviation of about 20 of
    CrowsNest's 120, 25-35 in the rule sets of 150-200 points). So an estimate is a rough guide: a poor deal takes
    about one spread less, a good one about one spread more.
    """
    step = rules.bid_step
    return max(step, int(round(rules.points_per_hand / 6 / step)) * step)


def bid_range(rules: Rules, estimate: int) -> tuple[bool, list[int]]:
    """Accepted answers for a hand ``estimate`` (points; `estimate_hand`): (pass accepted?, accepted top bids).

    A pass is sensible unless the hand is clearly strong: unless even a poor deal (the estimate less `bid_spread`)
    takes the lowest bid with a step to spare. A top bid is sensible up to the estimate, to the nearest step (bid
    what you expect to take, not more), and down to the lowest bid when a pass is sensible too, else down to what a
    poor deal takes (lower undersells a strong hand). At least one answer is always accepted.
    """
    step = rules.bid_step
    poor = estimate - bid_spread(rules)
    pass_ok = poor < rules.bid_min + step
    floor = rules.bid_min if pass_ok else poor
    bids = [b for b in rules.legal_bids(None) if floor <= b <= estimate + step / 2]
    if not bids and not pass_ok:
        bids = [rules.bid_max]
    return pass_ok, bids


BID_CATEGORIES: tuple[str, ...] = ("bid", "pass", "either")
"""How clear a what_to_bid hand is (`bid_category`): "bid" (a pass is wrong), "pass" (weak: the hand is not expected
to take the lowest bid with a step to spare), "either" (a pass and modest bids are both sensible)."""


def bid_category(rules: Rules, estimate: int) -> str:
    """The `BID_CATEGORIES` entry of a hand ``estimate`` (points; `estimate_hand`) under `bid_range`."""
    pass_ok, _bids = bid_range(rules, estimate)
    if not pass_ok:
        return "bid"
    return "pass" if estimate < rules.bid_min + rules.bid_step else "either"


def _ai_bidding(state: HandState, seat: int, seed: int) -> tuple[str, int | None, int | None]:
    """The rule-based AI in ``seat``, first to call in ``state`` (an auction not begun): (its explanation of its
    first call, its first bid, the highest bid it would make: after its first bid, the next seat bids each higher
    amount in turn and the other two pass, and the AI's answer to each is asked), the bids None if it passes at
    once; ("", None, None) without the AI (it is optional for the exercise)."""
    try:
        return _ask_ai(state, seat, seed)
    except Exception:  # noqa: BLE001 - the AI is optional for the exercise
        return "", None, None


def _ask_ai(state: HandState, seat: int, seed: int) -> tuple[str, int | None, int | None]:
    from .ai import RuleBasedPlayer  # noqa: PLC0415 - optional

    rules = state.rules
    first = RuleBasedPlayer(seed).decide(state.observation(seat))
    if not isinstance(first.action, Bid):
        return first.explanation, None, None
    top = first.action.amount
    for outbid in rules.legal_bids(top):
        probe = state.clone()
        probe.apply(first.action, seat)
        probe.apply(make_bid(outbid), (seat + 1) % 4)  # an opponent outbids it
        while probe.phase is Phase.AUCTION and probe.to_act != seat:
            probe.apply(PASS)  # partner and the other opponent
        if probe.phase is not Phase.AUCTION:
            break  # the highest bid ends the auction (rules.md §1.2)
        answer = RuleBasedPlayer(seed).decide(probe.observation(seat)).action
        if not isinstance(answer, Bid):
            break
        top = answer.amount
    return first.explanation, first.action.amount, top


def what_to_bid(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "How high would you bid with this hand?" for the first caller (rules.md §1.2).

    Answer: a top bid or "pass"; every answer in `bid_range` of the hand estimate counts as right. The hand is a
    clear one where one turns up in the seeded deals tried (`bid_category` "bid" or "pass", six times in ten a
    hand to bid), else one where a pass and modest bids are both right (`what_to_bid_with` grades it).
    """
    rules = _rules(rules)
    rng = _rng("what_to_bid", seed, rules)
    want = "bid" if rng.random() < 0.6 else "pass"
    found: dict[str, HandState] = {}
    for _attempt in range(100):
        state = HandState.deal(rules, rng.randrange(4), rng.getrandbits(32))
        est, _col, _n_t = estimate_hand(rules, state.hands[state.to_act])
        found.setdefault(bid_category(rules, est), state)
        if want in found:
            break
    state = found.get(want) or found.get("either") or next(iter(found.values()))
    return _bid_exercise(rules, seed, state)


def what_to_bid_with(hand: Iterable[Any], rules: Rules | str | None = None, seat: str | int = "N",
                     seed: int = 0) -> Exercise:
    """The what_to_bid exercise for a given ``hand`` (Cards or text such as "R9", "Crow"), held by ``seat``, first to
    call; graded like `what_to_bid`'s (`bid_range`). Only that hand matters (the estimate and the AI see only it):
    the other seats get the rest of the deck in order. ``seed`` seeds the AI's tie-breaks. Raises ExerciseError if
    the hand is not ``rules.hand_size`` different cards of the deck or the seat is not one."""
    rules = _rules(rules)
    cards = [parse_card_answer(rules, c) for c in hand]
    try:
        first = seat_index(seat)
    except (ValueError, TypeError):
        raise ExerciseError(_("{value} is not a seat (N, E, S or W)", value=repr(seat))) from None
    held = set(cards)
    rest = [c for c in rules.deck if c not in held]
    size = rules.hand_size
    hands = [rest[i * size:(i + 1) * size] for i in range(3)]
    hands.insert(first, cards)
    try:
        state = HandState(rules, (first - 1) % 4, hands, rest[3 * size:])
    except ValueError as e:
        raise ExerciseError(_("not a hand of {rules}: {problem}", rules=rules_title(rules), problem=e)) from None
    return _bid_exercise(rules, seed, state)


def _bid_exercise(rules: Rules, seed: int, state: HandState) -> Exercise:
    """The what_to_bid exercise for the first caller of ``state`` (an auction not begun)."""
    seat = state.to_act
    hand = tuple(sorted(state.hands[seat]))
    est, col, n_t = estimate_hand(rules, hand)
    pass_ok, bids = bid_range(rules, est)
    category = bid_category(rules, est)
    ai_text, ai_open, ai_top = _ai_bidding(state, seat, seed)
    accepted = frozenset(bids + (["pass"] if pass_ok else []))
    if category == "pass" or not bids:
        answer: int | str = "pass" if pass_ok else bids[0]
    elif ai_top in bids:
        answer = ai_top
    else:
        answer = max([b for b in bids if b <= est] or bids[:1])
    prompt = _("You are {seat}, first to call in {rules} (bids from {low} to {high} in steps of {step}; {points} "
               "points in a hand). How high would you be willing to bid with this hand? Pick your top bid, or Pass.",
               seat=seat_full_name(seat), rules=rules_title(rules), low=rules.bid_min, high=rules.bid_max,
               step=rules.bid_step, points=rules.points_per_hand)
    choices = ("pass",) + tuple(rules.legal_bids(None))
    return Exercise("what_to_bid", seed, rules, prompt, answer, accepted, seat=seat, hand=hand, choices=choices,
                    facts={"estimate": est, "spread": bid_spread(rules), "trump": col, "trumps": n_t,
                           "category": category, "ai": ai_text, "ai_open": ai_open, "ai_top": ai_top,
                           "pass_ok": pass_ok, "bids": tuple(bids)})


def _norm_bid(ex: Exercise, answer: Any) -> int | str:
    if answer is None or answer is PASS or isinstance(answer, Pass):
        return "pass"
    if isinstance(answer, Bid):
        return answer.amount
    if isinstance(answer, str):
        t = answer.strip().lower()
        if t == "pass":
            return "pass"
        if t.startswith("bid "):
            t = t[4:]
        if t.isdigit():
            answer = int(t)
    if isinstance(answer, int) and not isinstance(answer, bool):
        if answer not in ex.rules.legal_bids(None):
            raise ExerciseError(_("{value} is not a bid in {rules} (bids go from {low} to {high} in steps of {step})",
                                  value=answer, rules=rules_title(ex.rules), low=ex.rules.bid_min,
                                  high=ex.rules.bid_max, step=ex.rules.bid_step))
        return answer
    raise ExerciseError(_("{value} is not a bid or pass", value=repr(answer)))


def _check_bid(ex: Exercise, value: int | str | None, ok: bool) -> str:
    r, f = ex.rules, ex.facts
    est, spread = f["estimate"], f["spread"]
    poor = est - spread
    bids, pass_ok = f["bids"], f["pass_ok"]
    lowest = _("the lowest bid of {bid}", bid=r.bid_min)
    worth = dict(points=est, colour=colour_name(f["trump"]), count=f["trumps"], spread=spread)
    text = (_("This hand is worth about {points} points to its team as declarers with {colour} as trump ({count} "
              "trumps, with the nest to help), give or take {spread} on how the other cards lie", **worth)
            if r.nest_size else
            _("This hand is worth about {points} points to its team as declarers with {colour} as trump ({count} "
              "trumps), give or take {spread} on how the other cards lie", **worth))
    top = ((_("a top bid of {low} to {high}", low=bids[0], high=bids[-1]) if len(bids) > 1 else
            _("a top bid of {low}", low=bids[0])) if bids else "")
    reach = (_("not reach {lowest}", lowest=lowest) if poor < r.bid_min else
             _("barely make {lowest}", lowest=lowest))
    if bids and pass_ok and f["category"] == "pass":
        text += _semi() + _("a pass is sensible, since on a poor deal (about {poor}) it would {reach}, and so is "
                            "{top}, no more than the hand is worth", poor=poor, reach=reach, top=top)
    elif bids and pass_ok:
        text += _semi() + _("{top} is sensible, and so is a pass: on a poor deal (about {poor}) it would {reach}",
                         top=top, poor=poor, reach=reach)
    elif bids:
        text += _semi() + _("{top} is sensible, and a pass gives too much away: even a poor deal (about {poor}) should "
                         "make {lowest}", top=top, poor=poor, lowest=lowest)
    else:
        text += _semi() + _("passing is sensible: even a good deal would hardly reach {lowest}", lowest=lowest)
    text += (". " + (_("Declarers who fall short are set and score minus the bid, and a made bid scores only the bid "
                       "in {rules}.", rules=rules_title(r)) if r.make_score == MAKE_BID else
                     _("Declarers who fall short are set and score minus the bid.")))
    if not ok and value is not None:
        if value == "pass":
            text = _("passing gives the contract away with a hand that should make the lowest bid even on a poor "
                     "deal.") + " " + text
        elif not bids or value > bids[-1]:
            text = _("{bid} is more than this hand is likely to take.", bid=value) + " " + text
        else:
            text = _("{bid} undersells this hand.", bid=value) + " " + text
    if f.get("ai"):
        seat = seat_full_name(ex.seat)
        quote = i18n.localize(f["ai"])  # the AI's sentence (a Message) in the learner's language
        if f.get("ai_open") is None:
            text += " " + _("The AI in {seat}'s seat passes: “{quote}”", seat=seat, quote=quote)
        elif f.get("ai_top") == f["ai_open"]:
            text += " " + _("The AI in {seat}'s seat opens with {bid} and would go no higher: “{quote}”", seat=seat,
                            bid=f["ai_open"], quote=quote)
        else:
            text += " " + _("The AI in {seat}'s seat opens with {bid} and would go on up to {top} if an opponent kept "
                            "outbidding it: “{quote}”", seat=seat, bid=f["ai_open"], top=f["ai_top"], quote=quote)
    return text


def _bid_rule(ex: Exercise, value: int | str) -> str:
    """What is wrong with the top bid ``value`` ("pass" or an amount) for this hand (rules.md §1.2 bidding, §1.7 a
    set declarer scores minus the bid): too high, too low, or a pass with a hand that should bid; never the hand's
    estimate or an accepted bid."""
    bids = ex.facts["bids"]
    if value == "pass":
        if ex.rules.nest_size:
            return _("A pass gives the contract away, and this hand is strong enough to bid: even if the other cards "
                     "lie badly it should make the lowest bid. Count its long colour (your trump), its high cards and "
                     "counters, and the nest's help; then bid what you expect to take.")
        return _("A pass gives the contract away, and this hand is strong enough to bid: even if the other cards lie "
                 "badly it should make the lowest bid. Count its long colour (your trump), its high cards and "
                 "counters; then bid what you expect to take.")
    if not bids or value > bids[-1]:
        return _("{bid} is more than this hand is likely to take: declarers who fall short are set and score minus "
                 "the bid, so bid no more than you expect to capture.", bid=value)
    return _("{bid} undersells this hand: with a strong hand, go on up to about what you expect to take, or the "
             "opponents may win the contract cheaply.", bid=value)


# --------------------------------------------------------------------------- count_points
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


# --------------------------------------------------------------------------- dispatch
GENERATORS = {
    "which_cards_legal": which_cards_legal,
    "trick_winner": trick_winner_exercise,
    "score_hand": score_hand,
    "what_to_bid": what_to_bid,
    "count_points": count_points,
}
_NORMALIZE = {"which_cards_legal": _norm_cards, "trick_winner": _norm_seat, "score_hand": _norm_score,
              "what_to_bid": _norm_bid, "count_points": _norm_int}
_CHECKERS = {"which_cards_legal": _check_legal, "trick_winner": _check_trick, "score_hand": _check_score,
             "what_to_bid": _check_bid, "count_points": _check_count}
_RULES = {"which_cards_legal": _legal_rule, "trick_winner": _trick_rule, "score_hand": _score_rule,
          "what_to_bid": _bid_rule, "count_points": _count_rule}


def make_exercise(kind: str, rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """The exercise of ``kind`` (one of `KINDS`) for ``rules`` (a Rules, a variant name, None = CrowsNest)
    from ``seed``: same arguments, same exercise. Raises ExerciseError for an unknown kind."""
    if kind not in GENERATORS:
        raise ExerciseError(f"unknown exercise kind {kind!r} (known: {', '.join(KINDS)})")
    return GENERATORS[kind](rules, seed)


# --------------------------------------------------------------------------- live examples for lessons
@dataclass(frozen=True)
class DealExample:
    """A seeded deal: ``hands`` (N, E, S, W, each sorted), ``nest``, ``dealer``, ``first_caller`` (the seat that
    calls first: left of the dealer, rules.md §1.2), and each hand's counter points."""

    rules: Rules
    seed: int
    dealer: int
    first_caller: int
    hands: tuple[tuple[Card, ...], ...]
    nest: tuple[Card, ...]
    points: tuple[int, ...]
    nest_points: int


def example_deal(rules: Rules | str | None = None, seed: int = 0, dealer: str | int = "N") -> DealExample:
    """Deal a hand with `HandState.deal` (rules.md §1.1) and count each hand's counters."""
    rules = _rules(rules)
    state = HandState.deal(rules, dealer, seed)
    pts = rules.card_points
    hands = tuple(tuple(sorted(h)) for h in state.dealt)
    return DealExample(rules, seed, state.dealer, state.to_act, hands, tuple(sorted(state.dealt_nest)),
                       tuple(sum(pts[c] for c in h) for h in hands), sum(pts[c] for c in state.dealt_nest))


@dataclass(frozen=True)
class TrickExample:
    """A complete trick from a seeded, randomly played hand: leader, cards, trump, winner seat, reason."""

    rules: Rules
    leader: int
    cards: tuple[Card, ...]
    trump: str
    winner: int
    points: int
    reason: str

    @property
    def trick_seats(self) -> list[tuple[int, Card]]:
        """(seat, card) in play order."""
        return [((self.leader + i) % 4, c) for i, c in enumerate(self.cards)]


def example_trick(rules: Rules | str | None = None, seed: int = 0, kind: str = "trumped") -> TrickExample:
    """A trick of category ``kind`` (one of `TRICK_KINDS`: "trumped", "plain" (no trump played), "bird", "simple",
    "trump-led") with its winner (rules.md §1.5)."""
    rules = _rules(rules)
    rng = _rng(f"example-trick-{kind}", seed, rules)
    leader, cards, trump = _sample_trick(rules, rng, kind)
    t = trick_tables(rules, trump)
    winner = (leader + trick_winner(t, cards)) % 4
    reason = trick_reason(rules, trump, leader, cards)
    return TrickExample(rules, leader, tuple(cards), trump, winner, rules.points_of(cards),
                        reason[0].upper() + reason[1:])


def worked_trick(rules: Rules | str | None = None, trump: str = "G", cards: Sequence[Any] = (),
                 leader: str | int = "N") -> TrickExample:
    """A given trick, such as rules.md §4's worked examples ("CrowsNest, trump G, lead R14; then R5, Crow, G5"),
    with its winner and the reason decided by the engine (`trick_winner`, `trick_reason`): the lesson names the
    cards, never the outcome.

    ``trump``: a colour letter or name; ``cards``: the four cards in play order (Cards or text such as "R14",
    "Crow", "Rook", "Red 1"); ``leader``: the seat that led ("N".."W" or 0..3). Raises ExerciseError for a trump
    that is no colour, a card list that is not four different cards of the rule set's deck, or a seat that is not
    one.
    """
    rules = _rules(rules)
    colour = str(trump).strip()
    colour = next((c for c in COLOURS if colour.upper() == c or colour.capitalize() == COLOUR_NAMES[c]), None)
    if colour is None:
        raise ExerciseError(f"{trump!r} is not a colour to name as trump (R, Y, G or B)")
    played = tuple(parse_card_answer(rules, c) for c in cards)
    if len(played) != 4 or len(set(played)) != 4:
        raise ExerciseError(f"a trick is four different cards, one from each seat, not {list(cards)!r}")
    outside = [c for c in played if c not in rules.deck_set]
    if outside:
        raise ExerciseError(f"{_names(rules, outside)} {'is' if len(outside) == 1 else 'are'} not in the "
                            f"{rules.title} deck")
    try:
        first = seat_index(leader)
    except (ValueError, TypeError):
        raise ExerciseError(f"{leader!r} is not a seat (N, E, S or W)") from None
    t = trick_tables(rules, colour)
    winner = (first + trick_winner(t, played)) % 4
    reason = trick_reason(rules, colour, first, played)
    return TrickExample(rules, first, played, colour, winner, rules.points_of(played), _cap(reason))


@dataclass(frozen=True)
class LegalExample:
    """A worked "which cards may be played" example: ``seat`` holding ``hand`` on ``trick`` (led by
    ``trick_leader``, trump ``trump``), the ``legal`` cards, the ``category`` ("follow", "bird", "void") and the
    rule that decides it (``reason``, naming the legal cards)."""

    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]
    trick_leader: int
    trump: str
    legal: frozenset
    category: str
    reason: str


def example_legal(rules: Rules | str | None = None, seed: int = 0, kind: str = "follow") -> LegalExample:
    """A worked "which cards may be played" example of category ``kind`` (see `LEGAL_KINDS`; rules.md §1.5, §3).

    Drawn from its own seeded stream, not from `which_cards_legal`'s: a lesson's worked example is not one of
    the exercises its "New exercise" button deals (the tests check the lessons' first 200 seeds).
    Raises ExerciseError for an unknown ``kind``.
    """
    if kind not in LEGAL_KINDS:
        raise ExerciseError(f"unknown example kind {kind!r} (known: {', '.join(LEGAL_KINDS)})")
    rules = _rules(rules)
    cat, seat, hand, leader, trick, trump, legal = _sample_legal(rules, _rng(f"example-legal-{kind}", seed, rules),
                                                                 kind)
    reason = (f"{_cap(legal_reason(rules, trump, seat, hand, trick))} "
              + _("{seat} may play {cards}.", seat=seat_full_name(seat), cards=_names(rules, legal)))
    return LegalExample(rules, seat, hand, trick, leader, trump, frozenset(legal), cat, reason)


@dataclass(frozen=True)
class HandExample:
    """A whole hand played out: contract, tricks (leader, cards, winner, points), tallies and score."""

    rules: Rules
    seed: int
    bid: int
    declarer: int
    trump: str
    tricks: tuple
    nest: tuple[Card, ...]
    nest_points: int
    captured: tuple[int, int]
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    reason: str


def example_hand(rules: Rules | str | None = None, seed: int = 0, players: str = "ai") -> HandExample:
    """Play a seeded hand to the end and score it (rules.md §1.6–§1.7).

    ``players``: "ai" (the rule-based AI at every seat, falling back to random play if the AI is
    unavailable) or "random" (random legal cards after a fixed auction).
    """
    rules = _rules(rules)
    state = None
    if players == "ai":
        try:
            from .ai import RuleBasedPlayer, play_hand  # noqa: PLC0415
            for k in range(20):
                state = HandState.deal(rules, "N", seed * 101 + k)
                play_hand(state, [RuleBasedPlayer(seed * 4 + s) for s in range(4)])
                if not state.passed_out:
                    break
            if state.passed_out:
                state = None
        except ImportError:  # pragma: no cover
            state = None
    if state is None:
        state, how = _hand_in_play(rules, _rng("example-hand", seed, rules))
        _random_playout(state, how["play_seed"])
    score = state.score()
    nest_pts = rules.points_of(state.nest)
    reason = score_reason(rules, state.high_bid, state.declarer, tuple(state.captured), score)
    return HandExample(rules, seed, state.high_bid, state.declarer, state.trump,
                       tuple((t.leader, t.cards, t.winner, t.points) for t in state.tricks),
                       tuple(sorted(state.nest)), nest_pts, tuple(state.captured), tuple(state.tricks_won), score,
                       reason[0].upper() + reason[1:])


def ai_walkthrough(rules: Rules | str | None = None, seed: int = 0, plays: int = 8) -> list[dict]:
    """The rule-based AI's decisions on a seeded hand, for the strategy lesson.

    Returns dicts {"seat", "kind", "action" (words), "explanation", "hand" (cards before acting)}:
    every call, the discard, the trump and the first ``plays`` card plays (0: stop when play starts).
    A passed-out deal is skipped (the next deal is tried). Requires `rookcore.ai`.
    """
    from .ai import RuleBasedPlayer, describe_action  # noqa: PLC0415

    rules = _rules(rules)
    steps: list[dict] = []
    for k in range(20):
        state = HandState.deal(rules, "N", seed * 101 + k)
        players = [RuleBasedPlayer(seed * 4 + s) for s in range(4)]
        steps = []
        n_plays = 0
        while not state.is_over and not (state.phase is Phase.PLAY and n_plays >= plays):
            seat = state.to_act
            hand = tuple(sorted(state.hands[seat]))
            decision = players[seat].decide(state.observation(seat))
            state.apply(decision.action, seat)
            steps.append({"seat": seat, "kind": decision.kind,
                          "action": describe_action(decision.action, rules.bird_name),
                          "explanation": decision.explanation, "hand": hand,
                          "trick": tuple(state.trick) if decision.kind == "play" else ()})
            n_plays += decision.kind == "play"
        if not state.passed_out:
            return steps
    return steps
