"""A ladder of bots: every pair played in duplicate, a Bradley-Terry rating per bot.

:func:`ladder` plays, for each deal and each pair of bots (A, B), and for each seat
``s``, the duplicate pair of games "A in seat ``s``, B in the others" and "B in seat
``s``, A in the others", and compares A in seat ``s`` with B in seat ``s`` (the same
cards, the same seat; the other seats held by the other bot). So every pair meets in
every seat equally, each bot as the one and as the many. Its cost: ``2 * players`` games
per deal and pair (``players`` with two players, where "A in seat 0" is "B in seat 1"),
so ``deals * k * (k - 1) / 2 * 2 * players`` games for ``k`` bots when every pair is
played. ``pairs`` can name fewer (a schedule, as rating lists pair engines: each bot
with an anchor and its neighbours), so long as they connect every bot; a pair not
played has no figures, and the rating relates its bots through the others. (The baseline
schedule of :func:`~rummykit.evaluate.duplicate.compare`, a bot among copies of the other, would
cost ``2 * (players + 1)`` per deal and pair and measure how a bot does among copies of
the other; this one measures the head-to-head directly, for two games fewer.)

>>> from rummykit.agents.bots import GreedyBot, RandomBot
>>> result = ladder({"greedy": GreedyBot, "random": RandomBot}, deals=3, players=2,
...                 rounds=1, seed=1, bootstrap=50)
>>> result.games, result.anchor, result.rating("random").rating < 0
(6, 'greedy', True)

The figures, per pair (A minus B, positive when A did better, a 95% Student-t interval
over the deals, each deal's value the mean over the seats):

* ``points``: points per game better (see :mod:`rummykit.evaluate.duplicate`);
* ``went_out``: share of rounds gone out first;
* ``laid_down``: share of rounds the seat laid down its contract within its first
  ``turn`` turns;
* ``wins``: share of the duplicate pairs (deal and seat) where A scored better (a tie
  counts half).

The rating: a Bradley-Terry model, P(A scores better than B in a duplicate pair) =
1 / (1 + exp(r_B - r_A)), fitted by maximum likelihood (:func:`bradley_terry`) to the
wins of every pair played, each given ``prior`` virtual ties so that a bot winning every
pair has a finite rating; the anchor's rating is 0 (GreedyBot by default). The 95%
intervals are percentiles of a seeded bootstrap over the deals (deals resampled with
replacement, the model fitted again): the seats of one deal share its cards, so their
results are not independent, and the Fisher information, which treats them so, would
give intervals too narrow. They are intervals of the difference from the anchor.
``elo`` is the rating on the Elo scale (400 / ln 10 points per unit).

Reproducible from ``seed``, whatever the order of the roster: the deals are drawn from
the seed alone, the pairs are named in sorted order, and a unit of work (one deal, one
pair: :func:`play_unit`) depends only on itself, so the units can be played anywhere
(in other processes: the roster's factories must then pickle, classes or
``functools.partial``) and :func:`merge` gives the same Ladder.
"""

from __future__ import annotations

import html
import itertools
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rummykit.agents.bots import GreedyBot
from rummykit.chance import difference_text, estimate_text
from rummykit.engine.checks import whole
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.duplicate import better_sign, deal_seeds, seated_game, setup
from rummykit.evaluate.estimate import Estimate, interval

__all__ = [
    "Ladder",
    "Pair",
    "Rating",
    "Unit",
    "UnitResult",
    "bradley_terry",
    "ladder",
    "merge",
    "play_unit",
    "schedule",
    "units",
]

#: The most bots in a roster (the pairs grow as its square).
MAX_BOTS = 32
#: The most bootstrap resamples.
MAX_BOOTSTRAP = 100_000
#: Elo points per unit of the Bradley-Terry rating (natural log-odds).
ELO = 400 / math.log(10)


