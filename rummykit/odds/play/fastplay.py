"""Fast rounds: :func:`~rummykit.odds.play.completion.play_round`, compiled.

:func:`play_round_fast` returns exactly the :class:`~rummykit.odds.cells.RoundRecord`
that ``completion.play_round`` returns for the same cell, seed and index, some 30-100
times sooner: the round is played by a C core (``rummykit/_native/_table.c``) that follows the engine's
rules and :class:`~rummykit.agents.bots.BuyerBot`'s policy step for step, and draws its chance
(dealer, cut, deal, reshuffles, buy lotteries) from the same ``random.Random(game seed)``
in the same order. :func:`fast_events` gives its event log in the form
:func:`log_events` gives the engine's, which is how the tests check that both play the
same round. The engine stays the reference; ``docs/fast-table.md`` is the design note.

A sweep uses it cell by cell: ``play_rounds_fast(cell, seed, indices)`` where
:func:`fast_available` says so, else ``[play_round(cell, seed, i) for i in indices]``;
the records are the same either way.

It plays every preset (``standard``, ``pagat``, ``wikipedia``, ``bga``, ``family``) and
every option of RuleSet but meld rules with fewer than two naturals, and refuses, never
approximates, the rest: :func:`check_fast` raises
:class:`~rummykit.errors.UnsupportedRuleError`, naming the field and value, for any rule
option the core does not implement (:data:`SUPPORTED` lists the others), before any play.

>>> from rummykit.odds.cells import Cell
>>> from rummykit.odds.play.completion import play_round
>>> from rummykit.engine.rules import RuleSet
>>> cell = Cell(RuleSet.preset("standard"), players=4, round=2)
>>> play_round_fast(cell, seed=7, index=3) == play_round(cell, seed=7, index=3)
True
>>> [r.index for r in play_rounds_fast(cell, seed=7, indices=range(3))]
[0, 1, 2]
>>> import dataclasses
>>> check_fast(dataclasses.replace(RuleSet.preset("standard"), min_naturals_in_set=1))
Traceback (most recent call last):
...
rummykit.errors.UnsupportedRuleError: the fast simulator does not implement min_naturals_in_set=1 (below 2), standard: the engine plays it (completion.play_round)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from rummykit import _native
from rummykit.agents.bots import BUY_POLICIES
from rummykit.agents.rollouts import SUPPORTED, check_fast, decode_events, log_events, table_config
from rummykit.engine.cards import Shoe
from rummykit.engine.rules import RuleSet
from rummykit.errors import RummyError, UnsupportedRuleError
from rummykit.odds.cells import TURN_LIMIT_PER_PLAYER, Cell, RoundRecord, round_seed

__all__ = [
    "SUPPORTED",
    "check_fast",
    "fast_available",
    "fast_events",
    "log_events",
    "play_round_fast",
    "play_rounds_fast",
]

# SUPPORTED, check_fast and log_events live in rummykit.agents.rollouts (the core's rules and
# events, which the compiled rollouts share); they are this module's names too.
_ENDED = ("out", "exhausted", "limit")


def fast_available(rules: RuleSet) -> bool:
    """True when the fast simulator can play ``rules``: the core is built and
    :func:`check_fast` accepts them (a sweep uses it then, else the engine).

    >>> from rummykit import _native
    >>> fast_available(RuleSet.preset("standard")) == _native.available()["table"]
    True
    """
    try:
        check_fast(rules)
    except UnsupportedRuleError:
        return False
    return _native.available()["table"]


@functools.lru_cache(maxsize=512)
def _config(cell: Cell) -> tuple[int, ...]:
    """The core's integers for ``cell`` (:data:`rummykit.agents.rollouts.CONFIG_FIELDS`), after
    :func:`check_fast`."""
    rules = cell.rules
    last = cell.round == rules.rounds
    limit = rules.last_round_buy_limit if last and rules.last_round_buy_limit is not None else None
    return table_config(
        rules,
        players=cell.players,
        decks=cell.decks,
        jokers=cell.jokers,
        deal=cell.cards,
        round=cell.round,
        contract=cell.contract,
        buy_limit=rules.buy_limit if limit is None else limit,
        turn_limit=TURN_LIMIT_PER_PLAYER * cell.players,
    )


def _policies(cell: Cell, index: int) -> tuple[int, ...]:
    return tuple(BUY_POLICIES.index(cell.policy(k + 1, index)) for k in range(cell.players))


def _play(cell: Cell, seed: int, indices: Sequence[int], events: bool) -> list[tuple]:
    table = _native.require("table")
    if not isinstance(cell, Cell):
        raise RummyError(f"cell must be a cells.Cell, got {cell!r}")
    config = _config(cell)
    key = cell.seed_key
    if seed < 2**64:  # the core derives round_seed's game seeds itself (numpy's algorithm)
        seeds = table.game_seeds(seed, key, indices)
    else:
        seeds = [round_seed(seed, key, index)[0] for index in indices]
    if isinstance(cell.buy, str):
        policies = [_policies(cell, 0)] * len(seeds)
    else:
        policies = [_policies(cell, index) for index in indices]
    results = table.play(config, _native.encode_meld_rules(cell.rules), seeds, policies, events)
    for result in results:
        if result[0]:
            raise RummyError(
                f"the fast simulator met a position it does not implement in {cell} "
                f"(seed {seed}): play it with completion.play_round"
            )
    return results


def _record(index: int, result: tuple) -> RoundRecord:
    _, ended, out, laid, turns, points, buys, _, _ = result
    return RoundRecord(
        index=index,
        turns=sum(turns),
        ended=_ENDED[ended],
        out=out,
        laid_down=laid,
        seat_turns=turns,
        points=points,
        buys=buys,
    )


def play_round_fast(cell: Cell, seed: int, index: int = 0) -> RoundRecord:
    """:func:`~rummykit.odds.play.completion.play_round`'s record of round ``index`` of
    ``cell``, played by the compiled core (see the module docstring)."""
    return play_rounds_fast(cell, seed, [index])[0]


def play_rounds_fast(cell: Cell, seed: int, indices: Iterable[int]) -> list[RoundRecord]:
    """The records of rounds ``indices`` of ``cell`` in one call (less overhead per round)."""
    indices = list(indices)
    for index in indices:
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise RummyError(f"a round index is a non-negative integer, got {index!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RummyError(f"seed must be a non-negative integer, got {seed!r}")
    results = _play(cell, seed, indices, False)
    return [_record(index, result) for index, result in zip(indices, results, strict=True)]


def fast_events(cell: Cell, seed: int, index: int = 0) -> list[tuple]:
    """The core's event log of round ``index`` of ``cell``, as :func:`log_events` writes
    the engine's: ``(kind, seat, cards, meld, melds, details)``, cards as ``"code/deck"``
    and ``details`` the event's typed details (:data:`rummykit.engine.events.DETAILS`).

    >>> from rummykit.odds.cells import Cell
    >>> cell = Cell(RuleSet.preset("standard"), players=3, round=1)
    >>> [event[0] for event in fast_events(cell, seed=1)][:5]
    ['deal', 'deal', 'deal', 'upcard', 'take discard']
    """
    result = _play(cell, seed, [index], True)[0]
    return decode_events(result[8], Shoe(decks=cell.decks, jokers=cell.jokers))
