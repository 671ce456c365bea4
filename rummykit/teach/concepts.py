"""The probability ideas the table invites, as small functions a student can call: the
hypergeometric's mean and variance and its binomial limit, the symmetry of the next card,
covariance of indicators, waiting times, censoring, and a decision by paired simulation.

Each function computes exactly where it can (Fractions) and says so; the simulations take
a seed. The book's chapter *More probability at the table* uses them, and the tests check
each against an independent method (enumeration on a small shoe, or a simulation within
its interval).

>>> mean, variance = hypergeom_moments(population=108, successes=8, draws=10)
>>> mean, variance
(Fraction(20, 27), Fraction(49000, 78003))
>>> waiting_time_mean(unseen=95, wanted=2)
Fraction(32, 1)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, sqrt

from rummykit.engine.cards import Card, Hand, Shoe
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import contract_rules, instance, items
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS, Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.estimate import normal_interval

__all__ = [
    "PairedComparison",
    "binomial_limit",
    "binomial_limit_chart",
    "censored_waits",
    "hypergeom_moments",
    "kaplan_meier",
    "kept_two_chance",
    "paired_counts",
    "paired_discards",
    "pairing_chart",
    "poisson_games",
    "positions_chart",
    "rare_event_chances",
    "rare_event_chart",
    "set_count_moments",
    "set_variance_chart",
    "set_variance_frame",
    "stock_position_chances",
    "survival_chart",
    "waiting_time_mean",
    "waiting_time_pmf",
    "waiting_chart",
    "waiting_frame",
    "waiting_time_survival",
]


def _whole(name: str, value: object, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ArgumentError(f"{name} must be {bound}, got {value}")
    return value


def _frame(frame: object, columns: tuple[str, ...], made_by: str):
    """``frame`` if it is a polars DataFrame with ``columns`` (the frame of ``made_by``)."""
    from rummykit.display import check_frame

    return check_frame("frame", frame, columns, made_by=made_by)


def hypergeom_moments(*, population: int, successes: int, draws: int) -> tuple[Fraction, Fraction]:
    """The mean and variance of X ~ Hypergeometric(N, K, n): the number of the K
    "successes" among n cards drawn from N without replacement.

    E[X] = n K / N, the binomial's mean; Var X = n (K/N) (1 - K/N) (N - n) / (N - 1): the
    binomial's variance times the **finite-population correction** (N - n) / (N - 1),
    which is below 1 because each card drawn changes what is left.

    >>> hypergeom_moments(population=52, successes=4, draws=5)  # aces in a poker hand
    (Fraction(5, 13), Fraction(940, 2873))
    """
    _whole("population", population, 1)
    _whole("successes", successes, 0, population)
    _whole("draws", draws, 0, population)
    share = Fraction(successes, population)
    mean = draws * share
    if population == 1:
        return mean, Fraction(0)
    correction = Fraction(population - draws, population - 1)
    return mean, draws * share * (1 - share) * correction


def binomial_limit(
    *, cards: int = 10, decks: Sequence[int] = (1, 2, 3, 8), jokers_per_deck: int = 2
):
    """The chance of k eights in a hand of ``cards`` from each shoe of ``decks`` decks
    (with ``jokers_per_deck`` jokers a deck), beside the binomial limit Binomial(cards, 4 /
    (52 + jokers_per_deck)) that the hypergeometric approaches as the decks grow: a long
    polars frame with ``k``, ``p`` and ``shoe``.

    >>> frame = binomial_limit(decks=(1, 8))
    >>> frame["shoe"].unique(maintain_order=True).to_list()
    ['1 deck', '8 decks', 'binomial limit']
    >>> round(frame.filter(shoe="binomial limit")["p"].sum(), 12)
    1.0
    """
    import polars as pl

    from rummykit.teach.probability import hypergeom_pmf

    _whole("cards", cards, 1, 30)
    _whole("jokers_per_deck", jokers_per_deck, 0, 4)
    rows = []
    for count in items("decks", decks, lambda name, x: _whole(name, x, 1, 8), what="deck counts"):
        population = (52 + jokers_per_deck) * count
        label = f"{count} deck" + ("s" if count > 1 else "")
        for k in range(min(cards, 4 * count) + 1):
            p = hypergeom_pmf(k, population=population, successes=4 * count, draws=cards)
            rows.append({"k": k, "p": float(p), "shoe": label})
    share = Fraction(4, 52 + jokers_per_deck)
    for k in range(cards + 1):
        p = comb(cards, k) * share**k * (1 - share) ** (cards - k)
        rows.append({"k": k, "p": float(p), "shoe": "binomial limit"})
    return pl.DataFrame(rows)


def rare_event_chances(p: Fraction, *, trials: Iterable[int]):
    """The chance of at least one success in N independent trials of chance ``p``, exactly
    (binomial: 1 - (1 - p)^N) and by the Poisson approximation (1 - e^(-Np)), for each N
    of ``trials``: a long polars frame with ``trials``, ``law`` ("binomial (exact)" or
    "Poisson approximation"), ``chance`` (a float), and ``bound``, Le Cam's bound on how
    far any chance of the Poisson law lies from the binomial's: N p² (Le Cam 1960).

    ``p`` is a Fraction from 0 to 1 (an exact chance); the binomial's chance is computed
    from it exactly, then written as a float.

    >>> frame = rare_event_chances(Fraction(1, 1000), trials=[1000])
    >>> [round(x, 6) for x in frame["chance"]], frame["bound"].to_list()
    ([0.632305, 0.632121], [0.001, 0.001])
    """
    import polars as pl

    instance("p", p, Fraction, "an exact chance (a Fraction)")
    if not 0 <= p <= 1:
        raise ArgumentError(f"p must be a chance from 0 to 1, got {p}")
    counts = items(
        "trials", trials, lambda name, n: _whole(name, n, 1, 10**9), what="numbers of trials"
    )
    rows = []
    for n in counts:
        # (1 - p)^N exactly would be a huge Fraction: its logarithm is exact enough.
        some = -math.expm1(n * math.log1p(-float(p))) if p < 1 else 1.0
        bound = float(n * p * p)
        rows.append({"trials": n, "law": "binomial (exact)", "chance": some, "bound": bound})
        poisson = -math.expm1(-n * float(p))
        rows.append(
            {"trials": n, "law": "Poisson approximation", "chance": poisson, "bound": bound}
        )
    return pl.DataFrame(rows)


def poisson_games(p: Fraction, *, players: int, target: Fraction) -> int:
    """How many games a table of ``players`` must play before, by the Poisson approximation,
    the chance that some hand has been dealt an event of chance ``p`` (a hand a game each)
    reaches ``target``: the smallest whole G with 1 - e^(-G n p) >= target, that is
    G >= -ln(1 - target) / (n p).

    >>> poisson_games(Fraction(1, 1000), players=4, target=Fraction(1, 2))
    174
    """
    instance("p", p, Fraction, "an exact chance (a Fraction)")
    if not 0 < p <= 1:
        raise ArgumentError(f"p must be a chance above 0 and at most 1, got {p}")
    _whole("players", players, 1, 100)
    instance("target", target, Fraction, "a chance (a Fraction)")
    if not 0 < target < 1:
        raise ArgumentError(f"target must be a chance between 0 and 1, got {target}")
    rate = players * float(p)
    games = max(1, math.ceil(-math.log1p(-float(target)) / rate))
    # The float's last place can land either side of a whole number: settle it here.
    while games > 1 and -math.expm1(-(games - 1) * rate) >= target:
        games -= 1
    while -math.expm1(-games * rate) < target:
        games += 1
    return games


def set_count_moments(
    *, decks: int, jokers: int, cards: int, size: int = 3, ranks: int = 13
) -> tuple[Fraction, Fraction, Fraction]:
    """The mean and variance of the number of ranks with at least ``size`` natural cards in
    a hand of ``cards`` (jokers count as no rank), and the variance the same indicators
    would have if they were independent. ``ranks`` shrinks the shoe to that many ranks of
    four suits (13 is the real shoe), for checks by listing every hand.

    X = I_1 + ... + I_13, with I_r = 1 when rank r has ``size`` or more cards. By linearity
    E[X] = 13 P(I_1 = 1); Var X = 13 Var I_1 + 13 * 12 Cov(I_1, I_2), and the covariance is
    negative: a hand that holds many threes has less room for kings.

    >>> mean, var, independent = set_count_moments(decks=2, jokers=4, cards=10)
    >>> round(float(mean), 4), var < independent
    (0.3304, True)
    """
    _whole("decks", decks, 1, 8)
    _whole("jokers", jokers, 0, 32)
    _whole("ranks", ranks, 2, 13)
    population = 4 * ranks * decks + jokers
    _whole("cards", cards, 1, population)
    _whole("size", size, 1, 4 * decks)
    per_rank = 4 * decks
    rest = population - per_rank
    total = comb(population, cards)
    one = Fraction(
        sum(
            comb(per_rank, a) * comb(rest, cards - a) for a in range(size, min(per_rank, cards) + 1)
        ),
        total,
    )
    others = population - 2 * per_rank
    both = Fraction(
        sum(
            comb(per_rank, a) * comb(per_rank, b) * comb(others, cards - a - b)
            for a in range(size, per_rank + 1)
            for b in range(size, per_rank + 1)
            if a + b <= cards
        ),
        total,
    )
    mean = ranks * one
    covariance = both - one * one
    independent = ranks * one * (1 - one)
    return mean, independent + ranks * (ranks - 1) * covariance, independent


def waiting_time_pmf(t: int, *, unseen: int, wanted: int) -> Fraction:
    """P(T = t): the chance that the first of ``wanted`` cards among ``unseen`` comes on
    draw ``t`` from a shuffled stock (a negative hypergeometric waiting time).

    The first t - 1 draws miss, C(U - K, t - 1) / C(U, t - 1), then the t-th hits, K / (U -
    t + 1).

    >>> waiting_time_pmf(1, unseen=10, wanted=2), waiting_time_pmf(9, unseen=10, wanted=2)
    (Fraction(1, 5), Fraction(1, 45))
    >>> sum(waiting_time_pmf(t, unseen=10, wanted=2) for t in range(1, 10))
    Fraction(1, 1)
    """
    _whole("unseen", unseen, 1)
    _whole("wanted", wanted, 1, unseen)
    _whole("t", t, 1)
    if t > unseen - wanted + 1:
        return Fraction(0)
    miss = Fraction(comb(unseen - wanted, t - 1), comb(unseen, t - 1))
    return miss * Fraction(wanted, unseen - t + 1)


def waiting_time_survival(t: int, *, unseen: int, wanted: int) -> Fraction:
    """P(T > t): none of the ``wanted`` cards among the first ``t`` draws.

    >>> waiting_time_survival(0, unseen=10, wanted=2), waiting_time_survival(9, unseen=10, wanted=2)
    (Fraction(1, 1), Fraction(0, 1))
    """
    _whole("unseen", unseen, 1)
    _whole("wanted", wanted, 1, unseen)
    _whole("t", t, 0)
    if t > unseen - wanted:
        return Fraction(0)
    return Fraction(comb(unseen - wanted, t), comb(unseen, t))


def waiting_time_mean(*, unseen: int, wanted: int) -> Fraction:
    """E[T] = (U + 1) / (K + 1): the K wanted cards split the U - K others into K + 1 runs
    of equal expected length (U - K) / (K + 1), and the wait is the first run plus the
    card that ends it. With replacement (a geometric wait) it would be U / K.

    >>> waiting_time_mean(unseen=10, wanted=2)
    Fraction(11, 3)
    """
    _whole("unseen", unseen, 1)
    _whole("wanted", wanted, 1, unseen)
    return Fraction(unseen + 1, wanted + 1)


def kaplan_meier(times: Iterable[int], observed: Iterable[bool]) -> list[tuple[int, float]]:
    """The Kaplan-Meier estimate of P(T > t) from waits that were seen to end
    (``observed``) or were stopped first (censored at their time): (t, S(t)) at each time
    an end was seen.

    At each such t, S falls by the share of those still waiting at t that ended there; a
    censored wait leaves the count still waiting without counting as an end.

    >>> kaplan_meier([1, 2, 2, 3], [True, True, False, True])
    [(1, 0.75), (2, 0.5), (3, 0.0)]
    """
    times = items("times", times, lambda name, t: _whole(name, t, 0), what="a list of waits")
    observed = items("observed", observed, lambda name, x: instance(name, x, bool, "True or False"))
    if len(times) != len(observed):
        raise ArgumentError(f"times and observed differ in length: {len(times)}, {len(observed)}")
    pairs = list(zip(times, observed, strict=True))
    if not pairs:
        raise ArgumentError("kaplan_meier needs at least one wait")
    curve = []
    survival = 1.0
    for t in sorted({time for time, seen in pairs if seen}):
        at_risk = sum(1 for time, _ in pairs if time >= t)
        ended = sum(1 for time, seen in pairs if time == t and seen)
        survival *= 1 - ended / at_risk
        curve.append((t, survival))
    return curve


def censored_waits(
    *, unseen: int, wanted: int, limit: int, n: int, seed: int, shortest: int | None = None
):
    """Simulate ``n`` waits for the first of ``wanted`` cards among ``unseen``, each stopped
    if it has not ended by its own stopping draw: ``limit`` for every wait (a round stopped
    at the turn limit), or, given ``shortest``, a draw from ``shortest`` to ``limit``,
    each equally likely, drawn for each wait (the round ends when someone else goes out,
    at a time of its own). A dict with the share stopped, the naive mean of the waits that
    ended, the mean of min(T, stop) that counts the stopped ones where they stopped, the
    exact values of those three, the Kaplan-Meier curve, the **naive curve** (the share of
    all waits not yet over, a stop counted as an end), and the exact P(T > t) up to
    ``limit``. ``unseen`` is at most 10,000, ``limit`` at most ``unseen`` (a wait ends by
    then), ``shortest`` from 1 to ``limit``, ``n`` at most 1,000,000.

    With one stopping draw for all, Kaplan-Meier equals the naive curve before it; with
    stops that vary, the naive curve falls too soon and Kaplan-Meier does not.

    >>> result = censored_waits(unseen=60, wanted=2, limit=25, n=2000, seed=1)
    >>> result["naive_mean"] < float(result["exact_mean"])
    True
    >>> varied = censored_waits(unseen=60, wanted=2, limit=30, shortest=5, n=2000, seed=1)
    >>> varied["naive_survival"][10][1] < dict(varied["kaplan_meier"])[10]
    True
    """
    _whole("unseen", unseen, 1, 10_000)
    _whole("wanted", wanted, 1, unseen)
    _whole("limit", limit, 1, unseen)
    _whole("n", n, 1, 1_000_000)
    _whole("seed", seed, 0)
    lowest = limit if shortest is None else _whole("shortest", shortest, 1, limit)
    rng = random.Random(seed)
    times, observed = [], []
    for _ in range(n):
        positions = rng.sample(range(unseen), wanted)
        first = min(positions) + 1
        stop = limit if shortest is None else rng.randint(lowest, limit)
        times.append(min(first, stop))
        observed.append(first <= stop)
    ended = [time for time, seen in zip(times, observed, strict=True) if seen]
    stops = range(lowest, limit + 1)

    def survival(t: int) -> Fraction:
        return waiting_time_survival(t, unseen=unseen, wanted=wanted)

    def running(t: int) -> Fraction:
        """P(stop > t): the share of stopping draws after t."""
        return Fraction(sum(1 for stop in stops if stop > t), len(stops))

    return {
        "stopped": 1 - len(ended) / n,
        "exact_stopped": sum((survival(stop) for stop in stops), Fraction(0)) / len(stops),
        "naive_mean": sum(ended) / len(ended) if ended else float("nan"),
        "restricted_mean": sum(times) / n,
        "exact_restricted_mean": sum((survival(t) * running(t) for t in range(limit)), Fraction(0)),
        "exact_mean": waiting_time_mean(unseen=unseen, wanted=wanted),
        "kaplan_meier": kaplan_meier(times, observed),
        "naive_survival": [(t, sum(1 for time in times if time > t) / n) for t in range(limit + 1)],
        "exact_survival": [(t, survival(t)) for t in range(limit + 1)],
    }


def stock_position_chances(
    *, seen: Sequence[Card], decks: int, jokers: int, positions: int, n: int, seed: int
):
    """By simulation, the chance that each of the first ``positions`` cards of a shuffled
    stock is a joker, given the cards ``seen`` (from RuleSet's shoes: 1 to 8 decks, 0 to 32
    jokers): a long frame with ``position``, ``p``, the
    Wilson interval and ``exact``, the same for every position (unseen jokers / unseen
    cards), which is the symmetry the chapter argues.

    >>> frame = stock_position_chances(seen=[], decks=1, jokers=2, positions=3, n=500, seed=0)
    >>> frame["exact"].unique().to_list() == [2 / 54]
    True
    """
    import polars as pl

    from rummykit.odds import wilson_interval

    seen = check_cards("seen", seen)
    _whole("decks", decks, 1, MAX_DECKS)
    _whole("jokers", jokers, 0, MAX_JOKERS)
    shoe = Shoe(decks=decks, jokers=jokers)
    unseen = list(shoe.cards)
    for card in seen:
        try:
            unseen.remove(card)
        except ValueError:
            raise ArgumentError(
                f"seen holds more {card} than the shoe of {decks} decks and {jokers} jokers"
            ) from None
    _whole("positions", positions, 1, len(unseen))
    _whole("n", n, 1, 1_000_000)
    _whole("seed", seed, 0)
    rng = random.Random(seed)
    hits = [0] * positions
    for _ in range(n):
        top = rng.sample(unseen, positions)
        for position, card in enumerate(top):
            hits[position] += card.is_joker
    exact = sum(card.is_joker for card in unseen) / len(unseen)
    rows = []
    for position, count in enumerate(hits, start=1):
        low, high = wilson_interval(count, n)
        rows.append(
            {"position": position, "p": count / n, "ci_low": low, "ci_high": high, "exact": exact}
        )
    return pl.DataFrame(rows)


def _holds(hand: Sequence[Card], contract: Contract, rules: RuleSet) -> bool:
    from rummykit.engine.search import contract_distance

    return contract_distance(hand, contract, rules) == 0


def kept_two_chance(
    hand: Sequence[Card],
    discard: Card,
    contract: Contract,
    rules: RuleSet,
    *,
    unseen: Sequence[Card],
) -> Fraction:
    """The exact chance that the hand, less ``discard``, holds the contract once it keeps
    the next two stock cards: a count over every pair of the ``unseen`` cards (all pairs
    equally likely by symmetry), by copies, so each face is tried once.

    >>> from rummykit import parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H JH JS 2C KD 4C")
    >>> kept_two_chance(hand, Card.parse("KD"), rules.contracts[0], rules,
    ...                 unseen=parse_cards("8D JD 5C 6C"))
    Fraction(1, 6)
    """
    hand = check_cards("hand", hand)
    instance("discard", discard, Card, "a Card")
    contract_rules(contract, rules)
    unseen = check_cards("unseen", unseen)
    if len(unseen) < 2:
        raise ArgumentError("unseen must hold at least 2 cards to draw two")
    left = list(hand)
    try:
        left.remove(discard)
    except ValueError:
        raise ArgumentError(f"the discard {discard} is not in the hand") from None
    by_face: dict[int, list[Card]] = {}
    for card in unseen:
        by_face.setdefault(card.index, []).append(card)
    faces = list(by_face.values())
    wins = 0
    for i, xs in enumerate(faces):
        for ys in faces[i:]:
            if xs is ys:
                pairs, drawn = comb(len(xs), 2), xs[:2]
            else:
                pairs, drawn = len(xs) * len(ys), [xs[0], ys[0]]
            if pairs and _holds([*left, *drawn], contract, rules):
                wins += pairs
    return Fraction(wins, comb(len(unseen), 2))


@dataclass(frozen=True)
class PairedComparison:
    """Two choices (two discards; to buy or not) compared on the same deals or draws."""

    discards: tuple[str, str]
    """The two choices, by name (a discard by its code)."""
    p: tuple[float, float]
    """Each choice's share of deals after which it succeeds (holds the contract, goes out)."""
    difference: float
    """p[0] - p[1]."""
    paired_se: float
    """The standard error of the difference from the paired draws."""
    unpaired_se: float
    """The standard error the difference would have from independent draws."""
    n: int
    """How many pairs of draws."""

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the difference, from the paired standard error."""
        return normal_interval(self.difference, self.paired_se, z=1.96)

    @property
    def unpaired_interval(self) -> tuple[float, float]:
        """The 95% interval the same two chances would give from independent draws."""
        return normal_interval(self.difference, self.unpaired_se, z=1.96)


def paired_counts(
    n: int,
    *,
    both: int,
    only_first: int,
    only_second: int,
    choices: tuple[str, str] = ("first", "second"),
) -> PairedComparison:
    """Two choices tried on the same ``n`` deals, from the four counts of a paired table:
    ``both`` succeed, ``only_first``, ``only_second``, neither (the rest). The difference
    of each deal, D = I_first - I_second, is +1, -1 or 0; the paired standard error is
    that of the mean of the ``n`` D's (sample variance with n - 1), the unpaired one what
    two independent samples of ``n`` with the same shares would give.

    >>> result = paired_counts(1000, both=200, only_first=40, only_second=70)
    >>> result.p, round(result.difference, 3)
    ((0.24, 0.27), -0.03)
    >>> round(result.paired_se, 4), round(result.unpaired_se, 4)
    (0.0105, 0.0195)
    """
    _whole("n", n, 2)
    for name, count in (("both", both), ("only_first", only_first), ("only_second", only_second)):
        _whole(name, count, 0)
    items(
        "choices",
        choices,
        lambda label, c: instance(label, c, str, "a name (str)"),
        what="a pair of names",
        least=2,
        most=2,
    )
    if both + only_first + only_second > n:
        raise ArgumentError(
            f"both + only_first + only_second must be at most n = {n}, "
            f"got {both + only_first + only_second}"
        )
    pa, pb = (both + only_first) / n, (both + only_second) / n
    mean = (only_first - only_second) / n
    # The sum of (D - mean)^2 over the deals: D^2 is 1 on the deals where the choices differ.
    squares = only_first + only_second - n * mean * mean
    return PairedComparison(
        choices,
        (pa, pb),
        pa - pb,
        sqrt(max(squares, 0.0) / (n - 1) / n),
        sqrt((pa * (1 - pa) + pb * (1 - pb)) / n),
        n,
    )


def paired_discards(
    hand: Sequence[Card],
    discards: tuple[Card, Card],
    contract: Contract,
    rules: RuleSet,
    *,
    unseen: Sequence[Card],
    n: int,
    seed: int,
) -> PairedComparison:
    """Compare two discards by simulation: deal ``n`` pairs of next stock cards from the
    ``unseen`` cards, and for each pair ask whether the hand less each discard, keeping
    both cards, holds the contract. Both discards meet the same pairs (common random
    numbers), so the difference's standard error is that of the paired differences
    (:func:`paired_counts`), smaller than if each discard had its own draws.

    >>> from rummykit import parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H JH JS 2C KD 4C")
    >>> result = paired_discards(hand, tuple(parse_cards("KD 8S")), rules.contracts[0], rules,
    ...                          unseen=parse_cards("8D JD 5C 6C"), n=300, seed=2)
    >>> [round(p, 3) for p in result.p], round(result.difference, 3)
    ([0.183, 0.0], 0.183)
    """
    hand = check_cards("hand", hand)
    first, second = _two_discards(discards)
    contract_rules(contract, rules)
    unseen = check_cards("unseen", unseen)
    _whole("n", n, 2, 200_000)
    _whole("seed", seed, 0)
    if len(unseen) < 2:
        raise ArgumentError("unseen must hold at least 2 cards to draw two")
    rng = random.Random(seed)
    hands = []
    for discard in (first, second):
        left = list(hand)
        try:
            left.remove(discard)
        except ValueError:
            raise ArgumentError(f"the discard {discard} is not in the hand") from None
        hands.append(left)
    counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for _ in range(n):
        x, y = rng.sample(list(unseen), 2)
        a = _holds([*hands[0], x, y], contract, rules)
        b = _holds([*hands[1], x, y], contract, rules)
        counts[bool(a), bool(b)] += 1
    return paired_counts(
        n,
        both=counts[True, True],
        only_first=counts[True, False],
        only_second=counts[False, True],
        choices=(first.code, second.code),
    )


def _two_discards(discards: object) -> tuple[Card, Card]:
    found = check_cards("discards", discards, most=2)
    if len(found) != 2:
        raise ArgumentError(f"discards must be two cards, got {len(found)}")
    return found[0], found[1]


def dealt_hand(seed: int, *, decks: int = 2, jokers: int = 4, cards: int = 10) -> Hand:
    """A seeded hand from the shoe (for the chapter's examples)."""
    rng = random.Random(seed)
    return Hand(rng.sample(Shoe(decks=decks, jokers=jokers).cards, cards))


# --- charts of the chapter (altair, imported when drawn) ---------------------------------

_OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#000000")


def binomial_limit_chart(frame):
    """The frame of :func:`binomial_limit` in two panels: the chance of k eights from each
    shoe beside the binomial limit (dashed black), and each shoe's chance minus the
    binomial's, where the approach shows (the lines of the first panel lie on top of one
    another). One legend names every line.

    >>> spec = binomial_limit_chart(binomial_limit(decks=(1, 8))).to_dict()
    >>> [len(panel["layer"]) for panel in spec["hconcat"]]
    [1, 2]
    >>> spec["hconcat"][0]["layer"][0]["encoding"]["strokeDash"]["scale"]["range"][-1]
    [6, 3]
    """
    import altair as alt
    import polars as pl

    _frame(frame, ("k", "p", "shoe"), "binomial_limit")
    limit_name = "binomial limit"
    shoes = [s for s in frame["shoe"].unique(maintain_order=True) if s != limit_name]
    order = [*shoes, limit_name]
    palette = [*_OKABE_ITO[: len(shoes)], "#000000"]
    dashes = [[1, 0]] * len(shoes) + [[6, 3]]
    legend = alt.Legend(orient="top", title=None, symbolStrokeWidth=2)
    colour = alt.Color("shoe:N", sort=order, scale=alt.Scale(domain=order, range=palette))
    dash = alt.StrokeDash("shoe:N", sort=order, scale=alt.Scale(domain=order, range=dashes))
    k = alt.X("k:O", title="Eights in the hand", axis=alt.Axis(labelAngle=0))
    chances = (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=k,
            y=alt.Y("p:Q", title="Chance", axis=alt.Axis(format=".0%")),
            color=colour.legend(legend),
            strokeDash=dash.legend(legend),
        )
        .properties(title="The chance of k eights", width=250, height=220)
    )
    binomial = frame.filter(pl.col("shoe") == limit_name).select("k", pl.col("p").alias("b"))
    gaps = (
        frame.filter(pl.col("shoe") != limit_name)
        .join(binomial, on="k")
        .with_columns(gap=pl.col("p") - pl.col("b"))
    )
    zero = alt.Chart().mark_rule(color="#000000", strokeDash=[6, 3]).encode(y=alt.datum(0))
    differences = (
        alt.Chart(gaps)
        .mark_line(point=True)
        .encode(
            x=k,
            y=alt.Y("gap:Q", title="Chance minus the binomial's", axis=alt.Axis(format="+.1~%")),
            color=colour.legend(None),
        )
    )
    return (
        alt.hconcat(
            alt.layer(chances),
            alt.layer(zero, differences).properties(
                title="Minus the binomial: the gap closes", width=250, height=220
            ),
        )
        .resolve_scale(color="shared", strokeDash="shared")
        .properties(title="More decks: the hypergeometric nears the binomial")
    )


