"""The app in German and Persian in Chromium (issue 26): ``?lang=de`` and ``?lang=fa`` open the Play tab in that
language; a hand is played by clicking (the buttons found by their stable classes, not their words), no button's
words overflow it (German's long words), and Persian is laid out right to left with the table's seats mirrored.
Screenshots at 1366×768: ``tests/artifacts/i18n-de-play.png``, ``i18n-fa-play.png`` (and ``-end`` after the hand).
The Replay tab in Persian (a record stepped through, analysed): ``i18n-fa-replay.png``.
"""
from __future__ import annotations

import re
import time

import pytest
from browser_helpers import HAND_TIMEOUT_S, WIDGETS_TIMEOUT_MS, assert_no_traceback, set_speed, wait_until

OVERFLOWING = """() => [...document.querySelectorAll('.rook-app button, .rook-app .widget-label, .rook-app .lm-TabBar-tabLabel')]
    .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
    .map(b => b.textContent.trim())"""


SCORE_FIT = """() => [...document.querySelectorAll('.rook-play .rook-score-sheet')].filter(e => e.offsetParent !== null)
    .map(e => [e.querySelector('.rook-score-table').getBoundingClientRect().width, e.clientWidth])"""
"""The score sheet's table width and its box's width (px), once the hand is scored."""


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
    fits = page.evaluate(SCORE_FIT)  # at 1366×768 the whole score sheet shows in the side pane, no column clipped
    assert fits and all(table <= box + 1 for table, box in fits), f"score table wider than its box: {fits}"
    page.screenshot(path=str(artifacts_dir / f"i18n-{lang}-end.png"))
    assert_no_traceback(page)


def test_replay_in_persian(voila_url, page, artifacts_dir):
    """The Replay tab in Persian at 1366×768: its buttons, step line, the action, the facts and the analysis
    (Analyze within the shortest time budget: the first lead's result and the auction judged) in Persian, laid out
    right to left with the card table's cards left to right and its seats mirrored; no button overflows its words.
    Screenshot ``tests/artifacts/i18n-fa-replay.png``."""
    _open(page, voila_url, "fa")
    page.locator(".rook-app-tabs .lm-TabBar-tab").nth(1).click()
    page.wait_for_selector(".rook-replay-step", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    step = page.locator(".rook-replay-step")
    assert step.inner_text().strip().startswith("گام"), step.inner_text()
    forward = _visible(page, "button.rook-replay-forward").first
    assert forward.inner_text().strip() == "جلو"
    for _ in range(14):  # into the first tricks
        forward.click()
        time.sleep(0.15)
    wait_until(lambda: re.sub("[\u2066-\u2069]", "", step.inner_text()).strip().startswith("گام 14"),
               what="step 14")
    page.locator(".rook-analysis-budget select").select_option(index=0)  # the shortest budget
    _visible(page, "button.rook-analyze").first.click()
    start = page.locator(".rook-analysis-start-line")
    start.wait_for(state="visible", timeout=90_000)
    wait_until(lambda: "تحلیل تمام شد" in page.locator(".rook-analysis-status").inner_text()
               or "زمان مجاز تمام شد" in page.locator(".rook-analysis-status").inner_text(),
               what="the analysis to end", timeout_s=120)
    words = page.locator(".rook-replay").first.inner_text()
    for persian in ("آخرین حرکت:", "مزایده", "پیشنهاد"):
        assert persian in words, persian
    assert page.locator(".rook-app").first.evaluate("e => getComputedStyle(e).direction") == "rtl"
    table = page.locator(".rook-replay .rook-tv").first
    assert table.evaluate("e => getComputedStyle(e).direction") == "ltr"
    assert table.locator(".rook-tv-seat[data-pos='right']").get_attribute("data-seat") == "W"
    assert not page.evaluate(OVERFLOWING), page.evaluate(OVERFLOWING)
    page.screenshot(path=str(artifacts_dir / "i18n-fa-replay.png"))
    assert_no_traceback(page)


TAB_TITLES_SHOWN = """() => [...document.querySelectorAll('.rook-app-tabs .lm-TabBar-tab')].map(t => {
    const label = t.querySelector('.lm-TabBar-tabLabel'), r = t.getBoundingClientRect();
    return [label.textContent.trim(), label.scrollWidth <= label.clientWidth + 1, r.left >= -1,
            r.right <= window.innerWidth + 1]; })"""
"""Each tab's title, whether its label shows all its words, and whether the tab lies inside the window."""


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
def test_every_tab_title_shows_whole_on_a_phone(voila_url, page, artifacts_dir, lang):
    """At 390×844 the five tab titles show whole and inside the window in English, German (the longest:
    'Einstellungen', cut to 'Einstellu' before) and Czech; they take a second row rather than be cut.
    Screenshot ``tests/artifacts/i18n-{lang}-phone-tabs.png``."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{voila_url}?lang={lang}&deal=4243", wait_until="domcontentloaded")
    page.wait_for_selector(".rook-app-tabs .lm-TabBar-tab", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    page.wait_for_selector(".rook-play .rook-tv-card", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    tabs = page.evaluate(TAB_TITLES_SHOWN)
    assert len(tabs) == 5, tabs
    assert all(whole and inside_left and inside_right for _title, whole, inside_left, inside_right in tabs), tabs
    page.screenshot(path=str(artifacts_dir / f"i18n-{lang}-phone-tabs.png"))
    page.locator(".rook-app-tabs .lm-TabBar-tab").nth(4).click()  # Settings, on the second row in German
    page.wait_for_selector(".rook-settings-language", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    assert_no_traceback(page)
