"""The compiled contract distance (rummykit._native's distance, docs/fast-distance.md) against the
Python reference (search._contract_distance with no core: the A* of _cheapest_additions).

contract_distance counts in C where the core is built and implements the case; these
tests check that the values are the reference's for every preset's contracts and meld
rules, copies unlimited and limited to 1-3 decks, and that without the core (as on a
machine with no C compiler) contract_distance still gives them, in Python. The cases
that one mixin runs on each side in turn are in tests/test_native.py.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rummykit import Contract, RuleSet, _native, parse_cards
from rummykit.agents.hints import discard_advice, outs
from rummykit.engine import search
from rummykit.engine.cards import Shoe
from rummykit.engine.search import contract_completion, contract_distance, find_contract
from rummykit.errors import RummyError, UnsupportedRuleError
from tests.support.tiers import slow

needs_core = pytest.mark.skipif(
    not _native.available()["distance"], reason="rummykit._native._distance is not built"
)

STANDARD = RuleSet.preset("standard")
ROOT = Path(__file__).resolve().parent.parent

#: Every preset, and meld rules no preset uses but the solver reads.
RULES = {
    **{name: RuleSet.preset(name) for name in RuleSet.presets()},
    "one natural": dataclasses.replace(STANDARD, min_naturals_in_set=1, min_naturals_in_run=1),
    "no joker limit, 3 naturals in a run": dataclasses.replace(
        STANDARD, max_jokers_per_meld=None, min_naturals_in_run=3
    ),
    "no jokers in melds": dataclasses.replace(STANDARD, max_jokers_per_meld=0),
    "separated runs, ace low only": dataclasses.replace(
        STANDARD, same_suit_runs="separated", ace_high=False
    ),
    "sets of 4, runs of 3": dataclasses.replace(STANDARD, min_set_size=4, min_run_size=3),
    "4 naturals in a set": dataclasses.replace(STANDARD, min_naturals_in_set=4),
}


def reference(hand, contract, rules, decks=None):
    return search._contract_distance(hand, contract, rules, decks, None)


def fast(hand, contract, rules, decks=None):
    return contract_distance(hand, contract, rules, decks=decks)


def outcome(function, *args):
    """The value, or the error's type and message (both paths must agree on either)."""
    try:
        return function(*args)
    except RummyError as error:
        return type(error), str(error)


def random_hands(rng: random.Random, decks: int, count: int, most: int = 14):
    shoe = Shoe(decks=decks, jokers=2 * decks).cards
    return [rng.sample(shoe, rng.randint(0, most)) for _ in range(count)]


def test_compiled_distance_is_built():
    """setup.py builds it; where it is expected (``.ci/run`` sets RUMMYKIT_REQUIRE_NATIVE=1)
    a missing core must fail, elsewhere (no C compiler) it is a skip that says so."""
    if _native.required("distance") is None:
        pytest.skip(f"rummykit._native._distance is not built: {_native.why_not_built('distance')}")


@needs_core
def test_the_core_and_search_agree_on_the_fixed_sizes():
    core = _native.distance
    assert search._CORE_MELDS == core.MAX_SETS == core.MAX_RUNS
    assert search._CORE_COUNT == core.MAX_COUNT
    assert len(_native.MELD_RULE_FIELDS) == core.RULES_HEADER
    assert len(_native.WINDOW_FIELDS) == core.WINDOW_FIELDS
    assert search._solver(STANDARD).core_rules is _native.encode_meld_rules(STANDARD)


def check(hand, contract, rules, decks) -> None:
    expected = outcome(reference, hand, contract, rules, decks)
    got = outcome(fast, hand, contract, rules, decks)
    assert got == expected, f"{rules.name} {contract} decks={decks}: {sorted(hand)}"


@needs_core
def test_fast_distance_is_the_reference_for_every_preset():
    """One random hand per contract of every preset, decks 1-3 and unlimited in turn (the
    slow tier below takes 12 hands of each shoe, for the other meld rules of RULES too)."""
    rng = random.Random(2026)
    shoes = [None, 1, 2, 3]
    turn = 0
    for rules in map(RuleSet.preset, RuleSet.presets()):
        for contract in rules.contracts:
            decks = shoes[turn % 4]
            turn += 1
            check(random_hands(rng, decks or 2, 1, most=8)[0], contract, rules, decks)


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("name", list(RULES))
def test_fast_distance_is_the_reference(name):
    rules = RULES[name]
    rng = random.Random(name)
    for decks in (None, 1, 2, 3):
        for contract in rules.contracts:
            for hand in random_hands(rng, decks or 2, 12):
                check(hand, contract, rules, decks)


