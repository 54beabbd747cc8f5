"""Teaching exercises for the tutorial, generated and checked by the engine (rules.md §1–§3). No UI imports.

Every exercise comes from a seeded deal: ``make_exercise(kind, rules, seed)`` gives the same
exercise for the same (kind, rules, seed) and a fresh one for another seed. An `Exercise` holds
the position needed to draw it (seat, hand, trick so far, trump, bid, captured points ...) and the
set of accepted answers; ``exercise.check(answer)`` returns a `Feedback` whose message starts with
"Right:" or "Wrong:" and explains the rule behind the answer.

Kinds (``KINDS``):

=====================  ==================================================  ===============================
kind                   question                                            answer
=====================  ==================================================  ===============================
``which_cards_legal``  which cards may <seat> play on this trick?          a set of cards
``trick_winner``       who wins this trick?                                a seat ("N".."W" or 0..3)
``score_hand``         score this hand (bid, points each team captured)    (N–S, E–W) hand score
``what_to_bid``        how high would you bid with this hand?              a bid amount or "pass"
``count_points``       how many points of counters are in these cards?     an int (points)
=====================  ==================================================  ===============================

All truths come from the engine: `HandState.legal_cards`, `trick_tables`/`trick_winner`,
`HandState.score`, `Rules.card_points`, and (for bids) the rule-based AI's hand estimate.
Example helpers (`example_deal`, `example_trick`, `example_legal`, `example_hand`, `ai_walkthrough`) give the
live examples the lessons draw; each has its own seeded stream, so a worked example is not an exercise too.
`worked_trick` decides a given trick (rules.md §4's worked examples); `what_to_bid_with` grades a given hand.

Modules (one per exercise kind, the rest shared; import everything from ``rookcore.teaching``):

====================  ==========================================================================================
`exercise`            `Exercise`, `Feedback`, `ExerciseError`, reading answers (`parse_points`, `parse_card_answer`)
                      and the table of kinds (`ExerciseKind`, `register`)
`wording`             the shared wording: seats, colours and cards in a sentence, lists, counters in words
`deals`               seeded deals played to a position
`legal`               which_cards_legal (and `legal_reason`)
`tricks`              trick_winner (and `trick_reason`)
`scoring`             score_hand (and `score_reason`)
`bidding`             what_to_bid (and `estimate_hand`, `bid_range`, `what_to_bid_with`)
`counting`            count_points (and `count_reason`)
`examples`            the live examples the lessons draw
====================  ==========================================================================================

Names with a leading underscore (``_rules``, ``_name`` ...) are shared between the package's modules only. The
kinds' modules register themselves (`register`) when this package is imported, before any exercise is made.
"""
from __future__ import annotations

from ..hand import SEATS, TEAM_NAMES, HandState
from ..rules import Rules
from .bidding import BID_CATEGORIES, bid_category, bid_range, bid_spread, estimate_hand, what_to_bid, what_to_bid_with
from .counting import count_points, count_reason
from .deals import _rng  # noqa: F401 - the exercises' seeded streams, for tests that draw the same deals
from .examples import (DealExample, HandExample, LegalExample, TrickExample, ai_walkthrough, example_deal,
                       example_hand, example_legal, example_trick, worked_trick)
from .exercise import (COUNT_HINT, KINDS, POINTS_HINT, Exercise, ExerciseError, ExerciseKind, Feedback, exercise_kind,
                       parse_card_answer, parse_points, register)
from .legal import LEGAL_KINDS, legal_reason, which_cards_legal
from .scoring import score_hand, score_reason
from .tricks import TRICK_KINDS, trick_reason, trick_winner_exercise
from .wording import (BIRD, SEAT_NAMES, _names, and_list, bird_place_text, card_points_table,  # noqa: F401 - _names
                      colour_word, counters_text, seat_full_name, short_name)

__all__ = [
    # SEATS, TEAM_NAMES (the English names) and HandState: importable from here as before
    "SEATS", "TEAM_NAMES", "HandState",
    "KINDS", "GENERATORS", "make_exercise", "Exercise", "ExerciseError", "ExerciseKind", "Feedback", "exercise_kind",
    "register", "POINTS_HINT", "COUNT_HINT", "parse_points", "parse_card_answer",
    "SEAT_NAMES", "BIRD", "seat_full_name", "colour_word", "short_name", "and_list", "bird_place_text",
    "counters_text", "card_points_table",
    "which_cards_legal", "legal_reason", "LEGAL_KINDS",
    "trick_winner_exercise", "trick_reason", "TRICK_KINDS",
    "score_hand", "score_reason",
    "what_to_bid", "what_to_bid_with", "estimate_hand", "bid_spread", "bid_range", "bid_category", "BID_CATEGORIES",
    "count_points", "count_reason",
    "DealExample", "example_deal", "TrickExample", "example_trick", "worked_trick", "LegalExample", "example_legal",
    "HandExample", "example_hand", "ai_walkthrough",
]

GENERATORS = {kind: exercise_kind(kind).make for kind in KINDS}
"""Each kind's exercise maker, ``GENERATORS[kind](rules, seed)`` (`ExerciseKind.make`), in the order of `KINDS`."""


def make_exercise(kind: str, rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """The exercise of ``kind`` (one of `KINDS`) for ``rules`` (a Rules, a variant name, None = CrowsNest)
    from ``seed``: same arguments, same exercise. Raises ExerciseError for an unknown kind."""
    if kind not in GENERATORS:
        raise ExerciseError(f"unknown exercise kind {kind!r} (known: {', '.join(KINDS)})")
    return GENERATORS[kind](rules, seed)
