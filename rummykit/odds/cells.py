"""The cell values of the odds code: what one odds result is about.

* :class:`ExactCell`, a **dealt cell**: a contract in a hand of ``cards`` cards dealt from
  a shoe (exact counting, dealt-hand simulation, the planner, the known tables);
* :class:`Cell`, a **table cell**: rules, players, shoe, round and buying policy, the set-up
  of rounds played at a table;
* :class:`RoundRecord`, what one played round gave, and :func:`round_seed`, the seeds of
  one round of a table cell.

Both cells give their :class:`~rummykit.engine.cards.Shoe` (``cell.shoe``). This module imports
no other module of :mod:`rummykit.odds` and the standard library only (numpy inside
:func:`round_seed`): the counting, the table play, the data pipeline and the query
service (:mod:`rummykit.odds.answer`) all build on it, and the book's live notebooks
(Pyodide, no numpy) import it.
"""

from __future__ import annotations

import dataclasses
import functools
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rummykit.agents.bots import BUY_POLICIES, BuyerBot, GreedyBot
from rummykit.engine.cards import Shoe
from rummykit.engine.checks import dealt_hand, whole
from rummykit.engine.game import Game, GameState
from rummykit.engine.rules import Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "DEFAULT_SEED",
    "TURN_LIMIT_PER_PLAYER",
    "Cell",
    "ExactCell",
    "RoundRecord",
    "cell_seed",
    "exact_row",
    "play_round",
    "round_of",
    "round_seed",
    "seed_words",
    "simulated_row",
]


@dataclass(frozen=True)
class ExactCell:
    """One row of an exact table: a contract under ``rules`` in ``cards`` cards dealt
    from ``decks`` decks and ``jokers`` jokers; ``round`` labels it."""

    rules: RuleSet
    """The rule set (its meld rules decide what holds the contract)."""
    round: int | None
    """The round it labels (1-based), or None for a contract asked for alone."""
    contract: Contract
    """The contract asked for."""
    decks: int
    """Decks in the shoe (1 to :data:`~rummykit.engine.rules.MAX_DECKS`)."""
    jokers: int
    """Jokers in the shoe (0 to :data:`~rummykit.engine.rules.MAX_JOKERS`)."""
    cards: int
    """Cards in the hand (0 to the shoe's size)."""

    def __post_init__(self) -> None:
        """A cell checks itself once, so that what is handed one need not: the rules,
        the contract (of the rules' meld kinds), the shoe and the hand's size, the round.

        >>> from rummykit import RuleSet
        >>> standard = RuleSet.preset("standard")
        >>> ExactCell(standard, 1, standard.contracts[0], 2, 4, 120)
        Traceback (most recent call last):
        ...
        rummykit.errors.ArgumentError: cards must be an integer from 0 to 108, got 120: a hand is dealt from the shoe of 108 cards
        """
        dealt_hand(
            self.contract, decks=self.decks, jokers=self.jokers, cards=self.cards, rules=self.rules
        )
        if self.round is not None:
            whole("round", self.round, low=1, high=len(self.rules.contracts))

    @property
    def shoe(self) -> Shoe:
        """The shoe the hand is dealt from.

        >>> from rummykit import RuleSet
        >>> standard = RuleSet.preset("standard")
        >>> ExactCell(standard, 1, standard.contracts[0], 2, 4, 10).shoe.size
        108
        """
        return Shoe(decks=self.decks, jokers=self.jokers)


#: A round is stopped (scored as if both piles had run out) after this many turns per
#: player: a safety valve against bots that never finish. With the presets' shoes greedy
#: bots take 5-12 turns each; jokerless shoes in the run rounds come near it, and so does
#: ``family``'s last round (three runs from 10 cards, two jokers in all: with 5 players 2
#: of 40 seeded rounds reach it, with either buy timing). :func:`round_summary`'s
#: ``"turn limit"`` measure says how often it closed.
TURN_LIMIT_PER_PLAYER = 60


