"""The pipeline of ``data/``, above the jobs that make its tables: the :class:`Recipe` of
the committed tables (:data:`RECIPES`), the table of jobs (:data:`JOBS`: each job, the
tables it makes, the function that makes them, the module it stands on and the options it
takes), :func:`build_tables`, which runs them, and :func:`write_tables`, which writes each
table as parquet, CSV and JSON provenance. ``rummykit tables`` runs it.

The jobs stand on :mod:`rummykit.odds.data` (the schemas, the planner, the process pool,
the cluster, the checkpoints and the safe writes), and this module stands on the jobs:
nothing below imports it.

>>> RECIPES["default"].n, DATA_SEED
(10000, 2026)
>>> sorted(DESCRIPTIONS)[:2]
['buying_value', 'completion_by_turn']
>>> [job.tables for job in JOBS][:2]
[('exact_odds', 'exact_jokers', 'exact_presets'), ('distance',)]
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING

from rummykit import _native
from rummykit._optional import require_analysis
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError
from rummykit.odds.cells import DEFAULT_SEED, TURN_LIMIT_PER_PLAYER

if TYPE_CHECKING:
    from rummykit.odds.data.checkpoint import Checkpoint

# The jobs need the analysis extra: importing the pipeline without it says what to install.
require_analysis()

__all__ = [
    "DATA_SEED",
    "DESCRIPTIONS",
    "JOBS",
    "RECIPES",
    "RECORD_BYTES",
    "RECORD_BYTES_PER_SEAT",
    "Job",
    "Recipe",
    "WHERE",
    "available_memory",
    "build_tables",
    "check_memory",
    "check_out",
    "completion_grids",
    "planned_bytes",
    "planned_memory",
    "preset_completion_cells",
    "wanted_tables",
    "write_tables",
]

#: The seed of every simulation in the committed ``data/`` (the odds package's default).
DATA_SEED = DEFAULT_SEED


@dataclasses.dataclass(frozen=True)
class Recipe:
    """The contents of ``data/``: which grids, how many rounds.

    With the default, the exact tables take under a minute on two cores (44 s
    measured; every cell is counted, the slowest sweep being 1 set + 2 runs with 3 decks
    and 14 cards, about 25 s; a cell whose count would take longer than
    ``exact_minutes`` is simulated from ``dealt_hands`` hands, see
    :func:`rummykit.odds.counting.tables.counts_in_minutes`). The distance table counts rounds
    1-4 and 7 and simulates rounds 5-6 from ``distance_hands`` hands a cell (8 cells at
    20,000-80,000 hands a CPU-second): about 180 s of CPU time in all on two workers
    (618 s of wall time when measured, the machine shared with other work). The rest of
    the time goes to the
    simulated rounds: ``n`` in each of 105 cells of ``standard`` (7 player counts x 7
    rounds, 35 more for the buying policies and jokers, 21 for buying value) and
    ``preset_n`` in each of 168 of the other presets, about 1.4 million rounds at the
    default's 10,000 and 2,000, played by the compiled simulator
    (:mod:`rummykit.odds.play.fastplay`, ``benchmarks/bench_completion.py``). The whole
    ``rummykit tables`` run took 537 s on the project's two cores (recorded in each
    JSON provenance under ``run``), before the OutsBot table: the engine plays its
    ``outs_rounds``, 1,608 CPU seconds more (:data:`OUTS_ROUNDS`).
    """

    n: int
    """Simulated rounds per cell of ``standard``."""
    players: tuple[int, ...]
    """Player counts of the completion tables (shoe as the rules assign)."""
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
    counted (:func:`rummykit.odds.counting.tables.counts_in_minutes`), the others simulated."""
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
    """Rounds of the distance table: exact where the contract's distance sweep takes
    minutes at most (:func:`rummykit.odds.counting.tables.distance_counts_quickly`), else
    simulated from ``distance_hands`` hands a cell."""
    distance_shoes: tuple[tuple[int, int], ...]
    """(decks, jokers) of the distance table."""
    distance_cards: tuple[int, ...]
    """Hand sizes of the distance table."""
    presets: tuple[str, ...]
    """Presets of the per-preset table (each round at its deal size, each shoe the
    preset uses)."""
    table_presets: tuple[str, ...] = ()
    """Presets besides ``standard`` in the completion tables (completion_by_turn,
    completion_summary, seat_position): each of ``players`` it allows, each of ``rounds``
    it has, its own shoes, greedy buyers."""
    preset_n: int = 100
    """Simulated rounds per cell of ``table_presets``."""
    distance_hands: int = 100_000
    """Hands dealt per simulated cell of the distance table (each distance counted by
    the compiled copy-limited ``contract_distance``, ``benchmarks/bench_distance.py``)."""
    outs_rounds: tuple[tuple[int, int], ...] = ()
    """(round, deals) of the OutsBot table (``focus_players`` players): each deal is
    played twice, with and without an OutsBot, and the engine plays OutsBot, whose
    decisions are hundreds of times slower than GreedyBot's (its two-draw chance most
    of all), so the costly rounds get fewer deals."""
    ladder_deals: int = 0
    """Duplicate deals of the ladder of every bot (``standard``, ``focus_players``
    players, whole games; :mod:`rummykit.odds.play.ladder_table`); 0: none."""
    ladder_grid: tuple[tuple[str, int], ...] = ()
    """(preset, players) of the smaller ladder: the cheap bots only (RandomBot, GreedyBot,
    BuyerBot), every pair, whole games."""
    ladder_grid_deals: int = 0
    """Duplicate deals of each cell of ``ladder_grid``."""
    search_decision_deals: int = 0
    """Deals of the table of SearchBot's choices beside GreedyBot's (``standard``,
    ``focus_players``, SearchBot's default budget in every seat of each, whole games;
    :mod:`rummykit.odds.play.search_decisions`)."""
    search_decision_rollouts: int | None = None
    """SearchBot's samples a decision in that table (None: its default)."""


