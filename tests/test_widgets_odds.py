"""OddsExplorer and SimulationExplorer: counts planned from their cost, run in the
background, and charts drawn at once from what is known (issue 18, items 3-5).

Counts that would be slow are never run here: a stand-in for
``rummykit.odds.counting.exact.dealt_probability`` records what the widgets ask for.
"""

from __future__ import annotations

import threading
import time
from fractions import Fraction

import pytest

pytest.importorskip("ipywidgets")

import rummykit.odds as odds  # noqa: E402
import rummykit.odds.counting.exact as exact  # noqa: E402
from rummykit import RuleSet  # noqa: E402
from rummykit.chance import estimate_text, exact_text  # noqa: E402
from rummykit.odds.answer import (
    count_seconds,  # noqa: E402
    known_probability,  # noqa: E402
)
from rummykit.odds.cells import ExactCell  # noqa: E402
from rummykit.odds.data.plan import (
    SWEEP_SECONDS,  # noqa: E402
    duration_text,  # noqa: E402
)
from rummykit.odds.dealt.simulate import simulate_dealt  # noqa: E402
from rummykit.widgets import DealWidget, OddsExplorer, SimulationExplorer  # noqa: E402
from rummykit.widgets._common import (  # noqa: E402
    COUNT_UNASKED_SECONDS,
    QUICK_HANDS,
    dealt_cell,
    slow_to_count,
)

STANDARD = RuleSet.preset("standard")
PAGAT = RuleSet.preset("pagat")


class StandIn:
    """Records each count asked for and answers 1/3; ``hold`` keeps counts waiting."""

    def __init__(self, monkeypatch) -> None:
        self.calls: list[tuple] = []
        self.hold = threading.Event()
        self.hold.set()
        monkeypatch.setattr(exact, "dealt_probability", self)
        monkeypatch.setattr(exact, "_CACHE", {})  # nothing counted before

    def __call__(self, contract, **kwargs):
        self.calls.append((contract, kwargs["decks"], kwargs["jokers"], kwargs["cards"]))
        self.hold.wait(30)
        if kwargs.get("progress") is not None:
            kwargs["progress"](1, 1)  # where a real count reports (and may be stopped)
        return Fraction(1, 3)


def shoe_of(explorer, decks: int, jokers: int, cards: int) -> None:
    explorer.decks.value = decks
    explorer.jokers.value = jokers
    explorer.cards.value = cards


# --------------------------------------------------------------------------- planning


def test_cells_measured_fast_are_counted_unasked_and_slow_ones_wait_to_be_asked():
    # Every measured sweep of COUNT_UNASKED_SECONDS or less is counted unasked ...
    for (name, sets, runs, decks), by_cards in SWEEP_SECONDS.items():
        rules = RuleSet.preset(name)
        contract = next(c for c in rules.contracts if (c.sets, c.runs) == (sets, runs))
        for cards, seconds in by_cards.items():
            slow = slow_to_count(dealt_cell(rules, contract, decks, 8, cards))
            assert slow == (seconds > COUNT_UNASKED_SECONDS), (name, sets, runs, decks, cards)
    # ... pagat round 2 with 3 decks, 8 jokers and 15 cards (about 4 s) among them, and
    # standard round 6 with 3 decks, 8 jokers and 15 cards (76 s measured) is not.
    assert 3 < count_seconds(dealt_cell(PAGAT, PAGAT.contracts[1], 3, 8, 15)) < 6
    assert not slow_to_count(dealt_cell(PAGAT, PAGAT.contracts[1], 3, 8, 15))
    assert count_seconds(dealt_cell(STANDARD, STANDARD.contracts[5], 3, 8, 15)) == 76.2
    assert slow_to_count(dealt_cell(STANDARD, STANDARD.contracts[5], 3, 8, 15))
    # A value the committed tables hold takes no time at all.
    assert count_seconds(dealt_cell(STANDARD, STANDARD.contracts[5], 3, 6, 14)) == 0


