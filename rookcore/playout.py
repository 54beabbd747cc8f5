"""Lean random playouts: whole hands (or the rest of a `HandState`) with random legal choices, fast.

This is the engine's inner loop for benchmarks, statistics and sampling AIs. It plays exactly the rules of
`rookcore.hand` (rules.md §1, §3) but on plain int card ids and precomputed tables:

* the trick tables come from `rookcore.hand.trick_tables` (effective suit, trump power, rank power per card id);
* a seat must follow the led *effective* suit if it can; a card with ``rules.has_privilege(card)`` may be played on
  any trick (and counts as trump, so it also follows a trump lead); otherwise any card may be played;
* the trick goes to the highest trump, else the highest card of the led suit; its winner leads next;
* the nest's counters go to the team of the last trick; ``rules.majority_bonus`` goes to the team with more tricks
  (none on an equal split);
* a made bid scores ``rules.make_score`` ("bid" or "captured"); a set scores minus the bid; defenders score what
  they captured.

Random policy (documented so results are comparable): in the auction each seat in turn passes with probability
``pass_prob`` (default `PASS_PROB`) or else makes the lowest legal bid; if all four pass the hand is passed out and
scores (0, 0). The declarer puts back a uniformly random ``nest_size`` cards of hand plus nest and names a uniformly
random trump. Each card played is uniform among the legal cards.

Representation inside a playout: each seat's hand is six small lists of card ids — one per effective suit
(index 0..3, trump cards including the bird / Red 1 under the trump index), at index 4 the cards with the
play-any-time privilege, and at index 5 all of the seat's cards. A trick is played with table lookups only
(``keyled[led][card]``: the card's trick-taking key if it can win a trick so led, else 0). Nothing is
allocated per card; the per-(rules, trump) tables are cached.

Public API:

* `random_hand(rules, rng, dealer=0)` → hand score (N–S, E–W) of one random hand from a fresh deal;
* `random_hands(rules, n, seed)` → list of n hand scores;
* `playout_from(state, rng)` → hand score after finishing a `HandState` (any phase) randomly, without mutating it;
* `points_from(state, rng)` → captured points (N–S, E–W) after finishing it randomly;
* `Recorder` — pass ``record=Recorder()`` to any of these to capture the deal, every action (as engine
  `Action` values, ready for `HandState.apply`) and the legal cards at every play (used by the tests).
"""
from __future__ import annotations

import random as _random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .actions import PASS, PLAYS, TRUMPS, Discard, bid
from .cards import COLOURS
from .hand import trick_tables
from .rules import FIRST_LEAD_DECLARER, MAKE_BID, Rules

if TYPE_CHECKING:  # pragma: no cover
    from .hand import HandState

__all__ = ["PASS_PROB", "PlayoutTables", "RulesTables", "Recorder", "playout_tables", "rules_tables",
           "random_hand", "random_hands", "playout_from", "points_from", "random_deal"]

PASS_PROB = 0.5
"""Default probability that a seat passes at each of its calls in the random auction."""

_PRIV = 4  # index of the privileged-cards list in a seat's hand lists
_ALL = 5  # index of the list of all the seat's cards
_THREE = (1, 2, 3)


@dataclass(frozen=True)
class PlayoutTables:
    """Lookup tables for one (rules, trump), indexed by card id (0..63).

    trump: colour index 0..3 named as trump.
    suit: effective suit 0..3 of each card (trump cards — bird, Red 1 — under ``trump``); -1 if not in the deck.
    key: trick-taking key: 1000 + trump power for trump cards, else rank power within its colour (higher wins;
         a non-trump card off the led suit never wins).
    slot: which hand list a card lives in: its effective suit, or 4 (`_PRIV`) for a privileged card.
    points: counter value of each card.
    keyled: for each led suit 0..3, ``key`` of the cards that can win a trick so led (that suit or trump),
            0 for the others.
    """

    trump: int
    suit: tuple[int, ...]
    key: tuple[int, ...]
    slot: tuple[int, ...]
    points: tuple[int, ...]
    keyled: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class RulesTables:
    """Per-rules constants of the playout loop (derived from a `Rules`; see `rules_tables`)."""

    rules: Rules
    deck: tuple[int, ...]
    points: tuple[int, ...]
    hand_size: int
    nest_size: int
    bid_min: int
    bid_step: int
    bid_max: int
    majority_bonus: int
    make_bid: bool
    lead_from_declarer: bool
    trumps: tuple[PlayoutTables, ...]