def positions_chart(frame):
    """The frame of :func:`stock_position_chances`: each position's estimate with its 95%
    interval, and the exact chance as a dashed line, the same for every position.

    >>> frame = stock_position_chances(seen=[], decks=1, jokers=2, positions=3, n=200, seed=0)
    >>> [layer["mark"]["type"] for layer in positions_chart(frame).to_dict()["layer"]]
    ['rule', 'point', 'rule']
    """
    import altair as alt

    _frame(frame, ("position", "p", "ci_low", "ci_high", "exact"), "stock_position_chances")
    x = alt.X("position:O", title="Position in the stock (1 is the top card)")
    base = alt.Chart(frame).encode(x=x)
    bars = base.mark_rule(color="#0072B2").encode(
        y=alt.Y(
            "ci_low:Q",
            title="Chance it is a joker",
            scale=alt.Scale(zero=False),
            axis=alt.Axis(format=".1~%"),
        ),
        y2="ci_high:Q",
    )
    points = base.mark_point(filled=True, color="#0072B2").encode(y="p:Q")
    exact = alt.Chart(frame).mark_rule(strokeDash=[6, 3], color="#000000").encode(y="mean(exact):Q")
    return alt.layer(bars, points, exact).properties(
        title="Every position is as likely to hold a joker (dashed: unseen jokers / unseen cards)",
        width=420,
    )


