"""Nodes of the bid question from the first lead: the two-outcome search against tests on the points scale.

    python benchmarks/bid_nodes.py partnership 0 12 6e7      # rule set, first seed, end seed, node limit

For each seeded deal (`rookcore.analysis.bench.play_ready`'s first lead), one search thread and a node limit
(load-independent figures on a shared machine): the bid question asked as `Prover.decide` on the solver's points
scale (the way before the two-outcome search: under Partnership's tie rule several tests, and the answer of the
points game) and as `bid_question` (the two-outcome game: one null-window test at the bid). Prints per seed:
seed, answer, nodes, CPU seconds for each ("limit" / ">N": the node limit was reached).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rookcore.analysis.bench import play_ready  # noqa: E402
from rookcore.analysis.bounds import Position, Prover, bid_question, bid_threshold_key  # noqa: E402
from rookcore.analysis.dd import SearchLimit, Solver, warm_up  # noqa: E402
from rookcore.rules import get_rules  # noqa: E402


def main(argv: list[str]) -> int:
    """Run the comparison for ``argv`` = [rule set, first seed, end seed, node limit]; returns the exit code."""
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    warm_up()
    rules = get_rules(argv[0])
    limit = int(float(argv[3]))
    for seed in range(int(argv[1]), int(argv[2])):
        st = play_ready(rules, seed)
        row: list = [seed]
        for how in ("points", "two-outcome"):
            solver = Solver(threads=1, node_limit=limit)
            c0 = time.process_time()
            try:
                if how == "points":
                    answer = Prover(solver).decide(Position(st), bid_threshold_key(st))
                else:
                    answer = bid_question(st, solver)
                row += [answer, solver.nodes, round(time.process_time() - c0, 2)]
            except SearchLimit:
                row += ["limit", f">{limit}", round(time.process_time() - c0, 2)]
        print(*row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
