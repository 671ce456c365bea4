"""Teaching material: graded assignments (otter-grader masters in ``assignments/``), the
per-student numbers behind them, and the tools that build and grade them
(:mod:`rummykit.teach.assign`; ``python -m rummykit.teach build|grade``)."""

from rummykit.teach.questions import OUTS_BOT_CSV, QUESTIONS, Mark, Question, mark, numbers
from rummykit.teach.students import grading_seed, normalize_id, student_seed

__all__ = [
    "OUTS_BOT_CSV",
    "QUESTIONS",
    "Mark",
    "Question",
    "grading_seed",
    "mark",
    "normalize_id",
    "numbers",
    "student_seed",
]
