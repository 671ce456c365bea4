"""ReviewPanel: a review of the human seat's play, inside the PlayWidget.

The panel reviews the decisions a seat has made so far (:func:`rummykit.evaluate.reviews.review`:
every decision with a choice, each alternative weighed on the same sampled deals from
the seat's own view, never from the hidden cards). It lists them in order with their
classes, jumps to the next inaccuracy or worse, and shows for the decision selected the
position as the seat saw it, every alternative's value with its interval, and the
verdict in words.

The summary counts the decisions by type (buy, take or draw, lay down, lay off, discard:
:meth:`rummykit.evaluate.reviews.Review.mistakes_by_type`), with the share of each classed
inaccuracy or worse and mistake or worse. **Beside the bots** (a button, as it costs
3 to 4 times the review's time) replays each round the seat played from its deal with
GreedyBot, OutsBot and SearchBot in the seat and reviews them the same way
(:func:`rummykit.evaluate.beside.beside_bots`), so the learner sees their accuracy beside the
bots' on the same deals.

The review runs in a thread with a progress bar (in the reader's browser, where threads
cannot start, in the button's handler). It reviews a snapshot of the game taken when
Review is pressed; if the game moves on before it is done (a move, a new game, a load),
the work is dropped and the panel says so, so a review on screen is always of the game
as it stands. Beside the bots runs the same way, on the snapshot the review on screen was
made from (refused if the game has moved on since), and is dropped likewise.

Under the review, :attr:`ReviewPanel.retry` (a :class:`~rummykit.widgets.retry.RetryPanel`)
keeps the review's mistakes and blunders as puzzles in a file the learner names, and
lets them try those positions again, in this session or a later one.

>>> from rummykit.agents.bots import GreedyBot
>>> from rummykit.engine.game import Game, play_game
>>> state = play_game(Game("standard", players=2, seed=3, turn_limit=6).new_state(),
...                   [GreedyBot(), GreedyBot()])
>>> panel = ReviewPanel(lambda: state, budget=4, background=False)
>>> panel.review_button.click()
>>> panel.review.seat, len(panel.decisions.options) == len(panel.review.verdicts) > 0
(0, True)
>>> "You" in panel.detail_html.value and "<svg" in panel.detail_html.value
True
"""

from __future__ import annotations

import asyncio
import html
import threading
from collections.abc import Callable

from rummykit import _native, svg
from rummykit.chance import estimate_text
from rummykit.engine.checks import whole
from rummykit.engine.game import GameState
from rummykit.errors import ArgumentTypeError, RummyError
from rummykit.evaluate.beside import BesideBots, beside_bots
from rummykit.evaluate.review_words import action_words as action_text
from rummykit.evaluate.reviews import (
    CLASSES,
    MARKS,
    MARKS_LEGEND,
    MAX_BUDGET,
    THRESHOLDS,
    Review,
    Verdict,
    class_count_words,
    points_words,
    review,
    review_steps,
)
from rummykit.widgets._common import (
    CAN_THREAD,
    Superseded,
    figure_html,
    ipywidgets,
    message_html,
)
from rummykit.widgets.retry import RetryPanel

__all__ = [
    "ENGINE_BUDGET",
    "MARKS",
    "REVIEW_BUDGET",
    "ReviewPanel",
    "action_text",
    "default_budget",
]

#: Samples a decision by default: half :func:`~rummykit.evaluate.reviews.review`'s own default, for
#: a panel that answers in seconds (``benchmarks/bench_review.py``: about 0.15 s a decision
#: on one core, so a round's 20-40 decisions take a few seconds; at this budget the review
#: called 0 to 2 of 345 plain moves a mistake or a blunder,
#: ``benchmarks/bench_review_calibration.py``) ...
REVIEW_BUDGET = 128
#: ... or this many where the compiled round simulator is not built (the reader's
#: browser): the engine plays the samples out, about 40 times slower.
ENGINE_BUDGET = 16


