"""Duplicate evaluation (rummykit.evaluate.duplicate): a bot against itself, Greedy against
Random, seeds, bad input."""

from __future__ import annotations

import json

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.duplicate import compare
from rummykit.evaluate.estimate import Estimate, interval


class ShiftedRandomBot(RandomBot):
    """As strong as RandomBot, but it plays other moves (one draw of its stream burnt)."""

    def choose(self, view):
        self.rng.random()
        return super().choose(view)


@pytest.mark.parametrize("bot", [GreedyBot(), RandomBot(seed=3)])
def test_a_bot_against_itself_differs_by_exactly_zero(bot):
    # Seat-seeded generators: every paired game is the same game, whatever the bot's seed.
    other = RandomBot(seed=99) if isinstance(bot, RandomBot) else GreedyBot(seed=5)
    result = compare(bot, other, deals=3, players=3, rounds=2, seed=4)
    for estimate in (result.points, result.went_out, result.laid_down):
        assert estimate == Estimate(0.0, 0.0, 0.0, 3)
    assert result.per_deal == ((0.0, 0.0, 0.0),) * 3
    assert result.went_out_a == result.went_out_b


def test_two_equal_but_different_bots_have_an_interval_holding_zero():
    result = compare(ShiftedRandomBot(), RandomBot(), deals=30, players=2, rounds=1, seed=0)
    assert any(row != (0.0, 0.0, 0.0) for row in result.per_deal)  # they do play apart
    assert result.points.low <= 0 <= result.points.high
    # (a 95% interval: over seeds 0-19 it excluded 0 three times in twenty)


def test_greedy_is_clearly_better_than_random():
    result = compare(GreedyBot(), RandomBot(), deals=6, players=2, rounds=2, seed=1)
    assert result.points.low > 0
    assert result.went_out.low > 0 and result.laid_down.low > 0
    assert result.went_out_a.mean > 0.5 > result.went_out_b.mean
    assert result.games == 6 * 3


def test_reproducible_by_seed_and_printable():
    kwargs = {"deals": 3, "players": 3, "rounds": 1}
    first = compare(BuyerBot("always"), GreedyBot(), seed=8, **kwargs)
    assert compare(BuyerBot("always"), GreedyBot(), seed=8, **kwargs).to_dict() == first.to_dict()
    assert compare(RandomBot(), GreedyBot(), seed=9, **kwargs).to_dict() != first.to_dict()
    data = json.loads(json.dumps(first.to_dict()))
    assert data["points"]["n"] == 3 and data["bot_a"] == "BuyerBot(buy='always')"
    text = str(first)
    assert "points per game better" in text and "(33% if equal)" in text
    assert first._repr_html_().startswith("<pre>")


def test_progress_is_reported_per_game():
    seen = []
    compare(
        GreedyBot(),
        GreedyBot(),
        deals=2,
        players=2,
        rounds=1,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[-1] == (6, 6) and len(seen) == 4  # after each seat's game


def test_interval():
    assert interval([5.0]) == Estimate(5.0, 5.0, 5.0, 1)
    wide = interval([0.0, 10.0] * 20)
    assert wide.low < 5 < wide.high and wide.n == 40
    with pytest.raises(ArgumentError, match="values"):
        interval([])


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"deals": 0}, ArgumentError, "deals"),
        ({"deals": 1.5}, ArgumentTypeError, "deals"),
        ({"players": 9}, ArgumentError, "players"),
        ({"rounds": 8}, ArgumentError, "rounds"),
        ({"rules": 3}, ArgumentTypeError, "rules"),
        ({"seed": "x"}, ArgumentTypeError, "seed"),
        ({"turn": 0}, ArgumentError, "turn"),
        ({"max_reshuffles": -1}, ArgumentError, "max_reshuffles"),
        ({"progress": 5}, ArgumentTypeError, "progress"),
    ],
)
def test_bad_input_is_refused_by_field(kwargs, error, field):
    with pytest.raises(error, match=field):
        compare(GreedyBot(), GreedyBot(), **kwargs)
    with pytest.raises(ArgumentTypeError, match="bot_b"):
        compare(GreedyBot(), "greedy")


def test_shares_stay_within_their_bounds():
    assert interval([0.0, 0.0, 0.5], bounds=(0, 1)).low == 0
    assert interval([1.0, 1.0, 0.5], bounds=(0, 1)).high == 1
    result = compare(GreedyBot(), RandomBot(), deals=2, players=2, rounds=1, seed=3)
    for share in (result.went_out_a, result.went_out_b):
        assert 0 <= share.low <= share.mean <= share.high <= 1
