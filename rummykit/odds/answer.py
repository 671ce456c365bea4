"""The query service of the odds: ``answer(cell, budget)``, the one place that decides how
the chance of a dealt cell is known.

:func:`answer` tries, in order, and stops at the first that serves:

1. **cache**: a sweep already made in this process answers the cell (nothing counted);
2. **tables**: the committed tables of ``data/``, read from the package's extract with
   the standard library (:mod:`rummykit.odds.known_odds`), so the book's live notebooks
   (Pyodide: no numpy, no polars) read them too; a hand too small for the contract is 0
   (checked first, before the cache: no table or sweep is needed);
3. **count**: an exact count, when it is planned
   (:func:`~rummykit.odds.data.plan.exact_seconds`) within ``budget`` seconds;
4. **estimate**: a seeded simulation of ``hands`` hands with its 95% interval.

The :class:`Answer` says which served (``source``), the value or the estimate, and the
cost: the planned seconds of an exact count (0 for a value known without counting). The
widgets, ``rummykit odds`` and the book ask it; :func:`known_probability` (steps 1-2) and
:func:`count_seconds` (the plan) are the parts they show before the work is done.

This module imports the standard library only; steps 3-4 import the counting and the
simulation, which need the ``analysis`` extra (:func:`can_count`).

>>> from rummykit import RuleSet
>>> standard = RuleSet.preset("standard")
>>> found = answer(ExactCell(standard, 1, standard.contracts[0], 2, 4, 10), budget=0)
>>> found.value, found.seconds
(Fraction(2412345575, 27078894567), 0.0)
>>> found.source in ("tables", "cache")  # the tables (or a sweep made before, in this process)
True
>>> found.words()
'8.9% (1 in 11)'
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from rummykit.chance import chance_text, duration_text, estimate_text, impossible_reason
from rummykit.engine.checks import instance, whole
from rummykit.engine.checks import seed as check_seed
from rummykit.errors import ArgumentError, ArgumentTypeError, MissingDependencyError
from rummykit.odds import known_odds
from rummykit.odds.cells import ExactCell

if TYPE_CHECKING:
    from rummykit.odds.dealt.simulate import Estimate

__all__ = [
    "ESTIMATE_HANDS",
    "MAX_HANDS",
    "SOURCES",
    "Answer",
    "answer",
    "can_count",
    "count_seconds",
    "known_probability",
]

#: Where an :class:`Answer` came from, in the order :func:`answer` tries them.
SOURCES = ("cache", "tables", "count", "estimate")

#: Hands dealt for an estimate unless :func:`answer` is told otherwise.
ESTIMATE_HANDS = 200_000


@dataclass(frozen=True)
class Answer:
    """What :func:`answer` found for a dealt cell: an exact value or an estimate, where it
    came from and what knowing it exactly costs."""

    cell: ExactCell
    """The dealt cell asked about."""
    source: str
    """One of :data:`SOURCES`: ``"cache"``, ``"tables"``, ``"count"`` or ``"estimate"``."""
    value: Fraction | None = None
    """The exact probability (None for an estimate)."""
    estimate: Estimate | None = None
    """The simulated estimate with its interval (None for an exact value)."""
    seconds: float = 0.0
    """The planned CPU seconds of an exact count on one core: 0 for a value known without
    counting, the plan of the count made (``"count"``) or not made (``"estimate"``)."""

    @property
    def exact(self) -> bool:
        """Whether :attr:`value` holds the exact probability."""
        return self.value is not None

    @property
    def p(self) -> float:
        """The probability as a float: the exact value, or the estimate."""
        return float(self.value) if self.value is not None else self.estimate.p

    def words(self) -> str:
        """The chance in words (:mod:`rummykit.chance`): an exact value as
        :func:`~rummykit.chance.chance_text` (with the reason of an impossible one), an
        estimate with its interval as :func:`~rummykit.chance.estimate_text`."""
        if self.value is not None:
            cell = self.cell
            reason = impossible_reason(cell.contract, cell.rules, cell.cards)
            return chance_text(self.value, reason=reason)
        est = self.estimate
        return estimate_text(est.p, est.ci_low, est.ci_high)


def _check_cell(cell: object) -> ExactCell:
    return instance("cell", cell, ExactCell, "an ExactCell (a dealt cell)")


def _known(cell: ExactCell) -> tuple[Fraction | None, str]:
    """Steps 1-2 of :func:`answer`: ``(value, source)``, or ``(None, "")``."""
    if cell.cards < cell.contract.min_cards(cell.rules):
        return Fraction(0), "tables"  # no table needed: the hand cannot hold the contract
    # A sweep made in this process lives in the counting module: where it was never
    # imported (always so without numpy), no sweep was made and nothing need be imported.
    exact = sys.modules.get("rummykit.odds.counting.exact")
    if exact is not None:
        cached = exact.cached_probability(
            cell.contract, decks=cell.decks, jokers=cell.jokers, cards=cell.cards, rules=cell.rules
        )
        if cached is not None:
            return cached, "cache"
    p = known_odds.committed_probability(
        cell.rules, cell.contract, decks=cell.decks, jokers=cell.jokers, cards=cell.cards
    )
    return (p, "tables") if p is not None else (None, "")


def known_probability(cell: ExactCell) -> Fraction | None:
    """The exact P(a dealt hand holds the contract) of ``cell`` without counting: from a
    sweep already made in this process or the committed tables of ``data/`` (rows of any
    rule set with the same meld rules, read with the standard library); a hand too small
    for the contract is 0; None when it would have to be counted.

    >>> from rummykit import RuleSet
    >>> bga = RuleSet.preset("bga")   # data/ has standard's rows, and bga deals alike
    >>> known_probability(ExactCell(bga, 6, bga.contracts[5], 3, 6, 14))
    Fraction(38911210414731439, 9196480310090829300)
    >>> known_probability(ExactCell(bga, 6, bga.contracts[5], 4, 16, 14)) is None
    True
    """
    return _known(_check_cell(cell))[0]


def can_count() -> bool:
    """Whether this Python can count and simulate odds (steps 3-4 of :func:`answer`): they
    need the ``analysis`` extra (numpy, polars), which Pyodide does not have."""
    try:
        import rummykit.odds.counting.exact  # noqa: F401
        import rummykit.odds.dealt.simulate  # noqa: F401
    except MissingDependencyError:
        return False
    return True


def count_seconds(cell: ExactCell) -> float:
    """The planned CPU seconds of counting ``cell`` exactly on one core: 0 when it is
    known without counting (:func:`known_probability`), else
    :func:`~rummykit.odds.data.plan.exact_seconds`. :func:`answer` counts when this is
    within its budget.

    >>> from rummykit import RuleSet
    >>> standard = RuleSet.preset("standard")
    >>> count_seconds(ExactCell(standard, 6, standard.contracts[5], 3, 8, 15))
    76.2
    >>> count_seconds(ExactCell(standard, 6, standard.contracts[5], 3, 6, 14))   # committed
    0.0
    """
    if known_probability(cell) is not None:
        return 0.0
    from rummykit.odds.data.plan import exact_seconds

    return exact_seconds(cell)


def _check_budget(budget: object) -> float:
    what = "a number of seconds >= 0 (math.inf: no limit)"
    if not isinstance(budget, numbers.Real) or isinstance(budget, bool):
        raise ArgumentTypeError(f"budget must be {what}, got {budget!r}")
    if math.isnan(budget) or budget < 0:
        raise ArgumentError(f"budget must be {what}, got {budget!r}")
    return float(budget)


#: The most hands an estimate deals: :data:`rummykit.odds.dealt.simulate.MAX_HANDS`
#: (this module does not import numpy to read it; a test keeps the two equal).
MAX_HANDS = 10**8


def answer(
    cell: ExactCell,
    budget: float,
    *,
    hands: int | None = ESTIMATE_HANDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Answer:
    """The chance of being dealt ``cell``'s contract, known the cheapest way there is:
    a sweep made before, the committed tables, an exact count planned within ``budget``
    CPU seconds (``math.inf``: whatever it takes; 0: never count), else an estimate from
    ``hands`` hands dealt from ``seed`` (see the module).

    ``progress(done, total)`` is called as the count goes (it may raise to stop it). With
    ``hands=None`` there is no estimate: a count planned over the budget is refused
    (:class:`~rummykit.errors.ArgumentError`, naming the plan and the budget). Counting
    and estimating need the ``analysis`` extra (:func:`can_count`): without it an answer
    the tables lack raises :class:`~rummykit.errors.MissingDependencyError`.

    >>> from rummykit import RuleSet
    >>> pagat = RuleSet.preset("pagat")
    >>> cell = ExactCell(pagat, 1, pagat.contracts[0], 1, 0, 7)   # not in the tables
    >>> found = answer(cell, budget=5)   # planned at 1 s: counted
    >>> found.source, found.value, found.seconds
    ('count', Fraction(267, 643195), 1.0)
    >>> answer(cell, budget=5).source   # the sweep made answers it now
    'cache'
    >>> slow = ExactCell(pagat, 6, pagat.contracts[5], 3, 8, 14)   # planned at 44 s
    >>> found = answer(slow, budget=20, hands=2000, seed=1)
    >>> found.source, found.value, found.estimate.n, found.seconds, found.words()
    ('estimate', None, 2000, 44.1, 'about 1.1% (95%: 0.69% to 1.6%)')
    >>> answer(cell, budget=-1)
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: budget must be a number of seconds >= 0 (math.inf: no limit), got -1
    """
    _check_cell(cell)
    budget = _check_budget(budget)
    if hands is not None:
        whole("hands", hands, low=1, high=MAX_HANDS, hint="a larger budget counts exactly")
    check_seed(seed, optional=False)
    value, source = _known(cell)
    if value is not None:
        return Answer(cell, source, value=value)
    # Without the analysis extra, this import raises MissingDependencyError naming it.
    from rummykit.odds.data.plan import exact_seconds

    seconds = exact_seconds(cell)
    if seconds <= budget:
        # Through the module's name, not the function's: a test may stand in for the count.
        from rummykit.odds.counting import exact

        p = exact.dealt_probability(
            cell.contract,
            decks=cell.decks,
            jokers=cell.jokers,
            cards=cell.cards,
            rules=cell.rules,
            progress=progress,
            allow_long=True,  # the budget decided
        )
        return Answer(cell, "count", value=p, seconds=seconds)
    if hands is None:
        raise ArgumentError(
            f"counting {cell.contract} in {cell.cards} cards from {cell.decks} decks and "
            f"{cell.jokers} jokers exactly is planned at {duration_text(seconds)}, over the "
            f"budget of {duration_text(budget)}: raise the budget (rummykit odds --allow-long "
            "counts anyway) or estimate it (rummykit simulate)"
        )
    from rummykit.odds.dealt.simulate import simulate_dealt

    estimate = simulate_dealt(
        cell.contract,
        decks=cell.decks,
        jokers=cell.jokers,
        cards=cell.cards,
        rules=cell.rules,
        n=hands,
        seed=seed,
    )
    return Answer(cell, "estimate", estimate=estimate, seconds=seconds)
