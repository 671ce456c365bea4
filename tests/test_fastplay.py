"""The fast round simulator (rummykit.odds.play.fastplay, _native/_table.c) against the engine.

The engine (completion.play_round: Game, GameState and BuyerBots) is the reference: on
seeded rounds the compiled core must log the same events, card for physical card, and
return the same RoundRecord. Its parts are checked on their own too: the random
generator against random.Random, the contract distance against search.py.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from rummykit import RuleSet, _native
from rummykit.agents import rollouts
from rummykit.agents.bots import BUY_POLICIES
from rummykit.engine.cards import Shoe
from rummykit.engine.events import EVENT_KINDS
from rummykit.engine.search import _contract_distance, contract_within
from rummykit.errors import RuleSetError, RummyError, UnsupportedRuleError
from rummykit.odds.cells import Cell, RoundRecord, _played_round, play_round, round_seed
from rummykit.odds.play import fastplay
from tests.support.tiers import chosen_for_coverage, slow, soak

needs_core = pytest.mark.skipif(
    not _native.available()["table"], reason="the compiled core is not built"
)

#: The presets the fast simulator plays (check_fast accepts them).
FAST_PRESETS = RuleSet.presets()


def engine_round(cell: Cell, seed: int, index: int) -> tuple[list[tuple], RoundRecord]:
    """Round ``index`` of ``cell`` played by the engine as play_round plays it: its events
    (as the compiled core logs them) and its record, both from the one game."""
    state, record = _played_round(cell, seed, index)
    return fastplay.log_events(state.log, cell.round), record


def first_difference(engine: list[tuple], fast: list[tuple]) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(engine, fast, strict=False)) if a != b),
        min(len(engine), len(fast)),
    )
    before = engine[at - 1] if at else None
    return (
        f"event {at} of {len(engine)} (engine) / {len(fast)} (fast) differs; before it "
        f"{before}; engine {engine[at] if at < len(engine) else 'ends'}; "
        f"fast {fast[at] if at < len(fast) else 'ends'}"
    )


def assert_same_round(cell: Cell, seed: int, index: int) -> list[tuple]:
    """The compiled core plays round ``index`` of ``cell`` as the engine does: the same
    events and the same record. (The engine plays it once for both: its play is seeded,
    and play_round's record is read from the same game's log.)"""
    engine, record = engine_round(cell, seed, index)
    fast = fastplay.fast_events(cell, seed, index)
    assert fast == engine, f"{cell}, seed {seed}, index {index}: {first_difference(engine, fast)}"
    assert fastplay.play_round_fast(cell, seed, index) == record
    return engine


def sample_cells(count: int, seed: int) -> list[tuple[Cell, int]]:
    """``count`` (cell, index) pairs going round every (fast preset, player count its
    rules allow, round) in a shuffled order, with every buying policy (one for all, or
    one per position) and some shoe overrides."""
    rng = random.Random(seed)
    combos = [
        (name, players, round_)
        for name in FAST_PRESETS
        for players in range(RuleSet.preset(name).min_players, RuleSet.preset(name).max_players + 1)
        for round_ in range(1, 8)
    ]
    rng.shuffle(combos)
    out = []
    for n in range(count):
        name, players, round_ = combos[n % len(combos)]
        rules = RuleSet.preset(name)
        buy = BUY_POLICIES[n % 3] if n % 5 else tuple(rng.choices(BUY_POLICIES, k=players))
        decks = jokers = None
        if n % 7 == 3:
            jokers = 0
        elif n % 7 == 5:
            decks = rules.decks_for(players) + 1
        cell = Cell(rules, players, round_, decks=decks, jokers=jokers, buy=buy, rotate=n % 2 == 0)
        out.append((cell, rng.randrange(10_000)))
    return out


# --------------------------------------------------------------------------------------
# The build and the layouts


def test_compiled_core_is_built():
    """setup.py builds it; where it is expected (``.ci/run`` sets RUMMYKIT_REQUIRE_NATIVE=1)
    a missing core must fail, elsewhere (no C compiler) it is a skip that says so."""
    if _native.required("table") is None:
        pytest.skip(f"the fast simulator's core is not built: {_native.why_not_built('table')}")


@needs_core
def test_the_core_names_the_event_kinds_and_config_as_python_does():
    assert _native.table.EVENT_KINDS == EVENT_KINDS
    assert len(rollouts.CONFIG_FIELDS) == _native.table.CONFIG_FIELDS


def test_without_the_core_the_fast_path_says_so(without_core):
    without_core("table")
    cell = Cell(RuleSet.preset("standard"), players=3, round=1)
    with pytest.raises(RummyError, match="not built"):
        fastplay.play_round_fast(cell, seed=1)


@needs_core
@pytest.mark.parametrize("seed", [0, 1, 2026, 2**32 - 1, 2**32, 2**62 + 12345, 2**63 - 1])
def test_random_draws_are_python_random(seed):
    bounds = [1, 2, 3, 7, 8, 100, 107, 2**20 + 1, 161]
    python = random.Random(seed)
    draws = [python._randbelow(b) for b in bounds]
    shuffled = list(range(162))
    python.shuffle(shuffled)
    assert _native.table.randoms(seed, bounds, 162) == (draws, shuffled)


@needs_core
def test_game_seeds_are_round_seeds():
    """The core's port of numpy's SeedSequence gives cells.round_seed's game seeds."""
    rng = random.Random(4)
    for _ in range(300):
        seed = rng.choice([0, 1, 2026, 2**32, 2**64 - 1, rng.randrange(2**64)])
        key = tuple(rng.choice([0, 3, rng.randrange(2**40)]) for _ in range(rng.choice([0, 1, 4])))
        indices = [0, rng.randrange(10**6), rng.randrange(2**62)]
        expected = [round_seed(seed, key, index)[0] for index in indices]
        assert _native.table.game_seeds(seed, key, indices) == expected


