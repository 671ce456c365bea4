"""Widgets as a newcomer reads them (issue 26): no result of other settings, chances in
words below one in a million, the shoe bounds agreed, the out faces wrapped, chart keys."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("polars")

from rummykit import RuleSet, parse_cards  # noqa: E402
from rummykit.agents.hints import outs  # noqa: E402
from rummykit.chance import exact_text  # noqa: E402
from rummykit.odds.answer import known_probability  # noqa: E402
from rummykit.odds.cells import ExactCell
from rummykit.widgets import DealWidget, OddsExplorer, SimulationExplorer  # noqa: E402
from rummykit.widgets._common import DECKS, JOKERS  # noqa: E402
from rummykit.widgets.hints import OUT_FACES_PER_ROW, outs_html  # noqa: E402

STANDARD = RuleSet.preset("standard")
# A chance the committed tables hold, below one in a million: 3 runs in 12 cards from
# 2 decks and 2 jokers.
TINY = known_probability(ExactCell(STANDARD, 7, STANDARD.contracts[6], 2, 2, 12))
# What a chance must never read as: a percentage of noughts, an exponent.
ZEROS = re.compile(r"(?<![\d.])0\.0+\s?%|\de-0\d")


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.slow
def test_a_simulation_result_is_cleared_once_the_controls_leave_its_settings():
    explorer = SimulationExplorer(n=200, steps=2, seed=1, exact=False, background=False)
    explorer.run()
    ran = explorer.result_html.value
    assert "After 200 hands" in ran and "<svg" in explorer.chart_html.value
    assert not explorer.stale
    for control, value in (
        (explorer.controls.round, 2),
        (explorer.controls.decks, 3),
        (explorer.controls.preset, "pagat"),
        (explorer.controls.cards, 11),
    ):
        before = control.value
        control.value = value
        assert explorer.stale
        text = explorer.result_html.value
        assert "Press Run for these settings" in text and "After 200 hands" not in text
        assert "standard rules, 2 sets in 10 cards from 2 decks and 4 jokers" in text
        assert explorer.chart_html.value == ""
        control.value = before  # back on the settings run: the result again
        assert not explorer.stale and explorer.result_html.value == ran
        assert "<svg" in explorer.chart_html.value
    explorer.controls.round.value = 2
    explorer.run()  # Run for the new settings: their result
    assert not explorer.stale and "1 set + 1 run" in explorer.result_html.value


def test_a_simulation_finishing_after_the_controls_moved_shows_nothing_of_it():
    explorer = SimulationExplorer(n=200, steps=3, seed=1, exact=False, background=False)
    shown = []
    explorer.result_html.observe(lambda change: shown.append(change["new"]), "value")

    def move_on(change):
        if change["new"] == 100:  # mid-run, the reader picks another round
            explorer.controls.round.value = 3

    explorer.progress.observe(move_on, "value")
    explorer.run()
    assert "Press Run for these settings" in explorer.result_html.value
    assert explorer.chart_html.value == ""
    assert not any("After 200 hands" in text for text in shown)


@pytest.mark.slow
def test_every_widget_writes_a_chance_below_one_in_a_million_in_words():
    assert 0 < TINY < Fraction(1, 1_000_000)
    words = exact_text(TINY)
    assert re.fullmatch(r"\d+/\d+ = 1 in \d{1,3}(,\d{3})+", words)
    deal = DealWidget(round=7, decks=2, jokers=2, seed=1, background=False)
    deal.deal_button.click()
    odds = OddsExplorer(round=7, decks=2, jokers=2, neighbour_decks=(2,), background=False)
    sim = SimulationExplorer(round=7, decks=2, jokers=2, n=500, steps=2, background=False)
    sim.run()
    for shown in (deal.odds_html.value, odds.result_html.value, sim.result_html.value):
        assert words in shown and not ZEROS.search(_text(shown)), shown
    assert "none held 3 runs (95%: up to 1 in 130)" in sim.result_html.value
    # Impossible reads as such, with its reason, apart from a chance that rounds small.
    odds.cards.value = 11
    assert "impossible: 3 runs need 12 cards" in odds.result_html.value


def test_the_shoe_bounds_are_one_and_the_same_in_every_widget():
    assert DECKS == (1, 4) and JOKERS == (0, 16)
    for explorer in (
        OddsExplorer(neighbour_decks=(2,), background=False),
        SimulationExplorer(background=False),
    ):
        assert (explorer.controls.decks.min, explorer.controls.decks.max) == DECKS
        assert (explorer.controls.jokers.min, explorer.controls.jokers.max) == JOKERS
    deal = DealWidget(decks=4, jokers=8, background=False)
    deal.deal_button.click()
    assert len(deal.hand) == 10 and "4 decks" in deal.hand_html.value
    deal.decks.value = DECKS[1] + 1
    assert "5" in deal.status_html.value and "1 to 4" in deal.status_html.value


def test_many_out_faces_wrap_in_rows_and_the_sentence_wraps():
    rules = RuleSet.preset("standard")
    hand = parse_cards("3H 5H 7H 9H 3S 5S 7S 9S 3C 5C 7C 9C")  # 3 runs: outs in every gap
    result = outs(hand, rules.contracts[6], rules, decks=2, jokers=4)
    assert len(result.cards) > OUT_FACES_PER_ROW
    page = outs_html(result, rules.contracts[6])
    rows = re.findall(r'aria-label="(\d+) out faces"', page)
    assert len(rows) == -(-len(result.cards) // OUT_FACES_PER_ROW)
    assert all(int(n) <= OUT_FACES_PER_ROW for n in rows)
    assert sum(int(n) for n in rows) == len(result.cards)
    assert "flex-wrap:wrap" in page and "white-space:normal" in page


@pytest.mark.slow
def test_the_simulation_chart_has_a_key_and_ticks_that_differ():
    explorer = SimulationExplorer(n=3000, steps=3, seed=4, background=False)
    explorer.run()
    chart = explorer.chart_html.value
    texts = [t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", chart)]
    assert {"95% interval", "estimate", "exact value"} <= set(texts)
    ticks = [t for t in texts if t.endswith("%") or t.startswith("1 in ")]
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks), ticks
    # "Players": no table reads as such, and the table's words are a chance of a player.
    assert explorer.players.options[0] == ("no table (dealt hand only)", None)
    explorer.players.value = 4
    message = explorer.table.message_html.value
    assert "By their first turn, a player has laid down with a chance of about" in message
    assert "of players" not in message
