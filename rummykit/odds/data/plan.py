"""The plan of an exact count: about how long a sweep takes, before it starts.

:func:`exact_seconds` plans one cell from the sweeps measured by
``benchmarks/sweep_seconds.py`` (:data:`SWEEP_SECONDS`); :func:`rummykit.odds.counting.exact.dealt_count`
refuses a count planned over :data:`LONG_COUNT_SECONDS` unless asked (``allow_long=True``),
and the widgets, ``rummykit odds`` and ``rummykit tables`` plan by it. Standard library only,
so that the counting code can plan before it allocates.
"""

from __future__ import annotations

import itertools
import json
from importlib import resources
from pathlib import Path

from rummykit import _native
from rummykit.chance import duration_text
from rummykit.engine.rules import Contract, RuleSet
from rummykit.odds.cells import ExactCell

__all__ = [
    "LONG_COUNT_SECONDS",
    "MAX_ROUNDS",
    "MEASURED_JOKERS",
    "MIN_GROWTH_PER_CARD",
    "MIN_GROWTH_PER_DECK",
    "PRESET_SWEEP_RULES",
    "PYTHON_SLOWDOWN",
    "STOPPED_SECONDS",
    "SWEEP_SECONDS",
    "SWEEP_SECONDS_FILE",
    "SweepKey",
    "UNMEASURED_RULES_FACTOR",
    "counts_quickly",
    "duration_text",
    "exact_seconds",
    "parse_sweep_seconds",
    "sweep_seconds_json",
    "write_sweep_seconds",
]

#: A count planned (:func:`exact_seconds`) over this many CPU seconds is refused unless
#: the caller passes ``allow_long=True`` (``--allow-long`` on the command line): one hour.
#: Every exact cell of ``data/`` is counted by the tables, which plan for themselves and
#: pass ``allow_long=True``. The memory of a sweep grows with its keys as its time does,
#: so this bound on time bounds it too, but by no figure measured here (the simulations'
#: memory is: :data:`rummykit.odds.dealt.simulate.MAX_BATCH`).
LONG_COUNT_SECONDS = 3600.0
#: The most rounds simulated per cell of a completion table
#: (:func:`rummykit.odds.completion.simulate_cells`): every round's record is kept in
#: memory until the tables are made, a few hundred bytes each, so this bounds a cell's
#: records at a few hundred MB; more rounds are pooled from several seeds.
MAX_ROUNDS = 1_000_000


def counts_quickly(contract: Contract) -> bool:
    """Whether exact counting of ``contract`` takes under a second on any shoe and hand
    size: contracts of sets only or runs only. A contract mixing sets and runs takes from
    under a second to minutes, growing steeply with the hand size (:func:`exact_seconds`),
    so ``method="auto"`` simulates it unless told otherwise (``count=``, for example
    :func:`counts_in_minutes`)."""
    return contract.sets == 0 or contract.runs == 0


#: Each preset's sweep rules (:attr:`rummykit.engine.rules.RuleSet.meld_rules`), by name.
PRESET_SWEEP_RULES = {name: RuleSet.preset(name).meld_rules for name in RuleSet.presets()}

#: Where :data:`SWEEP_SECONDS` is stored: a data file of the package, written by
#: ``benchmarks/sweep_seconds.py --write`` (:func:`write_sweep_seconds`).
SWEEP_SECONDS_FILE = "sweep_seconds.json"

#: The key of one measured sweep: preset, sets, runs and decks.
SweepKey = tuple[str, int, int, int]


def sweep_seconds_json(table: dict[SweepKey, dict[int, float | None]]) -> str:
    """The text of :data:`SWEEP_SECONDS_FILE` for ``table`` (one record per sweep, in the
    table's order; JSON writes every float so that it reads back equal).

    >>> print(sweep_seconds_json({("standard", 1, 1, 2): {10: 0.14, 12: None}}))
    [
      {"preset": "standard", "sets": 1, "runs": 1, "decks": 2, "seconds": {"10": 0.14, "12": null}}
    ]
    """
    rows = [
        json.dumps(
            {
                "preset": name,
                "sets": sets,
                "runs": runs,
                "decks": decks,
                "seconds": {str(cards): value for cards, value in by_cards.items()},
            }
        )
        for (name, sets, runs, decks), by_cards in table.items()
    ]
    return "[\n" + ",\n".join(f"  {row}" for row in rows) + "\n]"


