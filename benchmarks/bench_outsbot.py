"""OutsBot against GreedyBot: decision rate on the same deals, and the headline results.

For each round of ``standard`` (4 players, 2 decks + 4 jokers), plays ``--rounds`` deals
twice from the same seeds (:func:`rummykit.odds.play.completion.play_round`): GreedyBots only,
then with an OutsBot in the seat under study (position ``index % 4 + 1``). Times that
seat's decisions in both plays (CPU time of this process, one core) and prints its
decisions per second, the rounds per second of the whole table, and the ratio
GreedyBot / OutsBot. Then, for the discards OutsBot weighed, the cost of the two-draw
chance: the share of its time spent on it (only for discards tied on outs) and what
``discard_advice`` (the chance for every discard) costs at the same positions. Last, the
headline results from ``data/outs_bot.parquet`` (``rummykit tables --only outs_bot``).

    .venv/bin/python benchmarks/bench_outsbot.py [--rounds N] [--seed S] [--advice N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import polars as pl

from rummykit import RuleSet, discard_advice
from rummykit.agents import bots
from rummykit.agents.bots import GreedyBot, OutsBot
from rummykit.odds.cells import Cell
from rummykit.odds.play import completion
from rummykit.odds.play.outs_bot import game_difference

DATA = Path(__file__).resolve().parent.parent / "data" / "outs_bot.parquet"


def timed(bot_type: type[GreedyBot]) -> type[GreedyBot]:
    """``bot_type`` counting its decisions and their CPU time, and keeping the views of
    its discards before laying down (class attributes: one class per play)."""

    class Timed(bot_type):
        seconds = 0.0
        decisions = 0
        positions: list = []

        def choose(self, view):
            start = time.process_time()
            action = super().choose(view)
            cls = type(self)
            cls.seconds += time.process_time() - start
            cls.decisions += 1
            if view.phase == "play" and not view.laid_down[view.seat]:
                cls.positions.append(view)
            return action

    Timed.positions = []
    return Timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="deals per round (default 6)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--advice", type=int, default=3, help="positions per round for advice")
    args = parser.parse_args()
    rules = RuleSet.preset("standard")
    # The two-draw chance OutsBot computes (for discards tied on outs), timed.
    original = bots.two_draw_chances
    two_draw = [0.0]

    def counted(*arguments, **options):
        start = time.process_time()
        result = original(*arguments, **options)
        two_draw[0] += time.process_time() - start
        return result

    bots.two_draw_chances = counted
    print(f"standard, 4 players, {args.rounds} deals per round, one core (CPU time)")
    print(
        f"{'round':>5} {'contract':<15} {'greedy dec/s':>12} {'outs dec/s':>10} {'ratio':>7} "
        f"{'greedy rnd/s':>12} {'outs rnd/s':>10} {'two-draw share':>14} {'advice s/pos':>12}"
    )
    totals = {GreedyBot: [0.0, 0], OutsBot: [0.0, 0]}
    for round_ in range(1, rules.rounds + 1):
        cell = Cell(rules, players=4, round=round_)
        rates = {}
        two_draw[0] = 0.0
        for bot_type in (GreedyBot, OutsBot):
            kind = timed(bot_type)
            start = time.process_time()
            for index in range(args.rounds):
                completion.play_round(cell, args.seed, index, focal=kind)
            spent = time.process_time() - start
            rates[bot_type] = (kind.decisions / kind.seconds, args.rounds / spent, kind)
            totals[bot_type][0] += kind.seconds
            totals[bot_type][1] += kind.decisions
        outs = rates[OutsBot][2]
        share = two_draw[0] / outs.seconds
        sample = outs.positions[:: max(1, len(outs.positions) // args.advice)][: args.advice]
        start = time.process_time()
        for view in sample:
            discard_advice(view)
        advice = (time.process_time() - start) / max(1, len(sample))
        greedy_rate, outs_rate = rates[GreedyBot][0], rates[OutsBot][0]
        print(
            f"{round_:>5} {str(cell.contract):<15} {greedy_rate:>12.0f} {outs_rate:>10.1f} "
            f"{greedy_rate / outs_rate:>6.0f}x {rates[GreedyBot][1]:>12.1f} "
            f"{rates[OutsBot][1]:>10.2f} {share:>14.0%} {advice:>12.2f}"
        )
    greedy = totals[GreedyBot][1] / totals[GreedyBot][0]
    outs = totals[OutsBot][1] / totals[OutsBot][0]
    print(
        f"decisions of the seat under study: GreedyBot {greedy:.0f}/s, OutsBot {outs:.1f}/s, "
        f"ratio {greedy / outs:.0f}x (same deals)"
    )
    if not DATA.exists():
        print(f"no {DATA.name}: run `rummykit tables --only outs_bot` for the results")
        return
    table = pl.read_parquet(DATA)
    deals = ", ".join(
        f"r{r} {n}" for r, n in table.select("round", "n").unique().sort("round").rows()
    )
    print(f"\nheadline results ({DATA.name}, 95% intervals; deals per round: {deals}):")
    for measure in ("laid down", "went out", "points minus opponents"):
        rows = table.filter(bot="outs", measure=measure).sort("round")
        cells = ", ".join(
            f"r{r['round']} {r['mean']:.2f} ({r['difference']:+.2f} "
            f"[{r['difference_ci_low']:+.2f}, {r['difference_ci_high']:+.2f}])"
            for r in rows.iter_rows(named=True)
        )
        print(f"  OutsBot {measure} (vs GreedyBot in its seat): {cells}")
    game = game_difference(table)
    print(
        f"  over a game of rounds {game['rounds'][0]}-{game['rounds'][-1]} (the rounds' paired "
        f"differences summed): points minus opponents, lower is better, {game['mean']:+.1f} "
        f"[{game['ci_low']:+.1f}, {game['ci_high']:+.1f}]"
    )


if __name__ == "__main__":
    main()
