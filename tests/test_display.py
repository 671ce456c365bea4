"""rummykit.display.show: polars frames as plain tables a student can read (issue 20,
item 3): no quoted strings, chances in words, thousands separators, wide tables in a
box that scrolls sideways instead of running off the page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import polars as pl
import pytest

from rummykit.chance import chance_text
from rummykit.display import (
    BOX_STYLE,
    CELL_STYLE,
    MISSING,
    Table,
    interval_column,
    interval_text,
    number_text,
    show,
)
from rummykit.errors import ArgumentError, ArgumentTypeError


class _Cells(HTMLParser):
    """The text of every <th>/<td> of an HTML table, and the style of its outer <div>."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.styles: list[str] = []
        self._open = False

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.styles.append(dict(attrs).get("style", ""))
        if tag in ("th", "td"):
            self._open = True
            self.cells.append("")

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._open = False

    def handle_data(self, data):
        if self._open:
            self.cells[-1] += data


def _cells(table: Table) -> _Cells:
    parser = _Cells()
    parser.feed(table._repr_html_())
    return parser


@pytest.fixture
def odds() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "round": [1, 7],
            "contract": ["2 sets", "3 runs"],
            "cards": [10, 12],
            "p": [0.089086, 1 / 553_998],
            "hands": [2_412_345, 49],
            "method": ["exact", None],
        }
    )


def test_strings_are_not_quoted_and_chances_are_words(odds):
    table = show(odds, chances=["p"])
    parsed = _cells(table)
    assert parsed.cells[:6] == ["round", "contract", "cards", "p", "hands", "method"]
    assert parsed.cells[6:] == [
        "1", "2 sets", "10", "8.9% (1 in 11)", "2,412,345", "exact",
        "7", "3 runs", "12", "1 in 553,998", "49", MISSING,
    ]  # fmt: skip
    assert not [cell for cell in parsed.cells if '"' in cell or "'" in cell]
    # The same cells in the plain-text form, aligned in columns.
    text = str(table).splitlines()
    assert len(text) == 3 and all('"' not in line for line in text)
    assert text[2].startswith("    7  3 runs") and "1 in 553,998" in text[2]
    assert text[0].index("hands") + len("hands") == text[1].index("2,412,345") + len("2,412,345")


def test_no_chance_above_zero_reads_as_zero():
    frame = pl.DataFrame({"p": [0.0, 3.1e-7, 0.00049, 0.004, 0.9996, 1.0]})
    cells = _cells(show(frame, chances=["p"])).cells[1:]
    assert cells == [chance_text(p) for p in frame["p"]]
    assert cells[0] == "impossible" and cells[-1] == "certain"
    assert not [cell for cell in cells[1:-1] if re.search(r"\b0(\.0+)?%", cell)]
    with pytest.raises(ArgumentError, match="between 0 and 1"):
        show(pl.DataFrame({"p": [1.5]}), chances=["p"])


def test_wide_tables_scroll_inside_the_page():
    wide = pl.DataFrame({f"preset {i}": ["2:2, 3:2, 4:2, 5:3, 6:3, 7:3, 8:3"] for i in range(9)})
    parsed = _cells(show(wide))
    assert parsed.styles[0] == BOX_STYLE
    assert "overflow-x: auto" in BOX_STYLE and "max-width: 100%" in BOX_STYLE
    # Numbers and short words stay on one line (the box scrolls); long words may wrap.
    long = "a set needs only 1 natural (no joker limit)"
    html = show(pl.DataFrame({"n": [1], "rule": ["turn 3; 92%"], "why": [long]}))._repr_html_()
    pad = CELL_STYLE
    assert f'<td style="text-align: right; {pad} white-space: nowrap;">1</td>' in html
    assert f'<td style="text-align: left; {pad} white-space: nowrap;">turn 3; 92%</td>' in html
    assert f'<td style="text-align: left; {pad}">{long}</td>' in html
    # Room between columns, and a rule under the header, whatever the page's own style.
    assert pad == "padding: 0.2em 0.8em;" and 'border-bottom: 1px solid #999;">n</th>' in html


def test_html_is_escaped_and_other_values_are_plain():
    frame = pl.DataFrame(
        {"name": ["<b>Ann</b> & co"], "ok": [True], "melds": [[3, 4]], "mean": [13.254]}
    )
    table = show(frame, caption="Scores & more")
    html = table._repr_html_()
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in html and "<b>" not in html
    assert "<caption>Scores &amp; more</caption>" in html
    assert table.rows == (("<b>Ann</b> & co", "yes", "3, 4", "13.3"),)
    assert str(table).splitlines()[0] == "Scores & more"


def test_long_frames_say_what_is_left_out():
    table = show(pl.DataFrame({"n": range(1, 101)}), max_rows=10)
    assert len(table.rows) == 10 and table.rows[-1] == ("10",)
    assert table.note == "90 more rows not shown"
    assert str(table).endswith("90 more rows not shown")
    assert "<p>90 more rows not shown</p>" in table._repr_html_()
    assert show(pl.DataFrame({"n": [1, 2]}), max_rows=1).note == "1 more row not shown"


def test_numbers_to_significant_figures():
    assert [number_text(v) for v in (0.1234567, 12.0, 123456.7, -0.5, 1e-9)] == [
        "0.123",
        "12",
        "123,457",
        "-0.5",
        "0.000000001",
    ]
    assert number_text(2.71828, digits=5) == "2.7183"
    assert number_text(float("nan")) == MISSING


def test_bad_arguments_are_named():
    frame = pl.DataFrame({"p": [0.5]})
    with pytest.raises(ArgumentTypeError, match="polars DataFrame"):
        show({"p": [0.5]})
    with pytest.raises(ArgumentTypeError, match="list of column names"):
        show(frame, chances="p")
    with pytest.raises(ArgumentError, match="no column q"):
        show(frame, chances=["p", "q"])
    with pytest.raises(ArgumentError, match="max_rows"):
        show(frame, max_rows=0)
    with pytest.raises(ArgumentError, match="digits"):
        show(frame, digits=0)
    with pytest.raises(ArgumentTypeError, match="needs a number"):
        number_text("12")


def test_intervals_read_plainly():
    frame = pl.DataFrame(
        {"mean": [0.0137, -2.5], "ci_low": [0.0089, -4.04], "ci_high": [0.0186, -0.96]}
    )
    texts = frame.select(interval_column(digits=2))["mean"].to_list()
    assert texts == ["0.014 (0.0089 to 0.019)", "-2.5 (-4 to -0.96)"]
    assert interval_text(6.04, 5.93, 6.14) == "6.04 (5.93 to 6.14)"
    with pytest.raises(ArgumentError, match="digits"):
        interval_column(digits=0)


class _Nesting(HTMLParser):
    """Every tag opened and closed, checked to nest: the open tags on a stack."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.rows = 0

    def handle_starttag(self, tag, attrs):
        assert not (tag == "tr" and "tr" in self.stack), "a row opened inside a row"
        self.rows += tag == "tr"
        self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, f"</{tag}> closes another tag"


def test_the_table_is_well_formed_html(odds):
    parser = _Nesting()
    parser.feed(show(odds, chances=["p"], caption="Two rows")._repr_html_())
    assert parser.stack == [] and parser.rows == 1 + odds.height
