"""A plain, slow reference for the exact sweep: every distinct hand, checked one by one.

The sweep (:mod:`rummykit.odds.counting.exact`) counts hands without ever listing them: keys of
partial arrangements, pruning, canonical suit orders, residues modulo primes. This
module does none of that. The natural part of a hand is a *face multiset*, how many
copies of each card of the shoe it holds; every one of them is listed, and

* it stands for ``prod(C(decks, k))`` physical hands (which of the ``decks`` copies of
  each face it holds), times ``C(jokers, j)`` for the ``j`` jokers beside it;
* whether it holds the contract is what the rules engine says
  (:func:`rummykit.engine.search.find_contract` on the cards themselves), and its distance is
  :func:`rummykit.engine.search.contract_distance`.

So it shares nothing with the sweep but the rules engine, which is the source of truth
for the rules. It is exact integer arithmetic throughout and takes time in proportion
to the number of face multisets: tiny and medium shoes only (a few ranks and suits).
The tests compare it with brute force over subsets (``tests/support/odds_oracle.py``) on tiny
shoes and with the sweep on medium ones.

>>> from rummykit import Contract, Rank, RuleSet, Suit
>>> rules = RuleSet.preset("standard")
>>> shoe = {"decks": 1, "rules": rules, "ranks": [Rank.TWO, Rank.THREE], "suits": list(Suit)}
>>> reference_dealt_count(Contract(sets=1), jokers=1, cards=3, **shoe)  # 2 C(4, 3) + 2 C(4, 2)
20
>>> from rummykit.odds import dealt_count
>>> dealt_count(Contract(sets=1), jokers=1, cards=3, **shoe)
20
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from fractions import Fraction

from rummykit import contract_distance, find_contract
from rummykit.engine.cards import Card, Rank, Suit
from rummykit.engine.rules import Contract, RuleSet
from rummykit.errors import ArgumentError

__all__ = ["face_multisets", "reference_dealt_count", "reference_distance_distribution"]


def face_multisets(
    faces: list[tuple[Rank, Suit]], size: int, copies: int
) -> Iterator[tuple[dict[tuple[Rank, Suit], int], int]]:
    """Every multiset of ``size`` cards with at most ``copies`` of each face, with the
    number of physical hands it stands for (``C(copies, k)`` per face held ``k`` times).

    >>> faces = [(Rank.TWO, Suit.HEARTS), (Rank.THREE, Suit.HEARTS)]
    >>> [(sorted(f.values()), ways) for f, ways in face_multisets(faces, 2, copies=2)]
    [([1, 1], 4), ([2], 1), ([2], 1)]
    """

    def extend(start: int, left: int, held: dict, ways: int):
        if left == 0:
            yield dict(held), ways
            return
        for i in range(start, len(faces)):
            for k in range(1, min(copies, left) + 1):
                held[faces[i]] = k
                yield from extend(i + 1, left - k, held, ways * math.comb(copies, k))
            held.pop(faces[i], None)

    yield from extend(0, size, {}, 1)


def _cards(held: dict[tuple[Rank, Suit], int], jokers: int) -> list[Card]:
    cards = [Card(r, s, deck) for (r, s), k in held.items() for deck in range(k)]
    return cards + [Card.joker(number) for number in range(jokers)]


def _faces(ranks: Iterable[Rank] | None, suits: Iterable[Suit] | None):
    rank_list = list(Rank) if ranks is None else sorted({Rank(r) for r in ranks})
    suit_list = list(Suit) if suits is None else [s for s in Suit if s in set(suits)]
    if not rank_list or not suit_list:
        raise ArgumentError("a shoe needs at least one rank and one suit")
    return [(r, s) for r in rank_list for s in suit_list]


def _hands(faces, decks: int, jokers: int, cards: int):
    """(face multiset, jokers held, physical hands) for every hand of ``cards`` cards."""
    if not isinstance(decks, int) or decks < 1 or jokers < 0 or cards < 0:
        raise ArgumentError(f"need decks >= 1, jokers >= 0, cards >= 0: {decks}, {jokers}, {cards}")
    for j in range(min(jokers, cards) + 1):
        for held, ways in face_multisets(faces, cards - j, decks):
            yield held, j, ways * math.comb(jokers, j)


def reference_dealt_count(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
) -> int:
    """:func:`rummykit.odds.dealt_count`, by listing every distinct hand."""
    faces = _faces(ranks, suits)
    return sum(
        ways
        for held, j, ways in _hands(faces, decks, jokers, cards)
        if find_contract(_cards(held, j), contract, rules) is not None
    )


def reference_distance_distribution(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
) -> dict[int, Fraction]:
    """:func:`rummykit.odds.distance_distribution`, by listing every distinct hand.

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> reference_distance_distribution(Contract(sets=1), decks=1, jokers=0, cards=2,
    ...                                 rules=rules, ranks=[Rank.TWO], suits=list(Suit))
    {1: Fraction(1, 1)}
    """
    faces = _faces(ranks, suits)
    counts: dict[int, int] = {}
    for held, j, ways in _hands(faces, decks, jokers, cards):
        d = contract_distance(_cards(held, j), contract, rules, decks=decks)
        counts[d] = counts.get(d, 0) + ways
    total = math.comb(decks * len(faces) + jokers, cards)
    return {d: Fraction(n, total) for d, n in sorted(counts.items())}
