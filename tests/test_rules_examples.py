"""Every worked example of rules.md §4, plus rule-set table facts of §2."""
import pytest

from rookcore import Card, HandState, IllegalAction, Play, get_rules
from rookcore.game import game_winner
from rookcore.hand import trick_tables, trick_winner
from rookcore.rules import VARIANTS, RulesError

from helpers import deal_with, to_play


def winner_of(variant, trump, cards):
    rules = get_rules(variant)
    return cards[trick_winner(trick_tables(rules, trump), [rules.parse_card(c) for c in cards])]


def test_crowsnest_trump_five_beats_crow():
    assert winner_of("crowsnest", "G", ["R14", "R5", "CROW", "G5"]) == "G5"


def test_crowsnest_crow_wins_without_trump_five():
    assert winner_of("crowsnest", "G", ["R14", "R5", "CROW", "R10"]) == "CROW"


def test_tournament_rook_wins():
    assert winner_of("tournament", "G", ["R14", "R5", "ROOK", "G5"]) == "ROOK"
    assert winner_of("tournament", "G", ["G14", "ROOK", "G13", "G12"]) == "ROOK"


def test_crowsnest_r9_and_crow_on_red_lead_may_play_either():
    rules = get_rules("crowsnest")
    # dealer W, so N leads; E holds R9 and the Crow
    state = to_play(deal_with(rules, {0: ["R14"], 1: ["R9", "CROW"]}, dealer=3), "G")
    state.apply(Play(rules.parse_card("R14")))
    legal = state.legal_cards()
    assert Card.parse("R9") in legal and Card.bird() in legal
    assert all(c.colour == "R" or c.is_bird for c in legal)


def test_trump_led_bird_only_trump_must_be_played():
    for variant in ("crowsnest", "tournament", "buckeye", "red-1"):
        rules = get_rules(variant)
        others = [c for c in ("R5", "R6", "R7", "Y5", "Y6", "Y7", "B5", "B6") if True]
        state = to_play(deal_with(rules, {0: ["G14"], 1: ["CROW"] + others}, dealer=3), "G")
        state.apply(Play(rules.parse_card("G14")))
        assert state.legal_cards() == [Card.bird()], variant


def test_bird_led_every_trump_holder_must_play_trump():
    rules = get_rules("crowsnest")
    state = to_play(deal_with(rules, {0: ["CROW"], 1: ["G5", "R14"], 2: ["G6", "Y14"], 3: ["G7", "B14"]},
                              dealer=3), "G")
    state.apply(Play(Card.bird()))
    for seat in (1, 2, 3):
        legal = state.legal_cards()
        assert legal and all(state.card_suit(c) == "G" for c in legal), seat
        state.apply(Play(legal[0]))


def test_illegal_card_names_the_rule_and_changes_nothing():
    rules = get_rules("crowsnest")
    state = to_play(deal_with(rules, {0: ["R14"], 1: ["R9", "G5"]}, dealer=3), "Y")
    state.apply(Play(rules.parse_card("R14")))
    before = (state.step, [set(h) for h in state.hands], list(state.trick))
    with pytest.raises(IllegalAction, match=r"E cannot play G5: must follow R \(holds R9"):
        state.apply(Play(Card.parse("G5")))
    assert before == (state.step, [set(h) for h in state.hands], list(state.trick))


def _scored(variant, bid, declarer_points):
    """Score a hand where the declaring team captured ``declarer_points`` (via the engine's scorer)."""
    rules = get_rules(variant)
    state = HandState.deal(rules, 3, 1)
    state.apply(__import__("rookcore").bid(bid))
    for _ in range(3):
        state.apply(__import__("rookcore").PASS)
    # force the totals, as the count of §1.6 would leave them, then score per §1.7
    state.captured = [declarer_points, rules.counter_total - declarer_points]
    state.phase = __import__("rookcore").Phase.DONE
    return state.score()


def test_bid_made_scores_bid_in_crowsnest_captured_in_tournament():
    assert _scored("crowsnest", 80, 95) == (80, 25)
    assert _scored("tournament", 80, 95) == (95, 25)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_set_scores_minus_bid_and_defenders_their_points(variant):
    rules = get_rules(variant)
    bid = rules.bid_min
    ns, ew = _scored(variant, bid, bid - 5)
    assert ns == -bid and ew == rules.counter_total - (bid - 5)


def test_nest_goes_to_last_trick_team():
    rules = get_rules("crowsnest")
    # the nest holds 15 points (R10, R5) and no other counters
    state = deal_with(rules, {}, dealer=3, nest=["R10", "R5", "Y6", "Y7", "Y8"], seed=4)
    to_play(state, "G")
    import random
    rng = random.Random(0)
    while not state.is_over:
        state.apply(Play(rng.choice(state.legal_cards())))
    last = state.tricks[-1].winner % 2
    trick_points = [0, 0]
    for t in state.tricks:
        trick_points[t.winner % 2] += t.points
    assert state.captured[last] == trick_points[last] + 15
    assert state.captured[1 - last] == trick_points[1 - last]


def test_buckeye_and_red_one_ranks():
    assert winner_of("buckeye", "B", ["B14", "B1", "B13", "B12"]) == "B1"
    assert winner_of("buckeye", "B", ["B1", "ROOK", "B13", "B12"]) == "ROOK"
    assert winner_of("red-1", "G", ["ROOK", "R1", "G14", "G13"]) == "R1"


def test_red_one_is_never_red():
    rules = get_rules("red-1")
    state = to_play(deal_with(rules, {0: ["R14"], 1: ["R1", "R9"]}, dealer=3), "G")
    state.apply(Play(rules.parse_card("R14")))
    legal = state.legal_cards()
    assert Card.parse("R9") in legal and Card.parse("R1") not in legal
    assert all(c.colour == "R" and c.number != 1 for c in legal)


