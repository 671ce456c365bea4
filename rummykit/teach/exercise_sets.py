"""Chapter 6's exercises as generators ``f(seed) -> Exercise``, listed in
:data:`GENERATORS` (and in the book's registry, :data:`rummykit.teach.EXERCISES`).

Each exercise has a list of shoes or hand sizes, :data:`OPTIONS` (at least 40): seed 0
gives the first, the book's numbers; seeds 1, 2, ... take the others in a fixed shuffled
order, each once before any repeats, so seeds 0-39 give 40 different variants (and 40
different answers, tested) and a student's variant differs from the book's.
The tests check every option's answer against an independent method (a formula written
out, a listing of every hand, a generating function or a simulation).

>>> from rummykit.teach import EXERCISES
>>> book = EXERCISES["ch6-one-joker"](0)
>>> print(book.question)
What is the chance that a 10-card hand from 2 decks and 4 jokers holds at least one joker?
>>> book.check("32.6%").correct, book.check("1/3").correct
(True, False)
>>> parameters("ch6-one-joker", 0), parameters("ch6-one-joker", 5) != parameters("ch6-one-joker", 0)
({'decks': 2, 'jokers': 4, 'cards': 10}, True)
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction

from rummykit.chance import chance_text
from rummykit.engine.cards import Rank, Shoe
from rummykit.engine.melds import check_meld
from rummykit.engine.rules import CONTRACTS, Contract, RuleSet
from rummykit.exercises import Exercise, check_seed, exercise
from rummykit.odds.counting.exact import dealt_probability, distance_distribution
from rummykit.teach.probability import (
    TWO_PAIRS_STATES,
    absorption_time,
    expected_ranks_with_at_least,
    hypergeom_pmf,
    matrix_power,
    prob_at_least_of_rank,
    prob_at_least_one_joker,
    sample_size,
    two_pairs_chain,
)

__all__ = ["BUILDERS", "GENERATORS", "OPTIONS", "RULES", "parameters"]

#: The rules of every exercise: the standard preset (a set needs 2 natural cards).
RULES = RuleSet.preset("standard")
#: Round 1's contract, two sets.
ROUND_1 = CONTRACTS[0]
#: z for a 95% normal interval.
Z_95 = Fraction(196, 100)

#: Per exercise key, the numbers each variant may take: the first is the book's.
OPTIONS: dict[str, tuple[dict, ...]] = {}
#: Per exercise key, ``build(**numbers) -> Exercise`` (the generator without the seed).
BUILDERS: dict[str, Callable[..., Exercise]] = {}


def _grid(**values: tuple) -> tuple[dict, ...]:
    """Every combination of ``values``; the first of each is the book's."""
    names = list(values)
    return tuple(
        dict(zip(names, combo, strict=True)) for combo in itertools.product(*values.values())
    )


def parameters(key: str, seed: int) -> dict:
    """The numbers of exercise ``key`` in the variant of ``seed``.

    >>> parameters("ch6-markov-wait", 0)
    {'decks': 2, 'jokers': 4}
    """
    check_seed(seed)
    options = OPTIONS[key]
    if seed == 0:
        return dict(options[0])
    return dict(options[1 + _order(key, len(options) - 1)[(seed - 1) % (len(options) - 1)]])


@functools.cache
def _order(key: str, size: int) -> tuple[int, ...]:
    """A fixed shuffle of ``range(size)``, its own for each exercise (string seeds are
    hashed by ``random`` with SHA-512, the same in every process)."""
    order = list(range(size))
    random.Random(f"order:{key}").shuffle(order)
    return tuple(order)


def _variants(key: str, options: tuple[dict, ...], *, worked: tuple[dict, ...] = ()) -> Callable:
    """Enter ``build(**numbers) -> Exercise`` and its ``options`` in :data:`BUILDERS` and
    :data:`OPTIONS` under ``key`` (its generator is made by :func:`_generator`). The
    ``worked`` options are left out: the book's text works them out, so no student's
    exercise is answered on the page (issue 49 item 12)."""

    def enter(build: Callable[..., Exercise]) -> Callable[..., Exercise]:
        OPTIONS[key] = tuple(numbers for numbers in options if numbers not in worked)
        BUILDERS[key] = build
        return build

    return enter


def _generator(key: str) -> Callable[[int], Exercise]:
    # The same numbers, the same exercise: counted once per process.
    cached = functools.lru_cache(maxsize=None)(BUILDERS[key])
    return exercise(key)(lambda seed: cached(**parameters(key, seed)))


