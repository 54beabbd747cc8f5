"""Tests for rookcore.table.Table: a learner (S) with three AIs, driven through the Table API only."""
from __future__ import annotations

import json
import random
import re

import pytest

from rookcore import records
from rookcore.actions import PASS, Bid, NameTrump, Pass, Play
from rookcore.cards import Card
from rookcore.hand import IllegalAction, OutOfTurn, Phase, WrongPhase
from rookcore.rules import VARIANTS, RulesError, get_rules
from rookcore.table import Table, sort_cards


def _learner_move(table: Table, rng: random.Random, bid_ok: bool = True) -> None:
    """One learner action picked from the Table's own offers (never from engine internals)."""
    if table.state.phase is Phase.DISCARD:
        table.learner_discard(rng.sample(table.discard_options(), table.rules.nest_size))
        return
    legal = table.legal_for_learner()
    assert legal, "the learner is to act, so something is legal"
    if table.state.phase is Phase.AUCTION and not bid_ok:
        table.learner_act(PASS)
        return
    table.learner_act(rng.choice(legal))


def _finish_hand(table: Table, rng: random.Random, bid_ok: bool = True) -> None:
    while not table.state.is_over:
        table.run_ai()
        if table.state.is_over:
            break
        assert table.is_learner_turn()
        _learner_move(table, rng, bid_ok)


def _to_learner_card_turn(table: Table, rng: random.Random) -> bool:
    """Advance until the learner must play a card while following; returns False if the hand ended first."""
    while not table.state.is_over:
        table.run_ai()
        if table.state.is_over:
            return False
        if table.state.phase is Phase.PLAY:
            return True
        _learner_move(table, rng, bid_ok=False)
    return False


def _snapshot(table: Table):
    s = table.state
    return (s.step, s.phase, s.to_act, [frozenset(h) for h in s.hands], list(s.trick), list(s.tricks),
            list(s.captured), list(s.calls), s.high_bid, s.declarer, s.trump, len(table.log),
            list(table.game.scores), len(table.game.hands))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_full_hands_every_variant(variant):
    rng = random.Random(1)
    table = Table(get_rules(variant), seed=3)
    for _ in range(3):
        _finish_hand(table, rng)
        assert table.state.is_over
        assert not table.ai_to_act() and not table.is_learner_turn()
        if table.game.is_over:
            break
        table.new_hand()
    sheet = table.score_sheet()
    assert sheet["rows"]
    assert sheet["totals"] == {"NS": table.game.scores[0], "EW": table.game.scores[1]}


def test_ai_decisions_logged_and_learner_prompted():
    table = Table(seed=11)
    taken = table.run_ai()
    assert table.is_learner_turn() or table.state.is_over
    assert table.decisions == taken
    for d in taken:
        assert d.seat != table.learner
        assert d.candidates and d.candidates[0].action == d.action
        assert isinstance(d.explanation, str) and d.explanation
    assert isinstance(table.prompt(), str)


def test_legal_for_learner_only_on_learner_turn():
    table = Table(seed=5)
    # Dealer N: E calls first, so before run_ai it is not S's turn.
    assert table.state.to_act == 1
    assert table.legal_for_learner() == []
    with pytest.raises(OutOfTurn):
        table.learner_act(PASS)
    assert all(r == "wait for the auction to end" for r in table.card_status().values())
    table.run_ai()
    legal = table.legal_for_learner()
    assert PASS in legal and all(isinstance(a, (Bid, Pass)) for a in legal)


def test_illegal_card_raises_and_changes_nothing():
    found = False
    for seed in range(60):
        table = Table(seed=seed)
        rng = random.Random(seed)
        while _to_learner_card_turn(table, rng):
            status = table.card_status()
            bad = [c for c, why in status.items() if why is not None]
            if bad:
                before = _snapshot(table)
                with pytest.raises(IllegalAction, match="must follow") as err:
                    table.learner_act(Play(bad[0]))
                # the same words as the card's own reason: the colour named, "Yellow" not "Y"
                assert str(err.value) == f"S cannot play {table.name(bad[0])}: {status[bad[0]]}", err.value
                assert re.search(r"must follow (trump, )?(Red|Yellow|Green|Black) \(holds", str(err.value)), err.value
                assert _snapshot(table) == before
                assert status[bad[0]].startswith("must follow")
                assert "holds" in status[bad[0]]
                found = True
                break
            table.learner_act(rng.choice(table.legal_for_learner()))
        if found:
            break
    assert found, "no deal forced the learner to follow suit"


