"""Browser tests: a game per learner (issue 27 item 1) on one Voila server that keeps games — two browsers (two
Playwright contexts) keep two different games through reloads, and a deep link opened in a second tab of the same
browser leaves the first tab's game kept. Then pages taken from Voila's kernel pool (issue 31): their links, their
language and the kept game found again, a pooled kernel that cannot reach Voila's query websocket, a page whose
kernel died and one that gets no kernel at all (each says so in the learner's language)."""
from __future__ import annotations

import json
import os
import re
import sys

import pytest

from browser_helpers import (WIDGETS_TIMEOUT_MS, _click_and_wait, _learner_situation, _settle, assert_no_app_error,
                             button, open_app, set_speed, status_text, wait_until)
from conftest import jupyter_path_env, voila_server

KEY = "crowsnest-rook.learner"
NOT_KEPT = ("no longer kept", "not kept", "newer page", "went on in another page")


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """(the app's URL, the kept-game folder) of a Voila server that keeps games (the session's keeps nothing)."""
    folder = tmp_path_factory.mktemp("kept-learners")
    with voila_server(tmp_path_factory, {"ROOK_GAME_FILE": str(folder / "game.json")}) as url:
        yield url, folder


def _context_page(browser, errors: list):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda m: errors.append(f"console.error: {m.text}") if m.type == "error" else None)
    return context, page


def _table(page) -> dict[str, str]:
    """What the Play tab shows of the game: the header, the auction and South's cards."""
    shown = {sel: page.locator(sel).inner_text() for sel in (".rook-auction-history", ".rook-header")}
    shown["hand"] = " ".join(page.locator(".rook-play button.rook-tv-card").evaluate_all(
        "bs => bs.map(b => b.dataset.code)"))
    return shown


def _start(page, url: str) -> None:
    """Open the app, AIs at once, and wait for South's first call."""
    open_app(page, url)
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
    assert set_speed(page, 0)
    wait_until(lambda: _learner_situation(page) == "auction", what="South's first call")


def _call(page, which: str) -> None:
    """South's call: "Pass", or "lowest" (the lowest bid offered)."""
    if which == "Pass":
        target = button(page, "rook-bid", "Pass")
    else:
        bids = button(page, "rook-bid").filter(has_text=re.compile(r"^\s*Bid \d+\s*$"))
        target = bids.first
    _click_and_wait(page, target, which)


def _reload(page, url: str) -> None:
    page.reload(wait_until="domcontentloaded")
    open_app(page, url)
    wait_until(lambda: "Welcome back" in status_text(page), what="the welcome-back line")
    _settle(page)


def _ignore_reload_403(errors: list) -> list:
    """Voila answers 403 to the old page's kernel-shutdown request on a reload (voila-dashboards/voila#1458; see
    test_app_reload.py): not the app's error."""
    return [e for e in errors if "status of 403 (Forbidden)" not in e]


