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

__all__ = ["require"]


def require(name: str, *, extra: str, feature: str) -> ModuleType:
    """Import the module ``name``, or raise MissingDependencyError naming ``extra``."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise MissingDependencyError(
            f'{feature} needs {name}, which is not installed: pip install "rummykit[{extra}]"'
        ) from error
