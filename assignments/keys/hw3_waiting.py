"""The answer key of assignment 3, ``hw3-waiting`` (ships only in the autograder zip).

``KEY[question](numbers) -> Expected``. The chain of questions 4 to 6 is kept as counts out
of ``unseen`` (every transition probability is a count over the unseen cards), so its
powers and its simulation stay in integers.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import accumulate

from rummykit.teach.grading.marking import Expected, Mistake

ASSIGNMENT = "hw3-waiting"


# --- questions 1 and 2: without replacement -----------------------------------------------


def _unseen_and_wanted(n: dict) -> tuple[int, int]:
    """The unseen cards N (the shoe less the hand and the pile) and the m among them that
    make the set: the 8s not in the hand (the pile shows none) and the jokers."""
    unseen = 52 * n["decks"] + n["jokers"] - n["cards"] - n["seen"]
    return unseen, 4 * n["decks"] - 2 + n["jokers"]


def q1(n: dict) -> Expected:
    N, m = _unseen_and_wanted(n)
    right = Fraction(N + 1, m + 1)
    return Expected.exact(
        right,
        checked="the expected position of the first 8 or joker among your unseen cards",
        hint="count the unseen cards N and, among them, the 8s and jokers m; the m cards cut "
        "the others into m + 1 gaps",
        mistakes=[
            Mistake(Fraction(N, m), "N / m: the mean wait with replacement (a geometric)"),
            Mistake(Fraction(N + 1, m + 3), "the wait counting your two 8s as still to come"),
        ],
    )


def q2(n: dict) -> Expected:
    N, m = _unseen_and_wanted(n)
    t = n["draws"]
    miss = Fraction(1)
    for i in range(t):
        miss *= Fraction(N - m - i, N - i)
    right = 1 - miss
    exactly_one = t * Fraction(m, N)  # the first draw wanted, the next t - 1 not, in t orders
    for i in range(t - 1):
        exactly_one *= Fraction(N - m - i, N - 1 - i)
    return Expected.exact(
        right,
        checked="the chance of at least one 8 or joker in your next draws from the stock",
        hint="take the complement: none of the m wanted cards among the t you draw, "
        "C(N - m, t) / C(N, t)",
        mistakes=[
            Mistake(1 - (1 - Fraction(m, N)) ** t, "the chance with replacement"),
            Mistake(exactly_one, "the chance of exactly one 8 or joker"),
        ],
    )


# --- question 3: with replacement -----------------------------------------------------------


def q3(n: dict) -> Expected:
    miss = 1 - Fraction(n["jokers"], 52 * n["decks"] + n["jokers"])
    first, last = n["first"], n["last"]
    right = miss ** (first - 1) - miss**last
    return Expected.exact(
        right,
        checked="the chance the first joker comes on one of turns first to last",
        hint="P(T > k) = (1 - p)^k for a geometric T; the window is P(T > first - 1) - P(T > last)",
        mistakes=[
            Mistake(miss**first - miss**last, "the chance for turns first + 1 to last"),
            Mistake(1 - miss**last, "the chance of a joker by turn last"),
        ],
    )


# --- questions 4 to 6: the chain --------------------------------------------------------------


def states(need: int) -> list:
    """The chain's states in the questions' order: (naturals kept, joker kept) without the
    joker, then with it, then "done"."""
    return [(k, 0) for k in range(need)] + [(k, 1) for k in range(need - 1)] + ["done"]


@cache
def _chain(unseen: int, outs: int, jokers: int, need: int) -> tuple[tuple[int, ...], ...]:
    """The transition matrix as counts out of ``unseen``: row i, column j holds ``unseen``
    times P(state i -> state j)."""
    order = states(need)
    index = {state: i for i, state in enumerate(order)}

    def to(naturals: int, joker: int) -> int:
        return index["done"] if naturals + joker == need else index[(naturals, joker)]

    rows = []
    for state in order:
        row = [0] * len(order)
        if state == "done":
            row[index["done"]] = unseen
        else:
            naturals, joker = state
            row[to(naturals + 1, joker)] += outs - naturals
            helps = outs - naturals
            if joker == 0:
                row[to(naturals, 1)] += jokers
                helps += jokers
            row[index[state]] += unseen - helps
        rows.append(tuple(row))
    return tuple(rows)


def _rows(n: dict, jokers: int | None = None) -> tuple[tuple[int, ...], ...]:
    return _chain(n["unseen"], n["outs"], n["jokers"] if jokers is None else jokers, n["need"])


def _expected_turns(rows: tuple[tuple[int, ...], ...], unseen: int) -> Fraction:
    """First-step analysis from state 0: t_i = (unseen + sum_{j != i} c_ij t_j) / (unseen -
    c_ii), solved last state first (the chain only moves to later states or stays)."""
    times = [Fraction(0)] * len(rows)
    for i in range(len(rows) - 2, -1, -1):
        moves = sum(c * times[j] for j, c in enumerate(rows[i]) if j != i)
        times[i] = (unseen + moves) / (unseen - rows[i][i])
    return times[0]


def _unlimited_jokers(n: dict) -> Fraction:
    """The expected turns if every joker helped (no limit of one)."""
    unseen, outs, jokers, need = n["unseen"], n["outs"], n["jokers"], n["need"]

    @cache
    def turns(naturals: int, used: int) -> Fraction:
        if naturals + used == need:
            return Fraction(0)
        helps = outs - naturals + jokers
        rest = (outs - naturals) * turns(naturals + 1, used) + jokers * turns(naturals, used + 1)
        return (unseen + rest) / helps

    return turns(0, 0)


def q4(n: dict) -> Expected:
    right = _expected_turns(_rows(n), n["unseen"])
    no_jokers = sum(Fraction(n["unseen"], n["outs"] - k) for k in range(n["need"]))
    return Expected.exact(
        right,
        checked="the chain's expected number of turns from the start until done",
        hint="write t for each state: t = 1 + sum over next states of P(next) t(next), with "
        "t(done) = 0, and solve from the states nearest done back to the start",
        mistakes=[
            Mistake(no_jokers, "the expected turns without the joker's path"),
            Mistake(_unlimited_jokers(n), "the expected turns if every joker helped"),
        ],
    )


def _p_done(rows: tuple[tuple[int, ...], ...], unseen: int, turns: int) -> Fraction:
    """Row 0, column "done" of P^turns: the distribution stepped ``turns`` times, in counts
    out of unseen^turns."""
    counts = [1] + [0] * (len(rows) - 1)
    for _ in range(turns):
        counts = [sum(counts[i] * rows[i][j] for i in range(len(rows))) for j in range(len(rows))]
    return Fraction(counts[-1], unseen**turns)


def q5(n: dict) -> Expected:
    rows, unseen, turns = _rows(n), n["unseen"], n["turns"]
    right = _p_done(rows, unseen, turns)
    return Expected.exact(
        right,
        checked="the chance the chain is done within your number of turns",
        hint="step the distribution over the states one turn at a time (or take the power "
        "P^t of the transition matrix): the answer is the start row's 'done' entry",
        mistakes=[
            Mistake(_p_done(rows, unseen, turns - 1), "the chance within one turn fewer"),
            Mistake(_p_done(_rows(n, jokers=0), unseen, turns), "the chance without jokers"),
        ],
    )


#: 2**53: random.random() returns a multiple of 1 / 2**53, so u < c / unseen compares in ints.
_SCALE = 1 << 53


def simulated_turns(n: dict) -> int:
    """The stated simulation: ``runs`` runs from state 0 until done, each step's next state
    the first j with u < cumulative P[state][j] (exactly), u = rng.random(); the total
    number of steps."""
    rows, unseen = _rows(n), n["unseen"]
    cumulative = [[c * _SCALE for c in accumulate(row)] for row in rows]
    done = len(rows) - 1
    rng = random.Random(n["seed"])
    total = 0
    for _ in range(n["runs"]):
        state = 0
        while state != done:
            u = int(rng.random() * _SCALE) * unseen
            for j, bound in enumerate(cumulative[state]):
                if u < bound:
                    state = j
                    break
            total += 1
    return total


def q6(n: dict) -> Expected:
    right = simulated_turns(n)
    return Expected.exact(
        right,
        checked="the total number of turns over all runs of the stated simulation",
        hint="follow the procedure to the letter: one Random(seed) for all runs, the states "
        "in the stated order, exact Fraction cumulative sums, and count every turn",
        mistakes=[Mistake(right - n["runs"], "the total without each run's last turn")],
    )


KEY = {"q1": q1, "q2": q2, "q3": q3, "q4": q4, "q5": q5, "q6": q6}
