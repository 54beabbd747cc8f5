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


# ----- proven facts of a budgeted analysis: ranges, the first lead, the auction ------------------
def _open_entry(**kw) -> dict:
    """A budgeted analysis' card entry that is not valued exactly (rookcore.analysis.budget)."""
    entry = {"step": 40, "trick": 8, "seat": "S", "card": "R5", "best": None, "value": None, "loss": None,
             "mark": None, "best_cards": [], "exact": False, "lo": 60, "hi": 85, "best_lo": 80, "best_hi": 95}
    return {**entry, **kw}


def test_loss_range_costly_cards_and_counts():
    rec = _rec()  # crowsnest: no negative loss, so the least loss is never below 0
    assert ann.loss_range(FAKE["cards"][1]) == (15, 15)
    assert ann.loss_range(_open_entry()) == (80 - 85, 95 - 60)
    assert ann.loss_range(_open_entry(), rec) == (0, 35)
    partnership = load_example("partnership-made")  # a 7–7 split pays no bonus: a loss can be negative
    assert ann.loss_range(_open_entry(), partnership) == (-5, 35)
    assert ann.loss_range(_open_entry(lo=60, hi=65), rec) == (15, 35)
    cards = [_open_entry(step=1, mark="?"), _open_entry(step=2), _open_entry(step=3, lo=60, hi=65, mark=""),
             _open_entry(step=4, mark="??", seat="E"), FAKE["cards"][3]]
    report = {"cards": cards, "start": None, "start_range": {"NS": [85, 105], "EW": [15, 35]}}
    assert [c["step"] for c in ann.costly_cards(report, rec)] == [1, 3, 4, 19]  # step 2 may have lost nothing
    assert ann.analysis_counts(report) == {"cards": 5, "exact": 1, "marked": 4, "open": 1}
    assert ann.analysis_counts(report, seat="E") == {"cards": 1, "exact": 0, "marked": 1, "open": 0}
    assert not ann.analysis_complete(report)
    assert ann.analysis_complete(FAKE | {"start": {"NS": 90, "EW": 30}})
    assert not ann.analysis_complete({"cards": FAKE["cards"], "start": None})  # the first lead is still open
    assert not ann.analysis_complete({"cards": [], "start": None, "start_range": {"NS": [0, 5], "EW": [115, 120]}})
    assert ann.analysis_complete({"cards": [], "start": None})  # nothing to analyse
    assert ann.is_exact(FAKE["cards"][0]) and not ann.is_exact(_open_entry())


def test_start_facts_and_sentence():
    rec = _rec()  # N–S declare 85
    exact = {"cards": [], "start": {"NS": 110, "EW": 10}}
    assert ann.start_facts(exact) == {"exact": True, "NS": (110, 110), "EW": (10, 10)}
    assert ann.start_sentence(exact, rec) == ("N–S (declarers, bid 85) take 110 points with best play from the first "
                                              "lead (E–W: 10) — exact.")
    assert ann.start_sentence(exact, rec, running=True) == ann.start_sentence(exact, rec)
    ranged = {"cards": [], "start": None, "start_range": {"NS": [85, 105], "EW": [15, 35]}}
    assert ann.start_facts(ranged) == {"exact": False, "NS": (85, 105), "EW": (15, 35)}
    said = ("N–S (declarers, bid 85) take between 85 and 105 points with best play from the first lead (E–W: "
            "between 15 and 35) — proved; ")
    assert ann.start_sentence(ranged, rec, running=True) == said + "refining…"
    assert ann.start_sentence(ranged, rec) == said + "the exact number was not found in the time given."
    whole = {"cards": [], "start": None, "start_range": {"NS": [0, 120], "EW": [0, 120]}}  # nothing proven yet
    assert ann.start_sentence(whole, rec, running=True) == ("The result from the first lead with best play is not "
                                                            "narrowed down yet; refining…")
    assert "not narrowed down in the time given" in ann.start_sentence(whole, rec)
    assert ann.start_facts({"cards": []}) is None and ann.start_sentence({"cards": []}, rec) == ""
    east = _rec("crowsnest-set")  # E–W declare 90: they come first
    assert ann.start_sentence(exact, east).startswith("E–W (declarers, bid 90) take 10 points")


