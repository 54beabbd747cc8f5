"""ReplayPanel: loading records (examples, path, upload, text), stepping, and the final score box."""
from __future__ import annotations

import datetime
import json
import re
import time

import pytest

from rookcore import records
from rookcore.examples import example_path, expected_path, list_examples, load_example
from widgets.replay import MAX_UPLOAD_BYTES, ReplayPanel

EXAMPLES = list_examples()


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _upload(panel: ReplayPanel, name: str, data: bytes, size: int | None = None) -> None:
    panel.upload.value = ({"name": name, "type": "application/json", "size": len(data) if size is None else size,
                           "content": memoryview(data), "last_modified": datetime.datetime.now()},)


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


def test_default_example_loaded():
    p = ReplayPanel()
    assert p.examples.value == "crowsnest-made"
    assert p.step_label.value == f"Step 0 / {len(load_example('crowsnest-made').actions())}"
    assert p.first_button.disabled and p.back_button.disabled
    assert p.error.layout.display == "none"
    # record step 0's comment is about the opening call: shown once that call is the last action shown
    assert p.comment.layout.display == "none" and "The opening call." not in p.comment.value
    assert "N deals" in p.action.value
    assert p.score.layout.display == "none"
    p.forward_button.click()
    assert "The opening call." in p.comment.value and "E bids 70" in p.action.value


def test_stable_names():
    p = ReplayPanel()
    assert [b.description for b in (p.first_button, p.back_button, p.forward_button, p.last_button,
                                    p.load_button)] == ["First", "Back", "Forward", "Last", "Load"]
    assert "rook-replay-examples" in p.examples._dom_classes
    assert "rook-replay-step" in p.step_label._dom_classes
    assert "rook-replay-score" in p.score._dom_classes
    assert "rook-replay-error" in p.error._dom_classes


@pytest.mark.parametrize("name", EXAMPLES)
def test_each_example_last_shows_expected_score(name):
    p = ReplayPanel(example=None)
    p.examples.value = name
    expected = json.loads(expected_path(name).read_text("utf-8"))
    n = len(load_example(name).actions())
    assert p.step_label.value == f"Step 0 / {n}"
    p.last_button.click()
    assert p.step_label.value == f"Step {n} / {n}"
    assert p.score.layout.display == ""
    text = _text(p.score.value)
    if expected.get("passed_out"):
        assert "Passed out" in text
        return
    ns, ew = expected["score"]["NS"], expected["score"]["EW"]
    fmt = lambda v: f"+{v}" if v > 0 else str(v)  # noqa: E731
    assert f"N–S {fmt(ns)} · E–W {fmt(ew)}" in text
    assert f"Declarer {expected['declarer']}" in text
    assert f"bid {expected['bid']}" in text
    assert ("made" if expected["made"] else "set") in text
    assert f"Captured: N–S {expected['captured']['NS']} · E–W {expected['captured']['EW']}" in text
    # the table and info draw every step without error
    for k in range(n + 1):
        p.go(k)
        assert p.table_view.view["hand"] is not None and p.info.value
        shown = p.table_view.view  # every hand face up, as the record has it at this step
        assert sum(len(seat["cards"]) for seat in shown["seats"].values()) == sum(len(h) for h in p.state.hands)


def test_forward_back_first_and_slider():
    p = ReplayPanel()
    n = p.n_steps
    p.forward_button.click()
    assert p.step_label.value == f"Step 1 / {n}"
    assert "E bids 70" in p.action.value
    p.forward_button.click()
    p.back_button.click()
    assert p.step_label.value == f"Step 1 / {n}"
    p.slider.value = 12
    assert p.step_label.value == f"Step 12 / {n}"
    assert p.state.step == 12
    p.first_button.click()
    assert p.step == 0 and p.step_label.value == f"Step 0 / {n}"
    p.back_button.click()  # clamped
    assert p.step == 0
    p.last_button.click()
    assert p.forward_button.disabled and p.last_button.disabled
    p.forward_button.click()
    assert p.step == n


