"""Each compiled core and its Python reference on the same cases (CPython's test_heapq shape).

A mixin holds the cases of one core; one subclass runs them on the Python reference, one
on the compiled core (``rummykit._native``). Where the core is not built the compiled
class is skipped, saying why; where it must be (``RUMMYKIT_REQUIRE_NATIVE=1``, as
``.ci/run`` sets), :func:`rummykit._native.required` raises and the class fails.

- the contract distance (``_native.distance``): every case against facts that hold
  whoever counts (a hand holding the contract is 0, an empty hand needs every card of
  the contract, one card moves the distance by at most one) and a brute-force oracle;
- the table core's meld rules (``_native.table``, reading
  :func:`rummykit._native.encode_meld_rules`): each meld rule changes what is a contract,
  and the core's solver must see it as search.py's does;
- the exact sweep's step (``_native.sweep``): counts against the plain reference count.

Moved here from tests/test_search_fast.py, where each ran both paths by hand:
``test_copies_limited_where_one_deck_lacks_a_copy`` and ``test_no_cards_can_make_it``.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit import Contract, RuleSet, _native, parse_cards
from rummykit.engine import search
from rummykit.engine.cards import Shoe
from rummykit.engine.rules import meld_limits, run_windows
from rummykit.engine.search import contract_completion, find_contract
from rummykit.errors import ArgumentError, RummyError
from rummykit.odds import dealt_count, distance_distribution
from rummykit.odds.counting import _exact_layers as layers
from rummykit.odds.counting import exact
from rummykit.odds.counting.reference import reference_dealt_count, reference_distance_distribution
from tests.support.odds_cases import (
    LOOSE,
    LOW,
    NO_ACE_LOW,
    SEPARATED_SHORT,
    SHORT_RUNS,
    WIKIPEDIA,
    H,
    S,
)
from tests.support.odds_oracle import distance as oracle_distance

STANDARD = RuleSet.preset("standard")


def compiled(name: str):
    """Core ``name``'s module; a skip where it is not built, a failure where it must be."""
    module = _native.required(name)
    if module is None:
        pytest.skip(f"rummykit._native.{name} is not built: {_native.why_not_built(name)}")
    return module


# ---------------------------------------------------------------------------------------
# The contract distance


