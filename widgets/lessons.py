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
from typing import Any, Callable

import ipywidgets as widgets

from rookcore import i18n, learners, lesson_text, teaching
from rookcore.cards import Card
from rookcore.i18n import N_, _, ngettext, pgettext
from rookcore.words import card_text, colour_name, rules_title, seat_name, team_name
from rookcore.game import game_winner
from rookcore.hand import SEATS, team_of
from rookcore.rules import VARIANTS, Rules, get_rules
from widgets.card_picker import CardPicker
from widgets.lesson_progress import Progress
from widgets.cards import PALETTE, border_legend, card_label, card_svg, hand_svg

TUTORIAL_RULES = "crowsnest"
"""The rule set the lessons teach (the app's default; lesson 7 compares the others): a lesson title names its bird
as this rule set does ("the Crow"), as the lesson and the app do."""
LESSONS: tuple[tuple[str, str, str], ...] = lesson_text.LESSONS
"""The lessons in order: (slug, title, summary) in English (`rookcore.lesson_text`; shown translated)."""
LESSON_TITLES = {slug: title for slug, title, _s in LESSONS}
DONE_MARK = "<span style='color:#2e7d32'>✔</span>"  # characters of the common fonts (DejaVu), not emoji
TODO_MARK = "<span style='color:#9e9e9e'>☐</span>"
LINK_STYLE = "color:#1565c0;text-decoration:underline"  # widget HTML shows links as plain text otherwise
KIND_TITLES = {
    "which_cards_legal": N_("Which cards may be played?"),
    "trick_winner": N_("Who wins the trick?"),
    "score_hand": N_("Score the hand"),
    "what_to_bid": N_("What to bid"),
    "count_points": N_("Count the points"),
}
"""Each exercise kind's title in English (the message ids; shown with ``_(...)``)."""
RIGHT_COLOUR, WRONG_COLOUR, SHOWN_COLOUR = "#1b5e20", "#b71c1c", "#0d47a1"
FRESH_ONE = N_("New exercise gives a fresh one.")
TRY_AGAIN = N_("Try again: change your answer and press Check (or Show answer).")
NOT_COUNTED = N_("Not counted as solved: the answer was shown.")
FEEDBACK_STYLES = {  # style: (classes, text and border colour, background, mark)
    "right": ("rook-right", RIGHT_COLOUR, "#e8f5e9", "✔"),
    "wrong": ("rook-wrong", WRONG_COLOUR, "#ffebee", "✘"),
    "retry": ("rook-wrong rook-try-again", WRONG_COLOUR, "#ffebee", "✘"),
    "shown": ("rook-shown", SHOWN_COLOUR, "#e3f2fd", "→"),
}
RTL_STYLE = ("<style>.rook-rtl {direction: rtl; text-align: right}"
             ".rook-rtl .rook-ltr, .rook-rtl svg, .rook-rtl .rook-answer-cards, .rook-rtl input {direction: ltr}"
             ".rook-rtl .rook-ltr {text-align: right; justify-content: flex-end}"
             ".rook-rtl .rook-answer-cards .rook-cp-row {justify-content: flex-end}"
             ".rook-rtl .widget-label, .rook-rtl .widget-label-basic {text-align: left}"
             # the AI's own sentences (rookcore.ai) take the direction of their own words
             ".rook-rtl .rook-ai-action, .rook-rtl .rook-ai-explanation {unicode-bidi: plaintext}</style>")
"""A right-to-left lesson page (Persian): every lesson widget has the class ``rook-rtl`` (`_html`) and reads from
the right; card pictures, rows of cards (class ``rook-ltr``; the answer cards) and number boxes keep their left-to-right
order, set against the right edge where the page's lines start."""

_page = {"lang": None}  # the lesson page's language (`set_page_language`); one page per kernel under Voila


def set_page_language(lang: str | None) -> str:
    """Make ``lang`` (a `rookcore.i18n` code; None or unknown: English) the language of this lesson page: every
    widget this module builds from now on is drawn in it and its buttons answer in it. Returns the code used."""
    _page["lang"] = i18n.normalize(lang)
    i18n.set_language(_page["lang"])
    return _page["lang"]


def page_language() -> str:
    """The language lesson widgets are drawn in: the active `rookcore.i18n` language when one is chosen (the app's
    Learn tab builds its parts inside ``i18n.using``), else the page's (`set_page_language`), else "en"."""
    current = i18n.current_language()
    if current != i18n.SOURCE:
        return current
    return _page["lang"] or i18n.SOURCE


