"""Tutorial widgets: interactive exercises, live examples, progress and the lesson index.

No rule logic lives here: exercises, answers, feedback and examples all come from
`rookcore.teaching` (and through it from the engine). This module only draws them.

Main pieces::

    from widgets import lessons
    lessons.start_lesson("04-following-suit-and-the-bird")   # marks the lesson visited
    lessons.ExerciseWidget("which_cards_legal", rules="crowsnest", seed=3)
    lessons.show_deal(seed=1); lessons.show_trick(seed=2); lessons.show_tally(seed=3)
    lessons.show_worked_trick("tournament", trump="G", cards=["R14", "R5", "Rook", "G5"])
    lessons.progress_view(); lessons.tutorial_index(base="tutorial/")

Stable hooks (CSS classes via ``add_class``) for tests:

=================================  ==============================================================
element                            class / description
=================================  ==============================================================
an exercise                        ``rook-exercise`` and ``rook-exercise-<kind>``
its prompt / position              ``rook-prompt`` / ``rook-position``
answer cards (which cards may be    `widgets.card_picker.CardPicker`, class ``rook-answer-cards``: the card
played; who wins the trick)        pictures themselves are the buttons (``button.rook-cp-card``, ``data-code``
                                   "R9", ``aria-label`` naming the card, ``aria-pressed`` / class ``picked``
                                   when picked); in a trick each card's caption names its seat ("N (led)")
score boxes                        Text, classes ``rook-answer-ns`` / ``rook-answer-ew`` (whole numbers)
bid dropdown                       Dropdown, class ``rook-answer-bid`` (options "Pass", "70", ...)
points box                         Text, class ``rook-answer-points`` (a whole number, never negative)
Check / Show answer / New          Buttons "Check" (``rook-check``), "Show answer" (``rook-show-answer``),
exercise                           "New exercise" (``rook-new-exercise``)
feedback                           HTML ``rook-feedback``; inside ``<div class="rook-right">`` (green),
                                   ``<div class="rook-wrong">`` (red; ``rook-try-again`` too on a first wrong
                                   try) or ``<div class="rook-shown">`` (blue: the answer on request); the
                                   rule broken in ``rook-rule``, the solution (when shown) in ``rook-solution``
progress                           ``rook-progress``; tutorial index ``rook-tutorial-index``
=================================  ==============================================================

Answers as a teacher takes them (`ExerciseWidget`): a first wrong answer gets the rule it broke
(`teaching.Feedback.rule`) and "Try again", the exercise stays open; the solution is shown after a second wrong
answer, or at once on "Show answer". An exercise answered right before its solution was shown counts as solved, on
the first try or a later one; once the solution was shown, a right answer counts as an answer checked, not as
solved (the learner was told it), and "Show answer" itself records nothing. "New exercise" starts afresh.

Language (issue 26): every builder here draws in `page_language` (the active `rookcore.i18n` language, else the lesson
page's, set by `widgets.lesson_page.start_lesson` from ``?lang=``), and an `ExerciseWidget` answers in the language it
was built in; the prose comes from `rookcore.lesson_text` (`prose`), the exercises' words from `rookcore.teaching`;
links to lessons carry the language (`link_query`); a right-to-left language adds ``rook-rtl`` (`RTL_STYLE`).

Progress lives in `PROGRESS` (a `widgets.lesson_progress.Progress`), saved to a JSON file (`progress_path`:
``$ROOK_PROGRESS_FILE``, else ``~/.crowsnest-rook/progress.json``) after every change, so that lesson pages (each a
Voila page with its own kernel) and the app's Learn tab share it; ``ROOK_PROGRESS_FILE=""`` keeps it in memory only.
"""
from __future__ import annotations

import functools
import os
import pathlib
from html import escape

import ipywidgets as widgets

from rookcore import i18n, learners, lesson_text, teaching
from rookcore.i18n import _, ngettext
from widgets.lesson_examples import (counters_table, game_end_examples, rule_set_facts, rules_comparison,
                                     show_ai_walkthrough, show_card, show_cards, show_deal, show_deck, show_hand,
                                     show_legal, show_tally, show_trick, show_worked_trick)
from widgets.lesson_exercise import (FEEDBACK_STYLES, FRESH_ONE, KIND_TITLES, NOT_COUNTED, RIGHT_COLOUR, SHOWN_COLOUR,
                                     TRY_AGAIN, WRONG_COLOUR, ExerciseWidget, exercise)
from widgets.lesson_look import (RTL_STYLE, _html, _in_page_language, _rtl, link_query, page_language,
                                 set_page_language, set_page_progress, trick_html, trump_badge)
from widgets.lesson_progress import Progress

