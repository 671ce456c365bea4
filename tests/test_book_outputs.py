"""The book's notebooks, as committed, show numbers and code a student can read (issue 20,
item 3).

Every notebook in notebooks/ is scanned (a new chapter is covered the day it lands); the
code of those in :data:`CODE_NOT_YET` is not checked yet, each with the reason: take a
notebook out of that list once it passes. The committed outputs are what the book
shows: tests/test_notebooks_executed.py checks they are what the code gives (on the book's
run), and these tests check what they say.

- No chance above zero reads as zero: no "0.0%" / "0.00%" in any output, and no bare
  "0.0" number in a table or a printed line (a true zero is written "0" or "0%").
- Charts (their SVG <text>) likewise, and no axis label like "40.0" ("-40 / 0 / 40").
  Tooltips (the SVG's aria-labels) are not scanned: they are read on demand.
- Tables are plain: no quoted strings in an HTML table cell, and no polars table of its
  own (``class="dataframe"``, the box-drawn text form): frames go through
  :func:`rummykit.display.show`.
- Code fits the page: no code line longer than :data:`MAX_LINE` characters, no opening
  set-up cell (the first code cell) longer than :data:`MAX_SETUP_LINES` lines.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.support.notebooks import CODE_NOT_YET, NOTEBOOKS

#: The longest code line that fits the book's page without sideways scrolling: its code
#: blocks hold 77 characters at a 1280-pixel-wide window, 85 at 1366, 89 from 1440 (14 px
#: monospace, measured in Chromium on the built book). notebooks/ruff.toml formats to it.
MAX_LINE = 76
#: The longest opening set-up cell (imports and settings), in lines.
MAX_SETUP_LINES = 15

#: A percentage of zero written with decimals: "0.0%", "0.00%" (a rounded nonzero chance).
ZERO_PERCENT = re.compile(r"(?<![\d.,])0\.0+\s?%")
#: A bare "0.0" / "0.000" number (a table cell or a printed value), not part of a longer
#: number ("10.0", "0.05") or of a percentage.
ZERO_DECIMAL = re.compile(r"(?<![\d.,])0\.0+(?![\d%])")
#: An axis label such as "40.0" or "-40.0": a whole number written with a decimal zero.
DECIMAL_TICK = re.compile(r"^[-\u2212]?[\d,]+\.0+$")
#: A table cell whose text is quoted, as polars' HTML shows strings.
QUOTED_CELL = re.compile(r"<t[dh][^>]*>\s*(&quot;|&#34;|\"|')")
#: polars' own table, in HTML or as box-drawn text.
POLARS_TABLE = re.compile(r'class="dataframe"|^[┌╞└]', re.MULTILINE)


def _notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def _outputs(path: Path):
    """``(cell number, kind, text)`` for every output of the notebook at ``path``: kind is
    "text" (text/plain, streams, errors), "html" or "svg"."""
    notebook = json.loads(path.read_text())
    for number, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                yield number, "text", "".join(output["text"])
            data = output.get("data", {})
            for mime, kind in (("text/plain", "text"), ("text/html", "html")):
                if mime in data:
                    yield number, kind, "".join(data[mime])
            if "image/svg+xml" in data:
                yield number, "svg", "".join(data["image/svg+xml"])


def _svg_texts(svg: str) -> list[str]:
    """The words an SVG draws (its <text> elements), without its aria-labels."""
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def _html_texts(page: str) -> str:
    """The text of an HTML output, tags and styles removed."""
    page = re.sub(r"<style.*?</style>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _zero_chances(path: Path) -> list[str]:
    found = []
    for number, kind, text in _outputs(path):
        if kind == "svg":
            words = _svg_texts(text)
            bad = [w for w in words if ZERO_PERCENT.search(w) or ZERO_DECIMAL.search(w)]
            bad += [w for w in words if DECIMAL_TICK.match(w.strip())]
        else:
            plain = _html_texts(text) if kind == "html" else text
            bad = ZERO_PERCENT.findall(plain) + ZERO_DECIMAL.findall(plain)
        found += [f"cell {number} ({kind}): {w!r}" for w in bad]
    return found


def test_every_notebook_is_scanned_or_said_why_not():
    names = {path.stem for path in _notebooks()}
    assert {"01_learn_the_rules", "05_rule_variants", "play"} <= names
    assert set(CODE_NOT_YET) <= names, "CODE_NOT_YET names a notebook that is gone"
    assert len(names) >= 7


@pytest.mark.parametrize("path", _notebooks(), ids=lambda path: path.stem)
def test_no_chance_above_zero_reads_as_zero(path):
    assert _zero_chances(path) == []


@pytest.mark.parametrize("path", _notebooks(), ids=lambda path: path.stem)
def test_tables_are_plain_html_without_quotes(path):
    found = []
    for number, kind, text in _outputs(path):
        if kind == "html" and QUOTED_CELL.search(text):
            found.append(f"cell {number}: a quoted table cell")
        if kind in ("html", "text") and POLARS_TABLE.search(text):
            found.append(f"cell {number}: polars' own table (use rummykit.display.show)")
    assert found == []


@pytest.mark.parametrize(
    "path", [p for p in _notebooks() if p.stem not in CODE_NOT_YET], ids=lambda p: p.stem
)
def test_code_fits_the_page(path):
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    long = [
        f"code cell {i}: {len(line)} characters: {line.strip()[:40]}..."
        for i, cell in enumerate(cells)
        for line in "".join(cell["source"]).splitlines()
        if len(line) > MAX_LINE
    ]
    assert long == []
    setup = "".join(cells[0]["source"]).splitlines() if cells else []
    assert len(setup) <= MAX_SETUP_LINES, f"the set-up cell has {len(setup)} lines"


def test_the_scan_finds_what_it_is_for(tmp_path):
    """The patterns catch the book's old faults and pass what replaced them."""
    bad = ["0.0%", "p = 0.00 %", "│ 7 ┆ 3 runs ┆ 0.0 │", "0.000"]
    good = ["0%", "1 in 553,998", "10.0%", "0.05", "8.909%", "2.0% (1 in 50)", "20.0"]
    assert all(ZERO_PERCENT.search(t) or ZERO_DECIMAL.search(t) for t in bad)
    assert not [t for t in good if ZERO_PERCENT.search(t) or ZERO_DECIMAL.search(t)]
    assert [
        t for t in ("-40.0", "\u221240.0", "0.0", "40", "2.5", "1,000.0") if DECIMAL_TICK.match(t)
    ] == [
        "-40.0",
        "\u221240.0",
        "0.0",
        "1,000.0",
    ]
    assert QUOTED_CELL.search("<td>&quot;2 sets&quot;</td>")
    assert not QUOTED_CELL.search('<td style="text-align: left;">2 sets</td>')
    assert POLARS_TABLE.search('<table border="1" class="dataframe">')
    assert POLARS_TABLE.search("┌───────┬\n│ round │")
    # A notebook with such outputs fails the scan, cell by cell.
    svg = '<svg><text x="1">0.0%</text><text>1 in 4.6k</text><path aria-label="0.00%"/></svg>'
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "source": ["x"],
                "outputs": [
                    {"output_type": "stream", "name": "stdout", "text": ["p = 0.00%\n"]},
                    {"output_type": "execute_result", "data": {"image/svg+xml": [svg]}},
                ],
            }
        ]
    }
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps(notebook))
    assert _zero_chances(path) == ["cell 0 (text): '0.00%'", "cell 0 (svg): '0.0%'"]


