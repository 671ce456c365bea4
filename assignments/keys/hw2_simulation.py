"""The answer key of assignment 2, ``hw2-simulation``: for each question, what the grader
accepts from a student's numbers (:mod:`rummykit.teach.homework.hw2`). Teacher only: this
file ships in the autograder zip, never to students.

The event of questions 1 to 4: a hand of ``cards`` from ``decks`` decks and ``jokers``
jokers holds at least ``size`` cards that are naturals of ``rank`` or jokers, at least
``naturals`` of them naturals. A numbers dict may also carry ``ranks_in_shoe`` (13 unless
given): the tests shrink the shoe to that many ranks and list every hand to check
:func:`event_chance`. Question 2's count re-runs the procedure its prompt states.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import ceil, comb, floor

import rummykit as rk
from rummykit.teach.grading.marking import Expected, Mistake

ASSIGNMENT = "hw2-simulation"


def _hands_with(n: dict, *, naturals: int, size: int) -> tuple[int, int]:
    """The hands with at least ``naturals`` naturals of the rank and at least ``size``
    naturals and jokers together, and all hands: sum over x naturals and y jokers of
    C(4d, x) C(j, y) C(N - 4d - j, n - x - y)."""
    per_rank, jokers, cards = 4 * n["decks"], n["jokers"], n["cards"]
    size_of_shoe = 4 * n.get("ranks_in_shoe", 13) * n["decks"] + jokers
    others = size_of_shoe - per_rank - jokers
    count = sum(
        comb(per_rank, x) * comb(jokers, y) * comb(others, cards - x - y)
        for x in range(naturals, min(per_rank, cards) + 1)
        for y in range(max(size - x, 0), min(jokers, cards - x) + 1)
    )
    return count, comb(size_of_shoe, cards)


def event_chance(n: dict) -> Fraction:
    """The exact chance of the event of questions 1 to 4 for the numbers ``n``."""
    return Fraction(*_hands_with(n, naturals=n["naturals"], size=n["size"]))


def q1(n: dict) -> Expected:
    right = event_chance(n)
    return Expected.exact(
        right,
        checked="the exact chance of your event for your numbers",
        hint="sum the multivariate hypergeometric over the numbers of naturals x and jokers y "
        "that make the event",
        mistakes=[
            Mistake(
                Fraction(*_hands_with(n, naturals=n["size"], size=n["size"])),
                "the chance of at least size naturals: the jokers were left out",
            ),
            Mistake(
                Fraction(*_hands_with(n, naturals=0, size=n["size"])),
                "the chance of at least size naturals and jokers together: the naturals the "
                "event needs were not required",
            ),
        ],
    )


def simulated_counts(n: dict) -> tuple[int, int]:
    """Question 2's procedure: the number of hands with the event, and the number with at
    least ``size`` naturals and jokers whatever the naturals (a slip the key recognises).

    ``rng.sample`` picks positions from the length of the list alone, so sampling each
    card's kind (0 other, 1 a natural of the rank, 2 a joker) picks the same cards as
    sampling the codes the prompt lists; the tests check this against the codes.
    """
    rng = random.Random(n["seed"])
    codes = [card.code for card in rk.Shoe(decks=n["decks"], jokers=n["jokers"]).cards]
    kinds = [2 if code == "JK" else int(code[:-1] == n["rank"]) for code in codes]
    events = loose = 0
    for _ in range(n["hands"]):
        hand = rng.sample(kinds, n["cards"])
        naturals, together = hand.count(1), hand.count(1) + hand.count(2)
        loose += together >= n["size"]
        events += together >= n["size"] and naturals >= n["naturals"]
    return events, loose


def q2(n: dict) -> Expected:
    right, loose = simulated_counts(n)
    return Expected.exact(
        right,
        checked="the count of hands with the event in the simulation your question states",
        hint="follow the procedure to the letter: one random.Random(seed), the shoe in the "
        "order listed, rng.sample(shoe, cards) once per hand, in one loop",
        mistakes=[
            Mistake(
                loose,
                "the count of hands with at least size naturals and jokers, whatever the "
                "number of naturals",
            ),
            Mistake(n["hands"] - right, "the count of hands without the event"),
        ],
    )


def q3(n: dict) -> Expected:
    p, hands = event_chance(n), n["hands"]
    right = p * (1 - p) / hands
    return Expected.exact(
        right,
        checked="the exact variance of the simulated share for your numbers",
        hint="the count of hands with the event is binomial; the share is the count divided "
        "by the number of hands",
        mistakes=[
            Mistake(hands * p * (1 - p), "the variance of the count, not of the share"),
            Mistake(p * (1 - p), "the variance of one hand's indicator: not divided by the hands"),
        ],
    )


def _needed(p: Fraction, half_width: Fraction, z: Fraction) -> Fraction:
    """The n at which z sqrt(p (1 - p) / n) equals the half-width."""
    return z**2 * p * (1 - p) / half_width**2


def q4(n: dict) -> Expected:
    p, half_width, z = event_chance(n), Fraction(n["half_width"]), Fraction(n["z"])
    needed = _needed(p, half_width, z)
    right = ceil(needed)
    return Expected.exact(
        right,
        checked="the fewest hands for your interval's half-width",
        hint="solve z sqrt(p (1 - p) / n) <= h for n with your exact p, in Fractions, and round up",
        mistakes=[
            Mistake(floor(needed), "rounded down: that many hands give a wider interval"),
            Mistake(
                ceil(_needed(Fraction(1, 2), half_width, z)),
                "the worst case p = 1/2, not your event's p",
            ),
        ],
    )


def _binomial_cdf(r: int, m: int, q: Fraction) -> Fraction:
    return sum((comb(m, i) * q**i * (1 - q) ** (m - i) for i in range(r + 1)), Fraction(0))


def q5(n: dict) -> Expected:
    m, r = n["intervals"], n["misses"]
    miss = 1 - Fraction(n["level"], 100)
    right = _binomial_cdf(r, m, miss)
    return Expected.exact(
        right,
        checked="the exact chance that at most your number of intervals miss",
        hint="the number of intervals that miss is binomial: sum its chances from 0 to your "
        "number of misses",
        mistakes=[
            Mistake(
                _binomial_cdf(r, m, 1 - miss),
                "the level used as the chance that one interval misses",
            ),
            Mistake(
                comb(m, r) * miss**r * (1 - miss) ** (m - r),
                "the chance of exactly that many misses",
            ),
        ],
    )


def q6(n: dict) -> Expected:
    size, jokers, cards = 52 * n["decks"] + n["jokers"], n["jokers"], n["cards"]
    share = Fraction(jokers, size)
    binomial = cards * share * (1 - share)
    variance = binomial * Fraction(size - cards, size - 1)
    bound = Fraction(n["epsilon"]) ** 2 * Fraction(n["delta"])
    right = ceil(variance / bound)
    return Expected.exact(
        right,
        checked="the fewest hands Chebyshev's inequality needs for your epsilon and delta",
        hint="the mean of n hands has variance sigma^2 / n, sigma^2 the hypergeometric "
        "variance of one hand's jokers; Chebyshev bounds the chance by that over epsilon^2",
        mistakes=[
            Mistake(
                ceil(binomial / bound),
                "the count with the binomial variance: no finite-population correction",
            ),
            Mistake(floor(variance / bound), "rounded down: the bound is then above delta"),
        ],
    )


KEY = {"q1": q1, "q2": q2, "q3": q3, "q4": q4, "q5": q5, "q6": q6}
