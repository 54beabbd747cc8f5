"""The game's words in the learner's language: seats, teams, colours, the bird, phases, rule-set titles.

Each function returns the word in the active language (`rookcore.i18n.current`); in English it is the text the
engine has always shown ("N", "N–S", "Red", "Crow", "auction"). Card notation (``R14``, ``B5``) is never
translated: only the bird and the Red 1, which the page names in words, are. The terms follow the glossaries in
``rookcore/locale/glossary/`` (issue 26; `tests/test_i18n.py` checks the catalogs against them).
"""
from __future__ import annotations

from typing import Iterable

from .cards import Card
from .i18n import Message, lazy, pgettext

_SEATS = (lambda: pgettext("seat", "N"), lambda: pgettext("seat", "E"),
          lambda: pgettext("seat", "S"), lambda: pgettext("seat", "W"))
_TEAMS = (lambda: pgettext("team", "N–S"), lambda: pgettext("team", "E–W"))
_COLOURS = {"R": lambda: pgettext("colour", "Red"), "Y": lambda: pgettext("colour", "Yellow"),
            "G": lambda: pgettext("colour", "Green"), "B": lambda: pgettext("colour", "Black")}
_BIRDS = {"Crow": lambda: pgettext("card", "Crow"), "Rook": lambda: pgettext("card", "Rook")}
_PLAYERS = {"AI": lambda: pgettext("player", "AI"), "you": lambda: pgettext("player", "you")}
_PHASES = {"auction": lambda: pgettext("phase", "auction"), "discard": lambda: pgettext("phase", "discard"),
           "trump": lambda: pgettext("phase", "trump"), "play": lambda: pgettext("phase", "play"),
           "done": lambda: pgettext("phase", "done")}


def seat_name(seat: int) -> str:
    """Seat ``seat`` (0..3 = N, E, S, W) as the page writes it in the active language ("N"; de "N", cs "S").

    Raises IndexError for a seat outside 0..3."""
    return _SEATS[seat]()


def team_name(team: int) -> str:
    """Team ``team`` (0 = N–S, 1 = E–W) in the active language. Raises IndexError outside 0..1."""
    return _TEAMS[team]()


def colour_name(letter: str) -> str:
    """The colour ``letter`` ("R", "Y", "G", "B") by name ("Red"; de "Rot"); unknown letters are returned as
    they are. Raises nothing."""
    word = _COLOURS.get(letter)
    return word() if word else letter


def bird_name(name: str) -> str:
    """The bird card's name ``name`` ("Crow" or "Rook", `Rules.bird_name`) in the active language."""
    word = _BIRDS.get(name)
    return word() if word else name


def player_name(name: str) -> str:
    """Who played a seat, as a record's ``meta.players`` names it: the two names the app writes ("AI", "you":
    `rookcore.table.Table.record`) in the active language, any other name (a person's) as it is. Raises nothing."""
    word = _PLAYERS.get(name)
    return word() if word else name


def phase_name(phase: str) -> str:
    """A hand's phase value ("auction", "discard", "trump", "play", "done") as a word in the active language."""
    word = _PHASES.get(phase)
    return word() if word else phase


def card_text(rules, card: Card) -> str:
    """``card`` as prose names it (`Rules.display_name`): its notation ("R14", never translated), the bird by
    its translated name ("Krähe"), the Red 1 in words ("Red 1"). Raises nothing for a card of the deck."""
    if rules.red_one and card == Card.of("R", 1):
        return pgettext("card", "Red 1")
    if card.is_bird:
        return bird_name(rules.bird_name)
    return rules.display_name(card)


def list_text(items: Iterable[str]) -> str:
    """``items`` joined by the active language's list separator (", "; fa "، ")."""
    return pgettext("list separator", ", ").join(items)


def cards_text(rules, cards: Iterable[Card]) -> str:
    """``cards`` by `card_text`, joined by `list_text` ("R12, R10, Crow")."""
    return list_text(card_text(rules, c) for c in cards)


def rules_title(rules) -> str:
    """The rule set's title (``rules.title``, marked with context "rule set" in `rookcore.rules`) in the active
    language ("Tournament Rook (Kentucky Discard)"; es "Torre de torneo (Descarte de Kentucky)")."""
    return pgettext("rule set", rules.title)


# ----------------------------------------------------------------------------------------- said later
# The same words as `rookcore.i18n.Message` values, for sentences made now and shown later in the reader's
# language (an AI's reasoning): each is the English word, said in any language by `Message.render`.
_SEAT_IDS = ("N", "E", "S", "W")
_TEAM_IDS = ("N–S", "E–W")
_COLOUR_IDS = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}


# made once (a Message is said when shown, in any language): the AI names seats, teams and colours in thousands of
# sentences a hand
_SEAT_WORDS = tuple(lazy.pgettext("seat", s) for s in _SEAT_IDS)
_TEAM_WORDS = tuple(lazy.pgettext("team", t) for t in _TEAM_IDS)
_COLOUR_WORDS = {letter: lazy.pgettext("colour", name) for letter, name in _COLOUR_IDS.items()}


def seat_word(seat: int) -> Message:
    """Seat ``seat`` (0..3) as a `Message` ("N"). Raises IndexError for a seat outside 0..3."""
    return _SEAT_WORDS[seat]


def team_word(team: int) -> Message:
    """Team ``team`` (0 = N–S, 1 = E–W) as a `Message`. Raises IndexError outside 0..1."""
    return _TEAM_WORDS[team]


def colour_word(letter: str) -> Message | str:
    """The colour ``letter`` by name as a `Message` ("Red"); an unknown letter as it is. Raises nothing."""
    return _COLOUR_WORDS.get(letter, letter)


def card_word(rules, card: Card) -> Message | str:
    """``card`` as prose names it (`card_text`), said later: the bird and the Red 1 as `Message` words, any other
    card by its notation ("R14", never translated). Raises nothing for a card of the deck."""
    if rules.red_one and card == Card.of("R", 1):
        return lazy.pgettext("card", "Red 1")
    if card.is_bird and rules.bird_name in _BIRDS:
        return lazy.pgettext("card", rules.bird_name)
    return rules.display_name(card)


def title_word(rules) -> Message:
    """The rule set's title as a `Message` (`rules_title`, said later)."""
    return lazy.pgettext("rule set", rules.title)
