"""The Rules tab: plain-language rules of a `Rules` value (rules.md §1–§3).

`rules_html(rules)` = hand-written paragraphs for the rule set (``PROSE``, keyed by
variant) + a table generated from ``rules.describe()`` (so options such as the
target or "no bird" show their real numbers). Stable class: ``rook-rules``.
"""
from __future__ import annotations

from html import escape

from rookcore.rules import FIRST_LEAD_DECLARER, Rules

# (heading, paragraph) sections per rule set. CrowsNest in full; the others say what differs.
PROSE: dict[str, list[tuple[str, str]]] = {
    "crowsnest": [
        ("The players", "Four players in two teams: you (South) and your partner North against East and West. "
                        "Partners sit opposite each other and play goes clockwise: North, East, South, West."),
        ("The deal", "The deck has 41 cards: the numbers 5 to 14 in four colours — Red, Yellow, Green and "
                     "Black — and one special card, the Crow. The dealer gives 9 cards to each player and "
                     "puts 5 cards face down in the middle: the nest. No colour outranks another."),
        ("The auction", "Players bid for the right to name trump. The player left of the dealer calls first, "
                        "then the calls go clockwise. A call is a bid or a pass. The first bid is at least 70; "
                        "every later bid must be higher, in steps of 5, up to 120. You may jump (bid 90 over 75) "
                        "and you may outbid your partner. A pass is final: once you pass you make no more calls "
                        "in this auction. When three players have passed, the last bidder is the declarer. A bid "
                        "of 120 ends the auction at once. If all four pass, the same dealer deals again."),
        ("The nest and the discard", "The declarer picks up the 5 nest cards, then puts back any 5 cards "
                                     "face down — counters, trump, even the Crow may go back. Only the declarer "
                                     "sees the nest."),
        ("Trump", "After the discard the declarer names one of the four colours as trump. There is no "
                  "no-trump. The Crow always belongs to the trump suit, whatever colour is named."),
        ("Playing a trick", "The player left of the dealer leads the first trick. Each player in turn plays one "
                            "card. You must follow the colour that was led if you can; if you cannot, you may "
                            "play any card, including a trump. The highest trump wins the trick; if no trump was "
                            "played, the highest card of the colour led wins. The winner leads the next trick."),
        ("The Crow", "The Crow is the lowest trump: any other trump beats it, but it beats every card that is "
                     "not trump. It may be played on any trick, even when you could follow the colour led. "
                     "Leading the Crow is leading trump, so the others must play trump if they can. When "
                     "trump is led and the Crow is your only trump, you must play it."),
        ("Counting", "Only some cards count: each 5 is worth 5 points, each 10 and each 14 is worth 10, and "
                     "the Crow is worth 20 — 120 points in all. Each team counts the counters in the tricks it "
                     "took. The last trick takes the nest: the team that wins the last trick also gets the "
                     "counters in the nest."),
        ("Scoring", "The defenders always score what they captured. If the declarer's team captured at least "
                    "its bid, it made the bid — and a made bid scores the bid: exactly the bid, not the points "
                    "captured. Bid 80 and capture 95: the declarers score +80, the defenders +25. If the "
                    "declarers capture less than the bid they are set: they score minus the bid (capture 75 on "
                    "a bid of 80: −80, and the defenders +45). Scores may go negative."),
        ("The game", "The deal passes to the left after every scored hand. The game is to 300: a team at or "
                     "above 300 after a hand wins. If both teams reach it in the same hand, the higher total "
                     "wins; if the totals are equal, play another hand."),
        ("Without the Crow (option)", "Leave the Crow out to play with 40 cards: a nest of 4, 100 points "
                                      "per hand and bids from 70 to 100."),
    ],
    "tournament": [
        ("How it differs from CrowsNest", "Tournament Rook, also called Kentucky Discard, is the rule set in "
                                          "the official Parker/Hasbro booklet. The deal, the auction, the nest "
                                          "and the play are the same as in CrowsNest (41 cards, 9 each, a nest "
                                          "of 5, bids 70 to 120)."),
        ("The Rook", "The bird card is called the Rook and it is the highest trump: it takes any trick it is "
                     "played to. Like the Crow it may be played on any trick and is worth 20."),
        ("Scoring", "A made bid scores all the points the declarers captured, not just the bid: bid 80 and "
                    "capture 95 scores +95. A set still scores minus the bid."),
    ],
    "partnership": [
        ("How it differs", "Partnership Rook uses all 56 numbered cards (1 to 14 in four colours), with no bird "
                           "and no nest: each player gets 14 cards. In each colour 14 is high and 1 is low. The "
                           "declarer names trump straight after the auction."),
        ("Counting and scoring", "The 5s, 10s and 14s count as usual (100 points); the team that takes more "
                                 "tricks gets a bonus of 20, so a hand is worth 120 — or 100 when the tricks "
                                 "split 7–7. Bids run from 70 to 120 and a made bid scores all points "
                                 "captured."),
    ],
    "1-high-partnership": [
        ("How it differs", "57 cards: 1 to 14 in four colours and the Rook; 13 cards each and a nest of 5. "
                           "The 1 is the highest card of every colour (1, 14, 13, … 2)."),
        ("The Rook", "The Rook is the lowest trump and, by default, an ordinary trump card: like any trump you may "
                     "play it when trump is led or when you cannot follow the colour led, but not otherwise. An "
                     "option lets it be played on any trick, as the Crow is in CrowsNest."),
        ("Counting and scoring", "1s are worth 15, 14s and 10s 10, 5s 5 and the Rook 20; the team with more "
                                 "tricks gets 20 more — 200 points per hand. Bids run from 100 to 200. A made "
                                 "bid scores all points captured. Some players play to 500 (set the target)."),
    ],
    "red-1": [
        ("How it differs", "42 cards: 5 to 14 in four colours, the Red 1 and the Rook; 9 cards each and a nest "
                           "of 6."),
        ("The Red 1", "The Red 1 is the top trump, whatever colour is trump, and it is never a red card: it "
                      "cannot follow a red lead unless red is trump. By default it plays like a normal trump "
                      "(an option lets it be played any time). It is worth 30."),
        ("The Rook", "The Rook is the second trump, under the Red 1 only, may be played on any trick and is "
                     "worth 20."),
        ("Counting and scoring", "With the Red 1 a hand is worth 150 points; bids run from 70 to 150. A made "
                                 "bid scores all points captured."),
    ],
    "buckeye": [
        ("How it differs", "45 cards: 1 and 5 to 14 in four colours and the Rook; 10 cards each and a nest of 5. "
                           "The 1 is the highest card of every colour, above the 14."),
        ("The Rook", "The Rook is the highest trump (it even beats the trump 1), may be played on any trick and "
                     "is worth 20."),
        ("Counting and scoring", "1s are worth 15, 14s and 10s 10, 5s 5 and the Rook 20: 180 points per hand. "
                                 "Bids run from 100 to 180 (an option lowers the first bid to 70). A made bid "
                                 "scores all points captured."),
    ],
    "dixie": [
        ("How it differs", "Dixie Rook (Parker, 1912) uses the 56 numbered cards, 1 to 14, with no bird: 13 "
                           "cards each and a nest of 4. In each colour 14 is high and 1 is low."),
        ("Counting", "The 13s, not the 14s, are the big counters: each 13 is worth 10 and each 14 nothing, "
                     "though the 14 still beats the 13 in a trick. 5s are worth 5 and 10s 10. The team with "
                     "more tricks gets 20 more: 120 points per hand."),
        ("Scoring", "Bids run from 70 to 120 and a made bid scores all points captured."),
    ],
}

