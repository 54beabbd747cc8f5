"""The end-of-hand panel (widgets.hand_end) on the Play tab: the result, "Replay this hand", the review's costly-card
buttons and "Next hand"; and the app opening Replay at the step asked for."""
from __future__ import annotations

import random
import re

import pytest

from rookcore.actions import PASS
from rookcore.examples import load_example
from rookcore.hand import Phase
from rookcore.result import hand_result
from rookcore.rules import get_rules
from rookcore.table import Table
from widgets.hand_end import HandEndPanel, game_line, headline, points, table_rows
from widgets.play import PlayPanel


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<style>.*?</style>|<[^>]+>", " ", html)).strip()


def _finish_hand(panel: PlayPanel, seed: int = 0) -> None:
    """South passes and plays random legal cards through the panel's public handlers until the hand is over."""
    rng = random.Random(seed)
    t = panel.table
    for _ in range(300):
        if t.state.is_over:
            return
        assert t.is_learner_turn(), t.prompt()
        if t.state.phase is Phase.DISCARD:
            panel.discard(t.discard_options()[:t.rules.nest_size])
        elif t.state.phase is Phase.TRUMP:
            panel.name_trump("R")
        elif PASS in t.legal_for_learner():
            panel.call_pass()
        else:
            panel.play_card(rng.choice(t.legal_for_learner()).card)
    raise AssertionError("the hand did not end")


def _played_panel(seed: int = 4) -> PlayPanel:
    panel = PlayPanel(Table(seed=seed), pace=0)
    _finish_hand(panel, seed)
    assert not panel.table.state.passed_out  # CrowsNest AIs always open
    return panel


def _result(name: str, before=(0, 0)):
    return hand_result(load_example(name).replay(), before)


# ----- the text (widgets.hand_end) -----------------------------------------------------
def test_headline_says_made_or_set_and_who():
    assert headline(_result("crowsnest-made")) == "N–S made their bid of 85"
    assert headline(_result("crowsnest-set")) == "N–S set E–W"  # W declared 90, N–S defended
    assert headline(_result("1-high-partnership-set")) == "E–W set N–S"
    assert headline(_result("crowsnest-passed-out")) == "All four passed"


def test_table_rows_show_the_nest_and_its_team_and_the_bonus_apart():
    rows = {label: (ns, ew) for label, ns, ew in table_rows(_result("crowsnest-set"))}
    assert rows["Counters in tricks"] == ("45", "50")
    assert rows["Nest (to N–S, who took the last trick)"] == ("25", "—")
    assert rows["Captured"] == ("70", "50")
    assert rows["Hand score"] == ("+70", "−90")
    assert not any(label.startswith("Majority bonus") for label in rows)  # CrowsNest has none
    bonus = {label: (ns, ew) for label, ns, ew in table_rows(_result("1-high-partnership-set"))}
    assert bonus["Majority bonus (to E–W, more tricks)"] == ("—", "20")
    assert bonus["Nest (to E–W, who took the last trick)"] == ("—", "20")
    assert bonus["Counters in tricks"] == ("45", "115")
    no_nest = [label for label, _a, _b in table_rows(_result("partnership-made"))]
    assert not any(label.startswith("Nest") for label in no_nest)
    passed = table_rows(_result("crowsnest-passed-out", (40, 25)))
    assert passed == [("Hand score", "0", "0"), ("Game score", "40", "25")]


def test_game_line_before_and_at_the_end_of_the_game():
    assert game_line(_result("crowsnest-set", (100, 20))) == "Game: N–S 170 · E–W −70 (to 300)."
    assert game_line(_result("crowsnest-made", (230, 100)), "NS") == "Game over: N–S (you) win, 315 to 115."


