"""rummykit.chance: the one formatter of chances in words, and nobody else formatting them."""

from __future__ import annotations

import random
import re
import tokenize
from fractions import Fraction
from pathlib import Path

import pytest

from rummykit import RuleSet
from rummykit.chance import (
    AXIS_LABELS,
    axis_label,
    chance_label,
    chance_text,
    estimate_text,
    exact_text,
    impossible_reason,
    stderr_text,
)
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.odds.dealt.simulate import wilson_interval

PACKAGE = Path(__file__).resolve().parent.parent / "rummykit"
# What a chance must never read as: a percentage of noughts, an exponent, a decimal "1 in".
NEVER = re.compile(r"(?<![\d.])0\.0+%|\de-0\d|1 in [\d,]+\.\d+(?![\dkMG])")


@pytest.mark.parametrize(
    ("p", "words"),
    [
        (0.0, "impossible"),
        (1 / 4613, "1 in 4,613"),
        (0.00999, "1 in 100"),
        (0.01, "1.0% (1 in 100)"),
        (0.0231, "2.3% (1 in 43)"),
        (0.1, "10%"),
        (0.994, "99%"),
        (0.9995, "all but 1 in 2,000"),
        (1.0, "certain"),
        (1 / 553_997.8, "1 in 553,998"),
        (5.57e-07, "1 in 1,795,332"),
    ],
)
def test_chance_text_reads_like_a_person(p, words):
    assert chance_text(p) == words


def test_chance_text_never_rounds_a_chance_to_nothing():
    for exponent in range(3, 12):
        p = 10.0**-exponent * 3.7
        text = chance_text(p)
        assert text.startswith("1 in ") and int(text[5:].replace(",", "")) == round(1 / p)
        assert not NEVER.search(text) and not NEVER.search(chance_label(p))
    with pytest.raises(ArgumentError, match="between 0 and 1"):
        chance_text(1.5)
    with pytest.raises(ArgumentError, match="between 0 and 1"):
        chance_text(float("nan"))
    with pytest.raises(ArgumentTypeError, match="must be a number"):
        chance_text("8%")
    with pytest.raises(ArgumentError, match="digits"):
        chance_text(0.5, digits=0)


def test_impossible_is_said_with_its_reason_and_apart_from_a_small_chance():
    standard = RuleSet.preset("standard")
    reason = impossible_reason(standard.contracts[3], standard, 8)
    assert reason == "3 sets need 9 cards"
    assert chance_text(0, reason=reason) == "impossible: 3 sets need 9 cards"
    assert exact_text(Fraction(0), reason=reason) == "impossible: 3 sets need 9 cards"
    # A reason is for an impossible chance only; a tiny one is a number.
    assert chance_text(1e-9, reason=reason) == "1 in 1,000,000,000"
    assert impossible_reason(standard.contracts[3], standard, 9) is None
    assert chance_label(0) == "impossible" and chance_label(1e-7) == "1 in 10M"


def test_an_estimates_ends_never_read_alike():
    rng = random.Random(26)
    for _ in range(2000):
        n = rng.choice([100, 2000, 20_000, 200_000, 10_000_000])
        successes = rng.choice([0, 1, 3, rng.randrange(n + 1), n // 2, n - 1, n])
        p = successes / n
        low, high = wilson_interval(successes, n)
        low, high = min(low, p), max(high, p)
        text = estimate_text(p, low, high)
        assert not NEVER.search(text), text
        ends = re.search(r"\(95%: (.+) to (.+)\)$", text)
        if ends:
            assert ends[1] != ends[2], text
            assert f"about {ends[1]} " not in text and not text.startswith(f"about {ends[2]} ")
    assert estimate_text(0.3612, 0.3570, 0.3654) == "about 36.1% (95%: 35.7% to 36.5%)"
    assert estimate_text(0.000217, 0.000193, 0.000244) == (
        "about 1 in 4,600 (95%: 1 in 5,200 to 1 in 4,100)"
    )


def test_a_standard_error_reads_in_points_or_as_a_share_of_a_small_estimate():
    assert stderr_text(0.00001) == "0.001 percentage points"
    assert stderr_text(0.00001, p=0.0002) == "5% of the estimate"
    assert not NEVER.search(stderr_text(0.000001))


def test_axis_labels_differ_where_ticks_differ_and_match_the_vega_expression():
    ticks = [0.0, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04]
    labels = [axis_label(t) for t in ticks]
    assert len(set(labels)) == len(labels)
    assert labels[:3] == ["0%", "1 in 200", "1%"] and labels[-2:] == ["3.5%", "4%"]
    # The Vega expression has the same parts: "0%" at 0, '~%' from 1%, "1 in N" below.
    assert "'0%'" in AXIS_LABELS and "'~%'" in AXIS_LABELS and "'1 in '" in AXIS_LABELS


# Formatting a chance by hand in a user-facing string: a Python percent format with
# decimals ("{p:.2%}", "{x:.1f}%"), an exponent ("e-05"), or altair's ".2%" tooltips.
HAND_MADE = re.compile(r"""\{[^{}]*:[^{}]*\.\d+%\}|\.\d+f\}%|\de-0\d|format=["']\.\d%""")


def test_no_module_formats_a_chance_itself():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "chance.py":
            continue
        with path.open("rb") as source:
            # The strings of the code (f-strings, docstrings), not its numbers or comments.
            for token in tokenize.tokenize(source.readline):
                if token.type == tokenize.STRING and HAND_MADE.search(token.string):
                    where = f"{path.relative_to(PACKAGE.parent)}:{token.start[0]}"
                    offenders.append(f"{where}: {token.string[:80]}")
    assert offenders == [], "\n".join(offenders)


def test_the_pattern_catches_what_it_is_for():
    for bad in ('f"{p:.2%}"', 'f"{est.p:.1%} to"', 'f"{p * 100:.3f}%"', "5.57e-05", 'format=".2%"'):
        assert HAND_MADE.search(bad), bad
    assert not HAND_MADE.search('f"{chance_text(p)}"')
