"""Comparison benchmarks: rookcore next to established card-game engines.

    pip install -e '.[bench]'                  # endplay (DDS) and open_spiel, pinned in pyproject.toml
    python benchmarks/compare.py               # full run (~13 min wall clock on 2 loaded cores)
    python benchmarks/compare.py --quick       # smoke run (~1.5 min)
    python benchmarks/compare.py --deals 50 --dd-budget 60 --skip playouts

Prints tables and writes benchmarks/compare_results.json (or --out PATH).

(1) Double-dummy, cold full-deal solve from the first lead.
    rookcore: for each rule set in `rookcore.rules.VARIANTS`, seeded deals 0..N-1 brought to the first lead by
    `rookcore.analysis.bench.play_ready` and solved with a fresh `Solver(threads=T)` each (`.solve(state)`: every
    legal card of the leader valued; --threads T, default `rookcore.analysis.dd.default_threads()`: the
    machine's cores, the leads shared out between T search threads). Only the solve is timed (wall:
    perf_counter, CPU: process_time, which adds up the threads' CPU time).
    endplay (the DDS C++ solver, bridge; one thread per board): N random deals (seeded shuffles of 52 cards), random strain
    (4 suits + NT) and random leader, `endplay.dds.solve_board(deal)` (SolveMode.Default: every legal card
    of the leader valued, i.e. the same question). One unsampled warm-up solve first (DDS allocates its
    tables on the first call); DDS resets its transposition table when the deal changes, so each solve is cold.
    Each rule set / engine runs in its own subprocess, so "peak RSS" (resource.getrusage ru_maxrss) is that
    solver's own peak, and the parent can kill a worker that runs over.
    The compiled core is loaded (`rookcore.analysis.dd.warm_up`) before the first timed deal.
    Time limits (the 13/14-trick Rook rule sets can take far longer than 30 s per deal):
      --dd-cap S     a deal still unsolved after S s (wall) is stopped and counted as "capped" (> S s);
                     percentiles include capped deals at +inf, printed as ">S" (so they are lower bounds);
      --dd-budget S  per rule set: no deal is started or continued after S s (wall); a deal cut short by
                     the budget (not by the cap) is dropped, and the row says how many of N were attempted.
(2) Random playouts, one core, from Python: full random hands per second.
    rookcore: `rookcore.playout.random_hands` (deal, random auction, nest, trump, random legal cards, score)
    for CrowsNest, Tournament, Partnership.
    OpenSpiel: `pyspiel.load_game("euchre")` and `pyspiel.load_game("bridge")` (defaults: random auction, then
    the result is scored from a DDS double-dummy table, no card play), plus "bridge(use_double_dummy_result=
    false)" (random auction and random card play, the closer match to a Rook hand): from the initial state,
    chance outcomes sampled by their probabilities, otherwise a uniform random legal action, until terminal.
Wall-clock and CPU-time (time.process_time) rates are both reported: on a loaded machine the CPU figures
show the single-core speed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import helpers  # noqa: E402  (also puts the repo root on sys.path)

from rookcore.rules import VARIANTS  # noqa: E402

INF = float("inf")
NODES_PER_S = 6_000_000  # the compiled DD core's speed here (about 5M nodes/s): the node limit backing up the cap
PLAYOUT_RULE_SETS = ("crowsnest", "tournament", "partnership")
OPENSPIEL_GAMES = ("euchre", "bridge", "bridge(use_double_dummy_result=false)")


# ----- helpers ---------------------------------------------------------------------------------------------

def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (ru_maxrss is KB on Linux, bytes on macOS)."""
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / (2**20 if sys.platform == "darwin" else 2**10)


