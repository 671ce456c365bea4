"""Accuracy beside the bots: a seat's review set beside the bots' play of the same seat
on the same deals, so a learner knows what the number means.

A review (:func:`rummykit.review`) gives the seat an accuracy, the share of its decisions
classed best or good; "78 in 100" alone says little. :func:`beside_bots` replays each
round the seat played with a bot in its seat (GreedyBot, OutsBot and SearchBot by
default), reviews the bot's decisions with the same review at the same budget and seed,
and sets each bot's accuracy beside the seat's, each with its 95% interval.

**What "beside" means.** Each round the seat played (every round the game finished, and
the round in progress if the seat has acted in it) is replayed from its deal as the game
dealt it: the same hands, up-card and stock, the same dealer, scores and contracts, and
the same chance after it (the game's generator as it stood at the deal, so the
reshuffles and buy lotteries come out as in the game for as long as the play is the
game's). The bot plays the seat. The other seats replay their moves from the game for as
long as the bot chooses what the seat chose; from the bot's first other choice (or the
end of the game's history: a round in progress is played to its end), the round is no
longer the game's, the other seats' moves no longer apply, and ``others`` play them
(GreedyBot in each by default: a save does not say who played the other seats; give the
bots that did where they are known, as the PlayWidget does). So the comparison is of
play on the **same deals and seats, not on the same positions**: once the choices
differ the rounds unfold differently (other draws, other opponents' choices), and the
bot's opponents are bots where the seat's may have been people. A bot that chooses as
the seat did at every decision plays the game's rounds exactly and gets the seat's own
verdicts, decision for decision (the tests check this: GreedyBot beside a game that
GreedyBots played).

**What the bots' numbers say.** The review plays every choice out with GreedyBots (its
rollouts), so a choice GreedyBot would make is judged partly by its own lights: expect
GreedyBot and its kin (OutsBot; SearchBot, whose prior is GreedyBot) to score high, often
every decision best or good. Their accuracy says what steady play reaches under the
review's measure, not that they play perfectly; the seat's gap to them is the measure of
choices the review can show to be wrong.

Each player's **accuracy** has a Wilson 95% interval on the share of its decisions
(:func:`~rummykit.chance.wilson_interval`). It treats the decisions as independent
draws, and they are not quite: the decisions of one round share its cards and its
position, and a player's habits repeat, so the interval is somewhat too narrow. Read two
accuracies whose intervals overlap as no clear difference.

**Cost.** Each bot's rounds are reviewed afresh: about one review of the game per bot,
plus the bots' own play, of which OutsBot's (its outs counted at each discard) and
SearchBot's (:data:`SEARCH_BUDGET` samples a decision; at that budget it is weaker than
SearchBot's default of 256, and plays as its prior, GreedyBot, unless a choice is clearly
better) count: in all, 3 to 4 times the review's own time. Measured on 2026-12-06 on a
two-core machine busy with other work (load 3 to 4), at the review's default budget (128
samples a decision) with the three default bots, a four-player table with GreedyBots in
the other seats: for a whole game of 7 rounds (273 decisions of the seat) ``rummykit
review`` took 39 s, and 183 s with ``--beside``; for one round (32 decisions), 13 s with
``--beside``.

>>> from rummykit.agents.bots import GreedyBot
>>> from rummykit.engine.game import Game, play_game
>>> state = play_game(Game("standard", players=2, seed=3, turn_limit=6).new_state(),
...                   [GreedyBot(), GreedyBot()])
>>> result = beside_bots(state, 0, bots=["GreedyBot"], budget=2, round=1)
>>> [row.player for row in result.players]
['Ann', 'GreedyBot']
>>> mine, greedy = result.players
>>> greedy.review.verdicts == mine.review.verdicts  # GreedyBot played the seat
True
>>> beside_bots(state, 0, bots=["GreedBot"])
Traceback (most recent call last):
...
rummykit.errors.ArgumentError: bots must name bots of 'GreedyBot', 'OutsBot', 'SearchBot', 'RandomBot', got 'GreedBot'
"""

from __future__ import annotations

