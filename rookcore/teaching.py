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
from .hand import SEATS, TEAM_NAMES, HandState, Phase, seat_index, trick_tables, trick_winner
from .records import quoted
from .rules import BIRD_BELOW_RED_ONE, BIRD_BOTTOM, BIRD_TOP, MAKE_BID, RED_ONE, Rules, get_rules

KINDS: tuple[str, ...] = ("which_cards_legal", "trick_winner", "score_hand", "what_to_bid", "count_points")
SEAT_NAMES: tuple[str, ...] = ("North", "East", "South", "West")
BIRD = Card.bird()


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
            return "Pick a seat first: tap the card that wins the trick, then press Check."
        if self.kind == "which_cards_legal" and not answer:
            return "Select the cards that may be played first (at least one): tap each of them, then press Check."
        return ""

    @property
    def points_hint(self) -> str:
        """What to type in this exercise's number box(es): `POINTS_HINT` for a hand's score (it may be negative),
        `COUNT_HINT` for points counted (never negative); "" for kinds answered without typing a number."""
        return {"score_hand": POINTS_HINT, "count_points": COUNT_HINT}.get(self.kind, "")

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
            return Feedback(False, f"Wrong: {e}. {solution}", f"{_cap(str(e))}.", solution)
        ok = value in self.accepted
        message = ("Right: " if ok else "Wrong: ") + _CHECKERS[self.kind](self, value, ok)
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


def _name(rules: Rules, card: Card) -> str:
    if card == BIRD:
        return f"the {rules.bird_name}"
    if rules.red_one and card == RED_ONE:
        return "the Red 1"
    return card.notation()


def _names(rules: Rules, cards: Iterable[Card]) -> str:
    items = [_name(rules, c) for c in sorted(cards)]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _colour(letter: str) -> str:
    return COLOUR_NAMES[letter]


def bird_place_text(rules: Rules) -> str:
    """Where the bird ranks, in plain words (rules.md §2, §3): "the lowest trump" etc.; "" with no bird."""
    if not rules.bird:
        return ""
    return {BIRD_BOTTOM: "the lowest trump", BIRD_TOP: "the highest trump",
            BIRD_BELOW_RED_ONE: "the second-highest trump, under the Red 1"}[rules.bird_place]


def counters_text(rules: Rules) -> str:
    """The counter values of ``rules`` in words, e.g. "the 5s are worth 5, the 10s and 14s 10, the Crow 20"."""
    by_value: dict[int, list[int]] = {}
    for number, pts in sorted(rules.counters):
        by_value.setdefault(pts, []).append(number)
    parts = []
    for pts, numbers in sorted(by_value.items(), key=lambda kv: min(kv[1])):
        nums = " and ".join(f"{n}s" for n in numbers)
        parts.append(f"the {nums} {pts}")
    if rules.bird:
        parts.append(f"the {rules.bird_name} {rules.bird_points}")
    if rules.red_one:
        parts.append(f"the Red 1 {rules.red_one_points}")
    return _worth(parts)


def _worth(parts: list[str]) -> str:
    # "the 5s 5, the 10s and 14s 10" -> "the 5s are worth 5, the 10s and 14s 10"
    if not parts:
        return "no card counts"
    first = parts[0].rsplit(" ", 1)
    return ", ".join([f"{first[0]} are worth {first[1]}"] + parts[1:])


def card_points_table(rules: Rules | str | None = None) -> list[tuple[str, int]]:
    """Every counter of the rule set as (card group, points), e.g. [("5s", 5), ("10s", 10), ("Crow", 20)]."""
    rules = _rules(rules)
    rows = [(f"{n}s", p) for n, p in sorted(rules.counters)]
    if rules.bird:
        rows.append((rules.bird_name, rules.bird_points))
    if rules.red_one:
        rows.append(("Red 1", rules.red_one_points))
    return rows


