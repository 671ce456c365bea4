"""The compiled find_contract (``_native.distance.find``, the port of search._solve in
``_contract.c``) against its Python reference (search._find_contract with no core).

find_contract searches in C where the core is built and the hand is a list, a tuple or
a Hand; the melds are then built by the same Python code from the plan C returns. These
tests check that the melds are the reference's, not only their presence: on seeded hands
with jokers and copies from one to four decks, for every preset and meld rules no preset
uses (Hypothesis draws every field of MeldRules), and that what the core does not
implement is left to the reference, errors included.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import Contract, RuleSet, _native, parse_cards
from rummykit.engine import search
from rummykit.engine.cards import Card, Hand, Rank, Shoe, Suit
from rummykit.engine.search import find_contract
from rummykit.errors import RummyError
from tests.support.strategies import custom_rules

needs_core = pytest.mark.skipif(
    not _native.available()["distance"], reason="rummykit._native._distance is not built"
)

STANDARD = RuleSet.preset("standard")

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
    "no ace low": dataclasses.replace(STANDARD, ace_low=False),
    "sets of 4, runs of 3": dataclasses.replace(STANDARD, min_set_size=4, min_run_size=3),
    "4 naturals in a set": dataclasses.replace(STANDARD, min_naturals_in_set=4),
}

#: Contracts beyond the presets' rounds: runs only, many melds.
MORE_CONTRACTS = (Contract(runs=4), Contract(sets=3, runs=2), Contract(sets=4, runs=1))


def reference(hand, contract, rules):
    return search._find_contract(hand, contract, rules, None)


def outcome(function, *args):
    """The melds, or the error's type and message (both paths must agree on either)."""
    try:
        return function(*args)
    except RummyError as error:
        return type(error), str(error)


def check(hand, contract, rules) -> None:
    expected = outcome(reference, hand, contract, rules)
    got = outcome(find_contract, hand, contract, rules)
    assert got == expected, f"{rules.name} {contract}: {hand}"


def seeded_hands(seed, decks: int, count: int, least: int = 6, most: int = 16):
    """Hands of a shoe of ``decks`` decks and two jokers a deck, some of them biased to
    copies and jokers (a few faces, every deck of each)."""
    rng = random.Random(seed)
    shoe = Shoe(decks=decks, jokers=2 * decks).cards
    hands = []
    for n in range(count):
        if n % 3 == 2:
            faces = set(rng.sample(range(52), rng.randint(3, 8)))
            pool = [c for c in shoe if c.is_joker or c.index in faces]
            hands.append(rng.sample(pool, min(len(pool), rng.randint(least, most))))
        else:
            hands.append(rng.sample(shoe, rng.randint(least, most)))
    return hands


def test_compiled_find_is_built():
    """setup.py builds it with the distance; where it must be (RUMMYKIT_REQUIRE_NATIVE=1)
    a missing core fails here."""
    if _native.required("distance") is None:
        pytest.skip(f"rummykit._native._distance is not built: {_native.why_not_built('distance')}")
    assert hasattr(_native.distance, "find")


@needs_core
@pytest.mark.parametrize("name", list(RULES))
def test_the_same_melds_as_the_reference(name):
    rules = RULES[name]
    for decks in (1, 2, 3):
        hands = seeded_hands(f"{name}/{decks}", decks, 40)
        for contract in (*rules.contracts, *MORE_CONTRACTS):
            for hand in hands:
                check(hand, contract, rules)


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_the_same_melds_on_many_hands_of_every_preset(decks):
    """Up to 20 cards, 1,000 hands a preset and shoe."""
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        hands = seeded_hands(f"{name}/{decks}/many", decks, 1000, least=0, most=20)
        for contract in rules.contracts:
            found = 0
            for hand in hands:
                check(hand, contract, rules)
                found += find_contract(hand, contract, rules) is not None
            assert found or contract.melds > 2  # (the small contracts are found at times)


