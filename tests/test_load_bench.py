"""benchmarks/load.py's pure parts: its percentiles, the scores it reads off the page, and the checks that decide a
failed hand or cross-talk (each must catch the fault it is for: another learner's deal, moves or kept game, a
wrong score shown, a hand that did not end, a learner id held twice). No browser, no timing."""
from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from rookcore import records
from rookcore.actions import Play
from rookcore.hand import Phase
from rookcore.table import Table


def _module():
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"
    spec = importlib.util.spec_from_file_location("load_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


load = _module()


def test_summary_ms_percentiles_and_edges():
    s = load.summary_ms(list(range(100, 0, -1)))  # 1..100 in any order
    assert s["n"] == 100 and s["median"] == 50.5 and s["min"] == 1 and s["max"] == 100
    assert s["p95"] == pytest.approx(95.05) and s["p99"] == pytest.approx(99.01)
    one = load.summary_ms([7.0])
    assert one == {"n": 1, "median": 7.0, "p95": 7.0, "p99": 7.0, "min": 7.0, "max": 7.0}
    assert load.summary_ms([]) == {"n": 0}
    skew = load.summary_ms([10.0] * 98 + [5000.0, 9000.0])
    assert skew["median"] == 10.0 and skew["p95"] == 10.0 and skew["p99"] == pytest.approx(5040.0)


@pytest.mark.parametrize("text, value", [("+85", 85), ("\u221290", -90), ("-90", -90), ("0", 0), (" 120 ", 120)])
def test_signed_points_reads_the_panel_scores(text, value):
    assert load.signed_points(text) == value


@pytest.mark.parametrize("text", ["", "—", "8-5", "+-5", "85 points", "1e3"])
def test_signed_points_refuses_what_is_not_a_score(text):
    with pytest.raises(ValueError):
        load.signed_points(text)


def _played(seed: int) -> tuple[Table, list]:
    """A hand of deal ``seed`` as the app plays it: South passes (or bids the lowest) and plays the first legal
    card, the rule-based AIs reply; the learner's actions as benchmarks/load.py logs them."""
    table = Table(deal=seed, level="rules")
    table.run_ai()
    actions = []
    while not table.state.is_over:
        if table.state.phase is Phase.DISCARD:
            cards = table.discard_options()[-table.rules.nest_size:]
            actions.append(["discard", [c.notation("crow") for c in cards]])
            table.learner_discard(cards)
        else:
            action = table.legal_for_learner()[0]
            if isinstance(action, Play):
                actions.append(["play", action.card.notation("crow")])
            else:
                actions.append(["pass"])
            table.learner_act(action)
        table.run_ai()
    return table, actions


@pytest.fixture(scope="module")
def two_hands():
    from widgets.hand_end import table_rows  # noqa: PLC0415 - what the end-of-hand panel shows

    out = {}
    for seed in (1000, 1001):
        table, actions = _played(seed)
        record = json.loads(table.record_json())
        rows = [list(r) for r in table_rows(table.hand_result())]
        outcome = {"seed": seed, "completed": True, "reason": None, "record": record, "rows": rows,
                   "south_dealt": list(record["hands"]["S"]), "actions": actions,
                   "kept_record": copy.deepcopy(record), "kept_deal": seed, "kept_expected": True}
        out[seed] = outcome
    deals = {s: load.deal_part(load.expected_record(s, [])) for s in out}
    return out, deals


def _check(outcome, deals):
    others = {s: d for s, d in deals.items() if s != outcome["seed"]}
    return load.check_learner(outcome, load.expected_record(outcome["seed"], outcome["actions"]), others)


def test_the_engine_replays_a_learners_clicks_into_the_same_record(two_hands):
    hands, _ = two_hands
    for seed, o in hands.items():
        assert load.hand_part(load.expected_record(seed, o["actions"])) == load.hand_part(o["record"])
        assert load.deal_part(load.expected_record(seed, [])) == load.deal_part(o["record"])
    assert load.deal_part(hands[1000]["record"]) != load.deal_part(hands[1001]["record"])
    with pytest.raises(ValueError):  # a card South does not hold
        load.expected_record(1000, [["play", "R1"]])


def test_a_correct_hand_passes(two_hands):
    hands, deals = two_hands
    for o in hands.values():
        assert _check(o, deals) == ([], [])


def test_another_learners_record_is_cross_talk_naming_the_deal(two_hands):
    hands, deals = two_hands
    o = dict(hands[1000], record=hands[1001]["record"], kept_record=hands[1001]["record"])
    failures, cross = _check(o, deals)
    assert any("deal 1001's" in c for c in cross), cross


def test_moves_that_are_not_the_learners_are_cross_talk(two_hands):
    hands, deals = two_hands
    record = copy.deepcopy(hands[1000]["record"])
    last = record["tricks"][-1]
    last[0], last[1] = last[1], last[0]  # the same deal, other moves
    failures, cross = _check(dict(hands[1000], record=record, kept_record=record), deals)
    assert any("moves" in c for c in cross), cross


def test_another_deals_cards_shown_at_the_start_are_cross_talk(two_hands):
    hands, deals = two_hands
    o = dict(hands[1000], south_dealt=hands[1001]["record"]["hands"]["S"])
    failures, cross = _check(o, deals)
    assert cross == ["South's cards shown at the start are not deal 1000's but deal 1001's"]
    failures, cross = _check(dict(hands[1000], south_dealt=[]), deals)  # a table that drew no cards: no leak
    assert cross == [] and failures == ["South's cards shown at the start (0) are not deal 1000's"]


def test_a_wrong_score_shown_fails_the_hand(two_hands):
    hands, deals = two_hands
    rows = [list(r) for r in hands[1000]["rows"]]
    score_row = next(r for r in rows if r[0] == "Hand score")
    score_row[1] = "+" + str(load.signed_points(score_row[1]) + 10)
    failures, cross = _check(dict(hands[1000], rows=rows), deals)
    assert cross == [] and len(failures) == 1 and "not the engine's score" in failures[0]
    failures, _ = _check(dict(hands[1000], rows=[r for r in rows if r[0] != "Hand score"]), deals)
    assert len(failures) == 1 and "no 'Hand score' row" in failures[0]


def test_a_kept_game_that_is_not_the_learners_is_cross_talk(two_hands):
    hands, deals = two_hands
    failures, cross = _check(dict(hands[1000], kept_record=hands[1001]["record"]), deals)
    assert len(cross) == 1 and "deal 1001's" in cross[0]
    failures, cross = _check(dict(hands[1000], kept_deal=1001), deals)
    assert cross == ["the game kept for this learner is deal 1001's, not 1000's"]
    failures, cross = _check(dict(hands[1000], kept_record=None, kept_problem="no kept game x"), deals)
    assert failures == ["no kept game x"] and cross == []


def test_a_hand_that_did_not_end_fails_with_its_reason(two_hands):
    hands, deals = two_hands
    o = dict(hands[1000], completed=False, reason="no redraw within 120 s after play R5", record=None, rows=None,
             kept_record=None, kept_expected=False)
    assert _check(o, deals) == (["no redraw within 120 s after play R5"], [])


def test_the_scores_compared_are_the_engines(two_hands):
    hands, _ = two_hands
    for o in hands.values():
        engine = records.score_report(records.from_json(o["record"]))["score"]
        assert load.hand_score_shown(o["rows"]) == engine


def test_duplicate_ids():
    assert load.duplicate_ids({0: "a" * 32, 1: "b" * 32, 2: "a" * 32, 3: None, 4: None}) == {"a" * 32: [0, 2]}
    assert load.duplicate_ids({0: "a", 1: "b"}) == {}


def test_kept_hand_is_the_hand_on_show(two_hands):
    hands, _ = two_hands
    played, dealt = hands[1000]["record"], dict(load.deal_part(hands[1001]["record"]), auction=[])
    doc = {"format": "crowsnest-kept-game/1", "game": {"hands": [played, dealt]},
           "settings": {"extra": {"deal": 1000}}, "table": {"on_show": "last"}}
    assert load.kept_hand(doc) == (played, 1000)
    doc["table"]["on_show"] = "current"
    assert load.kept_hand(doc) == (dealt, 1000)
    assert load.kept_hand({"game": {"hands": []}}) == (None, None)
    assert load.kept_hand({"not": "a kept game"}) == (None, None)


def test_round_trip_from_the_click_sent_to_the_redraw_received():
    sent = load.frame_info("sent", b'{"header": {"msg_type": "comm_msg"}, "content": {"data": {"method": "custom"}}}')
    other_sent = load.frame_info("sent", b'{"header": {"msg_type": "kernel_info_request"}}')
    same = load.frame_info("recv", b'{"content": {"data": {"state": {"view": {"token": "7", "hand": []}}}}}')
    new = load.frame_info("recv", b'\x00\x01{"content": {"data": {"state": {"view": {"token": "8"}}}}}')
    picked = load.frame_info("recv", b'{"state": {"value": "Tap 5 cards \xe2\x80\x94 <b>2 chosen (10 points)</b>"}}')
    assert sent == (True,) and other_sent == (False,)
    assert same == (("7",), ()) and new == (("8",), ()) and picked == ((), ("2 chosen",))
    frames = [(9.0, "recv", new), (10.0, "sent", other_sent), (10.5, "sent", sent), (10.6, "recv", same),
              (10.8, "recv", picked), (11.25, "recv", new)]
    assert load.round_trip_ms(frames, 1, "7") == pytest.approx(750.0)  # not the frame before the click
    assert load.round_trip_ms(frames, 1, "7", want="2 chosen") == pytest.approx(300.0)
    assert load.round_trip_ms(frames, 1, "7", want="3 chosen") is None
    assert load.round_trip_ms(frames[:5], 1, "7") is None  # no other token came
    assert load.round_trip_ms(frames[:2], 0, "7") is None  # no click sent


def test_the_opening_splits_the_server_s_part_from_the_browser_s_and_counts_lost_pages():
    opened = {"html": 0.5, "ws": 3.0, "first": 3.2, "widget": 3.5, "drawn": 4.0, "game": 6.0}
    outs = [{"learner": 0, "opening": opened},
            {"learner": 1, "opening": {**opened, "html": 1.5, "widget": 5.0, "game": 9.0}},
            {"learner": 2, "lost": "banner: rook-page-problem rook-page-open", "reason": "did not open"},
            {"learner": 3, "reason": "the app did not open within 420 s"}]
    got = load.opening_summary(outs)
    assert got["pages"] == 4 and got["lost"] == 2
    assert got["lost_pages"] == [{"learner": 2, "why": "banner: rook-page-problem rook-page-open"},
                                 {"learner": 3, "why": "the app did not open within 420 s"}]
    # the server's part: the HTML, then the websocket's open to the first widget message
    assert got["seconds"]["server"]["n"] == 2 and got["seconds"]["server"]["min"] == pytest.approx(0.5 + 0.5)
    assert got["seconds"]["server"]["max"] == pytest.approx(1.5 + 2.0)
    assert got["seconds"]["browser"]["min"] == pytest.approx(6.0 - 1.0)
    assert got["seconds"]["browser"]["max"] == pytest.approx(9.0 - 3.5)
    assert got["seconds"]["game"]["max"] == 9.0 and got["seconds"]["html"]["median"] == 1.0


def test_pool_options_name_the_kernels_the_server_keeps_ready():
    from benchmarks.page_open import pool_args, pool_size

    assert pool_args(None) == [] and pool_size([]) >= 20  # README line 1: voila.json's pools, a class's app pool
    assert pool_size(pool_args(0)) == 0
    assert pool_size(pool_args(3, lessons=False)) == 3
    own = json.loads((Path(__file__).resolve().parents[1] / "voila.json").read_text())
    lessons = sum(v["pool_size"] for k, v in own["VoilaKernelManager"]["kernel_pools_config"].items()
                  if k.startswith("tutorial/"))
    assert pool_size(pool_args(3)) == 3 + lessons
    assert "--VoilaKernelManager.fill_delay=5" in pool_args(2, fill_delay=5)
