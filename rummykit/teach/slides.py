"""Slides for each lesson of the unit guide, built offline from the book's notebooks.

A lesson of :data:`LESSONS` names the sections of the chapters it teaches; :func:`build`
cuts those sections out of the committed notebooks (their outputs as the book shows them,
nothing is executed), makes each heading a slide, and writes one reveal.js deck per lesson
with nbconvert. Nothing is loaded from the network: reveal.js, require.js and jQuery come
from the npm registry once (``npm pack``, as the book's live notebooks take Pyodide) into a
cache, MathJax from the copy the book already installs (``sphinx-mathjax-offline``), and
the deck's template drops nbconvert's CDN scripts (mermaid, MathJax 2). Solutions (cells
tagged ``solution``) are left out: the slides can be shown to a class.

From the command line::

    python -m rummykit.teach.slides build/slides          # every lesson
    python -m rummykit.teach.slides build/slides --lesson 5

>>> [lesson.number for lesson in LESSONS]
[1, 2, 3, 4, 5, 6, 7, 8, 9]
>>> sum(lesson.minutes for lesson in LESSONS)
450
>>> LESSONS[4].title
'Outs: which cards help, and the next card'
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from rummykit.errors import ArgumentError, RummyError
from rummykit.teach.edition import student_notebook

__all__ = ["LESSONS", "Lesson", "SlidesError", "build", "lesson_notebook"]

ROOT = Path(__file__).resolve().parents[2]
#: The book's chapters.
NOTEBOOKS = ROOT / "notebooks"
#: Where the npm packages are kept between builds.
CACHE = ROOT / "build" / "slides-cache"
#: The npm packages of the deck, pinned: (package, version, files kept, folder in the deck).
ASSETS = (
    ("reveal.js", "4.6.0", ("dist", "plugin"), "reveal.js"),
    ("requirejs", "2.3.8", ("require.js",), "requirejs"),
    ("jquery", "3.7.1", ("dist/jquery.min.js",), "jquery"),
)
#: A code cell longer than this shows its output only: a slide is no place to read code.
CODE_LINES_SHOWN = 6
TEMPLATE = Path(__file__).parent / "slide_template"


class SlidesError(RummyError):
    """A lesson's slides could not be built: the message names the lesson and the cause."""


@dataclass(frozen=True)
class Lesson:
    """One lesson of the unit: its sections, its minutes and what it sets."""

    number: int
    """Its place in the unit, from 1."""
    title: str
    """What it is about, in the course's words."""
    minutes: int
    """How long it takes in class."""
    sections: tuple[tuple[str, str], ...]
    """The (notebook, heading) pairs it teaches, in order: the heading's words as the
    chapter writes them, up to any ★ or punctuation it carries after them."""


