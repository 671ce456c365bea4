"""Issue 50 (items 3, 4, 6, 7, 9, 10): the MeldBuilder's Cards box and shoe, the
PlayWidget's set-up line, one level dropdown, melds checked as they are put aside, buttons
before outs, layout at a narrow width, and seed boxes that never change a seed."""

from __future__ import annotations

import re

import pytest

from rummykit import RuleSet, check_meld, parse_cards
from rummykit.engine.cards import Shoe

pytest.importorskip("ipywidgets")

import ipywidgets  # noqa: E402

from rummykit.widgets import DealWidget, MeldBuilder, PlayWidget  # noqa: E402
from rummykit.widgets._common import SEED_RANGE  # noqa: E402
from rummykit.widgets.play import LEVELS  # noqa: E402

STANDARD = RuleSet.preset("standard")
TOO_BIG = 12345678901234567890  # 20 digits, as typed in the issue


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)


def _scripted(round: int, hand: str, stock: str, upcard: str, **kwargs) -> PlayWidget:
    from rummykit.engine.game import Game

    state = Game("standard", players=2, seed=3).new_state(
        round=round, dealer=1, hands=[hand, None], stock=stock, upcard=upcard
    )
    widget = PlayWidget(bots=1, seed=3, **kwargs)
    assert widget.load(state.save())
    return widget


# --- MeldBuilder: the Cards box --------------------------------------------------------


def test_a_click_that_arrives_before_the_boxs_edit_ends_with_the_box_shown():
    builder = MeldBuilder(hand="5C 5D 5S")
    written = []
    builder.codes.observe(lambda change: written.append(change["new"]), "value")
    # The browser sends the click first and the box's edit after it (its sync was held).
    builder.use_button.click()
    builder.codes.set_state({"value": "3S 4S JK 6S"})
    assert str(builder.hand) == "3♠ 4♠ JK 6♠"
    builder.use_button.click()  # pressed again: the same cards
    assert str(builder.hand) == "3♠ 4♠ JK 6♠"
    # The widget never wrote the box: only the reader's edit reached it.
    assert written == ["3S 4S JK 6S"] and builder.codes.value == "3S 4S JK 6S"


def test_an_empty_or_mistyped_box_keeps_the_hand_and_says_so():
    builder = MeldBuilder(hand="5C 5D 5S")
    for text, words in (("", "The Cards box is empty"), ("   ", "empty"), ("5C 1H", "1H")):
        builder.codes.value = text
        builder.use_button.click()
        assert str(builder.hand) == "5♣ 5♦ 5♠"
        assert words in builder.verdict_html.value and 'role="alert"' in builder.verdict_html.value
        assert "hand stays" in builder.verdict_html.value
        assert builder.codes.value == text  # the box is left as typed


def test_cards_no_shoe_of_the_rules_holds_are_refused_naming_the_shoe():
    for preset in ("standard", "family"):
        rules = RuleSet.preset(preset)
        decks = max(count for _, count in rules.decks_by_players)
        shoe = Shoe(decks=decks, jokers=rules.jokers_for(decks))
        builder = MeldBuilder(hand=" ".join(["8S"] * (decks + 1)) + " 8H 8D", rules=preset)
        builder.select(" ".join(["8S"] * decks) + " 8H 8D")
        builder.check_button.click()
        assert builder.result.ok  # as many copies as the shoe has: a set
        builder.select(" ".join(["8S"] * (decks + 1)) + " 8H")
        builder.check_button.click()
        assert not builder.result.ok
        assert f"{decks + 1} 8♠" in builder.verdict and shoe.words in builder.verdict
        assert f"has {decks}" in builder.verdict and preset in builder.verdict
        assert "valid" not in builder.verdict_html.value
    jokers = MeldBuilder(hand="8S 8H " + " ".join(["JK"] * 7))
    jokers.select("8S 8H " + " ".join(["JK"] * 7))
    assert "7 jokers" in jokers.check().reason


def test_meld_builder_refuses_a_seed_out_of_range_and_keeps_it():
    builder = MeldBuilder(seed=4)
    hand = builder.hand
    builder.seed.value = TOO_BIG
    assert f"{SEED_RANGE[1]:,}" in builder.verdict_html.value
    builder.deal_button.click()  # refused, not raised in the handler
    assert builder.hand == hand and builder.seed.value == TOO_BIG
    builder.seed.value = SEED_RANGE[1]
    builder.deal_button.click()
    assert builder.dealt_seed == SEED_RANGE[1] and len(builder.hand) == 10
    builder.deal_button.click()  # the next seed would be out of range: refused
    assert builder.seed.value == SEED_RANGE[1] and "from 0 to" in builder.verdict_html.value


