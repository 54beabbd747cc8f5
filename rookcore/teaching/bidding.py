"""The what_to_bid exercise: "How high would you bid with this hand?" for the first caller (rules.md §1.2 the
auction, §1.7 a set declarer scores minus the bid). Answer: a top bid or "pass"; every answer in the range the hand's
estimate allows (`bid_range`) counts, the rule-based AI's own bidding quoted.
"""
from __future__ import annotations

from typing import Any, Iterable

from .. import i18n
from ..actions import PASS, Bid, Pass, bid as make_bid
from ..cards import Card
from ..hand import HandState, Phase, seat_index
from ..i18n import _
from ..rules import MAKE_BID, Rules
from ..words import colour_name, rules_title
from .deals import _longest_colour, _rng, _rules
from .exercise import Exercise, ExerciseError, ExerciseKind, parse_card_answer, register
from .wording import _semi, seat_full_name


def estimate_hand(rules: Rules, hand: Iterable[Card]) -> tuple[int, str, int]:
    """Points a seat's team can expect to capture as declarers with ``hand``: (points, trump colour, trumps).

    Uses the rule-based AI's estimate (`rookcore.ai.rules_based.hand_estimate`) when available, else a
    simple count (counters held, long colour, nest help) scaled to the rule set's points per hand.
    """
    hand = list(hand)
    try:
        from ..ai.rules_based import hand_estimate  # noqa: PLC0415 - optional: the AI may be absent
        est, col, n_t = hand_estimate(rules, hand)
        return int(round(est)), col, n_t
    except ImportError:  # pragma: no cover - fallback when the AI package is missing
        col = _longest_colour(rules, hand)
        trumps = set(rules.trump_order(col))
        n_t = sum(1 for c in hand if c in trumps)
        share = min(0.9, 0.35 + 0.05 * n_t + 0.02 * rules.nest_size)
        return int(round(share * rules.points_per_hand)), col, n_t


def bid_spread(rules: Rules) -> int:
    """How far one deal's take typically strays from a hand's estimate (`estimate_hand`), in points: a sixth of the
    rule set's points per hand, to a whole bid step, at least one step (20 in CrowsNest).

    Measured in the rule-based AI's play: with one seat's hand kept and the other cards dealt at random, what its
    team takes as declarers spreads by about a sixth of the points per hand (a standard deviation of about 20 of
    CrowsNest's 120, 25-35 in the rule sets of 150-200 points). So an estimate is a rough guide: a poor deal takes
    about one spread less, a good one about one spread more.
    """
    step = rules.bid_step
    return max(step, int(round(rules.points_per_hand / 6 / step)) * step)


def bid_range(rules: Rules, estimate: int) -> tuple[bool, list[int]]:
    """Accepted answers for a hand ``estimate`` (points; `estimate_hand`): (pass accepted?, accepted top bids).

    A pass is sensible unless the hand is clearly strong: unless even a poor deal (the estimate less `bid_spread`)
    takes the lowest bid with a step to spare. A top bid is sensible up to the estimate, to the nearest step (bid
    what you expect to take, not more), and down to the lowest bid when a pass is sensible too, else down to what a
    poor deal takes (lower undersells a strong hand). At least one answer is always accepted.
    """
    step = rules.bid_step
    poor = estimate - bid_spread(rules)
    pass_ok = poor < rules.bid_min + step
    floor = rules.bid_min if pass_ok else poor
    bids = [b for b in rules.legal_bids(None) if floor <= b <= estimate + step / 2]
    if not bids and not pass_ok:
        bids = [rules.bid_max]
    return pass_ok, bids


BID_CATEGORIES: tuple[str, ...] = ("bid", "pass", "either")
"""How clear a what_to_bid hand is (`bid_category`): "bid" (a pass is wrong), "pass" (weak: the hand is not expected
to take the lowest bid with a step to spare), "either" (a pass and modest bids are both sensible)."""


