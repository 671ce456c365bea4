"""What happened in a game: an :class:`Event` for each thing (chance outcomes included),
a :class:`RoundResult` for each finished round.

:data:`EVENT_KINDS` lists every kind of event the engine logs, in the order of
:data:`EventKind`. Eight kinds carry details of their own, each in its own small frozen
type (:data:`DETAILS` maps the kind to it): a ``"cut"`` event's :class:`CutDetails`, a
``"round end"``'s :class:`RoundEndDetails`, and so on; every other kind has
``details=None``.

>>> from rummykit.engine.game import Game
>>> state = Game(players=2, seed=1).new_state()
>>> [event.kind for event in state.log]
['deal', 'deal', 'upcard']
>>> set(event.kind for event in state.log) <= set(EVENT_KINDS)
True
>>> state = Game("pagat", players=3, seed=1).new_state()
>>> state.log[0].kind, state.log[0].details
('cut', CutDetails(lifted=73, perfect=False))
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Literal

from rummykit.engine.cards import Card, Hand
from rummykit.engine.melds import Meld
from rummykit.engine.rules import Contract
from rummykit.errors import ArgumentTypeError

__all__ = [
    "DETAILS",
    "EVENT_KINDS",
    "BuyDetails",
    "BuyLimitDetails",
    "BuyLotteryDetails",
    "CallDetails",
    "CutDetails",
    "Event",
    "EventDetails",
    "EventKind",
    "GameEndDetails",
    "ReshuffleDetails",
    "RoundEndDetails",
    "RoundResult",
]

#: What an :class:`Event` may be (its ``kind``).
EventKind = Literal[
    "deal",
    "upcard",
    "cut",
    "draw stock",
    "take discard",
    "decline",
    "buy limit",
    "buy",
    "pass buy",
    "buy lottery",
    "lay down",
    "lay off",
    "swap",
    "discard",
    "call",
    "rummy penalty",
    "reshuffle",
    "float",
    "end turn",
    "go out",
    "invalid lay down",
    "piles exhausted",
    "round end",
    "game end",
]

#: Every event kind, as a tuple of strings.
EVENT_KINDS: tuple[str, ...] = typing.get_args(EventKind)


# --------------------------------------------------------------------------------------
# The details of the kinds that carry more than a seat, cards and melds


@dataclass(frozen=True)
class CutDetails:
    """A ``"cut"`` (rule sets with a ``perfect_cut_bonus``): the cut before the deal."""

    lifted: int
    """The cards the cutter lifted off the shoe."""
    perfect: bool
    """Whether they were exactly the cards the deal needs (the cutter earns the bonus)."""


@dataclass(frozen=True)
class ReshuffleDetails:
    """A ``"reshuffle"``: the discard pile but its top card became the new stock."""

    stock_size: int
    """The new stock's size."""


@dataclass(frozen=True)
class BuyDetails:
    """A ``"buy"``: the buyer is the event's seat, the cards the bought card then the
    penalty cards."""

    drawer: int | None
    """The seat about to draw, when the card was bought before the draw
    (``buy_timing="before_draw"``); None when it was bought after the player to draw
    declined it."""


@dataclass(frozen=True)
class BuyLimitDetails:
    """A ``"buy limit"``: the event's seat is not asked to buy the card, having made its
    most buys this round."""

    buys: int
    """The buys the seat made this round."""
    limit: int
    """The most buys a seat may make this round."""


@dataclass(frozen=True)
class BuyLotteryDetails:
    """A ``"buy lottery"`` (``buy_priority="first_call"``): who calls first among those
    who asked to buy is chance; the event's seat won."""

    askers: tuple[int, ...]
    """The seats that asked to buy, in the order they were asked."""


@dataclass(frozen=True)
class CallDetails:
    """A ``"call"`` (a ``discard_call`` rule): the event's seat called the discard."""

    discarder: int
    """The seat whose discard was called."""


@dataclass(frozen=True)
class RoundEndDetails:
    """A ``"round end"``: the event's seat went out (None when the round ended another
    way)."""

    points: tuple[int, ...]
    """Each seat's points this round, signed as the rule set writes them."""


@dataclass(frozen=True)
class GameEndDetails:
    """A ``"game end"``: the last round was scored."""

    totals: tuple[int, ...]
    """Each seat's total score."""


#: The details an :class:`Event` may carry.
EventDetails = (
    CutDetails
    | ReshuffleDetails
    | BuyDetails
    | BuyLimitDetails
    | BuyLotteryDetails
    | CallDetails
    | RoundEndDetails
    | GameEndDetails
)

