"""Does the review overstate? Each verdict at the review's budget against a truth from
many more samples.

Plays ``--games`` seeded 7-round games of ``standard`` at 4 players (seat 0 a GreedyBot
that plays at random a third of the time, as ``bench_review.py`` does, so that there are
plain moves and bad ones), takes seat 0's decisions with a choice, and weighs each on
``--truth`` fresh determinizations: the truth's best is the alternative with the best
mean there, and its class the class of the played move's mean loss against it (best,
good under 2 points, inaccuracy from 2, mistake from 5, blunder from 10: the review's
thresholds, on the mean, since with thousands of samples the mean is the loss). Then
:func:`rummykit.evaluate.reviews.judge` gives its verdict at ``--budget`` (default: the review's)
for each of ``--seeds`` review seeds, and the script counts the **false alarms**: a
verdict of mistake or blunder where the truth says best, good or inaccuracy (issue 48's
measure: at most 1% of verdicts), and the **misses**: the truth a mistake or a blunder and
the verdict best or good. ``--samebudget`` also judges the old way (best chosen and loss
measured on the same samples, class by the mean once the interval excludes zero), for the
reference in the same run.

    .venv/bin/python benchmarks/bench_review_calibration.py    # --games 4 --every 4 --truth 2048
    .venv/bin/python benchmarks/bench_review_calibration.py --jobs 2 --cache truth.json

The truths take the time: about ``truth x alternatives`` rollouts a decision (minutes a
game on two cores); ``--cache FILE`` keeps them, keyed by game, decision and truth budget.
Each decision's truth and verdicts depend only on its game, its place and the seeds, so
any number of workers (``--jobs``) gives the same table. The last line is

    review calibration: D decisions, truth from T samples; budget B: false alarms F of V (P%), ...
"""

from __future__ import annotations

import argparse
import concurrent.futures
import inspect
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_review import Unsteady  # noqa: E402

from rummykit.agents.bots import GreedyBot  # noqa: E402
from rummykit.chance import wilson_interval  # noqa: E402
from rummykit.engine.game import Game, GameState  # noqa: E402
from rummykit.evaluate.reviews import CLASSES, THRESHOLDS, judge, review, weigh  # noqa: E402
from rummykit.evaluate.reviews import _alternatives as alternatives  # noqa: E402

MARKED = ("mistake", "blunder")
FINE = ("best", "good", "inaccuracy")


def play(game: int, seed: int) -> GameState:
    rng = random.Random(seed + game)
    # A stock reshuffled twice ends the round (random play can otherwise go on for ever).
    state = Game("standard", players=4, seed=rng.randrange(10**9), max_reshuffles=2).new_state()
    bots = [Unsteady(seed=game)] + [GreedyBot() for _ in range(3)]
    while not state.is_over:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


def decisions(state: GameState) -> list[tuple[int, object, object, list]]:
    replay = GameState(state.game, state.setup)
    found = []
    for number, (who, action) in enumerate(state.history):
        if who == 0:
            view = replay.view(0)
            actions = alternatives(view, action)
            if len(actions) > 1:
                found.append((number, view, action, actions))
        replay.apply(action)
    return found


def truth_class(values: list[list[float]], played: int) -> tuple[str, float]:
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(means)), key=lambda k: (means[k], -k))
    if best == played:
        return "best", 0.0
    loss = means[best] - means[played]
    for kind in ("blunder", "mistake", "inaccuracy"):
        if loss >= THRESHOLDS[kind]:
            return kind, loss
    return "good", loss


def same_samples_kind(view, played, actions, budget: int, rng: random.Random) -> str:
    """The old verdict: best and loss on the same samples, class by the mean."""
    from rummykit.evaluate.estimate import interval

    values, _ = weigh(view, actions, samples=budget, rng=rng)
    means = [sum(v) / budget for v in values]
    best = max(range(len(actions)), key=lambda k: (means[k], -k))
    k = actions.index(played)
    if k == best:
        return "best"
    loss = interval([b - m for b, m in zip(values[best], values[k], strict=True)])
    if loss.low <= 0:
        return "good"
    for kind in ("blunder", "mistake", "inaccuracy"):
        if loss.mean >= THRESHOLDS[kind]:
            return kind
    return "good"


