"""Chapter 3's table readers (rummykit/teach/odds_tables.py) against the tables of data/
read row by row in plain Python."""

from __future__ import annotations

from collections import defaultdict

import polars as pl
import pytest

from rummykit import RuleSet
from rummykit.chance import chance_text
from rummykit.odds.data.schemas import data_directory
from rummykit.teach import odds_tables

RULES = RuleSet.preset("standard")
DATA = data_directory()
EXACT = pl.read_parquet(DATA / "exact_odds.parquet")
DISTANCE = pl.read_parquet(DATA / "distance.parquet")
JOKERS = pl.read_parquet(DATA / "exact_jokers.parquet")


def _rows(frame: pl.DataFrame) -> list[dict]:
    return frame.to_dicts()


@pytest.mark.parametrize("decks, jokers", [(2, 4), (1, 2), (3, 6)])
def test_dealt_rows_are_the_shoes_rows_at_each_rounds_deal_size(decks, jokers):
    got = odds_tables.dealt_rows(EXACT, RULES, decks=decks, jokers=jokers)
    want = [
        row
        for row in _rows(EXACT)
        if row["decks"] == decks
        and row["jokers"] == jokers
        and row["cards"] == RULES.deal_sizes[row["round"] - 1]
    ]
    assert _rows(got) == want and {row["round"] for row in want} == set(range(1, 8))


def test_cells_by_method_counts_the_cells_of_each_method():
    counts: dict = defaultdict(int)
    sizes: dict = defaultdict(list)
    for row in _rows(EXACT):
        key = (row["round"], row["contract"], row["method"])
        counts[key] += 1
        if row["n"] is not None:  # an exact cell simulated no hands
            sizes[key].append(row["n"])
    most = {key: max(sizes[key], default=None) for key in counts}
    got = odds_tables.cells_by_method(EXACT).rows()
    assert got == [(*key, counts[key], most[key]) for key in sorted(counts)]


def test_table_chance_is_the_one_rows_chance_and_refuses_no_row():
    row = next(r for r in _rows(EXACT) if (r["round"], r["decks"], r["cards"]) == (5, 3, 12))
    assert odds_tables.table_chance(EXACT, 5, 12, decks=3, jokers=row["jokers"]) == row["p"]
    with pytest.raises(ValueError):  # polars: no row to take the item of
        odds_tables.table_chance(EXACT, 1, 99)


def test_chances_by_jokers_puts_each_chance_in_its_contract_and_column():
    ten = JOKERS.filter(cards=10)
    wide = odds_tables.chances_by(ten, "jokers")
    for row in _rows(ten):
        line = wide.filter(contract=row["contract"])
        assert line[str(row["jokers"])].item() == row["p"]


def test_distance_summary_against_sums_over_the_rows():
    deal = odds_tables.dealt_rows(DISTANCE, RULES)
    summary = {row["round"]: row for row in _rows(odds_tables.distance_summary(deal))}
    assert sorted(summary) == list(range(1, 8))
    for number, got in summary.items():
        rows = [row for row in _rows(deal) if row["round"] == number]
        assert got["mean distance"] == pytest.approx(sum(r["distance"] * r["p"] for r in rows))
        assert got["at most 1 away"] == pytest.approx(
            sum(r["p"] for r in rows if r["distance"] <= 1)
        )
        assert got["median distance"] == min(r["distance"] for r in rows if r["p_at_most"] >= 0.5)
        one = next(r for r in rows if r["distance"] == 1)
        if one["method"] == "exact":
            assert got["95% interval"] == "exact"
        else:
            low, high = chance_text(one["p_at_most_ci_low"]), chance_text(one["p_at_most_ci_high"])
            assert got["95% interval"] == f"{low} to {high}"


def test_cumulative_by_round_reads_p_at_most_and_is_1_past_the_largest_distance():
    deal = odds_tables.dealt_rows(DISTANCE, RULES)
    cdf = odds_tables.cumulative_by_round(deal, [1, 4])
    assert cdf.columns == ["distance", "1", "4"]
    seen = {(r["round"], r["distance"]): r["p_at_most"] for r in _rows(deal)}
    for row in _rows(cdf):
        for number in (1, 4):
            want = seen.get((number, int(row["distance"])), 1.0)
            assert row[str(number)] == want
