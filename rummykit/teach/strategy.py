"""The ladder and SearchBot's choices read the way the Strategy chapter (and chapter 4's
strong players) read them, each by one call: the ratings with their intervals
(:func:`ratings`), a bot's head-to-head figures (:func:`head_to_head`), the laid-down
curves of strong and greedy players side by side (:func:`strong_curves`), and what
SearchBot chooses differently from GreedyBot in the same positions (:func:`choices`).

Each takes the committed tables (``data/ladder``, ``data/search_decisions``,
``data/completion_by_turn``) as polars DataFrames and returns one.

>>> import polars as pl
>>> ladder = pl.DataFrame({"rules": ["standard"] * 2, "players": [4, 4],
...     "bot": ["greedy", "random"], "opponent": ["greedy", "greedy"],
...     "measure": ["elo", "elo"], "round": [None, None], "turn": [None, None],
...     "value": [0.0, -500.0], "ci_low": [0.0, -600.0], "ci_high": [0.0, -400.0],
...     "n": [16, 16]})
>>> ratings(ladder)["bot"].to_list()
['GreedyBot', 'RandomBot']
"""

from __future__ import annotations

from rummykit._optional import require
from rummykit.display import check_frame, interval_column
from rummykit.engine.checks import instance, whole
from rummykit.errors import ArgumentError

require("polars", extra="analysis", feature="rummykit.teach.strategy")

import polars as pl  # noqa: E402

__all__ = ["BOT_LABELS", "choices", "head_to_head", "ratings", "strong_curves"]

#: Each bot of the ladder in words.
BOT_LABELS = {
    "random": "RandomBot",
    "greedy": "GreedyBot",
    "buyer never": "BuyerBot (never buys)",
    "buyer always": "BuyerBot (always buys)",
    "outs": "OutsBot",
    "search 16": "SearchBot, 16 samples",
    "search 64": "SearchBot, 64 samples",
}

_LADDER = ("rules", "players", "bot", "opponent", "measure", "value", "ci_low", "ci_high", "n")


def _cell(ladder: pl.DataFrame, rules: str, players: int) -> pl.DataFrame:
    check_frame("ladder", ladder, _LADDER)
    instance("rules", rules, str, "a preset's name (str)")
    whole("players", players, low=1)
    part = ladder.filter(rules=rules, players=players)
    if part.is_empty():
        cells = sorted(set(ladder.select("rules", "players").iter_rows()))
        raise ArgumentError(
            f"rules, players: the ladder has no cell {rules} at {players} players; it has "
            f"{', '.join(f'{r} at {p}' for r, p in cells)}"
        )
    return part


def _label(column: str = "bot") -> pl.Expr:
    return pl.col(column).replace_strict(BOT_LABELS, default=pl.col(column))


def _rounded(columns, digits: int, scale: pl.Expr | int = 1) -> list[pl.Expr]:
    """``columns`` times ``scale``, to ``digits`` decimals (adding 0.0 turns a rounded
    -0.0 into 0, which reads as "-0" in words)."""
    return [((pl.col(c) * scale).round(digits) + 0.0).alias(c) for c in columns]


def ratings(ladder: pl.DataFrame, *, rules: str = "standard", players: int = 4) -> pl.DataFrame:
    """Each bot's Elo rating (the anchor 0) with its 95% interval, best first, in whole
    Elo points: columns ``bot`` (in words), ``elo``, ``ci_low``, ``ci_high`` and ``Elo
    (95% interval)``."""
    part = _cell(ladder, rules, players).filter(measure="elo")
    return (
        part.sort("value", descending=True)
        .with_columns(_rounded(("value", "ci_low", "ci_high"), 0))
        .select(
            _label(),
            pl.col("value").alias("elo"),
            "ci_low",
            "ci_high",
            interval_column("value").alias("Elo (95% interval)"),
        )
    )


