"""Random play over every preset, every player count it allows and both bots, checking
the engine's invariants after every action (see ``game_invariants.py``, which also runs
10,000 games from the command line)."""

from __future__ import annotations

import random

import pytest

from rummykit.engine.game import Game
from tests.support.game_invariants import BOTS, LIMITS, play_checked, tables
from tests.support.tiers import soak

GAMES_PER_TABLE = 3


@pytest.mark.slow
@pytest.mark.parametrize(
    # make test plays each table's first game; make soak all three (the first again).
    "games",
    [pytest.param(1, id="1 game"), soak(GAMES_PER_TABLE, id=f"{GAMES_PER_TABLE} games")],
)
@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize(("preset", "players"), tables())
def test_random_play_keeps_every_invariant(preset, players, bot, games):
    rng = random.Random(f"{preset}-{players}-{bot}")
    # Three games per table, each from a different round to the end: every round of
    # every preset is played many times over the file, which stays within a minute.
    for start in sorted(rng.sample(range(1, 8), GAMES_PER_TABLE))[:games]:
        game = Game(preset, players, seed=rng.getrandbits(32), **LIMITS)
        bots = [BOTS[bot](seed=rng.getrandbits(32)) for _ in range(players)]
        final = play_checked(game, bots, rng=rng, round=start, probe_every=8, probe_size=4)
        assert final.is_over and final.legal_actions() == []
        assert len(final.round_scores) == game.rules.rounds - start + 1
