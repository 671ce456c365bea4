"""Rule sets: every option of Liverpool Rummy that the sources disagree on.

A :class:`RuleSet` is a frozen dataclass. Start from a preset and change what
you like with :func:`dataclasses.replace`; the new rule set is checked and an
impossible combination raises :class:`~rummykit.errors.RuleSetError`.

>>> rules = RuleSet.preset("standard")
>>> rules.contracts[2]
Contract(sets=0, runs=2)
>>> str(rules.contracts[4]), rules.deal_sizes[4]
('2 sets + 1 run', 12)
>>> RuleSet.presets()
('standard', 'pagat', 'wikipedia', 'bga', 'family')
>>> import dataclasses
>>> loose = dataclasses.replace(rules, max_jokers_per_meld=None, min_naturals_in_run=1)
>>> loose.max_jokers_per_meld is None
True
>>> dataclasses.replace(rules, min_players=1)
Traceback (most recent call last):
...
rummykit.errors.RuleSetError: min_players must be at least 2 (Liverpool Rummy needs an opponent), got 1
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from typing import Literal

from rummykit.engine.cards import Card, Rank
from rummykit.errors import RuleSetError

__all__ = [
    "CONTRACTS",
    "MAX_CONTRACT_MELDS",
    "MAX_DEAL_SIZE",
    "MAX_DECKS",
    "MAX_JOKERS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_RUN_LENGTH",
    "RULE_PARTS",
    "SHOE_DECKS",
    "SHOE_JOKERS",
    "Contract",
    "MeldLimits",
    "MeldRules",
    "RuleSet",
    "meld_limits",
    "run_windows",
]

#: Rule options added after save version 1 came out: :meth:`RuleSet.to_json` writes them
#: only when they differ from their default (see there).
_LATER_OPTIONS = ("buy_timing",)

# Upper bounds on a rule set, so that every game, and every save file's rules, costs a
# bounded amount of work (a game builds every card of its shoe). They cover every preset,
# table and test with room to spare: the largest shoe used anywhere is 3 decks and 8
# jokers, the largest deal 14 cards, the most players 8, the most rounds 7.
#: Most 52-card decks in a shoe.
MAX_DECKS = 8
#: Most jokers in a shoe.
MAX_JOKERS = 32
#: Most players at a table.
MAX_PLAYERS = 16
#: Most cards dealt to a player in one round (also the most a meld's size rules may ask).
MAX_DEAL_SIZE = 52
#: Most rounds in a game.
MAX_ROUNDS = 20
#: The most melds in a contract: a meld has at least 2 cards, a hand at most 52.
MAX_CONTRACT_MELDS = MAX_DEAL_SIZE // 2

# The shoes a reader deals and counts from, narrower than a rule set's bounds: every
# preset gives its jokers for 1 to 4 decks (a table of 8 players uses 3), and an exact
# count grows fast with the decks (15 cards of 1 set + 2 runs planned at 1 min 35 s from 4
# decks, 8 min from 8; rummykit.odds.data.plan). Up to 4 jokers a deck; presets give 2.
#: Decks, inclusive, of the shoes ``rummykit odds``/``simulate`` and the widgets take.
SHOE_DECKS = (1, 4)
#: Jokers in all, inclusive, of the shoes ``rummykit odds``/``simulate`` and the widgets take.
SHOE_JOKERS = (0, 16)


@dataclass(frozen=True, order=True)
class Contract:
    """The melds a player must lay down in one round: ``sets`` sets and ``runs`` runs.

    >>> Contract(sets=1, runs=2)
    Contract(sets=1, runs=2)
    >>> str(Contract(sets=1, runs=2)), Contract(sets=1, runs=2).melds
    ('1 set + 2 runs', 3)
    """

    sets: int = 0
    """Number of sets (3+ cards of one rank)."""
    runs: int = 0
    """Number of runs (4+ cards of one suit in sequence)."""

    def __post_init__(self) -> None:
        for name in ("sets", "runs"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RuleSetError(
                    f"a contract's {name} must be a non-negative integer, got {value!r}"
                )
        if self.sets + self.runs > MAX_CONTRACT_MELDS:
            raise RuleSetError(
                f"a contract has at most {MAX_CONTRACT_MELDS} melds (no hand of "
                f"{MAX_DEAL_SIZE} cards holds more), got {self.sets} sets + {self.runs} runs"
            )
        if self.sets + self.runs == 0:
            raise RuleSetError("a contract needs at least one set or run")

    @property
    def melds(self) -> int:
        """The number of melds in the contract."""
        return self.sets + self.runs

    def min_cards(self, rules: RuleSet) -> int:
        """The fewest cards that can make the contract under ``rules``."""
        return self.sets * rules.min_set_size + self.runs * rules.min_run_size

    def __str__(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{self.sets} set{'s' if self.sets != 1 else ''}")
        if self.runs:
            parts.append(f"{self.runs} run{'s' if self.runs != 1 else ''}")
        return " + ".join(parts)


#: The seven contracts every source agrees on, round 1 to round 7.
CONTRACTS = (
    Contract(sets=2, runs=0),
    Contract(sets=1, runs=1),
    Contract(sets=0, runs=2),
    Contract(sets=3, runs=0),
    Contract(sets=2, runs=1),
    Contract(sets=1, runs=2),
    Contract(sets=0, runs=3),
)

SameSuitRuns = Literal["unrestricted", "separated"]
JokerSwap = Literal["runs", "any", "none"]
BuyTiming = Literal["after_decline", "before_draw"]
BuyPriority = Literal["nearest", "longest_waiting", "first_call"]
DiscardCall = Literal["none", "liverpool", "rummy"]
PointScheme = Literal["liverpool", "face"]

_POINTS = {
    # 2-9: 5, 10-K: 10, A: 15, joker: 20 (sources 001, 002, 004).
    "liverpool": {
        **{r: 5 for r in Rank if r <= Rank.NINE},
        **{r: 10 for r in Rank if Rank.TEN <= r <= Rank.KING},
        Rank.ACE: 15,
        None: 20,
    },
    # Face value: A=1, 2-10 pips, J/Q/K=10 (source 000, basic rummy); the joker keeps 20.
    "face": {
        **{r: int(r) for r in Rank if r <= Rank.TEN},
        Rank.JACK: 10,
        Rank.QUEEN: 10,
        Rank.KING: 10,
        Rank.ACE: 1,
        None: 20,
    },
}


def _per_players(low: int, high: int, decks: dict[range, int]) -> tuple[tuple[int, int], ...]:
    return tuple((n, d) for n in range(low, high + 1) for span, d in decks.items() if n in span)


# Every RuleSet field says which part of the rules it belongs to, in its metadata:
# "meld" when it changes what is a meld, a lay-off or a contract's distance (the solver,
# the exact and simulated odds and the property tests all derive from these, through
# MeldRules), "play" for everything else (the table, rounds, how many melds a lay-down
# may hold, joker swaps, buying, going out, scoring, the name). tests/test_meld_rules.py
# fails on a field with no part, and on a meld field that MeldRules, the sweep key, the
# solver's cache or the test strategies leave out.
#: The parts a RuleSet field may belong to (``field.metadata["part"]``).
RULE_PARTS = ("meld", "play")


def _meld(default):
    return field(default=default, metadata={"part": "meld"})


def _play(default):
    return field(default=default, metadata={"part": "play"})


#: The most cards in a run: the thirteen ranks, the ace low or high but never both.
MAX_RUN_LENGTH = 13


def _run_positions(ace_low: bool, ace_high: bool) -> range:
    return range(1 if ace_low else 2, 15 if ace_high else 14)


@dataclass(frozen=True)
class RuleSet:
    """Every rule option of the five sources, with ``standard``'s values as defaults.

    Use :meth:`preset` for the named presets and :func:`dataclasses.replace` for
    variations. Fields are grouped by the part of the game they rule.

    Each field belongs to a part of the rules, its ``metadata["part"]``: ``"meld"``
    fields decide what is a meld, a lay-off and a contract's distance, and make up
    :attr:`meld_rules`; ``"play"`` fields are the rest.

    >>> [f.name for f in fields(RuleSet) if f.metadata["part"] == "meld"][:4]
    ['min_set_size', 'min_run_size', 'max_jokers_per_meld', 'min_naturals_in_set']
    """

    name: str = _play("standard")
    """A label for tables and charts."""

    # --- table and shoe --------------------------------------------------------------
    min_players: int = _play(2)
    """Fewest players."""
    max_players: int = _play(8)
    """Most players."""
    decks_by_players: tuple[tuple[int, int], ...] = _play(
        _per_players(2, 8, {range(2, 5): 2, range(5, 9): 3})
    )
    """``(players, decks)`` pairs: how many 52-card decks for each player count."""
    jokers_by_decks: tuple[tuple[int, int], ...] = _play(((1, 2), (2, 4), (3, 6), (4, 8)))
    """``(decks, jokers)`` pairs: how many jokers (in all) for each deck count."""

    # --- rounds ----------------------------------------------------------------------
    contracts: tuple[Contract, ...] = _play(CONTRACTS)
    """The contract of each round, in order."""
    deal_sizes: tuple[int, ...] = _play((10, 10, 10, 10, 12, 12, 12))
    """Cards dealt to each player in each round."""

    # --- melds -----------------------------------------------------------------------
    min_set_size: int = _meld(3)
    """Fewest cards in a set."""
    min_run_size: int = _meld(4)
    """Fewest cards in a run."""
    max_jokers_per_meld: int | None = _meld(2)
    """Most jokers in one meld, or None for no limit."""
    min_naturals_in_set: int = _meld(2)
    """Fewest natural (non-joker) cards in a set."""
    min_naturals_in_run: int = _meld(2)
    """Fewest natural (non-joker) cards in a run."""
    ace_low: bool = _meld(True)
    """The ace may be played below the 2 (A-2-3-4)."""
    ace_high: bool = _meld(True)
    """The ace may be played above the king (J-Q-K-A). Never both in one run, never wrapping."""
    same_suit_runs: SameSuitRuns = _meld("unrestricted")
    """Two runs of one suit in a contract: ``"unrestricted"`` (only not sharing a card) or
    ``"separated"`` (at least one rank between them)."""

    # --- laying down and off ---------------------------------------------------------
    extra_melds: bool = _play(False)
    """When laying down, melds beyond the contract's number may be laid too."""

    # --- jokers ----------------------------------------------------------------------
    joker_swap: JokerSwap = _play("runs")
    """Which table melds a joker may be taken from by playing the card it stands for:
    ``"runs"``, ``"any"`` (runs or sets) or ``"none"``."""
    joker_swap_needs_laid_down: bool = _play(True)
    """Only a player who has laid down may swap a joker."""
    swapped_joker_must_be_played: bool = _play(True)
    """A joker taken by a swap must be played (laid off) in the same turn."""
    joker_trade_once: bool = _play(False)
    """A joker that has been traded once is laid face down and cannot be traded again."""

    # --- buying ----------------------------------------------------------------------
    buying: bool = _play(True)
    """Players other than the one about to draw may buy the top discard (when: ``buy_timing``)."""
    buy_timing: BuyTiming = _play("after_decline")
    """When the buy window opens: ``"after_decline"``, once the player about to draw has
    declined the discard by drawing from the stock; or ``"before_draw"``, before that
    player chooses (source 004): after a buy that player draws from the stock or takes the
    new top discard, and with no buy may take the discard as usual."""
    buy_priority: BuyPriority = _play("nearest")
    """Who gets a discard several want: ``"nearest"`` clockwise to the player about to draw,
    ``"longest_waiting"`` (not had a turn the longest), or ``"first_call"``."""
    buy_penalty_cards: int = _play(1)
    """Cards a buyer draws from the stock as the price of a buy."""
    buy_limit: int | None = _play(None)
    """Most buys per player per round, or None."""
    last_round_buy_limit: int | None = _play(None)
    """Most buys per player in the last round, or None for ``buy_limit``."""

    # --- going out -------------------------------------------------------------------
    last_round_no_discard: bool = _play(False)
    """In the last round a player goes out by melding every card, with no final discard."""
    floating: bool = _play(False)
    """A player left with no card to discard "floats" (keeps playing) instead of being stuck."""

    # --- calls, penalties, scoring ---------------------------------------------------
    discard_call: DiscardCall = _play("none")
    """A discard that could have been laid off: ``"liverpool"`` (another laid-down player may
    claim it), ``"rummy"`` (the discarder takes it back plus a penalty card) or ``"none"``."""
    invalid_lay_down_penalty: int = _play(0)
    """Points added for laying down melds that turn out invalid (0 for none)."""
    perfect_cut_bonus: int = _play(0)
    """Points taken off the cutter who cuts exactly the cards needed for the deal (0 for none)."""
    repeat_missed_contract: bool = _play(False)
    """A player who did not lay down repeats the same contract next round."""
    points: PointScheme = _play("liverpool")
    """Card values: ``"liverpool"`` (2-9: 5, 10-K: 10, A: 15, joker: 20) or ``"face"``
    (A: 1, 2-10 pips, J/Q/K: 10, joker: 20)."""
    negative_scores: bool = _play(False)
    """Scores are written as negative numbers (the least negative total wins)."""
    reshuffle_discards: bool = _play(True)
    """An empty stock is rebuilt from the discard pile less its top card."""

    def __post_init__(self) -> None:
        self._check()

    # --------------------------------------------------------------------------------
    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """The names of the presets, ``standard`` first."""
        return tuple(_PRESETS)

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The named preset; see :meth:`presets` and each preset function's docstring."""
        if not isinstance(name, str):
            raise RuleSetError(f"a preset is named by a string, got {name!r}")
        try:
            return _PRESETS[name]()
        except KeyError:
            raise RuleSetError(
                f"unknown preset {name!r}: choose one of {', '.join(_PRESETS)}"
            ) from None

    # --------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """These rules as JSON data (a dict of plain values), as a save file holds them.

        Options added after save version 1 (``buy_timing``) are written only when they
        differ from their default, so a game that does not use them saves exactly as
        before and an older rummykit still reads it. :meth:`from_json` reads it back.

        >>> rules = RuleSet.preset("standard")
        >>> data = rules.to_json()
        >>> data["contracts"][:2], data["deal_sizes"][:2]
        ([[2, 0], [1, 1]], [10, 10])
        >>> RuleSet.from_json(data) == rules
        True
        """
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _LATER_OPTIONS and value == f.default:
                continue
            if f.name == "contracts":
                value = [[c.sets, c.runs] for c in value]
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: object) -> RuleSet:
        """The rule set that :meth:`to_json` wrote as ``data``, checked field by field.

        An option left out takes its default. Raises
        :class:`~rummykit.errors.RuleSetError` naming the option for anything else:
        not an object, an unknown option, a value of the wrong shape, or rules that
        cannot be played.

        >>> RuleSet.from_json({"name": "short", "contracts": [[2, 0]], "deal_sizes": [10]}).rounds
        1
        >>> RuleSet.from_json({"cheat": True})
        Traceback (most recent call last):
        ...
        rummykit.errors.RuleSetError: unknown rule options: ['cheat']
        """
        if not isinstance(data, dict):
            raise RuleSetError("the rules must be an object of rule options")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RuleSetError(f"unknown rule options: {sorted(unknown)}")
        values = {}
        for name, value in data.items():
            if name == "contracts":
                if not isinstance(value, list) or not all(
                    isinstance(c, list) and len(c) == 2 and all(type(x) is int for x in c)
                    for c in value
                ):
                    raise RuleSetError(
                        "'contracts' must be a list of [sets, runs] pairs of integers"
                    )
                try:
                    value = tuple(Contract(*c) for c in value)
                except RuleSetError as error:
                    raise RuleSetError(f"bad contract: {error}") from None
            elif name in ("decks_by_players", "jokers_by_decks"):
                if not isinstance(value, list) or not all(
                    isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                    for p in value
                ):
                    raise RuleSetError(f"{name!r} must be a list of integer pairs")
                value = tuple(tuple(p) for p in value)
            elif name == "deal_sizes":
                if not isinstance(value, list) or not all(type(x) is int for x in value):
                    raise RuleSetError("'deal_sizes' must be a list of integers")
                value = tuple(value)
            elif isinstance(value, list | dict):
                raise RuleSetError(f"rule option {name!r} has a bad value: {value!r}")
            values[name] = value
        try:
            return cls(**values)
        except (RuleSetError, TypeError) as error:
            raise RuleSetError(f"these rules cannot be played: {error}") from None

    # --------------------------------------------------------------------------------
    def decks_for(self, players: int) -> int:
        """Decks used by ``players`` players (raises RuleSetError outside the player range)."""
        self.check_players(players)
        return dict(self.decks_by_players)[players]

    def jokers_for(self, decks: int) -> int:
        """Jokers (in all) used with ``decks`` decks."""
        table = dict(self.jokers_by_decks)
        if decks not in table:
            raise RuleSetError(
                f"{self.name}: no joker count for {decks} decks (jokers_by_decks covers "
                f"{', '.join(str(d) for d in sorted(table))} decks)"
            )
        return table[decks]

    def check_players(self, players: int) -> None:
        """Raise RuleSetError unless ``players`` may play under these rules."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise RuleSetError(f"players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise RuleSetError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )

    @property
    def rounds(self) -> int:
        """Number of rounds in a game."""
        return len(self.contracts)

    def point_value(self, card: Card) -> int:
        """What ``card`` costs when left in hand at the end of a round.

        >>> rules = RuleSet.preset("standard")
        >>> [rules.point_value(Card.parse(c)) for c in ("7H", "10S", "AD", "JK")]
        [5, 10, 15, 20]
        """
        return _POINTS[self.points][card.rank]

    def run_positions(self) -> range:
        """Positions a run may use: 1 (ace low) .. 14 (ace high), as the ace options allow."""
        return _run_positions(self.ace_low, self.ace_high)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """The meld part of these rules: the fields that decide what is a meld, a lay-off
        and a contract's distance (see :class:`MeldRules`).

        >>> RuleSet.preset("bga").meld_rules == RuleSet.preset("standard").meld_rules
        True
        >>> RuleSet.preset("pagat").meld_rules.same_suit_runs
        'separated'
        """
        return MeldRules(**{f.name: getattr(self, f.name) for f in fields(MeldRules)})

    # --------------------------------------------------------------------------------
    def _check(self) -> None:
        def fail(message: str) -> None:
            raise RuleSetError(message)

        def whole(name: str, low: int, high: int | None = None, *, optional: bool = False) -> None:
            value = getattr(self, name)
            if optional and value is None:
                return
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or value < low
                or (high is not None and value > high)
            ):
                span = f">= {low}" if high is None else f">= {low} and <= {high}"
                fail(
                    f"{name} must be {'None or ' if optional else ''}an integer {span}, got {value!r}"
                )

        if not isinstance(self.name, str):
            fail(f"name must be a string, got {self.name!r}")
        if (
            not isinstance(self.min_players, int)
            or isinstance(self.min_players, bool)
            or self.min_players < 2
        ):
            fail(
                f"min_players must be at least 2 (Liverpool Rummy needs an opponent), "
                f"got {self.min_players!r}"
            )
        whole("max_players", self.min_players, MAX_PLAYERS)
        for name in ("min_set_size", "min_run_size", "min_naturals_in_set", "min_naturals_in_run"):
            whole(name, 1, MAX_DEAL_SIZE)
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                fail(f"{f.name} must be True or False, got {getattr(self, f.name)!r}")
        if self.min_set_size < 2:
            fail(f"min_set_size must be at least 2, got {self.min_set_size}")
        if self.min_run_size < 2:
            fail(f"min_run_size must be at least 2, got {self.min_run_size}")
        whole("max_jokers_per_meld", 0, optional=True)
        whole("buy_penalty_cards", 0, MAX_DEAL_SIZE)
        whole("buy_limit", 0, optional=True)
        whole("last_round_buy_limit", 0, optional=True)
        for name in ("invalid_lay_down_penalty", "perfect_cut_bonus"):
            whole(name, 0)
        for name, allowed in (
            ("same_suit_runs", SameSuitRuns.__args__),
            ("joker_swap", JokerSwap.__args__),
            ("buy_timing", BuyTiming.__args__),
            ("buy_priority", BuyPriority.__args__),
            ("discard_call", DiscardCall.__args__),
            ("points", PointScheme.__args__),
        ):
            if getattr(self, name) not in allowed:
                fail(
                    f"{name} must be one of {', '.join(map(repr, allowed))}, got {getattr(self, name)!r}"
                )

        longest_run = min(MAX_RUN_LENGTH, len(self.run_positions()))  # never both aces in one run
        if longest_run < self.min_run_size or self.min_naturals_in_run > longest_run:
            fail(
                f"no run is possible: runs need {max(self.min_run_size, self.min_naturals_in_run)} "
                f"cards but only {longest_run} ranks are in sequence with these ace options"
            )
        if not isinstance(self.contracts, tuple) or not self.contracts:
            fail("a game needs at least one round: contracts must be a non-empty tuple")
        if len(self.contracts) > MAX_ROUNDS:
            fail(f"a game has at most {MAX_ROUNDS} rounds, contracts gives {len(self.contracts)}")
        if any(not isinstance(c, Contract) for c in self.contracts):
            fail("contracts must be a tuple of Contract")
        if not isinstance(self.deal_sizes, tuple):
            fail(f"deal_sizes must be a tuple of integers, got {self.deal_sizes!r}")
        if len(self.deal_sizes) != len(self.contracts):
            fail(
                f"deal_sizes gives {len(self.deal_sizes)} rounds but contracts gives "
                f"{len(self.contracts)}: one deal size per round"
            )
        if any(
            not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_DEAL_SIZE
            for n in self.deal_sizes
        ):
            fail(
                f"every deal size must be an integer from 1 to {MAX_DEAL_SIZE}, got {self.deal_sizes}"
            )
        for name, key, value, high in (
            ("decks_by_players", "players", "decks", MAX_DECKS),
            ("jokers_by_decks", "decks", "jokers", MAX_JOKERS),
        ):
            table = getattr(self, name)
            low = 0 if value == "jokers" else 1
            top = MAX_PLAYERS if key == "players" else MAX_DECKS
            if not isinstance(table, tuple) or not all(
                isinstance(pair, tuple)
                and len(pair) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
                and 1 <= pair[0] <= top
                and low <= pair[1] <= high
                for pair in table
            ):
                fail(
                    f"{name} must be a tuple of ({key}, {value}) pairs of integers, {key} from "
                    f"1 to {top} and {value} from {low} to {high}, got {table!r}"
                )

        players_table = dict(self.decks_by_players)
        missing = [
            n for n in range(self.min_players, self.max_players + 1) if n not in players_table
        ]
        if missing:
            fail(f"decks_by_players gives no deck count for {missing} players")
        for players in range(self.min_players, self.max_players + 1):
            decks = players_table[players]
            if not isinstance(decks, int) or decks < 1:
                fail(f"decks_by_players: {players} players need at least one deck, got {decks!r}")
            jokers = self.jokers_for(decks)
            if not isinstance(jokers, int) or jokers < 0:
                fail(
                    f"jokers_by_decks: {decks} decks need a non-negative joker count, got {jokers!r}"
                )
            shoe = 52 * decks + jokers
            biggest = max(self.deal_sizes)
            if players * biggest + 1 > shoe:
                fail(
                    f"{players} players cannot be dealt {biggest} cards each plus a discard "
                    f"from {decks} decks and {jokers} jokers ({shoe} cards)"
                )


