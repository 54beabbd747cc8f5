"""The result of a finished hand, part by part, for an end-of-hand panel (rules.md §1.6 Count, §1.7 Score,
"Game end").

`hand_result` reads a finished `HandState` and the game score before it and returns a `HandResult`: the bid and
the declarer, made or set, each team's counters taken in tricks, the nest's points and the team that got them, the
majority bonus apart, each team's hand score and game score after the hand, and whether the game is over. It
applies no rule of its own: the count is `HandState.count_parts`, the score `HandState.score` (`hand_score`) and
the game end `game_winner`. `rookcore.table.Table.hand_result` calls it for the hand on show.

Units: points for bids, counters and scores, tricks for trick counts. Teams are written "NS" and "EW" (as in
`Table.score_sheet`); seats as letters N, E, S, W.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Sequence

from .game import game_winner
from .hand import SEATS, TEAMS, HandState, WrongPhase, team_of

__all__ = ["HandResult", "TeamResult", "hand_result"]


@dataclass(frozen=True)
class TeamResult:
    """One team's part of a finished hand (rules.md §1.6, §1.7). Points unless noted.

    team: "NS" or "EW"; tricks: tricks it took (tricks); trick_points: counters in those tricks; nest_points: the
    nest's counters if it took the last trick, else 0; bonus: the majority bonus if it took more tricks, else 0;
    captured: trick_points + nest_points + bonus (what the engine counted); hand_score: its score for the hand
    (the bid, or what it captured, if it declared and made; minus the bid if set; what it captured as defenders);
    game_score: its game total after this hand.
    """

    team: str
    tricks: int
    trick_points: int
    nest_points: int
    bonus: int
    captured: int
    hand_score: int
    game_score: int


@dataclass(frozen=True)
class HandResult:
    """A finished hand's result (rules.md §1.6 Count, §1.7 Score, "Game end"); see `hand_result`.

    passed_out: all four passed (no declarer, no score; the same dealer deals again, §1.2);
    bid: the winning bid (points) or None; declarer: its seat letter or None; declarer_team: "NS"/"EW" or None;
    made: True (made the bid), False (set), None when passed out; trump: colour letter or None;
    has_nest: the rule set has a nest; nest_points: counters in the nest the declarer put back (0 without one);
    nest_team: "NS"/"EW" that took the last trick and so the nest (None when passed out or without a nest);
    has_bonus: the rule set has a majority bonus; bonus: the points paid (0 if none, e.g. an equal split);
    bonus_team: "NS"/"EW" that got it, or None;
    teams: {"NS": TeamResult, "EW": TeamResult}; target: the game target (points);
    game_over: a team has won after this hand; winner: "NS"/"EW" or None.
    """

    passed_out: bool
    bid: int | None
    declarer: str | None
    declarer_team: str | None
    made: bool | None
    trump: str | None
    has_nest: bool
    nest_points: int
    nest_team: str | None
    has_bonus: bool
    bonus: int
    bonus_team: str | None
    teams: dict = field(default_factory=dict)
    target: int = 300
    game_over: bool = False
    winner: str | None = None

    @property
    def defender_team(self) -> str | None:
        """The defenders' team ("NS"/"EW"), or None when passed out."""
        if self.declarer_team is None:
            return None
        return TEAMS[1 - TEAMS.index(self.declarer_team)]

    def to_dict(self) -> dict:
        """The result as plain JSON-ready values (the teams as dicts too). Raises nothing."""
        return asdict(self)


def _team_name(team: int | None) -> str | None:
    return None if team is None else TEAMS[team]


def _team_results(state: HandState, score: tuple[int, int], after: tuple[int, int], nest_team: int | None,
                  nest_points: int, bonus_team: int | None, bonus: int) -> dict:
    """{"NS": TeamResult, "EW": TeamResult} of ``state`` (finished) with the hand ``score`` and game scores
    ``after`` (points)."""
    teams = {}
    for team in (0, 1):
        trick_points = sum(t.points for t in state.tricks if team_of(t.winner) == team)
        teams[TEAMS[team]] = TeamResult(
            team=TEAMS[team], tricks=state.tricks_won[team], trick_points=trick_points,
            nest_points=nest_points if nest_team == team else 0, bonus=bonus if bonus_team == team else 0,
            captured=state.captured[team], hand_score=score[team], game_score=after[team])
    return teams


def hand_result(state: HandState, scores_before: Sequence[int] = (0, 0), target: int | None = None) -> HandResult:
    """The result of the finished hand ``state`` (rules.md §1.6 Count, §1.7 Score, "Game end").

    Args:
      state: a finished `HandState` (played out, or passed out).
      scores_before: the game score (N–S, E–W) in points before this hand (default 0–0: the hand alone).
      target: the game target in points (default ``state.rules.target``).
    Returns a `HandResult`: the counters each team took in tricks, the nest's points to the team of the last trick
    and the majority bonus apart (`HandState.count_parts`), the hand score (`HandState.score`), the game scores
    after it and whether a team has won (`rookcore.game.game_winner`; a passed-out hand ends no game).
    Raises ValueError (`WrongPhase`) if the hand is not over, and ValueError for a ``scores_before`` that is not two
    whole numbers.
    """
    if not state.is_over:
        raise WrongPhase("the hand is not over yet: its result is known after the last trick (or when all four "
                         "pass)")
    before = tuple(scores_before)
    if len(before) != 2 or not all(isinstance(x, int) for x in before):
        raise ValueError(f"scores_before must be two whole numbers of points (N–S, E–W), not {scores_before!r}")
    rules = state.rules
    target = rules.target if target is None else target
    score = state.score()
    after = (before[0] + score[0], before[1] + score[1])
    if state.passed_out:
        teams = _team_results(state, score, after, None, 0, None, 0)
        return HandResult(passed_out=True, bid=None, declarer=None, declarer_team=None, made=None, trump=None,
                          has_nest=rules.nest_size > 0, nest_points=0, nest_team=None,
                          has_bonus=rules.majority_bonus > 0, bonus=0, bonus_team=None, teams=teams, target=target)
    parts = state.count_parts()
    teams = _team_results(state, score, after, parts.nest_team, parts.nest_points, parts.bonus_team, parts.bonus)
    winner = game_winner(after, target)
    return HandResult(passed_out=False, bid=state.high_bid, declarer=SEATS[state.declarer],
                      declarer_team=TEAMS[team_of(state.declarer)], made=bool(state.made), trump=state.trump,
                      has_nest=rules.nest_size > 0, nest_points=parts.nest_points,
                      nest_team=_team_name(parts.nest_team) if rules.nest_size else None,
                      has_bonus=rules.majority_bonus > 0, bonus=parts.bonus,
                      bonus_team=_team_name(parts.bonus_team), teams=teams, target=target,
                      game_over=winner is not None, winner=_team_name(winner))
