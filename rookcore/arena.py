"""Arena: two AI levels compared on mirrored deals (each deal played twice, the teams swapped).

Playing every deal from both sides cancels the luck of the cards: what is left is the
difference between the players. A pair is *won* by level A when A's hand-score margin
summed over both plays is positive (a tie counts half). The win rate carries a Wilson
95 % score interval.
"""
from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from .hand import HandState
from .rules import Rules, get_rules


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

    def to_json(self) -> dict:
        """The result as a JSON-ready dict."""
        return asdict(self)

    def text(self) -> str:
        """A two-line plain-text summary."""
        return (f"{self.a} vs {self.b} in {self.variant}, {self.deals} mirrored deals: {self.wins} won, "
                f"{self.ties} tied, {self.losses} lost\nwin rate {self.win_rate:.1%} (Wilson 95% "
                f"{self.wilson_low:.1%}–{self.wilson_high:.1%}), average margin {self.margin:+.1f} points per deal")


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


def arena_rules(a: str, b: str, variant: str = "crowsnest", options: dict | None = None) -> Rules:
    """Check an arena's levels ``a``, ``b`` (names of `rookcore.ai.LEVELS`) and return the `Rules` of ``variant``
    with ``options``. Raises KeyError (its one argument a message) for an unknown level, RulesError for a bad
    variant or option. Plays nothing."""
    from .ai import LEVELS  # noqa: PLC0415

    for level in (a, b):
        if level not in LEVELS:
            raise KeyError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    return get_rules(variant, options)


def run_arena(a: str, b: str, deals: int, variant: str = "crowsnest", options: dict | None = None,
              seed: int = 0, workers: int = 1, progress=None) -> ArenaResult:
    """Play ``deals`` mirrored deals (seeds ``seed`` … ``seed + deals - 1``) of level ``a`` against ``b``.

    ``workers``: processes to use (1 = in this process); ``progress``: optional callable(done, total).
    Raises KeyError for an unknown level, RulesError for a bad variant or option.
    """
    rules = arena_rules(a, b, variant, options)
    jobs = [(rules.variant, options, a, b, seed + i) for i in range(deals)]
    margins = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for m in pool.map(_pair, jobs, chunksize=1):
                margins.append(m)
                if progress:
                    progress(len(margins), deals)
    else:
        for job in jobs:
            margins.append(_pair(job))
            if progress:
                progress(len(margins), deals)
    wins = sum(m > 0 for m in margins)
    ties = sum(m == 0 for m in margins)
    rate = (wins + ties / 2) / deals if deals else 0.0
    low, high = wilson_interval(wins + ties / 2, deals)
    return ArenaResult(variant, a, b, deals, wins, ties, deals - wins - ties,
                       sum(margins) / deals if deals else 0.0, rate, low, high)
