"""The student book: the chapters as students get them, built beside the teacher's book.

The teacher's book (``book/``, ``make book``) has a worked solution under every exercise,
answer boxes whose pages check an answer (so they hold it), chapter 10's puzzles with their
answers, and a guide for teachers. The student book is built from the same committed
notebooks by :func:`rummykit.teach.edition.student_notebook`: no solution, no answer in a
box, an output or a page's data, puzzles without their answers, and no page for teachers.
It has no live notebooks (they need the teacher's book's JupyterLite site).
It has its own folder (``build/student-book/html``) and neither book links to the other.

Its notebooks are not executed again: their outputs are the teacher's book's, which nbval
checks against the code at every ``make test``, less the answers. The reference pages are
the teacher's book's (the docstrings, built at each build).

``make book`` builds it after the teacher's book;
``python -m rummykit.teach.student_book [OUT]`` builds it alone (about 20 s). A build
that fails leaves the last good one in place.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

from rummykit.engine.checks import path as check_path
from rummykit.errors import ArgumentError, OutputError
from rummykit.teach.edition import student_notebook

__all__ = [
    "CHAPTERS",
    "MIN_SCANNED_INT",
    "REFERENCE",
    "answer_forms",
    "answer_leaks",
    "build_student_book",
    "student_sources",
]

#: The chapters of the student book, in the teacher's book's order (its numbering).
CHAPTERS = (
    "01_learn_the_rules",
    "02_counting_hands",
    "03_contract_odds",
    "04_at_the_table",
    "05_rule_variants",
    "06_exercises",
    "07_outs",
    "play",
    "09_more_probability",
    "10_puzzles",
    "11_strategy",
)
#: The reference pages it keeps (the chapters link to their entries). The teacher's guide
#: and the reference pages of the exercises and of ``rummykit.teach`` are left out: their
#: examples show answers.
REFERENCE = ("engine", "odds", "widgets", "command", "data")

_INTRO = """# rummykit: the student edition

rummykit is a Python toolkit for **Liverpool Rummy** (also called contract rummy), made to be
used in Jupyter. It knows the rules exactly: which cards form a set or a run, which hands
complete each round's contract, and how likely a dealt hand is to get there.

These chapters go with your probability class. Every chapter ends with exercises; where an
exercise has a variant for each student, set `SEED` at the top of the chapter's notebook to
the number your teacher gives you, and run it: the question then has your own numbers.

## The chapters

{chapters}

Every chapter is a Jupyter notebook: run it yourself from top to bottom and you will see
the same numbers and the same cards, since every random deal is seeded.

