"""The lessons' live examples, each drawn from `rookcore.teaching` (and through it the engine) in `page_language`:
cards and the deck with their counters, a rule set's facts and the comparison of rule sets, who wins a game, a deal,
a trick (seeded or given) with its winner, which cards may be played, a whole hand's tally and the AI's decisions.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from rookcore import i18n, teaching
from rookcore.cards import Card
from rookcore.game import game_winner
from rookcore.hand import SEATS, team_of
from rookcore.i18n import _, ngettext
from rookcore.rules import VARIANTS, Rules
from rookcore.words import card_text, colour_name, rules_title, seat_name, team_name
from widgets.cards import border_legend, card_svg, hand_svg
from widgets.lesson_look import (_hand_of, _html, _in_page_language, _label, _rtl, _rules, _svg_opts, trick_html,
                                 trump_badge)


@_in_page_language
def show_card(card: str | Card, rules: Rules | str | None = None, width: int = 70) -> widgets.HTML:
    """One card picture with its counter value (in `page_language`). Raises teaching.ExerciseError for text that
    is no card."""
    r = _rules(rules)
    c = teaching.parse_card_answer(r, card)
    pts = r.card_points.get(c, 0)
    words = ngettext("{card}: {count} point", "{card}: {count} points", pts, card=_label(r, c), count=pts)
    return _html(f"<div class='rook-ltr' style='display:inline-block;text-align:center'>"
                 f"{card_svg(c, width=width, **_svg_opts(r))}<div>{escape(words)}</div></div>", "rook-example-card")


@_in_page_language
def show_cards(cards, rules: Rules | str | None = None, width: int = 70) -> widgets.HBox:
    """A row of card pictures with their counter values (`show_card` each; class ``rook-example-cards``), in their
    left-to-right order, set against the right edge on a right-to-left page. Raises teaching.ExerciseError for text
    that is no card."""
    row = widgets.HBox([show_card(c, rules, width) for c in cards],
                       layout=widgets.Layout(justify_content="flex-end" if _rtl() else "flex-start", flex_flow="row wrap"))
    row.add_class("rook-example-cards")
    return row


@_in_page_language
def show_deck(rules: Rules | str | None = None, width: int = 44) -> widgets.HTML:
    """The whole deck colour by colour; counters are highlighted in blue (words in `page_language`)."""
    r = _rules(rules)
    rows = []
    for colour in "RYGB":
        cards = [c for c in r.deck if not r.is_trump_card(c) and c.colour == colour]
        hi = [c for c in cards if r.card_points[c]]
        rows.append(f"<div>{hand_svg(cards, width=width, step=0.75, highlight=hi, **_svg_opts(r))}</div>")
    special = [c for c in r.deck if r.is_trump_card(c)]
    if special:
        rows.append(f"<div>{hand_svg(special, width=width, step=1.05, highlight=special, **_svg_opts(r))}</div>")
    facts = _("{count} cards. Counters: {counters}; {total} points in all.", count=len(r.deck),
              counters=teaching.counters_text(r), total=r.counter_total)
    meaning = _("a counter (a card that scores points)")
    return _html(f"<div><div class='rook-ltr'>{''.join(rows)}</div>"
                 f"<div>{border_legend(meaning)}</div>"
                 f"<p>{escape(facts)}</p></div>", "rook-example-deck")


@_in_page_language
def counters_table(rules: Rules | str | None = None) -> widgets.HTML:
    """A small table of the counters and their points (in `page_language`)."""
    r = _rules(rules)
    body = "".join(f"<tr><td>{escape(k)}</td><td style='text-align:end'>{v}</td></tr>"
                   for k, v in teaching.card_points_table(r))
    card, points, total = _("Card"), _("Points"), _("Total")
    return _html(f"<table><tr><th>{escape(card)}</th><th>{escape(points)}</th></tr>{body}"
                 f"<tr><th>{escape(total)}</th><th style='text-align:end'>{r.counter_total}</th></tr></table>",
                 "rook-counters-table")


@_in_page_language
def rule_set_facts(rules: Rules | str | None = None) -> widgets.HTML:
    """The rule set's numbers as the engine describes them (`Rules.describe`), a table titled with the rule set's
    name, in `page_language` (class ``rook-rule-set-facts``). Raises RulesError for an unknown variant name."""
    r = _rules(rules)
    body = "".join(f"<tr><th style='text-align:start;padding-inline-end:1em'>{escape(k)}</th><td>{escape(v)}</td>"
                   f"</tr>" for k, v in r.describe())
    return _html(f"<table><caption style='font-weight:bold;text-align:start'>{escape(rules_title(r))}</caption>"
                 f"{body}</table>", "rook-rule-set-facts")


@_in_page_language
def game_end_examples(scores=((310, 305), (305, 305), (295, 330), (250, 280)), target: int | None = None,
                      rules: Rules | str | None = None) -> widgets.HTML:
    """Who wins a game on the given running totals ``scores`` ((N–S, E–W) pairs of points), as the engine decides it
    (`rookcore.game.game_winner`, rules.md §1.7), one line each in `page_language` (class
    ``rook-game-end-examples``). ``target``: points to win (None: the rule set's own, `Rules.target`); ``rules``:
    a Rules or variant name (None: the default rule set). Raises RulesError for an unknown variant name."""
    if target is None:
        target = _rules(rules).target
    lines = []
    for ns, ew in scores:
        won = game_winner((ns, ew), target)
        totals = _("{ns_team} {ns}, {ew_team} {ew}", ns_team=team_name(0), ns=ns, ew_team=team_name(1), ew=ew)
        verdict = _("play another hand") if won is None else _("{team} win", team=team_name(won))
        line = _("{totals}: {verdict}", totals=totals, verdict=verdict)
        lines.append(f"<li>{escape(line)}</li>")
    return _html(f"<ul>{''.join(lines)}</ul>", "rook-game-end-examples")


@_in_page_language
def show_deal(rules: Rules | str | None = None, seed: int = 0, show_nest: bool = True) -> widgets.HTML:
    """A dealt hand (`teaching.example_deal`): the four hands and the nest, with their counter points (words in
    `page_language`)."""
    d = teaching.example_deal(rules, seed)
    r = d.rules
    rows = []
    for s in range(4):
        who = teaching.seat_full_name(s)
        name = (_("{seat} (dealer)", seat=who) if s == d.dealer else
                _("{seat} (calls first)", seat=who) if s == d.first_caller else who)
        points = _("{points} pts", points=d.points[s])
        rows.append(f"<tr><th style='text-align:start;padding-inline-end:8px'>{escape(name)}</th>"
                    f"<td class='rook-ltr'>{hand_svg(d.hands[s], width=44, step=0.5, **_svg_opts(r))}</td>"
                    f"<td style='padding-inline-start:8px'>{escape(points)}</td></tr>")
    if show_nest and r.nest_size:
        nest, down = _("Nest"), _("face down")
        rows.append(f"<tr><th style='text-align:start'>{escape(nest)}</th><td class='rook-ltr'>"
                    f"{hand_svg(d.nest, width=44, step=1.05, face_up=False)}</td>"
                    f"<td style='padding-inline-start:8px'>{escape(down)}</td></tr>")
    if r.nest_size:
        words = _("{rules}: {hand} cards each, {nest} in the nest ({points} points hidden there).",
                  rules=rules_title(r), hand=r.hand_size, nest=r.nest_size, points=d.nest_points)
    else:
        words = _("{rules}: {hand} cards each.", rules=rules_title(r), hand=r.hand_size)
    return _html(f"<table>{''.join(rows)}</table><p>{escape(words)}</p>", "rook-example-deal")


@_in_page_language
def show_hand(rules: Rules | str | None = None, seed: int = 0, seat: str | int = "S") -> widgets.HTML:
    """One seat's dealt hand with the counter points in it (words in `page_language`)."""
    d = teaching.example_deal(rules, seed)
    s = SEATS.index(seat) if isinstance(seat, str) else seat
    words = _("{seat}'s hand: {points} points of counters.", seat=teaching.seat_full_name(s), points=d.points[s])
    return _html(f"<div><div class='rook-ltr'>{hand_svg(d.hands[s], width=64, step=0.45, **_svg_opts(d.rules))}"
                 f"</div><p>{escape(words)}</p></div>", "rook-example-hand")


@_in_page_language
def show_trick(rules: Rules | str | None = None, seed: int = 0, kind: str = "trumped") -> widgets.HTML:
    """A trick with its winner highlighted and the reason (`teaching.example_trick`), in `page_language`."""
    return _trick_view(teaching.example_trick(rules, seed, kind))


@_in_page_language
def show_worked_trick(rules: Rules | str | None = None, trump: str = "G", cards=(), leader: str | int = "N"
                      ) -> widgets.HTML:
    """A given trick (such as rules.md §4's worked examples: ``cards`` in play order, led by ``leader``) with the
    winner the engine finds highlighted and the reason (`teaching.worked_trick`), in `page_language`. Raises
    teaching.ExerciseError for a trump that is no colour or cards that are not four different cards of the rule
    set's deck."""
    return _trick_view(teaching.worked_trick(rules, trump, cards, leader))


def _trick_view(t: teaching.TrickExample) -> widgets.HTML:
    """The trump, the trick with its winner highlighted, and the reason."""
    return _html(f"<div>{trump_badge(t.trump)}</div><div style='margin:6px 0'>"
                 f"{trick_html(t.rules, t.leader, t.cards, t.winner)}</div><p>{escape(t.reason)}</p>",
                 "rook-example-trick")


@_in_page_language
def show_legal(rules: Rules | str | None = None, seed: int = 0, kind: str = "follow") -> widgets.HTML:
    """A worked "which cards may be played" example of category ``kind`` ("follow", "bird", "void"): the trick,
    the hand with legal cards highlighted (illegal ones greyed) and the rule that decides it
    (`teaching.example_legal`, never one of the exercises), in `page_language`. Raises teaching.ExerciseError for
    an unknown kind."""
    ex = teaching.example_legal(rules, seed, kind)
    r = ex.rules
    illegal = [c for c in ex.hand if c not in ex.legal]
    so_far, meaning = _("Trick so far:"), _("may be played (greyed: may not)")
    return _html(f"<div>{trump_badge(ex.trump)}</div><div style='margin:6px 0'>{escape(so_far)}</div>"
                 f"{trick_html(r, ex.trick_leader, ex.trick)}<div style='margin:6px 0'>"
                 f"{escape(_hand_of(ex.seat))}</div><div class='rook-ltr'>"
                 f"{hand_svg(ex.hand, width=56, step=0.6, highlight=ex.legal, dimmed=illegal, **_svg_opts(r))}</div>"
                 f"<div>{border_legend(meaning)}</div>"
                 f"<p>{escape(ex.reason)}</p>", "rook-example-legal")


@_in_page_language
def show_tally(rules: Rules | str | None = None, seed: int = 0) -> widgets.HTML:
    """A whole hand played by the AI: tricks, captured points, the nest, and the hand's score (in
    `page_language`)."""
    h = teaching.example_hand(rules, seed)
    r = h.rules
    rows = []
    for i, (leader, cards, winner, pts) in enumerate(h.tricks, 1):
        names = " ".join(f"{seat_name((leader + k) % 4)}:{_label(r, c)}" for k, c in enumerate(cards))
        rows.append(f"<tr><td>{i}</td><td class='rook-ltr'>{escape(names)}</td><td>{escape(seat_name(winner))} "
                    f"({escape(team_name(team_of(winner)))})</td><td style='text-align:end'>{pts}</td></tr>")
    nest = " ".join(_label(r, c) for c in h.nest)
    last = h.tricks[-1][2]
    heads = ("#", _("cards (leader first)"), _("won by"), _("points"))
    table = ("<table><tr>" + "".join(f"<th>{escape(x)}</th>" for x in heads) + f"</tr>{''.join(rows)}</table>")

    def line(label: str, text: str) -> str:
        return f"<b>{escape(label)}</b> {escape(text)}"

    parts = [line(_("Contract:"), _("{bid} by {seat}, trump {colour}.", bid=h.bid,
                                    seat=teaching.seat_full_name(h.declarer), colour=colour_name(h.trump)))]
    if r.nest_size:
        parts[0] += " " + line(_("Nest:"), _("{cards} = {points} points, to {team} (last trick).", cards=nest,
                                             points=h.nest_points, team=team_name(team_of(last))))
    parts.append(line(_("Captured:"), _("{ns_team} {ns} ({ns_tricks} tricks), {ew_team} {ew} ({ew_tricks} tricks).",
                                        ns_team=team_name(0), ns=h.captured[0], ns_tricks=h.tricks_won[0],
                                        ew_team=team_name(1), ew=h.captured[1], ew_tricks=h.tricks_won[1])))
    parts.append(line(_("Score:"), _("{ns_team} {ns:+d}, {ew_team} {ew:+d}.", ns_team=team_name(0), ns=h.score[0],
                                     ew_team=team_name(1), ew=h.score[1])) + " " + escape(h.reason))
    return _html(table + "<p>" + "<br>".join(parts) + "</p>", "rook-example-tally")


@_in_page_language
def rules_comparison(variants: list[str] | None = None) -> widgets.HTML:
    """A table comparing rule sets, built from each `Rules.describe()` (one column per rule set), in
    `page_language`."""
    rules = [VARIANTS[v] for v in (variants or list(VARIANTS))]
    birds = (_("The Crow"), _("The Rook"))
    the_bird = _("The bird")
    labels: list[str] = []
    cols = []
    for r in rules:
        rows = {}
        for label, value in r.describe():
            key = the_bird if label in birds else label
            if key == the_bird:
                value = _("the {bird}: {place}", bird=card_text(r, Card.bird()), place=value)
            rows[key] = value
            if key not in labels:
                labels.append(key)
        cols.append(rows)
    head = "".join(f"<th style='padding:4px'>{escape(rules_title(r))}</th>" for r in rules)
    body = "".join(
        f"<tr><th style='text-align:start;padding:4px'>{escape(label)}</th>"
        + "".join(f"<td style='padding:4px;border-top:1px solid #ddd'>{escape(c.get(label, '—'))}</td>"
                  for c in cols) + "</tr>"
        for label in labels)
    return _html(f"<div style='overflow-x:auto'><table style='font-size:13px'><tr><th></th>{head}</tr>"
                 f"{body}</table></div>", "rook-rules-comparison")


@_in_page_language
def show_ai_walkthrough(rules: Rules | str | None = None, seed: int = 0, plays: int = 8) -> widgets.HTML:
    """The AI's calls, discard, trump and first card plays on a seeded hand, each with its explanation (the frame in
    `page_language`; the AI's own words as `rookcore.ai` gives them)."""
    r = _rules(rules)
    try:
        steps = teaching.ai_walkthrough(r, seed, plays)
    except ImportError:
        missing = _("The AI is not available in this installation.")
        return _html(f"<p>{escape(missing)}</p>", "rook-ai-walkthrough")
    items = []
    shown: set = set()
    for st in steps:
        pic = ""
        first_call = st["kind"] == "call" and st["seat"] not in shown
        if first_call or st["kind"] == "discard":
            shown.add(st["seat"])
            who = teaching.seat_full_name(st["seat"])
            what = (_("{seat}'s hand and nest:", seat=who) if st["kind"] == "discard" else _hand_of(st["seat"]))
            pic = (f"<div style='font-size:12px;color:#555'>{escape(what)}</div>"
                   f"<div class='rook-ltr'>{hand_svg(st['hand'], width=40, step=0.45, **_svg_opts(r))}</div>")
        items.append(f"<li><b>{escape(teaching.seat_full_name(st['seat']))} "
                     f"<span class='rook-ai-action'>{escape(i18n.localize(st['action']))}</span></b> — "
                     f"<span class='rook-ai-explanation'>{escape(i18n.localize(st['explanation']))}</span>{pic}</li>")
    return _html(f"<ol>{''.join(items)}</ol>", "rook-ai-walkthrough")
