"""The odds tables of ``data/`` read the way chapter 3 (*Contract odds*) reads them, each
by one call: the rows of a shoe at each round's deal size, the cells each method filled,
a chance looked up, one column per joker count, and the distance's summary and
cumulative distribution by round. Each checks its frame's columns and its shoe against
RuleSet's bounds (rounds 1 to 20, 1 to 8 decks, 0 to 32 jokers, 1 to 52 cards).

Each function is a few lines of polars (filter, group by, pivot) that a student can read
in its source; a chapter's cell so stays a line or two.

>>> import polars as pl
>>> from rummykit import RuleSet
>>> from rummykit.odds.data.schemas import data_directory
>>> exact = pl.read_parquet(data_directory() / "exact_odds.parquet")
>>> dealt = dealt_rows(exact, RuleSet.preset("standard"))
>>> dealt.sort("round").select("round", "cards").rows()[:3]
[(1, 10), (2, 10), (3, 10)]
>>> print(f"{table_chance(exact, 1, 10):.4f}")
0.0891
"""

from __future__ import annotations

from rummykit._optional import require
from rummykit.display import chance_column
from rummykit.engine.checks import instance, items, whole
from rummykit.engine.rules import MAX_DEAL_SIZE, MAX_DECKS, MAX_JOKERS, MAX_ROUNDS, RuleSet
from rummykit.errors import ArgumentError

require("polars", extra="analysis", feature="rummykit.teach.odds_tables")

import polars as pl  # noqa: E402

from rummykit.display import check_frame  # noqa: E402

__all__ = [
    "cells_by_method",
    "chances_by",
    "cumulative_by_round",
    "dealt_rows",
    "distance_summary",
    "table_chance",
]


def _round(name: str, value: object) -> int:
    return whole(name, value, low=1, high=MAX_ROUNDS)


def _shoe(decks: object, jokers: object) -> None:
    whole(
        "decks", decks, low=1, high=MAX_DECKS, hint="the bound of RuleSet (rummykit.engine.rules)"
    )
    whole(
        "jokers",
        jokers,
        low=0,
        high=MAX_JOKERS,
        hint="the bound of RuleSet (rummykit.engine.rules)",
    )


def dealt_rows(frame: pl.DataFrame, rules: RuleSet, *, decks: int = 2, jokers: int = 4):
    """The rows of ``frame`` for a shoe of ``decks`` and ``jokers`` at each round's deal
    size under ``rules`` (standard deals 10 cards, then 12), in ``frame``'s order.

    >>> frame = pl.DataFrame({"round": [1, 1, 5], "decks": [2, 2, 2], "jokers": [4, 4, 4],
    ...                       "cards": [10, 11, 12]})
    >>> dealt_rows(frame, RuleSet.preset("standard")).rows()
    [(1, 2, 4, 10), (5, 2, 4, 12)]
    """
    check_frame("frame", frame, ("round", "decks", "jokers", "cards"))
    instance("rules", rules, RuleSet, "a RuleSet")
    _shoe(decks, jokers)
    deal_sizes = dict(enumerate(rules.deal_sizes, start=1))
    dealt_size = pl.col("round").replace_strict(deal_sizes, return_dtype=pl.Int8)
    shoe = (pl.col("decks") == decks) & (pl.col("jokers") == jokers)
    return frame.filter(shoe & (pl.col("cards") == dealt_size))


def cells_by_method(frame: pl.DataFrame) -> pl.DataFrame:
    """How many cells of each round each method (counted exactly or simulated) filled,
    and the most hands simulated for one cell.

    >>> frame = pl.DataFrame({"round": [1, 1, 5], "contract": ["2 sets", "2 sets", "x"],
    ...                       "method": ["exact", "exact", "simulated"], "n": [0, 0, 9]})
    >>> cells_by_method(frame).rows()
    [(1, '2 sets', 'exact', 2, 0), (5, 'x', 'simulated', 1, 9)]
    """
    check_frame("frame", frame, ("round", "contract", "method", "n"))
    cells = frame.group_by("round", "contract", "method").agg(
        pl.len().alias("cells"), pl.col("n").max()
    )
    return cells.sort("round", "method")


