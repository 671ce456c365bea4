"""The Strategy chapter's readings (rummykit.teach.strategy) against the rows they read."""

from __future__ import annotations

import polars as pl
import pytest

from rummykit.display import interval_text
from rummykit.errors import RummyError
from rummykit.odds.data.schemas import LADDER_SCHEMA, SEARCH_DECISIONS_SCHEMA
from rummykit.teach.strategy import BOT_LABELS, choices, head_to_head, ratings, strong_curves


def _row(bot, opponent, measure, value, low, high, round=None, turn=None, players=4):
    return {
        "rules": "standard", "players": players, "bot": bot, "opponent": opponent,
        "measure": measure, "round": round, "turn": turn, "value": value, "ci_low": low,
        "ci_high": high, "n": 16,
    }  # fmt: skip


LADDER = pl.DataFrame(
    [
        _row("greedy", "greedy", "elo", 0.0, 0.0, 0.0),
        _row("search 64", "greedy", "elo", 80.0, 20.0, 150.0),
        _row("random", "greedy", "elo", -900.0, -1200.0, -2.5e-14),
        _row("search 64", "greedy", "points", 30.0, 5.0, 55.0),
        _row("search 64", "greedy", "went out", 0.05, -0.01, 0.11),
        _row("search 64", "greedy", "laid down", 0.02, -0.03, 0.07),
        _row("search 64", "greedy", "wins", 0.6, 0.5, 0.7),
        _row("greedy", "search 64", "points", -30.0, -55.0, -5.0),
        *(
            _row(
                "search 64",
                "greedy",
                "laid down by turn",
                t / 10,
                t / 10 - 0.1,
                t / 10 + 0.1,
                round=1,
                turn=t,
            )
            for t in range(1, 6)
        ),  # fmt: skip
        _row("greedy", "greedy", "elo", 0.0, 0.0, 0.0, players=3),
    ],
    schema=LADDER_SCHEMA,
)


def test_ratings_best_first_in_words_with_their_intervals():
    table = ratings(LADDER)
    assert table["bot"].to_list() == ["SearchBot, 64 samples", "GreedyBot", "RandomBot"]
    assert table["Elo (95% interval)"][0] == interval_text(80.0, 20.0, 150.0, 3)
    assert table["Elo (95% interval)"][2] == interval_text(-900.0, -1200.0, 0.0, 3)
    assert ratings(LADDER, players=3).height == 1
    with pytest.raises(RummyError, match="rules, players.*standard at 4"):
        ratings(LADDER, players=5)
    assert set(BOT_LABELS) >= set(LADDER["bot"])


def test_head_to_head_is_a_row_per_opponent_played():
    table = head_to_head(LADDER, "search 64")
    assert table["against"].to_list() == ["GreedyBot"]
    assert table["points per game better"][0] == interval_text(30.0, 5.0, 55.0, 3)
    assert table["scored better (% of pairs)"][0] == interval_text(60.0, 50.0, 70.0, 3)
    assert table["went out first (% points more)"][0] == interval_text(5.0, -1.0, 11.0, 3)
    with pytest.raises(RummyError, match="bot must be a bot of the ladder"):
        head_to_head(LADDER, "nobody")
    against = head_to_head(LADDER, opponent="greedy")
    assert against["bot"].to_list() == ["SearchBot, 64 samples"]
    assert against.drop("bot").row(0) == table.drop("against").row(0)
    with pytest.raises(RummyError, match="bot, opponent"):
        head_to_head(LADDER, "greedy", opponent="greedy")


def test_strong_curves_put_the_ladders_searchbot_beside_the_greedy_table():
    by_turn = pl.DataFrame(
        {
            "rules": ["standard"] * 6,
            "players": [4] * 5 + [3],
            "decks": [2] * 6,
            "jokers": [4] * 6,
            "round": [1] * 6,
            "buy": ["improves"] * 4 + ["never", "improves"],
            "measure": ["laid down"] * 6,
            "turn": [1, 2, 3, 30, 1, 1],
            "p": [0.1, 0.3, 0.5, 0.99, 0.0, 0.0],
            "ci_low": [0.09, 0.29, 0.49, 0.98, 0.0, 0.0],
            "ci_high": [0.11, 0.31, 0.51, 1.0, 0.0, 0.0],
            "n": [10_000] * 6,
        }
    )
    curves = strong_curves(LADDER, by_turn, round=1)
    greedy = curves.filter(player="GreedyBot")
    assert greedy["turn"].to_list() == [1, 2, 3] and greedy["p"].to_list() == [0.1, 0.3, 0.5]
    strong = curves.filter(player="SearchBot, 64 samples")
    assert strong["p"].to_list() == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5])
    assert set(strong["n"]) == {16}
    with pytest.raises(RummyError, match="round"):
        strong_curves(LADDER, by_turn, round=2)


def test_choices_join_each_bots_choice_and_the_paired_difference():
    rows = [
        {"rules": "standard", "players": 4, "rollouts": 256, "decision": "buy",
         "measure": "buys", "bot": bot, "mean": mean, "ci_low": mean - 0.1,
         "ci_high": mean + 0.1, "difference": diff, "difference_ci_low": diff - 0.05,
         "difference_ci_high": diff + 0.05, "n": 300, "games": 20}
        for bot, mean, diff in (("greedy", 0.4, 0.0), ("search", 0.3, -0.1))
    ]  # fmt: skip
    table = choices(pl.DataFrame(rows, schema=SEARCH_DECISIONS_SCHEMA))
    assert table.row(0, named=True) == {
        "decision": "buy",
        "measure": "buys",
        "unit": "% of positions",
        "GreedyBot": interval_text(40.0, 30.0, 50.0, 3),
        "SearchBot": interval_text(30.0, 20.0, 40.0, 3),
        "SearchBot minus GreedyBot": interval_text(-10.0, -15.0, -5.0, 3),
        "positions": 300,
    }
    with pytest.raises(RummyError, match="decisions"):
        choices(pl.DataFrame({"decision": ["buy"]}))
