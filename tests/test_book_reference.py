"""The book's reference pages (book/reference/, book/_ext/api_reference.py): an entry for
every public name, the command's help and every column of data/ with its meaning."""

from __future__ import annotations

import html
import importlib
import json
import re
import sys
from pathlib import Path

import pytest

from rummykit.odds.data.schemas import (
    COLUMN_MEANINGS,
    SCHEMAS,
    TABLE_COLUMN_MEANINGS,
    column_meaning,
)
from rummykit.odds.pipeline import DESCRIPTIONS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import api_reference  # noqa: E402

#: Each reference page and the modules whose ``__all__`` it documents.
PAGES = {
    "engine": (
        "rummykit",
        "rummykit.evaluate.stories",
        "rummykit.evaluate.beside",
        "rummykit.evaluate.puzzles",
        "rummykit.evaluate.puzzle_book",
        "rummykit.agents.searchbot",
        "rummykit.agents.reading",
        "rummykit.evaluate.duplicate",
        "rummykit.evaluate.estimate",
        "rummykit.evaluate.ladder",
    ),
    "odds": ("rummykit.odds",),
    "widgets": ("rummykit.widgets",),
    "exercises": ("rummykit.exercises",),
    "teach": (
        "rummykit.teach",
        "rummykit.teach.homework",
        "rummykit.teach.assign",
        "rummykit.teach.strategy",
    ),
}


def _defaults(value, name: str):
    """The signature defaults of a public callable (a class's: its constructor's and
    its methods')."""
    import inspect

    functions = [value]
    if inspect.isclass(value):
        functions = [f for n, f in vars(value).items() if callable(f) and not n.startswith("_")]
        functions.append(value.__init__)
    for function in functions:
        try:
            parameters = inspect.signature(function).parameters.values()
        except (TypeError, ValueError):
            continue
        for parameter in parameters:
            yield f"{name}({parameter.name}=...)", parameter.default


def test_no_signature_on_a_reference_page_shows_a_path_of_this_machine():
    # A default such as build(out=BUILD) printed PosixPath('/work/main/build/...').
    import os

    for modules in PAGES.values():
        for module_name in modules:
            module = importlib.import_module(module_name)
            for name in module.__all__:
                for where, default in _defaults(getattr(module, name), name):
                    if isinstance(default, (str, os.PathLike)):
                        assert not os.path.isabs(default), (module_name, where, default)


def test_every_column_of_data_has_a_meaning():
    for table, schema in SCHEMAS.items():
        for column in schema:
            assert len(column_meaning(table, column)) > 10
    used = {column for schema in SCHEMAS.values() for column in schema}
    assert set(COLUMN_MEANINGS) == used, "a meaning for a column no table has"
    for table, column in TABLE_COLUMN_MEANINGS:
        assert column in SCHEMAS[table], (table, column)
    with pytest.raises(Exception, match="no column 'q' in a table 'exact_odds'"):
        column_meaning("exact_odds", "q")


def test_each_name_gets_the_entry_of_its_kind():
    text = api_reference.api_rst("rummykit")
    assert ".. autofunction:: rummykit.find_contract" in text
    assert ".. autoclass:: rummykit.RuleSet" in text
    assert ".. autoexception:: rummykit.RummyError" in text
    assert ".. py:data:: CONTRACTS" in text
    # Functions come before classes, classes before errors.
    assert text.index("rubric:: Functions") < text.index("rubric:: Classes")
    assert text.index("rubric:: Classes") < text.index("rubric:: Errors")
    # A datum is documented by its own comment, found where it is defined.
    assert api_reference.data_doc("rummykit.odds", "SCHEMAS")[0].startswith("Every schema")


