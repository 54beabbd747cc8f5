"""Browser test: the Replay tab steps through a bundled example record to its final score."""
from __future__ import annotations

import re
import time

from browser_helpers import assert_no_traceback, button, open_app, open_tab, wait_until

from rookcore import records
from rookcore.examples import example_text

SIGNED = r"([+-]?\d+)"


def _step(page) -> tuple[int, int]:
    text = page.locator(".rook-replay-step").inner_text()
    m = re.fullmatch(r"\s*Step (\d+) / (\d+)\s*", text)
    assert m, f"step readout: {text!r}"
    return int(m.group(1)), int(m.group(2))


def _select_example(page, name: str) -> None:
    page.locator(".rook-replay-examples select").select_option(label=name)
    wait_until(lambda: name in page.locator(".rook-replay-title").inner_text() or _step(page)[0] == 0,
               what=f"example {name} to load")


def _check_final_score(page, name: str) -> str:
    report = records.score_report(records.loads(example_text(name)))
    score_box = page.locator(".rook-replay-score")
    score_box.wait_for(state="visible")
    text = score_box.inner_text()
    if report.get("passed_out"):
        assert "Passed out" in text, text
        return text
    decl, bid = report["declarer"], report["bid"]
    assert f"Declarer {decl}" in text, (text, report)
    assert f"bid {bid}" in text, (text, report)
    assert ("made" if report["made"] else "set") in text, (text, report)
    m = re.search(rf"Score: N–S {SIGNED} · E–W {SIGNED}", text)
    assert m, text
    assert (int(m.group(1)), int(m.group(2))) == (report["score"]["NS"], report["score"]["EW"]), (text, report)
    m = re.search(r"Captured: N–S (\d+) · E–W (\d+)", text)
    assert m, text
    assert (int(m.group(1)), int(m.group(2))) == (report["captured"]["NS"], report["captured"]["EW"]), text
    return text


def test_replay_example_to_final_score(voila_url, page, artifacts_dir):
    open_app(page, voila_url)
    open_tab(page, "Replay")
    page.wait_for_selector(".rook-replay-examples select", state="visible")

    # Another example first, so that choosing crowsnest-made (the default) really loads it.
    _select_example(page, "crowsnest-set")
    wait_until(lambda: _step(page)[0] == 0 and _step(page)[1] > 0, what="crowsnest-set at step 0")
    button(page, "jupyter-button", "Last").first.click()
    wait_until(lambda: _step(page)[0] == _step(page)[1], what="the last step of crowsnest-set")
    _check_final_score(page, "crowsnest-set")

    # A shorter record loaded from the last step of a longer one starts at its step 0 (the slider's old value
    # must not be clamped to the new end by the browser and sent back).
    _select_example(page, "crowsnest-passed-out")
    wait_until(lambda: _step(page)[1] == 4, what="crowsnest-passed-out's 4 steps")
    time.sleep(1.0)  # room for a clamped value to come back from the browser
    assert _step(page) == (0, 4), _step(page)

    expected_n = len(list(records.loads(example_text("crowsnest-made")).states())) - 1
    _select_example(page, "crowsnest-made")
    wait_until(lambda: _step(page) == (0, expected_n), what=f"crowsnest-made at Step 0 / {expected_n}")
    n = expected_n
    assert not page.locator(".rook-replay-score").is_visible(), "final score shown at step 0"

    forward = button(page, "jupyter-button", "Forward").first
    actions = [page.locator(".rook-replay-action").inner_text()]
    for k in range(1, 4):
        forward.click()
        wait_until(lambda k=k: _step(page) == (k, n), what=f"Step {k} / {n}")
        # The step readout and the action line are separate widgets: wait for the line as well.
        actions.append(wait_until(lambda: (t := page.locator(".rook-replay-action").inner_text()) != actions[-1]
                                  and t, what=f"the action line of step {k}"))
    assert len(set(actions)) == len(actions), f"the action line did not change: {actions}"

    button(page, "jupyter-button", "Back").first.click()
    wait_until(lambda: _step(page) == (2, n), what=f"Step 2 / {n} after Back")

    button(page, "jupyter-button", "Last").first.click()
    wait_until(lambda: _step(page) == (n, n), what=f"Step {n} / {n}")
    text = _check_final_score(page, "crowsnest-made")
    page.screenshot(path=str(artifacts_dir / "replay-end.png"), full_page=True)

    assert not page.locator(".rook-replay-error").is_visible()
    assert_no_traceback(page)
    assert not page.errors, page.errors
    print(text)


