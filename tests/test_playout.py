"""The fast random-playout path (rookcore.playout) must play exactly the engine's rules.

Every playout is recorded (deal, actions, the legal cards it chose from) and replayed through `HandState`:
each action must be accepted, the playout's legal cards must equal `HandState.legal_cards()` at every play,
and the final score, captured points and tricks must agree.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rookcore.actions import Play
from rookcore.hand import HandState, Phase
from rookcore.playout import (Recorder, playout_from, points_from, random_hand, random_hands,
                              rules_tables)
from rookcore.rules import VARIANTS, get_rules

RULESETS = list(VARIANTS.values()) + [
    get_rules("crowsnest", {"bird": False}),
    get_rules("tournament", {"bird": False}),
    get_rules("1-high-partnership", {"bird_any_time": True}),
    get_rules("red-1", {"red_one_any_time": True}),
    get_rules("crowsnest", {"first_lead": "left-of-declarer"}),
]
IDS = [r.variant + ("+" + ",".join(f"{k}={v}" for k, v in r.options.items()) if r.options else "")
       for r in RULESETS]


def replay(state: HandState, rec: Recorder) -> HandState:
    """Apply the recorded actions to ``state`` (mutated), checking the legal cards at every play."""
    legal = iter(rec.legal)
    for action in rec.actions:
        if type(action) is Play:
            assert sorted(int(c) for c in state.legal_cards()) == [int(c) for c in next(legal)]
        state.apply(action)
    assert next(legal, None) is None
    assert state.is_over
    return state


def check_hand(rules, seed: int, pass_prob: float = 0.5, dealer: int | None = None) -> HandState:
    rng = random.Random(seed)
    dealer = rng.randrange(4) if dealer is None else dealer
    rec = Recorder()
    score = random_hand(rules, rng, dealer, pass_prob=pass_prob, record=rec)
    state = replay(HandState(rules, rec.dealer, rec.hands, rec.nest), rec)
    assert score == state.score()
    assert rec.captured == tuple(state.captured)
    if state.passed_out:
        assert score == (0, 0)
        return state
    assert rec.tricks_won == tuple(state.tricks_won)
    # rules.md §5: the captured points (nest and bonus included) add up to the points per hand
    split = state.tricks_won[0] == state.tricks_won[1]
    assert sum(state.captured) == (rules.counter_total if split else rules.points_per_hand)
    assert len(state.tricks) == rules.hand_size
    return state


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_random_hands_agree_with_handstate(rules):
    played = 0
    for seed in range(150):
        state = check_hand(rules, seed)
        played += not state.passed_out
    assert played > 100


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_auction_extremes(rules):
    # never pass: the bids climb to bid_max, which ends the auction at once
    state = check_hand(rules, 7, pass_prob=0.0)
    assert state.high_bid == rules.bid_max
    # always pass: passed out, no score
    assert check_hand(rules, 7, pass_prob=1.0).passed_out
    assert random_hand(rules, random.Random(1), pass_prob=1.0) == (0, 0)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64), rules=st.sampled_from(RULESETS),
       pass_prob=st.sampled_from([0.0, 0.2, 0.5, 0.8]), dealer=st.integers(0, 3))
def test_random_hand_property(seed, rules, pass_prob, dealer):
    check_hand(rules, seed, pass_prob, dealer)


def fingerprint(s: HandState):
    return (s.phase, s.to_act, tuple(frozenset(h) for h in s.hands), tuple(s.passed), s.high_bid, s.declarer,
            s.discard, s.trump, tuple(s.tricks), tuple(s.trick), s.trick_leader, tuple(s.captured),
            tuple(s.tricks_won), tuple(s.calls), len(s.history))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64), rules=st.sampled_from(RULESETS), cut=st.floats(0, 1),
       pass_prob=st.sampled_from([0.2, 0.5]))
def test_playout_from_any_phase(seed, rules, cut, pass_prob):
    rng = random.Random(seed)
    rec = Recorder()
    random_hand(rules, rng, rng.randrange(4), pass_prob=pass_prob, record=rec)
    state = HandState(rules, rec.dealer, rec.hands, rec.nest)
    for action in rec.actions[:int(cut * len(rec.actions))]:
        state.apply(action)
    before = fingerprint(state)

    rec2 = Recorder()
    score = playout_from(state, random.Random(seed + 1), pass_prob=pass_prob, record=rec2)
    assert fingerprint(state) == before, "playout_from mutated the state"
    finished = replay(state.clone(), rec2)
    assert score == finished.score()
    assert rec2.captured == tuple(finished.captured)

    # the same seed gives the same playout, so points_from sees the same captured points
    points = points_from(state, random.Random(seed + 1), pass_prob=pass_prob)
    assert fingerprint(state) == before
    assert points == tuple(finished.captured)


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_playout_from_every_step(rules):
    rng = random.Random(11)
    rec = Recorder()
    while True:
        random_hand(rules, rng, 0, record=rec)
        if rec.captured != (0, 0):
            break
        rec = Recorder()
    state = HandState(rules, rec.dealer, rec.hands, rec.nest)
    phases = set()
    for i, action in enumerate(rec.actions + [None]):
        phases.add(state.phase)
        before = fingerprint(state)
        rec2 = Recorder()
        score = playout_from(state, random.Random(i), record=rec2)
        assert fingerprint(state) == before
        assert score == replay(state.clone(), rec2).score()
        if action is not None:
            state.apply(action)
    expected = {Phase.AUCTION, Phase.TRUMP, Phase.PLAY, Phase.DONE} | ({Phase.DISCARD} if rules.nest_size else set())
    assert phases == expected
    # a finished state returns its own score
    assert playout_from(state, random.Random(0)) == state.score()
    assert points_from(state, random.Random(0)) == tuple(state.captured)


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_random_hands_redeal_by_the_same_dealer(rules):
    # rules.md §1.2: after a pass-out the same dealer redeals; §1.8: after a scored hand the deal passes left
    rng = random.Random(11)
    dealer, expected, passed = 0, [], 0
    for _ in range(60):
        score = random_hand(rules, rng, dealer, pass_prob=0.6)
        expected.append(score)
        if score == (0, 0):  # a played hand never scores (0, 0): the declarer scores the bid or minus it
            passed += 1
        else:
            dealer = (dealer + 1) & 3
    assert passed > 5
    assert random_hands(rules, 60, seed=11, pass_prob=0.6) == expected


def test_random_hands_deterministic_and_sane():
    for rules in RULESETS:
        a = random_hands(rules, 300, seed=5)
        assert a == random_hands(rules, 300, seed=5)
        assert len(a) == 300
        assert a != random_hands(rules, 300, seed=6)
        top = rules.points_per_hand
        for ns, ew in a:
            assert -rules.bid_max <= ns <= top and -rules.bid_max <= ew <= top
        assert rules_tables(rules) is rules_tables(rules)


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_fast_loop_choice_sets(rules):
    """The unrolled trick loop's choice sets (not only the recorder's) are exactly HandState's legal cards:
    from a state at the start of a trick, many playouts must lead every card of the hand and, after each lead,
    follow with exactly the legal cards (fixed seeds, so the test is deterministic)."""
    rng = random.Random(3)
    checked = 0
    for _ in range(3):
        rec = Recorder()
        while random_hand(rules, rng, 0, record=rec) == (0, 0):
            rec = Recorder()
        state = HandState(rules, rec.dealer, rec.hands, rec.nest)
        plays = [i for i, a in enumerate(rec.actions) if type(a) is Play]
        stop = plays[4 * rng.randrange(rules.hand_size - 1)]  # the start of a trick (not the last)
        for action in rec.actions[:stop]:
            state.apply(action)
        assert state.phase is Phase.PLAY and not state.trick
        follows: dict[int, list] = {}
        for seed in range(2000):
            r2 = Recorder()
            playout_from(state, random.Random(seed), record=r2)
            follows.setdefault(int(r2.actions[0].card), []).append(int(r2.actions[1].card))
        assert set(follows) == {int(c) for c in state.legal_cards()}
        for lead, seen in follows.items():
            after = state.clone()
            after.apply(Play(lead))
            legal = {int(c) for c in after.legal_cards()}
            assert set(seen) <= legal
            if len(seen) >= 150:  # enough samples to see every legal card (fixed seeds: deterministic)
                assert set(seen) == legal
                checked += 1
    assert checked >= 5
