"""`RuleBasedPlayer`: a heuristic AI that sees only its seat's `Observation` (rules.md §1–§3).

Every choice is driven by the `Rules` value's fields (counters, rank order, bird place,
nest size, scoring), never by the rule set's name:

* Calls (§1.2): estimate the hand's worth in points (trump length and top trumps, side
  winners, voids, the expected nest), scaled to the rule set's points per hand; bid the
  lowest legal bid when it is within the estimate, do not overbid a partner without a
  clearly better hand, else pass.
* Discard (§1.3): keep the best trump colour, greedily put back the least useful cards
  (short side colours first to make voids, never the bird or Red 1 unless forced).
* Trump (§1.4): the colour with the best length + strength.
* Play (§1.5, §3): score every legal card by (chance our side takes the trick × the points in
  it) minus the future value of the card; track voids and cards seen from ``obs.tricks``.
"""
from __future__ import annotations

import random
from typing import Iterable

from ..actions import PASS, Bid, Discard, NameTrump
from ..cards import COLOURS, Card
from ..hand import Observation, TrickTables, trick_tables, trick_winner
from ..i18n import Message, lazy
from ..rules import BIRD_BELOW_RED_ONE, BIRD_BOTTOM, BIRD_TOP, MAKE_BID, RED_ONE, Rules
from ..words import card_word, colour_word, seat_word, team_word, title_word
from .base import Candidate, Decision, check_to_act, phase_kind

BIRD = Card.bird()



def call_score(margin: float) -> Message:
    """What the rule-based player's call scores mean, with its safety ``margin`` in points (a `Message`)."""
    return lazy.gettext("Score of a bid: by how many points the hand's estimated worth, less a {margin:g}-point "
                        "safety margin (and 15 points more when its partner holds the bid), is above the bid; Pass "
                        "scores −0.5, so the AI bids only when its estimate covers the bid.", margin=margin)


# What the rule-based player's discard, trump and card scores mean (`Message` values, made once, said when shown)
DISCARD_SCORE = lazy.gettext("Score: the strength of the cards it keeps with that colour as trump: the tricks it "
                             "expects to take, plus 0.1 for each trump.")
TRUMP_SCORE = lazy.gettext("Score: the strength of the hand with that colour as trump: the tricks it expects to take, "
                           "plus 0.1 for each trump.")
PLAY_SCORE = lazy.gettext("Score: the points the card is expected to win for its side on this trick (the chance of "
                          "taking the trick, less the chance of losing it, times the points at stake), less the "
                          "points it is worth kept for a later trick.")


# --------------------------------------------------------------------------- rule-set facts
def bird_fact(rules: Rules) -> Message:
    """Plain words for where the bird ranks (rules.md §2 "bird", §3), e.g. "the Crow is the lowest trump in
    CrowsNest" (a `rookcore.i18n.Message`, a clause to follow a reason)."""
    title = title_word(rules)
    if not rules.bird:
        return lazy.gettext("there is no bird in {title}", title=title)
    bird = card_word(rules, BIRD)
    if rules.bird_place == BIRD_BOTTOM:
        return lazy.gettext("the {bird} is the lowest trump in {title}", bird=bird, title=title)
    if rules.bird_place == BIRD_TOP:
        return lazy.gettext("the {bird} is the highest trump in {title}", bird=bird, title=title)
    return lazy.gettext("the {bird} is the second trump, under the Red 1 in {title}", bird=bird, title=title)


def counter_fact(rules: Rules, card: Card) -> Message | str:
    """Plain words for a counter's value (rules.md §2 "counters"), e.g. "the 1s are worth 15 here"; "" for
    non-counters. Returns a `rookcore.i18n.Message` (or "")."""
    pts = rules.card_points.get(card, 0)
    if not pts:
        return ""
    if card == BIRD:
        return lazy.ngettext("the {bird} is worth {points} point", "the {bird} is worth {points} points", pts,
                             bird=card_word(rules, BIRD), points=pts)
    if rules.red_one and card == RED_ONE:
        return lazy.ngettext("the Red 1 is worth {points} point", "the Red 1 is worth {points} points", pts,
                             points=pts)
    # TRANSLATORS: {number} is a card number (5, 10, 14, 1): "the 10s are worth 10 here"
    return lazy.gettext("the {number}s are worth {points} here", number=card.number, points=pts)


