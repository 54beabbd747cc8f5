"""The result of a finished hand (`rookcore.result.hand_result`, `Table.hand_result`): rules.md §1.6 Count, §1.7
Score, "Game end". Checked against the bundled records' ``.expected.json`` score reports and a Table's score sheet."""
from __future__ import annotations

import json
import random

import pytest

from rookcore.actions import PASS
from rookcore.examples import expected_path, list_examples, load_example
from rookcore.hand import Phase
from rookcore.result import HandResult, hand_result
from rookcore.rules import get_rules
from rookcore.table import Table

EXAMPLES = list_examples()


def _result(name: str, before=(0, 0)) -> tuple[HandResult, dict]:
    record = load_example(name)
    return hand_result(record.replay(), before), json.loads(expected_path(name).read_text("utf-8"))


def test_every_rule_set_has_a_bundled_record_checked_here():
    variants = {load_example(n).variant for n in EXAMPLES}
    assert {"crowsnest", "tournament", "partnership", "1-high-partnership", "red-1", "buckeye", "dixie"} <= variants


@pytest.mark.parametrize("name", EXAMPLES)
def test_result_matches_the_expected_score_report(name):
    result, expected = _result(name)
    if expected.get("passed_out"):
        assert result.passed_out and result.made is None and result.declarer is None and result.bid is None
        assert {t: r.hand_score for t, r in result.teams.items()} == {"NS": 0, "EW": 0}
        return
    assert not result.passed_out
    assert (result.declarer, result.bid, result.trump, result.made) == (
        expected["declarer"], expected["bid"], expected["trump"], expected["made"])
    assert result.declarer_team == ("NS" if expected["declarer"] in "NS" else "EW")
    assert result.defender_team != result.declarer_team
    for team in ("NS", "EW"):
        part = result.teams[team]
        assert part.team == team
        assert part.tricks == expected["tricks_won"][team]
        assert part.captured == expected["captured"][team]
        assert part.hand_score == part.game_score == expected["score"][team]  # from 0–0
        assert part.trick_points + part.nest_points + part.bonus == part.captured
        assert part.trick_points == sum(t["points"] for t in expected["tricks"]
                                        if ("NS" if t["winner"] in "NS" else "EW") == team)
    rules = get_rules(expected["variant"])
    assert result.has_nest == (rules.nest_size > 0)
    assert result.nest_points == expected["nest_points"]
    if result.has_nest:
        assert result.nest_team == expected["last_trick"]
        assert result.teams[expected["last_trick"]].nest_points == expected["nest_points"]
    else:
        assert result.nest_team is None and result.nest_points == 0
    assert result.has_bonus == (rules.majority_bonus > 0)
    assert not result.game_over and result.winner is None


def test_a_set_hand_where_the_nest_goes_to_the_defenders():
    # CrowsNest: W bid 90; N–S (defenders) took the last trick, so the nest's 25 points
    result, _ = _result("crowsnest-set")
    assert (result.declarer, result.declarer_team, result.bid, result.made) == ("W", "EW", 90, False)
    assert (result.nest_team, result.nest_points) == ("NS", 25)
    ns, ew = result.teams["NS"], result.teams["EW"]
    assert (ns.trick_points, ns.nest_points, ns.bonus, ns.captured, ns.hand_score) == (45, 25, 0, 70, 70)
    assert (ew.trick_points, ew.nest_points, ew.bonus, ew.captured, ew.hand_score) == (50, 0, 0, 50, -90)
    assert not result.has_bonus and result.bonus == 0 and result.bonus_team is None


def test_majority_bonus_is_shown_apart():
    # 1-High Partnership: S bid 125 and is set; E–W took 9 of 13 tricks (bonus 20) and the last trick (nest 20)
    result, _ = _result("1-high-partnership-set")
    assert result.has_bonus and (result.bonus_team, result.bonus) == ("EW", 20)
    assert (result.nest_team, result.nest_points) == ("EW", 20)
    ew, ns = result.teams["EW"], result.teams["NS"]
    assert (ew.trick_points, ew.nest_points, ew.bonus, ew.captured, ew.hand_score) == (115, 20, 20, 155, 155)
    assert (ns.bonus, ns.nest_points, ns.hand_score) == (0, 0, -125)
    # Partnership has no nest: the bonus alone comes on top of the tricks
    part, _ = _result("partnership-made")
    assert not part.has_nest and part.nest_team is None
    assert (part.bonus_team, part.bonus, part.teams["EW"].trick_points) == ("EW", 20, 70)


