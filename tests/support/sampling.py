"""Shared by the samplers' tests (tests/test_determinize.py, tests/test_reading.py): a
one-deck, jokerless rule set (every card one physical card) and a chi-square test of a
sampler against an exact distribution."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter

from rummykit.engine.rules import RuleSet

ONE_DECK = dataclasses.replace(
    RuleSet.preset("standard"),
    name="one deck",
    decks_by_players=tuple((players, 1) for players in range(2, 9)),
    jokers_by_decks=((1, 0), (2, 0), (3, 0), (4, 0)),
    max_players=4,
)


def fits_exact(sampler, exact: dict, samples: int, rng: random.Random) -> bool:
    """Chi-square test (0.1% level) of ``sampler``'s locations against ``exact``."""
    observed = Counter(sampler(rng) for _ in range(samples))
    if set(observed) - set(exact):
        return False  # a place the exact distribution never reaches
    chi2 = sum((observed[k] - samples * p) ** 2 / (samples * p) for k, p in exact.items())
    df = len(exact) - 1
    if df == 0:
        return True
    # Wilson-Hilferty: the chi-square quantile for z = 3.09 (0.1% upper tail).
    critical = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
    return chi2 < critical
