"""Melds one at a time: verdicts, reasons, jokers, lay-offs, swaps and lay-downs."""

import dataclasses

import pytest

from rummykit import (
    Card,
    Contract,
    IllegalMeldError,
    RuleSet,
    Shoe,
    check_meld,
    contract_distance,
    find_contract,
    parse_cards,
)
from rummykit.engine.melds import check_lay_down, lay_off, lay_off_options, swap_joker
from rummykit.engine.search import contract_within

STANDARD = RuleSet.preset("standard")


def card(code: str) -> Card:
    return Card.parse(code)


def meld(text: str, rules: RuleSet = STANDARD):
    check = check_meld(parse_cards(text), rules)
    assert check.ok, check.reason
    return check.meld


@pytest.mark.parametrize(
    ("text", "kind", "jokers"),
    [
        ("8S 8H 8D", "set", []),
        ("8S 8H 8D 8C 8S", "set", []),
        ("7H 7C JK", "set", ["7♦"]),
        ("3S 4S JK 6S", "run", ["5♠"]),
        ("JK 3S 4S 5S", "run", ["2♠"]),
        ("5S JK JK 8S", "run", ["6♠", "7♠"]),
        ("3S 4S 5S JK", "run", ["6♠"]),
        ("QH KH AH JK", "run", ["J♥"]),
        ("AH 2H 3H 4H", "run", []),
        ("4H 3H 2H AH", "run", []),
        ("JD QD KD AD", "run", []),
        ("10H JH QH KH AH", "run", []),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "run", []),
    ],
)
def test_legal_melds(text, kind, jokers):
    check = check_meld(parse_cards(text), STANDARD)
    assert check.ok and check.reason is None
    assert check.kind == kind == check.meld.kind
    assert [s.symbol for s in check.jokers.values()] == jokers


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("KH AH 2H 3H", "K-A-2-3 turns the corner: runs cannot wrap"),
        ("QS KS AS 2S", "Q-K-A-2 turns the corner: runs cannot wrap"),
        ("KC AC 2C JK", "K-A-2 turns the corner: runs cannot wrap"),
        ("3S JK JK", "a set needs at least 2 natural cards (not jokers)"),
        ("3S 3H", "a set needs at least 3 cards, these are 2"),
        ("3S 4S 5S", "a run needs at least 4 cards, these are 3"),
        ("3S JK JK 6S JK", "a meld may hold at most 2 jokers, this one has 3"),
        (
            "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
            "a run cannot use the ace both low and high",
        ),
        ("4H 5H 6S 7H", "a run is cards of one suit, these mix hearts and spades"),
        # Ranks all different but too few cards for a run: the fewest cards of a meld is
        # the rule broken first (their suits were named before).
        ("4H 9S", "a meld needs at least 3 cards (a set 3, a run 4), these are 2"),
        ("4H 5S JK", "a run needs at least 4 cards, these are 3"),
        ("4H 9S 10C", "a run needs at least 4 cards, these are 3"),
        ("8H 8S 9D", "a set is cards of one rank, these mix 8, 9"),
        (
            "5H 9H JK 6H",
            "the cards are not in sequence: the gaps between 5♥ and 9♥ need 2 jokers, the meld has 1",
        ),
        ("5H 5H 6H 7H", "a run holds each rank once, and there are two 5♥"),
        ("JK JK JK", "a meld needs natural cards: jokers cannot be played alone"),
        ("", "a meld needs cards"),
    ],
)
def test_illegal_melds_name_the_rule(text, reason):
    check = check_meld(parse_cards(text), STANDARD)
    assert not check.ok and check.meld is None and check.jokers == {}
    assert check.reason == reason
    assert check.describe() == f"not a meld: {reason}"


def test_same_card_twice_is_refused():
    c = card("8S")
    assert check_meld([c, c, card("8H")], STANDARD).reason == "the same card (8♠) is used twice"


def test_ace_options():
    low_only = dataclasses.replace(STANDARD, ace_high=False)
    assert check_meld(parse_cards("AS 2S 3S 4S"), low_only).ok
    assert not check_meld(parse_cards("JS QS KS AS"), low_only).ok
    no_aces = dataclasses.replace(STANDARD, ace_high=False, ace_low=False)
    assert (
        check_meld(parse_cards("AS 2S 3S 4S"), no_aces).reason
        == "aces cannot be played in runs under these rules"
    )
    assert check_meld(parse_cards("AS AH AD"), no_aces).ok