def test_step_descriptions():
    p = ReplayPanel()  # crowsnest-made: auction 70 75 pass 80 pass 85 pass, discard, trump Y
    p.go(8)
    text = _text(p.action.value)
    assert re.search(r"S buries (\S+ ){5}\(takes up the nest and puts these 5 back\)", text), text
    assert "Crow" in text and "CROW" not in text  # names as on the page, as the marks list and AI moves say them
    assert "put back by S" in p.info.value
    p.go(9)
    assert "S names trump: Yellow" in p.action.value
    p.go(10)
    assert "E plays G13" in p.action.value
    p.go(13)
    assert "E wins the trick" in p.action.value
    assert "Last trick (1)" in p.info.value


def test_state_matches_engine_replay():
    record = load_example("tournament-set")
    p = ReplayPanel(example=None)
    p.load_record(record)
    for k in (0, 5, 20, p.n_steps):
        p.go(k)
        engine = record.replay(upto=k)
        assert p.state.hands == engine.hands
        assert f"N–S {engine.captured[0]} · E–W {engine.captured[1]}" in p.info.value


def test_malformed_text_shows_error_and_keeps_record():
    p = ReplayPanel()
    p.go(5)
    before = p.record
    assert p.load_text("{not json") is False
    assert p.error.layout.display == ""
    assert "not JSON" in p.error.value
    assert p.record is before and p.step == 5
    # an illegal move: one line naming the step
    doc = json.loads(example_path("crowsnest-made").read_text())
    doc_card = doc["tricks"][0][1]
    doc["tricks"][0][1] = "Y5"  # S must follow green (holds G12)
    assert p.load_text(json.dumps(doc)) is False
    assert "step" in p.error.value and "\n" not in _text(p.error.value)
    m = re.search(r"step (\d+) \(Step (\d+) here\): S cannot play Y5", _text(p.error.value))
    assert m and int(m[2]) == int(m[1]) + 1, p.error.value  # the record's step and the navigator's
    p.go(int(m[2]))  # the record on show is the same deal: its Step N is the action the bad record changed
    assert f"S plays {doc_card}" in _text(p.action.value), p.action.value
    assert p.record is before
    # a good record clears the error
    assert p.load_text(example_path("dixie-made").read_text()) is True
    assert p.error.layout.display == "none" and p.examples.value is None
    assert "Dixie" in p.title.value


def test_not_a_record():
    p = ReplayPanel()
    assert p.load_text('{"hello": 1}') is False
    assert "not a Rook record" in p.error.value


def test_load_path(tmp_path):
    p = ReplayPanel()
    target = tmp_path / "hand.json"
    target.write_text(example_path("buckeye-made").read_text())
    p.path.value = str(target)
    p.load_button.click()
    assert p.error.layout.display == "none"
    assert "Buckeye" in p.title.value
    p.path.value = str(tmp_path / "missing.json")
    p.load_button.click()
    assert "missing.json: no such file" in p.error.value
    assert "Buckeye" in p.title.value
    (tmp_path / "dixie.json").write_text(example_path("dixie-made").read_text())
    p.path.value = str(tmp_path / "dixie")  # as typed to Save, which wrote dixie.json
    p.load_button.click()
    assert p.error.layout.display == "none" and "Dixie" in p.title.value
    p.path.value = str(tmp_path / "missing")
    p.load_button.click()
    assert "missing: no such file" in p.error.value and "Dixie" in p.title.value


def test_load_refuses_a_fifo_a_big_file_and_shortens_a_long_name(tmp_path):
    """A FIFO would block the kernel on open (the page froze); a 60 MB file was read in full before the record
    check refused it; a 5,000-character name filled the page."""
    import os

    p = ReplayPanel()
    os.mkfifo(tmp_path / "fifo.json")
    p.path.value = "fifo.json"
    p.load_button.click()  # returns at once: the FIFO is never opened
    assert "fifo.json is not an ordinary file" in p.error.value and "CrowsNest" in p.title.value
    (tmp_path / "big.json").write_bytes(b" " * (MAX_UPLOAD_BYTES + 1))
    p.path.value = "big.json"
    p.load_button.click()
    assert "big.json: record is larger than 1 MB" in p.error.value and "CrowsNest" in p.title.value
    p.path.value = "x" * 5000 + ".json"
    p.load_button.click()
    assert "…" in p.error.value and len(_text(p.error.value)) < 300, _text(p.error.value)[:400]