class DistanceCases:
    """``self.distance(hand, contract, rules, decks)``: search.contract_distance as the
    implementation under test counts it."""

    def distance(self, hand, contract, rules, decks=None) -> int:
        raise NotImplementedError

    def test_documented_hands(self):
        first = STANDARD.contracts[0]
        assert self.distance(parse_cards("8S 8H 8D JH JS 2C 5D"), first, STANDARD) == 1
        assert self.distance(parse_cards("8S 8H 2D JH 4S 3C 5D"), first, STANDARD) == 3
        hand = parse_cards("7H 8H 9H 10H 7H 8H 9H")  # two runs want a second 10♥
        assert self.distance(hand, STANDARD.contracts[2], STANDARD, 2) == 1

    @pytest.mark.parametrize("name", RuleSet.presets())
    def test_an_empty_hand_needs_every_card_of_the_contract(self, name):
        rules = RuleSet.preset(name)
        limits = meld_limits(rules)
        for contract in rules.contracts:
            most = contract.sets * limits.set_cards + contract.runs * limits.run_cards
            assert self.distance([], contract, rules) == most
            assert self.distance([], contract, rules, 2) == most

    def test_a_hand_holding_the_contract_is_0(self):
        rng = random.Random(5)
        shoe = Shoe(decks=2, jokers=4).cards
        for contract in STANDARD.contracts:
            hand = rng.sample(shoe, 6)
            whole = [*hand, *contract_completion(hand, contract, STANDARD, decks=2)]
            assert find_contract(whole, contract, STANDARD) is not None
            assert self.distance(whole, contract, STANDARD) == 0
            assert self.distance(whole, contract, STANDARD, 2) == 0

    def test_one_card_moves_the_distance_by_at_most_one(self):
        """Adding a card never raises the distance and lowers it by at most one; copies
        limited are never fewer than copies unlimited."""
        rng = random.Random(8)
        shoe = Shoe(decks=2, jokers=4).cards
        for contract in STANDARD.contracts:
            hand = rng.sample(shoe, 9)
            before = self.distance(hand, contract, STANDARD)
            assert self.distance(hand, contract, STANDARD, 2) >= before
            for card in rng.sample([c for c in shoe if c not in hand], 6):
                after = self.distance([*hand, card], contract, STANDARD)
                assert before - 1 <= after <= before

    def test_near_hands_are_the_brute_force_oracles(self):
        """Hands one or two cards short of a contract (a completed hand less some cards),
        one deck: the distance is the oracle's, which tries every set of added cards."""
        rng = random.Random(13)
        shoe = Shoe(decks=1, jokers=2).cards
        for contract in STANDARD.contracts[:3]:
            hand = rng.sample(shoe, 5)
            whole = [*hand, *contract_completion(hand, contract, STANDARD, decks=1)]
            for short in (1, 2):
                held = rng.sample(whole, len(whole) - short)
                naturals = tuple((c.rank, c.suit) for c in held if not c.is_joker)
                jokers = sum(c.is_joker for c in held)
                expected = oracle_distance(naturals, jokers, contract, STANDARD, 1)
                assert self.distance(held, contract, STANDARD, 1) == expected <= short

    def test_copies_limited_where_one_deck_lacks_a_copy(self):
        """Three sets: 9♣ 9♦ 9♥ and 9♠ 9 JK want a fifth nine, which one deck lacks."""
        hand = parse_cards("9C 9D 9H 9S JK 2D")
        three_sets = STANDARD.contracts[3]
        assert self.distance(hand, three_sets, STANDARD) == 3  # a nine and two twos
        assert self.distance(hand, three_sets, STANDARD, 2) == 3
        assert self.distance(hand, three_sets, STANDARD, 1) == 4

    def test_no_cards_can_make_it(self):
        """Sets of five naturals from one deck (four suits): an error that says so."""
        rules = dataclasses.replace(STANDARD, min_set_size=5, min_naturals_in_set=5)
        hand = parse_cards("8S 8H 2D")
        with pytest.raises(ArgumentError, match="no cards from 1 deck"):
            self.distance(hand, Contract(sets=1), rules, 1)
        assert self.distance(hand, Contract(sets=1), rules, 2) == 3


class TestDistancePython(DistanceCases):
    def distance(self, hand, contract, rules, decks=None) -> int:
        return search._contract_distance(hand, contract, rules, decks, None)


class TestDistanceC(DistanceCases):
    @pytest.fixture(autouse=True)
    def _compiled(self):
        compiled("distance")

    def distance(self, hand, contract, rules, decks=None) -> int:
        # The core alone: an UnsupportedRuleError rather than a quiet count in Python.
        return search._fast_distance(hand, contract, rules, decks=decks)


# ---------------------------------------------------------------------------------------
# The table core's meld rules (encode_meld_rules)


def _counts(hand) -> list[int]:
    counts = [0] * 53
    for card in hand:
        counts[card.index] += 1
    return counts


