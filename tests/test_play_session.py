"""`rookcore.play.PlaySession` without any widget: the AIs' pace, the status line, the learner's decisions and actions,
the discard picks, the Hint, Undo, the questions before a hand or a game is thrown away, Next hand, the bird choice,
opening Replay, saving and downloading the record, the kept game and the end-of-hand review. The Play panel
(tests/widgets/test_play*.py, test_hand_end.py) draws the same session; these check its logic directly.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import threading

import pytest

from rookcore import annotations, i18n, records, saved
from rookcore.actions import PASS
from rookcore.analysis_progress import Cancelled
from rookcore.hand import Phase
from rookcore.i18n import using
from rookcore.play import PlaySession, ReviewShown
from rookcore.play import session as session_module
from rookcore.rules import get_rules
from rookcore.table import Table, table_order


def _finish(s: PlaySession, seed: int = 0) -> None:
    """The learner passes and plays random legal cards through the session until the hand is over."""
    rng = random.Random(seed)
    t = s.table
    for _ in range(300):
        if t.state.is_over:
            return
        assert t.is_learner_turn(), t.prompt()
        if t.state.phase is Phase.PLAY:
            s.play_card(rng.choice(t.legal_for_learner()).card)
        else:
            _act(s)
    raise AssertionError("the hand did not end")


def _act(s: PlaySession) -> None:
    """The learner's next move (as `_finish` makes it)."""
    t = s.table
    if t.state.phase is Phase.DISCARD:
        s.discard(t.discard_options()[:t.rules.nest_size])
    elif t.state.phase is Phase.TRUMP:
        s.name_trump("R")
    elif PASS in t.legal_for_learner():
        s.call_pass()
    else:
        s.play_card(t.legal_for_learner()[0].card)


def _played(seed: int = 4, **kwargs) -> PlaySession:
    s = PlaySession(Table(seed=seed), pace=0, **kwargs)
    _finish(s, seed)
    assert not s.table.state.passed_out  # CrowsNest AIs always open
    return s


def _south_discarding() -> PlaySession:
    """A session at the learner's discard: the learner bid the top (which ends the auction at once)."""
    for seed in range(60):
        s = PlaySession(seed=seed, pace=0)
        t = s.table
        bids = [a for a in t.legal_for_learner() if a is not PASS]
        if t.state.phase is Phase.AUCTION and bids:
            s.call_bid(bids[-1].amount)
            assert t.state.phase is Phase.DISCARD and t.state.declarer == t.learner
            return s
    pytest.fail("no deal let the learner bid")