[The rules' sources](bibliography.md) describes the five written descriptions of the game
that the rules come from.
"""

_TITLES = {
    "01_learn_the_rules": "Learn the rules",
    "02_counting_hands": "Counting hands",
    "03_contract_odds": "Contract odds",
    "04_at_the_table": "At the table",
    "05_rule_variants": "Rule variants compared",
    "06_exercises": "Exercises for a probability class",
    "07_outs": "Outs",
    "play": "Play: the widgets",
    "09_more_probability": "More probability at the table",
    "10_puzzles": "Puzzles",
    "11_strategy": "Strategy",
}

_CONFIG = """# The student book (rummykit.teach.student_book): the teacher's book's settings, its
# notebooks not executed again, no live notebooks. Written at each build; do not edit.
title: "rummykit: the student edition"
author: the rummykit authors
copyright: "2026"
only_build_toc_files: true
exclude_patterns: [_build, "**.ipynb_checkpoints"]
execute:
  execute_notebooks: "off"
parse:
  myst_enable_extensions: [colon_fence, dollarmath]
html:
  use_edit_page_button: false
  use_repository_button: false
  use_issues_button: false
  use_multitoc_numbering: true
  home_page_in_navbar: true
  analytics:
    google_analytics_id: ""
    plausible_analytics_domain: ""
  comments:
    hypothesis: false
    utterances: false
launch_buttons:
  binderhub_url: ""
  jupyterhub_url: ""
  colab_url: ""
  deepnote_url: ""
  thebe: false
repository:
  url: ""
sphinx:
  local_extensions:
    offline_book: {ext}
    api_reference: {ext}
  extra_extensions:
    - sphinx-mathjax-offline
  config:
    nb_ipywidgets_js: {{}}
    html_context:
      default_mode: light
    html_theme_options:
      launch_buttons: {{}}
      use_download_button: true
      use_fullscreen_button: true
"""


#: A live notebook's directive: it needs the teacher's book's JupyterLite site.
_LIVE = re.compile(r"\n*```\{notebooklite\}.*?```", re.DOTALL)
#: The sentence that leads into a live notebook inside a paragraph.
_LIVE_LEAD = re.compile(r" It runs here in your browser too[^:\n]*:")


def _without_live_notebooks(notebook: dict) -> dict:
    """The notebook with no live notebook: a section that only holds them goes, and a
    directive inside other text goes with the sentence that leads into it."""
    cells = []
    for cell in notebook["cells"]:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown" and "{notebooklite}" in text:
            if text.lstrip().startswith("## Live in this page"):
                continue
            cell = {**cell, "source": _LIVE_LEAD.sub("", _LIVE.sub("", text))}
        cells.append(cell)
    return {**notebook, "cells": cells}


def _toc() -> str:
    chapters = "\n".join(f"      - file: notebooks/{name}" for name in CHAPTERS)
    reference = "\n".join(f"      - file: reference/{name}" for name in REFERENCE)
    return (
        "# The student book's table of contents (rummykit.teach.student_book).\n"
        "format: jb-book\nroot: intro\nparts:\n  - caption: Chapters\n    numbered: true\n"
        f"    chapters:\n{chapters}\n  - caption: Reference\n    chapters:\n{reference}\n"
        "      - file: bibliography\n"
    )


def student_sources(book: Path | str, notebooks: Path | str, out: Path | str) -> Path:
    """Write the student book's sources into the folder ``out`` (made, and emptied of an
    earlier build's sources): its configuration and table of contents, a student's
    introduction, the student edition of each chapter of :data:`CHAPTERS`, the reference
    pages of :data:`REFERENCE`, the sources page and the teacher's book's static files.
    Returns ``out``."""
    book, notebooks, out = (
        check_path("book", book),
        check_path("notebooks", notebooks),
        check_path("out", out),
    )
    for name in CHAPTERS:
        if not (notebooks / f"{name}.ipynb").is_file():
            raise ArgumentError(f"notebooks: {notebooks} has no {name}.ipynb")
    editions = {}
    for name in CHAPTERS:
        path = notebooks / f"{name}.ipynb"
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
            editions[name] = _without_live_notebooks(student_notebook(notebook))
        except (OSError, json.JSONDecodeError) as error:
            raise ArgumentError(f"notebooks: cannot read {path.name}: {error}") from None
        except ArgumentError as error:
            raise ArgumentError(f"{path.name}: {error}") from None
    if out.exists():
        shutil.rmtree(out)
    (out / "notebooks").mkdir(parents=True)
    (out / "reference").mkdir()
    ext = (book / "_ext").resolve()
    (out / "_config.yml").write_text(_CONFIG.format(ext=json.dumps(str(ext))), "utf-8")
    (out / "_toc.yml").write_text(_toc(), "utf-8")
    listed = "\n".join(
        f"{number}. [{_TITLES[name]}](notebooks/{name}.ipynb)"
        for number, name in enumerate(CHAPTERS, start=1)
    )
    (out / "intro.md").write_text(_INTRO.format(chapters=listed), "utf-8")
    for name, notebook in editions.items():
        text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
        (out / "notebooks" / f"{name}.ipynb").write_text(text, "utf-8")
    for name in REFERENCE:
        shutil.copy2(book / "reference" / f"{name}.md", out / "reference" / f"{name}.md")
    shutil.copy2(book / "bibliography.md", out / "bibliography.md")
    shutil.copytree(book / "_static", out / "_static")
    return out


def build_student_book(
    out: Path | str = "build/student-book",
    *,
    book: Path | str = "book",
    notebooks: Path | str = "notebooks",
) -> Path:
    """Build the student book into ``out``/html (its sources in ``out``/src) with
    jupyter-book, and return the HTML folder. The build runs in a fresh folder; only a
    build that succeeded (every warning an error) replaces the last one."""
    out = check_path("out", out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".student-book-", dir=out))
    except OSError as error:
        raise OutputError(f"out: cannot write the student book in {out}: {error}") from None
    try:
        sources = student_sources(book, notebooks, work / "src")
        jupyter_book = Path(sys.executable).with_name("jupyter-book")
        done = subprocess.run(
            [str(jupyter_book), "build", str(sources), "--warningiserror", "--keep-going"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise OutputError(
                f"the student book did not build (jupyter-book exit {done.returncode}):\n"
                f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
            )
        html, src = out / "html", out / "src"
        for old in (html, src):
            if old.exists():
                shutil.rmtree(old)
        (sources / "_build" / "html").rename(html)
        shutil.rmtree(sources / "_build")
        sources.rename(src)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return html


#: Whole-number answers from this size up are looked for; smaller ones are too common in
#: any page (a turn, a count of cards) to tell from other numbers.
MIN_SCANNED_INT = 10_000
#: The files of a built book that hold its own words and numbers (the theme's and MathJax's
#: files under _static are not the book's).
_SCANNED = (".html", ".js", ".json", ".txt", ".ipynb", ".svg")


def answer_forms(answer: object) -> set[str]:
    """How an answer could be written in a page: a fraction as ``n/d``; any answer that is
    not whole also as a decimal of 4 significant figures; a whole number of at least
    :data:`MIN_SCANNED_INT` with and without thousands separators. Words and small whole
    numbers give nothing to look for.

    >>> sorted(answer_forms(Fraction(49000, 78003))), sorted(answer_forms(77937))
    (['0.6282', '49000/78003'], ['77,937', '77937'])
    >>> answer_forms(32), answer_forms("pass")
    (set(), set())
    """
    if isinstance(answer, bool) or not isinstance(answer, (int, float, Fraction)):
        return set()
    if isinstance(answer, int) or (isinstance(answer, Fraction) and answer.denominator == 1):
        whole = int(answer)
        return {str(whole), f"{whole:,}"} if abs(whole) >= MIN_SCANNED_INT else set()
    forms = set()
    if isinstance(answer, Fraction):
        forms.add(f"{answer.numerator}/{answer.denominator}")
    decimal = f"{float(answer):.4g}"
    # A short decimal (0.25, 1.5) is in any page: only one of 4 significant figures.
    if len(decimal.lstrip("-0.").replace(".", "")) >= 4 and "e" not in decimal:
        forms.add(decimal)
    return forms


def _svg_words(svg: str) -> str:
    return " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))


def _words(path: Path) -> str:
    """What a file of the built book says: an SVG's ``<text>``; a notebook's sources and
    outputs, its SVG outputs by their ``<text>``; any other file whole, its inline SVG by
    its ``<text>`` (a path's coordinates are no words)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".svg":
        return _svg_words(text)
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(text).get("cells", [])
        except (json.JSONDecodeError, AttributeError):
            return text
        parts = []
        for cell in cells:
            parts.append(_joined(cell.get("source", "")))
            for output in cell.get("outputs", []):
                parts.append(_joined(output.get("text", "")))
                for mime, value in output.get("data", {}).items():
                    value = _joined(value)
                    parts.append(_svg_words(value) if "svg" in mime else value)
        text = "\n".join(parts)
    return re.sub(r"<svg\b.*?</svg>", lambda m: _svg_words(m.group(0)), text, flags=re.DOTALL)


def _joined(value: object) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def answer_leaks(html: Path | str, answers: dict[str, object]) -> dict[str, list[str]]:
    """Where the built book at ``html`` writes any of ``answers`` (a name, such as
    ``"ch9-fpc seed 3"``, to its answer) in a form of :func:`answer_forms`: each name found
    with the files, relative to ``html``, that hold it. The files under ``_static`` (the
    theme's) are not read; in an SVG only its ``<text>`` is."""
    html = check_path("html", html)
    wanted: dict[str, set[str]] = {}
    for name, answer in answers.items():
        for form in answer_forms(answer):
            wanted.setdefault(form, set()).add(name)
    if not wanted:
        return {}
    # A form stands alone: not inside a longer number, fraction or decimal.
    pattern = re.compile(
        r"(?<![\d.,/])("
        + "|".join(re.escape(form) for form in sorted(wanted, key=len, reverse=True))
        + r")(?![\d/]|[.,]\d)"
    )
    found: dict[str, set[str]] = {}
    for path in sorted(html.rglob("*")):
        relative = path.relative_to(html)
        if not path.is_file() or path.suffix not in _SCANNED or relative.parts[0] == "_static":
            continue
        text = _words(path)
        for match in pattern.finditer(text):
            for name in wanted[match.group(1)]:
                found.setdefault(name, set()).add(str(relative))
    return {name: sorted(files) for name, files in sorted(found.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rummykit.teach.student_book",
        description="Build the student book: the chapters with no solution and no answer.",
    )
    parser.add_argument("out", nargs="?", default="build/student-book")
    args = parser.parse_args(argv)
    try:
        html = build_student_book(args.out)
    except (ArgumentError, OutputError) as error:
        print(f"student book: {error}", file=sys.stderr)
        return 2
    print(f"The student book is at {html.resolve() / 'index.html'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
