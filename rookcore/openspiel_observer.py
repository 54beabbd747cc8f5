"""The observer of ``python_rook`` (`rookcore.openspiel`, issue 32): its information state and observation as
strings and tensors, built from what a seat may see (`HandState.observation`) and its own dealt cards.

Needs OpenSpiel and numpy (the ``openspiel`` extra).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pyspiel

from .actions import Pass
from .cards import COLOURS, Card
from .hand import SEATS, HandState, Phase
from .openspiel_core import Core, bid_count, max_calls

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

    def __init__(self, iig_obs_type, params, game: pyspiel.Game):
        """The observer of ``iig_obs_type`` for ``game`` (a `rookcore.openspiel.RookGame`). Raises ValueError for
        observer ``params`` (none are supported)."""
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

    def set_from(self, state: pyspiel.State, player: int) -> None:
        """Fill `tensor` (and its `dict` views) with what ``player`` knows of ``state`` (a
        `rookcore.openspiel.RookState`)."""
        self.tensor.fill(0)
        core = state.core
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

    def _set_private(self, core: Core, player: int) -> None:
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

    def _set_history(self, core: Core, player: int) -> None:
        view, hand, rules = self.dict, core.hand, core.rules
        for k, (_seat, call) in enumerate(hand.calls):
            view["calls"][k, 0 if type(call) is Pass else 1 + (call.amount - rules.bid_min) // rules.bid_step] = 1
        if hand.trump is not None:
            view["trump"][COLOURS.index(hand.trump)] = 1
        for k, card in enumerate(_played(hand)):
            view["plays"][k, self.index[int(card)]] = 1

    def _set_now(self, core: Core, player: int) -> None:
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
    def string_from(self, state: pyspiel.State, player: int) -> str:
        """What ``player`` knows of ``state`` as one line (the information state with perfect recall, else the
        observation), e.g. ``seat E | dealer N | hand B5 B9 … | calls E:70 S:pass … | trump R | tricks …``."""
        core = state.core
        key = (self.recall, self.public, int(self.private), player)
        found = core.cache.get(key)
        if found is None:
            found = core.cache[key] = self._string(core, player)
        return found

    def _string(self, core: Core, player: int) -> str:
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
