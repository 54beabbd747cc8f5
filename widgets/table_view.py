"""The card table: one custom widget (anywidget; its script and style ship in ``widgets/static/``, no CDN) that draws
the four seats, the trick in the centre, the nest and the learner's hand from `rookcore.table.Table.view`, and sends
back the card the learner tapped.

The widget decides no rule: which cards are legal and why comes in the view; a tap goes to the panel's callbacks,
which call the engine. Cards are pictures drawn by `rookcore.svg` (one card drawing in the whole app), sent once per
rule set in the ``faces`` atlas.

Hooks for browser tests: the table ``.rook-tv`` (``data-token`` the decision on show, new once the learner's action
and the AIs' moves after it are drawn; ``data-phase``, ``data-mode``); the learner's cards ``button.rook-tv-card``
(``data-code`` the card in record notation, class ``legal`` when it may be tapped now, ``picked`` when chosen to put
back, ``from-nest``); a played card ``.rook-tv-played[data-seat=E]``; seats ``.rook-tv-seat[data-seat=N]`` (class
``to-act``); the reason a card cannot be played ``.rook-tv-reason``; the last trick ``.rook-tv-last``; the nest
``.rook-tv-nest``.

The words come in the active language (`rookcore.i18n`: the panel that calls `TableView.show` sets it); in a
right-to-left language (Persian) the view is mirrored as its readers expect: the seat on the learner's left is
drawn on the right (``positions`` left and right swapped, ``view["dir"]`` "rtl"), while the cards keep their
left-to-right order (record notation and numbers read left to right).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import anywidget
import traitlets

from rookcore.cards import Card
from rookcore.i18n import _, current, ngettext, pgettext
from rookcore.rules import Rules
from rookcore.svg import card_back_svg, card_svg
from rookcore.words import card_text, colour_name

STATIC = Path(__file__).parent / "static"
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
"""The seats' names in English (`seat_long_name` gives them in the active language)."""
COLOUR_WORDS = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}
_LONG = {"N": lambda: pgettext("seat name", "North"), "E": lambda: pgettext("seat name", "East"),
         "S": lambda: pgettext("seat name", "South"), "W": lambda: pgettext("seat name", "West")}


def seat_long_name(seat) -> str:
    """The seat ``seat`` (0..3 or "N", "E", "S", "W") by its full name in the active language ("South"; de "Süd").

    Raises KeyError/IndexError for anything else."""
    letter = "NESW"[seat] if isinstance(seat, int) else seat
    return _LONG[letter]()


def faces_for(rules: Rules) -> dict[str, str]:
    """The card pictures of ``rules``' deck as {record notation: SVG markup}, plus ``"back"``: the atlas the table
    draws from (`rookcore.svg`, the bird named as the rule set names it, the Red 1 drawn as its top trump). Raises
    nothing."""
    names = {"bird_name": rules.bird_name, "red_one": rules.red_one}
    atlas = {Card.from_id(int(c)).notation(rules.bird_name): card_svg(c, width=100, **names) for c in rules.deck}
    atlas["back"] = card_back_svg(width=100)
    return atlas


def _count(n: int) -> str:
    return ngettext("{count} card", "{count} cards", n, count=n)


def _seat_words(view: dict, letter: str) -> dict[str, str]:
    s = view["seats"][letter]
    role = _("(you)") if s["learner"] else _("(partner)") if s["partner"] else ""
    call = ""
    if view["phase"] == "auction" and s["call"]:
        call = pgettext("call", "pass") if s["call"] == "pass" else _("bid {amount}", amount=s["call"])
    return {"name": seat_long_name(letter), "role": role,
            "count": "" if s["learner"] else _count(s["count"]), "dealer": _("dealer") if s.get("dealer") else "",
            "badge": _("declarer · {bid}", bid=view["bid"]) if s["declarer"] else "", "call": call,
            "turn": _("to act") if s["to_act"] else ""}


def _card_label(card: dict, mode: str) -> str:
    name = card["name"]
    if not card["legal"]:
        return _("{card}: {reason}", card=name, reason=card["reason"]) if card["reason"] else name
    if mode == "discard":
        if card["from_nest"]:
            return (_("Keep {card} (from the nest)", card=name) if card["picked"] else
                    _("Put back {card} (from the nest)", card=name))
        return _("Keep {card}", card=name) if card["picked"] else _("Put back {card}", card=name)
    return _("Play {card}", card=name)


def _nest_words(view: dict) -> str:
    nest = view["nest"]
    if not nest["count"]:
        return ""
    if nest.get("put_back") is not None:  # a recorded hand: the nest as dealt, or as the declarer put it back
        return (_("Nest · put back by {seat}", seat=seat_long_name(nest["holder"])) if nest["put_back"] else
                _("Nest · as dealt"))
    if nest["holder"] is None:
        return ngettext("Nest · {count} card", "Nest · {count} cards", nest["count"], count=nest["count"])
    owner = seat_long_name(nest["holder"])
    if nest["points"] is not None:
        return _("Nest · {seat}'s · {points} points", seat=owner, points=nest["points"])
    return _("Nest · {seat}'s", seat=owner)


