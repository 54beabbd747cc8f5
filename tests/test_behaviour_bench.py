"""benchmarks/ai_behaviour.py: its counts come from the hand records it plays, and its definitions (a sure winner
overtaken, counters given to the opponents) count what they say on real engine positions."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from rookcore import HandState, get_rules, records
from rookcore.ai import RuleBasedPlayer
from rookcore.hand import Phase, hand_score, trick_winner


def _module():
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "ai_behaviour.py"
    spec = importlib.util.spec_from_file_location("ai_behaviour_bench", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = _module()


def _rule_based_states(variant, seeds):
    """Every state (before the seat to act plays) of rule-based self-play hands, in the play phase."""
    rules = get_rules(variant)
    for seed in seeds:
        state = HandState.deal(rules, seed % 4, seed)
        players = [RuleBasedPlayer(seed=s) for s in range(4)]
        while not state.is_over:
            seat = state.to_act
            if state.phase is Phase.PLAY:
                yield state.clone(), seat
            state.apply(players[seat].decide(state.observation(seat)).action)


def _heads(state, card):
    return trick_winner(state.tables, list(state.trick) + [card]) == len(state.trick)


def test_a_last_seat_overtaking_its_partners_winning_card_is_counted_and_a_low_card_is_not():
    found = next((s, seat) for s, seat in _rule_based_states("crowsnest", range(40))
                 if len(s.trick) == 3 and (s.trick_leader + trick_winner(s.tables, s.trick)) % 4 == (seat + 2) % 4
                 and any(_heads(s, c) for c in s.legal_cards()) and not all(_heads(s, c) for c in s.legal_cards()))
    state, seat = found
    assert bench.sure_winner(state, seat)  # the last seat: nobody can beat the partner after it
    over = next(c for c in state.legal_cards() if _heads(state, c))
    under = next(c for c in state.legal_cards() if not _heads(state, c))
    partner = (seat + 2) % 4
    f = bench.play_facts(state, seat, over, partner)
    assert (f.sure_choices, f.overtakes, f.forced_overtakes) == (1, 1, 0)
    f = bench.play_facts(state, seat, under, partner)
    assert (f.sure_choices, f.overtakes) == (1, 0)
    assert f.gift_choices == 0  # its own side takes the trick: nothing is given


def test_a_partner_card_an_unseen_trump_could_beat_is_not_sure():
    """Third to play, the partner winning with a side card while the last opponent may still hold a trump it has
    not shown void in: not a sure winner."""
    found = None
    for state, seat in _rule_based_states("crowsnest", range(40)):
        if len(state.trick) != 2 or len(state.tricks) > 1:
            continue
        best = trick_winner(state.tables, state.trick)
        if (state.trick_leader + best) % 4 == (seat + 2) % 4 and not state.tables.trump_power[state.trick[best]]:
            found = state, seat
            break
    assert found is not None
    state, seat = found
    last = (seat + 1) % 4
    unseen_trumps = [c for h in (state.hands[last], state.hands[(seat + 3) % 4]) for c in h
                     if state.tables.suit[c] == state.tables.trump] + [
        c for c in state.dealt_nest if state.tables.suit[c] == state.tables.trump and seat != state.declarer]
    assert unseen_trumps  # early in the hand some trump is out of the seat's sight
    assert not bench.sure_winner(state, seat)


def test_a_counter_thrown_under_an_opponents_winning_card_is_a_gift_of_its_extra_points():
    pts = get_rules("crowsnest").card_points
    for state, seat in _rule_based_states("crowsnest", range(60)):
        if len(state.trick) < 1:
            continue
        legal = state.legal_cards()
        best = trick_winner(state.tables, state.trick)
        if (state.trick_leader + best) % 4 & 1 == seat & 1:
            continue  # the opponents must be winning
        counters = [c for c in legal if pts[c] and not _heads(state, c)]
        cheap = [c for c in legal if pts[c] == 0]
        if counters and cheap:
            break
    else:
        pytest.fail("no position with a choice between a counter and a blank card under an opponent's card")
    opp = (seat + 1) % 4
    card = counters[0]
    f = bench.play_facts(state, seat, card, opp)
    assert (f.gift_choices, f.gifts, f.gift_points) == (1, 1, pts[card])
    assert f.gifts_could_head == int(any(_heads(state, c) for c in legal))
    f = bench.play_facts(state, seat, cheap[0], opp)
    assert (f.gift_choices, f.gifts, f.gift_points) == (1, 0, 0)
    f = bench.play_facts(state, seat, card, (seat + 2) % 4)  # the same card to a trick its side takes
    assert (f.gift_choices, f.gifts) == (0, 0)


def test_a_counter_played_to_take_the_trick_is_no_gift_even_if_an_opponent_beats_it_later():
    pts = get_rules("crowsnest").card_points
    for state, seat in _rule_based_states("crowsnest", range(60)):
        legal = state.legal_cards()
        heading = [c for c in legal if pts[c] and _heads(state, c)]
        if state.trick and len(state.trick) < 3 and heading and any(pts[c] < pts[heading[0]] for c in legal):
            break
    else:
        pytest.fail("no position where a counter would head the trick")
    f = bench.play_facts(state, seat, heading[0], (seat + 1) % 4)  # an opponent after it takes the trick
    assert (f.gift_choices, f.gifts, f.gift_points) == (1, 0, 0)


def test_the_counts_are_those_of_the_records_written(tmp_path):
    """A small run (rule-based vs random, 3 mirrored deals at 0–0 and one end-of-game game): the JSON counts equal
    the counts read back from the records it wrote, and the declared/made counts equal the engine's replay."""
    out, recs = tmp_path / "out.json", tmp_path / "records"
    assert bench.main(["--levels", "rules", "--opponent", "random", "--variants", "crowsnest", "--deals", "3",
                       "--game-deals", "1", "--positions", "level", "--workers", "1", "--seed", "7",
                       "--json", str(out), "--records", str(recs)]) == 0
    rows = {r["position"]: r for r in json.loads(out.read_text())["rows"]}
    assert set(rows) == {"0–0", "level"}
    files = sorted(recs.glob("*.json"))
    assert len(files) == 2 * 3 + 2
    for position, name in (("0–0", "hand"), ("level", "level")):
        total = bench.Facts()
        declared = made = 0
        for path in files:
            if f"-{name}-" not in path.name:
                continue
            rec = records.loads(path.read_text())
            team = 0 if rec.meta["L_team"] == "NS" else 1
            total.add(bench.record_facts(rec, team))
            final = rec.replay()
            if final.declarer is not None and final.declarer & 1 == team:
                declared += 1
                score = hand_score(final.rules, final.captured, final.declarer, final.high_bid)
                made += score[team] > 0
        assert rows[position]["counts"] == total.__dict__
        assert (total.declared, total.made) == (declared, made)
        assert total.hands == (6 if position == "0–0" else 2)
        assert total.set == total.declared - total.made and total.set_by_30 <= total.set
        assert total.overtakes <= total.sure_choices and total.gifts <= total.gift_choices
    assert rows["0–0"]["counts"]["declared"] > 0  # the rule-based AI outbids a random one somewhere in 3 deals
    assert rows["level"]["games"] == 2 and 0 <= rows["level"]["games_won_rate"] <= 1


def test_end_of_game_positions_put_a_set_within_reach_of_the_target():
    for variant in ("crowsnest", "1-high-partnership", "red-1"):
        rules = get_rules(variant)
        for position in bench.POSITIONS:
            us, them = bench.position_scores(rules, position)
            assert us < rules.target and them < rules.target
            # a set at the lowest bid gives the opponents at least the rest of the hand's points
            assert them + rules.points_per_hand - rules.bid_min + 5 >= rules.target
