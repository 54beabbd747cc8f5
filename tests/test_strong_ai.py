"""The strong (sampling) AI: consistent worlds, legal and explained decisions, every rule set."""
import itertools
import random
import re

import pytest

from rookcore import PASS, HandState, Phase, get_rules
from rookcore.actions import Discard, Play
from rookcore.ai import RuleBasedPlayer, SamplingPlayer, describe_action
from rookcore.ai.worlds import model_discard, played_by_seat, sample_world, shown_voids, world_state
from rookcore.arena import run_arena, wilson_interval
from rookcore.hand import TEAM_NAMES, trick_tables
from rookcore.rules import VARIANTS
from rookcore.words import card_word


def positions(variant, seeds):
    """Observations of every seat to act along rule-based self-play hands."""
    rules = get_rules(variant)
    for seed in seeds:
        state = HandState.deal(rules, seed % 4, seed)
        players = [RuleBasedPlayer(seed=s) for s in range(4)]
        while not state.is_over:
            seat = state.to_act
            yield state, state.observation(seat)
            state.apply(players[seat].decide(state.observation(seat)).action)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_worlds_keep_what_the_seat_knows_and_shown_voids(variant):
    rng = random.Random(0)
    for state, obs in positions(variant, range(3)):
        world = sample_world(obs, rng)
        rebuilt = world_state(obs, world)
        assert rebuilt.phase is state.phase and rebuilt.to_act == state.to_act
        assert rebuilt.hands[obs.seat] == state.hands[obs.seat]
        assert [len(h) for h in rebuilt.hands] == [len(h) for h in state.hands]
        assert set(rebuilt.legal_cards()) == set(state.legal_cards())
        if obs.trump:
            suit = trick_tables(obs.rules, obs.trump).suit
            for seat, voids in enumerate(shown_voids(obs)):
                assert not any(suit[c] in voids for c in rebuilt.hands[seat])


@pytest.mark.parametrize("variant", sorted(v for v in VARIANTS if get_rules(v).nest_size))
def test_modelled_discards_keep_the_world_consistent_and_bury_as_the_ais_do(variant):
    """`model_discard`: the declarer keeps its 14 cards as drawn, played cards stay kept, shown voids hold, and no
    trump is buried while 5 side cards could be (both AIs' `greedy_discard` keeps trumps)."""
    rng = random.Random(2)
    checked = 0
    for state, obs in positions(variant, range(4)):
        if obs.phase is not Phase.PLAY or obs.seat == obs.declarer:
            continue
        drawn = sample_world(obs, rng)
        world = model_discard(obs, drawn)
        decl = obs.declarer
        assert sorted(world.hands[decl] + world.nest) == sorted(drawn.hands[decl] + drawn.nest)
        assert [world.hands[s] for s in range(4) if s != decl] == [drawn.hands[s] for s in range(4) if s != decl]
        rebuilt = world_state(obs, world)  # replays every card played: raises if the world contradicts them
        assert [len(h) for h in rebuilt.hands] == [len(h) for h in state.hands]
        suit = trick_tables(obs.rules, obs.trump).suit
        assert not any(suit[c] in shown_voids(obs)[decl] for c in world.hands[decl])
        trumps = set(obs.rules.trump_order(obs.trump))
        side = [c for c in drawn.hands[decl] + drawn.nest if c not in trumps and suit[c] not in shown_voids(obs)[decl]]
        if len(side) >= obs.rules.nest_size and not any(suit[c] in shown_voids(obs)[decl] for c in drawn.nest):
            assert not trumps & set(world.nest), (world.nest, obs.trump)
        assert not set(played_by_seat(obs)[decl]) & set(world.nest)
        checked += 1
    assert checked > 20


