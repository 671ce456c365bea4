"""Test helpers for the graded assignments: run a master notebook's code (solutions
included, otter's test cells left out) for one student, in this process; load an
assignment's answer key from ``assignments/keys/``; a student's numbers for a question and
what the key expects of them; the autograded questions."""

from __future__ import annotations

import functools
import importlib.util
import re
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import nbformat

from rummykit.teach.grading.marking import Expected
from rummykit.teach.homework import ASSIGNMENTS, WRITTEN

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "assignments"
KEYS = MASTERS / "keys"
#: The course salt the tests build and grade with.
COURSE = "rummykit-tests"
#: Every autograded question, as (assignment, question name), in order.
AUTOGRADED = [
    (assignment, name)
    for assignment, questions in ASSIGNMENTS.items()
    for name, question in questions.items()
    if question.form is not WRITTEN
]

_MARKER = re.compile(r"^\s*#\s*(BEGIN|END)\s+(SOLUTION|PROMPT|TESTS|QUESTION)", re.M)


def student_numbers(assignment: str, name: str, student: str) -> dict:
    """A student's numbers for a question, in the tests' course."""
    return ASSIGNMENTS[assignment][name].numbers(student, course=COURSE)


def student_expected(assignment: str, name: str, student: str) -> Expected:
    """What the key accepts from a student for a question."""
    return _key(assignment).KEY[name](student_numbers(assignment, name, student))


def key_module(assignment: str) -> ModuleType:
    """The answer key of ``assignment`` (``hw1-counting`` -> ``keys/hw1_counting.py``)."""
    path = KEYS / f"{assignment.replace('-', '_')}.py"
    spec = importlib.util.spec_from_file_location(f"key_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_key = functools.cache(key_module)


def master_code(master: Path) -> list[str]:
    """The code cells of ``master`` a teacher's solved copy runs: every code cell but the
    test cells, with otter's prompt blocks (``\"\"\" # BEGIN PROMPT ... \"\"\" # END
    PROMPT``) and marker comments taken out."""
    cells, in_tests = [], False
    for cell in nbformat.read(master, as_version=4).cells:
        source = cell.source
        if cell.cell_type == "raw":
            head = source.strip().splitlines()[0] if source.strip() else ""
            if head.startswith("# BEGIN TESTS"):
                in_tests = True
            elif head.startswith("# END TESTS"):
                in_tests = False
            continue
        if cell.cell_type != "code" or in_tests:
            continue
        source = re.sub(r'"""\s*#\s*BEGIN PROMPT.*?"""\s*#\s*END PROMPT\n?', "", source, flags=re.S)
        cells.append("\n".join(line for line in source.splitlines() if not _MARKER.match(line)))
    return cells


def run_master(master: Path, student_id: str, course: str = COURSE) -> dict:
    """The namespace after running ``master``'s solved code for ``student_id``."""
    namespace: dict = {"__name__": "__main__"}
    for source in master_code(master):
        source = re.sub(r'^STUDENT_ID = ".*?"', f'STUDENT_ID = "{student_id}"', source, flags=re.M)
        source = re.sub(r'^COURSE = ".*?"', f'COURSE = "{course}"', source, flags=re.M)
        exec(compile(source, str(master), "exec"), namespace)
    return namespace


def answer(expected: Expected) -> int | Fraction | float:
    """The answer ``expected`` holds: its exact value, or the middle of its interval."""
    return expected.value if expected.value is not None else (expected.low + expected.high) / 2