def head_to_head(
    ladder: pl.DataFrame,
    bot: str | None = None,
    *,
    opponent: str | None = None,
    rules: str = "standard",
    players: int = 4,
) -> pl.DataFrame:
    """The figures of ``bot`` (a name of the ladder) against each bot it played, one row
    per opponent; or, given ``opponent`` instead, of each bot that played ``opponent``
    against it, one row per bot: a column per measure (the value with its 95% interval
    in words; shares in percentage points), the first bot minus the second."""
    part = _cell(ladder, rules, players)
    if (bot is None) == (opponent is None):
        raise ArgumentError("bot, opponent: give one of them (a name of the ladder)")
    name = bot if opponent is None else opponent
    instance("bot" if opponent is None else "opponent", name, str, "a bot's name (str)")
    if name not in set(part["bot"]):
        field = "bot" if opponent is None else "opponent"
        raise ArgumentError(
            f"{field} must be a bot of the ladder, one of {sorted(set(part['bot']))}"
        )
    pairs = part.filter(
        pl.col("bot" if opponent is None else "opponent") == name,
        pl.col("measure").is_in(["points", "went out", "laid down", "wins"]),
    )
    other = "opponent" if opponent is None else "bot"
    # Shares as percentage points, points per game to a tenth.
    scale = pl.when(pl.col("measure") == "points").then(1).otherwise(100)
    scaled = _rounded(("value", "ci_low", "ci_high"), 1, scale)
    texts = pairs.with_columns(scaled).with_columns(interval_column("value").alias("text"))
    return (
        texts.pivot(on="measure", index=other, values="text")
        .with_columns(_label(other).alias("against" if opponent is None else "bot"))
        .select(
            "against" if opponent is None else "bot",
            pl.col("points").alias("points per game better"),
            pl.col("went out").alias("went out first (% points more)"),
            pl.col("laid down").alias("laid down by turn 8 (% points more)"),
            pl.col("wins").alias("scored better (% of pairs)"),
        )
    )


def strong_curves(
    ladder: pl.DataFrame,
    by_turn: pl.DataFrame,
    *,
    round: int,
    players: int = 4,
    turns: int = 15,
) -> pl.DataFrame:
    """P(a seat has laid down by its ``turn``-th turn of ``round``), for each SearchBot of
    the ladder among GreedyBots, beside GreedyBot among GreedyBots (``by_turn``, the
    ``completion_by_turn`` table: standard, the shoe the rules assign, greedy buying): the
    columns ``player`` (the bot in the one seat, the others GreedyBots), ``turn``, ``p``,
    ``ci_low``, ``ci_high`` and ``n`` (the deals or rounds behind each line), for
    :func:`rummykit.charts.completion_chart`."""
    check_frame(
        "by_turn", by_turn, ("rules", "players", "round", "buy", "measure", "turn", "p", "n")
    )
    whole("round", round, low=1)
    whole("turns", turns, low=1)
    part = _cell(ladder, "standard", players)
    strong = part.filter(
        pl.col("measure") == "laid down by turn",
        pl.col("bot").str.starts_with("search"),
        pl.col("opponent") == "greedy",
        pl.col("round") == round,
        pl.col("turn") <= turns,
    ).select(
        _label().alias("player"),
        pl.col("turn").cast(pl.Int64),
        pl.col("value").alias("p"),
        "ci_low",
        "ci_high",
        "n",
    )
    greedy = by_turn.filter(
        pl.col("rules") == "standard",
        pl.col("players") == players,
        pl.col("round") == round,
        pl.col("buy") == "improves",
        pl.col("measure") == "laid down",
        pl.col("jokers") == 2 * pl.col("decks"),
        pl.col("turn") <= turns,
    ).select(
        pl.lit("GreedyBot").alias("player"),
        pl.col("turn").cast(pl.Int64),
        "p",
        "ci_low",
        "ci_high",
        "n",
    )
    if strong.is_empty() or greedy.is_empty():
        raise ArgumentError(f"round: no laid-down curves of round {round} at {players} players")
    return pl.concat([greedy, strong]).sort("player", "turn")


def choices(decisions: pl.DataFrame) -> pl.DataFrame:
    """SearchBot's choices beside GreedyBot's in the same positions (the
    ``search_decisions`` table): a row per decision and measure, its unit (shares in %
    of the positions), GreedyBot's and SearchBot's mean and the paired difference, each
    with its 95% interval in words, and the positions behind them."""
    check_frame(
        "decisions",
        decisions,
        ("decision", "measure", "bot", "mean", "ci_low", "ci_high", "difference", "n"),
    )
    # Shares as percentages (of the positions), the discard's points as they are.
    scale = pl.when(pl.col("measure") == "points of the discard").then(1).otherwise(100)
    columns = ("mean", "ci_low", "ci_high", "difference", "difference_ci_low", "difference_ci_high")
    present = [c for c in columns if c in decisions.columns]
    scaled = decisions.with_columns(_rounded(present, 2, scale)).with_columns(
        pl.when(pl.col("measure") == "points of the discard")
        .then(pl.lit("points"))
        .otherwise(pl.lit("% of positions"))
        .alias("unit")
    )
    greedy = scaled.filter(bot="greedy").select(
        "decision", "measure", "unit", interval_column().alias("GreedyBot")
    )
    search = scaled.filter(bot="search").select(
        "decision",
        "measure",
        interval_column().alias("SearchBot"),
        interval_column("difference", "difference_ci_low", "difference_ci_high").alias(
            "SearchBot minus GreedyBot"
        ),
        pl.col("n").alias("positions"),
    )
    return greedy.join(search, on=["decision", "measure"], maintain_order="left")
