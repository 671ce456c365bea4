"""The OddsExplorer's chart as a newcomer meets it (issue 50, items 1, 2 and 19).

Every preset and round ends in a chart or in a line saying why there is none (a round
whose hand sizes shown are all too small for its contract used to say "Drawing ..." for
ever); estimated points are drawn as estimates, a circle with a bar over the 95%
interval, never joined by a line to their neighbours; a shoe or a hand with no chance
above 0 is named, not silently dropped from a log scale; and the plain chart's tick
labels have room beside the axis title.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from rummykit import RuleSet  # noqa: E402
from rummykit.widgets import OddsExplorer  # noqa: E402
from rummykit.widgets import odds as odds_module  # noqa: E402
from rummykit.widgets.plain import LINE_COLOURS, odds_lines_svg  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_sweeps(monkeypatch):
    """Each test counts into a cache of sweeps of its own: a sweep left in the process's
    cache would answer later tests' cells (known_probability, answer) as made before."""
    from rummykit.odds.counting import exact

    monkeypatch.setattr(exact, "_CACHE", {})


STANDARD = RuleSet.preset("standard")


def _ended(explorer: OddsExplorer) -> str:
    explorer.wait(300)
    assert explorer.pending == 0
    return explorer.chart_html.value


@pytest.mark.slow
@pytest.mark.parametrize("plain", [True, False], ids=["plain", "engine"])
def test_every_preset_and_round_ends_in_a_chart_or_says_why_not(plain):
    # At 3 cards every contract of every preset is impossible at some or all of the
    # sizes shown (3 to 7): the chart comes, or the words say why it cannot.
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        for number, contract in enumerate(rules.contracts, start=1):
            explorer = OddsExplorer(name, round=number, plain=plain, neighbour_decks=(1, 2))
            explorer.cards.value = 3
            shown = _ended(explorer)
            assert "Drawing" not in shown, (name, number)
            if contract.min_cards(rules) > 7:
                assert "No chart" in shown and "<svg" not in shown, (name, number)
                assert f"{contract.min_cards(rules)} cards or more" in shown
            else:
                assert "<svg" in shown, (name, number)


@pytest.mark.parametrize("preset, number, cards", [("wikipedia", 7, None), ("standard", 7, 5)])
def test_a_round_too_big_for_every_size_shown_says_so(preset, number, cards):
    # The cases: wikipedia round 7 as dealt, standard round 7 at 5 cards.
    explorer = OddsExplorer(preset, round=number)
    if cards is not None:
        explorer.cards.value = cards
    shown = _ended(explorer)
    rules = RuleSet.preset(preset)
    needed = rules.contracts[number - 1].min_cards(rules)
    largest = explorer.cards.value + 4
    assert f"3 runs need {needed} cards, more than any hand size here" in shown
    assert f"to {largest} cards)" in shown
    assert "Drawing" not in shown
    # ... and moving on to a size that can hold it draws the chart.
    explorer.cards.value = needed
    assert "<svg" in _ended(explorer)


def _guess(decks, jokers, cards, p, low, high, n=1_000):
    return {
        "decks": decks,
        "jokers": jokers,
        "cards": cards,
        "p": p,
        "ci_low": low,
        "ci_high": high,
        "n": n,
        "method": "simulation",
    }


def _exact(decks, jokers, cards, p):
    return {"decks": decks, "jokers": jokers, "cards": cards, "p": p, "method": "exact"}


def test_plain_estimates_are_circles_with_bars_never_joined():
    # Noisy estimates that fall from 10 to 11 cards: drawn as three circles with bars,
    # no line through them; the exact shoe is one line.
    rows = [_exact(2, 4, c, p) for c, p in ((9, 0.2), (10, 0.3), (11, 0.4))]
    rows += [
        _guess(1, 2, 9, 0.10, 0.08, 0.12),
        _guess(1, 2, 10, 0.16, 0.14, 0.18),
        _guess(1, 2, 11, 0.15, 0.13, 0.17),
    ]
    svg = odds_lines_svg(rows, (2, 4, 10), "Chance")
    assert svg.count("<polyline") == 1
    assert svg.count("<circle") == 3 + 1  # the estimates and the key's sample
    # The shoes in order: 1 deck + 2 jokers first, in the first colour.
    bar = r'<line x1="([\d.]+)" x2="\1" y1="([\d.]+)" y2="([\d.]+)" stroke="{}"'
    bars = re.findall(bar.format(LINE_COLOURS[0]), svg)
    assert len(bars) == 3 and all(float(y1) > float(y2) for _, y1, y2 in bars)
    assert ">simulated: 95% interval<" in svg
    # Without estimates, no key line for them.
    assert "simulated" not in odds_lines_svg(rows[:3], (2, 4, 10), "Chance")


