"""Card odds in a probability course's words: the hypergeometric distribution at work.

A dealt hand is a sample *without replacement* from the shoe, so the number of cards of
one kind in it is hypergeometric. Every function returns an exact
:class:`~fractions.Fraction`; its docstring states the formula. The shoe is ``decks``
decks of ``ranks`` ranks and ``suits`` suits (13 and 4 unless you shrink it to count by
hand) plus ``jokers`` jokers: ``N = decks * ranks * suits + jokers`` cards.

>>> p = prob_pair_or_better(decks=2, jokers=4, cards=10)
>>> f"{float(p):.1%}"
'97.8%'
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from math import comb

from more_itertools import distinct_combinations

from rummykit.errors import ArgumentError

__all__ = [
    "distinct_hands",
    "expected_sets_in_waiting",
    "hypergeom_pmf",
    "hypergeom_sf",
    "prob_at_least_of_rank",
    "prob_at_least_one_joker",
    "prob_pair_or_better",
]


def _check(**values: int) -> None:
    for name, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ArgumentError(f"{name} must be a non-negative integer, got {value!r}")


def distinct_hands(shoe: Iterable[Hashable], cards: int) -> list[tuple]:
    """Every hand of ``cards`` cards from ``shoe`` that a player can tell apart.

    A shoe of two decks holds two ace of spades that look alike. Counted as physical
    cards there are C(N, n) hands, each equally likely; counted as what a player sees,
    a *face multiset*, hands holding either ace are one hand, drawn as often as the
    physical hands it stands for: C(2, 1) = 2 ways to hold one of the two aces, 1 way to
    hold both. The odds need the physical count; the distinct hands are far fewer, which
    is what lets exact counting list them on a small shoe.

    >>> shoe = ["AS", "AS", "KS", "JK"]   # two aces of spades, a king, a joker
    >>> distinct_hands(shoe, 2)
    [('AS', 'AS'), ('AS', 'KS'), ('AS', 'JK'), ('KS', 'JK')]
    >>> import itertools
    >>> from collections import Counter
    >>> physical = Counter(itertools.combinations(shoe, 2))   # the C(4, 2) = 6 hands
    >>> [physical[hand] for hand in distinct_hands(shoe, 2)]
    [1, 2, 2, 1]
    """
    _check(cards=cards)
    return list(distinct_combinations(shoe, cards))


def hypergeom_pmf(k: int, *, population: int, successes: int, draws: int) -> Fraction:
    """P(X = k) for X ~ Hypergeometric(N = population, K = successes, n = draws).

    P(X = k) = C(K, k) C(N - K, n - k) / C(N, n): choose the k successes and the n - k
    failures, out of all ways to choose n cards.

    >>> hypergeom_pmf(2, population=52, successes=4, draws=5)   # exactly two aces in 5
    Fraction(2162, 54145)
    """
    _check(k=k, population=population, successes=successes, draws=draws)
    if successes > population or draws > population:
        raise ArgumentError(
            f"need successes <= population and draws <= population, got K={successes}, "
            f"n={draws}, N={population}"
        )
    return Fraction(
        comb(successes, k) * comb(population - successes, draws - k), comb(population, draws)
    )


def hypergeom_sf(k: int, *, population: int, successes: int, draws: int) -> Fraction:
    """P(X > k), the survival function (as in scipy.stats): sum of P(X = i) for i > k.

    So "at least k" is ``hypergeom_sf(k - 1, ...)``.

    >>> hypergeom_sf(0, population=52, successes=4, draws=5)   # at least one ace in 5
    Fraction(18472, 54145)
    """
    return sum(
        (
            hypergeom_pmf(i, population=population, successes=successes, draws=draws)
            for i in range(k + 1, min(successes, draws) + 1)
        ),
        Fraction(0),
    )


def _size(decks: int, jokers: int, cards: int, ranks: int, suits: int) -> int:
    _check(decks=decks, jokers=jokers, cards=cards, ranks=ranks, suits=suits)
    size = decks * ranks * suits + jokers
    if cards > size:
        raise ArgumentError(f"cannot deal {cards} cards from a shoe of {size}")
    return size


def prob_at_least_of_rank(
    k: int, *, decks: int, jokers: int, cards: int, ranks: int = 13, suits: int = 4
) -> Fraction:
    """P(at least k natural cards of one given rank, say the 8s, in a dealt hand).

    X ~ Hypergeometric(N, K = decks * suits, n = cards) and
    P(X >= k) = sum over i >= k of C(K, i) C(N - K, n - i) / C(N, n).

    >>> prob_at_least_of_rank(3, decks=2, jokers=4, cards=10)   # three 8s or more
    Fraction(25490657, 1002922021)
    """
    size = _size(decks, jokers, cards, ranks, suits)
    if k <= 0:
        return Fraction(1)
    return hypergeom_sf(k - 1, population=size, successes=decks * suits, draws=cards)


def prob_pair_or_better(
    *, decks: int, jokers: int, cards: int, ranks: int = 13, suits: int = 4
) -> Fraction:
    """P(some rank appears at least twice among the natural cards): "a pair or better".

    By the complement: the hand has no pair when its m naturals are of m different
    ranks and the rest are jokers, so with K = decks * suits copies of each rank,
    P(no pair) = sum over m of C(ranks, m) K^m C(jokers, n - m) / C(N, n).

    >>> prob_pair_or_better(decks=1, jokers=0, cards=2)   # 3 of the 51 cards left pair
    Fraction(1, 17)
    """
    size = _size(decks, jokers, cards, ranks, suits)
    copies = decks * suits
    no_pair = sum(
        comb(ranks, m) * copies**m * comb(jokers, cards - m) for m in range(min(ranks, cards) + 1)
    )
    return 1 - Fraction(no_pair, comb(size, cards))


def prob_at_least_one_joker(
    *, decks: int, jokers: int, cards: int, ranks: int = 13, suits: int = 4
) -> Fraction:
    """P(at least one joker in the hand) = 1 - C(N - jokers, n) / C(N, n).

    >>> prob_at_least_one_joker(decks=2, jokers=4, cards=10)
    Fraction(49909, 153117)
    """
    size = _size(decks, jokers, cards, ranks, suits)
    return 1 - Fraction(comb(size - jokers, cards), comb(size, cards))


def expected_sets_in_waiting(
    *, decks: int, jokers: int, cards: int, ranks: int = 13, suits: int = 4
) -> Fraction:
    """The expected number of "sets in waiting": ranks with at least 2 naturals in hand.

    By linearity of expectation, E[sum of indicators] = sum of P(indicator), and the
    ranks are alike: E = ranks * P(X >= 2) with X ~ Hypergeometric(N, decks * suits, n).

    >>> float(expected_sets_in_waiting(decks=2, jokers=4, cards=10)) > 1
    True
    """
    return ranks * prob_at_least_of_rank(
        2, decks=decks, jokers=jokers, cards=cards, ranks=ranks, suits=suits
    )
