"""Tests for widgets.play.PlayPanel: whole hands played through the panel's buttons only (pace=0)."""
from __future__ import annotations

import base64
import json
import random
import re
import threading
from html import escape

import ipywidgets as widgets
import pytest

from rookcore import records
from rookcore.actions import Play
from rookcore.hand import Phase
from rookcore.rules import get_rules
from rookcore.table import Table
from widgets.play import SEAT_NAMES, PlayPanel
from widgets.reasoning import decision_html


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def _find(panel, cls=None, description=None, kind=None):
    """Widgets under the panel that are displayed (not hidden) with a CSS class / description / type."""
    found = []
    for w in _walk(panel):
        if cls is not None and cls not in getattr(w, "_dom_classes", ()):
            continue
        if description is not None and getattr(w, "description", None) != description:
            continue
        if kind is not None and not isinstance(w, kind):
            continue
        found.append(w)
    return found


def _visible(panel, w) -> bool:
    """True if no container on the way to ``w`` is hidden with display: none."""
    def path(node, target, trail):
        if node is target:
            return trail + [node]
        for c in getattr(node, "children", ()):
            p = path(c, target, trail + [node])
            if p:
                return p
        return None
    return all(getattr(n.layout, "display", None) != "none" for n in path(panel, w, []))


def _enabled(panel, cls):
    return [b for b in _find(panel, cls=cls) if not b.disabled and _visible(panel, b)]


def _status(panel) -> str:
    return panel.status.value


def _click_one_step(panel, rng: random.Random, bid_ok: bool = True) -> None:
    """Make South's next move with buttons only."""
    t = panel.table
    phase = t.state.phase
    if phase is Phase.AUCTION:
        bids = [b for b in _enabled(panel, "rook-bid") if b.description.startswith("Bid ")]
        passes = [b for b in _enabled(panel, "rook-bid") if b.description == "Pass"]
        assert passes, "the Pass button is offered on South's call"
        (rng.choice(bids[:2]) if bids and bid_ok else passes[0]).click()
    elif phase is Phase.DISCARD:
        view = panel.table_view
        picks = view.cards(legal_only=True)  # the hand and the nest, each tapped to pick it
        n = t.rules.nest_size
        assert len(picks) == t.rules.hand_size + n
        assert view.view["mode"] == "discard"
        discard = _find(panel, description="Discard", kind=widgets.Button)[0]
        first = rng.sample(picks, n - 1)
        for c in first:
            view.tap(c)
        assert discard.disabled, "Discard is enabled only at exactly nest_size picks"
        assert f"{n - 1} chosen" in panel.discard_count.value
        assert sorted(c["id"] for c in view.view["hand"] if c["picked"]) == sorted(int(c) for c in first)
        rest = [c for c in picks if c not in first]
        view.tap(rest[0])
        assert not discard.disabled
        chosen = first + [rest[0]]
        assert f"{n} chosen ({t.rules.points_of(chosen)} points)" in panel.discard_count.value  # what they hold
        assert "Points in the nest as dealt" in panel.tally_html.value
        discard.click()
    elif phase is Phase.TRUMP:
        trumps = _enabled(panel, "rook-trump")
        assert [b.description for b in trumps] == ["Trump Red", "Trump Yellow", "Trump Green", "Trump Black"]
        rng.choice(trumps).click()
    else:
        cards = panel.table_view.cards(legal_only=True)
        assert cards, "South has a playable card on its turn"
        panel.table_view.tap(rng.choice(cards))


def _play_hand_by_buttons(panel, rng, bid_ok=True, max_clicks=200) -> None:
    for _ in range(max_clicks):
        if panel.table.state.is_over:
            return
        assert panel.table.is_learner_turn(), "after a click the AIs act until South's turn"
        step = panel.table.state.step
        _click_one_step(panel, rng, bid_ok)
        assert panel.table.state.step > step, _status(panel)
        assert "rook-error" not in _status(panel)
    raise AssertionError("hand did not end")


@pytest.mark.parametrize("seed,bid_ok", [(1, True), (2, False), (5, True), (12, True)])
def test_whole_hand_through_buttons(seed, bid_ok):
    panel = PlayPanel(seed=seed, pace=0)
    assert panel.pace == 0
    _play_hand_by_buttons(panel, random.Random(seed), bid_ok)
    t = panel.table
    assert t.state.is_over
    sheet = panel.score_html.value
    assert "rook-score-row" in sheet
    assert sheet.count("rook-score-row") == 1
    ns, ew = t.game.scores
    assert f"<th>{ns}</th><th>{ew}</th>" in sheet  # the totals row
    assert t.score_sheet()["totals"] == {"NS": ns, "EW": ew}
    assert "Hand over" in _status(panel) or "passed" in _status(panel)
    if not t.state.passed_out:  # the teams are named as everywhere else on the page
        assert re.search(r"Hand over: (N–S|E–W) (made|were set on) \d+", _status(panel)), _status(panel)
    assert not panel.table_view.cards(legal_only=True)