def _alt_x(field: str, title: str, **axis):
    """An x encoding with a title and axis options."""
    import altair as alt

    return alt.X(field, title=title, axis=alt.Axis(**axis) if axis else alt.Undefined)


def _alt_y(field: str, title: str, **axis):
    """A y encoding with a title and axis options."""
    import altair as alt

    return alt.Y(field, title=title, axis=alt.Axis(**axis) if axis else alt.Undefined)


def _two_lines(frame, *, x, y, by: str, order: list[str], points: bool, title: str):
    """Two lines told apart by ``by``, in ``order``: the first solid, the second dashed,
    in Okabe and Ito's colours, named in a legend (at the top, where it does not narrow the
    plot)."""
    import altair as alt

    return (
        (alt.Chart(frame).mark_line(point=True) if points else alt.Chart(frame).mark_line())
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                f"{by}:N",
                title=None,
                sort=order,
                scale=alt.Scale(domain=order, range=_OKABE_ITO),
                legend=alt.Legend(orient="top", symbolStrokeWidth=2, labelLimit=320),
            ),
            # The same field and title on both channels: one legend shows colour and dash
            # (a legend=None here would hide the colour's legend too).
            strokeDash=alt.StrokeDash(
                f"{by}:N",
                title=None,
                sort=order,
                scale=alt.Scale(domain=order, range=[[1, 0], [6, 3]]),
            ),
        )
        .properties(title=title, width=420)
    )


