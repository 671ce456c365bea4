"""Speed of the contract solver: find_contract and contract_distance checks per second.

Random 10- and 12-card hands from 2 decks + 4 jokers, for each of the 7 contracts of
``standard``, on one core. ``within/s`` is contract_within asked the question a bot
asks, whether the distance is one less than it is (the slower side of the two).

``ref/s`` is find_contract's Python reference (``search._find_contract`` with no core:
the search as it was before the compiled core searched it), timed in the same run on
the same hands and checked to return the same melds hand by hand; ``ratio`` is find/s
over ref/s.

Goals: at least 150,000 find_contract checks per second for 12-card hands, for every
contract (issue 2); at least 1.5 times the reference for 12-card hands of the two-set
and the set-and-run contracts (issue 51, item 7).

    .venv/bin/python benchmarks/bench_melds.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from rummykit import Contract, RuleSet, Shoe, _native, contract_distance, find_contract
from rummykit.engine import search
from rummykit.engine.search import contract_within

#: The contracts of issue 51 item 7's goal, and the least ratio to the reference.
RATIO_CONTRACTS = (Contract(sets=2), Contract(sets=1, runs=1))
RATIO_GOAL = 1.5


def rate(function, hands, contract, rules) -> tuple[float, int]:
    """Calls per second of CPU time (process time, so other processes on the machine
    do not count against us), and how many calls returned something truthy."""
    start = time.process_time()
    hits = 0
    for hand in hands:
        if function(hand, contract, rules):
            hits += 1
    return len(hands) / (time.process_time() - start), hits


def reference(hand, contract, rules):
    """find_contract as Python searches it (the reference the compiled search replaced)."""
    return search._find_contract(hand, contract, rules, None)


def check_same(hands, contract, rules) -> None:
    """The compiled search returns the reference's melds on every hand (not timed)."""
    for hand in hands:
        if find_contract(hand, contract, rules) != reference(hand, contract, rules):
            raise SystemExit(f"find_contract differs from its reference: {hand} {contract}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per cell")
    parser.add_argument("--distance-hands", type=int, default=2000, help="hands per distance cell")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = RuleSet.preset("standard")
    shoe = Shoe(decks=2, jokers=4)
    rng = random.Random(args.seed)
    core = "compiled" if _native.available()["distance"] else "NOT BUILT: Python"
    print(f"find_contract searched by the {core} core; ref/s is the Python reference")
    print(
        f"{'cards':>5} {'contract':<15} {'find/s':>10} {'ref/s':>10} {'ratio':>6} {'found':>7} "
        f"{'distance/s':>11} {'within/s':>10}"
    )
    slowest = float("inf")
    ratios = {}
    for cards in (10, 12):
        hands = [rng.sample(shoe.cards, cards) for _ in range(args.hands)]
        for contract in rules.contracts:
            check_same(hands, contract, rules)
            find_rate, hits = rate(find_contract, hands, contract, rules)
            ref_rate, ref_hits = rate(reference, hands, contract, rules)
            assert ref_hits == hits
            few = hands[: args.distance_hands]
            dist_rate, _ = rate(contract_distance, few, contract, rules)
            below = [max(contract_distance(hand, contract, rules) - 1, 0) for hand in few]
            start = time.process_time()
            for hand, k in zip(few, below, strict=True):
                contract_within(hand, contract, rules, k)
            within_rate = len(few) / (time.process_time() - start)
            print(
                f"{cards:>5} {str(contract):<15} {find_rate:>10,.0f} {ref_rate:>10,.0f} "
                f"{find_rate / ref_rate:>5.2f}x {hits / len(hands):>7.2%} "
                f"{dist_rate:>11,.0f} {within_rate:>10,.0f}"
            )
            if cards == 12:
                slowest = min(slowest, find_rate)
                ratios[contract] = (find_rate, ref_rate)
    verdict = "met" if slowest >= 150_000 else "NOT met"
    print(f"slowest 12-card find_contract: {slowest:,.0f}/s; goal 150,000/s {verdict}")
    shown = [
        f"{contract} {ratios[contract][0]:,.0f}/s vs reference {ratios[contract][1]:,.0f}/s, "
        f"{ratios[contract][0] / ratios[contract][1]:.2f}x"
        for contract in RATIO_CONTRACTS
    ]
    least = min(ratios[c][0] / ratios[c][1] for c in RATIO_CONTRACTS)
    verdict = "met" if least >= RATIO_GOAL else "NOT met"
    print(
        f"12-card find_contract against its reference: {'; '.join(shown)}; "
        f"goal {RATIO_GOAL}x {verdict}"
    )


if __name__ == "__main__":
    main()
