"""The lesson slides (rummykit.teach.slides): every lesson is cut from the chapters as they
are, holds no solution, and builds into a deck that loads nothing from the network."""

from __future__ import annotations

import contextlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rummykit.teach import slides
from rummykit.teach.slides import LESSONS, Lesson, SlidesError, build, lesson_notebook


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
def test_a_deck_runs_in_chromium_with_every_remote_request_refused(deck, browser):
    # A page of the session's one Chromium (tests/support/book.py).
    with contextlib.closing(browser.new_page(viewport={"width": 1280, "height": 800})) as page:
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


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> list[Path]:
    return build(tmp_path_factory.mktemp("decks"))


@pytest.mark.slow
def test_no_deck_shows_an_answer_or_a_prompt(decks):
    # Issue 49 item 14: a deck is shown to the class. The answer boxes are their questions
    # (the student edition's cells), a puzzle has no answer, and no cell has "In [3]:".
    assert len(decks) == len(LESSONS)
    for deck in decks:
        page = deck.read_text()
        body = page[page.index("<body") :]
        for mark in ("data-exercise", "data-puzzle", "rk-check", "Solution to exercise"):
            assert mark not in body, (deck.name, mark)
        assert not re.search(r"(In|Out)(&nbsp;|\s)*\[\d*\]:", body), deck.name
        lesson = LESSONS[int(deck.name.split("-")[1].split(".")[0]) - 1]
        assert f"<title>Lesson {lesson.number}: {lesson.title}" in page


@pytest.mark.slow
@pytest.mark.browser
def test_every_slide_fits_a_1280_by_720_screen_and_stays_readable(decks, browser):
    with contextlib.closing(browser.new_page(viewport={"width": 1280, "height": 720})) as page:
        for deck in decks:
            page.goto(deck.as_uri())
            page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=30_000)
            places = page.evaluate("Reveal.getSlides().map(s => Reveal.getIndices(s))")
            assert len(places) >= 10, deck.name
            for place in places:
                page.evaluate(f"Reveal.slide({place['h']}, {place.get('v') or 0})")
                page.wait_for_function(
                    "Reveal.getCurrentSlide().dataset.fitted === 'true'", timeout=10_000
                )
                high, wide, zoom = page.evaluate(
                    """() => { const s = Reveal.getCurrentSlide();
                    const z = parseFloat(s.style.zoom || '1');
                    return [s.scrollHeight * z, s.scrollWidth * z, z]; }"""
                )
                # Nothing past the slide's 1280 x 720 (a pixel for rounding), and never
                # shrunk below 60% to get there.
                assert high <= 721 and wide <= 1281, (deck.name, place, high, wide)
                assert zoom >= 0.6, (deck.name, place, zoom)


@pytest.mark.slow
def test_once_fetched_a_build_needs_no_network(tmp_path, monkeypatch):
    # make book fetches the decks' scripts (python -m rummykit.teach.slides --fetch); a
    # first make slides after it runs no npm and opens no connection.
    assert slides.main(["--fetch"]) == 0

    def refused(*args, **kwargs):
        raise AssertionError(f"the build ran {args[0]!r}")

    monkeypatch.setattr(slides.shutil, "which", lambda name: None)
    monkeypatch.setattr(slides.subprocess, "run", refused)
    (deck,) = build(tmp_path / "out", (LESSONS[0],))
    assert deck.is_file() and (tmp_path / "out" / "_assets" / "reveal.js").is_dir()
