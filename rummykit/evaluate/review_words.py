"""A review's words for a choice: an action in a learner's notation, and the reasons and
chances a verdict's sentence gives (:mod:`rummykit.evaluate.reviews` builds the sentence).

- :func:`action_words`: an action as the review's sentences, tables and page say it, cards
  by their suit symbols and the table's melds counted from 1 (the puzzles' notation);
- :func:`card_reason` and :func:`discard_reason`: why the better choice was better, where
  the hand and the table say (a card that completes the contract, one that fits a meld on
  the table, one worth more points to hold);
- :func:`outs_words`: how often two choices went out first on the same samples, never
  two numbers that read the same.
"""

from __future__ import annotations

import re

from rummykit.chance import estimate_text
from rummykit.engine.actions import Action, DrawStock, LayOff, Pass, TakeDiscard, parse_action
from rummykit.engine.cards import Card, parse_cards
from rummykit.engine.legal import PlayerView, fits_table
from rummykit.engine.search import contract_distance
from rummykit.errors import RummyError
from rummykit.evaluate.estimate import Estimate

__all__ = ["action_words", "card_reason", "discard_reason", "outs_words"]

_ON_MELD = re.compile(r"^(lay off|swap) (\S+) -> (\d+)(?: (low|high))?$")


def action_words(action: Action | str) -> str:
    """An action (or its notation) as a learner reads it: cards by their suit symbols, a
    joker named, the table's melds counted from 1. The review's sentences, its tables and
    its page all say an action this way.

    >>> action_words("lay off JK -> 2 high"), action_words("swap 7H -> 0")
    ('lay off a joker on meld 3, at its high end', 'swap 7♥ for the joker in meld 1')
    >>> action_words(parse_action("lay down 8S 8H 8D | 9C 9C 9D"))
    'lay down 8♠ 8♥ 8♦ | 9♣ 9♣ 9♦'
    """
    text = str(parse_action(action))
    words = [
        ("a joker" if card.is_joker else card.symbol) if (card := _card(word)) else word
        for word in text.split()
    ]
    match = _ON_MELD.match(text)
    if match is None:
        return " ".join(words)
    verb, _, meld, end = match.groups()
    if verb == "swap":
        return f"swap {words[1]} for the joker in meld {int(meld) + 1}"
    return f"lay off {words[2]} on meld {int(meld) + 1}" + (f", at its {end} end" if end else "")


def _card(word: str) -> Card | None:
    try:
        return parse_cards(word)[0]
    except RummyError:  # not a card: a word of the action
        return None


def _closer(view: PlayerView, card) -> tuple[int, int] | None:
    """The contract distance of the hand without and with ``card`` (None once laid down)."""
    if card is None or view.laid_down[view.seat]:
        return None
    hand = list(view.hand)
    return (
        contract_distance(hand, view.contract, view.rules),
        contract_distance([*hand, card], view.contract, view.rules),
    )


def _nearer(card, distances: tuple[int, int]) -> str:
    """What a card taken or bought does for the contract: completes it, or a step."""
    if distances[1] == 0:
        return f"{card.symbol} completes your contract: you can lay it down at your turn"
    return f"{card.symbol} brings your hand one card closer to the contract"


def card_reason(view: PlayerView, played: Action, best: Action) -> str | None:
    """Why taking (or leaving) the card on offer or on the pile was the better choice."""
    kinds = {type(played).__name__, type(best).__name__}
    if isinstance(best, LayOff):
        points = view.rules.point_value(best.card)
        return (
            f"{best.card.symbol} lays off on the table's meld {best.meld + 1}: a card fewer "
            f"to hold ({points} points) and a step nearer going out"
        )
    if kinds == {"Buy", "Pass"}:
        card, extra = view.offer, view.rules.buy_penalty_cards
        distances = _closer(view, card)
        if isinstance(best, Pass):
            return (
                f"a buy adds {card.symbol} and {extra} penalty card{'s' if extra != 1 else ''} "
                f"to your hand, more to lay down or hold at the end"
            )
        if distances is not None and distances[1] < distances[0]:
            return _nearer(card, distances)
    if kinds == {"DrawStock", "TakeDiscard"}:
        card = view.discard_top
        distances = _closer(view, card)
        if isinstance(best, TakeDiscard) and distances is not None and distances[1] < distances[0]:
            return _nearer(card, distances)
        if isinstance(best, DrawStock):
            return (
                f"{card.symbol} shows the others what you collect and does not help your contract"
            )
    return None


def outs_words(best: Estimate, played: Estimate) -> str:
    """How often the best and the choice played go out first, never two numbers that
    read the same: both were played on the same samples, so where the shares' words
    would match, the counts say it (equal, or which is ahead by how many samples).

    >>> outs_words(Estimate(0.25, 0.18, 0.33, 128), Estimate(0.125, 0.08, 0.19, 128))
    'it goes out first in about 25% of the samples (95%: 18% to 33%), against about 12% of the samples (95%: 8.0% to 19%)'
    >>> outs_words(Estimate(8 / 128, 0.03, 0.12, 128), Estimate(8 / 128, 0.03, 0.12, 128))
    'both go out first in 8 of the 128 samples, about 6.2% of the samples (95%: 3.0% to 12%)'
    """
    mine, other = _share(best), _share(played)
    if mine != other or best.n != played.n:
        return f"it goes out first in {mine}, against {other}"
    hits, theirs = round(best.mean * best.n), round(played.mean * played.n)
    if hits == theirs:
        return f"both go out first in {hits} of the {best.n} samples, {mine}"
    return f"it goes out first in {hits} of the {best.n} samples, against {theirs} ({mine})"


def _share(e: Estimate) -> str:
    """A share of the samples in words: "about 25% of the samples (95%: 19% to 31%)",
    "none of the samples (95%: up to 1 in 33)"."""
    text = estimate_text(e.mean, e.low, e.high, of="samples")
    if text.startswith(("none ", "all ")):
        return text
    return text.replace(" (95%", " of the samples (95%", 1)


def discard_reason(view: PlayerView, mine, other) -> str | None:
    """Why keeping ``mine`` and discarding ``other`` is better, where the hand says."""
    hand = list(view.hand)
    if not view.laid_down[view.seat]:
        contract, rules = view.contract, view.rules

        def without(card):
            rest = list(hand)
            rest.remove(next(c for c in rest if c.index == card.index))
            return contract_distance(rest, contract, rules)

        after_mine, after_other = without(mine), without(other)
        if after_mine > after_other:
            return (
                f"without {mine.symbol} your hand is further from the contract "
                f"({after_mine} cards short instead of {after_other})"
            )
    # The copies held, not the actions' cards: a discard names its card by face, and the
    # face's other copy may lie in the very meld it fits (a meld refuses its own copy).
    held_mine = next((c for c in hand if c.index == mine.index), mine)
    held_other = next((c for c in hand if c.index == other.index), other)
    if fits_table(view, held_mine) and not fits_table(view, held_other):
        return f"{mine.symbol} fits a meld on the table: another player can lay it off"
    points_mine, points_other = view.rules.point_value(mine), view.rules.point_value(other)
    if points_other > points_mine:
        return f"{other.symbol} is worth {points_other} points to hold, {mine.symbol} {points_mine}"
    return None
