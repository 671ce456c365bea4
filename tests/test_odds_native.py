"""The compiled step of the exact sweep (``rummykit/_native/_sweep.c``) against the Python one.

Both run the same sweep; the compiled one maps the keys of a layer and adds up their
polynomials. They must give the same table (every count) for every kind of sweep: mixed contracts,
runs only (one suit at a time), distance mode, several rule sets, shrunken and full
shoes, 1-4 decks. (Not the same number of keys: states are numbered in the order each
sweep meets them, so canonical keys may pick other representatives of a class of suit
permutations, which changes the keys within a rank, not the counts.)
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rummykit import CONTRACTS, Contract, Rank, Suit, _native
from rummykit.odds.counting import _exact_layers as layers
from rummykit.odds.counting import _exact_model as model
from rummykit.odds.counting import exact
from rummykit.odds.counting._exact_model import NFIELDS, Run, State
from tests.support.odds_cases import (
    AROUND_ACE,
    LOOSE,
    LOW,
    NO_ACE_HIGH,
    NO_ACE_LOW,
    PAGAT,
    SEPARATED_SHORT,
    SHORT_RUNS,
    STANDARD,
    WIDE,
    WIKIPEDIA,
    C,
    H,
    S,
)
from tests.support.tiers import slow, soak

ALL_RANKS, ALL_SUITS = frozenset(Rank), tuple(Suit)
needs_step = pytest.mark.skipif(
    not _native.available()["sweep"], reason="the compiled step is not built"
)
LONG_RUNS = dataclasses.replace(STANDARD, min_run_size=6, min_naturals_in_run=3, name="long runs")

# (contract, rules, ranks, suits, decks, mode)
CASES = [
    (Contract(sets=1, runs=1), STANDARD, ALL_RANKS, [H, S], 1, "dealt"),
    slow((Contract(sets=1, runs=1), STANDARD, WIDE, [H, S, C], 2, "dealt")),
    (Contract(sets=2, runs=1), STANDARD, LOW, ALL_SUITS, 1, "dealt"),
    slow((Contract(sets=1, runs=2), STANDARD, LOW, ALL_SUITS, 1, "dealt")),
    slow((Contract(sets=1, runs=2), PAGAT, LOW, [H, S, C], 1, "dealt")),
    slow((Contract(sets=1, runs=1), WIKIPEDIA, LOW, [H, S, C], 2, "dealt")),
    (Contract(sets=1, runs=1), NO_ACE_LOW, AROUND_ACE, ALL_SUITS, 2, "dealt"),
    (Contract(sets=2, runs=1), SHORT_RUNS, LOW[:4], ALL_SUITS, 2, "dealt"),
    (Contract(sets=1, runs=1), LOOSE, LOW[:4], ALL_SUITS, 4, "dealt"),
    (Contract(sets=2), STANDARD, ALL_RANKS, ALL_SUITS, 2, "dealt"),
    slow((Contract(sets=1, runs=1), STANDARD, LOW[:4], ALL_SUITS, 1, "distance")),
    slow((Contract(sets=1, runs=1), STANDARD, LOW, [H, S], 2, "distance")),
    slow((Contract(sets=2, runs=1), PAGAT, LOW[:4], [H, S], 1, "distance")),
    # Every rank, so that the top of the sweep (where the compiled sweep moves as in the
    # middle and the Python one does not) counts: no ace high, long runs, loose jokers.
    (Contract(sets=1, runs=1), NO_ACE_HIGH, ALL_RANKS, [H, S], 1, "dealt"),
    slow((Contract(sets=1, runs=1), LONG_RUNS, ALL_RANKS, [H, S], 1, "dealt")),
    slow((Contract(sets=1, runs=2), LOOSE, ALL_RANKS, [H, S], 1, "dealt")),
    (Contract(sets=1, runs=1), SEPARATED_SHORT, ALL_RANKS, [H, S], 1, "dealt"),
    slow((Contract(sets=1, runs=1), STANDARD, ALL_RANKS, [H], 2, "distance")),
]


def _case_id(case) -> str:
    contract, rules, ranks, suits, decks, mode = case
    return f"{contract}-{rules.name}-{len(ranks)}r{len(suits)}s-{decks}d-{mode}"


def _sweep(contract, rules, ranks, suits, decks, mode, *, native, cards=15, **kwargs):
    sweep = layers.Sweep(
        contract, rules, decks, frozenset(ranks), tuple(suits), cards, 8, mode, **kwargs
    )
    sweep.native = native
    return sweep.run(None)


@needs_step
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_compiled_sweep_equals_python(case):
    compiled = _sweep(*case, native=True)
    python = _sweep(*case, native=False)
    assert compiled.counts == python.counts
    assert compiled.counts  # the case counts something


# Few cards: the compiled step drops the arrangements a hand of at most `cards` cards
# cannot complete (and the hands none of its arrangements can); (contract, rules, ranks,
# suits, decks, cards).
BUDGET_CASES = [
    slow((Contract(sets=1, runs=1), STANDARD, ALL_RANKS, ALL_SUITS, 1, 8)),
    slow((Contract(sets=1, runs=1), LOOSE, WIDE, ALL_SUITS, 2, 9)),
    # The two longest (12-14 s) in make soak: the same step, larger shoes.
    soak((Contract(sets=2, runs=1), STANDARD, WIDE, ALL_SUITS, 1, 11)),
    slow((Contract(sets=1, runs=2), STANDARD, LOW, ALL_SUITS, 1, 11)),
    soak((Contract(sets=1, runs=2), PAGAT, AROUND_ACE, ALL_SUITS, 2, 11)),
]


@needs_step
@pytest.mark.parametrize(
    "case", BUDGET_CASES, ids=lambda c: f"{c[0]}-{c[1].name}-{c[4]}d-{c[5]}cards"
)
def test_compiled_sweep_with_few_cards_equals_python(case):
    contract, rules, ranks, suits, decks, cards = case
    compiled = _sweep(contract, rules, ranks, suits, decks, "dealt", native=True, cards=cards)
    python = _sweep(contract, rules, ranks, suits, decks, "dealt", native=False, cards=cards)
    assert compiled.counts == python.counts
    # Only hands that fit: n naturals that need at most cards - n jokers.
    assert all(
        poly[n] == 0
        for need, poly in python.counts.items()
        for n in range(cards - need + 1, cards + 1)
    )
    assert sum(map(sum, python.counts.values())) > 0


@needs_step
@pytest.mark.parametrize("decks", [1, slow(3)])
def test_compiled_profile_sweep_equals_python(decks):
    """One suit of a runs-only contract (profile mode), as _runs_only sweeps it."""
    contract, suits = CONTRACTS[6], (Suit.SPADES,)
    kwargs = {"swept": (Suit.SPADES.index,), "profile": True}
    compiled = _sweep(contract, STANDARD, ALL_RANKS, suits, decks, "dealt", native=True, **kwargs)
    python = _sweep(contract, STANDARD, ALL_RANKS, suits, decks, "dealt", native=False, **kwargs)
    assert compiled.counts == python.counts and len(compiled.counts) > 3


def test_compiled_step_is_built():
    """The package builds it (setup.py); where it is expected (``.ci/run`` sets
    RUMMYKIT_REQUIRE_NATIVE=1) a silent fallback would hide a broken build. README
    supports machines without a C compiler: there its absence is a skip that says so."""
    if _native.required("sweep") is None:
        pytest.skip(f"the compiled step is not built: {_native.why_not_built('sweep')}")


@needs_step
def test_compiled_step_rejects_inconsistent_arrays():
    one = np.zeros(1, dtype=np.int64)
    args = [
        np.zeros(1, dtype=np.uint32),  # codes
        np.array([0, 1], dtype=np.int64),  # offsets
        np.zeros((1, 1, 4), dtype=np.int64),  # polys
        np.zeros((1, 3), dtype=np.int64),  # starts: 1 number of copies x (2 sids + 1)
        np.zeros(0, dtype=np.uint32),  # deltas
        np.zeros(2, dtype=np.int32),  # group
        np.zeros(2 * NFIELDS, dtype=np.int8),  # fields
        np.zeros((2, 4), dtype=np.int32),  # proj
        np.zeros(0, dtype=np.int32),  # perms
        np.zeros((0, 4), dtype=np.int8),  # permmaps
        np.array([7], dtype=np.int64),  # mods
        one,  # binom
        2,  # jcap
        3,  # nge
    ]
    _native.sweep.step(*args)  # consistent: one key of state 0 (complete), kept as it is
    bad = list(args)
    bad[3] = np.zeros((1, 4), dtype=np.int64)
    with pytest.raises(ValueError, match="inconsistent array sizes"):
        _native.sweep.step(*bad)
    bad = list(args)
    bad[1] = np.array([0, 5], dtype=np.int64)
    with pytest.raises(ValueError, match="offsets out of range"):
        _native.sweep.step(*bad)
    bad = list(args)
    bad[2] = np.full((1, 1, 4), 9, dtype=np.int64)  # residues must be below the modulus
    with pytest.raises(ValueError, match="too large"):
        _native.sweep.step(*bad)
    bad = list(args)
    bad[0] = np.array([5 << 12], dtype=np.uint32)  # state 5 has no table
    with pytest.raises(ValueError, match="unknown state"):
        _native.sweep.step(*bad)
    with pytest.raises(ValueError, match="needs the need array"):
        _native.sweep.step(*args, need=None, budget=5)
    with pytest.raises(ValueError, match="one entry per sid"):
        _native.sweep.step(*args, need=np.zeros(3, dtype=np.int8), budget=5)
    with pytest.raises(ValueError, match="a need is negative"):
        _native.sweep.step(*args, need=np.array([0, -1], dtype=np.int8), budget=5)
    with pytest.raises(ValueError, match="budget must be"):
        _native.sweep.step(*args, need=np.zeros(2, dtype=np.int8), budget=-2)
    # Closures: state 1 has none; a closure must be a known state other than 0.
    starts = np.array([0, 0, 0], dtype=np.int64)
    _native.sweep.step(*args, cstarts=starts, csids=np.zeros(0, dtype=np.int32))
    with pytest.raises(ValueError, match="cstarts needs csids"):
        _native.sweep.step(*args, cstarts=starts)
    for closures in ([0, 0, 1], [0, 1, 1], [0, 0, 3]):
        with pytest.raises(ValueError, match="closures out of range"):
            _native.sweep.step(
                *args,
                cstarts=np.array(closures, dtype=np.int64),
                csids=np.array([2], dtype=np.int32) if closures[-1] == 1 else np.zeros(1, np.int32),
            )


def test_closures_end_runs_in_progress():
    """A state's closures end some of its runs in progress: one more run done for each."""
    sweep = layers.Sweep(
        Contract(sets=1, runs=2), STANDARD, 2, frozenset(Rank), tuple(Suit), 12, 4, "dealt"
    )
    run = Run(length=2, naturals=2, jokers=0, low=0)
    nothing = (0,) * 4

    def state(runs_done, hearts, spades):
        runs = [(), (), (), ()]
        runs[H.index], runs[S.index] = hearts, spades
        return State(0, runs_done, 1, tuple(runs), nothing, nothing)

    sid = sweep.sid(state(0, (run,), (run,)))
    sweep.extend_closures()
    assert {sweep._states[c] for c in sweep._closures[sid]} == {
        state(1, (), (run,)),
        state(1, (run,), ()),
        state(2, (), ()),
    }
    assert sweep._closures[sweep.sid(state(2, (), ()))] == []


