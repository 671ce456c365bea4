"""The built book, served on 127.0.0.1, and a headless Chromium to read it: the fixtures
of the tests that read the book (tests/test_book_*.py, tests/test_exercises_browser.py).

The book is built first unless the last successful build (``make book`` or a test) is
newer than every notebook, book source and module of the package; one process at a time
builds it (a file lock), so two xdist workers never build it together.
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

from tests.support.browser import launch_chromium

ROOT = Path(__file__).resolve().parents[2]


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


def _newest_source_mtime() -> float:
    sources = [
        *NOTEBOOKS.glob("*.ipynb"),
        *BOOK.glob("*.md"),
        *BOOK.glob("reference/*.md"),
        *BOOK.glob("*.yml"),
        *BOOK.glob("_ext/*.py"),
        *BOOK.glob("_ext/*.mjs"),
        *BOOK.glob("live/*.ipynb"),
        *BOOK.glob("live/*.json"),
        *BOOK.glob("_static/*"),
        *(ROOT / "rummykit").rglob("*.py"),
    ]
    return max(path.stat().st_mtime for path in sources)


def _book_is_fresh() -> bool:
    return BUILT_OK.exists() and BUILT_OK.stat().st_mtime > _newest_source_mtime()


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


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[object]:
    """The session's one Chromium (issue 51, item 6: it was one per module or per test):
    each test opens its own context on it."""
    with launch_chromium(chromium) as browser:
        yield browser


def offline_page(browser, problems: list[str]):
    """A page in a fresh context whose requests to other hosts are refused and listed."""
    context = browser.new_context()

    def route(route) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in LOCAL_SCHEMES or parts.hostname == LOCAL_HOST:
            route.continue_()
        else:
            problems.append(f"request to a non-local host: {route.request.url}")
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    return context, page
