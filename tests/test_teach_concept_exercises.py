"""Chapter 9's exercises (rummykit.teach.concept_exercises): 40 different answers over seeds
0-39 for every question, and each answer recomputed from the question's own words by an
independent method (a sum over the distribution, a count over the cards it names)."""

from __future__ import annotations

import itertools
import re
import statistics
from fractions import Fraction
from math import ceil, comb, sqrt

import pytest

from rummykit import CONTRACTS, RuleSet, parse_cards
from rummykit.engine.cards import Suit
from rummykit.engine.search import contract_distance
from rummykit.teach import EXERCISES
from rummykit.teach.concept_exercises import VARIANTS, variant
from rummykit.teach.probability import hypergeom_pmf
from tests.support.tiers import slow

KEYS = sorted(VARIANTS)
SEEDS = range(40)
RULES = RuleSet.preset("standard")


def test_every_chapter_9_exercise_is_in_the_book_registry():
    assert sorted(key for key in EXERCISES if key.startswith("ch9-")) == KEYS
    assert len(KEYS) == 9


@pytest.mark.parametrize("key", [slow(key, id=key) if key == "ch9-paired" else key for key in KEYS])
def test_forty_students_get_forty_different_answers(key):
    answers = [EXERCISES[key](seed).answer for seed in SEEDS]
    assert len(set(answers)) == 40


@pytest.mark.parametrize("key", KEYS)
def test_seed_zero_is_the_books_variant_and_a_seed_picks_one_by_remainder(key):
    assert variant(key, 0) == VARIANTS[key][0]
    assert variant(key, len(VARIANTS[key]) + 3) == VARIANTS[key][3]


@pytest.mark.parametrize("key", KEYS)
def test_the_right_answer_is_accepted_and_a_wrong_one_is_not(key):
    ex = EXERCISES[key](5)
    assert ex.check(str(ex.answer)).correct
    assert not ex.check(str(ex.answer * 2 + 1)).correct


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("seed", range(0, 40, 7))
def test_fpc_is_the_variance_summed_over_the_distribution(seed):
    ex = EXERCISES["ch9-fpc"](seed)
    cards, decks, jokers = _numbers(ex.question)[:3]
    population = 52 * decks + jokers
    pmf = [
        hypergeom_pmf(k, population=population, successes=4 * decks, draws=cards)
        for k in range(cards + 1)
    ]
    mean = sum(k * p for k, p in enumerate(pmf))
    assert ex.answer == sum(k * k * p for k, p in enumerate(pmf)) - mean * mean


@pytest.mark.parametrize("seed", SEEDS)
def test_next_heart_counts_the_unseen_hearts_the_question_implies(seed):
    ex = EXERCISES["ch9-next-heart"](seed)
    held = re.search(r"You hold (.*?) \(two decks", ex.question).group(1)
    pile = re.search(r"pile shows (.*?)\. What", ex.question).group(1)
    seen = list(parse_cards(held)) + ([] if pile == "nothing" else list(parse_cards(pile)))
    hearts = sum(card.suit is Suit.HEARTS for card in seen)
    assert len(list(parse_cards(held))) == 10
    assert ex.answer == Fraction(26 - hearts, 108 - len(seen))


@pytest.mark.parametrize("seed", range(0, 40, 5))
def test_wait_is_the_mean_of_every_ordering(seed):
    ex = EXERCISES["ch9-wait"](seed)
    unseen, wanted = _numbers(ex.question)[:2]
    total = comb(unseen, wanted)
    # The first wanted card comes at t when the others are all after t: C(U - t, K - 1) ways.
    mean = Fraction(sum(t * comb(unseen - t, wanted - 1) for t in range(1, unseen + 1)), total)
    assert ex.answer == mean


