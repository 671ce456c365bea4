"""Exact contract odds against brute force: every hand of small shoes, decided twice.

Each hand of a shrunken shoe (few ranks and suits, small hands) is decided by
``rummykit.engine.search.find_contract`` and by the deliberately naive subset oracle in
``odds_oracle.py``; the number of hands holding the contract must equal the count of
``rummykit.odds.counting.exact``. Set-only contracts on the full shoe are also checked against a
sum over rank-count profiles, an independent closed form.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from rummykit import Card, Contract, Rank, RuleSet, Suit, find_contract
from rummykit.odds import dealt_count, dealt_probability, distance_distribution
from rummykit.odds.counting import exact as exact_module
from rummykit.odds.counting._exact_layers import Sweep
from tests.support.odds_cases import (
    AROUND_ACE,
    LOOSE,
    LOW,
    NO_ACE_HIGH,
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
from tests.support.strategies import custom_rules
from tests.support.tiers import slow


def _cards(naturals, jokers: int) -> list[Card]:
    cards, seen = [], {}
    for rank, suit in naturals:
        cards.append(Card(rank, suit, seen.get((rank, suit), 0)))
        seen[(rank, suit)] = seen.get((rank, suit), 0) + 1
    return cards + [Card.joker(k) for k in range(jokers)]


def _brute(contract, rules, ranks, suits, decks, jokers, cards, *, oracle):
    total = 0
    for naturals, j, ways in shoe_hands(ranks, suits, decks, jokers, cards):
        if oracle == "naive":
            ok = holds(naturals, j, contract, rules)
        else:
            ok = find_contract(_cards(naturals, j), contract, rules) is not None
        total += ways * ok
    return total


# (contract, rules, ranks, suits, decks, jokers, cards)
CASES = [
    (Contract(sets=1), STANDARD, LOW, [H, S, C], 1, 2, 5),
    slow((Contract(sets=2), STANDARD, LOW, [H, S, C], 1, 2, 6)),
    (Contract(sets=2), STANDARD, LOW[:3], [H, S], 2, 2, 7),
    (Contract(sets=2), LOOSE, LOW[:4], [H, S], 1, 2, 6),
    (Contract(sets=3), SHORT_RUNS, LOW[:3], [H, S, C], 1, 1, 9),
    (Contract(runs=1), STANDARD, LOW, [H, S], 1, 2, 5),
    (Contract(runs=1), STANDARD, AROUND_ACE, [H], 2, 2, 6),
    (Contract(runs=1), NO_ACE_LOW, AROUND_ACE, [H, S], 1, 2, 5),
    (Contract(runs=1), WIKIPEDIA, WIDE, [H], 1, 2, 6),
    (Contract(runs=2), STANDARD, LOW, [H, S], 1, 2, 8),
    (Contract(runs=2), STANDARD, LOW, [H], 2, 2, 8),
    slow((Contract(runs=2), PAGAT, WIDE, [H], 2, 1, 7)),
    (Contract(runs=2), SEPARATED_SHORT, WIDE, [H], 1, 2, 7),
    (Contract(runs=2), SHORT_RUNS, AROUND_ACE, [H], 2, 1, 6),
    slow((Contract(runs=2), WIKIPEDIA, WIDE, [H], 2, 1, 7)),
    (Contract(runs=3), SHORT_RUNS, LOW, [H], 2, 1, 9),
    slow((Contract(sets=1, runs=1), STANDARD, LOW, [H, S], 2, 1, 6)),
    (Contract(sets=1, runs=1), WIKIPEDIA, LOW, [H, S], 1, 2, 7),
    (Contract(sets=1, runs=1), NO_ACE_LOW, AROUND_ACE, [H, S], 1, 2, 7),
    (Contract(sets=1, runs=1), SHORT_RUNS, LOW[:4], [H, S, C], 1, 1, 6),
    slow((Contract(sets=2, runs=1), SHORT_RUNS, LOW[:4], [H, S], 2, 0, 8)),
    (Contract(sets=1, runs=2), SEPARATED_SHORT, WIDE[:5], [H, S], 1, 2, 8),
    # Runs of one natural and jokers (closed where they start), and runs with no ace high.
    (Contract(runs=1), LOOSE, AROUND_ACE, [H, S], 1, 3, 5),
    (Contract(runs=2), LOOSE, LOW, [H], 2, 3, 6),
    (Contract(runs=1), NO_ACE_HIGH, AROUND_ACE, [H, S], 1, 2, 5),
    slow((Contract(sets=1, runs=1), NO_ACE_HIGH, AROUND_ACE, [H, S], 2, 1, 7)),
]


def _case_id(case) -> str:
    contract, rules, ranks, suits, decks, jokers, cards = case
    return f"{contract}-{rules.name}-{len(ranks)}r{len(suits)}s-{decks}d{jokers}j{cards}c"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_exact_equals_enumeration(case):
    contract, rules, ranks, suits, decks, jokers, cards = case
    exact = dealt_count(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, ranks=ranks, suits=suits
    )
    naive = _brute(contract, rules, ranks, suits, decks, jokers, cards, oracle="naive")
    solver = _brute(contract, rules, ranks, suits, decks, jokers, cards, oracle="find_contract")
    assert exact == naive == solver


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    rules=custom_rules(),
    contract=st.sampled_from(
        [Contract(runs=1), Contract(runs=2), Contract(sets=1, runs=1), Contract(sets=1, runs=2)]
    ),
    decks=st.integers(1, 2),
    jokers=st.integers(0, 2),
    cards=st.integers(2, 6),
    low=st.integers(0, 12),
    width=st.integers(3, 5),
    suits=st.sampled_from([[H], [H, S]]),
)
def test_exact_equals_enumeration_for_any_rules(
    rules, contract, decks, jokers, cards, low, width, suits
):
    """Any meld rules, a few consecutive ranks (around the ace too): the sweep (runs as
    windows, or card by card where same-suit runs are separated) counts what the naive
    oracle finds."""
    order = [Rank.ACE, *(Rank(v) for v in range(2, 14))]
    ranks = [order[(low + i) % 13] for i in range(width)]
    assume(contract.min_cards(rules) <= cards <= decks * width * len(suits) + jokers)
    exact = dealt_count(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, ranks=ranks, suits=suits
    )
    event("holds" if exact else "never holds")
    assert exact == _brute(contract, rules, ranks, suits, decks, jokers, cards, oracle="naive")


@pytest.mark.parametrize("cards", [3, 5, 6])
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_every_hand_size_from_one_sweep(cards, jokers, monkeypatch):
    """A sweep for 6 cards and 2 jokers answers every smaller hand (it drops only what
    needs more cards than 6), and dealt_count takes it from the cache."""
    monkeypatch.setattr(exact_module, "_CACHE", {})
    contract, ranks, suits = Contract(sets=1, runs=1), LOW, [H, S]
    exact_module.exact_table(
        contract, rules=SHORT_RUNS, decks=1, ranks=ranks, suits=suits, max_naturals=6, joker_cap=2
    )
    exact = dealt_count(
        contract, decks=1, jokers=jokers, cards=cards, rules=SHORT_RUNS, ranks=ranks, suits=suits
    )
    assert [len(tables) for tables in exact_module._CACHE.values()] == [1]  # no new sweep
    assert exact == _brute(contract, SHORT_RUNS, ranks, suits, 1, jokers, cards, oracle="naive")


@pytest.mark.parametrize("native", [True, slow(False)])
def test_sweep_of_too_few_cards_counts_nothing(native):
    """1 set + 2 runs needs 11 cards: a sweep of at most 10 holds no hand that has it."""
    sweep = Sweep(
        Contract(sets=1, runs=2), STANDARD, 1, frozenset(LOW), tuple(Suit), 10, 8, "dealt"
    )
    sweep.native = native
    table = sweep.run(None)
    assert table.counts == {} and table.max_naturals == 10


# --- set-only contracts: a closed form over rank-count profiles ------------------------


def _partitions(total: int, parts: int, largest: int):
    """Non-increasing tuples of positive ints summing to ``total``, at most ``parts`` long."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def _set_jokers(profile, sets: int, rules: RuleSet) -> float:
    """Fewest jokers for ``sets`` sets from ranks holding ``profile`` naturals: a knapsack."""
    full = max(rules.min_set_size, rules.min_naturals_in_set)
    cap = math.inf if rules.max_jokers_per_meld is None else rules.max_jokers_per_meld
    least = max(rules.min_naturals_in_set, full - cap)
    best = [0] + [math.inf] * sets
    for t in profile:
        new = best[:]
        for have in range(sets + 1):
            for k in range(1, sets - have + 1):
                if t >= k * least:
                    new[have + k] = min(new[have + k], best[have] + max(0, k * full - t))
        best = new
    return best[sets]


