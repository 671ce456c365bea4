"""At the table: how soon a contract is laid down at a table of so many players.

The SimulationExplorer's Players control shows, for the table its controls describe
(preset, round, players, decks, jokers), the chance that a player has laid down the
round's contract by their t-th turn, with its 95% band. It comes from the committed
``data/completion_by_turn.parquet`` when that holds the table (every bot buying when a
card brings it closer, as ``rummykit tables`` plays), and otherwise is played live:
:data:`LIVE_ROUNDS` seeded rounds with a progress bar, in a thread (the kernel never
waits), stopped when the controls move on.

Every live round is played by :func:`_live_rounds`, the one place to switch to a faster
simulator that plays the same rounds.

Where altair or polars is missing (a browser's Python: ``plain``), the panel reads the
same committed numbers with the standard library (:mod:`rummykit.odds.known_completion`),
computes a live table's curve as ``rummykit tables`` does
(:func:`~rummykit.odds.known_completion.curve_of_rounds`) from the same rounds, and draws it
plainly (:func:`~rummykit.widgets.plain.completion_svg`); :attr:`TablePanel.frame` is
then a :class:`~rummykit.odds.known_completion.Curve`. Where numpy is missing too, the engine
plays the live rounds (:func:`~rummykit.odds.cells.play_round`, the same records as the
simulator's, some 60 times slower): :data:`PLAIN_LIVE_ROUNDS` of them unless asked.
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import os
import threading
from collections.abc import Callable, Iterable

from rummykit.chance import chance_text, estimate_text
from rummykit.engine.cards import Shoe
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, RummyError
from rummykit.odds.answer import can_count
from rummykit.odds.cells import DEFAULT_SEED, Cell, RoundRecord, play_round
from rummykit.odds.known_completion import Curve, committed_curve, curve_of_rounds
from rummykit.widgets import _common
from rummykit.widgets._common import (
    CAN_THREAD,
    Superseded,
    figure_html,
    ipywidgets,
    message_html,
    plain_charts,
    require,
)
from rummykit.widgets.plain import completion_svg

__all__ = ["LIVE_ROUNDS", "PLAIN_LIVE_ROUNDS", "TablePanel", "committed_completion"]

#: Rounds played live for a table ``data/`` does not hold: the compiled simulator
#: (:mod:`rummykit.odds.play.fastplay`) plays 2,000 rounds of 4 players in round 1 in about
#: 0.2 s, of 8 players in round 7 in about 1-2 s on two cores (the engine's bots, where
#: the simulator is not built, take about 60 times as long).
LIVE_ROUNDS = 2_000
#: Rounds played live where numpy is missing (a browser's Python), by the engine without
#: its compiled cores: a round of 4 players in round 1 takes about 0.1 s of CPython
#: (measured: 200 rounds in 26 s on a busy machine), two to three times that in a browser.
PLAIN_LIVE_ROUNDS = 50
#: Chunks of live rounds played at once, in threads.
LIVE_THREADS = max(1, min(4, os.cpu_count() or 1))
#: The buying policy of the tables of ``data/`` that the panel reads.
TABLE_BUY = "improves"
#: The committed table the panel reads, in ``data/``.
COMPLETION_TABLE = "completion_by_turn"


def _live_rounds(cell: Cell, seed: int, indices: Iterable[int]) -> list[RoundRecord]:
    """Rounds ``indices`` of ``cell`` from ``seed``, as ``rummykit tables`` plays them:
    by the compiled simulator where it plays the rules, else by the engine and its bots
    (:func:`~rummykit.odds.play.completion.play_rounds_fastest`, the same records); where
    numpy is missing, by the engine (:func:`~rummykit.odds.cells.play_round`)."""
    if not can_count():
        return [play_round(cell, seed, index) for index in indices]
    from rummykit.odds.play.completion import play_rounds_fastest

    return play_rounds_fastest(cell, seed, list(indices))


def _live_completion(
    rules: RuleSet,
    players: int,
    round: int,
    n: int,
    seed: int,
    *,
    decks: int | None = None,
    jokers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
):
    """:func:`~rummykit.odds.play.completion.completion_by_turn` of one table, played here in
    the chunks a sweep uses (:func:`~rummykit.odds.play.completion.default_chunk`), calling
    ``progress(done, n)`` after each (which may raise
    :class:`~rummykit.widgets._common.Superseded` to stop). The same rounds and the same
    frame as ``completion_by_turn(..., n=n, seed=seed)``.

    >>> from rummykit.odds.play.completion import completion_by_turn
    >>> standard = RuleSet.preset("standard")
    >>> live = _live_completion(standard, 2, 1, 12, 5, decks=1, jokers=3)
    >>> live.equals(completion_by_turn(rules=standard, players=2, rounds=1, decks=1, jokers=3,
    ...                                n=12, seed=5, max_workers=1, progress=False))
    True
    """
    from rummykit.odds.play.completion import tables_from_records

    cell = Cell(rules, players, round, decks=decks, jokers=jokers, buy=TABLE_BUY)
    records = _live_records(cell, n, seed, progress)
    return tables_from_records([cell], {cell: records})[COMPLETION_TABLE]


def _live_records(
    cell: Cell, n: int, seed: int, progress: Callable[[int, int], None] | None
) -> list[RoundRecord]:
    """The records of rounds ``0..n-1`` of ``cell``, played in chunks (see
    :func:`_live_completion`)."""
    records: list[RoundRecord] = []
    chunk = _chunk(n)
    starts = range(0, n, chunk)
    if not CAN_THREAD:  # a browser's Python: one chunk after another, here
        for start in starts:
            records += _live_rounds(cell, seed, range(start, min(n, start + chunk)))
            if progress is not None:
                progress(len(records), n)
        return records
    # The compiled simulator plays without the GIL: LIVE_THREADS chunks at once, their
    # records kept in round order (a chunk's rounds do not depend on the others). One
    # batch at a time, so a run that progress stops plays at most one batch more.
    with concurrent.futures.ThreadPoolExecutor(LIVE_THREADS) as pool:
        for first in range(0, len(starts), LIVE_THREADS):
            batch = starts[first : first + LIVE_THREADS]
            played = [
                pool.submit(_live_rounds, cell, seed, range(start, min(n, start + chunk)))
                for start in batch
            ]
            for future in played:
                records += future.result()
                if progress is not None:
                    progress(len(records), n)
    return records


def _chunk(n: int) -> int:
    """The rounds of a chunk: a sweep's (:func:`~rummykit.odds.play.completion.default_chunk`),
    and where numpy is missing 20 (the progress bar moves every few seconds at most)."""
    if not can_count():
        return min(n, 20)
    from rummykit.odds.play.completion import default_chunk

    return default_chunk(n)


@functools.cache
def _committed():
    """The committed table and its seed (None, None where ``data/`` does not have it)."""
    pl = require("polars")
    from rummykit.odds.data.schemas import data_directory

    path = data_directory() / f"{COMPLETION_TABLE}.parquet"
    if not path.exists():
        return None, None
    notes = path.with_suffix(".json")
    seed = json.loads(notes.read_text())["seed"] if notes.exists() else None
    return pl.read_parquet(path), seed


def committed_completion(rules: RuleSet, players: int, round: int, decks: int, jokers: int):
    """The rows of ``data/completion_by_turn.parquet`` for this table (bots buying when it
    helps), or None when the table is not there.

    >>> standard = RuleSet.preset("standard")
    >>> rows = committed_completion(standard, 4, 1, 2, 4)
    >>> sorted(set(rows["measure"])), set(rows["players"]), set(rows["buy"])
    (['anyone out', 'laid down'], {4}, {'improves'})
    >>> committed_completion(standard, 4, 1, 1, 3) is None   # a shoe no table uses
    True
    """
    pl = require("polars")
    table, _ = _committed()
    if table is None:
        return None
    rows = table.filter(
        (pl.col("rules") == rules.name)
        & (pl.col("round") == round)
        & (pl.col("players") == players)
        & (pl.col("decks") == decks)
        & (pl.col("jokers") == jokers)
        & (pl.col("buy") == TABLE_BUY)
    )
    return rows if rows.height else None


def _players_options() -> list[tuple[str, int | None]]:
    """ "no table", then every player count some preset allows (a preset's own range is its
    rule, checked when chosen)."""
    presets = [RuleSet.preset(name) for name in RuleSet.presets()]
    low = min(rules.min_players for rules in presets)
    high = max(rules.max_players for rules in presets)
    return [("no table (dealt hand only)", None)] + [(str(n), n) for n in range(low, high + 1)]


class TablePanel:
    """The Players control and what it shows: completion by turn at that table.

    ``controls`` are an explorer's preset, round, decks and jokers controls. Choosing a
    player count or a preset sets the decks and jokers to what the preset deals that many
    players (moving them afterwards tries another shoe at the same table); the table is
    then the controls' preset, round, players, decks and jokers. A count the preset does
    not allow shows the rule's error and puts the Players control back to the table
    shown; a preset that does not allow the count chosen, or a shoe that cannot deal the
    table, shows the rule's error and clears the chart (it would show another table).
    ``rounds`` rounds (default :data:`LIVE_ROUNDS`, without numpy
    :data:`PLAIN_LIVE_ROUNDS`) are played live (seed ``seed``, the seed of ``rummykit
    tables`` by default) when ``data/`` does not hold the table.

    >>> from rummykit.widgets import SimulationExplorer
    >>> explorer = SimulationExplorer(players=4, background=False)
    >>> explorer.table.source, explorer.table.key
    ('data', ('standard', 1, 4, 2, 4))
    >>> explorer.players.value = 8   # three decks for eight: data/ has that table too
    >>> explorer.controls.preset.value = "family"
    >>> "family is played by 2 to 6 players, not 8" in explorer.table.message_html.value
    True
    >>> explorer.table.key, explorer.table.chart_html.value   # no chart of another table
    (None, '')
    >>> explorer.controls.preset.value = "pagat"
    >>> explorer.players.value = 2   # refused: the control goes back to 8
    >>> explorer.players.value, "not 2" in explorer.table.message_html.value
    (8, True)
    """

    def __init__(
        self,
        controls,
        *,
        players: int | None = None,
        rounds: int | None = None,
        seed: int = DEFAULT_SEED,
        background: bool = True,
        plain: bool | None = None,
    ) -> None:
        if rounds is None:
            rounds = LIVE_ROUNDS if can_count() else PLAIN_LIVE_ROUNDS
        for name, value, low in (("rounds", rounds, 1), ("seed", seed, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ArgumentError(f"{name} must be an integer >= {low}, got {value!r}")
        self.controls = controls
        self.rounds = rounds
        self.seed = seed
        self.background = background and CAN_THREAD
        self.plain = plain_charts() if plain is None else bool(plain)
        """Whether the panel reads and draws without polars and altair (see the module)."""
        self.frame = None
        """The by-turn rows of the table shown (schema ``BY_TURN_SCHEMA``), with
        :attr:`plain` its :class:`~rummykit.odds.known_completion.Curve`, or None."""
        self.source: str | None = None
        """Where :attr:`frame` came from: ``"data"`` or ``"live"``."""
        self.key: tuple | None = None
        """The table shown: (preset, round, players, decks, jokers)."""
        self._target: tuple | None = None  # the table the controls ask for now
        self._live: tuple | None = None  # the table being played live, if any
        self._syncing = False
        self._threads: list[threading.Thread] = []
        # Held while the table shown or the message changes: a thread that finishes late
        # checks the target and writes under it, so it cannot write between the main
        # thread's change of target and its message.
        self._lock = threading.RLock()
        self.players = ipywidgets.Dropdown(
            options=_players_options(),
            value=None,
            description="Players",
            tooltip="players at the table: how soon the contract is laid down there",
        )
        self.message_html = ipywidgets.HTML()
        self.progress = ipywidgets.IntProgress(
            value=0, min=0, max=rounds, description="Played", bar_style="info"
        )
        self.progress.layout.display = "none"
        self.chart_html = ipywidgets.HTML()
        heading = ipywidgets.HTML(
            "<strong>At the table</strong>: how soon the contract is laid down with so many players"
        )
        self.box = ipywidgets.VBox(
            [heading, self.players, self.message_html, self.progress, self.chart_html]
        )
        self.box.add_class("rk-table")
        self._reverting = False  # set while a refused count is put back
        self.players.observe(self._players_changed, "value")
        controls.preset.observe(lambda _: self._follow(self.players.value), "value")
        for control in (controls.round, controls.decks, controls.jokers):
            control.observe(lambda _: self.update(), "value")
        self.players.value = players
        if players is None:
            self.update()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the work running in the background."""
        for thread in list(self._threads):
            thread.join(timeout)

    def _players_changed(self, change: dict) -> None:
        if self._reverting:
            return
        if not self._follow(change["new"], clear=False):
            # Refused: the control back to what it was, so it never names a count the
            # chart does not show; the rule's message stays.
            self._reverting = True
            try:
                self.players.value = change["old"]
            finally:
                self._reverting = False

    def _follow(self, players: int | None, *, clear: bool = True) -> bool:
        """The preset or the players changed: the shoe follows (the preset's for that many
        players), unless the preset does not allow them: then its rule is shown (and,
        with ``clear``, the chart of another table cleared) and False returned."""
        if players is not None:
            rules = self.controls.rules
            try:
                rules.check_players(players)
                decks = rules.decks_for(players)
                jokers = rules.jokers_for(decks)
            except RummyError as error:
                with self._lock:
                    if clear:
                        self._refuse(error)
                    else:
                        self.message_html.value = message_html(str(error), "error")
                return False
            self._syncing = True  # one update for the new shoe, not one per slider
            try:
                self.controls.decks.value = decks
                self.controls.jokers.value = jokers
            finally:
                self._syncing = False
        self.update()
        return True

    def _refuse(self, error: RummyError) -> None:
        """The controls describe no table that can be played: say why, show no chart."""
        with self._lock:
            self._target = None  # stops a live run
            self.frame = self.source = self.key = None
            self.progress.layout.display = "none"
            self.chart_html.value = ""
            self.message_html.value = message_html(str(error), "error")

    def update(self) -> None:
        """Show completion by turn for the table the controls describe: from ``data/`` at
        once, or played live in the background (here without ``background``)."""
        if self._syncing or self.controls.changing:
            return
        with self._lock:
            self._update()

    def _update(self) -> None:
        players = self.players.value
        if players is None:
            self._target = None  # stops a live run
            self.frame = self.source = self.key = None
            self.progress.layout.display = "none"
            self.chart_html.value = ""
            self.message_html.value = message_html(
                "Choose the players at the table to see how soon the contract is laid down."
            )
            return
        rules = self.controls.rules
        try:
            cell = Cell(
                rules,
                players,
                self.controls.round.value,
                decks=self.controls.decks.value,
                jokers=self.controls.jokers.value,
                buy=TABLE_BUY,
            )
        except RummyError as error:
            self._refuse(error)
            return
        key = (rules.name, cell.round, players, cell.decks, cell.jokers)
        if key == self.key:
            self._target = key  # a live run for another table stops
            self.progress.layout.display = "none"
            self.message_html.value = message_html(self._describe(key, self.frame, self.source))
            return
        if key == self._target:
            return  # on its way already
        if self.plain:
            committed = committed_curve(
                rules, players=players, round=cell.round, decks=cell.decks, jokers=cell.jokers
            )
        else:
            committed = committed_completion(
                rules, players, cell.round, decks=cell.decks, jokers=cell.jokers
            )
        self._target = key
        if committed is not None:
            self.progress.layout.display = "none"
            self._run(self._show, key, committed, "data")
            return
        self.progress.max, self.progress.value = self.rounds, 0
        self.progress.layout.display = None
        self.message_html.value = message_html(
            f"data/ has no table of {players} players with this shoe ({rules.name} rules, "
            f"round {cell.round}): playing {self.rounds:,} rounds live with the engine's bots ..."
        )
        self._live = key
        self._run(self._play, key, rules)

    def _run(self, work, *args) -> None:
        if not self.background:
            work(*args)
            return
        thread = threading.Thread(target=work, args=args, name="rummykit-table", daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def _play(self, key: tuple, rules: RuleSet) -> None:
        name, number, players, decks, jokers = key

        def progress(done: int, total: int) -> None:
            if self._target != key:
                raise Superseded
            self.progress.value = done

        try:
            if self.plain:
                cell = Cell(rules, players, number, decks=decks, jokers=jokers, buy=TABLE_BUY)
                records = _live_records(cell, self.rounds, self.seed, progress)
                frame = curve_of_rounds(
                    rules,
                    players=players,
                    round=number,
                    decks=decks,
                    jokers=jokers,
                    records=records,
                    seed=self.seed,
                )
            else:
                frame = _live_completion(
                    rules,
                    players,
                    number,
                    self.rounds,
                    self.seed,
                    decks=decks,
                    jokers=jokers,
                    progress=progress,
                )
        except Superseded:
            return
        finally:
            if self._live == key:
                self._live = None
        self._show(key, frame, "live")

    @property
    def playing(self) -> bool:
        """Whether a table is being played live now (in the background)."""
        return self._live is not None and self._live == self._target

    def _show(self, key: tuple, frame, source: str) -> None:
        """Show ``frame`` as the table ``key``, unless the controls have moved on (a thread
        finishing late never overwrites a newer table)."""
        if self._target != key:
            return
        # The text and the chart are drawn first, outside the lock (the chart takes a
        # while); then, if the controls still ask for this table, all of it is shown at
        # once. The lock keeps another thread's table, or a message the main thread
        # writes with a new target, from landing between the check and the writes.
        message = message_html(self._describe(key, frame, source))
        chart = self._chart(key, frame)
        with self._lock:
            if self._target != key:
                return
            self.frame, self.source, self.key = frame, source, key
            self.progress.layout.display = "none"
            self.message_html.value = message
            self.chart_html.value = chart

    def _describe(self, key: tuple, frame, source: str) -> str:
        name, number, players, decks, jokers = key
        n, contract, _seed, points = _laid_down(frame)
        # In a learner's words: how many rounds and who played them; where they are kept
        # and their seed are the table's (:attr:`source`, :attr:`frame`), not the page's.
        if source == "data":
            where = f"from {n:,} rounds played by bots for the book"
        else:
            where = f"from {n:,} rounds played by bots just now"
        first = points[0]
        half = [point["turn"] for point in points if point["p"] >= 0.5]
        halfway = (
            f"half the players have laid down by turn {half[0]}"
            if half
            else "fewer than half the players ever lay down"
        )
        shoe = Shoe(decks=decks, jokers=jokers).words
        return (
            f"{name} rules, round {number} ({contract}), {players} players, {shoe}: {where}. "
            "By their first turn, a player has laid down with a chance of "
            f"{estimate_text(first['p'], first['ci_low'], first['ci_high'])}; {halfway}; "
            f"the chance of laying down before the round ends: {chance_text(points[-1]['p'])}."
        )

    def _chart(self, key: tuple, frame) -> str:
        name, number, players, decks, jokers = key
        if isinstance(frame, Curve):
            _, contract, _, points = _laid_down(frame)
            last = _settled(points)
            title = (
                f"{contract}: chance a player has laid down by their t-th turn "
                f"({players} players, {name} rules)"
            )
            rows = [{**p, "line": f"{players} players"} for p in points if p["turn"] <= last]
            return figure_html(completion_svg(rows, title))
        pl = require("polars")
        from rummykit.charts import completion_chart, settled_turn

        laid = frame.filter(pl.col("measure") == "laid down")
        last = settled_turn(laid, by=["players"])
        chart = completion_chart(
            laid.filter(pl.col("turn") <= last),
            title=f"{laid['contract'][0]}: chance a player has laid down by their t-th turn "
            f"({players} players, {name} rules)",
        )
        return figure_html(_common.chart_svg(chart))


def _laid_down(frame) -> tuple[int, str, int | None, list[dict]]:
    """(rounds, contract, seed, the turn-by-turn points) of a table shown: a
    :class:`~rummykit.odds.known_completion.Curve` or the committed table's polars rows."""
    if isinstance(frame, Curve):
        points = [
            {"turn": p.turn, "p": p.p, "ci_low": p.ci_low, "ci_high": p.ci_high}
            for p in frame.points
        ]
        return frame.n, frame.contract, frame.seed, points
    pl = require("polars")
    laid = frame.filter(pl.col("measure") == "laid down").sort("turn")
    points = laid.select("turn", "p", "ci_low", "ci_high").to_dicts()
    return int(laid["n"][0]), laid["contract"][0], _committed()[1], points


def _settled(points: list[dict], within: float = 0.005) -> int:
    """:func:`rummykit.charts.settled_turn` of one line, with the standard library: the
    first turn whose chance is within ``within`` of the last."""
    last = points[-1]["p"]
    return next(p["turn"] for p in points if p["p"] >= last - within)
