"""The plain charts (rummykit.widgets.plain) drawn without altair: the geometry of a
completion curve and its band read back from the SVG, on a committed curve."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rummykit import RuleSet
from rummykit.odds.known_completion import committed_curve
from rummykit.widgets.plain import LINE_COLOURS, completion_svg

SVG = "{http://www.w3.org/2000/svg}"


def _points(text: str) -> list[tuple[float, float]]:
    return [tuple(float(v) for v in pair.split(",")) for pair in text.split()]


def _rows(curve, line: str) -> list[dict]:
    return [
        {"line": line, "turn": p.turn, "p": p.p, "ci_low": p.ci_low, "ci_high": p.ci_high}
        for p in curve.points
    ]


def test_a_committed_curve_is_drawn_where_its_numbers_say():
    standard = RuleSet.preset("standard")
    curve = committed_curve(standard, players=4, round=1, decks=2, jokers=4)
    rows = _rows(curve, "4 players")
    root = ET.fromstring(completion_svg(rows, "Laying down <2 sets>", "n = 10,000"))
    (line,) = root.iter(f"{SVG}polyline")
    (band,) = root.iter(f"{SVG}polygon")
    assert line.get("stroke") == band.get("fill") == LINE_COLOURS[0]
    drawn = _points(line.get("points"))
    assert len(drawn) == len(rows)
    # The chance 0 is the plot's bottom (y = 52 + 240), 1 its top (y = 52); turns left to
    # right from x = 70 to 490.
    for (px, py), row in zip(drawn, rows, strict=True):
        assert py == pytest.approx(292 - 240 * row["p"], abs=0.06)
        first, last = rows[0]["turn"], rows[-1]["turn"]
        assert px == pytest.approx(70 + 420 * (row["turn"] - first) / (last - first), abs=0.06)
    # The band: the upper ends left to right, then the lower ends back; it holds the line.
    edge = _points(band.get("points"))
    upper, lower = edge[: len(rows)], edge[len(rows) :][::-1]
    for (ux, uy), (lx, ly), (px, py) in zip(upper, lower, drawn, strict=True):
        assert ux == lx == px and uy <= py <= ly
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Laying down <2 sets>" in texts and "4 players" in texts and "n = 10,000" in texts
    assert "Turn" in texts and "40%" in texts and "100%" in texts


def test_lines_take_their_colours_in_order_and_long_curves_thin_their_ticks():
    rows = [
        {"line": name, "turn": t, "p": t / 40, "ci_low": t / 40, "ci_high": t / 40}
        for name in ("a", "b")
        for t in range(1, 41)
    ] + [{"line": "a", "turn": 41, "p": None, "ci_low": None, "ci_high": None}]
    root = ET.fromstring(completion_svg(rows, "Two lines"))
    assert [p.get("stroke") for p in root.iter(f"{SVG}polyline")] == list(LINE_COLOURS[:2])
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.text.isdigit()]
    assert 10 <= len(ticks) <= 15 and ticks[0] == "1" and "41" not in ticks