# ------------------------------------------------------------------------------------
# The meld rules: one value, and what the solver, the simulator and the exact sweep
# derive from it.


@dataclass(frozen=True)
class MeldRules:
    """The part of a :class:`RuleSet` that decides what is a meld, a lay-off and how far
    a hand is from a contract: exactly its fields marked ``"meld"``, documented there.

    Two rule sets with equal meld rules agree on every meld, lay-off and contract search,
    so the contract solver and the exact sweeps are cached by this value. Get it as
    :attr:`RuleSet.meld_rules`; built directly, it is checked as a RuleSet would be.

    >>> rules = RuleSet.preset("wikipedia").meld_rules
    >>> rules.max_jokers_per_meld is None, rules.min_naturals_in_run
    (True, 3)
    >>> MeldRules(1, 4, 2, 2, 2, ace_low=True, ace_high=True, same_suit_runs="unrestricted")
    Traceback (most recent call last):
    ...
    rummykit.errors.RuleSetError: min_set_size must be at least 2, got 1
    """

    min_set_size: int
    min_run_size: int
    max_jokers_per_meld: int | None
    min_naturals_in_set: int
    min_naturals_in_run: int
    ace_low: bool
    ace_high: bool
    same_suit_runs: SameSuitRuns

    def __post_init__(self) -> None:
        # The checks are RuleSet's (the other fields' defaults never fail them).
        RuleSet(**{f.name: getattr(self, f.name) for f in fields(self)})

    def run_positions(self) -> range:
        """Positions a run may use, as :meth:`RuleSet.run_positions`."""
        return _run_positions(self.ace_low, self.ace_high)


