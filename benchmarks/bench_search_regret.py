"""Which sampler's decisions come nearest the seeing bound's, at a fraction of a game's cost.

Run from the repository root:

    .venv/bin/python benchmarks/bench_search_regret.py                  # 2 games, every 6th
    .venv/bin/python benchmarks/bench_search_regret.py --games 6 --every 3 --truth 1024

Issue 52, item 3: a sampler is worth what it changes in SearchBot's choices, and games
measure that slowly (hundreds of CPU seconds a deal, thousands of seat-rounds to see a few
points). Here the positions are seat 0's decisions with more than one candidate in seeded
games of four GreedyBots (``standard``, seven rounds), every ``--every``-th. At each,
SearchBot (``--rollouts`` samples, margin 2.5) chooses with each sampler: plain
determinizations, the reading of draws, of draws and buys (with ``--more``, of two turns
and of discards too), and the seeing bound (the true hands, the stock shuffled:
``bench_searchbot.seen``). Every candidate is then weighed
on ``--truth`` seeing samples of other seeds, and a choice's regret is the best candidate's
mean there less its own (points a round against the opponents' mean). It prints, per
sampler, the decisions that depart from GreedyBot's choice, those that agree with the
seeing bot's, the mean regret with its 95% interval over positions, and its paired
difference from plain's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench_searchbot import TimedSearchBot

from rummykit.agents.bots import GreedyBot
from rummykit.engine.game import Game
from rummykit.evaluate.estimate import interval

#: The samplers compared: a name and TimedSearchBot's options.
SAMPLERS = (
    ("plain", {}),
    ("reading draws", {"read": True}),
    ("reading draws + buys", {"reads": ("draws", "buys")}),
    ("seeing (bound a)", {"see": True}),
)
#: With ``--more``: deeper readings, before the seeing bound.
MORE = (
    ("reading two turns, 2 sweeps", {"reads": ("draws", "buys"), "turns": 2, "sweeps": 2,
                                     "attempts": 8}),
    ("reading with discards, 4 sweeps", {"reads": ("draws", "buys", "discards"), "sweeps": 4,
                                         "attempts": 8}),
)  # fmt: skip


def positions(games: int, every: int, seed: int) -> list:
    """(the game at seat 0's decision, its view) for every ``every``-th decision of seat 0
    with more than one legal action, in ``games`` seeded games of GreedyBots."""
    found = []
    count = 0
    for game in range(games):
        state = Game("standard", players=4, seed=seed + game).new_state()
        bots = [GreedyBot() for _ in range(4)]
        while state.phase != "over":
            view = state.view(state.to_act)
            if state.to_act == 0 and len(view.legal_actions()) > 1:
                count += 1
                if count % every == 0:
                    found.append((state.clone(), view))
            state.apply(bots[state.to_act].choose(view))
    return found


def regrets(
    found: list, rollouts: int, truth: int, seed: int, samplers=SAMPLERS
) -> dict[str, list[float]]:
    """Each sampler's regret at each position, and its choices' departures and agreements
    (under the keys ``name``, ``name departs``, ``name agrees``)."""
    out: dict[str, list[float]] = {}
    for number, (table, view) in enumerate(found):
        chosen = {}
        for name, options in samplers:
            bot = TimedSearchBot(seed + number, rollouts=rollouts, **options)
            bot.table = table
            chosen[name] = bot.choose(view)
        judge = TimedSearchBot(random.Random(f"truth {seed} {number}"), see=True)
        judge.table = table
        candidates = judge.candidates(view)
        means = [statistics.fmean(v) for v in judge.weigh(view, candidates, samples=truth)]
        best = max(means)
        greedy = candidates[0]
        for name, _ in samplers:
            where = candidates.index(chosen[name]) if chosen[name] in candidates else None
            regret = best - means[where] if where is not None else float("nan")
            out.setdefault(name, []).append(regret)
            out.setdefault(f"{name} departs", []).append(chosen[name] != greedy)
            out.setdefault(f"{name} agrees", []).append(chosen[name] == chosen[samplers[-1][0]])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--rollouts", type=int, default=256)
    parser.add_argument("--truth", type=int, default=512)
    parser.add_argument("--seed", type=int, default=200)
    parser.add_argument("--more", action="store_true", help="deeper readings too (MORE)")
    args = parser.parse_args()
    samplers = (*SAMPLERS[:-1], *MORE, SAMPLERS[-1]) if args.more else SAMPLERS
    found = positions(args.games, args.every, args.seed)
    start = time.process_time()
    found_regrets = regrets(found, args.rollouts, args.truth, args.seed, samplers)
    print(f"{len(found)} positions of seat 0 in {args.games} games (seed {args.seed}), "
          f"{args.rollouts} samples a choice, truth {args.truth} seeing samples, "
          f"{time.process_time() - start:.0f} CPU s")  # fmt: skip
    plain = found_regrets["plain"]
    for name, _ in samplers:
        mine = found_regrets[name]
        mean = interval(mine)
        line = (
            f"{name}: departs from GreedyBot in {sum(found_regrets[name + ' departs'])}, "
            f"agrees with seeing in {sum(found_regrets[name + ' agrees'])} of {len(mine)}; "
            f"regret {mean.mean:.3f} [{mean.low:.3f}, {mean.high:.3f}]"
        )
        if name != "plain":
            paired = interval([a - b for a, b in zip(mine, plain, strict=True)])
            line += f", against plain {paired.mean:+.3f} [{paired.low:+.3f}, {paired.high:+.3f}]"
        print(line)


if __name__ == "__main__":
    main()
