"""Rollouts, compiled: any round played on to its end by the C core, as the engine plays it.

:func:`fast_rollout` is :func:`rollout` (the engine's, the reference) for tables of
:class:`~rummykit.agents.bots.GreedyBot` and :class:`~rummykit.agents.bots.BuyerBot` (each buying
policy), played by the compiled round simulator (``rummykit/_native/_table.c``) from the
state as it stands: the hands, the stock in its order, the discard pile, the melds with
their jokers, who has laid down, the buys, the turn counts, the phase (a draw, a buy
window half asked, a play phase half played, a call) and the seat to act. For the same
state, bots and generator it returns the same points, and its event log
(:func:`rollout_events`) is the engine's, event for event: the tests check it on
thousands of states of every preset. It reads the state and leaves it as it was.

>>> import random
>>> from rummykit.agents.bots import GreedyBot
>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=4, seed=5).new_state()
>>> bots = [GreedyBot() for _ in range(4)]
>>> points = fast_rollout(state, bots, random.Random(9))
>>> points == rollout(state.clone(), bots, random.Random(9))
True

(The core is optional: where it is not built, :func:`rollout_available` says why and
:func:`best_rollout` gives the engine's.) Many rollouts of one state in one call:
:func:`rollout_points` with a list of seeds.

The rule options the core plays are :data:`SUPPORTED` (every preset and every option
but meld rules with fewer than two naturals); :func:`check_fast` refuses the rest with
an :class:`~rummykit.errors.UnsupportedRuleError` naming the field, and
:func:`check_rollout` also refuses what a state or its bots add: another bot than
GreedyBot or BuyerBot (by seat), seats with different contracts
(``repeat_missed_contract``), a game that is over. The engine stays the reference: the
core never approximates.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import fields

from rummykit import _native
from rummykit.agents.bots import BUY_POLICIES, Bot, BuyerBot, GreedyBot
from rummykit.engine.cards import Shoe
from rummykit.engine.events import (
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
from rummykit.engine.game import GameState
from rummykit.engine.rules import Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError, RummyError, UnsupportedRuleError

__all__ = [
    "SUPPORTED",
    "best_outcome",
    "best_rollout",
    "check_fast",
    "check_rollout",
    "fast_rollout",
    "log_events",
    "rollout",
    "rollout_available",
    "rollout_events",
    "rollout_points",
]
# encode_state, table_config and decode_events are the core's plumbing, shared with
# rummykit.odds.play.fastplay and the tests: not the public surface.

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
CONFIG_FIELDS = (
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
    "turn_limit",  # -1: none (a resumed round only)
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
#: Most seeds :func:`rollout_points` plays in one call.
MAX_SEEDS = 1_000_000
# The core's largest table (its fixed arrays).
_MOST_PLAYERS, _MOST_SETS, _MOST_RUNS = 16, 8, 8
#: The phases the core takes a round up from, in the order of its AT_ constants.
_PHASES = ("draw", "buy", "play", "call", "call discard")
_ERRORS = {
    1: "met a position it does not implement",
    2: "ran out of memory",
    3: "played 20,000 turns and the round did not end (bound it with max_reshuffles or turn_limit)",
}


def _unsupported(rules: RuleSet, field: str, value, why: str = "") -> UnsupportedRuleError:
    return UnsupportedRuleError(
        f"the fast simulator does not implement {field}={value!r}{why}, {rules.name}: "
        f"the engine plays it (completion.play_round)"
    )


def check_fast(rules: RuleSet) -> None:
    """Raise :class:`~rummykit.errors.UnsupportedRuleError` unless the compiled core
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