@pytest.mark.parametrize("seed", range(0, 40, 5))
def test_censored_is_the_chance_neither_card_comes_in_time(seed):
    ex = EXERCISES["ch9-censored"](seed)
    unseen, limit = _numbers(ex.question)[:2]
    misses = sum(1 for spots in itertools.combinations(range(unseen), 2) if min(spots) >= limit)
    assert ex.answer == Fraction(misses, comb(unseen, 2))


@pytest.mark.parametrize("seed", range(0, 40, 5))
def test_chebyshev_is_the_smallest_n_the_bound_allows(seed):
    ex = EXERCISES["ch9-chebyshev"](seed)
    p = Fraction(re.search(r"p = (\d+/\d+)", ex.question).group(1))
    n = ex.answer
    bound = lambda m: p * (1 - p) / (m * Fraction(1, 100) ** 2)  # noqa: E731
    assert bound(n) <= Fraction(5, 100) < bound(n - 1)
    assert n == ceil(p * (1 - p) / (Fraction(5, 100) * Fraction(1, 100) ** 2))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 13, 27])
def test_paired_is_the_difference_counted_over_every_pair_of_physical_cards(seed):
    ex = EXERCISES["ch9-paired"](seed)
    held = re.search(r"You hold (.*?) and must", ex.question).group(1)
    came = re.search(r"can come: (.*?)\. By how", ex.question).group(1)
    first, second = re.search(r"discarding (\S+) beat discarding (\S+):", ex.question).groups()
    cards = list(parse_cards(f"{held} {came}"))
    hand, unseen = cards[:9], cards[9:]

    def chance(code):
        left = list(hand)
        left.remove(next(card for card in hand if str(card) == code))
        wins = sum(
            contract_distance([*left, x, y], CONTRACTS[0], RULES) == 0
            for x, y in itertools.combinations(unseen, 2)
        )
        return Fraction(wins, comb(len(unseen), 2))

    assert ex.answer == chance(first) - chance(second)


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_buy_pairing_is_the_half_width_of_the_deals_listed_one_by_one(seed):
    ex = EXERCISES["ch9-buy-pairing"](seed)
    n, both, only_buy, only_never = _numbers(ex.question)[:4]
    assert both + only_buy + only_never <= n
    d = [1] * only_buy + [-1] * only_never + [0] * (n - only_buy - only_never)
    half = 1.96 * statistics.stdev(d) / sqrt(n)
    assert ex.answer == pytest.approx(half, rel=1e-4)  # the answer is kept to 6 decimals
    assert ex.check(f"{half:.4g}").correct
    assert not ex.check(f"{half * 1.05:.4g}").correct


def _at_least_decimal(games: int, players: int, p: Fraction, target: Fraction) -> bool:
    """1 - exp(-G n p) >= target, decided with 50 digits (not the float the key uses)."""
    from decimal import Decimal, getcontext

    getcontext().prec = 50
    rate = Decimal(players) * Decimal(p.numerator) / Decimal(p.denominator)
    need = -(1 - Decimal(target.numerator) / Decimal(target.denominator)).ln()
    return Decimal(games) * rate >= need


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_poisson_is_the_smallest_number_of_games_the_approximation_allows(seed):
    ex = EXERCISES["ch9-poisson"](seed)
    numbers = variant("ch9-poisson", seed)
    found = re.search(r"chance p = (\d+)/(\d+)", ex.question)
    p = Fraction(int(found.group(1)), int(found.group(2)))
    target = Fraction(re.search(r"at least (\d+/\d+)", ex.question).group(1))
    assert target == numbers["target"] and f"{numbers['players']} players" in ex.question
    # The question's p is the table's: round 7's chance from the standard shoe for the table.
    from rummykit.odds import dealt_probability

    decks = RULES.decks_for(numbers["players"])
    assert p == dealt_probability(
        CONTRACTS[6], decks=decks, jokers=RULES.jokers_for(decks), cards=12, rules=RULES
    )
    games = ex.answer
    assert _at_least_decimal(games, numbers["players"], p, target)
    assert not _at_least_decimal(games - 1, numbers["players"], p, target)
