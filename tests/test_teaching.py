"""Tests for rookcore.teaching: exercises generated and checked by the engine, with feedback naming the rule."""
from __future__ import annotations

import re

import pytest

from rookcore import teaching
from rookcore.cards import Card
from rookcore.hand import trick_tables, trick_winner
from rookcore.rules import VARIANTS, get_rules

RULE_SETS = ["crowsnest", "tournament", "red-1"]
SEEDS = range(6)
# words that show the feedback names the rule behind the answer
RULE_WORDS = {
    "which_cards_legal": ("must follow", "may play any card", "must play"),
    "trick_winner": ("highest trump", "only trump", "colour led"),
    "score_hand": ("made it", "are set"),
    "what_to_bid": ("worth about",),
    "count_points": ("are worth",),
}


def wrong_answer(ex: teaching.Exercise):
    """Some answer the exercise must reject."""
    if ex.kind == "which_cards_legal":
        everything = set(ex.hand)
        return everything if everything != set(ex.answer) else set(list(ex.answer)[1:])
    if ex.kind == "trick_winner":
        return (ex.answer + 1) % 4
    if ex.kind == "score_hand":
        return (ex.answer[0] + 5, ex.answer[1])
    if ex.kind == "what_to_bid":
        return next(c for c in ex.choices if c not in ex.accepted)
    return ex.answer + 5


@pytest.mark.parametrize("variant", RULE_SETS)
@pytest.mark.parametrize("kind", teaching.KINDS)
def test_right_and_wrong_answers(kind, variant):
    rules = get_rules(variant)
    for seed in SEEDS:
        ex = teaching.make_exercise(kind, rules, seed)
        assert ex.kind == kind and ex.rules == rules and ex.prompt
        right = ex.check(ex.answer)
        assert right.correct, right.message
        assert right.message.startswith("Right:")
        assert any(w in right.message for w in RULE_WORDS[kind]), right.message
        wrong = ex.check(wrong_answer(ex))
        assert not wrong.correct
        assert wrong.message.startswith("Wrong:")
        assert any(w in wrong.message for w in RULE_WORDS[kind]), wrong.message


@pytest.mark.parametrize("kind", teaching.KINDS)
def test_every_rule_set_works(kind):
    for rules in VARIANTS.values():
        for seed in range(3):
            ex = teaching.make_exercise(kind, rules, seed)
            assert ex.check(ex.answer).correct


@pytest.mark.parametrize("kind", teaching.KINDS)
def test_same_seed_same_exercise_new_seed_fresh(kind):
    a = teaching.make_exercise(kind, "crowsnest", 4)
    b = teaching.make_exercise(kind, "crowsnest", 4)
    assert a == b and a.prompt == b.prompt
    others = {teaching.make_exercise(kind, "crowsnest", s).prompt for s in range(5, 10)}
    assert len(others | {a.prompt}) > 1


def test_default_rules_are_crowsnest():
    assert teaching.make_exercise("count_points").rules == get_rules("crowsnest")


def test_unknown_kind():
    with pytest.raises(teaching.ExerciseError):
        teaching.make_exercise("nope")


def test_each_kind_s_module_registered_how_its_exercises_are_made_and_graded():
    """rookcore.teaching's kinds table: every kind of KINDS, in that order, its exercises made and graded by the
    functions its own module registered (an exercise of a kind nobody registered could not be checked)."""
    assert list(teaching.GENERATORS) == list(teaching.KINDS)
    for kind in teaching.KINDS:
        entry = teaching.exercise_kind(kind)
        assert entry.name == kind and teaching.GENERATORS[kind] is entry.make
        ex = entry.make("crowsnest", 3)
        assert ex.kind == kind and entry.normalize(ex, ex.answer) in ex.accepted
        assert entry.said(ex, None, True) == ex.explain()
    with pytest.raises(teaching.ExerciseError, match="unknown exercise kind 'nope'"):
        teaching.exercise_kind("nope")
    with pytest.raises(teaching.ExerciseError, match="unknown exercise kind 'nope'"):
        teaching.register(teaching.ExerciseKind("nope", teaching.count_points, *[teaching.exercise_kind(
            "count_points").normalize] * 3))


