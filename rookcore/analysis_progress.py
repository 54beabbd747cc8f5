"""Progress of a long double-dummy analysis running in a background thread (Replay's Analyze, Play's review).

No UI import: Replay's session (`rookcore.replay.analysis`) runs its analysis with these, and the widgets re-export
this module as ``widgets.progress``. `throttled` turns a panel's "show the cards analysed so far" function into the ``progress(done, total, cards)``
callback of `rookcore.annotations.analyze` / `review`: it shows at most every `PROGRESS_EVERY` seconds and raises
`Cancelled` (which stops the analysis) once the panel no longer wants the result.

The analysis goes from the last card back to the first, and the cards of trick 1 (above all the first lead, whose
search values every other lead) take most of the time: in a 13/14-trick hand the last card can take minutes with
no progress call at all. `progress_text` says so once only trick 1's cards are left, and `AnalysisRun` keeps the
elapsed seconds on show meanwhile (a clock thread refreshing the text every `TICK_EVERY` seconds).

The app's analyses run within a time budget (`rookcore.annotations.DEFAULT_BUDGET` seconds per hand,
`rookcore.analysis.budget`): ``progress`` then counts the cards whose mark is proven (from the last card back), and
``on_report(report)`` brings the report of everything proven so far (each card's exact value or proven range, the
first lead's range), which `AnalysisRun.note_report` keeps for the panel to draw; once every mark is proven the
status says that the values are being refined (`refining_text`).
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from . import i18n
from .annotations import analysis_counts
from .hand import SEATS
from .i18n import N_, _

__all__ = ["Cancelled", "PROGRESS_EVERY", "STOP_WAIT", "TICK_EVERY", "STARTING", "throttled", "progress_text",
           "refining_text", "cancellable_analysis", "stop_analysis", "AnalysisRun"]

PROGRESS_EVERY = 0.5
"""Seconds between two progress updates of a running analysis."""
STOP_WAIT = 2.0
"""Seconds a panel waits for a cancelled analysis' thread to end (it ends within milliseconds)."""
TICK_EVERY = 2.0
"""Seconds between two refreshes of a running analysis' elapsed time (`AnalysisRun`)."""
STARTING = N_("Analyzing… (double-dummy search of every card played; this can take a while)")
"""Status of an analysis before its first card is done (English; shown as ``_(STARTING)``)."""
CARDS_PER_TRICK = len(SEATS)
"""One card per seat in each trick."""


class Cancelled(Exception):
    """Raised from a progress callback when the analysis' result is no longer wanted (another hand is on show)."""


def throttled(wanted: Callable[[], bool], show: Callable[[int, int, list[dict]], None]):
    """The progress callback ``progress(done, total, cards)`` (cards analysed, cards to analyse, the report entries
    so far): raises `Cancelled` when ``wanted()`` is false, else calls ``show(done, total, cards)`` if at least
    `PROGRESS_EVERY` seconds passed since the last call that showed (the last card is not shown: the finished
    report replaces the progress)."""
    last = [0.0]

    def progress(done: int, total: int, cards: list[dict]) -> None:
        if not wanted():
            raise Cancelled
        now = time.monotonic()
        if done == total or now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        show(done, total, cards)

    return progress


def _took(elapsed: float | None, budget: float | None) -> str:
    """" 27 s so far." (and " (time budget 60 s)" when ``budget`` seconds are given); "" without ``elapsed``. In the
    active language, with its leading space."""
    if elapsed is None:
        return ""
    if budget is not None:
        return " " + _("{seconds} s so far (time budget {budget} s).", seconds=round(elapsed), budget=round(budget))
    return " " + _("{seconds} s so far.", seconds=round(elapsed))