def test_modelled_discard_leaves_worlds_alone_where_the_discard_is_known_or_absent():
    rng = random.Random(3)
    for state, obs in itertools.islice(positions("partnership", [1]), 30):
        world = sample_world(obs, rng)
        assert model_discard(obs, world) is world
    for state, obs in positions("crowsnest", [1]):
        if obs.seat == obs.declarer or obs.phase is not Phase.PLAY:
            world = sample_world(obs, rng)
            assert model_discard(obs, world) is world


def test_card_sentences_say_when_the_nest_was_guessed_as_a_declarer_buries():
    rules = get_rules("crowsnest")
    state = HandState.deal(rules, 0, 11)
    players = [SamplingPlayer(seed=s, worlds=4) for s in range(4)]
    said = {True: 0, False: 0}
    while not state.is_over:
        seat = state.to_act
        decision = players[seat].decide(state.observation(seat))
        if decision.kind == "play" and len(decision.candidates) > 1:
            hidden = seat != state.declarer
            assert ("guessing that the declarer buried the cards an AI would bury" in decision.explanation) == hidden, (
                seat, decision.explanation)
            said[hidden] += 1
        state.apply(decision.action)
    assert said[True] and said[False]


def test_call_notes_say_which_points_they_mean():
    state, obs = next((s, o) for s, o in positions("crowsnest", [3]) if o.phase is Phase.AUCTION and len(o.legal) > 1)
    decision = SamplingPlayer(seed=5, worlds=8).decide(obs)
    bids = [c.note for c in decision.candidates if c.action is not PASS]
    assert bids and all(re.search(r"expected hand-score margin [+-]\d+, \d+ points captured$", n) for n in bids), bids


def test_worlds_vary_the_hidden_cards():
    state, obs = next((s, o) for s, o in positions("crowsnest", [7]) if o.phase is Phase.PLAY)
    rng = random.Random(1)
    seen = {tuple(sorted(sample_world(obs, rng).hands[(obs.seat + 1) % 4])) for _ in range(10)}
    assert len(seen) > 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_strong_ai_plays_legal_explained_hands(variant):
    rules = get_rules(variant)
    for seed in range(2):
        state = HandState.deal(rules, seed, 100 + seed)
        players = [SamplingPlayer(seed=s, worlds=6) if s % 2 == 0 else RuleBasedPlayer(seed=s) for s in range(4)]
        while not state.is_over:
            seat = state.to_act
            decision = players[seat].decide(state.observation(seat))
            if isinstance(players[seat], SamplingPlayer):
                assert decision.candidates[0].action == decision.action, "the table's top row is the choice"
                scores = [c.score for c in decision.candidates if "not bid: made in fewer" not in c.note]
                if decision.kind == "play" and scores[0] < max(scores):  # a counter kept: within the tolerance
                    pts = rules.card_points
                    assert scores[0] >= max(scores) - 2.0 and pts[decision.action.card] < pts[
                        decision.candidates[1].action.card], decision.candidates
                    scores = scores[1:]
                assert scores == sorted(scores, reverse=True)  # the bids it would not make follow, ruled out
                assert decision.explanation.endswith(".") and len(decision.explanation) > 20
                if decision.kind != "call" and len(decision.candidates) > 1:  # the runner-up, and what it gives up
                    other = _noun(decision.candidates[1].action, rules)
                    side = ("N–S", "E–W")[seat & 1]
                    instead = f"{other} instead" if other.startswith("burying") else f"with {other}"
                    assert re.search(rf"; ({re.escape(other)} is as good|{re.escape(instead)}, {side} would end "
                                     r"\d+ points? better off on average, too little to play a card worth \d+ more "
                                     rf"points?|{re.escape(instead)}, {side} would take "
                                     r"(as many points,|\d+ fewer points?,|\d+ more points? but) "
                                     r"(make the bid|set [NE]–[SW]'s bid) \d+% of the time, and end \d+ points? "
                                     r"worse off in hand score on average)\.$", decision.explanation), decision.explanation
            state.apply(decision.action)  # raises if illegal
        assert state.is_over


