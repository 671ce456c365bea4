"""Bots: policies from a :class:`~rummykit.engine.game.PlayerView` to an action.

Every bot has ``choose(view) -> Action`` and sees only its own view (its hand and what
is public). Every bot takes a ``seed`` (an int, a ``random.Random`` or None) and uses no
global random state.

* :class:`RandomBot` picks uniformly among the legal actions.
* :class:`GreedyBot` lays down as soon as it can, lays off whenever it can, takes the
  discard (or buys it) when that brings it closer to its contract, and discards the card
  whose loss keeps it closest to its contract, breaking ties by discarding the most
  points.
* :class:`OutsBot` is a GreedyBot that discards by outs (:mod:`rummykit.agents.hints`): the
  discard leaving the most unseen cards that bring it one card closer.
* :class:`BuyerBot` is a GreedyBot whose buying policy is a parameter: ``"never"``,
  ``"improves"`` (when the card reduces its contract distance, GreedyBot's policy) or
  ``"always"``, so a simulation can measure what buying is worth.

>>> from rummykit.engine.game import Game, play_game
>>> game = Game("standard", players=4, seed=3)
>>> bots = [GreedyBot(seed=1), BuyerBot("never"), BuyerBot("always"), RandomBot(seed=2)]
>>> play_game(game.new_state(), bots).is_over
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from rummykit.agents.hints import discard_outs, two_draw_chances
from rummykit.engine.actions import (
    Action,
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
from rummykit.engine.cards import JOKER_INDEX, Card, Rank, as_rng
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import contract_rules, instance
from rummykit.engine.legal import PlayerView
from rummykit.engine.melds import lay_off_options
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import contract_distance, contract_within
from rummykit.errors import ArgumentError

__all__ = [
    "BUY_POLICIES",
    "Bot",
    "BuyerBot",
    "GreedyBot",
    "OutsBot",
    "RandomBot",
    "could_improve",
]

#: The buying policies of :class:`BuyerBot`.
BUY_POLICIES = ("never", "improves", "always")


def could_improve(hand: Sequence[Card], card: Card, contract: Contract, rules: RuleSet) -> bool:
    """False only when adding ``card`` surely leaves the contract distance of ``hand`` as is.

    A shortcut that saves GreedyBot most of its ``contract_distance`` calls: in a hand
    without jokers that holds at least the contract's fewest cards, a natural card
    sharing no rank with the hand and no suit within a run's reach (``min_run_size - 1``
    ranks) cannot shorten the distance. Any meld it would join could instead be built
    round an unused card of the hand, and a run could drop it at no cost. The tests
    check it against ``contract_distance`` on random hands.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H 9S 9H 5C 5D KS 2C 3D 7H")
    >>> could_improve(hand, Card.parse("8D"), rules.contracts[0], rules)
    True
    >>> could_improve(hand, Card.parse("QC"), rules.contracts[0], rules)
    False
    """
    hand = check_cards("hand", hand)
    instance("card", card, Card, "a Card")
    contract_rules(contract, rules)
    if card.is_joker or len(hand) < contract.min_cards(rules):
        return True
    near = _neighbours(card.index, rules.min_run_size - 1)
    return not near.isdisjoint([other.index for other in hand])


def _positions(index: int) -> tuple[int, ...]:
    """A natural card's run positions, by card index (the ace is 14 and 1)."""
    value = index % 13 + 2
    return (value, 1) if value == Rank.ACE else (value,)


@functools.cache
def _neighbours(index: int, reach: int) -> frozenset[int]:
    """The card indices that make a natural card useful (see :func:`could_improve`): a
    joker, a card of its rank, a card of its suit within ``reach`` positions."""
    return frozenset(
        other
        for other in range(JOKER_INDEX + 1)
        if other == JOKER_INDEX
        or other % 13 == index % 13
        or (
            other // 13 == index // 13
            and any(abs(a - b) <= reach for a in _positions(index) for b in _positions(other))
        )
    )