def test_card_status_matches_legal_cards():
    table = Table(seed=21)
    rng = random.Random(2)
    while _to_learner_card_turn(table, rng):
        status = table.card_status()
        legal = {a.card for a in table.legal_for_learner()}
        assert set(status) == set(table.state.hands[table.learner])
        assert {c for c, why in status.items() if why is None} == legal
        table.learner_act(Play(sorted(legal)[0]))
        if table.ai_to_act() and not table.state.is_over:
            assert set(table.card_status().values()) <= {"not your turn"}


@pytest.mark.parametrize("variant", ["crowsnest", "tournament", "dixie"])
def test_prompt_names_the_lead_to_follow(variant):
    """While the learner follows, the prompt says which colour was led and, when it limits the cards, the cards
    held in it (the greyed ones cannot be played); with none of it, that any card may be played."""
    seen = set()
    for seed in range(12):
        table = Table(seed=seed, rules=get_rules(variant))
        rng = random.Random(seed)
        while _to_learner_card_turn(table, rng):
            st = table.state
            hand = st.hands[table.learner]
            prompt = table.prompt()
            if st.trick:
                led = st.tables.suit[st.trick[0]]
                held = [c for c in hand if st.tables.suit[c] == led]
                legal = {a.card for a in table.legal_for_learner()}
                if not held:
                    assert prompt.startswith("Your play: you hold no ") and "any card may be played" in prompt
                    assert legal == set(hand)
                    seen.add("void")
                elif legal != set(hand):
                    assert prompt.startswith("Your play: you must follow ") and "greyed cards" in prompt
                    assert all(table.name(c) in prompt for c in held), (prompt, held)
                    seen.add("must")
                    bird = [c for c in legal if st.tables.suit[c] != led]  # the bird, playable on any trick
                    assert ("may be played on any trick" in prompt) == bool(bird), prompt
                    if bird:
                        assert f"the {table.name(bird[0])} may be played on any trick" in prompt, prompt
                        seen.add("bird")
                else:
                    assert prompt.startswith("Your play: the lead is ")
                    seen.add("free")
            else:
                assert prompt == "Your lead: play any card."
            table.learner_act(Play(sorted({a.card for a in table.legal_for_learner()})[0]))
    assert {"void", "must"} <= seen
    if variant != "dixie":  # Dixie has no bird
        assert "bird" in seen


def test_card_not_held_and_wrong_phase():
    table = Table(seed=8)
    table.run_ai()
    assert table.state.phase is Phase.AUCTION
    with pytest.raises(WrongPhase):
        table.learner_act(Play(sorted(table.state.hands[table.learner])[0]))
    with pytest.raises(IllegalAction, match="higher|lowest|steps"):
        table.learner_act(Bid(71))


def test_undo_restores_state_before_learner_action():
    table = Table(seed=4)
    rng = random.Random(4)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        table.undo_learner()
    table.run_ai()
    before = _snapshot(table)
    table.learner_act(PASS)
    table.run_ai()
    table.undo_learner()
    assert _snapshot(table) == before
    assert table.is_learner_turn()
    # Undo in the middle of play and after the hand is scored.
    _to_learner_card_turn(table, rng)
    _finish_hand(table, rng)
    hands_after = len(table.game.hands)
    table.undo_learner()
    assert not table.state.is_over and table.is_learner_turn()
    assert len(table.game.hands) == hands_after - 1
    assert table.game.current is table.state
    assert all(e.step < table.state.step for e in table.log)
    _finish_hand(table, rng)
    assert len(table.game.hands) == hands_after
    assert table.score_sheet()["totals"] == {"NS": table.game.scores[0], "EW": table.game.scores[1]}


def test_hint_is_legal_and_not_applied():
    table = Table(seed=9)
    rng = random.Random(9)
    with pytest.raises(OutOfTurn):
        table.hint()
    checked = 0
    while not table.state.is_over:
        table.run_ai()
        if table.state.is_over:
            break
        step = table.state.step
        hint = table.hint()
        assert table.state.step == step
        assert hint.seat == table.learner
        if table.state.phase is Phase.DISCARD:
            assert set(hint.action.cards) <= set(table.discard_options())
            table.learner_act(hint.action)
        else:
            assert hint.action in table.legal_for_learner()
            table.learner_act(hint.action)
        checked += 1
    assert checked >= 1


