"""What Replay shows of a double-dummy analysis (`rookcore.annotations.analyze`), as words (no HTML).

An analysis report may be exact (every card's loss and best cards) or, from a budget that ran out or a run still
going, hold proven ranges (`rookcore.annotations.loss_range`, `is_exact`, `nothing_proven`). Here: the summary of a
finished run, the verdict on one card, the rows of the cards proven to have lost points (the table and the "Go to"
list), the table's legend and what the table says when it is empty. Every sentence is in the active language.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import annotations
from ..actions import Play
from ..cards import Card
from ..hand import SEATS, team_of
from ..i18n import _, ngettext
from ..records import HandRecord
from ..words import card_text, list_text, seat_name, team_name

__all__ = ["cards_shown", "loss_text", "summary", "CardVerdict", "card_verdict", "CostlyRow", "costly_rows",
           "table_legend", "empty_table", "LEGEND_QUESTION", "LEGEND_BLUNDER"]

LEGEND_QUESTION = "\x01"
"""Where the table's legend names the "?" mark (the view puts the mark there, `table_legend`)."""
LEGEND_BLUNDER = "\x02"
"""Where the table's legend names the "??" mark."""


def _seat(code: str) -> str:
    """A report's seat ("S") in the active language."""
    return seat_name(SEATS.index(code))


def cards_shown(record: HandRecord, *notations: str) -> str:
    """Cards of an analysis report (record notation, "ROOK") by their names on the page ("Rook", "Red 1", in the
    active language), comma-separated, as the navigator and the Play tab write them. Raises ValueError for a
    notation that is no card."""
    return list_text([card_text(record.rules, Card.parse(n)) for n in notations])


def loss_text(entry: dict, record: HandRecord, sep: str = "–") -> str:
    """The loss of the card ``entry``: its exact number ("15"), or its proven range ("10–35",
    `rookcore.annotations.loss_range`) when it is not valued exactly."""
    lo, hi = annotations.loss_range(entry, record)
    return str(lo) if lo == hi else f"{lo}{sep}{hi}"


def summary(analysis: dict, record: HandRecord) -> str:
    """"Analysis done: …" for a finished analysis whose every value is exact; "The time budget ran out: …" (what is
    proven, and how to refine it) for one a budget cut short; with a note when the hand is unfinished
    (`annotations.unfinished_note`)."""
    costly = len(annotations.costly_cards(analysis, record))
    if not annotations.analysis_complete(analysis):
        n = annotations.analysis_counts(analysis)
        head = _("The time budget ran out: marks proven for {marked} of {cards} cards, {exact} valued exactly, "
                 "{costly} proven to have lost points; the others show their proven range. Choose a larger time "
                 "budget and click Analyze to refine.", marked=n["marked"], cards=n["cards"], exact=n["exact"],
                 costly=costly)
    else:
        start = analysis.get("start") or {}
        head = _("Analysis done: {cards} cards, {costly} with a loss. Best play from the first lead: {ns} "
                 "{ns_points} · {ew} {ew_points}.", cards=len(annotations.analysis_by_step(analysis)), costly=costly,
                 ns=team_name(0), ew=team_name(1), ns_points=start.get("NS", "?"), ew_points=start.get("EW", "?"))
    return " ".join(filter(None, (head, annotations.unfinished_note(record))))


@dataclass(frozen=True)
class CardVerdict:
    """What the analysis says of the last action shown: for an analysed card its ``head`` ("Analysis of the last
    card shown (step 15, trick 4):"), ``move`` ("S plays Y13"), ``mark`` (proven mark, "" for none) and ``verdict``;
    otherwise only ``text`` (why there is nothing to show)."""

    text: str = ""
    head: str = ""
    move: str = ""
    mark: str = ""
    verdict: str = ""


def _verdict(entry: dict, record: HandRecord, running: bool) -> str:
    """What the analysis proved of the card ``entry``: its exact loss and values, or, when it is not valued
    exactly, the proven ranges of its loss and of its team's points before and after it, and its mark if proven
    (``running``: the analysis goes on)."""
    team = team_name(team_of(SEATS.index(entry["seat"])))
    if annotations.is_exact(entry):
        best = cards_shown(record, *entry["best_cards"])
        if entry["loss"] > 0:
            return ngettext("loss {loss} point: {team} could still get {best}, {value} after this card. Best: {cards}.",
                            "loss {loss} points: {team} could still get {best}, {value} after this card. "
                            "Best: {cards}.", entry["loss"], loss=entry["loss"], team=team, best=entry["best"],
                            value=entry["value"], cards=best)
        return _("a best card ({team} keeps {value}). Best: {cards}.", team=team, value=entry["value"], cards=best)

    def pts(lo: int, hi: int) -> str:
        return str(lo) if lo == hi else _("between {lo} and {hi}", lo=lo, hi=hi)

    if annotations.nothing_proven(entry, record):
        if running:
            return _("nothing proven yet: the analysis works from the last trick back and has not reached this card.")
        return _("nothing proven yet: the analysis works from the last trick back and has not reached this card in "
                 "the time given.")
    mark = {None: _("whether it is a mistake is not proven yet"),
            "??": _("it changes whether the bid is made"),
            "?": _("a mistake: it loses at least 10 points"),
            "": _("no mistake: it loses less than 10 points and does not change whether the bid is made")}
    lo, hi = annotations.loss_range(entry, record)
    return _("proved so far: loss {loss} points ({team} could get {best} with best play before this card, {value} "
             "after it); {mark}. The exact values and best cards are not found yet.", loss=pts(lo, hi), team=team,
             best=pts(entry["best_lo"], entry["best_hi"]), value=pts(entry["lo"], entry["hi"]),
             mark=mark.get(entry["mark"], str(entry["mark"])))


