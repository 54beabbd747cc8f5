"""How each AI level bids and partners: the faults card players hold against trick-taking bots (issue 32, item 3).

    python benchmarks/ai_behaviour.py                          # every level and rule set, 40 mirrored deals each
    python benchmarks/ai_behaviour.py --levels strong --variants crowsnest,tournament --deals 200 --json out.json
    python benchmarks/ai_behaviour.py --positions 0 --deals 200 # the made rate alone (no end-of-game games)

Each deal (seed K, dealer K mod 4) is played twice with the level measured ("L") as one team and the rule-based AI
(``--opponent``) as the other, the teams swapped the second time, as the arena does. Every count below is taken from
the hand records (`rookcore.records.HandRecord`, replayed by the engine), and only from the choices of L's seats:

* **declared / made / set by more than 30**: hands in which an L seat won the auction; of those, the hands its team
  made (captured at least the bid, rules.md §1.7), and the hands it was set by more than 30 points (the bid minus
  what the declaring team captured > 30). Also the mean winning bid and the mean points captured by the declarers.
* **overtakes a sure winner**: an L seat is to play, its partner's card is winning the trick so far, and that card is
  a *sure winner*: no card the L seat cannot see (not in its hand, not played, not its own discard) would beat it if
  an opponent still to play in this trick played it, leaving out the colours (effective suits) that opponent has
  shown void in (rules.md §1.5: a card not following the led suit, the bird's privilege aside, shows a void); when
  the L seat plays last, every winning partner card is sure. The seat *overtakes* when its card becomes the trick's
  winning card (it trumps, or plays higher in the led suit). Counted only when it held a legal card that would not
  overtake (a forced overtake is not a choice). Rate = overtakes / such choices.
* **gives counters**: an L seat plays a counter (a card worth points) that does not become the trick's winning card
  when played, to a trick the opponents take, while it held a legal card worth fewer points. Points given = the
  card's points minus the fewest points of its legal cards. Rate = such cards / L cards played to tricks the
  opponents took with such a choice of points; "could head" counts the gifts made while a legal card would have
  become the trick's winning card (trumping or overtaking was possible, the complaint in issue 32).
* **end of a game, where a set would lose it**: the same deals played as the first hand of a game's end, with L's
  team and the opponents at running scores where the opponents (at target − P/4, P the points of a hand) reach the
  target on any set of a bid up to 3P/4: ``ahead`` (L's team at target − P/8), ``level`` (both at target − P/4) and
  ``behind`` (L's team at target − P/2). Every player is told the running score (``game_score``); the game is played
  to its end (at most 8 hands). Reported: how often L's team won the first hand's auction, its mean bid and made
  share there, how many games it lost on a set of its own bid, and the share of games it won. Compare with the same
  deals at 0–0 (the ``declared`` columns): a player that knows the score bids more carefully when a set loses.
* **decision time**: wall time and CPU time of every ``decide`` of an L seat in the hands at 0–0 (median and p99,
  ms), with ``--workers`` processes sharing the machine (state the load: wall time grows with it, CPU time less).

Output: a table per section and, with ``--json FILE``, every count; ``--records DIR`` also writes each hand's
record (rook-hand/1, the L team in ``meta``). Wall time: the strong level takes ~3 s a mirrored deal per process on
CrowsNest (longer hands take longer), ~8 s with the end-of-game games.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rookcore import records  # noqa: E402
from rookcore.actions import Play  # noqa: E402
from rookcore.game import Game  # noqa: E402
from rookcore.hand import HandState, Phase, trick_tables, trick_winner  # noqa: E402
from rookcore.rules import VARIANTS, Rules, get_rules  # noqa: E402

LEVEL_ORDER = ("random", "rules", "strong")
POSITIONS = ("ahead", "level", "behind")
MAX_GAME_HANDS = 8
SET_BY = 30


def position_scores(rules: Rules, position: str) -> tuple[int, int]:
    """(L's team, the opponents) running scores, in points, for an end-of-game ``position`` (see the module doc):
    the opponents at target − P/4 and L's team at target − P/8 (ahead), − P/4 (level) or − P/2 (behind), P the
    points of a hand, each rounded down to a multiple of 5. Raises KeyError for an unknown position."""
    p, t = rules.points_per_hand, rules.target
    us = {"ahead": p // 8, "level": p // 4, "behind": p // 2}[position]
    return t - us // 5 * 5, t - p // 4 // 5 * 5


# ----------------------------------------------------------------------------------------------- facts of a record
@dataclass
class Facts:
    """Counts from the hands of L's team (see the module doc); every field a count or a sum of points."""

    hands: int = 0
    declared: int = 0
    made: int = 0
    set: int = 0
    set_by_30: int = 0
    bid_sum: int = 0
    captured_sum: int = 0
    sure_choices: int = 0
    overtakes: int = 0
    forced_overtakes: int = 0
    gift_choices: int = 0
    gifts: int = 0
    gift_points: int = 0
    gifts_could_head: int = 0

    def add(self, other: "Facts") -> None:
        """Add ``other``'s counts to these."""
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def _unseen(obs) -> list:
    """Cards the observer cannot place: not in its hand, not played, not its own discard."""
    from rookcore.ai.worlds import unknown_cards  # noqa: PLC0415

    return unknown_cards(obs)


def sure_winner(state: HandState, seat: int) -> bool:
    """Whether ``seat`` (to play) sees its partner's card winning the trick so far as a sure winner: no card it
    cannot see would beat it from an opponent still to play, leaving out the effective suits that opponent has
    shown void in (the module doc). False when the partner has not played or is not winning."""
    from rookcore.ai.worlds import shown_voids  # noqa: PLC0415

    trick = list(state.trick)
    if len(trick) < 2:
        return False
    tables = state.tables
    best = trick_winner(tables, trick)
    if (state.trick_leader + best) % 4 != (seat + 2) % 4:
        return False
    later = [(state.trick_leader + i) % 4 for i in range(len(trick) + 1, 4)]
    if not later:
        return True
    obs = state.observation(seat)
    voids = shown_voids(obs)
    for card in _unseen(obs):
        for opp in later:
            if tables.suit[card] in voids[opp]:
                continue
            if trick_winner(tables, trick + [card]) == len(trick):
                return False
    return True


def play_facts(state: HandState, seat: int, card, winner_seat: int) -> Facts:
    """The partner-play counts of ``seat`` playing ``card`` in ``state`` (before the card), in a trick that
    ``winner_seat`` takes. Returns a `Facts` with only the play fields set."""
    f = Facts()
    tables, pts = state.tables, state.rules.card_points
    trick = list(state.trick)
    legal = state.legal_cards()
    pos = len(trick)

    def heads(c) -> bool:
        return trick_winner(tables, trick + [c]) == pos

    if trick and sure_winner(state, seat):
        if all(heads(c) for c in legal):
            f.forced_overtakes += heads(card)
        else:
            f.sure_choices += 1
            f.overtakes += heads(card)
    if (winner_seat & 1) != (seat & 1):
        fewest = min(pts[c] for c in legal)
        if fewest < max(pts[c] for c in legal):
            f.gift_choices += 1
            if pts[card] > fewest and not heads(card):
                f.gifts += 1
                f.gift_points += pts[card] - fewest
                f.gifts_could_head += any(heads(c) for c in legal)
    return f


def record_facts(record: records.HandRecord, team: int) -> Facts:
    """The counts of L's ``team`` (0 = N–S, 1 = E–W) in one hand record, from its replay by the engine (every
    state before each step). Returns a `Facts`. Raises RecordError for a record the engine rejects."""
    f = Facts(hands=1)
    states = list(record.states())
    final = states[-1]
    if final.declarer is not None and final.declarer & 1 == team:
        f.declared = 1
        f.made = int(bool(final.made))
        f.set = 1 - f.made
        captured = final.captured[team]
        f.set_by_30 = int(final.high_bid - captured > SET_BY)
        f.bid_sum = final.high_bid
        f.captured_sum = captured
    actions = record.actions()
    for i, state in enumerate(states[:-1]):
        action = actions[i]
        if type(action) is not Play or state.to_act & 1 != team:
            continue
        done = len(state.tricks)
        winner_seat = final.tricks[done].winner
        f.add(play_facts(state, state.to_act, action.card, winner_seat))
    return f


# ----------------------------------------------------------------------------------------------- playing
def _players(level: str, opponent: str, team: int, seed: int) -> list:
    from rookcore.ai import LEVELS  # noqa: PLC0415

    return [LEVELS[level if s & 1 == team else opponent](seed=seed * 8 + s) for s in range(4)]


def _play(state: HandState, players: list, team: int, times: list[tuple[float, float]]) -> None:
    """Play ``state`` to its end; the decide times of ``team``'s seats are appended to ``times`` as (wall, CPU)
    seconds (`time.perf_counter`, `time.process_time`)."""
    while not state.is_over:
        seat = state.to_act
        obs = state.observation(seat)
        t0, c0 = time.perf_counter(), time.process_time()
        decision = players[seat].decide(obs)
        if seat & 1 == team:
            times.append((time.perf_counter() - t0, time.process_time() - c0))
        state.apply(decision.action, seat)


def _tell(players: list, scores) -> None:
    """Give every player the running game score (N–S, E–W) before the hand, or None for a hand alone."""
    for p in players:
        p.game_score = None if scores is None else (int(scores[0]), int(scores[1]))


@dataclass
class Job:
    """One mirrored deal of one level on one rule set, with or without an end-of-game ``position``."""

    variant: str
    level: str
    opponent: str
    seed: int
    position: str | None = None


@dataclass
class Outcome:
    """What a `Job` gave: the facts of the first hand, the games (position only) and the decide times (s)."""

    job: Job
    facts: Facts = field(default_factory=Facts)
    games: int = 0
    games_won: int = 0
    lost_on_own_set: int = 0
    times: list = field(default_factory=list)
    records: list = field(default_factory=list)


def run_job(job: Job) -> Outcome:
    """Play ``job``'s deal twice (L's team N–S, then E–W). For a hand alone, the facts of both hands; for an
    end-of-game position, the facts of each game's first hand, and the games played to their end."""
    rules = get_rules(job.variant)
    out = Outcome(job)
    for team in (0, 1):
        players = _players(job.level, job.opponent, team, job.seed)
        if job.position is None:
            _tell(players, None)
            state = HandState.deal(rules, job.seed % 4, job.seed)
            _play(state, players, team, out.times)
            rec = records.HandRecord.from_state(state, meta={"L_team": "NS" if team == 0 else "EW",
                                                             "seed": job.seed})
            out.facts.add(record_facts(rec, team))
            out.records.append(rec)
            continue
        us, them = position_scores(rules, job.position)
        game = Game(rules, job.seed % 4, job.seed)
        game.scores = [us, them] if team == 0 else [them, us]
        game.current = HandState.deal(rules, job.seed % 4, job.seed)
        for i in range(MAX_GAME_HANDS):
            _tell(players, game.scores)
            state = game.current
            _play(state, players, team, out.times)
            if i == 0:  # the deal of seed K, as at 0–0 (a passed-out deal counts as a hand not declared)
                rec = records.HandRecord.from_state(state, meta={"L_team": "NS" if team == 0 else "EW",
                                                                 "seed": job.seed, "scores": list(game.scores)})
                out.facts.add(record_facts(rec, team))
                out.records.append(rec)
            game.next_hand()
            if game.is_over:
                break
        out.games += 1
        out.games_won += int(game.winner == team)
        last = game.hands[-1]
        out.lost_on_own_set += int(game.winner == 1 - team and last.declarer is not None
                                   and last.declarer & 1 == team and not last.made)
    return out


# ----------------------------------------------------------------------------------------------- report
def _share(a: float, b: float) -> float | None:
    return a / b if b else None


def summarise(outcomes: list[Outcome]) -> dict:
    """Totals per (level, variant) and per (level, variant, position): a JSON-ready dict of rows."""
    groups: dict = {}
    for o in outcomes:
        key = (o.job.level, o.job.variant, o.job.position or "0–0")
        g = groups.setdefault(key, {"facts": Facts(), "deals": 0, "games": 0, "games_won": 0, "lost_on_own_set": 0,
                                    "times": []})
        g["facts"].add(o.facts)
        g["deals"] += 1
        g["games"] += o.games
        g["games_won"] += o.games_won
        g["lost_on_own_set"] += o.lost_on_own_set
        g["times"].extend(o.times)
    rows = []
    for (level, variant, position), g in groups.items():
        f = g["facts"]
        t, cpu = sorted(w for w, _ in g["times"]), sorted(c for _, c in g["times"])
        rows.append({
            "level": level, "variant": variant, "position": position, "deals": g["deals"],
            "counts": f.__dict__.copy(),
            "made_rate": _share(f.made, f.declared), "set_by_30_rate": _share(f.set_by_30, f.declared),
            "declare_rate": _share(f.declared, f.hands), "mean_bid": _share(f.bid_sum, f.declared),
            "mean_captured": _share(f.captured_sum, f.declared),
            "overtake_rate": _share(f.overtakes, f.sure_choices), "gift_rate": _share(f.gifts, f.gift_choices),
            "gift_points_per_hand": _share(f.gift_points, f.hands),
            "games": g["games"], "games_won_rate": _share(g["games_won"], g["games"]),
            "lost_on_own_set": g["lost_on_own_set"],
            "decisions": len(t), "median_ms": statistics.median(t) * 1e3 if t else None,
            "p99_ms": t[min(len(t) - 1, int(0.99 * len(t)))] * 1e3 if t else None,
            "cpu_median_ms": statistics.median(cpu) * 1e3 if cpu else None,
            "cpu_p99_ms": cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))] * 1e3 if cpu else None,
        })
    rows.sort(key=lambda r: (LEVEL_ORDER.index(r["level"]) if r["level"] in LEVEL_ORDER else 9,
                             list(VARIANTS).index(r["variant"]), r["position"] != "0–0", r["position"]))
    return {"rows": rows}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, fmt: str = ".1f") -> str:
    return "—" if x is None else format(x, fmt)


