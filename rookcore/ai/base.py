"""Shared AI types: `Candidate`, `Decision`, the `Player` protocol and `RandomPlayer` (rules.md §1).

An AI player receives only an `Observation` (what its seat may see, rules.md §1
and `HandState.observation`) and returns a `Decision`: the chosen engine action,
every candidate it considered with a score (higher = better), and one plain
sentence explaining the choice. The sentences (explanation, notes, moves in words) are `rookcore.i18n.Message`
values: English wherever a str is read (the command line, records, tests), said in the learner's language when a
page shows them (`rookcore.i18n.localize`), so a decision made during the hand is read in the language of the
moment it is drawn (issue 26).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..actions import Bid, Discard, NameTrump, Pass, Play
from ..cards import Card
from ..hand import SEATS, Observation, Phase
from ..i18n import Message, lazy
from ..words import colour_word, seat_word

KINDS = ("call", "discard", "trump", "play")


RANDOM_SCORE = lazy.gettext("Score: 1 for the move picked at random, 0 for the others.")
"""What the random player's scores mean (`Decision.score_meaning`): a `rookcore.i18n.Message`, made once and said in
the reader's language when it is shown."""


@dataclass(frozen=True)
class Candidate:
    """One action an AI considered.

    action: an engine action (`Bid`, `PASS`, `Discard`, `NameTrump` or `Play`);
    score: its value to the player (float, higher = better; units depend on the player and the kind — points of
    estimated margin for plays (and the rule-based player's calls), plan strength for discard/trump; the strong
    player's calls: the percent of sampled deals in which the bid is made, Pass the percent a bid needs);
    note: a short human-readable reason, e.g. ``"hand worth about 92 points"``;
    secret: the cards, beyond the action's own (a card played, cards buried), that the note tells of (say the
    trumps a "5 trumps" counts), so a reader who cannot see one of them is given ``public_note`` instead
    (`rookcore.ai.masking`);
    public_note: the note with nothing of those cards in it ("" = no note).
    """

    action: Any
    score: float
    note: str = ""
    secret: frozenset = frozenset()
    public_note: str = ""


@dataclass(frozen=True)
class Decision:
    """The result of `Player.decide`.

    action: the chosen engine action (legal for the observation it answers);
    candidates: every scored candidate, best first (the chosen action is among them);
    explanation: one plain sentence a learner understands (a `rookcore.i18n.Message`: English as a str, said in the
    reader's language when shown, `rookcore.i18n.localize`; a plain str from an older record is shown as it is);
    seat: the acting seat 0..3 (N, E, S, W); kind: 'call' | 'discard' | 'trump' | 'play';
    secret: the cards, beyond the action's own, that the explanation names or tells of (a card it kept, the trumps
    it counts), so a reader who cannot see one of them is given ``public_explanation`` instead;
    public_explanation: the explanation as one whole sentence without those cards ("" = none: a reader who may not
    see them is told the reasoning waits for the end of the hand; `rookcore.ai.masking.mask_decision`);
    score_meaning: one plain sentence on what the candidates' scores are (points, a percent, a strength), e.g.
    "Score: the percent of the sampled deals in which the bid is made; …" ("" = nothing to explain).
    """

    action: Any
    candidates: tuple[Candidate, ...]
    explanation: str
    seat: int
    kind: str
    secret: frozenset = frozenset()
    public_explanation: str = ""
    score_meaning: str = ""

    def summary(self, bird_name: str = "Rook") -> Message:
        """A short line such as ``"E bids 85: ..."`` (the move as a sentence, `move_sentence`, then the explanation).

        Args: bird_name: how to write the bird card (default "Rook"). Returns: a `rookcore.i18n.Message` (English
        as a str; `localize` says it in the reader's language).
        """
        return lazy.gettext("{move}: {explanation}", move=move_sentence(self.seat, self.action, bird_name),
                            explanation=self.explanation)

    def public_summary(self, bird_name: str = "Rook") -> Message:
        """What the other seats at the table see of this decision: the seat and its action, with a discard as its
        size only (only the declarer sees the nest, rules.md §1.3), e.g. ``"E plays G9"``, ``"W buries 5
        cards"``. The explanation and candidates name cards the others cannot see, so they are left out.

        Args: bird_name: how to write the bird card (default "Rook"). Returns: a `rookcore.i18n.Message`.
        """
        if type(self.action) is Discard:
            n = len(self.action.cards)
            return lazy.ngettext("{seat} buries {count} card", "{seat} buries {count} cards", n,
                                 seat=seat_word(self.seat), count=n)
        return move_sentence(self.seat, self.action, bird_name)


