"""The autograder zip where teachers grade with otter: unpacked, its requirements.txt
installed into a new virtual environment (from the wheels the set-up fetched into
build/otter-wheels, with no index: the zip must bring rummykit itself), then otter's own
``otter run`` grades a right and a wrong notebook of each assignment, as Gradescope would.
"""

from __future__ import annotations

import json
import subprocess
import venv
import zipfile
from pathlib import Path

import pytest

from rummykit.teach.assign import build
from rummykit.teach.homework import ASSIGNMENTS
from tests.support.homework import COURSE

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
WHEELS = ROOT / "build" / "otter-wheels"


@pytest.fixture(scope="module")
def environment(tmp_path_factory):
    """A new virtual environment with one assignment's zip requirements installed."""
    if not (WHEELS / ".downloaded").exists():
        pytest.fail(
            "build/otter-wheels is missing: `make test` fetches it (the OTTER_WHEELS target)"
        )
    where = tmp_path_factory.mktemp("otter")
    built = build(out=where / "built", course=COURSE)
    source = where / "source"
    with zipfile.ZipFile(built["hw1-counting"][1]) as archive:
        archive.extractall(source)
    env = where / "venv"
    venv.create(env, with_pip=True, clear=True)
    python = env / "bin" / "python"
    done = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--find-links",
            str(WHEELS),
            "-r",
            "requirements.txt",
        ],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return env, built


def _otter_run(env: Path, zipped: Path, notebook: Path) -> dict[str, float]:
    """``otter run``'s score of each question of ``notebook``."""
    out = notebook.parent
    clean = {"PATH": f"{env / 'bin'}:/usr/bin:/bin", "HOME": str(out), "LANG": "C.UTF-8"}
    done = subprocess.run(
        [str(env / "bin" / "otter"), "run", "-a", str(zipped), "-o", str(out), notebook.name],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=600,
        env=clean,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    results = json.loads((out / "results.json").read_text())
    return {
        test["name"]: test["score"] for test in results["tests"] if test["name"].startswith("q")
    }


def test_the_zip_installs_rummykit_into_an_environment_of_its_own(environment):
    env, _ = environment
    listed = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "list", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = {p["name"].lower() for p in json.loads(listed.stdout)}
    assert {"rummykit", "otter-grader", "numpy", "polars"} <= names
    where = subprocess.run(
        [str(env / "bin" / "python"), "-c", "import rummykit; print(rummykit.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=env,
    ).stdout
    assert str(env) in where and str(ROOT) not in where  # the zip's wheel, not this checkout


@pytest.mark.parametrize("name", sorted(ASSIGNMENTS))
def test_otter_run_grades_each_assignment_from_its_zip(environment, tmp_path, name):
    env, built = environment
    _, zipped = built[name]
    solved = (zipped.parent / f"{name}.ipynb").read_text()
    right = tmp_path / "right"
    right.mkdir()
    (right / "3032123456.ipynb").write_text(
        solved.replace('STUDENT_ID = \\"\\"', 'STUDENT_ID = \\"3032123456\\"')
    )
    scores = _otter_run(env, zipped, right / "3032123456.ipynb")
    auto = {q.name for q in ASSIGNMENTS[name].values() if q.variable is not None}
    assert set(scores) == auto and all(score > 0 for score in scores.values()), scores
    blank = tmp_path / "blank"
    blank.mkdir()
    student, _ = built[name]
    (blank / "bob.ipynb").write_text(
        student.read_text().replace('STUDENT_ID = \\"\\"', 'STUDENT_ID = \\"bob\\"')
    )
    assert set(_otter_run(env, zipped, blank / "bob.ipynb").values()) == {0}
