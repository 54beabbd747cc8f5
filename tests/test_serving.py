"""The server's caps on kernels and the shut-down of a kernel whose page has gone (issue 31 item 6; rookserver).

The count itself (`rookserver.caps.KernelBook`) and the page shown at a cap are tested directly; the rest against a
real Voila server (`python -m voila` with ``rookserver.kernels.RookKernelManager`` chosen on its command line, as
voila.json chooses it) serving a one-cell notebook made here, so that a page costs a kernel start and little else:

- pages over the per-browser, per-address and total caps get the cap's page (429 / 503, Retry-After, the learner's
  ``?lang=``), the pages before them Voila's own; pages asking at the same moment cannot pass a cap together;
- with Voila's kernel pool (``--preheat_kernel=True``): the kernels waiting in the pool count for no one, a page that
  takes one does, and the pool's kernels, which never had a page, are not shut down by ``page_gone_seconds``;
- a kernel whose page's websocket closed is shut down after ``page_gone_seconds`` (a short one here), one whose
  websocket stays open is not.

The browser test of the same rule with the app's Analyze running is tests/browser/test_page_gone.py.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import psutil
import pytest

from rookcore import i18n
from rookserver.caps import (CLIENT_COOKIE, CapReached, Client, KernelBook, Limits, memory_limit_bytes,
                             pages_for_memory, request_address)
from rookserver.full_page import full_page, request_language

MANAGER = "rookserver.kernels.RookKernelManager"
BROWSER_A, BROWSER_B = "a" * 32, "b" * 32


# ----------------------------------------------------------------------------------------------- the count
def always(_kernel_id: str) -> bool:
    return True


def test_each_cap_refuses_the_kernel_past_it():
    book = KernelBook()
    limits = Limits(total=5, per_browser=2, per_address=3)
    a1, a2 = Client(BROWSER_A, "10.0.0.1"), Client(BROWSER_B, "10.0.0.1")
    for n in range(2):
        book.own(book.admit(a1, limits, always), f"k{n}")
    with pytest.raises(CapReached) as full:
        book.admit(a1, limits, always)
    assert (full.value.kind, full.value.limit) == ("browser", 2)
    book.own(book.admit(a2, limits, always), "k2")  # another browser, same address: 3 at that address
    with pytest.raises(CapReached) as full:
        book.admit(Client("c" * 32, "10.0.0.1"), limits, always)
    assert (full.value.kind, full.value.limit) == ("address", 3)
    book.own(book.admit(Client("c" * 32, "10.0.0.2"), limits, always), "k3")
    book.admit(Client("d" * 32, "10.0.0.3"), limits, always)  # starting: counts already
    with pytest.raises(CapReached) as full:
        book.admit(Client("e" * 32, "10.0.0.4"), limits, always)
    assert (full.value.kind, full.value.limit) == ("total", 5)


def test_a_place_comes_back_when_its_kernel_stops_or_never_starts():
    book = KernelBook()
    limits = Limits(total=0, per_browser=1, per_address=0)
    client = Client(BROWSER_A, "10.0.0.1")
    ticket = book.admit(client, limits, always)
    with pytest.raises(CapReached):
        book.admit(client, limits, always)  # the first is still starting
    book.release(ticket)  # it did not start
    book.own(book.admit(client, limits, always), "k1")
    with pytest.raises(CapReached):
        book.admit(client, limits, always)
    book.forget("k1")  # shut down
    book.own(book.admit(client, limits, always), "k2")
    book.admit(client, limits, lambda kernel_id: kernel_id != "k2")  # k2 died: not counted any more
    assert book.owner("k2") is None


def test_no_cap_of_0_and_no_browser_cap_without_a_browser():
    book = KernelBook()
    for n in range(50):
        book.own(book.admit(Client(None, "10.0.0.1"), Limits(total=0, per_browser=1, per_address=0), always),
                 f"k{n}")
    assert book.counts(Client(None, "10.0.0.1"), always) == {"browser": 0, "address": 50, "total": 50}


def test_the_total_comes_from_memory(tmp_path):
    limit = tmp_path / "memory.max"
    limit.write_text("2147483648\n")  # a 2 GB container
    assert memory_limit_bytes((str(limit),)) == 2 ** 31
    limit.write_text("max\n")
    assert memory_limit_bytes((str(limit),)) == os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert pages_for_memory(2 ** 31, kernel_mb=100, reserve_mb=1024) == 10
    assert pages_for_memory(2 ** 31, kernel_mb=100, reserve_mb=1024, pool_kernels=4) == 6
    assert pages_for_memory(2 ** 30, kernel_mb=100, reserve_mb=1024) == 1
    with pytest.raises(ValueError):
        pages_for_memory(2 ** 31, kernel_mb=0, reserve_mb=0)


def test_the_address_header_is_read_only_when_asked():
    class Request:
        remote_ip = "10.0.0.9"
        headers = {"X-Forwarded-For": "1.2.3.4, 172.16.0.5"}

    assert request_address(Request()) == "10.0.0.9"
    assert request_address(Request(), "X-Forwarded-For") == "172.16.0.5"  # what the trusted proxy saw
    assert request_address(Request(), "X-Real-IP") == "10.0.0.9"


# ----------------------------------------------------------------------------------------------- the page
@pytest.mark.parametrize("kind", ["browser", "address", "total"])
@pytest.mark.parametrize("lang", ["en", *i18n.LANGUAGES])
def test_the_cap_page_says_it_in_the_learner_s_language(kind, lang):
    page = full_page(CapReached(kind, 7), lang, '/voila/render/app.ipynb?lang=x"><script>')
    assert f'lang="{lang}"' in page and f'dir="{"rtl" if lang in i18n.RTL else "ltr"}"' in page
    assert "<script>" not in page and "&quot;&gt;&lt;script&gt;" in page
    text = re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1])
    assert "7" in text or "\u06f7" in text
    english = re.sub(r"<[^>]+>", " ", full_page(CapReached(kind, 7), None, "/x").split("<body", 1)[1])
    if lang != "en":
        for line in ("Too many pages open", "The server is full", "Try again", "of the app"):
            assert line not in text, (lang, line)
        assert text != english


# ----------------------------------------------------------------------------------------------- a real server
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def voila(tmp_path: Path, *options: str):
    """A Voila server of a one-cell notebook with `MANAGER` and ``options``; yields (page URL, server process)."""
    folder = tmp_path / "served"
    folder.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("print('a page')")]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, folder / "page.ipynb")
    port = _free_port()
    log = (tmp_path / "voila.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
                             f"--VoilaConfiguration.multi_kernel_manager_class={MANAGER}", *options, "."],
                            cwd=folder, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "voila.log").read_text()
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base + "/voila/static/voila.js", timeout=2).close()
                break
            assert time.monotonic() < deadline, "Voila did not answer within 60 s"
            time.sleep(0.25)
        yield f"{base}/voila/render/page.ipynb", proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def get(url: str, browser: str | None = None) -> tuple[int, str, dict]:
    """GET ``url`` (with the browser cookie ``browser``): (status, body, headers; Set-Cookie: every one, joined)."""
    request = urllib.request.Request(url, headers={"Cookie": f"{CLIENT_COOKIE}={browser}"} if browser else {})
    try:
        r = urllib.request.urlopen(request, timeout=120)
    except urllib.error.HTTPError as e:
        r = e
    with r:
        headers = {**dict(r.headers), "Set-Cookie": "; ".join(r.headers.get_all("Set-Cookie") or [])}
        return r.status if hasattr(r, "status") else r.code, r.read().decode(), headers


def kernel_id(page: str) -> str:
    return re.search(r'"kernelId": "([^"]+)"', page)[1]


def kernels(proc: subprocess.Popen) -> int:
    """The kernel processes the server runs now."""
    return sum(1 for p in psutil.Process(proc.pid).children(recursive=True)
               if "ipykernel" in " ".join(p.cmdline()))


def test_a_real_server_holds_each_client_to_its_caps(tmp_path):
    with voila(tmp_path, "--RookKernelManager.max_kernels_per_browser=2", "--RookKernelManager.max_kernels_per_ip=3",
               "--RookKernelManager.max_kernels=4") as (url, proc):
        status, page, headers = get(url)
        assert status == 200 and "a page" in page
        minted = re.search(rf"{CLIENT_COOKIE}=([0-9a-f]{{32}})", headers.get("Set-Cookie", ""))
        assert minted, headers  # a browser without the cookie gets one
        assert get(url, minted[1])[0] == 200
        status, page, headers = get(url + "?lang=de", minted[1])
        assert status == 429 and headers["Retry-After"].isdigit()
        assert 'data-cap="browser"' in page and 'lang="de"' in page and "Browser" in page, page
        assert get(url, BROWSER_B)[0] == 200  # another browser, the same address: its third page
        status, page, _ = get(url, "c" * 32)
        assert status == 429 and 'data-cap="address"' in page
        assert kernels(proc) == 3
    with voila(tmp_path / "total", "--RookKernelManager.max_kernels=2") as (url, proc):
        assert [get(url)[0] for _ in range(3)] == [200, 200, 503]


def test_pages_asking_at_once_cannot_pass_a_cap_together(tmp_path):
    with voila(tmp_path, "--RookKernelManager.max_kernels_per_browser=2") as (url, proc):
        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            statuses = sorted(f.result()[0] for f in [pool.submit(get, url, BROWSER_A) for _ in range(6)])
        assert statuses == [200, 200, 429, 429, 429, 429]
        assert kernels(proc) == 2


async def _connect(url: str, kernel: str):
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    ws_url = url.replace("http://", "ws://").split("/voila/", 1)[0] + f"/api/kernels/{kernel}/channels?session_id=t"
    return await websocket_connect(HTTPRequest(ws_url))


def alive(url: str, kernel: str) -> bool:
    base = url.split("/voila/", 1)[0]
    return get(f"{base}/api/kernels/{kernel}")[0] == 200


def test_with_the_pool_a_page_s_kernel_counts_and_goes_with_its_page(tmp_path):
    """Pool of 2, one page a browser, pages gone after 3 s: the pool's kernels (waiting) count for no one and stay;
    a page's kernel counts from the moment it is taken and is shut down 3 s after its websocket closed, while
    another page's, whose websocket stays open, is kept."""
    with voila(tmp_path, "--preheat_kernel=True", "--pool_size=2", "--RookKernelManager.max_kernels_per_browser=1",
               "--RookKernelManager.page_gone_seconds=3") as (url, proc):
        deadline = time.monotonic() + 90
        while kernels(proc) < 2:  # the pool fills
            assert time.monotonic() < deadline, "the pool did not fill"
            time.sleep(0.5)
        status, first, _ = get(url, BROWSER_A)  # takes a pool kernel: A has one page now
        assert status == 200 and "a page" in first
        assert get(url, BROWSER_A)[0] == 429
        status, second, _ = get(url, BROWSER_B)
        assert status == 200

        async def go():
            kept = await _connect(url, kernel_id(second))
            gone = await _connect(url, kernel_id(first))
            await asyncio.sleep(1)
            gone.close()
            start = time.monotonic()
            while alive(url, kernel_id(first)) and time.monotonic() - start < 60:
                await asyncio.sleep(0.5)
            took = time.monotonic() - start
            assert not alive(url, kernel_id(first)), "the kernel of the page that went is still there after 60 s"
            assert 2.5 <= took <= 30, took
            await asyncio.sleep(4)  # more than page_gone_seconds
            assert alive(url, kernel_id(second)), "a page still connected lost its kernel"
            kept.close()

        asyncio.run(go())
        time.sleep(5)
        # the pool is full again (two waiting kernels, never connected: not shut down), B's page has gone
        deadline = time.monotonic() + 60
        while kernels(proc) != 2:
            assert time.monotonic() < deadline, f"{kernels(proc)} kernels, not the pool's 2"
            time.sleep(0.5)
        assert get(url, BROWSER_A)[0] == 200  # A's place came back when its kernel was shut down


