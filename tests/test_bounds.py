"""Proven answers without exact solves (`rookcore.analysis.bounds`, `rookcore.analysis.budget`) against brute force
and the exact analysis: every proven bracket holds the exact value, every decided question and mark agrees with it.

End positions as in test_dd (seeded deals at the first lead, random cards until 3–4 tricks are left), fixed seeds of
every rule set and hypothesis-generated ones; whole records analysed with a budget (and with the exact tail cut to
make every question phase run) against the exact analysis of the same record.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from rookcore import records
from rookcore.actions import PLAYS
from rookcore.hand import Phase
from rookcore.records import HandRecord
from rookcore.rules import VARIANTS, get_rules
from rookcore.analysis import SearchTimeout, Solver, analyze_record
from rookcore.analysis import budget as budget_mod
from rookcore.analysis.bench import play_ready
from rookcore.analysis import bounds
from rookcore.analysis.bounds import Position, Prover, bid_question, bid_threshold_key, outcomes

from test_dd import IDS, RULE_SETS, brute, brute_cards, end_position, value_scale


def brute_value(st):
    """(scalar value on the solver's scale inside the search, (NS, EW)) of ``st`` by plain minimax: NS − EW, or
    under the Partnership tie-break 32 × (NS − EW) + the trick difference itself (`DDResult.value` keeps only its
    sign, the class's representative; the null-window tests see the difference)."""
    (points, tricks), pair = brute(st)
    if value_scale(st.rules, 1, 0) == 32:
        return 32 * points + tricks, pair
    return points, pair


def generated_position(name, seed, left, extra):
    """(a play-phase position of rule set ``name``: deal ``seed`` at its first lead, then random cards until
    ``left`` tricks are left and ``extra`` cards of the next are played; the random generator used, to go on)."""
    rules = get_rules(name)
    rng = random.Random(seed)
    st = play_ready(rules, seed, seed % 4)
    target = (rules.hand_size - left) * 4 + extra
    while len(st.tricks) * 4 + len(st.trick) < target:
        st.apply(PLAYS[rng.choice(st.legal_cards())])
    return st, rng


def check_position(st, rng):
    """Every question on one end position against brute force."""
    value, pair = brute_value(st)
    prover = Prover(Solver(threads=1 + rng.randrange(2)))
    pos = Position(st)
    outs = pos.possible()
    assert any(o.lo <= value <= o.hi and o.pair == pair for o in outs)
    key = bid_threshold_key(st)
    assert prover.decide(pos, key) == key(pair)
    assert pos.lo <= value <= pos.hi
    for _ in range(4):  # tests at random thresholds: answers and brackets
        t = rng.choice(outs).lo + rng.choice((0, 0, 1, -1))
        assert prover.test(pos, t) == (value >= t)
        assert pos.lo <= value <= pos.hi
    assert prover.solve_exact(pos) == pair
    want = sorted(int(c) for c, (_k, p) in brute_cards(st).items() if p == pair)
    assert prover.best_cards(pos) == want
    for c in st.legal_cards():  # every child's proven bracket holds its exact value
        cst = st.clone()
        cst.apply(PLAYS[c])
        cv, _ = brute_value(cst)
        root = prover.solver._root(st)
        lo, hi = pos.child(root.runs.get(int(c), int(c)))
        assert lo <= cv <= hi, (c, lo, cv, hi)


@pytest.mark.parametrize("name,options", RULE_SETS, ids=IDS)
def test_questions_match_brute_force(name, options):
    rules = get_rules(name, options)
    for seed in range(8):
        st = end_position(rules, 5000 + seed, 4 if seed % 4 == 0 else 3)
        check_position(st, random.Random(seed))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st_.sampled_from(sorted(VARIANTS)), seed=st_.integers(0, 10**6), left=st_.integers(2, 3),
       extra=st_.integers(0, 3))
def test_questions_match_brute_force_on_generated_positions(name, seed, left, extra):
    st, rng = generated_position(name, seed, left, extra)
    check_position(st, rng)


def test_outcomes_cover_every_final_score():
    for rules in VARIANTS.values():
        outs = outcomes(rules)
        assert all(a.hi < b.lo for a, b in zip(outs, outs[1:]))
        for seed in range(3):  # random hands end inside an outcome with their (NS, EW)
            st = play_ready(rules, seed)
            rng = random.Random(seed)
            while st.phase is Phase.PLAY:
                st.apply(PLAYS[rng.choice(st.legal_cards())])
            v = Position(st).lo
            assert [o.pair for o in outs if o.lo <= v <= o.hi] == [tuple(st.captured)]


def synthetic_record(rules, seed, left):
    """A whole random hand's record (random cards from a seeded first lead)."""
    st = end_position(rules, seed, left)
    rng = random.Random(seed)
    while st.phase is Phase.PLAY:
        st.apply(PLAYS[rng.choice(st.legal_cards())])
    return records.loads(records.dumps(HandRecord.from_state(st)))


def check_against_exact(budgeted: dict, exact: dict) -> None:
    """Exact entries equal the exact analysis' entries; the others' ranges hold them and their marks agree."""
    assert len(budgeted["cards"]) == len(exact["cards"])
    for b, e in zip(budgeted["cards"], exact["cards"]):
        if b.get("exact", True):
            assert b == e
        else:
            assert b["exact"] is False and b["best"] is None and b["value"] is None and b["loss"] is None
            assert b["lo"] <= e["value"] <= b["hi"] and b["best_lo"] <= e["best"] <= b["best_hi"]
            assert b["mark"] in (None, e["mark"])
    if budgeted["start"] is not None:
        assert budgeted["start"] == exact["start"]
    else:
        for team in "NS", "EW":
            lo, hi = budgeted["start_range"][team]
            assert lo <= exact["start"][team] <= hi


@pytest.mark.parametrize("name,options", RULE_SETS, ids=IDS)
@pytest.mark.parametrize("tail", [0, 1])
def test_budgeted_analysis_matches_the_exact_one(name, options, tail, monkeypatch):
    """The last 4 tricks of random hands, with the exact tail cut to ``tail`` tricks so that the marks, the range
    and the bisection phases all run; a generous budget gives the exact report, byte for byte."""
    monkeypatch.setattr(budget_mod, "EXACT_TRICKS", tail)
    rules = get_rules(name, options)
    for seed in range(3):
        rec = synthetic_record(rules, 7000 + seed, 4)
        first = rules.hand_size - 3
        exact = analyze_record(rec, question_threshold=5, first_trick=first)
        full = analyze_record(rec, question_threshold=5, first_trick=first, budget=60)
        assert full == exact
        assert json.dumps(full) == json.dumps(exact)


@pytest.mark.parametrize("name", ["buckeye", "partnership", "dixie"])
def test_budget_cut_short_keeps_proven_facts(name, monkeypatch):
    """Budgets too short to finish: whatever the report says is proven (ranges hold the exact values, marks agree)."""
    monkeypatch.setattr(budget_mod, "EXACT_TRICKS", 1)
    rules = get_rules(name)
    rec = synthetic_record(rules, 7100, 5)
    first = rules.hand_size - 4
    exact = analyze_record(rec, first_trick=first)
    for budget in (0.001, 0.01, 0.05):
        got = analyze_record(rec, first_trick=first, budget=budget)
        check_against_exact(got, exact)


def test_progress_shows_the_proven_cards_and_can_stop():
    rules = get_rules("crowsnest")
    rec = synthetic_record(rules, 7200, 9)
    seen = []

    def progress(done, total, cards):
        assert done == len(cards) and total == 36
        assert all(c["mark"] is not None for c in cards)
        seen.append(done)

    analyze_record(rec, budget=60, progress=progress)
    assert seen and seen[-1] == 36

    def stop(done, total, cards):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyze_record(rec, budget=60, progress=stop)


def test_bad_budget():
    rec = synthetic_record(get_rules("crowsnest"), 7300, 3)
    for bad in (0, -1.0):
        with pytest.raises(ValueError, match="budget"):
            analyze_record(rec, budget=bad)


def test_deadline_stops_a_long_search_and_the_solver_searches_again():
    st = play_ready(get_rules("dixie"), 0)
    solver = Solver()
    solver.set_deadline(0.2)
    t0 = time.monotonic()
    with pytest.raises(SearchTimeout):
        solver.solve(st)
    assert time.monotonic() - t0 < 5
    with pytest.raises(SearchTimeout):  # until a new deadline
        solver.solve(st)
    solver.set_deadline(None)
    end = st.clone()
    while len(end.tricks) < 10:
        end.apply(PLAYS[end.legal_cards()[0]])
    assert solver.solve(end).ns == Solver().solve(end).ns


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rookcore", "analyze", *args], capture_output=True, text=True,
                          timeout=300)


