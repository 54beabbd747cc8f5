"""Measurement helpers for benchmarks/run.py (stdlib only; psutil used if installed).

Each function returns plain dicts/numbers so run.py can print a table and write results.json.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python benchmarks/run.py` from anywhere, without installing
    sys.path.insert(0, str(ROOT))

from rookcore.actions import Discard, PASS  # noqa: E402
from rookcore.hand import HandState, Phase  # noqa: E402
from rookcore.playout import PASS_PROB, random_hands  # noqa: E402
from rookcore.rules import Rules  # noqa: E402


# ----- throughput ------------------------------------------------------------------------------------------

def rate(run_chunk: Callable[[int, int], None], seconds: float, chunk: int) -> tuple[float, float, int]:
    """Call ``run_chunk(chunk, i)`` (i = 0, 1, ...) until ``seconds`` have passed.

    Returns (hands per wall-clock second, hands per CPU second of this process, hands). Wall clock is
    `time.perf_counter`; CPU time (`time.process_time`) shows the single-core speed when other processes
    compete for the cores. Single thread.
    """
    done = 0
    i = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        run_chunk(chunk, i)
        done += chunk
        i += 1
        now = time.perf_counter()
        if now >= deadline:
            cpu = time.process_time() - cpu0
            return done / (now - start), (done / cpu if cpu > 0 else float("nan")), done


def best_and_median(run_chunk: Callable[[int, int], None], seconds: float, runs: int, chunk: int) -> dict:
    """``runs`` timed runs of ``seconds`` each (after a short warm-up); best, median and all rates in hands/s
    (wall clock), plus the same by CPU time (``cpu_best``, ``cpu_median``)."""
    run_chunk(chunk, -1)  # warm-up: tables, caches
    walls, cpus = [], []
    hands = 0
    for _ in range(runs):
        w, c, n = rate(run_chunk, seconds, chunk)
        walls.append(w)
        cpus.append(c)
        hands += n
    return {"best": max(walls), "median": statistics.median(walls), "runs": walls,
            "cpu_best": max(cpus), "cpu_median": statistics.median(cpus), "cpu_runs": cpus, "hands": hands}


def fast_path(rules: Rules, seconds: float, runs: int) -> dict:
    """Random full hands per second through `rookcore.playout.random_hands`."""
    def chunk(n: int, i: int) -> None:
        random_hands(rules, n, seed=1000 + i)
    return best_and_median(chunk, seconds, runs, chunk=200)


def api_random_hand(rules: Rules, rng: random.Random, dealer: int, pass_prob: float = PASS_PROB) -> tuple[int, int]:
    """One random hand through the public HandState API (deal, legal_actions/apply), same policy as playout:
    pass with ``pass_prob`` else the lowest legal bid; random discard, trump and legal cards."""
    state = HandState.deal(rules, dealer, seed=rng.getrandbits(32))
    while not state.is_over:
        phase = state.phase
        if phase is Phase.AUCTION:
            legal = state.legal_actions()
            action = PASS if len(legal) == 1 or rng.random() < pass_prob else legal[1]
        elif phase is Phase.DISCARD:
            action = Discard(rng.sample(state.discard_candidates(), rules.nest_size))
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state.apply(action)
    return state.score()


def api_path(rules: Rules, seconds: float, runs: int) -> dict:
    """Random full hands per second through HandState.deal / legal_actions / apply / score."""
    def chunk(n: int, i: int) -> None:
        rng = random.Random(2000 + i)
        for k in range(n):
            api_random_hand(rules, rng, k & 3)
    return best_and_median(chunk, seconds, runs, chunk=20)


# ----- AI decision time ------------------------------------------------------------------------------------

def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of already-sorted values, nearest-rank."""
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(q * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def ai_decision_times(rules: Rules, hands: int, budget: float, seed: int = 0) -> dict | str:
    """Time every ``decide`` call of each level in ``rookcore.ai.LEVELS`` over ``hands`` self-play hands
    (four players of the same level). Stops a level early after ``budget`` seconds of play.

    Returns {level: {"median_ms", "p95_ms", "p99_ms", "max_ms", "decisions", "hands", "by_kind": {...}}}
    or a string explaining why it was skipped (import failed).
    """
    try:
        from rookcore.ai import LEVELS
    except Exception as exc:  # noqa: BLE001 - any import problem means "not available yet"
        return f"skipped: rookcore.ai does not import ({type(exc).__name__}: {exc})"
    out: dict = {}
    for name, cls in LEVELS.items():
        try:
            players = [cls(seed=seed * 4 + s) for s in range(4)]
        except Exception as exc:  # noqa: BLE001
            out[name] = {"error": f"cannot construct {name}(seed=...): {exc}"}
            continue
        times: list[float] = []
        by_kind: dict[str, list[float]] = {}
        played = 0
        deal_rng = random.Random(seed)
        start = time.perf_counter()
        error = None
        for h in range(hands):
            state = HandState.deal(rules, h & 3, seed=deal_rng.getrandbits(32))
            try:
                while not state.is_over:
                    seat = state.to_act
                    kind = state.phase.value
                    obs = state.observation(seat)
                    t0 = time.perf_counter()
                    decision = players[seat].decide(obs)
                    dt = time.perf_counter() - t0
                    times.append(dt)
                    by_kind.setdefault(kind, []).append(dt)
                    state.apply(decision.action, seat)
            except Exception as exc:  # noqa: BLE001 - report, don't crash the whole benchmark
                error = f"{type(exc).__name__}: {exc}"
                break
            played += 1
            if time.perf_counter() - start > budget:
                break
        times.sort()
        row = {"decisions": len(times), "hands": played,
               "median_ms": statistics.median(times) * 1e3 if times else float("nan"),
               "p95_ms": percentile(times, 0.95) * 1e3, "p99_ms": percentile(times, 0.99) * 1e3,
               "max_ms": times[-1] * 1e3 if times else float("nan"),
               "by_kind": {k: {"n": len(v), "median_ms": statistics.median(v) * 1e3,
                               "p95_ms": percentile(sorted(v), 0.95) * 1e3} for k, v in by_kind.items()}}
        if error:
            row["error"] = error
        out[name] = row
    return out


# ----- memory ----------------------------------------------------------------------------------------------

def kept_game_times(rules: Rules, games: int, seed: int = 0) -> dict:
    """Cost of keeping the app's game for the next visit (`rookcore.saved`): ``games`` games of a random learner
    against rule-based AIs, the game saved after every learner action (as the Play panel does) and loaded back
    (with its replay check, as a new page does) after every tenth. Returns {"saves", "save_median_ms", "save_p95_ms",
    "save_p99_ms", "loads", "load_median_ms", "load_p99_ms", "max_kib"}."""
    import tempfile  # noqa: PLC0415

    from rookcore import saved  # noqa: PLC0415
    from rookcore.table import Table  # noqa: PLC0415

    path = Path(tempfile.mkdtemp(prefix="rook-kept-")) / "game.json"
    saves, loads, size = [], [], 0
    for g in range(games):
        table, rng = Table(rules, seed=seed + g), random.Random(seed + g)
        while not table.game.is_over:
            table.run_ai()
            if table.game.is_over:
                break
            if table.state.is_over:
                table.new_hand()
                continue
            if table.state.phase is Phase.DISCARD:
                table.learner_discard(rng.sample(table.discard_options(), rules.nest_size))
            else:
                table.learner_act(rng.choice(table.legal_for_learner()))
            t0 = time.perf_counter()
            saved.save_table(table, path)
            saves.append(time.perf_counter() - t0)
            size = max(size, path.stat().st_size)
            if len(saves) % 10 == 0:
                t0 = time.perf_counter()
                saved.load_table(path)
                loads.append(time.perf_counter() - t0)
    saves.sort()
    loads.sort()
    ms = 1000.0
    return {"saves": len(saves), "save_median_ms": statistics.median(saves) * ms,
            "save_p95_ms": percentile(saves, 0.95) * ms, "save_p99_ms": percentile(saves, 0.99) * ms,
            "loads": len(loads), "load_median_ms": statistics.median(loads) * ms,
            "load_p99_ms": percentile(loads, 0.99) * ms, "max_kib": size / 1024}


def rss_mb() -> tuple[float, float | None]:
    """(resident MB now, peak resident MB or None) of this process: psutil if installed, else /proc."""
    peak = None
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
                elif line.startswith("VmRSS:"):
                    now = int(line.split()[1]) / 1024
    except OSError:
        now = float("nan")
    try:
        import psutil
        now = psutil.Process().memory_info().rss / 2**20
    except ImportError:
        pass
    return now, peak


KERNEL_GAME = r"""
from rookcore.actions import Bid, Discard, NameTrump, Pass, Play
from widgets.app import build_app
app = build_app(query="")
panel = app.play_panel
panel.pace = 0
table = panel.table
hands = 0
while not table.game.is_over and hands < 80:
    while not table.state.is_over:
        action = table.hint().action  # South plays the AI's choice, through the panel's own handlers
        if isinstance(action, Play):
            panel.play_card(action.card)
        elif isinstance(action, Bid):
            panel.call_bid(action.amount)
        elif isinstance(action, Pass):
            panel.call_pass()
        elif isinstance(action, Discard):
            panel.discard(sorted(action.cards))
        else:
            panel.name_trump(action.colour)
    hands += 1
    if not table.game.is_over:
        panel.new_hand()
print(hands, table.game.scores, table.game.winner)
"""


def app_memory(variant: str = "crowsnest", seed: int = 1) -> dict:
    """Resident memory (MB) of the app's kernel after a full game played through the Play panel.

    Starts an ipykernel the way Voila does (jupyter_client), builds the app (`widgets.app.build_app`), plays
    a whole game with South's moves chosen by the Hint and entered through the panel's handlers, and reads
    the kernel process's VmRSS / VmHWM from /proc. ``variant`` and ``seed`` are unused (the app's defaults).
    """
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT))
    try:
        pid = km.provisioner.process.pid
        before = _proc_rss(pid)
        out: list[str] = []
        reply = kc.execute_interactive(KERNEL_GAME, timeout=1800,
                                       output_hook=lambda m: out.append(m["content"].get("text", "")))
        if reply["content"]["status"] != "ok":
            return {"error": f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}"}
        now, peak = _proc_rss(pid)
        return {"what": f"app kernel after a full game through the Play panel ({''.join(out).strip()})",
                "rss_kernel_start_mb": before[0], "rss_mb": now, "peak_rss_mb": peak}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _proc_rss(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) in MB of process ``pid`` from /proc."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                values[line[:5]] = int(line.split()[1]) / 1024
    return values["VmRSS"], values["VmHWM"]


def write_results(path: Path, results: dict) -> None:
    """Write a benchmark's ``results`` as indented JSON to ``path`` (its folder created if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, default=str) + "\n")
