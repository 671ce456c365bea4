"""What the real-browser tests share: Debian's Chromium, its flags, and starting it."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Headless, no sandbox (CI runs as root), and no background networking: this machine
# has no network but the package registries, and Chromium's own calls would fail.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> Path:
    """The Chromium binary; skip the test without it, except in CI, where that fails."""
    if not CHROMIUM.exists():
        message = "Chromium is missing at /usr/bin/chromium: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@contextlib.contextmanager
def launch_chromium(chromium: Path) -> Iterator[object]:
    """A Playwright browser on ``chromium`` with a fresh temporary profile, closed after."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium (:func:`require_chromium`), for the browser tests."""
    return require_chromium()
