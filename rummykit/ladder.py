"""A ladder of bots: each one measured against one field on the same duplicate deals,
and rated from the pairwise results.

:func:`ladder` plays, on each of ``deals`` deals, one game with the ``baseline`` bot in
every seat, and for every other bot of the roster one game per seat with that bot in
the seat and the baseline in the others (as :func:`rummykit.duplicate.compare` does for
two bots). Every bot thus plays every seat of every deal against the same field, and a
bot's result on a deal is the mean over the seats of its points (and rounds gone out
first, and contracts laid down by turn ``turn``) minus the baseline's in the same seat of
the same deal: the luck of the cards cancels, deal by deal.

Why one field rather than every pair at the table: a roster of k bots then costs
``deals * (1 + (k - 1) * players)`` games, not ``deals * k * (k - 1) * players``; the
field is the opponents a learner meets (GreedyBot); and two bots are still compared
deal by deal, on the same deals and seats, by the difference of their results.

From those results:

- each bot's points per game better than the baseline, its rounds gone out first and
  laid down by turn ``turn``, with 95% intervals over the deals;
- each pair's paired difference (points per game), with its interval;
- a **Bradley-Terry rating** per bot: on each deal, bot A beats bot B when its result
  is the better (a tie counts half to each), and the strengths that make those wins most
  likely are fitted (Hunter's MM algorithm), with half a win added each way to every
  pair so that a bot that wins every deal still has a finite rating. The rating is on the
  Elo scale (400 points: ten to one odds of winning a deal), the baseline at 0, and its
  95% interval comes from a seeded bootstrap over the deals (:data:`BOOTSTRAP` resamples).

>>> from rummykit.bots import GreedyBot, RandomBot
>>> result = ladder({"greedy": GreedyBot(), "random": RandomBot()}, baseline="greedy",
...                 deals=3, players=2, rounds=1, seed=1, turn_limit=16)
>>> result.ratings["greedy"].mean, result.ratings["random"].mean < 0
(0.0, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rummykit.bots import Bot
from rummykit.checks import whole
from rummykit.duplicate import MAX_DEALS, Estimate, game_results, interval
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.game import Game
from rummykit.rules import RuleSet

__all__ = ["BOOTSTRAP", "Ladder", "bradley_terry", "ladder"]

#: Bootstrap resamples of the deals behind each rating's interval.
BOOTSTRAP = 200
#: The Elo scale: a rating difference of 400 is odds of ten to one.
ELO = 400 / math.log(10)


def bradley_terry(
    wins: Mapping[tuple[str, str], float], names: list[str], *, prior: float = 0.5
) -> dict[str, float]:
    """The Bradley-Terry log-strengths of ``names`` from ``wins[(a, b)]`` (how often ``a``
    beat ``b``), ``prior`` wins added each way to every pair, the first name at 0.

    Fitted by Hunter's MM iteration to convergence (a change below 1e-10).

    >>> s = bradley_terry({("a", "b"): 3, ("b", "a"): 1}, ["a", "b"], prior=0)
    >>> round(s["b"], 6) == round(math.log(1 / 3), 6)
    True
    """
    if isinstance(names, (str, bytes)) or not isinstance(names, (list, tuple)):
        raise ArgumentTypeError(f"names must be a list of names, got {names!r}")
    if not all(isinstance(n, str) for n in names):
        raise ArgumentTypeError(f"names: each is a str, got {names!r}")
    if len(names) < 2 or len(set(names)) != len(names):
        raise ArgumentError(f"names: give two or more distinct names, got {names!r}")
    if not isinstance(wins, Mapping):
        raise ArgumentTypeError(
            f"wins must be a mapping of (winner, loser) to counts, got {wins!r}"
        )
    for key, count in wins.items():
        if not (isinstance(key, tuple) and len(key) == 2 and set(key) <= set(names)):
            raise ArgumentError(f"wins: each key is a pair of the names, got {key!r}")
        if (
            isinstance(count, bool)
            or not isinstance(count, (int, float))
            or not 0 <= count < math.inf
        ):
            raise ArgumentError(f"wins: each count is a number >= 0, got {count!r}")
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 <= prior < math.inf:
        raise ArgumentError(f"prior must be a number >= 0, got {prior!r}")
    won = {a: 0.0 for a in names}
    games = {(a, b): 0.0 for a in names for b in names if a != b}
    for a in names:
        for b in names:
            if a != b:
                w = float(wins.get((a, b), 0.0)) + prior
                won[a] += w
                games[a, b] += w
                games[b, a] += w
    never = [a for a in names if won[a] == 0]
    if never:
        raise ArgumentError(
            f"wins: {never[0]} won nothing, so no finite strength fits: give prior > 0"
        )
    strength = {a: 1.0 for a in names}
    for _ in range(10_000):
        fresh = {}
        for a in names:
            denominator = sum(games[a, b] / (strength[a] + strength[b]) for b in names if b != a)
            fresh[a] = won[a] / denominator if denominator else strength[a]
        scale = fresh[names[0]]
        fresh = {a: v / scale for a, v in fresh.items()}
        change = max(abs(math.log(fresh[a]) - math.log(strength[a])) for a in names)
        strength = fresh
        if change < 1e-10:
            break
    return {a: math.log(strength[a]) for a in names}


@dataclass(frozen=True)
class Ladder:
    """What :func:`ladder` measured (see the module notes)."""

    names: tuple[str, ...]
    """The bots, the baseline first."""
    baseline: str
    """The field every bot played against."""
    rules: str
    players: int
    deals: int
    rounds: int
    turn: int
    games: int
    """Games played."""
    points: dict[str, Estimate]
    """Points per game better than the baseline in the same seat (95% interval)."""
    went_out: dict[str, Estimate]
    """Rounds gone out first, minus the baseline's, a share of the rounds."""
    laid_down: dict[str, Estimate]
    """Rounds laid down by turn ``turn``, minus the baseline's, a share of the rounds."""
    pairs: dict[tuple[str, str], Estimate]
    """(A, B): A's points per game better than B's, paired over the deals."""
    ratings: dict[str, Estimate]
    """The Bradley-Terry rating on the Elo scale, the baseline at 0 (bootstrap 95%)."""
    per_deal: dict[str, tuple[tuple[float, float, float], ...]]
    """Each bot's result on each deal: (points, went out, laid down) against the baseline."""

    def ranking(self) -> list[str]:
        """The bots, best rated first."""
        return sorted(self.names, key=lambda n: -self.ratings[n].mean)

    def rows(self) -> list[dict]:
        """Long form: one row per bot and measure (and per pair), for a table."""
        out = []
        for name in self.names:
            for measure, values in (
                ("rating", self.ratings),
                ("points per game", self.points),
                ("went out first", self.went_out),
                (f"laid down by turn {self.turn}", self.laid_down),
            ):
                e = values[name]
                out.append(
                    {"bot": name, "opponent": self.baseline, "measure": measure,
                     "value": e.mean, "ci_low": e.low, "ci_high": e.high, "n": e.n}
                )  # fmt: skip
        for (a, b), e in self.pairs.items():
            out.append(
                {"bot": a, "opponent": b, "measure": "points per game",
                 "value": e.mean, "ci_low": e.low, "ci_high": e.high, "n": e.n}
            )  # fmt: skip
        return out

    def __str__(self) -> str:
        lines = [
            f"Ladder: {self.rules}, {self.players} players, {self.deals} deals x "
            f"{self.rounds} rounds, against {self.baseline} ({self.games:,} games)"
        ]
        for name in self.ranking():
            r, p = self.ratings[name], self.points[name]
            lines.append(
                f"  {name:<24} rating {r.mean:+6.0f} [{r.low:+.0f}, {r.high:+.0f}]   "
                f"points per game {p.mean:+6.1f} [{p.low:+.1f}, {p.high:+.1f}]"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{self.ratings[name].mean:+.0f} "
            f"[{self.ratings[name].low:+.0f}, {self.ratings[name].high:+.0f}]</td>"
            f"<td>{self.points[name].mean:+.1f} [{self.points[name].low:+.1f}, "
            f"{self.points[name].high:+.1f}]</td></tr>"
            for name in self.ranking()
        )
        head = html.escape(str(self).splitlines()[0])
        return (
            f"<p>{head}</p><table><tr><th>bot</th><th>rating (95%)</th>"
            f"<th>points per game better than {html.escape(self.baseline)} (95%)</th></tr>"
            f"{rows}</table>"
        )