__all__ = [
    "TUTORIAL_RULES", "LESSONS", "LESSON_TITLES", "DONE_MARK", "TODO_MARK", "LINK_STYLE", "RTL_STYLE",
    "set_page_language", "page_language", "link_query",
    "PROGRESS_FILE_ENV", "PROGRESS", "Progress", "shared_progress", "progress_path", "use_learner_progress",
    "start_lesson", "prose", "progress_view", "tutorial_index", "lesson_nav",
    "KIND_TITLES", "RIGHT_COLOUR", "WRONG_COLOUR", "SHOWN_COLOUR", "FRESH_ONE", "TRY_AGAIN", "NOT_COUNTED",
    "FEEDBACK_STYLES", "ExerciseWidget", "exercise",
    "show_card", "show_cards", "show_deck", "counters_table", "rule_set_facts", "game_end_examples", "show_deal",
    "show_hand", "show_trick", "show_worked_trick", "show_legal", "show_tally", "rules_comparison",
    "show_ai_walkthrough", "trump_badge", "trick_html",
]

TUTORIAL_RULES = "crowsnest"
"""The rule set the lessons teach (the app's default; lesson 7 compares the others): a lesson title names its bird
as this rule set does ("the Crow"), as the lesson and the app do."""
LESSONS: tuple[tuple[str, str, str], ...] = lesson_text.LESSONS
"""The lessons in order: (slug, title, summary) in English (`rookcore.lesson_text`; shown translated)."""
LESSON_TITLES = {slug: title for slug, title, _s in LESSONS}
DONE_MARK = "<span style='color:#2e7d32'>✔</span>"  # characters of the common fonts (DejaVu), not emoji
TODO_MARK = "<span style='color:#9e9e9e'>☐</span>"
LINK_STYLE = "color:#1565c0;text-decoration:underline"  # widget HTML shows links as plain text otherwise


PROGRESS_FILE_ENV = "ROOK_PROGRESS_FILE"


def shared_progress() -> pathlib.Path:
    """The one progress file of earlier releases (and of a server that keeps no learner's game):
    ``~/.crowsnest-rook/progress.json``."""
    return pathlib.Path.home() / ".crowsnest-rook" / "progress.json"


def progress_path() -> pathlib.Path | None:
    """Where `PROGRESS` is kept when a page opens: ``$ROOK_PROGRESS_FILE`` if set (empty: None, in memory only);
    else, when each learner's games are kept (`rookcore.learners.learners_dir`), in memory until the page knows
    its learner (`use_learner_progress`: then ``learners/<id>/progress.json``, issue 27); else `shared_progress`."""
    if PROGRESS_FILE_ENV in os.environ:
        return pathlib.Path(os.environ[PROGRESS_FILE_ENV]) if os.environ[PROGRESS_FILE_ENV] else None
    return None if learners.learners_dir() is not None else shared_progress()


def use_learner_progress(learner_id: str) -> None:
    """Keep `PROGRESS` in the learner's own folder from now on (``learners/<id>/progress.json``, beside their
    kept game: `rookcore.learners.learner_dir`), so each learner of a class sees and changes only their own
    progress; the first learner takes over the shared file of earlier releases (`shared_progress`), once. Nothing
    changes when ``$ROOK_PROGRESS_FILE`` names the file or nothing is kept for learners. Raises nothing (a bad id
    or an unwritable folder: the progress stays where it is)."""
    if PROGRESS_FILE_ENV in os.environ or learners.learners_dir() is None:
        return
    try:
        target, shared = learners.learner_dir(learner_id) / "progress.json", shared_progress()
        if not target.exists() and shared.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(shared, target)  # one learner takes it over; nobody else sees it again
    except (ValueError, OSError):
        return
    PROGRESS.move_to(target)


PROGRESS = Progress(progress_path())
set_page_progress(lambda: PROGRESS)  # the exercises built without a progress record here


@_in_page_language
def start_lesson(slug: str, progress: Progress | None = None) -> widgets.HTML:
    """Mark lesson ``slug`` visited and return a small header with its number and title (in `page_language`).
    Raises nothing for an unknown slug (its slug is shown as the title)."""
    (progress or PROGRESS).visit(slug)
    title = _(LESSON_TITLES[slug]) if slug in LESSON_TITLES else slug
    number = slug.split("-", 1)[0]
    text = _("Lesson {number} of {total}: {title}", number=number, total=len(LESSONS), title="\0")
    return _html("<div style='color:#555'>" + escape(text).replace("\0", f"<b>{escape(title)}</b>") + "</div>",
                 "rook-lesson-header")


@_in_page_language
def prose(slug: str, part: int) -> widgets.HTML:
    """Part ``part`` (1-based, page order) of lesson ``slug``'s prose (`rookcore.lesson_text`) in `page_language`,
    its markdown drawn as HTML (class ``rook-prose``). Raises KeyError for an unknown slug, IndexError for a part
    the lesson does not have."""
    html = _markdown(lesson_text.part_text(slug, part))
    return _html(f"<div class='rook-prose-text'>{html}</div>", "rook-prose")


@functools.lru_cache(maxsize=1)
def _markdown_parser():
    import mistune  # noqa: PLC0415 - only the lesson pages draw markdown

    return mistune.create_markdown(escape=True)


