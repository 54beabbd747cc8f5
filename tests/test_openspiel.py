"""Rook in OpenSpiel (issue 32, `rookcore.openspiel`): OpenSpiel's own checks of a game on every rule set, the
information state against resampled deals (OpenSpiel's ResampleInfostateTest, written in Python), and the engine
replaying every random game alike (legal actions at every step, the same scores).

Skipped when OpenSpiel is not installed (it is in the ``test`` extra: ``pip install -e '.[test]'``).
"""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed: pip install open_spiel==2.0.2 (in "
                                                "the test and openspiel extras)")

import numpy as np  # noqa: E402

from rookcore import openspiel as ro  # noqa: E402
from rookcore.actions import Discard, Play  # noqa: E402
from rookcore.ai import RuleBasedPlayer  # noqa: E402
from rookcore.cards import Card  # noqa: E402
from rookcore.hand import HandState, IllegalAction, Phase  # noqa: E402
from rookcore.rules import VARIANTS, RulesError, get_rules  # noqa: E402

RULE_SETS = list(VARIANTS)


def _random_game(game, rng: random.Random, visit=None):
    """Play ``game`` to the end with uniform random chance outcomes and legal actions, calling ``visit(state)``
    before every action; returns the terminal state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if visit is not None:
            visit(state)
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _game_with_bids(game, rng: random.Random, visit=None):
    """As `_random_game` but each seat passes at its second call at the latest, so that the auction ends early and
    most games reach the discard and play (uniform random actions bid on for long)."""
    state = game.new_initial_state()
    calls = [0, 0, 0, 0]
    while not state.is_terminal():
        if visit is not None:
            visit(state)
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        seat = state.current_player()
        if state.hand.phase is Phase.AUCTION:
            calls[seat] += 1
            if calls[seat] > 1 or rng.random() < 0.3:
                state.apply_action(ro.PASS_ACTION)
                continue
        state.apply_action(rng.choice(legal))
    return state


@pytest.mark.parametrize("variant", RULE_SETS)
def test_openspiel_random_sim_test(variant):
    """OpenSpiel's generic game checks (C++ RandomSimTest: API consistency, legal actions sorted and unique action
    strings, clone, serialisation, observation and information-state tensors, returns within the bounds)."""
    game = ro.load(variant)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    pyspiel.random_sim_test(ro.load(variant, dealer=3, utility="margin"), num_sims=2, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("variant", RULE_SETS)
def test_openspiel_checks_a_whole_hand(variant):
    """random_sim_test on a hand that reaches the discard, trump and card play: it starts from a state whose auction
    is over (OpenSpiel's ``specific_initial_state``)."""
    game = ro.load(variant, dealer=1)
    state = game.new_initial_state()
    for card in ro.deal_actions(game.rules, 1, 11):
        state.apply_action(card)
    state.apply_action(ro.BID_BASE)  # the lowest bid, then three passes
    for _ in range(3):
        state.apply_action(ro.PASS_ACTION)
    assert state.hand.phase in (Phase.DISCARD, Phase.TRUMP)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False, specific_initial_state=state)


@pytest.mark.parametrize("variant", RULE_SETS)
def test_resample_keeps_the_information_state(variant):
    """OpenSpiel's ResampleInfostateTest (tests/basic_tests.cc), in Python: at every decision of random games, a
    state resampled for each player has that player's information state string and tensor, and the same player to
    act (with the same legal actions when that player acts). A leak of a hidden card into the information state
    fails it, since resampling deals the hidden cards again (checked below too)."""
    game = ro.load(variant)
    rng = random.Random(3)
    sampler = random.Random(5)
    changed = [0]

    def check(state):
        if state.is_chance_node():
            return
        for p in range(4):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.current_player() == state.current_player()
            if p == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            changed[0] += str(other) != str(state)

    _game_with_bids(game, rng, check)
    _game_with_bids(game, rng, check)
    assert changed[0] > 0  # the hidden cards were dealt again, not copied