def _ratings(per_deal: dict[str, list[float]], names: list[str], rng: random.Random):
    """The Elo-scale ratings of ``names`` from their per-deal results, and bootstrap
    intervals (``rng`` draws the resamples)."""

    def fit(deals: list[int]) -> dict[str, float]:
        wins: dict[tuple[str, str], float] = {}
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                for d in deals:
                    x, y = per_deal[a][d], per_deal[b][d]
                    wins[a, b] = wins.get((a, b), 0.0) + (1.0 if x > y else 0.5 if x == y else 0.0)
                    wins[b, a] = wins.get((b, a), 0.0) + (1.0 if y > x else 0.5 if x == y else 0.0)
        return {a: ELO * s for a, s in bradley_terry(wins, names).items()}

    count = len(next(iter(per_deal.values())))
    point = fit(list(range(count)))
    samples = [fit([rng.randrange(count) for _ in range(count)]) for _ in range(BOOTSTRAP)]
    out = {}
    for a in names:
        values = sorted(s[a] for s in samples)
        low = values[int(0.025 * BOOTSTRAP)]
        high = values[min(BOOTSTRAP - 1, int(0.975 * BOOTSTRAP))]
        out[a] = Estimate(point[a], min(low, point[a]), max(high, point[a]), count)
    return out