def set_variance_frame(*, decks: int = 2, jokers: int = 4, cards: Iterable[int] = range(6, 17)):
    """The variance of the number of sets by hand size, with and without the covariances:
    a long frame with ``cards``, ``variance`` and ``which``."""
    import polars as pl

    rows = []
    for n in items("cards", cards, what="hand sizes"):
        _, variance, independent = set_count_moments(decks=decks, jokers=jokers, cards=n)
        rows.append({"cards": n, "variance": float(variance), "which": "the real variance"})
        rows.append(
            {"cards": n, "variance": float(independent), "which": "if the ranks were independent"}
        )
    return pl.DataFrame(rows)


def set_variance_chart(frame):
    """The frame of :func:`set_variance_frame` as two lines.

    >>> set_variance_chart(set_variance_frame(cards=[8, 10])).to_dict()["mark"]["type"]
    'line'
    """
    _frame(frame, ("cards", "variance", "which"), "set_variance_frame")
    return _two_lines(
        frame,
        x=_alt_x("cards:Q", "Cards in the hand", tickMinStep=1),
        y=_alt_y("variance:Q", "Var (ranks with 3 or more)", format=".2~f"),
        by="which",
        order=["the real variance", "if the ranks were independent"],
        points=True,
        title="The covariances pull the variance down",
    )


