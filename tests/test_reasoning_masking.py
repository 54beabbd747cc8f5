"""The AI reasoning as the learner may be told it during a hand (`Table.reasoning_for_learner`,
`rookcore.ai.masking`, issue 24 item 6): no card the learner cannot see at that moment, the full reasoning once the
hand is over, and plain words for the scores."""
from __future__ import annotations

import re

import pytest

from rookcore.actions import Discard, Play
from rookcore.ai import Candidate, Decision, MaskedAction, RuleBasedPlayer, describe_action
from rookcore.ai.masking import hidden_from, mask_decision
from rookcore.cards import Card
from rookcore.hand import Phase
from rookcore.rules import get_rules
from rookcore.table import Table

LEARNER = 2


def hidden_now(table: Table) -> set[Card]:
    """The cards the learner cannot see, worked out from where the cards are now (not from what was seen): every
    card the other seats still hold (a nest picked up by an AI declarer among them), the nest during the auction, and
    the cards an AI declarer buried; nothing once the hand is over."""
    s = table.state
    if s.is_over:
        return set()
    hidden = set().union(*(s.hands[seat] for seat in range(4) if seat != LEARNER))
    if s.phase is Phase.AUCTION:
        hidden |= s.dealt_nest
    elif s.declarer != LEARNER and s.discard is not None:
        hidden |= s.discard
    return hidden


def cards_named(text: str, rules) -> set[Card]:
    """Every card of ``rules``'s deck that ``text`` names as the page writes cards: "R14", "Y5", the bird ("Crow",
    "Rook", "CROW") and "Red 1"; the rule set's title ("The Red 1", "Tournament Rook …") is not a card."""
    text = text.replace(rules.title, " ")
    found = set()
    for colour, number in re.findall(r"(?<!\w)([RYGB])(\d{1,2})(?!\w)", text):
        found.add(Card.of(colour, int(number)))
    if re.search(r"(?<!\w)(Crow|Rook|CROW|ROOK)(?!\w)", text):
        found.add(Card.bird())
    if re.search(r"(?<!\w)Red 1(?!\d)", text):
        found.add(Card.of("R", 1))
    return found & rules.deck_set


def reasoning_text(entries, bird: str) -> str:
    """All the words of the reasoning entries: each summary, its candidates' moves and notes, its score meaning."""
    parts = []
    for entry in entries:
        d = entry.decision
        parts.append(d.summary(bird))
        parts.extend(f"{describe_action(c.action, bird)} {c.note}" for c in d.candidates)
        parts.append(d.score_meaning)
    return "\n".join(parts)


def learner_move(table: Table) -> None:
    """South's move, chosen by a rule-based AI from South's own observation."""
    decision = RuleBasedPlayer(seed=table.state.step).decide(table.state.observation(LEARNER))
    table.learner_act(decision.action)


def check_now(table: Table, counts: dict) -> None:
    """The masked reasoning names no hidden card; every candidate the learner can see now is kept as it was, the
    others folded; and the engine's hidden set agrees with `hidden_now`."""
    hidden, rules = hidden_now(table), table.rules
    assert hidden_from(table.state, LEARNER) == hidden
    shown = table.reasoning_for_learner()
    text = reasoning_text(shown, rules.bird_name)
    leaked = cards_named(text, rules) & hidden
    assert not leaked, (sorted(leaked), text)
    counts["spoilers"] += bool(cards_named(reasoning_text(table.log, rules.bird_name), rules) & hidden)
    for entry, masked in zip(table.log, shown):
        seen = [c.action for c in entry.decision.candidates if not _cards(c.action) & hidden]
        kept = [c.action for c in masked.decision.candidates if not isinstance(c.action, MaskedAction)]
        assert kept == seen, (entry, masked)
        counts["folded"] += any(isinstance(c.action, MaskedAction) for c in masked.decision.candidates)


def _cards(action) -> set[Card]:
    if isinstance(action, Play):
        return {action.card}
    return set(action.cards) if isinstance(action, Discard) else set()


def play_whole_hand(table: Table, counts: dict) -> None:
    """Play the hand on show to its end, checking the reasoning after every action; then the full reasoning."""
    check_now(table, counts)
    while not table.state.is_over:
        if table.ai_to_act():
            table.step_ai()
        else:
            learner_move(table)
        check_now(table, counts)
    shown = table.reasoning_for_learner()
    assert [e.decision for e in shown] == table.decisions and all(
        a.decision is b.decision for a, b in zip(shown, table.log))  # whole, once the hand is over
    text = reasoning_text(shown, table.rules.bird_name)
    assert all(d.summary(table.rules.bird_name) in text for d in table.decisions)
    ai_discard = next((d for d in table.decisions if d.kind == "discard"), None)
    if ai_discard is not None:
        counts["ai_discards"] += 1
        assert cards_named(text, table.rules) >= set(ai_discard.action.cards)  # the buried cards, named at last


