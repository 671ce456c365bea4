"""Exact contract odds by counting hands, never by sampling.

A dealt hand is a multiset of natural cards (0..``decks`` copies of each of the 52) plus
some jokers. Whether it "contains" a contract depends on the naturals only through the
fewest jokers the contract needs, so we count natural multisets by that number and mix
in the jokers at the end with binomials.

The count is a sweep over the cards in run order: the ranks 2..K, then the aces, which
end runs through the king (ace high) and pay for runs started from the ace low (such a
run starts at the 2 and owes its ace until the aces are dealt). At each card we branch
on how many copies the hand holds, weighted by the number of ways to hold them,
``C(decks, k)``, and by ``x**k`` in a polynomial that counts cards. The key of a branch
is the *set* of partial arrangements the hand so far allows (sets and runs completed,
runs in progress per suit and their joker use, cards pooled for a set of the current
rank, aces owed to ace-low runs), each with the fewest jokers it needs. Two hands with
the same key have the same future, and every hand follows exactly one branch, so each
hand is counted once however many arrangements it has. A run in progress is a window
over its naturals: where its jokers sit does not matter, so the jokers that bring a
short run to length are paid when it closes, and a run is carried once, not once per
place of its jokers.

Runs never mix suits, so a contract of runs only is counted one suit at a time: a sweep
of a single suit gives, per holding, the fewest jokers that make r runs (r = 0..R), and
the suits are combined by a min-plus convolution. A contract with sets and runs needs
all four suits in one sweep; its keys remember recent cards of every suit, so it takes
longer on full shoes. Each step of the sweep is done by a compiled extension
(``rummykit/_native/_sweep.c``) when it is built, else in Python, with the same counts.
From the 3 to the king every position has the moves of the middle of the sweep, and
most keys of a rank were keys of the rank before, so the compiled sweep keeps each
key's successors and reads them at the next rank instead of stepping the key again
(two thirds of the keys stepped, in the widest sweeps). The compiled step also drops
every arrangement that needs more cards than a hand of at most ``max_naturals`` cards
(jokers included) can still hold, which makes the cost grow steeply with the hand size:
a sweep answers every smaller hand and every joker count up to its own, so
:func:`dealt_count` sweeps for exactly the hand it is asked about.
The CPU seconds of each sweep, measured on one core for every preset's mixed contracts
with 1 to 4 decks and the hand sizes the tables use, are
:data:`rummykit.odds.data.plan.SWEEP_SECONDS`, read from the package's data file
``rummykit/odds/sweep_seconds.json`` that ``benchmarks/sweep_seconds.py --write``
measures and writes. The Python sweep, which does not drop arrangements by hand size,
is about :data:`rummykit.odds.data.plan.PYTHON_SLOWDOWN` times slower.
:func:`rummykit.odds.dealt.simulate.simulate_dealt` estimates any cell in a second.

``docs/exact-sweep.md`` is the design note (the state, the packed codes, why each
pruning is sound, a worked example); :mod:`rummykit.odds.counting._exact_model` holds the states
and their moves, :mod:`rummykit.odds.counting._exact_layers` the layers and their pruning, and
:mod:`rummykit.odds.counting.reference` a plain, slow count that lists every distinct hand.

>>> from fractions import Fraction
>>> from rummykit import CONTRACTS, RuleSet
>>> rules = RuleSet.preset("standard")
>>> p = dealt_probability(CONTRACTS[0], decks=2, jokers=4, cards=10, rules=rules)
>>> isinstance(p, Fraction), 0 < p < 1
(True, True)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction

from rummykit.engine.cards import Rank, Suit
from rummykit.engine.checks import dealt_hand, whole
from rummykit.engine.rules import MAX_JOKERS, Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.odds.cells import ExactCell
from rummykit.odds.counting._exact_layers import Sweep
from rummykit.odds.counting._exact_model import ExactTable, Progress, pareto
from rummykit.odds.data.plan import LONG_COUNT_SECONDS, duration_text, exact_seconds

__all__ = [
    "ExactTable",
    "dealt_count",
    "cached_probability",
    "dealt_probability",
    "distance_distribution",
    "exact_table",
]

#: Hand sizes and joker counts a distance sweep covers (and exact_table's defaults), so
#: that one sweep serves a whole table. A dealt-mode sweep covers what it is asked: its
#: cost grows fast with the hand size (see Sweep.run_native), so dealt_count sweeps for its
#: own hand size and jokers, and a table asks once for its largest.
_MIN_CARDS = 15
_MIN_JOKERS = 8

_ALL_RANKS = frozenset(Rank)
_ALL_SUITS = tuple(Suit)


def _check_args(contract: Contract, decks: int, jokers: int, cards: int, rules: RuleSet) -> None:
    dealt_hand(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)


def _check_plan(
    contract: Contract, decks: int, jokers: int, cards: int, rules: RuleSet, allow_long: bool
) -> None:
    """Refuse a count planned over LONG_COUNT_SECONDS, before anything is allocated."""
    if allow_long is not True and allow_long is not False:
        raise ArgumentTypeError(f"allow_long must be True or False, got {allow_long!r}")
    if allow_long:
        return
    seconds = exact_seconds(ExactCell(rules, None, contract, decks, jokers, cards))
    if seconds > LONG_COUNT_SECONDS:
        raise ArgumentError(
            f"counting {contract} in {cards} cards from {decks} decks and {jokers} jokers "
            f"exactly is planned at {duration_text(seconds)} (more than "
            f"{duration_text(LONG_COUNT_SECONDS)}, rummykit.odds.data.plan.LONG_COUNT_SECONDS): "
            "pass allow_long=True (rummykit odds --allow-long) to count anyway, ask for "
            "fewer cards or decks, or "
            "estimate it with rummykit.odds.simulate_dealt"
        )


def _shoe(decks: int, ranks: Iterable[Rank] | None, suits: Iterable[Suit] | None):
    for name, given in (("ranks", ranks), ("suits", suits)):
        if given is not None and (
            isinstance(given, str | bytes) or not isinstance(given, Iterable)
        ):
            raise ArgumentTypeError(f"{name} must be None or an iterable of {name}, got {given!r}")
    try:
        rank_set = _ALL_RANKS if ranks is None else frozenset(Rank(r) for r in ranks)
        suit_set = _ALL_SUITS if suits is None else tuple(s for s in _ALL_SUITS if s in set(suits))
    except (TypeError, ValueError):
        raise ArgumentError(
            f"ranks and suits must be Rank and Suit values, got {ranks!r}, {suits!r}"
        ) from None
    if not rank_set or not suit_set:
        raise ArgumentError("a shoe needs at least one rank and one suit")
    return rank_set, suit_set, decks * len(rank_set) * len(suit_set)


def dealt_count(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    progress: Progress | None = None,
    allow_long: bool = False,
) -> int:
    """The number of ``cards``-card hands (subsets of the physical shoe) holding ``contract``.

    ``ranks`` and ``suits`` shrink the shoe to those ranks and suits (all by default), for
    teaching and for tests that enumerate every hand.

    Bounds: 1 to 8 decks, 0 to 32 jokers (:mod:`rummykit.engine.rules`), 0 to the whole shoe of
    cards. A count planned (:func:`rummykit.odds.data.plan.exact_seconds`) over
    :data:`~rummykit.odds.data.plan.LONG_COUNT_SECONDS` (an hour) is refused before a key is made
    unless ``allow_long=True``: :func:`rummykit.odds.simulate_dealt` estimates it in seconds.

    >>> from rummykit import Contract, Rank, RuleSet, Suit
    >>> rules = RuleSet.preset("standard")
    >>> dealt_count(Contract(sets=1), decks=1, jokers=0, cards=3, rules=rules,
    ...             ranks=[Rank.TWO], suits=list(Suit))   # C(4, 3) hands, all sets
    4
    """
    _check_args(contract, decks, jokers, cards, rules)
    rank_set, suit_set, naturals = _shoe(decks, ranks, suits)
    if cards < contract.min_cards(rules):
        return 0  # too few cards for the melds: no sweep needed
    _check_plan(contract, decks, jokers, cards, rules, allow_long)
    table = exact_table(
        contract,
        rules=rules,
        decks=decks,
        ranks=rank_set,
        suits=suit_set,
        max_naturals=cards,
        joker_cap=jokers,
        progress=progress,
    )
    total = 0
    for j in range(min(jokers, cards) + 1):
        ways_jokers = math.comb(jokers, j)
        for need, poly in table.counts.items():
            if need <= j:
                total += ways_jokers * poly[cards - j]
    return total


def dealt_probability(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    progress: Progress | None = None,
    allow_long: bool = False,
) -> Fraction:
    """The exact probability that ``cards`` cards dealt from the shoe hold ``contract``.

    The shoe is ``decks`` standard decks plus ``jokers`` jokers (``ranks``/``suits``
    shrink it; the bounds and ``allow_long`` are :func:`dealt_count`'s). The hand holds the contract when it has ``contract.sets`` sets and
    ``contract.runs`` runs, no card in two melds, each legal under ``rules``: exactly what
    :func:`rummykit.engine.search.find_contract` decides. Sweeps are cached, so a second call
    with another hand size or joker count is immediate.

    P = #hands holding the contract / C(52 * decks + jokers, cards).

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> dealt_probability(Contract(sets=1), decks=1, jokers=0, cards=3, rules=rules)
    Fraction(1, 425)
    >>> Fraction(13 * 4, math.comb(52, 3))   # 13 ranks x C(4, 3) sets among C(52, 3) hands
    Fraction(1, 425)
    """
    count = dealt_count(
        contract,
        decks=decks,
        jokers=jokers,
        cards=cards,
        rules=rules,
        ranks=ranks,
        suits=suits,
        progress=progress,
        allow_long=allow_long,
    )
    _, _, naturals = _shoe(decks, ranks, suits)
    return Fraction(count, math.comb(naturals + jokers, cards))


def cached_probability(
    contract: Contract, *, decks: int, jokers: int, cards: int, rules: RuleSet
) -> Fraction | None:
    """:func:`dealt_probability` when a sweep already made in this process answers it
    (so nothing is counted), else None; a hand too small for the contract is 0.

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> cached_probability(Contract(sets=1, runs=1), decks=1, jokers=1, cards=6, rules=rules)
    Fraction(0, 1)
    >>> p = dealt_probability(Contract(sets=1, runs=1), decks=1, jokers=1, cards=8, rules=rules)
    >>> cached_probability(Contract(sets=1, runs=1), decks=1, jokers=0, cards=7, rules=rules) > 0
    True
    """
    _check_args(contract, decks, jokers, cards, rules)
    if cards < contract.min_cards(rules):
        return Fraction(0)
    key = (contract, rules.meld_rules, decks, _ALL_RANKS, _ALL_SUITS, "dealt")
    if not any(c >= cards and j >= jokers for c, j, _ in list(_CACHE.get(key, ()))):
        return None
    # dealt_count, not dealt_probability: a test standing in for the count (in place of
    # exact.dealt_probability) is never asked what the cache already knows.
    count = dealt_count(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)
    return Fraction(count, math.comb(52 * decks + jokers, cards))


def distance_distribution(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    progress: Progress | None = None,
    allow_long: bool = False,
) -> dict[int, Fraction]:
    """The exact distribution of the contract distance of a dealt hand.

    The distance of a hand is the fewest natural cards to add so that it holds
    ``contract`` (what :func:`rummykit.engine.search.contract_distance` computes with
    ``decks=decks``): added cards may be any natural of the 52, as long as the hand then
    holds at most ``decks`` copies of each card; jokers are not added. The added cards
    may be of ranks or suits missing from a shrunken shoe. Distance 0 means the hand
    holds the contract, so ``result[0] == dealt_probability(...)``. The bounds and
    ``allow_long`` are :func:`dealt_count`'s; a contract mixing sets and runs in three
    melds or more takes hours and is refused unless ``allow_long=True``
    (:func:`rummykit.odds.simulate_distance` estimates it).

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> dist = distance_distribution(Contract(sets=1), decks=1, jokers=0, cards=2, rules=rules)
    >>> dist == {1: Fraction(1, 17), 2: Fraction(16, 17)}   # a pair needs one more card
    True
    """
    _check_args(contract, decks, jokers, cards, rules)
    rank_set, suit_set, naturals = _shoe(decks, ranks, suits)
    if contract.sets and contract.runs and contract.melds >= 3 and allow_long is not True:
        raise ArgumentError(
            f"the exact distance distribution of {contract} takes hours (a contract mixing "
            "sets and runs in three melds or more): pass allow_long=True to count anyway, "
            "or estimate it with rummykit.odds.simulate_distance"
        )
    _check_plan(
        contract, decks, max(jokers, _MIN_JOKERS), max(cards, _MIN_CARDS), rules, allow_long
    )
    table = exact_table(
        contract,
        rules=rules,
        decks=decks,
        ranks=rank_set,
        suits=suit_set,
        max_naturals=max(cards, _MIN_CARDS),
        joker_cap=max(jokers, _MIN_JOKERS),
        mode="distance",
        progress=progress,
    )
    total = math.comb(naturals + jokers, cards)
    result: dict[int, int] = defaultdict(int)
    for j in range(min(jokers, cards) + 1):
        ways_jokers = math.comb(jokers, j)
        for need, poly in table.counts.items():
            if poly[cards - j]:
                # Jokers beyond the most the contract can use change nothing.
                result[need[min(j, len(need) - 1)]] += ways_jokers * poly[cards - j]
    return {d: Fraction(n, total) for d, n in sorted(result.items()) if n}


def exact_table(
    contract: Contract,
    *,
    rules: RuleSet,
    decks: int,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    max_naturals: int = _MIN_CARDS,
    joker_cap: int = _MIN_JOKERS,
    mode: str = "dealt",
    progress: Progress | None = None,
) -> ExactTable:
    """Run (or fetch from the cache) one sweep; see :class:`ExactTable`.

    ``progress(done, total)`` is called after each step of the sweep.
    """
    if mode not in ("dealt", "distance"):
        raise ArgumentError(f"mode must be 'dealt' or 'distance', got {mode!r}")
    dealt_hand(contract, decks=decks, jokers=0, cards=0, rules=rules)
    whole("max_naturals", max_naturals, low=0, high=52 * decks)
    whole("joker_cap", joker_cap, low=0, high=MAX_JOKERS)
    rank_set, suit_set, _ = _shoe(decks, ranks, suits)
    return _cached_table(
        contract, rules, decks, rank_set, suit_set, max_naturals, joker_cap, mode, progress
    )


def _cached_table(contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode, progress):
    key = (contract, rules.meld_rules, decks, ranks, suits, mode)
    # A table answers any request with no more cards and no more jokers than it was
    # asked for (its own joker_cap may be lower: jokers the contract cannot use).
    for cards, jokers, table in _CACHE.get(key, ()):
        if cards >= max_naturals and jokers >= joker_cap:
            return table
    if contract.sets == 0:
        table = _runs_only(
            contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode, progress
        )
    else:
        sweep = Sweep(contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode)
        table = sweep.run(progress)
    _CACHE.setdefault(key, []).append((max_naturals, joker_cap, table))
    return table


_CACHE: dict = {}


def _runs_only(contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode, progress):
    """Runs never mix suits, so sweep one suit and combine the suits afterwards.

    One suit's sweep gives, for each holding of that suit, its *profile*: for each number
    of runs r = 0..R, the best (jokers, added cards) that make r runs in the suit (one
    pair in "dealt" mode, a Pareto front in "distance" mode). A hand's best for R runs is
    the min-plus convolution of its suits' profiles, and suits are dealt independently
    given their sizes, so the count is a product of polynomials summed over profiles.
    In distance mode the suits missing from the shoe count too (cards may be added).
    """
    kinds = [(suits[0], len(suits))]
    if mode == "distance" and len(suits) < 4:
        kinds.append((None, 4 - len(suits)))
    top, R = max_naturals, contract.runs
    combined = {(((0, 0),),) + ((),) * R: [1] + [0] * top}
    jcap = 0
    for suit, repeat in kinds:
        sweep = Sweep(
            contract,
            rules,
            decks,
            ranks,
            (suit,) if suit else (),
            max_naturals,
            joker_cap,
            mode,
            swept=((suit or suits[0]).index,),
            profile=True,
        )
        jcap = sweep.jcap
        one = sweep.run(progress).counts
        for _ in range(repeat):
            combined = _convolve(combined, one, R, jcap, top)
    counts: dict = {}
    for prof, poly in combined.items():
        front = prof[R]
        if not front:
            continue
        if mode == "dealt":
            need = front[0][0]
        else:
            need = tuple(min(a for j, a in front if j <= k) for k in range(jcap + 1))
        acc = counts.setdefault(need, [0] * (top + 1))
        for i, v in enumerate(poly):
            acc[i] += v
    naturals = decks * len(ranks) * len(suits)
    return ExactTable(mode, naturals, top, jcap, counts, len(combined))


def _convolve(combined: dict, one: dict, R: int, jcap: int, top: int) -> dict:
    """Add one suit: min-plus convolve the profiles, multiply the polynomials."""
    out: dict = {}
    for prof_a, poly_a in combined.items():
        for prof_b, poly_b in one.items():
            prof = tuple(
                tuple(
                    pareto(
                        (ja + jb, aa + ab)
                        for i in range(r + 1)
                        for ja, aa in prof_a[i]
                        for jb, ab in prof_b[r - i]
                        if ja + jb <= jcap
                    )
                )
                for r in range(R + 1)
            )
            acc = out.setdefault(prof, [0] * (top + 1))
            for i, u in enumerate(poly_a):
                if u:
                    for k in range(top + 1 - i):
                        if poly_b[k]:
                            acc[i + k] += u * poly_b[k]
    return out
