"""Browser test (slow): for every rule set, choose it in Settings and start a new game; in every rule set but the
default one, play a hand to a score by clicking.

CrowsNest, the default rule set, is chosen and dealt here too, but its hand is not played again: the same hand by
clicking (South bids, discards, names trump, plays to a score row checked by `check_score_row`) is
tests/browser/test_app_play.py's ``test_play_one_hand_by_clicking``, and test_table_sizes.py taps through CrowsNest
and Dixie hands at three window sizes."""
from __future__ import annotations

import re
import time

import pytest

from browser_helpers import (assert_no_app_error, button, check_score_row, header_text, open_app, open_tab,
                     play_one_hand, score_rows, set_speed, status_text, wait_until)

from rookcore.rules import VARIANTS


def _choose_rule_set(page, title: str) -> None:
    open_tab(page, "Settings")
    page.locator(".rook-settings-variant select").select_option(label=title)
    apply = page.locator(".rook-settings button.jupyter-button").filter(has_text=re.compile(r"^\s*Apply\s*$"))
    apply.first.click()
    wait_until(lambda: f"Rule set: {title}" in page.locator(".rook-settings-message").inner_text(),
               what=f"Settings to confirm {title}")
    assert not page.locator(".rook-settings-error").is_visible()


def _new_game(page, title: str) -> None:
    """Click New game; once a game has started it asks first ("Click New game again"), so click again."""
    open_tab(page, "Play")
    button(page, "rook-new-game", "New game").first.click()
    asked = wait_until(lambda: "Click New game again" in status_text(page) or header_text(page).startswith(
        f"{title} · Hand 1"), what="New game to ask or start")
    if "Click New game again" in status_text(page):
        time.sleep(0.8)  # a second click sooner is taken for a double click and only asks again
        button(page, "rook-new-game", "New game").first.click()
    assert asked
    # the whole new table drawn: the header line comes first, the score sheet (empty again) later in the redraw
    wait_until(lambda: header_text(page).startswith(f"{title} · Hand 1")
               and page.locator(".rook-play-ruleset").inner_text().strip() == f"Rule set: {title}"
               and not score_rows(page), what=f"a new game of {title}")


PLAYED_ELSEWHERE = ("crowsnest",)
"""Rule sets whose hand by clicking another browser test plays (see the module's docstring)."""


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_rule_set_plays_a_hand(voila_url, page, artifacts_dir, variant):
    """One rule set a test (a page each, so that the workers share them: together they took 190 s on one)."""
    rules = VARIANTS[variant]
    open_app(page, voila_url)
    assert set_speed(page, 0), "could not set the speed slider to 0"
    t0 = time.monotonic()
    _choose_rule_set(page, rules.title)
    _new_game(page, rules.title)
    if variant in PLAYED_ELSEWHERE:
        page.locator(".rook-play button.rook-tv-card").first.wait_for(state="visible")
        assert_no_app_error(page)
        assert not page.errors, page.errors
        return
    log: list[str] = []
    bid = list(VARIANTS).index(variant) % 2 == 0  # bid (South declares: discard + trump) in every other rule set
    try:
        row = play_one_hand(page, bid=bid, log=log, shots={"end": artifacts_dir / f"ruleset-{variant}.png"})
    except AssertionError:
        page.screenshot(path=str(artifacts_dir / f"ruleset-{variant}.png"), full_page=True)
        raise
    check_score_row(page, row)
    assert page.locator(".rook-play-ruleset").inner_text().strip() == f"Rule set: {rules.title}"
    assert header_text(page).startswith(rules.title), header_text(page)
    assert_no_app_error(page)
    assert not page.errors, page.errors
    print(f"{variant}: {time.monotonic() - t0:.1f}s, bid={bid}, clicks {log}, row {row}")
