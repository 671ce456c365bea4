"""Fast rounds: :func:`~rummykit.odds.play.completion.play_round`, compiled.

:func:`play_round_fast` returns exactly the :class:`~rummykit.odds.cells.RoundRecord`
that ``completion.play_round`` returns for the same cell, seed and index, some 30-100
times sooner: the round is played by a C core (``rummykit/_native/_table.c``) that follows the engine's
rules and :class:`~rummykit.bots.BuyerBot`'s policy step for step, and draws its chance
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
>>> from rummykit.rules import RuleSet
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
from dataclasses import fields

from rummykit import _native
from rummykit.bots import BUY_POLICIES
from rummykit.cards import Shoe
from rummykit.errors import RummyError, UnsupportedRuleError
from rummykit.events import (
    EVENT_KINDS,
    BuyDetails,
    BuyLimitDetails,
    BuyLotteryDetails,
    CallDetails,
    CutDetails,
    Event,
    EventDetails,
    GameEndDetails,
    ReshuffleDetails,
    RoundEndDetails,
)
from rummykit.odds.cells import TURN_LIMIT_PER_PLAYER, Cell, RoundRecord, round_seed
from rummykit.rules import RuleSet

__all__ = [
    "SUPPORTED",
    "check_fast",
    "fast_available",
    "fast_events",
    "log_events",
    "play_round_fast",
    "play_rounds_fast",
]

_ANY = object()

#: The RuleSet options the core implements: field -> the values it plays (_ANY: every
#: valid value). Fields left out of the bots' play (``name``, the table and round sizes)
#: are free; the meld sizes are free within the check in :func:`check_fast`.
SUPPORTED: dict[str, object] = {
    "name": _ANY,
    "min_players": _ANY,
    "max_players": _ANY,
    "decks_by_players": _ANY,
    "jokers_by_decks": _ANY,
    "contracts": _ANY,
    "deal_sizes": _ANY,
    "min_set_size": _ANY,
    "min_run_size": _ANY,
    "max_jokers_per_meld": _ANY,
    "min_naturals_in_set": _ANY,
    "min_naturals_in_run": _ANY,
    "ace_low": _ANY,
    "ace_high": _ANY,
    "same_suit_runs": ("unrestricted", "separated"),
    # Bots lay down find_contract's melds, exactly the contract: extra melds never arise.
    "extra_melds": (False, True),
    "joker_swap": ("runs", "any", "none"),
    "joker_swap_needs_laid_down": (True, False),
    "swapped_joker_must_be_played": (True, False),
    "joker_trade_once": (False, True),
    "buying": (True, False),
    "buy_timing": ("after_decline", "before_draw"),
    "buy_priority": ("nearest", "longest_waiting", "first_call"),
    "buy_penalty_cards": _ANY,
    "buy_limit": _ANY,
    "last_round_buy_limit": _ANY,
    "last_round_no_discard": (False, True),
    "floating": (False, True),
    # GreedyBot always calls: the first laid-down player holding cards claims the card
    # (liverpool), the next player makes the discarder take it back (rummy).
    "discard_call": ("none", "liverpool", "rummy"),
    # Bots never lay down invalid melds; RoundRecord.points leaves penalties out.
    "invalid_lay_down_penalty": _ANY,
    "perfect_cut_bonus": _ANY,
    # One round is played: the contract of the next round is not reached.
    "repeat_missed_contract": (False, True),
    "points": ("liverpool", "face"),
    "negative_scores": (False, True),
    "reshuffle_discards": (True, False),
}

#: The integers the core reads, in order (its ``CONFIG_FIELDS`` says how many); the meld
#: rules go apart, encoded once for every core (:func:`rummykit._native.encode_meld_rules`).
_CONFIG_FIELDS = (
    "players",
    "decks",
    "jokers",
    "deal",
    "sets",
    "runs",
    "buying",
    "before_draw",
    "buy_priority",  # 0 nearest, 1 longest_waiting, 2 first_call
    "buy_penalty_cards",
    "buy_limit",  # this round's, -1: None
    "face_points",
    "negative_scores",
    "perfect_cut_bonus",
    "turn_limit",
    "joker_swap",  # 0 none, 1 runs, 2 any
    "joker_trade_once",
    "floating",
    "no_final_discard",  # this round is gone out by melding (last_round_no_discard)
    "liverpool_call",
    "rummy_call",
    "reshuffle_discards",
    "swapped_joker_must_be_played",
    "joker_swap_needs_laid_down",
)
_PRIORITIES = ("nearest", "longest_waiting", "first_call")
_ENDED = ("out", "exhausted", "limit")
# The core's largest table (its fixed arrays).
_MOST_PLAYERS, _MOST_SETS, _MOST_RUNS = 16, 8, 8


def _unsupported(rules: RuleSet, field: str, value, why: str = "") -> UnsupportedRuleError:
    return UnsupportedRuleError(
        f"the fast simulator does not implement {field}={value!r}{why}, {rules.name}: "
        f"the engine plays it (completion.play_round)"
    )


def check_fast(rules: RuleSet) -> None:
    """Raise :class:`~rummykit.errors.UnsupportedRuleError` unless the fast simulator
    plays ``rules`` exactly; the message names the first field and value it does not.

    >>> check_fast(RuleSet.preset("standard"))
    >>> import dataclasses
    >>> check_fast(dataclasses.replace(RuleSet.preset("standard"), min_naturals_in_run=1))
    Traceback (most recent call last):
    ...
    rummykit.errors.UnsupportedRuleError: the fast simulator does not implement min_naturals_in_run=1 (below 2), standard: the engine plays it (completion.play_round)
    """
    if not isinstance(rules, RuleSet):
        raise RummyError(f"rules must be a RuleSet, got {rules!r}")
    for f in fields(rules):
        allowed = SUPPORTED.get(f.name)
        value = getattr(rules, f.name)
        if allowed is None or (allowed is not _ANY and value not in allowed):
            raise _unsupported(rules, f.name, value)
    # A group of cards is then a set or a run, never both (melds.check_lay_down's choice
    # of kinds never arises).
    for name in ("min_naturals_in_set", "min_naturals_in_run"):
        if getattr(rules, name) < 2:
            raise _unsupported(rules, name, getattr(rules, name), " (below 2)")
    for contract in rules.contracts:
        if contract.sets > _MOST_SETS or contract.runs > _MOST_RUNS:
            raise _unsupported(rules, "contracts", contract, " (more sets or runs than 8)")
    if rules.max_players > _MOST_PLAYERS:
        raise _unsupported(rules, "max_players", rules.max_players)


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
    """The core's integers for ``cell`` (:data:`_CONFIG_FIELDS`), after :func:`check_fast`."""
    rules = cell.rules
    check_fast(rules)
    contract = cell.contract
    last = cell.round == rules.rounds
    limit = rules.last_round_buy_limit if last and rules.last_round_buy_limit is not None else None
    limit = rules.buy_limit if limit is None else limit
    values = {
        "players": cell.players,
        "decks": cell.decks,
        "jokers": cell.jokers,
        "deal": cell.cards,
        "sets": contract.sets,
        "runs": contract.runs,
        "buying": int(rules.buying),
        "before_draw": int(rules.buy_timing == "before_draw"),
        "buy_priority": _PRIORITIES.index(rules.buy_priority),
        "buy_penalty_cards": rules.buy_penalty_cards,
        "buy_limit": -1 if limit is None else limit,
        "face_points": int(rules.points == "face"),
        "negative_scores": int(rules.negative_scores),
        "perfect_cut_bonus": rules.perfect_cut_bonus,
        "turn_limit": TURN_LIMIT_PER_PLAYER * cell.players,
        "joker_swap": ("none", "runs", "any").index(rules.joker_swap),
        "joker_trade_once": int(rules.joker_trade_once),
        "floating": int(rules.floating),
        "no_final_discard": int(last and rules.last_round_no_discard),
        "liverpool_call": int(rules.discard_call == "liverpool"),
        "rummy_call": int(rules.discard_call == "rummy"),
        "reshuffle_discards": int(rules.reshuffle_discards),
        "swapped_joker_must_be_played": int(rules.swapped_joker_must_be_played),
        "joker_swap_needs_laid_down": int(rules.joker_swap_needs_laid_down),
    }
    return tuple(values[name] for name in _CONFIG_FIELDS)


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


