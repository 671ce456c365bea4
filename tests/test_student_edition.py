"""The student edition holds no answer (issue 27, item 2).

The edition is built from the committed notebooks (rummykit.teach.edition, ``make
student-edition``) and every cell's source and every output is scanned for each
exercise's answer in the forms a reader could write or a page could show (the fraction,
the decimal and the percentage to 3 significant figures, "1 in N", the whole number) and
for the text of the worked solutions. The same scan of the teacher's notebooks must find
them all (so the scan can fail), and every exercise must still be asked.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rummykit.errors import ArgumentError
from rummykit.exercises import answer_text
from rummykit.teach import EXERCISES
from rummykit.teach.edition import (
    BOX_MARK,
    SOLUTION_TAG,
    build_student_edition,
    main,
    student_notebook,
)

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: The chapters whose exercises have answer boxes, and the key prefixes of their boxes.
BOXED = {
    "06_exercises.ipynb": "ch6-",
    "07_outs.ipynb": "outs-",
    "09_more_probability.ipynb": "ch9-",
}


def _text(value) -> str:
    return value if isinstance(value, str) else "".join(value)


def _cell_texts(cell: dict) -> list[str]:
    texts = [_text(cell["source"])]
    for output in cell.get("outputs", []):
        if "text" in output:
            texts.append(_text(output["text"]))
        for value in output.get("data", {}).values():
            is_text = isinstance(value, str | list)
            texts.append(_text(value) if is_text else json.dumps(value))
    return texts


def _all_text(notebook: dict) -> str:
    return "\n".join(text for cell in notebook["cells"] for text in _cell_texts(cell))


def _significant(x: Fraction, figures: int = 3) -> str:
    return f"{float(x):.{figures}g}"


def answer_forms(answer) -> set[str]:
    """The ways an exercise's answer can be written, each at least 3 significant figures
    long (a shorter one, "10" or "0.5", says nothing on its own)."""
    if isinstance(answer, str):
        return {answer} if len(answer) >= 3 else set()
    value = Fraction(answer)
    forms = {answer_text(answer).split(" (")[0]}
    if value.denominator != 1:
        forms.add(f"{value.numerator}/{value.denominator}")
        forms.add(_significant(value))
        if 0 < value < 1:
            forms.add(f"{_significant(100 * value)}%")
            forms.add(f"1 in {_significant(1 / value)}")
    else:
        forms |= {f"{value.numerator:,}", str(value.numerator)}
    readable = re.search(r"\((.*)\)", answer_text(answer))
    if readable:
        forms.add(readable.group(1))
    digits = lambda form: len(re.sub(r"\D", "", form).lstrip("0"))  # noqa: E731
    return {form for form in forms if digits(form) >= 3}


def _written(form: str, text: str) -> bool:
    """Whether ``form`` is written in ``text`` as a number of its own (not "0.284" inside
    "10.2845", an SVG coordinate)."""
    return re.search(rf"(?<![\d.,/]){re.escape(form)}(?![\d/]|[.,]\d)", text) is not None


def _keys(notebook: dict, prefix: str) -> list[tuple[str, int]]:
    """The boxes a chapter shows: (key, seed), from the boxes' code; ``SEED`` is the
    set-up cell's 0."""
    boxes = [
        match
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for match in re.findall(
            rf'^\w+\["({prefix}[a-z0-9-]+)"\]\((\d+|SEED)\)$', _text(cell["source"]), re.M
        )
    ]
    return sorted({(key, 0 if seed == "SEED" else int(seed)) for key, seed in boxes})


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> dict[str, tuple[dict, dict]]:
    out = tmp_path_factory.mktemp("student")
    written = build_student_edition(NOTEBOOKS, out)
    assert sorted(path.name for path in written) == sorted(
        path.name for path in NOTEBOOKS.glob("*.ipynb")
    )
    return {
        path.name: (
            json.loads((NOTEBOOKS / path.name).read_text(encoding="utf-8")),
            json.loads(path.read_text(encoding="utf-8")),
        )
        for path in written
    }


def _solution_cells(notebook: dict) -> list[dict]:
    return [c for c in notebook["cells"] if SOLUTION_TAG in c["metadata"].get("tags", [])]


#: Notebooks of the book that are no chapter and set no exercise: the how-to page.
NOT_CHAPTERS = {"howto.ipynb"}


@pytest.mark.parametrize(
    "name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name not in NOT_CHAPTERS)
)
def test_every_chapter_has_worked_solutions_and_keeps_its_exercises(name, editions):
    teacher, student = editions[name]
    assert _solution_cells(teacher), f"{name}: exercises with no solution cell"
    # The student still gets the exercises themselves.
    asked = re.findall(r"^#+ Exercise.*$", _all_text(teacher), re.MULTILINE)
    assert asked, f"{name}: no exercise heading"
    for heading in asked:
        assert heading in _all_text(student)


