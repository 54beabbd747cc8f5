"""Exact double-dummy solver for the play phase (all four hands known), every rule set.

Value and "best play"
---------------------
A position is scored by the final captured points of each team: counters in the tricks still to be won, plus what
is already captured (``state.captured``), plus the nest's counters to the team of the last trick, plus
``rules.majority_bonus`` to the team with more tricks in the whole hand (none on an equal split). Best play is the
minimax of ``v = NS_final − EW_final``: N–S maximise it, E–W minimise it. Without a majority bonus this is "each side
maximises its own points" (the total is constant); with a bonus it is the zero-sum game on own − other.

Tie-break (only where a trick split can be equal: a majority bonus with an even number of tricks, i.e. Partnership,
7–7): two lines with the same ``v`` can end in different team totals (100 on a 7–7 split, 120 otherwise). To make the
reported (NS, EW) pair well defined, each side then prefers, among lines of equal ``v``, the one with the better
trick difference for itself (lexicographic ``(v, tricks_NS − tricks_EW)``, still zero-sum). Elsewhere the pair is a
function of ``v`` alone. The reported pair depends only on ``v`` and the sign of the trick difference, so the root's
null-window tests stop once they know those two (`_Root.mtdf`); inside the search the order stays lexicographic.

Technique
---------
* Hands are 64-bit masks over card ids; per (rules, trump) tables give each card's effective suit, trick key and points.
* Alpha-beta (fail-soft) driven by MTD(f) null-window searches (with a growing step after repeated moves one way).
* Transposition table at trick boundaries only. It stores bounds on the value of the *remainder* (points from here
  on), so the points already taken are not part of the key and one table serves every position of a deal. Compiled
  core: partition search (`ddcore` module doc): an entry keeps explicit only the ranks that decided tricks in the
  search that proved it (per suit, the cards down to the lowest such card); below that, only each hand's count of
  cards of each class (points and privilege) is part of the entry, so one entry serves every position that agrees on
  the rest. The table is a fixed array of ``tt_limit`` slots of 34 bytes (entry and tag; by default 2¹⁸ slots up to
  9 tricks, 2²¹ for 10–12 and 2²² from 13: `default_tt_limit`), the entries of one rank-free key in one bucket of
  64 slots. Python core: the key is the exact hands.
  With a majority bonus the trick difference so far is part of the key (normalised once the bonus is decided).
* Equivalent cards: cards of one hand, adjacent in rank in their effective suit among the cards still in play (hands
  and the current trick), with the same points and privilege, are interchangeable: only one is searched.
* Lowest relevant rank (compiled core, `ddcore._same_below`; DDS's "lowest winning rank" with point classes): once
  a card is searched, the other cards of the same hand, effective suit and class that lie, as it does, below the
  lowest card of the suit whose rank decided its line are not searched: each only swaps places with it inside one
  partition of that line's proof (the table's argument), so its value is the same bound; also in the two-trick
  search. Node counts, one thread, every first lead valued: Buckeye seeds 0–19 104.0 M → 84.8 M, Tournament seeds
  0–29 35.0 → 28.3 M, CrowsNest and Red 1 −16 to −17 %, Dixie deals −23 to −32 %; values unchanged (700 endgames
  of every rule set against the Python core).
* Killers (compiled core): the last card of each ply (the same trick and seat position) that cut off a node where
  it was not the first card tried goes first, at leads (even before the table's best card) and at the third seat;
  elsewhere the ordering below does better (killers at the second and fourth seats cost nodes). Node counts, one
  thread, every first lead valued: Buckeye seeds 0–19 131.8 M → 103.8 M, Tournament, CrowsNest, Red 1 seeds 0–29
  −11 to −16 %.
* Move ordering, by which side surely wins the trick: leading, the table's best card first, then side-suit masters,
  the top trump, leads to partner's master, other leads partner surely wins (e.g. by ruffing), low cards, and last
  the leads an opponent can ruff (void in the suit, holding a trump); following, cards that win the trick for sure
  first (beating every card still to come, or covering partner's beatable card) with the most points, then the
  cheapest card that wins for now, else the lowest card; when the trick is surely ours (partner's card cannot be
  beaten, or partner plays last and can beat every card), points first.
* Threads: with at least `PARALLEL_MIN_TRICKS` tricks left, `Solver.solve` and `Solver.analyze` share the root's
  legal cards out between ``Solver.threads`` searches (each takes the next card not yet started) that share the
  transposition table without locks (`ddcore`'s module doc: a slot torn by a concurrent write reads as empty).
* Two tricks left: no table, no ordering; plain alpha-beta over the next trick's (at most 16) lines, then the last
  trick (`ddcore._two_tricks`; ~7–11 % faster than the general search there). The node counter counts those lines.
* Static bound: the remainder is at most the points still out (hands + nest + undecided bonus), less the points of
  the other team's top trumps (a trump that only its own team's trumps can beat always goes to that team) and,
  compiled core, the nest when the other team holds trumps and this one none (each of its players can keep a trump
  to the last trick: one is played only by choice, or when a hand of two or more cards holds nothing else, or
  under partner's trump lead, whose leader keeps another). With counters in the nest: −9 % nodes on 40
  Tournament deals, −3 % on Buckeye.

Two search cores implement this: the compiled one in `rookcore.analysis.ddcore` (numba; the default,
``BACKEND = "numba"``) and the pure-Python closures of `_Engine` (``BACKEND = "python"``, kept as a second,
independent implementation that the tests compare against). numba compiles the core on first use (about 15 s once
after installing, then ~1 s to load from its cache per process; `warm_up` does it ahead of time).

Speed (compiled core, first lead of seeded deals, every card valued, ``python benchmarks/compare.py``; see
benchmarks/README.md; the run of 2026-12-02, where DDS took 22.1 ms a bridge deal): with two threads on two
cores, 9-trick rule sets take a median of 18–22 ms per full deal (wall), p99 0.17–0.4 s; one thread takes 1.8–1.9× as
long (~10–12 million nodes/s); 10 tricks median ~0.18 s, p99 ~3.2 s, the odd deal over 10 s; 13/14-trick deals
4–5 s (the median of those solved inside 30 s) or more. Endgames (≤ 6 tricks) take milliseconds.

Public API: `solve(state)` → `DDResult`; `Solver` keeps its table between calls (use one per deal for speed);
`Solver.analyze(state, card, after)` gives the best value, the best cards and one card's value without valuing every
card (with ``after``, the result after the card, that card is not searched at all);
`Solver.cancel()` stops a search running in another thread (`SearchCancelled`); `Solver.set_deadline(seconds)`
stops every search after that long (`SearchTimeout`) until the next call, for analyses within a time budget
(`rookcore.analysis.budget`; null-window tests at chosen thresholds on this solver: `rookcore.analysis.bounds`).
The compiled core also searches a second objective, the declaring team's own final points (`Solver._root`'s
``objective``, `ddcore.set_objective`): the bid question's two-outcome game under Partnership's tie rule
(`bounds.Prover.reaches`); its table entries carry the objective in their key, apart from the points objective's.
"""
from __future__ import annotations