def test_cli_budget(tmp_path):
    path = tmp_path / "hand.json"
    rec = synthetic_record(get_rules("buckeye"), 7400, 9)
    path.write_text(records.dumps(rec))
    exact = run_cli(str(path), "--budget", "none", "--from-trick", "7")
    budgeted = run_cli(str(path), "--from-trick", "7")
    assert exact.returncode == budgeted.returncode == 0
    assert exact.stdout == budgeted.stdout
    short = run_cli(str(path), "--budget", "0.001")
    assert short.returncode == 0, short.stderr
    check_against_exact(json.loads(short.stdout), analyze_record(rec))
    bad = run_cli(str(path), "--budget", "0")
    assert bad.returncode == 2 and "--budget" in bad.stderr


@pytest.mark.parametrize("name,options", RULE_SETS, ids=IDS)
@pytest.mark.parametrize("threshold", [5, 10, 20])
def test_proven_marks_agree_with_exact_values(name, options, threshold, monkeypatch):
    """The marks phase alone (no exact values of the positions it judges): every card's mark is proven, and it
    is the exact analysis' mark; the ranges hold the exact values."""
    monkeypatch.setattr(budget_mod, "EXACT_TRICKS", 0)
    rules = get_rules(name, options)
    for seed in range(3):
        rec = synthetic_record(rules, 7500 + seed, 4)
        first = rules.hand_size - 3
        exact = analyze_record(rec, question_threshold=threshold, first_trick=first)
        hand = budget_mod._Hand(rec, Solver(), first, threshold, None)
        assert hand.exact_tail() == len(hand.todo) - 1
        for j in range(len(hand.todo) - 1, -1, -1):
            hand.mark(j)
        got = hand.report()
        assert [c["mark"] for c in got["cards"]] == [c["mark"] for c in exact["cards"]]
        check_against_exact(got, exact)


