"""The lesson slides (rummykit.teach.slides): every lesson is cut from the chapters as they
are, holds no solution, and builds into a deck that loads nothing from the network."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rummykit.teach import slides
from rummykit.teach.slides import LESSONS, Lesson, SlidesError, build, lesson_notebook
from tests.support.browser import launch_chromium, require_chromium


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"lesson-{lesson.number}")
def test_every_lesson_finds_its_sections_and_leaves_out_the_solutions(lesson):
    deck = lesson_notebook(lesson)
    headings = [
        cell["source"].lstrip("# ").splitlines()[0]
        for cell in deck["cells"][1:]
        if cell["metadata"]["slideshow"]["slide_type"] == "slide"
    ]
    for _, heading in lesson.sections:
        assert any(found.startswith(heading) for found in headings), heading
    for cell in deck["cells"]:
        assert "solution" not in cell["metadata"].get("tags", ())
        assert "Solution to exercise" not in cell["source"]


def test_the_lessons_are_numbered_in_order_and_fill_the_unit():
    assert [lesson.number for lesson in LESSONS] == list(range(1, len(LESSONS) + 1))
    assert all(30 <= lesson.minutes <= 90 for lesson in LESSONS)


def test_a_section_the_chapter_does_not_have_is_a_clear_error_and_writes_nothing(tmp_path):
    lesson = Lesson(99, "Nowhere", 50, (("02_counting_hands", "No such heading"),))
    with pytest.raises(SlidesError, match="lesson 99, 02_counting_hands.ipynb: no heading"):
        build(tmp_path / "out", (lesson,))
    assert not (tmp_path / "out").exists()


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.links.append(value)


REMOTE = re.compile(r"^(https?:)?//")


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("slides")
    (path,) = build(out, (LESSONS[4],))
    return path


@pytest.mark.slow
def test_a_deck_links_only_files_beside_it(deck):
    parser = _Links()
    parser.feed(deck.read_text())
    local = [link for link in parser.links if not link.startswith(("#", "data:"))]
    assert local, "the deck links its scripts and styles"
    assert not [link for link in local if REMOTE.match(link)]
    for link in local:
        assert (deck.parent / link).is_file(), link
    for css in deck.parent.glob("_assets/reveal.js/dist/**/*.css"):
        if css.name == "white.css":
            assert not re.search(r"@import\s+url\(\s*['\"]?(https?:)?//", css.read_text())


@pytest.mark.slow
@pytest.mark.browser
def test_a_deck_runs_in_chromium_with_every_remote_request_refused(deck):
    chromium = require_chromium()
    with launch_chromium(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        remote, errors = [], []

        def route(request_route):
            url = request_route.request.url
            if url.startswith(("file://", "data:", "about:")):
                request_route.continue_()
            else:
                remote.append(url)
                request_route.abort()

        page.route("**/*", route)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(deck.as_uri())
        page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=30_000)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "document.querySelector('section.present h2') !== null", timeout=10_000
        )
        title = page.eval_on_selector("section.present h2", "h => h.textContent")
        assert title.startswith(LESSONS[4].sections[0][1])
        assert remote == [] and errors == []


def test_the_command_refuses_an_unknown_lesson(capsys):
    with pytest.raises(SystemExit) as stop:
        slides.main(["out", "--lesson", "42"])
    assert stop.value.code == 2
    assert "no lesson 42 (lessons are 1 to 9)" in capsys.readouterr().err


def test_the_unit_guide_lists_every_lesson_with_its_minutes():
    guide = (Path(__file__).parent.parent / "book" / "teachers.md").read_text()
    for lesson in LESSONS:
        assert f"| {lesson.number}. {lesson.title} | {lesson.minutes} |" in guide
        assert f"{lesson.number}. **{lesson.title.split(':')[0]}" in guide
    assert len(LESSONS) == 9 and "(nine in all, " in guide
    assert f", {sum(lesson.minutes for lesson in LESSONS)} minutes)" in guide
