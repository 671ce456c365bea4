"""SearchBot: each decision weighed by rollouts from samples of what the seat cannot see.

For every decision with more than one candidate, :class:`SearchBot` samples
determinizations of its own :class:`~rummykit.engine.legal.PlayerView`
(:func:`~rummykit.agents.determinize.determinize`: the other hands and the stock, uniform among
the deals the view allows), plays each candidate on each sample and lets
:func:`rollout` finish the round with the engine's :class:`~rummykit.agents.bots.GreedyBot` in
every seat. The candidates share the samples and the rollouts' chance (the comparison
is paired), and the one with the best mean outcome is played.

>>> from rummykit.engine.game import Game, play_game
>>> game = Game("standard", players=2, seed=3, turn_limit=8)
>>> bots = [SearchBot(seed=1, rollouts=1), GreedyBot()]
>>> play_game(game.new_state(), bots).is_over
True

The outcome is the seat's points at the end of the round minus the mean of its
opponents', signed so that higher is better. Why: the game is won on totals, so a
round's points matter only against the other players'; subtracting them removes most
of the luck of the deal that every candidate shares, and the mean (rather than, say,
the best opponent) is linear, so the paired differences stay simple averages. Points
already counted (earlier rounds, this round's penalties) add the same to every
candidate and are left out.

The rollouts are :func:`~rummykit.agents.rollouts.best_rollout`'s: the compiled core's
(:func:`~rummykit.agents.rollouts.fast_rollout`, some 40 times quicker) wherever it plays the
state and the bots, else the engine's :func:`~rummykit.agents.rollouts.rollout`. Both give the
same points for the same state, bots and seed (the tests compare their event logs on
thousands of states), so a game is the same with or without the core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.agents.bots import Bot, GreedyBot
from rummykit.agents.rollouts import best_rollout, rollout
from rummykit.agents.weigh import clearly_better, paired_outcomes, seat_value
from rummykit.engine.actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    LayDown,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.engine.checks import whole
from rummykit.engine.legal import PlayerView
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = ["MARGIN", "Decision", "SearchBot", "rollout"]

#: How many standard errors of the paired difference a candidate must beat GreedyBot's
#: choice by before SearchBot plays it (see :class:`SearchBot`).
MARGIN = 2.5


@dataclass(frozen=True)
class Decision:
    """What :class:`SearchBot` weighed at its last decision."""

    actions: tuple[Action, ...]
    """The candidates, GreedyBot's choice first (see :class:`SearchBot`)."""
    means: tuple[float, ...]
    """Each candidate's mean outcome (points better than the opponents' mean)."""
    samples: int
    """Determinizations played (each candidate played once on each)."""
    seconds: float
    """Wall time of the decision."""
    chosen: Action
    """The action played."""


