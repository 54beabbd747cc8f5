"""A row of card pictures that the learner taps to pick cards: the exercises' answer cards (lessons 4, 5 and 7).

One small custom widget (anywidget; its script and style ship in ``widgets/static/card_picker.js`` / ``.css``, no
CDN). Each card is a ``<button>`` holding the card's picture from `rookcore.svg.card_svg` (the one card drawing of the
app): focusable, named by an ``aria-label`` ("Red 9", "the Crow, played by North (led)"), ``aria-pressed`` when
picked. A picked card is raised, outlined in orange and carries a ✓ badge; every card lifts on hover and keyboard
focus; Tab reaches the cards, the arrow keys (and Home / End) move between them, Enter or Space taps one.

The widget decides no rule: it only says which cards are picked. A tap in the page sends ``{kind: "tap", id, deal}``
to the kernel; `CardPicker.tap` does the same from Python (for tests and keyboard-free use), so the picks live in the
``picked`` trait, set only here.

Hooks for browser tests: the row ``.rook-card-picker`` (``.rook-cp``), each card ``button.rook-cp-card`` with
``data-code`` (the card in record notation, "R9", "CROW"), class ``picked`` and ``aria-pressed="true"`` when picked,
its caption ``.rook-cp-caption``, the badge ``.rook-cp-badge``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Sequence

import anywidget
import traitlets

from rookcore.cards import Card
from rookcore.rules import Rules
from rookcore.svg import card_svg, card_title

STATIC = Path(__file__).parent / "static"

__all__ = ["CardPicker", "card_entry"]


def card_entry(card: Card | int, rules: Rules, caption: str = "", spoken: str = "") -> dict:
    """One card as the picker draws it: {"id", "code" (record notation), "label" (its aria-label: the card's spoken
    name and ``spoken``), "caption" (shown under the picture), "svg" (the picture, `rookcore.svg.card_svg`)}.

    Args:
      card (Card | int): the card.
      rules (Rules): the rule set (the bird's name, the Red 1 drawn as its top trump).
      caption (str): words under the picture, e.g. "N (led)"; "" for none.
      spoken (str): words added to the aria-label after a comma, e.g. "played by North (led)"; "" for none.
    Returns:
      the dict above. Raises nothing for a card of the deck.
    """
    card = Card.from_id(int(card))
    names = {"bird_name": rules.bird_name, "red_one": rules.red_one}
    title = card_title(card, **names)
    return {"id": int(card), "code": card.notation(rules.bird_name), "caption": caption,
            "label": f"{title[:1].upper()}{title[1:]}" + (f", {spoken}" if spoken else ""),
            "svg": card_svg(card, width=100, **names)}


class CardPicker(anywidget.AnyWidget):
    """Card pictures to tap: a tapped card is picked (tapped again, no longer picked).

    Traits (synced): ``cards`` (list of `card_entry` dicts, in the order shown), ``picked`` (the ids of the picked
    cards), ``multiple`` (True: any number of cards may be picked; False: one at most, a tap on another card moves
    the pick), ``deal`` (counts the card sets shown: a tap made on an earlier set is ignored), ``label`` (the row's
    aria-label, e.g. "South's hand"), ``width`` (a card's width in px).

    Args (all optional; `show` sets them later):
      cards (Iterable[Card]): the cards to show; rules (Rules): their rule set (needed with ``cards``);
      multiple (bool); captions (Sequence[str]): words under each card; spoken (Sequence[str]): words added to each
      card's aria-label; label (str); width (int).
    Raises ValueError if ``cards`` are given without ``rules``.
    """

    _esm = STATIC / "card_picker.js"
    _css = STATIC / "card_picker.css"
    cards = traitlets.List(traitlets.Dict()).tag(sync=True)
    picked = traitlets.List(traitlets.Int()).tag(sync=True)
    multiple = traitlets.Bool(True).tag(sync=True)
    deal = traitlets.Int(0).tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    width = traitlets.Int(64).tag(sync=True)

    def __init__(self, cards: Iterable[Card] = (), rules: Rules | None = None, *, multiple: bool = True,
                 captions: Sequence[str] = (), spoken: Sequence[str] = (), label: str = "", width: int = 64,
                 **kwargs) -> None:
        super().__init__(width=width, **kwargs)
        self._listeners: list[Callable[[list[Card]], None]] = []
        self.add_class("rook-card-picker")
        self.on_msg(self._on_message)
        cards = list(cards)
        if cards and rules is None:
            raise ValueError("CardPicker needs the rule set to draw its cards")
        if cards:
            self.show(cards, rules, multiple=multiple, captions=captions, spoken=spoken, label=label)
        else:
            self.multiple, self.label = multiple, label

    # ---- what is shown
    def show(self, cards: Iterable[Card], rules: Rules, *, multiple: bool = True, captions: Sequence[str] = (),
             spoken: Sequence[str] = (), label: str = "") -> None:
        """Show ``cards`` (in this order) of rule set ``rules``, none picked; taps on the cards shown before are
        ignored from now on.

        Args: as for the class (``captions`` / ``spoken``: one per card, or empty for none).
        Returns None. Raises ValueError if ``captions`` or ``spoken`` is not empty and not one per card.
        """
        cards = [Card.from_id(int(c)) for c in cards]
        for name, words in (("captions", captions), ("spoken", spoken)):
            if words and len(words) != len(cards):
                raise ValueError(f"{name}: {len(words)} given for {len(cards)} cards")
        entries = [card_entry(c, rules, captions[i] if captions else "", spoken[i] if spoken else "")
                   for i, c in enumerate(cards)]
        with self.hold_sync():
            self.deal += 1
            self.multiple, self.label = multiple, label
            self.picked = []
            self.cards = entries
        self._tell()

    def shown(self) -> list[Card]:
        """The cards on show, in order. Returns a list of `Card`; raises nothing."""
        return [Card.from_id(c["id"]) for c in self.cards]

    @property
    def selection(self) -> list[Card]:
        """The picked cards, in the order shown (a list of `Card`; empty when none is picked)."""
        on = set(self.picked)
        return [c for c in self.shown() if int(c) in on]

    def is_picked(self, card: Card | int) -> bool:
        """True if ``card`` is on show and picked."""
        return int(card) in self.picked

    # ---- picking
    def tap(self, card: Card | int, deal: int | None = None) -> bool:
        """Do what tapping ``card`` in the page does: pick it, or un-pick it if it was picked; with ``multiple``
        False a pick replaces the one before. ``deal``: the card set the tap was made on (None: the one on show).

        Returns True if the picks changed; False (nothing done) for a card not on show or a tap on an earlier
        card set. Raises nothing.
        """
        if (deal is not None and deal != self.deal) or int(card) not in {c["id"] for c in self.cards}:
            return False
        card = int(card)
        if card in self.picked:
            self.picked = [c for c in self.picked if c != card]
        else:
            self.picked = (self.picked if self.multiple else []) + [card]
        self._tell()
        return True

    def pick(self, cards: Iterable[Card | int]) -> None:
        """Set the picks to exactly ``cards`` (those on show; others are left out). Raises ValueError for more
        than one card when ``multiple`` is False."""
        on = {int(c) for c in cards} & {c["id"] for c in self.cards}
        if len(on) > 1 and not self.multiple:
            raise ValueError("this picker takes one card at most")
        self.picked = [c["id"] for c in self.cards if c["id"] in on]
        self._tell()

    def clear(self) -> None:
        """Pick nothing."""
        self.pick(())

    def on_pick(self, callback: Callable[[list[Card]], None]) -> None:
        """Call ``callback(selection)`` (the picked cards, in the order shown) after every change of the picks."""
        self._listeners.append(callback)

    def _tell(self) -> None:
        for callback in list(self._listeners):
            callback(self.selection)

    def _on_message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict) or content.get("kind") != "tap":
            return
        try:
            card, deal = int(content.get("id")), int(content.get("deal"))
        except (TypeError, ValueError):
            return  # not a card: nothing to do
        self.tap(card, deal)
