"""The completion curves read with the standard library (rummykit.odds.known_completion) are
the committed table's, as the At-the-table panel reads it with polars; the extract is not
stale; nothing of the analysis extra is needed to read it."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest

from rummykit import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.odds import known_completion
from rummykit.odds.data.schemas import data_directory
from rummykit.odds.known_completion import committed_curve
from tests.support.no_analysis import HIDE_ANALYSIS

pytest.importorskip("ipywidgets")
from rummykit.widgets.table import committed_completion  # noqa: E402


def test_the_shipped_extract_is_that_of_the_committed_table():
    shipped = json.loads(
        resources.files("rummykit.odds")
        .joinpath(known_completion.KNOWN_COMPLETION_FILE)
        .read_text()
    )
    assert shipped == known_completion.extract(data_directory()), (
        "rummykit/odds/known_completion.json is stale: python -m rummykit.odds.known_completion"
    )


def test_every_curve_is_the_panels_table_to_four_decimals():
    shipped = json.loads(
        resources.files("rummykit.odds")
        .joinpath(known_completion.KNOWN_COMPLETION_FILE)
        .read_text()
    )
    keys = {(r[0], r[1], r[3], r[4], r[5]) for r in shipped["rows"]}
    assert len(keys) == len(shipped["rows"]) >= 200
    presets = set()
    for name, number, players, decks, jokers in sorted(keys):
        rules = RuleSet.preset(name)
        curve = committed_curve(rules, players=players, round=number, decks=decks, jokers=jokers)
        frame = committed_completion(rules, players, number, decks, jokers)
        laid = frame.filter(measure="laid down").sort("turn")
        assert [p.turn for p in curve.points] == laid["turn"].to_list()
        for column in ("p", "ci_low", "ci_high"):
            mine = [getattr(point, column) for point in curve.points]
            gap = max(abs(a - b) for a, b in zip(mine, laid[column], strict=True))
            assert gap <= 0.5e-4 + 1e-12  # rounded to 4 decimals
        assert curve.n == laid["n"][0] and curve.contract == laid["contract"][0]
        presets.add(name)
    assert presets == set(RuleSet.presets())


def test_a_table_the_data_does_not_hold_is_none_and_bad_input_is_refused():
    standard = RuleSet.preset("standard")
    assert committed_curve(standard, players=4, round=1, decks=5, jokers=0) is None
    with pytest.raises(ArgumentTypeError, match="rules"):
        committed_curve("standard", players=4, round=1, decks=2, jokers=4)
    with pytest.raises(ArgumentError, match="players"):
        committed_curve(standard, players=0, round=1, decks=2, jokers=4)
    with pytest.raises(ArgumentError, match="jokers"):
        committed_curve(standard, players=4, round=1, decks=2, jokers=-1)


def test_the_extract_names_a_missing_table(tmp_path):
    with pytest.raises(ArgumentError, match="completion_by_turn has no CSV file"):
        known_completion.extract(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_curves_need_no_numpy_or_polars():
    code = (
        HIDE_ANALYSIS
        + """
from rummykit import RuleSet
from rummykit.odds.known_completion import committed_curve

from rummykit.odds.known_completion import curve_of_rounds
from rummykit.odds.cells import RoundRecord

curve = committed_curve(RuleSet.preset("standard"), players=4, round=2, decks=2, jokers=4)
print(curve.contract, curve.n, len(curve.points) > 5)
played = [RoundRecord(0, 6, "out", 0, (2, None), (3, 3), (0, 40), (0, 1))]
live = curve_of_rounds(RuleSet.preset("standard"), players=2, round=1, decks=2, jokers=4,
                       records=played, seed=1)
print(live.points[1].p)
"""
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "set", "+", "1", "run", "10000", "True", "0.5"]


@pytest.mark.parametrize(
    ("preset", "players", "number", "n", "seed"),
    [("standard", 4, 1, 60, 3), ("standard", 3, 5, 25, 8), ("family", 6, 2, 40, 1),
     ("pagat", 3, 7, 1, 4)],
)  # fmt: skip
def test_a_curve_of_rounds_played_is_the_tables_pipelines_curve(preset, players, number, n, seed):
    from rummykit.odds.cells import Cell
    from rummykit.odds.play.completion import play_rounds_fastest, tables_from_records

    rules = RuleSet.preset(preset)
    cell = Cell(rules, players, number, buy="improves")
    records = play_rounds_fastest(cell, seed, list(range(n)))
    table = tables_from_records([cell], {cell: records})["completion_by_turn"]
    laid = table.filter(measure="laid down").sort("turn")
    curve = known_completion.curve_of_rounds(
        rules, players=players, round=number, decks=cell.decks, jokers=cell.jokers,
        records=records, seed=seed,
    )  # fmt: skip
    assert (curve.contract, curve.n, curve.seed) == (laid["contract"][0], n, seed)
    assert [p.turn for p in curve.points] == laid["turn"].to_list()
    for point, row in zip(curve.points, laid.iter_rows(named=True), strict=True):
        assert point.p == pytest.approx(row["p"], abs=1e-12)
        assert point.ci_low == pytest.approx(row["ci_low"], abs=1e-9)
        assert point.ci_high == pytest.approx(row["ci_high"], abs=1e-9)


def test_a_curve_of_no_rounds_is_refused_by_name():
    standard = RuleSet.preset("standard")
    for bad, field in [({"records": []}, "records"), ({"round": 8}, "round")]:
        options = {"players": 2, "round": 1, "decks": 2, "jokers": 4, "records": [None]}
        with pytest.raises(ArgumentError, match=field):
            known_completion.curve_of_rounds(standard, **{**options, **bad}, seed=1)
