"""The built book's tables and code fit the page, in a real browser (issues 20 and 26).

At a 1280-pixel-wide window (the narrowest common laptop width with the page's table of
contents beside it), every chapter page's code blocks hold their lines without
scrolling sideways, and every table drawn by :func:`rummykit.display.show` sits inside
the page in a box that scrolls sideways when the table is wider, so that no column (the
rule-variants table's ``family``) is cut off. On every chapter, the intro and the
teachers page, no table and no ``<pre>`` is wider than the text column unless it is in a
box of its own that scrolls and fits the column; printed output and console commands
wrap instead of scrolling (book/_static/rummykit.css). The live notebooks' start buttons
hold their labels. At 1280 pixels and on a 390-pixel phone, on every chapter, the intro,
the teachers page and the reference pages (issue 50: the command and API pages, the
teachers' unit table), the page itself never scrolls sideways: a long inline name or
signature wraps, a wide inline formula scrolls in its own box rather than being cut off.
The book is built as test_book_browser.py builds it (its fixtures, tests/support/book.py).
"""

from __future__ import annotations

import pytest

from tests.support.book import BOOK
from tests.support.notebooks import CODE_NOT_YET, NOTEBOOKS

pytestmark = pytest.mark.browser

WIDTH = 1280

#: A phone held upright (an iPhone 12 to 15 is 390 CSS pixels wide).
PHONE = 390

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

# Every table, <pre> and cell output of the page's text column: wider than the column (or past its
# right edge) with no scrolling box of its own inside the column is a fault; so is printed
# output or a console command that scrolls sideways rather than wrapping.
COLUMN_JS = """
() => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const article = document.querySelector("article") || document.body;
  const column = article.getBoundingClientRect();
  const fits = r => r.left >= column.left - 1 && r.right <= column.right + 1;
  const scrolls = e => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
  const label = e => `${e.tagName.toLowerCase()} ${Math.round(e.getBoundingClientRect().width)} px: `
                     + e.textContent.trim().slice(0, 40);
  const overflowing = [];
  let wide = 0;
  const elements = [...article.querySelectorAll("table, pre, div.output")];
  for (const e of elements) {
    const rect = e.getBoundingClientRect();
    if (rect.width === 0) continue;
    if (fits(rect) && e.scrollWidth <= e.clientWidth + 1) continue;
    wide += 1;
    let box = e;
    while (box && box !== article && !scrolls(box)) box = box.parentElement;
    if (!box || box === article || !fits(box.getBoundingClientRect())) overflowing.push(label(e));
  }
  const unwrapped = [...article.querySelectorAll("div.cell_output pre, div.highlight-console pre")]
    .filter(p => p.scrollWidth > p.clientWidth + 1).map(label);
  return {column: column.width, elements: elements.length, wide, overflowing, unwrapped};
}
"""

# The page as a whole: how far it scrolls sideways (the document wider than the window),
# what pushes it wider (the outermost elements past the window's right edge that no box
# clips or scrolls), and every inline formula whose right part is hidden (MathJax's
# drawing wider than its span.math, which does not scroll).
PAGE_JS = """
() => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const width = window.innerWidth;
  const label = e => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}: `
                     + e.textContent.trim().slice(0, 40);
  const contained = e => {
    for (let box = e.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return true;
    }
    return false;
  };
  const wider = [...document.body.querySelectorAll("*")].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > width + 1 && getComputedStyle(e).position !== "fixed"
      && e.parentElement.getBoundingClientRect().right <= width + 1 && !contained(e);
  }).map(label);
  const cut = [...document.querySelectorAll("span.math")].filter(s => {
    const drawn = s.querySelector("mjx-container");
    return drawn && getComputedStyle(s).overflowX === "hidden"
      && drawn.getBoundingClientRect().right > s.getBoundingClientRect().right + 1;
  }).map(s => s.textContent.trim().slice(0, 40));
  return {
    sideways: document.documentElement.scrollWidth - width,
    wider: wider.slice(0, 10),
    cut_formulas: cut,
  };
}
"""

# The live notebooks' start buttons (jupyterlite-sphinx's, styled in rummykit.css and made
# keyboard buttons by live_notebook.js): the label inside the button, the button inside its box.
START_BUTTON_JS = """
() => [...document.querySelectorAll(".jupyterlite_sphinx_try_it_button")].map(b => {
  const r = b.getBoundingClientRect(), box = b.parentElement.getBoundingClientRect();
  const text = document.createRange();
  text.selectNodeContents(b);
  const t = text.getBoundingClientRect();
  return {
    label: b.textContent.trim(),
    label_inside: t.left >= r.left && t.right <= r.right && t.top >= r.top && t.bottom <= r.bottom,
    unclipped: b.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight,
    in_box: r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom,
    keyboard: b.getAttribute("role") === "button" && b.tabIndex === 0,
    wrapped: !!b.closest(".rk-live"),
  };
})
"""

