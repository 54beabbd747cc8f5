"""The tutorial's prose (the eight lessons, notebooks/tutorial/NN-*.ipynb) as translatable messages (issue 26).

Voila draws a notebook's markdown cells as they are, so a lesson's words come from here: each lesson is a tuple of
*parts*, in page order (a part is what one markdown cell held), and each part a tuple of messages, one per
paragraph, heading or list, with its markdown kept inside the message (``**bold**``, ``* `` items, ``## `` headings).
Card codes (R14, G5) and numbers are written as the records write them and are never translated. A lesson page
draws part ``k`` with ``widgets.lessons.prose(slug, k)``; `part_text` gives it as markdown in the active language.

`LESSONS` lists (slug, title, summary) in order, English (the message ids); `title` / `summary` translate them.
No UI imports: rendering the markdown is the widgets' job.
"""
from __future__ import annotations

from .i18n import N_, _

LESSONS: tuple[tuple[str, str, str], ...] = (
    ("01-deck-and-counters", N_("The deck and the counters"), N_("Colours, numbers, the Crow, and which cards score.")),
    ("02-deal-and-auction", N_("The deal and the auction"), N_("Who gets which cards, and how bidding works.")),
    ("03-nest-and-trump", N_("The nest and trump"), N_("The declarer's extra cards and naming trump.")),
    ("04-following-suit-and-the-bird", N_("Following suit and the Crow"), N_("Which cards you may play.")),
    ("05-winning-tricks", N_("Winning tricks"), N_("Which card takes the trick.")),
    ("06-scoring-and-game-end", N_("Scoring and the end of the game"),
     N_("Making or losing the bid; reaching 300.")),
    ("07-the-classic-rule-sets", N_("The classic rule sets"), N_("How the six classic games differ from CrowsNest.")),
    ("08-basic-strategy", N_("Basic strategy"), N_("Bidding, burying, drawing trump and feeding your partner.")),
)
"""The lessons in order: (slug, title, summary), in English (the message ids; the tutorial teaches CrowsNest, whose
bird is the Crow)."""
SLUGS: tuple[str, ...] = tuple(slug for slug, _t, _s in LESSONS)