def _in_page_language(fn: Callable) -> Callable:
    """Run a widget builder in `page_language` (`rookcore.i18n.using`)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with i18n.using(page_language()):
            return fn(*args, **kwargs)
    return wrapper


def _rtl() -> bool:
    return i18n.current().direction == "rtl"


def link_query(lang: str | None = None) -> str:
    """The query string a lesson link carries for the language ``lang`` (default: the active one): ``"?lang=de"``,
    or ``""`` for English (a link without it opens in English)."""
    code = i18n.normalize(lang if lang is not None else i18n.current_language())
    return "" if code == i18n.SOURCE else f"?lang={code}"


# --------------------------------------------------------------------------- progress
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


# --------------------------------------------------------------------------- drawing helpers
def _html(value: str, cls: str | None = None) -> widgets.HTML:
    """An HTML widget with class ``cls``, and ``rook-rtl`` when the active language reads right to left."""
    w = widgets.HTML(value)
    if cls:
        w.add_class(cls)
    if _rtl():
        w.add_class("rook-rtl")
    return w


def _rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return get_rules()
    return get_rules(rules) if isinstance(rules, str) else rules


def _svg_opts(rules: Rules) -> dict:
    return {"bird_name": rules.bird_name, "red_one": rules.red_one}


def _label(rules: Rules, card: Card) -> str:
    """A card as the lessons name it: its code ("R14"), the bird and the Red 1 in words of the active language."""
    return card_text(rules, card)


def trump_badge(trump: str) -> str:
    """HTML badge naming the trump colour (in the active language)."""
    words = _("Trump: {colour}", colour=colour_name(trump))
    return (f"<span style='background:{PALETTE[trump]};color:white;padding:2px 8px;border-radius:8px'>"
            f"{escape(words)}</span>")


def trick_html(rules: Rules, leader: int, cards, winner: int | None = None, width: int = 60) -> str:
    """The trick as a row of cards, each labelled with its seat ("led" on the first; the winner highlighted, with a
    `border_legend` saying so). Returns an HTML fragment (str)."""
    cells = []
    for i, card in enumerate(cards):
        seat = (leader + i) % 4
        tag = _seat_tag(seat, led=i == 0, wins=seat == winner)
        cells.append(f"<div style='text-align:center;margin:0 4px'>"
                     f"{card_svg(card, width=width, highlight=seat == winner, **_svg_opts(rules))}"
                     f"<div style='font-size:12px'>{escape(tag)}</div></div>")
    meaning = _("the card that wins the trick")
    legend = f"<div style='margin-top:2px'>{border_legend(meaning)}</div>" if winner is not None else ""
    return f"<div class='rook-ltr' style='display:flex;align-items:flex-end'>{''.join(cells)}</div>{legend}"


def _seat_tag(seat: int, led: bool = False, wins: bool = False) -> str:
    """A card's caption in a trick: its seat ("N"), "(led)" on the first card, "— wins" on the winner's."""
    name = seat_name(seat)
    if led and wins:
        return _("{seat} (led) — wins", seat=name)
    if led:
        return _("{seat} (led)", seat=name)
    return _("{seat} — wins", seat=name) if wins else name


# --------------------------------------------------------------------------- the exercise widget
class ExerciseWidget(widgets.VBox):
    """One interactive exercise: the position, answer controls, Check / Show answer / New exercise, feedback.

    Answers are taken as a teacher takes them (rules.md §1–§3 through `rookcore.teaching`): a first wrong answer gets
    the rule it broke and "Try again" (the exercise stays open); a second wrong answer, or "Show answer", shows the
    solution. A right answer given before the solution was shown is solved (recorded as solved in the progress,
    whichever try it was); after the solution was shown a right answer is recorded as checked, not solved, and "Show
    answer" records nothing. Cards are answered by tapping their pictures (`widgets.card_picker.CardPicker`).

    Args: ``kind`` (str) one of `rookcore.teaching.KINDS`; ``rules`` (Rules | str | None) a Rules or variant name
    (None = CrowsNest); ``seed`` (int) the first exercise's seed ("New exercise" moves to the next seed; never shown);
    ``progress`` (Progress | None) the tracker (default `PROGRESS`); ``number`` (int) the learner-facing number in the
    title, the exercise's place on its page ("Exercise 2: …"; a whole number from 1).
    Attributes: ``exercise`` (the current `teaching.Exercise`), ``seed``, ``number``, ``last_feedback`` (the last
    `teaching.Feedback` shown, or None: its ``message`` is the text shown, its ``solution`` the solution shown with it,
    "" while it is kept back), ``wrong_tries`` (different wrong answers checked in this exercise), ``revealed``
    (its solution was shown), ``done`` (answered right), ``card_picker`` (the card pictures to tap, or None).
    Raises teaching.ExerciseError for an unknown ``kind`` or a ``number`` that is not a whole number from 1.
    """

    def __init__(self, kind: str, rules: Rules | str | None = None, seed: int = 0,
                 progress: Progress | None = None, number: int = 1, **kwargs: Any) -> None:
        if kind not in teaching.KINDS:
            raise teaching.ExerciseError(f"unknown exercise kind {kind!r} (known: {', '.join(teaching.KINDS)})")
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise teaching.ExerciseError(f"an exercise's number is a whole number from 1, not {number!r}")
        super().__init__(**kwargs)
        self.lang = page_language()
        with i18n.using(self.lang):
            self._build(kind, rules, seed, progress, number)

    def _build(self, kind: str, rules: Rules | str | None, seed: int, progress: Progress | None,
               number: int) -> None:
        """Make the widget's parts (in the active language) and draw the first exercise."""
        self.kind = kind
        self.number = number
        self.rules = _rules(rules)
        self.seed = self.first_seed = int(seed)
        self.progress = progress or PROGRESS
        self.last_feedback: teaching.Feedback | None = None
        self.title = _html("", "rook-exercise-title")
        self.prompt = _html("", "rook-prompt")
        self.position = _html("", "rook-position")
        self.controls = widgets.VBox()
        self.controls.add_class("rook-answer")
        self.check_button = self._button(_("Check"), "rook-check", self.check, button_style="primary")
        self.show_button = self._button(_("Show answer"), "rook-show-answer", self.show_answer,
                                        tooltip=_("Show the solution (the exercise then no longer counts as "
                                                  "solved)"))
        self.new_button = self._button(_("New exercise"), "rook-new-exercise", self.new_exercise)
        self.feedback = _html("", "rook-feedback")
        self.card_picker: CardPicker | None = None
        if kind in ("which_cards_legal", "trick_winner"):
            self.card_picker = CardPicker(width=64 if kind == "which_cards_legal" else 60)
            self.card_picker.add_class("rook-answer-cards")
        self.ns_box = self.ew_box = self.points_box = None
        self.bid_dropdown = None
        self.add_class("rook-exercise")
        self.add_class(f"rook-exercise-{kind}")
        if _rtl():
            self.add_class("rook-rtl")
        self.layout.border = "1px solid #ccc"
        self.layout.padding = "8px"
        self.layout.margin = "8px 0"
        self.children = [self.title, self.prompt, self.position, self.controls,
                         widgets.HBox([self.check_button, self.show_button, self.new_button]), self.feedback]
        self._load(self.seed)

    @staticmethod
    def _button(text: str, cls: str, action: Callable[[], Any], **kwargs: Any) -> widgets.Button:
        """A Button showing ``text`` with class ``cls`` whose click runs ``action()`` (a public method, which
        speaks the widget's language); as wide as its words (German ones are long)."""
        button = widgets.Button(description=text, layout=widgets.Layout(width="auto", min_width="8em"), **kwargs)
        button.add_class(cls)
        button.on_click(lambda _b: action())
        return button

    # ---- building
    def _load(self, seed: int) -> None:
        self.seed = seed
        self.wrong_tries = 0  # different wrong answers checked: the first gets the rule, the second the solution
        self.revealed = False  # the solution was shown: a right answer after it is checked, not solved
        self.done = False  # answered right: more Checks of this exercise are not counted again
        self.checked: set = set()  # answers checked (as `Exercise.normalize` reads them): not counted twice
        self.exercise = teaching.make_exercise(self.kind, self.rules, seed)
        self.last_feedback = None
        self.feedback.value = ""
        fresh = seed - self.first_seed  # "New exercise" clicks so far: said in words, the seed is not shown
        title = _("Exercise {number}: {title}", number=self.number, title=_(KIND_TITLES[self.kind]))
        where = (_("{rules}, new deal {count}", rules=rules_title(self.rules), count=fresh) if fresh
                 else rules_title(self.rules))
        self.title.value = f"<b>{escape(title)}</b> <span style='color:#777'>({escape(where)})</span>"
        self.prompt.value = f"<p>{escape(self.exercise.prompt)}</p>"
        self.position.value = self._position_html()
        self.controls.children = self._build_controls()

    def _position_html(self) -> str:
        ex, r = self.exercise, self.rules
        opts = _svg_opts(r)
        if self.kind == "which_cards_legal":
            so_far = _("Trick so far:")
            return (f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>{escape(so_far)}</div>"
                    f"{trick_html(r, ex.trick_leader, ex.trick)}"
                    f"<div style='margin:6px 0'>{escape(_hand_of(ex.seat))}</div>")
        if self.kind == "trick_winner":
            led = _("The trick, {seat} led:", seat=teaching.seat_full_name(ex.trick_leader))
            return f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>{escape(led)}</div>"
        if self.kind == "score_hand":
            dec = team_name(team_of(ex.declarer))
            rows = [(_("Bid"), _("{bid} by {seat} ({team} declare)", bid=ex.bid,
                                 seat=teaching.seat_full_name(ex.declarer), team=dec))]
            for team in (0, 1):
                rows.append((_("{team} captured", team=team_name(team)),
                             ngettext("{points} points ({count} trick)", "{points} points ({count} tricks)",
                                      ex.tricks_won[team], points=ex.captured[team], count=ex.tricks_won[team])))
            rows += [(_("Nest"), _("{points} points, to {team} (took the last trick)", points=ex.nest_points,
                                   team=team_name(team_of(ex.last_trick))) if r.nest_size else _("no nest")),
                     (_("Rule set"), rules_title(r))]
            body = "".join(f"<tr><th style='text-align:start;padding-inline-end:1em'>{escape(k)}</th>"
                           f"<td>{escape(v)}</td></tr>" for k, v in rows)
            return f"<table>{body}</table>"
        if self.kind == "what_to_bid":
            return (f"<div>{escape(_hand_of(ex.seat))}</div>"
                    f"<div class='rook-ltr'>{hand_svg(ex.hand, width=64, step=0.45, **opts)}</div>")
        if self.kind == "count_points":
            return f"<div class='rook-ltr'>{hand_svg(ex.cards, width=64, step=1.08, **opts)}</div>"
        return ""

    def _build_controls(self) -> list:
        ex, r = self.exercise, self.rules
        if self.kind == "which_cards_legal":
            who = teaching.seat_full_name(ex.seat)
            self.card_picker.show(ex.hand, r, multiple=True,
                                  label=_("{seat}'s hand: tap every card that may be played", seat=who))
            return [self.card_picker, _hint(_("Tap every card that may be played (tap again to take it back), then "
                                              "press Check."))]
        if self.kind == "trick_winner":
            seats = [s for s, _c in ex.trick_seats]
            self.card_picker.show([c for _s, c in ex.trick_seats], r, multiple=False,
                                  captions=[_seat_tag(s, led=i == 0) for i, s in enumerate(seats)],
                                  spoken=[_("played by {seat} (led)", seat=teaching.seat_full_name(s)) if i == 0
                                          else _("played by {seat}", seat=teaching.seat_full_name(s))
                                          for i, s in enumerate(seats)],
                                  label=_("The trick: tap the card that wins it"))
            return [self.card_picker, _hint(_("Tap the card that wins the trick, then press Check."))]
        if self.kind == "score_hand":
            self.ns_box = self._number_box(team_name(0), width="160px")
            self.ew_box = self._number_box(team_name(1), width="160px")
            self.ns_box.add_class("rook-answer-ns")
            self.ew_box.add_class("rook-answer-ew")
            return [widgets.HBox([self.ns_box, self.ew_box]), _hint(_("Scores can be negative: type e.g. -80."))]
        if self.kind == "what_to_bid":
            options = [(pgettext("call", "Pass"), "pass")] + [(str(b), b) for b in r.legal_bids(None)]
            self.bid_dropdown = widgets.Dropdown(options=options, value="pass", description=_("Top bid"),
                                                 style={"description_width": "initial"})
            self.bid_dropdown.add_class("rook-answer-bid")
            return [self.bid_dropdown]
        if self.kind == "count_points":
            self.points_box = self._number_box(_("Points"))
            self.points_box.add_class("rook-answer-points")
            return [self.points_box]
        return []

    @staticmethod
    def _number_box(description: str, width: str | None = None) -> widgets.Text:
        """An empty text box for a number of points. A Text, not an IntText: an IntText turns "abc" into 0 in
        the browser, so the learner's typing would be graded as 0; the text is read by `answer`."""
        layout = widgets.Layout(width=width) if width else widgets.Layout()
        return widgets.Text(value="", placeholder=_("e.g. 85"), description=description, layout=layout,
                            style={"description_width": "initial"})

    def _read_points(self, box: widgets.Text, name: str) -> int:
        """The whole number typed in ``box`` (`teaching.Exercise.read_points`: a score may be negative, points
        counted may not); raises teaching.ExerciseError naming the box (``name``) and saying what to type if it is
        empty, holds anything else, or (a count) a number below zero."""
        try:
            return self.exercise.read_points(box.value, where=_("the {name} box", name=name))
        except teaching.ExerciseError as e:
            raise teaching.ExerciseError(f"{e}.") from None

    # ---- interaction
    @property
    def selected_seat(self) -> int | None:
        """The seat (0..3) whose card is picked in a trick_winner exercise, or None (none picked; other kinds)."""
        if self.kind != "trick_winner" or not self.card_picker.selection:
            return None
        card = self.card_picker.selection[0]
        return next(s for s, c in self.exercise.trick_seats if c == card)

    def select_seat(self, seat: int) -> None:
        """Pick ``seat``'s card (``seat`` 0..3) as the answer in a trick_winner exercise, as tapping it does.
        Raises ValueError in another kind of exercise or for a seat not in the trick."""
        if self.kind != "trick_winner":
            raise ValueError(f"a {self.kind} exercise is not answered with a seat")
        card = dict(self.exercise.trick_seats).get(seat)
        if card is None:
            raise ValueError(f"{seat!r} is not a seat of this trick (0..3)")
        self.card_picker.pick([card])

    def tap(self, card: Card | str) -> None:
        """Tap ``card`` (a Card or text such as "R9", "Crow") in the exercise's card pictures, as the learner does:
        pick it, or take the pick back. Raises teaching.ExerciseError for text that is no card, ValueError in an
        exercise without card pictures or for a card not shown."""
        if self.card_picker is None:
            raise ValueError(f"a {self.kind} exercise has no cards to tap")
        card = teaching.parse_card_answer(self.rules, card)
        if not self.card_picker.tap(card):
            raise ValueError(f"{self.exercise.card_name(card)} is not shown in this exercise")

    def answer(self) -> Any:
        """The answer currently entered in the controls, in the form `Exercise.check` reads.

        Number boxes (score_hand, count_points) must hold a whole number each: raises teaching.ExerciseError
        (the message names the box and says to type a whole number of points) if one is empty or holds
        anything else, or if the count_points box holds a number below zero (points captured are never
        negative); the box keeps what was typed."""
        if self.kind == "which_cards_legal":
            return set(self.card_picker.selection)
        if self.kind == "trick_winner":
            return self.selected_seat
        if self.kind == "score_hand":
            return (self._read_points(self.ns_box, team_name(0)), self._read_points(self.ew_box, team_name(1)))
        if self.kind == "what_to_bid":
            return self.bid_dropdown.value
        return self._read_points(self.points_box, _("Points"))

    def check(self) -> teaching.Feedback:
        """Check the entered answer, show the feedback (in the widget's language) and record progress (`_count`).
        Never raises.

        An answer that cannot be read (a number box empty or not holding a whole number, a negative count) or that
        is no answer (`teaching.Exercise.missing`: no seat picked, no card selected) is not graded and not
        recorded: the feedback says what to enter. Returns the `teaching.Feedback` shown."""
        with i18n.using(self.lang):
            return self._check()

    def _check(self) -> teaching.Feedback:
        """`check` in the active language."""
        try:
            ans = self.answer()
            missing = self.exercise.missing(ans)
            if missing:
                return self._show(teaching.Feedback(False, missing))
            value = self.exercise.normalize(ans)
            fb = self.exercise.check(ans)
        except teaching.ExerciseError as e:
            return self._show(teaching.Feedback(False, str(e)))
        except Exception as e:  # noqa: BLE001 - never raise into the page
            return self._show(teaching.Feedback(False, _("Could not check this answer: {problem}", problem=e)))
        return self._show(*self._count(fb, value))

    def _count(self, fb: teaching.Feedback, value: Any = None) -> tuple[teaching.Feedback, str]:
        """Record the graded answer ``fb`` (to the answer ``value``, as `teaching.Exercise.normalize` reads it) in the
        progress; return the feedback to show and its style (a `FEEDBACK_STYLES` key).

        A wrong answer: the first one gets the rule it broke and "Try again" ("retry"), the solution kept back; a
        second different one (or any once the solution was shown) gets the rule and the solution, which is then
        revealed. A right answer is recorded as solved unless the solution was shown before it (``revealed``: then
        checked, not solved). Once an answer was right, more Checks are not recorded again (``done``); an answer
        already checked for this exercise (Check pressed twice, a double click, the same answer entered again) is
        not recorded again and is no new try (``checked``)."""
        if self.done:
            return self._graded(fb, " " + _("(This exercise is done and was counted once: {fresh})",
                                            fresh=_(FRESH_ONE)))
        if value in self.checked:
            return self._graded(fb, " " + _("(This answer was checked already: it is counted once.)"))
        self.checked.add(value)
        self.progress.record(self.kind, self.rules.variant, self.seed, fb.correct and not self.revealed)
        if fb.correct:
            self.done = True
            if self.revealed:
                return self._graded(fb, " (" + _(NOT_COUNTED) + " " + _(FRESH_ONE) + ")")
            return self._graded(fb, " " + _("(Solved on a new try: counted as solved.)") if self.wrong_tries else "")
        self.wrong_tries += 1
        return self._graded(fb)

    def _graded(self, fb: teaching.Feedback, note: str = "") -> tuple[teaching.Feedback, str]:
        """The feedback to show for the graded answer ``fb`` as things stand (``note`` added to its text): right;
        wrong on the first try, the rule and "Try again"; wrong once the solution is due, the rule and the solution
        (which marks it revealed). Returns (feedback, style)."""
        if fb.correct:
            return teaching.Feedback(True, fb.message + note, "", ""), "right"
        if self.done:  # solved already: the whole explanation may be shown
            return teaching.Feedback(False, fb.message + note, fb.rule, ""), "wrong"
        if self.wrong_tries < 2 and not self.revealed:
            text = _("Not quite.") + f" {fb.rule}{note} " + _(TRY_AGAIN)
            return teaching.Feedback(False, text, fb.rule, ""), "retry"
        self.revealed = True
        lead = _("Wrong again.") if self.wrong_tries >= 2 else _("Wrong.")
        return teaching.Feedback(False, f"{lead} {fb.rule}{note}", fb.rule, fb.solution), "wrong"

    def show_answer(self) -> teaching.Feedback:
        """Show the solution ("Show answer"): the right answer and its rule (`teaching.Exercise.explain`). Records
        nothing; from now on a right answer to this exercise counts as checked, not solved (unless it was solved
        already). Returns the `teaching.Feedback` shown (in the widget's language); raises nothing."""
        with i18n.using(self.lang):
            if self.done:
                note = _("The answer, as you found it.")
            else:
                self.revealed = True
                note = " ".join((_(NOT_COUNTED), _("You may still enter it and press Check."), _(FRESH_ONE)))
            return self._show(teaching.Feedback(False, note, "", self.exercise.explain()), "shown")

    def _show(self, fb: teaching.Feedback, style: str | None = None) -> teaching.Feedback:
        """Show ``fb`` in the feedback box in ``style`` (a `FEEDBACK_STYLES` key; None: "right" when
        ``fb.correct``, else "wrong"): its message, the rule in ``rook-rule``, the solution (if any) in
        ``rook-solution``. Returns ``fb``."""
        self.last_feedback = fb
        cls, colour, bg, mark = FEEDBACK_STYLES[style or ("right" if fb.correct else "wrong")]
        text = escape(fb.message)
        if fb.rule and escape(fb.rule) in text:
            text = text.replace(escape(fb.rule), f"<span class='rook-rule'>{escape(fb.rule)}</span>", 1)
        heading = _("The answer:")
        solution = (f"<div class='rook-solution' style='margin-top:4px'><b>{escape(heading)}</b> "
                    f"{escape(fb.solution)}</div>" if fb.solution else "")
        self.feedback.value = (f"<div class='{cls}' style='color:{colour};background:{bg};padding:6px;"
                               f"border-inline-start:4px solid {colour}'>{mark} {text}{solution}</div>")
        return fb

    def new_exercise(self) -> None:
        """Move to the next seed and draw a fresh exercise (no tries, nothing shown, nothing picked), in the widget's
        language."""
        with i18n.using(self.lang):
            self._load(self.seed + 1)


