"""Chart builders: test the spec, not the pixels.

Each builder's ``to_dict()`` must be a valid Vega-Lite spec (altair validates it against
the schema) holding the encodings meant, and must convert to SVG with vl-convert, which
works offline: the book renders every chart this way.
"""

from __future__ import annotations

import re

import altair as alt
import polars as pl
import pytest

from rummykit import charts

vl_convert = pytest.importorskip("vl_convert")

CONTRACTS = ["2 sets", "1 set + 1 run", "2 runs"]


@pytest.fixture
def odds() -> pl.DataFrame:
    rows = [
        {
            "contract": contract,
            "cards": cards,
            "decks": decks,
            "jokers": 2 * decks,
            "p": min(1.0, 0.02 * cards * decks / (i + 1)),
        }
        for i, contract in enumerate(CONTRACTS)
        for decks in (1, 2)
        for cards in (10, 11, 12)
    ]
    return charts.shoe_label(pl.DataFrame(rows))


@pytest.fixture
def running() -> pl.DataFrame:
    n = [10, 100, 1000, 10000]
    p = [0.3, 0.15, 0.11, 0.102]
    return pl.DataFrame(
        {
            "n": n,
            "p": p,
            "ci_low": [v - 1 / k**0.5 / 3 for v, k in zip(p, n, strict=True)],
            "ci_high": [v + 1 / k**0.5 / 3 for v, k in zip(p, n, strict=True)],
        }
    )


@pytest.fixture
def turns() -> pl.DataFrame:
    rows = [
        {
            "turn": t,
            "players": players,
            "contract": contract,
            "p": t / 20 / players,
            "ci_low": t / 20 / players - 0.01,
            "ci_high": t / 20 / players + 0.01,
        }
        for contract in CONTRACTS[:2]
        for players in (2, 4)
        for t in range(1, 6)
    ]
    return pl.DataFrame(rows)


def _layers(spec: dict) -> list[dict]:
    inner = spec.get("spec", spec)
    return inner.get("layer", [inner])


def _svg(chart: alt.TopLevelMixin) -> str:
    svg = vl_convert.vegalite_to_svg(chart.to_json())
    assert svg.lstrip().startswith("<svg")
    # Drawn marks, and nothing fetched from the network.
    assert re.search(r"<(path|rect|line|text)\b", svg)
    assert "http://" not in svg.replace("http://www.w3.org", "")
    assert "https://" not in svg
    return svg


def test_shoe_label_words(odds):
    assert set(odds.get_column("shoe")) == {"1 deck + 2 jokers", "2 decks + 4 jokers"}


def test_contract_heatmap(odds):
    chart = charts.contract_heatmap(odds)
    spec = chart.to_dict()
    assert spec["facet"]["field"] == "shoe" and spec["columns"] == 2
    cells, labels = _layers(spec)
    assert cells["mark"]["type"] == "rect"
    enc = cells["encoding"]
    assert (enc["x"]["field"], enc["x"]["type"], enc["x"]["title"]) == (
        "cards",
        "ordinal",
        "Cards in hand",
    )
    assert enc["color"]["scale"]["type"] == "sqrt"
    assert enc["y"]["field"] == "contract" and enc["y"]["sort"] == CONTRACTS
    assert enc["color"]["field"] == "p" and enc["color"]["type"] == "quantitative"
    assert enc["color"]["legend"]["format"] == ".0%"
    assert labels["encoding"]["text"]["format"].endswith("%")
    _svg(chart)


def test_contract_heatmap_without_facet(odds):
    chart = charts.contract_heatmap(odds.filter(pl.col("decks") == 2), column=None)
    assert "facet" not in chart.to_dict()
    _svg(chart)


def test_odds_lines(odds):
    chart = charts.odds_lines(odds)
    enc = chart.to_dict()["encoding"]
    assert enc["x"]["field"] == "cards" and enc["x"]["type"] == "quantitative"
    assert enc["y"]["field"] == "p" and enc["y"]["axis"]["format"] == ".0%"
    assert (enc["color"]["field"], enc["color"]["type"]) == ("decks", "ordinal")
    assert enc["color"]["scale"]["scheme"]["name"] == "viridis"
    assert enc["y"]["scale"]["domain"] == [0, 1]
    assert enc["facet"]["field"] == "contract" and enc["facet"]["sort"] == CONTRACTS
    _svg(chart)


def test_odds_lines_colour_by_shoe_is_nominal(odds):
    enc = charts.odds_lines(odds, color="shoe", color_title="Shoe").to_dict()["encoding"]
    assert enc["color"]["field"] == "shoe" and enc["color"]["type"] == "nominal"


def test_odds_lines_log_scale_drops_zeros(odds):
    frame = odds.with_columns(pl.when(pl.col("cards") == 10).then(0.0).otherwise(pl.col("p")))
    chart = charts.odds_lines(frame, log=True)
    spec = chart.to_dict()
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    assert spec["encoding"]["y"]["axis"]["format"] == "~%"
    values = next(iter(spec["datasets"].values()))
    assert all(row["p"] > 0 for row in values)
    _svg(chart)


