"""An analysis stops when its page goes (issue 31 item 6): 10 pages that pressed Analyze (20-minute budget) and dropped
their connection were all still computing 5 minutes later, since progress counts as activity and the idle cull
never comes.

The app's real server (`python -m voila` from the checkout, with voila.json: `rookserver.kernels.RookKernelManager`),
``page_gone_seconds`` made 5 s; a Chromium of its own (a process started here, driven over CDP), a page of the app
on ``?record=`` a 13-trick record with Analyze started at the 20-minute budget; the page's kernel is seen computing;
then the whole browser is killed (SIGKILL: no beforeunload, no shutdown request, the sockets closed by the system).
The kernel (found by its id in the page, its process by its connection file) must be gone within the grace period
and a margin, long before the 5-minute idle cull. Once without Voila's kernel pool, once with a pool of one app
kernel (the page takes it).
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
from browser_helpers import WIDGETS_TIMEOUT_MS, wait_until
from conftest import CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, _free_port, _require_chromium, jupyter_path_env

GRACE_S = 5
MARGIN_S = 60
"""Seconds allowed past the grace for the server to notice the closed sockets and shut the kernel down (it takes
about a second on a quiet machine)."""
RECORD = "1-high-partnership-made"  # 13 tricks: its first lead takes minutes to value exactly


@contextlib.contextmanager
def app_server(tmp_path: Path, pool: int):
    """The app's Voila server (voila.json's settings but a pool of ``pool`` app kernels, none for the lessons, and
    pages gone after `GRACE_S`); yields (app URL, server process)."""
    port = _free_port()
    pools = ("--VoilaConfiguration.preheat_kernel=False",) if not pool else (
        "--VoilaConfiguration.preheat_kernel=True",
        f'--VoilaKernelManager.kernel_pools_config={{"default": {{"pool_size": 0}}, '
        f'"app.ipynb": {{"pool_size": {pool}}}}}', "--VoilaKernelManager.fill_delay=1")
    log_path = tmp_path / "voila.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1", *pools,
             f"--RookKernelManager.page_gone_seconds={GRACE_S}", "notebooks"],
            cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "JUPYTER_PATH": jupyter_path_env(), "HOME": str(tmp_path / "home"),
                 "ROOK_FILES_ROOT": str(tmp_path)})
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 120
            while True:
                assert proc.poll() is None, log_path.read_text(errors="replace")
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(base + "/voila/static/voila.js", timeout=2).close()
                    break
                assert time.monotonic() < deadline, "Voila did not answer"
                time.sleep(0.25)
            if pool:
                # Voila gives pages pool kernels once the notebook's first one has started and run its notebook
                wait_until(lambda: log_path.read_text(errors="replace").count("waiting for a page") >= pool,
                           timeout_s=300, what="the pool to fill")
            yield f"{base}/voila/render/app.ipynb", proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
            print(log_path.read_text(errors="replace")[-3000:])


def kernel_processes(server: subprocess.Popen) -> dict[str, psutil.Process]:
    """The server's kernel processes by kernel id (read from the connection file on each one's command line)."""
    found = {}
    for child in psutil.Process(server.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            m = re.search(r"kernel-([0-9a-f-]{36})\.json", " ".join(child.cmdline()))
            if m:
                found[m[1]] = child
    return found


@contextlib.contextmanager
def own_chromium(tmp_path: Path):
    """A headless Chromium process started here (so that it can be killed outright), with its CDP port; yields
    (process, CDP URL)."""
    port = _free_port()
    proc = subprocess.Popen([CHROMIUM, "--headless=new", f"--remote-debugging-port={port}",
                             f"--user-data-dir={tmp_path / 'chromium'}", *CHROMIUM_ARGS, "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until(lambda: _answers(port), timeout_s=60, what="Chromium's CDP port")
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def _answers(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def busy_seconds(process: psutil.Process, over: float = 3.0) -> float:
    """CPU seconds ``process`` used over ``over`` seconds of wall time."""
    before = sum(process.cpu_times()[:2])
    time.sleep(over)
    return sum(process.cpu_times()[:2]) - before


@pytest.mark.parametrize("pool", [0, 1], ids=["no-pool", "pool"])
def test_an_analysis_stops_when_its_page_goes(tmp_path, pool, playwright):
    _require_chromium()
    pw = playwright  # the session's one Playwright (tests/conftest.py): a second sync_playwright() fails in the suite

    with app_server(tmp_path, pool) as (url, server), own_chromium(tmp_path) as (chromium, cdp):
        waiting = set(kernel_processes(server))
        browser = pw.chromium.connect_over_cdp(cdp)
        page = browser.contexts[0].new_page()
        page.set_viewport_size({"width": 1366, "height": 1400})
        page.goto(f"{url}?record={RECORD}", wait_until="domcontentloaded")
        kernel = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
                               ".kernelId")
        assert (kernel in waiting) == bool(pool), "a page with a pool takes a waiting kernel, without starts its own"
        page.wait_for_selector(".rook-analysis-budget select", state="visible", timeout=WIDGETS_TIMEOUT_MS)
        page.locator(".rook-analysis-budget select").select_option(label="20 min")
        page.locator("button.rook-analyze").first.click()
        wait_until(lambda: "cards done" in page.locator(".rook-analysis-status").inner_text(), timeout_s=120,
                   what="the analysis to start")
        process = kernel_processes(server)[kernel]
        busy = busy_seconds(process)  # the machine may be loaded (the tests run under nice): a share of a core
        status = page.locator(".rook-analysis-status").inner_text()
        print(f"{status} ({busy:.2f} CPU s in 3 s, RSS {process.memory_info().rss / 2 ** 20:.0f} MB)")
        assert busy > 0.1 and "Analyzing" in status, "the page's kernel is not computing"
        others = set(kernel_processes(server)) - {kernel}

        os.killpg(chromium.pid, signal.SIGKILL)  # no beforeunload, no shutdown request: the sockets just close
        chromium.wait(timeout=10)
        killed = time.monotonic()
        wait_until(lambda: not process.is_running() or process.status() == psutil.STATUS_ZOMBIE,
                   timeout_s=GRACE_S + MARGIN_S, what="the kernel of the page that went to be shut down")
        took = time.monotonic() - killed
        print(f"kernel gone {took:.1f} s after the browser was killed (grace {GRACE_S} s)")
        assert took >= GRACE_S - 1, f"shut down after {took:.1f} s, before the grace of {GRACE_S} s"
        # the pool's waiting kernels (never a page) are all still there
        assert others <= set(kernel_processes(server)), "a kernel that never had a page was shut down"
