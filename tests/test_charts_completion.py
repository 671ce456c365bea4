"""Completion charts (issue 15, item 4): 2-8 players on one figure in colours told apart,
the exact "keep every card" line beside the simulated one, and where it stops said in
the chart. Test the spec, then that vl-convert draws it (offline, as the book does)."""

from __future__ import annotations

import random

import polars as pl
import pytest

from rummykit import charts
from rummykit.errors import ArgumentError, ArgumentTypeError

vl_convert = pytest.importorskip("vl_convert")


def simulated(players=range(2, 9), turns=range(1, 8), contracts=("2 sets",)) -> pl.DataFrame:
    rows = []
    for contract in contracts:
        for n in players:
            for t in turns:
                p = min(1.0, 0.1 * t + 0.02 * n)
                rows.append(
                    {
                        "players": n,
                        "contract": contract,
                        "turn": t,
                        "p": p,
                        "ci_low": max(0.0, p - 0.05),
                        "ci_high": min(1.0, p + 0.05),
                    }
                )
    return pl.DataFrame(rows, schema_overrides={"players": pl.Int8, "turn": pl.Int16})


def keep_rows(shoes=("2 decks + 4 jokers",), turns=range(1, 8), contracts=("2 sets",)):
    return pl.DataFrame(
        [
            {"shoe": shoe, "contract": contract, "turn": t, "p": 0.08 * t}
            for shoe in shoes
            for contract in contracts
            for t in turns
        ],
        schema_overrides={"turn": pl.Int16},
    )


def layers_of(spec: dict) -> list[dict]:
    return spec["spec"]["layer"] if "spec" in spec else spec["layer"]


def svg(chart) -> str:
    drawn = vl_convert.vegalite_to_svg(chart.to_json())
    assert drawn.startswith("<svg")
    return drawn


def test_seven_player_counts_get_seven_colours_that_differ():
    chart = charts.completion_chart(simulated(), distinct=True)
    band, line = chart.to_dict()["layer"]
    colour = line["encoding"]["color"]
    assert colour["field"] == "players" and colour["type"] == "ordinal"
    assert colour["scale"]["range"] == list(charts.DISTINCT_COLOURS)
    assert len(set(charts.DISTINCT_COLOURS)) == 7
    # Not the keep line's black, not the pale yellow of Okabe-Ito.
    assert charts.KEEP_COLOUR not in charts.DISTINCT_COLOURS
    assert "#F0E442" not in charts.DISTINCT_COLOURS
    # The legend shows full-strength lines, not the pale bands.
    assert colour["legend"]["symbolType"] == "stroke" and colour["legend"]["symbolOpacity"] == 1
    drawn = svg(chart)
    for colour_used in charts.DISTINCT_COLOURS:
        assert colour_used.lower() in drawn.lower()


def test_keep_every_card_lines_are_drawn_dashed_one_per_shoe():
    shoes = ("2 decks + 4 jokers", "3 decks + 6 jokers")
    chart = charts.completion_chart(simulated(), keep=keep_rows(shoes), keep_by="shoe")
    spec = chart.to_dict()
    band, line, keep = spec["layer"]
    assert keep["mark"]["color"] == charts.KEEP_COLOUR and keep["mark"]["type"] == "line"
    dash = keep["encoding"]["strokeDash"]
    assert dash["scale"]["domain"] == list(shoes)
    assert dash["scale"]["range"] == [list(d) for d in charts.KEEP_DASHES[:2]]
    assert [layer["transform"][0]["filter"] for layer in (band, line, keep)] == [
        "datum._layer == 'simulated'",
        "datum._layer == 'simulated'",
        "datum._layer == 'keep'",
    ]
    data = next(iter(spec["datasets"].values()))
    kept = [row for row in data if row["_layer"] == "keep"]
    assert len(kept) == 2 * 7 and {row["_keep"] for row in kept} == set(shoes)
    assert "Keep every card (exact)" in svg(chart)


