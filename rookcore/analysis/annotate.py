"""Double-dummy annotation of a recorded hand: the ``analyze`` command (one entry per card played).

For each card of the record, from the position before it (all hands known, see `rookcore.analysis.dd`):

* ``best``  — final captured points of the player's team with best play from before the card;
* ``value`` — the same after the card (best play thereafter);
* ``loss``  — ``best − value``;
* ``best_cards`` — the cards that achieve ``best`` (record notation);
* ``mark``  — ``"??"`` when the card turns the answer to the bid question against the player's team (declaring
  team: made → set; defenders: set → made), else ``"?"`` when ``loss ≥ question_threshold``, else ``""``. The bid
  question is the two-outcome game (`rookcore.analysis.bounds.bid_question`): can the declaring team reach its bid
  (its final captured points, nest and bonus included) against best defence, the declaring team maximising its own
  points and the defenders minimising them. Everywhere but Partnership the teams' points add up to a constant, so
  that is the outcome of ``best``'s play; under Partnership's tie rule (7–7 pays no bonus) it is searched apart.

``step`` is the record's step number (`HandRecord.actions()` index), ``trick`` is 1-based. ``start`` is the
double-dummy result (NS, EW final captured points) from the first lead.

Best play maximises own − other final points (with a majority bonus the team totals are not constant). Hence, in
Partnership only (a 7–7 split pays no bonus, so the total is 100 or 120), ``loss`` measured in own points can in rare
positions be negative (a card worse by the difference can still raise the own total by paying the bonus); everywhere
else ``loss ≥ 0``.

Records without play (passed out, or stopped before trump) give ``"start": null`` and ``"cards": []``. An
unfinished hand (the record stops before the last card) is analysed as far as it goes and its report adds
``"complete": false``, as the ``score`` command does.
A game record gives ``{"variant": …, "hands": [one analysis per hand]}``.
"""
from __future__ import annotations

from typing import Any, Callable

from ..actions import Play
from ..hand import Phase
from ..marks import check_threshold
from ..records import GameRecord, HandRecord
from .bounds import bid_question, two_outcome_apart
from .budget import analyze_hand_budget
from .dd import Solver
from .entry import card_entry, made_after

__all__ = ["analyze_record", "analyze_hand"]


def analyze_record(record: HandRecord | GameRecord, question_threshold: int = 10,
                   solver: Solver | None = None, first_trick: int = 1,
                   progress: Callable[[int, int, list[dict[str, Any]]], None] | None = None,
                   budget: float | None = None) -> dict[str, Any]:
    """The ``analyze`` report of a hand record (or, for a game record, ``{"variant", "hands": [...]}``).

    ``first_trick`` > 1 skips the cards of earlier tricks (faster); ``start`` is then the double-dummy result
    before the first card analysed instead of from the first lead. ``progress``: see `analyze_hand` (for a game
    record it is called per hand). ``budget``: wall-clock seconds per hand (None: every value exact, however long
    it takes; else `rookcore.analysis.budget.analyze_hand_budget`). Raises what ``progress`` raises (to stop
    early), and ValueError for a ``question_threshold`` below 1 point, a ``first_trick`` outside 1..tricks per hand
    or a budget that is not a positive number of seconds.
    """
    if isinstance(record, GameRecord):
        return {"variant": record.variant,
                "hands": [analyze_hand(h, question_threshold, solver, first_trick, progress, budget)
                          for h in record.hands]}
    return analyze_hand(record, question_threshold, solver, first_trick, progress, budget)


def analyze_hand(record: HandRecord, question_threshold: int = 10, solver: Solver | None = None,
                 first_trick: int = 1,
                 progress: Callable[[int, int, list[dict[str, Any]]], None] | None = None,
                 budget: float | None = None) -> dict[str, Any]:
    """The ``analyze`` report of one hand record (see the module doc and `analyze_record`).

    With a ``budget`` (wall-clock seconds, > 0) the analysis is `rookcore.analysis.budget.analyze_hand_budget`:
    proven marks and ranges first, exact values as time allows (its module doc: the fields it adds). Without
    one (None), every value is exact:

    The cards are analysed from the last one back to the first: late cards take milliseconds and early ones (in
    13/14-trick deals) can take minutes, and the solver's table, kept for the whole deal, holds the later
    positions when the earlier ones are searched. Going backwards, the value after each card is the best value of
    the position analysed just before, so the card played is not searched again (`Solver.analyze`'s ``after``):
    each other card then costs one null-window test unless it was better. After each card
    ``progress(done, total, cards)`` is called, if
    given, with the entries found so far (in step order); an exception it raises stops the analysis and
    propagates (that is how a caller cancels). The report lists the cards in step order.
    Raises ValueError for a bad ``question_threshold`` or a ``first_trick`` outside 1..hand_size or after the
    trick of the record's last card.
    """
    if budget is not None:
        return analyze_hand_budget(record, question_threshold, solver, first_trick, progress, budget)
    solver = solver or Solver()
    rules = record.rules
    check_threshold(question_threshold)
    if not 1 <= first_trick <= rules.hand_size:
        raise ValueError(f"the first trick must be a trick of the hand, 1 to {rules.hand_size}, not {first_trick}")
    # (step, state before the card, card) in step order; `states()` yields a fresh state before each step
    plays = [(step, state, action.card) for step, (action, state) in enumerate(zip(record.actions(), record.states()))
             if type(action) is Play and state.phase is Phase.PLAY]
    last_trick = len(plays[-1][1].tricks) + 1 if plays else rules.hand_size
    if first_trick > last_trick:
        raise ValueError(f"the record's cards stop in trick {last_trick}: the first trick must be 1 to {last_trick}, "
                         f"not {first_trick}")
    todo = [(step, state, card) for step, state, card in plays if len(state.tricks) + 1 >= first_trick]
    cards: list[dict[str, Any]] = []
    res = None
    made_next = None  # the two-outcome bid answer before the card analysed last (Partnership: `card_entry`)
    for done, (step, state, card) in enumerate(reversed(todo), 1):
        after = res if res is not None and step + 1 == cards[0]["step"] else None  # the position after this card
        made = None
        if two_outcome_apart(rules):
            made_then = made_next if after is not None else made_after(solver, state, card)
            made = (bid_question(state, solver), made_then)
            made_next = made[0]
        entry, res = card_entry(solver, rules, state, step, card, question_threshold, after, made)
        cards.insert(0, entry)
        if progress is not None:
            progress(done, len(todo), list(cards))
    start = None if res is None else {"NS": res.ns, "EW": res.ew}
    report = {"variant": record.variant, "start": start, "cards": cards}
    final = record.replay()
    if not final.is_over and not final.passed_out:
        report["complete"] = False  # as `score` says of an unfinished hand: the cards played so far
    return report
