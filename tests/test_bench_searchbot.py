"""benchmarks/bench_searchbot.py: the deals played in parts (``--part K/N --out F``) and
combined (``--combine``) give the issue's line of one process playing every deal; without
an experiment its bot plays as SearchBot; its experiments' doctests (moved there from
tests/test_searchbot.py with the options SearchBot no longer has) pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.agents.bots import GreedyBot
from rummykit.agents.searchbot import SearchBot
from rummykit.evaluate.duplicate import compare

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_searchbot.py"
SMALL = ["--deals", "3", "--rounds", "1", "--rollouts", "3", "--seed", "5", "--prior", "outs"]


def last_line(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_parts_combine_to_the_whole_run(tmp_path):
    whole = last_line(*SMALL)
    assert whole.startswith("searchbot: went out first ")
    parts = [tmp_path / f"part{k}.json" for k in range(2)]
    for k, path in enumerate(parts):
        last_line(*SMALL, "--part", f"{k}/2", "--out", str(path))
    # The median decision time differs from run to run; every other figure must not.
    assert last_line("--combine", *map(str, parts)).rsplit(",", 1)[0] == whole.rsplit(",", 1)[0]
    with pytest.raises(subprocess.CalledProcessError):
        last_line("--combine", str(parts[0]), str(parts[0]))  # a deal twice
    other = tmp_path / "other.json"  # part 1 played with another option
    last_line(*SMALL, "--out-bonus", "60", "--part", "1/2", "--out", str(other))
    with pytest.raises(subprocess.CalledProcessError):
        last_line("--combine", str(parts[0]), str(other))


@pytest.mark.slow
def test_without_an_experiment_the_benchmark_plays_as_searchbot():
    """The benchmark weighs and chooses with its own copy of SearchBot's loop (to time the
    rollouts and hold the experiments): at its defaults that copy plays as SearchBot."""
    small = ["--deals", "1", "--rounds", "1", "--rollouts", "3", "--seed", "5"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *small], capture_output=True, text=True, check=True
    )
    result = compare(
        SearchBot(seed=5, rollouts=3), GreedyBot(), deals=1, rules="standard", players=4,
        rounds=1, seed=5,
    )  # fmt: skip
    # The comparison's lines but the first, which names the bots (the benchmark's by its
    # budget only).
    figures = str(result).splitlines()[1:]
    assert figures and "\n".join(figures) in done.stdout


@pytest.mark.slow
def test_the_experiments_doctests_pass():
    """TimedSearchBot's doctests: the prior, the margin and the pool (moved here from
    tests/test_searchbot.py), and its list of candidates against SearchBot's."""
    done = subprocess.run(
        [sys.executable, "-m", "doctest", str(BENCH)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