POINTS_HINT = "type a whole number of points, e.g. 85 or -120"
"""What to type for a hand's score, which may be negative (a set declarer scores minus the bid, rules.md §1.7)."""
COUNT_HINT = "type a whole number of points, e.g. 85"
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
    hint = POINTS_HINT if negative else COUNT_HINT
    if isinstance(text, int) and not isinstance(text, bool):
        value, shown = text, str(text)
    else:
        t = text.strip().translate(_MINUS_SIGNS) if isinstance(text, str) else None
        if t == "":
            raise ExerciseError(f"{_cap(where)} is empty: {hint}" if where else f"nothing was typed: {hint}")
        shown = quoted(text.strip()) if isinstance(text, str) else repr(text)
        if t is None or not _WHOLE_NUMBER.fullmatch(t):
            raise ExerciseError(f"{shown}{f' in {where}' if where else ''} is not a whole number: {hint}")
        if len(t) > 12:  # int() refuses more than 4,300 digits; no answer here needs a dozen
            raise ExerciseError(f"{shown}{f' in {where}' if where else ''} has more digits than any number of points "
                                f"here: {hint}")
        value = int(t)
    if value < 0 and not negative:
        raise ExerciseError(f"{shown}{f' in {where}' if where else ''} is below zero, but points captured are never "
                            f"negative (every card is worth 0 points or more): {hint}")
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
    raise ExerciseError(f"{text!r} is not a card")


# --------------------------------------------------------------------------- playing hands for positions
def _auction(state: HandState, declarer_k: int, amount: int) -> None:
    """Callers before the ``declarer_k``-th pass, that seat bids ``amount``, the rest pass (rules.md §1.2)."""
    for _ in range(declarer_k):
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
    """Why these cards are the legal ones for ``seat`` holding ``hand`` on ``trick`` (rules.md §1.5, §3)."""
    hand = sorted(hand)
    who = SEAT_NAMES[seat]
    if not trick:
        return f"{who} leads this trick, so {who} may play any card."
    t = trick_tables(rules, trump)
    led = t.suit[trick[0]]
    led_name = _colour(COLOURS[led])
    first = trick[0]
    lead_txt = ""
    if rules.is_trump_card(first):
        lead_txt = f"{_name(rules, first)} was led, and leading it is leading trump ({led_name}); "
    follow = [c for c in hand if t.suit[c] == led]
    special = [c for c in hand if rules.is_trump_card(c)]
    notes = []
    if not follow:
        base = (f"{lead_txt}{who} has no {led_name.lower()} card, so {who} may play any card "
                f"(a trump would win unless a higher trump is played)")
    elif len(follow) == 1 and led == t.trump and rules.is_trump_card(follow[0]) and follow[0] == BIRD \
            and rules.bird_any_time:
        base = (f"{lead_txt}trump was led and {_name(rules, BIRD)} is {who}'s only trump, "
                f"so {who} must play it")
    else:
        plural = "s" if len(follow) > 1 else ""
        shown = ", ".join(_name(rules, c) for c in follow)
        if led == t.trump:
            base = (f"{lead_txt}trump ({led_name.lower()}) was led and {who} holds {'a ' if not plural else ''}"
                    f"trump{plural} ({shown}), so {who} must play a trump")
            if any(rules.is_trump_card(c) for c in follow):
                base += f" (the {rules.bird_name if BIRD in follow else 'Red 1'} counts as a trump)"
        else:
            base = (f"{lead_txt}{who} holds {'a ' if not plural else ''}{led_name.lower()} card{plural} "
                    f"({shown}), so {who} must follow {led_name.lower()}")
    if follow:
        priv = [c for c in hand if t.suit[c] != led and rules.has_privilege(c)]
        for c in priv:
            notes.append(f"{_name(rules, c)} may also be played at any time in {rules.title}")
        if BIRD in special and not rules.bird_any_time and t.suit[BIRD] != led:
            lead = led_name.lower()
            notes.append(f"{_name(rules, BIRD)} is an ordinary trump in {rules.title} ({bird_place_text(rules)}): "
                         f"like any trump it may be played on a {lead} lead only by a player with no {lead} card")
        if rules.red_one and RED_ONE in hand and trump != "R" and led == COLOURS.index("R") \
                and not rules.red_one_any_time:
            notes.append("the Red 1 is a trump, never a red card, so it cannot follow red")
    return base + "".join(f"; {n}" for n in notes) + "."


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
    for _ in range(12):
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
    who = SEAT_NAMES[seat]
    prompt = (f"{_colour(trump)} is trump. {SEAT_NAMES[leader]} led and the trick so far is "
              f"{', '.join(f'{SEATS[(leader + i) % 4]}: {short_name(rules, c)}' for i, c in enumerate(trick))}. "
              f"Which cards may {who} play? Pick every legal card.")
    answer = frozenset(legal)
    return Exercise("which_cards_legal", seed, rules, prompt, answer, frozenset([answer]), seat=seat, hand=hand,
                    trick=trick, trick_leader=leader, trump=trump, choices=hand, facts={"category": cat})