#: (round, deals) of the committed OutsBot table: 1,000 deals, each played twice
#: (``rummykit tables --only outs_bot --workers 2``: 1,608 CPU seconds, 14 minutes on the
#: project's two cores). A round with one OutsBot takes about 1 s of CPU in rounds 1, 2, 4
#: and 6, 1.5 s in round 3, 2.3 s in round 7 and 3 s in round 5
#: (``benchmarks/bench_outsbot.py``), so rounds 3, 5, 6 and 7 get half the deals.
OUTS_ROUNDS = ((1, 200), (2, 200), (3, 100), (4, 200), (5, 100), (6, 100), (7, 100))

#: Deals of the committed ladder (standard, 4 players, every bot): a deal costs about
#: 620 CPU seconds (measured: SearchBot at 64 samples against GreedyBot 243 s, SearchBot
#: at 16 against OutsBot 183 s, OutsBot against GreedyBot 122 s, SearchBot at 16 against
#: GreedyBot 66 s, the cheap pairs about 1 s each), so 12 deals are about two hours of
#: CPU (an hour on the project's two cores).
LADDER_DEALS = 12
#: The smaller ladder's cells: standard at the other player counts up to 6, the other
#: presets at 4 (every preset plays 4).
LADDER_GRID = (
    ("standard", 2),
    ("standard", 3),
    ("standard", 5),
    ("standard", 6),
    ("pagat", 4),
    ("wikipedia", 4),
    ("bga", 4),
    ("family", 4),
)
#: Deals of each cell of the smaller ladder.
LADDER_GRID_DEALS = 10

#: Deals of the committed table of SearchBot's decisions: a game with one SearchBot at its
#: default budget (256 samples) takes about 50 CPU seconds, and each deal is 4 games.
SEARCH_DECISION_DEALS = 5

