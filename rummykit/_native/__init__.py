"""The compiled cores, behind one face: every C source of rummykit lives in this package.

setup.py builds three optional extension modules from the sources here; each speeds up
one part of rummykit that runs in Python, with the same results, when it is not built
(no C compiler, or the pure-Python wheel of the book's live notebooks):

============  ====================  ===========================================================
core          sources               speeds up (without it)
============  ====================  ===========================================================
``distance``  _distance.c,          ``search.contract_distance`` and ``search.find_contract``
              _contract.c           (search.py's solver counts and searches)
``table``     _table.c,             ``odds.play.fastplay``'s rounds (the engine plays them:
              _contract.c           ``completion.play_round``)
``sweep``     _sweep.c              the exact sweep's step (``odds.counting._exact_layers``
                                    sweeps in Python)
============  ====================  ===========================================================

Each core is imported here, once, with its fallback: the attribute of this module named
after it is the extension module, or None when it is not built (the reason kept:
:func:`why_not_built`). :func:`available` is the one map of what is built. The modules
that use a core read the attribute when they call (``_native.distance``), never a copy,
so a test turns a core off by setting it to None here (``tests/conftest.py``'s
``without_core`` fixture) and every user of the core falls back at once.

The meld rules reach C in one encoding, :func:`encode_meld_rules`, which both the
distance and the table core read: rules.py's own limits and run windows, so no rule is
derived again in C (``_contract.c`` checks only that they fit its fixed sizes).

``RUMMYKIT_REQUIRE_NATIVE=1`` (set by ``.ci/run``) says that every core must be built:
then :func:`required` raises :class:`NotBuiltError` for a missing core instead of
returning None, and the tests that ask it fail rather than skip. rummykit itself never
fails for a missing core: it falls back.

>>> sorted(available())
['distance', 'sweep', 'table']
>>> available()["distance"] == (distance is not None) == (why_not_built("distance") is None)
True
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType

from rummykit.engine.rules import MeldRules, RuleSet, meld_limits, run_windows
from rummykit.errors import RummyError

__all__ = [
    "CORES",
    "MELD_RULE_FIELDS",
    "NotBuiltError",
    "WINDOW_FIELDS",
    "available",
    "distance",
    "encode_meld_rules",
    "require",
    "required",
    "sweep",
    "table",
    "why_not_built",
]

#: Each core: its C sources (in this folder) and what runs without it.
CORES: dict[str, tuple[str, str]] = {
    "distance": (
        "_distance.c, _contract.c",
        "contract_distance counts and find_contract searches in Python",
    ),
    "table": ("_table.c, _contract.c", "completion.play_round plays the same rounds"),
    "sweep": ("_sweep.c", "the exact sweep runs in Python, with the same counts"),
}

#: The environment variable that makes a missing core an error (:func:`required`).
REQUIRE_VARIABLE = "RUMMYKIT_REQUIRE_NATIVE"


class NotBuiltError(RummyError):
    """A compiled core that is not built was asked for; the message names the core, its
    sources and what runs without it."""


def _load(name: str) -> tuple[ModuleType | None, str | None]:
    try:
        return importlib.import_module(f"{__name__}._{name}"), None
    except ImportError as error:  # not built (no C compiler), or built for another Python
        return None, f"{type(error).__name__}: {error}"


_REASONS: dict[str, str | None] = {}
distance, _REASONS["distance"] = _load("distance")
table, _REASONS["table"] = _load("table")
sweep, _REASONS["sweep"] = _load("sweep")


def _module(name: str) -> ModuleType | None:
    if name not in CORES:
        raise RummyError(f"no compiled core named {name!r}: the cores are {', '.join(CORES)}")
    return globals()[name]


def available() -> dict[str, bool]:
    """Each core's name -> whether it is built (and not turned off by a test)."""
    return {name: _module(name) is not None for name in CORES}


def why_not_built(name: str) -> str | None:
    """Why core ``name`` is missing (the import's error), or None when it is built."""
    if _module(name) is not None:
        return None
    return _REASONS.get(name) or f"rummykit._native.{name} is set to None"


