"""How often classmates share their numbers: the chance that two students draw the same
numbers for a question, and the share of a class in which a student shares every number
of an assignment with some classmate.

Each question draws its numbers from a seed of its own (the course, the assignment, the
question and the ID: :func:`~rummykit.teach.homework.spec.question_seed`), so for two
students the questions agree or not independently. A student whose numbers for a question
have probability :math:`p` shares them with at least one of :math:`n - 1` classmates with
chance :math:`1 - (1 - p)^{n - 1}`; averaged over the student's numbers this is the
expected share of the class that shares that question's numbers, estimated from made-up
students, each student's :math:`p` by the share of the *other* made-up students who drew
the same numbers (so that a set drawn once counts as shared by nobody). Two students share a question's numbers with
chance :math:`c_q = \\sum_i p_i^2` (its collision probability), and every question of an
assignment with chance :math:`c = \\prod_q c_q`; since :math:`1 - (1 - x)^{n - 1}` is
concave, :math:`1 - (1 - c)^{n - 1}` bounds the expected share of the class that shares
*all* its numbers from above (Jensen's inequality), and so does it with an upper bound of
:math:`c` in place of :math:`c`.

:func:`collision` estimates :math:`c_q` from ``draws`` made-up students: the share of
pairs among them that agree, an unbiased estimate of :math:`\\sum_i p_i^2`, with a 95%
interval (the pairs are not independent; the interval is the delta method's, see the
function).

>>> share = class_sharing("hw1-counting", students=300, draws=4000)
>>> share.all_numbers <= share.all_numbers_bound < 0.05
True
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections import Counter

from rummykit.teach.homework import ASSIGNMENTS, Question

__all__ = ["Sharing", "class_sharing", "collision"]


def collision(
    question: Question, *, draws: int = 20_000, course: str = "sharing"
) -> tuple[float, float]:
    """The chance that two students draw the same numbers for ``question``, estimated
    from ``draws`` made-up students, and its standard error.

    The estimate is the share of the ``draws * (draws - 1) / 2`` pairs that agree. Its
    variance, by the delta method for a U-statistic of order 2, is about
    ``4 * (sum p_i^3 - c^2) / draws``, with ``sum p_i^3`` estimated from triples."""
    counts = _counts(question, draws, course)
    pairs = sum(k * (k - 1) for k in counts.values()) / (draws * (draws - 1))
    triples = sum(k * (k - 1) * (k - 2) for k in counts.values()) / (
        draws * (draws - 1) * (draws - 2)
    )
    variance = max(0.0, 4 * (triples - pairs**2) / draws)
    return pairs, math.sqrt(variance)


@functools.lru_cache(maxsize=64)
def _counts(question: Question, draws: int, course: str = "sharing") -> Counter:
    """How many of ``draws`` made-up students drew each of ``question``'s sets of numbers."""
    return Counter(
        json.dumps(question.numbers(f"student-{i}", course=course), sort_keys=True)
        for i in range(draws)
    )


@dataclasses.dataclass(frozen=True)
class Sharing:
    """How a class shares an assignment's numbers."""

    assignment: str
    students: int
    per_question: dict
    """``{question: the expected share of the class sharing that question's numbers with a
    classmate}``."""
    all_numbers: float
    """An upper bound of the share of the class that shares every number of the assignment
    with a classmate, from the point estimates (0 when a question's draws never agreed)."""
    all_numbers_bound: float
    """An upper bound of it: each question's estimate plus two standard errors, and for a
    question whose draws never agreed, 3 over the number of pairs (the rule of three)."""


def class_sharing(assignment: str, *, students: int = 300, draws: int = 20_000) -> Sharing:
    """The expected shares of a class of ``students`` that share a question's numbers
    with some classmate (plugged in from ``draws`` made-up students), and bounds of the
    share that shares all of the assignment's (see the module's docstring)."""

    def share(c: float) -> float:
        return -math.expm1((students - 1) * math.log1p(-c)) if c < 1 else 1.0

    per_question, together, bound = {}, 1.0, 1.0
    pairs = draws * (draws - 1) / 2
    for name, question in ASSIGNMENTS[assignment].items():
        if question.variable is None:
            continue
        counts = _counts(question, draws)
        per_question[name] = sum(k / draws * share((k - 1) / (draws - 1)) for k in counts.values())
        chance, error = collision(question, draws=draws)
        together *= chance
        bound *= min(1.0, chance + 2 * error) if chance > 0 else 3 / pairs
    return Sharing(assignment, students, per_question, share(together), share(bound))
