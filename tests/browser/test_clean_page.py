"""Browser test: a clean page (issue 24, item 8). The app, the statistics notebook and two lessons, opened, drawn
and clicked as a learner would, log no console error and no page error, and ask no host but the app's own server for
anything.

Before the app's Voila template (``share/jupyter/voila/templates/rook``, chosen in voila.json), every page asked
cdn.jsdelivr.net for Font Awesome (two failed requests and two console errors offline), and leaving a page sent
Voila's kernel-shutdown request without the ``_xsrf`` cookie it needs, refused with a 403 (a console error, and
the kernel lived on until culled; voila-dashboards/voila#1458). Nothing here is filtered out: every console
error, page error, failed response and request counts.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from browser_helpers import WIDGETS_TIMEOUT_MS, assert_no_traceback, open_app, open_tab
from conftest import READY_TIMEOUT, REPO_ROOT, _free_port, jupyter_path_env

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

STATISTICS = "analysis.ipynb"  # the statistics notebook, linked from the Learn tab
LESSON = "tutorial/01-deck-and-counters.ipynb"
NEXT_LESSON = "tutorial/02-deal-and-auction.ipynb"
QUIET_S = 1.5  # after the last click: late console errors (a failed fetch, a widget's error) have time to show
SHUTDOWN_PATH = "/voila/api/shutdown/"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _elsewhere(url: str, origin: str) -> bool:
    """True if ``url`` goes to another host than ``origin`` (data: URLs go nowhere; a blob: URL names the origin
    that made it; a websocket must reach the app's own host and port)."""
    scheme = urlsplit(url).scheme
    if scheme in ("data", "about"):
        return False
    if scheme == "blob":
        return _elsewhere(url[len("blob:"):], origin)
    if scheme in ("ws", "wss"):
        url = ("http" if scheme == "ws" else "https") + url[len(scheme):]
    return _origin(url) != origin


class Watch:
    """Every request of the browser context (websockets too) and every failed request or response; the console
    errors and page errors are the ``page`` fixture's ``page.errors``."""

    def __init__(self, page, origin: str) -> None:
        self.origin = origin
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.shutdown_requests: list[str] = []
        page.context.on("request", self._on_request)
        page.context.on("requestfailed", self._on_failed)
        page.context.on("response", lambda r: self.failed.append(f"HTTP {r.status} {r.request.method} {r.url}")
                        if r.status >= 400 else None)
        page.on("websocket", lambda ws: self.requests.append(ws.url))

    def _on_request(self, request) -> None:
        self.requests.append(request.url)
        if SHUTDOWN_PATH in request.url:
            self.shutdown_requests.append(request.url)

    def _on_failed(self, request) -> None:
        # The kernel-shutdown beacon of a page being left can be reported as aborted (net::ERR_ABORTED: the page
        # that sent it is gone before the answer) though the server got it; the test checks that it did
        # (`kernel_status`), so only that report of it is not counted here.
        if SHUTDOWN_PATH in request.url and request.failure == "net::ERR_ABORTED":
            return
        self.failed.append(f"request failed: {request.url} ({request.failure})")

    def check(self, page, where: str) -> None:
        """No console error or page error (``page.errors``, unfiltered), no failed request or response and no
        request to another host so far."""
        time.sleep(QUIET_S)
        problems = list(page.errors) + self.failed
        problems += [f"request to another host: {u}" for u in self.requests if _elsewhere(u, self.origin)]
        assert not problems, f"{where}: " + "\n".join(problems) + "\n-- console:\n" + "\n".join(page.console_all)


def _check_icons_are_drawn(page) -> None:
    """The Replay tab's step buttons carry Font Awesome icons (ipywidgets ``Button(icon=...)``): drawn with the
    Font Awesome 5 font that Voila's own bundle brings (no CDN stylesheet any more)."""
    icon = page.locator(".rook-app-tabs button i.fa-step-forward:visible").first
    icon.wait_for(state="visible", timeout=30_000)
    drawn = icon.evaluate(
        """async (el) => {
            await document.fonts.ready;
            const before = getComputedStyle(el, '::before');
            return {content: before.content, family: before.fontFamily,
                    loaded: document.fonts.check('900 16px "Font Awesome 5 Free"'),
                    width: el.getBoundingClientRect().width};
        }""")
    assert drawn["content"] not in ("", "none", "normal"), drawn  # the glyph's code point
    assert "Font Awesome 5 Free" in drawn["family"], drawn
    assert drawn["loaded"] and drawn["width"] > 0, drawn


def _wait_for_lesson(page) -> None:
    page.wait_for_selector(".rook-lesson-header", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    # the navigation links come from the lesson's last cell: every widget above them is drawn too
    page.wait_for_selector(".rook-lesson-nav", state="visible", timeout=WIDGETS_TIMEOUT_MS)


def kernel_id(page) -> str:
    """The kernel of the page on show (Voila's page config)."""
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def kernel_status(page, kernel: str) -> int:
    """Send, from the open page, the request that Voila's widget manager sends on leaving a page (POST
    voila/api/shutdown/<kernel>, the ``_xsrf`` cookie's value as a form field); its HTTP status: 204 (shut down
    now), 404 (no such kernel: already shut down) or 403 (refused)."""
    return page.evaluate(
        """async (kernel) => {
            const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
            const m = document.cookie.match('\\\\b_xsrf=([^;]*)\\\\b');
            const body = new FormData();
            body.append('_xsrf', (m && m[1]) || '');
            const r = await fetch(`${config.baseUrl}voila/api/shutdown/${kernel}`,
                                  {method: 'POST', body, credentials: 'same-origin'});
            return r.status;
        }""", kernel)


def _app(page, watch: Watch, url: str, artifacts_dir, shot: str) -> str:
    """Open the app at ``url``, wait for its widgets, click Replay (Font Awesome icons), Rules and Play; check
    after each step. Returns the page's kernel."""
    open_app(page, url)
    assert_no_traceback(page)
    kernel = kernel_id(page)
    watch.check(page, "the app page, drawn")
    open_tab(page, "Replay")
    _check_icons_are_drawn(page)
    open_tab(page, "Rules")
    page.locator(".rook-rules-view").first.wait_for(state="visible")
    open_tab(page, "Play")
    page.locator(".rook-play").first.wait_for(state="visible")
    watch.check(page, "the app page, after clicking Replay, Rules and Play")
    page.screenshot(path=str(artifacts_dir / shot), full_page=True)
    return kernel


def _lessons(page, watch: Watch, url: str, artifacts_dir, shot: str) -> str:
    """Open the first lesson at ``url`` in the same tab (the page before it is left), then follow its link to the
    next lesson as a learner does; check both. Returns the first lesson's kernel."""
    page.goto(url, wait_until="domcontentloaded")
    _wait_for_lesson(page)
    assert_no_traceback(page)
    kernel = kernel_id(page)
    watch.check(page, "the first lesson, drawn (after leaving the page before)")
    page.locator(".rook-lesson-nav a", has_text="The deal and the auction").first.click()
    page.wait_for_url("**/" + NEXT_LESSON + "*", timeout=60_000)
    _wait_for_lesson(page)
    watch.check(page, "the next lesson, drawn (after leaving the first one by its link)")
    page.screenshot(path=str(artifacts_dir / shot), full_page=True)
    return kernel


def _kernels_shut_down(page, watch: Watch, left: dict[str, str]) -> None:
    """Last, as it ends kernels and logs 404s: each page left (``left``: name -> kernel) sent its shutdown request
    and the server took it (the kernel is gone: 404); the open page's own request is accepted (204)."""
    for name, kernel in left.items():
        assert any(kernel in u for u in watch.shutdown_requests), (name, kernel, watch.shutdown_requests)
        assert kernel_status(page, kernel) == 404, f"the kernel of {name} outlived its page"
    assert kernel_status(page, kernel_id(page)) == 204, "the page's kernel-shutdown request was refused"


def test_app_and_lesson_pages_are_clean(voila_url, page, artifacts_dir):
    """The app as the README's command serves it (Voila's own server)."""
    base = voila_url.rsplit("/", 1)[0] + "/"  # .../voila/render/
    watch = Watch(page, _origin(voila_url))
    left = {"the app": _app(page, watch, voila_url, artifacts_dir, "clean-page-app.png")}

    # The statistics notebook, opened in the same tab: leaving the app sends Voila's kernel-shutdown request (a
    # 403 and a console error before). Its one cell is the statistics panel.
    page.goto(base + STATISTICS, wait_until="domcontentloaded")
    page.wait_for_selector(".rook-stats", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    page.locator(".rook-stats-variant select").wait_for(state="visible", timeout=WIDGETS_TIMEOUT_MS)  # all drawn
    assert_no_traceback(page)
    left["the statistics page"] = kernel_id(page)
    watch.check(page, "the statistics page, drawn (after leaving the app)")

    left["the first lesson"] = _lessons(page, watch, base + LESSON, artifacts_dir, "clean-page-lesson.png")
    _kernels_shut_down(page, watch, left)


@pytest.fixture(scope="module")
def jupyter_server_base(tmp_path_factory):
    """A Jupyter server in the repository root, as Binder runs one (Voila as its server extension, voila.json read
    from the working directory, a token); yields (base URL, token) and stops it."""
    port, token = _free_port(), secrets.token_hex(16)
    log_path = tmp_path_factory.mktemp("jupyter-server") / "server.log"
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={REPO_ROOT}", *root],
            cwd=REPO_ROOT, env={**os.environ, "JUPYTER_PATH": jupyter_path_env(), "ROOK_GAME_FILE": "",
                                "ROOK_PROGRESS_FILE": ""},
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}/"
        try:
            deadline = time.monotonic() + READY_TIMEOUT
            while True:
                assert proc.poll() is None, log_path.read_text(errors="replace")
                try:
                    with urllib.request.urlopen(f"{base}api/status?token={token}", timeout=2) as r:
                        if r.status == 200:
                            break
                except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                    pass
                assert time.monotonic() < deadline, log_path.read_text(errors="replace")
                time.sleep(0.25)
            yield base, token
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def test_pages_are_clean_under_a_jupyter_server_as_on_binder(jupyter_server_base, page, artifacts_dir):
    """The README's Binder badge opens voila/render/notebooks/app.ipynb on a Jupyter server: there Voila's page
    config also asked cdnjs.cloudflare.com for MathJax 2 (the template leaves Voila's bundled MathJax instead)."""
    base, token = jupyter_server_base
    watch = Watch(page, _origin(base))
    left = {"the app": _app(page, watch, f"{base}voila/render/notebooks/app.ipynb?token={token}", artifacts_dir,
                            "clean-page-binder-app.png")}
    left["the first lesson"] = _lessons(page, watch, f"{base}voila/render/notebooks/{LESSON}", artifacts_dir,
                                        "clean-page-binder-lesson.png")
    _kernels_shut_down(page, watch, left)