RECIPES = {
    "default": Recipe(
        n=10_000,
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
        distance_rounds=(1, 2, 3, 4, 5, 6, 7),
        distance_shoes=((2, 4), (3, 6)),
        distance_cards=(10, 12),
        presets=tuple(RuleSet.presets()),
        table_presets=("pagat", "wikipedia", "bga", "family"),
        preset_n=2_000,
        distance_hands=500_000,
        outs_rounds=OUTS_ROUNDS,
        ladder_deals=LADDER_DEALS,
        ladder_grid=LADDER_GRID,
        ladder_grid_deals=LADDER_GRID_DEALS,
        search_decision_deals=SEARCH_DECISION_DEALS,
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
        distance_rounds=(1, 5),
        distance_shoes=((1, 2),),
        distance_cards=(10,),
        presets=("standard", "family"),
        table_presets=("family",),
        preset_n=3,
        distance_hands=2_000,
        outs_rounds=((1, 2),),
        ladder_deals=0,
        ladder_grid=(("family", 2),),
        ladder_grid_deals=1,
        search_decision_deals=1,
        search_decision_rollouts=2,
    ),
}

#: One line per data file, for the provenance.
DESCRIPTIONS = {
    "exact_odds": "P(a dealt hand holds the contract), standard, every contract x shoe x hand size; exact",
    "exact_jokers": "P(a dealt hand holds the contract), standard, 2 decks with 0-8 jokers; exact",
    "exact_presets": "P(the dealt hand holds the round's contract), each preset, round and shoe it uses; exact where a count takes at most 20 minutes (rummykit.odds.tables.exact_seconds), else simulated",  # as data/ has it
    "distance": "distribution of the contract distance of a dealt hand (copies limited by the shoe), standard, every contract; exact where the distance sweep takes minutes at most (rounds 1-4 and 7), simulated with Wilson intervals for 2 sets + 1 run and 1 set + 2 runs (rounds 5-6)",
    "completion_by_turn": "simulated P(a seat has laid down by its t-th turn), P(someone out by go-around t)",
    "completion_summary": "simulated turns per round, points left, buys, contracts made",
    "seat_position": "simulated results by seat position (1 = left of the dealer)",
    "buying_value": "simulated value of buying: one seat's policy against greedy buyers, same deals",
    "outs_bot": "simulated OutsBot (discards by outs) against GreedyBot: one seat each way, the same deals; laid down by turn, went out, points",
    "ladder": "a ladder of the bots by duplicate whole games: Bradley-Terry ratings, paired differences per pair, laid down by turn per bot",
    "search_decisions": "SearchBot's choices beside GreedyBot's in the same positions (one SearchBot among GreedyBots, every seat of each deal, whole games): buys, draws, lay-downs, discards",
}


def preset_completion_cells(recipe: Recipe) -> list:
    """The completion cells of ``recipe.table_presets``: every player count of
    ``recipe.players`` each allows, every round of ``recipe.rounds`` it has.

    >>> cells = preset_completion_cells(RECIPES["default"])
    >>> len(cells), sorted({(c.rules.name, c.players) for c in cells})[:3]
    (168, [('bga', 2), ('bga', 3), ('bga', 4)])
    """
    from rummykit.odds.play import completion

    out = []
    for name in recipe.table_presets:
        rules = RuleSet.preset(name)
        players = [p for p in recipe.players if rules.min_players <= p <= rules.max_players]
        rounds = [r for r in recipe.rounds if r <= rules.rounds]
        out += completion.cells(rules=rules, players=players, rounds=rounds)
    return out


def completion_grids(recipe: Recipe) -> tuple[list, dict, list, list]:
    """The simulated cells of ``recipe``'s completion tables: ``(grid, buying, every,
    others)``, where ``grid`` holds the cells of standard's completion tables, ``buying``
    the arms of its buying-value table (:func:`rummykit.odds.play.completion.buying_grid`),
    ``every`` both (played ``recipe.n`` rounds each) and ``others`` the other presets'
    cells (:func:`preset_completion_cells`, ``recipe.preset_n`` rounds each).

    >>> grid, buying, every, others = completion_grids(RECIPES["default"])
    >>> len(grid), len(every), len(others)
    (84, 105, 168)
    """
    from rummykit.odds.play import completion

    rounds, focus = recipe.rounds, recipe.focus_players
    grid = completion.cells(players=recipe.players, rounds=rounds)
    grid += completion.cells(players=focus, rounds=rounds, buy=["never", "always"])
    grid += completion.cells(players=focus, rounds=rounds, decks=2, jokers=recipe.joker_overrides)
    buying = completion.buying_grid(players=focus, rounds=rounds)
    every = grid + [cell for arms in buying.values() for cell in arms.values()]
    return grid, buying, every, preset_completion_cells(recipe)


