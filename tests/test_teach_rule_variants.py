"""Chapter 5's readers (rummykit/teach/rule_variants.py) against the presets and the tables
of data/ read one by one in plain Python."""

from __future__ import annotations

import dataclasses

import polars as pl
import pytest

from rummykit import RuleSet
from rummykit.chance import chance_text
from rummykit.odds.data.schemas import data_directory
from rummykit.odds.play.completion import round_summary
from rummykit.teach import rule_variants

DATA = data_directory()
STANDARD = RuleSet.preset("standard")
PRESETS = {name: RuleSet.preset(name) for name in RuleSet.presets()}


def test_preset_differences_lists_exactly_the_fields_some_preset_changes():
    table = rule_variants.preset_differences(PRESETS, STANDARD)
    fields = [f.name for f in dataclasses.fields(RuleSet)]
    field_of = {words: name for name, words in rule_variants.RULE_WORDS.items()}
    for name in fields:
        values = {repr(getattr(rules, name)) for rules in PRESETS.values()}
        listed = rule_variants.RULE_WORDS.get(name) in table["rule"].to_list()
        assert listed == (len(values) > 1 and name not in ("name", "contracts")), name
    for row in table.to_dicts():
        name = field_of[row["rule"]]
        for preset, rules in PRESETS.items():
            assert row[preset] == rule_variants.rule_text(name, getattr(rules, name))


def test_every_rule_has_words_a_learner_reads_and_no_two_alike():
    # A field added to RuleSet must be named in words before a table can show it.
    fields = [f.name for f in dataclasses.fields(RuleSet) if f.name not in ("name", "contracts")]
    words = rule_variants.RULE_WORDS
    assert list(words) == fields
    assert len(set(words.values())) == len(words)
    assert not [w for w in words.values() if "_" in w or w != w.strip()]


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("buy_limit", None, "no limit"),
        ("buy_limit", 3, "3"),
        ("last_round_buy_limit", None, "as other rounds"),
        ("going_out_discard", False, "no"),
        ("buy_timing", "before_draw", "before draw"),
        ("decks_by_players", ((2, 1), (3, 1), (4, 2)), "2-3: 1, 4-4: 2"),
        ("jokers_by_decks", ((2, 4), (3, 6)), "2 per deck"),
        ("deal_sizes", (10, 12), "10 12"),
    ],
)
def test_rule_text(name, value, words):
    assert rule_variants.rule_text(name, value) == words


def test_dealt_chances_read_impossible_only_for_an_exact_zero():
    frame = pl.read_parquet(DATA / "exact_presets.parquet").filter(decks=2)
    table = rule_variants.dealt_chances_by_preset(frame)
    for row in frame.to_dicts():
        cell = table.filter(round=row["round"])[row["rules"]].item()
        want = "impossible" if row["p_exact"] == "0" else chance_text(row["p"])
        assert cell == want
    assert table["round"].to_list() == sorted(table["round"].to_list())


def test_own_shoes_are_each_presets_decks_and_jokers_at_each_player_count():
    shoes = rule_variants.own_shoes(PRESETS)
    for name, rules in PRESETS.items():
        mine = shoes.filter(rules=name)
        assert mine["players"].to_list() == list(range(rules.min_players, rules.max_players + 1))
        for _, players, decks, jokers in mine.rows():
            assert decks == rules.decks_for(players) and jokers == rules.jokers_for(decks)


def test_half_and_ever_table_against_each_curve():
    by_turn = pl.read_parquet(DATA / "completion_by_turn.parquet")
    curves = by_turn.join(
        rule_variants.own_shoes(PRESETS), on=["rules", "players", "decks", "jokers"]
    ).filter(buy="improves", measure="laid down", players=4)
    tabled = sorted(set(curves["rules"]))
    table = rule_variants.half_and_ever_table(curves, [*tabled, "nobody"])
    assert table.columns == ["round", "contract", *tabled, "nobody"]
    assert set(table["nobody"]) == {"not simulated"}
    for (name, number), curve in curves.group_by("rules", "round"):
        rows = sorted(curve.select("turn", "p").rows())
        half = [t for t, p in rows if p >= 0.5]
        when = f"turn {half[0]}" if half else "never"
        want = f"{when}; {chance_text(rows[-1][1])}"
        assert table.filter(round=number)[name].item() == want
    assert rule_variants.half_and_ever_table(curves.clear(), tabled) is None


def test_rounds_with_is_round_summary_of_each_changed_rule_set():
    got = rule_variants.rounds_with(
        STANDARD, "buy_limit", (None, 1), label="limit", words=str, rounds=1, buy="always", n=30
    )
    for limit in (None, 1):
        rules = dataclasses.replace(STANDARD, buy_limit=limit, name=f"limit {limit}")
        want = round_summary(
            rules=rules,
            players=4,
            rounds=1,
            buy="always",
            n=30,
            seed=2026,
            max_workers=1,
            progress=False,
        )
        assert got.filter(limit=str(limit)).drop("limit").equals(want)


def test_chance_columns_renames_the_mean_and_its_interval():
    frame = pl.DataFrame({"k": [1], "mean": [0.3], "ci_low": [0.2], "ci_high": [0.4], "x": [9]})
    table = rule_variants.chance_columns(frame, "went out", "k")
    assert table.rows() == [(1, 0.3, 0.2, 0.4)]
    assert table.columns == ["k", "went out", "95% from", "95% to"]
