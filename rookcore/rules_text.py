"""The rules in plain language, in the learner's language: the paragraphs of the Rules tab, the options in words and
the facts table (rules.md §1–§3; issue 26).

``PROSE``: (heading, paragraph) sections per rule set, keyed by variant — CrowsNest in full, the others say what
differs. The English text is marked with ``N_`` (the message ids of the ``rook`` catalogs) and translated where it
is shown (`prose`). `option_phrases` and `rules_rows` return text in the active language (`rookcore.i18n`).
`widgets.rules_view` draws them as HTML.
"""
from __future__ import annotations

from .i18n import N_, _
from .rules import FIRST_LEAD_DECLARER, Rules
from .words import bird_name

PROSE: dict[str, list[tuple[str, str]]] = {
    "crowsnest": [
        (N_("The players"),
         N_("Four players in two teams: you (South) and your partner North against East and West. Partners "
            "sit opposite each other and play goes clockwise: North, East, South, West.")),
        (N_("The deal"),
         N_("The deck has 41 cards: the numbers 5 to 14 in four colours — Red, Yellow, Green and Black — and "
            "one special card, the Crow. The dealer gives 9 cards to each player and puts 5 cards face down "
            "in the middle: the nest. No colour outranks another.")),
        (N_("The auction"),
         N_("Players bid for the right to name trump. The player left of the dealer calls first, then the "
            "calls go clockwise. A call is a bid or a pass. The first bid is at least 70; every later bid "
            "must be higher, in steps of 5, up to 120. You may jump (bid 90 over 75) and you may outbid your "
            "partner. A pass is final: once you pass you make no more calls in this auction. When three "
            "players have passed, the last bidder is the declarer. A bid of 120 ends the auction at once. If "
            "all four pass, the same dealer deals again.")),
        (N_("The nest and the discard"),
         N_("The declarer picks up the 5 nest cards, then puts back any 5 cards face down — counters, trump, "
            "even the Crow may go back. Only the declarer sees the nest.")),
        (N_("Trump"),
         N_("After the discard the declarer names one of the four colours as trump. There is no no-trump. The "
            "Crow always belongs to the trump suit, whatever colour is named.")),
        (N_("Playing a trick"),
         N_("The player left of the dealer leads the first trick. Each player in turn plays one card. You "
            "must follow the colour that was led if you can; if you cannot, you may play any card, including "
            "a trump. The highest trump wins the trick; if no trump was played, the highest card of the "
            "colour led wins. The winner leads the next trick.")),
        (N_("The Crow"),
         N_("The Crow is the lowest trump: any other trump beats it, but it beats every card that is not "
            "trump. It may be played on any trick, even when you could follow the colour led. Leading the "
            "Crow is leading trump, so the others must play trump if they can. When trump is led and the Crow "
            "is your only trump, you must play it.")),
        (N_("Counting"),
         N_("Only some cards count: each 5 is worth 5 points, each 10 and each 14 is worth 10, and the Crow "
            "is worth 20 — 120 points in all. Each team counts the counters in the tricks it took. The last "
            "trick takes the nest: the team that wins the last trick also gets the counters in the nest.")),
        (N_("Scoring"),
         N_("The defenders always score what they captured. If the declarer's team captured at least its bid, "
            "it made the bid — and a made bid scores the bid: exactly the bid, not the points captured. Bid "
            "80 and capture 95: the declarers score +80, the defenders +25. If the declarers capture less "
            "than the bid they are set: they score minus the bid (capture 75 on a bid of 80: −80, and the "
            "defenders +45). Scores may go negative.")),
        (N_("The game"),
         N_("The deal passes to the left after every scored hand. The game is to 300: a team at or above 300 "
            "after a hand wins. If both teams reach it in the same hand, the higher total wins; if the totals "
            "are equal, play another hand.")),
        (N_("Without the Crow (option)"),
         N_("Leave the Crow out to play with 40 cards: a nest of 4, 100 points per hand and bids from 70 to "
            "100.")),
    ],
    "tournament": [
        (N_("How it differs from CrowsNest"),
         N_("Tournament Rook, also called Kentucky Discard, is the rule set in the official Parker/Hasbro "
            "booklet. The deal, the auction, the nest and the play are the same as in CrowsNest (41 cards, 9 "
            "each, a nest of 5, bids 70 to 120).")),
        (N_("The Rook"),
         N_("The bird card is called the Rook and it is the highest trump: it takes any trick it is played "
            "to. Like the Crow it may be played on any trick and is worth 20.")),
        (N_("Scoring"),
         N_("A made bid scores all the points the declarers captured, not just the bid: bid 80 and capture 95 "
            "scores +95. A set still scores minus the bid.")),
    ],
    "partnership": [
        (N_("How it differs"),
         N_("Partnership Rook uses all 56 numbered cards (1 to 14 in four colours), with no bird and no nest: "
            "each player gets 14 cards. In each colour 14 is high and 1 is low. The declarer names trump "
            "straight after the auction.")),
        (N_("Counting and scoring"),
         N_("The 5s, 10s and 14s count as usual (100 points); the team that takes more tricks gets a bonus of "
            "20, so a hand is worth 120 — or 100 when the tricks split 7–7. Bids run from 70 to 120 and a "
            "made bid scores all points captured.")),
    ],
    "1-high-partnership": [
        (N_("How it differs"),
         N_("57 cards: 1 to 14 in four colours and the Rook; 13 cards each and a nest of 5. The 1 is the "
            "highest card of every colour (1, 14, 13, … 2).")),
        (N_("The Rook"),
         N_("The Rook is the lowest trump and, by default, an ordinary trump card: like any trump you may "
            "play it when trump is led or when you cannot follow the colour led, but not otherwise. An option "
            "lets it be played on any trick, as the Crow is in CrowsNest.")),
        (N_("Counting and scoring"),
         N_("1s are worth 15, 14s and 10s 10, 5s 5 and the Rook 20; the team with more tricks gets 20 more — "
            "200 points per hand. Bids run from 100 to 200. A made bid scores all points captured. Some "
            "players play to 500 (set the target).")),
    ],
    "red-1": [
        (N_("How it differs"),
         N_("42 cards: 5 to 14 in four colours, the Red 1 and the Rook; 9 cards each and a nest of 6.")),
        (N_("The Red 1"),
         N_("The Red 1 is the top trump, whatever colour is trump, and it is never a red card: it cannot "
            "follow a red lead unless red is trump. By default it plays like a normal trump (an option lets "
            "it be played any time). It is worth 30.")),
        (N_("The Rook"),
         N_("The Rook is the second trump, under the Red 1 only, may be played on any trick and is worth 20.")),
        (N_("Counting and scoring"),
         N_("With the Red 1 a hand is worth 150 points; bids run from 70 to 150. A made bid scores all points "
            "captured.")),
    ],
    "buckeye": [
        (N_("How it differs"),
         N_("45 cards: 1 and 5 to 14 in four colours and the Rook; 10 cards each and a nest of 5. The 1 is "
            "the highest card of every colour, above the 14.")),
        (N_("The Rook"),
         N_("The Rook is the highest trump (it even beats the trump 1), may be played on any trick and is "
            "worth 20.")),
        (N_("Counting and scoring"),
         N_("1s are worth 15, 14s and 10s 10, 5s 5 and the Rook 20: 180 points per hand. Bids run from 100 to "
            "180 (an option lowers the first bid to 70). A made bid scores all points captured.")),
    ],
    "dixie": [
        (N_("How it differs"),
         N_("Dixie Rook (Parker, 1912) uses the 56 numbered cards, 1 to 14, with no bird: 13 cards each and a "
            "nest of 4. In each colour 14 is high and 1 is low.")),
        (N_("Counting"),
         N_("The 13s, not the 14s, are the big counters: each 13 is worth 10 and each 14 nothing, though the "
            "14 still beats the 13 in a trick. 5s are worth 5 and 10s 10. The team with more tricks gets 20 "
            "more: 120 points per hand.")),
        (N_("Scoring"),
         N_("Bids run from 70 to 120 and a made bid scores all points captured.")),
    ],
}

