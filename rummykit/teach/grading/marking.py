"""Marking one answer against what the key expects, in the grader's process.

An assignment's key (``assignments/keys/NAME.py``, shipped in the autograder zip only) is a
module with ``ASSIGNMENT`` (its name) and ``KEY``: ``{question name: expect(numbers) ->
Expected}``. :func:`mark` compares a submitted value with an :class:`Expected` and says
what was checked and, when the answer earns nothing, why, without the answer: the form
(from the question's public :class:`~rummykit.teach.homework.Form`), then the value, then
whether it is one of the key's known mistakes.

>>> from rummykit.teach.homework import PROBABILITY, Question
>>> q = Question("demo", "q2", "p_joker", PROBABILITY, lambda rng: {}, "at least one joker")
>>> key = Expected.exact(Fraction(1, 3), checked="the chance of at least one joker",
...                      mistakes=[Mistake(Fraction(1, 4), "the chance of exactly one joker")])
>>> mark(q, key, Fraction(2, 6)).earned
True
>>> mark(q, key, Fraction(1, 4)).reason
'not right for your numbers: your value is the chance of exactly one joker'
>>> mark(q, key, 0.333).reason
'got a float, 0.333; give a probability: an exact value (an int or a Fraction), from 0 to 1'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from fractions import Fraction

from rummykit.errors import ArgumentError
from rummykit.teach.grading.values import MISSING, Unsupported
from rummykit.teach.homework.spec import Question

__all__ = ["Expected", "Mark", "Mistake", "mark"]


@dataclasses.dataclass(frozen=True)
class Mistake:
    """A wrong answer the key recognises, and what it shows (said to the student)."""

    value: int | Fraction | float
    said: str
    """What the value is: "the chance of exactly one joker" (never the right answer)."""


@dataclasses.dataclass(frozen=True)
class Expected:
    """What the key accepts as one student's answer to one question."""

    value: int | Fraction | None = None
    """The exact answer (equal as Fractions), or None when an interval is accepted."""
    low: float | None = None
    high: float | None = None
    """The accepted interval, inclusive, when there is no exact value."""
    checked: str = ""
    """What is checked, in words, without the value ("the exact chance of at least one
    joker for your numbers")."""
    hint: str = ""
    """One line of help for a wrong answer, never the answer itself."""
    mistakes: tuple[Mistake, ...] = ()

    @classmethod
    def exact(
        cls,
        value: int | Fraction,
        *,
        checked: str,
        hint: str = "",
        mistakes: Iterable[Mistake] = (),
    ) -> Expected:
        """An exact answer: an int or a Fraction equal to ``value`` is right. A float is
        right only where the question's form takes floats, and then only if it equals
        ``value`` to 12 significant figures."""
        if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
            raise ArgumentError(f"an exact answer is an int or a Fraction, got {value!r}")
        made = cls(value=value, checked=checked, hint=hint)
        return dataclasses.replace(made, mistakes=made._slips(mistakes))

    @classmethod
    def within(
        cls,
        low: float,
        high: float,
        *,
        checked: str,
        hint: str = "",
        mistakes: Iterable[Mistake] = (),
    ) -> Expected:
        """An answer right anywhere from ``low`` to ``high`` (a value read from a table to
        a stated tolerance)."""
        if not (math.isfinite(low) and math.isfinite(high) and low <= high):
            raise ArgumentError(
                f"an interval is two finite numbers, low <= high, got {low}, {high}"
            )
        made = cls(low=float(low), high=float(high), checked=checked, hint=hint)
        return dataclasses.replace(made, mistakes=made._slips(mistakes))

    def _slips(self, mistakes: Iterable[Mistake]) -> tuple[Mistake, ...]:
        """The mistakes whose value is not a right answer: a slip can land on the right
        value for some numbers, and is then no mistake."""
        return tuple(m for m in mistakes if not self.accepts(m.value))

    def accepts(self, value: int | Fraction | float) -> bool:
        """Whether ``value`` (a number of the question's form) is right."""
        if self.value is None:
            return self.low <= float(value) <= self.high
        if isinstance(value, float):
            return _close(value, self.value)
        return Fraction(value) == Fraction(self.value)


def _close(value: float, exact: int | Fraction) -> bool:
    if not math.isfinite(value):
        return False
    target = float(exact)
    return abs(value - target) <= 1e-12 * max(1.0, abs(target))


@dataclasses.dataclass(frozen=True)
class Mark:
    """The grader's verdict on one answer."""

    earned: bool
    checked: str
    """What was checked (the form, then the value), in words."""
    reason: str = ""
    """Why the answer earns nothing (empty when it is right); never the answer."""


def mark(question: Question, expected: Expected, value: object) -> Mark:
    """Mark ``value``, as the submission handed it back (see
    :mod:`~rummykit.teach.grading.values`), against ``expected``."""
    checked = (
        f"{question.form.describe()}; {expected.checked}"
        if expected.checked
        else (question.form.describe())
    )
    if value is MISSING:
        return Mark(
            False,
            checked,
            f"the notebook never set `{question.variable}`: a cell before it failed, or the "
            "variable was renamed",
        )
    if isinstance(value, Unsupported):
        shown = f" ({value.text})" if value.text else ""
        return Mark(
            False,
            checked,
            f"got a value of type {value.type}{shown}; give {question.form.describe()}",
        )
    problem = question.form.problem(value)
    if problem is not None:
        return Mark(False, checked, problem)
    if expected.accepts(value):
        return Mark(True, checked)
    for mistake in expected.mistakes:
        if _same(value, mistake.value):
            return Mark(False, checked, f"not right for your numbers: your value is {mistake.said}")
    hint = f" ({expected.hint})" if expected.hint else ""
    return Mark(False, checked, f"not right for your numbers{hint}")


def _same(value: int | Fraction | float, other: int | Fraction | float) -> bool:
    if isinstance(value, float) or isinstance(other, float):
        return math.isfinite(float(value)) and abs(float(value) - float(other)) <= 1e-9 * max(
            1.0, abs(float(other))
        )
    return Fraction(value) == Fraction(other)