def test_panel_hidden_for_none_and_drawn_for_a_result():
    replayed, nexts = [], []
    panel = HandEndPanel(replayed.append, lambda: nexts.append(1))
    assert "rook-hand-end" in panel._dom_classes and panel.layout.display == "none"
    panel.show(_result("crowsnest-set"), n_steps=51, learner="S")
    assert panel.layout.display == "flex"
    assert _text(panel.heading.value) == "N–S set E–W"
    assert "#2e7d32" in panel.heading.value  # green: the learner's team set the declarers
    assert "West bid 90 with Red trump; E–W took 50 points, 40 short." == _text(panel.line.value)
    assert "N–S (you)" in panel.table.value and "E–W (you)" not in panel.table.value
    assert panel.next_button.description == "Next hand" and panel.replay_step.max == 51
    panel.replay_step.value = 60  # clamped by the box
    panel.replay_button.click()
    panel.next_button.click()
    assert replayed == [51] and nexts == [1]
    panel.show(_result("crowsnest-made", (230, 100)), n_steps=50, learner="E")
    assert "#c62828" in panel.heading.value  # red for E–W: N–S made their bid
    assert panel.next_button.description == "New game" and "Game over" in panel.game.value
    panel.show(None)
    assert panel.layout.display == "none"


# ----- on the Play tab ---------------------------------------------------------------------
def test_play_panel_shows_the_result_only_once_the_hand_is_over():
    panel = PlayPanel(Table(seed=4), pace=0)
    assert panel.hand_end.layout.display == "none"
    assert panel.review_button in panel.hand_end.children[-1].children  # the review's button is in the panel
    _finish_hand(panel, 4)
    t = panel.table
    result = t.hand_result()
    end = panel.hand_end
    assert end.layout.display == "flex"
    assert _text(end.heading.value) == headline(result)
    text = _text(end.table.value)
    sheet = t.score_sheet()
    assert f"Game score {points(sheet['totals']['NS'])} {points(sheet['totals']['EW'])}" in text
    nest_row = next(label for label, _a, _b in table_rows(result) if label.startswith("Nest"))
    team = {"NS": "N–S", "EW": "E–W"}[result.nest_team]
    assert nest_row == f"Nest (to {team}, who took the last trick)" and nest_row in text
    assert end.replay_step.max == t.state.step


def test_replay_this_hand_calls_the_hook_with_the_record_and_the_step():
    panel = _played_panel()
    calls = []
    panel.on_open_replay.append(lambda record, step: calls.append((record, step)))
    panel.hand_end.replay_button.click()  # default: step 0, the deal
    panel.hand_end.replay_step.value = 7
    panel.hand_end.replay_button.click()
    assert [step for _r, step in calls] == [0, 7]
    record = calls[-1][0]
    assert record.actions() == panel.table.record().actions() and record.tricks
    assert record.comments  # the AIs' reasons come along as comments
    assert "Replay at step 7" in panel.status.value
    panel.open_replay(-1)  # a bad step: said, not raised
    assert "whole number" in panel.status.value and len(calls) == 2


def test_replay_without_a_hook_or_before_the_end_says_why():
    panel = _played_panel()
    panel.hand_end.replay_button.click()
    assert "no Replay tab on this page" in panel.status.value
    fresh = PlayPanel(Table(seed=5), pace=0)
    calls = []
    fresh.on_open_replay.append(lambda record, step: calls.append(step))
    fresh.open_replay(3)
    assert "once the hand is over" in fresh.status.value and calls == []


def test_a_costly_card_button_opens_replay_just_after_that_card():
    panel = _played_panel()
    record = panel.table.record(reasons=False)
    south = [i for i, a in enumerate(record.actions()) if type(a).__name__ == "Play"
             and panel.table.state.history[i][0] == panel.table.learner][:2]
    items = [{"step": s, "trick": 1, "card": record.rules.card_name(record.actions()[s].card),
              "seat": "S", "text": f"Trick x: you played a card at step {s}."} for s in south]
    items.append({"text": "an item without a step gets no button", "seat": "S"})
    panel.reviewer = lambda rec: items
    panel.review_in_background = False
    calls = []
    panel.on_open_replay.append(lambda rec, step: calls.append((rec, step)))
    panel.review_button.click()
    buttons = panel.review_links.children
    assert len(buttons) == 2 and all("rook-review-replay" in b._dom_classes for b in buttons)
    assert buttons[0].description.startswith(f"Replay at step {south[0] + 1} (trick ")
    buttons[1].click()
    rec, step = calls[-1]
    assert step == south[1] + 1 and rec.actions() == record.actions()
    panel.new_hand()  # a new hand forgets the review and its buttons
    assert panel.review_links.children == () or list(panel.review_links.children) == []


