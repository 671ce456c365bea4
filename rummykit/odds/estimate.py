"""A dealt-hand estimate with the standard library only: for a Python without numpy.

:func:`estimate_dealt` deals ``n`` hands with :class:`random.Random` (seeded, never the
global state) and asks the rules engine of each whether it holds the contract
(:func:`rummykit.engine.search.find_contract`), so it is slow beside
:func:`rummykit.odds.dealt.simulate.simulate_dealt` (which deals with numpy and decides
most hands by vectorised tests: some 50 times the hands a second) but needs nothing
beyond rummykit itself. The book's live notebooks (Pyodide, where numpy and polars have
no wheel) estimate with it what the committed tables do not hold. Both answer with an
:class:`~rummykit.evaluate.estimate.Estimate` (a share, with its Wilson interval); the same seed gives the same estimate, though not the same hands as
``simulate_dealt`` (another generator).

>>> from rummykit import RuleSet
>>> standard = RuleSet.preset("standard")
>>> est = estimate_dealt(standard.contracts[0], decks=2, jokers=4, cards=10, rules=standard,
...                      n=2_000, seed=1)
>>> est.n, est.ci_low < est.p < est.ci_high, est == estimate_dealt(
...     standard.contracts[0], decks=2, jokers=4, cards=10, rules=standard, n=2_000, seed=1)
(2000, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rummykit.engine.cards import Shoe, as_rng
from rummykit.engine.checks import dealt_hand, whole
from rummykit.engine.checks import seed as check_seed
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import find_contract
from rummykit.errors import ArgumentTypeError
from rummykit.evaluate.estimate import Estimate

__all__ = ["MAX_PLAIN_HANDS", "PROGRESS_EVERY", "Estimate", "estimate_dealt"]

#: The most hands :func:`estimate_dealt` deals in one call: about 30 s of CPython at some
#: 15-30 microseconds a hand (a browser's Python takes two to three times as long).
MAX_PLAIN_HANDS = 1_000_000
#: Hands between two calls of :func:`estimate_dealt`'s ``progress``.
PROGRESS_EVERY = 500


def estimate_dealt(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    n: int,
    seed: int | random.Random | None,
    progress: Callable[[int, int], None] | None = None,
) -> Estimate:
    """Estimate the chance that a hand of ``cards`` dealt from ``decks`` decks and
    ``jokers`` jokers holds ``contract`` under ``rules``, from ``n`` hands dealt with the
    standard library (see the module). ``seed``: an integer, a :class:`random.Random`
    (advanced by the deals) or None (fresh entropy: not reproducible). ``progress(done,
    n)`` is called every :data:`PROGRESS_EVERY` hands and at the end; it may raise to stop.

    Bad arguments raise before anything is dealt, naming the field:

    >>> from rummykit import RuleSet
    >>> standard = RuleSet.preset("standard")
    >>> estimate_dealt(standard.contracts[0], decks=2, jokers=4, cards=10, rules=standard,
    ...                n=0, seed=1)
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: n must be an integer from 1 to 1000000, got 0
    """
    dealt_hand(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)
    whole("n", n, low=1, high=MAX_PLAIN_HANDS)
    if not isinstance(seed, random.Random):
        check_seed(seed)
    rng = as_rng(seed)
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be a callable or None, got {progress!r:.80}")
    deck = list(Shoe(decks=decks, jokers=jokers).cards)
    successes = 0
    for done in range(1, n + 1):
        successes += find_contract(rng.sample(deck, cards), contract, rules) is not None
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == n):
            progress(done, n)
    return Estimate.from_counts(successes, n)
