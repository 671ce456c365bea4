"""The numbers of assignment 2, ``hw2-simulation``: an exact chance against a simulated
count, the spread of an estimate, intervals, sample sizes and the law of large numbers.

Questions 1 to 4 share one event, "a set of ``rank`` in waiting": a hand of ``cards``
cards from ``decks`` decks and ``jokers`` jokers holds at least ``size`` cards that are
naturals of ``rank`` or jokers, at least ``naturals`` of them naturals (with size 3 and
naturals 2, a set the standard rules let a player lay down). Question 1 asks for its exact
chance, question 2 for the count of a simulation stated to the letter, questions 3 and 4
for the variance of an estimate and a sample size; question 5 counts intervals that miss
(a binomial), question 6 sizes a simulation by Chebyshev's inequality. Question 7 is
written.

>>> from rummykit.teach.homework.spec import question_seed
>>> import random
>>> sorted(QUESTIONS[1].draw(random.Random(question_seed("demo", ASSIGNMENT, "q2", "ada"))))
['cards', 'decks', 'hands', 'jokers', 'naturals', 'rank', 'seed', 'size']
"""

from __future__ import annotations

import random

from rummykit.teach.homework.spec import COUNT, EXACT, PROBABILITY, WRITTEN, Question, no_numbers

ASSIGNMENT = "hw2-simulation"

#: The ranks a question names, as card codes print them: all but the jack, whose code
#: "J" a joker's "JK" would also start with.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Q", "K", "A")
#: A confidence level (percent) and its normal quantile z, as a decimal.
Z_BY_LEVEL = {90: "1.645", 95: "1.96", 99: "2.576"}
HALF_WIDTHS = ("0.005", "0.01", "0.015", "0.02", "0.025", "0.03", "0.04", "0.05")
EPSILONS = ("0.02", "0.025", "0.03", "0.04", "0.05", "0.06", "0.08", "0.1")
DELTAS = ("0.01", "0.02", "0.05", "0.1")


def _set_in_waiting(rng: random.Random) -> dict:
    """A shoe, a hand size and the event: ``size`` 2 to 4, ``naturals`` 1 to size - 1."""
    size = rng.randint(2, 4)
    return {
        "decks": rng.randint(1, 4),
        "jokers": rng.randint(1, 8),
        "cards": rng.randint(7, 15),
        "rank": rng.choice(RANKS),
        "size": size,
        "naturals": rng.randint(1, size - 1),
    }


def _simulation(rng: random.Random) -> dict:
    """A simulation's seed and number of hands, and an event of the same kind, from "a
    natural or a joker" (size 1, naturals 0) to a set, so that counts spread widely."""
    size = rng.randint(1, 3)
    return {
        "seed": rng.randrange(1, 1_000_000),
        "decks": rng.randint(1, 4),
        "jokers": rng.randint(1, 8),
        "cards": rng.randint(7, 15),
        "rank": rng.choice(RANKS),
        "size": size,
        "naturals": rng.randint(0, size - 1),
        "hands": rng.randint(200, 800),
    }


def _estimate(rng: random.Random) -> dict:
    return _set_in_waiting(rng) | {"hands": rng.randint(100, 5000)}


def _interval(rng: random.Random) -> dict:
    level = rng.choice(sorted(Z_BY_LEVEL))
    return _set_in_waiting(rng) | {
        "level": level,
        "z": Z_BY_LEVEL[level],
        "half_width": rng.choice(HALF_WIDTHS),
    }


def _misses(rng: random.Random) -> dict:
    """``intervals`` intervals at ``level`` percent; at most ``misses`` of them miss."""
    return {
        "intervals": rng.randint(10, 60),
        "level": rng.choice((80, 90, 95, 98, 99)),
        "misses": rng.randint(0, 4),
    }


def _chebyshev(rng: random.Random) -> dict:
    """A shoe and hand size, and Chebyshev's epsilon and delta for the mean of jokers."""
    return {
        "decks": rng.randint(1, 4),
        "jokers": rng.randint(1, 8),
        "cards": rng.randint(7, 15),
        "epsilon": rng.choice(EPSILONS),
        "delta": rng.choice(DELTAS),
    }


QUESTIONS = (
    Question(
        ASSIGNMENT,
        "q1",
        "p_set",
        PROBABILITY,
        _set_in_waiting,
        "the exact chance of a set of the rank in waiting",
    ),
    Question(
        ASSIGNMENT,
        "q2",
        "simulated_count",
        COUNT,
        _simulation,
        "the number of simulated hands with the event, by the stated procedure",
    ),
    Question(
        ASSIGNMENT, "q3", "var_p_hat", EXACT, _estimate, "the variance of the simulated share"
    ),
    Question(
        ASSIGNMENT,
        "q4",
        "hands_needed",
        COUNT,
        _interval,
        "the hands a normal interval of the stated half-width needs",
    ),
    Question(
        ASSIGNMENT, "q5", "p_misses", PROBABILITY, _misses, "at most a number of intervals miss"
    ),
    Question(
        ASSIGNMENT,
        "q6",
        "hands_chebyshev",
        COUNT,
        _chebyshev,
        "the hands Chebyshev's inequality needs for the mean number of jokers",
    ),
    Question(
        ASSIGNMENT,
        "q7",
        None,
        WRITTEN,
        no_numbers,
        "the simulation against the exact chance, and the law of large numbers",
    ),
)