@dataclass(frozen=True)
class Unit:
    """One unit of work: deal ``deal`` (of seed ``deal_seed``) for the pair ``a < b``."""

    deal: int
    """The deal's index."""
    deal_seed: int
    """The deal's seed (drawn from the ladder's seed)."""
    a: str
    """The first bot's name (sorted first)."""
    b: str
    """The second bot's name."""


@dataclass(frozen=True)
class UnitResult:
    """What :func:`play_unit` found: per seat, A's and B's results in that seat."""

    unit: Unit
    setting: tuple
    """(rules, players, rounds, turn, max_reshuffles, turn_limit): merged only alike."""
    games: int
    """Games played."""
    seats: tuple[tuple[int, int, int, int, int, int], ...]
    """Per seat (A's points, B's points, A's rounds out first, B's, A's rounds laid
    down by the setting's turn, B's), points signed so that more is better."""
    turns: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    """Per seat (A's, B's) turn of laying down in each round, 0 where it did not."""


@dataclass(frozen=True)
class Pair:
    """One pair's paired differences, ``a`` minus ``b`` (see the module notes)."""

    a: str
    b: str
    points: Estimate
    went_out: Estimate
    wins: Estimate
    laid_down: Estimate


@dataclass(frozen=True)
class Rating:
    """One bot's Bradley-Terry rating with its 95% bootstrap interval."""

    name: str
    rating: float
    low: float
    high: float

    @property
    def elo(self) -> tuple[float, float, float]:
        """The rating and its interval on the Elo scale."""
        return (self.rating * ELO, self.low * ELO, self.high * ELO)


def _roster(roster) -> dict[str, Callable]:
    """The roster checked: a mapping (or pairs) of unique names to bot factories."""
    if isinstance(roster, Mapping):
        pairs = list(roster.items())
    elif isinstance(roster, (list, tuple)):
        pairs = list(roster)
        for pair in pairs:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise ArgumentTypeError(
                    f"roster must map names to bot factories (or be (name, factory) pairs), "
                    f"got an item {pair!r:.80}"
                )
    else:
        raise ArgumentTypeError(
            f"roster must map names to bot factories (seed) -> Bot, got {roster!r:.80}"
        )
    if not 2 <= len(pairs) <= MAX_BOTS:
        raise ArgumentError(f"roster: a ladder needs 2 to {MAX_BOTS} bots, got {len(pairs)}")
    out: dict[str, Callable] = {}
    for name, factory in pairs:
        if not isinstance(name, str) or not name or len(name) > 80:
            raise ArgumentTypeError(
                f"roster: a name must be a string of 1 to 80 characters, got {name!r:.80}"
            )
        if name in out:
            raise ArgumentError(f"roster: the name {name!r} is given twice")
        if not callable(factory):
            raise ArgumentTypeError(
                f"roster[{name!r}] must be a bot factory (seed) -> Bot, got {factory!r:.80}"
            )
        out[name] = factory
    return dict(sorted(out.items()))


def _made(name: str, factory: Callable, seed: int):
    try:
        bot = factory(seed)
    except Exception as error:  # noqa: BLE001 - a user's factory, named in the refusal
        raise ArgumentError(
            f"roster[{name!r}]: the factory failed on a seed: {error!r:.120}"
        ) from None
    if not callable(getattr(bot, "choose", None)):
        raise ArgumentTypeError(
            f"roster[{name!r}] must make a bot with choose(view), got {bot!r:.80}"
        )
    return bot


def _anchor(roster: dict[str, Callable], anchor: str | None) -> str:
    if anchor is not None:
        if not isinstance(anchor, str) or anchor not in roster:
            raise ArgumentError(f"anchor must be a name of the roster, got {anchor!r:.80}")
        return anchor
    greedy = [n for n, f in roster.items() if type(_made(n, f, 0)) is GreedyBot]
    return greedy[0] if len(greedy) == 1 else next(iter(roster))


