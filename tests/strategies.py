"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

import dataclasses

from hypothesis import assume
from hypothesis import strategies as st

from rummykit import RuleSet
from rummykit.errors import RuleSetError

STANDARD = RuleSet.preset("standard")


@st.composite
def custom_rules(draw) -> RuleSet:
    """Any meld rules RuleSet accepts."""
    fields = {
        "min_set_size": draw(st.integers(2, 4)),
        "min_run_size": draw(st.integers(2, 6)),
        "max_jokers_per_meld": draw(st.none() | st.integers(0, 3)),
        "min_naturals_in_set": draw(st.integers(1, 4)),
        "min_naturals_in_run": draw(st.integers(1, 6)),
        "ace_low": draw(st.booleans()),
        "ace_high": draw(st.booleans()),
        "same_suit_runs": draw(st.sampled_from(["unrestricted", "separated"])),
    }
    try:
        return dataclasses.replace(STANDARD, name="custom", **fields)
    except RuleSetError:
        assume(False)
