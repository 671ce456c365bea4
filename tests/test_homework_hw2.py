"""Assignment 2, ``hw2-simulation``: each answer key (assignments/keys/hw2_simulation.py)
against an independent method: the event's chance by listing every hand of a small shoe and
by a second derivation, the simulation re-implemented from the cards up, the binomial's
tail by an integral, a variance by its pmf, and each sample size by its defining
inequality. The checks every assignment passes (the registry against the master, 500
numbers and answers, the keys' mistakes, the master's solutions, no single library call,
the student's check) are in tests/test_homework.py."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb, sqrt

import nbformat

import rummykit
from rummykit.engine.cards import Rank
from rummykit.teach.grading import marking
from rummykit.teach.homework import ASSIGNMENTS
from rummykit.teach.probability import mini_shoe
from tests.support.homework import MASTERS, key_module, student_numbers

ASSIGNMENT = "hw2-simulation"
MASTER = MASTERS / f"{ASSIGNMENT}.ipynb"
KEY = key_module(ASSIGNMENT)
QUESTIONS = ASSIGNMENTS[ASSIGNMENT]
RANK_BY_CODE = {rank.code: rank for rank in Rank}


def test_the_simulations_procedure_uses_the_standard_librarys_generator():
    # the procedure the key re-runs: random.Random(seed), not numpy's generator
    cells = nbformat.read(MASTER, as_version=4).cells
    code = "\n".join(cell.source for cell in cells if cell.cell_type == "code")
    assert "numpy" not in code and 'rng = random.Random(n2["seed"])' in code


# --- the event's chance, two ways ---------------------------------------------------------------


def _small(numbers: dict, rng: random.Random) -> tuple[dict, list[tuple]]:
    """``numbers`` on a shoe small enough to list every hand: the rank and one other, 1 or
    2 decks, 1 to 3 jokers (``ranks_in_shoe`` tells the key), and the shoe's cards as
    (rank code or None) for a joker."""
    ranks = [numbers["rank"], next(code for code in RANK_BY_CODE if code != numbers["rank"])]
    decks, jokers = rng.randint(1, 2), rng.randint(1, 3)
    size = 8 * decks + jokers
    fits = [n for n in range(numbers["size"], size + 1) if comb(size, n) <= 4000]
    small = numbers | {"decks": decks, "jokers": jokers, "cards": rng.choice(fits)}
    small["ranks_in_shoe"] = 2
    shoe = mini_shoe(decks, jokers, [RANK_BY_CODE[code] for code in ranks])
    return small, [None if card.is_joker else card.rank.code for card in shoe]


def _listed_chance(n: dict, shoe: list) -> Fraction:
    """The event's chance by listing every hand of ``shoe``."""
    hands = list(itertools.combinations(shoe, n["cards"]))
    hits = 0
    for hand in hands:
        naturals, jokers = hand.count(n["rank"]), hand.count(None)
        hits += naturals >= n["naturals"] and naturals + jokers >= n["size"]
    return Fraction(hits, len(hands))


def _informative(numbers: dict, rng: random.Random) -> tuple[dict, Fraction]:
    """A small shoe on which the event can happen and can fail, and its listed chance."""
    while True:
        small, shoe = _small(numbers, rng)
        p = _listed_chance(small, shoe)
        if 0 < p < 1:
            return small, p


def _chance_by_conditioning(n: dict) -> Fraction:
    """The event's chance on the full shoe another way: over the naturals x of the rank,
    P(X = x) times P(Y >= size - x | X = x), the jokers Y then being hypergeometric among
    the N - 4d other cards, n - x of them drawn."""
    per_rank, jokers, cards = 4 * n["decks"], n["jokers"], n["cards"]
    size = 52 * n["decks"] + jokers
    total = Fraction(0)
    for x in range(n["naturals"], min(per_rank, cards) + 1):
        rest, drawn = size - per_rank, cards - x
        p_x = Fraction(comb(per_rank, x) * comb(rest, drawn), comb(size, cards))
        p_y = sum(
            Fraction(comb(jokers, y) * comb(rest - jokers, drawn - y), comb(rest, drawn))
            for y in range(max(n["size"] - x, 0), min(jokers, drawn) + 1)
        )
        total += p_x * p_y
    return total


def test_the_event_chance_agrees_with_listing_every_hand_of_a_small_shoe():
    rng, listed = random.Random("hw2-q1"), set()
    for i in range(40):
        small, p = _informative(student_numbers(ASSIGNMENT, "q1", f"s{i}"), rng)
        assert KEY.KEY["q1"](small).value == p, small
        listed.add(p)
    assert len(listed) >= 15


def test_the_event_chance_agrees_with_a_second_derivation():
    for i in range(40):
        numbers = student_numbers(ASSIGNMENT, "q1", f"s{i}")
        assert KEY.KEY["q1"](numbers).value == _chance_by_conditioning(numbers), numbers


# --- the simulation, re-implemented ------------------------------------------------------------


