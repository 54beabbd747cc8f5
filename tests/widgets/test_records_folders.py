"""Each learner's own records folder and the read-only class folder (issue 31 item 6): saved records lived in one
folder shared by every learner, so a learner could replace another's record or the teacher's that a ``?record=``
link hands the class.

The pages are the app's own (`widgets.learner.AppPage`, the browser's report of its learner id simulated as its
script sends it), their folders the real ones of `rookcore.learners` (``$ROOK_GAME_FILE`` in the test's folder:
``kept/learners/<id>/records/``); the class folder is ``class/`` in the app's folder (the conftest's) or
``$ROOK_CLASS_DIR``. One kernel serves one page, so the pages here are opened one after the other, each taking the
process's records folder as its kernel would."""
from __future__ import annotations

import os
import re
import time

import pytest

from rookcore import learners
from rookcore.examples import example_path, example_text
from widgets import paths
from widgets.learner import AppPage

pytestmark = pytest.mark.usefixtures("no_callback_errors")

ID_A = "a" * 32
ID_B = "0123456789abcdef" * 2


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _page(learner: str | None, query: str = "", stored: bool = True) -> AppPage:
    """A page whose browser reported ``learner`` (None: no report, the page gave up waiting)."""
    page = AppPage(query=query, timer=False)
    if learner is None:
        page.time_out()
    else:
        page.learner_id.report = {"id": learner, "stored": stored}
    page.app.play_panel.pace = 0
    return page


def _save_replay(page: AppPage, typed: str) -> str:
    replay = page.app.replay
    replay.save_path.value = typed
    replay.save_record_button.click()
    return _text(replay.save_result.value)


def test_each_learner_saves_in_their_own_folder_and_cannot_reach_another_s(kept_dir):
    a = _page(ID_A)
    assert a.app.play_panel.save("hands/hand-1.json")
    mine = kept_dir / "learners" / ID_A / "records" / "hands" / "hand-1.json"
    assert mine.is_file()
    before = mine.read_bytes()
    assert "Saved hands/hand-1.json" in _text(a.app.play_panel.save_result.value)  # named in the folder, not where

    b = _page(ID_B)  # another learner's page (its own kernel in the app)
    assert b.app.play_panel.save("hands/hand-1.json")
    assert (kept_dir / "learners" / ID_B / "records" / "hands" / "hand-1.json").is_file()
    for typed in (str(mine), f"../../{ID_A}/records/hands/hand-1.json", "../game.json"):
        assert b.app.play_panel.save(typed) is None
        assert "only opens and saves files inside your own records folder" in b.app.play_panel.save_result.value
        assert "only opens and saves files inside your own records folder" in _save_replay(b, typed)
        assert not b.app.replay.load_file(typed)
    assert mine.read_bytes() == before
    assert b.app.replay.load_file("hands/hand-1.json")  # B's own
    assert sorted(p.name for p in (kept_dir / "learners").iterdir()) == sorted([ID_A, ID_B])


def test_the_class_folder_is_read_only_and_a_record_link_opens_it(kept_dir, tmp_path, monkeypatch):
    week1 = tmp_path / "class" / "week1.json"
    week1.parent.mkdir()
    week1.write_text(example_text("dixie-made"))
    page = _page(ID_A, "?record=class/week1.json")
    replay = page.app.replay
    assert page.app.tab.titles[page.app.tab.selected_index] == "Replay" and "Dixie" in replay.title.value
    assert page.app.link_message.value == ""
    for typed in ("class/week1.json", "class/new.json", str(week1)):
        assert "the class folder holds the teacher's records and cannot be written" in _save_replay(page, typed)
        assert page.app.play_panel.save(typed) is None
        assert "cannot be written" in page.app.play_panel.save_result.value
    assert week1.read_text() == example_text("dixie-made") and sorted(os.listdir(week1.parent)) == ["week1.json"]
    assert "class/missing.json: no such file in the class folder" in _text(_load_error(page, "class/missing.json"))
    assert "not a file of the class folder" in _text(_load_error(page, "class/../../x.json"))
    # a class folder elsewhere ($ROOK_CLASS_DIR): the same
    elsewhere = tmp_path / "teacher"
    elsewhere.mkdir()
    (elsewhere / "week2.json").write_text(example_text("buckeye-made"))
    monkeypatch.setenv(paths.CLASS_DIR_ENV, str(elsewhere))
    page = _page(ID_A, "?record=class/week2.json")
    assert "Buckeye" in page.app.replay.title.value and page.app.replay.path.value == "class/week2.json"
    assert "cannot be written" in _save_replay(page, "class/week2.json")


