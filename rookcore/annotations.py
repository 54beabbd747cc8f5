"""Annotating hand records: comments and marks by step, saving, and a learner's "could we have done better?" review.

UI-free logic behind the Replay panel's annotation editor and the Play panel's review button.

Conventions
-----------
* Every editing function (`set_comment`, `delete_comment`, `set_mark`, `apply_analysis_marks`) returns a **new**
  `HandRecord`; the record passed in is never modified.
* Steps are the record's steps (record-format.md "comments"): 0 is the first auction call, then the calls, the
  discard (one step), trump (one step) and every card played; step ``k`` is the action ``record.actions()[k]``,
  i.e. the decision taken in the position after ``k`` steps (the Replay panel annotates it at "Step k+1",
  where it is the last action shown).
* Comments may sit on any step ``0..n`` (``n`` = number of actions; step ``n`` is "after the last action", as the
  record validator allows). Marks may sit on any *action* step ``0..n-1`` — calls, the discard, trump or a card —
  though the analyzer only ever judges cards.
* ``comments`` is kept sorted by step after an edit (an unedited record is left exactly as loaded, so a
  load → save round trip is exact). Removing the last comment leaves ``comments == []`` if the record as first
  edited had a ``comments`` field, and removes the field (``None``) otherwise; ``marks`` behaves the same way.
"""
from __future__ import annotations

import copy
import os
from typing import Any

from . import records
from .hand import SEATS, TEAM_NAMES
from .i18n import N_, _, ngettext, pgettext
from .marks import check_threshold
from .records import GameRecord, HandRecord
from .words import list_text

__all__ = ["MARKS", "MARK_NAMES", "set_comment", "delete_comment", "set_mark", "mark_at", "comment_at",
           "n_steps", "save_record", "analyze", "not_analyzable_reason", "unfinished_note", "apply_analysis_marks",
           "review", "analysis_by_step", "TEAM_NAMES", "DEFAULT_BUDGET", "is_exact", "loss_range", "costly_cards",
           "analysis_counts", "analysis_complete", "start_facts", "start_sentence", "auction_facts",
           "auction_sentence", "points_total", "nothing_proven", "mark_name"]

DEFAULT_BUDGET = 60.0
"""Seconds of double-dummy search the app gives one hand (Replay's Analyze, Play's review) before it shows what is
proven (`rookcore.analysis.budget`)."""

MARKS = ("!", "?", "??")
"""Marks that `set_mark` writes ("" removes a mark). Loaded records may hold the schema's others (!!, !?, ?!)."""
MARK_NAMES = {"!": N_("good move"), "?": N_("mistake"), "??": N_("blunder"), "!!": N_("excellent move"),
              "!?": N_("interesting move"), "?!": N_("dubious move")}
"""Each mark's name in English (a page shows it translated, `mark_name`)."""


def mark_name(mark: str) -> str:
    """The name of ``mark`` ("?" → "mistake") in the active language (`rookcore.i18n`); "" for an unknown mark."""
    return _(MARK_NAMES[mark]) if mark in MARK_NAMES else ""


def _team_word(team: str) -> str:
    """A team's name ("N–S", "E–W", as the reports write it) in the active language."""
    return pgettext("team", team)

# Whether the record as first edited had a comments / marks field (carried along the chain of edited copies).
_HAD_COMMENTS = "_annotations_had_comments"
_HAD_MARKS = "_annotations_had_marks"


# ----- helpers -----------------------------------------------------------------------
def n_steps(record: HandRecord) -> int:
    """Number of actions (steps) in ``record``; the last step that can hold a comment."""
    return len(record.actions())


def _check_record(record: Any) -> HandRecord:
    if isinstance(record, GameRecord):
        raise ValueError("annotate one hand of a game record (record.hands[i]), not the game")
    if not isinstance(record, HandRecord):
        raise ValueError(f"expected a HandRecord, not {type(record).__name__}")
    return record


