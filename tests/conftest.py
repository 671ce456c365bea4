"""Shared test settings.

Hypothesis runs derandomized (a fixed seed per test), so a failure seen once is seen
every time, in CI too; its example database is off for the same reason.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "rummykit",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("rummykit")
