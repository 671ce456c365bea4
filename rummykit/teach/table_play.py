"""The play tables of ``data/`` read the way chapter 4 (*At the table*) reads them, each
by one call: what a simulated "laid down by turn t" curve says beside keeping every card
(:func:`read_off`, a row per player count or round with :func:`read_off_table`), how
often the first turn beats keeping every card, the paired comparison of OutsBot with
GreedyBot, and what pairing the deals does to the interval of buying's worth.

Each function is a few lines of polars or Python that a student can read in its source;
a chapter's cell so stays a line or two.

>>> import polars as pl
>>> curve = pl.DataFrame({"turn": [1, 2, 3], "p": [0.2, 0.6, 0.9],
...                       "ci_low": [0.1, 0.5, 0.8], "ci_high": [0.3, 0.7, 0.95]})
>>> keep = pl.DataFrame({"turn": [1, 2, 3], "p": [0.25, 0.5, 0.99]})
>>> said = read_off(curve, keep)
>>> said["half by turn"], said["behind from turn"], said["largest lead (points)"]
('2', '3', '+10 at turn 2')
"""

from __future__ import annotations

from rummykit._optional import require
from rummykit.chance import chance_text
from rummykit.display import check_frame, interval_column
from rummykit.engine.checks import instance, items
from rummykit.errors import ArgumentError

require("polars", extra="analysis", feature="rummykit.teach.table_play")

import polars as pl  # noqa: E402

__all__ = [
    "buying_pairing",
    "first_turn_above",
    "keep_for",
    "outs_bot_paired",
    "read_off",
    "read_off_table",
]


def read_off(curve: pl.DataFrame, keep: pl.DataFrame) -> dict:
    """What a simulated curve (``turn``, ``p``, ``ci_low``, ``ci_high``) says, beside
    keeping every card (``keep``: ``turn`` and the exact ``p``, null where not counted):
    the chance by turn 1 and its 95% interval, keeping every card's chance at turn 1, the
    turn by which half have laid down, the first turn whose whole interval lies under the
    exact line, the largest lead over it (in percentage points, over the turns where the
    exact line exists), the last turn compared and the chance of ever laying down.

    >>> curve = pl.DataFrame({"turn": [1, 2], "p": [0.4, 0.45],
    ...                       "ci_low": [0.3, 0.4], "ci_high": [0.5, 0.5]})
    >>> keep = pl.DataFrame({"turn": [1, 2], "p": [0.2, None]})
    >>> said = read_off(curve, keep)
    >>> said["half by turn"], said["behind from turn"], said["compared to turn"]
    ('never', 'not by 1', 1)
    """
    check_frame("curve", curve, ("turn", "p", "ci_low", "ci_high"))
    check_frame("keep", keep, ("turn", "p"))
    if curve.is_empty():
        raise ArgumentError("curve has no row to read off")
    curve = curve.sort("turn")
    exact = dict(keep.filter(pl.col("p").is_not_null()).select("turn", "p").iter_rows())
    first = curve.row(0, named=True)
    half = curve.filter(pl.col("p") >= 0.5)["turn"]
    both = curve.filter(pl.col("turn").is_in(list(exact)))
    turns = both.select("turn", "p", "ci_high").rows()
    if not turns:
        raise ArgumentError("curve and keep have no turn in common to compare")
    # Behind: the whole 95% interval under the exact line.
    behind = [t for t, _, high in turns if high < exact[t]]
    lead, lead_turn = max((p - exact[t], t) for t, p, _ in turns)
    low, high = chance_text(first["ci_low"]), chance_text(first["ci_high"])
    behind_from = str(behind[0]) if behind else f"not by {both['turn'].max()}"
    return {
        "by turn 1": chance_text(first["p"]),
        "95% interval": f"{low} to {high}",
        "keeping every card": chance_text(exact[1]) if 1 in exact else "not counted",
        "half by turn": str(half[0]) if len(half) else "never",
        "behind from turn": behind_from,
        "largest lead (points)": f"{100 * lead:+.0f} at turn {lead_turn}",
        "compared to turn": both["turn"].max(),
        "ever laid down": chance_text(curve["p"][-1]),
    }


