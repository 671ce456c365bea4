"""Chances in words: the one formatter of a chance for every face of rummykit.

The hints, the widgets, the command line, the tables of :mod:`rummykit.display`, the
charts' labels and the exercises' answers all write a chance through this module, so a
chance reads the same everywhere and never as code:

- :func:`chance_text`, an exact chance: a percentage where that is clear, "1 in N"
  where a percentage would round to nothing, "all but 1 in N" near certainty, and
  ``impossible`` (with its reason where known) or ``certain`` at the ends, never "0%"
  for a chance above zero, never "0.00%", "5.57e-05%" or "1 in 553,997.8";
- :func:`estimate_text`, a simulated estimate with its 95% interval, with as many
  figures as the ends need to differ ("about 36.1% (95%: 35.7% to 36.5%)", never
  "36% to 36%");
- :func:`stderr_text`, a standard error in words;
- :func:`chance_label`, the short form of a heatmap's cell ("1 in 4.6k"), and
  :data:`AXIS_LABELS`, the same rules as a Vega expression for a chart's axis.

>>> chance_text(0.0891), chance_text(1.805e-06), chance_text(0, reason="needs 11 cards")
('8.9% (1 in 11)', '1 in 554,017', 'impossible: needs 11 cards')
>>> estimate_text(0.000217, 0.000193, 0.000244)
'about 1 in 4,600 (95%: 1 in 5,200 to 1 in 4,100)'

This module uses the standard library only (the engine's hints import it).

.. deprecated:: 0.1.0
   ``rummykit.agents.hints.chance_text`` and ``rummykit.odds.tables.chance_text`` moved here:
   import :func:`chance_text` from :mod:`rummykit.chance`. The widgets'
   ``describe_probability`` and the command line's own percentages are gone; each calls
   this module.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rummykit.engine.checks import contract_rules, instance, items, real, whole
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "AXIS_LABELS",
    "MAX_DIGITS",
    "Z95",
    "ONE_IN_BELOW",
    "BELOW_LOWEST_TICK",
    "axis_label",
    "chance_label",
    "chance_text",
    "difference_text",
    "duration_text",
    "estimate_text",
    "exact_text",
    "impossible_reason",
    "log_ticks",
    "stderr_text",
    "wilson_interval",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: Below this chance, a chance reads "1 in N" alone: its percentage would be under 1%.
ONE_IN_BELOW = 0.01
#: Up to this chance (from :data:`ONE_IN_BELOW`), "1 in N" follows the percentage.
BOTH_BELOW = 0.1
#: The most significant figures :func:`estimate_text` gives to tell an interval's ends apart.
MAX_FIGURES = 6
#: The most significant figures :func:`chance_text` (and the tables of
#: :mod:`rummykit.display`) write: a float holds no more than 17.
MAX_DIGITS = 17

#: A Vega expression writing an axis tick (``datum.value``, a chance) by the rules of
#: :func:`chance_text`: a percentage (as many decimals as the tick has, so ticks 3.5% and
#: 4% never both read "4%") from 1% up, "1 in N" below, "0%" at the axis' origin.
AXIS_LABELS = (
    "datum.value <= 0 ? '0%' "
    f": datum.value >= {ONE_IN_BELOW} ? format(datum.value, '~%') "
    ": '1 in ' + format(round(1 / datum.value), ',')"
)


def axis_label(p: float) -> str:
    """A tick of a chance axis, as :data:`AXIS_LABELS` writes it in a chart: "0%" at the
    origin, a percentage with the tick's own decimals from 1% up, "1 in N" below.

    >>> [axis_label(p) for p in (0, 0.035, 0.04, 0.2, 1, 0.001, 0.0001)]
    ['0%', '3.5%', '4%', '20%', '100%', '1 in 1,000', '1 in 10,000']
    """
    p = _chance(p)
    if p == 0:
        return "0%"
    if p >= ONE_IN_BELOW:
        return f"{round(p * 100, 6):g}%"
    return f"1 in {round(1 / p):,}"


#: On a log axis of chances, where an interval reaching 0 ends: this share of the lowest
#: tick (just under it: "and below").
BELOW_LOWEST_TICK = 0.7


def log_ticks(chances) -> list[float]:
    """The ticks of a log axis of ``chances`` (numbers; those at 0 are not drawn): powers
    of ten from below the smallest above 0 up to 100%, at most about seven of them (every
    other power where the chances span many); from 1% when none is above 0. The charts
    (:mod:`rummykit.charts`) and the plain charts (:mod:`rummykit.widgets.plain`) both
    draw these.

    >>> log_ticks([0.2, 0.003, 0.0])
    [0.001, 0.01, 0.1, 1.0]
    >>> log_ticks([2e-9, 0.5])
    [1e-08, 1e-06, 0.0001, 0.01, 1.0]
    """
    chances = items("chances", chances, lambda name, p: _chance(p, name), what="a list of chances")
    positive = [p for p in chances if p > 0]
    first = math.floor(math.log10(min(positive))) if positive else -2
    step = max(1, math.ceil(-first / 6))
    return [10.0 ** (-k) for k in range(0, -first + 1, step)][::-1]


def _chance(p, name: str = "a chance") -> float:
    """``p`` as a float, checked: a number from 0 to 1."""
    if isinstance(p, bool) or not isinstance(p, int | float | Fraction):
        try:  # numpy and polars scalars
            p = float(p)
        except (TypeError, ValueError):
            raise ArgumentTypeError(f"{name} must be a number, got {type(p).__name__}") from None
    p = float(p)
    if not 0 <= p <= 1:  # NaN fails this too
        raise ArgumentError(f"{name} must be between 0 and 1, got {p!r}")
    return p


def _figures(x: float, figures: int, *, whole: bool = False, strip: bool = True) -> str:
    """``x`` (positive) to ``figures`` significant figures with thousands separators and
    no exponent, trailing zeros dropped; with ``whole``, a number of at least
    ``figures`` digits is rounded to a whole number instead ("4,613", not "4,600")."""
    if whole and x >= 10 ** (figures - 1):
        return f"{round(x):,}"
    decimals = figures - 1 - math.floor(math.log10(x))
    rounded = round(x, decimals)
    text = f"{rounded:,.{max(0, decimals)}f}"
    return text.rstrip("0").rstrip(".") if strip and "." in text else text


def _one_in(p: float, figures: int, whole: bool) -> str:
    return f"1 in {_figures(1 / p, figures, whole=whole)}"


def _percent(p: float, figures: int) -> str:
    """``p`` as a percentage to ``figures`` significant figures (at least whole percents)."""
    whole = 1 + math.floor(math.log10(p * 100))  # digits before the point
    return f"{_figures(p * 100, max(figures, whole), strip=False)}%"


def _is_whole(percent: str) -> bool:
    """Whether a percentage of a chance under 1 reads as 100%."""
    return float(percent.rstrip("%").replace(",", "")) >= 100


def _words(p: float, figures: int, whole: bool) -> str:
    if p == 0:
        return "impossible"
    if p == 1:
        return "certain"
    if p >= BOTH_BELOW:
        text = _percent(p, figures)
        if not _is_whole(text):
            return text
        return f"all but {_one_in(1 - p, figures, whole)}"
    if p >= ONE_IN_BELOW:
        return f"{_percent(p, figures)} ({_one_in(p, figures, whole)})"
    return _one_in(p, figures, whole)


def chance_text(p: float | Fraction, *, digits: int = 2, reason: str | None = None) -> str:
    """A chance in words a student can read: a percentage where that is clear (``digits``
    significant figures, 1 to :data:`MAX_DIGITS`), "1 in N" where a percentage would
    round to nothing (N whole from ``digits`` digits up), "all but 1 in N" near certainty;
    ``impossible`` (with ``reason``, a str, when given, after a colon) and ``certain`` at
    the ends.

    >>> chance_text(0.4567), chance_text(0.0231), chance_text(0.0002168)
    ('46%', '2.3% (1 in 43)', '1 in 4,613')
    >>> chance_text(0.9995), chance_text(1), chance_text(0)
    ('all but 1 in 2,000', 'certain', 'impossible')
    >>> chance_text(Fraction(3, 47), digits=3), chance_text(5.57e-07)
    ('6.38% (1 in 15.7)', '1 in 1,795,332')
    >>> chance_text(0, reason="needs 11 cards")
    'impossible: needs 11 cards'
    >>> chance_text(1.5)
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: a chance must be between 0 and 1, got 1.5
    >>> chance_text(0.5, digits=10**9)
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: digits must be an integer from 1 to 17, got 1000000000: a float holds no more figures
    """
    p = _chance(p)
    whole("digits", digits, low=1, high=MAX_DIGITS, hint="a float holds no more figures")
    if reason is not None and not isinstance(reason, str):
        raise ArgumentTypeError(f"reason must be a str or None, got {reason!r}")
    text = _words(p, digits, whole=True)
    return f"{text}: {reason}" if reason and p == 0 else text


def exact_text(p: Fraction | int, *, reason: str | None = None) -> str:
    """An exact chance: the fraction, then :func:`chance_text`; an impossible or a
    certain chance in a word (with ``reason``, when given, for the impossible one).

    >>> exact_text(Fraction(12, 425)), exact_text(Fraction(5, 8972))
    ('12/425 = 2.8% (1 in 35)', '5/8972 = 1 in 1,794')
    >>> exact_text(Fraction(0), reason="3 runs need 12 cards"), exact_text(1)
    ('impossible: 3 runs need 12 cards', 'certain')
    """
    if isinstance(p, bool) or not isinstance(p, int | Fraction):
        raise ArgumentTypeError(f"an exact chance must be a Fraction, got {type(p).__name__}")
    words = chance_text(p, reason=reason)
    return words if p in (0, 1) else f"{p} = {words}"


def _end(p: float, figures: int, percent: bool) -> str:
    """One end of an interval, in the form its estimate takes."""
    if p == 0:
        return "0"
    if p == 1:
        return "100%"
    if percent:
        text = _percent(p, figures)
        while _is_whole(text) and figures < MAX_FIGURES + 3:
            figures += 1
            text = _percent(p, figures)
        return text
    return _one_in(p, figures, whole=False)


def estimate_text(
    p: float, low: float, high: float, *, level: str = "95%", of: str = "hands"
) -> str:
    """A simulated estimate ``p`` with its interval from ``low`` to ``high``: "about"
    the estimate, then the interval, each to as few significant figures (two at least)
    as tell the estimate and the interval's ends apart; a percentage from 1% up, "1 in N" below, for the
    three alike. An estimate of 0 or 1 (none of the ``of`` simulated, or all of them)
    says so.

    >>> estimate_text(0.3612, 0.3570, 0.3654)
    'about 36.1% (95%: 35.7% to 36.5%)'
    >>> estimate_text(0.0891, 0.0852, 0.0932)
    'about 8.9% (95%: 8.5% to 9.3%)'
    >>> estimate_text(0.0, 0.0, 0.000192)
    'none of the hands (95%: up to 1 in 5,200)'
    >>> estimate_text(1.0, 0.61, 1.0, of="rounds")
    'all of the rounds (95%: at least 61%)'
    >>> estimate_text(0.5, 0.6, 0.7)
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: an estimate must lie in its interval, got 0.5 outside 0.6 to 0.7
    """
    p, low, high = _chance(p, "an estimate"), _chance(low, "an interval's end"), _chance(high)
    if not isinstance(level, str):
        raise ArgumentTypeError(f"level must be a str (such as '95%'), got {level!r}")
    instance("of", of, str, "a plural noun (such as 'hands')")
    if not low <= p <= high:
        raise ArgumentError(
            f"an estimate must lie in its interval, got {p!r} outside {low!r} to {high!r}"
        )
    percent = p >= ONE_IN_BELOW
    for figures in range(2, MAX_FIGURES + 1):
        # Enough figures that the estimate and its ends read apart where they differ.
        texts = [_end(value, figures, percent) for value in (low, p, high)]
        if all(
            texts[i] != texts[j] or values[i] == values[j]
            for values in [(low, p, high)]
            for i, j in ((0, 1), (1, 2), (0, 2))
        ):
            break
    ends = (texts[0], texts[2])
    if p == 0:
        return f"none of the {of} ({level}: up to {ends[1]})"
    if p == 1:
        if of == "hands":
            return f"every hand ({level}: at least {ends[0]})"
        return f"all of the {of} ({level}: at least {ends[0]})"
    value = _end(p, figures, percent)
    if low == 0:
        return f"about {value} ({level}: up to {ends[1]})"
    return f"about {value} ({level}: {ends[0]} to {ends[1]})"


def difference_text(mean: float, low: float, high: float, *, level: str = "95%") -> str:
    """A difference of two shares (from -1 to 1) with its interval, in percentage points.

    >>> difference_text(0.031, -0.012, 0.074)
    '+3.1 percentage points (95%: -1.2 to +7.4)'
    >>> difference_text(0.0, 0.0, 0.0)
    'no difference (+0.0 percentage points)'
    """
    for name, value in (("mean", mean), ("low", low), ("high", high)):
        real(name, value, low=-1, high=1)
    instance("level", level, str, "a str")
    if low == high == mean == 0:
        return "no difference (+0.0 percentage points)"
    return f"{100 * mean:+.1f} percentage points ({level}: {100 * low:+.1f} to {100 * high:+.1f})"


def stderr_text(stderr: float, p: float | None = None) -> str:
    """A standard error in words: percentage points to two significant figures, or, for
    an estimate ``p`` under 1%, as a share of the estimate (points of a chance that small
    read as noughts).

    >>> stderr_text(0.00213), stderr_text(0.00001, p=0.0002), stderr_text(0)
    ('0.21 percentage points', '5% of the estimate', '0 (every hand alike)')
    """
    stderr = _chance(stderr, "a standard error")
    if stderr == 0:
        return "0 (every hand alike)"
    if p is not None and 0 < _chance(p, "an estimate") < ONE_IN_BELOW:
        return f"{_figures(100 * stderr / p, 2)}% of the estimate"
    return f"{_figures(100 * stderr, 2)} percentage points"


def chance_label(p: float) -> str:
    """A chance short enough for a heatmap's cell: a percentage from 1% up (two figures),
    "1 in N" below (N to two figures, k for thousand, M for million), ">99%" near
    certainty, and "impossible" (a chance that rounds small is never "0%").

    >>> [chance_label(p) for p in (0.418, 0.0891, 0.00132, 0.0002168, 1.805e-6, 0.0)]
    ['42%', '8.9%', '1 in 760', '1 in 4.6k', '1 in 550k', 'impossible']
    >>> chance_label(0.9991), chance_label(1.0)
    ('>99%', 'certain')
    """
    p = _chance(p)
    if p == 0 or p == 1:
        return _words(p, 2, whole=True)
    if p >= 0.995:  # a whole percentage would round to 100%
        return ">99%"
    if p >= ONE_IN_BELOW:
        return _percent(p, 2)
    n = float(_figures(1 / p, 2).replace(",", ""))
    for size, suffix in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= size:
            return f"1 in {_figures(n / size, 2)}{suffix}"
    return f"1 in {round(n):,}"


def impossible_reason(contract, rules, cards: int) -> str | None:
    """Why ``contract`` cannot be held in ``cards`` cards (0 or more) under ``rules``, or
    None where the hand is large enough (a chance of 0 then has no reason this can name).

    >>> from rummykit.engine.rules import RuleSet
    >>> standard = RuleSet.preset("standard")
    >>> impossible_reason(standard.contracts[6], standard, 11), impossible_reason(
    ...     standard.contracts[0], standard, 10)
    ('3 runs need 12 cards', None)
    """
    contract_rules(contract, rules)
    whole("cards", cards, low=0)
    needed = contract.min_cards(rules)
    if cards >= needed:
        return None
    verb = "needs" if contract.melds == 1 else "need"
    return f"{contract} {verb} {needed} cards"


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    centre = (p + z^2 / 2n) / (1 + z^2 / n),
    half-width = z sqrt(p (1 - p) / n + z^2 / 4n^2) / (1 + z^2 / n).

    ``successes`` and ``n`` may be effective (non-integer) counts, ``0 <= successes <=
    n`` and ``n > 0`` (an ArgumentError otherwise: no trials give no interval).

    >>> low, high = wilson_interval(0, 100)
    >>> low, round(high, 4)
    (0.0, 0.037)
    >>> wilson_interval(10, 10)[1]
    1.0
    """
    n = real("n", n, low=0)
    if n == 0:
        raise ArgumentError("n must be a number of trials > 0, got 0: no trials, no interval")
    successes = real("successes", successes, low=0, high=n)
    z = real("z", z, low=0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def duration_text(seconds: float) -> str:
    """A planned duration in words.

    >>> duration_text(3.75), duration_text(76.2), duration_text(717), duration_text(9000)
    ('about 4 s', 'about 1 min 16 s', 'about 12 min', 'about 2.5 h')
    """
    seconds = real("seconds", seconds, low=0)
    if seconds < 60:
        return f"about {max(1, round(seconds))} s"
    if seconds < 600:
        minutes, rest = divmod(round(seconds), 60)
        return f"about {minutes} min {rest} s" if rest else f"about {minutes} min"
    if seconds < 5400:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"