def test_odds_lines_auto_log_where_chances_are_small(odds):
    big = odds.filter(pl.col("contract") == "2 sets")  # 20% to 48%: a linear axis
    assert not charts.wants_log(big)
    assert charts.odds_lines(big, log="auto").to_dict()["encoding"]["y"]["scale"] == {
        "domain": [0, 1]
    }
    rare = odds.with_columns(pl.col("p") / 1000)  # 0.002% to 0.05%: flat lines at zero
    assert charts.wants_log(rare)
    spec = charts.odds_lines(rare, log="auto").to_dict()
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    # The tooltip gives "1 in N" as well as the percentage.
    tips = {tip["field"]: tip for tip in spec["encoding"]["tooltip"]}
    assert tips["one_in"]["title"] == "1 in"
    values = next(iter(spec["datasets"].values()))
    assert all(abs(row["one_in"] * row["p"] - 1) < 1e-9 for row in values)
    with pytest.raises(ValueError, match="log must be"):
        charts.odds_lines(odds, log="sometimes")


def test_your_hand_mark_has_its_own_colour_and_a_legend_entry(odds):
    chosen = odds.filter((pl.col("decks") == 2) & (pl.col("cards") == 11)).head(1)
    lines = charts.odds_lines(odds.filter(pl.col("contract") == "2 sets"), facet=None)
    mark = charts.your_hand_mark(chosen)
    spec = alt.layer(lines, mark).to_dict()
    line_layer, mark_layer = spec["layer"]
    assert mark_layer["mark"]["type"] == "point" and mark_layer["mark"]["filled"]
    assert mark_layer["mark"]["color"] == charts.YOUR_HAND_COLOUR == "#000000"
    # A legend entry of its own: a shape channel whose one value is "your hand".
    shape = mark_layer["encoding"]["shape"]
    assert shape["scale"] == {"domain": ["your hand"], "range": ["diamond"]}
    assert "legend" in shape and shape["legend"] is not None
    assert "color" not in mark_layer["encoding"]  # not coloured as one of the shoes
    svg = _svg(alt.layer(lines, mark))
    assert "your hand" in svg


def test_convergence_chart(running):
    chart = charts.convergence_chart(running, exact=0.1)
    band, line, rule = chart.to_dict()["layer"]
    assert band["mark"]["type"] == "area"
    assert (
        band["encoding"]["y"]["field"] == "ci_low" and band["encoding"]["y2"]["field"] == "ci_high"
    )
    assert band["encoding"]["x"]["scale"]["type"] == "log"
    assert line["encoding"]["y"]["field"] == "p"
    assert rule["mark"]["type"] == "rule" and rule["encoding"]["y"]["field"] == "exact"
    _svg(chart)


def test_convergence_chart_without_exact(running):
    assert len(charts.convergence_chart(running).to_dict()["layer"]) == 2


def test_distance_chart():
    frame = charts.shoe_label(
        pl.DataFrame(
            {
                "contract": ["2 sets"] * 6,
                "decks": [1, 1, 1, 2, 2, 2],
                "jokers": [2, 2, 2, 4, 4, 4],
                "distance": [0, 1, 2] * 2,
                "p": [0.1, 0.5, 0.4, 0.2, 0.5, 0.3],
            }
        )
    )
    chart = charts.distance_chart(frame, color="shoe", color_title="Shoe", facet="contract")
    enc = chart.to_dict()["encoding"]
    assert enc["x"]["field"] == "distance" and enc["x"]["type"] == "ordinal"
    assert enc["y"]["axis"]["format"] == ".0%"
    assert enc["xOffset"]["field"] == "shoe" and enc["facet"]["field"] == "contract"
    _svg(chart)


def test_completion_chart(turns):
    one = turns.filter(pl.col("contract") == CONTRACTS[0])
    chart = charts.completion_chart(one)
    band, line = chart.to_dict()["layer"]
    assert band["mark"]["type"] == "area" and band["encoding"]["y2"]["field"] == "ci_high"
    assert line["encoding"]["y"]["field"] == "p"
    colour = line["encoding"]["color"]
    assert (colour["field"], colour["type"], colour["title"]) == ("players", "ordinal", "Players")
    _svg(chart)


def test_completion_chart_faceted(turns):
    chart = charts.completion_chart(turns, facet="contract")
    spec = chart.to_dict()
    assert spec["facet"]["field"] == "contract"
    _svg(chart)


def test_interval_chart():
    frame = pl.DataFrame(
        {
            "seat": ["1", "2", "3"],
            "turns": [9.5, 10.1, 10.4],
            "ci_low": [9.1, 9.7, 10.0],
            "ci_high": [9.9, 10.5, 10.8],
        }
    )
    chart = charts.interval_chart(
        frame, y="seat", y_title="Seat", value="turns", value_title="Turns", percent=False
    )
    rule, point = chart.to_dict()["layer"]
    assert (
        rule["encoding"]["x"]["field"] == "ci_low" and rule["encoding"]["x2"]["field"] == "ci_high"
    )
    assert point["encoding"]["x"]["field"] == "turns"
    assert rule["encoding"]["y"]["sort"] == ["1", "2", "3"]
    _svg(chart)


def test_missing_column_is_named(odds):
    with pytest.raises(ValueError, match="missing p"):
        charts.odds_lines(odds.drop("p"))


def test_needs_a_polars_frame():
    with pytest.raises(TypeError, match="polars DataFrame"):
        charts.distance_chart({"distance": [0], "p": [1.0]})
