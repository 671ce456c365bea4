"""Property tests: the contract solver against a naive brute-force oracle.

Hands are drawn from small universes (few ranks, two suits, two decks, jokers) so
that melds are common and the oracle (every way to pick disjoint subsets) stays fast,
for several rule sets.
"""

import dataclasses
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import (
    Card,
    Contract,
    Rank,
    RuleSet,
    Shoe,
    Suit,
    check_meld,
    contract_distance,
    find_contract,
)
from rummykit.engine.search import contract_completion, contract_within
from tests.support.oracle import naive_contract, naive_run_windows, naive_set
from tests.support.strategies import custom_rules

STANDARD = RuleSet.preset("standard")
RULESETS = [
    STANDARD,
    RuleSet.preset("pagat"),  # separated same-suit runs, extra melds
    RuleSet.preset("wikipedia"),  # 3 naturals per run, no joker limit
    RuleSet.preset("family"),
    dataclasses.replace(STANDARD, name="no-ace-low", ace_low=False),
    dataclasses.replace(
        STANDARD,
        name="wild",
        max_jokers_per_meld=None,
        min_naturals_in_set=1,
        min_naturals_in_run=1,
    ),
    dataclasses.replace(
        STANDARD, name="short", min_run_size=3, min_set_size=2, min_naturals_in_set=1
    ),
    dataclasses.replace(STANDARD, name="strict", max_jokers_per_meld=1, min_naturals_in_run=3),
]
RANKS = [Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.JACK, Rank.QUEEN, Rank.KING]
UNIVERSE = [Card(r, s, d) for r in RANKS for s in (Suit.HEARTS, Suit.SPADES) for d in range(2)]
UNIVERSE += [Card.joker(i) for i in range(4)]
CONTRACTS = [
    Contract(1, 0),
    Contract(0, 1),
    Contract(2, 0),
    Contract(1, 1),
    Contract(0, 2),
    Contract(3, 0),
    Contract(2, 1),
    Contract(1, 2),
]
NATURALS = [Card(r, s, 7) for r in Rank for s in Suit]

rulesets = st.sampled_from(RULESETS)
# Any meld rules too, every field of MeldRules drawn (a new meld rule is then checked
# here with no edit); only for single melds, where the naive oracle stays cheap.
any_rules = rulesets | custom_rules()
contracts = st.sampled_from(CONTRACTS)


def hands(low: int = 4, high: int = 10):
    """Hands from UNIVERSE: some uniform, some built around near-melds (meld-rich)."""
    uniform = st.lists(st.sampled_from(UNIVERSE), min_size=low, max_size=high, unique=True)
    seeds, sizes = st.integers(0, 2**32 - 1), st.integers(low, high)
    return (
        uniform
        | st.builds(_meld_rich_hand, seeds, sizes)
        | st.builds(_contested_hand, seeds, sizes)
    )


def _contested_hand(seed: int, size: int) -> list[Card]:
    """A run whose cards other melds want too: the hard case for a solver.

    A run window of one suit, naturals of the same ranks in the other suit (so a set
    or a second run competes for them), jokers, then random cards up to ``size``.
    """
    rng = random.Random(seed)
    suit, other = rng.sample([Suit.HEARTS, Suit.SPADES], 2)
    start = rng.randrange(len(RANKS))
    window = (RANKS + RANKS)[start : start + rng.randint(4, 5)]
    hand = [Card(r, suit, 0) for r in window if rng.random() < 0.85]
    hand += [Card(r, other, 0) for r in rng.sample(window, rng.randint(1, 2))]
    hand += [Card(r, suit, 1) for r in rng.sample(window, rng.randint(0, 2))]
    hand += [Card.joker(i) for i in range(rng.randint(1, 3))]
    rest = [c for c in UNIVERSE if c not in hand]
    rng.shuffle(rest)
    hand = list(dict.fromkeys(hand))[:size]
    return hand + rest[: max(0, size - len(hand))]


