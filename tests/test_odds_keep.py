"""keep_every_card: the exact chance of the contract in the deal plus t cards, from the
committed tables or counted when planned cheap, never estimated (issue 15, item 4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import rummykit.odds.counting.keep as keep
from rummykit import RuleSet
from rummykit.errors import ArgumentError, RuleSetError
from rummykit.odds import dealt_probability
from rummykit.odds.answer import known_probability
from rummykit.odds.cells import ExactCell
from rummykit.odds.data.plan import exact_seconds

STANDARD = RuleSet.preset("standard")


def no_counting(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("counted, though the value was known or too slow")

    monkeypatch.setattr(keep, "dealt_probability", refuse)


def test_each_row_is_the_exact_dealt_probability_of_the_deal_plus_t_cards():
    for rules, number, decks, jokers in (
        (STANDARD, 1, 2, 4),
        (STANDARD, 4, 3, 6),
        (RuleSet.preset("family"), 1, 2, 2),
        (RuleSet.preset("wikipedia"), 3, 2, 4),
    ):
        frame = keep.keep_every_card(rules, number, decks=decks, jokers=jokers, turns=range(0, 9))
        deal = rules.deal_sizes[number - 1]
        assert frame["cards"].to_list() == [deal + t for t in range(9)]
        for row in frame.iter_rows(named=True):
            expected = dealt_probability(
                rules.contracts[number - 1],
                decks=decks,
                jokers=jokers,
                cards=row["cards"],
                rules=rules,
            )
            assert row["method"] == "exact" and Fraction(row["p_exact"]) == expected
            assert row["p"] == float(expected)
        assert frame["p"].is_sorted()  # more cards can only help


def test_a_table_of_players_labels_the_rows_and_gives_the_shoe():
    frame = keep.keep_every_card("standard", 1, players=6, turns=[1, 2])
    assert set(frame["players"]) == {6}
    assert (frame["decks"][0], frame["jokers"][0]) == (3, 6)  # the preset's for 6 players
    assert dict(frame.schema) == keep.KEEP_SCHEMA


def test_committed_values_are_read_not_counted(monkeypatch):
    # Round 6 (1 set + 2 runs) at 14 cards: minutes to count, but data/exact_odds has it.
    cell = ExactCell(STANDARD, 6, STANDARD.contracts[5], 2, 4, 14)
    assert known_probability(cell) is not None and exact_seconds(cell) > keep.KEEP_SECONDS
    no_counting(monkeypatch)
    frame = keep.keep_every_card(STANDARD, 6, decks=2, jokers=4, turns=[2])
    assert frame["p_exact"][0] == str(known_probability(cell)) and frame["seconds"][0] == 0


def test_hand_sizes_too_slow_to_count_are_marked_and_not_estimated(monkeypatch):
    # 1 deck and 3 jokers: no committed table has that shoe.
    turns = range(1, 6)
    planned = [
        exact_seconds(ExactCell(STANDARD, 6, STANDARD.contracts[5], 1, 3, 12 + t)) for t in turns
    ]
    no_counting(monkeypatch)
    frame = keep.keep_every_card(STANDARD, 6, decks=1, jokers=3, turns=turns, max_seconds=0)
    assert frame["method"].to_list() == ["not counted"] * 5
    assert frame["p"].null_count() == frame["p_exact"].null_count() == 5
    assert frame["seconds"].to_list() == planned and min(planned) > 0


def test_one_sweep_of_the_largest_hand_serves_the_smaller_ones(monkeypatch):
    asked = []
    real = keep.dealt_probability

    def spy(contract, **kwargs):
        asked.append(kwargs["cards"])
        return real(contract, **kwargs)

    monkeypatch.setattr(keep, "dealt_probability", spy)
    keep.keep_every_card(STANDARD, 2, decks=1, jokers=3, turns=[1, 5, 3], max_seconds=60)
    assert asked == [15, 13, 11]  # the largest first: its sweep is cached for the rest


def test_bad_tables_fail_clearly():
    with pytest.raises(RuleSetError, match="family is played by 2 to 6 players, not 8"):
        keep.keep_every_card("family", 1, players=8)
    with pytest.raises(ArgumentError, match="round must be 1..7"):
        keep.keep_every_card("standard", 0, players=4)
    with pytest.raises(ArgumentError, match="give the players at the table or the decks"):
        keep.keep_every_card("standard", 1)
    with pytest.raises(ArgumentError, match="more than the 54 cards of 1 decks and 2 jokers"):
        keep.keep_every_card("standard", 1, decks=1, jokers=2, turns=[45])
    with pytest.raises(ArgumentError, match="turns must be non-negative integers"):
        keep.keep_every_card("standard", 1, players=4, turns=[-1])