@dataclass(frozen=True)
class Cell:
    """One table set-up to simulate: rules, players, shoe, round and buying policy.

    ``decks`` and ``jokers`` default to what the rules assign to ``players``.
    ``buy`` is one of :data:`~rummykit.agents.bots.BUY_POLICIES` for every seat, or a tuple
    giving the policy of each position (1 first).

    >>> cell = Cell(RuleSet.preset("standard"), players=4, round=5)
    >>> cell.decks, cell.jokers, cell.cards, str(cell.contract)
    (2, 4, 12, '2 sets + 1 run')
    """

    rules: RuleSet
    """The rule set (its name labels the tables)."""
    players: int
    """Players at the table."""
    round: int
    """The round (1-based): it gives the contract and the deal size."""
    decks: int | None = None
    """Decks in the shoe (None: as the rules assign to ``players``)."""
    jokers: int | None = None
    """Jokers in the shoe (None: as the rules assign to ``decks``)."""
    buy: str | tuple[str, ...] = "improves"
    """Buying policy of every seat, or one per position."""
    rotate: bool = False
    """Turn the per-position policies one seat each round, so that in round ``index``
    ``buy[0]`` sits at position ``index % players + 1``: every policy plays every
    position equally often."""

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RuleSet):
            raise ArgumentTypeError(f"rules must be a RuleSet, got {self.rules!r}")
        self.rules.check_players(self.players)
        if not isinstance(self.round, int) or not 1 <= self.round <= self.rules.rounds:
            raise ArgumentError(f"round must be 1..{self.rules.rounds}, got {self.round!r}")
        if self.decks is None:
            object.__setattr__(self, "decks", self.rules.decks_for(self.players))
        if self.jokers is None:
            object.__setattr__(self, "jokers", self.rules.jokers_for(self.decks))
        for name, low in (("decks", 1), ("jokers", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ArgumentError(f"{name} must be an integer >= {low}, got {value!r}")
        policies = (self.buy,) if isinstance(self.buy, str) else tuple(self.buy)
        if not isinstance(self.buy, str) and len(policies) != self.players:
            raise ArgumentError(
                f"give one buying policy per position ({self.players}), got {len(policies)}"
            )
        for policy in policies:
            if policy not in BUY_POLICIES:
                raise ArgumentError(f"buy must be one of {', '.join(BUY_POLICIES)}, got {policy!r}")
        if len(set(policies)) == 1:  # one policy for all: the same cell as a plain string
            object.__setattr__(self, "buy", policies[0])
            object.__setattr__(self, "rotate", False)
        else:
            object.__setattr__(self, "buy", policies)
            object.__setattr__(self, "rotate", bool(self.rotate))
        _table_rules(self.rules, self.players, self.decks, self.jokers)  # fail early

    @property
    def contract(self):
        """The contract of :attr:`round`."""
        return self.rules.contracts[self.round - 1]

    @property
    def cards(self) -> int:
        """Cards dealt to each player in :attr:`round`."""
        return self.rules.deal_sizes[self.round - 1]

    def policy(self, position: int, index: int = 0) -> str:
        """The buying policy of ``position`` (1-based) in round ``index`` of the cell."""
        if isinstance(self.buy, str):
            return self.buy
        shift = index if self.rotate else 0
        return self.buy[(position - 1 - shift) % self.players]

    @property
    def shoe(self) -> Shoe:
        """The cell's shoe."""
        return Shoe(decks=self.decks, jokers=self.jokers)

    @property
    def seed_key(self) -> tuple[int, int, int, int]:
        """What a round's seed depends on besides the base seed and the round index."""
        return (self.players, self.decks, self.jokers, self.round)


@functools.lru_cache(maxsize=256)
def _table_rules(rules: RuleSet, players: int, decks: int, jokers: int) -> RuleSet:
    """``rules`` for exactly this table: the shoe overridden, one player count allowed.

    Raises RuleSetError when the shoe cannot deal the round sizes to ``players``.
    """
    if rules.decks_for(players) == decks and dict(rules.jokers_by_decks).get(decks) == jokers:
        return rules
    return dataclasses.replace(
        rules,
        min_players=players,
        max_players=players,
        decks_by_players=((players, decks),),
        jokers_by_decks=((decks, jokers),),
    )


#: NumPy's SeedSequence constants (numpy/random/bit_generator.pyx): its hash and mix.
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_MASK = 0xFFFFFFFF
_POOL = 4


def _words(value) -> list[int]:
    """An int (or a sequence of them) as SeedSequence reads it: 32-bit words, low first."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ArgumentError(f"a seed must be a non-negative integer, got {value}")
        words = []
        while True:
            words.append(value & _MASK)
            value >>= 32
            if not value:
                return words
    if isinstance(value, (str, bytes, bool)) or not isinstance(value, (list, tuple)):
        raise ArgumentTypeError(
            f"a seed is a non-negative integer or a list of them, got {value!r:.80}"
        )
    return [w for item in value for w in _words(item)]


def seed_words(entropy: int, spawn_key: Sequence[int], count: int) -> list[int]:
    """``count`` 64-bit words of ``numpy.random.SeedSequence(entropy,
    spawn_key=spawn_key).generate_state(count, dtype=numpy.uint64)``, computed with the
    standard library (NumPy's algorithm, tested equal to it), for a Python without numpy.

    >>> seed_words(2026, (4, 2, 4, 1, 0), 2)[0] >> 1 == round_seed(2026, (4, 2, 4, 1), 0)[0]
    True
    """
    run, spawn = _words(entropy), _words(spawn_key)
    if spawn and len(run) < _POOL:
        run += [0] * (_POOL - len(run))
    entropy_words = run + spawn
    hash_a = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_a
        value ^= hash_a
        hash_a = (hash_a * _MULT_A) & _MASK
        value = (value * hash_a) & _MASK
        return value ^ (value >> 16)

    def mix(x: int, y: int) -> int:
        result = (_MIX_L * x - _MIX_R * y) & _MASK
        return result ^ (result >> 16)

    pool = [hashmix(entropy_words[i] if i < len(entropy_words) else 0) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL, len(entropy_words)):
        for dst in range(_POOL):
            pool[dst] = mix(pool[dst], hashmix(entropy_words[src]))
    hash_b, state = _INIT_B, []
    for i in range(2 * count):
        value = pool[i % _POOL] ^ hash_b
        hash_b = (hash_b * _MULT_B) & _MASK
        value = (value * hash_b) & _MASK
        state.append(value ^ (value >> 16))
    return [state[2 * i] | state[2 * i + 1] << 32 for i in range(count)]


def round_seed(seed: int, key: Sequence[int], index: int) -> tuple[int, int]:
    """The (game seed, bot seed) of round ``index`` of a cell with ``seed_key`` ``key``.

    Derived as :class:`numpy.random.SeedSequence` derives them (:func:`seed_words`)
    from the base ``seed`` and the cell's key, so it does not depend on which other
    cells are run, in which order, or where.

    >>> round_seed(2026, (4, 2, 4, 1), 0) == round_seed(2026, (4, 2, 4, 1), 0)
    True
    >>> round_seed(2026, (4, 2, 4, 1), 0) != round_seed(2026, (4, 2, 4, 1), 1)
    True
    """
    game_seed, bot_seed = seed_words(seed, (*key, index), 2)
    return game_seed >> 1, bot_seed >> 1


@dataclass(frozen=True)
class RoundRecord:
    """What happened in one simulated round, every per-seat field by position (1 first)."""

    index: int
    """The round's index in its cell (its seed's index)."""
    turns: int
    """Turns begun in the round, all players together."""
    ended: str
    """``"out"`` (someone went out), ``"exhausted"`` (no card could be drawn) or
    ``"limit"`` (:data:`TURN_LIMIT_PER_PLAYER` reached)."""
    out: int | None
    """The position (1-based) that went out, or None."""
    laid_down: tuple[int | None, ...]
    """The own-turn number on which each position laid down, or None."""
    seat_turns: tuple[int, ...]
    """Turns each position began."""
    points: tuple[int, ...]
    """Points left in each position's hand at the end (without penalties or bonuses)."""
    buys: tuple[int, ...]
    """Buys each position made."""


#: Base seed of every simulation unless the caller gives one.
DEFAULT_SEED = 2026


def round_of(rules: RuleSet, contract: Contract) -> int | None:
    """The first round (1-based) of ``rules`` that plays ``contract``, or None."""
    return next((i + 1 for i, c in enumerate(rules.contracts) if c == contract), None)


def exact_row(cell: ExactCell, p: Fraction) -> dict:
    """The row of :data:`~rummykit.odds.data.schemas.EXACT_SCHEMA` for ``cell`` with the
    exact probability ``p`` (a dict: the widgets and the tables build their rows here).

    >>> from rummykit import RuleSet
    >>> standard = RuleSet.preset("standard")
    >>> row = exact_row(ExactCell(standard, 1, standard.contracts[0], 1, 0, 6), Fraction(12, 195755))
    >>> row["p_exact"], row["method"], row["n"]
    ('12/195755', 'exact', None)
    """
    return {
        "rules": cell.rules.name,
        "round": cell.round,
        "contract": str(cell.contract),
        "decks": cell.decks,
        "jokers": cell.jokers,
        "cards": cell.cards,
        "players": None,
        "p": float(p),
        "p_exact": str(p),
        "stderr": 0.0,
        "ci_low": float(p),
        "ci_high": float(p),
        "n": None,
        "method": "exact",
    }


def cell_seed(seed: int, cell: ExactCell) -> int:
    """The seed of a simulated cell: from the base ``seed`` and the cell alone, so a cell
    gets the same hands in any table and on any worker.

    >>> from rummykit import RuleSet
    >>> standard = RuleSet.preset("standard")
    >>> cell = ExactCell(standard, 2, standard.contracts[1], 2, 4, 10)
    >>> cell_seed(2026, cell) == cell_seed(2026, cell) != cell_seed(2027, cell)
    True
    """
    key = (
        zlib.crc32(cell.rules.name.encode()),
        cell.contract.sets,
        cell.contract.runs,
        cell.decks,
        cell.jokers,
        cell.cards,
    )
    return seed_words(seed, key, 1)[0] >> 1


def simulated_row(cell: ExactCell, estimate) -> dict:
    """The row of :data:`~rummykit.odds.data.schemas.EXACT_SCHEMA` for ``cell`` with a
    simulated ``estimate`` (an :class:`~rummykit.odds.estimate.Estimate`)."""
    return {
        **exact_row(cell, Fraction(0)),
        "p": float(estimate.p),
        "p_exact": None,
        "stderr": float(estimate.stderr),
        "ci_low": float(estimate.ci_low),
        "ci_high": float(estimate.ci_high),
        "n": int(estimate.n),
        "method": "simulation",
    }


# -- one simulated round, by the engine ------------------------------------------


def play_round(
    cell: Cell, seed: int, index: int = 0, *, focal: type[GreedyBot] | None = None
) -> RoundRecord:
    """Play round ``index`` of ``cell`` with :class:`~rummykit.agents.bots.BuyerBot` bots.

    With ``focal`` (a GreedyBot class such as :class:`~rummykit.agents.bots.OutsBot`), the
    position ``index % players + 1`` plays that bot instead, with its policy and seed:
    over a cell's rounds it sits at every position equally often, on the same deals as
    the rounds played without it (the seeds do not depend on the bots).

    >>> cell = Cell(RuleSet.preset("standard"), players=3, round=1)
    >>> record = play_round(cell, seed=7)
    >>> record == play_round(cell, seed=7), record.ended in ("out", "exhausted", "limit")
    (True, True)
    """
    return _played_round(cell, seed, index, focal)[1]


def _played_round(
    cell: Cell, seed: int, index: int, focal: type[GreedyBot] | None = None
) -> tuple[GameState, RoundRecord]:
    """:func:`play_round`'s round: the finished state (its log holds every event, which
    tests/test_fastplay.py compares with the compiled simulator's) and its record."""
    rules = _table_rules(cell.rules, cell.players, cell.decks, cell.jokers)
    game_seed, bot_seed = round_seed(seed, cell.seed_key, index)
    players = cell.players
    limit = TURN_LIMIT_PER_PLAYER * players
    state = Game(rules, players, seed=game_seed, turn_limit=limit).new_state(round=cell.round)
    position = {(state.dealer + 1 + k) % players: k for k in range(players)}
    bots = [None] * players
    for seat, k in position.items():
        kind = focal if focal is not None and k == index % players else BuyerBot
        bots[seat] = kind(buy=cell.policy(k + 1, index), seed=bot_seed + k)
    while not state.round_scores:
        seat = state.to_act
        state.apply(bots[seat].choose(state.view(seat)))

    # Everything below is read from the public record: the event log and the scores.
    events = [e for e in state.log if e.round == cell.round]
    turns = [0] * players
    laid: list[int | None] = [None] * players
    buys = [0] * players
    penalty = [0] * players
    ended, went_out = "exhausted", None
    for event in events:
        seat = event.seat
        if event.kind in ("decline", "take discard"):  # the first move of every turn
            turns[position[seat]] += 1
        elif event.kind == "lay down":
            laid[position[seat]] = turns[position[seat]]
        elif event.kind == "buy":
            buys[position[seat]] += 1
        elif event.kind == "go out":
            ended, went_out = "out", position[seat] + 1
        elif event.kind == "piles exhausted" and seat is None:
            ended = "limit"
        elif event.kind == "cut" and event.details.perfect:
            penalty[position[seat]] -= rules.perfect_cut_bonus
        elif event.kind == "invalid lay down":
            penalty[position[seat]] += rules.invalid_lay_down_penalty
    sign = -1 if rules.negative_scores else 1
    scores = state.round_scores[0]
    points = [0] * players
    for seat, k in position.items():
        points[k] = sign * scores[seat] - penalty[k]
    return state, RoundRecord(
        index=index,
        turns=sum(turns),
        ended=ended,
        out=went_out,
        laid_down=tuple(laid),
        seat_turns=tuple(turns),
        points=tuple(points),
        buys=tuple(buys),
    )