@dataclass(frozen=True)
class MaskedAction:
    """A move as a reader who may not see its cards is told of it (`rookcore.ai.masking`): ``words`` such as
    ``"buries 5 cards"`` or ``"plays another card"`` (a `rookcore.i18n.Message`), and ``sentence``, the same with
    its seat as subject (``"E buries 5 cards"``; "" = the seat and the words). It stands in for the engine action in
    a masked `Decision` or `Candidate` and is never applied to a hand; two are equal when their words are."""

    words: str
    sentence: str = field(default="", compare=False)


def _card(bird_name: str, card: Card):
    """A card as prose names it, said later: the bird by its name (a `Message`), any other card by notation."""
    return lazy.pgettext("card", bird_name) if card.is_bird and bird_name in ("Crow", "Rook") \
        else card.display(bird_name)


def describe_action(action: Any, bird_name: str = "Rook") -> Message | str:
    """The action in words: ``"bids 85"``, ``"passes"``, ``"buries R5 R6"``, ``"names Green trump"``, ``"plays G9"``
    (the bird as ``"Crow"`` / ``"Rook"``); a `MaskedAction` as its words (``"buries 5 cards"``).

    Args: action: an engine action or a `MaskedAction`; bird_name: the bird's name. Returns: a
    `rookcore.i18n.Message` (English as a str). Raises nothing (unknown → repr).
    """
    kind = type(action)
    if kind is MaskedAction:
        return action.words
    if kind is Bid:
        return lazy.gettext("bids {amount}", amount=action.amount)
    if kind is Pass:
        return lazy.gettext("passes")
    if kind is Discard:
        return lazy.gettext("buries {cards}", cards=tuple(_card(bird_name, c) for c in sorted(action.cards)))
    if kind is NameTrump:
        return lazy.gettext("names {colour} trump", colour=colour_word(action.colour))
    if kind is Play:
        return lazy.gettext("plays {card}", card=_card(bird_name, action.card))
    return repr(action)


def move_sentence(seat: int, action: Any, bird_name: str = "Rook") -> Message | str:
    """The action as a sentence with its seat: ``"E bids 85"``, ``"S passes"``, ``"W buries R5 R6"``, ``"N names
    Green trump"``, ``"E plays G9"``; a `MaskedAction` by its ``sentence`` (``"E buries 5 cards"``).

    Args: seat: 0..3 (N, E, S, W); action: an engine action or a `MaskedAction`; bird_name: the bird's name.
    Returns: a `rookcore.i18n.Message`. Raises IndexError for a seat outside 0..3.
    """
    who = seat_word(seat)
    kind = type(action)
    if kind is MaskedAction:
        return action.sentence or lazy.gettext("{seat} {move}", seat=who, move=action.words)
    if kind is Bid:
        return lazy.gettext("{seat} bids {amount}", seat=who, amount=action.amount)
    if kind is Pass:
        return lazy.gettext("{seat} passes", seat=who)
    if kind is Discard:
        return lazy.gettext("{seat} buries {cards}", seat=who,
                            cards=tuple(_card(bird_name, c) for c in sorted(action.cards)))
    if kind is NameTrump:
        return lazy.gettext("{seat} names {colour} trump", seat=who, colour=colour_word(action.colour))
    if kind is Play:
        return lazy.gettext("{seat} plays {card}", seat=who, card=_card(bird_name, action.card))
    return lazy.gettext("{seat} {move}", seat=who, move=repr(action))


