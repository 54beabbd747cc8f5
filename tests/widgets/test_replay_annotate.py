"""ReplayPanel annotation: comments and marks through the buttons, saving and re-loading, and Analyze."""
from __future__ import annotations

import base64
import json
import re
import time

import pytest

from rookcore import records
from rookcore.examples import load_example
from widgets.clicks import SecondClick
from widgets.replay import ReplayPanel


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


def _fake_analysis(record, question_threshold=10):
    """A quick stand-in for the double-dummy analyzer: every card of W and S costs its position parity."""
    cards = []
    step = len(record.actions()) - sum(len(t) for t in record.tricks)
    k = 0
    for t, trick in enumerate(record.tricks):
        for card in trick:
            name = record.rules.card_name(card)
            loss = 15 if k % 7 == 3 else (4 if k % 5 == 1 else 0)
            cards.append({"step": step + k, "trick": t + 1, "seat": "NESW"[k % 4], "card": name,
                          "best": 90, "value": 90 - loss, "loss": loss,
                          "mark": "?" if loss >= question_threshold else "",
                          "best_cards": [name] if not loss else ["R14"]})
            k += 1
    return {"variant": record.variant, "start": {"NS": 90, "EW": 30}, "cards": cards}


def test_stable_names():
    p = ReplayPanel()
    assert "rook-annotate-text" in p.comment_text._dom_classes
    assert p.save_comment_button.description == "Save comment"
    assert "rook-annotate-save" in p.save_comment_button._dom_classes
    assert p.delete_comment_button.description == "Delete comment"
    assert "rook-annotate-delete" in p.delete_comment_button._dom_classes
    assert [b.description for b in p.mark_buttons.values()] == ["!", "?", "??", "no mark"]
    assert all("rook-annotate-mark" in b._dom_classes for b in p.mark_buttons.values())
    assert "rook-annotate-path" in p.save_path._dom_classes
    assert "rook-annotate-save-record" in p.save_record_button._dom_classes
    assert "rook-annotate-result" in p.save_result._dom_classes
    assert "rook-analyze" in p.analyze_button._dom_classes and p.analyze_button.description == "Analyze"
    assert "rook-analysis-table" in p.analysis_table._dom_classes
    assert "rook-analysis-budget" in p.analysis_budget._dom_classes and p.analysis_budget.description == "Time budget"
    assert "rook-analysis-start" in p.analysis_start._dom_classes
    assert p.save_path.value == "annotated/crowsnest-made.json"
    assert "<a " in p.download.value and "download=" in p.download.value and "data:application/json;base64," in \
        p.download.value


def test_comment_editor_is_about_the_last_action_shown():
    """At slider position p the editor (and the comment shown) is about record step p - 1, the action the action
    line describes; at position 0 no action is shown and the editor is disabled."""
    p = ReplayPanel()
    assert p.annotated_step is None and p.comment_text.disabled and p.comment_text.value == ""
    assert p.save_comment_button.disabled and p.delete_comment_button.disabled
    assert all(b.disabled for b in p.mark_buttons.values())
    assert "Step forward to comment on an action" in _text(p.annotate_step.value)
    p.forward_button.click()
    # position 1: the last action shown is record step 0, E's opening call, which the example comments on
    assert p.annotated_step == 0 and not p.comment_text.disabled
    assert p.comment_text.value == "The opening call." and "The opening call." in p.comment.value
    assert "(step 1)" in p.annotate_step.value and "E bids 70" in p.annotate_step.value
    assert "E bids 70" in p.action.value
    p.forward_button.click()
    assert p.comment_text.value == "" and p.comment.layout.display == "none"
    assert "(step 2)" in p.annotate_step.value and "S bids 75" in p.annotate_step.value
    assert p.step_label.value.startswith("Step 2 / ")  # the same number as the navigator's, not the record's 1
    assert "S bids 75" in p.action.value
    p.first_button.click()
    assert p.comment_text.value == "" and p.comment_text.disabled


def test_a_mark_goes_on_the_card_just_played():
    """The newcomer's report: at "Step 15 / n" with "Last action: S plays Y13" (the card highlighted on the board),
    ?? must mark that card (record step 14), not the next action."""
    p = ReplayPanel()
    p.go(15)
    played = p.record.actions()[14]
    name = p.record.rules.card_name(played.card)
    assert f"plays {name}" in _text(p.action.value)
    p.mark_buttons["??"].click()
    assert p.record.marks == {14: "??"}
    assert "??" in _text(p.action.value) and f"plays {name}" in _text(p.annotate_step.value)
    assert "marked ??" in _text(p.annotate_status.value) and "(step 15)" in _text(p.annotate_status.value)
    p.comment_text.value = "This card!"
    p.save_comment_button.click()
    assert p.record.comment_at(14) == "This card!" and "This card!" in p.comment.value
    p.forward_button.click()  # the next action has neither
    assert "??" not in _text(p.action.value) and p.comment_text.value == "" and "This card!" not in p.comment.value


