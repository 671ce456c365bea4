"""benchmarks/bench_reading.py runs and prints a line per way of reading."""

from __future__ import annotations

import subprocess
import sys
import types
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
    assert len(ways) == 11 and all(" rules out " in way and "placed right " in way for way in ways)


def test_the_true_hands_are_placed_right_and_off_by_nothing():
    """The benchmark's two measures of a sample against the truth: the true hands place
    every hidden card right and are off by 0; a plain sample places fewer."""
    sys.path.insert(0, str(BENCH.parent))
    try:
        import bench_reading
    finally:
        sys.path.remove(str(BENCH.parent))
    from rummykit.agents.determinize import determinize, hidden_cards

    view, hands = bench_reading.views(1, 3)[5]
    hidden = hidden_cards(view)
    right, total = bench_reading.placed_right(view, hidden, hands, hands)
    assert right == total > 0
    assert bench_reading.distance_off(view, hands, hands)[0] == 0
    plain = determinize(view, 1, hidden=hidden)
    assert bench_reading.placed_right(view, hidden, plain.hands, hands)[0] < total


def test_a_sampler_of_the_true_hands_measures_all_right(monkeypatch):
    """measure() scores each sample against the truth of its view: a sampler that returns
    the true hands places 100% right and is off by 0, while plain samples are not."""
    sys.path.insert(0, str(BENCH.parent))
    try:
        import bench_reading
    finally:
        sys.path.remove(str(BENCH.parent))
    found = bench_reading.views(1, 3)[:12]
    truths = {id(view): hands for view, hands in found}

    class Seeing:
        def __init__(self, view, **options):
            self.view, self.drawn, self.fell_back = view, 0, 0

        def __call__(self, seed):
            self.drawn += 1
            return types.SimpleNamespace(hands=truths[id(self.view)])

    monkeypatch.setattr(bench_reading, "ReadingSampler", Seeing)
    ruled, fell, drawn, ms, right, plain_right, off, plain_off = bench_reading.measure(
        found, ("draws", "buys"), 1, 32, 0
    )
    assert drawn > 0 and right == 1.0 and off == 0.0
    assert plain_right < 0.5 and plain_off > 0