def _hand_of(seat: int) -> str:
    """"North's hand:" in the active language."""
    return _("{seat}'s hand:", seat=teaching.seat_full_name(seat))


def _hint(text: str) -> widgets.HTML:
    """An italic line saying how to answer."""
    return widgets.HTML(f"<i>{escape(text)}</i>")


@_in_page_language
def exercise(kind: str, rules: Rules | str | None = None, seed: int = 0, number: int = 1) -> ExerciseWidget:
    """Shorthand for `ExerciseWidget` (same arguments, same errors); returns the widget."""
    return ExerciseWidget(kind, rules=rules, seed=seed, number=number)


# --------------------------------------------------------------------------- live examples
@_in_page_language
def show_card(card: str | Card, rules: Rules | str | None = None, width: int = 70) -> widgets.HTML:
    """One card picture with its counter value (in `page_language`). Raises teaching.ExerciseError for text that
    is no card."""
    r = _rules(rules)
    c = teaching.parse_card_answer(r, card)
    pts = r.card_points.get(c, 0)
    words = ngettext("{card}: {count} point", "{card}: {count} points", pts, card=_label(r, c), count=pts)
    return _html(f"<div class='rook-ltr' style='display:inline-block;text-align:center'>"
                 f"{card_svg(c, width=width, **_svg_opts(r))}<div>{escape(words)}</div></div>", "rook-example-card")


