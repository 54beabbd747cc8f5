"""A lesson in German and Persian in Chromium (issue 26): lesson 5 opened with ``?lang=de`` and ``?lang=fa`` shows its
prose, worked tricks and exercise in that language; its first "who wins the trick" exercise is answered by tapping a
losing card (the rule it broke and "try again", in the page's language), then the winner (right); no button's or
label's words overflow it (German's long words); Persian reads right to left with the card pictures left to right;
the links to the other lessons carry the language. Screenshots (looked at): ``tests/artifacts/lesson-de-exercise.png``,
``lesson-fa-exercise.png`` (the exercise after the right answer), ``lesson-de-page.png``, ``lesson-fa-page.png``
(the top of the page: header and prose).
"""
from __future__ import annotations

from urllib.parse import urljoin

import pytest
from browser_helpers import assert_no_traceback
from test_lesson_pages import (PAGE_TIMEOUT_MS, check_and_wait, enter_answer, notebook_exercises, rebuild_exercise,
                               track_responses, unexpected_errors, wrong_answer)

from rookcore import i18n
from rookcore.i18n import _
from widgets.lessons import TRY_AGAIN

SLUG = "05-winning-tricks"
OVERFLOWING = """() => [...document.querySelectorAll(
        '.rook-exercise .widget-button, .rook-exercise .widget-label, .rook-exercise .widget-dropdown select')]
    .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
    .map(b => b.textContent.trim())"""
HEADER = {"de": "Lektion 05 von 8", "fa": "درس"}


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("lang", ["de", "fa"])
def test_a_lesson_exercise_in_german_and_persian(voila_url, page, artifacts_dir, lang):
    spec = next(s for s in notebook_exercises(SLUG) if s["kind"] == "trick_winner")
    with i18n.using(lang):  # the exercise as the page's kernel builds it, in the page's language
        ex = rebuild_exercise(spec)
        wrong = wrong_answer(ex)
        first_try = f"✘ {_('Not quite.')} {ex.rule_broken(wrong)} {_(TRY_AGAIN)}"
        check = _("Check")
    bad = track_responses(page)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(urljoin(voila_url, f"tutorial/{SLUG}.ipynb?lang={lang}"), wait_until="domcontentloaded",
              timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".rook-lesson-nav", state="visible", timeout=PAGE_TIMEOUT_MS)  # the last cell: all drawn
    header = page.locator(".rook-lesson-header").inner_text()
    assert HEADER[lang] in header and "Lesson" not in header, header
    assert not page.locator(".rook-link-message").count()
    page.screenshot(path=str(artifacts_dir / f"lesson-{lang}-page.png"))
    nav = page.locator(".rook-lesson-nav a")
    assert nav.count(), "the lesson's navigation shows no link"
    assert all(f"?lang={lang}" in (nav.nth(i).get_attribute("href") or "") for i in range(nav.count()))

    box = page.locator(".rook-exercise.rook-exercise-trick_winner").first
    box.scroll_into_view_if_needed()
    prompt = " ".join(box.locator(".rook-prompt").inner_text().split())
    assert " ".join(ex.prompt.replace(i18n.LRI, "").replace(i18n.PDI, "").split()) in prompt.replace(
        i18n.LRI, "").replace(i18n.PDI, "")
    assert box.locator("button.rook-check").inner_text().strip() == check
    direction = box.evaluate("e => getComputedStyle(e).direction")
    cards = box.locator(".rook-answer-cards").first
    if lang == "fa":
        assert direction == "rtl"
        assert cards.evaluate("e => getComputedStyle(e).direction") == "ltr"  # the trick in play order
        assert page.locator(".rook-prose").first.evaluate("e => getComputedStyle(e).direction") == "rtl"
    else:
        assert direction == "ltr"

    enter_answer(page, box, ex, wrong)
    assert check_and_wait(page, box, "rook-try-again") == " ".join(first_try.split())
    assert not page.evaluate(OVERFLOWING), page.evaluate(OVERFLOWING)
    enter_answer(page, box, ex, ex.answer)
    right = check_and_wait(page, box, "rook-right")
    with i18n.using(lang):
        assert ex.check(ex.answer).message.split(":")[0] in right, right
    assert not page.evaluate(OVERFLOWING), page.evaluate(OVERFLOWING)
    box.screenshot(path=str(artifacts_dir / f"lesson-{lang}-exercise.png"))
    assert_no_traceback(page)
    errors = unexpected_errors(page.errors, bad)
    assert not errors, errors