#: The memory one simulated round's record takes until the tables are made
#: (:class:`~rummykit.odds.cells.RoundRecord`), in bytes: this base plus
#: :data:`RECORD_BYTES_PER_SEAT` a player. Measured with :mod:`tracemalloc` over 20,000
#: rounds of standard: 408 bytes a round at 2 players, 472 at 4, 600 at 8 (``rounds 1 and
#: 7 alike``); the figures here round those up.
RECORD_BYTES = 360
#: See :data:`RECORD_BYTES`.
RECORD_BYTES_PER_SEAT = 35


def planned_memory(recipe: Recipe, only: Sequence[str] | None = None) -> int:
    """The memory, in bytes, that the round records of ``recipe``'s simulated tables
    (of ``only``, default all) are planned to take: every record is kept until the tables
    are made, :data:`RECORD_BYTES` + :data:`RECORD_BYTES_PER_SEAT` per player each.
    The exact and dealt tables hold no records, and the OutsBot table's deals are few.

    >>> f"{planned_memory(RECIPES['default']) / 1e6:.0f} MB"
    '722 MB'
    >>> planned_memory(RECIPES["default"], ["exact_odds"])
    0
    """
    wanted = set(DESCRIPTIONS if only is None else only)
    if not wanted & {"completion_by_turn", "completion_summary", "seat_position", "buying_value"}:
        return 0
    _, _, every, others = completion_grids(recipe)
    total = 0
    for cells, n in ((every, recipe.n), (others, recipe.preset_n)):
        total += n * sum(RECORD_BYTES + RECORD_BYTES_PER_SEAT * cell.players for cell in cells)
    return total


def available_memory() -> int | None:
    """The memory this machine has free for a new run, in bytes (``MemAvailable`` of
    ``/proc/meminfo``, else the free physical pages), or None where neither is known."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(recipe: Recipe, only: Sequence[str] | None = None) -> int:
    """:func:`planned_memory` of ``recipe``, checked before any work against the memory
    the machine has free (:func:`available_memory`): a run that would run out of memory
    after its hours of play is refused at once, an :class:`~rummykit.errors.ArgumentError`
    that gives the plan and the way round it.

    >>> check_memory(RECIPES["quick"]) < 1_000_000
    True
    """
    needed = planned_memory(recipe, only)
    free = available_memory()
    if free is not None and needed > free:
        rounds = needed // (RECORD_BYTES + 4 * RECORD_BYTES_PER_SEAT)
        raise ArgumentError(
            f"the simulated tables keep every round's record until they are made: about "
            f"{needed / 1e9:.1f} GB for n={recipe.n:,} and preset_n={recipe.preset_n:,} "
            f"(about {rounds:,} rounds), and this machine has {free / 1e9:.1f} GB free: "
            "give a smaller --n or --preset-n, or --only the tables you need"
        )
    return needed


#: The options of :func:`build_tables` that say where the work runs; every job takes them.
WHERE = ("executor", "max_workers", "progress")


def _dealt_tables(
    recipe: Recipe, seed: int, wanted: Sequence[str], **where
) -> Iterator[tuple[str, object, dict]]:
    """The dealt-odds tables (exact_odds, exact_jokers, exact_presets) of ``wanted``: they
    share their sweeps, so one pass makes them, each sweep computed once."""
    from rummykit.odds.counting.tables import (
        counts_in_minutes,
        dealt_odds,
        exact_cells,
        preset_cells,
    )

    standard = RuleSet.preset("standard")
    contracts = [standard.contracts[r - 1] for r in recipe.exact_rounds]
    grids = {
        "exact_odds": lambda: exact_cells(
            contracts=contracts, shoes=recipe.exact_shoes, cards=recipe.exact_cards
        ),
        "exact_jokers": lambda: exact_cells(
            contracts=contracts,
            shoes=[(2, j) for j in recipe.joker_range],
            cards=recipe.joker_cards,
        ),
        "exact_presets": lambda: preset_cells(recipe.presets, rounds=recipe.exact_rounds),
    }
    dealt = {name: grids[name]() for name in wanted}
    every = dealt_odds(
        [cell for grid in dealt.values() for cell in grid],
        method="auto",
        count=functools.partial(counts_in_minutes, minutes=recipe.exact_minutes),
        n=recipe.dealt_hands,
        seed=seed,
        **where,
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
        yield name, table, facts
        offset += len(grid)


def _distance_table(
    recipe: Recipe, seed: int, wanted: Sequence[str], **where
) -> Iterator[tuple[str, object, dict]]:
    """The distance table: exact where the contract's sweep takes minutes, else simulated."""
    from rummykit.odds.counting.tables import distance_odds

    standard = RuleSet.preset("standard")
    table = distance_odds(
        contracts=[standard.contracts[r - 1] for r in recipe.distance_rounds],
        shoes=recipe.distance_shoes,
        cards=recipe.distance_cards,
        method="auto",
        n=recipe.distance_hands,
        seed=seed,
        **where,
    )
    simulated = (table["method"] == "simulation").any()
    facts = {
        "rules": ["standard"],
        "seed": seed if simulated else None,
        "n": recipe.distance_hands if simulated else None,
        "method": "exact and simulation" if simulated else "exact",
        "n_note": "hands dealt per simulated cell (rows of method 'simulation': the "
        "contracts whose exact distance sweep would take hours); other rows are exact",
    }
    if simulated:
        # (The wording data/distance.json records: kept as it was when the core
        # moved to rummykit._native, so that the same run writes the same file.)
        facts["distances_by"] = (
            "the compiled contract_distance (rummykit._distance)"
            if _native.available()["distance"]
            else "Python (rummykit.engine.search)"
        )
    yield "distance", table, facts