def test_declarer_path_discard_and_trump_by_buttons():
    """Find a deal where South can bid the top and declare; go through the discard picker and trump buttons."""
    for seed in range(60):
        panel = PlayPanel(seed=seed, pace=0)
        if panel.table.state.phase is not Phase.AUCTION:
            continue
        bids = [b for b in _enabled(panel, "rook-bid") if b.description.startswith("Bid ")]
        if not bids:
            continue
        bids[-1].click()  # the top bid ends the auction at once
        assert panel.table.state.declarer == 2
        assert panel.discard_box.layout.display != "none"
        rng = random.Random(seed)
        _click_one_step(panel, rng)        # discard
        assert panel.table.state.phase is Phase.TRUMP
        assert panel.trump_box.layout.display != "none"
        _find(panel, description="Trump Green")[0].click()
        assert panel.table.state.trump == "G"
        assert "Trump" in panel.header.value and "Green" in panel.header.value
        assert "Points in your nest" in panel.tally_html.value
        _play_hand_by_buttons(panel, rng)
        assert panel.table.state.is_over
        return
    pytest.fail("no deal let South bid")


def _to_card_turn(panel, rng):
    while not panel.table.state.is_over:
        if panel.table.state.phase is Phase.PLAY:
            return True
        _click_one_step(panel, rng, bid_ok=False)
    return False


def test_disabled_card_click_shows_error_and_changes_nothing():
    for seed in range(60):
        panel = PlayPanel(seed=seed, pace=0)
        rng = random.Random(seed)
        while _to_card_turn(panel, rng):
            view = panel.table_view.view
            illegal = [c for c in view["hand"] if not c["legal"]]
            if illegal:
                card = illegal[0]
                assert card["reason"].startswith("must follow") and card["label"].endswith(card["reason"])
                step, hand = panel.table.state.step, set(panel.table.state.hands[2])
                panel.table_view.tap(card["id"])  # a tap on a greyed card reaches the panel too
                assert "rook-error" in _status(panel)
                assert "must follow" in _status(panel)
                assert panel.table.state.step == step and set(panel.table.state.hands[2]) == hand
                # the panel keeps working after the error
                panel.table_view.tap(panel.table_view.cards(legal_only=True)[0])
                assert panel.table.state.step > step
                assert "rook-error" not in _status(panel)
                return
            _click_one_step(panel, rng)
    pytest.fail("no deal gave South a card it may not play")


def test_card_click_out_of_turn_and_bad_bid_show_errors():
    table = Table(seed=3)  # E calls first: not South's turn until the AIs act
    panel = PlayPanel(table=table, pace=0)
    card = panel.table.learner_hand()[0]
    step = panel.table.state.step
    panel.play_card(card)
    assert "rook-error" in _status(panel) and panel.table.state.step == step
    panel.call_bid(71)
    assert "rook-error" in _status(panel) and panel.table.state.step == step
    panel.discard([])
    assert "rook-error" in _status(panel)


def test_card_buttons_describe_labels_and_reasons():
    panel = PlayPanel(table=Table(seed=4), pace=0)
    view = panel.table_view.view
    assert {c["name"] for c in view["hand"]} == {panel.table.name(c) for c in panel.table.learner_hand()}
    assert all(not c["legal"] and c["reason"] == "wait for the auction to end" for c in view["hand"])
    assert all(c["label"] == f"{c['name']}: wait for the auction to end" for c in view["hand"])
    for seat in "NEW":
        words = view["labels"]["seats"][seat]
        assert words["count"] == f"{panel.table.hand_sizes()['NESW'.index(seat)]} cards"


def test_undo_through_button():
    panel = PlayPanel(seed=2, pace=0)
    rng = random.Random(2)
    undo = _find(panel, description="Undo")[0]
    assert undo.disabled
    undo.click()  # handler runs anyway: error, nothing changes
    assert "rook-error" in _status(panel)
    assert _to_card_turn(panel, rng)
    before = (panel.table.state.step, set(panel.table.state.hands[2]), list(panel.table.state.trick))
    log_len = len(panel.table.log)
    panel.table_view.tap(panel.table_view.cards(legal_only=True)[0])
    assert panel.table.state.step > before[0]
    undo = _find(panel, description="Undo")[0]  # the button of this decision (`widgets.clicks`)
    assert not undo.disabled
    undo.click()
    after = (panel.table.state.step, set(panel.table.state.hands[2]), list(panel.table.state.trick))
    assert after == before
    assert len(panel.table.log) == log_len
    assert "Undone" in _status(panel)


def test_hint_shows_ai_choice():
    panel = PlayPanel(seed=6, pace=0)
    hint = _find(panel, description="Hint")[0]
    step = panel.table.state.step
    hint.click()
    assert "Hint for you (South):" in panel.hint_html.value and "S " in panel.hint_html.value
    assert "what the AI would do in your seat (it calls you S)" in panel.hint_html.value
    assert "rook-decision" in panel.hint_html.value
    assert panel.table.state.step == step  # a hint changes nothing
    assert "rook-error" not in _status(panel)


