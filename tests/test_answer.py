"""The query service, rummykit.odds.answer: each source chosen when it should be, the
budget checked, and the same values as the functions it stands in for."""

from __future__ import annotations

import importlib
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import rummykit.odds.counting.exact as exact
from rummykit import RuleSet
from rummykit.chance import chance_text, impossible_reason
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.odds.answer import (
    SOURCES,
    Answer,
    answer,
    can_count,
    count_seconds,
    known_probability,
)
from rummykit.odds.cells import ExactCell
from rummykit.odds.data.plan import exact_seconds
from rummykit.odds.dealt.simulate import simulate_dealt
from tests.support.no_analysis import HIDE_ANALYSIS

# By sys.modules: the attribute rummykit.odds.answer may be the function of that name.
answer_module = importlib.import_module("rummykit.odds.answer")

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
STANDARD = RuleSet.preset("standard")
PAGAT = RuleSet.preset("pagat")


def _cell(rules: RuleSet, round_: int, decks: int, jokers: int, cards: int) -> ExactCell:
    return ExactCell(rules, round_, rules.contracts[round_ - 1], decks, jokers, cards)


def _committed(round_: int, decks: int, jokers: int, cards: int) -> Fraction:
    """The exact value of standard's row in data/exact_odds.parquet, read with polars."""
    rows = pl.read_parquet(DATA / "exact_odds.parquet").filter(
        rules="standard", round=round_, decks=decks, jokers=jokers, cards=cards, method="exact"
    )
    return Fraction(rows["p_exact"].item())


class CountSpy:
    """Stands in for exact.dealt_probability: records each count and makes it."""

    def __init__(self, monkeypatch) -> None:
        self.calls: list[tuple] = []
        self.real = exact.dealt_probability
        monkeypatch.setattr(exact, "dealt_probability", self)

    def __call__(self, contract, **kwargs):
        self.calls.append((contract, kwargs["decks"], kwargs["jokers"], kwargs["cards"]))
        return self.real(contract, **kwargs)


@pytest.fixture
def no_sweeps(monkeypatch):
    """Nothing swept before in this process."""
    monkeypatch.setattr(exact, "_CACHE", {})


# --------------------------------------------------------------------------- sources


def test_a_committed_cell_is_the_tables_value_and_nothing_is_counted(no_sweeps, monkeypatch):
    spy = CountSpy(monkeypatch)
    bga = RuleSet.preset("bga")  # bga deals as standard: standard's rows answer it
    found = answer(_cell(bga, 6, 3, 6, 14), budget=math.inf)
    assert found.source == "tables" and found.exact and found.seconds == 0
    assert found.value == _committed(6, 3, 6, 14) and found.estimate is None
    assert spy.calls == [] and exact._CACHE == {}
    # A hand too small for the contract is 0 without counting.
    small = answer(_cell(STANDARD, 6, 3, 6, 10), budget=0)
    assert small.value == 0 and small.source == "tables" and spy.calls == []
    assert small.words() == chance_text(
        0, reason=impossible_reason(small.cell.contract, STANDARD, 10)
    )


def test_a_cheap_cell_is_counted_within_the_budget_then_served_from_the_cache(
    no_sweeps, monkeypatch
):
    spy = CountSpy(monkeypatch)
    cell = _cell(PAGAT, 2, 1, 1, 12)  # not committed (pagat with 1 joker), planned at 0.88 s
    assert known_probability(cell) is None and exact_seconds(cell) == 0.88
    assert answer(cell, budget=0.87, hands=10).source == "estimate" and spy.calls == []
    counted = answer(cell, budget=0.88)  # the budget is inclusive
    assert counted.source == "count" and counted.seconds == 0.88
    assert spy.calls == [(cell.contract, 1, 1, 12)]
    assert counted.value == spy.real(cell.contract, decks=1, jokers=1, cards=12, rules=PAGAT)
    # The sweep now answers it, and a smaller hand with fewer jokers, without counting.
    again = answer(cell, budget=0)
    assert again.source == "cache" and again.value == counted.value and again.seconds == 0
    smaller = answer(_cell(PAGAT, 2, 1, 0, 11), budget=0)
    assert smaller.source == "cache" and len(spy.calls) == 1
    assert smaller.value == spy.real(cell.contract, decks=1, jokers=0, cards=11, rules=PAGAT)


