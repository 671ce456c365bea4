"""Game review's cost: a whole round of one seat's decisions reviewed at the default budget.

Plays ``--games`` seeded 7-round games of ``standard`` at 4 players (seat 0 a GreedyBot
that plays at random a third of the time, the others GreedyBots), then reviews seat 0's
decisions round by round with :func:`rummykit.review` at ``--budget`` samples a
decision (default: the review's own). Prints each round's decisions and seconds (wall
time, one process), and last the issue's line (issue 30, item 2: a round's review within
30 s on two cores at the default budget):

    review: D decisions in S s (P per decision), budget B

    .venv/bin/python benchmarks/bench_review.py [--games 1] [--budget B]
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import time

from rummykit.agents.bots import Bot, GreedyBot, RandomBot
from rummykit.engine.game import Game
from rummykit.evaluate.reviews import review


class Unsteady(Bot):
    """GreedyBot, but a random legal action a third of the time."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.greedy, self.chaos = GreedyBot(), RandomBot(seed=seed)

    def choose(self, view):
        bot = self.chaos if self.rng.random() < 1 / 3 else self.greedy
        return bot.choose(view)


def main() -> None:
    default = inspect.signature(review).parameters["budget"].default
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--budget", type=int, default=default)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    decisions, seconds, per_round = 0, 0.0, []
    for number in range(args.games):
        rng = random.Random(args.seed + number)
        state = Game("standard", players=4, seed=rng.randrange(10**9)).new_state()
        bots = [Unsteady(seed=number)] + [GreedyBot() for _ in range(3)]
        while not state.is_over:
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
        for round_ in range(1, 8):
            start = time.perf_counter()
            result = review(state, 0, budget=args.budget, seed=number, round=round_)
            took = time.perf_counter() - start
            decisions += len(result.verdicts)
            seconds += took
            per_round.append(took)
            kinds = ", ".join(
                f"{sum(v.kind == k for v in result.verdicts)} {k}"
                for k in ("inaccuracy", "mistake", "blunder")
            )
            print(
                f"game {number + 1} round {round_}: {len(result.verdicts)} decisions in "
                f"{took:.1f} s ({kinds})"
            )
    print(f"slowest round {max(per_round):.1f} s, median {statistics.median(per_round):.1f} s")
    print(
        f"review: {decisions} decisions in {seconds:.1f} s "
        f"({seconds / max(decisions, 1):.3f} s per decision), budget {args.budget}"
    )


if __name__ == "__main__":
    main()
