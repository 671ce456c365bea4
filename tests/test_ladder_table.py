"""The ladder's schedule and the ladder table of data/ (rummykit.odds.play.ladder_table):
a sparse schedule rated as a brute-force fit of the pairs played, the laid-down figures
against a count of the turns, units kept in a checkpoint, and the committed table
recomputed from its recorded plays (the cheap plays replayed)."""

from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path

import polars as pl
import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.errors import RummyError
from rummykit.evaluate.duplicate import seated_game, setup
from rummykit.evaluate.ladder import bradley_terry, ladder, merge, play_unit, schedule, units
from rummykit.odds.data.checkpoint import Checkpoint
from rummykit.odds.data.schemas import LADDER_SCHEMA
from rummykit.odds.pipeline import DATA_SEED, RECIPES
from rummykit.odds.play.ladder_table import (
    COSTLY,
    LADDER_MEASURES,
    MAX_TURN,
    ROSTER,
    SCHEDULE,
    ladder_rows,
    ladder_table,
    unit_from_json,
)

ROOT = Path(__file__).parents[1]
#: Every unit the committed ladder table was computed from: [rules, players, unit JSON,
#: CPU seconds], from the run's checkpoint.
RECORDED = ROOT / "tests" / "data" / "ladder_units.json"
CHAIN = {
    "a": GreedyBot,
    "b": functools.partial(BuyerBot, "always"),
    "c": RandomBot,
}
SMALL = {"players": 2, "rounds": 1, "turn_limit": 20}


def test_a_schedule_is_sorted_and_must_connect_every_bot():
    assert schedule(CHAIN) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert schedule(CHAIN, [("c", "b"), ["b", "a"]]) == [("a", "b"), ("b", "c")]
    for bad, field in [
        ([("a", "b")], "connect every bot.*c"),
        ([("a", "b"), ("b", "a")], "given twice"),
        ([("a", "a"), ("b", "c")], "two different names"),
        ([("a", "d")], "two different names"),
        ([], "non-empty"),
        ("ab", "non-empty"),
    ]:
        with pytest.raises(RummyError, match=f"pairs.*{field}|{field}"):
            schedule(CHAIN, bad)


def test_a_sparse_ladder_plays_its_pairs_only_and_rates_through_them():
    pairs = [("a", "b"), ("b", "c")]
    result = ladder(CHAIN, deals=3, seed=4, bootstrap=20, pairs=pairs, **SMALL)
    assert {(p.a, p.b) for p in result.pairs} == set(pairs)
    assert result.games == 3 * 2 * 2  # two players: two games per deal and pair
    with pytest.raises(RummyError, match="played each other"):
        result.pair("a", "c")
    assert {(r["bot"], r["opponent"]) for r in result.rows() if r["measure"] == "points"} == {
        ("a", "b"), ("b", "a"), ("b", "c"), ("c", "b"),
    }  # fmt: skip
    # The rating is the fit of the wins of the pairs played, the prior's virtual ties on
    # those pairs only (a fit with ties on a-c too would pull a and c together).
    played = [play_unit(CHAIN, u, **SMALL) for u in units(CHAIN, deals=3, seed=4, pairs=pairs)]
    index = {"a": 0, "b": 1, "c": 2}
    wins = [[0.0] * 3 for _ in range(3)]
    for r in played:
        i, j = index[r.unit.a], index[r.unit.b]
        for a_points, b_points, *_ in r.seats:
            won = 1.0 if a_points > b_points else 0.5 if a_points == b_points else 0.0
            wins[i][j] += won
            wins[j][i] += 1 - won
    for a, b in pairs:  # prior 1: one virtual tie, half a win each way
        wins[index[a]][index[b]] += 0.5
        wins[index[b]][index[a]] += 0.5
    fitted = bradley_terry(wins)
    assert [result.rating(n).rating for n in "abc"] == pytest.approx(fitted, abs=1e-9)
    assert merge(CHAIN, played, seed=4, bootstrap=20, pairs=pairs) == result
    with pytest.raises(RummyError, match="results"):
        merge(CHAIN, played, seed=4, bootstrap=20)  # not every pair's units