import itertools
import threading
import weakref
from dataclasses import dataclass, field

from ..cards import Card
from ..hand import HandState, Phase, trick_tables
from ..rules import Rules

__all__ = ["DDResult", "SearchLimit", "SearchCancelled", "SearchTimeout", "Solver", "solve", "warm_up", "TT_LIMIT",
           "default_tt_limit"]

INF = 1 << 40
TT_LIMIT = 1 << 18
"""Default transposition-table size in entries up to 9 tricks. Compiled core: a fixed table of 34-byte slots (8.5 MB:
it fits the processor's last-level cache, and probes are what bounds the speed; a 4× table saves 0–7 % of nodes on
9-trick deals but costs more in cache misses). Python core: a dict cleared at this many entries (~150 bytes each),
whatever the hand's length."""
LONG_TT_LIMITS = ((13, 1 << 22), (10, 1 << 21))
"""(fewest tricks in a hand, table slots) for the longer hands: `default_tt_limit`."""


def default_tt_limit(rules: Rules) -> int:
    """Table slots of a `Solver` made without ``tt_limit``, for a hand of ``rules`` (int, slots of 34 bytes):
    `TT_LIMIT` (8.5 MB: it fits the processor's last-level cache) up to 9 tricks, 2²¹ (68 MB) for 10–12 tricks and
    2²² (136 MB) from 13 (`LONG_TT_LIMITS`). A larger table costs more per node (cache misses) but a long hand's hard
    searches overflow the small one. Measured: 10 tricks (200 Buckeye deals, 2²¹ vs 2¹⁸) p99 9.2 → 6.8 s, median
    358 → 395 ms (within this machine's noise); analysing the 14-trick partnership-made record 115 s → 48 s (2²²;
    2²¹: 56 s); 9 tricks: 2²⁰ was ~5 % slower than 2¹⁸. The Python core (``BACKEND = "python"``): `TT_LIMIT`."""
    if BACKEND == "numba":
        for tricks, slots in LONG_TT_LIMITS:
            if rules.hand_size >= tricks:
                return slots
    return TT_LIMIT


def _tie_class(total: int) -> tuple[int, int]:
    """(NS − EW points, sign −1/0/1 of the trick difference NS − EW) of a scalar on the tie-break's scale
    (32 × points + trick difference, the difference at most 15 either way): what decides the final (NS, EW)."""
    points = (total + 16) // 32
    d = total - 32 * points
    return points, (d > 0) - (d < 0)


class SearchLimit(RuntimeError):
    """Raised by `Solver.solve`/`Solver.analyze` when the search exceeds the solver's ``node_limit``."""


class SearchCancelled(SearchLimit):
    """Raised by `Solver.solve`/`Solver.analyze` of a solver that `Solver.cancel` stopped."""


class SearchTimeout(SearchLimit):
    """Raised by every search of a solver whose deadline passed (`Solver.set_deadline`): unlike `SearchCancelled`
    the solver can search again once `Solver.set_deadline` gives it a new deadline (or None)."""


@dataclass
class DDResult:
    """Result of `solve`: final captured points under best play, from the position solved.

    ns, ew: final captured points of N–S and E–W (nest and majority bonus included).
    card_values: for every legal card of the seat to act, the final (NS, EW) after playing it, best play after.
    best_cards: the legal cards that achieve the best final (NS, EW) for the seat to act (sorted by card id).
    to_act: the seat to act (0..3 = N E S W), None if the hand is over.
    value: the solver's scalar: NS − EW (points), or under the Partnership tie-break 32 × (NS − EW) plus the sign
      (−1, 0, 1) of the trick difference NS − EW (the only part of the difference that changes the result).
    """

    ns: int
    ew: int
    card_values: dict[Card, tuple[int, int]] = field(default_factory=dict)
    best_cards: list[Card] = field(default_factory=list)
    to_act: int | None = None
    value: int = 0

    def team_points(self, team: int) -> int:
        """Final points of team 0 (N–S) or 1 (E–W)."""
        return self.ew if team else self.ns