def _norm_cards(ex: Exercise, answer: Any) -> frozenset:
    if isinstance(answer, (str, int)):
        answer = [answer] if not (isinstance(answer, str) and "," in answer) else answer.split(",")
    try:
        items = list(answer)
    except TypeError:
        raise ExerciseError(f"{answer!r} is not a set of cards") from None
    return frozenset(parse_card_answer(ex.rules, a) for a in items if not (isinstance(a, str) and not a.strip()))


def _check_legal(ex: Exercise, value: frozenset | None, ok: bool) -> str:
    reason = _cap(legal_reason(ex.rules, ex.trump, ex.seat, ex.hand, ex.trick))
    legal_txt = f"{SEAT_NAMES[ex.seat]} may play {_names(ex.rules, ex.answer)}."
    if ok or value is None:
        return f"{reason} {legal_txt}"
    extra = sorted(value - ex.answer)
    missing = sorted(ex.answer - value)
    bits = []
    if extra:
        bits.append(f"{_names(ex.rules, extra)} {'is' if len(extra) == 1 else 'are'} not allowed")
    if missing:
        bits.append(f"you left out {_names(ex.rules, missing)}")
    return f"{_cap('; '.join(bits))}. {_cap(reason)} {legal_txt}"


def _suit_words(rules: Rules, t, led: int) -> tuple[str, str, str]:
    """The colour led in words for the following-suit rule (rules.md §1.5): (what a player holds to follow, "a green
    card" or "a trump"; the duty to follow; the cards that follow, "every green card" or "every trump")."""
    if led == t.trump:
        return ("a trump", "when trump is led, a player who holds a trump must play one", "every trump")
    colour = _colour(COLOURS[led]).lower()
    return (f"a {colour} card", f"a player who holds a card of the colour led ({colour}) must follow it",
            f"every {colour} card")


def _legal_rule(ex: Exercise, value: frozenset) -> str:
    """The following-suit rule (rules.md §1.5, §3 privileges) that the card set ``value`` broke: how many picked
    cards may not be played and why, how many playable cards were left out and the rule allowing them. Names only
    the cards a rule is about (the bird, the Red 1), never the set of legal cards."""
    r, who = ex.rules, SEAT_NAMES[ex.seat]
    t = trick_tables(r, ex.trump)
    led = t.suit[ex.trick[0]]
    one, duty, every = _suit_words(r, t, led)
    lead_note = (f"{_name(r, ex.trick[0])} was led, and leading it is leading trump; "
                 if r.is_trump_card(ex.trick[0]) else "")
    follows = any(t.suit[c] == led for c in ex.hand)
    extra, missing = sorted(value - ex.answer), sorted(ex.answer - value)
    parts = []
    if extra:
        n = len(extra)
        parts.append(f"{_count_words(n)} you picked may not be played: {lead_note}{who} holds {one}, and {duty}")
        parts += [_not_a_follower(r, c, one) for c in extra if r.is_trump_card(c)]
    if missing:
        left = f"you left out {_count_words(len(missing))} that may be played"
        if not follows:
            parts.append(f"{left}: {lead_note}{who} has no {one[2:]}, and a player who cannot follow the colour led "
                         f"may play any card")
        else:
            parts.append(f"{left}: {_follow_rule(r, t, led, missing, every)}")
    return _cap("; ".join(parts)) + "."


def _count_words(n: int) -> str:
    """"1 card", "3 cards"."""
    return f"{n} card{'' if n == 1 else 's'}"


def _not_a_follower(rules: Rules, card: Card, one: str) -> str:
    """Why the trump card ``card`` (the bird or the Red 1) does not follow a colour led that is not trump (``one``:
    "a green card")."""
    if card == BIRD:
        colour = one.split()[1]
        return (f"{_name(rules, card)} is a trump, not {one}: like any trump it may be played on a {colour} lead "
                f"only by a player with no {colour} card")
    return "the Red 1 is a trump, never a red card, so it cannot follow red"


