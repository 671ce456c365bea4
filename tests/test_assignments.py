"""The graded assignments (assignments/, rummykit.teach): student seeds, the questions'
per-student numbers, the built student and autograder versions, and grading with
otter-grader here (no Docker, no network: otter's own non-containerised grading).

The slow tests build the four assignments once (about 30 s) and grade seven submissions
(one kernel each)."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from rummykit.errors import ArgumentError, RummyError, StudentIdError
from rummykit.teach import (
    EXERCISES,
    QUESTIONS,
    grading_seed,
    mark,
    normalize_id,
    numbers,
    student_seed,
)
from rummykit.teach.assign import ASSIGNMENTS, build, grade, question_points
from rummykit.teach.students import GRADING_ID_VARIABLE

MASTERS = sorted(ASSIGNMENTS.glob("*.ipynb"))
SEEDS = range(40)


# --- student IDs and seeds -------------------------------------------------------------------


def test_a_student_seed_is_a_stable_hash_of_the_normalised_id():
    assert student_seed("3032123456") == 3761440764  # the same on every machine
    assert student_seed(" Ada.Lovelace ") == student_seed("ada.lovelace")
    assert student_seed("ada.lovelace") != student_seed("ada.lovelace2")
    assert normalize_id("Ada_L-2") == "ada_l-2"
    seeds = {student_seed(f"student{i}") for i in range(1000)}
    assert len(seeds) == 1000 and all(0 <= s < 2**32 for s in seeds)


@pytest.mark.parametrize(
    "bad", ["", "   ", "ada@berkeley.edu", "ada lovelace", "-ada", "a" * 65, 7]
)
def test_an_unknown_student_id_format_is_refused_by_name(bad):
    with pytest.raises(StudentIdError, match="a student ID is") as caught:
        student_seed(bad)
    assert isinstance(caught.value, RummyError)


def test_the_grader_names_the_student(monkeypatch):
    monkeypatch.delenv(GRADING_ID_VARIABLE, raising=False)
    assert grading_seed("ada.lovelace") == student_seed("ada.lovelace")
    monkeypatch.setenv(GRADING_ID_VARIABLE, "bob")
    assert grading_seed("ada.lovelace") == student_seed("bob")
    assert grading_seed("") == student_seed("bob")  # an ID left blank does not matter


# --- 40 distinct answers per question, every generator ------------------------------------------


def _exact(answer) -> Fraction:
    return Fraction(repr(answer)) if isinstance(answer, float) else Fraction(answer)


@pytest.mark.parametrize("key", sorted(QUESTIONS))
def test_every_assignment_question_has_40_distinct_answers_over_seeds_0_to_39(key):
    answers = {_exact(QUESTIONS[key](seed).answer) for seed in SEEDS}
    assert len(answers) >= 40, (key, len(answers))


CH6 = sorted(key for key in EXERCISES if key.startswith("ch6-"))


@pytest.mark.parametrize("key", CH6)
def test_every_chapter_6_generator_has_40_distinct_answers_over_seeds_0_to_39(key):
    answers = {_exact(EXERCISES[key](seed).answer) for seed in SEEDS}
    assert len(answers) >= 40, (key, len(answers))


def test_marks_exact_answers_as_fractions_and_simulated_ones_by_the_stated_interval():
    q = QUESTIONS["a1-one-joker"](5)
    assert q.mark(q.answer).correct and q.mark(Fraction(q.answer.numerator, q.answer.denominator))
    assert not q.mark(float(q.answer)).correct  # a float is not the exact value
    assert "Fraction" in q.mark(float(q.answer)).message
    assert not q.mark(q.answer + Fraction(1, 10**12)).correct
    assert not q.mark(...).correct and "no answer" in q.mark(...).message
    assert not q.mark("1/3").correct and not q.mark(True).correct
    sim = QUESTIONS["a2-simulated"](5)
    p, n = sim.answer, sim.numbers["n"]
    half = 4 * (p * (1 - p) / n) ** 0.5
    assert sim.low == pytest.approx(p - half) and sim.high == pytest.approx(p + half)
    assert sim.mark(p + 0.99 * half).correct and not sim.mark(p + 1.01 * half).correct
    assert not sim.mark(float("nan")).correct
    with pytest.raises(ArgumentError, match="no question registered"):
        mark("a9-nothing", 0, 1)
    assert "answer" not in numbers("a1-hands", 3)


# --- the built assignments ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(out=tmp_path_factory.mktemp("assignments"))


def _keys(master: Path) -> list[str]:
    return re.findall(r'mark\(\\"([a-z0-9-]+)\\"', master.read_text())


def _forms(answer) -> set[str]:
    """Every way a reader could write ``answer``: exact, and to 3-8 significant figures as a
    decimal, a percentage and "1 in N"."""
    value = _exact(answer)
    forms = {str(answer), repr(answer), str(value)}
    if value.denominator == 1:
        forms |= {f"{value.numerator:,}", f"{value.numerator:_}"}
    else:
        forms |= {f"{value.numerator}", f"{value.denominator}"} - {"1", "2", "3", "4", "5"}
    with localcontext() as context:
        context.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        for figures in range(3, 9):
            for scaled, suffix in ((exact, ""), (exact * 100, "%")):
                if scaled:
                    step = Decimal(1).scaleb(scaled.adjusted() - figures + 1)
                    forms.add(f"{scaled.quantize(step, rounding=ROUND_HALF_EVEN):f}{suffix}")
            if 0 < value < 1:
                inverse = 1 / exact
                step = Decimal(1).scaleb(inverse.adjusted() - figures + 1)
                forms.add(f"1 in {inverse.quantize(step, rounding=ROUND_HALF_EVEN):f}")
    # Numbers of one or two digits also stand for the question's own numbers.
    return {form for form in forms if len(form.replace("%", "").replace("-", "")) >= 4}


def _solution_lines(master: Path) -> list[str]:
    """The master's solution lines: marked ``# SOLUTION``, or inside a ``# BEGIN
    SOLUTION`` ... ``# END SOLUTION`` block of a cell (a solution cell's other lines are
    given to the student)."""
    lines = []
    for cell in nbformat.read(master, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        inside = False
        for line in cell.source.splitlines():
            if line.strip() in ("# BEGIN SOLUTION", "# END SOLUTION"):
                inside = line.strip() == "# BEGIN SOLUTION"
            elif inside or line.rstrip().endswith("# SOLUTION"):
                text = line.split("# SOLUTION")[0].strip()
                if len(text) > 12:
                    lines.append(text)
    return lines


@pytest.mark.slow
def test_the_assignments_build_into_student_and_autograder_versions(built):
    assert sorted(built) == [master.stem for master in MASTERS] and len(MASTERS) >= 4
    for master in MASTERS:
        student, autograder = built[master.stem]
        assert student.is_file() and autograder.is_file()
        points = question_points(autograder)
        assert len(points) == len(_keys(master)) >= 2 and all(p > 0 for p in points.values())
        assert (autograder.parent / master.name).is_file()  # the solutions, for the teacher


@pytest.mark.slow
def test_a_notebook_that_is_no_master_is_named_and_changes_nothing(tmp_path):
    masters = tmp_path / "masters"
    masters.mkdir()
    shutil.copy(MASTERS[0], masters / MASTERS[0].name)
    plain = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nbformat.write(plain, masters / "zz-notes.ipynb")
    out = tmp_path / "out"
    (out / MASTERS[0].stem).mkdir(parents=True)
    (out / MASTERS[0].stem / "kept.txt").write_text("an earlier build\n")
    with pytest.raises(ArgumentError, match=r"master zz-notes\.ipynb: otter assign cannot build"):
        build(masters, out)
    # The earlier build is as it was, and no staging folder is left.
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        MASTERS[0].stem,
        f"{MASTERS[0].stem}/kept.txt",
    ]
    # Without the stray notebook the master builds, replacing the earlier build whole.
    (masters / "zz-notes.ipynb").unlink()
    built = build(masters, out)
    assert not (out / MASTERS[0].stem / "kept.txt").exists()
    assert built[MASTERS[0].stem][1] == out / MASTERS[0].stem / "autograder" / "autograder.zip"
    assert built[MASTERS[0].stem][1].is_file() and built[MASTERS[0].stem][0].is_file()


@pytest.mark.slow
@pytest.mark.parametrize("student", ["ada.lovelace", "3032123456", "0"])
def test_the_student_version_holds_no_answer_and_no_solution(built, student):
    for master in MASTERS:
        path, _ = built[master.stem]
        notebook = nbformat.read(path, as_version=4)
        assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
        # What a student reads: the cells and the metadata (not the cell ids, whose digits
        # are no answer).
        text = json.dumps(notebook.metadata) + "".join(
            cell.source + json.dumps(cell.metadata) for cell in notebook.cells
        )
        assert "hidden: true" not in text and "grading_seed(STUDENT_ID), " not in text
        for line in _solution_lines(master):
            assert line not in text, (master.name, line)
        seed = int(student) if student.isdigit() and len(student) < 3 else student_seed(student)
        for key in _keys(master):
            for form in _forms(QUESTIONS[key](seed).answer):
                assert form not in text, (master.name, key, form)
    assert len(_solution_lines(MASTERS[0])) >= 4


# --- grading ----------------------------------------------------------------------------------------


def _submission(
    student: Path, answers: dict[str, str], raises: str | None = None
) -> nbformat.NotebookNode:
    """The student version with the given answer cells filled in (``name = value``)."""
    notebook = nbformat.read(student, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for name, value in answers.items():
            if re.search(rf"^{name} = \.\.\.$", cell.source, re.M):
                cell.source = re.sub(
                    rf"^{name} = \.\.\.$", f"{name} = {value}", cell.source, flags=re.M
                )
        if raises and re.search(rf"^{raises} = \.\.\.$", cell.source, re.M):
            cell.source = f"raise RuntimeError('a student bug')\n{cell.source}"
    return notebook


HW1 = {
    "hands": "a1-hands",
    "p_joker": "a1-one-joker",
    "p_at_least": "a1-at-least-of-rank",
    "var_jokers": "a1-joker-variance",
}


def _answers(seed: int, names) -> dict[str, str]:
    return {name: repr(QUESTIONS[HW1[name]](seed).answer) for name in names}


@pytest.fixture(scope="module")
def graded(built, tmp_path_factory):
    student, autograder = built["hw1-counting"]
    folder = tmp_path_factory.mktemp("submissions")
    # ada: the solutions, computed from her seed; bob: nothing answered; carol: her own
    # numbers for hands and p_at_least, a raising cell for p_joker, a wrong var_jokers;
    # dave: ada's numbers, typed in; "bad id!": a file name that is no student ID.
    (folder / "ada.lovelace.ipynb").write_text(
        (autograder.parent / "hw1-counting.ipynb").read_text()
    )
    (folder / "bob.ipynb").write_text(student.read_text())
    carol = _answers(student_seed("carol"), ["hands", "p_at_least"]) | {
        "var_jokers": "Fraction(1, 3)"
    }
    nbformat.write(_submission(student, carol, raises="p_joker"), folder / "carol.ipynb")
    nbformat.write(
        _submission(student, _answers(student_seed("ada.lovelace"), HW1)), folder / "dave.ipynb"
    )
    (folder / "bad id!.ipynb").write_text(student.read_text())
    out = folder / "grades.csv"
    rows = grade(autograder, folder, out, roster=["ada.lovelace", "Erin"])
    return {row["student"]: row for row in rows}, out


@pytest.mark.slow
def test_grading_gives_each_submission_its_points(graded):
    rows, out = graded
    assert rows["ada.lovelace"]["total"] == rows["ada.lovelace"]["possible"] == 8
    assert rows["ada.lovelace"]["message"] == ""
    assert rows["bob"]["total"] == 0
    carol = rows["carol"]
    assert (carol["q1"], carol["q2"], carol["q3"], carol["q4"]) == (2, 0, 2, 0)
    assert carol["total"] == 4 and "q2" in carol["message"] and "q4" in carol["message"]
    # ada's numbers are right for ada (her solutions) and wrong for dave.
    assert rows["dave"]["total"] == 0
    with out.open() as file:
        table = list(csv.DictReader(file))
    assert [row["student"] for row in table] == [row for row in rows]
    assert list(table[0]) == ["student", "q1", "q2", "q3", "q4", "total", "possible", "message"]


@pytest.mark.slow
def test_bad_input_gets_a_message_and_a_zero_not_a_crash(graded):
    rows, _ = graded
    assert rows["bad id!"]["total"] == 0 and "a student ID is" in rows["bad id!"]["message"]
    assert rows["erin"]["total"] == 0 and rows["erin"]["message"] == "missing submission"
    assert rows["carol"]["q1"] == 2  # a cell that raises costs only its own question


def test_grade_refuses_a_missing_autograder_or_folder(tmp_path):
    with pytest.raises(ArgumentError, match="no autograder zip"):
        grade(tmp_path / "none.zip", tmp_path)
    (tmp_path / "a.zip").write_bytes(b"")
    with pytest.raises(ArgumentError, match="no folder of submissions"):
        grade(tmp_path / "a.zip", tmp_path / "missing")
    with pytest.raises(ArgumentError, match="no master notebook"):
        build(tmp_path, tmp_path / "out")


def _offline(command: list[str]) -> list[str]:
    """``command`` in a network namespace of its own with only loopback up (the kernel
    talks to the grader on 127.0.0.1), where one can be made (root, as CI runs)."""
    probe = (
        subprocess.run(["unshare", "-n", "true"], capture_output=True)
        if shutil.which("unshare")
        else None
    )
    if probe is None or probe.returncode != 0 or not shutil.which("ip"):
        if os.environ.get("CI"):
            pytest.fail("CI must be able to run `unshare -n` (root) to test offline grading")
        pytest.skip("unshare -n is not available: cannot cut the network off")
    return ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *command]


@pytest.mark.slow
def test_every_assignments_solutions_earn_full_marks_with_no_network(built, tmp_path):
    # The three other assignments, graded at once, each in a namespace with no network.
    running = {}
    for name in ("hw2-simulation", "hw3-waiting", "hw4-decisions"):
        _, autograder = built[name]
        folder = tmp_path / name
        folder.mkdir()
        (folder / "3032123456.ipynb").write_text((autograder.parent / f"{name}.ipynb").read_text())
        command = [sys.executable, "-m", "rummykit.teach", "grade", str(autograder), str(folder)]
        command += ["--out", str(tmp_path / f"{name}.csv")]
        running[name] = subprocess.Popen(
            _offline(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    for name, process in running.items():
        _, errors = process.communicate(timeout=600)
        assert process.returncode == 0, errors.decode()[-2000:]
        with (tmp_path / f"{name}.csv").open() as file:
            (row,) = csv.DictReader(file)
        assert float(row["total"]) == float(row["possible"]) > 0, (name, row)
    assert json.loads((built["hw4-decisions"][0]).read_text())["nbformat"] == 4
