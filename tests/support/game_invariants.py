"""Random-play invariant checks of the game engine, for the tests and for long runs.

``play_checked`` plays one game with the given bots and, after every action, checks:
the cards in hands + melds + stock + discard pile are exactly the shoe; every meld on
the table is legal; a player who has not laid down owns no meld; ``legal_actions()`` is
empty exactly when the game is over. Every few actions it also checks that every listed
action applies (on a clone, leaving the original untouched) and that sampled unlisted
actions are refused with the state unchanged. At the end, ``save()``/``load()`` and
replaying the seed and the actions reproduce the state.

Run 10,000 games over every preset, player count and bot (a few minutes per thousand):

    .venv/bin/python tests/support/game_invariants.py --games 10000
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.engine.game import Game, GameState
from rummykit.engine.rules import RuleSet
from rummykit.engine.saves import load
from rummykit.errors import IllegalActionError

#: Safety limits for random play (random players rarely go out; see Game's docstring).
LIMITS = {"max_reshuffles": 1, "turn_limit": 150}
BOTS = {"random": RandomBot, "greedy": GreedyBot}


def tables() -> list[tuple[str, int]]:
    """Every (preset, players) pair the presets allow."""
    out = []
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        out += [(name, n) for n in range(rules.min_players, rules.max_players + 1)]
    return out


def _unlisted(state: GameState, listed: list, rng: random.Random) -> list:
    """A few actions that ``legal_actions()`` does not list (lay-downs excluded: the list
    holds only a canonical lay-down)."""
    shoe = state.game.shoe.cards
    melds = len(state.melds)
    candidates = [DrawStock(), TakeDiscard(), Buy(), Pass(), Call(), EndTurn()]
    for _ in range(4):
        card = rng.choice(shoe)
        candidates.append(Discard(card))
        candidates.append(LayOff(card, rng.randrange(melds + 1), rng.choice((None, "low", "high"))))
        candidates.append(Swap(card, rng.randrange(melds + 1)))
    offs = {(a.card, a.meld) for a in listed if isinstance(a, LayOff)}
    return [
        a
        for a in candidates
        if a not in listed and not (isinstance(a, LayOff) and (a.card, a.meld) in offs)
    ]


def check_state(state: GameState, checked_melds: set | None = None) -> None:
    """The per-action invariants (raises AssertionError)."""
    # Includes: no legal action exactly when the game is over.
    state.check_invariants(checked_melds=checked_melds)


def play_checked(
    game: Game,
    bots: list,
    *,
    rng: random.Random,
    round: int = 1,
    probe_every: int = 6,
    probe_size: int | None = None,
    max_actions: int = 200_000,
) -> GameState:
    """Play ``game`` with ``bots`` from ``round``, checking every invariant on the way.

    Every ``probe_every`` actions, the listed actions are applied to clones (all of them,
    or a random sample of ``probe_size``) and unlisted ones are tried and must be refused.
    """
    state = game.new_state(round=round)
    melds: set = set()  # card sequences already checked legal (same rules throughout)
    check_state(state, melds)
    for step in range(max_actions):
        seat = state.to_act
        if seat is None:
            break
        if step % probe_every == 0:
            listed = state.legal_actions()
            before = state.snapshot()
            sample = (
                listed if probe_size is None else rng.sample(listed, min(probe_size, len(listed)))
            )
            for action in sample:
                trial = state.clone()
                trial.apply(action)
            for action in _unlisted(state, listed, rng):
                try:
                    state.apply(action)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"unlisted action {action} was accepted: {listed}")
            assert state.snapshot() == before, "a refused action or a clone changed the state"
        state.apply(bots[seat].choose(state.view(seat)))
        check_state(state, melds)
    else:
        raise AssertionError(f"no end within {max_actions} actions")
    again = load(state.save())
    assert again.snapshot() == state.snapshot(), "save/load does not reproduce the state"
    replay = Game(game.rules, game.players, seed=game.seed, **game.limits()).new_state(round=round)
    for _, action in state.history:
        replay.apply(action)
    assert replay.snapshot() == state.snapshot(), "replaying the seed and actions differs"
    return state


def run(games: int, *, seed: int = 0, verbose: bool = False) -> dict[str, int]:
    """Play ``games`` checked games, cycling through every table and bot; count outcomes."""
    rng = random.Random(seed)
    cycle = itertools.cycle(itertools.product(tables(), BOTS))
    counts = {"games": 0, "rounds": 0, "actions": 0, "went out": 0}
    for number in range(games):
        (name, players), bot = next(cycle)
        game = Game(name, players, seed=rng.getrandbits(32), **LIMITS)
        bots = [BOTS[bot](seed=rng.getrandbits(32)) for _ in range(players)]
        start = rng.randint(1, game.rules.rounds)
        try:
            final = play_checked(game, bots, rng=rng, round=start)
        except Exception:
            print(f"game {number}: {game!r}, {bot} bots, from round {start}", file=sys.stderr)
            raise
        counts["games"] += 1
        counts["rounds"] += len(final.round_scores)
        counts["actions"] += len(final.history)
        counts["went out"] += sum(e.kind == "go out" for e in final.log)
        if verbose and (number + 1) % 100 == 0:
            print(f"{number + 1} games checked", flush=True)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Random-play invariant checks of rummykit.engine.game"
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    args = parser.parse_args()
    start = time.process_time()
    counts = run(args.games, seed=args.seed, verbose=True)
    seconds = time.process_time() - start
    print(
        f"{counts['games']} games, {counts['rounds']} rounds ({counts['went out']} gone out), "
        f"{counts['actions']} actions: every invariant held ({seconds:.0f} s CPU)"
    )


if __name__ == "__main__":
    main()
