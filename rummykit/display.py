"""Polars frames shown as plain tables a student can read, in the notebooks and the book.

polars' own display puts strings in quotes (``"2 sets"``), prints chances as bare
decimals that round to ``0.0`` and lets a wide table run off the page. :func:`show`
wraps a frame in a :class:`Table` whose HTML is a plain ``<table>`` inside a box that
scrolls sideways when the table is wider than the page, and whose text form is an
aligned plain-text table: words without quotes, whole numbers with thousands
separators, other numbers to a few significant figures, and the chance columns named
in ``chances`` in words (:func:`rummykit.chance.chance_text`: "8.9% (1 in 11)",
"1 in 553,998", "impossible"), so that no chance above zero ever reads as zero.

>>> import polars as pl
>>> frame = pl.DataFrame({"contract": ["2 sets", "3 runs"], "cards": [10, 12],
...                       "p": [0.0891, 0.0000018], "hands": [2000, 123456]})
>>> print(show(frame, chances=["p"]))
contract  cards               p    hands
2 sets       10  8.9% (1 in 11)    2,000
3 runs       12    1 in 555,556  123,456
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit._optional import require
from rummykit.chance import MAX_DIGITS, chance_text, estimate_text
from rummykit.engine.checks import instance, items, whole
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.reviews import Review

pl = require("polars", extra="analysis", feature="rummykit.display")

__all__ = [
    "MISSING",
    "Table",
    "chance_column",
    "check_frame",
    "estimate_column",
    "interval_column",
    "interval_text",
    "number_text",
    "review_frame",
    "show",
]

#: What a missing value (null, NaN) reads as.
MISSING = "–"
#: The CSS of the box around a table: never wider than the page, scrolls sideways.
BOX_STYLE = "max-width: 100%; overflow-x: auto;"
#: The CSS of every cell: room between the columns, whatever the page's own table style.
CELL_STYLE = "padding: 0.2em 0.8em;"
#: Cells of words up to this many characters never wrap; longer ones may.
NOWRAP_UP_TO = 24


def check_frame(
    name: str, value: object, columns: Iterable[str] = (), *, made_by: str = ""
) -> pl.DataFrame:
    """``value`` if it is a polars DataFrame holding ``columns``, else an error naming
    ``name`` (and ``made_by``, the function or table whose frame is due): the check of
    every frame argument of the teaching helpers.

    >>> check_frame("curve", pl.DataFrame({"turn": [1]}), ["turn", "p"], made_by="curves")
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: curve must be a frame of curves with the column p (it has turn)
    """
    of = f" of {made_by}" if made_by else ""
    instance(name, value, pl.DataFrame, f"a polars DataFrame{of}")
    wanted = items("columns", columns, lambda label, c: instance(label, c, str, "a column name"))
    missing = [column for column in wanted if column not in value.columns]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise ArgumentError(
            f"{name} must be a frame{of} with the column{plural} {', '.join(missing)} "
            f"(it has {', '.join(value.columns) or 'none'})"
        )
    return value


def number_text(value: float, digits: int = 3) -> str:
    """A number for a table: whole numbers with thousands separators, others to
    ``digits`` significant figures (1 to :data:`~rummykit.chance.MAX_DIGITS`) without an
    exponent, trailing zeros dropped.

    >>> number_text(1234567), number_text(1.119168), number_text(0.004680), number_text(-40.0)
    ('1,234,567', '1.12', '0.00468', '-40')
    >>> number_text(13.25, digits=2), number_text(0), number_text(2.5e-7)
    ('13', '0', '0.00000025')
    """
    _digits(digits)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentTypeError(f"number_text needs a number, got {type(value).__name__}")
    if isinstance(value, int):
        return f"{value:,}"
    if math.isnan(value) or math.isinf(value):
        return MISSING if math.isnan(value) else str(value)
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{round(value, decimals):,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _digits(digits: object) -> int:
    return whole("digits", digits, low=1, high=MAX_DIGITS, hint="a float holds no more figures")


def interval_text(value: float, low: float, high: float, digits: int = 3) -> str:
    """An estimate with its 95% interval, each to ``digits`` significant figures:
    "9.05 (9.01 to 9.09)"; "to", not a dash, so that negative numbers read plainly.

    >>> interval_text(9.0512, 9.0107, 9.0917), interval_text(-2.5, -4.04, -0.96)
    ('9.05 (9.01 to 9.09)', '-2.5 (-4.04 to -0.96)')
    >>> interval_text(0.0137, 0.0089, 0.0185)
    '0.0137 (0.0089 to 0.0185)'

    Every sample the same (no buys where none are allowed) has no interval to show:

    >>> interval_text(0.0, 0.0, 0.0)
    '0 (in every sample)'
    """
    if value == low == high:
        return f"{number_text(value, digits)} (in every sample)"
    low_text, high_text = number_text(low, digits), number_text(high, digits)
    return f"{number_text(value, digits)} ({low_text} to {high_text})"


def interval_column(
    value: str = "mean", low: str = "ci_low", high: str = "ci_high", *, digits: int = 3
) -> pl.Expr:
    """A polars expression of :func:`interval_text` over the columns ``value``, ``low``
    and ``high`` (named after ``value``; rename it with ``.alias``).

    >>> frame = pl.DataFrame({"mean": [13.31], "ci_low": [13.23], "ci_high": [13.39]})
    >>> frame.select(interval_column().alias("turns"))["turns"].to_list()
    ['13.3 (13.2 to 13.4)']
    """
    words = _row_words(value, low, high, lambda v, lo, hi: interval_text(v, lo, hi, digits))
    _digits(digits)  # now, not at the first row
    return words


def estimate_column(
    value: str = "mean", low: str = "ci_low", high: str = "ci_high", *, of: str = "rounds"
) -> pl.Expr:
    """A polars expression of a **simulated** chance with its interval in words
    (:func:`rummykit.chance.estimate_text`): "about 92% (95%: 90% to 93%)", and for an
    estimate of 0 or 1 "none of the rounds" or "all of the rounds" with the interval's
    other end, never "impossible" or "certain" (which only an exact count can say).
    ``of`` names what was simulated (a plural noun). Named after ``value``.

    >>> frame = pl.DataFrame({"mean": [1.0, 0.5], "ci_low": [0.998, 0.45],
    ...                       "ci_high": [1.0, 0.55]})
    >>> frame.select(estimate_column())["mean"].to_list()
    ['all of the rounds (95%: at least 99.8%)', 'about 50% (95%: 45% to 55%)']
    """
    words = _row_words(value, low, high, lambda v, lo, hi: estimate_text(v, lo, hi, of=of))
    instance("of", of, str, "a plural noun (such as 'rounds')")
    return words


def _row_words(value: str, low: str, high: str, words) -> pl.Expr:
    """The expression of ``words(value, low, high)`` row by row, named after ``value``:
    the columns' names checked first (interval_column's and estimate_column's)."""
    for name, column in (("value", value), ("low", low), ("high", high)):
        instance(name, column, str, "a column name (str)")

    def text(row: dict) -> str:
        return words(row[value], row[low], row[high])

    return pl.struct(value, low, high).map_elements(text, return_dtype=pl.String).alias(value)