def test_review_of_a_budgeted_analysis_names_proven_ranges():
    from rookcore.annotations import review

    rec = synthetic_record(get_rules("crowsnest"), 7600, 9)
    analysis = analyze_record(rec, budget=60)
    card = dict(analysis["cards"][0], best=None, value=None, loss=None, best_cards=[], exact=False, lo=0, hi=120,
                best_lo=40, best_hi=60, mark="?")
    items = review(rec, seat=card["seat"], analysis={**analysis, "cards": [card]})
    assert len(items) == 1 and items[0]["better"] == [] and "between 40 and 60" in items[0]["text"]
    card["mark"] = ""
    assert review(rec, seat=card["seat"], analysis={**analysis, "cards": [card]}) == []


@pytest.mark.parametrize("name,options", RULE_SETS, ids=IDS)
def test_auction_judged_as_brute_force_says(name, options):
    from rookcore.analysis import judge_auction

    rules = get_rules(name, options)
    bids = list(range(rules.bid_min, rules.bid_max + 1, rules.bid_step))
    for seed in range(4):
        st = end_position(rules, 5100 + seed, 3)
        team = st.declarer & 1
        best = brute_declarer(st, team)  # the two-outcome game: the declaring team playing for its own points
        got = judge_auction(st, Solver(threads=1))
        want = max((b for b in bids if b <= best), default=None)
        assert got == {"bid": st.high_bid, "team": team, "makeable": best >= st.high_bid,
                       "highest_makeable": want}