@pytest.mark.parametrize("name", sorted(BOXED))
def test_boxed_answers_are_in_the_teachers_book_and_not_the_students(name, editions):
    teacher, student = editions[name]
    exercises = EXERCISES
    keys = _keys(teacher, BOXED[name])
    assert len(keys) >= 5, f"{name}: found only the boxes {keys}"
    full, bare = _all_text(teacher), _all_text(student)
    assert BOX_MARK in full and BOX_MARK not in bare
    scanned = 0
    for key, seed in keys:
        exercise = exercises[key](seed)
        forms = answer_forms(exercise.answer)
        # Seeded check: the teacher's book holds each answer (its box, its solution).
        assert not forms or any(_written(form, full) for form in forms), (key, forms)
        # A short answer ("24") says nothing alone: its box, holding it, must go.
        box = f'id="{exercise.element_id}" {BOX_MARK}='
        assert box in full and box not in bare, key
        leaked = sorted(form for form in forms if _written(form, bare))
        assert not leaked, f"{name}: the answer of {key} is in the student edition: {leaked}"
        # Each exercise is still asked, by its key.
        assert f"Exercise {key} (seed {seed}):" in bare
        scanned += bool(forms)
    # Most answers are long enough to scan for (the rest: their boxes, above).
    assert scanned >= len(keys) / 2


@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")))
def test_no_solution_text_or_value_in_the_student_edition(name, editions):
    teacher, student = editions[name]
    solutions = _solution_cells(teacher)
    bare = _all_text(student)
    assert not _solution_cells(student)
    assert "Solution to exercise" not in bare
    rest = "\n".join(
        text for cell in teacher["cells"] if cell not in solutions for text in _cell_texts(cell)
    )
    for cell in solutions:
        # The solution's own words (every line of it not also in the chapter) are gone.
        own = [
            line
            for line in _text(cell["source"]).splitlines()
            if len(line.strip()) >= 20 and line not in rest
        ]
        for line in own:
            assert line not in bare, f"{name}: solution text left: {line!r}"
        # A number only a solution prints (4 digits or more, not elsewhere in the
        # chapter) is an answer: the student edition must not show it.
        for output in cell.get("outputs", []):
            for number in re.findall(r"\d[\d,./]*\d%?", _text(output.get("text", ""))):
                if len(re.sub(r"\D", "", number)) >= 4 and number not in rest:
                    assert number not in bare, f"{name}: {number} from a solution is left"


def test_student_box_prints_the_question_and_no_answer(editions):
    _, student = editions["06_exercises.ipynb"]
    boxes = [c for c in student["cells"] if 'exercises["ch6-' in _text(c["source"])]
    assert boxes
    for cell in boxes:
        assert _text(cell["source"]).startswith("print(")
        assert [o["output_type"] for o in cell["outputs"]] == ["stream"]


def test_bad_input_is_refused_and_writes_nothing(tmp_path):
    with pytest.raises(ArgumentError, match="not a folder"):
        build_student_edition(tmp_path / "missing", tmp_path / "out")
    with pytest.raises(ArgumentError, match="must not overwrite"):
        build_student_edition(NOTEBOOKS, NOTEBOOKS)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "a.ipynb").write_text(json.dumps({"cells": [], "metadata": {}}))
    (broken / "b.ipynb").write_text("{not json")
    with pytest.raises(ArgumentError, match=r"cannot read b\.ipynb"):
        build_student_edition(broken, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    with pytest.raises(ArgumentError, match="cells"):
        student_notebook({"metadata": {}})
    assert main([str(broken), str(tmp_path / "out")]) == 2


def test_teacher_cells_go_student_cells_show_and_puzzles_lose_their_answers():
    from rummykit.teach.edition import student_notebook

    page = (
        '<div class="rk-puzzle" id="p1" data-puzzle="{&quot;answer&quot;: 0}">'
        "<script>check()</script><p>Find the discard</p>"
        '<label><input type="radio" name="p1" value="0"> discard K♠</label>'
        '<button type="button" class="rk-check" onclick="c(this)">Check</button>'
        '<p class="rk-verdict" role="status"></p><p>Puzzle p1</p></div>'
    )
    puzzle = {
        "cell_type": "code",
        "metadata": {},
        "source": "display(puzzle)",
        "outputs": [
            {
                "output_type": "display_data",
                "metadata": {},
                "data": {"text/html": page, "text/plain": "Puzzle(key='p1', answer='discard KS')"},
            }
        ],
    }
    teacher = {"cell_type": "markdown", "metadata": {"tags": ["teacher"]}, "source": "Press Check"}
    student = {
        "cell_type": "markdown",
        "metadata": {"tags": ["student", "remove-cell"]},
        "source": "Work it out",
    }
    notebook = {"cells": [teacher, student, puzzle], "metadata": {}, "nbformat": 4}
    cells = student_notebook(notebook)["cells"]
    assert [cell["source"] for cell in cells] == ["Work it out", "display(puzzle)"]
    assert cells[0]["metadata"]["tags"] == ["student"]  # shown in the student edition
    shown = cells[1]["outputs"][0]["data"]
    assert "discard K♠" in shown["text/html"] and "Find the discard" in shown["text/html"]
    for gone in ("data-puzzle", "<script", "rk-check", "rk-verdict"):
        assert gone not in shown["text/html"]
    assert shown["text/plain"] == "Puzzle p1: choose your play"
    # The teacher's notebook is as it was.
    assert "data-puzzle" in puzzle["outputs"][0]["data"]["text/html"]
    assert notebook["cells"][0] is teacher and teacher["metadata"]["tags"] == ["teacher"]


def test_the_sources_page_points_at_nothing_outside_the_repository():
    text = (Path(__file__).resolve().parents[1] / "book" / "bibliography.md").read_text()
    for outside in ("shared/", ".txt", "RULES.md", "sources/"):
        assert outside not in text
    # Each of the five sources by its number and title.
    for number in ("000", "001", "002", "003", "004"):
        assert f"| {number} | *" in text