def _status(page, *parts: str) -> str | None:
    """The analysis status line; with ``parts``, the line only if it contains them all (else None)."""
    text = page.locator(".rook-analysis-status").inner_text()
    return text if all(p in text for p in parts) else None


def test_replay_analysis_can_be_cancelled(voila_url, page, artifacts_dir):
    """Analyze on a 13-trick record (its first lead takes about a minute): a Cancel button shows while it runs, the
    status counts the cards and the seconds; Cancel stops it and says after how many cards, keeping them; loading
    another record while it runs says that it was stopped."""
    open_app(page, voila_url)
    open_tab(page, "Replay")
    page.wait_for_selector(".rook-replay-examples select", state="visible")
    cancel = page.locator("button.rook-analyze-cancel")
    assert not cancel.is_visible(), "Cancel shown while no analysis runs"
    _select_example(page, "1-high-partnership-made")
    wait_until(lambda: _step(page)[0] == 0 and "1-high-partnership" in page.locator(".rook-annotate-path input")
               .input_value(), what="1-high-partnership-made to load")

    button(page, "rook-analyze", "Analyze").first.click()
    wait_until(lambda: cancel.is_visible() and cancel.is_enabled(), what="the Cancel button")
    status = wait_until(lambda: _status(page, "cards done", "s so far"), timeout_s=120,
                        what="the progress with the seconds elapsed")
    assert re.search(r"Analyzing… \d+ of 52 cards done", status), status
    page.locator(".rook-analysis").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "replay-analysis-running.png"), full_page=True)
    # the clock moves on while the search works
    wait_until(lambda: _status(page) != status, timeout_s=30, what="the status to move on")

    cancel.click()
    text = wait_until(lambda: _status(page, "Analysis cancelled after"), what="the cancel message")
    m = re.search(r"Analysis cancelled after (\d+) of 52 cards", text)
    assert m and "the cards analysed so far are shown" in text, text
    wait_until(lambda: not cancel.is_visible(), what="Cancel to hide")
    assert button(page, "rook-analyze", "Analyze").first.is_enabled()
    page.screenshot(path=str(artifacts_dir / "replay-analysis-cancelled.png"), full_page=True)

    # a running analysis stopped by loading another record says so
    button(page, "rook-analyze", "Analyze").first.click()
    wait_until(lambda: cancel.is_visible(), what="the Cancel button again")
    _select_example(page, "crowsnest-made")
    wait_until(lambda: _status(page, "The analysis of 1-high-partnership-made was stopped: another record was "
                                     "loaded."), what="the stopped message")
    assert not cancel.is_visible()
    assert_no_traceback(page)
    assert not page.errors, page.errors