@_in_page_language
def show_cards(cards, rules: Rules | str | None = None, width: int = 70) -> widgets.HBox:
    """A row of card pictures with their counter values (`show_card` each; class ``rook-example-cards``), in their
    left-to-right order, set against the right edge on a right-to-left page. Raises teaching.ExerciseError for text
    that is no card."""
    row = widgets.HBox([show_card(c, rules, width) for c in cards],
                       layout=widgets.Layout(justify_content="flex-end" if _rtl() else "flex-start", flex_flow="row wrap"))
    row.add_class("rook-example-cards")
    return row


@_in_page_language
def show_deck(rules: Rules | str | None = None, width: int = 44) -> widgets.HTML:
    """The whole deck colour by colour; counters are highlighted in blue (words in `page_language`)."""
    r = _rules(rules)
    rows = []
    for colour in "RYGB":
        cards = [c for c in r.deck if not r.is_trump_card(c) and c.colour == colour]
        hi = [c for c in cards if r.card_points[c]]
        rows.append(f"<div>{hand_svg(cards, width=width, step=0.75, highlight=hi, **_svg_opts(r))}</div>")
    special = [c for c in r.deck if r.is_trump_card(c)]
    if special:
        rows.append(f"<div>{hand_svg(special, width=width, step=1.05, highlight=special, **_svg_opts(r))}</div>")
    facts = _("{count} cards. Counters: {counters}; {total} points in all.", count=len(r.deck),
              counters=teaching.counters_text(r), total=r.counter_total)
    meaning = _("a counter (a card that scores points)")
    return _html(f"<div><div class='rook-ltr'>{''.join(rows)}</div>"
                 f"<div>{border_legend(meaning)}</div>"
                 f"<p>{escape(facts)}</p></div>", "rook-example-deck")