def progress_text(done: int, total: int, cards: list[dict], elapsed: float | None = None,
                  budget: float | None = None) -> str:
    """The status of a running analysis: ``done`` of ``total`` cards analysed (under a time budget: cards whose
    mark is proven), ``cards`` the report entries done so far (in step order; each with its ``trick``; none yet:
    the text is `STARTING`'s), ``elapsed`` the seconds since it started (None: not shown), ``budget`` the seconds it
    may take (None: no limit). In the active language (`rookcore.i18n`).

    The analysis goes from the last card back, so the cards left are the first ``total - done`` of the hand. While
    cards of later tricks are left: "Analyzing… 12 of 36 cards done, from the last trick back (now in trick 7 of
    9; the first tricks take longest)." Once only trick 1's cards are left (at most one card per seat), it says
    that they take most of the time: the first lead values every other lead, which can take minutes on
    13/14-trick hands (under a budget: until the budget runs out, then what is proven is shown). Returns the text
    (no HTML)."""
    left = total - done
    took = _took(elapsed, budget)
    if 0 < left <= CARDS_PER_TRICK:
        head = _("Analyzing… {done} of {total} cards done, from the last trick back.", done=done, total=total)
        if left == 1 and budget is None:
            tail = _("Left: the first lead, which values every other lead: this can take minutes on 13/14-trick "
                     "hands.")
        elif left == 1:
            tail = _("Left: the first lead, which values every other lead: on 13/14-trick hands this can take until "
                     "the time budget runs out; what is proven is shown then.")
        elif budget is None:
            tail = _("Left: the first {count} cards of trick 1, above all the first lead, which values every other "
                     "lead: this can take minutes on 13/14-trick hands.", count=left)
        else:
            tail = _("Left: the first {count} cards of trick 1, above all the first lead, which values every other "
                     "lead: on 13/14-trick hands this can take until the time budget runs out; what is proven is "
                     "shown then.", count=left)
        return f"{head}{took} {tail}"
    if not cards:  # no card done yet (a budgeted analysis reports before its first card is done)
        return _(STARTING) + "." + took
    return _("Analyzing… {done} of {total} cards done, from the last trick back (now in trick {trick} of {last}; the "
             "first tricks take longest).", done=done, total=total, trick=cards[0]["trick"],
             last=cards[-1]["trick"]) + took


def refining_text(report: dict, elapsed: float | None = None, budget: float | None = None) -> str:
    """The status of a budgeted analysis once every card's mark is proven (``report``: the report of what is proven,
    `rookcore.annotations.analysis_counts`): "Analyzing… every card's mark is proven; 40 of 52 cards valued
    exactly, refining the values. 27 s so far (time budget 60 s)." Returns the text (no HTML)."""
    n = analysis_counts(report)
    return _("Analyzing… every card's mark is proven; {exact} of {cards} cards valued exactly, refining the values.",
             exact=n["exact"], cards=n["cards"]) + _took(elapsed, budget)


def cancellable_analysis(run, wanted: Callable[[], bool], keep: Callable[[object], None]):
    """``run(solver)`` with a new `rookcore.analysis.Solver` (loaded on first use), handed to ``keep(solver)``
    first so that another thread can stop it (``solver.cancel()``); raises `Cancelled` when ``wanted()`` is
    already false or the solver was cancelled meanwhile (`rookcore.analysis.SearchCancelled`)."""
    from .analysis import SearchCancelled, Solver  # noqa: PLC0415 - the solver loads on first use

    solver = Solver()
    keep(solver)
    if not wanted():
        raise Cancelled
    try:
        return run(solver)
    except SearchCancelled as e:
        raise Cancelled from e


def stop_analysis(solver, thread) -> None:
    """Cancel ``solver`` (the running analysis' `rookcore.analysis.Solver`, or None when none runs) and wait up to
    `STOP_WAIT` seconds for its ``thread`` to end."""
    if solver is not None:
        solver.cancel()
        if thread is not None:
            thread.join(STOP_WAIT)