LESSONS = (
    Lesson(
        1,
        "The game, the shoe and counting hands",
        50,
        (
            ("01_learn_the_rules", "Cards"),
            ("01_learn_the_rules", "The shoe"),
            ("01_learn_the_rules", "The seven contracts"),
            ("01_learn_the_rules", "Sets and runs"),
            ("02_counting_hands", "How many hands?"),
        ),
    ),
    Lesson(
        2,
        "The hypergeometric distribution",
        50,
        (
            ("02_counting_hands", "One rank: the hypergeometric distribution"),
            ("02_counting_hands", "A set in hand: counting the complement"),
            ("06_exercises", "Exercise 3: at least one joker"),
            ("06_exercises", "Exercise 4: three of a rank"),
            ("09_more_probability", "The hypergeometric's mean and variance"),
        ),
    ),
    Lesson(
        3,
        "Contract odds, counted exactly; conditional probability",
        50,
        (
            ("03_contract_odds", "The deal as it is played"),
            ("03_contract_odds", "Heatmaps: contract by hand size, for each shoe"),
            ("03_contract_odds", "What jokers are worth"),
            ("06_exercises", "Exercise 7: what a joker is worth"),
            ("06_exercises", "Exercise 8: Bayes at the table"),
        ),
    ),
    Lesson(
        4,
        "Exact versus simulated: the law of large numbers and intervals",
        50,
        (
            ("02_counting_hands", "Exact versus simulated"),
            ("06_exercises", "Exercise 11: how many hands to simulate"),
            ("06_exercises", "Exercise 12: do 95% intervals cover 95% of the time?"),
            ("09_more_probability", "The law of large numbers, by name"),
        ),
    ),
    Lesson(
        5,
        "Outs: which cards help, and the next card",
        50,
        (
            ("07_outs", "A dealt hand"),
            ("07_outs", "The exact chance that the next card helps"),
            ("07_outs", "Two draws: the exact chance and a rule of thumb"),
            ("09_more_probability", "Every unseen card is equally likely to be next"),
            ("07_outs", "Which discard keeps the most?"),
        ),
    ),
    Lesson(
        6,
        "Expectation with indicators: how far away is a hand?",
        50,
        (
            ("03_contract_odds", "How far away is a dealt hand?"),
            ("06_exercises", "Exercise 9"),
            ("06_exercises", "Exercise 10: how far away, on average"),
            ("09_more_probability", "The variance of a count: covariance of indicators"),
            ("09_more_probability", "Rare events: the Poisson approximation"),
        ),
    ),
    Lesson(
        7,
        "Waiting times and a small Markov chain",
        50,
        (
            ("06_exercises", "A small Markov chain"),
            ("04_at_the_table", "Laying down, turn by turn"),
            ("09_more_probability", "Waiting for a card"),
            ("09_more_probability", "Censoring: rounds stopped at the turn limit"),
        ),
    ),
    Lesson(
        8,
        "At the table: simulation and paired comparisons",
        50,
        (
            ("04_at_the_table", "Going out"),
            ("04_at_the_table", "What buying is worth"),
            ("09_more_probability", "Should I buy? Which discard?"),
            ("04_at_the_table", "Does seat position matter?"),
        ),
    ),
    Lesson(
        9,
        "Rules change the odds; strategy and puzzles; review",
        50,
        (
            ("05_rule_variants", "The presets side by side"),
            ("05_rule_variants", "The dealt hand under each preset"),
            ("11_strategy", "Duplicate games: the luck of the cards taken out"),
            ("11_strategy", "The ladder"),
            # A puzzle is shown from the book's page (its box holds its answer); the deck
            # keeps the part about selection.
            ("10_puzzles", "How the puzzles were found"),
        ),
    ),
)

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
#: A markdown link to another page of the book: its words stay, the link goes (a deck
#: stands apart from the book).
_BOOK_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:)[^)]*\.(?:ipynb|md)(?:#[^)]*)?\)")


def _heading(cell: dict) -> tuple[int, str] | None:
    """The level and words of a markdown cell that starts with a heading."""
    if cell["cell_type"] != "markdown":
        return None
    first = "".join(cell["source"]).lstrip().splitlines()[:1]
    match = _HEADING.match(first[0]) if first else None
    return (len(match.group(1)), match.group(2).strip()) if match else None


def _split(cells: list[dict]) -> list[dict]:
    """The cells with every markdown cell cut before each heading line it holds, so that
    every heading starts a cell of its own."""
    pieces = []
    for cell in cells:
        if cell["cell_type"] != "markdown":
            pieces.append(cell)
            continue
        parts: list[list[str]] = [[]]
        for line in "".join(cell["source"]).splitlines(keepends=True):
            if _HEADING.match(line) and any(text.strip() for text in parts[-1]):
                parts.append([])
            parts[-1].append(line)
        for part in parts:
            piece = copy.deepcopy(cell)
            piece["source"] = "".join(part)
            pieces.append(piece)
    return pieces


def _section(cells: list[dict], heading: str, where: str) -> list[dict]:
    """The cells from the heading that starts with ``heading`` to the next heading of the
    same or a higher level."""
    for start, cell in enumerate(cells):
        found = _heading(cell)
        if found and found[1].startswith(heading):
            level = found[0]
            end = start + 1
            while end < len(cells):
                after = _heading(cells[end])
                if after and after[0] <= level:
                    break
                end += 1
            return cells[start:end]
    raise SlidesError(f"{where}: no heading starts with {heading!r}")


def _for_slides(cell: dict, after_output: bool = False) -> dict | None:
    """The cell as a slide shows it, or None to leave it out. A heading starts a slide;
    a code cell with an output (a chart, a table) starts a slide below it (a reveal.js
    subslide), and so does the text after one: one thing at a time fits a projector."""
    tags = set(cell.get("metadata", {}).get("tags", ()))
    if tags & {"solution", "remove-cell"}:
        return None
    cell = copy.deepcopy(cell)
    metadata = cell.setdefault("metadata", {})
    if _heading(cell):
        kind = "slide"
    elif (cell["cell_type"] == "code" and cell.get("outputs")) or after_output:
        kind = "subslide"
    else:
        kind = "-"
    metadata["slideshow"] = {"slide_type": kind}
    if cell["cell_type"] == "markdown":
        cell["source"] = _BOOK_LINK.sub(r"\1", cell["source"])
    if cell["cell_type"] == "code":
        lines = "".join(cell["source"]).count("\n") + 1
        if "remove-input" in tags or "hide-input" in tags or lines > CODE_LINES_SHOWN:
            metadata.setdefault("tags", []).append("slides-no-input")
        if not cell.get("outputs") and "slides-no-input" in metadata.get("tags", ()):
            return None
    return cell


def lesson_notebook(lesson: Lesson, notebooks: Path = NOTEBOOKS) -> dict:
    """The lesson's deck as a notebook (a dict in nbformat 4): a title slide, then the
    sections' cells with slide metadata, solutions left out."""
    import nbformat

    title = {
        "cell_type": "markdown",
        "metadata": {"slideshow": {"slide_type": "slide"}},
        "source": f"# Lesson {lesson.number}: {lesson.title}\n\n{lesson.minutes} minutes\n\n"
        + "\n".join(f"- {name}: {heading}" for name, heading in lesson.sections),
    }
    cells = [title]
    language = None
    for name, heading in lesson.sections:
        path = notebooks / f"{name}.ipynb"
        try:
            book = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        except (OSError, ValueError) as error:
            raise SlidesError(f"lesson {lesson.number}: cannot read {path}: {error}") from None
        # What the class sees: the student edition's cells (no answer in a box, no
        # solution, puzzles without their answers).
        book = student_notebook(book)
        language = language or book.get("metadata", {})
        after_output = False
        for cell in _section(
            _split(book["cells"]), heading, f"lesson {lesson.number}, {path.name}"
        ):
            shown = _for_slides(cell, after_output)
            if shown is not None:
                cells.append(shown)
                after_output = shown["cell_type"] == "code" and bool(shown.get("outputs"))
    for number, cell in enumerate(cells):
        cell["id"] = f"slide-cell-{number}"
    return {
        "cells": cells,
        "metadata": {**(language or {}), "title": f"Lesson {lesson.number}: {lesson.title}"},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _npm_package(package: str, version: str, cache: Path) -> Path:
    """The unpacked folder of an npm package, packed once into ``cache``."""
    folder = cache / f"{package}-{version}"
    if (folder / "package.json").is_file():
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise SlidesError(f"the slides need {package} from npm, and npm is missing")
    cache.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "pack", f"{package}@{version}", "--pack-destination", str(cache)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SlidesError(f"npm pack {package}@{version} failed: {done.stderr.strip()}")
    tarball = cache / done.stdout.strip().splitlines()[-1]
    staging = cache / f".{package}-unpacking"
    shutil.rmtree(staging, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(staging, filter="data")
    shutil.rmtree(folder, ignore_errors=True)
    (staging / "package").rename(folder)
    shutil.rmtree(staging)
    tarball.unlink()
    return folder


def _mathjax() -> Path:
    """The MathJax 3 the book serves (sphinx-mathjax-offline's copy)."""
    import importlib.util

    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or spec.origin is None:
        raise SlidesError("the slides need MathJax from sphinx-mathjax-offline: install the book")
    return Path(spec.origin).parent / "static" / "mathjax"


def _assets(out: Path, cache: Path) -> None:
    """Copy reveal.js, require.js, jQuery and MathJax into ``out/_assets``."""
    assets = out / "_assets"
    for package, version, keep, name in ASSETS:
        source = _npm_package(package, version, cache)
        for part in keep:
            target = assets / name / part
            if target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if (source / part).is_dir():
                shutil.copytree(source / part, target)
            else:
                shutil.copy2(source / part, target)
    if not (assets / "mathjax").exists():
        shutil.copytree(_mathjax(), assets / "mathjax")


def _exporter():
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    # No "In [3]:" and "Out[3]:" beside the cells: a slide is no notebook.
    config.TemplateExporter.exclude_input_prompt = True
    config.TemplateExporter.exclude_output_prompt = True
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"slides-no-input"}
    exporter = SlidesExporter(
        config=config,
        template_name="offline",
        extra_template_basedirs=[str(TEMPLATE)],
    )
    exporter.reveal_url_prefix = "_assets/reveal.js"
    exporter.require_js_url = "_assets/requirejs/require.js"
    exporter.jquery_url = "_assets/jquery/dist/jquery.min.js"
    exporter.mathjax_url = "_assets/mathjax/tex-chtml.js"
    exporter.reveal_scroll = False  # a slide is shrunk to fit, not scrolled (the template)
    exporter.reveal_width = "1280"
    exporter.reveal_height = "720"
    exporter.reveal_theme = "white"  # its fonts are local; "simple" imports Google Fonts
    return exporter


def build(
    out: str | Path,
    lessons: tuple[Lesson, ...] = LESSONS,
    *,
    notebooks: Path = NOTEBOOKS,
    cache: Path = CACHE,
) -> list[Path]:
    """Write one deck per lesson, ``lesson-N.slides.html``, into ``out``, with every
    script and style it needs in ``out/_assets``; return the decks' paths.

    Every lesson is cut from the notebooks before anything is written, so a lesson that
    names a missing section writes nothing.
    """
    import nbformat

    if not lessons:
        raise ArgumentError("lessons: give at least one lesson")
    decks = {lesson.number: lesson_notebook(lesson, notebooks) for lesson in lessons}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _assets(out, cache)
    exporter = _exporter()
    written = []
    for number, deck in decks.items():
        body, _ = exporter.from_notebook_node(nbformat.from_dict(deck))
        path = out / f"lesson-{number}.slides.html"
        path.write_text(body, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rummykit.teach.slides",
        description="Build the unit's lesson slides (reveal.js, offline) from the notebooks.",
    )
    parser.add_argument("out", nargs="?", help="the folder to write the decks into")
    parser.add_argument("--lesson", type=int, action="append", help="only this lesson")
    parser.add_argument(
        "--fetch",
        action="store_true",
        help="only fetch reveal.js, require.js and jQuery from npm into the cache "
        "(make book does, so that a first make slides needs no network)",
    )
    args = parser.parse_args(argv)
    if args.fetch:
        try:
            for package, version, _, _ in ASSETS:
                _npm_package(package, version, CACHE)
        except RummyError as error:
            print(f"slides: {error}", file=sys.stderr)
            return 2
        print(f"slides: reveal.js, require.js and jQuery are in {CACHE}")
        return 0
    if args.out is None:
        parser.error("the folder to write the decks into is missing")
    chosen = LESSONS
    if args.lesson:
        known = {lesson.number: lesson for lesson in LESSONS}
        unknown = sorted(set(args.lesson) - set(known))
        if unknown:
            parser.error(f"--lesson: no lesson {unknown[0]} (lessons are 1 to {len(LESSONS)})")
        chosen = tuple(known[number] for number in args.lesson)
    try:
        decks = build(args.out, chosen)
    except RummyError as error:
        print(f"slides: {error}", file=sys.stderr)
        return 2
    for deck in decks:
        print(deck)
    return 0


if __name__ == "__main__":
    sys.exit(main())
