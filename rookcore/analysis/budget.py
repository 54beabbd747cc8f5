"""Analysis of a recorded hand within a time budget: proven answers first, exact values as time allows.

`analyze_hand_budget` gives the ``analyze`` report (`rookcore.analysis.annotate`) of a hand in about ``budget``
seconds, on every rule set. The questions, cheapest first, all asked of one `Solver` and its transposition table
(`rookcore.analysis.bounds`):

0. **The bid question from the first position** (the first lead, or the first card analysed): can the declaring
   team reach its bid against best defence (`Prover.reaches`: the two-outcome game; one null-window test at the
   bid), asked before anything else so that even a hard hand's budget answers it, for at most `FIRST_SHARE` of the
   budget (a hand whose first question needs more then still gets the later cards' marks; the search's table
   entries are kept, and the marks phase asks it again for the first card). Everywhere but Partnership the test is
   on the solver's scale, so ``start_range`` then lies on one side of the bid.
1. **Exact tail**: the cards played with at most `EXACT_TRICKS` tricks left (counting the trick being played) are
   valued exactly, from the last card back, as without a budget (`entry.card_entry`).
2. **Marks**: for each earlier card, from the last back: the bid question at the position before it (can the
   declaring team reach its bid against best defence? the two-outcome game, one null-window test at the bid),
   which with the same answer after the card decides ``??`` (the card changed that answer); then whether the card lost
   ``question_threshold`` points or more (``?``), by tests at thresholds set by the two positions' brackets,
   never by exact values.
3. **Range of the first position**: bisection of the first analysed position's value (`Prover.refine`); its
   proven range is in the report (``start_range``) after every test.
4. **Exact values**: the earlier cards' positions are solved by bisection, from the last back, and each card whose
   two positions are exact gets the entry an unbudgeted analysis gives (its best cards by one null-window test each).

When the budget runs out (`Solver.set_deadline`: the running search stops within microseconds) the report is
built from what is proven: a card not valued exactly keeps its fields but ``"best"``, ``"value"`` and ``"loss"`` are
null, ``"best_cards"`` is empty, and it adds ``"exact": false``, ``"lo"``/``"hi"`` (the proven range of its
team's final points after the card, i.e. of ``value``) and ``"best_lo"``/``"best_hi"`` (of ``best``); its
``"mark"`` is ``"??"``, ``"?"`` or ``""`` once proven, else null. ``"start"`` is null unless the first position is
exact, and ``"start_range"`` ({"NS": [lo, hi], "EW": [lo, hi]}) is added when it is not. Cards valued exactly keep
exactly the unbudgeted entry (and a report whose cards are all exact is byte-identical to the unbudgeted one).
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..actions import PLAYS, Play
from ..cards import Card
from ..hand import SEATS, Phase
from ..marks import card_mark, check_threshold
from ..records import HandRecord
from .bounds import Position, Prover, bid_threshold_key, two_outcome_apart
from .dd import SearchTimeout, Solver
from .entry import card_entry

__all__ = ["analyze_hand_budget", "EXACT_TRICKS", "FIRST_SHARE", "card_mark"]

FIRST_SHARE = 0.5
"""The most of the budget the first position's bid question may take before the other phases start (phase 0)."""
EXACT_TRICKS = 10
"""Cards played with at most this many tricks left (the current one included) are valued exactly first: there a
position's every card takes a median 0.16–0.37 s on the 13/14-trick rule sets (shared/notes/analysis-questions.md)."""

_UNKNOWN = object()


