"""Chart builders: test the spec, not the pixels.

Each builder's ``to_dict()`` must be a valid Vega-Lite spec (altair validates it against
the schema) holding the encodings meant, and must convert to SVG with vl-convert, which
works offline: the book renders every chart this way.
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

import altair as alt
import polars as pl
import pytest

from rummykit import charts
from rummykit.chance import AXIS_LABELS, chance_label, chance_text

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
    # A log scale: cells of 1 in 100 and 1 in 10,000 get different blues.
    assert enc["color"]["scale"]["type"] == "log"
    assert enc["color"]["scale"]["domain"] == [charts.HEATMAP_FLOOR, 1]
    assert enc["y"]["field"] == "contract" and enc["y"]["sort"] == CONTRACTS
    assert enc["color"]["field"] == "shade" and enc["color"]["type"] == "quantitative"
    assert enc["color"]["legend"]["labelExpr"] == AXIS_LABELS
    # The cell text is the chance in words (chance_label), computed beside p; the
    # tooltip gives it in full words.
    assert labels["encoding"]["text"]["field"] == "label"
    rows = next(iter(spec["datasets"].values()))
    assert all(row["label"] == chance_label(row["p"]) for row in rows)
    assert all(row["p_words"] == chance_text(row["p"]) for row in rows)
    assert all(row["shade"] == max(row["p"], charts.HEATMAP_FLOOR) for row in rows)
    _svg(chart)


def test_contract_heatmap_without_facet(odds):
    chart = charts.contract_heatmap(odds.filter(pl.col("decks") == 2), column=None)
    assert "facet" not in chart.to_dict()
    _svg(chart)


def test_odds_lines(odds):
    chart = charts.odds_lines(odds)
    enc = chart.to_dict()["encoding"]
    assert enc["x"]["field"] == "cards" and enc["x"]["type"] == "quantitative"
    assert enc["y"]["field"] == "p" and enc["y"]["axis"]["labelExpr"] == AXIS_LABELS
    assert (enc["color"]["field"], enc["color"]["type"]) == ("decks", "ordinal")
    assert enc["color"]["scale"] == {"domain": [1, 2], "range": list(charts.DISTINCT_COLOURS[:2])}
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
    assert spec["encoding"]["y"]["axis"]["labelExpr"] == AXIS_LABELS
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
    # The tooltip gives the chance in words ("1 in 4,613"), never "0.00%".
    tips = {tip["field"]: tip for tip in spec["encoding"]["tooltip"]}
    assert tips["p_words"]["title"] == "Chance"
    values = next(iter(spec["datasets"].values()))
    assert all(row["p_words"] == chance_text(row["p"]) for row in values)
    assert all(row["p_words"].startswith("1 in ") for row in values)
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
    assert enc["y"]["axis"]["labelExpr"] == AXIS_LABELS
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


# Numbers and charts a student can read (issue 20, item 3).


def _texts(svg: str) -> list[str]:
    """The words drawn in an SVG chart (its <text> elements), in order."""
    return [html.unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def _shoes() -> pl.DataFrame:
    """Four shoes, two of them (2 decks + 4 jokers, 3 decks + 6 jokers) with nearly the
    same odds, over seven contracts: the chapter 3 chart where one line hid the other."""
    rows = [
        {"contract": f"contract {c}", "cards": n, "decks": d, "jokers": j, "p": p}
        for c in range(7)
        for n in (10, 11, 12)
        for d, j, scale in ((1, 2, 0.5), (2, 4, 1.0), (3, 6, 1.02), (2, 2, 0.6))
        for p in [min(1.0, scale * 10.0 ** (n - 14 - c))]
    ]
    return charts.shoe_label(pl.DataFrame(rows))


def test_lines_that_coincide_differ_in_colour_and_dashes():
    spec = charts.odds_lines(_shoes(), color="shoe", color_title="Shoe", log=True).to_dict()
    enc = spec["encoding"]
    colours = dict(
        zip(enc["color"]["scale"]["domain"], enc["color"]["scale"]["range"], strict=True)
    )
    dashes = dict(
        zip(
            enc["strokeDash"]["scale"]["domain"],
            map(tuple, enc["strokeDash"]["scale"]["range"]),
            strict=True,
        )
    )
    assert len(colours) == 4 and len(set(colours.values())) == 4
    assert set(colours.values()) <= set(charts.DISTINCT_COLOURS)
    assert len(set(dashes.values())) == 4
    close = ("2 decks + 4 jokers", "3 decks + 6 jokers")
    assert colours[close[0]] != colours[close[1]] and dashes[close[0]] != dashes[close[1]]
    # One legend: the dashes share the colour's field and title.
    assert enc["strokeDash"]["title"] == enc["color"]["title"] == "Shoe"
    assert enc["strokeWidth"]["legend"] is None


def test_every_player_count_has_its_own_colour(turns):
    many = pl.concat(turns.with_columns(pl.lit(n).alias("players")) for n in range(2, 9))
    spec = charts.completion_chart(many, facet="contract", distinct=True).to_dict()
    scale = spec["spec"]["layer"][1]["encoding"]["color"]["scale"]
    colours = dict(zip(scale["domain"], scale["range"], strict=True))
    assert sorted(colours) == list(range(2, 9)) and len(set(colours.values())) == 7
    # The two greens: 6 and 8 players are now vermilion and grey.
    assert (colours[6], colours[8]) == ("#D55E00", "#7F7F7F")
    # Ordered numbers (jokers, decks) get the same palette, in sorted order.
    jokers = turns.with_columns((pl.col("players") * 2).alias("jokers"))
    enc = charts.completion_chart(jokers, color="jokers").to_dict()["layer"][1]["encoding"]
    assert enc["color"]["scale"] == {"domain": [4, 8], "range": list(charts.DISTINCT_COLOURS[:2])}


def test_no_legend_of_one_entry(turns, odds):
    four = turns.filter(pl.col("players") == 4)
    keep = four.select("turn", "contract", pl.col("p") * 0.8)
    spec = charts.completion_chart(four, facet="contract", keep=keep).to_dict()
    sim, line, dashed = spec["spec"]["layer"]
    assert line["encoding"]["color"]["legend"] is None
    assert dashed["encoding"]["strokeDash"]["legend"] is None
    # The key moves under the title instead.
    assert spec["title"]["subtitle"] == [
        "Line: simulated, with its 95% band; dashed line: keep every card (exact)"
    ]
    svg = _svg(charts.completion_chart(four, facet="contract", keep=keep))
    assert "Players" not in _texts(svg)
    # Two players and one exact line: the players keep their legend, the line its note.
    spec = charts.completion_chart(turns, facet="contract", keep=keep).to_dict()
    assert "legend" in spec["spec"]["layer"][1]["encoding"]["color"]
    assert spec["spec"]["layer"][1]["encoding"]["color"]["legend"] is not None
    assert spec["title"]["subtitle"] == ["Dashed line: keep every card (exact)"]
    # Two shoes of exact lines: a legend of two dash patterns.
    by_shoe = pl.concat(keep.with_columns(pl.lit(s).alias("shoe")) for s in ("a", "b"))
    spec = charts.completion_chart(four, facet="contract", keep=by_shoe, keep_by="shoe").to_dict()
    assert spec["spec"]["layer"][2]["encoding"]["strokeDash"].get("legend", {}) is not None
    one_deck = charts.odds_lines(odds.filter(pl.col("decks") == 2)).to_dict()["encoding"]
    assert one_deck["color"]["legend"] is None and one_deck["strokeDash"]["legend"] is None


def test_wrapped_facets_draw_no_empty_panels():
    frame = _shoes().filter(pl.col("contract") != "contract 6")  # 6 panels: 3 + 3
    assert "resolve" not in charts.odds_lines(frame, color="shoe").to_dict()
    seven = charts.odds_lines(_shoes(), color="shoe")  # 3 + 3 + 1
    assert seven.to_dict()["resolve"] == {"axis": {"x": "independent"}}
    # Drawn: one x axis title per panel, none under the two empty places of the last row.
    assert _texts(_svg(seven)).count("Cards in hand") == 7
    distance = pl.DataFrame(
        {
            "contract": [f"c{i}" for i in range(5) for _ in range(3)],
            "distance": [0, 1, 2] * 5,
            "p": [0.2, 0.5, 0.3] * 5,
        }
    )
    bars = charts.distance_chart(distance, facet="contract")
    assert _texts(_svg(bars)).count("Cards away from the contract") == 5


def test_heatmap_of_presets_shows_each_shoe_its_own_presets():
    rows = [
        {"contract": "2 sets", "rules": rules, "shoe": shoe, "p": 0.05}
        for shoe, presets in (("2 decks + 4 jokers", ("bga", "standard")), ("2 + 2", ("family",)))
        for rules in presets
    ]
    chart = charts.contract_heatmap(pl.DataFrame(rows), x="rules", x_title="Preset")
    assert chart.to_dict()["resolve"] == {
        "scale": {"x": "independent"},
        "axis": {"x": "independent"},
    }
    texts = _texts(_svg(chart))
    assert texts.count("family") == 1 and texts.count("standard") == 1


def test_heatmap_never_writes_zero_for_a_chance_above_zero(odds):
    tiny = odds.with_columns(pl.col("p") / 40_000)
    texts = _texts(_svg(charts.contract_heatmap(tiny)))
    labels = {chance_label(p) for p in tiny["p"]}
    assert all(label.startswith("1 in ") for label in labels) and labels <= set(texts)
    # No "0%" is drawn: no cell rounds to zero, and the colour key (a log scale) reads
    # from 1 in a million to 100%.
    assert texts.count("0%") == 0 and not [t for t in texts if re.search(r"\b0\.0+%", t)]
    assert {"1 in 1,000,000", "1 in 10,000", "1%", "100%"} <= set(texts)
    assert chance_label(1e-9) == "1 in 1G" and chance_label(2.5e-6) == "1 in 400k"
    with pytest.raises(ValueError, match="between 0 and 1"):
        chance_label(1.5)


def test_number_axes_read_minus_40_0_40():
    frame = pl.DataFrame(
        {
            "contract": ["2 sets", "3 runs"],
            "difference": [-38.0, 231.0],
            "ci_low": [-45.0, 220.0],
            "ci_high": [-30.0, 242.0],
        }
    )
    chart = charts.interval_chart(
        frame, y="contract", y_title="Contract", value="difference", percent=False
    )
    spec = chart.to_dict()
    zero, bars, _ = spec["layer"]
    assert zero["mark"]["type"] == "rule" and zero["encoding"]["x"]["field"] == "zero"
    assert bars["encoding"]["x"]["axis"] == {"format": ",~f", "tickCount": 5}
    ticks = [t.replace("\u2212", "-") for t in _texts(_svg(chart))]
    numbers = [t for t in ticks if re.fullmatch(r"-?[\d,]+(\.\d+)?", t)]
    assert "0" in numbers and any(t.startswith("-") for t in numbers)
    assert not [t for t in numbers if t.endswith(".0")]
    assert len(numbers) <= 8


def test_hand_size_ticks_are_whole_numbers(odds):
    enc = charts.odds_lines(odds).to_dict()["encoding"]
    assert enc["x"]["axis"] == {"format": "d", "values": [10, 11, 12]}
    wide = pl.DataFrame({"cards": range(1, 31), "p": [0.01] * 30, "decks": [2] * 30})
    axis = charts.odds_lines(wide, facet=None).to_dict()["encoding"]["x"]["axis"]
    assert axis == {"format": "d", "tickMinStep": 1}
    texts = _texts(_svg(charts.odds_lines(odds.filter(pl.col("decks") == 2), facet=None)))
    assert {"10", "11", "12"} <= set(texts) and "10.5" not in texts


def test_log_axis_reads_one_in_n_below_one_percent():
    frame = _shoes().filter(pl.col("contract") == "contract 0")  # 1 in 20,000 to 1%
    spec = charts.odds_lines(frame, color="shoe", facet=None, log=True).to_dict()
    values = spec["encoding"]["y"]["axis"]["values"]
    assert values == sorted(values) and values[-1] == 1.0
    assert all(abs(math.log10(v) - round(math.log10(v))) < 1e-9 for v in values)
    assert min(values) <= min(row["p"] for row in frame.iter_rows(named=True))
    texts = _texts(_svg(charts.odds_lines(frame, color="shoe", facet=None, log=True)))
    assert "1%" in texts and "1 in 1,000" in texts and not [t for t in texts if "0.0" in t]


def test_completion_lines_that_coincide_can_have_dashes(turns):
    presets = pl.concat(turns.with_columns(pl.lit(name).alias("rules")) for name in ("a", "b"))
    spec = charts.completion_chart(presets, color="rules", dashes=True, facet="contract").to_dict()
    line = spec["spec"]["layer"][1]["encoding"]
    assert line["strokeDash"]["scale"]["domain"] == ["a", "b"]
    assert line["strokeDash"]["scale"]["range"] == [list(d) for d in charts.LINE_DASHES[:2]]
    assert line["strokeDash"]["title"] == line["color"]["title"]
    keep = turns.filter(players=4).select("turn", "contract", "p")
    spec = charts.completion_chart(presets, color="rules", dashes=True, keep=keep).to_dict()
    assert spec["resolve"] == {"scale": {"strokeDash": "independent"}}
    # Without dashes the exact lines' dash key is the only one: nothing to keep apart.
    assert "resolve" not in charts.completion_chart(presets, color="rules", keep=keep).to_dict()
    assert (
        "strokeDash"
        not in charts.completion_chart(presets, color="rules").to_dict()["layer"][1]["encoding"]
    )


def test_odds_lines_names_lines_that_lie_on_one_another():
    # Chapter 3's shoes: 2 decks + 4 jokers and 3 decks + 6 jokers stay within 28% of
    # each other (a hair apart on a log scale of six powers of ten); no other pair does.
    data = Path(__file__).resolve().parents[1] / "data"
    exact = charts.shoe_label(pl.read_parquet(data / "exact_odds.parquet"))
    title = charts.odds_lines(exact, color="shoe", color_title="Shoe", log=True).to_dict()
    subtitle = title["title"]["subtitle"]
    assert len(subtitle) == 1
    assert subtitle[0].startswith("2 decks + 4 jokers and 3 decks + 6 jokers lie almost")
    wide = exact.filter(pl.col("shoe").is_in(["1 deck + 2 jokers", "2 decks + 2 jokers"]))
    assert "subtitle" not in str(charts.odds_lines(wide, color="shoe").to_dict()["title"])
    # The factor is measured: doubling one shoe's chances parts them.
    parted = exact.with_columns(
        pl.when(pl.col("shoe") == "3 decks + 6 jokers")
        .then(pl.col("p") / 2)
        .otherwise(pl.col("p"))
        .alias("p")
    )
    assert "subtitle" not in str(charts.odds_lines(parted, color="shoe").to_dict()["title"])
