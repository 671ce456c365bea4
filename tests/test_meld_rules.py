"""One home for the meld rules (issue 17, item 1).

Every RuleSet field belongs to a part, "meld" or "play" (its metadata). The meld fields
are exactly :class:`~rummykit.engine.rules.MeldRules`; the exact sweep's key, the contract
solver's cache and the property-test strategies derive from it, so a meld field left out
of any of them makes :func:`uncovered` name it. The meld functions are checked to read
the meld fields only, so a field they read cannot be marked "play" by mistake.
"""

from __future__ import annotations

import dataclasses
import random
import re
import typing

import pytest
from hypothesis import HealthCheck, find, settings

from rummykit import RuleSet
from rummykit.agents.bots import could_improve
from rummykit.engine import search
from rummykit.engine.cards import Card, Rank, Suit
from rummykit.engine.melds import check_lay_down, check_meld, lay_off_options, swap_joker
from rummykit.engine.rules import RULE_PARTS, MeldRules, meld_limits, run_windows
from rummykit.errors import IllegalMeldError, RuleSetError
from tests.support.strategies import MELD_RULE_STRATEGIES, custom_rules, missing_strategies

STANDARD = RuleSet.preset("standard")
PRESETS = [RuleSet.preset(name) for name in RuleSet.presets()]


def _parts(cls: type) -> dict[str, str | None]:
    return {f.name: f.metadata.get("part") for f in dataclasses.fields(cls)}


def _other_values(cls: type, name: str, value: object) -> list:
    """Values of field ``name`` of ``cls`` other than ``value``, by its type."""
    kind = typing.get_type_hints(cls)[name]
    if kind is bool:
        return [not value]
    if typing.get_origin(kind) is typing.Literal:
        return [v for v in typing.get_args(kind) if v != value]
    if kind is int:
        return [v for v in range(8) if v != value]
    if kind == int | None:
        return [v for v in [None, *range(8)] if v != value]
    return []


def _variant(rules: RuleSet, name: str) -> RuleSet | None:
    """``rules`` with field ``name`` changed, the first other value RuleSet accepts."""
    for value in _other_values(type(rules), name, getattr(rules, name)):
        try:
            return dataclasses.replace(rules, **{name: value})
        except RuleSetError:
            continue
    return None


def uncovered(cls: type = RuleSet) -> list[str]:
    """What the one home of the meld rules leaves out for RuleSet class ``cls``: fields
    with no part, meld fields not in MeldRules (nor so the sweep key, the solver's cache
    or the strategies), and the reverse."""
    problems = []
    parts = _parts(cls)
    problems += [f"{name}: no part" for name, part in parts.items() if part not in RULE_PARTS]
    meld = [name for name, part in parts.items() if part == "meld"]
    home = [f.name for f in dataclasses.fields(MeldRules)]
    problems += [f"{name}: not in MeldRules" for name in meld if name not in home]
    problems += [f"{name}: in MeldRules, not a meld field" for name in home if name not in meld]
    base = cls()
    for name in meld:
        other = _variant(base, name)
        if other is None:
            problems.append(f"{name}: no other value to try")
            continue
        if other.meld_rules == base.meld_rules:
            problems.append(f"{name}: the sweep key ignores it")
        if search._solver(other) is search._solver(base):
            problems.append(f"{name}: the solver's cache ignores it")
        if name not in MELD_RULE_STRATEGIES:
            problems.append(f"{name}: no strategy draws it")
    return problems


def test_every_meld_field_is_covered():
    assert uncovered() == []


def test_the_meld_fields():
    meld = [name for name, part in _parts(RuleSet).items() if part == "meld"]
    assert meld == [
        "min_set_size",
        "min_run_size",
        "max_jokers_per_meld",
        "min_naturals_in_set",
        "min_naturals_in_run",
        "ace_low",
        "ace_high",
        "same_suit_runs",
    ]
    assert "extra_melds" not in meld and "joker_swap" not in meld  # lay-down, swap: play


