"""Small shoes and rule sets shared by the exact-odds tests (``test_odds_exact.py``,
``test_odds_native.py``): a few ranks and suits, and meld rules that stress the sweep.
"""

from __future__ import annotations

import dataclasses

from rummykit import Rank, RuleSet, Suit

STANDARD = RuleSet.preset("standard")
PAGAT = RuleSet.preset("pagat")  # two runs of one suit must be separated
WIKIPEDIA = RuleSet.preset("wikipedia")  # runs need 3 naturals, jokers unlimited
NO_ACE_LOW = dataclasses.replace(STANDARD, ace_low=False, name="no ace low")
SHORT_RUNS = dataclasses.replace(
    STANDARD, min_run_size=3, max_jokers_per_meld=1, min_naturals_in_run=2, name="short runs"
)
LOOSE = dataclasses.replace(
    STANDARD,
    max_jokers_per_meld=None,
    min_naturals_in_set=1,
    min_naturals_in_run=1,
    name="loose",
)
SEPARATED_SHORT = dataclasses.replace(SHORT_RUNS, same_suit_runs="separated", name="sep short")
NO_ACE_HIGH = dataclasses.replace(STANDARD, ace_high=False, name="no ace high")

LOW = [Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE]
AROUND_ACE = [Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO, Rank.THREE]
WIDE = [Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN]
H, S, C = Suit.HEARTS, Suit.SPADES, Suit.CLUBS