class _Hand:
    """The positions of one hand's analysed cards and what is proven about them (see the module doc)."""

    def __init__(self, record: HandRecord, solver: Solver, first_trick: int, threshold: int,
                 progress: Callable[[int, int, list[dict[str, Any]]], None] | None,
                 on_report: Callable[[dict[str, Any]], None] | None = None):
        self.rules = rules = record.rules
        self.record, self.solver, self.threshold, self.progress = record, solver, threshold, progress
        self.on_report = on_report
        plays = [(step, state, action.card) for step, (action, state) in
                 enumerate(zip(record.actions(), record.states())) if type(action) is Play and
                 state.phase is Phase.PLAY]
        last_trick = len(plays[-1][1].tricks) + 1 if plays else rules.hand_size
        if not 1 <= first_trick <= rules.hand_size:
            raise ValueError(f"the first trick must be a trick of the hand, 1 to {rules.hand_size}, not {first_trick}")
        if first_trick > last_trick:
            raise ValueError(f"the record's cards stop in trick {last_trick}: the first trick must be 1 to "
                             f"{last_trick}, not {first_trick}")
        self.todo = [(step, state, card) for step, state, card in plays if len(state.tricks) + 1 >= first_trick]
        self.positions = [Position(state) for _step, state, _card in self.todo]
        if self.todo:
            end = self.todo[-1][1].clone()
            end.apply(PLAYS[self.todo[-1][2]])
            self.positions.append(Position(end))
            for i, (_step, _state, card) in enumerate(self.todo):
                self.positions[i].link(int(card), self.positions[i + 1])
            bid_threshold_key(self.todo[0][1])  # a declarer and a bid, else ValueError
            self.bid = self.todo[0][1].high_bid
        self.entries: list[dict[str, Any] | None] = [None] * len(self.todo)
        self.marks: list[Any] = [_UNKNOWN] * len(self.todo)
        self.made: list[Any] = [_UNKNOWN] * (len(self.todo) + 1)
        self.prover = Prover(solver, on_test=self._tested)
        self._last_shown = 0.0

    # ----- the report ------------------------------------------------------------------------------------------
    def entry(self, i: int) -> dict[str, Any]:
        """The report entry of card ``i``: the exact one if found, else the proven one (module doc)."""
        if self.entries[i] is not None:
            return self.entries[i]
        step, state, card = self.todo[i]
        team = state.to_act & 1
        before, after = self.positions[i], self.positions[i + 1]
        lo, hi = after.team_range(team)
        blo, bhi = before.team_range(team)
        mark = self.marks[i]
        return {"step": step, "trick": len(state.tricks) + 1, "seat": SEATS[state.to_act],
                "card": self.rules.card_name(card), "best": None, "value": None, "loss": None,
                "mark": None if mark is _UNKNOWN else mark, "best_cards": [], "exact": False, "lo": lo, "hi": hi,
                "best_lo": blo, "best_hi": bhi}

    def cards(self) -> list[dict[str, Any]]:
        """Every card's entry, in step order."""
        return [self.entry(i) for i in range(len(self.todo))]

    def settled(self) -> list[dict[str, Any]]:
        """The entries whose mark is proven, in step order (a suffix of the cards until every mark is proven)."""
        return [self.entry(i) for i in range(len(self.todo)) if self.marks[i] is not _UNKNOWN]

    def show(self, force: bool = False) -> None:
        """Call ``progress(done, total, cards)`` with the cards whose mark is proven, then ``on_report(report)``
        with the report of what is proven now (`report`), at most every 0.2 s unless ``force``."""
        if self.progress is None and self.on_report is None:
            return
        now = time.monotonic()
        if not force and now - self._last_shown < 0.2:
            return
        self._last_shown = now
        if self.progress is not None:
            cards = self.settled()
            self.progress(len(cards), len(self.todo), cards)
        if self.on_report is not None:
            self.on_report(self.report())

    def _tested(self) -> None:
        self.show()

    def report(self) -> dict[str, Any]:
        """The ``analyze`` report of what is proven now (module doc)."""
        report: dict[str, Any] = {"variant": self.record.variant, "start": None, "cards": self.cards()}
        if self.todo:
            first = self.positions[0]
            pair = first.exact
            if pair is not None:
                report["start"] = {"NS": pair[0], "EW": pair[1]}
            else:
                report["start_range"] = {"NS": list(first.team_range(0)), "EW": list(first.team_range(1))}
        final = self.record.replay()
        if not final.is_over and not final.passed_out:
            report["complete"] = False
        return report

    # ----- the phases ------------------------------------------------------------------------------------------
    def exact_tail(self) -> int:
        """Phase 1: exact entries from the last card back while at most `EXACT_TRICKS` tricks are left; returns
        the index of the last card not done (−1: all done)."""
        res = None
        i = len(self.todo) - 1
        while i >= 0:
            step, state, card = self.todo[i]
            if self.rules.hand_size - len(state.tricks) > EXACT_TRICKS:
                break
            made = (self.made_at(i), self.made_at(i + 1)) if two_outcome_apart(self.rules) else None
            entry, res = card_entry(self.solver, self.rules, state, step, card, self.threshold, res, made)
            self._exact(i, entry, res)
            i -= 1
        return i

    def _exact(self, i: int, entry: dict[str, Any], res) -> None:
        """Keep card ``i``'s exact entry and what it proves of its two positions."""
        self.entries[i] = entry
        self.marks[i] = entry["mark"]
        self.positions[i].fix(res.value)
        self.positions[i].sync()
        self.made_at(i)  # the positions are exact: no search but under Partnership's tie rule
        self.made_at(i + 1)
        self.show()

    def made_at(self, i: int) -> bool:
        """The bid question's answer (`Prover.reaches`, two-outcome) at position ``i``, searched once and kept."""
        if self.made[i] is _UNKNOWN:
            self.made[i] = self.prover.reaches(self.positions[i], self.bid)
        return self.made[i]

    def first_question(self) -> None:
        """Phase 0: the bid question at the first position (module doc)."""
        if self.todo:
            self.made_at(0)
            self.show(force=True)

    def mark(self, i: int) -> None:
        """Phase 2 for card ``i`` (the card after it already done): prove its mark by tests (module doc)."""
        step, state, card = self.todo[i]
        before, after = self.positions[i], self.positions[i + 1]
        team = state.to_act & 1
        decl = state.declarer & 1
        self.made_at(i + 1)
        self.made_at(i)
        if card_mark(self.made[i], self.made[i + 1], team == decl, False) == "??":
            self.marks[i] = "??"
            return
        t = self.threshold
        while True:  # does best − value reach the threshold? (team's points; best before, value after the card)
            bmin, bmax = before.team_range(team)
            vmin, vmax = after.team_range(team)
            if bmin - vmax >= t or bmax - vmin < t:
                break
            # narrow the position before against the one after, then the one after against it
            self.prover.decide(before, lambda p: (p[team] - vmax >= t) - (p[team] - vmin < t))
            bmin, bmax = before.team_range(team)
            if bmin - vmax >= t or bmax - vmin < t:
                break
            self.prover.decide(after, lambda p: (bmin - p[team] >= t) - (bmax - p[team] < t))
        self.marks[i] = card_mark(self.made[i], self.made[i + 1], team == decl, bmin - vmax >= t)
        self.show()

    def exact_card(self, i: int) -> None:
        """Phase 4 for card ``i`` (the position after it exact): solve the position before it by bisection and
        write the exact entry (as `entry.card_entry` would)."""
        step, state, card = self.todo[i]
        before, after = self.positions[i], self.positions[i + 1]
        best_ids = self.prover.best_cards(before)
        pair_b, pair_a = before.exact, self.prover.solve_exact(after)
        team = state.to_act & 1
        decl = state.declarer & 1
        best, value = pair_b[team], pair_a[team]
        made_b, made_a = self.made_at(i), self.made_at(i + 1)  # known from the marks phase
        mark = card_mark(made_b, made_a, team == decl, best - value >= self.threshold)
        self.entries[i] = {"step": step, "trick": len(state.tricks) + 1, "seat": SEATS[state.to_act],
                           "card": self.rules.card_name(card), "best": best, "value": value, "loss": best - value,
                           "mark": mark, "best_cards": [self.rules.card_name(Card.from_id(c)) for c in best_ids]}
        self.marks[i] = mark
        self.show(force=True)


