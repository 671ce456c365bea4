"""Altair chart builders for the rummykit book and notebooks.

Each builder takes a long-form polars ``DataFrame`` (one row per plotted
value) and returns an ``alt.Chart`` (or a layered chart). Encodings carry
explicit types (``"p:Q"``, ``"decks:O"``), titles and axes use plain words, and
probabilities are shown as :mod:`rummykit.chance` writes them (percentages, or "1 in N"
where a percentage would round to nothing, "impossible" for none): cells and tooltips
in words computed beside the numbers, axes by :data:`rummykit.chance.AXIS_LABELS`. Lines and groups take Okabe and Ito's colour-blind-safe colours (and dashes
where lines coincide); a key of one entry gives way to the title.

This module is presentation only: the engine modules (cards, rules, melds,
odds, game) never import polars or altair.
"""

from __future__ import annotations

from rummykit._optional import require
from rummykit.chance import (
    AXIS_LABELS,
    BELOW_LOWEST_TICK,
    chance_label,
    estimate_text,
    log_ticks,
)
from rummykit.errors import ArgumentError, ArgumentTypeError

require("altair", extra="analysis", feature="rummykit.charts")
require("polars", extra="analysis", feature="rummykit.charts")

import altair as alt  # noqa: E402
import polars as pl  # noqa: E402

from rummykit.display import chance_column  # noqa: E402
from rummykit.evaluate.stories import CLASS_COLOURS  # noqa: E402

__all__ = [
    "completion_chart",
    "contract_heatmap",
    "convergence_chart",
    "cumulative_chart",
    "distance_chart",
    "estimate_bars",
    "interval_chart",
    "odds_lines",
    "settled_turn",
    "shoe_label",
    "story_chart",
    "wants_log",
    "your_hand_mark",
]

#: The axis of a chance: its ticks in words (:data:`rummykit.chance.AXIS_LABELS`: "3.5%",
#: "1 in 1,000"; never two ticks "4%").
CHANCE_AXIS = {"labelExpr": AXIS_LABELS}
#: ``odds_lines(log="auto")`` puts the chance on a log scale when the smallest chance
#: above 0 is below this: on a 0-100% axis such chances are a flat line at zero.
LOG_BELOW = 0.01
#: The colour of "your hand": black, which no palette of shoes or decks uses.
YOUR_HAND_COLOUR = "#000000"
#: Colours that can be told apart, by colour-blind readers too: Okabe and Ito's palette
#: without its yellow (faint on white) and its black (the "keep every card" line), and a
#: mid grey. Seven lines, one per player count from 2 to 8.
DISTINCT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#7F7F7F")
#: The colour and dash of the exact "keep every card" lines of :func:`completion_chart`.
KEEP_COLOUR = "#000000"
KEEP_DASHES = ([6, 3], [2, 2], [8, 3, 2, 3])
#: Dash patterns that tell lines apart where they lie on top of one another (two shoes
#: with nearly the same odds): solid first, then ever shorter dashes.
LINE_DASHES = ([1, 0], [8, 4], [3, 3], [8, 3, 2, 3], [1, 3])
#: Axis format for numbers that are not chances: trailing zeros dropped ("-40", "2.5").
NUMBER = ",~f"


def _require(frame: pl.DataFrame, columns: list[str], chart: str) -> None:
    if not isinstance(frame, pl.DataFrame):
        raise ArgumentTypeError(f"{chart} needs a polars DataFrame, got {type(frame).__name__}")
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        raise ArgumentError(
            f"{chart} needs the columns {', '.join(columns)}; missing {', '.join(missing)} "
            f"(the frame has {', '.join(frame.columns)})"
        )


def _estimate_words(value: str = "p") -> pl.Expr:
    """An estimate with its interval (``ci_low``, ``ci_high``) in words
    (:func:`rummykit.chance.estimate_text`), for a tooltip."""

    def words(row: dict) -> str:
        return estimate_text(row[value], row["ci_low"], row["ci_high"])

    return (
        pl.struct(value, "ci_low", "ci_high")
        .map_elements(words, return_dtype=pl.String)
        .alias("estimate_words")
    )


def _kind(frame: pl.DataFrame, column: str) -> str:
    """``"O"`` for a numeric column (decks, players: ordered), ``"N"`` for words (shoes)."""
    return "O" if frame.schema[column].is_numeric() else "N"


def _colour(
    frame: pl.DataFrame,
    column: str,
    title: str | None,
    *,
    distinct: bool = False,
    domain=None,
    kind: str | None = None,
) -> alt.Color:
    """A colour channel (of type ``kind``, by default from the column's type) that tells
    its values apart: :data:`DISTINCT_COLOURS` (Okabe and Ito's colour-blind-safe
    palette) wherever the values fit it, given in the order of ``domain`` when that is
    given (so that a value keeps its colour whichever values a chart shows), otherwise
    numbers in sorted order and words in the order they appear; viridis shades for more
    values than the palette holds. One value gets no legend: a key of one entry says
    nothing the title should not say.

    ``distinct`` is kept for callers that ask for the palette by name; it is the default
    wherever the values fit.
    """
    ordinal = _kind(frame, column) == "O"
    values = frame.get_column(column).drop_nulls().unique().to_list()
    legend = None if len(values) == 1 else alt.Undefined
    if domain is not None:
        # Each value the colour of its place in ``domain``; the legend lists those shown.
        shown = set(values)
        places = [i for i, value in enumerate(domain) if value in shown]
        scale = alt.Scale(
            domain=[domain[i] for i in places],
            range=[DISTINCT_COLOURS[i % len(DISTINCT_COLOURS)] for i in places],
        )
    elif distinct or len(values) <= len(DISTINCT_COLOURS):
        ordered = sorted(values) if ordinal else _order(frame, column)
        colours = [DISTINCT_COLOURS[i % len(DISTINCT_COLOURS)] for i in range(len(ordered))]
        scale = alt.Scale(domain=ordered, range=colours)
    else:
        # Viridis stops short of its pale yellow end, which is hard to see on white.
        scale = alt.Scale(scheme={"name": "viridis", "extent": [0, 0.85]})
    kind = kind or _kind(frame, column)
    return alt.Color(f"{column}:{kind}", title=title, scale=scale, legend=legend)


