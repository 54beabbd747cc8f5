"""Tests for widgets.lessons: exercises answered through the widgets' own controls; progress; lesson helpers."""
from __future__ import annotations

import ast
import json
import pathlib
import re
import threading
from html import escape

import ipywidgets as widgets
import pytest

from rookcore import teaching
from rookcore.hand import trick_tables
from rookcore.rules import Rules, get_rules
from rookcore.words import rules_title
from widgets import lessons
from widgets.card_picker import CardPicker
from widgets.lessons import ExerciseWidget, Progress

ROOT = pathlib.Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "notebooks" / "tutorial"


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def _find(root, cls):
    return [w for w in _walk(root) if cls in getattr(w, "_dom_classes", ())]


def _tap(picker, card) -> None:
    """Tap ``card`` in a card picker as the page does: the message its script sends."""
    picker._on_message(picker, {"kind": "tap", "id": int(card), "deal": picker.deal}, [])


def _enter(w: ExerciseWidget, answer) -> None:
    """Type / tap ``answer`` into the widget's controls (as a learner would)."""
    if w.kind == "which_cards_legal":
        picker = _find(w, "rook-answer-cards")[0]
        for card in picker.shown():
            if picker.is_picked(card) != (card in answer):
                _tap(picker, card)
    elif w.kind == "trick_winner":
        picker = _find(w, "rook-answer-cards")[0]
        _tap(picker, dict(w.exercise.trick_seats)[answer])
    elif w.kind == "score_hand":  # number boxes hold what was typed
        _find(w, "rook-answer-ns")[0].value, _find(w, "rook-answer-ew")[0].value = (str(v) for v in answer)
    elif w.kind == "what_to_bid":
        _find(w, "rook-answer-bid")[0].value = answer
    else:
        _find(w, "rook-answer-points")[0].value = str(answer)


def _wrong(ex):
    if ex.kind == "which_cards_legal":
        return set(ex.hand) if set(ex.hand) != set(ex.answer) else set(list(ex.answer)[1:])
    if ex.kind == "trick_winner":
        return (ex.answer + 1) % 4
    if ex.kind == "score_hand":
        return (ex.answer[0] - 10, ex.answer[1])
    if ex.kind == "what_to_bid":
        return next(c for c in ex.choices if c not in ex.accepted)
    return ex.answer + 5


def _solution_shown(w) -> bool:
    return "rook-solution" in w.feedback.value


@pytest.mark.parametrize("variant", ["crowsnest", "tournament", "red-1"])
@pytest.mark.parametrize("kind", teaching.KINDS)
def test_wrong_once_gives_the_rule_and_a_retry_that_counts(kind, variant):
    """Issue 24 item 7: a first wrong answer explains the rule it broke and lets the learner try again (the solution
    kept back); a right answer on the retry is solved and counted in the progress list."""
    progress = Progress()
    view = lessons.progress_view(progress)
    w = ExerciseWidget(kind, rules=variant, seed=2, progress=progress)
    assert "rook-exercise" in w._dom_classes
    feedback = _find(w, "rook-feedback")[0]
    check = _find(w, "rook-check")[0]
    assert feedback.value == ""
    wrong = _wrong(w.exercise)
    _enter(w, wrong)
    check.click()
    rule = w.exercise.rule_broken(wrong)
    assert "rook-wrong" in feedback.value and "rook-try-again" in feedback.value
    assert f"<span class='rook-rule'>{escape(rule)}</span>" in feedback.value and lessons.TRY_AGAIN in feedback.value
    assert not _solution_shown(w) and w.last_feedback.solution == ""
    assert escape(w.exercise.explain()) not in feedback.value  # the solution is kept back
    assert progress.solved(kind) == 0 and progress.attempts[kind] == 1
    _enter(w, w.exercise.answer)
    check.click()
    assert "rook-right" in feedback.value and "Right:" in feedback.value and "counted as solved" in feedback.value
    assert progress.solved(kind) == 1 and progress.attempts[kind] == 2
    assert f"{lessons.KIND_TITLES[kind]}: 1 solved (2 answers checked)" in view.value
    _find(w, "rook-new-exercise")[0].click()
    assert feedback.value == "" and w.wrong_tries == 0 and not w.revealed
    _enter(w, w.exercise.answer)
    check.click()
    assert "rook-right" in feedback.value and "counted" not in feedback.value
    assert progress.solved(kind) == 2 and progress.attempts[kind] == 3


