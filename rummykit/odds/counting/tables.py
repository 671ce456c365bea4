"""The dealt-hand tables of ``data/``: P(a dealt hand holds the contract) for every
contract x shoe x hand size (:func:`exact_odds`, :func:`dealt_odds`), as each preset plays
it (:func:`preset_odds`), and the distribution of the contract distance
(:func:`distance_odds`); counted exactly (:mod:`rummykit.odds.counting.exact`) where a
count is planned short enough, else simulated (:mod:`rummykit.odds.dealt.simulate`). Each
is a long-form polars DataFrame with its schema of :mod:`rummykit.odds.data.schemas`.

>>> from rummykit import RuleSet
>>> from rummykit.odds.data.schemas import EXACT_SCHEMA
>>> frame = exact_odds(rules="standard", contracts=[RuleSet.preset("standard").contracts[0]],
...                    shoes=[(1, 0)], cards=[6], progress=False, max_workers=1)
>>> frame.select("round", "contract", "cards", "p_exact").row(0)
(1, '2 sets', 6, '12/195755')
>>> dict(frame.schema) == EXACT_SCHEMA
True
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from fractions import Fraction

import polars as pl

from rummykit.engine.checks import dealt_hand, instance, items, whole, wholes
from rummykit.engine.checks import seed as check_seed
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS, Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError

# The reader itself, not through rummykit.odds: that package's lazy name ``answer`` is the
# function, and once it is looked up it hides the submodule of the same name.
from rummykit.odds.answer import known_probability as _known_probability
from rummykit.odds.cells import (
    DEFAULT_SEED,
    ExactCell,
    cell_seed,
    exact_row,
    round_of,
    simulated_row,
)
from rummykit.odds.counting.exact import (
    dealt_probability,
    distance_distribution,
    exact_table,
)
from rummykit.odds.data.plan import counts_quickly, exact_seconds
from rummykit.odds.data.pool import run_sweep
from rummykit.odds.data.schemas import DISTANCE_SCHEMA, EXACT_SCHEMA, frame, resolve_rules
from rummykit.odds.dealt.simulate import MAX_HANDS

__all__ = [
    "EXACT_CARDS",
    "EXACT_SHOES",
    "SIMULATED_HANDS",
    "counts_in_minutes",
    "dealt_odds",
    "distance_counts_quickly",
    "distance_odds",
    "exact_cells",
    "exact_odds",
    "preset_cells",
    "preset_odds",
]

#: The shoes (decks, jokers) of the exact table: the common ones and 2 decks with 2 jokers.
EXACT_SHOES: tuple[tuple[int, int], ...] = ((1, 2), (2, 4), (3, 6), (2, 2))

#: Hands dealt per cell where :func:`dealt_odds` simulates instead of counting.
SIMULATED_HANDS = 250_000

#: The hand sizes of the exact table: every deal size of the presets, and 13-14 for
#: hands grown by draws and buys.
EXACT_CARDS: tuple[int, ...] = (7, 10, 11, 12, 13, 14)


def exact_cells(
    *,
    rules: RuleSet | str = "standard",
    contracts: Sequence[Contract] | None = None,
    shoes: Iterable[tuple[int, int]] = EXACT_SHOES,
    cards: Iterable[int] = EXACT_CARDS,
) -> list[ExactCell]:
    """Every contract x shoe x hand size, in that order (contracts default to every round).

    >>> [(c.round, c.decks, c.jokers, c.cards) for c in exact_cells(shoes=[(1, 0)], cards=[6])][:2]
    [(1, 1, 0, 6), (2, 1, 0, 6)]
    """
    rules = resolve_rules(rules)
    if contracts is None:
        contracts = rules.contracts
    contracts = tuple(
        items("contracts", contracts, lambda name, c: instance(name, c, Contract, "a Contract"))
    )

    def shoe(name: str, pair: object) -> tuple[int, int]:
        decks, jokers = items(name, pair, what="a pair (decks, jokers)", least=2, most=2)
        return (
            whole(f"{name}: decks", decks, low=1, high=MAX_DECKS),
            whole(f"{name}: jokers", jokers, low=0, high=MAX_JOKERS),
        )

    shoes = tuple(items("shoes", shoes, shoe, what="a list of (decks, jokers) pairs"))
    cards = tuple(
        items("cards", cards, lambda name, c: whole(name, c, low=0), what="a list of hand sizes")
    )
    for decks, jokers in shoes:
        for size in cards:
            if size > 52 * decks + jokers:
                raise ArgumentError(
                    f"cannot deal {size} cards from {decks} decks and {jokers} jokers"
                )
    return [
        ExactCell(rules, round_of(rules, contract), contract, decks, jokers, size)
        for contract in dict.fromkeys(contracts)
        for decks, jokers in shoes
        for size in cards
    ]


def preset_cells(
    presets: Iterable[str] = tuple(RuleSet.presets()), *, rounds: Sequence[int] | None = None
) -> list[ExactCell]:
    """Each preset's rounds (all, or ``rounds``) at their deal sizes, for each deck count
    the preset uses with its jokers; in the order preset, round, decks."""
    names = items("presets", presets, lambda name, x: instance(name, x, str, "a preset name"))
    if rounds is not None:
        rounds = wholes("rounds", rounds, low=1)
    out = []
    for name in names:
        rules = resolve_rules(name)
        shoes = sorted({d for _, d in rules.decks_by_players})
        for number, (contract, size) in enumerate(
            zip(rules.contracts, rules.deal_sizes, strict=True), start=1
        ):
            if rounds is not None and number not in rounds:
                continue
            for decks in shoes:
                out.append(ExactCell(rules, number, contract, decks, rules.jokers_for(decks), size))
    return out


def known_probability(cell: ExactCell) -> Fraction | None:
    """Deprecated: :func:`rummykit.odds.answer.known_probability`, the one reader of
    already-known odds (the same values, read with the standard library). Reached by its
    old path, ``rummykit.odds.data.tables`` (:data:`rummykit._moved.SPLIT`), whose name its
    warning keeps."""
    warnings.warn(
        "rummykit.odds.data.tables.known_probability is deprecated: use "  # its old path
        "rummykit.odds.answer.known_probability (or rummykit.odds.known_probability)",
        DeprecationWarning,
        stacklevel=2,
    )
    return _known_probability(cell)


def counts_in_minutes(cell: ExactCell, minutes: float = 3) -> bool:
    """Whether exact counting of ``cell`` takes at most about ``minutes`` on one core.

    ``rummykit tables`` counts exactly the cells planned at up to 20 minutes and
    simulates the rest (the widgets count unasked up to 20 seconds, see
    :data:`rummykit.widgets._common.COUNT_UNASKED_SECONDS`). See :func:`exact_seconds`.

    >>> from rummykit import RuleSet
    >>> standard = RuleSet.preset("standard")
    >>> round_6 = standard.contracts[5]   # 1 set + 2 runs
    >>> [counts_in_minutes(ExactCell(standard, 6, round_6, 4, 8, c), 1) for c in (12, 14, 15)]
    [True, True, False]
    """
    return exact_seconds(cell) <= 60 * minutes


def _dealt_task(contract: Contract, rules: RuleSet, decks: int, hands: tuple) -> list[Fraction]:
    # One task per sweep (contract, rules, decks): exact.py caches the sweep, so every
    # joker count and hand size after the first is almost free. A hand smaller than the
    # contract's fewest cards cannot hold it, which needs no sweep.
    fewest = contract.min_cards(rules)
    wanted = [(j, c) for j, c in hands if c >= fewest]
    if wanted:  # one sweep for every hand: the largest hand and the most jokers
        exact_table(
            contract,
            rules=rules,
            decks=decks,
            max_naturals=max(c for _, c in wanted),
            joker_cap=max(j for j, _ in wanted),
        )
    return [
        Fraction(0)
        if c < fewest
        else dealt_probability(
            contract, decks=decks, jokers=j, cards=c, rules=rules, allow_long=True
        )
        for j, c in hands
    ]


def _simulated_task(cell: ExactCell, n: int, seed: int):
    from rummykit.odds.dealt.simulate import simulate_dealt

    return simulate_dealt(
        cell.contract,
        decks=cell.decks,
        jokers=cell.jokers,
        cards=cell.cards,
        rules=cell.rules,
        n=n,
        seed=seed,
    )


def _call(function, *args):
    return function(*args)


def _distance_task(contract: Contract, rules: RuleSet, decks: int, hands: tuple) -> list[dict]:
    return [
        distance_distribution(
            contract, decks=decks, jokers=j, cards=c, rules=rules, allow_long=True
        )
        for j, c in hands
    ]


def _simulated_distance_task(cell: ExactCell, n: int, seed: int) -> dict[int, int]:
    from rummykit.odds.dealt.simulate import simulate_distance

    return simulate_distance(
        cell.contract,
        decks=cell.decks,
        jokers=cell.jokers,
        cards=cell.cards,
        rules=cell.rules,
        n=n,
        seed=seed,
    )


def distance_counts_quickly(contract: Contract) -> bool:
    """Whether the exact distance sweep of ``contract`` takes minutes at most: every
    contract but those mixing sets and runs in three melds or more (2 sets + 1 run and
    1 set + 2 runs of ``standard`` take hours), which :func:`distance_odds` simulates
    with ``method="auto"``.

    >>> from rummykit import RuleSet
    >>> [distance_counts_quickly(c) for c in RuleSet.preset("standard").contracts]
    [True, True, True, True, False, False, True]
    """
    return not (contract.sets and contract.runs and contract.sets + contract.runs >= 3)


def _simulated_distance_rows(cell: ExactCell, found: dict[int, int], n: int) -> list[dict]:
    from rummykit.odds.dealt.simulate import Estimate

    rows, at_most = [], 0
    for distance, hands in found.items():
        at_most += hands
        estimate, cumulative = Estimate.from_counts(hands, n), Estimate.from_counts(at_most, n)
        rows.append(
            {
                **simulated_row(cell, estimate),
                "distance": distance,
                "p_at_most": cumulative.p,
                "p_at_most_ci_low": cumulative.ci_low,
                "p_at_most_ci_high": cumulative.ci_high,
            }
        )
    return rows


def _sweep_tasks(task, cells) -> tuple[list[tuple], dict]:
    """Tasks running each sweep once, and ``{cell: task index}``.

    A sweep is (contract, sweep rules, decks): rule sets with the same
    :attr:`~rummykit.engine.rules.RuleSet.meld_rules` share it (the task gets the first of them).
    """
    hands: dict[tuple, dict[tuple[int, int], None]] = {}
    first: dict[tuple, RuleSet] = {}
    for cell in cells:
        key = (cell.contract, cell.rules.meld_rules, cell.decks)
        first.setdefault(key, cell.rules)
        hands.setdefault(key, {})[cell.jokers, cell.cards] = None
    keys = list(hands)
    tasks = [(task, key[0], first[key], key[2], tuple(hands[key])) for key in keys]
    return tasks, {key: i for i, key in enumerate(keys)}


def _pick(cell, tasks, results, index):
    i = index[cell.contract, cell.rules.meld_rules, cell.decks]
    return results[i][tasks[i][-1].index((cell.jokers, cell.cards))]


def dealt_odds(
    cells: Sequence[ExactCell],
    *,
    method: str = "exact",
    n: int = SIMULATED_HANDS,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
    executor: Executor | None = None,
    max_workers: int | None = None,
    count: Callable[[ExactCell], bool] | None = None,
) -> pl.DataFrame:
    """P(a dealt hand holds the contract) for each cell, one row per cell in order
    (schema :data:`~rummykit.odds.data.schemas.EXACT_SCHEMA`).

    ``method`` is ``"exact"`` (count), ``"simulation"`` (deal ``n`` hands with
    :func:`~rummykit.odds.dealt.simulate.simulate_dealt`, seed :func:`cell_seed`) or
    ``"auto"``: count the cells for which ``count(cell)`` is true (by default those
    whose contract :func:`counts_quickly`; :func:`counts_in_minutes` counts more),
    simulate the others; ``method`` names what each row used. Exact sweeps (contract, rules, decks) run once each; everything runs
    as tasks of :func:`~rummykit.odds.data.pool.run_sweep` (``executor``, ``max_workers``).
    """
    if method not in ("exact", "simulation", "auto"):
        raise ArgumentError(f"method must be 'exact', 'simulation' or 'auto', got {method!r}")
    if isinstance(cells, str | bytes) or not isinstance(cells, Iterable):
        raise ArgumentTypeError(f"cells must be a sequence of ExactCell, got {cells!r}")
    cells = list(cells)
    for cell in cells:
        instance("cells", cell, ExactCell, "a sequence of ExactCell (exact_cells makes them)")
        dealt_hand(
            cell.contract, decks=cell.decks, jokers=cell.jokers, cards=cell.cards, rules=cell.rules
        )
    whole("n", n, low=1, high=MAX_HANDS, hint="pool the estimates of several seeds for more")
    check_seed(seed, optional=False)

    def simulated(cell: ExactCell) -> bool:
        if cell.cards < cell.contract.min_cards(cell.rules):
            return False  # certainly 0: no need to deal
        if method == "auto":
            return not (count(cell) if count is not None else counts_quickly(cell.contract))
        return method == "simulation"

    counted = [cell for cell in cells if not simulated(cell)]
    dealt = list(dict.fromkeys(cell for cell in cells if simulated(cell)))
    tasks, index = _sweep_tasks(_dealt_task, counted)
    tasks += [(_simulated_task, cell, n, cell_seed(seed, cell)) for cell in dealt]
    results = run_sweep(
        _call,
        tasks,
        executor=executor,
        max_workers=max_workers,
        progress=progress,
        description="dealt odds",
        unit="task",
    )
    estimates = dict(zip(dealt, results[len(index) :], strict=True))
    rows = []
    for cell in cells:
        if cell in estimates:
            rows.append(simulated_row(cell, estimates[cell]))
        else:
            rows.append(exact_row(cell, _pick(cell, tasks, results, index)))
    return frame(rows, EXACT_SCHEMA)


def exact_odds(
    *,
    rules: RuleSet | str = "standard",
    contracts: Sequence[Contract] | None = None,
    shoes: Iterable[tuple[int, int]] = EXACT_SHOES,
    cards: Iterable[int] = EXACT_CARDS,
    method: str = "exact",
    n: int = SIMULATED_HANDS,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
    executor: Executor | None = None,
    max_workers: int | None = None,
    count: Callable[[ExactCell], bool] | None = None,
) -> pl.DataFrame:
    """Exact P(a dealt hand holds the contract) for every contract x shoe x hand size.

    ``contracts`` defaults to every round of ``rules``; ``shoes`` are (decks, jokers)
    pairs. One row per cell, schema :data:`~rummykit.odds.data.schemas.EXACT_SCHEMA`,
    rows in the order contract, shoe, hand size. ``method``, ``n`` and ``seed`` are
    :func:`dealt_odds`'s: exact counting by default (:func:`exact_cells` and
    :func:`dealt_odds`).
    """
    grid = exact_cells(rules=rules, contracts=contracts, shoes=shoes, cards=cards)
    return dealt_odds(
        grid,
        method=method,
        n=n,
        seed=seed,
        progress=progress,
        executor=executor,
        max_workers=max_workers,
        count=count,
    )


def preset_odds(
    presets: Iterable[str] = tuple(RuleSet.presets()),
    *,
    rounds: Sequence[int] | None = None,
    method: str = "exact",
    n: int = SIMULATED_HANDS,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
    executor: Executor | None = None,
    max_workers: int | None = None,
    count: Callable[[ExactCell], bool] | None = None,
) -> pl.DataFrame:
    """Exact P(the dealt hand holds the round's contract) as each preset plays it.

    One row per preset, round (all, or ``rounds``) and shoe the preset uses (each deck
    count of its ``decks_by_players`` with its jokers), with the round's deal size;
    schema :data:`~rummykit.odds.data.schemas.EXACT_SCHEMA`. ``method``, ``n`` and
    ``seed`` are :func:`dealt_odds`'s (:func:`preset_cells` and :func:`dealt_odds`).

    >>> frame = preset_odds(["family"], rounds=[1, 7], progress=False, max_workers=1)
    >>> frame.select("round", "decks", "jokers", "cards").rows()
    [(1, 2, 2, 7), (7, 2, 2, 10)]
    """
    grid = preset_cells(presets, rounds=rounds)
    return dealt_odds(
        grid,
        method=method,
        n=n,
        seed=seed,
        progress=progress,
        executor=executor,
        max_workers=max_workers,
        count=count,
    )


def distance_odds(
    *,
    rules: RuleSet | str = "standard",
    contracts: Sequence[Contract] | None = None,
    shoes: Iterable[tuple[int, int]] = ((2, 4),),
    cards: Iterable[int] = (10, 12),
    method: str = "exact",
    n: int = SIMULATED_HANDS,
    seed: int = DEFAULT_SEED,
    count: Callable[[ExactCell], bool] | None = None,
    progress: bool = True,
    executor: Executor | None = None,
    max_workers: int | None = None,
) -> pl.DataFrame:
    """The distribution of the contract distance of a dealt hand, long form.

    One row per contract x shoe x hand size x distance with P(distance = d) > 0 (for a
    simulated cell: reached by at least one hand), schema
    :data:`~rummykit.odds.data.schemas.DISTANCE_SCHEMA`; distance 0 is the probability that the hand holds the contract. ``method`` is
    ``"exact"`` (count: :func:`~rummykit.odds.counting.exact.distance_distribution`),
    ``"simulation"`` (deal ``n`` hands a cell with
    :func:`~rummykit.odds.dealt.simulate.simulate_distance`, seed :func:`cell_seed`) or
    ``"auto"``: count the cells for which ``count(cell)`` is true (by default those whose
    contract :func:`distance_counts_quickly`), simulate the others; ``method`` names what
    each row used.

    >>> from rummykit import RuleSet
    >>> round_1 = RuleSet.preset("standard").contracts[0]
    >>> table = distance_odds(contracts=[round_1], shoes=[(2, 4)], cards=[10],
    ...                       method="simulation", n=1_000, progress=False, max_workers=1)
    >>> table.select("distance", "n", "method").rows()[:2]
    [(0, 1000, 'simulation'), (1, 1000, 'simulation')]
    """
    if method not in ("exact", "simulation", "auto"):
        raise ArgumentError(f"method must be 'exact', 'simulation' or 'auto', got {method!r}")
    grid = exact_cells(rules=rules, contracts=contracts, shoes=shoes, cards=cards)

    def simulated(cell: ExactCell) -> bool:
        if method == "auto":
            return not (
                count(cell) if count is not None else distance_counts_quickly(cell.contract)
            )
        return method == "simulation"

    counted = [cell for cell in grid if not simulated(cell)]
    dealt = [cell for cell in grid if simulated(cell)]
    tasks, index = _sweep_tasks(_distance_task, counted)
    tasks += [(_simulated_distance_task, cell, n, cell_seed(seed, cell)) for cell in dealt]
    results = run_sweep(
        _call,
        tasks,
        executor=executor,
        max_workers=max_workers,
        progress=progress,
        description="distance odds",
        unit="task",
    )
    found = dict(zip(dealt, results[len(index) :], strict=True))
    rows = []
    for cell in grid:
        if cell in found:
            rows += _simulated_distance_rows(cell, found[cell], n)
            continue
        at_most = Fraction(0)
        for distance, p in sorted(_pick(cell, tasks, results, index).items()):
            at_most += p
            rows.append({**exact_row(cell, p), "distance": distance, "p_at_most": float(at_most)})
    return frame(rows, DISTANCE_SCHEMA)
