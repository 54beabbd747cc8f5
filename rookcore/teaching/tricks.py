"""The trick_winner exercise: "Who wins this trick?" for a complete trick (rules.md §1.5, §3 the bird's place, the
Red 1, the 1s). Answer: a seat (`trick_winner`).
"""
from __future__ import annotations

import random
from typing import Any, Sequence

from ..cards import COLOURS, Card
from ..hand import seat_index, trick_tables, trick_winner
from ..i18n import _, ngettext
from ..rules import BIRD_BOTTOM, RED_ONE, Rules
from ..words import bird_name, card_text, colour_name, rules_title, team_name
from .deals import _hand_in_play, _random_playout, _rng, _rules
from .exercise import Exercise, ExerciseError, ExerciseKind, register
from .wording import (BIRD, SEAT_NAMES, _cap, _name, _names, _semi, _trick_text, bird_place_text, colour_word,
                      seat_full_name)


def trick_reason(rules: Rules, trump: str, leader: int, cards: Sequence[Card]) -> str:
    """Why the trick ``cards`` (play order, led by ``leader``) goes to its winner (rules.md §1.5, §3), in the active
    language: the rule that decides, any notes (the bird's place, the Red 1, the 1s) joined by "; ", and where the
    trick's points go."""
    t = trick_tables(rules, trump)
    win_i = trick_winner(t, cards)
    winner = (leader + win_i) % 4
    win = cards[win_i]
    who = seat_full_name(winner)
    led = t.suit[cards[0]]
    trumps = [c for c in cards if t.trump_power[c]]
    trump_name = colour_name(trump)
    title = rules_title(rules)
    bird = bird_name(rules.bird_name)
    notes = []
    if trumps:
        if led == t.trump:
            text = _("trump ({colour}) was led, so the highest trump wins: {card} of {seat}", colour=trump_name,
                     card=_name(rules, win), seat=who)
        elif len(trumps) == 1:
            text = _("{card} is the only trump ({colour}) in the trick, and a trump beats every card of another "
                     "colour, so {seat} wins", card=_name(rules, win), colour=trump_name, seat=who)
        else:
            text = _("when trumps ({colour}) are played, the highest trump wins: {card} of {seat}",
                     colour=trump_name, card=_name(rules, win), seat=who)
        if BIRD in cards:
            place = bird_place_text(rules)
            if win == BIRD and rules.bird_place == BIRD_BOTTOM:
                notes.append(_("the {bird} is {place} in {rules}, but even the lowest trump beats the other colours",
                               bird=bird, place=place, rules=title))
            elif win == BIRD:
                notes.append(_("the {bird} is {place} in {rules}", bird=bird, place=place, rules=title))
            else:
                notes.append(_("the {bird} is only {place} in {rules}, so {card} beats it", bird=bird, place=place,
                               rules=title, card=_name(rules, win)) if rules.bird_place == BIRD_BOTTOM else
                             _("the {bird} is {place} in {rules}", bird=bird, place=place, rules=title))
        if rules.red_one and RED_ONE in cards:
            notes.append(_("the Red 1 is the top trump"))
        if rules.order[0] == 1 and any(c.number == 1 for c in trumps if not c.is_bird):
            notes.append(_("the 1 is the highest card of a colour in {rules}", rules=title))
    else:
        text = _("no trump ({trump}) was played, so the highest {colour} card (the colour led) wins: {card} of {seat}",
                 trump=trump_name, colour=colour_word(COLOURS[led]), card=_name(rules, win), seat=who)
        off = [c for c in cards if t.suit[c] != led]
        if off:
            notes.append(ngettext("{cards} cannot win: it is neither the colour led nor trump",
                                  "{cards} cannot win: they are neither the colour led nor trump", len(off),
                                  cards=_names(rules, off)))
        if rules.order[0] == 1 and win.number == 1:
            notes.append(_("the 1 is the highest card of a colour in {rules}", rules=title))
    pts = rules.points_of(cards)
    return _("{reason}. The trick's {points} points go to {team}.", reason=text + "".join(_semi() + n for n in notes),
             points=pts, team=team_name(winner & 1))


def _trick_category(rules: Rules, t, cards: Sequence[Card]) -> str:
    """The kind of a finished trick for worked examples (`TRICK_KINDS`): "bird" (the bird in it), "trump-led",
    "trumped" (a colour led, trump played on it), "plain" (no trump at all, a card of another colour played) or
    "simple" (no trump, every card of the colour led)."""
    led = t.suit[cards[0]]
    if any(rules.is_trump_card(c) for c in cards):
        return "bird"
    if led == t.trump:
        return "trump-led"
    if any(t.trump_power[c] for c in cards):
        return "trumped"
    if any(t.suit[c] != led for c in cards):
        return "plain"
    return "simple"