import html
import random
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rummykit.agents.bots import Bot, GreedyBot, OutsBot, RandomBot
from rummykit.agents.searchbot import SearchBot
from rummykit.chance import wilson_interval
from rummykit.engine.actions import parse_action
from rummykit.engine.checks import whole
from rummykit.engine.game import GameState
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.estimate import Estimate
from rummykit.evaluate.reviews import MAX_BUDGET, Review, checked_review, points_words, review

__all__ = [
    "BOT_NAMES",
    "DEFAULT_BOTS",
    "SEARCH_BUDGET",
    "BesideBots",
    "PlayerAccuracy",
    "beside_bots",
    "make_bot",
]

#: The bots a seat can be set beside, and that can play the other seats, by name.
BOT_NAMES = ("GreedyBot", "OutsBot", "SearchBot", "RandomBot")
#: The bots set beside the seat unless told.
DEFAULT_BOTS = ("GreedyBot", "OutsBot", "SearchBot")
#: SearchBot's samples a decision in the replays unless told: a quarter of its default
#: (256), about 0.07 s a decision, so that its rounds cost about what their review does.
SEARCH_BUDGET = 64
#: The most actions a replayed round may take before it is called stuck.
MAX_ACTIONS = 100_000


def make_bot(name: str, seed: int, *, search_budget: int = SEARCH_BUDGET) -> Bot:
    """A fresh bot of :data:`BOT_NAMES` seeded by ``seed``; SearchBot weighs
    ``search_budget`` samples a decision (a budget of samples alone, so it is
    reproducible from the seed).

    >>> make_bot("SearchBot", 1, search_budget=8)
    SearchBot(rollouts=8, seconds=None)
    """
    if not isinstance(name, str) or name not in BOT_NAMES:
        raise ArgumentError(
            f"name must be one of {', '.join(map(repr, BOT_NAMES))}, got {name!r:.80}"
        )
    whole("search_budget", search_budget, low=1, high=MAX_BUDGET)
    if name == "SearchBot":
        return SearchBot(seed=seed, rollouts=search_budget)
    return {"GreedyBot": GreedyBot, "OutsBot": OutsBot, "RandomBot": RandomBot}[name](seed=seed)


@dataclass(frozen=True)
class PlayerAccuracy:
    """One player's accuracy on the rounds compared: the seat as it played, or a bot."""

    player: str
    """The seat's player's name, or the bot's."""
    bot: bool
    """Whether a bot played (False: the seat as it played in the game)."""
    review: Review
    """The review of its decisions in the rounds compared."""
    accuracy: Estimate | None
    """The share of its decisions classed best or good, with its Wilson 95% interval
    (None with no decision to judge)."""

    @property
    def decisions(self) -> int:
        """Decisions judged."""
        return len(self.review.verdicts)

    @property
    def total_loss(self) -> float:
        """The mean losses of its decisions, added up (points)."""
        return self.review.total_loss

    def to_dict(self) -> dict:
        """The row as plain data, long form (the accuracy's columns None with no decision)."""
        a = self.accuracy
        return {
            "player": self.player,
            "bot": self.bot,
            "decisions": self.decisions,
            "accuracy": None if a is None else a.mean,
            "accuracy_low": None if a is None else a.low,
            "accuracy_high": None if a is None else a.high,
            "total_loss": self.total_loss,
        }

    def text(self) -> str:
        """The row in words: "78 in 100 (95%: 66 to 87), 58 decisions, ..."."""
        a = self.accuracy
        if a is None:
            return "no decision to judge"
        return (
            f"accuracy {_hundred(a.mean)} in 100 (95%: {_hundred(a.low)} to {_hundred(a.high)})"
            f" over {self.decisions} decisions, total loss about {points_words(self.total_loss)}"
        )


def _hundred(share: float) -> str:
    return f"{round(100 * share)}"


