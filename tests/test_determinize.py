"""Determinization (rummykit.agents.determinize) against brute force and over many random states.

The oracle: a one-deck, jokerless shoe (copies of a card would make a code name one of
several physical cards), a seeded deal scripted in full, a few seeded random actions.
Then a handful of the deal's cards are permuted over the places they were dealt to; a
permuted deal is *consistent* when the same actions replay legally and give the seat
the same view after every one of them. The places those cards reach in the consistent
deals are exactly the assignments the model of :func:`hidden_cards` allows, each reached
by as many deals (so the exact conditional distribution is uniform over them), and the
sampler's distribution of one hidden card matches it within sampling error, while a
sampler biased by a few per cent fails the same test.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest

from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.agents.determinize import HiddenCards, determinize, hidden_cards
from rummykit.engine.game import Game, GameState
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from tests.support.sampling import ONE_DECK, fits_exact

# --------------------------------------------------------------------------------------
# The oracle


def _deal(rules: RuleSet, players: int, seed: int) -> dict:
    """A whole deal scripted from ``seed``: hands, up-card, stock (top first)."""
    game = Game(rules, players=players, seed=0)
    cards = list(game.shoe.cards)
    random.Random(seed).shuffle(cards)
    size = rules.deal_sizes[0]
    hands = [cards[seat * size : (seat + 1) * size] for seat in range(players)]
    rest = cards[players * size :]
    return {"hands": hands, "upcard": rest[0], "stock": rest[1:]}


def _start(rules: RuleSet, players: int, deal: dict) -> GameState:
    game = Game(rules, players=players, seed=1)
    return game.new_state(
        dealer=players - 1, hands=deal["hands"], upcard=deal["upcard"], stock=deal["stock"]
    )


def _slots(deal: dict) -> list[tuple]:
    """Every place of the deal, in a fixed order, with the card dealt there."""
    places = [
        (("hand", s, i), c) for s, hand in enumerate(deal["hands"]) for i, c in enumerate(hand)
    ]
    places.append((("up",), deal["upcard"]))
    places += [(("stock", j), c) for j, c in enumerate(deal["stock"])]
    return places


def _with(deal: dict, moved: dict) -> dict:
    """``deal`` with the cards at some places replaced (place -> card)."""
    hands = [list(hand) for hand in deal["hands"]]
    upcard, stock = deal["upcard"], list(deal["stock"])
    for place, card in moved.items():
        if place[0] == "hand":
            hands[place[1]][place[2]] = card
        elif place[0] == "up":
            upcard = card
        else:
            stock[place[1]] = card
    return {"hands": hands, "upcard": upcard, "stock": stock}


def _replay(rules, players, deal, actions, seat, views) -> GameState | None:
    """The state after ``actions`` from ``deal`` if the seat sees ``views`` all the way."""
    state = _start(rules, players, deal)
    if state.view(seat) != views[0]:
        return None
    for action, view in zip(actions, views[1:], strict=True):
        try:
            state.apply(action)
        except IllegalActionError:
            return None
        if state.view(seat) != view:
            return None
    return state


def _where(state: GameState, cards) -> tuple:
    """Where each of ``cards`` is: ("hand", seat), ("stock", index), ("pile",), ("table",)."""
    out = []
    for card in cards:
        if card in state.stock:
            out.append(("stock", state.stock.index(card)))
        elif card in state.discards:
            out.append(("pile",))
        elif any(card in hand for hand in state.hands):
            out.append(("hand", next(s for s, h in enumerate(state.hands) if card in h)))
        else:
            out.append(("table",))
    return tuple(out)


def _scenario(players: int, seed: int, steps: int, seat: int):
    """A seeded short game, its actions, the seat's views and the truth."""
    deal = _deal(ONE_DECK, players, seed)
    state = _start(ONE_DECK, players, deal)
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    actions, views = [], [state.view(seat)]
    for _ in range(steps):
        actor = state.to_act
        action = bots[actor].choose(state.view(actor))
        state.apply(action)
        actions.append(action)
        views.append(state.view(seat))
    return deal, actions, views, state


def _chosen(state: GameState, hidden: HiddenCards, rng: random.Random, count: int):
    """A few hidden cards (some in the stock, some in hands) and two seen ones: a card
    another seat discarded and one another seat took from the pile (known in its hand)."""
    in_stock = [c for c in hidden.pool if c in state.stock]
    in_hands = [c for c in hidden.pool if c not in state.stock]
    rng.shuffle(in_stock)
    rng.shuffle(in_hands)
    cards = in_stock[:2] + in_hands[: count - 2]
    discarded = [m.card for m in state.pile_moves if m.kind == "discard" and m.seat != hidden.seat]
    known = [c for seat_known in hidden.known for c in seat_known]
    return cards, discarded[:1] + known[:1]


