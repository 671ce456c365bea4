"""Events carry typed details per kind (issue 28, item 2): each kind's details are of the
type :data:`rummykit.engine.events.DETAILS` gives (None for the other kinds), and they agree with
the state that logged them."""

from __future__ import annotations

import dataclasses

import pytest

from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.engine.events import (
    DETAILS,
    EVENT_KINDS,
    BuyDetails,
    BuyLotteryDetails,
    CutDetails,
    Event,
    GameEndDetails,
    RoundEndDetails,
)
from rummykit.engine.game import Game, play_game
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentTypeError


def test_details_name_kinds_the_engine_logs():
    assert set(DETAILS) <= set(EVENT_KINDS) and len(DETAILS) == 8
    for kind, details in DETAILS.items():
        assert dataclasses.is_dataclass(details) and details.__dataclass_params__.frozen, kind


@pytest.mark.parametrize("kind", EVENT_KINDS)
def test_an_event_refuses_details_of_another_kind(kind):
    expected = DETAILS.get(kind)
    wrong = CutDetails(lifted=3, perfect=True) if expected is not CutDetails else None
    with pytest.raises(ArgumentTypeError, match=f"details: a '{kind}' event carries"):
        Event(1, kind, details=wrong)
    if expected is None:
        assert Event(1, kind).details is None


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_every_event_of_random_games_carries_its_kinds_details(preset):
    rules = RuleSet.preset(preset)
    for seed in range(3):
        players = rules.min_players + seed
        bots = [RandomBot(seed=s) if s % 2 else GreedyBot(seed=s) for s in range(players)]
        game = Game(rules, players, seed=seed, max_reshuffles=2)
        state = play_game(game.new_state(), bots)
        seen = set()
        for event in state.log:
            expected = DETAILS.get(event.kind, type(None))
            assert type(event.details) is expected, event
            assert Event(**vars(event)) == event  # the constructor's check agrees
            seen.add(event.kind)
        ends = [e.details for e in state.log if e.kind == "round end"]
        assert [d.points for d in ends] == state.round_scores
        [end] = [e.details for e in state.log if e.kind == "game end"]
        assert end == GameEndDetails(totals=tuple(state.scores))
        assert {"round end", "game end"} <= seen


def test_details_of_the_buying_kinds_and_the_cut():
    # family: buying before the draw, by first call (a lottery among the askers).
    state = Game("family", players=3, seed=4).new_state(dealer=0)
    state.apply("buy")
    state.apply("buy")
    lottery, buy = state.log[-2:]
    assert lottery.details == BuyLotteryDetails(askers=(2, 0))
    assert buy.seat == lottery.seat and buy.details == BuyDetails(drawer=1)
    # standard: buying after the decline names no drawer.
    state = Game("standard", players=3, seed=4).new_state(dealer=0)
    state.apply("draw stock")
    state.apply("buy")
    assert [e.details for e in state.log if e.kind == "buy"] == [BuyDetails(drawer=None)]
    # pagat cuts before the deal: the cut of exactly the deal's cards is perfect.
    game = Game("pagat", players=3, seed=1)
    perfect = game.new_state(cut=3 * 10 + 1).log[0]
    assert perfect.kind == "cut" and perfect.details == CutDetails(lifted=31, perfect=True)
    assert game.new_state(cut=30).log[0].details == CutDetails(lifted=30, perfect=False)


def test_round_end_details_are_the_rounds_points():
    state = play_game(Game("standard", 2, seed=3).new_state(round=7), [GreedyBot(seed=0)] * 2)
    [end] = [e for e in state.log if e.kind == "round end"]
    assert end.details == RoundEndDetails(points=state.round_scores[0])
