"""Game-engine speed: full 7-round games with 4 GreedyBots under ``standard``.

Prints games per second (bots' thinking included), then replays the same games to time
``legal_actions()`` and ``apply()`` per call. Rates use CPU time of this process
(``time.process_time``), on one core.

    .venv/bin/python benchmarks/bench_game.py            # --games N --seed S --players P
"""

from __future__ import annotations

import argparse
import time

from rummykit.agents.bots import GreedyBot
from rummykit.engine.game import Game, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--rules", default="standard", help="preset (default standard)")
    args = parser.parse_args()

    games = [Game(args.rules, args.players, seed=args.seed + i) for i in range(args.games)]
    start = time.process_time()
    finals = [
        play_game(game.new_state(), [GreedyBot(seed=s) for s in range(args.players)])
        for game in games
    ]
    played = time.process_time() - start
    actions = sum(len(state.history) for state in finals)

    legal_time = apply_time = 0.0
    calls = 0
    for game, final in zip(games, finals, strict=True):
        state = game.new_state()
        for _, action in final.history:
            t0 = time.process_time()
            state.legal_actions()
            t1 = time.process_time()
            state.apply(action)
            t2 = time.process_time()
            legal_time += t1 - t0
            apply_time += t2 - t1
            calls += 1
    print(f"{args.games} games of {args.rules}, {args.players} GreedyBots, one core")
    print(f"  games per second:        {args.games / played:8.1f}")
    print(f"  actions per game:        {actions / args.games:8.0f}")
    print(f"  µs per legal_actions():  {legal_time / calls * 1e6:8.1f}")
    print(f"  µs per apply():          {apply_time / calls * 1e6:8.1f}")


if __name__ == "__main__":
    main()
