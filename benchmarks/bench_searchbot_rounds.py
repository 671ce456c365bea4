"""SearchBot's going out first round by round (issue 29, item 5: where the 35% is missed).

Each round of ``standard`` at 4 players is played alone from its own deal
(``Game(...).new_state(round=R)``, seed ``1000 * R + deal``): once with GreedyBots in
every seat, then once per seat with a SearchBot at its default budget in that seat and
GreedyBots in the others, with the same chance (``rummykit.agents.rollouts.best_outcome``). Each
seat-round pairs SearchBot's going out first with GreedyBot's in the same seat of the
same deal. Prints a line per round and one for all, with a 95% interval of the paired
difference over deals (a deal's four seats share its cards)::

    .venv/bin/python benchmarks/bench_searchbot_rounds.py --rounds 1,3,5,7 --deals 20 [--out F]

``--out`` appends each seat-round as a JSON line (a second process on other rounds can
share the file); ``--summary F [F ...]`` only prints the lines of such files.

The run measured, each round's line with its command, is in ``benchmarks/README.md``
("SearchBot experiments").
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import random
import sys
import time
from pathlib import Path

from rummykit.agents.bots import GreedyBot
from rummykit.agents.rollouts import best_outcome
from rummykit.agents.searchbot import SearchBot
from rummykit.engine.game import Game
from rummykit.evaluate.estimate import interval


def play(rounds: list[int], deals: int, out) -> list[dict]:
    """Every seat-round of ``rounds`` on ``deals`` deals, each also written to ``out``."""
    rows = []
    for deal in range(deals):
        for number in rounds:
            seed = 1000 * number + deal
            state = Game("standard", players=4, seed=seed).new_state(round=number)
            chance = random.Random(seed).getrandbits(63)
            greedy = [GreedyBot() for _ in range(4)]
            _, greedy_out = best_outcome(state, greedy, random.Random(chance))
            for seat in range(4):
                bots = [GreedyBot() for _ in range(4)]
                bots[seat] = SearchBot(seed=seed * 10 + seat)
                start = time.process_time()
                _, search_out = best_outcome(state, bots, random.Random(chance))
                row = {
                    "round": number,
                    "deal": deal,
                    "seat": seat,
                    "greedy": greedy_out == seat,
                    "search": search_out == seat,
                    "cpu": round(time.process_time() - start, 1),
                }
                rows.append(row)
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    return rows


def summary(name: str, rows: list[dict]) -> str:
    """A line of ``rows``: each bot's share, and the paired difference with the 95%
    interval of :func:`rummykit.evaluate.duplicate.interval` over deals (a deal's four seats
    share its cards, so the deal is the independent unit, as in ``compare``)."""
    n = len(rows)
    search = sum(row["search"] for row in rows)
    greedy = sum(row["greedy"] for row in rows)
    by_deal = collections.defaultdict(list)
    for row in rows:
        by_deal[row["round"], row["deal"]].append(row["search"] - row["greedy"])
    diff = interval([sum(d) / len(d) for d in by_deal.values()], bounds=(-1, 1))
    return (
        f"{name}: {n} seat-rounds ({diff.n} deals), SearchBot out first "
        f"{100 * search / n:.1f}%, GreedyBot {100 * greedy / n:.1f}%, difference "
        f"{100 * diff.mean:+.1f} pp [{100 * diff.low:+.1f}, {100 * diff.high:+.1f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="1,2,3,4,5,6,7", help="rounds, comma-separated")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--out", type=Path, help="append each seat-round here (JSON lines)")
    parser.add_argument("--summary", type=Path, nargs="+", help="only summarize these files")
    args = parser.parse_args()
    if args.summary:
        rows = [json.loads(line) for path in args.summary for line in path.read_text().splitlines()]
    else:
        rounds = [int(text) for text in args.rounds.split(",")]
        with open(args.out, "a") if args.out else contextlib.nullcontext() as out:
            rows = play(rounds, args.deals, out)
    if not rows:
        sys.exit("no seat-rounds")
    by_round = collections.defaultdict(list)
    for row in rows:
        by_round[row["round"]].append(row)
    for number in sorted(by_round):
        print(summary(f"round {number}", by_round[number]))
    print(summary("all", rows))


if __name__ == "__main__":
    main()