def test_schema_errors_are_shown_without_json_path_signs():
    """A learner reads "the record: 'variant' is a required property", not "$: …" (the CLI keeps the JSON path)."""
    p = ReplayPanel()
    doc = json.loads(example_path("crowsnest-made").read_text())
    missing = {k: v for k, v in doc.items() if k != "variant"}
    _upload(p, "novariant.json", json.dumps(missing).encode())
    assert "novariant.json: the record: 'variant' is a required property" in p.error.value, p.error.value
    _upload(p, "dealer.json", json.dumps(dict(doc, dealer="Q")).encode())
    assert "dealer.json: dealer: 'Q' is not one of" in p.error.value and "$" not in p.error.value, p.error.value
    assert "CrowsNest" in p.title.value  # the record on show is kept


def test_save_refuses_a_fifo_and_hidden_names(tmp_path):
    import os

    p = ReplayPanel()
    os.mkfifo(tmp_path / "fifo.json")
    for name, says in (("fifo.json", "is not an ordinary file"), ("..json", "hidden file"),
                       (".hidden", "hidden file")):
        assert p.save_record(name) is None
        assert says in p.save_result.value, (name, p.save_result.value)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["fifo.json"]


def test_upload_ok_bad_and_oversize():
    p = ReplayPanel()
    _upload(p, "red.json", example_path("red-1-made").read_bytes())
    assert "The Red 1" in p.title.value and p.error.layout.display == "none"
    assert p.upload.value == ()
    before = p.record
    big = b" " * (MAX_UPLOAD_BYTES + 1)
    _upload(p, "big.json", big)
    assert "larger than 1 MB" in p.error.value
    assert p.record is before and p.upload.value == ()
    _upload(p, "bad.json", b"[1, 2")
    assert "bad.json" in p.error.value and p.record is before


def test_example_reselect_after_other_load():
    p = ReplayPanel()
    p.load_record(load_example("dixie-set"))
    assert p.examples.value is None
    p.examples.value = "crowsnest-made"
    assert "CrowsNest" in p.title.value


def test_game_record_hand_choice():
    from rookcore.ai import LEVELS
    from rookcore.rules import get_rules
    from rookcore.selfplay import play_hands

    game = play_hands(get_rules(), [LEVELS["rules"](seed=s) for s in range(4)], 2, seed=7)
    game = records.loads(records.dumps(game))
    p = ReplayPanel()
    assert p.load_record(game)
    assert p.hand_select.layout.display == ""
    assert len(p.hand_select.options) == len(game.hands)
    p.hand_select.value = len(game.hands) - 1
    assert p.record is game.hands[-1]
    assert p.step == 0
    p.last_button.click()
    assert "Game: N–S" in p.score.value
    p.load_record(load_example("crowsnest-made"))
    assert p.hand_select.layout.display == "none"


def test_passed_out_and_unfinished():
    p = ReplayPanel(example="crowsnest-passed-out")
    p.last_button.click()
    assert "passed out" in p.action.value
    assert "Passed out" in p.score.value
    doc = json.loads(example_path("crowsnest-set").read_text())
    doc["tricks"] = doc["tricks"][:3] + [doc["tricks"][3][:2]]
    assert p.load_text(json.dumps(doc))
    p.last_button.click()
    assert "Unfinished hand" in p.score.value


def test_unsaved_comments_and_marks_are_kept_until_a_second_request(tmp_path):
    from widgets.clicks import SecondClick
    from widgets.replay import DRAFT_NOTE

    p = ReplayPanel()
    p.go(5)
    p.comment_text.value = "typed, not saved"
    p.go(6)
    assert p.comment_text.value == "" and p.unsaved
    p.go(5)  # the draft comes back where it was typed
    assert p.comment_text.value == "typed, not saved" and DRAFT_NOTE in p.annotate_status.value
    target = tmp_path / "hand.json"
    target.write_text(example_path("buckeye-made").read_text())
    p.path.value = str(target)
    p.load_button.click()  # would throw the draft away: only asks
    assert "not saved" in p.error.value and "CrowsNest" in p.title.value
    time.sleep(SecondClick.WAIT)
    p.load_button.click()
    assert "Buckeye" in p.title.value and not p.unsaved and p.error.layout.display == "none"
    p.go(4)
    p.mark_buttons["?"].click()
    data = example_path("red-1-made").read_bytes()
    _upload(p, "red.json", data)
    assert "not saved" in p.error.value and "upload red.json again" in p.error.value and "Buckeye" in p.title.value
    time.sleep(SecondClick.WAIT)
    _upload(p, "red.json", data)
    assert "The Red 1" in p.title.value and p.record.marks is None
    p.path.value = "hand.json"
    p.examples.value = "crowsnest-set"  # nothing unsaved: loads at once, and the File box no longer names a file
    assert "CrowsNest" in p.title.value and p.path.value == ""


