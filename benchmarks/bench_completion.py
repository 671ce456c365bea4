"""Speed of completion by turn: simulated rounds per second, by round and player count,
for the engine and for the fast simulator, on the same cells in the same run.

Each cell plays ``standard`` with BuyerBots (policy "improves", decks and jokers as the
preset assigns), on one core. The engine plays ``--rounds`` rounds through
:func:`rummykit.odds.play.completion.simulate_cells` with ``max_workers=1`` and
``play=play_rounds`` (a sweep's default would pick the fast simulator); the fast
simulator (:func:`rummykit.odds.play.fastplay.play_rounds_fast`, the compiled core) plays
``--fast-rounds`` rounds of the same cells, the first ``--rounds`` of which must equal
the engine's records. Rates are per second of CPU time (``time.process_time``), so other
work on the machine does not count. The summary lines are means over the cells of the
default ``rummykit tables`` grid (players 2-8, rounds 1-7), weighting each cell equally
(what sets a sweep's run time); the last line is the ratio of the two.

    .venv/bin/python benchmarks/bench_completion.py       # --rounds N --fast-rounds M --seed S
    .venv/bin/python benchmarks/bench_completion.py --players 4 --rounds 20
"""

from __future__ import annotations

import argparse
import time

from rummykit.odds.play.completion import cells, play_rounds, simulate_cells
from rummykit.odds.play.fastplay import play_rounds_fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="engine rounds per cell")
    parser.add_argument("--fast-rounds", type=int, default=300, help="fast rounds per cell")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7, 8])
    parser.add_argument("--round", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6, 7])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{'players':>7} {'round':>5} {'engine/s':>9} {'fast/s':>9} {'ratio':>6} {'turns/s':>8}")
    engine_seconds, fast_seconds = [], []
    for players in args.players:
        for round_ in args.round:
            grid = cells(players=players, rounds=round_)
            start = time.process_time()
            records = simulate_cells(
                grid, n=args.rounds, seed=args.seed, max_workers=1, progress=False, play=play_rounds
            )[grid[0]]
            elapsed = time.process_time() - start
            start = time.process_time()
            fast = play_rounds_fast(grid[0], args.seed, range(args.fast_rounds))
            fast_elapsed = time.process_time() - start
            if fast[: len(records)] != records:
                raise SystemExit(f"the fast simulator disagrees with the engine on {grid[0]}")
            engine_seconds.append(elapsed / len(records))
            fast_seconds.append(fast_elapsed / len(fast))
            turns = sum(r.turns for r in fast)
            print(
                f"{players:>7} {round_:>5} {len(records) / elapsed:>9.1f} "
                f"{len(fast) / fast_elapsed:>9.1f} "
                f"{engine_seconds[-1] / fast_seconds[-1]:>5.1f}x {turns / fast_elapsed:>8.0f}",
                flush=True,
            )
    engine = sum(engine_seconds) / len(engine_seconds)
    fast = sum(fast_seconds) / len(fast_seconds)
    print(f"engine, all cells: {engine * 1000:.1f} ms per round on average over cells")
    print(f"fast, all cells: {fast * 1000:.3f} ms per round on average over cells")
    print(
        f"speedup: {engine / fast:.1f}x (fast {1 / fast:.0f} rounds/s, "
        f"engine {1 / engine:.1f} rounds/s, same cells)"
    )


if __name__ == "__main__":
    main()