def _follow_rule(rules: Rules, t, led: int, missing: list[Card], every: str) -> str:
    """The rules that allow the left-out cards ``missing`` when the player can follow: ``every`` card of the colour
    led (the bird and the Red 1 count as trumps), and the cards that may be played at any time (rules.md §3)."""
    reasons = []
    following = [c for c in missing if t.suit[c] == led]
    if following:
        specials = [name for name, c in ((rules.bird_name, BIRD), ("Red 1", RED_ONE))
                    if c in following and rules.is_trump_card(c)]
        note = (f" (the {' and the '.join(specials)} {'counts' if len(specials) == 1 else 'count'} as a trump)"
                if specials else "")
        reasons.append(f"{every} may be played, high or low{note}")
    privileged = [c for c in missing if t.suit[c] != led]
    if privileged:
        reasons.append(f"in {rules.title} {_names(rules, privileged)} may be played at any time, even by a player "
                       f"who could follow")
    return ", and ".join(reasons)


# --------------------------------------------------------------------------- trick_winner
def trick_reason(rules: Rules, trump: str, leader: int, cards: Sequence[Card]) -> str:
    """Why the trick ``cards`` (play order, led by ``leader``) goes to its winner (rules.md §1.5, §3)."""
    t = trick_tables(rules, trump)
    win_i = trick_winner(t, cards)
    winner = (leader + win_i) % 4
    win = cards[win_i]
    who = SEAT_NAMES[winner]
    led = t.suit[cards[0]]
    trumps = [c for c in cards if t.trump_power[c]]
    trump_name = _colour(trump)
    notes = []
    if trumps:
        if led == t.trump:
            text = (f"trump ({trump_name}) was led, so the highest trump wins: "
                    f"{_name(rules, win)} of {who}")
        elif len(trumps) == 1:
            text = (f"{_name(rules, win)} is the only trump ({trump_name}) in the trick, and a trump beats "
                    f"every card of another colour, so {who} wins")
        else:
            text = (f"when trumps ({trump_name}) are played, the highest trump wins: "
                    f"{_name(rules, win)} of {who}")
        if BIRD in cards:
            place = bird_place_text(rules)
            if win == BIRD and rules.bird_place == BIRD_BOTTOM:
                notes.append(f"the {rules.bird_name} is {place} in {rules.title}, but even the lowest trump "
                             f"beats the other colours")
            elif win == BIRD:
                notes.append(f"the {rules.bird_name} is {place} in {rules.title}")
            else:
                notes.append(f"the {rules.bird_name} is only {place} in {rules.title}, so "
                             f"{_name(rules, win)} beats it" if rules.bird_place == BIRD_BOTTOM else
                             f"the {rules.bird_name} is {place} in {rules.title}")
        if rules.red_one and RED_ONE in cards:
            notes.append("the Red 1 is the top trump")
        if rules.order[0] == 1 and any(c.number == 1 for c in trumps if not c.is_bird):
            notes.append(f"the 1 is the highest card of a colour in {rules.title}")
    else:
        led_name = _colour(COLOURS[led])
        text = (f"no trump ({trump_name}) was played, so the highest {led_name.lower()} card (the colour led) "
                f"wins: {_name(rules, win)} of {who}")
        off = [c for c in cards if t.suit[c] != led]
        if off:
            notes.append(f"{_names(rules, off)} cannot win: {'it is' if len(off) == 1 else 'they are'} "
                         f"neither the colour led nor trump")
        if rules.order[0] == 1 and win.number == 1:
            notes.append(f"the 1 is the highest card of a colour in {rules.title}")
    pts = rules.points_of(cards)
    return text + "".join(f"; {n}" for n in notes) + f". The trick's {pts} points go to {TEAM_NAMES[winner & 1]}."


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
    for _ in range(12):
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
    played = ", ".join(f"{SEATS[(leader + i) % 4]}: {short_name(rules, c)}" for i, c in enumerate(cards))
    prompt = (f"{_colour(trump)} is trump. {SEAT_NAMES[leader]} led; the trick is {played}. "
              f"Who wins this trick?")
    return Exercise("trick_winner", seed, rules, prompt, winner, frozenset([winner]), trick=tuple(cards),
                    trick_leader=leader, trump=trump, choices=tuple(range(4)))


def _norm_seat(ex: Exercise, answer: Any) -> int:
    if isinstance(answer, str) and answer.strip().capitalize() in SEAT_NAMES:
        return SEAT_NAMES.index(answer.strip().capitalize())
    try:
        return seat_index(answer.strip() if isinstance(answer, str) else answer)
    except (ValueError, TypeError):
        raise ExerciseError(f"{answer!r} is not a seat (N, E, S or W)") from None


