"""A discard policy learned from the search, measured (issue 52, item 2, step one).

Run from the repository root:

    .venv/bin/python benchmarks/bench_policy.py --train 40 --test 20 --samples 32 --every 2 --deals 60

1. Positions: seeded games of four GreedyBots (``standard``); at every discard of a seat
   that has not laid down, every discard it could make is weighed by SearchBot's
   rollouts on ``--samples`` determinizations (paired: each discard on the same ones;
   ``rummykit.evaluate.learn.positions``). ``--train`` games give the positions the
   weights are fitted on, ``--test`` other games (another seed) the positions they are
   measured on.
2. Weights: ridge regression of each discard's advantage over GreedyBot's choice on the
   difference of their features (``learn.fit``).
3. Measured on the test positions (values the weights never saw): the mean advantage of
   the policy's discard over GreedyBot's, points a round by the search's outcome, with a
   95% interval over the positions (``learn.advantage``); the same on the training
   positions, for how much the fit flatters itself; and OutsBot's discard's advantage on
   the test positions, beside.
4. In play: ``PolicyBot`` against three GreedyBots on ``--deals`` duplicate deals of 7
   rounds (``rummykit.evaluate.duplicate.compare``): out first and points a game better
   than GreedyBot in the same seat, with 95% intervals; with ``--outs-in-play`` OutsBot
   the same, beside (slow: its outs and two-draw chances).
5. With ``--cost N``: CPU milliseconds of a contract discard's choice by GreedyBot,
   PolicyBot and OutsBot, on every one of N seeded games of GreedyBots.

``--out FILE`` writes the weights with their provenance (``LinearPolicy.save``).
Everything is seeded by ``--seed``; the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummykit.agents.bots import GreedyBot, OutsBot  # noqa: E402
from rummykit.agents.policy import DISCARD_FEATURES, PolicyBot  # noqa: E402
from rummykit.evaluate.duplicate import compare  # noqa: E402
from rummykit.evaluate.estimate import interval  # noqa: E402
from rummykit.evaluate.learn import Position, advantage, fit, positions  # noqa: E402


def _games(task: tuple) -> list:
    """One worker's games: (first game, games, seed, samples, every, with OutsBot, rounds)."""
    first, games, seed, samples, every, outs, rounds = task
    also = {"outs": OutsBot()} if outs else None
    return positions(
        games, seed=seed, samples=samples, every=every, also=also, start=first, rounds=rounds
    )


def _weighed(
    games: int, seed: int, samples: int, every: int, outs: bool, jobs: int, rounds: int
) -> list:
    """The positions of games ``0..games-1``, one game a task over ``jobs`` processes (the
    same positions for any number of processes: each game is seeded by its number)."""
    tasks = [(n, 1, seed, samples, every, outs, rounds) for n in range(games)]
    if jobs == 1:
        parts = [_games(task) for task in tasks]
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = []
            for part in pool.imap(_games, tasks):
                parts.append(part)
                print(f"  game {len(parts)}/{games}", file=sys.stderr, flush=True)
    return [position for part in parts for position in part]


