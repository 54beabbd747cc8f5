"""One card's entry of the ``analyze`` report, valued exactly (`rookcore.analysis.annotate`'s module doc: ``best``,
``value``, ``loss``, ``mark``, ``best_cards``): shared by the unbudgeted analysis (`annotate.analyze_hand`) and the
budgeted one's exact phases (`budget`).
"""
from __future__ import annotations

from ..actions import PLAYS
from ..hand import SEATS
from .bounds import bid_question, two_outcome_apart
from .dd import Solver

__all__ = ["card_entry", "made_after"]


def made_after(solver: Solver, state, card) -> bool:
    """The bid question's answer (`bid_question`) after ``card`` is played from ``state`` (not changed)."""
    nxt = state.clone()
    nxt.apply(PLAYS[card])
    return bid_question(nxt, solver)


def card_entry(solver: Solver, rules, state, step: int, card, question_threshold: int, after=None, made=None):
    """The report entry of ``card`` played at ``step`` from ``state`` and the solver's result before it
    (``after``: the solver's result after ``card``, if known: `Solver.analyze`). ``made``: the bid question's
    answers (bool, bool) before and after the card, if known; else, under Partnership's tie rule
    (`two_outcome_apart`), they are searched (`bid_question`), elsewhere read off the exact outcomes."""
    seat = state.to_act
    team = seat & 1
    res, pair = solver.analyze(state, card, after)
    best = res.team_points(team)
    value = pair[team]
    bid = state.high_bid
    decl_team = state.declarer & 1
    if made is None and two_outcome_apart(rules):
        made = (bid_question(state, solver), made_after(solver, state, card))
    if made is not None:
        made_before, made_after = made
    else:
        made_before = (res.ew if decl_team else res.ns) >= bid
        made_after = pair[decl_team] >= bid
    turned = (made_before and not made_after) if team == decl_team else (not made_before and made_after)
    loss = best - value
    mark = "??" if turned else ("?" if loss >= question_threshold else "")
    entry = {"step": step, "trick": len(state.tricks) + 1, "seat": SEATS[seat], "card": rules.card_name(card),
             "best": best, "value": value, "loss": loss, "mark": mark,
             "best_cards": [rules.card_name(c) for c in res.best_cards]}
    return entry, res
