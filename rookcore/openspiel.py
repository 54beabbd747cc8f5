"""Rook as an OpenSpiel game: ``python_rook``, registered with `pyspiel.register_game` (issue 32).

It follows OpenSpiel's own Python games (``open_spiel/python/games/kuhn_poker.py``, ``liars_poker.py`` in
OpenSpiel 2.0.2): a `pyspiel.GameType`, a `pyspiel.GameInfo`, a `RookGame` (`pyspiel.Game`), a `RookState`
(`pyspiel.State`) and an observer (`RookObserver`) for the information state and the observation. Every rule is
the engine's: a `RookState` drives a `rookcore.hand.HandState` and never decides a rule itself.

Needs OpenSpiel (``pip install 'crowsnest-rook[openspiel]'``, open_spiel==2.0.2); importing this module without it
raises ImportError naming the extra. The app never imports it.

The game, one hand of Rook (rules.md §1) for four players 0..3 = seats N, E, S, W (teams N–S = 0, 2 and E–W = 1, 3):

* **Parameters**: ``rules`` (a rule set's name, `rookcore.rules.get_rules`: crowsnest (default), tournament
  (alias kentucky-discard), partnership, 1-high-partnership, red-1, buckeye, dixie), ``dealer`` (0..3, default 0 =
  N) and ``utility`` (``"score"``, default: each player's return is its team's hand score (rules.md §1.7) as the
  engine scores it; ``"margin"``: its team's hand score minus the other team's).
* **Chance**: the deal, card by card (rules.md §1.1): chance outcome = a card id (`rookcore.cards`) not yet dealt,
  all alike. The k-th card goes to seat (dealer + 1 + k // hand_size) mod 4, the cards after 4 × hand_size to the
  nest, as `HandState.deal` deals a shuffled deck (`deal_actions` gives the chance outcomes of the engine's seeded
  deal).
* **Actions** (integer ids, `action_id` / `engine_action`): a card played = its card id (0..63); a card put back to
  the nest = 64 + card id (the declarer's discard, rules.md §1.3, is ``nest_size`` such actions, one card each, in
  increasing card id so that each discard is one sequence); naming trump R, Y, G, B = 128..131; pass = 132; a bid
  of ``bid_min + i × bid_step`` points = 133 + i.
* **Returns**: at the end of the hand (scored, or passed out: all 0), per ``utility``; `RookState.score` is the
  engine's (N–S, E–W) hand score.
* **Information state** (perfect recall) of a seat: its own dealt cards, every call in order, for the declarer the
  nest it took and the cards it put back, trump, and every card played in order (with who led each trick) — built
  from `HandState.observation` (what the seat may see) and the seat's own dealt cards; never another seat's hidden
  card. The **observation** (no recall): the seat's current `HandState.observation` (hand, calls, high bid,
  declarer, trump, cards played, the trick, captured points and tricks).
* **Resampling**: `RookState.resample_from_infostate` deals the hidden cards again so that the seat's information
  state is unchanged (hand sizes and the voids shown kept, `rookcore.ai.worlds.sample_world`), and replays the hand;
  OpenSpiel's ``ISMCTSBot`` calls it to draw the worlds it searches.
"""
from __future__ import annotations

import random

try:
    import pyspiel
except ImportError as _error:  # pragma: no cover - the message is the point
    raise ImportError("rookcore.openspiel needs OpenSpiel: pip install 'crowsnest-rook[openspiel]' "
                      "(open_spiel==2.0.2)") from _error

from .actions import NameTrump, Pass, Play
from .cards import Card
from .hand import SEATS, HandState, Phase, seat_index
from .openspiel_core import (BID_BASE, DISCARD_BASE, MAX_CHANCE_OUTCOMES, PASS_ACTION, PLAY_BASE, TRUMP_BASE,
                             UTILITIES, Core, action_id, bid_count, deal_actions, deal_slot, engine_action, max_calls,
                             resample)
from .openspiel_observer import RookObserver
from .rules import Rules, get_rules

GAME_NAME = "python_rook"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Rook (CrowsNest rookcore)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "crowsnest", "dealer": 0, "utility": "score"})