@lru_cache(maxsize=None)
def playout_tables(rules: Rules, trump: int | str) -> PlayoutTables:
    """The `PlayoutTables` of ``rules`` with ``trump`` (colour index 0..3 or letter) named; cached."""
    letter = trump if isinstance(trump, str) else COLOURS[trump]
    tt = trick_tables(rules, letter)
    points = [0] * 64
    for card, pts in rules.card_points.items():
        points[int(card)] = pts
    key = [1000 + tt.trump_power[c] if tt.trump_power[c] else tt.rank_power[c] for c in range(64)]
    slot = list(tt.suit)
    for card in rules.deck:
        if rules.has_privilege(card):
            slot[int(card)] = _PRIV
    keyled = tuple(tuple(key[c] if tt.suit[c] in (led, tt.trump) else 0 for c in range(64)) for led in range(4))
    return PlayoutTables(tt.trump, tuple(tt.suit), tuple(key), tuple(slot), tuple(points), keyled)


@lru_cache(maxsize=None)
def rules_tables(rules: Rules) -> RulesTables:
    """The `RulesTables` of ``rules`` (all four trumps' `PlayoutTables` included); cached."""
    points = [0] * 64
    for card, pts in rules.card_points.items():
        points[int(card)] = pts
    return RulesTables(
        rules=rules, deck=tuple(int(c) for c in rules.deck), points=tuple(points), hand_size=rules.hand_size,
        nest_size=rules.nest_size, bid_min=rules.bid_min, bid_step=rules.bid_step, bid_max=rules.bid_max,
        majority_bonus=rules.majority_bonus, make_bid=rules.make_score == MAKE_BID,
        lead_from_declarer=rules.first_lead == FIRST_LEAD_DECLARER,
        trumps=tuple(playout_tables(rules, t) for t in range(4)))


@dataclass
class Recorder:
    """Collects what a playout did, for replay through `HandState` (tests, debugging).

    dealer, hands (4 lists of card ids, N E S W), nest: the deal (only for `random_hand`; left None by
    `playout_from`). actions: every action in order as engine `Action` values. legal: for each `Play` in
    ``actions``, the sorted legal card ids the playout chose from. captured, tricks_won: tallies at the end.
    """

    dealer: int | None = None
    hands: list | None = None
    nest: list | None = None
    actions: list = field(default_factory=list)
    legal: list = field(default_factory=list)
    captured: tuple | None = None
    tricks_won: tuple | None = None


# ----- the stages ------------------------------------------------------------------------------------------

def random_deal(rt: RulesTables, random, dealer: int) -> tuple[list[list[int]], list[int]]:
    """A uniformly random deal as in `HandState.deal` (hands N E S W, starting left of the dealer; then nest)."""
    deck = sorted(rt.deck, key=lambda _: random())
    hs = rt.hand_size
    hands: list[list[int]] = [None] * 4  # type: ignore[list-item]
    for i in range(4):
        hands[(dealer + 1 + i) & 3] = deck[i * hs:(i + 1) * hs]
    return hands, deck[4 * hs:]


def _auction(rt: RulesTables, random, seat: int, passed: list, high, declarer, pass_prob: float, rec):
    """Random auction from ``seat`` to act; returns (high_bid, declarer) — declarer None if passed out."""
    passes = sum(passed)
    bid_max, step = rt.bid_max, rt.bid_step
    while True:
        amount = rt.bid_min if high is None else high + step
        if amount > bid_max or random() < pass_prob:
            passed[seat] = True
            passes += 1
            if rec is not None:
                rec.actions.append(PASS)
            if passes == 4:
                return None, None
        else:
            high, declarer = amount, seat
            if rec is not None:
                rec.actions.append(bid(amount))
        if high is not None and (passes == 3 or high >= bid_max):
            return high, declarer
        seat = (seat + 1) & 3
        while passed[seat]:
            seat = (seat + 1) & 3


