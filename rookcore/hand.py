"""One hand of Rook: deal → auction → nest → trump → play → count and score (rules.md §1, §3).

`HandState` is the mutable state with ``legal_actions()`` / ``apply()`` /
``undo()`` / ``clone()`` and ``observation(seat)`` (what one seat may see).
Seats are ints 0..3 = N, E, S, W (``SEATS``); team 0 = N–S, team 1 = E–W.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Iterable, Sequence

from .actions import PASS, PLAYS, TRUMPS, Action, Bid, Discard, NameTrump, Pass, Play, bid
from .cards import COLOURS, COLOUR_NAMES, Card, first_repeat
from .i18n import _, ngettext
from .rules import FIRST_LEAD_DECLARER, MAKE_BID, Rules, get_rules
from .words import list_text, phase_name, seat_name

SEATS = ("N", "E", "S", "W")
TEAMS = ("NS", "EW")
TEAM_NAMES = ("N–S", "E–W")
"""The teams as written in sentences (team 0, team 1)."""


def seat_index(seat: str | int) -> int:
    """Index 0..3 of a seat given as "N"/"E"/"S"/"W" or 0..3; raises ValueError otherwise."""
    if isinstance(seat, int) and 0 <= seat < 4:
        return seat
    if isinstance(seat, str) and seat.upper() in SEATS:
        return SEATS.index(seat.upper())
    raise ValueError(f"{seat!r} is not a seat (expected N, E, S or W)")


def team_of(seat: int) -> int:
    """Team index of a seat: 0 for N–S, 1 for E–W."""
    return seat & 1


class Phase(str, Enum):
    """The phase of a hand (rules.md §1 steps)."""

    AUCTION = "auction"
    DISCARD = "discard"
    TRUMP = "trump"
    PLAY = "play"
    DONE = "done"


class DealError(ValueError):
    """A deal that breaks rules.md §1.1 / §5 (sizes, every card once). ``part``: where the fault is, "hands" or
    "nest" (a record names it by its JSON path)."""

    def __init__(self, message: str, part: str = "hands") -> None:
        super().__init__(message)
        self.part = part


class IllegalAction(ValueError):
    """An action that the rules forbid now; the message names the rule. The state is unchanged."""


class OutOfTurn(IllegalAction):
    """A seat acted when it was not its turn."""


class WrongPhase(IllegalAction):
    """An action of the wrong kind for the phase (e.g. a card during the auction)."""


@dataclass(frozen=True)
class TrickTables:
    """Per (rules, trump) lookup tables: effective suit and trick-taking power of each card id.

    suit[id]: colour index 0..3 (trump cards — incl. bird and Red 1 — get the trump index).
    trump_power[id]: > 0 for trumps, higher wins; rank_power[id]: rank within its colour, higher wins.
    """

    trump: int
    suit: tuple[int, ...]
    trump_power: tuple[int, ...]
    rank_power: tuple[int, ...]


@lru_cache(maxsize=None)
def trick_tables(rules: Rules, trump: str) -> TrickTables:
    """Build the `TrickTables` for ``rules`` with ``trump`` named (rules.md §1.5, §3)."""
    t = COLOURS.index(trump)
    suit = [-1] * 64
    rank = [0] * 64
    for card in rules.deck:
        suit[card] = t if rules.is_trump_card(card) else COLOURS.index(card.colour)
        if not rules.is_trump_card(card):
            rank[card] = len(rules.order) - rules.order.index(card.number)
    power = [0] * 64
    order = rules.trump_order(trump)
    for i, card in enumerate(order):
        power[card] = len(order) - i
    return TrickTables(t, tuple(suit), tuple(power), tuple(rank))


def trick_winner(tables: TrickTables, cards: Sequence[int]) -> int:
    """Index (0..3, in play order) of the card that wins the trick ``cards`` (rules.md §1.5)."""
    tp, rp, suit = tables.trump_power, tables.rank_power, tables.suit
    led = suit[cards[0]]
    best, best_key = 0, -1
    for i, c in enumerate(cards):
        key = tp[c] * 100 if tp[c] else (rp[c] if suit[c] == led else 0)
        if key > best_key:
            best, best_key = i, key
    return best


def hand_score(rules: Rules, captured: Sequence[int], declarer: int, bid_amount: int) -> tuple[int, int]:
    """Hand score (N–S, E–W) in points from the final ``captured`` points (rules.md §1.7).

    The defenders score what they captured; the declaring team (of seat ``declarer``) scores the bid or what it
    captured (``rules.make_score``) if it reached ``bid_amount``, else minus the bid.
    """
    team = declarer & 1
    result = [captured[0], captured[1]]
    if captured[team] >= bid_amount:
        result[team] = bid_amount if rules.make_score == MAKE_BID else captured[team]
    else:
        result[team] = -bid_amount
    return (result[0], result[1])


@dataclass(frozen=True)
class CountParts:
    """The count of a finished hand beyond the tricks' counters (rules.md §1.6; `HandState.count_parts`).

    nest_team: team (0 = N–S, 1 = E–W) that took the last trick, so the nest's counters; nest_points: those points
    (0 without a nest); bonus_team: team that took more tricks where the rule set has a majority bonus (None: no
    bonus rule, or an equal split); bonus: the points it got (0 when none).
    """

    nest_team: int
    nest_points: int
    bonus_team: int | None
    bonus: int


@dataclass(frozen=True)
class Trick:
    """A completed trick: ``leader`` seat, ``cards`` in play order, ``winner`` seat, counter ``points``."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class Observation:
    """What one seat may see (OpenSpiel-style observation; never another seat's hidden cards).

    seat: the observer; hand: its cards now; nest: the nest, only for the declarer while it discards;
    discard: the cards it put back, only for the declarer; calls: (seat, action) in order;
    tricks: completed tricks; trick: (leader, cards so far) of the trick in progress;
    hand_sizes: cards held by each seat; legal: the observer's legal actions if it is to act, else ().
    """

    rules: Rules
    seat: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: frozenset
    nest: frozenset | None
    discard: frozenset | None
    calls: tuple
    high_bid: int | None
    declarer: int | None
    trump: str | None
    tricks: tuple
    trick_leader: int | None
    trick: tuple
    captured: tuple
    tricks_won: tuple
    hand_sizes: tuple
    legal: tuple


