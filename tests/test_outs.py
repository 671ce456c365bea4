"""outs and discard_advice against brute force: the distance of the hand with each unseen
physical card added, and every ordered pair of unseen cards with the best discard between."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import (
    DiscardOption,
    Game,
    Outs,
    RuleSet,
    Shoe,
    contract_distance,
    discard_advice,
    find_contract,
    outs,
    parse_cards,
)
from rummykit.agents.bots import GreedyBot
from rummykit.chance import chance_text
from rummykit.errors import ArgumentError, ArgumentTypeError, CardCountError, RummyError
from tests.support.tiers import slow

STANDARD = RuleSet.preset("standard")
# A small meld rule set: sets and runs of 3, so that tiny shoes still make contracts.
SMALL = dataclasses.replace(STANDARD, name="small", min_run_size=3)


def pool(shoe: Shoe, hand, seen) -> list:
    """The unseen physical cards: the shoe less the hand and the seen cards."""
    gone = list(hand) + list(seen)
    cards = list(shoe.cards)
    for card in gone:
        cards.remove(card)
    return cards


def deal(rng: random.Random, shoe: Shoe, cards: int, seen: int):
    shuffled = rng.sample(shoe.cards, len(shoe.cards))
    return shuffled[:cards], shuffled[cards : cards + seen]


def direct_outs(hand, contract, rules, shoe: Shoe, seen) -> dict[str, int]:
    """Unseen copies of each face whose physical card, added, lowers the limited distance."""
    distance = contract_distance(hand, contract, rules, decks=shoe.decks)
    found: dict[str, int] = {}
    if distance:
        for card in pool(shoe, hand, seen):
            if contract_distance([*hand, card], contract, rules, decks=shoe.decks) < distance:
                found[card.code] = found.get(card.code, 0) + 1
    return found


def direct_two(left, contract, rules, unseen) -> Fraction:
    """Chance of the contract after x, or after x, the best discard y, then z."""
    if find_contract(left, contract, rules) is not None:
        return Fraction(1)
    wins = Fraction(0)
    for i, x in enumerate(unseen):
        held = [*left, x]
        if find_contract(held, contract, rules) is not None:
            wins += 1
            continue
        rest = unseen[:i] + unseen[i + 1 :]
        best = 0
        for j in range(len(held)):
            after = held[:j] + held[j + 1 :]
            best = max(
                best, sum(find_contract([*after, z], contract, rules) is not None for z in rest)
            )
        wins += Fraction(best, len(rest))
    return wins / len(unseen)


CASES = [
    # (cards in hand, seen cards, contract index, decks, jokers)
    (5, 0, 0, 1, 2),
    (6, 10, 0, 2, 2),
    (6, 20, 1, 1, 1),
    slow(7, 5, 1, 2, 4),
    (7, 30, 2, 1, 2),
]


@pytest.mark.parametrize("cards, seen_count, round_index, decks, jokers", CASES)
def test_outs_match_the_distance_of_every_unseen_card(
    cards, seen_count, round_index, decks, jokers
):
    shoe = Shoe(decks=decks, jokers=jokers)
    contract = SMALL.contracts[round_index]
    rng = random.Random(cards * 100 + seen_count)
    for _ in range(4):
        hand, seen = deal(rng, shoe, cards, seen_count)
        before = (list(hand), list(seen))
        result = outs(hand, contract, SMALL, decks=decks, jokers=jokers, seen=seen)
        assert (hand, seen) == before
        assert result.distance == contract_distance(hand, contract, SMALL, decks=decks)
        assert result.cards == direct_outs(hand, contract, SMALL, shoe, seen)
        unseen = pool(shoe, hand, seen)
        assert result.unseen == len(unseen)
        helps = sum(
            contract_distance([*hand, card], contract, SMALL, decks=decks) < result.distance
            for card in unseen
        )
        assert result.p_next == Fraction(helps, len(unseen))
        assert result.total == helps


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), cards=st.integers(3, 7), round_index=st.integers(0, 1))
def test_outs_property_against_the_direct_definition(seed, cards, round_index):
    shoe = Shoe(decks=2, jokers=2)
    rng = random.Random(seed)
    hand, seen = deal(rng, shoe, cards, rng.randrange(0, 20))
    contract = STANDARD.contracts[round_index]
    result = outs(hand, contract, STANDARD, decks=2, jokers=2, seen=seen)
    assert result.cards == direct_outs(hand, contract, STANDARD, shoe, seen)
    assert all(count > 0 for count in result.cards.values())


def test_a_joker_is_an_out_only_when_it_lowers_the_distance():
    contract = STANDARD.contracts[0]
    near = outs(parse_cards("8S 8H 8D JH JS 2C"), contract, STANDARD, decks=2, jokers=4)
    assert near.cards["JK"] == 4
    # One joker a meld, and each of the two sets to be made already has one.
    capped = dataclasses.replace(STANDARD, name="capped", max_jokers_per_meld=1)
    hand = parse_cards("8S JK JH JK 2C 5D")
    result = outs(hand, contract, capped, decks=2, jokers=4)
    assert "JK" not in result.cards
    assert result.cards == direct_outs(hand, contract, capped, Shoe(2, 4), [])


def test_the_copy_limit_takes_away_outs():
    contract = STANDARD.contracts[2]
    hand = parse_cards("7H 8H 9H 10H 7H 8H 9H")
    assert outs(hand, contract, STANDARD, decks=2, jokers=4).cards["10H"] == 1
    # Once the other 10H is seen it is no out.
    seen = parse_cards("10H")
    assert "10H" not in outs(hand, contract, STANDARD, decks=2, jokers=4, seen=seen).cards


def test_distance_zero_has_no_outs():
    hand = parse_cards("8S 8H 8D JH JS JD 2C")
    result = outs(hand, STANDARD.contracts[0], STANDARD, decks=2, jokers=4)
    assert (result.distance, result.cards, result.total, result.p_next) == (0, {}, 0, 0)
    advice = discard_advice(hand, STANDARD.contracts[0], STANDARD, decks=2, jokers=4)
    assert advice[0].discard == "2C" and advice[0].distance == 0 and advice[0].p_two == 1


TINY = [
    # (hand after its draw, the 12 unseen cards (all else seen), contract index): every
    # best discard leaves distance 1 or 2, and some discards a hand too small to make it.
    ("8S 8H 9S 9H 2C 3H", "8D 8C 9D JK 2D 3D 4D 5C 6C 7S KH AS", 0),
    ("8S 8H 8D 9S 9H 2C", "9D 9C JK 2D 3D 4D 5C 6C 7S KH AS QS", 0),
    ("4H 5H 6H 8S 8D 3C", "7H 3H 8C JK 8H 2S 3S 4S 5C 6C KH AS", 1),
    ("4H 5H 8S 8D KC QC", "6H 3H 8C JK 8H 2S 7H 4S 5C 6C KH AS", 1),
]


@pytest.mark.parametrize("codes, unseen_codes, round_index", TINY)
def test_discard_advice_matches_every_ordered_pair(codes, unseen_codes, round_index):
    shoe = Shoe(decks=1, jokers=1)
    hand = [card for card in shoe.cards if card.code in codes.split()]
    seen = [card for card in shoe.cards if card.code not in (codes + " " + unseen_codes).split()]
    contract = SMALL.contracts[round_index]
    advice = discard_advice(hand, contract, SMALL, decks=1, jokers=1, seen=seen)
    assert sorted(option.discard for option in advice) == sorted(codes.split())
    unseen = pool(shoe, hand, seen)
    for option in advice:
        left = [card for card in hand if card.code != option.discard]
        assert option.outs == outs(
            left, contract, SMALL, decks=1, jokers=1, seen=[*seen, *set(hand) - set(left)]
        )
        assert option.p_two == direct_two(left, contract, SMALL, unseen)
    assert advice[0].p_two > 0
    keys = [(o.distance, -o.outs.total, -o.p_two, o.discard) for o in advice]
    assert keys == sorted(keys)


def test_discard_advice_for_a_player_view():
    game = Game("standard", 3, seed=5, max_reshuffles=1)
    state = game.new_state()
    bots = [GreedyBot(seed=s) for s in range(3)]
    # Play until some melds are down and the seat to act has drawn.
    for _ in range(400):
        view = state.view(state.to_act)
        if view.melds and view.phase == "play" and view.seat == view.current:
            break
        state.apply(bots[state.to_act].choose(view))
    assert view.melds and view.phase == "play"
    decks = STANDARD.decks_for(3)
    # Seen: the melds, the whole discard pile (buried cards too) and what others took from it.
    seen = [card for meld in view.melds for card in meld.cards] + list(state.discards)
    kinds = ("take discard", "buy", "call")
    taken = {e.cards[0] for e in state.log if e.kind in kinds and e.round == state.round}
    seen += [c for s, h in enumerate(state.hands) if s != view.seat for c in h if c in taken]
    assert len(state.discards) > 1  # buried cards count
    want = discard_advice(
        view.hand,
        view.contract,
        view.rules,
        decks=decks,
        jokers=STANDARD.jokers_for(decks),
        seen=seen,
    )
    assert discard_advice(view) == want
    with pytest.raises(ArgumentError, match="PlayerView"):
        discard_advice(view, view.contract)


def test_bad_input_raises_and_changes_nothing():
    contract = STANDARD.contracts[0]
    hand = list(parse_cards("8S 8H"))
    seen = [parse_cards("8S")[0], parse_cards("8S")[0]]
    with pytest.raises(CardCountError, match="8S"):
        outs(hand, contract, STANDARD, decks=2, jokers=4, seen=seen)
    assert hand == list(parse_cards("8S 8H")) and len(seen) == 2
    with pytest.raises(CardCountError, match="3 copies of 8S"):
        outs(parse_cards("8S 8S 8S"), contract, STANDARD, decks=2, jokers=4)
    with pytest.raises(CardCountError, match="JK"):
        outs(parse_cards("JK JK JK"), contract, STANDARD, decks=2, jokers=2)
    with pytest.raises(CardCountError, match="JK"):
        discard_advice(parse_cards("JK 2C"), contract, STANDARD, decks=2, jokers=0)
    with pytest.raises(ArgumentTypeError):
        outs("8S 8H", contract, STANDARD, decks=2, jokers=4)
    with pytest.raises(ArgumentTypeError):
        outs(hand, contract, STANDARD, decks="2", jokers=4)
    with pytest.raises(ArgumentTypeError):
        outs(hand, "2 sets", STANDARD, decks=2, jokers=4)
    with pytest.raises(ArgumentTypeError):
        discard_advice(hand, contract, STANDARD)
    with pytest.raises(ArgumentError, match="decks"):
        outs(hand, contract, STANDARD, decks=0, jokers=4)
    with pytest.raises(ArgumentError, match="jokers"):
        outs(hand, contract, STANDARD, decks=2, jokers=-1)
    assert issubclass(CardCountError, RummyError)


def test_reprs_and_html():
    result = outs(
        parse_cards("8S 8H 8D JH JS 2C"), STANDARD.contracts[0], STANDARD, decks=2, jokers=4
    )
    assert eval(repr(result), {"Outs": Outs}) == result
    html = result._repr_html_()
    assert html.count('class="card"') == len(result.cards)
    assert f"{result.total} outs" in html
    advice = discard_advice(
        parse_cards("8S 8H 8D JH JS 2C"), STANDARD.contracts[0], STANDARD, decks=2, jokers=4
    )
    assert (
        eval(repr(advice[0]), {"DiscardOption": DiscardOption, "Outs": Outs, "Fraction": Fraction})
        == advice[0]
    )
    table = advice._repr_html_()
    assert table.count("<tr>") == len(advice) + 1
    assert repr(advice).startswith("DiscardAdvice([DiscardOption(discard='2C'")


def test_outs_where_the_copy_limit_raises_the_distance():
    # Without a limit two more 8s make two sets of 8s; one deck has no fifth 8, so the
    # copy-limited search (not the unlimited shortcut) decides the distance and the outs.
    shoe = Shoe(decks=1, jokers=2)
    hand = [card for card in shoe.cards if card.code in ("8S", "8H", "8D", "8C")]
    contract = SMALL.contracts[0]
    assert contract_distance(hand, contract, SMALL) == 2
    result = outs(hand, contract, SMALL, decks=1, jokers=2)
    assert result.distance == contract_distance(hand, contract, SMALL, decks=1) == 3
    assert result.cards == direct_outs(hand, contract, SMALL, shoe, [])
    assert result.total == 48 + 2


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), cards=st.integers(5, 7), round_index=st.integers(0, 1))
def test_two_draw_chance_property_on_tiny_pools(seed, cards, round_index):
    shoe = Shoe(decks=1, jokers=2)
    rng = random.Random(seed)
    shuffled = rng.sample(shoe.cards, len(shoe.cards))
    hand, unseen = shuffled[:cards], shuffled[cards : cards + 9]
    seen = shuffled[cards + 9 :]
    contract = SMALL.contracts[round_index]
    for option in discard_advice(hand, contract, SMALL, decks=1, jokers=2, seen=seen):
        left = [card for card in hand if card.code != option.discard]
        assert option.p_two == direct_two(left, contract, SMALL, unseen)


def test_chances_are_written_as_the_project_writes_them():
    rules = RuleSet.preset("standard")
    hand = parse_cards("3D 3H 3S 6C 7C 7H JC JD QD QS")
    found = outs(hand, rules.contracts[0], rules, decks=2, jokers=4)
    assert f"next card helps: {chance_text(float(found.p_next))}" in found._repr_html_()
    advice = discard_advice(hand + parse_cards("KS"), rules.contracts[0], rules, decks=2, jokers=4)
    page = advice._repr_html_()
    for option in advice:
        assert f"<td>{chance_text(float(option.p_two))}</td>" in page


# ---------------------------------------------------------------- what a seat has seen
# (issue 26, item 1: the buried discard pile, cards others took from it, reshuffles)

_BURIED_HANDS = [
    "8S 8H 8D JH JS 2C 5D 6C 9D KH",
    "2D 3D 4D 7C 7H 10S QD AS AH 5S",
    "4S 6D 7S 9C 10C KC KD QS AC 6H",
]


def _buried_state(actions: list[str]):
    """Standard, 3 players, Ann first; the up-card J♣ (an out of Ann's two sets)."""
    from rummykit.engine.game import Game

    state = Game("standard", players=3, seed=5).new_state(
        round=1, dealer=2, hands=_BURIED_HANDS, upcard="JC", stock="4C 3H 3S"
    )
    for action in actions:
        state.apply(action)
    return state


_ROUND = ["draw stock", "pass", "pass", "discard 2C", "draw stock", "pass", "pass", "discard QD"]
_ROUND += ["draw stock", "pass", "pass", "discard QS"]


def test_a_buried_discard_counts_as_seen():
    from rummykit.agents.hints import discard_outs, seen_parts, seen_text, view_seen

    state = _buried_state(_ROUND)
    view = state.view(0)
    assert view.phase == "draw" and view.discard_pile == tuple(state.discards)
    assert [str(card) for card in view.discard_pile] == ["J♣", "2♣", "Q♦", "Q♠"]
    assert sorted(map(str, view_seen(view))) == sorted(map(str, state.discards))
    result = outs(view.hand, view.contract, view.rules, decks=2, jokers=4, seen=view_seen(view))
    # One J♣ is buried in the pile: one copy left, not two; 108 - 10 held - 4 in the pile.
    assert result.cards["JC"] == 1 and result.cards["JD"] == 2
    assert result.unseen == 108 - 10 - 4 == 94
    assert discard_outs(view) == discard_outs(
        view.hand, view.contract, view.rules, decks=2, jokers=4, seen=state.discards
    )
    assert seen_parts(view) == {"table": [], "pile": list(state.discards)}
    assert seen_text(view) == "counting as seen: your hand, 4 cards in the discard pile"
    kinds = [(move.kind, move.seat) for move in view.pile_moves]
    assert kinds == [("upcard", None), ("discard", 0), ("discard", 1), ("discard", 2)]
    data = view.to_dict()["pile_moves"]
    assert data[0] == ["upcard", None, "JC"] and data[-1] == ["discard", 2, "QS"]


def test_a_card_another_seat_took_counts_as_seen_until_it_comes_back():
    from rummykit.agents.hints import seen_parts, seen_text, view_seen

    # Bea takes Ann's 2♣ and discards the Q♦: the 2♣ is in Bea's hand, seen by Ann.
    state = _buried_state(["draw stock", "pass", "pass", "discard 2C", "take discard"])
    state.apply("discard QD")
    view = state.view(0)
    two = next(card for card in state.hands[1] if card.code == "2C")
    assert seen_parts(view)["taken by Bea"] == [two]
    assert two in view_seen(view) and two not in view.discard_pile
    assert "1 card taken by Bea from the pile" in seen_text(view)
    assert ("take", 1) in [(move.kind, move.seat) for move in view.pile_moves]
    # Bea's own view holds it in her hand, not among the seen cards.
    assert "taken by Bea" not in seen_parts(state.view(1))
    # A card bought is seen as well: Cal declines the Q♦, Ann (nearest) buys it.
    state.apply("draw stock")
    state.apply("buy")
    queen = next(card for card in state.hands[0] if card.code == "QD")
    assert seen_parts(state.view(2))["taken by Ann"] == [queen]
    assert seen_parts(state.view(2))["taken by Bea"] == [two]
    assert [move.kind for move in state.view(2).pile_moves][-1] == "buy"


def test_a_reshuffle_turns_the_pile_back_into_unseen_stock():
    from rummykit.agents.hints import seen_parts, seen_text
    from rummykit.engine.legal import PileMove

    state = _buried_state(_ROUND)
    view = state.view(0)
    moves = (*view.pile_moves, PileMove("reshuffle", None, None))
    after = dataclasses.replace(view, pile_moves=moves)
    # Everything under the top went into the stock: only the Q♠ is still seen.
    assert [str(card) for card in after.discard_pile] == ["Q♠"]
    assert seen_parts(after)["pile"] == [view.discard_top]
    assert seen_text(after).endswith("(the pile reshuffled into the stock counts as unseen again)")
    result = outs(
        after.hand, after.contract, after.rules, decks=2, jokers=4, seen=[view.discard_top]
    )
    assert result.cards["JC"] == 2 and result.unseen == 108 - 10 - 1


def test_a_real_reshuffle_leaves_the_view_with_the_top_card_only():
    from rummykit.engine.game import Game

    # Seed 7, 4 players, round 7 (3 runs): the stock runs out after 250 actions.
    state = Game("standard", players=4, seed=7).new_state(round=7)
    bots = [GreedyBot(seed=s) for s in range(4)]
    while state.reshuffles == 0:
        assert not state.is_over, "seed 7 reshuffles in round 7"
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
        assert state.view(0).discard_pile == tuple(state.discards)
    view = state.view(0)
    assert [move.kind for move in view.pile_moves].count("reshuffle") == 1
    assert len(view.discard_pile) == 1 and view.discard_pile == tuple(state.discards)