def _second_wrong(ex, first):
    """A wrong answer other than ``first``."""
    if ex.kind == "which_cards_legal":
        options = [frozenset(ex.hand), frozenset(list(ex.answer)[1:]), frozenset(list(ex.answer)[:1])]
        options += [frozenset({c}) for c in ex.hand] + [ex.answer | {c} for c in ex.hand]
    elif ex.kind == "trick_winner":
        options = range(4)
    elif ex.kind == "score_hand":
        options = [(ex.answer[0] - 20, ex.answer[1]), (ex.answer[0], ex.answer[1] + 5)]
    elif ex.kind == "what_to_bid":
        options = ex.choices
    else:
        options = [ex.answer + 10, ex.answer + 15]
    return next(o for o in options if o and ex.normalize(o) != ex.normalize(first) and not ex.is_correct(o))


@pytest.mark.parametrize("kind", teaching.KINDS)
def test_wrong_twice_shows_the_solution(kind):
    """A second, different wrong answer shows the rule and the solution; a right answer after it is checked, not
    solved."""
    progress = Progress()
    w = ExerciseWidget(kind, seed=2, progress=progress)
    first = _wrong(w.exercise)
    _enter(w, first)
    w.check_button.click()
    assert not _solution_shown(w)
    second = _second_wrong(w.exercise, first)
    _enter(w, second)
    fb = w.check()
    assert not fb.correct and fb.solution == w.exercise.explain() and fb.rule == w.exercise.rule_broken(second)
    assert _solution_shown(w) and "rook-try-again" not in w.feedback.value and "Wrong again." in w.feedback.value
    assert escape(w.exercise.explain()) in w.feedback.value and w.revealed
    assert progress.attempts[kind] == 2 and progress.solved(kind) == 0
    _enter(w, w.exercise.answer)
    fb = w.check()
    assert fb.correct and lessons.NOT_COUNTED in fb.message
    assert progress.attempts[kind] == 3 and progress.solved(kind) == 0


@pytest.mark.parametrize("kind", teaching.KINDS)
def test_show_answer_shows_the_solution_and_is_not_solved(kind):
    """"Show answer" shows the solution at once and records nothing; a right answer after it is an answer checked,
    not solved (a teacher would not count it)."""
    progress = _CountingProgress()
    w = ExerciseWidget(kind, seed=3, progress=progress)
    show = _find(w, "rook-show-answer")[0]
    assert show.description == "Show answer"
    show.click()
    assert "rook-shown" in w.feedback.value and _solution_shown(w)
    assert escape(w.exercise.explain()) in w.feedback.value and lessons.NOT_COUNTED in w.feedback.value
    assert progress.recorded == []
    _enter(w, w.exercise.answer)
    fb = w.check()
    assert fb.correct and lessons.NOT_COUNTED in fb.message
    assert progress.recorded == [(kind, "crowsnest", 3, False)] and progress.solved(kind) == 0
    w.new_exercise()  # a new exercise: its solution is kept back again
    assert not w.revealed and w.feedback.value == ""
    _enter(w, _wrong(w.exercise))
    w.check_button.click()
    assert not _solution_shown(w) and "rook-try-again" in w.feedback.value


def test_show_answer_after_solving_keeps_it_solved():
    progress = Progress()
    w = ExerciseWidget("count_points", seed=1, progress=progress)
    _enter(w, w.exercise.answer)
    assert w.check().correct
    w.show_button.click()
    assert "rook-shown" in w.feedback.value and "as you found it" in w.feedback.value
    assert progress.solved("count_points") == 1 and progress.attempts["count_points"] == 1


@pytest.mark.parametrize("kind", ["which_cards_legal", "trick_winner"])
def test_cards_are_answered_by_tapping_their_pictures(kind):
    """The answer cards are the pictures (a CardPicker): a tapped card is picked (marked), a second tap takes it
    back; in a trick the pick moves to the card tapped last."""
    w = ExerciseWidget(kind, rules="red-1", seed=0, progress=Progress())
    picker = _find(w, "rook-answer-cards")[0]
    assert isinstance(picker, CardPicker) and picker is w.card_picker
    cards = picker.shown()
    shown = w.exercise.hand if kind == "which_cards_legal" else w.exercise.trick
    assert cards == list(shown) and all(c["svg"].startswith("<svg") for c in picker.cards)
    _tap(picker, cards[0])
    assert picker.picked == [int(cards[0])] and picker.is_picked(cards[0])
    _tap(picker, cards[1])
    assert picker.selection == (cards[:2] if kind == "which_cards_legal" else [cards[1]])
    _tap(picker, cards[1])
    assert picker.selection == (cards[:1] if kind == "which_cards_legal" else [])
    if kind == "trick_winner":
        w.tap(cards[2])
        assert w.selected_seat == w.exercise.trick_seats[2][0]
        captions = [c["caption"] for c in picker.cards]
        assert captions[0].endswith(" (led)") and [c[0] for c in captions] == [
            "NESW"[s] for s, _ in w.exercise.trick_seats]
        assert picker.cards[0]["label"].endswith(f"played by {teaching.SEAT_NAMES[w.exercise.trick_leader]} (led)")
    deal = picker.deal
    w.new_exercise()  # fresh cards, none picked; a tap made on the old ones is ignored
    assert picker.picked == [] and picker.deal == deal + 1 and w.card_picker is picker
    picker._on_message(picker, {"kind": "tap", "id": int(picker.shown()[0]), "deal": deal}, [])
    assert picker.picked == []


