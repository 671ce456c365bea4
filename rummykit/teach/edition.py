"""The student edition of the book's notebooks: the chapters with no answer in them.

The teacher's book (``notebooks/``) carries a worked solution under every exercise, in
cells tagged ``solution`` (a collapsed dropdown and a collapsed code cell), and answer
boxes whose page script holds the answer, so a reader can check theirs. The student
edition keeps everything else and removes:

- every cell tagged ``solution`` (the worked solutions and the code that checks them) or
  ``teacher`` (what only the teacher's book needs: how its boxes check an answer), and it
  shows the cells tagged ``student`` (hidden in the teacher's book: what a student does
  instead);
- the answers in the answer boxes: a box's output (an ``Exercise`` shown as HTML, its
  answer in a ``data-exercise`` attribute) becomes the question as plain text, and its
  code prints the question (``print(exercise)``: an ``Exercise`` prints no answer), so
  re-running the student's notebook brings no answer back either;
- the answers of chapter 10's puzzles: each box keeps its position and choices, without
  the data and the checker that hold its answer and its messages.

``make student-edition`` writes ``build/student-edition/*.ipynb``;
``python -m rummykit.teach.edition SOURCE OUT`` does the same for any folder.

>>> box = {
...     "cell_type": "code", "metadata": {}, "execution_count": 3,
...     "source": 'exercises["ch6-hands"](SEED)',
...     "outputs": [{"output_type": "execute_result", "execution_count": 3,
...                  "metadata": {}, "data": {
...         "text/plain": "Exercise ch6-hands, seed 0: How many hands?",
...         "text/html": '<div data-exercise="{&quot;answer&quot;: ...}">'}}]}
>>> worked = {"cell_type": "markdown", "metadata": {"tags": ["solution"]},
...           "source": "Solution: 42"}
>>> notebook = {"cells": [box, worked], "metadata": {}, "nbformat": 4,
...             "nbformat_minor": 5}
>>> student = student_notebook(notebook)
>>> [cell["cell_type"] for cell in student["cells"]]
['code']
>>> student["cells"][0]["source"]
'print(exercises["ch6-hands"](SEED))'
>>> student["cells"][0]["outputs"][0]["text"]
'Exercise ch6-hands (seed 0): How many hands?\\n'
>>> notebook["cells"][1]["metadata"]["tags"]  # the teacher's notebook is unchanged
['solution']
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from pathlib import Path

from rummykit.engine.checks import path as check_path
from rummykit.errors import ArgumentError, OutputError

#: The cell tag of a worked solution (markdown or code): the student edition drops it.
SOLUTION_TAG = "solution"
#: The tag of a cell for the teacher's book only (how its answer boxes and solutions work):
#: the student edition drops it.
TEACHER_TAG = "teacher"
#: The tag of a cell for the student edition only (what a student does instead). The
#: teacher's book hides it (it carries ``remove-cell`` too); the student edition shows it.
STUDENT_TAG = "student"
#: The tag by which the teacher's book hides a cell.
HIDDEN_TAG = "remove-cell"
#: What marks an answer box's HTML output: the attribute holding its checker's data.
BOX_MARK = "data-exercise"
#: An Exercise's text form in a notebook, ``Exercise KEY, seed S: QUESTION``.
_PRETTY = re.compile(r"^Exercise (?P<key>[a-z0-9-]+), seed (?P<seed>\d+): ", re.DOTALL)

__all__ = [
    "BOX_MARK",
    "PUZZLE_MARK",
    "SOLUTION_TAG",
    "STUDENT_TAG",
    "TEACHER_TAG",
    "build_student_edition",
    "student_notebook",
]


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _is_box(cell: dict) -> bool:
    return any(
        BOX_MARK in _text(output.get("data", {}).get("text/html", ""))
        for output in cell.get("outputs", [])
    )


def _student_box(cell: dict) -> dict:
    """A box cell that prints its question: the same text as ``print(exercise)``."""
    source = _text(cell["source"]).strip()
    lines = source.splitlines()
    # The box is the cell's last expression; anything above it stays as it is.
    lines[-1] = f"print({lines[-1]})"
    question = ""
    for output in cell.get("outputs", []):
        plain = _text(output.get("data", {}).get("text/plain", ""))
        if BOX_MARK in _text(output.get("data", {}).get("text/html", "")) and plain:
            question = _PRETTY.sub(r"Exercise \g<key> (seed \g<seed>): ", plain)
    if not question:
        raise ArgumentError(
            f"answer box {source!r}: its output has no question text (text/plain); "
            "re-execute the notebook"
        )
    student = copy.deepcopy(cell)
    student["source"] = "\n".join(lines)
    student["outputs"] = [
        {"output_type": "stream", "name": "stdout", "text": question.rstrip("\n") + "\n"}
    ]
    return student


#: What marks a puzzle's box (:class:`rummykit.evaluate.puzzles.Puzzle`): its answer and messages
#: are in the box's ``data-puzzle`` attribute, its checker in a script.
PUZZLE_MARK = 'class="rk-puzzle"'
_PUZZLE_DATA = re.compile(r'\sdata-puzzle="[^"]*"')
_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)
_CHECK = re.compile(r'<button[^>]*class="rk-check"[^>]*>.*?</button>', re.DOTALL)
_VERDICT = re.compile(r'<p class="rk-verdict"[^>]*>.*?</p>', re.DOTALL)
_PUZZLE_KEY = re.compile(r"^Puzzle\(key='(?P<key>[^']+)'")


def _student_output(output: dict) -> dict:
    """An output with a puzzle's answer taken out: its box keeps the position and the
    choices, without the data, the script and the Check button that hold or use the
    answer; its text form (the dataclass, answer and all) becomes the puzzle's key."""
    data = output.get("data", {})
    page = _text(data.get("text/html", ""))
    if PUZZLE_MARK not in page:
        return copy.deepcopy(output)
    student = copy.deepcopy(output)
    for pattern in (_PUZZLE_DATA, _SCRIPT, _CHECK, _VERDICT):
        page = pattern.sub("", page)
    student["data"]["text/html"] = page
    found = _PUZZLE_KEY.match(_text(data.get("text/plain", "")))
    key = found.group("key") if found else "?"
    student["data"]["text/plain"] = f"Puzzle {key}: choose your play"
    return student


