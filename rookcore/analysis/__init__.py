"""Analysis tools: the exact double-dummy solver (`dd`) and record annotation (`annotate`).

* `solve(state)` → `DDResult` (final captured points of each team under best play, the value of every legal card);
* `Solver` — the same with a transposition table kept between calls (several positions of one deal);
* `analyze_record(record)` → the ``analyze`` command's JSON object (a loss and a mark for every card played);
* `bid_question(state)` — can the declaring team still reach its bid with best play (a two-outcome null-window
  search); `judge_auction(state)` — was the final bid makeable, and the highest bid the declaring team
  reaches, from the first lead; `Prover` / `Position` (`bounds`) — proven ranges narrowed test by test, exact values by bisection, one
  solver and table for all; ``analyze_record(record, budget=S)`` (`budget`) — proven marks within S seconds, exact
  values as time allows;
* `SearchLimit` — raised when a `Solver` with a ``node_limit`` gives up (`SearchCancelled`, a kind of it, when
  `Solver.cancel` stopped it from another thread); `warm_up()` compiles the numba core
  (`ddcore`) ahead of first use (also ``python -m rookcore.analysis``).
"""
from .annotate import analyze_record
from .bounds import Position, Prover, bid_question, judge_auction
from .dd import DDResult, SearchCancelled, SearchLimit, SearchTimeout, Solver, solve, warm_up

__all__ = ["DDResult", "SearchLimit", "SearchCancelled", "SearchTimeout", "Solver", "solve", "warm_up", "analyze_record",
           "bid_question", "judge_auction", "Prover", "Position"]
