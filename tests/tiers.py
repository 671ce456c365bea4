"""The test tiers: ``make test-fast`` deselects the tests marked ``slow``.

A test (or one case of a parametrized test) is marked slow when it took 2 s or more on
the project's 2-core machine (``pytest --durations=0``); the full run keeps every one.
"""

from __future__ import annotations

import pytest


def slow(*values, id: str | None = None):
    """One case of a parametrized test, in the slow tier."""
    return pytest.param(*values, marks=pytest.mark.slow, id=id)
