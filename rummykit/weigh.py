"""Weighing the choices of one decision: each legal action played out on the same sampled
deals, from one seat's own view.

:func:`weigh` draws ``samples`` determinizations of a :class:`~rummykit.legal.PlayerView`
(:func:`~rummykit.determinize.determinize`: the hidden cards dealt afresh from what the
seat could see), plays every action on each, and rolls each out with the same chance
(:func:`~rummykit.rollouts.best_outcome`, GreedyBots in every seat), so the values of two
actions are paired sample by sample. A value is :func:`seat_value`: the seat's points at
the round's end better than its opponents' mean, signed so that higher is better.
:mod:`rummykit.reviews` judges a decision on these values.

>>> import random
>>> from rummykit.game import Game
>>> state = Game("standard", players=2, seed=3).new_state()
>>> view = state.view(state.to_act)
>>> values, outs = weigh(view, view.legal_actions(), samples=2, rng=random.Random(1))
>>> len(values) == len(view.legal_actions()) > 1, {len(v) for v in values + outs}
(True, {2})
>>> seat_value([10, 30, 50], 0, negative=False)
30.0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rummykit.actions import Action
from rummykit.bots import GreedyBot
from rummykit.determinize import determinize, hidden_cards
from rummykit.legal import PlayerView
from rummykit.rollouts import best_outcome

__all__ = ["seat_value", "weigh"]

#: The rounds the samples are played in are bounded as SearchBot's are.
LIMITS = {"max_reshuffles": 2, "turn_limit": None}


def seat_value(points: Sequence[int], seat: int, negative: bool) -> float:
    """``seat``'s points at a round's end (``points``, one per seat) better than its
    opponents' mean: fewer points are better, or more where the rules' scores are
    ``negative`` (points won)."""
    others = [p for s, p in enumerate(points) if s != seat]
    diff = points[seat] - sum(others) / len(others)
    return diff if negative else -diff


def weigh(
    view: PlayerView,
    actions: Sequence[Action],
    *,
    samples: int,
    rng: random.Random,
    outcome: Callable = best_outcome,
) -> tuple[list[list[float]], list[list[float]]]:
    """Each action's value and went-out-first flag on each of ``samples`` determinizations
    of ``view`` (every action on the same ones, rolled out with the same chance)."""
    seat = view.seat
    players = len(view.names)
    negative = view.rules.negative_scores
    bots = [GreedyBot() for _ in range(players)]
    hidden = hidden_cards(view)
    values: list[list[float]] = [[] for _ in actions]
    outs: list[list[float]] = [[] for _ in actions]
    for _ in range(samples):
        sample = determinize(view, rng.getrandbits(63), hidden=hidden, **LIMITS)
        chance = rng.getrandbits(63)
        for number, action in enumerate(actions):
            state = sample.clone()
            state.apply(action)
            points, out = outcome(state, bots, random.Random(chance))
            values[number].append(seat_value(points, seat, negative))
            outs[number].append(1.0 if out == seat else 0.0)
    return values, outs