def test_annotate_step5_save_and_reload(tmp_path):
    p = ReplayPanel()
    for _ in range(6):
        p.forward_button.click()
    assert p.step == 6 and p.annotated_step == 5  # the 6th action (record step 5) is the last one shown
    p.comment_text.value = "Too high: 85 needs the nest."
    p.save_comment_button.click()
    assert "Too high" in p.comment.value and p.comment.layout.display == ""
    p.mark_buttons["??"].click()
    assert "rook-mark" in p.annotate_step.value and "??" in _text(p.annotate_step.value)
    assert p.mark_buttons["??"].button_style == "warning"
    assert "unsaved" in p.save_result.value
    # the mark also shows next to the description of that action, on the action line of the same position
    assert "??" in _text(p.action.value) and "rook-mark" in p.action.value
    p.forward_button.click()
    assert "??" not in _text(p.action.value) and p.comment_text.value == ""
    p.back_button.click()
    assert p.comment_text.value == "Too high: 85 needs the nest."

    # the download link carries the annotations
    data = re.search(r'base64,([A-Za-z0-9+/=]+)"', p.download.value).group(1)
    doc = json.loads(base64.b64decode(data))
    assert {"step": 5, "text": "Too high: 85 needs the nest."} in doc["comments"] and doc["marks"] == {"5": "??"}

    target = tmp_path / "out" / "annotated.json"
    p.save_path.value = str(target)
    p.save_record_button.click()
    assert "Saved" in p.save_result.value and target.exists()

    q = ReplayPanel(example=None)
    q.path.value = str(target)
    q.load_button.click()
    assert q.error.layout.display == "none"
    assert q.save_path.value == "annotated/annotated.json"
    q.go(6)
    assert q.comment_text.value == "Too high: 85 needs the nest."
    assert "Too high: 85 needs the nest." in q.comment.value
    assert "??" in _text(q.annotate_step.value)
    assert q.mark_buttons["??"].button_style == "warning"
    assert q.record.marks == {5: "??"}
    q.go(1)
    assert q.comment_text.value == "The opening call."  # the example's own comment is kept


def test_edit_delete_and_remove_mark():
    p = ReplayPanel()
    p.go(4)  # the last action shown is record step 3
    p.comment_text.value = "first"
    p.save_comment_button.click()
    p.comment_text.value = "second"
    p.save_comment_button.click()
    assert p.record.comment_at(3) == "second" and [c["step"] for c in p.record.comments] == [0, 3]
    p.delete_comment_button.click()
    assert p.record.comment_at(3) == "" and p.comment.layout.display == "none"
    p.delete_comment_button.click()
    assert "no comment" in p.annotate_status.value
    p.mark_buttons["!"].click()
    assert p.record.marks == {3: "!"}
    p.mark_buttons[""].click()
    assert p.record.marks is None
    p.comment_text.value = "   "
    p.save_comment_button.click()  # empty text: nothing to save, nothing raised
    assert p.record.comment_at(3) == ""


def test_nothing_to_annotate_at_the_start_and_bad_input_never_raises(tmp_path):
    p = ReplayPanel()
    assert all(b.disabled for b in p.mark_buttons.values()) and p.comment_text.disabled
    before = p.record
    p.set_mark("?")  # programmatic: error shown, not raised, nothing changed
    assert "step forward to comment on an action" in p.annotate_status.value and p.record is before
    p.save_comment("a comment on nothing")
    assert "step forward" in p.annotate_status.value and p.record is before
    p.delete_comment()
    assert "step forward" in p.annotate_status.value and p.record is before
    p.last_button.click()  # the last action of the hand can be marked and commented
    assert not any(b.disabled for b in p.mark_buttons.values())
    p.set_mark("bad")
    assert "bad mark" in p.annotate_status.value and p.record is before
    p.comment_text.value = "summary"
    p.save_comment_button.click()
    assert p.record.comment_at(p.n_steps - 1) == "summary" and p.record.comment_at(p.n_steps) == ""
    p.save_path.value = ""
    p.save_record_button.click()
    assert "file name" in p.save_result.value
    p.save_path.value = str(tmp_path)  # the app's folder itself
    p.save_record_button.click()
    assert "is a folder" in p.save_result.value
    blocker = tmp_path / "f"
    blocker.write_text("x")
    p.save_path.value = str(blocker / "x.json")
    p.save_record_button.click()
    assert "rook-annotate-error" in p.save_result.value
    empty = ReplayPanel(example=None)
    empty.save_comment_button.click()
    empty.set_mark("!")
    empty.analyze()
    assert "load a record first" in empty.annotate_status.value


def test_game_record_annotations_saved_in_game(tmp_path):
    from rookcore.ai import LEVELS
    from rookcore.rules import get_rules
    from rookcore.selfplay import play_hands

    game = play_hands(get_rules(), [LEVELS["rules"](seed=s) for s in range(4)], 2, seed=7)
    p = ReplayPanel(example=None)
    assert p.load_record(records.loads(records.dumps(game)))
    p.hand_select.value = 1
    assert p.n_steps > 5
    p.go(6)
    p.comment_text.value = "in a game"
    p.save_comment_button.click()
    p.mark_buttons["?"].click()
    out = tmp_path / "g.json"
    p.save_path.value = str(out)
    p.save_record_button.click()
    back = records.loads(out.read_text("utf-8"))
    assert isinstance(back, records.GameRecord)
    assert back.hands[1].comment_at(5) == "in a game" and back.hands[1].marks == {5: "?"}


