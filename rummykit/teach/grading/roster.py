"""The class: a roster of student IDs, and which submitted file is whose.

A roster is a text file of student IDs, one a line (blank lines and lines starting with
``#`` are skipped), or a CSV file (``.csv``) with a header naming an ID column
(``student_id``, ``sid``, ``id``, ``SIS User ID`` or ``SIS Login ID``) and, if it has
them, ``name``, ``email`` and ``section`` (Canvas's ``Student`` and ``Section`` too).

**Which file is whose.** A submission's file name, without ``.ipynb``, names its student:

1. the name itself, if it is a student ID (on the roster, when there is one);
2. with a roster: the longest roster ID the name ends with after ``_``, ``-``, ``.`` or a
   space (a prefix an LMS put before the name the student gave: Canvas's
   ``lovelaceada_12345_67890_3032123456.ipynb``);
3. with a roster: the same, once a trailing ``-N`` is dropped (Canvas's mark of a
   resubmitted file: ``3032123456-1.ipynb``);
4. without a roster: the text after the last ``_``, if it is a student ID.

A file that names nobody is listed, not graded. Two files for one student stop the run
before anything is graded, naming both: keep the one to grade.

>>> students = [Student("3032123456"), Student("ada_l-2")]
>>> owner("lovelaceada_12345_67890_3032123456", students), owner("ada_l-2", students)
('3032123456', 'ada_l-2')
>>> owner("3032123456-1", students), owner("notes", students)
('3032123456', None)
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Sequence
from pathlib import Path

from rummykit.errors import GradingError, StudentIdError
from rummykit.teach.students import normalize_id

__all__ = ["Student", "owner", "read_roster", "whose"]

_ID_COLUMNS = ("student_id", "sid", "id", "sis user id", "sis login id")
_NAME_COLUMNS = ("name", "student", "student name")


@dataclasses.dataclass(frozen=True)
class Student:
    """A student of the roster."""

    id: str
    name: str = ""
    email: str = ""
    section: str = ""


def read_roster(path: Path) -> list[Student]:
    """The students of the roster at ``path`` (see the module's docstring); a
    :class:`GradingError` naming the file and line of an ID that is none, or of an ID
    listed twice."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise GradingError(f"roster {str(path)!r}: cannot read it ({error})") from None
    rows = _csv_rows(path, text) if path.suffix.lower() == ".csv" else _text_rows(text)
    students, seen = [], {}
    for line, student_id, extra in rows:
        try:
            tidy = normalize_id(student_id)
        except StudentIdError as error:
            raise GradingError(f"roster {str(path)!r}, line {line}: {error}") from None
        if tidy in seen:
            raise GradingError(
                f"roster {str(path)!r}, lines {seen[tidy]} and {line}: {tidy!r} is listed twice"
            )
        seen[tidy] = line
        students.append(Student(tidy, **extra))
    if not students:
        raise GradingError(f"roster {str(path)!r} lists no student")
    return students


def _text_rows(text: str) -> list[tuple[int, str, dict]]:
    return [
        (number, line.strip(), {})
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _csv_rows(path: Path, text: str) -> list[tuple[int, str, dict]]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = [cell.strip().lower() for cell in next(reader)]
    except StopIteration:
        raise GradingError(f"roster {str(path)!r} is empty") from None
    column = next((header.index(c) for c in _ID_COLUMNS if c in header), None)
    if column is None:
        raise GradingError(
            f"roster {str(path)!r}, line 1: no ID column; name one of "
            f"{', '.join(repr(c) for c in _ID_COLUMNS)}"
        )
    extra = {
        "name": next((header.index(c) for c in _NAME_COLUMNS if c in header), None),
        "email": header.index("email") if "email" in header else None,
        "section": header.index("section") if "section" in header else None,
    }
    rows = []
    for number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        cell = row[column] if column < len(row) else ""
        found = {k: row[i].strip() for k, i in extra.items() if i is not None and i < len(row)}
        rows.append((number, cell, found))
    return rows


def _as_id(text: str) -> str | None:
    try:
        return normalize_id(text)
    except StudentIdError:
        return None


def owner(stem: str, students: Sequence[Student] | None) -> str | None:
    """The ID of the student whose file is called ``stem`` (without ``.ipynb``), by the
    rule of the module's docstring, or None."""
    known = None if students is None else {s.id for s in students}
    name = stem.strip().lower()
    direct = _as_id(name)
    if direct is not None and (known is None or direct in known):
        return direct
    if known is None:
        tail = _as_id(name.rpartition("_")[2]) if "_" in name else None
        return tail
    for candidate in (name, re.sub(r"-[0-9]+$", "", name)):
        matches = [
            sid
            for sid in known
            if candidate == sid or (candidate.endswith(sid) and candidate[-len(sid) - 1] in "_-. ")
        ]
        if matches:
            return max(matches, key=len)
    return None


def whose(files: Sequence[Path], students: Sequence[Student] | None) -> tuple[dict, list[Path]]:
    """``({student ID: file}, [files that name nobody])``; a :class:`GradingError` naming
    both files when two name one student."""
    found: dict[str, Path] = {}
    nobody: list[Path] = []
    clashes = []
    for path in files:
        student = owner(path.stem, students)
        if student is None:
            nobody.append(path)
        elif student in found:
            clashes.append(f"{found[student].name} and {path.name} are both {student!r}'s")
        else:
            found[student] = path
    if clashes:
        raise GradingError(
            "two submissions for one student: " + "; ".join(clashes) + ": keep the one to grade"
        )
    return found, nobody