class Bot:
    """Base class: a policy that chooses an action from a :class:`PlayerView`."""

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = as_rng(seed)

    def choose(self, view: PlayerView) -> Action:
        """The action to play for the seat of ``view`` (which must be the seat to act)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Uniform over the legal actions.

    >>> from rummykit.engine.game import Game
    >>> state = Game(players=3, seed=2).new_state()
    >>> RandomBot(seed=1).choose(state.view(state.to_act)) in state.legal_actions()
    True
    """

    def choose(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal_actions())


class GreedyBot(Bot):
    """Lay down at once, lay off whenever possible, draw, buy and discard to get closer
    to the contract, then to hold fewer points (see the module docstring).

    ``buy`` is the buying policy, one of :data:`BUY_POLICIES` (default ``"improves"``).
    """

    def __init__(self, seed: int | random.Random | None = None, *, buy: str = "improves") -> None:
        super().__init__(seed)
        self._cache: dict[tuple, int] = {}
        self._faces: dict[int, tuple] = {}
        self._rules: RuleSet | None = None
        if buy not in BUY_POLICIES:
            raise ArgumentError(f"buy must be one of {', '.join(BUY_POLICIES)}, got {buy!r}")
        self.buy = buy

    def __repr__(self) -> str:
        return f"{type(self).__name__}(buy={self.buy!r})"

    # -- helpers
    def _distance(self, view: PlayerView, hand: Sequence[Card], *, low: int | None = None) -> int:
        """``contract_distance`` of ``hand``; ``low``: it is known to be ``low`` or ``low + 1``."""
        # Copies of a card are interchangeable, so the distance depends only on the
        # multiset of card faces: cache it (buy windows ask about the same hand often).
        key = (view.contract, tuple(sorted([card.index for card in hand])))
        distance = self._cache.get(key)
        if distance is None:
            if len(self._cache) > 50_000:
                self._cache.clear()
            if low is None:
                distance = contract_distance(hand, view.contract, view.rules)
            else:
                # Deciding between two neighbours is quicker than finding the distance.
                within = contract_within(hand, view.contract, view.rules, low)
                distance = low if within else low + 1
            self._cache[key] = distance
        return distance

    def _distance_after_draw(self, view: PlayerView, hand: list[Card]) -> int:
        """``_distance`` of ``hand``, helped by a known distance of the hand less one card
        (usually the hand before the draw): with the card it is that or one less."""
        indices = sorted([card.index for card in hand])
        for number in range(len(indices)):
            before = self._cache.get((view.contract, (*indices[:number], *indices[number + 1 :])))
            if before is not None:
                return 0 if before == 0 else self._distance(view, hand, low=before - 1)
        return self._distance(view, hand)

    def _improves(self, view: PlayerView, card: Card | None) -> bool:
        """Would ``card`` bring this seat closer to its contract?"""
        if card is None or view.laid_down[view.seat]:
            return False
        hand = list(view.hand)
        if not could_improve(hand, card, view.contract, view.rules):
            return False
        now = self._distance(view, hand)
        # One card brings a hand at most one card closer: with it, now - 1 or now.
        return now > 0 and self._distance(view, [*hand, card], low=now - 1) < now

    def _fits(self, view: PlayerView, card: Card) -> bool:
        return any(lay_off_options(meld, card, view.rules) for meld in view.melds)

    # -- the policy
    def choose(self, view: PlayerView) -> Action:
        if view.rules is not self._rules:  # (hashing a RuleSet is slow: compare once)
            self._rules = view.rules
            self._cache.clear()
            self._faces.clear()
        phase = view.phase
        if phase == "draw":
            return self._draw(view)
        if phase == "buy":
            return self._buy(view)
        if phase == "call":
            # A Liverpool claim swaps a bad card for one that will lay off; a rummy call
            # penalises an opponent. Both are worth making.
            return Call()
        return self._play(view)

    def _draw(self, view: PlayerView) -> Action:
        top = view.discard_top
        if top is not None:
            if view.laid_down[view.seat]:
                wanted = self._fits(view, top)
            else:
                wanted = self._improves(view, top)
            if wanted and TakeDiscard() in view.legal_actions():
                return TakeDiscard()
        return DrawStock()

    def _buy(self, view: PlayerView) -> Action:
        if self.buy == "always":
            return Buy()
        if self.buy == "improves" and self._improves(view, view.offer):
            return Buy()
        return Pass()

    def _play(self, view: PlayerView) -> Action:
        actions = view.legal_actions()
        for kind in (LayDown, LayOff, Swap):
            chosen = [a for a in actions if isinstance(a, kind)]
            if chosen:
                if kind is LayOff:
                    # Shed the most points first.
                    return max(chosen, key=lambda a: (view.rules.point_value(a.card), -a.meld))
                return chosen[0]
        discards = [a for a in actions if isinstance(a, Discard)]
        if not discards:
            return next(a for a in actions if isinstance(a, EndTurn))
        # Keep jokers (wild), shed points, avoid a card someone could lay off (a
        # Liverpool or rummy call), then a fixed order ...
        if view.laid_down[view.seat]:
            return min(discards, key=lambda a: self._discard_key(view, a.card))
        return self._contract_discard(view, discards)

    def _contract_discard(self, view: PlayerView, discards: list[Discard]) -> Discard:
        """The discard of a seat that has not laid down: among those that keep the
        distance, the first by :meth:`_discard_key`."""
        discards.sort(key=lambda a: self._discard_key(view, a.card))
        # ... but first keep the contract as close as it is: removing a card never
        # brings the contract closer, so the first discard that keeps the distance wins.
        hand = list(view.hand)
        now = None
        for action in discards:
            index = action.card.index
            number = next(n for n, c in enumerate(hand) if c.index == index)
            card, rest = hand[number], hand[:number] + hand[number + 1 :]
            if not could_improve(rest, card, view.contract, view.rules):
                return action  # a card that helps nothing: the distance stays
            if now is None:
                now = self._distance_after_draw(view, hand)
            # Removing a card leaves the distance as it is or one more.
            if self._distance(view, rest, low=now) == now:
                return action
        return discards[0]

    def _discard_key(self, view: PlayerView, card: Card) -> tuple:
        # The card of a Discard is a face (deck 0): its index says it all.
        face = self._faces.get(card.index)
        if face is None:
            face = (card.is_joker, -view.rules.point_value(card), card.sort_key())
            self._faces[card.index] = face
        fits = view.rules.discard_call != "none" and self._fits(view, card)
        return (face[0], face[1], fits, face[2])


