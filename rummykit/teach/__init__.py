"""Course content built on rummykit, for the book's unit guide (``book/teachers.md``):
graded assignments (otter-grader masters in ``assignments/``): each student's numbers and
the form of each answer (:func:`rummykit.teach.homework.homework`; never the answers, which ship only in the
autograder), and the tools that build and grade them (:mod:`rummykit.teach.assign`;
``python -m rummykit.teach build|grade``); the class coverage activity
(:mod:`~rummykit.teach.coverage`), the lesson slides (:mod:`~rummykit.teach.slides`),
chapter 9's concepts and exercises (:mod:`~rummykit.teach.concepts`,
:mod:`~rummykit.teach.concept_exercises`) and the student edition
(:mod:`~rummykit.teach.edition`); the book's exercise generators
(:data:`EXERCISES`: chapter 6, :mod:`~rummykit.teach.exercise_sets`; chapter 7,
:mod:`~rummykit.teach.outs_exercises`; chapter 9, :mod:`~rummykit.teach.concept_exercises`),
the formulas a student checks by hand (:mod:`~rummykit.teach.probability`) and the odds
and play tables of ``data/`` read as chapters 3, 4, 5 and 11 read them
(:mod:`~rummykit.teach.odds_tables`, :mod:`~rummykit.teach.table_play`,
:mod:`~rummykit.teach.rule_variants`, :mod:`~rummykit.teach.strategy`; they need
polars)."""

from rummykit.teach.registry import EXERCISES
from rummykit.teach.students import normalize_id

__all__ = ["EXERCISES", "normalize_id"]
