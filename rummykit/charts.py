"""Altair chart builders for the rummykit book and notebooks.

Each builder takes a long-form polars ``DataFrame`` (one row per plotted
value) and returns an ``alt.Chart`` (or a layered chart). Encodings carry
explicit types (``"p:Q"``, ``"decks:O"``), titles and axes use plain words, and
probabilities are shown as percentages.

This module is presentation only: the engine modules (cards, rules, melds,
odds, game) never import polars or altair.
"""

from __future__ import annotations

from rummykit._optional import require

require("altair", extra="analysis", feature="rummykit.charts")
require("polars", extra="analysis", feature="rummykit.charts")

import altair as alt  # noqa: E402
import polars as pl  # noqa: E402

__all__ = [
    "completion_chart",
    "contract_heatmap",
    "convergence_chart",
    "distance_chart",
    "interval_chart",
    "odds_lines",
    "shoe_label",
]

#: Axis format for probabilities: percentages.
PERCENT = ".0%"
#: Tooltip format for probabilities: percentages to two decimals.
PERCENT_FINE = ".2%"


def _require(frame: pl.DataFrame, columns: list[str], chart: str) -> None:
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"{chart} needs a polars DataFrame, got {type(frame).__name__}")
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        raise ValueError(
            f"{chart} needs the columns {', '.join(columns)}; missing {', '.join(missing)} "
            f"(the frame has {', '.join(frame.columns)})"
        )


def _kind(frame: pl.DataFrame, column: str) -> str:
    """``"O"`` for a numeric column (decks, players: ordered), ``"N"`` for words (shoes)."""
    return "O" if frame.schema[column].is_numeric() else "N"


