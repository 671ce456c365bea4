"""Contract odds: exact counting, simulation, completion at a real table and the
long-form tables of ``data/`` (the formulas a student checks by hand are in
:mod:`rummykit.teach.probability`).

>>> from rummykit import CONTRACTS, RuleSet
>>> from rummykit.odds import dealt_probability
>>> rules = RuleSet.preset("standard")
>>> float(dealt_probability(CONTRACTS[0], decks=1, jokers=0, cards=6, rules=rules)) < 0.01
True
"""

from rummykit._optional import require

for _name in ("numpy", "polars", "tqdm", "more_itertools"):
    require(_name, extra="analysis", feature="rummykit.odds")

from rummykit.odds.counting.exact import (  # noqa: E402
    ExactTable,
    dealt_count,
    dealt_probability,
    distance_distribution,
    exact_table,
)
from rummykit.odds.data.tables import (  # noqa: E402
    SCHEMAS,
    dealt_odds,
    distance_odds,
    exact_odds,
    preset_odds,
)
from rummykit.odds.dealt.simulate import (  # noqa: E402
    Estimate,
    running_estimate,
    simulate_dealt,
    simulate_distance,
    wilson_interval,
)
from rummykit.odds.play.completion import (  # noqa: E402
    buying_value,
    completion_by_turn,
    completion_tables,
    round_summary,
    seat_position,
)

__all__ = [
    "SCHEMAS",
    "Estimate",
    "ExactTable",
    "buying_value",
    "completion_by_turn",
    "completion_tables",
    "dealt_count",
    "dealt_odds",
    "dealt_probability",
    "distance_distribution",
    "distance_odds",
    "exact_odds",
    "exact_table",
    "preset_odds",
    "round_summary",
    "running_estimate",
    "seat_position",
    "simulate_dealt",
    "simulate_distance",
    "wilson_interval",
]
