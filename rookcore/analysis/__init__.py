"""Analysis tools: the exact double-dummy solver (`dd`) and record annotation (`annotate`).

* `solve(state)` → `DDResult` (final captured points of each team under best play, the value of every legal card);
* `Solver` — the same with a transposition table kept between calls (several positions of one deal);
* `analyze_record(record)` → the ``analyze`` command's JSON object (a loss and a mark for every card played).
"""
from .annotate import analyze_record
from .dd import DDResult, Solver, solve

__all__ = ["DDResult", "Solver", "solve", "analyze_record"]
