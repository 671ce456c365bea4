"""rummykit.teach.concepts against independent methods: sums over the distribution, lists of
every hand or ordering of a small shoe, and simulations within four standard errors."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections import Counter
from fractions import Fraction
from math import comb, sqrt

import pytest

from rummykit import CONTRACTS, Card, Rank, RuleSet, Shoe, parse_cards
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.teach import concepts
from rummykit.teach.concepts import (
    binomial_limit,
    censored_waits,
    hypergeom_moments,
    kaplan_meier,
    kept_two_chance,
    paired_counts,
    paired_discards,
    set_count_moments,
    stock_position_chances,
    waiting_time_mean,
    waiting_time_pmf,
    waiting_time_survival,
)
from rummykit.teach.probability import hypergeom_pmf, mini_shoe

RULES = RuleSet.preset("standard")


@pytest.mark.parametrize(
    ("population", "successes", "draws"),
    [(108, 8, 10), (54, 4, 11), (7, 3, 7), (1, 1, 1), (30, 0, 5)],
)
def test_hypergeometric_moments_are_the_sums_over_its_distribution(population, successes, draws):
    pmf = [
        hypergeom_pmf(k, population=population, successes=successes, draws=draws)
        for k in range(draws + 1)
    ]
    mean = sum(k * p for k, p in enumerate(pmf))
    variance = sum(k * k * p for k, p in enumerate(pmf)) - mean * mean
    assert hypergeom_moments(population=population, successes=successes, draws=draws) == (
        mean,
        variance,
    )


def test_the_binomial_limit_is_approached_as_the_decks_grow():
    frame = binomial_limit(decks=(1, 2, 3, 8))
    limit = dict(frame.filter(shoe="binomial limit").select("k", "p").iter_rows())
    gaps = []
    for shoe in ("1 deck", "2 decks", "3 decks", "8 decks"):
        rows = dict(frame.filter(shoe=shoe).select("k", "p").iter_rows())
        assert sum(rows.values()) == pytest.approx(1)
        gaps.append(sum(abs(rows.get(k, 0) - p) for k, p in limit.items()))
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < gaps[0] / 4


def _sets(hand, size=3):
    return sum(
        1 for n in Counter(card.rank for card in hand if not card.is_joker).values() if n >= size
    )


def test_the_variance_of_the_number_of_sets_matches_a_list_of_every_hand():
    shoe = mini_shoe(2, 1, (Rank.EIGHT, Rank.KING, Rank.ACE))  # 25 cards
    counts = Counter(_sets(hand) for hand in itertools.combinations(shoe, 6))
    total = sum(counts.values())
    assert total == comb(25, 6)
    mean = Fraction(sum(x * n for x, n in counts.items()), total)
    variance = Fraction(sum(x * x * n for x, n in counts.items()), total) - mean * mean
    got_mean, got_variance, independent = set_count_moments(decks=2, jokers=1, cards=6, ranks=3)
    assert (got_mean, got_variance) == (mean, variance)
    assert got_variance < independent  # the indicators are negatively correlated


def test_the_number_of_sets_in_a_real_hand_matches_a_simulation():
    mean, variance, _ = set_count_moments(decks=2, jokers=4, cards=10)
    rng = random.Random(5)
    cards = Shoe(decks=2, jokers=4).cards
    values = [_sets(rng.sample(cards, 10)) for _ in range(4000)]
    m = sum(values) / len(values)
    v = sum((x - m) ** 2 for x in values) / (len(values) - 1)
    assert abs(m - float(mean)) <= 4 * sqrt(float(variance) / len(values))
    assert abs(v - float(variance)) <= 0.1 * float(variance)


def test_waiting_times_match_every_ordering_of_a_small_stock():
    unseen, wanted = 7, 2
    firsts = Counter(min(spots) + 1 for spots in itertools.combinations(range(unseen), wanted))
    total = comb(unseen, wanted)
    for t in range(1, unseen + 2):
        assert waiting_time_pmf(t, unseen=unseen, wanted=wanted) == Fraction(firsts[t], total)
        assert waiting_time_survival(t, unseen=unseen, wanted=wanted) == Fraction(
            sum(n for first, n in firsts.items() if first > t), total
        )
    mean = Fraction(sum(t * n for t, n in firsts.items()), total)
    assert waiting_time_mean(unseen=unseen, wanted=wanted) == mean


def test_kaplan_meier_recovers_the_exact_survival_under_censoring():
    result = censored_waits(unseen=60, wanted=2, limit=25, n=4000, seed=3)
    exact = dict(result["exact_survival"])
    for t, survival in result["kaplan_meier"]:
        s = float(exact[t])
        assert abs(survival - s) <= 4 * sqrt(s * (1 - s) / 4000) + 1e-9
    assert abs(result["stopped"] - float(result["exact_stopped"])) < 0.03
    assert (
        result["naive_mean"] < float(result["exact_restricted_mean"]) < float(result["exact_mean"])
    )
    assert abs(result["restricted_mean"] - float(result["exact_restricted_mean"])) < 0.5


def test_one_stopping_draw_makes_kaplan_meier_the_naive_curve():
    # Chapter 9's reason to show stops that vary: with one limit for all, Kaplan-Meier
    # before the limit is the share of waits not yet over, stops counted as ends.
    result = censored_waits(unseen=40, wanted=2, limit=12, n=3000, seed=5)
    naive = dict(result["naive_survival"])
    for t, survival in result["kaplan_meier"]:
        if t < 12:
            assert survival == pytest.approx(naive[t], abs=1e-12)


def test_kaplan_meier_follows_the_truth_where_the_stops_vary_and_the_naive_curve_does_not():
    n = 5000
    result = censored_waits(unseen=60, wanted=2, limit=30, shortest=5, n=n, seed=4)
    exact = dict(result["exact_survival"])
    naive = dict(result["naive_survival"])
    for t, survival in result["kaplan_meier"]:
        s = float(exact[t])
        # The waits still running at t: Kaplan-Meier's standard error is about that of a
        # share of them (Greenwood's formula is at most s(1 - s) over the fewest at risk).
        at_risk = n * s * sum(stop >= t for stop in range(5, 31)) / 26
        assert abs(survival - s) <= 5 * sqrt(s * (1 - s) / at_risk) + 1e-9, t
    # The naive curve falls far too soon once stops begin (draw 5).
    assert naive[15] < float(exact[15]) - 0.15
    assert abs(result["stopped"] - float(result["exact_stopped"])) < 0.03
    assert abs(result["restricted_mean"] - float(result["exact_restricted_mean"])) < 0.4


def test_the_exact_values_of_varying_stops_are_those_of_every_shuffle_and_stop():
    # Listing every order of a small stock and every stopping draw.
    unseen, wanted, limit, shortest = 7, 2, 5, 2
    firsts = [min(pair) + 1 for pair in itertools.combinations(range(unseen), wanted)]
    stops = range(shortest, limit + 1)
    cases = [(first, stop) for first in firsts for stop in stops]
    result = censored_waits(
        unseen=unseen, wanted=wanted, limit=limit, shortest=shortest, n=1, seed=0
    )
    assert result["exact_stopped"] == Fraction(
        sum(first > stop for first, stop in cases), len(cases)
    )
    assert result["exact_restricted_mean"] == Fraction(
        sum(min(first, stop) for first, stop in cases), len(cases)
    )
    with pytest.raises(ArgumentError, match="shortest"):
        censored_waits(unseen=10, wanted=2, limit=5, shortest=6, n=10, seed=0)


def test_kaplan_meier_without_censoring_is_the_empirical_survival():
    times = [1, 2, 2, 4, 5]
    curve = kaplan_meier(times, [True] * 5)
    assert curve == [(1, 0.8), (2, 0.4), (4, 0.2), (5, 0.0)]
    with pytest.raises(ArgumentError):
        kaplan_meier([], [])


def test_every_position_of_the_stock_is_as_likely_to_be_a_joker():
    seen = list(parse_cards("JK 8S 8H 9D"))
    frame = stock_position_chances(seen=seen, decks=1, jokers=2, positions=8, n=6000, seed=4)
    exact = 1 / 50
    assert frame["exact"].to_list() == [exact] * 8
    for p in frame["p"]:
        assert abs(p - exact) <= 4 * sqrt(exact * (1 - exact) / 6000)


def test_seen_cards_the_shoe_cannot_hold_are_refused():
    with pytest.raises(ArgumentError, match="seen holds more"):
        stock_position_chances(
            seen=list(parse_cards("JK JK JK")), decks=1, jokers=2, positions=2, n=10, seed=0
        )


def test_the_kept_two_chance_matches_a_count_over_every_pair_of_physical_cards():
    cards = list(parse_cards("8S 8H JH JS 2C KD 4C 9D 8D 8D JD JK 5C 6C KD 3H"))
    hand, unseen = cards[:8], cards[8:]
    from rummykit.engine.search import contract_distance

    for discard in (hand[5], hand[0]):
        left = [card for card in hand if card is not discard]
        wins = sum(
            contract_distance([*left, x, y], CONTRACTS[0], RULES) == 0
            for x, y in itertools.combinations(unseen, 2)
        )
        assert kept_two_chance(hand, discard, CONTRACTS[0], RULES, unseen=unseen) == Fraction(
            wins, comb(len(unseen), 2)
        )


def test_a_paired_comparison_agrees_with_the_exact_chances_and_is_tighter():
    cards = list(parse_cards("8S 8H JH JS 2C KD 4C 9D 8D 8D JD JK 5C 6C KD 3H 2C 7S"))
    hand, unseen = cards[:8], cards[8:]
    first, second = hand[5], hand[4]  # two discards that both keep the pairs
    result = paired_discards(
        hand, (first, second), CONTRACTS[0], RULES, unseen=unseen, n=3000, seed=1
    )
    exact = [
        float(kept_two_chance(hand, card, CONTRACTS[0], RULES, unseen=unseen))
        for card in (first, second)
    ]
    for p, q in zip(result.p, exact, strict=True):
        assert abs(p - q) <= 4 * sqrt(q * (1 - q) / 3000)
    low, high = result.interval
    assert low - 2 * result.paired_se <= exact[0] - exact[1] <= high + 2 * result.paired_se
    assert result.paired_se < result.unpaired_se


@pytest.mark.parametrize(("n", "both", "first", "second"), [(10, 3, 2, 1), (500, 90, 31, 55)])
def test_paired_counts_is_the_mean_of_the_differences_deal_by_deal(n, both, first, second):
    outcomes = (
        [(1, 1)] * both
        + [(1, 0)] * first
        + [(0, 1)] * second
        + [(0, 0)] * (n - both - first - second)
    )
    d = [a - b for a, b in outcomes]
    result = paired_counts(n, both=both, only_first=first, only_second=second)
    assert result.difference == pytest.approx(statistics.fmean(d))
    assert result.paired_se == pytest.approx(statistics.stdev(d) / sqrt(n))
    pa, pb = (statistics.fmean(column) for column in zip(*outcomes, strict=True))
    assert result.p == pytest.approx((pa, pb))
    assert result.unpaired_se == pytest.approx(sqrt(pa * (1 - pa) / n + pb * (1 - pb) / n))
    low, high = result.unpaired_interval
    assert high - low == pytest.approx(2 * 1.96 * result.unpaired_se)


def test_the_buying_table_paired_intervals_are_narrower_and_its_verdicts_follow_them():
    pl = pytest.importorskip("polars")
    from rummykit.odds.data.schemas import data_directory
    from rummykit.teach.table_play import buying_pairing

    buying = pl.read_parquet(data_directory() / "buying_value.parquet")
    pairing = buying_pairing(buying)
    paired = pairing.filter(interval="paired")
    unpaired = pairing.filter(interval="unpaired")
    assert paired["round"].to_list() == unpaired["round"].to_list() == list(range(1, 8))
    assert (paired["se"] < unpaired["se"]).all()
    table = buying.filter(buy="improves", measure="went out").sort("round")
    # the table keeps its standard errors to 6 decimals, its intervals from the unrounded ones
    assert paired["ci_low"].to_list() == pytest.approx(
        table["difference_ci_low"].to_list(), abs=1e-5
    )
    for row in pairing.iter_rows(named=True):
        below, above = row["ci_high"] < 0, row["ci_low"] > 0
        want = "buying lowers it" if below else "buying raises it" if above else "cannot tell"
        assert row["verdict"] == want
    with pytest.raises(ValueError, match="no rows of buy = 'sometimes'"):
        buying_pairing(buying, buy="sometimes")


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: hypergeom_moments(population=0, successes=0, draws=0), ArgumentError),
        (lambda: hypergeom_moments(population=10, successes=11, draws=1), ArgumentError),
        (lambda: hypergeom_moments(population=10.0, successes=1, draws=1), ArgumentTypeError),
        (lambda: waiting_time_pmf(0, unseen=5, wanted=1), ArgumentError),
        (lambda: waiting_time_mean(unseen=5, wanted=6), ArgumentError),
        (lambda: set_count_moments(decks=0, jokers=0, cards=5), ArgumentError),
        (lambda: set_count_moments(decks=1, jokers=0, cards=53), ArgumentError),
        (lambda: censored_waits(unseen=10, wanted=1, limit=5, n=10**9, seed=0), ArgumentError),
        (lambda: binomial_limit(decks=(0,)), ArgumentError),
        (lambda: paired_counts(10, both=5, only_first=4, only_second=2), ArgumentError),
        (lambda: paired_counts(1, both=0, only_first=0, only_second=0), ArgumentError),
        (lambda: paired_counts(10, both=-1, only_first=0, only_second=0), ArgumentError),
        (lambda: paired_counts(10, both=1.0, only_first=0, only_second=0), ArgumentTypeError),
        (
            lambda: kept_two_chance(
                list(parse_cards("8S 8H")), Card.parse("KD"), CONTRACTS[0], RULES, unseen=[]
            ),
            ArgumentError,
        ),
    ],
)
def test_bad_arguments_are_clear_errors(call, error):
    with pytest.raises(error):
        call()


def test_the_module_names_what_it_exports():
    assert set(concepts.__all__) <= set(dir(concepts))


@pytest.mark.parametrize(
    ("p", "trials"), [(Fraction(1, 7), [1, 3, 12]), (Fraction(1, 1000), [10, 1000, 2000])]
)
def test_rare_event_chances_are_the_binomial_and_the_poisson_within_le_cams_bound(p, trials):
    from math import exp

    frame = concepts.rare_event_chances(p, trials=trials)
    for n in trials:
        rows = {row["law"]: row for row in frame.filter(trials=n).iter_rows(named=True)}
        exact = 1 - (1 - p) ** n  # a Fraction: every term counted
        assert rows["binomial (exact)"]["chance"] == pytest.approx(float(exact), rel=1e-12)
        assert rows["Poisson approximation"]["chance"] == pytest.approx(1 - exp(-n * float(p)))
        # Le Cam: no event's chance differs by more than N p² between the two laws; here the
        # event "at least one", and the whole law: the total variation distance.
        bound = float(n * p * p)
        gap = abs(rows["binomial (exact)"]["chance"] - rows["Poisson approximation"]["chance"])
        assert gap <= bound == rows["binomial (exact)"]["bound"]
        binomial = [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
        lam = n * float(p)
        poisson = [exp(-lam + k * math.log(lam) - math.lgamma(k + 1)) for k in range(n + 1)]
        tail = 1 - sum(poisson)
        assert (
            sum(abs(float(b) - q) for b, q in zip(binomial, poisson, strict=True)) + tail
        ) / 2 <= bound


def test_poisson_games_is_the_smallest_number_that_reaches_the_target():
    from math import exp

    p = Fraction(1, 554_000)
    for players, target in ((4, Fraction(1, 2)), (7, Fraction(9, 10)), (2, Fraction(1, 10))):
        games = concepts.poisson_games(p, players=players, target=target)
        assert 1 - exp(-games * players * float(p)) >= target
        assert 1 - exp(-(games - 1) * players * float(p)) < target
    with pytest.raises(ArgumentError, match="target"):
        concepts.poisson_games(p, players=4, target=Fraction(1))
    with pytest.raises(ArgumentTypeError, match="p must be"):
        concepts.poisson_games(0.5, players=4, target=Fraction(1, 2))
