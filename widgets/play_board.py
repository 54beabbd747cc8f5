"""The Play panel's board: the header, the status line, the card table and what the learner does there (the auction's
buttons and history, the discard prompt, the trump buttons), drawn from a `rookcore.play.PlaySession`.

No decision here: the words come from the session and the table (`rookcore.table.Table`), the action buttons from
`widgets.play_controls.Commands` (new ones for each decision).
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from rookcore.actions import PASS
from rookcore.hand import SEATS, Phase
from rookcore.i18n import _, ngettext, pgettext
from rookcore.play import PlaySession, Status
from rookcore.words import colour_name, rules_title, seat_name, team_name

from .cards import PALETTE, border_legend
from .hand_end import classed
from .table_view import TableView, seat_long_name

PLAY_STYLE = ("<style>.rook-play .widget-html, .rook-play .widget-html-content {min-height: 0; line-height: 1.35}"
              ".rook-play .widget-box > * {flex-shrink: 0}"
              ".rook-play .rook-status {margin: 0 0 2px} .rook-play .rook-header {margin: 0}"
              ".rook-play .rook-actions .widget-button {height: 30px; margin: 2px 3px 2px 0}"
              ".rook-play .rook-actions {margin-top: 4px}"
              # the auction line and the discard prompt wrap inside the pane (a phone, long words, Persian)
              ".rook-play .rook-auction .widget-box > .rook-auction-history {flex: 1 1 0; min-width: 0}"
              ".rook-play .rook-discard > .rook-discard-count {flex: 1 1 240px; min-width: 0}"
              ".rook-play .rook-auction-history .widget-html-content, .rook-play .rook-discard-count "
              ".widget-html-content {white-space: normal; overflow-wrap: anywhere; flex-shrink: 1; min-width: 0}"
              # the score sheet fits the side pane; if it cannot, its own box scrolls sideways (not the pane)
              ".rook-play .rook-score-sheet {min-width: 0; max-width: 100%}"
              ".rook-play .rook-score-sheet .widget-html-content {flex-shrink: 1; min-width: 0; width: 100%}"
              ".rook-play .rook-score-scroll {overflow-x: auto; max-width: 100%}</style>")
"""The Play tab's spacing: text lines and buttons packed close, so that the table and the learner's controls fit a
laptop's window (1366×768 and 1024×768) without scrolling; the auction line and the discard prompt wrap, and the
score sheet keeps to the side pane's width."""


def status_html(status: Status) -> str:
    """The status line's HTML: the words, or an error in red (``<span class="rook-error">``) and what follows it."""
    if status.error:
        html = f'<span class="rook-error" style="color:#c62828;font-weight:bold">{escape(status.text)}</span>'
        return html + (f" {escape(status.after)}" if status.after is not None else "")
    return f'<span class="rook-info">{escape(status.text)}</span>'


