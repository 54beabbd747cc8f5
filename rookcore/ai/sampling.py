"""The strong AI: sampling of hidden deals, rollouts, and exact double-dummy endgames.

For each decision the `SamplingPlayer` draws worlds consistent with what its seat has
seen (`rookcore.ai.worlds`), with a hidden discard re-chosen as a declarer would bury it
(`model_discard`), weights them by the bids made (soft evidence), evaluates
every candidate on the same worlds — exact double-dummy search once few tricks remain,
fast greedy rollouts before — and picks the candidate with the best expected **hand
score margin** for its team (rules.md §1.7: making or setting the bid is what counts,
not raw points). Calls, the discard and trump are chosen by simulation too.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..actions import PASS, Bid, Discard, NameTrump, Play, bid
from ..cards import COLOURS, Card
from ..hand import HandState, Observation, Phase, hand_score, trick_tables, trick_winner
from ..i18n import Message, lazy
from ..words import card_word, colour_word, seat_word, team_word
from .base import Candidate, Decision, check_to_act, describe_action, phase_kind
from .masking import cards_of
from .auction import finish_auction, game_in_reach, rule_call, win_chance
from .rules_based import RuleBasedPlayer, greedy_discard, hand_estimate
from .worlds import discard_hidden, model_discard, sample_world, world_state

DD_TRICKS = 6      # solve exactly once the seat to act holds this many cards or fewer
PLAY_WORLDS = 32   # worlds per card-play decision
PLAN_WORLDS = 12   # worlds per call / discard / trump decision
MAKE_CONFIDENCE = 0.6  # a bid needs this estimated chance of making
BID_FLOOR = 0.5  # near the end of a game (`SamplingPlayer._game_call`) a bid needs at least this chance of making


# What the strong player's scores mean (`rookcore.i18n.Message` values, made once, said when shown): its calls, and
# its discards, trumps and cards
CALL_SCORE = lazy.gettext("Score of a bid: the percent of the sampled deals in which it is made; Pass shows the "
                          "percent a bid needs.")
GAME_CALL_SCORE = lazy.gettext("Score of a call: the percent of the sampled deals, the auction played out, in which "
                               "the AI's side goes on to win the game (the game score is close to the target); a bid "
                               "made in fewer than {need:.0%} of them is not bid.", need=BID_FLOOR)
MARGIN_SCORE = lazy.gettext("Score: by how many points the AI's side ends the hand ahead of the other side in hand "
                            "score, on average over the sampled deals (below 0: behind). \"Bid made\": the chance "
                            "that the bid is made, from the share of those deals that make it (in brackets where it "
                            "differs), corrected by how often such shares came true in the AI's own games.")


@dataclass
class _Tally:
    """Weighted sums over worlds for one candidate: margin (points), own points, made count."""

    weight: float = 0.0
    margin: float = 0.0
    points: float = 0.0
    made: float = 0.0
    weights: set = field(default_factory=set)

    def add(self, w: float, margin: float, points: float, made: bool) -> None:
        self.weights.add(w)
        self.weight += w
        self.margin += w * margin
        self.points += w * points
        self.made += w * made

    def mean(self) -> tuple[float, float, float]:
        """(expected margin, expected own points, probability the bid is made)."""
        w = self.weight or 1.0
        return self.margin / w, self.points / w, self.made / w

    @property
    def weighted(self) -> bool:
        """True when the worlds counted with different weights (the bids made some less likely)."""
        return len(self.weights) > 1


IDENTITY = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
CALIBRATION = (2.3295, 0.5170, 3.9760, -1.6687, -0.2958, 1.0081, -0.1339)
"""Coefficients of the calibration map (`stated_chance`): intercept, then one per `calibration_features` value.
Fitted by ``python benchmarks/calibration.py --deals 300 --seed 20000 --rollouts 0 --fit FILE`` (CrowsNest deals
20000–20299, the strong AI in every seat, 8,059 cards); measured on other seeds (benchmarks/README.md).
`IDENTITY` (intercept 0, the raw share's log-odds 1) would leave the raw share as it is."""


def calibration_features(share: float, points: float, bid: int, tricks: int, hand_size: int, per_hand: int,
                         declaring: bool) -> tuple[float, ...]:
    """The inputs of the calibration map (`stated_chance`, fitted by ``benchmarks/calibration.py --fit``): the
    log-odds of the raw ``share`` of sampled deals that make the bid (kept within 2–98 %); by how much the declaring
    team's expected points exceed the ``bid`` (``points``: the points the seat's side is expected to capture; a
    defender's side leaves the declarers the rest of the hand's ``per_hand`` points), as a share of ``per_hand``;
    the stage (``tricks`` done over ``hand_size``); the seat's side declaring (1) or defending (0); and the products
    of the log-odds with the stage and with the side. Returns a tuple of floats."""
    p = min(0.98, max(0.02, share))
    odds = math.log(p / (1.0 - p))
    over = ((points if declaring else per_hand - points) - bid) / per_hand
    stage = tricks / hand_size
    side = 1.0 if declaring else 0.0
    return odds, over, stage, side, odds * stage, odds * side


def stated_chance(obs: Observation, share: float, points: float) -> float:
    """The chance that the bid is made that the AI states for a choice (rules.md §1.7): the raw ``share`` of its
    sampled deals that make the bid, corrected by the calibration map (`CALIBRATION`, a logistic model fitted on the
    outcomes of the strong AI's own games, `benchmarks/calibration.py`), which also reads the ``points`` the seat's
    side is expected to capture against the bid and how far the hand is played. Before a declarer is known the share is
    returned as it is; once the declarers have the bid's points, 1; once the points still out cannot bring them to
    it, 0. Returns a float in [0, 1]."""
    if obs.high_bid is None or obs.declarer is None:
        return share
    declarers = obs.captured[obs.declarer & 1]
    if declarers >= obs.high_bid:
        return 1.0  # made already
    if declarers + obs.rules.points_per_hand - sum(obs.captured) < obs.high_bid:
        return 0.0  # set already: the points still out cannot make it up
    if CALIBRATION == IDENTITY:
        return share
    x = calibration_features(share, points, obs.high_bid, len(obs.tricks), obs.rules.hand_size,
                             obs.rules.points_per_hand, _declaring(obs))
    z = CALIBRATION[0] + sum(c * v for c, v in zip(CALIBRATION[1:], x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


WEAK_BID_WEIGHT = 0.3
"""The weight of a sampled deal that gives a bidder a hand too weak for its bid (`SamplingPlayer._bid_weight`)."""


COUNTER_TOLERANCE = 2.0
"""Points of expected hand-score margin within which the strong AI plays a card worth fewer points than the best-scored
card (`_keep_counters`): differences that small are the sampling's noise, not a reason to give away a counter."""


def _keep_counters(obs: Observation, cands: list[Candidate]) -> list[Candidate]:
    """``cands`` (card plays, best score first) with the card worth fewest points among those scored within
    `COUNTER_TOLERANCE` of the best moved to the front (then the weakest such card), when it is worth fewer points
    than the best-scored card; otherwise unchanged. Returns a list of `Candidate`."""
    pts = obs.rules.card_points
    tables = trick_tables(obs.rules, obs.trump)
    near = [c for c in cands if c.score >= cands[0].score - COUNTER_TOLERANCE]
    keep = min(near, key=lambda c: (pts[c.action.card], tables.trump_power[c.action.card] * 100
                                    or tables.rank_power[c.action.card], int(c.action.card)))
    if pts[keep.action.card] >= pts[cands[0].action.card]:
        return cands
    return [keep] + [c for c in cands if c is not keep]


def _note(points: float, chance: float, share: float, n: int, weighted: bool) -> Message:
    """A candidate's note: "expected 26 points captured, bid made 88% (80% of 32 samples)": the points the seat's
    side is expected to capture, the stated chance (`stated_chance`) and, when it rounds otherwise, the raw share
    of the ``n`` sampled deals (``weighted``: their weights differed). Returns a `rookcore.i18n.Message`."""
    parts = dict(points=points, chance=chance, share=share, count=n)
    if round(100 * chance) == round(100 * share):
        if weighted:
            return lazy.ngettext("expected {points:.0f} points captured, bid made {chance:.0%}, {count} weighted "
                                 "sample", "expected {points:.0f} points captured, bid made {chance:.0%}, {count} "
                                 "weighted samples", n, **parts)
        return lazy.ngettext("expected {points:.0f} points captured, bid made {chance:.0%}, {count} sample",
                             "expected {points:.0f} points captured, bid made {chance:.0%}, {count} samples", n,
                             **parts)
    if weighted:
        return lazy.ngettext("expected {points:.0f} points captured, bid made {chance:.0%} ({share:.0%} of {count} "
                             "weighted sample)", "expected {points:.0f} points captured, bid made {chance:.0%} "
                             "({share:.0%} of {count} weighted samples)", n, **parts)
    return lazy.ngettext("expected {points:.0f} points captured, bid made {chance:.0%} ({share:.0%} of {count} "
                         "sample)", "expected {points:.0f} points captured, bid made {chance:.0%} ({share:.0%} of "
                         "{count} samples)", n, **parts)


def _deals(n: int, weighted: bool, seat: int, explain: bool = False, buried: bool = False) -> Message:
    """"12 deals that fit what S has seen" (``seat`` S), with ", weighted by the bids" when the bids weighted them;
    ``explain`` gives how instead in brackets (how a deal is weighted, `WEAK_BID_WEIGHT`, and with ``buried``, the
    deals' hidden discard modelled by `model_discard`, how the nest was guessed). Returns a `rookcore.i18n.Message`.
    """
    who = seat_word(seat)
    if not explain and weighted:
        return lazy.ngettext("{count} deal that fits what {seat} has seen, weighted by the bids",
                             "{count} deals that fit what {seat} has seen, weighted by the bids", n, count=n, seat=who)
    deals = lazy.ngettext("{count} deal that fits what {seat} has seen", "{count} deals that fit what {seat} has seen",
                          n, count=n, seat=who)
    if not explain or not (weighted or buried):
        return deals
    guess = lazy.gettext("guessing that the declarer buried the cards an AI would bury")
    weighting = lazy.gettext("weighted: a deal giving a bidder a hand too weak for its bid counts {weight:g}",
                             weight=WEAK_BID_WEIGHT)
    if weighted and buried:
        return lazy.gettext("{deals} ({guess}; {weighting})", deals=deals, guess=guess, weighting=weighting)
    return lazy.gettext("{deals} ({how})", deals=deals, how=weighting if weighted else guess)


def greedy_card(state: HandState, rng: random.Random) -> Card:
    """Rollout policy for the seat to act in a fully known `HandState`: beat the trick cheaply when it is
    worth it, give points to a partner who is winning, otherwise throw the lowest card; lead at random."""
    legal = state.legal_cards()
    if len(legal) == 1:
        return legal[0]
    tables, points = state.tables, state.rules.card_points
    if not state.trick:
        return _greedy_lead(state, legal, tables, points)
    trick = state.trick
    best = trick_winner(tables, trick)
    partner_wins = (state.trick_leader + best) % 2 == state.to_act % 2
    led = tables.suit[trick[0]]

    def key(c: Card) -> int:
        tp = tables.trump_power[c]
        return tp * 100 if tp else (tables.rank_power[c] if tables.suit[c] == led else 0)

    if partner_wins and (len(trick) == 3 or key(trick[best]) >= 100):
        return max(legal, key=lambda c: (points[c], -key(c)))
    top = key(trick[best])
    winners = [c for c in legal if key(c) > top]
    at_stake = sum(points[c] for c in trick)
    if winners and (at_stake or len(trick) == 3 or partner_wins is False):
        return min(winners, key=lambda c: (key(c), points[c]))
    return min(legal, key=lambda c: (points[c], key(c)))


def _greedy_lead(state: HandState, legal: list[Card], tables, points) -> Card:
    """Lead a card no other seat can beat in its suit (trump first when our side declared and the others
    still hold trump), else the cheapest card of the longest side suit."""
    seat = state.to_act
    others = [c for s in range(4) if s != seat for c in state.hands[s]]

    def power(c: Card) -> int:
        return tables.trump_power[c] * 100 or tables.rank_power[c]

    def master(c: Card) -> bool:
        return not any(tables.suit[o] == tables.suit[c] and power(o) > power(c) for o in others)

    trump = tables.trump
    enemy_trump = any(tables.suit[c] == trump for s in range(4) if s % 2 != seat % 2 for c in state.hands[s])
    masters = [c for c in legal if master(c)]
    if (seat - state.declarer) % 2 == 0 and enemy_trump:
        trumps = [c for c in masters if tables.suit[c] == trump]
        if trumps:
            return max(trumps, key=power)
    side = [c for c in masters if tables.suit[c] != trump]
    if side:
        return max(side, key=lambda c: (points[c], power(c)))
    length = {k: sum(1 for c in legal if tables.suit[c] == k) for k in range(4)}
    return min(legal, key=lambda c: (tables.suit[c] == trump, points[c], -length[tables.suit[c]], power(c)))


def rollout(state: HandState, rng: random.Random) -> HandState:
    """Play ``state`` (in the PLAY phase) to the end with `greedy_card` for every seat; returns it (mutated)."""
    while not state.is_over:
        state.apply(Play(greedy_card(state, rng)))
    return state


def _points(x: float, qualifier: str = "") -> Message:
    """``x`` (≥ 0) rounded, with its unit and an optional ``qualifier`` ("more", "fewer") before it: "1 point",
    "5 more points" (a `rookcore.i18n.Message`)."""
    n = int(round(x))
    if qualifier == "more":
        return lazy.ngettext("{count} more point", "{count} more points", n, count=n)
    if qualifier == "fewer":
        return lazy.ngettext("{count} fewer point", "{count} fewer points", n, count=n)
    return lazy.ngettext("{count} point", "{count} points", n, count=n)


def _choice_name(action, rules, masked: bool = False, chosen: bool = True) -> Message | str:
    """A card-play, discard or trump action as a noun: "Y12", "burying R5 R6", "Green as trump"; ``masked``: without
    the cards a reader cannot see (`rookcore.ai.masking`): the chosen discard as "burying 5 cards", another discard
    as "burying other cards", another card (``chosen`` False) as "another card" (a card played is seen). Returns a
    `rookcore.i18n.Message` or a card's notation."""
    if masked and isinstance(action, Discard):
        n = len(action.cards)
        return (lazy.ngettext("burying {count} card", "burying {count} cards", n, count=n) if chosen
                else lazy.gettext("burying other cards"))
    if masked and isinstance(action, Play) and not chosen:
        return lazy.gettext("another card")
    if isinstance(action, Play):
        return card_word(rules, action.card)
    if isinstance(action, Discard):
        return lazy.gettext("burying {cards}", cards=tuple(card_word(rules, c) for c in sorted(action.cards)))
    if isinstance(action, NameTrump):
        return lazy.gettext("{colour} as trump", colour=colour_word(action.colour))
    return describe_action(action, rules.bird_name)


def _declaring(obs: Observation) -> bool:
    """Whether the seat's side holds the bid (or no bid is won yet): its choices make the bid; else they set it."""
    return obs.declarer is None or obs.declarer & 1 == obs.seat & 1


def _bid_effect(obs: Observation, made: float, share: float | None = None) -> Message:
    """What an action does to the bid, given the stated chance ``made`` (0..1, `stated_chance`) that it is made, as
    a noun's verb phrase: "makes the bid 80% of the time" for the declaring side, "sets E–W's bid 50% of the time"
    for a defender (rules.md §1.6); with the raw ``share`` of the deals in brackets when it rounds otherwise
    ("makes the bid 88% of the time (in 80% of those deals)"). Returns a `rookcore.i18n.Message`."""
    if share is not None and round(100 * share) == round(100 * made):
        share = None
    if _declaring(obs):
        if share is not None:
            return lazy.gettext("makes the bid {chance:.0%} of the time (in {share:.0%} of those deals)",
                                chance=made, share=share)
        return lazy.gettext("makes the bid {chance:.0%} of the time", chance=made)
    team = team_word(obs.declarer & 1)
    if share is not None:
        return lazy.gettext("sets {team}'s bid {chance:.0%} of the time (in {share:.0%} of those deals)", team=team,
                            chance=1 - made, share=1 - share)
    return lazy.gettext("sets {team}'s bid {chance:.0%} of the time", team=team, chance=1 - made)


def _why(obs: Observation, chosen: tuple, runner, opening: dict, masked: bool = False) -> Message:
    """One plain sentence for a card, discard or trump choice: the deals and how they were played out
    (``opening``: the `Message` parameters ``deals`` and ``method``), then what the chosen action does to the bid
    and how far the seat's side ends the hand ahead of or behind the other on the hand score (rules.md §1.7) on
    average; then the next choice's points and effect on the bid, and how much worse off it leaves the side.
    ``chosen``, ``runner``: (action, its `_Tally`); runner may be None; ``masked``: the actions named without their
    cards (`_choice_name`), for a reader who cannot see them. Returns a `rookcore.i18n.Message`. Raises nothing."""
    rules = obs.rules
    side, other = team_word(obs.seat & 1), team_word(1 - (obs.seat & 1))
    margin, points, share = chosen[1].mean()
    made = stated_chance(obs, share, points)
    parts = dict(opening, choice=_choice_name(chosen[0], rules, masked), effect=_bid_effect(obs, made, share),
                 side=side,
                 other=other)
    # the score (a made CrowsNest bid scores the bid), not the points captured
    if round(margin) > 0:
        first = lazy.gettext("In {deals}, {method}, {choice} {effect} and {side} end the hand {points} ahead of "
                             "{other} in hand score on average", points=_points(margin), **parts)
    elif round(margin) < 0:
        first = lazy.gettext("In {deals}, {method}, {choice} {effect} and {side} end the hand {points} behind "
                             "{other} in hand score on average", points=_points(-margin), **parts)
    else:
        first = lazy.gettext("In {deals}, {method}, {choice} {effect} and {side} end the hand level with {other} in "
                             "hand score on average", **parts)
    if runner is None:
        return lazy.gettext("{reason}.", reason=first)
    action, tally = runner
    name = _choice_name(action, rules, masked, chosen=False)
    r_margin, r_points, r_share = tally.mean()
    r_made = stated_chance(obs, r_share, r_points)
    gap = margin - r_margin
    if round(gap) < 0 and isinstance(action, Play):  # `_keep_counters`: a card worth fewer points kept the lead
        more = rules.card_points[action.card] - rules.card_points[chosen[0].card]
        if masked:
            second = lazy.gettext("with {choice}, {side} would end {gap} better off on average, too little a "
                                  "difference to play it", choice=name, side=side, gap=_points(-gap))
        else:
            second = lazy.gettext("with {choice}, {side} would end {gap} better off on average, too little to play "
                                  "a card worth {points}", choice=name, side=side, gap=_points(-gap),
                                  points=_points(more, "more"))
    elif round(gap) == 0:
        second = lazy.gettext("{choice} is as good", choice=name)
    else:
        diff = r_points - points
        alternative = (lazy.gettext("{choice} instead", choice=name) if isinstance(action, Discard)
                       else lazy.gettext("with {choice}", choice=name))
        chance = r_made if _declaring(obs) else 1 - r_made
        more = dict(alternative=alternative, side=side, chance=chance, gap=_points(gap),
                    team=team_word(obs.declarer & 1) if obs.declarer is not None else "")
        # one sentence for each: fewer/as many/more points (more points yet worse off: the bid says why) × make/set
        if round(diff) == 0 and _declaring(obs):
            second = lazy.gettext("{alternative}, {side} would take as many points, make the bid {chance:.0%} of "
                                  "the time, and end {gap} worse off in hand score on average", **more)
        elif round(diff) == 0:
            second = lazy.gettext("{alternative}, {side} would take as many points, set {team}'s bid {chance:.0%} of "
                                  "the time, and end {gap} worse off in hand score on average", **more)
        elif round(diff) > 0 and _declaring(obs):
            second = lazy.gettext("{alternative}, {side} would take {points} but make the bid {chance:.0%} of the "
                                  "time, and end {gap} worse off in hand score on average",
                                  points=_points(abs(diff), "more"), **more)
        elif round(diff) > 0:
            second = lazy.gettext("{alternative}, {side} would take {points} but set {team}'s bid {chance:.0%} of "
                                  "the time, and end {gap} worse off in hand score on average",
                                  points=_points(abs(diff), "more"), **more)
        elif _declaring(obs):
            second = lazy.gettext("{alternative}, {side} would take {points}, make the bid {chance:.0%} of the "
                                  "time, and end {gap} worse off in hand score on average",
                                  points=_points(abs(diff), "fewer"), **more)
        else:
            second = lazy.gettext("{alternative}, {side} would take {points}, set {team}'s bid {chance:.0%} of the "
                                  "time, and end {gap} worse off in hand score on average",
                                  points=_points(abs(diff), "fewer"), **more)
    return lazy.gettext("{reason}; {fact}.", reason=first, fact=second)


class SamplingPlayer:
    """Strong AI level "strong": sampled worlds + rollouts + double-dummy endgames (see the module doc).

    ``seed``: makes decisions reproducible; ``worlds``: worlds per card decision (plans use `PLAN_WORLDS`).
    Sees only the `Observation` it is given; hidden cards are only ever guessed.
    """

    def __init__(self, seed: int | None = None, worlds: int = PLAY_WORLDS) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.game_score: tuple[int, int] | None = None
        self._fallback = RuleBasedPlayer(seed=seed)
        self._solver = None

    def __getstate__(self) -> dict:
        """Pickle support (`rookcore.saved`): everything but the endgame solver, whose tables and thread locks
        are a cache (it is made again on the next endgame; decisions do not depend on it). Returns a dict."""
        state = dict(self.__dict__)
        state["_solver"] = None
        return state

    # ----- entry --------------------------------------------------------------
    def decide(self, obs: Observation) -> Decision:
        """Choose an action for the seat of ``obs`` (which must be to act). Returns a `Decision` whose
        candidates carry the expected hand-score margin, and whose notes give the expected points captured, the
        chance the bid is made and the number of sampled worlds. Raises ValueError if the seat is not to act."""
        check_to_act(obs)
        if obs.phase is Phase.PLAY:
            return self._play(obs)
        if obs.phase is Phase.AUCTION:
            return self._call(obs)
        if obs.phase is Phase.DISCARD:
            return self._discard(obs)
        return self._trump(obs)

    # ----- worlds --------------------------------------------------------------
    def _worlds(self, obs: Observation, n: int) -> list[tuple[HandState, float]]:
        """``n`` sampled states (a hidden discard as a declarer would bury it: `model_discard`) with weights from
        the bids (soft evidence: a bidder's hand should back its bid). Returns a list of (HandState, weight)."""
        out = []
        for _ in range(n):
            state = world_state(obs, model_discard(obs, sample_world(obs, self.rng)))
            out.append((state, self._bid_weight(obs, state)))
        return out

    @staticmethod
    def _bid_weight(obs: Observation, state: HandState) -> float:
        weight = 1.0
        top: dict[int, int] = {}
        for seat, call in obs.calls:
            if isinstance(call, Bid):
                top[seat] = call.amount
        for seat, amount in top.items():
            if seat == obs.seat:
                continue
            estimate = hand_estimate(obs.rules, state.dealt[seat])[0]
            if estimate < amount - 0.1 * obs.rules.points_per_hand:
                weight *= WEAK_BID_WEIGHT
        return weight

    def _margin(self, rules, team: int, captured, declarer: int, amount: int) -> tuple[float, float, bool]:
        score = hand_score(rules, captured, declarer, amount)
        made = captured[declarer & 1] >= amount
        return score[team] - score[1 - team], captured[team], made

    # ----- card play -------------------------------------------------------------
    def _play(self, obs: Observation) -> Decision:
        legal = [a.card for a in obs.legal]
        if len(legal) == 1:
            return self._single(obs, obs.legal[0])
        team = obs.seat & 1
        tallies = {c: _Tally() for c in legal}
        exact = len(obs.hand) <= DD_TRICKS
        for state, w in self._worlds(obs, self.worlds):
            if exact:
                for card, captured in self._solve(state).card_values.items():
                    tallies[card].add(w, *self._margin(obs.rules, team, captured, state.declarer, state.high_bid))
                continue
            for card in legal:
                trial = state.clone()
                trial.apply(Play(card))
                rollout(trial, self.rng)
                tallies[card].add(w, *self._margin(obs.rules, team, trial.captured, trial.declarer,
                                                    trial.high_bid))
        method = (lazy.gettext("each played out with all cards open") if exact
                  else lazy.gettext("each played out quickly by simple rules"))
        return self._decide(obs, {Play(c): t for c, t in tallies.items()}, method, self.worlds)

    def _solve(self, state: HandState):
        if self._solver is None:
            from ..analysis.dd import Solver  # noqa: PLC0415 - only needed in endgames
            # one thread: its endgames take milliseconds, and a second thread made decisions slower (median
            # 40.5 ms against 35.8 ms, benchmarks/run.py --ai-hands 40); the arena runs one process per core
            self._solver = Solver(tt_limit=200_000, threads=1)
        return self._solver.solve(state)

    # ----- calls ----------------------------------------------------------------
    def _call(self, obs: Observation) -> Decision:
        """Bid the lowest bid this seat's side makes in at least `MAKE_CONFIDENCE` of the sampled deals (15 points
        more sure to outbid its partner), each deal played out with this seat declaring (`_declare_and_play`), else
        pass. Near the end of a game (`game_score` known and in reach of the target) the call is chosen by
        `_game_call` instead."""
        rules, seat, team = obs.rules, obs.seat, obs.seat & 1
        bids = [a for a in obs.legal if isinstance(a, Bid)]
        worlds = self._worlds(obs, PLAN_WORLDS)
        played: list[dict] = [{} for _ in worlds]

        def captured(i: int, declarer: int) -> tuple:
            if declarer not in played[i]:
                played[i][declarer] = self._declare_and_play(worlds[i][0].clone(), declarer)
            return played[i][declarer]

        own = {a: _Tally() for a in bids}  # this seat declaring at each bid, the bid standing
        for i, (_state, w) in enumerate(worlds):
            for action in bids:
                own[action].add(w, *self._margin(rules, team, captured(i, seat), seat, action.amount))
        known = getattr(self, "game_score", None)  # (a player kept by an older version has none)
        if game_in_reach(rules, known):
            return self._game_call(obs, worlds, captured, own, known)
        partner_high = obs.calls and any(isinstance(c, Bid) and c.amount == obs.high_bid and s == (seat + 2) % 4
                                         for s, c in obs.calls)
        need = MAKE_CONFIDENCE + (0.15 if partner_high else 0.0)
        safe = [a for a in bids if own[a].mean()[2] >= need]
        chosen = safe[0] if safe else PASS  # the lowest bid that is safe enough: leave room to learn more
        return self._call_decision(obs, {PASS: _Tally(), **own}, chosen, need, len(worlds))

    def _game_call(self, obs: Observation, worlds: list, captured, own: dict, game) -> Decision:
        """The call near the end of a game: every call valued by the chance to win the game (`win_chance`) with the
        auction played out in each sampled deal (`_call_values`); a bid made in fewer than `BID_FLOOR` of the deals
        (``own``: this seat declaring) is left out; the best call is chosen (Pass, then the lowest bid, on ties)."""
        share = {a.amount: t.mean()[2] for a, t in own.items()}
        values = self._call_values(obs, worlds, captured, share, game)
        eligible = [a for a in own if share[a.amount] >= BID_FLOOR]
        chosen = max([PASS] + eligible, key=lambda a: (round(values[a].mean()[0], 6), a is PASS,
                                                       -getattr(a, "amount", 0)))
        return self._game_call_decision(obs, values, own, chosen, len(worlds), game)

    def _call_values(self, obs: Observation, worlds: list, captured, share: dict, game) -> dict:
        """Each legal call's `_Tally` over ``worlds`` with the auction played out (`finish_auction`): the others
        call by `rule_call` on their sampled hands, this seat raises an opponent's bid again only to the lowest bid
        whose ``share`` (of the deals made, this seat declaring) is at least `MAKE_CONFIDENCE`. ``captured(i, d)``:
        the points captured in world i with seat d declaring. Values: with ``game`` (the running score, N–S and
        E–W) the percent chance to win the game (`win_chance`), else the hand-score margin."""
        rules, seat, team = obs.rules, obs.seat, obs.seat & 1
        passed = [False] * 4
        bidders: set[int] = set()
        holder = None
        for s, c in obs.calls:
            if isinstance(c, Bid):
                bidders.add(s)
                holder = s
            else:
                passed[s] = True
        calls = [PASS] + [a for a in obs.legal if isinstance(a, Bid)]
        values = {a: _Tally() for a in calls}
        for i, (state, w) in enumerate(worlds):
            worth = [hand_estimate(rules, state.dealt[s])[0] for s in range(4)]

            def call(s: int, high, hold, bid_seats) -> int | None:
                if s == seat:
                    if hold is None or hold & 1 == team:
                        return None
                    return next((b for b in rules.legal_bids(high) if share.get(b, 0.0) >= MAKE_CONFIDENCE), None)
                partner = (s + 2) % 4
                return rule_call(rules, worth[s], high, partner in bid_seats, hold == partner)

            for action in calls:
                after = list(passed)
                if action is PASS:
                    after[seat] = True
                    declarer, amount = finish_auction(rules, (seat + 1) % 4, obs.high_bid, holder, after, bidders,
                                                      call)
                else:
                    declarer, amount = finish_auction(rules, (seat + 1) % 4, action.amount, seat, after,
                                                      bidders | {seat}, call)
                values[action].add(w, *self._value(rules, team, captured(i, declarer) if declarer is not None
                                                   else None, declarer, amount, game))
        return values

    @staticmethod
    def _value(rules, team: int, cap, declarer, amount, game) -> tuple[float, float, bool]:
        """(value, points ``team`` captured, the bid made) of one played-out deal: the value is the hand-score
        margin of ``team``, or with ``game`` (running score N–S, E–W before the hand) the percent chance that
        ``team`` wins the game after it. A deal passed out (``declarer`` None) scores nothing."""
        if declarer is None:
            score, points, made = (0, 0), 0.0, False
        else:
            score = hand_score(rules, cap, declarer, amount)
            points, made = cap[team], cap[declarer & 1] >= amount
        if game is None:
            return score[team] - score[1 - team], points, made
        return 100.0 * win_chance(rules, game[team] + score[team], game[1 - team] + score[1 - team]), points, made

    def _declare_and_play(self, state: HandState, seat: int) -> tuple[int, int]:
        """In a sampled world still in the auction: ``seat`` declares (it bids the lowest bid open when its turn
        comes, every other seat passes), discards and names trump as the rule-based plan would, then everyone
        plays greedy rollouts. Returns final captured. Raises RuntimeError if ``seat`` had already passed."""
        rules = state.rules
        while state.phase is Phase.AUCTION:
            if state.to_act == seat and state.declarer != seat:
                state.apply(bid(min(rules.legal_bids(state.high_bid), default=rules.bid_max)))
            else:
                state.apply(PASS)
        if state.declarer != seat:
            raise RuntimeError("simulated auction went wrong")
        colour = hand_estimate(rules, list(state.hands[seat]))[1]
        if state.phase is Phase.DISCARD:
            state.apply(Discard(greedy_discard(rules, sorted(state.hands[seat]), colour)))
        state.apply(NameTrump(colour))
        return tuple(rollout(state, self.rng).captured)

    def _call_decision(self, obs, tallies, chosen, need, n) -> Decision:
        """The call `Decision`, its candidates scored the way the call was chosen (`_call`): a bid's score is the
        percent of the ``n`` sampled deals in which it is made, Pass's the percent a bid needs (``need``), so the
        chosen call (the lowest bid that is safe enough, else Pass) comes first; lower bids first on ties."""
        cands = []
        weighted = any(t.weighted for t in tallies.values())
        deals = _deals(n, weighted, obs.seat)
        for action, t in tallies.items():
            if action is PASS:
                cands.append(Candidate(PASS, round(100 * need, 2),
                                       lazy.gettext("pass unless a bid is made in at least {chance:.0%} of {deals}",
                                                    chance=need, deals=deals)))
                continue
            margin, points, made = t.mean()
            cands.append(Candidate(action, round(100 * made, 2),
                                   lazy.gettext("made in {chance:.0%} of {deals}, expected hand-score margin "
                                                "{margin:+.0f}, {points:.0f} points captured", chance=made,
                                                deals=deals, margin=margin, points=points)))
        cands.sort(key=lambda c: (c.action is not chosen, -c.score, c.action is PASS,
                                  getattr(c.action, "amount", 0)))
        if chosen is PASS:
            best = max((t.mean()[2] for a, t in tallies.items() if a is not PASS), default=0.0)
            text = lazy.gettext("Even the lowest bid open would be made in only {chance:.0%} of {deals}, and {seat} "
                                "bids only what it makes at least {need:.0%} of the time.", chance=best,
                                deals=_deals(n, weighted, obs.seat, True), seat=seat_word(obs.seat), need=need)
        else:
            margin, points, made = tallies[chosen].mean()
            text = lazy.gettext("It is the lowest bid {team} make in at least {need:.0%} of {deals}, made in "
                                "{chance:.0%} of them with about {points:.0f} points captured; a low bid leaves room "
                                "to raise later.", team=team_word(obs.seat & 1), need=need,
                                deals=_deals(n, weighted, obs.seat, True), chance=made, points=points)
        return Decision(chosen, tuple(cands), text, obs.seat, "call", score_meaning=CALL_SCORE)

    def _game_call_decision(self, obs, values, own, chosen, n, game) -> Decision:
        """The call `Decision` near the end of a game (`_game_call`): each call scored by the percent chance to win
        the game with the auction played out, a bid's note with the share of the ``n`` deals it is made in when
        this seat declares (``own``); the chosen call first, then the calls open to it by score, then the bids
        ruled out. ``game``: the running score (N–S, E–W)."""
        seat = obs.seat
        weighted = any(t.weighted for t in values.values())
        deals = _deals(n, weighted, seat)
        cands = []
        for action, t in values.items():
            value = t.mean()[0]
            note = lazy.gettext("the auction played out: the game won {win:.0%} of the time", win=value / 100)
            if action is not PASS:
                made = own[action].mean()[2]
                note = lazy.gettext("made in {chance:.0%} of {deals} if it stands; {played}", chance=made,
                                    deals=deals, played=note)
                if made < BID_FLOOR:
                    note = lazy.gettext("{note}; not bid: made in fewer than {need:.0%}", note=note, need=BID_FLOOR)
            cands.append(Candidate(action, round(value, 2), note))
        ruled_out = {a for a in own if own[a].mean()[2] < BID_FLOOR}
        cands.sort(key=lambda c: (c.action is not chosen, c.action in ruled_out, -c.score, c.action is not PASS,
                                  getattr(c.action, "amount", 0)))
        text = self._game_call_sentence(obs, values, own, chosen, _deals(n, weighted, seat, True), game)
        return Decision(chosen, tuple(cands), text, seat, "call", score_meaning=GAME_CALL_SCORE)

    @staticmethod
    def _game_call_sentence(obs, values, own, chosen, deals, game) -> Message:
        """One sentence for a call near the end of a game: the game score, then the chance to win the game that the
        call gives against the best other call (passing, or the best bid made often enough), or why no bid was open
        to it. Returns a `rookcore.i18n.Message`."""
        seat, team = obs.seat, team_word(obs.seat & 1)
        eligible = [a for a in own if own[a].mean()[2] >= BID_FLOOR]
        if chosen is PASS and not eligible:
            best = max((t.mean()[2] for t in own.values()), default=0.0)
            return lazy.gettext("Even the lowest bid open would be made in only {chance:.0%} of {deals}, and {seat} "
                                "bids only what it makes at least {need:.0%} of the time.", chance=best,
                                deals=deals, seat=seat_word(seat), need=BID_FLOOR)
        other = PASS if chosen is not PASS else max(eligible, key=lambda a: (values[a].mean()[0], -a.amount))
        win, alt = values[chosen].mean()[0] / 100, values[other].mean()[0] / 100
        bid_action = chosen if chosen is not PASS else other
        score = lazy.gettext("{ns_team} {ns}, {ew_team} {ew}", ns_team=team_word(0), ns=game[0], ew_team=team_word(1),
                             ew=game[1])
        parts = dict(score=score, deals=deals, team=team, amount=bid_action.amount,
                     chance=own[bid_action].mean()[2], win=win, other=alt)
        if chosen is PASS:
            return lazy.gettext("The game score is {score}: in {deals}, with the auction played out, passing gives "
                                "{team} the best chance to win the game, {win:.0%} against {other:.0%} for bidding "
                                "{amount} (made in {chance:.0%} of them).", **parts)
        return lazy.gettext("The game score is {score}: in {deals}, with the auction played out, bidding {amount} gives "
                            "{team} the best chance to win the game, {win:.0%} against {other:.0%} for passing; the "
                            "bid is made in {chance:.0%} of them if it stands.", **parts)

    # ----- discard and trump --------------------------------------------------------
    def _discard(self, obs: Observation) -> Decision:
        rules = obs.rules
        plans = {}
        for colour in COLOURS:
            cards = frozenset(greedy_discard(rules, sorted(obs.hand), colour))
            plans.setdefault(cards, colour)
        tallies = {Discard(cards): self._plan_value(obs, cards, colour) for cards, colour in plans.items()}
        return self._decide(obs, tallies,
                            lazy.gettext("each played out quickly by simple rules with the trump planned for it"),
                            PLAN_WORLDS, notes={Discard(c): col for c, col in plans.items()})

    def _trump(self, obs: Observation) -> Decision:
        tallies = {NameTrump(c): self._plan_value(obs, None, c) for c in COLOURS}
        return self._decide(obs, tallies, lazy.gettext("each played out quickly by simple rules"), PLAN_WORLDS)

    def _plan_value(self, obs: Observation, discard, colour: str) -> _Tally:
        team = obs.seat & 1
        tally = _Tally()
        for state, w in self._worlds(obs, PLAN_WORLDS):
            if discard is not None:
                state.apply(Discard(discard))
            state.apply(NameTrump(colour))
            rollout(state, self.rng)
            tally.add(w, *self._margin(obs.rules, team, state.captured, state.declarer, state.high_bid))
        return tally

    # ----- shared ----------------------------------------------------------------
    def _single(self, obs: Observation, action) -> Decision:
        """The decision of a seat with one legal card: no choice to explain."""
        return Decision(action, (Candidate(action, 0.0, lazy.gettext("it is the only legal card")),),
                        lazy.gettext("{seat} has no choice: it is the only legal card.", seat=seat_word(obs.seat)),
                        obs.seat, phase_kind(obs))

    def _decide(self, obs: Observation, tallies: dict, method: Message, n: int, notes: dict | None = None) -> Decision:
        """Best candidate by expected margin (a card worth fewer points within `COUNTER_TOLERANCE` of it instead,
        `_keep_counters`); ties broken by card/action order for determinism. The sentence
        (`_why`) says what the choice does to the bid and the hand score, and what the next choice would give.
        ``method``: how the deals were played out (a `Message`); ``notes``: a discard's planned trump colour."""
        rules = obs.rules
        weighted = any(t.weighted for t in tallies.values())
        cands = []
        for action, t in tallies.items():
            margin, points, share = t.mean()
            note = _note(points, stated_chance(obs, share, points), share, n, weighted)
            if notes and action in notes:
                note = lazy.gettext("plan: trump {colour}; {note}", colour=colour_word(notes[action]), note=note)
            cands.append(Candidate(action, round(margin, 2), note))
        cands.sort(key=lambda c: -c.score)
        if isinstance(cands[0].action, Play):
            cands = _keep_counters(obs, cands)
        chosen = cands[0]
        runner = (cands[1].action, tallies[cands[1].action]) if len(cands) > 1 else None
        opening = dict(deals=_deals(n, weighted, obs.seat, True, discard_hidden(obs)), method=method)
        best = (chosen.action, tallies[chosen.action])
        text = _why(obs, best, runner, opening)
        secret = cards_of(runner[0]) if runner else frozenset()  # the chosen action's cards are its own
        return Decision(chosen.action, tuple(cands), text, obs.seat, phase_kind(obs), secret,
                        _why(obs, best, runner, opening, masked=True), MARGIN_SCORE)
