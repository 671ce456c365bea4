"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

import dataclasses

from hypothesis import assume
from hypothesis import strategies as st

from rummykit import RuleSet
from rummykit.engine.rules import MeldRules
from rummykit.errors import RuleSetError

STANDARD = RuleSet.preset("standard")

#: A strategy for each meld rule (each field of :class:`~rummykit.engine.rules.MeldRules`), with
#: values small enough for quick tests. :func:`custom_rules` draws every field of
#: MeldRules from here, so a meld rule without a strategy fails every test that uses it
#: (and tests/test_meld_rules.py checks that each one varies its field).
MELD_RULE_STRATEGIES = {
    "min_set_size": st.integers(2, 4),
    "min_run_size": st.integers(2, 6),
    "max_jokers_per_meld": st.none() | st.integers(0, 3),
    "min_naturals_in_set": st.integers(1, 4),
    "min_naturals_in_run": st.integers(1, 6),
    "ace_low": st.booleans(),
    "ace_high": st.booleans(),
    "same_suit_runs": st.sampled_from(["unrestricted", "separated"]),
}


def missing_strategies() -> list[str]:
    """The meld rules :data:`MELD_RULE_STRATEGIES` has no strategy for."""
    return [f.name for f in dataclasses.fields(MeldRules) if f.name not in MELD_RULE_STRATEGIES]


@st.composite
def custom_rules(draw) -> RuleSet:
    """Any meld rules RuleSet accepts, every field of MeldRules drawn."""
    missing = missing_strategies()
    if missing:
        raise AssertionError(f"no strategy for the meld rules {missing}: add them here")
    fields = {f.name: draw(MELD_RULE_STRATEGIES[f.name]) for f in dataclasses.fields(MeldRules)}
    try:
        return dataclasses.replace(STANDARD, name="custom", **fields)
    except RuleSetError:
        assume(False)