def _shoe(decks: int, jokers: int) -> str:
    deck_word = "deck" if decks == 1 else "decks"
    joker_word = "no jokers" if jokers == 0 else f"{jokers} joker{'s' * (jokers > 1)}"
    return f"{decks} {deck_word} and {joker_word}"


def _p_no_joker(decks: int, jokers: int, cards: int) -> Fraction:
    return hypergeom_pmf(0, population=52 * decks + jokers, successes=jokers, draws=cards)


@_variants(
    "ch6-hands",
    _grid(decks=(2, 1, 3), jokers=(4, 0, 2, 6), cards=(10, 7, 11, 12)),
    # Chapters 1-3 count the hands of these shoes.
    worked=(
        {"decks": 2, "jokers": 4, "cards": 10},
        {"decks": 2, "jokers": 4, "cards": 11},
        {"decks": 2, "jokers": 4, "cards": 12},
        {"decks": 1, "jokers": 2, "cards": 10},
        {"decks": 1, "jokers": 2, "cards": 12},
        {"decks": 3, "jokers": 6, "cards": 10},
        {"decks": 3, "jokers": 6, "cards": 12},
    ),
)
def hands(decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 1: how many hands."""
    size = Shoe(decks, jokers).size
    return Exercise(
        "ch6-hands",
        f"How many different {cards}-card hands can be dealt from {_shoe(decks, jokers)}? "
        "(A hand is a set of physical cards.)\n\n"
        "Then check the formula on a small shoe, the eights and kings of two decks with two "
        "jokers (18 cards), by listing every 4-card hand.",
        math.comb(size, cards),
        hint=f"The shoe holds {size} cards; a hand chooses {cards} of them, order aside.",
        explanation=f"C({size}, {cards}) hands.",
    )


#: What exercise 2 counts among the sets of eights: (the words, the fewest copies of one
#: card a counted set holds, or 0 for the sets with no two identical cards).
_IDENTICAL = {
    "two": ("hold at least two identical cards (such as 8♥ 8♥)", 2),
    "three": ("hold at least three identical cards (such as 8♥ 8♥ 8♥)", 3),
    "none": ("hold no two identical cards", 0),
}


def _identical_options() -> tuple[dict, ...]:
    options = [{"decks": 2, "size": 3, "kind": "two"}]
    counts = {_identical_count(2, 3, "two")}
    for kind, decks, size in itertools.product(_IDENTICAL, range(2, 9), (3, 4, 5, 6)):
        # Only counts that are neither 0 nor every set (with 5 or more cards some suit
        # repeats; three copies of a card need three decks), each count once.
        if (kind != "three" and size > 4) or _IDENTICAL[kind][1] > decks:
            continue
        count = _identical_count(decks, size, kind)
        if count not in counts:
            counts.add(count)
            options.append({"decks": decks, "size": size, "kind": kind})
    return tuple(options)


def _identical_count(decks: int, size: int, kind: str) -> int:
    """The sets exercise 2 counts, and all the sets: by listing how many copies of each
    suit's eight a set holds (C(decks, c) ways to hold c of a suit's copies)."""
    copies = _IDENTICAL[kind][1]
    counted = 0
    for held in itertools.product(range(decks + 1), repeat=4):
        if sum(held) == size:
            ways = math.prod(math.comb(decks, c) for c in held)
            counted += ways * (max(held) >= copies if copies else max(held) <= 1)
    return counted


@_variants("ch6-identical-sets", _identical_options())
def identical_sets(decks: int, size: int, kind: str) -> Exercise:
    """Exercise 2: sets holding identical cards (:func:`_identical_count`)."""
    words = _IDENTICAL[kind][0]
    eights = [card for card in Shoe(decks, 0).cards if card.rank == Rank.EIGHT]
    assert check_meld(eights[:size], RULES).ok  # any `size` eights make a set
    total = math.comb(len(eights), size)
    counted = _identical_count(decks, size, kind)
    return Exercise(
        "ch6-identical-sets",
        f"{decks} decks hold {len(eights)} eights ({decks} of each suit). Of the "
        f"{total:,} different {size}-card sets of eights, how many {words}?",
        counted,
        hint="Count the sets with no repeated card (different suits, one copy of each), "
        "then take them away from all the sets."
        if kind == "two"
        else "A set is a choice of how many copies of each suit's eight it holds, "
        f"C({decks}, c) ways to hold c of them: list those choices.",
        explanation=f"C({len(eights)}, {size}) - C(4, {size}) x {decks}^{size}."
        if kind == "two"
        else f"C(4, {size}) x {decks}^{size}."
        if kind == "none"
        else "All the sets less those that hold at most two copies of each card.",
    )


@_variants(
    "ch6-one-joker", _grid(decks=(2, 1, 3), jokers=(4, 2, 6, 1, 3, 8), cards=(10, 7, 11, 12))
)
def one_joker(decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 3: at least one joker."""
    return Exercise(
        "ch6-one-joker",
        f"What is the chance that a {cards}-card hand from {_shoe(decks, jokers)} holds at "
        "least one joker?",
        prob_at_least_one_joker(decks=decks, jokers=jokers, cards=cards),
        hint="Take the complement: no joker means every card comes from the natural cards.",
        explanation=f"1 - C({52 * decks}, {cards}) / C({52 * decks + jokers}, {cards}).",
    )


