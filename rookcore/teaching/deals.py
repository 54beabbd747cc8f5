"""Seeded deals played to the position an exercise or example shows (rules.md §1.1–§1.6): the rule set asked for,
each exercise kind's own random stream, a fixed auction, the nest put back and the longest colour named trump, and
random legal cards played from there.
"""
from __future__ import annotations

import random
from typing import Iterable

from ..actions import PASS, Discard, NameTrump, Play, bid as make_bid
from ..cards import COLOURS, Card
from ..hand import HandState, Phase
from ..rules import Rules, get_rules


def _rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return get_rules()
    if isinstance(rules, str):
        return get_rules(rules)
    return rules


def _rng(kind: str, seed: int, rules: Rules | None = None) -> random.Random:
    variant = rules.variant if rules is not None else ""
    return random.Random(f"rook-teaching/{kind}/{variant}/{int(seed)}")


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
