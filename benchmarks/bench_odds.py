"""Time the exact contract odds table and the dealt-hand simulation.

Run from the repository root:

    .venv/bin/python benchmarks/bench_odds.py              # everything
    .venv/bin/python benchmarks/bench_odds.py --timeout 60 # give up on a sweep after 60 s
    .venv/bin/python benchmarks/bench_odds.py --skip-simulation

The exact table is the issue's: the 7 contracts x shoes {1 deck + 2 jokers, 2 + 4,
3 + 6, 2 + 2} x hand sizes {7, 10, 11, 12, 13, 14} under ``standard``, one core. One
sweep per (contract, decks) serves every hand size and joker count, so the first cell of
a sweep (asked for the largest hand and the most jokers, as ``rummykit tables`` does) carries
its cost and the others are read from the cache. Times are CPU seconds
of the process (so a busy machine does not inflate them); each sweep runs in a child
process that is stopped after ``--timeout`` seconds of wall time.

The simulation is timed for each contract at 2 decks + 4 jokers and the round's deal
size, then for every shoe above and 10-12 cards against the goal of ``GOAL`` hands per
CPU second.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

SHOES = ((1, 2), (2, 4), (3, 6), (2, 2))
HAND_SIZES = (7, 10, 11, 12, 13, 14)
#: Dealt hands per CPU second the simulation should reach in every cell.
GOAL = 500_000


def _sweep(index: int, decks: int, queue) -> None:
    from rummykit import CONTRACTS, RuleSet
    from rummykit.odds import dealt_probability, exact_table

    rules = RuleSet.preset("standard")
    contract = CONTRACTS[index]
    # One sweep for the table's largest hand and most jokers with these decks, as
    # rummykit.odds.counting.tables does; its time is charged to the first cell.
    most = max(j for d, j in SHOES if d == decks)
    start = time.process_time()
    exact_table(contract, rules=rules, decks=decks, max_naturals=max(HAND_SIZES), joker_cap=most)
    first = time.process_time() - start
    for shoe_decks, jokers in SHOES:
        if shoe_decks != decks:
            continue
        for cards in HAND_SIZES:
            start = time.process_time() - first
            first = 0.0
            p = dealt_probability(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)
            queue.put((index, decks, jokers, cards, float(p), time.process_time() - start))
    queue.put(None)


def bench_exact(timeout: float) -> None:
    from rummykit import CONTRACTS

    print(f"exact table, standard rules (each sweep stopped after {timeout:g} s)")
    print(f"{'contract':<16}{'shoe':>8}{'cards':>7}{'p':>14}{'CPU s':>10}")
    total = 0.0
    unfinished = []
    for index, contract in enumerate(CONTRACTS):
        for decks in sorted({d for d, _ in SHOES}):
            queue = multiprocessing.Queue()
            child = multiprocessing.Process(target=_sweep, args=(index, decks, queue))
            start = time.perf_counter()
            child.start()
            done = False
            while not done:
                remaining = timeout - (time.perf_counter() - start)
                try:
                    row = queue.get(timeout=max(remaining, 0.01))
                except Exception:  # queue.Empty: the sweep ran out of time
                    child.terminate()
                    unfinished.append(f"{contract} with {decks} deck(s)")
                    print(f"{str(contract):<16}{decks:>6}d  stopped after {timeout:g} s")
                    total += timeout
                    break
                if row is None:
                    done = True
                    continue
                _, d, jokers, cards, p, seconds = row
                total += seconds
                print(
                    f"{str(contract):<16}{f'{d}+{jokers}':>8}{cards:>7}{p:>14.6g}{seconds:>10.3f}"
                )
            child.join()
    print(
        f"total {total:.1f} s" + (f" (unfinished: {'; '.join(unfinished)})" if unfinished else "")
    )


def bench_simulation(n: int) -> None:
    from rummykit import CONTRACTS, RuleSet
    from rummykit.odds.dealt.simulate import simulate_dealt

    rules = RuleSet.preset("standard")
    print(f"\nsimulation, standard rules, 2 decks + 4 jokers, {n:,} hands per contract (CPU time)")
    for contract, cards in zip(CONTRACTS, rules.deal_sizes, strict=True):
        start = time.process_time()
        est = simulate_dealt(contract, decks=2, jokers=4, cards=cards, rules=rules, n=n, seed=1)
        rate = n / (time.process_time() - start)
        print(f"{str(contract):<16}{cards:>4} cards {rate:>12,.0f} hands/s   {est}")

    # The goal: every contract, shoe and hand size of 10-12 cards at GOAL hands/s or more.
    # Each cell is the best of 3 runs, as timeit reports: other processes on the machine
    # only ever slow a run down.
    cells = [(shoe, cards) for shoe in SHOES for cards in (10, 11, 12)]
    per_cell = max(n // 5, 1)
    print(
        f"\nthousands of hands/s, best of 3 runs of {per_cell:,} hands per cell "
        f"(goal {GOAL // 1000}k); columns are decks+jokers:cards"
    )
    print(f"{'':<16}" + "".join(f"{f'{d}+{j}:{c}':>8}" for (d, j), c in cells) + "   slowest")
    for contract in CONTRACTS:
        rates = []
        for (decks, jokers), cards in cells:
            best = float("inf")
            for _ in range(3):
                start = time.process_time()
                simulate_dealt(
                    contract,
                    decks=decks,
                    jokers=jokers,
                    cards=cards,
                    rules=rules,
                    n=per_cell,
                    seed=1,
                )
                best = min(best, time.process_time() - start)
            rates.append(per_cell / best)
        verdict = "ok" if min(rates) >= GOAL else "below goal"
        print(
            f"{str(contract):<16}"
            + "".join(f"{rate / 1000:>8.0f}" for rate in rates)
            + f"{min(rates) / 1000:>8.0f}k {verdict}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60, help="wall seconds per exact sweep")
    parser.add_argument("--hands", type=int, default=500_000, help="hands per simulation")
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--skip-simulation", action="store_true")
    args = parser.parse_args()
    if not args.skip_exact:
        bench_exact(args.timeout)
    if not args.skip_simulation:
        bench_simulation(args.hands)


if __name__ == "__main__":
    main()
