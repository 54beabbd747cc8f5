"""`rookcore.replay.ReplaySession` without any widget: loading, stepping, what is shown at each step, comments and
marks, drafts and the question before unsaved work is dropped, saving, and the analysis (budgeted ranges, progress,
Cancel). The Replay panel (tests/widgets/test_replay*.py) draws the same session; these check its logic directly.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from rookcore import annotations, records
from rookcore.cards import Card
from rookcore.analysis_progress import AnalysisRun, Cancelled, progress_text
from rookcore.examples import example_path, expected_path, list_examples, load_example
from rookcore.i18n import using
from rookcore.replay import MAX_RECORD_BYTES, ReplayError, ReplaySession, plain_record_error
from rookcore.replay.verdicts import cards_shown

EXAMPLES = list_examples()


def _session(name: str | None = "crowsnest-made", **kwargs) -> ReplaySession:
    s = ReplaySession(**{"background": False, **kwargs})
    if name:
        s.load(load_example(name), name=name, example=name)
    return s


def _fake_analysis(record):
    """A quick stand-in for the double-dummy analyzer (as in tests/widgets/test_replay_annotate.py)."""
    cards, k = [], 0
    step = len(record.actions()) - sum(len(t) for t in record.tricks)
    for t, trick in enumerate(record.tricks):
        for card in trick:
            name = record.rules.card_name(card)
            loss = 15 if k % 7 == 3 else (4 if k % 5 == 1 else 0)
            cards.append({"step": step + k, "trick": t + 1, "seat": "NESW"[k % 4], "card": name, "best": 90,
                          "value": 90 - loss, "loss": loss, "mark": "?" if loss >= 10 else "",
                          "best_cards": [name] if not loss else ["R14"]})
            k += 1
    return {"variant": record.variant, "start": {"NS": 90, "EW": 30}, "cards": cards}


def _open(card: dict, **kw) -> dict:
    """A budgeted analysis' entry of ``card`` that is not valued exactly (rookcore.analysis.budget)."""
    return {**card, "best": None, "value": None, "loss": None, "mark": None, "best_cards": [], "exact": False,
            "lo": 0, "hi": 120, "best_lo": 0, "best_hi": 120, **kw}


class _AskOnce:
    """A save guard asking once per path (the app's is widgets.paths.ReplaceGuard, tested through the panel in
    tests/widgets/test_replay_annotate.py): records what the session asked and told it."""

    def __init__(self):
        self.asked, self.written = [], []

    def question(self, path, button):
        if path in self.asked or not path.exists():
            return None
        self.asked.append(path)
        return f"{path.name} exists: click {button} again"

    def saved(self, path):
        self.written.append(path)


# ----- loading and stepping -------------------------------------------------------------------------------------
def test_rookcore_replay_imports_no_ui():
    code = "import sys, rookcore.replay, rookcore.analysis_progress, rookcore.confirm; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_loaded_example_starts_at_the_deal_and_steps_with_clamping():
    s = _session()
    n = len(load_example("crowsnest-made").actions())
    assert (s.step, s.n_steps, s.example, s.source_name) == (0, n, "crowsnest-made", "crowsnest-made")
    shown = s.shown()
    assert shown.loaded and shown.action.startswith("N deals") and shown.comments == [] and shown.score is None
    assert shown.title.rules == "CrowsNest" and shown.title.dealer == "dealer N"
    s.go(1)  # record step 0's comment is about the opening call: shown once that call is the last action shown
    assert s.shown().comments == ["Comment: The opening call."] and "E bids 70" in s.shown().action
    assert s.go(-3) == 0 and s.go(10_000) == n and s.shown().score is not None
    assert s.default_path == "annotated/crowsnest-made.json"


def test_no_record_shows_nothing_and_refuses_edits():
    s = ReplaySession()
    shown = s.shown()
    assert not shown.loaded and (shown.step, shown.n_steps) == (0, 0) and s.state is None
    for act in (lambda: s.save_comment("x"), lambda: s.set_mark("!"), lambda: s.analyze(5), s.apply_analysis_marks,
                lambda: s.save("x.json"), s.cancel_analysis):
        with pytest.raises(ReplayError, match="load a record first"):
            act()
    assert s.download() is None and s.analysis_shown() == type(s.analysis_shown())()  # all defaults