def game_info(rules: Rules, utility: str = "score") -> "pyspiel.GameInfo":
    """The `pyspiel.GameInfo` of ``python_rook`` for ``rules`` (a `Rules`) and ``utility`` (one of `UTILITIES`):
    actions, chance outcomes, players, the bounds of a return (points) and the longest hand in player actions.
    Raises ValueError for an unknown ``utility``."""
    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
    top = max(rules.points_per_hand, rules.bid_max)  # a team's best hand score (rules.md §1.7)
    if utility == "margin":  # declarers set (minus the bid) while the defenders take every point
        low, high = -(rules.points_per_hand + rules.bid_max), rules.points_per_hand + rules.bid_max
    else:
        low, high = -rules.bid_max, top
    return pyspiel.GameInfo(
        num_distinct_actions=BID_BASE + bid_count(rules), max_chance_outcomes=MAX_CHANCE_OUTCOMES, num_players=4,
        min_utility=float(low), max_utility=float(high), utility_sum=None,
        max_game_length=max_calls(rules) + rules.nest_size + 1 + 4 * rules.hand_size)


# ----- the game -----------------------------------------------------------------------------------------------------
class RookGame(pyspiel.Game):
    """One hand of Rook (rules.md §1) as an OpenSpiel game; parameters ``rules``, ``dealer``, ``utility`` (module
    doc). Raises RulesError (a ValueError) for an unknown rule set, ValueError for a dealer outside 0..3 or an
    unknown utility."""

    def __init__(self, params=None):
        """Build the game from OpenSpiel ``params`` (a dict; missing ones take the defaults)."""
        params = dict(params or {})
        rules = get_rules(str(params.get("rules", "crowsnest")))
        dealer = params.get("dealer", 0)
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise ValueError(f"dealer must be 0..3 (N, E, S, W), not {dealer!r}")
        utility = params.get("utility", "score")
        super().__init__(_GAME_TYPE, game_info(rules, utility), params)
        self.rules = rules
        self.dealer = dealer
        self.utility = utility

    def new_initial_state(self) -> "RookState":
        """The state before the first card is dealt (a chance node)."""
        return RookState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "RookObserver":
        """An observer (`RookObserver`) of ``iig_obs_type`` (default: the observation, no perfect recall)."""
        return RookObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self)