def bid_category(rules: Rules, estimate: int) -> str:
    """The `BID_CATEGORIES` entry of a hand ``estimate`` (points; `estimate_hand`) under `bid_range`."""
    pass_ok, _bids = bid_range(rules, estimate)
    if not pass_ok:
        return "bid"
    return "pass" if estimate < rules.bid_min + rules.bid_step else "either"


def _ai_bidding(state: HandState, seat: int, seed: int) -> tuple[str, int | None, int | None]:
    """The rule-based AI in ``seat``, first to call in ``state`` (an auction not begun): (its explanation of its
    first call, its first bid, the highest bid it would make: after its first bid, the next seat bids each higher
    amount in turn and the other two pass, and the AI's answer to each is asked), the bids None if it passes at
    once; ("", None, None) without the AI (it is optional for the exercise)."""
    try:
        return _ask_ai(state, seat, seed)
    except Exception:  # noqa: BLE001 - the AI is optional for the exercise
        return "", None, None


def _ask_ai(state: HandState, seat: int, seed: int) -> tuple[str, int | None, int | None]:
    from ..ai import RuleBasedPlayer  # noqa: PLC0415 - optional

    rules = state.rules
    first = RuleBasedPlayer(seed).decide(state.observation(seat))
    if not isinstance(first.action, Bid):
        return first.explanation, None, None
    top = first.action.amount
    for outbid in rules.legal_bids(top):
        probe = state.clone()
        probe.apply(first.action, seat)
        probe.apply(make_bid(outbid), (seat + 1) % 4)  # an opponent outbids it
        while probe.phase is Phase.AUCTION and probe.to_act != seat:
            probe.apply(PASS)  # partner and the other opponent
        if probe.phase is not Phase.AUCTION:
            break  # the highest bid ends the auction (rules.md §1.2)
        answer = RuleBasedPlayer(seed).decide(probe.observation(seat)).action
        if not isinstance(answer, Bid):
            break
        top = answer.amount
    return first.explanation, first.action.amount, top