def _markdown(text: str) -> str:
    """``text`` (markdown) as HTML (mistune; raw HTML in it is escaped, not run)."""
    return _markdown_parser()(text)


def _progress_html(progress: Progress) -> str:
    rows = []
    for slug, title, _summary in LESSONS:
        done = slug in progress.visited
        rows.append(f"<li>{DONE_MARK if done else TODO_MARK} {escape(_(title))}</li>")
    ex_rows = []
    for kind in teaching.KINDS:
        n, tries = progress.solved(kind), progress.attempts.get(kind, 0)
        mark = DONE_MARK if n else TODO_MARK
        checked = ngettext("{count} answer checked", "{count} answers checked", tries, count=tries)
        line = ngettext("{kind}: {count} solved ({checked})", "{kind}: {count} solved ({checked})", n,
                        kind=_(KIND_TITLES[kind]), count=n, checked=checked)
        ex_rows.append(f"<li>{mark} {escape(line)}</li>")
    visited = ngettext("({count} of {total} lesson visited)", "({count} of {total} lessons visited)", len(LESSONS),
                       count=len(progress.visited), total=len(LESSONS))
    heading, exercises = _("Your progress"), _("Exercises")
    return (f"<div><b>{escape(heading)}</b> {escape(visited)}"
            f"<ul style='list-style:none;padding-left:0.5em;margin:0.2em 0'>{''.join(rows)}</ul>"
            f"<b>{escape(exercises)}</b><ul style='list-style:none;padding-left:0.5em;margin:0.2em 0'>"
            f"{''.join(ex_rows)}</ul></div>")


@_in_page_language
def progress_view(progress: Progress | None = None) -> widgets.HTML:
    """An HTML widget (class ``rook-progress``) listing lessons visited and exercises solved, in `page_language`; it
    updates live (in the same language)."""
    progress = progress or PROGRESS
    view = _html(_progress_html(progress), "rook-progress")
    lang = i18n.current()

    def refresh() -> None:
        with i18n.using(lang):
            view.value = _progress_html(progress)
    progress.on_change(refresh)
    return view


@_in_page_language
def tutorial_index(base: str = "", progress: Progress | None = None, new_tab: bool = False) -> widgets.HTML:
    """The lessons as links (class ``rook-tutorial-index``), a ✔ after each lesson visited (kept up to date), in
    `page_language`; each link carries that language (``?lang=de``, `link_query`), so the lesson opens in it.

    ``base`` is prepended to ``NN-name.ipynb``: use ``""`` from a lesson page (siblings) and
    ``"tutorial/"`` from ``notebooks/app.ipynb``. Relative links work wherever Voila serves the
    notebooks directory (``voila notebooks/`` → ``/voila/render/tutorial/NN-name.ipynb``). ``new_tab``: the links
    open a new browser tab (the app's, so that leaving for a lesson does not end the game in play).
    """
    progress = progress or PROGRESS
    target = "target='_blank' rel='noopener'" if new_tab else "target='_self'"
    lang = i18n.current()
    query = link_query(lang.lang)

    def html() -> str:
        with i18n.using(lang):
            items = []
            for slug, title, summary in LESSONS:
                mark = f" {DONE_MARK}" if slug in progress.visited else ""
                link = (f"<a href='{escape(base)}{slug}.ipynb{query}' {target} style='{LINK_STYLE}'>"
                        f"{escape(_(title))}</a>")
                items.append(f"<li>{link}{mark}"
                             f"<br><span style='color:#555'>{escape(_(summary))}</span></li>")
            heading = _("Rook tutorial")
            return f"<div><b>{escape(heading)}</b><ol>{''.join(items)}</ol></div>"

    view = _html(html(), "rook-tutorial-index")
    progress.on_change(lambda: setattr(view, "value", html()))
    return view


@_in_page_language
def lesson_nav(slug: str) -> widgets.HTML:
    """Links to the previous / next lesson (class ``rook-lesson-nav``), titled in `page_language` and carrying it
    (``?lang=de``). Raises ValueError for an unknown slug."""
    slugs = [s for s, _t, _s in LESSONS]
    i = slugs.index(slug)
    parts = []
    query = link_query()

    def link(other: str, text: str) -> str:
        return f"<a href='{other}.ipynb{query}' target='_self' style='{LINK_STYLE}'>{text}</a>"

    back, on = ("→", "←") if _rtl() else ("←", "→")  # read from the right, "back" points right
    if i > 0:
        parts.append(link(slugs[i - 1], f"{back} {escape(_(LESSON_TITLES[slugs[i - 1]]))}"))
    if i + 1 < len(slugs):
        parts.append(link(slugs[i + 1], f"{escape(_(LESSON_TITLES[slugs[i + 1]]))} {on}"))
    return _html(" &nbsp;|&nbsp; ".join(parts), "rook-lesson-nav")