def card_verdict(analysis: dict, record: HandRecord, step: int | None, running: bool = False) -> CardVerdict:
    """The analysis of record step ``step`` (the last action shown; None at navigator position 0): the card's
    verdict, or why there is none (no action shown yet, a card the analysis has not reached, not a card).
    ``running``: the analysis goes on. Raises nothing for a report of ``record``."""
    entry = annotations.analysis_by_step(analysis).get(step) if step is not None else None
    if entry is not None:
        return CardVerdict(head=_("Analysis of the last card shown (step {step}, trick {trick}):", step=step + 1,
                                  trick=entry["trick"]),
                           move=_("{seat} plays {card}", seat=_seat(entry["seat"]),
                                  card=cards_shown(record, entry["card"])),
                           mark=entry["mark"] or "", verdict=_verdict(entry, record, running))
    if step is None:
        return CardVerdict(_("No action shown yet: step forward to see the analysis of each card played."))
    if analysis.get("partial") and isinstance(record.actions()[step], Play):
        return CardVerdict(_("The last card shown (step {step}) is not analysed: the analysis works from the last "
                             "trick back.", step=step + 1))
    return CardVerdict(_("The last action shown (step {step}) is not a card: the analysis judges the cards played.",
                         step=step + 1))


@dataclass(frozen=True)
class CostlyRow:
    """A card proven to have lost points: its record ``step``, ``trick``, ``seat`` and ``card`` (names in the
    active language), ``loss`` ("15" or a proven range "10–35"), ``mark`` (the proven mark, "" for none, None while
    not proven), ``best`` (the best cards, or "not found yet"), ``exact`` and ``label`` (its line in the "Go to"
    list: "step 15: trick 4, S plays Y13 — loss 15 ?")."""

    step: int
    trick: int
    seat: str
    card: str
    loss: str
    mark: str | None
    best: str
    exact: bool
    label: str


def costly_rows(analysis: dict, record: HandRecord) -> list[CostlyRow]:
    """The cards of ``analysis`` proven to have lost points (`annotations.costly_cards`), in step order, as the
    table and the "Go to" list show them. Raises nothing for a report of ``record``."""
    rows = []
    for c in annotations.costly_cards(analysis, record):
        lo, hi = annotations.loss_range(c, record)
        parts = dict(step=c["step"] + 1, trick=c["trick"], seat=_seat(c["seat"]), card=cards_shown(record, c["card"]),
                     loss=lo, hi=hi)
        label = (_("step {step}: trick {trick}, {seat} plays {card} — loss {loss}", **parts) if lo == hi
                 else _("step {step}: trick {trick}, {seat} plays {card} — loss {loss} to {hi}", **parts))
        exact = annotations.is_exact(c)
        rows.append(CostlyRow(c["step"], c["trick"], parts["seat"], parts["card"], loss_text(c, record), c["mark"],
                              cards_shown(record, *c["best_cards"]) if exact else _("not found yet"), exact,
                              f"{label} {c['mark']}" if c["mark"] else label))
    return rows


def table_legend(rows: list[CostlyRow]) -> str:
    """The legend of the table of ``rows``, with `LEGEND_QUESTION` and `LEGEND_BLUNDER` where the "?" and "??"
    marks go; it says what a range means when a row is not valued exactly."""
    badges = dict(question=LEGEND_QUESTION, blunder=LEGEND_BLUNDER)
    if any(not row.exact for row in rows):
        return _("(Step as on the navigator; double dummy, points of the player's side; {question} loses 10 points or "
                 "more, {blunder} changes whether the bid is made; a loss such as 10–35 is a proven range, the exact "
                 "value not found yet)", **badges)
    return _("(Step as on the navigator; double dummy, points of the player's side; {question} loses 10 points or "
             "more, {blunder} changes whether the bid is made)", **badges)


def empty_table(analysis: dict) -> str:
    """What the table says when no card is proven to have lost points: none so far (a run going on or
    cancelled), none at all (a complete analysis), or none proven yet (a budget that ran out)."""
    if analysis.get("partial"):
        return _("No card with a loss so far.")
    if annotations.analysis_complete(analysis):
        return _("Every card played was a best card (no loss).")
    return _("No card proven to have lost points (the others' values are still open).")