@dataclass(frozen=True)
class MeldLimits:
    """The numbers every contract search reads off the meld rules (:func:`meld_limits`).

    >>> limits = meld_limits(RuleSet.preset("standard"))
    >>> limits.set_cards, limits.set_naturals, limits.run_size, limits.run_naturals
    (3, 2, 4, 2)
    >>> limits.run_ok(length=5, naturals=3), limits.run_ok(length=5, naturals=2)
    (True, False)
    >>> limits.set_jokers, limits.run_jokers(4), limits.run_jokers(5)
    (1, 2, 2)
    """

    max_jokers: int | None
    """Most jokers in one meld (None: no limit)."""
    set_cards: int
    """Fewest cards in a set: ``max(min_set_size, min_naturals_in_set)``."""
    set_naturals: int
    """Fewest naturals in a set of ``set_cards`` cards (the rest jokers)."""
    run_size: int
    """Fewest positions a run spans: ``min_run_size``."""
    run_naturals: int
    """Fewest naturals in a run: ``min_naturals_in_run``."""
    separated: bool
    """Two runs of one suit in a contract need a rank between them."""
    positions: range
    """The run positions the ace options allow (:meth:`RuleSet.run_positions`)."""

    @property
    def run_cards(self) -> int:
        """Fewest cards in a run: ``max(min_run_size, min_naturals_in_run)``."""
        return max(self.run_size, self.run_naturals)

    @property
    def set_jokers(self) -> int:
        """Jokers in a smallest set with fewest naturals: ``set_cards - set_naturals``
        (the most a set can take once added cards count as naturals)."""
        return self.set_cards - self.set_naturals

    def jokers_ok(self, jokers: int) -> bool:
        """Whether one meld may hold ``jokers`` jokers."""
        return self.max_jokers is None or jokers <= self.max_jokers

    def run_jokers(self, length: int) -> int:
        """The most jokers a run of ``length`` cards may hold: the joker limit, and
        enough naturals (negative when ``length`` is too short for the naturals)."""
        most = length - self.run_naturals
        return most if self.max_jokers is None else min(self.max_jokers, most)

    def run_ok(self, length: int, naturals: int) -> bool:
        """Whether ``length`` positions in sequence holding ``naturals`` naturals (jokers
        in the rest) make a legal run."""
        return self.run_size <= length <= MAX_RUN_LENGTH and length - naturals <= self.run_jokers(
            length
        )