def _check_step(record: HandRecord, step: Any, *, action: bool) -> int:
    if isinstance(step, bool) or not isinstance(step, int):
        raise ValueError(f"step must be an integer, not {step!r}")
    n = n_steps(record)
    last = n - 1 if action else n
    if last < 0:
        raise ValueError("the record has no actions to mark")
    if not 0 <= step <= last:
        what = "an action step" if action else "a step"
        extra = f" (step {n} is the end of the hand: there is no action to mark)" if action and step == n else ""
        raise ValueError(f"step {step} is out of range: {what} of this hand is 0..{last}{extra}")
    return step


def _copy(record: HandRecord) -> HandRecord:
    new = copy.deepcopy(record)
    setattr(new, _HAD_COMMENTS, getattr(record, _HAD_COMMENTS, record.comments is not None))
    setattr(new, _HAD_MARKS, getattr(record, _HAD_MARKS, record.marks is not None))
    return new


def comment_at(record: HandRecord, step: int) -> str:
    """The comment text at ``step`` ("" if none; several comments at one step are joined by newlines)."""
    return record.comment_at(step)


def mark_at(record: HandRecord, step: int) -> str:
    """The mark at ``step`` ("" if none)."""
    return (record.marks or {}).get(step, "")


# ----- comments ------------------------------------------------------------------------
def set_comment(record: HandRecord, step: int, text: str) -> HandRecord:
    """A copy of ``record`` with the comment at ``step`` set to ``text`` (added, or replacing every comment at that
    step). Empty (or whitespace-only) ``text`` deletes the comment, like `delete_comment`.

    Raises ValueError for a step outside ``0..n_steps(record)`` or a ``text`` that is not a string.
    """
    _check_record(record)
    step = _check_step(record, step, action=False)
    if not isinstance(text, str):
        raise ValueError(f"comment text must be a string, not {type(text).__name__}")
    if not text.strip():
        return delete_comment(record, step)
    new = _copy(record)
    comments = list(new.comments or [])
    kept, placed = [], False
    for c in comments:
        if c.get("step") == step:
            if not placed:  # keep the first entry (and any extra keys it has), replace its text
                kept.append({**c, "text": text})
                placed = True
            continue
        kept.append(c)
    if not placed:
        kept.append({"step": step, "text": text})
    new.comments = sorted(kept, key=lambda c: c["step"])
    return new


def delete_comment(record: HandRecord, step: int) -> HandRecord:
    """A copy of ``record`` without comments at ``step`` (unchanged copy if there were none).

    Raises ValueError for a step outside ``0..n_steps(record)``.
    """
    _check_record(record)
    step = _check_step(record, step, action=False)
    new = _copy(record)
    if not any(c.get("step") == step for c in new.comments or ()):
        return new
    kept = sorted((c for c in new.comments if c.get("step") != step), key=lambda c: c["step"])
    new.comments = kept if kept or getattr(new, _HAD_COMMENTS) else None
    return new


# ----- marks -----------------------------------------------------------------------------
def set_mark(record: HandRecord, step: int, mark: str) -> HandRecord:
    """A copy of ``record`` with ``mark`` ("!", "?" or "??") at action step ``step``; ``mark == ""`` removes it.

    Any action step may be marked (a call, the discard, trump or a card: ``0..n_steps(record) - 1``).
    Raises ValueError for a step out of range or a mark not in ``MARKS`` / "".
    """
    _check_record(record)
    if mark not in MARKS and mark != "":
        raise ValueError(f"bad mark {mark!r}: use one of {', '.join(repr(m) for m in MARKS)} or '' to remove")
    step = _check_step(record, step, action=True)
    new = _copy(record)
    marks = dict(new.marks or {})
    if mark:
        marks[step] = mark
    else:
        marks.pop(step, None)
    new.marks = dict(sorted(marks.items())) if marks or getattr(new, _HAD_MARKS) else None
    return new


# ----- saving ------------------------------------------------------------------------------
def save_record(record: HandRecord | GameRecord, path: str | os.PathLike) -> str:
    """Write ``record`` as JSON to ``path``, creating parent folders; return the path (`records.save`).

    Raises ValueError for an empty path or a folder and OSError if the file cannot be written.
    """
    return records.save(record, path)


