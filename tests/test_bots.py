"""Bots: seeded, working from a PlayerView only, and doing what their docstrings say."""

from __future__ import annotations

import random

import pytest

from rummykit.agents.bots import BUY_POLICIES, BuyerBot, GreedyBot, RandomBot, could_improve
from rummykit.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    TakeDiscard,
)
from rummykit.engine.cards import Card, Shoe
from rummykit.engine.game import Game, PlayerView, play_game
from rummykit.engine.rules import RuleSet
from rummykit.engine.search import contract_distance
from tests.support.game_helpers import decline, table


def _history(bot_type, seed: int) -> list[str]:
    game = Game("standard", 3, seed=seed, max_reshuffles=1)
    state = play_game(game.new_state(), [bot_type(seed=seed + s) for s in range(3)])
    return [str(action) for _, action in state.history]


@pytest.mark.parametrize("bot_type", [RandomBot, GreedyBot])
def test_bots_are_seeded(bot_type):
    assert _history(bot_type, 4) == _history(bot_type, 4)


def test_random_bot_is_uniform_over_legal_actions():
    state = table("standard", 3, {0: "8S 8H 8D 9S 9H 9D 2C 3D 4H 6S"}, stock="KS")
    decline(state)
    bot = RandomBot(seed=1)
    view = state.view(0)
    picks = {str(bot.choose(view)) for _ in range(300)}
    assert picks == {str(action) for action in state.legal_actions()}


def test_bots_see_only_a_player_view():
    state = table("standard", 3)
    view = state.view(0)
    assert isinstance(view, PlayerView)
    for bot in (RandomBot(seed=1), GreedyBot(seed=1), BuyerBot("always")):
        assert bot.choose(view) in state.legal_actions()


def test_greedy_lays_down_as_soon_as_it_can_then_lays_off():
    state = table("standard", 3, {0: "8S 8H 8D 9S 9H 9D 8C 3D 4H KS"}, stock="9C")
    bot = GreedyBot(seed=1)
    state.apply(bot.choose(state.view(0)))  # nothing to take: draws
    while state.phase == "buy":
        state.apply("pass")
    action = bot.choose(state.view(0))
    assert isinstance(action, LayDown)
    state.apply(action)
    action = bot.choose(state.view(0))
    assert isinstance(action, LayOff)
    state.apply(action)
    while state.current == 0:
        state.apply(bot.choose(state.view(0)))
    # 8♣ and 9♣ laid off, then the costliest card discarded.
    assert sorted(c.code for c in state.hands[0]) == ["3D", "4H"]


def test_greedy_discards_what_keeps_the_contract_closest_then_the_most_points():
    state = table("standard", 3, {0: "8S 8H 9S 9H 5C 5D KS 2C 3D JK"}, stock="4H")
    decline(state)
    action = GreedyBot().choose(state.view(0))
    # Pairs of 8s, 9s and 5s and a joker: the K♠ is the costliest useless card.
    assert action == Discard(Card.parse("KS"))


def test_greedy_takes_the_discard_when_it_helps():
    state = table("standard", 3, {0: "8S 8H 9S 9H 5C 5D KS 2C 3D 7H"}, upcard="8D")
    assert GreedyBot().choose(state.view(0)) == TakeDiscard()
    state = table("standard", 3, {0: "8S 8H 9S 9H 5C 5D KS 2C 3D 7H"}, upcard="QC")
    assert GreedyBot().choose(state.view(0)) == DrawStock()


@pytest.mark.parametrize("policy", BUY_POLICIES)
def test_buyer_bot_policies(policy):
    state = table("standard", 3, {1: "8S 8H 9S 9H 5C 5D KS 2C 3D 7H"}, upcard="8D")
    state.apply("draw stock")
    useful = BuyerBot(policy).choose(state.view(1))
    state = table("standard", 3, {1: "8S 8H 9S 9H 5C 5D KS 2C 3D 7H"}, upcard="QC")
    state.apply("draw stock")
    useless = BuyerBot(policy).choose(state.view(1))
    expected = {"never": (Pass(), Pass()), "improves": (Buy(), Pass()), "always": (Buy(), Buy())}
    assert (useful, useless) == expected[policy]
    assert GreedyBot().buy == "improves"


def test_greedy_calls_liverpool():
    assert GreedyBot().choose(_call_view()) == Call()


def _call_view() -> PlayerView:
    from tests.support.game_helpers import play

    hands = {
        0: "8S 8H 8D 9S 9H 9D 8C 2C 3D 4H 5S",
        1: "JS JH JD QS QH QD 2H 3S 4D 6C 7C",
    }
    state = table(RuleSet.preset("wikipedia"), 3, hands, stock="10S 10H 10D 10C")
    decline(state)
    play(state, "lay down 8S 8H 8D | 9S 9H 9D", "discard 2C")
    decline(state)
    play(state, "lay down JS JH JD | QS QH QD", "discard 2H")
    decline(state)
    play(state, str(state.legal_actions()[-1]))
    decline(state)
    state.apply("discard 8C")
    assert state.phase == "call"
    return state.view(state.to_act)


def test_bad_policy():
    with pytest.raises(ValueError, match="buy must be one of"):
        BuyerBot("sometimes")


def test_greedy_beats_random():
    totals = {"greedy": 0, "random": 0}
    for seed in range(3):
        game = Game("standard", 2, seed=seed, max_reshuffles=1)
        state = play_game(game.new_state(), [GreedyBot(seed=seed), RandomBot(seed=seed)])
        totals["greedy"] += state.scores[0]
        totals["random"] += state.scores[1]
    assert totals["greedy"] < totals["random"]


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_could_improve_never_misses_an_improvement(preset):
    # The shortcut against the exact contract_distance, on random hands and cards.
    rules = RuleSet.preset(preset)
    rng = random.Random(preset)
    shoe = Shoe(2, 4)
    skipped = 0
    for _ in range(400):
        contract = rng.choice(rules.contracts)
        cards = shoe.shuffled(rng)
        size = rng.randint(4, 14)
        hand, card = cards[:size], cards[size]
        if not could_improve(hand, card, contract, rules):
            skipped += 1
            with_card = contract_distance([*hand, card], contract, rules)
            assert with_card >= contract_distance(hand, contract, rules), (hand, card)
    assert skipped > 0
