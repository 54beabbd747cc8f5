"""Time `rookcore.stats.simulate` over many deals (default: 1,000 CrowsNest deals, rule-based AI, all cores).

    python benchmarks/stats_bench.py                      # 1,000 deals, local process scheduler
    python benchmarks/stats_bench.py --deals 200 --workers 1
    python benchmarks/stats_bench.py --scheduler tcp://127.0.0.1:8786

Prints the wall-clock seconds (time.perf_counter around the whole call, process start-up included),
deals per second, and the run summary. Target: 1,000 CrowsNest deals in <= 60 s on 2 cores.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rookcore.stats import simulate  # noqa: E402

TARGET_SECONDS = 60.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="crowsnest")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="rules")
    ap.add_argument("--workers", type=int, default=None, help=f"processes (default {os.cpu_count()})")
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--scheduler", default=None, help="dask.distributed scheduler address")
    ap.add_argument("--quiet", action="store_true", help="print only the seconds")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    stats = simulate(args.variant, args.deals, args.seed, level=args.level, client=args.scheduler,
                     workers=args.workers, chunk=args.chunk)
    secs = time.perf_counter() - t0
    if args.quiet:
        print(f"{secs:.2f}")
        return 0
    print(f"{args.deals} {args.variant} deals, AI {args.level}, workers {args.workers or os.cpu_count()}: "
          f"{secs:.2f} s ({args.deals / secs:.1f} deals/s; target <= {TARGET_SECONDS:.0f} s for 1,000)")
    print(stats.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
