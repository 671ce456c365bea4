"""Chapter 4's table readers (rummykit/teach/table_play.py) against the tables of data/
read row by row in plain Python."""

from __future__ import annotations

import polars as pl
import pytest

from rummykit.chance import chance_text
from rummykit.odds.data.schemas import data_directory
from rummykit.teach import table_play

DATA = data_directory()
BY_TURN = pl.read_parquet(DATA / "completion_by_turn.parquet")
ROUND_1 = BY_TURN.filter(
    rules="standard", buy="improves", measure="laid down", round=1, decks=2, jokers=4
)


def _keep(curve: pl.DataFrame, shift: float) -> pl.DataFrame:
    """An exact line beside ``curve``: its chances moved by ``shift``, counted to turn 6."""
    rows = [(t, p + shift if t <= 6 else None) for t, p in curve.select("turn", "p").rows()]
    return pl.DataFrame(rows, schema={"turn": pl.Int64, "p": pl.Float64}, orient="row")


@pytest.mark.parametrize("shift", [-0.05, 0.0, 0.02, 0.3])
def test_read_off_against_the_curve_row_by_row(shift):
    curve = ROUND_1.filter(players=4)
    keep = _keep(curve, shift)
    said = table_play.read_off(curve, keep)
    rows = sorted(curve.select("turn", "p", "ci_low", "ci_high").rows())
    exact = {t: p for t, p in keep.rows() if p is not None}
    assert said["by turn 1"] == chance_text(rows[0][1])
    assert said["95% interval"] == f"{chance_text(rows[0][2])} to {chance_text(rows[0][3])}"
    assert said["keeping every card"] == chance_text(exact[1])
    half = [t for t, p, _, _ in rows if p >= 0.5]
    assert said["half by turn"] == (str(half[0]) if half else "never")
    behind = [t for t, _, _, high in rows if t in exact and high < exact[t]]
    assert said["behind from turn"] == (str(behind[0]) if behind else "not by 6")
    lead = max((p - exact[t], t) for t, p, _, _ in rows if t in exact)
    assert said["largest lead (points)"] == f"{100 * lead[0]:+.0f} at turn {lead[1]}"
    assert said["compared to turn"] == 6
    assert said["ever laid down"] == chance_text(rows[-1][1])


def test_read_off_table_gives_each_group_its_own_exact_line():
    curves = ROUND_1.filter(pl.col("players").is_in([2, 3]))
    keep = pl.concat(
        _keep(curves.filter(players=n), shift).with_columns(
            decks=pl.lit(2, pl.Int8), jokers=pl.lit(4, pl.Int8), players=pl.lit(n, pl.Int8)
        )
        for n, shift in ((2, 0.1), (3, -0.1))
    )
    table = table_play.read_off_table(curves, keep, by="players", match=("players",))
    assert table["players"].to_list() == [2, 3]
    for n in (2, 3):
        alone = table_play.read_off(curves.filter(players=n), keep.filter(players=n))
        assert table.filter(players=n).drop("players").row(0, named=True) == alone


def test_first_turn_above_counts_the_shoes_by_hand():
    curves = BY_TURN.filter(rules="standard", buy="improves", measure="laid down", round=1)
    curves = curves.filter(players=4)
    shoes = curves.filter(turn=1).select("decks", "jokers", "p", "ci_low").rows()
    keep = pl.DataFrame(
        [(d, j, 1, p - 0.01 * (d - 1)) for d, j, p, _ in shoes],
        schema={"decks": pl.Int8, "jokers": pl.Int8, "turn": pl.Int8, "p": pl.Float64},
        orient="row",
    )
    want_above = sum(p > p - 0.01 * (d - 1) for d, _, p, _ in shoes)
    want_clear = sum(low > p - 0.01 * (d - 1) for d, _, p, low in shoes)
    assert table_play.first_turn_above(curves, keep) == (want_above, want_clear, len(shoes))


def test_outs_bot_paired_scales_going_out_to_points_and_keeps_points_as_they_are():
    outs_bot = pl.read_parquet(DATA / "outs_bot.parquet")
    table = table_play.outs_bot_paired(outs_bot)
    source = {
        (r["round"], r["measure"]): r
        for r in outs_bot.filter(bot="outs").filter(pl.col("turn").is_null()).to_dicts()
    }
    assert table.height == 2 * 7 and table.columns[-1] == table_play.PAIRED_COLUMN
    assert table["measure"].to_list() == sorted(table["measure"].to_list())
    for row in table.to_dicts():
        measure = "went out" if row["measure"] == "went out (% points)" else row["measure"]
        assert measure in ("went out", "points minus opponents")
        assert row["n"] == source[(row["round"], measure)]["n"]
        scale = 100 if measure == "went out" else 1
        assert (
            row[table_play.PAIRED_COLUMN]
            == pl.DataFrame(
                {k: [source[(row["round"], measure)][k] * scale] for k in ("difference",)}
                | {
                    k: [source[(row["round"], measure)][k] * scale]
                    for k in ("difference_ci_low", "difference_ci_high")
                }
            )
            .select(
                table_play.interval_column("difference", "difference_ci_low", "difference_ci_high")
            )
            .item()
        )
