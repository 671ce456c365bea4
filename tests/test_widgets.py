"""The widgets without a browser: set traits, click buttons, check engine state and display.

Every widget is driven through its controls (``Button.click()``, ``.value = ...``) and the
assertions read the engine objects it holds and the HTML it shows.
"""

from __future__ import annotations

import importlib
import sys

import pytest

from rummykit import RuleSet, check_meld, contract_distance, find_contract, parse_cards

pytest.importorskip("ipywidgets")

from rummykit.widgets import DealWidget, MeldBuilder, OddsExplorer, SimulationExplorer  # noqa: E402

STANDARD = RuleSet.preset("standard")


# --- the optional dependency ----------------------------------------------------------


def test_import_without_ipywidgets_says_what_to_install(monkeypatch):
    for name in list(sys.modules):
        if name == "rummykit.widgets" or name.startswith("rummykit.widgets."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import ipywidgets now fails
    with pytest.raises(ImportError, match=r'pip install "rummykit\[notebook\]"'):
        importlib.import_module("rummykit.widgets")


# --- DealWidget ------------------------------------------------------------------------


def test_deal_shows_the_hand_its_distance_and_the_exact_odds():
    widget = DealWidget(seed=3, background=False)
    assert widget.hand == ()
    widget.deal_button.click()
    assert len(widget.hand) == 10 and widget.seed.value == 4
    assert widget.distance == contract_distance(widget.hand, STANDARD.contracts[0], STANDARD)
    # Every card is drawn with its name as a text alternative.
    for card in widget.hand:
        assert f"<title>{card.name}</title>" in widget.hand_html.value
    assert widget.distance > 0
    assert f"{widget.distance} card" in widget.status_html.value
    assert "away from the contract, 2 sets" in widget.status_html.value
    assert widget.probability is not None and 0 < widget.probability < 1
    assert str(widget.probability) in widget.odds_html.value
    assert "about 1 in 11" in widget.odds_html.value


def test_deal_is_repeatable_from_its_seed():
    first = DealWidget(seed=12, background=False)
    second = DealWidget(seed=12, background=False)
    assert first.deal() == second.deal()
    assert first.deal() != DealWidget(seed=12, background=False).deal()


def test_deal_highlights_the_contract_when_the_hand_holds_it():
    widget = DealWidget(background=False)
    for seed in range(200):
        widget.seed.value = seed
        widget.deal_button.click()
        if widget.melds:
            break
    assert widget.melds == find_contract(widget.hand, STANDARD.contracts[0], STANDARD)
    assert widget.distance == 0
    assert "This hand holds the contract, 2 sets" in widget.status_html.value
    assert 'class="highlight"' in widget.hand_html.value
    for meld in widget.melds:
        assert str(meld) in widget.status_html.value


def test_deal_controls_change_round_sort_colours_and_shoe():
    # Mixed contracts take a while to count exactly: no odds here.
    widget = DealWidget(seed=1, odds=False, background=False)
    widget.round.value = 5
    widget.deal_button.click()
    assert len(widget.hand) == 12 and widget.contract == STANDARD.contracts[4]
    assert "2 sets + 1 run" in widget.status_html.value
    widget.sort.value = "suit"
    order = [card.name for card in widget.hand.sorted(by="suit")]
    shown = widget.hand_html.value
    positions = [shown.index(f"<title>{name}</title>") for name in order]
    assert positions == sorted(positions)
    widget.four_colour.value = True
    if any(card.suit is not None and card.suit.name == "CLUBS" for card in widget.hand):
        assert "#1b7837" in widget.hand_html.value
    assert widget.odds_html.value == "" and widget.probability is None
    widget.decks.value = 3
    assert widget.jokers.value == STANDARD.jokers_for(3)
    widget.preset.value = "family"
    assert widget.round.value == 5 and widget.hand_size == 7
    assert widget.jokers.value == RuleSet.preset("family").jokers_for(3)


def test_deal_counts_the_odds_in_the_background():
    widget = DealWidget(seed=5, background=True)
    widget.deal_button.click()
    widget.wait(timeout=120)
    assert widget.probability is not None
    assert "The chance of being dealt 2 sets" in widget.odds_html.value


# --- MeldBuilder -----------------------------------------------------------------------


def test_meld_builder_checks_a_run_with_a_joker():
    builder = MeldBuilder()
    for button in builder.picker.buttons:
        if button.description in ("7♥", "8♥", "JK", "10♥"):
            button.value = True
    assert str(builder.selected) == "7♥ 8♥ JK 10♥"
    assert "Selected: 7 of hearts, 8 of hearts, joker, 10 of hearts" in builder.selection_html.value
    builder.check_button.click()
    assert builder.result.ok and builder.result.kind == "run"
    assert builder.verdict == "valid run, the joker is the 9♥"
    assert "valid run, the joker is the 9♥" in builder.verdict_html.value
    assert "= 9♥" in builder.verdict_html.value  # the joker's card under it, in the SVG


def test_meld_builder_shows_the_rule_that_fails():
    builder = MeldBuilder()
    builder.select("7H 8H 10H")
    builder.check_button.click()
    expected = check_meld(parse_cards("7H 8H 10H"), STANDARD)
    assert not builder.result.ok
    assert builder.verdict == expected.describe()
    assert expected.reason in builder.verdict_html.value
    assert 'role="alert"' in builder.verdict_html.value
    # Changing the selection withdraws the verdict.
    builder.picker.buttons[0].value = not builder.picker.buttons[0].value
    assert builder.result is None and "Press Check" in builder.verdict_html.value


def test_meld_builder_forced_kind_rules_and_keyboard_buttons():
    builder = MeldBuilder(hand="5C 5D 5S JK")
    builder.select("5C 5D JK")
    builder.kind.value = "run"
    builder.check_button.click()
    assert builder.verdict == check_meld(parse_cards("5C 5D JK"), STANDARD, kind="run").describe()
    builder.kind.value = None
    builder.check_button.click()
    assert builder.verdict == "valid set, the joker is the 5♥"
    # One focusable toggle per card, named for screen readers.
    assert [b.tooltip for b in builder.picker.buttons] == [
        "5 of clubs",
        "5 of diamonds",
        "5 of spades",
        "joker",
    ]
    builder.clear_button.click()
    assert builder.selected == ()


def test_meld_builder_takes_typed_cards_and_deals():
    builder = MeldBuilder(seed=9)
    builder.codes.value = "3S 4S JK 6S 9D"
    builder.use_button.click()
    assert str(builder.hand) == "3♠ 4♠ JK 6♠ 9♦"
    builder.codes.value = "3S 1H"
    builder.use_button.click()
    assert "cannot read card &#x27;1H&#x27;" in builder.verdict_html.value
    assert str(builder.hand) == "3♠ 4♠ JK 6♠ 9♦"  # unchanged
    builder.deal_button.click()
    assert len(builder.hand) == 10 and builder.seed.value == 10
    builder.four_colour.value = True
    buttons = zip(builder.hand, builder.picker.buttons, strict=True)
    clubs = [button for card, button in buttons if card.code.endswith("C")]
    assert all(button.style.text_color == "#1b7837" for button in clubs)


# --- OddsExplorer and SimulationExplorer -----------------------------------------------


def test_odds_explorer_shows_the_exact_odds_and_a_chart_of_the_neighbourhood():
    from rummykit.odds import dealt_probability

    explorer = OddsExplorer(background=False, neighbour_decks=(1, 2))
    contract = STANDARD.contracts[0]
    expected = dealt_probability(contract, decks=2, jokers=4, cards=10, rules=STANDARD)
    assert explorer.probability == expected
    assert f"{expected} = {float(expected) * 100:.2f}%" in explorer.result_html.value
    assert "about 1 in 11" in explorer.result_html.value
    assert set(explorer.frame["decks"].to_list()) == {1, 2}
    assert explorer.frame["cards"].min() == 6 and explorer.frame["cards"].max() == 14
    chart = explorer.chart_html.value
    assert "<svg" in chart and "Chance of being dealt 2 sets, by hand size" in chart
    assert "<script" not in chart  # drawn here, as SVG: no CDN, no JavaScript

    explorer.cards.value = 8
    smaller = dealt_probability(contract, decks=2, jokers=4, cards=8, rules=STANDARD)
    assert explorer.probability == smaller < expected
    assert "in 8 cards" in explorer.result_html.value
    explorer.jokers.value = 0
    assert explorer.probability == dealt_probability(
        contract, decks=2, jokers=0, cards=8, rules=STANDARD
    )


def test_simulation_explorer_converges_on_the_exact_value():
    explorer = SimulationExplorer(n=6000, steps=5, seed=4)
    assert explorer.checkpoints() == sorted(set(explorer.checkpoints()))
    assert explorer.checkpoints()[-1] == 6000
    explorer.run_button.click()
    assert explorer.progress.value == explorer.progress.max == 6000
    assert explorer.frame["n"].to_list() == explorer.checkpoints()
    estimate, exact = explorer.estimate, float(explorer.exact)
    assert estimate.n == 6000
    assert abs(estimate.p - exact) < 5 * estimate.stderr
    assert explorer.frame["ci_high"][-1] - explorer.frame["ci_low"][-1] < (
        explorer.frame["ci_high"][0] - explorer.frame["ci_low"][0]
    )
    assert f"After 6,000 hands: {estimate.successes:,} held 2 sets" in explorer.result_html.value
    assert f"The exact value is {exact:.2%}" in explorer.result_html.value
    assert "<svg" in explorer.chart_html.value and "Hands dealt" in explorer.chart_html.value
    # The same seed deals the same hands.
    again = SimulationExplorer(n=6000, steps=5, seed=4, exact=False)
    again.run()
    assert again.estimate == estimate and again.exact is None