def test_the_session_has_no_ui_import():
    code = ("import sys, rookcore.play\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'widgets', 'anywidget', "
            "'traitlets')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


# ----- the status line, decisions and the AIs' pace ------------------------------------------------------------
def test_a_new_session_lets_the_ais_act_and_says_what_comes_next():
    s = PlaySession(Table(seed=3), pace=0)
    t = s.table
    assert t.is_learner_turn() and t.log  # the AIs before the learner's first turn acted at once
    told = []
    s.on_status.append(lambda: told.append(s.status))
    s.settle()
    assert s.status.text == t.prompt() and not s.status.error and told[-1] is s.status
    assert s.decision == 1
    s.settle()
    assert s.decision == 1  # nothing changed: the same decision
    s.call_pass()
    assert s.decision == 2 and s.status.text == t.prompt()


def test_the_ais_are_paced_one_move_at_a_time_and_the_status_names_who_thinks(monkeypatch):
    sleeps = []
    monkeypatch.setattr(session_module.time, "sleep", lambda seconds: sleeps.append(seconds)
                        if threading.current_thread() is threading.main_thread() else None)
    s = PlaySession(Table(seed=3), pace=0.25)
    t = s.table
    seen, busy = [], []
    step_ai = t.step_ai
    monkeypatch.setattr(t, "step_ai", lambda: (seen.append(s.status.text), step_ai())[1])
    s.draw = lambda: (busy.append(s.ai_moving), s.settle())
    before = len(t.log)
    s.call_pass()
    moves = len(t.log) - before
    assert moves >= 1 and sleeps == [0.25] * moves
    assert seen and all(text.endswith(" is thinking…") and text[0] in "NEW" for text in seen), seen
    assert busy[0] and busy[-1] is False and not s.ai_moving  # Hint, Undo... wait while the AIs move
    assert s.status.text == t.prompt()


def test_at_pace_zero_the_status_says_the_ais_are_thinking(monkeypatch):
    s = PlaySession(Table(seed=3), pace=0)
    seen = []
    run_ai = s.table.run_ai
    monkeypatch.setattr(s.table, "run_ai", lambda: (seen.append(s.status.text), run_ai())[1])
    s.call_pass()
    assert seen == ["The AIs are thinking…"] and "thinking" not in s.status.text


def test_a_click_of_an_earlier_decision_is_said_to_be_ignored_once():
    s = PlaySession(Table(seed=3), pace=0)
    s.say("Hand 2 dealt by E.")
    s.stale_click()
    assert s.status.text == "A click made before the table changed was ignored. Hand 2 dealt by E."
    s.stale_click()  # not said twice
    assert s.status.text == "A click made before the table changed was ignored. Hand 2 dealt by E."
    s.complain("bad")
    s.stale_click()  # after an error: what happens now
    assert s.status.text == f"A click made before the table changed was ignored. {s.table.prompt()}"


def test_the_session_speaks_its_language():
    s = PlaySession(Table(seed=3), pace=0, lang="de")
    s.settle()
    with using("de"):
        assert s.status.text == s.table.prompt()
    assert s.status.text != s.table.prompt()  # (English outside)


def test_where_the_keyboard_goes_next():
    s = _south_discarding()
    assert s.focus() == "discard"
    s.discard(s.table.discard_options()[:s.table.rules.nest_size])
    assert s.focus() == "trump"
    s.name_trump("G")
    assert s.focus() == "card"
    fresh = PlaySession(Table(seed=3), pace=0)
    assert fresh.focus() == "bid"
    _finish(fresh, 3)
    assert fresh.focus() == ("new game" if fresh.table.game.is_over else "new hand")


# ----- the learner's actions -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_whole_hand_through_the_session(seed):
    s = PlaySession(Table(seed=seed), pace=0)
    _finish(s, seed)
    t = s.table
    assert t.state.is_over and len(t.score_sheet()["rows"]) == 1
    assert s.status.text == t.prompt() and s.status.text.startswith(("Hand over", "All four passed"))


def test_refused_actions_raise_and_change_nothing():
    s = PlaySession(Table(seed=3), pace=0)
    t = s.table
    step = t.state.step
    for action in (lambda: s.play_card(t.learner_hand()[0]), lambda: s.call_bid(71), lambda: s.discard([]),
                   lambda: s.name_trump("R")):
        with pytest.raises(ValueError):
            action()
        assert t.state.step == step


def test_discard_picks_follow_the_taps_in_table_order():
    s = _south_discarding()
    t = s.table
    s.settle()
    n = t.rules.nest_size
    options = t.discard_options()
    s.stale_click()
    for card in reversed(options[:n + 1]):
        s.toggle_pick(card)
    assert s.status.text == t.prompt()  # an earlier note (an ignored click) is out of date
    assert s.picked() == [c for c in table_order(t.rules, t.state.discard_candidates(), t.state.trump)
                          if c in options[:n + 1]]
    s.toggle_pick(options[0])  # tapped again: back in the hand
    assert len(s.picked()) == n and options[0] not in s.picks
    not_held = next(c for c in t.rules.deck if c not in options)
    with pytest.raises(ValueError, match="neither in your hand nor in the nest"):
        s.toggle_pick(not_held)
    assert len(s.picks) == n
    s.discard()
    assert t.state.phase is Phase.TRUMP and set(t.state.discard) == set(options[1:n + 1])
    assert s.picks == set()  # a new decision: nothing picked


def test_the_hint_is_the_ais_choice_until_the_learner_acts():
    s = PlaySession(Table(seed=6), pace=0)
    t = s.table
    step = t.state.step
    s.show_hint()
    assert s.hint.action == t.hint().action and s.status.text == t.prompt() and t.state.step == step
    s.call_pass()
    assert s.hint is None


def test_the_hint_at_the_random_level_is_the_rule_based_ais():
    """Moved from tests/widgets/test_play.py (the panel only built the table): the random level's Hint is the
    rule-based AI's choice with the table's hint seed."""
    from rookcore.ai import RuleBasedPlayer

    s = PlaySession(seed=6, pace=0)
    s.table.set_level("random")
    hint = s.table.hint()
    expected = RuleBasedPlayer(seed=s.table._hint_seed).decide(s.table.state.observation(2))
    assert hint.action == expected.action and hint.explanation == expected.explanation


def test_undo_takes_back_the_learners_action_and_redraws():
    s = PlaySession(Table(seed=2), pace=0)
    t = s.table
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()
    before = (t.state.step, len(t.log))
    s.call_pass()
    drawn = []
    s.draw = lambda: drawn.append(t.state.step)
    s.undo()
    assert (t.state.step, len(t.log)) == before and drawn == [before[0]]
    assert s.status.text == f"Undone. {t.prompt()}"


# ----- hands and games -------------------------------------------------------------------------------------
def test_new_hand_and_new_game_ask_first_and_a_second_click_goes_ahead():
    s = PlaySession(Table(seed=9), pace=0)
    s.settle()
    game = s.table.game
    s.new_game_clicked()  # nothing played yet: no question
    assert s.table.game is not game
    s.settle()
    s.call_pass()
    hand = s.table.state
    s.new_hand_clicked()
    s.new_hand_clicked()  # the second click of a double click (sooner than confirm.wait)
    assert s.table.state is hand and "Click New hand again" in s.status.text
    assert s.status.text.endswith(s.table.prompt())
    s.confirm.wait = 0
    s.new_hand_clicked()
    assert s.table.state is not hand and s.status.text.startswith("Hand 1 dealt by")
    s.call_pass()  # the learner has acted in this game: New game asks
    game = s.table.game
    s.confirm.wait = 60
    s.new_game_clicked()
    s.new_game_clicked()
    assert s.table.game is game and "Click New game again" in s.status.text
    assert "(hand 1, N–S 0 · E–W 0)" in s.status.text
    s.confirm.wait = 0
    decision = s.decision
    _act(s)  # the learner's next move: a new decision
    assert s.decision > decision
    s.new_game_clicked()  # a question of an earlier decision does not confirm this one
    assert s.table.game is game
    s.new_game_clicked()
    assert s.table.game is not game and s.table.game.scores == [0, 0]


def test_next_hand_deals_once_and_starts_a_new_game_once_the_game_is_won():
    s = _played()
    number = s.table.hand_number
    s.next_hand()
    assert s.table.hand_number == number + 1
    state = s.table.state
    s.next_hand()  # a second click: the new hand is kept
    assert s.table.state is state and s.status.text.startswith("The next hand is already dealt.")
    won = PlaySession(Table(get_rules("crowsnest", {"target": 50}), seed=1), pace=0)
    for hand in range(20):
        _finish(won, hand)
        if won.table.game.is_over:
            break
        won.next_hand()
    assert won.table.game.is_over
    won.next_hand()
    assert won.table.game.scores == [0, 0] and not won.table.game.hands


def test_new_game_runs_its_hooks_before_the_ais_move_and_uses_the_pending_rules():
    s = PlaySession(Table(seed=3), pace=0)
    s.pending_rules = get_rules("buckeye")
    seen = []
    s.on_new_game.append(lambda: seen.append((s.table.rules.variant, len(s.table.log))))
    s.new_game()
    assert seen == [("buckeye", 0)] and s.pending_rules is None and s.table.rules.variant == "buckeye"


def test_the_bird_choice_applies_to_the_next_game_and_is_said():
    s = PlaySession(Table(seed=3), pace=0)
    s.set_bird(False)
    assert s.table.rules.bird and not s.table.bird_next_game
    assert s.status.text == f"The next new game is played without the Crow. {s.table.prompt()}"
    no_option = PlaySession(Table(get_rules("partnership"), seed=3), pace=0)
    no_option.settle()
    said = no_option.status
    with pytest.raises(ValueError):
        no_option.set_bird(True)
    assert no_option.status is said


def test_replay_opens_on_a_finished_hand_through_the_hooks():
    fresh = PlaySession(Table(seed=5), pace=0)
    fresh.on_open_replay.append(lambda record, step: pytest.fail("not before the end"))
    with pytest.raises(ValueError, match="once the hand is over"):
        fresh.open_replay(3)
    s = _played()
    with pytest.raises(ValueError, match="no Replay tab on this page"):
        s.open_replay(0)
    calls = []
    s.on_open_replay.append(lambda record, step: calls.append((record, step)))
    for bad in (-1, True, "3", 2.0):
        with pytest.raises(ValueError, match="whole number"):
            s.open_replay(bad)
    s.open_replay(7)
    record, step = calls[-1]
    assert step == 7 and record.actions() == s.table.record().actions() and record.comments
    assert s.status.text == f"The hand is open in Replay at step 7. {s.table.prompt()}"


# ----- the record saved and downloaded ---------------------------------------------------------------------
class _AskOnce:
    """A replace guard asking once per path (the app's is widgets.paths.ReplaceGuard)."""

    def __init__(self):
        self.asked, self.written = set(), set()

    def question(self, path, button):
        if path.exists() and path not in self.asked and path not in self.written:
            self.asked.add(path)
            return f"{path.name} already exists: click {button} again"
        return None

    def saved(self, path):
        self.written.add(path)


def test_the_hand_record_is_saved_and_downloaded_under_its_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = _played(guard=_AskOnce())
    s.settle()
    assert s.saver.path == "hands/hand-1.json" and s.saver.download()[0] == "hand-1.json"
    result = s.save()
    assert result.kind == "saved" and result.text == "Saved hands/hand-1.json"
    assert s.status.text == f"Saved the hand record to hands/hand-1.json. {s.table.prompt()}"
    assert records.loads((tmp_path / "hands" / "hand-1.json").read_text()).replay().is_over
    s.saver.path = "hands/my-hand"
    assert s.save().path.endswith("my-hand.json")
    name, text = s.saver.download()
    assert name == "my-hand.json" and json.loads(text) == json.loads(s.table.record_json())
    s.settle()
    assert s.saver.path == "hands/my-hand"  # a name of the learner's own stays
    (tmp_path / "blocker").write_text("x")
    failed = s.save("blocker/sub/hand.json")
    assert failed.kind == "error" and s.status.error and s.status.after == s.table.prompt()
    other = tmp_path / "other.json"
    other.write_text("{}")
    asked = s.save(str(other))
    assert asked.kind == "question" and other.read_text() == "{}"
    assert s.status.text == f"{asked.text}. {s.table.prompt()}" and not s.status.error
    assert s.save(str(other)).kind == "saved"  # the second save replaces it
    german = tmp_path / "andere.json"
    german.write_text("{}")
    s.lang = "de"  # the question names the button in the session's language, as Replay's does
    with i18n.using("de"):
        button = i18n._("Save record")
    assert button != "Save record" and s.save(str(german)).text.endswith(f"click {button} again")
    s.lang = "en"
    s.next_hand()  # a new hand: its own name, nothing said about the last save
    assert s.saver.result is None and s.saver.path == "hands/hand-2.json"
    assert s.saver.download()[0] == "hand-2.json"


# ----- the kept game ---------------------------------------------------------------------------------------
def test_the_game_is_kept_after_every_change_until_a_newer_page_takes_it(tmp_path):
    path = tmp_path / "game.json"
    s = PlaySession(Table(seed=7), pace=0)
    assert s.keeper.start(path, {"deal": 7}) == "" and path.exists()
    s.call_pass()
    kept = saved.load_table(path)
    assert kept.table.state.step == s.table.state.step and kept.extra["deal"] == 7 and kept.extra["pace"] == 0
    newer = PlaySession(Table(seed=7), pace=0)
    newer.keeper.start(path)
    s.settle()
    assert not s.keeper.keep and "open in a newer page" in s.keeper.problem
    assert s.status.text == f"{s.table.prompt()} ({s.keeper.problem})"
    s.settle()
    assert s.status.text == s.table.prompt()  # said once


def test_a_link_page_keeps_the_game_only_from_its_first_change(tmp_path):
    path = tmp_path / "game.json"
    own = PlaySession(Table(seed=7), pace=0)
    own.keeper.start(path)
    stamp = path.read_bytes()
    linked = PlaySession(Table(seed=7), pace=0)
    assert linked.keeper.start(path, claim=False) == "" and path.read_bytes() == stamp
    linked.settle()
    assert path.read_bytes() == stamp and linked.keeper.keep  # nothing changed here yet
    own.call_pass()  # the game went on in the other page
    linked.call_pass()
    assert not linked.keeper.keep and "went on in another page" in linked.keeper.problem
    assert saved.keeper(path) == own.keeper.page


def test_a_game_that_cannot_be_kept_says_why(tmp_path):
    (tmp_path / "file").write_text("x")
    s = PlaySession(Table(seed=7), pace=0)
    problem = s.keeper.start(tmp_path / "file" / "game.json")
    assert problem.startswith("This game cannot be kept for your next visit:") and not s.keeper.keep
    s.call_pass()  # play goes on
    assert s.status.text == s.table.prompt()


# ----- the end-of-hand review ------------------------------------------------------------------------------
def test_the_review_waits_for_the_end_of_the_hand():
    s = PlaySession(Table(seed=3), pace=0)
    with pytest.raises(ValueError, match="when the hand is over"):
        s.start_review()
    assert s.review.shown == ReviewShown()


def test_the_review_lists_costly_cards_with_replay_links():
    s = _played()
    s.settle()
    record = s.table.record(reasons=False)
    south = [i for i, (seat, action, _x) in enumerate(s.table.state.history)
             if seat == s.table.learner and type(action).__name__ == "Play"][:2]
    items = [{"step": k, "trick": 1, "card": record.rules.card_name(record.actions()[k].card), "seat": "S",
              "text": f"Trick 1: card <{k}>."} for k in south] + [{"text": "no step", "seat": "S"}]
    s.review.reviewer = lambda rec: items
    s.review.background = False
    told = []
    s.review.listeners.append(lambda: told.append((s.review.shown.kind, s.review.running)))
    s.start_review()
    shown = s.review.shown
    assert told[0] == ("running", True) and told[-1] == ("result", False)
    assert shown.text == "Your costly cards (double dummy: all hands known, best play after):"
    assert shown.items == tuple(i["text"] for i in items) and shown.hindsight.startswith("This is hindsight")
    assert shown.scope.startswith("The review looks at the cards played")
    assert [link.step for link in s.review.links] == [k + 1 for k in south]
    assert s.review.links[0].label.startswith(f"Replay at step {south[0] + 1} (trick 1, ")
    assert s.review.replay_record.comments  # the buttons open the hand with the AIs' reasons
    s.review.reviewer = lambda rec: []
    s.start_review()
    assert s.review.shown.text.startswith("No costly cards: every card you played kept the best double-dummy "
                                          "result for N–S (within 10 points)")
    assert s.review.links == ()
    for error, said in ((RuntimeError("boom"), "The review failed: RuntimeError: boom"),
                        (ValueError("bad"), "The review failed: bad")):
        s.review.reviewer = lambda rec, error=error: (_ for _ in ()).throw(error)
        s.start_review()
        assert (s.review.shown.kind, s.review.shown.text, s.review.running) == ("failed", said, False)
    s.next_hand()
    assert s.review.shown == ReviewShown() and s.review.links == ()


def test_a_passed_out_hand_is_not_reviewed(monkeypatch):
    from rookcore.examples import load_example

    s = _played()
    monkeypatch.setattr(s.table, "record", lambda reasons=True: load_example("crowsnest-passed-out"))
    s.review.reviewer = lambda record: pytest.fail("a passed-out hand is not analysed")
    s.start_review()
    assert s.review.shown.kind == "note" and "passed out" in s.review.shown.text and not s.review.running


def test_a_background_review_shows_analyzing_first():
    s = _played()
    gate = threading.Event()
    s.review.reviewer = lambda record: gate.wait(30) and []
    s.start_review()
    assert s.review.running and s.review.shown.kind == "running" and s.review.shown.text.startswith("Analyzing…")
    s.start_review()  # while it runs: nothing more
    gate.set()
    assert s.review.wait(30)
    assert s.review.shown.text.startswith("No costly cards") and not s.review.running


def test_review_progress_shows_costly_cards_so_far_and_stops_for_a_new_hand(monkeypatch):
    """Moved from tests/widgets/test_play_review.py (the review's logic): while the review runs, "Analyzing… k of n
    cards" with the learner's costly cards among the cards analysed so far; a new hand stops it (the progress
    callback raises)."""
    import rookcore.analysis_progress as progress_module
    from rookcore.analysis import analyze_record

    monkeypatch.setattr(progress_module, "PROGRESS_EVERY", 0)
    s = _played()
    s.settle()
    record = s.table.record(reasons=False)
    cards = analyze_record(record)["cards"]
    progress = s.review.progress(record, s.review.token, "S")
    n = len(cards)
    for done in (1, n // 2, n - 1):
        progress(done, n, cards[n - done:])
        assert s.review.shown.kind == "running"
        assert s.review.shown.text.startswith(f"Analyzing… {done} of {n} cards done")
        expected = annotations.review(record, analysis={"cards": cards[n - done:]})
        assert s.review.shown.items == tuple(i["text"] for i in expected)
    s.new_hand()
    with pytest.raises(Cancelled):
        progress(n - 1, n, cards[1:])


def _long_review(reached: threading.Event | None = None, progress_first: bool = False):
    """A stand-in for annotations.review whose search takes minutes unless its solver is cancelled."""
    from rookcore.analysis.bench import play_ready

    def review(record, threshold=10, seat="S", analysis=None, progress=None, solver=None, **budgeted):
        if analysis is not None:  # the costly cards of the cards analysed so far
            return [{"text": f"R5 lost 20 ({len(analysis['cards'])} cards)", "seat": "S", "step": 40, "trick": 9,
                     "card": "R5"}]
        if progress_first:
            progress(3, 27, [{"step": 40, "trick": 9, "seat": "S", "card": "R5", "best": 60, "value": 40,
                              "loss": 20, "mark": "?", "best_cards": ["R14"]}] * 3)
        if reached is not None:
            reached.set()
        solver.solve(play_ready(get_rules("partnership"), 0))  # minutes, unless cancelled
        return [{"text": "should never be shown", "seat": "S"}]

    return review


def test_a_new_hand_stops_a_running_review(monkeypatch):
    """Moved from tests/widgets/test_play_review.py: the review's search is cancelled when a new hand is dealt: its
    thread ends at once and never reports."""
    s = _played()
    monkeypatch.setattr(annotations, "review", _long_review())
    s.start_review()
    thread = s.review.thread
    assert thread.is_alive() and s.review.shown.text.startswith("Analyzing…")
    s.next_hand()
    assert not thread.is_alive()
    assert "should never be shown" not in s.review.shown.items and s.review.shown == ReviewShown()


def test_stop_ends_a_running_review_and_keeps_what_it_found(monkeypatch):
    reached = threading.Event()
    monkeypatch.setattr(annotations, "review", _long_review(reached, progress_first=True))
    s = _played()
    s.stop_review()
    assert s.status.text == "No review is running."
    s.start_review()
    thread = s.review.thread
    assert reached.wait(30) and thread.is_alive() and s.review.running
    s.stop_review()
    assert not thread.is_alive() and not s.review.running
    shown = s.review.shown
    assert shown.kind == "stopped" and shown.text.startswith("Review stopped after 3 of 27 cards (")
    assert shown.items == ("R5 lost 20 (3 cards)",) and [link.step for link in s.review.links] == [41]


def test_the_budget_note_says_how_many_cards_are_still_open():
    from rookcore.examples import load_example
    from rookcore.play.review_words import budget_note

    record = load_example("crowsnest-made")
    report = {"variant": record.variant, "start": None, "cards": [
        {"step": 10, "trick": 1, "seat": "S", "card": "R5", "best": None, "value": None, "loss": None, "mark": None,
         "best_cards": [], "exact": False, "lo": 0, "hi": 20, "best_lo": 0, "best_hi": 20}]}
    n = annotations.analysis_counts(report, seat="S")
    assert n["open"] == 1
    assert budget_note(report, "S", 20.0) == ("The 20 s time budget ran out before every value was exact: what is "
                                              "said here is proved; 1 of your 1 card could not be judged in time.")
    assert budget_note(None, "S", 20.0) == ""


def test_a_page_only_opened_does_not_take_the_game_from_the_page_in_use(tmp_path):
    """A tab opened by mistake and left (or closed) unused: the learner goes on in the first page, which keeps the
    game again; the unused page, if the learner acts in it later, says that its moves are not kept."""
    path = tmp_path / "game.json"
    first = PlaySession(Table(seed=7), pace=0)
    first.keeper.start(path)
    first.call_pass()
    assert saved.claim_state(path) == "used"
    unused = PlaySession(saved.load_table(path).table, pace=0)
    unused.keeper.start(path)
    assert saved.keeper(path) == unused.keeper.page and saved.claim_state(path) == "opened"
    first.settle()  # before the learner acts again the first page, like an old page left by a reload, stops
    assert not first.keeper.keep and "open in a newer page" in first.keeper.problem
    first.call_pass() if first.table.is_learner_turn() and first.table.state.phase == "auction" else first.undo()
    assert first.keeper.keep and first.keeper.problem == ""
    assert saved.keeper(path) == first.keeper.page and saved.claim_state(path) == "back"
    assert saved.load_table(path).table.state.step == first.table.state.step  # its moves are kept again
    unused.settle()
    assert not unused.keeper.keep and "went on in another page" in unused.keeper.problem
    assert saved.load_table(path).table.state.step == first.table.state.step


def test_a_page_in_use_keeps_the_game_from_an_older_page(tmp_path):
    """A reload (or a second tab) where the learner acts: the older page never takes the game back, even when the
    learner acts there afterwards."""
    path = tmp_path / "game.json"
    old = PlaySession(Table(seed=7), pace=0)
    old.keeper.start(path)
    new = PlaySession(Table(seed=7), pace=0)
    new.keeper.start(path)
    new.call_pass()
    assert saved.claim_state(path) == "used" and saved.keeper(path) == new.keeper.page
    old.call_pass()
    assert not old.keeper.keep and "open in a newer page" in old.keeper.problem
    assert saved.keeper(path) == new.keeper.page
    assert saved.load_table(path).table.state.step == new.table.state.step


def test_a_claim_s_state_is_one_of_three_and_an_old_claim_counts_as_used(tmp_path):
    path = tmp_path / "game.json"
    assert saved.claim_state(path) is None
    with pytest.raises(ValueError):
        saved.claim(path, "page-a", "later")
    assert saved.claim_state(path) is None  # nothing written
    (tmp_path / "game.json.page").write_text("page-a")  # written by the release before
    assert saved.keeper(path) == "page-a" and saved.claim_state(path) == "used"
