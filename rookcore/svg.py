"""Self-contained SVG pictures of Rook cards: the engine draws its own cards (as python-chess has ``chess.svg``).

UI-free: plain strings, no widget imports. The app's table widget, Replay and the lessons all draw cards here.

Everything is drawn with SVG shapes and generic fonts (no network fetches, no
external hrefs, no element ids, so many pictures can share one HTML page).
Each colour has its own symbol shape as well as its own colour, so colour-blind
players can tell suits apart: Red heart, Yellow triangle, Green leaf, Black
square. Cards are drawn in a 100 x 140 unit box scaled to ``width`` px.
"""
from __future__ import annotations

from html import escape
from typing import Iterable

from .cards import Card
from .i18n import _, ngettext, pgettext
from .words import bird_name as bird_word, colour_name, list_text

PALETTE: dict[str, str] = {"R": "#c62828", "Y": "#e0a800", "G": "#2e7d32", "B": "#212121"}
DARK: dict[str, str] = {"R": "#8e0000", "Y": "#7a5c00", "G": "#005005", "B": "#000000"}
BIRD_COLOUR = "#37474f"
RED_ONE_GOLD = "#ffb300"
HIGHLIGHT_COLOUR = "#1e88e5"
BACK_COLOUR = "#283593"
FONT = 'font-family="sans-serif" font-weight="bold"'
W, H = 100, 140  # card box in SVG units
SVG_NS = "http://www.w3.org/2000/svg"

# Symbol outlines in a unit box centred on (0, 0), radius about 1.
SYMBOLS: dict[str, str] = {
    "R": "M0,1 C-0.35,0.7 -1,0.25 -1,-0.3 C-1,-0.95 -0.2,-1.05 0,-0.45 "
         "C0.2,-1.05 1,-0.95 1,-0.3 C1,0.25 0.35,0.7 0,1 Z",            # heart
    "Y": "M0,-1 L1,0.8 L-1,0.8 Z",                                       # triangle
    "G": "M0,-1 C1.05,-0.5 0.95,0.5 0,1 C-0.95,0.5 -1.05,-0.5 0,-1 Z",  # leaf
    "B": "M-0.8,-0.8 L0.8,-0.8 L0.8,0.8 L-0.8,0.8 Z",                   # square
}
STAR = "M0,-1 L0.24,-0.33 L0.95,-0.31 L0.38,0.12 L0.59,0.81 L0,0.4 L-0.59,0.81 L-0.38,0.12 L-0.95,-0.31 L-0.24,-0.33 Z"
BIRD = ("M14,84 L34,72 C38,60 50,54 60,55 C62,47 68,43 74,44 C78,45 80,47 81,49 "
        "L92,52 L80,55 C79,63 74,72 62,78 L56,90 L52,90 L55,80 C48,82 40,81 34,79 Z")


def _symbol(colour: str, x: float, y: float, size: float) -> str:
    """SVG path for the colour's symbol centred at (x, y) with radius ``size`` units."""
    return (f'<path d="{SYMBOLS[colour]}" transform="translate({x:g},{y:g}) scale({size:g})" '
            f'fill="{PALETTE[colour]}" stroke="{DARK[colour]}" stroke-width="{0.8 / size:.3g}"/>')


def _is_red_one(card: Card, red_one: bool) -> bool:
    return red_one and card.colour == "R" and card.number == 1


def card_label(card: Card, bird_name: str = "Crow", red_one: bool = False) -> str:
    """Short plain-text name of ``card`` for button captions and tooltips.

    Args: ``card`` a `rookcore.cards.Card`; ``bird_name`` "Crow" or "Rook";
    ``red_one`` True in The Red 1 rule set (R1 is then called "Red 1").
    Returns e.g. ``"R14"``, ``"Crow"`` or ``"Red 1"``.
    """
    card = Card(card) if not isinstance(card, Card) else card
    if card.is_bird:
        return bird_name.capitalize()
    if _is_red_one(card, red_one):
        return "Red 1"
    return card.notation()