@needs_core
def test_seeds_past_64_bits_play_the_engines_rounds():
    cell = Cell(RuleSet.preset("standard"), players=3, round=2)
    seed = 2**70 + 5
    assert fastplay.play_rounds_fast(cell, seed, [0, 1]) == [
        play_round(cell, seed, i) for i in (0, 1)
    ]


# --------------------------------------------------------------------------------------
# Contract distance against search.py


DISTANCE_RULES = {
    **{name: RuleSet.preset(name) for name in RuleSet.presets()},
    "no ace low, 1 joker": dataclasses.replace(
        RuleSet.preset("standard"), ace_low=False, max_jokers_per_meld=1
    ),
    "no ace high, sets of 4": dataclasses.replace(
        RuleSet.preset("standard"), ace_high=False, min_set_size=4
    ),
}


@needs_core
@pytest.mark.parametrize(
    ("name", "hands"),
    [(name, 40) for name in DISTANCE_RULES] + [slow(name, 500) for name in DISTANCE_RULES],
)
def test_distance_is_search_distance(name, hands):
    """contract_distance and contract_within of random hands (with copies and jokers),
    every contract, as search.py counts them (copies unlimited, as GreedyBot asks)."""
    rules = DISTANCE_RULES[name]
    solver = _native.encode_meld_rules(rules)
    shoe = Shoe(decks=3, jokers=6).cards
    rng = random.Random(hash(name) % 1000 + hands)
    for contract in rules.contracts:
        for _ in range(hands):
            hand = rng.sample(shoe, rng.randint(0, 16))
            counts = [0] * 53
            for card in hand:
                counts[card.index] += 1
            # (contract_distance itself may count in C: rummykit._native.distance)
            expected = _contract_distance(hand, contract, rules, None, None)
            got = _native.table.distance(solver, contract.sets, contract.runs, counts)
            assert got == expected, f"{name} {contract}: {sorted(hand)}"
            for cards in {0, max(0, expected - 1), expected, expected + 1}:
                within = _native.table.distance(solver, contract.sets, contract.runs, counts, cards)
                assert bool(within) == contract_within(hand, contract, rules, cards)