#: The pages that are not chapters, measured with them.
OTHER_PAGES = ("intro", "teachers")

#: The reference pages (the command's and the API's), measured for the page's width.
REFERENCE_PAGES = tuple(f"reference/{p.stem}" for p in sorted(BOOK.glob("reference/*.md")))


def _chapters() -> list[str]:
    return [p.stem for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p.stem not in CODE_NOT_YET]


#: Each page is opened once a width (page loads are most of these tests' time);
#: (path, width) -> results.
_MEASURED: dict[tuple[str, int], dict] = {}


def _measure(browser, book_url: str, path: str, width: int = WIDTH) -> dict:
    """The page ``path`` in a window ``width`` pixels wide, measured by every script above
    once MathJax has drawn its formulas (they wrap as TeX before, and fit)."""
    if (path, width) not in _MEASURED:
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.goto(f"{book_url}/{path}.html")
            page.evaluate("async () => { await window.MathJax?.startup?.promise; }")
            _MEASURED[path, width] = {
                "buttons": page.evaluate(START_BUTTON_JS),
                "layout": page.evaluate(LAYOUT_JS),
                "column": page.evaluate(COLUMN_JS),
                "page": page.evaluate(PAGE_JS),
            }
        finally:
            context.close()
    return _MEASURED[path, width]


@pytest.mark.parametrize("chapter", _chapters())
def test_tables_scroll_and_code_fits_at_1280_pixels(browser, book_url, chapter):
    layout = _measure(browser, book_url, f"notebooks/{chapter}")["layout"]
    assert layout["code_scrolling"] == []
    assert layout["polars_tables"] == 0
    assert layout["not_scrolling"] == layout["past_the_page"] == layout["cut_off"] == 0
    if chapter == "05_rule_variants":
        # The presets side by side are wider than the page: they scroll, whole.
        assert layout["boxes"] >= 5 and layout["wide"] >= 1


@pytest.mark.parametrize(
    "path", [f"notebooks/{chapter}" for chapter in _chapters()] + list(OTHER_PAGES)
)
def test_tables_and_pre_stay_in_the_column_at_1280_pixels(browser, book_url, path):
    column = _measure(browser, book_url, path)["column"]
    assert column["overflowing"] == [], f"wider than the {column['column']:.0f}-pixel column"
    assert column["unwrapped"] == [], "printed output that scrolls instead of wrapping"
    if path in ("notebooks/01_learn_the_rules", "teachers"):
        # Pages whose printed lines or commands are longer than the column: they wrap.
        assert column["elements"] >= 2


@pytest.mark.parametrize("width", [WIDTH, PHONE])
@pytest.mark.parametrize(
    "path",
    [f"notebooks/{chapter}" for chapter in _chapters()] + list(OTHER_PAGES + REFERENCE_PAGES),
)
def test_the_page_never_scrolls_sideways(browser, book_url, path, width):
    """Issue 50: at 390 pixels the reference pages and the teachers' page scrolled
    sideways (by 34 to 127 pixels: long inline names and signatures), and chapter 4's
    Var(X - Y) lost its right end; every table, code block and output stays in the
    column at both widths, in a box of its own that scrolls if it is wider."""
    measured = _measure(browser, book_url, path, width)
    page, column = measured["page"], measured["column"]
    assert page["sideways"] <= 0, f"{page['sideways']} px sideways, from {page['wider']}"
    assert column["overflowing"] == [], f"wider than the {column['column']:.0f}-pixel column"
    assert page["cut_formulas"] == []


def test_most_tables_fit_the_column_without_scrolling(browser, book_url):
    """Before rummykit.css compacted display.show's tables, 11 tables of these chapters
    needed a sideways scroll at 1280 pixels (13 in the book); now only the widest few do,
    and they scroll, whole, in their own box."""
    wide = {
        chapter: _measure(browser, book_url, f"notebooks/{chapter}")["column"]["wide"]
        for chapter in ("03_contract_odds", "04_at_the_table", "05_rule_variants")
    }
    assert sum(wide.values()) <= 4, wide
    assert wide["05_rule_variants"] >= 1  # the presets side by side: wider than any page


@pytest.mark.parametrize("chapter", ["01_learn_the_rules", "play"])
def test_the_live_start_buttons_hold_their_labels(browser, book_url, chapter):
    buttons = _measure(browser, book_url, f"notebooks/{chapter}")["buttons"]
    assert len(buttons) == (2 if chapter == "01_learn_the_rules" else 1)
    for button in buttons:
        assert button["label"].startswith("Start the live notebook")
        assert button == {**button, "label_inside": True, "unclipped": True, "in_box": True}
        assert button["keyboard"] and button["wrapped"]
