"""The answer key of assignment 1, ``hw1-counting``: for each question, what the grader
accepts from a student's numbers (:mod:`rummykit.teach.homework.hw1`). Teacher only: this
file ships in the autograder zip, never to students.

A hand is ``cards`` cards from N = 52 * decks + jokers physical cards, every set of them
equally likely, so a chance is a count of hands over C(N, cards). A numbers dict may also
carry ``ranks_in_shoe`` (13 unless given): the tests shrink the shoe to that many ranks,
list every hand and check each formula against the listing.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, factorial

from rummykit.teach.grading.marking import Expected, Mistake

ASSIGNMENT = "hw1-counting"


def _size(n: dict) -> int:
    """N, the number of cards in the shoe."""
    return 4 * n.get("ranks_in_shoe", 13) * n["decks"] + n["jokers"]


def q1(n: dict) -> Expected:
    """Hands with exactly k jokers: choose the k jokers, then the other cards from the
    naturals alone, C(j, k) C(N - j, n - k)."""
    size, jokers, cards, k = _size(n), n["jokers"], n["cards"], n["k"]
    right = comb(jokers, k) * comb(size - jokers, cards - k)
    return Expected.exact(
        right,
        checked="the number of hands with exactly k jokers for your numbers",
        hint="choose the k jokers, then the other cards from the cards that are not jokers",
        mistakes=[
            Mistake(
                comb(jokers, k) * comb(size - k, cards - k),
                "the count with the other cards chosen from every card left, jokers included "
                "(hands with more than k jokers, some counted more than once)",
            ),
            Mistake(right * factorial(cards), "the number of ordered hands (sequences of cards)"),
        ],
    )


def q2(n: dict) -> Expected:
    """At least one joker and at least one natural of the named ranks: by inclusion-
    exclusion on the complements, 1 - P(no joker) - P(none of the ranks) + P(neither)."""
    size, jokers, cards = _size(n), n["jokers"], n["cards"]
    good = 4 * n["decks"] * len(n["ranks"])
    hands = comb(size, cards)
    no_joker = Fraction(comb(size - jokers, cards), hands)
    no_rank = Fraction(comb(size - good, cards), hands)
    neither = Fraction(comb(size - jokers - good, cards), hands)
    right = 1 - no_joker - no_rank + neither
    return Expected.exact(
        right,
        checked="the exact chance of at least one joker and at least one natural of your ranks",
        hint="the complement is 'no joker or none of the ranks': count it by inclusion-exclusion",
        mistakes=[
            Mistake(
                (1 - no_joker) * (1 - no_rank),
                "the product of the two chances, as if the two counts were independent",
            ),
            Mistake(
                1 - no_joker - no_rank,
                "1 - P(no joker) - P(none of the ranks): the hands "
                "with neither are taken away twice",
            ),
        ],
    )


def q3(n: dict) -> Expected:
    """The rank in every one of m named suits: each (rank, suit) has d copies, so by
    inclusion-exclusion over the suits missed, sum_i (-1)^i C(m, i) C(N - i d, n) / C(N, n)."""
    size, cards, copies, m = _size(n), n["cards"], n["decks"], len(n["suits"])
    hands = comb(size, cards)
    right = sum(
        (
            Fraction((-1) ** i * comb(m, i) * comb(size - i * copies, cards), hands)
            for i in range(m + 1)
        ),
        Fraction(0),
    )
    miss_one = Fraction(comb(size - copies, cards), hands)
    return Expected.exact(
        right,
        checked="the exact chance that your rank shows in every one of your suits",
        hint="count the hands that miss at least one of the suits by inclusion-exclusion, "
        "then take the complement",
        mistakes=[
            Mistake(
                (1 - miss_one) ** len(n["suits"]),
                "the product of the suits' chances, as if the suits were independent",
            ),
            Mistake(
                1 - m * miss_one,
                "only the first two terms of inclusion-exclusion (the hands "
                "missing two suits are taken away more than once)",
            ),
        ],
    )


def q4(n: dict) -> Expected:
    """Exactly a of rank A and b of rank B: the multivariate hypergeometric,
    C(4d, a) C(4d, b) C(N - 8d, n - a - b) / C(N, n)."""
    size, cards, per_rank, a, b = _size(n), n["cards"], 4 * n["decks"], n["a"], n["b"]
    hands = comb(size, cards)
    right = Fraction(
        comb(per_rank, a) * comb(per_rank, b) * comb(size - 2 * per_rank, cards - a - b), hands
    )
    marginal_a = Fraction(comb(per_rank, a) * comb(size - per_rank, cards - a), hands)
    marginal_b = Fraction(comb(per_rank, b) * comb(size - per_rank, cards - b), hands)
    return Expected.exact(
        right,
        checked="the exact chance of exactly a of the first rank and exactly b of the second",
        hint="choose the a cards, the b cards, and the rest from the cards of neither rank",
        mistakes=[
            Mistake(
                marginal_a * marginal_b,
                "the product of the two hypergeometric chances, as if the counts were independent",
            ),
            Mistake(
                Fraction(
                    comb(per_rank, a) * comb(per_rank, b) * comb(size - a - b, cards - a - b), hands
                ),
                "the count with the rest chosen from every card left, which lets more of the "
                "two ranks in",
            ),
        ],
    )


def _at_least(k: int, *, good: int, others: int, cards: int) -> int:
    """Hands of ``cards`` from ``good + others`` cards with at least k of the good ones."""
    return sum(comb(good, x) * comb(others, cards - x) for x in range(k, min(good, cards) + 1))


def q5(n: dict) -> Expected:
    """P(X >= k | J >= 1), X the naturals of the rank and J the jokers:
    P(X >= k and J >= 1) / P(J >= 1), and P(X >= k and J >= 1) = P(X >= k) - P(X >= k, J = 0)."""
    size, jokers, cards, k = _size(n), n["jokers"], n["cards"], n["k"]
    per_rank = 4 * n["decks"]
    hands = comb(size, cards)
    at_least = _at_least(k, good=per_rank, others=size - per_rank, cards=cards)
    no_joker = _at_least(k, good=per_rank, others=size - per_rank - jokers, cards=cards)
    right = Fraction(at_least - no_joker, hands - comb(size - jokers, cards))
    one_less = Fraction(
        _at_least(k, good=per_rank, others=size - 1 - per_rank, cards=cards - 1),
        comb(size - 1, cards - 1),
    )
    return Expected.exact(
        right,
        checked="the exact chance of at least k naturals of your rank, given at least one joker",
        hint="P(A | B) = P(A and B) / P(B); the hands with at least k of the rank and no joker "
        "are the ones to take away",
        mistakes=[
            Mistake(
                Fraction(at_least, hands),
                "the chance without the condition (a joker takes a "
                "place in the hand, so the two are not independent)",
            ),
            Mistake(
                one_less,
                "the chance for a hand of cards - 1 from the shoe less one card (at "
                "least one joker does not fix one card to be a joker)",
            ),
        ],
    )


def q6(n: dict) -> Expected:
    """Var of the useful cards (jokers and naturals of the named ranks): hypergeometric,
    n p (1 - p) (N - n) / (N - 1) with p = K / N."""
    size, cards = _size(n), n["cards"]
    share = Fraction(4 * n["decks"] * len(n["ranks"]) + n["jokers"], size)
    binomial = cards * share * (1 - share)
    right = binomial * Fraction(size - cards, size - 1)
    return Expected.exact(
        right,
        checked="the exact variance of the number of useful cards in the hand",
        hint="the binomial variance times the finite-population correction (N - n) / (N - 1)",
        mistakes=[
            Mistake(binomial, "the binomial variance n p (1 - p): cards drawn with replacement"),
            Mistake(
                binomial * Fraction(size - cards, size),
                "the variance with (N - n) / N for the correction",
            ),
        ],
    )


KEY = {"q1": q1, "q2": q2, "q3": q3, "q4": q4, "q5": q5, "q6": q6}
