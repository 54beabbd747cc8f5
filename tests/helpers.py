"""Test helpers: build hands with chosen cards and bring them to the play phase."""
from __future__ import annotations

import random

from rookcore import PASS, Discard, HandState, NameTrump, bid
from rookcore.rules import Rules


def deal_with(rules: Rules, fixed: dict[int, list[str]], dealer: int = 3, seed: int = 0,
              nest: list[str] | None = None) -> HandState:
    """A deal where seat s holds the cards ``fixed[s]`` (strings); the other cards are shuffled in."""
    chosen = {s: [rules.parse_card(c) for c in cards] for s, cards in fixed.items()}
    nest_cards = [rules.parse_card(c) for c in nest or []]
    used = {c for cards in chosen.values() for c in cards} | set(nest_cards)
    rest = [c for c in rules.deck if c not in used]
    random.Random(seed).shuffle(rest)
    hands = []
    for s in range(4):
        cards = list(chosen.get(s, []))
        while len(cards) < rules.hand_size:
            cards.append(rest.pop())
        hands.append(cards)
    while len(nest_cards) < rules.nest_size:
        nest_cards.append(rest.pop())
    assert not rest
    return HandState(rules, dealer, hands, nest_cards)


def to_play(state: HandState, trump: str, amount: int | None = None) -> HandState:
    """Auction (first seat bids, the others pass), the nest put back unchanged, trump named."""
    state.apply(bid(amount or state.rules.bid_min))
    for _ in range(3):
        state.apply(PASS)
    if state.rules.nest_size:
        state.apply(Discard(state.dealt_nest))
    state.apply(NameTrump(trump))
    return state