def test_a_budget_too_small_gives_the_seeded_estimate_with_its_interval(no_sweeps, monkeypatch):
    spy = CountSpy(monkeypatch)
    cell = _cell(PAGAT, 6, 3, 8, 14)  # planned at 44 s
    seconds = exact_seconds(cell)
    assert 20 < seconds < 60
    found = answer(cell, budget=seconds - 0.1, hands=3000, seed=5)
    assert found.source == "estimate" and not found.exact and found.value is None
    assert found.seconds == seconds and spy.calls == []
    est = found.estimate
    assert est == simulate_dealt(
        cell.contract, decks=3, jokers=8, cards=14, rules=PAGAT, n=3000, seed=5
    )
    assert est.n == 3000 and est.ci_low <= found.p == est.p <= est.ci_high
    assert found.words() == f"{est}".split(", by Wilson")[0]
    # The same seed, the same estimate; another seed, another.
    assert answer(cell, 0, hands=3000, seed=5) == found
    assert answer(cell, 0, hands=3000, seed=6).estimate != est


def test_without_an_estimate_a_count_over_the_budget_is_refused(no_sweeps):
    cell = _cell(STANDARD, 6, 3, 8, 15)  # planned at 76 s
    with pytest.raises(ArgumentError, match=r"planned at about 1 min 16 s, over the budget"):
        answer(cell, budget=60, hands=None)


def test_count_seconds_is_the_plan_answer_follows(no_sweeps):
    assert count_seconds(_cell(STANDARD, 6, 3, 6, 14)) == 0  # committed
    slow = _cell(STANDARD, 6, 3, 8, 15)
    assert count_seconds(slow) == exact_seconds(slow) == 76.2
    assert SOURCES == ("cache", "tables", "count", "estimate") and can_count()


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("budget", "error"),
    [
        (-1, ArgumentError),
        (float("nan"), ArgumentError),
        ("5", ArgumentTypeError),
        (True, ArgumentTypeError),
        (None, ArgumentTypeError),
    ],
)
def test_a_bad_budget_is_refused_naming_it(budget, error):
    with pytest.raises(error, match=r"^budget must be a number of seconds >= 0"):
        answer(_cell(STANDARD, 1, 2, 4, 10), budget)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"hands": 0}, "hands"), ({"hands": 2.5}, "hands"), ({"seed": -1}, "seed")],
)
def test_bad_hands_or_seed_are_refused_naming_them(kwargs, field):
    with pytest.raises(ArgumentError, match=rf"^{field} must be"):
        answer(_cell(STANDARD, 1, 2, 4, 10), 0, **kwargs)


def test_a_cell_must_be_a_dealt_cell():
    with pytest.raises(ArgumentTypeError, match=r"^cell must be an ExactCell"):
        answer((STANDARD, STANDARD.contracts[0], 2, 4, 10), 0)
    with pytest.raises(ArgumentTypeError, match=r"^cell must be an ExactCell"):
        known_probability("2 sets")


# --------------------------------------------------------------------------- equal values


