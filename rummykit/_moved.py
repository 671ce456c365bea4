"""The module paths of the flat root before it was split by job (issue 51), kept for one
release: ``import rummykit.cards`` (or ``from rummykit import cards``) gives
:mod:`rummykit.engine.cards` itself, the same module object (its classes, and a patch of
it, are the new module's), with a :class:`DeprecationWarning` naming the new path.
docs/CHANGES.md lists the moves; the old paths go in the next release.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import rummykit.cards as old
>>> import rummykit.engine.cards as new
>>> old is new, caught[0].category.__name__
(True, 'DeprecationWarning')
>>> str(caught[0].message)
'rummykit.cards moved to rummykit.engine.cards: import it from there (the old path goes in the next release)'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

#: Each module of the flat root that moved, by its old path: its new one.
MOVED = {
    f"rummykit.{name}": f"rummykit.{package}.{name}"
    for package, names in {
        "engine": (
            "actions",
            "cards",
            "checks",
            "events",
            "game",
            "legal",
            "melds",
            "narrate",
            "phases",
            "rules",
            "saves",
            "search",
        ),
        "agents": ("bots", "determinize", "hints", "rollouts", "searchbot", "weigh"),
        "evaluate": (
            "beside",
            "duplicate",
            "ladder",
            "puzzle_book",
            "puzzles",
            "review_page",
            "review_words",
            "reviews",
            "stories",
        ),
        "odds": ("known_odds", "known_completion"),
    }.items()
    for name in names
}


class MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`MOVED` (after every other finder has not) and loads
    it as the module at its new path."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec) -> types.ModuleType:
        return types.ModuleType(spec.name)  # a stand-in, replaced in exec_module

    def exec_module(self, module: types.ModuleType) -> None:
        new = MOVED[module.__name__]
        warnings.warn(
            f"{module.__name__} moved to {new}: import it from there (the old path goes in "
            "the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        # The import system returns what sys.modules holds under the old name once this
        # returns: the new module itself, its __spec__ untouched.
        sys.modules[module.__name__] = importlib.import_module(new)


def install() -> None:
    """Put :class:`MovedFinder` last on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())