class RookState(pyspiel.State):
    """A `python_rook` state: the deal so far, then the engine's `HandState` (property `hand`)."""

    def __init__(self, game: RookGame):
        """The state before the deal; only `RookGame.new_initial_state` (and OpenSpiel's Clone) call this."""
        super().__init__(game)
        self._core = Core(game.rules, game.dealer)
        self._utility = game.utility

    # -- OpenSpiel API --
    def current_player(self) -> int:
        """The player to act (0..3 = N, E, S, W), `pyspiel.PlayerId.CHANCE` while dealing, TERMINAL at the end."""
        hand = self._core.hand
        if hand is None:
            return pyspiel.PlayerId.CHANCE
        if hand.phase is Phase.DONE:
            return pyspiel.PlayerId.TERMINAL
        return hand.to_act

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids of ``player`` (the player to act; OpenSpiel asks no other), increasing."""
        return self._core.legal() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt: every card not dealt yet, all alike (rules.md §1.1 a shuffled deck)."""
        left = self._core.left_to_deal()
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        """Deal a card (chance) or apply the player's action. Raises ValueError for an illegal one (state
        unchanged)."""
        if self._core.hand is None:
            self._core.deal(int(action))
        else:
            self._core.act(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in words: ``deal R14``, ``play R14``, ``discard R5``, ``trump R``, ``pass``, ``bid 85``."""
        rules = self._core.rules
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {rules.card_name(Card.from_id(int(action)))}"
        try:
            move = engine_action(rules, action)
        except ValueError:
            return f"action {int(action)}"
        if type(move) is Card:
            return f"discard {rules.card_name(move)}"
        if type(move) is Play:
            return f"play {rules.card_name(move.card)}"
        if type(move) is NameTrump:
            return f"trump {move.colour}"
        return "pass" if type(move) is Pass else f"bid {move.amount}"

    def is_terminal(self) -> bool:
        """True once the hand is scored or passed out."""
        hand = self._core.hand
        return hand is not None and hand.phase is Phase.DONE

    def returns(self) -> list[float]:
        """Each player's return (points): its team's hand score (``utility`` "score"), or that minus the other
        team's ("margin"); all 0 before the end and for a passed-out hand."""
        if not self.is_terminal():
            return [0.0] * 4
        ns, ew = self.score()
        if self._utility == "margin":
            ns, ew = ns - ew, ew - ns
        return [float(ns), float(ew), float(ns), float(ew)]

    def __str__(self) -> str:
        """The whole state (every hand: for debugging, not an observation)."""
        core = self._core
        name = core.rules.card_name
        if core.hand is None:
            return f"dealer {SEATS[core.dealer]}; dealt {' '.join(name(Card.from_id(c)) for c in core.dealt)}"
        hand = core.hand
        hands = "; ".join(f"{SEATS[s]}: {' '.join(name(c) for c in sorted(hand.hands[s]))}" for s in range(4))
        calls = " ".join(f"{SEATS[s]}:{a}" for s, a in hand.calls)
        tricks = " | ".join(f"{SEATS[t.leader]}: {' '.join(name(c) for c in t.cards)}" for t in hand.tricks)
        trick = " ".join(name(c) for c in hand.trick)
        picks = " ".join(name(Card.from_id(c)) for c in core.picks)
        nest = " ".join(name(c) for c in sorted(hand.nest))
        return (f"dealer {SEATS[hand.dealer]}; phase {hand.phase.value}; {hands}; nest: {nest}; calls: {calls}; "
                f"picks: {picks}; trump: {hand.trump or '-'}; tricks: {tricks}; trick: {trick}; "
                f"captured {hand.captured[0]} {hand.captured[1]}")

    # -- Rook --
    @property
    def hand(self) -> HandState | None:
        """The engine's `HandState` (None until the deal is complete). Read it; do not change it (apply actions
        through `apply_action`)."""
        return self._core.hand

    @property
    def core(self) -> Core:
        """The state's data (`rookcore.openspiel_core.Core`: the cards dealt, the `HandState`, the discard picks, the
        action ids). Read it; change it only through `apply_action`."""
        return self._core

    @property
    def rules(self) -> Rules:
        """The rule set of this game."""
        return self._core.rules

    @property
    def pending_discard(self) -> list[int]:
        """The card ids the declarer has put back so far during its discard (not yet applied to the engine)."""
        return list(self._core.picks)

    def score(self) -> tuple[int, int]:
        """The engine's hand score (N–S, E–W) in points (rules.md §1.7). Raises IllegalAction (a ValueError) before
        the end of the hand."""
        if self._core.hand is None:
            raise ValueError("the hand is not over yet (still dealing)")
        return self._core.hand.score()

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "RookState":
        """A new state that ``player_id``'s information state cannot tell from this one (OpenSpiel's
        ``State::ResampleFromInfostate``): the cards it has not seen dealt again at random, keeping every seat's
        hand size and the voids it has shown (`rookcore.ai.worlds.sample_world`), the declarer's hidden discard drawn
        among its cards, and the hand replayed. ``probability_sampler``: a `random.Random`, or a callable returning
        a float in [0, 1) that seeds one (``pyspiel.UniformProbabilitySampler``), or None. Raises ValueError for a
        player outside 0..3."""
        player = seat_index(int(player_id))
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        elif callable(probability_sampler):
            rng = random.Random(int(probability_sampler() * 2 ** 53))
        else:
            rng = random.Random()
        dealt, actions = resample(self._core, player, rng)
        state = self.get_game().new_initial_state()
        for a in dealt:
            state.apply_action(a)
        for a in actions:
            state.apply_action(a)
        return state




pyspiel.register_game(_GAME_TYPE, RookGame)


def load(rules: str = "crowsnest", dealer: int = 0, utility: str = "score") -> RookGame:
    """``pyspiel.load_game("python_rook", …)`` with these parameters (module doc). Raises RulesError for an unknown
    rule set, ValueError for a bad dealer or utility (raised while OpenSpiel builds the game)."""
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "dealer": int(dealer), "utility": utility})


__all__ = ["GAME_NAME", "RookGame", "RookState", "RookObserver", "action_id", "engine_action", "deal_actions",
           "deal_slot", "game_info", "load", "bid_count", "max_calls", "PLAY_BASE", "DISCARD_BASE", "TRUMP_BASE",
           "PASS_ACTION", "BID_BASE", "UTILITIES"]


