"""Browser test: whole hands played by tapping card pictures only, at the window sizes people use.

At the two laptop sizes the table must fit: at every turn of the learner the hand, the trick, the four seats, the
controls of that turn (bids, trump colours, Discard), Hint and Undo lie inside the window, with no scrolling.
At the phone size (390×844 portrait) the table stays usable (the side panels move below it).
During the hand the reasoning pane names no card the learner cannot see; once the hand is over it names them.
"""
from __future__ import annotations

import re
import time

import pytest

from browser_helpers import (CARD, HAND_TIMEOUT_S, POLL_S, WIDGETS_TIMEOUT_MS, _click_and_wait, _learner_situation,
                             _lowest_bid, _settle, _choose_trump_button, assert_no_app_error, button, card_names,
                             scored_rows, set_speed, status_text, tap_card, wait_until)
from rookcore.rules import get_rules

SIZES = {"1366x768": (1366, 768), "1024x768": (1024, 768), "390x844": (390, 844)}
LAPTOPS = ("1366x768", "1024x768")
# a deal seed per rule set and size: each link is a game of its own (a ?deal= game is kept for a reload)
DEALS = {("crowsnest", "1366x768"): 41, ("crowsnest", "1024x768"): 42, ("crowsnest", "390x844"): 43,
         ("dixie", "1366x768"): 51, ("dixie", "1024x768"): 52, ("dixie", "390x844"): 53}

PLAYED_JS = ("() => [...document.querySelectorAll('.rook-play .rook-tv-played, .rook-play .rook-tv-last [data-code]')]"
             ".map(e => e.dataset.code)")


def _box_inside(page, selector: str, width: int, height: int) -> list[str]:
    """The visible elements matching ``selector`` that reach outside the window (as 'selector: box')."""
    boxes = page.locator(selector).evaluate_all(
        """els => els.filter(e => e.offsetParent !== null).map(e => { const r = e.getBoundingClientRect();
              return [r.left, r.top, r.right, r.bottom]; })""")
    return [f"{selector}: {[round(v) for v in b]}" for b in boxes
            if b[0] < -1 or b[1] < -1 or b[2] > width + 1 or b[3] > height + 1]


def _check_fits(page, situation: str, width: int, height: int) -> None:
    """Hand, trick, seats, this turn's controls, Hint and Undo inside the window."""
    controls = {"auction": ["button.rook-bid"], "trump": ["button.rook-trump"],
                "discard": ["button.rook-discard-button", CARD], "play": [CARD + ".legal"]}[situation]
    outside = []
    for sel in [".rook-play .rook-tv-hand", ".rook-play .rook-tv-trick", ".rook-play .rook-tv-seat", "button.rook-hint-button", "button.rook-undo",
                *controls]:
        assert page.locator(sel).count(), f"nothing shows {sel}"
        outside += _box_inside(page, sel, width, height)
    assert not outside, f"{situation} at {width}x{height}: outside the window: {outside}"


WIDER_THAN_BOX = """(box) => [...document.querySelectorAll('.rook-play .' + box)].filter(e => e.offsetParent !== null)
    .map(e => [e.scrollWidth, e.clientWidth])"""
"""The inner and shown widths (px) of the Play tab's visible boxes of class ``box``."""


def _check_wraps(page, situation: str, size: str) -> None:
    """The auction line and the discard prompt (its "N chosen" counter too) wrap inside their box at any size:
    the situation's box (``rook-auction``, ``rook-discard``) shows and is not wider inside than it shows (nothing
    cut off at the side)."""
    widths = page.evaluate(WIDER_THAN_BOX, f"rook-{situation}")
    assert widths, f"{situation} at {size}: no rook-{situation} box shows"
    wide = [f"{inner} px in {shown} px" for inner, shown in widths if inner > shown + 1]
    assert not wide, f"{situation} at {size}: rook-{situation} cut off at the side: {wide}"


TOUCH_PX = 44
"""The usual touch target (px): every card a learner may tap shows at least this square on a phone."""

TAP_SQUARE_JS = """([selector, size]) => {
  // For each visible element of `selector`: does some size x size square of it receive the taps (every pixel of
  // the square hits the element or its children)? Sampled with elementFromPoint, as a finger lands.
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.offsetParent === null) continue;
    el.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = el.getBoundingClientRect();
    const cols = Math.floor(r.width), rows = Math.floor(r.height);
    const hit = [];
    for (let j = 0; j < rows; j++) {
      const row = [];
      for (let i = 0; i < cols; i++) {
        const t = document.elementFromPoint(r.left + 0.5 + i, r.top + 0.5 + j);
        row.push(t !== null && (t === el || el.contains(t)) ? 1 : 0);
      }
      hit.push(row);
    }
    // largest all-hit square (px) by dynamic programming
    let best = 0;
    const dp = hit.map((row) => row.map(() => 0));
    for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) {
      if (!hit[j][i]) continue;
      dp[j][i] = (i && j) ? 1 + Math.min(dp[j - 1][i], dp[j][i - 1], dp[j - 1][i - 1]) : 1;
      best = Math.max(best, dp[j][i]);
    }
    out.push([el.dataset.code || el.textContent, best, Math.round(r.width), Math.round(r.height), best >= size]);
  }
  return out;
}"""
"""For each visible element matching the selector: [card code, side of the largest square that takes taps (px),
width, height, whether that square is at least ``size`` px]."""


