"""A learner's table: one person (South by default) with an AI partner against two AIs (rules.md §1).

`Table` is the session logic behind the Play panel (``widgets/play.py``) and has no UI imports. It
holds a `rookcore.game.Game`, one AI player per non-learner seat (all of the same class and
settings, each with its own seed) and a log of the AI `Decision`s of the hand on show.

Typical use::

    table = Table(seed=7)
    table.run_ai()                      # AIs act until the learner must act
    table.learner_act(table.legal_for_learner()[0])
    table.run_ai()
    ...
    if table.state.is_over:
        table.new_hand()

When a hand ends it is scored into the game at once (``game.scores``, ``game.winner`` and
`score_sheet` are up to date); the finished hand stays on show (``table.state``) until
`new_hand`. Units: points for bids and scores, cards for counts. Seats are ints 0..3 = N, E, S, W.
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Iterable

from . import records
from .actions import Action, Discard, Pass, Play
from .cards import COLOURS, Card
from .game import Game
from .hand import SEATS, TEAMS, HandState, IllegalAction, OutOfTurn, Phase, Trick, WrongPhase, team_of
from .i18n import _, ngettext
from .result import HandResult, hand_result
from .rules import Rules, get_rules
from .words import card_text, cards_text, colour_name, phase_name, seat_name, team_name

__all__ = ["Table", "LoggedDecision", "card_name", "sort_cards", "table_order", "group_of", "watch_view"]


@dataclass(frozen=True)
class LoggedDecision:
    """One AI decision of the hand on show: ``step`` (the record step it took, from 0) and ``decision``."""

    step: int
    decision: object


def card_name(rules: Rules, card: Card) -> str:
    """Short display name of ``card`` in ``rules``: ``"R14"``, ``"Crow"`` / ``"Rook"``, or ``"Red 1"``
    (`Rules.display_name`)."""
    return rules.display_name(card)


def sort_cards(rules: Rules, cards: Iterable[Card], trump: str | None = None) -> list[Card]:
    """Display order of a hand: colours R, Y, G, B (the trump colour last once named), each high to low by
    the rule set's rank order (rules.md §2 "order in a colour"); the bird and the Red 1 at the very end."""
    col_order = [c for c in COLOURS if c != trump] + ([trump] if trump else [])

    def key(card: Card) -> tuple[int, int]:
        if rules.is_trump_card(card):
            return (5, 0 if rules.red_one and card == Card.of("R", 1) else 1)
        return (col_order.index(card.colour), rules.order.index(card.number))

    return sorted(cards, key=key)


def table_order(rules: Rules, cards: Iterable[Card], trump: str | None = None) -> list[Card]:
    """Order of a hand laid on the table as one fan: grouped by colour, the trump group first once trump is
    named (trump colour high to low, then the bird and the Red 1, which are trump too: rules.md §1.4), then the
    other colours R, Y, G, B, each high to low (§2 "order in a colour"). Before trump is named the bird and the Red
    1 come last, as in `sort_cards`. Returns a new list; raises nothing."""
    ordered = sort_cards(rules, cards, trump)
    if not trump:
        return ordered
    trumps = [c for c in ordered if rules.is_trump_card(c) or c.colour == trump]
    return trumps + [c for c in ordered if c not in trumps]


def group_of(rules: Rules, card: Card, trump: str | None) -> str:
    """The colour group ``card`` is laid in on the table: ``"T"`` for a trump once trump is named (the bird and the
    Red 1 included), the bird and the Red 1 ``"T"`` before too, else its colour letter. Raises nothing."""
    if rules.is_trump_card(card) or (trump and card.colour == trump):
        return "T"
    return card.colour


def _played_view(state: HandState, pairs) -> list[dict]:
    """(seat, card) pairs as the views list played cards: {"seat", "id", "code", "name"}."""
    r = state.rules
    return [{"seat": SEATS[seat], "id": int(c), "code": c.notation(r.bird_name), "name": r.display_name(c)}
            for seat, c in pairs]


