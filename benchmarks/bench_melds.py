"""Speed of the contract solver: find_contract and contract_distance checks per second.

Random 10- and 12-card hands from 2 decks + 4 jokers, for each of the 7 contracts of
``standard``, on one core. ``within/s`` is contract_within asked the question a bot
asks, whether the distance is one less than it is (the slower side of the two). Goal (issue 2): at least 150,000 find_contract checks per
second for 12-card hands, for every contract.

    .venv/bin/python benchmarks/bench_melds.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from rummykit import RuleSet, Shoe, contract_distance, find_contract
from rummykit.engine.search import contract_within


def rate(function, hands, contract, rules) -> tuple[float, int]:
    """Calls per second of CPU time (process time, so other processes on the machine
    do not count against us), and how many calls returned something truthy."""
    start = time.process_time()
    hits = 0
    for hand in hands:
        if function(hand, contract, rules):
            hits += 1
    return len(hands) / (time.process_time() - start), hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per cell")
    parser.add_argument("--distance-hands", type=int, default=2000, help="hands per distance cell")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = RuleSet.preset("standard")
    shoe = Shoe(decks=2, jokers=4)
    rng = random.Random(args.seed)
    print(
        f"{'cards':>5} {'contract':<15} {'find/s':>10} {'found':>7} {'distance/s':>11} "
        f"{'within/s':>10}"
    )
    slowest = float("inf")
    for cards in (10, 12):
        hands = [rng.sample(shoe.cards, cards) for _ in range(args.hands)]
        for contract in rules.contracts:
            find_rate, hits = rate(find_contract, hands, contract, rules)
            few = hands[: args.distance_hands]
            dist_rate, _ = rate(contract_distance, few, contract, rules)
            below = [max(contract_distance(hand, contract, rules) - 1, 0) for hand in few]
            start = time.process_time()
            for hand, k in zip(few, below, strict=True):
                contract_within(hand, contract, rules, k)
            within_rate = len(few) / (time.process_time() - start)
            print(
                f"{cards:>5} {str(contract):<15} {find_rate:>10,.0f} {hits / len(hands):>7.2%} "
                f"{dist_rate:>11,.0f} {within_rate:>10,.0f}"
            )
            if cards == 12:
                slowest = min(slowest, find_rate)
    verdict = "met" if slowest >= 150_000 else "NOT met"
    print(f"slowest 12-card find_contract: {slowest:,.0f}/s; goal 150,000/s {verdict}")


if __name__ == "__main__":
    main()