def _meld_part(rules: RuleSet | MeldRules) -> MeldRules:
    if isinstance(rules, RuleSet):
        return rules.meld_rules
    if not isinstance(rules, MeldRules):
        # rummykit.engine.checks imports this module: its check is imported where it is due.
        from rummykit.engine.checks import instance

        instance("rules", rules, (RuleSet, MeldRules), "a RuleSet or its MeldRules")
    return rules


def meld_limits(rules: RuleSet | MeldRules) -> MeldLimits:
    """The :class:`MeldLimits` of ``rules`` (a RuleSet or its :attr:`~RuleSet.meld_rules`)."""
    return _limits(_meld_part(rules))


@cache
def _limits(rules: MeldRules) -> MeldLimits:
    set_cards = max(rules.min_set_size, rules.min_naturals_in_set)
    jokers = rules.max_jokers_per_meld
    return MeldLimits(
        max_jokers=jokers,
        set_cards=set_cards,
        set_naturals=rules.min_naturals_in_set
        if jokers is None
        else max(rules.min_naturals_in_set, set_cards - jokers),
        run_size=rules.min_run_size,
        run_naturals=rules.min_naturals_in_run,
        separated=rules.same_suit_runs == "separated",
        positions=rules.run_positions(),
    )


def run_windows(rules: RuleSet | MeldRules) -> tuple[tuple[int, int], ...]:
    """The windows a contract search tries a run on: ``(first position, length)``, by
    first position then length, within :meth:`~RuleSet.run_positions`.

    When ``max_jokers_per_meld <= min_run_size - min_naturals_in_run``, any
    ``min_run_size`` positions of a legal run hold enough naturals to be a legal run
    themselves, so windows of that length are enough (using fewer cards never hurts the
    other melds). Otherwise every length up to the longest run is tried.

    >>> rules = RuleSet.preset("standard")
    >>> windows = run_windows(rules)
    >>> windows[:2], windows[-1], len(windows)
    (((1, 4), (2, 4)), (11, 4), 11)
    >>> wikipedia = run_windows(RuleSet.preset("wikipedia"))   # no joker limit
    >>> wikipedia[:3], len(wikipedia)
    (((1, 4), (1, 5), (1, 6)), 65)
    """
    return _windows(_meld_part(rules))


