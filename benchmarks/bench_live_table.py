"""The SimulationExplorer's Players control: how long a table not in data/ takes live.

For every preset at the most and fewest players it allows, rounds 1 and 7, the panel's
own function (``rummykit.widgets.table._live_completion``) plays
``rummykit.widgets.table.LIVE_ROUNDS`` rounds (2,000) as the widget does, in threads of
the compiled simulator, and the wall-clock seconds are printed (a user waits in wall
time). The goal is at most 2 s a table. For scale, the engine's bots play a few rounds
of the slowest table in the same run.

    .venv/bin/python benchmarks/bench_live_table.py
    PYTHONPATH=. /work/main/.venv/bin/python benchmarks/bench_live_table.py   # another checkout

The script ends with ``slowest live table: X s (...)`` and the engine's time for the
same rounds of that table, extrapolated from the rounds it played.
"""

from __future__ import annotations

import argparse
import time

from rummykit import RuleSet
from rummykit.odds.cells import DEFAULT_SEED, Cell
from rummykit.odds.play.completion import play_rounds
from rummykit.widgets.table import LIVE_ROUNDS, LIVE_THREADS, TABLE_BUY, _live_completion


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=LIVE_ROUNDS, help="rounds a table")
    parser.add_argument("--engine-rounds", type=int, default=20, help="engine rounds to time")
    args = parser.parse_args()
    print(f"{args.rounds:,} rounds a table, {LIVE_THREADS} threads")
    print(f"{'rules':<10} {'players':>7} {'round':>5} {'seconds':>8}")
    timed = []
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        for players in sorted({rules.min_players, rules.max_players}):
            for round_ in (1, rules.rounds):
                started = time.perf_counter()
                _live_completion(rules, players, round_, args.rounds, DEFAULT_SEED)
                seconds = time.perf_counter() - started
                print(f"{name:<10} {players:>7} {round_:>5} {seconds:>8.2f}", flush=True)
                timed.append((seconds, name, players, round_))
    seconds, name, players, round_ = max(timed)
    cell = Cell(RuleSet.preset(name), players, round_, buy=TABLE_BUY)
    started = time.perf_counter()
    play_rounds(cell, DEFAULT_SEED, range(args.engine_rounds))
    engine = (time.perf_counter() - started) / args.engine_rounds * args.rounds
    print(
        f"slowest live table: {seconds:.2f} s ({name}, {players} players, round {round_}); "
        f"the engine's bots on one core: about {engine:.0f} s for the same rounds"
    )


if __name__ == "__main__":
    main()
