"""An AI move told as the whole table saw it, from public data only (rules.md §1; issue 32 item 5).

During a hand the learner is told each AI move this way (`rookcore.ai.masking.public_decisions`): the move ("E bids
75", "W buries 5 cards", "N names Red trump", "E plays G9") and the facts around it that every seat saw ("E outbids
its partner W, who had bid 70", "E has no Green and plays a trump; E is winning the trick so far"). The AI's own
reasons are not used: they rest on its hand ("W's hand is worth about 98 points", its strength in every colour, "R9
is E's only legal card" telling that E holds no other red), so they wait for the end of the hand.

The words are built from the *public history* alone (`public_history`: every call, the number of cards a discard put
back, trump and every card played, in order) and the rule set, never from a `Decision`, so they are the same for every
deal that fits what the table has seen (``tests/test_public_reasoning.py`` checks this by dealing the hidden cards
again). What a card shows is said as the rules make it public: a seat that does not follow the led colour with a card
that is not allowed on any trick has none of that colour (rules.md §1.5, §3).

Every sentence is a `rookcore.i18n.Message` (English as a str, said in the reader's language when shown).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..actions import Bid, Discard, NameTrump, Pass, Play
from ..cards import COLOURS, Card
from ..hand import HandState, trick_tables, trick_winner
from ..i18n import Message, lazy
from ..rules import Rules
from ..words import card_word, colour_word, seat_word
from .base import MaskedAction

__all__ = ["Buried", "public_history", "public_kind", "buried_move", "tell_moves"]


@dataclass(frozen=True)
class Buried:
    """A discard as the table sees it (rules.md §1.3: only the declarer sees the nest): ``count`` cards put back."""

    count: int


def public_history(state: HandState) -> tuple[tuple[int, Any], ...]:
    """Every action of ``state``'s hand so far as every seat saw it: (seat 0..3, action) in order, a `Discard` as
    `Buried` (its size), calls, trump and cards played as they are. Args: state (not changed). Returns: a tuple.
    Raises nothing."""
    return tuple((seat, Buried(len(action.cards)) if type(action) is Discard else action)
                 for seat, action, _saved in state.history)


def public_kind(action: Any) -> str:
    """The decision kind of a public action: 'call' (`Bid`, `Pass`), 'discard' (`Buried`), 'trump' (`NameTrump`),
    'play' (`Play`). Raises ValueError for anything else."""
    kind = {Bid: "call", Pass: "call", Buried: "discard", NameTrump: "trump", Play: "play"}.get(type(action))
    if kind is None:
        raise ValueError(f"not an action of a hand: {action!r}")
    return kind


def buried_move(seat: int, count: int) -> MaskedAction:
    """A discard said by its size only: "buries 5 cards" / "E buries 5 cards" (a `MaskedAction`). Args: seat 0..3;
    count: cards put back. Raises IndexError for a seat outside 0..3."""
    return MaskedAction(lazy.ngettext("buries {count} card", "buries {count} cards", count, count=count),
                        lazy.ngettext("{seat} buries {count} card", "{seat} buries {count} cards", count,
                                      seat=seat_word(seat), count=count))


@dataclass
class _Table:
    """What every seat has seen so far: the auction (high bid, its holder, who passed), the declarer, trump, the
    cards played (seat, card) in order."""

    rules: Rules
    high: int | None = None
    holder: int | None = None
    passed: set = field(default_factory=set)
    declarer: int | None = None
    trump: str | None = None
    plays: list = field(default_factory=list)

    def apply(self, seat: int, action: Any) -> None:
        """Take in one public action (the engine checked it when it was made)."""
        kind = type(action)
        if kind is Bid:
            self.high, self.holder = action.amount, seat
        elif kind is Pass:
            self.passed.add(seat)
        elif kind is NameTrump:
            self.trump = action.colour
        elif kind is Play:
            self.plays.append((seat, action.card))
        if kind in (Bid, Pass) and self.auction_over():
            self.declarer = self.holder

    def auction_over(self) -> bool:
        """Whether the calls so far end the auction with a declarer (rules.md §1.2)."""
        return self.high is not None and (len(self.passed) == 3 or self.high >= self.rules.bid_max)


def _sentence(clause: Message, result: Message | None = None) -> Message:
    """One sentence of a clause, or of a clause and what came of it."""
    if result is None:
        # TRANSLATORS: one clause made a sentence (the clause is translated on its own)
        return lazy.gettext("{clause}.", clause=clause)
    # TRANSLATORS: a clause and what came of it, made one sentence (each translated on its own)
    return lazy.gettext("{clause}; {result}.", clause=clause, result=result)


def _partner(a: int, b: int) -> bool:
    return a != b and (a - b) % 2 == 0


def _call(seat: int, action: Any, table: _Table) -> Message:
    """A call in its public setting: the high bid it beat or left standing, and whether it ended the auction."""
    who, high, holder = seat_word(seat), table.high, table.holder
    if type(action) is Bid:
        if high is None:
            clause = lazy.gettext("{seat} makes the first bid of the auction", seat=who)
        elif _partner(seat, holder):
            clause = lazy.gettext("{seat} outbids its partner {holder}, who had bid {high}", seat=who,
                                  holder=seat_word(holder), high=high)
        else:
            clause = lazy.gettext("{seat} outbids {holder}, who had bid {high}", seat=who, holder=seat_word(holder),
                                  high=high)
        if len(table.passed) == 3:  # the others passed before it: the auction is over
            return _sentence(clause, lazy.gettext("the other three seats have passed, so {seat} wins the auction",
                                                  seat=who))
        if action.amount >= table.rules.bid_max:
            return _sentence(clause, lazy.gettext("no one may bid higher, so {seat} wins the auction", seat=who))
        return _sentence(clause)
    if high is None:
        return _sentence(lazy.gettext("{seat} passes before anyone has bid", seat=who))
    if len(table.passed) == 2:  # this pass is the third: the auction is over
        return _sentence(lazy.gettext("this pass ends the auction: {holder} wins it at {high}",
                                      holder=seat_word(holder), high=high))
    if _partner(seat, holder):
        return _sentence(lazy.gettext("{seat}'s partner {holder} holds the high bid at {high}", seat=who,
                                      holder=seat_word(holder), high=high))
    return _sentence(lazy.gettext("{holder} holds the high bid at {high}", holder=seat_word(holder), high=high))


def _discard(seat: int, count: int) -> Message:
    return lazy.ngettext("{seat} took the nest as declarer and put back {count} card; which one is shown when the "
                         "hand is over.",
                         "{seat} took the nest as declarer and put back {count} cards; which ones is shown when the "
                         "hand is over.", count, seat=seat_word(seat), count=count)


def _trump(seat: int, table: _Table) -> Message:
    return lazy.gettext("{seat} won the auction at {bid}, so {seat} names trump; why this colour is shown when the "
                        "hand is over.", seat=seat_word(seat), bid=table.high)


def _play(seat: int, card: Card, table: _Table) -> Message:
    """A card in its public setting: the lead, or how it answers the led colour, and who is winning the trick."""
    rules, who = table.rules, seat_word(seat)
    tables = trick_tables(rules, table.trump)
    done = len(table.plays)
    number, place = done // 4 + 1, done % 4
    suit = tables.suit[card]
    if place == 0:
        if suit == tables.trump:
            return _sentence(lazy.gettext("{seat} leads trump to trick {number}", seat=who, number=number))
        return _sentence(lazy.gettext("{seat} leads {colour} to trick {number}", seat=who,
                                      colour=colour_word(COLOURS[suit]), number=number))
    trick = table.plays[done - place:] + [(seat, card)]
    led = tables.suit[trick[0][1]]
    colour = colour_word(COLOURS[led])
    if suit == led:
        clause = (lazy.gettext("{seat} follows trump", seat=who) if led == tables.trump
                  else lazy.gettext("{seat} follows {colour}", seat=who, colour=colour))
    elif rules.has_privilege(card):  # allowed on any trick: shows nothing of the seat's other cards
        clause = lazy.gettext("{seat} plays the {card}, which may be played on any trick", seat=who,
                              card=card_word(rules, card))
    elif suit == tables.trump:
        clause = lazy.gettext("{seat} has no {colour} and plays a trump", seat=who, colour=colour)
    elif led == tables.trump:
        clause = lazy.gettext("{seat} has no trump and plays a card of another colour", seat=who)
    else:
        clause = lazy.gettext("{seat} has no {colour} and plays a card of another colour", seat=who, colour=colour)
    winner = trick[trick_winner(tables, [c for _s, c in trick])][0]
    if place == 3:
        points = sum(rules.card_points[c] for _s, c in trick)
        result = lazy.ngettext("{winner} takes the trick ({points} point)", "{winner} takes the trick ({points} "
                               "points)", points, winner=seat_word(winner), points=points)
    elif winner == seat:
        result = lazy.gettext("{seat} is winning the trick so far", seat=who)
    elif _partner(seat, winner):
        result = lazy.gettext("its partner {winner} is winning the trick so far", winner=seat_word(winner))
    else:
        result = lazy.gettext("{winner} is winning the trick so far", winner=seat_word(winner))
    return _sentence(clause, result)


def _tell(seat: int, action: Any, table: _Table) -> tuple[Any, Message]:
    """(the move as shown, the sentence of its public setting) for one public action, before it is taken in."""
    kind = type(action)
    if kind in (Bid, Pass):
        return action, _call(seat, action, table)
    if kind is Buried:
        return buried_move(seat, action.count), _discard(seat, action.count)
    if kind is NameTrump:
        return action, _trump(seat, table)
    if kind is Play:
        return action, _play(seat, action.card, table)
    raise ValueError(f"not an action of a hand: {action!r}")


def tell_moves(public: Iterable[tuple[int, Any]], steps: Iterable[int], rules: Rules) -> dict[int, tuple]:
    """The moves at ``steps`` of a hand told from its public history alone.

    Args: public: the hand's public history (`public_history`: (seat, action) in order, a discard as `Buried`);
    steps: indexes into it (0-based, as `Table.log` numbers AI moves); rules: the hand's rule set.
    Returns: {step: (seat, kind, move, sentence)}: the seat that acted, the kind ('call', 'discard', 'trump',
    'play'), the move as shown (the action, or a discard as a `MaskedAction` "buries 5 cards") and one sentence of
    what the table saw around it (a `Message`). Raises ValueError for a step outside the history or an action that is
    not one of a hand.
    """
    wanted = set(steps)
    table = _Table(rules)
    told = {}
    for step, (seat, action) in enumerate(public):
        if step in wanted:
            move, sentence = _tell(seat, action, table)
            told[step] = (seat, public_kind(action), move, sentence)
        table.apply(seat, action)
    missing = wanted - set(told)
    if missing:
        raise ValueError(f"no action at step {min(missing)} of this hand (it has {len(told)} of the steps asked)")
    return told