def test_no_card_selected_is_not_an_answer():
    progress = Progress()
    w = ExerciseWidget("which_cards_legal", seed=2, progress=progress)
    assert not w.check().correct
    assert "Select the cards that may be played first" in w.feedback.value and progress.attempts == {}


def test_seat_must_be_picked_first():
    w = ExerciseWidget("trick_winner", seed=0, progress=Progress())
    w.check_button.click()
    assert "Pick a seat" in w.feedback.value and "rook-wrong" in w.feedback.value


def test_new_exercise_moves_to_next_seed():
    progress = Progress()
    w = ExerciseWidget("count_points", seed=5, progress=progress)
    first = w.exercise
    _enter(w, first.answer + 1)
    w.check_button.click()
    _find(w, "rook-new-exercise")[0].click()
    assert w.seed == 6
    assert w.exercise == teaching.make_exercise("count_points", "crowsnest", 6)
    assert w.feedback.value == ""


def test_exercise_titles_show_a_learner_facing_number_not_the_seed():
    w = ExerciseWidget("count_points", seed=10, number=2, progress=Progress())
    title = re.sub(r"<[^>]+>", "", w.title.value)
    assert title == "Exercise 2: Count the points (CrowsNest)"
    w.new_exercise()
    assert re.sub(r"<[^>]+>", "", w.title.value) == "Exercise 2: Count the points (CrowsNest, new deal 1)"
    assert "#" not in re.sub(r"<[^>]+>", "", ExerciseWidget("trick_winner", progress=Progress()).title.value)
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(teaching.ExerciseError, match="whole number from 1"):
            ExerciseWidget("count_points", number=bad, progress=Progress())
    assert "deal #" not in lessons.show_deal(seed=3).value


def test_the_exercises_of_a_page_are_numbered_in_page_order():
    for path in sorted(TUTORIAL.glob("*.ipynb")):
        numbers = []
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            for node in ast.walk(ast.parse("".join(cell["source"]))) if cell["cell_type"] == "code" else ():
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "ExerciseWidget":
                    numbers.append(next((ast.literal_eval(k.value) for k in node.keywords if k.arg == "number"), 1))
        assert numbers == list(range(1, len(numbers) + 1)), (path.name, numbers)


def test_lesson_titles_name_the_bird_as_the_tutorial_s_rule_set_does():
    assert lessons.TUTORIAL_RULES == "crowsnest"
    assert lessons.LESSON_TITLES["04-following-suit-and-the-bird"] == "Following suit and the Crow"
    header = lessons.start_lesson("04-following-suit-and-the-bird", progress=Progress()).value
    assert "Following suit and the Crow" in header
    assert "Following suit and the Crow" in lessons.tutorial_index(progress=Progress()).value
    assert "the Crow" in lessons.lesson_nav("05-winning-tricks").value
    assert all("bird" not in title.lower() for _slug, title, _ in lessons.LESSONS)
    heading = (TUTORIAL / "04-following-suit-and-the-bird.ipynb").read_text("utf-8")
    assert "Lesson 4 — Following suit and the Crow" in heading


class _CountingProgress(Progress):
    """A Progress that remembers every `record` call."""

    def __init__(self) -> None:
        super().__init__()
        self.recorded: list = []

    def record(self, *args) -> None:
        self.recorded.append(args)
        super().record(*args)


HINTS = {"score_hand": "type a whole number of points, e.g. 85 or -120",  # scores can be negative
         "count_points": "type a whole number of points, e.g. 85."}  # points counted cannot


