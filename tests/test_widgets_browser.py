"""The widgets in a real JupyterLab, driven by a real browser.

Starts JupyterLab on 127.0.0.1 (no token, a free port, its own temporary config, data,
runtime and settings folders) on a folder holding a test notebook, opens the notebook in
headless Chromium, runs every cell from the Run menu and then clicks: deal a hand, select
three cards and check them, draw and discard in a game and see a bot's turn told in the
log. Requests to any other host are blocked. Screenshots of each widget are saved in the
test's temporary folder. Every process the test starts is stopped, even on failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.lab import _button, _dropdown, _run_all_cells

pytestmark = pytest.mark.browser


# The notebook of the PlayWidget tests: MeldBuilder's choice, a table with a meld laid
# before Ann's first turn (seed 0: Cal lays down), and a one-round game scripted so Ann
# goes out on her first turn (two sets of five she lays down, then one card to discard).
PLAY_CELLS = [
    "from rummykit.engine.game import Game\nfrom rummykit.widgets import MeldBuilder, PlayWidget",
    "builder = MeldBuilder()\nbuilder",
    "table = PlayWidget(bots=2, seed=0)\ntable",
    "hands = ['8S 8H 8D 8C 8S JH JS JD JC JH', None, None]\n"
    "state = Game('standard', players=3, seed=5).new_state(\n"
    "    round=1, dealer=2, hands=hands, stock='KC', upcard='3D'\n"
    ")\n"
    "play = PlayWidget(bots=2, seed=5)\n"
    "assert play.load(state.save())\n"
    "play",
    "whole = PlayWidget(bots=2, seed=5, whole_game=True)\nassert whole.load(state.save())\nwhole",
]


try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the page fixture skips the test
    PlaywrightTimeout = TimeoutError


def test_widgets_in_jupyterlab(page, tmp_path: Path):
    _run_all_cells(page)

    # DealWidget: deal a hand, see its ten card faces and the verdict on the contract.
    deal = page.locator(".rk-deal")
    deal.wait_for()
    _button(deal, "Deal").click()
    hand = deal.locator("svg[aria-label='hand of 10 cards'] g.card")
    hand.first.wait_for()
    assert hand.count() == 10
    assert deal.locator("svg title").first.text_content().strip()  # "8 of hearts" ...
    status = deal.locator(".rk-message").first
    assert "from the contract" in status.text_content() or "holds" in status.text_content()
    deal.get_by_text("The chance of being dealt 2 sets").wait_for()
    deal.screenshot(path=str(tmp_path / "deal.png"))

    # MeldBuilder: select three fives by their names, check them, read the verdict.
    builder = page.locator(".rk-meld-builder")
    # Two by mouse, the third from the keyboard: each card is a focusable toggle button.
    for name in ("5 of clubs", "5 of diamonds"):
        builder.locator(f"button.rk-card[title='{name}']").click()
    builder.locator("button.rk-card[title='5 of spades']").focus()
    page.keyboard.press("Space")
    builder.get_by_text("Selected: 5 of clubs, 5 of diamonds, 5 of spades").wait_for()
    _button(builder, "Check").click()
    builder.locator(".rk-ok", has_text="valid set").wait_for()
    builder.screenshot(path=str(tmp_path / "meld_builder.png"))

    # PlayWidget: draw, discard the first card, and see the bots' turns in the log.
    play = page.locator(".rk-play")
    play.get_by_text("Your turn: draw from the stock").wait_for()
    _button(play, "Draw from stock").click()
    play.get_by_text("Lay down, lay off or swap a joker").wait_for()
    # The hand is drawn anew after the draw: click only once its 11 buttons stand, and
    # discard only once the selection shows (a click on the old buttons is lost).
    cards = play.locator("button.rk-card")
    cards.nth(10).wait_for()
    first = cards.first
    discarded = first.get_attribute("title")
    first.click()
    play.locator("button.rk-card.mod-active").wait_for()
    _button(play, "Discard").click()
    # The bots play until Ann must decide again: draw (her next turn) or answer an offer
    # to buy a discard, which she passes.
    status = play.locator(".rk-message", has_text=re.compile("Your turn: draw|is on offer"))
    for _ in range(5):
        status.first.wait_for()
        text = status.first.text_content()
        if "is on offer" not in text:
            break
        _button(play, "Pass").click()
        # Read the status again only once this offer is gone: on a slow machine a stale
        # offer would be passed twice, and the second pass refused (its reason would
        # then stand where the status was).
        play.locator(".rk-message", has_text=text).first.wait_for(state="hidden")
    log = play.locator(".rk-log")
    log.get_by_text(re.compile(r"^(Bea|Cal) discards the")).first.wait_for()
    lines = [item.strip() for item in log.locator("li").all_text_contents()]
    mine = next(i for i, line in enumerate(lines) if line.startswith("Ann discards the"))
    assert discarded.split(" of ")[0] in lines[mine].lower() or "joker" in lines[mine]
    bots_after = [line for line in lines[mine + 1 :] if line.startswith(("Bea ", "Cal "))]
    assert any(" discards the " in line for line in bots_after), lines
    play.screenshot(path=str(tmp_path / "play.png"))

    # Its review panel: Ann's decisions so far (the draw, the discard, any pass), weighed
    # in the kernel's thread, listed, and the first one shown with its alternatives.
    panel = play.locator(".rk-review")
    _button(panel, "Review my play").click()
    panel.get_by_text(re.compile(r"\d+ decisions reviewed")).wait_for(timeout=60_000)
    assert panel.locator("select option").count() >= 2
    panel.get_by_text("what you saw").wait_for()
    assert panel.locator("svg g.card").count() >= 10  # the hand as Ann saw it
    assert panel.locator("table tr").count() >= 3  # a heading and two choices at least
    panel.screenshot(path=str(tmp_path / "review.png"))

    # The explorers' charts are SVG drawn in the kernel: present, with marks.
    odds = page.locator(".rk-odds-explorer")
    odds.locator("svg.marks").wait_for()
    odds.screenshot(path=str(tmp_path / "odds.png"))
    simulation = page.locator(".rk-simulation-explorer")
    simulation.locator("svg.marks").wait_for()
    simulation.locator(".rk-message", has_text="After 3,000 hands").wait_for()
    simulation.screenshot(path=str(tmp_path / "simulation.png"))

    assert not page.blocked, f"requests to other hosts: {page.blocked}"


def _selected_text(control) -> str:
    """The text a dropdown shows: its selected option's ("" when nothing is selected).

    ipywidgets writes the options' spaces as no-break spaces: read them as spaces."""
    text = control.locator("select").evaluate(
        "select => select.selectedIndex < 0 ? '' : select.options[select.selectedIndex].text"
    )
    return text.replace("\xa0", " ")


