"""Actions a seat can take in a hand (rules.md §1): calls, the discard, naming trump, playing a card.

Actions are small frozen values. `Bid` and `PASS` are calls; `Discard` is the
declarer's whole put-back (one step in records); `NameTrump` names the trump
colour; `Play` plays one card. Each has ``notation`` giving its record form.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import COLOURS, COLOUR_NAMES, Card, first_repeat


@dataclass(frozen=True)
class Bid:
    """A bid of ``amount`` points in the auction (rules.md §1.2)."""

    amount: int

    def notation(self, bird_name: str = "ROOK") -> int:
        """Record form: the integer amount."""
        return self.amount

    def __str__(self) -> str:
        return str(self.amount)


@dataclass(frozen=True)
class Pass:
    """A pass in the auction: final for that seat (rules.md §1.2). Use the `PASS` constant."""

    def notation(self, bird_name: str = "ROOK") -> str:
        """Record form: the string ``"pass"``."""
        return "pass"

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


@dataclass(frozen=True)
class Discard:
    """The declarer puts ``cards`` (exactly ``nest_size`` of them) back as the nest (rules.md §1.3)."""

    cards: frozenset

    def __init__(self, cards) -> None:
        """``cards``: an iterable of `Card` (or int ids), each at most once. Raises ValueError for a card listed
        twice (a discard of n cards must name n different cards, rules.md §1.3)."""
        listed = [Card.from_id(int(c)) for c in cards]
        twice = first_repeat(listed)
        if twice is not None:
            raise ValueError(f"the discard lists {listed[twice]} twice")
        object.__setattr__(self, "cards", frozenset(listed))

    def notation(self, bird_name: str = "ROOK") -> list[str]:
        """Record form: the cards as strings, in id order."""
        return [c.notation(bird_name) for c in sorted(self.cards)]

    def __str__(self) -> str:
        return "discard " + " ".join(self.notation())


@dataclass(frozen=True)
class NameTrump:
    """The declarer names ``colour`` (R, Y, G or B) as trump (rules.md §1.4)."""

    colour: str

    def notation(self, bird_name: str = "ROOK") -> str:
        """Record form: the colour letter."""
        return self.colour

    def __str__(self) -> str:
        return f"trump {COLOUR_NAMES.get(self.colour, self.colour)}"


@dataclass(frozen=True)
class Play:
    """Play ``card`` to the current trick (rules.md §1.5, §3)."""

    card: Card

    def notation(self, bird_name: str = "ROOK") -> str:
        """Record form: the card string."""
        return self.card.notation(bird_name)

    def __str__(self) -> str:
        return str(self.card)


Action = Bid | Pass | Discard | NameTrump | Play

# Interned instances keep the playout path free of allocations.
PLAYS: dict[int, Play] = {}
for _id in range(64):
    try:
        PLAYS[_id] = Play(Card.from_id(_id))
    except ValueError:
        pass
TRUMPS: dict[str, NameTrump] = {c: NameTrump(c) for c in COLOURS}
_BIDS: dict[int, Bid] = {}


def bid(amount: int) -> Bid:
    """Return the `Bid` of ``amount`` points (int; interned). Anything but an int (70.0, True) gets a Bid of its
    own, never the interned one of an equal int (70.0 == 70 in Python), so that the engine refuses it (rules.md
    §1.2: bids are whole numbers) however many times, and in whatever order, it is seen. Raises nothing."""
    if type(amount) is not int:
        return Bid(amount)
    found = _BIDS.get(amount)
    if found is None:
        found = _BIDS[amount] = Bid(amount)
    return found