@dataclass(frozen=True)
class BesideBots:
    """The seat's accuracy beside the bots' (see :func:`beside_bots` and the module notes)."""

    seat: int
    """The seat."""
    name: str
    """Its player's name."""
    rounds: tuple[int, ...]
    """The rounds compared (each replayed from its deal)."""
    budget: int
    """The review's samples a decision (the same for every player)."""
    seed: int
    """The review's seed (the same for every player)."""
    search_budget: int
    """SearchBot's samples a decision where it played."""
    others: str
    """Who played the other seats once a round was no longer the game's, in words."""
    players: tuple[PlayerAccuracy, ...]
    """The seat as it played first, then each bot."""

    def player(self, name: str) -> PlayerAccuracy:
        """The row of ``name`` (the seat's player's or a bot's)."""
        found = next((p for p in self.players if p.player == name), None)
        if found is None:
            names = ", ".join(repr(p.player) for p in self.players)
            raise ArgumentError(f"name must be one of {names}, got {name!r:.80}")
        return found

    def rows(self) -> list[dict]:
        """One row per player, long form (for a DataFrame)."""
        return [p.to_dict() for p in self.players]

    def to_dict(self) -> dict:
        """As plain data (JSON-ready)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "rounds": list(self.rounds),
            "budget": self.budget,
            "seed": self.seed,
            "search_budget": self.search_budget,
            "others": self.others,
            "rows": self.rows(),
        }

    def _rounds_text(self) -> str:
        if not self.rounds:
            return "no round"
        if len(self.rounds) == 1:
            return f"round {self.rounds[0]}"
        return f"rounds {self.rounds[0]}-{self.rounds[-1]}"

    def heading(self) -> str:
        """What was compared, in one sentence."""
        return (
            f"Accuracy beside the bots: {self.name} (seat {self.seat}) and bots in the same "
            f"seat on the same deals ({self._rounds_text()}), every decision weighed on "
            f"{self.budget} samples"
        )

    def notes(self) -> str:
        """How to read the comparison, in words."""
        return (
            "Each bot played the seat from each round's deal; the other seats replayed "
            "their moves from the game until the bot first chose differently, then "
            f"{self.others} played them. So the rounds unfold differently once the choices "
            "differ: the same deals, not the same positions. The intervals treat the "
            "decisions as independent (they are not quite: read overlapping intervals as "
            f"no clear difference). SearchBot weighed {self.search_budget} samples a decision."
        )

    def __str__(self) -> str:
        width = max(len(p.player) for p in self.players) + 2
        lines = [self.heading() + ":"]
        lines += [f"  {p.player:<{width}}{p.text()}" for p in self.players]
        lines += textwrap.wrap(self.notes(), width=92)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for p in self.players:
            a = p.accuracy
            shown = (
                "none to judge"
                if a is None
                else f"{_hundred(a.mean)} in 100 ({_hundred(a.low)} to {_hundred(a.high)})"
            )
            style = "" if p.bot else ' style="font-weight:bold"'  # the seat as played
            rows.append(
                f"<tr{style}><td>{html.escape(p.player)}</td><td>{p.decisions}</td>"
                f"<td>{shown}</td><td>{p.total_loss:.0f}</td></tr>"
            )
        return (
            f"<p>{html.escape(self.heading())}</p><table><tr><th>player</th>"
            "<th>decisions</th><th>accuracy (95%)</th><th>total loss (points)</th></tr>"
            f"{''.join(rows)}</table><p><small>{html.escape(self.notes())}</small></p>"
        )


# -- checking the options -----------------------------------------------------------------


def _bot_makers(
    bots: Sequence[str] | Mapping[str, Callable[[int], Bot]], search_budget: int
) -> dict[str, Callable[[int], Bot]]:
    """``bots`` checked: names of :data:`BOT_NAMES`, or a mapping of names to factories."""
    if isinstance(bots, Mapping):
        makers = dict(bots)
        for name, factory in makers.items():
            if not isinstance(name, str) or not name or not callable(factory):
                raise ArgumentTypeError(
                    f"bots must map names to bot factories (seed) -> Bot, got "
                    f"{name!r:.40}: {factory!r:.40}"
                )
    elif isinstance(bots, (list, tuple)):
        for name in bots:
            if not isinstance(name, str) or name not in BOT_NAMES:
                raise ArgumentError(
                    f"bots must name bots of {', '.join(map(repr, BOT_NAMES))}, got {name!r:.80}"
                )
        if len(set(bots)) != len(bots):
            raise ArgumentError(f"bots must name each bot once, got {list(bots)!r}")
        makers = {
            name: (lambda seed, name=name: make_bot(name, seed, search_budget=search_budget))
            for name in bots
        }
    else:
        raise ArgumentTypeError(
            f"bots must be a list of bot names (or a mapping of names to factories), "
            f"got {bots!r:.80}"
        )
    if not makers:
        raise ArgumentError("bots: give at least one bot to set beside the seat")
    return makers


def _other_makers(others: object, seat: int, players: int, search_budget: int) -> list:
    """``others`` checked: one factory (seed) -> Bot per seat (None for ``seat``)."""

    def maker(entry: object, where: str) -> Callable[[int], Bot]:
        if isinstance(entry, str):
            if entry not in BOT_NAMES:
                raise ArgumentError(
                    f"{where} must name a bot of {', '.join(map(repr, BOT_NAMES))}, "
                    f"got {entry!r:.80}"
                )
            return lambda s: make_bot(entry, s, search_budget=search_budget)
        if callable(entry):
            return entry
        raise ArgumentTypeError(
            f"{where} must be a bot's name or a bot factory (seed) -> Bot, got {entry!r:.80}"
        )

    if isinstance(others, str):
        one = maker(others, "others")
        return [None if s == seat else one for s in range(players)]
    if not isinstance(others, (list, tuple)) or len(others) != players:
        raise ArgumentError(
            f"others must be a bot's name or one entry per seat ({players}), got {others!r:.80}"
        )
    return [None if s == seat else maker(e, f"others[{s}]") for s, e in enumerate(others)]


def _others_text(seated: list, seat: int) -> str:
    """The kinds of bot that play the other seats, in words ("GreedyBot")."""
    names = sorted(
        {type(_made(m, 0, f"others[{s}]")).__name__ for s, m in enumerate(seated) if s != seat}
    )
    return " and ".join(names)


def _made(make: Callable[[int], Bot], seed: int, where: str) -> Bot:
    bot = make(seed)
    if not callable(getattr(bot, "choose", None)):
        raise ArgumentTypeError(f"{where} must make a bot with choose(view), got {bot!r:.80}")
    return bot


# -- the replays -----------------------------------------------------------------------


def _round_starts(state: GameState, seat: int) -> tuple[dict[int, tuple[int, GameState]], set]:
    """Each round's state at its deal as the game dealt it, with the place in the game's
    history of the round's first action; and the rounds in which ``seat`` acted."""
    replay = GameState(state.game, state.setup)
    starts = {replay.round: (0, replay.clone())}
    acted = set()
    for number, (who, action) in enumerate(state.history):
        if who == seat:
            acted.add(replay.round)
        finished = len(replay.round_scores)
        replay.apply(action)
        if len(replay.round_scores) > finished and not replay.is_over:
            starts[replay.round] = (number + 1, replay.clone())
    return starts, acted