def _simulated_tables(
    recipe: Recipe,
    seed: int,
    wanted: Sequence[str],
    *,
    play: Callable,
    chunk: int | None,
    checkpoint: Checkpoint | None,
    **where,
) -> Iterator[tuple[str, object, dict]]:
    """The tables of simulated rounds (buying_value, completion_by_turn,
    completion_summary, seat_position): one sweep of rounds makes all four."""
    from rummykit.odds.play import completion

    grid, buying, every, others = completion_grids(recipe)
    sweep = {"play": play, "checkpoint": checkpoint, "seed": seed, "chunk": chunk, **where}
    # Two sweeps, one per number of rounds; the cells of both are told apart by
    # their rules, and a round's seed does not depend on the sweep it is in.
    records = completion.simulate_cells(every, n=recipe.n, **sweep)
    if others:
        records |= completion.simulate_cells(others, n=recipe.preset_n, **sweep)
    tables = completion.tables_from_records(grid + others, records)
    tables["buying_value"] = completion.buying_rows_from_records(buying, records)
    facts = {
        "rules": ["standard", *recipe.table_presets],
        "seed": seed,
        "n": recipe.n,
        "preset_n": recipe.preset_n,
        "n_note": "rounds per cell of standard (n) and of the other presets (preset_n); "
        "buying_value is standard only",
        "method": "simulation",
        "turn_limit_per_player": TURN_LIMIT_PER_PLAYER,
        "run_time_note": "one sweep makes all four simulated tables",
    }
    for name in wanted:
        yield name, tables[name], facts


def _outs_bot_table(
    recipe: Recipe,
    seed: int,
    wanted: Sequence[str],
    *,
    play: Callable,
    chunk: int | None,
    checkpoint: Checkpoint | None,
    **where,
) -> Iterator[tuple[str, object, dict]]:
    """OutsBot against GreedyBot, one sweep per number of deals."""
    import polars as pl

    from rummykit.odds.play.outs_bot import outs_bot_table

    deals = sorted({n for _, n in recipe.outs_rounds}, reverse=True)
    parts = [
        outs_bot_table(
            players=recipe.focus_players,
            rounds=[r for r, k in recipe.outs_rounds if k == n],
            n=n,
            seed=seed,
            play=play,
            chunk=chunk,
            checkpoint=checkpoint,
            **where,
        )
        for n in deals
    ]
    # One sweep per number of deals; the rows in the order of the rounds.
    order = {r: i for i, (r, _) in enumerate(recipe.outs_rounds)}
    table = pl.concat(parts).sort(pl.col("round").replace_strict(order), maintain_order=True)
    facts = {
        "rules": ["standard"],
        "seed": seed,
        "n": dict(recipe.outs_rounds),
        "n_note": "deals per round (the n column); each is played twice: greedy bots only, "
        "and with an OutsBot in the seat under study (position index % players + 1)",
        "method": "simulation",
        "turn_limit_per_player": TURN_LIMIT_PER_PLAYER,
    }
    yield "outs_bot", table, facts


