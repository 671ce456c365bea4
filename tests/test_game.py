"""Scripted rounds for every rule of the game engine, with hands dealt by the test.

Seats are dealt by ``new_state(hands=...)`` with ``dealer`` set to the last seat, so seat
0 plays first. Hands are the round's deal size (10 cards in standard round 1).
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    InvalidLayDown,
    LayDown,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
    parse_action,
)
from rummykit.engine.cards import Card, Shoe, parse_cards
from rummykit.engine.events import ReshuffleDetails
from rummykit.engine.game import Game, GameState, play_game
from rummykit.engine.rules import RuleSet
from rummykit.engine.saves import load
from rummykit.errors import IllegalActionError, SaveFileError
from tests.support.game_helpers import codes, decline, play, refused, table

STANDARD = RuleSet.preset("standard")
FILL = "2C 3D 4H 6S"  # four loose cards to pad a hand
# family's buying rules with the buy window after the decline, as the other presets have
# it (tests/test_buy_timing.py plays family's own window, before the draw).
FAMILY_AFTER_DECLINE = dataclasses.replace(RuleSet.preset("family"), buy_timing="after_decline")


# ------------------------------------------------------------------------------------ deal


def test_deal_one_at_a_time_from_the_dealers_left():
    game = Game("standard", 3, seed=5)
    state = game.new_state(dealer=1)
    shoe = list(game.shoe.cards)
    # Re-deal by hand from the same seed: shuffle, then one card at a time from seat 2.
    import random

    rng = random.Random(game.seed)
    rng.shuffle(shoe)
    expected = {0: [], 1: [], 2: []}
    for _ in range(10):
        for seat in (2, 0, 1):
            expected[seat].append(shoe.pop())
    assert all(state.hands[seat] == expected[seat] for seat in range(3))
    assert state.discards == [shoe.pop()] and state.stock == shoe
    assert state.current == 2 and state.to_act == 2 and state.phase == "draw"


def test_decks_and_jokers_follow_the_rule_set():
    assert Game("standard", 4).shoe == Shoe(2, 4)
    assert Game("standard", 5).shoe == Shoe(3, 6)
    assert Game("family", 6).shoe == Shoe(2, 2)
    with pytest.raises(ValueError, match="3 to 8"):
        Game("pagat", 2)


def test_dealer_passes_left_and_contracts_advance():
    state = table("standard", 3, {0: "8S 8H 8D 8C 8S 9S 9H 9D 9C 9S"}, stock="KS")
    decline(state)
    play(state, "lay down 8S 8H 8D 8C 8S | 9S 9H 9D 9C 9S", "discard KS")
    assert state.round == 2 and state.dealer == 0 and state.current == 1
    assert [str(state.contract(s)) for s in range(3)] == ["1 set + 1 run"] * 3
    assert all(len(h) == 10 for h in state.hands)


def test_scripted_cards_must_exist():
    with pytest.raises(ValueError, match="no 8♠ is left"):
        table("standard", 3, {0: "8S 8S 8S 9S 9H 9D 9C 9S 2C 2D"})
    with pytest.raises(ValueError, match="deals 10 cards"):
        table("standard", 3, {0: "8S 8H"})


# ------------------------------------------------------------------------------------ buying


def test_buy_nearest_clockwise_gets_the_card_and_a_penalty_card():
    state = table("standard", 4, upcard="7H", stock="2C 3C 4C")
    state.apply("draw stock")
    assert state.phase == "buy" and state.to_act == 1
    state.apply("pass")
    assert state.to_act == 2
    before = len(state.hands[2])
    state.apply("buy")
    # Seat 3 is never asked: the nearer seat 2 bought it.
    assert len(state.hands[2]) == before + 2
    assert state.hands[2][-2:] == [Card.parse("7H"), Card.parse("2C")]
    assert state.phase == "play" and state.to_act == 0
    assert state.hands[0][-1] == Card.parse("3C")
    assert state.buys == [0, 0, 1, 0]
    assert "Cal buys the 7♥ and draws a penalty card." in state.narrate()


def test_buy_penalty_cards_option():
    rules = dataclasses.replace(STANDARD, buy_penalty_cards=2)
    state = table(rules, 3, upcard="7H", stock="2C 3C 4C")
    play(state, "draw stock", "buy")
    assert state.hands[1][-3:] == list(parse_cards("7H 2C 3C"))
    assert state.hands[0][-1] == Card.parse("4C")
    assert "draws 2 penalty cards" in state.narrate()


def test_no_buying_option():
    rules = dataclasses.replace(STANDARD, buying=False)
    state = table(rules, 3)
    state.apply("draw stock")
    assert state.phase == "play"


def test_buy_longest_waiting_asks_seats_by_their_last_turn():
    state = table("bga", 4, {0: "8S 8H 8D 9S 9H 9D " + FILL})
    decline(state)
    play(state, "discard 2C")
    # Seat 1 draws: seats 2 and 3 have not played yet, seat 0 played last.
    state.apply("draw stock")
    asked = []
    while state.phase == "buy":
        asked.append(state.to_act)
        state.apply("pass")
    assert asked == [2, 3, 0]


def test_buy_first_call_is_a_seeded_lottery_among_those_who_ask():
    winners = set()
    for seed in range(12):
        state = table(FAMILY_AFTER_DECLINE, 4, upcard="7H", seed=seed)
        play(state, "draw stock", "buy", "pass", "buy")
        assert state.phase == "play"
        winners |= {seat for seat in (1, 3) if state.buys[seat]}
        assert sum(state.buys) == 1 and state.buys[2] == 0
        assert "ask to buy" in state.narrate()
    assert winners == {1, 3}


def test_buy_limit_per_round():
    state = table(FAMILY_AFTER_DECLINE, 2, upcard="7H")
    for _ in range(3):
        # Seat 0 declines and seat 1 (the only other seat, the discarder too) buys.
        play(state, "draw stock", "buy")
        play(state, str(state.legal_actions()[-1]))
        decline(state)
        play(state, str(state.legal_actions()[-1]))
    assert state.buys == [0, 3]
    state.apply("draw stock")
    assert state.phase == "play"  # seat 1 reached the limit: no buy window


def test_last_round_buy_limit():
    rules = RuleSet.preset("wikipedia")
    assert table(rules, 3, round=6).buy_limit() is None
    state = table(rules, 3, round=7)
    assert state.buy_limit() == 2
    asked = []
    while len(asked) < 12:
        if state.phase == "buy":
            asked.append(state.to_act)
            state.apply("buy" if state.to_act == 1 else "pass")
        elif state.phase == "draw":
            state.apply("draw stock")
        else:
            state.apply(str(state.legal_actions()[-1]))
    assert state.buys[1] == 2 and state.buys[0] == state.buys[2] == 0
    # After its second buy seat 1 is never asked again this round.
    second = [i for i, seat in enumerate(asked) if seat == 1][1]
    assert 1 not in asked[second + 1 :] and len(asked) > second + 1


def test_the_player_about_to_draw_is_never_asked():
    state = table("standard", 3)
    state.apply("draw stock")
    asked = []
    while state.phase == "buy":
        asked.append(state.to_act)
        state.apply("pass")
    assert asked == [1, 2]


# ------------------------------------------------------------------------------------ turn


def test_card_taken_from_the_discard_pile_cannot_be_discarded_that_turn():
    state = table("standard", 3, {0: "7H 8S 9D 10C JS QH KD AC 2S 3H"}, upcard="5C")
    state.apply("take discard")
    refused(state, "discard 5C", "cannot be discarded in the same turn")
    assert Discard(Card.parse("5C")) not in state.legal_actions()
    state.apply("discard 7H")
    assert state.discards[-1] == Card.parse("7H")


def test_discard_of_a_taken_card_code_uses_the_other_copy():
    state = table("standard", 3, {0: "5C 8S 9D 10C JS QH KD AC 2S 3H"}, upcard="5C")
    state.apply("take discard")
    state.apply("discard 5C")
    # The copy that came from the discard pile (deck 1) stays in hand.
    assert state.discards[-1] == Card.parse("5C") and Card.parse("5C", deck=1) in state.hands[0]


def test_actions_out_of_phase_are_refused():
    state = table("standard", 3)
    refused(state, "discard 2C", "cannot discard in the 'draw' phase")
    refused(state, "buy", "cannot buy")
    state.apply("draw stock")
    refused(state, "draw stock", "cannot draw stock in the 'buy' phase")


def test_card_not_in_hand_is_refused():
    state = table("standard", 3, {0: "7H 8S 9D 10C JS QH KD AC 2S 3H"}, stock="4D")
    decline(state)
    refused(state, "discard 5C", "holds no 5♣")


# ------------------------------------------------------------------------------------ laying down


def test_lay_down_exactly_the_contract():
    hand = "8S 8H 8D 9S 9H 9D 10S 10H 10D 2C"
    state = table("standard", 3, {0: hand}, stock="KS")
    decline(state)
    refused(state, "lay down 8S 8H 8D | 9S 9H 9D | 10S 10H 10D", "contract is 2 sets")
    refused(state, "lay down 8S 8H 8D", "contract is 2 sets")
    state.apply("lay down 8S 8H 8D | 9S 9H 9D")
    assert state.laid_down[0] and len(state.melds) == 2 and state.owners == [0, 0]
    refused(state, "lay down 10S 10H 10D | 2C KS 2C", "already laid down")


def test_extra_melds_where_the_preset_allows():
    hand = "8S 8H 8D 9S 9H 9D 10S 10H 10D 2C"
    state = table("pagat", 3, {0: hand}, stock="KS")
    decline(state)
    state.apply("lay down 8S 8H 8D | 9S 9H 9D | 10S 10H 10D")
    assert len(state.melds) == 3


def test_lay_down_must_leave_a_card_to_discard():
    hand = "8S 8H 8D 8C 8S 9S 9H 9D 9C 9S"
    state = table("standard", 3, {0: hand}, upcard="9H")
    state.apply("take discard")
    # All 11 cards would meld, but the turn must end with a discard (not the 9♥ taken).
    refused(state, "lay down 8S 8H 8D 8C 8S | 9S 9H 9D 9C 9S 9H", "must keep a card")
    listed = [a for a in state.legal_actions() if isinstance(a, LayDown)]
    assert len(listed) == 1 and state.can_lay_down()
    state.apply(listed[0])
    assert any(card != state.taken for card in state.hands[0])


def test_illegal_meld_is_refused_with_the_reason():
    state = table("standard", 3, {0: "8S 8H 7D 9S 9H 9D " + FILL}, stock="KS")
    decline(state)
    refused(state, "lay down 8S 8H 7D | 9S 9H 9D", "cannot lay down")
    assert not state.can_lay_down()


def test_invalid_lay_down_penalty():
    state = table("pagat", 3, {0: "8S 8H 7D 9S 9H 9D " + FILL}, stock="KS")
    decline(state)
    refused(state, "lay down 8S 8H 7D | 9S 9H 9D", "cannot lay down")
    state.apply("invalid lay down 8S 8H 7D | 9S 9H 9D")
    assert state.penalties[0] == 50 and len(state.hands[0]) == 11
    assert "50 penalty points" in state.narrate()
    standard = table("standard", 3, {0: "8S 8H 7D 9S 9H 9D " + FILL}, stock="KS")
    decline(standard)
    refused(standard, "invalid lay down 8S 8H 7D | 9S 9H 9D", "no penalty")


# ------------------------------------------------------------------------------------ laying off


def _both_down(
    rules="standard", extra0="", extra1="", stock="KS KH KD KC AS AH", **kw
) -> GameState:
    """Seats 0 and 1 both lay down two sets; seat 0 is to play again (play phase)."""
    hands = {
        0: "8S 8H 8D 9S 9H 9D " + (extra0 or FILL),
        1: "JS JH JD QS QH QD " + (extra1 or "2H 3S 4D 6C"),
    }
    state = table(rules, 3, hands, stock=stock, **kw)
    decline(state)
    play(state, "lay down 8S 8H 8D | 9S 9H 9D", "discard KS")
    decline(state)
    play(state, "lay down JS JH JD | QS QH QD", "discard KH")
    decline(state)
    play(state, str(state.legal_actions()[-1]))
    decline(state)
    return state


def test_lay_off_on_own_and_others_melds():
    state = _both_down(extra0="8C JC 2C 3D")
    assert state.current == 0 and state.phase == "play"
    state.apply("lay off 8C -> 0")
    state.apply("lay off JC -> 2")
    assert len(state.melds[0]) == 4 and len(state.melds[2]) == 4
    refused(state, "lay off 3D -> 1", "cannot lay off the 3♦ onto meld 1")
    refused(state, "lay off 2C -> 7", "no meld 7")


def test_lay_off_needs_a_lay_down_first():
    state = _both_down()
    # Seat 2 has not laid down.
    play(state, str(state.legal_actions()[-1]))
    decline(state)
    play(state, str(state.legal_actions()[-1]))
    decline(state)
    assert state.current == 2
    card = next(c for c in state.hands[2] if not c.is_joker)
    refused(state, f"lay off {card.code} -> 0", "must lay down your contract before")


def test_lay_off_may_not_leave_nothing_to_discard():
    state = _both_down(extra0="8C 9C 8S 2C")
    play(state, "lay off 8C -> 0", "lay off 9C -> 1", "lay off 8S -> 0")
    # Two cards left (2C and the stock card): laying off both would leave no discard.
    assert len(state.hands[0]) == 2


# ------------------------------------------------------------------------------------ jokers


def test_joker_swap_needs_a_lay_down():
    rules = dataclasses.replace(STANDARD, contracts=(STANDARD.contracts[1],) * 7)
    hands = {0: "5H 6H JK 8H 9S 9H 9D 2C 3D 4S", 1: "JS JH JD QS QH QD KS KH KD 7H"}
    state = table(rules, 3, hands, upcard="AC", stock="10S 10H")
    decline(state)
    play(state, "lay down 9S 9H 9D | 5H 6H JK 8H", "discard 4S")
    decline(state)
    # Seat 1 holds the 7♥ the joker stands for, but has not laid down.
    refused(state, "swap 7H -> 1", "only a player who has laid down")
    assert not any(isinstance(a, Swap) for a in state.legal_actions())


def test_joker_swap_variants():
    run_rules = dataclasses.replace(STANDARD, contracts=(STANDARD.contracts[1],) * 7)
    # Seat 0 holds the 7♥ itself after laying down a run with a joker standing for it.
    hand0 = "5H 6H JK 8H 9S 9H 9D 7H 2C 3D"
    state = table(run_rules, 3, {0: hand0}, stock="10S 10H")
    decline(state)
    state.apply("lay down 9S 9H 9D | 5H 6H JK 8H")
    assert Swap(Card.parse("7H"), 1) in state.legal_actions()
    state.apply("swap 7H -> 1")
    assert Card.joker(0) in state.hands[0] and state.pending == [Card.joker(0)]
    assert str(state.melds[1]) == "5♥ 6♥ 7♥ 8♥"
    # The joker must be played this turn: no discard until it is laid off.
    assert not any(isinstance(a, Discard) for a in state.legal_actions())
    refused(state, "discard 2C", "must be played this turn")
    state.apply("lay off JK -> 1 high")
    assert str(state.melds[1]) == "5♥ 6♥ 7♥ 8♥ JK"
    state.apply("discard 2C")


def test_joker_swap_from_sets_only_where_the_preset_allows():
    hand0 = "5H 5S JK 9S 9H 9D 5C 2C 3D 4S 6D"
    for rules, allowed in ((STANDARD, False), (RuleSet.preset("wikipedia"), True)):
        size = rules.deal_sizes[0]
        state = table(rules, 3, {0: " ".join(hand0.split()[:size])}, stock="10S 10H 10D")
        decline(state)
        state.apply("lay down 5H 5S JK | 9S 9H 9D")
        if allowed:
            state.apply("swap 5C -> 0")
            assert Card.joker(0) in state.hands[0]
        else:
            refused(state, "swap 5C -> 0", "under standard, jokers can be taken only from runs")


def test_joker_swap_none():
    rules = dataclasses.replace(STANDARD, joker_swap="none", contracts=(STANDARD.contracts[1],) * 7)
    state = table(rules, 3, {0: "5H 6H JK 8H 9S 9H 9D 7H 2C 3D"}, stock="10S")
    decline(state)
    state.apply("lay down 9S 9H 9D | 5H 6H JK 8H")
    refused(state, "swap 7H -> 1", "does not allow taking jokers")


def test_joker_traded_once_cannot_be_traded_again():
    one_run = (STANDARD.contracts[1],) * 7
    hand0 = "5H 6H JK 8H 9S 9H 9D 7H 9H 10C 3D"  # the second 9♥ will not be melded
    for rules, again in (
        (dataclasses.replace(RuleSet.preset("wikipedia"), contracts=one_run), False),
        (dataclasses.replace(STANDARD, contracts=one_run, deal_sizes=(11,) * 7), True),
    ):
        state = table(rules, 3, {0: hand0}, stock="QC")
        decline(state)
        play(state, "lay down 9S 9H 9D | 5H 6H JK 8H", "swap 7H -> 1", "lay off JK -> 1 high")
        assert str(state.melds[1]) == "5♥ 6♥ 7♥ 8♥ JK"  # the joker now stands for the 9♥
        if again:
            state.apply("swap 9H -> 1")
        else:
            refused(state, "swap 9H -> 1", "traded once")


# ------------------------------------------------------------------------------------ going out


def test_going_out_by_discarding_the_last_card_ends_the_round():
    hands = {0: "8S 8H 8D 8C 8S 9S 9H 9D 9C 9S", 1: "2C 2D 3H 4S 10C JD QS KH AC JK"}
    state = table("standard", 3, hands, stock="KS")
    decline(state)
    play(state, "lay down 8S 8H 8D 8C 8S | 9S 9H 9D 9C 9S", "discard KS")
    # 2C 2D 3H 4S = 20, 10C JD QS KH = 40, AC = 15, JK = 20.
    assert state.round_scores[0][0] == 0 and state.round_scores[0][1] == 95
    assert state.scores[1] == 95 and state.round == 2
    assert any(e.kind == "go out" and e.seat == 0 for e in state.log)
    assert "Ann goes out!" in state.narrate(round=1)


def test_scoring_face_values_and_negative_scores():
    hands = {0: "8S 8H 8D 8C 8S 9S 9H 9D 9C 9S", 1: "2C 2D 3H 4S 10C JD QS KH AC JK"}
    face = table("pagat", 3, hands, stock="KS")
    decline(face)
    play(face, "lay down 8S 8H 8D 8C 8S | 9S 9H 9D 9C 9S", "discard KS")
    assert face.round_scores[0][1] == 2 + 2 + 3 + 4 + 10 + 10 + 10 + 10 + 1 + 20
    negative = table("bga", 3, hands, stock="KS")
    decline(negative)
    play(negative, "lay down 8S 8H 8D 8C 8S | 9S 9H 9D 9C 9S", "discard KS")
    assert negative.round_scores[0][1] == -95 and negative.scores[1] == -95


def test_winners_lowest_or_least_negative_with_ties():
    state = table("standard", 3)
    state.scores = [30, 10, 10]
    assert state.winners() == [1, 2]
    state = table("bga", 3)
    state.scores = [-30, -10, -40]
    assert state.winners() == [1]


def test_last_round_goes_out_by_melding_with_no_final_discard():
    wikipedia = RuleSet.preset("wikipedia")  # round 7 deals 7 cards in this preset
    rules = dataclasses.replace(
        wikipedia, contracts=wikipedia.contracts[:6] + (STANDARD.contracts[2],)
    )
    state = table(rules, 3, {0: "4H 5H 6H 7H 4S 5S 6S"}, round=7, stock="7S")
    decline(state)
    # 8 cards: two runs of four, nothing left and no discard: out, and the game ends.
    state.apply("lay down 4H 5H 6H 7H | 4S 5S 6S 7S")
    assert state.round_scores[0][0] == 0 and state.is_over
    # Under standard rules the same lay-down is refused: a turn ends with a discard.
    standard = dataclasses.replace(rules, last_round_no_discard=False, floating=False)
    state = table(standard, 3, {0: "4H 5H 6H 7H 4S 5S 6S"}, round=7, stock="7S")
    decline(state)
    refused(state, "lay down 4H 5H 6H 7H | 4S 5S 6S 7S", "must keep a card")


def test_last_round_no_final_discard_forbids_discarding_the_last_card():
    rules = dataclasses.replace(
        RuleSet.preset("wikipedia"), contracts=(STANDARD.contracts[0],) * 7, floating=False
    )
    hands = {
        0: "8S 8H 8D 9S 9H 9D 2C",
        1: "2H 3S 4D 6C 7C 10C JC",
        2: "2D 3C 5C 6D 7D 10D JD",
    }
    state = table(rules, 3, hands, round=7, stock="KS QH QD 8C")
    decline(state)
    play(state, "lay down 8S 8H 8D | 9S 9H 9D", "discard KS")
    decline(state)
    state.apply("discard QH")
    decline(state)
    state.apply("discard QD")
    decline(state)
    state.apply("lay off 8C -> 0")
    assert codes(state, 0) == ["2C"]
    assert state.legal_actions() == [EndTurn()]
    refused(state, "discard 2C", "no final discard")
    state.apply("end turn")
    assert state.current == 1 and codes(state, 0) == ["2C"]
    assert "ends the turn without discarding" in state.narrate()


def test_floating_player_plays_on_with_an_empty_hand():
    rules = RuleSet.preset("wikipedia")  # 11 cards in round 1, floating allowed
    hands = {
        0: "8S 8H 8D 9S 9H 9D 8C 9C 8S 9S 8C",
        1: "2H 3S 4D 6C 7C 10C JC QC KC AC 5D",
        2: "2D 3C 5C 6D 7D 10D JD QD KD AD 5S",
    }
    state = table(rules, 3, hands, upcard="5H", stock="9D 7S 4H 3H")
    decline(state)
    state.apply("lay down 8S 8H 8D | 9S 9H 9D")
    for code in ("8C", "9C", "8S", "9S", "8C", "9D"):
        state.apply(f"lay off {code} -> {0 if code.startswith('8') else 1}")
    # The hand is empty without a discard: Ann floats and the turn passes.
    assert state.hands[0] == [] and state.current == 1 and state.round == 1
    assert "Ann has no cards left and floats" in state.narrate()
    decline(state)
    state.apply("discard 2H")
    decline(state)
    state.apply("discard 2D")
    # A floater may not take a discard it cannot lay off (it could never discard it).
    assert state.legal_actions() == [DrawStock()]
    refused(state, "take discard", "floating player may take the discard only to lay it off")
    decline(state)
    state.apply("discard 3H")  # going out by discarding the card drawn
    assert state.round == 2 and state.round_scores[0][0] == 0


def test_standard_has_no_floating():
    state = _both_down(extra0="8C 9C 8S 9S", stock="KS KH KD 8D")
    play(state, "lay off 8C -> 0", "lay off 9C -> 1", "lay off 8S -> 0", "lay off 9S -> 1")
    assert codes(state, 0) == ["8D"]
    assert not any(isinstance(a, LayOff) for a in state.legal_actions())
    refused(state, "lay off 8D -> 0", "must keep a card to discard")
    state.apply("discard 8D")
    assert state.round == 2


# ------------------------------------------------------------------------------------ piles


def test_empty_stock_is_rebuilt_from_the_discard_pile_but_its_top():
    state = table("standard", 3)
    # Move the whole stock under the up-card (cards stay conserved).
    state.discards = state.stock + state.discards
    state.stock = []
    top = state.discards[-1]
    size = len(state.discards)
    state.apply("draw stock")  # no buy window: no penalty card in the stock
    assert state.reshuffles == 1 and state.phase == "play"
    assert state.discards == [top] and len(state.stock) == size - 2
    event = next(e for e in state.log if e.kind == "reshuffle")
    assert event.details == ReshuffleDetails(stock_size=size - 1)
    state.check_invariants()
    assert "shuffled into a new stock" in state.narrate()


def test_round_ends_when_no_card_can_be_drawn():
    rules = dataclasses.replace(STANDARD, reshuffle_discards=False)
    state = table(rules, 3)
    state.discards = state.stock + state.discards
    state.stock = []
    hands = [list(h) for h in state.hands]
    state.apply("draw stock")
    while state.phase == "buy":
        state.apply("pass")  # (no buy window: no penalty card available)
    assert state.round == 2
    points = tuple(sum(rules.point_value(c) for c in h) for h in hands)
    assert state.round_scores[0] == points
    assert "No card can be drawn" in state.narrate(round=1)


def test_a_buy_needs_the_penalty_cards_in_the_stock():
    state = table("standard", 3)
    state.discards = state.stock + state.discards
    state.stock = []
    state.apply("draw stock")
    assert state.phase != "buy"


# ------------------------------------------------------------------------------------ carry-over


def test_missed_contract_is_repeated_where_the_preset_says():
    hands = {0: "8S 8H 8D 9S 9H 9D 9C"}
    family = table("family", 3, hands, stock="KS")
    decline(family)
    play(family, "lay down 8S 8H 8D | 9S 9H 9D 9C", "discard KS")
    assert family.round == 2
    assert [str(family.contract(s)) for s in range(3)] == ["1 set + 1 run", "2 sets", "2 sets"]
    assert len(family.hands[1]) == 7
    hands = {0: "8S 8H 8D 8C 8S 9S 9H 9D 9C 9S"}
    standard = table("standard", 3, hands, stock="KS")
    decline(standard)
    play(standard, "lay down 8S 8H 8D 8C 8S | 9S 9H 9D 9C 9S", "discard KS")
    assert [str(standard.contract(s)) for s in range(3)] == ["1 set + 1 run"] * 3


# ------------------------------------------------------------------------------------ calls


def test_liverpool_call_claims_a_discard_that_could_have_been_laid_off():
    rules = RuleSet.preset("wikipedia")
    hands = {
        0: "8S 8H 8D 9S 9H 9D 8C 2C 3D 4H 5S",
        1: "JS JH JD QS QH QD 2H 3S 4D 6C 7C",
        2: "KS KH KD AS AH AD 2D 3C 5C 6D 7D",
    }
    state = table(rules, 3, hands, stock="10S 10H 10D 10C 7S 7H")
    decline(state)
    play(state, "lay down 8S 8H 8D | 9S 9H 9D", "discard 2C")
    decline(state)
    play(state, "lay down JS JH JD | QS QH QD", "discard 2H")
    decline(state)
    play(state, "lay down KS KH KD | AS AH AD", "discard 2D")
    decline(state)
    state.apply("discard 8C")  # fits meld 0: a "liverpool"
    assert state.phase == "call" and state.to_act == 1
    assert state.legal_actions() == [Call(), Pass()]
    state.apply("call")
    assert state.phase == "call discard" and state.to_act == 1
    assert Card.parse("8C") in state.hands[1]
    refused(state, "discard 8C", "cannot be discarded in the same turn")
    state.apply("discard 6C")
    assert state.phase == "draw" and state.current == 1
    assert "Bea calls Liverpool on Ann's 8♣ and takes it." in state.narrate()


def test_rummy_call_makes_the_discarder_take_it_back_with_a_penalty_card():
    rules = dataclasses.replace(STANDARD, discard_call="rummy")
    hands = {0: "8S 8H 8D 9S 9H 9D 8C 2C 3D 4H"}
    state = table(rules, 3, hands, stock="KS QS JS")
    decline(state)
    play(state, "lay down 8S 8H 8D | 9S 9H 9D", "discard 8C")
    assert state.phase == "call" and state.to_act == 1
    state.apply("pass")
    assert state.to_act == 2
    state.apply("call")
    assert Card.parse("8C") in state.hands[0] and Card.parse("QS") in state.hands[0]
    assert state.current == 1 and state.phase == "draw"
    assert "Cal calls rummy on Ann's 8♣." in state.narrate()


def test_no_call_without_the_rule():
    hands = {0: "8S 8H 8D 9S 9H 9D 8C 2C 3D 4H"}
    state = table("standard", 3, hands, stock="KS")
    decline(state)
    play(state, "lay down 8S 8H 8D | 9S 9H 9D", "discard 8C")
    assert state.phase == "draw" and state.current == 1


# ------------------------------------------------------------------------------------ cut


def test_perfect_cut_bonus():
    state = table("pagat", 3, cut=3 * 10 + 1)
    assert state.penalties[1] == -50  # the cutter sits right of the dealer (seat 2)
    assert "perfect cut" in state.narrate()
    assert table("pagat", 3, cut=5).penalties == [0, 0, 0]


# ------------------------------------------------------------------------------------ views


def _cards_in(value) -> set:
    if isinstance(value, Card):
        return {value}
    if hasattr(value, "cards") and hasattr(value, "stands_for"):  # a Meld
        return set(value.cards)
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def test_view_hides_other_hands():
    state = _both_down(extra0="8C 9C 8S 2C")
    for seat in range(3):
        view = state.view(seat)
        assert view.hand == state.hand(seat).sorted()
        others = {c for s in range(3) if s != seat for c in state.hands[s]}
        shown = set().union(
            *(
                _cards_in(getattr(view, f.name))
                for f in dataclasses.fields(view)
                if f.name != "hand"
            )
        )
        assert not shown & others
    assert state.view(1).legal_actions() == []  # not seat 1's decision
    assert state.view(0).legal_actions() == state.legal_actions()
    assert state.view(0).hand_sizes == tuple(len(h) for h in state.hands)


def test_game_over_has_no_legal_actions():
    from rummykit.agents.bots import GreedyBot

    state = play_game(Game("standard", 2, seed=3).new_state(), [GreedyBot(), GreedyBot()])
    assert state.is_over and state.legal_actions() == [] and state.to_act is None
    refused(state, "draw stock", "game is over")
    assert "The game is over" in state.narrate()


# ------------------------------------------------------------------------------------ actions


@pytest.mark.parametrize(
    "text",
    [
        "draw stock",
        "take discard",
        "buy",
        "pass",
        "call",
        "end turn",
        "lay down 8S 8H 8D | JH JH JS",
        "invalid lay down 8S 8H | 2C",
        "lay off 9H -> 2",
        "lay off JK -> 0 low",
        "lay off 10C -> 11 high",
        "swap 7H -> 3",
        "discard QS",
    ],
)
def test_action_notation_round_trips(text):
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action
    assert eval(repr(action), {"parse_action": parse_action}) == action  # repr is a constructor


def test_action_aliases_and_errors():
    assert parse_action("decline buy") == Pass() == parse_action("PASS")
    assert parse_action("Liverpool") == Call()
    assert parse_action("lay off 9♥->2") == LayOff(Card.parse("9H"), 2)
    assert Discard(Card.parse("QS", deck=1)) == Discard(Card.parse("QS"))
    for bad in ("fly", "discard", "lay down", "lay down 8S | ", "swap 7H -> x", "lay off 7H"):
        with pytest.raises(IllegalActionError, match="cannot read action"):
            parse_action(bad)
    assert isinstance(parse_action(DrawStock()), DrawStock)
    assert Buy() != Pass() and EndTurn() == EndTurn() and InvalidLayDown(((),)) is not None


# ------------------------------------------------------------------------------------ save/load


def _some_game() -> GameState:
    from rummykit.agents.bots import GreedyBot

    state = Game("standard", 3, seed=9).new_state()
    bots = [GreedyBot(seed=s) for s in range(3)]
    for _ in range(200):
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


def test_save_and_load_reproduce_the_state():
    state = _some_game()
    again = load(state.save())
    assert again.snapshot() == state.snapshot()
    assert again.legal_actions() == state.legal_actions()
    assert [str(a) for _, a in again.history] == [str(a) for _, a in state.history]
    scripted = table("standard", 3, {0: "8S 8H 8D 9S 9H 9D " + FILL}, stock="KS")
    decline(scripted)
    assert load(scripted.save()).snapshot() == scripted.snapshot()


def test_tampered_or_corrupt_save_files_are_refused():
    text = _some_game().save()
    data = json.loads(text)

    def broken(change) -> str:
        copy = json.loads(text)
        change(copy)
        return json.dumps(copy)

    cases = {
        "invalid JSON": text[:-20],
        "not a rummykit save": json.dumps([1, 2]),
        "unknown save version": broken(lambda d: d.update(version=2)),
        "illegal on replay": broken(
            lambda d: d["actions"].__setitem__(3, [d["actions"][3][0], "discard JK"])
        ),
        "recorded for seat": broken(lambda d: d["actions"].__setitem__(0, [9, "draw stock"])),
        "do not reproduce": broken(lambda d: d["state"]["scores"].__setitem__(0, 999)),
        "bad card": broken(lambda d: d["setup"].update(upcard="ZZ")),
        "unknown rule options": broken(lambda d: d["rules"].update(cheat=True)),
        "cannot be played": broken(lambda d: d["rules"].update(min_players=1)),
        "'seed' must be an integer": broken(lambda d: d.update(seed="1")),
        "it has no 'names'": broken(lambda d: d.pop("names")),
    }
    del data
    for message, bad in cases.items():
        with pytest.raises(SaveFileError, match=message):
            load(bad)


_CARDS = st.sampled_from(Shoe(2, 2).cards)
_ACTIONS = st.one_of(
    st.sampled_from([DrawStock(), TakeDiscard(), Buy(), Pass(), Call(), EndTurn()]),
    st.builds(Discard, _CARDS),
    st.builds(Swap, _CARDS, st.integers(0, 30)),
    st.builds(LayOff, _CARDS, st.integers(0, 30), st.sampled_from([None, "low", "high"])),
    st.builds(LayDown, st.lists(st.lists(_CARDS, min_size=1, max_size=6), min_size=1, max_size=4)),
    st.builds(
        InvalidLayDown, st.lists(st.lists(_CARDS, min_size=1, max_size=6), min_size=1, max_size=4)
    ),
)


@given(_ACTIONS)
def test_every_action_prints_and_parses_back(action):
    assert parse_action(str(action)) == action
    assert parse_action(str(action).upper()) == action


def test_check_invariants_notices_a_broken_state():
    state = table("standard", 3)
    state.check_invariants()
    state.stock[-1] = state.stock[0]  # one card twice, one card lost
    with pytest.raises(AssertionError, match="exactly the shoe"):
        state.check_invariants()
    state = _both_down()
    state.laid_down[1] = False
    with pytest.raises(AssertionError, match="melds without a lay-down"):
        state.check_invariants()


def test_swap_before_laying_down_where_the_rules_allow():
    rules = dataclasses.replace(
        STANDARD, joker_swap_needs_laid_down=False, contracts=(STANDARD.contracts[1],) * 7
    )
    hands = {
        0: "5H 6H JK 8H 9S 9H 9D 2C 3D 4S",
        1: "7H 10C 10D 10S KC KD 2D 3H 4C 5S",
    }
    state = table(rules, 3, hands, stock="QS QH")
    decline(state)
    play(state, "lay down 9S 9H 9D | 5H 6H JK 8H", "discard 4S")
    decline(state)
    # Seat 1 could not lay down even with the joker: the swap is refused.
    refused(state, "swap 7H -> 1", "swap only when you can then lay your contract down")
    # With a run to finish, the swap is allowed and the joker must go down this turn.
    hands[1] = "7H 10C 10D 10S JC QC KC 2D 3H 4C"
    state = table(rules, 3, hands, stock="QS QH")
    decline(state)
    play(state, "lay down 9S 9H 9D | 5H 6H JK 8H", "discard 4S")
    decline(state)
    state.apply("swap 7H -> 1")
    refused(state, "discard 2D", "must be played this turn")
    state.apply("lay down 10C 10D 10S | JC QC KC JK")
    state.apply("discard 2D")


def test_each_finished_round_keeps_its_table_hands_and_points():
    from rummykit.agents.bots import GreedyBot

    game = Game("standard", players=3, seed=21, turn_limit=200)
    state = game.new_state(round=5)
    seen = 0
    while state.to_act is not None:
        before = state.clone()
        state.apply(GreedyBot(seed=len(state.history)).choose(state.view(state.to_act)))
        if len(state.results) > seen:
            # The action that ended the round: the record is the table it left, which the
            # state itself no longer holds once the next round is dealt.
            result = state.results[seen]
            seen += 1
            assert result.round == before.round and result.points == state.round_scores[-1]
            assert result.scores == tuple(
                b + p for b, p in zip(before.scores, result.points, strict=True)
            )
            assert result.contracts == tuple(before.contract(s) for s in range(3))
            for seat, hand in enumerate(result.hands):
                value = sum(game.rules.point_value(card) for card in hand)
                assert result.points[seat] == value + before.penalties[seat]
            if result.went_out is not None:
                assert result.hands[result.went_out] == ()
                assert len(result.melds) >= len(before.melds) > 0
            assert len(result.meld_owners) == len(result.melds)
            assert set(result.meld_owners) <= {s for s in range(3) if result.laid_down[s]}
    assert seen == len(state.round_scores) == 3
    assert load(state.save()).results == state.results  # replayed, not saved


def test_why_not_gives_applys_reason_and_changes_nothing():
    state = Game(players=3, seed=11).new_state()
    rng = random.Random(3)
    probes = ["draw stock", "take discard", "buy", "pass", "call", "end turn", "lay down"]
    for _ in range(60):
        if state.is_over:
            break
        before = state.snapshot()
        for action in state.legal_actions():
            assert state.is_legal(action) and state.why_not(action) is None, action
        for text in probes + [f"discard {card.code}" for card in state.hand(state.to_act)[:3]]:
            trial = state.clone()
            try:
                trial.apply(text)
            except IllegalActionError as error:
                refusal = state.why_not(text)
                assert refusal == error.refusal and str(refusal) == str(error), text
                assert not state.is_legal(text)
            else:
                assert state.why_not(text) is None, text
        assert state.snapshot() == before  # asking changes nothing
        state.apply(rng.choice(state.legal_actions()))