_WHAT = {
    "call": (lambda: _("cannot call: the hand is over"),
             lambda phase: _("cannot call now: it is the {phase} phase", phase=phase)),
    "discard": (lambda: _("cannot discard: the hand is over"),
                lambda phase: _("cannot discard now: it is the {phase} phase", phase=phase)),
    "name trump": (lambda: _("cannot name trump: the hand is over"),
                   lambda phase: _("cannot name trump now: it is the {phase} phase", phase=phase)),
    "play a card": (lambda: _("cannot play a card: the hand is over"),
                    lambda phase: _("cannot play a card now: it is the {phase} phase", phase=phase)),
}
"""The WrongPhase messages of each kind of action: (the hand is over, another phase), whole sentences."""


class HandState:
    """The state of one hand (rules.md §1). Mutable; use `clone()` for a copy.

    Construct with `HandState.deal(rules, dealer, seed)` (a seeded deal) or `HandState(rules, dealer, hands, nest)` (a
    known deal).
    """

    def __init__(self, rules: Rules, dealer: int, hands: Sequence[Iterable[Card]], nest: Iterable[Card]):
        """Start a hand from a known deal. ``hands``: 4 card collections (N, E, S, W); ``nest``: the nest.

        Raises `DealError` (a ValueError naming the part at fault) if the deal does not use every card of the deck
        exactly once with the right sizes (a card listed twice in one hand or the nest included).
        """
        self.rules = rules
        self.dealer = seat_index(dealer)
        listed = [[Card.from_id(int(c)) for c in h] for h in hands] + [[Card.from_id(int(c)) for c in nest]]
        self.dealt = tuple(frozenset(h) for h in listed[:4])
        self.dealt_nest = frozenset(listed[4])
        self._check_deal(listed)
        self.hands: list[set[Card]] = [set(h) for h in self.dealt]
        self.phase = Phase.AUCTION
        self.to_act: int | None = (self.dealer + 1) % 4
        self.calls: list[tuple[int, Bid | Pass]] = []
        self.passed = [False] * 4
        self.high_bid: int | None = None
        self.declarer: int | None = None
        self.discard: frozenset | None = None
        self.trump: str | None = None
        self.tables: TrickTables | None = None
        self.tricks: list[Trick] = []
        self.trick_leader: int | None = None
        self.trick: list[Card] = []
        self.captured = [0, 0]
        self.tricks_won = [0, 0]
        self.history: list[tuple[int, Action, tuple]] = []

    # ----- construction -----------------------------------------------------
    @classmethod
    def deal(cls, rules: Rules | None = None, dealer: str | int = "N", seed: int | None = None) -> "HandState":
        """Shuffle with ``random.Random(seed)`` and deal (rules.md §1.1): same seed, same deal.

        Cards go ``hand_size`` to each seat starting left of the dealer, the rest to the nest.
        """
        rules = rules or get_rules()
        deck = list(rules.deck)
        random.Random(seed).shuffle(deck)
        d = seat_index(dealer)
        hs = rules.hand_size
        hands: list[list[Card]] = [[], [], [], []]
        for i in range(4):
            hands[(d + 1 + i) % 4] = deck[i * hs:(i + 1) * hs]
        return cls(rules, d, hands, deck[4 * hs:])

    def _check_deal(self, listed: list[list[Card]]) -> None:
        """Raise `DealError` unless the deal is valid; ``listed``: the four hands and the nest as given."""
        r = self.rules
        for s, (cards, kept) in enumerate(zip(listed, self.dealt + (self.dealt_nest,))):
            if len(cards) != len(kept):  # the set lost a card listed twice
                where, part = (f"{SEATS[s]}'s hand", "hands") if s < 4 else ("the nest", "nest")
                raise DealError(f"{r.card_name(cards[first_repeat(cards)])} is listed twice in {where}", part)
        for s, h in enumerate(self.dealt):
            if len(h) != r.hand_size:
                raise DealError(f"{SEATS[s]} holds {len(h)} cards; {r.title} deals {r.hand_size}")
        if len(self.dealt_nest) != r.nest_size:
            raise DealError(f"the nest has {len(self.dealt_nest)} cards; {r.title} has {r.nest_size}", "nest")
        seen = set(self.dealt_nest)
        for h in self.dealt:
            if seen & h:
                raise DealError(f"{r.card_name(min(seen & h))} is dealt twice")
            seen |= h
        if seen != r.deck_set:
            extra = sorted(seen - r.deck_set)
            if extra:
                raise DealError(f"{r.card_name(extra[0])} is not a card of {r.title}")
            raise DealError(f"{r.card_name(sorted(r.deck_set - seen)[0])} is missing from the deal")

    def clone(self) -> "HandState":
        """An independent copy (history included, so the copy can undo too)."""
        new = object.__new__(HandState)
        new.__dict__.update(self.__dict__)
        new.hands = [set(h) for h in self.hands]
        new.calls = list(self.calls)
        new.passed = list(self.passed)
        new.tricks = list(self.tricks)
        new.trick = list(self.trick)
        new.captured = list(self.captured)
        new.tricks_won = list(self.tricks_won)
        new.history = list(self.history)
        return new

    # ----- queries ----------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the hand is scored or passed out."""
        return self.phase is Phase.DONE

    @property
    def passed_out(self) -> bool:
        """True if all four seats passed (rules.md §1.2: the same dealer redeals, no score)."""
        return self.phase is Phase.DONE and self.declarer is None

    @property
    def step(self) -> int:
        """Number of actions applied so far (record step numbering, record-format.md "comments")."""
        return len(self.history)

    @property
    def nest(self) -> frozenset:
        """The nest now: as dealt until the discard, then the discarded cards."""
        return self.discard if self.discard is not None else self.dealt_nest

    def legal_actions(self) -> list[Action]:
        """Legal actions of the seat to act (empty when the hand is over).

        In the discard phase this lists every `Discard` of exactly ``nest_size`` cards
        (can be thousands: use `discard_candidates()` to list cards instead).
        """
        if self.phase is Phase.AUCTION:
            return [PASS] + [bid(b) for b in self.rules.legal_bids(self.high_bid)]
        if self.phase is Phase.PLAY:
            return [PLAYS[c] for c in self.legal_cards()]
        if self.phase is Phase.TRUMP:
            return list(TRUMPS.values())
        if self.phase is Phase.DISCARD:
            hand = sorted(self.hands[self.declarer])
            return [Discard(c) for c in itertools.combinations(hand, self.rules.nest_size)]
        return []

    def discard_candidates(self) -> list[Card]:
        """Cards the declarer may put back (all of hand plus nest) during the discard, else []."""
        return sorted(self.hands[self.declarer]) if self.phase is Phase.DISCARD else []

    def legal_cards(self) -> list[Card]:
        """Cards the seat to act may play now (rules.md §1.5 follow suit, §3 privileges); [] outside play."""
        if self.phase is not Phase.PLAY:
            return []
        hand = self.hands[self.to_act]
        if not self.trick:
            return sorted(hand)
        suit = self.tables.suit
        led = suit[self.trick[0]]
        follow = [c for c in hand if suit[c] == led]
        if not follow:
            return sorted(hand)
        rules = self.rules
        follow.extend(c for c in hand if suit[c] != led and rules.has_privilege(c))
        return sorted(follow)

    def card_suit(self, card: Card) -> str | None:
        """Effective suit letter of ``card`` once trump is named (bird / Red 1 → trump); None before."""
        return None if self.tables is None else COLOURS[self.tables.suit[card]]

    # ----- apply ------------------------------------------------------------
    def apply(self, action: Action, seat: str | int | None = None) -> None:
        """Apply ``action`` for the seat to act (or check it is ``seat``'s turn first).

        Raises OutOfTurn, WrongPhase or IllegalAction (message names the rule, e.g.
        ``W cannot play G5: must follow R (holds R9)``); the state is then unchanged.
        """
        if seat is not None and self.phase is not Phase.DONE and seat_index(seat) != self.to_act:
            raise OutOfTurn(_("it is {seat}'s turn, not {other}'s", seat=seat_name(self.to_act),
                              other=seat_name(seat_index(seat))))
        kind = type(action)
        if kind is Play:
            self._play(action)
        elif kind is Bid or kind is Pass:
            self._call(action)
        elif kind is Discard:
            self._discard(action)
        elif kind is NameTrump:
            self._name_trump(action)
        else:
            raise IllegalAction(f"{action!r} is not an action")

    def _expect(self, phase: Phase, what: str) -> None:
        """Raise WrongPhase unless the hand is in ``phase``; ``what``: the action tried, a key of `_WHAT`."""
        if self.phase is not phase:
            over, now = _WHAT[what]
            if self.phase is Phase.DONE:
                raise WrongPhase(over())
            raise WrongPhase(now(phase_name(self.phase.value)))

    def _call(self, action: Bid | Pass) -> None:
        self._expect(Phase.AUCTION, "call")
        seat = self.to_act
        if type(action) is Bid and type(action.amount) is not int:
            raise IllegalAction(_("a bid must be a whole number of points, not {value}", value=repr(action.amount)))
        if type(action) is Bid:
            legal = self.rules.legal_bids(self.high_bid)
            if action.amount not in legal:
                raise IllegalAction(self._bid_error(seat, action.amount))
        saved = (self.phase, self.to_act, self.high_bid, self.declarer)
        self.history.append((seat, action, saved))
        self.calls.append((seat, action))
        if type(action) is Pass:
            self.passed[seat] = True
        else:
            self.high_bid, self.declarer = action.amount, seat
        self._after_call()

    def _bid_error(self, seat: int, amount: int) -> str:
        r = self.rules
        who = seat_name(seat)
        if self.high_bid is not None and amount <= self.high_bid:
            return _("{seat} cannot bid {amount}: a bid must be higher than {high}", seat=who, amount=amount,
                     high=self.high_bid)
        if amount < r.bid_min:
            return _("{seat} cannot bid {amount}: the lowest bid is {low}", seat=who, amount=amount, low=r.bid_min)
        if amount > r.bid_max:
            return _("{seat} cannot bid {amount}: the highest bid is {high}", seat=who, amount=amount,
                     high=r.bid_max)
        return _("{seat} cannot bid {amount}: bids go in steps of {step}", seat=who, amount=amount, step=r.bid_step)

    def _after_call(self) -> None:
        passes = sum(self.passed)
        if passes == 4:
            self.phase, self.to_act, self.declarer = Phase.DONE, None, None
            return
        if self.high_bid is not None and (passes == 3 or self.high_bid >= self.rules.bid_max):
            self._end_auction()
            return
        seat = (self.to_act + 1) % 4
        while self.passed[seat]:
            seat = (seat + 1) % 4
        self.to_act = seat

    def _end_auction(self) -> None:
        self.to_act = self.declarer
        if self.rules.nest_size:
            self.phase = Phase.DISCARD
            self.hands[self.declarer] |= self.dealt_nest
        else:
            self.phase = Phase.TRUMP

    def _discard(self, action: Discard) -> None:
        self._expect(Phase.DISCARD, "discard")
        hand = self.hands[self.declarer]
        who = seat_name(self.declarer)
        n = self.rules.nest_size
        if len(action.cards) != n:
            raise IllegalAction(ngettext("{seat} must put back exactly {n} card, not {given}",
                                         "{seat} must put back exactly {n} cards, not {given}", n,
                                         seat=who, n=n, given=len(action.cards)))
        missing = sorted(action.cards - hand)
        if missing:
            raise IllegalAction(_("{seat} cannot discard {card}: not in hand or nest", seat=who,
                                  card=self.rules.card_name(missing[0])))
        self.history.append((self.declarer, action, (self.phase, self.to_act)))
        hand -= action.cards
        self.discard = action.cards
        self.phase = Phase.TRUMP

    def _name_trump(self, action: NameTrump) -> None:
        self._expect(Phase.TRUMP, "name trump")
        if action.colour not in COLOURS:
            raise IllegalAction(_("{value} is not a colour (R, Y, G or B)", value=repr(action.colour)))
        self.history.append((self.declarer, action, (self.phase, self.to_act)))
        self.trump = action.colour
        self.tables = trick_tables(self.rules, action.colour)
        self.phase = Phase.PLAY
        lead_from = self.declarer if self.rules.first_lead == FIRST_LEAD_DECLARER else self.dealer
        self.to_act = self.trick_leader = (lead_from + 1) % 4

    def _play(self, action: Play) -> None:
        self._expect(Phase.PLAY, "play a card")
        card, seat = action.card, self.to_act
        if type(card) is not Card:  # a plain int card id is accepted (Card is interchangeable with its id)
            if type(card) is not int or not 0 <= card < 64 or Card.from_id_or_none(card) is None:
                raise IllegalAction(f"{card!r} is not a card (use Card.parse, e.g. Card.parse('R14'))")
            card = Card.from_id(card)
            action = PLAYS[card]
        hand = self.hands[seat]
        if card not in hand or (self.trick and card not in self.legal_cards()):
            raise IllegalAction(self._play_error(seat, card))
        self.history.append((seat, action, (self.phase, self.to_act, self.trick_leader)))
        hand.discard(card)
        self.trick.append(card)
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        self._finish_trick()

    def _play_error(self, seat: int, card: Card) -> str:
        who, name = seat_name(seat), self.rules.card_name(card)
        if card not in self.hands[seat]:
            return _("{seat} cannot play {card}: {seat} does not hold it", seat=who, card=name)
        suit = self.tables.suit
        led = suit[self.trick[0]]
        holds = sorted(c for c in self.hands[seat] if suit[c] == led)
        # the led suit by its letter, as in card notation (R, Y, G, B)
        return _("{seat} cannot play {card}: must follow {suit} (holds {cards})", seat=who, card=name,
                 suit=COLOURS[led], cards=list_text(map(self.rules.card_name, holds)))

    def _finish_trick(self) -> None:
        cards = tuple(self.trick)
        leader = self.trick_leader
        winner = (leader + trick_winner(self.tables, cards)) % 4
        points = self.rules.points_of(cards)
        self.tricks.append(Trick(leader, cards, winner, points))
        self.captured[winner & 1] += points
        self.tricks_won[winner & 1] += 1
        self.trick = []
        self.to_act = self.trick_leader = winner
        if len(self.tricks) == self.rules.hand_size:
            self._count()

    def count_parts(self) -> CountParts:
        """The count's parts beyond the tricks' counters, once every trick is played (rules.md §1.6): the nest's
        points (the cards put back; no nest: 0) to the team that took the last trick, and the majority bonus to the
        team that took more tricks (None and 0 where the rule set has none, or on an equal split).

        Returns a `CountParts` (teams 0 = N–S, 1 = E–W; points). Raises WrongPhase while tricks remain to be played
        (and for a passed-out hand, which has no tricks).
        """
        if len(self.tricks) != self.rules.hand_size:
            raise WrongPhase(_("the count comes once every trick is played"))
        bonus = self.rules.majority_bonus
        won = self.tricks_won
        bonus_team = None if not bonus or won[0] == won[1] else (0 if won[0] > won[1] else 1)
        return CountParts(self.tricks[-1].winner & 1, self.rules.points_of(self.nest), bonus_team,
                          bonus if bonus_team is not None else 0)

    def _count(self) -> None:
        """Nest to the last trick's team, majority bonus (rules.md §1.6; `count_parts`)."""
        parts = self.count_parts()
        self.captured[parts.nest_team] += parts.nest_points
        if parts.bonus_team is not None:
            self.captured[parts.bonus_team] += parts.bonus
        self.phase, self.to_act = Phase.DONE, None

    # ----- undo -------------------------------------------------------------
    def undo(self) -> Action:
        """Take back the last action and return it. Raises IllegalAction if nothing was played."""
        if not self.history:
            raise IllegalAction(_("nothing to undo"))
        seat, action, saved = self.history.pop()
        kind = type(action)
        if kind is Play:
            self._undo_play(seat, action.card, saved)
        elif kind is Bid or kind is Pass:
            self.calls.pop()
            if kind is Pass:
                self.passed[seat] = False
            if self.phase is Phase.DISCARD:
                self.hands[self.declarer] -= self.dealt_nest
            self.phase, self.to_act, self.high_bid, self.declarer = saved
        elif kind is Discard:
            self.hands[seat] |= action.cards
            self.discard = None
            self.phase, self.to_act = saved
        else:
            self.trump, self.tables, self.trick_leader = None, None, None
            self.phase, self.to_act = saved
        return action

    def _undo_play(self, seat: int, card: Card, saved: tuple) -> None:
        if not self.trick:  # this card completed a trick: reopen it
            if self.phase is Phase.DONE:
                self._uncount()
            trick = self.tricks.pop()
            self.captured[trick.winner & 1] -= trick.points
            self.tricks_won[trick.winner & 1] -= 1
            self.trick = list(trick.cards)
        self.trick.pop()
        self.hands[seat].add(card)
        self.phase, self.to_act, self.trick_leader = saved

    def _uncount(self) -> None:
        parts = self.count_parts()
        self.captured[parts.nest_team] -= parts.nest_points
        if parts.bonus_team is not None:
            self.captured[parts.bonus_team] -= parts.bonus

    # ----- results ----------------------------------------------------------
    @property
    def made(self) -> bool | None:
        """True/False once the hand is scored (declarers reached the bid?), None before or if passed out."""
        if self.phase is not Phase.DONE or self.declarer is None:
            return None
        return self.captured[self.declarer & 1] >= self.high_bid

    def score(self) -> tuple[int, int]:
        """Hand score (N–S, E–W) in points (rules.md §1.7); (0, 0) if passed out.

        Raises IllegalAction if the hand is not over yet.
        """
        if self.phase is not Phase.DONE:
            raise IllegalAction(_("the hand is not over yet"))
        if self.declarer is None:
            return (0, 0)
        return hand_score(self.rules, self.captured, self.declarer, self.high_bid)

    def counters_out(self) -> int:
        """Points of counters not yet in a completed trick or the current trick, nest excluded."""
        played = set(self.trick).union(*(t.cards for t in self.tricks)) if self.tricks else set(self.trick)
        pts = self.rules.card_points
        return sum(pts[c] for h in self.hands for c in h if c not in played) - (
            sum(pts[c] for c in self.dealt_nest) if self.phase is Phase.DISCARD else 0)

    def observation(self, seat: str | int) -> Observation:
        """What ``seat`` may see now (own hand, calls, cards played; the nest only to the declarer while
        discarding; its own discard only to the declarer). Never another seat's hidden cards."""
        s = seat_index(seat)
        is_declarer = s == self.declarer
        to_act = self.to_act
        legal: tuple = ()
        if to_act == s and self.phase is not Phase.DISCARD:
            legal = tuple(self.legal_actions())
        return Observation(
            rules=self.rules, seat=s, dealer=self.dealer, phase=self.phase, to_act=to_act,
            hand=frozenset(self.hands[s]),
            nest=self.dealt_nest if is_declarer and self.phase is Phase.DISCARD else None,
            discard=self.discard if is_declarer else None,
            calls=tuple(self.calls), high_bid=self.high_bid,
            declarer=self.declarer if self.phase is not Phase.AUCTION else None,
            trump=self.trump, tricks=tuple(self.tricks), trick_leader=self.trick_leader,
            trick=tuple(self.trick), captured=tuple(self.captured), tricks_won=tuple(self.tricks_won),
            hand_sizes=tuple(len(h) for h in self.hands), legal=legal)

    def __repr__(self) -> str:
        return (f"<HandState {self.rules.variant} dealer={SEATS[self.dealer]} phase={self.phase.value} "
                f"step={self.step}>")

    def _repr_html_(self) -> str:
        """A small HTML table of the four hands, the trick and the tallies (for notebooks)."""
        name = self.rules.card_name
        rows = "".join(f"<tr><th>{SEATS[s]}</th><td>{' '.join(name(c) for c in sorted(self.hands[s]))}</td></tr>"
                       for s in range(4))
        trump = COLOUR_NAMES.get(self.trump or "", "—")
        return (f"<table><caption>{self.rules.title}: {self.phase.value}, trump {trump}, "
                f"bid {self.high_bid}</caption>{rows}<tr><th>trick</th><td>"
                f"{' '.join(name(c) for c in self.trick)}</td></tr><tr><th>captured</th>"
                f"<td>N–S {self.captured[0]} · E–W {self.captured[1]}</td></tr></table>")
