"""The score_hand exercise: "Score this hand" from the bid and each team's captured points (rules.md §1.6 count,
§1.7 score: made or set, the defenders' take). Answer: (N–S, E–W) hand scores (`HandState.score`).
"""
from __future__ import annotations

from typing import Any

from ..i18n import _
from ..rules import MAKE_BID, Rules
from ..words import rules_title, team_name
from .deals import _hand_in_play, _random_playout, _rebuild, _rng, _rules
from .exercise import Exercise, ExerciseError, ExerciseKind, parse_points, register
from .wording import seat_full_name


def score_reason(rules: Rules, bid: int, declarer: int, captured: tuple[int, int], score: tuple[int, int]) -> str:
    """Why the hand scores ``score`` (rules.md §1.7): made or set, bid or captured, defenders' take."""
    team = declarer & 1
    dec, dfn = team_name(team), team_name(1 - team)
    took = captured[team]
    if took >= bid:
        how = (_("a made bid scores exactly the bid") if rules.make_score == MAKE_BID
               else _("a made bid scores everything the declarers captured"))
        first = _("{team} bid {bid} and took {took}, so they made it; in {rules} {how}: {team} {score:+d}",
                  team=dec, bid=bid, took=took, rules=rules_title(rules), how=how, score=score[team])
    else:
        first = _("{team} bid {bid} but took only {took}, so they are set: they score minus the bid and nothing "
                  "else: {team} {score:+d}", team=dec, bid=bid, took=took, score=score[team])
    return _("{first}. The defenders {team} always score what they captured: {team} {score:+d}.", first=first,
             team=dfn, score=score[1 - team])


def score_hand(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "Score this hand" from the bid and each team's captured points (rules.md §1.6–§1.7).

    The hand is really played (random legal cards after a seeded deal) and scored by `HandState.score`.
    Answer: (N–S, E–W).
    """
    rules = _rules(rules)
    rng = _rng("score_hand", seed, rules)
    state, how = _hand_in_play(rules, rng)
    _random_playout(state, how["play_seed"])
    team = state.declarer & 1
    took = state.captured[team]
    step = rules.bid_step
    made_bids = [b for b in rules.legal_bids(None) if b <= took]
    set_bids = [b for b in rules.legal_bids(None) if b > took]
    want_made = rng.random() < 0.5
    pool = (made_bids if want_made else set_bids) or made_bids or set_bids
    # prefer bids near the take, as in real play
    near = [b for b in pool if abs(b - took) <= 6 * step] or pool
    amount = rng.choice(near)
    state = _rebuild(rules, how, amount)
    _random_playout(state, how["play_seed"])
    score = state.score()
    nest_pts = rules.points_of(state.nest)
    last = state.tricks[-1].winner
    words = dict(seat=seat_full_name(state.declarer), bid=amount, team=team_name(team), nest=nest_pts,
                 ns_team=team_name(0), ns=state.captured[0], ew_team=team_name(1), ew=state.captured[1])
    if rules.majority_bonus:
        prompt = _("{seat} won the auction with a bid of {bid}, so {team} are the declarers. After the last trick "
                   "(the nest's {nest} points and the {bonus}-point majority bonus included) {ns_team} captured {ns} "
                   "points and {ew_team} {ew}. What does each team score for this hand?", bonus=rules.majority_bonus,
                   **words)
    else:
        prompt = _("{seat} won the auction with a bid of {bid}, so {team} are the declarers. After the last trick "
                   "(the nest's {nest} points included) {ns_team} captured {ns} points and {ew_team} {ew}. What does "
                   "each team score for this hand?", **words)
    return Exercise("score_hand", seed, rules, prompt, score, frozenset([score]), bid=amount,
                    declarer=state.declarer, captured=tuple(state.captured), tricks_won=tuple(state.tricks_won),
                    nest_points=nest_pts, last_trick=last, facts={"made": state.made})


def _norm_score(ex: Exercise, answer: Any) -> tuple[int, int]:
    try:
        if isinstance(answer, str):  # "85" is not the pair ("8", "5")
            raise TypeError
        ns, ew = answer
    except (TypeError, ValueError):
        raise ExerciseError(_("{value} is not a score: give two numbers ({ns_team}, {ew_team})", value=repr(answer),
                              ns_team=team_name(0), ew_team=team_name(1))) from None
    return (parse_points(ns), parse_points(ew))


def _check_score(ex: Exercise, value: tuple[int, int] | None, ok: bool) -> str:
    reason = score_reason(ex.rules, ex.bid, ex.declarer, ex.captured, ex.answer)
    reason = reason[0].upper() + reason[1:]
    if ok or value is None:
        return reason
    return _("you wrote {ns_team} {ns:+d}, {ew_team} {ew:+d}. {reason}", ns_team=team_name(0), ns=value[0],
             ew_team=team_name(1), ew=value[1], reason=reason)


def _score_rule(ex: Exercise, value: tuple[int, int]) -> str:
    """The scoring rule (rules.md §1.7) behind each team's score in ``value`` (N–S, E–W) that is off; never the
    right scores."""
    r, team = ex.rules, ex.declarer & 1
    dec, dfn = team_name(team), team_name(1 - team)
    made = _("scores exactly its bid") if r.make_score == MAKE_BID else _("scores everything it captured")
    parts = []
    if value[team] != ex.answer[team]:
        parts.append(_("{team}'s score is off: compare what {team} captured with their bid. A declaring team that "
                       "takes at least its bid makes it and in {rules} {made}; one that takes less is set and scores "
                       "minus its bid, whatever it captured", team=dec, rules=rules_title(r), made=made))
    if value[1 - team] != ex.answer[1 - team]:
        parts.append(_("{team}'s score is off: the defenders always score the points they captured, whether the bid "
                       "is made or not", team=dfn))
    return ". ".join(parts) + "."


KIND = register(ExerciseKind("score_hand", score_hand, _norm_score, _check_score, _score_rule))
