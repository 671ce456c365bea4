"""The fast tier's list (tests/support/tiers.py) names tests that exist, and marks what it names."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.tiers import LONG, MOVED, moved

ROOT = Path(__file__).resolve().parents[1]


def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def _doctest_owner(name: str) -> bool:
    """Whether the dotted name of a doctest item (``rummykit.agents.bots.OutsBot``) is defined."""
    import importlib

    parts = name.split(".")
    for split in range(len(parts), 0, -1):  # (the whole name: a module's own doctest)
        try:
            value = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            value = getattr(value, attribute, None)
        return value is not None and bool(getattr(value, "__doc__", None))
    return False


def test_every_moved_test_exists():
    stale = []
    for entry in MOVED:
        file, test = entry[:2]
        if file.startswith("test_"):
            paths = list((ROOT / "tests").rglob(file))
            if not any(test in _functions(path) for path in paths):
                stale.append(entry[:2])
        elif not _doctest_owner(test):
            stale.append(entry[:2])
    assert not stale, f"tests/support/tiers.py MOVED names tests that are gone (update it): {stale}"


def test_every_long_test_exists():
    stale = [
        (file, test)
        for file, test in LONG
        if not any(test in _functions(path) for path in (ROOT / "tests").rglob(file))
    ]
    assert not stale, f"tests/support/tiers.py LONG names tests that are gone (update it): {stale}"


def test_moved_matches_whole_tests_and_case_patterns():
    assert moved("test_cli.py", "test_command_through_a_subprocess", None)
    assert moved("test_preset_saves.py", "test_seeded_game_replays_as_recorded", "bga-7p-random")
    assert not moved(
        "test_preset_saves.py", "test_seeded_game_replays_as_recorded", "bga-4p-random"
    )
    assert not moved("test_preset_saves.py", "test_seeded_game_replays_as_recorded", None)
    assert not moved("test_cli.py", "test_something_else", None)