class _Engine:
    """Search tables and closures for one (rules, trump, nest points). Not thread-safe."""

    def __init__(self, rules: Rules, trump: str, nest_pts: int, tt_limit: int):
        tables = trick_tables(rules, trump)
        suit_of = list(tables.suit)
        tkey = [1000 + p if p else 0 for p in tables.trump_power]
        rkey = list(tables.rank_power)
        pts = [0] * 64
        for c, p in rules.card_points.items():
            pts[c] = p
        priv = 0
        suit_mask = [0, 0, 0, 0]
        for c in rules.deck:
            suit_mask[suit_of[c]] |= 1 << c
            if rules.has_privilege(c):
                priv |= 1 << c
        # class of a card for equivalence: same points and same privilege
        cls = [pts[c] * 2 + ((priv >> c) & 1) for c in range(64)]
        order = []
        for s in range(4):
            cards = [c for c in rules.deck if suit_of[c] == s]
            cards.sort(key=lambda c: -(tkey[c] or rkey[c]))
            order.append(tuple((c, 1 << c, cls[c]) for c in cards))
        bonus = rules.majority_bonus
        tiebreak = bool(bonus) and rules.hand_size % 2 == 0
        M = 32 if tiebreak else 1
        TB = 1 if tiebreak else 0
        NESTV = M * nest_pts
        BONUSV = M * bonus
        BIT = [1 << c for c in range(64)]
        OFF = INF  # table entries pack (lo + OFF, hi + OFF, best card + 1) into one int: 42 + 42 + 7 bits
        M42 = (1 << 42) - 1
        SUIT, TK, RK, PTS, SM, ORDER = suit_of, tkey, rkey, pts, suit_mask, order
        self.M, self.TB, self.tiebreak = M, TB, tiebreak
        self.nest_pts = nest_pts
        self.counter_total = rules.counter_total
        self.bonus = bonus
        self.tables = (SUIT, TK, RK, PTS)
        self.suit_mask = SM
        self.priv = priv
        TT: dict = {}
        self.tt = TT
        H = [0, 0, 0, 0]
        self.H = H
        # position state (trick boundary quantities): trick difference so far, tricks left, trick cards, points in hands
        dtr = 0
        nrem = 0
        tmask = 0
        rempts = 0
        nodes = 0
        RED = 0   # redundant (equivalent) cards of the current trick, computed at its lead

        def bits(m):
            out = []
            while m:
                b = m & -m
                out.append(b.bit_length() - 1)
                m ^= b
            return out

        def set_state(hands, trick_mask, d, n, rp):
            nonlocal dtr, nrem, tmask, rempts, RED
            H[:] = hands
            tmask, dtr, nrem, rempts = trick_mask, d, n, rp
            RED = scan()[0]

        self.set_state = set_state

        me = weakref.ref(self)  # not ``self``: a cycle engine ↔ closure would keep the table until a gc pass

        def node_count():
            eng = me()
            return nodes + (int(eng.nb[0][eng.nb_nodes]) if eng.nb is not None else 0)

        self.node_count = node_count

        def reps(legal):
            """Representatives of the legal cards (one per run of equivalent cards), in suit/rank order."""
            inplay = H[0] | H[1] | H[2] | H[3] | tmask
            out = []
            for s in 0, 1, 2, 3:
                left = legal & SM[s]
                if not left:
                    continue
                prev = -1
                for c, b, cl in ORDER[s]:
                    if b & left:
                        if cl != prev:
                            out.append(c)
                        prev = cl
                        left ^= b
                        if not left:
                            break
                    elif b & inplay:
                        prev = -1
            return out

        TRUMP = tables.trump
        TRM = SM[TRUMP]

        def scan():
            """One pass over the cards in play (trick boundary or root): the mask of redundant cards (equivalent
            to the next higher card of the same hand) and the points each team is sure to take (cards that only
            the same team's trumps can beat)."""
            h0, h1, h2, h3 = H
            inplay = h0 | h1 | h2 | h3 | tmask
            red = 0
            sure0 = sure1 = 0
            for s in 0, 1, 2, 3:
                if not inplay & SM[s]:
                    continue
                prev_h = 0
                prev_cl = -1
                top_team = -1   # team holding every card above (so far), -2 once broken
                for c, b, cl in ORDER[s]:
                    if not b & inplay:
                        continue
                    if b & h0:
                        hh, t = h0, 0
                    elif b & h1:
                        hh, t = h1, 1
                    elif b & h2:
                        hh, t = h2, 0
                    elif b & h3:
                        hh, t = h3, 1
                    else:
                        hh, t = 0, -3
                    if b & prev_h and cl == prev_cl:
                        red |= b
                    prev_h, prev_cl = hh, cl
                    if top_team == -1:
                        top_team = t
                    elif top_team != t:
                        top_team = -2
                    if top_team >= 0 and s == TRUMP:
                        # a trump beaten only by its own team's trumps: wherever it is played, that team wins it
                        if t:
                            sure1 += PTS[c]
                        else:
                            sure0 += PTS[c]
            return red, sure0, sure1

        def lead_order(seat, moves, bm):
            inplay = H[0] | H[1] | H[2] | H[3]
            partner = H[seat ^ 2]
            scored = []
            tops = {}
            for c in moves:
                s = SUIT[c]
                top = tops.get(s)
                if top is None:
                    top = -1
                    for t, b, _cl in ORDER[s]:
                        if b & inplay:
                            top = t
                            break
                    tops[s] = top
                if c == bm:
                    sc = 100000
                elif c == top:
                    sc = 10000 + PTS[c] * 10 + TK[c]
                elif BIT[top] & partner:
                    sc = 5000 - PTS[c] * 10 - RK[c]
                else:
                    sc = -PTS[c] * 100 - (TK[c] or RK[c])
                scored.append((sc, c))
            scored.sort(reverse=True)
            return [c for _sc, c in scored]

        def follow_order(seat, pos, led, ws, wk, moves):
            scored = []
            partner_wins = (ws & 1) == (seat & 1)
            for c in moves:
                k = TK[c] or (RK[c] if SUIT[c] == led else 0)
                p = PTS[c]
                if partner_wins:
                    if pos == 3:
                        sc = p * 100 - k
                    else:
                        sc = -p * 100 - k
                elif k > wk:
                    if pos == 3:
                        sc = 100000 + p * 100 - k
                    else:
                        sc = 100000 + k
                else:
                    sc = -p * 100 - k
                scored.append((sc, c))
            scored.sort(reverse=True)
            return [c for _sc, c in scored]

        def last_trick(seat):
            """Value of the last trick (each seat holds one card) plus nest and bonus."""
            best_s = seat
            c = H[seat].bit_length() - 1
            led = SUIT[c]
            wk = TK[c] or RK[c]
            tp = PTS[c]
            for i in 1, 2, 3:
                s = (seat + i) & 3
                c = H[s].bit_length() - 1
                k = TK[c] or (RK[c] if SUIT[c] == led else 0)
                tp += PTS[c]
                if k > wk:
                    wk, best_s = k, s
            if best_s & 1:
                v = -(tp * M + TB) - NESTV
                d = dtr - 1
            else:
                v = tp * M + TB + NESTV
                d = dtr + 1
            if bonus:
                if d > 0:
                    v += BONUSV
                elif d < 0:
                    v -= BONUSV
            return v

        def end_trick(ws, tp, alpha, beta):
            nonlocal dtr, nrem, tmask, rempts, RED
            if ws & 1:
                tv = -(tp * M + TB)
                sg = -1
            else:
                tv = tp * M + TB
                sg = 1
            saved = tmask
            saved_red = RED
            dtr += sg
            nrem -= 1
            tmask = 0
            rempts -= tp
            if nrem == 1:
                r = last_trick(ws)
            elif nrem == 0:
                r = -NESTV if ws & 1 else NESTV
                if bonus:
                    if dtr > 0:
                        r += BONUSV
                    elif dtr < 0:
                        r -= BONUSV
            else:
                r = lead(ws, alpha - tv, beta - tv)
            dtr -= sg
            nrem += 1
            tmask = saved
            RED = saved_red
            rempts += tp
            return tv + r

        def play(seat, pos, led, ws, wk, tp, alpha, beta):
            nonlocal nodes, tmask
            nodes += 1
            h = H[seat]
            f = h & SM[led]
            legal = (f | (h & priv)) if f else h
            moves = bits(legal & ~RED)
            if len(moves) > 1:
                moves = follow_order(seat, pos, led, ws, wk, moves)
            nxt = (seat + 1) & 3
            if seat & 1:
                best = INF
                for c in moves:
                    k = TK[c] or (RK[c] if SUIT[c] == led else 0)
                    b = BIT[c]
                    H[seat] = h ^ b
                    tmask ^= b
                    if pos == 3:
                        v = end_trick(seat if k > wk else ws, tp + PTS[c], alpha, beta)
                    elif k > wk:
                        v = play(nxt, pos + 1, led, seat, k, tp + PTS[c], alpha, beta)
                    else:
                        v = play(nxt, pos + 1, led, ws, wk, tp + PTS[c], alpha, beta)
                    tmask ^= b
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            else:
                best = -INF
                for c in moves:
                    k = TK[c] or (RK[c] if SUIT[c] == led else 0)
                    b = BIT[c]
                    H[seat] = h ^ b
                    tmask ^= b
                    if pos == 3:
                        v = end_trick(seat if k > wk else ws, tp + PTS[c], alpha, beta)
                    elif k > wk:
                        v = play(nxt, pos + 1, led, seat, k, tp + PTS[c], alpha, beta)
                    else:
                        v = play(nxt, pos + 1, led, ws, wk, tp + PTS[c], alpha, beta)
                    tmask ^= b
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
            H[seat] = h
            return best

        def lead(seat, alpha, beta):
            nonlocal nodes, tmask, RED
            nodes += 1
            h0, h1, h2, h3 = H
            key = h0 | (h1 << 64) | (h2 << 128) | (h3 << 192) | (seat << 256)
            if bonus:
                key |= ((dtr if -nrem <= dtr <= nrem else (99 if dtr > 0 else -99)) + 128) << 258
            e = TT.get(key)
            bm = -1
            if e is not None:
                lo = (e >> 49) - OFF
                hi = ((e >> 7) & M42) - OFF
                bm = (e & 127) - 1
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi = -INF, INF
            # static bound: the points still out, less those the other team is sure to take
            pout = rempts + nest_pts
            if not bonus:  # cheap check first (no scan)
                base = M * pout + TB * nrem
                if base <= alpha:
                    return base
                if -base >= beta:
                    return -base
            red, sure0, sure1 = scan()
            ub = M * (pout - 2 * sure1) + TB * nrem
            lb = M * (2 * sure0 - pout) - TB * nrem
            if bonus:
                if dtr > nrem:
                    ub += BONUSV
                    lb += BONUSV
                elif dtr < -nrem:
                    ub -= BONUSV
                    lb -= BONUSV
                else:
                    ub += BONUSV
                    lb -= BONUSV
            if ub <= alpha:
                return ub
            if lb >= beta:
                return lb
            RED = red
            a1, b1 = alpha, beta
            h = H[seat]
            moves = bits(h & ~red)
            if len(moves) > 1:
                moves = lead_order(seat, moves, bm)
            nxt = (seat + 1) & 3
            best_c = -1
            if seat & 1:
                best = INF
                for c in moves:
                    b = BIT[c]
                    H[seat] = h ^ b
                    tmask = b
                    v = play(nxt, 1, SUIT[c], seat, TK[c] or RK[c], PTS[c], alpha, beta)
                    if v < best:
                        best, best_c = v, c
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            else:
                best = -INF
                for c in moves:
                    b = BIT[c]
                    H[seat] = h ^ b
                    tmask = b
                    v = play(nxt, 1, SUIT[c], seat, TK[c] or RK[c], PTS[c], alpha, beta)
                    if v > best:
                        best, best_c = v, c
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
            H[seat] = h
            tmask = 0
            # bounds (fail-soft), relative to the window actually searched (a1, b1)
            if best >= b1:
                if best > lo:
                    lo = best
            elif best <= a1:
                if best < hi:
                    hi = best
            else:
                lo = hi = best
            if len(TT) >= tt_limit:
                TT.clear()
            TT[key] = ((lo + OFF) << 49) | ((hi + OFF) << 7) | (best_c + 1)
            return best

        self.play = play
        self.lead = lead
        self.nb = None
        if BACKEND == "numba":
            from .ddcore import NODES_  # noqa: PLC0415 - numba only with the compiled backend
            W, TT, self.to_core = _nb_arrays(rules, trump, tables, pts, cls, order, priv, suit_mask, M, TB, NESTV,
                                             BONUSV, bonus, tt_limit)
            self.nb = W, TT
            self.nb_nodes = NODES_
        self.end_trick = end_trick
        self.last_trick = last_trick
        self.reps = reps