def parse_sweep_seconds(text: str) -> dict[SweepKey, dict[int, float | None]]:
    """The table written by :func:`sweep_seconds_json`, keys and hand sizes as numbers.

    >>> parse_sweep_seconds(sweep_seconds_json({("pagat", 2, 1, 3): {11: 0.37, 14: 12.2}}))
    {('pagat', 2, 1, 3): {11: 0.37, 14: 12.2}}
    """
    return {
        (row["preset"], row["sets"], row["runs"], row["decks"]): {
            int(cards): value for cards, value in row["seconds"].items()
        }
        for row in json.loads(text)
    }


def write_sweep_seconds(table: dict[SweepKey, dict[int, float | None]], path: Path) -> None:
    """Write ``table`` to ``path`` as :func:`sweep_seconds_json` gives it (the benchmark
    writes the package's own :data:`SWEEP_SECONDS_FILE`)."""
    Path(path).write_text(sweep_seconds_json(table) + "\n", encoding="utf-8")


#: CPU seconds of one exact sweep of a contract mixing sets and runs, by the preset whose
#: sweep rules (:attr:`~rummykit.engine.rules.RuleSet.meld_rules`) it has, sets, runs and decks,
#: then by the largest hand it serves (a sweep covers every smaller hand and every joker
#: count the contract can use). Measured on one core with the compiled step by
#: ``benchmarks/sweep_seconds.py`` (None: more than 400 s, stopped), which writes them to
#: :data:`SWEEP_SECONDS_FILE` in this package; read once here. Other rules, shoes and hand
#: sizes are planned from these by :func:`exact_seconds`.
SWEEP_SECONDS = parse_sweep_seconds(
    resources.files("rummykit.odds").joinpath(SWEEP_SECONDS_FILE).read_text(encoding="utf-8")
)


#: How much slower a sweep is in Python than with the compiled step (12 s against
#: 0.33 s measured for 1 set + 1 run, 1 deck, 15 cards; see rummykit.odds.counting.exact).
PYTHON_SLOWDOWN = 40.0
#: Rules whose sweep rules are no measured preset's take at most this many times the
#: slowest preset's sweep: the factor covers the worst measured case, runs of 3 under
#: otherwise standard rules (1 set + 2 runs, 2 decks, 12 cards, 4 jokers: 6.8 s, where
#: the slowest preset takes 2.2 s).
UNMEASURED_RULES_FACTOR = 8.0
#: Least growth assumed per card beyond the largest measured hand, and per deck beyond
#: the most measured decks: the measured growth when steeper.
MIN_GROWTH_PER_CARD = 1.5
MIN_GROWTH_PER_DECK = 1.5
#: The measured sweeps track up to this many jokers; more cost more (assumed quadratic).
MEASURED_JOKERS = 8
#: What a sweep stopped by sweep_seconds.py (None in SWEEP_SECONDS) is taken to last.
STOPPED_SECONDS = 400.0