# ----- analysis -----------------------------------------------------------------------------
def not_analyzable_reason(record: HandRecord) -> str | None:
    """Why double-dummy analysis has nothing to say about ``record`` (None if it can be analysed): a passed-out
    hand, or one stopped before its first card. An unfinished hand with cards played is analysable (the record
    holds the whole deal, so best play from each of its positions to the end is defined): its cards played so far
    are judged, as by ``python -m rookcore analyze`` (see `unfinished_note`)."""
    _check_record(record)
    state = record.replay()
    if state.passed_out:
        return _("The hand was passed out: no cards were played, so there is nothing to analyse.")
    if not state.is_over and not _cards_played(record):
        return _("The hand is unfinished: no cards were played yet, so there is nothing to analyse.")
    return None


def unfinished_note(record: HandRecord) -> str:
    """"" for a finished hand; else one sentence saying that only the ``n`` cards played so far are judged (the
    double-dummy values still count best play to the end of the hand). Raises ValueError for a game record or
    anything else that is not a hand record."""
    _check_record(record)
    if record.replay().is_over:
        return ""
    n = _cards_played(record)
    return ngettext("The hand is unfinished: the {count} card played so far is judged, against best play by both "
                    "sides to the end of the hand.",
                    "The hand is unfinished: the {count} cards played so far are judged, each against best play by "
                    "both sides to the end of the hand.", n, count=n)


def _cards_played(record: HandRecord) -> int:
    return sum(len(t) for t in record.tricks or ())


def analyze(record: HandRecord, threshold: int = 10, progress=None, solver=None, budget: float | None = None,
            on_report=None) -> dict:
    """The double-dummy ``analyze`` report of the hand ``record``, the analysis imported on first use (the solver is
    big, and loaded only when an analysis is asked for).

    Without a ``budget``: ``rookcore.analysis.annotate.analyze_record(record, question_threshold=threshold,
    solver=solver, progress=progress)``, every value exact however long it takes; ``progress(done, total, cards)``
    after each card (from the last card back; see `analyze_hand`). With one (wall-clock seconds, > 0):
    `rookcore.analysis.budget.analyze_hand_budget` — proven marks and ranges first, exact values as time allows;
    ``progress`` as it documents, and ``on_report(report)`` with the report of what is proven so far as it grows.
    ``on_report`` is also called once with the final report (either way). An exception ``progress`` or
    ``on_report`` raises stops the analysis and propagates. ``solver``: a `rookcore.analysis.Solver` (default: a
    new one); another thread may stop the analysis with its ``cancel()`` (then `SearchCancelled` propagates).
    Raises ValueError for a bad threshold, a budget that is not a positive number of seconds, or a game record
    with a budget.
    """
    if budget is None:
        from .analysis.annotate import analyze_record  # noqa: PLC0415

        report = analyze_record(record, question_threshold=threshold, solver=solver, progress=progress)
    else:
        from .analysis.budget import analyze_hand_budget  # noqa: PLC0415

        _check_record(record)
        if isinstance(budget, bool) or not isinstance(budget, (int, float)):
            raise ValueError(f"the time budget must be a number of seconds, not {budget!r}")
        report = analyze_hand_budget(record, threshold, solver, progress=progress, budget=budget,
                                     on_report=on_report)
    if on_report is not None:
        on_report(report)
    return report


def analysis_by_step(analysis: dict) -> dict[int, dict]:
    """The ``cards`` entries of an ``analyze_record`` report keyed by step."""
    return {c["step"]: c for c in analysis.get("cards") or ()}


# ----- proven facts of a budgeted analysis (rookcore.analysis.budget) ---------------------------------------------
_TEAM_KEYS = ("NS", "EW")


def is_exact(entry: dict) -> bool:
    """Whether the card ``entry`` of an analysis report is valued exactly (a budgeted analysis adds ``"exact":
    false`` to the others, which carry proven ranges instead of ``best`` / ``value`` / ``loss``)."""
    return entry.get("exact", True) is not False