def _meld_rich_hand(seed: int, size: int) -> list[Card]:
    """Pieces of sets and runs (some cards missing), jokers and noise, ``size`` cards."""
    rng = random.Random(seed)
    pool = list(UNIVERSE)
    rng.shuffle(pool)
    hand: list[Card] = []
    while len(hand) < size:
        kind = rng.choice(["set", "run", "run", "joker", "noise"])
        if kind == "set":
            rank = rng.choice(RANKS)
            picked = [c for c in pool if c.rank == rank][: rng.randint(2, 4)]
        elif kind == "run":
            suit = rng.choice([Suit.HEARTS, Suit.SPADES])
            start = rng.randrange(len(RANKS))
            ranks = set((RANKS + RANKS)[start : start + rng.randint(3, 5)])
            picked = [c for c in pool if c.suit == suit and c.rank in ranks]
            picked = list({c.rank: c for c in picked}.values())
        elif kind == "joker":
            picked = [c for c in pool if c.is_joker][:1]
        else:
            picked = pool[:1]
        for card in picked:
            if card in pool and len(hand) < size:
                pool.remove(card)
                hand.append(card)
    return hand


def assert_valid_arrangement(hand, melds, contract, rules):
    assert sum(m.kind == "set" for m in melds) == contract.sets
    assert sum(m.kind == "run" for m in melds) == contract.runs
    used = [c for m in melds for c in m.cards]
    assert len(used) == len(set(used)), "a card is in two melds"
    assert set(used) <= set(hand), "a meld uses a card not in the hand"
    for m in melds:
        assert check_meld(m.cards, rules, kind=m.kind).ok
        if m.kind == "set":
            assert naive_set(list(m.cards), rules)
        else:
            assert (m.start, m.end) in naive_run_windows(list(m.cards), rules)
    if rules.same_suit_runs == "separated":
        runs = [m for m in melds if m.kind == "run"]
        for a, b in combinations(runs, 2):
            assert a.suit != b.suit or a.end + 1 < b.start or b.end + 1 < a.start


@pytest.mark.slow
@settings(max_examples=2000)
@given(hand=hands(), contract=contracts, rules=rulesets)
def test_find_contract_matches_the_oracle(hand, contract, rules):
    melds = find_contract(hand, contract, rules)
    assert (melds is not None) == naive_contract(hand, contract, rules)
    if melds is not None:
        assert_valid_arrangement(hand, melds, contract, rules)


@settings(max_examples=300)
@given(
    cards=st.lists(st.sampled_from(UNIVERSE), min_size=1, max_size=7, unique=True),
    rules=any_rules,
)
def test_check_meld_matches_the_oracle(cards, rules):
    check = check_meld(cards, rules)
    as_set = naive_set(cards, rules)
    as_run = bool(naive_run_windows(cards, rules))
    assert check.ok == (as_set or as_run)
    if check.ok:
        assert check.kind == "set" and as_set or check.kind == "run" and as_run
        assert sorted(check.meld.cards) == sorted(cards)
        if check.kind == "run":
            assert (check.meld.start, check.meld.end) in naive_run_windows(cards, rules)
    else:
        assert check.reason


@settings(max_examples=300)
@given(hand=hands(3, 9), contract=contracts, rules=rulesets)
def test_contract_distance_is_the_fewest_cards_to_add(hand, contract, rules):
    distance = contract_distance(hand, contract, rules)
    assert (distance == 0) == (find_contract(hand, contract, rules) is not None)
    after = [contract_distance(hand + [card], contract, rules) for card in NATURALS]
    # One more card never hurts and helps by at most one ...
    assert all(distance - 1 <= d <= distance for d in after)
    # ... and when the contract is not made, some card brings it one closer.
    if distance:
        assert min(after) == distance - 1