# --- PlayWidget: set-up controls -------------------------------------------------------


def test_one_level_dropdown_and_the_attributes_scripts_use():
    widget = PlayWidget(bots=2, seed=1, background=False)
    dropdowns = [w for w in _descendants(widget.box) if isinstance(w, ipywidgets.Dropdown)]
    assert [d.description for d in dropdowns].count("Level") == 1
    assert "Bot" not in [d.description for d in dropdowns]
    assert widget.bot_kind in dropdowns
    labels = dict((value, label) for label, value in widget.bot_kind.options)
    for level, (words, bot) in LEVELS.items():
        assert labels[bot] == words
        widget.level.value = level
        assert widget.bot_kind.value == bot and widget.level.value == level
    widget.bot_kind.value = "Greedy, always buys"
    widget.level.value = "greedy"  # a variant of that level stays
    assert widget.bot_kind.value == "Greedy, always buys" and widget.level.value == "greedy"


def test_set_up_changes_say_they_wait_for_new_game():
    widget = PlayWidget(bots=2, seed=1, background=False)
    assert widget.settings_html.value == ""  # the controls show the game in play
    bots = list(widget.bots)
    widget.bot_count.value = 3
    widget.level.value = "random"
    widget.preset.value = "pagat"
    line = widget.settings_html.value
    assert "Takes effect at New game: pagat rules, 3 bots, Random (beginner)." in line
    assert "The game in play: standard rules, 2 bots, Greedy (goes for its contract)." in line
    assert widget.bots == bots and widget.state.players == 3
    widget.bot_count.value = 2  # back to the game's: no longer named
    assert "bots" not in widget.settings_html.value
    widget.new_game_button.click()
    assert widget.settings_html.value == ""
    assert widget.state.rules.name == "pagat" and type(widget.bots[1]).__name__ == "RandomBot"


def test_the_play_mode_applies_at_new_game_only():
    widget = PlayWidget(bots=1, seed=2, background=False)
    rounds = len(widget.state.round_scores)
    widget.whole_game.value = True
    assert "the whole game" in widget.settings_html.value
    assert "one round" in widget.settings_html.value  # the game in play
    # The round on the table is still played as one round: it ends the play.
    while not widget.finished:
        actions = widget.legal_actions()
        assert actions
        widget.act(actions[-1])
    assert len(widget.state.round_scores) == rounds + 1 and not widget.between_rounds
    assert "Press New game to play again." in widget.status_html.value


def test_play_widget_refuses_a_seed_out_of_range_and_keeps_the_game():
    widget = PlayWidget(bots=1, seed=2, background=False)
    state = widget.state
    widget.seed.value = TOO_BIG
    assert "from 0 to 9,007,199,254,740,991" in widget.settings_html.value
    widget.new_game_button.click()
    assert widget.state is state and widget.seed.value == TOO_BIG
    assert "from 0 to 9,007,199,254,740,991" in widget.message_html.value
    widget.seed.value = 7
    widget.new_game_button.click()
    assert widget.state is not state and widget.settings_html.value == ""


# --- PlayWidget: putting melds aside ---------------------------------------------------


def test_add_meld_refuses_no_meld_with_the_contracts_reason():
    # Round 1: 2 sets. Three unrelated ranks are not a set, and a set is what is needed.
    widget = _scripted(1, "3S 7H KD 8S 8H 8D JS JH JC 2C", stock="QC", upcard="4D")
    widget.draw_button.click()
    assert widget.lay_down_button.disabled and "Add meld" in widget.reasons[widget.lay_down_button]
    widget.hand.select("3S 7H KD")
    widget.add_meld_button.click()
    expected = check_meld(parse_cards("3S 7H KD"), STANDARD, kind="set").reason
    assert expected in widget.message_html.value and "not a set" in widget.message_html.value
    assert "run" not in widget.message_html.value
    assert widget.melds_to_lay == [] and widget.lay_down_button.disabled
    widget.hand.select("8S 8H 8D")
    widget.add_meld_button.click()
    assert len(widget.melds_to_lay) == 1
    # One set of two: the engine's refusal, written under the buttons; Lay down stays off.
    assert widget.lay_down_button.disabled
    assert "these melds make 1 set" in widget.reasons[widget.lay_down_button]
    assert "these melds make 1 set" in widget.why_html.value
    widget.hand.select("8S")
    widget.add_meld_button.click()  # a card put aside already
    assert "put aside already" in widget.message_html.value and len(widget.melds_to_lay) == 1
    widget.hand.select("JS JH JC")
    widget.add_meld_button.click()
    assert not widget.lay_down_button.disabled and widget.lay_down_button not in widget.reasons
    widget.clear_melds_button.click()
    assert widget.lay_down_button.disabled
    widget.hand.select("8S 8H 8D")
    widget.add_meld_button.click()
    widget.hand.select("JS JH JC")
    widget.add_meld_button.click()
    assert widget.lay_down() and widget.view.laid_down[widget.seat]