def test_an_uncovered_meld_field_is_found():
    # The example, added to RuleSet and marked as a meld rule, but in nothing
    # else: MeldRules, and so the sweep key, the solver and the strategies, miss it.
    extended = dataclasses.make_dataclass(
        "Extended",
        [("adjacent_jokers", bool, dataclasses.field(default=True, metadata={"part": "meld"}))],
        bases=(RuleSet,),
        frozen=True,
    )
    assert uncovered(extended) == [
        "adjacent_jokers: not in MeldRules",
        "adjacent_jokers: the sweep key ignores it",
        "adjacent_jokers: the solver's cache ignores it",
        "adjacent_jokers: no strategy draws it",
    ]
    unmarked = dataclasses.make_dataclass(
        "Unmarked", [("adjacent_jokers", bool, True)], bases=(RuleSet,), frozen=True
    )
    assert uncovered(unmarked) == ["adjacent_jokers: no part"]


def test_play_fields_share_sweeps_and_solvers():
    for name, part in _parts(RuleSet).items():
        if part != "play":
            continue
        other = _variant(STANDARD, name)
        if other is None:  # (tables and tuples: no value to try by type)
            continue
        assert other.meld_rules == STANDARD.meld_rules, name
        assert search._solver(other) is search._solver(STANDARD), name


def test_the_strategies_vary_every_meld_field():
    assert missing_strategies() == []
    assert set(MELD_RULE_STRATEGIES) == {f.name for f in dataclasses.fields(MeldRules)}
    quick = settings(database=None, max_examples=500, suppress_health_check=list(HealthCheck))
    for name in MELD_RULE_STRATEGIES:
        default = getattr(STANDARD, name)
        found = find(
            custom_rules(), lambda r, n=name, d=default: getattr(r, n) != d, settings=quick
        )
        assert getattr(found, name) != default


def test_meld_rules_of_a_rule_set():
    rules = RuleSet.preset("pagat")
    meld = rules.meld_rules
    assert meld is rules.meld_rules  # computed once
    assert dataclasses.asdict(meld) == {
        f.name: getattr(rules, f.name) for f in dataclasses.fields(MeldRules)
    }
    assert meld == RuleSet.preset("pagat").meld_rules
    assert hash(meld) == hash(RuleSet.preset("pagat").meld_rules)
    assert meld_limits(rules) is meld_limits(meld)
    assert run_windows(rules) == run_windows(meld)


def test_meld_rules_are_checked():
    with pytest.raises(RuleSetError, match="min_naturals_in_run"):
        dataclasses.replace(STANDARD.meld_rules, min_naturals_in_run=0)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_meld_limits_against_the_fields(rules):
    limits = meld_limits(rules)
    assert limits.set_cards == max(rules.min_set_size, rules.min_naturals_in_set)
    # A smallest set holds set_naturals naturals, and set_cards - set_naturals jokers.
    jokers = limits.set_cards - limits.set_naturals
    assert limits.set_naturals >= rules.min_naturals_in_set
    assert limits.jokers_ok(jokers)
    assert limits.set_naturals == rules.min_naturals_in_set or not limits.jokers_ok(jokers + 1)
    assert limits.positions == rules.run_positions()
    assert limits.separated == (rules.same_suit_runs == "separated")


