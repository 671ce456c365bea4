"""The numbers of assignment 4, ``hw4-decisions``: a decision by expected value, and a
paired comparison of two bots.

Question 1 is the expected cost of buying (linearity over the penalty cards), question 2 a
buy-or-pass decision by expected value, question 3 a paired interval read from the OutsBot
table, questions 4 to 6 the paired comparison's variance, its number of deals and a sign
test. Question 7 is written.

The table question 3 reads ships with the package (:func:`outs_bot_table_path`,
:func:`outs_bot_rows`): the OutsBot rows of the repository's ``data/outs_bot.csv``, in the
columns :data:`OUTS_BOT_COLUMNS`, so a student with ``pip install rummykit`` can do the
assignment.

>>> rows = outs_bot_rows()
>>> rows[1]["measure"], rows[1]["turn"], rows[1]["difference"]
('laid down by turn', '2', '0.06')
"""

from __future__ import annotations

import csv
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

from rummykit.engine.cards import Card, Shoe
from rummykit.teach.homework.spec import (
    COUNT,
    EXACT,
    NUMBER,
    PROBABILITY,
    WRITTEN,
    Question,
    no_numbers,
)

__all__ = [
    "ASSIGNMENT",
    "OUTS_BOT_COLUMNS",
    "QUESTIONS",
    "Z_VALUES",
    "outs_bot_rows",
    "outs_bot_table_path",
]

ASSIGNMENT = "hw4-decisions"

#: The columns of the packaged OutsBot table, each as in ``data/outs_bot.csv``: the rows of
#: ``bot == "outs"`` (OutsBot's seat against GreedyBots), ``difference`` the paired
#: difference from GreedyBot's play of the same seat on the same deals.
OUTS_BOT_COLUMNS = (
    "round",
    "contract",
    "measure",
    "turn",
    "n",
    "mean",
    "stderr",
    "difference",
    "difference_stderr",
)

#: The confidence levels of the questions' normal intervals, with the z each states (the
#: two-sided normal quantile, to the digits given).
Z_VALUES = {80: "1.2816", 90: "1.6449", 95: "1.96", 98: "2.3263", 99: "2.5758"}


def outs_bot_table_path() -> Path:
    """The packaged OutsBot table, a CSV file with the columns :data:`OUTS_BOT_COLUMNS`
    (``turn`` is empty for the measures of a whole round)."""
    return Path(__file__).with_name("data") / "outs_bot.csv"


@cache
def _table() -> tuple[dict[str, str], ...]:
    with outs_bot_table_path().open(newline="") as file:
        return tuple(csv.DictReader(file))


def outs_bot_rows() -> list[dict[str, str]]:
    """The packaged OutsBot table's rows, as :class:`csv.DictReader` reads them (every value
    a str)."""
    return [dict(row) for row in _table()]


@cache
def _shoe_codes(decks: int, jokers: int) -> tuple[str, ...]:
    return tuple(card.code for card in Shoe(decks, jokers).cards)


def _hand_and_pile(rng: random.Random) -> dict:
    """A hand of 10 to 12 cards (sorted by suit, then rank) and a discard pile of 3 to 14
    (its last card the upcard), dealt from a shoe of 2 or 3 decks, and the penalty cards a
    buy costs."""
    decks = rng.choice((2, 3))
    shoe = Shoe(decks, 2 * decks).cards
    cards, pile = rng.randint(10, 12), rng.randint(3, 14)
    picked = rng.sample(range(len(shoe)), cards + pile)
    hand = sorted((shoe[i] for i in picked[:cards]), key=Card.suit_sort_key)
    return {
        "decks": decks,
        "jokers": 2 * decks,
        "hand": [card.code for card in hand],
        "pile": [shoe[i].code for i in picked[cards:]],
        "penalty": rng.randint(1, 2),
    }


def _buy_or_pass(rng: random.Random) -> dict:
    """The points at stake and the chances of laying down, buying or passing."""
    p_pass = Fraction(rng.randint(10, 60), 100)
    p_buy = p_pass + Fraction(rng.randint(5, 30), 100)
    return {
        "hand_points": rng.randint(30, 110),
        "upcard": rng.choice(_shoe_codes(1, 1)),
        "penalty_points": str(Fraction(rng.randint(700, 900), rng.randint(90, 100))),
        "p_pass": str(p_pass),
        "p_buy": str(p_buy),
        "left": rng.randint(1, 25),
    }


@cache
def _compared_rows() -> tuple[dict[str, str], ...]:
    """The rows with a paired standard error above 0: on the first turn or two the two
    bots laid down alike on every deal, and an interval of width 0 asks nothing."""
    return tuple(row for row in _table() if float(row["difference_stderr"]) > 0)


def _level(rng: random.Random) -> dict:
    level = rng.choice(sorted(Z_VALUES))
    return {"level": level, "z": Z_VALUES[level]}


def _paired_row(rng: random.Random) -> dict:
    """A row of the table (``turn`` 0 for a row without a turn), a confidence level and a
    factor ``times`` on the number of deals."""
    row = rng.choice(_compared_rows())
    return {
        "round": int(row["round"]),
        "measure": row["measure"],
        "turn": int(row["turn"] or 0),
        **_level(rng),
        "times": rng.choice((1, 4, 9, 16, 25)),
    }


def _spreads(rng: random.Random) -> dict:
    """The standard deviations of the two bots' points per round and their correlation
    over the same deals, as a decimal str."""
    return {
        "sd_outs": rng.randint(20, 70),
        "sd_greedy": rng.randint(20, 70),
        "corr": f"0.{rng.randint(10, 95):02d}",
    }


def _planned(rng: random.Random) -> dict:
    half = rng.randint(2, 12)
    return {
        **_spreads(rng),
        **_level(rng),
        "half_width": f"{half // 2}.5" if half % 2 else str(half // 2),
    }


def _signs(rng: random.Random) -> dict:
    """Deals played, ties among them and OutsBot's wins among the others: never within one
    of half the decided deals, where the two-sided p-value is 1 whatever the deals (an
    answer a student could guess)."""
    deals = rng.randint(40, 120)
    ties = rng.randint(1, deals // 5)
    decided = deals - ties
    wins = rng.randint(round(0.25 * decided), round(0.75 * decided))
    while abs(2 * wins - decided) <= 2:
        wins = rng.randint(round(0.25 * decided), round(0.75 * decided))
    return {"deals": deals, "ties": ties, "wins": wins}


QUESTIONS = (
    Question(
        ASSIGNMENT,
        "q1",
        "expected_cost",
        EXACT,
        _hand_and_pile,
        "the expected points you pay if caught after buying",
    ),
    Question(
        ASSIGNMENT,
        "q2",
        "buy_minus_pass",
        EXACT,
        _buy_or_pass,
        "the expected cost of buying minus that of passing",
    ),
    Question(
        ASSIGNMENT,
        "q3",
        "paired_low",
        NUMBER,
        _paired_row,
        "the lower end of a paired interval from the OutsBot table",
    ),
    Question(
        ASSIGNMENT,
        "q4",
        "se_ratio",
        EXACT,
        _spreads,
        "the paired standard error squared over the unpaired one",
    ),
    Question(
        ASSIGNMENT,
        "q5",
        "deals_needed",
        COUNT,
        _planned,
        "the deals a paired comparison needs for a half-width",
    ),
    Question(
        ASSIGNMENT, "q6", "p_sign", PROBABILITY, _signs, "the exact two-sided sign-test p-value"
    ),
    Question(
        ASSIGNMENT,
        "q7",
        None,
        WRITTEN,
        no_numbers,
        "the decision and the paired comparison, in words",
    ),
)
