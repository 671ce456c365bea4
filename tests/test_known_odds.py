"""The odds read with the standard library (rummykit.odds.known_odds, behind
rummykit.odds.answer.known_probability) are the committed tables' odds, and the
widgets that the book's live notebooks run (in Pyodide: no polars, numpy or threads) work
without them; the pure-Python wheel those notebooks install has no compiled part."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from fractions import Fraction
from importlib import resources
from pathlib import Path

import polars as pl
import pytest

from rummykit import RuleSet
from rummykit.errors import ArgumentError
from rummykit.odds import dealt_probability, known_odds
from rummykit.odds.answer import known_probability
from rummykit.odds.cells import ExactCell
from rummykit.odds.counting import tables
from rummykit.odds.data.plan import PRESET_SWEEP_RULES
from rummykit.odds.data.schemas import data_directory
from tests.support.no_analysis import HIDE_ANALYSIS

ROOT = Path(__file__).resolve().parents[1]


def _child(code: str, *, hide: bool = True) -> dict:
    """Run ``code`` (which prints one JSON object last) in a child Python, without the
    analysis extra unless ``hide`` is false."""
    done = subprocess.run(
        [sys.executable, "-c", (HIDE_ANALYSIS if hide else "import sys\n") + code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_extract_is_the_committed_tables():
    """known_odds.json holds exactly the exact rows of data/ (make tables rewrites it)."""
    shipped = json.loads(resources.files("rummykit.odds").joinpath("known_odds.json").read_text())
    assert shipped == known_odds.extract(data_directory()), (
        "rummykit/odds/known_odds.json is stale: python -m rummykit.odds.known_odds"
    )


def _parquet_rows() -> dict:
    """``{(meld rules, contract, decks, jokers, cards): p}`` of the exact rows of the
    committed parquet files, read with polars."""
    known = {}
    for name in known_odds.TABLES:
        rows = pl.read_parquet(data_directory() / f"{name}.parquet").filter(method="exact")
        for rules, contract, decks, jokers, cards, p in rows.select(
            "rules", "contract", "decks", "jokers", "cards", "p_exact"
        ).iter_rows():
            known[PRESET_SWEEP_RULES[rules], contract, decks, jokers, cards] = Fraction(p)
    return known


def test_pure_odds_equal_the_polars_odds_on_every_committed_cell(monkeypatch):
    # No sweep made before by another test in this process answers a cell here.
    from rummykit.odds.counting import exact

    monkeypatch.setattr(exact, "_CACHE", {})
    polars_rows = _parquet_rows()  # read from the parquet files with polars
    assert len(polars_rows) > 100
    assert known_odds._table() == polars_rows
    # And through the one reader, for every preset (bga and others deal as standard).
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        for number, contract in enumerate(rules.contracts, 1):
            for decks, jokers in ((1, 2), (2, 4), (3, 6), (2, 2), (4, 16)):
                cards = rules.deal_sizes[number - 1]
                cell = ExactCell(rules, number, contract, decks, jokers, cards)
                key = (rules.meld_rules, str(contract), decks, jokers, cards)
                small = cards < contract.min_cards(rules)  # 0, with no row needed
                expected = Fraction(0) if small else polars_rows.get(key)
                assert known_probability(cell) == expected, (name, cell)


def test_the_old_readers_are_deprecated_aliases_of_the_one():
    standard = RuleSet.preset("standard")
    cell = ExactCell(standard, 1, standard.contracts[0], 2, 4, 10)
    with pytest.warns(DeprecationWarning, match="rummykit.odds.answer.known_probability"):
        old_pure = known_odds.known_probability(
            standard, standard.contracts[0], decks=2, jokers=4, cards=10
        )
    with pytest.warns(DeprecationWarning, match="rummykit.odds.answer.known_probability"):
        old_polars = tables.known_probability(cell)
    assert old_pure == old_polars == known_probability(cell) == Fraction(2412345575, 27078894567)


def test_a_hand_too_small_is_zero_and_a_missing_table_is_named(tmp_path: Path):
    standard = RuleSet.preset("standard")
    p = known_odds.committed_probability(
        standard, standard.contracts[6], decks=4, jokers=16, cards=5
    )
    assert p == Fraction(0)
    with pytest.raises(ArgumentError, match="exact_odds has no CSV file"):
        known_odds.extract(tmp_path)


def test_deal_widget_reads_the_extract_without_polars():
    seen = _child(
        """
