"""Each learner's own lesson progress on a shared server (issue 27): the app's page and a lesson page keep progress
in ``learners/<id>/progress.json`` once the browser's learner id is known (in memory until then), the first
learner takes over the one shared file of earlier releases, and ``$ROOK_PROGRESS_FILE`` still names one file."""
from __future__ import annotations

import json

import pytest

from widgets import lesson_page, lessons
from widgets.learner import AppPage, LearnerId

pytestmark = pytest.mark.usefixtures("no_callback_errors")

ID_A = "0123456789abcdef0123456789abcdef"
ID_B = "fedcba9876543210fedcba9876543210"
SLUG = "03-nest-and-trump"


@pytest.fixture
def per_learner(kept_dir, monkeypatch, tmp_path):
    """Per-learner progress: no ``$ROOK_PROGRESS_FILE``, a fresh `PROGRESS` (in memory, as a page starts), the
    shared file of earlier releases in the test's folder."""
    monkeypatch.delenv(lessons.PROGRESS_FILE_ENV, raising=False)
    monkeypatch.setattr(lessons.pathlib.Path, "home", staticmethod(lambda: tmp_path))
    fresh = lessons.Progress(lessons.progress_path())
    monkeypatch.setattr(lessons, "PROGRESS", fresh)
    yield kept_dir
    lessons.PROGRESS.stop_watching()


def _file(kept, learner):
    return kept / "learners" / learner / "progress.json"


def _new_page_progress(monkeypatch):
    """A new page's kernel: a fresh `PROGRESS`, in memory until its learner is known."""
    monkeypatch.setattr(lessons, "PROGRESS", lessons.Progress(lessons.progress_path()))


def test_progress_waits_in_memory_then_goes_to_the_learner_s_own_file(per_learner, monkeypatch):
    assert lessons.PROGRESS.path is None
    lessons.PROGRESS.visit("01-deck-and-counters")  # before the id came
    page = AppPage(query="", timer=False)
    page.learner_id.report = {"id": ID_A, "stored": True}
    assert lessons.PROGRESS.path == _file(per_learner, ID_A)
    assert json.loads(_file(per_learner, ID_A).read_text())["visited"] == ["01-deck-and-counters"]
    _new_page_progress(monkeypatch)
    other = AppPage(query="", timer=False)
    other.learner_id.report = {"id": ID_B, "stored": True}
    assert lessons.PROGRESS.visited == []  # B sees none of A's progress
    lessons.PROGRESS.visit(SLUG)
    assert json.loads(_file(per_learner, ID_A).read_text())["visited"] == ["01-deck-and-counters"]
    assert json.loads(_file(per_learner, ID_B).read_text())["visited"] == [SLUG]


def test_a_lesson_page_keeps_its_visit_in_the_learner_s_file(per_learner):
    head = lesson_page.start_lesson(SLUG, query="")
    tracker = next(c for c in head.children if isinstance(c, LearnerId))
    assert not _file(per_learner, ID_A).exists()
    tracker.report = {"id": ID_A, "stored": True}
    assert json.loads(_file(per_learner, ID_A).read_text())["visited"] == [SLUG]


def test_a_bad_id_on_a_lesson_page_gets_a_fresh_one_and_never_a_path(per_learner):
    head = lesson_page.start_lesson(SLUG, query="")
    tracker = next(c for c in head.children if isinstance(c, LearnerId))
    tracker.report = {"id": "../../etc", "stored": True}
    assert tracker.learner and tracker.learner != "../../etc"
    assert lessons.PROGRESS.path == _file(per_learner, tracker.learner)


def test_the_first_learner_takes_over_the_shared_file_once(per_learner, monkeypatch):
    shared = lessons.shared_progress()
    shared.parent.mkdir(parents=True)
    shared.write_text(json.dumps({"visited": [SLUG], "attempts": {}, "correct": {}}))
    lessons.use_learner_progress(ID_A)
    assert lessons.PROGRESS.visited == [SLUG] and not shared.exists()
    _new_page_progress(monkeypatch)
    lessons.use_learner_progress(ID_B)
    assert lessons.PROGRESS.visited == []


def test_a_named_progress_file_is_kept_as_before(kept_dir, monkeypatch, tmp_path):
    named = tmp_path / "named.json"
    monkeypatch.setenv(lessons.PROGRESS_FILE_ENV, str(named))
    monkeypatch.setattr(lessons, "PROGRESS", lessons.Progress(lessons.progress_path()))
    lessons.use_learner_progress(ID_A)
    assert lessons.PROGRESS.path == named
    head = lesson_page.start_lesson(SLUG, query="")
    assert not any(isinstance(c, LearnerId) for c in head.children)