@needs_step
def test_python_fallback_is_used_when_not_built(monkeypatch, without_core):
    """With the compiled step missing, sweeps run in Python and give the same counts."""
    contract, rules = Contract(sets=1, runs=1), dataclasses.replace(STANDARD, name="fallback")
    shoe = {"decks": 1, "jokers": 1, "cards": 7, "rules": rules, "ranks": LOW, "suits": [H, S]}
    calls = []
    run_python = layers.Sweep.run_python

    def spy(self, progress):
        calls.append(self)
        return run_python(self, progress)

    monkeypatch.setattr(layers.Sweep, "run_python", spy)
    monkeypatch.setattr(exact, "_CACHE", {})
    compiled = exact.dealt_count(contract, **shoe)
    assert not calls  # the compiled step did this one
    without_core("sweep")
    monkeypatch.setattr(exact, "_CACHE", {})
    in_python = exact.dealt_count(contract, **shoe)
    assert len(calls) == 1
    assert in_python == compiled > 0


@needs_step
@pytest.mark.parametrize(
    "contract, decks, cards", [(CONTRACTS[1], 1, 10), (CONTRACTS[4], 2, 11), (CONTRACTS[5], 1, 11)]
)
def test_kept_successors_change_nothing(contract, decks, cards):
    """In the middle of the sweep a key's successors are kept for the same step of the
    next rank: the sweep that reads them gives the same layers as one that makes them
    again (same widest layer, same counts), and it does read some."""
    sweeps = []
    for memo in (True, False):
        sweep = layers.Sweep(contract, STANDARD, decks, ALL_RANKS, ALL_SUITS, cards, 4, "dealt")
        sweep.memo = memo
        sweeps.append((sweep, sweep.run(None)))
    (kept, with_memo), (_, without) = sweeps
    assert with_memo.counts == without.counts and with_memo.counts
    assert with_memo.keys == without.keys
    _, hits, misses = kept.memo_stats
    assert hits > 0 and misses > 0


