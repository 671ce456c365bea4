"""Optional dependencies: import one, or say which extra of rummykit installs it.

The engine needs the standard library only; tables and simulations need the
``analysis`` extra, the widgets the ``notebook`` extra.

>>> require("json", extra="analysis", feature="rummykit.odds").__name__
'json'
>>> require("no_such_module", extra="analysis", feature="rummykit.odds")
Traceback (most recent call last):
    ...
rummykit.errors.MissingDependencyError: rummykit.odds needs no_such_module, which is not installed: pip install "rummykit[analysis]"
"""

from __future__ import annotations

import importlib
from types import ModuleType

from rummykit.errors import MissingDependencyError

__all__ = ["ANALYSIS", "require", "require_analysis"]


def require(name: str, *, extra: str, feature: str) -> ModuleType:
    """Import the module ``name``, or raise MissingDependencyError naming ``extra``."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise MissingDependencyError(
            f'{feature} needs {name}, which is not installed: pip install "rummykit[{extra}]"'
        ) from error


#: The modules of the ``analysis`` extra that the odds sub-packages need.
ANALYSIS = ("numpy", "polars", "tqdm", "more_itertools")


def require_analysis() -> None:
    """Raise :class:`~rummykit.errors.MissingDependencyError` naming the ``analysis``
    extra unless its modules (:data:`ANALYSIS`) can be imported (each odds sub-package
    that needs them calls this first; it lives here, below them, so that none of them
    imports ``rummykit.odds`` itself, which imports the query service above them)."""
    for name in ANALYSIS:
        require(name, extra="analysis", feature="rummykit.odds")
