"""AI players for rookcore (rules.md §1–§3): they see only an `Observation` and return a `Decision`.

Levels: ``LEVELS["random"]`` (`RandomPlayer`), ``LEVELS["rules"]`` (`RuleBasedPlayer`) and
``LEVELS["strong"]`` (`SamplingPlayer`: sampled deals, rollouts, double-dummy endgames). `play_hand` drives one `HandState` to the end.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..hand import HandState
from .base import Candidate, Decision, MaskedAction, Player, RandomPlayer, describe_action, move_sentence
from .rules_based import RuleBasedPlayer
from .sampling import SamplingPlayer

LEVELS: dict[str, Callable[..., Player]] = {"random": RandomPlayer, "rules": RuleBasedPlayer,
                                            "strong": SamplingPlayer}
HINT_LEVELS: dict[str, str] = {"random": "rules", "rules": "rules", "strong": "strong"}
"""The level whose advice a Hint gives at each table level: the table's own, except that random play is no advice,
so at the random level the Hint is the rule-based AI's."""


def play_hand(state: HandState, players: Sequence[Player]) -> list[Decision]:
    """Play ``state`` to the end of the hand (rules.md §1: auction, nest, trump, play, count).

    Args: state: a `HandState` (mutated in place); players: four players indexed by seat 0..3 (N, E, S, W).
    Each seat to act gets ``players[seat].decide(state.observation(seat))`` and its action is applied.
    Returns the decisions in order (empty if the hand was already over). Raises the engine's
    IllegalAction if a player returns an illegal action (the state is then unchanged).
    """
    decisions: list[Decision] = []
    while not state.is_over:
        seat = state.to_act
        decision = players[seat].decide(state.observation(seat))
        state.apply(decision.action, seat)
        decisions.append(decision)
    return decisions


__all__ = ["Candidate", "Decision", "MaskedAction", "Player", "RandomPlayer", "RuleBasedPlayer", "SamplingPlayer",
           "LEVELS", "HINT_LEVELS", "play_hand", "describe_action", "move_sentence"]
