"""Fitting a :class:`~rummykit.agents.policy.LinearPolicy` to the search's weighing
(issue 52, item 2, its first step).

:func:`positions` plays seeded games of GreedyBots and, at the discards of seats that
have not laid down (every ``every``-th), weighs every discard the seat could make with
:meth:`SearchBot.weigh <rummykit.agents.searchbot.SearchBot.weigh>` on ``samples``
determinizations (each discard played on the same ones: paired), keeping each
discard's :func:`~rummykit.agents.policy.discard_features` and mean outcome (points
better than the opponents' mean) as a :class:`Position`. :func:`fit` finds the weights
by ridge regression of each discard's advantage over GreedyBot's choice on the
difference of their features (so what every discard of a position shares cancels), and
:func:`advantage` measures a policy on positions it was not fitted on: the mean
advantage of its choice over GreedyBot's, with a 95% interval over the positions. The
values of those positions were not used to choose the weights, so the figure is not
the best of many looked at on the same samples.

>>> found = positions(1, seed=3, players=3, samples=4, every=2, rounds=1)
>>> len(found) > 0, {len(p.values) == len(p.features) for p in found}
(True, {True})
>>> policy = fit(found)
>>> estimate = advantage(policy, found)
>>> estimate.n == len(found)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rummykit.agents.bots import Bot, GreedyBot
from rummykit.agents.policy import DISCARD_FEATURES, LinearPolicy, discard_features
from rummykit.agents.searchbot import SearchBot
from rummykit.engine.actions import Discard
from rummykit.engine.checks import instance, whole
from rummykit.engine.game import Game
from rummykit.errors import ArgumentError
from rummykit.evaluate.estimate import Estimate, interval

__all__ = ["MAX_GAMES", "MAX_SAMPLES", "Position", "advantage", "fit", "positions"]

#: The most games :func:`positions` plays in one call.
MAX_GAMES = 100_000
#: The most determinizations :func:`positions` weighs a discard on.
MAX_SAMPLES = 4096


@dataclass(frozen=True)
class Position:
    """One weighed decision: a discard of a seat that had not laid down."""

    game: int
    """The game's number in the run (0-based)."""
    features: tuple[tuple[float, ...], ...]
    """Each discard's :data:`~rummykit.agents.policy.DISCARD_FEATURES`."""
    values: tuple[float, ...]
    """Each discard's mean outcome over the samples (the same samples for each)."""
    greedy: int
    """Which discard GreedyBot makes."""
    samples: int
    """Determinizations each discard was played on."""
    choices: dict[str, int] = field(default_factory=dict, compare=False)
    """Which discard each bot of :func:`positions`' ``also`` makes, by its name."""


