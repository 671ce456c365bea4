"""Every example hand and meld example in the five source texts, with the rules' verdict.

Reading of source 000's "Example Hands": each line is one candidate meld for that
round's contract, and "X (Joker)" means a joker played as the card X (so
"3♠ 4♠ (Joker) 5♠ 6♠" is 3♠ JK 5♠ 6♠: reading the joker as an extra card would put
two cards at one rank). Three 5♦ need three decks: the meld is legal, but a two-deck
shoe cannot hold it. Source 000's "8♠ (Joker) 8♦ 8♣ (Joker)" is then JK 8♦ JK: one
natural and two jokers, illegal in every preset (each needs 2 naturals in a set).
"""

import dataclasses
import re

import pytest

from rummykit import Card, Contract, RuleSet, Shoe, check_meld, find_contract, parse_cards
from rummykit.engine.melds import check_lay_down, lay_off

STANDARD = RuleSet.preset("standard")


def source_meld(line: str) -> list[Card]:
    """Read a meld as printed in source 000: 'X (Joker)' is a joker standing for X."""
    line = re.sub(r"(\S+)\s*\(Joker\)", "JK", line)
    line = line.replace("K♦K♥", "K♦ K♥")  # a missing space in the source
    return list(parse_cards(line))


# (round, line as printed, legal under standard?, what a joker stands for)
EXAMPLE_HANDS = [
    (1, "8♠ 8♥ 8♦", True, []),
    (1, "J♥ J♥ J♠", True, []),
    (1, "3♠ 3♣ 3♥ (Joker)", True, ["3♦"]),
    (1, "5♦ 5♦ 5♦", True, []),
    (2, "K♣ K♦K♥", True, []),
    (2, "6♥ 7♥ 8♥ 9♥", True, []),
    (2, "A♣ A♥ A♠", True, []),
    (2, "3♠ 4♠ (Joker) 5♠ 6♠", True, ["4♠"]),
    (3, "6♣ 7♣ 8♣ 9♣", True, []),
    (3, "J♦ Q♦ K♦ A♦", True, []),
    (3, "2♦ 3♦ 4♦ 5♦", True, []),
    (3, "10♥ J♥ Q♥ (Joker) K♥", True, ["Q♥"]),
    (4, "3♣ 3♥ 3♠", True, []),
    (4, "5♠ 5♥ 5♣", True, []),
    (4, "9♣ 9♠ 9♥", True, []),
    (4, "4♠ 4♥ 4♦ (Joker)", True, ["4♣"]),
    (4, "7♦ 7♦ 7♠", True, []),
    (4, "8♠ (Joker) 8♦ 8♣ (Joker)", False, []),
    (5, "3♠ 3♣ 3♥", True, []),
    (5, "9♣ 9♠ 9♥", True, []),
    (5, "6♥ 7♥ 8♥ 9♥", True, []),
    (5, "3♣ 3♥ 3♠", True, []),
    (5, "7♦ 7♦ 7♠ (Joker)", True, ["7♣"]),
    (5, "3♠ 4♠ 5♠ (Joker) 6♠", True, ["5♠"]),
    (6, "A♦ A♥ A♠", True, []),
    (6, "3♦ 4♦ 5♦ 6♦", True, []),
    (6, "8♣ 9♣ 10♣ J♣", True, []),
    (6, "7♥ 7♦ 7♠", True, []),
    (6, "5♥ 6♥ 7♥ 8♥", True, []),
    (6, "3♣ 4♣ 5♣ (Joker) 6♣", True, ["5♣"]),
    (7, "2♠ 3♠ 4♠ 5♠", True, []),
    (7, "3♣ 4♣ 5♣ 6♣", True, []),
    (7, "9♣ 10♣ J♣ Q♣", True, []),
    (7, "5♣ 6♣ 7♣ 8♣", True, []),
    (7, "7♦ 8♦ 9♦ 10♦(Joker)", True, ["10♦"]),
    (7, "7♠ 8♠ 9♠ 10♠", True, []),
]


@pytest.mark.parametrize(("round_", "line", "legal", "stands"), EXAMPLE_HANDS)
def test_example_hands_of_source_000(round_, line, legal, stands):
    cards = source_meld(line)
    check = check_meld(cards, STANDARD)
    assert check.ok is legal, check.reason
    if legal:
        assert [s.symbol for s in check.jokers.values()] == stands
        contract = STANDARD.contracts[round_ - 1]
        assert check.kind in (("set",) if contract.sets else ()) + (
            ("run",) if contract.runs else ()
        )
    else:
        assert check.reason == "a set needs at least 2 natural cards (not jokers)"
        loose = dataclasses.replace(STANDARD, min_naturals_in_set=1)
        assert check_meld(cards, loose).ok  # legal only where one natural is enough


def test_three_five_of_diamonds_need_three_decks():
    cards = source_meld("5♦ 5♦ 5♦")
    assert check_meld(cards, STANDARD).ok

    def copies(shoe: Shoe) -> int:
        return sum(c.rank == cards[0].rank and c.suit == cards[0].suit for c in shoe.cards)

    assert copies(Shoe(decks=2, jokers=4)) == 2 < 3 == copies(Shoe(decks=3, jokers=6))


@pytest.mark.parametrize("round_", range(1, 8))
def test_each_round_of_examples_makes_its_contract(round_):
    contract = STANDARD.contracts[round_ - 1]
    sets = [source_meld(line) for r, line, ok, _ in EXAMPLE_HANDS if r == round_ and ok]
    # Renumber copies so the chosen melds are distinct physical cards.
    kinds = [check_meld(m, STANDARD).kind for m in sets]
    chosen = [m for m, k in zip(sets, kinds, strict=True) if k == "set"][: contract.sets]
    chosen += [m for m, k in zip(sets, kinds, strict=True) if k == "run"][: contract.runs]
    hand = list(parse_cards(" ".join(c.code for m in chosen for c in m)))
    melds = find_contract(hand, contract, STANDARD)
    assert melds is not None
    assert sorted(m.kind for m in melds) == sorted(
        ["set"] * contract.sets + ["run"] * contract.runs
    )


