"""Benchmarks of rookcore: random-hand throughput, AI decision time, memory.

    python benchmarks/run.py            # full run (~2 s × 3 runs per rule set and path, AI over 200 hands)
    python benchmarks/run.py --quick    # smoke run (a few seconds)

Prints a table and writes benchmarks/results.json (or --out PATH).

(a) random full hands per second through `rookcore.playout` (deal, random auction, nest pick-up and random
    discard, random trump, every trick with random legal cards, count and score), per rule set, one core:
    best and median of N timed runs;
(b) the same random policy through the HandState API (deal / legal_actions / apply / score);
(c) AI decision time (median / p95 / p99 of every ``decide`` call) for each level in `rookcore.ai.LEVELS`
    over self-play hands (skipped with a note if rookcore.ai does not import);
(d) memory: resident MB of a process that plays one full game through HandState and the AI (placeholder for
    the app-kernel measurement);
(e) the kept game (`rookcore.saved`): save time after every learner action and load time (with its replay check)
    over whole games against the rule-based AIs.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import helpers  # noqa: E402  (also puts the repo root on sys.path)

from rookcore.rules import VARIANTS, get_rules  # noqa: E402

TARGET = 10_000  # hands/s the fast path must reach on one core


def rule_sets() -> dict:
    sets = dict(VARIANTS)
    sets["crowsnest (no bird)"] = get_rules("crowsnest", {"bird": False})
    return sets


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fast smoke run (short timings, few AI hands)")
    ap.add_argument("--seconds", type=float, help="seconds per timed run (default 2, quick 0.2)")
    ap.add_argument("--runs", type=int, help="timed runs per measurement (default 3, quick 1)")
    ap.add_argument("--ai-hands", type=int, help="self-play hands per AI level (default 200, quick 10)")
    ap.add_argument("--ai-budget", type=float, default=120.0, help="max seconds of self-play per AI level")
    ap.add_argument("--ai-variant", default="crowsnest", help="rule set for the AI timing and memory game")
    ap.add_argument("--skip", default="", help="comma list of sections to skip: fast,api,ai,memory,keep")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results.json")
    args = ap.parse_args(argv)
    seconds = args.seconds or (0.2 if args.quick else 2.0)
    runs = args.runs or (1 if args.quick else 3)
    ai_hands = args.ai_hands or (10 if args.quick else 200)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}

    results: dict = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "python": platform.python_version(),
        "machine": platform.machine(), "processor": platform.processor() or platform.uname().machine,
        "quick": args.quick, "seconds_per_run": seconds, "runs": runs, "target_hands_per_s": TARGET,
    }
    sets = rule_sets()
    try:
        load = os.getloadavg()
    except OSError:  # pragma: no cover - not on every platform
        load = None
    results["loadavg_at_start"] = load
    results["cpus"] = os.cpu_count()
    if load and load[0] > 0.5:
        print(f"note: load average {load[0]:.2f} on {os.cpu_count()} CPUs — other processes compete for the "
              "cores, so wall-clock rates are low; the 'cpu' columns show the single-core speed.\n")

    # (a) + (b) throughput
    rows = []
    if not {"fast", "api"} <= skip:
        print(f"Random full hands per second, one core ({runs} run(s) of {seconds:g} s; best / median)")
        header = (f"{'rule set':<22} {'fast best':>10} {'fast med':>10} {'fast cpu':>10} {'api best':>9} "
                  f"{'api med':>9} {'api cpu':>9} {'speed-up':>8}")
        print(header)
        print("-" * len(header))
        nan = float("nan")
        for name, rules in sets.items():
            row: dict = {"rule_set": name}
            if "fast" not in skip:
                row["fast"] = helpers.fast_path(rules, seconds, runs)
            if "api" not in skip:
                row["api"] = helpers.api_path(rules, seconds, runs)
            rows.append(row)
            f = row.get("fast", {})
            a = row.get("api", {})
            ratio = f["cpu_best"] / a["cpu_best"] if f and a else nan
            print(f"{name:<22} {f.get('best', nan):>10,.0f} {f.get('median', nan):>10,.0f} "
                  f"{f.get('cpu_best', nan):>10,.0f} {a.get('best', nan):>9,.0f} {a.get('median', nan):>9,.0f} "
                  f"{a.get('cpu_best', nan):>9,.0f} {ratio:>7.1f}x", flush=True)
        print("best/med: wall-clock hands/s (best and median run); cpu: best run by this process's CPU time "
              "(differs from wall clock when other processes share the cores)")
        if "fast" not in skip:
            for label, key in (("wall clock", "best"), ("CPU time", "cpu_best")):
                slow = [r["rule_set"] for r in rows if r["fast"][key] < TARGET]
                print(f"target {TARGET:,} hands/s (fast path, {label}): "
                      + ("met by every rule set" if not slow else "NOT met by " + ", ".join(slow)))
        print()
    results["throughput"] = rows

    # (c) AI decision time
    if "ai" not in skip:
        print(f"AI decision time ({args.ai_variant}, {ai_hands} self-play hands per level, decide() only)")
        ai = helpers.ai_decision_times(get_rules(args.ai_variant), ai_hands, args.ai_budget)
        if isinstance(ai, str):
            print("  " + ai)
        else:
            header = f"{'level':<12} {'decisions':>9} {'hands':>6} {'median ms':>10} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}"
            print(header)
            print("-" * len(header))
            for level, r in ai.items():
                if "median_ms" not in r:
                    print(f"{level:<12} {r.get('error')}")
                    continue
                print(f"{level:<12} {r['decisions']:>9} {r['hands']:>6} {r['median_ms']:>10.3f} "
                      f"{r['p95_ms']:>8.3f} {r['p99_ms']:>8.3f} {r['max_ms']:>8.3f}")
                if "error" in r:
                    print(f"{'':<12} stopped early: {r['error']}")
        results["ai"] = ai
        print()

    # (d) memory
    if "memory" not in skip:
        mem = helpers.app_memory(args.ai_variant)
        results["memory"] = mem
        if "error" in mem:
            print(f"Memory: failed ({mem['error']})")
        else:
            peak = f", peak {mem['peak_rss_mb']:.1f} MB" if mem.get("peak_rss_mb") else ""
            print(f"Memory ({mem['what']}): {mem['rss_mb']:.1f} MB resident{peak} "
                  f"(fresh kernel {mem['rss_kernel_start_mb']:.1f} MB; target < 300 MB)")
        print()

    # (e) keeping the app's game for the next visit
    if "keep" not in skip:
        games = 1 if args.quick else 5
        k = helpers.kept_game_times(get_rules(args.ai_variant), games)
        results["kept_game"] = k
        print(f"Kept game ({args.ai_variant}, {games} game(s), saved after each of {k['saves']} learner actions): "
              f"save median {k['save_median_ms']:.2f} ms, p95 {k['save_p95_ms']:.2f}, p99 {k['save_p99_ms']:.2f}; "
              f"load with its replay check median {k['load_median_ms']:.2f} ms, p99 {k['load_p99_ms']:.2f} "
              f"({k['loads']} loads); file at most {k['max_kib']:.0f} KiB")
        print()

    helpers.write_results(args.out, results)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
