"""Simulation against exact counting, and the sampling primitives."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rummykit import CONTRACTS, Contract, RuleSet
from rummykit.odds import dealt_probability
from rummykit.odds.simulate import (
    Estimate,
    deal_hands,
    hand_counts,
    running_estimate,
    simulate_dealt,
    wilson_interval,
)

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
    assert "95% Wilson interval" in str(Estimate.from_counts(3, 10))
    assert "<b>30.00%</b>" in Estimate.from_counts(3, 10)._repr_html_()
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
    from rummykit.melds import find_contract
    from rummykit.odds.simulate import _Decider

    rules = RuleSet.preset(rules)
    rng = np.random.default_rng(11)
    decider = _Decider(contract, rules, 2)
    for cards in (10, 13):
        hands = deal_hands(decks=2, jokers=4, cards=cards, n=1500, rng=rng)
        fast = decider.decide(hands)
        counts = hand_counts(hands, 2)
        slow = [find_contract(decider.hand(row), contract, rules) is not None for row in counts]
        assert fast.tolist() == slow