#: The kinds of event that carry details, each with the type of its details; an event of
#: any other kind has ``details=None``.
DETAILS: dict[str, type] = {
    "cut": CutDetails,
    "reshuffle": ReshuffleDetails,
    "buy": BuyDetails,
    "buy limit": BuyLimitDetails,
    "buy lottery": BuyLotteryDetails,
    "call": CallDetails,
    "round end": RoundEndDetails,
    "game end": GameEndDetails,
}


@dataclass(frozen=True)
class Event:
    """One thing that happened, chance outcomes included; :meth:`GameState.log` lists them.

    Private details (the cards dealt or drawn from the stock) are kept in ``cards`` for
    replay checks and analysis; :func:`rummykit.engine.narrate.narrate` tells only public ones.
    What else a kind carries is in ``details``, of the type :data:`DETAILS` gives for the
    kind (None for the other kinds); a mismatch is refused:

    >>> Event(1, "reshuffle", details=ReshuffleDetails(stock_size=40)).details.stock_size
    40
    >>> Event(1, "reshuffle", details=CutDetails(lifted=40, perfect=False))
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentTypeError: details: a 'reshuffle' event carries ReshuffleDetails, got CutDetails(lifted=40, perfect=False)
    """

    round: int
    """The round (1-based)."""
    kind: EventKind
    """What happened: ``"deal"``, ``"upcard"``, ``"cut"``, ``"draw stock"``, ``"take discard"``,
    ``"decline"``, ``"buy limit"``, ``"buy"``, ``"pass buy"``, ``"buy lottery"``, ``"lay down"``,
    ``"lay off"``,
    ``"swap"``, ``"discard"``, ``"call"``, ``"rummy penalty"``, ``"reshuffle"``, ``"float"``,
    ``"end turn"``, ``"go out"``, ``"invalid lay down"``, ``"piles exhausted"``,
    ``"round end"`` or ``"game end"``."""
    seat: int | None = None
    """The seat concerned, if any."""
    cards: tuple[Card, ...] = ()
    """The cards concerned (for a buy: the bought card then the penalty cards)."""
    meld: int | None = None
    """The table meld concerned, if any."""
    melds: tuple[Meld, ...] = ()
    """Melds laid down (``"lay down"``) or the meld after a lay-off or swap."""
    details: EventDetails | None = None
    """What else the kind carries (see :data:`DETAILS`): the points of a ``"round end"``,
    the seat about to draw of a ``"buy"`` before the draw, ...; None for most kinds."""

    def __post_init__(self) -> None:
        # The engine logs its events without __init__ (a field dict at once, for speed),
        # each with the right details: this checks events made by hand.
        expected = DETAILS.get(self.kind)
        if type(self.details) is not (type(None) if expected is None else expected):
            wanted = "no details (None)" if expected is None else expected.__name__
            raise ArgumentTypeError(
                f"details: a {self.kind!r} event carries {wanted}, got {self.details!r}"
            )


@dataclass(frozen=True)
class RoundResult:
    """The table as a round ended, before the next deal: what every player shows to score.

    :attr:`GameState.results` keeps one per finished round, so the finished table can
    still be shown once the next round is dealt.

    >>> from rummykit.agents.bots import GreedyBot
    >>> from rummykit.engine.game import Game, play_game
    >>> state = Game(players=2, seed=3).new_state(round=7)
    >>> final = play_game(state, [GreedyBot(seed=0), GreedyBot(seed=1)])
    >>> result = final.results[0]
    >>> result.round, result.points == final.round_scores[0], len(result.hands[result.went_out])
    (7, True, 0)
    """

    round: int
    """The round (1-based)."""
    contracts: tuple[Contract, ...]
    """Each seat's contract in that round."""
    hands: tuple[Hand, ...]
    """The cards each seat held at the end (they scored these)."""
    melds: tuple[Meld, ...]
    """The melds on the table, by meld number."""
    meld_owners: tuple[int, ...]
    """Who laid each meld."""
    laid_down: tuple[bool, ...]
    """Whether each seat had laid down its contract."""
    went_out: int | None
    """The seat that went out, or None when the round ended another way (the piles ran
    out, or the turn limit was reached)."""
    points: tuple[int, ...]
    """Each seat's points this round, signed as the rule set writes them."""
    scores: tuple[int, ...]
    """Each seat's total after the round."""
