"""Build the graded assignments with otter-grader and grade a folder of submissions.

The masters are otter-grader master notebooks in ``assignments/`` (``# ASSIGNMENT
CONFIG``, ``# BEGIN QUESTION`` with points, ``# BEGIN SOLUTION``, ``# BEGIN TESTS`` with
public and hidden tests). :func:`build` runs ``otter assign`` on each into
``build/assignments/NAME/student`` (the notebook to hand out: no solutions, no hidden
tests) and ``build/assignments/NAME/autograder`` (the solutions and ``autograder.zip``).

:func:`grade` grades every ``STUDENT_ID.ipynb`` of a folder with
``otter.api.grade_submission``: otter's own non-containerised grading, here, with no
Docker and no network. The student is named by the file, and the grader passes the ID to
the hidden tests in the environment variable
:data:`~rummykit.teach.students.GRADING_ID_VARIABLE`, so each submission is checked
against its own student's numbers, recomputed by rummykit, whatever the notebook says.
A file name that is no student ID, a student of the roster with no file, a notebook that
raises or cannot be read: each gets a zero for what it could not earn and a message in the
CSV, and the other submissions are graded as usual.
"""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from rummykit.checks import instance, items
from rummykit.checks import path as check_path
from rummykit.errors import ArgumentError, OutputError, RummyError
from rummykit.teach.students import GRADING_ID_VARIABLE, normalize_id

__all__ = ["ASSIGNMENTS", "BUILD", "build", "grade", "question_points"]

_ROOT = Path(__file__).resolve().parents[2]
#: The master notebooks.
ASSIGNMENTS = _ROOT / "assignments"
#: Where :func:`build` writes.
BUILD = _ROOT / "build" / "assignments"


def build(masters: Path = ASSIGNMENTS, out: Path = BUILD, names: Iterable[str] | None = None):
    """Run ``otter assign`` on every master (or those of ``names``): returns ``{name:
    (student notebook, autograder zip)}``."""
    masters, out = check_path("masters", masters), check_path("out", out)
    if names is not None:
        names = items("names", names, _text, what="a list of master names")
    from otter.assign import main as otter_assign

    found = sorted(masters.glob("*.ipynb")) if _is_dir(masters) else []
    if names is not None:
        wanted = set(names)
        found = [path for path in found if path.stem in wanted]
        missing = wanted - {path.stem for path in found}
        if missing:
            raise ArgumentError(f"no master notebook {sorted(missing)} in {masters}")
    if not found:
        raise ArgumentError(f"no master notebook (*.ipynb) in {masters}")
    # Every master is built in a staging folder inside ``out``, and the results replace
    # the old ones only when all are built: a master otter cannot build leaves ``out``
    # as it was, and the error names it.
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".building-", dir=out))
    except OSError as error:
        raise OutputError(f"out {str(out)!r}: cannot write there ({error.strerror})") from None
    try:
        for master in found:
            result = staging / master.stem
            try:
                with contextlib.redirect_stdout(open(os.devnull, "w")):  # noqa: SIM115
                    otter_assign(str(master), str(result), no_pdfs=True, no_run_tests=True)
                (zipped,) = sorted((result / "autograder").glob("*.zip"))
            except (Exception, SystemExit) as error:
                raise ArgumentError(
                    f"master {master.name}: otter assign cannot build it "
                    f"({type(error).__name__}: {error}); a master is an otter-grader master "
                    "notebook (# ASSIGNMENT CONFIG in its first cell)"
                ) from None
            zipped.replace(result / "autograder" / "autograder.zip")
            _number_cells(result / "student" / master.name)
        built = {}
        for master in found:
            final = out / master.stem
            if final.exists():
                shutil.rmtree(final)
            (staging / master.stem).replace(final)
            built[master.stem] = (
                final / "student" / master.name,
                final / "autograder" / "autograder.zip",
            )
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return built


def _text(name: str, value: object) -> str:
    return instance(name, value, str, "a str")


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long for the file system
        return False