def test_blank_comment_where_there_is_none_changes_nothing():
    p = ReplayPanel()
    p.go(3)
    p.comment_text.value = "   "
    p.save_comment_button.click()
    assert "There is no comment" in p.annotate_status.value and "deleted" not in p.annotate_status.value
    assert not p.unsaved and p.save_result.value == ""


def test_choosing_another_hand_of_a_game_clears_the_editor_news():
    from rookcore.ai import LEVELS
    from rookcore.rules import get_rules
    from rookcore.selfplay import play_hands

    game = play_hands(get_rules(), [LEVELS["rules"](seed=s) for s in range(4)], 3, seed=3)
    p = ReplayPanel(example=None)
    assert p.load_record(records.loads(records.dumps(game)))
    p.hand_select.value = 1
    p.go(3)
    p.mark_buttons["?"].click()
    assert "marked ?" in p.annotate_status.value
    p.hand_select.value = 2
    assert p.annotate_status.value == "" and p.step == 0


def test_saved_name_download_cancel_twice_and_upload_clear_the_file_box(tmp_path):
    from widgets.replay import DRAFT_NOTE

    p = ReplayPanel()
    p.go(4)
    p.comment_text.value = "draft"
    p.go(5)
    p.go(4)
    assert DRAFT_NOTE in p.annotate_status.value
    p.comment_text.value = ""  # back to what the record says: no draft, no note
    assert DRAFT_NOTE not in p.annotate_status.value and not p.unsaved
    p.save_path.value = "annotated/week1"
    p.save_record_button.click()
    assert "Saved annotated/week1.json" in p.save_result.value and "Download week1.json" in p.download.value
    p.cancel_analysis()  # nothing ever ran
    assert "No analysis is running" in p.analysis_status.value
    p.path.value = "annotated/week1.json"
    _upload(p, "red.json", example_path("red-1-made").read_bytes())
    assert "The Red 1" in p.title.value and p.path.value == ""


def test_a_path_that_cannot_be_loaded_is_reported_before_the_unsaved_question(tmp_path):
    """Load of a missing or bad file with unsaved marks said "not saved: click Load again" first, although loading
    it could lose nothing; now its error comes at once, without the question, and the record on show stays."""
    p = ReplayPanel()
    p.go(4)
    p.mark_buttons["?"].click()
    (tmp_path / "bad.json").write_text("[1, 2")
    for path, says in (("nonexistent.json", "nonexistent.json: no such file"), ("bad.json", "bad.json: not JSON"),
                       ("../x.json", "only opens and saves files inside your own records folder")):
        p.path.value = path
        p.load_button.click()
        assert says in p.error.value and "not saved" not in p.error.value, p.error.value
        assert "CrowsNest" in p.title.value and p.record.marks == {3: "?"} and p.unsaved
    _upload(p, "bad.json", b"[1, 2")  # the same for an upload
    assert "bad.json: not JSON" in p.error.value and "not saved" not in p.error.value, p.error.value
    assert p.record.marks == {3: "?"} and p.unsaved
    (tmp_path / "ok.json").write_text(example_path("buckeye-made").read_text())
    p.path.value = "ok.json"  # a record that can be loaded still asks first
    p.load_button.click()
    assert "not saved" in p.error.value and "CrowsNest" in p.title.value


