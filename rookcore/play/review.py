"""The end-of-hand review of a Play session: "Could we have done better?" — the learner's costly cards, found by a
double-dummy analysis of the finished hand within a time budget, shown as they are proven, stopped on request or
when another hand is dealt.

`ReviewJob` runs `rookcore.annotations.review` (budgeted: `rookcore.analysis.budget`) in a background thread, or in
the caller's, with the progress machinery of `rookcore.analysis_progress` (a throttled drawing of the progress, a
clock that keeps the elapsed seconds moving, a solver that another thread can cancel). What it shows
(``shown``, a `ReviewShown`; ``links``, the costly cards' Replay buttons) and whether it runs (``running``) is what
a view draws; ``listeners`` (callables without arguments) are called whenever that changed, from whichever thread
changed it (the analysis thread, its clock, or the caller). No UI import.
"""
from __future__ import annotations

import threading
from typing import Callable

from .. import annotations, i18n
from ..analysis_progress import AnalysisRun, Cancelled, cancellable_analysis, stop_analysis
from ..hand import SEATS
from ..i18n import _
from . import review_words as words
from .review_words import ReviewLink, ReviewShown

__all__ = ["ReviewJob"]


class ReviewJob:
    """The review of the finished hand on show in ``session`` (a `rookcore.play.PlaySession`: its ``table`` and
    ``lang``).

    Attributes (settable): ``reviewer`` (None: `rookcore.annotations.review`; a callable(record) -> list of review
    items stands in for it, without progress or budget), ``threshold`` (points: a card of the learner costing this
    much, or marked ?/??, is listed), ``background`` (run in a thread: the analysis takes seconds to minutes),
    ``budget`` (seconds of search per hand, then what is proven is shown).
    State (read): ``shown`` (`ReviewShown`), ``links`` (`ReviewLink`s), ``running``, ``run`` (the latest
    `rookcore.analysis_progress.AnalysisRun` started), ``thread``, ``token`` (bumped when the running review is no
    longer wanted), ``listeners``.
    """

    def __init__(self, session) -> None:
        self.session = session
        self.reviewer: Callable | None = None
        self.threshold = 10
        self.background = True
        self.budget = annotations.DEFAULT_BUDGET
        self.shown = ReviewShown()
        self.links: tuple[ReviewLink, ...] = ()
        self.running = False
        self.run: AnalysisRun | None = None
        self.thread: threading.Thread | None = None
        self.token = 0
        self.listeners: list[Callable[[], None]] = []
        self.record = None  # the record reviewed (no AI reasons)
        self.replay_record = None  # the same hand with the AIs' reasons: what the costly cards' buttons open
        self.items_so_far: list[dict] = []  # the costly cards the running review has found so far
        self._lock = threading.Lock()  # the worker, its clock and the caller change what is shown under it
        self._solver = None  # the running review's Solver (cancelled when a new hand is dealt)
        self._hand = None  # (game, hand number) the review is about

    @property
    def lang(self) -> str:
        """The review's language: its session's."""
        return self.session.lang

    def _show(self, shown: ReviewShown | None = None, links: tuple[ReviewLink, ...] | None = None,
              running: bool | None = None) -> None:
        """Change what is shown (each argument given) and tell the listeners."""
        if shown is not None:
            self.shown = shown
        if links is not None:
            self.links = links
        if running is not None:
            self.running = running
        for listener in list(self.listeners):
            listener()

    @property
    def _seat(self) -> str:
        return SEATS[self.session.table.learner]

    def _items(self, record, seat: str, shown: dict | None) -> list[dict]:
        """``seat``'s costly cards proven so far in ``shown`` (the running review's report or cards)."""
        if shown is None:
            return []
        return annotations.review(record, threshold=self.threshold, seat=seat, analysis=shown)

    # ----- the hand on show ------------------------------------------------------------------------
    def follow_hand(self) -> None:
        """Another hand on show (or another game): forget the review (a running one is stopped: its solver is
        cancelled and its thread given `rookcore.analysis_progress.STOP_WAIT` seconds to end; it shows nothing
        more). Nothing changes for the same hand. Raises nothing."""
        t = self.session.table
        key = (id(t.game), t.hand_number)
        if key == self._hand:
            return
        self._hand = key
        with self._lock:
            self.token += 1
            if self.run is not None:
                self.run.active = False
        self.items_so_far = []
        self._stop_search()
        self._show(ReviewShown(), (), False)

    # ----- start, stop ---------------------------------------------------------------------------
    @i18n.in_own_language
    def start(self) -> None:
        """"Could we have done better?": once the hand is over, find the learner's costly cards with the better
        choice (`rookcore.annotations.review` of ``table.record()``), within ``budget`` seconds
        (`rookcore.analysis.budget`): the cards proven costly, the first lead's proven range (refined in place) and
        the auction judged double dummy show as they come, then what is exact. In a background thread if
        ``background`` ("Analyzing…" meanwhile, with the seconds elapsed); while one runs, nothing happens. A
        passed-out hand says why it is not analysed. Raises ValueError while the hand is in play."""
        t = self.session.table
        if not t.state.is_over:
            raise ValueError(_("the review is ready when the hand is over"))
        if self.thread is not None and self.thread.is_alive():
            return
        record = self.record = t.record(reasons=False)
        self.replay_record = t.record()
        self.items_so_far = []
        reason = annotations.not_analyzable_reason(record)
        if reason:
            self._show(ReviewShown("note", reason), ())
            return
        run = AnalysisRun("the review", None if self.reviewer is not None else self.budget)
        with self._lock:
            self.token += 1
            token = self.token
            self.run = run
        self._show(ReviewShown("running", run.text()), (), True)
        if self.background:
            self.thread = threading.Thread(target=self._work, args=(record, token, run), name="rook-review",
                                           daemon=True)
            self.thread.start()
            run.start_clock(lambda: self._tick(record, token, run))
        else:
            self._work(record, token, run)

    @i18n.in_own_language
    def stop(self) -> None:
        """Stop a running review: the costly cards proven so far stay listed, with the first lead's proven range and
        the auction as far as proven; `start` begins again from the last card. Without a running review the status
        line only says so. Raises nothing."""
        if self.thread is None or not self.thread.is_alive():
            self.session.say(_("No review is running."))
            return
        with self._lock:
            self.token += 1  # the worker's late result is dropped
            run = self.run
            if run is not None:
                run.active = False
        self._stop_search()
        record = self.record
        items = self._items(record, self._seat, run.shown(record.variant) if run is not None else None)
        self.items_so_far = items
        self._show(words.stopped(record, run, items), words.links(self.replay_record, items), False)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for a background review to end; True if none is running any more."""
        th = self.thread
        if th is not None:
            th.join(timeout)
            return not th.is_alive()
        return True

    def _stop_search(self) -> None:
        """Cancel a running review's search (and its clock) and wait (briefly) for its thread to end."""
        run = self.run
        if run is not None:
            run.stop()
        solver, self._solver = self._solver, None
        stop_analysis(solver, self.thread)

    # ----- progress ------------------------------------------------------------------------------
    def _tick(self, record, token: int, run: AnalysisRun) -> bool:
        """One tick of a running review's clock: show it with the seconds elapsed. Returns False (the clock stops)
        once the review is finished, stopped or a new hand is dealt."""
        with self._lock, i18n.using(self.session.lang):
            if token != self.token or not run.active:
                return False
            run.due(force=True)
            self._show_run(record, self._seat, run)
            return True

    def progress(self, record, token: int, seat: str, run: AnalysisRun | None = None):
        """The ``progress(done, total, cards)`` callback of the review of ``record``: "Analyzing… k of n cards" with
        the costly cards of ``seat`` proven so far (at most every `rookcore.analysis_progress.PROGRESS_EVERY`
        seconds); keeps every call in ``run`` (default: the latest review started) and raises `Cancelled`, stopping
        the analysis, once ``token`` is no longer current (a new hand dealt, Stop clicked)."""
        run = run if run is not None else self.run or AnalysisRun("the review")

        def progress(done: int, total: int, cards: list[dict]) -> None:
            self._note(record, token, seat, run, lambda: run.note(done, total, cards))

        return progress

    def reports(self, record, token: int, seat: str, run: AnalysisRun | None = None):
        """The ``on_report(report)`` callback of the budgeted review of ``record``: the report of what is proven
        (each card's value or range, the first lead's range) is kept in ``run`` and shown as `progress` shows, with
        the same `Cancelled`."""
        run = run if run is not None else self.run or AnalysisRun("the review")

        def on_report(report: dict) -> None:
            self._note(record, token, seat, run, lambda: run.note_report(report))

        return on_report

    def _note(self, record, token: int, seat: str, run: AnalysisRun, keep) -> None:
        """Keep a progress call in ``run`` (``keep()``) and show the review when due; raises `Cancelled` once the
        review of ``token`` is no longer wanted."""
        if token != self.token:
            raise Cancelled
        keep()
        with self._lock:
            if token == self.token and run.due():
                self._show_run(record, seat, run)

    def _show_run(self, record, seat: str, run: AnalysisRun) -> None:
        """Show the running review as proven so far (under the lock): its status with the seconds elapsed, the first
        lead's proven range and the auction, and ``seat``'s costly cards proven so far."""
        items = self._items(record, seat, run.shown(record.variant))
        self.items_so_far = items
        self._show(words.running(record, run.text(), run.report, items))

    # ----- the work ------------------------------------------------------------------------------
    def _work(self, record, token: int, run: AnalysisRun) -> None:
        """The review of ``record`` (in the background thread, or the caller's), then its result or error, unless
        Stop was clicked or a new hand dealt meanwhile (``token`` no longer current)."""
        with i18n.using(self.session.lang):  # a thread starts without the page's language
            self._work_in_language(record, token, run)

    def _work_in_language(self, record, token: int, run: AnalysisRun) -> None:
        seat = self._seat
        try:
            if self.reviewer is not None:
                items, error = self.reviewer(record), None
            else:
                items = cancellable_analysis(
                    lambda solver: annotations.review(record, threshold=self.threshold, seat=seat,
                                                      progress=self.progress(record, token, seat, run),
                                                      solver=solver, budget=run.budget,
                                                      on_report=self.reports(record, token, seat, run)),
                    lambda: token == self.token, lambda solver: setattr(self, "_solver", solver))
                error = None
        except Cancelled:
            return  # a new hand was dealt: nobody waits for this review
        except Exception as e:  # noqa: BLE001 - shown as the review's result
            items, error = None, e
        try:
            with self._lock:
                if token != self.token:
                    return  # a new hand was dealt (or Stop clicked) meanwhile
                run.active = False
                shown = words.result(record, seat, run, items, error, self.threshold)
                self._show(shown, words.links(self.replay_record, items) if shown.items else None, False)
        except Exception as e:  # noqa: BLE001 - never raise from the worker
            self._show(ReviewShown("broken", _("internal error: {kind}: {error}", kind=type(e).__name__, error=e)),
                       running=False)
        finally:
            run.stop()