def prose(rules: Rules) -> list[tuple[str, str]]:
    """The (heading, paragraph) sections of ``rules``'s variant in the active language ([] for an unknown
    variant). Raises nothing."""
    return [(_(h), _(p)) for h, p in PROSE.get(rules.variant, [])]


def option_phrases(rules: Rules) -> list[str]:
    """The options ``rules`` was made with (``rules.options``), each in plain words: "without the Rook",
    "game to 500", "the Rook plays any time", "the first bid at least 70", "the player left of the declarer leads
    first" (in the active language). Returns [] for the standard rules. Raises nothing."""
    out = []
    bird = bird_name(rules.bird_name)
    for name, value in (rules.options or {}).items():
        if name == "bird":
            out.append(_("with the {bird}", bird=bird) if value else _("without the {bird}", bird=bird))
        elif name == "target":
            out.append(_("game to {target}", target=value))
        elif name == "first_lead":
            out.append(_("the player left of the declarer leads first") if value == FIRST_LEAD_DECLARER
                       else _("the player left of the dealer leads first"))
        elif name == "bird_any_time":
            out.append(_("the {bird} plays any time", bird=bird) if value
                       else _("the {bird} plays as an ordinary trump", bird=bird))
        elif name == "red_one_any_time":
            out.append(_("the Red 1 plays any time") if value else _("the Red 1 plays as a normal trump"))
        elif name == "bid_min":
            out.append(_("the first bid at least {bid}", bid=value))
        else:  # not an option of any rule set (get_rules refuses unknown options): shown as it is
            out.append(f"{name.replace('_', ' ')}: {value}")
    return out


def rules_rows(rules: Rules) -> list[tuple[str, str]]:
    """`Rules.describe` plus the first-lead row: the facts table of the Rules tab, in the active language.
    Returns (label, value) rows; raises nothing."""
    rows = list(rules.describe())
    lead = _("the player left of the declarer") if rules.first_lead == FIRST_LEAD_DECLARER \
        else _("the player left of the dealer")
    rows.append((_("First lead"), lead))
    return rows
