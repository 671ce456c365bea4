"""The review panel's Cancel (issue 50, item 11): a review running in a thread, or a
decision at a time on the event loop (a browser's Python, where no thread starts), stops
at its next decision and says how far it got; and the panel explains its marks."""

from __future__ import annotations

import asyncio
import html
import threading

import pytest

pytest.importorskip("ipywidgets")

from rummykit.agents.bots import GreedyBot  # noqa: E402
from rummykit.engine.game import Game, play_game  # noqa: E402
from rummykit.evaluate import reviews  # noqa: E402
from rummykit.evaluate.review_words import action_words  # noqa: E402
from rummykit.evaluate.reviews import MARKS, MARKS_LEGEND, review  # noqa: E402
from rummykit.widgets import review as panel_module  # noqa: E402
from rummykit.widgets.review import ReviewPanel  # noqa: E402

BUDGET = 2


@pytest.fixture(scope="module")
def state():
    return play_game(
        Game("standard", players=2, seed=3, turn_limit=6).new_state(), [GreedyBot(), GreedyBot()]
    )


def _counting_judge(monkeypatch, hold_at: int | None = None):
    """reviews.judge counted; with ``hold_at``, the decision of that number waits until
    ``release`` is set (``reached`` is set when it starts)."""
    real = reviews.judge
    calls = {"n": 0}
    reached, release = threading.Event(), threading.Event()

    def judge(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == hold_at:
            reached.set()
            assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(reviews, "judge", judge)
    return calls, reached, release


def _idle(panel: ReviewPanel) -> bool:
    return (
        not panel.review_button.disabled
        and panel.cancel_button.layout.display == "none"
        and panel.progress.layout.display == "none"
    )


def test_cancel_stops_a_threaded_review_at_its_next_decision(state, monkeypatch):
    total = len(review(state, 0, budget=BUDGET).verdicts)
    assert total > 4
    calls, reached, release = _counting_judge(monkeypatch, hold_at=3)
    panel = ReviewPanel(lambda: state, budget=BUDGET)
    assert panel.background and panel.cancel_button.layout.display == "none"
    panel.review_button.click()
    assert reached.wait(30)
    # While it runs: Cancel is offered, Review my play is not.
    assert panel.cancel_button.layout.display is None and not panel.cancel_button.disabled
    assert panel.review_button.disabled
    panel.cancel_button.click()
    assert panel.cancel_button.disabled  # pressed once: it says it is cancelling
    release.set()
    panel.wait(60)
    assert calls["n"] == 3  # no decision judged after the one under way
    assert panel.review is None and panel.error is None
    assert f"Review cancelled after 3 of {total} decisions" in panel.summary_html.value
    assert panel.decisions.options == () and _idle(panel)
    # A review started again runs to the end.
    panel.review_button.click()
    panel.wait(60)
    assert panel.review is not None and len(panel.review.verdicts) == total
    assert "cancelled" not in panel.summary_html.value and _idle(panel)


def test_cancel_with_nothing_running_changes_nothing(state):
    panel = ReviewPanel(lambda: state, budget=BUDGET, background=False)
    panel.review_button.click()
    shown, summary = panel.review, panel.summary_html.value
    panel.cancel()
    assert panel.review is shown and panel.summary_html.value == summary and _idle(panel)


def test_in_a_browser_the_review_steps_on_the_event_loop_and_cancel_is_heard(state, monkeypatch):
    monkeypatch.setattr(panel_module, "CAN_THREAD", False)
    expected = review(state, 0, budget=BUDGET)
    calls, _, _ = _counting_judge(monkeypatch)

    async def cancelled() -> None:
        panel = ReviewPanel(lambda: state, budget=BUDGET)
        assert panel.stepwise and not panel.background
        panel.review_button.click()  # returns at once: the review is a task on the loop
        assert panel.task is not None and not panel.task.done()
        while panel.progress.value < 2:  # the loop turns between two decisions
            await asyncio.sleep(0.01)
        panel.cancel_button.click()
        await panel.task
        done = calls["n"]
        assert 2 <= done < len(expected.verdicts)
        words = f"Review cancelled after {done} of {len(expected.verdicts)} decisions"
        assert words in panel.summary_html.value and panel.review is None and _idle(panel)

    async def whole() -> None:
        panel = ReviewPanel(lambda: state, budget=BUDGET)
        panel.review_button.click()
        await panel.task
        assert panel.review.verdicts == expected.verdicts and _idle(panel)

    _run_on_a_loop_of_its_own(cancelled)
    _run_on_a_loop_of_its_own(whole)


def _run_on_a_loop_of_its_own(coroutine_function) -> None:
    """``asyncio.run(coroutine_function())`` in a thread of its own, as a browser's kernel
    turns one loop: this worker's main thread may already hold a running loop (the
    session's Playwright, whose sync API keeps one there while it is open)."""
    outcome: dict = {}

    def run() -> None:
        try:
            asyncio.run(coroutine_function())
        except BaseException as error:  # raised again in the test's thread, below
            outcome["error"] = error

    thread = threading.Thread(target=run, name="review-loop")
    thread.start()
    thread.join(300)
    assert not thread.is_alive(), "the review's loop did not end within 300 s"
    if "error" in outcome:
        raise outcome["error"]


def test_the_panel_explains_its_marks_and_names_actions_as_the_sentences_do(state):
    panel = ReviewPanel(lambda: state, budget=BUDGET, background=False)
    assert html.escape(MARKS_LEGEND) in panel.box.children[0].value
    for mark in ("?!", "??"):
        assert mark in MARKS_LEGEND
    panel.review_button.click()
    for (label, _), verdict in zip(panel.decisions.options, panel.review.verdicts, strict=True):
        assert f"{action_words(verdict.played)}{MARKS[verdict.kind][0]} ({verdict.kind}" in label
