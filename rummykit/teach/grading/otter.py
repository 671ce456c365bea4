"""The hidden tests' side under ``otter run`` and on Gradescope, where otter runs the
notebook and then its tests in one process: ``check("q1", globals())`` marks one answer
with the key that the autograder zip put beside the notebook (``rummykit_key.py``).

That process is the student's: otter's model trusts the container around it, not the
process. So this is for ``otter run`` and Gradescope only; ``python -m rummykit.teach
grade`` never runs these tests (it runs the notebook in a sandbox and marks the values it
hands back in its own process, see :mod:`rummykit.teach.grading.run`).

The student is the one Gradescope names in ``submission_metadata.json`` (the first user's
``sid``, else the local part of their email); under a plain ``otter run``, which names
nobody, it is the ``STUDENT_ID`` the notebook typed.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from rummykit.errors import GradingError
from rummykit.teach.grading.marking import mark
from rummykit.teach.grading.values import MISSING, decode, encode
from rummykit.teach.students import normalize_id

__all__ = ["check", "student_named"]


def student_named(namespace: dict) -> str:
    """The student being graded (see the module's docstring)."""
    for place in (Path("../submission_metadata.json"), Path("submission_metadata.json")):
        try:
            users = json.loads(place.read_text())["users"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        for user in users if isinstance(users, list) else []:
            for field, text in (("sid", user.get("sid")), ("email", user.get("email"))):
                if isinstance(text, str) and text.strip():
                    return normalize_id(text.split("@")[0] if field == "email" else text)
    return normalize_id(namespace.get("STUDENT_ID", ""))


def check(name: str, namespace: dict) -> None:
    """Mark question ``name`` from the notebook's ``namespace``: an AssertionError saying
    why the answer earns nothing (never the answer), else nothing."""
    key = importlib.import_module("rummykit_key")
    manifest = json.loads(Path("rummykit_assignment.json").read_text())
    from rummykit.teach.homework import ASSIGNMENTS

    question = ASSIGNMENTS[manifest["assignment"]].get(name)
    if question is None or question.variable is None:
        raise GradingError(f"{manifest['assignment']} has no autograded question {name!r}")
    student = student_named(namespace)
    numbers = question.numbers(student, course=manifest["course"])
    expected = key.KEY[name](numbers)
    value = namespace.get(question.variable, MISSING)
    if value is not MISSING:
        value = decode(encode(value))  # as the grader reads it: numpy's numbers as Python's
    verdict = mark(question, expected, value)
    assert verdict.earned, f"{name}: {verdict.reason} (checked: {verdict.checked})"
