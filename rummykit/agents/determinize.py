"""Determinization: the hidden cards of one seat's :class:`~rummykit.engine.legal.PlayerView`,
sampled into a whole :class:`~rummykit.engine.game.GameState` the engine can play on.

A seat sees its own hand, the table, every move of the discard pile (what went on it,
who took what back out, the reshuffles) and every hand's size. :func:`hidden_cards`
turns that into the constraints on the cards it cannot see (:class:`HiddenCards`), and
:func:`determinize` samples a deal uniformly among those that meet them.

>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=3, seed=7).new_state()
>>> view = state.view(0)
>>> sample = determinize(view, random.Random(1))
>>> sample.view(0).to_dict() == view.to_dict()
True
>>> [len(hand) for hand in sample.hands] == list(view.hand_sizes)
True

The model, for the next maintainer:

* **Known cards.** Every card that went onto the pile is tracked through
  :attr:`~rummykit.engine.legal.PlayerView.pile_moves`: a card whose last move took it out of
  the pile (a take, a buy, a call) into another seat's hand, and that is not on the
  table now, is still in that hand (natural cards never leave a meld). Such cards are
  fixed in the sample.
* **Traded jokers** (taken off the table by a swap) not on the table, not in the pile
  and not in this hand are in *some* other hand: the view does not say whose, so they go
  to a uniform hand slot, never to the stock. (A joker taken from the pile, melded, then
  swapped out is one of these too; the view cannot tell it from one still held.)
* **Reshuffles.** When the pile was turned into the stock, the stock had run out, so
  the stock now holds only cards of the last reshuffle that were not seen since; every
  other hidden card is in a hand.
* Everything else hidden is exchangeable: the sample is uniform over the assignments of
  the hidden cards to the other hands' unknown slots and the stock's positions that meet
  the three rules above.

Where the sample is uniform over a wider set than the exact one (documented, not hidden):

* After a reshuffle, each seat holds exactly as many reshuffled cards as it drew from the
  new stock; the view does not count stock draws, so the sample does not constrain a
  hand's mix of reshuffled and older cards (the stock is still only reshuffled cards).
* With several decks, a discard by code plays the lowest-deck copy of the hand (see
  :mod:`rummykit.engine.game`), so the copy discarded says a little about the copies kept; the
  sample treats copies as exchangeable (a game's outcome depends on faces only).
* A traded joker last taken from the pile by a seat is in that seat's hand when
  ``joker_trade_once`` forbids a second trade; otherwise it may have been melded and
  swapped out again, and it goes to a uniform hand slot like the other traded jokers.

``tests/test_determinize.py`` checks the model against brute force on one-deck shoes:
it permutes a few cards of a real deal, replays the round's actions and keeps the deals
that give this seat the same view after every action; the placements kept are exactly
those the model allows, each reached by as many deals, and the sampler's distribution
of a hidden card matches the exact one.

Facts the view does not hold are filled in plainly (the rollouts of
:mod:`rummykit.agents.searchbot` only need the round to be playable): no penalties this round
(they add the same points whatever is played), turn counts rebuilt from the pile's
discards, an empty "first call" request list, no history or log before the sample.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rummykit.engine.cards import Card, as_rng
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.game import Game, GameState
from rummykit.engine.legal import PlayerView
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = ["HiddenCards", "determinize", "hidden_cards", "view_key"]


@dataclass(frozen=True)
class HiddenCards:
    """What one seat knows of the cards it cannot see.

    >>> from rummykit.engine.game import Game
    >>> view = Game("standard", players=3, seed=7).new_state().view(0)
    >>> hidden = hidden_cards(view)
    >>> hidden.slots, hidden.stock_size, len(hidden.pool)
    ((0, 10, 10), 77, 97)
    """

    seat: int
    """Whose knowledge this is."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards known to be in that hand (empty for :attr:`seat` itself)."""
    slots: tuple[int, ...]
    """Per seat, how many of its cards are unknown (0 for :attr:`seat`)."""
    stock_size: int
    """Cards in the stock."""
    pool: tuple[Card, ...]
    """Every hidden card (sorted): they fill the slots and the stock."""
    stock_pool: frozenset[Card]
    """The hidden cards that may be in the stock (the others are in hands)."""
    key: tuple = ()
    """What ties these constraints to their view (see :func:`view_key`)."""

    @cached_property
    def _stock_order(self) -> list[Card]:
        # The cards that may be in the stock, sorted (as the pool is).
        return [card for card in self.pool if card in self.stock_pool]

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """One assignment, uniform among those allowed: each seat's unknown cards and
        the stock (top card last)."""
        stock = rng.sample(self._stock_order, self.stock_size)
        chosen = set(stock)
        rest = [card for card in self.pool if card not in chosen]
        rng.shuffle(rest)
        hands: list[list[Card]] = []
        for count in self.slots:
            hands.append(rest[len(rest) - count :] if count else [])
            del rest[len(rest) - count :]
        return hands, stock

    def allows(self, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> bool:
        """Whether an assignment (each seat's unknown cards, the stock) meets the model."""
        placed = [card for hand in hands for card in hand] + list(stock)
        return (
            [len(hand) for hand in hands] == list(self.slots)
            and len(stock) == self.stock_size
            and sorted(placed, key=Card.sort_key) == list(self.pool)
            and all(card in self.stock_pool for card in stock)
        )

    def restrict(
        self, hands: Sequence[Sequence[Card]], stock: Sequence[Card], cards: Sequence[Card]
    ) -> HiddenCards:
        """The sub-problem of ``cards`` when every other hidden card stays where the
        assignment (``hands``, ``stock``) puts it: the slots ``cards`` hold there (the
        stock's in stock order), for brute-force checks on a few cards."""
        wanted = set(cards)
        return HiddenCards(
            seat=self.seat,
            known=self.known,
            slots=tuple(sum(card in wanted for card in hand) for hand in hands),
            stock_size=sum(card in wanted for card in stock),
            pool=tuple(sorted(wanted, key=Card.sort_key)),
            stock_pool=self.stock_pool & wanted,
            key=self.key,
        )


def view_key(view: PlayerView) -> tuple:
    """The facts of ``view`` that :func:`hidden_cards` reads, as a hashable key: two views
    with the same key have the same hidden cards.

    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=3, seed=7).new_state()
    >>> view_key(state.view(0)) == view_key(state.view(0)), view_key(state.view(1)) == view_key(state.view(0))
    (True, False)
    """
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView, got {view!r}")
    return (
        view.seat,
        view.names,
        view.round,
        tuple(view.hand),
        view.hand_sizes,
        view.melds,
        view.stock_size,
        view.traded_jokers,
        view.pile_moves,
    )


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView, got {view!r}")
    players = len(view.names)
    if type(view.seat) is not int or not 0 <= view.seat < players:
        raise ArgumentError(f"view.seat must be a seat 0..{players - 1}, got {view.seat!r}")
    if len(view.hand_sizes) != players or view.hand_sizes[view.seat] != len(view.hand):
        raise ArgumentError(
            f"view.hand_sizes: {view.hand_sizes!r} does not give {players} seats with seat "
            f"{view.seat}'s {len(view.hand)} cards: a view built by hand"
        )
    return view


def _pile_places(view: PlayerView) -> tuple[dict[Card, int | None], set[Card]]:
    """Each card that moved through the pile and its last holder (None: still in the
    pile or reshuffled), and the cards of the last reshuffle."""
    holder: dict[Card, int | None] = {}
    pile: list[Card] = []
    reshuffled: set[Card] = set()
    for move in view.pile_moves:
        if move.kind in ("upcard", "discard"):
            pile.append(move.card)
            holder[move.card] = None
        elif move.kind == "reshuffle":
            reshuffled = set(pile[:-1])
            del pile[:-1]
        elif pile:
            pile.pop()
            holder[move.card] = move.seat
            reshuffled.discard(move.card)
    return holder, reshuffled


def hidden_cards(view: PlayerView, shoe: Sequence[Card] | None = None) -> HiddenCards:
    """The constraints on the cards ``view``'s seat cannot see (see the module notes).

    ``shoe`` defaults to the cards of the game's shoe. Raises
    :class:`~rummykit.errors.ArgumentError` when the view cannot come from a game (its
    hand sizes do not add up with what it shows).
    """
    view = _check_view(view)
    if shoe is None:
        players = len(view.names)
        shoe = Game(view.rules, players=players, seed=0, names=view.names).shoe.cards
    else:
        shoe = check_cards("shoe", shoe)
    return _hidden(view, shoe)


def _hidden(view: PlayerView, shoe: Sequence[Card]) -> HiddenCards:
    """:func:`hidden_cards` of a checked view and shoe (:func:`determinize` gives its
    game's own shoe, so a sample checks nothing twice)."""
    me = view.seat
    visible = [card for meld in view.melds for card in meld.cards]
    visible += [*view.discard_pile, *view.hand]
    seen = set(visible)
    if len(seen) != len(visible) or not seen <= set(shoe):
        raise ArgumentError(
            "view: a card shows twice (hand, table, discard pile) or is not in the shoe: "
            "a view of another game, or one built by hand"
        )
    holder, reshuffled = _pile_places(view)
    once = view.rules.joker_trade_once
    hands_only = {
        joker
        for joker in view.traded_jokers
        if joker not in seen | reshuffled and not (once and holder.get(joker) is not None)
    }
    known: list[list[Card]] = [[] for _ in view.names]
    for card, seat in holder.items():
        if seat is not None and seat != me and card not in seen and card not in hands_only:
            known[seat].append(card)
    fixed = seen | {card for cards in known for card in cards}
    pool = sorted((card for card in shoe if card not in fixed), key=Card.sort_key)
    slots = [
        0 if seat == me else size - len(known[seat]) for seat, size in enumerate(view.hand_sizes)
    ]
    if any(move.kind == "reshuffle" for move in view.pile_moves):
        stock_pool = frozenset(card for card in pool if card in reshuffled)
    else:
        stock_pool = frozenset(card for card in pool if card not in hands_only)
    if (
        min(slots) < 0
        or sum(slots) + view.stock_size != len(pool)
        or len(stock_pool) < view.stock_size
    ):
        raise ArgumentError(
            f"view: seat {me}'s view does not fit its shoe ({len(pool)} hidden cards for "
            f"{sum(slots)} unknown hand cards and a stock of {view.stock_size}): a view of "
            "another game, or one built by hand"
        )
    return HiddenCards(
        seat=me,
        known=tuple(tuple(sorted(cards, key=Card.sort_key)) for cards in known),
        slots=tuple(slots),
        stock_size=view.stock_size,
        pool=tuple(pool),
        stock_pool=stock_pool,
        key=view_key(view),
    )


def determinize(
    view: PlayerView,
    rng: int | random.Random | None = None,
    *,
    hidden: HiddenCards | None = None,
    turn_limit: int | None = None,
    max_reshuffles: int | None = None,
) -> GameState:
    """A whole :class:`~rummykit.engine.game.GameState` consistent with ``view``: the hidden
    cards sampled uniformly among the deals the view allows (see the module notes).

    ``rng`` seeds the sample and the new state's own chance (reshuffles, the buy
    lottery). ``hidden`` (from :func:`hidden_cards`) saves recomputing the constraints
    for many samples of one view; ``turn_limit`` and ``max_reshuffles`` are the new
    :class:`~rummykit.engine.game.Game`'s limits.
    """
    view = _check_view(view)
    rng = as_rng(rng)
    players = len(view.names)
    game = Game(
        view.rules,
        players=players,
        seed=rng.getrandbits(63),
        names=view.names,
        turn_limit=turn_limit,
        max_reshuffles=max_reshuffles,
    )
    if hidden is None:
        hidden = _hidden(view, game.shoe.cards)
    elif not isinstance(hidden, HiddenCards):
        raise ArgumentTypeError(f"hidden must be a HiddenCards, got {hidden!r}")
    elif hidden.key != view_key(view):
        raise ArgumentError(
            "hidden: these constraints were computed for another view (hidden_cards(view))"
        )
    return GameState.from_view(view, *dealt(view, hidden, rng), game)


def dealt(
    view: PlayerView, hidden: HiddenCards, rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand and the stock of one sample of ``hidden`` (``view``'s, unchecked):
    what :func:`determinize` deals, after it draws its game's seed from ``rng``."""
    unknown, stock = hidden.sample(rng)
    hands = [
        list(view.hand) if seat == view.seat else [*hidden.known[seat], *unknown[seat]]
        for seat in range(len(view.names))
    ]
    return hands, stock