def _discard(random, cards: list, k: int, rec) -> tuple[list, list]:
    """Random put-back of ``k`` cards from ``cards`` (hand plus nest); returns (kept, discard). Mutates ``cards``."""
    n = len(cards)
    for i in range(k):  # partial Fisher–Yates: the first k become the discard
        j = i + int(random() * (n - i))
        cards[i], cards[j] = cards[j], cards[i]
    discard = cards[:k]
    if rec is not None:
        rec.actions.append(Discard(discard))
    return cards[k:], discard


def _split(slot, hands) -> list:
    """Per-seat hand lists: [suit 0, suit 1, suit 2, suit 3, privileged, all cards] (effective suits)."""
    hs = []
    for h in hands:
        lists = [[], [], [], [], [], list(h)]
        for c in h:
            lists[slot[c]].append(c)
        hs.append(lists)
    return hs


def _legal(h, led: int, trump: int) -> list:
    """Sorted legal card ids of a following seat's hand lists ``h`` when ``led`` was led (rules.md §1.5, §3).

    Must follow the led effective suit if able; privileged cards may always be played (and, being trump,
    follow a trump lead); a seat that cannot follow plays anything. The hot loop in `_play` inlines this.
    """
    f, p = h[led], h[_PRIV]
    if f or (p and led == trump):
        return sorted(f + p)
    return sorted(h[_ALL])


def _finish_trick(pt: PlayoutTables, random, hs, leader: int, trick: list, rec) -> tuple[int, int]:
    """Complete a trick already begun (``trick``: cards played from ``leader`` on); returns (winner, points)."""
    suit, pts, slot, trump = pt.suit, pt.points, pt.slot, pt.trump
    led = suit[trick[0]]
    kl = pt.keyled[led]
    best, win, tp = -1, -1, 0
    for i, c in enumerate(trick):
        tp += pts[c]
        if kl[c] > best:
            best, win = kl[c], (leader + i) & 3
    for pos in range(len(trick), 4):
        seat = (leader + pos) & 3
        h = hs[seat]
        legal = _legal(h, led, trump)
        if rec is not None:
            rec.legal.append(legal)
        c = legal[int(random() * len(legal))]
        h[slot[c]].remove(c)
        h[_ALL].remove(c)
        if rec is not None:
            rec.actions.append(PLAYS[c])
        tp += pts[c]
        if kl[c] > best:
            best, win = kl[c], seat
    return win, tp


def _play(pt: PlayoutTables, random, hs, leader: int, trick: list, tricks_left: int,
          cap: list, won: list, rec) -> int:
    """Play out the remaining tricks at random, adding to ``cap`` and ``won`` (per team); return the winner
    of the last trick (-1 if no trick was played). ``trick``: cards already played to the current trick
    (from ``leader`` on); ``hs``: hand lists from `_split` (mutated)."""
    suit, pts, slot, trump, keyled = pt.suit, pt.points, pt.slot, pt.trump, pt.keyled
    win = -1
    if trick:
        win, tp = _finish_trick(pt, random, hs, leader, trick, rec)
        cap[win & 1] += tp
        won[win & 1] += 1
        leader = win
        tricks_left -= 1
    while tricks_left:
        # the lead: any card
        h = hs[leader]
        fl = h[5]
        if rec is not None:
            rec.legal.append(sorted(fl))
        c = fl.pop(int(random() * len(fl)))
        h[slot[c]].remove(c)
        if rec is not None:
            rec.actions.append(PLAYS[c])
        led = suit[c]
        kl = keyled[led]  # kl[card] > 0 only for a card of the led suit or a trump: its trick-taking key
        best = kl[c]
        win = seat = leader
        tp = pts[c]
        for _ in _THREE:
            seat = (seat + 1) & 3
            h = hs[seat]
            f = h[led]
            p = h[4]
            if rec is not None:
                rec.legal.append(_legal(h, led, trump))
            if p and (f or led == trump):  # privileged cards may be played too
                nf = len(f)
                i = int(random() * (nf + len(p)))
                c = f.pop(i) if i < nf else p.pop(i - nf)
                h[5].remove(c)
            elif f:  # must follow the led suit
                c = f.pop(int(random() * len(f)))
                h[5].remove(c)
            else:  # cannot follow: any card
                fl = h[5]
                c = fl.pop(int(random() * len(fl)))
                h[slot[c]].remove(c)
            if rec is not None:
                rec.actions.append(PLAYS[c])
            tp += pts[c]
            if kl[c] > best:
                best = kl[c]
                win = seat
        cap[win & 1] += tp
        won[win & 1] += 1
        leader = win
        tricks_left -= 1
    return win


