"""Browser test: the app's deep links (?record=, ?deal=) as a user follows them, good and bad."""
from __future__ import annotations

import re

from browser_helpers import WIDGETS_TIMEOUT_MS, assert_no_traceback, wait_until


def _open(page, url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector(".rook-app-tabs", state="visible", timeout=WIDGETS_TIMEOUT_MS)


def _current_tab(page) -> str:
    return page.locator(".rook-app-tabs .lm-TabBar-tab.lm-mod-current").first.inner_text().strip()


def test_a_record_link_opens_replay_on_that_record(voila_url, page):
    _open(page, voila_url + "?record=crowsnest-set")
    wait_until(lambda: _current_tab(page) == "Replay", what="the Replay tab")
    assert page.locator(".rook-link-message").inner_text().strip() == ""
    assert page.locator(".rook-replay-examples select").input_value() == "crowsnest-set"
    assert not page.errors, page.errors


def test_bad_links_say_what_is_wrong_above_a_working_app(voila_url, page, artifacts_dir):
    _open(page, voila_url + "?record=../../README&deal=1e5")
    message = page.locator(".rook-link-message")
    wait_until(lambda: message.inner_text().strip() != "", what="the link message")
    text = message.inner_text()
    assert "?deal= (a deal seed) needs a whole number ≥ 0, not '1e5'." in text
    assert "?record='../../README': there is no example record of that name. A record you saved is named by" in text
    page.screenshot(path=str(artifacts_dir / "links-bad.png"))
    assert _current_tab(page) == "Play"
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
    assert re.search(r"Hand 1", page.locator(".rook-header").inner_text())
    assert_no_traceback(page)
    assert not page.errors, page.errors
