"""How well the strong AI's stated chance that the bid is made matches what happens (its explanations' honesty).

    python benchmarks/calibration.py                     # 60 CrowsNest deals, strong AI in all four seats, 2 processes
    python benchmarks/calibration.py --deals 200 --variant tournament --workers 2 --json out.json
    python benchmarks/calibration.py --deals 300 --seed 20000 --fit fit.json   # fit the calibration map's coefficients

Every card the strong AI chooses with a note "bid made P%" (its sampled deals, `rookcore.ai.sampling`) is paired
with whether the declaring team then made its bid. Printed per side (declaring team, defenders) and stage of the
hand (tricks 1–3, 4–6, 7 on): how many cards, the mean stated chance, the share of those hands actually made, and
the Brier score (mean squared gap; 0 is perfect). Then the Brier score at the start of play (tricks 1–3, both
sides: the target is ≤ 0.10) and a reliability table: the stated chances in ten bins (0–10 %, …, 90–100 %), each
with its cards, mean stated chance and share made (a calibrated AI's two columns agree). A mean stated chance far
from the share made means the AI's sentences ("Y7 makes the bid 26% of the time") mislead a learner, and that its
beliefs about the hidden hands are off. Passed-out deals are skipped. Wall time: ~2–3 s a deal per process.

The note also gives the raw share of the sampled deals that make the bid and the points the seat's side is expected
to capture; ``--fit FILE`` fits the calibration map of `rookcore.ai.sampling` (a logistic model of the chance made
from the raw share, the expected points against the bid, the stage and the side, `calibration_features`) on the
deals played and writes its coefficients: fit on some seeds, measure on others.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from rookcore import HandState, Phase, get_rules  # noqa: E402
from rookcore.ai import LEVELS  # noqa: E402
from rookcore.ai.sampling import calibration_features, rollout  # noqa: E402

NOTE = re.compile(r"expected (\d+) points captured, bid made (\d+)%(?: \((\d+)% of )?")
STAGES = ((0, 3, "tricks 1–3"), (3, 6, "tricks 4–6"), (6, 99, "tricks 7 on"))
START = 3
"""Tricks done before a card of the "start of play" (tricks 1–3), where the Brier target (≤ 0.10) is measured."""


class Row(NamedTuple):
    """One card chosen with a "bid made P%" note: the seat is on the declaring team; tricks done before it; the
    stated chance (0..1); the bid was made; the raw share of sampled deals that made it (0..1; the stated chance
    when the note gives no share); the points the seat's side was expected to capture; the bid; the hand's tricks;
    the points of a hand."""

    declaring: bool
    tricks: int
    stated: float
    made: bool
    raw: float
    points: float
    bid: int
    hand_size: int
    per_hand: int


def deal_rows(variant: str, seed: int) -> list[Row]:
    """Play deal ``seed`` of ``variant`` (dealer ``seed % 4``) with the strong AI in every seat. Returns one `Row`
    per card chosen with a "bid made P%" note; [] for a passed-out deal. Raises RuntimeError if no card note has
    the expected form (the note's wording changed)."""
    return play_deal(variant, seed)[0]


def play_deal(variant: str, seed: int, rollouts: int = 0) -> tuple[list[Row], tuple[float, bool] | None]:
    """`deal_rows` of deal ``seed``, and (the share of ``rollouts`` greedy rollouts (`rookcore.ai.sampling.rollout`,
    the strong AI's early-hand evaluation) from the deal's true first lead, all cards known, that make the bid,
    whether the players made it) — what the rollouts alone make of the real position; None for no rollouts or a
    passed-out deal."""
    rules = get_rules(variant)
    state = HandState.deal(rules, seed % 4, seed)
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
                stated = int(m[2]) / 100
                seen.append((seat, len(state.tricks), stated, int(m[3]) / 100 if m[3] else stated, int(m[1])))
        state.apply(d.action)
    if state.passed_out:
        return [], None
    if notes and not seen:
        raise RuntimeError("no strong-AI card note says 'expected N points captured, bid made P%': update NOTE")
    team = state.declarer & 1
    share = (sum(made_by_rollouts) / len(made_by_rollouts), bool(state.made)) if made_by_rollouts else None
    return [Row((seat & 1) == team, tricks, p, bool(state.made), raw, points, state.high_bid, rules.hand_size,
                rules.points_per_hand) for seat, tricks, p, raw, points in seen], share


def summary(rows: list[Row]) -> list[dict]:
    """Per side and stage: cards, mean stated chance, share made, Brier score (dicts, in print order)."""
    out = []
    for declaring in (True, False):
        for lo, hi, stage in STAGES:
            sel = [(r.stated, r.made) for r in rows if r.declaring == declaring and lo <= r.tricks < hi]
            if sel:
                out.append({"side": "declaring team" if declaring else "defenders", "stage": stage,
                            **_scores(sel)})
    return out


def _scores(pairs: list[tuple[float, bool]]) -> dict:
    n = len(pairs)
    return {"cards": n, "stated": sum(p for p, _ in pairs) / n, "made": sum(m for _, m in pairs) / n,
            "brier": sum((p - m) ** 2 for p, m in pairs) / n}


def start_brier(rows: list[Row], raw: bool = False) -> dict | None:
    """The start of play (tricks 1–3, both sides): cards, mean stated chance, share made, Brier score; with
    ``raw`` the raw shares of the sampled deals instead of the stated chances. None without such cards."""
    sel = [(r.raw if raw else r.stated, r.made) for r in rows if r.tricks < START]
    return _scores(sel) if sel else None


def reliability(rows: list[Row], bins: int = 10) -> list[dict]:
    """The stated chances in ``bins`` equal bins of [0, 1] (the top bin holds 1.0): for each bin with cards, its
    range, cards, mean stated chance and share made (dicts, lowest bin first)."""
    out = []
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        sel = [(r.stated, r.made) for r in rows if lo <= r.stated < hi or (k == bins - 1 and r.stated == 1.0)]
        if sel:
            s = _scores(sel)
            out.append({"bin": f"{100 * lo:.0f}–{100 * hi:.0f}%", "cards": s["cards"], "stated": s["stated"],
                        "made": s["made"]})
    return out


def fit(rows: list[Row], iterations: int = 25, ridge: float = 1e-3) -> list[float]:
    """Fit the calibration map's coefficients on ``rows``: a logistic regression (Newton's method, a small ridge
    ``ridge`` on every coefficient but the intercept) of the bid made on `calibration_features` of each row's raw
    share, expected points, bid, stage and side. Returns the coefficients (intercept first), in the order of the
    features. Raises ValueError for no rows."""
    import numpy as np  # noqa: PLC0415 - only the fit needs it

    if not rows:
        raise ValueError("no rows to fit")
    x = np.array([[1.0, *calibration_features(r.raw, r.points, r.bid, r.tricks, r.hand_size, r.per_hand,
                                              r.declaring)] for r in rows])
    y = np.array([float(r.made) for r in rows])
    w = np.zeros(x.shape[1])
    reg = ridge * np.eye(x.shape[1])
    reg[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + reg @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return [float(v) for v in w]


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
    ap.add_argument("--fit", default=None, help="fit the calibration map on these deals and write it here")
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
    start, start_raw = start_brier(rows), start_brier(rows, raw=True)
    if start:
        print(f"start of play (tricks 1–3, both sides): {start['cards']} cards, stated {start['stated']:.2f}, made "
              f"{start['made']:.2f}, Brier {start['brier']:.3f} (target ≤ 0.10; the raw shares of the sampled deals: "
              f"{start_raw['stated']:.2f}, Brier {start_raw['brier']:.3f})")
    rel = reliability(rows)
    print("reliability (every card): stated chance bin, cards, mean stated, share made")
    for r in rel:
        print(f"  {r['bin']:>8} {r['cards']:>6} {r['stated']:>7.2f} {r['made']:>6.2f}")
    rollout_made = sum(r for r, _ in shares) / len(shares) if shares else None
    if shares:
        print(f"greedy rollouts from the true first lead ({args.rollouts} a deal, {len(shares)} deals) make the bid "
              f"{rollout_made:.2f} of the time; the strong players made {sum(m for _, m in shares) / len(shares):.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"variant": args.variant, "deals": args.deals, "seed": args.seed,
                                               "summary": table, "start": start, "start_raw": start_raw,
                                               "reliability": rel, "rollout_made": rollout_made}, indent=1))
    if args.fit:
        coefficients = fit(rows)
        Path(args.fit).write_text(json.dumps({"variant": args.variant, "deals": args.deals, "seed": args.seed,
                                              "rows": len(rows), "coefficients": coefficients}, indent=1))
        print(f"calibration map fitted on {len(rows)} cards: {', '.join(f'{c:.4f}' for c in coefficients)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