def test_analyze_marks_cards():
    p = ReplayPanel(analyzer=_fake_analysis, analyze_in_background=False)
    p.analyze_button.click()
    assert "Analysis done" in p.analysis_status.value
    rows = p.analysis_table.value.count("rook-analysis-row")
    expected = [c for c in _fake_analysis(p.record)["cards"] if c["loss"] > 0]
    assert rows == len(expected) > 0
    first = next(c for c in expected if c["mark"] == "?")
    p.go(first["step"] + 1)  # that card is the last action shown
    card = _text(p.analysis_card.value)
    assert f"plays {first['card']}" in card and "loss 15" in card and "?" in card and "R14" in card
    assert f"plays {first['card']}" in _text(p.action.value)
    p.go(first["step"])
    assert f"plays {first['card']}" not in _text(p.analysis_card.value)
    p.go(3)
    assert "not a card" in p.analysis_card.value
    p.go(0)
    assert "step forward" in p.analysis_card.value
    assert not p.apply_marks_button.disabled
    p.go(first["step"] + 1)
    p.mark_buttons["!"].click()  # the learner's own mark is kept
    p.apply_marks_button.click()
    marked = {c["step"]: "?" for c in expected if c["mark"] == "?"}
    marked[first["step"]] = "!"
    assert p.record.marks == marked
    # another record would throw the marks away: the first choice only asks, the dropdown goes back
    p.examples.value = "crowsnest-set"
    assert "not saved" in p.error.value and p.examples.value == "crowsnest-made" and p.analysis is not None
    time.sleep(SecondClick.WAIT)
    p.examples.value = "crowsnest-set"  # chosen again: loaded, and loading another hand clears the analysis
    assert p.analysis is None and p.analysis_table.value == "" and p.record.marks is None


def _gated_analyzer():
    """(gate, analyzer): the analyzer returns `_fake_analysis` of its record once ``gate`` is set (at most 30 s)."""
    import threading

    gate = threading.Event()

    def slow(record):
        gate.wait(30)
        return _fake_analysis(record)

    return gate, slow


def test_analyze_in_background_shows_analyzing_first():
    gate, slow = _gated_analyzer()
    p = ReplayPanel(analyzer=slow)
    p.analyze_button.click()
    assert "Analyzing…" in p.analysis_status.value and p.analyze_button.disabled
    gate.set()
    assert p.wait_analysis(30)
    assert "Analysis done" in p.analysis_status.value and not p.analyze_button.disabled
    assert "rook-analysis-row" in p.analysis_table.value


def test_analyze_errors_and_hands_without_play():
    def broken(record):
        raise RuntimeError("solver exploded")

    p = ReplayPanel(analyzer=broken, analyze_in_background=False)
    p.analyze_button.click()
    assert "The analysis failed" in p.analysis_status.value and "solver exploded" in p.analysis_status.value
    p.examples.value = "crowsnest-passed-out"
    p.analyze_button.click()
    assert "passed out" in p.analysis_status.value and p.analysis_table.value == ""
    rec = load_example("crowsnest-made")
    rec.tricks = None
    p.load_record(rec)
    p.analyze_button.click()
    assert "no cards were played" in p.analysis_status.value and p.analysis_table.value == ""


def test_go_to_lists_the_costly_cards_and_moves_the_navigator():
    p = ReplayPanel(analyzer=_fake_analysis, analyze_in_background=False)
    assert p.analysis_goto.layout.display == "none"  # nothing analysed yet
    p.analyze_button.click()
    costly = [c for c in p.analysis["cards"] if c["loss"] > 0]
    assert p.analysis_goto.layout.display == "" and [v for _label, v in p.analysis_goto.options][1:] == [
        c["step"] for c in costly]
    last = costly[-1]
    label = dict((v, k) for k, v in p.analysis_goto.options)[last["step"]]
    assert label.startswith(f"step {last['step'] + 1}: trick {last['trick']}, {last['seat']} plays {last['card']}")
    p.analysis_goto.value = last["step"]
    assert p.step == last["step"] + 1 and f"plays {last['card']}" in _text(p.analysis_card.value)
    p.go(0)  # a step that is no costly card: the list shows its prompt again
    assert p.analysis_goto.value == -1 and p.analysis_goto.label == "a card with a loss…" and p.step == 0
    p.go(costly[0]["step"] + 1)  # the navigator on a costly card selects it in the list
    assert p.analysis_goto.value == costly[0]["step"] and p.step == costly[0]["step"] + 1
    p.examples.value = "tournament-set"  # another record: no analysis, no list
    assert p.analysis_goto.layout.display == "none" and len(p.analysis_goto.options) == 1


def test_unfinished_hand_is_analysed_so_far():
    p = ReplayPanel(analyzer=_fake_analysis, analyze_in_background=False)
    rec = load_example("crowsnest-made")
    rec.tricks = rec.tricks[:3]
    p.load_record(rec)
    p.analyze_button.click()
    status = _text(p.analysis_status.value)
    assert "Analysis done: 12 cards" in status and "the 12 cards played so far are judged" in status, status
    assert "rook-analysis-row" in p.analysis_table.value
    p.slider.value = p.slider.max  # the last card played is the last action shown
    last = p.analysis["cards"][-1]
    assert last["step"] == p.n_steps - 1 and f"plays {last['card']}" in _text(p.analysis_card.value)