def test_dixie_fourteen_beats_thirteen_and_counters():
    assert winner_of("dixie", "B", ["R13", "R14", "R5", "R6"]) == "R14"
    rules = get_rules("dixie")
    assert rules.card_points[Card.parse("R13")] == 10 and rules.card_points[Card.parse("R14")] == 0
    assert rules.majority_bonus == 20


def test_game_end():
    assert game_winner((310, 305), 300) == 0
    assert game_winner((305, 305), 300) is None
    assert game_winner((295, 330), 300) == 1
    assert game_winner((250, 290), 300) is None


def test_all_pass_same_dealer_scores_unchanged():
    from rookcore import PASS
    from rookcore.game import Game
    game = Game(get_rules(), dealer="E", seed=3)
    for _ in range(4):
        game.current.apply(PASS)
    assert game.current.passed_out
    game.next_hand()
    assert game.dealer == 1 and game.scores == [0, 0]


@pytest.mark.parametrize("variant,cards,hand,nest,points,low,high", [
    ("crowsnest", 41, 9, 5, 120, 70, 120), ("tournament", 41, 9, 5, 120, 70, 120),
    ("partnership", 56, 14, 0, 120, 70, 120), ("1-high-partnership", 57, 13, 5, 200, 100, 200),
    ("red-1", 42, 9, 6, 150, 70, 150), ("buckeye", 45, 10, 5, 180, 100, 180), ("dixie", 56, 13, 4, 120, 70, 120)])
def test_rule_set_table(variant, cards, hand, nest, points, low, high):
    r = get_rules(variant)
    assert (len(r.deck), r.hand_size, r.nest_size, r.points_per_hand, r.bid_min, r.bid_max) == \
        (cards, hand, nest, points, low, high)


@pytest.mark.parametrize("variant,deck,points", [
    ("crowsnest", "41 cards: numbers 5–14 in four colours and the Crow", "120"),
    ("partnership", "56 cards: numbers 1–14 in four colours", "120 (100 on a 7–7 split of the tricks)"),
    ("buckeye", "45 cards: numbers 1, 5–14 in four colours and the Rook", "180"),
    ("red-1", "42 cards: numbers 5–14 in four colours, the Red 1 and the Rook", "150"),
    ("dixie", "56 cards: numbers 1–14 in four colours", "120")])
def test_rules_tab_deck_and_points_as_in_the_table(variant, deck, points):
    # rules.md §2: ranks per colour (Buckeye 1, 5–14) and points per hand (Partnership 100 on a 7–7 split)
    facts = dict(get_rules(variant).describe())
    assert (facts["Deck"], facts["Points per hand"]) == (deck, points)


def test_no_bird_option():
    for variant in ("crowsnest", "tournament"):
        r = get_rules(variant, {"bird": False})
        assert (len(r.deck), r.nest_size, r.points_per_hand, r.bid_max) == (40, 4, 100, 100)


@pytest.mark.parametrize("variant", ["partnership", "1-high-partnership", "red-1", "buckeye", "dixie"])
def test_no_bird_option_only_in_crowsnest_and_tournament(variant):
    """rules.md §2: "in CrowsNest and Tournament, play without the bird" — nowhere else."""
    for value in (False, True):
        with pytest.raises(RulesError, match="only CrowsNest and Tournament"):
            get_rules(variant, {"bird": value})


@pytest.mark.parametrize("action", [__import__("rookcore").Bid(70.0), __import__("rookcore").Bid("70"),
                                    Play(3), Play("R5")], ids=["float-bid", "text-bid", "no-such-card-id", "text-card"])
def test_wrong_types_are_illegal_actions_and_change_nothing(action):
    rules = get_rules()
    state = HandState.deal(rules, 0, 42)
    if isinstance(action, Play):
        to_play(state, "G")
    before = (state.step, state.phase, [set(h) for h in state.hands], state.high_bid)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert before == (state.step, state.phase, [set(h) for h in state.hands], state.high_bid)


def test_a_deal_with_a_card_listed_twice_is_refused():
    rules = get_rules()
    st = HandState.deal(rules, 0, 7)
    hands = [sorted(h) for h in st.dealt]
    hands[0] = hands[0][:-1] + [hands[0][0]]  # 9 entries, 8 different cards
    with pytest.raises(ValueError, match="listed twice in N's hand"):
        HandState(rules, 0, hands, sorted(st.dealt_nest))


def test_a_discard_with_a_card_listed_twice_is_refused():
    from rookcore import Discard
    card = Card.parse("R5")
    with pytest.raises(ValueError, match="lists R5 twice"):
        Discard([card, Card.parse("G5"), card])


def test_first_repeat_and_deal_errors_name_the_part():
    from rookcore.cards import first_repeat
    from rookcore.hand import DealError
    assert first_repeat([3, 1, 4, 1, 5]) == 3 and first_repeat([]) is None and first_repeat("abc") is None
    rules = get_rules()
    st = HandState.deal(rules, 0, 7)
    nest = sorted(st.dealt_nest)
    with pytest.raises(DealError) as info:
        HandState(rules, 0, [sorted(h) for h in st.dealt], nest[:-1] + [nest[0]])
    assert info.value.part == "nest" and "listed twice in the nest" in str(info.value)
    with pytest.raises(DealError) as info:
        HandState(rules, 0, [sorted(h) for h in st.dealt], nest[:-1])
    assert info.value.part == "nest"


def test_same_game_compares_the_options_too():
    assert get_rules("crowsnest", {"target": 500}).same_game(get_rules("crowsnest", {"target": 500}))
    assert not get_rules().same_game(get_rules("crowsnest", {"target": 500}))
    assert not get_rules().same_game(get_rules("tournament"))