PROSE: dict[str, tuple[tuple[str, ...], ...]] = {
    "01-deck-and-counters": (
        (
            N_("# Lesson 1 — The deck and the counters"),
            N_("Rook is played with its own deck of cards. There are **four colours** — Red, Yellow, Green and "
               "Black — and in CrowsNest (the game this app plays by default) each colour has the numbers **5 to "
               "14**. No colour is better than another. On top of that there is one special card with a bird on it: "
               "the **Crow**. That makes 41 cards."),
            N_("Each colour has its own shape as well as its own colour (heart, triangle, leaf, square), so you can "
               "tell them apart even if colours are hard to see."),
        ),
        (
            N_("## Cards that score: the counters"),
            N_("You win points by **capturing cards in tricks**. Only some cards are worth points; they are called "
               "**counters**. In CrowsNest:"),
            N_("* every **5** is worth 5 points,\n"
               "* every **10** and every **14** is worth 10 points,\n"
               "* the **Crow** is worth 20 points."),
            N_("All the other cards are worth nothing (but they can still win tricks!). The counters add up to 120 "
               "points."),
        ),
        (
            N_("## Try it"),
            N_("Add up the counters. Type the total and press **Check**. A wrong answer tells you the rule it "
               "missed, and you try again; the answer is shown after a second wrong try, or when you press **Show "
               "answer**. Press **New exercise** for another one."),
        ),
    ),
    "02-deal-and-auction": (
        (
            N_("# Lesson 2 — The deal and the auction"),
            N_("Four people play in two teams. Partners sit opposite each other: **North and South** are one team, "
               "**East and West** the other. In this app you sit South and the computer plays your partner North."),
            N_("## The deal"),
            N_("The dealer gives **9 cards** to each player and puts **5 cards face down** in the middle: the "
               "**nest**. Here is a deal (the numbers on the right are the points of counters each player holds):"),
        ),
        (
            N_("## The auction"),
            N_("Before playing, the players **bid** for the right to choose trump and take the nest. A bid is a "
               "promise: *\"my team will capture at least this many points\"*."),
            N_("* The player to the **left of the dealer** calls first, then it goes round clockwise.\n"
               "* Each call is a **bid** or a **pass**. The first bid is at least **70**; every later bid must be "
               "**higher**, in steps of **5**, up to **120**. You may jump (70 → 90).\n"
               "* **Passing is final**: once you pass you make no more calls this hand.\n"
               "* When three players have passed, the last bidder wins the auction and becomes the **declarer**. A "
               "bid of 120 ends the auction at once.\n"
               "* If everyone passes, the same dealer deals again."),
            N_("The rule set's numbers, straight from the engine:"),
        ),
        (
            N_("## How high should you go?"),
            N_("Count what your hand might take: long colours (good for trump), high cards, the Crow, and the nest "
               "you will pick up. In CrowsNest a made bid scores **only the bid**, and a missed bid costs the whole "
               "bid — so bid what you expect to make, not more."),
            N_("Your count is only an estimate: the cards you cannot see can easily move it 20 points either way. "
               "So with a middling hand a pass is as sensible as a modest bid. Passing is a mistake only with a "
               "clearly strong hand, and a top bid above what the hand is worth is always one."),
            N_("## Try it"),
            N_("You are first to call. Pick the highest bid you would be willing to go to (or Pass) and press "
               "**Check**."),
        ),
    ),
    "03-nest-and-trump": (
        (
            N_("# Lesson 3 — The nest and trump"),
            N_("The winner of the auction — the **declarer** — now does two things:"),
            N_("1. **Takes the nest.** The declarer adds the 5 nest cards to their hand, then puts back **exactly 5 "
               "cards** face down. Any cards may go back, even counters. Nobody else sees the nest.\n"
               "2. **Names trump.** The declarer picks one colour to be **trump**. Trump cards beat all other "
               "colours. The **Crow always belongs to trump**, whichever colour is named."),
            N_("Keep in mind: the points in the nest are not lost — they go to the team that wins the **last "
               "trick**."),
            N_("Here is how the computer handled one hand — the auction, what it put back in the nest, and its "
               "trump:"),
        ),
        (
            N_("Notice how the declarer buries a short colour to become **void** in it (having no cards of a colour "
               "lets you play trump when that colour is led), and keeps its trumps."),
            N_("## Try it"),
            N_("Counters buried in the nest still count at the end. How many points are in these cards?"),
        ),
    ),
    "04-following-suit-and-the-bird": (
        (
            N_("# Lesson 4 — Following suit and the Crow"),
            N_("The player to the left of the dealer leads the first trick by playing any card. Then each player in "
               "turn plays one card."),
            N_("**The main rule: follow suit.** If you have a card of the colour that was led, you must play one. "
               "If you have none, you may play **any** card — a trump, or something you want to get rid of."),
            N_("**The Crow is special** in CrowsNest:"),
            N_("* you may play the Crow **at any time**, even when you could follow suit;\n"
               "* leading the Crow counts as **leading trump**: the others must play trump if they can;\n"
               "* when trump is led and the Crow is your **only** trump, you must play it."),
            N_("Three examples (a player who must follow suit, one who cannot, and one holding the Crow): the cards "
               "the player may play have a blue border, the others are greyed out."),
        ),
        (
            N_("## Try it"),
            N_("Tap **every** card the player may play (tap a card again to take it back), then press **Check**."),
        ),
    ),
    "05-winning-tricks": (
        (
            N_("# Lesson 5 — Winning tricks"),
            N_("When all four players have played, someone wins the trick and takes the four cards (and their "
               "points)."),
            N_("* If any **trump** was played, the **highest trump** wins.\n"
               "* If no trump was played, the **highest card of the colour led** wins. Cards of other colours "
               "cannot win, however high they are.\n"
               "* In CrowsNest the **Crow is the lowest trump**: any other trump beats it, but it still beats every "
               "card that is not trump."),
            N_("Cards rank from 14 (high) down to 5 (low). The winner of a trick leads the next one."),
            N_("A trick with no trump played:"),
        ),
        (
            N_("A trick where someone had no card of the colour led and played trump:"),
        ),
        (
            N_("A trick with the Crow in it:"),
        ),
        (
            N_("The Crow is the **lowest** trump, so every other trump beats it, even a 5. Green is trump. North "
               "leads the R14, East follows with the R5, South plays the Crow (allowed at any time) and West, who "
               "has no red card, plays the G5:"),
        ),
        (
            N_("## Try it"),
            N_("Who wins the trick? Tap the winning card, then press **Check**."),
        ),
    ),
    "06-scoring-and-game-end": (
        (
            N_("# Lesson 6 — Scoring and the end of the game"),
            N_("After the last trick, each team counts the counters in the tricks it won. The **nest** goes to the "
               "team that won the **last trick**. Together the two teams always have 120 points."),
            N_("* The **defenders** (the team that did not win the auction) always score what they captured.\n"
               "* The **declarers** **make** their bid if they captured at least the bid. In CrowsNest they then "
               "score **exactly the bid** (not more).\n"
               "* If they fall short they are **set**: they score **minus the bid**, and nothing else. Scores can "
               "go below zero."),
            N_("Here is a whole hand played by the computer, trick by trick, with the score:"),
        ),
        (
            N_("## The end of the game"),
            N_("After each hand the scores are added up. The first team to reach **300** wins. If both teams reach "
               "300 in the same hand, the higher total wins; if the totals are equal, another hand is played. Some "
               "examples, decided by the engine:"),
        ),
        (
            N_("## Try it"),
            N_("Type each team's score for the hand (use a minus sign for a set), then press **Check**."),
        ),
    ),
    "07-the-classic-rule-sets": (
        (
            N_("# Lesson 7 — The classic rule sets"),
            N_("CrowsNest is one member of a family. The app also plays six classic ways of playing Rook. They all "
               "share the same shape — deal, auction, nest, trump, tricks, count — but they differ in the deck, the "
               "value of the cards, where the bird ranks and how a made bid scores. The table below is built from "
               "the engine's own description of each rule set:"),
        ),
        (
            N_("## What changes, in short"),
            N_("* **Tournament (Kentucky Discard)** — the deck of CrowsNest, but the bird is called the **Rook** "
               "and it is the **highest** trump. A made bid scores **everything captured**, not just the bid.\n"
               "* **Partnership** — no bird and no nest; 56 cards (1–14), 14 each; the team that takes more tricks "
               "gets a **20-point bonus**.\n"
               "* **1-High Partnership** — the **1 is the highest** card of each colour and is worth 15; the Rook "
               "is the lowest trump and, by default, follows suit like any other trump: on a lead of another colour "
               "you may play it only if you have no card of that colour (an option lets it be played at any time, "
               "as in CrowsNest); 200 points per hand.\n"
               "* **The Red 1** — an extra card, the **Red 1**, is the top trump (worth 30), just above the Rook; "
               "it is never a red card. 150 points per hand.\n"
               "* **Buckeye** — the 1s are added as the highest cards (15 points), the Rook is the highest trump; "
               "180 points.\n"
               "* **Dixie** — no bird; 1–14; the **13s are worth 10** and the 14s nothing; majority bonus 20."),
            N_("In Tournament the Rook is the **highest** trump: it beats every other trump. Here is the trick from "
               "lesson 5 again (Green is trump; North leads the R14, then come the R5, the bird and the G5). In "
               "CrowsNest the G5 beat the Crow; in Tournament the Rook wins:"),
        ),
        (
            N_("Even the highest green card, the 14, loses to the Rook when Green is trump. North leads the G14:"),
        ),
        (
            N_("The Red 1 deck (the Red 1 has a gold star):"),
        ),
        (
            N_("## Try it"),
            N_("The same kinds of exercise, under other rules."),
        ),
    ),
    "08-basic-strategy": (
        (
            N_("# Lesson 8 — Basic strategy"),
            N_("A few ideas that good players use. The computer player follows them too, and explains each move."),
            N_("* **Valuing a hand for a bid.** Long colours make good trump; high cards (14s, 13s) and the Crow "
               "win tricks; a colour you have none of (a *void*) lets you trump. The nest usually helps the "
               "declarer a bit. Bid what you expect to capture, with a little margin.\n"
               "* **What to bury.** Put back cards of a short side colour to make a void, and keep your trumps. "
               "Burying counters is safe only if you expect to win the last trick (the nest goes to that team).\n"
               "* **Leading and drawing trump.** With many trumps, lead them early to *draw* the opponents' trumps, "
               "so your high side cards cannot be trumped later.\n"
               "* **Feeding your partner.** When your partner is sure to win a trick, throw counters on it; when "
               "the opponents are winning it, play your lowest, least useful card."),
            N_("Here is the computer at work on one hand — each line is its own explanation:"),
        ),
        (
            N_("## Try it"),
            N_("How high would you bid with this hand?"),
        ),
        (
            N_("## Your progress so far"),
            N_("The lessons you have opened and the exercises you have solved in this session:"),
        ),
    ),
}
"""Each lesson's prose: slug → parts (one per markdown cell of the lesson, in page order) → messages (one per
paragraph, heading or list; markdown inside), in English (the message ids)."""


