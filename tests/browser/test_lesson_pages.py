"""The tutorial in headless Chromium: the Learn tab's links, exercises answered wrong then right as a teacher takes
them (a first wrong answer gets the rule it broke and a retry; the solution after a second wrong try or on "Show
answer"), cards answered by tapping their pictures (and by keyboard), and a newcomer's walk through every lesson (and
the statistics page) without errors.

The right answer is not read from the page: the test finds the lesson's first ``ExerciseWidget(kind,
rules=..., seed=...)`` call in the lesson notebook and rebuilds that exercise with the engine
(`rookcore.teaching.make_exercise`), exactly as the widget does in the page's kernel.

Stable names used (widgets/lessons.py): ``rook-exercise`` / ``rook-exercise-<kind>``, ``rook-check``,
``rook-show-answer``, ``rook-feedback`` holding ``rook-right`` (green), ``rook-wrong`` (red; ``rook-try-again`` on
a first wrong try) or ``rook-shown`` (the answer on request), with ``rook-rule`` and ``rook-solution`` inside,
``rook-answer-points``, ``rook-answer-cards`` (widgets/card_picker.py: ``button.rook-cp-card`` with ``data-code``,
``aria-pressed``, class ``picked``, ``.rook-cp-badge``), ``rook-answer-ns`` / ``rook-answer-ew``,
``rook-answer-bid``, ``rook-lesson-header``, ``rook-lesson-nav``, ``rook-tutorial-index``; widgets/app.py:
``rook-learn``, ``rook-stats-link``.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from browser_helpers import assert_no_traceback, open_app, open_tab, wait_until

from rookcore import teaching
from rookcore.rules import get_rules
from widgets.lessons import KIND_TITLES, LESSONS, NOT_COUNTED, RIGHT_COLOUR, SHOWN_COLOUR, TRY_AGAIN, WRONG_COLOUR

REPO_ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = REPO_ROOT / "notebooks" / "tutorial"
PAGE_TIMEOUT_MS = 300_000  # a Voila page runs its whole notebook before the HTML is complete
FEEDBACK_TIMEOUT_MS = 60_000


# ----------------------------------------------------------------------------- helpers
def track_responses(page) -> list[tuple[int, str]]:
    """Record every HTTP response >= 400 the page gets (status, url)."""
    bad: list[tuple[int, str]] = []
    page.on("response", lambda r: bad.append((r.status, r.url)) if r.status >= 400 else None)
    return bad


def is_kernel_shutdown_403(status: int, url: str) -> bool:
    """Voila 0.5's own kernel-shutdown beacon on leaving a page (``POST /voila/api/shutdown/<id>``) is
    refused with 403 "'_xsrf' argument missing from POST" (voila-dashboards/voila#1458, open): the old
    page's kernel then lives on until the server culls or stops it. Not an error of this app's pages."""
    return status == 403 and "/voila/api/shutdown/" in url


def unexpected_errors(errors: list[str], bad: list[tuple[int, str]]) -> list[str]:
    """``errors`` (page.errors) and failed responses, leaving out Voila's refused shutdown beacons."""
    allowed = sum(is_kernel_shutdown_403(s, u) for s, u in bad)
    out = []
    for e in errors:
        if allowed and "status of 403 (Forbidden)" in e:
            allowed -= 1
            continue
        out.append(e)
    out += [f"HTTP {s} {u}" for s, u in bad if not is_kernel_shutdown_403(s, u)]
    return out


def _page_errors(errors: list[str], bad: list[tuple[int, str]]) -> list[str]:
    """One page's errors for the walk: console 403s are checked over the whole walk instead (the
    shutdown beacon of the page being left can be reported while the next page loads)."""
    return [e for e in errors if "status of 403 (Forbidden)" not in e] + [
        f"HTTP {s} {u}" for s, u in bad if not is_kernel_shutdown_403(s, u)]


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i:i + 2], 16) for i in (0, 2, 4)))


def notebook_exercises(slug: str) -> list[dict]:
    """The ``ExerciseWidget(kind, rules=..., seed=...)`` calls of a lesson notebook, in page order."""
    nb = json.loads((TUTORIAL / f"{slug}.ipynb").read_text("utf-8"))
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
                    in ("ExerciseWidget", "exercise")):
                continue
            args = [ast.literal_eval(a) for a in node.args]
            kw = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            spec = dict(zip(("kind", "rules", "seed"), args))
            spec.update(kw)
            found.append({"kind": spec["kind"], "rules": spec.get("rules"), "seed": int(spec.get("seed", 0)),
                          "number": int(spec.get("number", 1))})
    return found


