"""A school on JupyterHub (issue 31 item 4): a REAL JupyterHub on this machine, three users in headless Chromium.

The hub is JupyterHub itself (``python -m jupyterhub``, pinned in pyproject's ``test`` extra) with its real proxy
(npm ``configurable-http-proxy``, which the README's test command and .ci/run install), configured by the example an
administrator is given, ``deploy/jupyterhub_config.py`` (the app as the default URL, the notebooks as the server's
root folder, deploy/jupyter/jupyter_server_config.json for the app's template and kernel culling, the idle culler as
a hub service), with only what a test must choose added here: a shared-password authenticator (JupyterHub's
replacement of the dummy authenticator's password, deprecated since JupyterHub 5.3), the
``SimpleLocalProcessSpawner`` (each user's server a local process with HOME ``<tmp>/home/<user>``), free ports,
files under the test's temporary folder, and ``--allow-root`` when the tests run as root (CI does; the image's
user is not root). Everything the hub started is stopped afterwards (the hub stops its users' servers and its
proxy; any process left of those is killed by its id).

Three users sign in at once (a browser context each) and each must: land on the app at once (no "Opening your
game…" wait: under JupyterHub the learner is the signed-in user, `rookcore.learners.hub_user`), drawn with the
app's template (no request to any other host) and no console error, make a bid by clicking, find the same game after
a reload ("Welcome back", the same auction and hand), have that game in their own home folder (and nobody else's
there), have a lesson page's visit kept in their own progress there, and be refused another user's server; a wrong
password signs nobody in. One hub serves the module. About 1.5-2.5 minutes on the 2-core machine shared with other
work (85-150 s for the module at load averages 12-20: the hub ~10 s to start, 23-35 s from Sign in to the app's
table with the three servers starting at once).
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from rookcore import learners

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
from browser_helpers import (_click_and_wait, _learner_situation, _lowest_bid, _settle, assert_no_app_error,  # noqa: E402
                             assert_no_traceback, set_speed, status_text, wait_until)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

_spec = importlib.util.spec_from_file_location("rook_browser_conftest", REPO_ROOT / "tests" / "browser" / "conftest.py")
_browser_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_browser_conftest)
CHROMIUM, CHROMIUM_ARGS = _browser_conftest.CHROMIUM, _browser_conftest.CHROMIUM_ARGS

USERS = ("ada", "ben", "cleo")
LESSON = "01-deck-and-counters"
PASSWORD = "rook-hub-" + secrets.token_hex(8)
HUB_READY_S = 120.0
START_ATTEMPTS = 3
SPAWN_TIMEOUT_S = 300  # a user's server: a Jupyter server and Voila on a loaded 2-core machine
PAGE_TIMEOUT_MS = 300_000
CULLING = "Culling kernels with idle durations > 300 seconds at 60 second intervals"
"""What jupyter_server logs when a kernel starts under deploy/jupyter's culling settings (voila.json's)."""
PROXY = "configurable-http-proxy"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _require(path_or_name: str, how: str) -> None:
    """Skip (fail under CI=true) when the program ``path_or_name`` is missing."""
    if os.path.exists(path_or_name) or shutil.which(path_or_name):
        return
    msg = f"{path_or_name} not found ({how})"
    if _in_ci():
        pytest.fail(msg)
    pytest.skip(msg)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


HUB_CONFIG = """\
# The test's hub: the administrator's example, then only what a test must choose (tests/test_jupyterhub.py).
c = get_config()  # noqa: F821
load_subconfig({example!r})
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.JupyterHub.db_url = "sqlite:///{tmp}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {cookie!r}
c.ConfigurableHTTPProxy.pid_file = {proxy_pid!r}
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = {password!r}
c.Authenticator.allowed_users = set({users!r})
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.Spawner.http_timeout = {spawn}
c.Spawner.start_timeout = {spawn}
c.Spawner.args = {args!r}
# the template from this checkout (as the browser tests)
c.Spawner.environment.update({{"JUPYTER_PATH": {jupyter_path!r}}})
"""


class Hub:
    """A running JupyterHub: ``url`` (its public URL, ending in /), ``homes`` (the users' homes' folder),
    ``log`` (the hub's log file: the hub's, the proxy's and the users' servers' output)."""

    def __init__(self, url: str, homes: Path, log: Path) -> None:
        self.url, self.homes, self.log = url, homes, log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def _wait_ready(proc: subprocess.Popen, url: str, log: Path, remember) -> None:
    """Wait until the hub answers at ``url`` (RuntimeError with its log if it exits or takes longer than
    `HUB_READY_S`), calling ``remember()`` at every look so that its proxy is known from the start."""
    deadline = time.monotonic() + HUB_READY_S
    while True:
        remember()
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with {proc.returncode}:\n{log.read_text(errors='replace')[-6000:]}")
        try:
            with urllib.request.urlopen(url + "hub/api/", timeout=5) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"JupyterHub not ready after {HUB_READY_S:.0f}s:\n{log.read_text(errors='replace')[-6000:]}")
        time.sleep(0.5)