@pytest.mark.parametrize("variant", ["crowsnest", "dixie", "red-1", "tournament"])
def test_rule_based_reasoning_names_no_hidden_card_during_the_hand_and_all_after(variant):
    counts = {"spoilers": 0, "folded": 0, "ai_discards": 0}
    for seed in range(3):
        table = Table(rules=get_rules(variant), seed=seed)
        play_whole_hand(table, counts)
    assert counts["spoilers"] > 10, counts  # the full reasoning did name hidden cards: the masking was needed
    assert counts["folded"] and counts["ai_discards"], counts


def test_strong_ai_reasoning_names_no_hidden_card_during_the_hand_and_all_after():
    counts = {"spoilers": 0, "folded": 0, "ai_discards": 0}
    table = Table(seed=11, level="strong")
    for player in table.players.values():
        player.worlds = 8  # fewer sampled deals per card: the test stays fast
    play_whole_hand(table, counts)
    assert counts["spoilers"] and counts["folded"], counts


def _ai_declares(variant="crowsnest"):
    """A table where an AI declared and buried, the learner having passed: stopped when play starts."""
    for seed in range(60):
        table = Table(rules=get_rules(variant), seed=seed)
        table.run_ai()
        while table.is_learner_turn() and table.state.phase is Phase.AUCTION:
            table.learner_act(table.legal_for_learner()[0])  # Pass
            table.run_ai()
        s = table.state
        if not s.is_over and s.declarer not in (None, LEARNER) and s.phase is Phase.PLAY:
            return table
    pytest.fail("no deal where an AI declared")


def test_an_ai_discard_is_told_as_its_size_and_the_trumps_kept():
    table = _ai_declares()
    bird = table.rules.bird_name
    shown = table.reasoning_for_learner()
    full, masked = next((e.decision, m.decision) for e, m in zip(table.log, shown) if e.decision.kind == "discard")
    who = "NESW"[full.seat]
    assert masked.summary(bird).startswith(f"{who} buries 5 cards: {who} buries 5 cards and keeps its trumps")
    assert masked.candidates[0].note == "the cards and their points are shown when the hand is over"
    assert masked.score_meaning == full.score_meaning and "tricks it expects to take" in masked.score_meaning
    assert table.reasoning_for_learner(reveal=True)[-len(table.log):] == table.log  # the learner's choice: all


def test_a_card_kept_by_an_ai_is_named_once_it_is_played():
    """Visibility is judged now: a card an AI weighed and kept is folded away while it is in its hand, and named
    among that decision's candidates once it is played."""
    table = _ai_declares()
    folded, named_later = set(), 0
    while not table.state.is_over:
        if table.ai_to_act():
            table.step_ai()
        else:
            learner_move(table)
        hidden = hidden_now(table)
        shown = {e.step: e.decision for e in table.reasoning_for_learner()}
        for entry in table.log:
            if entry.decision.kind != "play":
                continue
            told = [c.action for c in shown[entry.step].candidates]
            for cand in entry.decision.candidates[1:]:  # the cards weighed and not played then
                key = (entry.step, cand.action.card)
                if cand.action.card in hidden:
                    assert cand.action not in told, (entry, told)
                    folded.add(key)
                else:
                    assert cand.action in told, (entry, told)
                    named_later += key in folded
    assert named_later, "no AI played a card it had weighed and kept before"


def test_reasoning_naming_a_hidden_card_without_a_public_sentence_waits_for_the_end():
    """The safety pass: an AI sentence with no ``secret`` (an older or another player's Decision) that names a
    card the reader cannot see is replaced by a sentence saying the reasoning comes at the end of the hand."""
    rules = get_rules("crowsnest")
    hidden = frozenset({Card.parse("R14"), Card.bird()})
    chosen, other = Play(Card.parse("G5")), Play(Card.parse("R14"))
    d = Decision(chosen, (Candidate(chosen, 1.0, "beats the Crow"), Candidate(other, 0.5, "x")),
                 "E plays G5 and keeps R14 for later.", 1, "play")
    masked = mask_decision(d, hidden, rules)
    assert masked.explanation == "E weighed cards you cannot see yet; its reasoning is shown when the hand is over."
    assert masked.candidates[0].action == chosen and "Crow" not in masked.candidates[0].note
    assert masked.candidates[1].action == MaskedAction("plays another card")
    assert mask_decision(d, frozenset(), rules) is d
    assert mask_decision(d, frozenset({Card.parse("Y9")}), rules) is d  # nothing of it hidden: the Decision itself
    titled = get_rules("red-1")  # a rule set's title is not a card ("The Red 1")
    text = Decision(chosen, (Candidate(chosen, 1.0),), "a made bid scores everything captured in The Red 1.", 1,
                    "play")
    assert mask_decision(text, frozenset({Card.of("R", 1)}), titled) is text


def test_every_ai_decision_says_what_its_scores_mean():
    """Plain words for the numbers: every AI decision with a choice says what its scores are, in points, tricks or
    percent; the rule-based notes give their units."""
    table = Table(seed=4)
    while not table.state.is_over:
        table.run_ai()
        if table.is_learner_turn():
            learner_move(table)
    for d in table.decisions:
        assert d.score_meaning.startswith("Score"), d
        assert re.search(r"points|tricks|percent", d.score_meaning), d.score_meaning
        if d.kind == "play":
            assert all(c.note.endswith("points if kept for later") for c in d.candidates), d.candidates
