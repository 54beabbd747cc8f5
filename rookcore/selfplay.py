"""AI self-play: drive hands and games with four players (used by ``play``, tests and benchmarks)."""
from __future__ import annotations

import random
from typing import Sequence

from . import records
from .ai import play_hand as play_out
from .game import MAX_GAME_HANDS, Game
from .rules import Rules


def play_hands(rules: Rules, players: Sequence, count: int, seed: int | None = None,
               variant: str | None = None) -> records.GameRecord:
    """Play ``count`` hands (dealer N first, rotating per the rules) and return them as a game record."""
    game = Game(rules, "N", seed)
    for _ in range(count):
        play_out(game.current, players)
        if game.is_over:
            break
        game.next_hand()
    return _record(game, rules, variant)


def play_game(rules: Rules, players: Sequence, seed: int | None = None, variant: str | None = None,
              max_hands: int = MAX_GAME_HANDS) -> records.GameRecord:
    """Play a whole game to the target (rules.md "Game end"); returns the game record.

    ``max_hands`` bounds pathological games (e.g. endless pass-outs); the record then has no winner.
    """
    game = Game(rules, "N", seed)
    for _ in range(max_hands):
        play_out(game.current, players)
        game.next_hand()
        if game.is_over:
            break
    return _record(game, rules, variant)


def _record(game: Game, rules: Rules, variant: str | None) -> records.GameRecord:
    hands = list(game.hands)
    if game.current.history and not game.is_over:
        hands.append(game.current)
    rec = records.game_record(hands, rules, meta={"players": {s: "AI" for s in "NESW"}})
    if variant:
        rec.variant = variant
        for h in rec.hands:
            h.variant = variant
    for h in rec.hands:
        h.meta = {"players": {s: "AI" for s in "NESW"}}
    return rec


def random_seed() -> int:
    """A fresh random deal seed (48 bits)."""
    return random.getrandbits(48)