def _physical(shoe: Shoe):
    """Card id (the core's: its place in ``shoe.cards``) -> ``"code/deck"``."""
    return [f"{card.code}/{card.deck}" for card in shoe.cards]


def fast_events(cell: Cell, seed: int, index: int = 0) -> list[tuple]:
    """The core's event log of round ``index`` of ``cell``, as :func:`log_events` writes
    the engine's: ``(kind, seat, cards, meld, melds, details)``, cards as ``"code/deck"``
    and ``details`` the event's typed details (:data:`rummykit.events.DETAILS`).

    >>> from rummykit.odds.cells import Cell
    >>> cell = Cell(RuleSet.preset("standard"), players=3, round=1)
    >>> [event[0] for event in fast_events(cell, seed=1)][:5]
    ['deal', 'deal', 'deal', 'upcard', 'take discard']
    """
    result = _play(cell, seed, [index], True)[0]
    names = _physical(Shoe(decks=cell.decks, jokers=cell.jokers))
    data = memoryview(result[8]).cast("i")
    out, i = [], 0
    while i < len(data):
        kind, seat, n = data[i], data[i + 1], data[i + 2]
        cards = tuple(names[c] for c in data[i + 3 : i + 3 + n])
        i += 3 + n
        meld, count = data[i], data[i + 1]
        i += 2
        melds = []
        for _ in range(count):
            k = data[i]
            melds.append(tuple(names[c] for c in data[i + 1 : i + 1 + k]))
            i += 1 + k
        s = data[i]
        numbers = tuple(data[i + 1 : i + 1 + s])
        i += 1 + s
        name = EVENT_KINDS[kind]
        out.append(
            (
                name,
                None if seat < 0 else seat,
                cards,
                None if meld < 0 else meld,
                tuple(melds),
                _details(name, numbers),
            )
        )
    return out


