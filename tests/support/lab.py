"""A real JupyterLab on 127.0.0.1 and a headless Chromium page on it: the fixtures of the
tests that drive the widgets in JupyterLab (tests/test_widgets*_browser.py,
tests/test_exercises_browser.py).

One JupyterLab serves the session (issue 51, item 6), with no token, on a free port, with
its own temporary config, data, runtime and settings folders, on a folder into which each
test writes its notebook (:data:`CELLS`, or a test's own cells by ``indirect``
parametrization of :func:`jupyterlab`) and opens it on a fresh kernel, every earlier
session, kernel and saved layout gone; the pages are contexts of the session's one
Chromium; requests to any other host are blocked; every process started is stopped, even
on failure.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the page fixture skips the test
    PlaywrightTimeout = TimeoutError

HOST = "127.0.0.1"


NOTEBOOK = "widgets.ipynb"


# Generous: the machine may be busy with other work.
START_TIMEOUT = 60


TIMEOUT_MS = 60_000


SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


# The test notebook: one widget per cell, each with a fixed seed.
CELLS = [
    "from rummykit.widgets import (\n"
    "    DealWidget, MeldBuilder, OddsExplorer, PlayWidget, SimulationExplorer\n"
    ")",
    "deal = DealWidget(seed=3)\ndeal",
    'builder = MeldBuilder(hand="5C 5D 5S 7H 8H JK 10H QS KS 2D")\nbuilder',
    "play = PlayWidget(bots=2, seed=5, hint=True)\nplay",
    "odds = OddsExplorer(neighbour_decks=(1, 2))\nodds",
    "simulation = SimulationExplorer(n=3000, steps=6, seed=1)\nsimulation.run()\nsimulation",
]


def _notebook(cells: list[str] = CELLS) -> dict:
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell-{number}",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for number, source in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


class _Lab:
    """The session's JupyterLab: its URL, the folder it serves and its home."""

    def __init__(self, url: str, root: Path, home: Path, log: Path) -> None:
        self.url, self.root, self.home, self.log = url, root, home, log

    def api(self, method: str, path: str, body: dict | None = None) -> object:
        """A call of the server's REST API (with the XSRF cookie any page of it sets)."""
        cookies = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
        opener.open(f"{self.url}/lab", timeout=30).close()
        xsrf = next(cookie.value for cookie in cookies if cookie.name == "_xsrf")
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json", "X-XSRFToken": xsrf},
        )
        with opener.open(request, timeout=30) as response:
            text = response.read()
        return json.loads(text) if text else None

    def clear(self) -> None:
        """No session, no kernel and no saved layout left by an earlier test: the next
        test's notebook starts on a fresh kernel in a fresh layout."""
        for session in self.api("GET", "/api/sessions"):
            self.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in self.api("GET", "/api/kernels"):
            self.api("DELETE", f"/api/kernels/{kernel['id']}")
        for workspace in (self.home / "workspaces").glob("*"):
            workspace.unlink()


