"""Melds: sets and runs with reasons, contract search, lay-off and joker-swap legality.

A run's cards sit at *positions* 1..14: 1 is the ace played low, 2..13 are the
ranks 2..K, and 14 is the ace played high.

>>> from rummykit import RuleSet, parse_cards
>>> rules = RuleSet.preset("standard")
>>> check = check_meld(parse_cards("3S 4S JK 6S"), rules)
>>> check.ok, check.kind, check.describe()
(True, 'run', 'valid run, the joker is the 5♠')
>>> check_meld(parse_cards("KH AH 2H 3H"), rules).reason
'K-A-2 turns the corner: runs cannot wrap'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rummykit.cards import Card, Hand, Rank, Suit
from rummykit.errors import IllegalMeldError
from rummykit.rules import Contract, RuleSet

__all__ = [
    "Meld",
    "MeldCheck",
    "check_lay_down",
    "check_meld",
    "contract_distance",
    "find_contract",
    "lay_off",
    "lay_off_options",
    "position_rank",
    "swap_joker",
]

_RANK_AT = {1: Rank.ACE, 14: Rank.ACE} | {p: Rank(p) for p in range(2, 14)}


def position_rank(position: int) -> Rank:
    """The rank at a run position (1 and 14 are both the ace)."""
    return _RANK_AT[position]


def _position_word(position: int) -> str:
    return _RANK_AT[position].code


@dataclass(frozen=True)
class Meld:
    """A legal set or run as it lies on the table.

    ``cards`` are in table order (a run from its low end up); ``stands_for`` is
    aligned with ``cards``: None for a natural card, and for a joker the natural
    card it represents (deck 0). Build melds with :func:`check_meld`,
    :func:`find_contract`, :func:`lay_off` or :func:`swap_joker`, which check the
    rules; the constructor itself does not.
    """

    kind: str
    """``"set"`` or ``"run"``."""
    cards: tuple[Card, ...]
    """The cards, a run from its low end to its high end."""
    stands_for: tuple[Card | None, ...]
    """For each card: None for a natural, the card represented for a joker."""
    rank: Rank | None = None
    """A set's rank (None for a run)."""
    suit: Suit | None = None
    """A run's suit (None for a set)."""
    start: int | None = None
    """A run's lowest position (1 = ace low .. 14 = ace high); None for a set."""

    @property
    def end(self) -> int | None:
        """A run's highest position (None for a set)."""
        return None if self.start is None else self.start + len(self.cards) - 1

    @property
    def jokers(self) -> dict[Card, Card]:
        """Each joker in the meld and the natural card it stands for."""
        return {c: s for c, s in zip(self.cards, self.stands_for, strict=True) if s is not None}

    @property
    def naturals(self) -> tuple[Card, ...]:
        """The natural (non-joker) cards."""
        return tuple(c for c in self.cards if not c.is_joker)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def describe(self) -> str:
        """The meld in plain words: ``"run of hearts 6-9, the joker is the 8♥"``."""
        if self.kind == "set":
            text = f"set of {self.rank.word}s"
        else:
            text = f"run of {self.suit.plural} {_position_word(self.start)}-{_position_word(self.end)}"
        return text + _joker_words(self.jokers)

    def __str__(self) -> str:
        return " ".join(card.symbol for card in self.cards)

    def _repr_svg_(self) -> str:
        from rummykit import svg

        return svg.hand_svg(Hand(self.cards))


def _joker_words(jokers: dict[Card, Card]) -> str:
    if not jokers:
        return ""
    names = [stand.symbol for stand in jokers.values()]
    if len(names) == 1:
        return f", the joker is the {names[0]}"
    return ", the jokers are the " + " and the ".join(names)


@dataclass(frozen=True)
class MeldCheck:
    """The verdict of :func:`check_meld`: legal or not, and why."""

    ok: bool
    """True when the cards form a legal meld."""
    kind: str | None
    """``"set"``, ``"run"``, or None when the cards form neither."""
    reason: str | None = None
    """When not ok, the rule broken, in words a learner understands."""
    meld: Meld | None = None
    """The meld when ok."""
    jokers: dict[Card, Card] = field(default_factory=dict)
    """Each joker and the card it stands for (empty when not ok)."""

    def describe(self) -> str:
        """``"valid run, the joker is the 7♥"`` or ``"not a meld: <reason>"``."""
        if not self.ok:
            return f"not a meld: {self.reason}"
        return f"valid {self.kind}" + _joker_words(self.jokers)

    def __bool__(self) -> bool:
        return self.ok

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b42318"
        return f'<p style="color:{colour}">{self.describe()}</p>'


def check_meld(cards: Iterable[Card], rules: RuleSet, *, kind: str | None = None) -> MeldCheck:
    """Check whether ``cards`` form a legal set or run under ``rules``."""
    raise NotImplementedError


def find_contract(hand: Iterable[Card], contract: Contract, rules: RuleSet) -> list[Meld] | None:
    """Melds from ``hand`` that complete ``contract``, or None when no arrangement exists."""
    raise NotImplementedError


def contract_distance(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, *, decks: int | None = None
) -> int:
    """The fewest cards that must be added to ``hand`` for it to hold ``contract``."""
    raise NotImplementedError


def check_lay_down(groups: Sequence[Sequence[Card]], contract: Contract, rules: RuleSet) -> list[Meld]:
    """Check a lay-down: ``groups`` of cards meant to make ``contract``; raise or return the melds."""
    raise NotImplementedError


def lay_off_options(meld: Meld, card: Card, rules: RuleSet) -> tuple[Meld, ...]:
    """Every meld ``card`` can turn ``meld`` into by laying it off (empty when none)."""
    raise NotImplementedError


def lay_off(meld: Meld, card: Card, rules: RuleSet, *, end: str | None = None) -> Meld:
    """Lay ``card`` off onto ``meld``; raise IllegalMeldError naming the rule when it cannot."""
    raise NotImplementedError


def swap_joker(meld: Meld, card: Card, rules: RuleSet) -> tuple[Meld, Card]:
    """Replace the joker in ``meld`` that stands for ``card``; return the new meld and the joker."""
    raise NotImplementedError