def test_joker_limits_follow_the_rules():
    unlimited = dataclasses.replace(
        STANDARD, max_jokers_per_meld=None, min_naturals_in_run=1, min_naturals_in_set=1
    )
    assert check_meld(parse_cards("5S JK JK JK"), unlimited).ok
    assert check_meld(parse_cards("5S JK JK"), unlimited).kind == "set"
    wikipedia = RuleSet.preset("wikipedia")
    assert check_meld(parse_cards("7H 8H JK 10H"), wikipedia).ok
    assert (
        check_meld(parse_cards("7H JK JK 10H"), wikipedia).reason
        == "a run needs at least 3 natural cards (not jokers)"
    )


def test_forced_kind():
    assert (
        check_meld(
            parse_cards("7H JK JK JK"),
            dataclasses.replace(
                STANDARD, max_jokers_per_meld=3, min_naturals_in_run=1, min_naturals_in_set=1
            ),
            kind="run",
        ).kind
        == "run"
    )
    assert not check_meld(parse_cards("7H 8H 9H 10H"), STANDARD, kind="set").ok
    with pytest.raises(ValueError):
        check_meld(parse_cards("7H 8H 9H 10H"), STANDARD, kind="pair")


def test_meld_describe_and_positions():
    run = meld("9H 10H JK QH")
    assert (run.start, run.end, run.suit.value) == (9, 12, "H")
    assert run.describe() == "run of hearts 9-Q, the joker is the J♥"
    assert meld("KS KD JK").describe() == "set of kings, the joker stands for a king"
    assert meld("AS AD JK JK").describe() == "set of aces, the jokers stand for aces"
    assert meld("8S 8D JK").describe() == "set of 8s, the joker stands for an 8"
    assert len(run) == 4 and card("9H") in run and list(run)[0] == card("9H")
    assert run.naturals == tuple(parse_cards("9H 10H QH"))


# -- lay-offs ---------------------------------------------------------------------


def test_lay_off_on_runs_and_sets():
    run = meld("5H 6H 7H 8H")
    assert str(lay_off(run, card("4H"), STANDARD)) == "4♥ 5♥ 6♥ 7♥ 8♥"
    assert str(lay_off(run, card("9H"), STANDARD)) == "5♥ 6♥ 7♥ 8♥ 9♥"
    joker = card("JK")
    assert str(lay_off(run, joker, STANDARD, end="low")) == "JK 5♥ 6♥ 7♥ 8♥"
    assert lay_off(run, joker, STANDARD).jokers == {joker: card("9H")}
    assert str(lay_off(meld("3D 3C 3S"), card("3H"), STANDARD)) == "3♦ 3♣ 3♠ 3♥"


@pytest.mark.parametrize(
    ("meld_text", "code", "reason"),
    [
        (
            "5H 6H 7H 8H",
            "10H",
            "the 10♥ does not extend the run 5♥ 6♥ 7♥ 8♥: it takes the 4♥ or the 9♥",
        ),
        ("5H 6H 7H 8H", "9S", "the 9♠ is not a heart: the run 5♥ 6♥ 7♥ 8♥ is hearts"),
        ("3D 3C 3S", "4D", "the 4♦ does not match the set of 3s"),
        ("3D JK 3S JK", "JK", "a meld may hold at most 2 jokers, this one is full"),
        ("JH QH KH AH", "2H", "the 2♥ does not extend the run J♥ Q♥ K♥ A♥: it takes the 10♥"),
    ],
)
def test_illegal_lay_offs(meld_text, code, reason):
    target = meld(meld_text)
    extra = card(code) if code != "JK" else Card.joker(7)
    with pytest.raises(IllegalMeldError) as error:
        lay_off(target, extra, STANDARD)
    assert str(error.value) == reason
    assert lay_off_options(target, extra, STANDARD) == ()


def test_no_wrap_and_no_double_ace_by_lay_off():
    full_low = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    with pytest.raises(IllegalMeldError, match="cannot grow"):
        lay_off(full_low, Card.parse("AH", deck=1), STANDARD)
    with pytest.raises(IllegalMeldError):
        lay_off(meld("JH QH KH AH"), Card.joker(3), STANDARD, end="high")
    ace_on_top = lay_off(meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), card("AH"), STANDARD)
    assert ace_on_top.end == 14
    ace_below = lay_off(
        meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), card("AH"), STANDARD, end="low"
    )
    assert ace_below.start == 1


def test_lay_off_end_argument_checked():
    with pytest.raises(ValueError):
        lay_off(meld("5H 6H 7H 8H"), card("9H"), STANDARD, end="middle")


# -- joker swaps --------------------------------------------------------------------


def test_swap_joker_from_a_run():
    run = meld("3S 4S JK 6S")
    new, joker = swap_joker(run, card("5S"), STANDARD)
    assert str(new) == "3♠ 4♠ 5♠ 6♠" and joker.is_joker and new.jokers == {}