def _model_placements(sub: HiddenCards, stock_indices: list[int], cards) -> set[tuple]:
    """Every placement of ``cards`` that the sub-problem ``sub`` allows (by enumeration)."""
    targets = [("hand", seat) for seat, n in enumerate(sub.slots) for _ in range(n)]
    targets += [("stock", index) for index in stock_indices]
    allowed = set()
    for order in itertools.permutations(cards):
        place = dict(zip(order, targets, strict=True))
        stock = [card for card in order if place[card][0] == "stock"]
        if all(card in sub.stock_pool for card in stock):
            allowed.add(tuple(place[card] for card in cards))
    return allowed


def exact_case(players: int, seed: int, steps: int, seat: int, count: int = 5):
    """The oracle's consistent placements (with their deal counts) and the model's."""
    deal, actions, views, truth = _scenario(players, seed, steps, seat)
    hidden = hidden_cards(views[-1])
    rng = random.Random(seed)
    cards, revealed = _chosen(truth, hidden, rng, count)
    moving = cards + revealed
    places = [place for place, card in _slots(deal) if card in moving]
    dealt = {card: place for place, card in _slots(deal) if card in moving}
    counts: Counter = Counter()
    for order in itertools.permutations(moving):
        moved = dict(zip(places, order, strict=True))
        state = _replay(ONE_DECK, players, _with(deal, moved), actions, seat, views)
        if state is not None:
            counts[_where(state, moving)] += 1
    assert counts[_where(truth, moving)] >= 1  # the true deal is consistent
    sub = hidden.restrict(truth.hands, truth.stock, cards)
    stock_indices = sorted(truth.stock.index(card) for card in cards if card in truth.stock)
    # The seen cards stay where the view shows them (or, known, where the view infers).
    seen = _where(truth, revealed)
    model = {placement + seen for placement in _model_placements(sub, stock_indices, cards)}
    return counts, model, sub, stock_indices, cards, dealt


CASES = [(2, 1, 14, 0), (2, 2, 20, 1), (3, 3, 18, 0), (3, 4, 24, 2), (4, 5, 16, 1)]


@pytest.mark.parametrize(("players", "seed", "steps", "seat"), CASES)
def test_consistent_deals_are_the_model_and_uniform(players, seed, steps, seat):
    counts, model, *_ = exact_case(players, seed, steps, seat)
    assert set(counts) == model
    # Uniform: each placement is reached by as many consistent deals.
    assert len(set(counts.values())) == 1, counts


def _location(placement):
    return placement[0] if placement[0][0] == "hand" else ("stock",)


@pytest.mark.parametrize(("players", "seed", "steps", "seat"), CASES[1:4])
def test_sampler_matches_the_exact_distribution_and_a_biased_one_fails(players, seed, steps, seat):
    counts, _, sub, stock_indices, cards, _ = exact_case(players, seed, steps, seat)
    total = sum(counts.values())
    card = cards[0]
    exact: Counter = Counter()
    for placement, n in counts.items():
        exact[_location((placement[0],))] += n / total
    # A hand seat and the stock at least: the test has something to tell apart.
    assert len(exact) >= 2

    def where(hands, stock):
        if card in stock:
            return ("stock",)
        return ("hand", next(s for s, h in enumerate(hands) if card in h))

    def fair(rng):
        return where(*sub.sample(rng))

    def biased(rng):  # redraws 10% of the samples that put the card in the stock
        hands, stock = sub.sample(rng)
        if card in stock and rng.random() < 0.1:
            hands, stock = sub.sample(rng)
        return where(hands, stock)

    assert fits_exact(fair, exact, 20_000, random.Random(seed))
    assert not fits_exact(biased, exact, 20_000, random.Random(seed))


def test_whole_sampler_marginals_match_the_model():
    """determinize's own sample (not a sub-problem): a hidden card's seat or the stock,
    against the model's closed form (stock: stock size over the stock pool; then hand
    slots in proportion)."""
    _, _, views, truth = _scenario(3, 8, 22, 0)
    view = views[-1]
    hidden = hidden_cards(view)
    card = next(c for c in hidden.pool if c in hidden.stock_pool)
    p_stock = hidden.stock_size / len(hidden.stock_pool)
    slots = sum(hidden.slots)
    exact = {("stock",): p_stock}
    for seat, n in enumerate(hidden.slots):
        if n:
            exact[("hand", seat)] = (1 - p_stock) * n / slots

    def sampler(rng):
        state = determinize(view, rng, hidden=hidden)
        if card in state.stock:
            return ("stock",)
        return ("hand", next(s for s, h in enumerate(state.hands) if card in h))

    assert fits_exact(sampler, exact, 4_000, random.Random(3))