def keep_for(frame: pl.DataFrame, keep: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``keep`` for the shoe (``decks``, ``jokers``) of ``frame``'s first row.

    >>> frame = pl.DataFrame({"decks": [2], "jokers": [4]})
    >>> keep = pl.DataFrame({"decks": [1, 2], "jokers": [2, 4], "p": [0.1, 0.2]})
    >>> keep_for(frame, keep)["p"].to_list()
    [0.2]
    """
    check_frame("frame", frame, ("decks", "jokers"))
    check_frame("keep", keep, ("decks", "jokers"))
    if frame.is_empty():
        raise ArgumentError("frame has no row to take the shoe from")
    decks, jokers = frame["decks"][0], frame["jokers"][0]
    return keep.filter((pl.col("decks") == decks) & (pl.col("jokers") == jokers))


def read_off_table(
    curves: pl.DataFrame,
    keep: pl.DataFrame,
    *,
    by: str,
    match: tuple[str, ...] = ("decks", "jokers"),
    also: tuple[str, ...] = (),
) -> pl.DataFrame:
    """:func:`read_off` for each value of ``by`` in ``curves`` (in order), beside the rows
    of ``keep`` whose ``match`` columns equal the curve's; the columns of ``also`` are
    taken from the curve's first row.

    >>> curves = pl.DataFrame({"round": [2, 2, 1, 1], "contract": ["b", "b", "a", "a"],
    ...     "turn": [1, 2, 1, 2], "p": [0.1, 0.6, 0.3, 0.7], "ci_low": [0.0, 0.5, 0.2, 0.6],
    ...     "ci_high": [0.2, 0.7, 0.4, 0.8]})
    >>> keep = pl.DataFrame({"round": [1, 1, 2, 2], "turn": [1, 2, 1, 2],
    ...                      "p": [0.2, 0.9, 0.1, 0.5]})
    >>> table = read_off_table(curves, keep, by="round", match=("round",), also=("contract",))
    >>> table.select("round", "contract", "half by turn", "behind from turn").rows()
    [(1, 'a', '2', '2'), (2, 'b', '2', 'not by 2')]
    """
    instance("by", by, str, "a column name")
    match, also = (
        items(name, value, lambda label, c: instance(label, c, str, "a column name"))
        for name, value in (("match", match), ("also", also))
    )
    check_frame("curves", curves, (by, *match, *also))
    check_frame("keep", keep, match)
    rows = []
    for (value,), curve in curves.sort(by).group_by(by, maintain_order=True):
        first = curve.row(0, named=True)
        kept = keep.filter(*(pl.col(column) == first[column] for column in match))
        rows.append({by: value} | {c: first[c] for c in also} | read_off(curve, kept))
    return pl.DataFrame(rows)


def first_turn_above(curves: pl.DataFrame, keep: pl.DataFrame) -> tuple[int, int, int]:
    """At turn 1, over the shoes (``decks``, ``jokers``) of ``curves``: how many tables
    have a simulated chance above keeping every card, how many have their whole 95%
    interval above it, and how many tables there are.

    >>> curves = pl.DataFrame({"decks": [2, 3], "jokers": [4, 6], "turn": [1, 1],
    ...                        "p": [0.3, 0.2], "ci_low": [0.25, 0.1]})
    >>> keep = pl.DataFrame({"decks": [2, 3], "jokers": [4, 6], "turn": [1, 1],
    ...                      "p": [0.2, 0.15]})
    >>> first_turn_above(curves, keep)
    (2, 1, 2)
    """
    check_frame("curves", curves, ("decks", "jokers", "turn", "p", "ci_low"))
    check_frame("keep", keep, ("decks", "jokers", "turn", "p"))
    first_turn = curves.filter(pl.col("turn") == 1).join(
        keep.select("decks", "jokers", "turn", pl.col("p").alias("keep")),
        on=["decks", "jokers", "turn"],
    )
    above = first_turn.filter(pl.col("p") > pl.col("keep")).height
    clear = first_turn.filter(pl.col("ci_low") > pl.col("keep")).height
    return above, clear, first_turn.height


#: The heading of :func:`outs_bot_paired`'s interval column.
PAIRED_COLUMN = "OutsBot minus GreedyBot (95% interval)"


def outs_bot_paired(outs_bot: pl.DataFrame) -> pl.DataFrame:
    """OutsBot minus GreedyBot, paired on the same deals, per round, for going out (in
    percentage points) and for points minus the opponents' (as they are), with 95%
    intervals, from the ``outs_bot`` table of ``data/``.

    >>> frame = pl.DataFrame({"bot": ["outs"], "turn": [None], "measure": ["went out"],
    ...     "round": [1], "contract": ["2 sets"], "n": [100], "difference": [0.05],
    ...     "difference_ci_low": [0.01], "difference_ci_high": [0.09]},
    ...     schema_overrides={"turn": pl.Int8})
    >>> outs_bot_paired(frame).row(0)[2:4]
    ('went out (% points)', 100)
    """
    columns = ("bot", "turn", "measure", "round", "contract", "n", "difference")
    check_frame("outs_bot", outs_bot, (*columns, "difference_ci_low", "difference_ci_high"))
    paired = outs_bot.filter(
        (pl.col("bot") == "outs")
        & pl.col("turn").is_null()
        & pl.col("measure").is_in(["went out", "points minus opponents"])
    )
    # A chance's difference in percentage points, points as they are.
    scale = pl.when(pl.col("measure") == "went out").then(100).otherwise(1)
    paired = paired.with_columns(
        pl.col("^difference.*$") * scale,
        pl.col("measure").replace({"went out": "went out (% points)"}),
    ).with_columns(
        interval_column("difference", "difference_ci_low", "difference_ci_high").alias(
            PAIRED_COLUMN
        )
    )
    return paired.select("round", "contract", "measure", "n", PAIRED_COLUMN).sort(
        "measure", "round"
    )


def buying_pairing(
    buying_value: pl.DataFrame, *, buy: str = "improves", measure: str = "went out"
) -> pl.DataFrame:
    """A buying policy against never buying, per round, from the ``buying_value`` table of
    ``data/``: the difference of ``measure`` with the 95% interval the table's paired
    deals give and the one two independent samples of the same size would give
    (standard error sqrt(se_buy² + se_never²)), two rows per round (``interval`` "paired"
    and "unpaired", ``label`` "round r: contract"), and the ``verdict`` each interval gives
    (below 0, "buying lowers it"; above, "buying raises it"; across 0, "cannot tell").
    ``correlation`` is what the two
    standard errors imply of the two plays of a deal, from Var(A - B) = Var A + Var B -
    2 Cov(A, B).

    >>> frame = pl.DataFrame({"round": [1, 1], "contract": ["2 sets"] * 2, "n": [1000] * 2,
    ...     "buy": ["never", "improves"], "measure": ["went out"] * 2, "mean": [0.3, 0.25],
    ...     "stderr": [0.004, 0.003], "difference": [0.0, -0.05],
    ...     "difference_stderr": [0.0, 0.0025]})
    >>> pairing = buying_pairing(frame)
    >>> pairing["interval"].to_list(), pairing["se"].to_list()
    (['paired', 'unpaired'], [0.0025, 0.005])
    >>> pairing["verdict"].to_list(), round(pairing["correlation"][0], 4)
    (['buying lowers it', 'buying lowers it'], 0.7812)
    """
    columns = ("round", "contract", "buy", "measure", "stderr", "difference")
    check_frame("buying_value", buying_value, (*columns, "difference_stderr"))
    instance("buy", buy, str, "a buying policy (str)")
    instance("measure", measure, str, "a measure (str)")
    rows = buying_value.filter(pl.col("measure") == measure)
    never = rows.filter(pl.col("buy") == "never").select(
        "round", pl.col("stderr").alias("never_se")
    )
    chosen = rows.filter(pl.col("buy") == buy).join(never, on="round")
    if chosen.is_empty():
        raise ArgumentError(
            f"buying_value has no rows of buy = {buy!r} and measure = {measure!r} (and of buy "
            "= 'never') to compare"
        )
    unpaired = (pl.col("stderr") ** 2 + pl.col("never_se") ** 2).sqrt()
    covariance = (
        pl.col("stderr") ** 2 + pl.col("never_se") ** 2 - pl.col("difference_stderr") ** 2
    ) / 2
    chosen = chosen.with_columns(
        label=pl.format("round {}: {}", "round", "contract"),
        correlation=covariance / (pl.col("stderr") * pl.col("never_se")),
    )
    both = [
        chosen.with_columns(interval=pl.lit(name), se=se)
        for name, se in (("paired", pl.col("difference_stderr")), ("unpaired", unpaired))
    ]
    return (
        pl.concat(both)
        .with_columns(
            ci_low=pl.col("difference") - 1.96 * pl.col("se"),
            ci_high=pl.col("difference") + 1.96 * pl.col("se"),
        )
        .with_columns(
            verdict=pl.when(pl.col("ci_high") < 0)
            .then(pl.lit("buying lowers it"))
            .when(pl.col("ci_low") > 0)
            .then(pl.lit("buying raises it"))
            .otherwise(pl.lit("cannot tell"))
        )
        .select(
            "round",
            "label",
            "n",
            "interval",
            "difference",
            "se",
            "ci_low",
            "ci_high",
            "verdict",
            "correlation",
        )
        .sort("round", "interval")
    )
