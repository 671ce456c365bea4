"""The numbers of assignment 3, ``hw3-waiting``: how long until the cards a hand needs come.

Questions 1 and 2 wait without replacement (the unseen cards in a random order: the
negative hypergeometric), question 3 with replacement (the geometric), and questions 4 to 6
on a small absorbing Markov chain that the student builds from their numbers: a hand that
lacks ``need`` cards of one rank, with ``outs`` of them among ``unseen`` cards and a joker
that may stand in for one of them. Question 7 is written.

>>> sorted(QUESTIONS[3].numbers("ada.lovelace", course="stat140-2026fall"))
['jokers', 'need', 'outs', 'unseen']
"""

from __future__ import annotations

import random

from rummykit.teach.homework.spec import COUNT, EXACT, PROBABILITY, WRITTEN, Question, no_numbers

__all__ = ["ASSIGNMENT", "QUESTIONS"]

ASSIGNMENT = "hw3-waiting"


def _pair_in_waiting(rng: random.Random) -> dict:
    """A shoe, a hand of ``cards`` cards holding a pair of 8s and no joker, and ``seen``
    cards in the discard pile, none of them an 8 or a joker."""
    decks = rng.randint(1, 4)
    return {
        "decks": decks,
        "jokers": rng.randint(0, 2 * decks),
        "cards": rng.randint(10, 12),
        "seen": rng.randint(1, 15 * decks),
    }


def _pair_and_draws(rng: random.Random) -> dict:
    return _pair_in_waiting(rng) | {"draws": rng.randint(2, 15)}


def _joker_with_replacement(rng: random.Random) -> dict:
    """A full shoe drawn with replacement, and a window of turns ``first`` to ``last``."""
    decks = rng.randint(1, 4)
    first = rng.randint(2, 9)
    return {
        "decks": decks,
        "jokers": rng.randint(1, 2 * decks),
        "first": first,
        "last": first + rng.randint(1, 12),
    }


def _short_hand(rng: random.Random) -> dict:
    """The chain's numbers: the hand lacks ``need`` cards of one rank; ``outs`` of the
    ``unseen`` cards are naturals of that rank and ``jokers`` are jokers."""
    need = rng.randint(2, 3)
    return {
        "unseen": rng.randint(30, 70),
        "outs": rng.randint(need + 1, 9),
        "jokers": rng.randint(1, 4),
        "need": need,
    }


def _short_hand_and_turns(rng: random.Random) -> dict:
    return _short_hand(rng) | {"turns": rng.randint(3, 12)}


def _short_hand_simulated(rng: random.Random) -> dict:
    need = rng.randint(2, 3)
    return {
        "unseen": rng.randint(30, 60),
        "outs": rng.randint(need + 1, 9),
        "jokers": rng.randint(1, 4),
        "need": need,
        "runs": rng.randint(20, 40),
        "seed": rng.randrange(1, 1_000_000),
    }


QUESTIONS = (
    Question(
        ASSIGNMENT,
        "q1",
        "first_out",
        EXACT,
        _pair_in_waiting,
        "the expected position of the first 8 or joker among the unseen cards",
    ),
    Question(
        ASSIGNMENT,
        "q2",
        "p_within",
        PROBABILITY,
        _pair_and_draws,
        "an 8 or a joker within your next draws from the stock (without replacement)",
    ),
    Question(
        ASSIGNMENT,
        "q3",
        "p_window",
        PROBABILITY,
        _joker_with_replacement,
        "the first joker on one of turns first to last (with replacement)",
    ),
    Question(
        ASSIGNMENT,
        "q4",
        "expected_turns",
        EXACT,
        _short_hand,
        "the chain's expected number of turns until the hand is complete",
    ),
    Question(
        ASSIGNMENT,
        "q5",
        "p_done",
        PROBABILITY,
        _short_hand_and_turns,
        "the chance the chain is done within a number of turns",
    ),
    Question(
        ASSIGNMENT,
        "q6",
        "total_turns",
        COUNT,
        _short_hand_simulated,
        "the total number of turns of a stated simulation of the chain",
    ),
    Question(
        ASSIGNMENT,
        "q7",
        None,
        WRITTEN,
        no_numbers,
        "the chain's model against the real game, and the simulation against the exact",
    ),
)
