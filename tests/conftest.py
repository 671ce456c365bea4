"""Shared test settings: Hypothesis's profiles, the fast tier's list (tests/support/tiers.py) and
the one way to turn a compiled core off (the ``without_core`` fixture).

Hypothesis runs derandomized (a fixed seed per test), so a failure seen once is seen
every time, in CI too; its example database is off for the same reason. Two profiles:
``rummykit`` (the default, every example: ``make test``) and ``fast`` (10 examples where a
test sets no count of its own: ``make test-fast`` passes ``--hypothesis-profile=fast``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from rummykit import _native
from tests.support.tiers import measured_slow, moved

settings.register_profile(
    "rummykit",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("fast", settings.get_profile("rummykit"), max_examples=10)
settings.load_profile("rummykit")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark slow the tests and cases that ``tiers.MOVED`` lists or ``tiers.TIMES`` measured
    slow (before ``-m`` selects)."""
    for item in items:
        test = getattr(item, "originalname", None) or item.name
        callspec = getattr(item, "callspec", None)
        if moved(item.path.name, test, callspec.id if callspec else None) or measured_slow(
            item.nodeid
        ):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def without_core(monkeypatch):
    """Turn compiled cores off for one test, as on a machine without a C compiler:
    ``without_core("distance", ...)`` sets them to None in their one face,
    :mod:`rummykit._native`, which every user of a core reads when it calls."""

    def turn_off(*names: str) -> None:
        for name in names:
            assert name in _native.CORES, name
            monkeypatch.setattr(_native, name, None)

    return turn_off