def test_resample_with_openspiel_sampler_and_while_dealing():
    """resample_from_infostate takes OpenSpiel's UniformProbabilitySampler (as ISMCTSBot passes it), and works
    while the cards are being dealt: the player's own cards stay, the others are dealt again."""
    game = ro.load("crowsnest")
    state = game.new_initial_state()
    for card in ro.deal_actions(game.rules, 0, 4)[:20]:
        state.apply_action(card)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for p in range(4):
        other = state.resample_from_infostate(p, sampler)
        assert other.is_chance_node() and len(other.history()) == 20
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)


@pytest.mark.parametrize("variant", RULE_SETS)
def test_information_state_names_no_hidden_card(variant):
    """A seat's information state and observation strings name only cards it may know: its own dealt cards, cards
    played, and for the declarer the nest and its discard (rules.md §1.3)."""
    game = ro.load(variant)
    rng = random.Random(11)
    names = {game.rules.card_name(c): int(c) for c in game.rules.deck}

    def check(state):
        hand = state.hand
        if hand is None:
            return
        played = {int(c) for t in hand.tricks for c in t.cards} | {int(c) for c in hand.trick}
        for p in range(4):
            known = {int(c) for c in hand.dealt[p]} | played
            if p == hand.declarer and hand.phase is not Phase.AUCTION:
                known |= {int(c) for c in hand.dealt_nest}
            for text in (state.information_state_string(p), state.observation_string(p)):
                shown = {names[w] for w in text.replace(":", " ").split() if w in names}
                assert shown <= known, (p, text)

    for _ in range(3):
        _game_with_bids(game, rng, check)


@pytest.mark.parametrize("variant", RULE_SETS)
def test_engine_agrees_on_random_games(variant):
    """The engine replays each random OpenSpiel game: the same deal (the engine's seeded deal), the same legal
    actions at every step (a discard's picks against the engine's list of whole discards), the same scores."""
    rules = get_rules(variant)
    game = ro.load(variant, dealer=2, utility="score")
    rng = random.Random(variant)
    for n in range(5):
        seed = rng.randrange(10 ** 6)
        engine = HandState.deal(rules, 2, seed)
        state = game.new_initial_state()
        for card in ro.deal_actions(rules, 2, seed):
            state.apply_action(card)
        assert state.hand.dealt == engine.dealt and state.hand.dealt_nest == engine.dealt_nest
        picks: list[int] = []
        discards: list = []  # the engine's whole discards, listed once (thousands on 13-card hands)
        passes_early = n % 2 == 0
        while not state.is_terminal():
            assert state.current_player() == engine.to_act
            legal = state.legal_actions()
            if engine.phase is Phase.DISCARD:
                discards = discards or engine.legal_actions()
                assert set(legal) == _discard_steps(discards, picks)
            else:
                assert [ro.engine_action(rules, a) for a in legal] == engine.legal_actions()
            action = ro.PASS_ACTION if passes_early and engine.phase is Phase.AUCTION and engine.high_bid \
                else rng.choice(legal)
            state.apply_action(action)
            move = ro.engine_action(rules, action)
            if type(move) is Card:
                picks.append(int(move))
                if len(picks) == rules.nest_size:
                    engine.apply(Discard(picks))
                    picks = []
            else:
                engine.apply(move)
        assert engine.is_over
        assert state.score() == engine.score()
        ns, ew = engine.score()
        assert state.returns() == [ns, ew, ns, ew]


def _discard_steps(discards: list[Discard], picks: list[int]) -> set[int]:
    """The next pick's action ids as the engine's legal ``discards`` give them: the lowest card beyond ``picks`` of
    every whole discard that holds ``picks`` as its lowest cards."""
    steps = set()
    for discard in discards:
        cards = sorted(int(c) for c in discard.cards)
        if cards[:len(picks)] == picks:
            steps.add(ro.DISCARD_BASE + cards[len(picks)])
    return steps