def _nb_arrays(rules, trump, tables, pts, cls, order, priv, suit_mask, M, TB, NESTV, BONUSV, bonus, tt_limit):
    """The int64 arrays of the compiled core (`ddcore` module doc) for one engine, and the map of card ids to the
    core's ids (16·effective suit + rank order, highest first: a suit's cards are one 16-bit run of a mask). The
    per-(rules, trump) part is built once per process (`_CORE_TABLES`): sampling AIs make an engine per nest."""
    from .ddcore import GEN_, NESTV_, TTMASK_, set_objective  # noqa: PLC0415 - numba only with the compiled backend

    key = (rules, trump)
    if key not in _CORE_TABLES:
        if len(_CORE_TABLES) >= 64:
            _CORE_TABLES.clear()
        _CORE_TABLES[key] = _core_tables(rules, tables, pts, cls, order, priv, suit_mask, M, TB, BONUSV, bonus)
    template, to_core = _CORE_TABLES[key]
    W = template.copy()
    W[NESTV_] = NESTV
    set_objective(W, 0, M, TB, NESTV // M, BONUSV // M)
    W[GEN_] = next(_GENERATIONS)
    TT = _shared_table(tt_limit)
    W[TTMASK_] = len(TT) * 16 // 17 - 1  # entries (their tags follow them)
    return W, TT, to_core


_CORE_TABLES: dict = {}


def _core_tables(rules, tables, pts, cls, order, priv, suit_mask, M, TB, BONUSV, bonus):
    """(``W`` without nest points, generation and table size; map of card ids to core ids) for (rules, trump)."""
    import numpy as np  # noqa: PLC0415 - numpy and numba only with the compiled backend

    from .ddcore import CI, HAND_SIZE_, P0, ROOT_, W_SIZE, ZP_, ZS_  # noqa: PLC0415

    to_core = [-1] * 64
    for s in range(4):
        if len(order[s]) > 16:
            raise ValueError(f"the compiled core takes at most 16 cards a suit, not {len(order[s])}")
        for j, (c, _b, _cl) in enumerate(order[s]):
            to_core[c] = 16 * s + j
    W = np.zeros(W_SIZE, np.int64)
    T = W[:P0].reshape(6, 64)
    T[0] = -1
    classes = sorted(set(cls))
    for c in range(64):
        i = to_core[c]
        if i < 0:
            continue
        T[0, i] = tables.suit[c]
        T[1, i] = 1000 + tables.trump_power[c] if tables.trump_power[c] else 0
        T[2, i] = tables.rank_power[c]
        T[3, i] = pts[c]
        T[4, i] = cls[c]
        T[CI // 64, i] = classes.index(cls[c])
    rng = np.random.default_rng(0x5EED)  # fixed: the same hash keys in every process
    rand = rng.integers(-(1 << 63), (1 << 63) - 1, size=(2, 4, 4, 16), dtype=np.int64)
    ids = np.arange(64)
    in_deck = T[0] >= 0
    for sig in range(2):  # shape hash of card i in seat's hand: by (seat, suit, class), not by the card itself
        for seat in range(4):
            zs = ZS_ + 256 * sig + 64 * seat
            W[zs:zs + 64] = np.where(in_deck, rand[sig, seat, ids >> 4, T[CI // 64]], 0)
    W[ZP_:ZP_ + 4096] = rng.integers(-(1 << 63), (1 << 63) - 1, size=4096, dtype=np.int64)
    W[ROOT_] = -1  # until a root is set: every card not in a hand breaks runs of equivalent cards
    W[P0:P0 + 7] = [M, TB, 0, BONUSV, 1 if bonus else 0, _core_mask(to_core, priv), tables.trump]
    W[P0 + 7:P0 + 11] = [_core_mask(to_core, m) for m in suit_mask]
    W[HAND_SIZE_] = rules.hand_size
    return W, to_core


def _core_mask(to_core: list[int], mask: int) -> int:
    """A mask of card ids as a mask of the compiled core's ids (an int64: bit 63 as the sign)."""
    out = 0
    while mask:
        b = mask & -mask
        out |= 1 << to_core[b.bit_length() - 1]
        mask ^= b
    return out - (1 << 64) if out >> 63 else out


_GENERATIONS = itertools.count(1)
_TABLES: dict = {}
_TABLES_LOCK = threading.Lock()


def _shared_table(entries: int):
    """The process's transposition table of about ``entries`` slots (an int64 array, `ddcore.new_table`), shared by
    every engine that asks for that size: a new engine takes a new generation, which makes the older entries empty
    without clearing the array, and engines searching it at once from different threads are safe (the table is
    lockless and an engine only reads entries of its own generation). Tables of up to `TT_LIMIT` slots are kept per
    size (a few MB each, at most 8 sizes); of the larger ones only the last asked for, so memory stays bounded: an
    engine still holding a dropped table keeps it until the engine goes. Engines hold no reference cycles, so a
    dropped `Solver` frees its table at once (not at the next garbage collection)."""
    from . import ddcore  # noqa: PLC0415

    with _TABLES_LOCK:
        if entries not in _TABLES:
            if len(_TABLES) >= 8:  # many sizes asked for (tests, tools): start again
                _TABLES.clear()
            if entries > TT_LIMIT:
                for size in [size for size in _TABLES if size > TT_LIMIT]:
                    del _TABLES[size]
            _TABLES[entries] = ddcore.new_table(entries)
        return _TABLES[entries]


BACKEND = "numba"
"""Search core used by new solvers: "numba" (compiled, `ddcore`) or "python" (the closures of `_Engine`)."""
_TRACE: list | None = None
ACCEL = True


class Solver:
    """Double-dummy solver keeping its transposition tables between calls.

    One `Solver` can be used for many positions (and deals); its table is kept while the (rules, trump, nest points)
    stay the same (e.g. every position of one deal) and replaced otherwise.
    ``tt_limit``: entries of the transposition table (rounded down to a power of two; 34 bytes each with the
    compiled core; one table per size for the whole process, `_shared_table`); None: `default_tt_limit` of each
    hand's rules (8.5 MB up to 9 tricks, 68 MB for 10–12, 136 MB from 13). ``node_limit``: the most nodes one
    `solve`/`analyze` call may search (per search thread) before it raises `SearchLimit` (None: no limit; the
    compiled core only).
    ``threads``: search threads for `solve` and `analyze` (the root's legal cards are shared out between threads
    that share one table; used from `PARALLEL_MIN_TRICKS` tricks left, compiled core only); default
    `default_threads()` (the machine's cores, at most 4). Raises ValueError for ``threads`` < 1.
    """

    def __init__(self, tt_limit: int | None = None, node_limit: int | None = None, threads: int | None = None):
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.tt_limit = tt_limit
        self.node_limit = node_limit
        self.threads = threads if threads is not None else default_threads()
        self._engines: dict = {}
        self.nodes = 0
        self.cancelled = False
        self._active: _Root | None = None
        self.timed_out = False
        self._timer = None

    def set_deadline(self, seconds: float | None) -> None:
        """Stop every search of this solver ``seconds`` (float, wall-clock seconds from now) from now: a search
        running then raises `SearchTimeout` within microseconds (compiled core; the pure-Python core at its next
        null-window search), and so does every later search until the next call. None removes the deadline (and
        lets a timed-out solver search again). A watchdog thread (`threading.Timer`) does the stopping."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.timed_out = False
        if seconds is not None:
            if seconds <= 0:
                self.time_out()
                return
            self._timer = threading.Timer(seconds, self.time_out)
            self._timer.daemon = True
            self._timer.start()

    def time_out(self) -> None:
        """The deadline's action (`set_deadline`), callable from any thread: stop the running search and refuse
        new ones with `SearchTimeout` until `set_deadline` is called again."""
        self.timed_out = True
        root = self._active
        if root is not None:
            root.stop(timeout=True)

    def cancel(self) -> None:
        """Stop this solver for good, from any thread: a `solve`/`analyze` running in another thread raises
        `SearchCancelled` within a few microseconds (compiled core; the pure-Python core only at its next
        null-window search), and every later call raises it at once. Make a new `Solver` to search again."""
        self.cancelled = True
        root = self._active
        if root is not None:
            root.stop()

    def _engine(self, state: HandState) -> _Engine:
        rules = state.rules
        nest_pts = sum(rules.card_points[c] for c in state.nest)
        key = (rules, state.trump, nest_pts)
        eng = self._engines.get(key)
        if eng is None:
            self._engines.clear()  # one table at a time keeps memory bounded by tt_limit
            eng = self._engines[key] = _Engine(rules, state.trump, nest_pts,
                                               self.tt_limit or default_tt_limit(rules))
        return eng

    def _root(self, state: HandState, objective: int = 0) -> "_Root":
        """The root of searches from ``state`` (play phase) with ``objective`` (`ddcore.set_objective`: 0 the points
        objective of the module doc; 1/2 the declaring team's own final points, compiled core only). Raises
        ValueError outside the play phase or for an objective the core cannot search, `SearchCancelled` /
        `SearchTimeout` when the solver is cancelled / out of time."""
        if state.phase is not Phase.PLAY:
            raise ValueError(f"the double-dummy solver needs the play phase, not {state.phase.value}")
        if self.cancelled:
            raise SearchCancelled("the double-dummy search was cancelled")
        if self.timed_out:
            raise SearchTimeout("the double-dummy search ran out of time")
        root = self._active = _Root(self._engine(state), state, self.node_limit, self.threads, objective)
        if self.cancelled:  # cancel() ran while the root was made
            root.stop()
        elif self.timed_out:  # so did the deadline
            root.stop(timeout=True)
        return root

    def solve(self, state: HandState, all_values: bool = True) -> DDResult:
        """Solve ``state`` (phase PLAY, possibly mid-trick; a finished hand gives its captured points).

        Returns a `DDResult` with the exact value of every legal card. With ``all_values=False`` only the best
        value and ``best_cards`` are exact and ``card_values`` holds just the best cards (faster: the other cards
        are only shown to be worse). Does not modify ``state``.
        """
        if state.phase is Phase.DONE:
            ns, ew = state.captured
            value = ns - ew
            if state.rules.majority_bonus and state.rules.hand_size % 2 == 0:  # the tie-break's scale (DDResult)
                value = 32 * value + _tie_class(state.tricks_won[0] - state.tricks_won[1])[1]
            return DDResult(ns=ns, ew=ew, to_act=None, value=value)
        root = self._root(state)
        n0 = root.eng.node_count()
        values = root.exact_all() if all_values else root.best_only()
        self.nodes += root.eng.node_count() - n0
        return root.result(values)

    def analyze(self, state: HandState, card: Card, after: DDResult | None = None) -> tuple[DDResult, tuple[int, int]]:
        """Best play from ``state`` and the value of the legal ``card``: (result, (NS, EW) after ``card``).

        ``result.card_values`` holds the exact values found (the best cards and ``card``); ``result.best_cards``
        is complete. Cheaper than `solve` (other cards are only shown to be worse). ``after``: this solver's
        result for the position after ``card`` (in the same deal), if known: then ``card`` is not searched again
        and each other card costs one null-window test unless it is better (`rookcore.analysis.annotate` goes
        backwards through a hand and passes it). Raises ValueError outside the play phase, `SearchLimit` /
        `SearchCancelled` as `solve` does.
        """
        root = self._root(state)
        n0 = root.eng.node_count()
        values = root.best_only(first=int(card), first_value=None if after is None else after.value - root.sofar)
        self.nodes += root.eng.node_count() - n0
        res = root.result(values)
        return res, res.card_values[card]

    @staticmethod
    def _runs(eng: _Engine, hands: list[int], tmask: int, lmask: int) -> dict[int, int]:
        """Map each legal card that `reps` skips to the representative of its run of equivalent cards."""
        SUIT, TK, RK, PTS = eng.tables
        inplay = hands[0] | hands[1] | hands[2] | hands[3] | tmask
        out: dict[int, int] = {}
        for s in range(4):
            cards = sorted((c for c in range(64) if (inplay >> c) & 1 and SUIT[c] == s),
                           key=lambda c: -(TK[c] or RK[c]))
            prev, rep = -1, -1
            for c in cards:
                cl = PTS[c] * 2 + ((eng.priv >> c) & 1)
                if (lmask >> c) & 1:
                    if cl != prev:
                        rep = c
                    else:
                        out[c] = rep
                    prev = cl
                else:
                    prev = -1
        return out

    @staticmethod
    def _pair(eng: _Engine, total: int) -> tuple[int, int]:
        """(NS, EW) final points from the scalar value of a whole hand."""
        if eng.tiebreak:
            v, sign = _tie_class(total)
            t = eng.counter_total + (eng.bonus if sign else 0)
        else:
            v = total
            t = eng.counter_total + eng.bonus  # a bonus here is always paid (odd number of tricks)
        ns2 = v + t
        assert ns2 % 2 == 0, (total, v, t)
        return ns2 // 2, (t - v) // 2


class _Root:
    """The position being solved: its legal cards and exact/null-window searches of each."""

    def __init__(self, eng: _Engine, state: HandState, node_limit: int | None = None, threads: int = 1,
                 objective: int = 0):
        if objective not in (0, 1, 2):
            raise ValueError(f"unknown objective {objective!r}: 0 (points), 1 or 2 (declaring team's points)")
        if objective and eng.nb is None:
            raise ValueError("the declaring team's-points objective needs the compiled core (BACKEND = 'numba')")
        self.objective = objective
        rules = state.rules
        self.eng = eng
        self.threads = threads
        self.nrem = rules.hand_size - len(state.tricks)
        self.workers: list = []  # (W, child) of the extra search threads, made on first use
        self.stopped = False
        self.timed_out = False
        self.W = None
        M, TB = eng.M, eng.TB
        SUIT, TK, RK, PTS = eng.tables
        hands = [0, 0, 0, 0]
        for s in range(4):
            for c in state.hands[s]:
                hands[s] |= 1 << c
        tmask = 0
        for c in state.trick:
            tmask |= 1 << c
        d = state.tricks_won[0] - state.tricks_won[1]
        nrem = rules.hand_size - len(state.tricks)
        # points in the hands plus the current trick (end_trick takes a whole trick's points off)
        rempts = sum(PTS[c] for h in state.hands for c in h) + sum(PTS[c] for c in state.trick)
        if objective == 0:
            self.sofar = M * (state.captured[0] - state.captured[1]) + TB * d
        else:  # the declaring team's points so far (N–S view: E–W's counted negative)
            self.sofar = state.captured[0] if objective == 1 else -state.captured[1]
        self.seat = seat = state.to_act
        pos = len(state.trick)
        led = ws = wk = tp = 0
        if pos:
            led = SUIT[state.trick[0]]
            ws, wk, tp = state.trick_leader, -1, 0
            for i, c in enumerate(state.trick):
                k = TK[c] or (RK[c] if SUIT[c] == led else 0)
                if k > wk:
                    ws, wk, wc = (state.trick_leader + i) % 4, k, c
                tp += PTS[c]
        self.legal = [int(c) for c in state.legal_cards()]
        lmask = 0
        for c in self.legal:
            lmask |= 1 << c
        eng.set_state(hands, tmask, d, nrem, rempts)
        self.reps = eng.reps(lmask)
        self.runs = Solver._runs(eng, hands, tmask, lmask)
        self.maximise = not (seat & 1)

        if eng.nb is not None:
            from .ddcore import after_card  # noqa: PLC0415
            from .ddcore import ABORT_, H_, LIMIT_, NODES_, ROOT_, set_objective, set_shape  # noqa: PLC0415
            W, TT = eng.nb
            core = eng.to_core
            core_hands = [_core_mask(core, h) for h in hands]
            core_tmask = _core_mask(core, tmask)
            W[H_:H_ + 4] = core_hands
            W[ROOT_] = core_hands[0] | core_hands[1] | core_hands[2] | core_hands[3] | core_tmask  # `_normal`
            set_shape(W)
            set_objective(W, objective, M, TB, eng.nest_pts, eng.bonus)
            W[LIMIT_] = W[NODES_] + node_limit if node_limit else 1 << 62
            W[ABORT_] = 0
            nb_led = led if pos else 0
            nb_ws, nb_wk, nb_wc = (ws, wk, core[wc]) if pos else (seat, -1, -1)

            me = weakref.ref(self)  # not ``self``: a cycle root ↔ search would keep the table until a gc pass

            def make_child(W):
                """The search of one thread: ``W`` its own work array (hands, buffers), the table shared."""
                def child(c: int, alpha: int, beta: int) -> int:
                    """Fail-soft alpha-beta value (remainder, N–S view) after ``c`` (compiled core)."""
                    v = after_card(W, TT, seat, pos, nb_led, nb_ws, nb_wk, nb_wc, tp, core_tmask, d, nrem, rempts,
                                   core[c], alpha, beta)
                    if W[ABORT_]:
                        root = me()
                        if root is not None and root.stopped:
                            raise root.stop_error()
                        raise SearchLimit(f"double-dummy search stopped after {node_limit} nodes")
                    return v
                return child

            self.W = W
            self.make_child = make_child
            self.child = make_child(W)
            return

        def child(c: int, alpha: int, beta: int) -> int:
            """Fail-soft alpha-beta value (remainder, N–S view) after ``c``."""
            H = list(hands)
            b = 1 << c
            H[seat] ^= b
            nxt = (seat + 1) & 3
            if pos == 0:
                eng.set_state(H, b, d, nrem, rempts)
                if nrem == 1:  # the whole last trick: every hand holds one card
                    eng.H[seat] |= b
                    return eng.last_trick(seat)
                return eng.play(nxt, 1, SUIT[c], seat, TK[c] or RK[c], PTS[c], alpha, beta)
            eng.set_state(H, tmask | b, d, nrem, rempts)
            k = TK[c] or (RK[c] if SUIT[c] == led else 0)
            w2, k2 = (seat, k) if k > wk else (ws, wk)
            if pos == 3:
                return eng.end_trick(w2, tp + PTS[c], alpha, beta)
            return eng.play(nxt, pos + 1, led, w2, k2, tp + PTS[c], alpha, beta)

        self.child = child

    def stop(self, timeout: bool = False) -> None:
        """Make every search of this root end now (`Solver.cancel`; ``timeout``: `Solver.time_out`, then the
        searches raise `SearchTimeout` instead of `SearchCancelled`): the compiled searches stop at their next
        node (node limit zero), the pure-Python one before its next null-window search."""
        self.timed_out = self.timed_out or timeout
        self.stopped = True
        self._zero_limits()

    def stop_error(self) -> SearchLimit:
        """The exception a stopped search raises: `SearchTimeout` after a deadline, else `SearchCancelled`."""
        if self.timed_out:
            return SearchTimeout("the double-dummy search ran out of time")
        return SearchCancelled("the double-dummy search was cancelled")

    def _zero_limits(self) -> None:
        """Set every compiled search of this root to stop at its next node (node limit zero)."""
        if self.W is not None:
            from .ddcore import LIMIT_  # noqa: PLC0415

            for W in [self.W] + [W for W, _child in self.workers]:
                W[LIMIT_] = 0

    def mtdf(self, c: int, guess: int, child=None) -> int:
        """Remainder value after card ``c`` by MTD(f) from ``guess`` (``child``: the search to use): exact, except
        under the tie-break (Partnership), where only the final (NS, EW) matters and the value returned is its
        class's (`_klass`: 32·(NS − EW) + the sign of the trick difference, less the points so far).

        Null-window tests at t narrow the bracket [lo, hi] of the value; after two moves the same way the step
        grows (doubling, in units of 5 points) so that a poor guess costs few tests; once both ends are known, the
        next test bisects the bracket. Under the tie-break the tests first find the points level by thresholds no
        total reaches (`_class_test`), which the trick difference cannot decide, then its sign: on 12-trick
        Partnership endgames 22 % fewer nodes than exact values.
        """
        child = child or self.child
        lo, hi = -INF, INF
        t = guess
        unit = 5 * self.eng.M
        step, last = unit, 0
        classes = self.eng.tiebreak
        while (self._klass(lo) != self._klass(hi)) if classes else lo < hi:
            if self.stopped:
                raise self.stop_error()
            if classes:
                t = self._class_test(lo, hi, t)
            else:
                if lo > -INF and hi < INF:
                    t = (lo + hi + 1) // 2
                if t <= lo:
                    t = lo + 1
                elif t > hi:
                    t = hi
            g = child(c, t - 1, t)
            if _TRACE is not None:
                _TRACE.append((c, t, g, self.eng.node_count()))
            if g < t:
                hi = g
                step = step * 2 if last < 0 and ACCEL else unit
                last = -1
                t = g - step + unit if ACCEL else g
            else:
                lo = g
                step = step * 2 if last > 0 and ACCEL else unit
                last = 1
                t = g + step - unit + 1 if ACCEL else g + 1
        if classes:  # one value of the class: the class's own (NS, EW) (`_pair`), the same however it was found
            level, sign = self._klass(lo)
            return 32 * level + sign - self.sofar
        return lo

    def _klass(self, rem: int) -> tuple[int, int]:
        """(points level, sign of the trick difference) of the final total for remainder ``rem`` (tie-break rule
        sets: the total is 32·(NS − EW) + trick difference, |difference| ≤ 14); ±INF are classes of their own."""
        if rem <= -INF or rem >= INF:
            return (rem, 0)
        return _tie_class(self.sofar + rem)

    def _class_test(self, lo: int, hi: int, t: int) -> int:
        """The next null-window threshold (a remainder) when only the class (`_klass`) of the value in [lo, hi] is
        wanted: while the points level is open, thresholds between levels (totals ≡ 16 mod 32, which no total
        reaches: the trick difference does not matter to such a test), bisecting once both ends are known, else at
        the level of ``t``; then at most two tests at the level's trick-difference signs (totals 32L + 1, 32L)."""
        so = self.sofar
        lk, hk = self._klass(lo), self._klass(hi)
        if lo > -INF and hi < INF and lk[0] == hk[0]:
            level = lk[0]
            return 32 * level + 1 - so if hk[1] > 0 and lk[1] <= 0 and lo + so < 32 * level + 1 else 32 * level - so
        if lo > -INF and hi < INF:
            target = (lk[0] + hk[0] + 1) // 2
        else:
            target = (t + so + 16) // 32
            if lo > -INF:
                target = max(target, lk[0] + 1)
            if hi < INF:
                target = min(target, hk[0])
        return 32 * target - 16 - so

    def _parallel(self) -> bool:
        """Whether the root's cards are shared out between threads (see the module doc, Threads)."""
        return (self.threads > 1 and len(self.reps) > 1 and self.eng.nb is not None
                and self.nrem >= PARALLEL_MIN_TRICKS)

    def exact_all(self) -> dict[int, int | None]:
        """Exact remainder value of every representative card (in parallel when `_parallel`)."""
        def value(c: int, child, local: dict) -> int:
            local["guess"] = self.mtdf(c, local.get("guess", 0), child)
            return local["guess"]

        return self._each(self.reps, value)

    def best_only(self, first: int | None = None, first_value: int | None = None) -> dict[int, int | None]:
        """Exact values of the best representatives (and of ``first``); None for cards shown to be worse.

        Each card after the first exact one is first tested (null window) against the best so far; only a card
        that reaches it is valued exactly. ``first_value``: the remainder value of ``first`` when it is already
        known (the best value of the position after it): it is taken as is, not searched. With threads, the best
        so far is shared (a card tested against a best that is later improved may be valued needlessly, never
        wrongly)."""
        if first is not None:
            first = self.runs.get(first, first)
        known = {first: first_value} if first is not None and first_value is not None else {}
        order = ([first] if first is not None and not known else []) + [c for c in self.reps if c != first]
        sign = 1 if self.maximise else -1
        lock = threading.Lock()
        best: list[int | None] = [first_value if known else None]

        def value(c: int, child, _local: dict) -> int | None:
            with lock:
                b = best[0]
            if b is None:
                v = self.mtdf(c, 0, child)
            else:
                # null-window test: can c reach the best (N-S, E-W) outcome so far?
                lo_s, hi_s = self.same_pair(b)
                if self.maximise:
                    g = child(c, lo_s - 1, lo_s)
                    reaches = g >= lo_s
                else:
                    g = child(c, hi_s, hi_s + 1)
                    reaches = g <= hi_s
                if not reaches:
                    return None
                v = self.mtdf(c, g, child)
            with lock:
                if best[0] is None or v * sign > best[0] * sign:
                    best[0] = v
            return v

        return {**known, **self._each(order, value)}

    def _each(self, cards: list[int], value) -> dict[int, int | None]:
        """``{c: value(c, child, local)}`` for ``cards`` in order; with `_parallel`, shared out between
        ``threads`` searches (this thread and pool threads, each with its own ``child`` search and ``local`` dict)
        that share the transposition table: each takes the next card not yet started. A search that raises stops
        the others (their node limit is set to zero) before the exception propagates."""
        if not cards:
            return {}
        if not self._parallel():
            local: dict = {}
            return {c: value(c, self.child, local) for c in cards}
        from .ddcore import LIMIT_, NODES_  # noqa: PLC0415

        n = min(self.threads, len(cards))
        while len(self.workers) < n - 1:
            W = self.W.copy()
            W[NODES_] = 0
            W[LIMIT_] = self.W[LIMIT_] - self.W[NODES_]
            self.workers.append((W, self.make_child(W)))
        todo = iter(list(cards))
        lock = threading.Lock()
        values: dict[int, int | None] = {}

        def run(child) -> None:
            local: dict = {}
            try:
                while True:
                    with lock:
                        c = next(todo, None)
                    if c is None:
                        return
                    values[c] = value(c, child, local)
            except BaseException:
                self._zero_limits()
                raise

        futures = [_pool(n - 1).submit(run, child) for _W, child in self.workers[:n - 1]]
        try:
            run(self.child)
        finally:
            interrupted = None
            for f in futures:  # wait for every search thread, even when a signal interrupts the wait
                while True:
                    try:
                        f.exception()
                        break
                    except BaseException as exc:  # noqa: BLE001 - re-raised below, once the threads stopped
                        self._zero_limits()
                        interrupted = exc
            for W, _child in self.workers:
                self.W[NODES_] += W[NODES_]
                W[LIMIT_] -= W[NODES_]
                W[NODES_] = 0
            if interrupted is not None:
                raise interrupted
        for f in futures:
            if f.exception() is not None:
                raise f.exception()
        return {c: values[c] for c in cards}

    def same_pair(self, rem: int) -> tuple[int, int]:
        """The range of remainder values giving the same final (NS, EW) as ``rem`` (a tie-break range)."""
        if not self.eng.tiebreak:
            return rem, rem
        v, sign = _tie_class(self.sofar + rem)
        lo, hi = (32 * v + 1, 32 * v + 15) if sign > 0 else (32 * v - 15, 32 * v - 1) if sign < 0 else (32 * v, 32 * v)
        return lo - self.sofar, hi - self.sofar

    def result(self, values: dict[int, int | None]) -> DDResult:
        eng = self.eng
        for c, r in self.runs.items():
            values[c] = values[r]
        known = [v for v in values.values() if v is not None]
        best = max(known) if self.maximise else min(known)
        sofar = self.sofar
        card_values = {Card.from_id(c): Solver._pair(eng, sofar + v) for c, v in sorted(values.items())
                       if v is not None}
        ns, ew = Solver._pair(eng, sofar + best)
        best_cards = sorted(Card.from_id(c) for c, v in values.items()
                            if v is not None and Solver._pair(eng, sofar + v) == (ns, ew))
        return DDResult(ns=ns, ew=ew, card_values=card_values, best_cards=best_cards, to_act=self.seat,
                        value=sofar + best)


PARALLEL_MIN_TRICKS = 6
"""`Solver.solve` shares the root's cards between threads only with at least this many tricks left (below, a
search takes milliseconds and threads would only add overhead)."""
_POOL = None
_POOL_LOCK = threading.Lock()


def default_threads() -> int:
    """Search threads a new `Solver` uses by default: the machine's cores (``os.cpu_count()``), at most 4."""
    import os  # noqa: PLC0415

    return max(1, min(4, os.cpu_count() or 1))


def _pool(n: int):
    """The module's thread pool with at least ``n`` threads (the searches release the GIL)."""
    global _POOL
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    with _POOL_LOCK:
        if _POOL is None or _POOL._max_workers < n:
            if _POOL is not None:
                _POOL.shutdown(wait=False)  # its threads end once idle; a bigger pool replaces it
            _POOL = ThreadPoolExecutor(max_workers=n, thread_name_prefix="dd-search")
        return _POOL


_DEFAULT = Solver()


def warm_up() -> float:
    """Compile (or load from numba's cache) the compiled core by solving a small endgame; returns the seconds taken.

    The first solve in a process pays this once (about 15 s the first time after install, ~1 s from the cache);
    call it before timing solves. No effect with ``BACKEND = "python"``.
    """
    import time  # noqa: PLC0415

    from ..rules import get_rules  # noqa: PLC0415
    from .first_lead import play_ready  # noqa: PLC0415

    t0 = time.perf_counter()
    rules = get_rules("partnership")
    st = play_ready(rules, 0)
    while len(st.tricks) < rules.hand_size - 2:
        st.apply(st.legal_actions()[0])
    Solver(tt_limit=1 << 10).solve(st)
    return time.perf_counter() - t0



def solve(state: HandState, solver: Solver | None = None) -> DDResult:
    """Solve a play-phase `HandState` exactly (see the module doc); returns a `DDResult`.

    ``solver``: a `Solver` whose tables are reused (default: a module-level one).
    """
    return (solver or _DEFAULT).solve(state)

