"""Arena: two AI levels compared on mirrored deals (each deal played twice, the teams swapped).

Playing every deal from both sides cancels the luck of the cards: what is left is the
difference between the players. A pair is *won* by level A when A's hand-score margin
summed over both plays is positive (a tie counts half). The win rate carries a Wilson
95 % score interval.

Levels are the engine's AIs (`rookcore.ai.LEVELS`: random, rules, strong) and, through the OpenSpiel adapter
(`rookcore.openspiel`, the ``openspiel`` extra), OpenSpiel's own bots: ``ismcts`` (OpenSpiel's ISMCTS, a time limit
per decision, `OpenSpielSettings`) and ``os-random`` (OpenSpiel's uniform random bot). A deal with an OpenSpiel level
is played through OpenSpiel's game API (`rookcore.openspiel.RookState`), the engine's AIs seated as OpenSpiel bots
(`rookcore.openspiel_bots.EngineBot`); the deal is the engine's (`HandState.deal` of the same seed), and the time
each side takes per decision with a choice is measured and reported.
"""
from __future__ import annotations

import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from .hand import HandState
from .rules import Rules, RulesError, get_rules


@dataclass
class ArenaResult:
    """Totals over ``deals`` mirrored deals of level ``a`` against level ``b`` (margins in points).

    wins/ties/losses: pairs won, tied and lost by A; margin: A's average hand-score margin per pair;
    win_rate: (wins + ties / 2) / deals; wilson_low/high: its Wilson 95 % interval.
    """

    variant: str
    a: str
    b: str
    deals: int
    wins: int
    ties: int
    losses: int
    margin: float
    win_rate: float
    wilson_low: float
    wilson_high: float
    times: dict | None = None
    """With an OpenSpiel level: the time per decision with a choice of each side, {"a": ..., "b": ...}, each
    `time_summary` (ms); None otherwise (and left out of the JSON)."""
    settings: dict | None = None
    """With an OpenSpiel level: how OpenSpiel's bots were set (`OpenSpielSettings.to_json`); else None."""

    def to_json(self) -> dict:
        """The result as a JSON-ready dict (``times`` and ``settings`` only when set)."""
        data = asdict(self)
        for key in ("times", "settings"):
            if data[key] is None:
                del data[key]
        return data

    def text(self) -> str:
        """A two-line plain-text summary (a third line with each side's time per decision when measured)."""
        text = (f"{self.a} vs {self.b} in {self.variant}, {self.deals} mirrored deals: {self.wins} won, "
                f"{self.ties} tied, {self.losses} lost\nwin rate {self.win_rate:.1%} (Wilson 95% "
                f"{self.wilson_low:.1%}–{self.wilson_high:.1%}), average margin {self.margin:+.1f} points per deal")
        if self.times:
            sides = [f"{level} median {t['median_ms']:.1f} ms (mean {t['mean_ms']:.1f}, p95 {t['p95_ms']:.1f}, "
                     f"{t['decisions']} decisions)" for level, t in ((self.a, self.times["a"]),
                                                                    (self.b, self.times["b"]))]
            text += "\ntime per decision with a choice: " + "; ".join(sides)
        return text


OPENSPIEL_LEVELS = ("ismcts", "os-random")
"""Levels played by OpenSpiel's bots through `rookcore.openspiel` (need the ``openspiel`` extra)."""
DEFAULT_ISMCTS_MS = 100.0
"""`OpenSpielSettings.ms`'s default: milliseconds per ISMCTS decision."""


@dataclass(frozen=True)
class OpenSpielSettings:
    """How the arena's OpenSpiel ISMCTS bot searches (`rookcore.openspiel_bots.ismcts_bot`).

    ms: time limit per decision in milliseconds (None: only ``simulations``); simulations: the most simulations per
    decision (None: only the time limit); uct_c: UCT exploration constant in points (None: the bot's default,
    `rookcore.openspiel_bots.DEFAULT_UCT_C`); utility: what the game returns to the bots, "margin" (the hand-score
    margin, what the arena counts) or "score" (each team's hand score).
    """

    ms: float | None = DEFAULT_ISMCTS_MS
    simulations: int | None = None
    uct_c: float | None = None
    utility: str = "margin"
    extra: dict = field(default_factory=dict, compare=False)

    def check(self) -> None:
        """Raise ValueError (one line) for a setting out of range: ms and simulations positive (one of them given),
        uct_c ≥ 0, utility "score" or "margin"."""
        if self.ms is None and self.simulations is None:
            raise ValueError("ISMCTS needs a time per decision (--ismcts-ms) or a number of simulations "
                             "(--ismcts-sims)")
        if self.ms is not None and not (math.isfinite(self.ms) and self.ms > 0):
            raise ValueError(f"--ismcts-ms must be a positive number of milliseconds, not {self.ms}")
        if self.simulations is not None and self.simulations < 2:
            raise ValueError(f"--ismcts-sims must be at least 2, not {self.simulations}")
        if self.uct_c is not None and not (math.isfinite(self.uct_c) and self.uct_c >= 0):
            raise ValueError(f"--ismcts-uct must be a number ≥ 0, not {self.uct_c}")
        if self.utility not in ("score", "margin"):
            raise ValueError(f"utility must be score or margin, not {self.utility!r}")

    def to_json(self, ismcts: bool = True) -> dict:
        """The settings as a JSON-ready dict: the game's utility, and with ``ismcts`` (an ISMCTS level played) the
        ISMCTS settings, the UCT constant the bot used among them."""
        if not ismcts:
            return {"utility": self.utility, **self.extra}
        from .openspiel_bots import DEFAULT_UCT_C  # noqa: PLC0415 - needs OpenSpiel

        return {"ismcts_ms": self.ms, "ismcts_simulations": self.simulations,
                "ismcts_uct_c": DEFAULT_UCT_C if self.uct_c is None else self.uct_c,
                "utility": self.utility, **self.extra}


