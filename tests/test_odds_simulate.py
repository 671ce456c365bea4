"""Simulation against exact counting, and the sampling primitives."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummykit import CONTRACTS, Contract, RuleSet, parse_cards
from rummykit.engine.search import find_contract
from rummykit.odds import dealt_probability
from rummykit.odds.dealt.simulate import (
    Estimate,
    deal_hands,
    hand_counts,
    running_estimate,
    simulate_dealt,
    wilson_interval,
)
from tests.support.strategies import custom_rules

STANDARD = RuleSet.preset("standard")


@pytest.mark.parametrize(
    ("contract", "decks", "jokers", "cards", "rules"),
    [
        (CONTRACTS[0], 2, 4, 10, STANDARD),
        (CONTRACTS[0], 1, 2, 7, RuleSet.preset("family")),
        (CONTRACTS[3], 3, 6, 12, STANDARD),
        (CONTRACTS[2], 2, 4, 12, STANDARD),
        (CONTRACTS[2], 2, 4, 11, RuleSet.preset("pagat")),
        (Contract(runs=1), 1, 2, 10, RuleSet.preset("wikipedia")),
    ],
    ids=lambda value: value.name if isinstance(value, RuleSet) else str(value),
)
def test_simulation_agrees_with_exact(contract, decks, jokers, cards, rules):
    n = 100_000
    est = simulate_dealt(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, n=n, seed=7
    )
    exact = float(dealt_probability(contract, decks=decks, jokers=jokers, cards=cards, rules=rules))
    stderr = math.sqrt(exact * (1 - exact) / n)
    assert abs(est.p - exact) <= 4 * stderr + 1e-12


def test_same_seed_same_estimate():
    def run(seed):
        return simulate_dealt(
            CONTRACTS[1], decks=2, jokers=4, cards=10, rules=STANDARD, n=20_000, seed=seed
        )

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_deal_hands_is_uniform_without_replacement():
    hands = deal_hands(decks=1, jokers=2, cards=6, n=60_000, rng=np.random.default_rng(1))
    ordered = np.sort(hands, axis=1)
    assert (ordered[:, 1:] != ordered[:, :-1]).all()
    # Each of the 54 cards is in a hand with probability 6/54.
    seen = np.bincount(hands.ravel(), minlength=54) / len(hands)
    assert np.abs(seen - 6 / 54).max() < 5 * math.sqrt((6 / 54) * (48 / 54) / len(hands))


def test_hand_counts():
    counts = hand_counts(np.array([[0, 52, 104, 105], [13, 14, 1, 2]]), decks=2)
    assert counts[0, 0] == 2 and counts[0, 52] == 2 and counts[0].sum() == 4
    assert counts[1, [1, 2, 13, 14]].tolist() == [1, 1, 1, 1]


def test_estimate_and_wilson():
    est = Estimate.from_counts(0, 50)
    assert est.p == 0 and est.ci_low == 0 and 0 < est.ci_high < 0.1
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and math.isclose(0.5 - low, high - 0.5)
    assert str(Estimate.from_counts(3, 10)).startswith("about 30% (95%: 11% to 60%), by Wilson's")
    assert "<b>about 30% (95%: 11% to 60%)</b>" in Estimate.from_counts(3, 10)._repr_html_()
    with pytest.raises(ValueError, match="successes <= n"):
        Estimate.from_counts(11, 10)


def test_running_estimate_converges_towards_exact():
    frame = running_estimate(
        CONTRACTS[0], decks=2, jokers=4, cards=10, rules=STANDARD, n=50_000, seed=2, points=20
    )
    exact = float(dealt_probability(CONTRACTS[0], decks=2, jokers=4, cards=10, rules=STANDARD))
    last = frame.row(-1, named=True)
    assert last["n"] == 50_000 and last["ci_low"] <= exact <= last["ci_high"]
    widths = (frame["ci_high"] - frame["ci_low"]).to_list()
    assert widths[-1] < widths[0]
    assert frame["n"].is_sorted()


@pytest.mark.parametrize("rules", ["standard", "pagat", "wikipedia"])
@pytest.mark.parametrize("contract", CONTRACTS, ids=str)
def test_vectorised_decisions_equal_find_contract(contract, rules):
    # The vectorised conditions may only settle a hand the way find_contract would.
    from rummykit.engine.search import find_contract
    from rummykit.odds.dealt.simulate import _Decider

    rules = RuleSet.preset(rules)
    rng = np.random.default_rng(11)
    decider = _Decider(contract, rules, 2)
    for cards in (10, 13):
        hands = deal_hands(decks=2, jokers=4, cards=cards, n=1500, rng=rng)
        fast = decider.decide(hands)
        counts = hand_counts(hands, 2)
        slow = [find_contract(decider.hand(row), contract, rules) is not None for row in counts]
        assert fast.tolist() == slow


# -- The vectorised conditions against find_contract, on hands where melds are common --

RULESETS = [RuleSet.preset(name) for name in RuleSet.presets()] + [
    dataclasses.replace(
        STANDARD,
        name="wild",
        max_jokers_per_meld=None,
        min_naturals_in_set=1,
        min_naturals_in_run=1,
    ),
    dataclasses.replace(STANDARD, name="no-ace-low", ace_low=False, same_suit_runs="separated"),
    dataclasses.replace(STANDARD, name="strict", max_jokers_per_meld=1, min_naturals_in_run=3),
    dataclasses.replace(
        STANDARD, name="long", min_set_size=4, min_run_size=5, max_jokers_per_meld=3
    ),
    dataclasses.replace(STANDARD, name="no-jokers", max_jokers_per_meld=0, ace_high=False),
    dataclasses.replace(
        STANDARD, name="natural-runs", min_run_size=3, min_naturals_in_run=4, max_jokers_per_meld=1
    ),
]


def dense_hands(rng, *, decks, jokers, cards, n, suits, ranks) -> np.ndarray:
    """Hands dealt from the given suits and rank indices only (and the jokers), as
    deal_hands numbers cards, so that sets and runs are common."""
    pool = [52 * d + 13 * s + r for d in range(decks) for s in suits for r in ranks]
    pool = np.array(pool + list(range(52 * decks, 52 * decks + jokers)), dtype=np.int16)
    order = np.argsort(rng.random((n, pool.size)), axis=1)[:, :cards]
    return pool[order]


@pytest.mark.slow
@settings(max_examples=300)
@given(
    rules=st.sampled_from(RULESETS) | custom_rules(),
    contract=st.sampled_from([*CONTRACTS, Contract(sets=1), Contract(runs=1), Contract(3, 1)]),
    decks=st.integers(1, 3),
    jokers=st.integers(0, 6),
    cards=st.integers(4, 14),
    suits=st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True),
    low=st.integers(0, 12),
    width=st.integers(3, 13),
    seed=st.integers(0, 2**32 - 1),
)
def test_vectorised_conditions_never_contradict_find_contract(
    rules, contract, decks, jokers, cards, suits, low, width, seed
):
    from rummykit.odds.dealt.simulate import _Decider, _suit_masks

    ranks = [(low + i) % 13 for i in range(width)]
    assume(cards <= decks * len(suits) * width + jokers)
    hands = dense_hands(
        np.random.default_rng(seed),
        decks=decks,
        jokers=jokers,
        cards=cards,
        n=100,
        suits=suits,
        ranks=ranks,
    )
    decider = _Decider(contract, rules, decks)
    counts = hand_counts(hands, decks)
    exact = np.array(
        [find_contract(decider.hand(row), contract, rules) is not None for row in counts]
    )

    def shown(rows):
        return [" ".join(map(str, decider.hand(counts[row]))) for row in np.flatnonzero(rows)[:3]]

    fast = decider.decide(hands)
    assert not (fast & ~exact).any(), f"accepted, but find_contract rejects: {shown(fast & ~exact)}"
    assert not (exact & ~fast).any(), f"rejected, but find_contract accepts: {shown(exact & ~fast)}"
    if contract.runs in (1, 2):
        # The window conditions on every hand, not only on those the first pass leaves.
        by_suit = counts[:, :52].reshape(-1, 4, 13)
        sure, possible = decider.window_bounds(
            _suit_masks(by_suit > 0),
            _suit_masks(by_suit > 1),
            by_suit.sum(axis=1),
            counts[:, 52].astype(np.int64),
        )
        assert not (sure & ~exact).any(), f"sure, but find_contract rejects: {shown(sure & ~exact)}"
        assert not (exact & ~possible).any(), (
            f"ruled out, but find_contract accepts: {shown(exact & ~possible)}"
        )


@pytest.mark.parametrize("rules", RULESETS, ids=lambda rules: rules.name)
def test_run_cost_table_against_every_window(rules):
    # Fewest jokers for one run in a suit holding the ranks of a mask, by trying every
    # window of positions (1 and 14 are both the ace, bit 12).
    from rummykit.odds.dealt.simulate import _INF, _Decider

    decider = _Decider(Contract(runs=1), rules, 1)
    limit = _INF if rules.max_jokers_per_meld is None else rules.max_jokers_per_meld
    positions = list(rules.run_positions())
    windows = [
        [12 if p in (1, 14) else p - 2 for p in range(start, end + 1)]
        for start in positions
        for end in positions
        if rules.min_run_size <= end - start + 1 <= 13
    ]
    for mask in range(1 << 13):
        best = _INF
        for bits in windows:
            held = sum(mask >> bit & 1 for bit in bits)
            holes = len(bits) - held
            if held >= rules.min_naturals_in_run and holes <= limit:
                best = min(best, holes)
        assert decider.run_cost[mask] == best, f"mask {mask:013b}"


@pytest.mark.parametrize(
    ("contract", "hand"),
    [
        (Contract(sets=1, runs=1), "4H 5H 6H 7H 5C JK JK"),
        (Contract(sets=1, runs=1), "8D 6H 8H 9H JK JK JK"),
        (Contract(sets=2, runs=1), "7D 9D 7H 8H 9H 10H JH JK JK JK"),
        (Contract(sets=1, runs=2), "2D 3D 4D 4D 5D 6D 7D 8D 9D JK JK"),
    ],
)
def test_a_run_may_leave_a_natural_out(contract, hand):
    # Each hand makes its contract only if a run plays a joker in place of a natural
    # it holds (the 5♥ goes to the set in 4♥ JK 6♥ 7♥ + 5♣ 5♥ JK): the window
    # conditions must leave such hands possible.
    from rummykit.odds.dealt.simulate import _Decider, _suit_masks

    cards = parse_cards(hand)
    numbers = [104 + c.deck if c.is_joker else 52 * c.deck + c.index for c in cards]
    hands = np.array([numbers], dtype=np.int16)
    assert find_contract(cards, contract, STANDARD) is not None
    decider = _Decider(contract, STANDARD, 2)
    assert decider.decide(hands).tolist() == [True]
    counts = hand_counts(hands, 2)
    by_suit = counts[:, :52].reshape(-1, 4, 13)
    _, possible = decider.window_bounds(
        _suit_masks(by_suit > 0), _suit_masks(by_suit > 1), by_suit.sum(axis=1), counts[:, 52]
    )
    assert possible.tolist() == [True]
