"""Session-wide test settings: the learner's progress (widgets.lessons.PROGRESS, also written by the notebooks'
and the Voila pages' kernels, which inherit this environment) goes to a fresh temporary file, never to the
user's ~/.crowsnest-rook/progress.json.

How the suite is spread over the cores (pyproject's addopts: pytest-xdist's ``-n auto --dist loadgroup
--no-loadscope-reorder``). The whole suite (``python -m pytest`` with no paths: the README's command, CI) runs in
`WHOLE_SUITE_WORKERS` worker processes; a run of chosen files or tests (``python -m pytest tests/test_x.py``) runs
in this process as before (``-s`` and ``--pdb`` work), unless ``-n N`` asks for workers. Every test of a module runs
on one worker, except the browser tests that share nothing but the session's Voila server and Chromium (each worker
starts its own), which go one by one to whichever worker is free; modules holding a browser or slow test start
first, so that the workers end together. Without xdist (``-p no:xdist``, or not installed) its options are taken and
ignored, and everything runs in this process."""
import contextlib
import functools
import os
import tempfile
from pathlib import Path

import pytest

os.environ["ROOK_PROGRESS_FILE"] = os.path.join(tempfile.mkdtemp(prefix="rook-progress-"), "progress.json")

# The game in play (rookcore.saved) is kept nowhere unless a test asks: the Voila server and notebooks inherit this,
# so every page load starts a new game as the tests expect.
os.environ["ROOK_GAME_FILE"] = ""

_BROWSER_DIR = Path(__file__).resolve().parent / "browser"
_LONG_MARKS = ("browser", "slow")
_MODULE_SCOPES = ("class", "module", "package")
WHOLE_SUITE_WORKERS = min(max(os.cpu_count() or 1, 2), 4)
"""Workers for the whole suite: one per core, at least 2 (the browser tests spend much of their time waiting on
the page's kernel and Chromium), at most 4."""


def pytest_addoption(parser, pluginmanager):
    """pytest-xdist's options of pyproject's addopts, accepted and ignored when xdist is not loaded."""
    if pluginmanager.has_plugin("xdist"):
        return
    group = parser.getgroup("xdist", "pytest-xdist is not loaded: its options are taken and ignored")
    group._addoption("-n", "--numprocesses", dest="ignored_numprocesses", metavar="N",
                     help="ignored: pytest-xdist is not loaded")
    group.addoption("--dist", dest="ignored_dist", help="ignored: pytest-xdist is not loaded")
    group.addoption("--no-loadscope-reorder", dest="ignored_loadscopereorder", action="store_false",
                    help="ignored: pytest-xdist is not loaded")


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without xdist
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: `WHOLE_SUITE_WORKERS` for the whole suite (no paths given: pyproject's testpaths), 0 (this
    process) for chosen files or tests. ``$PYTEST_XDIST_AUTO_NUM_WORKERS`` overrides both, as in xdist."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return WHOLE_SUITE_WORKERS if config.args_source is pytest.Config.ArgsSource.TESTPATHS else 0


@functools.lru_cache(maxsize=None)
def _under_browser_dir(path: Path) -> bool:
    return _BROWSER_DIR in path.resolve().parents


def _in_browser_dir(item) -> bool:
    return _under_browser_dir(item.path)


def _is_long(item) -> bool:
    return _in_browser_dir(item) or any(item.get_closest_marker(m) for m in _LONG_MARKS)


def _uses_a_module_fixture(item) -> bool:
    infos = getattr(item, "_fixtureinfo", None)
    if infos is None:
        return False
    return any(defs and defs[-1].scope in _MODULE_SCOPES for defs in infos.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    """Modules holding a browser or slow test first (each module's tests kept together and in order); under
    ``--dist loadgroup`` each module's tests form one group, except a browser test that uses no module-scoped fixture
    (it shares only the session's server and browser), which is scheduled alone."""
    modules: dict = {}
    for item in items:
        long_ = modules.setdefault(item.path, False)
        modules[item.path] = long_ or _is_long(item)
    rank = {path: (not long_, i) for i, (path, long_) in enumerate(modules.items())}
    items.sort(key=lambda item: rank[item.path])
    if not getattr(config.option, "loadgroup", False):  # set by xdist on its workers under --dist loadgroup
        return
    root = config.rootpath
    for item in items:
        if _in_browser_dir(item) and not _uses_a_module_fixture(item):
            continue
        item.add_marker(pytest.mark.xdist_group(str(item.path.relative_to(root))))



@pytest.fixture
def kept_dir(monkeypatch, tmp_path):
    """The kept-game folder of a test (`rookcore.learners`): ``$ROOK_GAME_FILE`` is ``<tmp>/kept/game.json``; no
    ``$ROOK_KEEP_DAYS``."""
    from rookcore import learners, saved  # noqa: PLC0415 - only the tests that use the fixture load them

    folder = tmp_path / "kept"
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(folder / "game.json"))
    monkeypatch.delenv(learners.KEEP_DAYS_ENV, raising=False)
    return folder


class SharedPlaywright:
    """This process's one Playwright (sync API) and what was launched with it (the browser tests' Chromium), opened
    when a test first asks and closed before a test of a module that never asks (and at the end).

    While a sync Playwright is open it keeps an asyncio loop running in the main thread: a second
    ``sync_playwright()`` then fails ("using Playwright Sync API inside the asyncio loop"), and so does every
    ``asyncio.run()`` (tests/test_serving.py, tests/test_kernel_starts.py). Hence one Playwright, shared by the
    modules that use it, and none open while other modules run."""

    def __init__(self) -> None:
        self._playwright = None
        self._kept: dict = {}

    def get(self):
        """The open Playwright, started if none is."""
        if self._playwright is None:
            from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only browser tests load Playwright

            self._playwright = sync_playwright().start()
        return self._playwright

    def kept(self, name: str, launch):
        """``launch(playwright)``'s result, launched once while this Playwright is open (closed with it)."""
        if name not in self._kept:
            self._kept[name] = launch(self.get())
        return self._kept[name]

    def close(self) -> None:
        """Close what was kept, then stop the Playwright (nothing if none is open)."""
        kept, self._kept = self._kept, {}
        for thing in kept.values():
            with contextlib.suppress(Exception):  # a browser already gone (killed, crashed) needs no closing
                thing.close()
        if self._playwright is not None:
            playwright, self._playwright = self._playwright, None
            playwright.stop()


SHARED_PLAYWRIGHT = SharedPlaywright()
_PLAYWRIGHT_MODULES = pytest.StashKey[set]()


@pytest.fixture(scope="module")
def shared_playwright() -> SharedPlaywright:
    """This process's `SharedPlaywright` (``tests/browser``'s ``browser`` keeps its Chromium there)."""
    return SHARED_PLAYWRIGHT


@pytest.fixture(scope="module")
def playwright(shared_playwright):
    """This process's one Playwright (`SharedPlaywright`), for every test that drives Chromium (``tests/browser``'s
    ``browser``, the real-JupyterHub test, the test that kills its own Chromium): such a test launches (or connects)
    its browser with it, never with a second ``sync_playwright()``."""
    return shared_playwright.get()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """Note the modules whose tests use Playwright."""
    session.config.stash[_PLAYWRIGHT_MODULES] = {item.path for item in session.items
                                                  if "playwright" in item.fixturenames}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before a test of a module that does not use Playwright (the modules before it are torn down by now): no
    Playwright open."""
    if item.path not in item.config.stash.get(_PLAYWRIGHT_MODULES, set()):
        SHARED_PLAYWRIGHT.close()


def pytest_sessionfinish(session):
    SHARED_PLAYWRIGHT.close()