def _stop(proc: subprocess.Popen, started: dict[int, psutil.Process]) -> None:
    """Stop the hub (SIGTERM: it stops its users' servers and its proxy), then kill, by id, any process it started
    that is still running (``started``: every descendant seen while it ran)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    for child in started.values():
        with contextlib.suppress(psutil.Error):
            if child.is_running():  # psutil checks the start time too: never another process that got the id
                child.kill()
                child.wait(timeout=10)


def _launch(tmp: Path, homes: Path, attempt: int) -> tuple[subprocess.Popen, str, Path]:
    """Start JupyterHub with the test's configuration on free ports (its own config and log file for ``attempt``).
    Returns (the hub's process, its public URL ending in /, its log file)."""
    port = _free_port()
    config = tmp / f"jupyterhub_config_{attempt}.py"
    config.write_text(HUB_CONFIG.format(
        example=str(REPO_ROOT / "deploy" / "jupyterhub_config.py"), port=port, hub_port=_free_port(),
        api_port=_free_port(), tmp=tmp, cookie=str(tmp / "cookie_secret"), proxy_pid=str(tmp / "proxy.pid"),
        password=PASSWORD, users=list(USERS), homes=str(homes), spawn=SPAWN_TIMEOUT_S,
        args=["--allow-root"] if os.geteuid() == 0 else [], jupyter_path=_browser_conftest.jupyter_path_env()))
    log = tmp / f"hub-{attempt}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "ROOK_"))}
    env["ROOK_INSTALL_DIR"] = str(REPO_ROOT)  # the example's $ROOK_INSTALL_DIR: where the project is (a checkout)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=tmp, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    return proc, f"http://127.0.0.1:{port}/", log


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """One JupyterHub for the module (`Hub`). A free port can be taken by another process (a kernel's, on a busy
    machine) in the ~10 s before the hub binds it: then the hub is started again on other ports, at most
    `START_ATTEMPTS` times."""
    _require(PROXY, f"npm install -g {PROXY}")
    tmp = tmp_path_factory.mktemp("hub")
    homes = tmp / "home"
    homes.mkdir()
    started: dict[int, psutil.Process] = {}
    for attempt in range(1, START_ATTEMPTS + 1):
        proc, url, log = _launch(tmp, homes, attempt)

        def remember(proc=proc) -> None:
            with contextlib.suppress(psutil.Error):
                for child in psutil.Process(proc.pid).children(recursive=True):
                    started.setdefault(child.pid, child)

        try:
            _wait_ready(proc, url, log, remember)
            break
        except RuntimeError:
            _stop(proc, started)
            if attempt == START_ATTEMPTS or "Address already in use" not in log.read_text(errors="replace"):
                raise
    try:
        running = Hub(url, homes, log)
        running.remember = remember
        yield running
    finally:
        remember()
        _stop(proc, started)


@pytest.fixture(scope="module")
def browser(playwright):
    _require(CHROMIUM, "apt-get install -y chromium")
    # the session's one Playwright (tests/conftest.py): a second sync_playwright() fails after the browser tests
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        yield b
    finally:
        b.close()


def _watch(page, hub_url: str) -> None:
    """Collect on ``page``: ``errors`` (page errors, console errors) and ``elsewhere`` (requests to another host)."""
    page.errors, page.elsewhere = [], []
    page.on("pageerror", lambda exc: page.errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: page.errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.on("request", lambda r: page.elsewhere.append(r.url)
            if not r.url.startswith((hub_url, "blob:", "data:")) else None)


@pytest.fixture(scope="module")
def signed_in(hub, browser):
    """The three users signed in at once, each in a browser context of their own, on the page the hub opened for
    them. Returns {user: page}; records the seconds from the click on Sign in to the app's table, per user, in
    ``opened``."""
    pages, clicked = {}, {}
    for user in USERS:
        context = browser.new_context(viewport={"width": 1280, "height": 1400})
        page = context.new_page()
        page.set_default_timeout(60_000)
        _watch(page, hub.url)
        page.goto(hub.url + "hub/login", wait_until="domcontentloaded")
        page.fill("#username_input", user)
        page.fill("#password_input", PASSWORD)
        clicked[user] = time.monotonic()
        page.click("#login_submit", no_wait_after=True)
        pages[user] = page
    opened = {}
    for user, page in pages.items():  # the three servers start meanwhile
        page.wait_for_selector(".rook-play button.rook-tv-card", state="visible", timeout=PAGE_TIMEOUT_MS)
        opened[user] = time.monotonic() - clicked[user]
    hub.remember()
    print("seconds from Sign in to the app's table:", {u: round(s, 1) for u, s in opened.items()})
    yield pages
    for page in pages.values():
        page.context.close()


def _table_text(page) -> dict[str, str]:
    shown = {sel: page.locator(sel).inner_text() for sel in (".rook-auction-history", ".rook-header")}
    shown["hand"] = " ".join(page.locator(".rook-play button.rook-tv-card").evaluate_all(
        "bs => bs.map(b => b.dataset.code)"))
    return shown


def _learner_folder(hub: Hub, user: str) -> Path:
    return hub.homes / user / ".crowsnest-rook" / "learners" / learners.hub_learner(user)


def test_each_user_lands_on_the_app_at_once_with_its_template(hub, signed_in):
    for user, page in signed_in.items():
        assert re.fullmatch(rf"{re.escape(hub.url)}user/{user}/voila/render/app\.ipynb", page.url), page.url
        assert page.locator(".rook-app-opening:visible").count() == 0  # no wait for a browser's learner id
        assert_no_app_error(page)
        # the app's template "rook" (deploy/jupyter): Voila's "lab" template would ask a CDN for Font Awesome
        assert page.elsewhere == [], page.elsewhere
        assert page.errors == [], page.errors
    log = hub.log_text()
    assert log.count(CULLING) >= len(USERS), "kernel culling is not set in the users' servers"
    # the app's kernel manager (caps, a kernel shut down when its page has gone: rookserver.kernels) in each server
    assert log.count("Kernel caps: ") >= len(USERS), "rookserver.kernels.RookKernelManager is not the servers' one"
    assert "200 GET /hub/api/users" in log and "(jupyterhub-idle-culler@" in log, "the idle culler did not run"


def test_each_user_plays_and_finds_their_own_game_after_a_reload(hub, signed_in):
    before, bids, dealt = {}, {}, {}
    for user, page in signed_in.items():
        assert set_speed(page, 0)
        wait_until(lambda: _learner_situation(page) == "auction", timeout_s=120, what=f"{user}'s first call")
        dealt[user] = sorted(page.locator(".rook-play button.rook-tv-card").evaluate_all(
            "bs => bs.map(b => b.dataset.code.toUpperCase())"))
        bid = _lowest_bid(page)
        assert bid is not None, f"{user} has no bid to make"
        bids[user] = int(bid.inner_text().split()[1])
        _click_and_wait(page, bid, f"{user}'s bid")
        before[user] = _table_text(page)
        assert f"S {bids[user]}" in before[user][".rook-auction-history"], before[user]
    for page in signed_in.values():  # the three reload at once
        page.reload(wait_until="domcontentloaded")
    for user, page in signed_in.items():
        page.wait_for_selector(".rook-play button.rook-tv-card", state="visible", timeout=PAGE_TIMEOUT_MS)
        wait_until(lambda: "Welcome back" in status_text(page), timeout_s=120, what=f"{user}'s welcome back")
        _settle(page)
        assert status_text(page).startswith("Welcome back: your game goes on (hand 1"), status_text(page)
        assert _table_text(page) == before[user]
        assert_no_app_error(page)
    for user in USERS:  # each game in its user's own home, and nothing of anyone else's there
        folder = _learner_folder(hub, user)
        kept = json.loads((folder / "game.json").read_text())
        hand = kept["game"]["hands"][-1]
        assert sorted(hand["hands"]["S"]) == dealt[user], f"{user}'s kept hand is not the one on their page"
        assert hand["auction"].count(bids[user]) == 1, f"{user}'s bid of {bids[user]} is not in their kept game"
        assert [p.name for p in (folder.parent).iterdir()] == [folder.name]
        assert folder.parent.parent.parent == hub.homes / user  # HOME was the user's own, under the test's folder
    assert len({learners.hub_learner(u) for u in USERS}) == len(USERS)


def test_a_lesson_page_keeps_the_user_s_progress_in_their_home(hub, signed_in):
    user = USERS[-1]
    page = signed_in[user]
    page.goto(f"{hub.url}user/{user}/voila/render/tutorial/{LESSON}.ipynb", wait_until="domcontentloaded")
    page.wait_for_selector(".rook-lesson-head", state="visible", timeout=PAGE_TIMEOUT_MS)
    progress = _learner_folder(hub, user) / "progress.json"

    def visited() -> list:
        try:
            return json.loads(progress.read_text())["visited"]
        except (OSError, ValueError, KeyError):
            return []

    wait_until(lambda: LESSON in visited(), timeout_s=60, what=f"{user}'s visit of {LESSON} in their home")
    for other in USERS[:-1]:
        assert LESSON not in json.loads((_learner_folder(hub, other) / "progress.json").read_text())["visited"]
    assert page.locator(".rook-learner-id").count() == 0  # no browser id asked
    assert_no_traceback(page)


def test_a_user_cannot_open_another_user_s_server(hub, signed_in):
    page = signed_in[USERS[0]]
    for other in USERS[1:]:
        response = page.goto(f"{hub.url}user/{other}/voila/render/app.ipynb", wait_until="domcontentloaded")
        assert not page.url.startswith(f"{hub.url}user/{other}/"), page.url
        assert response.status in (403, 404), (response.status, page.url)
        assert page.locator(".rook-play").count() == 0
    # and their own app still opens
    page.goto(f"{hub.url}user/{USERS[0]}/voila/render/app.ipynb", wait_until="domcontentloaded")
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible", timeout=PAGE_TIMEOUT_MS)
    try:
        wait_until(lambda: "Welcome back" in status_text(page), timeout_s=120, what="the welcome back")
    except AssertionError as e:
        raise AssertionError(f"{e}; the status line: {status_text(page)!r}; page errors: {page.errors}") from None


def test_a_wrong_password_signs_nobody_in(hub, browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(hub.url + "hub/login", wait_until="domcontentloaded")
        page.fill("#username_input", USERS[1])
        page.fill("#password_input", PASSWORD + "x")
        with page.expect_response(lambda r: "/hub/login" in r.url and r.request.method == "POST") as answer:
            page.click("#login_submit")
        assert answer.value.status == 403
        page.goto(f"{hub.url}user/{USERS[1]}/voila/render/app.ipynb", wait_until="domcontentloaded")
        assert "/hub/login" in page.url and page.locator(".rook-play").count() == 0
    finally:
        context.close()