def what_to_bid(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "How high would you bid with this hand?" for the first caller (rules.md §1.2).

    Answer: a top bid or "pass"; every answer in `bid_range` of the hand estimate counts as right. The hand is a
    clear one where one turns up in the seeded deals tried (`bid_category` "bid" or "pass", six times in ten a
    hand to bid), else one where a pass and modest bids are both right (`what_to_bid_with` grades it).
    """
    rules = _rules(rules)
    rng = _rng("what_to_bid", seed, rules)
    want = "bid" if rng.random() < 0.6 else "pass"
    found: dict[str, HandState] = {}
    for _attempt in range(100):
        state = HandState.deal(rules, rng.randrange(4), rng.getrandbits(32))
        est, _col, _n_t = estimate_hand(rules, state.hands[state.to_act])
        found.setdefault(bid_category(rules, est), state)
        if want in found:
            break
    state = found.get(want) or found.get("either") or next(iter(found.values()))
    return _bid_exercise(rules, seed, state)


def what_to_bid_with(hand: Iterable[Any], rules: Rules | str | None = None, seat: str | int = "N",
                     seed: int = 0) -> Exercise:
    """The what_to_bid exercise for a given ``hand`` (Cards or text such as "R9", "Crow"), held by ``seat``, first to
    call; graded like `what_to_bid`'s (`bid_range`). Only that hand matters (the estimate and the AI see only it):
    the other seats get the rest of the deck in order. ``seed`` seeds the AI's tie-breaks. Raises ExerciseError if
    the hand is not ``rules.hand_size`` different cards of the deck or the seat is not one."""
    rules = _rules(rules)
    cards = [parse_card_answer(rules, c) for c in hand]
    try:
        first = seat_index(seat)
    except (ValueError, TypeError):
        raise ExerciseError(_("{value} is not a seat (N, E, S or W)", value=repr(seat))) from None
    held = set(cards)
    rest = [c for c in rules.deck if c not in held]
    size = rules.hand_size
    hands = [rest[i * size:(i + 1) * size] for i in range(3)]
    hands.insert(first, cards)
    try:
        state = HandState(rules, (first - 1) % 4, hands, rest[3 * size:])
    except ValueError as e:
        raise ExerciseError(_("not a hand of {rules}: {problem}", rules=rules_title(rules), problem=e)) from None
    return _bid_exercise(rules, seed, state)


def _bid_exercise(rules: Rules, seed: int, state: HandState) -> Exercise:
    """The what_to_bid exercise for the first caller of ``state`` (an auction not begun)."""
    seat = state.to_act
    hand = tuple(sorted(state.hands[seat]))
    est, col, n_t = estimate_hand(rules, hand)
    pass_ok, bids = bid_range(rules, est)
    category = bid_category(rules, est)
    ai_text, ai_open, ai_top = _ai_bidding(state, seat, seed)
    accepted = frozenset(bids + (["pass"] if pass_ok else []))
    if category == "pass" or not bids:
        answer: int | str = "pass" if pass_ok else bids[0]
    elif ai_top in bids:
        answer = ai_top
    else:
        answer = max([b for b in bids if b <= est] or bids[:1])
    prompt = _("You are {seat}, first to call in {rules} (bids from {low} to {high} in steps of {step}; {points} "
               "points in a hand). How high would you be willing to bid with this hand? Pick your top bid, or Pass.",
               seat=seat_full_name(seat), rules=rules_title(rules), low=rules.bid_min, high=rules.bid_max,
               step=rules.bid_step, points=rules.points_per_hand)
    choices = ("pass",) + tuple(rules.legal_bids(None))
    return Exercise("what_to_bid", seed, rules, prompt, answer, accepted, seat=seat, hand=hand, choices=choices,
                    facts={"estimate": est, "spread": bid_spread(rules), "trump": col, "trumps": n_t,
                           "category": category, "ai": ai_text, "ai_open": ai_open, "ai_top": ai_top,
                           "pass_ok": pass_ok, "bids": tuple(bids)})


def _norm_bid(ex: Exercise, answer: Any) -> int | str:
    if answer is None or answer is PASS or isinstance(answer, Pass):
        return "pass"
    if isinstance(answer, Bid):
        return answer.amount
    if isinstance(answer, str):
        t = answer.strip().lower()
        if t == "pass":
            return "pass"
        if t.startswith("bid "):
            t = t[4:]
        if t.isdigit():
            answer = int(t)
    if isinstance(answer, int) and not isinstance(answer, bool):
        if answer not in ex.rules.legal_bids(None):
            raise ExerciseError(_("{value} is not a bid in {rules} (bids go from {low} to {high} in steps of {step})",
                                  value=answer, rules=rules_title(ex.rules), low=ex.rules.bid_min,
                                  high=ex.rules.bid_max, step=ex.rules.bid_step))
        return answer
    raise ExerciseError(_("{value} is not a bid or pass", value=repr(answer)))


def _check_bid(ex: Exercise, value: int | str | None, ok: bool) -> str:
    r, f = ex.rules, ex.facts
    est, spread = f["estimate"], f["spread"]
    poor = est - spread
    bids, pass_ok = f["bids"], f["pass_ok"]
    lowest = _("the lowest bid of {bid}", bid=r.bid_min)
    worth = dict(points=est, colour=colour_name(f["trump"]), count=f["trumps"], spread=spread)
    text = (_("This hand is worth about {points} points to its team as declarers with {colour} as trump ({count} "
              "trumps, with the nest to help), give or take {spread} on how the other cards lie", **worth)
            if r.nest_size else
            _("This hand is worth about {points} points to its team as declarers with {colour} as trump ({count} "
              "trumps), give or take {spread} on how the other cards lie", **worth))
    top = ((_("a top bid of {low} to {high}", low=bids[0], high=bids[-1]) if len(bids) > 1 else
            _("a top bid of {low}", low=bids[0])) if bids else "")
    reach = (_("not reach {lowest}", lowest=lowest) if poor < r.bid_min else
             _("barely make {lowest}", lowest=lowest))
    if bids and pass_ok and f["category"] == "pass":
        text += _semi() + _("a pass is sensible, since on a poor deal (about {poor}) it would {reach}, and so is "
                            "{top}, no more than the hand is worth", poor=poor, reach=reach, top=top)
    elif bids and pass_ok:
        text += _semi() + _("{top} is sensible, and so is a pass: on a poor deal (about {poor}) it would {reach}",
                         top=top, poor=poor, reach=reach)
    elif bids:
        text += _semi() + _("{top} is sensible, and a pass gives too much away: even a poor deal (about {poor}) should "
                         "make {lowest}", top=top, poor=poor, lowest=lowest)
    else:
        text += _semi() + _("passing is sensible: even a good deal would hardly reach {lowest}", lowest=lowest)
    text += (". " + (_("Declarers who fall short are set and score minus the bid, and a made bid scores only the bid "
                       "in {rules}.", rules=rules_title(r)) if r.make_score == MAKE_BID else
                     _("Declarers who fall short are set and score minus the bid.")))
    if not ok and value is not None:
        if value == "pass":
            text = _("passing gives the contract away with a hand that should make the lowest bid even on a poor "
                     "deal.") + " " + text
        elif not bids or value > bids[-1]:
            text = _("{bid} is more than this hand is likely to take.", bid=value) + " " + text
        else:
            text = _("{bid} undersells this hand.", bid=value) + " " + text
    if f.get("ai"):
        seat = seat_full_name(ex.seat)
        quote = i18n.localize(f["ai"])  # the AI's sentence (a Message) in the learner's language
        if f.get("ai_open") is None:
            text += " " + _("The AI in {seat}'s seat passes: “{quote}”", seat=seat, quote=quote)
        elif f.get("ai_top") == f["ai_open"]:
            text += " " + _("The AI in {seat}'s seat opens with {bid} and would go no higher: “{quote}”", seat=seat,
                            bid=f["ai_open"], quote=quote)
        else:
            text += " " + _("The AI in {seat}'s seat opens with {bid} and would go on up to {top} if an opponent kept "
                            "outbidding it: “{quote}”", seat=seat, bid=f["ai_open"], top=f["ai_top"], quote=quote)
    return text


def _bid_rule(ex: Exercise, value: int | str) -> str:
    """What is wrong with the top bid ``value`` ("pass" or an amount) for this hand (rules.md §1.2 bidding, §1.7 a
    set declarer scores minus the bid): too high, too low, or a pass with a hand that should bid; never the hand's
    estimate or an accepted bid."""
    bids = ex.facts["bids"]
    if value == "pass":
        if ex.rules.nest_size:
            return _("A pass gives the contract away, and this hand is strong enough to bid: even if the other cards "
                     "lie badly it should make the lowest bid. Count its long colour (your trump), its high cards and "
                     "counters, and the nest's help; then bid what you expect to take.")
        return _("A pass gives the contract away, and this hand is strong enough to bid: even if the other cards lie "
                 "badly it should make the lowest bid. Count its long colour (your trump), its high cards and "
                 "counters; then bid what you expect to take.")
    if not bids or value > bids[-1]:
        return _("{bid} is more than this hand is likely to take: declarers who fall short are set and score minus "
                 "the bid, so bid no more than you expect to capture.", bid=value)
    return _("{bid} undersells this hand: with a strong hand, go on up to about what you expect to take, or the "
             "opponents may win the contract cheaply.", bid=value)


KIND = register(ExerciseKind("what_to_bid", what_to_bid, _norm_bid, _check_bid, _bid_rule))
