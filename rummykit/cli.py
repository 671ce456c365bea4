"""The ``rummykit`` command.

``rummykit odds``      exact probability that a dealt hand holds a contract
``rummykit simulate``  the same estimated by dealing hands, with its 95% interval
``rummykit tables``    regenerate ``data/``: every table as parquet + CSV + JSON provenance
                      (the pipeline is :mod:`rummykit.odds.pipeline`)

A contract is given as its round under the rules (``--contract 5``) or in words
(``--contract "2 sets + 1 run"``, also ``2s1r``). Bad arguments, an unknown preset, a
hand the shoe cannot deal or any failure of a Dask cluster (:mod:`rummykit.odds.data.cluster`)
print a message and exit with status 2; SIGTERM stops a command and its worker processes
and exits with status 143 (:data:`TERMINATED_STATUS`).

>>> main(["odds", "--contract", "1", "--decks", "1", "--jokers", "0", "--cards", "6"])
standard, round 1 contract (2 sets), 6 cards from 1 deck + 0 jokers (52 cards), exact
P = 12/195755
  = 1 in 16,313
0
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from rummykit import chance
from rummykit._optional import require
from rummykit.engine.rules import SHOE_DECKS, SHOE_JOKERS, Contract, RuleSet
from rummykit.errors import ArgumentError, MissingDependencyError, RummyError

__all__ = [
    "EXAMPLES",
    "TERMINATED_STATUS",
    "Terminated",
    "count_plan",
    "main",
    "parse_contract",
]


# --------------------------------------------------------------------------------------
# Parsing


def parse_contract(text: str, rules: RuleSet) -> tuple[Contract, int | None]:
    """A contract and its round from a round number or words.

    >>> rules = RuleSet.preset("standard")
    >>> parse_contract("5", rules)
    (Contract(sets=2, runs=1), 5)
    >>> parse_contract("1 set + 2 runs", rules), parse_contract("3r", rules)
    ((Contract(sets=1, runs=2), 6), (Contract(sets=0, runs=3), 7))
    >>> parse_contract("9", rules)
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: standard has rounds 1-7, not 9
    """
    text = text.strip().lower()
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= rules.rounds:
            raise ArgumentError(f"{rules.name} has rounds 1-{rules.rounds}, not {number}")
        return rules.contracts[number - 1], number
    compact = text.replace(" ", "").replace("+", "").replace(",", "").replace("and", "")
    match = re.fullmatch(r"(?:(\d+)s(?:ets?)?)?(?:(\d+)r(?:uns?)?)?", compact)
    if not compact or match is None:
        raise ArgumentError(
            f"cannot read the contract {text!r}: give a round (1-{rules.rounds}) or words "
            f"such as '2 sets + 1 run' or '2s1r'"
        )
    contract = Contract(sets=int(match[1] or 0), runs=int(match[2] or 0))
    number = next((i + 1 for i, c in enumerate(rules.contracts) if c == contract), None)
    return contract, number


#: A whole number written with thousands separators, as the help prints defaults: 2,000.
_THOUSANDS = re.compile(r"-?\d{1,3}(,\d{3})+")


def _whole(text: str) -> int:
    """A whole number as a reader types it: 2000, 2,000 (as --help prints it) or 2_000.

    >>> _whole("2,000"), _whole("2_000"), _whole("-3")
    (2000, 2000, -3)
    """
    if _THOUSANDS.fullmatch(text.strip()):
        text = text.replace(",", "")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number: write it in digits, such as 2"
        ) from None


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def _bounded(low: int, high: int):
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = _whole(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high:,}, got {value:,}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds: write it in digits, such as 30"
        ) from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _natural(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


#: Examples shown by each subcommand's --help.
EXAMPLES = {
    "odds": """examples:
  rummykit odds --contract 1                       round 1 (2 sets), 2 decks, the deal size
  rummykit odds --contract "1 set + 2 runs" --decks 3 --cards 12
  rummykit odds --contract 2s1r --rules pagat --decks 2 --jokers 4 --cards 11
  rummykit odds --contract 6 --decks 4 --jokers 16 --cards 12   jokers the rules do not give

