"""The committed completion curves, read with the standard library only.

``data/completion_by_turn`` (a polars table) holds, for every table the book simulated,
the chance that a seat has laid its contract down by its t-th turn. The simulation
explorer's "At the table" panel reads it with polars; the book's live notebooks run in
the reader's browser (Pyodide), which has no polars, so this module reads the same
numbers from ``rummykit/odds/known_completion.json``, a data file of the package extracted
from the committed CSV file: one row ``[rules, round, contract, players, decks, jokers, n,
p, ci_low, ci_high]`` per table (the seats buying when it helps: the panel's tables), the
last three lists over the turns from the first, to :data:`DIGITS` decimals. ``make tables`` writes it after ``rummykit tables``
(``python -m rummykit.odds.known_completion``); a test checks it against the polars table.

>>> from rummykit import RuleSet
>>> curve = committed_curve(RuleSet.preset("standard"), players=4, round=1, decks=2, jokers=4)
>>> curve.contract, curve.n, curve.seed, curve.points[0].turn
('2 sets', 10000, 2026, 1)
>>> 0 < curve.points[0].p < curve.points[-1].p <= 1
True
>>> committed_curve(RuleSet.preset("standard"), players=4, round=1, decks=1, jokers=3) is None
True
"""

from __future__ import annotations

import csv
import functools
import json
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rummykit.chance import wilson_interval
from rummykit.engine.checks import path as check_path
from rummykit.engine.checks import whole
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "KNOWN_COMPLETION_FILE",
    "Curve",
    "CurvePoint",
    "committed_curve",
    "curve_of_rounds",
    "extract",
    "write",
]

#: The package data file holding the extract.
KNOWN_COMPLETION_FILE = "known_completion.json"
#: The committed table it is extracted from, and the rows it keeps.
TABLE = "completion_by_turn"
MEASURE = "laid down"
BUY = "improves"
#: Decimals kept of each probability (the table's intervals are about 0.01 wide).
DIGITS = 4


@dataclass(frozen=True)
class CurvePoint:
    """P(a seat has laid down by its ``turn``-th turn), with its 95% interval."""

    turn: int
    p: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class Curve:
    """One table's completion curve, as the committed table has it."""

    rules: str
    round: int
    contract: str
    players: int
    decks: int
    jokers: int
    n: int
    """Rounds simulated."""
    seed: int | None
    """The simulation's base seed (the table's provenance)."""
    points: tuple[CurvePoint, ...]
    """Turn by turn, from the first."""


def extract(data: Path) -> dict:
    """The rows of ``data/completion_by_turn.csv`` this module reads (measure "laid down",
    greedy buying), sorted, as the JSON object :func:`write` stores, with the table's
    seed. An ArgumentError when the CSV file is missing."""
    data = Path(check_path("data", data))
    path = data / f"{TABLE}.csv"
    if not path.is_file():
        raise ArgumentError(f"data: the table {TABLE} has no CSV file at {path}")
    tables: dict[tuple, dict] = {}
    with path.open(newline="") as file:
        for row in csv.DictReader(file):
            if row["measure"] != MEASURE or row["buy"] != BUY:
                continue
            key = (
                row["rules"],
                int(row["round"]),
                row["contract"],
                int(row["players"]),
                int(row["decks"]),
                int(row["jokers"]),
                int(row["n"]),
            )
            turns = tables.setdefault(key, {})
            turns[int(row["turn"])] = [
                round(float(row[k]), DIGITS) for k in ("p", "ci_low", "ci_high")
            ]
    rows = []
    for key, turns in sorted(tables.items()):
        if sorted(turns) != list(range(1, len(turns) + 1)):
            raise ArgumentError(f"data/{TABLE}: the turns of {key[:6]} are not 1, 2, ...")
        figures = [turns[t] for t in range(1, len(turns) + 1)]
        rows.append([*key, *(list(column) for column in zip(*figures, strict=True))])
    notes = path.with_suffix(".json")
    seed = json.loads(notes.read_text())["seed"] if notes.is_file() else None
    return {
        "about": f"P(a seat has laid down by its t-th turn), t = 1, 2, ..., from data/{TABLE} "
        f"(buy {BUY!r}): rules, round, contract, players, decks, jokers, n, p, ci_low, ci_high",
        "seed": seed,
        "rows": rows,
    }


def write(data: Path, path: Path) -> int:
    """Write the extract of the table in ``data`` to ``path``; return its row count."""
    path = check_path("path", path)
    table = extract(data)
    text = json.dumps(table, separators=(",", ":")).replace('],["', '],\n["')
    Path(path).write_text(text + "\n")
    return len(table["rows"])


