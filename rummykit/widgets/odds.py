"""OddsExplorer and SimulationExplorer: move a control, see the chance of a contract change.

Charts are altair specs turned into SVG by vl-convert in this process and shown inside
an ``ipywidgets.HTML``: they display offline, with no script from a CDN.

Both explorers also run where altair, polars and numpy cannot be imported (the book's
live notebooks: Python in the reader's browser, Pyodide, has no wheel of them). There
(:func:`~rummykit.widgets._common.plain_charts`; ``plain=True`` asks for it anywhere)
the charts are drawn as SVG by :mod:`rummykit.widgets.plain` from the same numbers, the
tables of the chart are lists of row dicts, and where nothing can count (no numpy:
:func:`~rummykit.odds.answer.can_count`) the odds come from the committed tables
(:mod:`rummykit.odds.known_odds`) or else from a dealt-hand estimate made with the standard
library (:func:`~rummykit.odds.estimate.estimate_dealt`), with its interval and a
progress bar: :data:`PLAIN_HANDS` hands for the chosen hand, :data:`PLAIN_NEIGHBOUR_HANDS`
for each point of the chart the tables do not hold.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import threading
from collections.abc import Sequence
from fractions import Fraction

from rummykit.chance import duration_text, exact_text, impossible_reason
from rummykit.chance import estimate_text as estimate_words
from rummykit.engine.checks import whole
from rummykit.engine.rules import Contract
from rummykit.odds.answer import answer, can_count, count_seconds, known_probability
from rummykit.odds.cells import (
    DEFAULT_SEED,
    ExactCell,
    cell_seed,
    exact_row,
    round_of,
    simulated_row,
)
from rummykit.odds.estimate import Estimate, estimate_dealt
from rummykit.widgets import _common
from rummykit.widgets._common import (
    CAN_THREAD,
    COUNT_UNASKED_SECONDS,
    CountProgress,
    Superseded,
    chance_sentence,
    display_widget,
    estimate_text,
    figure_html,
    interim_text,
    ipywidgets,
    message_html,
    plain_charts,
    require,
    slow_to_count,
)
from rummykit.widgets.plain import convergence_svg, odds_lines_svg, shoe_words
from rummykit.widgets.shoe import ShoeControls
from rummykit.widgets.table import TablePanel

__all__ = ["OddsExplorer", "SimulationExplorer"]


#: Hands dealt per simulated point of the OddsExplorer chart (where counting is slow).
NEIGHBOUR_HANDS = 20_000
#: A shoe's points of the chart are counted exactly when its sweep is planned to take at
#: most this many seconds (one sweep serves every hand size); the rest are simulated.
NEIGHBOUR_EXACT_SECONDS = 3.0
#: Where nothing can count (no numpy: a browser's Python), hands dealt with the standard
#: library for the chosen hand's estimate when the tables do not hold it (about a second
#: in a browser).
PLAIN_HANDS = 10_000
#: ... and for each point of the chart the tables do not hold.
PLAIN_NEIGHBOUR_HANDS = 1_000
#: The most hands the SimulationExplorer deals where only the standard library deals
#: (about a minute in a browser's Python): more is refused with a message, not dealt.
PLAIN_MAX_HANDS = 200_000
#: The numbers of hands the SimulationExplorer's Hands box accepts (fewest, most): a
#: number outside is named in a message and nothing is dealt (never changed behind the
#: reader's back). Ten million hands take about a minute with numpy.
HANDS = (10, 10_000_000)


class OddsExplorer:
    """The exact chance of being dealt a contract, and how it moves with the hand size.

    Controls: preset, contract, decks, jokers, hand size. Shown: the exact probability as
    a fraction, a percentage and "1 in N", and a chart of the probability against hand
    size for each shoe of ``neighbour_decks`` decks (the preset's jokers), the shoe chosen
    included, with the chosen hand marked ("your hand"); the chance is on a log scale
    where it is small.

    With ``background`` (the default) nothing slow runs in a control's handler: the
    handler shows what is known at once (the committed tables of ``data/``, sweeps made
    before) and hands the rest to a thread, which stops when the controls move on. Until
    the thread is done the chart says "recomputing". Counts planned to take up to
    :data:`~rummykit.widgets._common.COUNT_UNASKED_SECONDS` run unasked, with a progress
    bar and a simulated estimate meanwhile; longer ones show a simulated estimate, the
    planned time and a "Count exactly" button. The chart counts each shoe whose sweep is
    quick and simulates the other points (:data:`NEIGHBOUR_HANDS` hands each). The first
    chart drawn in a process starts the charting engine (altair's import and vl-convert's
    start: 2 to 12 s, measured): meanwhile the handler draws the points known at once,
    plainly (:func:`~rummykit.widgets.plain.odds_lines_svg`), and the thread draws the
    engine's chart. With ``plain`` (the default where altair or polars is missing) every
    chart is drawn plainly and :attr:`frame` is a list of rows; where numpy is missing
    the odds the tables do not hold are estimated with the standard library (see the
    module).

    >>> explorer = OddsExplorer(background=False, neighbour_decks=(1,))
    >>> explorer.probability
    Fraction(2412345575, 27078894567)
    >>> "2412345575/27078894567 = 8.9% (1 in 11)" in explorer.result_html.value
    True
    """

    def __init__(
        self,
        rules: str = "standard",
        *,
        round: int = 1,
        decks: int | None = None,
        jokers: int | None = None,
        neighbour_decks: Sequence[int] = (1, 2, 3),
        background: bool = True,
        plain: bool | None = None,
    ) -> None:
        self.controls = ShoeControls(rules, round=round, decks=decks, jokers=jokers)
        self.neighbour_decks = tuple(neighbour_decks)
        self.background = background and CAN_THREAD
        self.plain = plain_charts() if plain is None else bool(plain)
        """Whether the charts are drawn plainly, without altair (see the module)."""
        self.probability: Fraction | None = None
        self.estimate_text: str | None = None
        """A simulated estimate, shown where an exact count would be slow, else None."""
        self.frame = None
        """The chart's data: a long-form polars frame, one row per shoe and hand size
        (``method`` says which points are simulated), or with :attr:`plain` the list of
        its rows (dicts); set once every point is in."""
        self.pending = 0
        """Points of the chart shown still to compute (0 once the chart is complete)."""
        self._thread: threading.Thread | None = None
        self.result_html = ipywidgets.HTML()
        self.chart_html = ipywidgets.HTML()
        for control in self.controls.box.children:
            for child in getattr(control, "children", (control,)):
                child.observe(lambda _: self.update(), "value")
        self.count_progress = CountProgress()
        """Shown while an exact count runs (contracts mixing sets and runs take a while)."""
        self.estimate_progress = CountProgress("Dealt")
        """Shown while hands are dealt for an estimate with the standard library."""
        self._asked: tuple | None = None  # the settings "Count exactly" was pressed for
        self._updated: tuple | None = None  # the settings (and asking) last shown
        self.count_progress.button.on_click(lambda _: self._count_asked())
        self.box = ipywidgets.VBox(
            [
                self.controls.box,
                self.result_html,
                self.count_progress.button,
                self.count_progress.widget,
                self.estimate_progress.widget,
                self.chart_html,
            ]
        )
        self.box.add_class("rk-odds-explorer")
        self.update()

    # Controls, as attributes tests and notebooks can set.
    @property
    def preset(self) -> ipywidgets.Dropdown:
        return self.controls.preset

    @property
    def round(self) -> ipywidgets.Dropdown:
        return self.controls.round

    @property
    def decks(self) -> ipywidgets.IntSlider:
        return self.controls.decks

    @property
    def jokers(self) -> ipywidgets.IntSlider:
        return self.controls.jokers

    @property
    def cards(self) -> ipywidgets.IntSlider:
        return self.controls.cards

    def update(self) -> None:
        """Show the odds for the controls' settings: what is known at once, the rest from
        a thread (or all of it here, counted exactly, without ``background``)."""
        key = self.controls.cell()
        # One control's move can move another (a round sets its hand size): each observer
        # calls here, but one settings' odds are shown once.
        state = (key, self._asked == key)
        if state == self._updated:
            return
        self._updated = state
        rows = self._known_rows(key)
        self.probability = None
        self.estimate_text = None
        if not self.background:
            self._work(key, rows, count=True)
            return
        known = known_probability(_cell(key))
        slow = False
        if known is not None:
            self.count_progress.button.layout.display = "none"
            self._show_probability(key, known)
        elif not can_count():
            self.count_progress.button.layout.display = "none"
            self.result_html.value = message_html(_estimating_text(key))
        else:
            slow = self._asked != key and slow_to_count(key)
            self.count_progress.button.layout.display = None if slow else "none"
            self.result_html.value = message_html(interim_text(key, slow=slow))
        # The charting engine's first drawing in a process takes seconds (altair's
        # import, vl-convert's start): then the thread draws, and the handler says so.
        drawn = self.plain or _common.engine_started()
        if drawn:
            self._draw(key, rows)
        else:  # meanwhile the points known (data/, sweeps made before), drawn plainly
            self._draw(key, rows, plainly=True)
        self._thread = threading.Thread(
            target=self._work,
            args=(key, rows),
            kwargs={"count": known is None and not slow, "estimate": slow, "draw": not drawn},
            name="rummykit-odds",
            daemon=True,
        )
        self._thread.start()

    def _count_asked(self) -> None:
        self._asked = self.controls.cell()
        self.update()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the work running in the background."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _show_probability(self, key: ExactCell, p: Fraction) -> None:
        self.probability = p
        self.result_html.value = message_html(chance_sentence(key, p))

    def _work(
        self, key: ExactCell, rows: dict, *, count: bool, estimate: bool = False, draw: bool = False
    ) -> None:
        """Draw the chart first (when ``draw``), count the chosen cell (when ``count``) or
        simulate it (when ``estimate``), then every point of the chart still missing,
        redrawing as each shoe is done; stop once the controls move on."""

        def stale() -> bool:
            return self.controls.cell() != key

        if draw:
            self._draw(key, rows)
        try:
            if estimate:
                text = estimate_text(key)
                if stale():
                    return
                self.estimate_text = text
                self.result_html.value = message_html(text)
            if count and can_count():
                p = self.count_progress.count(key, stale=stale if self.background else None)
                rows[_cell(key)] = exact_row(_cell(key), p)
                if stale():
                    return
                self._show_probability(key, p)
            elif count:
                self._estimate_plainly(key, rows, stale)
            for shoe in self._shoes(key):
                missing = [
                    cell for cell, row in rows.items() if row is None and cell_shoe(cell) == shoe
                ]
                if missing:
                    self._fill(missing, rows, stale)
                    if stale():
                        return
                    self._draw(key, rows)
        except Superseded:
            return
        if not stale():
            self.frame = self._frame(rows)
            self._draw(key, rows)

    def _shoes(self, key: ExactCell) -> list[tuple[int, int]]:
        shoes = {(d, key.rules.jokers_for(d)) for d in self.neighbour_decks if d != key.decks}
        return sorted(shoes | {(key.decks, key.jokers)})

    def _known_rows(self, key: ExactCell) -> dict:
        """``{cell: row}`` of the chart's points, None where not known without counting."""
        sizes = range(max(3, key.cards - 4), min(15, key.cards + 4) + 1)
        rows = {}
        for shoe_decks, shoe_jokers in self._shoes(key):
            for size in sizes:
                cell = dataclasses.replace(
                    _cell(key), decks=shoe_decks, jokers=shoe_jokers, cards=size
                )
                p = known_probability(cell)
                rows[cell] = None if p is None else exact_row(cell, p)
        return rows

    def _estimate_plainly(self, key: ExactCell, rows: dict, stale) -> None:
        """The chosen hand's odds where nothing can count: from the tables, else
        :data:`PLAIN_HANDS` hands dealt with the standard library (its own seed)."""
        cell = _cell(key)
        known = known_probability(cell)
        if known is not None:
            rows[cell] = exact_row(cell, known)
            self._show_probability(key, known)
            return
        self.result_html.value = message_html(_estimating_text(key))
        estimate = self._deal(cell, PLAIN_HANDS, stale, self.estimate_progress)
        rows[cell] = simulated_row(cell, estimate)
        if stale():
            return
        text = (
            f"Simulated from {estimate.n:,} hands: "
            f"{estimate_words(estimate.p, estimate.ci_low, estimate.ci_high)}. "
            f"{_not_in_tables('This shoe')}"
        )
        self.estimate_text = text
        self.result_html.value = message_html(text)

    def _deal(self, cell: ExactCell, hands: int, stale, bar: CountProgress | None) -> Estimate:
        """:func:`~rummykit.odds.estimate.estimate_dealt` of ``cell`` (seed
        :func:`~rummykit.odds.cells.cell_seed`), shown on ``bar``, stopped (raising
        :class:`~rummykit.widgets._common.Superseded`) once the controls move on."""

        def progress(done: int, total: int) -> None:
            if self.background and stale():
                raise Superseded
            if bar is not None:
                bar.report(done, total)

        try:
            return estimate_dealt(
                cell.contract,
                decks=cell.decks,
                jokers=cell.jokers,
                cards=cell.cards,
                rules=cell.rules,
                n=hands,
                seed=cell_seed(DEFAULT_SEED, cell),
                progress=progress,
            )
        finally:
            if bar is not None:
                bar.done()

    def _fill(self, missing: list, rows: dict, stale) -> None:
        """The missing points of one shoe, each asked of :func:`~rummykit.odds.answer.answer`
        with a budget of :data:`NEIGHBOUR_EXACT_SECONDS`: counted where the sweep is quick,
        else simulated (:data:`NEIGHBOUR_HANDS` hands, each point its own seed); where
        nothing can count, dealt with the standard library (:data:`PLAIN_NEIGHBOUR_HANDS`)."""
        progress = None if not self.background else _stop_when(stale)
        counting = can_count()
        # The largest hand first: a sweep counted for it serves every smaller one.
        for cell in sorted(missing, key=lambda cell: cell.cards, reverse=True):
            if self.background and stale():
                raise Superseded
            if not counting:
                rows[cell] = simulated_row(
                    cell, self._deal(cell, PLAIN_NEIGHBOUR_HANDS, stale, None)
                )
                continue
            found = answer(
                cell,
                NEIGHBOUR_EXACT_SECONDS,
                hands=NEIGHBOUR_HANDS,
                seed=cell_seed(DEFAULT_SEED, cell),
                progress=progress,
            )
            if found.exact:
                rows[cell] = exact_row(cell, found.value)
            else:
                rows[cell] = simulated_row(cell, found.estimate)

    def _frame(self, rows: dict):
        known = [row for row in rows.values() if row is not None]
        if not known:
            return None
        if self.plain:
            return sorted(known, key=lambda row: (row["decks"], row["jokers"], row["cards"]))
        from rummykit.odds.data.schemas import EXACT_SCHEMA, frame

        return frame(known, EXACT_SCHEMA).sort("decks", "jokers", "cards")

    def _draw(self, key: ExactCell, rows: dict, *, plainly: bool = False) -> None:
        """Draw the chart from the points known so far, saying what is still to come
        (unless the controls have moved on meanwhile); once every point is in and none
        can be drawn (every hand size shown is too small), say so instead. With
        ``plainly`` (or :attr:`plain`) without the charting engine."""
        pending = sum(row is None for row in rows.values())
        known = [row for row in rows.values() if row is not None]
        if not _drawable(known):
            shown = _drawing_html(key) if pending else _nothing_html(key, known)
        elif self.plain or plainly:
            shown = self._plain(key, known, pending)
        else:
            shown = figure_html(_common.chart_svg(self._chart(self._frame(rows), key, pending)))
        if key == self.controls.cell():
            self.pending = pending
            self.chart_html.value = shown

    def _plain(self, key: ExactCell, known: list[dict], pending: int) -> str:
        """The chart of the points ``known`` (``pending`` more to come), drawn without the
        charting engine (:func:`~rummykit.widgets.plain.odds_lines_svg`)."""
        notes = [f"{key.rules.name} rules"]
        if not self.plain:
            notes.append("the charting engine is starting")
        lines = ["; ".join(notes), *_chart_notes(key, known, pending)]
        title = f"Chance of being dealt {key.contract}, by hand size"
        return figure_html(odds_lines_svg(known, (key.decks, key.jokers, key.cards), title, lines))

    def _chart(self, frame, key: ExactCell, pending: int = 0):
        alt = require("altair")
        pl = require("polars")
        from rummykit.charts import (
            estimate_bars,
            odds_lines,
            shoe_label,
            wants_log,
            your_hand_mark,
        )

        frame = shoe_label(frame)
        log = wants_log(frame)
        rows = frame.to_dicts()
        notes = [f"{key.rules.name} rules; {'log' if log else 'linear'} scale"]
        notes += _chart_notes(key, rows, pending)
        style = {"color": "shoe", "color_title": "Shoe", "log": log}
        layers = [odds_lines(frame, facet=None, title="", **style)]
        if (frame["method"] == "simulation").any():
            layers.append(estimate_bars(frame, **style))
        chosen = frame.filter(
            (pl.col("decks") == key.decks)
            & (pl.col("jokers") == key.jokers)
            & (pl.col("cards") == key.cards)
        )
        if log:
            chosen = chosen.filter(pl.col("p") > 0)
        if chosen.height:
            layers.append(your_hand_mark(chosen))
        title = alt.TitleParams(
            f"Chance of being dealt {key.contract}, by hand size", subtitle=notes
        )
        return alt.layer(*layers).properties(width=420, height=240, title=title)

    def _ipython_display_(self) -> None:
        display_widget(
            self.box,
            "The odds explorer: choose the rules, the round, the shoe and the hand size to "
            "see the chance of being dealt the round's contract, and a chart of it by hand "
            "size. It needs a running Python kernel: run this cell to use it.",
        )


def _not_in_tables(what: str) -> str:
    """What a widget without numpy says of odds the tables do not hold (``what``)."""
    return (
        f"{what} is not in the tables that come with rummykit, and an exact count needs "
        "numpy: install rummykit on your computer to count it."
    )


def _estimating_text(key: ExactCell) -> str:
    return (
        f"The chance of being dealt {key.contract} in {key.cards} cards from "
        f"{key.shoe.words} is not in the tables that come with rummykit: dealing "
        f"{PLAIN_HANDS:,} hands to estimate it ..."
    )


def _drawing_html(key: ExactCell) -> str:
    """What the chart's place says until the chart is drawn."""
    return message_html(
        f"Drawing the chance of being dealt {key.contract} by hand size "
        f"({key.rules.name} rules) ..."
    )


def _drawable(rows: list[dict]) -> bool:
    """Whether a chart of ``rows`` shows something: a chance above 0, or an estimate
    (which shows at least its interval)."""
    return any(row["p"] > 0 or row["method"] == "simulation" for row in rows)


def _nothing_html(key: ExactCell, rows: list[dict]) -> str:
    """What the chart's place says once every point is in and each is exactly 0: why,
    and which hand size would show a chart."""
    sizes = sorted({row["cards"] for row in rows})
    needed = key.contract.min_cards(key.rules)
    span = f"{sizes[0]} to {sizes[-1]} cards" if len(sizes) > 1 else f"{sizes[0]} cards"
    if sizes[-1] < needed:
        why = (
            f"{impossible_reason(key.contract, key.rules, sizes[-1])}, more than any hand "
            f"size here ({span}): every chance is 0, so there is no chart to draw. Choose "
            f"a hand of {needed} cards or more to see one."
        )
    else:
        why = f"every chance here ({span}) is 0, so there is no chart to draw."
    return message_html(f"No chart: {why}")


def _chart_notes(key: ExactCell, rows: list[dict], pending: int) -> list[str]:
    """The lines under the odds chart's title, beside its rules and scale: which points
    are estimates (and from how many hands), which shoes have no chance above 0 at the
    sizes shown, whether "your hand" is such a point, and what is still to come."""
    notes = []
    simulated = [row["n"] for row in rows if row["method"] == "simulation"]
    if simulated:
        low, high = min(simulated), max(simulated)
        hands = f"{high:,} hands" if low == high else f"{low:,} to {high:,} hands"
        many = len(simulated) != 1
        notes.append(
            f"circles and bars: {len(simulated)} point{'s' if many else ''} simulated from "
            f"{hands}{' each' if many else ''}, with {'their' if many else 'its'} 95% "
            "interval; lines: exact"
        )
    sizes = sorted({row["cards"] for row in rows})
    needed = key.contract.min_cards(key.rules)
    if sizes and sizes[0] < needed <= sizes[-1]:
        notes.append(f"no hand under {needed} cards can hold {key.contract}")
    shoes = sorted({(row["decks"], row["jokers"]) for row in rows})
    never = [
        shoe
        for shoe in shoes
        if all(
            row["p"] == 0 and row["method"] != "simulation"
            for row in rows
            if (row["decks"], row["jokers"]) == shoe
        )
    ]
    if never:
        words = ", ".join(shoe_words(*shoe) for shoe in never)
        notes.append(f"impossible at every size shown: {words}")
    chosen = [
        row
        for row in rows
        if (row["decks"], row["jokers"], row["cards"]) == (key.decks, key.jokers, key.cards)
    ]
    if chosen and chosen[0]["p"] == 0 and chosen[0]["method"] != "simulation":
        reason = impossible_reason(key.contract, key.rules, key.cards)
        because = f", {reason}" if reason else ""
        notes.append(f"your hand ({key.cards} cards): impossible{because}")
    if pending:
        notes.append(f"recomputing {pending} point{'s' if pending != 1 else ''} ...")
    return notes


def _cell(key: ExactCell) -> ExactCell:
    """``key`` labelled with the round of its contract, as the tables' rows are."""
    return dataclasses.replace(key, round=round_of(key.rules, key.contract))


def cell_shoe(cell: ExactCell) -> tuple[int, int]:
    return cell.decks, cell.jokers


def _stop_when(stale):
    def progress(done: int, total: int) -> None:
        if stale():
            raise Superseded

    return progress


class SimulationExplorer:
    """Deal ``n`` hands, watch the running estimate and its 95% interval close in on the
    exact value.

    The hands are dealt in log-spaced steps by :func:`rummykit.odds.dealt.simulate.simulate_dealt`,
    each step from a seed drawn from ``seed``, so a run can be repeated. A progress bar
    counts the hands; after each step the chart (the estimate, its Wilson interval and the
    exact probability as a dashed line) is redrawn.

    "Run" hands the run to a thread (with ``background``, the default), so the notebook
    never waits on it. The exact value comes from the committed tables or a sweep made
    before when it can; else it is counted after the hands are dealt, unasked when the
    count is planned to take at most
    :data:`~rummykit.widgets._common.COUNT_UNASKED_SECONDS`, otherwise only once "Count
    exactly" is pressed. :meth:`run` does the same in the caller's thread.

    The Players control (:class:`~rummykit.widgets.table.TablePanel`, ``players``) shows
    how soon the contract is laid down at a table of that many players: the chance that a
    player has laid down by their t-th turn, with its 95% band, from
    ``data/completion_by_turn.parquet`` when it holds the table, else ``table_rounds``
    (default :data:`~rummykit.widgets.table.LIVE_ROUNDS`, without numpy
    :data:`~rummykit.widgets.table.PLAIN_LIVE_ROUNDS`)
    rounds played live in the background with a progress bar. Choosing the players (or,
    with players chosen, the preset) sets the decks and jokers to the preset's for that
    table, so the hands dealt are the table's; a count the preset does not allow shows its
    rule and changes nothing.

    With ``plain`` (the default where altair or polars is missing) the chart is drawn
    plainly and :attr:`frame` is a list of rows. Where numpy is missing the hands are
    dealt by :func:`~rummykit.odds.estimate.estimate_dealt` (the standard library: the
    same seed gives the same run there, not the hands numpy deals), at most
    :data:`PLAIN_MAX_HANDS` a run, and the exact value comes only from the tables.

    >>> explorer = SimulationExplorer(n=2000, steps=4, seed=1)
    >>> explorer.run_button.click()
    >>> explorer.wait()
    >>> explorer.progress.value == explorer.progress.max == 2000
    True
    >>> explorer.estimate.n, explorer.frame.height
    (2000, 4)
    """

    def __init__(
        self,
        rules: str = "standard",
        *,
        round: int = 1,
        decks: int | None = None,
        jokers: int | None = None,
        n: int = 20_000,
        steps: int = 12,
        seed: int = 0,
        exact: bool = True,
        players: int | None = None,
        table_rounds: int | None = None,
        background: bool = True,
        plain: bool | None = None,
    ) -> None:
        self.controls = ShoeControls(rules, round=round, decks=decks, jokers=jokers)
        self.background = background and CAN_THREAD
        self.plain = plain_charts() if plain is None else bool(plain)
        """Whether the chart is drawn plainly, without altair (see the module)."""
        self.table = TablePanel(
            self.controls,
            players=players,
            rounds=table_rounds,
            background=self.background,
            plain=self.plain,
        )
        """The Players control and completion by turn at that table."""
        low, high = HANDS
        whole("n", n, low=low, high=high)
        self.n = ipywidgets.IntText(
            value=n,
            step=1000,
            description="Hands",
            tooltip=f"hands to deal: {low:,} to {high:,}",
        )
        self.hands_range = ipywidgets.HTML(
            f'<span class="rk-range" style="color:#555">{low:,} to {high:,}</span>'
        )
        """The range the Hands box accepts, in words beside it."""
        self.steps = steps
        self.seed = ipywidgets.IntText(value=seed, description="Seed", tooltip="random seed")
        self.show_exact = ipywidgets.Checkbox(
            value=exact,
            description="Exact value",
            tooltip="count the exact probability and draw it as a line",
            indent=False,
        )
        self.run_button = ipywidgets.Button(
            description="Run", button_style="primary", tooltip="deal the hands", icon="play"
        )
        self.stop_button = ipywidgets.Button(
            description="Stop",
            tooltip="stop dealing: keep the estimate of the hands dealt so far",
            icon="stop",
            layout=ipywidgets.Layout(display="none", width="auto"),
        )
        """Shown while a run deals: stops it after the hands being dealt (within a batch)."""
        self._stop = threading.Event()
        self.stopped = False
        """Whether the last run was stopped (Stop) before all its hands were dealt."""
        self.progress = ipywidgets.IntProgress(
            value=0, min=0, max=n, description="Dealt", bar_style="info"
        )
        self.result_html = ipywidgets.HTML(message_html("Press Run to deal the hands."))
        self.chart_html = ipywidgets.HTML()
        self.count_progress = CountProgress()
        """The exact count's bar, and its "Count exactly" button where the count is slow."""
        self.estimate = None
        """The last :class:`~rummykit.odds.dealt.simulate.Estimate` (after all ``n`` hands)."""
        self.exact: Fraction | None = None
        self.exact_note: str | None = None
        """Why the exact value is not drawn yet (counting, or a slow count not asked for)."""
        self.frame = None
        """The running estimate: a polars frame with ``n``, ``p``, ``ci_low``, ``ci_high``
        (with :attr:`plain`, the list of those rows as dicts)."""
        self._run_thread: threading.Thread | None = None
        self._count_thread: threading.Thread | None = None
        self._shown: ExactCell | None = None  # the settings of the run shown
        self._estimates: list = []  # the running estimates of the run shown
        # Held while a result or the "press Run" line is written: a run's thread and the
        # controls' handler never interleave.
        self._show_lock = threading.RLock()
        self.drawn_plainly = False
        """Whether the chart shown was drawn plainly (:func:`~rummykit.widgets.plain.convergence_svg`), while the
        charting engine started."""
        self.run_button.on_click(lambda _: self.start())
        self.stop_button.on_click(lambda _: self.stop())
        self.count_progress.button.on_click(lambda _: self._count_asked())
        self.box = ipywidgets.VBox(
            [
                self.controls.box,
                ipywidgets.HBox([self.n, self.hands_range, self.seed]),
                ipywidgets.HBox([self.show_exact, self.run_button, self.stop_button]),
                self.progress,
                self.result_html,
                self.count_progress.button,
                self.count_progress.widget,
                self.chart_html,
                self.table.box,
            ]
        )
        self.box.add_class("rk-simulation-explorer")
        for control in (
            self.controls.preset,
            self.controls.round,
            self.controls.decks,
            self.controls.jokers,
            self.controls.cards,
        ):
            control.observe(lambda _: self._settings_changed(), "value")

    @property
    def stale(self) -> bool:
        """Whether the controls have moved on from the settings of the result last run
        (the result and its chart are then cleared until Run is pressed again)."""
        return self._shown is not None and self.controls.cell() != self._shown

    def _settings_changed(self) -> None:
        """The rules, the contract or the shoe changed: a result of other settings never
        stays under the new controls; back on the settings run, it is shown again."""
        if self._shown is None or self.controls.changing:
            return
        with self._show_lock:
            self._mark_stale()

    def _mark_stale(self) -> None:
        if not self.stale:
            if self.estimate is not None:
                asked = self.exact is None and "Count exactly" in (self.exact_note or "")
                self.count_progress.button.layout.display = None if asked else "none"
                self.progress.value = self.estimate.n
                self._show(self._shown.contract, self._shown.cards)
            return
        self.count_progress.button.layout.display = "none"
        self.result_html.value = message_html(
            f"Press Run for these settings. (The last run, {self._settings_words(self._shown)}, "
            "no longer matches the controls: its result is cleared.)"
        )
        self.chart_html.value = ""
        self.progress.value = 0  # the bar of a result cleared is not full

    @staticmethod
    def _settings_words(key: ExactCell) -> str:
        return f"{key.rules.name} rules, {key.contract} in {key.cards} cards from {key.shoe.words}"

    def checkpoints(self) -> list[int]:
        """The numbers of hands after which the chart is redrawn (log-spaced, ending at n)."""
        n = self.n.value
        first = min(n, 100)
        marks = {
            round(first * (n / first) ** (i / max(1, self.steps - 1))) for i in range(self.steps)
        }
        return sorted(marks | {n})

    def hands_problem(self) -> str | None:
        """Why the Hands box's number cannot be dealt, in words naming :data:`HANDS` (or,
        where only the standard library deals, :data:`PLAIN_MAX_HANDS`); None when it can.

        >>> explorer = SimulationExplorer()
        >>> explorer.n.value = 5
        >>> explorer.hands_problem()
        'Hands must be a whole number from 10 to 10,000,000, not 5: nothing was dealt.'
        """
        low, high = HANDS
        n = self.n.value
        if not low <= n <= high:
            return (
                f"Hands must be a whole number from {low:,} to {high:,}, not {n:,}: "
                "nothing was dealt."
            )
        if n > PLAIN_MAX_HANDS and not can_count():
            return (
                f"Hands: {n:,} is more than this Python deals by itself ({PLAIN_MAX_HANDS:,}: "
                "numpy is missing, as in a browser); nothing was dealt. Ask for fewer hands, "
                "or install rummykit on your computer for more."
            )
        return None

    def _refused(self) -> bool:
        """Show :meth:`hands_problem`'s words, if any: True when nothing may be dealt."""
        problem = self.hands_problem()
        if problem is not None:
            self.result_html.value = message_html(problem, "error")
        return problem is not None

    def stop(self) -> None:
        """What "Stop" does: the run stops after the batch of hands being dealt and shows
        the estimate of the hands dealt until then (a run not under way is not touched)."""
        self._stop.set()

    def start(self) -> None:
        """What "Run" does: :meth:`run` in a thread (here without ``background``)."""
        # Checked before the thread starts: a refused run leaves the Run button as it was.
        if self._refused():
            return
        if not self.background:
            self.run()
            return
        self.run_button.disabled = True  # one run at a time
        self._run_thread = threading.Thread(target=self.run, name="rummykit-simulation")
        self._run_thread.daemon = True
        self._run_thread.start()

    @property
    def players(self) -> ipywidgets.Dropdown:
        """The Players control (None: no table shown)."""
        return self.table.players

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a run, an exact count and a table running in the background."""
        for thread in (self._run_thread, self._count_thread):
            if thread is not None:
                thread.join(timeout)
        self.table.wait(timeout)

    def run(self) -> None:
        """Deal the hands step by step, updating the progress bar, estimate and chart;
        then the exact value, when it is known or quick to count (see the class)."""
        key = self.controls.cell()
        contract, cards = key.contract, key.cards
        if self._refused():
            return
        n = self.n.value
        counting = can_count()
        if counting:
            from rummykit.odds.dealt.simulate import simulate_dealt as deal
        else:
            deal = estimate_dealt
        self._shown = key
        self.exact, self.exact_note = None, None
        self.count_progress.button.layout.display = "none"
        if self.show_exact.value:
            self.exact = known_probability(_cell(key))
        seeds = random.Random(self.seed.value)
        self.progress.max, self.progress.value = n, 0
        self.run_button.disabled = True
        self._stop.clear()
        self.stop_button.layout.display = None
        rows: list = []
        self._estimates = rows
        done = successes = 0
        self.stopped = False

        def dealing(so_far: int, _total: int) -> None:
            if self._stop.is_set():
                raise Superseded
            self.progress.value = done + so_far

        try:
            for mark in self.checkpoints():
                try:
                    step = deal(
                        contract,
                        decks=key.decks,
                        jokers=key.jokers,
                        cards=cards,
                        rules=key.rules,
                        n=mark - done,
                        seed=seeds.getrandbits(63),
                        progress=dealing,
                    )
                except Superseded:
                    self.stopped = True
                    break
                done, successes = mark, successes + step.successes
                self.estimate = Estimate.from_counts(successes, done)
                rows.append(self.estimate)
                self.progress.value = done
                columns = ("n", "p", "ci_low", "ci_high")
                table = [{c: getattr(r, c) for c in columns} for r in rows]
                self.frame = table if self.plain else require("polars").DataFrame(table)
                self._show(contract, cards, plain=not rows[1:])
            if self.drawn_plainly and not self.plain and rows:  # one step: the engine's too
                self._show(contract, cards, plain=False)
        finally:
            self.run_button.disabled = False
            self.stop_button.layout.display = "none"
            self._stop.clear()
        if self.stopped:
            self.progress.value = done
            if not rows:
                self.estimate = None
                self._shown = None
                self.result_html.value = message_html(
                    "Stopped before the first hands were counted: nothing to show. "
                    "Press Run to deal again."
                )
                self.chart_html.value = ""
                return
            stopped = f"Stopped by you after {done:,} of {n:,} hands."
            self.exact_note = f"{self.exact_note} {stopped}" if self.exact_note else stopped
            self._show(contract, cards)
            return
        if self.show_exact.value and self.exact is None and not counting:
            self.exact_note = _not_in_tables("The exact value")
            self._show(contract, cards)
        elif self.show_exact.value and self.exact is None:
            seconds = count_seconds(key)
            if seconds > COUNT_UNASKED_SECONDS:
                self.exact_note = (
                    f"An exact count would take {duration_text(seconds)} on one core "
                    '(planned): press "Count exactly" to draw the exact value.'
                )
                self.count_progress.button.layout.display = None
                self._show(contract, cards)
            else:
                self._count_exact(key, seconds)

    def _count_asked(self) -> None:
        if self._shown is None:
            return
        self.count_progress.button.layout.display = "none"
        key = self._shown
        work = functools.partial(self._count_exact, key, count_seconds(key))
        if not self.background:
            work()
            return
        self._count_thread = threading.Thread(target=work, name="rummykit-odds", daemon=True)
        self._count_thread.start()

    def _count_exact(self, key: ExactCell, seconds: float) -> None:
        self.exact_note = f"Counting the exact value ({duration_text(seconds)} planned) ..."
        self._show(key.contract, key.cards)
        try:
            p = self.count_progress.count(key, stale=lambda: self._shown != key)
        except Superseded:
            return
        if self._shown == key:
            self.exact, self.exact_note = p, None
            self._show(key.contract, key.cards)

    def _show(self, contract: Contract, cards: int, *, plain: bool = True) -> None:
        """Show the estimate in words and its chart; the chart drawn plainly (``plain``)
        while the charting engine has not started. Nothing is shown once the controls
        have moved on (:attr:`stale`): a run finishing late never fills them."""
        with self._show_lock:
            if self.stale:
                self._mark_stale()
            else:
                self._show_result(contract, cards, plain)

    def _show_result(self, contract: Contract, cards: int, plain: bool) -> None:
        est = self.estimate
        words = estimate_words(est.p, est.ci_low, est.ci_high)
        if est.successes in (0, est.n):
            # "none of the hands (95%: up to 1 in 130)": the interval, after a sentence
            # saying none (or every one) held it, not "an estimate of none of the hands".
            held = "none" if est.successes == 0 else "every one"
            text = f"After {est.n:,} hands: {held} held {contract} ({words.partition(' (')[2]}."
        else:
            text = (
                f"After {est.n:,} hands: {est.successes:,} held {contract}, an estimate of {words}."
            )
        if self.exact is not None:
            reason = impossible_reason(contract, self._shown.rules, cards)
            text += f" The exact value is {exact_text(self.exact, reason=reason)}."
        elif self.exact_note:
            text += " " + self.exact_note
        self.result_html.value = message_html(text)
        exact = None if self.exact is None else float(self.exact)
        title = f"Chance of {contract} in {cards} cards: the estimate settles"
        self.drawn_plainly = self.plain or (plain and not _common.engine_started())
        if self.drawn_plainly:
            # The charting engine starts on the next drawing (seconds, the first time):
            # meanwhile this estimate is drawn plainly, at once.
            marks = self.checkpoints()
            self.chart_html.value = figure_html(
                convergence_svg(self._estimates, (marks[0], marks[-1]), exact, title)
            )
            return
        from rummykit.charts import convergence_chart

        chart = convergence_chart(self.frame, exact=exact, title=title)
        self.chart_html.value = figure_html(_common.chart_svg(chart))

    def _ipython_display_(self) -> None:
        display_widget(
            self.box,
            "The simulation explorer: deal many hands and watch the estimate of a "
            "contract's chance, with its 95% interval, close in on the exact value. It "
            "needs a running Python kernel: run this cell to use it.",
        )