A count of a contract mixing sets and runs can take minutes: the time planned is
printed first, then a progress bar (use `rummykit simulate` for a quick estimate).""",
    "simulate": """examples:
  rummykit simulate --contract 6 --decks 3 --jokers 8 --cards 15
  rummykit simulate --contract "2 runs" --n 200000 --seed 7
  rummykit simulate --contract 6 --n 100000000 --dask tcp://scheduler:8786""",
    "review": """examples:
  rummykit review game.json --seat 0                every decision of seat 0, 256 samples each
  rummykit review game.json --seat 1 --round 2 --budget 200 --html review.html
  rummykit review game.json --seat 0 --beside       also GreedyBot, OutsBot and SearchBot
                                                    in seat 0 on the same deals (slower)

Each decision is weighed from the seat's own view (the hidden cards sampled, never read
from the save); a decision is classed an inaccuracy (marked ?!), a mistake (?) or a
blunder (??) only where the 95% interval of its loss lies above its threshold. The
mistakes are also counted by decision type (buy, take or draw, lay down, lay off,
discard). --html writes one page that needs no network: the cards drawn, the marked
decisions tinted, each row of the table linked to its decision in words and back. With
--beside, each round the seat played is replayed from its deal with a bot in the seat
and reviewed the same way: the seat's accuracy beside the bots', on the same deals (not
the same positions: the rounds unfold differently once the choices differ).""",
    "puzzles": """examples:
  rummykit puzzles                     regenerate data/puzzles.json as committed (minutes)
  rummykit puzzles --count 20 --seed 7 --out /tmp/puzzles.json

Puzzles are positions from seeded rounds of GreedyBots where one choice beats every other
by at least the margin at the lower end of its 95% interval, found on --budget samples and
confirmed on as many fresh ones; within each kind no answer is right in more than half of
the puzzles (rummykit.evaluate.puzzles).""",
    "tables": """examples:
  rummykit tables                      regenerate data/ as committed (minutes)
  rummykit tables --quick --out /tmp/data
  rummykit tables --only exact_odds distance --workers 1
  rummykit tables --dask tcp://scheduler:8786 --checkpoint /tmp/rounds

With --checkpoint, an interrupted run started again with the same directory plays only
the rounds it had not finished; the tables are those of an uninterrupted run.""",
}