def test_legal_answer_is_the_engines(tmp_path):
    for variant in RULE_SETS:
        for seed in SEEDS:
            ex = teaching.make_exercise("which_cards_legal", variant, seed)
            assert set(ex.answer) <= set(ex.hand) and ex.trick
            t = trick_tables(ex.rules, ex.trump)
            led = t.suit[ex.trick[0]]
            follow = {c for c in ex.hand if t.suit[c] == led}
            if follow:
                assert follow <= set(ex.answer)
            else:
                assert set(ex.answer) == set(ex.hand)


def test_trick_winner_is_the_engines():
    for variant in RULE_SETS:
        for seed in SEEDS:
            ex = teaching.make_exercise("trick_winner", variant, seed)
            win = (ex.trick_leader + trick_winner(trick_tables(ex.rules, ex.trump), ex.trick)) % 4
            assert ex.answer == win and len(ex.trick) == 4


def test_score_hand_consistent_with_rules():
    for variant in RULE_SETS:
        rules = get_rules(variant)
        for seed in SEEDS:
            ex = teaching.make_exercise("score_hand", rules, seed)
            team = ex.declarer & 1
            took = ex.captured[team]
            assert ex.answer[1 - team] == ex.captured[1 - team]
            if took >= ex.bid:
                assert ex.answer[team] == (ex.bid if rules.make_score == "bid" else took)
            else:
                assert ex.answer[team] == -ex.bid


def test_count_points_matches_card_points():
    for variant in RULE_SETS:
        rules = get_rules(variant)
        for seed in SEEDS:
            ex = teaching.make_exercise("count_points", rules, seed)
            assert ex.answer == sum(rules.card_points[c] for c in ex.cards)


def test_what_to_bid_accepts_a_range():
    ex = teaching.make_exercise("what_to_bid", "crowsnest", 0)
    assert len(ex.accepted) >= 1 and ex.answer in ex.accepted
    assert "estimate" in ex.facts
    for a in ex.accepted:
        assert ex.check(a).correct


def test_answer_forms():
    ex = teaching.make_exercise("trick_winner", "crowsnest", 1)
    seat = ex.answer
    assert ex.check("NESW"[seat]).correct
    assert ex.check(teaching.SEAT_NAMES[seat]).correct
    assert not ex.check("X").correct
    ex = teaching.make_exercise("which_cards_legal", "crowsnest", 0)
    assert ex.check([teaching.short_name(ex.rules, c) for c in ex.answer]).correct
    assert ex.check([int(c) for c in ex.answer]).correct
    ex = teaching.make_exercise("what_to_bid", "crowsnest", 0)
    assert ex.check(str(max(a for a in ex.accepted if a != "pass"))).correct if any(
        a != "pass" for a in ex.accepted) else ex.check("Pass").correct
    assert not ex.check(73).correct  # not a multiple of the step: explained, not raised
    ex = teaching.make_exercise("count_points", "crowsnest", 0)
    assert ex.check(str(ex.answer)).correct
    assert not ex.check("lots").correct


# ----- the rules.md worked examples, as explanations
def test_spec_crow_lowest_trump():
    r = get_rules("crowsnest")
    cards = [Card.parse(x) for x in ("R14", "R5", "CROW", "G5")]
    text = teaching.trick_reason(r, "G", 0, cards)
    assert "G5 of West" in text and "lowest trump" in text
    text = teaching.trick_reason(r, "G", 0, cards[:3] + [Card.parse("R6")])
    assert "so South wins" in text and "even the lowest trump" in text


def test_spec_tournament_rook_wins():
    r = get_rules("tournament")
    cards = [Card.parse(x) for x in ("R14", "R5", "ROOK", "G5")]
    assert "the Rook of South" in teaching.trick_reason(r, "G", 0, cards)


def test_spec_crow_any_time_on_red_lead():
    r = get_rules("crowsnest")
    text = teaching.legal_reason(r, "G", 3, [Card.parse("R9"), Card.bird(), Card.parse("Y5")], [Card.parse("R14")])
    assert "West holds a red card (R9), so West must follow red" in text
    assert "the Crow may also be played at any time in CrowsNest" in text