@needs_step
def test_keys_hold_a_layer_and_reject_what_is_not_theirs():
    keys = _native.sweep.Keys()
    codes = np.array([5 << 12, 7 << 12, 5 << 12], dtype=np.uint32)  # keys {5, 7} and {5}
    polys = np.zeros((2, 1, 3), dtype=np.int64)
    polys[:, 0, 1] = [2, 3]
    mods = np.array([11], dtype=np.int64)
    assert keys.start(codes, np.array([0, 2, 3], dtype=np.int64), polys, mods) == 2
    ids, layer = keys.layer()
    assert np.frombuffer(ids, dtype=np.int64).tolist() == [0, 1]
    assert np.frombuffer(layer, dtype=np.int64).reshape(2, 1, 3).tolist() == polys.tolist()
    assert np.frombuffer(keys.codes(0), dtype=np.uint32).tolist() == [5 << 12, 7 << 12]
    # Every key must be stepped anew (no cache): the tables of states 5 and 7 are needed.
    assert np.frombuffer(keys.present(2, -1), dtype=np.uint32).tolist() == [5, 7]
    assert keys.stats() == (2, 0, 0)
    with pytest.raises(IndexError, match="no key 2"):
        keys.codes(2)
    with pytest.raises(ValueError, match="out of range"):
        keys.present(2, 8)
    with pytest.raises(ValueError, match="too large"):
        keys.start(codes, np.array([0, 2, 3], dtype=np.int64), polys + 9, mods)
    with pytest.raises(ValueError, match="offsets out of range"):
        keys.start(codes, np.array([0, 2, 4], dtype=np.int64), polys, mods)
    with pytest.raises(ValueError, match="no layer"):
        _native.sweep.Keys().step(*[np.zeros(1, dtype=np.int64)] * 8, jcap=2, nge=3)