def waiting_frame(*, unseen: int, wanted: int, up_to: int):
    """P(T = t) for t = 1 .. ``up_to`` drawing without replacement (negative
    hypergeometric) and with it (geometric): a long frame with ``t``, ``p`` and ``law``;
    ``up_to`` at most ``unseen`` (the wait from the stock ends by then)."""
    import polars as pl

    _whole("unseen", unseen, 1)
    _whole("wanted", wanted, 1, unseen)
    _whole("up_to", up_to, 1, unseen)
    share = Fraction(wanted, unseen)
    rows = []
    for t in range(1, up_to + 1):
        rows.append(
            {
                "t": t,
                "p": float(waiting_time_pmf(t, unseen=unseen, wanted=wanted)),
                "law": "from the stock (negative hypergeometric)",
            }
        )
        geometric = (1 - share) ** (t - 1) * share
        rows.append({"t": t, "p": float(geometric), "law": "with replacement (geometric)"})
    return pl.DataFrame(rows)


def waiting_chart(frame):
    """The frame of :func:`waiting_frame` as two lines.

    >>> waiting_chart(waiting_frame(unseen=20, wanted=2, up_to=5)).to_dict()["mark"]["type"]
    'line'
    """
    _frame(frame, ("t", "p", "law"), "waiting_frame")
    return _two_lines(
        frame,
        x=_alt_x("t:Q", "Draw on which the first wanted card comes"),
        y=_alt_y("p:Q", "Chance", format=".1~%"),
        by="law",
        order=["from the stock (negative hypergeometric)", "with replacement (geometric)"],
        points=False,
        title="Waiting for a card: without replacement the wait is shorter",
    )