import json
from rummykit.widgets import DealWidget, MeldBuilder, PlayWidget

widget = DealWidget(seed=7)
widget.deal_button.click()
known = str(widget.probability), widget.odds_html.value
widget.decks.value = 4           # a shoe the tables do not hold
unknown = widget.probability, widget.odds_html.value, widget.count_progress.button.layout.display
try:
    from rummykit.widgets import OddsExplorer
    explorer = "imported"
except ImportError as error:
    explorer = str(error)
print(json.dumps({"known": known, "unknown": unknown, "explorer": explorer,
                  "loaded": sorted(m for m in sys.modules if m.startswith(("polars", "numpy")))}))
"""
    )
    standard = RuleSet.preset("standard")
    expected = _parquet_rows()[standard.meld_rules, "2 sets", 2, 4, 10]
    assert Fraction(seen["known"][0]) == expected
    assert "= 8.9% (1 in 11)" in seen["known"][1]
    assert seen["unknown"][0] is None and seen["unknown"][2] == "none"
    assert "not in the tables" in seen["unknown"][1] and "rummykit[analysis]" in seen["unknown"][1]
    assert seen["explorer"] == "imported"  # the explorers run without it too (issue 31)
    assert seen["loaded"] == []


def test_deal_widget_counts_in_the_handler_where_threads_cannot_start():
    """As in Pyodide: odds not in the tables are counted in the handler, not in a thread."""
    seen = _child(
        """
import json, threading

def refuse(self):
    raise RuntimeError("can't start new thread")

threading.Thread.start = refuse   # as in Pyodide
import ipywidgets                 # (before the platform changes: it reads it on import)
import polars                     # (likewise: its zoneinfo import reads sysconfig, which
                                  # fails on a made-up "emscripten" the first time)
sys.platform = "emscripten"
from rummykit.widgets import DealWidget

from rummykit.widgets import PlayWidget

widget = DealWidget(seed=7, decks=1, jokers=3)   # not in the tables: counted here
widget.deal_button.click()
play = PlayWidget(bots=2, seed=5, hint=True)     # the outs of the hand, counted here too
print(json.dumps({"background": [widget.background, widget.outs_pane.background,
                                 play.outs_pane.background],
                  "p": str(widget.probability),
                  "outs": [widget.outs_pane.html.value, play.outs_pane.html.value]}))
""",
        hide=False,
    )
    standard = RuleSet.preset("standard")
    assert seen["background"] == [False, False, False]
    for pane in seen["outs"]:
        assert "Counting the outs" not in pane and "The next card is one of them" in pane
    expected = dealt_probability(standard.contracts[0], decks=1, jokers=3, cards=10, rules=standard)
    assert Fraction(seen["p"]) == expected


@pytest.mark.slow
def test_the_pure_wheel_has_no_compiled_part(tmp_path: Path):
    """The book's build makes the py3-none-any wheel the live notebooks install (6 s).

    Built by the book extension's own function: built in a checkout that has been
    installed editable, setuptools would add the C sources its egg-info lists.
    """
    spec = importlib.util.spec_from_file_location("live_book", ROOT / "book/_ext/live_book.py")
    live_book = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(live_book)
    (wheel,) = live_book.rummykit_wheel(tmp_path).glob("*.whl")
    assert wheel.name == "rummykit-0.1.0-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    assert "rummykit/odds/known_odds.json" in names and "rummykit/widgets/meld.py" in names
    assert "rummykit/engine/search.py" in names and "rummykit/odds/play/fastplay.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd", ".c", ".h"))]