def test_spec_bird_only_trump():
    r = get_rules("crowsnest")
    text = teaching.legal_reason(r, "G", 3, [Card.parse("R9"), Card.bird()], [Card.parse("G14")])
    assert "only trump" in text and "must play it" in text


def test_spec_red_one_cannot_follow_red():
    r = get_rules("red-1")
    text = teaching.legal_reason(r, "G", 3, [Card.parse("R9"), Card.parse("R1")], [Card.parse("R14")])
    assert "never a red card" in text


def test_spec_scores():
    assert "+80" in teaching.score_reason(get_rules("crowsnest"), 80, 0, (95, 25), (80, 25))
    assert "everything" in teaching.score_reason(get_rules("tournament"), 80, 0, (95, 25), (95, 25))
    text = teaching.score_reason(get_rules("crowsnest"), 80, 1, (45, 75), (45, -80))
    assert "set" in text and "-80" in text and "+45" in text


def test_examples():
    d = teaching.example_deal("crowsnest", 3)
    assert sum(len(h) for h in d.hands) + len(d.nest) == len(d.rules.deck)
    assert sum(d.points) + d.nest_points == d.rules.counter_total
    for dealer in "NESW":  # the seat left of the dealer calls first (rules.md §1.2)
        e = teaching.example_deal("crowsnest", 3, dealer)
        assert e.first_caller == ("NESW".index(dealer) + 1) % 4
    t = teaching.example_trick("crowsnest", 2)
    assert t.winner in range(4) and t.reason
    h = teaching.example_hand("crowsnest", 1)
    assert len(h.tricks) == h.rules.hand_size and len(h.score) == 2
    steps = teaching.ai_walkthrough("crowsnest", 0, plays=4)
    assert steps and all(s["explanation"] for s in steps)
    assert sum(s["kind"] == "play" for s in steps) == 4


@pytest.mark.parametrize("variant", RULE_SETS)
def test_example_legal_is_its_own_stream(variant):
    """A worked "which cards" example shows the category asked for, its legal cards are the engine's, and it is not
    the exercise of the same seed (lesson 4's first worked example was exercise #1, reached by "New exercise")."""
    rules = get_rules(variant)
    exercises = {(e.trump, e.trick_leader, e.trick, e.seat, e.hand)
                 for e in (teaching.which_cards_legal(rules, s) for s in range(30))}
    for kind in teaching.LEGAL_KINDS:
        for seed in range(5):
            ex = teaching.example_legal(rules, seed, kind)
            assert ex.category == kind or kind == "bird" and not rules.bird, (kind, seed, ex.category)
            assert ex.legal <= set(ex.hand) and ex.trick and ex.reason.endswith(".")
            t = trick_tables(rules, ex.trump)
            follow = {c for c in ex.hand if t.suit[c] == t.suit[ex.trick[0]]}
            assert follow <= ex.legal if follow else ex.legal == set(ex.hand)
            assert (ex.trump, ex.trick_leader, ex.trick, ex.seat, ex.hand) not in exercises


def test_example_legal_unknown_kind():
    with pytest.raises(teaching.ExerciseError, match="unknown example kind"):
        teaching.example_legal("crowsnest", 0, "nope")


@pytest.mark.parametrize("text, value", [("85", 85), (" -120 ", -120), ("+5", 5), ("0", 0), ("\u221280", -80),
                                         (95, 95)])
def test_parse_points_reads_whole_numbers(text, value):
    assert teaching.parse_points(text) == value


@pytest.mark.parametrize("text", ["", "  ", "abc", "x", "12.5", "1e3", "85 points", "--5", "1_000", "٨٥", None,
                                  True, 12.0])
def test_parse_points_refuses_the_rest(text):
    with pytest.raises(teaching.ExerciseError, match="type a whole number of points, e.g. 85 or -120"):
        teaching.parse_points(text, where="the N–S box")


def test_parse_points_refuses_more_digits_than_any_score():
    """Beyond a dozen digits (and Python's 4,300-digit limit on reading an integer) the message says so, shortly."""
    with pytest.raises(teaching.ExerciseError, match=r"^'99999999999999999999'… \(5,000 characters\) "
                       r"in the Points box has more digits than any number of points here: type a whole number of points, e\.g\. 85$"):
        teaching.parse_points("9" * 5000, where="the Points box", negative=False)
    assert teaching.parse_points("-" + "9" * 11) == -99_999_999_999