def _parser() -> argparse.ArgumentParser:
    import rummykit
    from rummykit.odds.data.cluster import WAIT_SECONDS
    from rummykit.odds.data.plan import MAX_ROUNDS
    from rummykit.odds.pipeline import DATA_SEED, DESCRIPTIONS, RECIPES

    parser = argparse.ArgumentParser(
        prog="rummykit",
        description="Liverpool Rummy odds, simulations and data tables.",
        epilog="Each command has its own help and examples: rummykit odds --help",
    )
    parser.add_argument("--version", action="version", version=f"rummykit {rummykit.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            help=help,
            description=help[0].upper() + help[1:] + ".",
            epilog=EXAMPLES[name],
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        # Errors about what the arguments mean print this command's usage (see _hand).
        sub.set_defaults(parser=sub)
        return sub

    def hand_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--contract", required=True, help="a round (1-7) or words: '2 sets + 1 run', '2s1r'"
        )
        sub.add_argument(
            "--rules",
            default="standard",
            help=f"preset: {', '.join(RuleSet.presets())} (default standard)",
        )
        sub.add_argument(
            "--decks",
            type=_bounded(*SHOE_DECKS),
            default=2,
            help=f"52-card decks, {SHOE_DECKS[0]} to {SHOE_DECKS[1]} (default 2)",
        )
        sub.add_argument(
            "--jokers",
            type=_bounded(*SHOE_JOKERS),
            help=f"jokers in the shoe, in all, {SHOE_JOKERS[0]} to {SHOE_JOKERS[1]} (default: "
            "as the rules give the decks)",
        )
        sub.add_argument(
            "--cards", type=_natural, help="cards in the hand (default: the round's deal size)"
        )

    def dask_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--dask",
            metavar="ADDRESS",
            help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:8786); "
            "the same result as on this machine (needs rummykit[dask])",
        )
        sub.add_argument(
            "--dask-wait",
            type=_seconds,
            default=WAIT_SECONDS,
            metavar="SECONDS",
            help="with --dask: how long to wait for a worker when the cluster has none, at "
            f"the start or mid-run, before failing (default {WAIT_SECONDS} s)",
        )

    odds = command("odds", "exact probability that a dealt hand holds a contract")
    hand_options(odds)
    odds.add_argument(
        "--allow-long",
        action="store_true",
        help="count even when the count is planned at over an hour (else refused: "
        "rummykit simulate estimates it in seconds)",
    )
    simulate = command("simulate", "the same probability estimated by dealing hands")
    hand_options(simulate)
    simulate.add_argument(
        "--n",
        type=_positive,
        default=1_000_000,
        help="hands to deal, at most 100,000,000 (default 1,000,000)",
    )
    simulate.add_argument(
        "--seed", type=_natural, default=DATA_SEED, help=f"seed (default {DATA_SEED})"
    )
    dask_option(simulate)
    review = command("review", "every decision of one seat in a saved game, weighed")
    review.add_argument("save", metavar="SAVE", help="a saved game (GameState.save()'s JSON)")
    review.add_argument("--seat", type=_natural, required=True, help="the seat to review (0 first)")
    review.add_argument(
        "--budget",
        type=_bounded(1, 10_000),
        default=256,
        help="samples of the hidden cards a decision (default 256: half to choose the best "
        "on, half to measure the losses on)",
    )
    review.add_argument("--seed", type=_natural, default=0, help="the samples' seed (default 0)")
    review.add_argument("--round", type=_natural, default=None, help="one round only")
    review.add_argument(
        "--html",
        metavar="OUT",
        default=None,
        help="also write the review as an HTML page (self-contained, readable offline)",
    )
    review.add_argument(
        "--beside",
        action="store_true",
        help="also replay each round with GreedyBot, OutsBot and SearchBot in the seat and "
        "set their accuracy beside the seat's (3 to 4 times the review's time again)",
    )

    puzzles = command("puzzles", "puzzles for learners from seeded games, as JSON")
    puzzles.add_argument(
        "--out",
        default="data/puzzles.json",
        help="the file (default data/puzzles.json), written whole at the end or not at all",
    )
    puzzles.add_argument(
        "--count", type=_bounded(1, 10_000), default=PUZZLE_COUNT,
        help=f"puzzles to find (default {PUZZLE_COUNT})",
    )  # fmt: skip
    puzzles.add_argument(
        "--seed", type=_natural, default=0, help="the games' and samples' seed (default 0)"
    )
    puzzles.add_argument(
        "--budget", type=_bounded(4, 10_000), default=64,
        help="samples of the hidden cards a decision, to find it and again to confirm it "
        "(default 64)",
    )  # fmt: skip

    tables = command("tables", "regenerate data/ (parquet + CSV + JSON)")
    tables.add_argument(
        "--out",
        default="data",
        help="directory (default data), checked before any work and replaced whole at the end",
    )
    tables.add_argument(
        "--seed",
        type=_natural,
        default=DATA_SEED,
        help=f"simulation seed (default {DATA_SEED}, the committed data)",
    )
    tables.add_argument(
        "--n",
        type=_bounded(1, MAX_ROUNDS),
        help=f"rounds per simulated cell of standard, at most {MAX_ROUNDS:,} (default "
        f"{RECIPES['default'].n:,}); the run is refused at once if their records would not "
        "fit in the memory this machine has free",
    )
    tables.add_argument(
        "--preset-n",
        type=_bounded(1, MAX_ROUNDS),
        help=f"rounds per simulated cell of the other presets, at most {MAX_ROUNDS:,} "
        f"(default {RECIPES['default'].preset_n:,})",
    )
    tables.add_argument(
        "--quick",
        action="store_true",
        help="tiny grids in seconds (a smoke test, not the committed data)",
    )
    tables.add_argument(
        "--only",
        nargs="+",
        choices=list(DESCRIPTIONS),
        metavar="TABLE",
        help=f"only these tables: {', '.join(DESCRIPTIONS)}",
    )
    tables.add_argument(
        "--workers",
        type=_positive,
        help="worker processes (default: every CPU; 1 runs in this process)",
    )
    dask_option(tables)
    tables.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="keep each finished chunk of simulated rounds in DIR and skip those already "
        "there: run again with the same DIR to resume an interrupted run",
    )
    tables.add_argument(
        "--engine",
        action="store_true",
        help="play every round with the engine and its bots (the reference; about 60 times "
        "slower), not the compiled simulator, which plays the same rounds",
    )
    tables.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser


def _hand(args, parser) -> tuple[RuleSet, Contract, int | None, int, int]:
    try:
        rules = RuleSet.preset(args.rules)
        contract, number = parse_contract(args.contract, rules)
    except (RummyError, ValueError) as error:
        parser.error(str(error))
    # Every preset gives its jokers for every deck count of SHOE_DECKS.
    jokers = rules.jokers_for(args.decks) if args.jokers is None else args.jokers
    cards = args.cards
    if cards is None:
        if number is None:
            parser.error(f"--cards is needed: {contract} is no round of {rules.name}")
        cards = rules.deal_sizes[number - 1]
    shoe = 52 * args.decks + jokers
    if cards > shoe:
        parser.error(f"cannot deal {cards} cards from {_shoe(args.decks, jokers)}")
    return rules, contract, number, jokers, cards


def _shoe(decks: int, jokers: int) -> str:
    return f"{decks} deck{'s' if decks != 1 else ''} + {jokers} joker{'s' if jokers != 1 else ''}"


def _title(rules, contract, number, decks, jokers, cards, method) -> str:
    where = f"round {number} contract ({contract})" if number else f"contract {contract}"
    return (
        f"{rules.name}, {where}, {cards} cards from {_shoe(decks, jokers)} "
        f"({52 * decks + jokers} cards), {method}"
    )


# --------------------------------------------------------------------------------------
# Commands


#: A count planned to take at least this many seconds is announced before it starts.
ANNOUNCE_SECONDS = 1.0


def count_plan(
    rules: RuleSet, contract: Contract, decks: int, jokers: int, cards: int
) -> str | None:
    """The line ``rummykit odds`` prints before a count planned to take a while
    (:func:`rummykit.odds.answer.count_seconds`), or None for a quick or known one.

    >>> standard = RuleSet.preset("standard")
    >>> print(count_plan(standard, standard.contracts[5], 3, 8, 15))
    counting exactly: about 1 min 16 s on one core (planned); for an estimate in a second, use rummykit simulate
    >>> count_plan(standard, standard.contracts[0], 2, 4, 10) is None
    True
    """
    from rummykit.chance import duration_text
    from rummykit.odds.answer import count_seconds
    from rummykit.odds.cells import ExactCell

    seconds = count_seconds(ExactCell(rules, None, contract, decks, jokers, cards))
    if seconds < ANNOUNCE_SECONDS:  # a known value plans at 0
        return None
    return (
        f"counting exactly: {duration_text(seconds)} on one core (planned); for an estimate "
        "in a second, use rummykit simulate"
    )


def _odds(args, parser) -> int:
    from rummykit.odds.answer import answer, known_probability
    from rummykit.odds.cells import ExactCell
    from rummykit.odds.data.plan import LONG_COUNT_SECONDS

    tqdm = require("tqdm", extra="analysis", feature="rummykit odds").tqdm

    rules, contract, number, jokers, cards = _hand(args, parser)
    cell = ExactCell(rules, number, contract, args.decks, jokers, cards)
    # An exact count, never an estimate (that is rummykit simulate): up to an hour
    # planned, any length with --allow-long.
    budget = math.inf if args.allow_long else LONG_COUNT_SECONDS
    if known_probability(cell) is not None:
        found = answer(cell, budget, hands=None)
    else:
        plan = count_plan(rules, contract, args.decks, jokers, cards)
        if plan is not None:
            print(plan, file=sys.stderr, flush=True)
        # A count of a contract mixing sets and runs takes a while: a bar from the start
        # (on a terminal), moving with each step of the sweep.
        with tqdm(
            desc="counting", unit="step", leave=False, disable=None, total=None, delay=0
        ) as bar:
            bar.refresh()

            def progress(done: int, total: int) -> None:
                bar.total, bar.n = total, done
                bar.refresh()

            found = answer(cell, budget, hands=None, progress=progress)
    print(_title(rules, contract, number, args.decks, jokers, cards, "exact"))
    print(f"P = {found.value}")
    print(f"  = {found.words()}")
    return 0


def _write_whole(parser, option: str, out: Path, text: str) -> None:
    """Write ``text`` to ``out`` whole or not at all: a file beside it, then renamed over
    ``out``; a failure is the parser's error naming ``option``, and leaves ``out`` as it was."""
    partial = out.with_name(out.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, out)
    except OSError as error:
        partial.unlink(missing_ok=True)
        parser.error(f"{option}: cannot write {out}: {error}")


