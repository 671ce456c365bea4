"""A round told in plain words, for learners: only what everyone at the table sees.

>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=3, seed=4).new_state(dealer=0)
>>> state.apply("draw stock")
>>> state.apply("buy")
>>> print(narrate(state))  # doctest: +ELLIPSIS
Round 1, contract 2 sets: Ann deals 10 cards to each player and turns up the ...
Bea passes on the ...
Cal buys the ... and draws a penalty card.
Bea draws from the stock.

Under ``family`` buying happens before the draw:

>>> state = Game("family", players=3, seed=4).new_state(dealer=0)
>>> state.apply("buy")
>>> state.apply("pass")
>>> state.apply("draw stock")
>>> print(narrate(state))  # doctest: +ELLIPSIS
Round 1, contract 2 sets: Ann deals 7 cards to each player and turns up the ...
Before Bea draws, Cal buys the ... and draws a penalty card.
Bea draws from the stock.
"""

from __future__ import annotations

from rummykit.engine.checks import instance, whole
from rummykit.engine.events import Event
from rummykit.engine.game import GameState

__all__ = ["narrate", "sentence"]


def _list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def sentence(event: Event, state: GameState, *, melds_from: int = 0) -> str | None:
    """One event in words, or None for an event not worth telling (or private); the
    melds on the table numbered from ``melds_from`` (0 as the action notation counts
    them, 1 as a screen that says "Meld 1" does)."""
    instance("event", event, Event, "an Event (of state.log)")
    instance("state", state, GameState, "a GameState")
    whole("melds_from", melds_from, low=0)
    names = state.names
    who = names[event.seat] if event.seat is not None else ""
    cards = event.cards
    kind = event.kind
    if kind == "upcard":
        dealer = _dealer_of(state, event.round)
        size = state.rules.deal_sizes[event.round - 1]
        contract = state.rules.contracts[event.round - 1]
        return (
            f"Round {event.round}, contract {contract}: {names[dealer]} deals {size} cards to "
            f"each player and turns up the {cards[0]}."
        )
    details = event.details
    if kind == "cut":
        if details.perfect:
            return (
                f"{who} cuts exactly the cards needed for the deal: a perfect cut, "
                f"{state.rules.perfect_cut_bonus} points off."
            )
        return None
    if kind == "decline":
        return f"{who} passes on the {cards[0]}." if cards else None
    if kind == "draw stock":
        return f"{who} draws from the stock."
    if kind == "take discard":
        return f"{who} takes the {cards[0]} from the discard pile."
    if kind == "buy":
        extra = len(cards) - 1
        price = (
            ""
            if extra == 0
            else " and draws a penalty card"
            if extra == 1
            else f" and draws {extra} penalty cards"
        )
        if details.drawer is not None:  # bought before the draw
            return f"Before {names[details.drawer]} draws, {who} buys the {cards[0]}{price}."
        return f"{who} buys the {cards[0]}{price}."
    if kind == "buy limit":
        made, limit = details.buys, details.limit
        return (
            f"{who} has made {made} buy{'s' if made != 1 else ''} this round, the limit of "
            f"{limit}, and is not offered the {cards[0]}."
        )
    if kind == "buy lottery":
        askers = [names[s] for s in details.askers]
        if len(askers) > 1:
            return f"{_list(askers)} all ask to buy; {who} calls first."
        return None
    if kind == "lay down":
        melds = [f"{meld} ({meld.describe()})" for meld in event.melds]
        return f"{who} lays down {_list(melds)}."
    if kind == "lay off":
        number = event.meld + melds_from
        return f"{who} lays off the {cards[0]} on meld {number}: {event.melds[0]}."
    if kind == "swap":
        number = event.meld + melds_from
        return (
            f"{who} puts the {cards[0]} in meld {number} in place of a joker and takes the joker."
        )
    if kind == "discard":
        return f"{who} discards the {cards[0]}."
    if kind == "call":
        offender = names[details.discarder]
        if state.rules.discard_call == "liverpool":
            return f"{who} calls Liverpool on {offender}'s {cards[0]} and takes it."
        return f"{who} calls rummy on {offender}'s {cards[0]}."
    if kind == "rummy penalty":
        extra = " and draws a penalty card" if len(cards) > 1 else ""
        return f"{who} takes the {cards[0]} back{extra}."
    if kind == "reshuffle":
        return (
            f"The stock is empty: the discard pile but its top card is shuffled into a new "
            f"stock of {details.stock_size} cards."
        )
    if kind == "float":
        return f"{who} has no cards left and floats until a card can be discarded."
    if kind == "end turn":
        return f"{who} keeps the last card and ends the turn without discarding."
    if kind == "go out":
        return f"{who} goes out!"
    if kind == "invalid lay down":
        return (
            f"{who} tries to lay down, but the melds are not legal: "
            f"{state.rules.invalid_lay_down_penalty} penalty points."
        )
    if kind == "piles exhausted":
        return "No card can be drawn any more: the round ends and every hand is scored."
    if kind == "round end":
        points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(details.points))
        return f"Round {event.round} is over. Points this round: {points}."
    if kind == "game end":
        totals = ", ".join(f"{names[s]} {p}" for s, p in enumerate(details.totals))
        winners = _list([names[s] for s in state.winners()])
        verb = "wins" if len(state.winners()) == 1 else "share the win"
        return f"The game is over. Totals: {totals}. {winners} {verb}."
    return None


def _dealer_of(state: GameState, round: int) -> int:
    deals = [e for e in state.log if e.round == round and e.kind == "deal"]
    # The first hand dealt goes to the dealer's left.
    return (deals[0].seat - 1) % state.players


def narrate(state: GameState, *, round: int | None = None) -> str:
    """Every public event of ``round`` (default: the round being played), one per line."""
    instance("state", state, GameState, "a GameState")
    if round is not None:
        whole("round", round, low=1, high=len(state.rules.contracts))
    if round is None:
        round = state.log[-1].round if state.log else state.round
    lines = []
    previous = None
    for event in state.log:
        if event.round != round:
            continue
        text = sentence(event, state)
        if not text:
            continue
        if (
            event.kind == "draw stock"
            and previous is not None
            and previous.kind == "decline"
            and previous.seat == event.seat
        ):
            # Nobody bought: one sentence for the decline and the draw.
            lines[-1] = lines[-1][:-1] + " and draws from the stock."
        else:
            lines.append(text)
        previous = event
    return "\n".join(lines)