@_variants(
    "ch6-at-least-of-rank",
    _grid(k=(3, 2, 4), decks=(2, 1, 3), jokers=(4, 2), cards=(10, 12, 11)),
)
def at_least_of_rank(k: int, decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 4: three of a rank (hypergeometric)."""
    eights = 4 * decks
    size = 52 * decks + jokers
    return Exercise(
        "ch6-at-least-of-rank",
        f"Let X be the number of eights in a {cards}-card hand from {_shoe(decks, jokers)}. "
        f"Find P(X ≥ {k}).",
        prob_at_least_of_rank(k, decks=decks, jokers=jokers, cards=cards),
        hint=f"X is hypergeometric: {eights} eights among {size} cards, {cards} drawn. Add "
        f"P(X = i) for i from {k} up, or take 1 minus the terms below {k}.",
        explanation=f"P(X = i) = C({eights}, i) C({size - eights}, {cards} - i) / "
        f"C({size}, {cards}).",
    )


@_variants("ch6-set-in-three", _grid(decks=(1, 2, 3, 4), jokers=(0, 2, 4, 1, 3, 5, 6, 8, 10, 12)))
def set_in_three(decks: int, jokers: int) -> Exercise:
    """Exercise 5: three cards that make a set (rummykit's exact count)."""
    return Exercise(
        "ch6-set-in-three",
        f"Three cards are dealt from {_shoe(decks, jokers)}. What is the chance that they make "
        "a set (three cards of one rank, at least two of them natural, so a pair and a joker "
        "count)? A fraction is best.",
        dealt_probability(Contract(sets=1), decks=decks, jokers=jokers, cards=3, rules=RULES),
        hint="Choose the rank, then either 3 of its natural cards, or 2 of them and a joker; "
        "divide by the number of 3-card hands.",
        explanation=f"(13 C({4 * decks}, 3) + 13 C({4 * decks}, 2) x {jokers}) / "
        f"C({52 * decks + jokers}, 3)."
        if jokers
        else f"13 C({4 * decks}, 3) / C({52 * decks}, 3).",
    )


@_variants(
    "ch6-inclusion-exclusion", _grid(decks=(1, 2, 3), cards=(7, *range(5, 7), *range(8, 19)))
)
def inclusion_exclusion(decks: int, cards: int) -> Exercise:
    """Exercise 6: at least one set among more cards (rummykit's exact count)."""
    shoe = "one deck" if decks == 1 else f"{decks} decks"
    return Exercise(
        "ch6-inclusion-exclusion",
        f"{cards} cards are dealt from {shoe} without jokers. What is the chance that they "
        f"hold at least one set ({'three or four of a kind' if decks == 1 else 'three or more cards of one rank'})?",
        dealt_probability(Contract(sets=1), decks=decks, jokers=0, cards=cards, rules=RULES),
        hint="Let A_r be '3 or more cards of rank r'. Use inclusion-exclusion over the ranks: "
        f"{cards} cards hold at most {cards // 3} such ranks.",
        explanation="13 P(A_1) - C(13, 2) P(A_1 and A_2) + ..., each term a sum of products "
        "of binomial coefficients.",
    )


@_variants(
    "ch6-joker-worth",
    _grid(decks=(2, 1, 3), jokers=(4, 1, 2, 3, 6, 8), cards=(10, 8, 11)),
)
def joker_worth(decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 7: P(set | at least one joker), from rummykit's exact counts."""
    one_set = Contract(sets=1)
    p_set = dealt_probability(one_set, decks=decks, jokers=jokers, cards=cards, rules=RULES)
    p_set_no_joker = dealt_probability(one_set, decks=decks, jokers=0, cards=cards, rules=RULES)
    p_none = _p_no_joker(decks, jokers, cards)
    return Exercise(
        "ch6-joker-worth",
        f"A {cards}-card hand from {_shoe(decks, jokers)} holds at least one joker. Given that, "
        "what is the chance that it holds a set (a pair and a joker make one)?\n\n"
        "Then compare it with the chance of a set when the hand holds no joker.",
        (p_set - p_none * p_set_no_joker) / (1 - p_none),
        hint="With a joker, there is no set only when the natural cards are all of different "
        "ranks. Condition on the number of jokers i, then divide by P(at least one joker).",
        explanation="P(no set | i jokers) = C(13, m) (4d)^m / C(52d, m) for m = n - i natural "
        "cards; P(set | J ≥ 1) = sum over i ≥ 1 of P(J = i) (1 - P(no set | i)) / P(J ≥ 1).",
    )


@_variants(
    "ch6-bayes",
    (
        {"decks": 2, "jokers": 4, "cards": 10},
        {"decks": 1, "jokers": 2, "cards": 10},
        {"decks": 2, "jokers": 2, "cards": 10},
        {"decks": 1, "jokers": 4, "cards": 11},
        {"decks": 3, "jokers": 6, "cards": 11},
        *(
            numbers
            for numbers in _grid(decks=(1, 2, 3), jokers=(1, 2, 3, 4, 6, 8), cards=(10, 11, 12))
            if numbers
            not in (
                {"decks": 2, "jokers": 4, "cards": 10},
                {"decks": 1, "jokers": 2, "cards": 10},
                {"decks": 2, "jokers": 2, "cards": 10},
                {"decks": 1, "jokers": 4, "cards": 11},
                {"decks": 3, "jokers": 6, "cards": 11},
            )
        ),
    ),
)
def bayes(decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 8: Bayes' rule, P(a joker | the contract), from rummykit's exact counts."""
    p_contract = dealt_probability(ROUND_1, decks=decks, jokers=jokers, cards=cards, rules=RULES)
    p_contract_no_joker = dealt_probability(
        ROUND_1, decks=decks, jokers=0, cards=cards, rules=RULES
    )
    p_none = _p_no_joker(decks, jokers, cards)
    return Exercise(
        "ch6-bayes",
        f"An opponent's {cards}-card hand ({_shoe(decks, jokers)}) holds round 1's contract, "
        "two sets. What is the chance that it holds at least one joker?",
        1 - p_none * p_contract_no_joker / p_contract,
        hint="Bayes' rule: P(no joker | contract) = P(no joker) P(contract | no joker) / "
        "P(contract). Given no joker, the hand is dealt from the natural cards alone.",
        explanation="1 - P(J = 0) P(C | J = 0) / P(C), with both P(C) counted exactly.",
    )


@_variants("ch6-sets-waiting", _grid(decks=(2, 1, 3), jokers=(4, 0, 2, 6), cards=(10, 7, 11, 12)))
def sets_waiting(decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 9: the expected number of sets of natural cards in a hand: ranks with 3
    or more natural cards (``teaching.expected_ranks_with_at_least(3, ...)``)."""
    return Exercise(
        "ch6-sets-waiting",
        f"A set of natural cards is 3 or more cards of one rank, no joker. Let S be the "
        f"number of ranks of which a {cards}-card hand ({_shoe(decks, jokers)}) holds 3 or "
        "more natural cards: the sets of natural cards it holds. What is E[S]?",
        expected_ranks_with_at_least(3, decks=decks, jokers=jokers, cards=cards),
        hint="Write S as a sum of 13 indicators, one per rank; expectation is linear even "
        "when the indicators are dependent.",
        explanation="13 P(X ≥ 3), with X the number of eights (hypergeometric, exercise 4).",
        chance=False,
    )


#: Exercise 10 prints P(D = d) to this many decimals of a percentage.
DISTANCE_DECIMALS = 2


def _printed_distance(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    """P(D = d) as exercise 10 prints it: a percentage to :data:`DISTANCE_DECIMALS`
    decimals (half up), as an exact Fraction of 1."""
    unit = Fraction(1, 100 * 10**DISTANCE_DECIMALS)
    return {d: math.floor(p / unit + Fraction(1, 2)) * unit for d, p in dist.items()}


@_variants(
    "ch6-mean-distance",
    (
        {"decks": 1, "jokers": 2, "cards": 10},
        {"decks": 1, "jokers": 0, "cards": 10},
        {"decks": 2, "jokers": 4, "cards": 10},
        {"decks": 1, "jokers": 2, "cards": 11},
        {"decks": 2, "jokers": 2, "cards": 12},
        *(
            numbers
            for numbers in _grid(decks=(1, 2, 3), jokers=(0, 1, 2, 3, 4, 6), cards=(10, 11, 12))
            if numbers
            not in (
                {"decks": 1, "jokers": 2, "cards": 10},
                {"decks": 1, "jokers": 0, "cards": 10},
                {"decks": 2, "jokers": 4, "cards": 10},
                {"decks": 1, "jokers": 2, "cards": 11},
                {"decks": 2, "jokers": 2, "cards": 12},
            )
        ),
    ),
)
def mean_distance(decks: int, jokers: int, cards: int) -> Exercise:
    """Exercise 10: the expected contract distance, from the exact distribution.

    The question prints the distribution, rounded; the exact mean is the answer, and any
    mean worked from the printed numbers is right too: the tolerance covers the printed
    values' own sum and every rounding of them (half a unit of each, times d).
    """
    dist = distance_distribution(ROUND_1, decks=decks, jokers=jokers, cards=cards, rules=RULES)
    mean = sum((d * p for d, p in dist.items()), Fraction(0))
    printed = _printed_distance(dist)
    from_printed = sum((d * p for d, p in printed.items()), Fraction(0))
    half_unit = Fraction(1, 2 * 100 * 10**DISTANCE_DECIMALS)
    # A reader's mean from the printed table, itself rounded to 4 significant figures.
    slack = abs(from_printed - mean) + half_unit * sum(dist) + mean / 2000
    shown = ", ".join(
        f"P(D = {d}) = {float(100 * p):.{DISTANCE_DECIMALS}f}%" for d, p in printed.items()
    )
    return Exercise(
        "ch6-mean-distance",
        f"`distance_distribution` gives the exact distribution of how many cards a dealt hand "
        f"lacks for a contract. What is the expected distance for round 1 (two sets) with "
        f"{cards} cards from {_shoe(decks, jokers)}? Rounded, its distribution is {shown}.\n\n"
        "Find the standard deviation of the distance too, and check both against 3,000 "
        "seeded deals.",
        mean,
        hint="E[D] = sum of d P(D = d) over the distribution.",
        explanation="The same sum with d² gives E[D²], and Var(D) = E[D²] - E[D]².",
        chance=False,
        tolerance=float(slack / mean),
    )


@_variants(
    "ch6-sample-size",
    (
        {"decks": 2, "jokers": 4, "cards": 10, "points": Fraction(2, 10)},
        {"decks": 2, "jokers": 4, "cards": 10, "points": Fraction(5, 10)},
        {"decks": 1, "jokers": 2, "cards": 10, "points": Fraction(2, 10)},
        {"decks": 1, "jokers": 2, "cards": 10, "points": Fraction(5, 10)},
        {"decks": 2, "jokers": 2, "cards": 10, "points": Fraction(3, 10)},
        {"decks": 3, "jokers": 6, "cards": 11, "points": Fraction(5, 10)},
        *(
            {"decks": d, "jokers": j, "cards": n, "points": Fraction(h, 10)}
            for d, j, n, h in itertools.product((1, 2, 3), (2, 4, 6), (10, 11), (3, 4, 10))
            if (d, j, n, h) != (2, 2, 10, 3)
        ),
    ),
)
def sample_size_for(decks: int, jokers: int, cards: int, points: Fraction) -> Exercise:
    """Exercise 11: how many simulated hands give a 95% interval of a given width."""
    p = dealt_probability(ROUND_1, decks=decks, jokers=jokers, cards=cards, rules=RULES)
    return Exercise(
        "ch6-sample-size",
        f"You want to estimate the chance of round 1 (two sets; {cards} cards, "
        f"{_shoe(decks, jokers)}) by simulation, with a 95% interval no wider than "
        f"± {float(points):g} percentage points. How many hands are needed? Use the exact "
        f"value, {chance_text(p, digits=3)}, as the guess for p.",
        sample_size(p, points / 100, Z_95),
        hint="The half-width is 1.96 sqrt(p (1 - p) / n); solve for n and round up.",
        explanation="n = 1.96² p (1 - p) / h², rounded up.",
        chance=False,
        # A reader who rounds p to the 3 figures shown lands within 1%.
        tolerance=0.01,
    )


@_variants("ch6-coverage", _grid(intervals=(200, *range(50, 200, 10), *range(210, 510, 10))))
def coverage(intervals: int) -> Exercise:
    """Exercise 12: the spread of the number of 95% intervals that cover."""
    return Exercise(
        "ch6-coverage",
        f"You simulate {intervals} independent estimates of a chance, each with its 95% "
        f"interval. The number K of intervals that contain the exact value is about "
        f"Binomial({intervals}, 0.95). What is the standard deviation of K?",
        math.sqrt(intervals * 0.95 * 0.05),
        hint="A binomial count has variance n p (1 - p).",
        explanation=f"E[K] = {0.95 * intervals:g}; a count within about two SDs of it is "
        "unremarkable.",
        tolerance=0.005,
        chance=False,
    )


def _chain_question(decks: int, jokers: int) -> str:
    return (
        f"You hold two pairs, 8♥ 8♠ and K♦ K♣, and need two sets. Each turn you draw one card "
        f"from a full shoe of {_shoe(decks, jokers)} ({52 * decks + jokers} cards, as if every "
        "card were put back), and keep it only when it brings you closer. The states are "
        + ", ".join(f"'{state}'" for state in TWO_PAIRS_STATES)
        + "."
    )


# Exercises 13 and 14 take 2 decks or more, so that every hand the chain can reach
# exists (one deck holds a single 8♥, already in the hand).
def _chain_options(draws: tuple[int, ...]) -> tuple[dict, ...]:
    """Shoes (and numbers of draws) for exercises 13 and 14, the book's first, each
    answer once: the chain's numbers scale with the shoe, so many shoes share one."""
    options, answers = [], set()
    shoes = itertools.product((2, 3, 4, 5, 6), range(13))
    for steps, (decks, jokers) in itertools.product(draws, itertools.chain([(2, 4)], shoes)):
        chain = two_pairs_chain(decks=decks, jokers=jokers)
        answer = absorption_time(chain) if not steps else matrix_power(chain, steps)[0][3]
        # An exact answer a reader can type (the box reads at most 100 characters).
        if answer not in answers and len(str(answer)) <= 60:
            answers.add(answer)
            options.append({"decks": decks, "jokers": jokers} | ({"draws": steps} if steps else {}))
    return tuple(options)


@_variants("ch6-markov-wait", _chain_options((0,)))
def markov_wait(decks: int, jokers: int) -> Exercise:
    """Exercise 13: the expected wait for two sets, a Markov chain's absorption time."""
    return Exercise(
        "ch6-markov-wait",
        _chain_question(decks, jokers) + " What is the expected number of draws until you "
        "hold both sets?",
        absorption_time(two_pairs_chain(decks=decks, jokers=jokers)),
        hint="First-step analysis: E[T] = 1 / P(leave 'two pairs') + the chance of each next "
        "state times its own expected wait.",
        explanation="The row sums of the fundamental matrix (I - Q)^-1.",
        chance=False,
    )


@_variants("ch6-markov-within", _chain_options((10, 5, 15, 20)))
def markov_within(draws: int, decks: int, jokers: int) -> Exercise:
    """Exercise 14: P(done within n draws), a power of the transition matrix."""
    done = matrix_power(two_pairs_chain(decks=decks, jokers=jokers), draws)[0][3]
    return Exercise(
        "ch6-markov-within",
        _chain_question(decks, jokers) + f" What is the chance of holding both sets within "
        f"{draws} draws?",
        done,
        hint=f"Take the transition matrix to the power {draws}: the entry in the first row "
        "(two pairs) and the last column (done).",
        explanation=f"(P^{draws}) in row 'two pairs', column 'done'.",
    )


#: Chapter 6's generators, ``generator(seed) -> Exercise``, in the chapter's order.
GENERATORS = tuple(
    _generator(key)
    for key in (
        "ch6-hands",
        "ch6-identical-sets",
        "ch6-one-joker",
        "ch6-at-least-of-rank",
        "ch6-set-in-three",
        "ch6-inclusion-exclusion",
        "ch6-joker-worth",
        "ch6-bayes",
        "ch6-sets-waiting",
        "ch6-mean-distance",
        "ch6-sample-size",
        "ch6-coverage",
        "ch6-markov-wait",
        "ch6-markov-within",
    )
)
