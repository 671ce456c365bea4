"""The package's module structure: no import cycle at module level, each engine module
importable on its own, no engine module over 1,000 lines, and ``rummykit.engine.game`` still
offering every name it offered before it was split (issue 17, item 2).

A lazy import inside a function (as :func:`rummykit.engine.saves.load` does for ``Game``) and an
import under ``if TYPE_CHECKING:`` are not module-level imports: they run after every
module has loaded.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "rummykit"

#: The standard-library modules, by path under rummykit/: the engine (the rules of the
#: game), the agents (who plays) and the evaluation (how well they play), with the errors,
#: the committed tables' extracts and the cards' pictures beside them (issue 51: the flat
#: root split by job).
ENGINE = (
    "agents.bots",
    "agents.determinize",
    "agents.hints",
    "agents.rollouts",
    "agents.searchbot",
    "agents.weigh",
    "engine.actions",
    "engine.cards",
    "engine.checks",
    "engine.events",
    "engine.game",
    "engine.legal",
    "engine.melds",
    "engine.narrate",
    "engine.phases",
    "engine.rules",
    "engine.saves",
    "engine.search",
    "errors",
    "evaluate.beside",
    "evaluate.duplicate",
    "evaluate.estimate",
    "evaluate.ladder",
    "evaluate.puzzle_book",
    "evaluate.puzzles",
    "evaluate.review_page",
    "evaluate.review_words",
    "evaluate.reviews",
    "evaluate.stories",
    "odds.known_completion",
    "odds.known_odds",
    "svg",
)


def _path(name: str) -> Path:
    """The file of ``name``, a module's path under rummykit/ ("engine.cards")."""
    return PACKAGE.joinpath(*name.split(".")).with_suffix(".py")


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed module at ``path``, parsed once a session (a worker's tests read every
    module several times; the package's files do not change during a run)."""
    return ast.parse(path.read_text())


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_submodule(package: str, name: str) -> bool:
    """Whether ``from package import name`` names a module (Python, or compiled as
    rummykit._native._sweep is) rather than something defined in the package."""
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
        for node in _top_level_imports(_tree(path)):
            targets = _targets(node, package)
            edges |= {target for target in targets if target in modules and target != name}
        graph[name] = edges
    return graph


def _targets(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    """The modules an import statement of a module of ``package`` names: ``from
    rummykit.x import y`` names ``rummykit.x.y`` when that is a module, else
    ``rummykit.x``; a relative import is resolved from ``package``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*anchor, base] if base else anchor)
    return [
        f"{base}.{alias.name}" if _is_submodule(base, alias.name) else base for alias in node.names
    ]


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


def _all_imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, str | None]]:
    """Every import a module can run, each with the function it sits in (None at module
    level): lazy imports included, imports under ``if TYPE_CHECKING:`` left out."""
    found = []

    def walk(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and (
                getattr(child.test, "id", None) == "TYPE_CHECKING"
                or getattr(child.test, "attr", None) == "TYPE_CHECKING"
            ):
                for other in child.orelse:
                    walk(other, function)
            elif isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, function))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                walk(child, child.name)
            else:
                walk(child, function)

    walk(tree, None)
    return found


#: The lazy imports that may run against the stack, each inside one method: a value
#: drawing itself in Jupyter (python-chess reaches chess.svg only from Board._repr_svg_),
#: GameState.save and GameState.narrate handing the state to the save format and the
#: narrator, which read GameState; and a refusal's check imported only where it is due
#: (rummykit.engine.checks imports cards and rules).
DRAWS_ITSELF = {
    ("engine.cards", "svg"): {"_repr_svg_"},
    ("engine.game", "engine.saves"): {"save"},
    ("engine.game", "engine.narrate"): {"narrate"},
    ("engine.cards", "engine.checks"): {"__new__"},
    ("engine.rules", "engine.checks"): {"_meld_part"},
}


def engine_graph() -> dict[str, set[str]]:
    """Each engine module and the engine modules it may import, lazy imports included,
    less the edges of :data:`DRAWS_ITSELF` (checked to stay inside their methods)."""
    graph: dict[str, set[str]] = {}
    for name in ENGINE:
        edges = set()
        for node, function in _all_imports(_tree(_path(name))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:  # `from rummykit.engine import phases` names a module
                module = node.module or ""
                targets = [
                    f"{module}.{alias.name}" if _is_submodule(module, alias.name) else module
                    for alias in node.names
                ]
            for target in targets:
                other = target.removeprefix("rummykit.")
                if other not in ENGINE or other == name:
                    continue
                allowed = DRAWS_ITSELF.get((name, other))
                if allowed is not None:
                    assert function in allowed, f"{name} imports {other} in {function}"
                    continue
                edges.add(other)
        graph[name] = edges
    return graph


def test_cycle_finder_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_import_graph_sees_the_engine_imports():
    graph = import_graph()
    assert "rummykit.engine.events" in graph["rummykit.engine.narrate"]
    # narrate reads a game state: it imports game, never the reverse at module level.
    assert "rummykit.engine.game" in graph["rummykit.engine.narrate"]
    assert "rummykit.engine.narrate" not in graph["rummykit.engine.game"]
    assert {"rummykit.engine.events", "rummykit.engine.legal"} <= graph["rummykit.engine.game"]
    # saves reads a game state: it imports game, never the reverse at module level.
    assert "rummykit.engine.game" in graph["rummykit.engine.saves"]
    assert "rummykit.engine.saves" not in graph["rummykit.engine.game"]
    # The compiled cores' face is a package of the engine's layer, imported as a module.
    assert "rummykit._native" in graph["rummykit.engine.search"]
    assert "rummykit.odds" not in graph["rummykit.odds.counting.exact"]


def test_no_import_cycle_at_module_level():
    assert find_cycle(import_graph()) is None


def test_engine_graph_sees_lazy_imports():
    graph = engine_graph()
    assert "engine.melds" in graph["engine.search"] and "engine.cards" in graph["svg"]
    assert "svg" in graph["engine.melds"]  # Meld._repr_svg_ imports it lazily: down the stack
    assert "svg" not in graph["engine.cards"]  # lazy imports allowed against the stack
    assert "engine.saves" not in graph["engine.game"]
    assert "engine.game" in graph["engine.saves"]
    assert "engine.narrate" not in graph["engine.game"]
    assert "engine.game" in graph["engine.narrate"]
    assert "engine.checks" not in graph["engine.cards"]
    assert "engine.cards" in graph["engine.checks"]
    # `from rummykit.engine import phases` is an edge to the module.
    assert "engine.phases" in graph["engine.game"]


def test_no_import_cycle_among_engine_files_lazy_imports_included():
    assert find_cycle(engine_graph()) is None


@pytest.mark.parametrize("name", ENGINE)
def test_engine_module_imports_alone(name):
    # A bare package object stands in for rummykit/__init__.py, which would otherwise
    # import the whole engine first, in its own order, and hide a cycle entered here.
    code = (
        "import sys, types\n"
        f"package = types.ModuleType('rummykit'); package.__path__ = [{str(PACKAGE)!r}]\n"
        "sys.modules['rummykit'] = package\n"
        "for sub in ('engine', 'agents', 'evaluate'):\n"
        f"    part = types.ModuleType('rummykit.' + sub); part.__path__ = [{str(PACKAGE)!r} + '/' + sub]\n"
        "    sys.modules['rummykit.' + sub] = part\n"
        f"import rummykit.{name}\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ENGINE)
def test_engine_module_is_at_most_1000_lines(name):
    lines = _path(name).read_text().count("\n")
    assert lines <= 1000, f"{_path(name).relative_to(PACKAGE.parent)} has {lines} lines"


#: Modules over the 1,000-line guard, each with its length when the guard came to every
#: module (issue 51): the list may only shrink, and a module on it may not grow.
LONG_MODULES_LEFT = {"charts.py": 1042, "teach/concepts.py": 1006}


def test_no_module_over_1000_lines_and_no_class_over_600():
    long, big = {}, []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        name = path.relative_to(PACKAGE).as_posix()
        lines = text.count("\n")
        if lines > 1000:
            long[name] = lines
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 600:
                big.append(f"{name}: {node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert not big, big
    assert set(long) <= set(LONG_MODULES_LEFT), sorted(set(long) - set(LONG_MODULES_LEFT))
    grown = {name: lines for name, lines in long.items() if lines > LONG_MODULES_LEFT[name]}
    assert not grown, f"grown past their length on the list: {grown}"
    gone = set(LONG_MODULES_LEFT) - set(long)
    assert not gone, f"under the guard now, shrink the list: {sorted(gone)}"


def test_game_keeps_its_public_names():
    # The save format's names moved to rummykit.engine.saves, above game (it reads a GameState).
    import rummykit.engine.game as game

    names = {
        "DEFAULT_NAMES",
        "MAX_NAME_LENGTH",
        "PHASES",
        "Event",
        "Game",
        "GameState",
        "PlayerView",
        "RoundResult",
        "play_game",
    }
    assert names <= set(game.__all__)
    assert all(hasattr(game, name) for name in game.__all__)
    from rummykit.engine import events, legal, saves

    assert game.Event is events.Event and game.RoundResult is events.RoundResult
    assert game.PlayerView is legal.PlayerView
    moved = {"MAX_SAVE_BYTES", "MAX_SAVE_DEPTH", "SAVE_FORMAT", "SAVE_VERSION", "load", "dumps"}
    assert moved <= set(saves.__all__) and not moved & set(game.__all__)
    assert saves.MAX_NAME_LENGTH is game.MAX_NAME_LENGTH


def test_contract_search_has_one_way_in():
    # The contract search lives in rummykit.engine.search (offered by rummykit too); melds, below
    # it, no longer offers it through a module __getattr__ (the door made a circle).
    import rummykit
    import rummykit.engine.melds as melds
    from rummykit.engine import search

    for name in search.__all__:
        assert name not in melds.__all__ and not hasattr(melds, name)
    assert not hasattr(melds, "__getattr__")
    for name in ("contract_completion", "contract_distance", "find_contract"):
        assert getattr(rummykit, name) is getattr(search, name)


def test_event_kinds_cover_every_kind_the_engine_logs():
    from rummykit.engine.events import EVENT_KINDS

    logged = set()
    for path in (_path("engine.game"), _path("engine.phases")):
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            # Event(round, kind, ...) and the handlers' _event(state, kind, ...)
            kind = node.args[1] if len(node.args) > 1 else None
            if called in ("_event", "Event") and isinstance(kind, ast.Constant):
                logged.add(kind.value)
    assert len(logged) > 20
    assert logged == set(EVENT_KINDS)
    assert len(EVENT_KINDS) == len(set(EVENT_KINDS))


# --- the layers of docs/architecture.md ---------------------------------------------------

#: Presentation helpers beside the engine (docs/architecture.md, rule 2).
HELPERS = ("charts", "display", "exercises", "_optional")
#: The users' doors, none importing another (rule 4).
DOORS = ("widgets", "teach", "cli")


#: The standard-library modules at the root, in the engine's layer: the words of a chance
#: (the hints' numbers), the compiled cores' face and the cards' pictures (a value drawing
#: itself).
ROOT_ENGINE = ("chance", "_native", "svg")


def _layer(name: str) -> str:
    """The layer of a module of rummykit: ``errors``, ``engine``, ``agents``, ``evaluate``,
    ``helpers``, ``odds`` or a door (``widgets``, ``teach``, ``cli``); the package itself
    (and its aliases of moved modules) is ``package``."""
    parts = name.split(".")
    if len(parts) == 1 or parts[1] == "_moved":
        return "package"
    head = parts[1]
    if head == "errors":
        return "errors"
    if head in ("engine", *ROOT_ENGINE):
        return "engine"
    if head in ("agents", "evaluate"):
        return head
    if head in HELPERS:
        return "helpers"
    if head in ("odds", *DOORS):
        return head
    raise AssertionError(f"{name} has no layer in docs/architecture.md (ENGINE, HELPERS, DOORS)")


#: Which layers each layer may import (rules 1-4): downward only. The engine stands on
#: nothing of rummykit's but the errors; the agents on the engine; the evaluation on both.
BELOW = {"errors", "engine", "agents", "evaluate"}
MAY_IMPORT = {
    "package": BELOW | {"package"},  # rummykit/__init__.py offers the public names
    "errors": set(),
    "engine": {"errors", "engine"},
    "agents": {"errors", "engine", "agents"},
    "evaluate": BELOW,
    "helpers": BELOW | {"helpers"},
    "odds": BELOW | {"helpers", "odds", "package"},
    "widgets": BELOW | {"helpers", "odds", "widgets", "package"},
    "teach": BELOW | {"helpers", "odds", "teach", "package"},
    "cli": BELOW | {"helpers", "odds", "cli", "package"},
}

#: Rule 5's exceptions left (module, imported module, name): the list may only shrink.
PRIVATE_IMPORTS_LEFT = {
    ("rummykit.odds.play.outs_bot", "rummykit.odds.play.completion", "_cell_columns"),
    ("rummykit.odds.play.outs_bot", "rummykit.odds.play.completion", "_mean"),
    ("rummykit.odds.play.outs_bot", "rummykit.odds.play.completion", "_proportion"),
}


def _every_import() -> list[tuple[str, str, list[str]]]:
    """(module, imported module, names) for every import of a rummykit module, lazy ones
    and those under ``if TYPE_CHECKING:`` included."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rummykit"):
                found.append((name, node.module, [alias.name for alias in node.names]))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("rummykit"):
                        found.append((name, alias.name, []))
    return found


def test_layers_import_only_downward():
    wrong = []
    for name, target, names in _every_import():
        targets = [target]
        if target == "rummykit" and names:  # `from rummykit import odds` names a module
            targets = [f"rummykit.{n}" for n in names if _is_submodule("rummykit", n)] or [target]
        for other in targets:
            layer, other_layer = _layer(name), _layer(other)
            if other_layer not in MAY_IMPORT[layer] and other_layer != layer:
                wrong.append(f"{name} ({layer}) imports {other} ({other_layer})")
    assert not wrong, "imports against docs/architecture.md's layers:\n" + "\n".join(wrong)


def test_the_compiled_cores_face_is_standard_library_engine():
    """rummykit/_native/ holds every C source, behind one face that imports the standard
    library, errors and rules only (search.py, just above rules, reads it), and no Python
    module outside it imports a compiled core directly."""
    assert _layer("rummykit._native") == "engine"
    face = PACKAGE / "_native" / "__init__.py"
    for node, _ in _all_imports(_tree(face)):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        module = node.module if isinstance(node, ast.ImportFrom) else None
        for target in [*names, *([module] if module else [])]:
            top = target.split(".")[0]
            engine = ("rummykit.errors", "rummykit.engine.rules")  # (rules: encode_meld_rules)
            assert top in sys.stdlib_module_names or target in ("__future__", *engine), target
    assert sorted(path.name for path in PACKAGE.rglob("*.[ch]")) == sorted(
        path.name for path in (PACKAGE / "_native").glob("*.[ch]")
    )
    for name, target, names in _every_import():
        if name != "rummykit._native":
            cores = {f"_{core}" for core in ("distance", "table", "sweep")}
            assert not cores & {target.rpartition(".")[2], *names}, (name, target, names)


def test_layer_rules_see_a_wrong_import():
    assert _layer("rummykit.engine.game") == "engine" and _layer("rummykit.odds.cells") == "odds"
    assert _layer("rummykit.agents.bots") == "agents" and "agents" not in MAY_IMPORT["engine"]
    assert "evaluate" not in MAY_IMPORT["agents"]
    assert _layer("rummykit.widgets") not in MAY_IMPORT["odds"]
    assert "teach" not in MAY_IMPORT["widgets"] and "widgets" not in MAY_IMPORT["teach"]


def test_no_new_import_of_another_modules_private_name():
    found = {
        (name, target, alias)
        for name, target, names in _every_import()
        for alias in names
        if alias.startswith("_")
        and not alias.startswith("__")
        and not _is_submodule(target, alias)  # a compiled core is a module
    }
    assert found <= PRIVATE_IMPORTS_LEFT, sorted(found - PRIVATE_IMPORTS_LEFT)
    assert found >= PRIVATE_IMPORTS_LEFT, (
        f"gone, shrink the list: {sorted(PRIVATE_IMPORTS_LEFT - found)}"
    )


# --- odds/ without its circle (issue 51, items 3 and 8) ------------------------------------


def full_graph() -> dict[str, set[str]]:
    """Each rummykit module and the rummykit modules it may import, lazy imports (inside
    functions) included and those under ``if TYPE_CHECKING:`` left out. Importing
    ``a.b.c`` runs ``a/b/__init__.py`` first, so it depends on ``a.b`` as well, unless
    ``a.b`` is a package of the importer itself (whose ``__init__`` has run already); an
    import naming the importer's own package is an edge like any other."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        edges = set()
        for node, _ in _all_imports(_tree(path)):
            for target in _targets(node, package):
                parts = target.split(".")
                run = {target} | {".".join(parts[:i]) for i in range(1, len(parts))} - own
                edges |= {other for other in run if other in modules and other != name}
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each group of two or more modules that import one
    another, directly or not (its strongly connected components), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_circles_are_found_with_lazy_imports_and_packages():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    graph = full_graph()
    # A lazy import: the query service counts only when asked (answer.can_count).
    assert "rummykit.odds.counting.exact" in graph["rummykit.odds.answer"]
    # ... which runs the counting package's __init__ first.
    assert "rummykit.odds.counting" in graph["rummykit.odds.answer"]
    # A module does not depend on its own package: that __init__ has run before it ...
    assert "rummykit.odds.counting" not in graph["rummykit.odds.counting.exact"]
    # ... unless it names it: the analysis check is imported from below the sub-packages.
    assert "rummykit.odds" not in graph["rummykit.odds.counting"]
    assert "rummykit._optional" in graph["rummykit.odds.counting"]
    # The engine's circles of a value drawing itself are seen (and allowed elsewhere).
    assert ["rummykit.engine.game", "rummykit.engine.narrate", "rummykit.engine.saves"] in (
        circles(graph)
    )


def test_no_import_circle_through_odds_lazy_imports_included():
    """No circle among the modules of rummykit.odds, nor between them and the modules they
    use (a lazy import of rummykit.odds from a module odds imports closes one too): the
    only circles STYLE allows are the engine's values drawing themselves."""
    through_odds = [
        group
        for group in circles(full_graph())
        if any(name.startswith("rummykit.odds") for name in group)
    ]
    assert not through_odds, through_odds


#: The sub-packages of rummykit.odds and the pipeline above them (issue 51, item 3): the
#: data infrastructure at the bottom, the jobs on it, the pipeline on the jobs.
ODDS_PARTS = ("counting", "data", "dealt", "play", "pipeline")


def odds_parts_graph() -> dict[str, set[str]]:
    """Each part of :data:`ODDS_PARTS` and the parts its modules import (lazy imports
    included), from the module graph."""

    def part(name: str) -> str | None:
        parts = name.split(".")
        return (
            parts[2]
            if parts[:2] == ["rummykit", "odds"] and len(parts) > 2 and (parts[2] in ODDS_PARTS)
            else None
        )

    graph: dict[str, set[str]] = {name: set() for name in ODDS_PARTS}
    for name, edges in full_graph().items():
        if (mine := part(name)) is not None:
            graph[mine] |= {other for edge in edges if (other := part(edge)) not in (None, mine)}
    return graph


def test_odds_data_is_below_the_jobs_and_the_pipeline_above_them():
    """odds/data/ was both below the jobs (pool, plan, checkpoint, schemas) and above them
    (build_tables): now it imports none of them, and nothing imports the pipeline."""
    graph = odds_parts_graph()
    assert circles(graph) == []
    assert graph["data"] == set()
    assert "data" in graph["counting"] and "data" in graph["dealt"] and "data" in graph["play"]
    assert graph["pipeline"] >= {"counting", "data", "play"}
    assert not any("pipeline" in edges for edges in graph.values())