def loss_range(entry: dict, record: HandRecord | None = None) -> tuple[int, int]:
    """The proven (least, most) points the card ``entry`` lost (its ``loss``: best play before it less best play
    after it, in its team's final points). An exact entry gives (loss, loss); one that is not gives
    (``best_lo`` − ``hi``, ``best_hi`` − ``lo``), the least raised to 0 when ``record``'s rules cannot make a loss
    negative (every rule set but a majority bonus with an even number of tricks, rookcore.analysis.annotate).
    Raises KeyError for an entry without those fields."""
    if is_exact(entry):
        return entry["loss"], entry["loss"]
    lo, hi = entry["best_lo"] - entry["hi"], entry["best_hi"] - entry["lo"]
    if record is not None:
        from .analysis.bounds import tiebreak  # noqa: PLC0415 - the analysis loads on first use

        if not tiebreak(record.rules):
            lo = max(lo, 0)
    return lo, hi


def costly_cards(analysis: dict, record: HandRecord | None = None) -> list[dict]:
    """The card entries of ``analysis`` proven to have lost points: an exact loss above 0, a proven range whose
    least loss is above 0 (`loss_range`, ``record`` as there), or a proven mark "?" / "??". In step order."""
    return [c for c in analysis.get("cards") or ()
            if c.get("mark") in ("?", "??") or loss_range(c, record)[0] > 0]


def analysis_counts(analysis: dict, seat: str | None = None) -> dict[str, int]:
    """How much of ``analysis`` is proven, over the cards of ``seat`` ("N", "E", "S", "W"; None: every card):
    ``{"cards": n, "exact": cards valued exactly, "marked": cards whose mark is proven, "open": n − marked}`` (a
    budgeted analysis' mark is null until proven; every exact card's mark is known)."""
    cards = [c for c in analysis.get("cards") or () if seat is None or c.get("seat") == seat]
    marked = sum(1 for c in cards if c.get("mark") is not None)
    return {"cards": len(cards), "exact": sum(1 for c in cards if is_exact(c)), "marked": marked,
            "open": len(cards) - marked}


def analysis_complete(analysis: dict) -> bool:
    """Whether every value of ``analysis`` is exact: each card, and the result from the first lead (``start``)
    when there are cards or a proven range of it (``start_range``). False for a budgeted analysis whose time ran
    out (or one stopped early)."""
    cards = analysis.get("cards") or ()
    start_needed = bool(cards) or analysis.get("start_range") is not None
    return all(is_exact(c) for c in cards) and (not start_needed or analysis.get("start") is not None)


def start_facts(analysis: dict) -> dict | None:
    """The double-dummy result from the first analysed position (the first lead) as proven by ``analysis``:
    ``{"exact": bool, "NS": (lo, hi), "EW": (lo, hi)}`` (final points of each team with best play; lo == hi
    when exact), or None when the report has neither ``start`` nor ``start_range``."""
    start, rng = analysis.get("start"), analysis.get("start_range")
    if start is not None:
        return {"exact": True, **{k: (start[k], start[k]) for k in _TEAM_KEYS}}
    if rng is not None:
        return {"exact": False, **{k: (rng[k][0], rng[k][1]) for k in _TEAM_KEYS}}
    return None


def _points(lo: int, hi: int) -> str:
    """A proven number of points: "95" or, as a range, "between 85 and 105" (in the active language)."""
    return f"{lo}" if lo == hi else _("between {lo} and {hi}", lo=lo, hi=hi)


def points_total(record: HandRecord) -> int:
    """The most final points a team can take in a hand of ``record``'s rules: every counter (the nest's too) and
    the majority bonus (rules.md §1.6)."""
    return record.rules.counter_total + record.rules.majority_bonus


def nothing_proven(entry: dict, record: HandRecord) -> bool:
    """Whether a budgeted analysis proved nothing yet about the card ``entry`` of ``record``: not valued exactly,
    no mark, and both its team's ranges (before and after the card) still every possible score."""
    full = (0, points_total(record))
    return (not is_exact(entry) and entry.get("mark") is None and (entry["lo"], entry["hi"]) == full
            and (entry["best_lo"], entry["best_hi"]) == full)