@pytest.mark.parametrize("name", EXAMPLES)
def test_each_example_ends_with_its_expected_score(name):
    s = _session(name)
    expected = json.loads(expected_path(name).read_text("utf-8"))
    s.go(s.n_steps)
    box = s.shown().score
    if expected.get("passed_out"):
        assert box.text.startswith("Passed out") and "passed out" in s.shown().action
        return
    signed = lambda v: f"+{v}" if v > 0 else str(v)  # noqa: E731
    assert box.score == f"Score: N–S {signed(expected['score']['NS'])} · E–W {signed(expected['score']['EW'])}"
    assert box.result.startswith(f"Declarer {expected['declarer']}") and f"bid {expected['bid']}" in box.result
    assert box.result.endswith("made" if expected["made"] else "set")
    assert box.captured.startswith(f"Captured: N–S {expected['captured']['NS']} · E–W {expected['captured']['EW']}")
    for k in range(s.n_steps + 1):  # every step's table holds every card the hands hold, face up
        s.go(k)
        view = s.shown().table
        assert sum(len(seat["cards"]) for seat in view["seats"].values()) == sum(len(h) for h in s.state.hands)


def test_step_words_and_facts():
    s = _session()  # crowsnest-made: auction 70 75 pass 80 pass 85 pass, discard, trump Y
    s.go(8)
    shown = s.shown()
    assert "S buries" in shown.action and "(takes up the nest and puts these 5 back)" in shown.action
    assert "Crow" in shown.action and "CROW" not in shown.action
    facts = {f.label: f for f in shown.facts}
    assert "Nest (put back by S)" in facts and len(facts["Nest (put back by S)"].cards) == 5
    assert facts["Contract"].text == "S (N–S) bid 85" and facts["Auction"].text.startswith("E 70 · S 75 · W pass")
    s.go(9)
    assert s.shown().action == "S names trump: Yellow."
    s.go(13)
    shown = s.shown()
    assert "E wins the trick" in shown.action and shown.last_played
    trick = next(f for f in shown.facts if f.label == "Last trick (1)")
    assert trick.won == "E wins" and trick.text.startswith("led by E:") and len(trick.cards) == 4


def test_the_state_at_each_step_is_the_engines():
    record = load_example("tournament-set")
    s = _session(None)
    s.load(record)
    for k in (0, 5, 20, s.n_steps):
        s.go(k)
        engine = record.replay(upto=k)
        assert s.state.hands == engine.hands
        captured = next(f for f in s.shown().facts if f.label == "Captured")
        assert captured.text == f"N–S {engine.captured[0]} · E–W {engine.captured[1]}"


def test_bad_records_are_refused_and_the_record_on_show_stays():
    s = _session()
    s.go(5)
    before = s.record
    with pytest.raises(ReplayError, match="not JSON"):
        s.parse("{not json", "x.json")
    with pytest.raises(ReplayError, match="not a Rook record"):
        s.parse('{"hello": 1}')
    doc = json.loads(example_path("crowsnest-made").read_text())
    doc["tricks"][0][1] = "Y5"  # S must follow green (holds G12)
    with pytest.raises(ReplayError) as bad:
        s.parse(json.dumps(doc), "bad.json")
    line = plain_record_error(str(bad.value).splitlines()[0])
    assert line.startswith("bad.json: step ") and "(Step " in line and "here): S cannot play Y5" in line
    broken = load_example("crowsnest-made")
    broken.tricks = [list(t) for t in broken.tricks]
    broken.tricks[0][1] = Card.parse("Y5")  # made without a check: the session's load replays it and refuses it
    with pytest.raises(ValueError, match="S cannot play Y5"):
        s.load(broken)
    with pytest.raises(ReplayError, match="no hands"):
        s.load(records.GameRecord(variant="crowsnest", hands=[]))
    assert s.record is before and s.step == 5 and s.game is None