def test_reasoning_pane_lists_ai_decisions_latest_first():
    panel = PlayPanel(seed=8, pace=0)
    html = panel.reasoning_html
    decisions = [e.decision for e in panel.table.reasoning_for_learner()]  # as South may see them now
    assert html.count("rook-decision") == len(decisions)
    if len(decisions) >= 2:
        bird = panel.table.rules.bird_name
        first = html.index(decisions[-1].summary(bird).split(":")[0])
        assert first < html.index(decisions[0].explanation[:20])


def test_new_ai_moves_leave_the_earlier_moves_reasoning_as_drawn():
    """An AI move adds one widget to the pane and keeps the earlier ones (so an opened "N more" fold stays open in
    the browser); revealing the hidden cards redraws the moves whose reasoning masked some, and closes their old
    widgets."""
    panel = PlayPanel(seed=8, pace=0)
    rng = random.Random(3)
    before = list(panel.reasoning.children)
    assert len(before) == len(panel.table.log) > 0
    for _ in range(40):  # South's moves until the AIs have moved again
        _click_one_step(panel, rng, bid_ok=False)
        if len(panel.table.log) > len(before):
            break
    after = list(panel.reasoning.children)
    assert len(after) == len(panel.table.log) > len(before)
    assert all(a is b for a, b in zip(after, before))  # the same widgets: their views are not redrawn
    assert panel.reasoning.layout.flex_flow == "column-reverse"  # appended last, shown first
    panel.open_reasoning.value = True
    redrawn = [old for new, old in zip(panel.reasoning.children, after) if new is not old]
    assert redrawn and all(w.comm is None for w in redrawn)  # the replaced widgets are closed, not left in the kernel
    assert all(new.value != old.value for new, old in zip(panel.reasoning.children, after) if new is not old)


def test_new_hand_and_new_game_buttons():
    panel = PlayPanel(seed=9, pace=0)
    rng = random.Random(9)
    _play_hand_by_buttons(panel, rng, bid_ok=False)
    first_dealer = panel.table.state.dealer
    passed = panel.table.state.passed_out
    _find(panel, description="New hand")[0].click()
    assert panel.table.hand_number == 2
    assert panel.table.state.dealer == (first_dealer if passed else (first_dealer + 1) % 4)
    assert panel.table.is_learner_turn()
    assert "hand-2.json" in panel.save_path.value
    # New hand in the middle of a hand: it asks first; a second click redeals by the same dealer, nothing scored
    dealer, hand = panel.table.state.dealer, panel.table.state
    panel.confirm.wait = 0
    _find(panel, description="New hand")[0].click()
    assert panel.table.state is hand and "Click New hand again" in _status(panel)
    _find(panel, description="New hand")[0].click()
    assert panel.table.state is not hand
    assert panel.table.state.dealer == dealer and len(panel.table.game.hands) == 1
    # Crow off, then New game
    toggle = _find(panel, cls="rook-bird-toggle")[0]
    assert "Crow" in toggle.description
    toggle.value = False
    assert panel.table.rules.bird  # applies at the next new game only
    _find(panel, description="New game")[0].click()
    assert panel.table.rules.bird and "Click New game again" in _status(panel)  # the game had started: it asks
    _find(panel, description="New game")[0].click()
    assert not panel.table.rules.bird and panel.table.rules.nest_size == 4
    assert panel.table.game.scores == [0, 0]
    assert "rook-score-row" not in panel.score_html.value