def start_sentence(analysis: dict, record: HandRecord, running: bool = False) -> str:
    """One sentence on the result from the first lead with best play (`start_facts`), the declaring team first,
    saying how far it is proven: "N–S (declarers, bid 120) take 95 points with best play from the first lead
    (E–W: 85) — exact."; a proven range "N–S (declarers, bid 120) take between 85 and 105 points with best play
    from the first lead (E–W: between 75 and 95) — proved; refining…" while the analysis is ``running``, else
    "— proved; the exact number was not found in the time given."; a range not yet narrowed at all says so.
    "" when the report has no such result. Plain text in the active language (`rookcore.i18n`). Raises ValueError
    for a record that is not a hand's."""
    facts = start_facts(analysis)
    if facts is None:
        return ""
    state = _check_record(record).replay()
    first = state.declarer & 1 if state.declarer is not None else 0
    if not facts["exact"] and facts[_TEAM_KEYS[first]] == (0, points_total(record)):
        return (_("The result from the first lead with best play is not narrowed down yet; refining…") if running
                else _("The result from the first lead with best play was not narrowed down in the time given."))
    other = 1 - first
    parts = dict(team=_team_word(TEAM_NAMES[first]), bid=state.high_bid, points=_points(*facts[_TEAM_KEYS[first]]),
                 other=_team_word(TEAM_NAMES[other]), other_points=_points(*facts[_TEAM_KEYS[other]]))
    if state.declarer is not None:
        if facts["exact"]:
            return _("{team} (declarers, bid {bid}) take {points} points with best play from the first lead "
                     "({other}: {other_points}) — exact.", **parts)
        if running:
            return _("{team} (declarers, bid {bid}) take {points} points with best play from the first lead "
                     "({other}: {other_points}) — proved; refining…", **parts)
        return _("{team} (declarers, bid {bid}) take {points} points with best play from the first lead "
                 "({other}: {other_points}) — proved; the exact number was not found in the time given.", **parts)
    if facts["exact"]:
        return _("{team} take {points} points with best play from the first lead ({other}: {other_points}) — "
                 "exact.", **parts)
    if running:
        return _("{team} take {points} points with best play from the first lead ({other}: {other_points}) — "
                 "proved; refining…", **parts)
    return _("{team} take {points} points with best play from the first lead ({other}: {other_points}) — proved; "
             "the exact number was not found in the time given.", **parts)


def auction_facts(record: HandRecord, analysis: dict) -> dict | None:
    """The auction judged double dummy from what ``analysis`` (of ``record``, from its first lead) proves — the
    questions of `rookcore.analysis.judge_auction`, answered from the proven range of the declaring team's final
    points (both questions depend on those points only, and rise with them), or under Partnership's tie rule from
    the report's ``start_made`` (the bid question's own answer; the points of best play do not decide it there):
    ``{"team": "N–S" | "E–W" (the declaring team), "bid": points, "makeable": True | False | None (not proven
    yet), "highest": (lo, hi) (the highest bid of the rule set's range the team reaches: proven between lo and
    hi; None for "not even the lowest bid"), "bid_min", "bid_max": the rule set's bid range (points), "exact":
    bool (both answers known)}``, or None
    without a declarer or a result from the first lead."""
    facts = start_facts(analysis)
    state = _check_record(record).replay()
    if facts is None or state.declarer is None or state.high_bid is None:
        return None
    from .analysis.bounds import bid_threshold_key, highest_bid_key, two_outcome_apart  # noqa: PLC0415

    team = state.declarer & 1
    if two_outcome_apart(state.rules):
        makeable, top = _two_outcome_auction(state, analysis.get("start_made"))
    else:
        made, highest = bid_threshold_key(state), highest_bid_key(state)
        lo, hi = facts[_TEAM_KEYS[team]]
        pairs = [(p, 0) if team == 0 else (0, p) for p in (lo, hi)]
        made_lo, made_hi = made(pairs[0]), made(pairs[1])
        makeable = made_lo if made_lo == made_hi else None
        top = (highest(pairs[0]), highest(pairs[1]))
    return {"team": TEAM_NAMES[team], "bid": state.high_bid, "makeable": makeable, "highest": top,
            "bid_min": state.rules.bid_min, "bid_max": state.rules.bid_max,
            "exact": makeable is not None and top[0] == top[1]}