def test_nothing_proven():
    rec = _rec()  # crowsnest: 120 points in all
    assert ann.nothing_proven(_open_entry(lo=0, hi=120, best_lo=0, best_hi=120), rec)
    assert not ann.nothing_proven(_open_entry(lo=0, hi=120, best_lo=0, best_hi=120, mark="?"), rec)
    assert not ann.nothing_proven(_open_entry(lo=0, hi=115, best_lo=0, best_hi=120), rec)
    assert not ann.nothing_proven(FAKE["cards"][0], rec)


@pytest.mark.parametrize("name", ["crowsnest-made", "crowsnest-set", "tournament-made", "red-1-set"])
def test_auction_facts_agree_with_judge_auction(name):
    """From an analysis that reached the exact result, `auction_facts` answers as `judge_auction` does from the
    first lead."""
    from rookcore.actions import Play
    from rookcore.analysis import judge_auction

    rec = _rec(name)
    report = ann.analyze(rec, budget=120)
    assert ann.analysis_complete(report)
    facts = ann.auction_facts(rec, report)
    first_lead = next(s for a, s in zip(rec.actions(), rec.states()) if isinstance(a, Play))
    judged = judge_auction(first_lead)
    assert facts["makeable"] == judged["makeable"] and facts["bid"] == judged["bid"]
    assert facts["highest"] == (judged["highest_makeable"],) * 2 and facts["exact"]
    assert facts["team"] == ("N–S", "E–W")[judged["team"]]


def test_auction_facts_from_a_range_and_the_sentences():
    rec = _rec()  # N–S bid 85; crowsnest bids 70..120 by 5

    def facts(ns_lo, ns_hi):
        return ann.auction_facts(rec, {"cards": [], "start": None, "start_range": {"NS": [ns_lo, ns_hi],
                                                                                 "EW": [0, 0]}})

    head = "Judged double dummy (as if all four hands were known, with best play by both sides): "
    f = facts(90, 120)
    assert f == {"team": "N–S", "bid": 85, "makeable": True, "highest": (90, 120), "bid_min": 70, "bid_max": 120,
                 "exact": False}
    assert ann.auction_sentence(f) == head + ("N–S's bid of 85 could have been made; the highest bid N–S could have "
                                              "made is between 90 and 120 — proved so far.")
    f = facts(60, 95)
    assert f["makeable"] is None and f["highest"] == (None, 95)
    assert ann.auction_sentence(f) == head + (
        "whether N–S's bid of 85 could have been made is not proven yet; the highest bid N–S could have made is at "
        "most 95 (perhaps not even the lowest bid, 70) — proved so far.")
    assert ann.auction_sentence(facts(75, 75)) == head + ("N–S's bid of 85 could not have been made; the highest bid "
                                                         "N–S could have made is 75.")
    assert ann.auction_sentence(facts(85, 85)).endswith("could have been made; 85 was the highest bid N–S could "
                                                        "have made.")
    assert ann.auction_sentence(facts(100, 100)).endswith("N–S could have bid as high as 100 and made it.")
    assert ann.auction_sentence(facts(40, 65)).endswith("N–S could not have made even the lowest bid, 70.")
    assert ann.auction_sentence(facts(0, 120)) == head + ("whether N–S's bid of 85 could have been made is not "
                                                          "proven yet.")  # nothing proven: no highest bid said
    assert ann.auction_facts(rec, {"cards": []}) is None
    assert ann.auction_facts(_rec("crowsnest-passed-out"), {"cards": [], "start": {"NS": 0, "EW": 0}}) is None


def test_analyze_with_a_budget_reports_what_is_proven_as_it_grows():
    """`analyze(..., budget=S, on_report=f)`: f gets reports of every card as proven facts grow, then the final
    report; a budget that runs out leaves ranges, never a value said to be exact that is not."""
    reports = []
    rec = _rec("1-high-partnership-made")  # 13 tricks: its first tricks are not valued exactly in 2 s
    final = ann.analyze(rec, budget=2, on_report=reports.append)
    assert reports and reports[-1] == final and len(reports[0]["cards"]) == 52
    assert not ann.analysis_complete(final) and final["start"] is None
    lo, hi = final["start_range"]["NS"]
    assert 0 <= lo < hi
    for c in final["cards"]:
        if not ann.is_exact(c):
            assert c["loss"] is None and c["best_lo"] <= c["best_hi"] and c["lo"] <= c["hi"]
    with pytest.raises(ValueError, match="budget"):
        ann.analyze(rec, budget=0)
    with pytest.raises(ValueError, match="budget"):
        ann.analyze(rec, budget="60")