def rebuild_exercise(spec: dict) -> teaching.Exercise:
    rules = get_rules(spec["rules"]) if spec["rules"] else get_rules()
    return teaching.make_exercise(spec["kind"], rules, spec["seed"])


def wrong_answer(ex: teaching.Exercise):
    """An answer of the right form that the exercise does not accept."""
    if ex.kind == "count_points":
        return next(v for v in (ex.answer + 5, ex.answer + 10, 0) if v not in ex.accepted)
    if ex.kind == "trick_winner":
        return next(s for s in range(4) if s not in ex.accepted)
    if ex.kind == "which_cards_legal":
        hand = frozenset(ex.hand)
        others = [frozenset({c}) for c in ex.hand if c not in ex.answer]
        for candidate in [hand, frozenset(list(ex.answer)[1:])] + others:  # no empty set: that is no answer
            if candidate and candidate not in ex.accepted:
                return candidate
    if ex.kind == "score_hand":
        ns, ew = ex.answer
        return next(v for v in ((ns + 10, ew), (-ns, ew), (ns, ew + 10)) if v not in ex.accepted)
    if ex.kind == "what_to_bid":
        options = ["pass"] + list(ex.rules.legal_bids(None))
        return next(o for o in options if o not in ex.accepted)
    raise AssertionError(f"no wrong answer known for {ex.kind}")


def enter_answer(page, box, ex: teaching.Exercise, value) -> None:
    """Enter ``value`` in the exercise's controls (in ``box``, the exercise's locator) as a learner would."""
    if ex.kind == "count_points":
        _type_int(box.locator(".rook-answer-points input"), value)
    elif ex.kind == "score_hand":
        _type_int(box.locator(".rook-answer-ns input"), value[0])
        _type_int(box.locator(".rook-answer-ew input"), value[1])
    elif ex.kind == "trick_winner":
        tap_card(page, box, ex, dict(ex.trick_seats)[value], True)
    elif ex.kind == "which_cards_legal":
        assert box.locator("button.rook-cp-card").count() == len(ex.hand)
        for card in ex.hand:
            tap_card(page, box, ex, card, card in value)
    elif ex.kind == "what_to_bid":
        box.locator(".rook-answer-bid select").select_option(label="Pass" if value == "pass" else str(value))
    else:
        raise AssertionError(ex.kind)


def card_button(box, ex: teaching.Exercise, card):
    """The picture of ``card`` among the exercise's answer cards: a ``<button>``."""
    return box.locator(f".rook-answer-cards button.rook-cp-card[data-code='{card.notation(ex.rules.bird_name)}']")


def tap_card(page, box, ex: teaching.Exercise, card, picked: bool) -> None:
    """Click ``card``'s picture if it is not as wanted (``picked``), and wait until it shows so (aria-pressed)."""
    button = card_button(box, ex, card)
    if (button.get_attribute("aria-pressed") == "true") != picked:
        button.click()
    page.wait_for_function("([el, want]) => el.getAttribute('aria-pressed') === String(want)",
                           arg=[button.element_handle(), picked], timeout=FEEDBACK_TIMEOUT_MS)


def _type_int(input_locator, value: int | str) -> None:
    """Type ``value`` into a number box's ``input`` (a Text widget: it sends what is typed as it is typed)."""
    input_locator.fill(str(value))
    input_locator.press("Enter")


def check_and_wait(page, box, cls: str, button: str = "rook-check") -> str:
    """Press the exercise's ``button`` (Check) and wait for feedback of class ``cls``; returns its text (one line)."""
    before = box.locator(".rook-feedback").inner_html()
    box.locator(f"button.{button}").click()
    fb = box.locator(f".rook-feedback .{cls}")
    fb.wait_for(state="visible", timeout=FEEDBACK_TIMEOUT_MS)
    page.wait_for_function("([el, old]) => el.innerHTML !== old", arg=[box.locator(".rook-feedback").element_handle(),
                           before], timeout=FEEDBACK_TIMEOUT_MS)
    return " ".join(fb.inner_text().split())