def analyze_hand_budget(record: HandRecord, question_threshold: int = 10, solver: Solver | None = None,
                        first_trick: int = 1, progress: Callable[[int, int, list[dict[str, Any]]], None] | None = None,
                        budget: float = 60.0,
                        on_report: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The ``analyze`` report of one hand record within about ``budget`` seconds (module doc).

    Args: ``record`` a hand record; ``question_threshold`` points (int ≥ 1) a card must lose for ``?``;
    ``solver`` the `Solver` to search with (default a new one; its deadline is set for the run and removed after);
    ``first_trick`` (1-based) the first trick whose cards are analysed; ``progress(done, total, cards)`` called as
    marks are proven and values refined (``cards``: the entries whose mark is proven, in step order; ``done``
    their number), at most every 0.2 s, after each card made exact and once after the first position's bid
    question (possibly before any card's mark: ``done`` 0, ``cards`` empty) — an exception it raises stops the
    analysis and propagates; ``budget`` wall-clock seconds (> 0) for the whole hand, after which the report says what is
    proven; ``on_report(report)`` called at the same moments, after ``progress``, with the report of what is
    proven so far (every card's entry, ``start`` / ``start_range``: the proven facts refined in place) — an
    exception it raises stops the analysis and propagates. Returns the report (module doc). Raises ValueError for a bad threshold, first trick or budget,
    `dd.SearchCancelled` if the solver is cancelled from another thread.
    """
    check_threshold(question_threshold)
    if not budget > 0:
        raise ValueError(f"the budget must be a positive number of seconds, not {budget!r}")
    solver = solver or Solver()
    hand = _Hand(record, solver, first_trick, question_threshold, progress, on_report)
    end = time.monotonic() + budget
    solver.set_deadline(budget * FIRST_SHARE)
    try:
        try:
            hand.first_question()
        except SearchTimeout:
            pass
        solver.set_deadline(max(end - time.monotonic(), 0.0))
        i = hand.exact_tail()
        for j in range(i, -1, -1):
            hand.mark(j)
        hand.show(force=True)
        if hand.todo:
            while hand.prover.refine(hand.positions[0]):
                pass
        for j in range(i, -1, -1):
            hand.exact_card(j)
    except SearchTimeout:
        pass
    finally:
        solver.set_deadline(None)
    return hand.report()