def test_tally_sums_equal_captured():
    table = Table(seed=13)
    rng = random.Random(13)
    rules = table.rules
    while not table.state.is_over:
        if table.ai_to_act():
            table.step_ai()
        else:
            _learner_move(table, rng)
        t = table.tally()
        s = table.state
        assert t["captured"] == {"NS": s.captured[0], "EW": s.captured[1]}
        assert t["tricks_won"] == {"NS": s.tricks_won[0], "EW": s.tricks_won[1]}
        if not s.is_over:
            seen_nest = t["nest_points"] or 0  # a nest the learner cannot see counts as out (no leak)
            total = t["captured"]["NS"] + t["captured"]["EW"] + t["counters_out"] + t["in_trick"] + seen_nest
            assert total == rules.counter_total
        if s.declarer == table.learner and s.phase is not Phase.AUCTION:
            assert t["nest_points"] == sum(rules.card_points[c] for c in s.nest)
        else:
            assert t["nest_points"] is None
    t = table.tally()
    assert t["counters_out"] == 0 and t["in_trick"] == 0
    assert t["captured"]["NS"] + t["captured"]["EW"] == rules.counter_total
    assert t["majority_bonus"] is None


def test_tally_majority_note():
    table = Table(get_rules("partnership"), seed=1)
    assert table.tally()["majority_bonus"] == "20 points to the team taking more tricks"


def test_learner_declarer_discard_and_trump():
    for seed in range(80):
        table = Table(seed=seed)
        table.run_ai()
        if table.state.phase is not Phase.AUCTION or not table.is_learner_turn():
            continue
        bids = [a for a in table.legal_for_learner() if isinstance(a, Bid)]
        table.learner_act(bids[-1])  # the top bid ends the auction at once
        table.run_ai()
        assert table.state.phase is Phase.DISCARD and table.is_learner_turn()
        opts = table.discard_options()
        n = table.rules.nest_size
        assert len(opts) == table.rules.hand_size + n
        assert table.tally()["nest_points"] == sum(table.rules.card_points[c] for c in table.state.dealt_nest)
        with pytest.raises(IllegalAction, match=f"exactly {n}"):
            table.learner_discard(opts[: n - 1])
        with pytest.raises(IllegalAction):
            table.learner_discard(opts[:n - 1] + [opts[0]])
        assert table.state.phase is Phase.DISCARD
        table.learner_discard([table.rules.card_name(c) for c in opts[:n]])
        assert table.state.phase is Phase.TRUMP
        assert table.legal_for_learner() == [NameTrump(c) for c in "RYGB"]
        table.learner_act(NameTrump("G"))
        assert table.state.trump == "G"
        assert table.tally()["nest_points"] == sum(table.rules.card_points[c] for c in opts[:n])
        return
    pytest.fail("the learner never got a call")


def test_auction_history_format():
    table = Table(seed=2)
    table.run_ai()
    table.learner_act(PASS)
    table.run_ai()
    hist = table.auction_history()
    assert hist and all(s in "NESW" for s, _ in hist)
    assert all(c == "pass" or (c.isdigit() and int(c) % 5 == 0) for _, c in hist)
    assert ("S", "pass") in hist


def test_save_round_trip(tmp_path):
    table = Table(seed=6)
    _finish_hand(table, random.Random(6))
    path = table.save(tmp_path / "hands" / "hand-1.json")
    text = open(path, encoding="utf-8").read()
    rec = records.loads(text)
    assert isinstance(rec, records.HandRecord)
    assert rec.to_json() == json.loads(text)
    assert rec.to_json() == table.record().to_json()
    replayed = rec.replay()
    assert replayed.is_over and replayed.score() == table.state.score()
    assert rec.meta["players"]["S"] == "you"
    # an unfinished hand saves too
    table.new_hand()
    table.run_ai()
    rec2 = records.loads(records.dumps(table.record()))
    assert rec2.replay().step == table.state.step


def _pass_through_auction(table: Table) -> None:
    while table.state.phase is Phase.AUCTION:
        table.run_ai()
        if table.is_learner_turn() and table.state.phase is Phase.AUCTION:
            table.learner_act(PASS)


