"""Random play under custom rule sets that no preset uses, checking every invariant
(``game_invariants.py``): combinations of options must not leave a player stuck."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.engine.game import Game
from rummykit.engine.rules import RuleSet
from tests.support.game_invariants import BOTS, play_checked

STANDARD = RuleSet.preset("standard")
VARIANTS = {
    "swap before laying down": dict(joker_swap_needs_laid_down=False, joker_swap="any"),
    "swapped joker kept": dict(
        swapped_joker_must_be_played=False, joker_swap="any", joker_trade_once=True
    ),
    "rummy call": dict(discard_call="rummy"),
    "liverpool call and floating": dict(discard_call="liverpool", floating=True),
    "last round by melding": dict(last_round_no_discard=True, last_round_buy_limit=1),
    "free buys, first call": dict(buy_penalty_cards=0, buy_priority="first_call"),
    "dear buys, longest waiting": dict(
        buy_penalty_cards=2, buy_limit=2, buy_priority="longest_waiting"
    ),
    "no reshuffle": dict(reshuffle_discards=False),
    "buying before the draw, longest waiting": dict(
        buy_timing="before_draw", buy_priority="longest_waiting", buy_limit=1
    ),
    "extra melds, separated runs, repeat": dict(
        extra_melds=True, same_suit_runs="separated", repeat_missed_contract=True
    ),
    "no buying, face points, negative": dict(buying=False, negative_scores=True, points="face"),
}


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_custom_rule_sets_keep_every_invariant(variant, bot):
    rules = dataclasses.replace(STANDARD, name=variant, **VARIANTS[variant])
    rng = random.Random(f"{variant}-{bot}")
    for players in (2, 4):
        game = Game(rules, players, seed=rng.getrandbits(32), max_reshuffles=1, turn_limit=150)
        bots = [BOTS[bot](seed=rng.getrandbits(32)) for _ in range(players)]
        final = play_checked(game, bots, rng=rng, round=rng.randint(4, 7), probe_size=4)
        assert final.is_over
