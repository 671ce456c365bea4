"""The ``rummykit`` command.

``rummykit odds``      exact probability that a dealt hand holds a contract
``rummykit simulate``  the same estimated by dealing hands, with its 95% interval
``rummykit tables``    regenerate ``data/``: every table as parquet + CSV + JSON provenance

A contract is given as its round under the rules (``--contract 5``) or in words
(``--contract "2 sets + 1 run"``, also ``2s1r``). Bad arguments, an unknown preset or a
hand the shoe cannot deal print a message and exit with status 2.

>>> main(["odds", "--contract", "1", "--decks", "1", "--jokers", "0", "--cards", "6"])
standard, round 1 contract (2 sets), 6 cards from 1 deck + 0 jokers (52 cards), exact
P = 12/195755
  = 0.00613%
  = 1 in 16,312.9
0
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import re
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from rummykit._optional import require
from rummykit.errors import MissingDependencyError, RummyError
from rummykit.rules import Contract, RuleSet

__all__ = ["DATA_SEED", "Recipe", "RECIPES", "build_tables", "main", "parse_contract"]

#: The seed of every simulation in the committed ``data/``.
DATA_SEED = 2026


# --------------------------------------------------------------------------------------
# What `rummykit tables` computes


@dataclasses.dataclass(frozen=True)
class Recipe:
    """The contents of ``data/``: which grids, how many rounds.

    With the default, the exact and distance tables take under a minute on two cores
    (44 s measured; every cell is counted, the slowest sweep being 1 set + 2 runs with
    3 decks and 14 cards, about 25 s; a cell whose count would take longer than
    ``exact_minutes`` is simulated from ``dealt_hands`` hands, see
    :func:`rummykit.odds.tables.counts_in_minutes`); the rest of the time goes to the
    9,800 simulated rounds (see ``benchmarks/bench_completion.py``).
    """

    n: int
    """Simulated rounds per cell."""
    players: tuple[int, ...]
    """Player counts of the completion tables (shoe as ``standard`` assigns)."""
    rounds: tuple[int, ...]
    """Rounds (contracts) of the completion and buying tables."""
    focus_players: int
    """The table of the buying-policy, joker-override and buying-value grids."""
    joker_overrides: tuple[int, ...]
    """Jokers in a 2-deck shoe for the override grid (``focus_players`` players)."""
    exact_rounds: tuple[int, ...]
    """Rounds (contracts) of the exact, jokers and per-preset tables."""
    exact_minutes: float
    """Cells whose exact count takes at most about this many minutes on one core are
    counted (:func:`rummykit.odds.tables.counts_in_minutes`), the others simulated."""
    dealt_hands: int
    """Hands dealt per cell of the dealt-odds tables where a contract mixing sets and
    runs is simulated (where exact counting would take longer)."""
    exact_shoes: tuple[tuple[int, int], ...]
    """(decks, jokers) of the exact table."""
    exact_cards: tuple[int, ...]
    """Hand sizes of the exact table."""
    joker_range: tuple[int, ...]
    """Jokers (2 decks) of the jokers table."""
    joker_cards: tuple[int, ...]
    """Hand sizes of the jokers table."""
    distance_rounds: tuple[int, ...]
    """Rounds of the distance table: the contracts whose distance sweep takes minutes at most."""
    distance_shoes: tuple[tuple[int, int], ...]
    """(decks, jokers) of the distance table."""
    distance_cards: tuple[int, ...]
    """Hand sizes of the distance table."""
    presets: tuple[str, ...]
    """Presets of the per-preset table (each round at its deal size, each shoe the
    preset uses)."""


RECIPES = {
    "default": Recipe(
        n=100,
        players=(2, 3, 4, 5, 6, 7, 8),
        rounds=(1, 2, 3, 4, 5, 6, 7),
        focus_players=4,
        joker_overrides=(0, 2, 8),
        exact_rounds=(1, 2, 3, 4, 5, 6, 7),
        exact_minutes=20,
        dealt_hands=100_000,
        exact_shoes=((1, 2), (2, 4), (3, 6), (2, 2)),
        exact_cards=(7, 10, 11, 12, 13, 14),
        joker_range=tuple(range(9)),
        joker_cards=(10, 12),
        distance_rounds=(1, 2, 3, 4, 7),
        distance_shoes=((2, 4), (3, 6)),
        distance_cards=(10, 12),
        presets=tuple(RuleSet.presets()),
    ),
    # A smoke test of the whole pipeline in seconds; never the committed data.
    "quick": Recipe(
        n=4,
        players=(2, 4),
        rounds=(1, 4),
        focus_players=3,
        joker_overrides=(0,),
        exact_rounds=(1, 2, 4),
        exact_minutes=1,
        dealt_hands=20_000,
        exact_shoes=((1, 2),),
        exact_cards=(7, 10),
        joker_range=(0, 2),
        joker_cards=(10,),
        distance_rounds=(1,),
        distance_shoes=((1, 2),),
        distance_cards=(10,),
        presets=("standard", "family"),
    ),
}

#: One line per data file, for the provenance.
DESCRIPTIONS = {
    "exact_odds": "P(a dealt hand holds the contract), standard, every contract x shoe x hand size; exact",
    "exact_jokers": "P(a dealt hand holds the contract), standard, 2 decks with 0-8 jokers; exact",
    "exact_presets": "P(the dealt hand holds the round's contract), each preset, round and shoe it uses; exact where a count takes at most 20 minutes (rummykit.odds.tables.exact_seconds), else simulated",
    "distance": "exact distribution of the contract distance of a dealt hand, standard, the contracts whose distance sweep takes minutes at most (rounds 1-4 and 7; not 2 sets + 1 run or 1 set + 2 runs)",
    "completion_by_turn": "simulated P(a seat has laid down by its t-th turn), P(someone out by go-around t)",
    "completion_summary": "simulated turns per round, points left, buys, contracts made",
    "seat_position": "simulated results by seat position (1 = left of the dealer)",
    "buying_value": "simulated value of buying: one seat's policy against greedy buyers, same deals",
}


def build_tables(
    recipe: Recipe,
    *,
    seed: int = DATA_SEED,
    only: Sequence[str] | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    log: Callable[[str], None] = lambda message: None,
) -> dict[str, tuple[object, dict]]:
    """Compute the tables of ``data/``: ``{name: (DataFrame, provenance)}``.

    ``only`` limits the work to some names of :data:`DESCRIPTIONS`. The provenance holds
    what the JSON file records except the command.
    """
    from rummykit.odds import completion
    from rummykit.odds.tables import (
        counts_in_minutes,
        dealt_odds,
        distance_odds,
        exact_cells,
        preset_cells,
    )

    wanted = set(DESCRIPTIONS if only is None else only)
    unknown = wanted - set(DESCRIPTIONS)
    if unknown:
        raise ValueError(f"unknown tables {sorted(unknown)}: choose from {', '.join(DESCRIPTIONS)}")
    results: dict[str, tuple[object, dict]] = {}
    workers = {"max_workers": max_workers, "progress": progress}

    def done(name: str, table, started: float, **facts) -> None:
        elapsed = time.perf_counter() - started
        log(f"{name}: {table.height} rows in {elapsed:.1f} s")
        results[name] = (table, {"run_time_seconds": round(elapsed, 1), **facts})

    standard = RuleSet.preset("standard")
    contracts = [standard.contracts[r - 1] for r in recipe.exact_rounds]
    # The three dealt-odds tables share sweeps: one pass computes each sweep once.
    dealt = {
        "exact_odds": exact_cells(
            contracts=contracts, shoes=recipe.exact_shoes, cards=recipe.exact_cards
        ),
        "exact_jokers": exact_cells(
            contracts=contracts,
            shoes=[(2, j) for j in recipe.joker_range],
            cards=recipe.joker_cards,
        ),
        "exact_presets": preset_cells(recipe.presets, rounds=recipe.exact_rounds),
    }
    dealt = {name: grid for name, grid in dealt.items() if name in wanted}
    if dealt:
        started = time.perf_counter()
        every = dealt_odds(
            [cell for grid in dealt.values() for cell in grid],
            method="auto",
            count=functools.partial(counts_in_minutes, minutes=recipe.exact_minutes),
            n=recipe.dealt_hands,
            seed=seed,
            **workers,
        )
        offset = 0
        for name, grid in dealt.items():
            rules_used = sorted({cell.rules.name for cell in grid}, key=RuleSet.presets().index)
            table = every.slice(offset, len(grid))
            simulated = (table["method"] == "simulation").any()
            facts = {
                "rules": rules_used,
                "seed": seed,
                "n": recipe.dealt_hands,
                # Exact where a count takes at most recipe.exact_minutes, else simulated.
                "method": "exact and simulation" if simulated else "exact",
                "n_note": "hands per simulated row (method 'simulation'); other rows are exact",
                "run_time_note": "one pass makes the exact_* tables",
            }
            done(name, table, started, **facts)
            offset += len(grid)
    if "distance" in wanted:
        started = time.perf_counter()
        table = distance_odds(
            contracts=[standard.contracts[r - 1] for r in recipe.distance_rounds],
            shoes=recipe.distance_shoes,
            cards=recipe.distance_cards,
            **workers,
        )
        facts = {"rules": ["standard"], "seed": None, "n": None, "method": "exact"}
        done("distance", table, started, **facts)

    simulated = wanted & {
        "completion_by_turn",
        "completion_summary",
        "seat_position",
        "buying_value",
    }
    if simulated:
        started = time.perf_counter()
        rounds = recipe.rounds
        focus = recipe.focus_players
        grid = completion.cells(players=recipe.players, rounds=rounds)
        grid += completion.cells(players=focus, rounds=rounds, buy=["never", "always"])
        grid += completion.cells(
            players=focus, rounds=rounds, decks=2, jokers=recipe.joker_overrides
        )
        buying = completion.buying_grid(players=focus, rounds=rounds)
        every = grid + [cell for arms in buying.values() for cell in arms.values()]
        records = completion.simulate_cells(every, n=recipe.n, seed=seed, **workers)
        tables = completion.tables_from_records(grid, records)
        tables["buying_value"] = completion.buying_rows_from_records(buying, records)
        facts = {
            "rules": ["standard"],
            "seed": seed,
            "n": recipe.n,
            "method": "simulation",
            "turn_limit_per_player": completion.TURN_LIMIT_PER_PLAYER,
            "run_time_note": "one sweep makes all four simulated tables",
        }
        for name in sorted(simulated):
            done(name, tables[name], started, **facts)
    return {name: results[name] for name in DESCRIPTIONS if name in results}


def write_tables(tables: dict[str, tuple[object, dict]], out: Path, command: str) -> list[Path]:
    """Write each table as ``name.parquet``, ``name.csv`` and ``name.json`` in ``out``.

    The data files hold no time or path, so the same command writes the same bytes;
    the run time is only in the JSON provenance.
    """
    import rummykit
    from rummykit.odds.tables import SCHEMAS

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (table, facts) in tables.items():
        table.write_parquet(out / f"{name}.parquet", statistics=False)
        table.write_csv(out / f"{name}.csv")
        provenance = {
            "table": name,
            "description": DESCRIPTIONS[name],
            "rummykit_version": rummykit.__version__,
            "command": command,
            "rows": table.height,
            "schema": {column: str(dtype) for column, dtype in SCHEMAS[name].items()},
            **facts,
        }
        (out / f"{name}.json").write_text(json.dumps(provenance, indent=1) + "\n")
        written += [out / f"{name}.{ext}" for ext in ("parquet", "csv", "json")]
    return written


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
    ValueError: standard has rounds 1-7, not 9
    """
    text = text.strip().lower()
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= rules.rounds:
            raise ValueError(f"{rules.name} has rounds 1-{rules.rounds}, not {number}")
        return rules.contracts[number - 1], number
    compact = text.replace(" ", "").replace("+", "").replace(",", "").replace("and", "")
    match = re.fullmatch(r"(?:(\d+)s(?:ets?)?)?(?:(\d+)r(?:uns?)?)?", compact)
    if not compact or match is None:
        raise ValueError(
            f"cannot read the contract {text!r}: give a round (1-{rules.rounds}) or words "
            f"such as '2 sets + 1 run' or '2s1r'"
        )
    contract = Contract(sets=int(match[1] or 0), runs=int(match[2] or 0))
    number = next((i + 1 for i, c in enumerate(rules.contracts) if c == contract), None)
    return contract, number


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def _natural(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummykit", description="Liverpool Rummy odds, simulations and data tables."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def hand_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--contract", required=True, help="a round (1-7) or words: '2 sets + 1 run', '2s1r'"
        )
        sub.add_argument(
            "--rules",
            default="standard",
            help=f"preset: {', '.join(RuleSet.presets())} (default standard)",
        )
        sub.add_argument("--decks", type=_positive, default=2, help="decks (default 2)")
        sub.add_argument(
            "--jokers",
            type=_natural,
            help="jokers in the shoe (default: as the rules give the decks)",
        )
        sub.add_argument(
            "--cards", type=_natural, help="cards in the hand (default: the round's deal size)"
        )

    odds = commands.add_parser("odds", help="exact probability that a dealt hand holds a contract")
    hand_options(odds)
    simulate = commands.add_parser("simulate", help="the same probability estimated by dealing")
    hand_options(simulate)
    simulate.add_argument(
        "--n", type=_positive, default=1_000_000, help="hands to deal (default 1,000,000)"
    )
    simulate.add_argument(
        "--seed", type=_natural, default=DATA_SEED, help=f"seed (default {DATA_SEED})"
    )
    tables = commands.add_parser("tables", help="regenerate data/ (parquet + CSV + JSON)")
    tables.add_argument("--out", type=Path, default=Path("data"), help="directory (default data)")
    tables.add_argument(
        "--seed",
        type=_natural,
        default=DATA_SEED,
        help=f"simulation seed (default {DATA_SEED}, the committed data)",
    )
    tables.add_argument(
        "--n", type=_positive, help=f"rounds per simulated cell (default {RECIPES['default'].n})"
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
    tables.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser


def _hand(args, parser) -> tuple[RuleSet, Contract, int | None, int, int]:
    try:
        rules = RuleSet.preset(args.rules)
        contract, number = parse_contract(args.contract, rules)
        jokers = rules.jokers_for(args.decks) if args.jokers is None else args.jokers
    except (RummyError, ValueError) as error:
        parser.error(str(error))
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


def _percent(p: float) -> str:
    if p == 0:
        return "0%"
    digits = max(2, 2 - math.floor(math.log10(p * 100)))
    return f"{p * 100:.{min(digits, 12)}f}%"


def _one_in(p: float) -> str:
    if p == 0:
        return "never"
    n = 1 / p
    return f"1 in {n:,.1f}" if n < 1e6 else f"1 in {n:,.0f}"


# --------------------------------------------------------------------------------------
# Commands


def _odds(args, parser) -> int:
    from rummykit.odds import dealt_probability

    tqdm = require("tqdm", extra="analysis", feature="rummykit odds").tqdm

    rules, contract, number, jokers, cards = _hand(args, parser)
    # A count of a contract mixing sets and runs takes a while: a bar on a terminal.
    with tqdm(desc="counting", unit="step", leave=False, disable=None) as bar:

        def progress(done: int, total: int) -> None:
            bar.total, bar.n = total, done
            bar.refresh()

        p: Fraction = dealt_probability(
            contract, decks=args.decks, jokers=jokers, cards=cards, rules=rules, progress=progress
        )
    print(_title(rules, contract, number, args.decks, jokers, cards, "exact"))
    print(f"P = {p}")
    print(f"  = {_percent(float(p))}")
    print(f"  = {_one_in(float(p))}")
    return 0


def _simulate(args, parser) -> int:
    from rummykit.odds.simulate import simulate_dealt

    rules, contract, number, jokers, cards = _hand(args, parser)
    estimate = simulate_dealt(
        contract,
        decks=args.decks,
        jokers=jokers,
        cards=cards,
        rules=rules,
        n=args.n,
        seed=args.seed,
    )
    p = float(estimate.p)
    low, high = float(estimate.ci_low), float(estimate.ci_high)
    method = f"simulated, n = {estimate.n:,}, seed {args.seed}"
    print(_title(rules, contract, number, args.decks, jokers, cards, method))
    print(f"P ~ {_percent(p)} (standard error {_percent(float(estimate.stderr))})")
    print(f"  95% interval (Wilson): {_percent(low)} to {_percent(high)}")
    print(f"  ~ {_one_in(p)}")
    return 0


def _tables(args, parser) -> int:
    recipe = RECIPES["quick" if args.quick else "default"]
    if args.n is not None:
        recipe = dataclasses.replace(recipe, n=args.n)
    # The command as recorded: only what changes the data (not --out, --workers ...).
    command = ["rummykit", "tables", "--seed", str(args.seed)]
    if args.quick:
        command.append("--quick")
    if args.n is not None:
        command += ["--n", str(args.n)]
    started = time.perf_counter()
    tables = build_tables(
        recipe,
        seed=args.seed,
        only=args.only,
        max_workers=args.workers,
        progress=not args.no_progress,
        log=lambda message: print(message, file=sys.stderr, flush=True),
    )
    written = write_tables(tables, args.out, " ".join(command))
    print(
        f"wrote {len(written)} files to {args.out} in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rummykit`` command with ``argv`` (default ``sys.argv[1:]``); the exit
    status is returned (0) or, for bad arguments, raised as ``SystemExit(2)``."""
    parser = _parser()
    args = parser.parse_args(argv)
    command = {"odds": _odds, "simulate": _simulate, "tables": _tables}[args.command]
    try:
        return command(args, parser)
    except MissingDependencyError as error:  # a base install: say which extra to add
        parser.exit(2, f"rummykit {args.command}: {error}\n")


if __name__ == "__main__":
    sys.exit(main())