def test_passed_out_hand_same_dealer_redeals():
    # CrowsNest AIs always open; in Partnership Rook they often pass with weak hands.
    rules = get_rules("partnership")
    seed = next((s for s in range(200) if (lambda t: (_pass_through_auction(t), t.state.passed_out)[1])(
        Table(rules, seed=s))), None)
    assert seed is not None, "no deal where every seat passes"
    table = Table(rules, seed=seed)
    _pass_through_auction(table)
    assert table.state.passed_out
    dealer = table.state.dealer
    assert table.auction_history() == [(s, "pass") for s in "ESWN"]
    assert "same dealer" in table.prompt()
    sheet = table.score_sheet()
    assert sheet["rows"][-1]["result"] == "passed out"
    assert sheet["rows"][-1]["declarer"] is None
    assert sheet["totals"] == {"NS": 0, "EW": 0}
    assert not sheet["game_over"]
    hand = table.new_hand()
    assert hand.dealer == dealer
    assert hand.step == 0 and table.log == []
    assert table.hand_number == 2
    assert table.state.dealt != table.game.hands[0].dealt


def test_unfinished_hand_redeal_same_dealer():
    table = Table(seed=3)
    table.run_ai()
    old = table.state
    table.new_hand()
    assert table.state is not old and table.state.dealer == old.dealer
    assert table.game.hands == [] and table.log == []
    assert table.hand_number == 1


def test_score_sheet_totals_match_game_and_dealer_rotates():
    table = Table(seed=17)
    rng = random.Random(17)
    dealers = []
    while not table.game.is_over and len(dealers) < 30:
        dealers.append(table.state.dealer)
        _finish_hand(table, rng, bid_ok=False)
        sheet = table.score_sheet()
        assert sheet["totals"] == {"NS": table.game.scores[0], "EW": table.game.scores[1]}
        assert sheet["rows"][-1]["total_NS"] == table.game.scores[0]
        assert sheet["rows"][-1]["total_EW"] == table.game.scores[1]
        assert sum(r["NS"] for r in sheet["rows"]) == table.game.scores[0]
        if not table.game.is_over:
            table.new_hand()
    sheet = table.score_sheet()
    for prev, row in zip(sheet["rows"], sheet["rows"][1:]):
        shift = 0 if prev["result"] == "passed out" else 1
        assert "NESW".index(row["dealer"]) == ("NESW".index(prev["dealer"]) + shift) % 4
    if table.game.is_over:
        assert sheet["game_over"] and sheet["winner"] in ("NS", "EW")
        with pytest.raises(IllegalAction, match="game is over"):
            table.new_hand()


def test_same_seed_same_game():
    a, b = Table(seed=42), Table(seed=42)
    a.run_ai(), b.run_ai()
    assert a.state.dealt == b.state.dealt
    assert [d.action for d in a.decisions] == [d.action for d in b.decisions]


def test_set_bird_applies_at_new_game():
    table = Table(seed=1)
    table.set_bird(False)
    assert table.rules.bird and not table.bird_next_game
    table.new_game()
    assert not table.rules.bird and table.rules.nest_size == 4
    assert Card.bird() not in table.rules.deck_set
    table.set_bird(True)
    table.new_game()
    assert table.rules.bird and table.rules.nest_size == 5
    with pytest.raises(RulesError):
        Table(get_rules("partnership"), seed=1).set_bird(False)


def test_new_game_resets_scores():
    table = Table(seed=5)
    _finish_hand(table, random.Random(5))
    table.new_game(get_rules("tournament"))
    assert table.game.scores == [0, 0] and table.game.hands == []
    assert table.rules.variant == "tournament"
    assert table.score_sheet()["rows"] == []


def test_sort_cards_display_order():
    rules = get_rules()
    cards = [Card.bird(), Card.parse("R5"), Card.parse("R14"), Card.parse("G9"), Card.parse("B10")]
    assert sort_cards(rules, cards) == [Card.parse(x) for x in ("R14", "R5", "G9", "B10", "CROW")]
    assert sort_cards(rules, cards, trump="R")[:3] == [Card.parse(x) for x in ("G9", "B10", "R14")]


def test_bad_level_and_seat():
    with pytest.raises(ValueError, match="unknown AI level"):
        Table(level="genius")
    with pytest.raises(ValueError):
        Table(learner=5)
    Table(level="random", seed=1).run_ai()


