"""SVG card faces, hands and melds, drawn by rummykit itself.

Every function returns a standalone ``<svg>`` string: no images, no web fonts,
no scripts and no external references, so the output displays the same in
Jupyter, in a static HTML page and in a Jupyter Book. Each card carries its
name (``"8 of hearts"``, ``"joker"``) as a ``<title>`` and an ``aria-label``,
the text alternative a screen reader reads.

Cards are drawn in a 100 x 140 coordinate box and scaled to ``width`` pixels.
Hearts and diamonds are red, clubs and spades black. In *four-colour* mode
clubs are green and diamonds blue, so every suit differs by colour as well as
by symbol. Turn it on for the Jupyter display of every :class:`~rummykit.engine.cards.Card`,
:class:`~rummykit.engine.cards.Hand` and :class:`~rummykit.engine.melds.Meld` with

>>> options.four_colour = True
>>> 'fill="#1b7837"' in card_svg(Card.parse("8C"))
True
>>> options.four_colour = False

or for one drawing only with ``card_svg(card, four_colour=True)``.

This module uses the standard library only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from rummykit.engine.cards import Card, Rank, Suit
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import items
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "SvgOptions",
    "card_svg",
    "hand_svg",
    "melds_svg",
    "options",
    "suit_colour",
]


@dataclass
class SvgOptions:
    """Display settings used when a drawing function is not told otherwise."""

    four_colour: bool = False
    """Draw clubs green and diamonds blue (hearts stay red, spades black)."""
    card_width: float = 72
    """The width of one card, in pixels (a card is 1.4 times as tall as it is wide)."""


#: The settings Jupyter's ``_repr_svg_`` hooks use: ``svg.options.four_colour = True``.
options = SvgOptions()

# Card geometry, in the units of one card's 100 x 140 box.
_W = 100
_H = 140
_GAP = 4  # space between neighbouring cards that do not overlap
_MELD_GAP = 24  # space between melds
_BAR_Y = _H + 4  # the highlight bar under a card
_BAR_H = 6
_LABEL_SIZE = 15
# The text under a card is at least this many pixels high on screen: at small widths
# (the outs' faces are 40 px wide) the 15 units above drew 6 px counts.
_MIN_LABEL_PX = 11

# Colours: all at least 4.5:1 against white, and the four-colour hues are told
# apart by the common colour-vision deficiencies.
_BLACK = "#1a1a1a"
_RED = "#c8102e"
_TWO_COLOURS = {Suit.CLUBS: _BLACK, Suit.DIAMONDS: _RED, Suit.HEARTS: _RED, Suit.SPADES: _BLACK}
_FOUR_COLOURS = {
    Suit.CLUBS: "#1b7837",
    Suit.DIAMONDS: "#0050b5",
    Suit.HEARTS: _RED,
    Suit.SPADES: _BLACK,
}
_FACE = "#ffffff"
_EDGE = "#8c8c8c"
_JOKER_INK = "#6a1b9a"
_JOKER_FACE = "#fff4d6"
_LABEL_INK = "#333333"
# Okabe-Ito colours, darkest first, for highlighted groups (melds).
_GROUP_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9")
_COLOUR = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]+")

_SANS = 'font-family="sans-serif"'
_SERIF = 'font-family="serif"'


def suit_colour(suit: Suit, *, four_colour: bool | None = None) -> str:
    """The ink colour of ``suit``, as ``"#rrggbb"``.

    >>> suit_colour(Suit.HEARTS), suit_colour(Suit.SPADES)
    ('#c8102e', '#1a1a1a')
    >>> suit_colour(Suit.DIAMONDS, four_colour=True)
    '#0050b5'
    """
    if not isinstance(suit, Suit):
        raise ArgumentTypeError(f"suit must be a Suit, got {suit!r}")
    return _palette(four_colour)[suit]


def card_svg(card: Card, *, four_colour: bool | None = None, width: float | None = None) -> str:
    """One card face as a standalone ``<svg>``.

    ``four_colour`` and ``width`` (pixels) default to :data:`options`.

    >>> svg = card_svg(Card.parse("8H"))
    >>> svg.startswith("<svg"), "<title>8 of hearts</title>" in svg
    (True, True)
    >>> 'aria-label="joker"' in card_svg(Card.joker())
    True
    """
    if not isinstance(card, Card):
        raise ArgumentTypeError(f"card_svg draws one Card, got {card!r}")
    width = _check_width(width)
    body = _card_body(card, _palette(four_colour))
    return _svg(
        body,
        box=(_W, _H),
        width=width,
        role="img",
        label=card.name,
        title=card.name,
    )


def hand_svg(
    cards: Iterable[Card],
    *,
    four_colour: bool | None = None,
    width: float | None = None,
    overlap: float = 0.4,
    highlight: Mapping[Card, str] | Sequence[Iterable[Card]] | None = None,
    labels: Sequence[str | None] | None = None,
) -> str:
    """A row of cards as one ``<svg>``, each card a ``<g>`` with its own title.

    ``overlap`` is the fraction of each card hidden under the next (0 lays them
    side by side); the rank and suit in the top-left corner stay visible up to
    0.7. ``highlight`` outlines cards and underlines them with a bar: either a
    mapping from card to colour, or a sequence of groups of cards (the melds of a
    contract, say), each group in its own colour. ``labels`` puts a short text
    under each card (None for no text under that card).

    >>> from rummykit.engine.cards import parse_cards
    >>> hand = parse_cards("8S 8H 8D 3C JK")
    >>> svg = hand_svg(hand, highlight=[hand[:3]], labels=["a", "b", "c", None, "wild"])
    >>> svg.count('class="card"'), 'stroke="#0072b2"' in svg, ">wild</text>" in svg
    (5, True, True)
    >>> hand_svg(hand) == hand_svg(hand)
    True
    """
    cards = _check_cards(cards)
    width = _check_width(width)
    overlap = _check_overlap(overlap)
    colours = _highlight_colours(highlight, cards)
    if labels is not None:
        labels = _check_labels(labels, len(cards), "card")
    if not cards:
        return _empty_svg(width)
    palette = _palette(four_colour)
    size = _label_size(width)
    body, row_width = _row(cards, palette, overlap, colours, labels, size)
    height = _row_height(bool(colours), size if labels is not None and any(labels) else 0)
    count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
    return _svg(body, box=(row_width, height), width=width, role="group", label=f"hand of {count}")


def melds_svg(
    melds: Iterable[Iterable[Card]],
    *,
    four_colour: bool | None = None,
    width: float | None = None,
    overlap: float = 0.4,
    labels: Sequence[str | None] | bool = True,
) -> str:
    """Several melds side by side, each labelled underneath.

    ``melds`` are :class:`~rummykit.engine.melds.Meld` objects or plain sequences of
    cards. With ``labels=True`` a meld is labelled by its kind (``"set"``,
    ``"run"``); a sequence gives one label per meld (None for no label). Under
    each joker of a ``Meld`` is what it stands for, unless ``labels=False``,
    which draws no text at all: in a run its card (``= 9♥``), in a set its rank
    only (``= 3``: a set's joker stands for no particular suit).

    >>> from rummykit.engine.cards import parse_cards
    >>> melds = [parse_cards("8S 8H 8D"), parse_cards("3S 4S 5S 6S")]
    >>> svg = melds_svg(melds, labels=["set", "run"])
    >>> svg.count('class="meld"'), svg.count('class="card"'), ">run</text>" in svg
    (2, 7, True)
    """
    melds = items("melds", melds)
    groups = [_check_cards(meld) for meld in melds]
    if any(not cards for cards in groups):
        raise ArgumentError("melds_svg cannot draw an empty meld")
    width = _check_width(width)
    overlap = _check_overlap(overlap)
    if labels is True or labels is False:
        meld_labels = [getattr(meld, "kind", None) if labels else None for meld in melds]
    elif isinstance(labels, str) or not isinstance(labels, Sequence):
        raise ArgumentTypeError(
            f"labels must be True, False or a sequence of strings, got {labels!r}"
        )
    else:
        meld_labels = _check_labels(labels, len(groups), "meld")
    if not groups:
        return _empty_svg(width, text="no melds")
    # Under each joker, the card it stands for (a Meld knows; a plain list does not).
    stands = [
        tuple(getattr(meld, "stands_for", None) or (None,) * len(cards))
        if labels is not False
        else (None,) * len(cards)
        for meld, cards in zip(melds, groups, strict=True)
    ]
    joker_labels = any(stand is not None for row in stands for stand in row)
    size = _label_size(width)
    row_height = _row_height(False, size if joker_labels else 0)
    palette = _palette(four_colour)
    body: list[str] = []
    x = 0.0
    for meld, cards, label, row in zip(melds, groups, meld_labels, stands, strict=True):
        in_set = getattr(meld, "kind", None) == "set"
        card_labels = [
            None if stand is None else f"= {stand.rank.code if in_set else stand.symbol}"
            for stand in row
        ]
        inner, meld_width = _row(cards, palette, overlap, {}, card_labels, size)
        if label is not None:
            y = row_height + _LABEL_SIZE + 4
            inner.append(_text(label, meld_width / 2, y, size=_LABEL_SIZE + 2, fill=_LABEL_INK))
        describe = getattr(meld, "describe", None)
        name = describe() if callable(describe) else ", ".join(card.name for card in cards)
        body.append(
            f'<g class="meld" role="group" aria-label="{_esc(name)}" '
            f'transform="translate({_num(x)} 0)">' + "".join(inner) + "</g>"
        )
        x += meld_width + _MELD_GAP
    height = row_height + (_LABEL_SIZE + 10 if any(meld_labels) else 0)
    count = f"{len(groups)} meld{'s' if len(groups) != 1 else ''}"
    return _svg(body, box=(x - _MELD_GAP, height), width=width, role="group", label=count)


# --- drawing -----------------------------------------------------------------


def _card_body(card: Card, palette: Mapping[Suit, str], outline: str | None = None) -> list[str]:
    """The elements of one card face, in its 100 x 140 box."""
    if card.is_joker:
        parts = _joker_face()
    else:
        parts = _natural_face(card.rank, card.suit, palette[card.suit])
    if outline is not None:
        parts.append(
            f'<rect class="highlight" x="3" y="3" width="{_W - 6}" height="{_H - 6}" rx="7" '
            f'fill="none" stroke="{outline}" stroke-width="5"/>'
        )
    return parts


def _natural_face(rank: Rank, suit: Suit, ink: str) -> list[str]:
    parts = [_card_rect(_FACE, _EDGE)]
    code, symbol = rank.code, suit.symbol
    # "10" is two digits wide: squeeze it so the corner stays narrow.
    spacing = ' letter-spacing="-2"' if len(code) == 2 else ""
    for turn in ("", f' transform="rotate(180 {_W // 2} {_H // 2})"'):
        parts.append(
            f'<text x="14" y="25" text-anchor="middle" {_SANS} font-size="22" '
            f'font-weight="bold" fill="{ink}"{spacing}{turn}>{code}</text>'
        )
        parts.append(
            f'<text x="14" y="45" text-anchor="middle" {_SANS} font-size="20" '
            f'fill="{ink}"{turn}>{symbol}</text>'
        )
    if rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        parts.append(
            f'<rect x="27" y="30" width="46" height="80" rx="4" fill="none" '
            f'stroke="{ink}" stroke-width="1.5"/>'
        )
        parts.append(
            f'<text x="50" y="80" text-anchor="middle" {_SERIF} font-size="44" '
            f'font-weight="bold" fill="{ink}">{code}</text>'
        )
        parts.append(
            f'<text x="50" y="103" text-anchor="middle" {_SANS} font-size="22" '
            f'fill="{ink}">{symbol}</text>'
        )
    else:
        size = 72 if rank is Rank.ACE else 56
        parts.append(
            f'<text x="50" y="{_num(70 + 0.33 * size)}" text-anchor="middle" {_SANS} '
            f'font-size="{size}" fill="{ink}">{symbol}</text>'
        )
    return parts


def _joker_face() -> list[str]:
    parts = [_card_rect(_JOKER_FACE, _JOKER_INK, stroke_width=2)]
    for turn in ("", f' transform="rotate(180 {_W // 2} {_H // 2})"'):
        letters = "".join(
            f'<tspan x="13" y="{20 + 13 * i}">{letter}</tspan>' for i, letter in enumerate("JOKER")
        )
        parts.append(
            f'<text text-anchor="middle" {_SANS} font-size="13" font-weight="bold" '
            f'fill="{_JOKER_INK}"{turn}>{letters}</text>'
        )
    parts.append(f'<polygon points="{_star(50, 70, 27, 11)}" fill="{_JOKER_INK}"/>')
    return parts


def _card_rect(fill: str, stroke: str, stroke_width: float = 1) -> str:
    return (
        f'<rect x="0.5" y="0.5" width="{_W - 1}" height="{_H - 1}" rx="8" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(stroke_width)}"/>'
    )


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    """The points of a five-pointed star, rounded so the output is the same everywhere."""
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / 5
        points.append(
            f"{_num(cx + radius * math.sin(angle))},{_num(cy - radius * math.cos(angle))}"
        )
    return " ".join(points)


def _row(
    cards: Sequence[Card],
    palette: Mapping[Suit, str],
    overlap: float,
    colours: Mapping[int, str],
    labels: Sequence[str | None] | None,
    label_size: float = _LABEL_SIZE,
) -> tuple[list[str], float]:
    """One ``<g>`` per card, left to right, and the width the row takes; ``labels`` under
    the cards in text ``label_size`` units high."""
    step = _W * (1 - overlap) + (_GAP if overlap == 0 else 0)
    parts = []
    for i, card in enumerate(cards):
        x = i * step
        last = i == len(cards) - 1
        visible = _W if last else step - (_GAP if overlap == 0 else 0)
        outline = colours.get(i)
        inner = _card_body(card, palette, outline)
        if outline is not None:
            inner.append(
                f'<rect class="highlight" x="0" y="{_BAR_Y}" width="{_num(visible)}" '
                f'height="{_BAR_H}" fill="{outline}"/>'
            )
        if labels is not None and labels[i] is not None:
            label_y = _row_height(bool(colours), 0) + label_size
            inner.append(_text(labels[i], visible / 2, label_y, size=label_size, fill=_LABEL_INK))
        name = _esc(card.name)
        parts.append(
            f'<g class="card" role="img" aria-label="{name}" '
            f'transform="translate({_num(x)} 0)"><title>{name}</title>' + "".join(inner) + "</g>"
        )
    return parts, (len(cards) - 1) * step + _W


def _row_height(bar: bool, label_size: float) -> float:
    """A row's height: the cards, the bar if ``bar``, and room for labels ``label_size``
    units high (0: no labels)."""
    height = _BAR_Y + _BAR_H if bar else _H
    return height + (label_size + 6 if label_size else 0)


def _label_size(width: float) -> float:
    """The labels' text size in a card's units at a card ``width`` pixels wide:
    :data:`_LABEL_SIZE`, or more where that would be under :data:`_MIN_LABEL_PX` pixels.

    >>> _label_size(100), round(_label_size(40) * 40 / _W, 6)
    (15, 11.0)
    """
    return max(_LABEL_SIZE, _MIN_LABEL_PX * _W / width)


def _text(text: str, x: float, y: float, *, size: float, fill: str) -> str:
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="middle" {_SANS} '
        f'font-size="{_num(size)}" fill="{fill}">{_esc(text)}</text>'
    )


def _svg(
    body: Iterable[str],
    *,
    box: tuple[float, float],
    width: float,
    role: str,
    label: str,
    title: str | None = None,
) -> str:
    box_width, box_height = box
    scale = width / _W
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(box_width * scale)}" '
        f'height="{_num(box_height * scale)}" viewBox="0 0 {_num(box_width)} {_num(box_height)}" '
        f'role="{role}" aria-label="{_esc(label)}">'
    )
    title_element = f"<title>{_esc(title)}</title>" if title is not None else ""
    return head + title_element + "".join(body) + "</svg>"


def _empty_svg(width: float, text: str = "no cards") -> str:
    body = [
        f'<rect x="1" y="1" width="{_W - 2}" height="{_H - 2}" rx="8" fill="none" '
        f'stroke="{_EDGE}" stroke-width="2" stroke-dasharray="6 4"/>',
        _text(text, _W / 2, _H / 2 + 5, size=_LABEL_SIZE, fill=_LABEL_INK),
    ]
    return _svg(body, box=(_W, _H), width=width, role="img", label=text, title=text)


# --- arguments -----------------------------------------------------------------


def _palette(four_colour: bool | None) -> Mapping[Suit, str]:
    if four_colour is None:
        four_colour = options.four_colour
    return _FOUR_COLOURS if four_colour else _TWO_COLOURS


def _check_width(width: float | None) -> float:
    if width is None:
        width = options.card_width
    if isinstance(width, bool) or not isinstance(width, int | float) or not width > 0:
        raise ArgumentError(f"width must be a positive number of pixels, got {width!r}")
    return float(width)


def _check_overlap(overlap: float) -> float:
    if isinstance(overlap, bool) or not isinstance(overlap, int | float) or not 0 <= overlap <= 0.7:
        raise ArgumentError(f"overlap must be a fraction of a card from 0 to 0.7, got {overlap!r}")
    return float(overlap)


def _check_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(cards, Card):
        raise ArgumentTypeError(f"expected several cards, got the single card {cards!r}")
    return check_cards("cards", cards)


def _check_labels(labels: Sequence[str | None], count: int, what: str) -> list[str | None]:
    labels = items("labels", labels, what="a list of labels (str or None)")
    if len(labels) != count:
        raise ArgumentError(f"labels needs one entry per {what}: {len(labels)} for {count} {what}s")
    for label in labels:
        if label is not None and not isinstance(label, str):
            raise ArgumentTypeError(f"each label must be a string or None, got {label!r}")
    return labels


def _check_colour(colour: object) -> str:
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise ArgumentError(
            f"a highlight colour is '#rgb', '#rrggbb' or a CSS colour name, got {colour!r}"
        )
    return colour


def _highlight_colours(
    highlight: Mapping[Card, str] | Sequence[Iterable[Card]] | None, cards: Sequence[Card]
) -> dict[int, str]:
    """The outline colour of each highlighted position in ``cards``."""
    if highlight is None:
        return {}
    if isinstance(highlight, Mapping):
        pairs = [(card, _check_colour(colour)) for card, colour in highlight.items()]
    elif isinstance(highlight, str) or not isinstance(highlight, Sequence):
        raise ArgumentTypeError(
            f"highlight must map cards to colours or be a sequence of groups of cards, "
            f"got {highlight!r}"
        )
    else:
        pairs = []
        for number, group in enumerate(highlight):
            if isinstance(group, Card) or not isinstance(group, Iterable):
                raise ArgumentTypeError(
                    f"highlight groups must be collections of cards, got {group!r}; "
                    f"to highlight one group pass [cards]"
                )
            colour = _GROUP_COLOURS[number % len(_GROUP_COLOURS)]
            pairs.extend((card, colour) for card in group)
    colours: dict[int, str] = {}
    for card, colour in pairs:
        if not isinstance(card, Card):
            raise ArgumentTypeError(f"highlight names {card!r}, which is not a Card")
        positions = [i for i, held in enumerate(cards) if held == card]
        if not positions:
            raise ArgumentError(
                f"cannot highlight {card.symbol} (deck {card.deck}): it is not drawn"
            )
        for i in positions:
            if colours.get(i, colour) != colour:
                raise ArgumentError(
                    f"{card.symbol} (deck {card.deck}) is highlighted in two colours"
                )
            colours[i] = colour
    return colours


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _esc(text: str) -> str:
    return escape(text, {'"': "&quot;"})
