"""One regression test per fault of issue 25, items 5-7 (saves, unbounded public
functions, wrong error types): each is a RummyError naming the field, raised before any
work, and a valid call still gives what it gave."""

from __future__ import annotations

import json
import time

import pytest

import rummykit
from rummykit import CONTRACTS, Contract, RuleSet, check_meld, find_contract, parse_cards
from rummykit.cli import main
from rummykit.engine.game import Game, play_game
from rummykit.engine.saves import load
from rummykit.errors import (
    ArgumentError,
    ArgumentTypeError,
    CardTypeError,
    RuleSetError,
    RummyError,
    SaveFileError,
)
from rummykit.odds import (
    dealt_odds,
    dealt_probability,
    distance_distribution,
    running_estimate,
    simulate_dealt,
    simulate_distance,
    wilson_interval,
)
from rummykit.teach.probability import hypergeom_pmf

STANDARD = RuleSet.preset("standard")
HAND = dict(decks=2, jokers=4, cards=10, rules=STANDARD)


def _save() -> dict:
    state = Game(STANDARD, 3, seed=5).new_state()
    state.apply("draw stock")
    return json.loads(state.save())


def _refused(data: object, match: str) -> None:
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    started = time.perf_counter()
    with pytest.raises(SaveFileError, match=match):
        load(text)
    assert time.perf_counter() - started < 2


# ------------------------------------------------------------------------- 5. saves


def test_bytes_that_are_not_utf8_are_refused_not_recursed():
    deep = ("[" * 100_000).encode("utf-16")
    _refused(deep, "UTF-8")
    _refused(b"\xff" + b"[" * 100_000, "UTF-8")


def test_good_utf8_bytes_still_load():
    state = Game(STANDARD, 3, seed=5).new_state()
    assert load(state.save().encode("utf-8")).snapshot() == state.snapshot()


def test_duplicate_keys_are_refused():
    text = json.dumps(_save())
    _refused(text[:-1] + ', "seed": 4}', "key 'seed' twice")


@pytest.mark.parametrize("version", [True, 1.0])
def test_a_bool_or_float_version_is_refused(version):
    _refused({**_save(), "version": version}, "unknown save version")


def test_bools_for_scores_and_a_float_round_are_refused():
    data = _save()
    data["state"]["scores"] = [False] * 3
    _refused(data, "'state' 'scores' differs")
    data = _save()
    data["state"]["round"] = 1.0
    _refused(data, "'state' 'round' differs")
    data = _save()
    data["setup"]["round"] = 1.0
    _refused(data, "setup 'round' must be an integer")


def test_nan_is_refused():
    text = json.dumps(_save()).replace('"seed": 5', '"seed": NaN')
    _refused(text, "NaN")


@pytest.mark.parametrize("name", ["\ud800", "A\x00nn", "Bea\n", "x" * 41, ""])
def test_names_that_cannot_be_printed_are_refused(name):
    data = _save()
    data["names"][1] = name
    _refused(data, "'names', seat 1")
    with pytest.raises(ArgumentError, match="names"):
        Game(STANDARD, 2, names=["Ann", name])


def test_an_absurd_cut_is_refused():
    data = _save()
    data["setup"]["cut"] = 10**100
    _refused(data, "cut must be an integer from 1 to 107")
    rules = RuleSet.preset("family")
    if rules.perfect_cut_bonus:
        Game(rules, 2, seed=1).new_state(cut=3)  # a cut within the shoe is fine


def test_a_narrated_loaded_game_prints():
    state = load(json.dumps(_save()))
    assert "Ann" in state.narrate()


# ------------------------------------------------------------------------- 6. bounds


def test_simulate_batch_zero_is_refused():
    with pytest.raises(ArgumentError, match="batch must be an integer from 1"):
        simulate_dealt(CONTRACTS[0], **HAND, n=10, seed=1, batch=0)


def test_a_contract_of_a_million_sets_is_refused():
    with pytest.raises(RuleSetError, match="at most 26 melds"):
        Contract(sets=10**6)