def _check_trick(ex: Exercise, value: int | None, ok: bool) -> str:
    reason = trick_reason(ex.rules, ex.trump, ex.trick_leader, ex.trick)
    reason = reason[0].upper() + reason[1:]
    if ok or value is None:
        return reason
    card = dict((s, c) for s, c in ex.trick_seats)[value]
    return f"{SEAT_NAMES[value]}'s {_name(ex.rules, card)} does not win. {reason}"


def _trick_rule(ex: Exercise, value: int) -> str:
    """Why the card of the picked seat ``value`` does not win the trick (rules.md §1.5, §3 the bird's and the Red
    1's places); never names the winner."""
    r = ex.rules
    t = trick_tables(r, ex.trump)
    card = dict(ex.trick_seats)[value]
    mine = f"{SEAT_NAMES[value]}'s {short_name(r, card)}"
    led = t.suit[ex.trick[0]]
    led_name, trump_name = _colour(COLOURS[led]).lower(), _colour(ex.trump).lower()
    trumps = [c for c in ex.trick if t.trump_power[c]]
    if t.trump_power[card]:
        text = (f"{mine} is a trump, but a higher trump was played: when trumps are played, the highest trump "
                f"wins")
        if BIRD in ex.trick:
            text += f"; in {r.title} the {r.bird_name} is {bird_place_text(r)}"
        if r.red_one and RED_ONE in ex.trick:
            text += "; the Red 1 is the top trump"
        if r.order[0] == 1 and any(c.number == 1 for c in trumps if not c.is_bird):
            text += f"; the 1 is the highest card of a colour in {r.title}"
    elif t.suit[card] == led and trumps:
        text = (f"{mine} follows the colour led ({led_name}), but a trump ({trump_name}) was played on this trick, "
                f"and a trump beats every card of another colour")
    elif t.suit[card] == led:
        text = (f"{mine} follows the colour led ({led_name}), but a higher {led_name} card was played: with no "
                f"trump in the trick, the highest card of the colour led wins")
        if r.order[0] == 1 and any(c.number == 1 and t.suit[c] == led for c in ex.trick):
            text += f"; the 1 is the highest card of a colour in {r.title}"
    else:
        text = (f"{mine} is neither the colour led ({led_name}) nor trump ({trump_name}), so it cannot win the "
                f"trick, however high it is")
    return _cap(text) + "."


# --------------------------------------------------------------------------- score_hand
def score_reason(rules: Rules, bid: int, declarer: int, captured: tuple[int, int], score: tuple[int, int]) -> str:
    """Why the hand scores ``score`` (rules.md §1.7): made or set, bid or captured, defenders' take."""
    team = declarer & 1
    dec, dfn = TEAM_NAMES[team], TEAM_NAMES[1 - team]
    took = captured[team]
    if took >= bid:
        how = ("a made bid scores exactly the bid" if rules.make_score == MAKE_BID
               else "a made bid scores everything the declarers captured")
        first = (f"{dec} bid {bid} and took {took}, so they made it; in {rules.title} {how}: "
                 f"{dec} {score[team]:+d}")
    else:
        first = (f"{dec} bid {bid} but took only {took}, so they are set: they score minus the bid and "
                 f"nothing else: {dec} {score[team]:+d}")
    return f"{first}. The defenders {dfn} always score what they captured: {dfn} {score[1 - team]:+d}."


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
    dec = TEAM_NAMES[team]
    bonus = f" and the {rules.majority_bonus}-point majority bonus" if rules.majority_bonus else ""
    prompt = (f"{SEAT_NAMES[state.declarer]} won the auction with a bid of {amount}, so {dec} are the declarers. "
              f"After the last trick (the nest's {nest_pts} points{bonus} included) N–S captured {state.captured[0]} "
              f"points and E–W {state.captured[1]}. What does each team score for this hand?")
    return Exercise("score_hand", seed, rules, prompt, score, frozenset([score]), bid=amount,
                    declarer=state.declarer, captured=tuple(state.captured), tricks_won=tuple(state.tricks_won),
                    nest_points=nest_pts, last_trick=last, facts={"made": state.made})