def test_round_7_runs_of_one_suit_under_pagat():
    pagat = RuleSet.preset("pagat")
    overlapping = [
        parse_cards("3C 4C 5C 6C"),
        list(
            parse_cards(
                "5C 6C 7C 8C",
            )
        ),
    ]
    overlapping[1] = [Card(c.rank, c.suit, 1) for c in overlapping[1]]
    assert len(check_lay_down(overlapping, Contract(0, 2), STANDARD)) == 2
    with pytest.raises(ValueError, match="must be separated"):
        check_lay_down(overlapping, Contract(0, 2), pagat)
    touching = [parse_cards("5C 6C 7C 8C"), parse_cards("9C 10C JC QC")]
    with pytest.raises(ValueError, match="must be separated"):
        check_lay_down(touching, Contract(0, 2), pagat)
    apart = [parse_cards("JD QD KD AD"), parse_cards("2D 3D 4D 5D")]
    assert len(check_lay_down(apart, Contract(0, 2), pagat)) == 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # 000 "Penalties": incomplete melds are 3-card sequences, 2-card sets, sequences
        # that turn the corner and sequences of more than one suit.
        ("4H 5H 6H", "a run needs at least 4 cards"),
        ("9S 9C", "a set needs at least 3 cards"),
        ("QH KH AH 2H", "turns the corner"),
        ("4H 5H 6S 7H", "a run is cards of one suit"),
        # 000 "Aces", 001, 003 and 004: no turning the corner.
        ("KD AD 2D 3D", "turns the corner"),
    ],
)
def test_incomplete_melds(text, reason):
    for rules in (RuleSet.preset(name) for name in RuleSet.presets()):
        check = check_meld(parse_cards(text), rules)
        assert not check.ok and reason in check.reason


@pytest.mark.parametrize(
    ("preset", "text"),
    [
        ("standard", "A♦ 2♦ 3♦ 4♦"),  # 000 aces low (4-3-2-A), 001, 003, 004
        ("standard", "4♦ 3♦ 2♦ A♦"),
        ("standard", "A♦ K♦ Q♦ J♦"),  # 000 aces high (A-K-Q-J)
        ("wikipedia", "8♥ 8♣ 8♠"),  # 001
        ("wikipedia", "3♥ 4♥ 5♥ 6♥ 7♥"),  # 001
        ("wikipedia", "7♥ 7♣ JK"),  # 002: sets need 2 naturals
        ("wikipedia", "7♥ 8♥ JK 10♥"),  # 002: 3 naturals in a 4-card run
        ("bga", "5♠ 5♥ 5♣"),  # 003: 5-5-5
        ("bga", "10♣ J♣ Q♣ K♣"),  # 003: 10-J-Q-K
        ("family", "Q♠ Q♥ Q♦"),  # 004: three queens
        ("family", "6♠ 6♥ 6♦ 6♣"),  # 004: four 6s
        ("family", "5♣ 6♣ 7♣ 8♣"),  # 004
        ("family", "5♣ JK JK 8♣"),  # 004: two jokers is the most
    ],
)
def test_legal_examples_in_the_sources(preset, text):
    assert check_meld(parse_cards(text), RuleSet.preset(preset)).ok


@pytest.mark.parametrize(
    ("preset", "text", "reason"),
    [
        ("wikipedia", "7♥ JK JK 10♥", "at least 3 natural"),  # 002
        ("wikipedia", "7♥ JK", "at least 3 cards"),
        ("family", "5♣ JK JK JK 9♣", "at most 2 jokers"),  # 004
        ("pagat", "K♥ A♥ 2♥ 3♥", "turns the corner"),  # 002 "K A 2 3 is not"
    ],
)
def test_illegal_examples_in_the_sources(preset, text, reason):
    check = check_meld(parse_cards(text), RuleSet.preset(preset))
    assert not check.ok and reason in check.reason


def test_lay_off_examples_of_001_and_002():
    rules = RuleSet.preset("wikipedia")
    three_set = check_meld(parse_cards("3♦ 3♣ 3♠"), rules).meld
    heart_run = check_meld(parse_cards("4♥ 5♥ 6♥ 7♥"), rules).meld
    assert len(lay_off(three_set, Card.parse("3♥"), rules)) == 4  # 001
    assert lay_off(heart_run, Card.parse("3♥"), rules).start == 3  # 001
    assert (
        lay_off(check_meld(parse_cards("3♥ 4♥ 5♥ 6♥"), rules).meld, Card.parse("7♥"), rules).end
        == 7
    )  # 002


def test_basic_rummy_examples_of_002():
    # Basic rummy (002): runs of 3, aces low only: A-2-3 is a run, Q-K-A is not.
    basic = dataclasses.replace(STANDARD, min_run_size=3, ace_high=False)
    assert check_meld(parse_cards("A♣ 2♣ 3♣"), basic).ok
    assert not check_meld(parse_cards("Q♣ K♣ A♣"), basic).ok
    assert "turns the corner" in check_meld(parse_cards("K♣ A♣ 2♣"), basic).reason
    four_five_six = check_meld(parse_cards("4♠ 5♠ 6♠"), basic).meld
    assert lay_off(four_five_six, Card.parse("3♠"), basic).start == 3
    assert lay_off(four_five_six, Card.parse("7♠"), basic).end == 7