def schedule(roster, pairs=None) -> list[tuple[str, str]]:
    """The pairs a ladder plays, each in sorted order, sorted: every pair of the roster
    (``pairs`` None), or those of ``pairs``, which must connect every bot.

    >>> schedule({"c": object, "a": object, "b": object}, [("c", "a"), ("b", "a")])
    [('a', 'b'), ('a', 'c')]
    """
    names = list(_roster(roster))
    if pairs is None:
        return list(itertools.combinations(names, 2))
    if not isinstance(pairs, (list, tuple)) or not pairs:
        raise ArgumentTypeError(
            f"pairs must be None or a non-empty list of (name, name), got {pairs!r:.80}"
        )
    chosen = set()
    for pair in pairs:
        if (
            not isinstance(pair, (list, tuple))
            or len(pair) != 2
            or any(n not in names for n in pair)
            or pair[0] == pair[1]
        ):
            raise ArgumentError(
                f"pairs: each must be two different names of the roster, got {pair!r:.80}"
            )
        if tuple(sorted(pair)) in chosen:
            raise ArgumentError(f"pairs: the pair {pair!r:.80} is given twice")
        chosen.add(tuple(sorted(pair)))
    reached, todo = {names[0]}, [names[0]]
    while todo:
        here = todo.pop()
        for a, b in chosen:
            for x, y in ((a, b), (b, a)):
                if x == here and y not in reached:
                    reached.add(y)
                    todo.append(y)
    if len(reached) < len(names):
        missing = ", ".join(n for n in names if n not in reached)
        raise ArgumentError(
            f"pairs: the schedule must connect every bot of the roster; not reached from "
            f"{names[0]!r}: {missing}"
        )
    return sorted(chosen)


def units(roster, *, deals: int, seed: int, pairs=None) -> list[Unit]:
    """Every unit of a ladder, deal by deal, the pairs (:func:`schedule`) in sorted order.

    >>> [(u.deal, u.a, u.b) for u in units({"y": object, "x": object}, deals=2, seed=0)]
    [(0, 'x', 'y'), (1, 'x', 'y')]
    """
    played = schedule(roster, pairs)
    whole("deals", deals, low=1, high=100_000)
    whole("seed", seed, low=0)
    seeds = deal_seeds(random.Random(seed), deals)
    return [Unit(deal, deal_seed, a, b) for deal, deal_seed in enumerate(seeds) for a, b in played]


def play_unit(
    roster,
    unit: Unit,
    *,
    rules: RuleSet | str = "standard",
    players: int = 4,
    rounds: int | None = None,
    turn: int = 8,
    max_reshuffles: int | None = 3,
    turn_limit: int | None = None,
    max_actions: int = 100_000,
) -> UnitResult:
    """Play one unit (one deal, one pair, every seat both ways; see the module notes).

    >>> from rummykit.agents.bots import GreedyBot, RandomBot
    >>> roster = {"greedy": GreedyBot, "random": RandomBot}
    >>> result = play_unit(roster, units(roster, deals=1, seed=0)[0], players=2, rounds=1)
    >>> result.games, len(result.seats)
    (2, 2)
    """
    roster = _roster(roster)
    if not isinstance(unit, Unit):
        raise ArgumentTypeError(f"unit must be a Unit (from units()), got {unit!r:.80}")
    whole("unit.deal", unit.deal, low=0)
    whole("unit.deal_seed", unit.deal_seed, low=0, high=2**63 - 1)
    if unit.a not in roster or unit.b not in roster or not unit.a < unit.b:
        raise ArgumentError(
            f"unit: a and b must be two names of the roster in sorted order, got "
            f"{unit.a!r:.40}, {unit.b!r:.40}"
        )
    rules, rounds, limits = setup(
        rules,
        players=players,
        deals=1,
        seed=0,
        rounds=rounds,
        turn=turn,
        max_reshuffles=max_reshuffles,
        turn_limit=turn_limit,
        max_actions=max_actions,
        progress=None,
        hint="",
    )
    return _play(roster, unit, rules, players, rounds, turn, limits, max_actions, None)


