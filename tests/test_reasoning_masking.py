"""The AI reasoning as the learner may be told it during a hand (`Table.reasoning_for_learner`,
`rookcore.ai.masking.public_decisions`, `rookcore.ai.public_text`; issue 24 item 6, issue 32 item 5): each AI move as
the whole table saw it (no candidates, scores or reasons resting on hidden cards), its public words true, the full
reasoning once the hand is over. That the words tell nothing South could not know is checked by dealing the hidden
cards again: tests/test_public_reasoning.py."""
from __future__ import annotations

import re

import pytest

from rookcore.actions import Bid, Discard, Pass, Play
from rookcore.ai import Candidate, Decision, MaskedAction, RuleBasedPlayer, describe_action
from rookcore.ai.masking import hidden_from, mask_decision, public_decisions
from rookcore.ai.public_text import Buried, public_history, tell_moves
from rookcore.cards import COLOURS, Card
from rookcore.hand import Phase, trick_winner
from rookcore.rules import VARIANTS, get_rules
from rookcore.table import LoggedDecision, Table

LEARNER = 2
HIDDEN_FACTS = re.compile(r"worth about|only legal card|strength|least useful|\d+ ?%|keeps its trumps|sampled|"
                          r"strongest colour|low-risk|likely to win")
"""Words of the AIs' own reasons that tell of their hands (the issue's "W's hand is worth about 98 points", "R9 is
E's only legal card", a trump's strength, a chance in percent): never in the pane during the hand."""


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
    """During the hand each AI move is shown as the move made at its step (a discard by its size) with one sentence
    and nothing else; no hidden card is named and none of the AIs' hand-telling reasons is said."""
    if table.state.is_over:
        return
    hidden, rules, bird = hidden_now(table), table.rules, table.rules.bird_name
    assert hidden_from(table.state, LEARNER) == hidden
    shown = table.reasoning_for_learner()
    text = reasoning_text(shown, bird)
    assert not cards_named(text, rules) & hidden, text
    assert not HIDDEN_FACTS.search(text), text
    full = reasoning_text(table.log, bird)
    counts["spoilers"] += bool(cards_named(full, rules) & hidden)
    counts["hidden facts"] += bool(HIDDEN_FACTS.search(full))
    history = table.state.history
    for entry, told in zip(table.log, shown):
        d = told.decision
        seat, action, _saved = history[entry.step]
        assert told.step == entry.step and d.seat == seat == entry.decision.seat and d.kind == entry.decision.kind
        assert d.candidates == () and d.score_meaning == "" and d.secret == frozenset()
        if isinstance(action, Discard):
            assert d.action == MaskedAction(f"buries {len(action.cards)} cards"), d
            counts["discards told"] += 1
        else:
            assert d.action == action
        assert d.summary(bird).startswith(f"{'NESW'[seat]} ") and d.explanation.endswith("."), d.summary(bird)


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
    assert shown == table.log and all(a.decision is b.decision for a, b in zip(shown, table.log))  # whole, once over
    ai_discard = next((d for d in table.decisions if d.kind == "discard"), None)
    if ai_discard is not None:
        counts["ai discards"] += 1
        text = reasoning_text(shown, table.rules.bird_name)
        assert cards_named(text, table.rules) >= set(ai_discard.action.cards)  # the buried cards, named at last


@pytest.mark.parametrize("variant", ["crowsnest", "dixie", "red-1", "tournament", "partnership"])
def test_during_the_hand_each_ai_move_is_told_as_the_table_saw_it_and_whole_after(variant):
    counts = {"spoilers": 0, "hidden facts": 0, "discards told": 0, "ai discards": 0}
    for seed in range(3):
        play_whole_hand(Table(rules=get_rules(variant), seed=seed), counts)
    assert counts["spoilers"] > 10 and counts["hidden facts"] > 10, counts  # the full reasoning tells: masking needed
    if get_rules(variant).nest_size:
        assert counts["discards told"] and counts["ai discards"], counts


def test_the_strong_ais_moves_are_told_as_the_table_saw_them():
    counts = {"spoilers": 0, "hidden facts": 0, "discards told": 0, "ai discards": 0}
    table = Table(seed=11, level="strong")
    for player in table.players.values():
        player.worlds = 8  # fewer sampled deals per card: the test stays fast
    play_whole_hand(table, counts)
    assert counts["spoilers"] and counts["hidden facts"], counts


def _played_hand(variant: str, seed: int) -> tuple[Table, list]:
    """A hand played to its end, with a copy of the hand before each action."""
    table = Table(rules=get_rules(variant), seed=seed)
    before = []
    while not table.state.is_over:
        before.append(table.state.clone())
        table.step_ai() if table.ai_to_act() else learner_move(table)
    return table, before


