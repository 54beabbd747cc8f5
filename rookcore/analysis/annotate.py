"""Double-dummy annotation of a recorded hand: the ``analyze`` command (one entry per card played).

For each card of the record, from the position before it (all hands known, see `rookcore.analysis.dd`):

* ``best``  — final captured points of the player's team with best play from before the card;
* ``value`` — the same after the card (best play thereafter);
* ``loss``  — ``best − value``;
* ``best_cards`` — the cards that achieve ``best`` (record notation);
* ``mark``  — ``"??"`` when the card turns the double-dummy outcome of the bid against the player's team (declaring
  team: made → set; defenders: set → made; "made" = the declaring team's final captured points ≥ the bid), else
  ``"?"`` when ``loss ≥ question_threshold``, else ``""``.

``step`` is the record's step number (`HandRecord.actions()` index), ``trick`` is 1-based. ``start`` is the
double-dummy result (NS, EW final captured points) from the first lead.

Best play maximises own − other final points (with a majority bonus the team totals are not constant). Hence, in
Partnership only (a 7–7 split pays no bonus, so the total is 100 or 120), ``loss`` measured in own points can in rare
positions be negative (a card worse by the difference can still raise the own total by paying the bonus); everywhere
else ``loss ≥ 0``.

Records without play (passed out, or stopped before trump) give ``"start": null`` and ``"cards": []``.
A game record gives ``{"variant": …, "hands": [one analysis per hand]}``.
"""
from __future__ import annotations

from typing import Any

from ..actions import Play
from ..hand import SEATS, Phase
from ..records import GameRecord, HandRecord
from .dd import Solver

__all__ = ["analyze_record", "analyze_hand"]


def analyze_record(record: HandRecord | GameRecord, question_threshold: int = 10,
                   solver: Solver | None = None, first_trick: int = 1) -> dict[str, Any]:
    """The ``analyze`` report of a hand record (or, for a game record, ``{"variant", "hands": [...]}``).

    ``first_trick`` > 1 skips the cards of earlier tricks (faster); ``start`` is then the double-dummy result
    before the first card analysed instead of from the first lead.
    """
    if isinstance(record, GameRecord):
        return {"variant": record.variant,
                "hands": [analyze_hand(h, question_threshold, solver, first_trick) for h in record.hands]}
    return analyze_hand(record, question_threshold, solver, first_trick)


def analyze_hand(record: HandRecord, question_threshold: int = 10, solver: Solver | None = None,
                 first_trick: int = 1) -> dict[str, Any]:
    """The ``analyze`` report of one hand record (see the module doc and `analyze_record`)."""
    solver = solver or Solver()
    rules = record.rules
    name = rules.card_name
    out: dict[str, Any] = {"variant": record.variant, "start": None, "cards": []}
    actions = record.actions()
    state = record.initial_state()
    replay = record.states()
    next(replay)
    cards: list[dict[str, Any]] = []
    for step, action in enumerate(actions):
        if type(action) is Play and state.phase is Phase.PLAY and len(state.tricks) + 1 >= first_trick:
            seat = state.to_act
            team = seat & 1
            card = action.card
            res, pair = solver.analyze(state, card)
            if out["start"] is None:
                out["start"] = {"NS": res.ns, "EW": res.ew}
            best = res.team_points(team)
            value = pair[team]
            bid = state.high_bid
            decl_team = state.declarer & 1
            made_before = (res.ew if decl_team else res.ns) >= bid
            made_after = pair[decl_team] >= bid
            turned = (made_before and not made_after) if team == decl_team else (not made_before and made_after)
            loss = best - value
            mark = "??" if turned else ("?" if loss >= question_threshold else "")
            cards.append({"step": step, "trick": len(state.tricks) + 1, "seat": SEATS[seat], "card": name(card),
                          "best": best, "value": value, "loss": loss, "mark": mark,
                          "best_cards": [name(c) for c in res.best_cards]})
        state = next(replay)
    out["cards"] = cards
    return out