def test_next_hand_deals_once_and_a_second_click_only_says_so():
    panel = _played_panel()
    number = panel.table.hand_number
    panel.hand_end.next_button.click()
    assert panel.table.hand_number == number + 1
    assert panel.hand_end.layout.display == "none"
    state = panel.table.state
    panel.hand_end.next_button.click()  # the second click of a double click: the new hand is kept
    assert panel.table.state is state and "already dealt" in panel.status.value


def test_a_passed_out_hand_shows_no_score():
    rules = get_rules("partnership")  # its AIs pass weak hands (CrowsNest AIs always open)
    for seed in range(200):
        panel = PlayPanel(Table(rules, seed=seed), pace=0)
        while panel.table.is_learner_turn() and panel.table.state.phase is Phase.AUCTION:
            panel.call_pass()
        if panel.table.state.passed_out:
            break
    else:
        pytest.fail("no deal where every seat passes")
    assert _text(panel.hand_end.heading.value) == "All four passed"
    assert "same dealer deals again" in panel.hand_end.line.value


# ----- the app: Replay opens at the step -------------------------------------------------------
def test_the_app_opens_replay_on_the_hand_at_the_step():
    from widgets.app import TAB_TITLES, build_app

    app = build_app()
    play = app.play_panel
    play.pace = 0
    _finish_hand(play, 1)
    play.hand_end.replay_step.value = 9
    play.hand_end.replay_button.click()
    assert app.tab.titles[app.tab.selected_index] == "Replay"
    replay = app.replay
    assert replay.step == 9 and replay.record.actions() == play.table.record().actions()
    assert replay.n_steps == play.table.state.step and replay.examples.value is None
    assert "Step 9 /" in replay.step_label.value
    # a comment made in Replay stays when the same hand is opened again at another step
    replay.save_comment("a note on step 9")
    app.tab.selected_index = TAB_TITLES.index("Play")
    play.open_replay_at(play.table.record(), 20)
    assert app.tab.titles[app.tab.selected_index] == "Replay" and replay.step == 20
    assert replay.record.comment_at(8) == "a note on step 9"
    # another hand: Replay asks before it drops the unsaved comment; the second request loads it
    play.next_hand()
    _finish_hand(play, 2)
    play.open_replay(0)
    assert replay.record.comment_at(8) == "a note on step 9" and "not saved" in replay.error.value
    replay._discard.wait = 0
    play.open_replay(0)
    assert replay.record.actions() == play.table.record().actions() and replay.step == 0


def test_replay_show_record_checks_its_input_and_keeps_the_same_hand():
    from widgets.replay import ReplayPanel

    replay = ReplayPanel(analyze_in_background=False)
    record = load_example("crowsnest-set")
    assert replay.show_record(record, 12, name="x") and replay.step == 12 and replay.examples.value is None
    assert replay.save_path.value == "annotated/x.json"
    assert replay.show_record(record, 500) and replay.step == replay.n_steps  # clamped to the end
    assert not replay.show_record(record, "3") and "whole number" in replay.error.value
    from rookcore.records import GameRecord

    game = GameRecord(variant="crowsnest", hands=[record])
    assert not replay.show_record(game, 1) and "only a hand record" in replay.error.value
    replay.go(5)
    replay.save_comment("kept")
    again = load_example("crowsnest-set")  # the same hand read afresh: only the step moves, the comment stays
    assert replay.show_record(again, 7) and replay.step == 7 and replay.record.comment_at(4) == "kept"
    assert replay.error.layout.display == "none"
