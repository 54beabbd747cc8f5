"""rookcore.annotations: comments and marks by step, exact round trips, saving, and the learner's review."""
from __future__ import annotations

import json
import random

import pytest

from rookcore import annotations as ann
from rookcore import records
from rookcore.actions import PASS
from rookcore.examples import example_text, list_examples, load_example
from rookcore.table import Table

EXAMPLES = list_examples()


def _rec(name: str = "crowsnest-made") -> records.HandRecord:
    return load_example(name)


# ----- comments --------------------------------------------------------------------------
def test_add_edit_delete_comment_returns_new_records():
    rec = _rec()
    before = records.dumps(rec)
    a = ann.set_comment(rec, 5, "Why 85?")
    assert records.dumps(rec) == before  # the input is never modified
    assert a.comment_at(5) == "Why 85?"
    assert [c["step"] for c in a.comments] == [0, 5]
    b = ann.set_comment(a, 5, "Edited")
    assert b.comment_at(5) == "Edited" and [c["step"] for c in b.comments] == [0, 5]
    c = ann.set_comment(b, 3, "Earlier")  # kept sorted by step
    assert [x["step"] for x in c.comments] == [0, 3, 5]
    d = ann.delete_comment(c, 5)
    assert d.comment_at(5) == "" and [x["step"] for x in d.comments] == [0, 3]
    e = ann.set_comment(d, 3, "   ")  # empty text deletes
    assert [x["step"] for x in e.comments] == [0]
    assert ann.delete_comment(e, 7).comments == e.comments  # nothing to delete: unchanged copy


def test_set_comment_replaces_duplicates_at_a_step():
    rec = _rec()
    rec.comments = [{"step": 4, "text": "a"}, {"step": 0, "text": "b"}, {"step": 4, "text": "c", "by": "me"}]
    new = ann.set_comment(rec, 4, "one")
    assert new.comments == [{"step": 0, "text": "b"}, {"step": 4, "text": "one"}]


def test_last_comment_removed_keeps_presence_of_field():
    rec = _rec()  # has comments [{"step": 0, ...}]
    assert ann.delete_comment(rec, 0).comments == []
    bare = _rec()
    bare.comments = None
    added = ann.set_comment(bare, 2, "x")
    assert added.comments == [{"step": 2, "text": "x"}]
    assert ann.delete_comment(added, 2).comments is None
    assert "comments" not in ann.delete_comment(added, 2).to_json()
    empty = _rec()
    empty.comments = []
    assert ann.delete_comment(ann.set_comment(empty, 1, "x"), 1).comments == []


def test_comment_at_end_of_hand_allowed():
    rec = _rec()
    n = ann.n_steps(rec)
    assert ann.set_comment(rec, n, "summary").comment_at(n) == "summary"


@pytest.mark.parametrize("step", [-1, 10_000, "3", 2.0, True, None])
def test_comment_bad_step(step):
    with pytest.raises(ValueError, match="step"):
        ann.set_comment(_rec(), step, "x")
    with pytest.raises(ValueError, match="step"):
        ann.delete_comment(_rec(), step)


def test_comment_bad_text_and_game_record():
    with pytest.raises(ValueError, match="string"):
        ann.set_comment(_rec(), 1, None)
    game = records.GameRecord(variant="crowsnest", hands=[_rec()])
    with pytest.raises(ValueError, match="one hand"):
        ann.set_comment(game, 1, "x")


# ----- marks -----------------------------------------------------------------------------
def test_marks_set_replace_remove():
    rec = _rec()
    assert rec.marks is None
    a = ann.set_mark(rec, 12, "?")
    assert a.marks == {12: "?"} and rec.marks is None
    b = ann.set_mark(ann.set_mark(a, 3, "!"), 12, "??")
    assert b.marks == {3: "!", 12: "??"} and list(b.marks) == [3, 12]
    assert ann.mark_at(b, 12) == "??" and ann.mark_at(b, 4) == ""
    c = ann.set_mark(ann.set_mark(b, 12, ""), 3, "")
    assert c.marks is None and "marks" not in c.to_json()  # absent originally → absent again
    d = ann.set_mark(rec, 7, "")  # removing a missing mark is fine
    assert d.marks is None


def test_marks_present_originally_stay_as_empty_dict():
    rec = _rec()
    rec.marks = {}
    assert ann.set_mark(ann.set_mark(rec, 1, "!"), 1, "").marks == {}


