"""The book's notebooks give what is committed, checked on the book's own run (issue 51,
item 6: each notebook runs once in ``make test``).

The book build executes every chapter (``execute_notebooks: force``, no error allowed, a
line on stderr an error) and keeps each executed notebook in
``book/_build/jupyter_execute``. This compares those outputs with the committed ones
cell by cell, as nbval's strict mode compared them when it ran the notebooks a second
time: the same streams coalesced, the same fields left out (metadata, execution counts,
widget model ids, raster images), the same masks (``notebooks/nbval_sanitize.cfg``).
The notebooks outside the book (``notebooks/activity``) are still run by nbval.
``pytest notebooks/NAME.ipynb`` still runs one chapter under nbval, by hand.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import nbformat
import pytest
from nbval.plugin import coalesce_streams, get_sanitize_patterns, transform_streams_for_comparison

from tests.support.book import BOOK
from tests.support.notebooks import NOTEBOOKS

pytestmark = pytest.mark.slow

#: Where the book build keeps each executed notebook.
EXECUTED = BOOK / "_build" / "jupyter_execute" / "notebooks"

#: The fields nbval leaves out of a comparison (its ``skip_compare``, without nbdime).
SKIP = (
    "metadata",
    "traceback",
    "prompt_number",
    "output_type",
    "name",
    "execution_count",
    "application/vnd.jupyter.widget-view+json",
    "image/png",
    "image/jpeg",
)

PATTERNS = get_sanitize_patterns((NOTEBOOKS / "nbval_sanitize.cfg").read_text())


def _sanitize(value: object) -> object:
    if not isinstance(value, str):
        return value
    for regex, replace in PATTERNS:
        value = re.sub(regex, replace, value)
    return value


def comparable(outputs: list) -> dict[str, list]:
    """A cell's outputs as nbval compares them: each field (a stream's name, a MIME type,
    an error's name and value) with its values in order, masked."""
    fields: dict[str, list] = defaultdict(list)
    for output in transform_streams_for_comparison(coalesce_streams(outputs)):
        for key, value in output.items():
            if key in SKIP:
                continue
            if key == "data":
                for kind, data in value.items():
                    if kind not in SKIP:
                        fields[kind].append(_sanitize(data))
            else:
                fields[key].append(_sanitize(value))
    return dict(fields)


def differences(committed: nbformat.NotebookNode, executed: nbformat.NotebookNode) -> list[str]:
    """Each code cell whose outputs differ, in words (nothing for a cell not run when it
    was committed, as nbval checks none; such a cell must have no output)."""
    ours = [cell for cell in committed.cells if cell.cell_type == "code"]
    theirs = [cell for cell in executed.cells if cell.cell_type == "code"]
    if len(ours) != len(theirs):
        return [f"{len(ours)} code cells committed, {len(theirs)} executed"]
    found = []
    for number, (cell, run) in enumerate(zip(ours, theirs, strict=True), start=1):
        if cell.execution_count is None:
            if cell.outputs:
                found.append(f"code cell {number}: not run when committed, but has outputs")
            continue
        want, got = comparable(cell.outputs), comparable(run.outputs)
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                found.append(
                    f"code cell {number} ({cell.source[:60]!r}...), {key}:\n"
                    f"  committed: {str(want.get(key))[:400]}\n"
                    f"  executed:  {str(got.get(key))[:400]}"
                )
    return found


def _chapters() -> list[str]:
    return sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))


def test_every_chapter_is_in_the_book():
    """Each notebook of notebooks/ (not activity/) is a page of the book, so the book's
    run checks it."""
    toc = (BOOK / "_toc.yml").read_text()
    for name in _chapters():
        assert f"file: notebooks/{name.removesuffix('.ipynb')}\n" in toc, name


def test_the_comparison_sees_a_changed_output():
    """The check can fail: a number changed in a committed output, or an output lost, is
    a difference; a masked widget id is not."""
    cell = nbformat.v4.new_code_cell("print(1)", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="8.9% (1 in 11)\n")]
    committed = nbformat.v4.new_notebook(cells=[cell])
    same = nbformat.from_dict(committed)
    assert differences(committed, same) == []
    changed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    changed.cells[0].outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="8.8% (1 in 11)\n")
    ]
    assert differences(committed, changed)
    changed.cells[0].outputs = []
    assert differences(committed, changed)
    ids = [
        nbformat.v4.new_output("display_data", data={"text/plain": f"model {hex_id}"})
        for hex_id in ("0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210")
    ]
    first = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("w", execution_count=1)])
    second = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("w", execution_count=1)])
    first.cells[0].outputs, second.cells[0].outputs = [ids[0]], [ids[1]]
    assert differences(first, second) == []


@pytest.mark.parametrize("name", _chapters())
def test_the_books_run_gives_the_committed_outputs(built_book: Path, name: str):
    executed = EXECUTED / name
    assert executed.exists(), f"the book build kept no executed copy of {name}"
    problems = differences(
        nbformat.read(NOTEBOOKS / name, as_version=4), nbformat.read(executed, as_version=4)
    )
    assert not problems, f"{name}: outputs differ from the committed ones:\n" + "\n".join(problems)