@pytest.mark.parametrize("typed", ["abc", "x", "", "   ", "12.5", "1e3", "85 points", "--5"])
@pytest.mark.parametrize("kind", ["count_points", "score_hand"])
def test_number_boxes_refuse_what_is_not_a_whole_number(kind, typed):
    """Reported: typing "abc" in lesson 6's score boxes graded "you wrote N–S +0, E–W +0" (an IntText turns text
    into 0). A box that is empty or does not hold a whole number is not graded and not recorded; the message says
    what to type and the box keeps the text."""
    progress = _CountingProgress()
    w = ExerciseWidget(kind, seed=0, progress=progress)
    boxes = [_find(w, c)[0] for c in (("rook-answer-ns", "rook-answer-ew") if kind == "score_hand"
                                       else ("rook-answer-points",))]
    right = w.exercise.answer if kind == "score_hand" else (w.exercise.answer,)
    for bad in range(len(boxes)):  # the bad text in each box in turn, the others right
        for i, box in enumerate(boxes):
            box.value = typed if i == bad else str(right[i])
        fb = w.check()
        assert not fb.correct and HINTS[kind] in fb.message, fb.message
        assert kind == "score_hand" or "-120" not in fb.message, fb.message  # a count is never negative
        assert "Wrong" not in fb.message and "+0" not in fb.message and "rook-wrong" in w.feedback.value
        assert boxes[bad].value == typed
        assert progress.recorded == [] and progress.attempts == {}
    for box, value in zip(boxes, right):
        box.value = f" {value} "
    assert w.check().correct and len(progress.recorded) == 1


def test_number_boxes_read_signed_whole_numbers():
    w = ExerciseWidget("score_hand", seed=0, progress=Progress())
    ns, ew = w.exercise.answer
    w.ns_box.value, w.ew_box.value = str(ns).replace("-", "\u2212"), f"+{ew}" if ew >= 0 else str(ew)
    assert w.check().correct, w.last_feedback
    w.new_exercise()
    assert w.ns_box.value == w.ew_box.value == "" and w.ns_box.placeholder


def test_answer_cards_are_the_hand_with_card_names():
    w = ExerciseWidget("which_cards_legal", rules="red-1", seed=0, progress=Progress())
    cards = w.card_picker.cards
    assert [c["id"] for c in cards] == [int(c) for c in w.exercise.hand]
    assert all(re.fullmatch(r"(Red|Yellow|Green|Black) \d+|The Rook|The Red 1", c["label"]) for c in cards), cards
    assert all(re.fullmatch(r"[RYGB]\d+|ROOK", c["code"]) for c in cards)


def test_progress_view_and_lessons():
    progress = Progress()
    view = lessons.progress_view(progress)
    assert "0 of 8 lessons" in view.value
    lessons.start_lesson("03-nest-and-trump", progress)
    assert "1 of 8 lessons" in view.value
    w = ExerciseWidget("count_points", seed=1, progress=progress)
    _enter(w, w.exercise.answer)
    w.check_button.click()
    assert "Count the points: 1 solved" in view.value


def test_progress_file(tmp_path):
    path = tmp_path / "progress.json"
    p = Progress(path)
    p.visit("01-deck-and-counters")
    p.record("trick_winner", "crowsnest", 3, True)
    again = Progress(path)
    assert again.visited == ["01-deck-and-counters"] and again.solved("trick_winner") == 1


def test_progress_path_default_and_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("ROOK_PROGRESS_FILE", raising=False)
    monkeypatch.setattr(lessons.pathlib.Path, "home", staticmethod(lambda: tmp_path))
    monkeypatch.setenv("ROOK_GAME_FILE", "")  # nothing kept for learners: the one shared file
    assert lessons.progress_path() == tmp_path / ".crowsnest-rook" / "progress.json"
    monkeypatch.setenv("ROOK_GAME_FILE", str(tmp_path / "kept" / "game.json"))  # each learner's own, once known
    assert lessons.progress_path() is None
    monkeypatch.setenv("ROOK_PROGRESS_FILE", str(tmp_path / "p.json"))
    assert lessons.progress_path() == tmp_path / "p.json"
    monkeypatch.setenv("ROOK_PROGRESS_FILE", "")
    assert lessons.progress_path() is None


def test_two_pages_progress_adds_up(tmp_path):
    """Two kernels (two Progress objects on one file): each change starts from the file, so neither loses the
    other's; a missing folder is made."""
    path = tmp_path / "deeper" / "progress.json"
    app, lesson = Progress(path), Progress(path)
    lesson.visit("01-deck-and-counters")
    app.visit("02-deal-and-auction")
    lesson.record("count_points", "crowsnest", 0, False)
    app.record("count_points", "crowsnest", 0, True)
    again = Progress(path)
    assert again.visited == ["01-deck-and-counters", "02-deal-and-auction"]
    assert again.attempts == {"count_points": 2} and again.solved("count_points") == 1


def test_reload_updates_the_views_and_ignores_a_damaged_file(tmp_path):
    path = tmp_path / "progress.json"
    app, lesson = Progress(path), Progress(path)
    index, view = lessons.tutorial_index(progress=app), lessons.progress_view(app)
    assert "✔" not in index.value
    assert not app.reload()  # nothing new
    lesson.visit("01-deck-and-counters")
    lesson.record("count_points", "crowsnest", 0, True)
    assert app.reload()
    assert index.value.count("✔") == 1 and "Count the points: 1 solved (1 answer checked)" in view.value
    path.write_text("{not json", "utf-8")
    assert not app.reload() and app.visited == ["01-deck-and-counters"]


