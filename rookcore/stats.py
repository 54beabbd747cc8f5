"""Many-deal statistics: play N seeded deals with four AI players and summarise them (rules.md §1, §2).

    stats = simulate("crowsnest", deals=1000, seed=0)        # both cores, dask's local process scheduler
    stats.bid_success()          # {bid: (made, total)}
    stats.strength_vs_points()   # (hand strengths, declaring team's points)
    stats.bird_value()           # (avg points of the team dealt the bird, avg of the other team)
    stats.points_by_trick()      # [avg counter points in trick 1, trick 2, ...]
    stats.nest_decides_rate()    # fraction of played deals the nest decided
    print(stats.summary())

Each deal is ONE hand: deal ``i`` (0-based) has dealer ``i % 4`` and its own deal seed derived from
``(seed, i)`` only (`deal_seed`), and the four players are seeded from that deal seed, so a run's rows do
not depend on the chunk size, the number of workers or where the chunks run (local processes or a
dask.distributed cluster). A deal where all four seats pass is recorded as passed out (not redealt).

No UI imports here: `widgets.stats.StatsPanel` is the notebook front end.
"""
from __future__ import annotations

import hashlib
import math
import os
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .cards import Card
from .hand import HandState
from .rules import Rules, get_rules

ProgressFn = Callable[[int, int], Any]

#: Runs of at most this many deals with ``workers=None`` play in this process: starting worker
#: processes (about 1-2 s each, spawn + imports) costs more than the few deals themselves.
SMALL_RUN = 24

BIRD = Card.bird()

#: Row keys (one dict per deal). Points are counter points (rules.md §2 "counters"); teams are 0 = N–S, 1 = E–W.
ROW_KEYS = (
    "deal",               # deal index 0..N-1
    "deal_seed",          # the HandState.deal seed of this deal
    "dealer",             # seat 0..3 (N, E, S, W)
    "passed_out",         # all four passed (then the fields below are None / empty / False)
    "bid",                # the winning bid (points) or None
    "declarer",           # declarer seat 0..3 or None
    "declarer_team",      # 0 / 1 or None
    "made",               # True (made) / False (set) / None (passed out)
    "strength",           # hand_strength() of the declarer's DEALT hand (before the nest); None if passed out
    "declarer_points",    # points the declaring team captured (nest and majority bonus included)
    "defender_points",    # points the defenders captured
    "bird_team",          # team dealt the bird; None if the bird was in the nest or the rule set has none
    "bird_team_points",   # points captured by bird_team (None if no bird_team or passed out)
    "trick_points",       # list: counter points in trick 1, 2, ... (the nest not included)
    "nest_points",        # counter points of the nest counted at the end (the declarer's discard)
    "nest_team",          # team that took the last trick and so the nest; None if passed out
    "nest_decides",       # the made/set outcome would flip if the nest's points went to the other team
)


# --------------------------------------------------------------------------- per-deal measures
def hand_strength(rules: Rules, cards) -> float:
    """A simple, rule-set-driven measure of a dealt hand's strength (points-like units, higher = stronger).

    strength = counter points held (rules.md §2 "counters", the bird and Red 1 included)
             + 5 per high card (the top two numbers of ``rules.order`` in any colour, e.g. 14 and 13 in
               CrowsNest, 1 and 14 in 1-High / Buckeye)
             + 10 for the bird and 10 for the Red 1 (trump whatever colour is named)
             + 4 per card of the longest colour beyond 3 (trump length once that colour is named).

    It ignores the nest and the auction; it is meant only to rank hands against each other.
    """
    pts = rules.card_points
    top = set(rules.order[:2])
    counters = high = special = 0
    lengths = {"R": 0, "Y": 0, "G": 0, "B": 0}
    for card in cards:
        card = Card.from_id(int(card))
        counters += pts.get(card, 0)
        if card == BIRD or rules.is_trump_card(card):
            special += 10
            continue
        lengths[card.colour] += 1
        if card.number in top:
            high += 1
    longest = max(lengths.values())
    return float(counters + 5 * high + special + 4 * max(0, longest - 3))