def default_budget() -> int:
    """The samples a decision a panel weighs unless told: :data:`REVIEW_BUDGET` with the
    compiled core, else :data:`ENGINE_BUDGET`."""
    return REVIEW_BUDGET if _native.available()["table"] else ENGINE_BUDGET


#: The classes "Next mistake" stops at: inaccuracy, mistake and blunder.
_MARKED = CLASSES[2:]


class _Cancelled(Exception):
    """Raised inside a review whose Cancel was pressed: it stops between two decisions
    (or two rounds, for Beside the bots), ``done`` of ``total`` of them made."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"cancelled after {done} of {total}")
        self.done, self.total = done, total


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop a stepwise review runs on: the one running, or in a browser's Python
    the page's own (always turning); None where there is neither."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if CAN_THREAD:
        return None
    return asyncio.get_event_loop()


def _key(state: GameState | None) -> tuple | None:
    """What a review is of: the game and how far it has gone."""
    return None if state is None else (id(state), len(state.history), len(state.results))


class ReviewPanel:
    """A review of ``seat``'s decisions in the game ``source()`` returns (see the module
    notes): ``budget`` samples a decision (default :func:`default_budget`), seeded by
    ``seed``; in a thread unless ``background`` is False (or threads cannot start).
    ``lock``, if given, is held while the game is copied (the lock its moves are applied
    under). ``others``: who plays the other seats in the replays of Beside the bots
    (:func:`~rummykit.evaluate.beside.beside_bots`' ``others``), or a callable giving it when the
    button is pressed."""

    def __init__(
        self,
        source: Callable[[], GameState | None],
        seat: int = 0,
        *,
        budget: int | None = None,
        seed: int = 0,
        background: bool = True,
        lock: threading.RLock | None = None,
        others: object = "GreedyBot",
    ) -> None:
        if not callable(source):
            raise ArgumentTypeError(f"source must be a callable returning the game, got {source!r}")
        whole("seat", seat, low=0)
        budget = default_budget() if budget is None else budget
        whole("budget", budget, low=1, high=MAX_BUDGET)
        whole("seed", seed, low=0)
        self.source = source
        self.seat = seat
        self.budget = budget
        self.seed = seed
        self.background = background and CAN_THREAD
        # A browser's Python has no threads: there the review runs a decision at a time
        # on the page's event loop, so that Cancel is heard between two decisions.
        self.stepwise = background and not CAN_THREAD
        self.others = others
        self.review: Review | None = None
        """The review on screen, or None."""
        self.beside: BesideBots | None = None
        """The accuracy beside the bots on screen (of the review on screen), or None."""
        self._made_from: tuple[tuple | None, str] | None = None  # the review's game: key, save
        self.error: str | None = None
        """The error a review stopped with, if one did."""
        # Held while the game is copied (the PlayWidget's bots apply moves under it).
        self._game_lock = lock if lock is not None else threading.RLock()
        self._lock = threading.RLock()
        self._generation = 0
        self._worker: threading.Thread | None = None
        self._task: asyncio.Future | None = None  # the stepwise review, in a browser
        self._cancelled = -1  # the generation whose Cancel was pressed

        self.review_button = ipywidgets.Button(
            description="Review my play",
            tooltip="weigh each of your decisions so far against the choices you had",
            icon="search",
        )
        self.next_button = ipywidgets.Button(
            description="Next mistake",
            tooltip="the next decision classed inaccuracy, mistake or blunder",
            disabled=True,
        )
        self.beside_button = ipywidgets.Button(
            description="Beside the bots",
            tooltip="replay each of your rounds from its deal with GreedyBot, OutsBot and "
            "SearchBot in your seat, reviewed the same way (3 to 4 times the review's time)",
            icon="users",
            disabled=True,
        )
        self.cancel_button = ipywidgets.Button(
            description="Cancel",
            tooltip="stop the review (or Beside the bots) at its next decision",
            icon="stop",
            button_style="warning",
        )
        self.cancel_button.layout.display = "none"
        self.progress = ipywidgets.IntProgress(
            value=0, min=0, max=1, description="Reviewing", bar_style="info"
        )
        self.progress.layout.display = "none"
        self.summary_html = ipywidgets.HTML()
        """The review's counts, accuracy and loss, and the mistakes by decision type."""
        self.beside_html = ipywidgets.HTML()
        """The accuracy beside the bots, once Beside the bots has run."""
        self.story_html = ipywidgets.HTML()
        """Each finished round's story (:class:`~rummykit.evaluate.stories.Story`), the latest
        first: the expected standing decision by decision, decisions and luck."""
        self.decisions = ipywidgets.Select(
            options=[], rows=8, description="Decisions", layout={"width": "95%"}
        )
        self.detail_html = ipywidgets.HTML()
        self.retry = RetryPanel(lambda: self.review)
        """The review's mistakes kept as puzzles, to try again (:mod:`~.widgets.retry`)."""
        self.review_button.on_click(lambda _: self.start())
        self.next_button.on_click(lambda _: self.next_mistake())
        self.beside_button.on_click(lambda _: self.start_beside())
        self.cancel_button.on_click(lambda _: self.cancel())
        self.decisions.observe(lambda _: self._show_detail(), "value")
        thresholds = ", ".join(f"{k} {v:g}" for k, v in THRESHOLDS.items())
        heading = ipywidgets.HTML(
            "<strong>Review</strong>: each of your decisions weighed against every choice "
            f"you had, on {budget} sampled deals from what you could see: the best chosen on "
            "half of them and the loss measured on the other half (a loss in points at the "
            f"round's end: {thresholds} or more, only where its 95% interval lies past it).<br>"
            + html.escape(MARKS_LEGEND)
        )
        self.box = ipywidgets.VBox(
            [
                heading,
                ipywidgets.HBox(
                    [self.review_button, self.next_button, self.beside_button],
                    layout={"flex_flow": "row wrap"},
                ),
                ipywidgets.HBox([self.progress, self.cancel_button]),
                self.summary_html,
                self.beside_html,
                self.story_html,
                self.decisions,
                self.detail_html,
                self.retry.box,
            ]
        )
        self.box.add_class("rk-review")

    # ------------------------------------------------------------------ acting
    def start(self) -> None:
        """Review the seat's decisions so far (in the background unless told not to)."""
        with self._game_lock:
            state = self.source()
            key = _key(state)
            save = None if state is None else state.save()
        with self._lock:
            self._generation += 1
            generation = self._generation
        self._clear()
        if save is None:
            self.summary_html.value = message_html("No game to review yet.", "error")
            return
        self._running(True)
        self.summary_html.value = message_html("Reviewing your decisions so far ...")
        loop = _event_loop() if self.stepwise else None
        if loop is not None:
            self._task = asyncio.ensure_future(self._run_stepwise(generation, key, save), loop=loop)
            return
        if not self.background:
            self._run(generation, key, save)
            return
        self._worker = threading.Thread(
            target=self._run, args=(generation, key, save), name="rummykit-review", daemon=True
        )
        self._worker.start()

    def reset(self) -> None:
        """A new game: drop the review on screen and any review running."""
        with self._lock:
            self._generation += 1
        self._clear()
        self._running(False)
        self.summary_html.value = ""

    def cancel(self) -> None:
        """Stop the review (or Beside the bots) running at its next decision (round), and
        say how far it got; nothing running, nothing happens."""
        with self._lock:
            if self.cancel_button.layout.display == "none":
                return
            self._cancelled = self._generation
        self.cancel_button.disabled = True
        self.cancel_button.description = "Cancelling ..."

    def stop(self, timeout: float | None = 5.0) -> None:
        """Abandon a review running, and wait for its thread to end."""
        with self._lock:
            self._generation += 1
            worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join(timeout)
        self._running(False)
        self.beside_button.disabled = self.review is None or not self.review.verdicts

    def start_beside(self) -> None:
        """Set the review on screen beside the bots' play of the same seat on the same
        deals (in the background unless told not to; see the module notes)."""
        with self._game_lock:
            key = _key(self.source())
            others = self.others() if callable(self.others) else self.others
        with self._lock:
            shown, made_from = self.review, self._made_from
            if shown is None or made_from is None:
                self.beside_html.value = message_html(
                    "Review your play first: Beside the bots sets that review beside theirs."
                )
                return
            if made_from[0] != key:
                self.beside_html.value = message_html(
                    "The game moved on since this review: press Review my play again, then "
                    "Beside the bots.",
                    "info",
                )
                return
            self._generation += 1
            generation = self._generation
        self.beside = None
        self._running(True)
        self.beside_html.value = message_html(
            "Replaying your rounds with the bots in your seat, and reviewing them ..."
        )
        self.beside_button.disabled = True
        args = (generation, key, made_from[1], shown, others)
        if not self.background:
            self._run_beside(*args)
            return
        self._worker = threading.Thread(
            target=self._run_beside, args=args, name="rummykit-beside", daemon=True
        )
        self._worker.start()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a review running in a thread (for scripts and tests; a stepwise one is
        awaited: :attr:`task`)."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)

    @property
    def task(self) -> asyncio.Future | None:
        """The stepwise review last started on the event loop (in a browser), or None."""
        return self._task

    def next_mistake(self) -> Verdict | None:
        """Select the next decision classed inaccuracy or worse after the one selected
        (from the first, past the last); None, and a message, if there is none."""
        if self.review is None:
            return None
        verdicts = self.review.verdicts
        start = -1 if self.decisions.value is None else self.decisions.value
        for step in range(1, len(verdicts) + 1):
            index = (start + step) % len(verdicts)
            if verdicts[index].kind in _MARKED:
                self.decisions.value = index
                return verdicts[index]
        self.detail_html.value = message_html(
            "No decision of this review is an inaccuracy, a mistake or a blunder."
        )
        return None

    @property
    def selected(self) -> Verdict | None:
        """The decision selected, or None."""
        if self.review is None or self.decisions.value is None:
            return None
        return self.review.verdicts[self.decisions.value]

    # ------------------------------------------------------------------ the work
    def _current(self, generation: int, key: tuple | None) -> bool:
        with self._game_lock:
            moved = _key(self.source()) != key
        return generation == self._generation and not moved

    def _progress(self, generation: int, key: tuple | None) -> Callable[[int, int], None]:
        """The progress of a review or a comparison: the bar moved, and a stop where Cancel
        was pressed (not after the last step: that work is done) or the game moved on."""

        def progress(done: int, total: int) -> None:
            if self._cancelled == generation and done < total:
                raise _Cancelled(done, total)
            if not self._current(generation, key):
                raise Superseded
            self.progress.max, self.progress.value = max(total, 1), done

        return progress

    def _run(self, generation: int, key: tuple | None, save: str) -> None:
        result = failure = None
        try:
            result = review(
                save, self.seat, budget=self.budget, seed=self.seed,
                progress=self._progress(generation, key),
            )  # fmt: skip
        except Exception as error:  # shown in the panel, never lost in the thread
            failure = error
        self._settle(generation, key, save, result, failure)

    async def _run_stepwise(self, generation: int, key: tuple | None, save: str) -> None:
        progress = self._progress(generation, key)
        result = failure = None
        try:
            steps = review_steps(save, self.seat, budget=self.budget, seed=self.seed)
            for done, total, result in steps:  # noqa: B007 - the last step's is the review
                if total:
                    progress(done, total)
                await asyncio.sleep(0.01)  # the page's events (Cancel among them) run here
        except Exception as error:  # shown in the panel
            result, failure = None, error
        self._settle(generation, key, save, result, failure)

    def _settle(
        self,
        generation: int,
        key: tuple | None,
        save: str,
        result: Review | None,
        failure: Exception | None,
    ) -> None:
        """Show how a review ended: done, cancelled, dropped (the game moved on), refused
        or stopped by an error."""
        if isinstance(failure, _Cancelled):
            self._finish(
                generation,
                None,
                f"Review cancelled after {failure.done} of {failure.total} decisions: press "
                "Review my play to start again.",
                kind="info",
            )
            return
        if isinstance(failure, RummyError):
            self._finish(generation, None, f"The review was refused: {failure}")
            return
        if failure is not None and not isinstance(failure, Superseded):
            self._finish(generation, None, f"The review stopped with an error: "
                         f"{type(failure).__name__}: {failure}")  # fmt: skip
            return
        if result is None or not self._current(generation, key):
            self._finish(
                generation,
                None,
                "The game moved on while the review ran, so it was dropped: press Review "
                "my play again for the decisions so far.",
                kind="info",
            )
            return
        self._finish(generation, result, None, made_from=(key, save))

    def _run_beside(
        self, generation: int, key: tuple | None, save: str, shown: Review, others: object
    ) -> None:
        try:
            result = beside_bots(
                save, self.seat, others=others, budget=self.budget, seed=self.seed, own=shown,
                progress=self._progress(generation, key),
            )  # fmt: skip
        except _Cancelled as stop:
            self._finish_beside(
                generation,
                None,
                f"Beside the bots cancelled after {stop.done} of {stop.total} rounds: the "
                "review above stands; press Beside the bots to start again.",
                kind="info",
            )
            return
        except Superseded:
            result = None
        except RummyError as error:
            self._finish_beside(generation, None, f"Beside the bots was refused: {error}")
            return
        except Exception as error:  # shown in the panel, never lost in the thread
            self._finish_beside(generation, None, f"Beside the bots stopped with an error: "
                                f"{type(error).__name__}: {error}")  # fmt: skip
            return
        if result is None or not self._current(generation, key):
            self._finish_beside(
                generation,
                None,
                "The game moved on while the bots replayed your rounds, so the comparison "
                "was dropped: press Review my play again, then Beside the bots.",
                kind="info",
            )
            return
        self._finish_beside(generation, result, None)

    def _finish_beside(
        self,
        generation: int,
        result: BesideBots | None,
        error: str | None,
        *,
        kind: str = "error",
    ) -> None:
        with self._lock:
            if generation != self._generation:
                return  # a newer review, or a reset: this one says nothing
            self._running(False)
            self.beside_button.disabled = self.review is None or not self.review.verdicts
            if result is None:
                self.error = None if kind == "info" else error
                self.beside_html.value = message_html(error, kind)
                return
            self.error = None
            self.beside = result
            self.beside_html.value = result._repr_html_()

    def _finish(
        self,
        generation: int,
        result: Review | None,
        error: str | None,
        *,
        kind: str = "error",
        made_from: tuple[tuple | None, str] | None = None,
    ) -> None:
        with self._lock:
            if generation != self._generation:
                return  # a newer review, or a reset: this one says nothing
            self._running(False)
            if result is None:
                self.error = None if kind == "info" else error
                self.summary_html.value = message_html(error, kind)
                return
            self.error = None
            self.review = result
            self._made_from = made_from
            self.beside_button.disabled = not result.verdicts
            self.summary_html.value = self._summary(result)
            stories = [result.story(number) for number, _ in reversed(result.results)]
            self.story_html.value = "".join(
                f"<details{' open' if i == 0 else ''}><summary>{html.escape(story.summary())}"
                f"</summary>{story._repr_html_()}</details>"
                for i, story in enumerate(stories)
            )
            self.decisions.options = [(self._label(i, v), i) for i, v in enumerate(result.verdicts)]
            self.next_button.disabled = not any(v.kind in _MARKED for v in result.verdicts)
            self.decisions.value = 0 if result.verdicts else None
            self._show_detail()

    def _running(self, running: bool) -> None:
        """The controls while a review or a comparison runs (the bar and Cancel shown,
        Review my play off) or once none does."""
        if running:
            self.progress.max, self.progress.value = 1, 0
        self.progress.layout.display = None if running else "none"
        self.cancel_button.layout.display = None if running else "none"
        self.cancel_button.disabled = not running
        self.cancel_button.description = "Cancel"
        self.review_button.disabled = running

    def _clear(self) -> None:
        self.review = None
        self._made_from = None
        self.beside = None
        self.beside_html.value = ""
        self.beside_button.disabled = True
        self.error = None
        self.story_html.value = ""
        self.decisions.options = []
        self.next_button.disabled = True
        self.detail_html.value = ""

    # ------------------------------------------------------------------ showing
    @staticmethod
    def _summary(result: Review) -> str:
        if not result.verdicts:
            return message_html("You have made no decision with a choice yet: nothing to review.")
        counts = {kind: sum(v.kind == kind for v in result.verdicts) for kind in CLASSES}
        tally = ", ".join(class_count_words(counts[k], k) for k in CLASSES)
        worst = result.mistakes(1)
        costliest = f" The costliest: {html.escape(worst[0].sentence)}" if worst else ""
        return (
            f"<p>{len(result.verdicts)} decisions reviewed: {tally}. Accuracy "
            f"{round(100 * result.accuracy)} in 100 (the share classed best or good); "
            f"about {points_words(result.total_loss)} lost in all.{costliest}</p>"
            + result.mistakes_by_type()._repr_html_()
        )

    @staticmethod
    def _label(index: int, verdict: Verdict) -> str:
        mark = MARKS[verdict.kind][0]
        cost = "" if verdict.kind in ("best", "good") else f", lost about {verdict.loss.mean:.1f}"
        return (
            f"{index + 1}. round {verdict.round}, {verdict.phase}: "
            f"{action_text(verdict.played)}{mark} ({verdict.kind}{cost})"
        )

    def _show_detail(self) -> None:
        verdict = self.selected
        if verdict is None:
            self.detail_html.value = ""
            return
        self.detail_html.value = (
            self._position(verdict)
            + self._table(verdict)
            + (
                f'<p style="color:{MARKS[verdict.kind][1]}"><strong>{verdict.kind}</strong>: '
                f"{html.escape(verdict.sentence)}</p>"
            )
        )

    @staticmethod
    def _position(verdict: Verdict) -> str:
        view = verdict.view
        others = ", ".join(
            f"{html.escape(view.names[s])} {view.hand_sizes[s]} cards"
            + (" (laid down)" if view.laid_down[s] else "")
            for s in range(len(view.names))
            if s != view.seat
        )
        top = (
            "the discard pile is empty"
            if view.discard_top is None
            else f"the top of the discard pile: {view.discard_top.symbol}"
        )
        contract = view.contracts[view.seat]
        parts = [
            f"<p><strong>Round {view.round} ({html.escape(str(contract))}), "
            f"{html.escape(view.phase)}</strong>: what you saw. Your hand; {top}; "
            f"{others}.</p>",
            figure_html(svg.hand_svg(view.hand, width=48), "your hand"),
        ]
        if view.melds:
            parts.append(figure_html(svg.melds_svg(view.melds, width=40), "on the table"))
        return "".join(parts)

    @staticmethod
    def _table(verdict: Verdict) -> str:
        rows = []
        for alternative in verdict.alternatives:
            value, out, loss = alternative.value, alternative.out, alternative.loss
            played = alternative.action == verdict.played
            label = html.escape(action_text(alternative.action)) + (
                " <em>(played)</em>" if played else ""
            )
            if alternative is verdict.best:
                label += " <em>(best)</em>"
            style = ' style="font-weight:bold"' if played else ""
            rows.append(
                f"<tr{style}><td>{label}</td>"
                f"<td>{value.mean:+.1f} ({value.low:+.1f} to {value.high:+.1f})</td>"
                f"<td>{html.escape(estimate_text(out.mean, out.low, out.high, of='samples'))}</td>"
                f"<td>{loss.mean:.1f} ({loss.low:.1f} to {loss.high:.1f})</td></tr>"
            )
        return (
            "<table><tr><th>choice</th><th>points against the opponents' mean at the "
            "round's end (95%)</th><th>goes out first</th><th>loss against the best "
            "(95%)</th></tr>" + "".join(rows) + "</table>"
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