def test_two_browsers_keep_two_games_through_reloads(kept, browser, artifacts_dir):
    url, folder = kept
    errors: list[str] = []
    ctx_a, a = _context_page(browser, errors)
    ctx_b, b = _context_page(browser, errors)
    try:
        _start(a, url)
        _start(b, url)
        id_a, id_b = (p.evaluate(f"() => localStorage.getItem('{KEY}')") for p in (a, b))
        assert re.fullmatch(r"[0-9a-f]{32}", id_a) and re.fullmatch(r"[0-9a-f]{32}", id_b) and id_a != id_b
        _call(a, "Pass")
        _call(b, "lowest")  # each to a different point
        want_a, want_b = _table(a), _table(b)
        assert "S pass" in want_a[".rook-auction-history"] and "S pass" not in want_b[".rook-auction-history"]
        assert want_a != want_b
        _reload(a, url)
        _reload(b, url)
        b.screenshot(path=str(artifacts_dir / "learners-second-browser-after-reload.png"), full_page=True)
        assert _table(a) == want_a and _table(b) == want_b
        assert a.evaluate(f"() => localStorage.getItem('{KEY}')") == id_a  # the same learner after a reload
        assert sorted(p.name for p in (folder / "learners").iterdir()) == sorted([id_a, id_b])
        for page in (a, b):
            assert status_text(page).startswith("Welcome back: your game goes on (hand 1"), status_text(page)
            assert_no_app_error(page)
        assert not _ignore_reload_403(errors), errors
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_deep_link_in_a_second_tab_leaves_the_first_tab_s_game_kept(kept, browser, artifacts_dir):
    url, folder = kept
    errors: list[str] = []
    context, first = _context_page(browser, errors)
    try:
        _start(first, url)
        _call(first, "Pass")
        learner = first.evaluate(f"() => localStorage.getItem('{KEY}')")
        second = context.new_page()  # a new tab of the same browser: the same learner
        open_app(second, url + "?deal=7")
        second.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
        wait_until(lambda: "Your own game is kept" in status_text(second), what="the deal link's line")
        assert second.evaluate(f"() => localStorage.getItem('{KEY}')") == learner
        # then a broken link in that tab (a bad deal, a record that is not one): the same learner's game on show
        open_app(second, url + "?record=../../README&deal=1e5")
        wait_until(lambda: "?deal= (a deal seed) needs" in second.locator(".rook-link-message").inner_text(),
                   what="the broken link's message")
        second.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
        assert "S pass" in second.locator(".rook-auction-history").inner_text()  # the learner's own game
        # the first tab goes on: its next move is kept, without a word about another page
        wait_until(lambda: _learner_situation(first) in ("play", "passed-out"), timeout_s=120,
                   what="South's turn to play (or a passed-out hand)")
        if _learner_situation(first) == "play":
            _click_and_wait(first, first.locator(".rook-play button.rook-tv-card.legal").first, "a card",
                            position={"x": 5, "y": 14})
        else:
            _click_and_wait(first, button(first, "rook-new-hand", "New hand").first, "New hand")
        text = status_text(first) + first.locator(".rook-header").inner_text()
        assert not any(words in text for words in NOT_KEPT), text
        want = _table(first)
        second.close()
        _reload(first, url)
        first.screenshot(path=str(artifacts_dir / "learners-first-tab-after-deep-link.png"), full_page=True)
        assert _table(first) == want
        text = status_text(first) + first.locator(".rook-header").inner_text()
        assert text.startswith("Welcome back: your game goes on") and not any(w in text for w in NOT_KEPT), text
        assert sorted(p.name for p in (folder / "learners" / learner).iterdir() if p.suffix == ".json") == \
            ["deal.json", "game.json"]
        assert_no_app_error(first)
        assert not _ignore_reload_403(errors), errors
    finally:
        context.close()


# ----- pages from Voila's kernel pool (issue 31 items 1, 2 and 6) ----------------------------------------------------
POOL = json.dumps({"default": {"pool_size": 0}, "app.ipynb": {"pool_size": 2}})
"""A small pool of app kernels (voila.json's is sized for a class), refilled at once (fill_delay 0)."""


def _pool_args(pools: str = POOL) -> list:
    return ["--VoilaConfiguration.preheat_kernel=True", f"--VoilaKernelManager.kernel_pools_config={pools}",
            "--VoilaKernelManager.fill_delay=0"]


def _log_of(url: str, tmp_path_factory) -> str:
    """The Voila log of the test server serving ``url`` (conftest.voila_server writes it under the base temp)."""
    port = re.search(r":(\d+)/", url).group(1)
    for log in sorted(tmp_path_factory.getbasetemp().glob("voila*/voila.log")):
        text = log.read_text(errors="replace")
        if f":{port}/" in text:
            return text
    return ""


def _wait_warm(url: str, tmp_path_factory, kernels: int, timeout_s: float = 240) -> None:
    """Wait until ``kernels`` pooled kernels have run the app's notebook up to its page's request (each has opened
    Voila's query websocket: the server's log says "ready, waiting for a page") or given up on it."""
    def warm():
        log = _log_of(url, tmp_path_factory)
        return log.count("ready, waiting for a page") + log.count("could not be reached") >= kernels
    wait_until(warm, timeout_s=timeout_s, what=f"{kernels} pooled kernels to be ready")