def test_the_file_box_takes_the_example_names_that_record_links_take(tmp_path):
    """"crowsnest-set" in the File box said "no such file", though ?record=crowsnest-set opens it."""
    from widgets.clicks import SecondClick

    p = ReplayPanel(example=None)
    for name in ("crowsnest-set", "dixie-made"):
        p.path.value = name
        p.load_button.click()
        assert p.error.layout.display == "none", p.error.value
        assert records.dumps(p.record) == records.dumps(load_example(name))
        assert p.examples.value == name and p.path.value == name and p.save_path.value == f"annotated/{name}.json"
    p.go(3)
    p.mark_buttons["?"].click()
    p.path.value = "crowsnest-made"  # unsaved marks: asks first, as for a file
    p.load_button.click()
    assert "not saved" in p.error.value and p.examples.value == "dixie-made" and p.record.marks == {2: "?"}
    time.sleep(SecondClick.WAIT)
    p.load_button.click()
    assert p.examples.value == "crowsnest-made" and "CrowsNest" in p.title.value and not p.unsaved
    p.path.value = "crowsnest-nonesuch"  # not an example, not a file
    p.load_button.click()
    assert "crowsnest-nonesuch: no such file" in p.error.value and p.examples.value == "crowsnest-made"


def test_the_blue_border_is_explained_when_a_card_was_just_played():
    """The blue border marks the last card played in Replay (elsewhere it marks other things): a legend says so
    whenever a card is highlighted, and none shows while no card is (the auction)."""
    p = ReplayPanel()
    p.slider.value = 1
    assert "blue border" not in p.table.value  # a bid, no card highlighted
    first_card = next(k for k in range(1, p.n_steps + 1) if _is_play(p, k))
    p.slider.value = first_card
    assert "rook-border-legend" in p.table.value and "blue border: the last card played" in p.table.value


def _is_play(p: ReplayPanel, k: int) -> bool:
    p.slider.value = k
    return type(p.state.history[-1][1]).__name__ == "Play"


def test_load_with_an_empty_file_box_after_choosing_an_example_is_a_note_not_an_error(tmp_path):
    """Choosing an example loads it at once; a Load click after that (the obvious next move) says so in a grey
    note, not a red error, and changes nothing. With no example on show, an empty File box is still an error."""
    p = ReplayPanel()
    p.examples.value = "dixie-made"
    assert "Dixie" in p.title.value and p.path.value == ""
    record, step = p.record, p.step
    p.load_button.click()
    assert "⚠" not in p.error.value and "rook-replay-note" in p.error.value, p.error.value
    assert "dixie-made is on show" in p.error.value
    assert p.record is record and p.step == step
    p.load_record(load_example("tournament-set"))  # not from the list: the list shows nothing
    assert p.examples.value is None
    p.load_button.click()
    assert "⚠" in p.error.value and "type the path" in p.error.value


def test_the_time_budget_list_and_the_first_lead_line():
    """Analyze's "Time budget" list (1 min by default) and the line on the first lead's result and the auction:
    exact from an exact analysis, a proven range "— proved; …" from one cut short, gone with another record."""
    from widgets.replay import BUDGET_CHOICES

    reports = {"crowsnest-made": {"variant": "crowsnest", "start": {"NS": 110, "EW": 10}, "cards": []},
               "crowsnest-set": {"variant": "crowsnest", "start": None, "cards": [],
                                 "start_range": {"NS": [25, 45], "EW": [75, 95]}}}
    p = ReplayPanel(analyzer=lambda record: reports[p.session.source_name], analyze_in_background=False)
    assert "rook-analysis-budget" in p.analysis_budget._dom_classes and p.analysis_seconds == 60.0
    assert [label for label, _s in BUDGET_CHOICES] == [label for label, _s in p.analysis_budget.options]
    assert "rook-analysis-start" in p.analysis_start._dom_classes and p.analysis_start.value == ""
    p.analyze_button.click()
    line = _text(p.analysis_start.value)
    assert line.startswith("N–S (declarers, bid 85) take 110 points with best play from the first lead (E–W: 10) — "
                           "exact.")
    assert line.endswith("N–S's bid of 85 could have been made; N–S could have bid as high as 110 and made it.")
    p.examples.value = "crowsnest-set"  # E–W bid 90
    assert p.analysis_start.value == ""
    p.analyze_button.click()
    line = _text(p.analysis_start.value)
    assert line.startswith("E–W (declarers, bid 90) take between 75 and 95 points with best play from the first "
                           "lead (N–S: between 25 and 45) — proved; the exact number was not found in the time "
                           "given.")
    assert "whether E–W's bid of 90 could have been made is not proven yet; the highest bid E–W could have made is " \
           "between 75 and 95 — proved so far." in line
    assert "Analysis done" not in p.analysis_status.value and "time budget ran out" in _text(p.analysis_status.value)