# --------------------------------------------------------------------------------------
# Invariants over many random states


def _states(rng: random.Random):
    """(preset, players, state, seat) at random points of random and greedy games."""
    for preset in RuleSet.presets():
        rules = RuleSet.preset(preset)
        for players in [*range(rules.min_players, rules.max_players + 1)] * 2:
            game = Game(rules, players=players, seed=rng.getrandbits(32), max_reshuffles=3)
            state = game.new_state(round=rng.randint(1, rules.rounds))
            greedy = rng.random() < 0.5
            bots = [
                GreedyBot(seed=s) if greedy and s % 2 else RandomBot(seed=rng.getrandbits(32))
                for s in range(players)
            ]
            stops = sorted(rng.sample(range(1, 400), 3))
            done = 0
            for stop in stops:
                while done < stop and not state.is_over and len(state.round_scores) == 0:
                    actor = state.to_act
                    state.apply(bots[actor].choose(state.view(actor)))
                    done += 1
                if state.is_over or state.round_scores:
                    break
                yield preset, players, state, rng.randrange(players)
                yield preset, players, state, state.to_act


def test_samples_are_legal_states_that_keep_what_the_seat_sees():
    rng = random.Random(2026)
    reshuffled = checked = 0
    for preset, players, state, seat in _states(rng):
        view = state.view(seat)
        hidden = hidden_cards(view)
        # The truth is in the model's support: known cards where they are, the stock
        # drawn from the stock pool, every hidden card in the pool.
        for other in range(players):
            assert set(hidden.known[other]) <= set(state.hands[other]), (preset, players)
        unknown = [
            [c for c in hand if c not in hidden.known[s]] if s != seat else []
            for s, hand in enumerate(state.hands)
        ]
        assert hidden.allows(unknown, state.stock), (preset, players)
        sample = determinize(view, rng.getrandbits(32), hidden=hidden)
        sample.check_invariants()
        assert sample.view(seat) == view
        assert [len(h) for h in sample.hands] == list(view.hand_sizes)
        assert sorted(sample.hands[seat]) == sorted(view.hand)
        for other in range(players):
            assert set(hidden.known[other]) <= set(sample.hands[other])
        shoe = Counter(c.index for c in state.game.shoe.cards)
        placed = Counter(c.index for h in sample.hands for c in h)
        placed.update(c.index for c in sample.stock + sample.discards)
        placed.update(c.index for m in sample.melds for c in m.cards)
        assert placed == shoe
        reshuffled += state.reshuffles > 0
        checked += 1
    assert checked > 200 and reshuffled > 0, (checked, reshuffled)


def test_samples_play_on_to_the_end_of_the_round():
    rng = random.Random(7)
    for preset, players, state, seat in itertools.islice(_states(rng), 0, None, 6):
        sample = determinize(state.view(seat), rng.getrandbits(32), max_reshuffles=2)
        bots = [GreedyBot() for _ in range(players)]
        for _ in range(5_000):
            if sample.round_scores:
                break
            actor = sample.to_act
            sample.apply(bots[actor].choose(sample.view(actor)))
        assert sample.round_scores, (preset, players)


def test_same_seed_same_sample():
    _, _, views, _ = _scenario(3, 5, 20, 1)
    first = determinize(views[-1], 42).snapshot()
    assert determinize(views[-1], 42).snapshot() == first
    assert determinize(views[-1], random.Random(42)).snapshot() == first
    assert determinize(views[-1], 43).snapshot() != first


def test_bad_input_is_refused_by_field():
    state = Game("standard", players=3, seed=4).new_state()
    view = state.view(0)
    with pytest.raises(ArgumentTypeError, match="view must be a PlayerView"):
        determinize(state)
    with pytest.raises(ArgumentError, match=r"view\.seat"):
        determinize(dataclasses.replace(view, seat=3))
    other = Game("standard", players=3, seed=5).new_state().view(0)
    with pytest.raises(ArgumentError, match="hidden"):
        determinize(view, 1, hidden=hidden_cards(other))
    with pytest.raises(ArgumentTypeError, match="hidden"):
        determinize(view, 1, hidden="nothing")
    # A view that mixes two games: another game's table with this hand.
    played = Game("standard", players=3, seed=5).new_state()
    bots = [GreedyBot() for _ in range(3)]
    while not any(played.laid_down):
        played.apply(bots[played.to_act].choose(played.view(played.to_act)))
    mixed = dataclasses.replace(view, melds=played.view(0).melds)
    with pytest.raises(ArgumentError, match="view"):
        determinize(mixed)
    with pytest.raises(ArgumentError, match="view.hand_sizes"):
        determinize(dataclasses.replace(view, hand_sizes=(10, 10)))
    with pytest.raises(ArgumentTypeError, match="seed"):
        determinize(view, "seed")