def _line_styles(frame: pl.DataFrame, column: str, title: str) -> dict:
    """A dash pattern and a line width per value of ``column``, as encodings: lines that
    lie on top of one another (two shoes with nearly the same odds) stay visible, each
    drawn thinner and with shorter dashes than the one under it. The dashes share the
    colour's legend (same field and title); the widths need no legend of their own."""
    kind = _kind(frame, column)
    values = frame.get_column(column).drop_nulls().unique().to_list()
    ordered = sorted(values) if kind == "O" else _order(frame, column)
    dashes = [list(LINE_DASHES[i % len(LINE_DASHES)]) for i in range(len(ordered))]
    widths = [max(1.5, 3.5 - 0.75 * i) for i in range(len(ordered))]
    return {
        "strokeDash": alt.StrokeDash(
            f"{column}:{kind}",
            title=title,
            scale=alt.Scale(domain=ordered, range=dashes),
            legend=None if len(values) == 1 else alt.Undefined,
        ),
        "strokeWidth": alt.StrokeWidth(
            f"{column}:{kind}", scale=alt.Scale(domain=ordered, range=widths), legend=None
        ),
    }


def _whole_ticks(frame: pl.DataFrame, column: str, title: str) -> alt.X:
    """An x channel of whole numbers (hand sizes, jokers, turns): ticks at the values
    themselves where there are few, else at whole steps; never "10.5 cards"."""
    values = sorted(frame.get_column(column).drop_nulls().unique().to_list())
    if len(values) <= 9:
        axis = alt.Axis(values=values, format="d")
    else:
        axis = alt.Axis(tickMinStep=1, format="d")
    return alt.X(f"{column}:Q", title=title, axis=axis)


def _log_ticks(frame: pl.DataFrame) -> list[float]:
    """Tick values for a log axis of chances: powers of ten from below the smallest
    chance above 0 (or, for an estimate of 0, the top of its interval, ``ci_high``) up to
    100%, at most about seven of them (every other power where the chances span many)."""
    values = frame.get_column("p").to_list()
    if "ci_high" in frame.columns:
        values += frame.filter(pl.col("p") == 0).get_column("ci_high").to_list()
    return log_ticks(values)


def _wrapped(chart, panels: int, columns: int, *, x_scale: bool = False):
    """Give each panel of a wrapped facet its own x axis when the last row is short:
    otherwise Vega-Lite draws the shared axis under the empty places too, which read as
    empty panels. ``x_scale`` also gives each panel its own x values (presets that a
    shoe does not have are then not empty columns)."""
    if x_scale:
        chart = chart.resolve_scale(x="independent")
    if panels % columns or x_scale:
        chart = chart.resolve_axis(x="independent")
    return chart


def _order(frame: pl.DataFrame, column: str) -> list:
    """The values of ``column`` in the order they first appear (contracts in round order)."""
    return frame.get_column(column).unique(maintain_order=True).to_list()


def shoe_label(frame: pl.DataFrame) -> pl.DataFrame:
    """Add a ``shoe`` column in words ("2 decks + 4 jokers") from ``decks`` and ``jokers``.

    >>> frame = pl.DataFrame({"decks": [1, 2], "jokers": [2, 4]})
    >>> shoe_label(frame).get_column("shoe").to_list()
    ['1 deck + 2 jokers', '2 decks + 4 jokers']
    """
    _require(frame, ["decks", "jokers"], "shoe_label")
    decks = pl.col("decks").cast(pl.String)
    jokers = pl.col("jokers").cast(pl.String)
    return frame.with_columns(
        pl.concat_str(
            decks,
            pl.when(pl.col("decks") == 1).then(pl.lit(" deck + ")).otherwise(pl.lit(" decks + ")),
            jokers,
            pl.when(pl.col("jokers") == 1).then(pl.lit(" joker")).otherwise(pl.lit(" jokers")),
        ).alias("shoe")
    )


#: The palest shade of :func:`contract_heatmap`'s log colour scale: 1 in a million.
HEATMAP_FLOOR = 1e-6