def _play_round(
    start: GameState,
    first: int,
    history: list,
    seat: int,
    bots: list,
    tick: Callable[[], None],
) -> GameState:
    """Round ``start`` played to its end, ``bots[seat]`` in the seat: the other seats
    replay ``history`` (from its place ``first``) while the bot chooses as the seat did,
    then ``bots`` play them."""
    play = start.clone()
    finished = len(play.round_scores)
    number, following = first, True
    for _ in range(MAX_ACTIONS):
        if len(play.round_scores) > finished:
            return play
        who = play.to_act
        if number >= len(history):
            following = False
        if who == seat:
            action = parse_action(bots[seat].choose(play.view(seat)))
            following = following and action == history[number][1]
            tick()
        elif following:
            action = history[number][1]
        else:
            action = bots[who].choose(play.view(who))
        play.apply(action)
        number += 1
    raise ArgumentError(
        f"a replayed round {start.round} did not end within {MAX_ACTIONS:,} actions (give "
        "the game a turn_limit or max_reshuffles)"
    )


def _accuracy(result: Review) -> Estimate | None:
    n = len(result.verdicts)
    if n == 0:
        return None
    good = sum(v.kind in ("best", "good") for v in result.verdicts)
    low, high = wilson_interval(good, n)
    return Estimate(good / n, low, high, n)


