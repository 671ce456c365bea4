"""The pipeline of data/ (rummykit.odds.pipeline): a table of jobs, each making its tables
of data/ once, and one loop that runs them (issue 51, item 3: it was a 244-line if-chain
inside odds/data/, which the jobs also stood on)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import polars as pl
import pytest

from rummykit.errors import ArgumentError, RummyError
from rummykit.odds import pipeline
from rummykit.odds.data.schemas import SCHEMAS
from rummykit.odds.pipeline import DESCRIPTIONS, JOBS, RECIPES, Job, build_tables

DATA = Path(__file__).resolve().parent.parent / "data"


def test_the_jobs_make_each_table_of_data_exactly_once():
    made = [name for job in JOBS for name in job.tables]
    assert len(made) == len(set(made)), made
    assert set(made) == set(DESCRIPTIONS) == set(SCHEMAS)
    assert set(made) == {path.stem for path in DATA.glob("*.parquet")}


def test_each_job_is_given_the_options_its_function_takes():
    options = set(inspect.signature(build_tables).parameters) - {"recipe", "seed", "only", "log"}
    for job in JOBS:
        assert set(job.options) <= options, job.name
        assert len(set(job.options)) == len(job.options), job.name
        # make(recipe, seed, wanted, **options) binds: no option missing, none unknown.
        signature = inspect.signature(job.make)
        signature.bind(None, 0, list(job.tables), **dict.fromkeys(job.options))
        named = {
            name
            for name, parameter in signature.parameters.items()
            if parameter.kind is inspect.Parameter.KEYWORD_ONLY
        }
        assert named <= set(job.options), (job.name, named - set(job.options))


def test_each_job_imports_the_module_it_stands_on():
    for job in JOBS:
        tree = ast.parse(inspect.getsource(job.make))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imported.add(node.module)
                imported |= {f"{node.module}.{alias.name}" for alias in node.names}
        assert job.stands_on in imported, (job.name, job.stands_on, sorted(imported))


def test_an_unknown_table_is_refused_by_name_before_any_work(monkeypatch):
    ran = []
    monkeypatch.setattr(pipeline, "check_memory", lambda *args: ran.append("memory"))
    with pytest.raises(ArgumentError, match=r"^only: unknown tables \['odds'\]: choose from ") as e:
        build_tables(RECIPES["quick"], only=["exact_odds", "odds"], progress=False)
    assert isinstance(e.value, RummyError)
    assert ran == []


def _stand_in(log: list, name: str):
    def make(recipe, seed, wanted, **options):
        log.append((name, list(wanted), sorted(options)))
        for table in wanted:
            yield table, pl.DataFrame({"row": [1, 2]}), {"seed": seed, "job": name}

    return make


def test_the_loop_runs_each_job_with_a_table_wanted_once_in_the_order_of_jobs(monkeypatch):
    ran, said = [], []
    jobs = (
        Job("first", ("exact_odds", "exact_jokers"), _stand_in(ran, "first"), "here"),
        Job("second", ("ladder",), _stand_in(ran, "second"), "here", ("checkpoint",)),
        Job("third", ("distance",), _stand_in(ran, "third"), "here", ()),
    )
    monkeypatch.setattr(pipeline, "JOBS", jobs)
    monkeypatch.setattr(pipeline, "check_memory", lambda *args: 0)
    tables = build_tables(
        RECIPES["quick"], seed=7, only=["ladder", "exact_jokers", "exact_odds"], log=said.append
    )
    # Only the wanted tables of a job are asked for, and only its own options are given.
    assert ran == [
        ("first", ["exact_odds", "exact_jokers"], ["executor", "max_workers", "progress"]),
        ("second", ["ladder"], ["checkpoint"]),
    ]
    # The log in the order the tables are made; the result in the order of DESCRIPTIONS.
    assert [line.split(":")[0] for line in said] == ["exact_odds", "exact_jokers", "ladder"]
    assert all(line.endswith(" s") and ": 2 rows in " in line for line in said)
    assert list(tables) == ["exact_odds", "exact_jokers", "ladder"]
    table, facts = tables["ladder"]
    assert table.height == 2
    assert facts["seed"] == 7 and facts["job"] == "second" and "run_time_seconds" in facts
