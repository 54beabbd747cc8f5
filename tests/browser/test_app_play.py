"""Browser test: a learner plays one complete hand of the Voila app by clicking only (Play tab)."""
from __future__ import annotations

import re
import time

from browser_helpers import (HAND_TIMEOUT_S, _click_and_wait, _learner_situation, _play_signature, _settle,
                             assert_no_app_error, button, check_disabled_cards_have_reasons, check_score_row,
                             open_app, play_one_hand, scored_rows, set_speed, status_text, wait_until)


def test_play_one_hand_by_clicking(voila_url, page, artifacts_dir):
    t0 = time.monotonic()
    open_app(page, voila_url)
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
    assert set_speed(page, 0), "could not set the speed slider to 0 by typing into its readout"
    page.screenshot(path=str(artifacts_dir / "play-start.png"), full_page=True)

    # Before South may play, every card says why it cannot be played; tapping one says so on the table (a touch
    # screen shows no tooltip) and changes nothing.
    assert check_disabled_cards_have_reasons(page) > 0
    before = status_text(page)
    page.locator(".rook-play button.rook-tv-card.illegal").first.click(force=True)  # aria-disabled: a person can still tap it
    wait_until(lambda: "wait for" in page.locator(".rook-play .rook-tv-reason").inner_text(), what="the reason on the table")
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
    _check_latest_ai_move_on_top(page)
    assert any(c.startswith(("R", "Y", "G", "B", "Crow")) for c in log), f"no card was played: {log}"
    assert_no_app_error(page)
    assert not page.errors, page.errors


def _check_latest_ai_move_on_top(page) -> None:
    """The reasoning pane, not scrolled by the learner, shows the latest AI move at its top."""
    moves = page.locator(".rook-reasoning .rook-decision")
    boxes = [moves.nth(i).bounding_box() for i in range(moves.count())]
    assert len(boxes) > 1
    pane = page.locator(".rook-reasoning").locator("xpath=..").bounding_box()
    assert min(b["y"] for b in boxes) == boxes[-1]["y"], "the latest move (drawn last) is not on top"
    assert pane["y"] <= boxes[-1]["y"] < pane["y"] + pane["height"], "the latest move is scrolled out of view"


def test_double_clicks_act_once(voila_url, page, artifacts_dir):
    """A learner who double-clicks every bid and card (AIs paced at 0.3 s a move, so the second click reaches the
    kernel while it is still busy) plays one card per double click, and no error line appears."""
    open_app(page, voila_url)
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
    assert set_speed(page, 0.3), "could not set the speed slider by typing into its readout"
    log: list[str] = []
    row = play_one_hand(page, bid=True, log=log, double_click=True,
                        shots={"end": artifacts_dir / "play-double-click-end.png"})
    check_score_row(page, row)
    assert sum(bool(re.fullmatch(r"[RYGB]\d+|Crow", c)) for c in log) == 9, log  # South's 9 cards
    assert_no_app_error(page)
    assert not page.errors, page.errors


def _focused(page) -> dict:
    """The focused element: its CSS classes and text."""
    return page.evaluate("""() => { const e = document.activeElement;
        return {cls: e ? String(e.className) : '', text: e ? e.innerText.trim().slice(0, 40) : ''}; }""")


def _press_and_wait(page, key: str, what: str) -> None:
    before = _play_signature(page)
    page.keyboard.press(key)
    wait_until(lambda: _play_signature(page) != before, what=f"the app to react to {what}")
    _settle(page)