def first_try(ex: teaching.Exercise, wrong) -> str:
    """The feedback a first wrong answer gets: the rule it broke and a retry, no solution."""
    return f"✘ Not quite. {ex.rule_broken(wrong)} {TRY_AGAIN}"


def wait_for_lesson(page, slug: str) -> None:
    page.wait_for_selector(".rook-lesson-header", state="visible", timeout=PAGE_TIMEOUT_MS)
    # The navigation links come from the notebook's last cell: everything above is rendered too.
    page.wait_for_selector(".rook-lesson-nav", state="visible", timeout=PAGE_TIMEOUT_MS)
    number = slug.split("-", 1)[0]
    header = page.locator(".rook-lesson-header").inner_text()
    assert f"Lesson {number} of {len(LESSONS)}" in header, header


# ----------------------------------------------------------------------------- tests
def _progress_counts(learn, kind_title: str) -> tuple[int, int]:
    """The "N solved (M answers checked)" counts of one exercise kind in the app's progress view: (N, M)."""
    text = learn.locator(".rook-progress").inner_text()
    m = re.search(rf"{re.escape(kind_title)}: (\d+) solved \((\d+) answers? checked\)", text)
    assert m, text
    return int(m.group(1)), int(m.group(2))


@pytest.mark.timeout(1800)
def test_first_lesson_from_the_learn_tab_wrong_then_right(voila_url, page, artifacts_dir):
    """The Learn tab opens lesson 1 in a new browser tab (the app's tab, and its game, stay); a wrong answer there
    gets the rule it broke and a retry (no solution), the right answer on the retry is solved, and the app's progress
    view follows (shared progress file)."""
    slug = LESSONS[0][0]
    spec = notebook_exercises(slug)[0]
    ex = rebuild_exercise(spec)
    wrong = wrong_answer(ex)
    assert not ex.is_correct(wrong) and ex.is_correct(ex.answer)

    open_app(page, voila_url)
    open_tab(page, "Learn")
    learn = page.locator(".rook-learn")
    learn.wait_for(state="visible")
    links = learn.locator(".rook-tutorial-index a")
    assert links.count() == len(LESSONS)
    # Every lesson link (and the statistics link) points at a notebook that exists, to open in a new tab.
    notebooks_dir = REPO_ROOT / "notebooks"
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [f"tutorial/{s}.ipynb" for s, _, _ in LESSONS], hrefs
    stats_href = learn.locator(".rook-stats-link a").get_attribute("href")
    for href in hrefs + [stats_href]:
        assert (notebooks_dir / href).is_file(), href
    assert links.first.get_attribute("target") == "_blank"
    kind_title = KIND_TITLES[spec["kind"]]
    solved_before, checked_before = _progress_counts(learn, kind_title)

    with page.context.expect_page(timeout=PAGE_TIMEOUT_MS) as opened:
        links.first.click()
    lesson = opened.value
    lesson.errors = []
    lesson.on("pageerror", lambda exc: lesson.errors.append(f"pageerror: {exc}"))
    bad = track_responses(lesson)
    lesson.wait_for_load_state("domcontentloaded")
    assert lesson.url.startswith(urljoin(voila_url, f"tutorial/{slug}.ipynb")), lesson.url
    lesson.set_viewport_size({"width": 1280, "height": 1400})
    wait_for_lesson(lesson, slug)

    box = lesson.locator(f".rook-exercise.rook-exercise-{spec['kind']}").first
    box.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
    title = box.locator(".rook-exercise-title").inner_text()
    assert title.startswith(f"Exercise {spec['number']}: {KIND_TITLES[spec['kind']]}"), title
    assert "#" not in title, title  # a learner-facing number, not the seed
    assert ex.prompt in box.locator(".rook-prompt").inner_text()

    enter_answer(lesson, box, ex, wrong)
    text = check_and_wait(lesson, box, "rook-try-again")
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts_dir / "lesson-wrong.png"))
    assert text == first_try(ex, wrong), text  # the kernel checked the answer the test entered: the rule, a retry
    assert box.locator(".rook-feedback .rook-solution").count() == 0 and ex.explain() not in text
    colour = box.locator(".rook-feedback .rook-wrong").evaluate("el => getComputedStyle(el).color")
    assert colour == _rgb(WRONG_COLOUR), colour

    enter_answer(lesson, box, ex, ex.answer)
    text = check_and_wait(lesson, box, "rook-right")
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts_dir / "lesson-right.png"))
    assert text == f"✔ {ex.check(ex.answer).message} (Solved on a new try: counted as solved.)", text
    colour = box.locator(".rook-feedback .rook-right").evaluate("el => getComputedStyle(el).color")
    assert colour == _rgb(RIGHT_COLOUR), colour
    assert box.locator(".rook-feedback .rook-wrong").count() == 0
    assert_no_traceback(lesson)
    errors = unexpected_errors(lesson.errors, bad)
    assert not errors, errors

    # Back on the app's tab: the Play panel is still there, and the progress shows both answers, the exercise
    # solved on the retry, and the visit.
    page.bring_to_front()
    assert page.locator(".rook-play").count() == 1
    wait_until(lambda: _progress_counts(learn, kind_title) == (solved_before + 1, checked_before + 2), timeout_s=30,
               what="the app's progress view to count the lesson's two answers and one exercise solved")
    first = learn.locator(".rook-tutorial-index li").first.inner_text()
    assert "✔" in first, first
    page.screenshot(path=str(artifacts_dir / "learn-progress.png"), full_page=True)
    assert_no_traceback(page)
    assert not page.errors, page.errors