def _review(args, parser) -> int:
    from rummykit.evaluate.review_page import review_page
    from rummykit.evaluate.review_words import action_words
    from rummykit.evaluate.reviews import MARKS, MARKS_LEGEND, review

    tqdm = require("tqdm", extra="analysis", feature="rummykit review").tqdm
    path = Path(args.save)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"SAVE: cannot read {args.save}: {error}")
    if args.html is not None and not Path(args.html).resolve().parent.is_dir():
        parser.error(f"--html: cannot write {args.html}: its folder does not exist")

    def bar_progress(bar):
        def progress(done: int, total: int) -> None:
            bar.total, bar.n = total, done
            bar.refresh()

        return progress

    with tqdm(desc="reviewing", unit="decision", leave=False, disable=None) as bar:
        result = review(
            text, args.seat, budget=args.budget, seed=args.seed, round=args.round,
            progress=bar_progress(bar),
        )  # fmt: skip
    beside = None
    if args.beside:
        from rummykit.evaluate.beside import beside_bots

        with tqdm(desc="beside the bots", unit="round", leave=False, disable=None) as bar:
            beside = beside_bots(
                text, args.seat, budget=args.budget, seed=args.seed, round=args.round,
                own=result, progress=bar_progress(bar),
            )  # fmt: skip
    print(result)
    if beside is not None:
        print(beside)
    print(result.mistakes_by_type())
    print(MARKS_LEGEND)
    for verdict in result.verdicts:
        loss, mark = verdict.loss, MARKS[verdict.kind][0]
        print(
            f"round {verdict.round:>2}  {verdict.phase:<12} "
            f"{action_words(verdict.played) + (' ' + mark if mark else ''):<30} "
            f"{verdict.kind:<10} loss {loss.mean:5.1f} [{loss.low:.1f}, {loss.high:.1f}]  "
            f"best: {action_words(verdict.best.action)}"
        )
    for number, _ in result.results:
        print(result.story(number))
    if args.html is not None:
        out = Path(args.html)
        page = review_page(result, beside=beside)
        _write_whole(parser, "--html", out, page)
        print(f"wrote {args.html}", file=sys.stderr)
    return 0


#: The puzzles in the book's set (``rummykit puzzles`` writes as many by default).
PUZZLE_COUNT = 240


def _puzzles(args, parser) -> int:
    import json

    import rummykit
    from rummykit.evaluate.puzzles import generate

    tqdm = require("tqdm", extra="analysis", feature="rummykit puzzles").tqdm
    out = Path(args.out)
    if not out.resolve().parent.is_dir():
        parser.error(f"--out: cannot write {args.out}: its folder does not exist")
    started = time.perf_counter()
    with tqdm(total=args.count, desc="finding", unit="puzzle", leave=False, disable=None) as bar:

        def progress(found: int, count: int) -> None:
            bar.n = found
            bar.refresh()

        found = generate(args.seed, args.count, budget=args.budget, progress=progress)
    seconds = time.perf_counter() - started
    document = {
        "provenance": {
            "command": f"rummykit puzzles --count {args.count} --seed {args.seed} "
            f"--budget {args.budget}",
            "seed": args.seed,
            "count": args.count,
            "budget": args.budget,
            "rules": "standard",
            "players": 4,
            "run_time_seconds": round(seconds, 1),
            "rummykit": rummykit.__version__,
        },
        "puzzles": [p.to_dict() for p in found],
    }
    # One line a puzzle: a regenerated set differs from the old by the lines that changed.
    lines = [json.dumps(p, ensure_ascii=False) for p in document["puzzles"]]
    text = (
        '{"provenance": ' + json.dumps(document["provenance"], ensure_ascii=False)
        + ',\n "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"
    )  # fmt: skip
    _write_whole(parser, "--out", out, text)
    print(f"wrote {len(found)} puzzles to {args.out} in {seconds:.1f} s", file=sys.stderr)
    return 0


