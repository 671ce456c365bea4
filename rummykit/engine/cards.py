"""Cards, hands and shoes.

A multi-deck shoe holds identical cards (two 8♥ in a two-deck game), so a
:class:`Card` is its rank, its suit *and* the index of the deck it came from.
Jokers have no rank and no suit; their ``deck`` field numbers them.

>>> card = Card.parse("10S")
>>> card.code, str(card), card.name
('10S', '10♠', '10 of spades')
>>> parse_cards("8S 8H 8D JK")
parse_cards('8♠ 8♥ 8♦ JK')
>>> Shoe(decks=2, jokers=4).size
108

This module uses the standard library only; the SVG card faces live in
:mod:`rummykit.svg` and are imported only when Jupyter asks for them.
"""

from __future__ import annotations

import enum
import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, total_ordering

from rummykit.errors import ArgumentError, ArgumentTypeError, CardParseError, CardTypeError

__all__ = [
    "NATURALS",
    "Card",
    "Hand",
    "Rank",
    "Shoe",
    "Suit",
    "as_rng",
    "parse_cards",
]


class Suit(enum.Enum):
    """A suit, by its one-letter code."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, e.g. ``"♥"``."""
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 for clubs, 1 diamonds, 2 hearts, 3 spades (alphabetical, as in bridge)."""
        return _SUIT_INDEX[self]

    @property
    def plural(self) -> str:
        """The suit's name in words, e.g. ``"hearts"``."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.symbol


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUIT_ORDER)}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """A rank; the value is the rank's place with the ace high (2..14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        """The rank as printed on a card code: ``"2"``..``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return _RANK_CODES[self]

    @property
    def word(self) -> str:
        """The rank in words for a card's name: ``"8"``, ``"jack"``, ``"ace"``."""
        return self.code if self <= Rank.TEN else self.name.lower()

    def __str__(self) -> str:
        return self.code

    def __format__(self, spec: str) -> str:
        return format(self.code, spec)


