"""The data of a ``python_rook`` state without OpenSpiel (issue 32): action ids, the deal's order, the state's
`Core` (the engine's `HandState` behind it) and the resampling of a seat's hidden cards.

`rookcore.openspiel` wraps these in OpenSpiel's `pyspiel.Game` / `pyspiel.State` (see its module doc for the game);
nothing here imports OpenSpiel. Every rule is the engine's (`rookcore.hand`).
"""
from __future__ import annotations

import random
from functools import lru_cache

from .actions import PASS, PLAYS, TRUMPS, Action, Bid, Discard, NameTrump, Pass, Play, bid
from .cards import COLOURS, Card
from .hand import HandState, Phase
from .rules import Rules, get_rules

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


def bid_count(rules: Rules) -> int:
    """How many different bids ``rules`` allows (bid_min to bid_max in steps of bid_step; rules.md §1.2)."""
    return len(rules.legal_bids(None))


def max_calls(rules: Rules) -> int:
    """The most calls an auction can have (rules.md §1.2): every bid at most once (each is higher than the last)
    and each seat's one pass."""
    return bid_count(rules) + 4


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
class Core:
    """What a `RookState` holds (one attribute, so that OpenSpiel's Clone, which deep-copies each Python attribute,
    copies it fast and shares the immutable `Rules`): the cards dealt so far (chance outcomes, in order), the
    `HandState` once the deal is complete, the declarer's discard picks not yet applied, and every player action id.
    Pickles (OpenSpiel's serialisation) as the rule set's name and the action ids, replayed when read back."""

    __slots__ = ("rules", "dealer", "dealt", "hand", "picks", "actions", "cache")

    def __init__(self, rules: Rules, dealer: int) -> None:
        """The data before the deal of a hand of ``rules`` dealt by ``dealer`` (0..3)."""
        self.rules = rules
        self.dealer = dealer
        self.dealt: list[int] = []
        self.hand: HandState | None = None
        self.picks: list[int] = []
        self.actions: list[int] = []
        self.cache: dict = {}

    def __deepcopy__(self, memo) -> "Core":
        """An independent copy (the `HandState` cloned, the `Rules` shared: it is immutable)."""
        new = Core.__new__(Core)
        new.rules, new.dealer = self.rules, self.dealer
        new.dealt, new.picks, new.actions = list(self.dealt), list(self.picks), list(self.actions)
        new.hand = None if self.hand is None else self.hand.clone()
        new.cache = dict(self.cache)
        return new

    def __getstate__(self) -> dict:
        """What pickle keeps: the rule set (name and options), the dealer, the cards dealt and the action ids."""
        return {"variant": self.rules.variant, "options": dict(self.rules.options), "dealer": self.dealer,
                "dealt": list(self.dealt), "actions": list(self.actions)}

    def __setstate__(self, data: dict) -> None:
        """Rebuild from `__getstate__`'s dict by dealing and replaying it (raises ValueError if it is not legal)."""
        Core.__init__(self, get_rules(data["variant"], data["options"] or None), data["dealer"])
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


# ----- resampling ---------------------------------------------------------------------------------------------------
def resample(core: Core, player: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """The chance outcomes and player actions (action ids, in order) of a hand that ``player`` (0..3) cannot tell
    from ``core``'s: the cards it has not seen dealt again at random (every seat's hand size and shown voids kept,
    `rookcore.ai.worlds.sample_world`), the declarer's hidden discard drawn among its cards, every call, trump and
    card the same (`rookcore.openspiel.RookState.resample_from_infostate`). ``rng``: a `random.Random`."""
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


def _resampled_deal(core: Core, player: int, rng: random.Random):
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


def _discarding_deal(core: Core, player: int, rng: random.Random):
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