@pytest.mark.parametrize(
    ("rules_change", "meld_text", "code", "reason"),
    [
        ({}, "3S 4S JK 6S", "7S", "the joker stands for the 5♠, not the 7♠"),
        ({}, "3S 4S JK 6S", "5H", "the joker stands for the 5♠, not the 5♥"),
        ({}, "7H 7C JK", "7D", "jokers can only be taken from runs, not from sets"),
        (
            {"joker_swap": "none"},
            "3S 4S JK 6S",
            "5S",
            "these rules do not allow taking a joker from a meld",
        ),
        ({}, "3S 4S 5S 6S", "5S", "the meld 3♠ 4♠ 5♠ 6♠ has no joker to take"),
        (
            {"joker_swap": "any"},
            "7H 7C JK",
            "8D",
            "the jokers in this set stand for 7s, not the 8♦",
        ),
    ],
)
def test_illegal_swaps(rules_change, meld_text, code, reason):
    rules = dataclasses.replace(STANDARD, **rules_change)
    with pytest.raises(IllegalMeldError) as error:
        swap_joker(meld(meld_text, rules), card(code), rules)
    assert str(error.value) == reason


def test_swap_from_a_set_where_allowed():
    rules = RuleSet.preset("wikipedia")
    new, joker = swap_joker(meld("7H 7C JK", rules), Card.parse("7H", deck=1), rules)
    assert joker.is_joker and len(new.naturals) == 3 and new.kind == "set"


def test_swap_refuses_a_joker():
    with pytest.raises(IllegalMeldError, match="not by a joker"):
        swap_joker(meld("3S 4S JK 6S"), Card.joker(5), STANDARD)


# -- lay-downs ------------------------------------------------------------------------


def test_lay_down_exact_contract():
    groups = [parse_cards("8S 8H 8D"), parse_cards("JH JS JC")]
    assert [m.kind for m in check_lay_down(groups, Contract(2, 0), STANDARD)] == ["set", "set"]
    three = groups + [parse_cards("4C 4D 4H")]
    with pytest.raises(IllegalMeldError, match="the contract is 2 sets: these melds make 3 sets"):
        check_lay_down(three, Contract(2, 0), STANDARD)
    assert len(check_lay_down(three, Contract(2, 0), RuleSet.preset("pagat"))) == 3


def test_lay_down_reasons():
    with pytest.raises(
        IllegalMeldError, match=r"meld 2 \(J♥ J♠\) is not a meld: a set needs at least 3 cards"
    ):
        check_lay_down([parse_cards("8S 8H 8D"), parse_cards("JH JS")], Contract(2, 0), STANDARD)
    shared = parse_cards("8S 8H 8D JS JC")
    with pytest.raises(IllegalMeldError, match="the 8♠ is in two melds"):
        check_lay_down([shared[:3], [shared[0], shared[3], shared[4]]], Contract(2, 0), STANDARD)
    with pytest.raises(
        IllegalMeldError, match="the contract is 1 set \\+ 1 run: these melds make 2 sets"
    ):
        check_lay_down([parse_cards("8S 8H 8D"), parse_cards("JH JS JC")], Contract(1, 1), STANDARD)


def test_lay_down_ambiguous_group_takes_the_kind_needed():
    rules = dataclasses.replace(STANDARD, min_naturals_in_set=1, min_naturals_in_run=1)
    melds = check_lay_down(
        [parse_cards("8S 8H 8D"), parse_cards("5C JK JK JK")],
        Contract(1, 1),
        dataclasses.replace(rules, max_jokers_per_meld=3),
    )
    assert [m.kind for m in melds] == ["set", "run"]


def test_lay_down_same_suit_runs():
    groups = [parse_cards("2D 3D 4D 5D"), parse_cards("6D 7D 8D 9D")]
    assert len(check_lay_down(groups, Contract(0, 2), STANDARD)) == 2
    with pytest.raises(
        IllegalMeldError, match="two runs of diamonds must be separated by at least one card"
    ):
        check_lay_down(groups, Contract(0, 2), RuleSet.preset("pagat"))
    apart = [parse_cards("2D 3D 4D 5D"), parse_cards("7D 8D 9D 10D")]
    assert len(check_lay_down(apart, Contract(0, 2), RuleSet.preset("pagat"))) == 2


# -- find_contract on chosen hands ------------------------------------------------------


