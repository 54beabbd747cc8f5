"""Asking before an action that throws something away, answered by asking again.

`SecondClick` is the engine's side of "are you sure?": a session (Replay's `rookcore.replay.ReplaySession`, the
panels) asks once, and a second request for the same thing, a little later, goes ahead. No UI import: the widgets
re-export it (`widgets.clicks.SecondClick`).
"""
from __future__ import annotations

import time
from typing import Hashable

__all__ = ["SecondClick"]


class SecondClick:
    """Asks before an action that throws something away (New hand in the middle of a hand, New game in the middle
    of a game): the first click only asks; a second click on the same question, at least ``wait`` seconds later,
    confirms it. The second click of a double click comes sooner and only repeats the question.

    Args:
      wait: seconds (float >= 0) between the question and the click that confirms it (default `WAIT`).
    """

    WAIT = 0.5

    def __init__(self, wait: float = WAIT) -> None:
        self.wait = wait
        self._asked: tuple[Hashable, float] | None = None  # (question key, when it was first asked)

    def confirmed(self, key: Hashable) -> bool:
        """True if this click on question ``key`` (anything naming the action and the position it would throw away)
        confirms an earlier one (then the question is forgotten); False if it only asks."""
        now = time.monotonic()
        if self._asked is not None and self._asked[0] == key:
            if now - self._asked[1] >= self.wait:
                self._asked = None
                return True
            return False
        self._asked = (key, now)
        return False

    def forget(self) -> None:
        """Drop an open question (something else happened since)."""
        self._asked = None
