"""Drawing Replay: HTML of what a `rookcore.replay.ReplaySession` shows (`StepShown`, `AnalysisShown`), and the
helpers its parts share. No state and no decision here: every word comes from the session, in the active language.

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

Annotation (logic in `rookcore.replay.ReplaySession` and `rookcore.annotations`). A comment or mark is about the
LAST action shown, as a chess program puts a mark after the move: at slider position p ("Step p / n", p actions
applied, the board showing the p-th action) the editor works on record step p - 1 (record steps count every action
from 0: auction calls, the discard, trump, cards). At position 0 no action is shown and the editor is disabled
("step forward to comment on an action"). ``rook-replay-comment`` shows the comment of that same step (at the last
position also a comment on step n, "after the last action", which the record format allows; it is shown, not edited
here; a long comment wraps and scrolls inside the box):
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
  ``rook-analysis-table`` (every card proven to have lost points, and the proven ?/??), ``rook-analysis-goto`` (the
  "Go to" list of those cards), button "Mark mistakes" (``rook-analyze-apply``: copy the analyzer's proven ?/??
  marks into the record where no mark is set).
"""
from __future__ import annotations

import base64
import functools
from html import escape

from rookcore import annotations, i18n
from rookcore.i18n import N_, _, pgettext
from rookcore.replay import AnalysisShown, Line, StepShown, plain_record_error
from rookcore.replay.steps import ScoreBox
from rookcore.replay.verdicts import LEGEND_BLUNDER, LEGEND_QUESTION, CardVerdict, CostlyRow
from rookcore.rules import Rules

from .cards import card_svg, hand_svg

GOTO_PROMPT = N_("a card with a loss…")
GOTO_NONE = -1  # the prompt's value (a None value leaves the browser's list blank)
BUDGET_CHOICES = (("5 s", 5.0), ("15 s", 15.0), ("1 min", 60.0), ("5 min", 300.0), ("20 min", 1200.0))
"""The Analyze time budgets offered (label, seconds per hand); the default is 1 min (annotations.DEFAULT_BUDGET).
The list shows them in the panel's language (`budget_choices`)."""
DRAFT_NOTE = N_("This comment is not saved yet: click Save comment to keep it.")
UNSAVED_NOTE = N_("unsaved changes")
"""Shown (in grey italics, `unsaved_html`) beside Save record while the record has unsaved comments or marks."""
SMALL_CARD_W = 32    # px, nest and last trick
MARK_COLOURS = {"!": "#2e7d32", "!!": "#2e7d32", "!?": "#1565c0", "?!": "#ef6c00", "?": "#ef6c00",
                "??": "#c62828"}
MARK_BUTTONS = (("!", "!"), ("?", "?"), ("??", "??"), ("no mark", ""))
COMMENT_STYLE = ("background:#fff8e1;border-left:4px solid #ffb300;padding:4px 8px;line-height:1.4;"
                 "overflow-wrap:anywhere;word-break:break-word;max-height:9.5em;overflow-y:auto")
"""The comment box (``rook-replay-comment``): a long comment wraps, even a word with no space in it, and one of many
lines scrolls inside the box (about 6 lines) instead of pushing the table off screen."""
ERROR_STYLE = "color:#b71c1c;font-weight:bold"


