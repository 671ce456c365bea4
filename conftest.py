"""How the suite is spread over pytest-xdist's workers (``make test`` runs two).

pyproject.toml's ``addopts`` pass ``--dist loadgroup --no-loadscope-reorder``, so with
``-n N`` xdist keeps each group below on one worker, in collection order, and hands the
groups (and the ungrouped tests, each alone) out in the order this conftest collects them:

- **a notebook**: nbval runs its cells in order on one kernel, started for the file;
- **the browser tests** (``browser``-marked) and the tests of the built book
  (``built_book``, as the notebooks' outputs are checked): the book is built once and served, and no
  two Chromiums, JupyterLabs and book builds compete for the cores at once (their
  timeouts were measured one at a time); ``built_book`` also holds a file lock, so two
  runs at once never build it together (tests/test_book_browser.py);
- **a test module with a module-scoped fixture** (a cluster, built assignments, a
  simulated table): set up once, not once per worker.

The soak tier (``soak``-marked: the full volume of a check whose cases chosen for coverage
``make test`` runs, issue 51 item 6) is left out unless ``--soak`` is given: ``make soak``
runs it, ``pytest --soak -m soak``.

Longest first: the groups and tests are ordered by their measured time
(``tests/support/tiers.py``'s :data:`~tiers.LONG`, else ``tests/support/tier_times.json``'s;
the slow tier's others count 1 s, the rest 0.1 s), so the last tests to start are short
and the workers finish together. Without ``-n`` nothing changes: the order is the files'
own. This file sits at the root so that it applies to every path pytest is given
(notebooks/ and rummykit/ too).
"""

from __future__ import annotations

import pytest

from tests.support.tiers import LONG, measured_seconds, soak_left_out

#: The shared fixtures (tests/support): Chromium, the built book served, a JupyterLab.
pytest_plugins = ["tests.support.browser", "tests.support.book", "tests.support.lab"]

#: The distribution modes that keep a notebook's cells on one kernel.
_DISTRIBUTIONS = ("no", "loadgroup", "loadfile", "each")

_WIDE_SCOPES = ("module", "package", "session")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        help="run the soak tier too (soak-marked: the full volume of checks whose chosen "
        "cases the suite runs; make soak)",
    )


def pytest_configure(config: pytest.Config) -> None:
    dist = config.getoption("dist", "no")
    if dist not in _DISTRIBUTIONS:
        raise pytest.UsageError(
            f"--dist {dist} would spread a notebook's cells over workers (nbval runs them "
            f"on one kernel) and the browser tests' shared book: use --dist loadgroup "
            f"(pyproject.toml's addopts) or run without -n"
        )


def group(item: pytest.Item) -> str | None:
    """The xdist group of ``item`` (see the module's docstring), or None for a test that
    can run on any worker."""
    if item.get_closest_marker("browser") or "built_book" in getattr(item, "fixturenames", ()):
        return "browser"  # (the book's build is the browser tests' too: one worker builds it)
    path = item.path.relative_to(item.config.rootpath).as_posix()
    if item.path.suffix == ".ipynb":
        return path
    # (nbval's cells have no fixtures; doctests have pytest's own only.)
    info = getattr(item, "_fixtureinfo", None)
    for defs in info.name2fixturedefs.values() if info is not None else ():
        # A fixture of the suite's own files (pytest's and plugins' have no base id).
        if defs[-1].scope in _WIDE_SCOPES and defs[-1].baseid:
            return path
    return None


def _join(item: pytest.Item, name: str) -> None:
    """Put ``item`` in the xdist group ``name``. xdist's own hook reads the mark and
    appends ``@name`` to ``item._nodeid``, which its scheduler reads the group from; pytest
    9.2 builds the node id from ``item._id`` instead and ignores that, so the suffix goes
    there too, where it exists (else each test of a notebook would go its own way)."""
    item.add_marker(pytest.mark.xdist_group(name))
    node_id = getattr(item, "_id", None)
    if node_id is not None and hasattr(type(node_id), "parse"):
        item._id = type(node_id).parse(f"{item.nodeid}@{name}")


def _seconds(item: pytest.Item) -> float:
    test = getattr(item, "originalname", None) or item.name
    known = LONG.get((item.path.name, test))
    if known is None:
        known = measured_seconds(item.nodeid)
    if known is not None:
        return known
    return 1.0 if item.get_closest_marker("slow") else 0.1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the soak tier unless asked; under xdist, mark each test's group and put
    the longest groups and tests first."""
    left_out = soak_left_out(items, config.getoption("soak"))
    if left_out:
        config.hook.pytest_deselected(items=left_out)
    # (xdist sets a worker's --dist to "no" and its option loadgroup.)
    if not getattr(config.option, "loadgroup", False):
        return
    units: dict[str, list[pytest.Item]] = {}
    worker = config.workerinput.get("workerid") if hasattr(config, "workerinput") else None
    for item in items:
        # In the junit report (--junitxml) too: each worker's sum of times.
        item.user_properties.append(("xdist_worker", worker))
        name = group(item)
        units.setdefault(name or item.nodeid, []).append(item)
        if name is not None:
            _join(item, name)
    # A stable sort: equal units keep their collection order, each unit its own.
    ordered = sorted(units.values(), key=lambda unit: -sum(map(_seconds, unit)))
    items[:] = [item for unit in ordered for item in unit]