def print_report(summary: dict) -> None:
    """Print the three tables (bidding and partner play at 0–0; end-of-game positions; decision time)."""
    rows = summary["rows"]
    print("Bidding and partner play (hands at 0–0; L = the level measured, against the opponent level)")
    print(f"{'level':<7} {'rule set':<19} {'hands':>5} {'declared':>8} {'made':>5} {'set>30':>6} {'bid':>6} "
          f"{'capt':>6} {'overtake':>9} {'gives':>9} {'pts/hand':>8} {'could head':>10}")
    for r in rows:
        if r["position"] != "0–0":
            continue
        c = r["counts"]
        print(f"{r['level']:<7} {r['variant']:<19} {c['hands']:>5} {c['declared']:>8} {_pct(r['made_rate']):>5} "
              f"{_pct(r['set_by_30_rate']):>6} {_num(r['mean_bid']):>6} {_num(r['mean_captured']):>6} "
              f"{c['overtakes']:>3}/{c['sure_choices']:<5} {c['gifts']:>3}/{c['gift_choices']:<5} "
              f"{_num(r['gift_points_per_hand'], '.2f'):>8} {c['gifts_could_head']:>10}")
    ends = [r for r in rows if r["position"] != "0–0"]
    if ends:
        print("\nEnd of a game where a set would lose it (first hand of each game; L's team vs the opponents)")
        print(f"{'level':<7} {'rule set':<19} {'position':<8} {'scores':>9} {'declared':>8} {'bid':>6} {'made':>5} "
              f"{'lost on own set':>15} {'games won':>9}")
        for r in ends:
            us, them = position_scores(get_rules(r["variant"]), r["position"])
            c = r["counts"]
            print(f"{r['level']:<7} {r['variant']:<19} {r['position']:<8} {us:>4}–{them:<4} "
                  f"{_pct(r['declare_rate']):>8} {_num(r['mean_bid']):>6} {_pct(r['made_rate']):>5} "
                  f"{r['lost_on_own_set']:>7}/{r['games']:<7} {_pct(r['games_won_rate']):>9}")
    print("\nDecision time of L's seats (every decide of the hands at 0–0; wall clock and CPU time)")
    by: dict = {}
    for r in rows:
        by.setdefault((r["level"], r["variant"]), []).append(r)
    for (level, variant), rs in by.items():
        r0 = next(x for x in rs if x["position"] == "0–0") if any(x["position"] == "0–0" for x in rs) else rs[0]
        print(f"{level:<7} {variant:<19} {r0['decisions']:>6} decisions (hands at 0–0): median "
              f"{_num(r0['median_ms'], '.2f')} ms, p99 {_num(r0['p99_ms'], '.1f')} ms; CPU median "
              f"{_num(r0['cpu_median_ms'], '.2f')} ms, p99 {_num(r0['cpu_p99_ms'], '.1f')} ms")