# ----- the bid question: the two-outcome game -------------------------------------------------------------------
def brute_declarer(st, team):
    """The declaring team's (``team``) final captured points by plain minimax: it maximises them, the defenders
    minimise them (nest and majority bonus as `HandState` counts them: Partnership's 7–7 pays no bonus)."""
    if st.phase is Phase.DONE:
        return st.captured[team]
    vals = []
    for c in st.legal_cards():
        st.apply(PLAYS[c])
        vals.append(brute_declarer(st, team))
        st.undo()
    return max(vals) if st.to_act % 2 == team else min(vals)


def check_bid_question(st, rng):
    """`Prover.reaches` at several bids (and `bid_question` at the bid) against brute force, with the core's
    declaring-team objective where `bounds.two_outcome_apart` says so (a test may patch it to force that objective
    on every rule set); returns the brute-force points of the declaring team."""
    team = st.declarer & 1
    best = brute_declarer(st, team)
    prover = Prover(Solver(threads=1 + rng.randrange(2)))
    pos = Position(st)
    total = st.rules.counter_total + st.rules.majority_bonus
    bids = [st.high_bid, best, best + 1, best - 5, best + 5] + [rng.randrange(0, total + 2) for _ in range(3)]
    for b in bids:
        assert prover.reaches(pos, b) == (best >= b), (b, best, pos.decl)
        if bounds.two_outcome_apart(st.rules):
            assert pos.decl[0] <= best <= pos.decl[1]
    if bounds.two_outcome_apart(st.rules):  # the core's objective answered: the tests at best, best + 1 pin it
        assert pos.decl == [best, best], (pos.decl, best)
    assert bid_question(st, Solver(threads=1)) == (best >= st.high_bid)
    return best


@pytest.mark.parametrize("force_core", [False, True])
@pytest.mark.parametrize("name,options", RULE_SETS, ids=IDS)
def test_bid_question_is_the_two_outcome_game(name, options, force_core, monkeypatch):
    """The bid question equals exhaustive minimax of "the declaring team's points ≥ the bid" (the declaring team
    maximising its own points), with the core's two-outcome objective (``force_core``, every rule set) and as asked
    by default."""
    if force_core:
        monkeypatch.setattr(bounds, "two_outcome_apart", lambda rules: True)
    rules = get_rules(name, options)
    for seed in range(8):
        st = end_position(rules, 5200 + seed, 4 if seed % 4 == 0 else 3)
        check_bid_question(st, random.Random(seed))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st_.sampled_from(sorted(VARIANTS)), seed=st_.integers(0, 10**6), left=st_.integers(2, 3),
       extra=st_.integers(0, 3), force_core=st_.booleans())
def test_bid_question_on_generated_positions(name, seed, left, extra, force_core):
    st, rng = generated_position(name, seed, left, extra)
    with pytest.MonkeyPatch.context() as mp:  # not the function-scoped fixture: hypothesis runs many examples
        if force_core:
            mp.setattr(bounds, "two_outcome_apart", lambda rules: True)
        check_bid_question(st, rng)


def test_partnership_bid_question_differs_from_the_points_objective():
    """Under the tie rule the two games part: the defenders can hold the declaring team below its share of the
    points objective's outcome by splitting the tricks 7–7 (no bonus), or the declaring team can take more by
    playing for its own points. Seeded positions (found by a search over seeds 9000–9600, 4 tricks left) where
    brute force says they part; the bid question follows the two-outcome game there."""
    from rookcore.analysis import judge_auction

    rules = get_rules("partnership")
    for seed in (9020, 9293, 9316):
        st = end_position(rules, seed, 4)
        team = st.declarer & 1
        best = brute_declarer(st, team)
        _value, pair = brute_value(st)
        assert pair[team] != best
        prover, pos = Prover(Solver(threads=1)), Position(st)
        for b in sorted({best, best + 1, pair[team], pair[team] + 1}):
            assert prover.reaches(pos, b) == (best >= b)
        bids = range(rules.bid_min, rules.bid_max + 1, rules.bid_step)
        assert judge_auction(st, Solver(threads=1))["highest_makeable"] == max((b for b in bids if b <= best),
                                                                               default=None)