def test_number_answers_refuse_text():
    ex = teaching.make_exercise("score_hand", "crowsnest", 0)
    fb = ex.check(("abc", ex.answer[1]))
    assert not fb.correct and "'abc' is not a whole number" in fb.message and "+0" not in fb.message
    assert not ex.check(str(ex.answer[0])).correct  # one string is not the pair of its characters
    assert ex.check(tuple(str(v) for v in ex.answer)).correct
    ex = teaching.make_exercise("count_points", "crowsnest", 0)
    assert not ex.check(float(ex.answer) + 0.5).correct and not ex.check(True).correct


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_worked_tricks_are_of_the_kind_they_are_shown_as(variant):
    """Lesson 5 shows a "plain" trick under "A trick with no trump played": no such trick may hold a trump (a trick
    led in trump with a discard on it used to count as plain)."""
    from rookcore.hand import trick_tables
    from rookcore.teaching import example_trick

    rules = get_rules(variant)
    for seed in range(25):
        for kind in ("plain", "simple", "trumped"):
            ex = example_trick(rules, seed, kind)
            t = trick_tables(rules, ex.trump)
            led = t.suit[ex.cards[0]]
            trumps = [c for c in ex.cards if t.suit[c] == t.trump]
            if kind in ("plain", "simple"):
                assert not trumps, (kind, seed, ex.cards, ex.trump)
                assert any(t.suit[c] != led for c in ex.cards) == (kind == "plain")
            else:
                assert led != t.trump and trumps, (seed, ex.cards, ex.trump)


def test_no_seat_and_no_card_are_no_answer():
    seat_ex = teaching.make_exercise("trick_winner", get_rules(), 2)
    cards_ex = teaching.make_exercise("which_cards_legal", get_rules(), 2)
    assert "Pick a seat first" in seat_ex.missing(None) and seat_ex.missing(0) == ""
    assert "Select the cards" in cards_ex.missing(set()) and cards_ex.missing(set(cards_ex.answer)) == ""


def test_parse_points_for_counts_refuses_negatives():
    """Points counted are never negative: the hint for a count says "e.g. 85" (not "-120"), and a negative count is
    refused with the reason; a score may still be negative."""
    assert teaching.parse_points("85", negative=False) == 85 and teaching.parse_points("0", negative=False) == 0
    for text in ("-5", "\u221210", -120):
        with pytest.raises(teaching.ExerciseError, match="points captured are never negative") as e:
            teaching.parse_points(text, where="the Points box", negative=False)
        assert str(e.value).endswith(teaching.COUNT_HINT) and "-120" not in teaching.COUNT_HINT
    with pytest.raises(teaching.ExerciseError, match=r"not a whole number: type a whole number of points, e\.g\. 85$"):
        teaching.parse_points("abc", negative=False)
    count, score = (teaching.make_exercise(k, "crowsnest", 0) for k in ("count_points", "score_hand"))
    assert count.points_hint == teaching.COUNT_HINT and score.points_hint == teaching.POINTS_HINT
    assert score.read_points("-120") == -120
    fb = count.check(-5)
    assert not fb.correct and "never negative" in fb.message


# ----- what_to_bid: defensible grading, feedback that agrees with itself and with the AI
LESSON_2_HAND = "CROW R6 R9 Y5 Y8 Y11 Y13 G9 B6".split()  # no 14 or 10; 25 points of counters


