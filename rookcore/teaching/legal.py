"""The which_cards_legal exercise: "Which cards may <seat> play on this trick?" (rules.md §1.5 following suit, §3 the
bird's and the Red 1's privileges). Answer: the set of legal cards (`HandState.legal_cards`).
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from ..cards import COLOURS, Card
from ..hand import HandState, trick_tables
from ..i18n import _, ngettext, pgettext
from ..rules import RED_ONE, Rules
from ..words import bird_name, colour_name, list_text, rules_title
from .deals import _hand_in_play, _random_playout, _rng, _rules
from .exercise import Exercise, ExerciseError, ExerciseKind, parse_card_answer, register
from .wording import BIRD, _cap, _name, _names, _semi, _trick_text, bird_place_text, colour_word, seat_full_name


def legal_reason(rules: Rules, trump: str, seat: int, hand: Iterable[Card], trick: Sequence[Card]) -> str:
    """Why these cards are the legal ones for ``seat`` holding ``hand`` on ``trick`` (rules.md §1.5, §3), in the
    active language: the rule that decides, then any notes (the bird's and the Red 1's privileges), joined by "; "."""
    hand = sorted(hand)
    who = seat_full_name(seat)
    if not trick:
        return _("{seat} leads this trick, so {seat} may play any card.", seat=who)
    t = trick_tables(rules, trump)
    led = t.suit[trick[0]]
    led_name = colour_name(COLOURS[led])
    led_word = colour_word(COLOURS[led])
    first = trick[0]
    lead_txt = ""
    if rules.is_trump_card(first):
        lead_txt = _("{card} was led, and leading it is leading trump ({colour})", card=_name(rules, first),
                     colour=led_name) + _semi()
    follow = [c for c in hand if t.suit[c] == led]
    special = [c for c in hand if rules.is_trump_card(c)]
    notes = []
    if not follow:
        base = lead_txt + _("{seat} has no {colour} card, so {seat} may play any card (a trump would win unless a "
                            "higher trump is played)", seat=who, colour=led_word)
    elif len(follow) == 1 and led == t.trump and rules.is_trump_card(follow[0]) and follow[0] == BIRD \
            and rules.bird_any_time:
        base = lead_txt + _("trump was led and {bird} is {seat}'s only trump, so {seat} must play it",
                            bird=_name(rules, BIRD), seat=who)
    else:
        shown = list_text(_name(rules, c) for c in follow)
        if led == t.trump:
            base = lead_txt + ngettext(
                "trump ({colour}) was led and {seat} holds a trump ({cards}), so {seat} must play a trump",
                "trump ({colour}) was led and {seat} holds trumps ({cards}), so {seat} must play a trump",
                len(follow), colour=led_word, seat=who, cards=shown)
            if any(rules.is_trump_card(c) for c in follow):
                base += " " + (_("(the {bird} counts as a trump)", bird=bird_name(rules.bird_name)) if BIRD in follow
                               else _("(the Red 1 counts as a trump)"))
        else:
            base = lead_txt + ngettext(
                "{seat} holds a {colour} card ({cards}), so {seat} must follow {colour}",
                "{seat} holds {colour} cards ({cards}), so {seat} must follow {colour}",
                len(follow), colour=led_word, seat=who, cards=shown)
    if follow:
        priv = [c for c in hand if t.suit[c] != led and rules.has_privilege(c)]
        for c in priv:
            notes.append(_("{card} may also be played at any time in {rules}", card=_name(rules, c),
                           rules=rules_title(rules)))
        if BIRD in special and not rules.bird_any_time and t.suit[BIRD] != led:
            notes.append(_("{bird} is an ordinary trump in {rules} ({place}): like any trump it may be played on a "
                           "{colour} lead only by a player with no {colour} card", bird=_name(rules, BIRD),
                           rules=rules_title(rules), place=bird_place_text(rules), colour=led_word))
        if rules.red_one and RED_ONE in hand and trump != "R" and led == COLOURS.index("R") \
                and not rules.red_one_any_time:
            notes.append(_("the Red 1 is a trump, never a red card, so it cannot follow red"))
    return base + "".join(_semi() + n for n in notes) + "."


def _legal_category(rules: Rules, state: HandState) -> str | None:
    if not state.trick or len(state.hands[state.to_act]) < 3:
        return None
    hand = state.hands[state.to_act]
    legal = state.legal_cards()
    led = state.tables.suit[state.trick[0]]
    follow = [c for c in hand if state.tables.suit[c] == led]
    if any(rules.is_trump_card(c) for c in hand) and follow:
        return "bird"
    if not follow:
        return "void"
    if len(legal) < len(hand):
        return "follow"
    return None


LEGAL_KINDS: tuple[str, ...] = ("follow", "bird", "void")


def _sample_legal(rules: Rules, rng: random.Random, wanted: str) -> tuple:
    """A trick in progress of category ``wanted`` ("follow", "bird", "void"; another if none turns up) from
    seeded random hands: (category, seat, hand, leader, trick, trump, legal cards)."""
    found: dict[str, list] = {}
    for _attempt in range(12):
        state, how = _hand_in_play(rules, rng)

        def look(s: HandState) -> None:
            cat = _legal_category(rules, s)
            if cat is not None:
                found.setdefault(cat, []).append((s.to_act, tuple(sorted(s.hands[s.to_act])), s.trick_leader,
                                                  tuple(s.trick), s.trump, tuple(s.legal_cards())))
        _random_playout(state, how["play_seed"], look)
        if wanted in found:
            break
    cat = wanted if wanted in found else next(c for c in ("follow", "void", "bird") if c in found)
    return (cat,) + rng.choice(found[cat])


def which_cards_legal(rules: Rules | str | None = None, seed: int = 0) -> Exercise:
    """Exercise: "Which cards may <seat> play?" on a trick in progress (rules.md §1.5, §3). Answer: a card set."""
    rules = _rules(rules)
    rng = _rng("which_cards_legal", seed, rules)
    wanted = rng.choice(["follow", "follow", "bird", "void"])
    cat, seat, hand, leader, trick, trump, legal = _sample_legal(rules, rng, wanted)
    prompt = _("{colour} is trump. {leader} led and the trick so far is {trick}. Which cards may {seat} play? Pick "
               "every legal card.", colour=colour_name(trump), leader=seat_full_name(leader),
               trick=_trick_text(rules, leader, trick), seat=seat_full_name(seat))
    answer = frozenset(legal)
    return Exercise("which_cards_legal", seed, rules, prompt, answer, frozenset([answer]), seat=seat, hand=hand,
                    trick=trick, trick_leader=leader, trump=trump, choices=hand, facts={"category": cat})


def _norm_cards(ex: Exercise, answer: Any) -> frozenset:
    if isinstance(answer, (str, int)):
        answer = [answer] if not (isinstance(answer, str) and "," in answer) else answer.split(",")
    try:
        items = list(answer)
    except TypeError:
        raise ExerciseError(_("{value} is not a set of cards", value=repr(answer))) from None
    return frozenset(parse_card_answer(ex.rules, a) for a in items if not (isinstance(a, str) and not a.strip()))


def _check_legal(ex: Exercise, value: frozenset | None, ok: bool) -> str:
    reason = _cap(legal_reason(ex.rules, ex.trump, ex.seat, ex.hand, ex.trick))
    legal_txt = _("{seat} may play {cards}.", seat=seat_full_name(ex.seat), cards=_names(ex.rules, ex.answer))
    if ok or value is None:
        return f"{reason} {legal_txt}"
    extra = sorted(value - ex.answer)
    missing = sorted(ex.answer - value)
    bits = []
    if extra:
        bits.append(ngettext("{cards} is not allowed", "{cards} are not allowed", len(extra),
                             cards=_names(ex.rules, extra)))
    if missing:
        bits.append(_("you left out {cards}", cards=_names(ex.rules, missing)))
    return f"{_cap(_semi().join(bits))}. {_cap(reason)} {legal_txt}"


def _suit_words(rules: Rules, t, led: int) -> tuple[str, str, str, str]:
    """The colour led in words for the following-suit rule (rules.md §1.5), in the active language: (what a player
    holds to follow, "a green card" or "a trump"; the same after "has no", "green card" or "trump"; the duty to
    follow; the cards that follow, "every green card" or "every trump")."""
    if led == t.trump:
        return (_("a trump"), pgettext("has no", "trump"),
                _("when trump is led, a player who holds a trump must play one"), _("every trump"))
    colour = colour_word(COLOURS[led])
    return (_("a {colour} card", colour=colour), pgettext("has no", "{colour} card", colour=colour),
            _("a player who holds a card of the colour led ({colour}) must follow it", colour=colour),
            _("every {colour} card", colour=colour))


def _legal_rule(ex: Exercise, value: frozenset) -> str:
    """The following-suit rule (rules.md §1.5, §3 privileges) that the card set ``value`` broke: how many picked
    cards may not be played and why, how many playable cards were left out and the rule allowing them. Names only
    the cards a rule is about (the bird, the Red 1), never the set of legal cards."""
    r, who = ex.rules, seat_full_name(ex.seat)
    t = trick_tables(r, ex.trump)
    led = t.suit[ex.trick[0]]
    one, none, duty, every = _suit_words(r, t, led)
    lead_note = (_("{card} was led, and leading it is leading trump", card=_name(r, ex.trick[0])) + _semi()
                 if r.is_trump_card(ex.trick[0]) else "")
    follows = any(t.suit[c] == led for c in ex.hand)
    extra, missing = sorted(value - ex.answer), sorted(ex.answer - value)
    parts = []
    if extra:
        n = len(extra)
        parts.append(ngettext("{count} card you picked may not be played: {lead}{seat} holds {one}, and {duty}",
                              "{count} cards you picked may not be played: {lead}{seat} holds {one}, and {duty}",
                              n, count=n, lead=lead_note, seat=who, one=one, duty=duty))
        parts += [_not_a_follower(r, c, one, led) for c in extra if r.is_trump_card(c)]
    if missing:
        n = len(missing)
        if not follows:
            parts.append(ngettext(
                "you left out {count} card that may be played: {lead}{seat} has no {none}, and a player who cannot "
                "follow the colour led may play any card",
                "you left out {count} cards that may be played: {lead}{seat} has no {none}, and a player who cannot "
                "follow the colour led may play any card", n, count=n, lead=lead_note, seat=who, none=none))
        else:
            parts.append(ngettext("you left out {count} card that may be played: {rule}",
                                  "you left out {count} cards that may be played: {rule}", n, count=n,
                                  rule=_follow_rule(r, t, led, missing, every)))
    return _cap(_semi().join(parts)) + "."


def _not_a_follower(rules: Rules, card: Card, one: str, led: int) -> str:
    """Why the trump card ``card`` (the bird or the Red 1) does not follow a colour led that is not trump (``one``:
    "a green card"; ``led``: the colour led, an index of `COLOURS`)."""
    if card == BIRD:
        return _("{bird} is a trump, not {one}: like any trump it may be played on a {colour} lead only by a player "
                 "with no {colour} card", bird=_name(rules, card), one=one, colour=colour_word(COLOURS[led]))
    return _("the Red 1 is a trump, never a red card, so it cannot follow red")


def _follow_rule(rules: Rules, t, led: int, missing: list[Card], every: str) -> str:
    """The rules that allow the left-out cards ``missing`` when the player can follow: ``every`` card of the colour
    led (the bird and the Red 1 count as trumps), and the cards that may be played at any time (rules.md §3)."""
    reasons = []
    following = [c for c in missing if t.suit[c] == led]
    if following:
        bird = BIRD in following and rules.is_trump_card(BIRD)
        red = RED_ONE in following and rules.is_trump_card(RED_ONE)
        bird_word = bird_name(rules.bird_name)
        note = (" " + _("(the {bird} and the Red 1 count as a trump)", bird=bird_word) if bird and red else
                " " + _("(the {bird} counts as a trump)", bird=bird_word) if bird else
                " " + _("(the Red 1 counts as a trump)") if red else "")
        reasons.append(_("{every} may be played, high or low", every=every) + note)
    privileged = [c for c in missing if t.suit[c] != led]
    if privileged:
        reasons.append(_("in {rules} {cards} may be played at any time, even by a player who could follow",
                         rules=rules_title(rules), cards=_names(rules, privileged)))
    return _("{first}, and {second}", first=reasons[0], second=reasons[1]) if len(reasons) == 2 else reasons[0]


KIND = register(ExerciseKind("which_cards_legal", which_cards_legal, _norm_cards, _check_legal, _legal_rule))
