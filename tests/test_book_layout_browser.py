"""The built book's tables and code fit the page, in a real browser (issue 20, item 3).

At a 1280-pixel-wide window (the narrowest common laptop width with the page's table of
contents beside it), every chapter page's code blocks hold their lines without
scrolling sideways, and every table drawn by :func:`rummykit.display.show` sits inside
the page in a box that scrolls sideways when the table is wider, so that no column (the
rule-variants table's ``family``) is cut off. The book is built as test_book_browser.py
builds it (its fixtures, imported here).
"""

from __future__ import annotations

import pytest

from tests.test_book_browser import book_url, browser, built_book, chromium  # noqa: F401
from tests.test_book_outputs import CODE_NOT_YET, NOTEBOOKS

pytestmark = pytest.mark.browser

WIDTH = 1280

LAYOUT_JS = """
() => {
  // Hidden cells (hide-input, hide-cell) are measured as a reader who opens them sees them.
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const article = document.querySelector("article") || document.body;
  const right = article.getBoundingClientRect().right;
  const boxes = [...document.querySelectorAll("div.rummykit-table")];
  return {
    boxes: boxes.length,
    not_scrolling: boxes.filter(b => getComputedStyle(b).overflowX !== "auto").length,
    past_the_page: boxes.filter(b => b.getBoundingClientRect().right > right + 1).length,
    cut_off: boxes.filter(b => b.scrollWidth > b.clientWidth
                               && getComputedStyle(b).overflowX === "hidden").length,
    wide: boxes.filter(b => b.scrollWidth > b.clientWidth).length,
    code_scrolling: [...document.querySelectorAll("div.cell_input pre")]
      .filter(p => p.scrollWidth > p.clientWidth).map(p => p.textContent.slice(0, 40)),
    polars_tables: document.querySelectorAll("table.dataframe").length,
  };
}
"""


def _chapters() -> list[str]:
    return [p.stem for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p.stem not in CODE_NOT_YET]


@pytest.mark.parametrize("chapter", _chapters())
def test_tables_scroll_and_code_fits_at_1280_pixels(browser, book_url, chapter):  # noqa: F811
    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{book_url}/notebooks/{chapter}.html")
        layout = page.evaluate(LAYOUT_JS)
    finally:
        context.close()
    assert layout["code_scrolling"] == []
    assert layout["polars_tables"] == 0
    assert layout["not_scrolling"] == layout["past_the_page"] == layout["cut_off"] == 0
    if chapter == "05_rule_variants":
        # The presets side by side are wider than the page: they scroll, whole.
        assert layout["boxes"] >= 5 and layout["wide"] >= 1