def _set_only_closed_form(sets: int, decks: int, jokers: int, cards: int, rules) -> Fraction:
    """Sum over how many naturals each rank holds (a profile) of the hands with it.

    A profile (t1 >= t2 >= ... >= tk) is placed on ranks in 13! / ((13 - k)! prod m!)
    ways (m: how often each value repeats), and each rank with t naturals in
    C(4 decks, t) ways; the jokers in C(jokers, j) ways.
    """
    copies, count = 4 * decks, 0
    for j in range(min(jokers, cards) + 1):
        for profile in _partitions(cards - j, 13, copies):
            if _set_jokers(profile, sets, rules) > j:
                continue
            placements = math.factorial(13) // math.factorial(13 - len(profile))
            for value in set(profile):
                placements //= math.factorial(profile.count(value))
            ways = placements * math.comb(jokers, j)
            for t in profile:
                ways *= math.comb(copies, t)
            count += ways
    return Fraction(count, math.comb(52 * decks + jokers, cards))


@pytest.mark.parametrize("rules", [STANDARD, LOOSE, WIKIPEDIA], ids=lambda r: r.name)
@pytest.mark.parametrize(
    ("decks", "jokers", "cards"), [(1, 2, 7), (2, 4, 10), (3, 6, 12), (2, 0, 14)]
)
@pytest.mark.parametrize("sets", [1, 2, 3])
def test_set_only_equals_closed_form(rules, decks, jokers, cards, sets):
    exact = dealt_probability(
        Contract(sets=sets), decks=decks, jokers=jokers, cards=cards, rules=rules
    )
    assert exact == _set_only_closed_form(sets, decks, jokers, cards, rules)


