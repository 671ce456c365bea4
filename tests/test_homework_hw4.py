"""Assignment 4, ``hw4-decisions``: the OutsBot table it ships against the repository's
data/outs_bot.csv, and its answer key (assignments/keys/hw4_decisions.py) against methods
of the tests' own. The checks every assignment passes (the registry against the master, 500
numbers and answers, the keys' mistakes, the master's solutions, no single library call,
the student's check) are in tests/test_homework.py."""

from __future__ import annotations

import csv
import itertools
import math
from collections import Counter
from fractions import Fraction
from math import comb

import nbformat
import pytest

from rummykit.teach.homework import ASSIGNMENTS, NUMBER, WRITTEN, hw4
from tests.support.homework import MASTERS, ROOT, answer, student_expected, student_numbers

ASSIGNMENT = "hw4-decisions"
MASTER = MASTERS / f"{ASSIGNMENT}.ipynb"
QUESTIONS = ASSIGNMENTS[ASSIGNMENT]
#: The students the checks draw.
SOME = [f"s{i}" for i in range(40)]


def test_only_the_table_question_takes_a_float():
    autograded = [name for name, question in QUESTIONS.items() if question.form is not WRITTEN]
    assert [name for name in autograded if QUESTIONS[name].form is NUMBER] == ["q3"]


# --- the table the package ships ------------------------------------------------------------


def test_the_packaged_table_is_the_outs_bot_rows_of_the_repositorys_table():
    with (ROOT / "data" / "outs_bot.csv").open(newline="") as file:
        rows = [row for row in csv.DictReader(file) if row["bot"] == "outs"]
    with hw4.outs_bot_table_path().open(newline="") as file:
        packaged = csv.DictReader(file)
        assert tuple(packaged.fieldnames) == hw4.OUTS_BOT_COLUMNS
        assert list(packaged) == [{c: row[c] for c in hw4.OUTS_BOT_COLUMNS} for row in rows]
    assert hw4.outs_bot_rows() == [{c: row[c] for c in hw4.OUTS_BOT_COLUMNS} for row in rows]
    # It is package data: beside the module, named in pyproject.toml's package-data.
    assert hw4.outs_bot_table_path().parent.parent == ROOT / "rummykit" / "teach" / "homework"
    assert '"rummykit.teach.homework" = ["data/*"]' in (ROOT / "pyproject.toml").read_text()


def test_the_master_reads_the_table_through_the_package():
    sources = [c.source for c in nbformat.read(MASTER, as_version=4).cells if c.cell_type == "code"]
    assert any("outs_bot_table_path()" in source for source in sources)
    assert not any("data/" in source or "outs_bot.csv" in source for source in sources)


# --- the key against methods of the tests' own -------------------------------------------------

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: A card's points when someone goes out, by rank code (the standard rules).
POINTS = {rank: 5 for rank in RANKS[:8]} | {"10": 10, "J": 10, "Q": 10, "K": 10, "A": 15, "JK": 20}


def points(code: str) -> int:
    return POINTS[code if code == "JK" else code[:-1]]


def shoe(decks: int, jokers: int) -> Counter:
    return Counter({rank + suit: decks for rank in RANKS for suit in "CDHS"} | {"JK": jokers})


def test_q1_the_expected_cost_averages_every_set_of_penalty_cards():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q1", student)
        unseen = list((shoe(n["decks"], n["jokers"]) - Counter(n["hand"] + n["pile"])).elements())
        # Every set of penalty cards equally likely: the mean of their points, listed.
        sets = list(itertools.combinations(map(points, unseen), n["penalty"]))
        penalty = Fraction(sum(map(sum, sets)), len(sets))
        held = sum(map(points, n["hand"])) + points(n["pile"][-1])
        assert student_expected(ASSIGNMENT, "q1", student).value == held + penalty, (student, n)


def test_q2_the_difference_is_that_of_the_two_choices_outcome_by_outcome():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q2", student)
        p_buy, p_pass = Fraction(n["p_buy"]), Fraction(n["p_pass"])
        caught = n["hand_points"] + points(n["upcard"]) + Fraction(n["penalty_points"])
        outcomes = {  # (chance, points paid) for laying down in time and for being caught
            "buy": [(p_buy, n["left"]), (1 - p_buy, caught)],
            "pass": [(p_pass, n["left"]), (1 - p_pass, n["hand_points"])],
        }
        cost = {choice: sum(p * v for p, v in pairs) for choice, pairs in outcomes.items()}
        assert student_expected(ASSIGNMENT, "q2", student).value == cost["buy"] - cost["pass"], (
            student,
            n,
        )
        assert p_pass < p_buy < 1  # buying helps, and nothing is certain


def test_q3_the_lower_end_is_read_from_the_repositorys_table():
    with (ROOT / "data" / "outs_bot.csv").open(newline="") as file:
        rows = {
            (int(r["round"]), r["measure"], int(r["turn"] or 0)): r
            for r in csv.DictReader(file)
            if r["bot"] == "outs"
        }
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q3", student)
        row = rows[n["round"], n["measure"], n["turn"]]
        se = float(row["difference_stderr"]) / math.sqrt(n["times"])
        low = float(row["difference"]) - float(n["z"]) * se
        key = student_expected(ASSIGNMENT, "q3", student)
        assert key.accepts(low) and answer(key) == pytest.approx(low, abs=1e-12)
        assert key.accepts(low + 0.9e-4) and key.accepts(low - 0.9e-4)
        assert not key.accepts(low + 1.1e-4) and not key.accepts(low - 1.1e-4)
        assert n["z"] == hw4.Z_VALUES[n["level"]]


def variance(weights: tuple[int, int], sds: tuple[int, int], corr: Fraction) -> Fraction:
    """Var(w1 A + w2 B) as the quadratic form of the covariance matrix."""
    cov = [[sds[i] * sds[j] * (1 if i == j else corr) for j in range(2)] for i in range(2)]
    return sum(weights[i] * weights[j] * cov[i][j] for i in range(2) for j in range(2))


def test_q4_the_ratio_is_that_of_the_quadratic_forms_with_and_without_the_covariance():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q4", student)
        sds, corr = (n["sd_outs"], n["sd_greedy"]), Fraction(n["corr"])
        paired = variance((1, -1), sds, corr)
        unpaired = variance((1, -1), sds, Fraction(0))
        assert student_expected(ASSIGNMENT, "q4", student).value == paired / unpaired, (student, n)


def fewest_deals(z: Fraction, var: Fraction, h: Fraction) -> int:
    """The fewest deals n with z sqrt(var / n) <= h (squared: z^2 var / n <= h^2), by
    bisection."""
    low, high = 1, 10**7
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if z * z * var / middle <= h * h else (middle + 1, high)
    return low


def test_q5_the_deals_are_the_fewest_whose_half_width_is_small_enough():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q5", student)
        var = variance((1, -1), (n["sd_outs"], n["sd_greedy"]), Fraction(n["corr"]))
        deals = fewest_deals(Fraction(n["z"]), var, Fraction(n["half_width"]))
        assert student_expected(ASSIGNMENT, "q5", student).value == deals, (student, n)


def test_q6_the_p_value_adds_every_outcome_as_unlikely_as_the_one_seen():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q6", student)
        untied = n["deals"] - n["ties"]
        pmf = [Fraction(comb(untied, k), 2**untied) for k in range(untied + 1)]
        p_value = sum(p for p in pmf if p <= pmf[n["wins"]])
        assert student_expected(ASSIGNMENT, "q6", student).value == p_value, (student, n)