@pytest.mark.slow
@needs_core
@settings(max_examples=500)
@given(
    rules=custom_rules(),
    decks=st.integers(1, 4),
    jokers=st.integers(0, 8),
    sets=st.integers(0, 3),
    runs=st.integers(0, 3),
    size=st.integers(0, 18),
    seed=st.integers(0, 2**32),
)
def test_any_meld_rules_any_shoe(rules, decks, jokers, sets, runs, size, seed):
    contract = Contract(sets=sets, runs=runs) if sets + runs else Contract(sets=1)
    shoe = Shoe(decks=decks, jokers=jokers).cards
    rng = random.Random(seed)
    hand = rng.sample(shoe, min(size, len(shoe)))
    check(hand, contract, rules)
    # The same cards as a tuple, a Hand and an iterator (the last one searched by Python).
    expected = reference(hand, contract, rules)
    assert find_contract(tuple(hand), contract, rules) == expected
    assert find_contract(Hand(hand), contract, rules) == expected
    assert find_contract(iter(hand), contract, rules) == expected


@needs_core
def test_the_fast_path_is_taken(monkeypatch):
    """With the core built, a list, a tuple or a Hand is never searched by Python."""
    hand = parse_cards("3S 4S 5S 6S KC KD KH 9C")
    expected = [str(m) for m in reference(hand, STANDARD.contracts[1], STANDARD)]
    monkeypatch.setattr(search, "_solve", lambda *args: pytest.fail("Python searched"))
    for cards in (list(hand), tuple(hand), hand):
        melds = find_contract(cards, STANDARD.contracts[1], STANDARD)
        assert [str(m) for m in melds] == expected == ["K♣ K♦ K♥", "3♠ 4♠ 5♠ 6♠"]


def test_without_the_core_python_searches(without_core):
    hands = seeded_hands(7, 2, 30)
    expected = [reference(h, c, STANDARD) for h in hands for c in STANDARD.contracts]
    without_core("distance")
    assert [find_contract(h, c, STANDARD) for h in hands for c in STANDARD.contracts] == expected


@needs_core
def test_what_the_core_does_not_implement_is_left_to_the_reference():
    core = _native.distance
    rules = search._solver(STANDARD).core_rules
    # More sets than the core's fixed sizes: refused, and Python finds them.
    many = Contract(sets=9)
    hand = [Card(Rank(r), suit, deck) for r in range(2, 11) for suit in Suit for deck in (0,)]
    assert core.find(rules, 9, 0, hand) is NotImplemented
    melds = find_contract(hand, many, STANDARD)
    assert len(melds) == 9 and melds == reference(hand, many, STANDARD)
    # More than 255 copies of one card (decks numbered past it): refused, same answer.
    copies = [Card(Rank.EIGHT, Suit.SPADES, deck) for deck in range(300)]
    assert core.find(rules, 2, 0, copies) is NotImplemented
    assert find_contract(copies, STANDARD.contracts[0], STANDARD) == reference(
        copies, STANDARD.contracts[0], STANDARD
    )
    # Not cards: refused, and the reference's error.
    for bad in ([1, 2, 3], [*parse_cards("8S 8H 8D"), "8C"]):
        assert core.find(rules, 2, 0, bad) is NotImplemented
        assert outcome(find_contract, bad, STANDARD.contracts[0], STANDARD) == outcome(
            reference, bad, STANDARD.contracts[0], STANDARD
        )
    with pytest.raises(TypeError, match="a list or a tuple"):
        core.find(rules, 2, 0, iter(hand))


@needs_core
def test_a_card_held_twice_is_the_references_error():
    card = Card.parse("8S")
    twice = [card, card, *parse_cards("8H 9C 9D 9H")]
    got = outcome(find_contract, twice, STANDARD.contracts[0], STANDARD)
    assert got == outcome(reference, twice, STANDARD.contracts[0], STANDARD)
    assert got[0].__name__ == "ArgumentError"
    # Without an arrangement the hand is not checked (as before): None.
    assert find_contract(parse_cards("8S 8S 2D"), STANDARD.contracts[0], STANDARD) is None
