"""Self-checking exercises in a real browser, with the network cut off.

First on a page holding exercises' ``_repr_html_`` alone: typing answers and pressing
Check (or Enter) gives Python's verdict, word for word. Then on the built book's chapter
6 (served on 127.0.0.1 as tests/test_book_browser.py serves it): a right and a wrong
answer typed into a box are judged by the page's inline script, with no request to
another host. Last in JupyterLab (started as tests/test_widgets_browser.py starts it):
the same box in a cell's output, and the exercise as a widget.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rummykit.errors import AnswerError
from rummykit.teach import EXERCISES
from tests.support import lab
from tests.support.book import offline_page

# The fixtures (the built book, its server on 127.0.0.1, the browser, a JupyterLab serving
# a notebook of our cells) are tests/support's, by name.

LAB_CELLS = [
    "from rummykit.teach import EXERCISES as exercises\nfrom rummykit.widgets import ExerciseForm",
    'exercises["ch6-set-in-three"](0)',
    'form = ExerciseForm(exercises["ch6-one-joker"](0))\nform',
]

pytestmark = pytest.mark.browser

REGISTRY = EXERCISES
KEYS = ["ch6-one-joker", "ch6-sample-size", "ch6-markov-wait", "ch6-coverage"]


def _python_says(exercise, text: str) -> tuple[str, str]:
    try:
        verdict = exercise.check(text)
    except AnswerError as error:
        return "unread", str(error)
    if verdict.message.startswith("Nearly"):
        return "nearly", verdict.message
    return ("right" if verdict.correct else "wrong"), verdict.message


def _answer(page, box, text: str, *, enter: bool = False) -> tuple[str, str]:
    box.locator(".rk-answer").fill(text)
    if enter:
        box.locator(".rk-answer").press("Enter")
    else:
        box.locator(".rk-check").click()
    verdict = box.locator(".rk-verdict")
    return verdict.get_attribute("data-verdict"), verdict.inner_text()


def test_the_exercise_html_checks_answers_like_python(browser):
    exercises = [REGISTRY[key](seed) for key in KEYS for seed in (0, 4)]
    page_html = "<!doctype html><meta charset=utf-8><body>"
    page_html += "".join(ex._repr_html_() for ex in exercises) + "</body>"
    problems: list[str] = []
    context, page = offline_page(browser, problems)
    try:
        page.set_content(page_html)
        for number, ex in enumerate(exercises):
            box = page.locator(f"#{ex.element_id}")
            value = ex._value
            texts = [str(ex.answer), f"{float(value):.4g}", f"{float(value) * 2:.4g}", "0.0", "x"]
            texts += [f"{100 * float(value):.3g} %", f" 1 in {1 / float(value):.3g} ", ""]
            texts += [f"{float(value):.2g}"]
            for text in texts:
                assert _answer(page, box, text, enter=number % 2 == 1) == _python_says(ex, text)
        # A right answer shows the explanation; the next wrong one hides it again.
        ex = exercises[0]
        box = page.locator(f"#{ex.element_id}")
        _answer(page, box, str(ex.answer))
        assert box.locator(".rk-explanation").is_visible()
        _answer(page, box, "1/2")
        assert not box.locator(".rk-explanation").is_visible()
        # 32.6%, to 2 figures: "Nearly", in amber.
        assert _answer(page, box, "0.33")[0] == "nearly"
        assert box.locator(".rk-verdict").evaluate("e => e.style.color") == "rgb(138, 75, 0)"
    finally:
        context.close()
    assert not problems


def test_chapter_6_in_the_built_book_checks_answers(browser, book_url: str):
    problems: list[str] = []
    context, page = offline_page(browser, problems)
    try:
        page.goto(f"{book_url}/notebooks/06_exercises.html", wait_until="networkidle")
        boxes = page.locator(".rk-exercise")
        # One box for each of chapter 6's exercises (chapter 7's are on their own page).
        assert boxes.count() == len([key for key in REGISTRY if key.startswith("ch6-")]) == 14
        ex = REGISTRY["ch6-set-in-three"](0)
        box = page.locator(f"#{ex.element_id}")
        assert "Three cards are dealt" in box.inner_text()
        assert _answer(page, box, "1 in 425") == ("right", "Right: 1/425 = 1 in 425")
        assert _answer(page, box, "1/52") == _python_says(ex, "1/52")
        assert _answer(page, box, "1/52")[0] == "wrong"
        assert _answer(page, box, "a lot")[1].startswith("could not read 'a lot'")
        # The code that shows each box is removed from the page; the solutions stay.
        assert 'exercises["ch6-set-in-three"](SEED)' not in page.content()
        assert page.get_by_text("Solution to exercise 5").count() == 1
    finally:
        context.close()
    assert not problems


@pytest.fixture
def lab_page(browser, jupyterlab: str, tmp_path) -> Iterator[object]:
    """The test notebook open in JupyterLab, on this module's browser (one Playwright
    at a time), other hosts blocked as in :func:`~tests.support.book.offline_page`."""
    problems: list[str] = []
    context, page = offline_page(browser, problems)
    page.set_default_timeout(lab.TIMEOUT_MS)
    page.blocked = problems
    page.goto(f"{jupyterlab}/lab/tree/{lab.NOTEBOOK}", wait_until="domcontentloaded")
    try:
        yield page
    finally:
        page.screenshot(path=str(tmp_path / "jupyterlab.png"))
        context.close()


@pytest.mark.parametrize("jupyterlab", [LAB_CELLS], indirect=True)
def test_exercises_in_jupyterlab(lab_page):
    page = lab_page
    lab._run_all_cells(page, widget=".rk-exercise-form")
    ex = REGISTRY["ch6-set-in-three"](0)
    box = page.locator(f"#{ex.element_id}")
    assert _answer(page, box, "1 in 425") == ("right", "Right: 1/425 = 1 in 425")
    assert _answer(page, box, "0.003", enter=True) == _python_says(ex, "0.003")
    form = page.locator(".rk-exercise-form")
    form.locator("input[type='text']").fill("1/3")
    form.locator("input[type='text']").press("Tab")
    lab._button(form, "Check").click()
    page.get_by_text("Not quite. Hint: Take the complement").wait_for()
    form.locator("input[type='text']").fill("32.6%")
    form.locator("input[type='text']").press("Tab")
    lab._button(form, "Check").click()
    page.get_by_text("Right: 49909/153117 = 32.6%").wait_for()
    # JupyterLab logs console errors of its own (its extensions' shared modules, the
    # debugger), and its kernel connection may reject a pending kernel-subshell request
    # when the kernel's comms reconnect ("Canceled future for create_subshell_request",
    # seen once in CI, from @jupyterlab/services, not from the page's code): requests to
    # other hosts and every other uncaught page error must still be none.
    assert not [
        problem
        for problem in page.blocked
        if not problem.startswith("console:") and "create_subshell_request" not in problem
    ]