def _simulate(args, parser) -> int:
    from rummykit.odds.dealt.simulate import simulate_dealt

    tqdm = require("tqdm", extra="analysis", feature="rummykit simulate").tqdm

    rules, contract, number, jokers, cards = _hand(args, parser)
    # A bar on a terminal only (disable=None): the hands dealt so far.
    with (
        _executor(args) as (executor, _),
        tqdm(
            total=args.n, desc="dealing", unit="hand", unit_scale=True, leave=False, disable=None
        ) as bar,
    ):
        estimate = simulate_dealt(
            contract,
            decks=args.decks,
            jokers=jokers,
            cards=cards,
            rules=rules,
            n=args.n,
            seed=args.seed,
            executor=executor,
            progress=lambda done, n: bar.update(done - bar.n),
        )
    p = float(estimate.p)
    low, high = float(estimate.ci_low), float(estimate.ci_high)
    method = f"simulated, n = {estimate.n:,}, seed {args.seed}"
    print(_title(rules, contract, number, args.decks, jokers, cards, method))
    print(f"P: {chance.estimate_text(p, low, high)}")
    print(
        f"  95% interval by Wilson's score; standard error {chance.stderr_text(estimate.stderr, p)}"
    )
    return 0


@contextlib.contextmanager
def _executor(args):
    """``(executor, facts)`` for a command's ``--dask`` and ``--workers``: the cluster's
    executor, or None (a local pool, or this process); facts are for the provenance."""
    if getattr(args, "dask", None) is None:
        from rummykit.odds.data.pool import default_workers

        workers = getattr(args, "workers", None) or default_workers()
        kind = "this process" if workers == 1 else "process pool"
        yield None, {"executor": kind, "workers": workers}
        return
    from rummykit.odds.data.cluster import dask_executor

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    require("distributed", extra="dask", feature="--dask")
    with _quiet_dask_log(), dask_executor(args.dask, wait=args.dask_wait, log=say) as cluster:
        watch = "" if cluster.dashboard is None else f" (dashboard {cluster.dashboard})"
        print(
            f"on the Dask cluster at {cluster.address}: {cluster.workers} "
            f"worker{'' if cluster.workers == 1 else 's'}, {cluster.threads} "
            f"thread{'' if cluster.threads == 1 else 's'}{watch}",
            file=sys.stderr,
            flush=True,
        )
        yield cluster.executor, cluster.facts()


