"""How much SearchBot's rollouts can tell its candidates apart (issue 29, the going-out goal).

GreedyBots play one round of each number 1 to ``--rounds`` (``standard``, 4 players, each
round dealt from its own seed). At every ``--every``-th decision of seat 0 at which
:class:`~rummykit.agents.searchbot.SearchBot` would weigh more than one candidate, the
candidates (SearchBot's, its prior's choice first) are played on ``--samples``
determinizations of the seat's view, each rolled out by GreedyBots on the compiled core
with the same chance for every candidate, as SearchBot does. Per decision:

* whether a candidate beats the prior's by more than two standard errors of the paired
  difference (:data:`MARGIN`; SearchBot asks 2.5);
* the spread of the paired difference (the second candidate minus the first) against the
  spread of one candidate's outcome: near 1.41 if the two rollouts were independent, near
  0 if pairing removed the luck they share;
* for draw and buy decisions, the same paired spread when the stock is rotated so that
  the cards a draw or a buy takes come from the bottom (a fixed reordering of a stock
  that is uniformly random from the seat's view, so each candidate's mean is unchanged)
  and the next player draws the same card in both branches: the share of the paired
  variance left.

Prints each phase's figures, then the line

    search noise: D decisions, a candidate beats the prior by more than 2 SE in X%
    (median gain G points), paired/single spread R, rotated stock leaves V of the variance

    .venv/bin/python benchmarks/bench_search_noise.py [--samples 256] [--every 3]
        [--rounds 7] [--seed 5]

About 3 CPU minutes per 50 decisions at 256 samples. The runs measured, with their
commands and figures, are in ``benchmarks/README.md`` ("SearchBot experiments").
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
from collections import defaultdict

from rummykit.agents.bots import GreedyBot
from rummykit.agents.rollouts import best_rollout
from rummykit.agents.searchbot import SearchBot
from rummykit.agents.weigh import clearly_better, paired_outcomes, seat_value
from rummykit.engine.actions import Buy, DrawStock
from rummykit.engine.game import Game

#: The margin a candidate must beat the prior's choice by, in standard errors of the
#: paired difference (SearchBot asks 2.5).
MARGIN = 2.0


def rotation(action, rules) -> int:
    """The stock cards ``action`` takes at once or next: a draw 1, a buy its penalty."""
    if isinstance(action, DrawStock):
        return 1
    if isinstance(action, Buy):
        return rules.buy_penalty_cards
    return 0


def rotated(sample, action):
    """A copy of ``sample`` with the stock rotated by :func:`rotation` and ``action`` played."""
    state = sample.clone()
    turn = rotation(action, state.rules)
    if turn:
        state.stock[:] = state.stock[turn:] + state.stock[:turn]
    state.apply(action)
    return state


def weigh(view, candidates, samples: int, rotate: bool, *, rng, bots) -> list[list[float]]:
    """Each candidate's outcome on each of ``samples`` determinizations (paired, as
    SearchBot's: :func:`~rummykit.agents.weigh.paired_outcomes`, GreedyBots ``bots``
    rolling out on the compiled core), each branch's stock rotated if ``rotate``
    (:func:`rotated`)."""
    branch = rotated if rotate else None
    weighed = paired_outcomes(
        view, candidates, rng=rng, play=best_rollout, bots=bots, branch=branch
    )
    seat, negative = view.seat, view.rules.negative_scores
    values: list[list[float]] = [[] for _ in candidates]
    for results in itertools.islice(weighed, samples):
        for number, points in enumerate(results):
            values[number].append(seat_value(points, seat, negative))
    return values


def spread(values: list[list[float]]) -> tuple[float, float]:
    """The paired difference's spread (second minus first candidate), and the first's."""
    diffs = [b - a for a, b in zip(values[0], values[1], strict=True)]
    return statistics.stdev(diffs), statistics.stdev(values[0])


def summary(found: list[dict]) -> tuple[int, float, float]:
    """Decisions with a clearly better candidate, their median gain, the median spread ratio."""
    clear = [row for row in found if row["clear"]]
    gain = statistics.median([row["gain"] for row in clear] or [0])
    ratio = statistics.median(paired / single for paired, single in (r["spread"] for r in found))
    return len(clear), gain, ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=256)
    parser.add_argument("--every", type=int, default=3, help="weigh every k-th decision")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    searcher = SearchBot()  # its candidates, the prior's (GreedyBot's) choice first
    rng = random.Random(args.seed)  # the samples and the chance of every weighing
    rollers = [GreedyBot() for _ in range(4)]
    bots = [GreedyBot() for _ in range(4)]
    rows = defaultdict(list)
    count = 0
    for number in range(1, args.rounds + 1):
        state = Game("standard", players=4, seed=args.seed * 100 + number).new_state(round=number)
        while not state.round_scores:
            view = state.view(state.to_act)
            if state.to_act == 0 and len(candidates := searcher.candidates(view)) > 1:
                count += 1
                if count % args.every == 0:
                    values = weigh(view, candidates, args.samples, False, rng=rng, bots=rollers)
                    means = [statistics.fmean(v) for v in values]
                    best = max(range(len(candidates)), key=lambda n: (means[n], -n))
                    row = {
                        "clear": best > 0 and clearly_better(values[best], values[0], MARGIN),
                        "gain": means[best] - means[0],
                        "spread": spread(values),
                    }
                    if any(rotation(a, view.rules) for a in candidates):
                        turned = weigh(view, candidates, args.samples, True, rng=rng, bots=rollers)
                        row["turned"] = spread(turned)[0]
                    rows[view.phase].append(row)
                    print(f"  round {number} {view.phase}: {row}", flush=True)
            state.apply(bots[state.to_act].choose(view))
    every = [row for phase in rows.values() for row in phase]
    for phase, found in [*sorted(rows.items()), ("all", every)]:
        clear, gain, ratio = summary(found)
        print(
            f"{phase:>5}: {len(found)} decisions, {clear} with a clearly better candidate "
            f"(median gain {gain:.1f} points), median paired/single spread {ratio:.2f}"
        )
    turned = [row for row in every if "turned" in row]
    left = sum(r["turned"] ** 2 for r in turned) / sum(r["spread"][0] ** 2 for r in turned)
    print(
        f"search noise: {len(every)} decisions, a candidate beats the prior by more than 2 SE "
        f"in {100 * clear / len(every):.0f}% (median gain {gain:.1f} points), paired/single "
        f"spread {ratio:.2f}, rotated stock leaves {left:.2f} of the variance"
    )


if __name__ == "__main__":
    main()