def chance_column(column: str = "p") -> pl.Expr:
    """A polars expression of the chances of ``column`` in words
    (:func:`rummykit.chance.chance_text`), named after ``column`` (rename it with
    ``.alias``); a missing chance stays missing. The one way a frame's chances become
    words: the charts' tooltips and the teaching tables use it alike.

    >>> frame = pl.DataFrame({"p": [0.0891, 0.0000018, None]})
    >>> frame.select(chance_column())["p"].to_list()
    ['8.9% (1 in 11)', '1 in 555,556', None]
    """
    instance("column", column, str, "a column name (str)")
    return pl.col(column).map_elements(chance_text, return_dtype=pl.String, skip_nulls=True)


@dataclass(frozen=True)
class Table:
    """A frame ready to display: its ``columns`` and the ``rows`` of cell texts, with the
    columns to align right (numbers). Made by :func:`show`."""

    #: The column names, in order.
    columns: tuple[str, ...]
    #: One tuple of cell texts per row shown.
    rows: tuple[tuple[str, ...], ...]
    #: For each column, whether its cells align right (numbers and chances).
    right: tuple[bool, ...]
    #: A line under the table, such as how many rows were left out ("" for none).
    note: str = ""
    #: A caption above the table ("" for none).
    caption: str = ""

    def __str__(self) -> str:
        widths = [
            max([len(name)] + [len(row[i]) for row in self.rows])
            for i, name in enumerate(self.columns)
        ]

        def line(cells) -> str:
            return "  ".join(
                cell.rjust(width) if right else cell.ljust(width)
                for cell, width, right in zip(cells, widths, self.right, strict=True)
            ).rstrip()

        lines = ([self.caption] if self.caption else []) + [line(self.columns)]
        lines += [line(row) for row in self.rows]
        return "\n".join(lines + ([self.note] if self.note else []))

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(str(self))

    def _repr_html_(self) -> str:
        def cell(tag: str, text: str, right: bool) -> str:
            align = "right" if right else "left"
            # Numbers, chances and short words stay on one line ("8.9% (1 in 11)" broken
            # in two is hard to read); the box scrolls instead. Long words may wrap.
            wrap = " white-space: nowrap;" if right or len(text) <= NOWRAP_UP_TO else ""
            rule = " border-bottom: 1px solid #999;" if tag == "th" else ""
            style = f"text-align: {align}; {CELL_STYLE}{wrap}{rule}"
            return f'<{tag} style="{style}">{html.escape(text)}</{tag}>'

        def line(tag: str, cells) -> str:
            inner = "".join(cell(tag, c, r) for c, r in zip(cells, self.right, strict=True))
            return f"<tr>{inner}</tr>"

        head = line("th", self.columns)
        body = "".join(line("td", row) for row in self.rows)
        caption = f"<caption>{html.escape(self.caption)}</caption>" if self.caption else ""
        note = f"<p>{html.escape(self.note)}</p>" if self.note else ""
        return (
            f'<div class="rummykit-table" style="{BOX_STYLE}"><table>{caption}'
            f"<thead>{head}</thead><tbody>{body}</tbody></table>{note}</div>"
        )


