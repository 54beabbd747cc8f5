"""Proven facts about double-dummy values without exact solves: null-window tests at chosen thresholds.

The exact solver (`rookcore.analysis.dd`) finds a position's value by MTD(f): a series of null-window tests
("is the value at least t?") that ends when the value is known. Most questions a learner asks need far fewer of
those tests: "can the declaring side still make its bid?" is one test at the bid; "did this card lose 10 points or
more?" is one or two tests at that threshold; "between which values does the position lie?" gets narrower with every
test. This module asks exactly those tests of the same `Solver` (the same compiled core, the same transposition
table, so every test makes the later ones and the exact values cheaper) and keeps what each one proves.

Scale. Values are on the solver's scalar scale (`DDResult.value`): N–S final points minus E–W final points, or,
under the Partnership tie-break (a majority bonus and an even number of tricks: 7–7 pays no bonus), 32 × that plus
the trick difference (N–S − E–W). N–S maximise it, E–W minimise it: best play is the solver's best play, so a proven
range always contains the exact value the solver reports. The final outcomes a rule set can reach (`outcomes`) are
disjoint intervals of that scale, one per (N–S points, E–W points) pair (per tie-break class in Partnership); a
position's proven bracket [lo, hi] leaves the outcomes that meet it possible (`Position.possible`), and a question
about the outcome (a predicate of the (NS, EW) pair: the bid made, a team's points) is decided once every possible
outcome gives the same answer (`Prover.decide`), by tests at thresholds between outcomes where the answer changes.

A test at the root (`Prover.test`): the seat to act maximises (N–S) or minimises (E–W) over its cards, so each card
gets a null-window search ("after this card, is the value ≥ t?", fail-soft, so its result is a bound past t),
skipping the cards whose bounds already answer and stopping at the first card that settles the root. The bounds of
each card's position after it are kept (`Position.children`); the analysis links a card's child to the `Position`
after it (`Position.link`), so a test at one position narrows its neighbours too (a root is at least (N–S) or at
most (E–W) each child; each child at most / at least the root).

With ``Solver.threads`` > 1 and enough tricks left the root's cards are shared out between threads as `Solver.solve`
does (a card started before another settled the root finishes its search; its bound is kept).

The bid question is the two-outcome game (`Prover.reaches`, `bid_question`): can the declaring team reach its bid
against best defence, the declaring team maximising its own final captured points (nest and majority bonus by the
rule set's rules, Partnership's 7–7 split paying no bonus) and the defenders minimising them — what a learner asks.
Where the teams' final points always add up to the same total (every rule set but Partnership) that is the same
question as "is the declaring team's share of the points objective's outcome at least the bid", one null-window
test on the solver's scale (and so it is asked there, sharing the brackets and table entries of the other
questions). Under the Partnership tie rule it is not (a line that pays the declaring team the bonus can be worse
for it on own − other points), so it is one null-window test at the bid of the compiled core's second objective
(the declaring team's own points, `ddcore.set_objective`; its table entries are kept apart from the points
objective's by their key). Marks follow it: ``??`` is a card that changes this answer.
"""
from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from ..hand import HandState, Phase
from ..rules import Rules
from .dd import Solver, _tie_class

__all__ = ["Outcome", "outcomes", "Position", "Prover", "bid_threshold_key", "bid_question", "highest_bid_key",
           "judge_auction", "done_value", "two_outcome_apart"]


@dataclass(frozen=True)
class Outcome:
    """One final outcome of a hand on the solver's scale.

    lo, hi: the scalar values (`DDResult.value` scale, inclusive) that end in this outcome: a single value, or under
      the Partnership tie-break the 15 values of one sign of the trick difference;
    pair: (N–S, E–W) final captured points (nest and majority bonus included).
    """

    lo: int
    hi: int
    pair: tuple[int, int]


def tiebreak(rules: Rules) -> bool:
    """Whether ``rules`` use the solver's Partnership tie-break (a majority bonus and an even number of tricks)."""
    return bool(rules.majority_bonus) and rules.hand_size % 2 == 0