def _finish_count(rt: RulesTables, cap: list, won: list, last_winner: int, nest) -> None:
    """Nest counters to the last trick's team; majority bonus (rules.md §1.6). Mutates ``cap``."""
    pts = rt.points
    cap[last_winner & 1] += sum([pts[c] for c in nest])
    bonus = rt.majority_bonus
    if bonus and won[0] != won[1]:
        cap[0 if won[0] > won[1] else 1] += bonus


def _score(rt: RulesTables, cap: list, high: int, declarer: int) -> tuple[int, int]:
    team = declarer & 1
    made = cap[team] >= high
    if made:
        if rt.make_bid:
            cap[team] = high
    else:
        cap[team] = -high
    return (cap[0], cap[1])


def _from_trump(rt: RulesTables, random, dealer: int, hands, nest, high: int, declarer: int, rec):
    """Name a random trump and play every trick; returns captured (list, with nest and bonus)."""
    t = int(random() * 4)
    if rec is not None:
        rec.actions.append(TRUMPS[COLOURS[t]])
    pt = rt.trumps[t]
    leader = ((declarer if rt.lead_from_declarer else dealer) + 1) & 3
    cap = [0, 0]
    won = [0, 0]
    last = _play(pt, random, _split(pt.slot, hands), leader, [], rt.hand_size, cap, won, rec)
    _finish_count(rt, cap, won, last, nest)
    if rec is not None:
        rec.captured, rec.tricks_won = tuple(cap), tuple(won)
    return cap


# ----- whole random hands ----------------------------------------------------------------------------------

def _hand(rt: RulesTables, random, dealer: int, pass_prob: float, rec):
    """One random hand; returns (captured list or None if passed out, high bid, declarer)."""
    hands, nest = random_deal(rt, random, dealer)
    if rec is not None:
        rec.dealer, rec.hands, rec.nest = dealer, [list(h) for h in hands], list(nest)
    high, declarer = _auction(rt, random, (dealer + 1) & 3, [False] * 4, None, None, pass_prob, rec)
    if declarer is None:
        if rec is not None:
            rec.captured, rec.tricks_won = (0, 0), (0, 0)
        return None, None, None
    k = rt.nest_size
    if k:
        kept, nest = _discard(random, hands[declarer] + nest, k, rec)
        hands[declarer] = kept
    return _from_trump(rt, random, dealer, hands, nest, high, declarer, rec), high, declarer


def random_hand(rules: Rules, rng: _random.Random, dealer: int = 0, *, pass_prob: float = PASS_PROB,
                record: Recorder | None = None) -> tuple[int, int]:
    """Deal and play one hand with random legal choices (see module doc); return its score (N–S, E–W).

    A passed-out hand scores (0, 0). ``rng``: a `random.Random` (only its ``random()`` is used).
    ``record``: a `Recorder` to capture the deal and actions (slower; for tests).
    """
    rt = rules_tables(rules)
    cap, high, declarer = _hand(rt, rng.random, dealer, pass_prob, record)
    if cap is None:
        return (0, 0)
    return _score(rt, cap, high, declarer)


def random_hands(rules: Rules, n: int, seed: int | None = None, *, pass_prob: float = PASS_PROB,
                 rotate_dealer: bool = True) -> list[tuple[int, int]]:
    """Play ``n`` random hands with ``random.Random(seed)``; return their scores (N–S, E–W).

    The first dealer is N; the deal passes to the left after each scored hand, and a passed-out hand (scored
    (0, 0)) is redealt by the same dealer (rules.md §1.2, §1.8), unless ``rotate_dealer`` is False (dealer N
    throughout). Returns a list of ``n`` (N–S, E–W) hand scores in points.
    """
    rt = rules_tables(rules)
    random = _random.Random(seed).random
    out = []
    append = out.append
    dealer = 0
    for _ in range(n):
        cap, high, declarer = _hand(rt, random, dealer, pass_prob, None)
        if cap is None:
            append((0, 0))
            continue
        append(_score(rt, cap, high, declarer))
        if rotate_dealer:
            dealer = (dealer + 1) & 3
    return out


