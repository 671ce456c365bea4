"""OddsExplorer and SimulationExplorer: move a control, see the chance of a contract change.

Charts are altair specs turned into SVG by vl-convert in this process and shown inside
an ``ipywidgets.HTML``: they display offline, with no script from a CDN.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Sequence
from fractions import Fraction

from rummykit.rules import Contract, RuleSet
from rummykit.widgets._common import (
    CountProgress,
    figure_html,
    ipywidgets,
    message_html,
    preset_dropdown,
    require,
    round_options,
)
from rummykit.widgets.deal import describe_probability

__all__ = ["OddsExplorer", "SimulationExplorer", "chart_svg"]


def chart_svg(chart) -> str:
    """An altair chart as a standalone SVG string, drawn by vl-convert (no browser, no CDN)."""
    vl_convert = require("vl_convert")
    return vl_convert.vegalite_to_svg(chart.to_json())


class _ShoeControls:
    """Preset, contract (by round), decks, jokers and hand size: shared by both explorers."""

    def __init__(self, rules: str, round: int, decks: int | None, jokers: int | None) -> None:
        self.preset = preset_dropdown(rules)
        preset = RuleSet.preset(rules)
        self.round = ipywidgets.Dropdown(
            options=round_options(preset), value=round, description="Contract"
        )
        decks = preset.decks_for(min(4, preset.max_players)) if decks is None else decks
        self.decks = ipywidgets.IntSlider(
            value=decks, min=1, max=3, description="Decks", tooltip="52-card decks"
        )
        self.jokers = ipywidgets.IntSlider(
            value=preset.jokers_for(decks) if jokers is None else jokers,
            min=0,
            max=8,
            description="Jokers",
            tooltip="jokers in the shoe, in all",
        )
        self.cards = ipywidgets.IntSlider(
            value=preset.deal_sizes[round - 1],
            min=3,
            max=15,
            description="Hand size",
            tooltip="cards in the hand",
        )
        self.preset.observe(self._preset_changed, "value")
        self.decks.observe(self._decks_changed, "value")
        self.round.observe(self._round_changed, "value")
        self.box = ipywidgets.VBox(
            [
                ipywidgets.HBox([self.preset, self.round]),
                ipywidgets.HBox([self.decks, self.jokers]),
                self.cards,
            ]
        )

    @property
    def rules(self) -> RuleSet:
        return RuleSet.preset(self.preset.value)

    @property
    def contract(self) -> Contract:
        return self.rules.contracts[self.round.value - 1]

    def _preset_changed(self, change: dict) -> None:
        number = min(self.round.value, self.rules.rounds)
        self.round.options = round_options(self.rules)
        self.round.value = number
        self._round_changed(None)

    def _round_changed(self, change: dict | None) -> None:
        self.cards.value = self.rules.deal_sizes[self.round.value - 1]

    def _decks_changed(self, change: dict) -> None:
        with contextlib.suppress(ValueError):
            self.jokers.value = self.rules.jokers_for(self.decks.value)

    def key(self) -> tuple:
        return (self.rules, self.contract, self.decks.value, self.jokers.value, self.cards.value)


class OddsExplorer:
    """The exact chance of being dealt a contract, and how it moves with the hand size.

    Controls: preset, contract, decks, jokers, hand size. Shown: the exact probability as
    a fraction, a percentage and "1 in N" (where the count would take many minutes, a
    simulated estimate until "Count exactly" is pressed), and a chart of the probability against hand
    size for each shoe of ``neighbour_decks`` decks (the preset's jokers), the shoe chosen
    included, with the chosen hand marked.

    >>> explorer = OddsExplorer(background=False, neighbour_decks=(1,))
    >>> explorer.probability
    Fraction(2412345575, 27078894567)
    >>> "about 1 in 11" in explorer.result_html.value
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
    ) -> None:
        self.controls = _ShoeControls(rules, round, decks, jokers)
        self.neighbour_decks = tuple(neighbour_decks)
        self.background = background
        self.probability: Fraction | None = None
        self.estimate_text: str | None = None
        """A simulated estimate, shown where an exact count would be slow, else None."""
        self.frame = None
        """The chart's data: a long-form polars frame, one row per shoe and hand size."""
        self._thread: threading.Thread | None = None
        self.result_html = ipywidgets.HTML()
        self.chart_html = ipywidgets.HTML()
        for control in self.controls.box.children:
            for child in getattr(control, "children", (control,)):
                child.observe(lambda _: self.update(), "value")
        self.count_progress = CountProgress()
        """Shown while an exact count runs (contracts mixing sets and runs take a while)."""
        self._asked: tuple | None = None  # the settings "Count exactly" was pressed for
        self.count_progress.button.on_click(lambda _: self._count_asked())
        self.box = ipywidgets.VBox(
            [
                self.controls.box,
                self.result_html,
                self.count_progress.button,
                self.count_progress.widget,
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
        """Count the odds for the controls' settings and redraw (in a thread if ``background``)."""
        key = self.controls.key()
        if not self.background:
            self._count(key)
            return
        self.probability = None
        self.estimate_text = self.count_progress.estimate_instead(key, self._asked)
        shown = self.estimate_text or "Counting the exact odds ..."
        self.result_html.value = message_html(shown)
        work = self._count if self.estimate_text is None else self._draw
        self._thread = threading.Thread(target=work, args=(key,), name="rummykit-odds", daemon=True)
        self._thread.start()

    def _count_asked(self) -> None:
        self._asked = self.controls.key()
        self.update()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a count running in the background."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _count(self, key: tuple) -> None:
        rules, contract, decks, jokers, cards = key
        p = self.count_progress.count(*key)
        if key != self.controls.key():
            return  # the controls moved on: a newer count will show
        self.probability = p
        shoe = f"{decks} deck{'s' if decks != 1 else ''} and {jokers} joker{'s' if jokers != 1 else ''}"
        self.result_html.value = message_html(
            f"The chance of being dealt {contract} in {cards} cards from {shoe}: "
            f"{describe_probability(p)}."
        )
        self._draw(key)

    def _draw(self, key: tuple) -> None:
        self.chart_html.value = message_html("Drawing the neighbourhood ...")
        frame = self._neighbourhood(key)
        if key != self.controls.key():
            return
        self.frame = frame
        self.chart_html.value = figure_html(chart_svg(self._chart(frame, key)))

    def _neighbourhood(self, key: tuple):
        from rummykit.odds.tables import exact_odds

        rules, contract, decks, jokers, cards = key
        shoes = [(d, rules.jokers_for(d)) for d in self.neighbour_decks if d != decks]
        shoes = sorted([*shoes, (decks, jokers)])
        sizes = range(max(3, cards - 4), min(15, cards + 4) + 1)
        # Contracts mixing sets and runs take minutes to count on full shoes: their
        # neighbourhood is simulated (the chosen cell above is exact).
        return exact_odds(
            rules=rules,
            contracts=[contract],
            shoes=shoes,
            cards=sizes,
            method="auto",
            progress=False,
            max_workers=1,
        )

    def _chart(self, frame, key: tuple):
        alt = require("altair")
        pl = require("polars")
        from rummykit.charts import odds_lines, shoe_label

        rules, contract, decks, jokers, cards = key
        frame = shoe_label(frame)
        lines = odds_lines(
            frame,
            color="shoe",
            color_title="Shoe",
            facet=None,
            title=f"Chance of being dealt {contract}, by hand size",
        )
        chosen = frame.filter(
            (pl.col("decks") == decks) & (pl.col("jokers") == jokers) & (pl.col("cards") == cards)
        )
        mark = (
            alt.Chart(chosen)
            .mark_point(size=160, shape="diamond", filled=True, color="#d62728")
            .encode(x="cards:Q", y="p:Q")
        )
        return alt.layer(lines, mark).properties(width=420, height=240)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)


class SimulationExplorer:
    """Deal ``n`` hands, watch the running estimate and its 95% interval close in on the
    exact value.

    The hands are dealt in log-spaced steps by :func:`rummykit.odds.simulate.simulate_dealt`,
    each step from a seed drawn from ``seed``, so a run can be repeated. A progress bar
    counts the hands; after each step the chart (the estimate, its Wilson interval and the
    exact probability as a dashed line) is redrawn.

    >>> explorer = SimulationExplorer(n=2000, steps=4, seed=1)
    >>> explorer.run_button.click()
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
    ) -> None:
        self.controls = _ShoeControls(rules, round, decks, jokers)
        self.n = ipywidgets.BoundedIntText(
            value=n, min=10, max=10_000_000, step=1000, description="Hands", tooltip="deals"
        )
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
        self.progress = ipywidgets.IntProgress(
            value=0, min=0, max=n, description="Dealt", bar_style="info"
        )
        self.result_html = ipywidgets.HTML(message_html("Press Run to deal the hands."))
        self.chart_html = ipywidgets.HTML()
        self.estimate = None
        """The last :class:`~rummykit.odds.simulate.Estimate` (after all ``n`` hands)."""
        self.exact: Fraction | None = None
        self.frame = None
        """The running estimate: a polars frame with ``n``, ``p``, ``ci_low``, ``ci_high``."""
        self.run_button.on_click(lambda _: self.run())
        self.box = ipywidgets.VBox(
            [
                self.controls.box,
                ipywidgets.HBox([self.n, self.seed]),
                ipywidgets.HBox([self.show_exact, self.run_button]),
                self.progress,
                self.result_html,
                self.chart_html,
            ]
        )
        self.box.add_class("rk-simulation-explorer")

    def checkpoints(self) -> list[int]:
        """The numbers of hands after which the chart is redrawn (log-spaced, ending at n)."""
        n = self.n.value
        first = min(n, 100)
        marks = {
            round(first * (n / first) ** (i / max(1, self.steps - 1))) for i in range(self.steps)
        }
        return sorted(marks | {n})

    def run(self) -> None:
        """Deal the hands step by step, updating the progress bar, estimate and chart."""
        from rummykit.odds import dealt_probability
        from rummykit.odds.simulate import Estimate, simulate_dealt

        pl = require("polars")
        rules, contract, decks, jokers, cards = self.controls.key()
        n = self.n.value
        self.exact = None
        if self.show_exact.value:
            self.result_html.value = message_html("Counting the exact value first ...")
            self.exact = dealt_probability(
                contract, decks=decks, jokers=jokers, cards=cards, rules=rules
            )
        seeds = random.Random(self.seed.value)
        self.progress.max, self.progress.value = n, 0
        self.run_button.disabled = True
        rows: list = []
        done = successes = 0
        try:
            for mark in self.checkpoints():
                step = simulate_dealt(
                    contract,
                    decks=decks,
                    jokers=jokers,
                    cards=cards,
                    rules=rules,
                    n=mark - done,
                    seed=seeds.getrandbits(63),
                )
                done, successes = mark, successes + step.successes
                self.estimate = Estimate.from_counts(successes, done)
                rows.append(self.estimate)
                self.progress.value = done
                self.frame = pl.DataFrame(
                    {
                        "n": [r.n for r in rows],
                        "p": [r.p for r in rows],
                        "ci_low": [r.ci_low for r in rows],
                        "ci_high": [r.ci_high for r in rows],
                    }
                )
                self._show(contract, cards)
        finally:
            self.run_button.disabled = False

    def _show(self, contract: Contract, cards: int) -> None:
        from rummykit.charts import convergence_chart

        est = self.estimate
        text = (
            f"After {est.n:,} hands: {est.successes:,} held {contract}, an estimate of "
            f"{est.p:.2%} (95% interval {est.ci_low:.2%} to {est.ci_high:.2%})."
        )
        if self.exact is not None:
            text += f" The exact value is {float(self.exact):.2%}."
        self.result_html.value = message_html(text)
        exact = None if self.exact is None else float(self.exact)
        chart = convergence_chart(
            self.frame,
            exact=exact,
            title=f"Chance of {contract} in {cards} cards: the estimate settles",
        )
        self.chart_html.value = figure_html(chart_svg(chart))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
