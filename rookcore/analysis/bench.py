"""Timing of the double-dummy solver on full deals.

``python -m rookcore.analysis.bench [--best] [--cap-nodes N] N [variant ...]`` (variant ``crowsnest-nobird`` =
CrowsNest with options {"bird": false}; default: every rule set).

Each deal: `HandState.deal(rules, "N", seed)` brought to the first lead by `first_lead.play_ready` (the first seat
bids the minimum and the others pass, the declarer puts back its lowest cards (fewest points, then lowest rank) and
names its longest colour); the solver then solves the first lead with a fresh `Solver` — every legal card valued
(`Solver.solve`), or with ``--best`` only the best value and best cards (``all_values=False``). Times are CPU
seconds (``time.process_time``), after `dd.warm_up` (the compiled core is loaded once per process, as a C library
would be). A deal whose search exceeds ``--cap-nodes`` nodes is stopped and counted with the time it took
(medians/percentiles are then lower bounds). Prints median / p99 / max per rule set.
"""
from __future__ import annotations

import statistics
import sys
import time

from ..rules import VARIANTS, Rules, get_rules
from .dd import SearchLimit, Solver, warm_up
from .first_lead import play_ready

__all__ = ["play_ready", "time_solves"]


def time_solves(rules: Rules, n: int, first_seed: int = 0, all_values: bool = True,
                node_cap: int | None = None) -> tuple[list[float], int]:
    """CPU seconds to solve the first lead of ``n`` seeded deals (fresh solver each) and the number capped.

    A deal whose search exceeds ``node_cap`` nodes is stopped (`SearchLimit`) and counted with the time it had
    taken (so medians/percentiles are then lower bounds).
    """
    times, capped = [], 0
    warm_up()
    for seed in range(first_seed, first_seed + n):
        st = play_ready(rules, seed)
        t0 = time.process_time()
        try:
            Solver(node_limit=node_cap).solve(st, all_values=all_values)
        except SearchLimit:
            capped += 1
        times.append(time.process_time() - t0)
    return times, capped


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main(argv: list[str]) -> None:
    """The command line of the module doc: ``argv`` (list of str) = [--best] [--cap-nodes N] [N [variant ...]].
    Prints one line per rule set; raises ValueError for a count that is not a number and RulesError for an
    unknown variant."""
    args = list(argv)
    all_values = "--best" not in args
    if not all_values:
        args.remove("--best")
    cap = None
    if "--cap-nodes" in args:
        i = args.index("--cap-nodes")
        cap = int(float(args[i + 1]))
        del args[i:i + 2]
    n = int(args[0]) if args else 50
    names = args[1:] or list(VARIANTS) + ["crowsnest-nobird"]
    for name in names:
        rules = get_rules("crowsnest", {"bird": False}) if name == "crowsnest-nobird" else get_rules(name)
        ts, capped = time_solves(rules, n, all_values=all_values, node_cap=cap)
        print(f"{name:20s} tricks={rules.hand_size:2d} n={n} {'all' if all_values else 'best'} "
              f"median={statistics.median(ts):.3f}s p99={_pct(ts, 0.99):.3f}s max={max(ts):.3f}s"
              + (f" capped={capped}" if capped else ""), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