def contract_heatmap(
    frame: pl.DataFrame,
    *,
    x: str = "cards",
    x_title: str = "Cards in hand",
    column: str | None = "shoe",
    column_title: str = "Shoe",
    title: str = "Chance of being dealt each contract",
) -> alt.FacetChart | alt.LayerChart:
    """A heatmap of contract odds: one row per contract, one column per ``x`` value.

    ``frame`` is long-form with a ``contract`` column (in round order), the ``x`` column
    (hand size by default), ``p`` (a probability) and, when ``column`` is not None, a
    column to facet by (``shoe``, see :func:`shoe_label`). Each cell is labelled with its
    chance (:func:`rummykit.chance.chance_label`: "8.9%", "1 in 4.6k", "impossible"), and
    its tooltip gives it in full words, with the reason of an impossible one when the
    frame has a ``reason`` column. Where ``x`` is words (presets),
    each panel shows only the values it has.

    >>> frame = pl.DataFrame({"contract": ["2 sets", "2 sets"], "cards": [10, 12],
    ...                       "p": [0.10, 0.00025], "shoe": ["2 decks + 4 jokers"] * 2})
    >>> spec = contract_heatmap(frame).to_dict()
    >>> spec["spec"]["layer"][0]["encoding"]["color"]["field"]  # p, clipped at the floor
    'shade'
    >>> [row["label"] for row in next(iter(spec["datasets"].values()))]
    ['10%', '1 in 4k']
    >>> spec["spec"]["layer"][0]["encoding"]["color"]["scale"]["type"]  # 1 in 4k is not pale
    'log'
    """
    columns = ["contract", x, "p"] + ([column] if column else [])
    _require(frame, columns, "contract_heatmap")
    contracts = _order(frame, "contract")
    data = frame.with_columns(
        pl.col("p").map_elements(chance_label, return_dtype=pl.String).alias("label"),
        chance_column("p").alias("p_words"),
        pl.col("p").clip(HEATMAP_FLOOR, 1).alias("shade"),
    )
    if "reason" in frame.columns:
        data = data.with_columns(
            pl.when((pl.col("p") == 0) & pl.col("reason").is_not_null())
            .then(pl.concat_str(pl.lit("impossible: "), pl.col("reason")))
            .otherwise(pl.col("p_words"))
            .alias("p_words")
        )
    words = _kind(frame, x) == "N"
    # Wide enough for "impossible" at the labels' size, or for the longest word of x.
    longest = max(len(str(value)) for value in frame.get_column(x).unique())
    step = max(52, 7 * longest) if words else 52
    base = alt.Chart(data).encode(
        # Words (presets) in the order the frame gives them, not alphabetical.
        x=alt.X(
            f"{x}:O",
            title=x_title,
            axis=alt.Axis(labelAngle=0),
            sort=_order(frame, x) if words else "ascending",
        ),
        y=alt.Y("contract:N", title="Contract", sort=contracts),
    )
    # A log colour scale: most contracts are unlikely, and a linear (or square-root) scale
    # paints every cell under 10% the same pale blue. A cell at or below 1 in a million
    # (an impossible one included: its label says so) takes the palest shade.
    cells = base.mark_rect().encode(
        color=alt.Color(
            "shade:Q",
            title="Chance",
            scale=alt.Scale(scheme="blues", type="log", domain=[HEATMAP_FLOOR, 1]),
            legend=alt.Legend(values=[HEATMAP_FLOOR, 1e-4, 1e-2, 1], **CHANCE_AXIS),
        ),
        tooltip=[
            alt.Tooltip("contract:N", title="Contract"),
            alt.Tooltip(f"{x}:O", title=x_title),
            alt.Tooltip("p_words:N", title="Chance"),
        ],
    )
    labels = base.mark_text(fontSize=9).encode(
        text=alt.Text("label:N"),
        color=alt.condition(alt.datum.p > 0.3, alt.value("white"), alt.value("black")),
    )
    note = "Below 1%: 1 in N hands (k: thousand, M: million)"
    heading = alt.TitleParams(title, subtitle=[note])
    layered = alt.layer(cells, labels, data=data).properties(width=alt.Step(step))
    if column is None:
        return layered.properties(title=heading)
    panels = frame.get_column(column).n_unique()
    faceted = layered.facet(
        facet=alt.Facet(f"{column}:N", title=column_title, sort=_order(frame, column)),
        columns=2,
    ).properties(title=heading)
    return _wrapped(faceted, panels, 2, x_scale=words)


def odds_lines(
    frame: pl.DataFrame,
    *,
    x: str = "cards",
    x_title: str = "Cards in hand",
    color: str = "decks",
    color_title: str = "Decks",
    facet: str | None = "contract",
    log: bool | str = False,
    title: str = "Chance of holding the contract by hand size",
) -> alt.Chart:
    """Lines of probability against hand size, one line per ``color`` value (decks).

    ``frame`` is long-form with ``x``, ``p``, ``color`` and (unless ``facet`` is None) a
    ``facet`` column (contracts, in round order). ``log=True`` puts the chance on a log
    scale, which shows the hardest contracts (rows with ``p == 0`` are then dropped);
    ``log="auto"`` does so where chances are small (:func:`wants_log`). The tooltip
    gives each chance in words (:func:`rummykit.chance.chance_text`).

    A line joins exact chances only: where ``frame`` has a ``method`` column, its rows
    ``"simulation"`` are left to :func:`estimate_bars` (an estimate joined by a line
    reads as exact, and its noise as a chance that falls with more cards). The colours
    and dashes are those of every row, so the two layers agree.

    >>> frame = pl.DataFrame({"contract": ["2 sets"] * 2, "cards": [10, 12],
    ...                       "decks": [2, 2], "p": [0.10, 0.25]})
    >>> enc = odds_lines(frame).to_dict()["encoding"]
    >>> enc["x"]["field"], enc["y"]["field"], enc["color"]["type"]
    ('cards', 'p', 'ordinal')
    """
    columns = [x, "p", color] + ([facet] if facet else [])
    _require(frame, columns, "odds_lines")
    if log == "auto":
        log = wants_log(frame)
    elif not isinstance(log, bool):
        raise ArgumentError(f"log must be True, False or 'auto', got {log!r}")
    data = _exact_rows(frame)
    data = data.filter(pl.col("p") > 0) if log else data
    data = data.with_columns(chance_column("p").alias("p_words"))
    if log:
        # Ticks at powers of ten only (no grey band of minor grid lines), read as "1 in N"
        # below 1%.
        scale = alt.Scale(type="log")
        axis = alt.Axis(values=_log_ticks(frame), **CHANCE_AXIS)
    else:
        scale = alt.Scale(domain=[0, 1])
        axis = alt.Axis(**CHANCE_AXIS)
    kind = _kind(frame, color)
    colour = _colour(frame, color, color_title)
    if frame.get_column(color).n_unique() > 1:
        # The legend shows each line's dashes, not a dot.
        colour = colour.legend(symbolType="stroke", symbolStrokeWidth=2.5)
    encoding = {
        "x": _whole_ticks(frame, x, x_title),
        "y": alt.Y("p:Q", title="Chance", scale=scale, axis=axis),
        "color": colour,
        **_line_styles(frame, color, color_title),
        "tooltip": [
            alt.Tooltip(f"{x}:Q", title=x_title),
            alt.Tooltip(f"{color}:{kind}", title=color_title),
            alt.Tooltip("p_words:N", title="Chance"),
        ],
    }
    # Lines that lie on one another are named under the title: on a log scale two
    # shoes within a few tens of percent of each other draw one line.
    close = _close_lines(data, x, color, facet)
    if title and close:
        title = alt.TitleParams(title, subtitle=[_close_words(pair) for pair in close])
    # No dots: they would hide the lines under them; the x ticks mark the values.
    chart = alt.Chart(data, title=title).mark_line()
    if facet:
        encoding["facet"] = alt.Facet(
            f"{facet}:N", title=None, sort=_order(frame, facet), columns=3
        )
        chart = _wrapped(chart, data.get_column(facet).n_unique(), 3)
    return chart.encode(**encoding).properties(width=150, height=130)


