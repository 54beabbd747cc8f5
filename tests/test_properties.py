"""Property tests of rules.md §5 over random legal play, for every rule set and option.

The legality oracle here is written independently of the engine (from rules.md §1.5 and §3).
"""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rookcore import Discard, HandState, Phase, Play, get_rules
from rookcore.cards import Card

CONFIGS = [
    ("crowsnest", None, 1000), ("crowsnest", {"bird": False}, 500),
    ("crowsnest", {"first_lead": "left-of-declarer"}, 500),
    ("tournament", None, 500), ("tournament", {"bird": False}, 500),
    ("partnership", None, 500), ("1-high-partnership", None, 500),
    ("1-high-partnership", {"bird_any_time": True}, 500),
    ("red-1", None, 500), ("red-1", {"red_one_any_time": True}, 500), ("buckeye", None, 500),
    ("buckeye", {"bid_min": 70}, 500), ("dixie", None, 500),
]


def effective_suit(rules, trump, card):
    if card.is_bird or (rules.red_one and card == Card.parse("R1")):
        return trump
    return card.colour


def oracle_legal(rules, trump, hand, trick):
    """Cards legal for a seat holding ``hand`` on ``trick`` (rules.md §1.5, §3)."""
    if not trick:
        return set(hand)
    led = effective_suit(rules, trump, trick[0])
    follow = {c for c in hand if effective_suit(rules, trump, c) == led}
    if not follow:
        return set(hand)
    privileged = set()
    for c in hand:
        if c.is_bird and rules.bird_any_time:
            privileged.add(c)
        if rules.red_one and rules.red_one_any_time and c == Card.parse("R1"):
            privileged.add(c)
    return follow | privileged


def random_hand(rules, seed, dealer):
    rng = random.Random(seed)
    state = HandState.deal(rules, dealer, seed)
    while not state.is_over:
        if state.phase is Phase.DISCARD:
            pool = state.discard_candidates()
            assert len(pool) == rules.hand_size + rules.nest_size
            state.apply(Discard(rng.sample(pool, rules.nest_size)))
        elif state.phase is Phase.PLAY:
            hand = set(state.hands[state.to_act])
            legal = state.legal_cards()
            assert set(legal) == oracle_legal(rules, state.trump, hand, state.trick)
            state.apply(Play(rng.choice(legal)))
        else:
            actions = state.legal_actions()
            weights = [3 if i == 0 else 1 for i in range(len(actions))]
            state.apply(rng.choices(actions, weights)[0])
    return state


def check_invariants(rules, state):
    dealt = [c for h in state.dealt for c in h] + list(state.dealt_nest)
    assert sorted(dealt) == sorted(rules.deck)
    if state.passed_out:
        assert state.score() == (0, 0)
        return
    if rules.nest_size:
        hand_plus_nest = state.dealt[state.declarer] | state.dealt_nest
        assert len(state.discard) == rules.nest_size and state.discard <= hand_plus_nest
    first = (state.dealer + 1) % 4 if rules.first_lead == "left-of-dealer" else (state.declarer + 1) % 4
    leader = first
    played = []
    for trick in state.tricks:
        assert trick.leader == leader and len(trick.cards) == 4
        played.extend(trick.cards)
        leader = trick.winner
    assert sorted(played) == sorted(c for s in range(4) for c in
                                    (state.dealt[s] | (state.dealt_nest if s == state.declarer else frozenset()))
                                    if c not in (state.discard or ()))
    total = sum(state.captured)
    split = state.tricks_won[0] == state.tricks_won[1]
    assert total == (rules.counter_total if split else rules.points_per_hand)


@pytest.mark.parametrize("variant,options,count", CONFIGS, ids=[f"{v}-{o}" for v, o, _ in CONFIGS])
def test_invariants_over_random_legal_play(variant, options, count):
    rules = get_rules(variant, options)

    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**40), dealer=st.integers(0, 3))
    def run(seed, dealer):
        check_invariants(rules, random_hand(rules, seed, dealer))

    run()


@given(seed=st.integers(0, 2**40))
@settings(max_examples=200, deadline=None, database=None)
def test_undo_restores_every_step_and_clone_is_independent(seed):
    rules = get_rules("crowsnest")
    state = random_hand(rules, seed, seed % 4)
    snapshots = []
    replay = HandState(rules, state.dealer, state.dealt, state.dealt_nest)
    for _seat, action, _ in list(state.history):
        snapshots.append((replay.phase, replay.to_act, [set(h) for h in replay.hands], list(replay.captured)))
        replay.apply(action)
    copy = state.clone()
    while copy.history:
        copy.undo()
        phase, to_act, hands, captured = snapshots[len(copy.history)]
        assert (copy.phase, copy.to_act, copy.hands, copy.captured) == (phase, to_act, hands, captured)
    assert state.is_over and len(state.history) == len(snapshots)