def _open_first_exercise(page, voila_url: str, slug: str, kind: str):
    """Open lesson ``slug`` and find its first ``kind`` exercise; (the exercise rebuilt by the engine, its box
    locator, the list of failed responses)."""
    spec = next(s for s in notebook_exercises(slug) if s["kind"] == kind)
    ex = rebuild_exercise(spec)
    bad = track_responses(page)
    page.set_viewport_size({"width": 1280, "height": 1400})
    page.goto(urljoin(voila_url, f"tutorial/{slug}.ipynb"), wait_until="domcontentloaded",
              timeout=PAGE_TIMEOUT_MS)
    wait_for_lesson(page, slug)
    box = page.locator(f".rook-exercise.rook-exercise-{kind}").first
    assert box.locator(".rook-exercise-title").inner_text().startswith(f"Exercise {spec['number']}: ")
    assert ex.prompt in box.locator(".rook-prompt").inner_text()  # the page shows the exercise the test rebuilt
    return ex, box, bad


@pytest.mark.timeout(1800)
def test_trick_winner_lesson_tap_the_winning_card(voila_url, page, artifacts_dir):
    """Lesson 05's first "who wins the trick" exercise, answered by tapping card pictures: a losing card first (it
    is marked as picked; the rule says why it cannot win, and the solution is kept back), then the winner."""
    ex, box, bad = _open_first_exercise(page, voila_url, "05-winning-tricks", "trick_winner")
    cards = box.locator(".rook-answer-cards button.rook-cp-card")
    assert cards.count() == 4
    seats = [s for s, _c in ex.trick_seats]
    labels = [cards.nth(i).get_attribute("aria-label") for i in range(4)]
    assert labels[0].endswith(f"played by {teaching.SEAT_NAMES[seats[0]]} (led)"), labels

    wrong = wrong_answer(ex)
    enter_answer(page, box, ex, wrong)
    picked = card_button(box, ex, dict(ex.trick_seats)[wrong])
    assert "picked" in picked.get_attribute("class") and picked.locator(".rook-cp-badge").is_visible()
    assert box.locator(".rook-answer-cards button.rook-cp-card[aria-pressed='true']").count() == 1
    assert check_and_wait(page, box, "rook-try-again") == first_try(ex, wrong)
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts_dir / "lesson-trick-wrong.png"))
    assert box.locator(".rook-feedback .rook-solution").count() == 0
    enter_answer(page, box, ex, ex.answer)  # the pick moves to the winner
    assert box.locator(".rook-answer-cards button.rook-cp-card[aria-pressed='true']").count() == 1
    right = check_and_wait(page, box, "rook-right")
    assert right == f"✔ {ex.check(ex.answer).message} (Solved on a new try: counted as solved.)", right
    assert_no_traceback(page)
    errors = unexpected_errors(page.errors, bad)
    assert not errors, errors