class SearchBot(Bot):
    """Chooses by rollouts from determinizations of its view (see the module notes).

    ``rollouts``: determinizations per decision, each candidate played once on each
    (so a decision costs ``rollouts`` times its number of candidates). ``seconds``: stop
    sampling once this much wall time is spent (at least one sample). Give either or
    both (the first reached ends the decision); only a ``rollouts`` budget alone is
    reproducible from ``seed``. The rollouts are
    :func:`~rummykit.agents.rollouts.best_rollout`'s, with a
    :class:`~rummykit.agents.bots.GreedyBot` in every seat, in rounds bounded as
    :data:`~rummykit.agents.weigh.LIMITS` says (the view does not say the real game's limits).

    Candidates: draw or take; buy or pass; call or pass; in play, the lay-down the
    engine lists, GreedyBot's lay-off (the most points), every joker swap, every
    distinct discard and ending the turn. GreedyBot's choice comes first, and the best
    mean replaces it only when its paired advantage over GreedyBot's choice exceeds
    :data:`MARGIN` standard errors (:func:`~rummykit.agents.weigh.clearly_better`, at
    least two samples): the best of a dozen noisy means looks better than it is, and at
    a budget too small to tell, SearchBot plays as GreedyBot rather than at random among
    near-ties. :attr:`last` keeps the last decision's figures.

    The defaults (256 samples, a margin of 2.5 standard errors) are the budget measured
    by ``benchmarks/bench_searchbot.py`` on 2026-12-02 (one core, compiled rollouts): a
    median decision of 0.11 s (99th percentile 1.3 s), and against three GreedyBots on
    8 duplicate deals of 7 rounds, +49 points a game better than GreedyBot in the same
    seat (95%: +5 to +93), gone out first in 28% of the rounds (95%: 22% to 35%; 25% if
    equal). At 64 samples and a margin of 1 it was no better than GreedyBot. The other
    configurations tried (another prior, margin or objective, a pool of samples, a
    rotated stock) are the benchmark's, with their figures, in ``benchmarks/README.md``
    ("SearchBot experiments").

    >>> SearchBot(rollouts=0)
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: rollouts must be a positive integer or None, got 0
    """

    def __init__(
        self,
        seed: int | random.Random | None = None,
        *,
        rollouts: int | None = 256,
        seconds: float | None = None,
    ) -> None:
        super().__init__(seed)
        if rollouts is not None:
            if not isinstance(rollouts, int) or isinstance(rollouts, bool):
                raise ArgumentTypeError(
                    f"rollouts must be a positive integer or None, got {rollouts!r}"
                )
            if rollouts < 1:
                raise ArgumentError(
                    f"rollouts must be a positive integer or None, got {rollouts!r}"
                )
        if seconds is not None:
            if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
                raise ArgumentTypeError(
                    f"seconds must be a positive number or None, got {seconds!r}"
                )
            if not seconds > 0:
                raise ArgumentError(f"seconds must be a positive number or None, got {seconds!r}")
        if rollouts is None and seconds is None:
            raise ArgumentError("rollouts, seconds: give a budget (either or both)")
        self.rollouts = rollouts
        self.seconds = seconds
        self._greedy = GreedyBot()
        self._bots: list[Bot] = []
        self.last: Decision | None = None
        self.progress: Callable[[int, int | None], None] | None = None
        """Called after each sample of a decision with (samples so far, the ``rollouts``
        budget or None): a widget's progress line."""

    def __repr__(self) -> str:
        return f"SearchBot(rollouts={self.rollouts!r}, seconds={self.seconds!r})"

    def candidates(self, view: PlayerView) -> list[Action]:
        """The actions weighed at ``view`` (GreedyBot's first; see the class notes)."""
        actions = view.legal_actions()
        if len(actions) <= 1:
            return actions
        first = self._greedy.choose(view)
        if view.phase == "play":
            lay_offs = [a for a in actions if isinstance(a, LayOff)]
            chosen = [a for a in actions if isinstance(a, LayDown)]
            if lay_offs:
                chosen.append(
                    max(lay_offs, key=lambda a: (view.rules.point_value(a.card), -a.meld))
                )
            chosen += [a for a in actions if isinstance(a, (Swap, Discard, EndTurn))]
        else:
            kinds = (DrawStock, TakeDiscard, Buy, Pass, Call, Discard)
            chosen = [a for a in actions if isinstance(a, kinds)]
        out = [first]
        out += [a for a in chosen if a != first]
        return out

    def weigh(
        self, view: PlayerView, candidates: Sequence[Action], samples: int | None = None
    ) -> list[list[float]]:
        """Each candidate's outcome on each determinization of ``view`` (paired).

        Every candidate is played on the same samples with the same chance, and the
        outcome is the one :meth:`choose` compares (see the module notes). ``samples``
        determinizations, or, when None, the bot's own budget: ``rollouts`` or
        ``seconds``. :meth:`choose` is this and a comparison of the means.

        >>> from rummykit.engine.game import Game
        >>> state = Game("standard", players=2, seed=3).new_state()
        >>> view = state.view(state.to_act)
        >>> bot = SearchBot(seed=1, rollouts=4)
        >>> values = bot.weigh(view, bot.candidates(view), samples=3)
        >>> len(values) == len(bot.candidates(view)), {len(v) for v in values}
        (True, {3})
        """
        start = time.monotonic()
        if not candidates:
            raise ArgumentError("candidates: give at least one action to weigh")
        budget, seconds = self.rollouts, self.seconds
        if samples is not None:
            whole("samples", samples, low=1)
            budget, seconds = samples, None
        players = len(view.names)
        if len(self._bots) != players:
            self._bots = [GreedyBot() for _ in range(players)]
        seat, negative = view.seat, view.rules.negative_scores
        values: list[list[float]] = [[] for _ in candidates]
        weighed = paired_outcomes(
            view, candidates, rng=self.rng, play=best_rollout, bots=self._bots
        )
        for done, results in enumerate(weighed, start=1):
            for number, points in enumerate(results):
                values[number].append(seat_value(points, seat, negative))
            if self.progress is not None:
                self.progress(done, budget)
            if budget is not None and done >= budget:
                return values
            if seconds is not None and time.monotonic() - start >= seconds:
                return values

    def choose(self, view: PlayerView) -> Action:
        start = time.monotonic()
        candidates = self.candidates(view)
        if not candidates:
            raise ArgumentError(f"view: seat {view.seat} is not to act, nothing to choose")
        if len(candidates) == 1:
            self.last = Decision(tuple(candidates), (0.0,), 0, 0.0, candidates[0])
            return candidates[0]
        values = self.weigh(view, candidates)
        samples = len(values[0])
        means = tuple(sum(v) / samples for v in values)
        best = max(range(len(candidates)), key=lambda n: (means[n], -n))
        if best and not clearly_better(values[best], values[0], MARGIN):
            best = 0
        chosen = candidates[best]
        self.last = Decision(tuple(candidates), means, samples, time.monotonic() - start, chosen)
        return chosen
