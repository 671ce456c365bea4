"""The module paths of the flat root before it was split by job (issue 51), kept for one
release: ``import rummykit.cards`` (or ``from rummykit import cards``) gives
:mod:`rummykit.engine.cards` itself, the same module object (its classes, and a patch of
it, are the new module's), with a :class:`DeprecationWarning` naming the new path.
docs/CHANGES.md lists the moves; the old paths go in the next release. A module split in
two by job (:data:`SPLIT`) has no one new module to be: its old path gives a module of
its own that offers each name of its new modules (the same objects), warning likewise.

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
} | {
    # odds/data/ split into what the jobs stand on and the pipeline above them (issue 51,
    # item 3).
    "rummykit.odds.data.pipeline": "rummykit.odds.pipeline",
}

#: Each module split by job, by its old path: the modules its names went to, in the order
#: a name is looked for in them (the old module offered names of the last two as well).
SPLIT = {
    "rummykit.odds.data.tables": (
        "rummykit.odds.counting.tables",
        "rummykit.odds.data.schemas",
        "rummykit.odds.cells",
        "rummykit.odds.data.plan",
    ),
}


class MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`MOVED` (after every other finder has not) and loads
    it as the module at its new path."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED and fullname not in SPLIT:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec) -> types.ModuleType:
        return types.ModuleType(spec.name)  # a stand-in, replaced in exec_module

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ in SPLIT:
            _offer_split(module)
            return
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


def _offer_split(module: types.ModuleType) -> None:
    """Make ``module``, an old path of :data:`SPLIT`, offer each name of its new modules."""
    names = SPLIT[module.__name__]
    warnings.warn(
        f"{module.__name__} was split by job into {', '.join(names[:-1])} and {names[-1]}: "
        "import each name from there (the old path goes in the next release)",
        DeprecationWarning,
        stacklevel=3,
    )
    parts = [importlib.import_module(name) for name in names]

    def __getattr__(name: str):
        if not name.startswith("__"):
            for part in parts:
                if hasattr(part, name):
                    return getattr(part, name)
        raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")

    module.__doc__ = f"The old path of {', '.join(names)} (deprecated)."
    module.__all__ = sorted({name for part in parts for name in getattr(part, "__all__", ())})
    module.__getattr__ = __getattr__
    module.__dir__ = lambda: sorted({*module.__dict__, *module.__all__})


def install() -> None:
    """Put :class:`MovedFinder` last on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())