def test_find_contract_needs_a_joker_moved_between_melds():
    # 4♥5♥6♥7♥ 5♣ JK JK: only 4♥ JK 6♥ 7♥ + 5♣ 5♥ JK makes a set and a run.
    melds = find_contract(parse_cards("4H 5H 6H 7H 5C JK JK"), Contract(1, 1), STANDARD)
    assert [str(m) for m in melds] == ["5♣ 5♥ JK", "4♥ JK 6♥ 7♥"]


def test_find_contract_longer_run_needed():
    # min 3 naturals, no joker limit: N N J J N N is a run though no 4 of it are.
    rules = RuleSet.preset("wikipedia")
    hand = parse_cards("3H 4H JK JK 7H 8H")
    melds = find_contract(hand, Contract(0, 1), rules)
    assert melds is not None and len(melds[0]) >= 5
    assert check_meld(melds[0].cards, rules).ok


def test_find_contract_two_sets_of_one_rank():
    melds = find_contract(parse_cards("8S 8H 8D 8S 8H 8D 2C"), Contract(2, 0), STANDARD)
    assert [m.rank.code for m in melds] == ["8", "8"]


def test_find_contract_separated_runs():
    hand = parse_cards("2D 3D 4D 5D 6D 7D 8D 9D")
    assert find_contract(hand, Contract(0, 2), STANDARD) is not None
    assert find_contract(hand, Contract(0, 2), RuleSet.preset("pagat")) is None
    assert (
        find_contract(hand + parse_cards("10D"), Contract(0, 2), RuleSet.preset("pagat"))
        is not None
    )


def test_bad_hands_are_refused():
    c = Card.parse("8S")
    with pytest.raises(ValueError, match="holds the same card twice"):
        find_contract([c, c, c, Card.parse("8H")], Contract(1, 0), STANDARD)
    with pytest.raises(ValueError, match="holds the same card twice"):
        contract_distance([c, c], Contract(1, 0), STANDARD)
    with pytest.raises(TypeError, match="collection of Card objects"):
        find_contract(["8S", "8H", "8D"], Contract(1, 0), STANDARD)


def test_contract_within_checks_its_arguments():
    hand = parse_cards("8S 8H 2D JH 4S 3C 5D")
    two_sets = Contract(2, 0)
    assert [contract_within(hand, two_sets, STANDARD, k) for k in range(5)] == [
        False,
        False,
        False,
        True,
        True,
    ]
    for bad in (-1, True, 1.0, None):
        with pytest.raises(ValueError, match="cards must be an integer >= 0"):
            contract_within(hand, two_sets, STANDARD, bad)
    c = Card.parse("8S")
    for k in (0, 2):
        with pytest.raises(ValueError, match="holds the same card twice"):
            contract_within([c, c, Card.parse("8H")], two_sets, STANDARD, k)
    with pytest.raises(TypeError, match="collection of Card objects"):
        contract_within(["8S", "8H", "8D"], two_sets, STANDARD, 1)


def test_contract_distance_with_a_copy_limit():
    hand = parse_cards("7H 8H 9H 10H 7H 8H 9H")
    runs = Contract(0, 2)
    assert contract_distance(hand, runs, STANDARD) == 1
    assert contract_distance(hand, runs, STANDARD, decks=2) == 1
    with pytest.raises(ValueError, match="holds 2 copies of 7♥, more than 1 deck have"):
        contract_distance(hand, runs, STANDARD, decks=1)
    with pytest.raises(ValueError, match="decks must be None or an integer >= 1"):
        contract_distance(hand, runs, STANDARD, decks=0)


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("8H 8S 8D 8C 9H 9S JK", Contract(3, 0)),
        ("AH 2H 3H 4H JH QH KH", Contract(0, 2)),
        ("5S 6S 7S 8S 5D 6D 7D", Contract(1, 1)),
        ("QC QD QH QS 2C JK", Contract(2, 0)),
    ],
)
def test_copy_limited_distance_by_breadth_first_search(text, contract):
    """Against an independent oracle: add every allowed card, level by level."""
    hand = list(parse_cards(text))
    distance = contract_distance(hand, contract, STANDARD, decks=1)
    assert distance >= contract_distance(hand, contract, STANDARD)
    level = [tuple(hand)]
    for added in range(distance + 1):
        made = any(find_contract(h, contract, STANDARD) is not None for h in level)
        assert made == (added == distance)
        if made or added == 2:
            break  # deeper levels hold too many hands to list
        grown = set()
        for h in level:
            held = {(c.rank, c.suit) for c in h}
            for c in Shoe(decks=1, jokers=0).cards:
                if (c.rank, c.suit) not in held:
                    grown.add(tuple(sorted(h + (Card(c.rank, c.suit, 9),))))
        level = sorted(grown)
