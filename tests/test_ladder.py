"""The ladder (rummykit.ladder): bots against one field on duplicate deals, rated by
Bradley-Terry with bootstrap intervals; the fit checked by brute force, the ladder
reproducible and independent of the roster's order, bad input refused by field."""

from __future__ import annotations

import itertools
import math

import pytest

from rummykit.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.duplicate import compare
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.ladder import ELO, bradley_terry, ladder

SMALL = {"players": 2, "rounds": 1, "turn_limit": 16, "max_reshuffles": 1}


def _log_likelihood(strengths: dict, wins: dict) -> float:
    return sum(
        w * (strengths[a] - math.log(math.exp(strengths[a]) + math.exp(strengths[b])))
        for (a, b), w in wins.items()
    )


def test_bradley_terry_is_the_maximum_likelihood_a_grid_finds():
    names = ["a", "b", "c"]
    wins = {
        ("a", "b"): 7,
        ("b", "a"): 3,
        ("a", "c"): 9,
        ("c", "a"): 2,
        ("b", "c"): 6,
        ("c", "b"): 5,
    }
    fitted = bradley_terry(wins, names, prior=0)
    assert fitted["a"] == 0
    grid = [x / 50 for x in range(-150, 51)]
    best = max(
        itertools.product(grid, grid),
        key=lambda bc: _log_likelihood({"a": 0.0, "b": bc[0], "c": bc[1]}, wins),
    )
    assert abs(fitted["b"] - best[0]) <= 0.02 and abs(fitted["c"] - best[1]) <= 0.02
    # The fitted strengths beat every point of the grid.
    assert _log_likelihood(fitted, wins) >= _log_likelihood(
        {"a": 0.0, "b": best[0], "c": best[1]}, wins
    )


def test_a_bot_that_wins_every_deal_has_a_finite_rating():
    fitted = bradley_terry({("a", "b"): 10}, ["a", "b"])  # half a win each way added
    assert math.isfinite(fitted["b"]) and fitted["b"] == pytest.approx(math.log(0.5 / 10.5))


def test_greedy_is_rated_above_random_with_an_interval_excluding_equality():
    result = ladder(
        {"greedy": GreedyBot(), "random": RandomBot()}, baseline="greedy", deals=12, seed=3, **SMALL
    )
    rating = result.ratings["random"]
    assert rating.high < 0 and result.ratings["greedy"].mean == 0
    assert result.points["random"].high < 0
    assert result.ranking() == ["greedy", "random"]
    assert result.games == 12 * (1 + 2)
    # The points are compare()'s: the same deals, the same seats.
    assert math.isclose(
        compare(RandomBot(), GreedyBot(), deals=12, seed=3, **SMALL).points.mean,
        result.points["random"].mean,
    )
    assert "rating" in str(result) and "<table>" in result._repr_html_()


def test_same_seed_same_ladder_in_any_roster_order():
    bots = {"greedy": GreedyBot(), "never": BuyerBot("never"), "random": RandomBot()}
    first = ladder(bots, baseline="greedy", deals=3, seed=5, **SMALL)
    reordered = dict(reversed(list(bots.items())))
    again = ladder(reordered, baseline="greedy", deals=3, seed=5, **SMALL)
    assert again == first
    assert ladder(bots, baseline="greedy", deals=3, seed=6, **SMALL) != first
    rows = first.rows()
    assert {r["measure"] for r in rows} >= {"rating", "points per game", "went out first"}
    assert len(rows) == 3 * 4 + 3  # four measures of each bot, then the three pairs
    assert first.pairs["never", "random"].mean == pytest.approx(
        first.points["never"].mean - first.points["random"].mean
    )


def test_ratings_are_on_the_elo_scale():
    result = ladder(
        {"greedy": GreedyBot(), "random": RandomBot()}, baseline="greedy", deals=4, seed=1, **SMALL
    )
    wins = sum(x[0] < 0 for x in result.per_deal["random"])  # deals random lost
    ties = sum(x[0] == 0 for x in result.per_deal["random"])
    expected = ELO * math.log((4 - wins - ties / 2 + 0.5) / (wins + ties / 2 + 0.5))
    assert result.ratings["random"].mean == pytest.approx(expected)


def test_bad_input_is_refused_by_field():
    greedy = GreedyBot()
    with pytest.raises(ArgumentError, match="roster: give two bots or more"):
        ladder({"greedy": greedy}, baseline="greedy")
    with pytest.raises(ArgumentTypeError, match="roster must be a mapping"):
        ladder([greedy, greedy], baseline="greedy")
    with pytest.raises(ArgumentTypeError, match="'x' is not a bot"):
        ladder({"greedy": greedy, "x": 3}, baseline="greedy")
    with pytest.raises(ArgumentError, match="baseline must be a name of the roster"):
        ladder({"greedy": greedy, "r": RandomBot()}, baseline="outs")
    with pytest.raises(ArgumentError, match="deals"):
        ladder({"greedy": greedy, "r": RandomBot()}, baseline="greedy", deals=0)
    with pytest.raises(ArgumentError, match="names: give two or more distinct names"):
        bradley_terry({}, ["a", "a"])


def test_a_name_without_a_win_and_no_prior_is_refused():
    with pytest.raises(ArgumentError, match="b won nothing"):
        bradley_terry({("a", "b"): 3}, ["a", "b"], prior=0)