def test_analyze_again_shows_the_result_without_searching_again():
    calls = []

    def counting(record):
        calls.append(record)
        return _fake_analysis(record)

    p = ReplayPanel(analyzer=counting, analyze_in_background=False)
    p.analyze_button.click()
    done = _text(p.analysis_status.value)
    table = p.analysis_table.value
    p.analyze_button.click()
    assert len(calls) == 1
    assert _text(p.analysis_status.value) == "Already analysed. " + done and p.analysis_table.value == table
    p.examples.value = "tournament-set"  # another hand: analysed anew
    p.analyze_button.click()
    assert len(calls) == 2 and _text(p.analysis_status.value).startswith("Analysis done")


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_analyze_real_solver_on_example():
    """The real double-dummy analyzer behind the button (minutes on a loaded machine)."""
    p = ReplayPanel(analyze_in_background=False)
    p.analyze_button.click()
    assert "Analysis done" in p.analysis_status.value, p.analysis_status.value
    cards = p.analysis["cards"]
    assert len(cards) == 36
    costly = [c for c in cards if c["loss"] > 0]
    assert p.analysis_table.value.count("rook-analysis-row") == len(costly)
    p.apply_marks_button.click()
    assert (p.record.marks or {}) == {c["step"]: c["mark"] for c in cards if c["mark"]}


def test_analyze_with_the_real_solver():
    """Analyze with the default (double-dummy) analyzer in the background, as in the app: the table lists exactly
    the cards that `analyze` finds costly, with the same marks."""
    from rookcore.analysis import analyze_record

    p = ReplayPanel()
    p.examples.value = "crowsnest-set"
    p.analyze_button.click()
    assert p.wait_analysis(timeout=300)
    assert "Analysis done" in p.analysis_status.value
    want = [c for c in analyze_record(p.record)["cards"] if c["loss"] > 0]
    assert p.analysis_table.value.count("rook-analysis-row") == len(want) > 0
    worst = max(want, key=lambda c: c["loss"])
    p.go(worst["step"] + 1)
    card = _text(p.analysis_card.value)
    assert f"plays {worst['card']}" in card and f"loss {worst['loss']}" in card
    assert all(b in card for b in worst["best_cards"])


def test_analyze_shows_progress_and_stops_for_another_hand(monkeypatch):
    """The real analyzer (within its time budget) reports progress: the status counts the cards done from the last
    trick back, the card view shows the later tricks first ("not analysed yet" before them); the final result
    equals the exact `analyze_record`'s, and the first lead's result is said to be exact; once another hand is
    loaded, the old analysis' progress callback stops it."""
    import widgets.progress as wprogress
    from rookcore.analysis import analyze_record

    monkeypatch.setattr(wprogress, "PROGRESS_EVERY", 0)
    p = ReplayPanel(analyze_in_background=False)
    p.examples.value = "crowsnest-set"
    assert p.analysis_budget.value == 60 and p.analysis_seconds == 60.0
    seen = []
    p.analysis_status.observe(lambda ch: seen.append(_text(ch["new"])), "value")
    p.analyze_button.click()
    want = analyze_record(p.record)
    steps = [c["step"] for c in want["cards"]]
    # the cards done (marks being proven) or, once every mark is proven, the cards valued exactly
    done = [int(m.group(1)) for t in seen if (m := re.search(r"(\d+) of 36 cards (?:done|valued exactly)", t))]
    assert done and done == sorted(done) and all(0 <= d <= 36 for d in done) and done[-1] > 0, seen
    assert "Analysis done" in p.analysis_status.value and p.analysis == want
    start = _text(p.analysis_start.value)
    assert start.startswith(f"E–W (declarers, bid 90) take {want['start']['EW']} points with best play from the "
                            f"first lead (N–S: {want['start']['NS']}) — exact.")
    assert "E–W's bid of 90 could not have been made" in start  # 85 points: set double dummy too

    progress = p.session.job.progress(p.session.job.token, wprogress.AnalysisRun("crowsnest-set", 60.0))
    progress(2, len(steps), want["cards"][-2:])  # a run with no report yet shows the cards analysed so far
    assert "partial" in p.analysis and "2 of 36" in p.analysis_status.value
    p.go(steps[0] + 1)
    assert "is not analysed" in p.analysis_card.value
    p.go(steps[-1] + 1)
    assert f"plays {want['cards'][-1]['card']}" in _text(p.analysis_card.value)
    p.examples.value = "crowsnest-made"
    with pytest.raises(wprogress.Cancelled):
        progress(3, len(steps), want["cards"][-3:])
    with pytest.raises(wprogress.Cancelled):
        p.session.job.reports(p.session.job.token - 1)(want)


def _open(card: dict, **kw) -> dict:
    """A budgeted analysis' entry of ``card`` that is not valued exactly (rookcore.analysis.budget)."""
    return {**card, "best": None, "value": None, "loss": None, "mark": None, "best_cards": [], "exact": False,
            "lo": 0, "hi": 120, "best_lo": 0, "best_hi": 120, **kw}


