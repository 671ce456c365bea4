"""The SimulationExplorer's Players control: completion by turn at that table, from data/
when the committed table holds it, else played live in the background (issue 15, item 4).

The live rounds go through ``rummykit.widgets.table._live_rounds``; a spy wraps it to see
which rounds are played (and, where a test needs it, to hold them).
"""

from __future__ import annotations

import threading

import polars as pl
import pytest

pytest.importorskip("ipywidgets")

import rummykit.widgets.table as table  # noqa: E402
from rummykit import RuleSet  # noqa: E402
from rummykit.chance import chance_text, estimate_text  # noqa: E402
from rummykit.errors import RummyError  # noqa: E402
from rummykit.odds.cells import DEFAULT_SEED
from rummykit.odds.data.schemas import data_directory  # noqa: E402
from rummykit.odds.play.completion import completion_by_turn, default_chunk  # noqa: E402
from rummykit.widgets import SimulationExplorer  # noqa: E402

STANDARD = RuleSet.preset("standard")


class Spy:
    """Records the rounds asked of ``_live_rounds`` and plays them; ``hold`` pauses them."""

    def __init__(self, monkeypatch) -> None:
        self.indices: list[int] = []
        self.by_table: dict[tuple, list[int]] = {}  # (players, decks, jokers) -> indices
        self.hold = threading.Event()
        self.hold.set()
        self.real = table._live_rounds
        monkeypatch.setattr(table, "_live_rounds", self)

    def __call__(self, cell, seed, indices):
        self.hold.wait(30)
        indices = list(indices)
        self.indices += indices
        self.by_table.setdefault((cell.players, cell.decks, cell.jokers), []).extend(indices)
        return self.real(cell, seed, indices)


def committed_rows(players: int, round_: int, decks: int, jokers: int) -> pl.DataFrame:
    rows = pl.read_parquet(data_directory() / "completion_by_turn.parquet")
    return rows.filter(
        (pl.col("rules") == "standard")
        & (pl.col("round") == round_)
        & (pl.col("players") == players)
        & (pl.col("decks") == decks)
        & (pl.col("jokers") == jokers)
        & (pl.col("buy") == "improves")
    )


def test_a_table_in_data_is_shown_from_data_at_once(monkeypatch):
    spy = Spy(monkeypatch)
    explorer = SimulationExplorer(background=False, table_rounds=20)
    assert (
        explorer.table.frame is None and "Choose the players" in explorer.table.message_html.value
    )
    explorer.players.value = 4
    assert spy.indices == []  # nothing played: data/ has the table
    expected = committed_rows(4, 1, 2, 4)
    assert expected.height and explorer.table.source == "data"
    assert explorer.table.key == ("standard", 1, 4, 2, 4)
    assert explorer.table.frame.equals(expected)
    laid = expected.filter(measure="laid down").sort("turn")
    message = explorer.table.message_html.value
    assert f"from {laid['n'][0]:,} rounds played by bots for the book" in message
    first = estimate_text(laid["p"][0], laid["ci_low"][0], laid["ci_high"][0])
    assert f"By their first turn, a player has laid down with a chance of {first};" in message
    assert f"before the round ends: {chance_text(laid['p'][-1])}." in message
    chart = explorer.table.chart_html.value
    assert "<svg" in chart and "2 sets: chance a player has laid down" in chart
    assert explorer.table.progress.layout.display == "none"


@pytest.mark.slow
def test_a_table_not_in_data_is_played_live_in_the_background(monkeypatch):
    spy = Spy(monkeypatch)
    # 1 deck and 3 jokers: a shoe no table of data/ uses, now or with bigger tables.
    explorer = SimulationExplorer(decks=1, jokers=3, table_rounds=30)
    explorer.players.value = 3
    explorer.controls.decks.value = 1
    explorer.controls.jokers.value = 3
    explorer.wait(60)
    assert explorer.table.source == "live" and explorer.table.key == ("standard", 1, 3, 1, 3)
    # (Chunks play in threads, and a table left for another may finish its chunks.)
    assert sorted(spy.by_table[3, 1, 3]) == list(range(30))
    expected = completion_by_turn(
        rules=STANDARD,
        players=3,
        rounds=1,
        decks=1,
        jokers=3,
        n=30,
        seed=DEFAULT_SEED,
        max_workers=1,
        progress=False,
    )
    assert explorer.table.frame.equals(expected)  # the engine path's own numbers
    assert explorer.table.progress.value == explorer.table.progress.max == 30
    assert explorer.table.progress.layout.display == "none"  # hidden once played
    assert "from 30 rounds played by bots just now" in explorer.table.message_html.value
    assert "<svg" in explorer.table.chart_html.value


@pytest.mark.slow
def test_a_live_run_stops_when_the_controls_move_on(monkeypatch):
    spy = Spy(monkeypatch)
    explorer = SimulationExplorer(table_rounds=200)
    explorer.players.value = 4  # from data
    explorer.wait(60)
    spy.hold.clear()
    explorer.controls.jokers.value = 3  # not in data: played live, held at its first chunk
    assert explorer.table.progress.layout.display is None and explorer.table.playing
    assert "playing 200 rounds live" in explorer.table.message_html.value
    explorer.controls.jokers.value = 4  # back to the table shown: the live run stops
    spy.hold.set()
    explorer.wait(60)
    assert explorer.table.source == "data" and explorer.table.key == ("standard", 1, 4, 2, 4)
    # Stopped, not played to 200: the held batch of chunks and at most one more.
    assert len(spy.indices) <= 2 * table.LIVE_THREADS * default_chunk(200)
    assert explorer.table.progress.layout.display == "none" and not explorer.table.playing