def test_a_set_and_run_contract_names_both_reasons():
    widget = _scripted(2, "3S 7H KD 4H 5H 6H 9C 9D 9S 2C", stock="QC", upcard="4D")
    widget.draw_button.click()
    widget.hand.select("3S 7H KD")
    widget.add_meld_button.click()
    text = widget.message_html.value
    for kind in ("set", "run"):
        reason = check_meld(parse_cards("3S 7H KD"), STANDARD, kind=kind).reason
        assert f"{kind} ({reason})" in text
    assert widget.melds_to_lay == []


# --- PlayWidget: the buttons before the outs; a narrow page ----------------------------


def test_the_buttons_change_before_the_outs_are_counted_in_the_handler():
    widget = PlayWidget(bots=1, seed=4, hint=True, background=False)
    assert not widget.draw_button.disabled
    events = []
    widget.draw_button.observe(lambda c: events.append(("draw off", c["new"])), "disabled")
    widget.outs_pane.html.observe(lambda c: events.append(("outs", c["new"])), "value")
    widget.draw_button.click()
    assert events[0] == ("draw off", True)
    outs = [text for kind, text in events if kind == "outs"]
    assert "Counting the outs" in outs[0] and len(outs) >= 2  # marked, then the advice


def test_buttons_fit_their_labels_and_rows_wrap():
    widget = PlayWidget(bots=3, seed=1, background=False)
    for button in widget._actions:  # the play's own (the review panel's are its own)
        assert button.layout.width == "auto", button.description
    rows = [w for w in widget.box.children if isinstance(w, ipywidgets.HBox)]
    assert rows and all(row.layout.flex_flow == "row wrap" for row in rows)


def test_the_melds_wrap_one_picture_a_meld():
    widget = _scripted(1, "8S 8H 8D JS JH JC 2C 4S 5S 6S", stock="QC", upcard="4D")
    widget.draw_button.click()
    widget.auto_lay_down_button.click()
    table = widget.table_html.value
    row = table[table.index('class="rk-melds"') :]
    assert "flex-wrap:wrap" in row[:120]
    assert row.count("<svg") == len(widget.view.melds) == 2


# --- DealWidget ------------------------------------------------------------------------


def test_a_new_hand_replaces_the_old_outs_and_odds_at_once():
    widget = DealWidget(seed=2, background=False)
    widget.deal_button.click()
    assert widget.outs is not None and widget.probability is not None
    seen = []
    widget.outs_pane.html.observe(lambda c: seen.append(("outs", c["new"])), "value")
    widget.odds_html.observe(lambda c: seen.append(("odds", c["new"])), "value")
    widget.hand_html.observe(lambda c: seen.append(("hand", c["new"])), "value")
    widget.round.value = 5  # a new round's hand
    kinds = [kind for kind, _ in seen]
    before = seen[: kinds.index("hand")]  # what changed before the new hand was drawn
    assert any(kind == "outs" and "Counting the outs" in text for kind, text in before)
    assert any(kind == "odds" and "Counting the odds" in text for kind, text in before)
    assert "Counting" not in widget.odds_html.value and widget.probability is not None


def test_deal_widget_refuses_a_seed_out_of_range_and_never_changes_it():
    widget = DealWidget(seed=2, background=False)
    widget.deal_button.click()
    hand = widget.hand
    widget.seed.value = TOO_BIG
    assert widget.seed.value == TOO_BIG and widget.hand == hand
    assert re.search(r"from 0 to 9,007,199,254,740,991", widget.status_html.value)
    widget.deal_button.click()
    assert widget.seed.value == TOO_BIG and widget.hand == hand
    widget.seed.value = SEED_RANGE[1]
    assert widget.dealt_seed == SEED_RANGE[1]
