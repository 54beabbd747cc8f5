"""A seeded deal brought to its first lead by a fixed, simple policy: positions to search for the solver's warm-up
(`dd.warm_up`), its timing (`bench`), the benchmarks and the tests.

The first seat to call bids the minimum and the others pass; the declarer puts back its lowest cards (fewest
points, then lowest rank) and names its longest colour as trump.
"""
from __future__ import annotations

from ..actions import PASS, Discard, NameTrump, bid
from ..cards import COLOURS
from ..hand import HandState, Phase
from ..rules import Rules

__all__ = ["play_ready"]


def play_ready(rules: Rules, seed: int, dealer: int = 0) -> HandState:
    """The deal of ``seed`` (`HandState.deal(rules, dealer, seed)`) brought to the first lead by the simple policy of
    the module doc; returns the `HandState` in the play phase. Raises what `HandState.deal` raises for a bad
    dealer."""
    st = HandState.deal(rules, dealer, seed)
    st.apply(bid(rules.bid_min))
    while st.phase is Phase.AUCTION:
        st.apply(PASS)
    decl = st.declarer
    if st.phase is Phase.DISCARD:
        def low(c):
            rank = len(rules.order) - rules.order.index(c.number) if c.number in rules.order and not c.is_bird else 99
            return (rules.card_points[c], rank)
        st.apply(Discard(sorted(st.hands[decl], key=low)[:rules.nest_size]))
    counts = {col: sum(1 for c in st.hands[decl] if c.colour == col) for col in COLOURS}
    st.apply(NameTrump(max(COLOURS, key=lambda col: counts[col])))
    return st
