"""Speed of completion by turn: simulated rounds per second, by round and player count.

Each cell plays ``--rounds`` rounds of ``standard`` with BuyerBots (policy "improves",
decks and jokers as the preset assigns), on one core, through
:func:`rummykit.odds.completion.simulate_cells` with ``max_workers=1``. Rates are per
second of CPU time (``time.process_time``), so other work on the machine does not count.
The last line is the mean over the cells of the default ``rummykit tables`` grid
(players 2-8, rounds 1-7), weighting each cell equally: what sets its run time.

    .venv/bin/python benchmarks/bench_completion.py            # --rounds N --seed S
    .venv/bin/python benchmarks/bench_completion.py --players 4 --rounds 20
"""

from __future__ import annotations

import argparse
import time

from rummykit.odds.completion import cells, simulate_cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="rounds per cell")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7, 8])
    parser.add_argument("--round", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6, 7])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{'players':>7} {'round':>5} {'rounds/s':>9} {'turns/s':>8}")
    seconds_per_round = []
    total_rounds = total_time = 0.0
    for players in args.players:
        for round_ in args.round:
            grid = cells(players=players, rounds=round_)
            start = time.process_time()
            records = simulate_cells(
                grid, n=args.rounds, seed=args.seed, max_workers=1, progress=False
            )[grid[0]]
            elapsed = time.process_time() - start
            turns = sum(r.turns for r in records)
            print(
                f"{players:>7} {round_:>5} {len(records) / elapsed:>9.1f} {turns / elapsed:>8.0f}",
                flush=True,
            )
            seconds_per_round.append(elapsed / len(records))
            total_rounds += len(records)
            total_time += elapsed
    mean = sum(seconds_per_round) / len(seconds_per_round)
    print(
        f"all cells: {total_rounds / total_time:.1f} rounds/s; "
        f"{mean * 1000:.0f} ms per round on average over cells"
    )


if __name__ == "__main__":
    main()