def summarize(times: list[float]) -> dict:
    """median / p95 / p99 / max in ms of ``times`` (seconds; INF = capped), nearest rank."""
    xs = sorted(times)
    if not xs:
        return {"median_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}

    def ms(v: float):
        return None if v == INF else v * 1e3  # None in JSON = capped (above the cap)
    return {"median_ms": ms(statistics.median(xs)),  # a capped deal (inf) in the middle gives inf
            "p95_ms": ms(helpers.percentile(xs, 0.95)), "p99_ms": ms(helpers.percentile(xs, 0.99)),
            "max_ms": ms(xs[-1])}


class _Stop(Exception):
    pass


def _alarm(_sig, _frame):
    raise _Stop()


# ----- (1) double-dummy workers (run in a subprocess) -------------------------------------------------------

def worker_rook(variant: str, threads: int, deals: int, cap: float, budget: float) -> dict:
    from rookcore.analysis.bench import play_ready
    from rookcore.analysis.dd import SearchLimit, Solver, warm_up

    rules = VARIANTS[variant]
    rss0 = peak_rss_mb()
    wall: list[float] = []
    cpu: list[float] = []
    capped = dropped = 0
    warm_up()  # load the compiled core once (as DDS's library is loaded before its warm-up solve)
    start = time.perf_counter()
    signal.signal(signal.SIGALRM, _alarm)
    for seed in range(deals):
        left = budget - (time.perf_counter() - start)
        if left <= 0:
            break
        limit = min(cap, left)
        st = play_ready(rules, seed)
        c0 = time.process_time()
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            # the alarm lands between null-window searches; the node limit stops one that runs long
            Solver(node_limit=int(limit * NODES_PER_S), threads=threads).solve(st)
            signal.setitimer(signal.ITIMER_REAL, 0)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        except (_Stop, SearchLimit):
            if limit < cap:  # cut by the rule set's budget, not by the per-deal cap: not a sample
                dropped += 1
                break
            capped += 1
            wall.append(INF)
            cpu.append(INF)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return {"engine": "rookcore", "rule_set": variant, "tricks": rules.hand_size, "threads": threads,
            "requested": deals,
            "attempted": len(wall), "solved": len(wall) - capped, "capped": capped,
            "dropped_by_budget": dropped, "not_reached": deals - len(wall) - dropped, "cap_s": cap, "budget_s": budget,
            "elapsed_s": time.perf_counter() - start,
            "wall": summarize(wall), "cpu": summarize(cpu),
            "wall_ms_by_seed": [None if t == INF else round(t * 1e3, 1) for t in wall],  # seeds 0.. (None: capped)
            "solved_wall_mean_ms": statistics.fmean([t for t in wall if t != INF]) * 1e3 if len(wall) > capped else None,
            "rss_after_import_mb": rss0, "peak_rss_mb": peak_rss_mb()}


QUESTIONS = ("bid", "exact10", "marks")
"""The cheaper questions' rows (issue 25): ``bid`` — can the declaring team reach its bid with best play, from the
first lead (`rookcore.analysis.bounds.Prover.decide` with the bid predicate, a fresh `Solver` per deal);
``exact10`` — every legal card's exact value (`Solver.solve`) once 10 tricks are left (seeded random cards from the
first lead until then; the whole deal for 9/10-trick rule sets); ``marks`` — a whole hand played by the rule-based
AI in all four seats from the first lead, analysed with ``analyze_record(record, budget=B)``: the wall time until
every card's mark is proven (the analysis is stopped there: the exact values that follow are not timed), and the
share of cards with a proven mark by then (1.0 unless the budget ran out first)."""


def _ai_hand(rules, seed: int):
    """The record of a hand from `play_ready`'s first lead played by the rule-based AI in every seat."""
    from rookcore.actions import PLAYS  # noqa: F401
    from rookcore.ai.rules_based import RuleBasedPlayer
    from rookcore.analysis.bench import play_ready
    from rookcore.hand import Phase
    from rookcore.records import HandRecord

    st = play_ready(rules, seed)
    player = RuleBasedPlayer(seed=seed)
    while st.phase is Phase.PLAY:
        st.apply(player.decide(st.observation(st.to_act)).action)
    return HandRecord.from_state(st)


class _MarksDone(Exception):
    pass


def worker_question(question: str, variant: str, threads: int, deals: int, cap: float, budget: float) -> dict:
    """One row of `QUESTIONS` for ``variant``: ``deals`` seeded deals, each capped at ``cap`` s (``marks``: the
    analysis budget), the row at ``budget`` s; times as `worker_rook`'s."""
    import random as _random

    from rookcore.actions import PLAYS
    from rookcore.analysis import analyze_record
    from rookcore.analysis.bench import play_ready
    from rookcore.analysis.bounds import bid_question
    from rookcore.analysis.dd import SearchLimit, Solver, warm_up

    rules = VARIANTS[variant]
    wall: list[float] = []
    cpu: list[float] = []
    shares: list[float] = []
    capped = 0
    warm_up()
    start = time.perf_counter()
    for seed in range(deals):
        if time.perf_counter() - start > budget:
            break
        if question == "marks":
            rec = _ai_hand(rules, seed)
            total = sum(len(t) for t in rec.tricks)
            got = [0, None]

            def progress(done, _total, _cards, got=got, t0=None):
                got[0] = done
                if done == total:
                    raise _MarksDone

            c0, t0 = time.process_time(), time.perf_counter()
            try:
                report = analyze_record(rec, budget=cap, progress=progress, solver=Solver(threads=threads))
                got[0] = sum(1 for c in report["cards"] if c["mark"] is not None)
            except _MarksDone:
                pass
            dt = time.perf_counter() - t0
            shares.append(got[0] / total)
            if got[0] < total:
                capped += 1
                wall.append(INF)
                cpu.append(INF)
            else:
                wall.append(dt)
                cpu.append(time.process_time() - c0)
            continue
        st = play_ready(rules, seed)
        if question == "exact10":
            rng = _random.Random(seed)
            while rules.hand_size - len(st.tricks) > 10 or st.trick:
                st.apply(PLAYS[rng.choice(st.legal_cards())])
        solver = Solver(threads=threads)
        solver.set_deadline(cap)
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            if question == "bid":
                bid_question(st, solver)
            else:
                solver.solve(st)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        except SearchLimit:
            capped += 1
            wall.append(INF)
            cpu.append(INF)
        finally:
            solver.set_deadline(None)
    return {"engine": "rookcore", "question": question, "rule_set": variant, "tricks": rules.hand_size,
            "threads": threads, "requested": deals, "attempted": len(wall), "solved": len(wall) - capped,
            "capped": capped, "cap_s": cap, "budget_s": budget, "elapsed_s": time.perf_counter() - start,
            "wall": summarize(wall), "cpu": summarize(cpu),
            "wall_ms_by_seed": [None if t == INF else round(t * 1e3, 1) for t in wall],
            "marked_share": shares or None, "peak_rss_mb": peak_rss_mb()}


def _bridge_deal(seed: int):
    """A seeded random bridge deal with a random strain and leader (endplay Deal)."""
    from endplay.types import Deal, Denom, Player

    rng = random.Random(seed)
    cards = [(s, r) for s in range(4) for r in range(13)]
    rng.shuffle(cards)
    ranks = "AKQJT98765432"
    hands = []
    for h in range(4):
        hand = cards[13 * h: 13 * h + 13]
        hands.append(".".join("".join(ranks[r] for r in sorted(r for s2, r in hand if s2 == s)) for s in range(4)))
    return Deal("N:" + " ".join(hands), first=Player(rng.randrange(4)), trump=Denom(rng.randrange(5)))


def worker_dds(deals: int, cap: float, budget: float) -> dict:
    import endplay
    from endplay.dds import solve_board

    rss0 = peak_rss_mb()
    solve_board(_bridge_deal(10**6))  # warm-up: DDS allocates its memory on the first call
    wall: list[float] = []
    cpu: list[float] = []
    start = time.perf_counter()
    for seed in range(deals):
        if time.perf_counter() - start > budget:
            break
        d = _bridge_deal(seed)
        c0 = time.process_time()
        t0 = time.perf_counter()
        solve_board(d)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return {"engine": f"endplay {endplay.__version__} (DDS) solve_board", "rule_set": "bridge", "tricks": 13,
            "requested": deals, "attempted": len(wall), "solved": len(wall), "capped": 0,
            "dropped_by_budget": 0, "cap_s": None, "budget_s": budget, "elapsed_s": time.perf_counter() - start,
            "wall": summarize(wall), "cpu": summarize(cpu),
            "solved_wall_mean_ms": statistics.fmean(wall) * 1e3 if wall else None,
            "rss_after_import_mb": rss0, "peak_rss_mb": peak_rss_mb()}


def run_worker(args: list[str], timeout: float) -> dict:
    """Run this script as a worker subprocess; its last stdout line is a JSON dict."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"worker timed out after {timeout:.0f} s and was killed"}
    if p.returncode != 0 or not p.stdout.strip():
        return {"error": f"worker failed (rc={p.returncode}): {p.stderr.strip()[-500:]}"}
    return json.loads(p.stdout.strip().splitlines()[-1])


# ----- (2) random playouts ---------------------------------------------------------------------------------

def timed_rate(run_chunk, chunk: int, seconds: float) -> dict:
    """Call ``run_chunk(i)`` (each plays ``chunk`` games) until ``seconds`` of wall clock have passed."""
    run_chunk(-1)  # warm-up
    done = i = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    while True:
        run_chunk(i)
        done += chunk
        i += 1
        wall = time.perf_counter() - t0
        if wall >= seconds:
            cpu = time.process_time() - c0
            return {"games": done, "wall_s": wall, "cpu_s": cpu, "per_s_wall": done / wall,
                    "per_s_cpu": done / cpu if cpu > 0 else None}


def rook_playouts(variant: str, seconds: float) -> dict:
    from rookcore.playout import random_hands

    rules = VARIANTS[variant]
    row = timed_rate(lambda i: random_hands(rules, 100, seed=5000 + i), 100, seconds)
    return {"engine": "rookcore.playout.random_hands", "game": variant, **row}


def openspiel_playouts(spec: str, seconds: float) -> dict:
    import pyspiel

    game = pyspiel.load_game(spec)
    rng = random.Random(7)
    rand = rng.random
    steps = [0]

    def one(_i: int) -> None:
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                r = rand()
                acc = 0.0
                outcomes = s.chance_outcomes()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        action = a
                        break
                s.apply_action(action)
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rand() * len(legal))])
            n += 1
        steps[0] += n
    row = timed_rate(one, 1, seconds)
    params = {k: str(v) for k, v in game.get_parameters().items()}
    return {"engine": f"OpenSpiel {getattr(pyspiel, '__version__', '')}".strip(), "game": spec,
            "parameters": params, "actions_per_game": steps[0] / (row["games"] + 1), **row}


# ----- printing --------------------------------------------------------------------------------------------

def fmt_ms(v, width: int, cap: float | None) -> str:
    if v is None:
        return f"{'>' + format(cap * 1e3, '.0f') if cap else '-':>{width}}"
    return f"{v:>{width},.1f}"


def print_dd_row(r: dict) -> None:
    if "error" in r:
        print(f"{r.get('rule_set', '?'):<20} {r['error']}", flush=True)
        return
    w, c, cap = r["wall"], r["cpu"], r["cap_s"]
    print(f"{r['rule_set']:<20} {r['tricks']:>3} {r['solved']:>4}/{r['attempted']:<4} {r['capped']:>4} "
          + "".join(fmt_ms(w[k], 10, cap) for k in ("median_ms", "p95_ms", "p99_ms", "max_ms"))
          + " |" + "".join(fmt_ms(c[k], 10, cap) for k in ("median_ms", "p95_ms", "p99_ms", "max_ms"))
          + f" {r['peak_rss_mb']:>8.0f} {r['elapsed_s']:>7.0f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, help="deals per rule set / for DDS (default 200, quick 5 / 20)")
    ap.add_argument("--quick", action="store_true", help="smoke run: few deals, short budgets")
    ap.add_argument("--dd-cap", type=float, help="seconds (wall) per Rook deal before it is capped (default 30, quick 5)")
    ap.add_argument("--dd-budget", type=float,
                    help="seconds (wall) of double-dummy solving per rule set (default 95, quick 10)")
    ap.add_argument("--dds-budget", type=float, help="seconds (wall) for the endplay/DDS deals (default 60)")
    ap.add_argument("--seconds", type=float, help="seconds per playout measurement (default 3, quick 0.5)")
    ap.add_argument("--threads", type=int, help="search threads per Rook solve (default: the machine's cores, at most 4)")
    ap.add_argument("--rule-sets", default=",".join(VARIANTS), help="comma list of rule sets for (1)")
    ap.add_argument("--skip", default="", help="comma list of sections to skip: dd,dds,playouts,questions")
    ap.add_argument("--questions", default=",".join(QUESTIONS),
                    help="comma list of the cheaper questions' rows (1b): bid,exact10,marks (QUESTIONS)")
    ap.add_argument("--marks-hands", type=int, help="AI-played hands per rule set for the marks row (default 50, "
                    "quick 3)")
    ap.add_argument("--marks-budget", type=float, default=60.0,
                    help="analysis budget per hand of the marks row, seconds (default 60, the CLI's)")
    ap.add_argument("--out", type=Path, default=HERE / "compare_results.json")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:  # internal: one double-dummy measurement in this (sub)process, JSON on stdout
        kind, *rest = args.worker
        deals, cap, budget = int(rest[-3]), float(rest[-2]), float(rest[-1])
        if kind == "question":
            res = worker_question(rest[0], rest[1], int(rest[2]), deals, cap, budget)
        else:
            res = (worker_rook(rest[0], int(rest[1]), deals, cap, budget) if kind == "rook"
                   else worker_dds(deals, cap, budget))
        print(json.dumps(res))
        return 0

    deals = args.deals or (5 if args.quick else 200)
    dds_deals = args.deals or (20 if args.quick else 200)
    cap = args.dd_cap or (5.0 if args.quick else 30.0)
    budget = args.dd_budget or (10.0 if args.quick else 95.0)
    dds_budget = args.dds_budget or (10.0 if args.quick else 60.0)
    seconds = args.seconds or (0.5 if args.quick else 3.0)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    rule_sets = [s.strip() for s in args.rule_sets.split(",") if s.strip()]
    from rookcore.analysis.dd import default_threads  # noqa: PLC0415 - after sys.path is set
    threads = args.threads or default_threads()

    try:
        git = subprocess.run(["git", "-C", str(helpers.ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(helpers.ROOT), "status", "--porcelain", "--", "rookcore"],
                               capture_output=True, text=True).stdout.split()[1::2]
    except OSError:
        git, dirty = None, []
    load = os.getloadavg()
    results: dict = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "python": platform.python_version(),
        "machine": platform.machine(), "cpus": os.cpu_count(), "loadavg_at_start": load, "git": git,
        "rookcore_uncommitted": dirty, "quick": args.quick,
        "settings": {"deals": deals, "dds_deals": dds_deals, "dd_cap_s": cap, "dd_budget_s": budget,
                     "dds_budget_s": dds_budget, "playout_seconds": seconds, "threads": threads},
    }
    if load[0] > 0.5:
        print(f"note: load average {load[0]:.2f} on {os.cpu_count()} CPUs — other processes compete for the "
              "cores; wall-clock figures are inflated, the CPU columns show single-core cost.\n")
    t_start = time.perf_counter()

    # (1) double-dummy
    dd_rows: list[dict] = []
    if "dd" not in skip or "dds" not in skip:
        print(f"(1) Double-dummy, cold full-deal solve from the first lead, every legal lead valued "
              f"({deals} deals per Rook rule set, {threads} search thread(s) per solve, cap {cap:g} s/deal, "
              f"budget {budget:g} s/rule set; "
              f"{dds_deals} bridge deals for DDS, budget {dds_budget:g} s)")
        header = (f"{'rule set':<20} {'trk':>3} {'solved':>9} {'cap':>4} {'wall med':>10}{'p95':>10}{'p99':>10}"
                  f"{'max':>10} |{'cpu med':>10}{'p95':>10}{'p99':>10}{'max':>10} {'peakMB':>8} {'time s':>7}")
        print(header + "\n" + "-" * len(header), flush=True)
        if "dd" not in skip:
            for name in rule_sets:
                r = run_worker(["rook", name, str(threads), str(deals), str(cap), str(budget)],
                               timeout=budget + cap + 120)
                r.setdefault("rule_set", name)
                dd_rows.append(r)
                print_dd_row(r)
        if "dds" not in skip:
            r = run_worker(["dds", str(dds_deals), "0", str(dds_budget)], timeout=dds_budget + 300)
            r.setdefault("rule_set", "bridge (endplay DDS)")
            if "error" not in r:
                r["rule_set"] = "bridge (endplay DDS)"
            dd_rows.append(r)
            print_dd_row(r)
        print("times in ms per deal (solve only); solved = solved / attempted (a deal cut short by the rule set's budget is dropped, not counted); cap = deals "
              f"stopped at the {cap:g} s cap (counted as +inf, shown as '>{cap * 1e3:.0f}'); peakMB = ru_maxrss "
              "of that worker process; time s = wall clock spent on the row\n", flush=True)
    results["double_dummy"] = dd_rows

    # (1b) the cheaper questions (issue 25), same run
    q_rows: list[dict] = []
    if "questions" not in skip:
        marks_hands = args.marks_hands or (3 if args.quick else 50)
        print(f"(1b) Cheaper questions ({deals} deals per rule set for bid / exact10, cap {cap:g} s/deal; "
              f"{marks_hands} AI-played hands for marks, analysis budget {args.marks_budget:g} s/hand; "
              f"{threads} search thread(s))")
        header = (f"{'question':<8} {'rule set':<20} {'trk':>3} {'done':>9} {'cap':>4} {'wall med':>10}{'p95':>10}"
                  f"{'p99':>10}{'max':>10} |{'cpu med':>10}{'p95':>10}{'p99':>10}{'max':>10} {'peakMB':>8} "
                  f"{'time s':>7}")
        print(header + "\n" + "-" * len(header), flush=True)
        for question in [q.strip() for q in args.questions.split(",") if q.strip()]:
            for name in rule_sets:
                n, qcap = (marks_hands, args.marks_budget) if question == "marks" else (deals, cap)
                r = run_worker(["question", question, name, str(threads), str(n), str(qcap), str(budget)],
                               timeout=budget + qcap + 120)
                r.setdefault("rule_set", name)
                q_rows.append(r)
                print(f"{question:<8} ", end="")
                print_dd_row(r)
        print("bid: the bid question from the first lead; exact10: every card's exact value with 10 tricks left; "
              "marks: an AI-played hand analysed with the budget, until every card's mark is proven (cap = "
              "hands whose marks were not all proven within the budget)\n", flush=True)
    results["questions"] = q_rows

    # (2) random playouts
    po_rows: list[dict] = []
    if "playouts" not in skip:
        print(f"(2) Random full hands per second, one core, from Python (~{seconds:g} s each)")
        header = f"{'engine':<32} {'game':<40} {'games':>7} {'wall /s':>10} {'cpu /s':>10}"
        print(header + "\n" + "-" * len(header), flush=True)
        jobs = [(rook_playouts, v) for v in PLAYOUT_RULE_SETS] + [(openspiel_playouts, g) for g in OPENSPIEL_GAMES]
        for fn, what in jobs:
            try:
                r = fn(what, seconds)
            except Exception as exc:  # noqa: BLE001 - e.g. open_spiel not installed: report, go on
                r = {"engine": fn.__name__, "game": what, "error": f"{type(exc).__name__}: {exc}"}
            po_rows.append(r)
            if "error" in r:
                print(f"{r['engine']:<32} {r['game']:<40} {r['error']}", flush=True)
            else:
                print(f"{r['engine']:<32} {r['game']:<40} {r['games']:>7,} {r['per_s_wall']:>10,.1f} "
                      f"{r['per_s_cpu']:>10,.1f}", flush=True)
        print("OpenSpiel 'bridge' (default parameters) ends after the random auction and scores it from a DDS "
              "double-dummy table (20 solves per game); 'use_double_dummy_result=false' plays the cards "
              "randomly instead.\n")
    results["playouts"] = po_rows

    results["total_wall_s"] = time.perf_counter() - t_start
    results["loadavg_at_end"] = os.getloadavg()
    helpers.write_results(args.out, results)
    print(f"total {results['total_wall_s']:.0f} s wall; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