def test_the_weak_hand_of_lesson_2_may_pass():
    """Reported: lesson 2's exercise #0 (CrowsNest, seed 0: North, first to call, holding the hand above) graded
    Pass "✘ Wrong: passing gives away a hand worth about 90 points … a top bid of 80 to 95 is sensible" and then
    quoted the AI "… so N bids 70". A hand like this (an estimate that a poor deal, 20 points worse, would bring
    down to the lowest bid) may pass or bid modestly; the feedback gives one range, which holds the AI's bidding."""
    rules = get_rules("crowsnest")
    # Where it came from: exercise #0 wanted a hand to pass, found none in 20 deals (the old grading accepted a pass
    # almost never) and kept the 20th deal it drew, this one. It draws the same deals now (and keeps a clear one).
    rng = teaching._rng("what_to_bid", 0, rules)
    assert rng.random() >= 0.6  # a hand to pass wanted
    deals = [teaching.HandState.deal(rules, rng.randrange(4), rng.getrandbits(32)) for _ in range(20)]
    reported = deals[-1]
    assert reported.to_act == 0
    assert sorted(reported.hands[0]) == sorted(teaching.parse_card_answer(rules, c) for c in LESSON_2_HAND)

    ex = teaching.what_to_bid_with(LESSON_2_HAND, rules, seat="N")
    assert ex.seat == 0 and ex.facts["category"] == "either"
    fb = ex.check("pass")
    assert fb.correct and fb.message.startswith("Right:"), fb.message
    assert "and so is a pass" in fb.message and "gives away" not in fb.message
    assert ex.check(70).correct and not ex.check(ex.rules.bid_max).correct
    top = int(re.search(r"a top bid of (\d+) to (\d+)", fb.message).group(2))
    assert top == max(b for b in ex.accepted if b != "pass")
    ai = re.search(r"The AI in North's seat opens with (\d+) and would go on up to (\d+)", fb.message)
    assert ai, fb.message
    assert ex.is_correct(int(ai.group(1))) and ex.is_correct(int(ai.group(2))) and int(ai.group(2)) <= top
    assert f"so N bids {ai.group(1)}" in fb.message  # the AI's own words name its opening bid


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bid_grading_agrees_with_the_feedback_and_the_ai(variant):
    """For every exercise: the AI's own call in the seat (pass, or the highest bid it would make) is accepted; the
    range the feedback names is the accepted bids; Pass is wrong only for a clearly strong hand, and the feedback
    says why."""
    rules = get_rules(variant)
    for seed in range(12):
        ex = teaching.make_exercise("what_to_bid", rules, seed)
        f = ex.facts
        assert f["ai"], "the AI did not answer"
        ai = "pass" if f["ai_top"] is None else f["ai_top"]
        assert ai in ex.accepted and ex.answer in ex.accepted, (seed, f)
        bids = sorted(b for b in ex.accepted if b != "pass")
        text = ex.check(ex.answer).message
        if bids:
            named = re.search(r"a top bid of (\d+)(?: to (\d+))?", text)
            assert named and (int(named.group(1)), int(named.group(2) or named.group(1))) == (bids[0], bids[-1])
            assert bids == list(range(bids[0], bids[-1] + 1, rules.bid_step))
        assert ("pass" in ex.accepted) == (f["category"] != "bid")
        if f["category"] == "bid":
            assert "passing gives the contract away" in ex.check("pass").message
            assert f["estimate"] - f["spread"] >= rules.bid_min + rules.bid_step
        else:
            assert ex.check("pass").correct
        for b in rules.legal_bids(None):
            assert ex.is_correct(b) == (b in bids)
            if b > f["estimate"] + rules.bid_step:
                assert "more than this hand is likely to take" in ex.check(b).message


def test_bid_exercises_show_clear_hands():
    """The exercise deals hands whose answer is clear: a strong hand (Pass is wrong) or a weak one (the AI passes)."""
    seen = {teaching.make_exercise("what_to_bid", "crowsnest", s).facts["category"] for s in range(30)}
    assert seen == {"bid", "pass"}
    for s in range(30):
        ex = teaching.make_exercise("what_to_bid", "crowsnest", s)
        if ex.facts["category"] == "pass":
            assert ex.facts["ai_top"] is None and ex.answer == "pass"


def test_what_to_bid_with_refuses_what_is_not_a_hand():
    with pytest.raises(teaching.ExerciseError, match="not a hand"):
        teaching.what_to_bid_with(LESSON_2_HAND[:-1], "crowsnest")
    with pytest.raises(teaching.ExerciseError, match="not a seat"):
        teaching.what_to_bid_with(LESSON_2_HAND, "crowsnest", seat="X")