def _south_of_deal(seed: int) -> list[str]:
    from benchmarks.load import expected_record  # the engine's deal, as the load benchmark checks it
    return sorted(expected_record(seed, [])["hands"]["S"])


def _south_shown(page) -> list[str]:
    return sorted(page.locator(".rook-play button.rook-tv-card").evaluate_all("bs => bs.map(b => b.dataset.code)"))


@pytest.fixture(scope="module")
def pooled(tmp_path_factory):
    """(the app's URL, the kept-game folder) of a server that keeps games and has a pool of 2 app kernels."""
    folder = tmp_path_factory.mktemp("kept-pooled")
    with voila_server(tmp_path_factory, {"ROOK_GAME_FILE": str(folder / "game.json")}, args=_pool_args()) as url:
        _wait_warm(url, tmp_path_factory, 2)
        yield url, folder


def test_pages_from_the_pool_follow_their_links_and_find_the_kept_game(pooled, browser, tmp_path_factory):
    url, folder = pooled
    errors: list[str] = []
    context, page = _context_page(browser, errors)
    try:
        open_app(page, url + "?lang=de&deal=5")
        page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
        assert page.locator(".rook-app-tabs .lm-TabBar-tab").all_inner_texts()[:2] == ["Spielen", "Wiederholen"]
        assert _south_shown(page) == _south_of_deal(5)
        assert set_speed(page, 0)
        wait_until(lambda: _learner_situation(page) == "auction", what="South's first call")
        _click_and_wait(page, button(page, "rook-bid", "Passen"), "Passen")
        want = _table(page)
        learner = page.evaluate(f"() => localStorage.getItem('{KEY}')")
        wait_until(lambda: any(c["name"] == "rook_learner" and c["value"] == learner for c in context.cookies()),
                   what="the learner cookie")
        page.reload(wait_until="domcontentloaded")  # a pooled kernel again, the learner known from the cookie
        open_app(page, url + "?lang=de&deal=5")
        wait_until(lambda: "Willkommen zurück" in status_text(page), what="the welcome-back line")
        _settle(page)
        assert _table(page) == want and (folder / "learners" / learner / "deal.json").is_file()
        second = context.new_page()  # a record link (the Replay tab on show), the page's language from the link
        second.goto(url + "?record=crowsnest-set&lang=fa", wait_until="domcontentloaded")
        second.wait_for_selector(".rook-app-tabs", state="visible", timeout=WIDGETS_TIMEOUT_MS)
        wait_until(lambda: second.locator(".rook-app-tabs .lm-TabBar-tab.lm-mod-current").inner_text().strip()
                   == "بازپخش", what="the Replay tab in Persian")
        assert second.locator(".rook-replay-examples select").input_value() == "crowsnest-set"
        assert second.locator(".rook-app.rook-rtl").count() == 1
        log = _log_of(url, tmp_path_factory)
        assert log.count("Using pre-heated kernel") >= 3, log[-2000:]
        for p in (page, second):
            assert_no_app_error(p)
        assert not _ignore_reload_403(errors), errors
        # a widget whose script could not start in time (anywidget leaves it dead): the page says so, in Persian
        assert second.locator(".rook-page-problem").count() == 0
        second.evaluate("() => { Promise.reject(new Error('[anywidget] Failed to initialize model.')); }")
        banner = second.locator(".rook-page-problem.rook-page-open")
        banner.wait_for(state="visible", timeout=10_000)
        assert banner.get_attribute("dir") == "rtl" and "این صفحه باز نشد" in banner.inner_text()
    finally:
        context.close()


def _kernel_process(page):
    """The psutil.Process of the page's kernel (its connection file is named after the kernel id)."""
    import psutil

    kernel = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    for proc in psutil.process_iter(["cmdline"]):
        if any(f"kernel-{kernel}.json" in part for part in proc.info["cmdline"] or ()):
            return proc
    raise AssertionError(f"no process of kernel {kernel}")