def _lesson(slug: str) -> tuple[str, str, str]:
    for entry in LESSONS:
        if entry[0] == slug:
            return entry
    raise KeyError(f"no lesson {slug!r} (lessons: {', '.join(SLUGS)})")


def title(slug: str) -> str:
    """The title of lesson ``slug`` ("03-nest-and-trump") in the active language. Raises KeyError for an unknown
    slug."""
    return _(_lesson(slug)[1])


def summary(slug: str) -> str:
    """The one-line summary of lesson ``slug`` in the active language. Raises KeyError for an unknown slug."""
    return _(_lesson(slug)[2])


def parts(slug: str) -> int:
    """How many prose parts lesson ``slug`` has (1..). Raises KeyError for an unknown slug."""
    _lesson(slug)
    return len(PROSE[slug])


def part_text(slug: str, part: int) -> str:
    """Part ``part`` (1-based, page order) of lesson ``slug``'s prose as markdown in the active language: its
    messages translated, separated by blank lines. Raises KeyError for an unknown slug, IndexError for a part
    outside 1..`parts`."""
    _lesson(slug)
    chunks = PROSE[slug]
    if isinstance(part, bool) or not isinstance(part, int) or not 1 <= part <= len(chunks):
        raise IndexError(f"lesson {slug!r} has prose parts 1 to {len(chunks)}, not {part!r}")
    return "\n\n".join(_(message) for message in chunks[part - 1])