def survival_chart(result: dict):
    """The Kaplan-Meier curve of :func:`censored_waits` (steps), the naive curve that
    counts a stop as an end, and the exact P(T > t) (dashed), up to the last stopping draw,
    each named in the legend.

    >>> result = censored_waits(unseen=30, wanted=2, limit=10, n=200, seed=0)
    >>> spec = survival_chart(result).to_dict()
    >>> spec["encoding"]["color"]["scale"]["domain"]
    ['Kaplan-Meier', 'stops counted as ends', 'exact']
    """
    import altair as alt
    import polars as pl

    instance("result", result, dict, "the dict of censored_waits")
    wanted = ("kaplan_meier", "naive_survival", "exact_survival")
    missing = [key for key in wanted if key not in result]
    if missing:
        raise ArgumentError(f"result must be the dict of censored_waits: it has no {missing}")
    order = ["Kaplan-Meier", "stops counted as ends", "exact"]
    curves = [[(0, 1.0), *result["kaplan_meier"]], result["naive_survival"]]
    curves.append(result["exact_survival"])
    frame = pl.DataFrame(
        [
            {"t": t, "s": float(s), "curve": name}
            for name, curve in zip(order, curves, strict=True)
            for t, s in curve
        ]
    )
    legend = alt.Legend(orient="top", title=None, symbolType="stroke", symbolStrokeWidth=2)
    return (
        alt.Chart(frame)
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("t:Q", title="Draws"),
            y=alt.Y("s:Q", title="Chance still waiting after t draws", axis=alt.Axis(format=".0%")),
            color=alt.Color(
                "curve:N",
                sort=order,
                scale=alt.Scale(domain=order, range=["#0072B2", "#E69F00", "#000000"]),
                legend=legend,
            ),
            strokeDash=alt.StrokeDash(
                "curve:N",
                sort=order,
                scale=alt.Scale(domain=order, range=[[1, 0], [2, 2], [6, 3]]),
                legend=legend,
            ),
        )
        .properties(
            title="Waits stopped at different times: Kaplan-Meier against the truth", width=420
        )
    )


