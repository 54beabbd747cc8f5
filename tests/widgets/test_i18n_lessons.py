"""The eight lessons in the learner's language (issue 26): a lesson page opened with ``?lang=xx`` (the pseudo-locale)
shows no English word — its prose, live examples, exercises (asked, answered wrong, then right, and on Show answer),
feedback, the AI's sentences, navigation and progress — card codes and numbers aside; the page's language comes from its link as the app reads it; the Learn tab's links carry the app's language;
Persian pages read right to left."""
from __future__ import annotations

import ast
import json
import pathlib
import re

import ipywidgets as w
import pytest

from rookcore import i18n, lesson_text, teaching
from widgets import lesson_page, lessons
from widgets.app import build_app
from widgets.card_picker import CardPicker
from widgets.lessons import ExerciseWidget, Progress

from test_i18n_app import _english_words, _text, _walk, _words_of  # the Play panel's checker (same folder)
from test_lessons import _enter, _wrong

pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py

TUTORIAL = pathlib.Path(__file__).resolve().parents[2] / "notebooks" / "tutorial"
SLUGS = [slug for slug, _t, _s in lessons.LESSONS]
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)  # card pictures: codes and numbers drawn on cards


@pytest.fixture(autouse=True)
def _english_after():
    yield
    lessons.set_page_language(None)


def _texts(widget) -> list[str]:
    """What a lesson widget tree shows (`test_i18n_app._words_of`), card pictures aside (the AI's sentences too are said in the lesson's language); a
    card picker's row label and captions (the cards' spoken names are their pictures' names)."""
    texts = []
    for x in _walk(widget):
        if getattr(x, "children", None):
            continue
        if isinstance(x, w.HTML):
            texts.append(_text(_SVG.sub(" ", x.value)))
        elif isinstance(x, CardPicker):
            texts += [x.label] + [c["caption"] for c in x.cards]
        else:
            texts += _words_of(x)
    return [t for t in texts if t.strip()]