@pytest.mark.parametrize("mark", ["!!", "x", "?!", None, 1, " ?"])
def test_bad_mark(mark):
    with pytest.raises(ValueError, match="bad mark"):
        ann.set_mark(_rec(), 3, mark)


def test_mark_step_range():
    rec = _rec()
    n = ann.n_steps(rec)
    ann.set_mark(rec, 0, "!")  # a call
    ann.set_mark(rec, 7, "?")  # the discard step may be marked too (documented)
    ann.set_mark(rec, n - 1, "?")  # the last card
    with pytest.raises(ValueError, match="no action to mark"):
        ann.set_mark(rec, n, "?")
    with pytest.raises(ValueError, match="out of range"):
        ann.set_mark(rec, -1, "?")


# ----- round trips -----------------------------------------------------------------------
@pytest.mark.parametrize("name", EXAMPLES)
def test_unedited_round_trip_exact(name):
    text = example_text(name)
    rec = records.loads(text)
    assert json.loads(records.dumps(rec)) == json.loads(text)


@pytest.mark.parametrize("name", EXAMPLES)
def test_annotated_save_load_round_trip(name, tmp_path):
    rec = records.loads(example_text(name))
    n = ann.n_steps(rec)
    edited = ann.set_comment(rec, min(5, n), "Five — “quotes” & <tags>")
    if n:
        edited = ann.set_mark(ann.set_mark(edited, min(5, n - 1), "??"), 0, "!")
    path = ann.save_record(edited, tmp_path / "sub" / f"{name}.json")
    back = records.loads(open(path, encoding="utf-8").read())
    assert back.comments == edited.comments
    assert back.marks == edited.marks
    assert json.loads(records.dumps(back)) == json.loads(records.dumps(edited))
    # saving the re-loaded record again is byte-identical
    assert records.dumps(records.loads(records.dumps(back))) == records.dumps(back)


def test_save_record_errors(tmp_path):
    with pytest.raises(ValueError, match="file name"):
        ann.save_record(_rec(), "  ")
    with pytest.raises(ValueError, match="folder"):
        ann.save_record(_rec(), str(tmp_path))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="file is a file, not a folder"):
        ann.save_record(_rec(), str(blocker / "a.json"))
    with pytest.raises(OSError):
        ann.save_record(_rec(), str(tmp_path / ("x" * 300 + ".json")))  # a name too long for the file system


# ----- analysis helpers --------------------------------------------------------------------
def test_not_analyzable_reason():
    assert ann.not_analyzable_reason(_rec()) is None
    assert "passed out" in ann.not_analyzable_reason(_rec("crowsnest-passed-out"))
    rec = _rec()
    rec.tricks = rec.tricks[:2]
    assert ann.not_analyzable_reason(rec) is None  # the cards played so far can be judged (as by the CLI)
    rec.tricks = None
    rec.discard, rec.trump = rec.discard, rec.trump
    assert "no cards were played" in ann.not_analyzable_reason(rec)


def test_unfinished_note():
    assert ann.unfinished_note(_rec()) == ""
    rec = _rec()
    rec.tricks = rec.tricks[:2]
    assert "the 8 cards played so far" in ann.unfinished_note(rec)
    rec.tricks = [rec.tricks[0][:1]]
    assert "the 1 card played so far" in ann.unfinished_note(rec)
    with pytest.raises(ValueError, match="HandRecord"):
        ann.unfinished_note("crowsnest-made")


def test_unfinished_hand_analysis_is_the_prefix_of_the_whole_hands():
    """Double-dummy values do not depend on the cards played later: an unfinished record's analysis is the
    first entries of the finished record's (the app and the CLI both analyse unfinished hands)."""
    whole = ann.analyze(_rec())
    rec = _rec()
    rec.tricks = rec.tricks[:6] + [rec.tricks[6][:3]]
    part = ann.analyze(rec)
    assert len(part["cards"]) == 27 and "complete" not in whole
    assert part == {**whole, "cards": whole["cards"][:27], "complete": False}


