"""Every widget of rummykit.widgets driven headlessly through its common updates, timed.

Run from the repository root (a few minutes; no browser, no kernel):

    .venv/bin/python benchmarks/bench_widgets.py
    PYTHONPATH=. /work/main/.venv/bin/python benchmarks/bench_widgets.py   # another checkout

It prints where rummykit was imported from: the project's venv imports its own checkout.

Each update sets a control or clicks a button as a user would, then is timed three ways
(wall-clock seconds, since a user waits in wall time):

- ``returns``: until the handler returns (the kernel is busy until then);
- ``shown``: until the widget shows an answer for the new settings: a value or an
  estimate, and for the explorers a chart of the new settings (an old chart still up
  does not count; a new chart marked "recomputing" does; for a simulation, the first
  running estimate and its chart);
- ``settled``: until the work the widget handed to a thread is done as well.

The script ends with ``slowest update: X s``, the largest ``shown`` of every update the
user did not ask to be long (the goal is X <= 1.0 s), the OddsExplorer's first chart in
the process included (timed first, as in a fresh kernel); updates marked ``(asked)`` are
"Count exactly" presses for a count planned to take long, timed to their return only.
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

#: How often the widget is polled while its thread works.
POLL = 0.005
#: The longest wait for an update to be shown (then it is reported as this).
TIMEOUT = 600.0


def _threads(widget) -> list[threading.Thread]:
    return [
        thread
        for name in ("_thread", "_odds_thread", "_run_thread", "_count_thread")
        if isinstance(thread := getattr(widget, name, None), threading.Thread)
    ]


def _busy(widget) -> bool:
    return any(thread.is_alive() for thread in _threads(widget))


class Bench:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, float, float, float, bool]] = []
        self.stall = 0.0
        """The longest the main thread waited past its poll while a widget's thread ran:
        how long a kernel would be unable to answer (a compiled step holds the GIL)."""

    def _sleep(self) -> None:
        before = time.perf_counter()
        time.sleep(POLL)
        self.stall = max(self.stall, time.perf_counter() - before - POLL)

    def time(self, widget_name: str, update: str, action, shown=None, widget=None, asked=False):
        """Run ``action()``; ``shown()`` says when the widget shows the new settings."""
        started = time.perf_counter()
        result = action()
        returned = time.perf_counter() - started
        target = widget if widget is not None else result
        if asked:
            seen = settled = returned
        else:
            while shown is not None and not shown() and time.perf_counter() - started < TIMEOUT:
                self._sleep()
            seen = max(returned, time.perf_counter() - started)
            while target is not None and _busy(target) and time.perf_counter() - started < TIMEOUT:
                self._sleep()
            settled = max(seen, time.perf_counter() - started)
        self.rows.append((widget_name, update, returned, seen, settled, asked))
        flag = "  (asked)" if asked else ""
        print(
            f"{widget_name:<18} {update:<52} {returned:8.3f} {seen:8.3f} {settled:8.3f}{flag}",
            flush=True,
        )
        return result


#: Words that show a widget has a chance on screen (rummykit.chance's forms).
VALUED = ("%", "1 in ", "impossible", "certain")


def _chart_changed(explorer, before: str):
    """The explorer shows a value or estimate and a chart other than ``before``."""

    def shown() -> bool:
        result, chart = explorer.result_html.value, explorer.chart_html.value
        valued = any(word in result for word in VALUED)
        answered = valued and "<svg" in chart
        return answered and (chart != before or not _busy(explorer))

    return shown


def odds_explorer(bench: Bench, OddsExplorer) -> None:
    name = "OddsExplorer"
    made = []

    def first_chart() -> bool:
        # The first chart of the process is up: the value and a chart (drawn plainly
        # while the charting engine starts, then the engine's).
        return bool(made) and _chart_changed(made[0], "")()

    explorer = bench.time(
        name,
        "start: standard round 1, its first chart",
        lambda: made.append(OddsExplorer()) or made[0],
        first_chart,
    )
    explorer.wait()
    steps = [
        ("round 2 (1 set + 1 run)", lambda: setattr(explorer.round, "value", 2)),
        ("round 6 (1 set + 2 runs)", lambda: setattr(explorer.round, "value", 6)),
        ("decks 1", lambda: setattr(explorer.decks, "value", 1)),
        ("decks 3", lambda: setattr(explorer.decks, "value", 3)),
        ("jokers 8", lambda: setattr(explorer.jokers, "value", 8)),
        ("hand size 14", lambda: setattr(explorer.cards, "value", 14)),
        ("hand size 15 (76 s to count)", lambda: setattr(explorer.cards, "value", 15)),
        ("round 5 (2 sets + 1 run)", lambda: setattr(explorer.round, "value", 5)),
        ("preset pagat", lambda: setattr(explorer.preset, "value", "pagat")),
        ("round 2", lambda: setattr(explorer.round, "value", 2)),
        ("decks 3, jokers 8, hand size 15 (about 4 s)", lambda: _pagat_15(explorer)),
        ("preset wikipedia", lambda: setattr(explorer.preset, "value", "wikipedia")),
        ("preset family", lambda: setattr(explorer.preset, "value", "family")),
        ("round 4 (3 sets)", lambda: setattr(explorer.round, "value", 4)),
    ]
    for update, action in steps:
        before = explorer.chart_html.value
        bench.time(name, update, action, _chart_changed(explorer, before), explorer)
    explorer.round.value = 6
    explorer.decks.value = 3
    explorer.jokers.value = 8
    explorer.cards.value = 15
    explorer.wait()
    if explorer.count_progress.button.layout.display is None:
        bench.time(
            name,
            "Count exactly: family round 6, 3 decks, 8 jokers, 15 cards",
            explorer.count_progress.button.click,
            widget=explorer,
            asked=True,
        )


def _pagat_15(explorer) -> None:
    explorer.decks.value = 3
    explorer.jokers.value = 8
    explorer.cards.value = 15


def simulation_explorer(bench: Bench, SimulationExplorer) -> None:
    name = "SimulationExplorer"
    explorer = bench.time(name, "start: standard round 1", SimulationExplorer)

    def finished() -> bool:
        # The first running estimate is up (the rest of the hands are dealt meanwhile).
        return "After" in explorer.result_html.value and "<svg" in explorer.chart_html.value

    def run() -> None:
        explorer.result_html.value = explorer.chart_html.value = ""
        explorer.run_button.click()

    bench.time(name, "Run: 20,000 hands of round 1", run, finished, explorer)
    for update, action in [
        ("round 2 + Run", lambda: setattr(explorer.controls.round, "value", 2)),
        ("round 6, 3 decks, 8 jokers, 12 cards + Run", lambda: _shoe(explorer, 6, 3, 8, 12)),
        (
            "hand size 15 (76 s to count) + Run",
            lambda: setattr(explorer.controls.cards, "value", 15),
        ),
        ("preset pagat, round 2, 15 cards + Run", lambda: _pagat(explorer)),
    ]:

        def both(action=action) -> None:
            action()
            run()

        bench.time(name, update, both, finished, explorer)


def _shoe(explorer, round_: int, decks: int, jokers: int, cards: int) -> None:
    controls = explorer.controls
    controls.round.value = round_
    controls.decks.value = decks
    controls.jokers.value = jokers
    controls.cards.value = cards


def _pagat(explorer) -> None:
    explorer.controls.preset.value = "pagat"
    _shoe(explorer, 2, 3, 8, 15)


def deal_widget(bench: Bench, DealWidget) -> None:
    name = "DealWidget"
    widget = bench.time(name, "start", DealWidget)

    def odds_shown() -> bool:
        return any(word in widget.odds_html.value for word in VALUED)

    def deal() -> None:
        widget.odds_html.value = ""
        widget.deal_button.click()

    bench.time(name, "Deal (round 1)", deal, odds_shown, widget)
    for update, control, value in [
        ("round 6 + Deal", widget.round, 6),
        ("decks 3 + Deal", widget.decks, 3),
        ("jokers 8 + Deal", widget.jokers, 8),
        ("preset pagat + Deal", widget.preset, "pagat"),
        ("round 2 + Deal", widget.round, 2),
    ]:

        def both(control=control, value=value) -> None:
            control.value = value
            deal()

        bench.time(name, update, both, odds_shown, widget)


def meld_builder(bench: Bench, MeldBuilder) -> None:
    name = "MeldBuilder"
    builder = bench.time(name, "start", MeldBuilder)
    bench.time(name, "select 4 cards", lambda: builder.select("7H 8H JK 10H"))
    bench.time(name, "Check", builder.check_button.click)
    bench.time(name, "Deal 10", builder.deal_button.click)
    bench.time(name, "select 3 cards", lambda: _select_first(builder.picker, 3))
    bench.time(name, "Check", builder.check_button.click)
    bench.time(name, "preset pagat", lambda: setattr(builder.preset, "value", "pagat"))
    bench.time(name, "Clear", builder.clear_button.click)


def _select_first(picker, count: int) -> None:
    for button in picker.buttons[:count]:
        button.value = True


def play_widget(bench: Bench, PlayWidget, turns: int) -> None:
    name = "PlayWidget"
    widget = bench.time(name, "start: 3 bots, round 1", lambda: PlayWidget(seed=1))
    for turn in range(turns):
        if widget.finished:
            break
        if widget.draw_button.disabled:
            bench.time(name, f"turn {turn + 1}: Pass", widget.pass_button.click)
            continue
        bench.time(name, f"turn {turn + 1}: Draw from stock", widget.draw_button.click)
        if widget.state.phase == "play":
            bench.time(
                name,
                f"turn {turn + 1}: select a card",
                lambda: setattr(widget.hand.buttons[-1], "value", True),
            )
            bench.time(name, f"turn {turn + 1}: Discard (bots play)", widget.discard_button.click)
    bench.time(name, "preset family", lambda: setattr(widget.preset, "value", "family"))
    bench.time(name, "round 7 + New game", lambda: _new_round(widget, 7))
    bench.time(name, "7 bots + New game", lambda: _new_bots(widget, 7))


def _new_round(widget, number: int) -> None:
    widget.round.value = number
    widget.new_game_button.click()


def _new_bots(widget, bots: int) -> None:
    widget.bot_count.value = bots
    widget.new_game_button.click()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=6, help="PlayWidget turns to play")
    args = parser.parse_args()
    started = time.perf_counter()
    import rummykit
    from rummykit.widgets import (
        DealWidget,
        MeldBuilder,
        OddsExplorer,
        PlayWidget,
        SimulationExplorer,
    )

    print(f"rummykit from {Path(rummykit.__file__).parent}")
    print(f"import rummykit.widgets: {time.perf_counter() - started:.3f} s")
    print(f"{'widget':<18} {'update':<52} {'returns':>8} {'shown':>8} {'settled':>8}")
    bench = Bench()
    # The OddsExplorer first: its first chart is the process's first (altair's import and
    # vl-convert's start, seconds), as in a fresh kernel.
    odds_explorer(bench, OddsExplorer)
    meld_builder(bench, MeldBuilder)
    play_widget(bench, PlayWidget, args.turns)
    deal_widget(bench, DealWidget)
    simulation_explorer(bench, SimulationExplorer)
    timed = [row for row in bench.rows if not row[5]]
    worst = max(timed, key=lambda row: row[3])
    settled = max(timed, key=lambda row: row[4])
    asked = [row for row in bench.rows if row[5]]
    print(f"longest background work: {settled[4]:.2f} s ({settled[0]}: {settled[1]})")
    print(f"longest stall of the main thread while a widget's thread ran: {bench.stall:.2f} s")
    if asked:
        print("asked for explicitly (not in the figure below): " + "; ".join(r[1] for r in asked))
    print(f"slowest update: {worst[3]:.2f} s ({worst[0]}: {worst[1]})")


if __name__ == "__main__":
    main()