def test_watch_counts_a_change_made_before_its_thread_first_runs(tmp_path, monkeypatch):
    # a busy machine can start the watching thread late: a change made meanwhile must still be seen
    from widgets import lesson_progress

    path = tmp_path / "progress.json"
    app, lesson = Progress(path), Progress(path)
    seen = threading.Event()
    app.on_change(seen.set)

    class LateThread(threading.Thread):
        def start(self):
            lesson.visit("04-trick-play")  # the other page writes before the thread runs
            super().start()

    monkeypatch.setattr(lesson_progress.threading, "Thread", LateThread)
    app.watch(every=0.05)
    try:
        assert seen.wait(10), "a change made while the watching thread was starting was missed"
    finally:
        app.stop_watching()


def test_watch_picks_up_another_pages_progress(tmp_path):
    path = tmp_path / "progress.json"
    app, lesson = Progress(path), Progress(path)
    seen = threading.Event()
    app.on_change(seen.set)
    app.watch(every=0.05)
    try:
        lesson.visit("03-nest-and-trump")
        assert seen.wait(10), "the watching Progress did not notice the file change"
        assert app.visited == ["03-nest-and-trump"]
    finally:
        app.stop_watching()
    assert not any(t.name == "rook-progress-watch" and t.is_alive() for t in threading.enumerate()
                   if t is not getattr(lessons.PROGRESS, "_watcher", None))


def test_app_links_open_lessons_in_a_new_tab():
    index = lessons.tutorial_index(base="tutorial/", progress=Progress(), new_tab=True)
    assert index.value.count("target='_blank' rel='noopener'") == len(lessons.LESSONS)
    assert "_blank" not in lessons.tutorial_index(progress=Progress()).value


def test_tutorial_index_links():
    index = lessons.tutorial_index(base="tutorial/", progress=Progress())
    links = re.findall(r"href='([^']+)'", index.value)
    assert links == [f"tutorial/{slug}.ipynb" for slug, _, _ in lessons.LESSONS]
    assert all((TUTORIAL / f"{slug}.ipynb").exists() for slug, _, _ in lessons.LESSONS)


def test_example_helpers():
    for fn, cls in [(lessons.show_deal, "rook-example-deal"), (lessons.show_trick, "rook-example-trick"),
                    (lessons.show_tally, "rook-example-tally"), (lessons.show_deck, "rook-example-deck"),
                    (lessons.show_hand, "rook-example-hand"), (lessons.counters_table, "rook-counters-table"),
                    (lessons.show_ai_walkthrough, "rook-ai-walkthrough")]:
        w = fn()
        assert isinstance(w, widgets.HTML) and cls in w._dom_classes and w.value
    table = lessons.rules_comparison()
    assert "Dixie Rook" in table.value and "The bird" in table.value


def test_game_end_examples_give_the_engine_s_verdict_at_the_rule_set_s_target():
    """Lesson 6's game-end lines: each verdict is `rookcore.game.game_winner`'s, at the rule set's own target unless
    one is named."""
    import dataclasses

    from rookcore.rules import get_rules

    scores = [(310, 305), (305, 305), (295, 330), (250, 280)]
    html = lessons.game_end_examples(scores).value
    assert "rook-game-end-examples" in lessons.game_end_examples(scores)._dom_classes
    assert re.findall(r"<li>(.*?)</li>", html) == [
        "N–S 310, E–W 305: N–S win", "N–S 305, E–W 305: play another hand",
        "N–S 295, E–W 330: E–W win", "N–S 250, E–W 280: play another hand"]
    low = dataclasses.replace(get_rules(), target=250)
    assert "N–S 250, E–W 280: E–W win" in lessons.game_end_examples(scores, rules=low).value
    assert "N–S 250, E–W 280: E–W win" in lessons.game_end_examples(scores, target=250).value
    assert "N–S 310, E–W 305: play another hand" in lessons.game_end_examples(scores, target=400).value


def test_rule_set_facts_show_the_engine_s_description():
    """The rule set's facts table is `Rules.describe`, every line of it, under the rule set's name."""
    from rookcore.rules import get_rules

    r = get_rules("dixie")
    html = lessons.rule_set_facts("dixie").value
    assert rules_title(r) in html
    for label, value in r.describe():
        row = f"<th style='text-align:start;padding-inline-end:1em'>{escape(label)}</th><td>{escape(value)}</td>"
        assert row in html


