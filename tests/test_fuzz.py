"""The engine fuzzer (``fuzz.py``) at CI size: every table with both bots, seeded.

``make soak`` runs the same driver for a million actions.
"""

from __future__ import annotations

import pytest
from fuzz import run

from tests.support.game_invariants import tables


@pytest.mark.slow
def test_fuzzing_every_table_finds_no_break_and_no_mishandled_input():
    report = run(30_000, seed=2026, game_actions=300)
    assert report.breaks == [] and report.break_count == 0
    assert report.mishandled == [] and report.mishandled_count == 0
    assert report.tables == set(tables())  # every preset at every player count it allows
    assert report.actions >= 30_000 and report.inputs > 5_000 and report.rounds > 0