def scoring_fact(rules: Rules) -> Message:
    """Plain words for what a made bid scores (rules.md §1.7, §2 "declarer made scores"), a `Message`."""
    if rules.make_score == MAKE_BID:
        return lazy.gettext("a made bid scores only the bid in {title}", title=title_word(rules))
    return lazy.gettext("a made bid scores everything captured in {title}", title=title_word(rules))


def nest_fact(rules: Rules) -> Message:
    """Plain words about the nest (rules.md §1.3, §1.6), e.g. "no nest in Partnership Rook", a `Message`."""
    if not rules.nest_size:
        return lazy.gettext("there is no nest in {title}", title=title_word(rules))
    n = rules.nest_size
    return lazy.ngettext("the {count}-card nest goes to whoever takes the last trick",
                         "the {count}-card nest goes to whoever takes the last trick", n, count=n)


def call_fact(rules: Rules) -> Message:
    """The rule-set fact most relevant to bidding (rules.md §1.3, §1.7): no nest, bid-only scoring, or the nest."""
    if not rules.nest_size:
        return nest_fact(rules)
    if rules.make_score == MAKE_BID:
        return scoring_fact(rules)
    return nest_fact(rules)


def _trumps(n: int, colour: str | Message = "") -> Message:
    """``"1 trump"``, ``"3 trumps"``, ``"5 Green trumps"`` (``colour``: a colour's name, or ""), a `Message`."""
    if colour:
        # TRANSLATORS: "5 Green trumps": {colour} is a colour's name
        return lazy.ngettext("{count} {colour} trump", "{count} {colour} trumps", n, count=n, colour=colour)
    return lazy.ngettext("{count} trump", "{count} trumps", n, count=n)


def _sentence(reason: Message, fact: Message | str = "") -> Message:
    """A reason clause made a sentence, with a rule-set fact (a clause) after it when there is one."""
    if fact:
        # TRANSLATORS: {reason} and {fact} are whole clauses of the AI's reasoning, each translated on its own
        return lazy.gettext("{reason}; {fact}.", reason=reason, fact=fact)
    # TRANSLATORS: a reason clause of the AI made a sentence
    return lazy.gettext("{reason}.", reason=reason)


def _card_list(rules: Rules, cards: Iterable[Card]) -> tuple:
    """The cards by name in id order, as a `Message` parameter (a tuple: said joined by spaces, "R5 R6 Crow")."""
    return tuple(card_word(rules, c) for c in sorted(cards))


def _held_trumps(rules: Rules, cards: Iterable[Card], colour: str) -> frozenset[Card]:
    """The cards of ``cards`` that are trump when ``colour`` is named (rules.md §1.4, §3: the bird and the Red 1
    too): what a sentence counting "5 Green trumps" tells of. Returns a frozenset of Cards."""
    trumps = set(rules.trump_order(colour))
    return frozenset(c for c in cards if c in trumps)


# --------------------------------------------------------------------------- hand evaluation
def trump_plan(rules: Rules, cards: Iterable[Card], colour: str) -> tuple[float, int]:
    """Estimate the tricks ``cards`` would take with ``colour`` as trump (rules.md §1.4, §1.5).

    Counts top trumps (1 trick), middle trumps (0.75), low trumps (0.45), extra length, side
    top cards (the highest of a colour ~0.85, the second ~0.45 when guarded), and voids /
    singletons that let a long trump hand ruff. Returns (tricks as a float, number of trumps held).
    """
    order = rules.trump_order(colour)
    pos = {c: i for i, c in enumerate(order)}
    held = [c for c in cards]
    trumps = sorted(pos[c] for c in held if c in pos)
    n_t = len(trumps)
    tricks = 0.0
    for rank_i, p in enumerate(trumps):
        # a trump is "top" if few unseen trumps rank above it
        above_missing = p - rank_i
        tricks += 1.0 if above_missing == 0 else 0.75 if above_missing <= 2 else 0.45
    tricks += 0.3 * max(0, n_t - 4)
    top = rules.order
    for col in COLOURS:
        if col == colour:
            continue
        nums = sorted((top.index(c.number) for c in held if c not in pos and c.colour == col))
        if not nums:
            tricks += 0.45 if n_t >= 4 else 0.0
            continue
        if len(nums) == 1 and n_t >= 4:
            tricks += 0.2
        # top sequence of the colour
        seq = 0
        for i, r in enumerate(nums):
            if r == i:
                seq += 1
            else:
                break
        tricks += 0.85 * min(seq, 2) + 0.3 * max(0, seq - 2)
        if seq == 0 and nums[0] == 1 and len(nums) >= 2:
            tricks += 0.45
    return min(float(rules.hand_size), tricks), n_t