def student_notebook(notebook: dict) -> dict:
    """The student edition of one notebook (a dict in nbformat 4): solution cells
    dropped, answer boxes turned into their questions. ``notebook`` is not changed."""
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ArgumentError("notebook must be an nbformat 4 dict with a 'cells' list")
    student = {key: copy.deepcopy(value) for key, value in notebook.items() if key != "cells"}
    cells = []
    for cell in notebook["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if SOLUTION_TAG in tags or TEACHER_TAG in tags:
            continue
        if STUDENT_TAG in tags:
            shown = copy.deepcopy(cell)
            shown["metadata"]["tags"] = [tag for tag in tags if tag != HIDDEN_TAG]
            cells.append(shown)
            continue
        if _is_box(cell):
            cells.append(_student_box(cell))
            continue
        kept = copy.deepcopy(cell)
        if "outputs" in kept:
            kept["outputs"] = [_student_output(output) for output in cell["outputs"]]
        cells.append(kept)
    student["cells"] = cells
    return student


def build_student_edition(source: Path | str, out: Path | str) -> list[Path]:
    """Write the student edition of every ``*.ipynb`` in ``source`` into ``out`` (made if
    missing) and return the paths written. Nothing is written if any notebook cannot be
    read, and ``out`` must not be ``source``; an ``out`` that cannot be written is an
    :class:`~rummykit.errors.OutputError`."""
    source, out = check_path("source", source), check_path("out", out)
    try:
        folder = source.is_dir()
    except OSError:  # a name too long for the file system
        folder = False
    if not folder:
        raise ArgumentError(f"source: {source} is not a folder of notebooks")
    if out.resolve() == source.resolve():
        raise ArgumentError("out: the student edition must not overwrite the teacher's notebooks")
    paths = sorted(source.glob("*.ipynb"))
    if not paths:
        raise ArgumentError(f"source: {source} holds no notebook (*.ipynb)")
    editions = {}
    for path in paths:
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise ArgumentError(f"source: cannot read {path.name}: {error}") from None
        try:
            editions[path.name] = student_notebook(notebook)
        except ArgumentError as error:
            raise ArgumentError(f"{path.name}: {error}") from None
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, notebook in editions.items():
            target = out / name
            target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", "utf-8")
            written.append(target)
    except OSError as error:
        raise OutputError(f"out: cannot write the student edition in {out}: {error}") from None
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rummykit.teach.edition",
        description="Write the student edition of the notebooks: no solution, no answer.",
    )
    parser.add_argument("source", nargs="?", default="notebooks")
    parser.add_argument("out", nargs="?", default="build/student-edition")
    args = parser.parse_args(argv)
    try:
        written = build_student_edition(args.source, args.out)
    except ArgumentError as error:
        print(f"student edition: {error}", file=sys.stderr)
        return 2
    print(f"student edition: {len(written)} notebooks in {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