FAKE = {"variant": "crowsnest", "start": {"NS": 100, "EW": 80}, "cards": [
    {"step": 10, "trick": 1, "seat": "E", "card": "G13", "best": 90, "value": 60, "loss": 30, "mark": "?",
     "best_cards": ["G14"]},
    {"step": 11, "trick": 1, "seat": "S", "card": "G5", "best": 85, "value": 70, "loss": 15, "mark": "?",
     "best_cards": ["G14", "G12"]},
    {"step": 15, "trick": 2, "seat": "S", "card": "R5", "best": 70, "value": 65, "loss": 5, "mark": "",
     "best_cards": ["R6"]},
    {"step": 19, "trick": 3, "seat": "S", "card": "B1", "best": 65, "value": 64, "loss": 1, "mark": "??",
     "best_cards": ["B2"]},
    {"step": 23, "trick": 4, "seat": "S", "card": "Y9", "best": 64, "value": 64, "loss": 0, "mark": "",
     "best_cards": ["Y9", "Y8"]},
]}


def test_review_with_given_analysis():
    items = ann.review(_rec(), analysis=FAKE)
    assert [i["step"] for i in items] == [11, 19]
    assert items[0]["text"] == "Trick 1: you played G5 (cost 15 points); G14 or G12 would have kept 85 for N–S."
    assert "cost 1 point," in items[1]["text"] and "bid is made" in items[1]["text"]
    assert [i["step"] for i in ann.review(_rec(), threshold=5, analysis=FAKE)] == [11, 15, 19]
    east = ann.review(_rec(), seat="E", analysis=FAKE)
    assert [i["card"] for i in east] == ["G13"] and "for E–W" in east[0]["text"]
    with pytest.raises(ValueError, match="seat"):
        ann.review(_rec(), seat="X", analysis=FAKE)
    with pytest.raises(ValueError, match="threshold"):
        ann.review(_rec(), threshold=0, analysis=FAKE)


def test_apply_analysis_marks_keeps_user_marks():
    rec = ann.set_mark(_rec(), 11, "!")
    new = ann.apply_analysis_marks(rec, FAKE)
    assert new.marks == {10: "?", 11: "!", 19: "??"}
    assert ann.apply_analysis_marks(rec, FAKE, overwrite=True).marks[11] == "?"


# ----- the real double-dummy review of a played hand (slow: one analysis) --------------------
def _played_hand(seed: int) -> records.HandRecord | None:
    """South passes and plays random legal cards; the AIs play the rest. None if passed out."""
    rng = random.Random(seed)
    table = Table(seed=seed)
    table.run_ai()
    while not table.state.is_over:
        if table.is_learner_turn():
            legal = table.legal_for_learner()
            table.learner_act(PASS if PASS in legal else rng.choice(legal))
        table.run_ai()
    return None if table.state.passed_out else table.record()


@pytest.fixture(scope="module")
def played():
    for seed in range(1, 30):
        rec = _played_hand(seed)
        if rec is not None:
            return rec, ann.analyze(rec)
    pytest.skip("no played hand found")


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_review_played_hand_real_analysis(played):
    rec, analysis = played
    assert len(analysis["cards"]) == sum(len(t) for t in rec.tricks)
    for threshold in (1, 10):
        items = ann.review(rec, threshold=threshold, analysis=analysis)
        expected = [c["step"] for c in analysis["cards"]
                    if c["seat"] == "S" and (c["loss"] >= threshold or c["mark"] in ("?", "??"))]
        assert [i["step"] for i in items] == expected
        for i in items:
            assert i["seat"] == "S"
            assert i["loss"] >= threshold or i["mark"] in ("?", "??")
            assert i["text"].startswith(f"Trick {i['trick']}: you played {i['card']} (cost {i['loss']} point")
            assert i["better"] and i["card"] not in i["better"] or i["loss"] <= 0
    # the analyzer's marks can be written into the record and survive a save/load
    marked = ann.apply_analysis_marks(rec, analysis)
    back = records.loads(records.dumps(marked))
    assert back.marks == {c["step"]: c["mark"] for c in analysis["cards"] if c["mark"]} or back.marks is None


def test_from_trick_after_an_unfinished_records_last_card_is_refused():
    """An unfinished record stopping in trick 3 cannot be analysed "from trick 5" (it used to give an empty report
    with start null); from trick 3 it can."""
    from rookcore.analysis.annotate import analyze_hand
    rec = _rec()
    rec.tricks = rec.tricks[:2] + [rec.tricks[2][:2]]
    with pytest.raises(ValueError, match="cards stop in trick 3: the first trick must be 1 to 3, not 5"):
        analyze_hand(rec, first_trick=5)
    report = analyze_hand(rec, first_trick=3)
    assert [c["trick"] for c in report["cards"]] == [3, 3] and report["start"] is not None
