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

Progress lives in `PROGRESS`, saved to a JSON file (`progress_path`: ``$ROOK_PROGRESS_FILE``, else
``~/.crowsnest-rook/progress.json``) after every change, so that lesson pages (each a Voila page with its own kernel)
and the app's Learn tab share it; ``ROOK_PROGRESS_FILE=""`` keeps it in memory only.
"""
from __future__ import annotations

import json
import os
import pathlib
import threading
from html import escape
from typing import Any, Callable

import ipywidgets as widgets

from rookcore import teaching
from rookcore.cards import COLOUR_NAMES, Card
from rookcore.hand import SEATS
from rookcore.rules import VARIANTS, Rules, get_rules
from widgets.card_picker import CardPicker
from widgets.cards import PALETTE, border_legend, card_label, card_svg, hand_svg

TUTORIAL_RULES = "crowsnest"
"""The rule set the lessons teach (the app's default; lesson 7 compares the others): a lesson title names its bird
as this rule set does ("the Crow"), as the lesson and the app do."""
_BIRD = get_rules(TUTORIAL_RULES).bird_name
LESSONS: tuple[tuple[str, str, str], ...] = (
    ("01-deck-and-counters", "The deck and the counters", f"Colours, numbers, the {_BIRD}, and which cards score."),
    ("02-deal-and-auction", "The deal and the auction", "Who gets which cards, and how bidding works."),
    ("03-nest-and-trump", "The nest and trump", "The declarer's extra cards and naming trump."),
    ("04-following-suit-and-the-bird", f"Following suit and the {_BIRD}", "Which cards you may play."),
    ("05-winning-tricks", "Winning tricks", "Which card takes the trick."),
    ("06-scoring-and-game-end", "Scoring and the end of the game", "Making or losing the bid; reaching 300."),
    ("07-the-classic-rule-sets", "The classic rule sets", "How the six classic games differ from CrowsNest."),
    ("08-basic-strategy", "Basic strategy", "Bidding, burying, drawing trump and feeding your partner."),
)
LESSON_TITLES = {slug: title for slug, title, _ in LESSONS}
DONE_MARK = "<span style='color:#2e7d32'>✔</span>"  # characters of the common fonts (DejaVu), not emoji
TODO_MARK = "<span style='color:#9e9e9e'>☐</span>"
LINK_STYLE = "color:#1565c0;text-decoration:underline"  # widget HTML shows links as plain text otherwise
KIND_TITLES = {
    "which_cards_legal": "Which cards may be played?",
    "trick_winner": "Who wins the trick?",
    "score_hand": "Score the hand",
    "what_to_bid": "What to bid",
    "count_points": "Count the points",
}
RIGHT_COLOUR, WRONG_COLOUR, SHOWN_COLOUR = "#1b5e20", "#b71c1c", "#0d47a1"
FRESH_ONE = "New exercise gives a fresh one."
TRY_AGAIN = "Try again: change your answer and press Check (or Show answer)."
NOT_COUNTED = "Not counted as solved: the answer was shown."
FEEDBACK_STYLES = {  # style: (classes, text and border colour, background, mark)
    "right": ("rook-right", RIGHT_COLOUR, "#e8f5e9", "✔"),
    "wrong": ("rook-wrong", WRONG_COLOUR, "#ffebee", "✘"),
    "retry": ("rook-wrong rook-try-again", WRONG_COLOUR, "#ffebee", "✘"),
    "shown": ("rook-shown", SHOWN_COLOUR, "#e3f2fd", "→"),
}


# --------------------------------------------------------------------------- progress
class Progress:
    """What a learner has done: lessons visited, exercises answered (and answered right).

    ``path``: optional JSON file to load from and save to (shares progress between Voila pages: each change
    re-reads the file first, so two pages' changes add up). Listeners added with `on_change` are called with no
    arguments after every change and after a `reload` that found something new. A missing, unreadable or
    damaged file counts as no progress; a file that cannot be written is left as it is (progress then lasts
    this kernel only).
    """

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        """Start empty (or from ``path`` if it holds saved progress)."""
        self.path = pathlib.Path(path) if path else None
        self.visited: list[str] = []
        self.correct: dict[str, set[tuple[str, int]]] = {}   # kind -> {(variant, seed)} answered right
        self.attempts: dict[str, int] = {}                   # kind -> answers checked
        self._listeners: list[Callable[[], None]] = []
        self._lock = threading.RLock()  # the `watch` thread reloads while the kernel's thread records
        self._watcher: threading.Thread | None = None
        self._unwatch = threading.Event()
        self._load()

    # persistence
    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            doc = json.loads(self.path.read_text("utf-8"))
            visited = [str(v) for v in doc.get("visited", [])]
            correct = {str(k): {(str(a), int(b)) for a, b in v} for k, v in doc.get("correct", {}).items()}
            attempts = {str(k): int(v) for k, v in doc.get("attempts", {}).items()}
        except (OSError, ValueError, TypeError, AttributeError):
            return  # a damaged file counts as no news
        self.visited, self.correct, self.attempts = visited, correct, attempts

    def _save(self) -> None:
        if self.path is None:
            return
        doc = {"visited": self.visited, "attempts": self.attempts,
               "correct": {k: sorted(v) for k, v in self.correct.items()}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            part = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
            part.write_text(json.dumps(doc), "utf-8")
            os.replace(part, self.path)  # whole files only: another page may be reading it
        except OSError:
            pass

    def _state(self) -> tuple:
        return list(self.visited), {k: set(v) for k, v in self.correct.items()}, dict(self.attempts)

    def reload(self) -> bool:
        """Read the file again (another page may have added to it); tell the listeners if anything changed.
        Returns True if it did."""
        with self._lock:
            before = self._state()
            self._load()
            if self._state() == before:
                return False
            for fn in list(self._listeners):
                fn()
            return True

    def watch(self, every: float = 2.0) -> None:
        """Check the file every ``every`` seconds in a daemon thread and `reload` when it changed, so that a
        page shows what the learner did in another (a lesson opened from the app's Learn tab). Once per
        `Progress`; nothing without a file."""
        if self.path is None or self._watcher is not None:
            return

        def stamp():
            try:
                return self.path.stat().st_mtime_ns
            except OSError:
                return None

        first = stamp()  # taken now, not when the thread first runs: a change made meanwhile must count

        def loop() -> None:
            last = first
            while not self._unwatch.wait(every):
                now = stamp()
                if now != last:
                    last = now
                    try:
                        self.reload()
                    except Exception:  # noqa: BLE001 - a listener's failure must not stop the watching
                        pass

        self._unwatch.clear()
        self._watcher = threading.Thread(target=loop, name="rook-progress-watch", daemon=True)
        self._watcher.start()

    def stop_watching(self, timeout: float = 5.0) -> None:
        """End the `watch` thread (waiting up to ``timeout`` seconds); `watch` may start it again."""
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            self._unwatch.set()
            watcher.join(timeout)

    def _changed(self) -> None:
        self._save()
        for fn in list(self._listeners):
            fn()

    def on_change(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` after every change."""
        self._listeners.append(fn)

    # updates
    def visit(self, lesson: str) -> None:
        """Mark ``lesson`` (a slug such as "01-deck-and-counters") visited."""
        with self._lock:
            self._load()
            if lesson not in self.visited:
                self.visited.append(lesson)
                self._changed()

    def record(self, kind: str, variant: str, seed: int, correct: bool) -> None:
        """Record one checked answer to exercise (kind, variant, seed)."""
        with self._lock:
            self._load()
            self.attempts[kind] = self.attempts.get(kind, 0) + 1
            if correct:
                self.correct.setdefault(kind, set()).add((variant, int(seed)))
            self._changed()

    def reset(self) -> None:
        """Forget everything, in the file too (listeners stay)."""
        with self._lock:
            self.visited, self.correct, self.attempts = [], {}, {}
            self._changed()

    # queries
    def solved(self, kind: str) -> int:
        """Number of different exercises of ``kind`` answered right."""
        return len(self.correct.get(kind, ()))

    def summary(self) -> dict:
        """{"visited": [...], "solved": {kind: n}, "attempts": {kind: n}}."""
        return {"visited": list(self.visited), "solved": {k: self.solved(k) for k in teaching.KINDS},
                "attempts": dict(self.attempts)}


PROGRESS_FILE_ENV = "ROOK_PROGRESS_FILE"


def progress_path() -> pathlib.Path | None:
    """Where `PROGRESS` is kept: ``$ROOK_PROGRESS_FILE`` if set (empty: None, in memory only), else
    ``~/.crowsnest-rook/progress.json``."""
    if PROGRESS_FILE_ENV in os.environ:
        return pathlib.Path(os.environ[PROGRESS_FILE_ENV]) if os.environ[PROGRESS_FILE_ENV] else None
    return pathlib.Path.home() / ".crowsnest-rook" / "progress.json"


PROGRESS = Progress(progress_path())


def start_lesson(slug: str, progress: Progress | None = None) -> widgets.HTML:
    """Mark lesson ``slug`` visited and return a small header with its title."""
    (progress or PROGRESS).visit(slug)
    title = LESSON_TITLES.get(slug, slug)
    number = slug.split("-", 1)[0]
    return _html(f"<div style='color:#555'>Lesson {escape(number)} of {len(LESSONS)}: "
                 f"<b>{escape(title)}</b></div>", "rook-lesson-header")


def _progress_html(progress: Progress) -> str:
    rows = []
    for slug, title, _ in LESSONS:
        done = slug in progress.visited
        rows.append(f"<li>{DONE_MARK if done else TODO_MARK} {escape(title)}</li>")
    ex_rows = []
    for kind in teaching.KINDS:
        n, tries = progress.solved(kind), progress.attempts.get(kind, 0)
        mark = DONE_MARK if n else TODO_MARK
        checked = f"{tries} answer{'' if tries == 1 else 's'} checked"
        ex_rows.append(f"<li>{mark} {escape(KIND_TITLES[kind])}: {n} solved ({checked})</li>")
    return (f"<div><b>Your progress</b> ({len(progress.visited)} of {len(LESSONS)} lessons visited)"
            f"<ul style='list-style:none;padding-left:0.5em;margin:0.2em 0'>{''.join(rows)}</ul>"
            f"<b>Exercises</b><ul style='list-style:none;padding-left:0.5em;margin:0.2em 0'>{''.join(ex_rows)}</ul>"
            f"</div>")


def progress_view(progress: Progress | None = None) -> widgets.HTML:
    """An HTML widget (class ``rook-progress``) listing lessons visited and exercises solved; it updates live."""
    progress = progress or PROGRESS
    view = _html(_progress_html(progress), "rook-progress")

    def refresh() -> None:
        view.value = _progress_html(progress)
    progress.on_change(refresh)
    return view


def tutorial_index(base: str = "", progress: Progress | None = None, new_tab: bool = False) -> widgets.HTML:
    """The lessons as links (class ``rook-tutorial-index``), a ✔ after each lesson visited (kept up to date).

    ``base`` is prepended to ``NN-name.ipynb``: use ``""`` from a lesson page (siblings) and
    ``"tutorial/"`` from ``notebooks/app.ipynb``. Relative links work wherever Voila serves the
    notebooks directory (``voila notebooks/`` → ``/voila/render/tutorial/NN-name.ipynb``). ``new_tab``: the links
    open a new browser tab (the app's, so that leaving for a lesson does not end the game in play).
    """
    progress = progress or PROGRESS
    target = "target='_blank' rel='noopener'" if new_tab else "target='_self'"

    def html() -> str:
        items = []
        for slug, title, summary in LESSONS:
            mark = f" {DONE_MARK}" if slug in progress.visited else ""
            link = f"<a href='{escape(base)}{slug}.ipynb' {target} style='{LINK_STYLE}'>{escape(title)}</a>"
            items.append(f"<li>{link}{mark}"
                         f"<br><span style='color:#555'>{escape(summary)}</span></li>")
        return f"<div><b>Rook tutorial</b><ol>{''.join(items)}</ol></div>"

    view = _html(html(), "rook-tutorial-index")
    progress.on_change(lambda: setattr(view, "value", html()))
    return view


def lesson_nav(slug: str) -> widgets.HTML:
    """Links to the previous / next lesson and the index (class ``rook-lesson-nav``)."""
    slugs = [s for s, _, _ in LESSONS]
    i = slugs.index(slug)
    parts = []
    def link(other: str, text: str) -> str:
        return f"<a href='{other}.ipynb' target='_self' style='{LINK_STYLE}'>{text}</a>"

    if i > 0:
        parts.append(link(slugs[i - 1], f"← {escape(LESSON_TITLES[slugs[i - 1]])}"))
    if i + 1 < len(slugs):
        parts.append(link(slugs[i + 1], f"{escape(LESSON_TITLES[slugs[i + 1]])} →"))
    return _html(" &nbsp;|&nbsp; ".join(parts), "rook-lesson-nav")


# --------------------------------------------------------------------------- drawing helpers
def _html(value: str, cls: str | None = None) -> widgets.HTML:
    w = widgets.HTML(value)
    if cls:
        w.add_class(cls)
    return w


def _rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return get_rules()
    return get_rules(rules) if isinstance(rules, str) else rules


def _svg_opts(rules: Rules) -> dict:
    return {"bird_name": rules.bird_name, "red_one": rules.red_one}


def _label(rules: Rules, card: Card) -> str:
    return card_label(card, rules.bird_name, rules.red_one)


def trump_badge(trump: str) -> str:
    """HTML badge naming the trump colour."""
    return (f"<span style='background:{PALETTE[trump]};color:white;padding:2px 8px;border-radius:8px'>"
            f"Trump: {COLOUR_NAMES[trump]}</span>")


def trick_html(rules: Rules, leader: int, cards, winner: int | None = None, width: int = 60) -> str:
    """The trick as a row of cards, each labelled with its seat ("led" on the first; the winner highlighted, with a
    `border_legend` saying so). Returns an HTML fragment (str)."""
    cells = []
    for i, card in enumerate(cards):
        seat = (leader + i) % 4
        tag = f"{SEATS[seat]}" + (" (led)" if i == 0 else "") + (" — wins" if seat == winner else "")
        cells.append(f"<div style='text-align:center;margin:0 4px'>"
                     f"{card_svg(card, width=width, highlight=seat == winner, **_svg_opts(rules))}"
                     f"<div style='font-size:12px'>{escape(tag)}</div></div>")
    legend = (f"<div style='margin-top:2px'>{border_legend('the card that wins the trick')}</div>"
              if winner is not None else "")
    return f"<div style='display:flex;align-items:flex-end'>{''.join(cells)}</div>{legend}"


def _points_line(rules: Rules, cards) -> str:
    pts = rules.points_of(cards)
    return f"{pts} points of counters"


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
        self.check_button = self._button("Check", "rook-check", self.check, button_style="primary")
        self.show_button = self._button("Show answer", "rook-show-answer", self.show_answer,
                                        tooltip="Show the solution (the exercise then no longer counts as solved)")
        self.new_button = self._button("New exercise", "rook-new-exercise", self.new_exercise)
        self.feedback = _html("", "rook-feedback")
        self.card_picker: CardPicker | None = None
        if kind in ("which_cards_legal", "trick_winner"):
            self.card_picker = CardPicker(width=64 if kind == "which_cards_legal" else 60)
            self.card_picker.add_class("rook-answer-cards")
        self.ns_box = self.ew_box = self.points_box = None
        self.bid_dropdown = None
        self.add_class("rook-exercise")
        self.add_class(f"rook-exercise-{kind}")
        self.layout.border = "1px solid #ccc"
        self.layout.padding = "8px"
        self.layout.margin = "8px 0"
        self.children = [self.title, self.prompt, self.position, self.controls,
                         widgets.HBox([self.check_button, self.show_button, self.new_button]), self.feedback]
        self._load(self.seed)

    @staticmethod
    def _button(text: str, cls: str, action: Callable[[], Any], **kwargs: Any) -> widgets.Button:
        """A Button showing ``text`` with class ``cls`` whose click runs ``action()``."""
        button = widgets.Button(description=text, **kwargs)
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
        self.title.value = (f"<b>Exercise {self.number}: {escape(KIND_TITLES[self.kind])}</b> "
                            f"<span style='color:#777'>({escape(self.rules.title)}"
                            f"{f', new deal {fresh}' if fresh else ''})</span>")
        self.prompt.value = f"<p>{escape(self.exercise.prompt)}</p>"
        self.position.value = self._position_html()
        self.controls.children = self._build_controls()

    def _position_html(self) -> str:
        ex, r = self.exercise, self.rules
        opts = _svg_opts(r)
        if self.kind == "which_cards_legal":
            return (f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>Trick so far:</div>"
                    f"{trick_html(r, ex.trick_leader, ex.trick)}"
                    f"<div style='margin:6px 0'>{teaching.SEAT_NAMES[ex.seat]}'s hand:</div>")
        if self.kind == "trick_winner":
            return (f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>The trick, "
                    f"{teaching.SEAT_NAMES[ex.trick_leader]} led:</div>")
        if self.kind == "score_hand":
            dec = teaching.TEAM_NAMES[ex.declarer & 1]
            rows = [("Bid", f"{ex.bid} by {teaching.SEAT_NAMES[ex.declarer]} ({dec} declare)"),
                    ("N–S captured", f"{ex.captured[0]} points ({ex.tricks_won[0]} tricks)"),
                    ("E–W captured", f"{ex.captured[1]} points ({ex.tricks_won[1]} tricks)"),
                    ("Nest", f"{ex.nest_points} points, to {teaching.TEAM_NAMES[ex.last_trick & 1]} "
                             f"(took the last trick)" if r.nest_size else "no nest"),
                    ("Rule set", r.title)]
            body = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{escape(k)}</th>"
                           f"<td>{escape(v)}</td></tr>" for k, v in rows)
            return f"<table>{body}</table>"
        if self.kind == "what_to_bid":
            return f"<div>{teaching.SEAT_NAMES[ex.seat]}'s hand:</div>{hand_svg(ex.hand, width=64, step=0.45, **opts)}"
        if self.kind == "count_points":
            return hand_svg(ex.cards, width=64, step=1.08, **opts)
        return ""

    def _build_controls(self) -> list:
        ex, r = self.exercise, self.rules
        if self.kind == "which_cards_legal":
            who = teaching.SEAT_NAMES[ex.seat]
            self.card_picker.show(ex.hand, r, multiple=True, label=f"{who}'s hand: tap every card that may be played")
            return [self.card_picker, _hint("Tap every card that may be played (tap again to take it back), then "
                                            "press Check.")]
        if self.kind == "trick_winner":
            seats = [s for s, _c in ex.trick_seats]
            led = [" (led)" if i == 0 else "" for i in range(len(seats))]
            self.card_picker.show([c for _s, c in ex.trick_seats], r, multiple=False,
                                  captions=[f"{SEATS[s]}{tag}" for s, tag in zip(seats, led)],
                                  spoken=[f"played by {teaching.SEAT_NAMES[s]}{tag}" for s, tag in zip(seats, led)],
                                  label="The trick: tap the card that wins it")
            return [self.card_picker, _hint("Tap the card that wins the trick, then press Check.")]
        if self.kind == "score_hand":
            self.ns_box = self._number_box("N–S", width="160px")
            self.ew_box = self._number_box("E–W", width="160px")
            self.ns_box.add_class("rook-answer-ns")
            self.ew_box.add_class("rook-answer-ew")
            return [widgets.HBox([self.ns_box, self.ew_box]),
                    widgets.HTML("<i>Scores can be negative: type e.g. -80.</i>")]
        if self.kind == "what_to_bid":
            options = [("Pass", "pass")] + [(str(b), b) for b in r.legal_bids(None)]
            self.bid_dropdown = widgets.Dropdown(options=options, value="pass", description="Top bid")
            self.bid_dropdown.add_class("rook-answer-bid")
            return [self.bid_dropdown]
        if self.kind == "count_points":
            self.points_box = self._number_box("Points")
            self.points_box.add_class("rook-answer-points")
            return [self.points_box]
        return []

    @staticmethod
    def _number_box(description: str, width: str | None = None) -> widgets.Text:
        """An empty text box for a number of points. A Text, not an IntText: an IntText turns "abc" into 0 in
        the browser, so the learner's typing would be graded as 0; the text is read by `answer`."""
        layout = widgets.Layout(width=width) if width else widgets.Layout()
        return widgets.Text(value="", placeholder="e.g. 85", description=description, layout=layout)

    def _read_points(self, box: widgets.Text, name: str) -> int:
        """The whole number typed in ``box`` (`teaching.Exercise.read_points`: a score may be negative, points
        counted may not); raises teaching.ExerciseError naming the box (``name``) and saying what to type if it is
        empty, holds anything else, or (a count) a number below zero."""
        try:
            return self.exercise.read_points(box.value, where=f"the {name} box")
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
            return (self._read_points(self.ns_box, "N–S"), self._read_points(self.ew_box, "E–W"))
        if self.kind == "what_to_bid":
            return self.bid_dropdown.value
        return self._read_points(self.points_box, "Points")

    def check(self) -> teaching.Feedback:
        """Check the entered answer, show the feedback and record progress (`_count`). Never raises.

        An answer that cannot be read (a number box empty or not holding a whole number, a negative count) or that
        is no answer (`teaching.Exercise.missing`: no seat picked, no card selected) is not graded and not
        recorded: the feedback says what to enter. Returns the `teaching.Feedback` shown."""
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
            return self._show(teaching.Feedback(False, f"Could not check this answer: {e}"))
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
            return self._graded(fb, f" (This exercise is done and was counted once: {FRESH_ONE})")
        if value in self.checked:
            return self._graded(fb, " (This answer was checked already: it is counted once.)")
        self.checked.add(value)
        self.progress.record(self.kind, self.rules.variant, self.seed, fb.correct and not self.revealed)
        if fb.correct:
            self.done = True
            if self.revealed:
                return self._graded(fb, f" ({NOT_COUNTED} {FRESH_ONE})")
            return self._graded(fb, " (Solved on a new try: counted as solved.)" if self.wrong_tries else "")
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
            return teaching.Feedback(False, f"Not quite. {fb.rule}{note} {TRY_AGAIN}", fb.rule, ""), "retry"
        self.revealed = True
        lead = "Wrong again." if self.wrong_tries >= 2 else "Wrong."
        return teaching.Feedback(False, f"{lead} {fb.rule}{note}", fb.rule, fb.solution), "wrong"

    def show_answer(self) -> teaching.Feedback:
        """Show the solution ("Show answer"): the right answer and its rule (`teaching.Exercise.explain`). Records
        nothing; from now on a right answer to this exercise counts as checked, not solved (unless it was solved
        already). Returns the `teaching.Feedback` shown; raises nothing."""
        if self.done:
            note = "The answer, as you found it."
        else:
            self.revealed = True
            note = f"{NOT_COUNTED} You may still enter it and press Check. {FRESH_ONE}"
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
        solution = (f"<div class='rook-solution' style='margin-top:4px'><b>The answer:</b> {escape(fb.solution)}</div>"
                    if fb.solution else "")
        self.feedback.value = (f"<div class='{cls}' style='color:{colour};background:{bg};padding:6px;"
                               f"border-left:4px solid {colour}'>{mark} {text}{solution}</div>")
        return fb

    def new_exercise(self) -> None:
        """Move to the next seed and draw a fresh exercise (no tries, nothing shown, nothing picked)."""
        self._load(self.seed + 1)


def _hint(text: str) -> widgets.HTML:
    """An italic line saying how to answer."""
    return widgets.HTML(f"<i>{escape(text)}</i>")


def exercise(kind: str, rules: Rules | str | None = None, seed: int = 0, number: int = 1) -> ExerciseWidget:
    """Shorthand for `ExerciseWidget` (same arguments, same errors); returns the widget."""
    return ExerciseWidget(kind, rules=rules, seed=seed, number=number)


# --------------------------------------------------------------------------- live examples
def show_card(card: str | Card, rules: Rules | str | None = None, width: int = 70) -> widgets.HTML:
    """One card picture with its counter value."""
    r = _rules(rules)
    c = teaching.parse_card_answer(r, card)
    pts = r.card_points.get(c, 0)
    return _html(f"<div style='display:inline-block;text-align:center'>{card_svg(c, width=width, **_svg_opts(r))}"
                 f"<div>{escape(_label(r, c))}: {pts} points</div></div>", "rook-example-card")


def show_deck(rules: Rules | str | None = None, width: int = 44) -> widgets.HTML:
    """The whole deck colour by colour; counters are highlighted in blue."""
    r = _rules(rules)
    rows = []
    for colour in "RYGB":
        cards = [c for c in r.deck if not r.is_trump_card(c) and c.colour == colour]
        hi = [c for c in cards if r.card_points[c]]
        rows.append(f"<div>{hand_svg(cards, width=width, step=0.75, highlight=hi, **_svg_opts(r))}</div>")
    special = [c for c in r.deck if r.is_trump_card(c)]
    if special:
        rows.append(f"<div>{hand_svg(special, width=width, step=1.05, highlight=special, **_svg_opts(r))}</div>")
    facts = escape(teaching.counters_text(r))
    return _html(f"<div>{''.join(rows)}<div>{border_legend('a counter (a card that scores points)')}</div>"
                 f"<p>{len(r.deck)} cards. Counters: {facts}; {r.counter_total} points in all.</p></div>",
                 "rook-example-deck")


def counters_table(rules: Rules | str | None = None) -> widgets.HTML:
    """A small table of the counters and their points."""
    r = _rules(rules)
    body = "".join(f"<tr><td>{escape(k)}</td><td style='text-align:right'>{v}</td></tr>"
                   for k, v in teaching.card_points_table(r))
    return _html(f"<table><tr><th>Card</th><th>Points</th></tr>{body}"
                 f"<tr><th>Total</th><th style='text-align:right'>{r.counter_total}</th></tr></table>",
                 "rook-counters-table")


def show_deal(rules: Rules | str | None = None, seed: int = 0, show_nest: bool = True) -> widgets.HTML:
    """A dealt hand (`teaching.example_deal`): the four hands and the nest, with their counter points."""
    d = teaching.example_deal(rules, seed)
    r = d.rules
    rows = []
    for s in range(4):
        tag = " (dealer)" if s == d.dealer else (" (calls first)" if s == (d.dealer + 1) % 4 else "")
        rows.append(f"<tr><th style='text-align:left;padding-right:8px'>{teaching.SEAT_NAMES[s]}{tag}</th>"
                    f"<td>{hand_svg(d.hands[s], width=44, step=0.5, **_svg_opts(r))}</td>"
                    f"<td style='padding-left:8px'>{d.points[s]} pts</td></tr>")
    if show_nest and r.nest_size:
        rows.append(f"<tr><th style='text-align:left'>Nest</th><td>"
                    f"{hand_svg(d.nest, width=44, step=1.05, face_up=False)}</td>"
                    f"<td style='padding-left:8px'>face down</td></tr>")
    return _html(f"<table>{''.join(rows)}</table><p>{r.title}: {r.hand_size} cards each"
                 + (f", {r.nest_size} in the nest ({d.nest_points} points hidden there)." if r.nest_size else ".")
                 + "</p>", "rook-example-deal")


def show_hand(rules: Rules | str | None = None, seed: int = 0, seat: str | int = "S") -> widgets.HTML:
    """One seat's dealt hand with the counter points in it."""
    d = teaching.example_deal(rules, seed)
    s = SEATS.index(seat) if isinstance(seat, str) else seat
    return _html(f"<div>{hand_svg(d.hands[s], width=64, step=0.45, **_svg_opts(d.rules))}"
                 f"<p>{teaching.SEAT_NAMES[s]}'s hand: {d.points[s]} points of counters.</p></div>",
                 "rook-example-hand")


def show_trick(rules: Rules | str | None = None, seed: int = 0, kind: str = "trumped") -> widgets.HTML:
    """A trick with its winner highlighted and the reason (`teaching.example_trick`)."""
    return _trick_view(teaching.example_trick(rules, seed, kind))


def show_worked_trick(rules: Rules | str | None = None, trump: str = "G", cards=(), leader: str | int = "N"
                      ) -> widgets.HTML:
    """A given trick (such as rules.md §4's worked examples: ``cards`` in play order, led by ``leader``) with the
    winner the engine finds highlighted and the reason (`teaching.worked_trick`). Raises teaching.ExerciseError
    for a trump that is no colour or cards that are not four different cards of the rule set's deck."""
    return _trick_view(teaching.worked_trick(rules, trump, cards, leader))


def _trick_view(t: teaching.TrickExample) -> widgets.HTML:
    """The trump, the trick with its winner highlighted, and the reason."""
    return _html(f"<div>{trump_badge(t.trump)}</div><div style='margin:6px 0'>"
                 f"{trick_html(t.rules, t.leader, t.cards, t.winner)}</div><p>{escape(t.reason)}</p>",
                 "rook-example-trick")


def show_legal(rules: Rules | str | None = None, seed: int = 0, kind: str = "follow") -> widgets.HTML:
    """A worked "which cards may be played" example of category ``kind`` ("follow", "bird", "void"): the trick,
    the hand with legal cards highlighted (illegal ones greyed) and the rule that decides it
    (`teaching.example_legal`, never one of the exercises). Raises teaching.ExerciseError for an unknown kind."""
    ex = teaching.example_legal(rules, seed, kind)
    r = ex.rules
    illegal = [c for c in ex.hand if c not in ex.legal]
    return _html(f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>Trick so far:</div>"
                 f"{trick_html(r, ex.trick_leader, ex.trick)}<div style='margin:6px 0'>"
                 f"{teaching.SEAT_NAMES[ex.seat]}'s hand:</div>"
                 f"{hand_svg(ex.hand, width=56, step=0.6, highlight=ex.legal, dimmed=illegal, **_svg_opts(r))}"
                 f"<div>{border_legend('may be played (greyed: may not)')}</div>"
                 f"<p>{escape(ex.reason)}</p>", "rook-example-legal")


def show_tally(rules: Rules | str | None = None, seed: int = 0) -> widgets.HTML:
    """A whole hand played by the AI: tricks, captured points, the nest, and the hand's score."""
    h = teaching.example_hand(rules, seed)
    r = h.rules
    rows = []
    for i, (leader, cards, winner, pts) in enumerate(h.tricks, 1):
        names = " ".join(f"{SEATS[(leader + k) % 4]}:{_label(r, c)}" for k, c in enumerate(cards))
        rows.append(f"<tr><td>{i}</td><td>{escape(names)}</td><td>{SEATS[winner]} "
                    f"({teaching.TEAM_NAMES[winner & 1]})</td><td style='text-align:right'>{pts}</td></tr>")
    nest = " ".join(_label(r, c) for c in h.nest)
    last = h.tricks[-1][2]
    table = (f"<table><tr><th>#</th><th>cards (leader first)</th><th>won by</th><th>points</th></tr>"
             f"{''.join(rows)}</table>")
    summary = (f"<p><b>Contract:</b> {h.bid} by {teaching.SEAT_NAMES[h.declarer]}, trump {COLOUR_NAMES[h.trump]}."
               + (f" <b>Nest:</b> {escape(nest)} = {h.nest_points} points, to "
                  f"{teaching.TEAM_NAMES[last & 1]} (last trick)." if r.nest_size else "")
               + f"<br><b>Captured:</b> N–S {h.captured[0]} ({h.tricks_won[0]} tricks), "
                 f"E–W {h.captured[1]} ({h.tricks_won[1]} tricks)."
               + f"<br><b>Score:</b> N–S {h.score[0]:+d}, E–W {h.score[1]:+d}. {escape(h.reason)}</p>")
    return _html(table + summary, "rook-example-tally")


def rules_comparison(variants: list[str] | None = None) -> widgets.HTML:
    """A table comparing rule sets, built from each `Rules.describe()` (one column per rule set)."""
    rules = [VARIANTS[v] for v in (variants or list(VARIANTS))]
    labels: list[str] = []
    cols = []
    for r in rules:
        rows = {}
        for label, value in r.describe():
            key = "The bird" if label in ("The Crow", "The Rook") else label
            if key == "The bird":
                value = f"the {r.bird_name}: {value}"
            rows[key] = value
            if key not in labels:
                labels.append(key)
        cols.append(rows)
    head = "".join(f"<th style='padding:4px'>{escape(r.title)}</th>" for r in rules)
    body = "".join(
        f"<tr><th style='text-align:left;padding:4px'>{escape(label)}</th>"
        + "".join(f"<td style='padding:4px;border-top:1px solid #ddd'>{escape(c.get(label, '—'))}</td>"
                  for c in cols) + "</tr>"
        for label in labels)
    return _html(f"<div style='overflow-x:auto'><table style='font-size:13px'><tr><th></th>{head}</tr>"
                 f"{body}</table></div>", "rook-rules-comparison")


def show_ai_walkthrough(rules: Rules | str | None = None, seed: int = 0, plays: int = 8) -> widgets.HTML:
    """The AI's calls, discard, trump and first card plays on a seeded hand, each with its explanation."""
    r = _rules(rules)
    try:
        steps = teaching.ai_walkthrough(r, seed, plays)
    except ImportError:
        return _html("<p>The AI is not available in this installation.</p>", "rook-ai-walkthrough")
    items = []
    shown: set = set()
    for st in steps:
        pic = ""
        first_call = st["kind"] == "call" and st["seat"] not in shown
        if first_call or st["kind"] == "discard":
            shown.add(st["seat"])
            what = "hand and nest" if st["kind"] == "discard" else "hand"
            pic = (f"<div style='font-size:12px;color:#555'>{teaching.SEAT_NAMES[st['seat']]}'s {what}:</div>"
                   f"<div>{hand_svg(st['hand'], width=40, step=0.45, **_svg_opts(r))}</div>")
        items.append(f"<li><b>{teaching.SEAT_NAMES[st['seat']]} {escape(st['action'])}</b> — "
                     f"{escape(st['explanation'])}{pic}</li>")
    return _html(f"<ol>{''.join(items)}</ol>", "rook-ai-walkthrough")
