"""Monte Carlo estimates of contract odds, with standard errors and Wilson intervals.

Hands are dealt with numpy (a seeded ``numpy.random.Generator``, never global state) as
arrays of card numbers, many at a time. Vectorised tests then decide nearly every hand
at once, each a necessary or a sufficient condition for the contract: set-only
contracts exactly; the others first by the sets and the runs apart (the sets alone, one
run alone, enough cards), then, for one or two runs, by every window the runs could
fill. Only the few hands left undecided are checked one by one by
:func:`rummykit.engine.search.find_contract`, so the estimate is exactly what checking every
hand with it would give.

>>> from rummykit import CONTRACTS, RuleSet
>>> est = simulate_dealt(CONTRACTS[0], decks=2, jokers=4, cards=10,
...                      rules=RuleSet.preset("standard"), n=20_000, seed=1)
>>> est.n, 0 < est.p < 1, est.ci_low < est.p < est.ci_high
(20000, True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

import numpy as np
from more_itertools import consume

from rummykit.chance import wilson_interval
from rummykit.engine.cards import Card, Rank, Shoe, Suit
from rummykit.engine.checks import dealt_hand, instance, whole
from rummykit.engine.checks import seed as check_seed
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS, Contract, RuleSet, meld_limits, run_windows
from rummykit.engine.search import contract_distance, find_contract
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.odds.estimate import Estimate

__all__ = [
    "Estimate",
    "deal_hands",
    "hand_counts",
    "running_estimate",
    "simulate_dealt",
    "simulate_distance",
    "wilson_interval",
]

_INF = 10**6
_BATCH = 100_000


def deal_hands(
    *, decks: int, jokers: int, cards: int, n: int, rng: np.random.Generator
) -> np.ndarray:
    """``n`` hands of ``cards`` cards, an ``(n, cards)`` array of card numbers.

    Card number ``i < 52 * decks`` is the natural ``i % 52`` (suit-major as
    :attr:`rummykit.engine.cards.Card.index`) of deck ``i // 52``; the rest are jokers. Each row
    is a uniform draw without replacement (a partial Fisher-Yates shuffle per row).

    >>> hands = deal_hands(decks=1, jokers=2, cards=5, n=3, rng=np.random.default_rng(0))
    >>> hands.shape, bool((np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1]).all())
    ((3, 5), True)
    """
    whole("decks", decks, low=1, high=MAX_DECKS)
    whole("jokers", jokers, low=0, high=MAX_JOKERS)
    whole("n", n, low=0, high=MAX_BATCH, hint="deal more in batches")
    instance("rng", rng, np.random.Generator, "a numpy Generator")
    size = Shoe(decks=decks, jokers=jokers).size
    if not isinstance(cards, int) or not 0 <= cards <= size:
        raise ArgumentError(f"cannot deal {cards!r} cards from a shoe of {size}")
    dtype = np.uint8 if size <= 256 else np.uint16
    perm = np.tile(np.arange(size, dtype=dtype), (n, 1))
    rows = np.arange(n)
    for i, offset in enumerate(_deal_draws(rng, size=size, cards=cards, n=n)):
        j = i + offset
        picked = perm[rows, j]
        perm[rows, j] = perm[:, i]
        perm[:, i] = picked
    return perm[:, :cards].astype(np.int16)


def _deal_draws(rng: np.random.Generator, *, size: int, cards: int, n: int):
    """The random numbers :func:`deal_hands` draws, in order: for each card dealt, the
    offset of the card picked among those left, one per hand. Drawing them without
    dealing moves ``rng`` on exactly as dealing does (see :func:`simulate_dealt`)."""
    for i in range(cards):
        yield rng.integers(0, size - i, size=n)


def hand_counts(hands: np.ndarray, decks: int) -> np.ndarray:
    """Copies of each card type in each hand: ``(n, 53)``, column 52 the jokers.

    >>> hand_counts(np.array([[0, 52, 104]]), decks=2)[0, [0, 52]].tolist()
    [2, 1]
    """
    whole("decks", decks, low=1, high=MAX_DECKS)
    instance("hands", hands, (np.ndarray, list, tuple), "a 2-D array of card numbers")
    try:
        hands = np.asarray(hands)
    except ValueError:  # ragged rows
        hands = np.asarray([], dtype=object)
    if hands.ndim != 2 or not (np.issubdtype(hands.dtype, np.integer) or hands.size == 0):
        raise ArgumentTypeError(
            f"hands must be a 2-D array of card numbers (one row per hand), got {hands!r:.80}"
        )
    size = 52 * decks + MAX_JOKERS
    if hands.size and (hands.min() < 0 or hands.max() >= size):
        raise ArgumentError(f"hands must hold card numbers from 0 to {size - 1}, got {hands!r:.80}")
    types = _card_types(decks, int(hands.max(initial=0)) + 1)[hands]
    counts = np.zeros((hands.shape[0], 53), dtype=np.int16)
    rows = np.arange(hands.shape[0])
    for column in range(hands.shape[1]):
        counts[rows, types[:, column]] += 1
    return counts


def _card_types(decks: int, size: int) -> np.ndarray:
    numbers = np.arange(max(size, 52 * decks))
    return np.where(numbers < 52 * decks, numbers % 52, 52).astype(np.intp)


# A suit mask has bit r set when the suit holds rank index r (the 2 is 0, the ace 12);
# row m of this table is mask m as 13 flags.
_MASK_RANKS = ((np.arange(1 << 13)[:, None] >> np.arange(13)) & 1).astype(np.int16)


def _suit_masks(present: np.ndarray) -> np.ndarray:
    """The 13-bit mask of each suit from ``(n, 4, 13)`` presence flags: ``(n, 4)``."""
    packed = np.packbits(present, axis=2, bitorder="little").astype(np.intp)
    return packed[:, :, 0] | (packed[:, :, 1] << 8)


class _Decider:
    """Decides many hands at once: vectorised where it can, find_contract otherwise.

    The first pass bounds the sets and the runs apart. Contracts with one or two runs
    get a second pass over the hands it leaves open, trying every window a run could
    fill (every pair of windows for two runs): see :meth:`window_bounds`.
    """

    def __init__(self, contract: Contract, rules: RuleSet, decks: int):
        self.contract, self.rules, self.decks = contract, rules, decks
        self.limits = limits = meld_limits(rules)
        self.Ls = limits.set_cards
        self.set_naturals = limits.set_naturals
        # Every physical card a hand can hold: copy k of card type t, and joker k.
        self.copies = [
            [Card(Rank(t % 13 + 2), list(Suit)[t // 13], k) for k in range(decks)]
            for t in range(52)
        ]
        self.jokers = [Card.joker(k) for k in range(64)]
        self.checked = 0
        self._windows()
        # Fewest jokers for one run in a suit, for every mask of ranks the suit holds.
        self.run_cost = np.where(self.win_ok, self.win_holes, _INF).min(axis=1)

    def _windows(self) -> None:
        """Tables of the windows a run may fill, by suit mask: the windows the exact
        search tries (:func:`~rummykit.engine.rules.run_windows`)."""
        limits = self.limits
        windows = run_windows(self.rules)
        self.win_start = np.array([s for s, _ in windows])
        self.win_end = np.array([s + n - 1 for s, n in windows])
        # The ace low (1) and high (14) are one rank; a window never holds both.
        self.win_ranks = np.array(
            [sum(1 << (12 if p in (1, 14) else p - 2) for p in range(s, s + n)) for s, n in windows]
        )
        lengths_w = np.array([n for _, n in windows])
        naturals = _MASK_RANKS @ ((self.win_ranks[:, None] >> np.arange(13)) & 1).T
        self.win_holes = (lengths_w - naturals).astype(np.int64)
        # The most jokers a run on each window may hold: a window is a legal run when
        # its holes are no more (MeldLimits.run_ok), and the run may leave out as many
        # more of its naturals as that leaves room for, taking a joker for each.
        caps = np.array([limits.run_jokers(n) for _, n in windows], dtype=np.int64)
        self.win_ok = self.win_holes <= caps
        self.win_give = np.clip(caps - self.win_holes, 0, None)

    def set_jokers(self, ranks: np.ndarray) -> np.ndarray:
        """Fewest jokers for the contract's sets alone, from naturals per rank (n, 13).

        At least ``_INF`` when the sets are impossible.
        """
        S = self.contract.sets
        if S == 0:
            return np.zeros(ranks.shape[0], dtype=np.int64)
        # Only the S ranks holding most naturals matter: a set moved to a rank with at
        # least as many naturals never needs more jokers.
        top = np.partition(ranks, 13 - S, axis=1)[:, 13 - S :] if S < 13 else ranks
        best = np.full((ranks.shape[0], S + 1), _INF, dtype=np.int64)
        best[:, 0] = 0
        for r in range(top.shape[1]):
            t = top[:, r]
            # cost[k - 1]: k sets of this rank.
            cost = [
                np.where(t >= k * self.set_naturals, np.maximum(0, k * self.Ls - t), _INF)
                for k in range(1, S + 1)
            ]
            # Most sets first, so each reads the fewer sets of the ranks before this one.
            for have in range(S, 0, -1):
                for k in range(1, have + 1):
                    np.minimum(best[:, have], best[:, have - k] + cost[k - 1], out=best[:, have])
        return best[:, S]

    def window_bounds(
        self, masks: np.ndarray, twice: np.ndarray, ranks: np.ndarray, jokers: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(sure, possible) for hands with one or two runs, from the suit masks of the
        cards held and held twice, naturals per rank and jokers.

        A run fills a window with the naturals it holds; it may leave some out (up to
        its ``give``), each paid for by a joker. Two runs of one suit need two copies
        of a card both use, so one of them leaves out each card held once that both
        windows cover. ``sure``: the runs leave out only those and the sets fit in
        what is left. ``possible``: the same, or the runs leave out more, costing at
        least one more joker, with sets at best as cheap as from the whole hand.
        """
        usable = self.win_ok[masks] & (self.win_holes[masks] <= jokers[:, None, None])
        row, suit, window = np.nonzero(usable)
        held = masks[row, suit]
        used = held & self.win_ranks[window]
        holes = self.win_holes[held, window]
        give = self.win_give[held, window]
        whole = self.set_jokers(ranks)
        if self.contract.runs == 1:
            cost = holes + self.set_jokers(ranks[row] - _MASK_RANKS[used])
            sure_each = cost <= jokers[row]
            low_each = np.where(give > 0, np.minimum(cost, holes + 1 + whole[row]), cost)
        else:
            # Every pair (a, b), a <= b, of the windows found in one hand.
            pairs = np.searchsorted(row, row, side="right") - np.arange(row.size)
            a = np.repeat(np.arange(row.size), pairs)
            b = a + np.arange(a.size) - np.repeat(np.cumsum(pairs) - pairs, pairs)
            same = suit[a] == suit[b]
            row = row[a]
            lone = np.where(same, used[a] & used[b] & ~twice[row, suit[a]], 0)
            left_out = _MASK_RANKS[lone].sum(axis=1)
            give = give[a] + give[b]
            holes = holes[a] + holes[b] + left_out
            left = ranks[row] - _MASK_RANKS[used[a]] - _MASK_RANKS[used[b]] + _MASK_RANKS[lone]
            cost = np.where(left_out <= give, holes + self.set_jokers(left), _INF)
            legal = np.ones(a.size, dtype=bool)
            if self.limits.separated:
                # Two runs of one suit at least one rank apart, as the exact search has it.
                legal = ~same | (
                    (self.win_end[window[a]] + 1 < self.win_start[window[b]])
                    | (self.win_end[window[b]] + 1 < self.win_start[window[a]])
                )
            sure_each = legal & (cost <= jokers[row])
            low_each = np.where(left_out < give, np.minimum(cost, holes + 1 + whole[row]), cost)
            low_each = np.where(legal, low_each, _INF)
        sure = np.zeros(masks.shape[0], dtype=bool)
        sure[row[sure_each]] = True
        low = np.full(masks.shape[0], _INF, dtype=np.int64)
        np.minimum.at(low, row, low_each)
        return sure, low <= jokers

    def decide(self, hands: np.ndarray) -> np.ndarray:
        counts = hand_counts(hands, self.decks)
        jokers = counts[:, 52].astype(np.int64)
        ranks = counts[:, :52].reshape(-1, 4, 13).sum(axis=1)
        contract = self.contract
        if contract.runs == 0:
            return self.set_jokers(ranks) <= jokers
        present = counts[:, :52].reshape(-1, 4, 13) > 0
        masks = _suit_masks(present)
        per_suit = self.run_cost[masks]
        run = per_suit.min(axis=1)
        capable = per_suit <= jokers[:, None]
        if contract.sets:
            # Necessary: the sets and one run, each alone. Sufficient when the contract
            # has one run: sets made without one natural of each rank that a suit able
            # to hold the run has (a set can take any suit, so it leaves the run the
            # card it uses).
            need = self.set_jokers(ranks) + run
            runnable = present & capable[:, :, None]
            spare = ranks - runnable.any(axis=1)
            sure = self.set_jokers(spare) + run <= jokers
        else:
            need = run
            sure = run <= jokers
        if contract.runs > 1:
            # Necessary: room for every run, a suit holding at most
            # (its naturals // min_naturals_in_run) of them.
            suit_naturals = counts[:, :52].reshape(-1, 4, 13).sum(axis=2)
            room = np.where(capable, suit_naturals // self.limits.run_naturals, 0)
            material = np.where(capable, suit_naturals, 0).sum(axis=1) + jokers
            mr = self.limits.run_size
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
        open_rows = np.flatnonzero(maybe)
        if contract.runs <= 2 and open_rows.size:
            twice = _suit_masks(counts[open_rows, :52].reshape(-1, 4, 13) > 1)
            sure, possible = self.window_bounds(
                masks[open_rows], twice, ranks[open_rows], jokers[open_rows]
            )
            result[open_rows[sure]] = True
            open_rows = open_rows[possible & ~sure]
        for row in open_rows:
            result[row] = find_contract(self.hand(counts[row]), contract, self.rules) is not None
        self.checked += int(open_rows.size)
        return result

    def hand(self, counts: np.ndarray) -> list[Card]:
        cards = []
        for t in np.flatnonzero(counts[:52]):
            cards.extend(self.copies[t][: counts[t]])
        cards.extend(self.jokers[: counts[52]])
        return cards


def _outcomes(contract, *, decks, jokers, cards, rules, n, seed, batch):
    _check_simulation(contract, decks, jokers, cards, rules, n, seed, batch)
    rng = np.random.default_rng(seed)
    decider = _Decider(contract, rules, decks)
    done = 0
    while done < n:
        size = min(batch, n - done)
        hands = deal_hands(decks=decks, jokers=jokers, cards=cards, n=size, rng=rng)
        yield decider.decide(hands)
        done += size


#: The most hands one simulation deals (at about a million hands a second and core for
#: small contracts, minutes): pool several seeds' estimates for more.
MAX_HANDS = 10**8
#: The most hands dealt at once. A batch holds one row of the whole shoe per hand, 1 or 2
#: bytes a card: at the bounds (8 decks, 32 jokers, a batch of 10**5) about 90 MB, the
#: memory a simulation needs beyond the interpreter's.
MAX_BATCH = 10**5


def _check_simulation(contract, decks, jokers, cards, rules, n, seed, batch) -> None:
    """Check a simulation's arguments against their bounds, before anything is dealt."""
    dealt_hand(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)
    whole("n", n, low=1, high=MAX_HANDS, hint="pool the estimates of several seeds for more")
    whole("batch", batch, low=1, high=MAX_BATCH)
    check_seed(seed)


def _batch_successes(contract, rules, decks, jokers, cards, size, state) -> int:
    """Successes among ``size`` hands dealt from a generator in ``state``: one batch."""
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    hands = deal_hands(decks=decks, jokers=jokers, cards=cards, n=size, rng=rng)
    return int(_Decider(contract, rules, decks).decide(hands).sum())


def _batch_tasks(contract, *, decks, jokers, cards, rules, n, seed, batch) -> list[tuple]:
    """The batches of a serial run as tasks: each starts from the generator's state where
    the serial run would deal it, found by drawing (not dealing) the batches before it."""
    _check_simulation(contract, decks, jokers, cards, rules, n, seed, batch)
    size = Shoe(decks=decks, jokers=jokers).size
    if not 0 <= cards <= size:
        raise ArgumentError(f"cannot deal {cards} cards from a shoe of {size}")
    rng = np.random.default_rng(seed)
    tasks = []
    for done in range(0, n, batch):
        hands = min(batch, n - done)
        tasks.append((contract, rules, decks, jokers, cards, hands, rng.bit_generator.state))
        consume(_deal_draws(rng, size=size, cards=cards, n=hands))
    return tasks


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
    executor: Executor | None = None,
) -> Estimate:
    """Estimate the probability that a dealt hand holds ``contract``, from ``n`` deals.

    The same seed gives the same estimate. ``progress(done, n)`` is called after each
    batch of hands. With an ``executor`` (a process pool, a Dask cluster's: see
    :mod:`rummykit.odds.data.cluster`) the batches are dealt and decided on its workers, each
    from the generator state where this process would have dealt it, so the estimate is
    the same as without.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> from rummykit import CONTRACTS
    >>> hand = dict(decks=2, jokers=4, cards=10, rules=RuleSet.preset("standard"))
    >>> serial = simulate_dealt(CONTRACTS[1], **hand, n=5_000, seed=3, batch=2_000)
    >>> with ThreadPoolExecutor(2) as pool:
    ...     spread = simulate_dealt(CONTRACTS[1], **hand, n=5_000, seed=3, batch=2_000,
    ...                             executor=pool)
    >>> spread == serial
    True
    """
    if executor is not None:
        return _simulate_on(
            executor, contract, decks, jokers, cards, rules, n, seed, batch, progress
        )
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