def two_outcome_apart(rules: Rules) -> bool:
    """Whether the bid question's two-outcome game (`Prover.reaches`) is searched apart from the points objective
    under ``rules``: under the Partnership tie rule (`tiebreak`), where the teams' final points do not add up to a
    constant. Elsewhere the declaring team's points are a monotone function of the solver's value."""
    return tiebreak(rules)


@functools.lru_cache(maxsize=64)
def outcomes(rules: Rules) -> tuple[Outcome, ...]:
    """Every final outcome a hand of ``rules`` can reach, as disjoint `Outcome` intervals in increasing order (a
    superset: any (NS, EW) split of the points on the grid of the cards' points (their greatest common divisor) is
    listed, reachable or not, which only widens ranges, never makes them wrong).

    Without the tie-break the two teams' points add up to the same total in every line (counters, plus the majority
    bonus when it is always paid: an odd number of tricks), so the value is NS − EW. Under it (Partnership) a 7–7
    split pays no bonus: value 32 × (NS − EW) + trick difference, one interval per sign of the difference."""
    step = 0
    for p in list(rules.card_points.values()) + [rules.majority_bonus]:
        step = math.gcd(step, p)
    step = step or 1
    counters = rules.counter_total
    out: list[Outcome] = []
    if not tiebreak(rules):
        total = counters + rules.majority_bonus
        for ns in range(0, total + 1, step):
            v = 2 * ns - total
            out.append(Outcome(v, v, (ns, total - ns)))
    else:
        for ns in range(0, counters + 1, step):  # an equal split of the tricks: no bonus
            v = 2 * ns - counters
            out.append(Outcome(32 * v, 32 * v, (ns, counters - ns)))
        total = counters + rules.majority_bonus
        for ns in range(0, total + 1, step):
            v = 2 * ns - total
            out.append(Outcome(32 * v + 1, 32 * v + 15, (ns, total - ns)))
            out.append(Outcome(32 * v - 15, 32 * v - 1, (ns, total - ns)))
    out.sort(key=lambda o: o.lo)
    for a, b in zip(out, out[1:]):
        if a.hi >= b.lo:  # pragma: no cover - a rule set whose outcomes overlap would need another scale
            raise ValueError(f"outcomes overlap on the solver's scale: {a} and {b}")
    return tuple(out)


def done_value(state: HandState) -> int:
    """The scalar value (`DDResult.value` scale) of a finished hand ``state`` (phase DONE)."""
    ns, ew = state.captured
    if tiebreak(state.rules):
        return 32 * (ns - ew) + _tie_class(state.tricks_won[0] - state.tricks_won[1])[1]
    return ns - ew


def bid_threshold_key(state: HandState) -> Callable[[tuple[int, int]], bool]:
    """The bid question as a predicate of a final (NS, EW) outcome: the declaring team's final captured points
    (nest and majority bonus included) reach the bid (rules: a bid is made when the declaring team captures at least
    its amount). Raises ValueError for a position without a declarer (passed out, or before the auction ended)."""
    if state.declarer is None or state.high_bid is None:
        raise ValueError("the bid question needs a declarer and a bid")
    team, bid = state.declarer & 1, state.high_bid
    return lambda pair: pair[team] >= bid