def best_trump(rules: Rules, cards: Iterable[Card]) -> list[tuple[float, str, int]]:
    """Every colour scored as trump for ``cards``: [(strength, colour, trumps held)], best first (rules.md §1.4).

    strength = `trump_plan` tricks + 0.1 × trumps held; ties broken by colour order R Y G B.
    """
    cards = list(cards)
    out = []
    for col in COLOURS:
        tricks, n_t = trump_plan(rules, cards, col)
        out.append((tricks + 0.1 * n_t, col, n_t))
    out.sort(key=lambda x: (-x[0], COLOURS.index(x[1])))
    return out


def hand_estimate(rules: Rules, cards: Iterable[Card]) -> tuple[float, str, int]:
    """Estimate the points (rules.md §1.6) the team of a seat holding ``cards`` would capture as declarers.

    Uses the best trump colour's trick estimate plus the nest's expected help, assumes the partner
    takes a third of the remaining tricks, and scales to ``rules.points_per_hand``.
    Returns (points, best trump colour, trumps held in it).
    """
    cards = list(cards)
    strength, col, n_t = best_trump(rules, cards)[0]
    tricks, _ = trump_plan(rules, cards, col)
    h = rules.hand_size
    if rules.nest_size:
        tricks += 0.22 * rules.nest_size  # the declarer improves the hand from the nest
    tricks = min(float(h), tricks)
    team_share = (tricks + (h - tricks) / 3.0) / h
    counters = rules.counter_total
    # calibrated on self-play: declarers capture ~7% of the hand's points more than the share model says
    est = team_share * counters + 0.07 * rules.points_per_hand
    if rules.majority_bonus and team_share > 0.5:
        est += rules.majority_bonus * min(1.0, (team_share - 0.5) * 4)
    return est, col, n_t


