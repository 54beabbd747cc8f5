"""The AI reasoning pane of the Play tab: each AI move of the hand with the candidates it weighed, latest first.

It draws what `rookcore.table.Table.reasoning_for_learner` gives: until the hand is over each AI move only as the
whole table saw it (the move and the public facts around it, no candidates or scores: the engine builds those words
from public data, `rookcore.ai.masking.public_decisions`), the full reasoning once the hand is over, or at once when
the learner ticks "Reveal hidden cards as they play". Hooks: the moves ``rook-reasoning`` (one ``<div class="rook-decision">`` each,
and ``rook-score-meaning`` under the first move of each kind of score), the note ``rook-reasoning-note``, the
checkbox ``rook-open-reasoning``.
"""
from __future__ import annotations

from html import escape
from typing import Callable

import ipywidgets as widgets

from rookcore.ai import describe_action
from rookcore.i18n import _, localize, ngettext, pgettext

from .clicks import close_with_parts

MAX_CANDIDATES = 8  # candidates shown; the rest are folded one click away


def decision_html(decision, bird_name: str, label: str = "") -> str:
    """HTML of one AI decision (a `rookcore.ai.Decision`): ``label`` (e.g. "step 5"), its sentence, and a table of
    the candidates weighed (move, score, note), the first `MAX_CANDIDATES` shown and the rest folded (no table for a
    decision without candidates: an AI move told during the hand as the table saw it). ``bird_name``:
    "Crow" or "Rook". Everything is in the active language: the headings, and the AI's own sentences (``summary``,
    the moves and notes, `rookcore.i18n.Message` values made when the AI decided, said now by `localize`). Returns
    an HTML string (class ``rook-decision``); raises nothing."""
    def row(i, c):
        mark = " style='font-weight:bold'" if i == 0 else ""
        return (f"<tr{mark}><td>{escape(localize(describe_action(c.action, bird_name)))}</td>"
                f"<td style='text-align:right'>{c.score:.2f}</td><td>{escape(localize(c.note))}</td></tr>")

    said = (f"<div class='rook-decision' style='margin-bottom:8px'>"
            f"<div><small>{escape(label)}</small> {escape(localize(decision.summary(bird_name)))}</div>")
    if not decision.candidates:
        return said + "</div>"
    words = (pgettext("reasoning", "move"), pgettext("reasoning", "score"), pgettext("reasoning", "note"))
    head = "".join(f"<th>{escape(word)}</th>" for word in words)
    head = f"<tr>{head}</tr>"
    rows = "".join(row(i, c) for i, c in enumerate(decision.candidates[:MAX_CANDIDATES]))
    rest = decision.candidates[MAX_CANDIDATES:]
    more = ""
    if rest:
        folded = escape(ngettext("{count} more", "{count} more", len(rest), count=len(rest)))
        more = (f"<details><summary><i>{folded}</i></summary><table style='font-size:90%'>"
                + "".join(row(MAX_CANDIDATES + i, c) for i, c in enumerate(rest)) + "</table></details>")
    return f"{said}<table style='font-size:90%'>{head}{rows}</table>{more}</div>"


class ReasoningPane(widgets.VBox):
    """The pane: a heading, the "Reveal hidden cards as they play" checkbox (``reveal``, off by default), a note
    (``note``) and the moves (``moves``: one HTML per AI move in the order played, shown latest first by the box's
    reversed flow, so a new move is appended and the earlier ones keep their views and open folds).

    Args: on_reveal: called with no arguments when the learner ticks or unticks the checkbox (the panel redraws)."""

    def __init__(self, on_reveal: Callable[[], None]) -> None:
        self.note = widgets.HTML()
        self.note.add_class("rook-reasoning-note")
        self.moves = widgets.VBox(layout=widgets.Layout(flex_flow="column-reverse", flex="0 0 auto",
                                                        overflow="visible"))
        self.moves.add_class("rook-reasoning")
        self.reveal = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        self.reveal.add_class("rook-open-reasoning")
        self.reveal.observe(lambda _change: on_reveal(), names="value")
        self.heading = widgets.HTML()
        super().__init__([self.heading, self.reveal, self.note, self.moves],
                         layout=widgets.Layout(max_height="420px", overflow="auto"))
        self.draw_words()

    def draw_words(self) -> None:
        """The pane's heading and checkbox in the active language (`rookcore.i18n`). Raises nothing."""
        heading = escape(_("AI reasoning (latest first)"))
        self.heading.value = f"<b>{heading}</b>"
        self.reveal.description = _("Reveal hidden cards as they play")
        self.reveal.tooltip = _("Show every card the AIs weigh, bury or keep, before the hand is over (it spoils the "
                                "hand)")

    def draw(self, table) -> None:
        """Draw the AI moves of ``table``'s hand (a `rookcore.table.Table`) as the learner may see them now
        (`moves_html`, `note_html`). A move already drawn the same way keeps its widget; the moves are drawn anew
        with their full reasoning when the hand ends. Raises nothing for a valid table."""
        old = list(self.moves.children)
        children = []
        for i, html in enumerate(moves_html(table, self.reveal.value)):
            same = i < len(old) and old[i].value == html
            children.append(old[i] if same else widgets.HTML(html))
        if children != old:
            self.moves.children = children
            for w in old[len(children):] + [w for w, n in zip(old, children) if w is not n]:
                close_with_parts(w)  # a dropped move's widget (and its layout, style): free them in the kernel and page
        self.note.value = note_html(bool(children), table.state.is_over, self.reveal.value)

    @property
    def html(self) -> str:
        """str: what the pane shows, as one HTML string: its note, then the moves latest first (the page's order)."""
        return self.note.value + "".join(w.value for w in reversed(self.moves.children))


def moves_html(table, reveal: bool = False) -> list[str]:
    """The pane's moves for ``table`` (a `rookcore.table.Table`): one `decision_html` per AI move of its hand, oldest
    first, as the learner may see them now (`Table.reasoning_for_learner`; whole with ``reveal``), labelled "step N"
    as Replay counts; under the earliest move whose scores mean something new (``Decision.score_meaning``, given once
    the hand is over) that meaning is said once. In the active language. Returns a list of HTML strings; raises
    nothing for a valid table."""
    bird = table.rules.bird_name
    out, explained = [], set()
    for entry in table.reasoning_for_learner(reveal=reveal):
        html = decision_html(entry.decision, bird, _("step {step}", step=entry.step + 1))
        meaning = entry.decision.score_meaning
        if meaning and meaning not in explained:
            explained.add(meaning)
            html += (f"<div class='rook-score-meaning' style='font-size:85%'><i>{escape(localize(meaning))}</i>"
                     "</div>")
        out.append(html)
    return out


def note_html(any_moves: bool, over: bool, reveal: bool) -> str:
    """The pane's note in the active language: none once the hand is over (with moves), else that no AI has moved,
    that the hidden cards are revealed (``reveal``), or that each move is told as the table saw it. Returns HTML."""
    if over and any_moves:
        return ""
    if not any_moves:
        text = _("No AI moves yet this hand.")
    elif reveal:
        text = _("Hidden cards revealed: the reasoning names cards you cannot see.")
    else:
        text = _("Each AI move is told as the whole table saw it; the AIs' reasons, the moves they weighed and "
                 "their scores are masked until the hand is over, then shown.")
    return "<i>" + escape(text) + "</i>"