@pytest.mark.parametrize("variant", RULE_SETS)
def test_action_ids_round_trip(variant):
    """Every call, trump and card of a rule set has one action id and back (`action_id`, `engine_action`); a
    discard is its cards' ids in increasing order; ids outside the game are refused."""
    rules = get_rules(variant)
    game = ro.load(variant)
    seen = set()
    actions = [a for a in HandState.deal(rules, 0, 1).legal_actions()] + [Play(c) for c in rules.deck]
    from rookcore.actions import TRUMPS  # noqa: PLC0415
    actions += list(TRUMPS.values())
    for action in actions:
        (a,) = ro.action_id(rules, action)
        assert ro.engine_action(rules, a) == action
        assert a < game.num_distinct_actions() and a not in seen
        seen.add(a)
    cards = sorted(rules.deck)[:rules.nest_size]
    if cards and rules.nest_size:
        assert ro.action_id(rules, Discard(cards)) == [ro.DISCARD_BASE + int(c) for c in cards]
    for bad in (game.num_distinct_actions(), ro.DISCARD_BASE + 15, -1):
        with pytest.raises(ValueError):
            ro.engine_action(rules, bad)


def test_illegal_actions_are_refused_and_change_nothing():
    """An illegal action (a card dealt twice, a bid too low, a card not held, a discard pick out of order) raises
    and leaves the state as it was."""
    game = ro.load("crowsnest")
    state = game.new_initial_state()
    deal = ro.deal_actions(game.rules, 0, 9)
    state.apply_action(deal[0])
    with pytest.raises(Exception, match="not a card left to deal"):
        state.apply_action(deal[0])
    for card in deal[1:]:
        state.apply_action(card)
    state.apply_action(ro.BID_BASE + 2)
    before = str(state), state.history()
    with pytest.raises(IllegalAction):
        state.apply_action(ro.BID_BASE)
    assert (str(state), state.history()) == before
    for _ in range(3):
        state.apply_action(ro.PASS_ACTION)
    legal = state.legal_actions()
    with pytest.raises(ValueError, match="not a legal discard"):
        state.apply_action(legal[-1] + 1 if legal[-1] + 1 < ro.TRUMP_BASE else ro.DISCARD_BASE)
    state.apply_action(legal[2])
    with pytest.raises(ValueError, match="not a legal discard"):
        state.apply_action(legal[0])  # below the first pick: discards are put back in increasing order
    assert state.pending_discard == [legal[2] - ro.DISCARD_BASE]


def test_bad_parameters_are_refused():
    """An unknown rule set, a dealer outside 0..3 and an unknown utility are refused with a clear message."""
    with pytest.raises(RulesError, match="unknown variant"):
        pyspiel.load_game("python_rook(rules=bridge)")
    with pytest.raises(ValueError, match="dealer must be 0..3"):
        pyspiel.load_game("python_rook(dealer=4)")
    with pytest.raises(ValueError, match="utility must be"):
        pyspiel.load_game("python_rook(utility=points)")
    game = pyspiel.load_game("python_rook(rules=kentucky-discard)")
    assert game.rules.variant == "tournament"


def test_serialisation_round_trip_mid_hand():
    """OpenSpiel's serialisation (and pickle) of a state in card play gives back the same state."""
    import pickle  # noqa: PLC0415

    game = ro.load("red-1", dealer=3)
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.hand.tricks) < 2:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            legal = state.legal_actions()
            state.apply_action(ro.PASS_ACTION if state.hand.phase is Phase.AUCTION and state.hand.high_bid
                               else rng.choice(legal))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state) and state2.history() == state.history()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    assert state2.legal_actions() == state.legal_actions()


def test_ismcts_and_engine_bots_play_a_hand():
    """OpenSpiel's ISMCTSBot (a few simulations) plays two seats and the rule-based AI (as an OpenSpiel bot) the
    other two: every action legal, the hand scored by the engine."""
    from rookcore.openspiel_bots import EngineBot, ismcts_bot  # noqa: PLC0415

    game = ro.load("crowsnest", utility="margin")
    state = game.new_initial_state()
    for card in ro.deal_actions(game.rules, 0, 21):
        state.apply_action(card)
    bots = [ismcts_bot(game, 1, simulations=6), EngineBot(RuleBasedPlayer(2)),
            ismcts_bot(game, 3, simulations=6), EngineBot(RuleBasedPlayer(4))]
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert bots[0].simulations and all(n == 6 for n in bots[0].simulations)
    assert state.returns()[0] == -state.returns()[1]
    ns, ew = state.score()
    assert state.returns()[0] == ns - ew


