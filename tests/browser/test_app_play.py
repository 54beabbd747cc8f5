"""Browser test: a learner plays one complete hand of the Voila app by clicking only (Play tab)."""
from __future__ import annotations

import re
import time

from browser_helpers import (assert_no_app_error, check_disabled_cards_have_reasons, check_score_row, open_app,
                     play_one_hand, set_speed, status_text)


def test_play_one_hand_by_clicking(voila_url, page, artifacts_dir):
    t0 = time.monotonic()
    open_app(page, voila_url)
    page.wait_for_selector("button.rook-card-S", state="visible")
    assert set_speed(page, 0), "could not set the speed slider to 0 by typing into its readout"
    page.screenshot(path=str(artifacts_dir / "play-start.png"), full_page=True)

    # Before South may play, every card is disabled and says why; clicking one does nothing.
    assert check_disabled_cards_have_reasons(page) > 0
    before = status_text(page)
    page.locator("button.rook-card-S[disabled]").first.click(force=True)
    time.sleep(1.0)
    assert status_text(page) == before
    assert_no_app_error(page)

    log: list[str] = []
    row = play_one_hand(page, bid=True, log=log, shots={
        "auction": artifacts_dir / "play-auction.png",
        "discard": artifacts_dir / "play-discard.png",
        "first-play": artifacts_dir / "play-first-play.png",
        "end": artifacts_dir / "play-end.png",
    })
    print(f"hand scored after {time.monotonic() - t0:.1f}s; clicks: {log}; row: {row}")

    check_score_row(page, row)
    assert status_text(page).startswith("Hand over"), status_text(page)
    assert page.locator(".rook-score-sheet").is_visible()
    assert any(c.startswith(("R", "Y", "G", "B", "Crow")) for c in log), f"no card was played: {log}"
    assert_no_app_error(page)
    assert not page.errors, page.errors


def test_double_clicks_act_once(voila_url, page, artifacts_dir):
    """A learner who double-clicks every bid and card (AIs paced at 0.3 s a move, so the second click reaches the
    kernel while it is still busy) plays one card per double click, and no error line appears."""
    open_app(page, voila_url)
    page.wait_for_selector("button.rook-card-S", state="visible")
    assert set_speed(page, 0.3), "could not set the speed slider by typing into its readout"
    log: list[str] = []
    row = play_one_hand(page, bid=True, log=log, double_click=True,
                        shots={"end": artifacts_dir / "play-double-click-end.png"})
    check_score_row(page, row)
    assert sum(bool(re.fullmatch(r"[RYGB]\d+|Crow", c)) for c in log) == 9, log  # South's 9 cards
    assert_no_app_error(page)
    assert not page.errors, page.errors
