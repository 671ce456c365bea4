"""The ladder table of ``data/``: every bot of the engine rated by duplicate games.

:func:`ladder_table` plays the units of :func:`rummykit.evaluate.ladder.units` (one deal, one
pair of bots, every seat both ways: whole games) for each cell of a grid (a preset and
a player count), on a process pool or a Dask cluster, each unit kept in a checkpoint as
it finishes, and writes the long-form rows of :data:`LADDER_MEASURES`: each bot's
Bradley-Terry rating against the anchor (GreedyBot), each pair's paired differences,
and each bot's laid-down-by-turn curve in a seat among the other bot of a pair.

The roster (:data:`ROSTER`): RandomBot, GreedyBot (whose buying policy is BuyerBot's
``"improves"``), BuyerBot ``"never"`` and ``"always"``, OutsBot, and SearchBot at 16 and
64 samples a decision. A pair with a SearchBot or an OutsBot costs minutes of CPU a
deal (the engine plays OutsBot; SearchBot rolls out on the compiled core), so the
costly bots do not meet every other bot: :data:`SCHEDULE` plays every pair of the cheap
bots, each costly bot against GreedyBot, and SearchBot at 16 against OutsBot; through
GreedyBot they are all connected for the rating.

>>> frame, spent = ladder_table([("standard", 2)], roster=("greedy", "random"), deals=2,
...                             rounds=1, seed=1, progress=False, max_workers=1)
>>> frame.filter(measure="rating").select("bot", "value").rows()
[('greedy', 0.0), ('random', -2.197224577336219)]
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from concurrent.futures import Executor

import polars as pl

from rummykit.agents.bots import BuyerBot, GreedyBot, OutsBot, RandomBot
from rummykit.agents.searchbot import SearchBot
from rummykit.errors import ArgumentError
from rummykit.evaluate.estimate import interval
from rummykit.evaluate.ladder import Ladder, Unit, UnitResult, merge, play_unit, schedule, units
from rummykit.odds.data.checkpoint import Checkpoint, kept_sweep
from rummykit.odds.data.schemas import LADDER_SCHEMA, frame

__all__ = [
    "COSTLY",
    "LADDER_MEASURES",
    "ROSTER",
    "SCHEDULE",
    "ladder_rows",
    "ladder_table",
    "play_ladder_unit",
    "unit_from_json",
    "unit_to_json",
]

#: The bots of the ladder by name: factories ``(seed) -> Bot`` that pickle.
ROSTER = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "buyer never": functools.partial(BuyerBot, "never"),
    "buyer always": functools.partial(BuyerBot, "always"),
    "outs": OutsBot,
    "search 16": functools.partial(SearchBot, rollouts=16),
    "search 64": functools.partial(SearchBot, rollouts=64),
}

#: The bots that cost seconds a game (the others a tenth of one).
COSTLY = ("outs", "search 16", "search 64")

#: The pairs the ladder plays (see the module notes).
SCHEDULE = (
    *(
        (a, b)
        for i, a in enumerate(ROSTER)
        for b in list(ROSTER)[i + 1 :]
        if a not in COSTLY and b not in COSTLY
    ),
    *((bot, "greedy") for bot in COSTLY),
    ("search 16", "outs"),
)

#: The measures of the ladder table, by name.
LADDER_MEASURES = {
    "rating": "the bot's Bradley-Terry rating (natural log-odds of scoring better than "
    "the opponent, the anchor, in a duplicate pair; the anchor is 0), with its bootstrap "
    "95% interval",
    "elo": "the rating on the Elo scale (400 / ln 10 points per unit of log-odds)",
    "points": "points per game better than the opponent in the same seat of the same deal "
    "(the bot in one seat among the opponent, against the opponent in that seat among the "
    "bot)",
    "went out": "the share of rounds the bot went out first, minus the opponent's in the same seat",
    "laid down": "the share of rounds the bot laid its contract down within its first 8 "
    "turns, minus the opponent's in the same seat",
    "wins": "the share of duplicate pairs (a deal and a seat) in which the bot scored better "
    "than the opponent (a tie counts half)",
    "laid down by turn": "P(the bot, in one seat among copies of the opponent, has laid its "
    "contract down in ``round`` by its ``turn``-th turn)",
}

#: The turns of the laid-down-by-turn curve.
MAX_TURN = 20


def _roster(names: Sequence[str]) -> dict:
    unknown = [n for n in names if n not in ROSTER]
    if unknown or len(names) < 2:
        raise ArgumentError(
            f"roster: name at least two of {', '.join(ROSTER)}, got {list(names)!r:.120}"
        )
    return {n: ROSTER[n] for n in names}


def _pairs(names: Sequence[str]) -> list[tuple[str, str]] | None:
    """The pairs of :data:`SCHEDULE` among ``names``, or every pair where that does not
    connect them (a roster of cheap bots)."""
    chosen = [p for p in SCHEDULE if p[0] in names and p[1] in names]
    try:
        return schedule(_roster(names), chosen) if chosen else None
    except ArgumentError:
        return None


def unit_to_json(result: UnitResult) -> list:
    """A unit's result as JSON (a checkpoint's value, a recorded play)."""
    u = result.unit
    return [
        [u.deal, u.deal_seed, u.a, u.b],
        list(result.setting),
        result.games,
        [list(s) for s in result.seats],
        [[list(a), list(b)] for a, b in result.turns],
    ]


def unit_from_json(value: list) -> UnitResult:
    """The UnitResult of :func:`unit_to_json`.

    >>> from rummykit.evaluate.ladder import play_unit, units
    >>> roster = {"greedy": GreedyBot, "random": RandomBot}
    >>> played = play_unit(roster, units(roster, deals=1, seed=0)[0], players=2, rounds=1)
    >>> unit_from_json(unit_to_json(played)) == played
    True
    """
    unit, setting, games, seats, turns = value
    return UnitResult(
        Unit(*unit),
        tuple(setting),
        games,
        tuple(tuple(s) for s in seats),
        tuple((tuple(a), tuple(b)) for a, b in turns),
    )


def play_ladder_unit(
    rules: str, players: int, names: tuple[str, ...], unit: Unit, rounds: int | None
) -> tuple[list, float]:
    """Play one unit of a ladder cell (a sweep's task): its JSON and its CPU seconds."""
    start = time.process_time()
    result = play_unit(_roster(names), unit, rules=rules, players=players, rounds=rounds)
    return unit_to_json(result), time.process_time() - start


def _cost(names: Sequence[str], unit: Unit) -> int:
    """A unit's cost in tenths of a game's CPU, for the order of the tasks."""
    return sum(100 if n in COSTLY else 1 for n in (unit.a, unit.b))


def ladder_table(
    cells: Sequence[tuple[str, int]],
    *,
    roster: Sequence[str] = tuple(ROSTER),
    deals: int,
    seed: int,
    rounds: int | None = None,
    bootstrap: int = 1000,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    checkpoint: Checkpoint | None = None,
) -> tuple[pl.DataFrame, dict]:
    """The ladder of ``roster`` (names of :data:`ROSTER`) on ``deals`` duplicate deals of
    each cell ``(preset, players)``, its pairs those of :data:`SCHEDULE` among them
    (every pair where those do not connect them), whole games (or the first
    ``rounds``): the rows of :data:`~rummykit.odds.data.schemas.LADDER_SCHEMA`, and the CPU
    seconds of each cell and pair (``"standard 4: outs vs greedy"``). The units run on
    ``executor`` or a local pool of ``max_workers``, costly first, each kept in
    ``checkpoint`` as it finishes and not played again.
    """
    names = tuple(sorted(_roster(roster)))
    tasks, where = [], []
    for rules, players in cells:
        for unit in units(_roster(names), deals=deals, seed=seed, pairs=_pairs(names)):
            tasks.append((rules, players, names, unit, rounds))
            where.append((rules, players))
    # The costly units first, so that no worker is left with one at the end.
    order = sorted(range(len(tasks)), key=lambda i: -_cost(names, tasks[i][3]))
    played = kept_sweep(
        play_ladder_unit,
        [tasks[i] for i in order],
        fields=_fields,
        checkpoint=checkpoint,
        units=[_cost(names, tasks[i][3]) for i in order],
        executor=executor,
        max_workers=max_workers,
        progress=progress,
        description="ladder",
        unit="tenth-game",
    )
    kept = dict(zip(order, played, strict=True))
    by_cell: dict[tuple[str, int], list[UnitResult]] = {}
    spent: dict[str, float] = {}
    for i, (value, seconds) in sorted(kept.items()):
        result = unit_from_json(value)
        by_cell.setdefault(where[i], []).append(result)
        rules, players = where[i]
        key = f"{rules} {players}: {result.unit.a} vs {result.unit.b}"
        spent[key] = round(spent.get(key, 0.0) + seconds, 1)
    rows = []
    for results in by_cell.values():
        rows += ladder_rows(names, results, seed=seed, bootstrap=bootstrap)
    return frame(rows, LADDER_SCHEMA), spent


def _fields(task: tuple) -> dict:
    rules, players, names, unit, rounds = task
    return {
        "task": "ladder unit",
        "rules": rules,
        "players": players,
        "roster": list(names),
        "factories": [repr(ROSTER[n]) for n in names],
        "unit": [unit.deal, unit.deal_seed, unit.a, unit.b],
        "rounds": rounds,
    }


def ladder_rows(
    names: Sequence[str], results: Sequence[UnitResult], *, seed: int, bootstrap: int = 1000
) -> list[dict]:
    """The rows of one cell's units (:data:`LADDER_SCHEMA`): :meth:`Ladder.rows`, and the
    laid-down-by-turn curve of each bot among each opponent it met, each turn's share a
    mean over the deals (of the seats and rounds of a deal) with a 95% interval."""
    roster = _roster(names)
    result: Ladder = merge(
        roster, list(results), seed=seed, bootstrap=bootstrap, pairs=_pairs(names)
    )
    cell = {"rules": result.rules, "players": result.players, "round": None, "turn": None}
    measure = {"bradley-terry": "rating", "went_out": "went out", "laid_down": "laid down"}
    rows = []
    for row in result.rows():
        opponent = result.anchor if row["opponent"] == "rating" else row["opponent"]
        name = measure.get(row["measure"], row["measure"])
        rows.append({**cell, **row, "opponent": opponent, "measure": name})
    # Per (bot, opponent, deal): per round, the turns of laying down in its seats.
    curves: dict[tuple[str, str], dict[int, list[tuple[int, ...]]]] = {}
    for r in results:
        for mine, theirs in r.turns:
            curves.setdefault((r.unit.a, r.unit.b), {}).setdefault(r.unit.deal, []).append(mine)
            curves.setdefault((r.unit.b, r.unit.a), {}).setdefault(r.unit.deal, []).append(theirs)
    for (bot, opponent), deals in sorted(curves.items()):
        for number in range(result.rounds):
            for turn in range(1, MAX_TURN + 1):
                shares = [
                    sum(0 < seat[number] <= turn for seat in seats) / len(seats)
                    for seats in deals.values()
                ]
                e = interval(shares, (0, 1))
                rows.append(
                    {
                        **cell,
                        "bot": bot,
                        "opponent": opponent,
                        "measure": "laid down by turn",
                        "round": number + 1,
                        "turn": turn,
                        "value": e.mean,
                        "ci_low": e.low,
                        "ci_high": e.high,
                        "n": e.n,
                    }
                )
    return rows