def test_replay_analysis_shows_proven_ranges_within_its_time_budget(voila_url, page, artifacts_dir):
    """Analyze on a 13-trick record with a 15 s time budget: while it runs the first lead's line says "refining…";
    when the budget runs out the status says so (never "Analysis done"), the first lead's line says what is proven
    without an exact number, and a card of trick 1 shows what is proven of it."""
    open_app(page, voila_url)
    open_tab(page, "Replay")
    page.wait_for_selector(".rook-replay-examples select", state="visible")
    _select_example(page, "1-high-partnership-set")
    wait_until(lambda: _step(page)[0] == 0 and "1-high-partnership-set" in page.locator(".rook-annotate-path input")
               .input_value(), what="1-high-partnership-set to load")
    page.locator(".rook-analysis-budget select").select_option(label="15 s")
    button(page, "rook-analyze", "Analyze").first.click()
    start = page.locator(".rook-analysis-start")
    wait_until(lambda: "refining…" in start.inner_text(), timeout_s=60, what="the first lead's line, refining")
    assert "s so far (time budget 15 s)" in wait_until(lambda: _status(page, "s so far"), what="the budget shown")
    text = wait_until(lambda: _status(page, "The time budget ran out"), timeout_s=120, what="the budget to run out")
    assert "Analysis done" not in text and re.search(r"marks proven for \d+ of 52 cards, \d+ valued exactly", text)
    # the first lead's line is redrawn just after the status line: wait for it, then check what it says
    line = wait_until(lambda: (lambda s: s if "refining…" not in s else None)(start.inner_text()), timeout_s=30,
                      what="the first lead's line to stop refining")
    assert "in the time given" in line and "— exact." not in line and "Judged double dummy" in line, line
    forward = button(page, "jupyter-button", "Forward").first
    for k in range(1, 10):  # on to the first lead (record step 8, the navigator's step 9)
        forward.click()
        wait_until(lambda k=k: _step(page)[0] == k, what=f"step {k}")
    card = wait_until(lambda: (t := page.locator(".rook-analysis-card").inner_text()) and "(step 9, trick 1)" in t
                      and t, what="the first lead's analysis")
    assert "proved so far: loss" in card or "nothing proven yet" in card, card
    page.locator(".rook-analysis").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "replay-analysis-budget.png"), full_page=True)
    assert_no_traceback(page)
    assert not page.errors, page.errors


def test_replay_go_to_a_costly_card(voila_url, page, artifacts_dir):
    """After Analyze, the Go to list shows its prompt, lists the costly cards (as `analyze` finds them) and moves
    the navigator to the chosen one; the navigator on another step shows the prompt again."""
    from rookcore.analysis import analyze_record

    costly = [c for c in analyze_record(records.loads(example_text("crowsnest-made")))["cards"] if c["loss"] > 0]
    open_app(page, voila_url)
    open_tab(page, "Replay")
    page.wait_for_selector(".rook-replay-examples select", state="visible")
    _select_example(page, "crowsnest-made")
    goto = page.locator(".rook-analysis-goto select")
    assert not goto.is_visible(), "Go to shown before any analysis"
    button(page, "rook-analyze", "Analyze").first.click()
    wait_until(lambda: _status(page, "Analysis done"), timeout_s=300, what="the analysis")
    goto.wait_for(state="visible")

    def shown() -> str:
        return goto.evaluate("s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text").replace("\xa0", " ")

    wait_until(lambda: shown() == "a card with a loss…", what="the Go to prompt")
    labels = [t.replace("\xa0", " ") for t in goto.evaluate("s => Array.from(s.options).map(o => o.text)")][1:]
    assert [int(re.match(r"step (\d+):", t).group(1)) for t in labels] == [c["step"] + 1 for c in costly], labels
    last = costly[-1]
    goto.select_option(index=len(costly))
    wait_until(lambda: _step(page)[0] == last["step"] + 1, what="the navigator to move to the chosen card")
    wait_until(lambda: f"plays {last['card']}" in page.locator(".rook-analysis-card").inner_text(),
               what="the analysis line of the chosen card")
    assert shown().startswith(f"step {last['step'] + 1}:"), shown()
    page.locator(".rook-analysis").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "replay-go-to.png"), full_page=True)
    button(page, "jupyter-button", "First").first.click()
    wait_until(lambda: _step(page)[0] == 0, what="step 0")
    wait_until(lambda: shown() == "a card with a loss…", what="the prompt again")
    assert_no_traceback(page)
    assert not page.errors, page.errors
