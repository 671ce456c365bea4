"""Test helpers for the graded assignments: run a master notebook's code (solutions
included, otter's test cells left out) for one student, in this process, and load an
assignment's answer key from ``assignments/keys/``."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import nbformat

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "assignments"
KEYS = MASTERS / "keys"
#: The course salt the tests build and grade with.
COURSE = "rummykit-tests"

_MARKER = re.compile(r"^\s*#\s*(BEGIN|END)\s+(SOLUTION|PROMPT|TESTS|QUESTION)", re.M)


def key_module(assignment: str) -> ModuleType:
    """The answer key of ``assignment`` (``hw1-counting`` -> ``keys/hw1_counting.py``)."""
    path = KEYS / f"{assignment.replace('-', '_')}.py"
    spec = importlib.util.spec_from_file_location(f"key_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
