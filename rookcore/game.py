"""A game of Rook: hands in sequence to the target (rules.md §1.8 and "Game end").

The deal rotates left (clockwise) after a scored hand; after a passed-out hand
the same dealer deals again and the scores do not change. The game ends after a
scored hand once a team is at or above ``rules.target``: the higher total wins;
equal totals mean another (sudden-death) hand.
"""
from __future__ import annotations

import random

from .hand import HandState, IllegalAction, seat_index
from .rules import Rules, get_rules


MAX_GAME_HANDS = 200
"""The most hands a game played by the AIs alone lasts (`rookcore.selfplay.play_game`, ``play --game``): a target far
above any hand's score, or endless pass-outs, could otherwise run for hours; the record then has no winner."""


def game_winner(scores: tuple[int, int] | list[int], target: int) -> int | None:
    """Winning team (0 = N–S, 1 = E–W) for running ``scores`` (points), or None if play goes on.

    rules.md "Game end": a team at or above ``target`` wins; both above → the higher;
    equal totals → None (another hand).
    """
    ns, ew = scores
    if max(ns, ew) < target or ns == ew:
        return None
    return 0 if ns > ew else 1


class Game:
    """A game in progress: the current `HandState`, finished hands, running score (points, N–S/E–W).

    ``seed`` makes the sequence of deals reproducible (each hand's deal seed is drawn from it).
    """

    def __init__(self, rules: Rules | None = None, dealer: str | int = "N", seed: int | None = None):
        """Start a game and deal its first hand. Raises ValueError for a bad dealer seat."""
        self.rules = rules or get_rules()
        self._rng = random.Random(seed)
        self.scores = [0, 0]
        self.hands: list[HandState] = []
        self.hand_scores: list[tuple[int, int]] = []
        self.winner: int | None = None
        self.current = HandState.deal(self.rules, seat_index(dealer), self._next_seed())

    def _next_seed(self) -> int:
        return self._rng.getrandbits(48)

    @property
    def dealer(self) -> int:
        """Seat index of the current hand's dealer."""
        return self.current.dealer

    @property
    def is_over(self) -> bool:
        """True once a team has won (rules.md "Game end")."""
        return self.winner is not None

    def next_hand(self, seed: int | None = None) -> HandState:
        """Record the finished current hand and deal the next (same dealer after a pass-out, else left).

        ``seed``: deal seed for the new hand (default: drawn from the game's seed).
        Raises IllegalAction if the current hand is not over or the game is over.
        """
        hand = self.current
        self._score(hand)
        dealer = hand.dealer if hand.passed_out else (hand.dealer + 1) % 4
        seed = self._next_seed() if seed is None else seed
        self.current = HandState.deal(self.rules, dealer, seed)
        return self.current

    def _score(self, hand: HandState) -> None:
        """Add the finished ``hand`` to the scored hands, the totals and the winner. Raises IllegalAction if it is
        not over or the game is already won (nothing changes)."""
        if not hand.is_over:
            raise IllegalAction("the current hand is not over yet")
        if self.is_over:
            raise IllegalAction("the game is over")
        self.hands.append(hand)
        score = hand.score()
        self.hand_scores.append(score)
        self.scores = [self.scores[0] + score[0], self.scores[1] + score[1]]
        if not hand.passed_out:
            self.winner = game_winner(self.scores, self.rules.target)

    @classmethod
    def resume(cls, rules: Rules, hands: list[HandState], current: HandState,
               rng: random.Random | None = None) -> "Game":
        """A game rebuilt from its parts (a kept game read back, `rookcore.saved`): the scored ``hands`` in order
        (each over), scored again one by one as `next_hand` scores them (totals and winner follow), ``current`` the
        hand in play (or the deal after the last hand) and ``rng`` the game's generator of deal seeds (default: a
        fresh one). Raises IllegalAction for a hand that is not over or that follows a won game, ValueError if a
        hand is not of ``rules``."""
        game = cls.__new__(cls)
        game.rules, game._rng = rules, rng or random.Random()
        game.scores, game.hands, game.hand_scores, game.winner = [0, 0], [], [], None
        for hand in [*hands, current]:
            if hand.rules != rules:
                raise ValueError("every hand of a game is played under the game's rules")
        for hand in hands:
            game._score(hand)
        game.current = current
        return game

    def redeal(self, seed: int | None = None) -> HandState:
        """Throw away the unfinished current hand (not scored) and let the same dealer deal a fresh one.

        Raises IllegalAction if the current hand is already over (use `next_hand`).
        """
        if self.current.is_over:
            raise IllegalAction("the current hand is over: use next_hand")
        seed = self._next_seed() if seed is None else seed
        self.current = HandState.deal(self.rules, self.current.dealer, seed)
        return self.current

    def unscore_last(self) -> HandState:
        """Take the last scored hand back out of the game (for an undo into a finished hand).

        Its score leaves the totals, the winner is re-derived, and it becomes the current hand again
        (the unplayed hand dealt after it is dropped). Returns it. Raises IllegalAction if no hand was scored.
        """
        if not self.hands:
            raise IllegalAction("no hand has been scored yet")
        hand = self.hands.pop()
        ns, ew = self.hand_scores.pop()
        self.scores = [self.scores[0] - ns, self.scores[1] - ew]
        self.winner = None  # a game ends at its last scored hand, so before it nobody had won
        self.current = hand
        return hand

    def __repr__(self) -> str:
        return f"<Game {self.rules.variant} N–S {self.scores[0]} E–W {self.scores[1]} hands={len(self.hands)}>"
