"""docs/exact-sweep.md quotes the output of docs/exact_sweep_example.py: it must be what
the example prints now (the example itself asserts that its count is the sweep's and
the plain reference's)."""

from __future__ import annotations

import contextlib
import io
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_design_note_quotes_the_worked_example():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(ROOT / "docs" / "exact_sweep_example.py"), run_name="__main__")
    printed = out.getvalue()
    assert "dealt_count: 4; reference_dealt_count: 4" in printed
    note = (ROOT / "docs" / "exact-sweep.md").read_text(encoding="utf-8")
    assert f"```text\n{printed}```" in note
