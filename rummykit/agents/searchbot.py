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

A rollout is one function ``(state, bots, rng) -> points``: by default
:func:`~rummykit.agents.rollouts.best_rollout`, the compiled core's
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
from rummykit.agents.weigh import paired_outcomes, seat_value
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
from rummykit.engine.game import GameState
from rummykit.engine.legal import PlayerView
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = ["Decision", "SearchBot", "rollout"]


@dataclass(frozen=True)
class Decision:
    """What :class:`SearchBot` weighed at its last decision."""

    actions: tuple[Action, ...]
    """The candidates, the prior's choice first (see :class:`SearchBot`)."""
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
    reproducible from ``seed``. ``policy`` makes the rollouts' bot of each seat
    (default :class:`~rummykit.agents.bots.GreedyBot`), ``rollout`` plays them
    (:func:`~rummykit.agents.rollouts.best_rollout`); ``max_reshuffles`` and ``turn_limit`` bound the sampled rounds
    (the view does not say the real game's limits).

    Candidates: draw or take; buy or pass; call or pass; in play, the lay-down the
    engine lists, GreedyBot's lay-off (the most points), every joker swap, every
    distinct discard and ending the turn. The choice of ``prior`` (a bot made once,
    default :class:`~rummykit.agents.bots.GreedyBot`; it should be deterministic) comes first,
    and the best mean replaces it only when its paired advantage over the prior's
    choice exceeds ``margin`` standard errors (at least two samples): the best of a
    dozen noisy means looks better than it is, and at a budget too small to tell,
    SearchBot plays as its prior rather than at random among near-ties (``margin=0``:
    always the best mean). The rollouts stay ``policy``'s whatever the prior.
    ``pool`` (with a ``rollouts`` budget): the rollouts a decision may spend in all, so
    that a decision with ``c`` candidates plays ``max(rollouts, pool // c)`` samples
    (few candidates, more samples; the costliest decisions keep ``rollouts``).
    :attr:`last` keeps the last decision's figures.

    The defaults (256 samples, a margin of 2.5 standard errors) are the budget measured
    by ``benchmarks/bench_searchbot.py`` on 2026-12-02 (one core, compiled rollouts): a
    median decision of 0.11 s (99th percentile 1.3 s), and against three GreedyBots on
    8 duplicate deals of 7 rounds, +49 points a game better than GreedyBot in the same
    seat (95%: +5 to +93), gone out first in 28% of the rounds (95%: 22% to 35%; 25% if
    equal). At 64 samples and a margin of 1 it was no better than GreedyBot. With
    ``prior=OutsBot`` (the same budget and deals, 2026-12-04): +47 points a game (95%:
    +5 to +89), gone out first in 34% of the rounds (95%: 27% to 41%), a median
    decision of 0.16 s (99th percentile 2.2 s); on 8 other deals (seed 30, 2026-12-05)
    +42 points (95%: +9 to +76) and 27% of the rounds (95%: 21% to 34%).

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
        policy: Callable[[], Bot] = GreedyBot,
        rollout: Callable[
            [GameState, Sequence[Bot], random.Random], tuple[int, ...]
        ] = best_rollout,
        max_reshuffles: int | None = 2,
        turn_limit: int | None = None,
        margin: float = 2.5,
        prior: Callable[[], Bot] = GreedyBot,
        pool: int | None = None,
    ) -> None:
        super().__init__(seed)
        if pool is not None:
            whole("pool", pool, low=1)
            if rollouts is None:
                raise ArgumentError("pool: give it with a rollouts budget (it raises rollouts)")
        if not isinstance(margin, (int, float)) or isinstance(margin, bool) or margin < 0:
            raise ArgumentError(f"margin must be a number >= 0, got {margin!r}")
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
        if not callable(policy) or not callable(rollout) or not callable(prior):
            raise ArgumentTypeError("policy, rollout and prior must be callables")
        self.rollouts = rollouts
        self.seconds = seconds
        self.policy = policy
        self.rollout = rollout
        self.limits = {"max_reshuffles": max_reshuffles, "turn_limit": turn_limit}
        self.margin = float(margin)
        self.prior = prior
        self._prior = prior()
        self.pool = pool
        self._bots: list[Bot] = []
        self.last: Decision | None = None
        self.progress: Callable[[int, int | None], None] | None = None
        """Called after each sample of a decision with (samples so far, the ``rollouts``
        budget or None): a widget's progress line."""

    def __repr__(self) -> str:
        return f"SearchBot(rollouts={self.rollouts!r}, seconds={self.seconds!r})"

    def candidates(self, view: PlayerView) -> list[Action]:
        """The actions weighed at ``view`` (the prior's first; see the class notes)."""
        actions = view.legal_actions()
        if len(actions) <= 1:
            return actions
        first = self._prior.choose(view)
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

    # The two hooks the experiments of benchmarks/ override (bench_searchbot.py's
    # objectives, bench_search_noise.py's rotated stock): what a rollout's points are
    # worth, and the position a candidate is played on.
    def _value(self, points: Sequence[int], view: PlayerView) -> float:
        return seat_value(points, view.seat, view.rules.negative_scores)

    def _branch(self, sample: GameState, action: Action) -> GameState:
        state = sample.clone()
        state.apply(action)
        return state

    def _clearly_better(self, mine: list[float], first: list[float]) -> bool:
        """Whether ``mine`` beats ``first`` (paired samples) by more than the margin."""
        if self.margin == 0:
            return True
        n = len(mine)
        if n < 2:
            return False
        diffs = [a - b for a, b in zip(mine, first, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean > self.margin * (var / n) ** 0.5

    def weigh(
        self, view: PlayerView, candidates: Sequence[Action], samples: int | None = None
    ) -> list[list[float]]:
        """Each candidate's outcome on each determinization of ``view`` (paired).

        Every candidate is played on the same samples with the same chance, and the
        outcome is the one :meth:`choose` compares (see the module notes). ``samples``
        determinizations, or, when None, the bot's own budget: ``rollouts`` (at least
        ``pool`` shared among the candidates) or ``seconds``. :meth:`choose` is this and
        a comparison of the means.

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
        elif budget is not None and self.pool is not None:
            budget = max(budget, self.pool // len(candidates))
        players = len(view.names)
        if len(self._bots) != players:
            self._bots = [self.policy() for _ in range(players)]
        values: list[list[float]] = [[] for _ in candidates]
        weighed = paired_outcomes(
            view,
            candidates,
            rng=self.rng,
            play=self.rollout,
            bots=self._bots,
            limits=self.limits,
            branch=self._branch,
        )
        for done, results in enumerate(weighed, start=1):
            for number, points in enumerate(results):
                values[number].append(self._value(points, view))
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
        if best and not self._clearly_better(values[best], values[0]):
            best = 0
        chosen = candidates[best]
        self.last = Decision(tuple(candidates), means, samples, time.monotonic() - start, chosen)
        return chosen