def phase_kind(obs: Observation) -> str:
    """The decision kind for an observation's phase: 'call' | 'discard' | 'trump' | 'play'.

    Raises ValueError when the hand is over (no decision to make).
    """
    kind = {Phase.AUCTION: "call", Phase.DISCARD: "discard", Phase.TRUMP: "trump", Phase.PLAY: "play"}.get(obs.phase)
    if kind is None:
        raise ValueError("the hand is over: there is no decision to make")
    return kind


def check_to_act(obs: Observation) -> None:
    """Raise ValueError unless the observer is the seat to act in a phase that needs a decision (rules.md §1)."""
    phase_kind(obs)
    if obs.to_act != obs.seat:
        raise ValueError(f"it is not {SEATS[obs.seat]}'s turn to act")
    if obs.phase is not Phase.DISCARD and not obs.legal:
        raise ValueError(f"{SEATS[obs.seat]} has no legal action in this observation")


@runtime_checkable
class Player(Protocol):
    """Anything that answers an `Observation` with a `Decision` (rules.md §1: calls, discard, trump, play).

    The running game score is public but not part of a hand's `Observation`: whoever runs a game may set a player's
    ``game_score`` attribute to (N–S, E–W) points before the hand (`rookcore.table.Table` does before each AI
    decision and the Hint). The strong AI reads it near the end of a game (`rookcore.ai.sampling`); the other
    levels ignore it; unset or None means a hand on its own.
    """

    def decide(self, obs: Observation) -> Decision:
        """Choose a legal action for ``obs.seat`` (which must be ``obs.to_act``). Returns a `Decision`."""
        ...


class RandomPlayer:
    """Uniform random legal play (rules.md §1): a baseline for tests and benchmarks.

    Args: seed: seed of its own ``random.Random`` (None = nondeterministic). Same seed and the
    same sequence of observations give the same decisions.
    """

    def __init__(self, seed: int | None = None) -> None:
        """Create the player with its own random generator seeded by ``seed`` (int or None)."""
        self.seed = seed
        self.rng = random.Random(seed)

    def decide(self, obs: Observation) -> Decision:
        """Pick uniformly among ``obs.legal``; in the discard phase (rules.md §1.3) put back
        ``rules.nest_size`` random cards of ``obs.hand`` (which already holds the nest).

        Returns a `Decision` whose first candidate (score 1.0) is the chosen action; the other
        legal actions follow with score 0.0 (a discard lists only its choice).
        Raises ValueError if the observer is not the seat to act.
        """
        check_to_act(obs)
        kind = phase_kind(obs)
        who = seat_word(obs.seat)
        if kind == "discard":
            n = obs.rules.nest_size
            cards = self.rng.sample(sorted(obs.hand), n)
            action = Discard(cards)
            return Decision(action, (Candidate(action, 1.0, lazy.gettext("random")),),
                            lazy.ngettext("{seat} puts back {count} card chosen at random.",
                                          "{seat} puts back {count} cards chosen at random.", n, seat=who, count=n),
                            obs.seat, kind, score_meaning=RANDOM_SCORE)
        legal = list(obs.legal)
        action = legal[self.rng.randrange(len(legal))]
        cands = (Candidate(action, 1.0, lazy.gettext("random")),) + tuple(
            Candidate(a, 0.0, lazy.gettext("not picked")) for a in legal if a != action)
        n = len(legal)
        return Decision(action, cands, lazy.ngettext("{seat} picks at random among {count} legal move.",
                                                     "{seat} picks at random among {count} legal moves.", n,
                                                     seat=who, count=n),
                        obs.seat, kind, score_meaning=RANDOM_SCORE)