# ----- finishing a HandState -------------------------------------------------------------------------------

def _finish_state(state: "HandState", rng: _random.Random, pass_prob: float, rec):
    """Finish ``state`` randomly without mutating it; returns (captured list, high bid, declarer) or
    (state.captured-based list, ...) when it is already over; captured is None if the hand is passed out."""
    # local import: hand.py must not depend on playout.py
    from .hand import Phase

    rules = state.rules
    rt = rules_tables(rules)
    random = rng.random
    phase = state.phase
    if phase is Phase.DONE:
        if rec is not None:
            rec.captured, rec.tricks_won = tuple(state.captured), tuple(state.tricks_won)
        if state.declarer is None:
            return None, None, None
        return list(state.captured), state.high_bid, state.declarer
    dealer = state.dealer
    high, declarer = state.high_bid, state.declarer
    if phase is Phase.PLAY:
        pt = rt.trumps[COLOURS.index(state.trump)]
        cap = list(state.captured)
        won = list(state.tricks_won)
        trick = [int(c) for c in state.trick]
        tricks_left = rt.hand_size - len(state.tricks)
        last = _play(pt, random, _split(pt.slot, state.hands), state.trick_leader, trick, tricks_left, cap, won,
                     rec)
        if last < 0:  # pragma: no cover - a PLAY state always has a trick to play
            last = state.tricks[-1].winner
        _finish_count(rt, cap, won, last, [int(c) for c in state.nest])
        if rec is not None:
            rec.captured, rec.tricks_won = tuple(cap), tuple(won)
        return cap, high, declarer
    if phase is Phase.TRUMP:
        hands = [[int(c) for c in h] for h in state.hands]
        nest = [int(c) for c in state.nest]
        return _from_trump(rt, random, dealer, hands, nest, high, declarer, rec), high, declarer
    if phase is Phase.DISCARD:
        hands = [[int(c) for c in h] for h in state.hands]
        kept, nest = _discard(random, hands[declarer], rt.nest_size, rec)
        hands[declarer] = kept
        return _from_trump(rt, random, dealer, hands, nest, high, declarer, rec), high, declarer
    # auction
    high, declarer = _auction(rt, random, state.to_act, list(state.passed), high, declarer, pass_prob, rec)
    if declarer is None:
        if rec is not None:
            rec.captured, rec.tricks_won = (0, 0), (0, 0)
        return None, None, None
    hands = [[int(c) for c in h] for h in state.hands]
    nest = [int(c) for c in state.dealt_nest]
    if rt.nest_size:
        kept, nest = _discard(random, hands[declarer] + nest, rt.nest_size, rec)
        hands[declarer] = kept
    return _from_trump(rt, random, dealer, hands, nest, high, declarer, rec), high, declarer


def playout_from(state: "HandState", rng: _random.Random, *, pass_prob: float = PASS_PROB,
                 record: Recorder | None = None) -> tuple[int, int]:
    """Finish ``state`` (any phase) with random legal choices and return the hand score (N–S, E–W).

    ``state`` is not mutated. Every seat's cards are taken as they are in ``state`` (a sampling AI should
    pass a state whose hidden hands it has already sampled). A passed-out or all-pass finish scores (0, 0);
    a finished state returns ``state.score()``.
    """
    cap, high, declarer = _finish_state(state, rng, pass_prob, record)
    if cap is None:
        return (0, 0)
    return _score(rules_tables(state.rules), cap, high, declarer)


def points_from(state: "HandState", rng: _random.Random, *, pass_prob: float = PASS_PROB,
                record: Recorder | None = None) -> tuple[int, int]:
    """Finish ``state`` like `playout_from` and return the captured points (N–S, E–W) at the end of the hand
    (nest and majority bonus included); (0, 0) if the hand is passed out. ``state`` is not mutated."""
    cap, _, _ = _finish_state(state, rng, pass_prob, record)
    if cap is None:
        return (0, 0)
    return (cap[0], cap[1])
