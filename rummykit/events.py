"""What happened in a game: an :class:`Event` for each thing (chance outcomes included),
a :class:`RoundResult` for each finished round.

:data:`EVENT_KINDS` lists every kind of event the engine logs, in the order of
:data:`EventKind`.

>>> from rummykit.game import Game
>>> state = Game(players=2, seed=1).new_state()
>>> [event.kind for event in state.log]
['deal', 'deal', 'upcard']
>>> set(event.kind for event in state.log) <= set(EVENT_KINDS)
True
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Literal

from rummykit.cards import Card, Hand
from rummykit.melds import Meld
from rummykit.rules import Contract

__all__ = ["EVENT_KINDS", "Event", "EventKind", "RoundResult"]

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


@dataclass(frozen=True)
class Event:
    """One thing that happened, chance outcomes included; :meth:`GameState.log` lists them.

    Private details (the cards dealt or drawn from the stock) are kept in ``cards`` for
    replay checks and analysis; :func:`rummykit.narrate.narrate` tells only public ones.
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
    scores: tuple[int, ...] = ()
    """Numbers that go with the event: for ``"round end"`` each seat's points this round
    (signed as the rule set writes them), for ``"game end"`` the totals, for ``"cut"``
    (cards cut, 1 if perfect else 0), for ``"reshuffle"`` the new stock's size, for
    ``"buy lottery"`` the seats that asked, for ``"call"`` the discarder's seat, for a
    ``"buy"`` before the draw (``buy_timing="before_draw"``) the seat about to draw, for
    ``"buy limit"`` (a seat not asked to buy the card, having made its most buys this
    round) the buys made and the limit."""


@dataclass(frozen=True)
class RoundResult:
    """The table as a round ended, before the next deal: what every player shows to score.

    :attr:`GameState.results` keeps one per finished round, so the finished table can
    still be shown once the next round is dealt.

    >>> from rummykit.bots import GreedyBot
    >>> from rummykit.game import Game, play_game
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