def rare_event_chart(frame):
    """The frame of :func:`rare_event_chances` in two panels against the number of trials
    (log scale): the chance of at least one success, the binomial solid and the Poisson
    approximation dashed (where they lie on top of one another), and how far apart they
    are beside Le Cam's bound (log scale), each named in a legend.

    >>> frame = rare_event_chances(Fraction(1, 100), trials=[10, 100, 1000])
    >>> spec = rare_event_chart(frame).to_dict()
    >>> spec["hconcat"][1]["encoding"]["y"]["scale"]
    {'type': 'log'}
    """
    import altair as alt
    import polars as pl

    _frame(frame, ("trials", "law", "chance", "bound"), "rare_event_chances")
    trials = _alt_x_log("trials:Q", "Hands dealt (trials), log scale")
    chances = _two_lines(
        frame,
        x=trials,
        y=_alt_y("chance:Q", "Chance of at least one", format=".0%"),
        by="law",
        order=["binomial (exact)", "Poisson approximation"],
        points=False,
        title="The chance of at least one",
    ).properties(width=260, height=220)
    wide = frame.pivot(on="law", index=["trials", "bound"], values="chance")
    gaps = pl.concat(
        [
            wide.select(
                "trials",
                value=(pl.col("binomial (exact)") - pl.col("Poisson approximation")).abs(),
                series=pl.lit("exact minus Poisson (size)"),
            ),
            wide.select("trials", value=pl.col("bound"), series=pl.lit("Le Cam's bound, N p²")),
        ]
    ).filter(pl.col("value") > 0)
    order = ["exact minus Poisson (size)", "Le Cam's bound, N p²"]
    apart = _two_lines(
        gaps,
        x=trials,
        y=alt.Y(
            "value:Q",
            title="How far apart (log scale)",
            scale=alt.Scale(type="log"),
            axis=alt.Axis(format=".0e"),
        ),
        by="series",
        order=order,
        points=False,
        title="The gap, under its bound",
    ).properties(width=260, height=220)
    return (
        alt.hconcat(chances, apart)
        .resolve_scale(color="independent", strokeDash="independent")
        .properties(title="Rare events: the Poisson approximation against the exact chance")
    )