def test_the_cap_page_s_language_comes_from_the_link_then_the_kept_game_then_the_browser(tmp_path, monkeypatch):
    """A learner who chose German in Settings (kept with their game) and opens the app without ?lang= is refused in
    German; a browser that asks for Czech first is refused in Czech; ?lang= goes before both."""
    from rookcore import learners
    monkeypatch.setenv("ROOK_GAME_FILE", str(tmp_path / "game.json"))
    learner = learners.new_learner_id()
    folder = learners.learner_dir(learner)
    folder.mkdir(parents=True)
    (folder / "game.json").write_text(json.dumps({"format": "crowsnest-kept-game/1",
                                                  "settings": {"extra": {"lang": "de"}}}))
    assert request_language(None, learner, "cs,en;q=0.5") == "de"
    assert request_language("fa", learner, "cs") == "fa"
    assert request_language(None, None, "en-GB;q=0.4, cs-CZ;q=0.8, x;q=1") == "cs"
    assert request_language(None, learners.new_learner_id(), "fr,de;q=0.7") == "de"  # no game kept: the browser
    assert request_language(None, None, "fr,ja") is None and request_language(None, None, None) is None
    assert request_language(None, None, "fr, en;q=0.9, de;q=0.8") == "en"  # English is the app's too
    (folder / "game.json").write_text('{"settings": {"extra": {"lang": "<script>"}}}')  # a language it has not
    assert request_language(None, learner, "ro") == "ro"
    (folder / "game.json").write_text("not json")
    assert request_language(None, learner, "") is None
    page = full_page(CapReached("browser", 10), request_language(None, None, "de-AT,de;q=0.9"), "/x")
    assert 'lang="de"' in page and "Browser" in page