#: The core logs an event's details as numbers, the fields in order (a perfect cut 1,
#: else 0; a buy after the decline none): each kind's details from its numbers.
_DETAILS_FROM_NUMBERS = {
    "cut": lambda n: CutDetails(n[0], bool(n[1])),
    "reshuffle": lambda n: ReshuffleDetails(n[0]),
    "buy": lambda n: BuyDetails(n[0] if n else None),
    "buy limit": lambda n: BuyLimitDetails(n[0], n[1]),
    "buy lottery": lambda n: BuyLotteryDetails(tuple(n)),
    "call": lambda n: CallDetails(n[0]),
    "round end": lambda n: RoundEndDetails(tuple(n)),
    "game end": lambda n: GameEndDetails(tuple(n)),
}


def _details(kind: str, numbers: tuple[int, ...]) -> EventDetails | tuple[int, ...] | None:
    """The typed details of a ``kind`` event the core logged with ``numbers``."""
    decode = _DETAILS_FROM_NUMBERS.get(kind)
    if decode is None:
        # A kind without details: numbers logged anyway stay as they are, so that the
        # comparison with the engine's None shows them.
        return numbers or None
    return decode(numbers)


def log_events(log: Iterable[Event], round: int) -> list[tuple]:
    """The events of round ``round`` of an engine log (``GameState.log``) in the form of
    :func:`fast_events`."""
    return [
        (
            e.kind,
            e.seat,
            tuple(f"{c.code}/{c.deck}" for c in e.cards),
            e.meld,
            tuple(tuple(f"{c.code}/{c.deck}" for c in m.cards) for m in e.melds),
            e.details,
        )
        for e in log
        if e.round == round
    ]