def test_the_laid_down_figures_are_the_turns_counted_from_the_log():
    rules, rounds, limits = setup(
        "standard", players=3, deals=1, seed=0, rounds=3, turn=8, max_reshuffles=2,
        turn_limit=30, max_actions=100_000, progress=None, hint="",
    )  # fmt: skip
    for deal_seed in range(4):
        makers = [GreedyBot, RandomBot, functools.partial(BuyerBot, "never")]
        seats = seated_game(rules, 3, deal_seed, makers, limits, rounds, 4, 100_000)
        for _points, _out, laid, turns in seats:
            assert len(turns) == rounds and all(0 <= t <= 30 for t in turns)
            assert laid == sum(0 < t <= 4 for t in turns)
    result = ladder(CHAIN, deals=2, seed=9, bootstrap=10, **SMALL)
    twin = ladder({"x": GreedyBot, "y": GreedyBot}, deals=2, seed=9, bootstrap=10, **SMALL)
    assert twin.pair("x", "y").laid_down.mean == 0
    one = [play_unit(CHAIN, u, **SMALL) for u in units(CHAIN, deals=2, seed=9)]
    ab = [r for r in one if (r.unit.a, r.unit.b) == ("a", "b")]
    by_deal = [sum(s[4] - s[5] for s in r.seats) / len(r.seats) for r in ab]
    assert result.pair("a", "b").laid_down.mean == pytest.approx(sum(by_deal) / len(by_deal))
    assert "laid down by turn 8" in str(result)


def test_the_curve_of_laying_down_is_a_count_of_the_recorded_turns():
    roster = ("buyer always", "greedy", "random")
    played = [
        play_unit({n: ROSTER[n] for n in roster}, u, players=3, rounds=2, turn_limit=25)
        for u in units({n: ROSTER[n] for n in roster}, deals=2, seed=3)
    ]
    rows = pl.DataFrame(ladder_rows(roster, played, seed=3, bootstrap=10), schema=LADDER_SCHEMA)
    curve = rows.filter(measure="laid down by turn", bot="greedy", opponent="random")
    assert curve.height == 2 * MAX_TURN and set(curve["n"]) == {2}
    # Brute force: greedy's seats among randoms, deal by deal.
    for number, turn in [(1, 3), (2, 7), (1, 20)]:
        shares = []
        for r in played:
            if (r.unit.a, r.unit.b) == ("greedy", "random"):
                mine = [a for a, _ in r.turns]
                shares.append(sum(0 < t[number - 1] <= turn for t in mine) / len(mine))
        value = curve.filter(round=number, turn=turn)["value"].item()
        assert value == pytest.approx(sum(shares) / len(shares))
    for (_, _), part in rows.filter(measure="laid down by turn").group_by("bot", "opponent"):
        for number in (1, 2):
            values = part.filter(round=number).sort("turn")["value"].to_list()
            assert values == sorted(values)  # laid down by turn t never falls with t
    ratings = rows.filter(measure="rating")
    assert set(ratings["opponent"]) == {"greedy"} and set(ratings["bot"]) == set(roster)
    assert set(rows["measure"]) == set(LADDER_MEASURES)


