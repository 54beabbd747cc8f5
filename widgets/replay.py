"""The Replay panel: step through a recorded hand (record-format.md) card by card.

Thin widget: every fact shown comes from the engine (`HandRecord.states()`,
`HandState`, `Rules`, `records.score_report`); nothing here applies a rule.

Stable names for browser tests (CSS classes / button descriptions):
  buttons "First", "Back", "Forward", "Last" (also ``rook-replay-first`` / ``-back`` / ``-forward`` / ``-last``,
  whatever the page's language), "Load";
  ``rook-replay-examples`` (examples Dropdown), ``rook-replay-hand`` (hand of a game Dropdown),
  ``rook-replay-path`` (File Text: a record file's path, or an example's name as ``?record=`` takes it),
  ``rook-replay-upload`` (FileUpload),
  ``rook-replay-slider`` (IntSlider), ``rook-replay-step`` ("Step 12 / 45"),
  ``rook-replay-title``, ``rook-replay-action``, ``rook-replay-comment``, ``rook-replay-table``,
  ``rook-replay-info``, ``rook-replay-score`` (final score, shown at the last step),
  ``rook-replay-error`` (one-line error of a bad record; hidden when empty).

Annotation (logic in `rookcore.annotations`). A comment or mark is about the LAST action shown, as a chess program
puts a mark after the move: at slider position p ("Step p / n", p actions applied, the board showing the p-th
action) the editor works on record step p - 1 (record steps count every action from 0: auction calls, the discard,
trump, cards). At position 0 no action is shown and the editor is disabled ("step forward to comment on an
action"). ``rook-replay-comment`` shows the comment of that same step (at the last position also a comment on
step n, "after the last action", which the record format allows; it is shown, not edited here; a long comment wraps
and scrolls inside the box):
  ``rook-annotate`` (the editor box), ``rook-annotate-step`` ("Comment or mark the last action shown (step 15):
  S plays Y13" and its mark; the page numbers actions as the navigator does, record step + 1),
  ``rook-annotate-text`` (Textarea), buttons "Save comment" (``rook-annotate-save``), "Delete comment"
  (``rook-annotate-delete``), "!", "?", "??", "no mark" (``rook-annotate-mark``; the current one is highlighted),
  ``rook-annotate-status`` (what the last edit did, or its error); the action line shows the same action's mark
  as ``<span class="rook-mark">``; ``rook-annotate-path`` (Text, default ``annotated/<name>.json``), button
  "Save record" (``rook-annotate-save-record``), ``rook-annotate-result``, ``rook-annotate-download``
  (``<a download href="data:application/json;base64,...">``).
Analysis: button "Analyze" (``rook-analyze``), Dropdown "Time budget" (``rook-analysis-budget``: seconds of
  search per hand, default `rookcore.annotations.DEFAULT_BUDGET`), button "Cancel" (``rook-analyze-cancel``; shown
  only while an analysis runs: stops it and keeps what is proven so far), ``rook-analysis-status`` ("Analyzing… 51
  of 52 cards done … 27 s so far (time budget 60 s)", refreshed every few seconds while it runs; "Analysis
  cancelled after …", "Time budget used up …", errors, or why nothing is analysed), ``rook-analysis-start`` (the
  result from the first lead with best play, its proven range refined in place — "N–S (declarers, bid 120) take
  between 85 and 105 points … — proved; refining…" — then exact, and the auction judged double dummy),
  ``rook-analysis-card`` (the last card shown: loss, mark, best cards, or its proven range),
  ``rook-analysis-table`` (every card proven to have lost points, and the proven ?/??), button "Mark mistakes"
  (``rook-analyze-apply``: copy the analyzer's proven ?/?? marks into the record where no mark is set).
"""
from __future__ import annotations

import base64
import functools
import json
import re
import threading
from html import escape
from pathlib import Path
from typing import Callable

import ipywidgets as w

from rookcore import annotations, i18n, records
from rookcore.actions import Bid, Discard, NameTrump, Pass, Play
from rookcore.ai.base import move_sentence
from rookcore.cards import Card
from rookcore.examples import list_examples, load_example
from rookcore.hand import SEATS, TEAMS, HandState, Phase, team_of
from rookcore.i18n import N_, _, localize, ngettext, pgettext
from rookcore.records import GameRecord, HandRecord, RecordError
from rookcore.rules import Rules
from rookcore.table import watch_view
from rookcore.words import card_text, colour_name, player_name, rules_title, seat_name, team_name

from .cards import border_legend, card_svg, hand_svg
from .clicks import SecondClick
from .paths import ReplaceGuard, brief, readable_record, record_path, shown_path
from .progress import STARTING, AnalysisRun, Cancelled, cancellable_analysis, stop_analysis
from .table_view import TableView

GOTO_PROMPT = N_("a card with a loss…")
GOTO_NONE = -1  # the prompt's value (a None value leaves the browser's list blank)
BUDGET_CHOICES = (("5 s", 5.0), ("15 s", 15.0), ("1 min", 60.0), ("5 min", 300.0), ("20 min", 1200.0))
"""The Analyze time budgets offered (label, seconds per hand); the default is 1 min (annotations.DEFAULT_BUDGET).
The list shows them in the panel's language (`budget_choices`)."""
DRAFT_NOTE = N_("This comment is not saved yet: click Save comment to keep it.")
MAX_UPLOAD_BYTES = records.MAX_RECORD_BYTES  # 1 MB, the engine's own record size cap
DEFAULT_EXAMPLE = "crowsnest-made"
SMALL_CARD_W = 32    # px, nest and last trick


MARK_COLOURS = {"!": "#2e7d32", "!!": "#2e7d32", "!?": "#1565c0", "?!": "#ef6c00", "?": "#ef6c00",
                "??": "#c62828"}
MARK_BUTTONS = (("!", "!"), ("?", "?"), ("??", "??"), ("no mark", ""))
UNSAVED_NOTE = N_("unsaved changes")
"""Shown (in grey italics, `_unsaved_html`) beside Save record while the record has unsaved comments or marks."""