def test_plain_record_errors():
    assert plain_record_error("$: 'variant' is a required property") == "the record: 'variant' is a required property"
    assert plain_record_error("x.json: $.dealer: 'Q' is not one of") == "x.json: dealer: 'Q' is not one of"
    assert plain_record_error("step 14: S cannot play Y5") == "step 14 (Step 15 here): S cannot play Y5"


def test_read_file_with_plain_paths(tmp_path):
    s = _session()
    (tmp_path / "dixie.json").write_text(example_path("dixie-made").read_text())
    assert s.read_file(str(tmp_path / "dixie")).variant == "dixie"  # .json added, as a save adds it
    with pytest.raises(ValueError, match="missing.json: cannot read"):
        s.read_file(str(tmp_path / "missing.json"))
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(ValueError, match="not a regular file|not an ordinary file"):
        s.read_file(str(tmp_path / "fifo.json"))  # returns at once: the FIFO is never opened
    (tmp_path / "big.json").write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(ValueError, match="larger than 1 MB"):
        s.read_file(str(tmp_path / "big.json"))
    with pytest.raises(ValueError, match="enter a file name"):
        s.read_file("  ")
    assert s.record.variant == "crowsnest"


def test_a_game_record_shows_each_hand_and_saves_as_a_game(tmp_path):
    from rookcore.ai import LEVELS
    from rookcore.rules import get_rules
    from rookcore.selfplay import play_hands

    game = records.loads(records.dumps(play_hands(get_rules(), [LEVELS["rules"](seed=s) for s in range(4)], 2,
                                                  seed=7)))
    s = _session(None)
    s.load(game, name="g")
    labels = s.hand_labels()
    assert len(labels) == 2 and labels[0].startswith("Hand 1 (dealer ")
    s.choose_hand(1)
    assert s.record is game.hands[1] and s.step == 0 and s.analysis_name() == "g, hand 2"
    s.go(s.n_steps)
    assert s.shown().score.game.startswith("Game: N–S")
    s.go(6)
    s.save_comment("in a game")
    s.set_mark("?")
    assert s.save(str(tmp_path / "g.json")).kind == "saved"
    back = records.loads((tmp_path / "g.json").read_text("utf-8"))
    assert isinstance(back, records.GameRecord) and back.hands[1].comment_at(5) == "in a game"
    assert back.hands[1].marks == {5: "?"}
    with pytest.raises(ValueError):
        s.choose_hand(2)


def test_passed_out_and_unfinished_hands():
    s = _session("crowsnest-passed-out")
    s.go(s.n_steps)
    assert "Passed out" in s.shown().score.text
    doc = json.loads(example_path("crowsnest-set").read_text())
    doc["tricks"] = doc["tricks"][:3] + [doc["tricks"][3][:2]]
    s.load(s.parse(json.dumps(doc)))
    s.go(s.n_steps)
    assert s.shown().score.text.startswith("Unfinished hand")


# ----- comments, marks, drafts ----------------------------------------------------------------------------------
def test_a_mark_and_a_comment_go_on_the_last_action_shown():
    s = _session()
    assert s.annotated_step is None and s.shown().editor.step is None
    with pytest.raises(ReplayError, match="step forward to comment"):
        s.set_mark("?")
    s.go(15)
    assert s.annotated_step == 14
    said = s.set_mark("??")
    assert s.record.marks == {14: "??"} and "marked ??" in said and "(step 15)" in said
    assert s.shown().mark == "??" and s.shown().editor.mark == "??"
    assert "Comment saved" in s.save_comment("This card!") and s.record.comment_at(14) == "This card!"
    assert s.shown().comments == ["Comment: This card!"]
    s.go(16)
    assert s.shown().mark == "" and s.shown().comments == []
    with pytest.raises(ValueError, match="bad mark"):
        s.set_mark("bad")
    assert s.record.marks == {14: "??"}