# --- distance distribution -------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "rules", "ranks", "suits", "decks", "jokers", "cards"),
    [
        (Contract(sets=1), STANDARD, LOW[:3], [H, S], 1, 1, 3),
        slow(Contract(sets=2), STANDARD, LOW[:2], [H, S], 2, 1, 3),
        (Contract(runs=1), STANDARD, LOW[:3], [H], 2, 1, 3),
        (Contract(sets=1, runs=1), SHORT_RUNS, LOW[:3], [H], 1, 1, 3),
        slow(Contract(runs=1), STANDARD, LOW, [H, S], 1, 1, 4),
        (Contract(runs=2), SHORT_RUNS, LOW, [H], 1, 1, 4),
        (Contract(runs=1), LOOSE, AROUND_ACE, [H], 1, 2, 3),
    ],
)
def test_distance_equals_enumeration(contract, rules, ranks, suits, decks, jokers, cards):
    dist = distance_distribution(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, ranks=ranks, suits=suits
    )
    brute: dict[int, int] = {}
    for naturals, j, ways in shoe_hands(ranks, suits, decks, jokers, cards):
        d = naive_distance(naturals, j, contract, rules, decks)
        brute[d] = brute.get(d, 0) + ways
    total = math.comb(decks * len(ranks) * len(suits) + jokers, cards)
    assert dist == {d: Fraction(n, total) for d, n in sorted(brute.items())}


@pytest.mark.parametrize(
    ("contract", "decks", "jokers", "cards"),
    [(Contract(sets=2), 2, 4, 10), (Contract(sets=3), 1, 2, 9), (Contract(runs=1), 2, 4, 10)],
)
def test_distance_sums_to_one_and_zero_is_dealt(contract, decks, jokers, cards):
    dist = distance_distribution(contract, decks=decks, jokers=jokers, cards=cards, rules=STANDARD)
    assert sum(dist.values()) == 1
    dealt = dealt_probability(contract, decks=decks, jokers=jokers, cards=cards, rules=STANDARD)
    assert dist.get(0, Fraction(0)) == dealt
    assert max(dist) <= contract.min_cards(STANDARD)


def test_impossible_and_certain_edges():
    assert dealt_probability(Contract(runs=2), decks=1, jokers=2, cards=7, rules=STANDARD) == 0
    one_rank = dealt_probability(
        Contract(sets=1), decks=1, jokers=0, cards=3, rules=STANDARD, ranks=[Rank.TWO]
    )
    assert one_rank == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="decks must be an integer from 1 to 8"):
        dealt_probability(Contract(sets=1), decks=0, jokers=0, cards=3, rules=STANDARD)
    with pytest.raises(TypeError, match="contract must be a Contract"):
        dealt_probability("2 sets", decks=1, jokers=0, cards=3, rules=STANDARD)


def _melds_distance_takes_decks() -> bool:
    import inspect

    from rummykit.engine.search import contract_distance

    return "decks" in inspect.signature(contract_distance).parameters


@pytest.mark.skipif(
    not _melds_distance_takes_decks(), reason="search.contract_distance has no decks= yet"
)
@pytest.mark.parametrize(
    ("contract", "rules", "ranks", "suits", "decks", "jokers", "cards"),
    [
        (Contract(sets=1), STANDARD, LOW[:3], [H, S], 1, 1, 3),
        (Contract(sets=2), STANDARD, LOW[:3], [H, S], 2, 1, 4),
        (Contract(runs=1), STANDARD, LOW, [H], 2, 1, 4),
        (Contract(sets=1, runs=1), SHORT_RUNS, LOW[:3], [H, S], 1, 1, 4),
    ],
)
def test_distance_equals_melds_contract_distance(
    contract, rules, ranks, suits, decks, jokers, cards
):
    from rummykit.engine.search import contract_distance

    dist = distance_distribution(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, ranks=ranks, suits=suits
    )
    brute: dict[int, int] = {}
    for naturals, j, ways in shoe_hands(ranks, suits, decks, jokers, cards):
        d = contract_distance(_cards(naturals, j), contract, rules, decks=decks)
        brute[d] = brute.get(d, 0) + ways
    total = math.comb(decks * len(ranks) * len(suits) + jokers, cards)
    assert dist == {d: Fraction(n, total) for d, n in sorted(brute.items())}