@pytest.mark.timeout(1800)
def test_following_suit_lesson_tap_cards_keyboard_and_show_answer(voila_url, page, artifacts_dir):
    """Lesson 04's "which cards may be played": the hand is card pictures; a card lifts under the pointer; picks are
    made by tapping and by keyboard (Tab to a card, arrows, Space), marked (raised, outlined, ✓, aria-pressed); a
    wrong answer gets the rule, a second wrong one the solution. Exercise 2: "Show answer" shows the solution."""
    ex, box, bad = _open_first_exercise(page, voila_url, "04-following-suit-and-the-bird", "which_cards_legal")
    cards = box.locator(".rook-answer-cards button.rook-cp-card")
    assert cards.count() == len(ex.hand)
    first = cards.first
    assert first.get_attribute("aria-label") and first.get_attribute("aria-pressed") == "false"
    first.hover()
    page.wait_for_function("el => getComputedStyle(el).transform !== 'none'", arg=first.element_handle())

    # keyboard: focus the first card, move right with the arrow key, pick it with Space, take it back with Enter
    first.focus()
    page.keyboard.press("ArrowRight")
    second = cards.nth(1)
    assert second.evaluate("el => el === document.activeElement")
    page.keyboard.press("Space")
    page.wait_for_function("el => el.getAttribute('aria-pressed') === 'true'", arg=second.element_handle())
    page.keyboard.press("Enter")
    page.wait_for_function("el => el.getAttribute('aria-pressed') === 'false'", arg=second.element_handle())

    wrong = wrong_answer(ex)
    enter_answer(page, box, ex, wrong)
    marked = box.locator(".rook-answer-cards button.rook-cp-card.picked")
    assert marked.count() == len(wrong)
    assert marked.first.locator(".rook-cp-badge").is_visible()
    assert marked.first.evaluate("el => getComputedStyle(el).transform") != "none"  # raised
    assert check_and_wait(page, box, "rook-try-again") == first_try(ex, wrong)
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts_dir / "lesson-cards-wrong.png"))

    second_wrong = next(w for w in [frozenset(ex.hand), frozenset(list(ex.answer)[:1])]
                        + [ex.answer | {c} for c in ex.hand] if w != wrong and not ex.is_correct(w))
    enter_answer(page, box, ex, second_wrong)
    text = check_and_wait(page, box, "rook-solution")
    assert text == f"The answer: {ex.explain()}", text
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts_dir / "lesson-cards-solution.png"))

    spec = [s for s in notebook_exercises("04-following-suit-and-the-bird") if s["number"] == 2][0]
    ex2, box2 = rebuild_exercise(spec), page.locator(".rook-exercise-which_cards_legal").nth(1)
    text = check_and_wait(page, box2, "rook-shown", button="rook-show-answer")
    assert NOT_COUNTED in text and box2.locator(".rook-solution").inner_text().strip() == f"The answer: {ex2.explain()}"
    colour = box2.locator(".rook-feedback .rook-shown").evaluate("el => getComputedStyle(el).color")
    assert colour == _rgb(SHOWN_COLOUR), colour
    box2.scroll_into_view_if_needed()
    box2.screenshot(path=str(artifacts_dir / "lesson-show-answer.png"))
    assert_no_traceback(page)
    errors = unexpected_errors(page.errors, bad)
    assert not errors, errors


@pytest.mark.timeout(1800)
def test_score_boxes_refuse_text_that_is_not_a_number(voila_url, page, artifacts_dir):
    """Reported: in lesson 6's Score exercise, 'abc' / 'x' turned the boxes to 0 and were graded "you wrote N–S +0,
    E–W +0". Now the boxes keep the text and the feedback asks for a whole number (not graded); a right answer
    typed next, with a minus sign where needed, is then checked."""
    ex, box, bad = _open_first_exercise(page, voila_url, "06-scoring-and-game-end", "score_hand")
    ns, ew = box.locator(".rook-answer-ns input"), box.locator(".rook-answer-ew input")
    _type_int(ns, "abc")
    _type_int(ew, "x")
    text = check_and_wait(page, box, "rook-wrong")
    assert "type a whole number of points, e.g. 85 or -120" in text, text
    assert "Wrong" not in text and "+0" not in text, text
    assert ns.input_value() == "abc" and ew.input_value() == "x"
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts_dir / "lesson-score-refused.png"))
    enter_answer(page, box, ex, ex.answer)
    assert check_and_wait(page, box, "rook-right") == "✔ " + ex.check(ex.answer).message
    assert_no_traceback(page)
    errors = unexpected_errors(page.errors, bad)
    assert not errors, errors