def card_title(card: Card, bird_name: str = "Crow", red_one: bool = False) -> str:
    """Spoken name of ``card`` (e.g. "Red 14", "the Crow", "the Red 1") in the active language (`rookcore.i18n`;
    de "Rot 14", "die Krähe"); used as SVG title and label."""
    if card.is_bird:
        return _("the {bird}", bird=bird_word(bird_name.capitalize()))
    if _is_red_one(card, red_one):
        return pgettext("card title", "the Red 1")
    # TRANSLATORS: a card's spoken name, "Red 14"
    return _("{colour} {number}", colour=colour_name(card.colour), number=card.number)


def _listed(card: Card, bird_name: str, red_one: bool) -> str:
    """A card as a hand's label lists it: its notation ("R9"), the bird and the Red 1 by name (active language)."""
    if card.is_bird:
        return bird_word(bird_name.capitalize())
    if _is_red_one(card, red_one):
        return pgettext("card", "Red 1")
    return card.notation()


def _back_body() -> str:
    """Elements of a card back in the 100 x 140 unit box."""
    lattice = []
    for k in range(-124, 100, 14):  # diagonal lattice clipped by hand to the inner box
        x0, x1 = max(8, k + 8), min(92, k + 132)
        if x1 > x0:
            lattice.append(f"M{x0},{x0 - k} L{x1},{x1 - k}")
            lattice.append(f"M{W - x0},{x0 - k} L{W - x1},{x1 - k}")
    return (f'<rect x="2" y="2" width="96" height="136" rx="8" fill="{BACK_COLOUR}" stroke="#1a237e" stroke-width="2"/>'
            f'<rect x="8" y="8" width="84" height="124" rx="4" fill="none" stroke="#c5cae9" stroke-width="1.5"/>'
            f'<path d="{" ".join(lattice)}" stroke="#7986cb" stroke-width="1.2" fill="none"/>'
            f'<ellipse cx="50" cy="70" rx="30" ry="22" fill="{BACK_COLOUR}" stroke="#c5cae9" stroke-width="1.5"/>'
            f'<path d="{BIRD}" transform="translate(26,38) scale(0.5)" fill="#e8eaf6"/>')


def _face_body(card: Card, bird_name: str, red_one: bool) -> str:
    """Elements of a card face in the 100 x 140 unit box."""
    parts = ['<rect x="2" y="2" width="96" height="136" rx="8" fill="#ffffff" stroke="#616161" stroke-width="2"/>']
    if card.is_bird:
        name = escape(bird_name.upper())
        parts += [f'<rect x="8" y="8" width="84" height="124" rx="5" fill="{BIRD_COLOUR}"/>',
                  f'<path d="{BIRD}" transform="translate(50,66) scale(0.85) translate(-53,-67)" fill="#eceff1"/>',
                  f'<text x="50" y="122" text-anchor="middle" font-size="18" {FONT} fill="#ffffff">{name}</text>',
                  f'<text x="14" y="28" font-size="14" {FONT} fill="#ffffff">{name[:1]}</text>']
        return "".join(parts)
    col, num = card.colour, str(card.number)
    fill, dark = PALETTE[col], DARK[col]
    txt = f'{FONT} fill="{fill}" stroke="{dark}" stroke-width="{1 if col == "Y" else 0.4}"'
    corner = (f'<text x="17" y="30" text-anchor="middle" font-size="22" {txt}>{num}</text>'
              + _symbol(col, 17, 43, 7))
    parts += [corner, f'<g transform="rotate(180 50 70)">{corner}</g>']
    if _is_red_one(card, red_one):
        parts += [f'<rect x="6" y="6" width="88" height="128" rx="6" fill="none" stroke="{RED_ONE_GOLD}" stroke-width="4"/>',
                  f'<path d="{STAR}" transform="translate(50,58) scale(24)" fill="{RED_ONE_GOLD}" '
                  f'stroke="{dark}" stroke-width="0.06"/>',
                  f'<text x="50" y="67" text-anchor="middle" font-size="22" {txt}>1</text>',
                  f'<text x="45" y="100" text-anchor="middle" font-size="15" {txt}>Red 1</text>']
    else:
        parts += [_symbol(col, 50, 36, 11),
                  f'<text x="50" y="87" text-anchor="middle" font-size="40" {txt}>{num}</text>',
                  _symbol(col, 50, 108, 11)]
    return "".join(parts)