def test_the_table_keeps_each_unit_in_a_checkpoint_and_plays_it_once(tmp_path):
    options = {"roster": ("greedy", "random"), "deals": 2, "rounds": 1, "seed": 5}
    options |= {"progress": False, "max_workers": 1, "bootstrap": 10}
    store = Checkpoint(tmp_path)
    first, spent = ladder_table([("standard", 2), ("family", 3)], checkpoint=store, **options)
    assert store.stored == 4 and set(spent) == {
        "standard 2: greedy vs random", "family 3: greedy vs random",
    }  # fmt: skip
    again = Checkpoint(tmp_path)
    second, _ = ladder_table([("standard", 2), ("family", 3)], checkpoint=again, **options)
    assert (again.reused, again.stored) == (4, 0) and second.equals(first)
    assert dict(first.schema) == LADDER_SCHEMA
    # A damaged line is not reused: its unit is played again, to the same table.
    lines = (tmp_path / "rounds.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"greedy"', '"greedy "', 1)
    (tmp_path / "rounds.jsonl").write_text("\n".join(lines) + "\n")
    warned = []
    third_store = Checkpoint(tmp_path, warn=warned.append)
    third, _ = ladder_table([("standard", 2), ("family", 3)], checkpoint=third_store, **options)
    assert len(warned) == 1 and "digest" in warned[0]
    assert (third_store.reused, third_store.stored) == (3, 1) and third.equals(first)
    with pytest.raises(RummyError, match="roster"):
        ladder_table([("standard", 2)], **{**options, "roster": ("greedy", "nobody")})


def test_the_schedule_connects_the_roster_and_pairs_every_cheap_bot():
    pairs = schedule(ROSTER, SCHEDULE)
    cheap = [n for n in ROSTER if n not in COSTLY]
    assert all((min(a, b), max(a, b)) in pairs for a in cheap for b in cheap if a != b)
    assert all((min(c, "greedy"), max(c, "greedy")) in pairs for c in COSTLY)


# -- the committed table ---------------------------------------------------------------


def _recorded() -> dict[tuple[str, int], list]:
    by_cell: dict[tuple[str, int], list] = {}
    for rules, players, value, seconds in json.loads(RECORDED.read_text()):
        assert seconds > 0
        by_cell.setdefault((rules, players), []).append(unit_from_json(value))
    return by_cell


def _committed() -> pl.DataFrame:
    return pl.read_parquet(ROOT / "data" / "ladder.parquet")


@pytest.mark.slow
def test_the_committed_ladder_is_the_table_of_its_recorded_plays():
    recipe = RECIPES["default"]
    by_cell = _recorded()
    assert set(by_cell) == {("standard", recipe.focus_players), *recipe.ladder_grid}
    committed = _committed()
    for (rules, players), results in by_cell.items():
        names = sorted({n for r in results for n in (r.unit.a, r.unit.b)})
        rows = pl.DataFrame(
            ladder_rows(names, results, seed=DATA_SEED, bootstrap=1000), schema=LADDER_SCHEMA
        )
        part = committed.filter(rules=rules, players=players)
        assert part.equals(rows), (rules, players)
    main = by_cell["standard", recipe.focus_players]
    assert {(r.unit.a, r.unit.b) for r in main} == set(schedule(ROSTER, SCHEDULE))
    assert max(r.unit.deal for r in main) + 1 == recipe.ladder_deals


@pytest.mark.slow
@pytest.mark.parametrize("pick", [0, 1])
def test_recorded_cheap_plays_replay_the_same(pick):
    # A cheap unit of the main ladder and one of the grid, played again from the seeds.
    recipe = RECIPES["default"]
    by_cell = _recorded()
    cell = ("standard", recipe.focus_players) if pick == 0 else recipe.ladder_grid[pick * 3]
    cheap = [r for r in by_cell[cell] if r.unit.a not in COSTLY and r.unit.b not in COSTLY]
    recorded = random.Random(pick).choice(cheap)
    names = (recorded.unit.a, recorded.unit.b)
    again = play_unit({n: ROSTER[n] for n in names}, recorded.unit, rules=cell[0], players=cell[1])
    assert again == recorded


def test_the_committed_ladder_reads_as_the_chapter_says():
    table = _committed()
    main = table.filter(rules="standard", players=4)
    rating = {r["bot"]: r for r in main.filter(measure="rating").to_dicts()}
    assert set(rating) == set(ROSTER) and rating["greedy"]["value"] == 0.0
    assert all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in rating.values())
    # RandomBot never lays down a contract in time to matter: far below everyone.
    assert rating["random"]["ci_high"] < min(
        r["ci_low"] for n, r in rating.items() if n != "random"
    )
    assert math.isclose(
        main.filter(measure="elo", bot="random")["value"].item(),
        rating["random"]["value"] * 400 / math.log(10),
    )
