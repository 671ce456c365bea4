"""The graded assignments as students get them: for each question, a student's numbers and
the form of the answer; never the answer (the answer key ships only in the autograder the
teacher builds, see :mod:`rummykit.teach.grading`).

In an assignment's notebook a student writes::

    from rummykit.teach.homework import homework

    hw = homework("hw1-counting", STUDENT_ID, course=COURSE)
    hw.numbers("q1")          # this student's numbers for question 1
    hw.check("q1", hands)     # the form of the answer; correctness is checked at grading

``COURSE`` is set in the notebook by the teacher's build (``python -m rummykit.teach build
--course ...``): the same ID gets other numbers in another course or term.

>>> hw = homework("hw1-counting", "ada.lovelace", course="stat140-2026fall")
>>> hw.numbers("q1") == homework("hw1-counting", "Ada.Lovelace", course="stat140-2026fall").numbers("q1")
True
>>> sorted(ASSIGNMENTS)
['hw1-counting', 'hw2-simulation', 'hw3-waiting', 'hw4-decisions']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from rummykit.errors import ArgumentError, ArgumentTypeError, StudentIdError
from rummykit.teach.homework import hw1, hw2, hw3, hw4
from rummykit.teach.homework.spec import (
    COUNT,
    EXACT,
    NUMBER,
    PROBABILITY,
    WRITTEN,
    Check,
    Form,
    Question,
    check_course,
    question_seed,
)
from rummykit.teach.students import normalize_id

__all__ = [
    "ASSIGNMENTS",
    "COUNT",
    "EXACT",
    "NUMBER",
    "PROBABILITY",
    "WRITTEN",
    "Check",
    "Form",
    "Homework",
    "Question",
    "check_course",
    "homework",
    "question_seed",
]


def _assignment(questions: tuple[Question, ...]) -> Mapping[str, Question]:
    found: dict[str, Question] = {}
    for question in questions:
        if question.name in found:
            raise ArgumentError(f"two questions named {question.name!r} in {question.assignment}")
        found[question.name] = question
    return MappingProxyType(found)


#: Every assignment's questions, by assignment and question name, read-only.
ASSIGNMENTS: Mapping[str, Mapping[str, Question]] = MappingProxyType(
    {module.ASSIGNMENT: _assignment(module.QUESTIONS) for module in (hw1, hw2, hw3, hw4)}
)


@dataclasses.dataclass(frozen=True)
class Homework:
    """One student's copy of one assignment: their numbers and the form checks."""

    assignment: str
    student: str
    """The student's ID, normalised (:func:`~rummykit.teach.students.normalize_id`)."""
    course: str

    def question(self, name: str) -> Question:
        """The question called ``name`` (``"q1"``)."""
        questions = ASSIGNMENTS[self.assignment]
        if not isinstance(name, str):
            raise ArgumentTypeError(f"a question is named by a str such as 'q1', got {name!r}")
        if name not in questions:
            raise ArgumentError(
                f"{self.assignment} has no question {name!r}; it has {', '.join(questions)}"
            )
        return questions[name]

    def numbers(self, name: str) -> dict:
        """This student's numbers for question ``name``."""
        return self.question(name).numbers(self.student, course=self.course)

    def check(self, name: str, value: object) -> Check:
        """The form of ``value`` as the answer to question ``name``: a :class:`Check` that
        says what is wrong with the form, or that the form is right and correctness is
        checked at grading."""
        return self.question(name).check(value)


def homework(assignment: str, student_id: str, *, course: str) -> Homework:
    """A student's copy of ``assignment`` (see the module's docstring). An ID left blank
    or mistyped is refused with what an ID looks like."""
    if not isinstance(assignment, str) or assignment not in ASSIGNMENTS:
        raise ArgumentError(f"no assignment {assignment!r}; there are {', '.join(ASSIGNMENTS)}")
    if isinstance(student_id, str) and not student_id.strip():
        raise StudentIdError(
            "STUDENT_ID is empty: type your student ID in quotes in the first code cell "
            "(your student number, or your email address before the @)"
        )
    return Homework(assignment, normalize_id(student_id), check_course(course))
