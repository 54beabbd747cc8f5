"""Hidden-card sampling for the sampling AI: deals consistent with one seat's `Observation`.

A *world* gives every hidden card a place (another seat's hand or the nest) so that
hand sizes match, every seat keeps the voids it has shown (a seat that did not follow
the led suit with a card lacking the "any time" privilege holds no card of that suit,
rules.md §1.5, §3), and the result can be replayed into a full `HandState` in the same
position. The AI still never sees hidden cards: worlds are guesses drawn from what the
seat has seen. `sample_world` draws every consistent deal alike; `model_discard` then
re-chooses a hidden discard as a declarer would bury it (the strong AI uses both).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Discard, NameTrump, Play
from ..cards import Card
from ..hand import HandState, Observation, Phase, trick_tables
from .rules_based import greedy_discard

NEST = 4  # slot index of the nest beside seats 0..3


@dataclass(frozen=True)
class World:
    """One sampled deal: ``hands`` (4 lists of Cards now held, seats N E S W) and ``nest`` (the hidden nest:
    the dealt nest during the auction, the declarer's discard afterwards; [] if known or absent)."""

    hands: tuple[list[Card], ...]
    nest: list[Card]


def played_by_seat(obs: Observation) -> list[list[Card]]:
    """Cards each seat (0..3) has played so far, from the completed tricks and the trick in progress."""
    played: list[list[Card]] = [[], [], [], []]
    for trick in obs.tricks:
        for i, card in enumerate(trick.cards):
            played[(trick.leader + i) % 4].append(card)
    if obs.trick:
        for i, card in enumerate(obs.trick):
            played[(obs.trick_leader + i) % 4].append(card)
    return played


def shown_voids(obs: Observation) -> list[set[int]]:
    """Effective suits (colour indexes 0..3) each seat has shown it lacks (rules.md §1.5; privileged cards
    such as the bird prove nothing, since they may be played on any trick)."""
    voids: list[set[int]] = [set(), set(), set(), set()]
    if obs.trump is None:
        return voids
    suit = trick_tables(obs.rules, obs.trump).suit
    tricks = [(t.leader, t.cards) for t in obs.tricks] + ([(obs.trick_leader, obs.trick)] if obs.trick else [])
    for leader, cards in tricks:
        led = suit[cards[0]]
        for i, card in enumerate(cards[1:], 1):
            if suit[card] != led and not obs.rules.has_privilege(card):
                voids[(leader + i) % 4].add(led)
    return voids


def _hidden_nest_size(obs: Observation) -> int:
    rules = obs.rules
    if not rules.nest_size:
        return 0
    if obs.phase is Phase.AUCTION:
        return rules.nest_size
    if obs.seat == obs.declarer:
        return 0  # the declarer saw the nest and knows its discard
    return rules.nest_size


def unknown_cards(obs: Observation) -> list[Card]:
    """Cards whose place the observer does not know (sorted by id)."""
    seen = set(obs.hand)
    for cards in played_by_seat(obs):
        seen.update(cards)
    if obs.discard:
        seen.update(obs.discard)
    return sorted(c for c in obs.rules.deck if c not in seen)


def sample_world(obs: Observation, rng: random.Random) -> World:
    """Draw one `World` consistent with ``obs``: hand sizes and shown voids, every consistent deal possible.

    Each hidden card goes to a random slot with room among the slots that keep the rest placeable (Hall's
    condition over the four suits, kept as a slack per set of suits), so no draw is ever rejected.
    """
    cards = unknown_cards(obs)
    left = [0 if s == obs.seat else obs.hand_sizes[s] for s in range(4)] + [_hidden_nest_size(obs)]
    voids = shown_voids(obs)
    order = list(cards)
    rng.shuffle(order)
    slots: list[list[Card]] = [[] for _ in range(5)]
    if not any(voids):
        start = 0
        for s in range(5):
            slots[s] = order[start:start + left[s]]
            start += left[s]
    else:
        _deal_with_voids(order, left, voids, trick_tables(obs.rules, obs.trump).suit, slots, rng)
    hands = tuple(sorted(obs.hand) if s == obs.seat else slots[s] for s in range(4))
    return World(hands, slots[NEST])


def discard_hidden(obs: Observation) -> bool:
    """Whether ``obs`` is card play seen by a seat that did not see the declarer's discard (a defender or the
    declarer's partner, in a rule set with a nest): where `model_discard` re-chooses the hidden nest."""
    return (obs.phase is Phase.PLAY and bool(obs.rules.nest_size) and obs.declarer is not None
            and obs.seat != obs.declarer and obs.discard is None)


def model_discard(obs: Observation, world: World) -> World:
    """``world`` with the declarer's hidden discard re-chosen as the AIs choose one (rules.md §1.3).

    A uniform `sample_world` puts any 5 of the declarer's 14 cards (hand plus nest) in the nest, trumps and the
    bird as often as low side cards, so it makes the declarer weaker than it is: the strong AI stated that bids
    are made far less often than they were (`benchmarks/calibration.py`). Here the declarer's 14 cards stay as
    drawn (a uniform draw), and the 5 put back are the ones `greedy_discard` would bury with the named trump:
    the rule-based and the strong AI declarers both bury a `greedy_discard`. The cards the declarer has played
    were kept, and those of colours it has shown void in were buried, so the world still fits ``obs``.

    Applies in card play to a seat that did not see the discard (the defenders and the declarer's partner);
    otherwise returns ``world`` unchanged. Returns a `World` with the same hand sizes.
    """
    rules = obs.rules
    decl = obs.declarer
    if not discard_hidden(obs) or len(world.nest) != rules.nest_size:
        return world
    played = played_by_seat(obs)[decl]
    pool = list(world.hands[decl]) + list(world.nest)
    suit = trick_tables(rules, obs.trump).suit
    void = shown_voids(obs)[decl]
    buried = tuple(c for c in world.nest if suit[c] in void)
    nest = greedy_discard(rules, pool + played, obs.trump, kept=frozenset(played), buried=buried)
    out = set(nest)
    hands = tuple(sorted(c for c in pool if c not in out) if s == decl else world.hands[s] for s in range(4))
    return World(hands, sorted(nest))


def _deal_with_voids(order, left, voids, suit, slots, rng) -> None:
    allowed = [sum(1 << k for k in range(4) if k not in voids[s]) for s in range(4)] + [15]
    # slack[K] = room in slots that may take a suit of K, minus cards of K still to place (Hall: all >= 0)
    slack = [0] * 16
    for subset in range(1, 16):
        slack[subset] = sum(left[s] for s in range(5) if allowed[s] & subset) - sum(
            1 for c in order if subset >> suit[c] & 1)
    tight = {(k, s): [K for K in range(1, 16) if allowed[s] & K and not K >> k & 1]
             for k in range(4) for s in range(5)}
    for card in order:
        k = suit[card]
        options = [s for s in range(5) if left[s] and allowed[s] >> k & 1
                   and all(slack[K] >= 1 for K in tight[k, s])]
        slot = rng.choices(options, [left[s] for s in options])[0]
        for K in tight[k, slot]:
            slack[K] -= 1
        slots[slot].append(card)
        left[slot] -= 1


def world_state(obs: Observation, world: World) -> HandState:
    """Rebuild a full `HandState` at the observer's position with the hidden cards placed as in ``world``.

    Each seat's dealt hand is what it holds now plus what it played. For the declarer, the nest as dealt is
    taken to be its discard (what it kept from the nest is indistinguishable from its own cards), so the
    replayed discard is legal. Calls, discard, trump and cards are replayed in order.
    """
    rules = obs.rules
    played = played_by_seat(obs)
    hands = [list(world.hands[s]) + played[s] for s in range(4)]
    if obs.phase is Phase.AUCTION or not rules.nest_size:
        nest = list(world.nest)
        discard = None
    elif obs.phase is Phase.DISCARD:
        nest = sorted(obs.nest) if obs.nest is not None else list(world.nest)
        hands[obs.declarer] = [c for c in hands[obs.declarer] if c not in set(nest)]
        discard = None
    else:
        discard = sorted(obs.discard) if obs.discard is not None else list(world.nest)
        nest = discard
    state = HandState(rules, obs.dealer, hands, nest)
    for _seat, call in obs.calls:
        state.apply(call)
    if discard is not None:
        state.apply(Discard(discard))
    if obs.trump is not None:
        state.apply(NameTrump(obs.trump))
    for cards in played_in_order(obs):
        state.apply(Play(cards))
    return state


def played_in_order(obs: Observation) -> list[Card]:
    """Every card played so far, in play order."""
    cards = [c for t in obs.tricks for c in t.cards]
    return cards + list(obs.trick)