# ----- worked tricks (rules.md §4), decided by the engine
def test_worked_trick_spec_examples():
    crow = teaching.worked_trick("crowsnest", "G", ["R14", "R5", "Crow", "G5"])
    assert crow.winner == 3 and "G5 of West" in crow.reason and "lowest trump" in crow.reason
    assert teaching.worked_trick("crowsnest", "G", ["R14", "R5", "Crow", "R6"]).winner == 2
    rook = teaching.worked_trick("tournament", "Green", ["R14", "R5", "Rook", "G5"])
    assert rook.winner == 2 and "the Rook of South" in rook.reason and rook.points == 40
    top = teaching.worked_trick("tournament", "G", ["G14", "G10", "Rook", "G6"], leader="E")
    assert top.leader == 1 and top.winner == 3 and "highest trump" in top.reason
    for args in [("crowsnest", "Pink", ["R14", "R5", "Crow", "G5"]), ("crowsnest", "G", ["R14", "R5", "Crow"]),
                 ("crowsnest", "G", ["R14", "R14", "Crow", "G5"]), ("crowsnest", "G", ["R1", "R5", "Crow", "G5"])]:
        with pytest.raises(teaching.ExerciseError):
            teaching.worked_trick(*args)


def test_one_high_rook_follows_suit_in_plain_words():
    """1-High: the Rook is the lowest trump and follows suit like any trump (rules.md §2-§3), not "it may not be
    played at any time" (read as "never")."""
    r = get_rules("1-high-partnership")
    text = teaching.legal_reason(r, "G", 3, [Card.parse("R9"), Card.bird(), Card.parse("Y5")], [Card.parse("R14")])
    assert "at any time" not in text
    assert "the Rook is an ordinary trump in 1-High Partnership Rook (the lowest trump)" in text
    assert "may be played on a red lead only by a player with no red card" in text


# ----- a wrong answer's rule, apart from the solution (issue 24 item 7: the learner tries again first)
def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def _gives_away(ex: teaching.Exercise, wrong, rule: str) -> list[str]:
    """What in ``rule`` (the rule the answer ``wrong`` broke) would give the right answer away."""
    r = ex.rules
    allowed = _numbers(r.title)
    found = []
    if ex.kind == "which_cards_legal":  # only the cards a rule is about (the bird, the Red 1) are named
        found += [c.notation() for c in ex.hand
                  if not r.is_trump_card(c) and re.search(rf"\b{re.escape(teaching.short_name(r, c))}\b", rule)]
        listed = f"may play {teaching._names(r, ex.answer)}"
        found += [listed] if listed in rule else []
    elif ex.kind == "trick_winner":
        win = dict(ex.trick_seats)[ex.answer]
        found += [teaching.SEAT_NAMES[ex.answer]] if teaching.SEAT_NAMES[ex.answer] in rule else []
        if not r.is_trump_card(win) and re.search(rf"\b{re.escape(teaching.short_name(r, win))}\b", rule):
            found.append(win.notation())
    elif ex.kind == "score_hand":
        found += sorted(_numbers(rule) - allowed)
    elif ex.kind == "what_to_bid":
        found += sorted(_numbers(rule) - allowed - {str(wrong)})
        found += ["worth about"] if "worth about" in rule else []
    else:
        counters = {str(p) for _n, p in teaching.card_points_table(r)}
        found += [str(ex.answer)] if str(ex.answer) in _numbers(rule) - counters - {str(wrong)} else []
        found += ["Here:"] if "Here:" in rule else []
    return found


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("kind", teaching.KINDS)
def test_a_wrong_answer_names_the_rule_it_broke_without_the_answer(kind, variant):
    """Feedback.rule: the rule a wrong answer broke, in plain words, apart from the solution (Feedback.solution, the
    explanation naming the right answer); a right answer broke none."""
    for seed in range(8):
        ex = teaching.make_exercise(kind, variant, seed)
        wrong = wrong_answer(ex)
        fb = ex.check(wrong)
        assert not fb.correct and fb.message.startswith("Wrong:")  # the message is as it was
        assert fb.rule and not fb.rule[0].islower() and fb.rule.endswith("."), fb.rule
        assert fb.rule == ex.rule_broken(wrong)
        assert fb.solution == ex.explain() and fb.solution in fb.message
        assert not _gives_away(ex, wrong, fb.rule), (seed, wrong, fb.rule)
        right = ex.check(ex.answer)
        assert right.correct and right.rule == "" and right.solution == ex.explain()
        assert ex.rule_broken(ex.answer) == ""