def _play(roster, unit, rules, players, rounds, turn, limits, max_actions, tick) -> UnitResult:
    sign = better_sign(rules)
    make = {
        name: (lambda seed, name=name: _made(name, roster[name], seed)) for name in (unit.a, unit.b)
    }
    played: dict[tuple, list] = {}

    def game(seating: tuple[str, ...]) -> list:
        if seating not in played:
            played[seating] = seated_game(
                rules, players, unit.deal_seed, [make[n] for n in seating], limits, rounds,
                turn, max_actions,
            )  # fmt: skip
            if tick is not None:
                tick()
        return played[seating]

    seats, turns = [], []
    for seat in range(players):
        one_a = tuple(unit.a if s == seat else unit.b for s in range(players))
        one_b = tuple(unit.b if s == seat else unit.a for s in range(players))
        mine, theirs = game(one_a)[seat], game(one_b)[seat]
        seats.append((sign * mine[0], sign * theirs[0], mine[1], theirs[1], mine[2], theirs[2]))
        turns.append((mine[3], theirs[3]))
    setting = (rules.name, players, rounds, turn, limits["max_reshuffles"], limits["turn_limit"])
    return UnitResult(unit, setting, len(played), tuple(seats), tuple(turns))


def _check_positive(name: str, value, low: float) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise ArgumentTypeError(f"{name} must be a finite number >= {low}, got {value!r:.80}")
    if value < low:
        raise ArgumentError(f"{name} must be a finite number >= {low}, got {value!r:.80}")
    return float(value)


def bradley_terry(wins, *, prior: float = 0.0, anchor: int = 0) -> list[float]:
    """Bradley-Terry ratings (natural log-odds) from ``wins[i][j]``, the wins of ``i``
    over ``j`` (a tie: half each way), by maximum likelihood (Newton's method), with
    ``prior`` virtual ties added to every pair and ``anchor``'s rating 0.

    >>> [round(r, 6) for r in bradley_terry([[0, 3], [1, 0]])]
    [0.0, -1.098612]
    >>> bradley_terry([[0, 1], [0, 0]])
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: wins: no finite maximum (a group of bots never lost to the others); give prior > 0
    """
    if not isinstance(wins, (list, tuple)) or not 2 <= len(wins) <= MAX_BOTS:
        raise ArgumentTypeError(
            f"wins must be a square table of 2 to {MAX_BOTS} rows, got {wins!r:.80}"
        )
    k = len(wins)
    table = []
    for i, row in enumerate(wins):
        if not isinstance(row, (list, tuple)) or len(row) != k:
            raise ArgumentTypeError(f"wins[{i}] must be a row of {k} numbers, got {row!r:.80}")
        table.append([_check_positive(f"wins[{i}][{j}]", w, 0) for j, w in enumerate(row)])
    prior = _check_positive("prior", prior, 0)
    whole("anchor", anchor, low=0, high=k - 1)
    w = [[0.0 if i == j else table[i][j] + prior / 2 for j in range(k)] for i in range(k)]
    if not _strongly_connected(w):
        raise ArgumentError(
            "wins: no finite maximum (a group of bots never lost to the others); give prior > 0"
        )
    free = [i for i in range(k) if i != anchor]
    theta = [0.0] * k

    def loglik(t):
        return sum(
            w[i][j] * (t[i] - _logaddexp(t[i], t[j])) for i in range(k) for j in range(k) if i != j
        )

    current = loglik(theta)
    for _ in range(200):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for i in range(k):
            for j in range(k):
                if i == j:
                    continue
                n = w[i][j] + w[j][i]
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                grad[i] += w[i][j] - n * p
                hess[i][i] += n * p * (1 - p)
                hess[i][j] -= n * p * (1 - p)
        step = _solve([[hess[i][j] for j in free] for i in free], [grad[i] for i in free])
        scale = 1.0
        while True:
            trial = list(theta)
            for i, s in zip(free, step, strict=True):
                trial[i] += scale * s
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        moved = max(abs(a - b) for a, b in zip(trial, theta, strict=True))
        theta, current = trial, value
        if moved < 1e-10:
            break
    return theta


