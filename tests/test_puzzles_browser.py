"""The puzzles' boxes in a real browser, with the network cut off: ticking a choice and
pressing Check shows Python's verdict (:meth:`rummykit.evaluate.puzzles.Puzzle.check`), word for
word, from the page's inline script; no choice ticked asks for one."""

from __future__ import annotations

import pytest

from rummykit.evaluate.puzzles import load
from tests.support.book import offline_page

pytestmark = pytest.mark.browser


def test_a_puzzle_box_checks_a_choice_like_python(browser):
    puzzles = load()
    chosen = [next(p for p in puzzles if p.kind == kind) for kind in ("discard", "buy", "play")]
    page_html = "<!doctype html><meta charset=utf-8><body>"
    page_html += "".join(p._repr_html_() for p in chosen) + "</body>"
    problems: list[str] = []
    context, page = offline_page(browser, problems)
    try:
        page.set_content(page_html)
        for puzzle in chosen:
            box = page.locator(f"#{puzzle.key}")
            verdict = box.locator(".rk-verdict")
            box.locator("button.rk-check").click()
            assert verdict.text_content() == "Choose one of the choices first."
            for index in (len(puzzle.choices) - 1, 0):
                box.locator("input[type=radio]").nth(index).check()
                box.locator("button.rk-check").click()
                assert verdict.text_content() == puzzle.check(puzzle.choices[index])[1]
            assert box.locator("svg").count() >= 2  # the hand and the discard pile
    finally:
        context.close()
    assert problems == []