# --------------------------------------------------------------------------------------
# Whole rounds against the engine


@needs_core
def test_a_few_rounds_are_the_engines():
    """40 seeded rounds over the fast presets, player counts, rounds, policies, shoes:
    the fast tier's check (under 2 s) that the two still play the same rounds."""
    for cell, index in sample_cells(40, seed=15):
        assert_same_round(cell, 2026, index)


@pytest.mark.slow
@needs_core
def test_rounds_are_the_engines():
    """100 seeded rounds over the fast presets, player counts, rounds, policies, shoes."""
    kinds = set()
    for cell, index in sample_cells(100, seed=15):
        kinds |= {event[0] for event in assert_same_round(cell, 2026, index)}
    # The sample reaches the rare parts: buys, lay-offs, swaps, reshuffles, lotteries.
    assert {"buy", "lay off", "swap", "reshuffle", "buy lottery", "cut", "go out"} <= kinds


#: The long check's rounds: 2,100 seeded (cell, index) pairs, played in chunks of 300
#: (the cases of one test, which xdist's workers share).
MANY_ROUNDS, MANY_CHUNK = 2100, 300


@functools.cache
def many_rounds() -> tuple[tuple[Cell, int], ...]:
    return tuple(sample_cells(MANY_ROUNDS, seed=2026))


def test_many_rounds_reach_every_cell():
    """The long check's rounds cover every fast preset, every player count it allows
    and all 7 rounds."""
    seen = {(cell.rules.name, cell.players, cell.round) for cell, _ in many_rounds()}
    assert len(seen) == sum(
        7 * (RuleSet.preset(name).max_players - RuleSet.preset(name).min_players + 1)
        for name in FAST_PRESETS
    )


def covering_rounds() -> list[tuple[Cell, int]]:
    """The long check's rounds chosen for coverage: the first of each preset, player count
    and round together, of each buying policy (one per position counting as one), of each
    kind of shoe override and of each seat order."""
    return chosen_for_coverage(
        many_rounds(),
        lambda round_: (round_[0].rules.name, round_[0].players, round_[0].round),
        lambda round_: round_[0].buy if isinstance(round_[0].buy, str) else "per position",
        lambda round_: (round_[0].decks is None, round_[0].jokers is None),
        lambda round_: round_[0].rotate,
    )


@pytest.mark.slow
@needs_core
def test_a_round_of_every_cell_is_the_engines():
    """make test's part of the long check below: the rounds :func:`covering_rounds`
    chooses (every fast preset, player count and round; every buying policy, shoe
    override and seat order)."""
    chosen = covering_rounds()
    assert len(chosen) < len(many_rounds()) // 3, len(chosen)
    for cell, index in chosen:
        assert_same_round(cell, 7, index)


@needs_core
@pytest.mark.parametrize(
    "start",
    [soak(start) for start in range(0, MANY_ROUNDS, MANY_CHUNK)],
    ids=lambda start: f"rounds {start}-{start + MANY_CHUNK - 1}",
)
def test_many_rounds_are_the_engines(start):
    """2,100 seeded rounds, 300 a case: every fast preset, every player count it allows,
    all 7 rounds, every buying policy, per-position policies and shoe overrides (make
    soak; make test plays the rounds chosen above)."""
    for cell, index in many_rounds()[start : start + MANY_CHUNK]:
        assert_same_round(cell, 7, index)