def watch_view(state: HandState, bottom: int = 2) -> dict:
    """The table of ``state`` as a watcher of a recorded hand sees it (Replay): every hand face up, nobody to tap.

    ``bottom``: the seat (0..3) drawn at the bottom. Returns the dict of `Table.view` (mode "watch"; no card legal),
    where each seat also has "cards" (its hand in `table_order`, record notation) and "dealer", the nest is shown
    as dealt or as put back ("visible": True), and "trick" is the trick in progress or, right after its last card,
    the trick just completed with its "winner"; the last card played has "last": True. Raises nothing.
    """
    r, s = state.rules, state
    just_played = bool(s.history) and isinstance(s.history[-1][1], Play)
    if s.trick:
        trick = {"number": len(s.tricks), "leader": SEATS[s.trick_leader], "winner": None,
                 "cards": _played_view(s, (((s.trick_leader + i) % 4, c) for i, c in enumerate(s.trick)))}
    elif just_played:
        done = s.tricks[-1]
        trick = {"number": len(s.tricks) - 1, "leader": SEATS[done.leader], "winner": SEATS[done.winner],
                 "cards": _played_view(s, (((done.leader + i) % 4, c) for i, c in enumerate(done.cards)))}
    else:
        playing = s.phase is Phase.PLAY
        trick = {"number": len(s.tricks), "leader": SEATS[s.trick_leader] if playing else None, "winner": None,
                 "cards": []}
    if just_played and trick["cards"]:
        trick["cards"][-1]["last"] = True
    previous = s.tricks[-2] if just_played and not s.trick and len(s.tricks) > 1 else (
        s.tricks[-1] if s.tricks and (s.trick or not just_played) else None)
    last = None if previous is None else {
        "number": s.tricks.index(previous) + 1, "winner": SEATS[previous.winner], "points": previous.points,
        "leader": SEATS[previous.leader],
        "cards": _played_view(s, (((previous.leader + i) % 4, c) for i, c in enumerate(previous.cards)))}
    last_calls = {seat: ("pass" if type(a) is Pass else str(a.amount)) for seat, a in s.calls}
    seats = {SEATS[x]: {"count": len(s.hands[x]), "to_act": not s.is_over and s.to_act == x,
                        "declarer": s.declarer == x and s.phase is not Phase.AUCTION, "dealer": s.dealer == x,
                        "partner": False, "learner": False, "call": last_calls.get(x),
                        "cards": [c.notation(r.bird_name) for c in table_order(r, s.hands[x], s.trump)]}
             for x in range(4)}
    hand = [{"id": int(c), "code": c.notation(r.bird_name), "name": r.display_name(c),
             "group": group_of(r, c, s.trump), "legal": False, "reason": None, "from_nest": False, "picked": False}
            for c in table_order(r, s.hands[bottom], s.trump)]
    holder = None if s.declarer is None or s.phase is Phase.AUCTION else SEATS[s.declarer]
    nest = table_order(r, s.nest, s.trump) if r.nest_size else []
    return {"phase": s.phase.value, "mode": "watch",
            "positions": {k: SEATS[(bottom + d) % 4] for k, d in (("bottom", 0), ("left", 1), ("top", 2),
                                                                  ("right", 3))},
            "seats": seats, "hand": hand, "trick": trick, "last_trick": last,
            "nest": {"count": r.nest_size, "holder": holder, "visible": bool(nest), "points": r.points_of(nest),
                     "cards": [c.notation(r.bird_name) for c in nest], "put_back": s.discard is not None},
            "trump": s.trump, "bid": s.high_bid, "declarer": None if s.declarer is None else SEATS[s.declarer]}


def _player_class(level: str):
    from .ai import LEVELS  # imported late: the AI package imports the engine, not this module

    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})") from None


_FOLLOW = {
    ("none", False, False): lambda **k: _("Your play: you hold no {colour}, so any card may be played.", **k),
    ("none", True, False): lambda **k: _("Your play: you hold no trump ({colour}), so any card may be played.", **k),
    ("lead", False, False): lambda **k: _("Your play: the lead is {colour}.", **k),
    ("lead", True, False): lambda **k: _("Your play: the lead is trump ({colour}).", **k),
    ("lead", False, True): lambda **k: _("Your play: the lead is {colour}; the {card} may be played on any trick.",
                                         **k),
    ("lead", True, True): lambda **k: _("Your play: the lead is trump ({colour}); the {card} may be played on any "
                                        "trick.", **k),
    ("must", False, False): lambda **k: _("Your play: you must follow {colour} (you hold {cards}); the greyed cards "
                                          "cannot be played.", **k),
    ("must", True, False): lambda **k: _("Your play: you must follow trump, {colour} (you hold {cards}); the greyed "
                                         "cards cannot be played.", **k),
    ("must", False, True): lambda **k: _("Your play: you must follow {colour} (you hold {cards}); the {card} may be "
                                         "played on any trick; the greyed cards cannot be played.", **k),
    ("must", True, True): lambda **k: _("Your play: you must follow trump, {colour} (you hold {cards}); the {card} "
                                        "may be played on any trick; the greyed cards cannot be played.", **k),
}
"""`Table._follow_prompt`'s sentences, keyed by (none held / all legal / must follow, trump led, the bird may
be played instead): each a whole message in the active language."""


