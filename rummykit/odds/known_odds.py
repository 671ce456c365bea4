"""The exact dealt odds of the committed tables, read with the standard library only.

The tables of ``data/`` (``exact_odds``, ``exact_jokers``, ``exact_presets``) are polars
files. The odds code reads their exact values (:func:`rummykit.odds.answer.known_probability`,
the one reader of already-known odds) from ``rummykit/odds/known_odds.json`` through
:func:`committed_probability`, with the standard library, so that they are read alike
where polars is missing (the book's live notebooks run in the reader's browser, in
Pyodide, which has no polars, numpy or pyarrow). The JSON file is a data file of the
package extracted from the committed CSV files: one row ``[rules, contract, decks, jokers, cards, "numerator/denominator"]``
per exact row. ``make tables`` writes it after ``rummykit tables``
(``python -m rummykit.odds.known_odds``); a test checks it against the polars tables.

>>> from rummykit import RuleSet
>>> standard = RuleSet.preset("standard")
>>> committed_probability(standard, standard.contracts[0], decks=1, jokers=2, cards=7)
Fraction(829, 283815)
>>> committed_probability(standard, standard.contracts[0], decks=4, jokers=16, cards=7) is None
True
"""

from __future__ import annotations

import csv
import functools
import json
import sys
import warnings
from fractions import Fraction
from importlib import resources
from pathlib import Path

from rummykit.engine.checks import dealt_hand
from rummykit.engine.checks import path as check_path
from rummykit.engine.rules import Contract, MeldRules, RuleSet
from rummykit.errors import ArgumentError

__all__ = ["KNOWN_ODDS_FILE", "TABLES", "committed_probability", "extract", "write"]

#: The package data file holding the extract.
KNOWN_ODDS_FILE = "known_odds.json"

#: The committed tables holding exact dealt odds (the rows :func:`committed_probability`
#: reads).
TABLES = ("exact_odds", "exact_jokers", "exact_presets")

_Row = tuple[str, str, int, int, int, str]


def extract(data: Path) -> dict:
    """The exact rows of the tables :data:`TABLES` in the folder ``data``, read from their
    CSV files, sorted, as the JSON object :func:`write` stores.

    Raises :class:`~rummykit.errors.ArgumentError` when a table's CSV file is missing.
    """
    data = check_path("data", data)
    rows: set[_Row] = set()
    for name in TABLES:
        path = Path(data) / f"{name}.csv"
        if not path.is_file():
            raise ArgumentError(f"data: the table {name} has no CSV file at {path}")
        with path.open(newline="") as file:
            for row in csv.DictReader(file):
                if row["method"] != "exact":
                    continue
                p = Fraction(row["p_exact"])  # checks the value is a fraction
                rows.add(
                    (
                        row["rules"],
                        row["contract"],
                        int(row["decks"]),
                        int(row["jokers"]),
                        int(row["cards"]),
                        f"{p.numerator}/{p.denominator}",
                    )
                )
    return {
        "about": "exact P(a dealt hand holds the contract) from the committed tables "
        f"{', '.join(TABLES)}: rules, contract, decks, jokers, cards, p",
        "rows": [list(row) for row in sorted(rows)],
    }


def write(data: Path, path: Path) -> int:
    """Write the extract of the tables in ``data`` to ``path``; return its row count."""
    path = check_path("path", path)
    table = extract(data)
    text = json.dumps(table, separators=(",", ":")).replace('],["', '],\n["')
    Path(path).write_text(text + "\n")
    return len(table["rows"])


@functools.cache
def _table() -> dict[tuple[MeldRules, str, int, int, int], Fraction]:
    """``{(sweep rules, contract, decks, jokers, cards): p}``: two rule sets with the same
    meld rules deal with the same odds, as in :attr:`rummykit.engine.rules.RuleSet.meld_rules`."""
    text = resources.files("rummykit.odds").joinpath(KNOWN_ODDS_FILE).read_text()
    presets = {name: RuleSet.preset(name).meld_rules for name in RuleSet.presets()}
    known = {}
    for rules, contract, decks, jokers, cards, p in json.loads(text)["rows"]:
        if rules in presets:
            known[presets[rules], contract, decks, jokers, cards] = Fraction(p)
    return known


def committed_probability(
    rules: RuleSet, contract: Contract, *, decks: int, jokers: int, cards: int
) -> Fraction | None:
    """The exact P(a dealt hand of ``cards`` holds ``contract``) from the committed tables,
    or None when they do not hold it (a hand too small for the contract is 0). The
    arguments are checked as every dealt hand's are (:func:`rummykit.engine.checks.dealt_hand`).
    Ask :func:`rummykit.odds.answer.known_probability` (a dealt cell: the sweeps made in
    this process too) rather than this reader.

    >>> from rummykit import RuleSet
    >>> bga = RuleSet.preset("bga")   # the tables have standard's rows; bga deals alike
    >>> committed_probability(bga, bga.contracts[5], decks=3, jokers=6, cards=14)
    Fraction(38911210414731439, 9196480310090829300)
    """
    dealt_hand(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)
    if cards < contract.min_cards(rules):
        return Fraction(0)
    return _table().get((rules.meld_rules, str(contract), decks, jokers, cards))


def known_probability(
    rules: RuleSet, contract: Contract, *, decks: int, jokers: int, cards: int
) -> Fraction | None:
    """Deprecated: :func:`rummykit.odds.answer.known_probability` (a dealt cell) reads the
    known odds; this reader is :func:`committed_probability`."""
    warnings.warn(
        "rummykit.odds.known_odds.known_probability is deprecated: use "
        "rummykit.odds.answer.known_probability(ExactCell(...)) (or this module's "
        "committed_probability)",
        DeprecationWarning,
        stacklevel=2,
    )
    return committed_probability(rules, contract, decks=decks, jokers=jokers, cards=cards)


def main(argv: list[str] | None = None) -> int:
    """``python -m rummykit.odds.known_odds [DATA]``: write the extract of ``DATA`` (default:
    the ``data/`` of this checkout) into the package."""
    args = sys.argv[1:] if argv is None else argv
    data = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "data"
    path = Path(__file__).with_name(KNOWN_ODDS_FILE)
    print(f"{path}: {write(data, path)} exact rows from {data}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
