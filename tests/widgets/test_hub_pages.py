"""The app's page and a lesson page under JupyterHub (issue 31 item 4): the signed-in user (``$JUPYTERHUB_USER``) is
the learner, so the app opens at once for their game in their own home folder (no "Opening your game…", no browser
id asked), a reload finds it again, and their lesson progress is kept beside it. The real JupyterHub in Chromium:
tests/test_jupyterhub.py."""
from __future__ import annotations

import json
import re

import pytest

from panel_actions import act_once
from rookcore import learners, saved
from widgets import lesson_page, lessons
from widgets.learner import AppPage, LearnerId

pytestmark = pytest.mark.usefixtures("no_callback_errors")

SLUG = "03-nest-and-trump"


@pytest.fixture
def hub(monkeypatch, tmp_path):
    """A single-user server of JupyterHub user alice: ``$JUPYTERHUB_USER``, her home ``<tmp>/alice``, the kept game and
    the progress where the app keeps them by default (no ``$ROOK_GAME_FILE``, no ``$ROOK_PROGRESS_FILE``), a fresh
    `widgets.lessons.PROGRESS` (in memory, as a page's kernel starts). Yields alice's folder of kept games."""
    home = tmp_path / "alice"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv(learners.HUB_USER_ENV, "alice")
    for name in (saved.GAME_FILE_ENV, lessons.PROGRESS_FILE_ENV, learners.LEARNER_FROM_ENV, learners.KEEP_DAYS_ENV,
                 *learners.BINDER_ENVS):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(lessons, "PROGRESS", lessons.Progress(lessons.progress_path()))
    yield home / ".crowsnest-rook" / "learners" / learners.hub_learner("alice")
    lessons.PROGRESS.stop_watching()


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _where(panel) -> tuple:
    t = panel.table
    return t.hand_number, t.state.step, t.state.hands


def test_the_app_opens_at_once_for_the_hub_user_s_own_game(hub):
    page = AppPage(query="", timer=False)
    assert page.session is not None and page.app.play_panel is not None  # no wait for a browser's id
    assert "Opening your game" not in str([getattr(c, "value", "") for c in page.children])
    assert page.session.learner == learners.hub_learner("alice") and page.session.game == hub / "game.json"
    panel = page.app.play_panel
    panel.pace = 0
    assert panel.keep
    for _ in range(3):
        act_once(panel)
    want = _where(panel)
    again = AppPage(query="", timer=False).app.play_panel  # the reload
    assert _where(again) == want
    assert _text(again.status.value).startswith("Welcome back: your game goes on")
    assert saved.load_table(hub / "game.json").table.state.step == want[1]


def test_the_hub_user_s_learn_tab_and_lesson_pages_keep_progress_in_their_home(hub, monkeypatch):
    AppPage(query="", timer=False)  # the app's Learn tab
    assert lessons.PROGRESS.path == hub / "progress.json"
    monkeypatch.setattr(lessons, "PROGRESS", lessons.Progress(lessons.progress_path()))  # a lesson page's kernel
    head = lesson_page.start_lesson(SLUG, query="")
    assert not any(isinstance(c, LearnerId) for c in head.children)  # no browser id asked
    assert lessons.PROGRESS.path == hub / "progress.json"
    assert json.loads((hub / "progress.json").read_text())["visited"] == [SLUG]


def test_on_binder_the_page_still_asks_the_browser(hub, monkeypatch):
    monkeypatch.setenv("BINDER_REPO_URL", "https://github.com/crowsnest/rook")
    page = AppPage(query="", timer=False)
    assert page.session is None and isinstance(page.children[0], LearnerId)
    head = lesson_page.start_lesson(SLUG, query="")
    assert any(isinstance(c, LearnerId) for c in head.children)
