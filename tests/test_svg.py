"""SVG card faces: valid XML, readable text, colours, accessibility, determinism."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from rummykit import svg
from rummykit.engine.cards import Card, Hand, Rank, Shoe, Suit, parse_cards
from rummykit.engine.melds import Meld

NS = {"s": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"
NATURALS = [Card(rank, suit) for suit in Suit for rank in Rank]
JOKER = Card.joker()


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def texts(element: ET.Element) -> list[str]:
    """Every piece of text drawn (not titles), in document order."""
    return [
        "".join(node.itertext()).strip()
        for node in element.iter(SVG + "text")
        if "".join(node.itertext()).strip()
    ]


def text_fills(element: ET.Element) -> set[str]:
    return {node.get("fill") for node in element.iter(SVG + "text")}


def cards_of(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(SVG + "g") if g.get("class") == "card"]


@pytest.fixture(autouse=True)
def default_options():
    """Every test starts and ends with the default options, even if it changes them."""
    saved = svg.SvgOptions(**vars(svg.options))
    yield
    svg.options.four_colour = saved.four_colour
    svg.options.card_width = saved.card_width


@pytest.mark.parametrize("card", NATURALS, ids=lambda card: card.code)
def test_every_natural_shows_rank_and_suit_in_both_corners(card):
    root = parse(svg.card_svg(card))
    drawn = texts(root)
    assert drawn.count(card.rank.code) >= 2
    assert drawn.count(card.suit.symbol) >= 2
    assert "JOKER" not in "".join(drawn)


@pytest.mark.parametrize("card", [*NATURALS, JOKER], ids=lambda card: card.code)
def test_title_and_aria_label_are_the_card_name(card):
    root = parse(svg.card_svg(card))
    assert root.get("role") == "img"
    assert root.get("aria-label") == card.name
    assert root.find("s:title", NS).text == card.name


@pytest.mark.parametrize("card", NATURALS, ids=lambda card: card.code)
def test_red_and_black_suits(card):
    root = parse(svg.card_svg(card, four_colour=False))
    expected = "#c8102e" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "#1a1a1a"
    assert text_fills(root) == {expected}
    assert svg.suit_colour(card.suit, four_colour=False) == expected


def test_four_colour_mode_gives_every_suit_its_own_colour():
    fills = {}
    for suit in Suit:
        root = parse(svg.card_svg(Card(Rank.SEVEN, suit), four_colour=True))
        (fills[suit],) = text_fills(root)
    assert len(set(fills.values())) == 4
    assert fills[Suit.HEARTS] == svg.suit_colour(Suit.HEARTS, four_colour=False)
    assert fills[Suit.SPADES] == svg.suit_colour(Suit.SPADES, four_colour=False)


def test_four_colour_option_switches_the_jupyter_display():
    card = Card.parse("8D")
    assert card._repr_svg_() == svg.card_svg(card, four_colour=False)
    svg.options.four_colour = True
    assert card._repr_svg_() == svg.card_svg(card, four_colour=True)
    assert card._repr_svg_() != svg.card_svg(card, four_colour=False)
    hand = parse_cards("8D 9C")
    assert hand._repr_svg_() == svg.hand_svg(hand, four_colour=True)


@pytest.mark.parametrize("four_colour", [False, True])
def test_joker_is_distinct_from_every_natural(four_colour):
    joker = parse(svg.card_svg(JOKER, four_colour=four_colour))
    joker_texts = set(texts(joker))
    joker_colours = text_fills(joker)
    assert "".join(texts(joker)).replace(" ", "") == "JOKERJOKER"
    for card in NATURALS:
        natural = parse(svg.card_svg(card, four_colour=four_colour))
        assert not joker_texts & set(texts(natural))
        assert not joker_colours & text_fills(natural)
        assert joker.find("s:rect", NS).get("fill") != natural.find("s:rect", NS).get("fill")


def test_width_scales_the_card():
    root = parse(svg.card_svg(Card.parse("QS"), width=100))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "100",
        "140",
        "0 0 100 140",
    )
    svg.options.card_width = 50
    assert parse(svg.card_svg(Card.parse("QS"))).get("width") == "50"


def test_hand_has_one_group_per_card_in_order():
    hand = Shoe(decks=1, jokers=2).deal(15, seed=3)
    root = parse(svg.hand_svg(hand))
    groups = cards_of(root)
    assert [g.get("aria-label") for g in groups] == [card.name for card in hand]
    assert [g.find("s:title", NS).text for g in groups] == [card.name for card in hand]
    # Each card sits to the right of the one before.
    xs = [float(g.get("transform").split("(")[1].split()[0]) for g in groups]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert root.get("aria-label") == "hand of 15 cards"


def test_hand_repr_matches_module_function():
    hand = parse_cards("8S 8H JK 10D")
    assert hand._repr_svg_() == svg.hand_svg(hand)
    assert hand[0]._repr_svg_() == svg.card_svg(hand[0])


def test_highlight_groups_draw_their_colours():
    hand = parse_cards("8S 4C 8H JH 9D JK JS 8D")
    groups = [[hand[0], hand[2], hand[7]], [hand[3], hand[6], hand[5]]]
    root = parse(svg.hand_svg(hand, highlight=groups))
    first, second = svg._GROUP_COLOURS[:2]
    expected = [first, None, first, second, None, second, second, first]
    for g, colour in zip(cards_of(root), expected, strict=True):
        marks = [rect for rect in g.iter(SVG + "rect") if rect.get("class") == "highlight"]
        if colour is None:
            assert marks == []
        else:
            outline, bar = marks
            assert (outline.get("stroke"), outline.get("fill")) == (colour, "none")
            assert bar.get("fill") == colour


def test_highlight_mapping_and_identical_cards():
    hand = parse_cards("JH JH 3C")  # two different jacks of hearts (decks 0 and 1)
    text = svg.hand_svg(hand, highlight={hand[1]: "#ff00ff"})
    groups = cards_of(parse(text))
    assert 'stroke="#ff00ff"' not in ET.tostring(groups[0], encoding="unicode")
    assert 'stroke="#ff00ff"' in ET.tostring(groups[1], encoding="unicode")


@pytest.mark.parametrize(
    ("highlight", "error"),
    [
        ({Card.parse("9H"): "red"}, ValueError),  # not in the hand
        ({Card.parse("8S"): "url(http://x)"}, ValueError),  # not a colour
        ([Card.parse("8S")], TypeError),  # a group must be a collection
        ("8S", TypeError),
        ([[Card.parse("8S")], [Card.parse("8S")]], ValueError),  # one card, two colours
    ],
)
def test_bad_highlight_is_refused(highlight, error):
    with pytest.raises(error):
        svg.hand_svg(parse_cards("8S 8H"), highlight=highlight)


def test_labels_under_cards_are_escaped():
    hand = parse_cards("8S 8H")
    text = svg.hand_svg(hand, labels=['<a & "b">', None])
    root = parse(text)
    assert '<a & "b">' in texts(root)
    with pytest.raises(ValueError, match="one entry per card"):
        svg.hand_svg(hand, labels=["x"])


def test_melds_side_by_side_with_labels():
    melds = [parse_cards("8S 8H 8D"), parse_cards("3S 4S JK 6S")]
    root = parse(svg.melds_svg(melds, labels=["set", "run"]))
    meld_groups = [g for g in root.iter(SVG + "g") if g.get("class") == "meld"]
    assert len(meld_groups) == 2
    assert [len(cards_of(g)) for g in meld_groups] == [3, 4]
    assert "set" in texts(meld_groups[0]) and "run" in texts(meld_groups[1])
    assert [g.get("aria-label") for g in cards_of(root)] == [c.name for m in melds for c in m]
    unlabelled = parse(svg.melds_svg(melds, labels=False))
    assert "set" not in texts(unlabelled)


def test_empty_hand_and_bad_arguments():
    assert parse(svg.hand_svg([])).get("aria-label") == "no cards"
    with pytest.raises(ValueError):
        svg.hand_svg(parse_cards("8S"), overlap=0.9)
    with pytest.raises(ValueError):
        svg.card_svg(Card.parse("8S"), width=0)
    with pytest.raises(TypeError):
        svg.card_svg("8S")
    with pytest.raises(TypeError):
        svg.hand_svg(["8S"])


def everything() -> list[str]:
    hand = Hand([*NATURALS, JOKER, Card.joker(1)])
    return [
        *(svg.card_svg(card, four_colour=four) for card in hand for four in (False, True)),
        svg.hand_svg(hand, highlight=[hand[:3], hand[-2:]], labels=[c.code for c in hand]),
        svg.hand_svg(hand, overlap=0, four_colour=True),
        svg.melds_svg([hand[:3], hand[3:7]]),
    ]


def test_self_contained_and_valid():
    for text in everything():
        parse(text)
        lowered = text.lower()
        assert "href" not in lowered
        assert "http" not in lowered.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "<script" not in lowered
        assert "<image" not in lowered and "@import" not in lowered and "url(" not in lowered
        assert " id=" not in lowered


def test_deterministic():
    assert everything() == everything()


def test_meld_objects_show_kind_and_what_each_joker_stands_for():
    cards = parse_cards("3S 4S JK 6S")
    run = Meld("run", cards, (None, None, Card.parse("5S"), None), suit=Suit.SPADES, start=3)
    root = parse(svg.melds_svg([run]))
    (meld,) = [g for g in root.iter(SVG + "g") if g.get("class") == "meld"]
    assert meld.get("aria-label") == run.describe()
    assert "run" in texts(meld) and "= 5♠" in texts(cards_of(meld)[2])
    assert run._repr_svg_() == svg.hand_svg(cards)
    bare = parse(svg.melds_svg([run], labels=False))
    assert "run" not in texts(bare) and "= 5♠" not in texts(bare)


# --- Issue 50: labels a reader can read; a set's joker has no suit ----------------------


def _label_pixels(drawing: str, text: str) -> float:
    """The on-screen height of the label ``text`` in ``drawing``: its font size scaled as
    the viewBox is to the width."""
    root = ET.fromstring(drawing)
    scale = float(root.get("width")) / float(root.get("viewBox").split()[2])
    (label,) = [node for node in root.iter() if node.tag.endswith("text") and node.text == text]
    return float(label.get("font-size")) * scale


@pytest.mark.parametrize("width", [24, 40, 56, 72, 100, 150])
def test_labels_under_cards_are_at_least_11_pixels_at_any_width(width):
    faces = parse_cards("8S 9H")
    drawing = svg.hand_svg(faces, width=width, overlap=0, labels=["×2", "×4"])
    assert _label_pixels(drawing, "×2") >= 11 - 0.01
    # Above the floor, the labels keep their size in the card (they scale with it).
    assert _label_pixels(drawing, "×4") >= 0.15 * width - 0.01
    # The labels sit inside the drawing, under the cards.
    root = ET.fromstring(drawing)
    (label,) = [node for node in root.iter() if node.tag.endswith("text") and node.text == "×4"]
    assert 140 < float(label.get("y")) <= float(root.get("viewBox").split()[3])


def test_a_sets_joker_stands_for_a_rank_a_runs_for_a_card():
    from rummykit import RuleSet, check_meld

    rules = RuleSet.preset("standard")
    meld_set = check_meld(parse_cards("3C 3D JK"), rules).meld
    meld_run = check_meld(parse_cards("3S 4S JK 6S"), rules).meld
    drawing = svg.melds_svg([meld_set, meld_run], width=40)
    # The set's joker is "= 3", beside a real 3♣: no suit of its own.
    assert ">= 3<" in drawing and meld_set.stands_for[2].symbol not in re.findall(
        r">= ([^<]*)<", drawing
    )
    assert ">= 5♠<" in drawing
    assert _label_pixels(drawing, "= 3") >= 11 - 0.01
