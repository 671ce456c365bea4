"""A base install (no extras): the engine works, and everything else says what to install.

Each check runs in a fresh interpreter in which the optional packages cannot be imported,
as on a machine with ``pip install rummykit`` only.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

BLOCK = """
import importlib.abc, sys
OPTIONAL = {"numpy", "polars", "pyarrow", "altair", "vl_convert", "tqdm", "ipywidgets",
            "more_itertools", "IPython"}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in OPTIONAL:
            raise ModuleNotFoundError(f"No module named {name!r}")
sys.meta_path.insert(0, Blocker())
"""


def run_base(code: str) -> subprocess.CompletedProcess:
    script = BLOCK + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )


def test_the_engine_needs_no_extra():
    result = run_base(
        """
        from rummykit import RuleSet, check_meld, parse_cards
        from rummykit.agents.bots import GreedyBot
        from rummykit.engine.game import Game, play_game
        state = play_game(Game("standard", 3, seed=1).new_state(), [GreedyBot(seed=s) for s in range(3)])
        assert state.is_over
        print(check_meld(parse_cards("3S 4S JK 6S"), RuleSet.preset("standard")).describe())
        assert not {"numpy", "polars", "altair", "ipywidgets"} & set(sys.modules)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "valid run" in result.stdout


@pytest.mark.parametrize(
    ("statement", "feature", "extra"),
    [
        ("import rummykit.odds.counting", "rummykit.odds", "analysis"),
        ("import rummykit.odds.data.schemas", "rummykit.odds", "analysis"),
        ("import rummykit.odds.counting.tables", "rummykit.odds", "analysis"),
        ("import rummykit.odds.pipeline", "rummykit.odds", "analysis"),
        ("from rummykit.odds import dealt_probability", "rummykit.odds", "analysis"),
        ("import rummykit.charts", "rummykit.charts", "analysis"),
        ("import rummykit.widgets", "rummykit.widgets", "notebook"),
    ],
)
def test_each_optional_part_names_its_extra(statement, feature, extra):
    result = run_base(
        f"""
        from rummykit.errors import MissingDependencyError
        try:
            {statement}
        except MissingDependencyError as error:
            assert isinstance(error, ImportError)
            print(error)
        else:
            raise SystemExit("imported without its extra")
        """
    )
    assert result.returncode == 0, result.stderr
    assert f"{feature} needs" in result.stdout
    assert f'pip install "rummykit[{extra}]"' in result.stdout


def test_the_odds_cells_and_query_service_need_no_extra():
    """What the book's live notebooks use of rummykit.odds: the standard library only."""
    result = run_base(
        """
        import sys
        import rummykit.odds
        from rummykit.odds.answer import can_count, known_probability
        from rummykit.odds.cells import ExactCell
        from rummykit import RuleSet
        standard = RuleSet.preset("standard")
        print(known_probability(ExactCell(standard, 1, standard.contracts[0], 2, 4, 10)))
        assert not can_count()
        assert not {"numpy", "polars", "altair"} & set(sys.modules)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2412345575/27078894567"


def test_the_command_names_the_extra():
    result = run_base(
        """
        from rummykit.cli import main
        main(["odds", "--contract", "1", "--decks", "1", "--jokers", "0", "--cards", "6"])
        """
    )
    assert result.returncode == 2
    assert "rummykit odds: rummykit.odds needs numpy" in result.stderr
    assert 'pip install "rummykit[analysis]"' in result.stderr
    assert "Traceback" not in result.stderr


def test_the_tables_command_names_the_extra():
    # Its options' defaults (the recipes, the seed) come from rummykit.odds.pipeline.
    result = run_base(
        """
        from rummykit.cli import main
        main(["tables", "--quick", "--out", "nowhere"])
        """
    )
    assert result.returncode == 2
    assert "rummykit tables: rummykit.odds needs numpy" in result.stderr
    assert "Traceback" not in result.stderr