def test_counters_out_do_not_give_away_the_hidden_nest():
    """Two deals whose nests hold different points show the same "counters still out" before any card is played
    (the count used to be 120 minus the hidden nest's points)."""
    seen = set()
    for seed in range(20):
        table = Table(seed=seed)
        table.run_ai()  # up to South's first call
        s = table.state
        if s.phase is Phase.AUCTION and table.is_learner_turn():
            seen.add((sum(table.rules.card_points[c] for c in s.nest), table.tally()["counters_out"]))
    assert len({nest for nest, _out in seen}) > 1, "the deals should differ in nest points"
    assert {out for _nest, out in seen} == {table.rules.counter_total}


def test_learner_has_acted_and_game_started():
    table = Table(seed=5)
    table.run_ai()
    assert not table.learner_has_acted and not table.game_started  # only the AIs have called
    table.learner_act(PASS)
    assert table.learner_has_acted and table.game_started
    table.undo_learner()
    assert not table.learner_has_acted and not table.game_started
    _finish_hand(table, random.Random(5))
    table.new_hand()
    table.run_ai()
    assert table.hand_number == 2 and table.game_started and not table.learner_has_acted


def test_a_shared_deal_link_gives_every_learner_the_same_ai_play():
    """Two learners opening the same ?deal= link with the strong AI (which samples deals at random) see the same
    calls and reasoning; a table without a deal still gets a fresh seed."""
    def opening(deal):
        table = Table(get_rules("crowsnest"), deal=deal, level="strong")
        table.run_ai()
        return [entry.decision.explanation for entry in table.log], table.state.hands

    first, second = opening(5), opening(5)
    assert first == second and first[0]
    assert opening(6)[1] != first[1]
    assert Table().seed != Table().seed


def test_watch_view_shows_every_hand_and_the_trick_just_completed():
    """Replay's table (`watch_view`): all four hands face up as the state has them, the trick in progress or, right
    after its last card, the completed trick with its winner, and the last card played flagged."""
    from rookcore.examples import load_example
    from rookcore.table import watch_view
    record = load_example("dixie-made")
    states = list(record.states())
    completed = 0
    for state in states:
        view = watch_view(state)
        assert view["mode"] == "watch" and not any(c["legal"] for c in view["hand"])
        for x, letter in enumerate("NESW"):
            assert sorted(view["seats"][letter]["cards"]) == sorted(c.notation(state.rules.bird_name)
                                                                     for c in state.hands[x])
        trick = view["trick"]
        if state.trick:
            assert [c["id"] for c in trick["cards"]] == [int(c) for c in state.trick] and trick["winner"] is None
        elif state.history and isinstance(state.history[-1][1], Play):
            done = state.tricks[-1]
            assert [c["id"] for c in trick["cards"]] == [int(c) for c in done.cards]
            assert trick["winner"] == "NESW"[done.winner]
            completed += 1
        if trick["cards"] and state.history and isinstance(state.history[-1][1], Play):
            assert trick["cards"][-1].get("last") and trick["cards"][-1]["id"] == int(state.history[-1][1].card)
    assert completed == len(states[-1].tricks)


def test_view_lays_the_hand_trump_first_with_each_cards_legality():
    """`Table.view`: the learner's hand grouped by colour with the trump group first once trump is named, each card
    legal exactly when `card_status` has no reason (the reason carried along), and the seats as South sits."""
    from rookcore.table import group_of
    checked = 0
    for seed in range(30):
        table = Table(seed=seed)
        table.run_ai()
        while not table.state.is_over and table.is_learner_turn():
            legal = table.legal_for_learner() or None
            if table.state.phase is Phase.PLAY and table.state.trump:
                view = table.view()
                groups = [c["group"] for c in view["hand"]]
                if "T" in groups:
                    assert groups[0] == "T" and groups == sorted(groups, key=lambda g: g != "T")
                status = table.card_status()
                for c in view["hand"]:
                    assert c["legal"] == (status[Card.from_id(c["id"])] is None)
                    assert c["reason"] == status[Card.from_id(c["id"])]
                    assert c["group"] == group_of(table.rules, Card.from_id(c["id"]), table.state.trump)
                assert view["positions"] == {"bottom": "S", "left": "W", "top": "N", "right": "E"}
                checked += 1
            if table.state.phase is Phase.DISCARD:
                table.learner_discard(table.discard_options()[:table.rules.nest_size])
            else:
                table.learner_act(legal[-1] if legal else PASS)
            table.run_ai()
    assert checked > 20
