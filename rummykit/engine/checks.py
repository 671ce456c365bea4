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
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from rummykit.engine.cards import Card, Hand
from rummykit.engine.rules import MAX_DECKS, MAX_JOKERS, Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError, CardTypeError

__all__ = [
    "MAX_ITEMS",
    "MAX_SEED",
    "cards",
    "choice",
    "contract_rules",
    "dealt_hand",
    "instance",
    "items",
    "path",
    "real",
    "seed",
    "whole",
    "wholes",
]

T = TypeVar("T")

#: The largest seed accepted: numpy's generators and ``random.Random`` take any
#: non-negative integer, but a seed is written in tables and saves, so 64 bits it is.
MAX_SEED = 2**64 - 1
#: The most items a list argument (cards, melds, rows, grid values) may hold: far more
#: than any shoe (8 decks and 32 jokers are 448 cards) or table grid, far fewer than
#: would take a second to check.
MAX_ITEMS = 100_000


def _bounds(low: float | None, high: float | None) -> str:
    for label, bound in (("low", low), ("high", high)):
        if bound is not None and (not isinstance(bound, numbers.Real) or isinstance(bound, bool)):
            _refuse(ArgumentTypeError, label, "a number or None", bound, "")
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
    kinds = _types(kind)
    if not kinds or not all(isinstance(k, type) for k in kinds):
        _refuse(ArgumentTypeError, "kind", "a type or a tuple of types", kind, "")
    if not isinstance(what, str):
        _refuse(ArgumentTypeError, "what", "a description (str)", what, "")
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        _refuse(ArgumentTypeError, name, what, value, "")
    return value


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def items(
    name: str,
    value: object,
    each: Callable[[str, object], T] | None = None,
    *,
    what: str = "a list",
    error: type = ArgumentTypeError,
    least: int = 0,
    most: int = MAX_ITEMS,
) -> list[T]:
    """``value`` as a list if it is an iterable (not text, bytes or a mapping) of ``least``
    to ``most`` items, each passed through ``each(f"{name}[{i}]", item)`` when given (a
    check that returns the item or raises), else ``error`` saying it must be ``what``.

    >>> items("sizes", (3, 4), lambda name, x: whole(name, x, low=1))
    [3, 4]
    >>> items("sizes", [3, None], lambda name, x: whole(name, x, low=1))
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentTypeError: sizes[1] must be an integer >= 1, got None
    """
    if not (isinstance(error, type) and issubclass(error, ArgumentError | CardTypeError)):
        _refuse(ArgumentTypeError, "error", "an ArgumentError or CardTypeError class", error, "")
    if each is not None and not callable(each):
        _refuse(ArgumentTypeError, "each", "a check (a function) or None", each, "")
    whole("least", least, low=0)
    whole("most", most, low=least)
    if isinstance(value, str | bytes | dict) or not isinstance(value, Iterable):
        _refuse(error, name, what, value, "")
    out = []
    for i, item in enumerate(value):
        if i == most:
            _refuse(ArgumentError, name, f"{what} of at most {most:,} items", value, "")
        out.append(item if each is None else each(f"{name}[{i}]", item))
    if len(out) < least:
        _refuse(ArgumentError, name, f"{what} of at least {least} items", value, "")
    return out


def cards(name: str, value: object, *, most: int = MAX_ITEMS) -> tuple[Card, ...]:
    """``value`` as a tuple if it is an iterable of :class:`~rummykit.engine.cards.Card`, else a
    :class:`~rummykit.errors.CardTypeError` naming ``name`` (a hand, a meld's cards).

    >>> cards("hand", None)
    Traceback (most recent call last):
        ...
    rummykit.errors.CardTypeError: hand must be a list of Card objects, got None
    """

    if isinstance(value, Hand):  # a Hand holds only Cards (it checks them)
        return value

    def card(label: str, item: object) -> Card:
        if not isinstance(item, Card):
            _refuse(CardTypeError, label, "a Card", item, "parse codes with parse_cards")
        return item

    return tuple(
        items(name, value, card, what="a list of Card objects", error=CardTypeError, most=most)
    )


def path(name: str, value: object) -> Path:
    """``value`` as a Path if it is a str or a path (``os.PathLike``) of text without the
    NUL character no file name holds, else an error naming ``name``.

    >>> path("out", "build/tables")
    PosixPath('build/tables')
    >>> path("out", None)
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentTypeError: out must be a path (str or pathlib.Path), got None
    """
    instance(name, value, (str, os.PathLike), "a path (str or pathlib.Path)")
    text = os.fspath(value)
    if not isinstance(text, str) or "\x00" in text:
        _refuse(ArgumentError, name, "a path of text without NUL characters", value, "")
    return Path(text)


def wholes(
    name: str, value: object, *, low: int | None = None, high: int | None = None, hint: str = ""
) -> tuple[int, ...]:
    """An integer or an iterable of integers (a table's grid: players, rounds, decks),
    each within ``low``..``high``, as a tuple.

    >>> wholes("players", 4, low=2), wholes("players", range(2, 5), low=2)
    ((4,), (2, 3, 4))
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return (whole(name, value, low=low, high=high, hint=hint),)
    what = f"an integer or a list of integers {_bounds(low, high)}".rstrip()
    return tuple(
        items(name, value, lambda n, x: whole(n, x, low=low, high=high, hint=hint), what=what)
    )


def choice(name: str, value: T, choices: Iterable[object]) -> T:
    """``value`` if it is one of ``choices`` (compared by equality; a bool is no number).

    >>> choice("kind", "run", ("set", "run"))
    'run'
    >>> choice("kind", "x", ("set", "run"))
    Traceback (most recent call last):
        ...
    rummykit.errors.ArgumentError: kind must be one of 'set', 'run', got 'x'
    """
    options = tuple(items("choices", choices, what="the values allowed"))
    try:
        found = any(type(value) is type(c) and value == c for c in options)
    except TypeError:  # a value that cannot be compared (numpy arrays, ...)
        found = False
    if not found:
        _refuse(ArgumentError, name, "one of " + ", ".join(map(repr, options)), value, "")
    return value


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
    ``rules`` a RuleSet, 1 to :data:`~rummykit.engine.rules.MAX_DECKS` decks, 0 to
    :data:`~rummykit.engine.rules.MAX_JOKERS` jokers, and 0 up to the whole shoe of cards; the
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
    whole(
        "decks", decks, low=1, high=MAX_DECKS, hint="the bound of RuleSet (rummykit.engine.rules)"
    )
    whole(
        "jokers",
        jokers,
        low=0,
        high=MAX_JOKERS,
        hint="the bound of RuleSet (rummykit.engine.rules)",
    )
    size = 52 * decks + jokers
    whole("cards", cards, low=0, high=size, hint=f"a hand is dealt from the shoe of {size} cards")
    return size


def contract_rules(contract: object, rules: object) -> None:
    """Check that ``contract`` is a Contract and ``rules`` a RuleSet (the arguments of
    every contract search and hint)."""
    instance("contract", contract, Contract, "a Contract")
    instance("rules", rules, RuleSet, "a RuleSet")