def _check_touch_targets(page, situation: str) -> None:
    """Every card the learner may tap (all of hand and nest while discarding, the legal ones in play) offers a
    TOUCH_PX x TOUCH_PX square that a tap lands on (issue 33: the back row's cards showed about 36 x 30 px)."""
    selector = ".rook-play .rook-tv-card" + (".legal" if situation == "play" else "")
    targets = page.evaluate(TAP_SQUARE_JS, [selector, TOUCH_PX])
    assert targets, f"{situation}: no card to tap"
    small = [f"{code}: {side} px square in {w}x{h}" for code, side, w, h, ok in targets if not ok]
    assert not small, f"{situation} on a phone: cards under {TOUCH_PX} px to tap: {small}"


def _names_in(text: str, names: set[str]) -> set[str]:
    return {n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text)}


def _pane_text(page) -> str:
    return page.locator(".rook-reasoning").inner_text() + page.locator(".rook-reasoning-note").inner_text()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("variant", ["crowsnest", "dixie"])
def test_a_hand_by_tapping_cards(voila_url, browser, artifacts_dir, variant, size):
    width, height = SIZES[size]
    rules = get_rules(variant)
    deck = {rules.display_name(c) for c in rules.deck}
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{voila_url}?deal={DEALS[variant, size]}&variant={variant}", wait_until="domcontentloaded")
        page.wait_for_selector(CARD, state="visible", timeout=WIDGETS_TIMEOUT_MS)
        assert set_speed(page, 0), "could not set the speed slider to 0"
        if size in LAPTOPS:  # typing into the slider must not have scrolled the page
            page.evaluate("() => document.querySelectorAll('*').forEach(e => { if (e.scrollTop) e.scrollTop = 0; })")
        seen: set[str] = set()  # every card the learner has seen: their hand (the nest too, if declarer), played
        turns, hidden = 0, set()
        shots = {"auction", "discard", "play"}
        deadline = time.monotonic() + HAND_TIMEOUT_S
        while not scored_rows(page):
            assert time.monotonic() < deadline, f"no hand scored; status {status_text(page)!r}"
            _settle(page)
            situation = _learner_situation(page)
            if situation in (None, "scored", "passed-out"):
                if situation == "passed-out":
                    _click_and_wait(page, button(page, "rook-new-hand", "New hand").first, "New hand")
                time.sleep(POLL_S)
                continue
            turns += 1
            seen |= set(card_names(page)) | {rules.display_name(rules.parse_card(c))
                                             for c in page.evaluate(PLAYED_JS)}
            hidden = deck - seen
            leaked = _names_in(_pane_text(page), hidden)
            assert not leaked, f"the reasoning names cards the learner cannot see: {sorted(leaked)}"
            if size in LAPTOPS:
                _check_fits(page, situation, width, height)
            if situation in ("auction", "discard"):
                _check_wraps(page, situation, size)
            if size == "390x844" and situation in ("discard", "play"):
                _check_touch_targets(page, situation)
            if situation in shots:
                shots.discard(situation)
                page.screenshot(path=str(artifacts_dir / f"table-{variant}-{size}-{situation}.png"))
            if situation == "auction":
                target = (_lowest_bid(page) if turns == 1 else None) or button(page, "rook-bid", "Pass").first
                _click_and_wait(page, target, "a call")
            elif situation == "trump":
                _click_and_wait(page, _choose_trump_button(page), "trump")
            elif situation == "discard":
                n = rules.nest_size
                picks = page.locator(CARD)
                for i in range(picks.count() - n, picks.count()):
                    tap_card(picks.nth(i))
                    wait_until(lambda i=i: "picked" in (picks.nth(i).get_attribute("class") or ""),
                               what="the tapped card marked as picked")
                _click_and_wait(page, button(page, "rook-discard-button", "Discard").first, "Discard")
            else:
                _click_and_wait(page, page.locator(CARD + ".legal").first, "a card", position={"x": 5, "y": 14})
        _settle(page)
        page.screenshot(path=str(artifacts_dir / f"table-{variant}-{size}-end.png"))
        final = _pane_text(page)
        assert hidden and _names_in(final, hidden), "after the hand the reasoning names the cards it hid"
        assert_no_app_error(page)
        assert not errors, errors
    finally:
        context.close()