TABLE_STYLE = "border-collapse:collapse;font-size:14px;margin:6px 0"
CELL = "border-bottom:1px solid #e0e0e0;padding:3px 10px 3px 0;vertical-align:top"


def option_phrases(rules: Rules) -> list[str]:
    """The options ``rules`` was made with (``rules.options``), each in plain words: "without the Rook",
    "game to 500", "the Rook plays any time", "the first bid at least 70", "the player left of the declarer leads
    first". Returns [] for the standard rules. Raises nothing."""
    out = []
    for name, value in (rules.options or {}).items():
        if name == "bird":
            out.append(f"{'with' if value else 'without'} the {rules.bird_name}")
        elif name == "target":
            out.append(f"game to {value}")
        elif name == "first_lead":
            out.append("the player left of the " + ("declarer" if value == FIRST_LEAD_DECLARER else "dealer")
                       + " leads first")
        elif name == "bird_any_time":
            out.append(f"the {rules.bird_name} plays {'any time' if value else 'as an ordinary trump'}")
        elif name == "red_one_any_time":
            out.append(f"the Red 1 plays {'any time' if value else 'as a normal trump'}")
        elif name == "bid_min":
            out.append(f"the first bid at least {value}")
        else:
            out.append(f"{name.replace('_', ' ')}: {value}")
    return out


def rules_rows(rules: Rules) -> list[tuple[str, str]]:
    """`rules.describe()` plus the first-lead row (the facts table of the Rules tab)."""
    rows = list(rules.describe())
    lead = "the player left of the declarer" if rules.first_lead == FIRST_LEAD_DECLARER \
        else "the player left of the dealer"
    rows.append(("First lead", lead))
    return rows


def rules_html(rules: Rules) -> str:
    """Plain-language rules of ``rules`` as one HTML fragment (facts table + paragraphs)."""
    rows = "".join(f"<tr><th style='text-align:left;{CELL}'>{escape(k)}</th><td style='{CELL}'>{escape(v)}</td></tr>"
                   for k, v in rules_rows(rules))
    sections = "".join(f"<h4 style='margin:10px 0 2px'>{escape(h)}</h4><p style='margin:2px 0'>{escape(p)}</p>"
                       for h, p in PROSE.get(rules.variant, []))
    opts = "; ".join(option_phrases(rules))
    note = (f"<p style='background:#fff8e1;padding:4px 8px;border-radius:4px'>Options: {escape(opts)}. The table "
            f"below already includes them; the text after it describes the standard rules.</p>") if opts else ""
    return (f"<div class='rook-rules' style='max-width:820px;line-height:1.4'>"
            f"<h3 style='margin:4px 0'>{escape(rules.title)}</h3>{note}"
            f"<table style='{TABLE_STYLE}'><caption style='text-align:left;font-weight:bold'>At a glance</caption>"
            f"{rows}</table>{sections}</div>")