_RANK_CODES = {rank: str(rank.value) for rank in Rank if rank <= Rank.TEN} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANKS_BY_CODE = {code: rank for rank, code in _RANK_CODES.items()} | {"T": Rank.TEN}
_SUITS_BY_CODE = (
    {suit.value: suit for suit in Suit}
    | {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()}
    | {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
)
_JOKER_CODES = {"JK", "JOKER", "🃏", "🃟", "🂿"}
_EXPECTED = (
    "expected a rank (2-10, T, J, Q, K, A) followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), "
    "or JK for a joker"
)

#: Index of a joker in :attr:`Card.index` (naturals use 0..51).
JOKER_INDEX = 52


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: a natural (rank and suit) or a joker (neither).

    Cards compare equal only when rank, suit and deck all match; cards sort by
    rank, then suit, then deck, with jokers last.

    >>> Card(Rank.QUEEN, Suit.HEARTS)
    Card.parse('Q♥')
    >>> Card(Rank.QUEEN, Suit.HEARTS, deck=1) == Card(Rank.QUEEN, Suit.HEARTS)
    False
    >>> Card.joker(1).is_joker, Card.joker(1).code
    (True, 'JK')
    """

    rank: Rank | None
    """The rank, or None for a joker."""
    suit: Suit | None
    """The suit, or None for a joker."""
    deck: int = 0
    """Which deck of the shoe the card came from (for jokers: the joker's number)."""
    index: int = field(init=False, repr=False, compare=False)
    """0..51 for a natural (suit-major, 2 low), 52 for a joker: a fast key for counting."""

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardParseError(
                f"a card has both a rank and a suit, or neither (a joker): "
                f"got rank={self.rank!r}, suit={self.suit!r}"
            )
        if self.rank is not None and not isinstance(self.rank, Rank):
            raise CardParseError(f"rank must be a Rank, got {self.rank!r}")
        if self.suit is not None and not isinstance(self.suit, Suit):
            raise CardParseError(f"suit must be a Suit, got {self.suit!r}")
        if not isinstance(self.deck, int) or isinstance(self.deck, bool) or self.deck < 0:
            raise CardParseError(f"deck must be a non-negative integer, got {self.deck!r}")
        index = JOKER_INDEX if self.rank is None else self.suit.index * 13 + self.rank - 2
        object.__setattr__(self, "index", index)

    @classmethod
    def joker(cls, number: int = 0) -> Card:
        """The joker numbered ``number`` (jokers are told apart by number)."""
        return cls(None, None, number)

    @classmethod
    def parse(cls, code: str, *, deck: int = 0) -> Card:
        """Read a card code: ``"8H"``, ``"10S"``, ``"TS"``, ``"QD"``, ``"8♥"``, ``"JK"``.

        Letters may be lower case. A malformed code raises :class:`CardParseError`.

        >>> Card.parse("T♠") == Card.parse("10s")
        True
        >>> Card.parse("1H")
        Traceback (most recent call last):
        ...
        rummykit.errors.CardParseError: cannot read card '1H': expected a rank (2-10, T, J, Q, K, A) followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), or JK for a joker
        """
        if not isinstance(code, str):
            raise CardTypeError(f"cannot read card {code!r}: a card code is a string; {_EXPECTED}")
        token = code.strip().replace("\ufe0f", "").upper()
        if token in _JOKER_CODES:
            return cls.joker(deck)
        rank = _RANKS_BY_CODE.get(token[:-1])
        suit = _SUITS_BY_CODE.get(token[-1:])
        if rank is None or suit is None:
            raise CardParseError(f"cannot read card {code!r}: {_EXPECTED}")
        return cls(rank, suit, deck)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank is None

    @property
    def code(self) -> str:
        """The ASCII code: ``"8H"``, ``"10S"``, ``"JK"``."""
        return "JK" if self.rank is None else self.rank.code + self.suit.value

    @property
    def symbol(self) -> str:
        """The Unicode form: ``"8♥"``, ``"10♠"``, ``"JK"``."""
        return "JK" if self.rank is None else self.rank.code + self.suit.symbol

    @property
    def name(self) -> str:
        """The card in words, the text alternative for screen readers: ``"8 of hearts"``."""
        return "joker" if self.rank is None else f"{self.rank.word} of {self.suit.plural}"

    def sort_key(self) -> tuple[int, int, int]:
        """Rank-major order (2 low, ace high), then suit, then deck; jokers last."""
        if self.rank is None:
            return (99, 9, self.deck)
        return (self.rank.value, self.suit.index, self.deck)

    def suit_sort_key(self) -> tuple[int, int, int]:
        """Suit-major order (clubs, diamonds, hearts, spades), then rank; jokers last."""
        if self.rank is None:
            return (9, 99, self.deck)
        return (self.suit.index, self.rank.value, self.deck)

    def __hash__(self) -> int:
        # Faster than hashing the three fields; equal cards have equal index and deck.
        return self.index * 1_000_003 + self.deck

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        deck = f", deck={self.deck}" if self.deck else ""
        return f"Card.parse({self.symbol!r}{deck})"

    def _repr_svg_(self) -> str:
        from rummykit import svg

        return svg.card_svg(self)


class Hand(tuple):
    """An ordered collection of cards, shown as card faces in Jupyter.

    A ``Hand`` is a tuple of :class:`Card`; slicing and sorting keep it a ``Hand``.

    >>> hand = parse_cards("QH 3C JK 3S")
    >>> str(hand.sorted())
    '3♣ 3♠ Q♥ JK'
    >>> str(hand.sorted(by="suit"))
    '3♣ Q♥ 3♠ JK'
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[Card] = ()) -> Hand:
        if not isinstance(cards, Iterable):
            # rummykit.engine.checks imports this module: its check is imported where it is due.
            from rummykit.engine.checks import cards as check_cards

            check_cards("cards", cards)
        cards = tuple(cards)
        for card in cards:
            if not isinstance(card, Card):
                # dataclasses.asdict rebuilds a Hand from a dict per card: say what to use.
                hint = (
                    " (for plain data use PlayerView.to_dict())" if isinstance(card, dict) else ""
                )
                raise CardParseError(f"a hand holds Card objects, got {card!r}{hint}")
        return super().__new__(cls, cards)

    def sorted(self, *, by: str = "rank") -> Hand:
        """The same cards sorted ``by="rank"`` (default) or ``by="suit"``; jokers last."""
        if by == "rank":
            return Hand(sorted(self, key=Card.sort_key))
        if by == "suit":
            return Hand(sorted(self, key=Card.suit_sort_key))
        raise ArgumentError(f"by must be 'rank' or 'suit', got {by!r}")

    @property
    def codes(self) -> str:
        """The ASCII codes, space-separated: ``"8S 8H JK"``."""
        return " ".join(card.code for card in self)

    def __getitem__(self, item):  # type: ignore[override]
        result = super().__getitem__(item)
        return Hand(result) if isinstance(item, slice) else result

    def __add__(self, other: Iterable[Card]) -> Hand:  # type: ignore[override]
        return Hand(tuple(self) + tuple(other))

    def __str__(self) -> str:
        return " ".join(card.symbol for card in self)

    def __repr__(self) -> str:
        if tuple(self) == tuple(parse_cards(str(self))):
            return f"parse_cards({str(self)!r})"
        return f"Hand({list(self)!r})"

    def _repr_svg_(self) -> str:
        from rummykit import svg

        return svg.hand_svg(self)


_SEPARATORS = re.compile(r"[\s,;]+")


def parse_cards(text: str | Iterable[str]) -> Hand:
    """Parse a hand from codes separated by spaces or commas (or from a list of codes).

    Identical cards get successive deck indices and jokers successive numbers, in
    the order they appear, so ``"JH JH"`` is two different cards.

    >>> hand = parse_cards("8S 8H 8D JK")
    >>> len(hand), hand[3].is_joker
    (4, True)
    >>> [card.deck for card in parse_cards("JH jh J♥ JK JK")]
    [0, 1, 2, 0, 1]
    >>> parse_cards("8S 8X")
    Traceback (most recent call last):
    ...
    rummykit.errors.CardParseError: cannot read card '8X': expected a rank (2-10, T, J, Q, K, A) followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), or JK for a joker
    """
    if isinstance(text, str):
        tokens = [token for token in _SEPARATORS.split(text) if token]
    elif isinstance(text, Iterable) and not isinstance(text, bytes | bytearray):
        tokens = list(text)
    else:
        raise CardTypeError(
            f"cannot read cards from {text!r}: give a string of card codes such as "
            f"'8S 8H JK', or a list of codes"
        )
    seen: Counter[tuple[Rank | None, Suit | None]] = Counter()
    cards = []
    for token in tokens:
        card = Card.parse(token)
        key = (card.rank, card.suit)
        cards.append(Card(card.rank, card.suit, seen[key]))
        seen[key] += 1
    return Hand(cards)


def as_rng(seed: int | random.Random | None) -> random.Random:
    """A ``random.Random`` from a seed, an existing generator, or None (fresh entropy).

    rummykit never touches the global ``random`` state: pass a seed for repeatable results.

    >>> as_rng(7).random() == as_rng(7).random()
    True
    """
    if isinstance(seed, random.Random):
        return seed
    if seed is None:
        return random.Random()
    if isinstance(seed, int) and not isinstance(seed, bool):
        return random.Random(seed)
    raise ArgumentTypeError(f"seed must be an int, a random.Random or None, got {seed!r}")


#: The 52 natural cards of deck 0 in :attr:`Card.index` order, so that
#: ``NATURALS[card.index]`` is ``card`` of deck 0 (what a joker may stand for).
#:
#: >>> NATURALS[0], NATURALS[51], NATURALS[Card.parse("8H", deck=1).index]
#: (Card.parse('2♣'), Card.parse('A♠'), Card.parse('8♥'))
NATURALS = tuple(Card(rank, suit) for suit in _SUIT_ORDER for rank in Rank)


@lru_cache(maxsize=64)
def _shoe_cards(decks: int, jokers: int) -> tuple[Card, ...]:
    # One tuple for every shoe of a size: a game is made per sample of a search.
    naturals = [Card(rank, suit, deck) for deck in range(decks) for suit in Suit for rank in Rank]
    return tuple(naturals + [Card.joker(number) for number in range(jokers)])


@dataclass(frozen=True)
class Shoe:
    """``decks`` standard 52-card decks shuffled together with ``jokers`` jokers.

    >>> shoe = Shoe(decks=2, jokers=4)
    >>> shoe.size, shoe.cards.count(Card.parse("8H", deck=1))
    (108, 1)
    >>> shoe.deal(10, seed=1) == shoe.deal(10, seed=1)
    True
    """

    decks: int = 2
    """Number of standard 52-card decks."""
    jokers: int = 4
    """Number of jokers, in all."""

    def __post_init__(self) -> None:
        for name in ("decks", "jokers"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
        if self.decks < 1:
            raise ArgumentError(f"a shoe needs at least one deck, got decks={self.decks}")
        if self.jokers < 0:
            raise ArgumentError(f"jokers cannot be negative, got jokers={self.jokers}")

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the shoe in a fixed order (deck by deck, then the jokers)."""
        return _shoe_cards(self.decks, self.jokers)

    @property
    def size(self) -> int:
        """The number of cards in the shoe."""
        return 52 * self.decks + self.jokers

    @property
    def words(self) -> str:
        """The shoe in words.

        >>> Shoe(decks=2, jokers=4).words, Shoe(decks=1, jokers=1).words
        ('2 decks and 4 jokers', '1 deck and 1 joker')
        """
        decks, jokers = self.decks, self.jokers
        return f"{decks} deck{'s' if decks != 1 else ''} and {jokers} joker{'s' if jokers != 1 else ''}"

    def shuffled(self, seed: int | random.Random | None = None) -> list[Card]:
        """A new list of every card in random order, from ``seed`` (see :func:`as_rng`)."""
        cards = list(self.cards)
        as_rng(seed).shuffle(cards)
        return cards

    def deal(self, cards: int, *, seed: int | random.Random | None = None) -> Hand:
        """A random hand of ``cards`` cards from a freshly shuffled shoe."""
        if not 0 <= cards <= self.size:
            raise ArgumentError(f"cannot deal {cards} cards from a shoe of {self.size}")
        return Hand(as_rng(seed).sample(self.cards, cards))

    def _repr_html_(self) -> str:
        return f"<p>A shoe of {self.words}: {self.size} cards.</p>"