def _logaddexp(a: float, b: float) -> float:
    top = max(a, b)
    return top + math.log(math.exp(a - top) + math.exp(b - top))


def _strongly_connected(w) -> bool:
    k = len(w)
    for forward in (True, False):
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in range(k):
                if j not in seen and (w[i][j] if forward else w[j][i]) > 0:
                    seen.add(j)
                    todo.append(j)
        if len(seen) < k:
            return False
    return True


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination, partial pivoting; a is positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for cc in range(c, n + 1):
                m[r][cc] -= f * m[c][cc]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][cc] * x[cc] for cc in range(r + 1, n))) / m[r][r]
    return x


@dataclass(frozen=True)
class Ladder:
    """The result of :func:`ladder` (see the module notes for each figure)."""

    names: tuple[str, ...]
    """The bots, in sorted order."""
    anchor: str
    """The bot rated 0."""
    rules: str
    players: int
    rounds: int
    turn: int
    """The turn of the ``laid_down`` figures."""
    deals: int
    games: int
    bootstrap: int
    prior: float
    pairs: tuple[Pair, ...]
    """Every pair (a < b)."""
    ratings: tuple[Rating, ...]
    """Every bot's rating, best first."""

    def rating(self, name: str) -> Rating:
        """The rating of the bot ``name``."""
        for r in self.ratings:
            if r.name == name:
                return r
        raise ArgumentError(f"name must be a bot of the ladder, got {name!r:.80}")

    def pair(self, a: str, b: str) -> Pair:
        """The pair ``a`` minus ``b`` (either order)."""
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
            if (p.b, p.a) == (a, b):
                flip = lambda e: Estimate(-e.mean, -e.high, -e.low, e.n)  # noqa: E731
                wins = Estimate(1 - p.wins.mean, 1 - p.wins.high, 1 - p.wins.low, p.wins.n)
                return Pair(a, b, flip(p.points), flip(p.went_out), wins, flip(p.laid_down))
        raise ArgumentError(
            f"a, b must be two bots of the ladder that played each other, got {a!r:.40}, {b!r:.40}"
        )

    def rows(self) -> list[dict]:
        """Long-form rows (bot, opponent or "rating", measure, value, ci_low, ci_high,
        n): a rating and its Elo per bot, and each pair played, its figures both ways."""
        out = []
        for r in self.ratings:
            out.append(_row(r.name, "rating", "bradley-terry", r.rating, r.low, r.high, self.deals))
            out.append(_row(r.name, "rating", "elo", *r.elo, self.deals))
        played = {(p.a, p.b) for p in self.pairs} | {(p.b, p.a) for p in self.pairs}
        for a in self.names:
            for b in self.names:
                if (a, b) in played:
                    p = self.pair(a, b)
                    for measure in ("points", "went_out", "laid_down", "wins"):
                        e = getattr(p, measure)
                        out.append(_row(a, b, measure, e.mean, e.low, e.high, e.n))
        return out

    def __str__(self) -> str:
        width = max(len(n) for n in self.names)
        lines = [
            f"Ladder of {len(self.names)} bots: {self.rules}, {self.players} players, "
            f"{self.deals} deals, {self.rounds} rounds a game, {self.games} games",
            f"rating: Bradley-Terry log-odds of scoring better in a duplicate pair, "
            f"{self.anchor} = 0; 95% interval: {self.bootstrap} bootstrap resamples of the deals",
            f"  {'bot':<{width}}  rating  95% interval       Elo",
        ]
        for r in self.ratings:
            span = "(anchor)" if r.name == self.anchor else f"[{r.low:+.2f}, {r.high:+.2f}]"
            lines.append(f"  {r.name:<{width}}  {r.rating:+6.2f}  {span:<16} {r.elo[0]:+5.0f}")
        lines.append("pairs (the first minus the second):")
        for p in self.pairs:
            lines.append(
                f"  {p.a} vs {p.b}: points per game better {p.points}; went out first "
                f"{difference_text(p.went_out.mean, p.went_out.low, p.went_out.high)}; "
                f"laid down by turn {self.turn} "
                f"{difference_text(p.laid_down.mean, p.laid_down.low, p.laid_down.high)}; "
                f"{p.a} scored better in "
                f"{estimate_text(min(max(p.wins.mean, p.wins.low), p.wins.high), p.wins.low, p.wins.high, of='duplicate pairs')}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(str(self)) + "</pre>"


def _row(bot, opponent, measure, value, low, high, n) -> dict:
    return {
        "bot": bot,
        "opponent": opponent,
        "measure": measure,
        "value": value,
        "ci_low": low,
        "ci_high": high,
        "n": n,
    }


def merge(
    roster,
    results,
    *,
    seed: int,
    bootstrap: int = 1000,
    prior: float = 1.0,
    anchor: str | None = None,
    pairs=None,
) -> Ladder:
    """The Ladder of the units played (in any order, anywhere): ``results`` must hold
    every unit of :func:`units` (``roster``, the deals they cover, ``seed``, ``pairs``)
    once, all played alike. ``bootstrap`` resamples; ``prior`` virtual ties per pair;
    ``anchor`` the bot rated 0 (default: the one GreedyBot, else the first name).

    >>> from rummykit.agents.bots import GreedyBot, RandomBot
    >>> roster = {"greedy": GreedyBot, "random": RandomBot}
    >>> done = [play_unit(roster, u, players=2, rounds=1) for u in units(roster, deals=2, seed=3)]
    >>> merge(roster, done[::-1], seed=3, bootstrap=20).games
    4
    """
    checked = _roster(roster)
    whole("seed", seed, low=0)
    whole("bootstrap", bootstrap, low=1, high=MAX_BOOTSTRAP)
    prior = _check_positive("prior", prior, 0)
    anchor = _anchor(checked, anchor)
    if not isinstance(results, (list, tuple)) or not results:
        raise ArgumentTypeError(
            f"results must be a non-empty list of UnitResult, got {results!r:.80}"
        )
    for r in results:
        if not isinstance(r, UnitResult):
            raise ArgumentTypeError(f"results must hold UnitResult (from play_unit), got {r!r:.80}")
    deals = 1 + max(r.unit.deal for r in results)
    if deals > 100_000:
        raise ArgumentError(f"results: a deal index {deals - 1} beyond the most deals")
    expected = units(checked, deals=deals, seed=seed, pairs=pairs)
    by_unit = {r.unit: r for r in results}
    if len(by_unit) != len(results) or set(by_unit) != set(expected):
        raise ArgumentError(
            "results must hold every unit of units(roster, deals, seed, pairs) once "
            f"({len(expected)} units for {deals} deals), got {len(results)}"
        )
    settings = {r.setting for r in results}
    if len(settings) != 1:
        raise ArgumentError("results: units played under different settings cannot be merged")
    setting = settings.pop()
    rules, players, rounds, turn = setting[:4]
    names = list(checked)
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    # Per deal: the win table; per pair: each deal's (points, went out, wins) differences.
    tables = [[[0.0] * k for _ in range(k)] for _ in range(deals)]
    per_pair: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    for u in expected:
        r = by_unit[u]
        i, j = index[u.a], index[u.b]
        won = 0.0
        for a_points, b_points, *_ in r.seats:
            result = 1.0 if a_points > b_points else 0.5 if a_points == b_points else 0.0
            tables[u.deal][i][j] += result
            tables[u.deal][j][i] += 1 - result
            won += result
        seats = len(r.seats)
        per_pair.setdefault((u.a, u.b), []).append(
            (
                sum(s[0] - s[1] for s in r.seats) / seats,
                sum(s[2] - s[3] for s in r.seats) / seats / rounds,
                won / seats,
                sum(s[4] - s[5] for s in r.seats) / seats / rounds,
            )
        )
    pairs = tuple(
        Pair(
            a,
            b,
            interval([d[0] for d in rows]),
            interval([d[1] for d in rows], (-1, 1)),
            interval([d[2] for d in rows], (0, 1)),
            interval([d[3] for d in rows], (-1, 1)),
        )
        for (a, b), rows in per_pair.items()
    )
    at = index[anchor]
    # The prior's virtual ties go to the pairs played only: a pair never played says
    # nothing of its bots, and ties there would pull their ratings together.
    virtual = [[0.0] * k for _ in range(k)]
    for a, b in per_pair:
        virtual[index[a]][index[b]] = virtual[index[b]][index[a]] = prior / 2

    def fit(chosen) -> list[float]:
        total = [
            [virtual[i][j] + sum(tables[d][i][j] for d in chosen) for j in range(k)]
            for i in range(k)
        ]
        return bradley_terry(total, anchor=at)

    point = fit(range(deals))
    # The bootstrap's seed string is data (the committed ladder was drawn with it), not a
    # module path: it keeps the module's old name.
    rng = random.Random(f"rummykit.ladder bootstrap {seed}")
    samples = [fit([rng.randrange(deals) for _ in range(deals)]) for _ in range(bootstrap)]
    ratings = []
    for i, name in enumerate(names):
        values = sorted(s[i] for s in samples)
        low = values[int(0.025 * (bootstrap - 1))]
        high = values[math.ceil(0.975 * (bootstrap - 1))]
        ratings.append(Rating(name, point[i], min(low, point[i]), max(high, point[i])))
    ratings.sort(key=lambda r: (-r.rating, r.name))
    return Ladder(
        names=tuple(names),
        anchor=anchor,
        rules=rules,
        players=players,
        rounds=rounds,
        turn=turn,
        deals=deals,
        games=sum(r.games for r in results),
        bootstrap=bootstrap,
        prior=prior,
        pairs=pairs,
        ratings=tuple(ratings),
    )


def ladder(
    roster,
    *,
    deals: int,
    seed: int,
    rules: RuleSet | str = "standard",
    players: int = 4,
    rounds: int | None = None,
    turn: int = 8,
    max_reshuffles: int | None = 3,
    turn_limit: int | None = None,
    max_actions: int = 100_000,
    bootstrap: int = 1000,
    prior: float = 1.0,
    anchor: str | None = None,
    pairs=None,
    progress: Callable[[int, int], None] | None = None,
) -> Ladder:
    """A ladder of the bots of ``roster`` (unique names to factories ``(seed) -> Bot``)
    on ``deals`` duplicate deals; see the module notes. ``rounds``: the first rounds of
    each game (default every round); the other options as in
    :func:`~rummykit.evaluate.duplicate.compare` and :func:`merge`; ``pairs`` the pairs played
    (:func:`schedule`, default all); ``progress(done, total)`` after each game. Everything is checked before any game is played.
    """
    checked = _roster(roster)
    rules, rounds, limits = setup(
        rules,
        players=players,
        deals=deals,
        seed=seed,
        rounds=rounds,
        turn=turn,
        max_reshuffles=max_reshuffles,
        turn_limit=turn_limit,
        max_actions=max_actions,
        progress=progress,
        hint="each deal plays 2 * players games per pair",
    )
    schedule(checked, pairs)
    whole("bootstrap", bootstrap, low=1, high=MAX_BOOTSTRAP)
    _check_positive("prior", prior, 0)
    _anchor(checked, anchor)  # checks the anchor (and that each factory makes a bot)
    for name, factory in checked.items():
        _made(name, factory, 0)
    work = units(checked, deals=deals, seed=seed, pairs=pairs)
    per_unit = players if players == 2 else 2 * players
    total, done = len(work) * per_unit, 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    results = [
        _play(checked, u, rules, players, rounds, turn, limits, max_actions, tick) for u in work
    ]
    return merge(
        checked, results, seed=seed, bootstrap=bootstrap, prior=prior, anchor=anchor, pairs=pairs
    )
