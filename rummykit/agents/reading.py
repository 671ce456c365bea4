"""Reading the opponents: which sampled deals agree with what the opponents chose to do.

A determinization (:func:`~rummykit.agents.determinize.determinize`) deals the hidden cards
uniformly among the deals a seat's view allows: it reads the cards the view shows, never
the choices the other seats made. Under a model of how they play, some of those deals are
impossible. :func:`reading` finds what a view tells under the model, :meth:`Reading.agrees`
tests a deal against it, and :class:`ReadingSampler` draws deals until one agrees (at most
``attempts``, then it falls back to a uniform deal): the deals it returns are uniform among
those that agree, which is the model's posterior when the deal was uniform to begin with.

The model is the bots' own: :class:`~rummykit.agents.bots.GreedyBot` (and every bot built on
it) lays its contract down in the first play phase in which the engine offers it. So an
opponent that has not laid down could not lay down at the start of its last play phase.
Its hand then is known from its hand now when its last turn is seen whole: under rules in
which a seat must lay down before it swaps a joker
(:attr:`~rummykit.engine.rules.RuleSet.joker_swap_needs_laid_down`), a seat that has not
laid down can only draw, then discard, in its turn, and it takes part in no call, so at
the start of its last play phase it held its hand now and the card it last discarded, as
long as it has taken or bought no card since and is not in the middle of a turn. The card
it took from the pile that turn, if it took one, is the one it could not discard
(:func:`~rummykit.engine.legal.lay_down_of` is the engine's own test).

The same turn's draw is read too: a GreedyBot not laid down takes the top discard
exactly when it brings its hand closer to its contract (:func:`brings_closer`). If it took
the card, its hand before held the rest; if it drew from the stock, it passed on the card
offered, and its hand before lacked the card it drew, which the view does not show: under
a uniform deal that card is equally likely any of its cards then that did not come from
the pile, so a deal's :meth:`Reading.likelihood` is the share of those cards with which
passing was the bot's choice. Rounds with a reshuffle are not read this way (a card drawn
since came from the reshuffled pile). Earlier turns are not read: what a seat drew from
the stock is not in the view, so its hand then is not known.

>>> import random
>>> from rummykit.agents.bots import GreedyBot
>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=4, seed=11).new_state()
>>> bots = [GreedyBot() for _ in range(4)]
>>> for _ in range(12):
...     state.apply(bots[state.to_act].choose(state.view(state.to_act)))
>>> view = state.view(state.to_act)
>>> read = reading(view)
>>> view.laid_down, [check.seat for check in read.checks]   # the seats it reads
((False, False, True, False), [0, 1])
>>> read.likelihood(state.hands) > 0                # the true deal is always possible
True
>>> sampler = ReadingSampler(view)
>>> sample = sampler(random.Random(5).getrandbits(63))
>>> read.likelihood(sample.hands) > 0, sample.view(view.seat) == view
(True, True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from rummykit.agents.determinize import HiddenCards, determinize, hidden_cards, view_key
from rummykit.engine.cards import Card
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import instance, whole
from rummykit.engine.game import Game, GameState
from rummykit.engine.legal import PlayerView, lay_down_of
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import contract_distance
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "ATTEMPTS",
    "LastTurn",
    "Reading",
    "ReadingSampler",
    "first_agreeing",
    "brings_closer",
    "reading",
]

#: Deals a :class:`ReadingSampler` draws, at most, before it falls back to a uniform deal.
ATTEMPTS = 32
#: The most attempts :func:`first_agreeing` and :class:`ReadingSampler` accept.
MOST_ATTEMPTS = 10_000

T = TypeVar("T")


def brings_closer(hand: Sequence[Card], card: Card, contract: Contract, rules: RuleSet) -> bool:
    """Whether ``card`` brings ``hand`` closer to ``contract``: GreedyBot's reason to take a
    discard (or buy one) before it has laid down.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H JS QD 2C 5H 7D 9C KS 3D")
    >>> brings_closer(hand, Card.parse("8D"), rules.contracts[0], rules)
    True
    >>> brings_closer(hand, Card.parse("4C"), rules.contracts[0], rules)
    False
    """
    hand = check_cards("hand", hand)
    instance("card", card, Card, "a Card")
    return _closer_by(lambda cards: contract_distance(cards, contract, rules), hand, card)


def _closer_by(distance: Callable[[list[Card]], int], hand: Sequence[Card], card: Card) -> bool:
    """:func:`brings_closer`, the contract distance given as ``distance``."""
    now = distance(list(hand))
    return now > 0 and distance([*hand, card]) < now


@dataclass(frozen=True)
class LastTurn:
    """One opponent's last turn, as the model reads it: at the start of that turn's play
    it held its cards now and :attr:`discard`, and could not lay down; it took
    :attr:`taken` because it improved its hand, or passed on :attr:`offered` because it
    did not."""

    seat: int
    discard: Card
    """The card it discarded at the end of that turn."""
    taken: Card | None
    """The card it took from the pile at the start of that turn (None: it drew)."""
    contract: Contract
    """Its contract this round."""
    offered: Card | None = None
    """The discard it passed on when it drew from the stock (None: it took, or the draw
    is not read)."""
    from_pile: frozenset[Card] = frozenset()
    """The cards it took from the pile this round: not the card it drew from the stock."""


@dataclass(frozen=True)
class Reading:
    """What a view tells of the hidden hands under the model (see the module notes)."""

    rules: RuleSet
    players: int
    """Seats at the table (a deal has a hand for each)."""
    last_round: bool
    """Whether this is the game's last round (a lay-down may then leave no discard)."""
    checks: tuple[LastTurn, ...]
    """The opponents whose last turn is read."""
    _distances: dict = field(default_factory=dict, compare=False, repr=False)

    def agrees(self, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether a deal (every seat's hand) may be the one played: its
        :meth:`likelihood` is not 0.

        >>> from rummykit.engine.game import Game
        >>> reading(Game("standard", players=3, seed=1).new_state().view(0)).agrees([[]])
        Traceback (most recent call last):
        ...
        rummykit.errors.ArgumentError: hands must be one hand per seat (3), got [[]]
        """
        return self.likelihood(hands) > 0

    def likelihood(self, hands: Sequence[Sequence[Card]]) -> Fraction:
        """The chance, under the model, that the opponents read would have played as they
        did had the deal been ``hands`` (every seat's hand): 0 if one of them could have
        laid down at the start of its last play, or would have taken the card it took (or
        passed on the card it passed on) otherwise; for a draw from the stock, the share
        of the cards it may have drawn with which passing was its choice."""
        self._check(hands)
        chance = Fraction(1)
        for check in self.checks:
            hand = hands[check.seat]
            if not self.could_not_lay_down(check, hand):
                return Fraction(0)
            chance *= self.drew_so(check, hand)
            if not chance:
                return chance
        return chance

    def drew_so(self, check: LastTurn, hand: Sequence[Card]) -> Fraction:
        """The chance that ``check.seat``, holding ``hand`` now, took or passed as it did
        at the start of its last turn (1 where the draw is not read)."""
        then = [*hand, check.discard]
        if check.taken is not None:
            return Fraction(int(self._closer(then, check.taken, check)))
        if check.offered is None:
            return Fraction(1)
        drawn = self._drawn(check, then)
        passed = sum(not self._closer(then, card, check, check.offered) for card in drawn)
        return Fraction(passed, len(drawn))

    def keeps(self, hands: Sequence[Sequence[Card]], rng: random.Random) -> bool:
        """Whether to keep a deal: True with the chance :meth:`likelihood` gives it, at
        less cost (for each draw from the stock read, one card the seat may have drawn,
        chosen by ``rng``, stands for them all: the chance that it passes is the share).
        :class:`ReadingSampler` keeps its deals so."""
        self._check(hands)
        for check in self.checks:
            hand = hands[check.seat]
            then = [*hand, check.discard]
            if check.taken is not None:
                if not self._closer(then, check.taken, check):
                    return False
            elif check.offered is not None:
                drawn = self._drawn(check, then)
                if self._closer(then, drawn[rng.randrange(len(drawn))], check, check.offered):
                    return False
            if not self.could_not_lay_down(check, hand):
                return False
        return True

    def _check(self, hands: object) -> None:
        if not isinstance(hands, Sequence) or len(hands) != self.players:
            raise ArgumentError(
                f"hands must be one hand per seat ({self.players}), got {hands!r:.80}"
            )

    @staticmethod
    def _drawn(check: LastTurn, then: list[Card]) -> list[Card]:
        """The cards of ``then`` the seat may have drawn from the stock (not from the pile)."""
        return [card for card in then if card not in check.from_pile]

    def _closer(
        self, then: list[Card], out: Card, check: LastTurn, card: Card | None = None
    ) -> bool:
        """:func:`brings_closer` of ``card`` (``out`` itself if None) to ``then`` less
        ``out``, the distances cached by the hands' faces."""
        before = list(then)
        before.remove(out)
        card = out if card is None else card
        return _closer_by(lambda cards: self._distance(cards, check.contract), before, card)

    def _distance(self, hand: list[Card], contract: Contract) -> int:
        key = (contract, tuple(sorted(card.index for card in hand)))
        found = self._distances.get(key)
        if found is None:
            if len(self._distances) > 20_000:
                self._distances.clear()
            found = self._distances[key] = contract_distance(hand, contract, self.rules)
        return found

    def could_not_lay_down(self, check: LastTurn, hand: Sequence[Card]) -> bool:
        """Whether ``check.seat``, holding ``hand`` now, could not have laid down at the
        start of its last play."""
        then = [*hand, check.discard]
        held = lay_down_of(then, check.contract, self.rules, taken=check.taken,
                           last_round=self.last_round)  # fmt: skip
        return held is None


def reading(view: PlayerView) -> Reading:
    """What ``view`` tells of the other seats' hands under the model (see the module
    notes): each opponent not laid down whose last turn it saw whole."""
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView, got {view!r:.80}")
    rules = view.rules
    checks = []
    if rules.joker_swap_needs_laid_down:
        moves = view.pile_moves
        reshuffled = any(move.kind == "reshuffle" for move in moves)
        for seat in range(len(view.names)):
            if seat == view.seat or view.laid_down[seat]:
                continue
            if view.current == seat and view.phase != "draw":
                continue  # in the middle of its turn: it has drawn a card since
            last = max(
                (n for n, move in enumerate(moves) if move.kind == "discard" and move.seat == seat),
                default=None,
            )
            if last is None:
                continue  # no turn played this round
            if any(move.seat == seat and move.kind in ("take", "buy", "call")
                   for move in moves[last + 1 :]):  # fmt: skip
                continue  # a card taken or bought since
            before = moves[last - 1] if last else None
            taken = offered = None
            if before is not None and before.kind == "take" and before.seat == seat:
                taken = before.card
            elif (
                before is not None
                and before.kind in ("upcard", "discard", "buy")
                and not reshuffled
                and (before.kind != "buy" or rules.buy_timing == "after_decline")
            ):
                # It drew from the stock and passed on this card (bought, if at all, after
                # it declined; a window before the draw would have offered it another).
                offered = before.card
            from_pile = frozenset(
                move.card
                for move in moves
                if move.seat == seat and move.kind in ("take", "buy", "call")
            )
            checks.append(
                LastTurn(seat, moves[last].card, taken, view.contracts[seat], offered, from_pile)
            )
    return Reading(rules, len(view.names), view.is_last_round, tuple(checks))


def first_agreeing(
    draw: Callable[[], T], agrees: Callable[[T], bool], attempts: int
) -> tuple[T, bool]:
    """The first of at most ``attempts`` draws that ``agrees`` and True, else the last
    draw and False: rejection sampling, uniform among the draws that agree when ``draw``
    is uniform, with a cap."""
    whole("attempts", attempts, low=1, high=MOST_ATTEMPTS)
    for name, given in (("draw", draw), ("agrees", agrees)):
        if not callable(given):
            raise ArgumentTypeError(f"{name} must be a callable, got {given!r:.80}")
    for _ in range(attempts):
        drawn = draw()
        if agrees(drawn):
            return drawn, True
    return drawn, False


class ReadingSampler:
    """Determinizations of ``view`` weighted by its :func:`reading`: called with a seed, it
    draws up to ``attempts`` deals (:func:`~rummykit.agents.determinize.determinize`), keeps
    each with the chance :meth:`Reading.likelihood` gives it and returns the first kept, or
    the last one drawn (uniform, as a plain determinization) when none is: rejection
    sampling, so the deals returned follow the uniform deal weighted by the likelihood, the
    model's posterior. The first deal is ``determinize(view, seed)``'s, the others (and
    the chances of keeping them) from a generator seeded by ``seed``: where the plain deal
    is kept, a search that reads plays on the very deal one that does not read would.
    :attr:`drawn`, :attr:`fell_back` count the deals returned and the fallbacks.

    ``turn_limit`` and ``max_reshuffles`` are the sampled games' limits, as for
    :func:`~rummykit.agents.determinize.determinize`.
    """

    def __init__(
        self,
        view: PlayerView,
        *,
        attempts: int = ATTEMPTS,
        hidden: HiddenCards | None = None,
        turn_limit: int | None = None,
        max_reshuffles: int | None = None,
    ) -> None:
        whole("attempts", attempts, low=1, high=MOST_ATTEMPTS)
        self.view = view
        self.reading = reading(view)
        if hidden is None:
            hidden = hidden_cards(view)
        elif not isinstance(hidden, HiddenCards):
            raise ArgumentTypeError(f"hidden must be a HiddenCards, got {hidden!r:.80}")
        elif hidden.key != view_key(view):
            raise ArgumentError(
                "hidden: these constraints were computed for another view (hidden_cards(view))"
            )
        # The sampled games' limits, checked as a game checks them.
        Game(view.rules, players=len(view.names), seed=0, names=view.names,
             turn_limit=turn_limit, max_reshuffles=max_reshuffles)  # fmt: skip
        self.hidden = hidden
        self.attempts = attempts
        self.limits = {"turn_limit": turn_limit, "max_reshuffles": max_reshuffles}
        self.drawn = 0
        self.fell_back = 0

    def __call__(self, seed: int) -> GameState:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ArgumentTypeError(f"seed must be an integer, got {seed!r}")
        rng = random.Random(f"reading {seed}")
        seeds = itertools.chain([seed], iter(lambda: rng.getrandbits(63), None))

        def draw() -> GameState:
            return determinize(self.view, next(seeds), hidden=self.hidden, **self.limits)

        def agrees(state: GameState) -> bool:
            # Kept with the chance the model gives this deal: rejection sampling whose
            # samples follow the uniform deal weighted by that chance.
            return self.reading.keeps(state.hands, rng)

        if not self.reading.checks:
            sample, found = draw(), True
        else:
            sample, found = first_agreeing(draw, agrees, self.attempts)
        self.drawn += 1
        self.fell_back += not found
        return sample

    def __repr__(self) -> str:
        return (
            f"ReadingSampler(seat {self.view.seat}, {len(self.reading.checks)} opponents read, "
            f"{self.drawn} drawn, {self.fell_back} fell back)"
        )
