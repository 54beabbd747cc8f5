"""Cards: the `Card` value type and its record notation (record-format.md, "Cards").

A card is a small int (its *id*) so that hands can be sets or bit masks and the
playout path stays lean:

* a coloured card has id ``colour_index * 16 + number`` (number 1..14),
* the bird (Crow or Rook) has id 0.

Colour indexes follow ``COLOURS``: R=0, Y=1, G=2, B=3. The Red 1 of The Red 1
rule set is the card ``R1`` (id 1); whether it is a trump is a rule, not a card
property (see `rookcore.rules`).
"""
from __future__ import annotations

from typing import Iterable, Sequence

COLOURS: tuple[str, ...] = ("R", "Y", "G", "B")
COLOUR_NAMES: dict[str, str] = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}
BIRD_ID = 0


class CardError(ValueError):
    """Raised when a string is not a card in record notation."""


class Card(int):
    """One Rook card, an immutable value (an ``int`` subclass; see module doc).

    Create with ``Card.parse("R14")`` / ``Card.parse("CROW")`` or
    ``Card.of("G", 5)`` / ``Card.bird()``. Equal cards compare and hash equal,
    and a Card is interchangeable with its int id.
    """

    __slots__ = ()

    @staticmethod
    def of(colour: str, number: int) -> "Card":
        """Return the coloured card ``colour`` (one of R Y G B) and ``number`` (1..14).

        Raises CardError for an unknown colour or a number outside 1..14.
        """
        if colour not in COLOURS:
            raise CardError(f"unknown colour {colour!r} (expected one of R, Y, G, B)")
        if not 1 <= number <= 14:
            raise CardError(f"card number {number} is outside 1..14")
        return _CARDS[COLOURS.index(colour) * 16 + number]

    @staticmethod
    def bird() -> "Card":
        """Return the bird card (the Crow or the Rook; one card, named by the rule set)."""
        return _CARDS[BIRD_ID]

    @staticmethod
    def from_id(card_id: int) -> "Card":
        """Return the Card with int id ``card_id``; raises CardError if no card has it."""
        try:
            card = _CARDS[card_id]
        except (IndexError, TypeError):
            card = None
        if card is None:
            raise CardError(f"no card has id {card_id!r}")
        return card

    @staticmethod
    def from_id_or_none(card_id: int) -> "Card | None":
        """The Card with int id ``card_id`` (0..63), or None if no card has that id."""
        return _CARDS[card_id] if type(card_id) is int and 0 <= card_id < 64 else None

    @staticmethod
    def parse(text: str) -> "Card":
        """Parse record notation: ``R14``, ``G5``, ``B1``, ``CROW`` or ``ROOK`` (case-insensitive).

        Returns the Card. Raises CardError naming the text when it is not a card.
        Whether the card belongs to a given rule set's deck is checked by `Rules`.
        """
        if not isinstance(text, str):
            raise CardError(f"a card must be a string like 'R14', got {text!r}")
        upper = text.strip().upper()
        if upper in ("CROW", "ROOK"):
            return _CARDS[BIRD_ID]
        if len(upper) >= 2 and upper[0] in COLOURS and upper[1:].isdigit():
            number = int(upper[1:])
            if 1 <= number <= 14 and upper[1] != "0":
                return _CARDS[COLOURS.index(upper[0]) * 16 + number]
        raise CardError(f"{text!r} is not a card (expected e.g. R14, G5, CROW or ROOK)")

    @property
    def is_bird(self) -> bool:
        """True for the bird (Crow/Rook)."""
        return self == BIRD_ID

    @property
    def colour(self) -> str | None:
        """The colour letter R/Y/G/B, or None for the bird."""
        return None if self == BIRD_ID else COLOURS[self >> 4]

    @property
    def number(self) -> int:
        """The printed number 1..14, or 0 for the bird."""
        return self & 15

    def notation(self, bird_name: str = "ROOK") -> str:
        """Record notation, e.g. ``R14``; the bird is written ``bird_name`` upper-cased (CROW or ROOK)."""
        if self == BIRD_ID:
            return bird_name.upper()
        return f"{COLOURS[self >> 4]}{self & 15}"

    def display(self, bird_name: str = "Rook") -> str:
        """The card in prose and on the page: its notation (``R14``), the bird by its name (``Crow``, ``Rook``)."""
        return bird_name.capitalize() if self == BIRD_ID else self.notation()

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Card({self.notation()!r})"


_CARDS: list[Card | None] = [None] * 64
_CARDS[BIRD_ID] = int.__new__(Card, BIRD_ID)
for _c in range(4):
    for _n in range(1, 15):
        _CARDS[_c * 16 + _n] = int.__new__(Card, _c * 16 + _n)


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse a list of card strings; raises CardError on the first bad one."""
    return [Card.parse(t) for t in texts]


def colour_index(colour: str) -> int:
    """Index 0..3 of a colour letter (R Y G B); raises CardError for anything else."""
    if not isinstance(colour, str) or colour.upper() not in COLOURS:
        raise CardError(f"{colour!r} is not a colour (expected R, Y, G or B)")
    return COLOURS.index(colour.upper())


def first_repeat(items: Sequence) -> int | None:
    """Index of the first item of ``items`` equal to an earlier one, or None when all differ (a hand, the nest or
    a discard names each card once: rules.md §5). Raises nothing."""
    if len(set(items)) == len(items):  # the common case, at C speed (`world_state` deals thousands of hands)
        return None
    seen = set()
    for i, item in enumerate(items):
        if item in seen:
            return i
        seen.add(item)
    return None