@pytest.mark.slow
def test_odds_explorer_counts_pagat_round_2_unasked_and_plans_round_6_slow(monkeypatch):
    stand_in = StandIn(monkeypatch)
    explorer = OddsExplorer("pagat", round=2, decks=3, neighbour_decks=(3,))
    explorer.wait(60)
    stand_in.hold.clear()
    shoe_of(explorer, 3, 8, 15)
    # While the count runs: its planned time and a quick simulated estimate.
    assert "(about 4 s planned)" in explorer.result_html.value
    assert "Meanwhile, simulated from 20,000 hands" in explorer.result_html.value
    stand_in.hold.set()
    explorer.wait(60)
    assert (PAGAT.contracts[1], 3, 8, 15) in stand_in.calls
    assert explorer.count_progress.button.layout.display == "none"  # no button: counted
    assert explorer.probability == Fraction(1, 3) and "1/3" in explorer.result_html.value

    explorer.preset.value = "standard"
    explorer.round.value = 6
    shoe_of(explorer, 3, 8, 15)
    explorer.wait(60)
    assert (STANDARD.contracts[5], 3, 8, 15) not in stand_in.calls
    assert explorer.probability is None
    assert explorer.count_progress.button.layout.display is None
    assert "about 1 min 16 s on one core (planned)" in explorer.result_html.value


# --------------------------------------------------------------------------- DealWidget


def quick_estimate(rules: RuleSet, round_: int, decks: int, jokers: int) -> str:
    """The words of the quick estimate a widget shows for a round's deal with this shoe."""
    contract, cards = rules.contracts[round_ - 1], rules.deal_sizes[round_ - 1]
    estimate = simulate_dealt(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, n=QUICK_HANDS, seed=0
    )
    planned = duration_text(count_seconds(dealt_cell(rules, contract, decks, jokers, cards)))
    return (
        f"Counting the exact odds ({planned} planned) ... Meanwhile, simulated from "
        f"20,000 hands: {estimate_text(estimate.p, estimate.ci_low, estimate.ci_high)}."
    )


def test_deal_shows_a_quick_estimate_at_once_then_the_exact_value(monkeypatch):
    stand_in = StandIn(monkeypatch)
    stand_in.hold.clear()  # the count cannot end until the test says so
    # pagat round 6 with 3 decks and 8 jokers: not committed, planned at a few seconds.
    assert (
        0.25
        < count_seconds(dealt_cell(PAGAT, PAGAT.contracts[5], 3, 8, 12))
        < COUNT_UNASKED_SECONDS
    )
    widget = DealWidget("pagat", round=6, decks=3, jokers=8, seed=1)
    started = time.perf_counter()
    widget.deal_button.click()
    assert time.perf_counter() - started < 1.0  # the count went to a thread
    # At once, for these settings: the estimate with its interval and the planned time.
    assert quick_estimate(PAGAT, 6, 3, 8) in widget.odds_html.value
    assert widget.probability is None and widget.estimate_text in widget.odds_html.value
    assert widget.count_progress.button.layout.display == "none"  # counted unasked
    widget.deal_button.click()  # another hand, the same shoe: the same count serves it
    assert widget.seed.value == 2 and quick_estimate(PAGAT, 6, 3, 8) in widget.odds_html.value
    stand_in.hold.set()
    widget.wait(60)
    assert stand_in.calls == [(PAGAT.contracts[5], 3, 8, 12)]  # counted once
    assert widget.probability == Fraction(1, 3) and widget.estimate_text is None
    assert "from 3 decks and 8 jokers: 1/3 = 33%" in widget.odds_html.value
    assert "simulated" not in widget.odds_html.value
    # Counted once, known after: dealing with these settings again shows it at once.
    widget.jokers.value = 6
    widget.jokers.value = 8
    assert widget.probability == Fraction(1, 3) and len(stand_in.calls) == 1