#: A group of a chart's data marks in Vega's SVG: lines, points and bands (rules are left
#: out: they draw intervals beside points of the same colour, and reference lines).
DATA_MARKS = re.compile(
    r'<g class="mark-(line|symbol|area) role-mark[^"]*"[^>]*>(.*?)</g>', re.DOTALL
)
#: How a chart names its series: a legend, a label drawn in the plot, or a key in words
#: under the title ("Line: simulated, ...; dashed line: keep every card").
NAMED = re.compile(
    r"role-legend|mark-text role-mark|role-title-subtitle[^>]*aria-label=\"Subtitle text '[^']*line"
)


def _series(svg: str) -> set[tuple[str, str | None]]:
    """The series a chart draws: each distinct colour and dash of its lines, points and
    bands."""
    found = set()
    for kind, body in DATA_MARKS.findall(svg):
        for attributes in re.findall(r"<(?:path|line)\b([^>]*)>", body):
            paint = "stroke" if kind == "line" else "fill"
            colour = re.search(rf' {paint}="([^"]+)"', attributes)
            dash = re.search(r'stroke-dasharray="([^"]+)"', attributes)
            if colour and colour.group(1) != "none":
                found.add((colour.group(1).lower(), dash.group(1) if dash else None))
    return found


def _unnamed_series(path: Path) -> list[str]:
    """Every chart of the notebook at ``path`` that draws two series or more and names
    them only in its tooltips."""
    return [
        f"cell {number}: {len(_series(svg))} series, no legend or labels"
        for number, kind, svg in _outputs(path)
        if kind == "svg" and len(_series(svg)) >= 2 and not NAMED.search(svg)
    ]


@pytest.mark.parametrize("path", _notebooks(), ids=lambda path: path.stem)
def test_every_chart_of_several_series_names_them(path):
    # Issue 49 item 9: a reader tells the lines apart without a tooltip.
    assert _unnamed_series(path) == []


def test_the_series_scan_finds_a_chart_without_a_legend(tmp_path):
    import altair as alt
    import polars as pl
    import vl_convert

    frame = pl.DataFrame({"x": [1, 2, 1, 2], "y": [1.0, 2.0, 2.0, 1.0], "s": list("aabb")})
    colours = alt.Scale(domain=["a", "b"], range=["#E69F00", "#56B4E9"])
    drawn = {
        "silent": alt.Chart(frame)
        .mark_line()
        .encode(x="x", y="y", color=alt.Color("s", scale=colours, legend=None)),
        "legend": alt.Chart(frame)
        .mark_line()
        .encode(x="x", y="y", color=alt.Color("s", scale=colours)),
        "one": alt.Chart(frame.filter(s="a")).mark_line().encode(x="x", y="y"),
    }
    cells = [
        {
            "cell_type": "code",
            "source": [name],
            "outputs": [
                {
                    "output_type": "execute_result",
                    "data": {"image/svg+xml": [vl_convert.vegalite_to_svg(chart.to_dict())]},
                }
            ],
        }
        for name, chart in drawn.items()
    ]
    path = tmp_path / "charts.ipynb"
    path.write_text(json.dumps({"cells": cells}))
    assert _unnamed_series(path) == ["cell 0: 2 series, no legend or labels"]
