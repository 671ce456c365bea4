"""Completion by turn: rounds played by bots, seeds, intervals, sweeps on any executor."""

from __future__ import annotations

import dataclasses
import math

import polars as pl
import pytest

from rummykit import RuleSet, RuleSetError
from rummykit.agents.bots import BuyerBot
from rummykit.engine.game import Game
from rummykit.odds import cells as cell_values
from rummykit.odds.cells import Cell, round_seed
from rummykit.odds.data.pool import run_sweep
from rummykit.odds.data.schemas import BUYING_SCHEMA, BY_TURN_SCHEMA, SEAT_SCHEMA, SUMMARY_SCHEMA
from rummykit.odds.dealt.simulate import wilson_interval
from rummykit.odds.play import completion
from rummykit.odds.play.completion import (
    buying_value,
    cells,
    completion_tables,
    play_round,
    simulate_cells,
)

STANDARD = RuleSet.preset("standard")


def small_grid() -> list[Cell]:
    return cells(players=[2, 3], rounds=[1, 4])


@pytest.fixture(scope="module")
def serial_tables() -> dict[str, pl.DataFrame]:
    return completion_tables(
        players=[2, 3], rounds=[1, 4], n=6, seed=11, max_workers=1, progress=False
    )


# --------------------------------------------------------------------------- cells


def test_cell_takes_the_shoe_from_the_rules_or_the_override():
    assert (Cell(STANDARD, 4, 1).decks, Cell(STANDARD, 4, 1).jokers) == (2, 4)
    assert (Cell(STANDARD, 6, 1).decks, Cell(STANDARD, 6, 1).jokers) == (3, 6)
    cell = Cell(STANDARD, 4, 1, decks=2, jokers=0)
    table = cell_values._table_rules(cell.rules, cell.players, cell.decks, cell.jokers)
    assert Game(table, 4, seed=1).shoe.size == 104
    assert table.name == "standard"


def test_cell_rejects_bad_values():
    with pytest.raises(ValueError, match="buy must be one of"):
        Cell(STANDARD, 4, 1, buy="sometimes")
    with pytest.raises(ValueError, match="round must be 1..7"):
        Cell(STANDARD, 4, 8)
    with pytest.raises(RuleSetError, match="played by 2 to 8"):
        Cell(STANDARD, 9, 1)
    with pytest.raises(RuleSetError, match="cannot be dealt"):
        Cell(STANDARD, 8, 7, decks=1, jokers=0)
    with pytest.raises(ValueError, match="one buying policy per position"):
        Cell(STANDARD, 3, 1, buy=("never", "always"))


def test_one_policy_for_every_position_is_the_plain_cell():
    assert Cell(STANDARD, 3, 1, buy=("never",) * 3, rotate=True) == Cell(
        STANDARD, 3, 1, buy="never"
    )


def test_rotation_moves_the_policy_one_position_each_round():
    cell = Cell(STANDARD, 3, 1, buy=("always", "never", "never"), rotate=True)
    assert [cell.policy(p, 0) for p in (1, 2, 3)] == ["always", "never", "never"]
    assert [cell.policy(p, 1) for p in (1, 2, 3)] == ["never", "always", "never"]
    assert [cell.policy(p, 5) for p in (1, 2, 3)] == ["never", "never", "always"]


def test_seeds_do_not_depend_on_the_buying_policy():
    assert Cell(STANDARD, 4, 2, buy="never").seed_key == Cell(STANDARD, 4, 2, buy="always").seed_key
    assert round_seed(1, (4, 2, 4, 2), 3) != round_seed(2, (4, 2, 4, 2), 3)


# --------------------------------------------------------------------------- rounds


@pytest.mark.parametrize("rules", ["standard", "pagat", "wikipedia", "bga", "family"])
def test_round_records_are_consistent(rules):
    preset = RuleSet.preset(rules)
    for players in (preset.min_players, 5):
        for number in (1, preset.rounds):
            cell = Cell(preset, players, number)
            for index in range(2):
                record = play_round(cell, seed=3, index=index)
                assert record == play_round(cell, seed=3, index=index)
                assert record.index == index
                assert sum(record.seat_turns) == record.turns
                assert all(t >= 0 for t in record.seat_turns)
                for turn, taken in zip(record.laid_down, record.seat_turns, strict=True):
                    assert turn is None or 1 <= turn <= taken
                assert all(p >= 0 for p in record.points)  # penalties and bonuses removed
                if record.ended == "out":
                    assert record.points[record.out - 1] == 0
                    assert record.laid_down[record.out - 1] is not None
                else:
                    assert record.out is None
                if record.ended == "limit":
                    # Only family's last round (three runs from 10 cards, two jokers)
                    # is long enough to reach the safety limit with these seeds.
                    assert (rules, number) == ("family", 7)
                    assert record.turns == cell_values.TURN_LIMIT_PER_PLAYER * players


