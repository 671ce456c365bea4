"""A graded question as a student meets it: its numbers, drawn for one student, and the
form its answer takes. Never its answer: the answer key ships only in the autograder.

A student's numbers for a question come from a seed made of the course (a salt the
teacher sets when building the assignments, so next year's class gets other numbers), the
assignment, the question and the student's ID: the first 8 bytes of the SHA-256 digest of
``"rummykit-homework:COURSE:ASSIGNMENT:QUESTION:ID"`` seed a :class:`random.Random`, from
which the question draws its numbers. Each question draws on its own, so two students who
share one question's numbers almost never share another's.

>>> shoe = Question("demo", "q1", "hands", COUNT, lambda rng: {"decks": rng.randint(1, 4)},
...                 "hands of a shoe")
>>> shoe.numbers("ada.lovelace", course="stat140-2026") == shoe.numbers(" Ada.Lovelace ",
...                                                                        course="stat140-2026")
True
>>> shoe.check(12.0).message
'q1 (hands): got a float, 12.0; give a count: a whole number (an int), 0 or more'
>>> shoe.check(12).ok
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import math
import numbers
import random
import re
from collections.abc import Callable
from fractions import Fraction

from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.teach.students import normalize_id

__all__ = [
    "COUNT",
    "COURSE_PATTERN",
    "EXACT",
    "NUMBER",
    "PROBABILITY",
    "WRITTEN",
    "Check",
    "Form",
    "Question",
    "check_course",
    "no_numbers",
    "question_seed",
]

#: A course salt: what the teacher types at build time (``--course stat140-2026fall``).
COURSE_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_course(course: object) -> str:
    """The course salt, checked: 1 to 64 letters, digits, ``.``, ``_`` or ``-``.

    >>> check_course("stat140-2026fall")
    'stat140-2026fall'
    """
    if not isinstance(course, str):
        raise ArgumentTypeError(f"course must be a str such as 'stat140-2026fall', got {course!r}")
    if not COURSE_PATTERN.fullmatch(course):
        raise ArgumentError(
            "course must be 1 to 64 letters, digits, '.', '_' or '-' (the course and term, "
            f"such as 'stat140-2026fall'), got {course!r}"
        )
    return course


def question_seed(course: str, assignment: str, question: str, student_id: str) -> int:
    """The seed of one student's numbers for one question (see the module's docstring).

    >>> question_seed("stat140-2026fall", "hw1-counting", "q1", "3032123456")
    11605113408042183939
    """
    text = (
        f"rummykit-homework:{check_course(course)}:{assignment}:{question}:"
        f"{normalize_id(student_id)}"
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def no_numbers(rng: random.Random) -> dict:
    """No numbers: the draw of a written question, the same for every student."""
    return {}


@dataclasses.dataclass(frozen=True)
class Form:
    """What an answer looks like: its type and its range. Public: the student's own check
    and the grader both use it; it says nothing of the value that is right."""

    kind: str
    """``"exact"`` (an int or a Fraction), ``"count"`` (an int), ``"number"`` (an int, a
    float or a Fraction) or ``"written"`` (a text answer, marked by hand)."""
    what: str
    """The answer in words: "a probability", "an expected number of draws"."""
    low: Fraction | None = None
    """The smallest sensible value (inclusive), or None."""
    high: Fraction | None = None
    """The largest sensible value (inclusive), or None."""

    def __post_init__(self) -> None:
        if self.kind not in ("exact", "count", "number", "written"):
            raise ArgumentError(
                f"a Form's kind is exact, count, number or written, got {self.kind!r}"
            )

    def describe(self) -> str:
        """The form in words.

        >>> PROBABILITY.describe()
        'a probability: an exact value (an int or a Fraction), from 0 to 1'
        """
        kind = {
            "exact": "an exact value (an int or a Fraction)",
            "count": "a whole number (an int)",
            "number": "a number (an int, a float or a Fraction)",
            "written": "a written answer, in the Markdown cell below the question",
        }[self.kind]
        return f"{self.what}: {kind}{self._range()}"

    def _range(self) -> str:
        low, high = self.low, self.high
        if low is not None and high is not None:
            return f", from {_plain(low)} to {_plain(high)}"
        if low is not None:
            return f", {_plain(low)} or more"
        if high is not None:
            return f", {_plain(high)} or less"
        return ""

    def problem(self, value: object) -> str | None:
        """Why ``value`` does not have this form, or None if it does. ``...`` and None are
        "no answer yet"; a bool is no number; numpy's numbers count as Python's.

        >>> PROBABILITY.problem(Fraction(1, 3)) is None, PROBABILITY.problem(0.3)
        (True, 'got a float, 0.3; give a probability: an exact value (an int or a Fraction), from 0 to 1')
        >>> COUNT.problem(-1)
        'got -1, below 0; give a count: a whole number (an int), 0 or more'
        """
        if self.kind == "written":
            return None
        if value is Ellipsis or value is None:
            shown = "..." if value is Ellipsis else "None"
            return f"no answer yet (the cell still holds {shown}); give {self.describe()}"
        number = _as_number(value)
        if number is None:
            shown = _short(value)
            return f"got {_article(type(value).__name__)}, {shown}; give {self.describe()}"
        if isinstance(number, float) and self.kind != "number":
            return f"got a float, {number!r}; give {self.describe()}"
        if self.kind == "count" and not isinstance(number, int):
            return f"got a Fraction, {number}; give {self.describe()}"
        if isinstance(number, float) and not math.isfinite(number):
            return f"got {number!r}, not a finite number; give {self.describe()}"
        if self.low is not None and number < self.low:
            return f"got {_short(number)}, below {_plain(self.low)}; give {self.describe()}"
        if self.high is not None and number > self.high:
            return f"got {_short(number)}, above {_plain(self.high)}; give {self.describe()}"
        return None


def _as_number(value: object) -> int | Fraction | float | None:
    """``value`` as an int, a Fraction or a float (numpy's scalars included), or None if
    it is no number (a bool is none)."""
    kind = type(value)
    if isinstance(value, bool) or (
        kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")
    ):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        return float(value)
    return None


def _plain(value: Fraction) -> str:
    return str(value) if Fraction(value).denominator != 1 else str(int(value))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _article(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


#: A probability, exactly.
PROBABILITY = Form("exact", "a probability", Fraction(0), Fraction(1))
#: An exact value of any size.
EXACT = Form("exact", "a number")
#: A count.
COUNT = Form("count", "a count", Fraction(0))
#: A number that may be a float (an estimate, a value read from a table).
NUMBER = Form("number", "a number")
#: A written answer, marked by hand.
WRITTEN = Form("written", "a written answer")


@dataclasses.dataclass(frozen=True)
class Check:
    """The student's own check of one answer: its form only. Whether the value is right
    is checked when the notebook is graded, and the message says so; it never says
    "passed"."""

    question: str
    ok: bool
    message: str

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b42318"
        mark = "form checked" if self.ok else "not yet"
        return (
            f'<p style="border-left:4px solid {colour};padding-left:8px">'
            f"<strong>{mark}</strong>: {html.escape(self.message)}</p>"
        )


@dataclasses.dataclass(frozen=True)
class Question:
    """One graded question: where it lives, the variable that holds its answer, the form
    of that answer and how a student's numbers are drawn."""

    assignment: str
    """The assignment's name, as its master notebook's (``hw1-counting``)."""
    name: str
    """The question's name in the master (``q1``)."""
    variable: str | None
    """The notebook variable that holds the answer (None for a written question)."""
    form: Form
    draw: Callable[[random.Random], dict] = dataclasses.field(repr=False)
    """The question's numbers from a seeded :class:`random.Random` (no answer in them)."""
    title: str = ""
    """A few words on what is asked, for the feedback ("hands with exactly k jokers")."""

    def numbers(self, student_id: str, *, course: str) -> dict:
        """This student's numbers for the question."""
        seed = question_seed(course, self.assignment, self.name, student_id)
        return self.draw(random.Random(seed))

    def check(self, value: object) -> Check:
        """The form of ``value`` (see :class:`Check`)."""
        label = f"{self.name} ({self.variable})" if self.variable else self.name
        problem = self.form.problem(value)
        if problem is not None:
            return Check(self.name, False, f"{label}: {problem}")
        return Check(
            self.name,
            True,
            f"{label}: {self.form.describe()}, the form asked for. Whether it is right for "
            "your numbers is checked when your notebook is graded.",
        )