#: (rules, contract, hand, distance): each meld rule decides the distance of its hand.
MELD_RULE_CASES = {
    "ace low: A-2-3-4 is a run": (STANDARD, Contract(runs=1), "AH 2H 3H 4H", 0),
    "no ace low: A-2-3-4 is not": (NO_ACE_LOW, Contract(runs=1), "AH 2H 3H 4H", 1),
    "ace high: J-Q-K-A is a run": (STANDARD, Contract(runs=1), "JH QH KH AH", 0),
    "no ace high: J-Q-K-A is not": (
        dataclasses.replace(STANDARD, ace_high=False),
        Contract(runs=1),
        "JH QH KH AH",
        1,
    ),
    "two jokers in a run": (STANDARD, Contract(runs=1), "5H JK JK 8H", 0),
    "one joker per meld": (
        dataclasses.replace(STANDARD, max_jokers_per_meld=1),
        Contract(runs=1),
        "5H JK JK 8H",
        1,
    ),
    "runs of three": (SHORT_RUNS, Contract(runs=1), "5H 6H 7H", 0),
    "runs need three naturals": (WIKIPEDIA, Contract(runs=1), "5H JK 7H JK", 1),
    "two runs of a suit touching": (STANDARD, Contract(runs=2), "2H 3H 4H 5H 6H 7H 8H 9H", 0),
    "separated runs need a gap": (
        RuleSet.preset("pagat"),
        Contract(runs=2),
        "2H 3H 4H 5H 6H 7H 8H 9H",
        1,
    ),
    "a set of two naturals and a joker": (STANDARD, Contract(sets=1), "8S 8H JK", 0),
    "sets need three naturals": (
        dataclasses.replace(STANDARD, min_naturals_in_set=3),
        Contract(sets=1),
        "8S 8H JK",
        1,
    ),
    "sets of four": (
        dataclasses.replace(STANDARD, min_set_size=4),
        Contract(sets=1),
        "8S 8H 8D",
        1,
    ),
    "one natural is a set with jokers": (LOOSE, Contract(sets=1), "8S JK JK", 0),
    "separated short runs": (SEPARATED_SHORT, Contract(runs=2), "2H 3H 4H 5H 6H 7H", 1),
}


class MeldRuleCases:
    """``self.distance(hand, contract, rules)`` and ``self.within(hand, contract, rules,
    cards)`` as the solver under test decides them (copies unlimited)."""

    @pytest.mark.parametrize("name", MELD_RULE_CASES)
    def test_each_meld_rule_decides_its_hand(self, name):
        rules, contract, hand, expected = MELD_RULE_CASES[name]
        cards = parse_cards(hand)
        assert self.distance(cards, contract, rules) == expected
        assert self.within(cards, contract, rules, expected)
        assert expected == 0 or not self.within(cards, contract, rules, expected - 1)


class TestMeldRulesPython(MeldRuleCases):
    def distance(self, hand, contract, rules):
        return search._contract_distance(hand, contract, rules, None, None)

    def within(self, hand, contract, rules, cards):
        return search.contract_within(hand, contract, rules, cards)


class TestMeldRulesC(MeldRuleCases):
    @pytest.fixture(autouse=True)
    def _compiled(self):
        self.table = compiled("table")

    def distance(self, hand, contract, rules):
        encoded = _native.encode_meld_rules(rules)
        return self.table.distance(encoded, contract.sets, contract.runs, _counts(hand))

    def within(self, hand, contract, rules, cards):
        encoded = _native.encode_meld_rules(rules)
        counts = _counts(hand)
        return bool(self.table.distance(encoded, contract.sets, contract.runs, counts, cards))


def test_the_encoding_is_the_engines_windows_and_limits():
    """encode_meld_rules is rules.py's numbers, laid out as MELD_RULE_FIELDS says."""
    for name in [*RuleSet.presets(), "no ace low"]:
        rules = NO_ACE_LOW if name == "no ace low" else RuleSet.preset(name)
        encoded = _native.encode_meld_rules(rules)
        header = dict(zip(_native.MELD_RULE_FIELDS, encoded, strict=False))
        limits, windows = meld_limits(rules), run_windows(rules)
        assert header["windows"] == len(windows)
        assert len(encoded) == len(header) + len(_native.WINDOW_FIELDS) * len(windows)
        assert (header["set_naturals"], header["set_jokers"]) == (
            limits.set_naturals,
            limits.set_jokers,
        )
        assert (header["first_position"], header["last_position"]) == (
            limits.positions[0],
            limits.positions[-1],
        )
        body = encoded[len(header) :]
        assert [tuple(body[i : i + 2]) for i in range(0, len(body), 3)] == list(windows)
        assert list(body[2::3]) == [limits.run_jokers(length) for _, length in windows]
        assert encoded is _native.encode_meld_rules(rules.meld_rules)  # one tuple, cached