def _noun(action, rules) -> str:
    """The runner-up as the sentence names it: "Y12", "Red 1", "burying R5 R6", "Green as trump"."""
    if isinstance(action, Play):
        return str(card_word(rules, action.card))
    if isinstance(action, Discard):
        return "burying " + " ".join(str(card_word(rules, c)) for c in sorted(action.cards))
    return {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}[action.colour] + " as trump"


def test_strong_ai_is_deterministic_and_reports_samples():
    state, obs = next((s, o) for s, o in positions("crowsnest", [3]) if o.phase is Phase.PLAY and len(o.legal) > 1)
    a = SamplingPlayer(seed=5, worlds=8).decide(obs)
    b = SamplingPlayer(seed=5, worlds=8).decide(obs)
    assert a == b
    assert all(re.search(r"\b8 (weighted )?samples", c.note) for c in a.candidates)


@pytest.mark.parametrize("phase", [Phase.AUCTION, Phase.PLAY])
def test_reasoning_says_when_the_bids_weighted_the_deals(phase, monkeypatch):
    """A percent over weighted deals (12 deals, 63 %) is not a count: the notes and the sentence say "weighted"
    and how, exactly when the worlds' weights differ."""
    state, obs = next((s, o) for s, o in positions("crowsnest", [3]) if o.phase is phase and len(o.legal) > 1)
    texts = {}
    alternate = itertools.cycle([1.0, 0.3])
    for name, weight in (("even", lambda obs, st: 1.0), ("uneven", lambda obs, st: next(alternate))):
        monkeypatch.setattr(SamplingPlayer, "_bid_weight", staticmethod(weight))
        d = SamplingPlayer(seed=5, worlds=8).decide(obs)
        texts[name] = [d.explanation] + [c.note for c in d.candidates if c.action is not PASS]
    assert not any("weighted" in t for t in texts["even"]), texts["even"]
    assert all("weighted" in t for t in texts["uneven"]), texts["uneven"]
    assert "hand too weak for its bid counts 0.3" in texts["uneven"][0]


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(65, 100)
    assert round(low, 3) == 0.553 and round(high, 3) == 0.736
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_arena_counts_every_mirrored_deal():
    result = run_arena("rules", "random", 3, seed=11)
    assert result.wins + result.ties + result.losses == 3
    assert 0 <= result.wilson_low <= result.win_rate <= result.wilson_high <= 1


def test_strong_call_reasoning_matches_the_call():
    """The strong AI's bid or pass heads its own table, and the table's scores say why: a bid's score is the
    percent of sampled deals that make it, Pass's the percent a bid needs (no made-up ±1e9)."""
    rules = get_rules("crowsnest")
    bids = 0
    for seed in range(12):
        state = HandState.deal(rules, 0, 300 + seed)
        obs = state.observation(state.to_act)
        d = SamplingPlayer(seed=seed, worlds=6).decide(obs)
        top, *rest = d.candidates
        assert top.action == d.action
        assert all(0.0 <= c.score <= 100.0 for c in d.candidates)
        pass_score = next(c.score for c in d.candidates if c.action is PASS)
        if d.action is PASS:
            assert "Even the lowest bid" in d.explanation and all(c.score < pass_score for c in rest)
        else:
            bids += 1
            assert f"the lowest bid {TEAM_NAMES[d.seat & 1]} make" in d.explanation and top.score >= pass_score
        assert d.summary(rules.bird_name).count(":") == 1, d.summary(rules.bird_name)  # "S bids 75: It is …"
    assert bids >= 2


