"""OutsBot against GreedyBot on the same deals: does discarding by outs lay down sooner
and win more?

Each round of a cell is played twice from the same seed, so with the same deal and
stock: once by greedy bots only (:class:`~rummykit.agents.bots.GreedyBot`'s policy, as
:func:`~rummykit.odds.play.completion.play_rounds_fastest` plays it) and once with the seat
under study, at position ``index % players + 1`` in round ``index`` (every position
equally often), played by an :class:`~rummykit.agents.bots.OutsBot` against the same greedy
opponents. The two plays are identical until that seat's first discard that differs.

Per cell and bot of the seat under study, the measures of :data:`OUTS_BOT_MEASURES`:
the laid-down-by-turn curve (Wilson 95% intervals) and the head to head against its
three opponents: how often it goes out (wins the round) and its points left against
theirs (normal 95% intervals). ``difference`` is the paired difference from the same
seat as a GreedyBot on the same deals.

OutsBot is the engine's bot (the compiled simulator plays GreedyBot only) and weighs the
outs of every discard at every turn before it lays down: a table with one OutsBot plays
about 37 (1 set + 2 runs) to 340 (2 sets + 1 run) times fewer rounds a second than one
of GreedyBots only (``benchmarks/bench_outsbot.py``).

>>> frame = outs_bot_table(rounds=1, n=2, seed=1, progress=False, max_workers=1)
>>> sorted(set(frame["bot"])), frame.filter(bot="greedy")["difference"].unique().to_list()
(['greedy', 'outs'], [0.0])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING

import polars as pl

from rummykit.agents.bots import OutsBot
from rummykit.engine.rules import RuleSet
from rummykit.evaluate.estimate import normal_interval
from rummykit.odds.cells import DEFAULT_SEED, Cell, RoundRecord
from rummykit.odds.data.schemas import OUTS_BOT_SCHEMA, frame
from rummykit.odds.play.completion import (
    _cell_columns,
    _mean,
    _proportion,
    cells,
    play_round,
    play_rounds_fastest,
    simulate_cells,
)

if TYPE_CHECKING:
    from rummykit.odds.data.checkpoint import Checkpoint

__all__ = [
    "OUTS_BOT_MEASURES",
    "game_difference",
    "outs_bot_rows",
    "outs_bot_table",
    "play_outs_rounds",
]

#: The measures of :func:`outs_bot_table`, each of the seat under study.
OUTS_BOT_MEASURES = {
    "laid down by turn": "the seat has laid down its contract by its turn-th turn (proportion)",
    "laid down": "the seat laid down its contract in the round (proportion)",
    "went out": "the seat went out, winning the round (proportion; 1/players if even)",
    "points left": "points left in the seat's hand at the end (lower is better)",
    "points minus opponents": "the seat's points left minus its opponents' mean (lower is better)",
}

_PROPORTIONS = ("laid down by turn", "laid down", "went out")


def play_outs_rounds(cell: Cell, seed: int, indices: Sequence[int]) -> list[RoundRecord]:
    """Play the rounds ``indices`` of ``cell`` with an :class:`~rummykit.agents.bots.OutsBot` at
    position ``index % players + 1`` and BuyerBots elsewhere: one task of a sweep.

    >>> cell = Cell(RuleSet.preset("standard"), players=2, round=1)
    >>> [r.index for r in play_outs_rounds(cell, 7, [3, 4])]
    [3, 4]
    """
    return [play_round(cell, seed, index, focal=OutsBot) for index in indices]


def _focal(records: Sequence[RoundRecord], players: int) -> list[dict]:
    """The measures of the seat under study in each round (by the round's index)."""
    out = []
    for record in records:
        k = record.index % players
        others = [p for j, p in enumerate(record.points) if j != k]
        out.append(
            {
                "laid on": record.laid_down[k],
                "turns": record.seat_turns[k],
                "laid down": float(record.laid_down[k] is not None),
                "went out": float(record.out == k + 1),
                "points left": float(record.points[k]),
                "points minus opponents": record.points[k] - sum(others) / len(others),
            }
        )
    return out


def _estimate(measure: str, values: list[float]) -> dict:
    return _proportion(values) if measure in _PROPORTIONS else _mean(values)


def outs_bot_rows(
    grid: Sequence[Cell],
    outs_records: dict[Cell, list[RoundRecord]],
    greedy_records: dict[Cell, list[RoundRecord]],
) -> pl.DataFrame:
    """The table of :func:`outs_bot_table` from the records of both plays of ``grid``
    (the same rounds of each cell, by index)."""
    rows = []
    for cell in dict.fromkeys(grid):
        arms = {
            "outs": _focal(outs_records[cell], cell.players),
            "greedy": _focal(greedy_records[cell], cell.players),
        }
        if len(arms["outs"]) != len(arms["greedy"]):
            raise ValueError(f"the two plays of {cell} hold different rounds")
        last = max(1, *(v["turns"] for values in arms.values() for v in values))
        # Per measure (and turn), the per-round values of each arm.
        series: dict[tuple[str, int | None], dict[str, list[float]]] = {}
        for bot, values in arms.items():
            for t in range(1, last + 1):
                laid = [float(v["laid on"] is not None and v["laid on"] <= t) for v in values]
                series.setdefault(("laid down by turn", t), {})[bot] = laid
            for measure in OUTS_BOT_MEASURES:
                if measure != "laid down by turn":
                    series.setdefault((measure, None), {})[bot] = [v[measure] for v in values]
        base = _cell_columns(cell)
        for bot in arms:
            for (measure, turn), by_bot in series.items():
                mine, reference = by_bot[bot], by_bot["greedy"]
                diff = _mean([a - b for a, b in zip(mine, reference, strict=True)])
                rows.append(
                    {
                        **base,
                        "bot": bot,
                        "opponents": "greedy",
                        "measure": measure,
                        "turn": turn,
                        **_estimate(measure, mine),
                        "method": "simulation",
                        "difference": diff["mean"],
                        "difference_stderr": diff["stderr"],
                        "difference_ci_low": diff["ci_low"],
                        "difference_ci_high": diff["ci_high"],
                    }
                )
    return frame(rows, OUTS_BOT_SCHEMA)


def outs_bot_table(
    *,
    rules: RuleSet | str = "standard",
    players: Iterable[int] | int = 4,
    rounds: Iterable[int] | int | None = None,
    n: int = 100,
    seed: int = DEFAULT_SEED,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    play: Callable[[Cell, int, list[int]], list[RoundRecord]] = play_rounds_fastest,
    chunk: int | None = None,
    checkpoint: Checkpoint | None = None,
) -> pl.DataFrame:
    """OutsBot against GreedyBot: ``n`` rounds of every cell (``rules``, ``players``,
    ``rounds``, the shoe the rules assign, greedy buying), each played with and without
    an OutsBot in the seat under study (see the module docstring). Schema
    :data:`~rummykit.odds.data.schemas.OUTS_BOT_SCHEMA`, one row per cell, bot, measure of
    :data:`OUTS_BOT_MEASURES` and turn.

    The greedy plays go through ``play`` (the compiled simulator by default; the
    records are the engine's either way), the OutsBot plays through the engine, both on
    ``executor`` or a local pool of ``max_workers`` in tasks of ``chunk`` rounds, kept in
    ``checkpoint`` as they finish (:func:`~rummykit.odds.play.completion.simulate_cells`).
    """
    grid = cells(rules=rules, players=players, rounds=rounds)
    sweep = {
        "n": n,
        "seed": seed,
        "executor": executor,
        "max_workers": max_workers,
        "progress": progress,
        "chunk": chunk,
        "checkpoint": checkpoint,
    }
    greedy = simulate_cells(grid, play=play, **sweep)
    outs = simulate_cells(grid, play=play_outs_rounds, **sweep)
    return outs_bot_rows(grid, outs, greedy)


def game_difference(table: pl.DataFrame, measure: str = "points minus opponents") -> dict:
    """The paired difference of a ``measure`` summed over the rounds of ``table`` (rows
    of bot "outs", one per round): what OutsBot in one seat changes over a game of those
    rounds, by linearity of expectation. The rounds' deals are independent (each round
    has its own seeds), so the variances add: a normal 95% interval.

    >>> rows = pl.DataFrame({"bot": ["outs"] * 2, "measure": ["points"] * 2, "round": [1, 2],
    ...                      "turn": [None, None], "difference": [-1.0, 3.0],
    ...                      "difference_stderr": [3.0, 4.0]})
    >>> game_difference(rows, "points")
    {'rounds': [1, 2], 'mean': 2.0, 'stderr': 5.0, 'ci_low': -7.8, 'ci_high': 11.8}
    """
    rows = table.filter(bot="outs", measure=measure).filter(pl.col("turn").is_null())
    rounds = rows["round"].to_list()
    if not rounds or len(set(rounds)) != len(rounds):
        raise ValueError(f"expected one row of {measure!r} per round, got rounds {rounds}")
    mean = float(rows["difference"].sum())
    stderr = float((rows["difference_stderr"] ** 2).sum()) ** 0.5
    # z = 1.96, as the book's figures were first computed.
    low, high = normal_interval(mean, stderr, z=1.96)
    return {
        "rounds": sorted(rounds),
        "mean": mean,
        "stderr": stderr,
        "ci_low": round(low, 6),
        "ci_high": round(high, 6),
    }