@cache
def _windows(rules: MeldRules) -> tuple[tuple[int, int], ...]:
    limits = _limits(rules)
    positions = limits.positions
    size, jokers = limits.run_size, limits.max_jokers
    if jokers is not None and size - jokers >= limits.run_naturals:
        lengths: range | list[int] = [size]
    else:
        lengths = range(size, min(MAX_RUN_LENGTH, len(positions)) + 1)
    return tuple(
        (start, length)
        for start in positions
        for length in lengths
        if start + length - 1 <= positions[-1]
    )


# ------------------------------------------------------------------------------------
# Presets. Each docstring cites its source by number and title (the book's Sources page
# describes the five). The texts themselves are kept beside the repository, in
# shared/sources/, one file each: SOURCE_FILES names them (tests/test_rules.py checks the
# names against the folder where it is there).
SOURCE_FILES = {
    "000": "000_2116042d79bd2de4.txt",
    "001": "001_13e728736d8ff229.txt",
    "002": "002_3e5eca8a2fe050aa.txt",
    "003": "003_9a84599784f78a16.txt",
    "004": "004_0bd92c14ed5a90e0.txt",
}


def _standard() -> RuleSet:
    """``standard``: the consensus of the five sources, pinned down where they differ.

    2-8 players; 2 decks for 2-4 players, 3 for 5-8; 2 jokers per deck; deal 10 cards in
    rounds 1-4 and 12 in rounds 5-7; at most 2 jokers per meld, 2 naturals in every set
    and run; exact contract on laying down; buying by nearest clockwise, one penalty
    card, no limit; joker swap from runs only, after laying down, joker played the same
    turn; going out by a final discard; Liverpool points; lowest total wins.
    """
    return RuleSet()


