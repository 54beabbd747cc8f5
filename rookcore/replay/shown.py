"""Everything a Replay view draws, as data: `StepShown` (the position on show) and `AnalysisShown` (its analysis).

Made by `ReplaySession.shown` and `ReplaySession.analysis_shown` in the session's language; a view turns them into
its widgets without deciding anything (no rule, no wording, no state of its own but what the learner is typing).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import annotations
from ..actions import Play
from ..table import watch_view
from .analysis import Line
from .steps import Fact, ScoreBox, Title, comment_lines, describe_step, score_box, step_facts, title
from .verdicts import CardVerdict, CostlyRow, card_verdict, costly_rows, empty_table, table_legend

__all__ = ["EditorShown", "StepShown", "AnalysisShown", "step_shown", "analysis_shown"]


@dataclass(frozen=True)
class EditorShown:
    """The comment and mark editor: ``step`` the record step it is about (the last action shown; None at position 0
    or without a record: the editor is disabled), ``action`` that action's description, ``mark`` its mark,
    ``text`` what the comment box holds (the draft typed there, else the record's comment) and ``draft`` whether
    that is an unsaved draft."""

    step: int | None = None
    action: str = ""
    mark: str = ""
    text: str = ""
    draft: bool = False


@dataclass(frozen=True)
class StepShown:
    """The position ``step`` of ``n_steps`` and what is shown there. Without a record (``loaded`` False) only the
    numbers. ``title`` the heading; ``action`` the last action (or the deal) in words and ``mark`` its mark;
    ``comments`` the comment lines (`steps.comment_lines`); ``table`` the table as a watcher sees it
    (`rookcore.table.watch_view`) and ``last_played`` whether its last action was a card; ``facts`` the facts
    (`steps.step_facts`); ``score`` the score box at the last position, else None; ``editor`` (`EditorShown`)."""

    step: int
    n_steps: int
    loaded: bool = False
    title: Title | None = None
    action: str = ""
    mark: str = ""
    comments: list[str] = field(default_factory=list)
    table: dict | None = None
    last_played: bool = False
    facts: list[Fact] = field(default_factory=list)
    score: ScoreBox | None = None
    editor: EditorShown = EditorShown()


def step_shown(session) -> StepShown:
    """What ``session`` (a `ReplaySession`) shows at its position, in the active language. Raises nothing for a loaded record."""
    state, record, k, n = session.state, session.record, session.step, session.n_steps
    if state is None or record is None:
        return StepShown(k, n)
    a = session.annotated_step
    editor = EditorShown()
    if a is not None:
        draft = session.draft()
        editor = EditorShown(a, describe_step(session.states[a + 1]), annotations.mark_at(record, a),
                             record.comment_at(a) if draft is None else draft, draft is not None)
    return StepShown(k, n, True, title(record, state), describe_step(state),
                     annotations.mark_at(record, k - 1) if k > 0 else "", comment_lines(record, k, n),
                     watch_view(state), bool(state.history) and isinstance(state.history[-1][1], Play),
                     step_facts(state), score_box(state, session.report, session.game) if k == n else None, editor)


@dataclass(frozen=True)
class AnalysisShown:
    """What is shown of the analysis: ``status`` (`Line` or None); ``running``, whether Cancel is offered
    (``cancel``: a background analysis runs), Analyze (``can_analyze``) and Mark mistakes (``can_apply``);
    ``step`` the record step of the last action shown (None at position 0). With a report (``report`` True):
    ``start`` the first lead's result with best play (exact or its proven range; "" before anything is proven)
    and ``auction`` the auction judged double dummy (or None); ``card`` the verdict on the last action shown;
    ``rows`` the cards proven to have lost points, ``legend`` their table's legend, or ``empty`` what the table says
    when there are none."""

    status: Line | None = None
    running: bool = False
    cancel: bool = False
    can_analyze: bool = False
    can_apply: bool = False
    step: int | None = None
    report: bool = False
    start: str = ""
    auction: str | None = None
    card: CardVerdict | None = None
    rows: list[CostlyRow] = field(default_factory=list)
    legend: str = ""
    empty: str = ""


def analysis_shown(session) -> AnalysisShown:
    """What ``session`` (a `ReplaySession`) shows of its analysis at its position, in the active language. Raises nothing."""
    job, record, analysis, k = session.job, session.record, session.analysis, session.annotated_step
    running = job.running
    base = dict(status=job.status, running=running, cancel=running and job.background,
                can_analyze=record is not None and not running, can_apply=job.marks_to_copy, step=k)
    if analysis is None or record is None:
        return AnalysisShown(**base)
    start = annotations.start_sentence(analysis, record, running=running)
    facts = annotations.auction_facts(record, analysis) if start else None
    rows = costly_rows(analysis, record)
    return AnalysisShown(**base, report=True, start=start,
                         auction=annotations.auction_sentence(facts) if facts is not None else None,
                         card=card_verdict(analysis, record, k, running), rows=rows,
                         legend=table_legend(rows) if rows else "", empty="" if rows else empty_table(analysis))
