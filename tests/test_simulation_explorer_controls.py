"""The SimulationExplorer's controls as a newcomer meets them (issue 50, items 7, 8, 19).

The Hands box names the range it accepts and never changes a number behind the reader's
back (5, 0 and 99,999,999 used to become 10, 10 and 10,000,000); a run can be stopped;
the Dealt bar empties with the result it counted; no hand held is said in words, and
the running estimate's axis writes every tick one way.
"""

from __future__ import annotations

import re
import threading

import pytest

pytest.importorskip("ipywidgets")

from rummykit.errors import ArgumentError  # noqa: E402
from rummykit.widgets import SimulationExplorer  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_sweeps(monkeypatch):
    """Each test counts into a cache of sweeps of its own: a sweep left in the process's
    cache would answer later tests' cells (known_probability, answer) as made before."""
    from rummykit.odds.counting import exact

    monkeypatch.setattr(exact, "_CACHE", {})


@pytest.mark.parametrize("typed", [5, 0, -3, 99_999_999])
def test_hands_out_of_range_are_named_and_kept(typed):
    explorer = SimulationExplorer(n=2_000, steps=3, seed=1, background=False)
    explorer.n.value = typed
    assert explorer.n.value == typed  # never changed behind the reader's back
    explorer.run_button.click()
    said = explorer.result_html.value
    assert "Hands must be a whole number from 10 to 10,000,000" in said
    assert f"not {typed:,}" in said and "nothing was dealt" in said
    assert explorer.estimate is None and explorer.progress.value == 0
    assert "10 to 10,000,000" in explorer.hands_range.value


def test_constructor_refuses_hands_out_of_range():
    with pytest.raises(ArgumentError, match="n must be an integer from 10 to 10000000"):
        SimulationExplorer(n=5)


def test_stop_ends_a_long_run_with_the_hands_dealt_so_far():
    explorer = SimulationExplorer(n=10_000_000, steps=6, seed=1, exact=False)
    explorer.run_button.click()
    # Wait until the run is under way past its first checkpoint, then press Stop.
    started = threading.Event()

    def watch(change):
        if change["new"] > 5_000:
            started.set()

    explorer.progress.observe(watch, "value")
    assert explorer.stop_button.layout.display is None  # shown while dealing
    assert started.wait(120)
    explorer.stop_button.click()
    explorer.wait(120)
    assert explorer.stopped
    assert explorer.stop_button.layout.display == "none"
    assert not explorer.run_button.disabled
    dealt = explorer.estimate.n
    assert 0 < dealt < 10_000_000 and explorer.progress.value == dealt
    assert f"Stopped by you after {dealt:,} of 10,000,000 hands." in explorer.result_html.value
    # Run again: it deals to the end this time (a smaller run), not stopped.
    explorer.n.value = 2_000
    explorer.run_button.click()
    explorer.wait(120)
    assert not explorer.stopped and explorer.estimate.n == 2_000


def test_a_cleared_result_empties_the_bar_and_back_refills_it():
    explorer = SimulationExplorer(n=2_000, steps=3, seed=1, background=False)
    explorer.run()
    assert explorer.progress.value == 2_000
    explorer.controls.round.value = 2
    assert "no longer matches the controls" in explorer.result_html.value
    assert explorer.progress.value == 0
    explorer.controls.round.value = 1
    assert explorer.progress.value == 2_000


@pytest.mark.parametrize("plain", [True, False], ids=["plain", "engine"])
def test_no_hand_held_is_said_in_words_and_ticks_are_one_style(plain):
    # 3 runs in 12 cards: about 1 in 500,000; 300 hands hold none.
    explorer = SimulationExplorer(
        round=7, n=300, steps=3, seed=2, exact=False, background=False, plain=plain
    )
    explorer.run()
    said = explorer.result_html.value
    assert explorer.estimate.successes == 0
    assert re.search(r"After 300 hands: none held 3 runs \(95%: up to 1 in [\d,]+\)\.", said)
    assert "none of the hands" not in said
    ticks = [t for t in re.findall(r">([^<>]*%|1 in [\d,]+)</text>", explorer.chart_html.value)]
    assert ticks and all(t.endswith("%") for t in ticks), ticks