#: Two lines whose chances stay within this factor of each other at every point they
#: share are said to lie on one another (:func:`odds_lines` names them under its title).
CLOSE_FACTOR = 1.35


def _close_lines(
    frame: pl.DataFrame, x: str, color: str, facet: str | None
) -> list[tuple[str, str, float]]:
    """Pairs of ``color`` values whose chances (above 0) stay within
    :data:`CLOSE_FACTOR` of each other at every ``x`` (and ``facet``) both have: (one,
    other, the largest factor between them)."""
    index = [x] + ([facet] if facet else [])
    positive = frame.filter(pl.col("p") > 0).select(*index, color, "p")
    values = _order(positive, color) if positive.height else []
    pairs = []
    for i, one in enumerate(values):
        for other in values[i + 1 :]:
            mine = positive.filter(pl.col(color) == one).drop(color)
            theirs = positive.filter(pl.col(color) == other).drop(color)
            both = mine.join(theirs, on=index, suffix="_other")
            if both.height < 2:
                continue
            ratio = both["p"] / both["p_other"]
            factor = max(ratio.max(), 1 / ratio.min())
            if factor <= CLOSE_FACTOR:
                pairs.append((str(one), str(other), float(factor)))
    return pairs


def _close_words(pair: tuple[str, str, float]) -> str:
    one, other, factor = pair
    return (
        f"{one} and {other} lie almost on one another: their chances differ by at most "
        f"{round((factor - 1) * 100)}%"
    )


