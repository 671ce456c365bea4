"""Weighing the choices of one decision: each legal action played out on the same sampled
deals, from one seat's own view. :func:`paired_outcomes` is the one loop that does it, for
SearchBot, the review, its puzzles and the search-decision tables (and the experiments of
``benchmarks/``, with their own rollouts and branches); :func:`clearly_better` is
SearchBot's test of a paired advantage.

:func:`weigh` draws ``samples`` determinizations of a :class:`~rummykit.engine.legal.PlayerView`
(:func:`~rummykit.agents.determinize.determinize`: the hidden cards dealt afresh from what the
seat could see), plays every action on each, and rolls each out with the same chance
(:func:`~rummykit.agents.rollouts.best_outcome`, GreedyBots in every seat), so the values of two
actions are paired sample by sample. A value is :func:`seat_value`: the seat's points at
the round's end better than its opponents' mean, signed so that higher is better.
:mod:`rummykit.evaluate.reviews` judges a decision on these values.

>>> import random
>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=2, seed=3).new_state()
>>> view = state.view(state.to_act)
>>> values, outs = weigh(view, view.legal_actions(), samples=2, rng=random.Random(1))
>>> len(values) == len(view.legal_actions()) > 1, {len(v) for v in values + outs}
(True, {2})
>>> seat_value([10, 30, 50], 0, negative=False)
30.0
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence

from rummykit.agents.bots import GreedyBot
from rummykit.agents.determinize import determinize, hidden_cards
from rummykit.agents.rollouts import best_outcome
from rummykit.engine.actions import Action
from rummykit.engine.game import GameState
from rummykit.engine.legal import PlayerView

__all__ = ["LIMITS", "clearly_better", "paired_outcomes", "seat_value", "weigh"]

#: The rounds the samples are played in are bounded as SearchBot's are.
LIMITS = {"max_reshuffles": 2, "turn_limit": None}


def seat_value(points: Sequence[int], seat: int, negative: bool) -> float:
    """``seat``'s points at a round's end (``points``, one per seat) better than its
    opponents' mean: fewer points are better, or more where the rules' scores are
    ``negative`` (points won)."""
    others = [p for s, p in enumerate(points) if s != seat]
    diff = points[seat] - sum(others) / len(others)
    return diff if negative else -diff


def clearly_better(mine: Sequence[float], first: Sequence[float], margin: float) -> bool:
    """Whether ``mine`` beats ``first`` (the values of two actions, paired sample by
    sample) by more than ``margin`` standard errors of their mean paired difference: never
    on fewer than two samples, always at a ``margin`` of 0. SearchBot plays another choice
    than GreedyBot's only when it is clearly better so.

    >>> clearly_better([3, 4, 5], [1, 1, 1], 2.5), clearly_better([3, 0, 5], [1, 1, 1], 2.5)
    (True, False)
    """
    if margin == 0:
        return True
    n = len(mine)
    if n < 2:
        return False
    diffs = [a - b for a, b in zip(mine, first, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > margin * (var / n) ** 0.5


def paired_outcomes(
    view: PlayerView,
    actions: Sequence[Action],
    *,
    rng: random.Random,
    play: Callable,
    bots: Sequence,
    limits: dict | None = None,
    branch: Callable | None = None,
    sampler: Callable[[int], GameState] | None = None,
) -> Iterator[list]:
    """The one paired weighing of a decision's choices: for each sample, without end, the
    result of ``play(state, bots, chance)`` after each of ``actions``, every action played
    on the same determinization of ``view`` and rolled out with the same chance (a
    :class:`random.Random` of one seed), so that two actions' results are paired sample by
    sample. Each sample draws its deal, then its chance, from ``rng``: the deal by
    ``sampler(seed)`` (by default :func:`~rummykit.agents.determinize.determinize` of
    ``view`` from that seed, in rounds bounded by ``limits``, :data:`LIMITS` by default;
    :class:`~rummykit.agents.reading.ReadingSampler` reads the opponents and bounds its
    own). ``branch(sample, action)`` makes the state played on (by default a copy of the
    sample with the action applied). :func:`weigh` (the review, the puzzles) and
    :meth:`SearchBot.weigh <rummykit.agents.searchbot.SearchBot.weigh>` read it.

    >>> from itertools import islice
    >>> from rummykit.agents.rollouts import best_rollout
    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=2, seed=3).new_state()
    >>> view = state.view(state.to_act)
    >>> bots = [GreedyBot(), GreedyBot()]
    >>> first, second = islice(paired_outcomes(view, view.legal_actions(),
    ...     rng=random.Random(1), play=best_rollout, bots=bots), 2)
    >>> len(first) == len(view.legal_actions()), len(first[0])   # points, one per seat
    (True, 2)
    """
    if sampler is None:
        limits = LIMITS if limits is None else limits
        hidden = hidden_cards(view)

        def sampler(seed: int) -> GameState:
            return determinize(view, seed, hidden=hidden, **limits)

    while True:
        sample = sampler(rng.getrandbits(63))
        chance = rng.getrandbits(63)
        results = []
        for action in actions:
            state = (branch or _branch)(sample, action)
            results.append(play(state, bots, random.Random(chance)))
        yield results


def _branch(sample, action: Action):
    """A copy of ``sample`` with ``action`` played: the position a rollout plays on."""
    state = sample.clone()
    state.apply(action)
    return state


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
    negative = view.rules.negative_scores
    bots = [GreedyBot() for _ in view.names]
    values: list[list[float]] = [[] for _ in actions]
    outs: list[list[float]] = [[] for _ in actions]
    weighed = paired_outcomes(view, actions, rng=rng, play=outcome, bots=bots)
    for results in itertools.islice(weighed, samples):
        for number, (points, out) in enumerate(results):
            values[number].append(seat_value(points, seat, negative))
            outs[number].append(1.0 if out == seat else 0.0)
    return values, outs
