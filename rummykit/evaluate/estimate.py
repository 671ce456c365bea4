"""One estimate with its 95% interval, whatever it estimates.

A value measured on samples is an :class:`Estimate`: its mean, the ends of its 95%
interval and the number of independent values behind it. Three ways make one, each the
one home of its interval:

* :meth:`Estimate.from_counts`: a share of successes, with Wilson's score interval
  (:func:`rummykit.chance.wilson_interval`), as the dealt-hand simulations report;
* :meth:`Estimate.from_values` (also :func:`interval`): a mean of independent values,
  with Student's t interval, as duplicate comparisons, the ladder and the review report;
* :func:`normal_interval`: a mean from its standard error, mean +- z standard errors (the
  completion tables' means, OutsBot's game differences, a paired comparison of two
  discards).

>>> share = Estimate.from_counts(25, 100)
>>> share.mean, share.n, share.successes
(0.25, 100, 25)
>>> print(share)
about 25% (95%: 18% to 34%), by Wilson's score; standard error 4.3 percentage points; 25 of 100
>>> print(Estimate.from_values([1.0, 2.0, 3.0]))
+2.00 [-0.48, +4.48]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rummykit.chance import Z95, estimate_text, stderr_text, wilson_interval
from rummykit.engine.checks import items, real
from rummykit.errors import ArgumentError

__all__ = ["Estimate", "interval", "normal_interval"]

# Student's t, 97.5% quantile, for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


@dataclass(frozen=True)
class Estimate:
    """A value measured on samples, with its 95% interval.

    A share of successes (:meth:`from_counts`) also keeps its count of successes, says
    itself in words of chance and has its binomial standard error; other estimates say
    themselves as a signed number with their interval.

    >>> Estimate(2.0, 1.5, 2.5, 10)
    Estimate(mean=2.0, low=1.5, high=2.5, n=10)
    >>> Estimate.from_counts(3, 10)
    Estimate.from_counts(3, 10)
    """

    mean: float
    """The estimate: the mean, or the share ``successes / n``."""
    low: float
    """Lower end of the 95% interval."""
    high: float
    """Upper end of the 95% interval."""
    n: int
    """Independent values behind it (deals, hands, decisions)."""
    successes: int | None = None
    """For a share made by :meth:`from_counts`, the successes among the ``n`` trials."""

    @classmethod
    def from_counts(cls, successes: int, n: int) -> Estimate:
        """The share ``successes / n`` with its 95% Wilson score interval.

        >>> Estimate.from_counts(0, 4).high < 0.5
        True
        >>> Estimate.from_counts(5, 4)
        Traceback (most recent call last):
        ...
        rummykit.errors.ArgumentError: need 0 <= successes <= n and n >= 1, got 5 of 4
        """
        if not isinstance(n, int) or n < 1 or not 0 <= successes <= n:
            raise ArgumentError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
        low, high = wilson_interval(successes, n)
        return cls(successes / n, low, high, n, successes)

    @classmethod
    def from_values(
        cls, values: list[float], bounds: tuple[float, float] | None = None
    ) -> Estimate:
        """The mean of ``values`` with a 95% Student-t interval (a single value: itself),
        its ends rounded to 3 places and clipped to ``bounds`` when given (a share lies in
        [0, 1], a difference of shares in [-1, 1]).

        >>> Estimate.from_values([1.0, 2.0, 3.0])
        Estimate(mean=2.0, low=-0.484, high=4.484, n=3)
        >>> Estimate.from_values([0.0, 0.25, 0.5], bounds=(0, 1)).low
        0
        """
        # Each value checked and kept as given (an int stays an int).
        values = items(
            "values", values, lambda name, v: (real(name, v), v)[1], what="a list of numbers"
        )
        if bounds is not None:
            items("bounds", bounds, lambda name, b: real(name, b), what="a pair (low, high)")
            if len(bounds) != 2 or bounds[0] > bounds[1]:
                raise ArgumentError(
                    f"bounds must be a pair (low, high) with low <= high, got {bounds!r}"
                )
        n = len(values)
        if n == 0:
            raise ArgumentError("values: an interval needs at least one value")
        mean = sum(values) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        df = n - 1
        t = _T975[df - 1] if df <= 30 else 1.96 + 2.4 / df
        half = t * math.sqrt(var / n)
        low, high = round(mean - half, 3), round(mean + half, 3)
        if bounds is not None:
            low, high = max(low, bounds[0]), min(high, bounds[1])
        return cls(mean, low, high, n)

    # The names a share's figures have in the odds tables (columns p, ci_low, ci_high).
    @property
    def p(self) -> float:
        """The share (the same as :attr:`mean`)."""
        return self.mean

    @property
    def ci_low(self) -> float:
        """Lower end of the 95% interval (the same as :attr:`low`)."""
        return self.low

    @property
    def ci_high(self) -> float:
        """Upper end of the 95% interval (the same as :attr:`high`)."""
        return self.high

    @property
    def stderr(self) -> float | None:
        """A share's binomial standard error ``sqrt(p (1 - p) / n)``; None for an
        estimate that is not a share of counted successes.

        >>> round(Estimate.from_counts(25, 100).stderr, 4), Estimate(1.0, 0.5, 1.5, 3).stderr
        (0.0433, None)
        """
        if self.successes is None:
            return None
        return math.sqrt(self.mean * (1 - self.mean) / self.n)

    def to_dict(self) -> dict:
        """As plain data (the mean, the interval's ends and n)."""
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}

    def __str__(self) -> str:
        """A share in words of chance, with its interval, standard error and counts; any
        other estimate as a signed number with its interval.

        >>> print(Estimate(-0.5, -1.25, 0.25, 8))
        -0.50 [-1.25, +0.25]
        """
        if self.successes is None:
            return f"{self.mean:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"
        return (
            f"{estimate_text(self.mean, self.low, self.high)}, by Wilson's score; standard "
            f"error {stderr_text(self.stderr, self.mean)}; {self.successes:,} of {self.n:,}"
        )

    def __repr__(self) -> str:
        if self.successes is not None:
            return f"Estimate.from_counts({self.successes!r}, {self.n!r})"
        return f"Estimate(mean={self.mean!r}, low={self.low!r}, high={self.high!r}, n={self.n!r})"

    def _repr_html_(self) -> str | None:
        if self.successes is None:
            return None  # the plain text says it
        words = estimate_text(self.mean, self.low, self.high)
        return (
            f"<p><b>{words}</b>; standard error {stderr_text(self.stderr, self.mean)} "
            f"({self.successes:,} of {self.n:,} hands)</p>"
        )


def interval(values: list[float], bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of ``values`` with its 95% Student-t interval: :meth:`Estimate.from_values`.

    >>> interval([1.0, 2.0, 3.0])
    Estimate(mean=2.0, low=-0.484, high=4.484, n=3)
    >>> interval([0.0, 0.25, 0.5], bounds=(0, 1)).low
    0
    """
    return Estimate.from_values(values, bounds)


def normal_interval(mean: float, stderr: float, *, z: float = Z95) -> tuple[float, float]:
    """The interval ``mean`` +- ``z`` standard errors (95% by default; the committed
    tables that were built with z = 1.96 pass it).

    >>> [round(end, 6) for end in normal_interval(2.0, 5.0, z=1.96)]
    [-7.8, 11.8]
    """
    mean = real("mean", mean)
    stderr = real("stderr", stderr, low=0)
    z = real("z", z, low=0)
    return (mean - z * stderr, mean + z * stderr)