def beside_bots(
    game: GameState | str | dict,
    seat: int,
    *,
    bots: Sequence[str] | Mapping[str, Callable[[int], Bot]] = DEFAULT_BOTS,
    others: str | Sequence[str | Callable[[int], Bot] | None] = "GreedyBot",
    budget: int = 128,
    seed: int = 0,
    round: int | None = None,
    search_budget: int = SEARCH_BUDGET,
    own: Review | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BesideBots:
    """``seat``'s accuracy in ``game`` (a played GameState or a save) beside each bot's of
    ``bots`` in the same seat on the same deals (see the module notes).

    ``bots``: names of :data:`BOT_NAMES` (default :data:`DEFAULT_BOTS`), or a mapping of
    names to factories ``(seed) -> Bot``. ``others``: who plays the other seats once a
    replayed round is no longer the game's: a name of :data:`BOT_NAMES` for all of them,
    or one entry per seat (a name or a factory; the seat's own entry is ignored).
    ``budget``, ``seed``: the review's (every player's decisions are weighed alike);
    ``round``: that round only; ``search_budget``: SearchBot's samples a decision.
    ``own``: the seat's review if it is made already (:func:`~rummykit.evaluate.reviews.review`
    of the same game, seat, budget, seed and round), else it is made here.
    ``progress(done, total)`` is called after each round a bot played and was reviewed
    on (and the seat's own review, if made here), and often in between with the same
    ``done``: a caller may stop the work by raising from it. Reproducible from ``seed``
    (the bots are seeded by it, the round and the seat).
    """
    state = checked_review(game, seat, budget, seed)
    players = state.players
    whole("search_budget", search_budget, low=1, high=MAX_BUDGET)
    makers = _bot_makers(bots, search_budget)
    seated = _other_makers(others, seat, players, search_budget)
    for name, make in makers.items():  # each factory tried once, before any work
        _made(make, 0, f"bots[{name!r}]")
    others_text = _others_text(seated, seat)
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be a callable or None, got {progress!r}")
    starts, acted = _round_starts(state, seat)
    if round is not None and (type(round) is not int or round not in starts):
        begun = list(starts)
        rounds = f"{begun[0]}..{begun[-1]}" if len(begun) > 1 else f"{begun[0]}"
        raise ArgumentError(
            f"round must be the number of a round this game played ({rounds}), got {round!r}"
        )
    if own is not None:
        if not isinstance(own, Review):
            raise ArgumentTypeError(f"own must be a Review or None, got {own!r:.80}")
        if (own.seat, own.budget, own.seed) != (seat, budget, seed) or (
            round is not None and any(v.round != round for v in own.verdicts)
        ):
            raise ArgumentError(
                "own must be the review of the same seat, budget, seed and round, got "
                f"seat {own.seat}, budget {own.budget}, seed {own.seed}"
            )
    rounds = [r for r in starts if r in acted and (round is None or r == round)]
    total = len(makers) * len(rounds) + (own is None)
    done = 0

    def tick(*_) -> None:
        if progress is not None:
            progress(done, total)

    if own is None:
        own = review(state, seat, budget=budget, seed=seed, round=round, progress=tick)
        done += 1
        tick()
    rows = [PlayerAccuracy(own.name, False, own, _accuracy(own))]
    for name, make in makers.items():
        verdicts, results = [], []
        for number in rounds:
            chance = random.Random(f"beside/{seed}/{number}")
            seeds = [chance.getrandbits(63) for _ in range(players)]
            table = [
                _made(make, seeds[s], f"bots[{name!r}]")
                if s == seat
                else _made(seated[s], seeds[s], f"others[{s}]")
                for s in range(players)
            ]
            first, start = starts[number]
            played = _play_round(start, first, state.history, seat, table, tick)
            result = review(played, seat, budget=budget, seed=seed, round=number, progress=tick)
            verdicts += result.verdicts
            results += result.results
            done += 1
            tick()
        mine = Review(seat, name, budget, seed, tuple(verdicts), tuple(results))
        rows.append(PlayerAccuracy(name, True, mine, _accuracy(mine)))
    return BesideBots(
        seat=seat,
        name=state.game.names[seat],
        rounds=tuple(rounds),
        budget=budget,
        seed=seed,
        search_budget=search_budget,
        others=others_text,
        players=tuple(rows),
    )
