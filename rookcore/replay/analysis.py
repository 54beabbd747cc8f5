"""The double-dummy analysis of the hand a Replay session shows: started within a time budget, refined as it
runs, cancelled, stopped when another hand is shown.

`AnalysisJob` runs `rookcore.annotations.analyze` (budgeted: `rookcore.analysis.budget`, proven marks and ranges
first, exact values as time allows) in a background thread, or in the caller's, with the progress machinery of
`rookcore.analysis_progress` (a throttled progress callback, a clock that keeps the elapsed seconds moving, a
solver that another thread can cancel). Its state — the report shown (``analysis``: exact, or what is proven so
far, marked ``"partial"``), the status line (``status``), whether it runs — is what a view draws; ``listeners``
(callables without arguments) are called whenever that state changed, from whichever thread changed it (the
analysis thread, its clock, or the caller), under the job's lock.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from .. import annotations, i18n
from ..analysis_progress import STARTING, AnalysisRun, Cancelled, cancellable_analysis, stop_analysis
from ..i18n import _
from ..records import HandRecord
from . import verdicts

__all__ = ["Line", "AnalysisJob"]


@dataclass(frozen=True)
class Line:
    """One status line: ``text`` (words, no HTML) and whether it reports an ``error``."""

    text: str
    error: bool = False


class AnalysisJob:
    """The analysis of the hand on show in ``session`` (a `ReplaySession`).

    Args:
      session: the session whose hand (``session.record``), name (`ReplaySession.analysis_name`) and language
        (``session.lang``) the job uses.
      analyzer: a callable(record) -> report used instead of the budgeted double-dummy analysis (no progress, no
        budget), or None.
      background: run the analysis in a background thread (True: `start` returns at once; False: `start` returns
        when it is done).

    Attributes: ``analysis`` (the report shown, or None), ``status`` (`Line` or None), ``listeners``.
    """

    def __init__(self, session, analyzer: Callable[[HandRecord], dict] | None = None,
                 background: bool = True) -> None:
        self.session = session
        self.analyzer = analyzer
        self.background = background
        self.analysis: dict | None = None
        self.status: Line | None = None
        self.listeners: list[Callable[[], None]] = []
        self.thread: threading.Thread | None = None
        self.run: AnalysisRun | None = None  # the latest analysis started (its progress, its clock)
        self.token = 0  # bumped when the running analysis is no longer wanted (under the lock)
        self._solver = None  # the running analysis' Solver (cancelled when another hand is shown)
        self._lock = threading.RLock()  # the worker, its clock and the caller change the state under it

    # ----- state ------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Whether an analysis of the hand on show is running (started, not finished, cancelled or stopped)."""
        run = self.run
        return run is not None and run.active

    @property
    def marks_to_copy(self) -> bool:
        """Whether the report shown has proven marks that `ReplaySession.apply_analysis_marks` can copy (never while
        an analysis runs)."""
        return (not self.running and self.analysis is not None
                and any(c.get("mark") for c in self.analysis.get("cards") or ()))

    def _say(self, text: str, error: bool = False) -> None:
        """Set the status line and tell the listeners."""
        self.status = Line(text, error)
        self._changed()

    def _changed(self) -> None:
        """Call every listener (a view redraws what it shows of the analysis)."""
        for listener in list(self.listeners):
            listener()

    # ----- start, stop --------------------------------------------------------------------------
    def reset(self, why: str | None = None) -> None:
        """Forget the analysis of the hand on show (before another hand is shown or analysed). A running one is
        stopped (its solver cancelled, its thread given `rookcore.analysis_progress.STOP_WAIT` seconds to end) and
        the status says so: "The analysis of <name> was stopped: <why>." (``why`` default "another record was
        loaded"); otherwise the status is cleared. Raises nothing."""
        with self._lock:
            self.token += 1  # a running analysis of the previous hand writes nothing more
            run, self.run = self.run, None
            was_running = run is not None and run.active
            if run is not None:
                run.active = False
        if run is not None:
            run.stop()
        solver, self._solver = self._solver, None
        stop_analysis(solver, self.thread)
        self.analysis = None
        self.status = None
        if was_running:
            self.status = Line(_("The analysis of {name} was stopped: {why}.", name=run.name,
                                 why=why or _("another record was loaded")))
        self._changed()

    def start(self, record: HandRecord, budget: float) -> None:
        """Analyse ``record`` (the hand on show) within ``budget`` seconds (`annotations.analyze`). "Analyzing…"
        first; in a background thread if ``background``, with a clock refreshing the elapsed seconds every
        `rookcore.analysis_progress.TICK_EVERY` seconds. A passed-out hand, or one stopped before its first card,
        says why nothing is analysed; while an analysis runs it only says to wait; an analysis of the same hand
        whose every value is exact is shown again without searching again (one the budget cut short searches
        again). Raises nothing: a failed analysis says why in the status."""
        if self.running:
            self._say(_("Still analyzing… please wait, or click Cancel."))
            return
        if (self.analysis is not None and not self.analysis.get("partial")
                and annotations.analysis_complete(self.analysis)):  # the same hand: it cannot change
            self._say(_("Already analysed. {summary}", summary=verdicts.summary(self.analysis, record)))
            return
        self.reset()
        reason = annotations.not_analyzable_reason(record)
        if reason:
            self._say(reason)
            return
        run = AnalysisRun(self.session.analysis_name(), None if self.analyzer is not None else budget)
        with self._lock:
            token = self.token
            self.run = run
        self._say(_(STARTING))
        if self.background:
            self.thread = threading.Thread(target=self._work, args=(record, token, run), name="rook-analysis",
                                           daemon=True)
            self.thread.start()
            run.start_clock(lambda: self._tick(token, run))
        else:
            self._work(record, token, run)

    def cancel(self) -> None:
        """Stop the running analysis: its solver is cancelled, and the status says "Analysis cancelled after N of M
        cards; the cards analysed so far are shown." (they stay in ``analysis`` with what is proven of the others —
        their ranges, the first lead's range — so their proven marks can be copied; `start` begins again from the
        last card), or that there was nothing to show yet. Without a running analysis only "No analysis is
        running." when none ran (the summary of the last run stays). Raises nothing."""
        with self._lock:
            run = self.run
            running = run is not None and run.active
            if running:
                run.active = False
                self.token += 1  # the worker writes nothing more
        if not running:  # e.g. the second click of a double click: the summary of the last run stays
            if run is None:
                self._say(_("No analysis is running."))
            else:
                self._changed()
            return
        run.stop()
        solver, self._solver = self._solver, None
        stop_analysis(solver, self.thread)
        took = f"{run.elapsed():.0f}"
        if run.latest is None:
            self.analysis = None
            message = _("Analysis cancelled after {seconds} s, before its first card was done: there is nothing to "
                        "show.", seconds=took)
        else:
            done, total, _cards = run.latest
            self.analysis = run.shown(self.session.record.variant)
            if run.report is not None and done < total:
                message = _("Analysis cancelled after {done} of {total} cards ({seconds} s); the cards analysed so "
                            "far are shown, with what is proven of the others. Analyze starts again from the last "
                            "card.", done=done, total=total, seconds=took)
            else:
                message = _("Analysis cancelled after {done} of {total} cards ({seconds} s); the cards analysed so "
                            "far are shown. Analyze starts again from the last card.", done=done, total=total,
                            seconds=took)
        self._say(message)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: no limit) for a background analysis to end. Returns True if none is
        running any more."""
        t = self.thread
        if t is not None:
            t.join(timeout)
            return not t.is_alive()
        return True

    # ----- the analysis itself --------------------------------------------------------------------
    def progress(self, token: int, run: AnalysisRun | None = None) -> Callable[[int, int, list[dict]], None]:
        """The ``progress(done, total, cards)`` callback of an analysis (`annotations.analyze`; under a time budget
        ``done`` counts the cards whose mark is proven): keeps every call in ``run`` (default: the latest analysis
        started) for its clock and for Cancel, shows the cards analysed so far (at most every
        `rookcore.analysis_progress.PROGRESS_EVERY` seconds), and raises `Cancelled` — which stops the analysis —
        once another hand is shown or the analysis is cancelled (``token`` no longer current)."""
        run = self._run_for(run)
        return lambda done, total, cards: self._note(token, run, lambda: run.note(done, total, cards))

    def reports(self, token: int, run: AnalysisRun | None = None) -> Callable[[dict], None]:
        """The ``on_report(report)`` callback of a budgeted analysis: ``report`` holds everything proven so far
        (each card's exact value or proven range, the first lead's range); kept in ``run`` and shown as `progress`
        shows the cards, with the same `Cancelled` once the analysis is no longer wanted."""
        run = self._run_for(run)
        return lambda report: self._note(token, run, lambda: run.note_report(report))

    def _run_for(self, run: AnalysisRun | None) -> AnalysisRun:
        """``run``, else the latest analysis started, else a new `AnalysisRun` (a progress callback made alone)."""
        return run if run is not None else self.run or AnalysisRun(self.session.analysis_name())

    def _note(self, token: int, run: AnalysisRun, keep: Callable[[], None]) -> None:
        """Keep a progress call in ``run`` (``keep()``) and show the run when due; raises `Cancelled` once the
        analysis of ``token`` is no longer wanted."""
        if token != self.token:
            raise Cancelled
        keep()
        with self._lock:
            if token == self.token and run.due():
                self._take_proven(run)
                self._say(run.text())

    def _take_proven(self, run: AnalysisRun) -> None:
        """Show what the running analysis ``run`` has proven so far (`AnalysisRun.shown`; under the lock)."""
        record = self.session.record
        shown = run.shown(record.variant if record is not None else "")
        if shown is not None and record is not None:
            self.analysis = shown

    def _tick(self, token: int, run: AnalysisRun) -> bool:
        """One tick of a running analysis' clock: show its progress with the seconds elapsed, and what it proved
        since it was last shown. Returns False (the clock stops) once the analysis is finished, cancelled or
        stopped."""
        with i18n.using(self.session.lang), self._lock:
            if token != self.token or not run.active:
                return False
            if run.due(force=True):
                self._take_proven(run)
            self._say(run.text())
            return True

    def _work(self, record: HandRecord, token: int, run: AnalysisRun) -> None:
        """The analysis of ``record`` (in the background thread, or in the caller's), then its result or error,
        unless it was cancelled or another hand was shown meanwhile (``token`` no longer current)."""
        with i18n.using(self.session.lang):
            try:
                if self.analyzer is not None:
                    result = self.analyzer(record)
                else:
                    result = cancellable_analysis(
                        lambda solver: annotations.analyze(record, progress=self.progress(token, run), solver=solver,
                                                           budget=run.budget, on_report=self.reports(token, run)),
                        lambda: token == self.token, lambda solver: setattr(self, "_solver", solver))
                error = None
            except Cancelled:
                return  # cancelled, or another hand was shown: that already said so
            except Exception as e:  # noqa: BLE001 - said in the status
                result, error = None, e
            try:
                self._finish(token, run, result, error)
            except Exception as e:  # noqa: BLE001 - never raise from the worker
                self._say(_("internal error: {kind}: {error}", kind=type(e).__name__, error=e), error=True)
            finally:
                run.stop()

    def _finish(self, token: int, run: AnalysisRun, result: dict | None, error: Exception | None) -> None:
        """Show the ``result`` of the analysis of ``token`` (its summary in the status), or its ``error``."""
        with self._lock:
            if token != self.token:
                return  # cancelled, or another hand was shown meanwhile
            run.active = False
            if isinstance(error, ValueError):
                self._say(_("The analysis failed: {error}", error=error), error=True)
            elif error is not None:
                self._say(_("The analysis failed: {kind}: {error}", kind=type(error).__name__, error=error),
                          error=True)
            else:
                self.analysis = result
                self._say(verdicts.summary(result, self.session.record))