def _load_error(page: AppPage, typed: str) -> str:
    assert not page.app.replay.load_file(typed)
    return page.app.replay.error.value


def test_a_record_link_opens_the_learner_s_own_record_once_the_learner_is_known(kept_dir, monkeypatch):
    own = kept_dir / "learners" / ID_A / "records" / "mine.json"
    own.parent.mkdir(parents=True)
    own.write_text(example_text("buckeye-made"))
    monkeypatch.setattr(paths, "_known", False)  # a kernel just started: no learner yet (the conftest set a folder)
    page = AppPage(query="?record=mine.json", timer=False)
    assert page.app.link_message.value == "" and page.app.replay.error.layout.display == "none"  # it waits
    page.learner_id.report = {"id": ID_A, "stored": True}
    assert "Buckeye" in page.app.replay.title.value and page.app.link_message.value == ""
    assert page.app.tab.titles[page.app.tab.selected_index] == "Replay"
    monkeypatch.setattr(paths, "_known", False)  # another page, in a kernel of its own
    other = _page(ID_B, "?record=mine.json")  # another learner's page: not theirs, and said so
    message = _text(other.app.link_message.value)
    assert "?record=mine.json: mine.json: no such file in your records folder" in message, message


def test_a_page_without_a_learner_saves_in_a_folder_of_its_own(kept_dir, tmp_path):
    page = _page(ID_A, stored=False)  # the browser cannot keep its id: nothing is kept for this page
    written = page.app.play_panel.save("hands/hand-1.json")
    assert written and "Saved hands/hand-1.json" in _text(page.app.play_panel.save_result.value)
    where = paths.records_root()
    assert kept_dir not in where.parents and tmp_path not in where.parents and where != tmp_path
    assert not (kept_dir / "learners").exists() or not any((kept_dir / "learners").iterdir())
    assert page.app.replay.load_file("hands/hand-1.json")  # the page finds what it saved
    page = _page(None)  # no report at all: the same
    assert page.app.play_panel.save("x.json") and (paths.records_root() / "x.json").is_file()


def test_a_learner_who_only_saves_records_keeps_them(kept_dir):
    page = _page(ID_A)
    folder = kept_dir / "learners" / ID_A
    month_ago = time.time() - 40 * 86400
    os.utime(folder, (month_ago, month_ago))
    assert page.app.play_panel.save("week.json")  # a save renews the learner's folder
    assert learners.clean_old(30, kept_dir / "learners", keep=ID_B) == []
    assert (folder / "records" / "week.json").is_file()
    os.utime(folder, (month_ago, month_ago))  # without a save for 30 days, it goes with the rest
    assert learners.clean_old(30, kept_dir / "learners", keep=ID_B) == [folder]


def test_the_records_folder_follows_the_session():
    session = learners.LearnerSession(ID_A, example_path("crowsnest-made").parent / "x" / "game.json", None)
    paths.use_session(session)
    assert paths._own == session.game.parent / paths.RECORDS_FOLDER
    paths.use_session(None)  # a page built without a session keeps what it had
    assert paths._own == session.game.parent / paths.RECORDS_FOLDER
    paths.use_session(learners.LearnerSession(ID_A, None, None))  # kept nowhere: the page's own folder
    assert paths._own is None


def test_a_refused_save_names_the_file_as_the_page_does_never_the_server_s_folders(kept_dir):
    """A save where a file stands in the way of a folder (``CON.json`` saved, then ``CON.json/x.json``) is refused
    naming the paths inside the learner's records folder, never the server's folders or the learner's id (newcomer
    check: the message showed /…/learners/<id>/records/CON.json/x.json)."""
    page = _page(ID_A)
    assert page.app.play_panel.save("CON.json")
    for said in (page.app.play_panel.save("CON.json/x.json") and "" or _text(page.app.play_panel.save_result.value),
                 _save_replay(page, "CON.json/x.json")):
        assert "CON.json/x.json: cannot save there: CON.json is a file, not a folder" in said, said
        assert ID_A not in said and str(kept_dir) not in said