def test_plain_zero_estimate_on_a_log_scale_is_a_triangle_at_its_top():
    rows = [_exact(2, 4, c, p) for c, p in ((9, 0.0004), (10, 0.001))]
    rows.append(_guess(1, 2, 10, 0.0, 0.0, 0.0037))
    svg = odds_lines_svg(rows, (2, 4, 10), "Chance")
    assert ">1 in 10,000<" in svg  # a log scale
    triangles = re.findall(f'<polygon points="[^"]*" fill="{LINE_COLOURS[0]}"/>', svg)
    assert len(triangles) == 1
    assert "<circle" in svg  # the key's sample only
    assert svg.count("<circle") == 1


def test_plain_impossible_shoe_stays_in_the_key_and_labels_fit():
    rows = [_exact(2, 4, c, p) for c, p in ((11, 0.0), (12, 2e-6), (13, 3e-5))]
    rows += [_exact(1, 2, c, 0.0) for c in (11, 12, 13)]
    svg = odds_lines_svg(rows, (1, 2, 12), "Chance", ["standard rules", "second line"])
    assert ">1 deck + 2 jokers: impossible at these sizes<" in svg
    assert ">second line<" in svg
    # The longest tick label ends 6 px left of the plot and starts right of the axis
    # title (drawn at x = 14, rotated): it is never clipped at the left edge.
    plot_left = float(re.search(r'<rect x="([\d.]+)"', svg).group(1))
    longest = max(re.findall(r'text-anchor="end"[^>]*>(1 in [\d,]+)<', svg), key=len)
    assert longest == "1 in 1,000,000"
    assert plot_left - 6 - 6.0 * len(longest) > 20
    # The chosen hand, impossible, has no diamond on a log scale (the widget says why).
    assert "your hand" not in svg


@pytest.mark.parametrize("plain", [True, False], ids=["plain", "engine"])
def test_widget_draws_simulated_neighbours_as_estimates(monkeypatch, plain):
    # Every point the tables lack simulated (no count is quick enough), from 2,000 hands.
    monkeypatch.setattr(odds_module, "NEIGHBOUR_EXACT_SECONDS", 0.0)
    monkeypatch.setattr(odds_module, "NEIGHBOUR_HANDS", 2_000)
    explorer = OddsExplorer("pagat", round=2, decks=1, neighbour_decks=(1, 4), plain=plain)
    shown = _ended(explorer)
    rows = explorer.frame if plain else explorer.frame.to_dicts()
    simulated = [row for row in rows if row["method"] == "simulation"]
    assert simulated, "the 4-deck shoe is in no table: its points are simulated"
    assert all(row["ci_low"] <= row["p"] <= row["ci_high"] for row in simulated)
    assert f"circles and bars: {len(simulated)} points simulated from 2,000 hands each" in (
        shown.replace("&#x27;", "'")
    )
    assert "lines: exact" in shown


def test_widget_names_an_impossible_hand_and_shoe():
    # standard round 7 (3 runs, 12 cards at least) at 12 cards: the sizes shown are 8 to
    # 16 (up to 15), impossible below 12, so the hand is drawn; at 11 it is not.
    explorer = OddsExplorer("standard", round=7, neighbour_decks=(2,))
    explorer.cards.value = 11
    shown = _ended(explorer)
    assert "<svg" in shown
    assert "your hand (11 cards): impossible, 3 runs need 12 cards" in shown
    assert "no hand under 12 cards can hold 3 runs" in shown