def _along(points: dict[int, float | None], x: int, least_growth: float) -> float:
    """Seconds at ``x`` from seconds measured at some sizes (``points``): the smallest
    measured size below them, geometric interpolation between two, and growth by the
    last two (at least ``least_growth`` per step) beyond the largest."""
    known = sorted((k, STOPPED_SECONDS if v is None else v) for k, v in points.items())
    if x in points:
        return dict(known)[x]
    if x <= known[0][0]:
        return known[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(known):
        if x0 <= x <= x1:
            return y0 * (y1 / y0) ** ((x - x0) / (x1 - x0))
    x1, y1 = known[-1]
    growth = least_growth
    if len(known) > 1:
        x0, y0 = known[-2]
        growth = max(least_growth, (y1 / y0) ** (1 / (x1 - x0)))
    return y1 * growth ** (x - x1)


def _measured_seconds(name: str, sets: int, runs: int, decks: int, cards: int) -> float | None:
    """Seconds of the sweep by ``name``'s measurements (None: that contract unmeasured)."""
    rows = {d: by for (n, s, r, d), by in SWEEP_SECONDS.items() if (n, s, r) == (name, sets, runs)}
    if not rows:
        return None
    by_decks = {d: _along(by, cards, MIN_GROWTH_PER_CARD) for d, by in rows.items()}
    return _along(by_decks, decks, MIN_GROWTH_PER_DECK)


def _mixed_seconds(cell: ExactCell) -> float:
    """:func:`exact_seconds` of a contract mixing sets and runs, with the compiled step."""
    contract, rules = cell.contract, cell.rules
    mine = rules.meld_rules  # its sweep rules (RuleSet.meld_rules)
    names = [name for name, preset in PRESET_SWEEP_RULES.items() if preset == mine]
    measured = [n for n in names if any(k[0] == n for k in SWEEP_SECONDS)]
    shape = (contract.sets, contract.runs, cell.decks, cell.cards)
    seconds = _measured_seconds(measured[0], *shape) if measured else None
    if seconds is None:
        # Rules or a contract not measured: the slowest measured figure, with a margin.
        every = {n for n, *_ in SWEEP_SECONDS}
        found = [t for n in every if (t := _measured_seconds(n, *shape)) is not None]
        if not found:
            found = [
                t
                for n, s, r, _ in SWEEP_SECONDS
                if (t := _measured_seconds(n, s, r, cell.decks, cell.cards)) is not None
            ]
        seconds = max(found) * UNMEASURED_RULES_FACTOR
    useful = contract.sets * max(rules.min_set_size, rules.min_naturals_in_set)
    useful += contract.runs * (
        13 if rules.max_jokers_per_meld is None else rules.max_jokers_per_meld
    )
    jokers = min(cell.jokers, useful)
    if jokers > MEASURED_JOKERS:
        seconds *= (jokers / MEASURED_JOKERS) ** 2
    return seconds


def exact_seconds(cell: ExactCell) -> float:
    """About how many CPU seconds counting ``cell`` exactly takes on one core: a plan,
    measured where it can be and erring on the slow side where it cannot.

    Contracts of sets only or runs only take well under a second (:func:`counts_quickly`);
    a hand too small for the contract takes none. A contract mixing sets and runs takes
    one sweep, whose cost grows with the contract, the decks, the hand size, the jokers
    and the meld rules (jokers per meld, run length: :attr:`~rummykit.engine.rules.RuleSet.
    meld_rules`). :data:`SWEEP_SECONDS` measured it for each preset's sweep rules
    (``bga`` and ``family`` have those of ``standard``) with up to 8 jokers:

    - a measured hand size gives the measurement, a size between two measured ones the
      geometric mean between them, a larger one the growth per card of the last two
      measured (at least :data:`MIN_GROWTH_PER_CARD`); decks likewise
      (:data:`MIN_GROWTH_PER_DECK`), and fewer decks than measured as the fewest;
    - more than 8 jokers the contract can use: quadratically more;
    - rules that are no measured preset's: the slowest preset's figure times
      :data:`UNMEASURED_RULES_FACTOR`; a mixed contract no preset plays: the slowest
      measured one's, likewise;
    - without the compiled step (``rummykit._native.available()["sweep"]`` false):
      :data:`PYTHON_SLOWDOWN` times as long.

    >>> from rummykit import RuleSet
    >>> standard, pagat = RuleSet.preset("standard"), RuleSet.preset("pagat")
    >>> exact_seconds(ExactCell(standard, 6, standard.contracts[5], 3, 6, 14))   # measured
    23.1
    >>> exact_seconds(ExactCell(pagat, 2, pagat.contracts[1], 3, 8, 15))   # 2.5 s at 14 cards
    3.75
    """
    contract, rules = cell.contract, cell.rules
    if cell.cards < contract.min_cards(rules):
        return 0.0
    seconds = 1.0 if counts_quickly(contract) else _mixed_seconds(cell)
    if not _native.available()["sweep"]:
        seconds *= PYTHON_SLOWDOWN
    return seconds