def _shoe_codes(decks: int, jokers: int) -> list[str]:
    """The shoe as the prompt lists it: deck by deck, clubs to spades, 2 to ace; then the
    jokers (written out here, not read from rummykit.Shoe)."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    one_deck = [rank + suit for suit in "CDHS" for rank in ranks]
    return one_deck * decks + ["JK"] * jokers


def _simulated(n: dict) -> int:
    rng = random.Random(n["seed"])
    shoe = _shoe_codes(n["decks"], n["jokers"])
    count = 0
    for _ in range(n["hands"]):
        hand = rng.sample(shoe, n["cards"])
        naturals = sum(code != "JK" and code[:-1] == n["rank"] for code in hand)
        jokers = sum(code == "JK" for code in hand)
        count += naturals >= n["naturals"] and naturals + jokers >= n["size"]
    return count


def test_the_simulation_key_is_the_procedure_the_prompt_states():
    question = QUESTIONS["q2"]
    for i in range(60):
        numbers = student_numbers(ASSIGNMENT, "q2", f"s{i}")
        expected = KEY.KEY["q2"](numbers)
        assert expected.value == _simulated(numbers), numbers
        # the count is a binomial draw around hands * p: within 4.5 standard errors
        p = KEY.event_chance(numbers)
        mean, spread = numbers["hands"] * p, sqrt(numbers["hands"] * p * (1 - p))
        assert abs(expected.value - mean) <= 4.5 * spread + 1, numbers
        # the exact chance pasted in is no count, and so is the expected count
        assert not marking.mark(question, expected, p).earned
        assert not marking.mark(question, expected, float(mean)).earned
    assert _shoe_codes(2, 3) == [c.code for c in rummykit.Shoe(decks=2, jokers=3).cards]


# --- the estimate's variance, the interval's sample size, the misses, Chebyshev ---------------


def test_the_variance_of_the_share_agrees_with_its_binomial_pmf():
    rng = random.Random("hw2-q3")
    for i in range(40):
        numbers = student_numbers(ASSIGNMENT, "q3", f"s{i}")
        small, p = _informative(numbers, rng)
        small["hands"] = m = rng.randint(2, 12)
        pmf = [comb(m, s) * p**s * (1 - p) ** (m - s) for s in range(m + 1)]
        mean = sum(Fraction(s, m) * q for s, q in enumerate(pmf))
        assert mean == p
        variance = sum((Fraction(s, m) - p) ** 2 * q for s, q in enumerate(pmf))
        assert KEY.KEY["q3"](small).value == variance, small


def test_the_sample_size_is_the_fewest_hands_whose_interval_is_narrow_enough():
    rng = random.Random("hw2-q4")
    for i in range(40):
        numbers = student_numbers(ASSIGNMENT, "q4", f"s{i}")
        z, h = Fraction(numbers["z"]), Fraction(numbers["half_width"])
        small, p_small = _informative(numbers, rng)
        for n, p in ((numbers, _chance_by_conditioning(numbers)), (small, p_small)):
            # the fewest m with z sqrt(p (1 - p) / m) <= h, that is z^2 p (1 - p) <= h^2 m
            hands, spread = KEY.KEY["q4"](n).value, z**2 * p * (1 - p)
            assert hands >= 1 and spread <= h**2 * hands and spread > h**2 * (hands - 1), n


def test_the_chance_of_few_misses_agrees_with_the_binomial_tail_as_an_integral():
    # P(Binomial(k, q) <= r) = (k - r) C(k, r) * integral from 0 to 1 - q of
    # t^(k - r - 1) (1 - t)^r dt, expanded by the binomial theorem and integrated exactly
    for i in range(60):
        numbers = student_numbers(ASSIGNMENT, "q5", f"s{i}")
        k, r = numbers["intervals"], numbers["misses"]
        top = Fraction(numbers["level"], 100)
        integral = sum(
            Fraction(comb(r, s) * (-1) ** s, k - r + s) * top ** (k - r + s) for s in range(r + 1)
        )
        assert KEY.KEY["q5"](numbers).value == (k - r) * comb(k, r) * integral, numbers


def test_the_chebyshev_sample_size_agrees_with_the_variance_by_the_pmf():
    for i in range(40):
        numbers = student_numbers(ASSIGNMENT, "q6", f"s{i}")
        decks, jokers, cards = numbers["decks"], numbers["jokers"], numbers["cards"]
        size = 52 * decks + jokers
        pmf = {
            y: Fraction(comb(jokers, y) * comb(size - jokers, cards - y), comb(size, cards))
            for y in range(min(jokers, cards) + 1)
        }
        assert sum(pmf.values()) == 1
        mean = sum(y * q for y, q in pmf.items())
        variance = sum((y - mean) ** 2 * q for y, q in pmf.items())
        epsilon, delta = Fraction(numbers["epsilon"]), Fraction(numbers["delta"])
        hands = KEY.KEY["q6"](numbers).value
        # the fewest m with variance / (m epsilon^2) <= delta
        bound = delta * epsilon**2
        assert hands >= 1 and variance <= bound * hands and variance > bound * (hands - 1)