def ladder(
    roster: Mapping[str, Bot],
    *,
    baseline: str,
    deals: int = 20,
    rules: RuleSet | str = "standard",
    players: int = 4,
    seed: int = 0,
    rounds: int | None = None,
    turn: int = 8,
    max_reshuffles: int | None = 3,
    turn_limit: int | None = None,
    max_actions: int = 100_000,
    progress: Callable[[int, int], None] | None = None,
) -> Ladder:
    """Measure every bot of ``roster`` (name -> bot) against ``baseline`` (one of its
    names) on ``deals`` duplicate deals and rate them (see the module notes).

    Each deal's games depend on ``seed`` and the deal's number alone, and each bot's on
    its name's place nowhere: the same roster in another order gives the same ladder.
    ``progress(done, total)`` is called after each game. The bots given are copied,
    never played (as by :func:`~rummykit.duplicate.compare`).
    """
    if not isinstance(roster, Mapping):
        raise ArgumentTypeError(f"roster must be a mapping of names to bots, got {roster!r}")
    if len(roster) < 2:
        raise ArgumentError(f"roster: give two bots or more, got {len(roster)}")
    for name, bot in roster.items():
        if not isinstance(name, str) or not name:
            raise ArgumentTypeError(f"roster: each name is a non-empty str, got {name!r}")
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentTypeError(f"roster: {name!r} is not a bot with choose(view), got {bot!r}")
    if not isinstance(baseline, str) or baseline not in roster:
        raise ArgumentError(f"baseline must be a name of the roster, got {baseline!r}")
    if isinstance(rules, str):
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet or a preset name, got {rules!r}")
    whole("players", players, low=rules.min_players, high=rules.max_players)
    rules.check_players(players)
    whole("deals", deals, low=1, high=MAX_DEALS)
    whole("seed", seed, low=0)
    whole("turn", turn, low=1)
    whole("max_actions", max_actions, low=1)
    rounds = rules.rounds if rounds is None else rounds
    whole("rounds", rounds, low=1, high=rules.rounds)
    limits = {"max_reshuffles": max_reshuffles, "turn_limit": turn_limit}
    Game(rules, players=players, seed=0, **limits)  # checks the limits
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be None or a callable, got {progress!r}")
    names = [baseline, *sorted(n for n in roster if n != baseline)]
    sign = 1 if rules.negative_scores else -1  # points better: higher is better
    field = roster[baseline]
    rng = random.Random(seed)
    deal_seeds = [rng.getrandbits(63) for _ in range(deals)]
    per_deal: dict[str, list[tuple[float, float, float]]] = {n: [] for n in names}
    total, done = deals * (1 + (len(names) - 1) * players), 0
    rest = (limits, rounds, turn, max_actions)
    for deal_seed in deal_seeds:
        args = (rules, players, deal_seed)
        base = game_results(*args, [field] * players, *rest)
        done += 1
        if progress is not None:
            progress(done, total)
        per_deal[baseline].append((0.0, 0.0, 0.0))
        for name in names[1:]:
            bot = roster[name]
            diffs = []
            for seat in range(players):
                seats = [bot if s == seat else field for s in range(players)]
                mine = game_results(*args, seats, *rest)[seat]
                done += 1
                if progress is not None:
                    progress(done, total)
                diffs.append(
                    (
                        sign * (mine[0] - base[seat][0]),
                        (mine[1] - base[seat][1]) / rounds,
                        (mine[2] - base[seat][2]) / rounds,
                    )
                )
            per_deal[name].append(tuple(sum(d[i] for d in diffs) / players for i in range(3)))
    points = {n: interval([d[0] for d in per_deal[n]]) for n in names}
    went_out = {n: interval([d[1] for d in per_deal[n]], (-1, 1)) for n in names}
    laid_down = {n: interval([d[2] for d in per_deal[n]], (-1, 1)) for n in names}
    pairs = {
        (a, b): interval([x[0] - y[0] for x, y in zip(per_deal[a], per_deal[b], strict=True)])
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    }
    scores = {n: [d[0] for d in per_deal[n]] for n in names}
    ratings = _ratings(scores, names, random.Random(f"ladder/{seed}"))
    return Ladder(
        names=tuple(names),
        baseline=baseline,
        rules=rules.name,
        players=players,
        deals=deals,
        rounds=rounds,
        turn=turn,
        games=total,
        points=points,
        went_out=went_out,
        laid_down=laid_down,
        pairs=pairs,
        ratings=ratings,
        per_deal={n: tuple(v) for n, v in per_deal.items()},
    )
