"""Card odds in a probability course's words: the hypergeometric distribution at work.

A dealt hand is a sample *without replacement* from the shoe, so the number of cards of
one kind in it is hypergeometric. Every function returns an exact
:class:`~fractions.Fraction`; its docstring states the formula. The shoe is ``decks``
decks of ``ranks`` ranks and ``suits`` suits (13 and 4 unless you shrink it to count by
hand) plus ``jokers`` jokers: ``N = decks * ranks * suits + jokers`` cards.

>>> from rummykit.chance import chance_text
>>> p = prob_pair_or_better(decks=2, jokers=4, cards=10)
>>> chance_text(p, digits=3)
'97.8%'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from itertools import combinations
from math import ceil, comb

from more_itertools import distinct_combinations

from rummykit.engine.cards import Card, Hand, Rank, Shoe
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import items, real, whole
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "MAX_LISTED",
    "MAX_STATES",
    "TWO_PAIRS_STATES",
    "absorption_time",
    "distinct_hands",
    "expected_ranks_with_at_least",
    "expected_sets_in_waiting",
    "hypergeom_pmf",
    "hypergeom_sf",
    "matrix_power",
    "mini_shoe",
    "prob_at_least_of_rank",
    "prob_at_least_one_joker",
    "prob_by_listing",
    "prob_pair_or_better",
    "sample_size",
    "two_pairs_chain",
    "within_standard_errors",
]


#: The largest population (shoe, deck count times ranks and suits) the teaching helpers
#: take: a shoe at RuleSet's bounds holds 448 cards, and C(N, n) of a larger N only grows
#: the integers, not the lesson.
MAX_POPULATION = 10_000
#: The most hands :func:`prob_by_listing` lists (about a second), and the most states of
#: a transition matrix (:func:`matrix_power`, :func:`absorption_time`).
MAX_LISTED = 1_000_000
MAX_STATES = 64


def _transitions(matrix: object) -> list[list[Fraction]]:
    """``matrix`` as rows of Fractions: a square list of lists of probabilities."""

    def entry(name: str, value: object) -> Fraction:
        real(name, value, low=0, high=1)
        return Fraction(value)

    def row(name: str, values: object) -> list[Fraction]:
        return items(name, values, entry, what="a row of probabilities")

    rows = items("matrix", matrix, row, what="a list of rows", most=MAX_STATES)
    if any(len(r) != len(rows) for r in rows):
        raise ArgumentError(f"a transition matrix must be square, got {len(rows)} rows")
    return rows


def _check(**values: int) -> None:
    for name, value in values.items():
        whole(name, value, low=0, high=MAX_POPULATION, hint="the teaching helpers' bound")


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
    shoe = items("shoe", shoe, what="a list of cards (any hashable values)")
    return list(distinct_combinations(shoe, cards))


def hypergeom_pmf(k: int, *, population: int, successes: int, draws: int) -> Fraction:
    """P(X = k) for X ~ Hypergeometric(N = population, K = successes, n = draws).

    P(X = k) = C(K, k) C(N - K, n - k) / C(N, n): choose the k successes and the n - k
    failures, out of all ways to choose n cards.

    >>> hypergeom_pmf(2, population=52, successes=4, draws=5)   # exactly two aces in 5
    Fraction(2162, 54145)
    """
    _check(k=k, population=population, successes=successes, draws=draws)
    if successes > population or draws > population or k > draws:
        raise ArgumentError(
            f"need successes <= population, draws <= population and k <= draws, got "
            f"K={successes}, n={draws}, N={population}, k={k}"
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
    whole("k", k, low=-1, high=MAX_POPULATION)
    _check(population=population, successes=successes, draws=draws)
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
    whole("k", k, low=-MAX_POPULATION, high=MAX_POPULATION)
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
    return expected_ranks_with_at_least(
        2, decks=decks, jokers=jokers, cards=cards, ranks=ranks, suits=suits
    )


def expected_ranks_with_at_least(
    k: int, *, decks: int, jokers: int, cards: int, ranks: int = 13, suits: int = 4
) -> Fraction:
    """The expected number of ranks with at least ``k`` natural cards in the hand.

    The count is a sum of one indicator per rank, and expectation is linear even though
    the indicators are dependent: E = ranks * P(X >= k), X ~ Hypergeometric(N, decks *
    suits, n).

    >>> expected_ranks_with_at_least(3, decks=2, jokers=4, cards=10) == 13 * (
    ...     prob_at_least_of_rank(3, decks=2, jokers=4, cards=10))
    True
    >>> expected_ranks_with_at_least(1, decks=1, jokers=0, cards=1)   # one card, one rank
    Fraction(1, 1)
    """
    whole("k", k, low=-MAX_POPULATION, high=MAX_POPULATION)
    return ranks * prob_at_least_of_rank(
        k, decks=decks, jokers=jokers, cards=cards, ranks=ranks, suits=suits
    )


def mini_shoe(decks: int, jokers: int, ranks: Iterable[Rank]) -> list[Card]:
    """A small shoe for listing every hand: only ``ranks`` (all four suits) of ``decks``
    decks, and ``jokers`` jokers.

    >>> shoe = mini_shoe(2, 2, (Rank.EIGHT, Rank.KING))
    >>> len(shoe), sum(card.is_joker for card in shoe)
    (18, 2)
    """
    whole("decks", decks, low=1, high=MAX_DECKS)
    whole("jokers", jokers, low=0, high=MAX_JOKERS)
    if isinstance(ranks, str | bytes) or not isinstance(ranks, Iterable):
        raise ArgumentTypeError(f"ranks must be an iterable of Rank, got {ranks!r}")
    keep = set(ranks)
    return [card for card in Shoe(decks, jokers).cards if card.is_joker or card.rank in keep]


def prob_by_listing(cards: Sequence[Card], n: int, event: Callable[[Hand], object]) -> Fraction:
    """P(event) for a hand of ``n`` cards from ``cards``, by listing every hand (brute
    force: C(len(cards), n) hands, each equally likely).

    >>> shoe = mini_shoe(1, 0, (Rank.ACE, Rank.KING))        # 8 cards, 4 of them aces
    >>> prob_by_listing(shoe, 2, lambda hand: all(card.rank == Rank.ACE for card in hand))
    Fraction(3, 14)
    >>> hypergeom_pmf(2, population=8, successes=4, draws=2)   # the formula agrees
    Fraction(3, 14)
    """
    _check(n=n)
    cards = check_cards("cards", cards)
    if not callable(event):
        raise ArgumentTypeError(f"event must be a function of a hand, got {event!r}")
    if n > len(cards):
        raise ArgumentError(f"cannot deal {n} cards from {len(cards)}")
    if comb(len(cards), n) > MAX_LISTED:
        raise ArgumentError(
            f"listing C({len(cards)}, {n}) = {comb(len(cards), n):,} hands is too many (at "
            f"most {MAX_LISTED:,}, rummykit.odds.teaching.MAX_LISTED): use a smaller shoe "
            "(mini_shoe) or the formula"
        )
    hands = list(combinations(cards, n))
    return Fraction(sum(bool(event(Hand(hand))) for hand in hands), len(hands))


def within_standard_errors(estimate: float, exact: float, stderr: float, z: float = 4) -> bool:
    """Whether a simulated ``estimate`` lies within ``z`` standard errors of ``exact``.

    A correct simulation fails this for z = 4 about once in 16,000 runs, so a failure
    says the simulation or the exact value is wrong.

    >>> within_standard_errors(0.52, 0.5, stderr=0.01), within_standard_errors(0.6, 0.5, 0.01)
    (True, False)
    """
    estimate, exact = real("estimate", estimate), real("exact", exact)
    stderr, z = real("stderr", stderr, low=0), real("z", z, low=0)
    return abs(estimate - exact) <= z * stderr


def sample_size(p: Fraction | float, half_width: Fraction | float, z: Fraction | float) -> int:
    """The fewest trials for which a normal interval p ± z sqrt(p (1 - p) / n) is no wider
    than ``half_width``: n = ceil(z^2 p (1 - p) / h^2), computed exactly for Fractions.

    >>> sample_size(Fraction(1, 2), Fraction(1, 100), Fraction(196, 100))   # a poll: ±1 point
    9604
    """
    real("p", p, low=0, high=1)
    real("z", z, low=0)
    if real("half_width", half_width, low=0) == 0:
        raise ArgumentError(f"half_width must be more than 0, got {half_width!r}")
    return ceil(Fraction(z) ** 2 * Fraction(p) * (1 - Fraction(p)) / Fraction(half_width) ** 2)


#: The states of :func:`two_pairs_chain`, in the order of its rows.
TWO_PAIRS_STATES = ("two pairs", "a set and a pair", "two pairs and a joker", "done")


def two_pairs_chain(*, decks: int, jokers: int) -> list[list[Fraction]]:
    """The transition matrix of waiting for two sets while holding two pairs.

    Each turn a card is drawn from a full shoe of ``decks`` decks and ``jokers`` jokers
    (as if every card were put back: N = 52 decks + jokers) and kept only when it helps.
    The states are :data:`TWO_PAIRS_STATES`: from two pairs, any of the 8 decks cards of
    the two ranks makes a set and a pair, a joker makes two pairs and a joker; from a set
    and a pair, the missing rank's 4 decks cards or a joker finish; from two pairs and a
    joker, any card of the two ranks or a joker finishes.

    >>> [[str(p) for p in row] for row in two_pairs_chain(decks=2, jokers=4)][:2]
    [['22/27', '4/27', '1/27', '0'], ['0', '8/9', '0', '1/9']]
    """
    _check(decks=decks, jokers=jokers)
    size = 52 * decks + jokers
    if decks == 0:
        raise ArgumentError("two pairs need at least 1 deck")
    pair, joker, one, both = 8 * decks, jokers, 4 * decks + jokers, 8 * decks + jokers
    rows = [
        [size - pair - joker, pair, joker, 0],
        [0, size - one, 0, one],
        [0, 0, size - both, both],
        [0, 0, 0, size],
    ]
    return [[Fraction(count, size) for count in row] for row in rows]


def _matrix_product(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    return [
        [
            sum((x * y for x, y in zip(row, col, strict=True)), Fraction(0))
            for col in zip(*b, strict=True)
        ]
        for row in a
    ]


def matrix_power(matrix: Sequence[Sequence[Fraction]], steps: int) -> list[list[Fraction]]:
    """``matrix`` to the power ``steps``, exactly (repeated squaring): entry [i][j] of a
    transition matrix's power is P(in state j after ``steps`` steps | start in i).

    >>> coin = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(0), Fraction(1)]]
    >>> matrix_power(coin, 3)[0][1]   # "done" once a head came: 1 - (1/2)^3
    Fraction(7, 8)
    """
    _check(steps=steps)
    square = _transitions(matrix)
    result = [[Fraction(int(i == j)) for j in range(len(square))] for i in range(len(square))]
    while steps:
        if steps & 1:
            result = _matrix_product(result, square)
        square = _matrix_product(square, square)
        steps >>= 1
    return result


def absorption_time(matrix: Sequence[Sequence[Fraction]], start: int = 0) -> Fraction:
    """The expected number of steps from state ``start`` until an absorbing state.

    With Q the transitions among the transient states (those that leave themselves with
    some chance), the expected times t solve (I - Q) t = 1: first-step analysis, here by
    exact Gaussian elimination (the row sums of the fundamental matrix (I - Q)^-1).

    >>> coin = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(0), Fraction(1)]]
    >>> absorption_time(coin)   # waiting for a head: 1 / (1/2)
    Fraction(2, 1)
    >>> absorption_time(two_pairs_chain(decks=2, jokers=4))
    Fraction(342, 25)
    """
    matrix = _transitions(matrix)
    whole("start", start, low=0, high=max(len(matrix) - 1, 0))
    size = len(matrix)
    transient = [i for i in range(size) if matrix[i][i] != 1]
    if start not in transient:
        return Fraction(0)
    index = {state: k for k, state in enumerate(transient)}
    # The augmented system [I - Q | 1].
    rows = [
        [Fraction(int(i == j)) - Fraction(matrix[i][j]) for j in transient] + [Fraction(1)]
        for i in transient
    ]
    for column in range(len(rows)):
        pivot = next((r for r in range(column, len(rows)) if rows[r][column] != 0), None)
        if pivot is None:
            raise ArgumentError("the chain is never absorbed from some state")
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [x / lead for x in rows[column]]
        for r in range(len(rows)):
            if r != column and rows[r][column] != 0:
                factor = rows[r][column]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[column], strict=True)]
    return rows[index[start]][-1]