def test_a_committed_value_is_shown_at_once_and_a_stale_count_never_overwrites_it(monkeypatch):
    stand_in = StandIn(monkeypatch)
    stand_in.hold.clear()
    widget = DealWidget("pagat", round=6, decks=3, jokers=8, seed=1)
    widget.deal_button.click()
    left = widget._odds_thread
    assert left.is_alive()
    # 6 jokers: data/exact_presets holds it, so the exact value is up at once.
    widget.jokers.value = 6
    committed = known_probability(ExactCell(PAGAT, 6, PAGAT.contracts[5], 3, 6, 12))
    assert committed is not None and widget.probability == committed
    assert str(committed) in widget.odds_html.value and "simulated" not in widget.odds_html.value
    stand_in.hold.set()  # the count for 8 jokers ends now: it must not be shown
    left.join(60)
    assert widget.probability == committed and "1/3" not in widget.odds_html.value
    assert "from 3 decks and 6 jokers" in widget.odds_html.value

    # A count left for another uncounted shoe: only the newer one is shown.
    stand_in.hold.clear()
    widget.jokers.value = 7
    first = widget._odds_thread
    widget.jokers.value = 5
    assert first is not widget._odds_thread
    assert quick_estimate(PAGAT, 6, 3, 5) in widget.odds_html.value
    stand_in.hold.set()
    first.join(60)
    widget.wait(60)
    assert (PAGAT.contracts[5], 3, 7, 12) in stand_in.calls
    assert widget.probability == Fraction(1, 3)
    assert "from 3 decks and 5 jokers: 1/3" in widget.odds_html.value


# --------------------------------------------------------------------------- SimulationExplorer


def test_simulation_run_returns_at_once_and_never_counts_a_slow_cell_unasked(monkeypatch):
    stand_in = StandIn(monkeypatch)
    explorer = SimulationExplorer(round=6, decks=3, jokers=8, n=3000, steps=3, seed=2)
    explorer.controls.cards.value = 15  # the exact count is planned at 76 s
    started = time.perf_counter()
    explorer.run_button.click()
    assert time.perf_counter() - started < 1.0  # the handler handed the run to a thread
    assert explorer._run_thread is not None
    explorer.wait(60)
    assert explorer.estimate.n == 3000 and stand_in.calls == []
    assert explorer.exact is None
    assert "about 1 min 16 s on one core (planned)" in explorer.result_html.value
    assert explorer.count_progress.button.layout.display is None

    started = time.perf_counter()
    explorer.count_progress.button.click()  # asked: counted, still in the background
    assert time.perf_counter() - started < 1.0
    explorer.wait(60)
    assert stand_in.calls == [(STANDARD.contracts[5], 3, 8, 15)]
    assert explorer.exact == Fraction(1, 3)
    assert "The exact value is 1/3 = 33%." in explorer.result_html.value


def test_simulation_counts_a_quick_exact_value_after_the_hands():
    explorer = SimulationExplorer(round=2, decks=1, jokers=2, n=2000, steps=3, seed=2)
    explorer.controls.cards.value = 10
    explorer.run_button.click()
    explorer.wait(60)
    expected = odds.dealt_probability(
        STANDARD.contracts[1], decks=1, jokers=2, cards=10, rules=STANDARD
    )
    assert explorer.exact == expected and explorer.exact_note is None
    assert f"The exact value is {exact_text(expected)}." in explorer.result_html.value
    assert explorer.count_progress.button.layout.display == "none"


# --------------------------------------------------------------------------- charts at once


def test_a_new_contract_is_drawn_at_once_and_marked_while_points_recompute(monkeypatch):
    stand_in = StandIn(monkeypatch)
    explorer = OddsExplorer(neighbour_decks=(1, 2))
    explorer.wait(60)
    assert "Chance of being dealt 2 sets" in explorer.chart_html.value
    stand_in.hold.clear()  # counts wait: the thread cannot finish
    explorer.round.value = 6  # 1 set + 2 runs, 2 decks, 4 jokers, 12 cards: committed
    chart = explorer.chart_html.value
    # Drawn already, from data/: the new title, the stale points said, never the old title.
    assert "<svg" in chart and "Chance of being dealt 1 set + 2 runs" in chart
    assert "2 sets," not in chart and "recomputing" in chart and explorer.pending > 0
    committed = known_probability(ExactCell(STANDARD, 6, STANDARD.contracts[5], 2, 4, 12))
    assert explorer.probability == committed and str(committed) in explorer.result_html.value
    stand_in.hold.set()
    explorer.wait(60)
    assert explorer.pending == 0 and "recomputing" not in explorer.chart_html.value
    assert explorer.frame.height == 2 * 8  # 2 shoes x hand sizes 8-15
    assert "your hand" in explorer.chart_html.value


