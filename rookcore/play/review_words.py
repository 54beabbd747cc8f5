"""What the end-of-hand review ("Could we have done better?") shows, as data and words (no HTML).

`ReviewShown` is the review's state for a view to draw (its kind, its sentence, the costly cards, the facts on the
whole hand, the notes); `ReviewLink` one "Replay at step …" button of a costly card. The functions here make them
from an analysis report (`rookcore.annotations`), in the active language.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import annotations
from ..cards import Card
from ..i18n import N_, _, ngettext
from ..records import HandRecord
from ..words import team_name

__all__ = ["ReviewShown", "ReviewLink", "HINDSIGHT", "REVIEW_SCOPE", "REVIEW_SCOPE_BID", "facts", "budget_note",
           "running", "stopped", "result", "card_name", "links"]

HINDSIGHT = N_("This is hindsight: you could not see the other hands. A card that costs points here can still have "
               "been a fair choice (the Hint weighs the deals that fit what you saw, e.g. a chance to set the bid).")
REVIEW_SCOPE = N_("The review looks at the cards played; the auction, the discard and the choice of trump are not "
                  "reviewed.")
REVIEW_SCOPE_BID = N_("The review looks at the cards played and the final bid; the rest of the auction, the discard "
                      "and the choice of trump are not reviewed.")
"""The scope note once the review also judged the auction (its double-dummy analysis gave the first lead's result)."""


@dataclass(frozen=True)
class ReviewShown:
    """The review as shown. ``kind``: "none" (nothing), "note" (why the hand is not analysed: ``text``), "running"
    (``text`` its progress, with the costly cards proven so far), "stopped" (``text`` "Review stopped after …"),
    "result" (``text`` the heading of the finished review), "failed" (``text`` "The review failed: …") or "broken"
    (``text`` an internal error). ``items``: the costly cards' sentences; ``costly``: the words before them while
    running or stopped ("Costly so far:"); ``none_found``: what a stopped review without costly cards says;
    ``start``: the first lead's result ("" if not known); ``auction``: the auction judged double dummy (None if not
    known);
    ``budget``: the note when the time budget ran out; ``hindsight`` and ``scope``: the notes under a result."""

    kind: str = "none"
    text: str = ""
    items: tuple[str, ...] = ()
    costly: str = ""
    none_found: str = ""
    start: str = ""
    auction: str | None = None
    budget: str = ""
    hindsight: str = ""
    scope: str = ""


@dataclass(frozen=True)
class ReviewLink:
    """A button opening Replay just after a costly card: ``step`` (the navigator's step: record step + 1),
    ``label`` and ``tooltip`` (words)."""

    step: int
    label: str
    tooltip: str


def facts(record: HandRecord, report: dict | None, running: bool) -> dict[str, str]:
    """The review's lines on the whole hand from ``report`` (the analysis of ``record``; None: none): ``start``, the
    first lead's result with best play — its proven range "— proved; refining…" while ``running``, then exact
    (`rookcore.annotations.start_sentence`) — and ``auction``, the auction judged double dummy
    (`rookcore.annotations.auction_sentence`); "" (start) and None (auction) when not known."""
    if report is None:
        return {"start": "", "auction": None}
    start = annotations.start_sentence(report, record, running=running) or ""
    judged = annotations.auction_facts(record, report)
    return {"start": start, "auction": annotations.auction_sentence(judged) if judged is not None else None}


def budget_note(report: dict | None, seat: str, budget: float | None) -> str:
    """A line when the time budget ran out before every value was exact: what is listed is proved, and how many
    of ``seat``'s cards are still open. "" for a review whose every value is exact."""
    if report is None or annotations.analysis_complete(report):
        return ""
    n = annotations.analysis_counts(report, seat=seat)
    seconds = f"{budget:.0f}" if budget is not None else None
    if n["open"]:
        args = {"open": n["open"], "cards": n["cards"]}
        return (ngettext("The {seconds} s time budget ran out before every value was exact: what is said here is "
                         "proved; {open} of your {cards} card could not be judged in time.",
                         "The {seconds} s time budget ran out before every value was exact: what is said here is "
                         "proved; {open} of your {cards} cards could not be judged in time.", n["cards"],
                         seconds=seconds, **args) if seconds else
                ngettext("The time budget ran out before every value was exact: what is said here is proved; "
                         "{open} of your {cards} card could not be judged in time.",
                         "The time budget ran out before every value was exact: what is said here is proved; "
                         "{open} of your {cards} cards could not be judged in time.", n["cards"], **args))
    if seconds:
        return _("The {seconds} s time budget ran out before every value was exact: what is said here is proved; "
                 "every card of yours was judged, some with a range instead of an exact number.", seconds=seconds)
    return _("The time budget ran out before every value was exact: what is said here is proved; every card "
             "of yours was judged, some with a range instead of an exact number.")


def running(record: HandRecord, status: str, report: dict | None, items: list[dict]) -> ReviewShown:
    """A running review: its ``status`` line, the facts proven so far and the costly cards ``items``."""
    return ReviewShown("running", status, tuple(i["text"] for i in items), costly=_("Costly so far:"),
                       **facts(record, report, True))


def stopped(record: HandRecord, run, items: list[dict]) -> ReviewShown:
    """A review stopped by the learner: how far ``run`` (its `rookcore.analysis_progress.AnalysisRun`, or None)
    got, the costly cards ``items`` proven so far, and the facts as far as proven."""
    done, total = run.latest[:2] if run is not None and run.latest else (0, 0)
    if total and run is not None:
        text = ngettext("Review stopped after {done} of {total} card ({seconds} s).",
                        "Review stopped after {done} of {total} cards ({seconds} s).", total, done=done,
                        total=total, seconds=f"{run.elapsed():.0f}")
    elif total:
        text = ngettext("Review stopped after {done} of {total} card.",
                        "Review stopped after {done} of {total} cards.", total, done=done, total=total)
    else:
        text = _("Review stopped.")
    return ReviewShown("stopped", text, tuple(i["text"] for i in items), costly=_("Costly so far:"),
                       none_found=_("No costly card found so far."),
                       **facts(record, run.report if run is not None else None, False))


def result(record: HandRecord, seat: str, run, items: list[dict] | None, error: BaseException | None,
           threshold: int) -> ReviewShown:
    """The finished review of ``record`` (``run``: its `AnalysisRun`): its ``error``, or the costly cards ``items``
    of ``seat`` (or that there are none, within ``threshold`` points), the first lead's result and the auction,
    and a note if the time budget cut it short."""
    if error is not None:
        kind = "" if isinstance(error, ValueError) else f"{type(error).__name__}: "
        return ReviewShown("failed", _("The review failed: {error}", error=kind + str(error)))
    said = facts(record, run.report, False)
    note = budget_note(run.report, seat, run.budget)
    scope = _(REVIEW_SCOPE_BID if said["auction"] is not None else REVIEW_SCOPE)
    if not items:
        if note:
            return ReviewShown("result", _("No costly card proved for you within the time budget."), budget=note,
                               scope=scope, **said)
        return ReviewShown("result", _("No costly cards: every card you played kept the best double-dummy result "
                                       "for {team} (within {points} points).", team=team_name(0), points=threshold),
                           scope=scope, **said)
    return ReviewShown("result", _("Your costly cards (double dummy: all hands known, best play after):"),
                       tuple(i["text"] for i in items), budget=note, hindsight=_(HINDSIGHT), scope=scope, **said)


def card_name(record: HandRecord, notation) -> str:
    """The page name ("Crow", "Red 1", "R14") of a review item's card ``notation``; the notation itself (or
    "the card") if it cannot be read."""
    try:
        return record.rules.display_name(Card.parse(notation))
    except Exception:  # noqa: BLE001 - a name for a button, never an error
        return str(notation or _("the card"))


def links(record: HandRecord | None, items: list[dict]) -> tuple[ReviewLink, ...]:
    """One `ReviewLink` per costly card of ``items`` (review items with a record ``step``) that opens Replay on
    ``record`` (the reviewed hand) just after that card (navigator step = record step + 1, as Replay's "Go to"
    list). Items without a step get none; none without a record."""
    made = []
    for item in items:
        step = item.get("step")
        if record is None or isinstance(step, bool) or not isinstance(step, int):
            continue
        name = card_name(record, item.get("card"))
        trick = item.get("trick")
        where = _("trick {trick}, {card}", trick=trick, card=name) if trick is not None else name
        made.append(ReviewLink(step + 1, _("Replay at step {step} ({where})", step=step + 1, where=where),
                               _("Open the Replay tab just after you played {card}", card=name)))
    return tuple(made)
