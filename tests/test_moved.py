"""The flat root split by job (issue 51, item 1): every old path imports the moved module
itself with a DeprecationWarning, and nothing in the repository still uses an old path. A
module split in two by job (issue 51, item 3: odds/data/tables.py) offers every name it
offered, from its new modules."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from rummykit._moved import MOVED, SPLIT

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_new_module_with_a_warning(old):
    # In a fresh interpreter: here the old name may be imported already.
    code = (
        "import importlib, warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({MOVED[old]!r})\n"
        "assert old is new, (old, new)\n"
        "assert new.__name__ == new.__spec__.name == " + repr(MOVED[old]) + "\n"
        "kinds = [w.category.__name__ for w in caught]\n"
        "assert kinds == ['DeprecationWarning'], kinds\n"
        f"assert {MOVED[old]!r} in str(caught[0].message)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_from_rummykit_import_an_old_name_gives_the_module():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from rummykit import reviews  # noqa: F401 - the old path, on purpose

    assert sys.modules["rummykit.reviews"] is importlib.import_module("rummykit.evaluate.reviews")


def test_nothing_in_the_repository_uses_an_old_path():
    names = "|".join(name.removeprefix("rummykit.") for name in [*MOVED, *SPLIT])
    dotted = re.compile(rf"(?<![\w/.])rummykit\.({names})\b(?!\.py)")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    # History (CHANGES) and the list of moves itself name the old paths on purpose; the
    # save format's name is not a module path; a line saying "old path" names one.
    allowed = {"docs/CHANGES.md", "rummykit/_moved.py", "tests/test_moved.py"}
    found = []
    for rel in listed:
        path = ROOT / rel
        if rel in allowed or path.suffix not in (".py", ".md", ".ipynb", ".toml", ".yml", ".cfg"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if "old path" in line or "bootstrap {seed}" in line:
                continue  # says it names an old path; the ladder bootstrap's seed string
            if dotted.search(line.replace('"rummykit.game"', "")):
                found.append(f"{rel}:{number}: {line.strip()[:100]}")
    assert not found, "old module paths:\n" + "\n".join(found[:40])


#: What rummykit.odds.data.tables offered (its __all__) before it was split by job into the
#: dealt-hand tables (rummykit.odds.counting.tables) and the schemas (rummykit.odds.data
#: .schemas), with the deprecated known_probability besides.
OLD_TABLES_NAMES = (
    "BUYING_SCHEMA",
    "BY_TURN_SCHEMA",
    "CELL_COLUMNS",
    "DEFAULT_SEED",
    "DISTANCE_SCHEMA",
    "ESTIMATE_COLUMNS",
    "EXACT_CARDS",
    "EXACT_SCHEMA",
    "EXACT_SHOES",
    "MEAN_COLUMNS",
    "LADDER_SCHEMA",
    "OUTS_BOT_SCHEMA",
    "SCHEMAS",
    "SEARCH_DECISIONS_SCHEMA",
    "SEAT_SCHEMA",
    "SIMULATED_HANDS",
    "SUMMARY_SCHEMA",
    "cell_seed",
    "counts_in_minutes",
    "exact_seconds",
    "known_probability",
    "counts_quickly",
    "dealt_odds",
    "distance_counts_quickly",
    "duration_text",
    "distance_odds",
    "exact_cells",
    "exact_odds",
    "column_meaning",
    "exact_row",
    "frame",
    "preset_cells",
    "preset_odds",
    "resolve_rules",
    "round_of",
    "simulated_row",
    "COLUMN_MEANINGS",
    "TABLE_COLUMN_MEANINGS",
    "data_directory",
)


def test_a_split_module_offers_every_name_it_offered_with_a_warning():
    # In a fresh interpreter, as above: the old path warns once, when it is imported.
    code = (
        "import importlib, warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    from rummykit.odds.data import tables as old\n"
        "kinds = [w.category.__name__ for w in caught]\n"
        "assert kinds == ['DeprecationWarning'], kinds\n"
        "assert 'rummykit.odds.counting.tables' in str(caught[0].message)\n"
        "assert 'rummykit.odds.data.schemas' in str(caught[0].message)\n"
        f"homes = {SPLIT['rummykit.odds.data.tables']!r}\n"
        f"for name in {OLD_TABLES_NAMES!r}:\n"
        "    found = [getattr(importlib.import_module(h), name) for h in homes\n"
        "             if hasattr(importlib.import_module(h), name)]\n"
        "    assert found and getattr(old, name) is found[0], name\n"
        "assert old.exact_odds.__module__ == 'rummykit.odds.counting.tables'\n"
        "assert old.SCHEMAS is importlib.import_module('rummykit.odds.data.schemas').SCHEMAS\n"
        "assert not hasattr(old, 'no_such_name')\n"
        "assert set(old.__all__) >= {'exact_odds', 'SCHEMAS', 'data_directory'}\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
