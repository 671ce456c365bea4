"""The built book in a real browser, with the network cut off.

Serves ``book/_build/html`` on 127.0.0.1 and opens every page in headless Chromium. Each
page must load with no failed request, no console error and no request to another host,
and every altair chart on it must be drawn (an SVG holding marks). The book is built first
unless the last successful build (``make book`` or this test) is newer than every notebook,
book source and module of the package.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser import launch_chromium, require_chromium

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
HTML = BOOK / "_build" / "html"
# Touched by `make book` and by this test after a build that succeeded (a failed build
# with --keep-going still writes pages, so their dates alone prove nothing).
BUILT_OK = BOOK / "_build" / ".html-built"
# Held while a test decides whether to build and builds (_build_lock).
BUILD_LOCK = BOOK / "_build" / ".build.lock"
NOTEBOOKS = ROOT / "notebooks"
LOCAL_HOST = "127.0.0.1"
# Schemes that never reach the network.
LOCAL_SCHEMES = {"data", "blob", "about"}

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


def _newest_source_mtime() -> float:
    sources = [
        *NOTEBOOKS.glob("*.ipynb"),
        *BOOK.glob("*.md"),
        *BOOK.glob("reference/*.md"),
        *BOOK.glob("*.yml"),
        *BOOK.glob("_ext/*.py"),
        *BOOK.glob("live/*.ipynb"),
        *BOOK.glob("live/*.json"),
        *BOOK.glob("_static/*"),
        *(ROOT / "rummykit").rglob("*.py"),
    ]
    return max(path.stat().st_mtime for path in sources)


def _book_is_fresh() -> bool:
    return BUILT_OK.exists() and BUILT_OK.stat().st_mtime > _newest_source_mtime()


@pytest.fixture(scope="module")
def chromium() -> Path:
    return require_chromium()


@contextlib.contextmanager
def _build_lock() -> Iterator[None]:
    """Hold ``book/_build/.build.lock`` (an exclusive ``flock``; the system lets it go
    when the process ends, however it ends): one process at a time decides whether the
    book is fresh and builds it, so two test runs or two xdist workers never build it
    together, and the one that waited reuses the other's build."""
    import fcntl

    BUILD_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with BUILD_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def built_book() -> Path:
    with _build_lock():
        if not _book_is_fresh():
            jupyter_book = Path(sys.executable).with_name("jupyter-book")
            build = subprocess.run(
                [str(jupyter_book), "build", str(BOOK), "--warningiserror", "--keep-going"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert build.returncode == 0, (
                f"jupyter-book build failed:\n{build.stdout}\n{build.stderr}"
            )
            BUILT_OK.touch()
    return HTML


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


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def book_url(built_book: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(built_book))
    server = http.server.ThreadingHTTPServer((LOCAL_HOST, 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="book-server", daemon=True)
    thread.start()
    try:
        yield f"http://{LOCAL_HOST}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(chromium: Path) -> Iterator[object]:
    with launch_chromium(chromium) as browser:
        yield browser


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
