"""The seeds of the simulations drawn with the standard library (rummykit.odds.cells.seed_words)
are NumPy's SeedSequence's, so a Python without numpy (the book's Pyodide) plays the same
rounds and deals the same hands as ``rummykit tables``."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.errors import RummyError
from rummykit.odds.cells import round_seed, seed_words
from tests.support.no_analysis import HIDE_ANALYSIS

words = st.integers(min_value=0, max_value=2**200)


@settings(max_examples=400, deadline=None)
@given(
    entropy=words,
    key=st.lists(st.integers(min_value=0, max_value=2**70), max_size=8),
    count=st.integers(min_value=1, max_value=6),
)
def test_seed_words_are_numpys_seed_sequence(entropy, key, count):
    sequence = np.random.SeedSequence(entropy, spawn_key=tuple(key))
    expected = [int(v) for v in sequence.generate_state(count, dtype=np.uint64)]
    assert seed_words(entropy, tuple(key), count) == expected


def test_round_seeds_are_those_numpy_gave():
    # The seeds of data/'s rounds, as NumPy derived them before this module did.
    for key, index in [((4, 2, 4, 1), 0), ((8, 3, 6, 7), 9_999), ((2, 1, 2, 5), 17)]:
        state = np.random.SeedSequence(2026, spawn_key=(*key, index)).generate_state(
            2, dtype=np.uint64
        )
        assert round_seed(2026, key, index) == (int(state[0]) >> 1, int(state[1]) >> 1)
    with pytest.raises(RummyError, match="non-negative"):
        seed_words(-1, (), 1)


def test_round_seeds_need_no_numpy():
    code = HIDE_ANALYSIS + (
        "from rummykit.odds.cells import round_seed\nprint(*round_seed(2026, (4, 2, 4, 1), 0))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    state = np.random.SeedSequence(2026, spawn_key=(4, 2, 4, 1, 0)).generate_state(2, np.uint64)
    assert done.stdout.split() == [str(int(state[0]) >> 1), str(int(state[1]) >> 1)]
