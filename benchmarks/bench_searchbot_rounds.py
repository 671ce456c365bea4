"""SearchBot's going out first round by round (issue 29, item 5: where the 35% is missed).

Each round of ``standard`` at 4 players is played alone from its own deal
(``Game(...).new_state(round=R)``, seed ``1000 * R + deal``): once with GreedyBots in
every seat, then once per seat with a SearchBot at its default budget in that seat and
GreedyBots in the others, with the same chance (``rummykit.rollouts.best_outcome``). Each
seat-round pairs SearchBot's going out first with GreedyBot's in the same seat of the
same deal. Prints a line per round and one for all, with a 95% interval of the paired
difference (seat-rounds taken as independent; the four seats of a deal are not quite)::

    .venv/bin/python benchmarks/bench_searchbot_rounds.py --rounds 1,3,5,7 --deals 20 [--out F]

``--out`` appends each seat-round as a JSON line (a second process on other rounds can
share the file); ``--summary F [F ...]`` only prints the lines of such files.

Measured 2026-12-04 (session 19), two processes (rounds 1,3,5,7 and 2,4,6), stopped
after 443 seat-rounds (4,000 CPU s; 12-13 deals of the odd rounds, 20 of the even):

    round 1: 52 seat-rounds, SearchBot out first 34.6%, GreedyBot 25.0%, difference +9.6 pp [-1.5, +20.7]
    round 2: 80 seat-rounds, SearchBot out first 35.0%, GreedyBot 25.0%, difference +10.0 pp [+1.0, +19.0]
    round 3: 52 seat-rounds, SearchBot out first 32.7%, GreedyBot 25.0%, difference +7.7 pp [-4.2, +19.5]
    round 4: 80 seat-rounds, SearchBot out first 26.2%, GreedyBot 25.0%, difference +1.2 pp [-8.9, +11.4]
    round 5: 51 seat-rounds, SearchBot out first 27.5%, GreedyBot 25.5%, difference +2.0 pp [-8.3, +12.2]
    round 6: 80 seat-rounds, SearchBot out first 27.5%, GreedyBot 25.0%, difference +2.5 pp [-7.9, +12.9]
    round 7: 48 seat-rounds, SearchBot out first 25.0%, GreedyBot 25.0%, difference +0.0 pp [-13.0, +13.0]
    all: 443 seat-rounds, SearchBot out first 29.8%, GreedyBot 25.1%, difference +4.7 pp [+0.7, +8.8]

Rounds 1-3 gain 8-10 points of going out first, rounds 4-7 0-2.5: the three-meld
contracts of rounds 4-7 are where SearchBot plays as GreedyBot does.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import math
import random
import sys
import time
from pathlib import Path

from rummykit.bots import GreedyBot
from rummykit.game import Game
from rummykit.rollouts import best_outcome
from rummykit.searchbot import SearchBot


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
    n = len(rows)
    search = sum(row["search"] for row in rows)
    greedy = sum(row["greedy"] for row in rows)
    diffs = [row["search"] - row["greedy"] for row in rows]
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return (
        f"{name}: {n} seat-rounds, SearchBot out first {100 * search / n:.1f}%, GreedyBot "
        f"{100 * greedy / n:.1f}%, difference {100 * mean:+.1f} pp "
        f"[{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]"
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
