"""Fixtures for headless-Chromium tests of the Voila app (notebooks/app.ipynb).

* ``voila_url`` (session): starts Voila on ``notebooks/`` on a free port, yields the app's URL
  ``http://127.0.0.1:PORT/voila/render/app.ipynb`` (lessons: ``.../voila/render/tutorial/NN-….ipynb``).
* ``browser``: one Debian Chromium shared by the browser tests, launched by this process's one Playwright
  (``tests/conftest.py``'s ``playwright`` fixture and `SharedPlaywright`, closed while tests of other modules run: a
  test that needs a Chromium of its own launches it with that fixture, never with a second ``sync_playwright()``).
* ``page`` (function): a fresh context/page; ``page.errors`` collects page errors and
  console errors (strings) for the test to assert on; ``page.console_all`` has every console message.

The server renders with the app's Voila template (``share/jupyter/voila/templates/rook``, chosen in voila.json),
taken from this checkout: ``voila_server`` puts ``share/jupyter`` first on JUPYTER_PATH (``pip install -e .``
installs a copy, which would be stale after an edit of the template).

Without /usr/bin/chromium the tests skip, except under CI=true where they fail.
"""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS_DIR = "notebooks"  # served as a folder so the tutorial lessons are reachable from the app
APP_PATH = "voila/render/app.ipynb"
ARTIFACTS = REPO_ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY_TIMEOUT = 60.0
VOILA_DATA = REPO_ROOT / "share" / "jupyter"  # holds voila/templates/rook, the app's template

_BROWSER_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    # Mark every test under tests/browser with @pytest.mark.browser.
    for item in items:
        if _BROWSER_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _require_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        msg = f"{CHROMIUM} not found (apt-get install -y chromium)"
        if _in_ci():
            pytest.fail(msg)
        pytest.skip(msg)


def jupyter_path_env() -> str:
    """JUPYTER_PATH with this checkout's ``share/jupyter`` first (Voila looks for templates there)."""
    rest = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != str(VOILA_DATA)]
    return os.pathsep.join([str(VOILA_DATA), *rest])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


NO_POOL = ["--VoilaConfiguration.preheat_kernel=False"]
"""Voila's options for a test server without voila.json's kernel pools (28 kernels started with the server)."""


@contextlib.contextmanager
def voila_server(tmp_path_factory, env: dict | None = None, args: list | None = None):
    """A Voila server of the notebooks on a free port, its kernels' environment this process's plus ``env``, with
    Voila's options ``args`` (default `NO_POOL`: a kernel started for each page); yields the app's URL once the
    server answers, and stops the server afterwards."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", *(NO_POOL if args is None else args), NOTEBOOKS_DIR,
        ],
        cwd=REPO_ROOT,
        # the tests' files live under the base temp folder
        env={**os.environ, "JUPYTER_PATH": jupyter_path_env(),
             "ROOK_FILES_ROOT": str(tmp_path_factory.getbasetemp()), **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"Voila exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}"
                )
            try:
                with urllib.request.urlopen(base + "voila/static/voila.js", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"Voila not ready after {READY_TIMEOUT:.0f}s:\n"
                    f"{log_path.read_text(errors='replace')}"
                )
            time.sleep(0.25)
        yield base + APP_PATH
    finally:
        if proc.poll() is None:
            proc.terminate()  # SIGTERM
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory):
    with voila_server(tmp_path_factory) as url:
        yield url


@pytest.fixture(scope="module")
def browser(playwright, shared_playwright):
    """The one Chromium of this process's Playwright (tests/conftest.py's `SharedPlaywright`): launched by the first
    browser test, kept for the browser tests that follow, closed with the Playwright."""
    _require_chromium()
    return shared_playwright.kept("chromium", lambda pw: pw.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS))


@pytest.fixture
def page(browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []  # page errors + console errors
    console_all: list[str] = []  # every console message, unfiltered
    pg.errors = errors  # type: ignore[attr-defined]
    pg.console_all = console_all  # type: ignore[attr-defined]

    def on_console(msg):
        text = f"console.{msg.type}: {msg.text}"
        console_all.append(text)
        if msg.type == "error":
            errors.append(text)

    pg.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    pg.on("console", on_console)
    try:
        yield pg
    finally:
        context.close()