@pytest.mark.parametrize("seed", [9804, 10454])
def test_marks_follow_the_two_outcome_game(seed, monkeypatch):
    """``??`` marks a card that changes the bid question's answer (the two-outcome game, brute-forced), in the exact
    analysis and in the budgeted one's marks phase, on Partnership hands with a position where the two games part
    at the bid (seeds found by a search over 9000–11000)."""
    from rookcore.analysis.budget import card_mark

    rules = get_rules("partnership")
    rec = synthetic_record(rules, seed, 4)
    first = rules.hand_size - 3
    exact = analyze_record(rec, question_threshold=10, first_trick=first)
    plays = [(a, s) for a, s in zip(rec.actions(), rec.states()) if s.phase is Phase.PLAY
             and len(s.tricks) + 1 >= first]
    want, parted = [], 0
    for (action, st), entry in zip(plays, exact["cards"]):
        team = st.declarer & 1
        after = st.clone()
        after.apply(action)
        made_b = brute_declarer(st.clone(), team) >= st.high_bid
        made_a = brute_declarer(after, team) >= st.high_bid
        parted += made_b != (brute_value(st.clone())[1][team] >= st.high_bid)
        want.append(card_mark(made_b, made_a, st.to_act & 1 == team, entry["loss"] >= 10))
    assert parted  # the points objective's outcome would answer the bid question otherwise at some card
    assert [c["mark"] for c in exact["cards"]] == want
    monkeypatch.setattr(budget_mod, "EXACT_TRICKS", 0)
    hand = budget_mod._Hand(rec, Solver(), first, 10, None)
    hand.first_question()
    for j in range(len(hand.todo) - 1, -1, -1):
        hand.mark(j)
    assert [c["mark"] for c in hand.report()["cards"]] == want


def test_the_first_positions_bid_question_comes_first(monkeypatch):
    """The budgeted analysis asks the bid question at the first analysed position before anything else; when that
    runs out of its share of the budget (simulated: the first search times out), the other cards' marks are still
    proven, and the first card's mark too (the marks phase asks it again)."""
    rules = get_rules("partnership")
    rec = synthetic_record(rules, 9804, 4)
    first = rules.hand_size - 3
    exact = analyze_record(rec, first_trick=first)
    asked = []
    real = Prover.reaches

    def spy(self, pos, bid):
        asked.append(pos.state)
        if len(asked) == 1 and timeout_first:
            raise SearchTimeout("simulated: the first question's share of the budget ran out")
        return real(self, pos, bid)

    monkeypatch.setattr(Prover, "reaches", spy)
    monkeypatch.setattr(budget_mod, "EXACT_TRICKS", 1)
    for timeout_first in (False, True):
        asked.clear()
        got = analyze_record(rec, first_trick=first, budget=60)
        assert len(asked[0].tricks) == first - 1 and not asked[0].trick
        assert got == exact


@pytest.mark.parametrize("seed", [9804, 10454, 9020])
def test_partnership_s_auction_judgement_follows_the_bid_question_s_own_answer(seed):
    """Under Partnership's tie rule the app's auction judgement (`annotations.auction_facts`) says the two-outcome
    answer (``start_made``, brute-forced here) and never what the points of the solver's best play would say; the
    report's fields stay exactly as documented, so without that answer nothing is said of the bid."""
    from rookcore import annotations

    rules = get_rules("partnership")
    rec = synthetic_record(rules, seed, 4)
    first = rules.hand_size - 3
    st = next(s for s in rec.states() if s.phase is Phase.PLAY and len(s.tricks) + 1 >= first)
    want = brute_declarer(st.clone(), st.declarer & 1) >= st.high_bid
    for report in (analyze_record(rec, first_trick=first), analyze_record(rec, first_trick=first, budget=60)):
        assert set(report) == {"variant", "start", "cards"}
        assert annotations.auction_facts(rec, report)["makeable"] is None
        for made in (want, not want):
            facts = annotations.auction_facts(rec, dict(report, start_made=made))
            assert facts["makeable"] is made
            lo, hi = facts["highest"]
            assert (lo == st.high_bid) if made else (lo is None and (hi is None or hi < st.high_bid))
