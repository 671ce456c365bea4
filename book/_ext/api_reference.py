"""The book's API reference, made from the code at every build.

Three directives, each a page's body in ``book/reference/``:

* ``{rummykit-api} MODULE``: an entry for every name in ``MODULE.__all__`` (its signature,
  its docstring with the examples as code, a class's public methods and properties),
  grouped as functions, classes, data and errors, by Sphinx's autodoc. A name added to ``__all__`` gets its
  entry at the next build, and ``tests/test_book_reference.py`` checks the built pages
  against ``__all__``.
* ``{rummykit-cli}``: the ``rummykit`` command's help and every subcommand's, as the
  command prints them (:func:`rummykit.cli.main`).
* ``{rummykit-schemas}``: each table of ``data/``, its description and every column with
  its type and meaning (:data:`rummykit.odds.data.schemas.SCHEMAS`,
  :data:`rummykit.odds.data.schemas.COLUMN_MEANINGS`).

Everything is read from the installed package; nothing is fetched. The pages are read
again at every build (:func:`reference_pages`), as the code may have changed.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def entry_kind(value: Any) -> str:
    """The autodoc directive that documents ``value``."""
    if inspect.isclass(value):
        return "autoexception" if issubclass(value, BaseException) else "autoclass"
    if callable(value):
        return "autofunction"
    return "autodata"


def data_doc(module_name: str, name: str) -> list[str]:
    """The ``#:`` comment that documents the data ``name`` of ``module_name``, read where
    the value is defined (a package re-exports it from the module that holds the comment)."""
    import sys

    from sphinx.pycode import ModuleAnalyzer

    value = getattr(sys.modules[module_name], name)
    homes = [module_name] + sorted(
        other
        for other, module in list(sys.modules.items())
        if other.startswith("rummykit") and getattr(module, name, None) is value
    )
    for home in homes:
        with contextlib.suppress(Exception):  # a module autodoc cannot analyse
            found = ModuleAnalyzer.for_module(home).find_attr_docs().get(("", name))
            if found:
                return list(found)
    raise ValueError(f"{module_name}.{name} has no #: comment where it is defined")


#: The groups of a reference page, in order: (title, kinds of entry).
GROUPS = (
    ("Functions", ("autofunction",)),
    ("Classes", ("autoclass",)),
    ("Data", ("autodata",)),
    ("Errors", ("autoexception",)),
)


def api_rst(module_name: str) -> str:
    """The reStructuredText of ``module_name``'s reference: its docstring, then one
    autodoc entry per name of its ``__all__``, functions first, then classes, data and
    errors, each group in the order of ``__all__``."""
    module = importlib.import_module(module_name)
    lines = [f".. automodule:: {module_name}", "   :no-members:", ""]
    kinds = {name: entry_kind(getattr(module, name)) for name in module.__all__}
    for title, wanted in GROUPS:
        names = [name for name in module.__all__ if kinds[name] in wanted]
        if names:
            lines += [f".. rubric:: {title}", ""]
        for name in names:
            kind = kinds[name]
            if kind == "autodata":  # documented by its comment, not by its type's docstring
                lines += [f".. py:data:: {name}", f"   :module: {module_name}"]
                lines += [""] + [f"   {line}".rstrip() for line in data_doc(module_name, name)]
            else:
                lines.append(f".. {kind}:: {module_name}.{name}")
            if kind in ("autoclass", "autoexception"):
                lines += ["   :members:", "   :show-inheritance:"]
            lines.append("")
    return "\n".join(lines)


def _parse_rst(directive: SphinxDirective, text: str) -> list[nodes.Node]:
    """``text`` (reStructuredText) parsed in a MyST page, by MyST's ``eval-rst``."""
    fence = "`" * 6
    return directive.parse_text_to_nodes(f"{fence}{{eval-rst}}\n{text}\n{fence}\n")


class ApiDirective(SphinxDirective):
    """``{rummykit-api} MODULE``: see the module's docstring."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return _parse_rst(self, api_rst(self.arguments[0]))


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse offers no public way to its subparsers
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_help() -> list[tuple[str, str]]:
    """(command, help text) of ``rummykit`` and each subcommand, as ``--help`` prints them
    at a fixed width (so the page does not depend on the terminal that built it)."""
    import os

    from rummykit import cli

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        parser = cli._parser()
        pages = [("rummykit", parser)] + [
            (f"rummykit {name}", sub) for name, sub in _subcommands(parser).items()
        ]
        out = []
        for command, sub in pages:
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                sub.print_help()
            out.append((command, text.getvalue().rstrip()))
        return out
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


class CliDirective(SphinxDirective):
    """``{rummykit-cli}``: a section per command with its help as a literal block."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for command, text in cli_help():
            section = nodes.section(ids=[nodes.make_id(command)])
            section += nodes.title(text=command)
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            section += block
            out.append(section)
        return out


def schema_rst() -> str:
    """A section per table of ``data/``: its description, then a table of its columns."""
    from rummykit.odds.data.schemas import SCHEMAS, column_meaning
    from rummykit.odds.pipeline import DESCRIPTIONS

    lines = []
    for table, schema in SCHEMAS.items():
        title = f"``{table}``"
        lines += [title, "-" * len(title), "", DESCRIPTIONS[table] + ".", ""]
        lines += [
            f"Files: ``data/{table}.parquet``, ``data/{table}.csv`` and ``data/{table}.json``"
            " (the provenance: the command, the seed, the rounds, the run).",
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 2 2 8",
            "",
            "   * - column",
            "     - type",
            "     - meaning",
        ]
        for column, dtype in schema.items():
            lines += [
                f"   * - ``{column}``",
                f"     - {dtype}",
                f"     - {column_meaning(table, column)}",
            ]
        lines.append("")
    return "\n".join(lines)


class SchemasDirective(SphinxDirective):
    """``{rummykit-schemas}``: see the module's docstring."""

    def run(self) -> list[nodes.Node]:
        return _parse_rst(self, schema_rst())


def reference_pages(app: Sphinx, env, added, changed, removed) -> list[str]:
    """The reference pages, read again at every build: they are made from the code, which
    Sphinx does not watch, so an incremental build would keep them as the code was."""
    return sorted(name for name in env.found_docs if name.startswith("reference/"))


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.autodoc")
    app.connect("env-get-outdated", reference_pages)
    app.add_directive("rummykit-api", ApiDirective)
    app.add_directive("rummykit-cli", CliDirective)
    app.add_directive("rummykit-schemas", SchemasDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