def _ladder_table(
    recipe: Recipe, seed: int, wanted: Sequence[str], *, checkpoint: Checkpoint | None, **where
) -> Iterator[tuple[str, object, dict]]:
    """The ladder of every bot (standard) and the smaller ladder of the cheap bots."""
    import polars as pl

    from rummykit.odds.play.ladder_table import COSTLY, ROSTER, ladder_table

    ladder = {"seed": seed, "checkpoint": checkpoint, **where}
    parts, spent = [], {}
    if recipe.ladder_deals:
        cell = [("standard", recipe.focus_players)]
        part, cost = ladder_table(cell, deals=recipe.ladder_deals, **ladder)
        parts.append(part)
        spent |= cost
    if recipe.ladder_grid:
        cheap = [n for n in ROSTER if n not in COSTLY]
        part, cost = ladder_table(
            recipe.ladder_grid, roster=cheap, deals=recipe.ladder_grid_deals, **ladder
        )
        parts.append(part)
        spent |= cost
    facts = {
        "rules": sorted({r for r, _ in recipe.ladder_grid} | {"standard"}),
        "seed": seed,
        "n": {"standard": recipe.ladder_deals, "grid": recipe.ladder_grid_deals},
        "n_note": "duplicate deals of the ladder of every bot (standard, "
        f"{recipe.focus_players} players) and of each cell of the smaller grid (the "
        "cheap bots); each deal plays 2 * players whole games per pair",
        "method": "simulation",
        "cpu_seconds": spent,
        "cpu_note": "CPU seconds of the units of each cell and pair (the compute behind "
        "each figure)",
    }
    yield "ladder", pl.concat(parts), facts


def _search_decisions_table(
    recipe: Recipe, seed: int, wanted: Sequence[str], *, checkpoint: Checkpoint | None, **where
) -> Iterator[tuple[str, object, dict]]:
    """SearchBot's choices beside GreedyBot's; none where the recipe plays no deals."""
    if not recipe.search_decision_deals:
        return
    from rummykit.odds.play.search_decisions import search_decisions_table

    table, seconds = search_decisions_table(
        deals=recipe.search_decision_deals,
        players=recipe.focus_players,
        rollouts=recipe.search_decision_rollouts,
        seed=seed,
        checkpoint=checkpoint,
        **where,
    )
    facts = {
        "rules": ["standard"],
        "seed": seed,
        "n": recipe.search_decision_deals,
        "n_note": f"deals, each played {recipe.focus_players} times (a SearchBot in each "
        "seat in turn, GreedyBots in the others)",
        "method": "simulation",
        "cpu_seconds": seconds,
        "cpu_note": "CPU seconds of the games",
    }
    yield "search_decisions", table, facts


@dataclasses.dataclass(frozen=True)
class Job:
    """One job of :func:`build_tables`: the tables of ``data/`` that one pass of work
    makes. Tables made in one pass share its work (the dealt-odds tables their sweeps, the
    simulated tables their rounds), so the job is the unit; no job reads another's tables,
    and :data:`JOBS` runs in its order, which is the order of the log."""

    name: str
    """The job, in words."""
    tables: tuple[str, ...]
    """The tables it makes (keys of :data:`DESCRIPTIONS`), in the order it makes them."""
    make: Callable[..., Iterator[tuple[str, object, dict]]]
    """``make(recipe, seed, wanted, **options)``: ``(name, table, facts)`` for each table
    of ``wanted`` (those of :attr:`tables` asked for, in that order) as it is made; the
    facts are what its JSON provenance records of it."""
    stands_on: str
    """The module that computes its tables."""
    options: tuple[str, ...] = WHERE
    """The options of :func:`build_tables` it is given, besides the recipe and the seed."""