# --------------------------------------------------------------------------- the player
class RuleBasedPlayer:
    """Heuristic AI (rules.md §1–§3) that adapts to the `Rules` fields and sees only an `Observation`.

    Args: seed: seeds the generator that breaks exact ties among the best candidates (None = 0).
    Deterministic for a given seed and sequence of observations.
    """

    #: points below the estimate the player keeps as a safety margin when bidding
    BID_MARGIN = 5.0

    def __init__(self, seed: int | None = None) -> None:
        """Create the player; ``seed`` (int or None) seeds its tie-break generator."""
        self.seed = seed
        self.rng = random.Random(0 if seed is None else seed)

    # ---------------------------------------------------------------- entry point
    def decide(self, obs: Observation) -> Decision:
        """Choose a legal action for the observer (rules.md §1.2 calls, §1.3 discard, §1.4 trump, §1.5 play).

        Args: obs: the acting seat's `Observation` (``obs.to_act == obs.seat``). Returns a `Decision`
        with every candidate scored, best first. Raises ValueError if the observer is not to act or the
        hand is over.
        """
        check_to_act(obs)
        kind = phase_kind(obs)
        if kind == "call":
            return self._call(obs)
        if kind == "discard":
            return self._discard(obs)
        if kind == "trump":
            return self._trump(obs)
        return self._play(obs)

    def _pick(self, cands: list[Candidate], key_id) -> list[Candidate]:
        """Sort best first; exact ties among the best are broken by the seeded generator."""
        cands.sort(key=lambda c: (-c.score, key_id(c.action)))
        best = [c for c in cands if c.score == cands[0].score]
        if len(best) > 1:
            chosen = best[self.rng.randrange(len(best))]
            cands.remove(chosen)
            cands.insert(0, chosen)
        return cands

    # ---------------------------------------------------------------- calls (§1.2)
    def _call(self, obs: Observation) -> Decision:
        rules, seat = obs.rules, obs.seat
        who = seat_word(seat)
        partner = (seat + 2) % 4
        est, col, n_t = hand_estimate(rules, obs.hand)
        partner_bid = any(s == partner and type(a) is Bid for s, a in obs.calls)
        high_owner = next((s for s, a in reversed(obs.calls) if type(a) is Bid), None)
        if partner_bid and high_owner != partner:
            est += rules.bid_step  # partner showed strength; support the team's contract
        limit = est - self.BID_MARGIN
        partner_high = high_owner == partner
        penalty = 15.0 if partner_high else 0.0
        est_i = int(round(est))
        worth = lazy.ngettext("hand worth about {points} point", "hand worth about {points} points", est_i,
                              points=est_i)
        cands = [Candidate(PASS, -0.5, worth)]
        for a in obs.legal:
            if type(a) is Bid:
                cands.append(Candidate(a, round(limit - a.amount - penalty, 3), worth))
        cands = self._pick(cands, lambda a: a.amount if type(a) is Bid else 0)
        action = cands[0].action
        colour = colour_word(col)
        secret, public = frozenset(), ""
        if type(action) is Bid:
            fact = call_fact(rules)
            why = lazy.ngettext(
                "{seat}'s hand is worth about {points} point with {colour} as trump ({trumps}), so {seat} bids "
                "{amount}; {fact}.",
                "{seat}'s hand is worth about {points} points with {colour} as trump ({trumps}), so {seat} bids "
                "{amount}; {fact}.", est_i,
                seat=who, points=est_i, colour=colour, trumps=_trumps(n_t), amount=action.amount, fact=fact)
            secret = _held_trumps(rules, obs.hand, col)  # the sentence counts them
            public = lazy.ngettext("{seat}'s hand is worth about {points} point, so {seat} bids {amount}; {fact}.",
                                   "{seat}'s hand is worth about {points} points, so {seat} bids {amount}; {fact}.",
                                   est_i, seat=who, points=est_i, amount=action.amount, fact=fact)
        else:
            lowest = min((a.amount for a in obs.legal if type(a) is Bid), default=None)
            if partner_high and lowest is not None and limit >= lowest:
                why = lazy.ngettext(
                    "{seat}'s partner {partner} already holds the bid at {bid} and {seat}'s hand (about {points} "
                    "point) is not clearly better, so {seat} passes.",
                    "{seat}'s partner {partner} already holds the bid at {bid} and {seat}'s hand (about {points} "
                    "points) is not clearly better, so {seat} passes.", est_i,
                    seat=who, partner=seat_word(partner), bid=obs.high_bid, points=est_i)
            elif lowest is None:
                why = lazy.gettext("No higher bid exists in {title}, so {seat} passes.", title=title_word(rules),
                                   seat=who)
            else:
                why = lazy.ngettext(
                    "{seat}'s hand is worth about {points} point, not enough to bid {amount} safely, so {seat} "
                    "passes; {fact}.",
                    "{seat}'s hand is worth about {points} points, not enough to bid {amount} safely, so {seat} "
                    "passes; {fact}.", est_i, seat=who, points=est_i, amount=lowest, fact=call_fact(rules))
        return Decision(action, tuple(cands), why, seat, "call", secret, public, call_score(self.BID_MARGIN))

    # ---------------------------------------------------------------- discard (§1.3)
    def _discard(self, obs: Observation) -> Decision:
        rules, seat = obs.rules, obs.seat
        who = seat_word(seat)
        hand = sorted(obs.hand)
        cands: list[Candidate] = []
        plans = {}
        for strength, col, _ in best_trump(rules, hand):
            buried = greedy_discard(rules, hand, col)
            kept = [c for c in hand if c not in buried]
            score = best_trump_score(rules, kept, col)
            plans[col] = buried
            pts = rules.points_of(buried)
            cands.append(Candidate(Discard(buried), round(score, 3),
                                   lazy.ngettext("keep {colour} as trump, bury {points} point",
                                                 "keep {colour} as trump, bury {points} points", pts,
                                                 colour=colour_word(col), points=pts)))
        # de-duplicate identical discards (keep the best score)
        seen, unique = set(), []
        for c in sorted(cands, key=lambda c: -c.score):
            if c.action.cards not in seen:
                seen.add(c.action.cards)
                unique.append(c)
        unique = self._pick(unique, lambda a: tuple(sorted(a.cards)))
        action = unique[0].action
        col = next(k for k, v in plans.items() if frozenset(v) == action.cards)
        kept = [c for c in hand if c not in action.cards]
        n_t = sum(1 for c in kept if c in set(rules.trump_order(col)))
        pts = rules.points_of(action.cards)
        voids = [colour_word(x) for x in COLOURS if x != col
                 and not any(c.colour == x and not rules.is_trump_card(c) for c in kept)
                 and any(c.colour == x and not rules.is_trump_card(c) for c in hand)]
        parts = dict(seat=who, cards=_card_list(rules, action.cards), trumps=_trumps(n_t, colour_word(col)),
                     voids=voids, points=pts)
        if voids and pts:
            why = lazy.ngettext(
                "{seat} puts back {cards} to keep {trumps} and void {voids}, burying {points} point of counters "
                "because {fact}.",
                "{seat} puts back {cards} to keep {trumps} and void {voids}, burying {points} points of counters "
                "because {fact}.", pts, fact=nest_fact(rules), **parts)
        elif pts:
            why = lazy.ngettext(
                "{seat} puts back {cards} to keep {trumps}, burying {points} point of counters because {fact}.",
                "{seat} puts back {cards} to keep {trumps}, burying {points} points of counters because {fact}.",
                pts, fact=nest_fact(rules), **parts)
        elif voids:
            why = lazy.gettext("{seat} puts back {cards} to keep {trumps} and void {voids}, burying no counters.",
                               **parts)
        else:
            why = lazy.gettext("{seat} puts back {cards} to keep {trumps}, burying no counters.", **parts)
        n = len(action.cards)
        public = lazy.ngettext("{seat} buries {count} card and keeps its trumps; the cards are shown when the hand "
                               "is over.",
                               "{seat} buries {count} cards and keeps its trumps; the cards are shown when the hand "
                               "is over.", n, seat=who, count=n)
        return Decision(action, tuple(unique), why, seat, "discard", frozenset(kept), public, DISCARD_SCORE)

    # ---------------------------------------------------------------- trump (§1.4)
    def _trump(self, obs: Observation) -> Decision:
        rules, seat = obs.rules, obs.seat
        who = seat_word(seat)
        ranked = best_trump(rules, obs.hand)
        hand = frozenset(obs.hand)  # the counts of every colour ("0 trumps" too) tell the hand's shape
        cands = [Candidate(NameTrump(col), round(s, 3),
                           lazy.gettext("{trumps}, strength {strength:.1f}", trumps=_trumps(n), strength=s), hand,
                           lazy.gettext("strength {strength:.1f}", strength=s))
                 for s, col, n in ranked]
        cands = self._pick(cands, lambda a: COLOURS.index(a.colour))
        action = cands[0].action
        col = action.colour
        order = rules.trump_order(col)
        held = [c for c in order if c in obs.hand]
        tops = [card_word(rules, c) for c in held[:2]]
        special = [c for c in held if rules.is_trump_card(c)]
        fact = bird_fact(rules) if BIRD in special else (
            lazy.gettext("the Red 1 is always the top trump") if special else "")
        parts = dict(seat=who, colour=colour_word(col), trumps=_trumps(len(held)))
        if len(tops) == 2:
            reason = lazy.gettext("{seat} names {colour} trump, its strongest colour with {trumps} led by {first} "
                                  "and {second}", first=tops[0], second=tops[1], **parts)
        elif tops:
            reason = lazy.gettext("{seat} names {colour} trump, its strongest colour with {trumps} led by {first}",
                                  first=tops[0], **parts)
        else:
            reason = lazy.gettext("{seat} names {colour} trump, its strongest colour with {trumps}", **parts)
        why = _sentence(reason, fact)
        public = lazy.gettext("{seat} names {colour} trump, its strongest colour.", seat=who,
                              colour=colour_word(col))
        return Decision(action, tuple(cands), why, seat, "trump", frozenset(held), public, TRUMP_SCORE)

    # ---------------------------------------------------------------- play (§1.5, §3)
    def _play(self, obs: Observation) -> Decision:
        ctx = _PlayContext(obs)
        legal = [a for a in obs.legal]
        cands = []
        info = {}
        for a in legal:
            score, note, detail = ctx.score(a.card)
            info[a.card] = detail
            cands.append(Candidate(a, round(score, 4), note))
        cands = self._pick(cands, lambda a: int(a.card))
        action = cands[0].action
        why = ctx.explain(action.card, info[action.card], len(legal))
        return Decision(action, tuple(cands), why, obs.seat, "play", score_meaning=PLAY_SCORE)