def positions(
    games: int,
    *,
    seed: int,
    players: int = 4,
    preset: str = "standard",
    samples: int = 64,
    every: int = 1,
    rounds: int | None = None,
    also: Mapping[str, Bot] | None = None,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[Position]:
    """Weighed positions from ``games`` seeded games of GreedyBots (see the module
    notes); ``rounds`` stops each game after that many rounds (None: the whole game).
    ``also``: other bots asked at each position which discard they make
    (:attr:`Position.choices`; each must discard there, as GreedyBot does).
    ``start``: the number of the first game (game ``n`` is dealt and played from ``seed``
    and ``n`` alone, so runs of games ``0..k-1`` and ``k..`` together are one run of all:
    split them over processes). ``progress(done, games)`` is called after each game.
    The same arguments give the same positions."""
    whole("games", games, low=1, high=MAX_GAMES)
    whole("seed", seed, low=0)
    whole("samples", samples, low=1, high=MAX_SAMPLES)
    whole("every", every, low=1)
    whole("start", start, low=0)
    rules = Game(preset, players=players, seed=0).rules  # (checks the preset and players)
    if rounds is not None:
        whole("rounds", rounds, low=1, high=rules.rounds)
    instance("also", also if also is not None else {}, Mapping, "a mapping of names to bots")
    for name, bot in (also or {}).items():
        instance(f"also[{name!r:.40}]", bot, Bot, "a Bot")
    found: list[Position] = []
    for number in range(start, start + games):
        rng = random.Random(f"rummykit.learn positions {seed} {number}")
        game = Game(preset, players=players, seed=rng.getrandbits(63))
        state = game.new_state()
        bots = [GreedyBot(seed=rng.getrandbits(63)) for _ in range(players)]
        search = SearchBot(seed=rng.getrandbits(63), rollouts=samples)
        seen = 0
        while not state.is_over and (rounds is None or len(state.round_scores) < rounds):
            seat = state.to_act
            view = state.view(seat)
            action = bots[seat].choose(view)
            discards = (
                [a for a in view.legal_actions() if isinstance(a, Discard)]
                if isinstance(action, Discard) and not view.laid_down[seat]
                else []
            )
            if len({a.card.code for a in discards}) > 1:
                seen += 1
                if seen % every == 0:
                    features = discard_features(view)
                    weighed = search.weigh(view, discards, samples=samples)
                    choices = {}
                    for name, bot in (also or {}).items():
                        chosen = bot.choose(view)
                        if chosen not in discards:
                            raise ArgumentError(
                                f"also: {name} chose {chosen} where GreedyBot discards"
                            )
                        choices[name] = discards.index(chosen)
                    found.append(
                        Position(
                            game=number,
                            features=tuple(features[a.card.code] for a in discards),
                            values=tuple(sum(v) / len(v) for v in weighed),
                            greedy=discards.index(action),
                            samples=samples,
                            choices=choices,
                        )
                    )
            state.apply(action)
        if progress is not None:
            progress(number - start + 1, games)
    return found


def fit(
    found: Sequence[Position],
    *,
    ridge: float = 1.0,
    provenance: dict | None = None,
    without: Sequence[str] = (),
):
    """The :class:`~rummykit.agents.policy.LinearPolicy` whose scores' differences best
    match the discards' advantages over GreedyBot's (least squares, plus ``ridge``
    times the squared weights); the features named in ``without`` get no weight (what
    the rest can do alone). Needs numpy."""
    import numpy as np

    _positions(found, 1)
    if not (
        isinstance(ridge, (int, float))
        and not isinstance(ridge, bool)
        and math.isfinite(ridge)
        and ridge >= 0
    ):
        raise ArgumentError(f"ridge must be a finite number, 0 or more, got {ridge!r:.40}")
    if provenance is not None:
        instance("provenance", provenance, Mapping, "a mapping (where the positions came from)")
    instance("without", without, (list, tuple), "a list of feature names")
    for name in without:
        if name not in DISCARD_FEATURES:
            raise ArgumentError(f"without: no feature is called {name!r:.40} (DISCARD_FEATURES)")
    kept = [n for n, name in enumerate(DISCARD_FEATURES) if name not in without]
    rows, targets = [], []
    for position in found:
        base, value = position.features[position.greedy], position.values[position.greedy]
        for features, mean in zip(position.features, position.values, strict=True):
            rows.append([features[n] - base[n] for n in kept])
            targets.append(mean - value)
    x, y = np.array(rows, dtype=float).reshape(len(rows), len(kept)), np.array(targets)
    # (lstsq: where the features never differ, ridge 0 leaves the system singular; the
    # least-norm solution gives those features no weight)
    solved = np.linalg.lstsq(x.T @ x + ridge * np.eye(len(kept)), x.T @ y, rcond=None)[0]
    weights = dict.fromkeys(DISCARD_FEATURES, 0.0)
    weights.update({DISCARD_FEATURES[n]: float(w) for n, w in zip(kept, solved, strict=True)})
    facts = {"positions": len(found), "rows": len(rows), "ridge": ridge}
    if without:
        facts["without"] = list(without)
    return LinearPolicy(weights, {**facts, **(provenance or {})})


def advantage(chooser: LinearPolicy | str, found: Sequence[Position]) -> Estimate:
    """The mean advantage (the search's outcome: points a round better than the
    opponents' mean) of ``chooser``'s discard over GreedyBot's on ``found``, with its
    95% interval over the positions. ``chooser``: a policy (ties in score go to
    GreedyBot's choice) or the name of a bot of :attr:`Position.choices`."""
    _positions(found, 2)
    instance("chooser", chooser, (LinearPolicy, str), "a LinearPolicy or a bot's name")
    if isinstance(chooser, str) and any(chooser not in p.choices for p in found):
        raise ArgumentError(f"chooser: not every position says what {chooser!r:.40} chose")
    gains = []
    for position in found:
        if isinstance(chooser, str):
            chosen = position.choices[chooser]
        else:
            scores = [chooser.score(f) for f in position.features]
            best = max(scores)
            chosen = position.greedy if scores[position.greedy] == best else scores.index(best)
        gains.append(position.values[chosen] - position.values[position.greedy])
    return interval(gains)


def _positions(found: object, least: int) -> None:
    """Refuse ``found`` unless it is a list or tuple of at least ``least`` positions whose
    features and values agree in length."""
    instance("found", found, (list, tuple), "a list of Position")
    if len(found) < least:
        raise ArgumentError(f"found: give at least {least} position(s), got {len(found)}")
    for number, position in enumerate(found):
        instance(f"found[{number}]", position, Position, "a Position")
        size = len(position.features)
        if (
            size < 1
            or len(position.values) != size
            or not 0 <= position.greedy < size
            or any(len(f) != len(DISCARD_FEATURES) for f in position.features)
        ):
            raise ArgumentError(
                f"found[{number}]: each discard needs its {len(DISCARD_FEATURES)} features and "
                "a value, and greedy must number one of them"
            )