class Position:
    """What is proven about the double-dummy value of one play-phase position (or a finished hand).

    ``lo``/``hi``: the proven bracket of its value (solver's scale, inclusive); ``children``: for each representative
    card of the seat to act (`dd`'s equivalent cards share one), the proven bracket of the value after it, unless
    the card is linked (`link`) to the `Position` after it, whose bracket then serves. A finished hand is exact at
    once. ``state`` is kept (not copied): do not change it.
    """

    def __init__(self, state: HandState):
        self.state = state
        self.rules = state.rules
        self.outs = outcomes(state.rules)
        self.lo, self.hi = self.outs[0].lo, self.outs[-1].hi
        self.children: dict[int, list[int]] = {}
        self.links: dict[int, "Position"] = {}
        self.done = state.phase is Phase.DONE
        # the two-outcome game (`Prover.reaches`, Partnership only): proven bracket of the declaring team's final
        # points when it maximises them and the defenders minimise them
        self.decl = [0, state.rules.counter_total + state.rules.majority_bonus]
        if self.done:
            self.lo = self.hi = done_value(state)
            if state.declarer is not None:
                self.decl = [state.captured[state.declarer & 1]] * 2
        elif state.phase is not Phase.PLAY:
            raise ValueError(f"a double-dummy position needs the play phase, not {state.phase.value}")
        self.maximise = not self.done and state.to_act % 2 == 0

    def link(self, card: int, after: "Position") -> None:
        """Use ``after`` (the `Position` after ``card``, a legal card id) as that card's child bracket, both ways."""
        self.links[int(card)] = after
        self.sync()

    def possible(self, lo: int | None = None, hi: int | None = None) -> list[Outcome]:
        """The outcomes that meet [lo, hi] (default: this position's bracket), in increasing order."""
        lo = self.lo if lo is None else lo
        hi = self.hi if hi is None else hi
        return [o for o in self.outs if o.hi >= lo and o.lo <= hi]

    @property
    def exact(self) -> tuple[int, int] | None:
        """The (NS, EW) final points with best play once only one outcome is possible, else None."""
        outs = self.possible()
        return outs[0].pair if len(outs) == 1 else None

    def team_range(self, team: int) -> tuple[int, int]:
        """(fewest, most) final points of team 0 (N–S) or 1 (E–W) over the possible outcomes (proven)."""
        pts = [o.pair[team] for o in self.possible()]
        return min(pts), max(pts)

    def fix(self, value: int) -> None:
        """Narrow the bracket to the outcome holding ``value``, a value found exactly by the solver
        (`DDResult.value`: under the tie-break a class's representative, which stands for the whole class)."""
        o = next(o for o in self.outs if o.lo <= value <= o.hi)
        self.tighten(o.lo, o.hi)

    def tighten(self, lo: int, hi: int) -> None:
        """Narrow the bracket to its intersection with [lo, hi] (proven elsewhere). Raises AssertionError if they
        do not meet (a bug: two proofs disagree)."""
        self.lo, self.hi = max(self.lo, lo), min(self.hi, hi)
        assert self.lo <= self.hi, "proven brackets of one position disagree"

    def child(self, c: int) -> tuple[int, int]:
        """The proven bracket of the value after representative card ``c``: its own bounds, or its linked position's,
        within what the root's bracket proves of every child (a maximising root is at least each child, so no child
        is above the root's upper end; a minimising root: no child below its lower end)."""
        after = self.links.get(c)
        lo, hi = (after.lo, after.hi) if after is not None else tuple(self.children.get(c, (self.outs[0].lo,
                                                                                          self.outs[-1].hi)))
        if self.maximise:
            hi = min(hi, self.hi)
        else:
            lo = max(lo, self.lo)
        return lo, hi

    def set_child(self, c: int, lo: int, hi: int) -> None:
        """Record a proven bracket of the value after representative card ``c`` (intersected with what is known)."""
        after = self.links.get(c)
        if after is not None:
            after.tighten(lo, hi)
        else:
            old = self.children.get(c, [self.outs[0].lo, self.outs[-1].hi])
            self.children[c] = [max(old[0], lo), min(old[1], hi)]

    def sync(self, reps: list[int] | None = None) -> None:
        """Carry what is proven between this position and its children: a linked child is within the root's
        bound (`child`), and with every representative's bracket known (``reps``) the root is within the max / min
        of its children's brackets."""
        for c, after in self.links.items():
            lo, hi = self.child(c)
            after.tighten(lo, hi)
            if self.maximise:
                self.tighten(after.lo, self.hi)
            else:
                self.tighten(self.lo, after.hi)
        if reps:
            kids = [self.child(c) for c in reps]
            if self.maximise:
                self.tighten(max(k[0] for k in kids), max(k[1] for k in kids))
            else:
                self.tighten(min(k[0] for k in kids), min(k[1] for k in kids))