def budget_choices() -> list[tuple[str, float]]:
    """`BUDGET_CHOICES` with their labels in the active language ("5 s", "1 min"). Returns (label, seconds) pairs."""
    return [(_("{count} s", count=int(sec)) if sec < 60 else _("{count} min", count=int(sec // 60)), sec)
            for _label, sec in BUDGET_CHOICES]


def safe(method):
    """Decorator for a Replay part's action: run it in the part's language (``self.lang``); show a refusal or any
    other error with ``self.complain(text)`` (the editor's status line) instead of raising to the page."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with i18n.using(self.lang):
            try:
                return method(self, *args, **kwargs)
            except (ValueError, OSError) as e:  # RecordError and ReplayError are ValueErrors
                self.complain(str(e))
            except Exception as e:  # noqa: BLE001 - never let an error reach the page
                self.complain(_("internal error: {kind}: {error}", kind=type(e).__name__, error=e))
        return None

    return wrapper


# ----- lines ------------------------------------------------------------------------------------
def mark_badge(mark: str) -> str:
    """HTML of a mark ("" → ""), class ``rook-mark``."""
    if not mark:
        return ""
    colour = MARK_COLOURS.get(mark, "#555")
    title = annotations.mark_name(mark)
    return (f" <span class='rook-mark' title='{escape(title)}' style='color:{colour};font-weight:bold'>"
            f"{escape(mark)}</span>")


def error_html(message: str) -> str:
    """The error line above the replay: the first line of ``message``, its JSON paths in words
    (`rookcore.replay.plain_record_error`)."""
    line = plain_record_error(message.splitlines()[0]) if message else _("error")
    return f'<div style="color:#b71c1c;font-weight:bold">⚠ {escape(line, quote=False)}</div>'


def note_html(message: str) -> str:
    """A line of information where errors are shown (grey, no warning sign)."""
    return f'<div class="rook-replay-note" style="color:#555">{escape(message, quote=False)}</div>'


def editor_status_html(message: str, error: bool = False) -> str:
    """The editor's status line: what an edit did, or its error (first line, with a warning sign)."""
    if error:
        line = message.splitlines()[0] if message else "error"
        return f"<span class='rook-annotate-error' style='{ERROR_STYLE}'>⚠ {escape(line, quote=False)}</span>"
    return f"<span class='rook-annotate-info'>{escape(message, quote=False)}</span>"


def save_html(kind: str, text: str) -> str:
    """The line beside Save record: a file ``kind`` "saved", a "question" before replacing one, an "error"."""
    if kind == "saved":
        return f"<span class='rook-annotate-saved'>{escape(text)}</span>" if text else ""
    if kind == "question":
        return f"<span class='rook-annotate-question'>{escape(text, quote=False)}</span>"
    return f"<span class='rook-annotate-error' style='{ERROR_STYLE}'>⚠ {escape(text, quote=False)}</span>"


def unsaved_html() -> str:
    """"unsaved changes" in grey italics."""
    return f"<i style='color:#666'>{escape(_(UNSAVED_NOTE))}</i>"


def download_html(download: tuple[str, str] | None) -> str:
    """The Download link of (file name, JSON text), or "" for None."""
    if download is None:
        return ""
    name, text = download
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    link = escape(_("Download {name}", name=name))
    return (f'<a class="rook-annotate-download-link" download="{escape(name)}" '
            f'href="data:application/json;base64,{data}">{link}</a>')


# ----- the position shown -------------------------------------------------------------------------
def title_html(shown: StepShown) -> str:
    """The heading: the rule set, the dealer and (grey) who played each seat; "No record loaded." without one."""
    if not shown.loaded:
        words = escape(_("No record loaded."))
        return f"<i>{words}</i>"
    t = shown.title
    players = f" <span class='rook-replay-players' style='color:#666'>({escape(t.players)})</span>" if t.players else ""
    return f"<b>{escape(t.rules)}</b> — {escape(t.dealer)}{players}"


def action_html(shown: StepShown) -> str:
    """The last action shown in words ("Last action: S plays Y13") with its mark; the deal at position 0."""
    if not shown.loaded:
        return ""
    last = escape(_("Last action:"))
    return ((f"<span style='color:#666'>{last}</span> " if shown.step > 0 else "")
            + f"<b>{escape(shown.action, quote=False)}</b>" + (mark_badge(shown.mark) if shown.step > 0 else ""))


def comment_html(shown: StepShown) -> str:
    """The comment box: the comment lines (a comment's line breaks kept), "" when there is none."""
    if not shown.comments:
        return ""
    lines = "<br>".join(escape(line).replace(chr(10), "<br>") for line in shown.comments)
    return f"<div class='rook-replay-comment-text' style='{COMMENT_STYLE}'>{lines}</div>"


def facts_html(shown: StepShown, rules: Rules) -> str:
    """The facts at the position shown (auction, contract, trump, nest, last trick, points and tricks) as a
    table; the nest and the last trick drawn as small cards."""
    rows = []
    for fact in shown.facts:
        if fact.won:  # the last trick: its cards, who led, who won, its points
            svg = "".join(card_svg(c, bird_name=rules.bird_name, red_one=rules.red_one, width=SMALL_CARD_W)
                          for c in fact.cards)
            value = f"{svg}<br>{escape(fact.text)} — <b>{escape(fact.won)}</b>, {escape(fact.points)}"
        elif fact.cards is not None:  # the nest
            value = hand_svg(list(fact.cards), bird_name=rules.bird_name, red_one=rules.red_one, width=SMALL_CARD_W,
                             step=0.7)
        else:
            value = escape(fact.text)
        rows.append(f"<tr><th style='text-align:start;vertical-align:top;padding:2px 6px 2px 0;white-space:nowrap'>"
                    f"{escape(fact.label)}</th><td style='padding:2px 0'>{value}</td></tr>")
    return f"<table style='font-size:13px;line-height:1.3;border-collapse:collapse'>{''.join(rows)}</table>"


def score_html(score: ScoreBox) -> str:
    """The final score box (the record's score report; the game's score under it)."""
    box = "border:2px solid #1565c0;border-radius:8px;padding:6px 10px;margin-top:6px;font-size:14px"
    if score.text:
        body = escape(score.text)
    else:
        head = escape(_("Final score"))
        body = (f"<div><b>{head}</b></div><div><b>{escape(score.result)}</b></div>"
                f"<div>{escape(score.captured)}</div><div><b>{escape(score.score)}</b></div>")
    if score.game is not None:
        body += f"<div style='margin-top:4px;color:#333'>{escape(score.game)}</div>"
    return f"<div style='{box}'>{body}</div>"


def editor_head_html(shown: StepShown) -> str:
    """The editor's heading: the action it is about and its mark, or (at position 0) to step forward."""
    editor = shown.editor
    if not shown.loaded:
        return ""
    if editor.step is None:
        head = escape(_("Step forward to comment on an action"))
        why = escape(_("(a comment or mark is about the last action shown; none is shown yet)"))
        return f"<b>{head}</b> <span style='color:#666'>{why}</span>"
    head = escape(_("Comment or mark the last action shown"))
    step = escape(_("(step {step}): {action}", step=editor.step + 1, action=editor.action), quote=False)
    return f"<b>{head}</b> {step}{mark_badge(editor.mark)}"


# ----- the analysis -------------------------------------------------------------------------------
def status_html(line: Line | None) -> str:
    """The analysis' status line ("" for None)."""
    if line is None:
        return ""
    style = ERROR_STYLE if line.error else "color:#333"
    cls = "rook-analysis-error" if line.error else "rook-analysis-info"
    return f"<span class='{cls}' style='{style}'>{escape(line.text, quote=False)}</span>"


def start_html(shown: AnalysisShown) -> str:
    """The first lead's result with best play (exact, or its proven range) and the auction judged double dummy;
    "" before anything is proven."""
    if not shown.start:
        return ""
    html = f"<div class='rook-analysis-start-line'>{escape(shown.start, quote=False)}</div>"
    if shown.auction is not None:
        html += f"<div class='rook-analysis-auction'>{escape(shown.auction, quote=False)}</div>"
    return f"<div style='margin:4px 0'>{html}</div>"


def card_html(card: CardVerdict) -> str:
    """What the analysis says of the last action shown."""
    if card.head:
        text = f"{escape(card.head)} <b>{escape(card.move)}</b>{mark_badge(card.mark)} — {escape(card.verdict)}"
    else:
        text = escape(card.text)
    return f"<div style='margin:4px 0'>{text}</div>"


def table_html(shown: AnalysisShown) -> str:
    """The table of the cards proven to have lost points (the last action shown highlighted), or what it says when
    there are none."""
    if not shown.rows:
        return f"<i>{escape(shown.empty)}</i>"
    step_tip = escape(_("the step to go to with the navigator (the record step + 1)"))
    words = [escape(pgettext("analysis table", w)) for w in ("Step", "Trick", "Seat", "Card", "Loss", "Mark",
                                                              "Best cards")]
    head = f"<tr><th title='{step_tip}'>{words[0]}</th>" + "".join(f"<th>{x}</th>" for x in words[1:]) + "</tr>"
    body = "".join(_row_html(row, row.step == shown.step) for row in shown.rows)
    legend = escape(shown.legend).replace(LEGEND_QUESTION, mark_badge("?")).replace(LEGEND_BLUNDER, mark_badge("??"))
    title = escape(_("Cards with a loss"))
    return (f"<div style='margin:6px 0 2px'><b>{title}</b> {legend}</div>"
            f"<table style='font-size:13px;border-collapse:collapse' cellpadding='3'>{head}{body}</table>")


def _row_html(row: CostlyRow, current: bool) -> str:
    """One costly card's row (bold on a light orange when it is the last action shown)."""
    mark = mark_badge(row.mark or "") or ("…" if row.mark is None else "—")
    style = "background:#fff3e0;font-weight:bold" if current else ""
    return (f"<tr class='rook-analysis-row' style='{style}'><td>{row.step + 1}</td><td>{row.trick}</td>"
            f"<td>{escape(row.seat)}</td><td>{escape(row.card)}</td><td>{row.loss}</td><td>{mark}</td>"
            f"<td>{escape(row.best)}</td></tr>")