def test_the_values_equal_those_of_the_functions_replaced(no_sweeps):
    """On the same cells: the tables' value is the committed parquet row (what
    tables.known_probability read), a count is dealt_probability's, an estimate is
    simulate_dealt's with the same hands and seed (what the widgets dealt)."""
    for round_, decks, jokers, cards in ((1, 2, 4, 10), (4, 3, 6, 12), (7, 2, 4, 12)):
        found = answer(_cell(STANDARD, round_, decks, jokers, cards), 0)
        assert found.source == "tables"
        assert found.value == _committed(round_, decks, jokers, cards)
    for cell in (_cell(PAGAT, 1, 1, 0, 7), _cell(PAGAT, 3, 2, 1, 10)):
        found = answer(cell, math.inf)
        assert found.source == "count"
        assert found.value == exact.dealt_probability(
            cell.contract, decks=cell.decks, jokers=cell.jokers, cards=cell.cards, rules=PAGAT
        )
    cell = _cell(STANDARD, 6, 3, 8, 15)
    found = answer(cell, 0, hands=20_000, seed=0)
    assert found.estimate == simulate_dealt(
        cell.contract, decks=3, jokers=8, cards=15, rules=STANDARD, n=20_000, seed=0
    )
    assert isinstance(found, Answer)


# --------------------------------------------------------------------------- no polars


def test_the_cells_and_the_known_odds_need_no_numpy_or_polars():
    code = """
import json
from rummykit import RuleSet
from rummykit.errors import MissingDependencyError
from rummykit.odds.answer import answer, can_count, known_probability
from rummykit.odds.cells import Cell, ExactCell

standard = RuleSet.preset("standard")
found = answer(ExactCell(standard, 1, standard.contracts[0], 2, 4, 10), 0)
table = Cell(standard, players=4, round=5)
try:
    answer(ExactCell(standard, 1, standard.contracts[0], 4, 16, 10), 0)
except MissingDependencyError as error:
    missing = str(error)
try:
    from rummykit.odds import dealt_probability
except MissingDependencyError as error:
    named = str(error)
print(json.dumps({"p": str(found.value), "source": found.source, "can_count": can_count(),
                  "table": [table.decks, table.jokers], "missing": missing, "named": named,
                  "loaded": sorted(m for m in sys.modules if m.startswith(("numpy", "polars")))}))
"""
    done = subprocess.run(
        [sys.executable, "-c", HIDE_ANALYSIS + code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert Fraction(seen["p"]) == _committed(1, 2, 4, 10) and seen["source"] == "tables"
    assert seen["can_count"] is False and seen["table"] == [2, 4] and seen["loaded"] == []
    for message in (seen["missing"], seen["named"]):
        assert (
            'rummykit.odds needs numpy, which is not installed: pip install "rummykit[analysis]"'
            in message
        )


def test_an_estimate_is_bounded_as_the_simulation_is():
    from rummykit.odds.dealt import simulate

    assert answer_module.MAX_HANDS == simulate.MAX_HANDS
    slow = ExactCell(PAGAT, 6, PAGAT.contracts[5], 3, 8, 14)
    with pytest.raises(ArgumentError, match="hands must be"):
        answer(slow, budget=0, hands=answer_module.MAX_HANDS + 1)


@pytest.mark.parametrize(
    ("change", "error", "field"),
    [
        ({"decks": 0}, ArgumentError, "decks"),
        ({"decks": "2"}, ArgumentTypeError, "decks"),
        ({"jokers": -1}, ArgumentError, "jokers"),
        ({"cards": 109}, ArgumentError, "cards"),
        ({"cards": 2.5}, ArgumentTypeError, "cards"),
        ({"round": 8}, ArgumentError, "round"),
        ({"rules": "standard"}, ArgumentTypeError, "rules"),
        ({"contract": "2 sets"}, ArgumentTypeError, "contract"),
    ],
)
def test_a_cell_checks_itself_when_made(change, error, field):
    """ExactCell validates its fields once (issue 51, item 2): no cell that a count, a
    plan or a table would refuse later can be made."""
    standard = RuleSet.preset("standard")
    fields = {"rules": standard, "round": 1, "contract": standard.contracts[0]}
    fields |= {"decks": 2, "jokers": 4, "cards": 10} | change
    with pytest.raises(error, match=field):
        ExactCell(**fields)
