"""The compiled cores, behind one face: every C source of rummykit lives in this package.

setup.py builds three optional extension modules from the sources here; each speeds up
one part of rummykit that runs in Python, with the same results, when it is not built
(no C compiler, or the pure-Python wheel of the book's live notebooks):

============  ====================  ===========================================================
core          sources               speeds up (without it)
============  ====================  ===========================================================
``distance``  _distance.c,          ``search.contract_distance`` (search.py's solver counts)
              _contract.c
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
from types import ModuleType

from rummykit.errors import RummyError

__all__ = [
    "CORES",
    "NotBuiltError",
    "available",
    "distance",
    "require",
    "required",
    "sweep",
    "table",
    "why_not_built",
]

#: Each core: its C sources (in this folder) and what runs without it.
CORES: dict[str, tuple[str, str]] = {
    "distance": ("_distance.c, _contract.c", "contract_distance counts in Python"),
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
