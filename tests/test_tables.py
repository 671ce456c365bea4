"""Long-form tables: schemas, exact values, and the committed data/ (what `rummykit tables`
writes with its default seed, checked by recomputing cheap parts of it)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import rummykit
from rummykit import Contract, RuleSet
from rummykit.odds import dealt_probability, distance_distribution
from rummykit.odds.cells import Cell, ExactCell, RoundRecord
from rummykit.odds.counting.tables import (
    counts_in_minutes,
    dealt_odds,
    distance_counts_quickly,
    distance_odds,
    exact_cells,
    exact_odds,
    preset_odds,
)
from rummykit.odds.data.plan import (
    SWEEP_SECONDS,
    SWEEP_SECONDS_FILE,
    UNMEASURED_RULES_FACTOR,
    counts_quickly,
    exact_seconds,
    parse_sweep_seconds,
    write_sweep_seconds,
)
from rummykit.odds.data.schemas import (
    BUYING_SCHEMA,
    BY_TURN_SCHEMA,
    CELL_COLUMNS,
    DISTANCE_SCHEMA,
    EXACT_SCHEMA,
    SCHEMAS,
    SEAT_SCHEMA,
    SUMMARY_SCHEMA,
    frame,
)
from rummykit.odds.pipeline import DATA_SEED, DESCRIPTIONS, RECIPES
from rummykit.odds.play import completion
from rummykit.odds.play.completion import buying_value, completion_tables
from rummykit.odds.play.outs_bot import OUTS_BOT_MEASURES, outs_bot_rows, play_outs_rounds
from tests.support.tiers import soak

STANDARD = RuleSet.preset("standard")
DATA = Path(__file__).resolve().parent.parent / "data"
RECIPE = RECIPES["default"]


# --------------------------------------------------------------------------- schemas


def test_exact_schema_is_the_documented_one():
    assert [(name, str(dtype)) for name, dtype in EXACT_SCHEMA.items()] == [
        ("rules", "String"),
        ("round", "Int8"),
        ("contract", "String"),
        ("decks", "Int8"),
        ("jokers", "Int8"),
        ("cards", "Int8"),
        ("players", "Int8"),
        ("p", "Float64"),
        ("p_exact", "String"),
        ("stderr", "Float64"),
        ("ci_low", "Float64"),
        ("ci_high", "Float64"),
        ("n", "Int64"),
        ("method", "String"),
    ]


def test_every_schema_starts_with_the_cell_columns():
    for name, schema in SCHEMAS.items():
        if name in ("ladder", "search_decisions"):  # games of bots, not a round and shoe
            assert list(schema)[:2] == ["rules", "players"]
            assert "ci_low" in schema and "ci_high" in schema
            assert ("value" in schema) != ("mean" in schema), name
            continue
        assert list(schema)[: len(CELL_COLUMNS)] == list(CELL_COLUMNS), name
        assert "stderr" in schema and "ci_low" in schema and "ci_high" in schema, name
        assert ("p" in schema) != ("mean" in schema), name
    assert list(DISTANCE_SCHEMA)[7] == "distance"
    assert [c for c in BY_TURN_SCHEMA if c not in EXACT_SCHEMA] == ["buy", "measure", "turn"]
    assert [c for c in SEAT_SCHEMA if c not in SUMMARY_SCHEMA] == ["position"]
    assert set(BUYING_SCHEMA) - set(SUMMARY_SCHEMA) == {
        "opponents",
        "difference",
        "difference_stderr",
        "difference_ci_low",
        "difference_ci_high",
    }
    assert set(SCHEMAS) == set(DESCRIPTIONS)


def test_frame_keeps_the_schema_and_rejects_unknown_columns():
    empty = frame([], EXACT_SCHEMA)
    assert dict(empty.schema) == EXACT_SCHEMA and empty.height == 0
    with pytest.raises(ValueError, match=r"columns not in the schema: \['colour'\]"):
        frame([{"rules": "standard", "colour": "red"}], EXACT_SCHEMA)


# --------------------------------------------------------------------------- exact tables


def test_exact_odds_are_dealt_probability():
    contracts = [STANDARD.contracts[0], STANDARD.contracts[3]]
    table = exact_odds(
        contracts=contracts, shoes=[(1, 2), (2, 0)], cards=[6, 10], progress=False, max_workers=1
    )
    assert dict(table.schema) == EXACT_SCHEMA
    assert table.select("round", "decks", "jokers", "cards").rows() == [
        (r, d, j, c) for r in (1, 4) for d, j in ((1, 2), (2, 0)) for c in (6, 10)
    ]
    for row in table.iter_rows(named=True):
        p = dealt_probability(
            STANDARD.contracts[row["round"] - 1],
            decks=row["decks"],
            jokers=row["jokers"],
            cards=row["cards"],
            rules=STANDARD,
        )
        assert Fraction(row["p_exact"]) == p
        assert row["p"] == float(p) == row["ci_low"] == row["ci_high"]
        assert (row["stderr"], row["n"], row["players"]) == (0.0, None, None)
        assert (row["method"], row["rules"]) == ("exact", "standard")


def test_exact_odds_checks_its_grid():
    with pytest.raises(ValueError, match="cannot deal 60 cards from 1 decks and 0 jokers"):
        exact_odds(shoes=[(1, 0)], cards=[60], progress=False, max_workers=1)
    with pytest.raises(TypeError, match="Contract"):
        exact_odds(contracts=["2 sets"], progress=False, max_workers=1)


def test_exact_odds_of_a_contract_no_round_plays():
    table = exact_odds(
        contracts=[rummykit.Contract(sets=1)],
        shoes=[(1, 0)],
        cards=[3],
        progress=False,
        max_workers=1,
    )
    assert table.select("round", "contract", "p_exact").row(0) == (None, "1 set", "1/425")


def test_distance_odds_is_a_distribution():
    table = distance_odds(
        contracts=[STANDARD.contracts[0]],
        shoes=[(1, 2)],
        cards=[7, 10],
        progress=False,
        max_workers=1,
    )
    assert dict(table.schema) == DISTANCE_SCHEMA
    for cards in (7, 10):
        part = table.filter(cards=cards)
        exact = distance_distribution(
            STANDARD.contracts[0], decks=1, jokers=2, cards=cards, rules=STANDARD
        )
        assert dict(zip(part["distance"], map(Fraction, part["p_exact"]), strict=True)) == exact
        assert part["distance"].is_sorted() and part["p_at_most"].is_sorted()
        assert part["p_at_most"][-1] == pytest.approx(1.0)
        assert part["p"].sum() == pytest.approx(1.0)


def test_simulated_distance_rows_hold_the_exact_values():
    """Rounds 1 and 4 simulated (they are counted in data/): for this seed every exact
    P(distance = d) and P(distance <= d) lies in its row's 95% Wilson interval, and
    within 4 standard errors of the estimate."""
    contracts = [STANDARD.contracts[0], STANDARD.contracts[3]]
    n = 20_000
    table = distance_odds(
        contracts=contracts,
        shoes=[(2, 4)],
        cards=[10],
        method="simulation",
        n=n,
        seed=DATA_SEED,
        progress=False,
        max_workers=1,
    )
    assert dict(table.schema) == DISTANCE_SCHEMA
    assert set(table["method"]) == {"simulation"} and (table["n"] == n).all()
    assert table["p_exact"].null_count() == table.height
    for contract in contracts:
        part = table.filter(contract=str(contract))
        exact = distance_distribution(contract, decks=2, jokers=4, cards=10, rules=STANDARD)
        # Every distance of probability 1/1000 or more is reached by some hand.
        assert {d for d, p in exact.items() if p > Fraction(1, 1000)} <= set(part["distance"])
        assert set(part["distance"]) <= set(exact)
        at_most = Fraction(0)
        for d, p in exact.items():
            at_most += p
            rows = part.filter(distance=d)
            if rows.height == 0:
                continue
            row = rows.row(0, named=True)
            assert row["ci_low"] <= p <= row["ci_high"], (contract, d)
            assert row["p_at_most_ci_low"] <= at_most <= row["p_at_most_ci_high"], (contract, d)
            spread = (float(p) * (1 - float(p)) / n) ** 0.5
            assert abs(row["p"] - float(p)) <= 4 * spread, (contract, d)
        assert part["p"].sum() == pytest.approx(1.0) and part["p_at_most"][-1] == 1.0


def test_distance_odds_auto_simulates_the_slow_contracts():
    round_1, round_5 = STANDARD.contracts[0], STANDARD.contracts[4]
    table = distance_odds(
        contracts=[round_1, round_5],
        shoes=[(1, 2)],
        cards=[7],
        method="auto",
        n=300,
        progress=False,
        max_workers=1,
    )
    exact, simulated = table.filter(round=1), table.filter(round=5)
    assert set(exact["method"]) == {"exact"} and set(simulated["method"]) == {"simulation"}
    assert exact["p_at_most_ci_low"].null_count() == exact.height
    assert exact["p_at_most_ci_high"].null_count() == exact.height
    assert simulated["p_at_most_ci_low"].null_count() == 0
    assert (simulated["p_at_most_ci_low"] <= simulated["p_at_most"]).all()
    assert (simulated["p_at_most"] <= simulated["p_at_most_ci_high"]).all()
    assert simulated["p_at_most"].is_sorted() and simulated["n"].to_list() == [300] * len(simulated)
    with pytest.raises(ValueError, match="method must be"):
        distance_odds(contracts=[round_1], method="sampled", progress=False)


def test_preset_odds_use_each_presets_rounds_and_shoes():
    table = preset_odds(["family", "wikipedia"], rounds=[1, 7], progress=False, max_workers=1)
    assert dict(table.schema) == EXACT_SCHEMA
    assert table.select("rules", "round", "decks", "jokers", "cards").rows() == [
        ("family", 1, 2, 2, 7),
        ("family", 7, 2, 2, 10),
        ("wikipedia", 1, 2, 4, 11),
        ("wikipedia", 1, 3, 6, 11),
        ("wikipedia", 7, 2, 4, 7),
        ("wikipedia", 7, 3, 6, 7),
    ]
    wikipedia = RuleSet.preset("wikipedia")
    p = dealt_probability(wikipedia.contracts[0], decks=3, jokers=6, cards=11, rules=wikipedia)
    assert table.filter(rules="wikipedia", round=1, decks=3)["p_exact"].item() == str(p)
    # 3 runs need 12 cards: 7 never hold them (no sweep needed).
    assert table.filter(rules="wikipedia", round=7)["p_exact"].to_list() == ["0", "0"]


def test_dealt_odds_simulates_where_asked_and_agrees_with_exact():
    cells = exact_cells(
        contracts=[STANDARD.contracts[0], STANDARD.contracts[1]], shoes=[(1, 2)], cards=[3, 10]
    )
    auto = dealt_odds(cells, method="auto", n=40_000, seed=1, progress=False, max_workers=1)
    # 3 cards never hold a contract: exact 0 whatever the method.
    assert auto.select("round", "cards", "method").rows() == [
        (1, 3, "exact"),
        (1, 10, "exact"),
        (2, 3, "exact"),
        (2, 10, "simulation"),
    ]
    assert [counts_quickly(c) for c in STANDARD.contracts] == [
        True,
        False,
        True,
        True,
        False,
        False,
        True,
    ]

    simulated = dealt_odds(
        cells[:2], method="simulation", n=40_000, seed=1, progress=False, max_workers=1
    )
    row = simulated.row(1, named=True)
    exact = float(
        dealt_probability(STANDARD.contracts[0], decks=1, jokers=2, cards=10, rules=STANDARD)
    )
    assert abs(row["p"] - exact) < 4 * row["stderr"]
    assert row["ci_low"] < exact < row["ci_high"] and row["n"] == 40_000
    again = dealt_odds(
        cells[:2], method="simulation", n=40_000, seed=1, progress=False, max_workers=2
    )
    assert again.equals(simulated)
    with pytest.raises(ValueError, match="method must be"):
        dealt_odds(cells, method="guess")


# --------------------------------------------------------------------------- data/


def _cell(round_, decks, cards=12, rules=STANDARD, jokers=None):
    jokers = 2 * decks if jokers is None else jokers
    return ExactCell(rules, round_, rules.contracts[round_ - 1], decks, jokers, cards)


def test_sweep_seconds_round_trip_through_the_data_file(tmp_path):
    # Made-up figures: every kind of value the benchmark writes (None: stopped), keys and
    # hand sizes in an order that is not sorted, which the file keeps.
    made_up = {
        ("wikipedia", 1, 2, 3): {14: None, 11: 0.46, 12: 1.1},
        ("standard", 2, 1, 1): {10: 0.038, 15: 123.4},
        ("pagat", 1, 1, 2): {11: 1e-05},
    }
    path = tmp_path / SWEEP_SECONDS_FILE
    write_sweep_seconds(made_up, path)
    again = parse_sweep_seconds(path.read_text(encoding="utf-8"))
    assert again == made_up
    assert list(again) == list(made_up)
    assert [list(by) for by in again.values()] == [list(by) for by in made_up.values()]
    # The package's own file is what SWEEP_SECONDS holds, and rewriting it changes nothing.
    shipped = Path(rummykit.__file__).parent / "odds" / SWEEP_SECONDS_FILE
    assert parse_sweep_seconds(shipped.read_text(encoding="utf-8")) == SWEEP_SECONDS
    write_sweep_seconds(SWEEP_SECONDS, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == shipped.read_bytes()


def test_the_benchmark_writes_what_it_measures(tmp_path, monkeypatch, capsys):
    # benchmarks/sweep_seconds.py --write on a one-sweep grid with a made-up measure (the
    # real one takes minutes): rounded as printed, stopped at the first None.
    spec = importlib.util.spec_from_file_location(
        "sweep_seconds_benchmark",
        Path(__file__).resolve().parent.parent / "benchmarks" / "sweep_seconds.py",
    )
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    shipped = Path(rummykit.__file__).parent / "odds" / SWEEP_SECONDS_FILE
    assert shipped == bench.DATA_FILE  # the file SWEEP_SECONDS is read from
    made_up = {10: 0.01234, 12: 12.345, 14: None, 15: 99.0}
    monkeypatch.setattr(bench, "SWEEP_SECONDS", {("pagat", 2, 1, 3): dict.fromkeys(made_up, 1.0)})
    monkeypatch.setattr(bench, "measure", lambda *args: made_up[args[4]])
    monkeypatch.setattr(bench, "DATA_FILE", tmp_path / SWEEP_SECONDS_FILE)
    monkeypatch.setattr("sys.argv", ["sweep_seconds.py", "--write"])
    bench.main()
    written = parse_sweep_seconds(bench.DATA_FILE.read_text(encoding="utf-8"))
    assert written == {("pagat", 2, 1, 3): {10: 0.012, 12: 12.3, 14: None}}
    assert "('pagat', 2, 1, 3): {10: 0.012, 12: 12.3, 14: None}," in capsys.readouterr().out


def test_sweep_seconds_holds_what_the_planner_reads():
    # Every preset shares its sweep rules with a measured one; the measured presets' mixed
    # contracts are there with 2 and 3 decks; hand sizes are numbers, seconds positive.
    measured_rules = {RuleSet.preset(n).meld_rules for n, *_ in SWEEP_SECONDS}
    for name in RuleSet.presets():
        assert RuleSet.preset(name).meld_rules in measured_rules, name
    for name in ("standard", "pagat", "wikipedia"):
        for contract in RuleSet.preset(name).contracts:
            if contract.sets and contract.runs:
                for decks in (2, 3):
                    assert (name, contract.sets, contract.runs, decks) in SWEEP_SECONDS
    for by_cards in SWEEP_SECONDS.values():
        assert by_cards and all(isinstance(cards, int) for cards in by_cards)
        assert all(v is None or (isinstance(v, float) and v > 0) for v in by_cards.values())
    # The cells the planner's tests below quote.
    assert {12, 14} <= set(SWEEP_SECONDS["standard", 2, 1, 2])
    assert 15 in SWEEP_SECONDS["standard", 1, 2, 3]
    assert all(12 in SWEEP_SECONDS[name, 1, 2, 2] for name in ("standard", "pagat", "wikipedia"))


def test_a_measured_sweep_is_planned_at_its_measurement():
    # Every measured cell, under its preset and every preset with the same sweep rules.
    for (name, sets, runs, decks), by_cards in SWEEP_SECONDS.items():
        for preset in RuleSet.presets():
            rules = RuleSet.preset(preset)
            if rules.meld_rules != RuleSet.preset(name).meld_rules:
                continue
            number = rules.contracts.index(Contract(sets=sets, runs=runs)) + 1
            for cards, seconds in by_cards.items():
                planned = exact_seconds(_cell(number, decks, cards, rules, jokers=8))
                if cards < rules.contracts[number - 1].min_cards(rules):
                    assert planned == 0  # no sweep: too few cards for the contract
                else:
                    assert planned == seconds, (preset, sets, runs, decks, cards)
    # Pure contracts count in about a second at most; a hand too small, in none.
    assert all(exact_seconds(_cell(r, 3, 15)) == 1.0 for r in (1, 3, 4, 7))
    assert exact_seconds(_cell(6, 3, 10)) == 0.0  # 1 set + 2 runs needs 11 cards


def test_the_plan_between_and_beyond_the_measurements():
    def plan(*args, **kwargs):
        return exact_seconds(_cell(*args, **kwargs))

    # Between two measured hand sizes: between their times.
    assert (
        SWEEP_SECONDS["standard", 2, 1, 2][12]
        < plan(5, 2, 13)
        < SWEEP_SECONDS["standard", 2, 1, 2][14]
    )
    # Beyond the largest measured hand, at least 1.5 times as long per card: pagat round
    # 2 with 3 decks, 8 jokers and 15 cards (about 4 s measured by hand) is seconds.
    pagat = RuleSet.preset("pagat")
    assert 2.5 * 1.5 <= plan(2, 3, 15, pagat, jokers=8) < 6
    # Standard round 6 with 3 decks, 8 jokers and 15 cards is measured: 76 s.
    assert plan(6, 3, 15, jokers=8) == 76.2
    # More cards, more decks or more jokers never plan a faster sweep.
    for rules in (STANDARD, pagat, RuleSet.preset("wikipedia")):
        for number in (2, 5, 6):
            times = [plan(number, 3, c, rules) for c in range(11, 19)]
            assert times == sorted(times), (rules.name, number)
            by_decks = [plan(number, d, 14, rules) for d in range(1, 7)]
            assert by_decks == sorted(by_decks), (rules.name, number)
    assert plan(2, 2, 12, RuleSet.preset("wikipedia"), jokers=16) > plan(
        2, 2, 12, RuleSet.preset("wikipedia"), jokers=8
    )
    # Jokers the contract cannot use cost nothing (2 per meld: 1 set + 1 run uses 3).
    assert plan(2, 2, 12, jokers=30) == plan(2, 2, 12, jokers=8)


def test_unmeasured_rules_are_planned_slower_than_they_take():
    # Runs of 3 are no preset's rule: the plan is the slowest preset's times 8. Measured
    # here on one core: 1 set + 2 runs, 2 decks, 12 cards, 4 jokers took 6.8 s (1.0 s
    # under standard), 1 set + 1 run with 8 jokers 0.6 s.
    short = dataclasses.replace(STANDARD, name="short runs", min_run_size=3)
    assert exact_seconds(_cell(6, 2, 12, short, jokers=4)) >= 6.8
    assert exact_seconds(_cell(2, 2, 12, short, jokers=8)) >= 0.6
    slowest = max(SWEEP_SECONDS[name, 1, 2, 2][12] for name in ("standard", "pagat", "wikipedia"))
    assert exact_seconds(_cell(6, 2, 12, short)) == slowest * UNMEASURED_RULES_FACTOR
    # A mixed contract no preset plays: planned from the slowest measured contract.
    two_and_two = ExactCell(STANDARD, None, Contract(sets=2, runs=2), 2, 4, 14)
    assert exact_seconds(two_and_two) >= max(
        SWEEP_SECONDS[k][14] for k in SWEEP_SECONDS if k[3] == 2 and 14 in SWEEP_SECONDS[k]
    )


def test_without_the_compiled_step_the_plan_is_slower(without_core):
    import rummykit.odds.data.plan as plan

    native = exact_seconds(_cell(5, 2, 12))
    without_core("sweep")
    assert exact_seconds(_cell(5, 2, 12)) == native * plan.PYTHON_SLOWDOWN
    assert exact_seconds(_cell(1, 2, 12)) == plan.PYTHON_SLOWDOWN  # pure: about 1 s


def test_counts_in_minutes_follows_the_plan():
    assert all(counts_in_minutes(_cell(r, 3)) for r in range(1, 8))
    assert counts_in_minutes(_cell(6, 3, 15)) and not counts_in_minutes(_cell(6, 3, 15), 1)
    assert counts_in_minutes(_cell(6, 3, 14), minutes=0.5) and not counts_in_minutes(
        _cell(6, 3, 14), minutes=0.25
    )
    # 1 set + 2 runs with 4 decks and 15 cards is not measured: 25 s at 14 cards grows.
    assert 60 < exact_seconds(_cell(6, 4, 15)) < 180
    assert not counts_in_minutes(_cell(2, 3, 15, RuleSet.preset("wikipedia")))


def committed(name: str) -> pl.DataFrame:
    return pl.read_parquet(DATA / f"{name}.parquet")


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_committed_files_and_provenance(name):
    table = committed(name)
    assert dict(table.schema) == SCHEMAS[name]
    assert table.height > 0
    assert pl.read_csv(DATA / f"{name}.csv", schema=SCHEMAS[name]).equals(table)
    provenance = json.loads((DATA / f"{name}.json").read_text())
    assert provenance["command"] == f"rummykit tables --seed {DATA_SEED}"
    assert provenance["rummykit_version"] == rummykit.__version__
    assert provenance["rows"] == table.height
    assert provenance["description"] == DESCRIPTIONS[name]
    assert provenance["schema"] == {c: str(t) for c, t in SCHEMAS[name].items()}
    assert isinstance(provenance["run_time_seconds"], float)
    if name == "outs_bot":  # the engine plays OutsBot: fewer deals, by round
        deals = dict(RECIPE.outs_rounds)
        assert provenance["seed"] == DATA_SEED and provenance["method"] == "simulation"
        assert provenance["n"] == {str(r): n for r, n in deals.items()}
        assert table.select((pl.col("n") == pl.col("round").replace_strict(deals)).all()).item()
    elif name == "ladder":  # whole games of bots: its own deals, its compute by pair
        n = {"standard": RECIPE.ladder_deals, "grid": RECIPE.ladder_grid_deals}
        assert provenance["seed"] == DATA_SEED and provenance["method"] == "simulation"
        assert provenance["n"] == n
        main = (pl.col("rules") == "standard") & (pl.col("players") == RECIPE.focus_players)
        deals = pl.when(main).then(n["standard"]).otherwise(n["grid"])
        assert table.select((pl.col("n") == deals).all()).item()
        cells = {(r, p) for r, p in table.select("rules", "players").unique().rows()}
        assert cells == {("standard", RECIPE.focus_players), *RECIPE.ladder_grid}
        assert all(seconds > 0 for seconds in provenance["cpu_seconds"].values())
    elif name == "search_decisions":  # games of a SearchBot among GreedyBots
        assert provenance["seed"] == DATA_SEED and provenance["method"] == "simulation"
        assert provenance["n"] == RECIPE.search_decision_deals
        assert provenance["cpu_seconds"] > 0
    elif provenance["method"] == "simulation":
        assert (provenance["seed"], provenance["n"]) == (DATA_SEED, RECIPE.n)
        if "rules" in table.columns:  # the other presets have their own rounds a cell
            n = pl.when(pl.col("rules") == "standard").then(RECIPE.n).otherwise(RECIPE.preset_n)
            assert provenance["preset_n"] == RECIPE.preset_n
            assert table.select((pl.col("n") == n).all()).item()
        else:
            assert (table["n"] == RECIPE.n).all()
        # Issue 15's scale: at least 10,000 rounds a cell of standard, 2,000 of the other
        # presets, and the whole `rummykit tables` run within 30 minutes (as recorded).
        assert RECIPE.n >= 10_000 and RECIPE.preset_n >= 2_000
        assert provenance["run"]["seconds"] <= 30 * 60
    elif provenance["method"] == "exact and simulation":
        hands = RECIPE.distance_hands if name == "distance" else RECIPE.dealt_hands
        assert (provenance["seed"], provenance["n"]) == (DATA_SEED, hands)
        exact = table.filter(method="exact")
        assert exact["p_exact"].null_count() == 0 and exact["n"].null_count() == exact.height
        simulated = table.filter(method="simulation")
        assert simulated.height > 0 and (simulated["n"] == hands).all()
        assert simulated["p_exact"].null_count() == simulated.height
        mixed = pl.col("contract").str.contains("set") & pl.col("contract").str.contains("run")
        assert simulated.filter(~mixed).height == 0
    else:
        assert provenance["method"] == "exact"
        assert set(table["method"]) == {"exact"} and table["p_exact"].null_count() == 0


def test_committed_grids_are_the_recipe():
    exact = committed("exact_odds")
    assert exact.height == len(RECIPE.exact_rounds) * len(RECIPE.exact_shoes) * len(
        RECIPE.exact_cards
    )
    jokers = committed("exact_jokers")
    assert sorted(set(jokers["jokers"])) == list(RECIPE.joker_range)
    by_turn = committed("completion_by_turn")
    assert sorted(set(by_turn["players"])) == list(RECIPE.players)
    assert sorted(set(by_turn["round"])) == list(RECIPE.rounds)
    assert set(by_turn["buy"]) == {"never", "improves", "always"}
    focus = by_turn.filter(players=RECIPE.focus_players, buy="improves")
    assert sorted(set(focus["jokers"])) == sorted({*RECIPE.joker_overrides, 4})
    assert set(committed("buying_value")["buy"]) == {"never", "improves", "always"}
    assert sorted(set(committed("distance")["round"])) == list(RECIPE.distance_rounds)


def test_committed_exact_tables_recompute():
    cheap = [STANDARD.contracts[0], STANDARD.contracts[3]]  # set contracts: fast sweeps
    recomputed = exact_odds(
        contracts=cheap,
        shoes=RECIPE.exact_shoes,
        cards=RECIPE.exact_cards,
        progress=False,
        max_workers=1,
    )
    assert committed("exact_odds").filter(pl.col("round").is_in([1, 4])).equals(recomputed)
    jokers = exact_odds(
        contracts=cheap,
        shoes=[(2, j) for j in RECIPE.joker_range],
        cards=RECIPE.joker_cards,
        progress=False,
        max_workers=1,
    )
    assert committed("exact_jokers").filter(pl.col("round").is_in([1, 4])).equals(jokers)
    presets = preset_odds(["family"], rounds=[1, 4], progress=False, max_workers=1)
    assert (
        committed("exact_presets")
        .filter(pl.col("rules") == "family", pl.col("round").is_in([1, 4]))
        .equals(presets)
    )
    distance = distance_odds(
        contracts=cheap[:1],
        shoes=RECIPE.distance_shoes,
        cards=RECIPE.distance_cards,
        progress=False,
        max_workers=1,
    )
    assert committed("distance").filter(round=1).equals(distance)


def test_committed_distance_covers_every_contract():
    table = committed("distance")
    for round_, contract in enumerate(STANDARD.contracts, start=1):
        part = table.filter(round=round_)
        assert part.height > 0 and set(part["contract"]) == {str(contract)}
        method = "exact" if distance_counts_quickly(contract) else "simulation"
        assert set(part["method"]) == {method}, round_
        for cell in part.partition_by("decks", "cards"):
            assert cell["p_at_most"][-1] == pytest.approx(1.0)
            assert cell["p_at_most"].is_sorted() and cell["distance"].is_sorted()
    assert set(table.filter(method="simulation")["round"]) == {5, 6}
    # Distance 0 is holding the contract, which exact_odds counts: each simulated share
    # lies within 4 standard errors of it (z was -2.0 to 2.5 for the committed seed).
    held = table.filter(method="simulation", distance=0).join(
        committed("exact_odds").select("round", "decks", "jokers", "cards", exact="p"),
        on=["round", "decks", "jokers", "cards"],
    )
    assert held.height == 6  # (round 6 with 10 cards: no hand held it)
    for row in held.iter_rows(named=True):
        spread = (row["exact"] * (1 - row["exact"]) / row["n"]) ** 0.5
        assert abs(row["p"] - row["exact"]) <= 4 * spread, row


@pytest.mark.slow
def test_committed_simulated_distance_recomputes_for_a_cell():
    # Per-cell seeds: one cell simulated alone is the same as inside the whole table.
    distance = distance_odds(
        contracts=[STANDARD.contracts[4]],
        shoes=[RECIPE.distance_shoes[0]],
        cards=[RECIPE.distance_cards[0]],
        method="simulation",
        n=RECIPE.distance_hands,
        seed=DATA_SEED,
        progress=False,
        max_workers=1,
    )
    decks, jokers = RECIPE.distance_shoes[0]
    part = committed("distance").filter(
        round=5, decks=decks, jokers=jokers, cards=RECIPE.distance_cards[0]
    )
    assert part.equals(distance)


def test_committed_completion_covers_every_preset_table():
    # Every preset at every player count of the recipe it allows, every round it has.
    rows = committed("completion_by_turn").filter(buy="improves")
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        players = [p for p in RECIPE.players if rules.min_players <= p <= rules.max_players]
        tables = set(rows.filter(rules=name).select("players", "round").iter_rows())
        expected = {(p, r) for p in players for r in range(1, rules.rounds + 1)}
        assert expected <= tables, (name, sorted(expected - tables))


def test_committed_outs_bot_table():
    table = committed("outs_bot")
    cells = set(table.select("round", "players", "decks", "jokers").iter_rows())
    assert cells == {(r, RECIPE.focus_players, 2, 4) for r, _ in RECIPE.outs_rounds}
    assert table["round"].to_list() == sorted(table["round"].to_list())
    assert set(table["bot"]) == {"outs", "greedy"} and set(table["opponents"]) == {"greedy"}
    assert set(table["measure"]) == set(OUTS_BOT_MEASURES)
    assert (table.filter(bot="greedy")["difference"] == 0).all()
    # The same deals: the paired differences are the differences of the means.
    outs = table.filter(bot="outs").sort("round", "measure", "turn")
    greedy = table.filter(bot="greedy").sort("round", "measure", "turn")
    assert outs["difference"].to_numpy() == pytest.approx(
        (outs["mean"] - greedy["mean"]).to_numpy(), abs=1e-12
    )
    by_turn = table.filter(measure="laid down by turn").sort("turn")
    for (round_, bot), rows in by_turn.group_by("round", "bot"):
        assert rows["mean"].is_sorted(), (round_, bot)
        laid = table.filter(round=round_, bot=bot, measure="laid down")["mean"].item()
        assert rows["mean"][-1] == laid
        assert (rows["interval"] == "wilson").all()
    # Recompute: the greedy half of round 1 from the seeds (the compiled simulator plays
    # it), every row up to the last turn it reaches.
    cell = completion.cells(players=RECIPE.focus_players, rounds=1)
    greedy_records = completion.simulate_cells(
        cell, n=dict(RECIPE.outs_rounds)[1], seed=DATA_SEED, max_workers=1, progress=False
    )
    again = outs_bot_rows(cell, greedy_records, greedy_records).filter(bot="greedy")
    last = again["turn"].max()
    part = table.filter(round=1, bot="greedy").filter(
        pl.col("turn").is_null() | (pl.col("turn") <= last)
    )
    assert part.equals(again)


#: The OutsBot plays of round 1 of the committed outs_bot table (its 200 deals, DATA_SEED,
#: 4 players), one RoundRecord a line, its fields in order. The engine takes about 0.75 s
#: of CPU a deal (OutsBot's two-draw chances), so the deals are played again in chunks
#: that xdist spreads over its workers, and the table is rebuilt from the records.
OUTS_BOT_PLAYS = Path(__file__).parent / "data" / "outs_bot_round1.json"
OUTS_BOT_CHUNK = 25


def _outs_bot_grid() -> list[Cell]:
    return completion.cells(players=RECIPE.focus_players, rounds=1)


def _recorded_outs_bot_plays() -> list[RoundRecord]:
    return [
        RoundRecord(*(tuple(value) if isinstance(value, list) else value for value in fields))
        for fields in json.loads(OUTS_BOT_PLAYS.read_text())
    ]


def test_committed_outs_bot_is_the_table_of_its_recorded_plays():
    # Round 1 of outs_bot from its greedy plays (simulated again from the seeds) and the
    # recorded OutsBot plays, which the next test plays again.
    grid = _outs_bot_grid()
    deals = dict(RECIPE.outs_rounds)[1]
    greedy = completion.simulate_cells(grid, n=deals, seed=DATA_SEED, max_workers=1, progress=False)
    outs = _recorded_outs_bot_plays()
    assert [record.index for record in outs] == list(range(deals))
    table = outs_bot_rows(grid, {grid[0]: outs}, greedy)
    assert committed("outs_bot").filter(round=1).equals(table)


def _chosen_outs_bot_deals(records: list[RoundRecord]) -> list[int]:
    """Deals of round 1 chosen for coverage: the first that each seat went out in, the
    shortest and the longest rounds, the most buys, a round without a buy, and the rounds
    in which the most seats never laid down."""
    chosen = {next(r.index for r in records if r.out == seat) for seat in {r.out for r in records}}
    chosen |= {min(records, key=lambda r: r.turns).index, max(records, key=lambda r: r.turns).index}
    chosen.add(max(records, key=lambda r: sum(r.buys)).index)
    chosen.add(next(r.index for r in records if not any(r.buys)))
    most_down = max(r.laid_down.count(None) for r in records)
    chosen |= {r.index for r in records if r.laid_down.count(None) == most_down}
    return sorted(chosen)


@pytest.mark.slow
def test_committed_outs_bot_plays_recompute_for_deals_chosen_for_coverage():
    # make test plays these again (the committed table is outs_bot_table's from the seeds
    # wherever they lead); make soak plays every deal, in the test below.
    (cell,) = _outs_bot_grid()
    recorded = _recorded_outs_bot_plays()
    deals = _chosen_outs_bot_deals(recorded)
    assert 8 <= len(deals) <= 16, deals
    assert play_outs_rounds(cell, DATA_SEED, deals) == [recorded[i] for i in deals]


@pytest.mark.parametrize(
    "start",
    [soak(start) for start in range(0, dict(RECIPE.outs_rounds)[1], OUTS_BOT_CHUNK)],
    ids=lambda start: f"deals {start}-{start + OUTS_BOT_CHUNK - 1}",
)
def test_committed_outs_bot_plays_recompute(start):
    # Together the cases play every deal of round 1 again: with the test above, the
    # committed table is what outs_bot_table computes from the seeds (make soak).
    (cell,) = _outs_bot_grid()
    deals = list(range(start, start + OUTS_BOT_CHUNK))
    recorded = _recorded_outs_bot_plays()[start : start + OUTS_BOT_CHUNK]
    assert play_outs_rounds(cell, DATA_SEED, deals) == recorded


@pytest.mark.slow
def test_committed_simulations_recompute_for_a_cell():
    # Per-cell seeds: one cell simulated alone is the same as inside the whole sweep.
    tables = completion_tables(
        players=2, rounds=4, n=RECIPE.n, seed=DATA_SEED, max_workers=1, progress=False
    )
    for name, table in tables.items():
        part = committed(name).filter(rules="standard", players=2, round=4)
        assert part.equals(table), name
    buying = buying_value(
        players=RECIPE.focus_players,
        rounds=[4],
        n=RECIPE.n,
        seed=DATA_SEED,
        max_workers=1,
        progress=False,
    )
    assert committed("buying_value").filter(round=4).equals(buying)


@pytest.mark.slow
def test_committed_exact_mixed_cells_agree_with_fresh_simulations():
    # The counts of contracts mixing sets and runs on full shoes are checked by an
    # independent method: 200,000 seeded hands each, within 4 standard errors.
    from rummykit.odds.dealt.simulate import simulate_dealt

    table = pl.read_parquet(DATA / "exact_odds.parquet").filter(
        pl.col("method") == "exact", pl.col("round").is_in([2, 5]), pl.col("cards") >= 10
    )
    cells = table.filter(
        ((pl.col("round") == 2) & (pl.col("cards") == 10)) | (pl.col("round") == 5)
    ).filter(pl.col("cards") <= 12)
    assert set(cells["round"]) == {2, 5} and set(cells["decks"]) == {1, 2, 3}
    for row in cells.iter_rows(named=True):
        contract = STANDARD.contracts[row["round"] - 1]
        p = Fraction(row["p_exact"])
        estimate = simulate_dealt(
            contract,
            decks=row["decks"],
            jokers=row["jokers"],
            cards=row["cards"],
            rules=STANDARD,
            n=200_000,
            seed=row["decks"] * 100 + row["cards"],
        )
        assert abs(float(estimate.p) - float(p)) <= 4 * float(estimate.stderr), row