def _pagat() -> RuleSet:
    """``pagat``: source 000 ("How Many Cards Do You Play Rummy With") as written.

    3-8 players; 2 decks for 3-4 players, 3 for 5-8, 2 jokers per deck; 10 cards in
    rounds 1-4, 12 in rounds 5-7; two runs of one suit must be separated by at least one
    card; extra melds allowed when going down (its example hands); joker swap from runs
    only, after laying down, played the same turn; +50 for an invalid lay-down; -50 for a
    perfect cut; face-value points (its basic-rummy section). Silent options: standard.
    """
    return RuleSet(
        name="pagat",
        min_players=3,
        decks_by_players=_per_players(3, 8, {range(3, 5): 2, range(5, 9): 3}),
        same_suit_runs="separated",
        extra_melds=True,
        invalid_lay_down_penalty=50,
        perfect_cut_bonus=50,
        points="face",
    )


def _wikipedia() -> RuleSet:
    """``wikipedia``: sources 001 ("Liverpool Rummy") and 002 ("Below is a game she taught
    us ..."), 001 first where they differ.

    From 001: 3-8 players, 2 decks for 3-4 players and 3 for more, 2 jokers per deck;
    11 cards in rounds 1-6 and 7 in round 7 (as written); a joker is never played alone;
    jokers may be traded from runs or sets, once only; only two buys in round 7 (read as
    two per player); round 7 is gone out by melding all cards, with no final discard.
    From 002: sets need 2 naturals and runs 3; a player with no card to discard floats;
    the "liverpool" call on a discard that could have been laid off; +50 for an invalid
    lay-down; -50 for a perfect cut. Silent options: standard.
    """
    return RuleSet(
        name="wikipedia",
        min_players=3,
        decks_by_players=_per_players(3, 8, {range(3, 5): 2, range(5, 9): 3}),
        deal_sizes=(11, 11, 11, 11, 11, 11, 7),
        max_jokers_per_meld=None,
        min_naturals_in_set=2,
        min_naturals_in_run=3,
        joker_swap="any",
        joker_trade_once=True,
        last_round_buy_limit=2,
        last_round_no_discard=True,
        floating=True,
        discard_call="liverpool",
        invalid_lay_down_penalty=50,
        perfect_cut_bonus=50,
    )


