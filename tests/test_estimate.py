"""One Estimate with its interval (issue 51, item 2): a share, a mean of values and a mean
from its standard error are made in one module, whoever reports them."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rummykit.evaluate.duplicate as duplicate
import rummykit.odds.estimate as odds_estimate
from rummykit.chance import Z95, wilson_interval
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.estimate import Estimate, interval, normal_interval


def test_every_estimate_is_the_one_class():
    assert odds_estimate.Estimate is duplicate.Estimate is Estimate
    assert duplicate.interval is interval


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_a_share_is_its_counts_with_wilsons_interval(counts):
    successes, n = counts
    share = Estimate.from_counts(successes, n)
    assert (share.low, share.high) == wilson_interval(successes, n)
    assert share.mean == share.p == successes / n and share.successes == successes
    assert share.stderr == pytest.approx(math.sqrt(share.p * (1 - share.p) / n))
    assert eval(repr(share), {"Estimate": Estimate}) == share  # repr is a constructor


@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=40))
def test_a_mean_of_values_has_students_interval(values):
    estimate = interval(values)
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    # The t quantile lies between the normal's (infinite df) and df = 1's.
    half_low, half_high = Z95 * sd / math.sqrt(n), 12.706 * sd / math.sqrt(n)
    assert estimate.mean == mean and estimate.n == n and estimate.successes is None
    assert mean - half_high - 1e-3 <= estimate.low <= mean - half_low + 1e-3 + 1e-9 * abs(mean)
    assert eval(repr(estimate), {"Estimate": Estimate}) == estimate
    assert estimate.stderr is None


def test_the_normal_interval_and_its_refusals():
    assert normal_interval(1.0, 0.5) == (1.0 - Z95 * 0.5, 1.0 + Z95 * 0.5)
    with pytest.raises(ArgumentError, match="stderr"):
        normal_interval(1.0, -0.5)
    with pytest.raises(ArgumentTypeError, match="mean"):
        normal_interval("1", 0.5)
    with pytest.raises(ArgumentError, match="successes <= n"):
        Estimate.from_counts(3, 2)