def test_the_command_help_covers_every_subcommand(monkeypatch):
    commands = dict(api_reference.cli_help())
    # The same page whatever the terminal that builds it.
    monkeypatch.setenv("COLUMNS", "40")
    assert dict(api_reference.cli_help()) == commands
    assert set(commands) == {
        "rummykit",
        "rummykit odds",
        "rummykit simulate",
        "rummykit tables",
        "rummykit review",
        "rummykit puzzles",
    }
    assert "--html" in commands["rummykit review"]
    assert "--budget" in commands["rummykit puzzles"]
    assert "--allow-long" in commands["rummykit odds"]
    assert "--checkpoint" in commands["rummykit tables"]


def _ids(page: Path) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', page.read_text(encoding="utf-8")))


@pytest.mark.browser
@pytest.mark.parametrize("page", PAGES)
def test_every_public_name_has_an_entry_in_the_built_book(built_book, page):
    ids = _ids(built_book / "reference" / f"{page}.html")
    for module_name in PAGES[page]:
        module = importlib.import_module(module_name)
        missing = [name for name in module.__all__ if f"{module_name}.{name}" not in ids]
        assert missing == [], module_name
    # Examples in the docstrings render as code.
    if page == "engine":
        text = (built_book / "reference" / "engine.html").read_text(encoding="utf-8")
        assert 'class="highlight-pycon' in text or 'class="doctest' in text


@pytest.mark.browser
def test_the_built_pages_hold_the_command_help_and_every_column(built_book):
    command = html.unescape((built_book / "reference" / "command.html").read_text("utf-8"))
    for name, text in api_reference.cli_help():
        first = text.splitlines()[0]
        assert first in command, name
    data = html.unescape((built_book / "reference" / "data.html").read_text("utf-8"))
    data = data.replace("\u2019", "'")  # Sphinx writes typographic apostrophes
    for table, schema in SCHEMAS.items():
        assert f'id="{table.replace("_", "-")}"' in data, table
        assert DESCRIPTIONS[table] in data
        for column in schema:
            assert (
                f'<code class="docutils literal notranslate"><span class="pre">{column}</span></code>'
                in data
            )


@pytest.mark.browser
def test_the_how_to_page_is_in_the_book(built_book):
    page = (built_book / "notebooks" / "howto.html").read_text(encoding="utf-8")
    for section in ("Deal a hand and check it", "Save and load", "Run the tables on Dask"):
        assert section in page
    # Its links reach the reference entries.
    assert 'href="../reference/engine.html#rummykit.find_contract"' in page


def _public_names() -> dict[str, str]:
    """Each public name of the reference pages, with its entry's target."""
    names: dict[str, str] = {}
    for modules in PAGES.values():
        for module_name in modules:
            module = importlib.import_module(module_name)
            for name in module.__all__:
                names.setdefault(name, f"{module_name}.{name}")
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_a_chapters_first_mention_of_a_public_name_links_to_its_entry(path):
    prose = "\n".join(
        "".join(cell["source"])
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown"
    )
    unlinked = []
    for name, target in _public_names().items():
        first = re.search(rf"`{name}(\(\))?`", prose)
        if first is None:
            continue
        linked = (
            prose[first.start() - 1 : first.start()] == "["
            and prose[first.end() : first.end() + 3 + len(target)] == f"](#{target}"
        )
        if not linked:
            unlinked.append(name)
    assert unlinked == []


def test_every_build_reads_the_reference_pages_again():
    """They are made from the code, which Sphinx does not watch: an incremental build
    must not keep a page of code that has changed."""
    from types import SimpleNamespace

    env = SimpleNamespace(found_docs={"intro", "reference/odds", "reference/data", "teachers"})
    outdated = api_reference.reference_pages(None, env, set(), set(), set())
    assert outdated == ["reference/data", "reference/odds"]


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_datum_of_a_page_has_its_comment(page):
    """What the book's build would stop at: a datum of a module's ``__all__`` with no
    ``#:`` comment where it is defined (found without building the book)."""
    for module_name in PAGES[page]:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if api_reference.entry_kind(getattr(module, name)) == "autodata":
                assert api_reference.data_doc(module_name, name), (module_name, name)