@contextlib.contextmanager
def _quiet_dask_log():
    """Dask's own log lines, tracebacks among them, held back (CRITICAL only) for the
    command: a failure of the cluster is told in one line, its ClusterError."""
    import logging

    # Tornado runs Dask's event loop and logs the errors of its callbacks.
    names = [
        name
        for name in list(logging.root.manager.loggerDict)
        if name.partition(".")[0] in ("distributed", "tornado")
    ]
    # concurrent.futures logs a callback's error, such as a Dask task cancelled too late.
    loggers = [logging.getLogger(name) for name in [*names, "concurrent.futures"]]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _tables(args, parser) -> int:
    import os

    from rummykit import _native
    from rummykit.odds.data.checkpoint import Checkpoint
    from rummykit.odds.data.output import tidy
    from rummykit.odds.pipeline import (
        RECIPES,
        build_tables,
        check_memory,
        check_out,
        write_tables,
    )
    from rummykit.odds.play import completion

    if args.dask is not None and args.workers is not None:
        parser.error("give either --dask or --workers, not both (a cluster has its own workers)")
    # The places written are checked before any work (a bad one is an OutputError).
    out = check_out(args.out, args.only)
    recipe = RECIPES["quick" if args.quick else "default"]
    if args.n is not None:
        recipe = dataclasses.replace(recipe, n=args.n)
    if args.preset_n is not None:
        recipe = dataclasses.replace(recipe, preset_n=args.preset_n)
    check_memory(recipe, args.only)  # the records fit in memory (else an ArgumentError)
    say = functools.partial(print, file=sys.stderr, flush=True)
    tidy(out, say)
    # The command as recorded: only what changes the data (not --out, --workers ...).
    command = ["rummykit", "tables", "--seed", str(args.seed)]
    if args.quick:
        command.append("--quick")
    if args.n is not None:
        command += ["--n", str(args.n)]
    if args.preset_n is not None:
        command += ["--preset-n", str(args.preset_n)]
    started = time.perf_counter()
    checkpoint = None if args.checkpoint is None else Checkpoint(args.checkpoint, warn=say)
    with _executor(args) as (executor, how):
        tables = build_tables(
            recipe,
            seed=args.seed,
            only=args.only,
            executor=executor,
            max_workers=None if executor is not None else args.workers,
            progress=not args.no_progress,
            log=lambda message: print(message, file=sys.stderr, flush=True),
            checkpoint=checkpoint,
            play=completion.play_rounds if args.engine else completion.play_rounds_fastest,
        )
    elapsed = time.perf_counter() - started
    if args.engine or not _native.available()["table"]:
        played = "the engine and its bots (completion.play_rounds)"
    else:
        played = (
            "the compiled simulator (rummykit.odds.play.fastplay) for every cell whose rules it "
            "implements, else the engine: the same rounds (completion.play_rounds_fastest)"
        )
    run = {
        "seconds": round(elapsed, 1),
        "note": "the whole `rummykit tables` run, every table it wrote, up to writing them",
        "rounds_played_by": played,
        **how,
        "machine_cpus": os.cpu_count(),
    }
    if checkpoint is not None:
        run["checkpoint"] = {"chunks_reused": checkpoint.reused, "chunks_played": checkpoint.stored}
        print(
            f"checkpoint {args.checkpoint}: {checkpoint.reused} chunks reused, "
            f"{checkpoint.stored} played",
            file=sys.stderr,
        )
    written = write_tables(tables, out, " ".join(command), run=run)
    print(
        f"wrote {len(written)} files to {args.out} in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rummykit`` command with ``argv`` (default ``sys.argv[1:]``); the exit
    status is returned (0) or, for bad arguments, raised as ``SystemExit(2)``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = _parser()
    except MissingDependencyError as error:  # the options' defaults need rummykit.odds
        named = next((word for word in argv if word in ("odds", "simulate", "tables")), None)
        print(f"rummykit{'' if named is None else ' ' + named}: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    args, extra = parser.parse_known_args(argv)
    if extra:
        _unknown(parser, args, extra)
    command = {
        "odds": _odds,
        "simulate": _simulate,
        "tables": _tables,
        "review": _review,
        "puzzles": _puzzles,
    }[args.command]
    # SIGTERM (a `kill`, a batch system's time limit) unwinds like an interrupt, so the
    # local pool's workers and the Dask connection are stopped on the way out.
    handled = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if handled else None
    try:
        return command(args, args.parser)
    except RummyError as error:  # an extra missing, a cluster out of reach ...
        args.parser.exit(2, f"rummykit {args.command}: {error}\n")
    except (Terminated, KeyboardInterrupt) as stop:
        # Ctrl-C says what SIGTERM says, in one line: no traceback (issue 50 item 14).
        resume = (
            "; with --checkpoint DIR, run it again to resume" if args.command == "tables" else ""
        )
        by, status = (
            ("SIGTERM", TERMINATED_STATUS)
            if isinstance(stop, Terminated)
            else ("Ctrl-C", INTERRUPTED_STATUS)
        )
        args.parser.exit(
            status,
            f"rummykit {args.command}: stopped by {by}, its worker processes with it{resume}\n",
        )
    finally:
        if handled:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _unknown(parser: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]):
    """Refuse arguments the command does not take, with the command's usage (not the top
    level's), naming the other commands that take such an option."""
    own = getattr(args, "parser", None) or parser
    commands = next(
        action.choices
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    hints = []
    for word in extra:
        takers = [
            name
            for name, sub in commands.items()
            if word.split("=")[0] in sub._option_string_actions and sub is not own
        ]
        if word.startswith("-") and takers:
            listed = " and ".join(f"rummykit {name}" for name in takers)
            hints.append(f"{word.split('=')[0]} is an option of {listed}")
    hint = f" ({'; '.join(hints)})" if hints else ""
    own.error(f"unrecognized arguments: {' '.join(extra)}{hint}")


#: The exit status after SIGTERM: 128 + the signal's number, as a shell reports it.
TERMINATED_STATUS = 128 + signal.SIGTERM
#: The exit status after Ctrl-C (SIGINT), likewise.
INTERRUPTED_STATUS = 128 + signal.SIGINT


class Terminated(BaseException):
    """SIGTERM arrived during a command (a BaseException, as KeyboardInterrupt is: no
    ``except Exception`` stops it on its way out)."""


def _terminate(signum, frame) -> None:
    raise Terminated


if __name__ == "__main__":
    sys.exit(main())
