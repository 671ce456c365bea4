"""The engine's and GreedyBot's speed-ups change no decision and no result.

GreedyBot caches distances, skips them where :func:`could_improve` says a card helps
nothing, asks :func:`contract_within` where the distance can only be one of two
neighbours (a card drawn or discarded moves it by at most one), and works from
distances it already knows; the game builds views and events without their
dataclass ``__init__`` and lets :func:`play_game` hand the bot's view to ``apply``.
Here each shortcut meets a plain computation of the same thing, on positions from
seeded games under every preset, so a shortcut that changes a decision fails.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot, could_improve
from rummykit.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    LayDown,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.engine.cards import Rank, Shoe
from rummykit.engine.game import Event, Game, PlayerView, play_game
from rummykit.engine.melds import lay_off_options
from rummykit.engine.rules import RuleSet
from rummykit.engine.search import contract_distance


def reference_choice(view: PlayerView, buy: str = "improves"):
    """GreedyBot's policy (see rummykit.agents.bots) computed the plain way: every distance is
    a fresh contract_distance call, with no cache and no shortcut."""
    rules, contract, seat = view.rules, view.contract, view.seat

    def distance(hand) -> int:
        return contract_distance(hand, contract, rules)

    def improves(card) -> bool:
        if card is None or view.laid_down[seat]:
            return False
        return distance([*view.hand, card]) < distance(view.hand)

    def fits(card) -> bool:
        return any(lay_off_options(meld, card, rules) for meld in view.melds)

    if view.phase == "draw":
        top = view.discard_top
        if top is not None:
            wanted = fits(top) if view.laid_down[seat] else improves(top)
            if wanted and TakeDiscard() in view.legal_actions():
                return TakeDiscard()
        return DrawStock()
    if view.phase == "buy":
        if buy == "always" or (buy == "improves" and improves(view.offer)):
            return Buy()
        return Pass()
    if view.phase == "call":
        return Call()
    actions = view.legal_actions()
    for kind in (LayDown, LayOff, Swap):
        chosen = [a for a in actions if isinstance(a, kind)]
        if chosen:
            if kind is LayOff:
                return max(chosen, key=lambda a: (rules.point_value(a.card), -a.meld))
            return chosen[0]
    discards = [a for a in actions if isinstance(a, Discard)]
    if not discards:
        return next(a for a in actions if isinstance(a, EndTurn))

    def key(action):
        card = action.card
        calls = rules.discard_call != "none" and fits(card)
        return (card.is_joker, -rules.point_value(card), calls, card.sort_key())

    discards.sort(key=key)
    if view.laid_down[seat]:
        return discards[0]
    now = distance(view.hand)
    for action in discards:
        rest = list(view.hand)
        rest.remove(next(c for c in rest if c.index == action.card.index))
        if distance(rest) == now:
            return action
    return discards[0]


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [
        ("standard", 4, 1),
        ("standard", 3, 2),
        ("pagat", 4, 3),
        ("bga", 3, 4),
        ("family", 4, 5),
        ("wikipedia", 5, 6),
    ],
)
def test_greedy_decisions_equal_the_plain_computation(preset, players, seed):
    # Every decision of a GreedyBot (and of two BuyerBots) along a game, against the
    # reference. A RandomBot moves some of the time, so the positions are varied.
    game = Game(preset, players, seed=seed, turn_limit=120)
    state = game.new_state()
    bots = [GreedyBot(seed=s) for s in range(players)]
    bots[1] = BuyerBot("always", seed=1)
    bots[-1] = BuyerBot("never", seed=2)
    wild = RandomBot(seed=seed)
    rng = random.Random(seed)
    checked = 0
    while state.to_act is not None:
        seat = state.to_act
        view = state.view(seat)
        chosen = bots[seat].choose(view)
        assert chosen == reference_choice(view, bots[seat].buy), (preset, seed, len(state.history))
        checked += 1
        state.apply(wild.choose(view) if rng.random() < 0.2 else chosen)
    assert checked > 300


@pytest.mark.parametrize("preset", ["standard", "pagat", "wikipedia"])
def test_buy_decisions_on_random_hands(preset):
    # The buy window, where most of the speed-ups act: random hands, random offers.
    rng = random.Random(preset)
    game = Game(preset, 4, seed=9)
    state = game.new_state()
    state.apply(DrawStock())
    view = state.view(state.to_act)
    shoe = Shoe(2, 4)
    bot = GreedyBot(seed=0)
    for _ in range(300):
        cards = shoe.shuffled(rng)
        size = rng.randint(6, 15)
        contract = rng.choice(view.rules.contracts)
        seats = list(view.contracts)
        seats[view.seat] = contract
        hand = tuple(sorted(cards[:size], key=lambda c: c.sort_key()))
        position = dataclasses.replace(view, hand=hand, offer=cards[size], contracts=tuple(seats))
        assert bot.choose(position) == reference_choice(position), position.hand


def test_could_improve_equals_its_definition():
    # The table of neighbours could_improve uses, against the rule spelled out.
    def plain(hand, card, contract, rules) -> bool:
        if card.is_joker or len(hand) < contract.min_cards(rules):
            return True
        reach = rules.min_run_size - 1
        positions = {int(card.rank)} | ({1} if card.rank == Rank.ACE else set())
        for other in hand:
            if other.is_joker or other.rank == card.rank:
                return True
            if other.suit == card.suit:
                near = {int(other.rank)} | ({1} if other.rank == Rank.ACE else set())
                if any(abs(a - b) <= reach for a in positions for b in near):
                    return True
        return False

    rng = random.Random(3)
    shoe = Shoe(2, 4)
    for preset in ("standard", "wikipedia"):  # runs of 4 and of 3
        rules = RuleSet.preset(preset)
        for _ in range(3000):
            cards = shoe.shuffled(rng)
            size = rng.randint(0, 14)
            contract = rng.choice(rules.contracts)
            hand, card = cards[:size], cards[size]
            assert could_improve(hand, card, contract, rules) == plain(hand, card, contract, rules)


def test_play_game_equals_applying_one_action_at_a_time():
    # play_game hands the bot's view to apply; a loop of apply() builds its own.
    game = Game("standard", 4, seed=12)
    final = play_game(game.new_state(), [GreedyBot(seed=s) for s in range(4)])
    state = game.new_state()
    bots = [GreedyBot(seed=s) for s in range(4)]
    while state.to_act is not None:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert state.history == final.history
    assert state.log == final.log
    assert state.scores == final.scores


def test_views_and_events_are_whole_dataclasses():
    # view() and the event log fill the fields directly: every field, nothing else.
    state = play_game(Game("pagat", 3, seed=2).new_state(), [GreedyBot(seed=s) for s in range(3)])
    view = state.view(0)
    names = [f.name for f in dataclasses.fields(PlayerView)]
    assert list(vars(view)) == names
    assert PlayerView(**vars(view)) == view
    event_names = [f.name for f in dataclasses.fields(Event)]
    for event in state.log:
        assert set(vars(event)) == set(event_names)
        assert Event(**vars(event)) == event