def test_analyze_shows_proven_ranges_at_once_and_refines_them_in_place(monkeypatch):
    """A budgeted analysis' reports are drawn as they come: the first lead's proven range "— proved; refining…"
    (with the auction as far as proven), a card not valued exactly with its proven ranges, a proven ? in the table
    and the Go to list with its loss range; then, refined, the exact number ("— exact.") and "Analysis done"."""
    import threading

    import widgets.progress as wprogress
    from rookcore import annotations

    monkeypatch.setattr(wprogress, "PROGRESS_EVERY", 0)
    gates = [threading.Event() for _ in range(3)]  # gates[0]: the first report is out; 1: go on; 2: refined
    budgets = []

    def staged(record, threshold=10, progress=None, solver=None, budget=None, on_report=None):
        budgets.append(budget)
        exact = _fake_analysis(record)  # start N–S 90 · E–W 30; N–S bid 85 in crowsnest-made
        cards = exact["cards"]
        first = [_open(cards[0]), _open(cards[1], lo=60, hi=65, best_lo=80, best_hi=95, mark="?")] + cards[2:]
        progress(len(cards) - 2, len(cards), cards[1:])
        on_report({**exact, "start": None, "start_range": {"NS": [75, 105], "EW": [15, 45]}, "cards": first})
        gates[0].set()
        gates[1].wait(30)
        on_report({**exact, "start": None, "start_range": {"NS": [85, 95], "EW": [25, 35]}, "cards": first})
        gates[2].set()
        return exact

    monkeypatch.setattr(annotations, "analyze", staged)
    p = ReplayPanel()
    p.analysis_budget.value = 15.0
    p.analyze_button.click()
    assert gates[0].wait(30)
    _wait_for(lambda: "between 75 and 105" in _text(p.analysis_start.value), what="the first range")
    assert budgets == [15.0]
    start = _text(p.analysis_start.value)
    assert start.startswith("N–S (declarers, bid 85) take between 75 and 105 points with best play from the first "
                            "lead (E–W: between 15 and 45) — proved; refining…"), start
    assert ("whether N–S's bid of 85 could have been made is not proven yet; the highest bid N–S could have made is "
            "between 75 and 105 — proved so far.") in start
    cards = p.analysis["cards"]
    p.go(cards[1]["step"] + 1)
    card = _text(p.analysis_card.value)
    assert "proved so far: loss between 15 and 35 points (E–W could get between 80 and 95 with best play before " \
           "this card, between 60 and 65 after it); a mistake: it loses at least 10 points" in card, card
    assert "?" in card and "not found yet" in card
    p.go(cards[0]["step"] + 1)
    assert "nothing proven yet" in _text(p.analysis_card.value)
    labels = [label for label, _v in p.analysis_goto.options]
    assert any(label.endswith(f"plays {cards[1]['card']} — loss 15 to 35 ?") for label in labels), labels
    assert "15–35" in _text(p.analysis_table.value) and "a proven range" in _text(p.analysis_table.value)
    assert "Analysis done" not in p.analysis_status.value
    gates[1].set()  # refined in place, then exact
    assert p.wait_analysis(30) and gates[2].is_set()
    assert "Analysis done" in p.analysis_status.value
    start = _text(p.analysis_start.value)
    assert start.startswith("N–S (declarers, bid 85) take 90 points with best play from the first lead (E–W: 30) — "
                            "exact.") and "between" not in start
    assert "N–S's bid of 85 could have been made; N–S could have bid as high as 90 and made it." in start


@pytest.mark.timeout(600)
def test_a_budget_that_runs_out_shows_what_is_proven_and_never_says_exact(monkeypatch):
    """The real budgeted analysis of a 13-trick hand in 5 s: the status says the time budget ran out (not
    "Analysis done"), the first lead's line says what is proven without an exact number, each card not valued
    exactly shows its proven range (or that nothing is proven yet), and Analyze searches again."""
    from rookcore import annotations

    p = ReplayPanel(example="1-high-partnership-made", analyze_in_background=False)
    p.analysis_budget.value = 5.0
    p.analyze_button.click()
    report = p.analysis
    assert not annotations.analysis_complete(report)
    status = _text(p.analysis_status.value)
    n = annotations.analysis_counts(report)
    assert status.startswith(f"The time budget ran out: marks proven for {n['marked']} of 52 cards, {n['exact']} "
                             f"valued exactly"), status
    start = _text(p.analysis_start.value)
    assert "in the time given" in start and "exact." not in start
    lo, hi = report["start_range"]["EW"]
    assert f"between {lo} and {hi}" in start or "not narrowed down" in start
    for c in report["cards"]:
        p.go(c["step"] + 1)
        card = _text(p.analysis_card.value)
        if annotations.is_exact(c):
            assert "proved so far" not in card
        elif annotations.nothing_proven(c, p.record):
            assert "nothing proven yet" in card
        else:
            least, most = annotations.loss_range(c, p.record)
            assert "proved so far: loss " + (f"{least}" if least == most else f"between {least} and {most}") in card
    rows = annotations.costly_cards(report, p.record)
    assert p.analysis_table.value.count("rook-analysis-row") == len(rows)
    p.apply_marks_button.click()
    assert (p.record.marks or {}) == {c["step"]: c["mark"] for c in report["cards"] if c["mark"]}
    p.analyze_button.click()  # cut short: Analyze searches again (not "Already analysed")
    assert "Already analysed" not in p.analysis_status.value