def test_edit_delete_and_blank_comments():
    s = _session()
    s.go(4)
    s.save_comment("first")
    s.save_comment("second")
    assert s.record.comment_at(3) == "second" and [c["step"] for c in s.record.comments] == [0, 3]
    assert "deleted" in s.delete_comment() and s.record.comment_at(3) == ""
    assert "There is no comment" in s.delete_comment()
    before = s.record
    assert "type one first" in s.save_comment("   ") and s.record is before  # nothing to save, nothing changed
    assert "removed" in s.set_mark("") and s.record.marks is None


def test_drafts_count_as_unsaved_and_edits_undone_do_not():
    s = _session()
    s.go(5)
    assert s.type_comment("typed, not saved") is True and s.unsaved and not s.changed
    s.go(6)
    assert s.draft() is None and s.shown().editor.text == ""
    s.go(5)
    assert s.shown().editor.text == "typed, not saved" and s.shown().editor.draft
    assert s.type_comment("") is False and not s.unsaved  # back to the record's own (no comment)
    s.go(0)
    assert s.type_comment("x") is None  # no action shown: nothing kept
    s.go(6)
    s.save_comment("Too high")
    s.set_mark("??")
    assert s.changed
    s.delete_comment()
    s.set_mark("")
    assert not s.changed and not s.unsaved


def test_another_record_asks_once_before_unsaved_work_is_dropped():
    s = _session()
    s.go(4)
    s.set_mark("?")
    with pytest.raises(ReplayError, match="not saved: click Save record first, or click Load again"):
        s.check_discard(("file", "x"), "click Load again")
    with pytest.raises(ReplayError):  # the second click of a double click only repeats the question
        s.check_discard(("file", "x"), "click Load again")
    s.discard.wait = 0
    with pytest.raises(ReplayError):  # another record: a new question
        s.check_discard(("file", "y"), "click Load again")
    s.check_discard(("file", "y"), "click Load again")  # asked again: goes ahead
    s.load(load_example("buckeye-made"))
    assert not s.unsaved and s.record.marks is None


def test_open_at_keeps_the_same_hand_and_checks_its_input():
    s = _session(None)
    record = load_example("crowsnest-set")
    assert s.open_at(record, 12, name="x") is True and s.step == 12 and s.default_path == "annotated/x.json"
    assert s.open_at(record, 500) is False and s.step == s.n_steps
    with pytest.raises(ReplayError, match="whole number"):
        s.open_at(record, "3")
    with pytest.raises(ReplayError, match="only a hand record"):
        s.open_at(records.GameRecord(variant="crowsnest", hands=[record]), 1)
    s.go(5)
    s.save_comment("kept")
    assert s.open_at(load_example("crowsnest-set"), 7) is False and s.record.comment_at(4) == "kept"
    with pytest.raises(ReplayError, match="open it again"):  # another hand: asks first
        s.open_at(load_example("crowsnest-made"), 3)
    assert s.record.comment_at(4) == "kept"


# ----- saving -----------------------------------------------------------------------------------------------------
def test_save_download_and_the_guard(tmp_path):
    guard = _AskOnce()
    s = _session(guard=guard)
    s.go(6)
    s.save_comment("Too high: 85 needs the nest.")
    s.set_mark("??")
    name, text = s.download()
    doc = json.loads(text)
    assert name == "crowsnest-made.json" and doc["marks"] == {"5": "??"}
    assert {"step": 5, "text": "Too high: 85 needs the nest."} in doc["comments"]
    target = tmp_path / "week1"
    saved = s.save(f"  {target}  ")
    assert saved.kind == "saved" and saved.path == str(target) + ".json" and not s.changed
    assert s.saved_note == f"Saved {target}.json" and s.download()[0] == "week1.json"
    back = _session(None)
    back.load(back.read_file(saved.path))
    assert back.record.marks == {5: "??"} and back.record.comment_at(0) == "The opening call."
    other = tmp_path / "other.json"
    other.write_text(example_path("crowsnest-set").read_text())
    asked = s.save(str(other))
    assert asked.kind == "question" and "again" in asked.text and records.loads(other.read_text()).variant
    assert json.loads(other.read_text()) == json.loads(example_path("crowsnest-set").read_text())
    assert s.save(str(other)).kind == "saved" and guard.written[-1] == other
    assert s.save("").kind == "error"
    (tmp_path / "f").write_text("x")
    failed = s.save(str(tmp_path / "f" / "x.json"))  # a ValueError of the engine's save
    assert failed.kind == "error" and "is a file, not a folder" in failed.text
    failed = s.save("/proc/rook-nowhere/x.json")  # an OSError: no folder can be made there
    assert failed == type(failed)("error", "/proc/rook-nowhere/x.json: cannot write: No such file or directory")
    assert not s.changed and s.source_name == "other"