def test_a_page_whose_kernel_died_says_so_and_reloads_to_the_kept_game(pooled, browser, artifacts_dir):
    url, _folder = pooled
    errors: list[str] = []
    context, page = _context_page(browser, errors)
    try:
        open_app(page, url + "?lang=fa&deal=8")
        page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
        assert set_speed(page, 0)
        wait_until(lambda: _learner_situation(page) == "auction", what="South's first call")
        want = _table(page)
        assert page.locator(".rook-page-problem").count() == 0
        _kernel_process(page).kill()  # as the system does to a kernel out of memory
        banner = page.locator(".rook-page-problem.rook-page-lost")
        banner.wait_for(state="visible", timeout=60_000)
        page.screenshot(path=str(artifacts_dir / "kernel-died-banner.png"))
        assert banner.get_attribute("role") == "alert" and banner.get_attribute("dir") == "rtl"
        assert "ارتباطش را با سرور از دست داده است" in banner.inner_text()
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.locator(".rook-page-reload").click()
        open_app(page, url + "?lang=fa&deal=8")
        page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
        _settle(page)
        assert _table(page)["hand"] == want["hand"] and page.locator(".rook-page-problem").count() == 0
    finally:
        context.close()


def test_a_pooled_kernel_that_cannot_reach_voila_takes_its_link_from_the_browser(tmp_path_factory, browser):
    """Voila's own helper gives up silently when the kernel cannot reach its query websocket; here every pooled
    kernel is pointed at an address where nothing answers (VOILA_APP_IP), tries for 1 s and goes on without the
    request: the page still opens on its link, read from the browser."""
    folder = tmp_path_factory.mktemp("kept-unreached")
    pools = json.dumps({"default": {"pool_size": 0}, "app.ipynb": {"pool_size": 1}})
    env = {"ROOK_GAME_FILE": str(folder / "game.json"), "VOILA_APP_IP": "127.0.0.2", "ROOK_QUERY_WAIT": "1"}
    with voila_server(tmp_path_factory, env, args=_pool_args(pools)) as url:
        _wait_warm(url, tmp_path_factory, 1)
        assert "could not be reached within 1 s" in _log_of(url, tmp_path_factory)
        errors: list[str] = []
        context, page = _context_page(browser, errors)
        try:
            open_app(page, url + "?lang=cs&deal=7")
            page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
            assert page.locator(".rook-app-tabs .lm-TabBar-tab").all_inner_texts()[0] == "Hrát"
            assert _south_shown(page) == _south_of_deal(7)
            assert "could not be reached" not in page.locator("body").inner_text()
            assert "Using pre-heated kernel" in _log_of(url, tmp_path_factory)
            assert_no_app_error(page)
        finally:
            context.close()


def test_a_page_that_gets_no_kernel_says_so_and_tries_again(tmp_path_factory, browser, artifacts_dir):
    """A kernel that never starts (its command only sleeps): Voila keeps the page waiting for ever. After a minute
    of the page's clock (fast-forwarded here) the page says so in the link's language, with Try again."""
    kernels = tmp_path_factory.mktemp("never") / "kernels" / "python3"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c", "import time; time.sleep(600)", "{connection_file}"],
        "display_name": "Python 3 (never starts)", "language": "python"}))
    env = {"JUPYTER_PATH": os.pathsep.join([str(kernels.parent.parent), jupyter_path_env()])}
    with voila_server(tmp_path_factory, env) as url:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        try:
            page = context.new_page()
            page.clock.install()
            page.goto(url + "?lang=de", wait_until="commit")
            page.wait_for_selector("#loading", state="attached", timeout=60_000)  # Voila's spinner, no kernel
            assert page.locator(".rook-page-problem").count() == 0
            page.clock.fast_forward(61_000)
            banner = page.locator(".rook-page-problem.rook-page-open")
            banner.wait_for(state="visible", timeout=30_000)
            page.screenshot(path=str(artifacts_dir / "no-kernel-banner.png"))
            assert banner.inner_text().startswith("Diese Seite hat sich nicht geöffnet")
            assert page.locator(".rook-page-retry").inner_text() == "Erneut versuchen"
            with page.expect_request(lambda r: r.url.startswith(url) and r.is_navigation_request()):
                page.locator(".rook-page-retry").click()
        finally:
            context.close()
