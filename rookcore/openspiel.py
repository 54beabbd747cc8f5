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
from functools import lru_cache
from typing import Iterable

try:
    import numpy as np
    import pyspiel
except ImportError as _error:  # pragma: no cover - the message is the point
    raise ImportError("rookcore.openspiel needs OpenSpiel: pip install 'crowsnest-rook[openspiel]' "
                      "(open_spiel==2.0.2)") from _error

from .actions import PASS, PLAYS, TRUMPS, Action, Bid, Discard, NameTrump, Pass, Play, bid
from .cards import COLOURS, Card
from .hand import SEATS, HandState, Phase, seat_index
from .rules import Rules, get_rules

GAME_NAME = "python_rook"
PLAY_BASE = 0
"""Action id of playing card c: c (a card id, 0..63)."""
DISCARD_BASE = 64
"""Action id of putting card c back to the nest: 64 + c."""
TRUMP_BASE = 128
"""Action ids of naming trump R, Y, G, B: 128..131 (`rookcore.cards.COLOURS` order)."""
PASS_ACTION = 132
"""Action id of a pass in the auction."""
BID_BASE = 133
"""Action id of the lowest bid; bid ``bid_min + i * bid_step`` is 133 + i."""
MAX_CHANCE_OUTCOMES = 64
"""Chance outcomes are card ids (0..63; the deck's highest is B14 = 62)."""
UTILITIES = ("score", "margin")
"""The ``utility`` parameter's values: each team's hand score, or its hand score minus the other team's."""

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


def bid_count(rules: Rules) -> int:
    """How many different bids ``rules`` allows (bid_min to bid_max in steps of bid_step; rules.md §1.2)."""
    return len(rules.legal_bids(None))


def max_calls(rules: Rules) -> int:
    """The most calls an auction can have (rules.md §1.2): every bid at most once (each is higher than the last)
    and each seat's one pass."""
    return bid_count(rules) + 4


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