def _cells(slug: str) -> list[str]:
    """The code of each cell of lesson ``slug`` after its set-up cell (each one expression)."""
    nb = json.loads((TUTORIAL / f"{slug}.ipynb").read_text("utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"][1:]


def _run_lesson(slug: str, query: str) -> list:
    """Open lesson ``slug`` with the link's ``query`` and build each of its cells' widgets, as the page does."""
    progress = Progress()
    shown = [lesson_page.start_lesson(slug, query=query, progress=progress)]
    for code in _cells(slug):
        tree = ast.parse(code, mode="eval")  # every cell is one expression: Voila shows its widget
        value = eval(compile(tree, slug, "eval"), {"lessons": lessons, "ipw": w})  # noqa: S307 - our notebooks
        if isinstance(value, ExerciseWidget):
            value.progress = progress
        shown.append(value)
    return shown


def _answer_each(widgets_shown) -> list[str]:
    """Answer every exercise on the page wrong, then right (the feedback's texts after each), then Show answer on a
    new exercise; returns the texts seen."""
    seen = []
    for ex in [x for x in widgets_shown if isinstance(x, ExerciseWidget)]:
        _enter(ex, _wrong(ex.exercise))
        assert not ex.check().correct
        seen += _texts(ex)
        _enter(ex, ex.exercise.answer)
        assert ex.check().correct
        seen += _texts(ex)
        ex.new_exercise()
        ex.check()  # nothing entered, or a box left empty: it says what to enter
        seen += _texts(ex)
        ex.show_answer()
        seen += _texts(ex)
    return seen


@pytest.mark.parametrize("slug", SLUGS)
def test_pseudo_locale_lesson_has_no_english(slug):
    """Lesson ``slug`` in the pseudo-locale: everything it shows, and every exercise's feedback (wrong, right, a
    missing answer, the answer shown), has no English word, card codes and numbers aside."""
    shown = _run_lesson(slug, "?lang=xx")
    seen = [t for x in shown for t in _texts(x)] + _answer_each(shown)
    assert len(seen) > 10
    leftover = _english_words(seen)
    assert not leftover, leftover[:8]
    assert any("⟦" in t for t in seen)


def test_every_prose_part_is_on_its_page():
    """Each lesson draws every part of its prose once, in order (the notebooks have no markdown left)."""
    for slug in SLUGS:
        calls = [ast.literal_eval(ast.parse(c, mode="eval").body.args[1]) for c in _cells(slug)
                 if c.startswith("lessons.prose(")]
        assert calls == list(range(1, lesson_text.parts(slug) + 1)), slug
        nb = json.loads((TUTORIAL / f"{slug}.ipynb").read_text("utf-8"))
        assert all(c["cell_type"] == "code" for c in nb["cells"]), slug


def test_english_prose_is_the_lesson_text():
    html = lessons.prose("04-following-suit-and-the-bird", 1).value
    assert "<h1>Lesson 4 — Following suit and the Crow</h1>" in html
    assert "<strong>The main rule: follow suit.</strong>" in html and "<li>you may play the Crow" in html


def test_lesson_language_from_the_link_as_the_app_reads_it():
    head = lesson_page.start_lesson("05-winning-tricks", query="?lang=de", progress=Progress())
    assert lessons.page_language() == "de"
    assert "Lektion 05 von 8" in head.children[-1].value
    assert "Stich" in lessons.prose("04-following-suit-and-the-bird", 1).value
    nav = lessons.lesson_nav("05-winning-tricks").value
    assert "04-following-suit-and-the-bird.ipynb?lang=de" in nav and "06-scoring-and-game-end.ipynb?lang=de" in nav
    ex = ExerciseWidget("trick_winner", seed=0, progress=Progress())
    assert ex.check_button.description == "Prüfen"
    with i18n.using("en"):  # the widget keeps its page's language in its callbacks
        _enter(ex, _wrong(ex.exercise))
        ex.check()
    assert "Nicht ganz" in ex.feedback.value


def test_unknown_lang_gives_a_note_and_english():
    head = lesson_page.start_lesson("01-deck-and-counters", query="?lang=zz", progress=Progress())
    notes = [x for x in head.children if "rook-link-message" in x._dom_classes]
    assert len(notes) == 1 and "?lang=" in notes[0].value and "English" in notes[0].value
    assert lessons.page_language() == "en" and "Lesson 01 of 8" in head.children[-1].value
    assert lessons.lesson_nav("01-deck-and-counters").value.count("?lang=") == 0
    plain = lesson_page.start_lesson("01-deck-and-counters", query="", progress=Progress())
    assert not [x for x in plain.children if "rook-link-message" in x._dom_classes]


def test_persian_lesson_reads_right_to_left_with_cards_left_to_right():
    shown = _run_lesson("05-winning-tricks", "?lang=fa")
    assert "direction: rtl" in shown[0].children[0].value
    for x in shown[1:]:
        assert "rook-rtl" in x._dom_classes, x
    trick = next(x for x in shown if "rook-example-trick" in x._dom_classes).value
    assert "class='rook-ltr'" in trick  # the trick's cards in play order, left to right
    ex = next(x for x in shown if isinstance(x, ExerciseWidget))
    assert i18n.LRI in ex.prompt.value  # card codes isolated left to right inside the Persian sentence
    assert "←" in lessons.lesson_nav("05-winning-tricks").value.split("|")[-1]  # "next" points left


def test_learn_tab_links_carry_the_app_language():
    app = build_app(query="?lang=cs")
    index = next(x for x in _walk(app.learn) if "rook-tutorial-index" in getattr(x, "_dom_classes", ()))
    assert "tutorial/01-deck-and-counters.ipynb?lang=cs" in index.value
    with i18n.using("cs"):
        assert lesson_text.title("01-deck-and-counters") in index.value
    app.set_language("de")
    index = next(x for x in _walk(app.learn) if "rook-tutorial-index" in getattr(x, "_dom_classes", ()))
    assert "?lang=de" in index.value and "?lang=cs" not in index.value
    app.set_language("en")
    index = next(x for x in _walk(app.learn) if "rook-tutorial-index" in getattr(x, "_dom_classes", ()))
    assert "?lang=" not in index.value and "The deck and the counters" in index.value


def test_pseudo_locale_learn_tab_has_no_english():
    """The app's Learn tab in the pseudo-locale: lesson titles, summaries, progress lines — no English word."""
    app = build_app(query="?lang=xx")
    texts = _texts(app.learn)
    assert len(texts) >= 3 and not _english_words(texts), _english_words(texts)[:8]