@_in_page_language
def counters_table(rules: Rules | str | None = None) -> widgets.HTML:
    """A small table of the counters and their points (in `page_language`)."""
    r = _rules(rules)
    body = "".join(f"<tr><td>{escape(k)}</td><td style='text-align:end'>{v}</td></tr>"
                   for k, v in teaching.card_points_table(r))
    card, points, total = _("Card"), _("Points"), _("Total")
    return _html(f"<table><tr><th>{escape(card)}</th><th>{escape(points)}</th></tr>{body}"
                 f"<tr><th>{escape(total)}</th><th style='text-align:end'>{r.counter_total}</th></tr></table>",
                 "rook-counters-table")


@_in_page_language
def rule_set_facts(rules: Rules | str | None = None) -> widgets.HTML:
    """The rule set's numbers as the engine describes them (`Rules.describe`), a table titled with the rule set's
    name, in `page_language` (class ``rook-rule-set-facts``). Raises RulesError for an unknown variant name."""
    r = _rules(rules)
    body = "".join(f"<tr><th style='text-align:start;padding-inline-end:1em'>{escape(k)}</th><td>{escape(v)}</td>"
                   f"</tr>" for k, v in r.describe())
    return _html(f"<table><caption style='font-weight:bold;text-align:start'>{escape(rules_title(r))}</caption>"
                 f"{body}</table>", "rook-rule-set-facts")


