"""The app in German and Persian in Chromium (issue 26): ``?lang=de`` and ``?lang=fa`` open the Play tab in that
language; a hand is played by clicking (the buttons found by their stable classes, not their words), no button's
words overflow it (German's long words), and Persian is laid out right to left with the table's seats mirrored.
Screenshots at 1366×768: ``tests/artifacts/i18n-de-play.png``, ``i18n-fa-play.png`` (and ``-end`` after the hand).
"""
from __future__ import annotations

import time

import pytest
from browser_helpers import HAND_TIMEOUT_S, WIDGETS_TIMEOUT_MS, assert_no_traceback, set_speed, wait_until

OVERFLOWING = """() => [...document.querySelectorAll('.rook-app button, .rook-app .widget-label, .rook-app .lm-TabBar-tabLabel')]
    .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
    .map(b => b.textContent.trim())"""


def _open(page, voila_url: str, lang: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{voila_url}?lang={lang}&deal=4242", wait_until="domcontentloaded")
    page.wait_for_selector(".rook-app-tabs", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    page.wait_for_selector(".rook-play .rook-tv-card", state="visible", timeout=WIDGETS_TIMEOUT_MS)


def _visible(page, selector: str):
    return page.locator(f"{selector}:visible")


def _play_hand(page) -> list[str]:
    """Click through one hand (pass in the auction, the first cards for the discard, the first trump, the first
    playable card) until the end-of-hand panel shows. Returns what was done."""
    done = []
    deadline = time.monotonic() + HAND_TIMEOUT_S
    while time.monotonic() < deadline:
        if _visible(page, ".rook-hand-end").count():
            return done
        if _visible(page, "button.rook-pass").count():
            _visible(page, "button.rook-pass").first.click()
            done.append("pass")
        elif _visible(page, "button.rook-discard-button").count():
            button = _visible(page, "button.rook-discard-button").first
            cards = _visible(page, "button.rook-tv-card.legal")
            for i in range(cards.count()):
                if button.is_enabled():
                    break
                cards.nth(i).click()
                time.sleep(0.2)
            wait_until(button.is_enabled, what="Discard enabled")
            button.click()
            done.append("discard")
        elif _visible(page, "button.rook-trump").count():
            _visible(page, "button.rook-trump").first.click()
            done.append("trump")
        elif _visible(page, "button.rook-tv-card.legal").count():
            _visible(page, "button.rook-tv-card.legal").first.click()
            done.append("card")
        time.sleep(0.4)
    raise AssertionError(f"the hand did not end: {done}")


@pytest.mark.parametrize("lang", ["de", "fa"])
def test_a_hand_in_german_and_persian(voila_url, page, artifacts_dir, lang):
    _open(page, voila_url, lang)
    set_speed(page, 0.0)
    tabs = page.locator(".rook-app-tabs .lm-TabBar-tabLabel").all_inner_texts()
    assert tabs[0].strip() == {"de": "Spielen", "fa": "بازی"}[lang], tabs
    hint = _visible(page, "button.rook-hint-button").first.inner_text().strip()
    assert hint == {"de": "Tipp", "fa": "راهنما"}[lang]
    app_direction = page.locator(".rook-app").first.evaluate("e => getComputedStyle(e).direction")
    table = page.locator(".rook-tv").first
    right_seat = table.locator(".rook-tv-seat[data-pos='right']").get_attribute("data-seat")
    if lang == "fa":
        assert app_direction == "rtl"
        assert right_seat == "W"  # West, on the learner's left at a real table, is drawn on the right
        assert table.evaluate("e => getComputedStyle(e).direction") == "ltr"  # the cards keep their order
    else:
        assert app_direction == "ltr" and right_seat == "E"
    assert not page.evaluate(OVERFLOWING), page.evaluate(OVERFLOWING)
    page.screenshot(path=str(artifacts_dir / f"i18n-{lang}-play.png"))
    done = _play_hand(page)
    assert done
    assert not page.evaluate(OVERFLOWING), page.evaluate(OVERFLOWING)
    page.screenshot(path=str(artifacts_dir / f"i18n-{lang}-end.png"))
    assert_no_traceback(page)