def _bga() -> RuleSet:
    """``bga``: source 003 ("Buyer priority is dictated by seat order ...", Board Game Arena's
    rules) as written.

    Exactly the contract when going down ("2 sets means only 2 sets"); buying priority to
    the player who has not had a turn the longest; every turn ends with a discard, even
    when going out; points counted negatively (least negative total wins); 2 decks for 3-4
    players, 3 for 5-8. Silent options: standard.
    """
    return RuleSet(name="bga", buy_priority="longest_waiting", negative_scores=True)


def _family() -> RuleSet:
    """``family``: source 004 ("Liverpool Rummy: What Is Liverpool Rummy?") as written.

    2-6 players; always 2 decks and 2 jokers in all; 7 cards in rounds 1-6 and 10 in
    round 7 (as written); at most 2 jokers per meld; buying happens before every draw
    ("Say 'Buy!' before the active player picks up their card"), the first to call "Buy!"
    gets the discard, at most 3 buys per player per round; players who did not lay down
    repeat the same contract next round. Silent options: standard.

    Where 004 is silent, after someone has bought the player about to draw chooses as on
    any turn ("Draw one card — from the stock or the top discard"): the stock or the new
    top discard, an older card the players since have passed by. There is no second buy
    window in that turn: 004 has one buy "before every draw".
    """
    return RuleSet(
        name="family",
        max_players=6,
        decks_by_players=_per_players(2, 6, {range(2, 7): 2}),
        jokers_by_decks=((1, 1), (2, 2), (3, 3), (4, 4)),
        deal_sizes=(7, 7, 7, 7, 7, 7, 10),
        buy_timing="before_draw",
        buy_priority="first_call",
        buy_limit=3,
        repeat_missed_contract=True,
    )


_PRESETS = {
    "standard": _standard,
    "pagat": _pagat,
    "wikipedia": _wikipedia,
    "bga": _bga,
    "family": _family,
}

# Each preset's docstring is also RuleSet.preset's documentation of it.
RuleSet.preset.__func__.__doc__ += "\n\n" + "\n\n".join(  # type: ignore[attr-defined]
    f.__doc__ for f in _PRESETS.values()
)