class Prover:
    """Null-window tests on positions, with one `Solver` (its compiled core and transposition table) for all.

    ``solver``: the solver to search with (default: a new `Solver()`); ``on_test``: called with no arguments after
    every test (a progress hook: the brackets have just narrowed). ``tests`` counts the root tests made.
    Searches raise what the solver raises: `dd.SearchTimeout` after its deadline (`Solver.set_deadline`),
    `dd.SearchCancelled` once cancelled, `dd.SearchLimit` past its node limit; the brackets then keep what the
    finished tests proved.
    """

    def __init__(self, solver: Solver | None = None, on_test: Callable[[], None] | None = None):
        self.solver = solver or Solver()
        self.on_test = on_test
        self.tests = 0

    def _search_cards(self, root, cards: list[int], rem: int) -> dict[int, int | None]:
        """One null-window search at ``rem`` (remainder scale: the threshold less ``root.sofar``) of each of
        ``cards`` (legal cards of ``root``, a `dd._Root`, in the order to try), shared between the solver's threads
        (`_Root._each`), stopping at the first card that settles the root (at least ``rem`` for the maximising
        side, below it for the other). Adds the nodes searched to the solver's count. Returns {card: fail-soft
        remainder value after it, or None: not searched}; raises what the solver raises."""
        maxi = root.maximise
        settled = threading.Event()

        def value(c: int, child, _local: dict) -> int | None:
            if settled.is_set():
                return None
            if root.stopped:
                raise root.stop_error()
            g = child(c, rem - 1, rem)
            if (g >= rem) == maxi:
                settled.set()
            return g

        if not cards:
            return {}
        n0 = root.eng.node_count()
        try:
            return root._each(cards, value)
        finally:
            self.solver.nodes += root.eng.node_count() - n0

    def test(self, pos: Position, t: int) -> bool:
        """Is the value of ``pos`` (best play, solver's scale) at least ``t``? Decided by one null-window search per
        card of the seat to act at most (cards whose bracket already answers are not searched; the search stops at
        the first card that settles it). Narrows ``pos``'s bracket and its children's. A finished hand: compared."""
        if pos.lo >= t:
            return True
        if pos.hi < t:
            return False
        root = self.solver._root(pos.state)
        reps = list(root.reps)
        for c in list(pos.links):  # a linked card that is not a representative stands for its run's representative
            r = root.runs.get(c)
            if r is not None and r not in pos.links:
                pos.links[r] = pos.links[c]
        sofar, maxi = root.sofar, pos.maximise
        rem = t - sofar
        # cards whose bracket does not already answer; first those proven best so far (the card played, linked,
        # is often best), the others in the solver's representative order
        todo = [c for c in reps if (pos.child(c)[1] >= t if maxi else pos.child(c)[0] < t)]
        todo.sort(key=lambda c: -pos.child(c)[0] if maxi else pos.child(c)[1])
        if any((pos.child(c)[0] >= t) if maxi else (pos.child(c)[1] < t) for c in reps):
            todo = []  # a card's bracket already settles it
        found = self._search_cards(root, todo, rem)
        top, bottom = pos.outs[-1].hi, pos.outs[0].lo
        for c, g in found.items():
            if g is None:
                continue
            g = min(max(g + sofar, bottom), top)  # a fail-soft bound past every outcome says no more than the last
            if g >= t:
                pos.set_child(c, g, pos.outs[-1].hi)
            else:
                pos.set_child(c, pos.outs[0].lo, g)
        pos.sync(reps)
        self.tests += 1
        if pos.lo < t <= pos.hi:  # pragma: no cover - every test settles its threshold
            raise AssertionError(f"a null-window test at {t} left the bracket [{pos.lo}, {pos.hi}] open")
        if self.on_test is not None:
            self.on_test()
        return pos.lo >= t

    def test_child(self, pos: Position, card: int, t: int) -> bool:
        """Is the value after the legal ``card`` (best play after it) at least ``t``? One null-window search of
        that card alone (its representative's); narrows its bracket."""
        root = self.solver._root(pos.state)
        c = root.runs.get(int(card), int(card))
        lo, hi = pos.child(c)
        if lo >= t or hi < t:
            return lo >= t
        n0 = root.eng.node_count()
        try:
            g = root.child(c, t - 1 - root.sofar, t - root.sofar) + root.sofar
            g = min(max(g, pos.outs[0].lo), pos.outs[-1].hi)
        finally:
            self.solver.nodes += root.eng.node_count() - n0
        if g >= t:
            pos.set_child(c, g, pos.outs[-1].hi)
        else:
            pos.set_child(c, pos.outs[0].lo, g)
        pos.sync()
        self.tests += 1
        if self.on_test is not None:
            self.on_test()
        return g >= t

    def reaches(self, pos: Position, bid: int) -> bool:
        """The two-outcome game (module doc): can the declaring team reach ``bid`` points (its final captured
        points, nest and majority bonus included) against best defence from ``pos``, the declaring team maximising
        its own points and the defenders minimising them? Where the teams' points add up to a constant total this
        is `decide` on the solver's scale (one test, shared brackets); under the Partnership tie rule one
        null-window test at ``bid`` of the declaring team's points objective (one search per card of the seat to
        act at most, stopping at the first card that settles it), which narrows ``pos.decl`` (the game's proven
        bracket of the declaring team's points) for later thresholds. A finished hand: compared. Raises ValueError
        without a declarer, and what the solver raises (`dd.SearchTimeout` after its deadline, ...)."""
        state = pos.state
        if state.declarer is None:
            raise ValueError("the bid question needs a declarer and a bid")
        team = state.declarer & 1
        if pos.done:
            return state.captured[team] >= bid
        if not two_outcome_apart(pos.rules):
            return self.decide(pos, lambda pair: pair[team] >= bid)
        if pos.decl[0] >= bid:
            return True
        if pos.decl[1] < bid:
            return False
        root = self.solver._root(state, 1 + team)
        # N–S view of the core: N–S's points (N–S declaring) or minus E–W's; reaching the bid is v ≥ t
        t = bid if team == 0 else 1 - bid
        sofar, maxi = root.sofar, root.maximise
        found = self._search_cards(root, list(root.reps), t - sofar)
        gs = [g + sofar for g in found.values() if g is not None]
        if maxi:  # the root is at least its best child: above t if one is, else at most the best bound
            hit = [g for g in gs if g >= t]
            v_lo, v_hi = (max(hit), None) if hit else (None, max(gs))
        else:
            hit = [g for g in gs if g < t]
            v_lo, v_hi = (None, min(hit)) if hit else (min(gs), None)
        if team == 1:  # back to E–W's points: -v
            v_lo, v_hi = (None if v_hi is None else -v_hi), (None if v_lo is None else -v_lo)
        if v_lo is not None:
            pos.decl[0] = max(pos.decl[0], min(v_lo, pos.decl[1]))
        if v_hi is not None:
            pos.decl[1] = min(pos.decl[1], max(v_hi, pos.decl[0]))
        self.tests += 1
        made = pos.decl[0] >= bid
        if not made and pos.decl[1] >= bid:  # pragma: no cover - every test settles its threshold
            raise AssertionError(f"a null-window test at {bid} left the bracket {pos.decl} open")
        if self.on_test is not None:
            self.on_test()
        return made

    def decide(self, pos: Position, key: Callable[[tuple[int, int]], Hashable]) -> Hashable:
        """The value of ``key`` (a function of the final (NS, EW) pair) at ``pos`` with best play: narrows the
        bracket by tests at thresholds between possible outcomes where ``key`` changes (the change nearest the middle
        of the possible outcomes first) until every possible outcome gives the same ``key``. A monotone question
        (the bid, without the Partnership tie-break) takes one test."""
        while True:
            outs = pos.possible()
            keys = [key(o.pair) for o in outs]
            changes = [i for i in range(1, len(outs)) if keys[i] != keys[i - 1]]
            if not changes:
                return keys[0]
            mid = len(outs) / 2
            i = min(changes, key=lambda i: abs(i - mid))
            self.test(pos, outs[i].lo)

    def refine(self, pos: Position) -> bool:
        """One bisection test over the possible outcomes of ``pos`` (the threshold splitting them in halves);
        False (no test) if only one outcome is left."""
        outs = pos.possible()
        if len(outs) <= 1:
            return False
        self.test(pos, outs[len(outs) // 2].lo)
        return True

    def solve_exact(self, pos: Position) -> tuple[int, int]:
        """The exact (NS, EW) of ``pos`` by bisection (`refine` until one outcome is left)."""
        while self.refine(pos):
            pass
        return pos.exact

    def best_cards(self, pos: Position) -> list[int]:
        """The legal card ids of the seat to act that achieve the best outcome (``pos`` solved exactly first):
        each card's bracket decides it, else one null-window test of that card at the best outcome's edge."""
        best = self.solve_exact(pos)
        target = next(o for o in pos.possible() if o.pair == best)
        root = self.solver._root(pos.state)
        out = []
        for c in root.reps:
            # the root bounds each child from one side, so reaching the best outcome's edge means reaching it
            if pos.maximise:
                ok = self.test_child(pos, c, target.lo)
            else:
                ok = not self.test_child(pos, c, target.hi + 1)
            if ok:
                out.append(c)
        cards = set(out)
        legal = [int(c) for c in pos.state.legal_cards()]
        return sorted(c for c in legal if root.runs.get(c, c) in cards)


def bid_question(state: HandState, solver: Solver | None = None) -> bool:
    """Can the declaring team reach its bid against best defence from ``state`` (a play-phase position, possibly
    mid-trick, or a finished hand)? The two-outcome game (module doc, `Prover.reaches`): the declaring team
    maximises its own final captured points (nest and majority bonus included, Partnership's 7–7 split paying no
    bonus), the defenders minimise them, and the bid is reached when those points are at least the bid. One
    null-window test at the bid (one search per card of the seat to act at most). ``solver``: the `Solver` to
    search with (its table is kept for later questions). Raises ValueError outside the play phase or without a
    declarer, and what the solver raises (`dd.SearchTimeout` after its deadline, ...)."""
    bid_threshold_key(state)  # a declarer and a bid, else ValueError
    return Prover(solver).reaches(Position(state), state.high_bid)


def highest_bid_key(state: HandState) -> Callable[[tuple[int, int]], int | None]:
    """The highest bid the declaring team would have made, as a function of a final (NS, EW) outcome: the largest
    bid of the rule set's range (``bid_min`` … ``bid_max`` in steps of ``bid_step``) not above the declaring
    team's final points, or None when even ``bid_min`` is above them. Raises ValueError without a declarer."""
    if state.declarer is None:
        raise ValueError("the auction question needs a declarer")
    team, rules = state.declarer & 1, state.rules
    bids = list(range(rules.bid_min, rules.bid_max + 1, rules.bid_step))

    def key(pair: tuple[int, int]) -> int | None:
        made = [b for b in bids if b <= pair[team]]
        return made[-1] if made else None

    return key


def judge_auction(state: HandState, solver: Solver | None = None) -> dict[str, Any]:
    """The auction judged double dummy from the first lead ``state`` (the declarer's nest and trump as chosen):
    ``{"bid": points, "team": 0 | 1 (N–S | E–W), "makeable": bool, "highest_makeable": points | None}`` —
    whether the declaring team reaches its final bid against best defence (`bid_question`: the two-outcome game),
    and the highest bid of the rule set's range it reaches so (None: not even the lowest bid), found by bisection
    over the bids (reaching a bid is monotone in the bid). Null-window tests at bid thresholds only, on one
    `Solver` (``solver``, default new). Raises ValueError without a declarer or outside the play phase, and what
    the solver raises (`dd.SearchTimeout` after its deadline, ...)."""
    bid_threshold_key(state)  # a declarer and a bid, else ValueError
    prover = Prover(solver)
    pos = Position(state)
    made = prover.reaches(pos, state.high_bid)
    rules = state.rules
    bids = list(range(rules.bid_min, rules.bid_max + 1, rules.bid_step))
    lo, hi = 0, len(bids)  # bids[:lo] reached, bids[hi:] not
    for i, b in enumerate(bids):
        if b == state.high_bid:
            lo, hi = (i + 1, hi) if made else (lo, i)
    while lo < hi:
        mid = (lo + hi) // 2
        if prover.reaches(pos, bids[mid]):
            lo = mid + 1
        else:
            hi = mid
    return {"bid": state.high_bid, "team": state.declarer & 1, "makeable": made,
            "highest_makeable": bids[lo - 1] if lo else None}
