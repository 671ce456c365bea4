"""The package's module structure: no import cycle at module level, each engine module
importable on its own, no engine module over 1,000 lines, and ``rummykit.game`` still
offering every name it offered before it was split (issue 17, item 2).

A lazy import inside a function (as :func:`rummykit.saves.load` does for ``Game``) and an
import under ``if TYPE_CHECKING:`` are not module-level imports: they run after every
module has loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "rummykit"

#: The standard-library engine (the modules of rummykit/ itself, without the optional
#: plotting and command-line parts).
ENGINE = (
    "actions",
    "bots",
    "cards",
    "checks",
    "errors",
    "events",
    "game",
    "hints",
    "known_odds",
    "legal",
    "melds",
    "narrate",
    "phases",
    "rules",
    "saves",
    "search",
    "svg",
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_submodule(package: str, name: str) -> bool:
    """Whether ``from package import name`` names a module (Python, or compiled as
    rummykit.odds._sweep is) rather than something defined in the package."""
    folder = PACKAGE.parent.joinpath(*package.split("."))
    return (folder / name).is_dir() or any(folder.glob(f"{name}.*"))


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports run when the module loads: top-level statements and those in top-level
    ``try`` blocks, but not those under ``if TYPE_CHECKING:`` or inside functions."""
    found = []
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                todo.extend(handler.body)
        elif isinstance(node, ast.If):
            test = node.test
            typing_only = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
            )
            if not typing_only:
                todo.extend(node.body + node.orelse)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each rummykit module and the rummykit modules it imports at module level.

    ``from rummykit.x import y`` depends on ``rummykit.x.y`` when that is a module, else on
    ``rummykit.x``; a relative import is resolved from the importing module.
    """
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in _top_level_imports(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [
                    f"{base}.{alias.name}" if _is_submodule(base, alias.name) else base
                    for alias in node.names
                ]
            edges |= {target for target in targets if target in modules and target != name}
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_cycle_finder_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_import_graph_sees_the_engine_imports():
    graph = import_graph()
    assert "rummykit.events" in graph["rummykit.narrate"]
    assert "rummykit.game" not in graph["rummykit.narrate"]  # only under TYPE_CHECKING
    assert {"rummykit.events", "rummykit.legal", "rummykit.saves"} <= graph["rummykit.game"]
    assert "rummykit.game" not in graph["rummykit.saves"]  # load imports Game lazily
    # The compiled sweep is a module, not something rummykit/odds/__init__.py defines.
    assert "rummykit.odds" not in graph["rummykit.odds.counting.exact"]


def test_no_import_cycle_at_module_level():
    assert find_cycle(import_graph()) is None


@pytest.mark.parametrize("name", ENGINE)
def test_engine_module_imports_alone(name):
    # A bare package object stands in for rummykit/__init__.py, which would otherwise
    # import the whole engine first, in its own order, and hide a cycle entered here.
    code = (
        "import sys, types\n"
        f"package = types.ModuleType('rummykit'); package.__path__ = [{str(PACKAGE)!r}]\n"
        "sys.modules['rummykit'] = package\n"
        f"import rummykit.{name}\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ENGINE)
def test_engine_module_is_at_most_1000_lines(name):
    lines = (PACKAGE / f"{name}.py").read_text().count("\n")
    assert lines <= 1000, f"rummykit/{name}.py has {lines} lines"


def test_game_keeps_its_public_names():
    import rummykit.game as game

    names = {
        "DEFAULT_NAMES",
        "MAX_SAVE_BYTES",
        "MAX_SAVE_DEPTH",
        "PHASES",
        "SAVE_FORMAT",
        "SAVE_VERSION",
        "Event",
        "Game",
        "GameState",
        "PlayerView",
        "RoundResult",
        "load",
        "play_game",
    }
    assert names <= set(game.__all__)
    assert all(hasattr(game, name) for name in game.__all__)
    from rummykit import events, legal, saves

    assert game.Event is events.Event and game.RoundResult is events.RoundResult
    assert game.PlayerView is legal.PlayerView and game.load is saves.load


def test_melds_offers_the_contract_search_it_had():
    import rummykit.melds as melds
    from rummykit import search

    for name in search.__all__:
        assert name in melds.__all__ and name in dir(melds)
        assert getattr(melds, name) is getattr(search, name)
    from rummykit.melds import find_contract

    assert find_contract is search.find_contract
    with pytest.raises(AttributeError, match="no attribute 'solve'"):
        melds.solve  # noqa: B018


def test_event_kinds_cover_every_kind_the_engine_logs():
    from rummykit.events import EVENT_KINDS

    logged = set()
    for path in (PACKAGE / "game.py", PACKAGE / "phases.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[1] if called == "Event" else node.args[0]
            if called in ("_event", "Event") and isinstance(first, ast.Constant):
                logged.add(first.value)
    assert len(logged) > 20
    assert logged == set(EVENT_KINDS)
    assert len(EVENT_KINDS) == len(set(EVENT_KINDS))