#: Rule variants the presets do not reach: each option the core plays, alone.
VARIANTS = {
    "liverpool calls": ("standard", {"discard_call": "liverpool"}),
    "floating": ("standard", {"floating": True}),
    "no final discard": ("standard", {"last_round_no_discard": True}),
    "end turn": ("wikipedia", {"deal_sizes": (11,) * 6 + (13,)}),
    "swap from sets, once": ("standard", {"joker_swap": "any", "joker_trade_once": True}),
    "no swaps": ("standard", {"joker_swap": "none"}),
    "jokers unlimited": ("standard", {"max_jokers_per_meld": None}),
    "no buying": ("standard", {"buying": False}),
    "rummy calls": ("standard", {"discard_call": "rummy"}),
    "no reshuffle": ("standard", {"reshuffle_discards": False}),
    "swapped joker kept": ("standard", {"swapped_joker_must_be_played": False}),
    "swap before laying down": ("standard", {"joker_swap_needs_laid_down": False}),
    "swap before, kept": (
        "standard",
        {"joker_swap_needs_laid_down": False, "swapped_joker_must_be_played": False},
    ),
    "two penalty cards": ("family", {"buy_penalty_cards": 2, "last_round_buy_limit": 1}),
    "short runs, long sets": (
        "standard",
        {"ace_low": False, "min_run_size": 3, "min_set_size": 4},
    ),
}


@needs_core
@pytest.mark.parametrize(
    ("name", "rounds"),
    [(name, 6) for name in VARIANTS] + [slow(name, 120, id=f"{name}-slow") for name in VARIANTS],
)
def test_rule_variants_are_the_engines(name, rounds):
    base, change = VARIANTS[name]
    rules = dataclasses.replace(RuleSet.preset(base), name=name, **change)
    fastplay.check_fast(rules)
    rng = random.Random(rounds)
    kinds = set()
    for n in range(rounds):
        players = rules.min_players + n % (rules.max_players - rules.min_players + 1)
        cell = Cell(rules, players, 1 + n % 7, buy=BUY_POLICIES[n % 3])
        kinds |= {event[0] for event in assert_same_round(cell, 5, rng.randrange(1000))}
    if rounds > 100:  # what each variant is there for
        wanted = {"floating": "float", "no final discard": "end turn", "end turn": "end turn"}
        assert wanted.get(name, "go out") in kinds


#: Values of the options the core plays, for random rule sets.
RANDOM_OPTIONS = {
    "min_set_size": [3, 4],
    "min_run_size": [3, 4, 5],
    "max_jokers_per_meld": [None, 1, 2, 3],
    "min_naturals_in_set": [2, 3],
    "min_naturals_in_run": [2, 3],
    "ace_low": [True, False],
    "ace_high": [True, False],
    "same_suit_runs": ["unrestricted", "separated"],
    "joker_swap": ["runs", "any", "none"],
    "joker_trade_once": [False, True],
    "buying": [True, False],
    "buy_timing": ["after_decline", "before_draw"],
    "buy_priority": ["nearest", "longest_waiting", "first_call"],
    "buy_penalty_cards": [0, 1, 2],
    "buy_limit": [None, 1, 3],
    "last_round_buy_limit": [None, 2],
    "last_round_no_discard": [False, True],
    "floating": [False, True],
    "discard_call": ["none", "liverpool", "rummy"],
    "reshuffle_discards": [True, False],
    "joker_swap_needs_laid_down": [True, False],
    "swapped_joker_must_be_played": [True, False],
    "perfect_cut_bonus": [0, 50],
    "points": ["liverpool", "face"],
    "negative_scores": [False, True],
}


@needs_core
@pytest.mark.parametrize("rounds", [15, slow(400)])
def test_random_rule_sets_are_the_engines(rounds):
    """Options combined at random (each a preset's field changed with probability 0.3):
    whatever check_fast accepts plays the engine's round."""
    rng = random.Random(rounds)
    played = 0
    while played < rounds:
        base = RuleSet.preset(rng.choice(RuleSet.presets()))
        change = {k: rng.choice(v) for k, v in RANDOM_OPTIONS.items() if rng.random() < 0.3}
        try:
            rules = dataclasses.replace(base, name="random", **change)
            fastplay.check_fast(rules)
            players = rng.randint(rules.min_players, rules.max_players)
            cell = Cell(rules, players, rng.randint(1, 7), buy=rng.choice(BUY_POLICIES))
        except RummyError:  # an impossible combination, or one the core refuses
            continue
        assert_same_round(cell, 3, rng.randrange(1000))
        played += 1


