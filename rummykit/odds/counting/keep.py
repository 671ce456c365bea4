"""Keep every card: the exact chance of holding a contract in the deal plus one card a turn.

A player who never discarded would hold the dealt cards plus one card per turn: after
``t`` turns, ``deal + t`` cards. Were those ``t`` cards drawn blind, the chance that the
hand holds the contract would be the exact dealt probability of a hand of ``deal + t``
cards (:func:`~rummykit.odds.counting.exact.dealt_probability`). Drawn beside the simulated
chance of having laid down by turn ``t`` (:func:`~rummykit.odds.play.completion.
completion_by_turn`), it shows what play changes: a player chooses between the discard
and a blind card and may buy (two cards more), which helps; a player discards every
turn, and the round ends when someone goes out, which hurts. It is a yardstick, not a
bound: early in a round the simulated players beat it.

Where a hand size would take too long to count (:func:`~rummykit.odds.data.plan.
exact_seconds`, planned from measured sweeps), its row says ``"not counted"`` and has no
``p``: the line is left out there, never estimated.

>>> frame = keep_every_card("standard", 1, players=4, turns=[1, 2])
>>> frame.select("turn", "cards", "p_exact", "method").rows()[0]
(1, 11, '144306894997/947761309845', 'exact')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import polars as pl

from rummykit.engine.cards import Shoe
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError
from rummykit.odds.answer import known_probability
from rummykit.odds.cells import ExactCell
from rummykit.odds.counting.exact import dealt_probability
from rummykit.odds.data.plan import exact_seconds
from rummykit.odds.data.schemas import CELL_COLUMNS, frame, resolve_rules

__all__ = ["KEEP_SCHEMA", "KEEP_SECONDS", "keep_every_card"]

#: One row per turn: the cell of the hand (``cards`` = deal + ``turn``), the exact
#: ``p`` and ``p_exact`` (null where not counted), ``method`` (``"exact"`` or ``"not
#: counted"``) and ``seconds``, the planned CPU seconds of counting it (0 when the
#: committed tables or a sweep made before in this process know it).
KEEP_SCHEMA: dict[str, pl.DataType] = {
    **CELL_COLUMNS,
    "turn": pl.Int16,
    "p": pl.Float64,
    "p_exact": pl.Utf8,
    "method": pl.Utf8,
    "seconds": pl.Float64,
}

#: Counts planned to take longer than this (CPU seconds) are left out by default.
KEEP_SECONDS = 10.0


def keep_every_card(
    rules: RuleSet | str = "standard",
    round: int = 1,
    *,
    players: int | None = None,
    decks: int | None = None,
    jokers: int | None = None,
    turns: Iterable[int] = range(1, 11),
    max_seconds: float = KEEP_SECONDS,
    progress: Callable[[int, int], None] | None = None,
) -> pl.DataFrame:
    """The exact chance that the deal plus ``t`` cards holds ``round``'s contract, for each
    ``t`` of ``turns`` (schema :data:`KEEP_SCHEMA`, rows in the order of ``turns``).

    The shoe is ``decks`` and ``jokers`` (by default what ``rules`` assign to ``players``
    players, which then labels the rows). Hand sizes the committed tables or an earlier
    sweep know cost nothing; the others are counted when planned at most ``max_seconds``
    (one sweep, of the largest, serves every smaller hand), and left as ``"not
    counted"`` otherwise. ``progress`` is passed to the counts
    (:func:`~rummykit.odds.counting.exact.dealt_probability`).

    >>> frame = keep_every_card("standard", 1, decks=2, jokers=4, turns=range(1, 31))
    >>> frame["p"].is_sorted(), frame["p"][-1]
    (True, 1.0)
    >>> keep_every_card("family", 1, players=8)
    Traceback (most recent call last):
    ...
    rummykit.errors.RuleSetError: family is played by 2 to 6 players, not 8
    """
    rules = resolve_rules(rules)
    if not isinstance(round, int) or isinstance(round, bool) or not 1 <= round <= rules.rounds:
        raise ArgumentError(f"round must be 1..{rules.rounds}, got {round!r}")
    if players is not None:
        rules.check_players(players)
    if decks is None:
        if players is None:
            raise ArgumentError("give the players at the table or the decks of the shoe")
        decks = rules.decks_for(players)
    if jokers is None:
        jokers = rules.jokers_for(decks)
    for name, value, low in (("decks", decks, 1), ("jokers", jokers, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ArgumentError(f"{name} must be an integer >= {low}, got {value!r}")
    turns = list(turns)
    if any(not isinstance(t, int) or isinstance(t, bool) or t < 0 for t in turns):
        raise ArgumentError(f"turns must be non-negative integers, got {turns!r}")
    contract, deal = rules.contracts[round - 1], rules.deal_sizes[round - 1]
    shoe = Shoe(decks=decks, jokers=jokers).size
    if turns and deal + max(turns) > shoe:
        raise ArgumentError(
            f"a hand of {deal + max(turns)} cards (the deal of {deal} and {max(turns)} turns) "
            f"is more than the {shoe} cards of {decks} decks and {jokers} jokers"
        )
    cells = {t: ExactCell(rules, round, contract, decks, jokers, deal + t) for t in turns}
    known = {cell: known_probability(cell) for cell in cells.values()}
    planned = {cell: 0.0 if p is not None else exact_seconds(cell) for cell, p in known.items()}
    wanted = [cell for cell, p in known.items() if p is None and planned[cell] <= max_seconds]
    # The largest hand first: its sweep serves every smaller one.
    for cell in sorted(set(wanted), key=lambda c: c.cards, reverse=True):
        known[cell] = dealt_probability(
            contract, decks=decks, jokers=jokers, cards=cell.cards, rules=rules, progress=progress
        )
    rows = []
    for t, cell in cells.items():
        p = known[cell]
        rows.append(
            {
                "rules": rules.name,
                "round": round,
                "contract": str(contract),
                "decks": decks,
                "jokers": jokers,
                "cards": cell.cards,
                "players": players,
                "turn": t,
                "p": None if p is None else float(p),
                "p_exact": None if p is None else str(p),
                "method": "not counted" if p is None else "exact",
                "seconds": planned[cell],
            }
        )
    return frame(rows, KEEP_SCHEMA)
