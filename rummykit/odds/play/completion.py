"""Completion at a real table: how soon contracts are laid down when bots play rounds.

Exact counting answers "is the contract in the dealt hand?"; play adds draws, buys and
the other players. These functions play rounds with the engine's bots
(:class:`~rummykit.agents.bots.BuyerBot`, a GreedyBot with a buying policy) and measure:

* :func:`completion_by_turn`: the probability that a given seat has laid down its
  contract by its t-th turn, and that someone has gone out by the t-th go-around;
* :func:`round_summary`: how many turns a round lasts, points left in hand, buys, how
  often the contract is made at all;
* :func:`seat_position`: the same by position at the table (1 = left of the dealer,
  the first to play);
* :func:`buying_value`: what buying is worth: one seat plays each buying policy against
  greedy opponents on the same deals.

Words used in every table:

* **turn**: a seat's own turns are numbered 1, 2, ... from the deal. "By its t-th turn"
  includes the t-th turn. A **go-around** is one turn of every player; "someone has gone
  out by go-around t" means the round ended by going out within the first
  ``t * players`` turns.
* **position**: 1 for the player left of the dealer (who plays first), up to ``players``
  for the dealer. The dealer is drawn from the seed, so each seat is each position
  equally often.
* **cell**: one combination of rules, players, decks, jokers, round and buying policy.
  A round's deal and bots come from a seed derived from ``(seed, players, decks,
  jokers, round, index)`` only (:func:`round_seed`), so the buying policies, and a cell
  run alone or inside a large sweep on any number of workers, play the same deals.

Intervals are 95%: Wilson for proportions; for the probability pooled over the seats
of one round (which are not independent) the Wilson interval uses the effective sample
size of the round means; normal (mean +- 1.96 standard errors) for means.

>>> from rummykit.odds.play.completion import completion_by_turn
>>> frame = completion_by_turn(players=2, rounds=[1], n=4, seed=1, progress=False, max_workers=1)
>>> frame.columns[:6]
['rules', 'round', 'contract', 'decks', 'jokers', 'cards']
>>> sorted(set(frame["measure"]))
['anyone out', 'laid down']
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
from more_itertools import chunked

from rummykit.agents.bots import BUY_POLICIES
from rummykit.chance import wilson_interval
from rummykit.engine.checks import choice, instance, items, whole, wholes
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS, RuleSet
from rummykit.errors import ArgumentError
from rummykit.evaluate.estimate import normal_interval
from rummykit.odds.cells import (
    DEFAULT_SEED,
    Cell,
    RoundRecord,
    play_round,
)
from rummykit.odds.data.plan import MAX_ROUNDS
from rummykit.odds.data.pool import run_sweep
from rummykit.odds.data.schemas import (
    BUYING_SCHEMA,
    BY_TURN_SCHEMA,
    SEAT_SCHEMA,
    SUMMARY_SCHEMA,
    frame,
    resolve_rules,
)

if TYPE_CHECKING:
    from rummykit.odds.data.checkpoint import Checkpoint

__all__ = [
    "buying_value",
    "cells",
    "completion_by_turn",
    "default_chunk",
    "completion_tables",
    "play_round",
    "play_rounds",
    "play_rounds_fastest",
    "round_summary",
    "seat_position",
    "simulate_cells",
]


# --------------------------------------------------------------------------------------
# Grids and sweeps

#: Rounds simulated per task of a sweep, at least: small enough to balance the workers'
#: load in a small sweep.
CHUNK = 10

#: Tasks per cell, at most, in a large sweep: each task costs about a millisecond to
#: send and collect (4,000 empty tasks took 2.8 s on a local Dask cluster of 2 workers
#: and 5.7 s through a process pool of 2, start-up included, on the 2-core machine), so
#: 10,000 rounds a cell go in tasks of 200 rather than 1,000 tasks of 10.
TASKS_PER_CELL = 50


def default_chunk(n: int) -> int:
    """Rounds per task when a cell plays ``n`` rounds: :data:`CHUNK`, or more so that
    a cell makes at most :data:`TASKS_PER_CELL` tasks. (Chunks never change the records.)

    >>> default_chunk(100), default_chunk(10_000), default_chunk(2_001)
    (10, 200, 41)
    """
    return max(CHUNK, -(-n // TASKS_PER_CELL))


def cells(
    *,
    rules: RuleSet | str = "standard",
    players: Iterable[int] | int = range(2, 9),
    rounds: Iterable[int] | int | None = None,
    decks: Iterable[int] | int | None = None,
    jokers: Iterable[int] | int | None = None,
    buy: Iterable[str] | str = ("improves",),
) -> list[Cell]:
    """Every combination of the arguments as a :class:`Cell`, in that order.

    ``rounds`` defaults to every round of ``rules``; ``decks`` and ``jokers`` default
    to what the rules assign (None), or list the values to override them with.

    >>> [(c.players, c.decks, c.jokers) for c in cells(players=[4, 6], rounds=1)]
    [(4, 2, 4), (6, 3, 6)]
    >>> len(cells(players=4, rounds=[1, 7], jokers=[0, 4], buy=["never", "always"]))
    8
    """
    rules = resolve_rules(rules)
    players = wholes("players", players, low=1)
    rounds = (
        range(1, rules.rounds + 1)
        if rounds is None
        else wholes("rounds", rounds, low=1, high=rules.rounds)
    )
    decks = None if decks is None else wholes("decks", decks, low=1, high=MAX_DECKS)
    jokers = None if jokers is None else wholes("jokers", jokers, low=0, high=MAX_JOKERS)
    _check_buy(buy)
    out = []
    for p in _values(players):
        for r in _values(rounds):
            for d in _values(decks):
                for j in _values(jokers):
                    for b in _values(buy):
                        out.append(Cell(rules, p, r, decks=d, jokers=j, buy=b))
    return out


def _values(value) -> list:
    if value is None or isinstance(value, int | str):
        return [value]
    return list(value)


def play_rounds(cell: Cell, seed: int, indices: Sequence[int]) -> list[RoundRecord]:
    """Play the rounds ``indices`` of ``cell`` (:func:`play_round`): one task of a sweep.

    Any function of this signature that gives the same records can play a sweep's
    chunks (``simulate_cells(..., play=...)``); it must be a module-level function, as
    it travels to worker processes.

    >>> cell = Cell(RuleSet.preset("standard"), players=2, round=1)
    >>> [r.index for r in play_rounds(cell, 7, [3, 4])], play_rounds(cell, 7, [4])[0] == play_round(cell, 7, 4)
    ([3, 4], True)
    """
    return [play_round(cell, seed, index) for index in indices]


def play_rounds_fastest(cell: Cell, seed: int, indices: Sequence[int]) -> list[RoundRecord]:
    """:func:`play_rounds` by the fastest path that plays ``cell``'s rules exactly: the
    compiled round simulator (:func:`rummykit.odds.play.fastplay.play_rounds_fast`) where it
    is built and implements every option of the rules
    (:func:`~rummykit.odds.play.fastplay.fast_available`), else the engine and its bots. The
    records are the same either way (``tests/test_fastplay.py`` compares the two event by
    event); the default of every sweep.

    >>> cell = Cell(RuleSet.preset("standard"), players=3, round=2)
    >>> play_rounds_fastest(cell, 7, [0, 5]) == play_rounds(cell, 7, [0, 5])
    True
    """
    from rummykit.odds.play import fastplay  # (fastplay imports this module)

    if fastplay.fast_available(cell.rules):
        return fastplay.play_rounds_fast(cell, seed, indices)
    return play_rounds(cell, seed, indices)


def simulate_cells(
    grid: Sequence[Cell],
    *,
    n: int,
    seed: int = DEFAULT_SEED,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    play: Callable[[Cell, int, list[int]], list[RoundRecord]] = play_rounds_fastest,
    chunk: int | None = None,
    checkpoint: Checkpoint | None = None,
) -> dict[Cell, list[RoundRecord]]:
    """Play ``n`` rounds of every cell: ``{cell: [record of round 0, 1, ...]}``.

    The sweep runs through :func:`~rummykit.odds.data.pool.run_sweep` (on ``executor``, or a
    local pool of ``max_workers``) in tasks of ``chunk`` rounds (default
    :func:`default_chunk`), each played by ``play`` (default :func:`play_rounds_fastest`: the
    compiled simulator where it plays the rules, else the engine and its bots,
    :func:`play_rounds`); the records are the same whatever the play function, executor,
    workers and chunk size. With a
    :class:`~rummykit.odds.data.checkpoint.Checkpoint`, chunks it holds are not played again
    and each chunk played is added to it as it finishes.

    >>> grid = cells(players=2, rounds=1)
    >>> records = simulate_cells(grid, n=3, seed=5, max_workers=1, progress=False)
    >>> [r.index for r in records[grid[0]]]
    [0, 1, 2]
    >>> records == simulate_cells(grid, n=3, seed=5, max_workers=1, progress=False, chunk=2)
    True
    """
    whole("n", n, low=1, high=MAX_ROUNDS, hint="pool the records of several seeds for more")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer, got {seed!r}")
    chunk = default_chunk(n) if chunk is None else chunk
    if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
        raise ArgumentError(f"chunk must be a positive integer, got {chunk!r}")
    unique = list(dict.fromkeys(grid))
    tasks = [(cell, seed, indices) for cell in unique for indices in chunked(range(n), chunk)]
    results: list[list[RoundRecord] | None] = [None] * len(tasks)
    if checkpoint is not None:
        for i, task in enumerate(tasks):
            results[i] = checkpoint.get(*task, play)
    todo = [i for i, found in enumerate(results) if found is None]

    def finished(k: int, chunk_records: list[RoundRecord]) -> None:
        if checkpoint is not None:
            checkpoint.put(*tasks[todo[k]], play, chunk_records)

    played = run_sweep(
        play,
        [tasks[i] for i in todo],
        executor=executor,
        max_workers=max_workers,
        progress=progress,
        description="rounds",
        units=[len(tasks[i][2]) for i in todo],
        unit="round",
        on_result=finished,
    )
    for i, chunk_records in zip(todo, played, strict=True):
        results[i] = chunk_records
    records: dict[Cell, list[RoundRecord]] = {cell: [] for cell in unique}
    for (cell, *_), chunk_records in zip(tasks, results, strict=True):
        records[cell].extend(chunk_records)
    return records


# --------------------------------------------------------------------------------------
# Estimates


def _proportion(values: Sequence[float], *, seats: int = 1) -> dict:
    """A proportion from per-round values (each the fraction of ``seats`` seats).

    With several seats per round the seats are not independent: the Wilson interval
    uses the effective sample size p(1-p) / stderr**2 of the round means, kept between
    the number of rounds and the number of seat-rounds.
    """
    x = np.asarray(values, dtype=float)
    rounds = len(x)
    p = float(x.mean())
    sd = float(x.std(ddof=1)) if rounds > 1 else 0.0
    stderr = sd / math.sqrt(rounds)
    if seats == 1:
        n_eff = rounds
        stderr = math.sqrt(p * (1 - p) / rounds)
    elif 0 < p < 1:
        n_eff = rounds * seats if stderr == 0 else p * (1 - p) / stderr**2
        n_eff = min(rounds * seats, max(rounds, n_eff))
    else:
        n_eff = rounds
    low, high = wilson_interval(p * n_eff, n_eff)
    return {
        "mean": p,
        "sd": sd,
        "stderr": stderr,
        "ci_low": low,
        "ci_high": high,
        "n": rounds,
        "interval": "wilson",
    }


def _mean(values: Sequence[float]) -> dict:
    x = np.asarray(values, dtype=float)
    rounds = len(x)
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if rounds > 1 else 0.0
    stderr = sd / math.sqrt(rounds)
    low, high = normal_interval(mean, stderr)
    return {
        "mean": mean,
        "sd": sd,
        "stderr": stderr,
        "ci_low": low,
        "ci_high": high,
        "n": rounds,
        "interval": "normal",
    }


def _as_p(estimate: dict) -> dict:
    """A proportion estimate in the probability columns (``p``, ``p_exact`` ...)."""
    return {
        "p": estimate["mean"],
        "p_exact": None,
        "stderr": estimate["stderr"],
        "ci_low": estimate["ci_low"],
        "ci_high": estimate["ci_high"],
        "n": estimate["n"],
        "method": "simulation",
    }


def _cell_columns(cell: Cell) -> dict:
    return {
        "rules": cell.rules.name,
        "round": cell.round,
        "contract": str(cell.contract),
        "decks": cell.decks,
        "jokers": cell.jokers,
        "cards": cell.cards,
        "players": cell.players,
        "buy": cell.buy if isinstance(cell.buy, str) else "/".join(cell.buy),
    }


def _by_turn_rows(cell: Cell, records: Sequence[RoundRecord]) -> list[dict]:
    players = cell.players
    last = max(max(r.seat_turns) for r in records)
    base = _cell_columns(cell)
    # One array per measure, one row per round, so that each turn is a few array
    # operations: tens of thousands of rounds per cell take milliseconds.
    never = last + 1  # a seat that never laid down
    laid_on = np.array(
        [[never if x is None else x for x in r.laid_down] for r in records], dtype=np.int64
    )
    out_turns = np.array([r.turns if r.ended == "out" else -1 for r in records], dtype=np.int64)
    went_out = out_turns >= 0
    rows = []
    for t in range(1, max(last, 1) + 1):
        laid = (laid_on <= t).sum(axis=1) / players
        rows.append(
            {**base, "measure": "laid down", "turn": t, **_as_p(_proportion(laid, seats=players))}
        )
    for t in range(1, max(last, 1) + 1):
        out = (went_out & (out_turns <= t * players)).astype(float)
        rows.append({**base, "measure": "anyone out", "turn": t, **_as_p(_proportion(out))})
    return rows


#: The measures of :func:`round_summary`, each a mean over rounds (proportions marked).
SUMMARY_MEASURES = {
    "turns": "turns in the round, all players together",
    "go-arounds": "turns per player (turns / players)",
    "points left": "points left in a hand at the end (mean over seats)",
    "buys": "buys per player",
    "laid down": "proportion of seats that laid down their contract (proportion)",
    "went out": "proportion of rounds ended by a player going out (proportion)",
    "turn limit": "proportion of rounds stopped by the safety turn limit (proportion)",
}


def _summary_rows(cell: Cell, records: Sequence[RoundRecord]) -> list[dict]:
    players = cell.players
    base = _cell_columns(cell)
    estimates = {
        "turns": _mean([r.turns for r in records]),
        "go-arounds": _mean([r.turns / players for r in records]),
        "points left": _mean([sum(r.points) / players for r in records]),
        "buys": _mean([sum(r.buys) / players for r in records]),
        "laid down": _proportion(
            [sum(x is not None for x in r.laid_down) / players for r in records], seats=players
        ),
        "went out": _proportion([float(r.ended == "out") for r in records]),
        "turn limit": _proportion([float(r.ended == "limit") for r in records]),
    }
    return [{**base, "measure": m, **e, "method": "simulation"} for m, e in estimates.items()]


#: The measures of :func:`seat_position` and :func:`buying_value`, per seat.
SEAT_MEASURES = {
    "laid down": "the seat laid down its contract (proportion)",
    "went out": "the seat went out (proportion)",
    "points left": "points left in the seat's hand at the end",
    "buys": "buys the seat made",
}


def _seat_values(record: RoundRecord, k: int) -> dict[str, float]:
    """The :data:`SEAT_MEASURES` of position ``k`` (0-based) in one round."""
    return {
        "laid down": float(record.laid_down[k] is not None),
        "went out": float(record.out == k + 1),
        "points left": float(record.points[k]),
        "buys": float(record.buys[k]),
    }


def _estimate(measure: str, values: Sequence[float]) -> dict:
    return _proportion(values) if measure in ("laid down", "went out") else _mean(values)


def _seat_arrays(records: Sequence[RoundRecord], players: int) -> dict[str, np.ndarray]:
    """:func:`_seat_values` of every round and position at once: ``(rounds, players)``."""
    return {
        "laid down": np.array([[x is not None for x in r.laid_down] for r in records], float),
        "went out": np.array([r.out or 0 for r in records])[:, None] == np.arange(1, players + 1),
        "points left": np.array([r.points for r in records], float),
        "buys": np.array([r.buys for r in records], float),
    }


def _seat_rows(cell: Cell, records: Sequence[RoundRecord]) -> list[dict]:
    base = _cell_columns(cell)
    values = _seat_arrays(records, cell.players)
    rows = []
    for k in range(cell.players):
        for m in SEAT_MEASURES:
            estimate = _estimate(m, values[m][:, k].astype(float))
            rows.append(
                {**base, "position": k + 1, "measure": m, **estimate, "method": "simulation"}
            )
    return rows


def _buying_arms(base: Cell, policies: Sequence[str], opponents: str) -> dict[str, Cell]:
    opponent_policies = (opponents,) * (base.players - 1)
    return {
        policy: dataclasses.replace(base, buy=(policy, *opponent_policies), rotate=True)
        for policy in policies
    }


def _buying_rows(base: Cell, arms: dict[str, Cell], records: dict) -> list[dict]:
    players = base.players

    def focal(cell: Cell) -> list[dict[str, float]]:
        return [_seat_values(r, r.index % players) for r in records[cell]]

    values = {policy: focal(cell) for policy, cell in arms.items()}
    reference = values.get("never")
    rows = []
    for policy in arms:
        base_columns = {**_cell_columns(base), "buy": policy, "opponents": base.buy}
        for m in SEAT_MEASURES:
            mine = [v[m] for v in values[policy]]
            row = {**base_columns, "measure": m, **_estimate(m, mine), "method": "simulation"}
            if reference is not None:
                diff = _mean([a - b[m] for a, b in zip(mine, reference, strict=True)])
                row |= {
                    "difference": diff["mean"],
                    "difference_stderr": diff["stderr"],
                    "difference_ci_low": diff["ci_low"],
                    "difference_ci_high": diff["ci_high"],
                }
            rows.append(row)
    return rows


# --------------------------------------------------------------------------------------
# The public tables


def _check_buy(buy, name: str = "buy") -> None:
    items(
        name,
        [buy] if isinstance(buy, str) else buy,
        lambda label, policy: choice(label, policy, BUY_POLICIES),
        what="a buying policy or a list of them",
    )


def completion_tables(
    *,
    rules: RuleSet | str = "standard",
    players: Iterable[int] | int = range(2, 9),
    rounds: Iterable[int] | int | None = None,
    decks: Iterable[int] | int | None = None,
    jokers: Iterable[int] | int | None = None,
    buy: Iterable[str] | str = ("improves",),
    n: int = 200,
    seed: int = DEFAULT_SEED,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
) -> dict[str, pl.DataFrame]:
    """Simulate the grid once and return its three tables, keyed by their ``data/`` names:
    ``"completion_by_turn"`` (:func:`completion_by_turn`), ``"completion_summary"``
    (:func:`round_summary`) and ``"seat_position"`` (:func:`seat_position`).

    The grid is every combination of ``players``, ``rounds``, ``decks``, ``jokers``
    (None: as the rules assign) and ``buy`` (policies of :class:`~rummykit.agents.bots.BuyerBot`,
    played by every seat), as :func:`cells` builds it; ``n`` rounds per cell from
    ``seed``; the sweep runs on ``executor`` or a local pool of ``max_workers``.
    """
    _check_buy(buy)
    grid = cells(rules=rules, players=players, rounds=rounds, decks=decks, jokers=jokers, buy=buy)
    records = simulate_cells(
        grid, n=n, seed=seed, executor=executor, max_workers=max_workers, progress=progress
    )
    return tables_from_records(grid, records)


def tables_from_records(
    grid: Sequence[Cell], records: dict[Cell, list[RoundRecord]]
) -> dict[str, pl.DataFrame]:
    """The tables of :func:`completion_tables` from simulated ``records`` of ``grid``."""
    grid = list(dict.fromkeys(grid))
    return {
        "completion_by_turn": frame(
            (row for cell in grid for row in _by_turn_rows(cell, records[cell])), BY_TURN_SCHEMA
        ),
        "completion_summary": frame(
            (row for cell in grid for row in _summary_rows(cell, records[cell])), SUMMARY_SCHEMA
        ),
        "seat_position": frame(
            (row for cell in grid for row in _seat_rows(cell, records[cell])), SEAT_SCHEMA
        ),
    }


def completion_by_turn(**options) -> pl.DataFrame:
    """P(a given seat has laid down by its t-th turn) and P(someone has gone out by
    go-around t), by rules, round (contract), decks, jokers, players and buying policy.

    Takes the options of :func:`completion_tables`; schema
    :data:`~rummykit.odds.data.schemas.BY_TURN_SCHEMA`, one row per cell, measure and turn,
    up to the most turns any seat of the cell played. A seat whose round ended before
    its t-th turn counts as not laid down by then (the probabilities are of having laid
    down at all by that turn). ``p`` pools the seats; its Wilson interval allows for
    seats of one round not being independent (see the module docstring).

    >>> frame = completion_by_turn(players=3, rounds=1, n=6, seed=3, progress=False,
    ...                            max_workers=1)
    >>> frame.filter(measure="laid down")["p"].is_sorted()
    True
    """
    return completion_tables(**options)["completion_by_turn"]


def round_summary(**options) -> pl.DataFrame:
    """How a round goes, one row per cell and measure of :data:`SUMMARY_MEASURES`:
    turns it lasts, points left in hand, buys, how often contracts are made.

    Takes the options of :func:`completion_tables`; schema
    :data:`~rummykit.odds.data.schemas.SUMMARY_SCHEMA`.
    """
    return completion_tables(**options)["completion_summary"]


def seat_position(**options) -> pl.DataFrame:
    """Does seat position matter? The :data:`SEAT_MEASURES` by position (1 = left of the
    dealer, first to play), one row per cell, position and measure.

    Takes the options of :func:`completion_tables`; schema
    :data:`~rummykit.odds.data.schemas.SEAT_SCHEMA`.
    """
    return completion_tables(**options)["seat_position"]


def buying_grid(
    *,
    rules: RuleSet | str = "standard",
    players: Iterable[int] | int = 4,
    rounds: Iterable[int] | int | None = None,
    decks: Iterable[int] | int | None = None,
    jokers: Iterable[int] | int | None = None,
    policies: Sequence[str] = BUY_POLICIES,
    opponents: str = "improves",
) -> dict[Cell, dict[str, Cell]]:
    """The cells :func:`buying_value` plays: ``{base cell: {policy: cell}}``."""
    _check_buy(policies, "policies")
    _check_buy(instance("opponents", opponents, str, "a buying policy"), "opponents")
    bases = cells(
        rules=rules, players=players, rounds=rounds, decks=decks, jokers=jokers, buy=opponents
    )
    return {base: _buying_arms(base, policies, opponents) for base in bases}


def buying_rows_from_records(grid: dict[Cell, dict[str, Cell]], records: dict) -> pl.DataFrame:
    """The table of :func:`buying_value` from the simulated ``records`` of ``grid``."""
    rows = [row for base, arms in grid.items() for row in _buying_rows(base, arms, records)]
    return frame(rows, BUYING_SCHEMA)


def buying_value(
    *,
    rules: RuleSet | str = "standard",
    players: Iterable[int] | int = 4,
    rounds: Iterable[int] | int | None = None,
    decks: Iterable[int] | int | None = None,
    jokers: Iterable[int] | int | None = None,
    policies: Sequence[str] = BUY_POLICIES,
    opponents: str = "improves",
    n: int = 200,
    seed: int = DEFAULT_SEED,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
) -> pl.DataFrame:
    """What buying is worth: one seat buys by each policy against ``opponents``.

    For every cell of the grid and policy, ``n`` rounds are played on the same deals
    (the seeds do not depend on the policy); the seat under study moves one position
    each round, so it sits at every position equally often. One row per cell, policy
    and measure of :data:`SEAT_MEASURES`, schema
    :data:`~rummykit.odds.data.schemas.BUYING_SCHEMA`; ``difference`` is the paired
    difference from the policy ``"never"``.

    >>> frame = buying_value(players=3, rounds=1, n=3, seed=1, progress=False, max_workers=1)
    >>> frame.filter(buy="never")["difference"].to_list()
    [0.0, 0.0, 0.0, 0.0]
    """
    grid = buying_grid(
        rules=rules,
        players=players,
        rounds=rounds,
        decks=decks,
        jokers=jokers,
        policies=policies,
        opponents=opponents,
    )
    every = [cell for arms in grid.values() for cell in arms.values()]
    records = simulate_cells(
        every, n=n, seed=seed, executor=executor, max_workers=max_workers, progress=progress
    )
    return buying_rows_from_records(grid, records)