def time_summary(seconds: list[float]) -> dict:
    """Decisions, median, mean and 95th percentile (ms) of decision times given in seconds."""
    if not seconds:
        return {"decisions": 0, "median_ms": 0.0, "mean_ms": 0.0, "p95_ms": 0.0}
    ordered = sorted(seconds)
    return {"decisions": len(ordered), "median_ms": round(statistics.median(ordered) * 1e3, 2),
            "mean_ms": round(statistics.fmean(ordered) * 1e3, 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1e3, 2)}


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (low, high) for ``successes`` out of ``n`` (z = 1.96 for 95 %); (0, 1) if n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mirrored_deal(rules: Rules, a: str, b: str, seed: int) -> int:
    """Play deal ``seed`` twice — A as N–S then A as E–W — and return A's summed hand-score margin (points)."""
    from .ai import LEVELS  # noqa: PLC0415 - keeps process start-up light
    from .ai import play_hand as play_out

    total = 0
    for a_team in (0, 1):
        players = [LEVELS[a if s % 2 == a_team else b](seed=seed * 8 + s) for s in range(4)]
        state = HandState.deal(rules, seed % 4, seed)
        play_out(state, players)
        score = state.score()
        total += score[a_team] - score[1 - a_team]
    return total


def _pair(args: tuple) -> int:
    variant, options, a, b, seed = args
    return mirrored_deal(get_rules(variant, options), a, b, seed)


def _os_bot(level: str, game, seat: int, seed: int, settings: OpenSpielSettings):
    """The OpenSpiel bot for ``level`` at ``seat`` of ``game``, seeded by ``seed``."""
    from .ai import LEVELS  # noqa: PLC0415
    from .openspiel_bots import EngineBot, ismcts_bot, random_bot  # noqa: PLC0415

    if level == "ismcts":
        extra = {} if settings.uct_c is None else {"uct_c": settings.uct_c}
        return ismcts_bot(game, seed, None if settings.ms is None else settings.ms / 1e3, settings.simulations,
                          **extra)
    if level == "os-random":
        return random_bot(seat, seed)
    return EngineBot(LEVELS[level](seed=seed))


def openspiel_hand(rules: Rules, a: str, b: str, seed: int, a_team: int,
                   settings: OpenSpielSettings) -> tuple[tuple[int, int], dict, dict]:
    """Play deal ``seed`` (dealer ``seed % 4``, the deal of ``HandState.deal(rules, seed % 4, seed)``) once through
    OpenSpiel's python_rook, level A on team ``a_team`` (0 = N–S) and B on the other (each seat seeded ``seed * 8 +
    seat``, as `mirrored_deal`). Returns the engine's hand score (N–S, E–W), the decision times in seconds of each
    side ({"a": [...], "b": [...]}: the steps with more than one legal action; an engine AI's discard counts once)
    and the ISMCTS simulations per search of each side."""
    from .openspiel import deal_actions, load  # noqa: PLC0415

    dealer = seed % 4
    game = load(rules.variant, dealer, settings.utility)
    state = game.new_initial_state()
    for card in deal_actions(rules, dealer, seed):
        state.apply_action(card)
    sides = ["a" if s % 2 == a_team else "b" for s in range(4)]
    bots = [_os_bot(a if sides[s] == "a" else b, game, s, seed * 8 + s, settings) for s in range(4)]
    times: dict = {"a": [], "b": []}
    while not state.is_terminal():
        seat = state.current_player()
        choice = len(state.legal_actions()) > 1
        start = time.perf_counter()
        action = bots[seat].step(state)
        spent = time.perf_counter() - start
        if choice and getattr(bots[seat], "decided", True):
            times[sides[seat]].append(spent)
        state.apply_action(action)
    sims: dict = {"a": [], "b": []}
    for seat, bot in enumerate(bots):
        sims[sides[seat]].extend(getattr(bot, "simulations", []))
    return state.score(), times, sims