@needs_core
def test_a_liverpool_call_is_the_engines():
    """GreedyBots almost never leave a discard that can be claimed (they lay off what
    fits); this wikipedia round, found by the fast simulator, has a call."""
    cell = Cell(RuleSet.preset("wikipedia"), players=3, round=6, buy="improves")
    events = assert_same_round(cell, 3, 7)
    assert "call" in {event[0] for event in events}


@needs_core
@pytest.mark.parametrize(("players", "buy", "index"), [(7, "improves", 64), (8, "always", 148)])
def test_rummy_calls_are_the_engines(players, buy, index):
    """Rounds with a rummy call (the discarder takes the card back and a penalty card),
    found by the fast simulator under wikipedia's rules with discard_call="rummy"."""
    rules = dataclasses.replace(RuleSet.preset("wikipedia"), name="rummy", discard_call="rummy")
    events = assert_same_round(Cell(rules, players, 4, buy=buy), 11, index)
    assert "rummy penalty" in {event[0] for event in events}


@needs_core
def test_batches_are_single_rounds():
    cell = Cell(
        RuleSet.preset("family"),
        players=4,
        round=7,
        buy=("always", "never", "improves", "never"),
        rotate=True,
    )
    batch = fastplay.play_rounds_fast(cell, 3, [5, 0, 9])
    assert batch == [fastplay.play_round_fast(cell, 3, i) for i in (5, 0, 9)]
    assert batch == [play_round(cell, 3, i) for i in (5, 0, 9)]


@needs_core
def test_threads_play_the_same_rounds():
    """The core runs without the GIL and keeps no state between calls: rounds played in
    threads at once are the rounds played one after another."""
    grid = [Cell(RuleSet.preset(name), players=4, round=5) for name in FAST_PRESETS]
    serial = [fastplay.play_rounds_fast(cell, 11, range(40)) for cell in grid]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda cell: fastplay.play_rounds_fast(cell, 11, range(40)), grid))
    assert threaded == serial


# --------------------------------------------------------------------------------------
# Refusals and bad input


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"min_naturals_in_set": 1}, "min_naturals_in_set"),
        ({"min_naturals_in_run": 1, "max_jokers_per_meld": 3}, "min_naturals_in_run"),
    ],
)
def test_unsupported_options_are_refused_by_name(change, field):
    rules = dataclasses.replace(RuleSet.preset("standard"), **change)
    with pytest.raises(UnsupportedRuleError, match=field) as error:
        fastplay.check_fast(rules)
    assert isinstance(error.value, RuleSetError)
    cell = Cell(rules, players=4, round=1)
    with pytest.raises(UnsupportedRuleError, match=field):
        fastplay.play_round_fast(cell, seed=1)


def test_every_preset_is_accepted():
    for name in RuleSet.presets():
        fastplay.check_fast(RuleSet.preset(name))
        assert fastplay.fast_available(RuleSet.preset(name)) == _native.available()["table"]
    lone = dataclasses.replace(RuleSet.preset("standard"), min_naturals_in_set=1)
    assert not fastplay.fast_available(lone)


def test_every_rule_field_is_listed():
    """A RuleSet field added later is refused until the core is taught it."""
    names = {f.name for f in dataclasses.fields(RuleSet)}
    assert set(fastplay.SUPPORTED) == names


@needs_core
def test_bad_arguments_are_clear_errors():
    cell = Cell(RuleSet.preset("standard"), players=3, round=1)
    with pytest.raises(RummyError, match="seed"):
        fastplay.play_round_fast(cell, seed=-1)
    with pytest.raises(RummyError, match="index"):
        fastplay.play_rounds_fast(cell, 1, [0, -2])
    with pytest.raises(RummyError, match="Cell"):
        fastplay.play_round_fast("standard", seed=1)
    with pytest.raises(RuleSetError):  # Cell's own check of the player count
        Cell(RuleSet.preset("family"), players=7, round=1)
