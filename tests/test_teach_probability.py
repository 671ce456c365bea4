"""Teaching helpers against brute-force enumeration of a small shoe and the exact sweep."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from rummykit import Contract, Rank, RuleSet
from rummykit.errors import ArgumentError
from rummykit.odds import dealt_probability
from rummykit.teach.probability import (
    TWO_PAIRS_STATES,
    absorption_time,
    distinct_hands,
    expected_ranks_with_at_least,
    expected_sets_in_waiting,
    hypergeom_pmf,
    hypergeom_sf,
    matrix_power,
    mini_shoe,
    prob_at_least_of_rank,
    prob_at_least_one_joker,
    prob_by_listing,
    prob_pair_or_better,
    sample_size,
    two_pairs_chain,
    within_standard_errors,
)

SHOE = {"decks": 2, "jokers": 2, "ranks": 3, "suits": 2}


def _hands(cards: int):
    """Every hand of the small shoe as (rank of each natural, jokers)."""
    deck = [("rank", r) for r in range(SHOE["ranks"]) for _ in range(SHOE["suits"] * SHOE["decks"])]
    deck += [("joker", None)] * SHOE["jokers"]
    for hand in itertools.combinations(range(len(deck)), cards):
        ranks = [deck[i][1] for i in hand if deck[i][0] == "rank"]
        yield ranks, cards - len(ranks)


def _share(event, cards: int) -> Fraction:
    hands = list(_hands(cards))
    return Fraction(sum(1 for h in hands if event(*h)), len(hands))


@pytest.mark.parametrize("cards", [2, 4, 6])
def test_against_enumeration(cards):
    for k in range(0, 5):
        assert prob_at_least_of_rank(k, cards=cards, **SHOE) == _share(
            lambda ranks, j, k=k: ranks.count(0) >= k, cards
        )
    assert prob_pair_or_better(cards=cards, **SHOE) == _share(
        lambda ranks, j: any(ranks.count(r) >= 2 for r in range(3)), cards
    )
    assert prob_at_least_one_joker(cards=cards, **SHOE) == _share(lambda ranks, j: j >= 1, cards)
    hands = list(_hands(cards))
    waiting = Fraction(
        sum(sum(ranks.count(r) >= 2 for r in range(3)) for ranks, _ in hands), len(hands)
    )
    assert expected_sets_in_waiting(cards=cards, **SHOE) == waiting
    for k in range(1, 5):
        at_least_k = Fraction(
            sum(sum(ranks.count(r) >= k for r in range(3)) for ranks, _ in hands), len(hands)
        )
        assert expected_ranks_with_at_least(k, cards=cards, **SHOE) == at_least_k


@pytest.mark.parametrize("cards", [0, 1, 3, 5])
def test_distinct_hands_are_the_face_multisets_of_the_physical_hands(cards):
    # The small shoe by face: each rank-suit face decks times, the jokers alike.
    shoe = [(r, s) for r in range(SHOE["ranks"]) for s in range(SHOE["suits"])]
    shoe = [face for face in shoe for _ in range(SHOE["decks"])] + ["joker"] * SHOE["jokers"]
    hands = distinct_hands(shoe, cards)
    physical = Counter(tuple(sorted(h, key=repr)) for h in itertools.combinations(shoe, cards))
    assert len(hands) == len(set(hands)) == len(physical)
    assert {tuple(sorted(h, key=repr)) for h in hands} == set(physical)
    # Each distinct hand stands for prod C(copies, held) physical hands; they add up.
    copies = Counter(shoe)
    for hand in hands:
        held = Counter(hand)
        ways = math.prod(math.comb(copies[face], k) for face, k in held.items())
        assert physical[tuple(sorted(hand, key=repr))] == ways
    assert sum(physical.values()) == math.comb(len(shoe), cards)
    with pytest.raises(ValueError, match="cards must be"):
        distinct_hands(shoe, -1)


def test_hypergeometric_is_a_distribution():
    pmf = [hypergeom_pmf(k, population=30, successes=8, draws=10) for k in range(9)]
    assert sum(pmf) == 1
    assert hypergeom_sf(2, population=30, successes=8, draws=10) == 1 - sum(pmf[:3])
    with pytest.raises(ValueError, match="successes <= population"):
        hypergeom_pmf(1, population=5, successes=6, draws=2)


@pytest.mark.parametrize(("decks", "jokers", "cards"), [(1, 2, 7), (2, 4, 10), (3, 6, 12)])
def test_pair_or_better_is_a_two_card_set(decks, jokers, cards):
    # A "set" of two naturals is a pair: the exact sweep must agree with the formula.
    pairs = dataclasses.replace(
        RuleSet.preset("standard"), min_set_size=2, min_naturals_in_set=2, name="pairs"
    )
    exact = dealt_probability(
        Contract(sets=1), decks=decks, jokers=jokers, cards=cards, rules=pairs
    )
    assert exact == prob_pair_or_better(decks=decks, jokers=jokers, cards=cards)


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (2, 2), (3, 1)])
def test_mini_shoe_keeps_the_ranks_asked_for_and_the_jokers(decks, jokers):
    ranks = (Rank.ACE, Rank.SEVEN, Rank.KING)
    shoe = mini_shoe(decks, jokers, ranks)
    assert len(shoe) == 4 * decks * len(ranks) + jokers
    assert {card.rank for card in shoe if not card.is_joker} == set(ranks)
    assert sum(card.is_joker for card in shoe) == jokers
    assert len({(card.code, card.deck) for card in shoe if not card.is_joker}) == 12 * decks


@pytest.mark.parametrize("n", [0, 1, 3, 5])
def test_listing_every_hand_agrees_with_the_hypergeometric_formula(n):
    shoe = mini_shoe(2, 2, (Rank.EIGHT, Rank.KING))
    for k in range(n + 1):
        listed = prob_by_listing(
            shoe, n, lambda hand, k=k: sum(card.rank == Rank.EIGHT for card in hand) == k
        )
        assert listed == hypergeom_pmf(k, population=18, successes=8, draws=n)
    with pytest.raises(ArgumentError, match="cannot deal 19 cards from 18"):
        prob_by_listing(shoe, 19, bool)


def test_within_standard_errors():
    assert within_standard_errors(0.539, 0.5, 0.01) and within_standard_errors(0.461, 0.5, 0.01)
    assert not within_standard_errors(0.541, 0.5, 0.01)
    assert within_standard_errors(0.529, 0.5, 0.01, z=3) and not within_standard_errors(
        0.529, 0.5, 0.01, z=2.8
    )
    with pytest.raises(ArgumentError, match="stderr must be a finite number >= 0"):
        within_standard_errors(0.5, 0.5, -0.1)


@pytest.mark.parametrize(
    ("p", "h"),
    [(Fraction(1, 2), Fraction(1, 100)), (Fraction(1, 11), Fraction(1, 500)), (0.3, 0.02)],
)
def test_sample_size_is_the_fewest_trials_for_the_width(p, h):
    z = Fraction(196, 100)
    n = sample_size(p, h, z)
    half_width = lambda trials: float(z) * math.sqrt(float(p) * (1 - float(p)) / trials)  # noqa: E731
    assert half_width(n) <= float(h) * (1 + 1e-12) and half_width(n - 1) > float(h)
    with pytest.raises(ArgumentError, match="half_width must be more than 0"):
        sample_size(p, 0, z)


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 2), (2, 4), (3, 6)])
def test_two_pairs_chain_is_a_transition_matrix_with_done_absorbing(decks, jokers):
    chain = two_pairs_chain(decks=decks, jokers=jokers)
    assert len(chain) == len(TWO_PAIRS_STATES) == 4
    assert all(sum(row) == 1 and all(p >= 0 for p in row) for row in chain)
    assert chain[3] == [0, 0, 0, 1]
    assert chain[0][1] == Fraction(8 * decks, 52 * decks + jokers)
    assert chain[2][3] == Fraction(8 * decks + jokers, 52 * decks + jokers)
    with pytest.raises(ArgumentError, match="decks must be an integer from 0 to"):
        two_pairs_chain(decks=-1, jokers=0)
    with pytest.raises(ArgumentError, match="at least 1 deck"):
        two_pairs_chain(decks=0, jokers=2)


@pytest.mark.parametrize("steps", [0, 1, 2, 7, 16])
def test_matrix_power_agrees_with_floating_point_and_repeated_products(steps):
    chain = two_pairs_chain(decks=2, jokers=4)
    exact = matrix_power(chain, steps)
    numeric = np.linalg.matrix_power(np.array(chain, dtype=float), steps)
    assert np.allclose(np.array(exact, dtype=float), numeric, rtol=1e-12, atol=0)
    by_steps = [[Fraction(int(i == j)) for j in range(4)] for i in range(4)]
    for _ in range(steps):
        by_steps = [
            [sum(a * b for a, b in zip(row, col, strict=True)) for col in zip(*chain, strict=True)]
            for row in by_steps
        ]
    assert exact == by_steps
    with pytest.raises(ArgumentError, match="must be square"):
        matrix_power([[Fraction(1), Fraction(0)]], 2)


@pytest.mark.parametrize(("decks", "jokers"), [(1, 2), (2, 4), (3, 6)])
def test_absorption_time_is_the_fundamental_matrix_row_sum(decks, jokers):
    chain = two_pairs_chain(decks=decks, jokers=jokers)
    numeric = np.linalg.inv(np.eye(3) - np.array(chain, dtype=float)[:3, :3]).sum(axis=1)
    for start in range(3):
        assert float(absorption_time(chain, start)) == pytest.approx(numeric[start], rel=1e-12)
    assert absorption_time(chain, 3) == 0
    stuck = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]]
    with pytest.raises(ArgumentError, match="never absorbed"):
        absorption_time(stuck)
