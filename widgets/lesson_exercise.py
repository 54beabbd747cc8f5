"""The exercise widget of the lessons (`ExerciseWidget`): the position, the answer controls, Check / Show answer /
New exercise and the feedback, answers taken as a teacher takes them (`widgets.lessons`' module doc). Exercises,
answers and feedback come from `rookcore.teaching`; this module only draws them and keeps the learner's tries.
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

import ipywidgets as widgets

from rookcore import i18n, teaching
from rookcore.cards import Card
from rookcore.hand import team_of
from rookcore.i18n import N_, _, ngettext, pgettext
from rookcore.rules import Rules
from rookcore.words import rules_title, team_name
from widgets.card_picker import CardPicker
from widgets.cards import hand_svg
from widgets.lesson_look import (_hand_of, _hint, _html, _in_page_language, _rtl, _rules, _seat_tag, _svg_opts,
                                 page_language, page_progress, trick_html, trump_badge)
from widgets.lesson_progress import Progress

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


class ExerciseWidget(widgets.VBox):
    """One interactive exercise: the position, answer controls, Check / Show answer / New exercise, feedback.

    Answers are taken as a teacher takes them (rules.md §1–§3 through `rookcore.teaching`): a first wrong answer gets
    the rule it broke and "Try again" (the exercise stays open); a second wrong answer, or "Show answer", shows the
    solution. A right answer given before the solution was shown is solved (recorded as solved in the progress,
    whichever try it was); after the solution was shown a right answer is recorded as checked, not solved, and "Show
    answer" records nothing. Cards are answered by tapping their pictures (`widgets.card_picker.CardPicker`).

    Args: ``kind`` (str) one of `rookcore.teaching.KINDS`; ``rules`` (Rules | str | None) a Rules or variant name
    (None = CrowsNest); ``seed`` (int) the first exercise's seed ("New exercise" moves to the next seed; never shown);
    ``progress`` (Progress | None) the tracker (default: the page's, `widgets.lessons.PROGRESS`); ``number`` (int) the learner-facing number in the
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
        self.progress = progress or page_progress()
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


@_in_page_language
def exercise(kind: str, rules: Rules | str | None = None, seed: int = 0, number: int = 1) -> ExerciseWidget:
    """Shorthand for `ExerciseWidget` (same arguments, same errors); returns the widget."""
    return ExerciseWidget(kind, rules=rules, seed=seed, number=number)