def best_trump_score(rules: Rules, cards: list[Card], colour: str) -> float:
    """Strength of ``cards`` with ``colour`` as trump: `trump_plan` tricks + 0.1 × trumps held (rules.md §1.4)."""
    tricks, n_t = trump_plan(rules, cards, colour)
    return tricks + 0.1 * n_t


def greedy_discard(rules: Rules, hand: list[Card], colour: str, kept: frozenset = frozenset(),
                   buried: tuple = ()) -> list[Card]:
    """Choose ``rules.nest_size`` cards of ``hand`` to put back with ``colour`` planned as trump (rules.md §1.3).

    Greedy, one card at a time: the lowest "keep value" goes first. Trumps are kept (the bird and the
    Red 1 most of all); side top sequences are kept; short side colours go first (to make voids);
    counters are kept unless they are unprotected and the hand is trump-strong enough to expect the last
    trick (the nest's counters go to the last trick's winner, §1.6). Returns the cards (a list).

    ``kept`` (Cards of ``hand``) are never put back and ``buried`` (Cards of ``hand``, at most ``nest_size``)
    always are, first: the sampler's model of a declarer whose discard is hidden
    (`rookcore.ai.worlds.model_discard`: cards it played were kept, cards of colours it showed void in were
    buried). Raises ValueError if fewer than ``nest_size`` cards can be put back.
    """
    out: list[Card] = list(buried)
    gone = set(out)
    left = [c for c in hand if c not in gone]
    if len(out) > rules.nest_size or len([c for c in left if c not in kept]) < rules.nest_size - len(out):
        raise ValueError(f"cannot put back {rules.nest_size} cards keeping {len(kept)} and burying {len(out)}")
    trumps = set(rules.trump_order(colour))
    n_t = sum(1 for c in left if c in trumps)
    strong = n_t >= max(4, rules.hand_size // 2 - 1)
    n_rank = len(rules.order)
    rank = {n: i for i, n in enumerate(rules.order)}  # 0 = highest number in a colour
    pts_of = rules.card_points
    for _ in range(rules.nest_size - len(out)):
        lengths = {x: 0 for x in COLOURS}
        side_ranks: dict[str, list[int]] = {x: [] for x in COLOURS}
        for c in left:
            if c not in trumps:
                lengths[c.colour] += 1
                side_ranks[c.colour].append(rank[c.number])
        best, best_key = None, None
        for c in left:
            if c in kept:
                continue
            pts = pts_of[c]
            if rules.is_trump_card(c):
                keep = 1000.0 + pts
            elif c in trumps:
                keep = 100.0 + (n_rank - rank[c.number])
            else:
                r = rank[c.number]
                higher_held = sum(1 for x in side_ranks[c.colour] if x < r)
                if higher_held == r:  # top sequence: a winner
                    keep = 50.0 + (n_rank - r)
                else:
                    keep = (n_rank - r) * 0.5 + lengths[c.colour] * 2.0
                    keep += -0.5 * pts if strong else 0.4 * pts
            key = (keep, int(c))
            if best_key is None or key < best_key:
                best, best_key = c, key
        out.append(best)
        left.remove(best)
    return out


class _PlayContext:
    """What a seat knows during play (rules.md §1.5): unseen cards, known voids, the trick so far."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        rules = self.rules = obs.rules
        self.seat = obs.seat
        self.partner = (obs.seat + 2) % 4
        self.tables: TrickTables = trick_tables(rules, obs.trump)
        t = self.tables
        self.pts = rules.card_points
        seen = set(obs.trick)
        self.void = [set() for _ in range(4)]
        for tr in obs.tricks:
            seen.update(tr.cards)
            self._note_voids(tr.leader, tr.cards)
        if obs.trick:
            self._note_voids(obs.trick_leader, obs.trick)
        known = seen | set(obs.hand) | set(obs.discard or ())
        self.unknown = [c for c in rules.deck if c not in known]
        self.n_unknown = max(1, len(self.unknown))
        self.hand = sorted(obs.hand)
        self.avg_trick = rules.counter_total / rules.hand_size
        self.avg_card = rules.counter_total / len(rules.deck)
        self.n_order = len(rules.trump_order(obs.trump))
        self.n_rank = len(rules.order)
        self.declarer_team = obs.declarer is not None and (obs.declarer & 1) == (obs.seat & 1)
        self.unknown_trumps = [c for c in self.unknown if t.suit[c] == t.trump]
        self.last_trick = len(obs.tricks) == rules.hand_size - 1
        # bonus for taking a trick: share of the majority bonus, and the nest on the last trick
        bonus = rules.majority_bonus * 1.5 / rules.hand_size
        if self.last_trick and rules.nest_size:
            bonus += (sum(self.pts[c] for c in obs.discard) if obs.discard is not None
                      else rules.nest_size * self.avg_card)
        self.trick_bonus = bonus
        # draw trump: declarer side with trump length or the top outstanding trump
        my_trumps = [c for c in self.hand if t.suit[c] == t.trump]
        top_unknown = max((t.trump_power[c] for c in self.unknown_trumps), default=0)
        opp_could_have = any(t.trump not in self.void[s] for s in ((self.seat + 1) % 4, (self.seat + 3) % 4))
        self.draw_mode = (self.declarer_team and bool(self.unknown_trumps) and opp_could_have and
                          (len(my_trumps) >= 3 or (len(my_trumps) >= 2 and
                                                   max(t.trump_power[c] for c in my_trumps) > top_unknown)))

    def _note_voids(self, leader: int, cards) -> None:
        t, rules = self.tables, self.rules
        led = t.suit[cards[0]]
        for i in range(1, len(cards)):
            c = cards[i]
            if t.suit[c] != led and not rules.has_privilege(c):
                self.void[(leader + i) % 4].add(led)

    # -- probabilities
    def _p_holds(self, s: int, card: Card) -> float:
        if self.tables.suit[card] in self.void[s]:
            return 0.0
        return self.obs.hand_sizes[s] / self.n_unknown

    def _p_void(self, s: int, suit: int) -> float:
        if suit in self.void[s]:
            return 1.0
        m = sum(1 for c in self.unknown if self.tables.suit[c] == suit)
        return (1.0 - self.obs.hand_sizes[s] / self.n_unknown) ** m

    def _q_beat(self, s: int, win: Card, led: int) -> float:
        """Chance seat ``s`` holds and may play a card beating ``win`` (led suit ``led``)."""
        t = self.tables
        tp, rp, suit = t.trump_power, t.rank_power, t.suit
        if self.obs.hand_sizes[s] == 0:
            return 0.0
        p_void = None
        miss = 1.0
        for x in self.unknown:
            if tp[win]:
                beats = tp[x] > tp[win]
            else:
                beats = tp[x] > 0 or (suit[x] == led and rp[x] > rp[win])
            if not beats:
                continue
            ph = self._p_holds(s, x)
            if not ph:
                continue
            if suit[x] != led and not self.rules.has_privilege(x):
                if p_void is None:
                    p_void = self._p_void(s, led)
                ph *= p_void
            miss *= (1.0 - min(1.0, ph))
        return 1.0 - miss

    def p_us(self, card: Card) -> tuple[float, Card, bool]:
        """Chance our team takes the trick if we play ``card``; also the winning card now and whether it is ours."""
        obs, t = self.obs, self.tables
        cards = list(obs.trick) + [card]
        leader = obs.trick_leader if obs.trick else self.seat
        w = trick_winner(t, cards)
        win_card = cards[w]
        win_seat = (leader + w) % 4
        ours = (win_seat & 1) == (self.seat & 1)
        p = 1.0 if ours else 0.0
        led = t.suit[cards[0]]
        for k in range(len(cards), 4):
            s = (leader + k) % 4
            q = self._q_beat(s, win_card, led)
            if (s & 1) == (self.seat & 1):
                p = p + (1.0 - p) * q * 0.8
            else:
                p = p * (1.0 - q)
        return p, win_card, win_seat == self.seat

    # -- card values
    def keep_value(self, card: Card, leading: bool) -> float:
        """Future value (points) of holding ``card`` instead of playing it now."""
        t, avg = self.tables, self.avg_trick
        if t.suit[card] == t.trump:
            boss = all(t.trump_power[x] < t.trump_power[card] for x in self.unknown_trumps)
            v = 0.35 * avg + 0.3 * avg * t.trump_power[card] / self.n_order
            if boss:
                v += 0.3 * avg
            if leading and self.draw_mode:
                v -= 0.5 * avg
            return v
        higher = sum(1 for x in self.unknown if t.suit[x] == t.suit[card] and t.trump_power[x] == 0
                     and t.rank_power[x] > t.rank_power[card])
        rank = t.rank_power[card] / self.n_rank
        if higher == 0:
            return (0.1 if leading else 0.5) * avg
        return 0.15 * avg * rank

    def score(self, card: Card) -> tuple[float, str, dict]:
        """Score of playing ``card`` (points, higher = better): (2·P(we take it) − 1) × trick value − keep value."""
        obs = self.obs
        leading = not obs.trick
        p, win_card, mine = self.p_us(card)
        remaining = 3 - len(obs.trick)
        trick_pts = sum(self.pts[c] for c in obs.trick) + self.pts[card]
        value = trick_pts + remaining * self.avg_card * 0.6 + self.trick_bonus
        keep = self.keep_value(card, leading)
        s = (2.0 * p - 1.0) * value - keep
        note = lazy.gettext("{team} take the trick {chance:.0%} of the time, trick worth ≈{value:.0f} points, worth "
                            "{keep:.1f} points if kept for later", team=team_word(self.seat & 1), chance=p,
                            value=value, keep=keep)
        return s, note, {"p": p, "value": value, "mine": mine, "trick_pts": trick_pts}

    # -- explanation
    def explain(self, card: Card, d: dict, n_legal: int) -> Message:
        """One sentence on why ``card`` was played (rules.md §1.5, §3), naming a rule-set fact where relevant (a
        `rookcore.i18n.Message`)."""
        obs, rules, t = self.obs, self.rules, self.tables
        who, name = seat_word(self.seat), card_word(rules, card)
        partner = seat_word(self.partner)
        pts = self.pts[card]
        facts = []
        if card == BIRD:
            facts.append(bird_fact(rules))
        elif rules.red_one and card == RED_ONE:
            facts.append(lazy.gettext("the Red 1 is the top trump"))
        if pts and card != BIRD and not (rules.red_one and card == RED_ONE):
            facts.append(counter_fact(rules, card))
        if self.last_trick and rules.nest_size and d["p"] >= 0.5:
            facts.append(nest_fact(rules))
        p = d["p"]
        if n_legal == 1:
            led = t.suit[obs.trick[0]] if obs.trick else None
            follows = led is not None and t.suit[card] == led and len(obs.hand) > 1
            if len(obs.hand) == 1:
                why = lazy.gettext("{card} is {seat}'s last card", card=name, seat=who)
            elif follows:
                why = lazy.gettext("{card} is {seat}'s only legal card (must follow {colour})", card=name, seat=who,
                                   colour=colour_word(COLOURS[led]))
            else:
                why = lazy.gettext("{card} is {seat}'s only legal card", card=name, seat=who)
        elif not obs.trick:
            if t.suit[card] == t.trump and self.draw_mode:
                why = lazy.gettext("{seat} leads trump {card} to draw the opponents' trumps and protect its side's "
                                   "winners", seat=who, card=name)
            elif p >= 0.6:
                why = lazy.gettext("{seat} leads {card} because it is likely to win the trick (about {chance:.0%})",
                                   seat=who, card=name, chance=p)
            else:
                why = lazy.gettext("{seat} leads {card}, a low-risk card that gives away few points", seat=who,
                                   card=name)
        else:
            cur = trick_winner(t, obs.trick)
            cur_seat = (obs.trick_leader + cur) % 4
            if d["mine"] and p >= 0.5:
                why = lazy.gettext("{seat} plays {card} to take this trick ({worth}) as cheaply as it can (about "
                                   "{chance:.0%} to hold)", seat=who, card=name,
                                   worth=_trick_worth(d["trick_pts"], pts, name), chance=p)
            elif cur_seat == self.partner and not d["mine"] and pts:
                why = lazy.gettext("{seat} gives the {points}-point {card} to partner {partner}, who is winning the "
                                   "trick", seat=who, points=pts, card=name, partner=partner)
            elif cur_seat == self.partner and not d["mine"]:
                why = lazy.gettext("{seat} plays a low {card} because partner {partner} is already winning the "
                                   "trick", seat=who, card=name, partner=partner)
            elif d["mine"]:
                why = lazy.gettext("{seat} plays {card} to try for the trick, though it may be beaten", seat=who,
                                   card=name)
            elif p >= 0.5 and len(obs.trick) < 2:  # partner still to play and likely to take it
                why = lazy.gettext("{seat} plays {card}, its least useful card, and leaves the trick to partner "
                                   "{partner}, still to play ({team} take it about {chance:.0%} of the time)",
                                   seat=who, card=name, partner=partner, team=team_word(self.seat & 1), chance=p)
            else:
                why = lazy.gettext("{seat} does not play for this trick: it plays {card}, its least useful card",
                                   seat=who, card=name)
        return _sentence(why, facts[0] if facts else "")


def _trick_worth(worth: int, own: int, name) -> Message:
    """The points a trick would hold with the AI's own card in it, in words: "no points", "15 points", "10 points,
    all of them its own B10", "25 points with its own Crow's 20". Args: ``worth`` the trick's points with the card,
    ``own`` the card's points, ``name`` its name (a card word). Returns a `Message`. Raises nothing."""
    if worth == 0:
        return lazy.gettext("no points")
    if own == worth:
        return lazy.ngettext("{points} point, all of them its own {card}",
                             "{points} points, all of them its own {card}",
                             worth, points=worth, card=name)
    if own:
        return lazy.ngettext("{points} point with its own {card}'s {own}",
                             "{points} points with its own {card}'s {own}",
                             worth, points=worth, card=name, own=own)
    return lazy.ngettext("{points} point", "{points} points", worth, points=worth)