@_in_page_language
def game_end_examples(scores=((310, 305), (305, 305), (295, 330), (250, 280)), target: int | None = None,
                      rules: Rules | str | None = None) -> widgets.HTML:
    """Who wins a game on the given running totals ``scores`` ((N–S, E–W) pairs of points), as the engine decides it
    (`rookcore.game.game_winner`, rules.md §1.7), one line each in `page_language` (class
    ``rook-game-end-examples``). ``target``: points to win (None: the rule set's own, `Rules.target`); ``rules``:
    a Rules or variant name (None: the default rule set). Raises RulesError for an unknown variant name."""
    if target is None:
        target = _rules(rules).target
    lines = []
    for ns, ew in scores:
        won = game_winner((ns, ew), target)
        totals = _("{ns_team} {ns}, {ew_team} {ew}", ns_team=team_name(0), ns=ns, ew_team=team_name(1), ew=ew)
        verdict = _("play another hand") if won is None else _("{team} win", team=team_name(won))
        line = _("{totals}: {verdict}", totals=totals, verdict=verdict)
        lines.append(f"<li>{escape(line)}</li>")
    return _html(f"<ul>{''.join(lines)}</ul>", "rook-game-end-examples")


@_in_page_language
def show_deal(rules: Rules | str | None = None, seed: int = 0, show_nest: bool = True) -> widgets.HTML:
    """A dealt hand (`teaching.example_deal`): the four hands and the nest, with their counter points (words in
    `page_language`)."""
    d = teaching.example_deal(rules, seed)
    r = d.rules
    rows = []
    for s in range(4):
        who = teaching.seat_full_name(s)
        name = (_("{seat} (dealer)", seat=who) if s == d.dealer else
                _("{seat} (calls first)", seat=who) if s == d.first_caller else who)
        points = _("{points} pts", points=d.points[s])
        rows.append(f"<tr><th style='text-align:start;padding-inline-end:8px'>{escape(name)}</th>"
                    f"<td class='rook-ltr'>{hand_svg(d.hands[s], width=44, step=0.5, **_svg_opts(r))}</td>"
                    f"<td style='padding-inline-start:8px'>{escape(points)}</td></tr>")
    if show_nest and r.nest_size:
        nest, down = _("Nest"), _("face down")
        rows.append(f"<tr><th style='text-align:start'>{escape(nest)}</th><td class='rook-ltr'>"
                    f"{hand_svg(d.nest, width=44, step=1.05, face_up=False)}</td>"
                    f"<td style='padding-inline-start:8px'>{escape(down)}</td></tr>")
    if r.nest_size:
        words = _("{rules}: {hand} cards each, {nest} in the nest ({points} points hidden there).",
                  rules=rules_title(r), hand=r.hand_size, nest=r.nest_size, points=d.nest_points)
    else:
        words = _("{rules}: {hand} cards each.", rules=rules_title(r), hand=r.hand_size)
    return _html(f"<table>{''.join(rows)}</table><p>{escape(words)}</p>", "rook-example-deal")


