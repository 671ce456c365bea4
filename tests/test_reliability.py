"""Regression tests for the holes found by fuzzing the engine (issue 16), one group per
item: each bad input raises a specific RummyError naming the rule or field, and a
refused action leaves ``save()`` byte-identical."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import time

import pytest

from rummykit.agents.bots import GreedyBot
from rummykit.engine.actions import Discard, LayDown, LayOff, Swap, parse_action
from rummykit.engine.cards import Card, parse_cards
from rummykit.engine.events import BuyLimitDetails
from rummykit.engine.game import Game, GameState
from rummykit.engine.melds import (
    MAX_RUN_LENGTH,
    check_lay_down,
    check_meld,
    lay_off_options,
)
from rummykit.engine.narrate import narrate
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS, MAX_PLAYERS, Contract, RuleSet
from rummykit.engine.saves import MAX_SAVE_BYTES, load
from rummykit.engine.search import contract_distance, find_contract
from rummykit.errors import (
    ActionTypeError,
    ArgumentError,
    ArgumentTypeError,
    CardTypeError,
    IllegalActionError,
    IllegalMeldError,
    RuleSetError,
    RummyError,
    SaveFileError,
)

STANDARD = RuleSet.preset("standard")
ALL_HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def refused(state: GameState, action, error=IllegalActionError, match: str = "") -> None:
    """``action`` raises ``error`` (matching ``match``) and the save does not change."""
    before = state.save()
    with pytest.raises(error, match=match):
        state.apply(action)
    assert state.save() == before


def one_run_table(hand: str, *, deal: int = 14) -> GameState:
    """Seat 0 of 2 holds ``hand`` under one-run contracts dealing ``deal`` cards, to play."""
    rules = dataclasses.replace(STANDARD, contracts=(Contract(runs=1),) * 7, deal_sizes=(deal,) * 7)
    state = Game(rules, 2, seed=3).new_state(dealer=1, hands=[hand, None], upcard="2S")
    state.apply("draw stock")
    if state.phase == "buy":
        state.apply("pass")
    return state


# ------------------------------------------------------------------ 1. at most 13 in a run


def test_a_fourteen_card_run_with_the_ace_low_and_high_is_not_a_meld():
    cards = parse_cards(ALL_HEARTS + " JK")
    check = check_meld(cards, STANDARD)
    assert not check.ok and "at most 13 cards" in check.reason
    assert not check_meld(cards, STANDARD, kind="run").ok
    assert check_meld(parse_cards(ALL_HEARTS), STANDARD).ok  # 13 cards: the ace low
    assert check_meld(parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"), STANDARD).ok
    with pytest.raises(IllegalMeldError, match="at most 13 cards"):
        check_lay_down([cards], Contract(runs=1), STANDARD)


def test_a_fourteen_card_run_is_refused_in_a_game_and_thirteen_accepted():
    state = one_run_table(ALL_HEARTS + " JK")
    refused(state, f"lay down {ALL_HEARTS} JK", match="at most 13 cards")
    state.apply(f"lay down {ALL_HEARTS}")
    run = state.melds[0]
    assert len(run) == MAX_RUN_LENGTH
    # Nothing extends a 13-card run: not the joker, at either end.
    assert lay_off_options(run, Card.joker(0), state.rules) == ()
    refused(state, "lay off JK -> 0", match="cannot lay off")


def test_the_contract_finder_never_builds_a_run_of_more_than_13():
    long_runs = dataclasses.replace(STANDARD, min_run_size=13, max_jokers_per_meld=None)
    hand = parse_cards(ALL_HEARTS + " JK JK")
    melds = find_contract(hand, Contract(runs=1), long_runs)
    assert melds is not None and all(len(m) <= MAX_RUN_LENGTH for m in melds)
    assert all(check_meld(m.cards, long_runs).ok for m in melds)
    assert contract_distance(hand, Contract(runs=1), long_runs) == 0
    # A 14-card minimum is a rule set that cannot be played at all.
    with pytest.raises(RuleSetError, match="no run is possible"):
        dataclasses.replace(STANDARD, min_run_size=14)
    # Random heart-heavy hands: every meld found is legal and at most 13 long.
    rng = random.Random(16)
    pool = parse_cards(f"{ALL_HEARTS} {ALL_HEARTS} JK JK JK JK")
    loose = dataclasses.replace(STANDARD, max_jokers_per_meld=None, min_naturals_in_run=1)
    for _ in range(200):
        hand = rng.sample(pool, rng.randint(8, 24))
        for contract in (Contract(runs=1), Contract(runs=2), Contract(sets=1, runs=1)):
            for melds in (find_contract(hand, contract, loose) or [],):
                for meld in melds:
                    assert len(meld) <= MAX_RUN_LENGTH and check_meld(meld.cards, loose).ok


# ------------------------------------------------------- 2. meld numbers too long to read


def test_a_meld_number_of_thousands_of_digits_is_an_action_error():
    huge = "lay off 9H -> " + "1" * 4301
    with pytest.raises(IllegalActionError, match="at most 6 digits"):
        parse_action(huge)
    with pytest.raises(IllegalActionError, match="at most 6 digits"):
        parse_action("swap 9H -> " + "9" * 50)
    state = Game(players=3, seed=2).new_state()
    refused(state, huge, match="at most 6 digits")
    data = json.loads(state.save())
    data["actions"] = [[state.to_act, huge]]
    with pytest.raises(SaveFileError, match="action 0 .* illegal on replay"):
        load(json.dumps(data))
    assert parse_action("lay off 9H -> 123456").meld == 123456


# --------------------------------------------------------------------- 3. deep nesting


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1"])
def test_deeply_nested_json_is_refused_without_recursion(text):
    with pytest.raises(SaveFileError, match="nests more than"):
        load(text)


def test_brackets_inside_strings_do_not_count_as_nesting():
    state = Game(players=3, seed=2, names=["[[[[[[[[[[", "{{{{{{{{{{", "]]]"]).new_state()
    assert load(state.save()).snapshot() == state.snapshot()


# --------------------------------------------------------------- 4. bounded rules and saves


def test_every_preset_is_within_the_documented_bounds():
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        assert rules.max_players <= MAX_PLAYERS
        assert all(decks <= MAX_DECKS for _, decks in rules.decks_by_players)
        assert all(jokers <= MAX_JOKERS for _, jokers in rules.jokers_by_decks)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"jokers_by_decks": ((2, 10**12),)}, "jokers_by_decks"),
        ({"jokers_by_decks": ((2, MAX_JOKERS + 1),)}, "jokers from 0 to 32"),
        ({"decks_by_players": ((2, 9),)}, "decks from 1 to 8"),
        ({"max_players": 10**12}, "max_players"),
        ({"deal_sizes": (10**9,) * 7}, "deal size"),
        ({"decks_by_players": ((2,),)}, "decks_by_players"),
        ({"ace_low": "yes"}, "ace_low must be True or False"),
        ({"contracts": (Contract(sets=1),) * 21, "deal_sizes": (10,) * 21}, "at most 20"),
    ],
)
def test_rule_sets_beyond_the_bounds_are_refused(change, match):
    with pytest.raises(RuleSetError, match=match):
        dataclasses.replace(STANDARD, **change)


def test_a_save_with_a_huge_shoe_is_refused_before_any_work():
    data = json.loads(Game(players=3, seed=2).new_state().save())
    data["rules"]["jokers_by_decks"] = [[2, 1_000_000_000_000]]
    start = time.process_time()
    with pytest.raises(SaveFileError, match="jokers_by_decks"):
        load(json.dumps(data))
    assert time.process_time() - start < 1  # minutes and gigabytes before the bound


def test_a_save_over_one_megabyte_is_refused_unread():
    text = Game(players=3, seed=2).new_state().save()
    with pytest.raises(SaveFileError, match="more than the 1,000,000"):
        load(text + " " * MAX_SAVE_BYTES)
    # The limit counts UTF-8 bytes: 300,000 four-byte characters are 1.2 MB.
    with pytest.raises(SaveFileError, match=r"is 1,2\d\d,\d\d\d bytes"):
        load(text[:-1] + ', "x": "' + "\U0001f0a1" * 300_000 + '"}')
    with pytest.raises(SaveFileError, match="JSON text"):
        load(None)


# ------------------------------------------------------------------------ 5. card strings


@pytest.mark.parametrize("value", [None, 5, 1.5, b"8H 9H", object()])
def test_parse_cards_of_a_non_string_is_a_card_error(value):
    with pytest.raises(CardTypeError, match="give a string of card codes"):
        parse_cards(value)
    assert issubclass(CardTypeError, TypeError) and issubclass(CardTypeError, RummyError)


def test_card_codes_of_the_wrong_type_in_a_list_are_card_errors():
    with pytest.raises(CardTypeError, match="a card code is a string"):
        parse_cards(["8H", 9])


# ----------------------------------------------------------------- 6. action constructors


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: Discard("QS"), "a discard's card must be a Card"),
        (lambda: Discard(None), "a discard's card must be a Card"),
        (lambda: LayOff("9H", 0), "a lay-off's card must be a Card"),
        (lambda: Swap("9H", 0), "a swap's card must be a Card"),
        (lambda: LayDown([["8S", "8H", "8D"]]), "a lay-down's card must be a Card"),
        (lambda: LayDown(None), "a lay-down's melds must be"),
        (lambda: LayDown("8S 8H 8D"), "a lay-down's melds must be"),
        (lambda: LayDown([Card.parse("8S")]), "each meld of a lay-down"),
        (lambda: LayOff(Card.parse("9H"), "2"), "meld number must be an integer"),
    ],
)
def test_action_constructors_check_their_fields(build, match):
    with pytest.raises(ActionTypeError, match=match):
        build()


def test_a_negative_meld_number_is_refused_when_built():
    with pytest.raises(IllegalActionError, match="0 or more"):
        Swap(Card.parse("7H"), -1)


# ------------------------------------------------------------------ 7. bool meld numbers


@pytest.mark.parametrize("number", [False, True])
def test_a_bool_is_not_a_meld_number(number):
    card = Card.parse("6S")
    with pytest.raises(ActionTypeError, match="meld number must be an integer, got"):
        LayOff(card, meld=number)
    with pytest.raises(ActionTypeError, match="meld number must be an integer"):
        Swap(card, number)
    assert str(LayOff(card, 0)) == "lay off 6S -> 0"


# ------------------------------------------------------------------ 8. argument errors


def test_view_and_hand_seats_are_argument_errors():
    state = Game(players=3, seed=1).new_state()
    for seat in (-1, 3):
        with pytest.raises(ArgumentError, match="seat must be 0..2"):
            state.view(seat)
        with pytest.raises(ArgumentError, match="seat must be 0..2"):
            state.hand(seat)
    for seat in (None, "0", True, 1.0):
        with pytest.raises(ArgumentTypeError, match="seat must be an integer"):
            state.view(seat)
    assert issubclass(ArgumentError, ValueError) and issubclass(ArgumentTypeError, TypeError)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"rules": 5}, ArgumentTypeError, "rules must be a RuleSet"),
        ({"seed": "7"}, ArgumentTypeError, "seed must be an int"),
        ({"seed": True}, ArgumentTypeError, "seed must be an int"),
        ({"names": ["Ann", "Bea"]}, ArgumentError, "names: give one non-empty name"),
        ({"names": ["Ann", "", "Cal"]}, ArgumentError, "names: give one non-empty name"),
        ({"names": "AnnBeaCal"}, ArgumentTypeError, "names must be a sequence"),
        ({"names": 3}, ArgumentTypeError, "names must be a sequence"),
        ({"turn_limit": 0}, ArgumentError, "turn_limit must be None or an integer >= 1"),
        ({"turn_limit": "9"}, ArgumentTypeError, "turn_limit must be None or an integer"),
        ({"max_reshuffles": -1}, ArgumentError, "max_reshuffles"),
        ({"players": 9}, RuleSetError, "2 to 8 players"),
    ],
)
def test_game_arguments_are_rummy_errors(kwargs, error, match):
    kwargs = {"rules": "standard", "players": 3, **kwargs}
    with pytest.raises(error, match=match):
        Game(**kwargs)


def test_new_state_arguments_are_argument_errors():
    game = Game(players=3, seed=1)
    for setup, match in (
        ({"round": 0}, "round must be 1..7"),
        ({"dealer": 3}, "dealer must be a seat"),
        ({"scores": [1, 2]}, "scores must give one integer per seat"),
        ({"hands": [None]}, "one entry .* per seat"),
        ({"hands": ["JK JK JK JK JK 2C 3C 4C 5C 6C", None, None]}, "hand of seat 0"),
    ):
        with pytest.raises(ArgumentError, match=match):
            game.new_state(**setup)


# ------------------------------------------------------- 9. saves, end turn, buy limit, view


@functools.cache
def _finished_game() -> GameState:
    """A whole game of greedy bots (shared: the tests only read it)."""
    return Game("standard", 3, seed=11).play([GreedyBot(seed=s) for s in range(3)])


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d["state"]["hands"][1].append("2C/0"), r"'hands' differs for seat 1 \(Bea\)"),
        (lambda d: d["state"]["scores"].__setitem__(2, 0), "'scores' differs for seat 2"),
        (lambda d: d["state"]["stock"].pop(), "'stock' differs"),
        (lambda d: d["state"].pop("stock"), "'state' must be an object with the keys"),
        (
            lambda d: d["setup"].update(hands=[["8H"] * 9, None, None]),
            "set-up cannot be dealt: no 8♥ is left in the shoe for the hand of seat 0",
        ),
        (lambda d: d["setup"].update(hands=[["ZZ"], None, None]), "setup 'hands', seat 0"),
        (lambda d: d["setup"].update(stock=[1]), "setup 'stock'"),
        (lambda d: d.update(players="3"), "'players' must be an integer"),
        (lambda d: d.update(names=["Ann", "Bea"]), "names: give one non-empty name"),
        (
            lambda d: d["actions"].__setitem__(5, [d["actions"][5][0], "lay off 6S -> False"]),
            "action 5 .* illegal on replay: cannot read action",
        ),
    ],
)
def test_save_file_errors_say_where_the_problem_is(change, match):
    data = json.loads(_finished_game().save())
    change(data)
    with pytest.raises(SaveFileError, match=match):
        load(json.dumps(data))


def test_end_turn_with_an_unplayed_swapped_joker_names_the_joker():
    rules = dataclasses.replace(
        STANDARD, contracts=(STANDARD.contracts[1],) * 7, last_round_no_discard=True
    )
    hand = "5H 6H JK 8H 9S 9H 9D 7H 2C 3D 4S 5S"
    state = Game(rules, 3, seed=1).new_state(
        dealer=2, round=7, hands=[hand, None, None], upcard="KC", stock="10S 10H"
    )
    state.apply("draw stock")
    while state.phase == "buy":
        state.apply("pass")
    state.apply("lay down 9S 9H 9D | 5H 6H JK 8H")
    state.apply("swap 7H -> 1")
    refused(
        state,
        "end turn",
        match=r"the joker you took by a swap \(JK\) must be played this turn before you end "
        r"the turn: lay it off \(it fits meld 0, 1\)",
    )
    refused(state, "discard 2C", match=r"\(JK\) must be played this turn before you discard")


def _limit_reached(timing: str) -> GameState:
    """family for 2 (3 buys a round at most) after seat 1 bought three times."""
    rules = dataclasses.replace(RuleSet.preset("family"), buy_timing=timing)
    state = Game(rules, 2, seed=1).new_state(dealer=1, hands=[None, None], upcard="7H")
    while state.buys[1] < 3:
        if state.phase == "buy":
            state.apply("buy" if state.to_act == 1 else "pass")
        elif state.phase == "draw":
            state.apply("draw stock")
        else:
            state.apply(str(state.legal_actions()[-1]))
    assert not any(e.kind == "buy limit" for e in state.log)
    return state


@pytest.mark.parametrize("timing", ["after_decline", "before_draw"])
def test_a_seat_skipped_for_its_buy_limit_is_an_event_and_narrated(timing):
    state = _limit_reached(timing)
    while not any(e.kind == "buy limit" for e in state.log):
        assert state.phase != "buy" or state.to_act != 1  # seat 1 is never asked again
        if state.phase in ("buy", "draw"):
            state.apply("pass" if state.phase == "buy" else "draw stock")
        else:
            state.apply(str(state.legal_actions()[-1]))
    [event] = [e for e in state.log if e.kind == "buy limit"]
    assert event.seat == 1 and event.details == BuyLimitDetails(buys=3, limit=3)
    assert state.buys == [0, 3]
    assert event.cards[0] == state.discards[-1] or state.phase == "play"
    line = (
        f"Bea has made 3 buys this round, the limit of 3, and is not offered the {event.cards[0]}."
    )
    assert line in narrate(state)


def test_player_view_to_dict_is_json_and_holds_only_that_seats_cards():
    def start(hands):
        return Game(players=3, seed=8).new_state(dealer=2, hands=hands, upcard="KC")

    mine = "8S 8H 8D 9S 9H 9D 2C 3D 4H 6S"
    a = start([mine, "AS AH AD AC 2S 2H 2D 3S 3H 3C", None])
    b = start([mine, "5S 5H 5D 5C 6H 6D 6C 7S 7H 7D", None])
    data = a.view(0).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert sorted(data["hand"]) == sorted(mine.split())
    assert data["hand_sizes"] == [10, 10, 10] and data["legal_actions"] == [
        "draw stock",
        "take discard",
    ]
    # Seats 1 and 2 hold other cards (and so the stock differs): seat 0 sees the same.
    assert b.view(0).to_dict() == data
    assert a.view(1).to_dict() != b.view(1).to_dict()
    # dataclasses.asdict cannot rebuild the Hand: its error points to to_dict.
    with pytest.raises(RummyError, match=r"PlayerView.to_dict\(\)"):
        dataclasses.asdict(a.view(0))


def test_to_dict_of_a_game_in_play_shows_melds_and_jokers():
    final = _finished_game()
    data = final.view(0).to_dict()
    assert json.loads(json.dumps(data)) == data and data["phase"] == "over"
    state = one_run_table(ALL_HEARTS[3:] + " JK 2C", deal=14)
    state.apply("lay down 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK")
    meld = state.view(1).to_dict()["melds"][0]
    assert meld["owner"] == 0 and meld["kind"] == "run" and meld["stands_for"][-1] == "AH"
    assert meld["traded"] == [False] * 13


# -------------------------------------------- every module's argument errors are RummyErrors


def _odds_and_drawing_calls():
    from rummykit import svg
    from rummykit.odds import dealt_probability, simulate_dealt
    from rummykit.teach.probability import hypergeom_pmf

    rules = RuleSet.preset("standard")
    contract = rules.contracts[0]
    return [
        (
            "dealt_probability decks",
            lambda: dealt_probability(contract, decks=0, jokers=0, cards=6, rules=rules),
            ValueError,
        ),
        (
            "dealt_probability rules",
            lambda: dealt_probability(contract, decks=1, jokers=0, cards=6, rules="x"),
            TypeError,
        ),
        (
            "simulate_dealt n",
            lambda: simulate_dealt(contract, decks=1, jokers=0, cards=6, rules=rules, n=0, seed=1),
            ValueError,
        ),
        (
            "hypergeom_pmf k",
            lambda: hypergeom_pmf(-1, population=5, successes=2, draws=1),
            ValueError,
        ),
        (
            "hypergeom_pmf sizes",
            lambda: hypergeom_pmf(1, population=5, successes=7, draws=1),
            ValueError,
        ),
        ("card_svg", lambda: svg.card_svg("QS"), TypeError),
    ]


@pytest.mark.parametrize(
    ("call", "kind"),
    [(call, kind) for _, call, kind in _odds_and_drawing_calls()],
    ids=[name for name, _, _ in _odds_and_drawing_calls()],
)
def test_odds_and_drawing_arguments_raise_rummy_errors(call, kind):
    # RummyError subclasses that stay ValueError/TypeError, so callers keep working.
    with pytest.raises(RummyError) as caught:
        call()
    assert isinstance(caught.value, kind)
