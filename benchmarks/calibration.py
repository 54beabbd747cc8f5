"""How well the strong AI's stated chance that the bid is made matches what happens (its explanations' honesty).

    python benchmarks/calibration.py                     # 60 CrowsNest deals, strong AI in all four seats, 2 processes
    python benchmarks/calibration.py --deals 200 --variant tournament --workers 2 --json out.json

Every card the strong AI chooses with a note "bid made P%" (its sampled deals, `rookcore.ai.sampling`) is paired
with whether the declaring team then made its bid. Printed per side (declaring team, defenders) and stage of the
hand (tricks 1–3, 4–6, 7 on): how many cards, the mean stated chance, the share of those hands actually made, and
the Brier score (mean squared gap; 0 is perfect). A mean stated chance far from the share made means the AI's
sentences ("Y7 makes the bid 26% of the time") mislead a learner, and that its beliefs about the hidden hands are
off. Passed-out deals are skipped. Wall time: ~2–3 s a deal per process on this machine.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from rookcore import HandState, Phase, get_rules  # noqa: E402
from rookcore.ai import LEVELS  # noqa: E402
from rookcore.ai.sampling import rollout  # noqa: E402

NOTE = re.compile(r"bid made (\d+)%")
STAGES = ((0, 3, "tricks 1–3"), (3, 6, "tricks 4–6"), (6, 99, "tricks 7 on"))


def deal_rows(variant: str, seed: int) -> list[tuple[bool, int, float, bool]]:
    """Play deal ``seed`` of ``variant`` (dealer ``seed % 4``) with the strong AI in every seat. Returns one row
    per card chosen with a "bid made P%" note: (the seat is on the declaring team, tricks done before it, P / 100,
    the bid was made); [] for a passed-out deal. Raises RuntimeError if no card note has the expected form
    (the note's wording changed)."""
    return play_deal(variant, seed)[0]


def play_deal(variant: str, seed: int, rollouts: int = 0) -> tuple[list, tuple[float, bool] | None]:
    """`deal_rows` of deal ``seed``, and (the share of ``rollouts`` greedy rollouts (`rookcore.ai.sampling.rollout`,
    the strong AI's early-hand evaluation) from the deal's true first lead, all cards known, that make the bid,
    whether the players made it) — what the rollouts alone make of the real position; None for no rollouts or a
    passed-out deal."""
    state = HandState.deal(get_rules(variant), seed % 4, seed)
    players = [LEVELS["strong"](seed=s) for s in range(4)]
    seen = []
    notes = 0
    made_by_rollouts = []
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act
        if state.phase is Phase.PLAY and not state.tricks and not state.trick and not made_by_rollouts:
            for _ in range(rollouts):
                trial = rollout(state.clone(), rng)
                made_by_rollouts.append(trial.captured[trial.declarer & 1] >= trial.high_bid)
        d = players[seat].decide(state.observation(seat))
        if d.kind == "play" and len(d.candidates) > 1:
            notes += 1
            m = NOTE.search(next(c.note for c in d.candidates if c.action == d.action))
            if m:
                seen.append((seat, len(state.tricks), int(m[1]) / 100))
        state.apply(d.action)
    if state.passed_out:
        return [], None
    if notes and not seen:
        raise RuntimeError("no strong-AI card note says 'bid made P%': update NOTE")
    team = state.declarer & 1
    share = (sum(made_by_rollouts) / len(made_by_rollouts), bool(state.made)) if made_by_rollouts else None
    return [((seat & 1) == team, tricks, p, bool(state.made)) for seat, tricks, p in seen], share


def summary(rows) -> list[dict]:
    """Per side and stage: cards, mean stated chance, share made, Brier score (dicts, in print order)."""
    out = []
    for declaring in (True, False):
        for lo, hi, stage in STAGES:
            sel = [(p, made) for d, t, p, made in rows if d == declaring and lo <= t < hi]
            if sel:
                n = len(sel)
                out.append({"side": "declaring team" if declaring else "defenders", "stage": stage, "cards": n,
                            "stated": sum(p for p, _ in sel) / n, "made": sum(m for _, m in sel) / n,
                            "brier": sum((p - m) ** 2 for p, m in sel) / n})
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module doc). Returns the exit code (0)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="crowsnest")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0, help="first deal's seed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rollouts", type=int, default=20,
                    help="greedy rollouts from each deal's true first lead (0: none)")
    ap.add_argument("--json", default=None, help="also write the rows' summary here")
    args = ap.parse_args(argv)
    seeds = range(args.seed, args.seed + args.deals)
    rows, shares = [], []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        jobs = pool.map(play_deal, [args.variant] * args.deals, seeds, [args.rollouts] * args.deals)
        for part, share in tqdm(jobs, total=args.deals, desc="deals", unit="deal"):
            rows.extend(part)
            if share is not None:
                shares.append(share)
    table = summary(rows)
    print(f"{args.variant}, {args.deals} deals (seeds {args.seed}–{args.seed + args.deals - 1}), strong AI in "
          "every seat: the stated chance that the bid is made against the share of hands made")
    print(f"{'side':<15} {'stage':<12} {'cards':>6} {'stated':>7} {'made':>6} {'Brier':>6}")
    for r in table:
        print(f"{r['side']:<15} {r['stage']:<12} {r['cards']:>6} {r['stated']:>7.2f} {r['made']:>6.2f} "
              f"{r['brier']:>6.3f}")
    rollout_made = sum(r for r, _ in shares) / len(shares) if shares else None
    if shares:
        print(f"greedy rollouts from the true first lead ({args.rollouts} a deal, {len(shares)} deals) make the bid "
              f"{rollout_made:.2f} of the time; the strong players made {sum(m for _, m in shares) / len(shares):.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"variant": args.variant, "deals": args.deals, "seed": args.seed,
                                               "summary": table, "rollout_made": rollout_made}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