@needs_core
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_twelve_card_hands_of_every_round(decks):
    """Hands as the distance table deals them (12 cards, 2 jokers a deck), every round."""
    rng = random.Random(decks)
    shoe = Shoe(decks=decks, jokers=2 * decks).cards
    for contract in STANDARD.contracts:
        for _ in range(2):
            hand = rng.sample(shoe, 12)
            expected = reference(hand, contract, STANDARD, decks)
            assert contract_distance(hand, contract, STANDARD, decks=decks) == expected


@needs_core
def test_jokers_and_copies_in_the_hand():
    rng = random.Random(3)
    shoe = Shoe(decks=3, jokers=6)
    jokers = [card for card in shoe.cards if card.is_joker]
    naturals = [card for card in shoe.cards if not card.is_joker]
    for contract in STANDARD.contracts:
        for held in (1, 3, 6):
            # Copies on purpose: a few faces, all three decks of each.
            faces = rng.sample(range(52), 3)
            hand = jokers[:held] + [card for card in naturals if card.index in faces]
            for decks in (3, None):
                expected = reference(hand, contract, STANDARD, decks)
                assert contract_distance(hand, contract, STANDARD, decks=decks) == expected


@needs_core
def test_a_hand_that_holds_the_contract_is_0():
    rng = random.Random(5)
    for contract in STANDARD.contracts:
        for hand in random_hands(rng, 2, 1, most=8):
            whole = [*hand, *contract_completion(hand, contract, STANDARD, decks=2)]
            assert find_contract(whole, contract, STANDARD) is not None
            for decks in (1, 2, 3, None):
                if decks == 1 and len({c.index for c in whole if not c.is_joker}) < len(
                    [c for c in whole if not c.is_joker]
                ):
                    continue  # (copies a single deck does not have: an error, tested below)
                assert contract_distance(whole, contract, STANDARD, decks=decks) == 0
                assert reference(whole, contract, STANDARD, decks) == 0


@needs_core
@pytest.mark.parametrize("decks", [1, slow(2), slow(None)])
def test_hands_needing_many_cards(decks):
    """The empty hand needs every card of the contract; a few scattered cards little less."""
    for contract in STANDARD.contracts:
        most = contract.sets * 3 + contract.runs * 4
        assert contract_distance([], contract, STANDARD, decks=decks) == most
        assert reference([], contract, STANDARD, decks) == most
    hand = parse_cards("2C 9D KH")
    for contract in STANDARD.contracts:
        expected = reference(hand, contract, STANDARD, decks)
        assert contract_distance(hand, contract, STANDARD, decks=decks) == expected
        assert expected >= contract.sets * 3 + contract.runs * 4 - 3


@pytest.mark.parametrize(
    ("hand", "decks"),
    [
        ("8S 8H 8D JH JS JD", 0),  # holds the contract: 0 whatever decks says, as before
        ("8S 8H 2D", 0),
        ("8S 8H 2D", True),
        ("8S 8H 2D", "2"),
        ("8S 8S 8S 2D", 2),  # more copies than two decks have
        ("8S 8S 8S JH JH JH", 2),  # ... even holding the contract: 0
    ],
)
def test_bad_decks_are_the_references_answer(without_core, hand, decks):
    cards = parse_cards(hand)
    contract = STANDARD.contracts[0]
    expected = outcome(reference, cards, contract, STANDARD, decks)
    assert outcome(fast, cards, contract, STANDARD, decks) == expected
    without_core("distance")
    assert outcome(fast, cards, contract, STANDARD, decks) == expected