def _norm_score(ex: Exercise, answer: Any) -> tuple[int, int]:
    try:
        if isinstance(answer, str):  # "85" is not the pair ("8", "5")
            raise TypeError
        ns, ew = answer
    except (TypeError, ValueError):
        raise ExerciseError(f"{answer!r} is not a score: give two numbers (N–S, E–W)") from None
    return (parse_points(ns), parse_points(ew))


def _check_score(ex: Exercise, value: tuple[int, int] | None, ok: bool) -> str:
    reason = score_reason(ex.rules, ex.bid, ex.declarer, ex.captured, ex.answer)
    reason = reason[0].upper() + reason[1:]
    if ok or value is None:
        return reason
    return f"you wrote N–S {value[0]:+d}, E–W {value[1]:+d}. {reason}"


def _score_rule(ex: Exercise, value: tuple[int, int]) -> str:
    """The scoring rule (rules.md §1.7) behind each team's score in ``value`` (N–S, E–W) that is off; never the
    right scores."""
    r, team = ex.rules, ex.declarer & 1
    dec, dfn = TEAM_NAMES[team], TEAM_NAMES[1 - team]
    made = "scores exactly its bid" if r.make_score == MAKE_BID else "scores everything it captured"
    parts = []
    if value[team] != ex.answer[team]:
        parts.append(f"{dec}'s score is off: compare what {dec} captured with their bid. A declaring team that "
                     f"takes at least its bid makes it and in {r.title} {made}; one that takes less is set and "
                     f"scores minus its bid, whatever it captured")
    if value[1 - team] != ex.answer[1 - team]:
        parts.append(f"{dfn}'s score is off: the defenders always score the points they captured, whether the bid "
                     f"is made or not")
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
    for _ in range(100):
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
        raise ExerciseError(f"{seat!r} is not a seat (N, E, S or W)") from None
    held = set(cards)
    rest = [c for c in rules.deck if c not in held]
    size = rules.hand_size
    hands = [rest[i * size:(i + 1) * size] for i in range(3)]
    hands.insert(first, cards)
    try:
        state = HandState(rules, (first - 1) % 4, hands, rest[3 * size:])
    except ValueError as e:
        raise ExerciseError(f"not a hand of {rules.title}: {e}") from None
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
    who = SEAT_NAMES[seat]
    prompt = (f"You are {who}, first to call in {rules.title} (bids from {rules.bid_min} to {rules.bid_max} in "
              f"steps of {rules.bid_step}; {rules.points_per_hand} points in a hand). How high would you be "
              f"willing to bid with this hand? Pick your top bid, or Pass.")
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
            raise ExerciseError(f"{answer} is not a bid in {ex.rules.title} (bids go from {ex.rules.bid_min} "
                                f"to {ex.rules.bid_max} in steps of {ex.rules.bid_step})")
        return answer
    raise ExerciseError(f"{answer!r} is not a bid or pass")


def _check_bid(ex: Exercise, value: int | str | None, ok: bool) -> str:
    r, f = ex.rules, ex.facts
    est, spread = f["estimate"], f["spread"]
    poor = est - spread
    bids, pass_ok = f["bids"], f["pass_ok"]
    lowest = f"the lowest bid of {r.bid_min}"
    text = (f"This hand is worth about {est} points to its team as declarers with {_colour(f['trump'])} as trump "
            f"({f['trumps']} trumps{', with the nest to help' if r.nest_size else ''}), give or take {spread} "
            f"on how the other cards lie")
    top = f"a top bid of {bids[0]}" + (f" to {bids[-1]}" if len(bids) > 1 else "") if bids else ""
    reach = f"{'not reach' if poor < r.bid_min else 'barely make'} {lowest}"
    if bids and pass_ok and f["category"] == "pass":
        text += (f"; a pass is sensible, since on a poor deal (about {poor}) it would {reach}, and so is {top}, "
                 f"no more than the hand is worth")
    elif bids and pass_ok:
        text += f"; {top} is sensible, and so is a pass: on a poor deal (about {poor}) it would {reach}"
    elif bids:
        text += (f"; {top} is sensible, and a pass gives too much away: even a poor deal (about {poor}) "
                 f"should make {lowest}")
    else:
        text += f"; passing is sensible: even a good deal would hardly reach {lowest}"
    text += (". Declarers who fall short are set and score minus the bid"
             + (f", and a made bid scores only the bid in {r.title}" if r.make_score == MAKE_BID else "") + ".")
    if not ok and value is not None:
        if value == "pass":
            text = ("passing gives the contract away with a hand that should make the lowest bid even on a poor deal. "
                    + text)
        elif not bids or value > bids[-1]:
            text = f"{value} is more than this hand is likely to take. " + text
        else:
            text = f"{value} undersells this hand. " + text
    if f.get("ai"):
        who = f"The AI in {SEAT_NAMES[ex.seat]}'s seat"
        if f.get("ai_open") is None:
            text += f" {who} passes: “{f['ai']}”"
        elif f.get("ai_top") == f["ai_open"]:
            text += f" {who} opens with {f['ai_open']} and would go no higher: “{f['ai']}”"
        else:
            text += (f" {who} opens with {f['ai_open']} and would go on up to {f['ai_top']} if an opponent kept "
                     f"outbidding it: “{f['ai']}”")
    return text