def test_feedback_keeps_its_two_field_form():
    fb = teaching.Feedback(False, "Wrong: x")
    assert (fb.correct, fb.message, fb.rule, fb.solution) == (False, "Wrong: x", "", "")


def test_an_unreadable_answer_says_what_is_expected():
    ex = teaching.make_exercise("trick_winner", "crowsnest", 0)
    fb = ex.check("Q")
    assert not fb.correct and "is not a seat" in fb.rule and teaching.SEAT_NAMES[ex.answer] not in fb.rule
    with pytest.raises(teaching.ExerciseError, match="is not a seat"):
        ex.rule_broken("Q")


def _find_legal(variant, want):
    for seed in range(200):
        ex = teaching.make_exercise("which_cards_legal", variant, seed)
        if want(ex):
            return ex
    raise AssertionError(f"no such exercise in {variant}")


def test_rule_for_a_left_out_bird_played_any_time():
    """rules.md §3: in CrowsNest the Crow may be played on any trick, even by a player who could follow."""
    bird = Card.bird()
    ex = _find_legal("crowsnest", lambda e: bird in e.answer and len(e.answer) > 1
                     and any(trick_tables(e.rules, e.trump).suit[c] == trick_tables(e.rules, e.trump).suit[e.trick[0]]
                             for c in e.hand if c != bird))
    rule = ex.rule_broken(ex.answer - {bird})
    assert rule == "You left out 1 card that may be played: in CrowsNest the Crow may be played at any time, even " \
                   "by a player who could follow.", rule


def test_rule_for_a_bird_that_cannot_follow():
    """rules.md §3: in 1-High the Rook is an ordinary trump; it may not be played on a colour lead by a player who
    holds that colour."""
    bird = Card.bird()
    ex = _find_legal("1-high-partnership", lambda e: bird in e.hand and bird not in e.answer)
    rule = ex.rule_broken(ex.answer | {bird})
    assert rule.startswith("1 card you picked may not be played: "), rule
    assert "the Rook is a trump, not a" in rule and "only by a player with no" in rule, rule


def test_rule_for_a_seat_whose_card_cannot_win():
    """rules.md §1.5: a card neither of the colour led nor trump never wins; a lower card of the colour led loses."""
    for seed in range(100):
        ex = teaching.make_exercise("trick_winner", "crowsnest", seed)
        t = trick_tables(ex.rules, ex.trump)
        led = t.suit[ex.trick[0]]
        for seat, card in ex.trick_seats:
            if seat == ex.answer:
                continue
            rule = ex.rule_broken(seat)
            assert rule.startswith(f"{teaching.SEAT_NAMES[seat]}'s {teaching.short_name(ex.rules, card)} "), rule
            if t.suit[card] not in (led, t.trump):
                assert "is neither the colour led" in rule and "cannot win the trick" in rule, rule
            elif t.trump_power[card]:
                assert "a higher trump was played" in rule, rule
            else:
                assert "follows the colour led" in rule, rule


def test_rule_for_a_score_names_the_team_that_is_off():
    ex = teaching.make_exercise("score_hand", "crowsnest", 0)
    team = ex.declarer & 1
    dec, dfn = teaching.TEAM_NAMES[team], teaching.TEAM_NAMES[1 - team]
    both_off = (ex.answer[0] + 10, ex.answer[1] + 10)
    rule = ex.rule_broken(both_off)
    assert f"{dec}'s score is off" in rule and "set and scores minus its bid" in rule
    assert f"{dfn}'s score is off: the defenders always score the points they captured" in rule


def test_rule_for_a_count_says_too_high_or_too_low():
    ex = teaching.make_exercise("count_points", "crowsnest", 0)
    assert ex.rule_broken(ex.answer + 5).startswith(f"{ex.answer + 5} is more than these cards hold: in CrowsNest")
    assert ex.rule_broken(ex.answer + 5).endswith("Add up only the counters among them.")
    if ex.answer >= 5:
        assert ex.rule_broken(ex.answer - 5).startswith(f"{ex.answer - 5} is less than these cards hold")