class Board:
    """The header, the status line, the card table and the auction, discard and trump boxes of a Play panel.

    Args: pace (the card table's motion, seconds per AI move), on_tap (callable(card) for a tap on one of the
    learner's cards), on_stale (callable() for a tap on the table of an earlier decision).
    """

    WIDGETS = ("header", "status", "table_view", "bid_box", "auction_html", "auction_box", "discard_count",
               "discard_box", "trump_box")
    """The widgets the panel shows under their own names (the app and the tests use them)."""

    def __init__(self, pace: float, on_tap, on_stale) -> None:
        self.header = classed(widgets.HTML(), "rook-header")
        self.status = classed(widgets.HTML(), "rook-status")
        # the card table: seats, trick, nest and South's hand, tapped to play or to pick the discard
        self.table_view = classed(TableView(pace=float(pace)), "rook-table")
        self.table_view.on_tap(on_tap)
        self.table_view.on_stale(on_stale)
        self.bid_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.auction_html = classed(widgets.HTML(), "rook-auction-history")
        self.auction_title = widgets.HTML()
        self.auction_box = classed(widgets.VBox([
            widgets.HBox([self.auction_title, self.auction_html], layout=widgets.Layout(
                align_items="center")), self.bid_box]), "rook-auction")
        self.discard_count = classed(widgets.HTML(), "rook-discard-count")
        self.discard_box = classed(widgets.HBox(layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
                                   "rook-discard")
        self.trump_box = classed(widgets.HBox(), "rook-trump-box")

    def draw_words(self) -> None:
        """The board's lasting words in the active language."""
        auction = escape(pgettext("heading", "Auction"))
        self.auction_title.value = f"<b>{auction}</b>&nbsp;"

    def draw_status(self, status: Status) -> None:
        """Draw the status line (`status_html`)."""
        self.status.value = status_html(status)

    def draw(self, session: PlaySession, controls) -> None:
        """Draw the header, the table, the auction, the discard and the trump boxes (``controls``: the
        `widgets.play_controls.Commands` whose buttons they show)."""
        self.draw_header(session)
        self.draw_table(session)
        self.draw_auction(session, controls)
        self.draw_discard(session, controls)
        t = session.table
        naming = t.is_learner_turn() and t.state.phase is Phase.TRUMP
        self.trump_box.layout.display = "flex" if naming else "none"
        self.trump_box.children = list(controls.trump_buttons.values()) if naming else []

    def draw_header(self, session: PlaySession) -> None:
        """The rule set, hand, dealer, bid, trump and game score; a warning when the game is no longer kept."""
        t = session.table
        s, r = t.state, t.rules
        parts = [f"<b>{escape(rules_title(r))}</b>", escape(_("Hand {number}", number=t.hand_number)),
                 escape(_("Dealer {seat}", seat=seat_long_name(s.dealer)))]
        if s.declarer is not None and s.phase is not Phase.AUCTION:
            parts.append(escape(_("Bid {bid} by {seat}", bid=s.high_bid, seat=seat_long_name(s.declarer))))
        elif s.high_bid is not None:
            parts.append(escape(_("High bid {bid} by {seat}", bid=s.high_bid, seat=seat_long_name(s.declarer))))
        if s.trump:  # the colour's word in the trump colour
            parts.append(escape(_("Trump {colour}", colour="\0")).replace(
                "\0", f"<b style='color:{PALETTE[s.trump]}'>{escape(colour_name(s.trump))}</b>"))
        sc = t.game.scores
        parts.append(escape(_("Game: {ns_team} {ns} · {ew_team} {ew} (to {target})", ns_team=team_name(0), ns=sc[0],
                              ew_team=team_name(1), ew=sc[1], target=r.target)))
        keeper = session.keeper
        self.header.value = " · ".join(parts) + (
            f"<div class='rook-keep-problem' style='color:#b26a00'>⚠ {escape(keeper.problem)}</div>"
            if keeper.problem and not keeper.keep else "")

    def draw_table(self, session: PlaySession) -> None:
        """Draw the table (seats, trick, nest, South's hand) from `Table.view` with the session's picks."""
        t = session.table
        self.table_view.show(t.view(picked=session.picks), t.rules, token=repr(session.decision))

    def draw_auction(self, session: PlaySession, controls) -> None:
        """The auction's history, and its buttons on the learner's call."""
        t = session.table
        phase = t.state.phase
        self.auction_box.layout.display = "flex" if phase is Phase.AUCTION or t.state.calls else "none"
        buttons = []
        if phase is Phase.AUCTION and t.is_learner_turn():
            for action in t.legal_for_learner():
                if action is PASS:
                    continue
                buttons.append(controls.bid_button(action.amount))
            buttons.append(controls.pass_button)
        self.bid_box.children = buttons
        calls = t.auction_history()
        passed = escape(pgettext("call", "pass"))
        items = " · ".join(f"<span class='rook-call'><b>{escape(seat_name(SEATS.index(seat)))}</b> "
                           f"{passed if c == 'pass' else c}</span>" for seat, c in calls)
        none = escape(_("no calls yet"))
        self.auction_html.value = f"<div class='rook-calls'>{items}</div>" if calls else f"<i>{none}</i>"

    def draw_discard(self, session: PlaySession, controls) -> None:
        """The discard prompt and button while the learner discards; hidden otherwise."""
        t = session.table
        options = t.discard_options() if t.is_learner_turn() else []
        self.discard_box.layout.display = "flex" if options else "none"
        self.discard_box.children = [self.discard_count, controls.discard_button] if options else []
        if options:
            self.draw_discard_count(session, controls)

    def draw_discard_count(self, session: PlaySession, controls) -> None:
        """How many cards to tap and how many are chosen (with their points); Discard enabled at exactly the nest's
        size."""
        r = session.table.rules
        picked = session.picked()
        n, k = r.nest_size, len(picked)
        worth = r.points_of(picked)  # what the chosen cards hold
        if k > n:
            chosen = _("{count} chosen: untick {more}, {n} go back ({points} points)", count=k, more=k - n, n=n,
                       points=worth)
        elif k:
            chosen = ngettext("{count} chosen ({points} points)", "{count} chosen ({points} points)", k, count=k,
                              points=worth)
        else:
            chosen = ngettext("{count} chosen", "{count} chosen", k, count=k)
        legend = "\0"  # the border's legend (HTML) goes where the sentence has it
        tap = escape(ngettext("Tap {n} card to put back as the nest ({legend})",
                              "Tap {n} cards to put back as the nest ({legend})", n, n=n, legend=legend))
        self.discard_count.value = (tap.replace(legend, border_legend(_("came from the nest")))
                                    + f" — <b>{escape(chosen)}</b>")
        controls.discard_button.disabled = k != n
