"""Browser test: annotate a hand in the Replay tab, save it, load the file back, and find the comment again.

A comment or mark is about the last action shown: at "Step 6" it goes on the 6th action, record step 5. The record
is saved in the learner's own records folder (`widgets.paths`: ``learners/<id>/records/``, the id the browser
holds), and another learner (another browser context) does not find it under the same name."""
from __future__ import annotations

import json
import re

import pytest
from browser_helpers import assert_no_traceback, button, open_app, open_tab, wait_until
from conftest import voila_server

from rookcore import learners

STEP = 5  # the record step annotated: the last action shown at position STEP + 1
COMMENT = "Browser note: 85 is too high without the nest."


def _step(page) -> tuple[int, int]:
    text = page.locator(".rook-replay-step").inner_text()
    m = re.fullmatch(r"\s*Step (\d+) / (\d+)\s*", text)
    assert m, f"step readout: {text!r}"
    return int(m.group(1)), int(m.group(2))


def _forward_to(page, k: int) -> None:
    forward = button(page, "jupyter-button", "Forward").first
    while _step(page)[0] < k:
        here = _step(page)[0]
        forward.click()
        wait_until(lambda here=here: _step(page)[0] == here + 1, what=f"Step {here + 1}")


def _annotate_text(page):
    return page.locator(".rook-annotate-text textarea").first


@pytest.fixture(scope="module")
def kept_server(tmp_path_factory):
    """A server that keeps learners' games and records (the session's keeps nothing): (app URL, kept-game folder)."""
    folder = tmp_path_factory.mktemp("kept")
    with voila_server(tmp_path_factory, {"ROOK_GAME_FILE": str(folder / "game.json")}) as url:
        yield url, folder


def test_annotate_save_and_reload(kept_server, page, artifacts_dir):
    voila_url, kept = kept_server
    open_app(page, voila_url)
    open_tab(page, "Replay")
    page.wait_for_selector(".rook-replay-examples select", state="visible")
    page.locator(".rook-replay-examples select").select_option(label="crowsnest-set")
    wait_until(lambda: _step(page)[0] == 0 and page.locator(".rook-annotate-path input").input_value()
               == "annotated/crowsnest-set.json", what="crowsnest-set to load")

    # at Step 0 no action is shown: the editor is disabled and says to step forward
    assert "Step forward to comment on an action" in page.locator(".rook-annotate-step").inner_text()
    assert _annotate_text(page).is_disabled()
    assert button(page, "rook-annotate-mark", "??").first.is_disabled()

    _forward_to(page, STEP + 1)
    wait_until(lambda: f"(step {STEP + 1})" in page.locator(".rook-annotate-step").inner_text(),
               what="the annotation editor to follow the step")
    last_action = page.locator(".rook-replay-action").inner_text().replace("Last action:", "").strip().rstrip(".")
    assert last_action and last_action in page.locator(".rook-annotate-step").inner_text(), last_action
    assert not _annotate_text(page).is_disabled()
    _annotate_text(page).fill(COMMENT)
    button(page, "rook-annotate-save", "Save comment").first.click()
    wait_until(lambda: COMMENT in page.locator(".rook-replay-comment").inner_text(),
               what="the saved comment to show")
    button(page, "rook-annotate-mark", "?").first.click()
    wait_until(lambda: "?" in page.locator(".rook-annotate-step .rook-mark").all_inner_texts(),
               what="the mark to show")
    # ... next to the last action on the action line as well (the action just shown, not the next one)
    wait_until(lambda: "?" in page.locator(".rook-replay-action .rook-mark").all_inner_texts(),
               what="the mark on the action line")

    saved_as = "annotated/crowsnest-set-annotated.json"
    learner = page.evaluate(f"() => localStorage.getItem({json.dumps(learners.STORAGE_KEY)})")
    out = learners.learner_dir(learner, kept / "learners") / "records" / saved_as
    path_box = page.locator(".rook-annotate-path input").first
    path_box.fill(saved_as)
    path_box.press("Tab")
    button(page, "rook-annotate-save-record", "Save record").first.click()
    wait_until(lambda: "Saved" in page.locator(".rook-annotate-result").inner_text(), what="Saved …")
    assert out.exists(), page.locator(".rook-annotate-result").inner_text()
    doc = json.loads(out.read_text("utf-8"))
    assert {"step": STEP, "text": COMMENT} in doc["comments"] and doc["marks"] == {str(STEP): "?"}
    link = page.locator(".rook-annotate-download a[download]")
    assert link.count() == 1 and link.get_attribute("href").startswith("data:application/json;base64,")

    # load the file back through the path box
    page.locator(".rook-replay-path input").first.fill(saved_as)
    page.locator(".rook-replay-path input").first.press("Tab")
    button(page, "jupyter-button", "Load").first.click()
    wait_until(lambda: _step(page)[0] == 0 and page.locator(".rook-annotate-path input").input_value()
               == "annotated/crowsnest-set-annotated.json", what="the saved file to load")
    assert not page.locator(".rook-replay-error").is_visible()
    assert not page.locator(".rook-replay-comment").inner_text().strip().endswith(COMMENT)
    _forward_to(page, STEP + 1)
    wait_until(lambda: COMMENT in page.locator(".rook-replay-comment").inner_text(),
               what="the comment of the re-loaded file")
    wait_until(lambda: _annotate_text(page).input_value() == COMMENT, what="the comment in the editor")
    wait_until(lambda: "?" in page.locator(".rook-annotate-step .rook-mark").all_inner_texts(),
               what="the mark of the re-loaded file")

    page.locator(".rook-annotate").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "annotate.png"), full_page=True)
    assert_no_traceback(page)
    assert not page.errors, page.errors

    # another learner (another browser's storage): the same name is not theirs
    other = page.context.browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        theirs = other.new_page()
        open_app(theirs, voila_url)
        open_tab(theirs, "Replay")
        theirs.locator(".rook-replay-path input").first.fill(saved_as)
        theirs.locator(".rook-replay-path input").first.press("Tab")
        button(theirs, "jupyter-button", "Load").first.click()
        wait_until(lambda: "no such file in your records folder" in theirs.locator(".rook-replay-error").inner_text(),
                   what="another learner's page not to find the record")
        assert doc == json.loads(out.read_text("utf-8"))
    finally:
        other.close()
