"""Progress of a long double-dummy analysis running in a background thread (Replay's Analyze, Play's review).

`throttled` turns a panel's "show the cards analysed so far" function into the ``progress(done, total, cards)``
callback of `rookcore.annotations.analyze` / `review`: it shows at most every `PROGRESS_EVERY` seconds and raises
`Cancelled` (which stops the analysis) once the panel no longer wants the result.
"""
from __future__ import annotations

import time
from typing import Callable

__all__ = ["Cancelled", "PROGRESS_EVERY", "throttled", "progress_text"]

PROGRESS_EVERY = 0.5
"""Seconds between two progress updates of a running analysis."""


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
    """ "Analyzing… 12 of 36 cards done, from the last trick back (tricks 7–9 so far; …)" for the entries ``cards``
    (in step order, non-empty)."""
    return (f"Analyzing… {done} of {total} cards done, from the last trick back (tricks {cards[0]['trick']}–"
            f"{cards[-1]['trick']} so far; the first tricks take longest).")
