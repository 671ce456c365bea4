"""Bots: policies from a :class:`~rummykit.game.PlayerView` to an action.

Every bot has ``choose(view) -> Action`` and sees only its own view (its hand and what
is public). Every bot takes a ``seed`` (an int, a ``random.Random`` or None) and uses no
global random state.

* :class:`RandomBot` picks uniformly among the legal actions.
* :class:`GreedyBot` lays down as soon as it can, lays off whenever it can, takes the
  discard (or buys it) when that brings it closer to its contract, and discards the card
  whose loss keeps it closest to its contract, breaking ties by discarding the most
  points.
* :class:`BuyerBot` is a GreedyBot whose buying policy is a parameter: ``"never"``,
  ``"improves"`` (when the card reduces its contract distance, GreedyBot's policy) or
  ``"always"``, so a simulation can measure what buying is worth.

>>> from rummykit.game import Game, play_game
>>> game = Game("standard", players=4, seed=3)
>>> bots = [GreedyBot(seed=1), BuyerBot("never"), BuyerBot("always"), RandomBot(seed=2)]
>>> play_game(game.new_state(), bots).is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.actions import (
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
from rummykit.cards import Card, Rank, as_rng
from rummykit.game import PlayerView
from rummykit.melds import contract_distance, lay_off_options
from rummykit.rules import Contract, RuleSet

__all__ = ["BUY_POLICIES", "Bot", "BuyerBot", "GreedyBot", "RandomBot", "could_improve"]

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

    >>> from rummykit.game import Game
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
        self._rules: RuleSet | None = None
        if buy not in BUY_POLICIES:
            raise ValueError(f"buy must be one of {', '.join(BUY_POLICIES)}, got {buy!r}")
        self.buy = buy

    def __repr__(self) -> str:
        return f"{type(self).__name__}(buy={self.buy!r})"

    # -- helpers
    def _distance(self, view: PlayerView, hand: Sequence[Card]) -> int:
        # Copies of a card are interchangeable, so the distance depends only on the
        # multiset of card faces: cache it (buy windows ask about the same hand often).
        if view.rules is not self._rules:  # (hashing a RuleSet is slow: compare once)
            self._rules = view.rules
            self._cache.clear()
        key = (view.contract, tuple(sorted(card.index for card in hand)))
        distance = self._cache.get(key)
        if distance is None:
            if len(self._cache) > 50_000:
                self._cache.clear()
            distance = self._cache[key] = contract_distance(hand, view.contract, view.rules)
        return distance

    def _improves(self, view: PlayerView, card: Card | None) -> bool:
        """Would ``card`` bring this seat closer to its contract?"""
        if card is None or view.laid_down[view.seat]:
            return False
        hand = list(view.hand)
        if not could_improve(hand, card, view.contract, view.rules):
            return False
        return self._distance(view, [*hand, card]) < self._distance(view, hand)

    def _fits(self, view: PlayerView, card: Card) -> bool:
        return any(lay_off_options(meld, card, view.rules) for meld in view.melds)

    # -- the policy
    def choose(self, view: PlayerView) -> Action:
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
        discards.sort(key=lambda a: self._discard_key(view, a.card))
        if view.laid_down[view.seat]:
            return discards[0]
        # ... but first keep the contract as close as it is: removing a card never
        # brings the contract closer, so the first discard that keeps the distance wins.
        hand = list(view.hand)
        now = None
        for action in discards:
            rest = list(hand)
            card = next(c for c in rest if c.index == action.card.index)
            rest.remove(card)
            if not could_improve(rest, card, view.contract, view.rules):
                return action  # a card that helps nothing: the distance stays
            if now is None:
                now = self._distance(view, hand)
            if self._distance(view, rest) == now:
                return action
        return discards[0]

    def _discard_key(self, view: PlayerView, card: Card) -> tuple:
        fits = view.rules.discard_call != "none" and self._fits(view, card)
        return (card.is_joker, -view.rules.point_value(card), fits, card.sort_key())


class BuyerBot(GreedyBot):
    """A :class:`GreedyBot` with the buying policy ``buy`` (one of :data:`BUY_POLICIES`).

    >>> BuyerBot("always")
    BuyerBot(buy='always')
    """

    def __init__(self, buy: str = "improves", seed: int | random.Random | None = None) -> None:
        super().__init__(seed, buy=buy)
