"""The student book (rummykit.teach.student_book, issue 49 item 12): built from the
committed notebooks beside the teacher's book, with no worked solution, no answer in a box,
an output or a page's data, chapter 10's puzzles without their answers, no page for
teachers, and no link to the teacher's book; a scan for every answer of seeds 0-39."""

from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from rummykit.errors import ArgumentError, OutputError
from rummykit.evaluate.puzzles import load
from rummykit.teach import EXERCISES
from rummykit.teach import student_book as module
from rummykit.teach.student_book import (
    CHAPTERS,
    answer_forms,
    answer_leaks,
    build_student_book,
    student_sources,
)

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(40)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return build_student_book(
        tmp_path_factory.mktemp("student") / "book",
        book=ROOT / "book",
        notebooks=ROOT / "notebooks",
    )


def _pages(html: Path) -> dict[str, str]:
    return {
        str(path.relative_to(html)): path.read_text(encoding="utf-8", errors="replace")
        for path in html.rglob("*")
        if path.is_file()
        and path.suffix in (".html", ".ipynb", ".js", ".json")
        and path.relative_to(html).parts[0] != "_static"
    }


@pytest.mark.slow
def test_the_student_book_has_every_chapter_and_no_solution_box_or_teachers_page(built):
    pages = _pages(built)
    for name in CHAPTERS:
        assert f"notebooks/{name}.html" in pages
    assert not any(name.startswith(("teachers", "lite/", "live/")) for name in pages)
    for name, text in pages.items():
        for mark in (
            "Solution to exercise",
            "data-exercise",
            "data-puzzle",
            "rk-check",
            "teachers.html",
            "For teachers",
            "worked solution",
        ):
            assert mark not in text, (name, mark)
    # The exercises are there, as questions: every chapter 9 box of the teacher's book.
    chapter_9 = pages["notebooks/09_more_probability.html"]
    assert chapter_9.count("Exercise ch9-") >= 9


@pytest.mark.slow
def test_chapter_10_shows_its_puzzles_without_their_answers(built):
    page = (built / "notebooks" / "10_puzzles.html").read_text(encoding="utf-8")
    shown = re.findall(r'class="rk-puzzle" id="([^"]+)"', page)
    assert len(shown) >= 8
    puzzles = {p.key: p for p in load()}
    for key in shown:
        box = page[page.index(f'id="{key}"') :]
        box = box[: box.index("Puzzle " + key)]
        # The choices are offered; no message of the review's, right or wrong, is there.
        assert 'value="0"' in box and 'value="1"' in box
        assert "Right." not in box and "Not the best choice" not in box
        if key in puzzles:  # (the chapter also finds a fresh one)
            assert puzzles[key].solution[:40] not in page


@pytest.mark.slow
def test_every_answer_of_seeds_0_to_39_is_looked_for(built):
    # The scan the issue asks for, over every file of the built book.
    answers = {
        f"{key} seed {seed}": generator(seed).answer
        for key, generator in EXERCISES.items()
        for seed in SEEDS
    }
    assert len(answers) == 40 * len(EXERCISES)
    leaks = answer_leaks(built, answers)
    assert leaks == {}, leaks


def test_the_scan_finds_a_planted_answer_and_reads_words_not_drawings(tmp_path):
    html = tmp_path / "html"
    (html / "_static").mkdir(parents=True)
    (html / "_images").mkdir()
    (html / "page.html").write_text(
        "<p>so Var X = 0.6282 and 49000/78003</p><svg><path d='M0.1234 5'/></svg>"
    )
    (html / "_images" / "chart.svg").write_text("<svg><text>77,937 hands</text></svg>")
    (html / "_static" / "theme.js").write_text("var x = 12345;")
    (html / "notebook.ipynb").write_text(
        json.dumps({"cells": [{"source": "x", "outputs": [{"text": ["0.1234\n"]}]}]})
    )
    answers = {
        "fpc": Fraction(49000, 78003),
        "hands": 77937,
        "theme": 12345,
        "coordinate": Fraction(1234, 10000),
        "small": 32,
    }
    assert answer_leaks(html, answers) == {
        "coordinate": ["notebook.ipynb"],
        "fpc": ["page.html"],
        "hands": ["_images/chart.svg"],
    }
    assert answer_forms(Fraction(1, 4)) == {"1/4"}  # "0.25" is in any page


def test_a_failed_build_keeps_the_last_good_one(tmp_path, monkeypatch):
    out = tmp_path / "book"
    (out / "html").mkdir(parents=True)
    (out / "html" / "index.html").write_text("the last good build")

    def failing(*args, **kwargs):
        return subprocess.CompletedProcess(args, 1, stdout="", stderr="a warning")

    monkeypatch.setattr(module.subprocess, "run", failing)
    with pytest.raises(OutputError, match="did not build"):
        build_student_book(out, book=ROOT / "book", notebooks=ROOT / "notebooks")
    assert (out / "html" / "index.html").read_text() == "the last good build"
    assert sorted(p.name for p in out.iterdir()) == ["html"]


def test_sources_name_a_missing_chapter_and_write_nothing(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    with pytest.raises(ArgumentError, match="01_learn_the_rules.ipynb"):
        student_sources(ROOT / "book", notebooks, tmp_path / "src")
    assert not (tmp_path / "src").exists()