def _position(data: dict) -> Position:
    """A position read back from the JSON of ``--positions``."""
    features = tuple(tuple(f) for f in data.pop("features"))
    return Position(features=features, values=tuple(data.pop("values")), **data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=int, default=40, help="games for the fit")
    parser.add_argument("--test", type=int, default=20, help="games to measure on")
    parser.add_argument("--samples", type=int, default=64, help="determinizations a position")
    parser.add_argument("--deals", type=int, default=60, help="duplicate deals in play (0: none)")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument(
        "--outs-in-play", action="store_true", help="OutsBot in play too (slow: its outs)"
    )
    parser.add_argument("--every", type=int, default=1, help="weigh every n-th discard")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the weighing")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of each game played")
    parser.add_argument(
        "--cost", type=int, default=0, help="time each bot's contract discards in N games"
    )
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--out", type=Path, help="write the weights here")
    parser.add_argument(
        "--positions",
        type=Path,
        help="keep the weighed positions in this JSON file; if it is there, read them from "
        "it instead of weighing (made with the same --train, --test, --samples, --every, "
        "--rounds and --seed, or refused)",
    )
    parser.add_argument(
        "--without", nargs="*", default=[], help="features the fit gives no weight (fit.without)"
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    options = {"samples": args.samples, "every": args.every, "jobs": args.jobs}
    options["rounds"] = args.rounds
    made = {k: getattr(args, k) for k in ("train", "test", "samples", "every", "rounds", "seed")}
    if args.positions is not None and args.positions.exists():
        data = json.loads(args.positions.read_text())
        if data["made"] != made:
            raise SystemExit(f"{args.positions} was made with {data['made']}, not {made}")
        train, test = ([_position(p) for p in data[k]] for k in ("train", "test"))
    else:
        train = _weighed(args.train, args.seed, outs=False, **options)
        test = _weighed(args.test, args.seed + 1, outs=True, **options)
        if args.positions is not None:
            kept = {"made": made, "train": [asdict(p) for p in train]}
            kept["test"] = [asdict(p) for p in test]
            args.positions.write_text(json.dumps(kept))
    print(
        f"positions: {len(train)} to fit ({args.train} games), {len(test)} to measure "
        f"({args.test} games, another seed), {args.samples} samples each, every "
        f"{args.every}. discard; {time.perf_counter() - start:.0f} s on {args.jobs} processes"
    )
    policy = fit(
        train,
        ridge=args.ridge,
        without=args.without,
        provenance={
            "made by": "benchmarks/bench_policy.py",
            "games": args.train,
            "samples": args.samples,
            "every": args.every,
            "seed": args.seed,
            "preset": "standard",
            "players": 4,
        },
    )
    for name, weight in zip(DISCARD_FEATURES, policy.weights, strict=True):
        print(f"  weight {name:>10}: {weight:+.3f}")
    on_train, on_test = advantage(policy, train), advantage(policy, test)
    best = interval([max(p.values) - p.values[p.greedy] for p in test])
    print(f"policy's discard over GreedyBot's, fitted positions: {on_train}")
    print(f"policy's discard over GreedyBot's, test positions: {on_test}")
    print(f"OutsBot's discard over GreedyBot's, test positions: {advantage('outs', test)}")
    print(f"(the best mean, chosen on the same samples, so biased up: {best})")
    agree = statistics.fmean(
        max(range(len(p.values)), key=lambda n: p.values[n]) == p.greedy for p in test
    )
    print(f"GreedyBot's discard has the best mean in {agree:.1%} of test positions")
    if args.out is not None:
        policy.save(args.out)
        print(f"wrote {args.out}")
    if args.deals:
        bots = [("policy", PolicyBot(policy))]
        if args.outs_in_play:
            bots.append(("outs", OutsBot()))
        for name, bot in bots:
            start = time.process_time()
            result = compare(
                bot, GreedyBot(), deals=args.deals, players=4, rounds=args.rounds, seed=args.seed
            )
            print(f"{name} in play ({time.process_time() - start:.0f} CPU s):\n{result}")
    if args.cost:
        views = _contract_views(args.cost, args.rounds)
        for name, bot in (
            ("greedy", GreedyBot()),
            ("policy", PolicyBot(policy)),
            ("outs", OutsBot()),
        ):
            start = time.process_time()
            for view in views:
                bot.choose(view)
            each = 1000 * (time.process_time() - start) / len(views)
            print(
                f"cost: {name} {each:.2f} CPU ms a contract discard ({len(views)} of {args.cost} games)"
            )
    return 0


def _contract_views(games: int, rounds: int) -> list:
    """The views of seeded GreedyBot games (seeds 0..games-1) where a seat that has not laid
    down discards: what ``--cost`` times each bot's choice on."""
    from rummykit.engine.actions import Discard
    from rummykit.engine.game import Game

    views = []
    for seed in range(games):
        state = Game("standard", players=4, seed=seed).new_state()
        bots = [GreedyBot(seed=seed + n) for n in range(4)]
        while not state.is_over and len(state.round_scores) < rounds:
            view = state.view(state.to_act)
            action = bots[state.to_act].choose(view)
            if isinstance(action, Discard) and not view.laid_down[view.seat]:
                views.append(view)
            state.apply(action)
    return views


if __name__ == "__main__":
    sys.exit(main())
