"""The exercises of chapter 7 (outs) as generators ``f(seed) -> Exercise``.

Every exercise deals a seeded hand for the first contract of ``standard`` (2 sets, 10
cards from 2 decks and 4 jokers); seed 0 gives the book's hand, another seed another
hand, and the answer, computed by :func:`rummykit.outs`, changes with it. The tests
check each answer against a count over the unseen cards themselves.

Outs counts take few values (a pair and the jokers give 10), so for seeds 1, 2, ... the
first four exercises aim at a number of outs (:func:`targeted_outs`): every count from 3
to 42 but the book's, in a fixed shuffled order, reached by a hand with at least that
many outs and a discard pile of :data:`PILE` cards that holds the copies too many. Seeds
0-39 so get 40 different answers (tested). The fifth, the best discard, aims the same way
from seed 2 on (:func:`targeted_discard`; seeds 0 and 1 are the book's hands), at the
counts of :data:`DISCARD_TARGETS` but the book's two, with a pile of :data:`DISCARD_PILE`
cards: seeds 0-39 give it 40 different answers too (tested).

>>> ex = count(0)
>>> ex.seed, ex.check(str(ex.answer)).correct, ex.check(str(ex.answer + 1)).correct
(0, True, False)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from fractions import Fraction
from math import comb

from rummykit.agents.hints import Outs, outs
from rummykit.engine.cards import Card, Hand, Shoe
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import instance, items, whole
from rummykit.engine.rules import MAX_DEAL_SIZE, RuleSet
from rummykit.engine.search import contract_distance
from rummykit.errors import ArgumentError
from rummykit.exercises import Exercise, check_seed, exercise

__all__ = [
    "DECKS",
    "GENERATORS",
    "JOKERS",
    "PILE",
    "DISCARD_PILE",
    "DISCARD_TARGETS",
    "TARGETS",
    "best_discard_outs",
    "dealt_outs",
    "targeted_discard",
    "targeted_outs",
    "two_draw_chance",
]

#: The shoe of the exercises: a table of four players under ``standard``.
DECKS, JOKERS = 2, 4
_RULES = RuleSet.preset("standard")
_CONTRACT = _RULES.contracts[0]
_CARDS = _RULES.deal_sizes[0]
_SHOE = Shoe(decks=DECKS, jokers=JOKERS)


#: The farthest :func:`dealt_outs` deals to (a hand 4 cards away takes a second to find,
#: one 5 away minutes), and the most cards it shows face up.
MAX_DISTANCE = 3
MAX_SEEN = 40


def dealt_outs(key: str, seed: int, *, distance: int = 1, seen: int = 0) -> tuple[Hand, list, Outs]:
    """The first seeded hand (of the stream named by ``key`` and ``seed``) that is
    ``distance`` cards (1 to :data:`MAX_DISTANCE`) from 2 sets with at least one out,
    ``seen`` cards (0 to :data:`MAX_SEEN`) of the rest of the shoe shown face up, and its
    outs.

    >>> hand, seen, found = dealt_outs("doc", 0, seen=3)
    >>> len(hand), len(seen), found.distance, found.unseen
    (10, 3, 1, 95)
    """
    _stream(key, seed)
    whole("distance", distance, low=1, high=MAX_DISTANCE, hint="farther hands take minutes")
    whole("seen", seen, low=0, high=MAX_SEEN)
    rng = random.Random(f"{key}:{seed}")
    while True:
        cards = rng.sample(_SHOE.cards, _CARDS + seen)
        hand, shown = Hand(cards[:_CARDS]), cards[_CARDS:]
        found = outs(hand, _CONTRACT, _RULES, decks=DECKS, jokers=JOKERS, seen=shown)
        if found.distance == distance and found.total:
            return hand, shown, found


#: The discard pile of a targeted hand (:func:`targeted_outs`).
PILE = 8
#: The numbers of outs that seeds 1, 2, ... aim at.
TARGETS = range(3, 43)


def targeted_outs(key: str, seed: int, book: int) -> tuple[Hand, list, Outs]:
    """A seeded hand 1 card from 2 sets, a discard pile of :data:`PILE` cards, and its
    outs, whose total is the target of ``seed`` (``book``, the count of seed 0, is left
    out of the targets, so seeds 0-39 give 40 different counts).

    >>> hand, pile, found = targeted_outs("doc", 1, book=10)
    >>> len(hand), len(pile), found.distance, found.unseen, found.total != 10
    (10, 8, 1, 90, True)
    """
    _stream(key, seed)
    whole("book", book)
    targets = [t for t in TARGETS if t != book]
    random.Random(f"targets:{key}").shuffle(targets)
    target = targets[(seed - 1) % len(targets)]
    rng = random.Random(f"{key}:{seed}")
    while True:
        hand = Hand(rng.sample(_SHOE.cards, _CARDS))
        # One distance first: the outs of a hand (a distance per face) only when it is 1.
        if contract_distance(hand, _CONTRACT, _RULES, decks=DECKS) != 1:
            continue
        found = outs(hand, _CONTRACT, _RULES, decks=DECKS, jokers=JOKERS)
        extra = found.total - target
        if found.distance != 1 or not 0 <= extra <= PILE:
            continue
        rest = list(_SHOE.cards)
        for card in hand:
            rest.remove(next(c for c in rest if c.code == card.code))
        helping = [card for card in rest if card.code in found.cards]
        other = [card for card in rest if card.code not in found.cards]
        pile = rng.sample(helping, extra) + rng.sample(other, PILE - extra)
        rng.shuffle(pile)
        seen = outs(hand, _CONTRACT, _RULES, decks=DECKS, jokers=JOKERS, seen=pile)
        if seen.total == target:
            return hand, pile, seen


def _stream(key: object, seed: object) -> None:
    instance("key", key, str, "a str (the name of a stream of hands)")
    check_seed(seed)


@functools.lru_cache(maxsize=512)
def _dealt_or_targeted(key: str, seed: int, seen: int = 0) -> tuple[Hand, list, Outs]:
    """The book's dealt hand for seed 0; for another seed, a targeted one whose outs
    differ from the book's and from every other seed's below 40."""
    if seed == 0:
        return dealt_outs(key, 0, seen=seen)
    book = _dealt_or_targeted(key, 0, seen)[2].total
    return targeted_outs(key, seed, book=book)


def _pile_words(pile: list) -> str:
    return f" The discard pile shows {_shown(pile)}." if pile else ""


def two_draw_chance(total: int, unseen: int) -> Fraction:
    """The exact chance that at least one of the next two cards is one of ``total`` outs
    among ``unseen`` cards (at least 2): one less the chance that both miss
    (hypergeometric).

    >>> two_draw_chance(10, 98)
    Fraction(925, 4753)
    """
    whole("unseen", unseen, low=2)
    whole("total", total, low=0, high=unseen)
    return 1 - Fraction(comb(unseen - total, 2), comb(unseen, 2))


def _discard_outs(hand: Hand, pile: Sequence[Card] = ()) -> list[Outs]:
    # The outs each discard of ``hand`` leaves; the discard joins the cards seen.
    return [
        outs(
            [*hand[:index], *hand[index + 1 :]],
            _CONTRACT,
            _RULES,
            decks=DECKS,
            jokers=JOKERS,
            seen=[*pile, hand[index]],
        )
        for index in range(len(hand))
    ]


#: The largest hand :func:`best_discard_outs` takes: RuleSet's largest deal and a draw.
MAX_HAND = MAX_DEAL_SIZE + 1


def best_discard_outs(hand: Hand, pile: Sequence[Card] = ()) -> tuple[int, int]:
    """The fewest cards a discard of ``hand`` (after its draw) leaves it from 2 sets, and
    the most outs a discard leaving that distance keeps, the cards of ``pile`` seen; a
    hand of 2 to :data:`MAX_HAND` cards.

    >>> from rummykit import parse_cards
    >>> hand = parse_cards("8S 8H 8D JH JS 2C KD")
    >>> best_discard_outs(hand), best_discard_outs(hand, parse_cards("JC JD"))
    ((1, 10), (1, 8))
    """
    hand = check_cards("hand", hand, most=MAX_HAND)
    if len(hand) < 2:
        raise ArgumentError(f"hand must hold at least 2 cards to discard one, got {len(hand)}")
    pile = check_cards("pile", pile)
    distance, most = min((found.distance, -found.total) for found in _discard_outs(hand, pile))
    return distance, -most


#: The counts a best discard aims at from seed 2 (:func:`targeted_discard`): every count
#: from 1 to 42. A best discard of a dealt 11-card hand one card from 2 sets mostly keeps
#: 10, 15, 16, 21, 22, 27 or 42 outs, which a pile of :data:`DISCARD_PILE` cards lowers by
#: up to 14, so every count in between is in reach, and seeds 0-39 give 40 counts.
DISCARD_TARGETS = tuple(range(1, 43))
#: The discard pile of a targeted best-discard hand.
DISCARD_PILE = 14


def targeted_discard(seed: int, book: Sequence[int]) -> tuple[Hand, list[Card]]:
    """A seeded 11-card hand whose best discard leaves it 1 card from 2 sets, and a
    discard pile of :data:`DISCARD_PILE` cards after which the most outs a discard keeps is the
    target of ``seed`` in :data:`DISCARD_TARGETS` (the counts in ``book`` left out).

    >>> hand, pile = targeted_discard(2, book=(10, 42))
    >>> len(hand), len(pile), best_discard_outs(hand, pile)[0]
    (11, 14, 1)
    """
    check_seed(seed)
    book = items("book", book, lambda name, x: whole(name, x), what="a list of counts")
    targets = [t for t in DISCARD_TARGETS if t not in book]
    if not targets:
        raise ArgumentError("book leaves no count of DISCARD_TARGETS to aim at")
    random.Random("targets:outs-best-discard").shuffle(targets)
    target = targets[(seed - 2) % len(targets)]
    rng = random.Random(f"outs-best-discard:{seed}")
    while True:
        hand = Hand(rng.sample(_SHOE.cards, _CARDS + 1))
        found = _discard_outs(hand)
        kept = [f for f in found if f.distance == 1]
        if min(f.distance for f in found) != 1 or max(f.total for f in kept) < target:
            continue
        rest = list(_SHOE.cards)
        for card in hand:
            rest.remove(next(c for c in rest if c.code == card.code))
        best = max(kept, key=lambda f: f.total)
        helping = [card for card in rest if card.code in best.cards]
        other = [card for card in rest if card.code not in best.cards]
        for _ in range(20):
            lowered = rng.randint(0, min(DISCARD_PILE, len(helping)))
            pile = rng.sample(helping, lowered) + rng.sample(other, DISCARD_PILE - lowered)
            # A pile card that is an out of a discard is one out fewer for that discard.
            most = max(f.total - sum(card.code in f.cards for card in pile) for f in kept)
            if most == target:
                rng.shuffle(pile)
                return hand, pile


def _shown(cards) -> str:
    return " ".join(str(card) for card in Hand(cards).sorted(by="rank"))


_SETTING = "dealt 10 cards from 2 decks and 4 jokers for the first contract, 2 sets"


@exercise("outs-count")
def count(seed: int) -> Exercise:
    """Count the outs of a hand one card from 2 sets."""
    hand, pile, found = _dealt_or_targeted("outs-count", seed)
    where = "your hand or the pile" if pile else "your hand"
    return Exercise(
        "outs-count",
        f"You are {_SETTING}: {_shown(hand)}. The hand is 1 card from the contract."
        f"{_pile_words(pile)} How many of the unseen cards (every card of the shoe not in "
        f"{where}) would complete it?",
        found.total,
        hint="Find the pair (or the joker) that a third card makes a set of, then count the "
        "unseen copies of each face that does it, jokers included: 2 decks hold 2 copies of "
        "each natural card.",
        explanation=f"The outs: {_faces(found)}.",
    )


@exercise("outs-next-card")
def next_card(seed: int) -> Exercise:
    """The exact chance that the next card is an out, with some cards seen."""
    hand, seen, found = _dealt_or_targeted("outs-next-card", seed, seen=4)
    return Exercise(
        "outs-next-card",
        f"You are {_SETTING}: {_shown(hand)}, 1 card from the contract. The discard pile "
        f"shows {_shown(seen)}. What is the exact chance that the next card of the stock "
        "completes your contract? (Every card you have not seen is equally likely.)",
        found.p_next,
        hint=f"Count the outs not in the pile, then the unseen cards: {_SHOE.size} less your "
        "hand less the pile.",
        explanation=f"{found.total} outs among {found.unseen} unseen cards: {_faces(found)}.",
    )


@exercise("outs-two-draws")
def two_draws(seed: int) -> Exercise:
    """The exact chance that one of the next two cards is an out. Every seed's hand comes
    with a discard pile: the chapter works out the book's hand with none (10 outs among 98
    unseen cards), and no exercise asks what the page already answers."""
    hand, pile, found = _dealt_or_targeted("outs-two-draws", seed, seen=PILE)
    total, unseen = found.total, found.unseen
    return Exercise(
        "outs-two-draws",
        f"You are {_SETTING}: {_shown(hand)}.{_pile_words(pile)} It has {total} outs among "
        f"{unseen} unseen cards. What is the exact chance that at least one of the next two "
        "cards of the stock is an out?",
        two_draw_chance(total, unseen),
        hint="Take the complement: both cards miss with chance "
        f"({unseen - total}/{unseen}) × ({unseen - total - 1}/{unseen - 1}).",
        explanation=f"1 − C({unseen - total}, 2)/C({unseen}, 2).",
    )


@exercise("outs-rule-error")
def rule_error(seed: int) -> Exercise:
    """How far the "double the next-card chance" rule overshoots the exact value."""
    _, _, found = _dealt_or_targeted("outs-rule-error", seed)
    total, unseen = found.total, found.unseen
    return Exercise(
        "outs-rule-error",
        f"A hand has {total} outs among {unseen} unseen cards. The quick rule says the chance "
        f"of an out in the next two cards is 2 × {total}/{unseen}. By how much is the rule "
        "above the exact chance? (A fraction, or a decimal of 3 significant figures.)",
        2 * Fraction(total, unseen) - two_draw_chance(total, unseen),
        hint="The rule counts the case where both cards are outs twice: the overshoot is the "
        "chance that both are.",
        explanation=f"Both are outs with chance ({total}/{unseen}) × ({total - 1}/{unseen - 1}).",
    )


def _dealt_discard(seed: int) -> Hand:
    # The book's hands (seeds 0 and 1): the first seeded 11 cards whose best discard
    # leaves them 1 card from 2 sets.
    rng = random.Random(f"outs-best-discard:{seed}")
    while True:
        hand = Hand(rng.sample(_SHOE.cards, _CARDS + 1))
        if best_discard_outs(hand)[0] == 1:
            return hand


@functools.lru_cache(maxsize=512)
def _discard_hand(seed: int) -> tuple[Hand, list[Card]]:
    if seed < 2:
        return _dealt_discard(seed), []
    book = tuple(best_discard_outs(_dealt_discard(s))[1] for s in (0, 1))
    return targeted_discard(seed, book=book)


@exercise("outs-best-discard")
def best_discard(seed: int) -> Exercise:
    """The most outs a discard keeps, in a hand after its draw."""
    hand, pile = _discard_hand(seed)
    distance, most = best_discard_outs(hand, pile)
    pile_words = f" The discard pile shows {_shown(pile)}." if pile else ""
    on_pile = "on top of those" if pile else "on the pile"
    return Exercise(
        "outs-best-discard",
        f"You drew your 11th card and hold {_shown(hand)} (2 sets from 2 decks and 4 jokers)."
        f"{pile_words} You must discard one card, keeping 1 card from the contract. The card "
        f"you discard lies {on_pile}, so it is no out. What is the most outs a discard leaves "
        "you?",
        most,
        hint="Discard a card that is in no pair and no set: each pair is a set in waiting, "
        "and its outs are the unseen copies of its rank and the jokers.",
    )


def _faces(found: Outs) -> str:
    return ", ".join(f"{Card.parse(code)} ×{copies}" for code, copies in found.cards.items())


#: Chapter 7's generators, ``generator(seed) -> Exercise``, in the chapter's order.
GENERATORS = (count, next_card, two_draws, rule_error, best_discard)
