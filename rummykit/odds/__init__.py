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
from rummykit.odds.simulate import Estimate, running_estimate, simulate_dealt, wilson_interval
from rummykit.odds.teaching import (
    expected_sets_in_waiting,
    hypergeom_pmf,
    hypergeom_sf,
    prob_at_least_of_rank,
    prob_at_least_one_joker,
    prob_pair_or_better,
)

__all__ = [
    "Estimate",
    "ExactTable",
    "dealt_count",
    "dealt_probability",
    "distance_distribution",
    "exact_table",
    "expected_sets_in_waiting",
    "hypergeom_pmf",
    "hypergeom_sf",
    "prob_at_least_of_rank",
    "prob_at_least_one_joker",
    "prob_pair_or_better",
    "running_estimate",
    "simulate_dealt",
    "wilson_interval",
]
