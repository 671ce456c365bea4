"""The SimulationExplorer's Players control in a real JupyterLab (issue 15, item 4): a
table played live in the background while the kernel runs the next cell, one read from
data/ when chosen in the page, and a player count the preset does not allow refused with
the preset's rule. The JupyterLab and browser fixtures are test_widgets_browser's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.lab import _dropdown, _run_all_cells

pytestmark = pytest.mark.browser

TABLE_CELLS = [
    "from rummykit.widgets import SimulationExplorer",
    "simulation = SimulationExplorer(players=4, table_rounds=300)\nsimulation",
    # 3 jokers in two decks: a shoe no table of data/ uses, so played live.
    "simulation.controls.jokers.value = 3",
    "print(f'kernel free while playing: {simulation.table.playing}')",
]


@pytest.mark.parametrize("jupyterlab", [TABLE_CELLS], indirect=True)
def test_players_control_in_jupyterlab(page, tmp_path: Path):
    _run_all_cells(page, widget=".rk-simulation-explorer")
    explorer = page.locator(".rk-simulation-explorer")
    # The cell after the one that started the live run ran while it played.
    page.get_by_text("kernel free while playing: True").wait_for()
    explorer.locator(".rk-message", has_text="from 300 rounds played by bots just now").wait_for()
    explorer.locator("svg.marks", has_text="2 sets: chance a player has laid down").wait_for()
    explorer.screenshot(path=str(tmp_path / "table-live.png"))

    # Five players: the preset's shoe for five (three decks), a table data/ holds.
    _dropdown(explorer, "Players").locator("select").select_option("5")
    explorer.locator(".rk-message", has_text="played by bots for the book").wait_for()
    explorer.locator(".rk-message", has_text="5 players, 3 decks and 6 jokers").wait_for()

    # family is played by 2 to 6: eight players are refused with that rule.
    _dropdown(explorer, "Rules").locator("select").select_option("family")
    explorer.locator(".rk-message", has_text="family rules, round 1").wait_for()
    _dropdown(explorer, "Players").locator("select").select_option("8")
    refusal = explorer.locator(".rk-error", has_text="family is played by 2 to 6 players, not 8")
    refusal.wait_for()
    assert refusal.get_attribute("role") == "alert"
    # The control shows the count still in effect (5), never a blank (issue 50, item 7).
    players = _dropdown(explorer, "Players").locator("select")
    page.wait_for_timeout(1000)  # any late update from the kernel has arrived
    shown = players.evaluate("s => s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : ''")
    assert shown == "5", f"the Players control shows {shown!r} after a refused count"
    explorer.screenshot(path=str(tmp_path / "table-refused.png"))
    assert not page.blocked, f"requests to other hosts: {page.blocked}"