class OutsBot(GreedyBot):
    """A :class:`GreedyBot` that, before laying down, discards by outs: the discard that
    leaves the lowest distance (copies limited by the shoe), then the most outs, then the
    best chance of the contract within two stock draws, then GreedyBot's order (jokers
    kept, most points shed, no card an opponent could lay off).

    The outs count what its :class:`~rummykit.engine.legal.PlayerView` shows, as
    :func:`~rummykit.agents.hints.discard_advice` on a view does: unseen are the cards not in
    its hand, not in a meld on the table, not in the discard pile (buried cards too) and
    not taken from the pile by another seat that still holds it. The
    two-draw chance, the costly part, is computed only for discards tied on outs.
    Drawing, buying, laying down and off, and discarding once laid down are GreedyBot's.

    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=3, seed=5).new_state()
    >>> bots = [OutsBot(seed=1), GreedyBot(seed=2), GreedyBot(seed=3)]
    >>> while not state.round_scores:  # the first round
    ...     state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    >>> len(state.round_scores)
    1
    >>> OutsBot(buy="never")
    OutsBot(buy='never')
    """

    def _contract_discard(self, view: PlayerView, discards: list[Discard]) -> Discard:
        found = discard_outs(view)
        best = min((found[a.card.code].distance, -found[a.card.code].total) for a in discards)
        tied = [
            a for a in discards if (found[a.card.code].distance, -found[a.card.code].total) == best
        ]
        if len(tied) > 1:
            chance = two_draw_chances(view, [a.card for a in tied])
            top = max(chance.values())
            tied = [a for a in tied if chance[a.card.code] == top]
        return min(tied, key=lambda a: self._discard_key(view, a.card))


class BuyerBot(GreedyBot):
    """A :class:`GreedyBot` with the buying policy ``buy`` (one of :data:`BUY_POLICIES`).

    >>> BuyerBot("always")
    BuyerBot(buy='always')
    """

    def __init__(self, buy: str = "improves", seed: int | random.Random | None = None) -> None:
        super().__init__(seed, buy=buy)
