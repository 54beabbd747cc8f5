"""The analyzer's mark of a card and its threshold (the ``analyze`` command: record-format.md "marks").

A card is marked ``"??"`` when it turns the bid question against the mover's team, else ``"?"`` when it lost at least
the threshold (a whole number of points, at least 1), else ``""`` (`rookcore.analysis.annotate`'s module doc). Kept
apart from the solver (`rookcore.analysis`), which is big and loaded only when an analysis runs, so that
`rookcore.annotations` checks a threshold without loading it, and the analysis does not import the annotations it
serves.
"""
from __future__ import annotations

__all__ = ["check_threshold", "card_mark"]


def check_threshold(threshold) -> None:
    """Raise ValueError unless ``threshold`` (points a card must lose to be marked "?") is an int ≥ 1 (not a bool)."""
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise ValueError(f"the threshold must be a whole number of points, at least 1, not {threshold!r}")


def card_mark(made_before: bool, made_after: bool, mover_is_declarer: bool, loss_at_least_threshold: bool) -> str:
    """The analyzer's mark of a card (annotate's rule): ``"??"`` when the card turns the bid question against the
    mover's team (declaring team: made → set; defenders: set → made), else ``"?"`` when it lost at least the
    threshold, else ``""``."""
    if mover_is_declarer:
        turned = made_before and not made_after
    else:
        turned = not made_before and made_after
    return "??" if turned else ("?" if loss_at_least_threshold else "")
