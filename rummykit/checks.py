"""Argument checks: one small helper per kind of argument, in the manner of attrs'
``validators``, so that every public function checks its arguments up front the same
way and each error names the field, the bound and, where there is one, the way round it.

A value of the wrong type raises :class:`~rummykit.errors.ArgumentTypeError` (also a
:class:`TypeError`), a value out of bounds :class:`~rummykit.errors.ArgumentError`
(also a :class:`ValueError`). A bool is never a number here. Standard library only: the
engine uses these too.

>>> whole("decks", 2, low=1, high=8)
2
>>> whole("decks", 10**6, low=1, high=8)
Traceback (most recent call last):
    ...
rummykit.errors.ArgumentError: decks must be an integer from 1 to 8, got 1000000
>>> whole("n", True, low=1)
Traceback (most recent call last):
    ...
rummykit.errors.ArgumentTypeError: n must be an integer >= 1, got True
>>> real("p", float("nan"), low=0, high=1)
Traceback (most recent call last):
    ...
rummykit.errors.ArgumentError: p must be a finite number from 0 to 1, got nan
>>> instance("names", "Ann", list, "a list of names")
Traceback (most recent call last):
    ...
rummykit.errors.ArgumentTypeError: names must be a list of names, got 'Ann'
"""

from __future__ import annotations

import math
import numbers
from typing import TypeVar

from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.rules import MAX_DECKS, MAX_JOKERS, Contract, RuleSet

__all__ = ["MAX_SEED", "contract_rules", "dealt_hand", "instance", "real", "seed", "whole"]

T = TypeVar("T")

#: The largest seed accepted: numpy's generators and ``random.Random`` take any
#: non-negative integer, but a seed is written in tables and saves, so 64 bits it is.
MAX_SEED = 2**64 - 1


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f">= {low}"
    if high is not None:
        return f"<= {high}"
    return ""


def _refuse(error: type, name: str, what: str, value: object, hint: str) -> None:
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    text = f"{name} must be {what}, got {shown}"
    raise error(f"{text}: {hint}" if hint else text)


def whole(
    name: str,
    value: object,
    *,
    low: int | None = None,
    high: int | None = None,
    hint: str = "",
) -> int:
    """``value`` if it is an integer (not a bool) within ``low``..``high``, else an error
    naming ``name``, the bounds and ``hint`` (the way round a bound, if any)."""
    what = f"an integer {_bounds(low, high)}".rstrip()
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        _refuse(ArgumentTypeError, name, what, value, "")
    if (low is not None and value < low) or (high is not None and value > high):
        _refuse(ArgumentError, name, what, value, hint)
    return int(value)


def real(
    name: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    hint: str = "",
) -> float:
    """``value`` as a float if it is a finite real number (not a bool) within
    ``low``..``high``, else an error naming ``name`` and the bounds."""
    what = f"a finite number {_bounds(low, high)}".rstrip()
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        _refuse(ArgumentTypeError, name, what, value, "")
    number = float(value)
    if (
        not math.isfinite(number)
        or (low is not None and number < low)
        or (high is not None and number > high)
    ):
        _refuse(ArgumentError, name, what, value, hint)
    return number


def instance(name: str, value: T, kind: type | tuple[type, ...], what: str) -> T:
    """``value`` if it is an instance of ``kind``, else an ArgumentTypeError saying it
    must be ``what`` (``"a RuleSet"``)."""
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _types(kind)):
        _refuse(ArgumentTypeError, name, what, value, "")
    return value


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def seed(value: object, *, name: str = "seed", optional: bool = True) -> int | None:
    """A seed: an integer from 0 to :data:`MAX_SEED`, or None where ``optional``.

    >>> seed(None), seed(7)
    (None, 7)
    >>> seed(-1)
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: seed must be an integer from 0 to 18446744073709551615, got -1
    """
    if value is None and optional:
        return None
    return whole(name, value, low=0, high=MAX_SEED)


def dealt_hand(
    contract: object, *, decks: object, jokers: object, cards: object, rules: object
) -> int:
    """Check the arguments of a dealt hand (the odds functions'): ``contract`` a Contract,
    ``rules`` a RuleSet, 1 to :data:`~rummykit.rules.MAX_DECKS` decks, 0 to
    :data:`~rummykit.rules.MAX_JOKERS` jokers, and 0 up to the whole shoe of cards; the
    shoe's size.

    >>> from rummykit import CONTRACTS
    >>> dealt_hand(CONTRACTS[0], decks=2, jokers=4, cards=10, rules=RuleSet.preset("standard"))
    108
    >>> dealt_hand(CONTRACTS[0], decks=1, jokers=0, cards=60, rules=RuleSet.preset("standard"))
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: cards must be an integer from 0 to 52, got 60: a hand is dealt from the shoe of 52 cards
    """
    contract_rules(contract, rules)
    whole("decks", decks, low=1, high=MAX_DECKS, hint="the bound of RuleSet (rummykit.rules)")
    whole("jokers", jokers, low=0, high=MAX_JOKERS, hint="the bound of RuleSet (rummykit.rules)")
    size = 52 * decks + jokers
    whole("cards", cards, low=0, high=size, hint=f"a hand is dealt from the shoe of {size} cards")
    return size


def contract_rules(contract: object, rules: object) -> None:
    """Check that ``contract`` is a Contract and ``rules`` a RuleSet (the arguments of
    every contract search and hint)."""
    instance("contract", contract, Contract, "a Contract")
    instance("rules", rules, RuleSet, "a RuleSet")