def _number_cells(path: Path) -> None:
    """Give the student notebook's cells ids by position (``cell-0``, ``cell-1``, ...)
    in place of nbformat's random ones, so two builds of a master are the same file."""
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{index}"
    nbformat.write(notebook, path)


def question_points(autograder: Path) -> dict[str, float]:
    """The questions of an autograder zip and their points (each master's ``# BEGIN
    QUESTION`` gives them), in order."""
    autograder = check_path("autograder", autograder)
    try:
        return _question_points(autograder)
    except (OSError, zipfile.BadZipFile) as error:
        raise ArgumentError(f"autograder: cannot read the zip {autograder}: {error}") from None


def _question_points(autograder: Path) -> dict[str, float]:
    points = {}
    with zipfile.ZipFile(autograder) as archive:
        names = sorted(
            n for n in archive.namelist() if n.startswith("tests/") and n.endswith(".py")
        )
        for name in names:
            namespace: dict = {}
            # otter's test files are Python that define a dict `test`.
            exec(compile(archive.read(name).decode(), name, "exec"), namespace)
            test = namespace["test"]
            total = test.get("points")
            if not isinstance(total, (int, float)):
                cases = test["suites"][0]["cases"]
                total = sum(case.get("points") or 0 for case in cases)
            points[test["name"]] = float(total)
    return points


def grade(
    autograder: Path,
    submissions: Path,
    out: Path | None = None,
    *,
    roster: Iterable[str] | None = None,
) -> list[dict]:
    """Grade every ``*.ipynb`` in ``submissions`` (the file's stem is the student ID);
    write a CSV of points per question to ``out`` if given; return its rows.

    Each row: ``student``, one column per question (points earned), ``total``,
    ``possible`` and ``message`` (empty when all went well).
    """
    autograder = check_path("autograder", autograder)
    submissions = check_path("submissions", submissions)
    out = None if out is None else check_path("out", out)
    roster = [normalize_id(s) for s in items("roster", () if roster is None else roster)]
    from otter.api import grade_submission

    if not autograder.is_file():
        raise ArgumentError(f"no autograder zip at {autograder}: run build first")
    if not _is_dir(submissions):
        raise ArgumentError(f"no folder of submissions at {submissions}")
    points = question_points(autograder)
    rows = []
    files = sorted(submissions.glob("*.ipynb"))
    for path in files:
        row = {"student": path.stem, **dict.fromkeys(points, 0.0), "message": ""}
        try:
            student = normalize_id(path.stem)
        except RummyError as error:
            row["message"] = f"{path.name}: {error}; not graded"
            rows.append(row)
            continue
        row["student"] = student
        before = os.environ.get(GRADING_ID_VARIABLE)
        os.environ[GRADING_ID_VARIABLE] = student
        try:
            results = grade_submission(str(path), str(autograder), quiet=True)
        except Exception as error:  # a notebook otter cannot run at all
            row["message"] = f"{path.name}: could not be graded: {type(error).__name__}: {error}"
        else:
            for name, result in results.results.items():
                if name in row:
                    row[name] = float(result.score)
            failed = [name for name in points if row[name] < points[name]]
            if failed:
                row["message"] = "points lost on " + ", ".join(failed)
        finally:
            if before is None:
                os.environ.pop(GRADING_ID_VARIABLE, None)
            else:
                os.environ[GRADING_ID_VARIABLE] = before
        rows.append(row)
    graded = {row["student"] for row in rows}
    for student in roster:
        if student not in graded:
            rows.append(
                {"student": student, **dict.fromkeys(points, 0.0), "message": "missing submission"}
            )
    for row in rows:
        row["total"] = sum(row[name] for name in points)
        row["possible"] = sum(points.values())
    if out is not None:
        columns = ["student", *points, "total", "possible", "message"]
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("w", newline="") as file:
                writer = csv.DictWriter(file, fieldnames=columns)
                writer.writeheader()
                writer.writerows({name: row[name] for name in columns} for row in rows)
        except OSError as error:
            raise OutputError(f"out: cannot write the grades to {out}: {error}") from None
    return rows
