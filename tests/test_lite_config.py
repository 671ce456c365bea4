"""The live notebooks' JupyterLite settings (book/live/jupyter-lite.json), read without
building the book: nothing in a live notebook may reach the network."""

from __future__ import annotations

import json
from pathlib import Path

LITE_CONFIG = Path(__file__).resolve().parents[1] / "book" / "live" / "jupyter-lite.json"
KERNEL = "@jupyterlite/pyodide-kernel-extension:kernel"


def test_piplite_never_falls_back_to_pypi():
    settings = json.loads(LITE_CONFIG.read_text())["jupyter-config-data"]
    # The build merges its own kernel settings (pyodideUrl, the lock) into this entry
    # (jupyterlite-pyodide-kernel's addon uses setdefault): the flag survives the build,
    # as tests/test_book_live.py checks on the built site.
    assert settings["litePluginSettings"][KERNEL]["disablePyPIFallback"] is True
