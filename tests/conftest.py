"""Session-wide test settings: the learner's progress (widgets.lessons.PROGRESS, also written by the notebooks'
and the Voila pages' kernels, which inherit this environment) goes to a fresh temporary file, never to the
user's ~/.crowsnest-rook/progress.json."""
import os
import tempfile

import pytest

os.environ["ROOK_PROGRESS_FILE"] = os.path.join(tempfile.mkdtemp(prefix="rook-progress-"), "progress.json")

# The game in play (rookcore.saved) is kept nowhere unless a test asks: the Voila server and notebooks inherit this,
# so every page load starts a new game as the tests expect.
os.environ["ROOK_GAME_FILE"] = ""


@pytest.fixture
def kept_dir(monkeypatch, tmp_path):
    """The kept-game folder of a test (`rookcore.learners`): ``$ROOK_GAME_FILE`` is ``<tmp>/kept/game.json``; no
    ``$ROOK_KEEP_DAYS``."""
    from rookcore import learners, saved  # noqa: PLC0415 - only the tests that use the fixture load them

    folder = tmp_path / "kept"
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(folder / "game.json"))
    monkeypatch.delenv(learners.KEEP_DAYS_ENV, raising=False)
    return folder


@pytest.fixture(scope="session")
def playwright():
    """The session's one Playwright (sync API), for every test that drives Chromium (``tests/browser``'s ``browser``,
    the real-JupyterHub test, the test that kills its own Chromium).

    Playwright's sync API runs one at a time in a thread: while one ``sync_playwright()`` is open (the session's
    browser of the browser tests), a second fails with "using Playwright Sync API inside the asyncio loop", so a
    test that needs a browser of its own launches (or connects) it through this one."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only browser tests load Playwright

    with sync_playwright() as pw:
        yield pw