def _exact_rows(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``frame`` that are not estimates (all of them without a ``method``)."""
    if "method" not in frame.columns:
        return frame
    return frame.filter(pl.col("method") != "simulation")


def estimate_bars(
    frame: pl.DataFrame,
    *,
    x: str = "cards",
    x_title: str = "Cards in hand",
    color: str = "decks",
    color_title: str = "Decks",
    log: bool = False,
) -> alt.LayerChart:
    """The simulated chances of ``frame`` drawn as estimates: a hollow circle at each
    estimate and a bar over its 95% interval (``ci_low`` to ``ci_high``), in the colours
    :func:`odds_lines` gives the same frame, to lay over its lines (which join exact
    chances only). Rows whose ``method`` is not ``"simulation"`` are left out.

    On a log scale (``log=True``) an estimate of 0 (no hand held it) is a downward
    triangle at the top of its interval ("below this"), and an interval reaching 0 runs
    down to the axis's lowest tick.

    >>> frame = pl.DataFrame({"cards": [10, 11], "decks": [2, 2], "p": [0.1, 0.0],
    ...     "ci_low": [0.08, 0.0], "ci_high": [0.12, 0.004], "method": ["simulation"] * 2})
    >>> spec = estimate_bars(frame, log=True).to_dict()
    >>> [(layer["mark"]["type"], layer["mark"].get("shape")) for layer in spec["layer"]]
    [('rule', None), ('point', 'circle'), ('point', 'triangle-down')]
    """
    _require(frame, [x, "p", "ci_low", "ci_high", "method", color], "estimate_bars")
    log = bool(log)
    floor = _log_ticks(frame)[0] * BELOW_LOWEST_TICK if log else 0.0
    data = frame.filter(pl.col("method") == "simulation").with_columns(
        pl.col("ci_low").clip(lower_bound=floor).alias("low"),
        _estimate_words(),
    )
    kind = _kind(frame, color)
    colour = _colour(frame, color, color_title)
    tooltip = [
        alt.Tooltip(f"{x}:Q", title=x_title),
        alt.Tooltip(f"{color}:{kind}", title=color_title),
        alt.Tooltip("estimate_words:N", title="Simulated"),
        alt.Tooltip("n:Q", title="Hands dealt", format=",") if "n" in frame.columns else None,
    ]
    tooltip = [item for item in tooltip if item is not None]
    base = alt.Chart(data).encode(x=alt.X(f"{x}:Q"), color=colour, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=1.5).encode(y=alt.Y("low:Q"), y2=alt.Y2("ci_high:Q"))
    # Hollow (the colour on the stroke) but opaque: the bar does not run through it.
    dots = base.mark_point(
        shape="circle", filled=False, fill="white", fillOpacity=1, size=45, strokeWidth=1.8
    ).encode(y=alt.Y("p:Q"))
    if not log:
        return alt.layer(bars, dots)
    none = (
        base.mark_point(shape="triangle-down", filled=True, size=60)
        .encode(y=alt.Y("ci_high:Q"))
        .transform_filter(alt.datum.p == 0)
    )
    return alt.layer(bars, dots.transform_filter(alt.datum.p > 0), none)


def wants_log(frame: pl.DataFrame) -> bool:
    """Whether the chances ``p`` of ``frame`` need a log scale: some chance above 0 is
    below :data:`LOG_BELOW`.

    >>> wants_log(pl.DataFrame({"p": [0.0, 0.2, 0.6]})), wants_log(pl.DataFrame({"p": [0.004, 0.2]}))
    (False, True)
    """
    _require(frame, ["p"], "wants_log")
    positive = frame.filter(pl.col("p") > 0)
    return positive.height > 0 and positive["p"].min() < LOG_BELOW


def your_hand_mark(
    frame: pl.DataFrame,
    *,
    x: str = "cards",
    x_title: str = "Cards in hand",
    label: str = "your hand",
) -> alt.Chart:
    """A black diamond at each row of ``frame`` (``x``, ``p``), with a legend entry
    ``label``: to lay over :func:`odds_lines` and mark the hand chosen.

    >>> spec = your_hand_mark(pl.DataFrame({"cards": [10], "p": [0.1]})).to_dict()
    >>> spec["mark"]["color"], spec["encoding"]["shape"]["scale"]["domain"]
    ('#000000', ['your hand'])
    """
    _require(frame, [x, "p"], "your_hand_mark")
    data = frame.select(x, "p").with_columns(
        pl.lit(label).alias("marker"), chance_column("p").alias("p_words")
    )
    return (
        alt.Chart(data)
        .mark_point(size=160, filled=True, color=YOUR_HAND_COLOUR, opacity=1)
        .encode(
            x=alt.X(f"{x}:Q"),
            y=alt.Y("p:Q"),
            shape=alt.Shape(
                "marker:N",
                title=None,
                scale=alt.Scale(domain=[label], range=["diamond"]),
                legend=alt.Legend(orient="right"),
            ),
            tooltip=[
                alt.Tooltip("marker:N", title="Marked"),
                alt.Tooltip(f"{x}:Q", title=x_title),
                alt.Tooltip("p_words:N", title="Chance"),
            ],
        )
    )


#: The key of :func:`convergence_chart`: each layer's name, colour and dash.
CONVERGENCE_KEY = {
    "95% interval": ("#9ecae1", [1, 0]),
    "estimate": ("#08519c", [1, 0]),
    "exact value": ("#d62728", [6, 3]),
}


def convergence_chart(
    frame: pl.DataFrame,
    *,
    exact: float | None = None,
    title: str = "A simulated estimate settles on the exact value",
) -> alt.LayerChart:
    """A running estimate against the number of deals, with its 95% band and the exact value.

    ``frame`` is long-form with ``n`` (hands dealt so far), ``p`` (the running estimate)
    and ``ci_low``/``ci_high`` (its interval). ``exact`` draws the exact probability as a
    horizontal dashed rule. The number of deals is on a log scale; a key under the chart
    names the band, the line and the dashed line.

    >>> frame = pl.DataFrame({"n": [10, 100], "p": [0.2, 0.12],
    ...                       "ci_low": [0.05, 0.07], "ci_high": [0.5, 0.2]})
    >>> [layer["mark"]["type"] for layer in convergence_chart(frame, exact=0.1).to_dict()["layer"]]
    ['area', 'line', 'rule']
    """
    _require(frame, ["n", "p", "ci_low", "ci_high"], "convergence_chart")
    # One key for the three layers: the band, the estimate and the dashed exact value.
    names = list(CONVERGENCE_KEY) if exact is not None else list(CONVERGENCE_KEY)[:2]
    key = {
        "color": alt.Color(
            "key:N",
            title=None,
            scale=alt.Scale(domain=names, range=[CONVERGENCE_KEY[k][0] for k in names]),
            legend=alt.Legend(orient="bottom", symbolType="stroke", symbolStrokeWidth=4),
        ),
        "strokeDash": alt.StrokeDash(
            "key:N",
            title=None,
            scale=alt.Scale(domain=names, range=[CONVERGENCE_KEY[k][1] for k in names]),
        ),
    }
    x = alt.X("n:Q", title="Hands dealt", scale=alt.Scale(type="log", nice=False))
    data = frame.with_columns(_estimate_words())
    band = (
        alt.Chart(data.with_columns(pl.lit(names[0]).alias("key")))
        .mark_area(opacity=0.3)
        .encode(
            x=x,
            # A linear axis: every tick a percentage ("0%, 0.5%, 1%"), never a mix of
            # styles ("0%, 1 in 200, 1%").
            y=alt.Y("ci_low:Q", title="Estimated chance", axis=alt.Axis(format="~%")),
            y2="ci_high:Q",
            **key,
        )
    )
    line = (
        alt.Chart(data.with_columns(pl.lit(names[1]).alias("key")))
        .mark_line()
        .encode(
            x=x,
            y="p:Q",
            tooltip=[
                alt.Tooltip("n:Q", title="Hands dealt", format=","),
                alt.Tooltip("estimate_words:N", title="Estimate"),
            ],
            **key,
        )
    )
    layers = [band, line]
    if exact is not None:
        point = pl.DataFrame({"exact": [float(exact)], "key": [names[2]]})
        rule = (
            alt.Chart(point.with_columns(chance_column("exact").alias("exact_words")))
            .mark_rule()
            .encode(
                y="exact:Q",
                tooltip=[alt.Tooltip("exact_words:N", title="Exact")],
                **key,
            )
        )
        layers.append(rule)
    return alt.layer(*layers).properties(title=title, width=440, height=260)


def distance_chart(
    frame: pl.DataFrame,
    *,
    color: str | None = None,
    color_title: str = "",
    facet: str | None = None,
    title: str = "How many cards away a dealt hand is",
) -> alt.Chart:
    """Bars of the distribution of contract distance (cards still missing).

    ``frame`` is long-form with ``distance`` and ``p``; ``color`` groups bars side by
    side (e.g. ``"shoe"``) and ``facet`` splits panels (e.g. ``"contract"``).

    >>> frame = pl.DataFrame({"distance": [0, 1, 2], "p": [0.1, 0.5, 0.4]})
    >>> enc = distance_chart(frame).to_dict()["encoding"]
    >>> enc["x"]["field"], enc["x"]["type"], enc["y"]["axis"]["labelExpr"] == CHANCE_AXIS["labelExpr"]
    ('distance', 'ordinal', True)
    """
    columns = ["distance", "p"] + [c for c in (color, facet) if c]
    _require(frame, columns, "distance_chart")
    encoding = {
        "x": alt.X("distance:O", title="Cards away from the contract", axis=alt.Axis(labelAngle=0)),
        "y": alt.Y("p:Q", title="Share of hands", axis=alt.Axis(**CHANCE_AXIS)),
        "tooltip": [
            alt.Tooltip("distance:O", title="Cards away"),
            alt.Tooltip("p_words:N", title="Share of hands"),
        ],
    }
    if color:
        encoding["color"] = _colour(frame, color, color_title or None, kind="N")
        encoding["xOffset"] = alt.XOffset(f"{color}:N")
        encoding["tooltip"].append(alt.Tooltip(f"{color}:N", title=color_title or color))
    chart = alt.Chart(
        frame.with_columns(chance_column("p").alias("p_words")), title=title
    ).mark_bar()
    if facet:
        encoding["facet"] = alt.Facet(
            f"{facet}:N", title=None, sort=_order(frame, facet), columns=3
        )
        chart = _wrapped(chart, frame.get_column(facet).n_unique(), 3)
    return chart.encode(**encoding).properties(
        width=150 if facet else 420, height=130 if facet else 240
    )


def cumulative_chart(
    frame: pl.DataFrame, *, title: str = "Cumulative distributions of the distance"
) -> alt.Chart:
    """Steps of P(distance at most d) against d, a line per contract.

    ``frame`` is long-form with ``distance``, ``p_at_most`` and ``contract`` (a distance
    table of ``data/``, a few rounds of it).

    >>> frame = pl.DataFrame({"distance": [0, 1, 0, 1], "p_at_most": [0.4, 1.0, 0.1, 1.0],
    ...                       "contract": ["2 sets", "2 sets", "3 runs", "3 runs"]})
    >>> spec = cumulative_chart(frame).to_dict()
    >>> spec["mark"]["interpolate"], spec["encoding"]["y"]["field"]
    ('step-after', 'p_at_most')
    """
    _require(frame, ["distance", "p_at_most", "contract"], "cumulative_chart")
    return (
        alt.Chart(frame)
        .mark_line(interpolate="step-after", point=True)
        .encode(
            x=alt.X("distance:O", title="Cards missing, d"),
            y=alt.Y(
                "p_at_most:Q",
                title="P(distance at most d)",
                axis=alt.Axis(format="%"),
            ),
            color=alt.Color("contract:N", title="Contract"),
        )
        .properties(title=title, width=360)
    )


def completion_chart(
    frame: pl.DataFrame,
    *,
    x: str = "turn",
    x_title: str = "Turn",
    color: str = "players",
    color_title: str = "Players",
    y_title: str = "Chance of having laid down",
    facet: str | None = None,
    distinct: bool = False,
    color_order: list | None = None,
    dashes: bool = False,
    keep: pl.DataFrame | None = None,
    keep_by: str | None = None,
    keep_title: str = "Keep every card (exact)",
    title: str = "Laying down the contract, turn by turn",
    panel: tuple[int, int] = (150, 150),
    own_x: bool = False,
) -> alt.LayerChart | alt.FacetChart:
    """Lines of a simulated chance by turn, one per ``color`` value, with 95% bands.

    ``frame`` is long-form with ``x`` (turn), ``p``, ``ci_low``, ``ci_high``, ``color``
    (players or decks) and optionally ``facet`` (e.g. contract). ``distinct`` colours the
    lines with :data:`DISTINCT_COLOURS` (up to seven told apart) instead of shades, given
    to the values of ``color_order`` in its order when given (every preset its colour).
    ``dashes`` also gives each line its own dash pattern and width, for lines that lie on
    top of one another (presets whose rules differ in nothing that matters there).

    ``keep`` adds black dashed lines of an exact chance by turn, such as
    :func:`rummykit.odds.counting.keep.keep_every_card`'s (columns ``x``, ``p``, the ``facet``
    column, and ``keep_by`` when given: one dash pattern per value, e.g. per shoe); rows
    without ``p`` (not counted) are left out.

    With ``facet``, each panel is ``panel`` (width, height) pixels; ``own_x`` gives each
    its own turns (panels whose lines settle at very different turns).

    >>> frame = pl.DataFrame({"turn": [1, 2], "p": [0.1, 0.3], "ci_low": [0.08, 0.27],
    ...                       "ci_high": [0.12, 0.33], "players": [4, 4]})
    >>> [layer["mark"]["type"] for layer in completion_chart(frame).to_dict()["layer"]]
    ['area', 'line']
    >>> keep = pl.DataFrame({"turn": [1, 2], "p": [0.15, None]})
    >>> spec = completion_chart(frame, keep=keep).to_dict()
    >>> spec["layer"][2]["mark"]["strokeDash"], spec["layer"][0]["encoding"]["color"]["scale"]
    ([6, 3], {'domain': [4], 'range': ['#E69F00']})

    A key of one entry says nothing: with one line of each kind, as here, both legends
    give way to a line under the title.

    >>> spec["layer"][0]["encoding"]["color"]["legend"], spec["title"]["subtitle"]
    (None, ['Line: simulated, with its 95% band; dashed line: keep every card (exact)'])
    """
    columns = [x, "p", "ci_low", "ci_high", color] + ([facet] if facet else [])
    _require(frame, columns, "completion_chart")
    if (
        not isinstance(panel, tuple)
        or len(panel) != 2
        or not all(type(side) is int and 50 <= side <= 1000 for side in panel)
    ):
        raise ArgumentError(
            f"panel must be (width, height) in pixels, each 50 to 1000, got {panel!r}"
        )
    if not isinstance(own_x, bool):
        raise ArgumentTypeError(f"own_x must be True or False, got {own_x!r}")
    kind = _kind(frame, color)
    data = frame.select(columns).with_columns(
        pl.lit("simulated").alias("_layer"), _estimate_words()
    )
    if keep is not None:
        wanted = [x, "p"] + ([facet] if facet else []) + ([keep_by] if keep_by else [])
        _require(keep, wanted, "completion_chart (keep)")
        label = pl.col(keep_by).cast(pl.String) if keep_by else pl.lit(keep_title)
        kept = (
            keep.filter(pl.col("p").is_not_null())
            .select(x, "p", *([facet] if facet else []), label.alias("_keep"))
            .with_columns(pl.lit("keep").alias("_layer"), chance_column("p").alias("p_words"))
        )
        # One frame for every layer: a faceted chart needs its data at the top.
        data = pl.concat([data, kept.cast({x: frame.schema[x]})], how="diagonal_relaxed")
    simulated = alt.Chart().transform_filter("datum._layer == 'simulated'")
    colour = _colour(frame, color, color_title, distinct=distinct, domain=color_order)
    one_colour = frame.get_column(color).n_unique() == 1
    if not one_colour:
        # The legend shows the lines, not the pale bands.
        colour = colour.legend(symbolType="stroke", symbolStrokeWidth=3, symbolOpacity=1)
    turns = alt.Axis(tickMinStep=1, format="d")
    base = simulated.encode(x=alt.X(f"{x}:Q", title=x_title, axis=turns), color=colour)
    band = base.mark_area(opacity=0.2).encode(
        y=alt.Y("ci_low:Q", title=y_title, axis=alt.Axis(**CHANCE_AXIS)),
        y2="ci_high:Q",
    )
    styles = _line_styles(frame, color, color_title) if dashes else {}
    line = base.mark_line().encode(
        **styles,
        y="p:Q",
        tooltip=[
            alt.Tooltip(f"{x}:Q", title=x_title),
            alt.Tooltip(f"{color}:{kind}", title=color_title),
            alt.Tooltip("estimate_words:N", title="Estimate"),
        ],
    )
    layers = [band, line]
    keys = []
    if keep is not None:
        labels = kept.get_column("_keep").unique(maintain_order=True).to_list()
        keep_dashes = [list(KEEP_DASHES[i % len(KEEP_DASHES)]) for i in range(len(labels))]
        one_keep = len(labels) <= 1
        if len(labels) == 1:
            # A key of one entry gives way to a line under the title.
            dashed = f"dashed line: {keep_title[0].lower()}{keep_title[1:]}"
            simulated_key = "Line: simulated, with its 95% band; "
            keys.append(simulated_key + dashed if one_colour else "D" + dashed[1:])
        layers.append(
            alt.Chart()
            .transform_filter("datum._layer == 'keep'")
            .mark_line(color=KEEP_COLOUR, strokeDash=keep_dashes[0] if keep_dashes else [6, 3])
            .encode(
                x=alt.X(f"{x}:Q"),
                y="p:Q",
                strokeDash=alt.StrokeDash(
                    "_keep:N",
                    title=keep_title,
                    scale=alt.Scale(domain=labels, range=keep_dashes),
                    legend=None if one_keep else alt.Undefined,
                ),
                tooltip=[
                    alt.Tooltip(f"{x}:Q", title=x_title),
                    alt.Tooltip("_keep:N", title=keep_title),
                    alt.Tooltip("p_words:N", title="Exact chance"),
                ],
            )
        )
    layered = alt.layer(*layers, data=data)
    if dashes and keep is not None:
        # The simulated lines' dashes and the exact lines' are two keys, not one.
        layered = layered.resolve_scale(strokeDash="independent")
    notes = keys + ([] if keep is None else _not_counted(keep, x=x, by=facet or keep_by))
    heading = alt.TitleParams(title, subtitle=notes) if notes else title
    if facet is None:
        return layered.properties(title=heading, width=420, height=240)
    width, height = panel
    faceted = (
        layered.properties(width=width, height=height)
        .facet(facet=alt.Facet(f"{facet}:N", title=None, sort=_order(frame, facet)), columns=3)
        .properties(title=heading)
    )
    return _wrapped(faceted, frame.get_column(facet).n_unique(), 3, x_scale=own_x)


def _not_counted(keep: pl.DataFrame, *, x: str, by: str | None) -> list[str]:
    """Where a "keep every card" line stops because counting would take too long: one
    line of words per ``by`` value, from the rows whose ``method`` is ``"not counted"``
    (with their ``cards``)."""
    if "method" not in keep.columns:
        return []
    _require(keep, [x, "cards"], "completion_chart (keep)")

    missing = keep.filter(pl.col("method") == "not counted")
    if missing.height == 0:
        return []
    groups = [None] if by is None else [g for g in _order(keep, by) if g in set(missing[by])]
    notes = []
    for group in groups:
        own = keep if group is None else keep.filter(pl.col(by) == group)
        first = own.filter(pl.col("method") == "not counted").sort(x).row(0, named=True)
        where = "" if group is None else f"{group}: "
        drawn = first[x] > own[x].min()
        stop = f"the exact line stops at {x} {first[x] - 1}" if drawn else "no exact line"
        # In a reader's words: what is missing, not what it would cost to compute.
        notes.append(f"{where}{stop}: hands of {first['cards']} cards are not counted exactly")
    return notes


def settled_turn(
    frame: pl.DataFrame, *, by: list[str], x: str = "turn", within: float = 0.005
) -> int:
    """The first turn by which every line of ``frame`` (one per value of the ``by``
    columns) is within ``within`` of its last value: where a chart of chances that only
    grow can stop. Computed from the data, so it moves with the tables.

    >>> frame = pl.DataFrame({"players": [2, 2, 2, 4, 4, 4], "turn": [1, 2, 3] * 2,
    ...                       "p": [0.2, 0.5, 0.501, 0.4, 0.6, 0.9]})
    >>> settled_turn(frame, by=["players"]), settled_turn(frame.filter(players=2), by=["players"])
    (3, 2)
    """
    _require(frame, [x, "p", *by], "settled_turn")
    if frame.height == 0:
        raise ArgumentError("settled_turn needs at least one row")
    last = pl.col("p").sort_by(x).last().over(by)
    settled = frame.filter(pl.col("p") >= last - within).group_by(by).agg(pl.col(x).min())
    return int(settled[x].max())


def interval_chart(
    frame: pl.DataFrame,
    *,
    y: str,
    y_title: str,
    value: str = "p",
    value_title: str = "Chance",
    percent: bool = True,
    color: str | None = None,
    color_title: str = "",
    title: str = "",
) -> alt.LayerChart:
    """Point estimates with 95% interval bars, one row per ``y`` category.

    For simulated numbers compared across a few categories (seats, buying policies,
    presets). ``frame`` is long-form with ``y``, ``value``, ``ci_low`` and ``ci_high``.
    ``percent=False`` for values that are not probabilities (turns, points).

    >>> frame = pl.DataFrame({"seat": [1, 2], "p": [0.5, 0.4], "ci_low": [0.45, 0.35],
    ...                       "ci_high": [0.55, 0.45]})
    >>> spec = interval_chart(frame, y="seat", y_title="Seat").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'point']

    Where the intervals reach both sides of 0 (a difference), a grey rule marks 0:

    >>> gain = frame.with_columns(pl.col("ci_low") - 0.5)
    >>> spec = interval_chart(gain, y="seat", y_title="Seat").to_dict()
    >>> spec["layer"][0]["mark"]
    {'type': 'rule', 'color': '#7F7F7F'}
    """
    columns = [y, value, "ci_low", "ci_high"] + ([color] if color else [])
    _require(frame, columns, "interval_chart")
    axis = CHANCE_AXIS if percent else {"format": NUMBER}
    chances = frame.select(pl.min_horizontal(value, "ci_low").min() >= 0).item() and (
        frame.select(pl.max_horizontal(value, "ci_high").max() <= 1).item()
    )
    if percent and chances:
        frame = frame.with_columns(_estimate_words(value))
        values = [alt.Tooltip("estimate_words:N", title=value_title)]
    else:
        # Numbers, or differences of chances (signed points, not chances in words).
        fine = "+.3~%" if percent else ",.2f"
        values = [
            alt.Tooltip(f"{value}:Q", title=value_title, format=fine),
            alt.Tooltip("ci_low:Q", title="95% interval from", format=fine),
            alt.Tooltip("ci_high:Q", title="95% interval to", format=fine),
        ]
    encoding = {"y": alt.Y(f"{y}:N", title=y_title, sort=_order(frame, y))}
    if color:
        encoding["color"] = _colour(frame, color, color_title or None, kind="N")
        encoding["yOffset"] = alt.YOffset(f"{color}:N")
    base = alt.Chart(frame).encode(**encoding)
    # About five round ticks ("-40 / 0 / 40"), not a label every few units.
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title=value_title, axis=alt.Axis(tickCount=5, **axis)),
        x2="ci_high:Q",
    )
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X(f"{value}:Q"),
        tooltip=[alt.Tooltip(f"{y}:N", title=y_title), *values],
    )
    layers = [bars, points]
    if frame["ci_low"].min() < 0 < frame["ci_high"].max():
        # A difference: the line of no difference, to read each interval against.
        zero = pl.DataFrame({"zero": [0.0]})
        layers.insert(0, alt.Chart(zero).mark_rule(color="#7F7F7F").encode(x="zero:Q"))
    return alt.layer(*layers).properties(title=title, width=420)


def story_chart(frame: pl.DataFrame, *, result: float, title: str = "") -> alt.LayerChart:
    """A round's story (:class:`rummykit.evaluate.stories.Story`, its ``rows()``; the story draws
    the same chart as SVG itself, :meth:`~rummykit.evaluate.stories.Story.chart`): the seat's expected standing
    after each decision (points at the round's end better than the opponents' mean) with
    its 95% band, each decision coloured by its class, and the round's result at the end.

    ``frame`` is the story's rows (``step``, ``after``, ``after_low``, ``after_high``,
    ``kind``, ``played``, ``best``, ``decision``, ``luck``), one a decision.

    >>> frame = pl.DataFrame({"step": [1, 2], "after": [-3.0, 4.0], "after_low": [-9.0, -2.0],
    ...     "after_high": [3.0, 10.0], "kind": ["best", "mistake"], "played": ["draw stock",
    ...     "discard KS"], "best": ["draw stock", "discard 4H"], "decision": [0.0, -6.0],
    ...     "luck": [0.0, 13.0]})
    >>> spec = story_chart(frame, result=12.0).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'area', 'line', 'point', 'point', 'text']
    """
    columns = [
        "step",
        "after",
        "after_low",
        "after_high",
        "kind",
        "played",
        "best",
        "decision",
        "luck",
    ]
    _require(frame, columns, "story_chart")
    last = int(frame["step"].max()) + 1 if frame.height else 1
    ended = pl.DataFrame({"step": [last], "after": [float(result)], "label": ["result"]})
    x = alt.X("step:Q", title="Decision of the round", axis=alt.Axis(tickMinStep=1, format="d"))
    y_title = "Expected points better than the opponents' mean"
    base = alt.Chart(frame).encode(x=x)
    band = base.mark_area(opacity=0.2, color="#4a6fa5").encode(
        y=alt.Y("after_low:Q", title=y_title), y2="after_high:Q"
    )
    line = base.mark_line(color="#4a6fa5").encode(y="after:Q")
    kinds = [k for k in CLASS_COLOURS if k in set(frame["kind"].to_list())] or ["best"]
    points = base.mark_point(filled=True, size=70).encode(
        y="after:Q",
        color=alt.Color(
            "kind:N",
            title="The decision",
            scale=alt.Scale(domain=kinds, range=[CLASS_COLOURS[k] for k in kinds]),
        ),
        tooltip=[
            alt.Tooltip("step:Q", title="Decision"),
            alt.Tooltip("played:N", title="Played"),
            alt.Tooltip("best:N", title="Best"),
            alt.Tooltip("kind:N", title="Class"),
            alt.Tooltip("after:Q", title="Expected standing", format="+.1f"),
            alt.Tooltip("decision:Q", title="The decision's part", format="+.1f"),
            alt.Tooltip("luck:Q", title="Luck since the last decision", format="+.1f"),
        ],
    )
    finish = alt.Chart(ended).encode(x="step:Q", y="after:Q")
    end_point = finish.mark_point(shape="diamond", filled=True, size=110, color="#000000")
    end_label = finish.mark_text(align="left", dx=8).encode(text="label:N")
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(color="#7F7F7F").encode(y="zero:Q")
    return alt.layer(zero, band, line, points, end_point, end_label).properties(
        title=title or "Expected standing, decision by decision (95% band), and the result",
        width=460,
    )
