"""The autograder zip as the grader reads it: otter-grader's zip (``otter run`` and
Gradescope grade with it) with rummykit's manifest and the answer key added by
:mod:`~rummykit.teach.grading.build`:

``files/rummykit_assignment.json``
    The manifest: the assignment, the course salt it was built with, its questions (name,
    answer variable, points, whether marked by hand, a written question's prompt), the
    key's digest, and the numbers of a few probe IDs, by which the grader finds out that
    the installed rummykit would draw other numbers than the one that built the zip.
``files/rummykit_key.py``
    The answer key (``assignments/keys/``): ``KEY[question](numbers) -> Expected``.

:func:`load` reads both, checks them, and runs the key in the grader's own process: the
notebooks never import it, and under bubblewrap never see the zip.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import zipfile
from pathlib import Path

from rummykit.errors import GradingError
from rummykit.teach.homework import ASSIGNMENTS, Question
from rummykit.teach.homework.spec import check_course

__all__ = [
    "FORMAT",
    "KEY_FILE",
    "MANIFEST_FILE",
    "PROBE_IDS",
    "Autograder",
    "load",
    "probe_numbers",
]

#: The manifest's format, written in it.
FORMAT = "rummykit-autograder/1"
#: Where the manifest and the key live in the zip (otter copies ``files/`` beside the
#: submission, where the hidden tests of ``otter run`` import the key).
MANIFEST_FILE = "files/rummykit_assignment.json"
KEY_FILE = "files/rummykit_key.py"
#: The IDs whose numbers the manifest records at build time.
PROBE_IDS = ("probe-0", "probe-1", "3032123456")


@dataclasses.dataclass(frozen=True)
class Autograder:
    """One assignment's autograder, loaded."""

    path: Path
    digest: str
    """SHA-256 of the zip's bytes."""
    assignment: str
    course: str
    questions: tuple[Question, ...]
    """Every question, autograded and written, in the master's order."""
    points: dict
    """``{question name: points}``."""
    prompts: dict
    """``{written question name: its prompt (Markdown)}``."""
    key: types.ModuleType

    @property
    def autograded(self) -> tuple[Question, ...]:
        return tuple(q for q in self.questions if q.variable is not None)

    @property
    def written(self) -> tuple[Question, ...]:
        return tuple(q for q in self.questions if q.variable is None)

    @property
    def names(self) -> tuple[str, ...]:
        """The notebook variables a submission hands back: every answer, and the ID the
        student typed (for the feedback: numbers answered for another ID)."""
        return (*(q.variable for q in self.autograded), "STUDENT_ID")

    @property
    def possible(self) -> float:
        return float(sum(self.points.values()))


def probe_numbers(assignment: str, course: str) -> dict:
    """The numbers of :data:`PROBE_IDS` for every question of ``assignment``."""
    return {
        student: {
            name: q.numbers(student, course=course) for name, q in ASSIGNMENTS[assignment].items()
        }
        for student in PROBE_IDS
    }


def _refuse(path: Path, why: str) -> GradingError:
    return GradingError(
        f"autograder {str(path)!r}: {why}; give the autograder.zip that "
        "`python -m rummykit.teach build` wrote"
    )


def load(path: Path) -> Autograder:
    """The autograder zip at ``path``, checked (a :class:`GradingError` naming the file
    and what is wrong otherwise)."""
    path = Path(path)
    if not path.is_file():
        raise _refuse(path, "no such file")
    try:
        data = path.read_bytes()
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if MANIFEST_FILE not in names or KEY_FILE not in names:
                raise _refuse(path, f"no {MANIFEST_FILE} and {KEY_FILE} in the zip")
            manifest = json.loads(archive.read(MANIFEST_FILE).decode("utf-8"))
            source = archive.read(KEY_FILE).decode("utf-8")
    except (OSError, zipfile.BadZipFile, UnicodeDecodeError, ValueError) as error:
        if isinstance(error, GradingError):
            raise
        raise _refuse(path, f"not a zip rummykit can read ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _refuse(path, f"its manifest is not of the format {FORMAT}")
    assignment = manifest.get("assignment")
    if assignment not in ASSIGNMENTS:
        raise _refuse(path, f"no assignment {assignment!r} in the installed rummykit")
    course = manifest.get("course")
    try:
        check_course(course)
    except Exception:
        raise _refuse(path, f"its course salt {course!r} is not one") from None
    if hashlib.sha256(source.encode()).hexdigest() != manifest.get("key_sha256"):
        raise _refuse(path, "its key does not match the manifest's digest")
    questions, points, prompts = [], {}, {}
    for entry in manifest.get("questions", []):
        name = entry.get("name") if isinstance(entry, dict) else None
        question = ASSIGNMENTS[assignment].get(name)
        if question is None or question.variable != entry.get("variable"):
            raise _refuse(
                path, f"question {name!r} is not the installed rummykit's question of {assignment}"
            )
        value = entry.get("points")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise _refuse(path, f"question {name!r} has no points")
        questions.append(question)
        points[name] = float(value)
        if question.variable is None:
            prompts[name] = str(entry.get("prompt", ""))
    if not questions:
        raise _refuse(path, "its manifest lists no question")
    if manifest.get("numbers") != json.loads(json.dumps(probe_numbers(assignment, course))):
        raise GradingError(
            f"autograder {str(path)!r} was built with a rummykit "
            f"({manifest.get('rummykit', '?')}) that draws other numbers than the installed "
            "one: grade with the rummykit that built it, or build the assignment again "
            "(the students' numbers would change)"
        )
    key = types.ModuleType("rummykit_key")
    key.__file__ = f"{path}:{KEY_FILE}"
    try:
        exec(compile(source, key.__file__, "exec"), key.__dict__)
    except Exception as error:
        raise _refuse(path, f"its key does not run ({type(error).__name__}: {error})") from None
    table = getattr(key, "KEY", None)
    missing = [
        q.name
        for q in questions
        if q.variable is not None and not callable((table or {}).get(q.name))
    ]
    if not isinstance(table, dict) or missing:
        raise _refuse(path, f"its key has no answer for {', '.join(missing) or 'any question'}")
    return Autograder(
        path=path,
        digest=hashlib.sha256(data).hexdigest(),
        assignment=assignment,
        course=course,
        questions=tuple(questions),
        points=points,
        prompts=prompts,
        key=key,
    )