@pytest.mark.parametrize("args,message", [
    (["--b", "nosuchlevel"], "unknown AI level 'nosuchlevel'"),
    (["--variant", "zzz"], "unknown variant 'zzz'"),
    (["--options", "{x"], "--options is not valid JSON"),
    (["--options", "[1]"], "--options must be a JSON object"),
    (["--workers", "0"], "--workers must be from 1 to 64, not 0"),
    (["--workers", "999"], "--workers must be from 1 to 64, not 999"),
    (["--json", "/nonexistent/dir/r.json"], "no folder /nonexistent/dir"),
])
def test_arena_command_checks_its_arguments_before_playing(args, message, capsys, monkeypatch):
    """Bad arguments: exit 2 with one line on stderr before any deal is played (no progress bar, no traceback)."""
    from rookcore import arena, cli

    monkeypatch.setattr(arena, "run_arena", lambda *a, **k: pytest.fail("a deal was played"))
    assert cli.main(["arena", "--deals", "1", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_arena_command_writes_its_json(tmp_path, capsys):
    from rookcore import cli

    out = tmp_path / "r.json"
    assert cli.main(["arena", "--a", "rules", "--b", "random", "--deals", "1", "--json", str(out)]) == 0
    import json
    assert json.loads(out.read_text())["deals"] == 1
    assert cli.main(["arena", "--deals", "1", "--json", str(tmp_path)]) == 2
    assert "it is a folder" in capsys.readouterr().err


def test_the_bid_chance_names_the_declarers_for_declarers_and_defenders():
    """The sentence's percent is what the choice does to the bid, for the seat's side: the declaring side makes
    it, a defender sets it ("sets E–W's bid 50% of the time", the complement of the table's "bid made"); a
    defender must not read as making the bid."""
    said = {}
    for state, obs in positions("crowsnest", [3, 4]):
        if obs.phase is not Phase.PLAY or len(obs.legal) < 2:
            continue
        role = "declarer" if obs.seat & 1 == obs.declarer & 1 else "defender"
        if role in said:
            continue
        d = SamplingPlayer(seed=1, worlds=4).decide(obs)
        text = d.explanation
        made = int(re.search(r"bid made (\d+)%", d.candidates[0].note).group(1))
        declarers = ("N–S", "E–W")[obs.declarer & 1]
        side = ("N–S", "E–W")[obs.seat & 1]
        assert f" and {side} end the hand " in text, text
        card = d.action.card.display(obs.rules.bird_name)
        want = f"{card} makes the bid {made}% of the time" if role == "declarer" else \
            f"{card} sets {declarers}'s bid {100 - made}% of the time"
        assert want in text and ("makes the bid" not in text or role == "declarer"), text
        said[role] = text
    assert set(said) == {"declarer", "defender"}


def test_a_gamble_is_explained_by_its_effect_on_the_bid():
    """A defender's card that takes fewer points but sets the bid more often (a newcomer's Dixie hand: trumping
    with B14 sets E–W in the deals where the declarer buried its last trump) is explained by the bid, not by a
    bare margin: the sentence gives the set chance of both cards (the stated chances, `stated_chance`, with the
    share of the deals in brackets where it differs) and the points the other card would take."""
    from rookcore.ai.sampling import _Tally, _why, stated_chance

    state, obs = next((s, o) for s, o in positions("crowsnest", [3, 4])
                      if o.phase is Phase.PLAY and len(o.legal) > 1 and o.seat & 1 != o.declarer & 1)
    gamble, safe = _Tally(), _Tally()
    for made in (True, False):  # the gamble: set half the time, 40 points; the safe card: never set, 45 points
        gamble.add(1.0, 32.0 if not made else -30.0, 40.0, made)
        safe.add(1.0, -30.0, 45.0, True)
    side, declarers = ("N–S", "E–W")[obs.seat & 1], ("N–S", "E–W")[obs.declarer & 1]
    opening = {"deals": "2 deals", "method": "each played out quickly by simple rules"}
    text = _why(obs, (Play(obs.legal[0].card), gamble), (Play(obs.legal[1].card), safe), opening)
    card, other = (obs.legal[i].card.display(obs.rules.bird_name) for i in (0, 1))
    sets, safe_sets = (round(100 * (1 - stated_chance(obs, share, points))) for share, points in ((0.5, 40.0),
                                                                                                  (1.0, 45.0)))
    bracket = "" if sets == 50 else " (in 50% of those deals)"
    assert text == (f"In 2 deals, each played out quickly by simple rules, {card} sets {declarers}'s bid {sets}% of "
                    f"the time{bracket} and {side} end the hand 1 point ahead "
                    f"of {('N–S', 'E–W')[1 - (obs.seat & 1)]} in hand score on average; with {other}, {side} would "
                    f"take 5 more points but set {declarers}'s bid {safe_sets}% of the time, and end 31 points worse "
                    f"off in hand score on average."), text


def test_rule_call_is_the_rule_based_players_call():
    """The strong AI's model of the others' calls (`rookcore.ai.auction.rule_call`) is the rule-based AI's own call,
    checked call by call along rule-based auctions of every rule set."""
    from rookcore.actions import Bid
    from rookcore.ai.auction import rule_call
    from rookcore.ai.rules_based import hand_estimate

    checked = 0
    for variant in VARIANTS:
        rules = get_rules(variant)
        for seed in range(25):
            state = HandState.deal(rules, seed % 4, seed)
            players = [RuleBasedPlayer(seed=s) for s in range(4)]
            while state.phase is Phase.AUCTION:
                seat = state.to_act
                obs = state.observation(seat)
                action = players[seat].decide(obs).action
                bidders = {s for s, c in obs.calls if isinstance(c, Bid)}
                holder = next((s for s, c in reversed(obs.calls) if isinstance(c, Bid)), None)
                model = rule_call(rules, hand_estimate(rules, obs.hand)[0], obs.high_bid, (seat + 2) % 4 in bidders,
                                  holder == (seat + 2) % 4)
                assert model == (action.amount if isinstance(action, Bid) else None), (variant, seed, obs.calls)
                checked += 1
                state.apply(action)
    assert checked > 500


def test_finish_auction_follows_the_auction_rules():
    from rookcore.ai.auction import finish_auction

    rules = get_rules("crowsnest")
    limits = {0: 80, 1: 75, 2: None, 3: 90}  # each seat bids the lowest bid up to its limit

    def call(seat, high, holder, bidders):
        low = rules.bid_min if high is None else high + rules.bid_step
        return low if limits[seat] is not None and low <= limits[seat] else None

    assert finish_auction(rules, 1, None, None, [False] * 4, set(), call) == (3, 85)
    assert finish_auction(rules, 0, None, None, [False] * 4, set(), lambda *a: None) == (None, None)
    assert finish_auction(rules, 2, 115, 0, [False, True, False, True], {0}, lambda s, h, *a: 120) == (2, 120)
    with pytest.raises(ValueError):
        finish_auction(rules, 0, 80, 1, [False] * 4, {1}, lambda *a: 80)


def test_win_chance_reads_the_game_end_rule():
    from rookcore.ai.auction import game_in_reach, win_chance

    rules = get_rules("crowsnest")
    assert win_chance(rules, 310, 305) == 1.0 and win_chance(rules, 295, 330) == 0.0
    assert win_chance(rules, 305, 305) == 0.5  # equal totals: another hand
    assert win_chance(rules, 0, 0) == 0.5 and 0.5 < win_chance(rules, 250, 200) < win_chance(rules, 290, 200) < 1
    assert not game_in_reach(rules, None) and not game_in_reach(rules, (100, 150))
    assert game_in_reach(rules, (100, 180))


def test_near_the_end_of_a_game_the_call_is_chosen_by_the_chance_to_win_it():
    """Told a running score a hand can end the game, the strong AI values each call by the percent of its sampled
    deals (the auction played out) in which its side wins the game, says the score, and picks the best call open to
    it; far from the target it calls as without a score."""
    rules = get_rules("crowsnest")
    seen = 0
    for seed in range(6):
        state = HandState.deal(rules, 0, 300 + seed)
        obs = state.observation(state.to_act)
        far, near, none = (SamplingPlayer(seed=seed, worlds=6) for _ in range(3))
        far.game_score, near.game_score = (40, 60), (270, 285)
        assert far.decide(obs) == none.decide(obs)
        d = near.decide(obs)
        assert d.explanation.startswith("The game score is N–S 270, E–W 285: in 12 deals"), d.explanation
        assert "to win" in d.score_meaning and all(0 <= c.score <= 100 for c in d.candidates)
        open_to_it = [c for c in d.candidates if "not bid: made in fewer than 50%" not in c.note]
        assert d.candidates[0].action == d.action and d.candidates[0].score == max(c.score for c in open_to_it)
        if d.action is PASS and len(open_to_it) == 1:
            assert "Even the lowest bid open" in d.explanation
            continue
        seen += 1
        assert re.search(r"(passing|bidding \d+) gives E–W the best chance to win the game, "
                         rf"{d.candidates[0].score:.0f}% against \d+% for", d.explanation), d.explanation
    assert seen >= 2


def test_the_table_tells_its_strong_ais_and_the_hint_the_running_score():
    """The app's table gives the AI to act and the Hint the game score (N–S, E–W before the hand): near the
    target the strong AI's call says the score and is chosen by the chance to win the game."""
    from rookcore.table import Table

    table = Table(seed=5, level="strong")
    table.game.scores = [270, 285]
    said = []
    while table.ai_to_act() and table.state.phase is Phase.AUCTION:
        said.append(table.step_ai().explanation)
    if table.is_learner_turn() and table.state.phase is Phase.AUCTION:
        said.append(table.hint().explanation)
    assert said and all(text.startswith("The game score is N–S 270, E–W 285") or "Even the lowest bid" in text
                        for text in said), said
    assert any(text.startswith("The game score is") for text in said)


def test_the_stated_chance_is_the_calibrated_share_with_the_share_beside_it():
    """In card play the note's "bid made P%" is `stated_chance` of the sampled deals' share (the calibration map),
    with the raw share in brackets where the two differ, and the sentence states the same chance; a bid already
    reached is certain, one out of reach hopeless, whatever the deals say."""
    from rookcore.ai.sampling import CALIBRATION, IDENTITY, stated_chance

    assert CALIBRATION != IDENTITY  # a fitted map is in use
    brackets = 0
    for _state, obs in positions("crowsnest", [3, 4]):
        if obs.phase is not Phase.PLAY or len(obs.legal) < 2 or len(obs.tricks) > 3 or brackets >= 4:
            continue
        d = SamplingPlayer(seed=1, worlds=8).decide(obs)
        m = re.search(r"expected (\d+) points captured, bid made (\d+)%(?: \((\d+)% of 8 samples\))?",
                      d.candidates[0].note)
        points, stated, share = int(m[1]), int(m[2]), m[3]
        if share is None:
            continue
        brackets += 1
        # the note's points are rounded: the map of the rounded points is within a point or two of the note
        assert abs(round(100 * stated_chance(obs, int(share) / 100, points)) - stated) <= 2
        said = stated if obs.seat & 1 == obs.declarer & 1 else 100 - stated
        assert f"{said}% of the time (in " in d.explanation, d.explanation
    assert brackets >= 2
    from dataclasses import replace

    obs = next(o for _s, o in positions("crowsnest", [3]) if o.phase is Phase.PLAY and o.tricks)
    team = obs.declarer & 1
    reached = [0, 0]
    reached[team] = obs.high_bid
    assert stated_chance(replace(obs, captured=tuple(reached)), 0.0, 0.0) == 1.0
    hopeless = [0, 0]
    hopeless[1 - team] = 120 - obs.high_bid + 5  # the declarers can no longer reach the bid
    assert stated_chance(replace(obs, captured=tuple(hopeless)), 1.0, 120.0) == 0.0
    assert 0.0 < stated_chance(obs, 0.5, 60.0) < 1.0