# ----- actions ------------------------------------------------------------------------------------------------------
def action_id(rules: Rules, action: Action) -> list[int]:
    """The OpenSpiel action ids of an engine action (`rookcore.actions`) in ``rules``: one id for a call, a trump
    or a card played; ``nest_size`` ids for a `Discard` (its cards in increasing id, as the game takes them).
    Raises ValueError for a bid that ``rules`` does not allow or an unknown action."""
    kind = type(action)
    if kind is Play:
        return [PLAY_BASE + int(action.card)]
    if kind is Pass:
        return [PASS_ACTION]
    if kind is Bid:
        if action.amount not in rules.legal_bids(None):
            raise ValueError(f"{action.amount} is not a bid of {rules.variant}")
        return [BID_BASE + (action.amount - rules.bid_min) // rules.bid_step]
    if kind is NameTrump:
        return [TRUMP_BASE + COLOURS.index(action.colour)]
    if kind is Discard:
        return [DISCARD_BASE + int(c) for c in sorted(action.cards)]
    raise ValueError(f"{action!r} is not a Rook action")


def engine_action(rules: Rules, action: int) -> Action | Card:
    """The engine action of an OpenSpiel action id in ``rules``: `Play`, `PASS`, `Bid`, `NameTrump`, or for a
    discard id (64 + c) the `Card` put back (the whole `Discard` is ``nest_size`` of them). Raises ValueError for an
    id that is no action of ``rules``."""
    a = int(action)
    if PLAY_BASE <= a < DISCARD_BASE and a in PLAYS and Card.from_id(a) in rules.deck_set:
        return PLAYS[a]
    if DISCARD_BASE <= a < TRUMP_BASE and a - DISCARD_BASE in PLAYS and Card.from_id(a - DISCARD_BASE) in \
            rules.deck_set:
        return Card.from_id(a - DISCARD_BASE)
    if TRUMP_BASE <= a < PASS_ACTION:
        return TRUMPS[COLOURS[a - TRUMP_BASE]]
    if a == PASS_ACTION:
        return PASS
    if BID_BASE <= a < BID_BASE + bid_count(rules):
        return bid(rules.bid_min + (a - BID_BASE) * rules.bid_step)
    raise ValueError(f"{action} is not an action of python_rook({rules.variant})")


def deal_slot(rules: Rules, dealer: int, k: int) -> int:
    """Where the k-th card dealt goes (rules.md §1.1, as `HandState.deal`): a seat 0..3, or 4 for the nest."""
    hs = rules.hand_size
    return (dealer + 1 + k // hs) % 4 if k < 4 * hs else 4


@lru_cache(maxsize=None)
def _slots(rules: Rules, dealer: int) -> tuple[int, ...]:
    """`deal_slot` of every card of the deal, in dealing order."""
    return tuple(deal_slot(rules, dealer, k) for k in range(len(rules.deck)))


def deal_actions(rules: Rules, dealer: int, seed: int | None) -> list[int]:
    """The chance outcomes (card ids, in dealing order) that give the deal of ``HandState.deal(rules, dealer,
    seed)``: the seats' hands from the dealer's left, then the nest, each in increasing card id."""
    hand = HandState.deal(rules, dealer, seed)
    d = hand.dealer
    order = [sorted(hand.dealt[(d + 1 + i) % 4]) for i in range(4)] + [sorted(hand.dealt_nest)]
    return [int(c) for cards in order for c in cards]


# ----- the state's data ---------------------------------------------------------------------------------------------
class _Core:
    """What a `RookState` holds (one attribute, so that OpenSpiel's Clone, which deep-copies each Python attribute,
    copies it fast and shares the immutable `Rules`): the cards dealt so far (chance outcomes, in order), the
    `HandState` once the deal is complete, the declarer's discard picks not yet applied, and every player action id.
    Pickles (OpenSpiel's serialisation) as the rule set's name and the action ids, replayed when read back."""

    __slots__ = ("rules", "dealer", "dealt", "hand", "picks", "actions", "cache")

    def __init__(self, rules: Rules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.dealt: list[int] = []
        self.hand: HandState | None = None
        self.picks: list[int] = []
        self.actions: list[int] = []
        self.cache: dict = {}

    def __deepcopy__(self, memo) -> "_Core":
        new = _Core.__new__(_Core)
        new.rules, new.dealer = self.rules, self.dealer
        new.dealt, new.picks, new.actions = list(self.dealt), list(self.picks), list(self.actions)
        new.hand = None if self.hand is None else self.hand.clone()
        new.cache = dict(self.cache)
        return new

    def __getstate__(self) -> dict:
        return {"variant": self.rules.variant, "options": dict(self.rules.options), "dealer": self.dealer,
                "dealt": list(self.dealt), "actions": list(self.actions)}

    def __setstate__(self, data: dict) -> None:
        _Core.__init__(self, get_rules(data["variant"], data["options"] or None), data["dealer"])
        for card in data["dealt"]:
            self.deal(card)
        for action in data["actions"]:
            self.act(action)

    # -- changes --
    def deal(self, card: int) -> None:
        """Deal the next card (a chance outcome). Raises ValueError if it is no card left to deal."""
        card = int(card)
        if self.hand is not None or card not in self.rules.deck_set or card in self.dealt:
            raise ValueError(f"{card} is not a card left to deal")
        self.dealt.append(card)
        self.cache.clear()
        if len(self.dealt) == len(self.rules.deck):
            slots: list[list[int]] = [[], [], [], [], []]
            for slot, c in zip(_slots(self.rules, self.dealer), self.dealt):
                slots[slot].append(c)
            self.hand = HandState(self.rules, self.dealer, slots[:4], slots[4])

    def act(self, action: int) -> None:
        """Apply a player's action id. Raises ValueError (or the engine's IllegalAction, a ValueError) if it is not
        legal now; nothing changes then."""
        hand = self.hand
        if hand is None or hand.is_over:
            raise ValueError(f"no player acts now; {action} cannot be applied")
        a = int(action)
        if hand.phase is Phase.DISCARD:
            if a not in self.discard_actions():
                raise ValueError(f"{a} is not a legal discard now (legal: {self.discard_actions()})")
            self.picks.append(a - DISCARD_BASE)
            if len(self.picks) == self.rules.nest_size:
                hand.apply(Discard(self.picks))
                self.picks = []
        else:
            move = engine_action(self.rules, a)
            if type(move) is Card:
                raise ValueError(f"{a} puts a card back, but it is the {hand.phase.value} phase")
            hand.apply(move)
        self.actions.append(a)
        self.cache.clear()

    # -- queries --
    def left_to_deal(self) -> list[int]:
        """Card ids of the deck not dealt yet, in increasing id."""
        dealt = set(self.dealt)
        return [int(c) for c in sorted(self.rules.deck) if c not in dealt]

    def discard_actions(self) -> list[int]:
        """The declarer's legal discard picks: a card of its hand (nest included) above its last pick that leaves
        enough higher cards to complete the discard (so each discard of rules.md §1.3 is one increasing sequence)."""
        held = sorted(int(c) for c in self.hand.discard_candidates())
        last = self.picks[-1] if self.picks else -1
        above = [c for c in held if c > last]
        need = self.rules.nest_size - len(self.picks)
        return [DISCARD_BASE + c for c in above[:len(above) - need + 1]]

    def legal(self) -> list[int]:
        """The legal action ids of the player to act, increasing ([] at chance nodes and at the end)."""
        hand = self.hand
        if hand is None or hand.is_over:
            return []
        phase = hand.phase
        if phase is Phase.PLAY:
            return [PLAY_BASE + int(c) for c in hand.legal_cards()]
        if phase is Phase.AUCTION:
            r = self.rules
            return [PASS_ACTION] + [BID_BASE + (b - r.bid_min) // r.bid_step for b in r.legal_bids(hand.high_bid)]
        if phase is Phase.DISCARD:
            return self.discard_actions()
        return [TRUMP_BASE + i for i in range(4)]

    def dealt_to(self, seat: int) -> list[int]:
        """Card ids dealt to ``seat`` so far (all of its hand once the deal is complete), increasing."""
        return sorted(c for slot, c in zip(_slots(self.rules, self.dealer), self.dealt) if slot == seat)

    def saw_nest(self, seat: int) -> bool:
        """Whether ``seat`` has seen the nest: it is the declarer and the auction is over (rules.md §1.3)."""
        hand = self.hand
        return (hand is not None and bool(self.rules.nest_size) and seat == hand.declarer
                and hand.phase is not Phase.AUCTION)

    def own_discard(self, seat: int) -> list[int]:
        """The cards ``seat`` has put back (its picks so far, or its whole discard): [] for any other seat."""
        if not self.saw_nest(seat):
            return []
        return sorted(int(c) for c in self.hand.discard) if self.hand.discard is not None else list(self.picks)


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
        self._core = _Core(game.rules, game.dealer)
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
        dealt, actions = _resample(self._core, player, rng)
        state = self.get_game().new_initial_state()
        for a in dealt:
            state.apply_action(a)
        for a in actions:
            state.apply_action(a)
        return state


# ----- resampling ---------------------------------------------------------------------------------------------------
def _resample(core: _Core, player: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """The chance outcomes and player actions of a state ``player`` cannot tell from ``core``'s (see
    `RookState.resample_from_infostate`)."""
    rules = core.rules
    if core.hand is None:  # still dealing: the player's own cards stay where they were dealt
        mine = set(core.dealt_to(player))
        others = [c for c in sorted(rules.deck) if c not in mine]
        rng.shuffle(others)
        drawn = iter(others)
        return [c if c in mine else next(drawn) for c in core.dealt], []
    hand = core.hand
    dealt, nest, discard = _resampled_deal(core, player, rng)
    d = hand.dealer
    chance = [int(c) for i in range(4) for c in sorted(dealt[(d + 1 + i) % 4])] + sorted(int(c) for c in nest)
    actions = list(core.actions)
    if discard is not None and player != hand.declarer:  # the declarer's picks, hidden from the others
        steps = [i for i, a in enumerate(actions) if DISCARD_BASE <= a < TRUMP_BASE]
        for i, card in zip(steps, sorted(discard)):
            actions[i] = DISCARD_BASE + int(card)
    return chance, actions


def _resampled_deal(core: _Core, player: int, rng: random.Random):
    """(dealt hands by seat, dealt nest, discard or None) of a deal ``player`` cannot tell from ``core``'s, with the
    hand's calls, discard, trump and cards still legal when replayed."""
    from .ai.worlds import played_by_seat, sample_world  # noqa: PLC0415 - the AI package is only needed here

    rules, hand = core.rules, core.hand
    decl, ns = hand.declarer, rules.nest_size
    obs = hand.observation(player)
    if hand.phase is Phase.DISCARD and player != decl:
        return _discarding_deal(core, player, rng)
    world = sample_world(obs, rng)
    played = played_by_seat(obs)
    dealt = [list(world.hands[s]) + played[s] for s in range(4)]
    auction = hand.phase is Phase.AUCTION or decl is None or not ns
    if auction:
        return dealt, list(world.nest), None
    if hand.phase is Phase.DISCARD:  # the player is the declarer: it holds the nest it saw
        nest = set(hand.dealt_nest)
        dealt[decl] = [c for c in dealt[decl] if c not in nest]
        return dealt, sorted(nest), None
    if player == decl:  # it knows the nest it took and what it put back
        discard, nest = sorted(hand.discard), sorted(hand.dealt_nest)
    else:
        discard = sorted(world.nest)
        nest = sorted(rng.sample(dealt[decl] + discard, ns))
    pool = set(dealt[decl]) | set(discard)
    dealt[decl] = sorted(pool - set(nest))
    return dealt, nest, discard


def _discarding_deal(core: _Core, player: int, rng: random.Random):
    """`_resampled_deal` while the declarer discards, for another seat: the three other hands (the declarer's with
    the nest) dealt again, the dealt nest and the declarer's picks so far drawn among its cards."""
    hand, rules = core.hand, core.rules
    decl, ns = hand.declarer, rules.nest_size
    mine = set(hand.hands[player])
    hidden = [c for c in sorted(rules.deck) if c not in mine]
    rng.shuffle(hidden)
    held: list[list] = [[], [], [], []]
    start = 0
    for s in range(4):
        if s == player:
            held[s] = sorted(mine)
            continue
        size = len(hand.hands[s])
        held[s] = hidden[start:start + size]
        start += size
    nest = sorted(rng.sample(held[decl], ns))
    discard = sorted(rng.sample(held[decl], ns))
    dealt = [c for c in held[decl] if c not in set(nest)]
    held[decl] = dealt
    return held, nest, discard


# ----- observer -----------------------------------------------------------------------------------------------------
class RookObserver:
    """OpenSpiel observer (the PyObserver interface of ``open_spiel/python/observation.py``): a flat float32
    ``tensor`` with named views in ``dict``, `set_from` and `string_from`.

    With ``perfect_recall`` (the information state): player, dealer, then (private) the seat's dealt cards, the nest
    it took and the cards it put back (declarer only), then (public) every call in order, trump and every card
    played in order. Without (the observation): player, dealer, phase, seat to act, then (private) the hand now, the
    nest while discarding and the discard, then (public) high bid, declarer, seats passed, trump, the cards played in
    completed tricks, the trick in progress, captured points and tricks. Private information of ALL_PLAYERS shows
    every seat's cards; NONE none. Cards are one bit each in the deck's order (`Rules.deck`).
    """

    def __init__(self, iig_obs_type, params, game: RookGame):
        """The observer of ``iig_obs_type`` for ``game``. Raises ValueError for observer ``params`` (none are
        supported)."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        rules = game.rules
        self.rules = rules
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self.index = {int(c): i for i, c in enumerate(rules.deck)}
        deck, bids = len(rules.deck), bid_count(rules)
        pieces = [("player", 4, (4,)), ("dealer", 4, (4,))]
        if not self.recall:
            pieces += [("phase", 5, (5,)), ("to_act", 4, (4,))]
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces += [("hands", 4 * deck, (4, deck)), ("nest", deck, (deck,)), ("discard", deck, (deck,))]
        elif self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces += [("hand", deck, (deck,)), ("nest", deck, (deck,)), ("discard", deck, (deck,))]
        if self.public and self.recall:
            n = max_calls(rules)
            pieces += [("calls", n * (1 + bids), (n, 1 + bids)), ("trump", 4, (4,)),
                       ("plays", 4 * rules.hand_size * deck, (4 * rules.hand_size, deck))]
        elif self.public:
            pieces += [("high_bid", 1 + bids, (1 + bids,)), ("declarer", 4, (4,)), ("passed", 4, (4,)),
                       ("trump", 4, (4,)), ("played", deck, (deck,)), ("trick", 4 * deck, (4, deck)),
                       ("leader", 4, (4,)), ("captured", 2, (2,)), ("tricks_won", 2, (2,))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    # -- tensor --
    def _cards(self, view, cards: Iterable[int]) -> None:
        for c in cards:
            view[self.index[int(c)]] = 1

    def set_from(self, state: RookState, player: int) -> None:
        """Fill `tensor` (and its `dict` views) with what ``player`` knows of ``state``."""
        self.tensor.fill(0)
        core = state._core
        view = self.dict
        view["player"][player] = 1
        view["dealer"][core.dealer] = 1
        hand = core.hand
        if not self.recall:
            if hand is not None:
                view["phase"][list(Phase).index(hand.phase)] = 1
                if hand.to_act is not None:
                    view["to_act"][hand.to_act] = 1
        self._set_private(core, player)
        if self.public and hand is not None:
            (self._set_history if self.recall else self._set_now)(core, player)

    def _set_private(self, core: _Core, player: int) -> None:
        view, hand = self.dict, core.hand
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            for s in range(4):
                self._cards(view["hands"][s], core.dealt_to(s) if self.recall or hand is None else hand.hands[s])
            if hand is not None:
                self._cards(view["nest"], hand.dealt_nest)
                self._cards(view["discard"], hand.discard if hand.discard is not None else core.picks)
        elif self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self._cards(view["hand"], core.dealt_to(player) if self.recall or hand is None else hand.hands[player])
            if core.saw_nest(player) and (self.recall or hand.phase is Phase.DISCARD):
                self._cards(view["nest"], hand.dealt_nest)
            self._cards(view["discard"], core.own_discard(player))

    def _set_history(self, core: _Core, player: int) -> None:
        view, hand, rules = self.dict, core.hand, core.rules
        for k, (_seat, call) in enumerate(hand.calls):
            view["calls"][k, 0 if type(call) is Pass else 1 + (call.amount - rules.bid_min) // rules.bid_step] = 1
        if hand.trump is not None:
            view["trump"][COLOURS.index(hand.trump)] = 1
        for k, card in enumerate(_played(hand)):
            view["plays"][k, self.index[int(card)]] = 1

    def _set_now(self, core: _Core, player: int) -> None:
        view, hand, rules = self.dict, core.hand, core.rules
        obs = hand.observation(player)
        if obs.high_bid is not None:
            view["high_bid"][1 + (obs.high_bid - rules.bid_min) // rules.bid_step] = 1
        else:
            view["high_bid"][0] = 1
        if obs.declarer is not None:
            view["declarer"][obs.declarer] = 1
        for s, call in obs.calls:
            if type(call) is Pass:
                view["passed"][s] = 1
        if obs.trump is not None:
            view["trump"][COLOURS.index(obs.trump)] = 1
        for trick in obs.tricks:
            self._cards(view["played"], trick.cards)
        for i, card in enumerate(obs.trick):
            view["trick"][i, self.index[int(card)]] = 1
        if obs.trick_leader is not None:
            view["leader"][obs.trick_leader] = 1
        view["captured"][:] = [p / max(1, rules.points_per_hand) for p in obs.captured]
        view["tricks_won"][:] = [t / rules.hand_size for t in obs.tricks_won]

    # -- string --
    def string_from(self, state: RookState, player: int) -> str:
        """What ``player`` knows of ``state`` as one line (the information state with perfect recall, else the
        observation), e.g. ``seat E | dealer N | hand B5 B9 … | calls E:70 S:pass … | trump R | tricks …``."""
        core = state._core
        key = (self.recall, self.public, int(self.private), player)
        found = core.cache.get(key)
        if found is None:
            found = core.cache[key] = self._string(core, player)
        return found

    def _string(self, core: _Core, player: int) -> str:
        name = core.rules.card_name
        cards = lambda ids: " ".join(name(Card.from_id(int(c))) for c in sorted(ids))  # noqa: E731
        hand = core.hand
        parts = [f"seat {SEATS[player]}", f"dealer {SEATS[core.dealer]}"]
        if not self.recall and hand is not None:
            parts.append(f"phase {hand.phase.value}" + (f", {SEATS[hand.to_act]} to act" if hand.to_act is not None
                                                        else ""))
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            for s in range(4):
                parts.append(f"{SEATS[s]} {cards(core.dealt_to(s) if self.recall or hand is None else hand.hands[s])}")
            if hand is not None:
                parts.append(f"nest {cards(hand.dealt_nest)}")
                parts.append(f"discard {cards(hand.discard if hand.discard is not None else core.picks)}")
        elif self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            parts.append(f"hand {cards(core.dealt_to(player) if self.recall or hand is None else hand.hands[player])}")
            if core.saw_nest(player) and (self.recall or hand.phase is Phase.DISCARD):
                parts.append(f"nest {cards(hand.dealt_nest)}")
            if core.saw_nest(player):
                parts.append(f"discard {cards(core.own_discard(player))}")
        if self.public and hand is not None:
            parts += self._public_history(hand) if self.recall else self._public_now(hand, player)
        return " | ".join(parts)

    def _public_history(self, hand: HandState) -> list[str]:
        name = self.rules.card_name
        parts = [f"calls {' '.join(f'{SEATS[s]}:{a}' for s, a in hand.calls)}"]
        if hand.trump is not None:
            parts.append(f"trump {hand.trump}")
        tricks = [(t.leader, t.cards) for t in hand.tricks] + ([(hand.trick_leader, hand.trick)] if hand.trick else [])
        if tricks:
            parts.append("tricks " + " / ".join(f"{SEATS[lead]}: {' '.join(name(c) for c in cs)}"
                                                for lead, cs in tricks))
        return parts

    def _public_now(self, hand: HandState, player: int) -> list[str]:
        obs = hand.observation(player)
        name = self.rules.card_name
        parts = [f"calls {' '.join(f'{SEATS[s]}:{a}' for s, a in obs.calls)}"]
        if obs.high_bid is not None:
            parts.append(f"high bid {obs.high_bid}" + (f" by {SEATS[obs.declarer]}" if obs.declarer is not None
                                                       else ""))
        if obs.trump is not None:
            parts.append(f"trump {obs.trump}")
        played = sorted(c for t in obs.tricks for c in t.cards)
        if played:
            parts.append(f"played {' '.join(name(c) for c in played)}")
        if obs.trick:
            parts.append(f"trick {SEATS[obs.trick_leader]}: {' '.join(name(c) for c in obs.trick)}")
        if obs.tricks:
            parts.append(f"captured {obs.captured[0]} {obs.captured[1]}, tricks {obs.tricks_won[0]} "
                         f"{obs.tricks_won[1]}")
        return parts


def _played(hand: HandState) -> list[Card]:
    """Every card played so far, in play order."""
    return [c for t in hand.tricks for c in t.cards] + list(hand.trick)


pyspiel.register_game(_GAME_TYPE, RookGame)


def load(rules: str = "crowsnest", dealer: int = 0, utility: str = "score") -> RookGame:
    """``pyspiel.load_game("python_rook", …)`` with these parameters (module doc). Raises RulesError for an unknown
    rule set, ValueError for a bad dealer or utility (raised while OpenSpiel builds the game)."""
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "dealer": int(dealer), "utility": utility})


__all__ = ["GAME_NAME", "RookGame", "RookState", "RookObserver", "action_id", "engine_action", "deal_actions",
           "deal_slot", "game_info", "load", "bid_count", "max_calls", "PLAY_BASE", "DISCARD_BASE", "TRUMP_BASE",
           "PASS_ACTION", "BID_BASE", "UTILITIES"]

