"""Duplicate evaluation (rummykit.evaluate.duplicate): a bot against itself, Greedy against
Random, seeds, bad input, the seat-rounds kept and the figures recomputed from them."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.duplicate import (
    SeatRound,
    compare,
    deal_seeds,
    figures,
    seated_game,
    setup,
)
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


@pytest.mark.slow
def test_the_seat_rounds_kept_are_the_games_played():
    """Each deal's seat-rounds, summed per seat, are what its games give when played again
    one by one (:func:`seated_game`, the ladder's path), and the figures recomputed from
    them are the comparison's."""
    result = compare(GreedyBot(), RandomBot(), deals=3, players=3, rounds=2, seed=7, turn=3)
    assert len(result.seat_rounds) == 3 * 2 * 3 * 2
    rules, rounds, limits = setup(
        "standard", players=3, deals=3, seed=7, rounds=2, turn=3, max_reshuffles=3,
        turn_limit=None, max_actions=100_000, progress=None, hint="",
    )  # fmt: skip
    for deal, deal_seed in enumerate(deal_seeds(random.Random(7), 3)):
        mine = [r for r in result.seat_rounds if r.deal == deal]
        assert {r.deal_seed for r in mine} == {deal_seed}
        for bot, seats in (("b", [None]), ("a", range(3))):
            for seat in seats:
                makers = [
                    (lambda s: GreedyBot()) if s == seat else (lambda s: RandomBot(seed=s))
                    for s in range(3)
                ]
                played = seated_game(rules, 3, deal_seed, makers, limits, rounds, 3, 100_000)
                for s in range(3) if seat is None else [seat]:
                    rows = sorted(
                        (r for r in mine if r.bot == bot and r.seat == s), key=lambda r: r.round
                    )
                    assert (
                        sum(r.points for r in rows),
                        sum(r.went_out for r in rows),
                        sum(0 < r.laid_down <= 3 for r in rows),
                        tuple(r.laid_down for r in rows),
                    ) == played[s]
    again = figures(result.seat_rounds, "standard", turn=3)
    assert again["per_deal"] == result.per_deal
    assert again["went_out_a"] == result.went_out_a and again["laid_down"] == result.laid_down


def test_seat_rounds_round_trip_through_plain_data_and_bad_records_are_refused():
    result = compare(GreedyBot(), RandomBot(), deals=2, players=2, rounds=1, seed=3)
    rows = json.loads(json.dumps([r.to_dict() for r in result.seat_rounds]))
    assert tuple(SeatRound.from_dict(row) for row in rows) == result.seat_rounds
    row = rows[0]
    for bad, error, words in [
        ({**row, "extra": 1}, ArgumentError, "fields"),
        ({k: v for k, v in row.items() if k != "seat"}, ArgumentError, "fields"),
        ({**row, "points": "7"}, ArgumentTypeError, "points"),
        ({**row, "bot": "c"}, ArgumentError, "bot"),
        ({**row, "went_out": 1}, ArgumentError, "went_out"),
    ]:
        with pytest.raises(error, match=words):
            SeatRound.from_dict(bad)
    records = list(result.seat_rounds)
    with pytest.raises(ArgumentError, match="no seat-round"):
        figures([], "standard")
    with pytest.raises(ArgumentError, match="twice"):
        figures(records + records[:1], "standard")
    with pytest.raises(ArgumentError, match="deal 1"):
        figures(records[:-1], "standard")
    with pytest.raises(ArgumentTypeError, match="SeatRound"):
        figures([*records, "a row"], "standard")
    lost_round = [replace(r, round=2) if r.bot == "b" and r.deal == 0 else r for r in records]
    with pytest.raises(ArgumentError, match="deal 0"):
        figures(lost_round, "standard")


@pytest.mark.slow
def test_figures_sign_points_by_the_rules():
    """Points are penalties in ``standard`` (fewer is better) and won where the rules'
    scores are negative: the same records give opposite points figures."""
    result = compare(GreedyBot(), RandomBot(), deals=2, players=2, rounds=1, seed=3)
    negative = next(name for name in RuleSet.presets() if RuleSet.preset(name).negative_scores)
    flipped = figures(result.seat_rounds, negative)["per_deal"]
    assert [row[0] for row in flipped] == [-row[0] for row in result.per_deal]
    assert any(row[0] for row in flipped)
