"""The graded assignments' questions, one generator per question: ``QUESTIONS[key](seed)``
is the :class:`Question` of a student's seed, with the numbers shown to the student and the
answer the autograder checks.

An exact answer (a count, a chance, an expectation) is checked as a Fraction: an int or a
Fraction equal to it is right, a float is not (the question asks for the exact value). A
simulated answer is right inside the interval the question states (4 standard errors of
the exact value, missed by a correct simulation about once in 16,000 runs). A value read
from a data table is right within the tolerance the question states.

>>> q = QUESTIONS["a1-hands"](0)
>>> q.numbers, q.mark(q.answer).correct, q.mark(q.answer + 1).correct
({'decks': 2, 'jokers': 4, 'cards': 10}, True, False)
>>> QUESTIONS["a1-one-joker"](0).mark(0.326).message
'not exact: give the exact chance as a Fraction (fractions.Fraction), not a float'
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from rummykit.checks import instance
from rummykit.errors import ArgumentError
from rummykit.exercises import check_seed
from rummykit.odds.counting.exact import dealt_probability
from rummykit.teach.exercise_sets import ROUND_1, RULES, parameters
from rummykit.teach.outs_exercises import dealt_outs
from rummykit.teach.probability import absorption_time, two_pairs_chain
from rummykit.teach.registry import EXERCISES

__all__ = ["OUTS_BOT_CSV", "QUESTIONS", "Mark", "Question", "mark", "numbers", "question"]

#: Every question generator, by key: ``QUESTIONS[key](seed) -> Question``.
QUESTIONS: dict[str, Callable[[int], Question]] = {}


@dataclasses.dataclass(frozen=True)
class Mark:
    """The autograder's verdict on one answer."""

    correct: bool
    message: str


@dataclasses.dataclass(frozen=True)
class Question:
    """One question of an assignment, for one seed."""

    key: str
    seed: int
    numbers: dict
    """The student's numbers, shown in the notebook."""
    answer: int | Fraction | float
    kind: str = "exact"
    """``"exact"`` (checked as a Fraction), ``"interval"`` (``low`` to ``high``)."""
    low: float | None = None
    high: float | None = None

    def mark(self, value: object) -> Mark:
        """Whether ``value`` answers the question; the message says why not."""
        if value is Ellipsis or value is None:
            return Mark(False, "no answer: the cell still holds ...")
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            return Mark(False, f"not a number: got {type(value).__name__} {value!r}")
        if self.kind == "exact":
            if isinstance(value, float):
                return Mark(
                    False,
                    "not exact: give the exact chance as a Fraction (fractions.Fraction), "
                    "not a float",
                )
            if Fraction(value) == Fraction(self.answer):
                return Mark(True, "right")
            return Mark(False, "not the exact value")
        if not math.isfinite(float(value)):
            return Mark(False, f"not a finite number: {value!r}")
        if self.low <= float(value) <= self.high:
            return Mark(True, "right: inside the interval the question states")
        return Mark(False, "outside the interval the question states")


def question(key: str) -> Callable:
    """Register ``f(seed) -> (numbers, answer[, kind, low, high])`` as question ``key``."""

    def register(make: Callable) -> Callable[[int], Question]:
        @functools.lru_cache(maxsize=256)
        def generate(seed: int) -> Question:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise ArgumentError(f"seed must be an int, 0 or more, got {seed!r}")
            numbers, answer, *interval = make(seed)
            if interval:
                low, high = interval
                return Question(key, seed, numbers, answer, "interval", float(low), float(high))
            return Question(key, seed, numbers, answer)

        if key in QUESTIONS:
            raise ArgumentError(f"a question is already registered as {key!r}")
        QUESTIONS[key] = generate
        return generate

    return register


def _book(key: str, seed: int) -> tuple[dict, int | Fraction]:
    return parameters(key, seed), EXERCISES[key](seed).answer


def _four_standard_errors(mean: float, sd: float, n: int) -> tuple[float, float]:
    half = 4 * sd / math.sqrt(n)
    return mean - half, mean + half


# --- assignment 1: counting and the hypergeometric ----------------------------------------


@question("a1-hands")
def _hands(seed: int):
    return _book("ch6-hands", seed)


