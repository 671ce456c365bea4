"""The explorers without altair, polars or numpy (issue 31, item 2): what the book's live
notebooks run in a browser's Python.

Drawn plainly (``plain=True``), each explorer shows the same numbers as with altair and
polars: the rows of its chart, its running estimate and its table panel's curve are
compared with the polars path on the same settings and seeds. Where numpy is missing
too, a subprocess with those imports blocked drives both explorers: odds from the
committed tables, a standard-library estimate for a shoe they do not hold, a refused
count too big for the browser, the table panel from the package's extract.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest

pytest.importorskip("ipywidgets")

from rummykit import RuleSet  # noqa: E402
from rummykit.errors import ArgumentError, ArgumentTypeError, RummyError  # noqa: E402
from rummykit.odds.answer import known_probability  # noqa: E402
from rummykit.odds.cells import Cell, ExactCell, play_round  # noqa: E402
from rummykit.odds.dealt.simulate import simulate_dealt  # noqa: E402
from rummykit.odds.estimate import Estimate, estimate_dealt  # noqa: E402
from rummykit.widgets import OddsExplorer, SimulationExplorer  # noqa: E402

STANDARD = RuleSet.preset("standard")
TWO_SETS, THREE_SETS = STANDARD.contracts[0], STANDARD.contracts[3]


# -- the standard-library estimate ------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "decks", "jokers", "cards"),
    [(TWO_SETS, 2, 4, 10), (THREE_SETS, 2, 4, 12), (STANDARD.contracts[1], 1, 2, 10)],
)
def test_the_plain_estimate_agrees_with_the_exact_tables(contract, decks, jokers, cards):
    """Within four standard errors of the exact value the tables hold, on fixed seeds
    (a biased deal or a wrong check fails it)."""
    exact = known_probability(ExactCell(STANDARD, None, contract, decks, jokers, cards))
    assert exact is not None
    est = estimate_dealt(
        contract, decks=decks, jokers=jokers, cards=cards, rules=STANDARD, n=6_000, seed=11
    )
    p = float(exact)
    assert abs(est.p - p) <= 4 * math.sqrt(p * (1 - p) / est.n)
    assert est.successes == round(est.p * est.n)


def test_the_plain_estimate_agrees_with_numpys():
    """Two independent simulations of one cell: a two-proportion z below 4."""
    hand = dict(decks=2, jokers=4, cards=10, rules=STANDARD)
    plain = estimate_dealt(TWO_SETS, **hand, n=8_000, seed=5)
    fast = simulate_dealt(TWO_SETS, **hand, n=200_000, seed=5)
    pooled = (plain.successes + fast.successes) / (plain.n + fast.n)
    z = (plain.p - fast.p) / math.sqrt(pooled * (1 - pooled) * (1 / plain.n + 1 / fast.n))
    assert abs(z) < 4


def test_the_plain_estimate_is_seeded_and_reports_its_progress():
    hand = dict(decks=1, jokers=2, cards=7, rules=STANDARD, n=1_200)
    calls = []
    first = estimate_dealt(TWO_SETS, **hand, seed=3, progress=lambda d, n: calls.append((d, n)))
    assert first == estimate_dealt(TWO_SETS, **hand, seed=3)
    assert first == estimate_dealt(TWO_SETS, **hand, seed=random.Random(3))
    assert first != estimate_dealt(TWO_SETS, **hand, seed=4)
    assert calls == [(500, 1_200), (1_000, 1_200), (1_200, 1_200)]
    assert isinstance(first, Estimate) and first.n == 1_200


@pytest.mark.parametrize(
    ("change", "error", "field"),
    [
        ({"n": 0}, ArgumentError, "n must be"),
        ({"n": 10**7}, ArgumentError, "n must be"),
        ({"seed": "x"}, RummyError, "seed"),
        ({"cards": 200}, RummyError, "cards"),
        ({"decks": 0}, RummyError, "decks"),
        ({"progress": 3}, ArgumentTypeError, "progress"),
    ],
)
def test_bad_estimates_are_refused_by_field_before_dealing(change, error, field):
    seed = random.Random(8)
    state = seed.getstate()
    args = dict(decks=2, jokers=4, cards=10, rules=STANDARD, n=100, seed=seed) | change
    with pytest.raises(error, match=field):
        estimate_dealt(TWO_SETS, **args)
    assert seed.getstate() == state  # nothing dealt from the generator given


# -- drawn plainly, the same numbers -----------------------------------------------------


def test_the_odds_explorer_drawn_plainly_shows_the_polars_rows():
    plain = OddsExplorer(background=False, neighbour_decks=(1, 2), plain=True)
    charted = OddsExplorer(background=False, neighbour_decks=(1, 2), plain=False)
    assert plain.probability == charted.probability == Fraction(2412345575, 27078894567)
    assert isinstance(plain.frame, list)
    assert plain.frame == charted.frame.to_dicts()
    svg = plain.chart_html.value
    assert "<svg" in svg and svg.count("<polyline") == 2  # a line per shoe
    assert "your hand" in svg and "charting engine" not in svg
    plain.cards.value = 11
    assert (
        plain.probability == known_probability(ExactCell(STANDARD, 1, TWO_SETS, 2, 4, 11))
        and plain.chart_html.value != svg
    )


def test_the_simulation_explorer_drawn_plainly_keeps_the_same_run():
    runs = []
    for plain in (True, False):
        explorer = SimulationExplorer(background=False, n=3_000, steps=3, seed=9, plain=plain)
        explorer.run()
        runs.append(explorer)
    plain, charted = runs
    assert plain.frame == charted.frame.to_dicts()
    assert plain.estimate == charted.estimate
    assert plain.drawn_plainly and "<svg" in plain.chart_html.value
    assert plain.result_html.value == charted.result_html.value


def test_the_table_panel_drawn_plainly_reads_the_committed_numbers():
    plain = SimulationExplorer(background=False, players=4, plain=True)
    charted = SimulationExplorer(background=False, players=4, plain=False)
    curve = plain.table.frame
    laid = charted.table.frame.filter(measure="laid down").sort("turn")
    assert plain.table.source == charted.table.source == "data"
    assert [p.turn for p in curve.points] == laid["turn"].to_list()
    assert [p.p for p in curve.points] == pytest.approx(laid["p"].to_list(), abs=5e-5)
    assert curve.n == laid["n"][0] and curve.seed == 2026
    assert plain.table.message_html.value == charted.table.message_html.value.replace(
        "completion_by_turn.parquet", "completion_by_turn"
    )
    assert "<polyline" in plain.table.chart_html.value


def test_a_live_table_drawn_plainly_is_the_curve_of_the_same_rounds():
    """A table data/ does not hold, played live: the plain curve is
    :func:`curve_of_rounds` of the rounds the polars panel plays (same seed)."""
    plain = SimulationExplorer(
        background=False, decks=1, jokers=3, table_rounds=12, plain=True, players=None
    )
    charted = SimulationExplorer(
        background=False, decks=1, jokers=3, table_rounds=12, plain=False, players=None
    )
    for explorer in (plain, charted):
        explorer.players.value = 2
        explorer.controls.decks.value = 1
        explorer.controls.jokers.value = 3
    assert plain.table.source == charted.table.source == "live"
    laid = charted.table.frame.filter(measure="laid down").sort("turn")
    points = plain.table.frame.points
    assert [p.p for p in points] == pytest.approx(laid["p"].to_list(), abs=1e-12)
    cell = Cell(STANDARD, 2, 1, decks=1, jokers=3, buy="improves")
    records = [play_round(cell, 2026, i) for i in range(12)]
    firsts = sum(r.laid_down.count(1) for r in records) / 24
    assert points[0].p == pytest.approx(firsts)


# -- without numpy, polars and altair ----------------------------------------------------

BLOCKED = textwrap.dedent(
    """
    import json, sys

    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {blocked!r}:
                raise ImportError("blocked: " + name)

    sys.meta_path.insert(0, Block())
    import rummykit._native as native
    native.distance = native.table = native.sweep = None  # a pure-Python wheel
    from rummykit.odds.answer import can_count
    from rummykit.widgets.odds import OddsExplorer, SimulationExplorer

    out = {{"can_count": can_count()}}
    odds = OddsExplorer(background=False, neighbour_decks=(2,))
    out["plain"] = odds.plain
    out["tables"] = [str(odds.probability), odds.chart_html.value.count("<polyline")]
    svg = odds.chart_html.value
    odds.decks.value = 1
    odds.jokers.value = 3  # 1 deck and 3 jokers: no table holds them
    out["estimate"] = [odds.probability, odds.estimate_text, odds.chart_html.value != svg]
    out["methods"] = sorted({{row["method"] for row in odds.frame}})
    out["note"] = "from 1,000 to 10,000 hands each" in odds.chart_html.value
    sim = SimulationExplorer(background=False, n=2_000, steps=3, seed=4, table_rounds=4)
    sim.run()
    out["run"] = [sim.estimate.n, sim.frame[-1]["n"], sim.result_html.value]
    sim.n.value = 300_000
    before = sim.chart_html.value
    sim.run()
    out["refused"] = [sim.result_html.value, sim.estimate.n, sim.chart_html.value == before]
    sim.players.value = 4
    out["table"] = [sim.table.source, sim.table.message_html.value]
    sim.controls.jokers.value = 3
    out["live"] = [sim.table.source, sim.table.frame.n, sim.table.chart_html.value[:4]]
    out["modules"] = sorted(
        name for name in {blocked!r} if name in sys.modules and sys.modules[name] is not None
    )
    print(json.dumps(out))
    """
)


def test_both_explorers_work_without_numpy_polars_or_altair():
    # The analysis extra and the charting: none of them has a wheel in the live site.
    blocked = [
        "numpy",
        "polars",
        "altair",
        "vl_convert",
        "pandas",
        "pyarrow",
        "tqdm",
        "more_itertools",
        "dask",
    ]
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED.format(blocked=blocked)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["can_count"] is False and out["plain"] is True
    assert out["tables"] == ["2412345575/27078894567", 1]
    probability, text, redrawn = out["estimate"]
    assert probability is None and redrawn
    assert text.startswith("Simulated from 10,000 hands: about ")
    assert "not in the tables that come with rummykit" in text
    assert out["methods"] == ["exact", "simulation"]  # 2 decks 4 jokers: 7, 10-14 exact
    assert out["note"]  # the chosen hand's 10,000 hands beside the chart points' 1,000
    n, last, words = out["run"]
    assert n == last == 2_000 and "After 2,000 hands" in words
    assert "The exact value is 2412345575/27078894567" in words
    refused, kept, unchanged = out["refused"]
    assert "Hands: 300,000 is more than this Python deals by itself" in refused
    assert kept == 2_000 and unchanged
    source, message = out["table"]
    assert source == "data" and "from 10,000 rounds played by bots for the book" in message
    assert out["live"] == ["live", 4, "<fig"]
    assert out["modules"] == []
