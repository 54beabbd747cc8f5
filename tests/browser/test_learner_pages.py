"""Browser tests: a game per learner (issue 27 item 1) on one Voila server that keeps games — two browsers (two
Playwright contexts) keep two different games through reloads, and a deep link opened in a second tab of the same
browser leaves the first tab's game kept. One server for the module (the machine is small)."""
from __future__ import annotations

import re

import pytest

from browser_helpers import (_click_and_wait, _learner_situation, _settle, assert_no_app_error, button, open_app,
                             set_speed, status_text, wait_until)
from conftest import voila_server

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