def _card_group(card: Card, bird_name: str, red_one: bool, face_up: bool,
                highlight: bool, dimmed: bool) -> str:
    """One card's elements (title included) in the 100 x 140 unit box."""
    title = card_title(card, bird_name, red_one) if face_up else _("a face-down card")
    body = _face_body(card, bird_name, red_one) if face_up else _back_body()
    if dimmed:
        body += '<rect x="2" y="2" width="96" height="136" rx="8" fill="#9e9e9e" fill-opacity="0.6"/>'
    if highlight:
        body += f'<rect x="2.5" y="2.5" width="95" height="135" rx="8" fill="none" stroke="{HIGHLIGHT_COLOUR}" stroke-width="5"/>'
    return f"<title>{escape(title)}</title>{body}"


def card_svg(card: Card, *, bird_name: str = "Crow", red_one: bool = False, width: int = 60,
             face_up: bool = True, highlight: bool = False, dimmed: bool = False) -> str:
    """SVG picture of one card, as an ``<svg>`` string.

    Args: ``card`` a `Card` (or its int id); ``bird_name`` "Crow" or "Rook"
    (label on the bird card); ``red_one`` True in The Red 1 rule set (R1 is drawn
    with a gold star and the label "Red 1"); ``width`` in px (height is 1.4 x
    width); ``face_up`` False draws the card back; ``highlight`` adds a blue
    border (its meaning differs by place: show `border_legend` beside it); ``dimmed`` greys the card (e.g. not
    playable).
    Returns a standalone ``<svg>`` element with a ``<title>`` and ``aria-label``.
    """
    card = Card.from_id(int(card))
    label = card_title(card, bird_name, red_one) if face_up else _("a face-down card")
    height = round(width * H / W)
    return (f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" viewBox="0 0 {W} {H}" '
            f'role="img" aria-label="{escape(label)}">'
            f'{_card_group(card, bird_name, red_one, face_up, highlight, dimmed)}</svg>')


def card_back_svg(width: int = 60) -> str:
    """SVG picture of a card back (face-down card); ``width`` in px, height 1.4 x width."""
    return card_svg(Card.bird(), width=width, face_up=False)


def hand_svg(cards: Iterable[Card], *, bird_name: str = "Crow", red_one: bool = False,
             width: int = 60, face_up: bool = True, step: float = 0.32,
             highlight: Iterable[Card] = (), dimmed: Iterable[Card] = ()) -> str:
    """SVG picture of a hand: a row of overlapping cards in one ``<svg>`` (display only).

    Args: ``cards`` in display order; ``bird_name``, ``red_one``, ``face_up`` as
    for `card_svg`; ``width`` of one card in px; ``step`` the horizontal offset
    between cards as a fraction of the card width; ``highlight`` / ``dimmed``
    the cards to draw highlighted / greyed.
    Returns an ``<svg>`` string (an empty 0-width picture for no cards).
    """
    cards = [Card.from_id(int(c)) for c in cards]
    hi, dim = {int(c) for c in highlight}, {int(c) for c in dimmed}
    dx = W * step
    total = W + dx * (len(cards) - 1) if cards else 0
    names = (list_text(_listed(c, bird_name, red_one) for c in cards) if face_up
             else ngettext("{count} card", "{count} cards", len(cards), count=len(cards)))
    groups = "".join(
        f'<g transform="translate({i * dx:g},0)">'
        f'{_card_group(c, bird_name, red_one, face_up, int(c) in hi, int(c) in dim)}</g>'
        for i, c in enumerate(cards))
    label = escape(_("Hand: {cards}", cards=names) if cards else _("Empty hand"))
    return (f'<svg xmlns="{SVG_NS}" width="{round(total * width / W)}" height="{round(width * H / W)}" '
            f'viewBox="0 0 {total:g} {H}" role="img" aria-label="{label}"><title>{label}</title>{groups}</svg>')