def jobs_for(levels, variants, deals: int, seed: int, positions, opponent: str, game_deals: int) -> list[Job]:
    """Every `Job` of a run: each level × rule set × deal at 0–0, then the first ``game_deals`` deals at each
    end-of-game position."""
    jobs = []
    for level in levels:
        for variant in variants:
            jobs += [Job(variant, level, opponent, seed + i) for i in range(deals)]
            for position in positions:
                jobs += [Job(variant, level, opponent, seed + i, position) for i in range(game_deals)]
    return jobs


def run(jobs: list[Job], workers: int = 2, progress: bool = True) -> list[Outcome]:
    """Run ``jobs`` on ``workers`` processes (1 = here). Returns their `Outcome` values in job order."""
    if workers <= 1:
        return [run_job(j) for j in jobs]
    from tqdm import tqdm  # noqa: PLC0415

    # the slow jobs (strong, long hands) first, so the pool's last minutes are not one process alone
    order = sorted(range(len(jobs)), key=lambda i: (jobs[i].level != "strong", jobs[i].position is None))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        done = list(tqdm(pool.map(run_job, [jobs[i] for i in order], chunksize=1), total=len(jobs),
                         desc="deals", unit="deal", disable=not progress))
    out: list = [None] * len(jobs)
    for i, o in zip(order, done):
        out[i] = o
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module doc). Returns the exit code (0; 2 for a bad level or rule set)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default=",".join(LEVEL_ORDER))
    ap.add_argument("--variants", default="all", help="comma list of rule sets, or all")
    ap.add_argument("--deals", type=int, default=40, help="mirrored deals per level and rule set at 0–0")
    ap.add_argument("--game-deals", type=int, default=None,
                    help="mirrored deals per end-of-game position (default: --deals)")
    ap.add_argument("--positions", default=",".join(POSITIONS), help="comma list of ahead,level,behind, or 0")
    ap.add_argument("--seed", type=int, default=0, help="first deal's seed")
    ap.add_argument("--opponent", default="rules")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", default=None, help="also write every count here")
    ap.add_argument("--records", default=None, help="write every first hand's record into this directory")
    args = ap.parse_args(argv)
    from rookcore.ai import LEVELS  # noqa: PLC0415

    levels = [x for x in args.levels.split(",") if x]
    variants = list(VARIANTS) if args.variants == "all" else [x for x in args.variants.split(",") if x]
    positions = [] if args.positions in ("0", "") else args.positions.split(",")
    bad = [x for x in levels + [args.opponent] if x not in LEVELS] + [v for v in variants if v not in VARIANTS] + [
        p for p in positions if p not in POSITIONS]
    if bad:
        print(f"unknown level, rule set or position: {', '.join(bad)}", file=sys.stderr)
        return 2
    game_deals = args.deals if args.game_deals is None else args.game_deals
    jobs = jobs_for(levels, variants, args.deals, args.seed, positions, args.opponent, game_deals)
    t0 = time.perf_counter()
    outcomes = run(jobs, args.workers)
    summary = summarise(outcomes)
    summary.update({"seed": args.seed, "deals": args.deals, "game_deals": game_deals, "opponent": args.opponent,
                    "wall_s": time.perf_counter() - t0})
    print(f"{args.deals} mirrored deals (seeds {args.seed}–{args.seed + args.deals - 1}) per level and rule set, "
          f"against the {args.opponent} level; {time.perf_counter() - t0:.0f} s wall on {args.workers} processes")
    print_report(summary)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    if args.records:
        folder = Path(args.records)
        folder.mkdir(parents=True, exist_ok=True)
        for o in outcomes:
            for rec in o.records:
                name = f"{o.job.level}-{o.job.variant}-{o.job.seed}-{o.job.position or 'hand'}-{rec.meta['L_team']}"
                (folder / f"{name}.json").write_text(records.dumps(rec))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