def _two_outcome_auction(state, made: bool | None) -> tuple[bool | None, tuple[int | None, int | None]]:
    """Partnership's auction judgement from the bid question's own answer ``made`` (the report's ``start_made``;
    None: not proven): (makeable, (lo, hi) of the highest makeable bid) — the points of the solver's best play do
    not answer it under the tie rule (`rookcore.analysis.bounds.two_outcome_apart`), so only what ``made`` proves
    is said: made, the highest is the bid or more; not made, it is below the bid (None: not even the lowest)."""
    rules, bid = state.rules, state.high_bid
    if made is None:
        return None, (None, rules.bid_max)
    if made:
        return True, (bid, rules.bid_max)
    below = bid - rules.bid_step
    return False, (None, below if below >= rules.bid_min else None)


def _highest_clause(facts: dict) -> str:
    """The highest bid the team could have made, as a clause in the active language ("" when nothing is proven)."""
    team, bid, (lo, hi) = _team_word(facts["team"]), facts["bid"], facts["highest"]
    if lo == hi:
        if hi is None:
            return _("{team} could not have made even the lowest bid, {lowest}", team=team, lowest=facts["bid_min"])
        if hi == bid:
            return _("{bid} was the highest bid {team} could have made", bid=bid, team=team)
        if hi > bid:
            return _("{team} could have bid as high as {highest} and made it", team=team, highest=hi)
        return _("the highest bid {team} could have made is {highest}", team=team, highest=hi)
    if lo is None and hi == facts["bid_max"]:
        return ""  # nothing proven of it yet
    if lo is None:
        return _("the highest bid {team} could have made is at most {highest} (perhaps not even the lowest bid, "
                 "{lowest}) — proved so far", team=team, highest=hi, lowest=facts["bid_min"])
    return _("the highest bid {team} could have made is between {lo} and {hi} — proved so far", team=team, lo=lo,
             hi=hi)


def auction_sentence(facts: dict) -> str:
    """The auction judgement `auction_facts` as a sentence a learner understands, e.g. "Judged double dummy (as
    if all four hands were known, with best play by both sides): N–S's bid of 120 could have been made; N–S
    could have bid as high as 130 and made it." Plain text. Raises KeyError for a dict that is not
    `auction_facts`'."""
    team, bid = _team_word(facts["team"]), facts["bid"]
    if facts["makeable"] is None:
        made = _("whether {team}'s bid of {bid} could have been made is not proven yet", team=team, bid=bid)
    elif facts["makeable"]:
        made = _("{team}'s bid of {bid} could have been made", team=team, bid=bid)
    else:
        made = _("{team}'s bid of {bid} could not have been made", team=team, bid=bid)
    highest = _highest_clause(facts)
    if highest:
        # TRANSLATORS: {made} and {highest} are whole clauses, each translated on its own
        return _("Judged double dummy (as if all four hands were known, with best play by both sides): {made}; "
                 "{highest}.", made=made, highest=highest)
    return _("Judged double dummy (as if all four hands were known, with best play by both sides): {made}.",
             made=made)


def apply_analysis_marks(record: HandRecord, analysis: dict, overwrite: bool = False) -> HandRecord:
    """A copy of ``record`` with the analyzer's "?"/"??" marks on its cards. Steps that already carry a mark keep
    it unless ``overwrite``. ``analysis`` is `analyze_record(record)` of this same record."""
    new = _copy(_check_record(record))
    for c in analysis.get("cards") or ():
        if c.get("mark") and (overwrite or c["step"] not in (new.marks or {})):
            new = set_mark(new, c["step"], c["mark"])
    return new