def test_hand_sizes_not_counted_are_left_out_and_said_in_the_title():
    keep = keep_rows(contracts=("2 sets", "1 set + 2 runs")).with_columns(
        cards=pl.col("turn") + 12,
        method=pl.when((pl.col("contract") == "1 set + 2 runs") & (pl.col("turn") >= 3))
        .then(pl.lit("not counted"))
        .otherwise(pl.lit("exact")),
        seconds=pl.when(pl.col("turn") >= 3).then(53.4).otherwise(0.0),
    )
    keep = keep.with_columns(p=pl.when(pl.col("method") == "exact").then(pl.col("p")))
    frame = simulated(players=[4], contracts=("2 sets", "1 set + 2 runs"))
    chart = charts.completion_chart(frame, facet="contract", keep=keep)
    spec = chart.to_dict()
    # One player count and one exact line: no legends, a key under the title instead.
    key = "Line: simulated, with its 95% band; dashed line: keep every card (exact)"
    assert spec["title"]["subtitle"] == [
        key,
        "1 set + 2 runs: the exact line stops at turn 2: hands of 15 cards are not counted exactly",
    ]
    data = next(iter(spec["datasets"].values()))
    drawn = [(r["contract"], r["turn"]) for r in data if r["_layer"] == "keep"]
    assert ("1 set + 2 runs", 3) not in drawn and ("1 set + 2 runs", 2) in drawn
    assert all(r["p"] is not None for r in data)  # no row without a value is drawn
    assert "not counted exactly" in svg(chart)
    # Nothing left out: the key alone.
    counted = keep.filter(pl.col("method") == "exact")
    title = charts.completion_chart(frame, facet="contract", keep=counted).to_dict()["title"]
    assert title["subtitle"] == [key]


def test_a_hand_size_not_counted_from_the_first_turn_has_no_line():
    keep = keep_rows().with_columns(
        cards=pl.col("turn") + 12, method=pl.lit("not counted"), seconds=pl.lit(900.0), p=None
    )
    chart = charts.completion_chart(simulated(players=[4]), keep=keep)
    assert chart.to_dict()["title"]["subtitle"] == [
        "no exact line: hands of 13 cards are not counted exactly"
    ]


def test_colour_order_gives_every_value_its_own_colour_whatever_is_shown():
    presets = ["standard", "pagat", "wikipedia", "bga", "family"]
    frame = simulated(players=[4]).with_columns(rules=pl.lit("standard"))
    both = pl.concat([frame, frame.with_columns(rules=pl.lit("family"))])
    for shown in (frame, both):
        chart = charts.completion_chart(shown, color="rules", distinct=True, color_order=presets)
        scale = chart.to_dict()["layer"][1]["encoding"]["color"]["scale"]
        expected = [p for p in presets if p in set(shown["rules"])]
        assert scale["domain"] == expected
        assert scale["range"] == [charts.DISTINCT_COLOURS[presets.index(p)] for p in expected]


def test_bad_frames_fail_clearly():
    with pytest.raises(ArgumentError, match="completion_chart \\(keep\\) needs .* missing shoe"):
        charts.completion_chart(simulated(), keep=keep_rows().drop("shoe"), keep_by="shoe")
    with pytest.raises(ArgumentError, match="settled_turn needs at least one row"):
        charts.settled_turn(simulated().clear(), by=["players"])
    with pytest.raises(ArgumentTypeError, match="settled_turn needs a polars DataFrame"):
        charts.settled_turn({"turn": [1]}, by=["players"])


def settled_at(frame: pl.DataFrame, t: int, within: float) -> bool:
    """Whether every line of ``frame`` is within ``within`` of its last value by turn ``t``
    (a line that ended before ``t`` stays at its last value)."""
    for _, curve in frame.group_by("line"):
        curve = curve.sort("turn")
        at = curve.filter(pl.col("turn") <= t)["p"]
        if len(at) == 0 or at[-1] < curve["p"][-1] - within:
            return False
    return True


def test_settled_turn_matches_its_definition_on_random_curves():
    rng = random.Random(15)
    for _ in range(50):
        rows = []
        for line in range(rng.randint(1, 4)):
            p = 0.0
            for t in range(1, rng.randint(2, 12)):
                p = min(1.0, p + rng.choice([0.0, 0.001, 0.02, 0.2]))
                rows.append({"line": line, "turn": t, "p": p})
        frame = pl.DataFrame(rows)
        within = rng.choice([0.0, 0.005, 0.05])
        found = charts.settled_turn(frame, by=["line"], within=within)
        assert settled_at(frame, found, within)
        assert found == frame["turn"].min() or not settled_at(frame, found - 1, within)
