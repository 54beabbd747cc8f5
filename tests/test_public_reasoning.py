"""The reasoning pane and the Hint tell South nothing South could not know (issue 32 item 5).

The check is against what South may know, not against card names: at a moment of a hand, every deal that fits
South's observation then (`HandState.observation(S)`: South's cards, the calls, the size of a discard, trump, the
cards played, the voids they showed) could be the real one. So the hidden cards are dealt again at random consistently
with that observation (`rookcore.ai.worlds.sample_world`, the strong AI's own sampler), the same public actions are
replayed on the new deal, and the AIs decide again on it (their reasoning now rests on other hands: "W's hand is
worth about 98 points" becomes another number), each decision then given the move that was really made. The pane
South is shown (`widgets.reasoning.ReasoningPane`, as the Play panel draws it) must be the very same HTML; so must the
Hint, which may use South's own cards but nothing else. With the AIs' full reasoning the two differ: the check can
fail (and it fails on the earlier masking, which kept "W's hand is worth about 98 points").

Re-dealt hands are put on a `Table` with the table's own `_show` (how a Table puts a hand on show): the Table has no
public way to take a deal that is not its own seed's.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rookcore import saved
from rookcore.ai import LEVELS, RuleBasedPlayer
from rookcore.ai.worlds import sample_world, world_state
from rookcore.hand import HandState, Phase
from rookcore.i18n import using
from rookcore.rules import VARIANTS, get_rules
from rookcore.table import LoggedDecision, Table
from widgets.reasoning import ReasoningPane, decision_html, moves_html, note_html

LEARNER = 2
STRONG_WORLDS = 4  # sampled deals per card for the strong AI here: the test stays fast; its sentences are the same kind


def pane_html(table: Table, lang: str = "en", reveal: bool = False) -> str:
    """What the Play panel's reasoning pane shows for ``table`` in ``lang``: its note and every move's HTML, latest
    first, as `ReasoningPane.draw` builds them (`note_html`, `moves_html`; the widgets are left out for speed, and
    `test_the_pane_widget_shows_what_pane_html_says` checks that the pane shows exactly this)."""
    with using(lang):
        moves = moves_html(table, reveal)
        return note_html(bool(moves), table.state.is_over, reveal) + "".join(reversed(moves))


def _player(level: str, seed: int):
    player = LEVELS[level](seed=seed)
    if level == "strong":
        player.worlds = STRONG_WORLDS
    return player


def can_redeal(state: HandState) -> bool:
    """Whether `sample_world` can deal South's unseen cards now: not while another seat is choosing its discard (the
    nest is then in its hand; the moments just before and after are checked)."""
    return not state.is_over and not (state.phase is Phase.DISCARD and state.declarer != LEARNER)


def redealt(table: Table, rng: random.Random) -> Table:
    """A twin of ``table``: the hidden cards dealt again consistently with South's observation, the hand's actions
    replayed on that deal, and each logged AI move decided again there by an AI of the table's level (then given the
    move really made). Same seed and level: the Hint's player is the same."""
    state = table.state
    obs = state.observation(LEARNER)
    now = world_state(obs, sample_world(obs, rng))
    assert now.observation(LEARNER) == obs  # South sees the very same thing on the new deal
    fresh = HandState(state.rules, now.dealer, now.dealt, now.dealt_nest)
    logged = {e.step for e in table.log}
    players = {seat: _player(table.level, rng.getrandbits(32)) for seat in range(4)}
    log = []
    for step, (seat, action, _saved) in enumerate(now.history):
        if step in logged:
            decision = players[seat].decide(fresh.observation(seat))
            log.append(LoggedDecision(step, replace(decision, action=action)))
        fresh.apply(action, seat)
    twin = Table(rules=table.rules, seed=table.seed, level=table.level)
    twin._show(fresh)
    twin.log = log
    return twin


def learner_move(table: Table) -> None:
    """South's move, chosen by a rule-based AI from South's own observation (it bids, so South declares at times)."""
    decision = RuleBasedPlayer(seed=table.state.step).decide(table.state.observation(LEARNER))
    table.learner_act(decision.action)


def hint_html(table: Table, lang: str = "en") -> str:
    with using(lang):
        return decision_html(table.hint(), table.rules.bird_name)


def check_moment(table: Table, rng: random.Random, counts: dict, redeals: int, langs=("en",)) -> None:
    """At this moment the pane (and the Hint, when South is to act) is the same on ``redeals`` other deals that fit
    South's observation; count the moments where the AIs' full reasoning differs (so the check could fail)."""
    if not can_redeal(table.state) or not table.log:
        return
    shown = {lang: pane_html(table, lang) for lang in langs}
    full = pane_html(table, reveal=True)
    hint = {lang: hint_html(table, lang) for lang in langs} if table.is_learner_turn() else None
    for _ in range(redeals):
        twin = redealt(table, rng)
        for lang in langs:
            assert pane_html(twin, lang) == shown[lang], (lang, table.state.step, shown[lang], pane_html(twin, lang))
            if hint is not None:
                assert hint_html(twin, lang) == hint[lang], (lang, table.state.step)
        counts["checked"] += 1
        counts["full differs"] += pane_html(twin, reveal=True) != full
        counts["hints"] += hint is not None
    counts["kinds"] |= {e.decision.kind for e in table.log}