def _missing(name: str) -> NotBuiltError:
    sources, fallback = CORES[name]
    return NotBuiltError(
        f"the compiled core {name!r} (rummykit._native._{name}, from {sources}) is not built: "
        f"{why_not_built(name)}. pip install -e . builds it with a C compiler; without it "
        f"{fallback}"
    )


def require(name: str) -> ModuleType:
    """Core ``name``'s module, or :class:`NotBuiltError` when it is not built."""
    module = _module(name)
    if module is None:
        raise _missing(name)
    return module


def required(name: str) -> ModuleType | None:
    """Core ``name``'s module; when it is not built, None, unless ``RUMMYKIT_REQUIRE_NATIVE``
    is set (to anything but ``0``): then :class:`NotBuiltError`, naming the core.

    The one reader of that variable: CI sets it, so that a broken build fails the tests
    that ask for a core instead of skipping them (a silent fallback would hide it)."""
    module = _module(name)
    if module is None and os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0"):
        raise _missing(name)
    return module


#: The meld rules as the compiled solver reads them (``_contract.h``'s ``R_...``, in this
#: order): the rules' own numbers, the limits of :func:`rummykit.engine.rules.meld_limits`, the
#: run positions, and how many run windows follow.
MELD_RULE_FIELDS = (
    "min_set_size",
    "min_run_size",
    "max_jokers_per_meld",  # -1: no limit
    "min_naturals_in_set",
    "min_naturals_in_run",
    "set_naturals",  # MeldLimits.set_naturals
    "set_cards",  # MeldLimits.set_cards
    "set_jokers",  # MeldLimits.set_jokers
    "run_cards",  # MeldLimits.run_cards
    "first_position",  # RuleSet.run_positions()[0]
    "last_position",  # RuleSet.run_positions()[-1]
    "separated",  # MeldLimits.separated
    "windows",  # len(rules.run_windows(rules))
)
#: Each run window after them: rules.run_windows's (first position, length) and the most
#: jokers a run of that length may hold (MeldLimits.run_jokers).
WINDOW_FIELDS = ("start", "length", "jokers")


def encode_meld_rules(rules: RuleSet | MeldRules) -> tuple[int, ...]:
    """The meld rules of ``rules`` as the compiled solver reads them: the integers of
    :data:`MELD_RULE_FIELDS`, then :data:`WINDOW_FIELDS` for each run window, in the order
    of :func:`rummykit.engine.rules.run_windows`. The engine's own functions compute them, so the
    C side derives no rule (it checks only that they fit its fixed sizes). One tuple per
    meld rules (cached): the distance core keeps the solver of the tuple it last read.

    >>> from rummykit import RuleSet
    >>> encoded = encode_meld_rules(RuleSet.preset("standard"))
    >>> header = dict(zip(MELD_RULE_FIELDS, encoded))
    >>> header["max_jokers_per_meld"], header["set_naturals"], header["windows"]
    (2, 2, 11)
    >>> encoded[len(MELD_RULE_FIELDS) :][:6]  # windows A-4 and 2-5, two jokers each
    (1, 4, 2, 2, 4, 2)
    >>> encode_meld_rules(RuleSet.preset("wikipedia"))[len(MELD_RULE_FIELDS) - 1]
    65
    """
    return _encode(rules.meld_rules if isinstance(rules, RuleSet) else rules)


@cache
def _encode(rules: MeldRules) -> tuple[int, ...]:
    limits = meld_limits(rules)
    windows = run_windows(rules)
    header = (
        rules.min_set_size,
        rules.min_run_size,
        -1 if rules.max_jokers_per_meld is None else rules.max_jokers_per_meld,
        rules.min_naturals_in_set,
        rules.min_naturals_in_run,
        limits.set_naturals,
        limits.set_cards,
        limits.set_jokers,
        limits.run_cards,
        limits.positions[0],
        limits.positions[-1],
        int(limits.separated),
        len(windows),
    )
    cells = (n for start, length in windows for n in (start, length, limits.run_jokers(length)))
    return (*header, *cells)
