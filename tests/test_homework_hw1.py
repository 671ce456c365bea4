"""Assignment 1, ``hw1-counting``: each answer key (assignments/keys/hw1_counting.py)
against an independent count, listing every hand of a small shoe. The checks every
assignment passes (the registry against the master, 500 numbers and answers, the keys'
mistakes, the master's solutions, no single library call, the student's check) are in
tests/test_homework.py."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb

import pytest

from rummykit.engine.cards import Rank
from rummykit.teach.homework import ASSIGNMENTS, WRITTEN
from rummykit.teach.probability import mini_shoe
from tests.support.homework import key_module, student_numbers

ASSIGNMENT = "hw1-counting"
KEY = key_module(ASSIGNMENT)
QUESTIONS = ASSIGNMENTS[ASSIGNMENT]
AUTOGRADED = [name for name, question in QUESTIONS.items() if question.form != WRITTEN]
RANK_BY_CODE = {rank.code: rank for rank in Rank}


# --- each key against a count of every hand of a small shoe --------------------------------------


def _small(name: str, numbers: dict, rng: random.Random) -> tuple[dict, list[tuple]]:
    """``numbers`` on a shoe small enough to list every hand: the named ranks and at most
    one other, 1 or 2 decks, at most 4 jokers (``ranks_in_shoe`` tells the key), and the
    shoe's cards as (rank code or None, suit code) pairs."""
    named = [numbers[key] for key in ("rank", "rank_a", "rank_b") if key in numbers]
    named += numbers.get("ranks", [])
    fillers = [code for code in RANK_BY_CODE if code not in named]
    # other cards besides the named ones, where the question has a "rest of the shoe"
    extra = 1 if name in ("q2", "q4", "q5", "q6") else rng.randint(0, 1)
    ranks = (named + fillers[:extra]) or fillers[:1]
    decks = rng.randint(1, 2) if len(ranks) <= 2 else 1
    least_jokers = {"q1": numbers.get("k", 0), "q2": 1, "q5": 1}.get(name, 0)
    jokers = rng.randint(least_jokers, max(least_jokers, 3))
    size = 4 * len(ranks) * decks + jokers
    least_cards = max(
        numbers.get("k", 1) if name == "q1" else 1, numbers.get("a", 0) + numbers.get("b", 0)
    )
    fits = [n for n in range(least_cards, size + 1) if comb(size, n) <= 4000]
    small = numbers | {
        "decks": decks,
        "jokers": jokers,
        "cards": rng.choice(fits),
        "ranks_in_shoe": len(ranks),
    }
    shoe = mini_shoe(decks, jokers, [RANK_BY_CODE[code] for code in ranks])
    cards = [(None, None) if c.is_joker else (c.rank.code, c.suit.value) for c in shoe]
    return small, cards


def _listed(name: str, n: dict, shoe: list[tuple]) -> int | Fraction:
    """The question's answer by listing every hand of ``shoe``, each equally likely."""
    hands = list(itertools.combinations(shoe, n["cards"]))

    def jokers(hand):
        return sum(rank is None for rank, _ in hand)

    def of_rank(hand, *ranks):
        return sum(rank in ranks for rank, _ in hand)

    if name == "q1":
        return sum(jokers(hand) == n["k"] for hand in hands)
    if name == "q2":
        hits = sum(jokers(hand) >= 1 and of_rank(hand, *n["ranks"]) >= 1 for hand in hands)
    elif name == "q3":
        hits = sum(all((n["rank"], suit) in hand for suit in n["suits"]) for hand in hands)
    elif name == "q4":
        hits = sum(
            of_rank(hand, n["rank_a"]) == n["a"] and of_rank(hand, n["rank_b"]) == n["b"]
            for hand in hands
        )
    elif name == "q5":
        given = [hand for hand in hands if jokers(hand) >= 1]
        return Fraction(sum(of_rank(hand, n["rank"]) >= n["k"] for hand in given), len(given))
    else:
        useful = [jokers(hand) + of_rank(hand, *n["ranks"]) for hand in hands]
        mean = Fraction(sum(useful), len(hands))
        return Fraction(sum((u - mean) ** 2 for u in useful), len(hands))
    return Fraction(hits, len(hands))


@pytest.mark.parametrize("name", AUTOGRADED)
def test_a_key_agrees_with_listing_every_hand_of_a_small_shoe(name):
    rng, listed = random.Random(f"hw1-{name}"), set()
    for i in range(40):
        numbers = student_numbers(ASSIGNMENT, name, f"s{i}")
        # a small shoe on which the event can happen and can fail (0 and 1 tell little)
        small, shoe = _small(name, numbers, rng)
        while _listed(name, small, shoe) in (0, 1):
            small, shoe = _small(name, numbers, rng)
        value = _listed(name, small, shoe)
        assert KEY.KEY[name](small).value == value, small
        listed.add(value)
    assert len(listed) >= 10


def test_the_small_shoes_are_the_shoes_the_key_counts():
    # the key's N for a shrunk shoe is the listed shoe's size, so the check above is fair
    small, shoe = _small("q4", student_numbers(ASSIGNMENT, "q4", "s0"), random.Random(0))
    assert len(shoe) == 4 * small["ranks_in_shoe"] * small["decks"] + small["jokers"]
    assert KEY.KEY["q1"]({"decks": 1, "jokers": 2, "cards": 2, "k": 2}).value == 1


@pytest.mark.parametrize("name", ["q2", "q3", "q6"])
def test_the_named_ranks_and_suits_are_short_lists(name):
    # (tests/test_homework.py checks that every value is an int, a str or a list of strs)
    for i in range(20_000):
        lists = [
            v for v in student_numbers(ASSIGNMENT, name, f"s{i}").values() if isinstance(v, list)
        ]
        assert lists and all(1 <= len(value) <= 4 for value in lists), i