def test_a_hand_played_with_the_keyboard_only(voila_url, page, artifacts_dir):
    """After each action the focus moves to the next sensible control (the lowest bid, the first discard pick, the
    first trump colour, the first playable card, New hand), so Tab, Space and Enter play a whole hand."""
    open_app(page, voila_url)
    page.wait_for_selector(".rook-play button.rook-tv-card", state="visible")
    assert set_speed(page, 0.2)
    for _ in range(300):  # Tab from the speed slider's readout to South's first call
        if "rook-bid" in _focused(page)["cls"]:
            break
        page.keyboard.press("Tab")
    steps: list[str] = []
    deadline = time.monotonic() + HAND_TIMEOUT_S
    while not (status_text(page).startswith("Hand over") and scored_rows(page)):
        assert time.monotonic() < deadline, steps[-20:]
        _settle(page)
        situation, focus = _learner_situation(page), _focused(page)
        steps.append(f"{situation}: {focus['text']}")
        if situation in (None, "scored"):
            continue
        expected = {"auction": "rook-bid", "discard": "rook-tv-card", "trump": "rook-trump",
                    "play": "rook-tv-card", "passed-out": "rook-new-hand"}[situation]
        if expected not in focus["cls"]:  # the focus follows the redraw (and the cards' motion) by a moment
            try:
                wait_until(lambda: expected in _focused(page)["cls"], timeout_s=10, what="the focus")
            except AssertionError:
                raise AssertionError(f"{situation}: the focus is on {_focused(page)} ({steps[-5:]})") from None
        if situation == "discard":
            n = int(re.search(r"Tap (\d+) cards", page.locator(".rook-discard-count").inner_text()).group(1))
            for _ in range(n):  # the first n cards of hand + nest, the arrow moving along the fan
                page.keyboard.press("Space")
                page.keyboard.press("ArrowRight")
            wait_until(lambda: f"{n} chosen" in page.locator(".rook-discard-count").inner_text()
                       and page.locator("button.rook-discard-button:visible:not([disabled])").count(),
                       what="the picks and Discard enabled")
            for _ in range(400):
                if "rook-discard-button" in _focused(page)["cls"]:
                    break
                page.keyboard.press("Tab")
            else:
                page.screenshot(path=str(artifacts_dir / "play-keyboard-failed.png"), full_page=True)
                raise AssertionError(f"Tab never reached Discard; the focus is on {_focused(page)} ({steps[-5:]})")
        _press_and_wait(page, "Enter", steps[-1])
        assert not page.locator(".rook-status .rook-error").count(), (status_text(page), steps[-5:])
    assert "rook-new-hand" in _focused(page)["cls"], _focused(page)
    page.screenshot(path=str(artifacts_dir / "play-keyboard-end.png"), full_page=True)
    assert sum(s.startswith("play") for s in steps) == 9, steps
    assert not page.errors, page.errors


def test_an_opened_fold_of_ai_reasoning_stays_open_as_the_ais_move(voila_url, page, artifacts_dir):
    """A learner opens the "N more" fold of an AI call's reasoning, then calls: the AIs' new calls appear on top of
    the pane and the fold stays open where it was. (During the hand the candidates, and so the folds, show once
    "Reveal hidden cards as they play" is ticked.)"""
    open_app(page, voila_url + "?deal=8")
    assert set_speed(page, 0)
    page.locator(".rook-open-reasoning input").check()
    fold = page.locator(".rook-reasoning details").first
    fold.wait_for(state="visible", timeout=60_000)
    fold.evaluate("d => { d.dataset.kept = 'yes'; }")  # a view drawn anew would lose this mark
    fold.locator("summary").click()
    wait_until(lambda: fold.evaluate("d => d.open"), what="the fold to open")
    calls = page.locator(".rook-reasoning .rook-decision")
    before = calls.count()
    assert wait_until(lambda: _learner_situation(page) == "auction", what="South's call")
    _click_and_wait(page, button(page, "rook-bid", "Pass").first, "Pass")
    wait_until(lambda: calls.count() > before, what="the AIs' next calls")
    kept = page.locator(".rook-reasoning details[data-kept='yes']")
    assert kept.count() == 1 and kept.evaluate("d => d.open"), "the opened fold was redrawn closed"
    newest = calls.nth(calls.count() - 1).bounding_box()  # appended last, drawn first
    assert newest["y"] < kept.bounding_box()["y"], "the newest AI move is not at the top of the pane"
    page.screenshot(path=str(artifacts_dir / "play-reasoning-fold.png"), full_page=True)
    assert_no_app_error(page)
    assert not page.errors, page.errors