def test_loading_another_hand_stops_a_long_analysis(monkeypatch):
    """A search that takes minutes (a 14-trick first lead) is cancelled when another hand is loaded, so the new
    hand can be analysed straight away (the Analyze button is enabled, and the old analysis never reports)."""
    from rookcore import annotations
    from rookcore.analysis.bench import play_ready
    from rookcore.rules import get_rules

    real = annotations.analyze

    def long_analyze(record, threshold=10, progress=None, solver=None, **budgeted):
        if record.variant == "partnership":
            solver.solve(play_ready(get_rules("partnership"), 0))  # minutes, unless cancelled
            return {"variant": "partnership", "start": None, "cards": [], "never": "shown"}
        return real(record, threshold, progress, solver, **budgeted)

    monkeypatch.setattr(annotations, "analyze", long_analyze)
    p = ReplayPanel()
    p.examples.value = "partnership-made"
    p.analyze_button.click()
    thread = p.session.job.thread
    assert not thread.join(1.0) and thread.is_alive() and p.analyze_button.disabled
    p.examples.value = "crowsnest-made"
    assert not thread.is_alive() and not p.analyze_button.disabled
    assert p.analysis is None and p.analysis_table.value == ""
    assert _text(p.analysis_status.value) == ("The analysis of partnership-made was stopped: another record was "
                                              "loaded.")
    assert p.cancel_button.layout.display == "none"
    p.analyze_button.click()
    assert p.wait_analysis(timeout=120)
    assert "Analysis done" in p.analysis_status.value and len(p.analysis["cards"]) == 36


def test_paths_outside_the_app_folder_are_refused(tmp_path, monkeypatch):
    """A path typed into Save to / File must stay inside the page's records folder (`widgets.paths`): ``..``, an
    absolute path elsewhere and a symbolic link out are refused, with a message that does not show where the folder
    is on the server, and nothing is written; a file saved inside is named relative to the folder."""
    from widgets import paths

    root = tmp_path / "app"
    root.mkdir()
    paths.use_folder(root)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside)
    p = ReplayPanel(example="crowsnest-made")
    for typed in ("../escaped.json", str(outside / "abs.json"), "link/through.json", "sub/../../up.json"):
        p.save_path.value = typed
        p.save_record_button.click()
        assert "only opens and saves files inside your own records folder" in p.save_result.value, typed
        assert str(root) not in p.save_result.value
    assert list(outside.iterdir()) == [] and sorted(x.name for x in tmp_path.iterdir()) == ["app", "outside"]
    # inside the folder, relative and absolute both work
    p.save_path.value = "annotated/ok.json"
    p.save_record_button.click()
    assert "Saved annotated/ok.json" in p.save_result.value and (root / "annotated" / "ok.json").exists()
    assert str(root) not in p.save_result.value
    # loading: the same rule, and a file inside still loads
    (outside / "secret.json").write_text("{}")
    q = ReplayPanel(example=None)
    q.path.value = str(outside / "secret.json")
    q.load_button.click()
    assert "only opens and saves files inside your own records folder" in q.error.value and q.record is None
    q.path.value = str(root / "annotated" / "ok.json")
    q.load_button.click()
    assert q.error.layout.display == "none" and q.record is not None
    q.path.value = "missing.json"
    q.load_button.click()
    assert q.error.value.count("missing.json") == 1 and "no such file" in q.error.value


def test_save_asks_before_replacing_a_file_it_did_not_write(tmp_path, monkeypatch):
    from widgets.paths import ReplaceGuard
    earlier = tmp_path / "annotated" / "crowsnest-made.json"
    earlier.parent.mkdir()
    from rookcore.examples import example_text
    kept = example_text("crowsnest-set")  # an earlier session's record under that name
    earlier.write_text(kept)
    p = ReplayPanel()
    assert p.save_path.value == "annotated/crowsnest-made.json"
    assert p.save_record() is None
    assert earlier.read_text() == kept and "already exists" in p.save_result.value
    assert p.save_record() is None and earlier.read_text() == kept  # the second click of a double click
    monkeypatch.setattr(ReplaceGuard, "CONFIRM_AFTER", 0.0)
    assert p.save_record() == str(earlier) and records.loads(earlier.read_text()).variant == "crowsnest"
    assert p.save_record() == str(earlier)  # written by this panel: replaced without asking