@needs_step
def test_compiled_step_names_the_packed_layout_as_python_does():
    """The C and Python sides read the same codes: sid, jokers and added cards at the same
    bits, and residues modulo the same primes."""
    native = _native.sweep
    assert (native.SID_SHIFT, native.JOKER_SHIFT) == (model.SID_SHIFT, model.JOKER_SHIFT)
    assert (native.COST_MASK, native.REST_MASK) == (model.COST_MASK, model.REST_MASK)
    assert native.PRIMES == layers.PRIMES
    # Each suit of a sweep keeps its successors in a cache of its own.
    assert native.NCACHES >= 4
    code = model.pack_code(9, jokers=5, added=3)
    assert code >> native.SID_SHIFT == 9
    assert code >> native.JOKER_SHIFT & native.COST_MASK == 5
    assert code & native.COST_MASK == 3 and code & native.REST_MASK == 5 << 6 | 3


@needs_step
def test_compiled_step_takes_keyword_arguments():
    """Keys.step and step name their arguments; the optional ones are keyword-only."""
    keys = _native.sweep.Keys()
    codes = np.array([0], dtype=np.uint32)
    polys = np.zeros((1, 1, 3), dtype=np.int64)
    polys[0, 0, 0] = 1
    mods = np.array([7], dtype=np.int64)
    assert (
        keys.start(codes=codes, offsets=np.array([0, 1], dtype=np.int64), polys=polys, mods=mods)
        == 1
    )
    arrays = {
        "starts": np.zeros((2, 2), dtype=np.int64),
        "deltas": np.zeros(0, dtype=np.uint32),
        "group": np.zeros(1, dtype=np.int32),
        "fields": np.zeros(model.NFIELDS, dtype=np.int8),
        "proj": np.zeros((1, 4), dtype=np.int32),
        "perms": np.zeros(0, dtype=np.int32),
        "permmaps": np.zeros((0, 4), dtype=np.int8),
        "binom": np.array([1, 1], dtype=np.int64),
    }
    # The complete key holding 0 or 1 copies: still complete, with hands of 0 and 1 card.
    assert keys.step(**arrays, jcap=2, nge=model.MORE_IS_BETTER, cache=-1) == 1
    _, layer = keys.layer()
    assert np.frombuffer(layer, dtype=np.int64).tolist() == [1, 1, 0]
    with pytest.raises(TypeError):
        keys.step(*arrays.values(), 2, model.MORE_IS_BETTER, None)  # need is keyword-only
    with pytest.raises(TypeError, match="nosuch"):
        keys.step(**arrays, jcap=2, nge=3, nosuch=1)
