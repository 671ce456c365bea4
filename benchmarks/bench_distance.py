"""Speed of the copy-limited contract distance: the compiled core against the Python reference.

Random 10- and 12-card hands from 2 decks + 4 jokers (copies limited to 2), for each of
the 7 contracts of ``standard``, on one core (CPU time of this process). ``fast/s`` is
``contract_distance(hand, contract, rules, decks=2)`` as the engine counts it (the
compiled ``rummykit._native.distance`` where built); ``python/s`` is the Python reference
(``search._contract_distance(..., core=None)``: the A* of ``_cheapest_additions``) on the
first ``--python-hands`` of the same seeded hands, checked equal hand by hand; ``ratio``
is fast/s over python/s. The goal (issue 19): fast/s >= 2,000 for rounds 5 and 6
(2 sets + 1 run, 1 set + 2 runs) on 12 cards; the last line says whether it is met.
About a minute with the defaults.

    .venv/bin/python benchmarks/bench_distance.py [--hands N] [--python-hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from rummykit import RuleSet, Shoe, _native, contract_distance
from rummykit.engine import search

GOAL = 2000
GOAL_ROUNDS = (5, 6)
DECKS, JOKERS = 2, 4


def per_second(function, hands) -> tuple[float, list]:
    start = time.process_time()
    results = [function(hand) for hand in hands]
    return len(hands) / (time.process_time() - start), results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per cell, fast path")
    parser.add_argument("--python-hands", type=int, default=50, help="hands per cell, Python")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not _native.available()["distance"]:
        sys.exit(f"the compiled distance is not built: {_native.why_not_built('distance')}")
    rules = RuleSet.preset("standard")
    shoe = Shoe(decks=DECKS, jokers=JOKERS)
    rng = random.Random(args.seed)
    print(f"{'cards':>5} {'round':>5} {'contract':<15} {'fast/s':>9} {'python/s':>9} {'ratio':>7}")
    slowest_goal = None
    for cards in (10, 12):
        for round_, contract in enumerate(rules.contracts, start=1):
            hands = [rng.sample(shoe.cards, cards) for _ in range(args.hands)]
            fast_rate, fast = per_second(
                lambda h, c=contract: contract_distance(h, c, rules, decks=DECKS), hands
            )
            python_rate, expected = per_second(
                lambda h, c=contract: search._contract_distance(h, c, rules, DECKS, None),
                hands[: args.python_hands],
            )
            assert fast[: args.python_hands] == expected, (contract, cards)
            if cards == 12 and round_ in GOAL_ROUNDS:
                slowest_goal = fast_rate if slowest_goal is None else min(slowest_goal, fast_rate)
            print(
                f"{cards:>5} {round_:>5} {str(contract):<15} {fast_rate:>9.0f} "
                f"{python_rate:>9.1f} {fast_rate / python_rate:>6.0f}x",
                flush=True,
            )
    met = "met" if slowest_goal >= GOAL else "NOT met"
    print(
        f"goal: >= {GOAL:,} hands/s for rounds 5-6 on 12 cards: slowest {slowest_goal:,.0f}/s, {met}"
    )


if __name__ == "__main__":
    main()