def test_a_record_is_the_round_the_engine_plays_from_its_seeds():
    cell = Cell(STANDARD, 3, 2)
    record = play_round(cell, seed=9, index=1)
    game_seed, bot_seed = round_seed(9, cell.seed_key, 1)
    state = Game(STANDARD, 3, seed=game_seed, turn_limit=180).new_state(round=2)
    seats = [(state.dealer + 1 + k) % 3 for k in range(3)]  # by position
    bots = {seat: BuyerBot("improves", seed=bot_seed + k) for k, seat in enumerate(seats)}
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert record.points == tuple(state.round_scores[0][seat] for seat in seats)
    laid = [e.seat for e in state.log if e.kind == "lay down"]
    assert sorted(laid) == sorted(
        s for s, t in zip(seats, record.laid_down, strict=True) if t is not None
    )


# --------------------------------------------------------------------------- sweeps


def test_cells_are_independent_of_the_grid_and_its_order():
    grid = small_grid()
    together = simulate_cells(grid, n=4, seed=5, max_workers=1, progress=False)
    alone = simulate_cells(grid[-1:], n=4, seed=5, max_workers=1, progress=False)
    backwards = simulate_cells(grid[::-1], n=4, seed=5, max_workers=1, progress=False)
    assert together[grid[-1]] == alone[grid[-1]]
    assert together == backwards
    longer = simulate_cells(grid[:1], n=12, seed=5, max_workers=1, progress=False)
    assert longer[grid[0]][:4] == together[grid[0]]


def test_process_pool_gives_the_serial_result(serial_tables):
    pooled = completion_tables(
        players=[2, 3], rounds=[1, 4], n=6, seed=11, max_workers=2, progress=False
    )
    for name, table in serial_tables.items():
        assert pooled[name].equals(table), name


def test_dask_cluster_gives_the_serial_result(serial_tables):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        tables = completion_tables(
            players=[2, 3],
            rounds=[1, 4],
            n=6,
            seed=11,
            executor=client.get_executor(),
            progress=False,
        )
    for name, table in serial_tables.items():
        assert tables[name].equals(table), name


def test_run_sweep_checks_its_arguments():
    with pytest.raises(ValueError, match="either an executor or max_workers"):
        run_sweep(pow, [(2, 2)], executor=object(), max_workers=2)
    with pytest.raises(ValueError, match="max_workers must be an integer from 1 to 256"):
        run_sweep(pow, [(2, 2)], max_workers=0)
    with pytest.raises(ValueError, match="one unit count per task"):
        run_sweep(pow, [(2, 2)], max_workers=1, units=[1, 2])
    assert run_sweep(pow, [], max_workers=1, progress=False) == []


