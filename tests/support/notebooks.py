"""The book's notebooks, as the tests that read them see them."""

from __future__ import annotations

from pathlib import Path

#: The chapters (and the how-to page), executed and committed with their outputs.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

#: Notebooks whose code is not checked yet (tests/test_book_outputs.py), with the reason:
#: none now. Their outputs are scanned all the same.
CODE_NOT_YET: dict[str, str] = {}