def _alt_x_log(field: str, title: str):
    """An x encoding on a log scale."""
    import altair as alt

    return alt.X(field, title=title, scale=alt.Scale(type="log"))


def pairing_chart(frame, *, x_title: str = "Difference in the chance", x_format: str = "+.0%"):
    """The paired and the unpaired 95% intervals of a difference, one row per comparison
    (``label``), side by side: a frame with ``label``, ``interval`` ("paired" or
    "unpaired"), ``difference``, ``ci_low`` and ``ci_high``, such as
    :func:`rummykit.teach.table_play.buying_pairing` gives. A rule marks no difference;
    ``x_title`` says what the difference is of, ``x_format`` how its numbers read (a d3
    format: "+.0%" for chances, "+.0f" for points).

    >>> import polars as pl
    >>> frame = pl.DataFrame({"label": ["a", "a"], "interval": ["paired", "unpaired"],
    ...     "difference": [-0.03, -0.03], "ci_low": [-0.04, -0.05], "ci_high": [-0.02, -0.01]})
    >>> [layer["mark"]["type"] for layer in pairing_chart(frame).to_dict()["layer"]]
    ['rule', 'rule', 'point']
    """
    _frame(frame, ("label", "interval", "difference", "ci_low", "ci_high"), "buying_pairing")
    instance("x_title", x_title, str, "a title (str)")
    instance("x_format", x_format, str, "a d3 number format (str)")
    import altair as alt

    order = ["paired", "unpaired"]
    labels = list(dict.fromkeys(frame["label"].to_list()))
    y = alt.Y("label:N", title=None, sort=labels)
    offset = alt.YOffset("interval:N", sort=order)
    color = alt.Color(
        "interval:N",
        title="95% interval",
        sort=order,
        scale=alt.Scale(domain=order, range=[_OKABE_ITO[3], _OKABE_ITO[0]]),
    )
    x = alt.X("ci_low:Q", title=x_title, axis=alt.Axis(format=x_format))
    zero = alt.Chart().mark_rule(color="#7F7F7F").encode(x=alt.datum(0))
    bars = (
        alt.Chart(frame)
        .mark_rule(strokeWidth=3)
        .encode(x=x, x2="ci_high:Q", y=y, yOffset=offset, color=color)
    )
    points = (
        alt.Chart(frame)
        .mark_point(filled=True, size=40)
        .encode(x="difference:Q", y=y, yOffset=offset, color=color)
    )
    return alt.layer(zero, bars, points).properties(
        title="The same deals for both choices narrow the interval", width=420
    )