def test_a_count_planned_over_an_hour_is_refused_with_the_ways_round_it():
    started = time.perf_counter()
    with pytest.raises(ArgumentError, match="allow_long=True.*simulate_dealt"):
        dealt_probability(CONTRACTS[4], decks=8, jokers=32, cards=30, rules=STANDARD)
    with pytest.raises(ArgumentError, match="takes hours.*simulate_distance"):
        distance_distribution(CONTRACTS[4], decks=2, jokers=4, cards=10, rules=STANDARD)
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: dealt_probability(CONTRACTS[0], decks=10**6, jokers=0, cards=6, rules=STANDARD),
            "decks must be an integer from 1 to 8",
        ),
        (
            lambda: hypergeom_pmf(1, population=10**7, successes=3, draws=4),
            "population must be an integer from 0 to 10000",
        ),
        (
            lambda: running_estimate(CONTRACTS[0], **HAND, n=100, seed=1, points=10**9),
            "points must be an integer from 1 to 10000",
        ),
        (
            lambda: simulate_dealt(CONTRACTS[0], **HAND, n=10**9, seed=1),
            "n must be an integer from 1 to 100000000",
        ),
    ],
)
def test_unbounded_arguments_are_refused(call, match):
    with pytest.raises(ArgumentError, match=match):
        call()


def test_rummykit_odds_refuses_a_long_count_and_names_allow_long(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["odds", "--contract", "5", "--decks", "4", "--jokers", "16", "--cards", "30"])
    assert exit_info.value.code == 2
    assert "--allow-long" in capsys.readouterr().err


# --------------------------------------------------------------------- 7. error types


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda: dealt_probability(CONTRACTS[0], decks=1, jokers=0, cards=60, rules=STANDARD),
            ArgumentError,
            "cards must be an integer from 0 to 52",
        ),
        (
            lambda: simulate_dealt(
                CONTRACTS[0], decks=1, jokers=0, cards=1000, rules=STANDARD, n=10, seed=1
            ),
            ArgumentError,
            "cards must be",
        ),
        (
            lambda: simulate_distance(
                CONTRACTS[0], decks=1, jokers=0, cards=1000, rules=STANDARD, n=10, seed=1
            ),
            ArgumentError,
            "cards must be",
        ),
        (lambda: check_meld(None, STANDARD), CardTypeError, "iterable of Card"),
        (
            lambda: check_meld(parse_cards("8S 8H 8D"), "standard"),
            ArgumentTypeError,
            "rules must be a RuleSet",
        ),
        (
            lambda: find_contract(parse_cards("8S 8H 8D"), CONTRACTS[0], None),
            ArgumentTypeError,
            "rules must be a RuleSet",
        ),
        (lambda: RuleSet.preset(["standard"]), RuleSetError, "named by a string"),
        (
            lambda: play_game(Game(STANDARD, 2, seed=1).new_state(), [None, None]),
            ArgumentTypeError,
            "seat 0's bot has no choose",
        ),
        (lambda: dealt_odds([1, 2, 3]), ArgumentTypeError, "cells must be a sequence of ExactCell"),
        (
            lambda: simulate_dealt(CONTRACTS[0], **HAND, n=10, seed=-1),
            ArgumentError,
            "seed must be an integer from 0",
        ),
        (
            lambda: simulate_dealt(CONTRACTS[0], **HAND, n=10, seed="x"),
            ArgumentTypeError,
            "seed must be an integer",
        ),
        (lambda: wilson_interval(-1, 10), ArgumentError, "successes must be"),
        (lambda: wilson_interval(5, 0), ArgumentError, "n must be a number of trials > 0"),
    ],
)
def test_plain_mistakes_are_rummy_errors_naming_the_field(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_wilson_interval_of_valid_counts_is_unchanged():
    low, high = wilson_interval(0, 100)
    assert low == 0.0 and round(high, 4) == 0.037
    assert wilson_interval(10, 10)[1] == 1.0


def test_every_rummy_error_is_exported_from_rummykit_and_errors():
    import rummykit.errors as errors

    raised = {
        name
        for name in dir(errors)
        if isinstance(getattr(errors, name), type) and issubclass(getattr(errors, name), RummyError)
    }
    assert "ArgumentError" in raised
    assert raised <= set(errors.__all__)
    assert raised <= set(rummykit.__all__)