def test_the_blue_border_is_named_where_it_shows():
    """Each lesson picture with blue-bordered cards says what the border marks there."""
    assert "blue border: a counter" in lessons.show_deck().value
    assert "blue border: the card that wins the trick" in lessons.show_trick().value
    assert "blue border: the card that wins the trick" in lessons.show_worked_trick(
        trump="G", cards=["R14", "R5", "Crow", "G5"]).value
    assert "blue border: may be played (greyed: may not)" in lessons.show_legal().value
    trick = teaching.example_trick(None, 1, "plain")
    assert "blue border" not in lessons.trick_html(trick.rules, trick.leader, trick.cards)  # no winner shown


def test_notebooks_saved_without_outputs():
    for slug, _, _ in lessons.LESSONS:
        nb = json.loads((TUTORIAL / f"{slug}.ipynb").read_text("utf-8"))
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert code and all(not c.get("outputs") and c.get("execution_count") is None for c in code)
        assert "start_lesson" in "".join(code[0]["source"])


# ----- exercises never repeat a worked example shown on a lesson page
REACH = 200  # seeds a learner reaches from each exercise widget with "New exercise"
# lessons.* calls that draw no position an exercise could show (show_card: one card; its arguments may be variables)
NOT_EXAMPLES = {"start_lesson", "lesson_nav", "progress_view", "tutorial_index", "show_card"}
SPIED = ("make_exercise", "which_cards_legal", "trick_winner_exercise", "score_hand", "what_to_bid", "count_points",
         "example_deal", "example_trick", "worked_trick", "example_hand", "example_legal", "ai_walkthrough")


def _lesson_calls(slug):
    """The ``lessons.<name>(literal args)`` calls of a lesson notebook but NOT_EXAMPLES: [(name, args, kwargs)]."""
    nb = json.loads((TUTORIAL / f"{slug}.ipynb").read_text("utf-8"))
    calls = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "lessons"
                    and node.func.attr not in NOT_EXAMPLES):
                calls.append((node.func.attr, [ast.literal_eval(a) for a in node.args],
                              {k.arg: ast.literal_eval(k.value) for k in node.keywords}))
    return calls


def _positions(obj):
    """The positions a learner sees in ``obj`` (an exercise, or what a worked example was drawn from) as keys that
    are equal exactly when two things show the same position (the same question, whatever its wording)."""
    if isinstance(obj, tuple) and obj[0] == "walkthrough":  # ("walkthrough", variant, steps): every hand pictured
        return {("cards", obj[1], frozenset(st["hand"])) for st in obj[2]}
    v = obj.rules.variant
    if isinstance(obj, teaching.Exercise):
        if obj.kind == "which_cards_legal":
            return {("legal", v, obj.trump, obj.trick_leader, obj.trick, obj.seat, frozenset(obj.hand))}
        if obj.kind == "trick_winner":
            return {("trick", v, obj.trump, obj.trick_leader, obj.trick)}
        if obj.kind == "score_hand":  # the score follows from the bid, the declaring team and what each team took
            return {("score", v, obj.bid, obj.declarer & 1, obj.captured)}
        return {("cards", v, frozenset(obj.hand or obj.cards))}  # what_to_bid's hand, count_points' cards
    if type(obj).__name__ == "LegalExample":
        return {("legal", v, obj.trump, obj.trick_leader, obj.trick, obj.seat, frozenset(obj.hand))}
    if isinstance(obj, teaching.TrickExample):
        return {("trick", v, obj.trump, obj.leader, obj.cards)}
    if isinstance(obj, teaching.HandExample):  # the tally: the contract and what each team took, and every trick
        return ({("score", v, obj.bid, obj.declarer & 1, obj.captured)}
                | {("trick", v, obj.trump, leader, cards) for leader, cards, _w, _p in obj.tricks})
    if isinstance(obj, teaching.DealExample):
        return {("cards", v, frozenset(h)) for h in obj.hands}
    raise AssertionError(f"no position known for {obj!r}: teach this test what the learner sees in it")