@functools.cache
def _curves() -> dict[tuple[str, int, int, int, int], Curve]:
    document = json.loads(
        resources.files("rummykit.odds").joinpath(KNOWN_COMPLETION_FILE).read_text()
    )
    curves = {}
    for rules, number, contract, players, decks, jokers, n, p, low, high in document["rows"]:
        points = tuple(
            CurvePoint(t, *figures) for t, figures in enumerate(zip(p, low, high, strict=True), 1)
        )
        curves[rules, number, players, decks, jokers] = Curve(
            rules, number, contract, players, decks, jokers, n, document["seed"], points
        )
    return curves


def committed_curve(
    rules: RuleSet, *, players: int, round: int, decks: int, jokers: int
) -> Curve | None:
    """The committed completion curve of this table (under a preset's rules, seats buying
    when it helps), or None when the table has none."""
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet, got {rules!r:.80}")
    for name, value in (("players", players), ("round", round), ("decks", decks)):
        whole(name, value, low=1)
    whole("jokers", jokers, low=0)
    return _curves().get((rules.name, round, players, decks, jokers))


def curve_of_rounds(
    rules: RuleSet, *, players: int, round: int, decks: int, jokers: int, records: Sequence, seed
) -> Curve:
    """The completion curve of rounds played here (each record with ``laid_down``, the turn
    each seat laid down or None, and ``seat_turns``, the turns each seat played: the
    :class:`~rummykit.odds.cells.RoundRecord` of a simulated round), computed as
    ``rummykit tables`` computes its table (``completion_by_turn``, "laid down"), with the
    standard library: per turn, the share of seats laid down by then, pooled over the
    rounds, and its Wilson interval at the effective sample size of the rounds' shares.

    >>> from types import SimpleNamespace as Round
    >>> rounds = [Round(laid_down=(1, None), seat_turns=(3, 3)),
    ...           Round(laid_down=(2, 3), seat_turns=(3, 2))]
    >>> curve = curve_of_rounds(RuleSet.preset("standard"), players=2, round=1, decks=2,
    ...                         jokers=4, records=rounds, seed=7)
    >>> [(p.turn, p.p) for p in curve.points]
    [(1, 0.25), (2, 0.5), (3, 0.75)]
    """
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet, got {rules!r:.80}")
    whole("players", players, low=1)
    whole("round", round, low=1, high=rules.rounds)
    if not isinstance(records, Sequence) or not records:
        raise ArgumentError(f"records must be a non-empty list of rounds, got {records!r:.80}")
    for i, r in enumerate(records):
        laid, turns = getattr(r, "laid_down", None), getattr(r, "seat_turns", None)
        if (
            not isinstance(laid, (tuple, list))
            or not isinstance(turns, (tuple, list))
            or len(laid) != players
            or len(turns) != players
            or not all(isinstance(t, int) and t >= 0 for t in turns)
            or not all(t is None or (isinstance(t, int) and t >= 1) for t in laid)
        ):
            raise ArgumentTypeError(
                f"records[{i}] must be a round with laid_down and seat_turns, one entry a "
                f"seat ({players}), got {r!r:.80}"
            )
    last = max(max(r.seat_turns) for r in records)
    rounds = len(records)
    points = []
    for turn in range(1, max(last, 1) + 1):
        shares = [sum(t is not None and t <= turn for t in r.laid_down) / players for r in records]
        p = statistics.fmean(shares)
        sd = statistics.stdev(shares) if rounds > 1 else 0.0
        stderr = sd / math.sqrt(rounds)
        if players == 1:
            n = rounds
        elif 0 < p < 1:
            n = rounds * players if stderr == 0 else p * (1 - p) / stderr**2
            n = min(rounds * players, max(rounds, n))
        else:
            n = rounds
        low, high = wilson_interval(p * n, n)
        points.append(CurvePoint(turn, p, low, high))
    contract = str(rules.contracts[round - 1])
    return Curve(rules.name, round, contract, players, decks, jokers, rounds, seed, tuple(points))


def main(argv: list[str] | None = None) -> int:
    """``python -m rummykit.odds.known_completion [DATA]``: write the extract of ``DATA``
    (default: the ``data/`` of this checkout) into the package."""
    args = sys.argv[1:] if argv is None else argv
    data = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "data"
    path = Path(__file__).with_name(KNOWN_COMPLETION_FILE)
    print(f"{path}: {write(data, path)} rows from {data}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