def test_openspiel_random_bot_plays_through_the_adapter():
    """OpenSpiel's uniform random bot plays all four seats of every rule set to a scored hand."""
    from rookcore.openspiel_bots import random_bot  # noqa: PLC0415

    for variant in RULE_SETS:
        game = ro.load(variant)
        state = game.new_initial_state()
        for card in ro.deal_actions(game.rules, 0, 2):
            state.apply_action(card)
        bots = [random_bot(s, s) for s in range(4)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert state.score() == state.hand.score()


def test_observer_tensor_views():
    """The information-state tensor's views hold the player, its dealt cards and the calls (one-hot rows)."""
    game = ro.load("crowsnest")
    state = game.new_initial_state()
    for card in ro.deal_actions(game.rules, 0, 6):
        state.apply_action(card)
    state.apply_action(ro.BID_BASE + 1)  # E bids 75
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, 1)
    assert observer.dict["player"][1] == 1 and observer.dict["hand"].sum() == game.rules.hand_size
    assert observer.dict["calls"][0, 2] == 1 and observer.dict["calls"].sum() == 1
    dealt = {int(c) for c in state.hand.dealt[1]}
    assert {int(c) for c, bit in zip(game.rules.deck, observer.dict["hand"]) if bit} == dealt
    assert np.array_equal(np.asarray(state.information_state_tensor(1)), observer.tensor)


@pytest.mark.parametrize("variant", ["crowsnest", "partnership", "red-1"])
def test_arena_through_openspiel_plays_the_engines_hands(variant):
    """The arena's OpenSpiel path (`openspiel_hand`) seats the engine's AIs as OpenSpiel bots on the engine's deal:
    with engine levels on both sides it scores every hand exactly as the engine's own arena plays it."""
    from rookcore.ai import LEVELS, play_hand  # noqa: PLC0415
    from rookcore.arena import OpenSpielSettings, openspiel_hand  # noqa: PLC0415

    rules = get_rules(variant)
    for seed in (3, 8):
        for a_team in (0, 1):
            score, times, _ = openspiel_hand(rules, "rules", "random", seed, a_team, OpenSpielSettings())
            engine = HandState.deal(rules, seed % 4, seed)
            play_hand(engine, [LEVELS["rules" if s % 2 == a_team else "random"](seed=seed * 8 + s) for s in range(4)])
            assert score == engine.score()
            assert times["a"] and times["b"]


def test_arena_command_with_openspiel_bots(tmp_path):
    """``arena --b ismcts`` and ``--b os-random`` play through OpenSpiel and report each side's time per decision
    and the ISMCTS settings in the JSON."""
    import json  # noqa: PLC0415

    from rookcore import cli  # noqa: PLC0415

    out = tmp_path / "r.json"
    assert cli.main(["arena", "--a", "rules", "--b", "ismcts", "--deals", "1", "--ismcts-ms", "none",
                     "--ismcts-sims", "4", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["b"] == "ismcts" and data["deals"] == 1
    assert data["times"]["b"]["decisions"] > 0 and data["settings"]["ismcts_simulations"] == 4
    assert data["settings"]["ismcts_simulations_median_b"] == 4
    assert cli.main(["arena", "--a", "random", "--b", "os-random", "--deals", "2", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["wins"] + data["ties"] + data["losses"] == 2 and "ismcts_ms" not in data["settings"]


@pytest.mark.parametrize("args,message", [
    (["--b", "ismcts", "--options", '{"bird": false}'], "--options cannot be used with an OpenSpiel level"),
    (["--b", "ismcts", "--ismcts-ms", "0"], "--ismcts-ms: must be a positive number of milliseconds"),
    (["--b", "ismcts", "--ismcts-ms", "none"], "ISMCTS needs a time per decision"),
    (["--b", "ismcts", "--ismcts-sims", "1"], "--ismcts-sims must be at least 2"),
])
def test_arena_command_checks_openspiel_arguments(args, message, capsys, monkeypatch):
    """Bad OpenSpiel arguments: exit 2 with one line on stderr before any deal is played."""
    from rookcore import arena, cli  # noqa: PLC0415

    monkeypatch.setattr(arena, "run_arena", lambda *a, **k: pytest.fail("a deal was played"))
    try:
        code = cli.main(["arena", "--deals", "1", *args])
    except SystemExit as stop:  # argparse's own usage errors (a bad --ismcts-ms value)
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
