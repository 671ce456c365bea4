"""The numbers of assignment 1, ``hw1-counting``: counting hands as subsets of physical
cards, and the hypergeometric distribution.

Every question deals a hand of ``cards`` cards from a shoe of ``decks`` standard decks and
``jokers`` jokers, N = 52 * decks + jokers cards, each set of ``cards`` physical cards
equally likely. Question 1 counts hands (a product of binomial coefficients), question 2
asks for two things at once (inclusion-exclusion over two complements), question 3 for a
rank in every named suit (inclusion-exclusion over the suits, ``decks`` copies of each
card), question 4 for two ranks at once (the multivariate hypergeometric), question 5 for a
conditional chance and question 6 for a hypergeometric variance (the finite-population
correction). Question 7 is written.

>>> from rummykit.teach.homework.spec import question_seed
>>> import random
>>> sorted(QUESTIONS[4].draw(random.Random(question_seed("demo", ASSIGNMENT, "q5", "ada"))))
['cards', 'decks', 'jokers', 'k', 'rank']
"""

from __future__ import annotations

import random

from rummykit.teach.homework.spec import COUNT, EXACT, PROBABILITY, WRITTEN, Question, no_numbers

ASSIGNMENT = "hw1-counting"

#: The ranks and suits as card codes print them ("10H", "QS"); a joker is "JK".
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")


def _shoe(rng: random.Random, *, least_jokers: int, least_decks: int = 1) -> dict:
    """A shoe of ``least_decks`` to 4 decks and ``least_jokers`` to 8 jokers, and a hand
    of 6 to 15 cards."""
    return {
        "decks": rng.randint(least_decks, 4),
        "jokers": rng.randint(least_jokers, 8),
        "cards": rng.randint(6, 15),
    }


def _exactly_k_jokers(rng: random.Random) -> dict:
    shoe = _shoe(rng, least_jokers=1)
    return shoe | {"k": rng.randint(1, min(shoe["jokers"], 4))}


def _joker_and_ranks(rng: random.Random) -> dict:
    """At least one joker and at least one natural of any of 1 to 3 named ranks."""
    ranks = rng.sample(RANKS, rng.randint(1, 3))
    return _shoe(rng, least_jokers=1) | {"ranks": sorted(ranks, key=RANKS.index)}


def _rank_in_suits(rng: random.Random) -> dict:
    """A rank, and 2 to 4 suits that must all show it, from 2 to 4 decks (from one deck,
    every suit of a rank is "at least 4 of the rank", one library call)."""
    suits = rng.sample(SUITS, rng.randint(2, 4))
    return _shoe(rng, least_jokers=0, least_decks=2) | {
        "rank": rng.choice(RANKS),
        "suits": sorted(suits, key=SUITS.index),
    }


def _two_ranks(rng: random.Random) -> dict:
    """Exactly ``a`` naturals of ``rank_a`` and exactly ``b`` of ``rank_b``."""
    rank_a, rank_b = rng.sample(RANKS, 2)
    return _shoe(rng, least_jokers=0) | {
        "rank_a": rank_a,
        "a": rng.randint(1, 3),
        "rank_b": rank_b,
        "b": rng.randint(1, 3),
    }


def _rank_given_joker(rng: random.Random) -> dict:
    """At least ``k`` naturals of ``rank``, given the hand holds at least one joker."""
    return _shoe(rng, least_jokers=1) | {"rank": rng.choice(RANKS), "k": rng.randint(1, 3)}


def _useful_cards(rng: random.Random) -> dict:
    """The cards that help a set of any of 1 to 3 named ranks: their naturals and jokers."""
    ranks = rng.sample(RANKS, rng.randint(1, 3))
    return _shoe(rng, least_jokers=0) | {"ranks": sorted(ranks, key=RANKS.index)}


QUESTIONS = (
    Question(
        ASSIGNMENT,
        "q1",
        "hands_k",
        COUNT,
        _exactly_k_jokers,
        "the number of hands with exactly k jokers",
    ),
    Question(
        ASSIGNMENT,
        "q2",
        "p_joker_and_rank",
        PROBABILITY,
        _joker_and_ranks,
        "at least one joker and at least one natural of the named ranks",
    ),
    Question(
        ASSIGNMENT, "q3", "p_all_suits", PROBABILITY, _rank_in_suits, "the rank in every named suit"
    ),
    Question(
        ASSIGNMENT,
        "q4",
        "p_two_ranks",
        PROBABILITY,
        _two_ranks,
        "exactly a of one rank and exactly b of another",
    ),
    Question(
        ASSIGNMENT,
        "q5",
        "p_given_joker",
        PROBABILITY,
        _rank_given_joker,
        "at least k naturals of a rank, given at least one joker",
    ),
    Question(
        ASSIGNMENT,
        "q6",
        "var_useful",
        EXACT,
        _useful_cards,
        "the variance of the number of useful cards",
    ),
    Question(
        ASSIGNMENT,
        "q7",
        None,
        WRITTEN,
        no_numbers,
        "why hands a player can tell apart are not equally likely",
    ),
)
