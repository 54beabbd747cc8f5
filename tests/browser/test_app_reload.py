"""Browser test: the game in play survives a reload of the page (the app keeps it, rookcore.saved)."""
from __future__ import annotations

import pytest

from browser_helpers import (_click_and_wait, _learner_situation, _settle, assert_no_app_error, button, open_app,
                             set_speed, status_text, wait_until)
from conftest import voila_server


@pytest.fixture(scope="module")
def keeping_url(tmp_path_factory):
    """A Voila server whose app keeps its game in a temporary file (the session's server keeps nothing)."""
    path = tmp_path_factory.mktemp("kept") / "game.pickle"
    with voila_server(tmp_path_factory, {"ROOK_GAME_FILE": str(path)}) as url:
        yield url


def _table_text(page) -> dict[str, str]:
    shown = {sel: page.locator(sel).inner_text() for sel in (".rook-auction-history", ".rook-header")}
    shown["hand"] = " ".join(page.locator(".rook-play button.rook-tv-card").evaluate_all("bs => bs.map(b => b.dataset.code)"))
    return shown


def test_a_reload_brings_the_game_back(keeping_url, page, artifacts_dir):
    failed: list[tuple[int, str]] = []
    page.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    open_app(page, keeping_url)
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
    assert set_speed(page, 0)
    wait_until(lambda: _learner_situation(page) == "auction", what="South's first call")
    _click_and_wait(page, button(page, "rook-bid", "Pass"), "Pass")
    before = _table_text(page)
    assert "S pass" in before[".rook-auction-history"]

    page.reload(wait_until="domcontentloaded")
    open_app(page, keeping_url)
    wait_until(lambda: "Welcome back" in status_text(page), what="the welcome-back line")
    _settle(page)
    page.screenshot(path=str(artifacts_dir / "resume-after-reload.png"), full_page=True)
    assert status_text(page).startswith("Welcome back: your game goes on (hand 1"), status_text(page)
    assert _table_text(page) == before
    assert_no_app_error(page)
    # Voila's page asks the server to shut the old page's kernel down when it unloads, and the server answers 403
    # to that one request (Voila's behaviour on any reload, not this app's); every other request succeeded
    shutdowns = [url for status, url in failed if status == 403 and "/voila/api/shutdown/" in url]
    assert len(shutdowns) == len(failed), failed
    errors = [e for e in page.errors if not (shutdowns and "status of 403 (Forbidden)" in e)]
    assert not errors, errors