def _params(message) -> dict:
    """The parameters of a public sentence and of its clauses, by name (the English of each)."""
    out = {}
    for value in message.params.values():
        if hasattr(value, "params"):
            out.update({k: str(v) for k, v in value.params.items()})
            out.setdefault("said", []).append(value.msgid)
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_public_words_are_true(variant):
    """Every fact the public words state is the engine's: who held the high bid, whether a call ended the auction,
    a colour a seat has none of (it holds no card of it then), the lead, and who is winning or takes the trick."""
    checked = set()
    for seed in range(2):
        table, before = _played_hand(variant, seed)
        rules = table.rules
        told = tell_moves(public_history(table.state), range(len(before)), rules)
        for step, state in enumerate(before):
            seat, kind, move, sentence = told[step]
            action = table.state.history[step][1]
            after = table.state.clone()
            while after.step > step + 1:
                after.undo()
            assert seat == state.to_act
            facts = _params(sentence)
            said = " ".join(facts.get("said", []))
            if isinstance(action, (Bid, Pass)):
                if "holds the high bid" in said or "who had bid" in said:
                    assert (facts["holder"], int(facts["high"])) == ("NESW"[state.declarer], state.high_bid)
                    checked.add("high bid")
                ends = "ends the auction" in said or "wins the auction" in said
                assert ends == (after.phase is not Phase.AUCTION and not after.is_over), (step, said)
                if ends:
                    checked.add("auction end")
            elif isinstance(action, Discard):
                assert move == MaskedAction(f"buries {rules.nest_size} cards")
                checked.add("discard")
            elif isinstance(action, Play):
                led = state.tables.suit[state.trick[0]] if state.trick else None
                if led is None:
                    assert "leads" in said and int(facts["number"]) == len(state.tricks) + 1
                    checked.add("lead")
                    continue
                if "has no" in said:
                    assert not any(state.tables.suit[c] == led for c in state.hands[seat]), (step, said)
                    checked.add("void")
                assert ("follows" in said) == (state.tables.suit[action.card] == led)
                cards = list(state.trick) + [action.card]
                winner = (state.trick_leader + trick_winner(state.tables, cards)) % 4
                assert facts["winner" if "winner" in facts else "seat"] == "NESW"[winner], (step, said, facts)
                if len(cards) == 4:
                    assert after.tricks[-1].winner == winner and int(facts["points"]) == after.tricks[-1].points
                    checked.add("trick taken")
    assert checked >= {"high bid", "auction end", "lead", "void", "trick taken"}, checked


def test_an_ai_discard_is_told_as_its_size_without_its_plan():
    table = _ai_declares()
    bird = table.rules.bird_name
    shown = table.reasoning_for_learner()
    full, told = next((e.decision, m.decision) for e, m in zip(table.log, shown) if e.decision.kind == "discard")
    who = "NESW"[full.seat]
    assert told.summary(bird) == (f"{who} buries 5 cards: {who} took the nest as declarer and put back 5 cards; "
                                  "which ones is shown when the hand is over.")
    assert "trumps" in full.explanation and "trump" not in told.summary(bird)  # its plan (the trumps kept): not told
    assert table.reasoning_for_learner(reveal=True) == table.log  # the learner's choice: all


def test_public_decisions_refuses_a_log_that_is_not_the_hand():
    """A log entry whose seat is not the seat that acted at its step, or whose step the hand has not reached, is
    refused with a clear error (a kept game is checked the same way when it is read)."""
    table = _ai_declares()
    entry = table.log[0]
    wrong_seat = LoggedDecision(entry.step, Decision(entry.decision.action, (), "x", (entry.decision.seat + 1) % 4,
                                                     entry.decision.kind))
    with pytest.raises(ValueError, match="not the move made there"):
        public_decisions(table.state, LEARNER, [wrong_seat])
    with pytest.raises(ValueError, match="no action at step 999"):
        public_decisions(table.state, LEARNER, [LoggedDecision(999, entry.decision)])
    step, decl = next((e.step, e.decision.seat) for e in table.log if e.decision.kind == "discard")
    assert public_history(table.state)[step] == (decl, Buried(5))  # a discard is public by its size only


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


def test_reasoning_naming_a_hidden_card_without_a_public_sentence_waits_for_the_end():
    """The card-level safety pass: an AI sentence with no ``secret`` (an older or another player's Decision) that
    names a card the reader cannot see is replaced by a sentence saying the reasoning comes at the end of the hand."""
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


def test_every_ai_decision_says_what_its_scores_mean_once_the_hand_is_over():
    """Plain words for the numbers: every AI decision with a choice says what its scores are, in points, tricks or
    percent; the rule-based notes give their units. During the hand there are no scores to explain."""
    table = Table(seed=4)
    while not table.state.is_over:
        table.run_ai()
        assert all(e.decision.score_meaning == "" for e in table.reasoning_for_learner())
        if table.is_learner_turn():
            learner_move(table)
    for d in (e.decision for e in table.reasoning_for_learner()):
        assert d.score_meaning.startswith("Score"), d
        assert re.search(r"points|tricks|percent", d.score_meaning), d.score_meaning
        if d.kind == "play":
            assert all(c.note.endswith("points if kept for later") for c in d.candidates), d.candidates


def test_a_bid_that_ends_the_auction_says_so():
    """The two bids that end an auction (rules.md §1.2): after the other three passed, and the highest bid allowed;
    and a pass that ends it. Each said as it happens, checked against the engine's phase."""
    from rookcore.actions import PASS, bid
    from rookcore.hand import HandState

    rules = get_rules("crowsnest")
    cases = [((PASS, PASS, PASS, bid(70)), "N makes the first bid of the auction; the other three seats have passed, "
                                           "so N wins the auction."),
             ((bid(70), bid(rules.bid_max)), "S outbids E, who had bid 70; no one may bid higher, so S wins the "
                                             "auction."),
             ((bid(70), PASS, bid(75), PASS, PASS), "this pass ends the auction: W wins it at 75.")]
    for calls, said in cases:
        state = HandState.deal(rules, 0, 1)  # N deals: E calls first
        for call in calls:
            state.apply(call)
        assert state.phase is Phase.DISCARD
        last = len(calls) - 1
        assert tell_moves(public_history(state), [last], rules)[last][3] == said
