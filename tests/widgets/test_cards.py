"""Tests for widgets.cards: SVG card pictures and labels."""
import re
import xml.etree.ElementTree as ET

import pytest

from rookcore.cards import COLOURS, Card
from widgets.cards import (SYMBOLS, card_back_svg, card_label, card_svg, card_title, hand_svg)

NS = "{http://www.w3.org/2000/svg}"
ALL_CARDS = [Card.bird()] + [Card.of(c, n) for c in COLOURS for n in range(1, 15)]


def _parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def _no_external(svg):
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    assert "href" not in svg


def test_57_cards():
    assert len(set(ALL_CARDS)) == 57


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
@pytest.mark.parametrize("bird_name", ["Crow", "Rook"])
@pytest.mark.parametrize("red_one", [False, True])
def test_every_card_renders(card, bird_name, red_one):
    svg = card_svg(card, bird_name=bird_name, red_one=red_one)
    root = _parse(svg)
    _no_external(svg)
    title = card_title(card, bird_name, red_one)
    assert root.find(NS + "title").text == title
    assert root.get("role") == "img" and root.get("aria-label") == title
    assert root.get("width") == "60" and root.get("height") == "84"


def test_titles():
    assert card_title(Card.parse("R14")) == "Red 14"
    assert card_title(Card.parse("B3")) == "Black 3"
    assert card_title(Card.bird()) == "the Crow"
    assert card_title(Card.parse("R1"), red_one=True) == "the Red 1"
    assert card_title(Card.parse("R1")) == "Red 1"


def test_labels():
    assert card_label(Card.parse("R14")) == "R14"
    assert card_label(Card.parse("Y5")) == "Y5"
    assert card_label(Card.bird()) == "Crow"
    assert card_label(Card.bird(), bird_name="Rook") == "Rook"
    assert card_label(Card.parse("R1"), red_one=True) == "Red 1"
    assert card_label(Card.parse("R1")) == "R1"


def test_colours_have_distinct_symbols():
    assert len(set(SYMBOLS.values())) == 4
    shapes = []
    for colour in COLOURS:
        svg = card_svg(Card.of(colour, 7))
        paths = {p.get("d") for p in _parse(svg).iter(NS + "path")}
        assert SYMBOLS[colour] in paths
        shapes.append(frozenset(paths))
    assert len(set(shapes)) == 4
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            assert not a & b


def test_colours_use_palette():
    for colour, hexcode in zip(COLOURS, ["#c62828", "#e0a800", "#2e7d32", "#212121"]):
        assert hexcode in card_svg(Card.of(colour, 9))


def test_bird_label_follows_bird_name():
    crow = card_svg(Card.bird(), bird_name="Crow")
    rook = card_svg(Card.bird(), bird_name="Rook")
    assert ">CROW<" in crow and "ROOK" not in crow
    assert ">ROOK<" in rook and "CROW" not in rook


def test_red_one_is_distinctive():
    plain = card_svg(Card.parse("R1"))
    special = card_svg(Card.parse("R1"), red_one=True)
    assert special != plain and "Red 1" in special
    assert card_svg(Card.parse("R2"), red_one=True) == card_svg(Card.parse("R2"))


def test_dimmed_and_highlight_differ():
    card = Card.parse("G10")
    normal = card_svg(card)
    assert card_svg(card, dimmed=True) != normal
    assert card_svg(card, highlight=True) != normal
    _parse(card_svg(card, dimmed=True, highlight=True))


def test_width_scales():
    root = _parse(card_svg(Card.parse("B2"), width=100))
    assert root.get("width") == "100" and root.get("height") == "140"


def test_back():
    for svg in (card_back_svg(), card_svg(Card.parse("R14"), face_up=False)):
        root = _parse(svg)
        _no_external(svg)
        assert root.find(NS + "title").text == "a face-down card"
        assert "14" not in root.find(NS + "title").text


def test_hand():
    cards = [Card.parse(t) for t in ("R14", "Y3", "CROW", "B1")]
    svg = hand_svg(cards, dimmed=[cards[1]], highlight=[cards[0]])
    root = _parse(svg)
    _no_external(svg)
    assert len(root.findall(NS + "g")) == 4
    assert {t.text for t in root.iter(NS + "title")} >= {"Red 14", "Yellow 3", "the Crow", "Black 1"}
    assert int(root.get("width")) < 4 * 60
    _parse(hand_svg([]))
    back = hand_svg(cards, face_up=False)
    assert "Red 14" not in back and "4 cards" in back


def test_card_accepts_int_id():
    assert card_svg(int(Card.parse("G5"))) == card_svg(Card.parse("G5"))
    assert re.search(r"Green 5", card_svg(Card.parse("G5")))


def test_border_legend_names_what_the_blue_border_marks():
    from widgets.cards import HIGHLIGHT_COLOUR, border_legend
    html = border_legend("came from <the> nest")
    assert "rook-border-legend" in html and HIGHLIGHT_COLOUR in html
    assert "blue border: came from &lt;the&gt; nest" in html
    with pytest.raises(ValueError, match="needs a meaning"):
        border_legend("  ")