@pytest.mark.timeout(3600)
def test_a_newcomer_goes_through_every_lesson_and_the_statistics(voila_url, page, artifacts_dir):
    """Lesson 01, then each lesson's "next" link to lesson 08, then the statistics page: every page
    renders its widgets (one per exercise in the notebook) with no page error and no traceback."""
    page.set_viewport_size({"width": 1280, "height": 3600})  # Voila scrolls inside its own container
    bad = track_responses(page)
    problems: list[str] = []
    slugs = [s for s, _, _ in LESSONS]
    page.goto(urljoin(voila_url, f"tutorial/{slugs[0]}.ipynb"), wait_until="domcontentloaded",
              timeout=PAGE_TIMEOUT_MS)
    for i, slug in enumerate(slugs):
        number = slug.split("-", 1)[0]
        errors_before, bad_before = len(page.errors), len(bad)
        try:
            assert page.url.split("?")[0].endswith(f"/voila/render/tutorial/{slug}.ipynb"), page.url
            wait_for_lesson(page, slug)
            expected = len(notebook_exercises(slug))
            shown = page.locator(".rook-exercise").count()
            assert shown == expected, f"{shown} exercises shown, the notebook has {expected}"
            assert_no_traceback(page)
        except (AssertionError, Exception) as e:  # noqa: BLE001 - report every page, not only the first
            problems.append(f"{slug}: {type(e).__name__}: {e}")
        page.screenshot(path=str(artifacts_dir / f"lesson-{number}.png"), full_page=True)
        new_errors = _page_errors(page.errors[errors_before:], bad[bad_before:])
        if new_errors:
            problems.append(f"{slug}: page errors {new_errors}")
        if i + 1 < len(slugs):  # follow the lesson's own "next" link, or go there directly if it is missing
            nxt = page.locator(".rook-lesson-nav a").filter(has_text="→")
            if nxt.count() and nxt.first.get_attribute("href") == f"{slugs[i + 1]}.ipynb":
                nxt.first.click()
                page.wait_for_url(f"**/tutorial/{slugs[i + 1]}.ipynb*", timeout=PAGE_TIMEOUT_MS,
                                  wait_until="domcontentloaded")
            else:
                problems.append(f"{slug}: no 'next' link to {slugs[i + 1]}")
                page.goto(urljoin(voila_url, f"tutorial/{slugs[i + 1]}.ipynb"), wait_until="domcontentloaded",
                          timeout=PAGE_TIMEOUT_MS)

    # The statistics page (linked from the Learn tab as "analysis.ipynb").
    errors_before, bad_before = len(page.errors), len(bad)
    page.goto(urljoin(voila_url, "analysis.ipynb"), wait_until="domcontentloaded", timeout=PAGE_TIMEOUT_MS)
    try:
        page.wait_for_selector(".jupyter-widgets", state="visible", timeout=PAGE_TIMEOUT_MS)
        page.wait_for_selector(".rook-stats-variant", state="visible",
                               timeout=PAGE_TIMEOUT_MS)  # the page's one cell: the statistics panel
        page.wait_for_timeout(2000)  # let the statistics panel finish drawing
        assert_no_traceback(page)
    except (AssertionError, Exception) as e:  # noqa: BLE001
        problems.append(f"analysis: {type(e).__name__}: {e}")
    page.screenshot(path=str(artifacts_dir / "analysis.png"), full_page=True)
    new_errors = _page_errors(page.errors[errors_before:], bad[bad_before:])
    if new_errors:
        problems.append(f"analysis: page errors {new_errors}")
    # Over the whole walk: no 403 console error beyond Voila's refused shutdown beacons.
    leftover = [e for e in unexpected_errors(page.errors, bad) if "status of 403 (Forbidden)" in e]
    if leftover:
        problems.append(f"403 responses other than Voila's kernel-shutdown beacon: {leftover}")
    assert not problems, "\n".join(problems)