TRICK_KINDS = ("trumped", "plain", "bird", "simple", "trump-led")
"""The kinds of worked trick examples (`_trick_category`), in the order a missing kind falls back to."""


def _sample_trick(rules: Rules, rng: random.Random, wanted: str) -> tuple[int, tuple[Card, ...], str]:
    found: dict[str, list] = {}
    for _attempt in range(12):
        state, how = _hand_in_play(rules, rng)
        _random_playout(state, how["play_seed"])
        t = state.tables
        for tr in state.tricks:
            found.setdefault(_trick_category(rules, t, tr.cards), []).append((tr.leader, tr.cards, state.trump))
        if wanted in found:
            break
    cat = wanted if wanted in found else next(c for c in TRICK_KINDS if c in found)
    return rng.choice(found[cat])


def trick_winner_exercise(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "Who wins this trick?" for a complete trick (rules.md §1.5, §3). Answer: a seat."""
    rules = _rules(rules)
    rng = _rng("trick_winner", seed, rules)
    wanted = rng.choice(["trumped", "plain", "bird", "trumped", "simple"])
    leader, cards, trump = _sample_trick(rules, rng, wanted)
    winner = (leader + trick_winner(trick_tables(rules, trump), cards)) % 4
    prompt = _("{colour} is trump. {leader} led; the trick is {trick}. Who wins this trick?", colour=colour_name(trump),
               leader=seat_full_name(leader), trick=_trick_text(rules, leader, cards))
    return Exercise("trick_winner", seed, rules, prompt, winner, frozenset([winner]), trick=tuple(cards),
                    trick_leader=leader, trump=trump, choices=tuple(range(4)))


def _norm_seat(ex: Exercise, answer: Any) -> int:
    if isinstance(answer, str) and answer.strip().capitalize() in SEAT_NAMES:
        return SEAT_NAMES.index(answer.strip().capitalize())
    try:
        return seat_index(answer.strip() if isinstance(answer, str) else answer)
    except (ValueError, TypeError):
        raise ExerciseError(_("{value} is not a seat (N, E, S or W)", value=repr(answer))) from None


def _check_trick(ex: Exercise, value: int | None, ok: bool) -> str:
    reason = trick_reason(ex.rules, ex.trump, ex.trick_leader, ex.trick)
    reason = reason[0].upper() + reason[1:]
    if ok or value is None:
        return reason
    card = dict((s, c) for s, c in ex.trick_seats)[value]
    return _("{seat}'s {card} does not win. {reason}", seat=seat_full_name(value), card=_name(ex.rules, card),
             reason=reason)


def _trick_rule(ex: Exercise, value: int) -> str:
    """Why the card of the picked seat ``value`` does not win the trick (rules.md §1.5, §3 the bird's and the Red
    1's places); never names the winner."""
    r = ex.rules
    t = trick_tables(r, ex.trump)
    card = dict(ex.trick_seats)[value]
    mine = _("{seat}'s {card}", seat=seat_full_name(value), card=card_text(r, card))
    led = t.suit[ex.trick[0]]
    led_name, trump_name = colour_word(COLOURS[led]), colour_word(ex.trump)
    trumps = [c for c in ex.trick if t.trump_power[c]]
    title = rules_title(r)
    if t.trump_power[card]:
        text = _("{card} is a trump, but a higher trump was played: when trumps are played, the highest trump wins",
                 card=mine)
        if BIRD in ex.trick:
            text += _semi() + _("in {rules} the {bird} is {place}", rules=title, bird=bird_name(r.bird_name),
                             place=bird_place_text(r))
        if r.red_one and RED_ONE in ex.trick:
            text += _semi() + _("the Red 1 is the top trump")
        if r.order[0] == 1 and any(c.number == 1 for c in trumps if not c.is_bird):
            text += _semi() + _("the 1 is the highest card of a colour in {rules}", rules=title)
    elif t.suit[card] == led and trumps:
        text = _("{card} follows the colour led ({led}), but a trump ({trump}) was played on this trick, and a trump "
                 "beats every card of another colour", card=mine, led=led_name, trump=trump_name)
    elif t.suit[card] == led:
        text = _("{card} follows the colour led ({led}), but a higher {led} card was played: with no trump in the "
                 "trick, the highest card of the colour led wins", card=mine, led=led_name)
        if r.order[0] == 1 and any(c.number == 1 and t.suit[c] == led for c in ex.trick):
            text += _semi() + _("the 1 is the highest card of a colour in {rules}", rules=title)
    else:
        text = _("{card} is neither the colour led ({led}) nor trump ({trump}), so it cannot win the trick, however "
                 "high it is", card=mine, led=led_name, trump=trump_name)
    return _cap(text) + "."


KIND = register(ExerciseKind("trick_winner", trick_winner_exercise, _norm_seat, _check_trick, _trick_rule))