def _go_out(play) -> None:
    """Ann's first turn in the scripted game of :data:`PLAY_CELLS`, by clicks: draw, lay
    down the 8s and the jacks, discard the one card left."""
    play.get_by_text("Your turn: draw from the stock").wait_for()
    _button(play, "Draw from stock").click()
    cards = play.locator("button.rk-card")
    cards.nth(10).wait_for()
    for rank, meld_number in (("8", 1), ("jack", 2)):
        for suit in ("clubs", "diamonds", "hearts", "spades"):
            copies = play.locator(f"button.rk-card[title='{rank} of {suit}']")
            for copy in range(copies.count()):
                copies.nth(copy).click()
        play.locator("button.rk-card.mod-active").nth(4).wait_for()
        _button(play, "Add meld").click()
        play.get_by_text(f"Meld {meld_number}: valid set").wait_for()
    _button(play, "Lay down").click()
    play.get_by_text("Ann lays down").first.wait_for()
    cards.nth(1).wait_for(state="detached")  # one card left
    cards.first.click()
    play.locator("button.rk-card.mod-active").wait_for()
    _button(play, "Discard").click()


@pytest.mark.parametrize("jupyterlab", [PLAY_CELLS], indirect=True)
def test_play_choices_start_selected_and_a_finished_round_stays_up(page, tmp_path: Path):
    _run_all_cells(page, ".rk-meld-builder")
    page.locator(".rk-play").nth(1).wait_for()

    # Item 1: every choice shows a selection. MeldBuilder's "Check as" ...
    builder = page.locator(".rk-meld-builder")
    chosen = builder.locator(".widget-toggle-buttons button.mod-active")
    assert chosen.count() == 1 and chosen.text_content().strip() == "Set or run"
    # ... and PlayWidget's Meld dropdown starts on the meld Cal laid, End on "either end".
    table = page.locator(".rk-play").nth(0)
    table.get_by_text("Your turn: draw from the stock").wait_for()
    meld = _selected_text(_dropdown(table, "Meld"))
    assert meld.startswith("1: ") and meld.endswith("(Cal)"), meld
    assert _selected_text(_dropdown(table, "End")) == "either end"
    # Laying off before laying down: the button is greyed out and says why (the engine's
    # words), not "there is no meld on the table".
    _button(table, "Draw from stock").click()
    table.get_by_text("Lay off: You must lay down your contract before laying off").wait_for()
    lay_off = _button(table, "Lay off")
    assert lay_off.is_disabled()
    assert "lay down your contract before laying off" in lay_off.get_attribute("title")
    table.screenshot(path=str(tmp_path / "play_choices.png"))

    # Item 2: Ann goes out in one round; the finished round stays up, not the next deal.
    play = page.locator(".rk-play").nth(1)
    _go_out(play)
    status = play.locator(".rk-message", has_text="Round 1 is over.")
    status.wait_for()
    assert "You went out. You scored 0 points." in status.text_content()
    result = play.locator("table.rk-result")
    assert "Round 1: the hands as it ended" in result.text_content()
    rows = [row.strip() for row in result.locator("tbody tr").all_text_contents()]
    assert rows[0].startswith("Ann (you)") and "none (went out)" in rows[0]
    assert all(rows[seat].startswith(name) for seat, name in ((1, "Bea"), (2, "Cal")))
    play.get_by_text("Melds on the table as round 1 ended").wait_for()
    assert play.locator("svg [aria-label='set of 8s']").count() == 1
    assert "Round 2" not in play.text_content()  # the next deal is not shown
    assert _selected_text(_dropdown(play, "Meld")).startswith("1: 8♣")
    assert _button(play, "Draw from stock").is_disabled()
    play.screenshot(path=str(tmp_path / "play_finished.png"))

    # In a whole game the finished round stays up until Next round is pressed.
    whole = page.locator(".rk-play").nth(2)
    _go_out(whole)
    whole.get_by_text("Press Next round to deal round 2.").wait_for()
    whole.get_by_text("Round 1: the hands as it ended").wait_for()
    assert "Round 2 of 7" not in whole.text_content()
    _button(whole, "Next round").click()
    whole.get_by_text("Round 2 of 7: your contract is 1 set + 1 run").wait_for()
    assert whole.locator("table.rk-result").count() == 0
    _button(whole, "Next round").wait_for(state="hidden")
    assert not page.blocked, f"requests to other hosts: {page.blocked}"