@settings(max_examples=500)
@given(hand=hands(3, 12), contract=contracts, rules=rulesets, cards=st.integers(0, 5))
def test_contract_within_is_contract_distance_at_most(hand, contract, rules, cards):
    within = contract_within(hand, contract, rules, cards)
    assert within == (contract_distance(hand, contract, rules) <= cards)


@settings(max_examples=300)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(0, 15),
    contract=st.sampled_from([*STANDARD.contracts, Contract(0, 3), Contract(3, 1)]),
    rules=rulesets,
)
def test_contract_within_decides_between_neighbours(seed, size, contract, rules):
    # The question a bot asks: is the distance d or d + 1? Hands from the full shoe, at
    # both neighbours of the plain distance, so a search that stops too soon or too
    # late fails one side.
    hand = list(Shoe(decks=2, jokers=4).deal(size, seed=seed))
    distance = contract_distance(hand, contract, rules)
    assert contract_within(hand, contract, rules, distance)
    if distance:
        assert not contract_within(hand, contract, rules, distance - 1)
    assert contract_within(hand, contract, rules, 0) == (
        find_contract(hand, contract, rules) is not None
    )
    # What makes the question enough: one card more or less (a joker too) moves the
    # distance by at most one, never the wrong way.
    if hand:
        assert distance <= contract_distance(hand[:-1], contract, rules) <= distance + 1


@pytest.mark.slow
@settings(max_examples=150)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(6, 15),
    contract=st.sampled_from([*STANDARD.contracts, Contract(0, 3), Contract(3, 1)]),
    rules=rulesets,
    decks=st.sampled_from([None, 1, 2, 3]),
)
def test_contract_completion_is_a_smallest_set_of_missing_cards(seed, size, contract, rules, decks):
    # Random hands from a shoe of as many decks as the limit (two without one).
    hand = list(Shoe(decks=decks or 2, jokers=4).deal(size, seed=seed))
    missing = contract_completion(hand, contract, rules, decks=decks)
    assert len(missing) == contract_distance(hand, contract, rules, decks=decks)
    assert all(not card.is_joker for card in missing)
    grown = [*hand, *missing]
    assert len(set(grown)) == len(grown)  # every added card its own physical copy
    assert find_contract(grown, contract, rules) is not None
    if decks is not None:
        copies = [sum(c.index == card.index for c in grown) for card in missing]
        assert max(copies, default=0) <= decks


@settings(max_examples=40)
@given(
    hand=hands(4, 7), contract=st.sampled_from(CONTRACTS[:5]), rules=st.sampled_from(RULESETS[:3])
)
def test_contract_distance_by_breadth_first_search(hand, contract, rules):
    """The distance is the depth at which some multiset of added cards makes the contract."""
    distance = contract_distance(hand, contract, rules)
    universe = [c for c in NATURALS if c.rank in RANKS and c.suit in (Suit.HEARTS, Suit.SPADES)]
    # Within the hand's own ranks and suits, plus one fresh rank for a new set.
    universe += [Card(Rank.SEVEN, s, 7) for s in Suit]
    frontier = [tuple(hand)]
    for depth in range(distance):
        assert not any(find_contract(h, contract, rules) for h in frontier)
        if depth == 2:
            return  # deeper levels are too many hands; the levels checked agree
        frontier = [h + (Card(c.rank, c.suit, 8 + depth),) for h in frontier for c in universe]
    assert any(find_contract(h, contract, rules) for h in frontier)


@settings(max_examples=200)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(10, 15),
    contract=st.sampled_from(STANDARD.contracts),
    rules=rulesets,
)
def test_big_hands_give_legal_arrangements_and_more_cards_never_hurt(seed, size, contract, rules):
    shoe = Shoe(decks=2, jokers=4)
    hand = list(shoe.deal(size, seed=seed))
    melds = find_contract(hand, contract, rules)
    if melds is not None:
        assert_valid_arrangement(hand, melds, contract, rules)
        extra = next(c for c in shoe.cards if c not in hand)
        assert find_contract(hand + [extra], contract, rules) is not None
