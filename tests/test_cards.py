"""Cards, hands and shoes: parsing, formatting, ordering, seeded shuffles."""

import random

import pytest

from rummykit import Card, CardParseError, Hand, Rank, Shoe, Suit, as_rng, parse_cards
from rummykit.errors import RummyError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("8H", Rank.EIGHT, Suit.HEARTS),
        ("10S", Rank.TEN, Suit.SPADES),
        ("TS", Rank.TEN, Suit.SPADES),
        ("ts", Rank.TEN, Suit.SPADES),
        ("QD", Rank.QUEEN, Suit.DIAMONDS),
        ("AC", Rank.ACE, Suit.CLUBS),
        ("8♥", Rank.EIGHT, Suit.HEARTS),
        ("10♠", Rank.TEN, Suit.SPADES),
        ("K♣", Rank.KING, Suit.CLUBS),
        ("2♦", Rank.TWO, Suit.DIAMONDS),
        ("J♥\ufe0f", Rank.JACK, Suit.HEARTS),
    ],
)
def test_parse_naturals(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit, card.deck) == (rank, suit, 0)


@pytest.mark.parametrize("text", ["JK", "jk", "Joker", "🃏"])
def test_parse_jokers(text):
    card = Card.parse(text)
    assert card.is_joker and card.code == "JK" and card.rank is None and card.suit is None


def test_codes_round_trip_for_every_card():
    for card in Shoe(decks=1, jokers=1).cards:
        assert Card.parse(card.code) == Card(card.rank, card.suit)
        assert Card.parse(card.symbol) == Card(card.rank, card.suit)
        assert eval(repr(card), {"Card": Card}) == card  # repr is a constructor expression


def test_repr_keeps_the_deck():
    card = Card.parse("QH", deck=2)
    assert repr(card) == "Card.parse('Q♥', deck=2)"
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("text", ["", "1H", "11S", "8X", "H8", "10", "ZZ", "8HH", "JKR", "0S"])
def test_bad_codes_name_the_token(text):
    with pytest.raises(CardParseError) as error:
        Card.parse(text)
    assert repr(text) in str(error.value)
    assert "expected a rank" in str(error.value)
    assert isinstance(error.value, ValueError) and isinstance(error.value, RummyError)


def test_parse_rejects_non_strings():
    with pytest.raises(CardParseError):
        Card.parse(8)


def test_card_constructor_checks_its_fields():
    with pytest.raises(CardParseError):
        Card(Rank.TWO, None)
    with pytest.raises(CardParseError):
        Card(2, Suit.HEARTS)
    with pytest.raises(CardParseError):
        Card(Rank.TWO, Suit.HEARTS, deck=-1)


def test_cards_differ_by_deck_and_are_frozen():
    a, b = Card.parse("8H"), Card.parse("8H", deck=1)
    assert a != b and len({a, b}) == 2
    with pytest.raises(AttributeError):
        a.deck = 3  # type: ignore[misc]


def test_names_for_screen_readers():
    assert Card.parse("8H").name == "8 of hearts"
    assert Card.parse("QS").name == "queen of spades"
    assert Card.parse("AD").name == "ace of diamonds"
    assert Card.parse("JK").name == "joker"


def test_index_is_a_dense_key():
    indices = sorted(card.index for card in Shoe(decks=1, jokers=0).cards)
    assert indices == list(range(52))
    assert Card.joker(3).index == 52


def test_parse_cards_numbers_copies_in_order():
    hand = parse_cards("8S, 8s;8♠ JK JK QD")
    assert [c.deck for c in hand] == [0, 1, 2, 0, 1, 0]
    assert len(set(hand)) == 6
    assert isinstance(hand, Hand)
    assert parse_cards(["8S", "QD"]) == parse_cards("8S QD")


def test_parse_cards_reports_the_bad_token():
    with pytest.raises(CardParseError, match="'9Q'"):
        parse_cards("8S 9Q QD")


def test_hand_sorting_and_str():
    hand = parse_cards("KS JK 2H AC 2C")
    assert str(hand.sorted()) == "2♣ 2♥ K♠ A♣ JK"
    assert str(hand.sorted(by="suit")) == "2♣ A♣ 2♥ K♠ JK"
    assert hand.codes == "KS JK 2H AC 2C"
    assert isinstance(hand[1:], Hand)
    with pytest.raises(ValueError):
        hand.sorted(by="colour")


def test_hand_repr_is_a_constructor():
    hand = parse_cards("8S 8S JK")
    assert eval(repr(hand), {"parse_cards": parse_cards}) == hand
    odd = Hand([Card.parse("8S", deck=1)])
    assert eval(repr(odd), {"Hand": Hand, "Card": Card}) == odd


def test_hand_holds_only_cards():
    with pytest.raises(CardParseError):
        Hand(["8S"])


def test_shoe_contents():
    shoe = Shoe(decks=3, jokers=6)
    assert shoe.size == len(shoe.cards) == 162
    assert len(set(shoe.cards)) == 162
    assert sum(card.is_joker for card in shoe.cards) == 6
    assert sum(card == Card.parse("5D", deck=d) for card in shoe.cards for d in range(3)) == 3


@pytest.mark.parametrize(("decks", "jokers"), [(0, 0), (1, -1), (1.5, 0), (True, 0)])
def test_shoe_rejects_bad_sizes(decks, jokers):
    with pytest.raises(ValueError):
        Shoe(decks=decks, jokers=jokers)


def test_seeded_shuffle_and_deal_are_repeatable_and_use_no_global_state():
    shoe = Shoe(decks=2, jokers=4)
    random.seed(1)
    first = shoe.shuffled(7)
    random.seed(2)
    assert shoe.shuffled(7) == first
    assert sorted(first) == sorted(shoe.cards)
    assert shoe.shuffled(8) != first
    assert shoe.deal(10, seed=3) == shoe.deal(10, seed=random.Random(3))
    state = random.getstate()
    shoe.deal(10, seed=5)
    assert random.getstate() == state
    with pytest.raises(ValueError):
        shoe.deal(109, seed=1)


def test_as_rng():
    rng = random.Random(1)
    assert as_rng(rng) is rng
    assert isinstance(as_rng(None), random.Random)
    with pytest.raises(TypeError):
        as_rng("seed")
    with pytest.raises(TypeError):
        as_rng(True)


def test_rank_formats_as_its_code():
    assert f"{Rank.ACE:>3}" == "  A"
    assert str(Rank.TEN) == "10" and Rank.JACK.word == "jack"