def _join(names: list[str]) -> str:
    """Card names as alternatives: "G14", "G14 or B14", "G14, B14 or R14" (in the active language)."""
    if len(names) <= 1:
        return "".join(names)
    return _("{cards} or {last}", cards=list_text(names[:-1]), last=names[-1])


def review(record: HandRecord, threshold: int = 10, seat: str = "S", analysis: dict | None = None,
           progress=None, solver=None, budget: float | None = None, on_report=None) -> list[dict]:
    """The learner's costly cards in ``record``: "could we have done better?".

    Runs the double-dummy analysis (``analyze_record(record, question_threshold=threshold)``, or uses ``analysis``
    if given) and keeps the cards of ``seat`` (default South) with ``loss >= threshold`` or an analyzer mark "?" /
    "??". Each item is the analyzer's card entry (``step``, ``trick``, ``seat``, ``card``, ``best``, ``value``,
    ``loss``, ``mark``, ``best_cards``) plus ``team`` ("N–S"/"E–W") and ``text``, a plain sentence such as
    "Trick 4: you played G5 (cost 15 points); G14 would have kept 85 for N–S." Items are in playing order.
    A card of a budgeted analysis that is not valued exactly (``"exact": false``, `rookcore.analysis.budget`) is
    kept when its proven mark is "?" or "??", with ``better`` empty and a sentence giving the proven range of
    ``best`` instead of a number.
    A hand without play (passed out, or stopped before the first card) gives ``[]``. ``progress``, ``solver``,
    ``budget`` (seconds, None: every value exact) and ``on_report`` are passed to `analyze` when the analysis runs
    here (``analysis`` may also be a partial report: its cards are filtered alike).
    Raises ValueError for an unknown seat or a threshold that is not a positive integer.
    """
    _check_record(record)
    if seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}: use one of {', '.join(SEATS)}")
    check_threshold(threshold)
    if analysis is None:
        analysis = analyze(record, threshold, progress, solver, budget=budget, on_report=on_report)
    team = TEAM_NAMES[SEATS.index(seat) & 1]
    out = []
    for c in analysis.get("cards") or ():
        exact = c.get("exact", True)  # a budgeted analysis' card not valued exactly: only its mark and ranges
        if c["seat"] != seat or not ((exact and c["loss"] >= threshold) or c["mark"] in ("?", "??")):
            continue
        parts = dict(trick=c["trick"], card=c["card"], team=_team_word(team))
        if not exact:
            if c["mark"] == "??":
                text = _("Trick {trick}: you played {card} (it changed whether the bid is made — proved); with best "
                         "play {team} would have kept between {lo} and {hi} points (the exact values are still "
                         "open).", lo=c["best_lo"], hi=c["best_hi"], **parts)
            else:
                text = _("Trick {trick}: you played {card} (it lost at least the mistake threshold — proved); with "
                         "best play {team} would have kept between {lo} and {hi} points (the exact values are "
                         "still open).", lo=c["best_lo"], hi=c["best_hi"], **parts)
            out.append({**c, "better": [], "team": team, "text": text})
            continue
        better = [b for b in c["best_cards"] if b != c["card"]] or list(c["best_cards"])
        loss = c["loss"]
        parts.update(loss=loss, better=_join(better), best=c["best"])
        if c["mark"] == "??":
            text = ngettext("Trick {trick}: you played {card} (cost {loss} point, and it changed whether the bid is "
                            "made); {better} would have kept {best} for {team}.",
                            "Trick {trick}: you played {card} (cost {loss} points, and it changed whether the bid is "
                            "made); {better} would have kept {best} for {team}.", loss, **parts)
        else:
            text = ngettext("Trick {trick}: you played {card} (cost {loss} point); {better} would have kept {best} "
                            "for {team}.",
                            "Trick {trick}: you played {card} (cost {loss} points); {better} would have kept {best} "
                            "for {team}.", loss, **parts)
        out.append({**c, "better": better, "team": team, "text": text})
    return out