def test_simulate_cells_checks_n_and_seed():
    with pytest.raises(ValueError, match="n must be an integer from 1 to 1000000"):
        simulate_cells(small_grid(), n=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        simulate_cells(small_grid(), n=2, seed=-1)


# --------------------------------------------------------------------------- tables


def test_tables_have_their_schemas(serial_tables):
    assert dict(serial_tables["completion_by_turn"].schema) == BY_TURN_SCHEMA
    assert dict(serial_tables["completion_summary"].schema) == SUMMARY_SCHEMA
    assert dict(serial_tables["seat_position"].schema) == SEAT_SCHEMA


def test_by_turn_probabilities_grow_and_sit_inside_their_intervals(serial_tables):
    by_turn = serial_tables["completion_by_turn"]
    assert set(by_turn["measure"]) == {"laid down", "anyone out"}
    assert by_turn["p_exact"].null_count() == by_turn.height
    assert set(by_turn["method"]) == {"simulation"}
    assert (by_turn["n"] == 6).all()
    for _, group in by_turn.group_by(["players", "round", "measure"], maintain_order=True):
        assert group["turn"].to_list() == list(range(1, group.height + 1))
        assert group["p"].is_sorted()
    ok = (by_turn["ci_low"] <= by_turn["p"] + 1e-12) & (by_turn["p"] <= by_turn["ci_high"] + 1e-12)
    assert ok.all()
    assert ((by_turn["ci_low"] >= 0) & (by_turn["ci_high"] <= 1)).all()


def test_by_turn_matches_the_records():
    grid = cells(players=3, rounds=1)
    records = simulate_cells(grid, n=5, seed=2, max_workers=1, progress=False)[grid[0]]
    by_turn = completion_tables(players=3, rounds=1, n=5, seed=2, max_workers=1, progress=False)
    laid = by_turn["completion_by_turn"].filter(measure="laid down", turn=3)["p"].item()
    expected = sum(x is not None and x <= 3 for r in records for x in r.laid_down) / 15
    assert laid == pytest.approx(expected)
    last = by_turn["completion_by_turn"].filter(measure="anyone out")["p"].to_list()[-1]
    assert last == pytest.approx(sum(r.ended == "out" for r in records) / 5)
    summary = by_turn["completion_summary"]
    turns = summary.filter(measure="turns")["mean"].item()
    assert turns == pytest.approx(sum(r.turns for r in records) / 5)


def test_summary_and_seat_measures(serial_tables):
    summary = serial_tables["completion_summary"]
    assert list(dict.fromkeys(summary["measure"])) == list(completion.SUMMARY_MEASURES)
    seats = serial_tables["seat_position"]
    assert seats.filter(players=3)["position"].unique().sort().to_list() == [1, 2, 3]
    went_out = seats.filter(measure="went out").group_by(["players", "round"]).agg(pl.sum("mean"))
    # At most one seat goes out in a round.
    assert (went_out["mean"] <= 1 + 1e-12).all()


def test_buying_value_compares_policies_on_the_same_deals():
    table = buying_value(players=3, rounds=[1], n=6, seed=4, progress=False, max_workers=1)
    assert dict(table.schema) == BUYING_SCHEMA
    assert list(dict.fromkeys(table["buy"])) == ["never", "improves", "always"]
    assert set(table["opponents"]) == {"improves"}
    never = table.filter(buy="never")
    assert never["difference"].to_list() == [0.0] * 4
    for policy in ("improves", "always"):
        rows = table.filter(buy=policy)
        expected = rows["mean"] - never["mean"]
        assert (rows["difference"] - expected).abs().max() < 1e-12
    # "improves" against "improves" opponents is the plain cell: the same deals and plays,
    # the seat under study at position index % players + 1 in round index.
    grid = cells(players=3, rounds=1)
    records = simulate_cells(grid, n=6, seed=4, max_workers=1, progress=False)[grid[0]]
    focal = table.filter(buy="improves", measure="points left")["mean"].item()
    assert focal == pytest.approx(sum(r.points[r.index % 3] for r in records) / 6)


def test_buying_grid_without_never_has_no_difference():
    table = buying_value(
        players=2,
        rounds=[4],
        n=2,
        seed=4,
        policies=["always", "improves"],
        progress=False,
        max_workers=1,
    )
    assert table["difference"].null_count() == table.height


# --------------------------------------------------------------------------- intervals


def wilson_by_formula(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    denominator = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return centre - half, centre + half


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (50, 100), (1, 1000)])
def test_wilson_interval(k, n):
    low, high = wilson_interval(k, n)
    expected = wilson_by_formula(k, n)
    assert low == pytest.approx(max(0.0, expected[0]), abs=1e-12)
    assert high == pytest.approx(min(1.0, expected[1]), abs=1e-12)
    assert low <= k / n <= high


def test_pooled_interval_uses_rounds_as_the_unit():
    # Seats that always agree carry no more information than one seat per round.
    same = completion._proportion([1.0, 0.0] * 10, seats=4)
    independent = completion._proportion([1.0, 0.0] * 10, seats=1)
    assert same["ci_low"] == pytest.approx(independent["ci_low"])
    assert same["n"] == 20
    # Seats that never agree within a round count as up to every seat-round.
    spread = completion._proportion([0.5] * 20, seats=4)
    assert spread["ci_low"] == pytest.approx(wilson_interval(40, 80)[0])


def test_cells_builds_every_combination_in_order():
    grid = cells(players=[4], rounds=[1, 7], jokers=[0, 4], buy=["never", "always"])
    assert [(c.round, c.jokers, c.buy) for c in grid] == [
        (1, 0, "never"),
        (1, 0, "always"),
        (1, 4, "never"),
        (1, 4, "always"),
        (7, 0, "never"),
        (7, 0, "always"),
        (7, 4, "never"),
        (7, 4, "always"),
    ]
    assert all(dataclasses.replace(c, buy="improves").seed_key == c.seed_key for c in grid)
