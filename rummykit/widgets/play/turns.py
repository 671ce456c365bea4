"""The PlayWidget's bots: their turns played in the handler or in a thread, with a progress
line, stopped by a new game or a closed widget (a part of
:class:`~rummykit.widgets.play.PlayWidget`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from rummykit.agents.searchbot import SearchBot
from rummykit.engine.actions import (
    Pass,
)
from rummykit.widgets._common import (
    message_html,
)
from rummykit.widgets.play.words import OWN_DISCARD_NOTE


class Stopped(Exception):
    """Raised in the bots' thread to abandon a decision (a new game, a closed widget)."""


class BotTurns:
    """The PlayWidget's bots: their turns played in the handler or in a thread, with a
    progress line, stopped by a new game or a closed widget (a part of
    :class:`~rummykit.widgets.play.PlayWidget`)."""

    def play_bots(self, *, max_actions: int = 100_000) -> None:
        """Let the bots act until the human must decide or the play is over; redraw.

        The human is never asked to buy back their own discard: the engine offers it
        (docs/choices.md), but the sources let the other players buy, so the widget
        passes for the human and says so (:data:`OWN_DISCARD_NOTE`).
        """
        searching = any(isinstance(bot, SearchBot) for bot in self.bots)
        if searching and self.background:
            # A strong bot thinks for up to a second a decision: in a thread, so that the
            # notebook stays free; the human's buttons are off until the bots are done.
            with self._lock:
                self.thinking = True
                generation = self._generation
            self.refresh()
            self._thinker = threading.Thread(
                target=self._think,
                args=(generation, max_actions),
                name="rummykit-bots",
                daemon=True,
            )
            self._thinker.start()
            return
        skipped = self._bots_play(self._generation, max_actions)
        self.refresh()
        if skipped:
            self.message_html.value = message_html(OWN_DISCARD_NOTE)

    def _bots_play(self, generation: int, max_actions: int) -> bool:
        """The bots' moves up to the human's turn (True if the human's buy of its own
        discard was passed); stops, playing nothing more, once ``generation`` is stale."""
        skipped = False
        state = self.state
        for _ in range(max_actions):
            seat = state.to_act
            if seat is None or self.finished or self.between_rounds:
                break
            if seat == self.seat:
                view = state.view(seat)
                if not (view.phase == "buy" and view.offered_by == self.seat):
                    break
                action = Pass()
                skipped = True
            else:
                bot = self.bots[seat]
                if isinstance(bot, SearchBot) and self.thinking:
                    bot.progress = self._progress(state.game.names[seat], generation)
                action = bot.choose(state.view(seat))
            with self._lock:
                if generation != self._generation:
                    return skipped  # a new game: this move is not played
                state.apply(action)
        return skipped

    def _progress(self, name: str, generation: int) -> Callable[[int, int | None], None]:
        """A strong bot's progress line, written at most every 0.2 s; it abandons the
        decision once ``generation`` is stale (a new game, :meth:`stop`)."""
        last = [0.0]

        def show(done: int, total: int | None) -> None:
            if generation != self._generation:
                raise Stopped
            now = time.monotonic()
            if now - last[0] < 0.2 and done != total:
                return
            last[0] = now
            planned = f" of {total}" if total is not None else ""
            self.thinking_html.value = message_html(
                f"{name} is thinking: {done}{planned} sampled deals weighed ..."
            )

        return show

    def _think(self, generation: int, max_actions: int) -> None:
        """The bots' turn in the background thread, then the table redrawn."""
        try:
            skipped = self._bots_play(generation, max_actions)
        except Stopped:
            return
        except Exception as error:  # shown in the widget, never lost in the thread
            with self._lock:
                if generation != self._generation:
                    return
                self.thinking = False
                self.error = f"{type(error).__name__}: {error}"
            self.thinking_html.value = ""
            self.refresh()
            self.message_html.value = message_html(
                f"A bot stopped with an error: {self.error}", "error"
            )
            return
        with self._lock:
            if generation != self._generation:
                return
            self.thinking = False
        self.thinking_html.value = ""
        self.refresh()
        if skipped:
            self.message_html.value = message_html(OWN_DISCARD_NOTE)

    def stop(self, timeout: float | None = 5.0) -> None:
        """Abandon the bots' thread, if one runs (the decision it weighs is dropped, the
        state stays as before it), and wait for it to end; the human's buttons come back
        only with a new game or a load."""
        with self._lock:
            self._generation += 1
            thinker = self._thinker
        if thinker is not None and thinker is not threading.current_thread():
            thinker.join(timeout)

    def close(self) -> None:
        """Stop the bots' thread and the review's, and close the widget's views."""
        self.stop()
        self.review_panel.stop()
        self.box.close()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the bots playing in the background, then for the outs being counted
        (for scripts and tests)."""
        thinker = self._thinker
        if thinker is not None:
            thinker.join(timeout)
        self.outs_pane.wait(timeout)
        self.review_panel.wait(timeout)