def play_and_check(table: Table, rng: random.Random, counts: dict, redeals: int, every: int = 1,
                   langs=("en",)) -> None:
    """Play ``table``'s hand to its end, checking the moments after every ``every``-th action and at South's turns
    before play (every one of them when ``every`` is 1)."""
    check_moment(table, rng, counts, redeals, langs)
    while not table.state.is_over:
        if table.ai_to_act():
            table.step_ai()
        else:
            learner_move(table)
        south = table.is_learner_turn() and (every == 1 or table.state.phase is not Phase.PLAY)
        if table.state.step % every == 0 or south:
            check_moment(table, rng, counts, redeals, langs)


def _counts() -> dict:
    return {"checked": 0, "full differs": 0, "hints": 0, "kinds": set()}


def _expected_kinds(rules) -> set:
    return {"call", "trump", "play"} | ({"discard"} if rules.nest_size else set())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("level", ["random", "rules"])
def test_the_pane_and_hint_are_the_same_on_every_deal_south_cannot_tell_apart(variant, level):
    """Random and rule-based AIs, every rule set: after every action of a hand (each phase: auction, nest and
    discard, trump, play; more hands until an AI has declared), a re-deal."""
    rules, counts = get_rules(variant), _counts()
    rng = random.Random(f"{variant}-{level}")
    for seed in range(8):
        table = Table(rules=rules, seed=seed, level=level)
        play_and_check(table, rng, counts, redeals=1)
        if counts["kinds"] >= _expected_kinds(rules):
            break
    assert counts["checked"] > 20 and counts["hints"] > 5, counts
    assert counts["kinds"] >= _expected_kinds(rules), counts  # an AI called, buried, named trump and played
    assert counts["full differs"] > counts["checked"] // 2, counts  # the full reasoning does tell the deal apart


@pytest.mark.parametrize("variant", [v if v == "crowsnest" else pytest.param(v, marks=pytest.mark.slow)
                                     for v in sorted(VARIANTS)])
def test_the_strong_ais_pane_and_hint_are_the_same_on_every_deal_south_cannot_tell_apart(variant):
    """The strong AI (fewer sampled deals: its sentences are the same kind), every rule set (CrowsNest in a quick
    run, the others marked slow: about 10-25 s each): one hand (more until an AI declared), every fourth moment and
    South's turns before play, one re-deal."""
    rules, counts = get_rules(variant), _counts()
    rng = random.Random(f"{variant}-strong")
    for seed in range(4):
        table = Table(rules=rules, seed=seed, level="strong")
        for player in table.players.values():
            player.worlds = STRONG_WORLDS
        play_and_check(table, rng, counts, redeals=1, every=4)
        if counts["kinds"] >= _expected_kinds(rules):
            break
    assert counts["checked"] > 5 and counts["hints"], counts
    assert counts["kinds"] >= _expected_kinds(rules), counts
    assert counts["full differs"], counts


@pytest.mark.parametrize("lang", ["fa", "de"])
def test_the_pane_tells_nothing_more_in_another_language(lang):
    """The same check with the pane and the Hint said in Persian (right to left) and German."""
    counts = _counts()
    table = Table(rules=get_rules("crowsnest"), seed=5, level="rules")
    play_and_check(table, random.Random(lang), counts, redeals=1, every=3, langs=(lang,))
    assert counts["checked"] > 5 and counts["full differs"], counts


def test_a_game_kept_mid_hand_shows_only_the_public_moves_once_resumed(tmp_path):
    """A kept game stores the AIs' full sentences as data; resumed mid-hand, the pane still shows only the public
    moves (the same HTML as before it was kept, the same on another deal that fits South's view), and the full
    reasoning once the hand is over."""
    table = Table(rules=get_rules("crowsnest"), seed=7)
    while table.state.phase is not Phase.PLAY or len(table.state.tricks) < 3:
        table.step_ai() if table.ai_to_act() else learner_move(table)
    path = tmp_path / "game.json"
    saved.save_table(table, path)
    assert "hand is worth" in path.read_text(encoding="utf-8")  # the full reasoning is kept ...
    back = saved.load_table(path).table
    for lang in ("en", "fa"):
        assert pane_html(back, lang) == pane_html(table, lang)  # ... and not shown
    assert "hand is worth" not in pane_html(back) and "<table" not in pane_html(back)
    assert pane_html(redealt(back, random.Random(1))) == pane_html(back)
    assert json.loads(path.read_text(encoding="utf-8"))["table"]["log"]
    while not back.state.is_over:
        back.step_ai() if back.ai_to_act() else learner_move(back)
    assert "hand is worth" in pane_html(back) and "<table" in pane_html(back)


def test_the_pane_widget_shows_what_pane_html_says():
    """The pane widget (as the Play panel holds it) shows the note and moves `pane_html` checks, in any language,
    during the hand and after it."""
    table = Table(seed=3)
    pane = ReasoningPane(lambda: None)
    seen = 0
    while not table.state.is_over:
        table.step_ai() if table.ai_to_act() else learner_move(table)
        for lang in ("en", "fa"):
            with using(lang):
                pane.draw_words()
                pane.draw(table)
            assert pane.html == pane_html(table, lang)
            seen += bool(table.log)
    assert seen > 20 and "<table" in pane.html and "<table" not in pane_html(Table(seed=3))
    pane.close()