@question("a1-one-joker")
def _one_joker(seed: int):
    return _book("ch6-one-joker", seed)


@question("a1-at-least-of-rank")
def _at_least(seed: int):
    return _book("ch6-at-least-of-rank", seed)


@question("a1-joker-variance")
def _joker_variance(seed: int):
    numbers = parameters("ch6-one-joker", seed)
    size = 52 * numbers["decks"] + numbers["jokers"]
    n, share = numbers["cards"], Fraction(numbers["jokers"], size)
    return numbers, n * share * (1 - share) * Fraction(size - n, size - 1)


# --- assignment 2: exact against simulated --------------------------------------------------

#: Hands a student simulates in assignment 2.
SIMULATED_HANDS = 4000


def _contract_numbers(seed: int) -> dict:
    # Chapter 6 exercise 8's shoes and hand sizes: 54 of them.
    return parameters("ch6-bayes", seed)


def _contract_p(numbers: dict) -> Fraction:
    return dealt_probability(ROUND_1, rules=RULES, **numbers)


@question("a2-exact")
def _exact(seed: int):
    numbers = _contract_numbers(seed)
    return numbers, _contract_p(numbers)


@question("a2-simulated")
def _simulated(seed: int):
    numbers = _contract_numbers(seed)
    p = float(_contract_p(numbers))
    return (
        numbers | {"n": SIMULATED_HANDS},
        p,
        *_four_standard_errors(p, math.sqrt(p * (1 - p)), SIMULATED_HANDS),
    )


@question("a2-sample-size")
def _sample_size(seed: int):
    return _book("ch6-sample-size", seed)[0], EXERCISES["ch6-sample-size"](seed).answer


@question("a2-coverage-variance")
def _coverage(seed: int):
    numbers = parameters("ch6-coverage", seed)
    return numbers, numbers["intervals"] * Fraction(95, 100) * Fraction(5, 100)


# --- assignment 3: waiting times and a Markov chain -----------------------------------------


@functools.cache
def _first_joker_shoes() -> list[tuple[int, int]]:
    """Shoes of 1 to 4 decks and 1 to 16 jokers, the book's first, one per answer."""
    shoes, answers = [], set()
    for decks, jokers in [(2, 4), *((d, j) for d in (1, 2, 3, 4) for j in range(1, 17))]:
        answer = Fraction(52 * decks + jokers + 1, jokers + 1)
        if answer not in answers:
            answers.add(answer)
            shoes.append((decks, jokers))
    return shoes


@question("a3-first-joker")
def _first_joker(seed: int):
    shoes = _first_joker_shoes()
    order = list(range(1, len(shoes)))
    random.Random("a3-first-joker").shuffle(order)
    decks, jokers = shoes[0 if seed == 0 else order[(seed - 1) % len(order)]]
    size = 52 * decks + jokers
    # The position of the first of j marked cards in a shuffled deck of N: (N + 1) / (j + 1).
    return {"decks": decks, "jokers": jokers}, Fraction(size + 1, jokers + 1)


@question("a3-markov-wait")
def _markov_wait(seed: int):
    return _book("ch6-markov-wait", seed)


@question("a3-markov-within")
def _markov_within(seed: int):
    return _book("ch6-markov-within", seed)


#: Runs of the chain a student simulates in assignment 3.
SIMULATED_RUNS = 2000


@question("a3-simulated-wait")
def _simulated_wait(seed: int):
    numbers = parameters("ch6-markov-wait", seed)
    chain = two_pairs_chain(**numbers)
    mean = absorption_time(chain)
    # E[T^2] by first-step analysis: m2 = 2 E[T] - 1 on a geometric step, solved by the
    # same elimination with the rewards 2 t - 1 (t the expected times) in place of 1.
    times = [absorption_time(chain, start) for start in range(3)]
    second = _second_moment(chain, times)
    sd = math.sqrt(float(second - mean**2))
    return (
        numbers | {"runs": SIMULATED_RUNS},
        float(mean),
        *_four_standard_errors(float(mean), sd, SIMULATED_RUNS),
    )