def _os_pair(args: tuple) -> tuple[int, dict, dict]:
    """Deal ``seed`` played twice through OpenSpiel (A as N–S, then as E–W): A's summed margin, times, simulations."""
    variant, a, b, seed, settings = args
    rules = get_rules(variant)
    total, times, sims = 0, {"a": [], "b": []}, {"a": [], "b": []}
    for a_team in (0, 1):
        score, spent, searched = openspiel_hand(rules, a, b, seed, a_team, settings)
        total += score[a_team] - score[1 - a_team]
        for side in ("a", "b"):
            times[side] += spent[side]
            sims[side] += searched[side]
    return total, times, sims


def arena_rules(a: str, b: str, variant: str = "crowsnest", options: dict | None = None) -> Rules:
    """Check an arena's levels ``a``, ``b`` (names of `rookcore.ai.LEVELS` or `OPENSPIEL_LEVELS`) and return the
    `Rules` of ``variant`` with ``options``. Raises KeyError (its one argument a message) for an unknown level,
    RulesError for a bad variant or option (or any option with an OpenSpiel level), ImportError when an OpenSpiel
    level is asked for and OpenSpiel is not installed. Plays nothing."""
    from .ai import LEVELS  # noqa: PLC0415

    for level in (a, b):
        if level not in LEVELS and level not in OPENSPIEL_LEVELS:
            raise KeyError(f"unknown AI level {level!r} (known: {', '.join([*LEVELS, *OPENSPIEL_LEVELS])})")
    rules = get_rules(variant, options)
    if a in OPENSPIEL_LEVELS or b in OPENSPIEL_LEVELS:
        if options:
            raise RulesError("--options cannot be used with an OpenSpiel level: python_rook plays a rule set as "
                             "named, without options")
        import rookcore.openspiel  # noqa: F401,PLC0415 - ImportError naming the extra when OpenSpiel is missing
    return rules


def run_arena(a: str, b: str, deals: int, variant: str = "crowsnest", options: dict | None = None,
              seed: int = 0, workers: int = 1, progress=None,
              openspiel: OpenSpielSettings | None = None) -> ArenaResult:
    """Play ``deals`` mirrored deals (seeds ``seed`` … ``seed + deals - 1``) of level ``a`` against ``b``.

    ``workers``: processes to use (1 = in this process); ``progress``: optional callable(done, total);
    ``openspiel``: how OpenSpiel's ISMCTS searches when a level is ``ismcts`` (default `OpenSpielSettings()`).
    With an OpenSpiel level the deals are played through OpenSpiel (`openspiel_hand`) and the result carries each
    side's time per decision. Raises KeyError for an unknown level, RulesError for a bad variant or option,
    ValueError for bad OpenSpiel settings, ImportError for an OpenSpiel level without OpenSpiel.
    """
    rules = arena_rules(a, b, variant, options)
    through_openspiel = a in OPENSPIEL_LEVELS or b in OPENSPIEL_LEVELS
    settings = openspiel or OpenSpielSettings()
    if through_openspiel:
        if "ismcts" in (a, b):
            settings.check()
        jobs = [(rules.variant, a, b, seed + i, settings) for i in range(deals)]
        work = _os_pair
    else:
        jobs = [(rules.variant, options, a, b, seed + i) for i in range(deals)]
        work = _pair
    results = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for r in pool.map(work, jobs, chunksize=1):
                results.append(r)
                if progress:
                    progress(len(results), deals)
    else:
        for job in jobs:
            results.append(work(job))
            if progress:
                progress(len(results), deals)
    margins = [r[0] for r in results] if through_openspiel else results
    wins = sum(m > 0 for m in margins)
    ties = sum(m == 0 for m in margins)
    rate = (wins + ties / 2) / deals if deals else 0.0
    low, high = wilson_interval(wins + ties / 2, deals)
    result = ArenaResult(variant, a, b, deals, wins, ties, deals - wins - ties,
                         sum(margins) / deals if deals else 0.0, rate, low, high)
    if through_openspiel:
        result.times = {side: time_summary([t for r in results for t in r[1][side]]) for side in ("a", "b")}
        sims = {side: [n for r in results for n in r[2][side]] for side in ("a", "b")}
        extra = {f"ismcts_simulations_median_{side}": statistics.median(sims[side]) for side in ("a", "b")
                 if sims[side]}
        result.settings = OpenSpielSettings(settings.ms, settings.simulations, settings.uct_c, settings.utility,
                                            extra).to_json("ismcts" in (a, b))
    return result