def work(task: tuple) -> dict:
    game, seed, number, truth, budget, seeds, same = task
    state = play(game, seed)
    found = {n: (view, action, acts) for n, view, action, acts in decisions(state)}
    view, action, actions = found[number]
    row = {"game": game, "number": number, "phase": view.phase, "actions": len(actions)}
    if truth:
        values, _ = weigh(view, actions, samples=truth, rng=random.Random(f"truth/{game}/{number}"))
        row["truth"], row["truth_loss"] = truth_class(values, actions.index(action))
    verdicts = {}
    for s in seeds:
        rng = random.Random(f"review/{s}/{number}")
        verdicts[str(s)] = judge(view, action, actions, samples=budget, rng=rng, number=number).kind
        if same:
            rng = random.Random(f"same/{s}/{number}")
            verdicts[f"same/{s}"] = same_samples_kind(view, action, actions, budget, rng)
    row["verdicts"] = verdicts
    return row


def main(argv: list[str] | None = None) -> None:
    default = inspect.signature(review).parameters["budget"].default
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--truth", type=int, default=2048)
    parser.add_argument("--budget", type=int, default=default)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument(
        "--samebudget",
        action="store_true",
        help="also judge the old way, best and loss on the same samples",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="a JSON file keeping the truths")
    parser.add_argument(
        "--every",
        type=int,
        default=4,
        help="take every EVERY-th decision of seat 0 (default 4: a spread "
        "over each game, not its first rounds)",
    )
    parser.add_argument("--most", type=int, default=None, help="decisions at most")
    args = parser.parse_args(argv)
    cache = json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    tasks = []
    for game in range(args.games):
        for number, *_ in decisions(play(game, args.seed))[:: args.every]:
            tasks.append((game, number))
    tasks = tasks[: args.most]
    rows = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = []
        for game, number in tasks:
            key = f"{args.seed}/{game}/{number}/{args.truth}"
            truth = 0 if key in cache else args.truth
            task = (game, args.seed, number, truth, args.budget, args.seeds, args.samebudget)
            jobs.append((key, pool.submit(work, task)))
        for done, (key, future) in enumerate(jobs, 1):
            row = future.result()
            if key in cache:
                row["truth"], row["truth_loss"] = cache[key]
            cache[key] = [row["truth"], row["truth_loss"]]
            rows.append(row)
            if done % 25 == 0:
                print(f"  {done} of {len(jobs)} decisions", file=sys.stderr, flush=True)
    if args.cache:
        args.cache.write_text(json.dumps(cache))
    truths = {k: sum(r["truth"] == k for r in rows) for k in CLASSES}
    print(
        f"{len(rows)} decisions of seat 0 in {args.games} games; truth from {args.truth} "
        f"samples: " + ", ".join(f"{n} {k}" for k, n in truths.items())
    )
    parts = []
    for label in rows[0]["verdicts"]:
        alarms = sum(r["verdicts"][label] in MARKED and r["truth"] in FINE for r in rows)
        misses = sum(
            r["verdicts"][label] in ("best", "good") and r["truth"] in MARKED for r in rows
        )
        marked = sum(r["verdicts"][label] in MARKED for r in rows)
        low, high = wilson_interval(alarms, len(rows))
        how = (
            "the old way, best and loss on the same samples"
            if label.startswith("same/")
            else ("chosen on one half, measured on the other")
        )
        print(
            f"seed {label} ({how}): {marked} marked mistake or blunder; false alarms "
            f"{alarms} of {len(rows)} ({100 * alarms / len(rows):.1f}%, 95% up to "
            f"{100 * high:.1f}%); misses {misses} of {truths['mistake'] + truths['blunder']}"
        )
        if not label.startswith("same/"):
            parts.append(
                f"{alarms} of {len(rows)} ({100 * alarms / len(rows):.1f}%) at seed {label}"
            )
    print(
        f"review calibration: {len(rows)} decisions, truth from {args.truth} samples; "
        f"budget {args.budget}: false alarms " + ", ".join(parts) + " (goal: at most 1%)"
    )


if __name__ == "__main__":
    main()
