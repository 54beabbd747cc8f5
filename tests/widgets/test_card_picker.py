"""Tests for widgets.card_picker.CardPicker: card pictures tapped to pick, without a browser (tap = the page's
message); its script and style ship in the package."""
from __future__ import annotations

import pathlib

import pytest

from rookcore.cards import Card
from rookcore.rules import get_rules
from widgets import card_picker
from widgets.card_picker import CardPicker

CARDS = [Card.parse(x) for x in ("R9", "Y5", "G14")] + [Card.bird()]


def _page_tap(picker, card, deal=None):
    picker._on_message(picker, {"kind": "tap", "id": int(card), "deal": picker.deal if deal is None else deal}, [])


def test_cards_are_drawn_by_the_engine_and_named():
    rules = get_rules("red-1")
    picker = CardPicker(CARDS + [Card.parse("R1")], rules, label="South's hand")
    assert [c["code"] for c in picker.cards] == ["R9", "Y5", "G14", "ROOK", "R1"]
    assert [c["label"] for c in picker.cards] == ["Red 9", "Yellow 5", "Green 14", "The Rook", "The Red 1"]
    assert all(c["svg"].startswith("<svg") and "http" not in c["svg"].replace("http://www.w3.org/2000/svg", "")
               for c in picker.cards)
    assert picker.label == "South's hand" and "rook-card-picker" in picker._dom_classes


def test_taps_pick_and_take_back_many_cards():
    seen = []
    picker = CardPicker(CARDS, get_rules())
    picker.on_pick(seen.append)
    _page_tap(picker, CARDS[2])
    _page_tap(picker, CARDS[0])
    assert picker.selection == [CARDS[0], CARDS[2]] and picker.picked == [int(CARDS[2]), int(CARDS[0])]
    _page_tap(picker, CARDS[2])
    assert picker.selection == [CARDS[0]] and seen[-1] == [CARDS[0]] and len(seen) == 3


def test_one_card_at_most_when_not_multiple():
    picker = CardPicker(CARDS, get_rules(), multiple=False, captions=["N (led)", "E", "S", "W"],
                        spoken=["played by North (led)", "played by East", "played by South", "played by West"])
    assert picker.tap(CARDS[1]) and picker.tap(CARDS[3])
    assert picker.selection == [CARDS[3]]
    assert picker.cards[0]["caption"] == "N (led)" and picker.cards[0]["label"] == "Red 9, played by North (led)"
    with pytest.raises(ValueError):
        picker.pick(CARDS[:2])


def test_taps_on_other_cards_or_an_earlier_deal_are_ignored():
    rules = get_rules()
    picker = CardPicker(CARDS, rules)
    old = picker.deal
    assert not picker.tap(Card.parse("B5"))
    picker.show(CARDS[:2], rules)
    assert picker.deal == old + 1 and picker.picked == []
    _page_tap(picker, CARDS[0], deal=old)  # made on the cards shown before
    _page_tap(picker, 9999)
    picker._on_message(picker, {"kind": "tap", "id": "x"}, [])
    picker._on_message(picker, "noise", [])
    assert picker.picked == []
    with pytest.raises(ValueError, match="captions"):
        picker.show(CARDS, rules, captions=["N"])
    with pytest.raises(ValueError, match="rule set"):
        CardPicker(CARDS)


def test_script_and_style_ship_in_the_package():
    static = pathlib.Path(card_picker.__file__).parent / "static"
    js, css = (static / "card_picker.js").read_text("utf-8"), (static / "card_picker.css").read_text("utf-8")
    assert str(CardPicker._esm) == js and str(CardPicker._css) == css  # anywidget reads the files
    assert "import " not in js and "http" not in js and "http" not in css  # no CDN
    for hook in ("aria-pressed", "aria-label", "model.send", "ArrowRight", "rook-cp-badge"):
        assert hook in js, hook
    for rule in (".rook-cp-card.picked", ".rook-cp-card:hover", ":focus-visible", ".rook-cp-badge"):
        assert rule in css, rule