@_in_page_language
def show_hand(rules: Rules | str | None = None, seed: int = 0, seat: str | int = "S") -> widgets.HTML:
    """One seat's dealt hand with the counter points in it (words in `page_language`)."""
    d = teaching.example_deal(rules, seed)
    s = SEATS.index(seat) if isinstance(seat, str) else seat
    words = _("{seat}'s hand: {points} points of counters.", seat=teaching.seat_full_name(s), points=d.points[s])
    return _html(f"<div><div class='rook-ltr'>{hand_svg(d.hands[s], width=64, step=0.45, **_svg_opts(d.rules))}"
                 f"</div><p>{escape(words)}</p></div>", "rook-example-hand")


@_in_page_language
def show_trick(rules: Rules | str | None = None, seed: int = 0, kind: str = "trumped") -> widgets.HTML:
    """A trick with its winner highlighted and the reason (`teaching.example_trick`), in `page_language`."""
    return _trick_view(teaching.example_trick(rules, seed, kind))


@_in_page_language
def show_worked_trick(rules: Rules | str | None = None, trump: str = "G", cards=(), leader: str | int = "N"
                      ) -> widgets.HTML:
    """A given trick (such as rules.md §4's worked examples: ``cards`` in play order, led by ``leader``) with the
    winner the engine finds highlighted and the reason (`teaching.worked_trick`), in `page_language`. Raises
    teaching.ExerciseError for a trump that is no colour or cards that are not four different cards of the rule
    set's deck."""
    return _trick_view(teaching.worked_trick(rules, trump, cards, leader))


def _trick_view(t: teaching.TrickExample) -> widgets.HTML:
    """The trump, the trick with its winner highlighted, and the reason."""
    return _html(f"<div>{trump_badge(t.trump)}</div><div style='margin:6px 0'>"
                 f"{trick_html(t.rules, t.leader, t.cards, t.winner)}</div><p>{escape(t.reason)}</p>",
                 "rook-example-trick")


@_in_page_language
def show_legal(rules: Rules | str | None = None, seed: int = 0, kind: str = "follow") -> widgets.HTML:
    """A worked "which cards may be played" example of category ``kind`` ("follow", "bird", "void"): the trick,
    the hand with legal cards highlighted (illegal ones greyed) and the rule that decides it
    (`teaching.example_legal`, never one of the exercises), in `page_language`. Raises teaching.ExerciseError for
    an unknown kind."""
    ex = teaching.example_legal(rules, seed, kind)
    r = ex.rules
    illegal = [c for c in ex.hand if c not in ex.legal]
    so_far, meaning = _("Trick so far:"), _("may be played (greyed: may not)")
    return _html(f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>{escape(so_far)}</div>"
                 f"{trick_html(r, ex.trick_leader, ex.trick)}<div style='margin:6px 0'>"
                 f"{escape(_hand_of(ex.seat))}</div><div class='rook-ltr'>"
                 f"{hand_svg(ex.hand, width=56, step=0.6, highlight=ex.legal, dimmed=illegal, **_svg_opts(r))}</div>"
                 f"<div>{border_legend(meaning)}</div>"
                 f"<p>{escape(ex.reason)}</p>", "rook-example-legal")


