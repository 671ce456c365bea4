"""The ladder (rummykit.evaluate.ladder): Greedy above Random, the Bradley-Terry fit against a
brute-force search of its likelihood, seeds, roster order, split and merge, bad input."""

from __future__ import annotations

import functools
import math
import random

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.errors import RummyError
from rummykit.evaluate.ladder import bradley_terry, ladder, merge, play_unit, units

SMALL = {"players": 2, "rounds": 1, "bootstrap": 50}


class Recording(GreedyBot):
    """A GreedyBot that counts the decisions it is asked for (a game played is seen)."""

    calls = 0

    def choose(self, view):
        Recording.calls += 1
        return super().choose(view)


def test_greedy_is_rated_above_random_with_an_interval_excluding_equality():
    result = ladder({"greedy": GreedyBot, "random": RandomBot}, deals=4, seed=2, **SMALL)
    assert result.anchor == "greedy" and result.rating("greedy").rating == 0.0
    random_ = result.rating("random")
    assert random_.low <= random_.rating <= random_.high < 0
    assert result.pair("greedy", "random").points.low > 0
    assert result.pair("random", "greedy").points.high < 0
    assert result.games == 4 * 2  # two players: two distinct games per deal and pair
    assert [r.name for r in result.ratings] == ["greedy", "random"]


def _loglik(wins, theta):
    k = len(wins)
    return sum(
        wins[i][j] * -math.log1p(math.exp(theta[j] - theta[i]))
        for i in range(k)
        for j in range(k)
        if i != j
    )


def _grid_maximum(wins):
    """The maximum of the log-likelihood over (theta_1, theta_2), theta_0 = 0, by a grid
    search: a coarse grid, then a fine one around its best point."""
    best, step, centre = None, 0.05, (0.0, 0.0)
    for span in (60, 25):
        points = [(centre[0] + a * step, centre[1] + b * step)
                  for a in range(-span, span + 1) for b in range(-span, span + 1)]  # fmt: skip
        best = max(points, key=lambda t: _loglik(wins, (0.0, *t)))
        centre, step = best, step / 25
    return best


@pytest.mark.parametrize("prior", [0.0, 1.0])
def test_bradley_terry_is_the_maximum_of_a_grid_search(prior):
    wins = [[0, 3, 2], [1, 0, 4], [2, 1, 0]]
    fitted = bradley_terry(wins, prior=prior)
    padded = [
        [0 if i == j else w + prior / 2 for j, w in enumerate(row)] for i, row in enumerate(wins)
    ]
    grid = _grid_maximum(padded)
    assert fitted[0] == 0.0
    assert fitted[1:] == pytest.approx(grid, abs=0.005)
    # Its anchor only shifts the ratings.
    shifted = bradley_terry(wins, prior=prior, anchor=2)
    assert [a - shifted[0] for a in shifted] == pytest.approx(fitted, abs=1e-9)


def test_bradley_terry_of_two_bots_is_the_log_odds():
    assert bradley_terry([[0, 7], [2, 0]])[1] == pytest.approx(math.log(2 / 7))
    with pytest.raises(RummyError, match="prior > 0"):
        bradley_terry([[0, 3, 1], [0, 0, 0], [2, 5, 0]])  # bot 1 never won
    assert bradley_terry([[0, 3], [0, 0]], prior=1)[1] == pytest.approx(math.log(0.5 / 3.5))


ROSTER = {"greedy": GreedyBot, "random": RandomBot, "always": functools.partial(BuyerBot, "always")}


def test_same_seed_same_ladder_whatever_the_roster_order():
    kwargs = {"deals": 2, "seed": 5, **SMALL}
    first = ladder(ROSTER, **kwargs)
    again = ladder(dict(reversed(list(ROSTER.items()))), **kwargs)
    assert again == first
    assert ladder(ROSTER, **{**kwargs, "seed": 6}) != first
    assert first.games == 2 * 3 * 2 and len(first.pairs) == 3


