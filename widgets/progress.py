"""Progress of a long double-dummy analysis running in a background thread (Replay's Analyze, Play's review).

`throttled` turns a panel's "show the cards analysed so far" function into the ``progress(done, total, cards)``
callback of `rookcore.annotations.analyze` / `review`: it shows at most every `PROGRESS_EVERY` seconds and raises
`Cancelled` (which stops the analysis) once the panel no longer wants the result.
"""
from __future__ import annotations

import time
from typing import Callable

__all__ = ["Cancelled", "PROGRESS_EVERY", "STOP_WAIT", "throttled", "progress_text", "cancellable_analysis",
           "stop_analysis"]

PROGRESS_EVERY = 0.5
"""Seconds between two progress updates of a running analysis."""
STOP_WAIT = 2.0
"""Seconds a panel waits for a cancelled analysis' thread to end (it ends within milliseconds)."""


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


def progress_text(done: int, total: int, cards: list[dict]) -> str:
    """ "Analyzing… 12 of 36 cards done, from the last trick back (now in trick 7 of 9; …)" for the entries
    ``cards`` done so far (in step order, non-empty)."""
    return (f"Analyzing… {done} of {total} cards done, from the last trick back (now in trick {cards[0]['trick']} "
            f"of {cards[-1]['trick']}; the first tricks take longest).")


def cancellable_analysis(run, wanted: Callable[[], bool], keep: Callable[[object], None]):
    """``run(solver)`` with a new `rookcore.analysis.Solver` (loaded on first use), handed to ``keep(solver)``
    first so that another thread can stop it (``solver.cancel()``); raises `Cancelled` when ``wanted()`` is
    already false or the solver was cancelled meanwhile (`rookcore.analysis.SearchCancelled`)."""
    from rookcore.analysis import SearchCancelled, Solver  # noqa: PLC0415 - the solver loads on first use

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