@pytest.fixture(scope="module")
def tutorial_pages():
    """Every lesson's worked examples and exercise widgets: ({position key: "slug: call"}, [(slug, kind, rules,
    seed)]). The examples' positions are what the `rookcore.teaching` generators returned (spied on) while each
    ``lessons.show_*(...)`` call of the notebooks ran, so the test follows whatever the drawing functions use."""
    examples, on_pages, drawn = {}, [], []

    def spy(name):
        real = getattr(teaching, name)

        def wrapper(*args, **kwargs):
            out = real(*args, **kwargs)
            if name == "ai_walkthrough":
                rules = args[0] if args else kwargs.get("rules")
                drawn.append(("walkthrough", (rules if isinstance(rules, Rules) else get_rules(rules)).variant, out))
            else:
                drawn.append(out)
            return out
        return wrapper

    mp = pytest.MonkeyPatch()
    try:
        for name in SPIED:
            if hasattr(teaching, name):
                mp.setattr(teaching, name, spy(name))
        for slug, _, _ in lessons.LESSONS:
            for name, args, kwargs in _lesson_calls(slug):
                if name in ("ExerciseWidget", "exercise"):
                    spec = dict(zip(("kind", "rules", "seed"), args), **kwargs)
                    on_pages.append((slug, spec["kind"], spec.get("rules"), int(spec.get("seed", 0))))
                else:
                    drawn.clear()
                    getattr(lessons, name)(*args, **kwargs)
                    for obj in drawn:
                        for key in _positions(obj):
                            examples.setdefault(key, f"{slug}: lessons.{name}(*{args}, **{kwargs})")
    finally:
        mp.undo()
    return examples, on_pages


def test_the_lessons_show_worked_examples_and_exercises(tutorial_pages):
    """The check below has something to compare: worked examples of each position type, every exercise kind."""
    examples, on_pages = tutorial_pages
    assert {key[0] for key in examples} == {"legal", "trick", "score", "cards"}
    assert {kind for _, kind, _, _ in on_pages} == set(teaching.KINDS)


def test_no_exercise_repeats_a_worked_example(tutorial_pages):
    """Reported: lesson 4's "New exercise" gave the worked example above it, its answer printed. No exercise a
    learner reaches from any lesson's exercise widgets (the first REACH seeds of each) shows the position of a
    worked example on any lesson page."""
    examples, on_pages = tutorial_pages
    repeats = []
    for slug, kind, rules, seed in on_pages:
        w = ExerciseWidget(kind, rules=rules, seed=seed, progress=Progress())
        for _ in range(REACH):
            for key in _positions(w.exercise) & examples.keys():
                repeats.append(f"{slug}: {kind} #{w.seed} ({w.rules.variant}) repeats {examples[key]}")
            w.new_exercise()
    assert not repeats, "\n".join(repeats[:20])