def budget_choices() -> list[tuple[str, float]]:
    """`BUDGET_CHOICES` with their labels in the active language ("5 s", "1 min"). Returns (label, seconds) pairs."""
    return [(_("{count} s", count=int(sec)) if sec < 60 else _("{count} min", count=int(sec // 60)), sec)
            for _label, sec in BUDGET_CHOICES]


def _unsaved_html() -> str:
    words = escape(_(UNSAVED_NOTE))
    return f"<i style='color:#666'>{words}</i>"
COMMENT_STYLE = ("background:#fff8e1;border-left:4px solid #ffb300;padding:4px 8px;line-height:1.4;"
                 "overflow-wrap:anywhere;word-break:break-word;max-height:9.5em;overflow-y:auto")
"""The comment box (``rook-replay-comment``): a long comment wraps, even a word with no space in it, and one of many
lines scrolls inside the box (about 6 lines) instead of pushing the table off screen."""


def mark_badge(mark: str) -> str:
    """HTML of a mark ("" → ""), class ``rook-mark``."""
    if not mark:
        return ""
    colour = MARK_COLOURS.get(mark, "#555")
    title = annotations.mark_name(mark)
    return (f" <span class='rook-mark' title='{escape(title)}' style='color:{colour};font-weight:bold'>"
            f"{escape(mark)}</span>")


def plain_record_error(line: str) -> str:
    """A record error line (`rookcore.records.RecordError`) as the page shows it to a learner: the JSON path of a
    schema error loses its ``$`` ("$.dealer: …" → "dealer: …", "$: 'variant' is a required property" → "the
    record: 'variant' is a required property"); a record step (numbered from 0, record-format.md) also gets the
    navigator's number ("step 14: …" → "step 14 (Step 15 here): …", the 15th action); the rest is kept word for
    word (the record's own words are English, as the engine and the command line write them). Raises nothing."""
    line = re.sub(r"(^|: )\$\.", r"\1", line)
    line = re.sub(r"(^|: )\$(?=:)", r"\1the record", line)
    return re.sub(r"(^|: )step (\d+):", lambda m: f"{m[1]}step {m[2]} (Step {int(m[2]) + 1} here):", line)


def _annotations_of(doc: HandRecord | GameRecord | None) -> tuple | None:
    """What a hand or game record says in comments and marks, in a form that compares equal whenever two records
    say the same (comments in step order, an empty list or mapping like none). Args: ``doc`` (None gives None).
    Returns a tuple with one ``(comments, marks)`` pair per hand. Raises nothing for a valid record."""
    if doc is None:
        return None
    hands = doc.hands if isinstance(doc, GameRecord) else [doc]
    return tuple((tuple(tuple(sorted(c.items())) for c in sorted(h.comments or (), key=lambda c: c["step"])),
                  tuple(sorted((h.marks or {}).items()))) for h in hands)


def _safe(method):
    """Run a callback in the panel's language; show any error in the annotation status line instead of raising to
    the page."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with i18n.using(self.lang):
            try:
                return method(self, *args, **kwargs)
            except (ValueError, OSError) as e:  # RecordError is a ValueError
                self._annotate_message(str(e), error=True)
            except Exception as e:  # noqa: BLE001 - never let an error reach the page
                self._annotate_message(_("internal error: {kind}: {error}", kind=type(e).__name__, error=e),
                                       error=True)
        return None

    return wrapper


def _team(seat: int) -> str:
    """The team of ``seat`` in the active language ("N–S")."""
    return team_name(team_of(seat))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# ----- text of one step -------------------------------------------------------------
def describe_step(state: HandState) -> str:
    """One line describing the action that led to ``state`` (its last action), e.g. "E bids 75", "S plays Crow"
    (cards by their names on the page, `rookcore.words.card_text`), in the active language. Raises nothing."""
    rules = state.rules

    def name(card: Card) -> str:
        return card_text(rules, card)

    if not state.history:
        if state.to_act is None:
            return _("{dealer} deals.", dealer=seat_name(state.dealer))
        return _("{dealer} deals. {first} calls first.", dealer=seat_name(state.dealer),
                 first=seat_name(state.to_act))
    seat, action, _saved = state.history[-1]
    who = seat_name(seat)
    kind = type(action)
    if kind is Bid:
        if state.phase is not Phase.AUCTION:
            return _("{seat} bids {amount} and wins the auction.", seat=who, amount=action.amount)
        return _("{seat} bids {amount}.", seat=who, amount=action.amount)
    if kind is Pass:
        if state.passed_out:
            return _("{seat} passes. All four passed: the hand is passed out and the same dealer deals again.",
                     seat=who)
        if state.phase is not Phase.AUCTION:
            return _("{seat} passes. {declarer} wins the auction at {bid}.", seat=who,
                     declarer=seat_name(state.declarer), bid=state.high_bid)
        return _("{seat} passes.", seat=who)
    if kind is Discard:
        cards = " ".join(name(c) for c in sorted(action.cards))  # as the AI moves and the marks list say it
        n = len(action.cards)
        return ngettext("{seat} buries {cards} (takes up the nest and puts this {count} back).",
                        "{seat} buries {cards} (takes up the nest and puts these {count} back).", n,
                        seat=who, cards=cards, count=n)
    if kind is NameTrump:
        return _("{seat} names trump: {colour}.", seat=who, colour=colour_name(action.colour))
    if kind is Play:
        if not state.trick and state.tricks:  # this card completed a trick
            t = state.tricks[-1]
            parts = dict(seat=who, card=name(action.card), winner=seat_name(t.winner), points=t.points)
            if state.is_over:
                return ngettext("{seat} plays {card} — {winner} wins the trick ({points} points); last trick: the "
                                "nest's {nest} point goes to {team}.",
                                "{seat} plays {card} — {winner} wins the trick ({points} points); last trick: the "
                                "nest's {nest} points go to {team}.", rules.points_of(state.nest),
                                nest=rules.points_of(state.nest), team=_team(t.winner), **parts)
            return _("{seat} plays {card} — {winner} wins the trick ({points} points).", **parts)
        return _("{seat} plays {card}.", seat=who, card=name(action.card))
    return f"{who}: {action}"


def _play_key(record: HandRecord) -> str:
    """The deal and the actions of ``record`` as one string (its JSON without comments, marks and meta): equal for
    two records of the same hand however they are annotated. Raises nothing for a valid record."""
    doc = {k: v for k, v in record.to_json().items() if k not in ("comments", "marks", "meta")}
    return json.dumps(doc, sort_keys=True)


def _stem(source: str) -> str:
    """A file name's stem for the default save path ("" → "hand")."""
    stem = Path(str(source or "")).stem.strip()
    return stem or "hand"


def _sort_key(state: HandState):
    """Display order of cards: by (effective) colour, trump last, high to low (from Rules)."""
    rules = state.rules
    order = {n: i for i, n in enumerate(rules.order)}
    trump_order = {c: i for i, c in enumerate(rules.trump_order(state.trump))} if state.trump else {}

    def key(card: Card):
        if state.trump and card in trump_order:
            return (9, trump_order[card])
        if rules.is_trump_card(card):  # bird / Red 1 before trump is named
            return (8, 0 if not card.is_bird else 1)
        return ("RYGB".index(card.colour), order[card.number])
    return key


class ReplayPanel(w.VBox):
    """Load a hand (or game) record and step through it.

    ``load_record(record)`` / ``load_text(text)`` load programmatically (return True on success;
    on failure the error line is shown and the previous record stays loaded).
    ``step`` is the slider's value (state after that many actions), ``n_steps`` its maximum;
    ``annotated_step`` the record step that comments and marks are about (the last action shown: ``step - 1``).
    ``analyze()`` / ``cancel_analysis()`` start and stop the double-dummy analysis.
    ``lang``: the panel's language (a `rookcore.i18n` code; None: the one active when it is made, English by
    default): its words, the steps, the analysis and its messages are in it, every callback runs in it (the
    analysis thread too); `set_language` changes it. Records, their comments and the engine's record errors keep
    their own words.
    """

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, analyzer: Callable[[HandRecord], dict] | None = None,
                 analyze_in_background: bool = True, lang: str | None = None, **kwargs):
        self.lang = i18n.normalize(lang) if lang is not None else i18n.current_language()
        self.record: HandRecord | None = None
        self.game: GameRecord | None = None
        self.states: list[HandState] = []
        self._report: dict | None = None
        self._busy = False
        # annotation / analysis state
        self.analyzer = analyzer  # None: rookcore.analysis.annotate.analyze_record (imported when first used)
        self.analyze_in_background = analyze_in_background
        self.analysis: dict | None = None  # analyze_record report of the hand on show
        self._analysis_by_step: dict[int, dict] = {}
        self._analysis_thread: threading.Thread | None = None
        self._analysis_solver = None  # the running analysis' Solver (cancelled when another hand is loaded)
        self._analysis_token = 0  # bumped when the running analysis is no longer wanted (under _analysis_lock)
        self._analysis_run: AnalysisRun | None = None  # the latest analysis started (its progress, its clock)
        self._analysis_lock = threading.Lock()  # the worker, its clock and the panel write the status under it
        self._source_name = "hand"
        self._auto_path = ""
        self._replace_guard = ReplaceGuard()
        self._saved_annotations: tuple | None = None  # `_annotations_of` the record when loaded or last saved
        self._saved_note = ""  # the Save result shown while the record is as loaded or saved ("Saved x.json")
        self._drafts: dict[tuple[int, int], str] = {}  # (hand, record step) -> comment typed but not saved
        self._discard = SecondClick()  # asks before another record replaces unsaved work
        self._setting_comment = False  # the panel, not the user, is writing the comment box

        # --- sources
        names = list_examples()
        self.examples = w.Dropdown(options=names, value=None, description="Example",
                                   layout=w.Layout(width="300px"))
        self.examples.add_class("rook-replay-examples")
        self.examples.observe(self._on_example, names="value")
        self.path = w.Text(placeholder="path/to/record.json or an example", description="File",
                           layout=w.Layout(width="320px"))
        self.path.add_class("rook-replay-path")
        self.load_button = w.Button(description="Load",
                                    tooltip="Load the record at this path (or the example of this name)",
                                    layout=w.Layout(width="70px"))
        self.load_button.on_click(self._on_load_path)
        self.upload = w.FileUpload(accept=".json,application/json", multiple=False,
                                   description="Upload .json", tooltip="Open a record (.json) from your computer")
        self.upload.add_class("rook-replay-upload")
        self.upload.observe(self._on_upload, names="value")
        self.hand_select = w.Dropdown(options=[], description="Hand", layout=w.Layout(width="300px", display="none"))
        self.hand_select.add_class("rook-replay-hand")
        self.hand_select.observe(self._on_hand, names="value")
        self.error = w.HTML("", layout=w.Layout(display="none"))
        self.error.add_class("rook-replay-error")

        # --- navigation
        self.first_button = w.Button(description="First", icon="fast-backward", layout=w.Layout(width="80px"))
        self.back_button = w.Button(description="Back", icon="step-backward", layout=w.Layout(width="80px"))
        self.forward_button = w.Button(description="Forward", icon="step-forward", layout=w.Layout(width="95px"))
        self.last_button = w.Button(description="Last", icon="fast-forward", layout=w.Layout(width="80px"))
        for b, name in ((self.first_button, "first"), (self.back_button, "back"), (self.forward_button, "forward"),
                        (self.last_button, "last")):
            b.add_class(f"rook-replay-{name}")  # found by class in any language
        self.first_button.on_click(lambda _b: self.go(0))
        self.back_button.on_click(lambda _b: self.go(self.step - 1))
        self.forward_button.on_click(lambda _b: self.go(self.step + 1))
        self.last_button.on_click(lambda _b: self.go(self.n_steps))
        self.slider = w.IntSlider(value=0, min=0, max=0, readout=False, continuous_update=True,
                                  layout=w.Layout(width="320px"))
        self.slider.add_class("rook-replay-slider")
        self.slider.observe(lambda ch: self._show(), names="value")
        self.step_label = w.Label("Step 0 / 0")
        self.step_label.add_class("rook-replay-step")

        # --- display
        self.title = w.HTML("")
        self.title.add_class("rook-replay-title")
        self.action = w.HTML("")
        self.action.add_class("rook-replay-action")
        self.comment = w.HTML("", layout=w.Layout(display="none"))
        self.comment.add_class("rook-replay-comment")
        # the table as a watcher sees it (every hand face up), drawn by the Play tab's card table widget
        self.table_view = TableView(pace=0)
        self.table_view.add_class("rook-replay-table-view")
        self.table = w.HTML("")  # the legend of the blue border, when the last action was a card
        self.table.add_class("rook-replay-table")
        self.info = w.HTML("")
        self.info.add_class("rook-replay-info")
        self.score = w.HTML("", layout=w.Layout(display="none"))
        self.score.add_class("rook-replay-score")

        # --- annotation editor (the current step = the slider value)
        self.annotate_step = w.HTML("")
        self.annotate_step.add_class("rook-annotate-step")
        self.comment_text = w.Textarea(placeholder="Comment on the last action shown…", rows=2,
                                       layout=w.Layout(width="440px"))
        self.comment_text.add_class("rook-annotate-text")
        self.comment_text.observe(self._on_comment_typed, names="value")
        self.save_comment_button = w.Button(description="Save comment", layout=w.Layout(width="130px"))
        self.save_comment_button.add_class("rook-annotate-save")
        self.save_comment_button.on_click(lambda _b: self.save_comment())
        self.delete_comment_button = w.Button(description="Delete comment", layout=w.Layout(width="130px"))
        self.delete_comment_button.add_class("rook-annotate-delete")
        self.delete_comment_button.on_click(lambda _b: self.delete_comment())
        self.mark_buttons: dict[str, w.Button] = {}
        for label, mark in MARK_BUTTONS:
            b = w.Button(description=label, tooltip=annotations.MARK_NAMES.get(mark, "remove the mark"),
                         layout=w.Layout(width="80px" if not mark else "44px"))
            b.add_class("rook-annotate-mark")
            b.on_click(lambda _b, mark=mark: self.set_mark(mark))
            self.mark_buttons[mark] = b
        self.annotate_status = w.HTML("")
        self.annotate_status.add_class("rook-annotate-status")
        self.mark_label = w.HTML("<span style='margin:0 4px 0 12px'>Mark:</span>")
        edit_row = w.HBox([self.comment_text,
                           w.VBox([self.save_comment_button, self.delete_comment_button]),
                           self.mark_label,
                           *self.mark_buttons.values()],
                          layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.annotate_box = w.VBox([self.annotate_step, edit_row, self.annotate_status],
                                   layout=w.Layout(border="1px solid #e0e0e0", padding="4px 8px", margin="4px 0"))
        self.annotate_box.add_class("rook-annotate")

        # --- save the annotated record
        self.save_path = w.Text(description="Save to", layout=w.Layout(width="360px"))
        self.save_path.add_class("rook-annotate-path")
        self.save_record_button = w.Button(description="Save record", tooltip="Write the annotated record (JSON)",
                                           layout=w.Layout(width="110px"))
        self.save_record_button.add_class("rook-annotate-save-record")
        self.save_record_button.on_click(lambda _b: self.save_record())
        self.save_result = w.HTML("")
        self.save_result.add_class("rook-annotate-result")
        self.download = w.HTML("")
        self.download.add_class("rook-annotate-download")

        # --- double-dummy analysis
        self.analyze_button = w.Button(description="Analyze", icon="search",
                                       tooltip="Double-dummy analysis: what each card played cost",
                                       layout=w.Layout(width="100px"))
        self.analyze_button.add_class("rook-analyze")
        self.analyze_button.on_click(lambda _b: self.analyze())
        self.analysis_budget = w.Dropdown(description="Time budget", options=list(BUDGET_CHOICES),
                                          value=annotations.DEFAULT_BUDGET, layout=w.Layout(width="190px"),
                                          tooltip="How long Analyze searches this hand before it shows what is "
                                                  "proven (ranges where the exact value is not found)",
                                          style={"description_width": "initial"})
        self.analysis_budget.add_class("rook-analysis-budget")
        self.cancel_button = w.Button(description="Cancel", icon="stop", button_style="danger", disabled=True,
                                      tooltip="Stop the running analysis (what is proven so far stays shown)",
                                      layout=w.Layout(width="90px", display="none"))
        self.cancel_button.add_class("rook-analyze-cancel")
        self.cancel_button.on_click(lambda _b: self.cancel_analysis())
        self.apply_marks_button = w.Button(description="Mark mistakes", disabled=True,
                                           tooltip="Copy the analysis' ? and ?? marks into the record "
                                                   "(steps you marked keep your mark)",
                                           layout=w.Layout(width="130px"))
        self.apply_marks_button.add_class("rook-analyze-apply")
        self.apply_marks_button.on_click(lambda _b: self.apply_analysis_marks())
        self.analysis_status = w.HTML("")
        self.analysis_status.add_class("rook-analysis-status")
        self.analysis_start = w.HTML("")  # the first lead's result (its proven range, refined) and the auction
        self.analysis_start.add_class("rook-analysis-start")
        self.analysis_card = w.HTML("")
        self.analysis_card.add_class("rook-analysis-card")
        self.analysis_table = w.HTML("")
        self.analysis_table.add_class("rook-analysis-table")
        self.analysis_goto = w.Dropdown(description="Go to:", options=[(GOTO_PROMPT, GOTO_NONE)], value=GOTO_NONE,
                                        layout=w.Layout(width="420px", display="none"),
                                        style={"description_width": "initial"})
        self.analysis_goto.add_class("rook-analysis-goto")
        self._goto_sync = False
        self.analysis_goto.observe(self._on_goto, names="value")

        sources = w.HBox([self.examples, self.path, self.load_button, self.upload],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"))
        nav = w.HBox([self.first_button, self.back_button, self.slider, self.forward_button,
                      self.last_button, self.step_label],
                     layout=w.Layout(flex_flow="row wrap", align_items="center"))
        board = w.VBox([self.table_view, self.table], layout=w.Layout(flex="1 1 540px", max_width="760px",
                                                                       min_width="0"))
        body = w.HBox([board, w.VBox([self.info, self.score], layout=w.Layout(width="430px", margin="0 0 0 12px"))],
                      layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        save_row = w.HBox([self.save_path, self.save_record_button, self.save_result, self.download],
                          layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.analysis_box = w.VBox([
            w.HBox([self.analyze_button, self.analysis_budget, self.cancel_button, self.apply_marks_button,
                    self.analysis_status], layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.analysis_start, self.analysis_card, self.analysis_goto, self.analysis_table],
            layout=w.Layout(margin="6px 0"))
        self.analysis_box.add_class("rook-analysis")
        super().__init__([sources, self.hand_select, self.error, self.title, nav, self.action,
                          self.comment, self.annotate_box, body, save_row, self.analysis_box], **kwargs)
        self.add_class("rook-replay")
        self.draw_words()
        if example and example in names:
            self.examples.value = example
        else:
            self._show()

    @i18n.in_own_language
    def draw_words(self) -> None:
        """The panel's own words (labels, buttons, tooltips, placeholders, the lists' labels) in its language.
        Raises nothing."""
        self.examples.description = _("Example")
        self.path.placeholder = _("path/to/record.json or an example")
        self.path.description = _("File")
        self.load_button.description = _("Load")
        self.load_button.tooltip = _("Load the record at this path (or the example of this name)")
        self.upload.description = _("Upload .json")
        self.upload.tooltip = _("Open a record (.json) from your computer")
        self.hand_select.description = _("Hand")
        self.first_button.description = _("First")
        self.back_button.description = _("Back")
        self.forward_button.description = _("Forward")
        self.last_button.description = _("Last")
        self.comment_text.placeholder = _("Comment on the last action shown…")
        self.save_comment_button.description = _("Save comment")
        self.delete_comment_button.description = _("Delete comment")
        for mark, b in self.mark_buttons.items():
            if not mark:
                b.description = _("no mark")
            b.tooltip = annotations.mark_name(mark) if mark else _("remove the mark")
        mark = escape(_("Mark:"))
        self.mark_label.value = f"<span style='margin:0 4px 0 12px'>{mark}</span>"
        self.save_path.description = _("Save to")
        self.save_record_button.description = _("Save record")
        self.save_record_button.tooltip = _("Write the annotated record (JSON)")
        self.analyze_button.description = _("Analyze")
        self.analyze_button.tooltip = _("Double-dummy analysis: what each card played cost")
        budget = self.analysis_budget.value
        self.analysis_budget.options = budget_choices()
        self.analysis_budget.value = budget
        self.analysis_budget.description = _("Time budget")
        self.analysis_budget.tooltip = _("How long Analyze searches this hand before it shows what is proven "
                                         "(ranges where the exact value is not found)")
        self.cancel_button.description = _("Cancel")
        self.cancel_button.tooltip = _("Stop the running analysis (what is proven so far stays shown)")
        self.apply_marks_button.description = _("Mark mistakes")
        self.apply_marks_button.tooltip = _("Copy the analysis' ? and ?? marks into the record (steps you marked "
                                            "keep your mark)")
        self.analysis_goto.description = _("Go to:")
        if self.game is not None:
            self._busy = True
            try:
                index = self.hand_select.value
                self.hand_select.options = [(self._hand_label(i, h), i) for i, h in enumerate(self.game.hands)]
                self.hand_select.value = index
            finally:
                self._busy = False

    def set_language(self, lang: str | None) -> None:
        """Show the panel in ``lang`` (a `rookcore.i18n` code, normalized: an unknown one is English) from now on:
        its words, the step on show, the analysis and the editor are drawn again in it, and every later callback
        runs in it. A status line already shown keeps its words until the next message. Raises nothing."""
        self.lang = i18n.normalize(lang)
        self.draw_words()
        self._show()

    # ----- public ---------------------------------------------------------------
    @property
    def step(self) -> int:
        """The step shown (state after this many actions)."""
        return self.slider.value

    @property
    def n_steps(self) -> int:
        """The last step of the loaded hand (number of actions)."""
        return max(len(self.states) - 1, 0)

    @property
    def state(self) -> HandState | None:
        """The `HandState` at the shown step (None before a record is loaded)."""
        return self.states[self.step] if self.states else None

    @i18n.in_own_language
    def go(self, step: int) -> None:
        """Show ``step`` (clamped to 0..n_steps)."""
        self.slider.value = max(0, min(step, self.n_steps))

    @i18n.in_own_language
    def show_record(self, record: HandRecord, step: int = 0, name: str | None = None,
                    again: str | None = None) -> bool:
        """Show the hand ``record`` at navigator ``step`` — how the Play tab opens the hand just played, at its
        start or at a costly card.

        Args:
          record: a `HandRecord` (a finished hand, e.g. `rookcore.table.Table.record`).
          step: int, the navigator's step (actions applied: 0 = the deal, ``n_steps`` = the end; clamped).
          name: the default save name (``annotated/<name>.json``) when the record is loaded (default "hand").
          again: how to confirm dropping unsaved comments, for the question, in the panel's language (None: "open it
            again").
        If the same hand (the same deal and actions) is on show already only the step changes, so its comments and
        marks stay. Otherwise the record is loaded (`load_record`); unsaved comments or marks of the record on show
        are dropped only on a second request (the first shows the question, `_may_discard`).
        Returns True when the hand is on show at ``step``; False with the error line shown (not a hand record, a
        bad step, a bad record, or the question). Raises nothing.
        """
        if not isinstance(record, HandRecord):
            self.show_error(_("only a hand record can be opened at a step (a game record: load it and choose the "
                              "hand)"))
            return False
        if isinstance(step, bool) or not isinstance(step, int):
            self.show_error(_("the step to show must be a whole number of actions, not {value}", value=repr(step)))
            return False
        key = _play_key(record)
        if self.record is None or self.game is not None or _play_key(self.record) != key:
            again = again or _("open it again")
            if not self._may_discard(("shown", key), again) or not self.load_record(record, name=name):
                return False
            self.path.value = ""  # the File box named the record shown before
        else:
            self.clear_error()
        self.go(step)
        return True

    @i18n.in_own_language
    def load_text(self, text: str | bytes, source: str = "") -> bool:
        """Parse and load a record from JSON text; on a bad record show its error line and keep the old one."""
        record = self._parse(text, source)
        return record is not None and self.load_record(record, _from_example=False, name=_stem(source))

    def _parse(self, text: str | bytes, source: str = "") -> HandRecord | GameRecord | None:
        """The record in the JSON ``text`` (from ``source``, a name for the error line), validated by
        `records.loads`. Returns None with the error line shown for a bad record (nothing else changes)."""
        try:
            return records.loads(text)
        except RecordError as e:
            self.show_error(f"{source + ': ' if source else ''}{e}")
            return None

    @i18n.in_own_language
    def load_record(self, record: HandRecord | GameRecord, *, _from_example: bool = False,
                    name: str | None = None) -> bool:
        """Load a hand or game record object and show step 0. Returns False (error shown) if it is invalid.

        ``name`` (default "hand") gives the default save path ``annotated/<name>.json``.
        """
        ok = self._load_record(record, _from_example=_from_example)
        if ok:
            self._source_name = name or "hand"
            # a new record gets its own default path (never save one record over the file typed for another)
            self._auto_path = self.save_path.value = f"annotated/{self._source_name}.json"
            self._saved_annotations = _annotations_of(self.game if self.game is not None else self.record)
            self._saved_note = ""
            self._drafts.clear()
            self._discard.forget()
            self.save_result.value = self.annotate_status.value = ""
            self._draw_download()
            self._show_annotations()
        return ok

    def _load_record(self, record: HandRecord | GameRecord, *, _from_example: bool = False) -> bool:
        if isinstance(record, GameRecord):
            if not record.hands:
                self.show_error(_("the game record has no hands"))
                return False
            try:
                hand_states = [list(h.states()) for h in record.hands]
            except RecordError as e:
                self.show_error(str(e))
                return False
            self.game = record
            self._busy = True
            try:
                self.hand_select.options = [(self._hand_label(i, h), i) for i, h in enumerate(record.hands)]
                self.hand_select.value = 0
            finally:
                self._busy = False
            self.hand_select.layout.display = ""
            self._game_states = hand_states
            ok = self._set_hand(record.hands[0], hand_states[0])
        else:
            try:
                states = list(record.states())
            except RecordError as e:
                self.show_error(str(e))
                return False
            self.game = None
            self.hand_select.layout.display = "none"
            ok = self._set_hand(record, states)
        if ok and not _from_example:
            self._busy = True
            try:
                self.examples.value = None
            finally:
                self._busy = False
        return ok

    def show_error(self, message: str) -> None:
        """Show one error line (first line of ``message``, its JSON paths in words: `plain_record_error`) above the
        replay."""
        line = plain_record_error(message.splitlines()[0]) if message else _("error")
        self.error.value = f'<div style="color:#b71c1c;font-weight:bold">⚠ {escape(line, quote=False)}</div>'
        self.error.layout.display = ""

    def show_note(self, message: str) -> None:
        """Show one line of information (not an error: grey, no warning sign) where errors are shown; the next
        error or `clear_error` replaces it."""
        self.error.value = f'<div class="rook-replay-note" style="color:#555">{escape(message, quote=False)}</div>'
        self.error.layout.display = ""

    def clear_error(self) -> None:
        """Hide the error line."""
        self.error.value = ""
        self.error.layout.display = "none"

    # ----- loading ----------------------------------------------------------------
    @property
    def unsaved(self) -> bool:
        """Whether the record on show has comments or marks not yet saved, or a comment typed but not saved."""
        return self.changed or bool(self._drafts)

    @property
    def changed(self) -> bool:
        """Whether the comments and marks of the record on show (every hand of a game) differ from those it had
        when it was loaded or last saved (`_annotations_of`): a comment or mark added and then removed again is
        no change. Comments typed but not saved (drafts) do not count here (`unsaved` counts them)."""
        doc = self.game if self.game is not None else self.record
        return doc is not None and _annotations_of(doc) != self._saved_annotations

    def _may_discard(self, key: tuple, again: str) -> bool:
        """Whether loading another record (``key`` names it) may go ahead: yes without unsaved work, else only when
        this is the second request for it (`SecondClick`); the first one shows the question, naming how to confirm
        (``again``, e.g. "click Load again"). Returns bool."""
        if not self.unsaved or self._discard.confirmed(key):
            return True
        self.show_error(_("This record has comments or marks that are not saved: click Save record first, or {again} "
                          "to load the other record without them.", again=again))
        return False

    def _hand_label(self, i: int, hand: HandRecord) -> str:
        """The Hand list's label of hand ``i`` of the game: "Hand 2 (dealer E): N bid 85, made" (active language)."""
        report = records.score_report(hand)
        parts = dict(number=i + 1, dealer=seat_name(hand.dealer))
        if report.get("passed_out"):
            return _("Hand {number} (dealer {dealer}): passed out", **parts)
        if "score" in report and "declarer" in report:
            declarer = seat_name(SEATS.index(report["declarer"]))
            if report["made"]:
                return _("Hand {number} (dealer {dealer}): {declarer} bid {bid}, made", declarer=declarer,
                         bid=report["bid"], **parts)
            return _("Hand {number} (dealer {dealer}): {declarer} bid {bid}, set", declarer=declarer,
                     bid=report["bid"], **parts)
        return _("Hand {number} (dealer {dealer}): unfinished", **parts)

    def _set_hand(self, record: HandRecord, states: list[HandState], why: str | None = None) -> bool:
        """Show ``record`` (with its replayed ``states``) from step 0; a running analysis of the hand shown before
        is stopped, and the status says ``why`` (default "another record was loaded"). Returns False (error shown)
        if it cannot be scored."""
        try:
            report = records.score_report(record)
        except RecordError as e:
            self.show_error(str(e))
            return False
        self.record, self.states, self._report = record, states, report
        self._reset_analysis(why)
        self.clear_error()
        self.annotate_status.value = ""  # its news was about the hand shown before
        # value first, in a message of its own: were the end lowered first, the browser would clamp its old value
        # to the new end and send that back after the 0
        self.slider.value = 0
        self.slider.max = self.n_steps
        self._show()
        return True

    @i18n.in_own_language
    def _on_example(self, change) -> None:
        if self._busy or change["new"] is None:
            return
        name = change["new"]
        record = self._read_example(name)
        if record is None or not self._may_discard(("example", name), _("choose {name} again", name=name)):
            self._busy = True
            try:  # the dropdown goes back to what is on show
                self.examples.value = change["old"] if self.record is not None else None
            finally:
                self._busy = False
            return
        if self._load_example(record, name):
            self.path.value = ""  # the File box named the record shown before

    def _read_example(self, name: str) -> HandRecord | GameRecord | None:
        """The bundled record ``name`` (one of `list_examples`), read and validated (`load_example`). Returns None
        with the error line shown if it is not a valid record (nothing else changes)."""
        try:
            return load_example(name)
        except RecordError as e:
            self.show_error(str(e))
            return None

    def _load_example(self, record: HandRecord | GameRecord, name: str) -> bool:
        """Show the bundled record ``record`` (read by `_read_example`) under its ``name``, which the Example list
        then shows. Returns True on success; False with the error line shown."""
        if not self.load_record(record, _from_example=True, name=name):
            return False
        self._busy = True
        try:
            self.examples.value = name
        finally:
            self._busy = False
        return True

    @i18n.in_own_language
    def _on_hand(self, change) -> None:
        if self._busy or self.game is None or change["new"] is None:
            return
        i = change["new"]
        self._set_hand(self.game.hands[i], self._game_states[i], why=_("hand {number} of the game was chosen",
                                                                          number=i + 1))

    @i18n.in_own_language
    def _on_load_path(self, _button) -> None:
        """The Load button: load what the File box names, a bundled record's name (as ``?record=`` takes it:
        `list_examples`, e.g. ``crowsnest-set``; it comes before a file of that name without ``.json``) or the path
        of a record file in the app's folder. A name that cannot be loaded is reported at once; only a loadable
        record asks before it replaces unsaved comments or marks (a second click on Load loads it)."""
        path = self.path.value.strip()
        if not path and self.examples.value is not None and self.record is not None:
            self.show_note(_("The example {name} is on show: an example loads as soon as it is chosen in the list. "
                             "Load reads the File box (a record file's path or an example's name).",
                             name=self.examples.value))
            return
        if not path:
            self.show_error(_("type the path of a .json record file (or the name of an example) first"))
            return
        example = path in list_examples()
        record = self._read_example(path) if example else self._read_file(path)
        if record is None or not self._may_discard(("file", path), _("click Load again")):
            return
        if example:
            self._load_example(record, path)
        else:
            self._load_file(record, path)

    @i18n.in_own_language
    def load_file(self, path: str) -> bool:
        """Load the record file at ``path`` (a str, relative to the app's folder or absolute inside it:
        `widgets.paths.app_path`) and show step 0; the File box then names it. Returns True on success; False with
        the error line shown (a path outside the folder, a missing file, a bad record) and the record on show
        unchanged. Does not ask about unsaved comments (the Load button does)."""
        record = self._read_file(path)
        return record is not None and self._load_file(record, path)

    def _read_file(self, path: str) -> HandRecord | GameRecord | None:
        """The record in the file at ``path`` (`load_file`), read within the upload's size cap and validated.
        Returns None with the error line shown (a path outside the folder, a missing file, a bad record); nothing
        else changes."""
        from rookcore.cli import read_record  # the engine's capped, validating file reader
        try:
            target = str(readable_record(path))
            return read_record(target, MAX_UPLOAD_BYTES)  # the upload's cap: a 60 MB file is not read in full
        except RecordError as e:
            message = str(e)[len(target):].lstrip(": ") if str(e).startswith(target) else str(e)
            self.show_error(f"{brief(shown_path(target))}: {message}")
        except ValueError as e:  # outside the app's folder (RecordError, a ValueError, is caught above)
            self.show_error(str(e))
        return None

    def _load_file(self, record: HandRecord | GameRecord, path: str) -> bool:
        """Show ``record``, read from the file at ``path`` (`_read_file`), which the File box then names. Returns
        True on success; False with the error line shown."""
        if not self.load_record(record, name=_stem(path)):
            return False
        self.path.value = path
        return True

    @i18n.in_own_language
    def _on_upload(self, change) -> None:
        files = change["new"]
        if self._busy or not files:
            return
        item = files[0]
        name = item.get("name", "upload") if isinstance(item, dict) else getattr(item, "name", "upload")
        size = item.get("size") if isinstance(item, dict) else getattr(item, "size", None)
        content = item.get("content") if isinstance(item, dict) else getattr(item, "content", b"")
        data = bytes(content)
        if (size or 0) > MAX_UPLOAD_BYTES or len(data) > MAX_UPLOAD_BYTES:
            self.show_error(_("{name} is larger than 1 MB: not loaded", name=name))
        else:  # a bad file is reported before any question about unsaved comments (it would lose nothing)
            record = self._parse(data, source=name)
            if (record is not None and self._may_discard(("upload", name, len(data)), _("upload {name} again",
                                                                                         name=name))
                    and self.load_record(record, name=_stem(name))):
                self.path.value = ""  # the File box named the record shown before
        self._busy = True
        try:
            self.upload.value = ()
        finally:
            self._busy = False

    # ----- drawing ------------------------------------------------------------------
    @i18n.in_own_language
    def _show(self) -> None:
        state, record = self.state, self.record
        n, k = self.n_steps, self.step
        self.step_label.value = _("Step {step} / {steps}", step=k, steps=n)
        self.first_button.disabled = self.back_button.disabled = k <= 0
        self.forward_button.disabled = self.last_button.disabled = k >= n
        if state is None or record is None:
            words = escape(_("No record loaded."))
            self.title.value = f"<i>{words}</i>"
            self.action.value = self.table.value = self.info.value = ""
            self.table_view.layout.display = "none"
            self.score.layout.display = self.comment.layout.display = "none"
            self._show_annotations()
            return
        rules = state.rules
        players = (record.meta or {}).get("players") or {}
        who = " · ".join(f"{seat_name(i)}: {escape(player_name(str(players[s])))}" for i, s in enumerate(SEATS) if s in players)
        dealer = escape(_("dealer {seat}", seat=seat_name(state.dealer)))
        self.title.value = (f"<b>{escape(rules_title(rules))}</b> — {dealer}"
                            + (f" <span class='rook-replay-players' style='color:#666'>({who})</span>" if who else ""))
        last = escape(_("Last action:"))
        self.action.value = ((f"<span style='color:#666'>{last}</span> " if k > 0 else "")
                             + f"<b>{escape(describe_step(state), quote=False)}</b>"
                             + (mark_badge(annotations.mark_at(record, k - 1)) if k > 0 else ""))
        self.comment.value = self._comment_html(record, k)
        self.comment.layout.display = "" if self.comment.value else "none"
        self._draw_table(state)
        self.info.value = self._info_html(state)
        if k == n:
            self.score.value = self._score_html(state)
            self.score.layout.display = ""
        else:
            self.score.value = ""
            self.score.layout.display = "none"
        self._show_annotations()

    def _comment_html(self, record: HandRecord, k: int) -> str:
        """The comment box at slider position ``k``: the comment of the last action shown (record step k-1; none at
        position 0), and at the last position also a comment on record step n ("after the last action", which the
        record format allows; shown, not edited here). "" when there is none."""
        parts = []
        if k > 0 and record.comment_at(k - 1):
            parts.append(escape(_("Comment: {text}", text=record.comment_at(k - 1))).replace(chr(10), '<br>'))
        if k == self.n_steps and k > 0 and record.comment_at(k):
            parts.append(escape(_("After the last action: {text}", text=record.comment_at(k))).replace(chr(10),
                                                                                                      '<br>'))
        if not parts:
            return ""
        return f"<div class='rook-replay-comment-text' style='{COMMENT_STYLE}'>" + "<br>".join(parts) + "</div>"

    def _draw_table(self, state: HandState) -> None:
        """The table at the step shown (`rookcore.table.watch_view`: every hand face up, the trick in progress or
        the one just completed with its winner), and the blue border's legend when a card was just played."""
        self.table_view.layout.display = None
        self.table_view.show(watch_view(state), state.rules, token=f"replay-{self.step}")
        last_played = bool(state.history) and isinstance(state.history[-1][1], Play)
        self.table.value = border_legend(_("the last card played")) if last_played else ""

    def _info_html(self, state: HandState) -> str:
        """The facts at the step shown (auction, contract, trump, nest, last trick, points and tricks), in the
        active language."""
        rules = state.rules
        name = rules.card_name
        rows: list[tuple[str, str]] = []
        passed = pgettext("call", "pass")
        calls = " · ".join(f"{seat_name(s)} {passed if type(a) is Pass else a}" for s, a in state.calls) or "—"
        rows.append((pgettext("replay", "Auction"), escape(calls)))
        if state.high_bid is None:
            contract = _("no bid yet") if state.phase is Phase.AUCTION else _("passed out")
        elif state.phase is Phase.AUCTION:
            contract = _("high bid {bid} by {seat}", bid=state.high_bid, seat=seat_name(state.declarer))
        else:
            contract = _("{seat} ({team}) bid {bid}", seat=seat_name(state.declarer), team=_team(state.declarer),
                         bid=state.high_bid)
        rows.append((pgettext("replay", "Contract"), escape(contract)))
        rows.append((pgettext("replay", "Trump"), escape(colour_name(state.trump)) if state.trump else "—"))
        if rules.nest_size:
            if state.discard is not None:
                nest_label = _("Nest (put back by {seat})", seat=seat_name(state.declarer))
            elif state.phase is Phase.DISCARD:
                nest_label = _("Nest (as dealt, taken up by {seat})", seat=seat_name(state.declarer))
            else:
                nest_label = _("Nest (as dealt)")
            nest = sorted(state.nest, key=_sort_key(state))
            rows.append((nest_label, hand_svg(nest, bird_name=rules.bird_name, red_one=rules.red_one,
                                              width=SMALL_CARD_W, step=0.7)))
        if state.tricks:
            t = state.tricks[-1]
            svg = "".join(card_svg(c, bird_name=rules.bird_name, red_one=rules.red_one, width=SMALL_CARD_W)
                          for c in t.cards)
            led = escape(_("led by {seat}: {cards}", seat=seat_name(t.leader),
                           cards=" ".join(name(c) for c in t.cards)))
            won = escape(_("{seat} wins", seat=seat_name(t.winner)))
            points = escape(ngettext("{count} point", "{count} points", t.points, count=t.points))
            rows.append((_("Last trick ({number})", number=len(state.tricks)),
                         f"{svg}<br>{led} — <b>{won}</b>, {points}"))
        ns, ew = team_name(0), team_name(1)
        rows.append((_("Captured"), escape(f"{ns} {state.captured[0]} · {ew} {state.captured[1]}")))
        rows.append((_("Tricks won"), escape(f"{ns} {state.tricks_won[0]} · {ew} {state.tricks_won[1]}")))
        body = "".join(f"<tr><th style='text-align:start;vertical-align:top;padding:2px 6px 2px 0;"
                       f"white-space:nowrap'>{escape(k)}</th><td style='padding:2px 0'>{v}</td></tr>"
                       for k, v in rows)
        return f"<table style='font-size:13px;line-height:1.3;border-collapse:collapse'>{body}</table>"

    def _score_html(self, state: HandState) -> str:
        """The final score box (the record's score report), in the active language."""
        r = self._report or {}
        box = "border:2px solid #1565c0;border-radius:8px;padding:6px 10px;margin-top:6px;font-size:14px"
        ns, ew = team_name(0), team_name(1)

        def team(key: str) -> str:  # a report's team key ("NS", "EW")
            return team_name(TEAMS.index(key))

        if r.get("passed_out"):
            body = escape(_("Passed out: all four seats passed. The same dealer deals again; score {ns} 0 · {ew} 0.",
                            ns=ns, ew=ew))
        elif r.get("complete") is False or "made" not in r:
            cap = r.get("captured", {"NS": state.captured[0], "EW": state.captured[1]})
            parts = dict(ns=ns, ew=ew, ns_points=cap["NS"], ew_points=cap["EW"])
            if "declarer" in r and "bid" in r:
                body = escape(_("Unfinished hand: {seat} bid {bid}. Captured so far: {ns} {ns_points} · {ew} "
                                "{ew_points}.", seat=seat_name(SEATS.index(r["declarer"])), bid=r["bid"], **parts))
            else:
                body = escape(_("Unfinished hand. Captured so far: {ns} {ns_points} · {ew} {ew_points}.", **parts))
        else:
            decl = SEATS.index(r["declarer"])
            cap, score = r["captured"], r["score"]
            parts = dict(seat=seat_name(decl), team=_team(decl), bid=r["bid"])
            result = (_("Declarer {seat} ({team}) bid {bid}: made", **parts) if r["made"]
                      else _("Declarer {seat} ({team}) bid {bid}: set", **parts))
            captured = _("Captured: {ns} {ns_points} · {ew} {ew_points} (nest {nest} to {last}; tricks {ns} "
                         "{ns_tricks} · {ew} {ew_tricks})", ns=ns, ew=ew, ns_points=cap["NS"], ew_points=cap["EW"],
                         nest=r["nest_points"], last=team(r["last_trick"]), ns_tricks=r["tricks_won"]["NS"],
                         ew_tricks=r["tricks_won"]["EW"])
            final = _("Score: {ns} {ns_score} · {ew} {ew_score}", ns=ns, ew=ew, ns_score=_signed(score["NS"]),
                      ew_score=_signed(score["EW"]))
            head = escape(_("Final score"))
            body = (f"<div><b>{head}</b></div><div><b>{escape(result)}</b></div>"
                    f"<div>{escape(captured)}</div><div><b>{escape(final)}</b></div>")
        if self.game is not None:
            g = records.score_report(self.game)
            win = g.get("winner")
            parts = dict(ns=ns, ew=ew, ns_score=g["score"]["NS"], ew_score=g["score"]["EW"])
            game = (_("Game: {ns} {ns_score} · {ew} {ew_score} — {team} win", team=team(win), **parts) if win
                    else _("Game: {ns} {ns_score} · {ew} {ew_score}", **parts))
            body += f"<div style='margin-top:4px;color:#333'>{escape(game)}</div>"
        return f"<div style='{box}'>{body}</div>"

    # ----- annotation ------------------------------------------------------------------
    def _annotate_message(self, message: str, error: bool = False) -> None:
        if error:
            line = message.splitlines()[0] if message else "error"
            self.annotate_status.value = (f"<span class='rook-annotate-error' style='color:#b71c1c;"
                                          f"font-weight:bold'>⚠ {escape(line, quote=False)}</span>")
        else:
            self.annotate_status.value = f"<span class='rook-annotate-info'>{escape(message, quote=False)}</span>"

    def _require_record(self) -> HandRecord:
        if self.record is None:
            raise ValueError(_("load a record first"))
        return self.record

    def _replace_record(self, new: HandRecord) -> None:
        """Put an edited copy of the hand on show in place (and into the game record, if one is loaded); the Save
        result says "unsaved changes" unless its comments and marks are back to the saved ones (`changed`)."""
        self.record = new
        if self.game is not None:
            i = self.hand_select.value if self.hand_select.value is not None else 0
            self.game.hands[i] = new
        self.save_result.value = _unsaved_html() if self.changed else self._saved_note
        self._draw_download()
        self._show()

    @property
    def annotated_step(self) -> int | None:
        """The record step that the comment/mark editor is about: the last action shown, i.e. record step ``p - 1``
        at slider position ``p`` (``p`` actions applied; record steps count every action from 0: auction calls,
        the discard, trump, cards), as a chess program puts a mark after the move. None at position 0 (no action
        shown yet) or without a record."""
        if self.record is None or self.step <= 0:
            return None
        return self.step - 1

    def _action_name(self, k: int) -> str:
        """Short name of the action at record step ``k`` ("S plays Y13", "E bids 75"; `move_sentence`), in the active
        language."""
        seat, action, _saved = self.states[k + 1].history[-1]
        return localize(move_sentence(seat, action, self.record.rules.bird_name))

    def _require_action(self) -> tuple[HandRecord, int]:
        """The record on show and the step the editor is about (`annotated_step`). Raises ValueError without a
        record, or at position 0 where no action is shown yet."""
        record = self._require_record()
        k = self.annotated_step
        if k is None:
            raise ValueError(_("No action is shown yet: step forward to comment on an action (a comment or mark is "
                               "about the last action shown)."))
        return record, k

    def _editor_key(self) -> tuple[int, int] | None:
        """(hand index in the game, or 0; record step) of the action the editor is about, or None."""
        k = self.annotated_step
        if k is None:
            return None
        return (self.hand_select.value or 0) if self.game is not None else 0, k

    @i18n.in_own_language
    def _on_comment_typed(self, change) -> None:
        """Keep a comment typed but not saved as a draft of its step (shown again there; counts as unsaved)."""
        if self._setting_comment or self.record is None:
            return
        key = self._editor_key()
        if key is None:
            return
        if change["new"] == self.record.comment_at(key[1]):
            self._drafts.pop(key, None)
            if escape(_(DRAFT_NOTE), quote=False) in self.annotate_status.value:
                self.annotate_status.value = ""
        else:
            self._drafts[key] = change["new"]

    def _set_comment_box(self, text: str) -> None:
        """Show ``text`` in the comment box (not a draft: the user did not type it)."""
        self._setting_comment = True
        try:
            self.comment_text.value = text
        finally:
            self._setting_comment = False

    @_safe
    def save_comment(self, text: str | None = None) -> None:
        """Set the comment of the last action shown (`annotated_step`) to ``text`` (default: the comment box);
        empty text deletes it. At position 0 (no action shown) it only says to step forward."""
        record, k = self._require_action()
        text = self.comment_text.value if text is None else text
        key = self._editor_key()
        if not text.strip() and not record.comment_at(k):
            self._drafts.pop(key, None)
            self._annotate_message(_("There is no comment on {action} (step {step}): type one first.",
                                     action=self._action_name(k), step=k + 1))
            return
        self._replace_record(annotations.set_comment(record, k, text))
        self._drafts.pop(key, None)
        what = dict(action=self._action_name(k), step=k + 1)
        self._annotate_message(_("Comment saved on {action} (step {step}).", **what) if text.strip()
                               else _("Comment on {action} (step {step}) deleted.", **what))

    @_safe
    def delete_comment(self) -> None:
        """Delete the comment of the last action shown (`annotated_step`)."""
        record, k = self._require_action()
        what = dict(action=self._action_name(k), step=k + 1)
        self._drafts.pop(self._editor_key(), None)
        if not record.comment_at(k):
            self._set_comment_box("")
            self._annotate_message(_("There is no comment on {action} (step {step}).", **what))
            return
        self._replace_record(annotations.delete_comment(record, k))
        self._annotate_message(_("Comment on {action} (step {step}) deleted.", **what))

    @_safe
    def set_mark(self, mark: str) -> None:
        """Mark the last action shown (`annotated_step`) "!", "?" or "??" ("" removes the mark); a bad mark is
        refused by `rookcore.annotations.set_mark` (message shown, record unchanged)."""
        record, k = self._require_action()
        self._replace_record(annotations.set_mark(record, k, mark))
        what = dict(action=self._action_name(k), step=k + 1)
        self._annotate_message(_("{action} (step {step}) marked {mark} ({name}).", mark=mark,
                                 name=annotations.mark_name(mark), **what) if mark
                               else _("Mark of {action} (step {step}) removed.", **what))

    @_safe
    def save_record(self, path: str | None = None) -> str | None:
        """Write the annotated record (the whole game, if a game is loaded) to ``path`` (default: the Save-to box),
        which must lie inside the app's folder (`widgets.paths.record_path`: a name without an extension gets
        ``.json``). Returns the path written, or None (the error, or the question before replacing a file this panel
        did not write (`widgets.paths.ReplaceGuard`: a second Save replaces it), is shown next to the button)."""
        record = self._require_record()
        path = (path if path is not None else self.save_path.value).strip()
        try:
            doc = self.game if self.game is not None else record
            target = record_path(path)
            question = self._replace_guard.question(target, _("Save record"))
            if question:
                self.save_result.value = f"<span class='rook-annotate-question'>{escape(question, quote=False)}</span>"
                return None
            written = annotations.save_record(doc, str(target))
            self._replace_guard.saved(target)
        except (ValueError, OSError) as e:
            msg = str(e) if isinstance(e, ValueError) else _("{path}: cannot write: {error}", path=brief(path.strip()),
                                                             error=e.strerror or e)
            self.save_result.value = (f"<span class='rook-annotate-error' style='color:#b71c1c;font-weight:bold'>"
                                      f"⚠ {escape(msg, quote=False)}</span>")
            return None
        self._saved_annotations = _annotations_of(doc)
        self.save_result.value = self._saved_note = (
            "<span class='rook-annotate-saved'>" + escape(_("Saved {path}", path=brief(shown_path(written))))
            + "</span>")
        self._source_name = Path(written).stem  # the Download link offers the name it was saved as
        self._draw_download()
        return written

    def _draw_download(self) -> None:
        doc = self.game if self.game is not None else self.record
        if doc is None:
            self.download.value = ""
            return
        data = base64.b64encode(records.dumps(doc).encode("utf-8")).decode("ascii")
        name = f"{self._source_name}.json"
        link = escape(_("Download {name}", name=name))
        self.download.value = (f'<a class="rook-annotate-download-link" download="{escape(name)}" '
                               f'href="data:application/json;base64,{data}">{link}</a>')

    def _show_annotations(self) -> None:
        """Point the editor at the last action shown (`annotated_step`): its description, mark and comment; at
        position 0 the editor is disabled and says to step forward."""
        record, k = self.record, self.annotated_step
        editable = record is not None
        for b in (self.save_record_button, self.analyze_button):
            b.disabled = not editable
        if self.analysis_running:
            self.analyze_button.disabled = True
        on_action = k is not None
        self.comment_text.disabled = not on_action
        for b in (self.save_comment_button, self.delete_comment_button, *self.mark_buttons.values()):
            b.disabled = not on_action
        if record is None:
            self.annotate_step.value = ""
            self._set_comment_box("")
            self._show_analysis()
            return
        if not on_action:
            head = escape(_("Step forward to comment on an action"))
            why = escape(_("(a comment or mark is about the last action shown; none is shown yet)"))
            self.annotate_step.value = f"<b>{head}</b> <span style='color:#666'>{why}</span>"
            self._set_comment_box("")
            for b in self.mark_buttons.values():
                b.button_style = ""
            self._show_analysis()
            return
        mark = annotations.mark_at(record, k)
        what = describe_step(self.states[k + 1])
        head = escape(_("Comment or mark the last action shown"))
        step = escape(_("(step {step}): {action}", step=k + 1, action=what), quote=False)
        self.annotate_step.value = f"<b>{head}</b> {step}{mark_badge(mark)}"
        draft = self._drafts.get(self._editor_key())
        self._set_comment_box(record.comment_at(k) if draft is None else draft)
        if draft is not None:
            self._annotate_message(_(DRAFT_NOTE))
        elif escape(_(DRAFT_NOTE), quote=False) in self.annotate_status.value:
            self.annotate_status.value = ""
        for m, b in self.mark_buttons.items():
            b.button_style = "warning" if m == mark else ""
        self._show_analysis()

    # ----- analysis ------------------------------------------------------------------------
    def _analysis_name(self) -> str:
        """What the analysis of the hand on show is called in messages: the record's name (and the hand of a
        game, "crowsnest-game, hand 2")."""
        if self.game is not None:
            i = self.hand_select.value if self.hand_select.value is not None else 0
            return _("{name}, hand {number}", name=self._source_name, number=i + 1)
        return self._source_name

    @property
    def analysis_running(self) -> bool:
        """Whether an analysis of the hand on show is running (started, not finished, cancelled or stopped)."""
        run = self._analysis_run
        return run is not None and run.active

    def _show_cancel(self, running: bool) -> None:
        """Show and enable the Cancel button while an analysis runs; hide it otherwise."""
        self.cancel_button.disabled = not running
        self.cancel_button.layout.display = "" if running else "none"

    def _reset_analysis(self, why: str | None = None) -> None:
        """Forget the analysis of the hand on show (before another hand is shown or analysed). A running one is
        stopped (its solver cancelled) and the status says so: "The analysis of <name> was stopped: <why>."."""
        with self._analysis_lock:
            self._analysis_token += 1  # a running analysis of the previous hand writes nothing more
            run, self._analysis_run = self._analysis_run, None
            was_running = run is not None and run.active
            if run is not None:
                run.active = False
        if run is not None:
            run.stop()
        solver, self._analysis_solver = self._analysis_solver, None
        stop_analysis(solver, self._analysis_thread)
        self.analysis = None
        self._analysis_by_step = {}
        self.analysis_status.value = ""
        if was_running:
            self._analysis_status(_("The analysis of {name} was stopped: {why}.", name=run.name,
                                    why=why or _("another record was loaded")))
        self.apply_marks_button.disabled = True
        self._show_cancel(False)

    @_safe
    def analyze(self) -> None:
        """Double-dummy analysis of the hand on show within the time budget chosen (`analysis_seconds`;
        `rookcore.analysis.budget`: proven marks and ranges first, shown as they come, exact values as time allows).
        "Analyzing…" first; in a background thread unless ``analyze_in_background`` is False, with a Cancel button
        and the elapsed seconds refreshed every `widgets.progress.TICK_EVERY` seconds while it runs. A passed-out
        hand, or one stopped before its first card, says why nothing is analysed; an analysis of the same hand
        whose every value is exact is shown again without searching again (one the budget cut short searches
        again, with the budget chosen now)."""
        record = self._require_record()
        if self.analysis_running:
            self._analysis_status(_("Still analyzing… please wait, or click Cancel."))
            return
        if (self.analysis is not None and not self.analysis.get("partial")
                and annotations.analysis_complete(self.analysis)):  # the same hand: it cannot change
            self._analysis_status(_("Already analysed. {summary}", summary=self._analysis_summary()))
            return
        self._reset_analysis()
        reason = annotations.not_analyzable_reason(record)
        if reason:
            self._analysis_status(reason)
            self._show_analysis()
            return
        run = AnalysisRun(self._analysis_name(), None if self.analyzer is not None else self.analysis_seconds)
        with self._analysis_lock:
            token = self._analysis_token
            self._analysis_run = run
        self._analysis_status(_(STARTING))
        self.analyze_button.disabled = True
        self._show_analysis()
        if self.analyze_in_background:
            self._show_cancel(True)
            self._analysis_thread = threading.Thread(target=self._run_analysis, args=(record, token, run),
                                                     name="rook-analysis", daemon=True)
            self._analysis_thread.start()
            run.start_clock(lambda: self._analysis_tick(token, run))
        else:
            self._run_analysis(record, token, run)

    @property
    def analysis_seconds(self) -> float:
        """The time budget of the next analysis: the "Time budget" list's choice (seconds per hand)."""
        return float(self.analysis_budget.value)

    @i18n.in_own_language
    def _analysis_tick(self, token: int, run: AnalysisRun) -> bool:
        """One tick of a running analysis' clock: show its progress with the seconds elapsed, and what it proved
        since the panel last drew it. Returns False (the clock stops) once the analysis is finished, cancelled or
        stopped."""
        with self._analysis_lock:
            if token != self._analysis_token or not run.active:
                return False
            if run.due(force=True):
                self._draw_proven(run)
            self._analysis_status(run.text())
            return True

    @_safe
    def cancel_analysis(self) -> None:
        """Stop the running analysis (the Cancel button): its solver is cancelled, and the status says "Analysis
        cancelled after N of M cards; the cards analysed so far are shown." (they stay in the table and the card
        view with what is proven of the others — their ranges, the first lead's range — and Mark mistakes can copy
        the proven marks; Analyze starts again from the last card). Without a running analysis it only says so."""
        self._require_record()
        with self._analysis_lock:
            run = self._analysis_run
            if run is None or not run.active:
                running = False
            else:
                running = True
                run.active = False
                self._analysis_token += 1  # the worker writes nothing more
        if not running:  # e.g. the second click of a double click: the summary of the last run stays
            if run is None:
                self._analysis_status(_("No analysis is running."))
            self._show_cancel(False)
            return
        run.stop()
        solver, self._analysis_solver = self._analysis_solver, None
        stop_analysis(solver, self._analysis_thread)
        took = f"{run.elapsed():.0f}"
        if run.latest is None:
            self.analysis = None
            self._analysis_by_step = {}
            message = _("Analysis cancelled after {seconds} s, before its first card was done: there is nothing to "
                        "show.", seconds=took)
        else:
            done, total, _cards = run.latest
            self.analysis = run.shown(self.record.variant)
            self._analysis_by_step = annotations.analysis_by_step(self.analysis)
            self.apply_marks_button.disabled = not any(c.get("mark") for c in self.analysis["cards"])
            if run.report is not None and done < total:
                message = _("Analysis cancelled after {done} of {total} cards ({seconds} s); the cards analysed so "
                            "far are shown, with what is proven of the others. Analyze starts again from the last "
                            "card.", done=done, total=total, seconds=took)
            else:
                message = _("Analysis cancelled after {done} of {total} cards ({seconds} s); the cards analysed so "
                            "far are shown. Analyze starts again from the last card.", done=done, total=total,
                            seconds=took)
        self._show_cancel(False)
        self.analyze_button.disabled = False
        self._analysis_status(message)
        self._show_analysis()

    def wait_analysis(self, timeout: float | None = None) -> bool:
        """Wait for a background analysis to end; True if none is running any more."""
        t = self._analysis_thread
        if t is not None:
            t.join(timeout)
            return not t.is_alive()
        return True

    def _analysis_progress(self, record: HandRecord, token: int, run: AnalysisRun | None = None):
        """The ``progress(done, total, cards)`` callback of the analysis of ``record`` (`rookcore.annotations.analyze`;
        under a time budget ``done`` counts the cards whose mark is proven): keeps every call in ``run`` (default:
        the latest analysis started) for its clock and for Cancel, shows the cards analysed so far (at most every
        `widgets.progress.PROGRESS_EVERY` seconds), and raises `Cancelled` — which stops the analysis — once
        another hand is loaded or Cancel is clicked (``token`` no longer current)."""
        run = self._run_for(run)

        def progress(done: int, total: int, cards: list[dict]) -> None:
            self._note_progress(token, run, lambda: run.note(done, total, cards))

        return progress

    def _analysis_reports(self, record: HandRecord, token: int, run: AnalysisRun | None = None):
        """The ``on_report(report)`` callback of the budgeted analysis of ``record``: ``report`` holds everything
        proven so far (each card's exact value or proven range, the first lead's range); kept in ``run`` and shown
        as `_analysis_progress` shows the cards, with the same `Cancelled` once the analysis is no longer wanted."""
        run = self._run_for(run)

        def on_report(report: dict) -> None:
            self._note_progress(token, run, lambda: run.note_report(report))

        return on_report

    def _run_for(self, run: AnalysisRun | None) -> AnalysisRun:
        """``run``, else the latest analysis started, else a new `AnalysisRun` (a progress callback made alone)."""
        return run if run is not None else self._analysis_run or AnalysisRun(self._analysis_name())

    def _note_progress(self, token: int, run: AnalysisRun, keep: Callable[[], None]) -> None:
        """Keep a progress call in ``run`` (``keep()``) and draw the run when due; raises `Cancelled` once the
        analysis of ``token`` is no longer wanted."""
        if token != self._analysis_token:
            raise Cancelled
        keep()
        with self._analysis_lock:
            if token == self._analysis_token and run.due():
                self._draw_proven(run)
                self._analysis_status(run.text())

    def _draw_proven(self, run: AnalysisRun) -> None:
        """Show what the running analysis ``run`` has proven so far (`AnalysisRun.shown`) in the first lead's line,
        the card view, the table and the Go to list (called under ``_analysis_lock``)."""
        shown = run.shown(self.record.variant if self.record is not None else "")
        if shown is None or self.record is None:
            return
        self.analysis = shown
        self._analysis_by_step = annotations.analysis_by_step(shown)
        self._show_analysis()

    @i18n.in_own_language
    def _run_analysis(self, record: HandRecord, token: int, run: AnalysisRun) -> None:
        """The analysis of ``record`` (in the background thread, or in the caller's), then its result or error in
        the panel, unless it was cancelled or another hand was loaded meanwhile (``token`` no longer current)."""
        try:
            if self.analyzer is not None:
                result, error = self.analyzer(record), None
            else:
                result = cancellable_analysis(
                    lambda solver: annotations.analyze(record, progress=self._analysis_progress(record, token, run),
                                                       solver=solver, budget=run.budget,
                                                       on_report=self._analysis_reports(record, token, run)),
                    lambda: token == self._analysis_token, lambda solver: setattr(self, "_analysis_solver", solver))
                error = None
        except Cancelled:
            return  # cancelled, or another hand was loaded: that already said so
        except Exception as e:  # noqa: BLE001 - shown in the panel
            result, error = None, e
        try:
            with self._analysis_lock:
                if token != self._analysis_token:
                    return  # cancelled, or another hand was loaded meanwhile
                run.active = False
                self._show_cancel(False)
                self.analyze_button.disabled = self.record is None
                if error is not None:
                    if isinstance(error, ValueError):
                        self._analysis_status(_("The analysis failed: {error}", error=error), error=True)
                    else:
                        self._analysis_status(_("The analysis failed: {kind}: {error}", kind=type(error).__name__,
                                                error=error), error=True)
                    return
                self.analysis = result
                self._analysis_by_step = annotations.analysis_by_step(result)
                self.apply_marks_button.disabled = not any(c.get("mark") for c in result.get("cards") or ())
                self._analysis_status(self._analysis_summary())
                self._show_analysis()
        except Exception as e:  # noqa: BLE001 - never raise from the worker
            self._analysis_status(_("internal error: {kind}: {error}", kind=type(e).__name__, error=e), error=True)
        finally:
            run.stop()

    def _analysis_summary(self) -> str:
        """"Analysis done: …" for the finished analysis of the hand on show whose every value is exact; "The time
        budget ran out: …" (what is proven, and how to refine it) for one the budget cut short; and a note if the
        hand is unfinished."""
        costly = len(annotations.costly_cards(self.analysis, self.record))
        if not annotations.analysis_complete(self.analysis):
            n = annotations.analysis_counts(self.analysis)
            head = _("The time budget ran out: marks proven for {marked} of {cards} cards, {exact} valued exactly, "
                     "{costly} proven to have lost points; the others show their proven range. Choose a larger time "
                     "budget and click Analyze to refine.", marked=n["marked"], cards=n["cards"], exact=n["exact"],
                     costly=costly)
        else:
            start = self.analysis.get("start") or {}
            head = _("Analysis done: {cards} cards, {costly} with a loss. Best play from the first lead: {ns} "
                     "{ns_points} · {ew} {ew_points}.", cards=len(self._analysis_by_step), costly=costly,
                     ns=team_name(0), ew=team_name(1), ns_points=start.get("NS", "?"), ew_points=start.get("EW", "?"))
        return " ".join(filter(None, (head, annotations.unfinished_note(self.record))))

    def _analysis_status(self, message: str, error: bool = False) -> None:
        style = "color:#b71c1c;font-weight:bold" if error else "color:#333"
        cls = "rook-analysis-error" if error else "rook-analysis-info"
        self.analysis_status.value = f"<span class='{cls}' style='{style}'>{escape(message, quote=False)}</span>"

    @i18n.in_own_language
    def _on_goto(self, change) -> None:
        """The "Go to" list of costly cards: show the chosen card's step (the position just after it)."""
        if self._goto_sync or change["new"] == GOTO_NONE:
            return
        self.go(change["new"] + 1)

    def _shown(self, *notations: str) -> str:
        """Cards of the analysis report (record notation, "ROOK") by their names on the page ("Rook", "Red 1", in the
        active language), comma-separated, as the navigator and the Play tab write them."""
        rules = self.record.rules
        return pgettext("list separator", ", ").join(card_text(rules, Card.parse(n)) for n in notations)

    def _loss_text(self, entry: dict, sep: str = "–") -> str:
        """The loss of the card ``entry``: its exact number ("15"), or its proven range ("10–35",
        `rookcore.annotations.loss_range`) when it is not valued exactly."""
        lo, hi = annotations.loss_range(entry, self.record)
        return str(lo) if lo == hi else f"{lo}{sep}{hi}"

    def _set_goto(self, rows: list[dict], k: int | None) -> None:
        """Fill the "Go to" list with the costly cards ``rows`` (hidden when there are none), its value the row of
        record step ``k`` when it is one of them. A card not valued exactly shows its proven loss ("loss 10 to
        35")."""
        def label(c: dict) -> str:
            lo, hi = annotations.loss_range(c, self.record)
            parts = dict(step=c["step"] + 1, trick=c["trick"], seat=seat_name(SEATS.index(c["seat"])),
                         card=self._shown(c["card"]), loss=lo, hi=hi)
            text = (_("step {step}: trick {trick}, {seat} plays {card} — loss {loss}", **parts) if lo == hi
                    else _("step {step}: trick {trick}, {seat} plays {card} — loss {loss} to {hi}", **parts))
            return f"{text} {c['mark']}" if c["mark"] else text

        options = [(_(GOTO_PROMPT), GOTO_NONE)] + [(label(c), c["step"]) for c in rows]
        steps = {c["step"] for c in rows}
        self._goto_sync = True
        try:
            if list(self.analysis_goto.options) != options:
                self.analysis_goto.options = options
            self.analysis_goto.value = k if k in steps else GOTO_NONE
        finally:
            self._goto_sync = False
        self.analysis_goto.layout.display = "" if rows else "none"

    def _start_html(self) -> str:
        """The first lead's result with best play (`rookcore.annotations.start_sentence`): exact, or its proven
        range "— proved; refining…" while the analysis runs (then "— proved; …not found in the time given"), and the
        auction judged double dummy (`rookcore.annotations.auction_sentence`). "" without a result."""
        sentence = annotations.start_sentence(self.analysis, self.record, running=self.analysis_running)
        if not sentence:
            return ""
        html = f"<div class='rook-analysis-start-line'>{escape(sentence, quote=False)}</div>"
        auction = annotations.auction_facts(self.record, self.analysis)
        if auction is not None:
            html += (f"<div class='rook-analysis-auction'>{escape(annotations.auction_sentence(auction), quote=False)}"
                     f"</div>")
        return f"<div style='margin:4px 0'>{html}</div>"

    def _card_verdict(self, entry: dict) -> str:
        """What the analysis proved of the card ``entry`` (HTML): its exact loss and values, or, when it is not
        valued exactly, the proven ranges of its loss and of its team's points before and after it, and its mark
        if proven."""
        team = _team(SEATS.index(entry["seat"]))
        if annotations.is_exact(entry):
            best = self._shown(*entry["best_cards"])
            if entry["loss"] > 0:
                return escape(ngettext("loss {loss} point: {team} could still get {best}, {value} after this card. "
                                       "Best: {cards}.",
                                       "loss {loss} points: {team} could still get {best}, {value} after this card. "
                                       "Best: {cards}.", entry["loss"], loss=entry["loss"], team=team,
                                       best=entry["best"], value=entry["value"], cards=best))
            return escape(_("a best card ({team} keeps {value}). Best: {cards}.", team=team, value=entry["value"],
                            cards=best))

        def pts(lo: int, hi: int) -> str:
            return str(lo) if lo == hi else _("between {lo} and {hi}", lo=lo, hi=hi)

        if annotations.nothing_proven(entry, self.record):
            if self.analysis_running:
                return escape(_("nothing proven yet: the analysis works from the last trick back and has not reached "
                                "this card."))
            return escape(_("nothing proven yet: the analysis works from the last trick back and has not reached "
                            "this card in the time given."))
        mark = {None: _("whether it is a mistake is not proven yet"),
                "??": _("it changes whether the bid is made"),
                "?": _("a mistake: it loses at least 10 points"),
                "": _("no mistake: it loses less than 10 points and does not change whether the bid is made")}
        lo, hi = annotations.loss_range(entry, self.record)
        return escape(_("proved so far: loss {loss} points ({team} could get {best} with best play before this card, "
                        "{value} after it); {mark}. The exact values and best cards are not found yet.",
                        loss=pts(lo, hi), team=team, best=pts(entry["best_lo"], entry["best_hi"]),
                        value=pts(entry["lo"], entry["hi"]), mark=mark.get(entry["mark"], str(entry["mark"]))))

    def _show_analysis(self) -> None:
        """The first lead's result (`_start_html`), the analysis of the last action shown (`annotated_step`, as the
        editor), the table of the cards proven to have lost points (that action's row highlighted) and the "Go to"
        list of those cards."""
        if self.analysis is None or self.record is None:
            self.analysis_card.value = self.analysis_table.value = self.analysis_start.value = ""
            self._set_goto([], None)
            return
        self.analysis_start.value = self._start_html()
        k = self.annotated_step
        entry = self._analysis_by_step.get(k) if k is not None else None
        if entry is not None:
            head = escape(_("Analysis of the last card shown (step {step}, trick {trick}):", step=k + 1,
                            trick=entry["trick"]))
            move = escape(_("{seat} plays {card}", seat=seat_name(SEATS.index(entry["seat"])),
                            card=self._shown(entry["card"])))
            text = f"{head} <b>{move}</b>{mark_badge(entry['mark'] or '')} — {self._card_verdict(entry)}"
        elif k is None:
            text = escape(_("No action shown yet: step forward to see the analysis of each card played."))
        elif self.analysis.get("partial") and isinstance(self.record.actions()[k], Play):
            text = escape(_("The last card shown (step {step}) is not analysed: the analysis works from the last "
                            "trick back.", step=k + 1))
        else:
            text = escape(_("The last action shown (step {step}) is not a card: the analysis judges the cards "
                            "played.", step=k + 1))
        self.analysis_card.value = f"<div style='margin:4px 0'>{text}</div>"
        rows = annotations.costly_cards(self.analysis, self.record)
        self._set_goto(rows, k)
        if not rows:
            words = (_("No card with a loss so far.") if self.analysis.get("partial") else
                     _("Every card played was a best card (no loss).") if annotations.analysis_complete(self.analysis)
                     else _("No card proven to have lost points (the others' values are still open)."))
            self.analysis_table.value = f"<i>{escape(words)}</i>"
            return
        self.analysis_table.value = self._table_html(rows, k)

    def _table_html(self, rows: list[dict], k: int | None) -> str:
        """The table of the costly cards ``rows`` (record step ``k``'s row highlighted): a card not valued exactly
        shows its proven loss range, its mark once proven ("…" before) and no best cards."""
        step_tip = escape(_("the step to go to with the navigator (the record step + 1)"))
        words = [escape(pgettext("analysis table", w)) for w in ("Step", "Trick", "Seat", "Card", "Loss", "Mark",
                                                                  "Best cards")]
        head = f"<tr><th title='{step_tip}'>{words[0]}</th>" + "".join(f"<th>{x}</th>" for x in words[1:]) + "</tr>"
        open_value = escape(_("not found yet"))
        body = "".join(
            f"<tr class='rook-analysis-row' style='{'background:#fff3e0;font-weight:bold' if c['step'] == k else ''}'>"
            f"<td>{c['step'] + 1}</td><td>{c['trick']}</td><td>{escape(seat_name(SEATS.index(c['seat'])))}</td>"
            f"<td>{escape(self._shown(c['card']))}</td><td>{self._loss_text(c)}</td>"
            f"<td>{mark_badge(c['mark'] or '') or ('…' if c['mark'] is None else '—')}</td>"
            f"<td>{escape(self._shown(*c['best_cards'])) if annotations.is_exact(c) else open_value}</td></tr>"
            for c in rows)
        badges = dict(question="\x01", blunder="\x02")
        if any(not annotations.is_exact(c) for c in rows):
            legend = _("(Step as on the navigator; double dummy, points of the player's side; {question} loses 10 "
                       "points or more, {blunder} changes whether the bid is made; a loss such as 10–35 is a proven "
                       "range, the exact value not found yet)", **badges)
        else:
            legend = _("(Step as on the navigator; double dummy, points of the player's side; {question} loses 10 "
                       "points or more, {blunder} changes whether the bid is made)", **badges)
        legend = escape(legend).replace("\x01", mark_badge("?")).replace("\x02", mark_badge("??"))
        title = escape(_("Cards with a loss"))
        return (f"<div style='margin:6px 0 2px'><b>{title}</b> {legend}</div>"
                f"<table style='font-size:13px;border-collapse:collapse' cellpadding='3'>{head}{body}</table>")

    @_safe
    def apply_analysis_marks(self) -> None:
        """Copy the analysis' "?"/"??" marks into the record (steps already marked keep their mark)."""
        record = self._require_record()
        if self.analysis is None:
            raise ValueError(_("click Analyze first"))
        before = dict(record.marks or {})
        new = annotations.apply_analysis_marks(record, self.analysis)
        added = {s: m for s, m in (new.marks or {}).items() if s not in before}
        self._replace_record(new)
        self._annotate_message(ngettext("Marked {count} card from the analysis.",
                                        "Marked {count} cards from the analysis.", len(added), count=len(added))
                               if added else _("No new marks: the analysis' marked cards already carry a mark."))
