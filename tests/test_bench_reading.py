"""benchmarks/bench_reading.py runs and prints a line per way of reading."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_reading.py"


@pytest.mark.slow
def test_the_reading_benchmark_prints_every_way():
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "--seed", "3"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert lines[0].endswith("views of seat 0 in 1 games (seed 3)")
    assert lines[1].startswith("plain determinization: ")
    ways = [line for line in lines[2:] if line.startswith("reads ")]
    assert len(ways) == 7 and all(" rules out " in way and "x plain)" in way for way in ways)