@pytest.fixture(scope="session")
def _lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Lab]:
    """One JupyterLab for the session (issue 51, item 6: it was one per test), serving a
    folder that each test's notebook is written into (:func:`jupyterlab`)."""
    folder = tmp_path_factory.mktemp("jupyterlab")
    root = folder / "notebooks"
    root.mkdir()
    home = folder / "jupyter"
    # Start the notebook's kernel without asking, and never fetch news.
    for name, settings in SETTINGS.items():
        path = home / "settings" / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings), encoding="utf-8")
    (home / "workspaces").mkdir()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    port = _free_port()
    jupyter = Path(sys.executable).with_name("jupyter")
    command = [
        str(jupyter),
        "lab",
        f"--ServerApp.ip={HOST}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--no-browser",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--allow-root",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={home / 'settings'}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    log_path = folder / "jupyterlab.log"
    log = log_path.open("w")
    # Its own session: the server and the kernels it starts are one process group, which
    # is stopped as a whole.
    server = subprocess.Popen(
        command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _answers(f"{url}/api/status"):
            if server.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"JupyterLab did not start:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)
        yield _Lab(url, root, home, log_path)
    finally:
        _stop(server)
        log.close()


@pytest.fixture
def jupyterlab(_lab_server: _Lab, request) -> Iterator[str]:
    """The session's JupyterLab serving the test notebook, on a fresh kernel; its URL.

    The notebook's cells are :data:`CELLS`, or the test's own (``indirect``
    parametrization of this fixture)."""
    cells = getattr(request, "param", CELLS)
    _lab_server.clear()
    notebook = _lab_server.root / NOTEBOOK
    notebook.write_text(json.dumps(_notebook(cells), indent=1), encoding="utf-8")
    try:
        _start_kernel(_lab_server)
        yield _lab_server.url
    finally:
        with contextlib.suppress(Exception):
            _lab_server.clear()


def _start_kernel(lab: _Lab) -> None:
    """Start the notebook's kernel through the REST API and wait until it is idle.

    A page that opens the notebook while its kernel is still starting may connect before
    the kernel can take the connection; JupyterLab recovers, but widget models created
    then can miss the page ("Error displaying widget: model not found").
    """
    body = {"path": NOTEBOOK, "type": "notebook", "name": NOTEBOOK, "kernel": {"name": "python3"}}
    kernel = lab.api("POST", "/api/sessions", body)["kernel"]["id"]
    # The kernel answers its first client once its process is up: give it a moment.
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if lab.api("GET", f"/api/kernels/{kernel}")["execution_state"] in ("idle", "starting"):
            break
        time.sleep(0.5)
    time.sleep(3)


def _stop(server: subprocess.Popen) -> None:
    """Stop JupyterLab and its kernels: SIGTERM to the group, then SIGKILL if need be."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=20)
    # Kernels left behind (or a server that would not stop) are killed outright.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=10)


@pytest.fixture
def page(browser, jupyterlab: str, tmp_path: Path) -> Iterator[object]:
    """The test notebook open in JupyterLab, in a fresh context of the session's one
    Chromium (:func:`~tests.support.book.browser`), other hosts blocked."""
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    blocked: list[str] = []

    def route(route) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob", "about") or parts.hostname == HOST:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.blocked = blocked
    page.goto(f"{jupyterlab}/lab/tree/{NOTEBOOK}", wait_until="domcontentloaded")
    try:
        yield page
    finally:
        with contextlib.suppress(Exception):
            page.screenshot(path=str(tmp_path / "jupyterlab.png"))
        context.close()


def _button(container, label: str):
    """The ipywidgets button labelled ``label`` (its icon, if any, aside)."""
    return container.locator("button.widget-button", has_text=re.compile(rf"^\s*{label}\s*$"))


def _answer_kernel_dialog(page) -> None:
    """Should JupyterLab ask which kernel to start, take the one it proposes."""
    dialog = page.locator(".jp-Dialog")
    if dialog.count():
        dialog.get_by_role("button", name="Select", exact=True).click()


def _run_all_cells(page, widget: str = ".rk-deal") -> None:
    """Run every cell from the Run menu, once the notebook has its kernel, until the
    widgets show (``widget``: the selector of the first one).

    Widgets created while JupyterLab is still wiring up the kernel's connection can miss
    the page ("Error displaying widget: model not found"): then run the cells again.
    """
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    _answer_kernel_dialog(page)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(state="attached")
    _answer_kernel_dialog(page)
    shown = page.locator(widget).or_(page.get_by_text("Error displaying widget"))
    for _ in range(3):
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            shown.first.wait_for(timeout=30_000)
        except PlaywrightTimeout:
            _answer_kernel_dialog(page)
            continue
        if page.locator(widget).count():
            return
        # A fresh page connects to the kernel, now well started, from scratch.
        page.reload()
        page.locator(".jp-Notebook .jp-Cell").first.wait_for()
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(
            state="attached"
        )
        _answer_kernel_dialog(page)
    raise AssertionError("Run > Run All Cells did not show the widgets")


def _dropdown(container, description: str):
    return container.locator(".widget-dropdown", has_text=description).first
