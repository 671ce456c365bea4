"""PlayWidget against the strong bot (SearchBot): it thinks in a thread, the handler
returns at once, a progress line shows, the human's buttons are off meanwhile, and the
game is the one a synchronous widget plays with the same seed."""

from __future__ import annotations

import time

import pytest

from rummykit.agents.searchbot import SearchBot
from rummykit.widgets import PlayWidget
from rummykit.widgets.play import BOTS

STRONG = "Strong (searches ahead)"


@pytest.fixture
def small_budget(monkeypatch):
    """A strong bot of 24 samples a decision (the default plays for up to a second)."""
    monkeypatch.setitem(BOTS, STRONG, lambda seed: SearchBot(seed=seed, rollouts=24))


def _history(widget: PlayWidget) -> list:
    return [(seat, str(action)) for seat, action in widget.state.history]


def test_the_bot_dropdown_offers_every_level():
    assert {"Random", "Greedy", "Greedy, discards by outs", STRONG} <= set(BOTS)
    widget = PlayWidget(bots=2, seed=3, bot=STRONG, background=False)
    assert all(isinstance(bot, SearchBot) for bot in widget.bots[1:])


def _click(widget: PlayWidget) -> None:
    """One action of the human: pass a buy or call, draw from the stock, or discard the
    first card."""
    phase = widget.state.phase
    if phase in ("buy", "call"):
        widget.pass_button.click()
    elif phase == "draw":
        widget.draw_button.click()
    else:
        widget.hand.buttons[0].value = True
        widget.discard_button.click()


def test_a_strong_bot_thinks_in_the_background_and_plays_as_without(small_budget):
    synchronous = PlayWidget(bots=2, seed=4, bot=STRONG, background=False)
    widget = PlayWidget(bots=2, seed=4, bot=STRONG)
    widget.wait(60)
    assert _history(widget) == _history(synchronous)
    lines, thought = [], 0
    widget.thinking_html.observe(lambda change: lines.append(change["new"]), "value")
    for _ in range(8):
        assert widget.state.to_act == widget.seat and not widget.thinking
        _click(synchronous)
        started = time.monotonic()
        _click(widget)
        # The click returned before the bots' moves: they think in the thread, the
        # human's buttons are off and an action is refused meanwhile.
        assert time.monotonic() - started < 1.0
        if widget.thinking:
            thought += 1
            assert widget.draw_button.disabled and widget.discard_button.disabled
            assert "the bots are playing" in widget.reasons[widget.draw_button]
        widget.wait(60)
        assert not widget.thinking and widget.error is None
        assert _history(widget) == _history(synchronous)
        if widget.finished:
            break
    assert thought >= 1
    assert any("is thinking: 24 of 24 sampled deals weighed" in line for line in lines)


def test_a_new_game_drops_the_old_games_thinking(small_budget):
    widget = PlayWidget(bots=3, seed=6, bot=STRONG)
    widget.seed.value = 7
    widget.new_game()  # while the first game's bots may be thinking
    widget.wait(60)
    fresh = PlayWidget(bots=3, seed=7, bot=STRONG, background=False)
    assert _history(widget) == _history(fresh)


def test_an_error_in_the_thread_is_shown(monkeypatch):
    class Broken(SearchBot):
        def choose(self, view):
            raise RuntimeError("no rollouts today")

    monkeypatch.setitem(BOTS, STRONG, lambda seed: Broken(seed=seed, rollouts=1))
    widget = None
    for seed in range(10):  # a deal where a bot acts before the human
        widget = PlayWidget(bots=2, seed=seed, bot=STRONG)
        widget.wait(10)
        if widget.error is not None:
            break
    assert widget.error == "RuntimeError: no rollouts today"
    assert "no rollouts today" in widget.message_html.value and not widget.thinking