@pytest.mark.parametrize(
    "rules",
    [
        *PRESETS,
        dataclasses.replace(STANDARD, max_jokers_per_meld=None, min_naturals_in_run=1),
        dataclasses.replace(STANDARD, min_run_size=3, ace_low=False, max_jokers_per_meld=0),
    ],
    ids=lambda r: f"{r.name}-{r.min_run_size}-{r.max_jokers_per_meld}",
)
def test_run_ok_and_run_windows(rules):
    """MeldLimits.run_ok says what check_meld says of cards of one suit in sequence, and
    every legal run holds a legal run on one of run_windows (what lets the contract
    searches try those windows only)."""
    rng = random.Random(17)
    limits = meld_limits(rules)
    windows = run_windows(rules)
    assert len(set(windows)) == len(windows)
    positions = rules.run_positions()
    for start in positions:
        for length in range(1, positions[-1] - start + 2):
            for naturals in range(1, length + 1):
                for _ in range(3):  # where the jokers sit, at random
                    jokers = set(rng.sample(range(start, start + length), length - naturals))
                    cards = [
                        Card.joker(p)
                        if p in jokers
                        else Card(Rank.ACE if p in (1, 14) else Rank(p), Suit.HEARTS)
                        for p in range(start, start + length)
                    ]
                    legal = limits.run_ok(length, naturals)
                    assert check_meld(cards, rules, kind="run").ok == legal, (start, cards)
                    if legal:
                        assert any(
                            start <= s
                            and s + n <= start + length
                            and limits.run_ok(n, sum(p not in jokers for p in range(s, s + n)))
                            for s, n in windows
                        ), (start, cards)


class _MeldView:
    """A RuleSet seen through its meld fields only (and ``allowed`` play fields):
    reading any other field raises, so a meld function that reads one fails."""

    # It passes the searches' argument check (isinstance(rules, RuleSet)) as the RuleSet
    # it stands for; every field it lets through is that RuleSet's.
    __class__ = property(lambda self: RuleSet)

    def __init__(self, rules: RuleSet, allowed: tuple[str, ...] = ()) -> None:
        self._rules = rules
        self._names = {f.name for f in dataclasses.fields(MeldRules)} | set(allowed)

    def __getattr__(self, name: str):
        if name in self._names or name in ("meld_rules", "run_positions"):
            return getattr(self._rules, name)
        raise AssertionError(f"a meld function read the play rule {name!r}")


_SHOE = [Card(rank, suit, deck) for deck in range(2) for suit in Suit for rank in Rank]
_SHOE += [Card.joker(k) for k in range(4)]


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_meld_functions_read_only_meld_rules(rules):
    """The functions that decide melds, lay-offs and contracts read the meld fields (and
    check_lay_down the play rule extra_melds, swap_joker joker_swap), nothing else."""
    view = _MeldView(rules)
    rng = random.Random(17)
    lay_offs = swaps = 0
    for _ in range(25):
        cards = rng.sample(_SHOE, 30)
        hand, others = cards[:10], cards[10:]
        contract = rng.choice(rules.contracts)
        assert search.contract_distance(hand, contract, view) == search.contract_distance(
            hand, contract, rules
        )
        assert search.contract_within(hand, contract, view, 2) == search.contract_within(
            hand, contract, rules, 2
        )
        assert could_improve(hand, others[0], contract, view) == could_improve(
            hand, others[0], contract, rules
        )
        for size in (3, 4, 5):
            assert check_meld(hand[:size], view) == check_meld(hand[:size], rules)
        missing = search.contract_completion(hand, contract, view)
        assert missing == search.contract_completion(hand, contract, rules)
        found = search.find_contract([*hand, *missing], contract, view)
        assert found is not None
        assert found == search.find_contract([*hand, *missing], contract, rules)
        groups = [meld.cards for meld in found]
        lay_down = check_lay_down(groups, contract, _MeldView(rules, ("extra_melds",)))
        assert lay_down == check_lay_down(groups, contract, rules)
        for meld in found:
            for card in others:
                options = lay_off_options(meld, card, view)
                assert options == lay_off_options(meld, card, rules)
                lay_offs += bool(options)
                if not meld.jokers or card.is_joker:
                    continue
                try:
                    swapped = swap_joker(meld, card, _MeldView(rules, ("joker_swap",)))
                except IllegalMeldError as error:
                    with pytest.raises(IllegalMeldError, match=re.escape(str(error))):
                        swap_joker(meld, card, rules)
                else:
                    assert swapped == swap_joker(meld, card, rules)
                    swaps += 1
    assert lay_offs and swaps  # (the paths above were taken)
