"""What Replay shows at one step of a record, as words and cards (no HTML: the view draws them).

Every sentence is in the active language (`rookcore.i18n`); records' own words (comments, players' names, the
engine's record errors) are kept as written. Every fact comes from the engine: the replayed `HandState`, `Rules`
and `records.score_report`; nothing here applies a rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import records
from ..actions import Bid, Discard, NameTrump, Pass, Play
from ..ai.base import move_sentence
from ..cards import Card
from ..hand import SEATS, TEAMS, HandState, Phase, team_of
from ..i18n import _, localize, ngettext, pgettext
from ..records import GameRecord, HandRecord
from ..words import card_text, colour_name, player_name, rules_title, seat_name, team_name

__all__ = ["describe_step", "action_name", "plain_record_error", "hand_label", "display_key", "Title", "title",
           "comment_lines", "Fact", "step_facts", "ScoreBox", "score_box"]


def _team(seat: int) -> str:
    """The team of ``seat`` (0..3) in the active language ("N–S")."""
    return team_name(team_of(seat))


def _signed(n: int) -> str:
    """A score with its sign ("+85", "-120", "0")."""
    return f"+{n}" if n > 0 else str(n)


def describe_step(state: HandState) -> str:
    """One line describing the action that led to ``state`` (its last action), e.g. "E bids 75", "S plays Crow"
    (cards by their names on the page, `rookcore.words.card_text`), in the active language. Raises nothing."""
    rules = state.rules

    def name(card: Card) -> str:
        return card_text(rules, card)

    if not state.history:
        if state.to_act is None:
            return _("{dealer} deals.", dealer=seat_name(state.dealer))
        return _("{dealer} deals. {first} calls first.", dealer=seat_name(state.dealer),
                 first=seat_name(state.to_act))
    seat, action, _saved = state.history[-1]
    who = seat_name(seat)
    kind = type(action)
    if kind is Bid:
        if state.phase is not Phase.AUCTION:
            return _("{seat} bids {amount} and wins the auction.", seat=who, amount=action.amount)
        return _("{seat} bids {amount}.", seat=who, amount=action.amount)
    if kind is Pass:
        if state.passed_out:
            return _("{seat} passes. All four passed: the hand is passed out and the same dealer deals again.",
                     seat=who)
        if state.phase is not Phase.AUCTION:
            return _("{seat} passes. {declarer} wins the auction at {bid}.", seat=who,
                     declarer=seat_name(state.declarer), bid=state.high_bid)
        return _("{seat} passes.", seat=who)
    if kind is Discard:
        cards = " ".join(name(c) for c in sorted(action.cards))  # as the AI moves and the marks list say it
        n = len(action.cards)
        return ngettext("{seat} buries {cards} (takes up the nest and puts this {count} back).",
                        "{seat} buries {cards} (takes up the nest and puts these {count} back).", n,
                        seat=who, cards=cards, count=n)
    if kind is NameTrump:
        return _("{seat} names trump: {colour}.", seat=who, colour=colour_name(action.colour))
    if kind is Play:
        if not state.trick and state.tricks:  # this card completed a trick
            t = state.tricks[-1]
            parts = dict(seat=who, card=name(action.card), winner=seat_name(t.winner), points=t.points)
            if state.is_over:
                return ngettext("{seat} plays {card} — {winner} wins the trick ({points} points); last trick: the "
                                "nest's {nest} point goes to {team}.",
                                "{seat} plays {card} — {winner} wins the trick ({points} points); last trick: the "
                                "nest's {nest} points go to {team}.", rules.points_of(state.nest),
                                nest=rules.points_of(state.nest), team=_team(t.winner), **parts)
            return _("{seat} plays {card} — {winner} wins the trick ({points} points).", **parts)
        return _("{seat} plays {card}.", seat=who, card=name(action.card))
    return f"{who}: {action}"


def action_name(state: HandState) -> str:
    """Short name of the last action of ``state`` ("S plays Y13", "E bids 75"; `move_sentence`), in the active
    language. Raises IndexError for a state with no action."""
    seat, action, _saved = state.history[-1]
    return localize(move_sentence(seat, action, state.rules.bird_name))


def plain_record_error(line: str) -> str:
    """A record error line (`rookcore.records.RecordError`) as the page shows it to a learner: the JSON path of a
    schema error loses its ``$`` ("$.dealer: …" → "dealer: …", "$: 'variant' is a required property" → "the
    record: 'variant' is a required property"); a record step (numbered from 0, record-format.md) also gets the
    navigator's number ("step 14: …" → "step 14 (Step 15 here): …", the 15th action); the rest is kept word for
    word (the record's own words are English, as the engine and the command line write them). Raises nothing."""
    line = re.sub(r"(^|: )\$\.", r"\1", line)
    line = re.sub(r"(^|: )\$(?=:)", r"\1the record", line)
    return re.sub(r"(^|: )step (\d+):", lambda m: f"{m[1]}step {m[2]} (Step {int(m[2]) + 1} here):", line)


def hand_label(i: int, hand: HandRecord) -> str:
    """The label of hand ``i`` (from 0) of a game: "Hand 2 (dealer E): N bid 85, made" (active language). Raises
    RecordError if the hand cannot be scored."""
    report = records.score_report(hand)
    parts = dict(number=i + 1, dealer=seat_name(hand.dealer))
    if report.get("passed_out"):
        return _("Hand {number} (dealer {dealer}): passed out", **parts)
    if "score" in report and "declarer" in report:
        declarer = seat_name(SEATS.index(report["declarer"]))
        if report["made"]:
            return _("Hand {number} (dealer {dealer}): {declarer} bid {bid}, made", declarer=declarer,
                     bid=report["bid"], **parts)
        return _("Hand {number} (dealer {dealer}): {declarer} bid {bid}, set", declarer=declarer,
                 bid=report["bid"], **parts)
    return _("Hand {number} (dealer {dealer}): unfinished", **parts)


def display_key(state: HandState):
    """Display order of cards at ``state``: by (effective) colour, trump last, high to low (from `Rules`). Returns
    a key function for `sorted`."""
    rules = state.rules
    order = {n: i for i, n in enumerate(rules.order)}
    trump_order = {c: i for i, c in enumerate(rules.trump_order(state.trump))} if state.trump else {}

    def key(card: Card):
        if state.trump and card in trump_order:
            return (9, trump_order[card])
        if rules.is_trump_card(card):  # bird / Red 1 before trump is named
            return (8, 0 if not card.is_bird else 1)
        return ("RYGB".index(card.colour), order[card.number])
    return key


@dataclass(frozen=True)
class Title:
    """The record's heading: its rule set's title, "dealer N", and who played each seat ("N: AI · S: you"; "" when
    the record's meta names nobody)."""

    rules: str
    dealer: str
    players: str


def title(record: HandRecord, state: HandState) -> Title:
    """The heading of ``record`` at ``state`` (any step: the dealer does not change), in the active language; the
    players' names from the record's meta (`words.player_name`: the app's "AI" and "you" translated, a person's
    name as written). Raises nothing for a valid record."""
    players = (record.meta or {}).get("players") or {}
    who = " · ".join(f"{seat_name(i)}: {player_name(str(players[s]))}" for i, s in enumerate(SEATS) if s in players)
    return Title(rules_title(state.rules), _("dealer {seat}", seat=seat_name(state.dealer)), who)


def comment_lines(record: HandRecord, position: int, n_steps: int) -> list[str]:
    """The comments shown at navigator ``position`` (actions applied): the comment of the last action shown (record
    step ``position - 1``; none at position 0) as "Comment: …", and at the last position (``n_steps``) also a
    comment on record step n as "After the last action: …" (the record format allows it; shown, not edited).
    Returns 0 to 2 lines (a comment's own line breaks kept); raises nothing."""
    lines = []
    if position > 0 and record.comment_at(position - 1):
        lines.append(_("Comment: {text}", text=record.comment_at(position - 1)))
    if position == n_steps and position > 0 and record.comment_at(position):
        lines.append(_("After the last action: {text}", text=record.comment_at(position)))
    return lines


@dataclass(frozen=True)
class Fact:
    """One row of the facts at a step: ``label`` and ``text``; ``cards`` (None for a row of words only) drawn
    before the text (the nest, the last trick); ``won`` and ``points`` only for the last trick (the text is who led
    it and its cards)."""

    label: str
    text: str = ""
    cards: tuple[Card, ...] | None = None
    won: str = ""
    points: str = ""


def step_facts(state: HandState) -> list[Fact]:
    """The facts at ``state``, in the active language: the auction's calls, the contract, trump, the nest (as
    dealt or as put back, when the rule set has one), the last trick (its cards, who led and won it, its points),
    the points captured and the tricks won by each team. Raises nothing."""
    rules = state.rules
    passed = pgettext("call", "pass")
    calls = " · ".join(f"{seat_name(s)} {passed if type(a) is Pass else a}" for s, a in state.calls) or "—"
    facts = [Fact(pgettext("replay", "Auction"), calls)]
    if state.high_bid is None:
        contract = _("no bid yet") if state.phase is Phase.AUCTION else _("passed out")
    elif state.phase is Phase.AUCTION:
        contract = _("high bid {bid} by {seat}", bid=state.high_bid, seat=seat_name(state.declarer))
    else:
        contract = _("{seat} ({team}) bid {bid}", seat=seat_name(state.declarer), team=_team(state.declarer),
                     bid=state.high_bid)
    facts.append(Fact(pgettext("replay", "Contract"), contract))
    facts.append(Fact(pgettext("replay", "Trump"), colour_name(state.trump) if state.trump else "—"))
    if rules.nest_size:
        if state.discard is not None:
            label = _("Nest (put back by {seat})", seat=seat_name(state.declarer))
        elif state.phase is Phase.DISCARD:
            label = _("Nest (as dealt, taken up by {seat})", seat=seat_name(state.declarer))
        else:
            label = _("Nest (as dealt)")
        facts.append(Fact(label, cards=tuple(sorted(state.nest, key=display_key(state)))))
    if state.tricks:
        t = state.tricks[-1]
        facts.append(Fact(_("Last trick ({number})", number=len(state.tricks)), cards=tuple(t.cards),
                          text=_("led by {seat}: {cards}", seat=seat_name(t.leader),
                                 cards=" ".join(rules.card_name(c) for c in t.cards)),
                          won=_("{seat} wins", seat=seat_name(t.winner)),
                          points=ngettext("{count} point", "{count} points", t.points, count=t.points)))
    ns, ew = team_name(0), team_name(1)
    facts.append(Fact(_("Captured"), f"{ns} {state.captured[0]} · {ew} {state.captured[1]}"))
    facts.append(Fact(_("Tricks won"), f"{ns} {state.tricks_won[0]} · {ew} {state.tricks_won[1]}"))
    return facts


@dataclass(frozen=True)
class ScoreBox:
    """The score at a record's last step: ``text`` for a passed-out or unfinished hand; for a finished one its
    ``result`` ("Declarer S (N–S) bid 85: made"), ``captured`` and ``score`` lines; ``game`` the game's score
    (with its winner) when the hand is one of a game record, else None."""

    text: str = ""
    result: str = ""
    captured: str = ""
    score: str = ""
    game: str | None = None


def _team_key(key: str) -> str:
    """A score report's team key ("NS", "EW") in the active language."""
    return team_name(TEAMS.index(key))


def score_box(state: HandState, report: dict, game: GameRecord | None = None) -> ScoreBox:
    """The score at the last step (``state``) of a hand whose score report is ``report``
    (`records.score_report`), in the active language; ``game`` the game record it belongs to (its score and
    winner are added), or None. Raises RecordError if ``game`` cannot be scored."""
    ns, ew = team_name(0), team_name(1)
    r = report or {}
    box: ScoreBox
    if r.get("passed_out"):
        box = ScoreBox(_("Passed out: all four seats passed. The same dealer deals again; score {ns} 0 · {ew} 0.",
                         ns=ns, ew=ew))
    elif r.get("complete") is False or "made" not in r:
        cap = r.get("captured", {"NS": state.captured[0], "EW": state.captured[1]})
        parts = dict(ns=ns, ew=ew, ns_points=cap["NS"], ew_points=cap["EW"])
        if "declarer" in r and "bid" in r:
            box = ScoreBox(_("Unfinished hand: {seat} bid {bid}. Captured so far: {ns} {ns_points} · {ew} "
                             "{ew_points}.", seat=seat_name(SEATS.index(r["declarer"])), bid=r["bid"], **parts))
        else:
            box = ScoreBox(_("Unfinished hand. Captured so far: {ns} {ns_points} · {ew} {ew_points}.", **parts))
    else:
        decl = SEATS.index(r["declarer"])
        cap, score = r["captured"], r["score"]
        parts = dict(seat=seat_name(decl), team=_team(decl), bid=r["bid"])
        box = ScoreBox(
            result=(_("Declarer {seat} ({team}) bid {bid}: made", **parts) if r["made"]
                    else _("Declarer {seat} ({team}) bid {bid}: set", **parts)),
            captured=_("Captured: {ns} {ns_points} · {ew} {ew_points} (nest {nest} to {last}; tricks {ns} "
                       "{ns_tricks} · {ew} {ew_tricks})", ns=ns, ew=ew, ns_points=cap["NS"], ew_points=cap["EW"],
                       nest=r["nest_points"], last=_team_key(r["last_trick"]), ns_tricks=r["tricks_won"]["NS"],
                       ew_tricks=r["tricks_won"]["EW"]),
            score=_("Score: {ns} {ns_score} · {ew} {ew_score}", ns=ns, ew=ew, ns_score=_signed(score["NS"]),
                    ew_score=_signed(score["EW"])))
    if game is None:
        return box
    g = records.score_report(game)
    win = g.get("winner")
    parts = dict(ns=ns, ew=ew, ns_score=g["score"]["NS"], ew_score=g["score"]["EW"])
    line = (_("Game: {ns} {ns_score} · {ew} {ew_score} — {team} win", team=_team_key(win), **parts) if win
            else _("Game: {ns} {ns_score} · {ew} {ew_score}", **parts))
    return ScoreBox(box.text, box.result, box.captured, box.score, line)
