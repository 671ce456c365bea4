"""The tables of ``data/``: each a long-form polars DataFrame with a fixed schema.

One row per estimate, one column per variable, explicit dtypes: ready for
``altair``, ``group_by`` and parquet. The schemas are module constants, collected in
:data:`SCHEMAS` by the name of the ``data/`` file that holds them.

Columns shared by every table (:data:`CELL_COLUMNS`):

====================  =========  ===========================================================
column                dtype      meaning
====================  =========  ===========================================================
``rules``             Utf8       the rule set's name (a preset name such as ``"standard"``)
``round``             Int8       the round whose contract this is (1-7), null for a
                                 contract that is no round of the rules
``contract``          Utf8       the contract in words, ``"2 sets + 1 run"``
``decks``             Int8       52-card decks in the shoe
``jokers``            Int8       jokers in the shoe (in all)
``cards``             Int8       cards in the hand (for simulations: cards dealt)
``players``           Int8       players at the table, null for dealt-hand odds
====================  =========  ===========================================================

Probability columns (:data:`ESTIMATE_COLUMNS`): ``p`` (Float64), ``p_exact`` (Utf8, the
exact fraction such as ``"12/425"``, null for a simulation), ``stderr`` (Float64, 0 for
exact values), ``ci_low`` and ``ci_high`` (Float64, the 95% interval; equal to ``p`` for
exact values), ``n`` (Int64, simulated rounds or hands; null for exact values) and
``method`` (Utf8, ``"exact"`` or ``"simulation"``).

Tables of means (:data:`MEAN_COLUMNS`) have ``mean``, ``sd``, ``stderr``, ``ci_low``,
``ci_high`` (Float64), ``n`` (Int64), ``interval`` (Utf8: ``"wilson"`` for proportions,
``"normal"`` for means) and ``method``.

What each column holds, with its unit, is :data:`COLUMN_MEANINGS` (the book's data page);
:func:`frame` makes a table of rows with exactly its schema, and :func:`data_directory`
finds the committed tables. Every job that makes a table of ``data/`` stands on this
module (the dealt-hand tables in :mod:`rummykit.odds.counting.tables`, the tables of
play in :mod:`rummykit.odds.play`), and :mod:`rummykit.odds.pipeline` runs them all.

>>> frame([{"rules": "standard", "decks": 2}], CELL_COLUMNS).row(0)
('standard', None, None, 2, None, None, None)
>>> sorted(SCHEMAS)[:3]
['buying_value', 'completion_by_turn', 'completion_summary']
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path

import polars as pl

from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "BUYING_SCHEMA",
    "BY_TURN_SCHEMA",
    "CELL_COLUMNS",
    "COLUMN_MEANINGS",
    "DISTANCE_SCHEMA",
    "ESTIMATE_COLUMNS",
    "EXACT_SCHEMA",
    "LADDER_SCHEMA",
    "MEAN_COLUMNS",
    "OUTS_BOT_SCHEMA",
    "SCHEMAS",
    "SEARCH_DECISIONS_SCHEMA",
    "SEAT_SCHEMA",
    "SUMMARY_SCHEMA",
    "TABLE_COLUMN_MEANINGS",
    "column_meaning",
    "data_directory",
    "frame",
    "resolve_rules",
]

#: The columns that say which cell a row describes.
CELL_COLUMNS: dict[str, pl.DataType] = {
    "rules": pl.Utf8,
    "round": pl.Int8,
    "contract": pl.Utf8,
    "decks": pl.Int8,
    "jokers": pl.Int8,
    "cards": pl.Int8,
    "players": pl.Int8,
}

#: A probability and its uncertainty.
ESTIMATE_COLUMNS: dict[str, pl.DataType] = {
    "p": pl.Float64,
    "p_exact": pl.Utf8,
    "stderr": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "n": pl.Int64,
    "method": pl.Utf8,
}

#: A mean (or a proportion given as a mean) and its uncertainty.
MEAN_COLUMNS: dict[str, pl.DataType] = {
    "mean": pl.Float64,
    "sd": pl.Float64,
    "stderr": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "n": pl.Int64,
    "interval": pl.Utf8,
    "method": pl.Utf8,
}

#: Exact probability that a dealt hand holds the contract
#: (:func:`~rummykit.odds.counting.tables.exact_odds`).
EXACT_SCHEMA: dict[str, pl.DataType] = {**CELL_COLUMNS, **ESTIMATE_COLUMNS}

#: Distribution of the contract distance of a dealt hand
#: (:func:`~rummykit.odds.counting.tables.distance_odds`): ``p`` is P(distance =
#: ``distance``), ``p_at_most`` is P(distance <= ``distance``). An exact row (``method``
#: ``"exact"``) is as every exact row, its ``p_at_most`` interval null; a simulated one
#: (``"simulation"``) gives shares of ``n`` dealt hands, each with its 95% Wilson interval
#: (``ci_low``/``ci_high`` for ``p``, ``p_at_most_ci_low``/``_high``).
DISTANCE_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "distance": pl.Int8,
    **ESTIMATE_COLUMNS,
    "p_at_most": pl.Float64,
    "p_at_most_ci_low": pl.Float64,
    "p_at_most_ci_high": pl.Float64,
}

#: Completion by turn (:func:`rummykit.odds.play.completion.completion_by_turn`). ``measure``
#: is ``"laid down"`` (a given seat has laid down by its ``turn``-th turn) or
#: ``"anyone out"`` (someone has gone out by go-around ``turn``); ``buy`` is the buying
#: policy of every seat.
BY_TURN_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "buy": pl.Utf8,
    "measure": pl.Utf8,
    "turn": pl.Int16,
    **ESTIMATE_COLUMNS,
}

#: Per-round summaries (:func:`rummykit.odds.play.completion.round_summary`); the measures
#: are listed in :data:`rummykit.odds.play.completion.SUMMARY_MEASURES`.
SUMMARY_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "buy": pl.Utf8,
    "measure": pl.Utf8,
    **MEAN_COLUMNS,
}

#: Results by seat position, 1 = left of the dealer, who plays first
#: (:func:`rummykit.odds.play.completion.seat_position`).
SEAT_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "buy": pl.Utf8,
    "position": pl.Int8,
    "measure": pl.Utf8,
    **MEAN_COLUMNS,
}

#: What buying is worth (:func:`rummykit.odds.play.completion.buying_value`): one seat plays
#: the policy ``buy`` against opponents playing ``opponents``; ``difference`` is its mean
#: minus the same seat's mean with policy ``"never"`` on the same deals (paired), with
#: a normal 95% interval.
BUYING_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "buy": pl.Utf8,
    "opponents": pl.Utf8,
    "measure": pl.Utf8,
    **MEAN_COLUMNS,
    "difference": pl.Float64,
    "difference_stderr": pl.Float64,
    "difference_ci_low": pl.Float64,
    "difference_ci_high": pl.Float64,
}

#: OutsBot against GreedyBot (:func:`rummykit.odds.play.outs_bot.outs_bot_table`): the seat
#: under study plays ``bot`` (``"outs"`` or ``"greedy"``) against three ``opponents`` on
#: the same deals; ``measure`` is one of
#: :data:`rummykit.odds.play.outs_bot.OUTS_BOT_MEASURES`, ``turn`` the seat's own turn for
#: ``"laid down by turn"`` (null for the others); ``difference`` is the seat's mean
#: minus the same seat's mean as a GreedyBot on the same deals (paired, normal 95%
#: interval; 0 on the ``"greedy"`` rows).
OUTS_BOT_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "buy": pl.Utf8,
    "bot": pl.Utf8,
    "opponents": pl.Utf8,
    "measure": pl.Utf8,
    "turn": pl.Int16,
    **MEAN_COLUMNS,
    "difference": pl.Float64,
    "difference_stderr": pl.Float64,
    "difference_ci_low": pl.Float64,
    "difference_ci_high": pl.Float64,
}

#: The ladder of bots (:func:`rummykit.odds.play.ladder_table.ladder_table`): per cell
#: (``rules``, ``players``), ``measure`` one of
#: :data:`rummykit.odds.play.ladder_table.LADDER_MEASURES` of ``bot`` against
#: ``opponent``; ``round`` and ``turn`` only for ``"laid down by turn"``.
LADDER_SCHEMA: dict[str, pl.DataType] = {
    "rules": pl.Utf8,
    "players": pl.Int8,
    "bot": pl.Utf8,
    "opponent": pl.Utf8,
    "measure": pl.Utf8,
    "round": pl.Int8,
    "turn": pl.Int16,
    "value": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "n": pl.Int64,
}

#: SearchBot's choices beside GreedyBot's in the same positions
#: (:func:`rummykit.odds.play.search_decisions.search_decisions_table`): per cell and
#: ``rollouts`` budget, ``decision`` and ``measure`` a key of
#: :data:`rummykit.odds.play.search_decisions.DECISION_MEASURES`, ``bot`` whose choice.
SEARCH_DECISIONS_SCHEMA: dict[str, pl.DataType] = {
    "rules": pl.Utf8,
    "players": pl.Int8,
    "rollouts": pl.Int32,
    "decision": pl.Utf8,
    "measure": pl.Utf8,
    "bot": pl.Utf8,
    "mean": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "difference": pl.Float64,
    "difference_ci_low": pl.Float64,
    "difference_ci_high": pl.Float64,
    "n": pl.Int64,
    "games": pl.Int64,
}

#: Every schema by the name of its file in ``data/``.
SCHEMAS: dict[str, dict[str, pl.DataType]] = {
    "exact_odds": EXACT_SCHEMA,
    "exact_jokers": EXACT_SCHEMA,
    "exact_presets": EXACT_SCHEMA,
    "distance": DISTANCE_SCHEMA,
    "completion_by_turn": BY_TURN_SCHEMA,
    "completion_summary": SUMMARY_SCHEMA,
    "seat_position": SEAT_SCHEMA,
    "buying_value": BUYING_SCHEMA,
    "outs_bot": OUTS_BOT_SCHEMA,
    "ladder": LADDER_SCHEMA,
    "search_decisions": SEARCH_DECISIONS_SCHEMA,
}

#: What each column of the tables of ``data/`` holds, with its unit (the book's data page,
#: :func:`column_meaning`); :data:`TABLE_COLUMN_MEANINGS` says where a table's column
#: means something more particular.
COLUMN_MEANINGS: dict[str, str] = {
    "rules": "the rule set, a preset's name (``RuleSet.preset(name)``)",
    "round": "the round, 1 to 7, whose contract the row is about (null for a contract no "
    "round of the rules plays)",
    "contract": "the contract in words, as :class:`~rummykit.engine.rules.Contract` prints it "
    "(``2 sets + 1 run``)",
    "decks": "52-card decks in the shoe",
    "jokers": "jokers in the shoe, in all",
    "cards": "cards in the hand: the round's deal size, or a hand grown by draws and buys",
    "players": "players at the table (null where the row is about a dealt hand alone)",
    "p": "the probability (from 0 to 1): exact, or the share of the ``n`` hands or rounds "
    "simulated",
    "p_exact": "the exact probability as a fraction ``a/b`` in lowest terms (null for a "
    "simulated row)",
    "stderr": "the standard error of the estimate (0 for an exact row), in the estimate's unit",
    "ci_low": "the 95% interval's lower end (the estimate itself for an exact row)",
    "ci_high": "the 95% interval's upper end (the estimate itself for an exact row)",
    "n": "hands dealt or rounds played for a simulated row (null for an exact row)",
    "method": "``exact`` (counted) or ``simulation`` (estimated, with its interval)",
    "distance": "the contract distance: the fewest cards that must be added to the hand "
    "before it holds the contract (0: it holds it)",
    "p_at_most": "P(distance is at most ``distance``), from 0 to 1",
    "p_at_most_ci_low": "the 95% Wilson interval's lower end of ``p_at_most`` (null for an "
    "exact row)",
    "p_at_most_ci_high": "the 95% Wilson interval's upper end of ``p_at_most`` (null for an "
    "exact row)",
    "buy": "the buying policy of the seat (or of every seat): ``never``, ``always`` or "
    "``improves`` (buy a card when it lowers the contract distance)",
    "measure": "what the row measures (the values are listed with the table)",
    "turn": "the seat's own turn (1 = its first) for ``laid down``; the go-around for "
    "``anyone out``",
    "mean": "the mean of the measure over the rounds played, in the measure's unit (a "
    "proportion from 0 to 1 for a yes-or-no measure)",
    "sd": "the standard deviation of the measure over the rounds, in its unit",
    "interval": "how the 95% interval was made: ``wilson`` (a proportion) or ``normal`` "
    "(a mean, from its standard error)",
    "position": "the seat's position, 1 = left of the dealer, who plays first",
    "opponents": "the buying policy (or the bot) of every other seat",
    "bot": "the bot in the seat under study: ``outs`` (OutsBot) or ``greedy`` (GreedyBot)",
    "difference": "the seat's mean minus the same seat's mean on the same deals with the "
    "reference choice (paired), in the measure's unit",
    "difference_stderr": "the standard error of ``difference`` (paired over the deals)",
    "difference_ci_low": "the normal 95% interval's lower end of ``difference``",
    "difference_ci_high": "the normal 95% interval's upper end of ``difference``",
    "opponent": "the other bot of a pair of bots compared",
    "value": "the measure's value, in the measure's unit",
    "rollouts": "a SearchBot's samples a decision (its budget)",
    "decision": "the kind of decision (position) the row is about",
    "games": "whole games behind the row",
}

#: Meanings particular to one table, by (table, column): see :data:`COLUMN_MEANINGS`.
TABLE_COLUMN_MEANINGS: dict[tuple[str, str], str] = {
    ("distance", "p"): "P(the contract distance of a dealt hand is ``distance``), from 0 to 1",
    ("completion_by_turn", "measure"): "``laid down``: a given seat has laid its contract "
    "down by its ``turn``-th turn; ``anyone out``: someone has gone out by go-around ``turn``",
    ("completion_by_turn", "p"): "P(the measure has happened by ``turn``), from 0 to 1",
    ("completion_summary", "measure"): "``turns`` (turns in the round, all players "
    "together), ``go-arounds`` (turns per player), ``points left`` (points left in a hand "
    "at the end, mean over seats), ``buys`` (buys per player), ``laid down`` (share of "
    "seats that laid their contract down), ``went out`` (share of rounds ended by a player "
    "going out), ``turn limit`` (share of rounds stopped at the safety turn limit, 60 turns "
    "a player)",
    ("seat_position", "measure"): "``buys``, ``laid down``, ``points left`` or ``went out`` "
    "of the seat in ``position`` (as in ``completion_summary``)",
    ("buying_value", "measure"): "``buys``, ``laid down``, ``points left`` or ``went out`` "
    "of the one seat playing ``buy`` (as in ``completion_summary``)",
    ("buying_value", "difference"): "the seat's mean with policy ``buy`` minus its mean "
    "with ``never`` on the same deals (paired), in the measure's unit",
    ("outs_bot", "measure"): "``laid down by turn`` (P(the seat has laid down by its "
    "``turn``-th turn)), ``laid down``, ``went out`` (the seat went out first: won the "
    "round), ``points left`` (in the seat's hand at the end) or ``points minus opponents`` "
    "(its points left minus the mean of its three opponents'; lower is better)",
    ("outs_bot", "difference"): "the seat's mean as ``bot`` minus its mean as a GreedyBot "
    "on the same deals (paired; 0 on the ``greedy`` rows), in the measure's unit",
    ("outs_bot", "n"): "deals played (each twice: once with each bot in the seat)",
    ("outs_bot", "turn"): "the seat's own turn for ``laid down by turn`` (null for the other "
    "measures)",
    ("ladder", "bot"): "the bot rated, or the first of the pair: ``random``, ``greedy``, "
    "``buyer never``, ``buyer always`` (BuyerBot with that policy), ``outs`` (OutsBot), "
    "``search 16`` or ``search 64`` (SearchBot with 16 or 64 samples a decision)",
    ("ladder", "opponent"): "the second bot of the pair (for ``rating`` and ``elo``: the "
    "anchor, rated 0); for ``laid down by turn``, the bot in every other seat",
    ("ladder", "measure"): "``rating`` (Bradley-Terry log-odds against the anchor), ``elo`` "
    "(the rating in Elo points), ``points`` (points per game better than the opponent in "
    "the same seat of the same deal), ``went out`` and ``laid down`` (by turn 8; shares of "
    "rounds, the bot's minus the opponent's), ``wins`` (share of duplicate pairs in which "
    "the bot scored better) or ``laid down by turn`` (P(the bot, among copies of the "
    "opponent, has laid down by its ``turn``-th turn of ``round``))",
    ("ladder", "round"): "the round of ``laid down by turn`` (null for the other measures)",
    ("ladder", "turn"): "the bot's own turn for ``laid down by turn`` (null for the other "
    "measures)",
    ("ladder", "value"): "the measure's value, in its unit (log-odds, Elo points, points per "
    "game, or a share from 0 to 1, or from -1 to 1 for a difference of shares)",
    ("ladder", "ci_low"): "the 95% interval's lower end (a bootstrap of the deals for the "
    "ratings; Student's t over the deals for the rest)",
    ("ladder", "ci_high"): "the 95% interval's upper end",
    ("ladder", "n"): "duplicate deals behind the row",
    ("search_decisions", "rollouts"): "SearchBot's samples a decision (its budget)",
    ("search_decisions", "decision"): "the kind of position: ``any`` (every decision with a "
    "choice), ``draw`` (take the discard or draw), ``buy`` (buy or pass), ``lay down`` (the "
    "contract can be laid down now) or ``discard`` (both bots discard a card)",
    ("search_decisions", "measure"): "what is measured of the choice (listed with the "
    "table): ``differs from greedy``, ``takes the discard``, ``buys``, ``lays down``, "
    "``points of the discard``, ``discards a high card`` (10 points or more), ``breaks a "
    "pair`` (the card has the rank of another in the hand)",
    ("search_decisions", "bot"): "whose choice in those positions: ``search`` (SearchBot's, "
    "played) or ``greedy`` (GreedyBot's in the same position, a GreedyBot asked at the same view)",
    ("search_decisions", "mean"): "the measure's mean over the games of each game's mean: a "
    "share from 0 to 1, or points for ``points of the discard``",
    ("search_decisions", "ci_low"): "the 95% interval's lower end (Student's t over the games)",
    ("search_decisions", "ci_high"): "the 95% interval's upper end (Student's t over the games)",
    ("search_decisions", "difference"): "SearchBot's mean minus GreedyBot's in the same "
    "positions (paired; 0 on the ``greedy`` rows), in the measure's unit",
    ("search_decisions", "difference_ci_low"): "the 95% interval's lower end of "
    "``difference`` (Student's t over the games of the paired differences)",
    ("search_decisions", "difference_ci_high"): "the 95% interval's upper end of ``difference``",
    ("search_decisions", "n"): "positions behind the row, all games together",
    ("search_decisions", "games"): "games with at least one such position (the SearchBot in "
    "one seat of a deal each)",
}


def column_meaning(table: str, column: str) -> str:
    """What ``column`` of the ``data/`` table ``table`` holds, with its unit.

    >>> column_meaning("exact_odds", "decks")
    '52-card decks in the shoe'
    >>> column_meaning("outs_bot", "n")
    'deals played (each twice: once with each bot in the seat)'
    """
    if table not in SCHEMAS or column not in SCHEMAS[table]:
        raise ArgumentError(f"data/ has no column {column!r} in a table {table!r}")
    if (table, column) in TABLE_COLUMN_MEANINGS:
        return TABLE_COLUMN_MEANINGS[table, column]
    return COLUMN_MEANINGS[column]


def frame(rows: Iterable[dict], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """The rows (dicts keyed by column) as a DataFrame with exactly ``schema``.

    >>> frame([{"rules": "standard"}], CELL_COLUMNS).row(0)
    ('standard', None, None, None, None, None, None)
    """
    rows = list(rows)
    for row in rows:
        unknown = set(row) - set(schema)
        if unknown:
            raise ArgumentError(f"columns not in the schema: {sorted(unknown)}")
    return pl.DataFrame(rows, schema=schema)


def resolve_rules(rules: RuleSet | str) -> RuleSet:
    """A RuleSet from a RuleSet or a preset name (RuleSetError for an unknown name)."""
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet or a preset name, got {rules!r}")
    return rules


def data_directory() -> Path:
    """The ``data/`` of a source checkout (the committed tables): beside the package.

    Where a ``rummykit tables`` run was killed in the instant its two-rename swap leaves
    the folder missing (file systems without an atomic exchange), the swap is completed
    first (:func:`rummykit.odds.data.output.recover`), so a reader sees one whole generation.
    """
    path = Path(__file__).resolve().parents[3] / "data"
    if not path.exists():
        from rummykit.odds.data.output import recover

        with contextlib.suppress(OSError):
            recover(path)
    return path