class Table:
    """A game for one learner at ``learner`` (default 2 = South) with three AI players (rules.md §1).

    Args:
      rules: a `Rules` value (default: CrowsNest, `get_rules()`).
      seed: int seed for the deals and the AI tie-breaks (None = fresh random seed; with ``deal``, the deal's
        seed). The same seed and the same learner actions give the same game.
      level: AI level, a key of ``rookcore.ai.LEVELS`` ("rules" = `RuleBasedPlayer`, "random", "strong").
      learner: the learner's seat 0..3 (N, E, S, W); the partner sits opposite.
      deal: int seed of a shared first deal (the app's ``?deal=`` link), or None. Without ``seed`` the table is
        seeded from it too, so every learner who opens the same link meets the same AI calls and cards (the
        strong AI samples deals at random) as long as they act alike.
    Raises ValueError for an unknown level or seat.

    Attributes: ``game`` (the `Game`), ``players`` (dict seat -> AI player), ``log`` (list of
    `LoggedDecision` of the hand on show), ``learner``, ``partner``, ``level``, ``seed``.
    """

    def __init__(self, rules: Rules | None = None, seed: int | None = None, level: str = "rules",
                 learner: int = 2, deal: int | None = None) -> None:
        if not isinstance(learner, int) or not 0 <= learner < 4:
            raise ValueError(f"learner must be a seat 0..3 (N, E, S, W), got {learner!r}")
        self.learner = learner
        self.partner = (learner + 2) % 4
        self.level = level
        self._player_cls = _player_class(level)
        if seed is None:
            seed = random.getrandbits(48) if deal is None else deal
        self.seed = seed
        self._rng = random.Random(self.seed)
        self._bird_next: bool | None = None
        self._start_game(rules or get_rules())
        if deal is not None:  # a shared deal (the app's ?deal=<seed> link): the first hand is that deal
            self._show(self.game.redeal(deal))

    # ------------------------------------------------------------------ setup
    def _start_game(self, rules: Rules) -> None:
        self.game = Game(rules, "N", self._rng.getrandbits(48))
        self.players = {s: self._player_cls(seed=self._rng.getrandbits(32)) for s in range(4) if s != self.learner}
        self._hint_seed = self._rng.getrandbits(32)
        self._show(self.game.current)

    def _show(self, hand: HandState) -> None:
        self._hand = hand
        self._recorded = False
        self.log: list[LoggedDecision] = []

    # ------------------------------------------------------------------ read-only views
    @property
    def state(self) -> HandState:
        """The `HandState` on show (the current hand, or the finished hand until `new_hand`)."""
        return self._hand

    @property
    def rules(self) -> Rules:
        """The rule set of the game in progress."""
        return self.game.rules

    @property
    def decisions(self) -> list:
        """The AI `Decision`s of the hand on show, oldest first."""
        return [entry.decision for entry in self.log]

    @property
    def hand_number(self) -> int:
        """1-based number of the hand on show within the game (passed-out hands count)."""
        return len(self.game.hands) + (0 if self._recorded else 1)

    @property
    def learner_team(self) -> int:
        """Team index of the learner (0 = N–S, 1 = E–W)."""
        return team_of(self.learner)

    @property
    def bird_next_game(self) -> bool:
        """Whether the next `new_game` plays with the bird (set by `set_bird`; default: as now)."""
        return self.next_game_rules().bird

    @property
    def learner_has_acted(self) -> bool:
        """True if the learner has made a call or a play in the hand on show (so `undo_learner` has something to
        take back)."""
        return any(seat == self.learner for seat, _a, _saved in self._hand.history)

    @property
    def game_started(self) -> bool:
        """True once the game has something to lose: a hand after the first, or the learner's own action in the
        first (a `new_game` then throws that away)."""
        return self.hand_number > 1 or self.learner_has_acted

    def is_learner_turn(self) -> bool:
        """True if the hand is not over and the learner is the seat to act."""
        return not self._hand.is_over and self._hand.to_act == self.learner

    def ai_to_act(self) -> bool:
        """True if the hand is not over and an AI seat is to act (rules.md §1: calls, nest, trump, play)."""
        return not self._hand.is_over and self._hand.to_act != self.learner

    def learner_hand(self) -> list[Card]:
        """The learner's cards now in display order (`sort_cards`); holds the nest while the learner discards."""
        return sort_cards(self.rules, self._hand.hands[self.learner], self._hand.trump)

    def visible_nest(self) -> list[Card]:
        """The nest cards the learner may see (rules.md §1.3: only the declarer sees the nest): the nest as
        dealt while the learner discards, the learner's own discard afterwards; [] for everyone else."""
        s = self._hand
        if s.declarer != self.learner or s.phase is Phase.AUCTION:
            return []
        cards = s.dealt_nest if s.phase is Phase.DISCARD else (s.discard or ())
        return sort_cards(self.rules, cards)

    def hand_sizes(self) -> tuple[int, int, int, int]:
        """Number of cards each seat holds now (N, E, S, W)."""
        return tuple(len(h) for h in self._hand.hands)

    def current_trick(self) -> list[tuple[int, Card]]:
        """The trick in progress as (seat, card) in play order ([] between tricks)."""
        s = self._hand
        return [((s.trick_leader + i) % 4, c) for i, c in enumerate(s.trick)]

    def last_trick(self) -> Trick | None:
        """The last completed trick (leader, cards in play order, winner, points), or None."""
        return self._hand.tricks[-1] if self._hand.tricks else None

    def trick_seats(self, trick: Trick) -> list[tuple[int, Card]]:
        """A completed trick as (seat, card) in play order."""
        return [((trick.leader + i) % 4, c) for i, c in enumerate(trick.cards)]

    def name(self, card: Card) -> str:
        """Display name of ``card`` in this rule set (see `card_name`)."""
        return card_name(self.rules, card)

    # ------------------------------------------------------------------ AI moves
    def _apply(self, action: Action, seat: int) -> None:
        """Apply ``action`` for ``seat`` (engine checks); score the hand into the game when it ends."""
        self._hand.apply(action, seat)
        if self._hand.is_over and not self._recorded:
            self._record_into_game()

    def _record_into_game(self) -> None:
        self.game.next_hand(seed=self._rng.getrandbits(48))
        self._recorded = True

    def _unrecord(self) -> None:
        self.game.unscore_last()
        self._recorded = False

    def step_ai(self):
        """Let the AI seat to act take one action (a call, the discard, naming trump, or one card) and apply it.

        Returns the AI's `Decision` (also appended to `log`), or None if no AI is to act (the learner's turn
        or the hand is over). The AI sees only its own `Observation` (rules.md §1). Raises the engine's
        IllegalAction only if an AI returns an illegal action (a bug; the state is then unchanged).
        """
        if not self.ai_to_act():
            return None
        seat = self._hand.to_act
        self.players[seat].game_score = tuple(self.game.scores)  # the running score is public (issue 32)
        decision = self.players[seat].decide(self._hand.observation(seat))
        step = self._hand.step
        self._apply(decision.action, seat)
        self.log.append(LoggedDecision(step, decision))
        return decision

    def reasoning_for_learner(self, reveal: bool = False) -> list[LoggedDecision]:
        """The AI decisions of the hand on show, oldest first, as the learner may be told them now.

        Rule (rules.md §1, §1.3; `rookcore.ai.masking.public_decisions`): until the hand is over each AI move is
        told only as the whole table saw it, from the public history alone: the move (another declarer's discard by
        its size, "N buries 5 cards") and one sentence of public facts ("E has no Green and plays a trump"), without
        the AI's own reasons, candidates or scores, which rest on cards the learner cannot see. Once the hand is over
        (or with ``reveal``) the decisions are given whole.

        Args: reveal: bool, give every decision whole even during the hand (the learner's choice to see the AIs'
        reasoning as they play). Returns: a list of `LoggedDecision` (step, `Decision`), one per entry of `log`.
        Raises nothing for a table's own log.
        """
        from .ai.masking import public_decisions  # noqa: PLC0415 (see _player_class)

        if reveal or self._hand.is_over:
            return list(self.log)
        shown = public_decisions(self._hand, self.learner, self.log)
        return [LoggedDecision(e.step, d) for e, d in zip(self.log, shown)]

    def run_ai(self, limit: int = 1000) -> list:
        """Run `step_ai` until the learner must act or the hand ends. Returns the Decisions taken, in order.

        ``limit`` caps the number of AI actions (a safety net; a hand has well under 100 actions).
        """
        taken = []
        while self.ai_to_act() and len(taken) < limit:
            taken.append(self.step_ai())
        return taken

    # ------------------------------------------------------------------ the learner's moves
    def legal_for_learner(self) -> list[Action]:
        """The learner's legal actions now: calls (PASS and Bids, rules.md §1.2), the four NameTrump
        (§1.4) or Plays of the legal cards (§1.5, §3). [] when it is not the learner's turn and during the
        discard (use `discard_options` / `learner_discard`: a discard is any ``nest_size`` cards)."""
        if not self.is_learner_turn() or self._hand.phase is Phase.DISCARD:
            return []
        return self._hand.legal_actions()

    def _not_your_turn(self) -> IllegalAction:
        s = self._hand
        if s.is_over:
            return WrongPhase(_("the hand is over: start a new hand"))
        return OutOfTurn(_("it is {seat}'s turn, not yours ({you})", seat=seat_name(s.to_act),
                           you=seat_name(self.learner)))

    def learner_act(self, action: Action) -> None:
        """Apply the learner's ``action`` (a `Bid`, `PASS`, `Discard`, `NameTrump` or `Play`).

        Does not move the AIs: call `run_ai` / `step_ai` afterwards.
        Raises OutOfTurn if it is not the learner's turn, WrongPhase if the hand is over or the action is of
        the wrong kind, IllegalAction with the rule's message otherwise (a card that must not be played: ``S cannot
        play G5: must follow Red (holds R9)``, the reason of `card_status`); the state is then unchanged.
        """
        if not self.is_learner_turn():
            raise self._not_your_turn()
        if isinstance(action, Play) and self._hand.phase is Phase.PLAY:  # the colour named, as on the card
            why = self.card_status().get(action.card)
            if why:
                # TRANSLATORS: {reason} is one of the card_status reasons, already translated
                raise IllegalAction(_("{seat} cannot play {card}: {reason}", seat=seat_name(self.learner),
                                      card=card_text(self.rules, action.card), reason=why))
        self._apply(action, self.learner)

    def card_status(self) -> dict[Card, str | None]:
        """For every card in the learner's hand: None if the learner may play it now, else why not.

        Reasons: "wait for the auction to end", "wait for the discard", "wait for trump to be named",
        "not your turn", "must follow Red (holds R9)" (from the engine's legal cards and led suit,
        rules.md §1.5, §3), "the hand is over".
        """
        s = self._hand
        hand = s.hands[self.learner]
        if s.phase is not Phase.PLAY:
            reason = {Phase.AUCTION: _("wait for the auction to end"), Phase.DISCARD: _("wait for the discard"),
                      Phase.TRUMP: _("wait for trump to be named"), Phase.DONE: _("the hand is over")}[s.phase]
            return {c: reason for c in hand}
        if s.to_act != self.learner:
            return {c: _("not your turn") for c in hand}
        legal = set(s.legal_cards())
        reason = None
        if len(legal) < len(hand):
            colour, is_trump, held = self._lead_to_follow()
            names = self._names(held)
            reason = (_("must follow trump, {colour} (holds {cards})", colour=colour, cards=names) if is_trump
                      else _("must follow {colour} (holds {cards})", colour=colour, cards=names))
        return {c: None if c in legal else reason for c in hand}

    def _lead_to_follow(self) -> tuple[str, bool, list[Card]]:
        """While a trick is led (rules.md §1.5): (the led colour's name, whether it is trump, the learner's cards
        of that effective suit in display order, the bird among them when trump is led)."""
        s = self._hand
        led = s.tables.suit[s.trick[0]]
        held = sort_cards(self.rules, (c for c in s.hands[self.learner] if s.tables.suit[c] == led), s.trump)
        return colour_name(COLOURS[led]), COLOURS[led] == s.trump, held

    def _names(self, cards: Iterable[Card]) -> str:
        """``cards`` by their names on the page (the bird's translated), comma-separated ("R12, R10")."""
        return cards_text(self.rules, cards)

    def discard_options(self) -> list[Card]:
        """The cards the learner may put back (hand plus nest, display order) while the learner discards
        (rules.md §1.3); [] otherwise."""
        s = self._hand
        if s.phase is not Phase.DISCARD or s.declarer != self.learner:
            return []
        return sort_cards(self.rules, s.discard_candidates())

    def learner_discard(self, cards: Iterable[Card | str | int]) -> None:
        """Put back ``cards`` (Cards, ids or record strings like "R5"/"CROW") as the nest (rules.md §1.3).

        Raises IllegalAction unless exactly ``rules.nest_size`` distinct cards of the learner's hand plus
        nest are given; OutOfTurn / WrongPhase when the learner is not discarding; CardError for a bad
        string. The state is then unchanged.
        """
        if not self.is_learner_turn():
            raise self._not_your_turn()
        if self._hand.phase is not Phase.DISCARD:
            raise WrongPhase(_("cannot discard now: it is the {phase} phase", phase=phase_name(self._hand.phase.value)))
        picked = {Card.parse(c) if isinstance(c, str) else Card.from_id(int(c)) for c in cards}
        n = self.rules.nest_size
        if len(picked) != n:
            raise IllegalAction(ngettext("choose exactly {n} card to put back ({chosen} chosen)",
                                         "choose exactly {n} cards to put back ({chosen} chosen)", n,
                                         n=n, chosen=len(picked)))
        self._apply(Discard(picked), self.learner)

    def set_level(self, level: str) -> None:
        """Give the three AI seats (and the Hint) the AI level ``level`` (a key of `rookcore.ai.LEVELS`, e.g.
        "rules" or "strong") from their next decision on; all three share it. Raises ValueError if unknown."""
        self._player_cls = _player_class(level)
        self.level = level
        self.players = {s: self._player_cls(seed=self._rng.getrandbits(32)) for s in self.players}

    def hint(self):
        """The AI's choice for the learner's seat now, from the learner's `Observation` only.

        Returns a `Decision` (action, candidates best first, explanation). Does not apply it. The hint
        player is a fresh AI of the table's level (`rookcore.ai.HINT_LEVELS`: the rule-based AI at the random
        level) with a fixed seed, so asking twice gives the same answer.
        Raises OutOfTurn / WrongPhase when it is not the learner's turn.
        """
        if not self.is_learner_turn():
            raise self._not_your_turn()
        from .ai import HINT_LEVELS  # noqa: PLC0415 (see _player_class)

        player = _player_class(HINT_LEVELS[self.level])(seed=self._hint_seed)
        player.game_score = tuple(self.game.scores)  # the running score is public (issue 32)
        return player.decide(self._hand.observation(self.learner))

    def undo_learner(self) -> list[Action]:
        """Take back the learner's last action in this hand and every AI action after it.

        Uses `HandState.undo` step by step; the decision log is trimmed to match. If the hand had ended (and
        was scored into the game) the score is taken back too. Returns the actions undone, latest first.
        Raises IllegalAction("nothing to undo: ...") if the learner has not acted in this hand (nothing changes).
        """
        s = self._hand
        if not self.learner_has_acted:
            raise IllegalAction(_("nothing to undo: you have not acted in this hand"))
        if self._recorded:
            self._unrecord()
        undone = []
        while True:
            seat = s.history[-1][0]
            undone.append(s.undo())
            if seat == self.learner:
                break
        self.log = [e for e in self.log if e.step < s.step]
        return undone

    # ------------------------------------------------------------------ facts for the learner
    def tally(self) -> dict:
        """Counters of the hand on show, as the learner may know them (rules.md §1.6, §2 "counters").

        Returns a dict (points unless noted):
          captured: {"NS": int, "EW": int} points in tricks taken (nest and bonus included once counted);
          counters_out: points of counters not yet played, the nest's included while the learner cannot see it
            (anything else would give away the hidden nest's points, or what another declarer buried);
          in_trick: points in the trick in progress;
          tricks_won: {"NS": int, "EW": int} (tricks);
          nest_points: points in the nest if the learner is the declarer (their discard / the nest they
            picked up), else None;
          nest_counted: True once the nest's points went to the last trick's team;
          nest_team: that team, "NS" or "EW", once counted (rule sets with a nest), else None;
          majority_bonus: a note such as "20 points to the team taking more tricks", or None.
        """
        s = self._hand
        pts = self.rules.card_points
        nest = None
        if s.declarer == self.learner and s.phase is not Phase.AUCTION and self.rules.nest_size:
            nest = sum(pts[c] for c in s.nest)
        bonus = self.rules.majority_bonus
        note = f"{bonus} points to the team taking more tricks" if bonus else None
        in_trick = sum(pts[c] for c in s.trick)
        if nest is None and not s.is_over:  # the hidden nest: the counters neither captured nor in this trick
            out = self.rules.counter_total - s.captured[0] - s.captured[1] - in_trick
        else:
            out = s.counters_out()
        return {"captured": {"NS": s.captured[0], "EW": s.captured[1]},
                "counters_out": out,
                "in_trick": in_trick,
                "tricks_won": {"NS": s.tricks_won[0], "EW": s.tricks_won[1]},
                "nest_points": nest, "nest_counted": s.is_over and not s.passed_out,
                "nest_team": self._nest_team(),
                "majority_bonus": note}

    def _nest_team(self) -> str | None:
        """"NS"/"EW": the team that got the nest's points (the last trick's, rules.md §1.6) once the hand is counted
        in a rule set with a nest; else None."""
        s = self._hand
        if not s.is_over or s.passed_out or not self.rules.nest_size:
            return None
        return TEAMS[s.count_parts().nest_team]

    def auction_history(self) -> list[tuple[str, str]]:
        """The calls so far as (seat letter, "85" or "pass"), in order (rules.md §1.2)."""
        return [(SEATS[seat], "pass" if type(a) is Pass else str(a.amount)) for seat, a in self._hand.calls]

    def score_sheet(self) -> dict:
        """The game's scored hands (rules.md §1.7, §1.8, "Game end").

        Returns {"rows": [...], "totals": {"NS": int, "EW": int}, "game_over": bool, "winner": "NS"|"EW"|None}.
        Each row is a dict: hand (1-based), dealer (seat letter), declarer (letter or None), bid (points or
        None), result ("made" / "set" / "passed out"), NS, EW (hand score, points), total_NS, total_EW
        (running totals). The totals equal ``game.scores``.
        """
        rows, ns, ew = [], 0, 0
        for i, (hand, (a, b)) in enumerate(zip(self.game.hands, self.game.hand_scores), 1):
            ns, ew = ns + a, ew + b
            result = "passed out" if hand.passed_out else ("made" if hand.made else "set")
            rows.append({"hand": i, "dealer": SEATS[hand.dealer],
                         "declarer": None if hand.declarer is None else SEATS[hand.declarer],
                         "bid": hand.high_bid if hand.declarer is not None else None, "result": result,
                         "NS": a, "EW": b, "total_NS": ns, "total_EW": ew})
        winner = self.game.winner
        return {"rows": rows, "totals": {"NS": self.game.scores[0], "EW": self.game.scores[1]},
                "game_over": winner is not None, "winner": None if winner is None else TEAMS[winner]}

    def hand_result(self) -> HandResult:
        """The result of the finished hand on show, for the end-of-hand panel (rules.md §1.6 Count, §1.7 Score,
        "Game end"; `rookcore.result.hand_result`).

        Returns a `HandResult`: bid, declarer (seat letter) and team, made or set, for each team ("NS", "EW") the
        counters taken in tricks, the nest's points (to the team of the last trick), the majority bonus apart, the
        hand score and the game score after this hand (points, equal to ``game.scores``), and whether the game is
        over (and who won). A passed-out hand has no declarer and scores 0–0.
        Raises ValueError (`WrongPhase`) if the hand is not over yet.
        """
        s = self._hand
        if not s.is_over:
            raise WrongPhase(_("the hand is not over yet: its result is shown after the last trick"))
        after = self.game.scores
        hand = self.game.hand_scores[-1] if self._recorded else s.score()
        before = (after[0] - hand[0], after[1] - hand[1]) if self._recorded else tuple(after)
        return hand_result(s, before, self.rules.target)

    def prompt(self) -> str:
        """One plain sentence saying what happens now (whose turn, what the learner may do, or the result), in the
        active language (`rookcore.i18n`). Returns the sentence; raises nothing."""
        s, r = self._hand, self.rules
        if s.is_over:
            if s.passed_out:
                return _("All four passed: the same dealer deals again (New hand).")
            ns, ew = s.score()
            parts = dict(team=team_name(s.declarer & 1), bid=s.high_bid, ns_team=team_name(0), ew_team=team_name(1),
                         ns_captured=s.captured[0], ew_captured=s.captured[1], ns_score=f"{ns:+d}",
                         ew_score=f"{ew:+d}")
            if s.made:
                return _("Hand over: {team} made {bid} (captured {ns_team} {ns_captured}, {ew_team} {ew_captured}; "
                         "score {ns_team} {ns_score}, {ew_team} {ew_score}).", **parts)
            return _("Hand over: {team} were set on {bid} (captured {ns_team} {ns_captured}, {ew_team} "
                     "{ew_captured}; score {ns_team} {ns_score}, {ew_team} {ew_score}).", **parts)
        if s.to_act != self.learner:
            return _("{seat} to act.", seat=seat_name(s.to_act))
        if s.phase is Phase.AUCTION:
            bids = r.legal_bids(s.high_bid)
            if len(bids):
                return _("Your call: bid {low} or more (up to {high}), or pass.", low=bids[0], high=r.bid_max)
            return _("Your call: pass.")
        if s.phase is Phase.DISCARD:
            return ngettext("You won the bid at {bid}: put back {n} card from your hand and the nest.",
                            "You won the bid at {bid}: put back {n} cards from your hand and the nest.",
                            r.nest_size, bid=s.high_bid, n=r.nest_size)
        if s.phase is Phase.TRUMP:
            return _("Name trump.")
        return _("Your lead: play any card.") if not s.trick else self._follow_prompt()

    def _follow_prompt(self) -> str:
        """The prompt when the learner follows a lead (rules.md §1.5, §3): the led colour to follow and the cards
        held in it, the bird when it may be played instead (bird-any-time rule sets), or that none is held (any card
        may be played). Returns one sentence (`_FOLLOW`, whole messages); raises nothing."""
        s = self._hand
        colour, is_trump, held = self._lead_to_follow()
        if not held:
            return _FOLLOW["none", is_trump, False](colour=colour)
        legal = s.legal_cards()
        extra = [c for c in legal if c not in held]  # the bird, playable on any trick (§3)
        also = dict(card=card_text(self.rules, extra[0])) if extra else {}
        if len(legal) == len(s.hands[self.learner]):
            return _FOLLOW["lead", is_trump, bool(extra)](colour=colour, **also)
        return _FOLLOW["must", is_trump, bool(extra)](colour=colour, cards=self._names(held), **also)

    # ------------------------------------------------------------------ the table as the learner sees it
    def view(self, picked: Iterable[Card] = ()) -> dict:
        """A plain description of the table as the learner sees it, for a view to draw (no pictures, no markup).

        ``picked``: cards the learner has chosen so far to put back as the nest (discard phase only).
        Returns a JSON-able dict (seats as letters N/E/S/W, cards as record notation with their int ``id``):
          phase: "auction" | "discard" | "trump" | "play" | "done";
          mode: "play" (the learner plays a card), "discard" (the learner picks cards to put back) or "watch";
          positions: {"bottom": learner, "left", "top", "right"} as the learner sits (play goes left: rules.md §1);
          seats: {letter: {"count": cards held, "to_act": bool, "declarer": bool, "partner": bool,
            "learner": bool, "call": last call ("pass", "85") or None}};
          hand: the learner's cards (hand and nest while discarding) in `table_order`, each {"id", "code",
            "name" (page name), "group" (`group_of`), "legal": may be played/picked now, "reason": why not (None
            when legal; the `card_status` reason), "from_nest": bool, "picked": bool};
          trick: {"number": tricks completed so far, "leader": letter or None, "cards": [{"seat", "id", "code"}]};
          last_trick: None or {"number", "winner", "points", "leader", "cards": [...]} of the last completed trick;
          nest: {"count": cards in the nest (0 for none), "holder": the declarer's letter once taken or None,
            "visible": the learner may see it (§1.3), "points": its counters when visible else None, "cards": its
            cards in record notation when visible, else []};
          trump: colour letter or None; bid: the high bid (points) or None; declarer: letter or None.
        Raises nothing.
        """
        s, r = self._hand, self.rules
        picked = {int(c) for c in picked}
        discarding = self.is_learner_turn() and s.phase is Phase.DISCARD
        mode = "discard" if discarding else "play" if self.is_learner_turn() and s.phase is Phase.PLAY else "watch"
        cards = s.discard_candidates() if discarding else s.hands[self.learner]
        status = self.card_status()
        nest = set(self.visible_nest()) if discarding else set()
        hand = []
        for c in table_order(r, cards, s.trump):
            reason = None if discarding else status.get(c)
            hand.append({"id": int(c), "code": c.notation(r.bird_name), "name": self.name(c),
                         "group": group_of(r, c, s.trump), "legal": reason is None and mode != "watch",
                         "reason": reason, "from_nest": c in nest, "picked": int(c) in picked and discarding})
        last_calls = {seat: ("pass" if type(a) is Pass else str(a.amount)) for seat, a in s.calls}
        seats = {SEATS[x]: {"count": len(s.hands[x]), "to_act": not s.is_over and s.to_act == x,
                            "declarer": s.declarer == x and s.phase is not Phase.AUCTION,
                            "partner": x == self.partner, "learner": x == self.learner,
                            "call": last_calls.get(x)} for x in range(4)}
        return {"phase": s.phase.value, "mode": mode,
                "positions": {k: SEATS[(self.learner + d) % 4]
                              for k, d in (("bottom", 0), ("left", 1), ("top", 2), ("right", 3))},
                "seats": seats, "hand": hand, "trick": self._trick_view(), "last_trick": self._last_trick_view(),
                "nest": self._nest_view(), "trump": s.trump, "bid": s.high_bid,
                "declarer": None if s.declarer is None else SEATS[s.declarer]}

    def _played(self, pairs) -> list[dict]:
        return [{"seat": SEATS[seat], "id": int(c), "code": c.notation(self.rules.bird_name), "name": self.name(c)}
                for seat, c in pairs]

    def _trick_view(self) -> dict:
        s = self._hand
        playing = s.phase is Phase.PLAY
        return {"number": len(s.tricks), "leader": SEATS[s.trick_leader] if playing else None,
                "cards": self._played(self.current_trick()) if playing else []}

    def _last_trick_view(self) -> dict | None:
        last = self.last_trick()
        if last is None:
            return None
        return {"number": len(self._hand.tricks), "winner": SEATS[last.winner], "points": last.points,
                "leader": SEATS[last.leader], "cards": self._played(self.trick_seats(last))}

    def _nest_view(self) -> dict:
        s, r = self._hand, self.rules
        holder = None if s.declarer is None or s.phase is Phase.AUCTION else SEATS[s.declarer]
        seen = self.visible_nest()
        visible = bool(seen) and s.phase is not Phase.DISCARD
        return {"count": r.nest_size, "holder": holder, "visible": visible,
                "points": r.points_of(seen) if visible else None,
                "cards": [c.notation(r.bird_name) for c in seen] if visible else []}

    # ------------------------------------------------------------------ hands and games
    def new_hand(self) -> HandState:
        """Show the next hand of the game (rules.md §1.8: the deal passes left; after a passed-out hand the
        same dealer deals again). If the hand on show is unfinished it is thrown away (not scored) and the same
        dealer deals a fresh hand. Clears the decision log. The AIs do not move: call `run_ai`.

        Returns the new `HandState`. Raises IllegalAction if the game is over (use `new_game`).
        """
        if self.game.is_over:
            raise IllegalAction(_("the game is over: start a new game"))
        if not self._recorded:
            self.game.redeal(self._rng.getrandbits(48))
        self._show(self.game.current)
        return self._hand

    def new_game(self, rules: Rules | None = None) -> Game:
        """Start a new game (scores 0–0, dealer N) with ``rules`` (default: the current rule set), applying a
        pending `set_bird` choice. Returns the new `Game`. Raises RulesError if the bird option does not apply."""
        self._start_game(self.next_game_rules(rules))
        return self.game

    def next_game_rules(self, rules: Rules | None = None) -> Rules:
        """The `Rules` a `new_game` with ``rules`` (default: the current rule set) would play: ``rules`` with a
        pending `set_bird` choice applied when it has the bird option. Raises nothing for valid ``rules``."""
        rules = rules or self.rules
        if self._bird_next is not None and rules.bird_optional and rules.bird != self._bird_next:
            rules = rules.with_options({"bird": self._bird_next})
        return rules

    def set_bird(self, on: bool | None) -> None:
        """Play with (True) or without (False) the bird from the next `new_game` (rules.md §2 options:
        without the bird one card fewer in the nest and 20 points off the top bid); None drops the choice, so that
        the next game's `Rules` decide. The game in progress does not change. Raises RulesError if ``on`` is a
        bool and the rule set has no bird option."""
        if on is None:
            self._bird_next = None
            return
        self.rules.with_options({"bird": bool(on)})  # validates
        self._bird_next = bool(on)

    # ------------------------------------------------------------------ records
    def record(self, reasons: bool = True) -> records.HandRecord:
        """The hand on show as a `records.HandRecord` (rook-hand/1; finished or not).

        ``reasons``: attach each AI decision's summary as a comment at its step. meta names the players.
        """
        comments = None
        if reasons and self.log:
            comments = [{"step": e.step, "text": e.decision.summary(self.rules.bird_name)} for e in self.log]
        players = {SEATS[s]: ("you" if s == self.learner else "AI") for s in range(4)}
        return records.HandRecord.from_state(self._hand, comments=comments,
                                             meta={"players": players, "ai_level": self.level})

    def record_json(self) -> str:
        """`record()` as JSON text (records.dumps)."""
        return records.dumps(self.record())

    def save(self, path: str | os.PathLike) -> str:
        """Write `record()` as JSON to ``path``, creating parent folders (`records.save`). Returns the path.
        Raises ValueError for an empty path or a folder, OSError if the file cannot be written."""
        return records.save(self.record(), path)

    def __repr__(self) -> str:
        return (f"<Table {self.rules.variant} hand {self.hand_number} {self._hand.phase.value} "
                f"N–S {self.game.scores[0]} E–W {self.game.scores[1]}>")

