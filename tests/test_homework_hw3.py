"""Assignment 3, ``hw3-waiting``: its answer key (assignments/keys/hw3_waiting.py) against
methods of the tests' own: the unseen cards listed, the chain built card kind by card kind,
the simulation run again with Fractions. The checks every assignment passes (the registry
against the master, 500 numbers and answers, the keys' mistakes, the master's solutions, no
single library call, the student's check) are in tests/test_homework.py."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from rummykit.engine.cards import Shoe
from rummykit.teach import probability
from rummykit.teach.grading.marking import mark
from rummykit.teach.homework import ASSIGNMENTS
from tests.support.homework import student_expected, student_numbers

ASSIGNMENT = "hw3-waiting"
QUESTIONS = ASSIGNMENTS[ASSIGNMENT]
#: The students the checks draw.
SOME = [f"s{i}" for i in range(40)]


# --- the key against methods of the tests' own -------------------------------------------------


def unseen_cards(n: dict) -> list[str]:
    """The unseen cards as a list of codes: the shoe less a hand of ``cards`` cards with a
    pair of 8s and no joker, and a pile of ``seen`` cards with no 8 and no joker."""
    left = [card.code for card in Shoe(n["decks"], n["jokers"]).cards]
    others = [code for code in left if code[:-1] != "8" and code != "JK"]
    for code in ["8H", "8S", *others[: n["cards"] - 2 + n["seen"]]]:
        left.remove(code)
    return left


def wanted(cards: list[str]) -> int:
    return sum(code[:-1] == "8" or code == "JK" for code in cards)


def first_position_by_listing(size: int, marked: int) -> Fraction:
    """The mean position of the first of ``marked`` cards among ``size``, over every set of
    positions the marked cards can take."""
    places = list(itertools.combinations(range(1, size + 1), marked))
    return Fraction(sum(min(p) for p in places), len(places))


@pytest.mark.parametrize(("size", "marked"), [(5, 1), (7, 2), (9, 3), (10, 4), (12, 11)])
def test_the_tail_sum_of_the_first_position_agrees_with_listing_every_order(size, marked):
    tail_sum = sum(Fraction(comb(size - marked, k), comb(size, k)) for k in range(size + 1))
    assert tail_sum == first_position_by_listing(size, marked)


def test_q1_the_first_wanted_card_is_the_tail_sum_over_the_unseen_cards():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q1", student)
        cards = unseen_cards(n)
        N, m = len(cards), wanted(cards)
        # E[T] = sum over k of P(T > k): the first k unseen cards all unwanted.
        mean = sum(Fraction(comb(N - m, k), comb(N, k)) for k in range(N - m + 1))
        assert student_expected(ASSIGNMENT, "q1", student).value == mean, (student, n)


def test_q2_at_least_one_wanted_card_is_one_minus_the_chance_of_none_draw_by_draw():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q2", student)
        left = Counter(wanted([code]) for code in unseen_cards(n))
        none = Fraction(1)
        for _ in range(n["draws"]):
            none *= Fraction(left[0], left[0] + left[1])
            left[0] -= 1
        assert student_expected(ASSIGNMENT, "q2", student).value == 1 - none, (student, n)
        assert none == probability.hypergeom_pmf(
            0, population=left[0] + left[1] + n["draws"], successes=left[1], draws=n["draws"]
        )


def test_q3_the_window_is_the_sum_of_the_geometric_chances_of_its_turns():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q3", student)
        p = Fraction(n["jokers"], 52 * n["decks"] + n["jokers"])
        window = sum((1 - p) ** (k - 1) * p for k in range(n["first"], n["last"] + 1))
        assert student_expected(ASSIGNMENT, "q3", student).value == window, (student, n)


def chain(n: dict) -> tuple[list, list[list[Fraction]]]:
    """The chain of questions 4 to 6, built card kind by card kind: its states in the
    stated order (without the joker, then with it, by naturals kept; done last) and its
    matrix."""

    def after(state: tuple[int, int], kind: str) -> tuple[int, int] | str:
        kept, joker = state
        if kind == "natural":
            kept += 1
        elif kind == "joker" and not joker:
            joker = 1
        return "done" if kept + joker == n["need"] else (kept, joker)

    def kinds(state: tuple[int, int]) -> dict[str, int]:
        natural = n["outs"] - state[0]
        return {
            "natural": natural,
            "joker": n["jokers"],
            "other": n["unseen"] - natural - n["jokers"],
        }

    found, todo = set(), [(0, 0)]
    while todo:
        state = todo.pop()
        if state != "done" and state not in found:
            found.add(state)
            todo += [after(state, kind) for kind in kinds(state)]
    states = sorted(found, key=lambda s: (s[1], s[0])) + ["done"]
    matrix = [[Fraction(0)] * len(states) for _ in states]
    matrix[-1][-1] = Fraction(1)
    for i, state in enumerate(states[:-1]):
        for kind, count in kinds(state).items():
            matrix[i][states.index(after(state, kind))] += Fraction(count, n["unseen"])
    return states, matrix


def test_the_chain_has_the_stated_states_and_rows_that_sum_to_1():
    states, matrix = chain({"unseen": 40, "outs": 5, "jokers": 2, "need": 3})
    assert states == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), "done"]
    assert all(sum(row) == 1 for row in matrix)
    assert matrix[2][-1] == Fraction(3 + 2, 40)  # from (2, 0) a natural or a joker finishes
    assert matrix[3][3] == Fraction(40 - 5, 40)  # with the joker kept, a joker does not help


def test_q4_the_expected_turns_solve_the_chain_the_tests_build():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q4", student)
        assert student_expected(ASSIGNMENT, "q4", student).value == probability.absorption_time(
            chain(n)[1]
        )


def test_q5_the_chance_within_the_turns_is_an_entry_of_the_matrix_power():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q5", student)
        power = probability.matrix_power(chain(n)[1], n["turns"])
        assert student_expected(ASSIGNMENT, "q5", student).value == power[0][-1], (student, n)


def simulated(n: dict) -> int:
    """The procedure question 6 states, step by step with Fractions."""
    matrix = chain(n)[1]
    rng = random.Random(n["seed"])
    total = 0
    for _ in range(n["runs"]):
        state = 0
        while state != len(matrix) - 1:
            u = rng.random()
            sums = itertools.accumulate(matrix[state])
            state = next(j for j, cumulative in enumerate(sums) if u < cumulative)
            total += 1
    return total


def test_q6_the_total_is_the_stated_procedure_run_again():
    for student in SOME:
        n = student_numbers(ASSIGNMENT, "q6", student)
        assert student_expected(ASSIGNMENT, "q6", student).value == simulated(n), (student, n)


def test_q6_the_exact_expectation_is_not_a_count_and_does_not_pass():
    student = SOME[0]
    n = student_numbers(ASSIGNMENT, "q6", student)
    mean = n["runs"] * probability.absorption_time(chain(n)[1])
    question, key = QUESTIONS["q6"], student_expected(ASSIGNMENT, "q6", student)
    assert not mark(question, key, mean).earned
    assert mean.denominator == 1 or not question.check(mean).ok
