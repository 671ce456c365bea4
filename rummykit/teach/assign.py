"""Build the graded assignments and grade a class: the two calls a teacher makes.

:func:`build` turns each otter-grader master of ``assignments/`` into the notebook to hand
out and the autograder zip (:mod:`rummykit.teach.grading.build`); :func:`grade` grades a
folder of submissions with a zip, each notebook in a sandbox of its own and its answers
marked in the grader's process (:mod:`rummykit.teach.grading.run`). From the shell:
``python -m rummykit.teach build --course NAME`` and ``python -m rummykit.teach grade``.
"""

from __future__ import annotations

from rummykit.teach.grading.build import ASSIGNMENTS_FOLDER, BUILD, build
from rummykit.teach.grading.run import Report, Result, grade
from rummykit.teach.grading.sandbox import Limits

__all__ = ["ASSIGNMENTS_FOLDER", "BUILD", "Limits", "Report", "Result", "build", "grade"]
