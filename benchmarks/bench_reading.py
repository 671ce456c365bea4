"""How much reading the opponents tells, and what it costs (issue 52, item 3).

Run from the repository root:

    .venv/bin/python benchmarks/bench_reading.py              # 4 games, seed 100
    .venv/bin/python benchmarks/bench_reading.py --games 8 --seed 7

Views: seat 0's draw and play phases in seeded games of four GreedyBots (``standard``,
seven rounds), each kept with chance 0.3. For each way of reading (which choices, how
many turns back, the sampler's attempts and Gibbs sweeps) and each view that reads some
opponent, it prints the share of plain determinizations the reading rules out (one
minus the share :meth:`~rummykit.agents.reading.Reading.keeps` keeps, 30 a view), the
sampler's fallbacks (10 samples a view) and its CPU milliseconds a sample, beside a
plain determinization's measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import time

from rummykit.agents.bots import GreedyBot
from rummykit.agents.determinize import determinize, hidden_cards
from rummykit.agents.reading import ReadingSampler, reading
from rummykit.engine.game import Game

#: The ways of reading compared: (reads, turns, attempts, sweeps).
WAYS = (
    (("draws",), 1, 32, 0),
    (("draws", "buys"), 1, 32, 0),
    (("draws", "buys"), 1, 8, 2),
    (("draws", "buys"), 2, 32, 0),
    (("draws", "buys"), 2, 8, 2),
    (("draws", "buys"), 3, 8, 2),
    (("draws", "buys"), None, 8, 2),
)


def views(games: int, seed: int) -> list:
    """Seat 0's views in ``games`` seeded games of GreedyBots, each kept with chance 0.3."""
    found = []
    for game in range(games):
        state = Game("standard", players=4, seed=seed + game).new_state()
        bots = [GreedyBot() for _ in range(4)]
        rng = random.Random(game)
        while state.phase != "over":
            if state.to_act == 0 and state.phase in ("draw", "play") and rng.random() < 0.3:
                found.append(state.view(0))
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return found


def measure(found: list, reads, turns, attempts: int, sweeps: int) -> tuple[float, int, int, float]:
    """(share ruled out, fallbacks, samples, CPU ms a sample) of one way of reading."""
    kept = tried = fell = drawn = 0
    seconds = 0.0
    for number, view in enumerate(found):
        rng = random.Random(number)
        hidden = hidden_cards(view)
        read = reading(view, reads=reads, turns=turns)
        if not read.checks:
            continue
        for _ in range(30):
            hands = determinize(view, rng.getrandbits(63), hidden=hidden).hands
            kept += read.keeps(hands, rng)
            tried += 1
        sampler = ReadingSampler(
            view, reads=reads, turns=turns, attempts=attempts, sweeps=sweeps, hidden=hidden
        )
        start = time.process_time()
        for _ in range(10):
            sampler(rng.getrandbits(63))
        seconds += time.process_time() - start
        fell += sampler.fell_back
        drawn += sampler.drawn
    return 1 - kept / tried, fell, drawn, 1000 * seconds / drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    found = views(args.games, args.seed)
    start = time.process_time()
    for number, view in enumerate(found):
        hidden = hidden_cards(view)
        for k in range(10):
            determinize(view, number * 10 + k, hidden=hidden)
    plain = 1000 * (time.process_time() - start) / (10 * len(found))
    print(f"{len(found)} views of seat 0 in {args.games} games (seed {args.seed})")
    print(f"plain determinization: {plain:.2f} ms a sample")
    for reads, turns, attempts, sweeps in WAYS:
        ruled, fell, drawn, ms = measure(found, reads, turns, attempts, sweeps)
        way = (
            f"reads {'+'.join(reads)}, turns {turns or 'all'}, attempts {attempts}, sweeps {sweeps}"
        )
        print(
            f"{way}: rules out {100 * ruled:.1f}% of plain deals, fell back {fell}/{drawn} "
            f"({100 * fell / drawn:.1f}%), {ms:.2f} ms a sample ({ms / plain:.1f}x plain)"
        )


if __name__ == "__main__":
    main()