# ----- analysis -----------------------------------------------------------------------------------------------------
def test_analyze_shows_costly_cards_and_copies_their_marks():
    s = _session(analyzer=_fake_analysis)
    s.analyze()
    assert s.analysis_status.text.startswith("Analysis done") and not s.analysis_running
    expected = [c for c in _fake_analysis(s.record)["cards"] if c["loss"] > 0]
    shown = s.analysis_shown()
    assert [r.step for r in shown.rows] == [c["step"] for c in expected] and shown.can_apply and shown.can_analyze
    first = next(c for c in expected if c["mark"] == "?")
    s.go(first["step"] + 1)
    card = s.analysis_shown().card
    assert card.move.endswith(f"plays {first['card']}") and card.mark == "?" and "loss 15" in card.verdict
    assert "R14" in card.verdict
    row = next(r for r in s.analysis_shown().rows if r.step == first["step"])
    assert row.label.startswith(f"step {first['step'] + 1}: trick {first['trick']}, ") and row.label.endswith("?")
    s.go(3)
    assert "not a card" in s.analysis_shown().card.text
    s.go(0)
    assert "step forward" in s.analysis_shown().card.text
    s.go(first["step"] + 1)
    s.set_mark("!")  # the learner's own mark is kept
    s.apply_analysis_marks()
    marked = {c["step"]: "?" for c in expected if c["mark"] == "?"}
    marked[first["step"]] = "!"
    assert s.record.marks == marked
    assert "No new marks" in s.apply_analysis_marks()
    s.load(load_example("crowsnest-set"))
    assert s.analysis is None and s.analysis_shown().rows == [] and s.analysis_status is None


def test_analyze_again_errors_and_hands_without_play():
    calls = []

    def counting(record):
        calls.append(record)
        return _fake_analysis(record)

    s = _session(analyzer=counting)
    s.analyze()
    done = s.analysis_status.text
    s.analyze()
    assert len(calls) == 1 and s.analysis_status.text == "Already analysed. " + done
    s.job.analyzer = lambda record: (_ for _ in ()).throw(RuntimeError("solver exploded"))
    s.load(load_example("crowsnest-set"))
    s.analyze()
    assert s.analysis_status.error and s.analysis_status.text == "The analysis failed: RuntimeError: solver exploded"
    s.load(load_example("crowsnest-passed-out"))
    s.analyze()
    assert "passed out" in s.analysis_status.text and s.analysis is None
    rec = load_example("crowsnest-made")
    rec.tricks = None
    s.load(rec)
    s.analyze()
    assert "no cards were played" in s.analysis_status.text


def test_an_unfinished_hand_is_analysed_so_far():
    s = _session(None, analyzer=_fake_analysis)
    rec = load_example("crowsnest-made")
    rec.tricks = rec.tricks[:3]
    s.load(rec)
    s.analyze()
    assert "Analysis done: 12 cards" in s.analysis_status.text
    assert "the 12 cards played so far are judged" in s.analysis_status.text