def _simulate_on(executor, contract, decks, jokers, cards, rules, n, seed, batch, progress):
    from rummykit.odds.data.pool import run_sweep

    tasks = _batch_tasks(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, n=n, seed=seed, batch=batch
    )
    dealt = [0]

    def finished(i: int, successes: int) -> None:
        dealt[0] += tasks[i][5]
        if progress is not None:
            progress(dealt[0], n)

    counts = run_sweep(
        _batch_successes, tasks, executor=executor, progress=False, on_result=finished
    )
    return Estimate.from_counts(sum(counts), n)


def simulate_distance(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    n: int,
    seed: int | None,
    batch: int = _BATCH,
) -> dict[int, int]:
    """How many of ``n`` dealt hands lie at each contract distance: ``{distance: hands}``,
    distances ascending (those no hand reached left out).

    The distance is :func:`rummykit.engine.search.contract_distance` with ``decks=decks``
    (copies limited by the shoe, as :func:`rummykit.odds.counting.exact.distance_distribution`
    counts it exactly), compiled where ``rummykit._native.distance`` is built. The hands are
    the ones :func:`simulate_dealt` deals for the same arguments and seed, so the count
    at distance 0 is its number of successes.

    >>> from rummykit import CONTRACTS, RuleSet
    >>> found = simulate_distance(CONTRACTS[0], decks=2, jokers=4, cards=10,
    ...                           rules=RuleSet.preset("standard"), n=2_000, seed=1)
    >>> dealt = simulate_dealt(CONTRACTS[0], decks=2, jokers=4, cards=10,
    ...                        rules=RuleSet.preset("standard"), n=2_000, seed=1)
    >>> sum(found.values()), found[0] == dealt.successes, list(found) == sorted(found)
    (2000, True, True)
    """
    _check_simulation(contract, decks, jokers, cards, rules, n, seed, batch)
    rng = np.random.default_rng(seed)
    # Card number i is natural i % 52 of deck i // 52, then the jokers (deal_hands).
    physical = [
        Card(Rank(i % 13 + 2), list(Suit)[i % 52 // 13], i // 52) for i in range(52 * decks)
    ]
    physical += [Card.joker(k) for k in range(jokers)]
    found: dict[int, int] = {}
    done = 0
    while done < n:
        size = min(batch, n - done)
        for row in deal_hands(decks=decks, jokers=jokers, cards=cards, n=size, rng=rng).tolist():
            d = contract_distance([physical[c] for c in row], contract, rules, decks=decks)
            found[d] = found.get(d, 0) + 1
        done += size
    return dict(sorted(found.items()))


#: The most checkpoints of :func:`running_estimate` (a row each).
MAX_POINTS = 10_000


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

    _check_simulation(contract, decks, jokers, cards, rules, n, seed, _BATCH)
    whole("points", points, low=1, high=MAX_POINTS)

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
