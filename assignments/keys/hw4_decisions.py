"""The answer key of assignment 4, ``hw4-decisions`` (ships only in the autograder zip).

``KEY[question](numbers) -> Expected``. Question 3 reads the packaged OutsBot table
(:func:`rummykit.teach.homework.hw4.outs_bot_rows`), as the student does.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import cache

from rummykit.engine.cards import Card, Shoe
from rummykit.engine.rules import RuleSet
from rummykit.teach.grading.marking import Expected, Mistake
from rummykit.teach.homework.hw4 import outs_bot_rows

ASSIGNMENT = "hw4-decisions"

RULES = RuleSet.preset("standard")


@cache
def _points(code: str) -> int:
    return RULES.point_value(Card.parse(code))


@cache
def _shoe(decks: int, jokers: int) -> tuple[str, ...]:
    return tuple(card.code for card in Shoe(decks, jokers).cards)


# --- question 1: the cost of buying, by linearity ------------------------------------------


def q1(n: dict) -> Expected:
    shoe = _shoe(n["decks"], n["jokers"])
    unseen = list((Counter(shoe) - Counter(n["hand"] + n["pile"])).elements())
    mean = Fraction(sum(map(_points, unseen)), len(unseen))
    held = sum(map(_points, n["hand"])) + _points(n["pile"][-1])
    right = held + n["penalty"] * mean
    shoe_mean = Fraction(sum(map(_points, shoe)), len(shoe))
    return Expected.exact(
        right,
        checked="the expected points of your hand, the upcard and the penalty cards",
        hint="by linearity: the points you hold, plus the number of penalty cards times the "
        "mean points of a card you have not seen",
        mistakes=[
            Mistake(right - _points(n["pile"][-1]), "the expected points without the upcard"),
            Mistake(
                held + n["penalty"] * shoe_mean,
                "the expected points with the penalty cards' mean over the whole shoe",
            ),
        ],
    )


# --- question 2: buy or pass ------------------------------------------------------------------


def _buy_minus_pass(n: dict, penalty: Fraction) -> Fraction:
    p_pass, p_buy = Fraction(n["p_pass"]), Fraction(n["p_buy"])
    hand, left = n["hand_points"], n["left"]
    bought = hand + _points(n["upcard"]) + penalty
    buy = p_buy * left + (1 - p_buy) * bought
    return buy - (p_pass * left + (1 - p_pass) * hand)


def q2(n: dict) -> Expected:
    right = _buy_minus_pass(n, Fraction(n["penalty_points"]))
    return Expected.exact(
        right,
        checked="the expected cost of buying minus the expected cost of passing",
        hint="each choice's expected cost is P(lay down) times left plus P(caught) times the "
        "points you would hold then",
        mistakes=[
            Mistake(_buy_minus_pass(n, Fraction(0)), "the difference without the penalty card"),
            Mistake(-right, "passing minus buying: the difference the other way round"),
        ],
    )


# --- question 3: a paired interval read from the table --------------------------------------


def _row(n: dict) -> dict[str, str]:
    turn = str(n["turn"]) if n["turn"] else ""
    (row,) = (
        row
        for row in outs_bot_rows()
        if int(row["round"]) == n["round"]
        and row["measure"] == n["measure"]
        and row["turn"] == turn
    )
    return row


#: How far from the exact lower end an answer read from the table may be.
TOLERANCE = 1e-4


def q3(n: dict) -> Expected:
    row, z, shrink = _row(n), float(Fraction(n["z"])), math.sqrt(n["times"])
    difference = float(row["difference"])
    low = difference - z * float(row["difference_stderr"]) / shrink
    return Expected.within(
        low - TOLERANCE,
        low + TOLERANCE,
        checked="the lower end of your paired interval, within 0.0001",
        hint="find your row (bot outs, your round, measure and turn), then difference - z * "
        "difference_stderr / sqrt(times)",
        mistakes=[
            Mistake(
                difference - z * float(row["stderr"]) / shrink,
                "the lower end with OutsBot's own standard error (stderr), not the paired one",
            ),
            Mistake(
                difference - z * float(row["difference_stderr"]),
                "the lower end for the table's own number of deals (times left out)",
            ),
        ],
    )


# --- questions 4 and 5: the paired variance -------------------------------------------------


def _variances(n: dict) -> tuple[Fraction, Fraction]:
    """Var(A - B) and Var A + Var B for the stated SDs and correlation."""
    a, b, r = n["sd_outs"], n["sd_greedy"], Fraction(n["corr"])
    return a * a + b * b - 2 * r * a * b, Fraction(a * a + b * b)


def q4(n: dict) -> Expected:
    paired, unpaired = _variances(n)
    right = paired / unpaired
    return Expected.exact(
        right,
        checked="the paired standard error squared over the unpaired one",
        hint="Var(A - B) = Var A + Var B - 2 Cov(A, B) with Cov = corr * SD(A) * SD(B); the "
        "number of deals cancels",
        mistakes=[
            Mistake(Fraction(1), "the ratio without the covariance"),
            Mistake((2 * unpaired - paired) / unpaired, "the ratio with the covariance added"),
        ],
    )


def q5(n: dict) -> Expected:
    paired, unpaired = _variances(n)
    z, h = Fraction(n["z"]), Fraction(n["half_width"])
    right = math.ceil(z * z * paired / (h * h))
    return Expected.exact(
        right,
        checked="the fewest deals whose paired interval is no wider than your half-width",
        hint="the half-width is z * SD(A - B) / sqrt(n): solve for n and round up",
        mistakes=[
            Mistake(
                math.ceil(z * z * unpaired / (h * h)),
                "the deals needed if the covariance is left out",
            ),
            Mistake(math.ceil(z * paired / (h * h)), "the deals needed with z not squared"),
        ],
    )


# --- question 6: the sign test --------------------------------------------------------------


def _two_sided(n: int, wins: int) -> Fraction:
    """2 P(X >= max(wins, n - wins)) for X ~ Binomial(n, 1/2), at most 1."""
    return min(Fraction(1), 2 * _upper(n, max(wins, n - wins)))


def _upper(n: int, k: int) -> Fraction:
    return Fraction(sum(math.comb(n, i) for i in range(k, n + 1)), 2**n)


def q6(n: dict) -> Expected:
    decided = n["deals"] - n["ties"]
    right = _two_sided(decided, n["wins"])
    return Expected.exact(
        right,
        checked="the exact two-sided sign-test p-value",
        hint="drop the ties; under no difference the wins are Binomial(n, 1/2): add both "
        "tails as far from n/2 as yours",
        mistakes=[
            Mistake(_upper(decided, max(n["wins"], decided - n["wins"])), "the one-sided p-value"),
            Mistake(_two_sided(n["deals"], n["wins"]), "the p-value with the ties kept"),
        ],
    )


KEY = {"q1": q1, "q2": q2, "q3": q3, "q4": q4, "q5": q5, "q6": q6}
