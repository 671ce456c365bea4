"""Contract odds: exact counting, simulation and teaching helpers.

>>> from rummykit import CONTRACTS, RuleSet
>>> from rummykit.odds import dealt_probability
>>> rules = RuleSet.preset("standard")
>>> float(dealt_probability(CONTRACTS[0], decks=1, jokers=0, cards=6, rules=rules)) < 0.01
True
"""

from rummykit.odds.exact import (
    ExactTable,
    dealt_count,
    dealt_probability,
    distance_distribution,
    exact_table,
)

__all__ = [
    "ExactTable",
    "dealt_count",
    "dealt_probability",
    "distance_distribution",
    "exact_table",
]