def _wait_for(predicate, timeout=30.0, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def _stuck_at_the_first_lead(monkeypatch, partial_loss=True):
    """`annotations.analyze` replaced, for the partnership records, by an analysis that reports every card but
    the first lead (entries of `_fake_analysis`) and then searches a 14-trick first lead (minutes, unless
    cancelled) — the newcomer's "51 of 52 cards done" that stayed for two minutes."""
    from rookcore import annotations
    from rookcore.analysis.bench import play_ready
    from rookcore.rules import get_rules

    real = annotations.analyze

    def long_analyze(record, threshold=10, progress=None, solver=None, **budgeted):
        if record.variant != "partnership":
            return real(record, threshold, progress, solver, **budgeted)
        cards = _fake_analysis(record)["cards"]
        if partial_loss:
            cards[-1] = dict(cards[-1], loss=15, value=75, mark="?", best_cards=["R14"])
        for done in range(1, len(cards)):
            progress(done, len(cards), cards[len(cards) - done:])
        solver.solve(play_ready(get_rules("partnership"), 0))  # minutes, unless cancelled
        return {"variant": "partnership", "start": None, "cards": cards, "never": "shown"}

    monkeypatch.setattr(annotations, "analyze", long_analyze)


def test_cancel_stops_the_analysis_and_keeps_the_cards_analysed_so_far(monkeypatch):
    """Cancel (shown and enabled only while an analysis runs) cancels the solver at once; the status says after how
    many cards, the cards analysed so far stay in the table and the card view, and Analyze starts again."""
    import widgets.progress as wprogress

    monkeypatch.setattr(wprogress, "PROGRESS_EVERY", 0)
    _stuck_at_the_first_lead(monkeypatch)
    p = ReplayPanel(example="partnership-made")
    assert p.cancel_button.description == "Cancel" and "rook-analyze-cancel" in p.cancel_button._dom_classes
    assert p.cancel_button.layout.display == "none" and p.cancel_button.disabled
    p.analyze_button.click()
    thread = p.session.job.thread
    total = len(p.record.tricks) * 4
    _wait_for(lambda: f"{total - 1} of {total} cards done" in _text(p.analysis_status.value), what="the progress")
    assert thread.is_alive() and p.analysis_running
    assert p.cancel_button.layout.display != "none" and not p.cancel_button.disabled and p.analyze_button.disabled
    p.cancel_button.click()
    assert not thread.is_alive() and not p.analysis_running
    status = _text(p.analysis_status.value)
    assert status.startswith(f"Analysis cancelled after {total - 1} of {total} cards (")
    assert "the cards analysed so far are shown" in status
    assert p.cancel_button.layout.display == "none" and p.cancel_button.disabled and not p.analyze_button.disabled
    assert p.analysis["partial"] and len(p.analysis["cards"]) == total - 1
    assert p.analysis_table.value.count("rook-analysis-row") >= 1 and "R14" in p.analysis_table.value
    last = p.analysis["cards"][-1]
    p.go(last["step"] + 1)
    assert f"plays {last['card']}" in _text(p.analysis_card.value) and "loss 15" in _text(p.analysis_card.value)
    first_lead = p.analysis["cards"][0]["step"] - 1
    p.go(first_lead + 1)  # the first lead is the last action shown: not analysed
    assert "is not analysed" in p.analysis_card.value
    assert not p.apply_marks_button.disabled  # the marks of the cards analysed can be copied
    p.cancel_analysis()  # nothing running any more (a double click's second click): the summary and result stay
    assert "Analysis cancelled after" in p.analysis_status.value and p.analysis["partial"]
    p.analyze_button.click()  # starts again
    assert p.analysis_running and p.cancel_button.layout.display != "none"
    p.examples.value = "crowsnest-made"
    assert "The analysis of partnership-made was stopped: another record was loaded." in _text(
        p.analysis_status.value)
    assert p.wait_analysis(10)


def test_cancel_before_the_first_card_and_a_late_result_is_not_shown():
    """An analysis cancelled before its first card says there is nothing to show; the result it still returns
    later is ignored."""
    gate, slow = _gated_analyzer()
    p = ReplayPanel(analyzer=slow)
    p.analyze_button.click()
    thread = p.session.job.thread
    assert not p.cancel_button.disabled
    p.cancel_button.click()
    status = _text(p.analysis_status.value)
    assert "Analysis cancelled after" in status and "before its first card was done" in status
    gate.set()
    thread.join(30)
    assert _text(p.analysis_status.value) == status and p.analysis is None and p.analysis_table.value == ""


def test_progress_tells_that_the_first_lead_takes_long_and_the_seconds_go_on(monkeypatch):
    """With only the first lead left, the status says that it values every other lead and can take minutes, and
    the elapsed seconds keep moving although no card is finished (the panel's clock); the clock stops with the
    analysis."""
    import widgets.progress as wprogress

    monkeypatch.setattr(wprogress, "PROGRESS_EVERY", 0)
    monkeypatch.setattr(wprogress, "TICK_EVERY", 0.2)
    _stuck_at_the_first_lead(monkeypatch)
    p = ReplayPanel(example="partnership-made")
    seen = []
    p.analysis_status.observe(lambda ch: seen.append(_text(ch["new"])), "value")
    p.analyze_button.click()
    run = p.session.job.run
    _wait_for(lambda: any(" 2 s so far" in t for t in seen), timeout=20, what="2 s on the clock")
    stuck = [t for t in seen if "cards done" in t]
    assert len({t for t in stuck}) >= 3  # the text changed without a new card: the seconds went on
    assert all(t.startswith(stuck[-1].split(",")[0]) for t in stuck[-3:])  # ... still at the same card count
    assert ("Left: the first lead, which values every other lead: on 13/14-trick hands this can take until the time "
            "budget runs out; what is proven is shown then.") in stuck[-1]
    assert "s so far (time budget 60 s)." in stuck[-1]
    assert run.clock_running
    p.cancel_button.click()
    _wait_for(lambda: not run.clock_running, timeout=5, what="the clock to stop")
    final = _text(p.analysis_status.value)
    total = len(p.record.tricks) * 4
    assert final.startswith(f"Analysis cancelled after {total - 1} of {total} cards")
    time.sleep(0.5)  # two ticks' time: nothing overwrites the message
    assert _text(p.analysis_status.value) == final


def test_edits_undone_are_not_unsaved_but_marks_from_mark_mistakes_are(tmp_path):
    """A comment and a ?? added and deleted again left "unsaved changes" and a "click Load again" question for
    every Load: the panel now compares the comments and marks with those loaded or saved. Mark mistakes adds
    marks, so the record is unsaved until they are removed; a Mark mistakes that adds none changes nothing."""
    from rookcore.ai import LEVELS
    from rookcore.examples import example_text
    from rookcore.rules import get_rules
    from rookcore.selfplay import play_hands

    (tmp_path / "other.json").write_text(example_text("buckeye-made"))
    p = ReplayPanel(analyzer=_fake_analysis, analyze_in_background=False)
    p.go(6)
    p.comment_text.value = "Too high"
    p.save_comment_button.click()
    p.mark_buttons["??"].click()
    assert p.unsaved and "unsaved" in p.save_result.value
    p.delete_comment_button.click()
    p.mark_buttons[""].click()
    assert not p.unsaved and p.save_result.value == ""
    p.analyze_button.click()
    p.apply_marks_button.click()
    added = dict(p.record.marks)
    assert added and p.unsaved and "unsaved" in p.save_result.value  # the record did change
    for step in added:
        p.go(step + 1)
        p.mark_buttons[""].click()
    assert not p.unsaved and p.save_result.value == ""
    p.apply_marks_button.click()
    p.save_path.value = "annotated/marked.json"
    p.save_record_button.click()
    p.apply_marks_button.click()  # adds nothing: still as saved
    assert "No new marks" in p.annotate_status.value and not p.unsaved
    assert "Saved annotated/marked.json" in p.save_result.value
    p.go(3)
    p.mark_buttons["!"].click()
    assert "unsaved" in p.save_result.value
    p.mark_buttons[""].click()
    assert not p.unsaved and "Saved annotated/marked.json" in p.save_result.value
    p.path.value = "other.json"
    p.load_button.click()  # nothing to lose: loads at once
    assert "Buckeye" in p.title.value and p.error.layout.display == "none"
    game = play_hands(get_rules(), [LEVELS["rules"](seed=s) for s in range(4)], 2, seed=7)
    assert p.load_record(records.loads(records.dumps(game)))
    p.hand_select.value = 1
    p.go(4)
    p.mark_buttons["?"].click()
    assert p.unsaved
    p.mark_buttons[""].click()
    assert not p.unsaved and p.save_result.value == ""


def test_a_long_comment_wraps_and_scrolls_inside_the_comment_box():
    """A 5,000-character comment (no space to break at) pushed the table off screen."""
    p = ReplayPanel()
    p.go(5)
    long = "x" * 5000
    p.comment_text.value = long
    p.save_comment_button.click()
    assert p.record.comment_at(4) == long and long in p.comment.value
    style = re.search(r"<div[^>]*style='([^']*)'", p.comment.value).group(1)
    assert "overflow-wrap:anywhere" in style and "max-height" in style and "overflow-y:auto" in style, style


def test_cancel_keeps_what_is_proven(monkeypatch):
    """Cancel during a budgeted analysis keeps its last report: the first lead's proven range (no longer
    "refining…"), the cards not valued exactly with their ranges, and the proven marks Mark mistakes can copy."""
    import threading

    import widgets.progress as wprogress
    from rookcore import annotations
    from rookcore.analysis.bench import play_ready
    from rookcore.rules import get_rules

    monkeypatch.setattr(wprogress, "PROGRESS_EVERY", 0)
    reached = threading.Event()

    def stuck(record, threshold=10, progress=None, solver=None, budget=None, on_report=None):
        cards = _fake_analysis(record)["cards"]
        cards[0] = _open(cards[0], lo=60, hi=65, best_lo=80, best_hi=95, mark="?")
        progress(len(cards), len(cards), cards)
        on_report({"variant": record.variant, "start": None, "start_range": {"NS": [75, 105], "EW": [15, 45]},
                   "cards": cards})
        reached.set()
        solver.solve(play_ready(get_rules("partnership"), 0))  # minutes, unless cancelled
        return {"variant": record.variant, "start": None, "cards": [], "never": "shown"}

    monkeypatch.setattr(annotations, "analyze", stuck)
    p = ReplayPanel()  # crowsnest-made: N–S bid 85
    p.analyze_button.click()
    assert reached.wait(30)
    _wait_for(lambda: "refining…" in p.analysis_start.value, what="the proven range")
    p.cancel_button.click()
    status = _text(p.analysis_status.value)
    assert status.startswith("Analysis cancelled after 36 of 36 cards") and "never" not in str(p.analysis)
    start = _text(p.analysis_start.value)
    assert "take between 75 and 105 points" in start and "refining" not in start and "— proved;" in start
    first = p.analysis["cards"][0]
    p.go(first["step"] + 1)
    assert "proved so far: loss between 15 and 35 points" in _text(p.analysis_card.value)
    p.apply_marks_button.click()
    assert p.record.marks[first["step"]] == "?"
