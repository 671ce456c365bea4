"""The plain reference (``rummykit/odds/counting/reference.py``) against brute force and the sweep.

The reference lists every distinct hand (face multiset) and asks the rules engine about
each; brute force (``odds_oracle.py``) tries every subset of every hand as a meld; the
sweep counts without listing. On tiny shoes the reference must equal brute force, on
medium shoes (too many hands for brute force, seconds for the reference) the
sweep, in both the compiled and the Python step.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from rummykit import Contract, Rank, Suit, _native
from rummykit.odds import dealt_count, distance_distribution
from rummykit.odds.counting import exact
from rummykit.odds.counting.reference import (
    face_multisets,
    reference_dealt_count,
    reference_distance_distribution,
)
from tests.support.odds_cases import (
    AROUND_ACE,
    LOOSE,
    LOW,
    NO_ACE_LOW,
    PAGAT,
    SEPARATED_SHORT,
    SHORT_RUNS,
    STANDARD,
    WIDE,
    WIKIPEDIA,
    C,
    H,
    S,
)
from tests.support.odds_oracle import distance as naive_distance
from tests.support.odds_oracle import holds, shoe_hands
from tests.support.tiers import slow


def _id(case) -> str:
    contract, rules, ranks, suits, decks, jokers, cards = case
    return f"{contract}-{rules.name}-{len(ranks)}r{len(suits)}s-{decks}d{jokers}j{cards}c"


def _shoe(case) -> tuple[Contract, dict]:
    contract, rules, ranks, suits, decks, jokers, cards = case
    return contract, {
        "decks": decks,
        "jokers": jokers,
        "cards": cards,
        "rules": rules,
        "ranks": ranks,
        "suits": suits,
    }


def test_face_multisets_are_every_hand_once():
    """Summed over the multisets of each size, the physical hands are C(shoe, size)."""
    faces = [(r, s) for r in LOW[:3] for s in (H, S)]
    for copies in (1, 2, 3):
        for size in range(8):
            multisets = list(face_multisets(faces, size, copies))
            assert sum(ways for _, ways in multisets) == math.comb(copies * len(faces), size)
            assert all(
                sum(f.values()) == size and max(f.values(), default=0) <= copies
                for f, _ in multisets
            )
            assert len({frozenset(f.items()) for f, _ in multisets}) == len(multisets)


# Tiny shoes: (contract, rules, ranks, suits, decks, jokers, cards)
TINY = [
    (Contract(sets=1), STANDARD, LOW, [H, S, C], 1, 2, 5),
    (Contract(sets=2), LOOSE, LOW[:4], [H, S], 1, 2, 6),
    (Contract(runs=1), STANDARD, AROUND_ACE, [H], 2, 2, 6),
    (Contract(runs=1), NO_ACE_LOW, AROUND_ACE, [H, S], 1, 2, 5),
    (Contract(runs=2), SEPARATED_SHORT, WIDE, [H], 1, 2, 7),
    (Contract(sets=1, runs=1), WIKIPEDIA, LOW, [H, S], 1, 2, 7),
    (Contract(sets=1, runs=1), SHORT_RUNS, LOW[:4], [H, S, C], 1, 1, 6),
]


@pytest.mark.parametrize("case", TINY, ids=_id)
def test_reference_equals_brute_force(case):
    contract, shoe = _shoe(case)
    _, rules, ranks, suits, decks, jokers, cards = case
    brute = sum(
        ways
        for naturals, j, ways in shoe_hands(ranks, suits, decks, jokers, cards)
        if holds(naturals, j, contract, rules)
    )
    assert reference_dealt_count(contract, **shoe) == brute > 0


@pytest.mark.parametrize(
    "case",
    [
        (Contract(sets=1), STANDARD, LOW[:3], [H, S], 1, 1, 3),
        (Contract(runs=1), STANDARD, LOW[:3], [H], 2, 1, 3),
        (Contract(runs=1), LOOSE, AROUND_ACE, [H], 1, 2, 3),
    ],
    ids=_id,
)
def test_reference_distance_equals_brute_force(case):
    contract, shoe = _shoe(case)
    _, rules, ranks, suits, decks, jokers, cards = case
    brute: dict[int, int] = {}
    for naturals, j, ways in shoe_hands(ranks, suits, decks, jokers, cards):
        d = naive_distance(naturals, j, contract, rules, decks)
        brute[d] = brute.get(d, 0) + ways
    total = math.comb(decks * len(ranks) * len(suits) + jokers, cards)
    expected = {d: Fraction(n, total) for d, n in sorted(brute.items())}
    assert reference_distance_distribution(contract, **shoe) == expected
    assert len(expected) > 1


# Medium shoes: tens of thousands of distinct hands, beyond brute force over subsets.
MEDIUM = [
    slow((Contract(sets=1, runs=1), STANDARD, WIDE, [H, S], 2, 2, 8)),
    slow((Contract(sets=2, runs=1), STANDARD, LOW, list(Suit), 1, 2, 10)),
    (Contract(sets=1, runs=2), SEPARATED_SHORT, WIDE, [H, S], 1, 1, 9),
    slow((Contract(sets=1, runs=2), PAGAT, WIDE[:6], [H, S], 1, 2, 11)),
    slow((Contract(runs=2), WIKIPEDIA, list(Rank), [H], 2, 2, 9)),
    (Contract(sets=1, runs=1), NO_ACE_LOW, [*AROUND_ACE, Rank.JACK], [H, S], 1, 2, 8),
]


_REFERENCE: dict[str, int] = {}  # one reference count serves both sweeps of a case


@pytest.mark.parametrize("native", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize("case", MEDIUM, ids=_id)
def test_sweep_equals_reference(case, native, monkeypatch, without_core):
    if native and not _native.available()["sweep"]:
        pytest.skip("the compiled step is not built")
    if not native:
        without_core("sweep")
    monkeypatch.setattr(exact, "_CACHE", {})
    contract, shoe = _shoe(case)
    if _id(case) not in _REFERENCE:
        _REFERENCE[_id(case)] = reference_dealt_count(contract, **shoe)
    assert dealt_count(contract, **shoe) == _REFERENCE[_id(case)] > 0


@pytest.mark.parametrize(
    "case",
    [
        (Contract(runs=2), SHORT_RUNS, WIDE, [H], 1, 1, 5),
        slow((Contract(sets=1, runs=1), STANDARD, LOW, [H, S], 1, 1, 5)),
    ],
    ids=_id,
)
def test_sweep_distance_equals_reference(case):
    contract, shoe = _shoe(case)
    expected = reference_distance_distribution(contract, **shoe)
    assert distance_distribution(contract, **shoe) == expected and len(expected) > 1