def table_config(
    rules: RuleSet,
    *,
    players: int,
    decks: int,
    jokers: int,
    deal: int,
    round: int,
    contract: Contract,
    buy_limit: int | None,
    turn_limit: int | None,
) -> tuple[int, ...]:
    """The core's integers (:data:`CONFIG_FIELDS`) for round ``round`` of ``rules``
    played with ``contract`` by every seat, after :func:`check_fast`."""
    check_fast(rules)
    last = round == rules.rounds
    values = {
        "players": players,
        "decks": decks,
        "jokers": jokers,
        "deal": deal,
        "sets": contract.sets,
        "runs": contract.runs,
        "buying": int(rules.buying),
        "before_draw": int(rules.buy_timing == "before_draw"),
        "buy_priority": _PRIORITIES.index(rules.buy_priority),
        "buy_penalty_cards": rules.buy_penalty_cards,
        "buy_limit": -1 if buy_limit is None else buy_limit,
        "face_points": int(rules.points == "face"),
        "negative_scores": int(rules.negative_scores),
        "perfect_cut_bonus": rules.perfect_cut_bonus,
        "turn_limit": -1 if turn_limit is None else turn_limit,
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
    return tuple(values[name] for name in CONFIG_FIELDS)


def _check_table(state: object, bots: object) -> None:
    """A GameState and a sequence of one bot per seat, or a clear error."""
    if not isinstance(state, GameState):
        raise ArgumentTypeError(f"state must be a GameState, got {state!r}")
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ArgumentTypeError(f"bots must be a sequence of bots, one per seat, got {bots!r}")
    if len(bots) != state.players:
        raise ArgumentError(f"bots: give one bot per seat ({state.players}), got {len(bots)}")


# -- the engine's rollout, the reference -------------------------------------------

#: Most actions a rollout plays before it gives up (a round that cannot end).
MAX_ROLLOUT_ACTIONS = 20_000


def rollout(state: GameState, bots: Sequence[Bot], rng: random.Random) -> tuple[int, ...]:
    """Play ``state`` on (in place: pass a clone) to the end of its round with ``bots``
    (one per seat) and return the round's points per seat, signed as the rule set
    writes them.

    The rollout's chance comes from ``rng`` alone, in this order: the state's own
    generator (reshuffles, the buy lottery) is reseeded with ``rng.getrandbits(63)``,
    then each bot's ``rng`` in seat order. So the same state, bots and seed give the
    same points, and a compiled rollout can be checked against this one.

    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=3, seed=7).new_state()
    >>> bots = [GreedyBot() for _ in range(3)]
    >>> first = rollout(state.clone(), bots, random.Random(1))
    >>> first == rollout(state.clone(), bots, random.Random(1)), len(first)
    (True, 3)
    """
    # Once per rollout (a rollout plays hundreds of actions): a sequence of bots, one per
    # seat, each with choose(view).
    _check_table(state, bots)
    for seat, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentTypeError(
                f"bots: seat {seat}'s bot has no choose(view) method, got {bot!r}"
            )
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError(f"rng must be a random.Random, got {rng!r}")
    state.rng = random.Random(rng.getrandbits(63))
    for bot in bots:
        if isinstance(getattr(bot, "rng", None), random.Random):
            bot.rng = random.Random(rng.getrandbits(63))
    rounds = len(state.round_scores)
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if len(state.round_scores) > rounds:
            return state.round_scores[rounds]
        seat = state.to_act
        if seat is None:
            break
        state.apply(bots[seat].choose(state.view(seat)))
    raise ArgumentError(
        f"rollout: the round did not end within {MAX_ROLLOUT_ACTIONS:,} actions (bound it "
        "with max_reshuffles or turn_limit)"
    )


# -- a state in the core's integers ---------------------------------------------------


def encode_state(state: GameState) -> list[int]:
    """``state``'s round as the core reads it (the layout is described above
    ``load_state`` in ``_table.c``); the phase must be one the core takes up."""
    game = state.game
    # A card's id is its place in Shoe.cards: deck by deck (52 a deck), then the jokers;
    # by arithmetic, which is quicker than hashing cards.
    jokers = 52 * game.shoe.decks

    def ids(cards) -> list[int]:
        return [c.deck * 52 + c.index if c.index < 52 else jokers + c.deck for c in cards]

    out = [
        _PHASES.index(state.phase),
        state.current,
        state.to_act,
        state.turns,
        -1 if state.taken is None else ids([state.taken])[0],
        state.reshuffles,
        -1 if game.max_reshuffles is None else game.max_reshuffles,
        -1 if state.offered_by is None else state.offered_by,
    ]
    for seat, hand in enumerate(state.hands):
        out += (
            int(state.laid_down[seat]),
            state.buys[seat],
            state.last_turn[seat],
            state.penalties[seat],
            len(hand),
        )
        out += ids(hand)
    for pile in (state.stock, state.discards):
        out.append(len(pile))
        out += ids(pile)
    out.append(len(state.melds))
    for owner, meld in zip(state.owners, state.melds, strict=True):
        if meld.kind == "set":
            out += (owner, 0, meld.rank - 2, -1, -1)
        else:
            out += (owner, 1, -1, meld.suit.index, meld.start)
        out.append(len(meld.cards))
        out += ids(meld.cards)
        out += [-1 if s is None else s.index for s in meld.stands_for]
    out.append(len(state.pending))
    out += ids(state.pending)
    out.append(len(state.traded))
    out += sorted(joker.deck for joker in state.traded)
    for seats in (state.queue, state.requests):
        out.append(len(seats))
        out += seats
    return out


def _policy(seat: int, bot: object) -> int:
    if type(bot) not in (GreedyBot, BuyerBot):
        raise UnsupportedRuleError(
            f"bots: the compiled rollout plays GreedyBot and BuyerBot only, and seat "
            f"{seat}'s bot is {bot!r}: roll it out with rummykit.agents.rollouts.rollout"
        )
    return BUY_POLICIES.index(bot.buy)


#: The core's config by table (rules by identity, table size, shoe, round, contract,
#: limits), with the rules it was made for: a search asks for thousands of rollouts of
#: one table, and checking a RuleSet field by field each time would cost more than the
#: rollout.
_CONFIGS: dict[tuple, tuple[RuleSet, tuple[int, ...]]] = {}


def _check(state: GameState, bots: Sequence) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The config and the policies of a rollout of ``state`` by ``bots``, or a clear error."""
    _check_table(state, bots)
    policies = tuple(_policy(seat, bot) for seat, bot in enumerate(bots))
    if state.phase not in _PHASES:
        raise ArgumentError(f"state: the game is over (phase {state.phase!r}): nothing to play")
    rules, game = state.rules, state.game
    contracts = set(state.contract_index)
    if len(contracts) > 1:
        raise _unsupported(
            rules,
            "repeat_missed_contract",
            rules.repeat_missed_contract,
            " (with seats on different contracts this round)",
        )
    shoe = game.shoe
    key = (id(rules), state.players, shoe.decks, shoe.jokers, state.round_index,
           *contracts, game.turn_limit)  # fmt: skip
    made = _CONFIGS.get(key)
    if made is not None and made[0] is rules:
        return made[1], policies
    config = table_config(
        rules,
        players=state.players,
        decks=shoe.decks,
        jokers=shoe.jokers,
        deal=rules.deal_sizes[state.round_index],
        round=state.round,
        contract=rules.contracts[contracts.pop()],
        buy_limit=state.buy_limit(),
        turn_limit=game.turn_limit,
    )
    if len(_CONFIGS) > 1_000:
        _CONFIGS.clear()
    _CONFIGS[key] = (rules, config)
    return config, policies


def check_rollout(state: GameState, bots: Sequence) -> None:
    """Raise a :class:`~rummykit.errors.RummyError` naming the field unless the core can
    roll ``state`` out with ``bots`` (see the module notes); None if it can.

    >>> from rummykit.agents.bots import OutsBot
    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=2, seed=1).new_state()
    >>> check_rollout(state, [GreedyBot(), BuyerBot("never")])
    >>> check_rollout(state, [GreedyBot(), OutsBot()])
    Traceback (most recent call last):
    ...
    rummykit.errors.UnsupportedRuleError: bots: the compiled rollout plays GreedyBot and BuyerBot only, and seat 1's bot is OutsBot(buy='improves'): roll it out with rummykit.agents.rollouts.rollout
    """
    _check(state, bots)


def rollout_available(state: GameState, bots: Sequence) -> str | None:
    """None when :func:`fast_rollout` can play ``state`` with ``bots`` here; else why not
    (the core is not built, or :func:`check_rollout`'s refusal)."""
    # (where RUMMYKIT_REQUIRE_NATIVE is set, a core that is not built is an error)
    if _native.required("table") is None:
        return _native.why_not_built("table")
    try:
        _check(state, bots)
    except RummyError as error:
        return str(error)
    return None


def _seed(bots: Sequence, rng: random.Random) -> int:
    """The generator's draws of :func:`rollout`, in its order: the round's seed, then
    one for each bot with a generator (which :func:`rollout` reseeds; GreedyBot and
    BuyerBot never draw from theirs, so here the draws are only made)."""
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError(f"rng must be a random.Random, got {rng!r}")
    seed = rng.getrandbits(63)
    for bot in bots:
        if isinstance(getattr(bot, "rng", None), random.Random):
            rng.getrandbits(63)
    return seed


def _resume(
    state: GameState,
    checked: tuple[tuple[int, ...], tuple[int, ...]],
    seeds: Sequence[int],
    events: bool,
) -> list:
    config, policies = checked
    table = _native.require("table")
    rules = _native.encode_meld_rules(state.rules)
    results = table.resume(config, rules, encode_state(state), seeds, policies, events)
    for error, *_ in results:
        if error:
            raise ArgumentError(
                f"rollout: the compiled core {_ERRORS[error]}, in round {state.round}"
            )
    return results


def fast_rollout(state: GameState, bots: Sequence, rng: random.Random) -> tuple[int, ...]:
    """The round of ``state`` played on to its end by the core with ``bots`` (GreedyBot or
    BuyerBot, one per seat): its points per seat, signed as the rule set writes them
    (penalties in), as :func:`rollout` returns them for the same state, bots and ``rng``
    (drawn from in the same order). ``state`` is not changed."""
    checked = _check(state, bots)
    return _resume(state, checked, [_seed(bots, rng)], False)[0][1]


def rollout_points(state: GameState, bots: Sequence, seeds: Iterable[int]) -> list[tuple[int, ...]]:
    """:func:`fast_rollout`'s points for each round seed of ``seeds`` (the seed the
    round's generator is made from, ``random.Random(seed)``), in one call: the state is
    read once, and the bots' distance cache kept from one rollout to the next."""
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise ArgumentTypeError(f"seeds must be a sequence of integers, got {seeds!r}")
    seeds = list(itertools.islice(seeds, MAX_SEEDS + 1))
    if len(seeds) > MAX_SEEDS:
        raise ArgumentError(f"seeds: at most {MAX_SEEDS:,} a call, got more")
    for seed in seeds:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise ArgumentError(f"seeds: each is an integer from 0 to 2**64 - 1, got {seed!r}")
    return [result[1] for result in _resume(state, _check(state, bots), seeds, False)]


def rollout_events(
    state: GameState, bots: Sequence, rng: random.Random
) -> tuple[tuple[int, ...], list[tuple]]:
    """:func:`fast_rollout`'s points and the core's events from ``state`` on, in the
    form of :func:`log_events` (which is how the tests compare them with the engine's)."""
    checked = _check(state, bots)
    result = _resume(state, checked, [_seed(bots, rng)], True)[0]
    return result[1], decode_events(result[3], state.game.shoe)


def best_rollout(state: GameState, bots: Sequence, rng: random.Random) -> tuple[int, ...]:
    """:func:`fast_rollout` where the core plays ``state`` and ``bots``, else the
    engine's :func:`rollout` on a clone: the same points either way."""
    return best_outcome(state, bots, rng)[0]


def best_outcome(
    state: GameState, bots: Sequence, rng: random.Random
) -> tuple[tuple[int, ...], int | None]:
    """:func:`best_rollout`'s points, with the seat that went out (None: nobody did)."""
    if _native.required("table") is not None:
        try:
            checked = _check(state, bots)
        except UnsupportedRuleError:
            checked = None
        if checked is not None:
            _, points, out, _ = _resume(state, checked, [_seed(bots, rng)], False)[0]
            return points, out
    clone = state.clone()
    rounds = len(clone.results)
    points = rollout(clone, bots, rng)
    return points, clone.results[rounds].went_out


# -- the core's events, as the engine's ----------------------------------------------

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


def decode_events(data: bytes, shoe: Shoe) -> list[tuple]:
    """The core's event log (int32 bytes) as :func:`log_events` writes the engine's."""
    names = [f"{card.code}/{card.deck}" for card in shoe.cards]
    data = memoryview(data).cast("i")
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


def log_events(log: Iterable[Event], round: int | None = None) -> list[tuple]:
    """The events of an engine log (``GameState.log``; of round ``round`` only, if
    given) in the form of :func:`decode_events`: ``(kind, seat, cards, meld, melds,
    details)``, cards as ``"code/deck"``."""
    if isinstance(log, (str, bytes)) or not isinstance(log, Iterable):
        raise ArgumentTypeError(f"log must be a sequence of events (GameState.log), got {log!r}")
    log = list(log)
    for event in log:
        if not isinstance(event, Event):
            raise ArgumentTypeError(f"log: each item is an Event, got {event!r}")
    if round is not None and (not isinstance(round, int) or isinstance(round, bool)):
        raise ArgumentTypeError(f"round must be a round number or None, got {round!r}")
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
        if round is None or e.round == round
    ]
