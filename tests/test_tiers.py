"""The fast tier's list (tests/support/tiers.py) names tests that exist, and marks what it names."""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import tiers
from tests.support.tiers import (
    LONG,
    MOVED,
    chosen_for_coverage,
    measured_slow,
    moved,
    soak_left_out,
    times_from_durations,
)

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
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


def _listed() -> tuple[dict[str, float], list[str]]:
    """The tests and files tier_times.json names (read whether or not it is switched off)."""
    found = json.loads(tiers.TIMES.read_text(encoding="utf-8"))
    return found["tests"], found["files"]


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


def test_coverage_keeps_the_first_item_of_each_value_of_each_key():
    assert chosen_for_coverage(range(10), lambda n: n % 3, lambda n: n > 7) == [0, 1, 2, 8]
    assert chosen_for_coverage([], len) == []


def test_durations_add_up_by_test_and_a_slow_set_up_lists_its_file(tmp_path, monkeypatch):
    report = "\n".join(
        [
            "1.50s setup    tests/test_a.py::test_one@tests/test_a.py",
            "0.25s call     tests/test_a.py::test_one@tests/test_a.py",
            "0.06s call     tests/test_b.py::test_two[x-1]",
            "0.30s call     tests/test_b.py::test_four[2 sets + 1 run-standard]@browser",
            "0.05s teardown tests/test_b.py::test_two[x-1]",
            "0.04s call     tests/test_b.py::test_three",
            "0.20s setup    tests/test_c.py::test_five",
            "(12 durations < 0.005s hidden.  Use -vv to show these durations.)",
        ]
    )
    times, setups = times_from_durations(report)
    assert times == pytest.approx(
        {
            "tests/test_a.py::test_one": 1.75,
            "tests/test_b.py::test_two[x-1]": 0.11,
            "tests/test_b.py::test_four[2 sets + 1 run-standard]": 0.3,
            "tests/test_b.py::test_three": 0.04,
            "tests/test_c.py::test_five": 0.2,
        }
    )
    assert setups == {"tests/test_a.py::test_one": 1.5, "tests/test_c.py::test_five": 0.2}
    monkeypatch.setattr(tiers, "TIMES", tmp_path / "times.json")
    tests, files = tiers.write_times(report, "by hand")
    assert tests == {
        "tests/test_b.py::test_four[2 sets + 1 run-standard]": 0.3,
        "tests/test_b.py::test_two[x-1]": 0.11,
        "tests/test_c.py::test_five": 0.2,  # (a set-up under 0.5 s: not the file whole)
    }
    assert files == ["tests/test_a.py"]
    written = json.loads((tmp_path / "times.json").read_text())
    assert written == {"measured": "by hand", "files": files, "tests": tests}


def test_the_measured_file_marks_its_tests_and_whole_files(monkeypatch):
    monkeypatch.setattr(
        tiers, "measured", lambda: ({"tests/test_b.py::test_two[x-1]": 0.11}, {"tests/test_a.py"})
    )
    assert measured_slow("tests/test_b.py::test_two[x-1]@tests/test_b.py")
    assert measured_slow("tests/test_a.py::test_anything")
    assert not measured_slow("tests/test_b.py::test_two[x-2]")


def test_every_measured_test_and_file_exists():
    tests, files = _listed()
    stale = [path for path in files if not (ROOT / path).is_file()]
    for node_id in tests:
        path, _, test = node_id.partition("::")
        name = test.partition("[")[0].rpartition("::")[2]  # (a method: Class::test)
        if path.startswith("tests/"):
            if not (ROOT / path).is_file() or name not in _functions(ROOT / path):
                stale.append(node_id)
        elif not _doctest_owner(name):
            stale.append(node_id)
    assert not stale, f"tests/support/tier_times.json names tests that are gone: {stale}"


def test_the_soak_tier_is_left_out_unless_asked():
    class Item:
        def __init__(self, name, soak):
            self.name, self.soak = name, soak

        def get_closest_marker(self, name):
            return name == "soak" and self.soak or None

    items = [Item("a", False), Item("b", True), Item("c", False)]
    assert soak_left_out(list(items), soak=True) == []
    kept = list(items)
    assert [item.name for item in soak_left_out(kept, soak=False)] == ["b"]
    assert [item.name for item in kept] == ["a", "c"]


@pytest.mark.slow
def test_every_measured_node_id_is_collected():
    # A renamed case would leave the fast tier silently: each id must still be collected.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "--soak", "tests", "rummykit"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, tiers.TIMES_SWITCH: "off"},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    collected = set(done.stdout.splitlines())
    missing = sorted(set(_listed()[0]) - collected)
    assert not missing, f"tests/support/tier_times.json names ids no longer collected: {missing}"


def test_measured_seconds_are_the_files_by_node_id(monkeypatch):
    monkeypatch.setattr(
        tiers, "measured", lambda: ({"tests/test_b.py::test_two[x-1]": 0.11}, set())
    )
    assert tiers.measured_seconds("tests/test_b.py::test_two[x-1]@browser") == 0.11
    assert tiers.measured_seconds("tests/test_b.py::test_three") is None
