"""What the strong bot does differently: SearchBot's choices beside GreedyBot's, on the
same positions.

:func:`search_decisions_table` plays whole games of duplicate deals with one SearchBot
(its default budget unless told) among GreedyBots, in every seat of every deal, and at
each SearchBot decision with more than one choice records what it chose and what
GreedyBot would have chosen in the same position (a GreedyBot asked at the same view).
So each measure of :data:`DECISION_MEASURES` is paired: the two bots' choices in the
very same positions, the positions those of SearchBot's own games. Each game's share
(or mean) is one value; the 95% intervals are Student's t over the games.

>>> table, seconds = search_decisions_table(deals=1, players=2, rounds=1, rollouts=2, seed=3,
...                                         progress=False, max_workers=1)
>>> table.filter(decision="any", measure="differs from greedy", bot="greedy")["mean"].item()
0.0
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor

import polars as pl

from rummykit.agents.bots import GreedyBot
from rummykit.agents.searchbot import SearchBot
from rummykit.engine.actions import Buy, Discard, LayDown, TakeDiscard
from rummykit.engine.checks import whole
from rummykit.evaluate.duplicate import deal_seeds, seated_game, setup
from rummykit.evaluate.estimate import interval
from rummykit.odds.data.checkpoint import Checkpoint, kept_sweep
from rummykit.odds.data.schemas import SEARCH_DECISIONS_SCHEMA, frame

__all__ = [
    "DECISION_MEASURES",
    "decision_rows",
    "describe",
    "play_search_game",
    "search_decisions_table",
]

#: (decision, measure): what the measure is, of the choice of each bot in the positions
#: of that decision.
DECISION_MEASURES = {
    ("any", "differs from greedy"): "the choice is not GreedyBot's (share of decisions)",
    ("draw", "takes the discard"): "the choice is to take the top discard, not draw from "
    "the stock (share)",
    ("buy", "buys"): "the choice is to buy the card on offer (share of offers)",
    ("lay down", "lays down"): "the choice is to lay the contract down now, when it can "
    "(share of the positions where it can)",
    ("discard", "points of the discard"): "the points of the card discarded (mean)",
    ("discard", "discards a high card"): "the card discarded counts 10 points or more (share)",
    ("discard", "breaks a pair"): "the card discarded has the rank of another card in the "
    "hand (share)",
}


def describe(view, action, rules) -> dict:
    """What a choice is, for :data:`DECISION_MEASURES`: the decision kind of the
    position (``view``) and the facts of ``action`` in it.

    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=2, seed=1).new_state()
    >>> view = state.view(state.to_act)
    >>> describe(view, view.legal_actions()[0], view.rules)["decision"]
    'draw'
    """
    facts: dict = {"decision": None}
    if view.phase == "draw":
        facts |= {"decision": "draw", "takes the discard": isinstance(action, TakeDiscard)}
    elif view.phase == "buy":
        facts |= {"decision": "buy", "buys": isinstance(action, Buy)}
    elif view.phase == "play":
        if any(isinstance(a, LayDown) for a in view.legal_actions()):
            facts |= {"decision": "lay down", "lays down": isinstance(action, LayDown)}
        elif isinstance(action, Discard):
            card = action.card
            points = rules.point_value(card)
            pair = not card.is_joker and sum(c.rank == card.rank for c in view.hand) > 1
            facts |= {
                "decision": "discard",
                "points of the discard": points,
                "discards a high card": points >= 10,
                "breaks a pair": pair,
            }
    return facts


def play_search_game(
    rules: str, players: int, deal_seed: int, seat: int, rounds: int | None, rollouts: int | None
) -> list[list]:
    """One game of a sweep: a SearchBot in ``seat`` (``rollouts`` samples a decision,
    None its default), GreedyBots elsewhere; per decision with a choice, [the greedy
    choice's facts, SearchBot's] (:func:`describe`)."""
    checked, rounds, limits = setup(
        rules, players=players, deals=1, seed=0, rounds=rounds, turn=8, max_reshuffles=3,
        turn_limit=None, max_actions=100_000, progress=None, hint="",
    )  # fmt: skip
    options = {} if rollouts is None else {"rollouts": rollouts}
    record: list[list] = []

    reference = GreedyBot()

    class Recording(SearchBot):
        def choose(self, view):
            action = super().choose(view)
            if len(self.last.actions) > 1:
                choice = reference.choose(view)
                greedy = describe(view, choice, checked)
                mine = describe(view, action, checked)
                greedy["differs from greedy"] = False
                mine["differs from greedy"] = action != choice
                record.append([greedy, mine])
            return action

    makers: list[Callable] = [GreedyBot] * players
    makers[seat] = lambda seed: Recording(seed, **options)
    seated_game(checked, players, deal_seed, makers, limits, rounds, 8, 100_000)
    return record


def decision_rows(games: list[list[list]]) -> list[dict]:
    """The rows of :data:`DECISION_MEASURES` from the games' records: per measure and
    bot, the mean over the games of each game's mean, and SearchBot's paired difference
    from GreedyBot; Student-t intervals over the games (:func:`~rummykit.evaluate.duplicate.interval`).

    >>> one = [[{"decision": "buy", "buys": False, "differs from greedy": False},
    ...         {"decision": "buy", "buys": True, "differs from greedy": True}]]
    >>> [(r["bot"], r["measure"], r["mean"]) for r in decision_rows([one, one])][:2]
    [('greedy', 'differs from greedy', 0.0), ('search', 'differs from greedy', 1.0)]
    """
    rows = []
    for (decision, measure), _ in DECISION_MEASURES.items():
        per_game = []  # per game: (greedy mean, search mean, count)
        for record in games:
            # The positions of the decision where both choices have the measure (a
            # discard's facts only where both bots discard).
            pairs = [
                (g[measure], s[measure])
                for g, s in record
                if decision == "any"
                or (g["decision"] == decision and measure in g and measure in s)
            ]
            if pairs:
                n = len(pairs)
                per_game.append(
                    (sum(float(g) for g, _ in pairs) / n, sum(float(s) for _, s in pairs) / n, n)
                )
        if len(per_game) < 2:
            continue
        share = None if measure == "points of the discard" else (0, 1)
        difference = interval([s - g for g, s, _ in per_game], None if share is None else (-1, 1))
        for bot, at in (("greedy", 0), ("search", 1)):
            e = interval([v[at] for v in per_game], share)
            d = difference if bot == "search" else None
            rows.append(
                {
                    "decision": decision,
                    "measure": measure,
                    "bot": bot,
                    "mean": e.mean,
                    "ci_low": e.low,
                    "ci_high": e.high,
                    "difference": 0.0 if d is None else d.mean,
                    "difference_ci_low": 0.0 if d is None else d.low,
                    "difference_ci_high": 0.0 if d is None else d.high,
                    "n": sum(v[2] for v in per_game),
                    "games": len(per_game),
                }
            )
    return rows


def search_decisions_table(
    *,
    deals: int,
    seed: int,
    rules: str = "standard",
    players: int = 4,
    rounds: int | None = None,
    rollouts: int | None = None,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    checkpoint: Checkpoint | None = None,
) -> tuple[pl.DataFrame, float]:
    """SearchBot's choices beside GreedyBot's (see the module notes) on ``deals`` deals
    of ``players`` under ``rules``, a SearchBot in every seat of each (``players``
    games a deal; ``rollouts`` its samples a decision, None its default), whole games or
    the first ``rounds``: the rows of
    :data:`~rummykit.odds.data.schemas.SEARCH_DECISIONS_SCHEMA` and the CPU seconds the
    games took. The games run on ``executor`` or a local pool of ``max_workers``, each
    kept in ``checkpoint`` as it finishes.
    """
    setup(
        rules, players=players, deals=deals, seed=seed, rounds=rounds, turn=8,
        max_reshuffles=3, turn_limit=None, max_actions=100_000, progress=None,
        hint="each deal plays players games",
    )  # fmt: skip
    if rollouts is not None:
        whole("rollouts", rollouts, low=1, high=100_000)
    seeds = deal_seeds(random.Random(seed), deals)
    tasks = [(rules, players, s, seat, rounds, rollouts) for s in seeds for seat in range(players)]
    kept = kept_sweep(
        _timed_game,
        tasks,
        fields=_fields,
        checkpoint=checkpoint,
        executor=executor,
        max_workers=max_workers,
        progress=progress,
        description="search decisions",
        unit="game",
    )
    games = [record for record, _ in kept]
    seconds = round(sum(spent for _, spent in kept), 1)
    budget = inspect.signature(SearchBot).parameters["rollouts"].default
    cell = {
        "rules": rules,
        "players": players,
        "rollouts": budget if rollouts is None else rollouts,
    }
    return frame(
        [{**cell, **row} for row in decision_rows(games)], SEARCH_DECISIONS_SCHEMA
    ), seconds


def _timed_game(*task) -> tuple[list, float]:
    start = time.process_time()
    record = play_search_game(*task)
    return record, time.process_time() - start


def _fields(task: tuple) -> dict:
    rules, players, deal_seed, seat, rounds, rollouts = task
    return {
        "task": "search decisions game",
        "rules": rules,
        "players": players,
        "deal_seed": deal_seed,
        "seat": seat,
        "rounds": rounds,
        "rollouts": rollouts,
    }
