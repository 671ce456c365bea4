"""SearchBot on compiled rollouts: its decision time, and a duplicate comparison with GreedyBot.

One SearchBot (``--rollouts`` determinizations a decision, each candidate rolled out
once on each by GreedyBots, on the compiled core: rummykit.rollouts.best_rollout; a
``--margin`` other than SearchBot's default if given) at a table of ``standard`` with three
GreedyBots, on ``--deals`` duplicate deals (:func:`rummykit.duplicate.compare`: the
SearchBot in every seat of every deal, against the GreedyBot that sat there), the first
``--rounds`` rounds of each game. Prints the CPU time of every SearchBot decision
(median, 90th and 99th percentiles, by phase), the rollouts per CPU-second,
the comparison, and last the issue's line (issue 29, item 5):

    searchbot: went out first X% [lo, hi] (25% if equal), points per game D [lo, hi]
    vs GreedyBot, median decision S s

CPU time of this process, one core. The measurement behind SearchBot's defaults (about
28 CPU minutes):

    .venv/bin/python benchmarks/bench_searchbot.py --deals 8 --rounds 7 --seed 29

    .venv/bin/python benchmarks/bench_searchbot.py [--deals N] [--rounds R] [--rollouts K]

``--out-bonus B`` adds B points to SearchBot's outcome of every rollout in which it goes
out (an experiment on the going-out goal, not SearchBot's own objective). Measured
2026-12-03 with ``--deals 4 --rounds 7 --seed 29``: went out first 29.5% [18.7, 40.2]
with ``--out-bonus 60``, 29.5% [17.8, 41.2] with ``--out-bonus 150``, 25.9% [11.7,
40.1] with ``--margin 1.0``; session 16's default run (8 deals) gave 28.1% [21.5, 34.8].
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from rummykit.bots import GreedyBot
from rummykit.duplicate import compare
from rummykit.rollouts import best_outcome
from rummykit.searchbot import SearchBot

#: Every SearchBot decision: (phase, CPU seconds). Module-level, so the copies that
#: compare() plays all record here.
DECISIONS: list[tuple[str, float]] = []
#: Every rollout's CPU seconds.
ROLLOUTS: list[float] = []
#: ``--out-bonus``, and the seat of the SearchBot deciding now.
OUT_BONUS = [0.0]
SEAT = [0]


def timed_rollout(state, bots, rng):
    start = time.process_time()
    points, out = best_outcome(state, bots, rng)
    ROLLOUTS.append(time.process_time() - start)
    if OUT_BONUS[0] and out == SEAT[0]:  # points are a penalty here: lower is better
        sign = -1 if state.rules.negative_scores else 1
        points = tuple(p - sign * OUT_BONUS[0] if s == out else p for s, p in enumerate(points))
    return points


class TimedSearchBot(SearchBot):
    def choose(self, view):
        SEAT[0] = view.seat
        start = time.process_time()
        action = super().choose(view)
        DECISIONS.append((view.phase, time.process_time() - start))
        return action

    def __repr__(self) -> str:
        return f"SearchBot(rollouts={self.rollouts})"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2, help="duplicate deals (default 2)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds a game (default 7)")
    parser.add_argument(
        "--rollouts", type=int, default=256, help="samples a decision (default 256, SearchBot's)"
    )
    parser.add_argument("--margin", type=float, default=None, help="SearchBot's margin")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--out-bonus", type=float, default=0.0, help="points added for going out (experiment)"
    )
    args = parser.parse_args()
    OUT_BONUS[0] = args.out_bonus
    options = {} if args.margin is None else {"margin": args.margin}
    bot = TimedSearchBot(seed=args.seed, rollouts=args.rollouts, rollout=timed_rollout, **options)
    start = time.process_time()
    result = compare(
        bot,
        GreedyBot(),
        deals=args.deals,
        rules="standard",
        players=4,
        rounds=args.rounds,
        seed=args.seed,
        progress=lambda done, total: print(f"  game {done}/{total}", flush=True),
    )
    cpu = time.process_time() - start
    times = [seconds for _, seconds in DECISIONS]
    print(
        f"SearchBot(rollouts={args.rollouts}), standard, 4 players: {len(times)} decisions, "
        f"CPU s median {statistics.median(times):.3f}, p90 {quantile(times, 0.9):.3f}, "
        f"p99 {quantile(times, 0.99):.3f}, max {max(times):.3f}"
    )
    by_phase = defaultdict(list)
    for phase, seconds in DECISIONS:
        by_phase[phase].append(seconds)
    for phase, values in sorted(by_phase.items()):
        print(f"  {phase:>12}: {len(values):5} decisions, median {statistics.median(values):.3f} s")
    print(
        f"rollouts: {len(ROLLOUTS)}, {len(ROLLOUTS) / sum(ROLLOUTS):.0f} per CPU-second "
        f"(median {1000 * statistics.median(ROLLOUTS):.1f} ms); benchmark CPU {cpu:.0f} s"
    )
    print(result)
    out, points = result.went_out_a, result.points
    print(
        f"searchbot: went out first {100 * out.mean:.1f}% [{100 * out.low:.1f}, "
        f"{100 * out.high:.1f}] (25% if equal), points per game {points.mean:+.1f} "
        f"[{points.low:+.1f}, {points.high:+.1f}] vs GreedyBot, median decision "
        f"{statistics.median(times):.3f} s"
    )


if __name__ == "__main__":
    main()