class AnalysisRun:
    """One analysis as a panel shows it while it runs in a background thread: what it is called, when it started,
    the latest progress report, and a clock that refreshes the status every `TICK_EVERY` seconds, so the elapsed
    time moves on even while one card (the first lead) takes minutes without a progress call.

    ``active`` is True until the panel shows its result, cancels it or loads another hand (the panel sets it
    False, under its own lock, so that neither a late progress report nor a clock tick writes after that).
    """

    def __init__(self, name: str = "", budget: float | None = None) -> None:
        """A run of the analysis of ``name`` ("crowsnest-made"), started now, within ``budget`` seconds (None: no
        limit); its clock is not running yet (`start_clock`). Its texts are in the language active now
        (`rookcore.i18n`; kept in ``lang``, as the clock thread starts without it)."""
        self.name = name
        self.lang = i18n.current_language()
        self.budget = budget
        self.started = time.monotonic()
        self.latest: tuple[int, int, list[dict]] | None = None  # (done, total, cards) of the last progress call
        self.report: dict | None = None  # the report of what is proven, from the last on_report call
        self.version = 0  # bumped by every progress or report call
        self.drawn = -1  # the version last drawn by the panel (`due`)
        self._last_drawn = 0.0
        self.active = True
        self._stop = threading.Event()
        self._clock: threading.Thread | None = None

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.started

    def text(self) -> str:
        """The status now: `progress_text` of the latest progress with the elapsed seconds (and the budget), or
        `refining_text` once every mark is proven and a report came, or `STARTING` before the first card is
        done."""
        with i18n.using(self.lang):
            if self.latest is None:
                return _(STARTING) + "." + _took(self.elapsed(), self.budget)
            done, total, cards = self.latest
            if done >= total and self.report is not None:
                return refining_text(self.report, self.elapsed(), self.budget)
            return progress_text(*self.latest, elapsed=self.elapsed(), budget=self.budget)

    def note(self, done: int, total: int, cards: list[dict]) -> None:
        """Keep the latest progress report (called for every card, shown or not), for the clock and for a
        cancelled run's "after N of M cards"."""
        self.latest = (done, total, cards)
        self.version += 1

    def note_report(self, report: dict) -> None:
        """Keep the latest report of what is proven (``on_report``), for the panel, its clock and Cancel."""
        self.report = report
        self.version += 1

    def due(self, force: bool = False) -> bool:
        """Whether the panel should draw the run now: something new since it last drew, and `PROGRESS_EVERY`
        seconds since then (or ``force``: the clock's tick). Marks the run drawn when it says True."""
        now = time.monotonic()
        if self.version == self.drawn or (not force and now - self._last_drawn < PROGRESS_EVERY):
            return False
        self.drawn, self._last_drawn = self.version, now
        return True

    def shown(self, variant: str) -> dict | None:
        """What the panel shows of the run: the latest report of what is proven, else the cards analysed so far
        (``{"variant", "start": None, "cards"}``), marked ``"partial": True``; None before either came."""
        if self.report is not None:
            return {**self.report, "partial": True}
        if self.latest is not None:
            return {"variant": variant, "start": None, "cards": list(self.latest[2]), "partial": True}
        return None

    def start_clock(self, tick: Callable[[], bool], every: float | None = None) -> None:
        """Call ``tick()`` every ``every`` seconds (default `TICK_EVERY`) in a daemon thread until `stop` is called
        or ``tick()`` returns False (the panel's tick shows `text` while the run is still wanted)."""
        every = TICK_EVERY if every is None else every

        def loop() -> None:
            while not self._stop.wait(every):
                if not tick():
                    return

        self._clock = threading.Thread(target=loop, name="rook-analysis-clock", daemon=True)
        self._clock.start()

    def stop(self) -> None:
        """Stop the clock (it ends within its current wait; a tick under way finishes first)."""
        self._stop.set()

    @property
    def clock_running(self) -> bool:
        """Whether the clock thread is still alive."""
        return self._clock is not None and self._clock.is_alive()
