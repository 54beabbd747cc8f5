"""Players at an OpenSpiel ``python_rook`` table (`rookcore.openspiel`, issue 32): the engine's AIs as OpenSpiel bots,
OpenSpiel's own ISMCTS bot with a time limit per decision, and OpenSpiel's uniform random bot.

Needs OpenSpiel (the ``openspiel`` extra); importing this module without it raises ImportError naming the extra.
"""
from __future__ import annotations

import random
import time

import numpy as np

from .openspiel import DISCARD_BASE, RookState, action_id, pyspiel

try:
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as _error:  # pragma: no cover - pyspiel without its Python algorithms
    raise ImportError("rookcore.openspiel_bots needs OpenSpiel's Python algorithms (open_spiel==2.0.2)") from _error

MIN_SIMULATIONS = 2
"""Simulations an ISMCTS search runs however short its time: OpenSpiel's search only expands the root node in its
first simulation, so its final policy needs a second (its MAX_VISIT_COUNT policy asserts the root was visited)."""
DEFAULT_UCT_C = 100.0
"""UCT exploration constant of the arena's ISMCTS bot, in points (a return of python_rook is in points: the hand
score margin, about ±100 for a typical hand, not OpenSpiel's usual ±1; see benchmarks/README.md for the values
tried)."""


class EngineBot(pyspiel.Bot):
    """A rookcore AI (`rookcore.ai.Player`: ``decide(observation) -> Decision``) playing one seat of a
    `RookState` through OpenSpiel's bot interface (``step(state) -> action id``).

    It sees only ``state.hand.observation(seat)``, as at the engine's own table. Its discard (rules.md §1.3) is one
    decision; OpenSpiel takes it as ``nest_size`` action ids, which the bot returns one per step (``decided`` is
    False for those later steps, so that an arena times each decision once).
    """

    def __init__(self, player) -> None:
        """Seat ``player`` (a `rookcore.ai.Player`). Raises nothing."""
        pyspiel.Bot.__init__(self)
        self.player = player
        self.decided = False
        self._pending: list[int] = []

    def restart(self) -> None:
        """Forget any discard under way (a new hand)."""
        self._pending = []

    def restart_at(self, state) -> None:
        """Forget any discard under way (the game moved to ``state``)."""
        self._pending = []

    def step(self, state: RookState) -> int:
        """The action id this AI chooses in ``state`` (its seat must be the player to act). Raises ValueError if
        ``state`` is not a player node, or the engine's IllegalAction if the AI answers with an illegal action."""
        seat = state.current_player()
        if seat < 0:
            raise ValueError("EngineBot.step needs a state where a player acts")
        legal = state.legal_actions()
        if self._pending and self._pending[0] in legal:
            self.decided = False
            return self._pending.pop(0)
        self.decided = True
        decision = self.player.decide(state.hand.observation(seat))
        picked = {DISCARD_BASE + c for c in state.pending_discard}  # a discard under way: its cards are put back
        ids = [a for a in action_id(state.rules, decision.action) if a not in picked]
        if not ids or ids[0] not in legal:  # a discard begun by someone else that this one does not extend
            ids = [legal[0]]
        self._pending = ids[1:]
        return ids[0]


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's `ISMCTSBot` (``open_spiel/python/algorithms/ismcts.py``, 2.0.2) that stops each search within
    ``time_limit`` seconds (no simulation is begun that would, at the mean length of those so far, end after it; at
    least `MIN_SIMULATIONS` simulations, at most ``max_simulations``) instead of after a fixed number of simulations. Everything else is OpenSpiel's: the tree, UCT selection, the evaluator, the final
    policy. ``simulations`` lists the simulations of each search (one entry per decision with a choice)."""

    def __init__(self, game, evaluator, uct_c: float, max_simulations: int, time_limit: float | None = None,
                 **kwargs) -> None:
        """As `ISMCTSBot` (``kwargs``: its keyword arguments) with ``time_limit`` seconds per search (None: only
        ``max_simulations``)."""
        super().__init__(game, evaluator, uct_c, max_simulations, **kwargs)
        self.time_limit = time_limit
        self.simulations: list[int] = []

    def run_search(self, state):
        """`ISMCTSBot.run_search` with the time limit: simulations from resampled roots until the time is spent.
        Returns the final policy, a list of (action id, probability)."""
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        done, start = 0, time.perf_counter()
        while done < self._max_simulations and (done < MIN_SIMULATIONS or deadline is None
                                                or _room_for_one(start, done, deadline)):
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            done += 1
        self.simulations.append(done)
        return self.get_final_policy(state, self._root_node)


def _room_for_one(start: float, done: int, deadline: float) -> bool:
    """Whether one more simulation, as long as the mean of the ``done`` so far (since ``start``), ends by
    ``deadline`` (perf_counter seconds): the search then stops close to its time limit, not a simulation past it."""
    now = time.perf_counter()
    return now + (now - start) / done <= deadline


def ismcts_bot(game, seed: int, time_limit: float | None = None, simulations: int | None = None,
               uct_c: float = DEFAULT_UCT_C) -> TimedISMCTSBot:
    """OpenSpiel's ISMCTS for ``game`` (a python_rook game): random-rollout evaluation (OpenSpiel's
    `RandomRolloutEvaluator`, one rollout), UCT with ``uct_c`` (points), unlimited world samples (a fresh world for
    every simulation, drawn by `RookState.resample_from_infostate` with a `random.Random` seeded by ``seed``), the
    action visited most. Stops after ``time_limit`` seconds and/or ``simulations`` simulations (one of them must be
    given). Raises ValueError otherwise."""
    if time_limit is None and simulations is None:
        raise ValueError("give the ISMCTS bot a time limit or a number of simulations")
    rs = np.random.RandomState(seed)
    bot = TimedISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), uct_c,
                         simulations if simulations is not None else 10 ** 9, time_limit, random_state=rs)
    rng = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
    return bot


def random_bot(seat: int, seed: int):
    """OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``) for ``seat``, seeded by ``seed``."""
    return pyspiel.make_uniform_random_bot(seat, seed)