def table_chance(
    frame: pl.DataFrame, round_: int, cards: int, *, decks: int = 2, jokers: int = 4
) -> float:
    """The chance ``p`` of the one row of ``frame`` for round ``round_``, ``cards`` cards
    and a shoe of ``decks`` and ``jokers``.

    >>> frame = pl.DataFrame({"round": [1, 1], "decks": [2, 2], "jokers": [4, 4],
    ...                       "cards": [10, 11], "p": [0.0891, 0.139]})
    >>> table_chance(frame, 1, 11)
    0.139
    """
    check_frame("frame", frame, ("round", "decks", "jokers", "cards", "p"))
    _round("round_", round_)
    whole("cards", cards, low=1, high=MAX_DEAL_SIZE)
    _shoe(decks, jokers)
    row = frame.filter(round=round_, decks=decks, jokers=jokers, cards=cards)
    if row.height != 1:
        raise ArgumentError(
            f"frame has {row.height} rows for round {round_}, {cards} cards, {decks} decks "
            f"and {jokers} jokers, not one"
        )
    return row["p"].item()


def chances_by(frame: pl.DataFrame, on: str, *, index: str = "contract") -> pl.DataFrame:
    """The chances ``p`` of ``frame`` as one row per ``index`` and one column per value of
    ``on`` (a pivot).

    >>> frame = pl.DataFrame({"contract": ["a", "a", "b", "b"], "jokers": [0, 4, 0, 4],
    ...                       "p": [0.1, 0.2, 0.3, 0.4]})
    >>> chances_by(frame, "jokers").rows()
    [('a', 0.1, 0.2), ('b', 0.3, 0.4)]
    """
    instance("on", on, str, "a column name")
    instance("index", index, str, "a column name")
    check_frame("frame", frame, (on, index, "p"))
    return frame.pivot(on=on, index=index, values="p")


def distance_summary(frame: pl.DataFrame) -> pl.DataFrame:
    """Per round of a distance table (one shoe, one deal size): the mean distance, the
    chance of being at most 1 card away, the median distance, the method and, for a
    simulated row, the 95% interval of "at most 1 away" in words ("exact" for an exact
    row), by round.

    >>> frame = pl.DataFrame({"round": [1, 1, 1], "contract": ["2 sets"] * 3,
    ...     "distance": [0, 1, 2], "p": [0.25, 0.5, 0.25], "p_at_most": [0.25, 0.75, 1.0],
    ...     "method": ["exact"] * 3, "p_at_most_ci_low": [None] * 3,
    ...     "p_at_most_ci_high": [None] * 3},
    ...     schema_overrides={"p_at_most_ci_low": pl.Float64, "p_at_most_ci_high": pl.Float64})
    >>> distance_summary(frame).row(0)
    (1, '2 sets', 1.0, 0.75, 1, 'exact', 'exact')
    """
    columns = ("round", "contract", "distance", "p", "p_at_most", "method")
    check_frame("frame", frame, (*columns, "p_at_most_ci_low", "p_at_most_ci_high"))
    mean = (pl.col("distance").cast(pl.Float64) * pl.col("p")).sum()
    at_most_1 = pl.col("p").filter(pl.col("distance") <= 1).sum()
    median = pl.col("distance").filter(pl.col("p_at_most") >= 0.5).min()
    by_contract = frame.group_by("round", "contract", maintain_order=True).agg(
        mean.alias("mean distance"),
        at_most_1.alias("at most 1 away"),
        median.alias("median distance"),
        pl.col("method").first(),
        # A simulated row's interval for "at most 1 away"; exact rows have none.
        pl.col("p_at_most_ci_low").filter(pl.col("distance") == 1).first(),
        pl.col("p_at_most_ci_high").filter(pl.col("distance") == 1).first(),
    )
    interval = pl.format(
        "{} to {}",
        *(chance_column(c) for c in ("p_at_most_ci_low", "p_at_most_ci_high")),
    ).fill_null("exact")
    return (
        by_contract.with_columns(interval.alias("95% interval"))
        .drop("p_at_most_ci_low", "p_at_most_ci_high")
        .sort("round")
    )


def cumulative_by_round(frame: pl.DataFrame, rounds: list[int]) -> pl.DataFrame:
    """P(distance at most d) of a distance table, one row per distance d and one column
    per round of ``rounds`` (named by the round; 1 past a round's largest distance).
    Every column is a float, the distance too (its nulls are filled with 1.0 alike).

    >>> frame = pl.DataFrame({"round": [1, 1, 4, 4, 4], "distance": [0, 1, 0, 1, 2],
    ...                       "p_at_most": [0.5, 1.0, 0.2, 0.6, 1.0]})
    >>> cumulative_by_round(frame, [1, 4]).sort("distance").rows()
    [(0.0, 0.5, 0.2), (1.0, 1.0, 0.6), (2.0, 1.0, 1.0)]
    """
    check_frame("frame", frame, ("round", "distance", "p_at_most"))
    rounds = items("rounds", rounds, _round, what="a list of rounds")
    return (
        frame.filter(pl.col("round").is_in(rounds))
        .pivot(on="round", index="distance", values="p_at_most")
        .fill_null(1.0)
    )