#: Every table of ``data/`` by the job that makes it, in the order they run.
JOBS = (
    Job(
        "dealt odds, counted or simulated in one pass",
        ("exact_odds", "exact_jokers", "exact_presets"),
        _dealt_tables,
        "rummykit.odds.counting.tables",
    ),
    Job(
        "the contract distance of a dealt hand",
        ("distance",),
        _distance_table,
        "rummykit.odds.counting.tables",
    ),
    Job(
        "simulated rounds at the table, one sweep",
        ("buying_value", "completion_by_turn", "completion_summary", "seat_position"),
        _simulated_tables,
        "rummykit.odds.play.completion",
        (*WHERE, "play", "chunk", "checkpoint"),
    ),
    Job(
        "OutsBot against GreedyBot",
        ("outs_bot",),
        _outs_bot_table,
        "rummykit.odds.play.outs_bot",
        (*WHERE, "play", "chunk", "checkpoint"),
    ),
    Job(
        "the ladder of the bots",
        ("ladder",),
        _ladder_table,
        "rummykit.odds.play.ladder_table",
        (*WHERE, "checkpoint"),
    ),
    Job(
        "SearchBot's decisions beside GreedyBot's",
        ("search_decisions",),
        _search_decisions_table,
        "rummykit.odds.play.search_decisions",
        (*WHERE, "checkpoint"),
    ),
)


def wanted_tables(only: Sequence[str] | None = None) -> set[str]:
    """The tables ``only`` names (default: every table of :data:`DESCRIPTIONS`); an
    :class:`~rummykit.errors.ArgumentError` naming ``only`` for a name of no table.

    >>> sorted(wanted_tables(["ladder", "distance"]))
    ['distance', 'ladder']
    >>> wanted_tables(["odds"])
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: only: unknown tables ['odds']: choose from exact_odds, exact_jokers, exact_presets, distance, completion_by_turn, completion_summary, seat_position, buying_value, outs_bot, ladder, search_decisions
    """
    wanted = set(DESCRIPTIONS if only is None else only)
    unknown = wanted - set(DESCRIPTIONS)
    if unknown:
        raise ArgumentError(
            f"only: unknown tables {sorted(unknown)}: choose from {', '.join(DESCRIPTIONS)}"
        )
    return wanted


def build_tables(
    recipe: Recipe,
    *,
    seed: int = DATA_SEED,
    only: Sequence[str] | None = None,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    log: Callable[[str], None] = lambda message: None,
    play: Callable | None = None,
    chunk: int | None = None,
    checkpoint: Checkpoint | None = None,
) -> dict[str, tuple[object, dict]]:
    """Compute the tables of ``data/``: ``{name: (DataFrame, provenance)}``.

    ``only`` limits the work to some names of :data:`DESCRIPTIONS`. The provenance holds
    what the JSON file records except the command and the run. Every sweep runs on
    ``executor`` (a Dask cluster's, :mod:`rummykit.odds.data.cluster`) or a local pool of
    ``max_workers``; the tables are the same either way. The simulated rounds are
    played by ``play`` (default :func:`rummykit.odds.play.completion.play_rounds_fastest`) in tasks of
    ``chunk`` rounds (default :func:`rummykit.odds.play.completion.default_chunk`) and, with a
    ``checkpoint``, kept there as they finish and not played again. Each job of
    :data:`JOBS` with a table wanted runs in turn; ``log`` hears of each table made.
    """
    wanted = wanted_tables(only)
    check_memory(recipe, only)
    if play is None:
        from rummykit.odds.play import completion

        play = completion.play_rounds_fastest
    options = {
        "executor": executor,
        "max_workers": max_workers,
        "progress": progress,
        "play": play,
        "chunk": chunk,
        "checkpoint": checkpoint,
    }
    results: dict[str, tuple[object, dict]] = {}
    for job in JOBS:
        mine = [name for name in job.tables if name in wanted]
        if not mine:
            continue
        started = time.perf_counter()
        given = {option: options[option] for option in job.options}
        for name, table, facts in job.make(recipe, seed, mine, **given):
            elapsed = time.perf_counter() - started
            log(f"{name}: {table.height} rows in {elapsed:.1f} s")
            results[name] = (table, {"run_time_seconds": round(elapsed, 1), **facts})
    return {name: results[name] for name in DESCRIPTIONS if name in results}


