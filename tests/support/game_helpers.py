"""Helpers of the game tests: scripted tables, a few actions in a row, refusals.

Shared by ``test_game.py``, ``test_bots.py`` and the other engine tests (a test module is
never imported as a library).
"""

from __future__ import annotations

import pytest

from rummykit.engine.game import Game, GameState
from rummykit.engine.rules import RuleSet
from rummykit.errors import IllegalActionError


def table(
    rules: RuleSet | str = "standard",
    players: int = 3,
    hands: dict[int, str] | None = None,
    *,
    upcard: str = "KC",
    stock: str | None = None,
    seed: int = 1,
    **setup,
) -> GameState:
    """A state whose seat 0 plays first, with the hands given (others random)."""
    game = Game(rules, players, seed=seed)
    hands = hands or {}
    return game.new_state(
        dealer=players - 1,
        hands=[hands.get(seat) for seat in range(players)],
        upcard=upcard,
        stock=stock,
        **setup,
    )


def play(state: GameState, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def decline(state: GameState) -> None:
    """Draw from the stock with nobody buying (before the draw or after it)."""
    while state.phase == "buy":
        state.apply("pass")
    state.apply("draw stock")
    while state.phase == "buy":
        state.apply("pass")


def codes(state: GameState, seat: int) -> list[str]:
    return sorted(card.code for card in state.hands[seat])


def refused(state: GameState, action: str, match: str) -> None:
    """``action`` is refused with a message matching ``match``, leaving the state as it was."""
    before = state.snapshot()
    history = len(state.history)
    with pytest.raises(IllegalActionError, match=match):
        state.apply(action)
    assert state.snapshot() == before
    assert len(state.history) == history
