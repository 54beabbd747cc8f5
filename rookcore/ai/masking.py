"""An AI decision's reasoning as one seat may be told it now (rules.md §1, §1.3; issues 24 and 32).

During a hand the learner's reasoning pane tells each AI move only as the whole table saw it: `public_decisions`
gives, for each logged AI decision, a `Decision` whose move and sentence are built from the hand's public history
alone (`rookcore.ai.public_text`: "E bids 75: E outbids its partner W, who had bid 70.", "W buries 5 cards: ...",
"E plays G9: E has no Green and plays a trump; E is winning the trick so far."), with no candidates, scores or
score meaning: an AI's own reasons rest on its hand ("W's hand is worth about 98 points", its strength in every
colour, "R9 is E's only legal card", which tells that E holds no other red), so they are hidden facts even when they
name no hidden card. The same words result for every deal that fits what the table has seen. Once the hand is over
the decisions are given whole.

`mask_decision` is the card-level rule: it masks the cards a reader cannot see in a whole `Decision` (it does not
hide what the reasons tell without naming a card). The pane uses it as the last safety pass over the public words;
it stays for any reader of a `Decision` who must not see some cards. A seat at the table sees its own cards (those
it was dealt, and the nest once it declared and picked it up), the cards played to tricks so far, the calls and
trump; nothing else (`HandState.observation`). An AI's reasoning names more: the cards it buried, the cards it
weighed but kept in its hand, the trumps behind its bid. The card-level rule, judged at the present moment (a card an AI kept at step 5 and played at step 9 is seen from then on):

* the chosen action stands if its cards are seen, else it is said in words (`MaskedAction`: "buries 5 cards");
* the explanation stands if every card of the action and of its ``secret`` is seen, else the decision's
  ``public_explanation`` (one whole sentence written by the AI without them) is given, or, when it has none, a
  sentence saying the reasoning waits for the end of the hand;
* each candidate stands if its cards are seen (its note replaced by its ``public_note`` when a card of its
  ``secret`` is not); the candidates that are not seen, other than the chosen one, are folded into one row ("plays
  another card"), scored as the best of them, so their number does not tell how many cards the AI could play;
* a last safety pass: a text that still names a card the reader cannot see (an old or foreign `Decision` without
  ``secret``) is replaced by the wait-for-the-end sentence. The pass reads the text as the reader is shown it: in
  English and in the active language (`rookcore.i18n`; the bird and the Red 1 by their translated names too), so it
  holds in every language; masking is done when the reasoning is drawn, in the learner's language.

Every sentence it gives is a `rookcore.i18n.Message` (English as a str, said in the reader's language when shown).

Typical use (what `rookcore.table.Table.reasoning_for_learner` does)::

    shown = public_decisions(state, seat=2, entries=table.log)   # entries: objects with .step and .decision
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..actions import Discard, Play
from ..cards import Card
from ..hand import HandState, Phase
from ..i18n import Message, current, lazy, localize
from ..rules import Rules
from ..words import card_text, rules_title, seat_word
from .base import Candidate, Decision, MaskedAction
from .public_text import buried_move, public_history, tell_moves

__all__ = ["hidden_from", "cards_of", "mask_decision", "names_hidden_card", "waiting_sentence", "public_decisions"]


HIDDEN_NOTE = lazy.gettext("the cards and their points are shown when the hand is over")
"""The note of a candidate whose cards are masked (a `rookcore.i18n.Message`, said when shown)."""


def _other_moves(kind: str, seat: int) -> tuple[MaskedAction, Message]:
    """The folded row of the hidden other candidates of a decision of ``kind``: its move and its note."""
    who = seat_word(seat)
    if kind == "play":
        return (MaskedAction(lazy.gettext("plays another card"), lazy.gettext("{seat} plays another card", seat=who)),
                lazy.gettext("the best of the other cards it could play; shown when the hand is over"))
    if kind == "discard":
        return (MaskedAction(lazy.gettext("buries other cards"), lazy.gettext("{seat} buries other cards", seat=who)),
                lazy.gettext("the best other choice of cards to bury; shown when the hand is over"))
    return (MaskedAction(lazy.gettext("another move"), lazy.gettext("{seat} makes another move", seat=who)),
            lazy.gettext("the best of its other choices; shown when the hand is over"))


def hidden_from(state: HandState, seat: int) -> frozenset[Card]:
    """The cards ``seat`` cannot see now in ``state`` (rules.md §1, §1.3; as `HandState.observation` gives them).

    Seen: the cards ``seat`` was dealt (held, played or buried by it), every card played to a trick so far (the
    trick in progress included), and the nest as dealt once ``seat`` declared and picked it up. Hidden: the rest
    of the deck, i.e. the other seats' cards not yet played and a nest ``seat`` did not pick up. Once the hand is
    over (scored or passed out) nothing is hidden.

    Args: state: the hand (not changed); seat: 0..3 (N, E, S, W). Returns: a frozenset of Cards (empty when the
    hand is over). Raises IndexError for a seat outside 0..3.
    """
    if state.is_over:
        return frozenset()
    seen = set(state.dealt[seat]) | set(state.trick)
    for trick in state.tricks:
        seen.update(trick.cards)
    if state.declarer == seat and state.phase is not Phase.AUCTION:
        seen |= state.dealt_nest
    return state.rules.deck_set - seen


def cards_of(action: Any) -> frozenset[Card]:
    """The cards an action shows: a `Play`'s card, a `Discard`'s cards, none for calls, trump and anything else.
    Args: action: an engine action or a `MaskedAction`. Returns: a frozenset of Cards. Raises nothing."""
    if isinstance(action, Play):
        return frozenset((action.card,))
    if isinstance(action, Discard):
        return frozenset(action.cards)
    return frozenset()


def waiting_sentence(seat: int) -> Message:
    """The sentence given for reasoning that cannot be told without hidden cards: "E weighed cards you cannot see
    yet; its reasoning is shown when the hand is over." Args: seat: the AI's seat 0..3. Returns: a
    `rookcore.i18n.Message`."""
    return lazy.gettext("{seat} weighed cards you cannot see yet; its reasoning is shown when the hand is over.",
                        seat=seat_word(seat))


def _masked_action(action: Any, seat: int) -> MaskedAction:
    """The chosen action said without its cards: "buries 5 cards", "plays a card" (with ``seat``'s sentence)."""
    if isinstance(action, Discard):
        return buried_move(seat, len(action.cards))
    return MaskedAction(lazy.gettext("plays a card"), lazy.gettext("{seat} plays a card", seat=seat_word(seat)))


@lru_cache(maxsize=64)
def _names_pattern(cards: frozenset[Card], rules: Rules, lang: str) -> re.Pattern | None:
    """A regex matching the page names ("R14", "Crow", "Red 1"), record names ("CROW") and, in the language
    ``lang`` (the active one, `rookcore.i18n`), the translated names ("Krähe", "Rote 1") of ``cards`` as whole
    words; None for no cards. Cached: a pane asks for the same hidden cards once per AI move shown."""
    names = ({rules.display_name(c) for c in cards} | {rules.card_name(c) for c in cards}
             | {card_text(rules, c) for c in cards})
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")


def names_hidden_card(text: str, hidden: frozenset[Card], rules: Rules) -> bool:
    """Whether ``text``, as the reader is shown it (a `rookcore.i18n.Message` said in the active language, and
    in English), names a card of ``hidden`` as the page writes cards ("R14", "Crow", "Red 1", "CROW"; the bird and
    the Red 1 also by their names in the active language), the rule set's title ("The Red 1", "Partnership Rook",
    in English and translated) left out. Args: text: str or Message; hidden: Cards; rules: the rule set. Returns:
    bool. Raises nothing."""
    pattern = _names_pattern(frozenset(hidden), rules, current().lang)
    if pattern is None:
        return False
    titles = (rules.title, rules_title(rules))
    for said in {str(text), localize(text)}:
        for title in titles:
            said = said.replace(title, " ")
        if pattern.search(said):
            return True
    return False


def _mask_candidate(cand: Candidate, hidden: frozenset[Card], seat: int) -> Candidate:
    """``cand`` as seen: its action in words if its cards are hidden (with `HIDDEN_NOTE`), the note replaced
    by ``public_note`` when a card of its ``secret`` is hidden."""
    if cards_of(cand.action) & hidden:
        return Candidate(_masked_action(cand.action, seat), cand.score, cand.public_note or HIDDEN_NOTE)
    if cand.secret & hidden:
        return Candidate(cand.action, cand.score, cand.public_note)
    return cand


def _mask_candidates(decision: Decision, hidden: frozenset[Card]) -> tuple[Candidate, ...]:
    """The candidates as seen: the chosen one and those whose cards are seen, in order; the hidden others folded
    into one row at the place of the first of them, scored as the best of them."""
    out: list[Candidate] = []
    folded: list[Candidate] = []
    at = None
    for cand in decision.candidates:
        if cand.action != decision.action and cards_of(cand.action) & hidden:
            at = len(out) if at is None else at
            folded.append(cand)
            continue
        out.append(_mask_candidate(cand, hidden, decision.seat))
    if folded:
        move, note = _other_moves(decision.kind, decision.seat)
        out.insert(at, Candidate(move, max(c.score for c in folded), note))
    return tuple(out)


def _explanation(decision: Decision, hidden: frozenset[Card]) -> str:
    """The explanation as seen: whole, the public one, or `waiting_sentence`."""
    if not (decision.secret | cards_of(decision.action)) & hidden:
        return decision.explanation
    return decision.public_explanation or waiting_sentence(decision.seat)


def mask_decision(decision: Decision, hidden: frozenset[Card], rules: Rules) -> Decision:
    """``decision`` as a reader who cannot see the cards ``hidden`` may be told it (the rule in the module doc).

    Args: decision: an AI `Decision`; hidden: the Cards the reader cannot see now (`hidden_from`); rules: the rule
    set (for card names). Returns: ``decision`` itself when nothing of it is hidden (always when ``hidden`` is
    empty), else a new `Decision` with the same seat, kind and ``score_meaning`` whose action, explanation and
    candidates name no card of ``hidden`` (``secret`` emptied). Raises nothing.
    """
    if not hidden:
        return decision
    action = decision.action
    if cards_of(action) & hidden:
        action = _masked_action(action, decision.seat)
    candidates = _mask_candidates(decision, hidden)
    explanation = _explanation(decision, hidden)
    if names_hidden_card(explanation, hidden, rules):  # the safety pass: a sentence that still names one
        explanation = waiting_sentence(decision.seat)
    candidates = tuple(c if not names_hidden_card(c.note, hidden, rules) else replace(c, note=HIDDEN_NOTE)
                       for c in candidates)
    if (action is decision.action and explanation == decision.explanation
            and candidates == decision.candidates):
        return decision
    return Decision(action, candidates, explanation, decision.seat, decision.kind,
                    score_meaning=decision.score_meaning)


def public_decisions(state: HandState, seat: int, entries) -> list[Decision]:
    """The AI decisions ``entries`` of ``state``'s hand as ``seat`` may be told them now (the module doc).

    During the hand each is a new `Decision` built from the public history alone (`rookcore.ai.public_text`): the
    seat and kind of the move made at its step, the move as the table saw it (a discard by its size: a
    `MaskedAction` "buries 5 cards"), one sentence of the public facts around it, no candidates, no ``secret``, no
    ``score_meaning``; the logged Decision itself is not read beyond its seat, which must be the seat that acted.
    The safety pass of `mask_decision` (no card ``seat`` cannot see named) is kept over it. Once the hand is over
    (scored or passed out) the logged decisions are given whole.

    Args: state: the hand (not changed); seat: the reader 0..3; entries: the logged AI moves of this hand, each with
    ``step`` (the index of its action in ``state.history``) and ``decision`` (`rookcore.table.LoggedDecision`).
    Returns: a list of Decisions, one per entry, in order. Raises ValueError when an entry's step is not an action of
    the hand or the seat that acted there is not its decision's.
    """
    entries = list(entries)
    if state.is_over:
        return [e.decision for e in entries]
    rules = state.rules
    told = tell_moves(public_history(state), [e.step for e in entries], rules)
    hidden = hidden_from(state, seat)
    shown = []
    for entry in entries:
        who, kind, move, sentence = told[entry.step]
        if entry.decision.seat != who:
            raise ValueError(f"the AI move logged at step {entry.step} is not the move made there (seat "
                             f"{entry.decision.seat}, not {who})")
        shown.append(mask_decision(Decision(move, (), sentence, who, kind), hidden, rules))
    return shown
