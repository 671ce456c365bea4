"""The built book in a real browser, with the network cut off.

Serves ``book/_build/html`` on 127.0.0.1 and opens every page in headless Chromium. Each
page must load with no failed request, no console error and no request to another host,
and every altair chart on it must be drawn (an SVG holding marks). The book is built first
unless the last successful build is newer than every source (tests/support/book.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.book import BUILD_LOCK, LOCAL_HOST, LOCAL_SCHEMES, _build_lock

pytestmark = pytest.mark.browser


# Runs in the page: every chart drawn by vega (inline, in a vega-embed container, or as an
# SVG image written by the svg renderer) must be an SVG with at least one data mark.
# Axis ticks and labels are marks too, so only children of data-mark groups count.
CHART_REPORT_JS = """
async () => {
  const dataMarks = (svg) => svg.querySelectorAll("g.role-mark > *").length;
  const report = {charts: 0, empty: [], brokenImages: []};
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) report.brokenImages.push(img.src);
  }
  // altair's HTML output: a div that vega-embed fills (and marks .vega-embed) when it runs.
  for (const container of document.querySelectorAll("[id^='altair-viz'], .vega-embed")) {
    if (container.parentElement.closest("[id^='altair-viz'], .vega-embed")) continue;
    report.charts += 1;
    const svg = container.querySelector("svg.marks");
    if (!svg || dataMarks(svg) === 0) report.empty.push("altair chart not drawn as SVG marks");
  }
  for (const svg of document.querySelectorAll("svg.marks")) {
    if (svg.closest("[id^='altair-viz'], .vega-embed")) continue;
    report.charts += 1;
    if (dataMarks(svg) === 0) report.empty.push("inline chart SVG without marks");
  }
  for (const img of document.querySelectorAll("img[src$='.svg']")) {
    const text = await (await fetch(img.src)).text();
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (!svg.classList.contains("marks")) continue;  // an SVG that is not a vega chart
    report.charts += 1;
    if (dataMarks(svg) === 0) report.empty.push(`chart image without marks: ${img.src}`);
  }
  return report;
}
"""


def test_the_build_lock_admits_one_process_at_a_time():
    # Another process asking without waiting is refused while this one holds the lock,
    # and let in once it is released.
    probe = (
        "import fcntl, sys\n"
        "with open(sys.argv[1], 'a') as lock:\n"
        "    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)"
    )
    command = [sys.executable, "-c", probe, str(BUILD_LOCK)]
    with _build_lock():
        held = subprocess.run(command, capture_output=True, text=True, timeout=60)
    free = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert held.returncode != 0 and "BlockingIOError" in held.stderr, held.stderr
    assert free.returncode == 0, free.stderr


def _page_problems(browser, url: str, screenshot: Path) -> list[str]:
    """Open ``url`` in a fresh context and list everything wrong with it."""
    blocked: list[str] = []
    failed: list[str] = []
    console_errors: list[str] = []

    def route(route) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in LOCAL_SCHEMES or parts.hostname == LOCAL_HOST:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    def request_failed(request) -> None:
        if request.url not in blocked:  # blocked requests are reported once, as blocked
            failed.append(f"{request.url} ({request.failure})")

    def response_received(response) -> None:
        if response.status >= 400:
            failed.append(f"{response.url} (HTTP {response.status})")

    def console_message(message) -> None:
        if message.type == "error":
            console_errors.append(message.text)

    context = browser.new_context()
    try:
        context.route("**/*", route)
        page = context.new_page()
        page.on("requestfailed", request_failed)
        page.on("response", response_received)
        page.on("console", console_message)
        page.on("pageerror", lambda error: console_errors.append(str(error)))

        response = page.goto(url, wait_until="networkidle")
        report = page.evaluate(CHART_REPORT_JS)
        page.screenshot(path=str(screenshot), full_page=True)
    finally:
        context.close()

    problems = []
    if response is None or not response.ok:
        problems.append(f"did not load: {response.status if response else 'no response'}")
    problems += [f"request to a non-local host: {request}" for request in blocked]
    problems += [f"failed request: {request}" for request in failed]
    problems += [f"console error: {error}" for error in console_errors]
    problems += [f"broken image: {src}" for src in report["brokenImages"]]
    problems += report["empty"]
    return problems


def test_every_page_works_offline(browser, book_url: str, built_book: Path, tmp_path: Path):
    pages = sorted(
        path.relative_to(built_book).as_posix()
        for path in built_book.rglob("*.html")
        # _static holds the themes' template fragments, not pages; lite/ is the live
        # notebooks' JupyterLite app (tests/test_book_live.py runs it).
        if not path.relative_to(built_book).parts[0].startswith("_")
        and path.relative_to(built_book).parts[0] != "lite"
    )
    assert "intro.html" in pages and any(page.startswith("notebooks/") for page in pages)
    problems = {}
    for page in pages:
        screenshot = tmp_path / (page.removesuffix(".html").replace("/", "__") + ".png")
        if found := _page_problems(browser, f"{book_url}/{page}", screenshot):
            problems[page] = found
    assert not problems, "\n".join(
        f"{page}:\n  " + "\n  ".join(found) for page, found in problems.items()
    )
