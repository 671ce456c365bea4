"""Monte Carlo estimates of contract odds, with standard errors and Wilson intervals.

Hands are dealt with numpy (a seeded ``numpy.random.Generator``, never global state) as
arrays of card numbers, many at a time. A vectorised test then decides most hands at
once: set-only and one-run contracts mostly exactly (a necessary and a sufficient
condition that meet for nearly every hand), other contracts by a necessary condition
(the sets alone, one run alone, enough cards) that turns most hands away; only the hands
left undecided are checked one by one by :func:`rummykit.melds.find_contract`.

>>> from rummykit import CONTRACTS, RuleSet
>>> est = simulate_dealt(CONTRACTS[0], decks=2, jokers=4, cards=10,
...                      rules=RuleSet.preset("standard"), n=20_000, seed=1)
>>> est.n, 0 < est.p < 1, est.ci_low < est.p < est.ci_high
(20000, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rummykit.cards import Card, Rank, Suit
from rummykit.melds import find_contract
from rummykit.rules import Contract, RuleSet

__all__ = [
    "Estimate",
    "deal_hands",
    "hand_counts",
    "running_estimate",
    "simulate_dealt",
    "wilson_interval",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
_INF = 10**6
_BATCH = 100_000


@dataclass(frozen=True)
class Estimate:
    """A simulated probability: the share of ``n`` trials that were successes.

    >>> est = Estimate.from_counts(25, 100)
    >>> est.p, round(est.stderr, 4)
    (0.25, 0.0433)
    >>> print(est)
    p = 25.00% ± 4.33% (95% Wilson interval 17.55%-34.30%; 25 of 100)
    """

    p: float
    """The estimate, ``successes / n``."""
    stderr: float
    """Its standard error, ``sqrt(p (1 - p) / n)``."""
    ci_low: float
    """Lower end of the 95% Wilson score interval."""
    ci_high: float
    """Upper end of the 95% Wilson score interval."""
    n: int
    """Number of trials."""
    successes: int
    """Number of successes."""

    @classmethod
    def from_counts(cls, successes: int, n: int) -> Estimate:
        """The estimate, standard error and Wilson interval from counts."""
        if not isinstance(n, int) or n < 1 or not 0 <= successes <= n:
            raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
        p = successes / n
        low, high = wilson_interval(successes, n)
        return cls(p, math.sqrt(p * (1 - p) / n), low, high, n, successes)

    def __str__(self) -> str:
        return (
            f"p = {self.p:.2%} ± {self.stderr:.2%} (95% Wilson interval "
            f"{self.ci_low:.2%}-{self.ci_high:.2%}; {self.successes:,} of {self.n:,})"
        )

    def _repr_html_(self) -> str:
        return (
            f"<p><b>{self.p:.2%}</b> &plusmn; {self.stderr:.2%} "
            f"(95% interval {self.ci_low:.2%} to {self.ci_high:.2%}; "
            f"{self.successes:,} of {self.n:,} hands)</p>"
        )


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    centre = (p + z^2 / 2n) / (1 + z^2 / n),
    half-width = z sqrt(p (1 - p) / n + z^2 / 4n^2) / (1 + z^2 / n).

    ``successes`` and ``n`` may be effective (non-integer) counts; with ``n <= 0``
    nothing is known and the interval is (0, 1).

    >>> low, high = wilson_interval(0, 100)
    >>> low, round(high, 4)
    (0.0, 0.037)
    >>> wilson_interval(10, 10)[1]
    1.0
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def deal_hands(
    *, decks: int, jokers: int, cards: int, n: int, rng: np.random.Generator
) -> np.ndarray:
    """``n`` hands of ``cards`` cards, an ``(n, cards)`` array of card numbers.

    Card number ``i < 52 * decks`` is the natural ``i % 52`` (suit-major as
    :attr:`rummykit.cards.Card.index`) of deck ``i // 52``; the rest are jokers. Each row
    is a uniform draw without replacement (a partial Fisher-Yates shuffle per row).

    >>> hands = deal_hands(decks=1, jokers=2, cards=5, n=3, rng=np.random.default_rng(0))
    >>> hands.shape, bool((np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1]).all())
    ((3, 5), True)
    """
    size = 52 * decks + jokers
    if not 0 <= cards <= size:
        raise ValueError(f"cannot deal {cards} cards from a shoe of {size}")
    dtype = np.uint8 if size <= 256 else np.uint16
    perm = np.tile(np.arange(size, dtype=dtype), (n, 1))
    rows = np.arange(n)
    for i in range(cards):
        j = i + rng.integers(0, size - i, size=n)
        picked = perm[rows, j]
        perm[rows, j] = perm[:, i]
        perm[:, i] = picked
    return perm[:, :cards].astype(np.int16)


def hand_counts(hands: np.ndarray, decks: int) -> np.ndarray:
    """Copies of each card type in each hand: ``(n, 53)``, column 52 the jokers.

    >>> hand_counts(np.array([[0, 52, 104]]), decks=2)[0, [0, 52]].tolist()
    [2, 1]
    """
    types = _card_types(decks, int(hands.max(initial=0)) + 1)[hands]
    counts = np.zeros((hands.shape[0], 53), dtype=np.int16)
    rows = np.arange(hands.shape[0])
    for column in range(hands.shape[1]):
        counts[rows, types[:, column]] += 1
    return counts


def _card_types(decks: int, size: int) -> np.ndarray:
    numbers = np.arange(max(size, 52 * decks))
    return np.where(numbers < 52 * decks, numbers % 52, 52).astype(np.intp)


class _Decider:
    """Decides many hands at once: vectorised where it can, find_contract otherwise."""

    def __init__(self, contract: Contract, rules: RuleSet, decks: int):
        self.contract, self.rules, self.decks = contract, rules, decks
        self.J = _INF if rules.max_jokers_per_meld is None else rules.max_jokers_per_meld
        self.Ls = max(rules.min_set_size, rules.min_naturals_in_set)
        self.set_naturals = max(rules.min_naturals_in_set, self.Ls - self.J)
        # Every physical card a hand can hold: copy k of card type t, and joker k.
        self.copies = [
            [Card(Rank(t % 13 + 2), list(Suit)[t // 13], k) for k in range(decks)]
            for t in range(52)
        ]
        self.jokers = [Card.joker(k) for k in range(64)]
        self.checked = 0

    def set_jokers(self, ranks: np.ndarray) -> np.ndarray:
        """Fewest jokers for the contract's sets alone, from naturals per rank (n, 13)."""
        S = self.contract.sets
        best = np.full((ranks.shape[0], S + 1), _INF, dtype=np.int64)
        best[:, 0] = 0
        for r in range(13):
            t = ranks[:, r]
            new = best.copy()
            for k in range(1, S + 1):
                cost = np.where(t >= k * self.set_naturals, np.maximum(0, k * self.Ls - t), _INF)
                for have in range(S - k + 1):
                    new[:, have + k] = np.minimum(new[:, have + k], best[:, have] + cost)
            best = new
        return best[:, S]

    def run_jokers(self, counts: np.ndarray) -> np.ndarray:
        """Fewest jokers for one run alone in each suit, from card counts: ``(n, 4)``."""
        rules = self.rules
        by_suit = counts[:, :52].reshape(-1, 4, 13) > 0
        # Positions 1..14: the ace low, 2..K, the ace high; unusable positions are off.
        present = np.concatenate([by_suit[:, :, 12:13], by_suit], axis=2)
        allowed = np.zeros(14, dtype=bool)
        allowed[[p - 1 for p in rules.run_positions()]] = True
        present &= allowed
        csum = np.zeros(present.shape[:2] + (15,), dtype=np.int8)
        np.cumsum(present, axis=2, out=csum[:, :, 1:])
        best = np.full(present.shape[:2], _INF, dtype=np.int64)
        longest = min(13, rules.min_run_size + min(self.J, 13))
        for length in range(rules.min_run_size, longest + 1):
            # Window [low, low + length - 1] for low = 1 .. 15 - length.
            nats = csum[:, :, length:] - csum[:, :, :-length]
            lows = np.arange(1, 16 - length)
            legal = allowed[lows - 1] & allowed[lows + length - 2] & ~((lows == 1) & (length == 14))
            nats = np.where(legal, nats, 0).max(axis=2).astype(np.int64)
            ok = (nats >= rules.min_naturals_in_run) & (length - nats <= self.J)
            best = np.minimum(best, np.where(ok, length - nats, _INF))
        return best

    def decide(self, hands: np.ndarray) -> np.ndarray:
        counts = hand_counts(hands, self.decks)
        jokers = counts[:, 52].astype(np.int64)
        ranks = counts[:, :52].reshape(-1, 4, 13).sum(axis=1)
        contract = self.contract
        if contract.runs == 0:
            return self.set_jokers(ranks) <= jokers
        per_suit = self.run_jokers(counts)
        run = per_suit.min(axis=1)
        capable = per_suit <= jokers[:, None]
        if contract.sets:
            # Necessary: the sets and one run, each alone. Sufficient when the contract
            # has one run: sets made without one natural of each rank that a suit able
            # to hold the run has (a set can take any suit, so it leaves the run the
            # card it uses).
            need = self.set_jokers(ranks) + run
            runnable = (counts[:, :52].reshape(-1, 4, 13) > 0) & capable[:, :, None]
            spare = ranks - runnable.any(axis=1)
            sure = self.set_jokers(spare) + run <= jokers
        else:
            need = run
            sure = run <= jokers
        if contract.runs > 1:
            # Necessary: room for every run, a suit holding at most
            # (its naturals // min_naturals_in_run) of them.
            suit_naturals = counts[:, :52].reshape(-1, 4, 13).sum(axis=2)
            room = np.where(capable, suit_naturals // self.rules.min_naturals_in_run, 0)
            material = np.where(capable, suit_naturals, 0).sum(axis=1) + jokers
            mr = self.rules.min_run_size
            possible = (room.sum(axis=1) >= contract.runs) & (material >= contract.runs * mr)
            if contract.runs == 2:
                # Two suits, each paying for its own run, or one suit holding both.
                costs = np.sort(per_suit, axis=1)
                apart = costs[:, 0] + costs[:, 1] <= jokers
                together = ((room >= 2) & (suit_naturals + jokers[:, None] >= 2 * mr)).any(axis=1)
                possible &= apart | together
            need = np.where(possible, need, _INF)
        naturals = hands.shape[1] - jokers
        enough = naturals + jokers >= contract.min_cards(self.rules)
        if contract.runs == 1:
            result = sure & enough
            maybe = (need <= jokers) & enough & ~result
        else:
            result = np.zeros(hands.shape[0], dtype=bool)
            maybe = (need <= jokers) & enough
        for row in np.flatnonzero(maybe):
            result[row] = find_contract(self.hand(counts[row]), contract, self.rules) is not None
        self.checked += int(maybe.sum())
        return result

    def hand(self, counts: np.ndarray) -> list[Card]:
        cards = []
        for t in np.flatnonzero(counts[:52]):
            cards.extend(self.copies[t][: counts[t]])
        cards.extend(self.jokers[: counts[52]])
        return cards


def _outcomes(contract, *, decks, jokers, cards, rules, n, seed, batch):
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    rng = np.random.default_rng(seed)
    decider = _Decider(contract, rules, decks)
    done = 0
    while done < n:
        size = min(batch, n - done)
        hands = deal_hands(decks=decks, jokers=jokers, cards=cards, n=size, rng=rng)
        yield decider.decide(hands)
        done += size


def simulate_dealt(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    n: int,
    seed: int | None,
    batch: int = _BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> Estimate:
    """Estimate the probability that a dealt hand holds ``contract``, from ``n`` deals.

    The same seed gives the same estimate. ``progress(done, n)`` is called after each
    batch of hands.
    """
    successes = 0
    done = 0
    for outcome in _outcomes(
        contract,
        decks=decks,
        jokers=jokers,
        cards=cards,
        rules=rules,
        n=n,
        seed=seed,
        batch=batch,
    ):
        successes += int(outcome.sum())
        done += outcome.size
        if progress is not None:
            progress(done, n)
    return Estimate.from_counts(successes, n)


def running_estimate(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    n: int,
    seed: int | None,
    points: int = 50,
):
    """The estimate after each of ``points`` numbers of hands up to ``n`` (log-spaced).

    For teaching convergence: a polars DataFrame with one row per checkpoint and the
    columns ``n``, ``successes``, ``p``, ``stderr``, ``ci_low``, ``ci_high``; the
    interval narrows like ``1 / sqrt(n)`` around the exact value.

    >>> from rummykit import CONTRACTS, RuleSet
    >>> frame = running_estimate(CONTRACTS[0], decks=2, jokers=4, cards=10,
    ...                          rules=RuleSet.preset("standard"), n=2000, seed=3, points=5)
    >>> frame.columns, frame["n"].to_list()[-1]
    (['n', 'successes', 'p', 'stderr', 'ci_low', 'ci_high'], 2000)
    """
    import polars as pl

    outcome = np.concatenate(
        list(
            _outcomes(
                contract,
                decks=decks,
                jokers=jokers,
                cards=cards,
                rules=rules,
                n=n,
                seed=seed,
                batch=_BATCH,
            )
        )
    )
    running = np.cumsum(outcome)
    marks = np.unique(np.geomspace(1, n, num=max(points, 2)).round().astype(np.int64))
    rows = [Estimate.from_counts(int(running[m - 1]), int(m)) for m in marks]
    return pl.DataFrame(
        {
            "n": [r.n for r in rows],
            "successes": [r.successes for r in rows],
            "p": [r.p for r in rows],
            "stderr": [r.stderr for r in rows],
            "ci_low": [r.ci_low for r in rows],
            "ci_high": [r.ci_high for r in rows],
        },
        schema={
            "n": pl.Int64,
            "successes": pl.Int64,
            "p": pl.Float64,
            "stderr": pl.Float64,
            "ci_low": pl.Float64,
            "ci_high": pl.Float64,
        },
    )
