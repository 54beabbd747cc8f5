"""The strong AI's model of an auction's end and of a game's end (rules.md §1.2, §1.7, "Game end").

The strong AI (`rookcore.ai.sampling`) values each call it may make by playing the rest of the auction out in each
sampled deal: the other seats call as the rule-based AI does from their (sampled) hands (`rule_call`), and the AI
itself raises again only to a bid it makes often enough. The deal is then played out with whoever declares. Near the
end of a game the outcome is valued by the chance to win the game (`win_chance`) instead of the hand's margin.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from ..rules import Rules

BID_MARGIN = 5.0
"""Points below its hand's estimate the rule-based AI keeps as a safety margin (`RuleBasedPlayer.BID_MARGIN`)."""
PARTNER_HIGH_PENALTY = 15.0
"""Points more the rule-based AI asks of its hand to outbid a partner who holds the bid."""


def rule_call(rules: Rules, estimate: float, high: int | None, partner_bid: bool, partner_high: bool) -> int | None:
    """The call the rule-based AI makes (`rookcore.ai.rules_based.RuleBasedPlayer`, rules.md §1.2) with a hand
    estimated at ``estimate`` points (`hand_estimate`): the lowest legal bid if the estimate, less its safety
    margin (and 15 points more when its partner holds the bid; a partner's earlier bid adds a bid step), covers it.

    Args: rules: the rule set; estimate: points; high: the bid standing (None before the first bid); partner_bid:
    the partner has bid in this auction; partner_high: the partner holds the bid now. Returns the bid's amount in
    points, or None for a pass (also when no higher bid exists). Raises nothing.
    """
    low = rules.bid_min if high is None else high + rules.bid_step
    if low > rules.bid_max:
        return None
    if partner_bid and not partner_high:
        estimate += rules.bid_step
    limit = estimate - BID_MARGIN - (PARTNER_HIGH_PENALTY if partner_high else 0.0)
    return low if limit - low > -0.5 else None


def finish_auction(rules: Rules, to_act: int, high: int | None, holder: int | None, passed: Sequence[bool],
                   bidders: set[int], call: Callable[[int, int | None, int | None, set[int]], int | None]
                   ) -> tuple[int | None, int | None]:
    """Play an auction to its end (rules.md §1.2): seats call clockwise from ``to_act``, skipping seats that passed;
    ``call(seat, high, holder, bidders)`` gives each call (an amount or None for a pass). Ends when three seats
    have passed and a bid stands, at a bid of ``rules.bid_max``, or when all four passed.

    Args: to_act: the seat to call first (0..3); high, holder: the bid standing and its seat (None, None before the
    first bid); passed: four flags (not changed); bidders: the seats that have bid (not changed). Returns
    (declarer, bid) or (None, None) for a deal passed out. Raises ValueError if ``call`` returns an illegal bid.
    """
    passed = list(passed)
    bidders = set(bidders)
    seat = to_act
    while True:
        if sum(passed) == 4:
            return None, None
        if high is not None and (sum(passed) == 3 or high >= rules.bid_max):
            return holder, high
        if not passed[seat]:
            amount = call(seat, high, holder, bidders)
            if amount is None:
                passed[seat] = True
            else:
                if amount not in rules.legal_bids(high):
                    raise ValueError(f"illegal simulated bid {amount} over {high}")
                high, holder = amount, seat
                bidders.add(seat)
        seat = (seat + 1) % 4


def win_chance(rules: Rules, us: int, them: int) -> float:
    """The chance that a team with ``us`` points wins a game against ``them`` (rules.md "Game end"), both after a
    scored hand: 1 or 0 once a team is at or above the target with more points; otherwise a normal guess from the
    lead, whose spread is that of the hands still to come (about 0.75 × the points of a hand per hand, with the
    hands left guessed from how far the leader is from the target at half a hand's points a hand). Returns a
    float in [0, 1]. Raises nothing."""
    target, per = rules.target, rules.points_per_hand
    if max(us, them) >= target and us != them:
        return 1.0 if us > them else 0.0
    left = max(1.0, (target - max(us, them)) / (per / 2))
    spread = 0.75 * per * math.sqrt(left)
    return 0.5 * (1.0 + math.erf((us - them) / (spread * math.sqrt(2.0))))


def game_in_reach(rules: Rules, scores: Sequence[int] | None) -> bool:
    """Whether this hand may end the game (rules.md "Game end"): a running score is known and a team could reach
    the target with one hand's points. ``scores``: (N–S, E–W) before the hand, or None. Returns a bool."""
    return scores is not None and max(scores) + rules.points_per_hand >= rules.target