def _second_moment(chain: list[list[Fraction]], times: list[Fraction]) -> Fraction:
    """E[T^2] from state 0: s_i = 1 + sum_j Q_ij (2 t_j + s_j), solved backward (the
    chain's transient states only move forward: 0 -> 1, 2 -> done)."""
    s = [Fraction(0)] * 3
    for i in (2, 1, 0):
        stay = chain[i][i]
        rest = sum(chain[i][j] * (2 * times[j] + s[j]) for j in range(3) if j != i)
        s[i] = (1 + stay * 2 * times[i] + rest) / (1 - stay)
    return s[0]


# --- assignment 4: a decision by expected value, and a paired comparison ---------------------


@question("a4-penalty-card")
def _penalty_card(seed: int):
    """Buying takes the upcard and a penalty card: the expected points of the hand and the
    penalty card (the hand's points plus the mean over the unseen cards) if someone goes
    out before you can meld."""
    hand, pile, _ = dealt_outs("a4-penalty-card", seed, seen=seed % 40)
    left = list(_shoe_cards())
    for card in [*hand, *pile]:
        left.remove(next(c for c in left if c.code == card.code))
    points = [RULES.point_value(card) for card in left]
    numbers = {"hand": " ".join(card.code for card in hand), "pile": " ".join(c.code for c in pile)}
    held = sum(RULES.point_value(card) for card in hand)
    return numbers, held + Fraction(sum(points), len(points))


@functools.cache
def _shoe_cards() -> tuple:
    from rummykit.cards import Shoe

    return Shoe(decks=2, jokers=4).cards


@functools.cache
def _outs_bot_rows() -> tuple[dict, ...]:
    import csv

    path = Path(__file__).resolve().parents[2] / "data" / "outs_bot.csv"
    rows, seen = [], set()
    with path.open(newline="") as file:
        for row in csv.DictReader(file):
            value = (row["difference"], row["difference_stderr"])
            if row["bot"] == "outs" and float(row["difference_stderr"]) > 0 and value not in seen:
                seen.add(value)
                rows.append(row)
    return tuple(rows)


def _outs_bot_row(seed: int) -> tuple[dict, int]:
    """A row of data/outs_bot.csv and a confidence level: the first row at 95% for seed
    0, then every other (row, level) once in a fixed shuffled order."""
    rows, levels = _outs_bot_rows(), list(LEVELS)
    pairs = [(r, level) for r in range(len(rows)) for level in levels][1:]
    random.Random("a4-rows").shuffle(pairs)
    row, level = (0, 95) if seed == 0 else pairs[(seed - 1) % len(pairs)]
    return rows[row], level


#: The confidence levels of assignment 4's interval, with their normal z.
LEVELS = {95: 1.96, 90: 1.645, 99: 2.576}


@question("a4-paired-low")
def _paired_low(seed: int):
    row, level = _outs_bot_row(seed)
    low = float(row["difference"]) - LEVELS[level] * float(row["difference_stderr"])
    numbers = {
        "round": int(row["round"]),
        "measure": row["measure"],
        "turn": int(row["turn"]) if row["turn"] else None,
        "level": level,
    }
    return numbers, low, low - 1e-4, low + 1e-4


#: The table of chapter 7's strategy comparison that assignment 4 reads.
OUTS_BOT_CSV = Path(__file__).resolve().parents[2] / "data" / "outs_bot.csv"


def _check(key: object, seed: object) -> None:
    instance("key", key, str, "a question key (str)")
    if key not in QUESTIONS:
        raise ArgumentError(f"no question registered as {key!r}; known: {sorted(QUESTIONS)}")
    check_seed(seed)


def numbers(key: str, seed: int) -> dict:
    """The numbers of question ``key`` for ``seed``, as the student's notebook shows them
    (never the answer).

    >>> numbers("a1-hands", 0)
    {'decks': 2, 'jokers': 4, 'cards': 10}
    """
    _check(key, seed)
    return dict(QUESTIONS[key](seed).numbers)


def mark(key: str, seed: int, value: object) -> Mark:
    """The autograder's verdict on ``value`` as the answer to ``key`` for ``seed``.

    >>> mark("a3-markov-wait", 0, Fraction(342, 25))
    Mark(correct=True, message='right')
    """
    _check(key, seed)
    return QUESTIONS[key](seed).mark(value)