def test_without_the_core_contract_distance_counts_in_python(monkeypatch, without_core):
    """As on a machine with no C compiler: the same values, from the A* (spied on)."""
    rng = random.Random(11)
    hands = random_hands(rng, 2, 3, most=10)
    contracts = STANDARD.contracts[:4]
    expected = [reference(h, c, STANDARD, 2) for h in hands for c in contracts]
    calls = []
    original = search._cheapest_additions
    without_core("distance")
    monkeypatch.setattr(
        search, "_cheapest_additions", lambda *args: calls.append(1) or original(*args)
    )
    got = [contract_distance(h, c, STANDARD, decks=2) for h in hands for c in contracts]
    assert got == expected
    assert len(calls) == sum(1 for d in expected if d)  # every nonzero one by the A*
    with pytest.raises(RummyError, match="not built"):
        search._fast_distance(hands[0], contracts[0], STANDARD, decks=2)
    # hints.outs reaches the distance through contract_distance: it works too.
    result = outs(parse_cards("8S 8H 8D JH JS 2C 5D"), contracts[0], STANDARD, decks=2, jokers=4)
    assert result.distance == 1


@needs_core
def test_what_the_core_does_not_implement_is_refused_or_left_to_python():
    many = Contract(sets=9)
    hand = parse_cards("8S 8H 2D")
    with pytest.raises(UnsupportedRuleError, match="contracts=9 sets .*more than 8"):
        search._fast_distance(hand, many, STANDARD)
    assert contract_distance(hand, many, STANDARD) == 24  # (in Python: 1 + 2 + 7 * 3)
    with pytest.raises(UnsupportedRuleError, match="decks=300"):
        search._fast_distance(hand, STANDARD.contracts[0], STANDARD, decks=300)
    assert contract_distance(hand, STANDARD.contracts[0], STANDARD, decks=300) == 3
    assert search._fast_distance(hand, STANDARD.contracts[0], STANDARD, decks=2) == 3


@needs_core
def test_the_fast_path_is_taken(monkeypatch):
    """With the core built, contract_distance never runs the Python A*."""
    hand = parse_cards("8S 8H 2D JH 4S 3C 5D")
    expected = reference(hand, STANDARD.contracts[5], STANDARD, 2)
    monkeypatch.setattr(search, "_cheapest_additions", lambda *args: pytest.fail("the A* ran"))
    monkeypatch.setattr(search, "_unlimited_distance", lambda *args: pytest.fail("Python ran"))
    assert contract_distance(hand, STANDARD.contracts[5], STANDARD, decks=2) == expected


def test_an_install_without_the_compiled_module_counts_in_python():
    """A fresh interpreter in which rummykit._native._distance cannot be imported (as with
    no C compiler): search.py loads, the face says the core is missing and why, and
    contract_distance gives the reference's values."""
    code = textwrap.dedent(
        """
        import importlib.abc, sys
        class Blocker(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "rummykit._native._distance":
                    raise ModuleNotFoundError(f"No module named {name!r}")
        sys.meta_path.insert(0, Blocker())
        from rummykit import RuleSet, parse_cards, contract_distance
        from rummykit import _native
        assert _native.distance is None and not _native.available()["distance"]
        assert "No module named" in _native.why_not_built("distance")
        rules = RuleSet.preset("standard")
        hand = parse_cards("9C 9D 9H 9S JK 2D")
        print(contract_distance(hand, rules.contracts[3], rules, decks=1))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4"]


@needs_core
def test_outs_are_the_same_with_and_without_the_core(without_core):
    """hints.outs takes the definition (a distance per face) with the core and its
    descents without: the same outs, on random hands of every contract."""
    rng = random.Random(17)
    shoe = Shoe(decks=2, jokers=4).cards
    cases = [
        (rng.sample(shoe, rng.choice((7, 10))), contract)
        for contract in STANDARD.contracts
        for _ in range(2)
    ]
    compiled = [outs(h, c, STANDARD, decks=2, jokers=4) for h, c in cases]
    without_core("distance")
    python = [outs(h, c, STANDARD, decks=2, jokers=4) for h, c in cases]
    assert compiled == python
    assert any(result.cards for result in compiled)


@needs_core
def test_discard_advice_is_the_same_with_and_without_the_core(without_core):
    """The two-draw chance asks the compiled unlimited distance where contract_within
    asked the Python search: the same advice, exactly, on random 11-card hands."""
    rng = random.Random(29)
    shoe = Shoe(decks=2, jokers=4).cards
    cases = [(rng.sample(shoe, 11), contract) for contract in STANDARD.contracts[:4]]
    compiled = [discard_advice(h, c, STANDARD, decks=2, jokers=4) for h, c in cases]
    without_core("distance")
    python = [discard_advice(h, c, STANDARD, decks=2, jokers=4) for h, c in cases]
    assert compiled == python
    assert any(option.p_two for advice in compiled for option in advice)
