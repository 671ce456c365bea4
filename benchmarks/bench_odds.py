"""Time the exact contract odds table and the dealt-hand simulation.

Run from the repository root:

    .venv/bin/python benchmarks/bench_odds.py              # everything
    .venv/bin/python benchmarks/bench_odds.py --timeout 60 # give up on a sweep after 60 s
    .venv/bin/python benchmarks/bench_odds.py --skip-simulation
    .venv/bin/python benchmarks/bench_odds.py --skip-simulation --against ../old-checkout

The exact table is the issue's: the 7 contracts x shoes {1 deck + 2 jokers, 2 + 4,
3 + 6, 2 + 2} x hand sizes {7, 10, 11, 12, 13, 14} under ``standard``, one core. One
sweep per (contract, decks) serves every hand size and joker count, so the first cell of
a sweep (asked for the largest hand and the most jokers, as ``rummykit tables`` does) carries
its cost and the others are read from the cache. Times are CPU seconds
of the process (so a busy machine does not inflate them); each sweep runs in a child
process that is stopped after ``--timeout`` seconds of wall time.

``--against DIR`` times every sweep a second time, in the same run and right after the
first, with the rummykit of another checkout (DIR holds its ``rummykit/``, compiled
cores built: a reference such as the commit before a change), checks that every
probability is the same, and prints both times and their ratio per sweep and in total.

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


def _sweep(index: int, decks: int, queue, root: str | None = None) -> None:
    if root is not None:  # (a fresh interpreter: rummykit is not imported yet)
        import sys

        sys.path.insert(0, root)
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


def _run_sweep(index: int, decks: int, timeout: float, root: str | None):
    """The rows of one sweep's cells, or None when it ran out of time."""
    context = multiprocessing.get_context("spawn" if root else None)
    queue = context.Queue()
    child = context.Process(target=_sweep, args=(index, decks, queue, root))
    start = time.perf_counter()
    child.start()
    rows = []
    while True:
        remaining = timeout - (time.perf_counter() - start)
        try:
            row = queue.get(timeout=max(remaining, 0.01))
        except Exception:  # queue.Empty: the sweep ran out of time
            child.terminate()
            child.join()
            return None
        if row is None:
            child.join()
            return rows
        rows.append(row)


def bench_exact(timeout: float, against: str | None = None) -> None:
    from rummykit import CONTRACTS

    print(f"exact table, standard rules (each sweep stopped after {timeout:g} s)")
    if against:
        print(f"ref s: the same sweep with the rummykit of {against}, right after")
    print(
        f"{'contract':<16}{'shoe':>8}{'cards':>7}{'p':>14}{'CPU s':>10}"
        + (f"{'ref s':>10}{'ratio':>8}" if against else "")
    )
    total = reference_total = 0.0
    unfinished = []
    for index, contract in enumerate(CONTRACTS):
        for decks in sorted({d for d, _ in SHOES}):
            rows = _run_sweep(index, decks, timeout, None)
            if rows is None:
                unfinished.append(f"{contract} with {decks} deck(s)")
                print(f"{str(contract):<16}{decks:>6}d  stopped after {timeout:g} s")
                total += timeout
                continue
            reference = _run_sweep(index, decks, timeout, against) if against else None
            if against and reference is None:
                raise SystemExit(f"the reference ran out of time on {contract}, {decks} deck(s)")
            for n, (_, d, jokers, cards, p, seconds) in enumerate(rows):
                total += seconds
                line = (
                    f"{str(contract):<16}{f'{d}+{jokers}':>8}{cards:>7}{p:>14.6g}{seconds:>10.3f}"
                )
                if reference is not None:
                    ref_p, ref_seconds = reference[n][4], reference[n][5]
                    if reference[n][:4] != rows[n][:4] or ref_p != p:
                        raise SystemExit(f"the probabilities differ: {rows[n]} {reference[n]}")
                    reference_total += ref_seconds
                    ratio = f"{ref_seconds / seconds:>7.2f}x" if seconds >= 0.05 else ""
                    line += f"{ref_seconds:>10.3f}{ratio:>8}"
                print(line)
    print(
        f"total {total:.1f} s" + (f" (unfinished: {'; '.join(unfinished)})" if unfinished else "")
    )
    if against:
        print(
            f"reference {reference_total:.1f} s: {reference_total / total:.2f}x the time "
            f"(the same probabilities, checked cell by cell)"
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
    parser.add_argument(
        "--against", metavar="DIR", help="also time each sweep with DIR's rummykit (a reference)"
    )
    args = parser.parse_args()
    if not args.skip_exact:
        bench_exact(args.timeout, args.against)
    if not args.skip_simulation:
        bench_simulation(args.hands)


if __name__ == "__main__":
    main()