def _trick_words(view: dict) -> str:
    trick = view["trick"]
    if trick.get("winner"):  # a recorded hand, right after a trick's last card
        return _("Trick {number}: {seat} wins", number=trick["number"] + 1, seat=seat_long_name(trick["winner"]))
    if view["phase"] != "play":
        words = {"auction": lambda: pgettext("table", "Auction"), "discard": lambda: _("Nest and discard"),
                 "trump": lambda: _("Naming trump"), "done": lambda: _("Hand over")}
        return words[view["phase"]]() if view["phase"] in words else ""
    if trick["cards"]:
        return ""
    return _("{seat} to lead", seat=seat_long_name(trick["leader"]))


def labels(view: dict) -> dict:
    """The words the table shows for ``view`` (a `Table.view` dict): per seat its name, role, card count, call,
    declarer badge and "to act"; the trump chip, the nest, the last trick's and the trick's captions; each hand
    card's label (what a tap does, or why it cannot be played). Returns a dict; raises KeyError for a malformed
    view."""
    last = view["last_trick"]
    return {"seats": {x: _seat_words(view, x) for x in view["seats"]},
            "trump": _("Trump: {colour}", colour=colour_name(view["trump"])) if view["trump"] else "",
            "nest": _nest_words(view),
            "last": _("Last trick: {seat} won {points}", seat=seat_long_name(last["winner"]), points=last["points"])
            if last else "",
            "trick": _trick_words(view),
            "hand": _("Your hand")}


def mirrored(view: dict) -> dict:
    """``view`` as a right-to-left reader expects the table: the seats on the left and the right swapped (the
    learner's left-hand opponent drawn on the right), ``"dir": "rtl"``. Returns a new dict; raises KeyError for a
    view without ``positions``."""
    pos = dict(view["positions"])
    pos["left"], pos["right"] = pos["right"], pos["left"]
    return {**view, "positions": pos, "dir": "rtl"}


def _named(rules: Rules, cards: list[dict]) -> list[dict]:
    """``cards`` (view entries with an ``id``) with their page name in the active language (`card_text`)."""
    return [{**c, "name": card_text(rules, Card.from_id(c["id"]))} if "id" in c else c for c in cards]


class TableView(anywidget.AnyWidget):
    """The card table widget. Traits (synced): ``view`` (dict: `Table.view` with words and a ``token``), ``faces``
    (the card atlas, `faces_for`), ``pace`` (seconds per AI move: the motion's speed; 0 = no motion).

    Use `show` to draw a table, `on_tap` to hear taps; `tap` does what a tap in the page does (for tests and
    keyboard-free use). A tap whose token is not the one on show (a click made before the table changed) goes to the
    ``on_stale`` callbacks instead."""

    _esm = STATIC / "table_view.js"
    _css = STATIC / "table_view.css"
    view = traitlets.Dict().tag(sync=True)
    faces = traitlets.Dict().tag(sync=True)
    pace = traitlets.Float(0.6).tag(sync=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._taps: list[Callable[[Card], None]] = []
        self._stale: list[Callable[[], None]] = []
        self._faces_key = None
        self.add_class("rook-table-view")
        self.on_msg(self._on_message)

    def on_tap(self, callback: Callable[[Card], None]) -> None:
        """Call ``callback(card)`` (a `Card`) when the learner taps one of their cards on show."""
        self._taps.append(callback)

    def on_stale(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` when a tap arrives from a table that has changed since (a double click, a card
        tapped while the AIs were playing)."""
        self._stale.append(callback)

    def show(self, view: dict, rules: Rules, token: str) -> None:
        """Draw ``view`` (a `rookcore.table.Table.view` dict) for ``rules``; ``token`` names the decision on show
        (taps carry it back). Words and card names come in the active language; a right-to-left language draws the
        table `mirrored`. Raises KeyError for a malformed view."""
        key = (rules.bird_name, rules.red_one, len(rules.deck), current().lang)  # the pictures' titles are words
        if key != self._faces_key:
            self.faces, self._faces_key = faces_for(rules), key
        view = {**view, "hand": _named(rules, view["hand"]),
                "trick": {**view["trick"], "cards": _named(rules, view["trick"]["cards"])}}
        if view.get("last_trick"):
            view["last_trick"] = {**view["last_trick"], "cards": _named(rules, view["last_trick"]["cards"])}
        words = labels(view)
        hand = [{**c, "label": _card_label(c, view["mode"])} for c in view["hand"]]
        if current().direction == "rtl":
            view = mirrored(view)
        self.view = {**view, "hand": hand, "labels": words, "token": str(token)}

    def focus_first(self) -> None:
        """Ask the page to move the keyboard focus to the first card that may be tapped (once drawn)."""
        self.send({"kind": "focus"})

    def cards(self, legal_only: bool = False) -> list[Card]:
        """The learner's cards on show, in table order (only those that may be tapped now if ``legal_only``)."""
        return [Card.from_id(c["id"]) for c in self.view.get("hand", []) if c["legal"] or not legal_only]

    def tap(self, card: Card | int, token: str | None = None) -> None:
        """Do what tapping ``card`` in the page does: the tap callbacks get the card (``token``: the decision it
        was tapped in; None: the one on show). Raises nothing (the callbacks report errors)."""
        self._on_message(self, {"kind": "tap", "id": int(card),
                                "token": self.view.get("token") if token is None else token}, [])

    def _on_message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict) or content.get("kind") != "tap":
            return
        if content.get("token") != self.view.get("token"):
            for callback in self._stale:
                callback()
            return
        try:
            card = Card.from_id(int(content.get("id")))
        except (TypeError, ValueError):
            return  # not a card: nothing to do
        for callback in self._taps:
            callback(card)
