"""Contract odds: exact counting, simulation, completion at a real table and the
long-form tables of ``data/`` (the formulas a student checks by hand are in
:mod:`rummykit.teach.probability`).

>>> from rummykit import CONTRACTS, RuleSet
>>> from rummykit.odds import dealt_probability
>>> rules = RuleSet.preset("standard")
>>> float(dealt_probability(CONTRACTS[0], decks=1, jokers=0, cards=6, rules=rules)) < 0.01
True

The cell values (:mod:`.cells`) and the query service (:mod:`.answer`: :func:`answer`,
:func:`known_probability`) need the standard library only, as the book's live notebooks
(Pyodide: no numpy, no polars) need them. The rest (the sub-packages ``counting``,
``dealt``, ``play`` and ``data``, and the :mod:`.pipeline` of ``data/`` above them) needs
the ``analysis`` extra: importing one of them, or asking this package for one of their
names, without it raises :class:`~rummykit.errors.MissingDependencyError` saying what to
install.
"""

import importlib

# The analysis extra's check, offered here as before (it lives in rummykit._optional, below
# the sub-packages that call it).
from rummykit._optional import ANALYSIS, require_analysis  # noqa: F401

#: Each public name and the module that defines it, imported on first use.
_HOMES = {
    "Answer": "rummykit.odds.answer",
    "answer": "rummykit.odds.answer",
    "known_probability": "rummykit.odds.answer",
    "ExactTable": "rummykit.odds.counting.exact",
    "dealt_count": "rummykit.odds.counting.exact",
    "dealt_probability": "rummykit.odds.counting.exact",
    "distance_distribution": "rummykit.odds.counting.exact",
    "exact_table": "rummykit.odds.counting.exact",
    "SCHEMAS": "rummykit.odds.data.schemas",
    "dealt_odds": "rummykit.odds.counting.tables",
    "distance_odds": "rummykit.odds.counting.tables",
    "exact_odds": "rummykit.odds.counting.tables",
    "preset_odds": "rummykit.odds.counting.tables",
    "Estimate": "rummykit.odds.estimate",
    "estimate_dealt": "rummykit.odds.estimate",
    "running_estimate": "rummykit.odds.dealt.simulate",
    "simulate_dealt": "rummykit.odds.dealt.simulate",
    "simulate_distance": "rummykit.odds.dealt.simulate",
    "wilson_interval": "rummykit.odds.dealt.simulate",
    "buying_value": "rummykit.odds.play.completion",
    "completion_by_turn": "rummykit.odds.play.completion",
    "completion_tables": "rummykit.odds.play.completion",
    "round_summary": "rummykit.odds.play.completion",
    "seat_position": "rummykit.odds.play.completion",
}

#: Importable from here, documented at their one home: the one Estimate
#: (rummykit.evaluate.estimate), which the dealt-hand simulations return.
_ELSEWHERE = {"Estimate"}

__all__ = sorted(set(_HOMES) - _ELSEWHERE)


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once imported, an attribute like any other
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


# The query service needs the standard library only, so it is imported at once: the name
# ``answer`` is then always the function. As a lazy name it was hidden by the submodule
# of the same name once that was imported, and hid the submodule once looked up, so what
# ``rummykit.odds.answer`` was depended on the order of imports.
from rummykit.odds.answer import Answer, answer, known_probability  # noqa: E402, F401