def _colour(frame: pl.DataFrame, column: str, title: str) -> alt.Color:
    """A colour channel: ordered viridis shades for numbers, a categorical palette for words.

    Viridis stops short of its pale yellow end, which is hard to see on white.
    """
    kind = _kind(frame, column)
    scale = (
        alt.Scale(scheme={"name": "viridis", "extent": [0, 0.85]}) if kind == "O" else alt.Undefined
    )
    return alt.Color(f"{column}:{kind}", title=title, scale=scale)


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
    percentage.

    >>> frame = pl.DataFrame({"contract": ["2 sets", "2 sets"], "cards": [10, 12],
    ...                       "p": [0.10, 0.25], "shoe": ["2 decks + 4 jokers"] * 2})
    >>> spec = contract_heatmap(frame).to_dict()
    >>> spec["spec"]["layer"][0]["encoding"]["color"]["field"]
    'p'
    """
    columns = ["contract", x, "p"] + ([column] if column else [])
    _require(frame, columns, "contract_heatmap")
    contracts = _order(frame, "contract")
    base = alt.Chart(frame).encode(
        x=alt.X(f"{x}:O", title=x_title, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("contract:N", title="Contract", sort=contracts),
    )
    # A square-root colour scale: most contracts are unlikely, and a linear scale would
    # paint them all the same pale blue.
    cells = base.mark_rect().encode(
        color=alt.Color(
            "p:Q",
            title="Chance",
            scale=alt.Scale(scheme="blues", type="sqrt", domain=[0, 1]),
            legend=alt.Legend(format=PERCENT),
        ),
        tooltip=[
            alt.Tooltip("contract:N", title="Contract"),
            alt.Tooltip(f"{x}:O", title=x_title),
            alt.Tooltip("p:Q", title="Chance", format=PERCENT_FINE),
        ],
    )
    labels = base.mark_text(fontSize=9).encode(
        text=alt.Text("p:Q", format=".1%"),
        color=alt.condition(alt.datum.p > 0.3, alt.value("white"), alt.value("black")),
    )
    layered = alt.layer(cells, labels, data=frame).properties(width=alt.Step(34))
    if column is None:
        return layered.properties(title=title)
    return layered.facet(
        facet=alt.Facet(f"{column}:N", title=column_title, sort=_order(frame, column)),
        columns=2,
    ).properties(title=title)


def odds_lines(
    frame: pl.DataFrame,
    *,
    x: str = "cards",
    x_title: str = "Cards in hand",
    color: str = "decks",
    color_title: str = "Decks",
    facet: str | None = "contract",
    log: bool = False,
    title: str = "Chance of holding the contract by hand size",
) -> alt.Chart:
    """Lines of probability against hand size, one line per ``color`` value (decks).

    ``frame`` is long-form with ``x``, ``p``, ``color`` and (unless ``facet`` is None) a
    ``facet`` column (contracts, in round order). ``log=True`` puts the chance on a log
    scale, which shows the hardest contracts (rows with ``p == 0`` are then dropped).

    >>> frame = pl.DataFrame({"contract": ["2 sets"] * 2, "cards": [10, 12],
    ...                       "decks": [2, 2], "p": [0.10, 0.25]})
    >>> enc = odds_lines(frame).to_dict()["encoding"]
    >>> enc["x"]["field"], enc["y"]["field"], enc["color"]["type"]
    ('cards', 'p', 'ordinal')
    """
    columns = [x, "p", color] + ([facet] if facet else [])
    _require(frame, columns, "odds_lines")
    data = frame.filter(pl.col("p") > 0) if log else frame
    scale = alt.Scale(type="log") if log else alt.Scale(domain=[0, 1])
    # On a log scale the ticks go down to tiny chances: keep their significant digits.
    fmt = "~%" if log else PERCENT
    kind = _kind(frame, color)
    encoding = {
        "x": alt.X(f"{x}:Q", title=x_title, axis=alt.Axis(tickMinStep=1)),
        "y": alt.Y("p:Q", title="Chance", scale=scale, axis=alt.Axis(format=fmt)),
        "color": _colour(frame, color, color_title),
        "tooltip": [
            alt.Tooltip(f"{x}:Q", title=x_title),
            alt.Tooltip(f"{color}:{kind}", title=color_title),
            alt.Tooltip("p:Q", title="Chance", format=PERCENT_FINE),
        ],
    }
    if facet:
        encoding["facet"] = alt.Facet(
            f"{facet}:N", title=None, sort=_order(frame, facet), columns=3
        )
    return (
        alt.Chart(data, title=title)
        .mark_line(point=True)
        .encode(**encoding)
        .properties(width=150, height=130)
    )


def convergence_chart(
    frame: pl.DataFrame,
    *,
    exact: float | None = None,
    title: str = "A simulated estimate settles on the exact value",
) -> alt.LayerChart:
    """A running estimate against the number of deals, with its 95% band and the exact value.

    ``frame`` is long-form with ``n`` (hands dealt so far), ``p`` (the running estimate)
    and ``ci_low``/``ci_high`` (its interval). ``exact`` draws the exact probability as a
    horizontal rule. The number of deals is on a log scale.

    >>> frame = pl.DataFrame({"n": [10, 100], "p": [0.2, 0.12],
    ...                       "ci_low": [0.05, 0.07], "ci_high": [0.5, 0.2]})
    >>> [layer["mark"]["type"] for layer in convergence_chart(frame, exact=0.1).to_dict()["layer"]]
    ['area', 'line', 'rule']
    """
    _require(frame, ["n", "p", "ci_low", "ci_high"], "convergence_chart")
    x = alt.X("n:Q", title="Hands dealt", scale=alt.Scale(type="log", nice=False))
    base = alt.Chart(frame)
    band = base.mark_area(opacity=0.3, color="#9ecae1").encode(
        x=x,
        y=alt.Y("ci_low:Q", title="Estimated chance", axis=alt.Axis(format=PERCENT)),
        y2="ci_high:Q",
    )
    line = base.mark_line(color="#08519c").encode(
        x=x,
        y="p:Q",
        tooltip=[
            alt.Tooltip("n:Q", title="Hands dealt", format=","),
            alt.Tooltip("p:Q", title="Estimate", format=PERCENT_FINE),
            alt.Tooltip("ci_low:Q", title="95% interval from", format=PERCENT_FINE),
            alt.Tooltip("ci_high:Q", title="95% interval to", format=PERCENT_FINE),
        ],
    )
    layers = [band, line]
    if exact is not None:
        rule = (
            alt.Chart(pl.DataFrame({"exact": [float(exact)]}))
            .mark_rule(color="#d62728", strokeDash=[6, 3])
            .encode(
                y="exact:Q",
                tooltip=[alt.Tooltip("exact:Q", title="Exact", format=PERCENT_FINE)],
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
    >>> enc["x"]["field"], enc["x"]["type"], enc["y"]["axis"]["format"]
    ('distance', 'ordinal', '.0%')
    """
    columns = ["distance", "p"] + [c for c in (color, facet) if c]
    _require(frame, columns, "distance_chart")
    encoding = {
        "x": alt.X("distance:O", title="Cards away from the contract", axis=alt.Axis(labelAngle=0)),
        "y": alt.Y("p:Q", title="Share of hands", axis=alt.Axis(format=PERCENT)),
        "tooltip": [
            alt.Tooltip("distance:O", title="Cards away"),
            alt.Tooltip("p:Q", title="Share of hands", format=PERCENT_FINE),
        ],
    }
    if color:
        encoding["color"] = alt.Color(f"{color}:N", title=color_title or None)
        encoding["xOffset"] = alt.XOffset(f"{color}:N")
        encoding["tooltip"].append(alt.Tooltip(f"{color}:N", title=color_title or color))
    if facet:
        encoding["facet"] = alt.Facet(
            f"{facet}:N", title=None, sort=_order(frame, facet), columns=3
        )
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(**encoding)
        .properties(width=150 if facet else 420, height=130 if facet else 240)
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
    title: str = "Laying down the contract, turn by turn",
) -> alt.LayerChart | alt.FacetChart:
    """Lines of a simulated chance by turn, one per ``color`` value, with 95% bands.

    ``frame`` is long-form with ``x`` (turn), ``p``, ``ci_low``, ``ci_high``, ``color``
    (players or decks) and optionally ``facet`` (e.g. contract).

    >>> frame = pl.DataFrame({"turn": [1, 2], "p": [0.1, 0.3], "ci_low": [0.08, 0.27],
    ...                       "ci_high": [0.12, 0.33], "players": [4, 4]})
    >>> [layer["mark"]["type"] for layer in completion_chart(frame).to_dict()["layer"]]
    ['area', 'line']
    """
    columns = [x, "p", "ci_low", "ci_high", color] + ([facet] if facet else [])
    _require(frame, columns, "completion_chart")
    kind = _kind(frame, color)
    base = alt.Chart(frame).encode(
        x=alt.X(f"{x}:Q", title=x_title, axis=alt.Axis(tickMinStep=1)),
        color=_colour(frame, color, color_title),
    )
    band = base.mark_area(opacity=0.2).encode(
        y=alt.Y("ci_low:Q", title=y_title, axis=alt.Axis(format=PERCENT)),
        y2="ci_high:Q",
    )
    line = base.mark_line().encode(
        y="p:Q",
        tooltip=[
            alt.Tooltip(f"{x}:Q", title=x_title),
            alt.Tooltip(f"{color}:{kind}", title=color_title),
            alt.Tooltip("p:Q", title="Estimate", format=PERCENT_FINE),
            alt.Tooltip("ci_low:Q", title="95% interval from", format=PERCENT_FINE),
            alt.Tooltip("ci_high:Q", title="95% interval to", format=PERCENT_FINE),
        ],
    )
    layered = alt.layer(band, line, data=frame)
    if facet is None:
        return layered.properties(title=title, width=420, height=240)
    return (
        layered.properties(width=150, height=150)
        .facet(facet=alt.Facet(f"{facet}:N", title=None, sort=_order(frame, facet)), columns=3)
        .properties(title=title)
    )


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
    """
    columns = [y, value, "ci_low", "ci_high"] + ([color] if color else [])
    _require(frame, columns, "interval_chart")
    fmt = PERCENT if percent else ",.1f"
    fine = PERCENT_FINE if percent else ",.2f"
    encoding = {"y": alt.Y(f"{y}:N", title=y_title, sort=_order(frame, y))}
    if color:
        encoding["color"] = alt.Color(f"{color}:N", title=color_title or None)
        encoding["yOffset"] = alt.YOffset(f"{color}:N")
    base = alt.Chart(frame).encode(**encoding)
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title=value_title, axis=alt.Axis(format=fmt)),
        x2="ci_high:Q",
    )
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X(f"{value}:Q"),
        tooltip=[
            alt.Tooltip(f"{y}:N", title=y_title),
            alt.Tooltip(f"{value}:Q", title=value_title, format=fine),
            alt.Tooltip("ci_low:Q", title="95% interval from", format=fine),
            alt.Tooltip("ci_high:Q", title="95% interval to", format=fine),
        ],
    )
    return alt.layer(bars, points).properties(title=title, width=420)