def _cell(value, *, chance: bool, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if chance:
        return chance_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number_text(value, digits)
    if isinstance(value, list | tuple):
        return ", ".join(_cell(v, chance=False, digits=digits) for v in value)
    return str(value)


def show(
    frame: pl.DataFrame,
    *,
    chances: Sequence[str] = (),
    digits: int = 3,
    caption: str = "",
    max_rows: int = 60,
) -> Table:
    """``frame`` as a :class:`Table` to display: plain HTML in a notebook, aligned text
    with ``print``.

    ``chances`` names the columns that hold probabilities (0 to 1), written in words by
    :func:`rummykit.chance.chance_text`; other numbers go through
    :func:`number_text` (``digits`` significant figures, 1 to
    :data:`~rummykit.chance.MAX_DIGITS`). At most ``max_rows`` rows (1 or more) are
    shown, with a note of how many were left out; ``caption`` is a str.

    >>> table = show(pl.DataFrame({"rule": ["a set needs 3 naturals"], "p": [0.0199]}),
    ...              chances=["p"], caption="Round 1")
    >>> table.rows
    (('a set needs 3 naturals', '2.0% (1 in 50)'),)
    >>> '>a set needs 3 naturals</td>' in table._repr_html_()
    True
    >>> show(pl.DataFrame({"n": range(5)}), max_rows=2).note
    '3 more rows not shown'
    >>> show(pl.DataFrame({"p": [0.5]}), chances=["q"])
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: show: no column q to write as a chance (the frame has p)
    """
    if not isinstance(frame, pl.DataFrame):
        raise ArgumentTypeError(f"show needs a polars DataFrame, got {type(frame).__name__}")
    if isinstance(chances, str):
        raise ArgumentTypeError(f"chances must be a list of column names, got {chances!r}")
    chances = items("chances", chances, what="a list of column names")
    instance("caption", caption, str, "a str")
    for name in chances:
        if name not in frame.columns:
            raise ArgumentError(
                f"show: no column {name} to write as a chance "
                f"(the frame has {', '.join(frame.columns)})"
            )
    whole("max_rows", max_rows, low=1)
    _digits(digits)  # before any row is formatted
    marked = [name in chances for name in frame.columns]
    shown = frame.head(min(max_rows, frame.height))
    rows = tuple(
        tuple(
            _cell(value, chance=chance, digits=digits)
            for value, chance in zip(row, marked, strict=True)
        )
        for row in shown.iter_rows()
    )
    right = tuple(
        chance or dtype.is_numeric() for chance, dtype in zip(marked, frame.dtypes, strict=True)
    )
    left_out = frame.height - shown.height
    note = f"{left_out:,} more row{'s' if left_out != 1 else ''} not shown" if left_out else ""
    return Table(tuple(frame.columns), rows, right, note=note, caption=caption)


def review_frame(review) -> pl.DataFrame:
    """A :class:`~rummykit.evaluate.reviews.Review` as a polars frame, long form: one row per
    decision and alternative (:meth:`Review.rows <rummykit.evaluate.reviews.Review.rows>`).

    >>> from rummykit.agents.bots import GreedyBot
    >>> from rummykit.engine.game import Game, play_game
    >>> from rummykit.evaluate.reviews import review
    >>> state = play_game(Game("standard", players=2, seed=3, turn_limit=4).new_state(),
    ...                   [GreedyBot(), GreedyBot()])
    >>> frame = review_frame(review(state, 0, budget=2, round=1))
    >>> frame.columns[:5], frame["is_played"].sum() == frame["number"].n_unique()
    (['number', 'round', 'phase', 'played', 'kind'], True)
    """
    if not isinstance(review, Review):
        raise ArgumentTypeError(f"review must be a Review (rummykit.review), got {review!r}")
    schema = {
        "number": pl.Int32,
        "round": pl.Int8,
        "phase": pl.Utf8,
        "played": pl.Utf8,
        "kind": pl.Utf8,
        "action": pl.Utf8,
        "is_played": pl.Boolean,
        "value": pl.Float64,
        "value_low": pl.Float64,
        "value_high": pl.Float64,
        "out": pl.Float64,
        "loss": pl.Float64,
        "loss_low": pl.Float64,
        "loss_high": pl.Float64,
        "samples": pl.Int32,
    }
    return pl.DataFrame(review.rows(), schema=schema)