def test_a_made_bid_scoring_the_bid_and_the_game_score():
    result, _ = _result("crowsnest-made", before=(230, 100))  # CrowsNest: a made bid scores the bid (85)
    ns = result.teams["NS"]
    assert result.made and ns.captured == 105 and ns.hand_score == 85 and ns.game_score == 315
    assert result.teams["EW"].game_score == 115
    assert result.game_over and result.winner == "NS" and result.target == 300
    tied, _ = _result("crowsnest-made", before=(230, 300))  # 315 vs 315: another hand (sudden death)
    assert not tied.game_over and tied.winner is None
    both, _ = _result("crowsnest-made", before=(200, 310))  # 285 vs 325: E–W win
    assert both.game_over and both.winner == "EW"


def test_to_dict_is_plain_values():
    result, _ = _result("crowsnest-set")
    doc = result.to_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["teams"]["NS"]["nest_points"] == 25 and doc["nest_team"] == "NS"


def test_unfinished_hand_or_bad_scores_raise_value_error():
    record = load_example("crowsnest-made")
    with pytest.raises(ValueError, match="not over yet"):
        hand_result(record.replay(upto=12))
    with pytest.raises(ValueError, match="two whole numbers"):
        hand_result(record.replay(), (1, 2, 3))


def test_passed_out_hand_ends_no_game():
    result, _ = _result("crowsnest-passed-out", before=(320, 320))
    assert result.passed_out and not result.game_over
    assert result.teams["NS"].game_score == 320 and result.nest_team is None


# ----- Table.hand_result -----------------------------------------------------------
def _play_out(table: Table, rng: random.Random) -> None:
    """Finish the hand on show: the learner takes random legal actions (the discard: the first cards offered)."""
    while not table.state.is_over:
        table.run_ai()
        if table.state.is_over:
            return
        if table.discard_options():
            table.learner_discard(table.discard_options()[:table.rules.nest_size])
        else:
            table.learner_act(rng.choice(table.legal_for_learner()))


@pytest.mark.parametrize("variant", ["crowsnest", "partnership", "1-high-partnership"])
def test_table_hand_result_agrees_with_the_score_sheet(variant):
    table = Table(get_rules(variant), seed=5)
    rng = random.Random(5)
    with pytest.raises(ValueError, match="not over yet"):
        table.hand_result()
    for hand in range(3):
        _play_out(table, rng)
        result = table.hand_result()
        assert result.to_dict() == table.hand_result().to_dict()  # asking twice changes nothing
        row = table.score_sheet()["rows"][-1]
        assert row["hand"] == hand + 1
        for team in ("NS", "EW"):
            assert result.teams[team].hand_score == row[team]
            assert result.teams[team].game_score == row[f"total_{team}"] == table.game.scores[("NS", "EW").index(team)]
        if not result.passed_out:
            assert result.made == (row["result"] == "made") and result.bid == row["bid"]
            assert result.declarer == row["declarer"]
            assert table.tally()["nest_team"] == result.nest_team
        assert result.game_over == table.game.is_over
        if table.game.is_over:
            break
        table.new_hand()
        assert table.tally()["nest_team"] is None


def _passed_out_table() -> Table:
    """A Partnership table (its AIs pass weak hands; CrowsNest AIs always open) whose first hand all four pass."""
    rules = get_rules("partnership")
    for seed in range(200):
        table = Table(rules, seed=seed)
        while table.state.phase is Phase.AUCTION:
            table.run_ai()
            if table.is_learner_turn() and table.state.phase is Phase.AUCTION:
                table.learner_act(PASS)
        if table.state.passed_out:
            return table
    raise AssertionError("no deal where every seat passes")


def test_table_hand_result_of_a_passed_out_hand():
    table = _passed_out_table()
    result = table.hand_result()
    assert result.passed_out and result.declarer is None and result.made is None and not result.game_over
    assert [result.teams[t].game_score for t in ("NS", "EW")] == table.game.scores == [0, 0]
    assert table.tally()["nest_team"] is None