def test_proven_ranges_are_shown_as_they_come_then_refined(monkeypatch):
    """A budgeted analysis reports its proven ranges before its exact values; each report is shown at once."""
    import rookcore.analysis_progress as progress

    monkeypatch.setattr(progress, "PROGRESS_EVERY", 0)
    seen = []

    def staged(record, threshold=10, progress=None, solver=None, budget=None, on_report=None):
        exact = _fake_analysis(record)
        cards = exact["cards"]
        first = [_open(cards[0]), _open(cards[1], lo=60, hi=65, best_lo=80, best_hi=95, mark="?")] + cards[2:]
        progress(len(cards) - 2, len(cards), cards[1:])
        on_report({**exact, "start": None, "start_range": {"NS": [75, 105], "EW": [15, 45]}, "cards": first})
        seen.append((budget, s.analysis_shown()))
        return exact

    monkeypatch.setattr(annotations, "analyze", staged)
    s = _session()
    s.analyze(15.0)
    budget, during = seen[0]
    assert budget == 15.0 and during.running and not during.can_apply and not during.cancel  # not in a thread
    assert during.start.startswith("N–S (declarers, bid 85) take between 75 and 105 points with best play from the "
                                   "first lead (E–W: between 15 and 45) — proved; refining…")
    assert "whether N–S's bid of 85 could have been made is not proven yet" in during.auction
    row = next(r for r in during.rows if not r.exact)
    assert row.loss == "15–35" and row.mark == "?" and row.best == "not found yet"
    assert row.label.endswith(" — loss 15 to 35 ?") and "a proven range" in during.legend
    after = s.analysis_shown()
    assert after.start.startswith("N–S (declarers, bid 85) take 90 points") and "exact." in after.start
    assert s.analysis_status.text.startswith("Analysis done")


def test_card_verdicts_of_ranges():
    s = _session()
    rec = s.record
    cards = _fake_analysis(rec)["cards"]
    report = {"variant": rec.variant, "start": None, "partial": True,  # cut short before the first lead
              "cards": [_open(cards[1], lo=60, hi=65, best_lo=80, best_hi=95, mark="?"), _open(cards[2])] + cards[3:]}
    s.job.analysis = report
    s.go(cards[1]["step"] + 1)
    verdict = s.analysis_shown().card.verdict
    assert verdict.startswith("proved so far: loss between 15 and 35 points (E–W could get between 80 and 95 with "
                              "best play before this card, between 60 and 65 after it); a mistake: it loses at least "
                              "10 points")
    s.go(cards[2]["step"] + 1)
    assert s.analysis_shown().card.verdict.startswith("nothing proven yet")
    s.go(cards[0]["step"] + 1)  # the first lead, which the analysis has not reached
    assert "is not analysed" in s.analysis_shown().card.text
    assert s.analysis_shown().empty == "" and "a proven range" in s.analysis_shown().legend


def test_a_background_analysis_reports_progress_to_listeners_and_cancel_keeps_what_is_shown(monkeypatch):
    import rookcore.analysis_progress as progress
    from rookcore.analysis.bench import play_ready
    from rookcore.rules import get_rules

    monkeypatch.setattr(progress, "PROGRESS_EVERY", 0)
    reached = threading.Event()

    def stuck(record, threshold=10, progress=None, solver=None, budget=None, on_report=None):
        cards = _fake_analysis(record)["cards"]
        for done in range(1, len(cards)):
            progress(done, len(cards), cards[len(cards) - done:])
        reached.set()
        solver.solve(play_ready(get_rules("partnership"), 0))  # minutes, unless cancelled
        return {"variant": record.variant, "start": None, "cards": [], "never": "shown"}

    monkeypatch.setattr(annotations, "analyze", stuck)
    s = _session("partnership-made", background=True)
    statuses = []
    s.job.listeners.append(lambda: statuses.append(s.analysis_status.text if s.analysis_status else ""))
    s.analyze(60)
    assert reached.wait(30)
    total = len(s.record.tricks) * 4
    deadline = time.monotonic() + 10
    while not any(f"{total - 1} of {total} cards done" in t for t in statuses) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert s.analysis_running and s.analysis_shown().cancel and not s.analysis_shown().can_analyze
    thread = s.job.thread
    s.cancel_analysis()
    assert not s.analysis_running
    thread.join(120)  # its solver was cancelled (a cold numba cache compiles first: the join waits for that)
    assert not thread.is_alive()
    assert s.analysis_status.text.startswith(f"Analysis cancelled after {total - 1} of {total} cards (")
    assert s.analysis["partial"] and len(s.analysis["cards"]) == total - 1 and "never" not in s.analysis
    assert s.analysis_shown().can_apply and s.analysis_shown().can_analyze and not s.analysis_shown().cancel
    s.cancel_analysis()  # nothing running (a double click's second click): the summary stays
    assert s.analysis_status.text.startswith("Analysis cancelled after")
    s.analyze(60)
    s.load(load_example("crowsnest-made"), name="crowsnest-made")
    assert s.analysis_status.text == "The analysis of partnership-made was stopped: another record was loaded."
    assert s.wait_analysis(10)


