"""Live examples the lessons draw, each from its own seeded stream (a worked example is not an exercise too): a deal
(`example_deal`), a trick and its winner (`example_trick`, `worked_trick` for a given trick, rules.md §4), which
cards may be played (`example_legal`), a whole hand played and scored (`example_hand`) and the rule-based AI's
decisions on a hand (`ai_walkthrough`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..cards import COLOUR_NAMES, COLOURS, Card
from ..hand import HandState, Phase, seat_index, trick_tables, trick_winner
from ..i18n import _
from ..rules import Rules
from .deals import _hand_in_play, _random_playout, _rng, _rules
from .exercise import ExerciseError, parse_card_answer
from .legal import LEGAL_KINDS, _sample_legal, legal_reason
from .scoring import score_reason
from .tricks import _sample_trick, trick_reason
from .wording import _cap, _names, seat_full_name


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
            from ..ai import RuleBasedPlayer, play_hand  # noqa: PLC0415
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
    from ..ai import RuleBasedPlayer, describe_action  # noqa: PLC0415

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
