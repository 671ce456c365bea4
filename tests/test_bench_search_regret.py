"""benchmarks/bench_search_regret.py: positions, each sampler's regret, its lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_search_regret.py"


@pytest.mark.slow
def test_the_regret_benchmark_prints_a_line_per_sampler():
    """A small run: a line per sampler; the seeing bot agrees with itself at every
    position; every regret is at least 0 (the best candidate's mean less another's)."""
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "--every", "25", "--rollouts", "8",
         "--truth", "16"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert " positions of seat 0 in 1 games (seed 200)" in lines[0]
    positions = int(lines[0].split(" positions")[0])
    names = [line.split(":")[0] for line in lines[1:]]
    assert names == ["plain", "reading draws", "reading draws + buys", "seeing (bound a)"]
    assert f"agrees with seeing in {positions} of {positions};" in lines[-1]
    for line in lines[1:]:
        assert float(line.split("regret ")[1].split(" ")[0]) >= 0


@pytest.mark.slow
def test_more_adds_the_deeper_readings_before_the_bound():
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "--every", "40", "--rollouts", "4",
         "--truth", "8", "--more"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    names = [line.split(":")[0] for line in done.stdout.strip().splitlines()[1:]]
    assert names[3:] == [
        "reading two turns, 2 sweeps", "reading with discards, 4 sweeps", "seeing (bound a)"
    ]  # fmt: skip
