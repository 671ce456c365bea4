"""Build the graded assignments: from each otter-grader master in ``assignments/``, the
notebook to hand out and the autograder zip to grade with.

For each master :func:`build` runs ``otter assign`` (no solutions and no hidden tests in
the student's notebook), writes the course salt into both notebooks' ``COURSE``, numbers
the cells by position (two builds give the same files), and completes otter's zip:

- ``files/rummykit_key.py``: the answer key, ``assignments/keys/NAME.py`` (only here: the
  student's notebook and the package students install have no answer);
- ``files/rummykit_assignment.json``: the manifest (:mod:`~rummykit.teach.grading.autograder`);
- ``rummykit-VERSION-py3-none-any.whl``: rummykit as a pure-Python wheel built from this
  checkout, and ``requirements.txt`` and ``environment.yml`` that install it with its
  ``teach`` extra, so that the zip runs under ``otter run`` in an environment of its own
  and on Gradescope (where the zip is unpacked in ``/autograder/source``). Where rummykit
  was installed from a package index rather than a checkout, the requirement is
  ``rummykit[teach]==VERSION`` instead.

A master that otter cannot build, or that does not match the installed questions, stops
the build before anything is replaced (the folders are built in a staging folder inside
``out`` and moved in when all are built).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

import rummykit
from rummykit.engine.checks import instance, items
from rummykit.engine.checks import path as check_path
from rummykit.errors import ArgumentError, OutputError
from rummykit.teach.grading.autograder import FORMAT, KEY_FILE, MANIFEST_FILE, probe_numbers
from rummykit.teach.homework import ASSIGNMENTS
from rummykit.teach.homework.spec import check_course

__all__ = [
    "ASSIGNMENTS_FOLDER",
    "BUILD",
    "KEYS",
    "build",
    "master_questions",
    "pure_wheel",
    "third_party_requirements",
]

_ROOT = Path(__file__).resolve().parents[3]
#: The master notebooks.
ASSIGNMENTS_FOLDER = _ROOT / "assignments"
#: The answer keys, one module per master (``hw1-counting`` -> ``hw1_counting.py``), in
#: the folder ``keys`` beside the masters.
KEYS = ASSIGNMENTS_FOLDER / "keys"
#: Where :func:`build` writes.
BUILD = _ROOT / "build" / "assignments"
#: The line of the set-up cell that the build gives the course salt.
_COURSE_LINE = re.compile(r'^COURSE = ".*?"', re.M)


def master_questions(master: Path) -> list[dict]:
    """The questions of an otter master, in order: ``{"name", "points", "manual",
    "prompt"}`` (the prompt: the question's first Markdown cell)."""
    import nbformat
    import yaml

    questions, current = [], None
    for cell in nbformat.read(master, as_version=4).cells:
        source = cell.source.strip()
        if cell.cell_type == "raw" and source.startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(source.split("\n", 1)[1]) if "\n" in source else {}
            current = {
                "name": config.get("name"),
                "points": config.get("points", 0),
                "manual": bool(config.get("manual", False)),
                "prompt": None,
            }
            questions.append(current)
        elif cell.cell_type == "raw" and source.startswith("# END QUESTION"):
            current = None
        elif current is not None and cell.cell_type == "markdown" and current["prompt"] is None:
            current["prompt"] = cell.source
    return questions


def _text(name: str, value: object) -> str:
    return instance(name, value, str, "a str")


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long for the file system
        return False


def _key_path(keys: Path, name: str) -> Path:
    return keys / f"{name.replace('-', '_')}.py"


def _check_master(master: Path, keys: Path) -> list[dict]:
    """The master's questions, refused where they are not the installed assignment's."""
    name = master.stem
    if name not in ASSIGNMENTS:
        raise ArgumentError(
            f"master {master.name}: no assignment {name!r} in rummykit.teach.homework "
            f"(there are {', '.join(ASSIGNMENTS)})"
        )
    questions = master_questions(master)
    registered = ASSIGNMENTS[name]
    if [q["name"] for q in questions] != list(registered):
        raise ArgumentError(
            f"master {master.name}: its questions {[q['name'] for q in questions]} are not "
            f"rummykit.teach.homework's {list(registered)}"
        )
    for question in questions:
        if question["manual"] != (registered[question["name"]].variable is None):
            raise ArgumentError(
                f"master {master.name}: {question['name']} is "
                f"{'manual' if question['manual'] else 'autograded'} in the master and not in "
                "rummykit.teach.homework"
            )
    if not _key_path(keys, name).is_file():
        raise ArgumentError(f"master {master.name}: no answer key {_key_path(keys, name)}")
    return questions


def pure_wheel(folder: Path) -> Path | None:
    """rummykit as a pure-Python wheel in ``folder``, built from this checkout (None when
    rummykit is not installed from a checkout: no ``setup.py`` beside the package)."""
    package = Path(rummykit.__file__).resolve().parent
    checkout = package.parent
    if not (checkout / "setup.py").is_file() or not (checkout / "pyproject.toml").is_file():
        return None
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"
        ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.egg-info")
        shutil.copytree(package, source / "rummykit", ignore=ignore)
        for name in ("setup.py", "pyproject.toml", "README.md"):
            shutil.copy(checkout / name, source / name)
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        command += ["--no-build-isolation", "--wheel-dir", str(folder), str(source)]
        done = subprocess.run(
            command, capture_output=True, text=True, env={**os.environ, "RUMMYKIT_PURE": "1"}
        )
        if done.returncode != 0:
            raise OutputError(f"cannot build rummykit's wheel: {done.stderr.strip()[-500:]}")
    (wheel,) = folder.glob("rummykit-*-py3-none-any.whl")
    return wheel


def third_party_requirements(extra: str = "teach") -> list[str]:
    """What rummykit's ``extra`` installs besides rummykit, its extras followed, from the
    installed package's metadata (``otter-grader==7.0.0``, ``numpy>=1.26``, ...).

    >>> any(r.startswith("otter-grader") for r in third_party_requirements())
    True
    """
    from importlib.metadata import requires

    found, todo, seen = [], [extra], set()
    while todo:
        current = todo.pop()
        seen.add(current)
        for line in requires("rummykit") or []:
            requirement, _, marker = line.partition(";")
            if marker.replace("'", '"').strip() != f'extra == "{current}"':
                continue
            requirement = requirement.strip()
            nested = re.fullmatch(r"rummykit\[(\w+)\]", requirement)
            if nested:
                if nested.group(1) not in seen:
                    todo.append(nested.group(1))
            elif requirement not in found:
                found.append(requirement)
    return found


def _requirements(wheel: Path | None) -> list[str]:
    version = rummykit.__version__
    if wheel is None:
        return [f"rummykit[teach]=={version}"]
    return [f"./{wheel.name}[teach]"]


def _set_course(path: Path, course: str, *, renumber: bool) -> None:
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    found = False
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and _COURSE_LINE.search(cell.source) and not found:
            cell.source = _COURSE_LINE.sub(f'COURSE = "{course}"', cell.source, count=1)
            found = True
        if renumber:
            cell["id"] = f"cell-{index}"
    if not found:
        raise ArgumentError(f'{path.name}: no line `COURSE = "..."` in a code cell')
    nbformat.write(notebook, path)


def _complete_zip(zipped: Path, manifest: dict, key: str, wheel: Path | None) -> None:
    """Rewrite otter's zip with the key, the manifest, the wheel and the requirements."""
    import yaml

    requirements = _requirements(wheel)
    buffer = io.BytesIO()
    with zipfile.ZipFile(zipped) as old, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            data = old.read(item.filename)
            if item.filename == "environment.yml":
                environment = yaml.safe_load(data)
                for entry in environment["dependencies"]:
                    if isinstance(entry, dict) and "pip" in entry:
                        # Gradescope unpacks the zip in /autograder/source.
                        entry["pip"] += [
                            r.replace("./", "/autograder/source/", 1) for r in requirements
                        ]
                data = yaml.safe_dump(environment, sort_keys=False).encode()
                environment_pip = next(
                    e["pip"] for e in environment["dependencies"] if isinstance(e, dict)
                )
            if item.filename != "requirements.txt":
                new.writestr(item, data)
        otter = [r for r in environment_pip if r.startswith("otter-grader")]
        new.writestr("requirements.txt", "\n".join([*otter, *requirements]) + "\n")
        new.writestr(MANIFEST_FILE, json.dumps(manifest, indent=2) + "\n")
        new.writestr(KEY_FILE, key)
        if wheel is not None:
            new.write(wheel, wheel.name)
    zipped.write_bytes(buffer.getvalue())


def _build_one(master: Path, result: Path, course: str, keys: Path, wheel: Path | None) -> None:
    from otter.assign import main as otter_assign

    questions = _check_master(master, keys)
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
    zipped = zipped.replace(result / "autograder" / "autograder.zip")
    _set_course(result / "student" / master.name, course, renumber=True)
    _set_course(result / "autograder" / master.name, course, renumber=False)
    registered = ASSIGNMENTS[master.stem]
    key = _key_path(keys, master.stem).read_text(encoding="utf-8")
    manifest = {
        "format": FORMAT,
        "assignment": master.stem,
        "course": course,
        "rummykit": rummykit.__version__,
        "key_sha256": hashlib.sha256(key.encode()).hexdigest(),
        "questions": [
            {
                "name": q["name"],
                "variable": registered[q["name"]].variable,
                "points": q["points"],
                "manual": q["manual"],
                **({"prompt": q["prompt"] or ""} if q["manual"] else {}),
            }
            for q in questions
        ],
        "numbers": probe_numbers(master.stem, course),
    }
    _complete_zip(zipped, manifest, key, wheel)


def build(
    masters: Path | None = None,
    out: Path | None = None,
    names: Iterable[str] | None = None,
    *,
    course: str,
    keys: Path | None = None,
) -> dict[str, tuple[Path, Path]]:
    """Build every master in ``masters`` (default :data:`ASSIGNMENTS_FOLDER`) or those of
    ``names`` for ``course`` into ``out`` (default :data:`BUILD`), with the answer keys of
    ``keys`` (default: the folder ``keys`` beside the masters): returns ``{name: (student
    notebook, autograder zip)}``."""
    course = check_course(course)
    # The defaults are resolved here, so the signature shows no path of this machine.
    masters = ASSIGNMENTS_FOLDER if masters is None else check_path("masters", masters)
    out = BUILD if out is None else check_path("out", out)
    keys = masters / "keys" if keys is None else check_path("keys", keys)
    found = sorted(masters.glob("*.ipynb")) if _is_dir(masters) else []
    if names is not None:
        wanted = set(items("names", names, _text, what="a list of master names"))
        found = [path for path in found if path.stem in wanted]
        missing = wanted - {path.stem for path in found}
        if missing:
            raise ArgumentError(f"no master notebook {sorted(missing)} in {masters}")
    if not found:
        raise ArgumentError(f"no master notebook (*.ipynb) in {masters}")
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".building-", dir=out))
    except OSError as error:
        raise OutputError(f"out {str(out)!r}: cannot write there ({error.strerror})") from None
    try:
        wheel = pure_wheel(staging / "wheel")
        for master in found:
            _build_one(master, staging / master.stem, course, keys, wheel)
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


if __name__ == "__main__":
    # `python -m rummykit.teach.grading.build --requirements`: what an autograder zip's
    # environment installs from an index (the Makefile fetches them for the tests).
    if sys.argv[1:] != ["--requirements"]:
        sys.exit("usage: python -m rummykit.teach.grading.build --requirements")
    otter = "otter-grader[grading,plugins]"
    for line in third_party_requirements():
        print(line.replace("otter-grader", otter, 1) if line.startswith("otter-grader") else line)
