"""The widgets without a browser: set traits, click buttons, check engine state and display.

Every widget is driven through its controls (``Button.click()``, ``.value = ...``) and the
assertions read the engine objects it holds and the HTML it shows.
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import random
import re
import sys

import pytest

from rummykit import RuleSet, check_meld, contract_distance, find_contract, parse_cards
from rummykit.chance import chance_text, estimate_text, exact_text

pytest.importorskip("ipywidgets")

from rummykit.widgets import (  # noqa: E402
    DealWidget,
    MeldBuilder,
    OddsExplorer,
    PlayWidget,
    SimulationExplorer,
)

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
    assert len(widget.hand) == 10 and widget.seed.value == 3
    contract = STANDARD.contracts[0]
    assert widget.distance == contract_distance(widget.hand, contract, STANDARD, decks=2)
    # Every card is drawn with its name as a text alternative.
    for card in widget.hand:
        assert f"<title>{card.name}</title>" in widget.hand_html.value
    assert widget.distance > 0
    assert f"{widget.distance} card" in widget.status_html.value
    assert "away from the contract, 2 sets: for example, the " in widget.status_html.value
    # The example completion: that many cards, which make the contract once added.
    missing = widget.completion
    assert len(missing) == widget.distance
    assert find_contract([*widget.hand, *missing], contract, STANDARD) is not None
    words = " and ".join(str(card) for card in missing)
    if len(missing) > 2:
        words = ", ".join(str(card) for card in missing[:-1]) + f" and {missing[-1]}"
    assert f"the {words} would complete it." in widget.status_html.value
    assert widget.probability is not None and 0 < widget.probability < 1
    assert f"{widget.probability} = {chance_text(widget.probability)}." in widget.odds_html.value


def test_deal_seed_box_names_the_hand_on_screen():
    from rummykit import Shoe

    shoe = Shoe(decks=2, jokers=4)
    widget = DealWidget(seed=3, odds=False, background=False)
    widget.deal_button.click()
    assert widget.seed.value == widget.dealt_seed == 3
    assert widget.hand == shoe.deal(10, seed=3)
    assert "This hand: seed 3, 10 cards from 2 decks and 4 jokers" in widget.hand_html.value
    widget.deal_button.click()  # the next hand: the seed moves on first
    assert widget.seed.value == widget.dealt_seed == 4 and widget.hand == shoe.deal(10, seed=4)
    widget.seed.value = 40  # a seed typed in is dealt at once
    assert widget.dealt_seed == 40 and widget.hand == shoe.deal(10, seed=40)
    assert "This hand: seed 40" in widget.hand_html.value
    # Before the first deal, typing a seed deals nothing: Deal deals that seed.
    fresh = DealWidget(seed=3, odds=False, background=False)
    fresh.seed.value = 8
    assert fresh.hand == () and fresh.dealt_seed is None
    fresh.deal_button.click()
    assert fresh.hand == shoe.deal(10, seed=8) and fresh.seed.value == 8


def test_deal_settings_deal_the_seed_again_at_once():
    from rummykit import Shoe

    widget = DealWidget(seed=5, background=False)
    widget.deal_button.click()
    assert "2 decks and 4 jokers" in widget.odds_html.value
    widget.round.value = 2  # the status and odds follow at once: no stale verdict
    contract = STANDARD.contracts[1]
    assert widget.hand == Shoe(decks=2, jokers=4).deal(10, seed=5) and widget.seed.value == 5
    assert str(contract) in widget.status_html.value
    assert widget.distance == contract_distance(widget.hand, contract, STANDARD, decks=2)
    assert f"The chance of being dealt {contract}" in widget.odds_html.value
    widget.round.value = 1
    widget.decks.value = 1
    assert widget.jokers.value == STANDARD.jokers_for(1)
    assert widget.hand == Shoe(decks=1, jokers=STANDARD.jokers_for(1)).deal(10, seed=5)
    assert "from 1 deck and" in widget.odds_html.value
    widget.jokers.value = 0
    assert widget.hand == Shoe(decks=1, jokers=0).deal(10, seed=5)
    assert "1 deck and 0 jokers" in widget.odds_html.value
    assert widget.probability is not None
    assert "1 deck and 0 jokers" in widget.hand_html.value


def test_deal_values_out_of_range_are_named_not_clamped():
    from rummykit.errors import RummyError

    widget = DealWidget(seed=2, odds=False, background=False)
    widget.deal_button.click()
    hand = widget.hand
    widget.decks.value = 9
    assert widget.decks.value == 9  # kept as typed, and refused in words
    assert 'role="alert"' in widget.status_html.value
    assert "Decks must be a whole number from 1 to 4, not 9" in widget.status_html.value
    assert widget.hand_html.value == "" and widget.odds_html.value == ""
    widget.deal_button.click()
    assert widget.hand == hand and widget.seed.value == 2  # nothing dealt
    with pytest.raises(RummyError, match="Decks must be a whole number from 1 to 4, not 9"):
        widget.deal()
    widget.sort.value = "suit"  # redrawing keeps the message up
    assert "Decks must be a whole number from 1 to 4" in widget.status_html.value
    widget.decks.value = 2
    widget.jokers.value = -1
    assert "Jokers must be a whole number from 0 to 16, not -1" in widget.status_html.value
    widget.jokers.value = 4
    assert "Jokers must be" not in widget.status_html.value and "<svg" in widget.hand_html.value
    assert widget.hand == hand and widget.dealt_seed == 2


def test_deal_a_number_not_whole_is_refused_never_read_as_another():
    """Item 10 of issue 50: "2.5" typed as decks read as 25 (an integer box drops the ".")."""
    from rummykit import Shoe

    widget = DealWidget(seed=2, background=False)
    widget.deal_button.click()
    p = widget.probability
    assert (widget.decks.value, widget.jokers.value) == (2, 4) and p is not None
    for box, name, low, high in ((widget.decks, "Decks", 1, 4), (widget.jokers, "Jokers", 0, 16)):
        kept, hand = box.value, widget.hand
        box.set_state({"value": 2.5})  # as the browser sends "2.5"
        assert box.value == 2.5
        assert widget.problem() == (
            f"{name} must be a whole number from {low} to {high}, not 2.5: "
            "nothing is dealt until it is."
        )
        assert widget.problem() in widget.status_html.value
        assert 'role="alert"' in widget.status_html.value
        assert widget.odds_html.value == "" and widget.probability is None
        assert widget.hand is hand and widget.dealt_seed == 2  # nothing dealt
        assert (widget.decks.value, widget.jokers.value) == (
            (2.5, 4) if name == "Decks" else (2, 2.5)
        )
        box.value = kept
        assert widget.hand == hand and widget.probability == p
    # A whole number, however it comes, is an int: scripts keep passing it on.
    widget.decks.set_state({"value": 3.0})
    assert widget.decks.value == 3 and isinstance(widget.decks.value, int)
    assert widget.jokers.value == STANDARD.jokers_for(3) and widget.problem() is None
    assert widget.hand == Shoe(decks=3, jokers=6).deal(10, seed=2)
    assert widget.shoe.cell().decks == 3 and "3 decks" in widget.hand_html.value


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


def test_deal_and_explorer_show_a_progress_bar_while_counting(monkeypatch):
    from rummykit.odds.counting import exact

    monkeypatch.setattr(exact, "_CACHE", {})  # a fresh count, not a cached one
    seen = []
    # 1 deck and 3 jokers: a shoe no preset uses, so not in the committed tables.
    widget = DealWidget(seed=5, decks=1, jokers=3, odds=False, background=False)
    bar = widget.count_progress
    real = bar.report

    def report(done, total):
        real(done, total)
        seen.append((done, total, bar.widget.layout.display))

    monkeypatch.setattr(bar, "report", report)
    widget.show_odds.value = True
    widget.deal_button.click()
    assert widget.probability is not None
    assert seen and seen[-1][0] == seen[-1][1] and all(shown is None for *_, shown in seen)
    assert bar.widget.layout.display == "none"  # hidden again once counted

    monkeypatch.setattr(exact, "_CACHE", {})
    explorer = OddsExplorer(background=False, neighbour_decks=(1,))
    reported = []
    monkeypatch.setattr(explorer.count_progress, "report", lambda *a: reported.append(a))
    # A shoe the tables lack (committed values are read, never counted again): a count.
    explorer.decks.value = 1
    explorer.jokers.value = 3
    assert reported and reported[-1][0] == reported[-1][1]
    assert explorer.count_progress.widget.layout.display == "none"


@pytest.mark.slow
def test_a_slow_count_shows_an_estimate_and_counts_only_when_asked(monkeypatch):
    from fractions import Fraction

    from rummykit.odds.answer import known_probability
    from rummykit.odds.cells import ExactCell
    from rummykit.odds.counting import exact
    from rummykit.odds.dealt.simulate import simulate_dealt

    # Slow counts (planned over COUNT_UNASKED_SECONDS, see exact_seconds): round 6 under
    # rules with runs of 3 (no preset's: planned at 8 times the slowest preset) with
    # 3 decks, and under pagat with 3 decks and 15 cards (about 3 min planned). A
    # stand-in count records calls (the chart's neighbourhood counts through it too).
    short = dataclasses.replace(STANDARD, name="short runs", min_run_size=3)
    calls = []

    def count(contract, **kwargs):
        calls.append((contract, kwargs["decks"], kwargs["cards"]))
        return Fraction(1, 3)

    monkeypatch.setattr(exact, "dealt_probability", count)
    # Sweeps other tests made in this process would answer some of these counts
    # (known_probability reads them): start from none.
    monkeypatch.setattr(exact, "_CACHE", {})

    def shown(rules, cards, decks=2):
        estimate = simulate_dealt(
            rules.contracts[5],
            decks=decks,
            jokers=2 * decks,
            cards=cards,
            rules=rules,
            n=200_000,
            seed=0,
        )
        words = estimate_text(estimate.p, estimate.ci_low, estimate.ci_high)
        return "Simulated from 200,000 hands: " + words

    widget = DealWidget(short, round=6, decks=3, seed=1, background=True)
    widget.deal_button.click()
    widget.wait(60)
    pagat = RuleSet.preset("pagat")
    explorer = OddsExplorer("pagat", round=6, decks=3, neighbour_decks=(2,), background=True)
    explorer.wait(60)  # 12 cards, the deal size: data/exact_presets has it, nothing counted
    assert (pagat.contracts[5], 3, 12) not in calls
    committed = known_probability(ExactCell(pagat, 6, pagat.contracts[5], 3, 6, 12))
    assert explorer.probability == committed and committed > 0
    explorer.controls.cards.value = 13  # not committed: planned at seconds, counted unasked
    explorer.wait(60)
    assert (pagat.contracts[5], 3, 13) in calls and explorer.probability == Fraction(1, 3)
    explorer.controls.cards.value = 15
    explorer.wait(60)
    for shown_in, button, text in (
        (widget.odds_html, widget.count_progress.button, shown(short, 12, decks=3)),
        (explorer.result_html, explorer.count_progress.button, shown(pagat, 15, decks=3)),
    ):
        assert text in shown_in.value and "Count exactly" in shown_in.value
        assert button.layout.display is None  # the button is offered
    assert widget.probability is explorer.probability is None
    asked = [(short.contracts[5], 3, 12), (pagat.contracts[5], 3, 15)]
    assert not set(asked) & set(calls)
    assert "<svg" in explorer.chart_html.value  # the neighbourhood is drawn meanwhile

    calls.clear()
    widget.count_progress.button.click()
    widget.wait(60)
    explorer.count_progress.button.click()
    explorer.wait(60)
    assert calls[:2] == asked
    assert widget.probability == explorer.probability == Fraction(1, 3)
    assert "1/3 = 33%" in widget.odds_html.value and "1/3" in explorer.result_html.value
    assert "Simulated" not in widget.odds_html.value + explorer.result_html.value
    assert widget.count_progress.button.layout.display == "none"

    # A quick count needs no button: round 2 with 1 deck and 3 jokers (a shoe not in the
    # committed tables) is counted in seconds, unasked.
    fast = DealWidget(round=2, decks=1, jokers=3, seed=1, background=True)
    fast.deal_button.click()
    fast.wait(60)
    assert fast.estimate_text is None and fast.probability == Fraction(1, 3)


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
    builder.kind.value = "either"
    builder.check_button.click()
    assert builder.verdict == "valid set, the joker stands for a 5"
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
    assert len(builder.hand) == 10 and builder.seed.value == builder.dealt_seed == 9
    first = builder.hand
    builder.deal_button.click()  # the next hand: the seed moves on first
    assert builder.seed.value == 10 and builder.hand != first
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
    assert f"{expected} = 8.9% (1 in 11)." in explorer.result_html.value
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
    explorer.run_button.click()  # the run goes to a thread
    explorer.wait()
    assert explorer.progress.value == explorer.progress.max == 6000
    assert explorer.frame["n"].to_list() == explorer.checkpoints()
    estimate, exact = explorer.estimate, float(explorer.exact)
    assert estimate.n == 6000
    assert abs(estimate.p - exact) < 5 * estimate.stderr
    assert explorer.frame["ci_high"][-1] - explorer.frame["ci_low"][-1] < (
        explorer.frame["ci_high"][0] - explorer.frame["ci_low"][0]
    )
    assert f"After 6,000 hands: {estimate.successes:,} held 2 sets" in explorer.result_html.value
    assert f"The exact value is {exact_text(explorer.exact)}." in explorer.result_html.value
    assert "<svg" in explorer.chart_html.value and "Hands dealt" in explorer.chart_html.value
    # The same seed deals the same hands.
    again = SimulationExplorer(n=6000, steps=5, seed=4, exact=False)
    again.run()
    assert again.estimate == estimate and again.exact is None


# --- PlayWidget ------------------------------------------------------------------------


def _refused(widget) -> bool:
    return 'role="alert"' in widget.message_html.value


def _discard_something(widget) -> None:
    """Discard the first card the engine accepts, clicking through the hand."""
    for index in range(len(widget.hand.buttons)):
        widget.hand.clear()
        widget.hand.buttons[index].value = True
        before = len(widget.state.history)
        widget.discard_button.click()
        if len(widget.state.history) > before:
            return
        assert _refused(widget)
    raise AssertionError("no card could be discarded")


def _lay_down_through_the_controls(widget) -> None:
    view = widget.view
    melds = find_contract(view.hand, view.contract, view.rules)
    if melds is None:
        return
    for meld in melds:
        widget.hand.select(meld.cards)
        widget.add_meld_button.click()
    assert len(widget.melds_to_lay) == len(melds)
    widget.lay_down_button.click()
    if not widget.view.laid_down[widget.seat]:
        # The engine refused this arrangement (it would leave no card to discard, say):
        # it said why; let it arrange the lay-down itself.
        assert _refused(widget)
        widget.auto_lay_down_button.click()


def _play_human_turns(widget, *, max_clicks: int = 3000, next_round: bool = True) -> int:
    """The human seat's simple policy, through the buttons: draw, lay down when the
    contract is in hand, discard the first card the engine accepts; never buy or call.
    Between rounds (a whole game) press Next round, or stop if not ``next_round``."""
    clicks = 0
    while not widget.finished:
        clicks += 1
        assert clicks < max_clicks, "the round did not end"
        if widget.between_rounds:
            if not next_round:
                break
            widget.next_round_button.click()
            continue
        state = widget.state
        assert state.to_act == widget.seat  # the bots have played up to the human
        phase = state.phase
        if phase == "draw":
            widget.draw_button.click()
        elif phase in ("buy", "call"):
            widget.pass_button.click()
        else:
            if phase == "play" and not widget.view.laid_down[widget.seat]:
                _lay_down_through_the_controls(widget)
            if not widget.finished and widget.state.to_act == widget.seat:
                _discard_something(widget)
        if not widget.finished:
            widget.state.check_invariants()
    return clicks


def test_play_a_whole_round_through_the_controls_against_seeded_bots():
    widget = PlayWidget(bots=3, bot="Greedy", seed=7, hint=True)
    assert widget.state.players == 4 and widget.state.round == 1
    clicks = _play_human_turns(widget)
    assert clicks > 5
    state = widget.state
    assert widget.finished and len(state.round_scores) == 1
    # The table's cards are all accounted for and the bots played through their views.
    state.check_invariants()
    log = widget.log_html.value
    assert widget.lines[0].startswith("Round 1, contract 2 sets")
    assert widget.lines[-1].startswith("Round 1 is over") and "Round 2" not in log
    for bot in state.names[1:]:
        assert f"{bot} draws from the stock." in log or f"{bot} takes the" in log
        assert f"{bot} discards the" in log or f"{bot} goes out" in log
    assert any(line.startswith("Ann draws from the stock: the ") for line in widget.lines)
    result = state.results[0]
    assert widget.result is result and result.round == 1
    out = state.names[result.went_out] if result.went_out is not None else None
    points = result.points[0]
    status = widget.status_html.value
    assert status.startswith('<p class="rk-message rk-ok"')
    assert f"Round 1 is over. {out} went out. You scored {points} points." in status
    assert "Round 2" not in status
    # The engine has dealt round 2, but the finished round is what is shown: every hand
    # as it ended, the points, and the melds as they lay.
    assert state.round == 2
    table = widget.table_html.value
    assert "Round 1: the hands as it ended" in table
    for seat, hand in enumerate(result.hands):
        shown = str(hand) if hand else "none"
        assert f"<td>{html.escape(shown)}" in table
        assert f"<td>{result.points[seat]}</td><td>{result.scores[seat]}</td>" in table
    assert "(went out)" in table
    for meld in result.melds:
        for card in meld.cards:
            assert f"<title>{card.name}</title>" in table
    assert widget.hand.cards == result.hands[0]
    assert all(button.disabled for button in widget.hand.buttons)
    assert [value for _, value in widget.meld_choice.options] == list(range(len(result.melds)))
    assert widget.next_round_button.layout.display == "none"  # one round: New game only
    # Nothing more can be played; a click says so.
    assert widget.draw_button.disabled and widget.discard_button.disabled
    assert "not now: the play is over: press New game" in widget.draw_button.tooltip
    history = list(state.history)
    widget.draw_button.click()
    assert "The play is over" in widget.message_html.value
    assert state.history == history


def test_play_shows_the_table_from_the_human_seat_only():
    widget = PlayWidget(bots=2, seed=5, hint=True)
    view = widget.view
    table = widget.table_html.value
    assert "<caption>Players</caption>" in table and "Ann (you) ◀" in table
    assert f"Stock: {view.stock_size} cards" in table
    assert f"top card: {view.discard_top.name}" in table
    assert [b.tooltip for b in widget.hand.buttons] == [card.name for card in view.hand]
    mine = {card.name for card in view.hand}
    for card in widget.state.hand(1):
        if card.name not in mine:
            assert card.name not in widget.hand_html.value  # a bot's cards stay hidden
            assert card.name not in widget.table_html.value
    distance = contract_distance(view.hand, view.contract, STANDARD)
    assert f"Hint: Your hand is {distance} cards away from 2 sets." in widget.hint_html.value
    assert widget.status_html.value.count("draw from the stock or take the discard") == 1
    assert not widget.draw_button.disabled and not widget.take_button.disabled
    assert widget.discard_button.disabled and widget.buy_button.disabled
    widget.four_colour.value = True
    clubs = [b for c, b in zip(view.hand, widget.hand.buttons, strict=True) if c.code[-1] == "C"]
    assert all(b.style.text_color == "#1b7837" for b in clubs)
    # After the draw, the hint weighs the card selected for discarding.
    widget.draw_button.click()
    card = widget.hand.cards[-1]
    widget.hand.select([card])
    rest = [c for c in widget.view.hand if c != card]
    after = contract_distance(rest, view.contract, STANDARD)
    assert f"If you discard the {card}, you will be {after} card" in widget.hint_html.value


def test_play_refuses_illegal_clicks_with_the_engines_reason():
    widget = PlayWidget(bots=2, seed=5)
    history = list(widget.state.history)
    widget.hand.buttons[0].value = True
    widget.discard_button.click()  # before drawing
    assert _refused(widget)
    # In the widget's words: the buttons, not the engine's phase and notation.
    assert "First draw a card: press Draw from stock or Take discard." in widget.message_html.value
    assert "phase" not in widget.message_html.value
    assert widget.state.history == history
    widget.take_button.click()
    taken = widget.state.history[-1]
    assert str(taken[1]) == "take discard" and widget.state.phase == "play"
    widget.hand.clear()
    widget.discard_button.click()
    assert "Select exactly one card to discard (0 selected)" in widget.message_html.value
    widget.hand.buttons[0].value = True
    widget.hand.buttons[1].value = True
    widget.add_meld_button.click()
    widget.lay_down_button.click()
    assert _refused(widget) and not widget.view.laid_down[0]
    widget.draw_button.click()
    assert "You have drawn this turn: lay down, lay off or swap a joker if you like, then " in (
        widget.message_html.value
    )


def test_play_buying_answered_by_the_human_and_seen_from_the_bots():
    widget = PlayWidget(bots=2, seed=1)
    # Seed 1: Bea passes on the up-card, Cal buys it, and Bea's discard is offered to Ann.
    assert "Cal buys the 3♣ and draws a penalty card." in widget.log_html.value
    assert widget.state.phase == "buy" and widget.state.to_act == widget.seat
    offer = widget.view.offer
    assert f"Bea&#x27;s {offer} is on offer: buy it" in widget.status_html.value
    size = len(widget.view.hand)
    assert not widget.buy_button.disabled
    widget.buy_button.click()
    assert len(widget.state.hand(0)) == size + 1 + STANDARD.buy_penalty_cards
    assert widget.view.buys[0] == 1
    assert f"Ann buys the {offer}" in widget.log_html.value


def _scripted_widget(round: int, hand: str, stock: str, upcard: str) -> PlayWidget:
    from rummykit.engine.game import Game

    game = Game("standard", players=2, seed=3)
    state = game.new_state(round=round, dealer=1, hands=[hand, None], stock=stock, upcard=upcard)
    widget = PlayWidget(bots=1, seed=3)
    assert widget.load(state.save())
    return widget


def test_play_lay_down_lay_off_and_swap_a_joker():
    widget = _scripted_widget(3, "3S 4S JK 6S 9H 10H JH QH 5S 2C", stock="KC", upcard="7D")
    assert widget.start_round == 3 and "your contract is 2 runs" in widget.status_html.value
    widget.draw_button.click()
    widget.hand.select("3S 4S JK 6S")
    widget.add_meld_button.click()
    assert "Meld 1: valid run, the joker is the 5♠" in widget.message_html.value
    widget.hand.select("9H 10H JH QH")
    widget.add_meld_button.click()
    assert "Melds put aside to lay down: 3♠ 4♠ 6♠ JK | 9♥ 10♥ J♥ Q♥" in widget.hand_html.value
    widget.lay_down_button.click()
    assert widget.view.laid_down[0] and len(widget.view.melds) == 2
    assert "Ann lays down" in widget.log_html.value
    # Melds are counted from 1 on screen (the dropdown's values are the engine's numbers).
    assert "1: Ann" in widget.table_html.value and 'class="meld"' in widget.table_html.value
    assert "0: Ann" not in widget.table_html.value
    assert [label for label, _ in widget.meld_choice.options][0].startswith("1: 3♠ 4♠ JK 6♠")
    assert [value for _, value in widget.meld_choice.options][0] == 0

    widget.hint.value = True
    widget.hand.select("5S")
    assert "Hint: You have laid down" in widget.hint_html.value
    assert "you will be" not in widget.hint_html.value
    # The Meld dropdown starts on the first meld of the table: no choosing needed.
    assert widget.meld_choice.value == 0 and widget.end_choice.value == "either"
    widget.swap_button.click()
    assert str(widget.view.melds[0]) == "3♠ 4♠ 5♠ 6♠"
    assert any(card.is_joker for card in widget.view.hand)
    widget.hand.select("JK")
    fits = "an opponent could lay it off on Ann&#x27;s meld 1 or Ann&#x27;s meld 2."
    assert f"If you discard the JK, {fits}" in widget.hint_html.value
    widget.discard_button.click()  # the swapped joker must be played first
    assert _refused(widget)
    widget.meld_choice.value = 1
    widget.end_choice.value = "high"
    widget.lay_off_button.click()
    assert str(widget.view.melds[1]) == "9♥ 10♥ J♥ Q♥ JK"
    widget.hand.select("KC")
    widget.lay_off_button.click()
    assert _refused(widget) and "K♣" in widget.message_html.value
    widget.hand.select("2C")
    widget.discard_button.click()
    assert "Ann discards the 2♣." in widget.log_html.value
    widget.state.check_invariants()


def test_play_save_and_load():
    widget = PlayWidget(bots=2, seed=5)
    widget.draw_button.click()
    text = widget.save_button.click() or widget.save_text.value
    assert '"format": "rummykit.game"' in text
    snapshot = widget.state.snapshot()
    widget.seed.value = 99
    widget.new_game_button.click()
    assert widget.state.snapshot() != snapshot
    widget.save_text.value = text
    widget.load_button.click()
    assert widget.state.snapshot() == snapshot
    assert "Game loaded." in widget.message_html.value
    widget.save_text.value = '{"format": "rummykit.game", "version": 99}'
    widget.load_button.click()
    assert "unknown save version 99" in widget.message_html.value
    assert widget.state.snapshot() == snapshot


@pytest.mark.slow
def test_play_whole_game_mode_and_presets():
    widget = PlayWidget(bots=1, bot="Greedy, never buys", seed=2, whole_game=True, round=6)
    assert widget.state.round == 6
    _play_human_turns(widget, next_round=False)
    assert widget.between_rounds and not widget.finished and widget.state.round == 7
    result = widget.result
    assert result is widget.state.results[0] and result.round == 6
    assert "Round 6 is over." in widget.status_html.value
    assert "Press Next round to deal round 7." in widget.status_html.value
    assert "Round 6: the hands as it ended" in widget.table_html.value
    assert widget.next_round_button.layout.display is None
    assert widget.legal_actions() == [] and widget.draw_button.disabled
    assert "Round 7" not in widget.log_html.value  # told once it is played
    # The bots wait: nothing is played in round 7 until Next round is pressed.
    history = list(widget.state.history)
    assert not widget.act("draw stock")
    assert "press Next round" in widget.message_html.value
    widget.refresh()
    assert widget.state.history == history
    widget.next_round_button.click()
    assert not widget.between_rounds and widget.result is None
    assert widget.next_round_button.layout.display == "none"
    assert "Round 7 of 7" in widget.status_html.value
    assert "Round 7, contract" in widget.log_html.value
    assert widget.state.to_act == widget.seat and widget.legal_actions() != []
    assert not widget.next_round()  # no round is waiting now
    _play_human_turns(widget)
    assert widget.state.is_over and "The game is over. Winner" in widget.status_html.value
    assert "The game is over. Totals" in widget.log_html.value
    assert any(line.startswith("Round 6 is over") for line in widget.lines)
    assert len(widget.state.round_scores) == 2
    widget.preset.value = "pagat"
    # pagat is for 3 to 8 players: one bot is too few, said when New game is pressed,
    # and the count is never changed behind the player's back.
    assert widget.bot_count.tooltip == "number of bot players: 2 to 7 under pagat"
    assert widget.bot_count.value == 1
    state = widget.state
    widget.new_game_button.click()
    assert widget.state is state and _refused(widget)
    assert "pagat is played by 3 to 8 players: choose 2 to 7 bots, not 1" in (
        widget.message_html.value
    )
    widget.bot_count.value = 2
    widget.whole_game.value = False
    widget.new_game_button.click()
    assert widget.state.rules.name == "pagat" and widget.state.players == 3


def test_play_refuses_a_bot_count_out_of_the_presets_range():
    from rummykit.errors import RuleSetError

    with pytest.raises(
        RuleSetError, match="family is played by 2 to 6 players: choose 1 to 5 bots, not 7"
    ):
        PlayWidget("family", bots=7)
    with pytest.raises(RuleSetError, match="choose 1 to 5 bots, not 0"):
        PlayWidget("family", bots=0)
    widget = PlayWidget("family", bots=5, seed=1)
    assert widget.state.players == 6
    widget.bot_count.value = 7  # typed in the box: refused at New game, not cut to 5
    widget.new_game_button.click()
    assert "choose 1 to 5 bots, not 7" in widget.message_html.value
    assert widget.state.players == 6 and widget.bot_count.value == 7


def _every_choice(widget) -> list:
    import ipywidgets

    return [
        value
        for value in vars(widget).values()
        if isinstance(value, ipywidgets.Dropdown | ipywidgets.ToggleButtons)
    ]


def test_every_dropdown_starts_on_a_real_choice():
    # ipywidgets shows a None value as no selection at all: every control names its choice.
    widgets = [
        PlayWidget(bots=2, seed=5),
        MeldBuilder(),
        DealWidget(background=False, odds=False),
    ]
    for widget in widgets:
        choices = _every_choice(widget)
        assert choices
        for choice in choices:
            assert choice.value is not None and choice.index is not None, choice.description
            assert choice.label, choice.description
    play = widgets[0]
    assert play.meld_choice.label == "no meld on the table yet"
    assert play.end_choice.label == "either end"
    assert widgets[1].kind.label == "Set or run" and widgets[1].kind.value == "either"


def test_play_meld_dropdown_starts_on_the_first_meld_of_the_table():
    # Seed 0: Cal lays down before Ann's first turn.
    widget = PlayWidget(bots=2, seed=0)
    view = widget.view
    assert view.melds and widget.meld_choice.value == 0
    assert widget.meld_choice.label == f"1: {view.melds[0]} (Cal)"
    # Lay off, before laying down: the engine's reason, not "no meld on the table".
    widget.draw_button.click()
    # The same reason for every card: said once, for a card.
    why = html.unescape(widget.why_html.value)
    assert "Swap joker: Cannot swap a card into meld 1: only a player who has laid down" in why
    widget.hand.select([widget.hand.cards[0]])
    card = widget.hand.cards[0]
    assert f"Cannot swap the {card} into meld 1" in html.unescape(widget.why_html.value)
    widget.lay_off_button.click()  # (a script can click a disabled button: still refused)
    assert "There is no meld" not in widget.message_html.value
    assert "You must lay down your contract before laying off" in widget.message_html.value


def test_play_disabled_buttons_look_disabled_and_say_why():
    from rummykit.engine.game import Game
    from rummykit.widgets.play.buttons import DISABLED_TEXT as _DISABLED_TEXT

    game = Game("standard", players=2, seed=3)
    hands = ["5C 5D JK KH KS KD 5H 2C 3D 7S", None]
    state = game.new_state(round=1, dealer=1, hands=hands, stock="QC", upcard="8D")
    widget = PlayWidget(bots=1, seed=3)
    assert widget.load(state.save())
    # Draw phase: the draw buttons in their colours, the rest grey, each with the reason.
    assert not widget.draw_button.disabled and widget.draw_button.button_style == "info"
    for button in (widget.discard_button, widget.lay_off_button, widget.buy_button):
        assert button.disabled and button.button_style == ""
        assert button.style.text_color == _DISABLED_TEXT
        assert "(not now: First draw a card: press Draw from stock or Take discard)" in (
            button.tooltip
        )
        assert "phase" not in button.tooltip and "'draw stock'" not in button.tooltip
        assert widget.reasons[button] in button.tooltip
    assert not widget.draw_button.style.text_color
    assert widget.why_html.value == ""  # the play-phase reasons show in the play phase
    widget.draw_button.click()
    assert widget.discard_button.button_style == "warning" and not widget.discard_button.disabled
    assert widget.draw_button.button_style == "" and widget.draw_button.disabled
    why = html.unescape(widget.why_html.value)
    assert "Lay off: You must lay down your contract before laying off cards onto melds" in why
    assert "Swap joker: There is no meld on the table yet" in why
    assert widget.reasons[widget.lay_off_button] in widget.lay_off_button.tooltip
    widget.hand.select("5C 5D JK")
    widget.add_meld_button.click()
    widget.hand.select("KH KS KD")
    widget.add_meld_button.click()
    widget.lay_down_button.click()
    assert widget.view.laid_down[0] and widget.meld_choice.value == 0
    assert not widget.lay_off_button.disabled  # the 5♥ fits the fives
    assert widget.lay_off_button.tooltip == "lay the selected card off onto the meld"
    # Swap: under the standard rules jokers are taken from runs only; the engine says so
    # for the card selected, and without a selection that no card can.
    why = html.unescape(widget.why_html.value)
    assert "Swap joker: Cannot swap a card into meld 1: under standard, jokers can be " in why
    widget.hand.select("5H")
    why = html.unescape(widget.why_html.value)
    # The rule itself (issue 26), not "no joker in meld 0 stands for the 5♥".
    assert "Cannot swap the 5♥ into meld 1: under standard, jokers can be taken only from " in why
    assert "jokers can be taken only from runs, not from sets" in widget.swap_button.tooltip
    assert "stands for" not in why
    history = list(widget.state.history)
    assert widget.state.history == history  # trying on a copy changed nothing


def test_play_never_offers_you_your_own_discard():
    # Seed 0: Ann discards, Bea draws from the stock, Cal passes: the engine offers Ann's
    # discard to Ann again (docs/choices.md); the widget passes for her and says why.
    from rummykit.widgets.play import OWN_DISCARD_NOTE

    widget = PlayWidget(bots=2, seed=0)
    noted = False
    for _ in range(5):
        view = widget.view
        assert not (view.phase == "buy" and view.offered_by == widget.seat)
        if view.phase == "draw":
            widget.draw_button.click()
        elif view.phase in ("buy", "call"):
            widget.pass_button.click()
        else:
            widget.hand.select([widget.hand.cards[-1]])
            widget.discard_button.click()
            noted = noted or OWN_DISCARD_NOTE in html.unescape(widget.message_html.value)
    assert noted
    # The engine asked, and the widget answered "pass" for Ann on her own discard.
    asked = [
        (seat, action)
        for seat, action in widget.state.history
        if seat == widget.seat and str(action) == "pass"
    ]
    assert asked
    events = [e for e in widget.state.log if e.kind == "pass buy" and e.seat == widget.seat]
    assert events


def test_captions_head_their_own_image_and_the_hand_is_shown_once():
    widget = _scripted_widget(3, "3S 4S JK 6S 9H 10H JH QH 5S 2C", stock="KC", upcard="7D")
    widget.draw_button.click()
    widget.auto_lay_down_button.click()
    table = widget.table_html.value
    # The caption opens the figure that holds the melds' image, so it reads as its heading.
    figure = table[table.index("<figure") : table.index("</figure>")]
    assert figure.index("<figcaption") < figure.index("Melds on the table") < figure.index("<svg")
    # The hand: the card buttons only, under their caption; no second picture of it.
    assert "<svg" not in widget.hand_html.value
    assert "Your hand: click the cards to select them" in widget.hand_html.value
    box = widget.box.children
    assert box.index(widget.hand_html) + 1 == box.index(widget.hand.box)
    builder = MeldBuilder()
    builder.select("7H 8H JK 10H")
    builder.check_button.click()
    shown = builder.verdict_html.value
    assert shown.index("<figcaption") < shown.index("<svg")


def test_play_reasons_use_the_buttons_words_not_the_engines():
    # Issue 26, item 7: random clicks in two presets; every reason, tooltip, refusal and
    # log line the widget shows names buttons, not phases or the action notation, and
    # counts melds from 1 as the widget's labels do.
    engine_words = re.compile(r"'(draw|buy|play|call)' phase|'draw stock'|'take discard'|meld 0\b")
    for preset, seed in (("standard", 1), ("family", 2)):
        widget = PlayWidget(preset, bots=2, seed=seed)
        rng = random.Random(seed)
        shown = []
        for _ in range(12):
            if widget.finished or widget.between_rounds or not widget.legal_actions():
                break
            if widget.hand.cards:
                widget.hand.select([rng.choice(widget.hand.cards)])
            shown += list(widget.reasons.values()) + [b.tooltip for b in widget._actions]
            rng.choice([widget.discard_button, widget.lay_off_button, widget.swap_button]).click()
            shown.append(widget.message_html.value)
            widget.act(rng.choice(widget.legal_actions()))
        shown.append(widget.log_html.value)
        assert shown and not [text for text in shown if engine_words.search(html.unescape(text))]
    assert any("Draw from stock" in text for text in shown)