def _bid_rule(ex: Exercise, value: int | str) -> str:
    """What is wrong with the top bid ``value`` ("pass" or an amount) for this hand (rules.md §1.2 bidding, §1.7 a
    set declarer scores minus the bid): too high, too low, or a pass with a hand that should bid; never the hand's
    estimate or an accepted bid."""
    bids = ex.facts["bids"]
    if value == "pass":
        return ("A pass gives the contract away, and this hand is strong enough to bid: even if the other cards lie "
                "badly it should make the lowest bid. Count its long colour (your trump), its high cards and "
                "counters" + (", and the nest's help" if ex.rules.nest_size else "") + "; then bid what you expect "
                "to take.")
    if not bids or value > bids[-1]:
        return (f"{value} is more than this hand is likely to take: declarers who fall short are set and score "
                f"minus the bid, so bid no more than you expect to capture.")
    return (f"{value} undersells this hand: with a strong hand, go on up to about what you expect to take, or the "
            f"opponents may win the contract cheaply.")


# --------------------------------------------------------------------------- count_points
def count_reason(rules: Rules, cards: Iterable[Card]) -> str:
    """The counters among ``cards`` with their values and total (rules.md §2 "counters")."""
    pts = rules.card_points
    counters = [c for c in sorted(cards) if pts[c]]
    total = sum(pts[c] for c in counters)
    listed = " + ".join(f"{_name(rules, c)} {pts[c]}" for c in counters) or "no counters"
    return (f"In {rules.title} {counters_text(rules)}; every other card is worth nothing. "
            f"Here: {listed} = {total} points.")


def count_points(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "How many points are in these cards?" (rules.md §2 counters). Answer: an int (points)."""
    rules = _rules(rules)
    rng = _rng("count_points", seed, rules)
    deck = list(rules.deck)
    size = rng.choice([4, 5, 6, 7, 8])
    cards: list[Card] = []
    for _ in range(50):
        cards = sorted(rng.sample(deck, size))
        if sum(1 for c in cards if rules.card_points[c]) >= 2:
            break
    total = rules.points_of(cards)
    what = "a trick" if size == 4 else "a pile of captured cards"
    prompt = f"These {size} cards are {what}. How many points of counters do they hold in {rules.title}?"
    return Exercise("count_points", seed, rules, prompt, total, frozenset([total]), cards=tuple(cards))


def _norm_int(ex: Exercise, answer: Any) -> int:
    return ex.read_points(answer)


def _check_count(ex: Exercise, value: int | None, ok: bool) -> str:
    reason = count_reason(ex.rules, ex.cards)
    if ok or value is None:
        return reason
    return f"you counted {value}, but these cards hold {ex.answer}. {reason}"


def _count_rule(ex: Exercise, value: int) -> str:
    """Whether the count ``value`` is too high or too low, and what the counters are worth (rules.md §2); never the
    right count."""
    r = ex.rules
    how = "more" if value > ex.answer else "less"
    return (f"{value} is {how} than these cards hold: in {r.title} {counters_text(r)}; every other card is worth "
            f"nothing. Add up only the counters among them.")


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
    """A seeded deal: ``hands`` (N, E, S, W, each sorted), ``nest``, ``dealer``, and each hand's counter points."""

    rules: Rules
    seed: int
    dealer: int
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
    return DealExample(rules, seed, state.dealer, hands, tuple(sorted(state.dealt_nest)),
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
              f"{SEAT_NAMES[seat]} may play {_names(rules, legal)}.")
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