def test_a_count_left_behind_by_the_controls_stops_and_shows_nothing(monkeypatch):
    stand_in = StandIn(monkeypatch)
    explorer = OddsExplorer("pagat", round=6, decks=3, neighbour_decks=(3,))
    explorer.wait(60)
    first = explorer.probability  # 12 cards: from data/exact_presets
    stand_in.hold.clear()
    explorer.cards.value = 13  # counted unasked: the stand-in holds it
    assert "Counting the exact odds" in explorer.result_html.value
    left = explorer._thread
    explorer.cards.value = 12  # back to the committed value before the count returns
    stand_in.hold.set()
    explorer.wait(60)
    left.join(60)
    assert explorer.probability == first != Fraction(1, 3)
    assert "1/3" not in explorer.result_html.value


def test_a_first_run_in_a_process_draws_its_first_estimate_plainly_at_once(monkeypatch):
    import xml.etree.ElementTree as ElementTree

    import rummykit.widgets._common as common

    monkeypatch.setattr(common, "_engine_started", False)  # as in a fresh kernel
    explorer = SimulationExplorer(n=2000, steps=3, seed=2, background=False)
    charts, texts = [], []
    explorer.chart_html.observe(lambda change: charts.append(change["new"]), "value")
    explorer.result_html.observe(lambda change: texts.append(change["new"]), "value")
    explorer.run()
    # The first estimate: in words and drawn plainly (well-formed SVG, no vl-convert marks).
    assert "After 100 hands" in texts[0] and "<svg" in charts[0]
    plain = charts[0][charts[0].index("<svg") : charts[0].index("</svg>") + len("</svg>")]
    root = ElementTree.fromstring(plain)
    assert root.get("aria-label") == "Chance of 2 sets in 10 cards: the estimate settles"
    assert 'class="marks"' not in plain and ">2,000<" in plain  # the run's last hand count
    # From the next step on, the charting engine's chart, to the end of the run.
    assert all('class="marks"' in chart for chart in charts[1:]) and len(charts) == 3
    assert common.engine_started() and not explorer.drawn_plainly

    # A run of one step still ends on the engine's chart.
    monkeypatch.setattr(common, "_engine_started", False)
    one = SimulationExplorer(n=50, steps=1, seed=2, exact=False, background=False)
    one.run()
    assert 'class="marks"' in one.chart_html.value and not one.drawn_plainly


def test_the_first_odds_chart_in_a_process_is_drawn_plainly_at_once_then_by_the_thread(
    monkeypatch,
):
    import xml.etree.ElementTree as ElementTree

    import rummykit.widgets._common as common

    monkeypatch.setattr(common, "_engine_started", False)  # as in a fresh kernel
    drawing = threading.Event()  # the engine's drawing waits until the test says
    real = common.chart_svg

    def chart_svg(chart):
        drawing.wait(30)
        return real(chart)

    monkeypatch.setattr(common, "chart_svg", chart_svg)
    started = time.perf_counter()
    explorer = OddsExplorer(neighbour_decks=(2,))  # standard round 1, 2 decks, 4 jokers
    assert time.perf_counter() - started < 1.0  # the constructor did not wait for it
    # The value is up at once (data/ has it), and the committed points drawn plainly:
    # well-formed SVG, its line, its diamond at the hand chosen, no vl-convert marks.
    committed = known_probability(ExactCell(STANDARD, 1, STANDARD.contracts[0], 2, 4, 10))
    assert explorer.probability == committed and str(committed) in explorer.result_html.value
    shown = explorer.chart_html.value
    plain = shown[shown.index("<svg") : shown.index("</svg>") + len("</svg>")]
    root = ElementTree.fromstring(plain)
    assert root.get("aria-label") == "Chance of being dealt 2 sets, by hand size"
    assert 'class="marks"' not in plain and "<polyline" in plain and ">your hand<" in plain
    assert ">2 decks + 4 jokers<" in plain and ">10<" in plain
    drawing.set()
    explorer.wait(60)
    assert 'class="marks"' in explorer.chart_html.value and common.engine_started()
    # Once the engine has started, a change is drawn in the handler again, at once.
    drawing.clear()
    monkeypatch.setattr(common, "chart_svg", real)
    explorer.round.value = 4  # 3 sets
    assert "Chance of being dealt 3 sets" in explorer.chart_html.value
