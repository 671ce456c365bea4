"""Teaching helpers against brute-force enumeration of a small shoe and the exact sweep."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from rummykit import Contract, RuleSet
from rummykit.odds import dealt_probability
from rummykit.odds.teaching import (
    distinct_hands,
    expected_sets_in_waiting,
    hypergeom_pmf,
    hypergeom_sf,
    prob_at_least_of_rank,
    prob_at_least_one_joker,
    prob_pair_or_better,
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
