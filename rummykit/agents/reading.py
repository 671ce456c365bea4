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
(:func:`~rummykit.engine.legal.lay_down_of` is the engine's own test). Earlier turns are not
read: what a seat drew from the stock is not in the view, so its hand then is not known.

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
>>> read.agrees(state.hands)                        # the true deal always agrees
True
>>> sampler = ReadingSampler(view)
>>> sample = sampler(random.Random(5).getrandbits(63))
>>> read.agrees(sample.hands), sample.view(view.seat) == view
(True, True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rummykit.agents.determinize import HiddenCards, determinize, hidden_cards
from rummykit.engine.cards import Card
from rummykit.engine.checks import whole
from rummykit.engine.game import GameState
from rummykit.engine.legal import PlayerView, lay_down_of
from rummykit.engine.rules import Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = ["ATTEMPTS", "LastTurn", "Reading", "ReadingSampler", "first_agreeing", "reading"]

#: Deals a :class:`ReadingSampler` draws, at most, before it falls back to a uniform deal.
ATTEMPTS = 32

T = TypeVar("T")


@dataclass(frozen=True)
class LastTurn:
    """One opponent's last turn, as the model reads it: at the start of that turn's play
    it held its cards now and :attr:`discard`, and could not lay down."""

    seat: int
    discard: Card
    """The card it discarded at the end of that turn."""
    taken: Card | None
    """The card it took from the pile at the start of that turn (None: it drew)."""
    contract: Contract
    """Its contract this round."""


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

    def agrees(self, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether a deal (every seat's hand) agrees with the reading: no opponent read
        could have laid down at the start of its last play.

        >>> from rummykit.engine.game import Game
        >>> reading(Game("standard", players=3, seed=1).new_state().view(0)).agrees([[]])
        Traceback (most recent call last):
        ...
        rummykit.errors.ArgumentError: hands must be one hand per seat (3), got [[]]
        """
        if not isinstance(hands, Sequence) or len(hands) != self.players:
            raise ArgumentError(
                f"hands must be one hand per seat ({self.players}), got {hands!r:.80}"
            )
        return all(self.could_not_lay_down(check, hands[check.seat]) for check in self.checks)

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
            taken = (
                before.card if before and before.kind == "take" and before.seat == seat else None
            )
            checks.append(LastTurn(seat, moves[last].card, taken, view.contracts[seat]))
    return Reading(rules, len(view.names), view.is_last_round, tuple(checks))


def first_agreeing(
    draw: Callable[[], T], agrees: Callable[[T], bool], attempts: int
) -> tuple[T, bool]:
    """The first of at most ``attempts`` draws that ``agrees`` and True, else the last
    draw and False: rejection sampling, uniform among the draws that agree when ``draw``
    is uniform, with a cap."""
    whole("attempts", attempts, low=1)
    for _ in range(attempts):
        drawn = draw()
        if agrees(drawn):
            return drawn, True
    return drawn, False


class ReadingSampler:
    """Determinizations of ``view`` that agree with its :func:`reading`: called with a
    seed, it draws up to ``attempts`` deals (:func:`~rummykit.agents.determinize.determinize`)
    and returns the first that agrees, or the last one drawn (uniform, as a plain
    determinization) when none does. The first deal is ``determinize(view, seed)``'s, the
    others from seeds of a generator seeded by ``seed``: where the plain deal agrees, a
    search that reads plays on the very deal one that does not read would, so the two
    differ only where the reading does. :attr:`drawn`, :attr:`fell_back` count the deals
    returned and the fallbacks.

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
        whole("attempts", attempts, low=1)
        self.view = view
        self.reading = reading(view)
        self.hidden = hidden_cards(view) if hidden is None else hidden
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

        if not self.reading.checks:
            sample, found = draw(), True
        else:
            sample, found = first_agreeing(
                draw, lambda state: self.reading.agrees(state.hands), self.attempts
            )
        self.drawn += 1
        self.fell_back += not found
        return sample

    def __repr__(self) -> str:
        return (
            f"ReadingSampler(seat {self.view.seat}, {len(self.reading.checks)} opponents read, "
            f"{self.drawn} drawn, {self.fell_back} fell back)"
        )