def test_a_split_and_merge_of_the_units_is_the_whole():
    kwargs = {"players": 3, "rounds": 1, "turn_limit": 30}
    whole = ladder(ROSTER, deals=3, seed=7, bootstrap=30, **kwargs)
    work = units(ROSTER, deals=3, seed=7)
    halves = [[u for u in work if u.deal % 2 == part] for part in (0, 1)]
    played = [play_unit(ROSTER, u, **kwargs) for half in halves for u in half]
    random.Random(0).shuffle(played)
    assert merge(ROSTER, played, seed=7, bootstrap=30) == whole
    assert whole.games == 3 * 3 * 6  # three players: 2 * players games per deal and pair
    with pytest.raises(RummyError, match="results"):
        merge(ROSTER, played[1:], seed=7, bootstrap=30)
    with pytest.raises(RummyError, match="results"):
        merge(ROSTER, played, seed=8, bootstrap=30)  # other deals


def test_a_bot_against_an_equal_copy_is_level():
    result = ladder({"a": GreedyBot, "b": GreedyBot}, deals=2, seed=1, anchor="b", **SMALL)
    pair = result.pair("a", "b")
    assert pair.points.mean == 0 and pair.wins.mean == 0.5
    assert result.rating("a").rating == pytest.approx(0, abs=1e-9)


def test_rows_and_text():
    result = ladder({"greedy": GreedyBot, "random": RandomBot}, deals=2, seed=3, **SMALL)
    rows = result.rows()
    assert set(rows[0]) == {"bot", "opponent", "measure", "value", "ci_low", "ci_high", "n"}
    rating = [r for r in rows if r["opponent"] == "rating" and r["measure"] == "bradley-terry"]
    assert {r["bot"] for r in rating} == {"greedy", "random"}
    both = {(r["bot"], r["opponent"]): r for r in rows if r["measure"] == "points"}
    assert both["greedy", "random"]["value"] == -both["random", "greedy"]["value"]
    assert all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in rows)
    text = str(result)
    assert "Bradley-Terry" in text and "greedy vs random" in text and "(anchor)" in text
    assert result._repr_html_().startswith("<pre>")


@pytest.mark.parametrize(
    ("roster", "kwargs", "field"),
    [
        ({}, {}, "roster"),
        ({"one": Recording}, {}, "roster"),
        ([("a", Recording), ("a", RandomBot)], {}, "roster: the name 'a' is given twice"),
        ({"a": Recording, "b": "GreedyBot"}, {}, r"roster\['b'\]"),
        ({"a": Recording, "b": lambda seed: 3}, {}, r"roster\['b'\]"),
        ({"a": Recording, "b": RandomBot}, {"deals": 0}, "deals"),
        ({"a": Recording, "b": RandomBot}, {"bootstrap": 0}, "bootstrap"),
        ({"a": Recording, "b": RandomBot}, {"anchor": "c"}, "anchor"),
        ({"a": Recording, "b": RandomBot}, {"prior": -1}, "prior"),
        ({"a": Recording, "b": RandomBot}, {"players": 1}, "players"),
    ],
)
def test_bad_input_is_refused_by_name_and_nothing_is_played(roster, kwargs, field):
    seen = []
    Recording.calls = 0
    with pytest.raises(RummyError, match=field):
        ladder(roster, **{"deals": 1, "seed": 0, **SMALL, **kwargs}, progress=seen.append)
    assert seen == [] and Recording.calls == 0


def test_progress_counts_every_game_and_a_foreign_unit_is_refused():
    seen = []
    result = ladder(ROSTER, deals=1, seed=0, progress=lambda d, t: seen.append((d, t)), **SMALL)
    assert seen[-1] == (result.games, result.games) and len(seen) == result.games == 6
    other = units({"x": GreedyBot, "y": RandomBot}, deals=1, seed=0)[0]
    with pytest.raises(RummyError, match="unit"):
        play_unit(ROSTER, other, players=2, rounds=1)
