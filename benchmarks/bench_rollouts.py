"""Rollouts per second from round-1 positions at 4 players: the compiled core against the
engine, measured in the same run (issue 29, item 1: at least 3,000 a second on one core).

The positions: ``--positions`` states of round 1 of ``standard`` at 4 players, each
reached from a fresh deal by a random number (0-60) of actions of GreedyBots, half of
them mixed with RandomBot's (so buy windows, play phases and draws all occur). Each is
rolled out to the end of the round with a GreedyBot in every seat:

- by the engine (``rummykit.agents.rollouts.rollout`` on a clone), on the first ``--engine``
  positions (it is slow);
- by the core, one call per rollout (``fast_rollout``: the state encoded each time, as
  SearchBot calls it), ``--repeat`` times over every position;
- by the core in batches (``rollout_points``: 16 seeds a position in one call).

Every engine rollout's points are checked against the core's for the same seed. CPU time
of this process (one core). Prints each rate and the ratios, last the line

    rollouts: core N/s one at a time (R x the engine's E/s), B/s in batches of 16

``--outs N`` also times what issue 52's bound (b) would cost (SearchBot's own seat rolled
out by OutsBot, which the core does not play): ``N`` positions of each round 1-7, each
rolled out by the engine with an OutsBot in the seat to act and GreedyBots in the others,
against the core's GreedyBot rollouts of the same positions; a line per round, then

    outs rollouts: engine with OutsBot in the seat O/s, the core's GreedyBot rollouts C/s (R x)

    .venv/bin/python benchmarks/bench_rollouts.py [--positions 300] [--engine 100] [--outs N]
"""

from __future__ import annotations

import argparse
import random
import time

from rummykit.agents.bots import GreedyBot, OutsBot, RandomBot
from rummykit.agents.rollouts import fast_rollout, rollout, rollout_points
from rummykit.engine.game import Game


def positions(count: int, seed: int, round: int = 1) -> list:
    rng = random.Random(seed)
    out = []
    number = 0
    while len(out) < count:
        number += 1
        game = Game("standard", players=4, seed=seed * 100_000 + number)
        state = game.new_state(round=round)
        greedy, chaos = GreedyBot(), RandomBot(seed=number)
        mixed = rng.random() < 0.5
        for _ in range(rng.randint(0, 60)):
            if state.round_scores:
                break
            bot = chaos if mixed and rng.random() < 0.3 else greedy
            state.apply(bot.choose(state.view(state.to_act)))
        if not state.round_scores:
            out.append(state)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--engine", type=int, default=100, help="positions the engine plays")
    parser.add_argument("--repeat", type=int, default=5, help="core passes over the positions")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--outs", type=int, default=0, help="positions a round for bound (b)'s rollouts"
    )
    args = parser.parse_args()
    if args.outs:
        outs_rollouts(args.outs, args.seed)
    states = positions(args.positions, args.seed)
    bots = [GreedyBot() for _ in range(4)]
    phases = sorted({s.phase for s in states})
    print(f"{len(states)} positions of round 1, standard, 4 players (phases: {', '.join(phases)})")

    start = time.process_time()
    engine = [
        rollout(s.clone(), bots, random.Random(i)) for i, s in enumerate(states[: args.engine])
    ]
    engine_rate = len(engine) / (time.process_time() - start)

    start = time.process_time()
    for _ in range(args.repeat):
        core = [fast_rollout(s, bots, random.Random(i)) for i, s in enumerate(states)]
    single_rate = args.repeat * len(states) / (time.process_time() - start)
    assert core[: len(engine)] == engine, "the core and the engine disagree"

    start = time.process_time()
    for s in states:
        rollout_points(s, bots, range(16))
    batch_rate = 16 * len(states) / (time.process_time() - start)

    print(f"engine: {engine_rate:,.0f} rollouts per CPU-second ({len(engine)} rollouts)")
    print(f"core, one call a rollout: {single_rate:,.0f} per CPU-second")
    print(f"core, 16 seeds a call: {batch_rate:,.0f} per CPU-second")
    print(f"the same points on all {len(engine)} positions the engine played")
    print(
        f"rollouts: core {single_rate:,.0f}/s one at a time "
        f"({single_rate / engine_rate:.0f} x the engine's {engine_rate:,.0f}/s), "
        f"{batch_rate:,.0f}/s in batches of 16"
    )


def outs_rollouts(count: int, seed: int) -> None:
    """Bound (b)'s rollouts: the engine with OutsBot in the seat to act, against the core's
    GreedyBot rollouts, on ``count`` positions of each round (see the module notes)."""
    totals = {"outs": 0.0, "core": 0.0}
    done = 0
    for number in range(1, 8):
        states = positions(count, seed + number, round=number)
        spent = {"outs": 0.0, "core": 0.0}
        for i, state in enumerate(states):
            bots = [GreedyBot() for _ in range(4)]
            start = time.process_time()
            fast_rollout(state, bots, random.Random(i))
            spent["core"] += time.process_time() - start
            bots[state.to_act] = OutsBot()
            start = time.process_time()
            rollout(state.clone(), bots, random.Random(i))
            spent["outs"] += time.process_time() - start
        print(
            f"  round {number}: {len(states)} positions, OutsBot in the seat "
            f"{1000 * spent['outs'] / len(states):.1f} ms a rollout, the core "
            f"{1000 * spent['core'] / len(states):.2f} ms ({spent['outs'] / spent['core']:,.0f} x)"
        )
        for name in totals:
            totals[name] += spent[name]
        done += len(states)
    outs, core = done / totals["outs"], done / totals["core"]
    print(
        f"outs rollouts: engine with OutsBot in the seat {outs:,.1f}/s, the core's GreedyBot "
        f"rollouts {core:,.0f}/s ({core / outs:,.0f} x)"
    )


if __name__ == "__main__":
    main()
