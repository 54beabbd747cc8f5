"""The end of a hand on the Play panel: the end-of-hand panel (`widgets.hand_end.HandEndPanel`) with the review's
buttons ("Could we have done better?" and its Stop), the review's result and a "Replay at step …" button per costly
card, drawn from the session's `rookcore.play.ReviewJob` (what it shows: `rookcore.play.ReviewShown`)."""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from rookcore.hand import SEATS
from rookcore.i18n import _
from rookcore.play import PlaySession, ReviewJob, ReviewShown

from .hand_end import HandEndPanel, classed


def _small(text: str) -> str:
    """``text`` escaped and set in ``<small>``."""
    return f"<small>{escape(text, quote=False)}</small>"


def _items(shown: ReviewShown) -> str:
    return "".join(f"<li class='rook-review-item'>{escape(text)}</li>" for text in shown.items)


def facts_html(shown: ReviewShown) -> str:
    """The review's lines on the whole hand: the first lead's result (``rook-review-start``) and the auction judged
    double dummy (``rook-review-auction``); "" without either."""
    html = ""
    if shown.start:
        html += f"<div class='rook-review-start'>{escape(shown.start, quote=False)}</div>"
    if shown.auction is not None:
        html += f"<div class='rook-review-auction'>{escape(shown.auction, quote=False)}</div>"
    return f"<div style='margin:4px 0'>{html}</div>" if html else ""


def review_html(shown: ReviewShown) -> str:
    """The review's HTML (class ``rook-review-list``'s value): "" before any review, else one
    ``<div class='rook-review-result'>`` with what `ReviewShown` says."""
    kind = shown.kind
    if kind == "none":
        return ""
    if kind == "note":
        html = f"<i>{escape(shown.text)}</i>"
    elif kind == "running":
        found = _items(shown)
        html = (f"<i>{escape(shown.text)}</i>" + facts_html(shown)
                + (f"{escape(shown.costly)}<ul style='margin:4px 0'>{found}</ul>" if found else ""))
    elif kind == "stopped":
        found = _items(shown)
        html = (f"<b>{escape(shown.text)}</b>"
                + (f"<br>{escape(shown.costly)}<ul style='margin:4px 0'>{found}</ul>" if found
                   else " " + escape(shown.none_found)) + facts_html(shown))
    elif kind == "failed":
        html = f"<span class='rook-error' style='color:#c62828;font-weight:bold'>{escape(shown.text)}</span>"
    elif kind == "broken":
        html = f"<span class='rook-error'>{escape(shown.text)}</span>"
    else:
        html = f"<b>{escape(shown.text)}</b>" + _result_body(shown)
    return f"<div class='rook-review-result'>{html}</div>"


def _result_body(shown: ReviewShown) -> str:
    """A finished review after its heading: the costly cards, the facts, the budget note, hindsight and scope."""
    facts = facts_html(shown)
    note = f"<div class='rook-review-budget'><small>{escape(shown.budget)}</small></div>" if shown.budget else ""
    if not shown.items:
        return f"{facts}{note}{_small(shown.scope)}" if note else f"{facts} {_small(shown.scope)}"
    return (f"<ul style='margin:4px 0'>{_items(shown)}</ul>{facts}{note}{_small(shown.hindsight)}<br>"
            f"{_small(shown.scope)}")


class ReviewView:
    """``review_button`` ("Could we have done better?", class ``rook-review``), ``review_stop_button`` (Stop),
    ``review_html`` (class ``rook-review-list``), ``review_links`` (a Replay button per costly card),
    ``review_box`` and the end-of-hand panel ``hand_end``.

    Args: session (its ``review`` is drawn), actions (the panel: its ``review``, ``stop_review``, ``open_replay``,
    ``open_replay_at`` and ``next_hand`` handlers).
    """

    WIDGETS = ("review_button", "review_stop_button", "review_html", "review_links", "review_box", "hand_end")
    """The widgets the panel shows under their own names (the app and the tests use them)."""

    def __init__(self, session: PlaySession, actions) -> None:
        self.session = session
        self.actions = actions
        self.review_button = classed(widgets.Button(layout=widgets.Layout(width="auto", min_width="230px")),
                                     "rook-review")
        self.review_button.on_click(lambda _b: actions.review())
        self.review_stop_button = classed(widgets.Button(
            button_style="danger", layout=widgets.Layout(width="80px", display="none")), "rook-review-stop")
        self.review_stop_button.on_click(lambda _b: actions.stop_review())
        self.review_html = classed(widgets.HTML(), "rook-review-list")
        self.review_links = classed(widgets.VBox(), "rook-review-links")  # a Replay button per costly card
        self._links = ()  # the links drawn
        self.review_box = classed(widgets.VBox([self.review_html, self.review_links],  # its buttons go to the panel
                                               layout=widgets.Layout(display="none", margin="6px 0")),
                                  "rook-review-box")
        self.hand_end = HandEndPanel(actions.open_replay, actions.next_hand,
                                     [self.review_button, self.review_stop_button])

    def draw_words(self) -> None:
        """The lasting words in the active language (a review already shown keeps its words)."""
        self.review_button.description = _("Could we have done better?")
        self.review_button.tooltip = _("Double-dummy review of the cards you played")
        self.review_stop_button.description = _("Stop")
        self.review_stop_button.tooltip = _("Stop the review; the costly cards found so far stay listed")
        self.hand_end.draw_words()

    def draw(self) -> None:
        """The review as the session's `ReviewJob` shows it: shown once the hand is over, its button disabled while
        it runs (Stop shown then), its result and its costly cards' Replay buttons. Called from the review's thread
        too."""
        job: ReviewJob = self.session.review
        over = self.session.table.state.is_over
        self.review_box.layout.display = "flex" if over else "none"
        self.review_stop_button.layout.display = None if job.running else "none"
        self.review_button.disabled = job.running or not over
        self.review_html.value = review_html(job.shown)
        if job.links is not self._links:
            self._links = job.links
            self.review_links.children = [self._link_button(link, job.replay_record) for link in job.links]

    def _link_button(self, link, record) -> widgets.Button:
        """A button (class ``rook-review-replay``) opening Replay on ``record`` at ``link.step``."""
        button = classed(widgets.Button(description=link.label, tooltip=link.tooltip,
                                        layout=widgets.Layout(width="auto")), "rook-review-replay")
        button.on_click(lambda _b, step=link.step: self.actions.open_replay_at(record, step))
        return button

    def draw_hand_end(self) -> None:
        """The end-of-hand panel with the finished hand's result (`Table.hand_result`: rules.md §1.6, §1.7, "Game
        end"), or hidden while a hand is played."""
        t = self.session.table
        if not t.state.is_over:
            self.hand_end.show(None)
            return
        self.hand_end.show(t.hand_result(), n_steps=t.state.step, learner=SEATS[t.learner])