def test_save_record_and_download_link(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    panel = PlayPanel(seed=10, pace=0)
    _play_hand_by_buttons(panel, random.Random(10))
    assert panel.save_path.value == "hands/hand-1.json"
    _find(panel, description="Save record")[0].click()
    assert "Saved hands/hand-1.json" in panel.save_result.value and str(tmp_path) not in panel.save_result.value
    assert re.sub(r"<[^>]+>", "", panel.status.value).endswith(escape(panel.table.prompt()))  # the status still says what comes next
    assert "Download hand-1.json" in panel.download.value
    panel.save_path.value = "hands/my-hand"
    _find(panel, description="Save record")[0].click()
    assert "Download my-hand.json" in panel.download.value  # the link offers the name it was saved as
    rec = records.loads((tmp_path / "hands" / "hand-1.json").read_text())
    assert rec.replay().is_over
    link = panel.download.value
    assert "download=" in link and "data:application/json;base64," in link
    data = link.split("base64,")[1].split('"')[0]
    assert json.loads(base64.b64decode(data)) == rec.to_json()
    # a bad path shows the error, never raises
    (tmp_path / "blocker").write_text("x")
    panel.save_path.value = "blocker/sub/hand.json"
    _find(panel, description="Save record")[0].click()
    assert "rook-error" in _status(panel)
    assert "color:#c62828" in panel.save_result.value


def test_game_over_banner():
    table = Table(get_rules("crowsnest", {"target": 50}), seed=1)
    panel = PlayPanel(table=table, pace=0)
    rng = random.Random(1)
    for _ in range(20):
        _play_hand_by_buttons(panel, rng, bid_ok=False)
        if table.game.is_over:
            break
        _find(panel, description="New hand")[0].click()
    assert table.game.is_over
    assert "Game over" in panel.game_over.value
    assert _find(panel, description="New hand")[0].disabled
    _find(panel, description="New hand")[0].click()
    assert "rook-error" in _status(panel)


def test_pacing_steps_one_ai_move_at_a_time(monkeypatch):
    import widgets.play as play

    sleeps = []
    real_sleep = play.time.sleep
    # only the panel's own pauses (the kernel's thread): another test's background thread may sleep meanwhile
    monkeypatch.setattr(play.time, "sleep", lambda s: sleeps.append(s) if threading.current_thread()
                        is threading.main_thread() else real_sleep(s))
    panel = PlayPanel(seed=3, pace=0.25)
    assert panel.pace == 0.25
    before = len(panel.table.log)
    _find(panel, description="Pass")[0].click()
    moves = len(panel.table.log) - before
    assert moves >= 1 and sleeps == [0.25] * moves
    panel.pace = 0
    assert panel.speed.value == 0


def test_undo_new_hand_new_game_wait_while_the_ais_move(monkeypatch):
    """While the AIs' paced moves are shown, Hint/Undo/New hand/New game are disabled; afterwards they are back."""
    import widgets.play as play

    panel = PlayPanel(seed=3, pace=0.25)
    seen = []

    real_sleep = play.time.sleep

    def sleep(s):
        if threading.current_thread() is not threading.main_thread():
            return real_sleep(s)  # another test's background thread
        seen.append({name: getattr(panel, name).disabled
                     for name in ("hint_button", "undo_button", "new_hand_button", "new_game_button")})
        assert all("wait for the AIs" in getattr(panel, name).tooltip
                   for name in ("hint_button", "undo_button", "new_hand_button", "new_game_button"))
    monkeypatch.setattr(play.time, "sleep", sleep)
    panel.pass_button.click()
    assert seen, "the AIs moved after South passed"
    assert all(all(state.values()) for state in seen), seen
    assert "wait" not in panel.hint_button.tooltip
    assert not panel.new_game_button.disabled and not panel.new_hand_button.disabled
    assert not panel.undo_button.disabled  # South has passed: that can be taken back
    assert "wait" not in panel.undo_button.tooltip


def test_css_hooks_present():
    panel = PlayPanel(seed=1, pace=0)
    for cls in ("rook-play", "rook-header", "rook-status", "rook-score-sheet", "rook-tally", "rook-reasoning",
                "rook-auction-history", "rook-speed", "rook-download", "rook-save-path", "rook-game-over"):
        assert _find(panel, cls=cls), cls
    for desc in ("Hint", "Undo", "New hand", "New game", "Save record", "Pass"):
        assert _find(panel, description=desc), desc
    # in the widget tree only in their phase
    assert "rook-discard-button" in panel.discard_button._dom_classes
    red = panel.trump_buttons["R"]
    assert red.description == "Trump Red" and "rook-trump" in red._dom_classes


def test_a_successful_save_replaces_an_earlier_error(tmp_path):
    from widgets.play import PlayPanel
    panel = PlayPanel(seed=3, pace=0)
    panel.save(".")  # the app's folder (tmp_path, the conftest's): cannot be written
    assert "rook-error" in panel.status.value and ". is a folder" in panel.status.value
    assert str(tmp_path) not in panel.status.value  # named as typed, never by its place on the server
    assert re.sub(r"<[^>]+>", "", panel.status.value).endswith(escape(panel.table.prompt()))  # the prompt stays
    written = panel.save(str(tmp_path / "hand.json"))
    assert written and "rook-error" not in panel.status.value and "Saved" in panel.status.value


def test_save_outside_the_app_folder_is_refused(tmp_path, monkeypatch):
    """Save to refuses a path outside the page's records folder (`widgets.paths`) and writes nothing."""
    from widgets import paths

    paths.use_folder(tmp_path / "app")
    panel = PlayPanel(seed=10, pace=0)
    _play_hand_by_buttons(panel, random.Random(10))
    panel.save_path.value = "../hand.json"
    _find(panel, description="Save record")[0].click()
    assert "only opens and saves files inside your own records folder" in panel.save_result.value
    assert not (tmp_path / "hand.json").exists()
    panel.save_path.value = "hands/hand-1.json"
    _find(panel, description="Save record")[0].click()
    assert (tmp_path / "app" / "hands" / "hand-1.json").exists()


def test_save_names_get_json_and_a_file_in_the_way_is_named(tmp_path, monkeypatch):
    """Save to "hands" writes hands.json (not a file named hands, which would stand where the default
    hands/ folder goes); if such a file exists anyway, the message names it; a NUL character is refused."""
    monkeypatch.setenv("ROOK_FILES_ROOT", str(tmp_path))
    panel = PlayPanel(seed=10, pace=0)
    assert panel.save("hands") == str(tmp_path / "hands.json")
    (tmp_path / "hands").write_text("not a folder")
    assert panel.save("hands/hand-1.json") is None
    assert "hands is a file, not a folder" in panel.save_result.value, panel.save_result.value
    assert panel.save("a\x00b.json") is None and "NUL character" in panel.save_result.value
    assert panel.save("games/") is None and "games/ names a folder: add a file name" in panel.save_result.value
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands", "hands.json"]


@pytest.mark.parametrize("name", ["app.ipynb", "tutorial/01-the-cards.ipynb", "notes.txt", "script.py"])
def test_save_never_replaces_the_app_or_another_kind_of_file(tmp_path, name):
    """The app's folder holds the app and its lessons: Save record writes only .json records, and never over a
    file that is not a Rook record (a second click does not change that)."""
    target = tmp_path / name
    target.parent.mkdir(exist_ok=True)
    target.write_text('{"cells": []}')
    panel = PlayPanel(seed=3, pace=0)
    for _ in range(2):
        assert panel.save(name) is None
        assert "records are saved as .json files" in panel.save_result.value, panel.save_result.value
    assert target.read_text() == '{"cells": []}'
    other = tmp_path / "voila.json"
    other.write_text('{"VoilaConfiguration": {}}')
    assert panel.save("voila.json") is None and "not a Rook record" in panel.save_result.value
    assert other.read_text() == '{"VoilaConfiguration": {}}'


# ----- clicks made before the table changed (`widgets.clicks`) ---------------------------------------------------
def _south_cards_played(panel) -> int:
    return sum(1 for seat, action, _s in panel.table.state.history if seat == 2 and type(action) is Play)


def test_a_second_card_clicked_before_the_table_changed_is_ignored():
    """Two cards clicked at once (the second click reaches the kernel while the AIs still play): only the first
    is played; the second is not played into the next trick (or refused as an error) but reported as ignored."""
    checked = 0
    for seed in range(12):
        panel = PlayPanel(seed=seed, pace=0)
        rng = random.Random(seed)
        if not _to_card_turn(panel, rng) or panel.table.state.rules.hand_size - len(panel.table.state.tricks) < 3:
            continue
        view = panel.table_view
        legal = view.cards(legal_only=True)
        first, second = (legal * 2)[:2]
        token = view.view["token"]
        played, hand = _south_cards_played(panel), set(panel.table.state.hands[2])
        view.tap(first)
        assert panel.table.is_learner_turn() and _south_cards_played(panel) == played + 1
        after = (panel.table.state.step, set(panel.table.state.hands[2]))
        view.tap(second, token=token)  # tapped on the table of the decision before
        assert (panel.table.state.step, set(panel.table.state.hands[2])) == after
        assert len(hand - after[1]) == 1 and "ignored" in _status(panel) and "rook-error" not in _status(panel)
        view.tap(view.cards(legal_only=True)[0])  # a card of the table now on show works
        assert _south_cards_played(panel) == played + 2
        checked += 1
    assert checked >= 5


def test_double_clicks_act_once():
    panel = PlayPanel(seed=4, pace=0)
    assert panel.table.state.phase is Phase.AUCTION and panel.table.is_learner_turn()
    bid = _enabled(panel, "rook-bid")[0]
    bid.click()
    bid.click()
    south_calls = [c for seat, c in panel.table.auction_history() if seat == "S"]
    assert south_calls == [bid.description.split()[-1]] and "rook-error" not in _status(panel)
    rng = random.Random(4)
    assert _to_card_turn(panel, rng)
    card, token = panel.table_view.cards(legal_only=True)[0], panel.table_view.view["token"]
    panel.table_view.tap(card, token)
    panel.table_view.tap(card, token)
    played = _south_cards_played(panel)
    undo = _find(panel, description="Undo")[0]
    undo.click()
    undo.click()  # a double click takes back one card, not two
    assert _south_cards_played(panel) == played - 1 and "ignored" in _status(panel)
    panel.hint_button.click()  # the next thing the learner does replaces the out-of-date message
    assert "ignored" not in _status(panel) and panel.hint_html.value


def test_new_hand_and_new_game_ask_and_a_double_click_does_not_confirm():
    """Throwing away a hand (or a game) in play takes a second click at least `confirm.wait` seconds after the
    first; a double click only asks; a finished hand's New hand and a fresh game's New game do not ask."""
    panel = PlayPanel(seed=9, pace=0)
    fresh = panel.table.game
    panel.new_game_button.click()  # nothing played yet: no question
    assert panel.table.game is not fresh
    hand = panel.table.state
    panel.pass_button.click()
    hand = panel.table.state
    panel.new_hand_button.click()
    panel.new_hand_button.click()  # the second click of a double click
    assert panel.table.state is hand and "Click New hand again" in _status(panel)
    assert panel.table.prompt() in _status(panel)  # the question still says whose turn it is
    panel.confirm.wait = 0
    old_button = panel.new_hand_button
    old_button.click()
    assert panel.table.state is not hand and "Hand 1 dealt by" in _status(panel)
    old_button.click()  # the second click of a double click that confirmed: ignored, and the news stays
    assert "ignored" in _status(panel) and "dealt by" in _status(panel)
    assert panel.table.state.phase is Phase.AUCTION and panel.table.is_learner_turn()
    panel.pass_button.click()  # South has acted in this game: New game now asks
    game = panel.table.game
    panel.confirm.wait = 60
    panel.new_game_button.click()
    panel.new_game_button.click()
    assert panel.table.game is game and "Click New game again" in _status(panel)
    assert panel.table.prompt() in _status(panel)


def test_save_asks_before_replacing_a_file_it_did_not_write(tmp_path, monkeypatch):
    """The default name (hands/hand-1.json) of a new session meets an earlier session's file: the first Save only
    asks, a double click's second click asks again, a later Save replaces it, and later saves of this panel's own
    file do not ask again."""
    from widgets.paths import ReplaceGuard
    earlier = tmp_path / "hands" / "hand-1.json"
    earlier.parent.mkdir()
    from rookcore.examples import example_text
    old_hand = example_text("crowsnest-made")  # an earlier session's hand
    earlier.write_text(old_hand)
    panel = PlayPanel(seed=3, pace=0)
    assert panel.save_path.value == "hands/hand-1.json"
    assert panel.save() is None
    assert earlier.read_text() == old_hand and "hands/hand-1.json already exists" in panel.save_result.value
    assert str(tmp_path) not in panel.save_result.value, panel.save_result.value
    assert re.sub(r"<[^>]+>", "", panel.status.value).endswith(escape(panel.table.prompt()))
    assert "click Save record again" in panel.save_result.value
    assert panel.save() is None and earlier.read_text() == old_hand  # a double click
    monkeypatch.setattr(ReplaceGuard, "CONFIRM_AFTER", 0.0)  # as if the player read the question first
    assert panel.save() == str(earlier)
    assert json.loads(earlier.read_text())["format"] == "rook-hand/1"
    panel.call_pass()
    assert panel.save() == str(earlier) and "Saved" in panel.save_result.value  # its own file: no question
    other = tmp_path / "other.json"
    other.write_text(old_hand)
    assert panel.save(str(other)) is None and other.read_text() == old_hand  # another file asks again


def _ai_declares(level="rules"):
    """A panel whose hand an AI won the auction of, after South's pass: (panel, declarer)."""
    for seed in range(80):
        panel = PlayPanel(seed=seed, pace=0)
        t = panel.table
        while not t.state.is_over and t.state.phase is Phase.AUCTION and t.is_learner_turn():
            _find(panel, description="Pass")[0].click()
        if t.state.phase is Phase.PLAY and t.state.declarer != 2 and t.rules.nest_size:
            return panel
    pytest.fail("no deal where an AI declared")


def _hidden_from_south(t: Table) -> set:
    """The cards South cannot see now, from where the cards are: the others' hands (a nest an AI picked up among
    them), the nest during the auction, an AI declarer's discard; none once the hand is over."""
    s = t.state
    if s.is_over:
        return set()
    hidden = set().union(*(s.hands[seat] for seat in (0, 1, 3)))
    if s.phase is Phase.AUCTION:
        hidden |= s.dealt_nest
    elif s.declarer != 2 and s.discard is not None:
        hidden |= s.discard
    return hidden


def _cards_in_pane(panel) -> set:
    """The cards the reasoning pane's words name as the page writes them ("R14", "Crow", "Red 1"), the rule set's
    title left out."""
    from html import unescape

    from rookcore.cards import Card
    rules = panel.table.rules
    text = unescape(re.sub(r"<[^>]+>", " ", panel.reasoning_html)).replace(rules.title, " ")
    found = {Card.of(c, int(n)) for c, n in re.findall(r"(?<!\w)([RYGB])(\d{1,2})(?!\w)", text)}
    if re.search(r"(?<!\w)(Crow|Rook)(?!\w)", text):
        found.add(Card.bird())
    if re.search(r"(?<!\w)Red 1(?!\d)", text):
        found.add(Card.of("R", 1))
    return found & rules.deck_set


def test_reasoning_masks_what_south_cannot_see_until_the_hand_is_over():
    """By default each AI move shows as it happens as the whole table saw it, without candidates or scores ("N buries 5
    cards"; issue 32 item 5), checked against the hidden cards after every click; ticking the box reveals it all;
    after the hand the pane holds the full reasoning (issue 24, item 6)."""
    panel = _ai_declares()
    t = panel.table
    bird = t.rules.bird_name
    assert not panel.open_reasoning.value and panel.open_reasoning.description == "Reveal hidden cards as they play"
    buried = next(d for d in t.decisions if d.kind == "discard")
    html = panel.reasoning_html
    assert html.count("rook-decision") == len(t.decisions) and "<table" not in html  # each move, as the table saw it
    assert buried.summary(bird).split(":")[0] not in html  # the buried cards stay hidden ...
    assert f"{'NESW'[buried.seat]} buries {t.rules.nest_size} cards" in html  # ... only their number shows
    assert "masked until the hand is over" in html
    assert _hidden_from_south(t) and not _cards_in_pane(panel) & _hidden_from_south(t)
    panel.open_reasoning.value = True  # the learner's choice: everything, now
    html = panel.reasoning_html
    assert buried.summary(bird).split(":")[0] in html and "Hidden cards revealed" in html
    assert _cards_in_pane(panel) & _hidden_from_south(t)  # (so the check above can fail)
    panel.open_reasoning.value = False
    rng = random.Random(4)
    while not t.state.is_over:
        _click_one_step(panel, rng, bid_ok=False)
        assert not _cards_in_pane(panel) & _hidden_from_south(t), panel.reasoning_html
    html = panel.reasoning_html
    assert buried.summary(bird).split(":")[0] in html  # all shown once the hand is over
    assert all(escape(d.explanation) in html for d in t.decisions)
    assert "masked" not in html
    assert panel.table_view.view["hand"] == []  # a played-out hand: no cards left on the table


def test_each_kind_of_score_is_explained_once_where_it_first_appears():
    """Plain words for the numbers: under the earliest AI move whose scores are of a new kind (a bid's margin over the
    estimate, a card's expected points, a plan's strength) the pane says what they mean, once."""
    panel = _ai_declares()
    panel.open_reasoning.value = True  # scores are shown with the full reasoning only (during the hand: when revealed)
    html = panel.reasoning_html
    meanings = {d.score_meaning for d in panel.table.decisions if d.score_meaning}
    assert html.count("rook-score-meaning") == len(meanings) >= 3
    for meaning in meanings:
        assert html.count(escape(meaning)) == 1, meaning
    first_call = panel.reasoning.children[0].value  # the earliest move: a call, with the meaning of a call's score
    assert "rook-score-meaning" in first_call and "Score of a bid" in first_call


def test_many_candidates_fold_into_a_details_element():
    from rookcore.ai.base import Candidate, Decision
    from rookcore.actions import PASS, bid
    cands = tuple(Candidate(bid(70 + 5 * i), float(i), f"note {i}") for i in range(11))
    html = decision_html(Decision(PASS, cands, "why", 1, "call"), "Crow")
    assert "<details>" in html and "3 more" in html and "note 10" in html.split("<details>")[1]


def test_new_game_forgets_the_last_save_error_and_path(tmp_path):
    panel = PlayPanel(seed=3, pace=0)
    panel.save(str(tmp_path))  # a folder: refused
    assert "is a folder" in panel.save_result.value
    panel.new_game()
    assert panel.save_result.value == "" and panel.save_path.value == "hands/hand-1.json"


def _south_discarding(seeds=range(60)):
    """(seed, panel) for each seeded deal where South can bid at once: South bids the most it may (the rule set's
    top bid, which ends the auction at once, rules.md §1.2), so the panel is at South's discard."""
    for seed in seeds:
        panel = PlayPanel(seed=seed, pace=0)
        bids = [b for b in _enabled(panel, "rook-bid") if b.description.startswith("Bid ")]
        if panel.table.state.phase is not Phase.AUCTION or not bids:
            continue
        bids[-1].click()
        yield seed, panel


def test_too_many_discard_picks_are_named():
    for _seed, panel in _south_discarding():
        picks = panel.table_view.cards()
        n = panel.table.rules.nest_size
        for c in picks[:n + 1]:
            panel.table_view.tap(c)
        assert f"{n + 1} chosen: untick 1" in panel.discard_count.value
        assert panel.discard_button.disabled
        panel.table_view.tap(picks[0])  # tapped again: put back in the hand
        assert f"{n} chosen" in panel.discard_count.value and not panel.discard_button.disabled
        assert not panel.table_view.view["hand"][0]["picked"]
        return
    pytest.fail("no deal let South bid")


def test_the_trick_in_progress_sits_round_the_table():
    """The table view puts each seat where it sits for South (W left, N at the top, E right) and lists the trick in
    progress with its players, in play order from the leader."""
    for seed in range(40):
        panel = PlayPanel(seed=seed, pace=0)
        rng = random.Random(seed)
        if not _to_card_turn(panel, rng):
            continue
        while not panel.table.state.is_over and len(panel.table.current_trick()) < 2:
            _click_one_step(panel, rng)
        pairs = panel.table.current_trick()
        if len(pairs) < 2:
            continue
        view = panel.table_view.view
        assert view["positions"] == {"bottom": "S", "left": "W", "top": "N", "right": "E"}
        assert [(c["seat"], c["code"]) for c in view["trick"]["cards"]] == [
            ("NESW"[seat], card.notation(panel.table.rules.bird_name)) for seat, card in pairs]
        assert view["trick"]["leader"] == "NESW"[pairs[0][0]]
        return
    pytest.fail("no deal reached South's card turn with two cards in the trick")


def test_the_nest_cards_and_the_last_trick_are_marked():
    """While South discards, the nest's cards are marked as such (and the blue border is named); once a trick is
    done, the table shows it as the last trick with its winner and points."""
    for seed, panel in _south_discarding():
        assert "blue border: came from the nest" in panel.discard_count.value
        view = panel.table_view.view
        nest = {c["id"] for c in view["hand"] if c["from_nest"]}
        assert nest == {int(c) for c in panel.table.visible_nest()}
        rng = random.Random(seed)
        assert view["last_trick"] is None
        while panel.table.last_trick() is None:
            _click_one_step(panel, rng)
        last, trick = panel.table_view.view["last_trick"], panel.table.last_trick()
        assert last["winner"] == "NESW"[trick.winner] and last["points"] == trick.points
        assert panel.table_view.view["labels"]["last"] == f"Last trick: {SEAT_NAMES[trick.winner]} won {trick.points}"
        return
    pytest.fail("no deal let South bid")


def test_the_status_says_which_ai_is_thinking_while_it_decides(monkeypatch):
    """While an AI decides (the strong AI can take seconds) the status line names it ("W is thinking…"), paced or
    not, instead of a bare "W to act." that looks like a frozen page."""
    for pace in (0.001, 0):
        panel = PlayPanel(seed=3, pace=pace)
        assert panel.table.is_learner_turn() and panel.table.state.phase is Phase.AUCTION
        seen = []

        def spy(real):
            def call():
                seen.append(re.sub(r"<[^>]+>", "", _status(panel)))  # the status while the AI decides
                return real()
            return call

        for name in ("step_ai", "run_ai"):
            monkeypatch.setattr(panel.table, name, spy(getattr(panel.table, name)))
        panel.pass_button.click()
        assert seen, pace
        if pace:
            assert all(re.search(r"^[NEW] is thinking…", s) for s in seen), seen
        else:
            assert seen[0] == "The AIs are thinking…", seen
        assert "thinking" not in _status(panel)  # the prompt once they are done


def test_ai_moves_are_numbered_as_replay_numbers_them(tmp_path):
    """The reasoning pane's "step N" is the N-th action of the hand, the number Replay's navigator shows for it:
    the saved hand, opened in Replay at that step, shows the same seat's same action."""
    from widgets.replay import ReplayPanel

    panel = PlayPanel(seed=5, pace=0)
    panel.open_reasoning.value = True
    while not panel.table.state.is_over:
        panel.table.learner_act(panel.table.legal_for_learner()[0])
        panel.table.run_ai()
    panel.refresh()
    record = panel.table.record()
    replay = ReplayPanel(example=None)
    replay.load_record(record)
    checked = 0
    for entry, child in zip(panel.table.log, panel.reasoning.children):
        n = int(re.search(r"<small>step (\d+)", child.value)[1])
        assert n == entry.step + 1
        replay.go(n)
        words = re.sub(r"<[^>]+>", "", replay.action.value)
        assert words.startswith(f"Last action: {'NESW'[entry.decision.seat]} "), (words, entry)
        checked += 1
    assert checked > 10


def test_download_link_escapes_a_crafted_save_name(tmp_path, monkeypatch):
    """A Save-to name with quotes and markup stays text in the download link: no element or attribute of its own
    (issue 31: a crafted name ran script in the page)."""
    from html.parser import HTMLParser

    class Elements(HTMLParser):
        def __init__(self):
            super().__init__()
            self.seen = []

        def handle_starttag(self, tag, attrs):
            self.seen.append((tag, dict(attrs)))

    monkeypatch.chdir(tmp_path)
    panel = PlayPanel(seed=10, pace=0)
    _play_hand_by_buttons(panel, random.Random(10))
    crafted = 'x" onmouseover="alert(1)"><img src=y onerror=alert(2)>'
    panel.save_path.value = crafted + ".json"
    _find(panel, description="Save record")[0].click()
    parser = Elements()
    parser.feed(panel.download.value)
    assert [tag for tag, _ in parser.seen] == ["a"], panel.download.value
    assert set(parser.seen[0][1]) == {"class", "download", "href"}
    assert "alert(1)" in parser.seen[0][1]["download"] or "Saved" not in panel.save_result.value