def planned_bytes(names: Sequence[str] | None = None) -> int:
    """The room, in bytes, that writing the tables ``names`` (default all) is planned to
    take: twice the committed files' size (parquet, CSV, JSON), a margin for a larger
    ``--n``; 4 MB a table where ``data/`` is not installed.

    >>> planned_bytes(["exact_odds"]) < planned_bytes() < 20_000_000
    True
    """
    from rummykit.odds.data.schemas import data_directory

    total = 0
    for name in DESCRIPTIONS if names is None else names:
        files = [data_directory() / f"{name}.{ext}" for ext in ("parquet", "csv", "json")]
        found = [path.stat().st_size for path in files if path.is_file()]
        total += 2 * sum(found) if found else 4_000_000
    return total


def check_out(out: str | os.PathLike, names: Sequence[str] | None = None) -> Path:
    """``out`` checked before any work (:func:`rummykit.odds.data.output.check_output`: named,
    a folder or nothing, its parent writable, room for :func:`planned_bytes`); the
    absolute path, or an :class:`~rummykit.errors.OutputError` saying what is wrong."""
    from rummykit.odds.data.output import check_output

    return check_output(out, needed=planned_bytes(names))


def write_tables(
    tables: dict[str, tuple[object, dict]], out: Path, command: str, run: dict | None = None
) -> list[Path]:
    """Write each table as ``name.parquet``, ``name.csv`` and ``name.json`` in ``out``.

    The data files hold no time or path, so the same command writes the same bytes;
    the run time is only in the JSON provenance, with ``run`` (how the whole run was
    made: its time, the workers, the Dask address) under the key ``"run"``.

    ``out`` is replaced whole, by one atomic step (:mod:`rummykit.odds.data.output`): a reader
    sees every file of the old run or every file of the new one. The new folder is built
    beside ``out`` with the tables of this run and every other entry of ``out`` (the
    tables ``--only`` left out, a README) carried over. A failure leaves ``out`` as it
    was: an OSError (a full disk) is an :class:`~rummykit.errors.OutputError` that says
    where the computed tables are kept (``NAME.unwritten-TOKEN`` beside ``out``, with all
    of them pickled in ``tables.pickle`` if there is room).
    """
    import pickle

    import rummykit
    from rummykit.odds.data.output import write_generation
    from rummykit.odds.data.schemas import SCHEMAS

    check_out(out, list(tables))
    names = [f"{name}.{ext}" for name in tables for ext in ("parquet", "csv", "json")]

    def write(folder: Path) -> None:
        for name, (table, facts) in tables.items():
            table.write_parquet(folder / f"{name}.parquet", statistics=False)
            table.write_csv(folder / f"{name}.csv")
            provenance = {
                "table": name,
                "description": DESCRIPTIONS[name],
                "rummykit_version": rummykit.__version__,
                "command": command,
                "rows": table.height,
                "schema": {column: str(dtype) for column, dtype in SCHEMAS[name].items()},
                **facts,
            }
            if run is not None:
                provenance["run"] = run
            (folder / f"{name}.json").write_text(json.dumps(provenance, indent=1) + "\n")

    def rescue(kept: Path) -> str:
        saved = {"tables": tables, "command": command, "run": run}
        try:
            (kept / "tables.pickle").write_bytes(pickle.dumps(saved))
        except OSError:
            return " (there was no room to keep the others)"
        return (
            f", and every table in {str(kept / 'tables.pickle')!r} (write them with "
            "rummykit.odds.pipeline.write_tables(**pickle.load(file), out=PATH))"
        )

    write_generation(out, names, write, rescue=rescue)
    return [Path(out) / name for name in names]