def deal_seed(seed: int, index: int) -> int:
    """The 48-bit deal seed of deal ``index`` in a run seeded ``seed`` (independent of chunking)."""
    digest = hashlib.blake2b(f"rook-stats:{seed}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def _row(rules: Rules, state: HandState, index: int, dseed: int) -> dict:
    """The statistics row of a finished hand (see ROW_KEYS)."""
    pts = rules.card_points
    bird_team = None
    if rules.bird:
        for seat, hand in enumerate(state.dealt):
            if BIRD in hand:
                bird_team = seat & 1
    row = dict.fromkeys(ROW_KEYS)
    row.update(deal=index, deal_seed=dseed, dealer=state.dealer, passed_out=state.passed_out,
               bird_team=bird_team, trick_points=[], nest_points=0, nest_decides=False)
    if state.passed_out:
        return row
    team = state.declarer & 1
    captured = state.captured
    nest_points = sum(pts[c] for c in state.nest)
    nest_team = state.tricks[-1].winner & 1 if state.tricks else None
    made = bool(state.made)
    if nest_points and nest_team is not None:
        swing = -nest_points if nest_team == team else nest_points
        nest_decides = (captured[team] + swing >= state.high_bid) != made
    else:
        nest_decides = False
    row.update(
        bid=state.high_bid, declarer=state.declarer, declarer_team=team, made=made,
        strength=hand_strength(rules, state.dealt[state.declarer]),
        declarer_points=captured[team], defender_points=captured[1 - team],
        bird_team_points=None if bird_team is None else captured[bird_team],
        trick_points=[t.points for t in state.tricks], nest_points=nest_points, nest_team=nest_team,
        nest_decides=nest_decides)
    return row


def play_deals(variant: str, options: Mapping[str, Any] | None, level: str, seed: int,
               indexes: Sequence[int]) -> list[dict]:
    """Play the deals ``indexes`` of a run (one hand each, four ``level`` AI players) and return their rows.

    Top-level and picklable: this is the per-chunk task sent to worker processes / dask workers.
    """
    from .ai import LEVELS  # imported here so a worker pays for it once, on first use
    from .ai import play_hand as play_out

    rules = get_rules(variant, dict(options) if options else None)
    make = LEVELS[level]
    rows = []
    for i in indexes:
        dseed = deal_seed(seed, i)
        state = HandState.deal(rules, i % 4, dseed)
        play_out(state, [make(seed=dseed * 4 + s) for s in range(4)])
        rows.append(_row(rules, state, i, dseed))
    return rows


# --------------------------------------------------------------------------- results
def _mean(values) -> float:
    values = list(values)
    return statistics.fmean(values) if values else math.nan


@dataclass
class HandStats:
    """The rows of a `simulate` run (one dict per deal, keys in ROW_KEYS) and summaries of them.

    Summaries other than ``bid_success`` / counts use the played (not passed-out) deals.
    """

    variant: str
    seed: int
    level: str
    options: dict = field(default_factory=dict)
    rows: list[dict] = field(default_factory=list)
    seconds: float = 0.0

    # ----- counts
    @property
    def deals(self) -> int:
        """Number of deals in the run."""
        return len(self.rows)

    @property
    def played(self) -> list[dict]:
        """Rows of the deals that were bid and played (not passed out)."""
        return [r for r in self.rows if not r["passed_out"]]

    def counts(self) -> dict[str, int]:
        """{"made": n, "set": n, "passed_out": n} — they add up to ``deals``."""
        made = sum(1 for r in self.rows if r["made"] is True)
        set_ = sum(1 for r in self.rows if r["made"] is False)
        return {"made": made, "set": set_, "passed_out": sum(1 for r in self.rows if r["passed_out"])}

    # ----- summaries
    def bid_success(self) -> dict[int, tuple[int, int]]:
        """{winning bid: (hands made, hands played)}, bids ascending."""
        out: dict[int, list[int]] = {}
        for r in self.played:
            made_total = out.setdefault(r["bid"], [0, 0])
            made_total[0] += bool(r["made"])
            made_total[1] += 1
        return {b: (m, t) for b, (m, t) in sorted(out.items())}

    def strength_vs_points(self) -> tuple[list[float], list[int]]:
        """(declarer's hand strength, declaring team's captured points) for each played deal."""
        rows = self.played
        return [r["strength"] for r in rows], [r["declarer_points"] for r in rows]

    def bird_value(self) -> tuple[float, float]:
        """(average points captured by the team dealt the bird, average points of the other team).

        Over played deals where a player was dealt the bird; (nan, nan) if there are none
        (no bird in the rule set, or it was always in the nest).
        """
        rows = [r for r in self.played if r["bird_team"] is not None]
        with_bird = [r["bird_team_points"] for r in rows]
        without = [(r["declarer_points"] + r["defender_points"]) - r["bird_team_points"] for r in rows]
        return _mean(with_bird), _mean(without)

    def points_by_trick(self) -> list[float]:
        """Average counter points in trick 1, 2, ... over played deals (the nest not included)."""
        rows = [r["trick_points"] for r in self.played]
        if not rows:
            return []
        n = max(len(t) for t in rows)
        return [_mean(t[i] for t in rows if len(t) > i) for i in range(n)]

    def nest_decides_rate(self) -> float:
        """Fraction of played deals whose made/set outcome the nest decided (nan if none were played)."""
        rows = self.played
        return sum(1 for r in rows if r["nest_decides"]) / len(rows) if rows else math.nan

    def made_rate(self) -> float:
        """Fraction of played deals the declarers made (nan if none were played)."""
        rows = self.played
        return sum(1 for r in rows if r["made"]) / len(rows) if rows else math.nan

    def summary(self) -> str:
        """A few lines of plain text: counts, make rate, bird value, nest, richest trick (same seed → same text)."""
        c = self.counts()
        with_bird, without = self.bird_value()
        by_trick = self.points_by_trick()
        lines = [
            f"{self.deals} {self.variant} deals (seed {self.seed}, AI {self.level}): "
            f"{c['made']} made, {c['set']} set, {c['passed_out']} passed out",
            f"declarers made {self.made_rate():.1%} of played hands",
        ]
        if not math.isnan(with_bird):
            lines.append(f"team dealt the bird captured {with_bird:.1f} points on average, the other team {without:.1f}")
        if by_trick:
            best = max(range(len(by_trick)), key=by_trick.__getitem__)
            lines.append(f"richest trick: trick {best + 1} ({by_trick[best]:.1f} points on average)")
        lines.append(f"the nest decided {self.nest_decides_rate():.1%} of played hands")
        return "\n".join(lines)

    def __repr__(self) -> str:
        c = self.counts()
        return (f"<HandStats {self.variant} deals={self.deals} made={c['made']} set={c['set']} "
                f"passed_out={c['passed_out']}>")


# --------------------------------------------------------------------------- running
def _chunks(deals: int, chunk: int, workers: int) -> list[list[int]]:
    """Split deal indexes 0..deals-1 into chunks of at most ``chunk``, enough for every worker to have work."""
    size = max(1, min(chunk, math.ceil(deals / (2 * workers)) if deals else 1))
    return [list(range(i, min(deals, i + size))) for i in range(0, deals, size)]


def simulate(variant: str = "crowsnest", deals: int = 1000, seed: int = 0, options: Mapping[str, Any] | None = None,
             level: str = "rules", client: Any = None, workers: int | None = None, chunk: int = 50,
             progress: ProgressFn | None = None, connect_timeout: float = 10.0) -> HandStats:
    """Play ``deals`` seeded deals of ``variant`` (one hand each, four ``rookcore.ai.LEVELS[level]`` players).

    Args:
      variant, options: the rule set (`rookcore.rules.get_rules`); level: an AI level name.
      seed: run seed; the same arguments give the same rows wherever they run.
      client: None → run on this machine with dask's local process scheduler (``workers`` processes,
        default ``os.cpu_count()``, or 1 for runs of at most SMALL_RUN deals; ``workers=1`` runs in this
        process); a ``dask.distributed.Client`` →
        submit the chunks to it; a string → ``Client(address)`` is opened for the run and closed after.
      chunk: deals per task (smaller for small runs so every worker gets work).
      progress: optional ``callback(done_deals, total_deals)``, called with 0 first and ``deals`` last.
      connect_timeout: seconds to wait for a scheduler given as an address.
    Returns a `HandStats`. Raises RulesError (bad variant/option), ValueError (bad level, deals < 0),
    OSError/TimeoutError (scheduler unreachable).
    """
    import time

    from .ai import LEVELS

    rules = get_rules(variant, options)  # validate in the caller, before any process starts
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    if type(deals) is not int or deals < 0:
        raise ValueError(f"deals must be a non-negative integer, got {deals!r}")
    if type(chunk) is not int or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
    opts = dict(options or {})
    t0 = time.perf_counter()
    report = progress or (lambda done, total: None)
    report(0, deals)
    if client is not None:
        n_workers = workers or 2
        if isinstance(client, str):
            from dask.distributed import Client
            with Client(client, timeout=connect_timeout) as own:
                n_workers = workers or max(1, len(own.scheduler_info().get("workers", {})))
                rows = _run_distributed(own, variant, opts, level, seed, _chunks(deals, chunk, n_workers), deals,
                                        report)
        else:
            info_workers = len(client.scheduler_info().get("workers", {}))
            n_workers = workers or max(1, info_workers)
            rows = _run_distributed(client, variant, opts, level, seed, _chunks(deals, chunk, n_workers), deals,
                                    report)
    else:
        n_workers = workers or (1 if deals <= SMALL_RUN else os.cpu_count() or 1)
        rows = _run_local(variant, opts, level, seed, _chunks(deals, chunk, n_workers), n_workers, deals, report)
    rows.sort(key=lambda r: r["deal"])
    return HandStats(variant=rules.variant, seed=seed, level=level, options=opts, rows=rows,
                     seconds=time.perf_counter() - t0)


def _run_local(variant, opts, level, seed, chunks, workers, total, report) -> list[dict]:
    rows: list[dict] = []
    if workers <= 1 or len(chunks) <= 1:
        for idx in chunks:
            rows.extend(play_deals(variant, opts, level, seed, idx))
            report(len(rows), total)
        return rows
    import dask
    from dask.callbacks import Callback

    tasks = [dask.delayed(play_deals, pure=True)(variant, opts, level, seed, idx) for idx in chunks]
    sizes = {}
    for task, idx in zip(tasks, chunks):
        sizes[task.key] = len(idx)
    done = [0]

    def posttask(key, result, dsk, state, worker_id):
        if key in sizes:
            done[0] += sizes[key]
            report(done[0], total)

    with Callback(posttask=posttask):
        results = dask.compute(*tasks, scheduler="processes", num_workers=workers)
    for part in results:
        rows.extend(part)
    if done[0] != total:  # e.g. keys renamed by graph optimisation: still finish the bar
        report(total, total)
    return rows


def _run_distributed(client, variant, opts, level, seed, chunks, total, report) -> list[dict]:
    from dask.distributed import as_completed

    futures = client.map(play_deals, [variant] * len(chunks), [opts] * len(chunks), [level] * len(chunks),
                         [seed] * len(chunks), chunks, pure=False)
    rows: list[dict] = []
    try:
        for fut in as_completed(futures):
            rows.extend(fut.result())
            report(len(rows), total)
    finally:
        client.cancel(futures)
    return rows


def main(argv: list[str] | None = None) -> None:
    """``python -m rookcore.stats [--variant V] [--deals N] [--seed S] [--level L] [--scheduler ADDR]``."""
    import argparse

    ap = argparse.ArgumentParser(description="Many-deal AI self-play statistics")
    ap.add_argument("--variant", default="crowsnest")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="rules")
    ap.add_argument("--workers", type=int)
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--scheduler", help="dask.distributed scheduler address (default: local processes)")
    args = ap.parse_args(argv)
    from tqdm import tqdm

    with tqdm(total=args.deals, unit="deal") as bar:
        def progress(done, total):
            bar.update(done - bar.n)

        stats = simulate(args.variant, args.deals, args.seed, level=args.level, client=args.scheduler,
                         workers=args.workers, chunk=args.chunk, progress=progress)
    print(stats.summary())
    print(f"simulated in {stats.seconds:.1f} s")


if __name__ == "__main__":
    main()