@pytest.mark.slow
@pytest.mark.parametrize("slug", [s for s, _, _ in lessons.LESSONS])
def test_notebook_executes(slug):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(TUTORIAL / f"{slug}.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(TUTORIAL)}}).execute()


def test_checks_after_a_right_answer_are_not_counted_again():
    progress = Progress()
    w = ExerciseWidget("count_points", seed=2, progress=progress)
    _enter(w, w.exercise.answer)
    for _ in range(3):
        assert w.check().correct
    assert progress.attempts["count_points"] == 1 and progress.solved("count_points") == 1
    assert "counted once" in w.feedback.value


# ----- a Check counts once per answer
@pytest.mark.parametrize("kind", teaching.KINDS)
def test_a_double_click_on_check_counts_one_answer(kind):
    """Reported: a double click on Check counted two checked answers (progress.json count_points 5 after 4
    different answers). The same answer checked again for the same exercise is not counted again; another answer
    is; the rules for right after wrong (checked, not solved) stay."""
    progress = _CountingProgress()
    w = ExerciseWidget(kind, seed=2, progress=progress)
    _enter(w, _wrong(w.exercise))
    w.check_button.click()
    w.check_button.click()  # a double click
    assert progress.attempts[kind] == 1 and len(progress.recorded) == 1
    assert "rook-wrong" in w.feedback.value and "checked already" in w.feedback.value
    assert "rook-try-again" in w.feedback.value and w.wrong_tries == 1  # a double click is no second try
    assert not _solution_shown(w)
    _enter(w, w.exercise.answer)
    w.check_button.click()
    w.check_button.click()
    assert progress.attempts[kind] == 2 and progress.solved(kind) == 1  # right on the retry: solved
    _enter(w, _wrong(w.exercise))  # back to the first answer: already checked
    w.check_button.click()
    assert progress.attempts[kind] == 2
    w.new_exercise()  # a new exercise: its answers count afresh
    _enter(w, w.exercise.answer)
    w.check_button.click()
    w.check_button.click()
    assert progress.attempts[kind] == 3 and progress.solved(kind) == 2


def test_four_different_answers_count_four(tmp_path):
    """The report's numbers: four different answers, one of them double-clicked, are four checked answers in the
    progress file."""
    path = tmp_path / "progress.json"
    w = ExerciseWidget("count_points", seed=0, progress=Progress(path))
    right = w.exercise.answer
    for typed in (right + 5, right + 5, right + 10, right + 15, right, right):
        _enter(w, typed)
        w.check_button.click()
    assert json.loads(path.read_text("utf-8"))["attempts"] == {"count_points": 4}


@pytest.mark.parametrize("typed", ["-5", "-120", "\u221210"])
def test_a_negative_count_is_not_graded(typed):
    """Reported: the Count the points box asked for "e.g. 85 or -120", though points counted are never negative.
    A negative count gets a message saying so (and what to type, "e.g. 85"), is not graded and not recorded."""
    progress = _CountingProgress()
    w = ExerciseWidget("count_points", seed=0, progress=progress)
    _find(w, "rook-answer-points")[0].value = typed
    fb = w.check()
    assert not fb.correct and "never negative" in fb.message and "e.g. 85." in fb.message, fb.message
    assert "Wrong" not in fb.message and "or -120" not in fb.message and "rook-wrong" in w.feedback.value
    assert progress.recorded == [] and progress.attempts == {}
    assert w.points_box.placeholder == "e.g. 85"
    _enter(w, w.exercise.answer)
    assert w.check().correct and len(progress.recorded) == 1


# ----- what the lessons say about tricks is what the engine decides
def _worked_tricks(slug):
    """The tricks a lesson draws with ``lessons.show_worked_trick(...)``, as the engine decides them."""
    return [teaching.worked_trick(*args, **kwargs) for name, args, kwargs in _lesson_calls(slug)
            if name == "show_worked_trick"]


def _bird_against_a_trump(ex):
    """(the bird won?, the other trumps in the trick) for a worked trick holding the bird."""
    t = trick_tables(ex.rules, ex.trump)
    bird = teaching.BIRD
    assert bird in ex.cards, ex
    others = [c for c in ex.cards if c != bird and t.trump_power[c]]
    return ex.cards[(ex.winner - ex.leader) % 4] == bird, others


def test_lesson_5_shows_a_trump_beating_the_crow():
    """Reported: no example in lesson 5 showed the Crow (the lowest trump) losing to another trump; rules.md §4:
    CrowsNest, trump G, lead R14; R5, Crow, G5: the G5 wins."""
    shown = [ex for ex in _worked_tricks("05-winning-tricks") if teaching.BIRD in ex.cards]
    assert any(not won and others for won, others in map(_bird_against_a_trump, shown)), shown
    assert all(ex.rules.variant == "crowsnest" for ex in shown)


def test_lesson_7_shows_the_rook_beating_other_trumps():
    """Reported: under "In Tournament the Rook beats every trump" lesson 7 showed a trick where the Rook was the only
    trump. Its Tournament tricks now hold other trumps, the colour's highest card among them, and the Rook wins."""
    shown = [ex for ex in _worked_tricks("07-the-classic-rule-sets") if ex.rules.variant == "tournament"]
    assert shown
    for ex in shown:
        won, others = _bird_against_a_trump(ex)
        assert won and others, ex
    top = {c.number for ex in shown for c in _bird_against_a_trump(ex)[1]}
    assert shown[0].rules.order[0] in top  # the highest number of a colour (14) loses to the Rook too
    cells = _page_cells("07-the-classic-rule-sets")
    i = next(i for i, (text, kind) in enumerate(cells) if kind == "prose" and "beats every other trump" in text)
    assert "show_worked_trick(\"tournament\"" in cells[i + 1][0]  # the claim is followed by its example


def _page_cells(slug):
    """A lesson page's cells in order as (text, kind): a prose cell (``lessons.prose(slug, k)``) as its English
    markdown (`rookcore.lesson_text`, kind "prose"), any other cell as its code (kind "code")."""
    from rookcore import lesson_text  # noqa: PLC0415

    nb = json.loads((TUTORIAL / f"{slug}.ipynb").read_text("utf-8"))
    cells = []
    for cell in nb["cells"]:
        code = "".join(cell["source"])
        call = ast.parse(code).body[0].value if code.startswith("lessons.prose(") else None
        cells.append((lesson_text.part_text(slug, ast.literal_eval(call.args[1])), "prose") if call else (code, "code"))
    return cells


def test_lesson_7_says_plainly_how_the_1_high_rook_is_played():
    """Reported: "an ordinary card (it cannot be played at any time)" read as "can never be played". rules.md §2-§3:
    in 1-High the Rook is the lowest trump and, by default, follows suit like any trump."""
    text = " ".join(text for text, kind in _page_cells("07-the-classic-rule-sets") if kind == "prose")
    one_high = " ".join(text.split("**1-High Partnership**", 1)[1].split("* **", 1)[0].split())
    assert "cannot be played at any time" not in one_high
    assert "lowest trump" in one_high and "follows suit like any other trump" in one_high
    assert "only if you have no card of that colour" in one_high