@pytest.mark.slow
def test_a_table_drawn_late_never_replaces_a_newer_one(monkeypatch):
    release = threading.Event()
    real = table.TablePanel._chart

    def chart(self, key, frame):
        if key[2] == 4:  # the first table's chart waits until the second is shown
            release.wait(30)
        return real(self, key, frame)

    monkeypatch.setattr(table.TablePanel, "_chart", chart)
    explorer = SimulationExplorer(table_rounds=20)
    explorer.players.value = 4
    explorer.players.value = 5
    newer = ("standard", 1, 5, 3, 6)
    for _ in range(300):
        if explorer.table.key == newer and "5 players" in explorer.table.chart_html.value:
            break
        threading.Event().wait(0.1)
    release.set()
    explorer.wait(60)
    assert explorer.table.key == newer and explorer.table.source == "data"
    assert "(5 players, standard rules)" in explorer.table.chart_html.value
    assert "5 players, 3 decks and 6 jokers" in explorer.table.message_html.value


def test_a_message_written_late_never_replaces_a_newer_tables_message(monkeypatch):
    # The first table's words are slow (the chart above is not): its thread must not
    # have shown its key, nor write its message, once the second table is on screen.
    release = threading.Event()
    real = table.TablePanel._describe

    def describe(self, key, frame, source):
        if key[2] == 4:
            release.wait(30)
        return real(self, key, frame, source)

    monkeypatch.setattr(table.TablePanel, "_describe", describe)
    explorer = SimulationExplorer(table_rounds=20)
    explorer.players.value = 4
    explorer.players.value = 5
    newer = ("standard", 1, 5, 3, 6)
    for _ in range(300):
        if "5 players, 3 decks and 6 jokers" in explorer.table.message_html.value:
            break
        threading.Event().wait(0.1)
    assert explorer.table.key == newer
    release.set()
    explorer.wait(60)
    assert explorer.table.key == newer and explorer.table.source == "data"
    assert "(5 players, standard rules)" in explorer.table.chart_html.value
    assert "5 players, 3 decks and 6 jokers" in explorer.table.message_html.value


def test_a_player_count_the_preset_does_not_allow_shows_its_rule_and_is_put_back(
    monkeypatch,
):
    spy = Spy(monkeypatch)
    explorer = SimulationExplorer(background=False, table_rounds=20)
    explorer.players.value = 4
    for preset, players in (("family", 8), ("pagat", 2)):
        with pytest.raises(RummyError) as refused:
            RuleSet.preset(preset).check_players(players)
        explorer.controls.preset.value = preset  # 4 players: that preset's table, live
        shown = (explorer.table.frame, explorer.table.key, explorer.table.chart_html.value)
        shoe = (explorer.controls.decks.value, explorer.controls.jokers.value)
        assert explorer.table.key[:3] == (preset, 1, 4)
        spy.indices.clear()
        explorer.players.value = players
        message = explorer.table.message_html.value
        assert str(refused.value) in message and 'role="alert"' in message
        assert (explorer.controls.decks.value, explorer.controls.jokers.value) == shoe
        assert spy.indices == []  # nothing played for a table that cannot be
        assert explorer.table.frame is shown[0] and explorer.table.key == shown[1]
        assert explorer.table.chart_html.value == shown[2]
        # The control is put back to the table shown: it never names a count the chart
        # does not show; the rule's reason stays on screen.
        assert explorer.players.value == 4 and str(refused.value) in message
        assert explorer.table.message_html.value == message
        explorer.controls.preset.value = "standard"
    # A preset that does not allow the count chosen: its rule, and no chart of another table.
    explorer.players.value = 8
    assert (
        explorer.table.key == ("standard", 1, 8, 3, 6) and "<svg" in explorer.table.chart_html.value
    )
    explorer.controls.preset.value = "family"
    assert "family is played by 2 to 6 players, not 8" in explorer.table.message_html.value
    assert explorer.table.key is None and explorer.table.chart_html.value == ""
    explorer.controls.preset.value = "standard"  # 8 players again: their table again
    assert (
        explorer.table.key == ("standard", 1, 8, 3, 6) and "<svg" in explorer.table.chart_html.value
    )
    # A shoe that cannot deal the table: the engine's error, no chart of another shoe.
    explorer.players.value = 8  # the preset's shoe for 8: three decks
    explorer.controls.decks.value = 1
    explorer.controls.jokers.value = 0
    assert "cannot be dealt" in explorer.table.message_html.value
    assert explorer.table.key is None and explorer.table.chart_html.value == ""
    explorer.players.value = None
    assert explorer.table.frame is None and explorer.table.chart_html.value == ""


def test_choosing_players_deals_the_tables_shoe():
    explorer = SimulationExplorer(background=False, table_rounds=20)
    for players in (2, 5, 8, 3):
        explorer.players.value = players
        decks = STANDARD.decks_for(players)
        assert explorer.controls.decks.value == decks
        assert explorer.controls.jokers.value == STANDARD.jokers_for(decks)
        assert explorer.table.key == ("standard", 1, players, decks, STANDARD.jokers_for(decks))


def test_bad_panel_settings_fail_clearly():
    from rummykit.errors import ArgumentError

    with pytest.raises(ArgumentError, match="rounds must be an integer >= 1, got 0"):
        SimulationExplorer(table_rounds=0)
    with pytest.raises(ArgumentError, match="rounds must be an integer >= 1, got 2.5"):
        SimulationExplorer(table_rounds=2.5)