# The notebook of the slow-count test (item 4): the cells planned slow are standard
# round 6 (1 set + 2 runs) with 3 decks, 8 jokers and 15 cards (76 s planned); the last
# cell says whether the simulation is still dealing when it runs.
SLOW_CELLS = [
    "from rummykit.widgets import DealWidget, OddsExplorer, SimulationExplorer",
    "odds = OddsExplorer(round=6, decks=3, jokers=8, neighbour_decks=(3,))\nodds",
    "simulation = SimulationExplorer(round=6, decks=3, jokers=8, n=5_000_000, steps=8, seed=1)\n"
    "simulation.controls.cards.value = 15\n"
    "simulation",
    "deal = DealWidget(seed=3)\ndeal",
    "dealing = simulation._run_thread is not None and simulation._run_thread.is_alive()\n"
    "print(f'simulation still dealing: {dealing}')",
]


def _type_into_readout(page, slider, value: int) -> None:
    """Type ``value`` into an IntSlider's editable readout, as a user may."""
    readout = slider.locator(".widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(value))
    page.keyboard.press("Enter")


@pytest.mark.parametrize("jupyterlab", [SLOW_CELLS], indirect=True)
def test_slow_counts_wait_to_be_asked_and_a_run_leaves_the_kernel_free(page, tmp_path: Path):
    _run_all_cells(page, ".rk-odds-explorer")
    page.locator(".rk-deal").wait_for()

    # OddsExplorer: 15 cards typed in. The count is planned slow (76 s), so an estimate
    # is shown with the planned time and a "Count exactly" button; nothing is counted.
    odds = page.locator(".rk-odds-explorer")
    odds.locator("svg.marks").wait_for()
    _type_into_readout(page, odds.locator(".widget-slider", has_text="Hand size"), 15)
    result = odds.locator(".rk-message", has_text="At a first look, simulated from 20,000 hands")
    result.wait_for()
    assert "about 1 min 16 s on one core (planned)" in result.text_content()
    # In rummykit.chance's words: "about 4.1% (95%: 3.8% to 4.4%)" or "about 1 in N (...)".
    assert re.search(r"hands: about [^()]+ \(95%: [^()]+ to [^()]+\)", result.text_content())
    count = _button(odds, "Count exactly")
    count.wait_for()
    assert count.is_visible()
    odds.screenshot(path=str(tmp_path / "odds_slow.png"))

    # SimulationExplorer: Run on the slow cell (5,000,000 hands) returns control at once:
    # while it deals, another widget answers a click and another cell runs.
    simulation = page.locator(".rk-simulation-explorer")
    _button(simulation, "Run").click()
    simulation.locator(".rk-message", has_text="After ").wait_for()  # a first estimate
    deal = page.locator(".rk-deal")
    # By the keyboard: the explorer above redraws as it deals, moving the Deal button, and
    # a mouse click aimed while the page moves can land beside it (a lost click, once in
    # CI). Focus does not depend on where the button is drawn.
    _button(deal, "Deal").press("Enter")
    deal.locator("svg[aria-label='hand of 10 cards']").wait_for()
    deal.get_by_text("The chance of being dealt 2 sets").wait_for()
    # (Shift+Enter adds a cell below the last: name this one by its place.)
    last = page.locator(".jp-Notebook .jp-Cell").nth(len(SLOW_CELLS) - 1)
    last.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    # The cell ran while the hands were being dealt (it says so): the kernel was free.
    last.get_by_text("simulation still dealing: True").wait_for()
    # The result comes later, with no exact count run unasked: its planned time instead.
    # (The last estimate is shown first and the planned time added just after: wait for
    # the message that has both, not for the first to say "After 5,000,000 hands".)
    done = simulation.locator(".rk-message", has_text="After 5,000,000 hands")
    done.wait_for(timeout=300_000)
    done.filter(has_text="about 1 min 16 s on one core (planned)").wait_for()
    _button(simulation, "Count exactly").wait_for()
    simulation.locator("svg.marks").wait_for()
    simulation.screenshot(path=str(tmp_path / "simulation_slow.png"))
    assert not page.blocked, f"requests to other hosts: {page.blocked}"


# The notebook of the buried-discard test (issue 26, item 1): Ann, Bea and Cal each draw
# from the stock and discard, so the up-card J♣, an out of Ann's two sets, lies buried
# under three discards when Ann is to draw again.
BURIED_CELLS = [
    "from rummykit.engine.game import Game\nfrom rummykit.widgets import PlayWidget",
    "hands = ['8S 8H 8D JH JS 2C 5D 6C 9D KH', '2D 3D 4D 7C 7H 10S QD AS AH 5S',\n"
    "         '4S 6D 7S 9C 10C KC KD QS AC 6H']\n"
    "state = Game('standard', players=3, seed=5).new_state(\n"
    "    round=1, dealer=2, hands=hands, upcard='JC', stock='4C 3H 3S'\n"
    ")\n"
    "for action in ['draw stock', 'pass', 'pass', 'discard 2C', 'draw stock', 'pass', 'pass',\n"
    "               'discard QD', 'draw stock', 'pass', 'pass', 'discard QS']:\n"
    "    state.apply(action)\n"
    "play = PlayWidget(bots=2, seed=5, hint=True)\n"
    "assert play.load(state.save())\n"
    "play",
]


@pytest.mark.parametrize("jupyterlab", [BURIED_CELLS], indirect=True)
def test_play_hints_count_a_buried_discard_as_seen(page, tmp_path: Path):
    _run_all_cells(page, ".rk-play")
    play = page.locator(".rk-play")
    play.get_by_text("Your turn: draw from the stock").wait_for()
    # Before the draw: the outs of the hand. 108 cards less 10 in the hand and the 4 in
    # the pile: 94 unseen; one J♣ is buried in the pile, so one copy is left, not two.
    outs = play.locator(".rk-message", has_text="Outs:")
    outs.wait_for()
    text = outs.text_content()
    assert "Outs: 9 of the 94 unseen cards complete 2 sets" in text, text
    assert "J♣ ×1" in text and "J♣ ×2" not in text, text
    seen = play.locator(".rk-seen")
    assert seen.text_content() == "Counting as seen: your hand, 4 cards in the discard pile."
    play.screenshot(path=str(tmp_path / "play_buried_outs.png"))
    # After the draw: the advice counts the same pile (11 in the hand: 93 unseen).
    _button(play, "Draw from stock").click()
    caption = play.locator("table.rk-advice caption")
    caption.wait_for()
    assert "among the 93 unseen cards" in caption.text_content()
    assert seen.text_content() == "Counting as seen: your hand, 4 cards in the discard pile."


# Issue 26: a chance below one in a million in every widget that shows chances (3 runs
# in 12 cards from 2 decks and 2 jokers, in data/), and a simulation's result cleared
# when the controls leave its settings.
TINY_CELLS = [
    "from rummykit.widgets import DealWidget, OddsExplorer, SimulationExplorer",
    "deal = DealWidget(round=7, decks=2, jokers=2, seed=1)\ndeal",
    "odds = OddsExplorer(round=7, decks=2, jokers=2, neighbour_decks=(2,))\nodds",
    "simulation = SimulationExplorer(round=7, decks=2, jokers=2, n=500, steps=2, seed=1)\n"
    "simulation",
]
# "1 in 2,880,763"-like: the chance in words, with thousands separators.
ONE_IN_MILLIONS = re.compile(r"= 1 in \d{1,3},\d{3},\d{3}\b")
# What no chance may read as: a percentage of noughts, an exponent.
ZEROS = re.compile(r"(?<![\d.])0\.0+\s?%|\de-0\d")


@pytest.mark.parametrize("jupyterlab", [TINY_CELLS], indirect=True)
def test_a_tiny_chance_reads_1_in_n_everywhere_and_a_stale_result_is_cleared(page, tmp_path: Path):
    _run_all_cells(page)
    deal = page.locator(".rk-deal")
    _button(deal, "Deal").click()
    odds_line = deal.locator(".rk-message", has_text="The chance of being dealt 3 runs")
    odds_line.wait_for()
    odds = page.locator(".rk-odds-explorer")
    explorer_line = odds.locator(".rk-message", has_text="The chance of being dealt 3 runs")
    explorer_line.wait_for()
    simulation = page.locator(".rk-simulation-explorer")
    _button(simulation, "Run").click()
    result = simulation.locator(".rk-message", has_text="After 500 hands")
    result.filter(has_text="The exact value is").wait_for()
    for line in (odds_line, explorer_line, result):
        text = line.text_content()
        assert ONE_IN_MILLIONS.search(text) and not ZEROS.search(text), text
    for widget in (deal, odds, simulation):
        assert not ZEROS.search(widget.text_content())
    odds.locator("svg").first.wait_for()
    odds.screenshot(path=str(tmp_path / "odds_tiny.png"))

    # The contract changed after Run: the result and its chart go, "press Run" instead.
    _dropdown(simulation, "Contract").locator("select").select_option(index=0)  # round 1: 2 sets
    simulation.get_by_text("Press Run for these settings").wait_for()
    assert "After 500 hands" not in simulation.text_content()
    assert simulation.locator(".rk-figure").count() == 0
    simulation.screenshot(path=str(tmp_path / "simulation_stale.png"))
    assert not page.blocked, f"requests to other hosts: {page.blocked}"