@_in_page_language
def show_tally(rules: Rules | str | None = None, seed: int = 0) -> widgets.HTML:
    """A whole hand played by the AI: tricks, captured points, the nest, and the hand's score (in
    `page_language`)."""
    h = teaching.example_hand(rules, seed)
    r = h.rules
    rows = []
    for i, (leader, cards, winner, pts) in enumerate(h.tricks, 1):
        names = " ".join(f"{seat_name((leader + k) % 4)}:{_label(r, c)}" for k, c in enumerate(cards))
        rows.append(f"<tr><td>{i}</td><td class='rook-ltr'>{escape(names)}</td><td>{escape(seat_name(winner))} "
                    f"({escape(team_name(team_of(winner)))})</td><td style='text-align:end'>{pts}</td></tr>")
    nest = " ".join(_label(r, c) for c in h.nest)
    last = h.tricks[-1][2]
    heads = ("#", _("cards (leader first)"), _("won by"), _("points"))
    table = ("<table><tr>" + "".join(f"<th>{escape(x)}</th>" for x in heads) + f"</tr>{''.join(rows)}</table>")

    def line(label: str, text: str) -> str:
        return f"<b>{escape(label)}</b> {escape(text)}"

    parts = [line(_("Contract:"), _("{bid} by {seat}, trump {colour}.", bid=h.bid,
                                    seat=teaching.seat_full_name(h.declarer), colour=colour_name(h.trump)))]
    if r.nest_size:
        parts[0] += " " + line(_("Nest:"), _("{cards} = {points} points, to {team} (last trick).", cards=nest,
                                             points=h.nest_points, team=team_name(team_of(last))))
    parts.append(line(_("Captured:"), _("{ns_team} {ns} ({ns_tricks} tricks), {ew_team} {ew} ({ew_tricks} tricks).",
                                        ns_team=team_name(0), ns=h.captured[0], ns_tricks=h.tricks_won[0],
                                        ew_team=team_name(1), ew=h.captured[1], ew_tricks=h.tricks_won[1])))
    parts.append(line(_("Score:"), _("{ns_team} {ns:+d}, {ew_team} {ew:+d}.", ns_team=team_name(0), ns=h.score[0],
                                     ew_team=team_name(1), ew=h.score[1])) + " " + escape(h.reason))
    return _html(table + "<p>" + "<br>".join(parts) + "</p>", "rook-example-tally")


@_in_page_language
def rules_comparison(variants: list[str] | None = None) -> widgets.HTML:
    """A table comparing rule sets, built from each `Rules.describe()` (one column per rule set), in
    `page_language`."""
    rules = [VARIANTS[v] for v in (variants or list(VARIANTS))]
    birds = (_("The Crow"), _("The Rook"))
    the_bird = _("The bird")
    labels: list[str] = []
    cols = []
    for r in rules:
        rows = {}
        for label, value in r.describe():
            key = the_bird if label in birds else label
            if key == the_bird:
                value = _("the {bird}: {place}", bird=card_text(r, Card.bird()), place=value)
            rows[key] = value
            if key not in labels:
                labels.append(key)
        cols.append(rows)
    head = "".join(f"<th style='padding:4px'>{escape(rules_title(r))}</th>" for r in rules)
    body = "".join(
        f"<tr><th style='text-align:start;padding:4px'>{escape(label)}</th>"
        + "".join(f"<td style='padding:4px;border-top:1px solid #ddd'>{escape(c.get(label, '—'))}</td>"
                  for c in cols) + "</tr>"
        for label in labels)
    return _html(f"<div style='overflow-x:auto'><table style='font-size:13px'><tr><th></th>{head}</tr>"
                 f"{body}</table></div>", "rook-rules-comparison")


@_in_page_language
def show_ai_walkthrough(rules: Rules | str | None = None, seed: int = 0, plays: int = 8) -> widgets.HTML:
    """The AI's calls, discard, trump and first card plays on a seeded hand, each with its explanation (the frame in
    `page_language`; the AI's own words as `rookcore.ai` gives them)."""
    r = _rules(rules)
    try:
        steps = teaching.ai_walkthrough(r, seed, plays)
    except ImportError:
        missing = _("The AI is not available in this installation.")
        return _html(f"<p>{escape(missing)}</p>", "rook-ai-walkthrough")
    items = []
    shown: set = set()
    for st in steps:
        pic = ""
        first_call = st["kind"] == "call" and st["seat"] not in shown
        if first_call or st["kind"] == "discard":
            shown.add(st["seat"])
            who = teaching.seat_full_name(st["seat"])
            what = (_("{seat}'s hand and nest:", seat=who) if st["kind"] == "discard" else _hand_of(st["seat"]))
            pic = (f"<div style='font-size:12px;color:#555'>{escape(what)}</div>"
                   f"<div class='rook-ltr'>{hand_svg(st['hand'], width=40, step=0.45, **_svg_opts(r))}</div>")
        items.append(f"<li><b>{escape(teaching.seat_full_name(st['seat']))} "
                     f"<span class='rook-ai-action'>{escape(i18n.localize(st['action']))}</span></b> — "
                     f"<span class='rook-ai-explanation'>{escape(i18n.localize(st['explanation']))}</span>{pic}</li>")
    return _html(f"<ol>{''.join(items)}</ol>", "rook-ai-walkthrough")
