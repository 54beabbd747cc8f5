"""Benchmarks for the AI players (not part of the test suite): decision time and illegal-action count.

Run ``python -m rookcore.ai.bench [--hands N] [--variant NAME] [--timing-decisions N]``.
Prints the median and 95th-percentile decision time of `RuleBasedPlayer` (time.perf_counter) and the
number of illegal actions over N self-play hands (rules.md §1; §5 "every card played was legal").
"""
from __future__ import annotations

import argparse
import statistics
import time

from ..hand import HandState, IllegalAction
from ..rules import get_rules
from .rules_based import RuleBasedPlayer


def decision_times(variant: str = "crowsnest", decisions: int = 2000, seed: int = 0) -> list[float]:
    """Time ``decisions`` RuleBasedPlayer decisions in self-play of ``variant``.

    Returns the sorted times in seconds. Raises IllegalAction if the AI plays an illegal action.
    """
    rules = get_rules(variant)
    times: list[float] = []
    hand = 0
    while len(times) < decisions:
        state = HandState.deal(rules, hand % 4, seed + hand)
        players = [RuleBasedPlayer(s) for s in range(4)]
        while not state.is_over and len(times) < decisions:
            seat = state.to_act
            obs = state.observation(seat)
            t0 = time.perf_counter()
            d = players[seat].decide(obs)
            times.append(time.perf_counter() - t0)
            state.apply(d.action, seat)
        hand += 1
    return sorted(times)


def illegal_count(variant: str = "crowsnest", hands: int = 10_000, seed: int = 0) -> tuple[int, int, float]:
    """Self-play ``hands`` hands of ``variant`` with four RuleBasedPlayers, counting illegal actions.

    An illegal action is counted and ends that hand. Returns (illegal actions, hands finished, seconds).
    """
    rules = get_rules(variant)
    illegal = finished = 0
    t0 = time.perf_counter()
    for i in range(hands):
        state = HandState.deal(rules, i % 4, seed + i)
        players = [RuleBasedPlayer(seed + i * 4 + s) for s in range(4)]
        try:
            while not state.is_over:
                seat = state.to_act
                state.apply(players[seat].decide(state.observation(seat)).action, seat)
            finished += 1
        except IllegalAction:
            illegal += 1
    return illegal, finished, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: print decision-time percentiles (ms) and the illegal-action count."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--variant", default="crowsnest")
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--timing-decisions", type=int, default=2000)
    args = ap.parse_args(argv)
    for v in ([args.variant] if args.variant != "all" else
              ["crowsnest", "tournament", "partnership", "1-high-partnership", "red-1", "buckeye", "dixie"]):
        t = decision_times(v, args.timing_decisions)
        print(f"{v}: {len(t)} decisions, median {statistics.median(t) * 1e3:.3f} ms, "
              f"p95 {t[int(0.95 * len(t))] * 1e3:.3f} ms, max {t[-1] * 1e3:.3f} ms")
    if args.hands:
        bad, done, secs = illegal_count(args.variant if args.variant != "all" else "crowsnest", args.hands)
        print(f"{args.hands} self-play hands: {bad} illegal actions, {done} hands finished, {secs:.1f} s")


if __name__ == "__main__":
    main()