@pytest.mark.parametrize("name", ["distance", "table"])
def test_the_cores_read_the_layout_python_writes_and_refuse_what_does_not_fit(name):
    core = compiled(name)
    assert len(_native.MELD_RULE_FIELDS) == core.RULES_HEADER
    assert len(_native.WINDOW_FIELDS) == core.WINDOW_FIELDS
    most = max(len(run_windows(RuleSet.preset(p))) for p in RuleSet.presets())
    assert most <= core.MAX_WINDOWS
    encoded = list(_native.encode_meld_rules(WIKIPEDIA))
    hand = [0] * 53
    assert core.distance(encoded, 1, 0, hand) == 3  # a list is read as well as the tuple
    header = len(_native.MELD_RULE_FIELDS)
    window = header + 3  # the second window's first field
    bad = {
        "fewer integers": encoded[: header - 1],
        "not WINDOW_FIELDS": encoded[:-1],
        "number of run windows": [*encoded[: header - 1], 0],
        "outside the run positions": [*encoded[:window], 14, *encoded[window + 1 :]],
        "run positions": [*encoded[:9], 0, *encoded[10:]],
        "expected at most": encoded + [0] * (3 * core.MAX_WINDOWS),
    }
    for reason, rules in bad.items():
        with pytest.raises(ValueError, match=f"rules: .*{reason}"):
            core.distance(rules, 1, 0, hand)
    assert core.distance(tuple(encoded), 1, 0, hand) == 3  # and it still counts after


# ---------------------------------------------------------------------------------------
# The exact sweep's step


#: (contract, rules, ranks, suits, decks, jokers, cards): tiny shoes the reference counts.
SWEEP_CASES = [
    (Contract(sets=1), STANDARD, LOW, [H, S], 1, 2, 5),
    (Contract(runs=1), NO_ACE_LOW, LOW, [H, S], 1, 2, 5),
    (Contract(sets=1, runs=1), WIKIPEDIA, LOW, [H, S], 1, 2, 7),
    (Contract(sets=1, runs=1), SHORT_RUNS, LOW[:4], [H, S], 2, 1, 6),
]


def _shoe(case) -> tuple[Contract, dict]:
    contract, rules, ranks, suits, decks, jokers, cards = case
    shoe = {"rules": rules, "ranks": ranks, "suits": suits, "decks": decks}
    return contract, {**shoe, "jokers": jokers, "cards": cards}


class SweepCases:
    """The exact counts of the sweep under test (set up by the subclass's fixture)."""

    @pytest.mark.parametrize("case", SWEEP_CASES, ids=lambda case: f"{case[0]}-{case[1].name}")
    def test_dealt_counts_are_the_references(self, case):
        contract, shoe = _shoe(case)
        assert dealt_count(contract, **shoe) == reference_dealt_count(contract, **shoe) > 0

    def test_distance_distribution_is_the_references(self):
        contract, shoe = _shoe((Contract(runs=1), STANDARD, LOW[:3], [H], 2, 1, 3))
        expected = reference_distance_distribution(contract, **shoe)
        assert distance_distribution(contract, **shoe) == expected
        assert len(expected) > 1


class TestSweepPython(SweepCases):
    @pytest.fixture(autouse=True)
    def _python(self, monkeypatch, without_core):
        without_core("sweep")
        monkeypatch.setattr(exact, "_CACHE", {})
        monkeypatch.setattr(layers.Sweep, "run_native", lambda *a: pytest.fail("C ran"))


class TestSweepC(SweepCases):
    @pytest.fixture(autouse=True)
    def _compiled(self, monkeypatch):
        compiled("sweep")
        monkeypatch.setattr(exact, "_CACHE", {})
        monkeypatch.setattr(layers.Sweep, "run_python", lambda *a: pytest.fail("Python ran"))


# ---------------------------------------------------------------------------------------
# The face


def test_a_missing_core_fails_only_where_it_is_required(monkeypatch, without_core):
    without_core("distance")
    assert _native.available()["distance"] is False
    monkeypatch.delenv(_native.REQUIRE_VARIABLE, raising=False)
    assert _native.required("distance") is None
    with pytest.raises(_native.NotBuiltError, match="'distance'.*contract_distance counts"):
        _native.require("distance")
    monkeypatch.setenv(_native.REQUIRE_VARIABLE, "1")
    with pytest.raises(_native.NotBuiltError, match="rummykit._native._distance"):
        _native.required("distance")
    with pytest.raises(RummyError, match="no compiled core named 'fast'"):
        _native.require("fast")