def test_a_result_that_comes_after_cancel_is_not_shown():
    gate = threading.Event()

    def slow(record):
        gate.wait(30)
        return _fake_analysis(record)

    s = _session(analyzer=slow, background=True)
    s.analyze()
    thread = s.job.thread
    assert s.analysis_running
    s.cancel_analysis()
    status = s.analysis_status.text
    assert "Analysis cancelled after" in status and "before its first card was done" in status
    gate.set()
    thread.join(30)
    assert s.analysis_status.text == status and s.analysis is None and not s.analysis_running


def test_progress_of_a_run_no_longer_wanted_stops_it():
    s = _session(analyzer=_fake_analysis)
    run = AnalysisRun("crowsnest-made", 60.0)
    progress = s.job.progress(s.job.token, run)
    cards = _fake_analysis(s.record)["cards"]
    progress(2, len(cards), cards[-2:])  # a run with no report yet shows the cards analysed so far
    assert s.analysis["partial"] and "2 of 36" in s.analysis_status.text
    s.load(load_example("crowsnest-set"))
    with pytest.raises(Cancelled):
        progress(3, len(cards), cards[-3:])
    with pytest.raises(Cancelled):
        s.job.reports(s.job.token - 1)({"variant": "crowsnest", "start": None, "cards": []})


def test_progress_text():
    """Moved from tests/widgets/test_replay_annotate.py: `progress_text` names the trick analysed while later tricks
    are left; once only trick 1's cards are left, why they take long; the elapsed seconds when given."""
    cards = [{"trick": 7}] + [{"trick": 9}] * 11
    assert progress_text(12, 36, cards) == ("Analyzing… 12 of 36 cards done, from the last trick back (now in trick "
                                            "7 of 9; the first tricks take longest).")
    assert progress_text(12, 36, cards, elapsed=3.4).endswith("longest). 3 s so far.")
    first = [{"trick": 2}] + [{"trick": 13}] * 47
    text = progress_text(48, 52, first, elapsed=27.0)
    assert text.startswith("Analyzing… 48 of 52 cards done, from the last trick back. 27 s so far.")
    assert "Left: the first 4 cards of trick 1, above all the first lead, which values every other lead" in text
    assert "minutes on 13/14-trick hands" in progress_text(51, 52, [{"trick": 1}], elapsed=141)
    assert "Left: the first lead, which" in progress_text(51, 52, [{"trick": 1}])
    assert "now in trick 2 of 13" in progress_text(47, 52, [{"trick": 2}, {"trick": 13}])


def test_analysis_cards_are_named_as_on_the_page():
    """Moved from tests/widgets/test_replay.py: the analysis report writes cards in record notation ("CROW", "R1");
    the session names them as the navigator does ("Crow", "Red 1")."""
    assert cards_shown(load_example("crowsnest-made"), "CROW", "R14") == "Crow, R14"
    assert cards_shown(load_example("red-1-made"), "R1", "ROOK") == "Red 1, Rook"


# ----- language -----------------------------------------------------------------------------------------------------
def test_the_session_speaks_its_own_language():
    english = _session()
    english.go(1)
    s = _session(lang="de")
    s.go(1)
    with using("en"):  # whatever language is active around it
        assert s.shown().title.dealer == "Geber N" and s.shown().action == "O bietet 70."
        assert s.set_mark("?") != english.set_mark("?")
    s.lang = "en"
    assert s.shown().action == "E bids 70." and s.shown().title.dealer == "dealer N"
