"""SearchBot on compiled rollouts: its decision time, and a duplicate comparison with GreedyBot.

One SearchBot (``--rollouts`` determinizations a decision, each candidate rolled out
once on each by GreedyBots, on the compiled core: rummykit.agents.rollouts.best_outcome)
at a table of ``standard`` with three GreedyBots, on ``--deals`` duplicate deals
(:func:`rummykit.evaluate.duplicate.compare`: the SearchBot in every seat of every deal,
against the GreedyBot that sat there), the first ``--rounds`` rounds of each game. Prints
the CPU time of every SearchBot decision (median, 90th and 99th percentiles, by phase),
the rollouts per CPU-second, the comparison, and last the issue's line (issue 29, item 5):

    searchbot: went out first X% [lo, hi] (25% if equal), points per game D [lo, hi]
    vs GreedyBot, median decision S s

CPU time of this process, one core. The measurement behind SearchBot's defaults (about
28 CPU minutes):

    .venv/bin/python benchmarks/bench_searchbot.py --deals 8 --rounds 7 --seed 29

    .venv/bin/python benchmarks/bench_searchbot.py [--deals N] [--rounds R] [--seed S]
        [--rollouts K] [--margin M] [--prior greedy|outs] [--pool P] [--out-bonus B]
        [--pair-margin M] [--rotate] [--late-pool P] [--late-from R] [--objective points|out]
        [--see] [--read] [--reads draws|buys ...] [--slip P] [--turns T] [--sweeps S]
        [--attempts A] [--part K/N --out F] [--merge F ... --out F] [--combine F ...] [--summary F ...]
        [--against F ...] [--deal-seeds S ...]

The options other than the budget are experiments, the benchmark's own and not
SearchBot's (:class:`TimedSearchBot` says what each does). ``--part K/N --out F`` plays
only the deals ``d`` with ``d % N == K`` of the ``--deals`` (each deal's seed as in the
whole run) and writes their figures to ``F``; ``--combine F ...`` prints the issue's line
of the parts together, the same as one process playing every deal, and ``--merge F ...
--out G`` writes them as one file. Two processes on two cores::

    for k in 0 1; do .venv/bin/python benchmarks/bench_searchbot.py --deals 8 --rounds 7 \
        --seed 29 --prior outs --part $k/2 --out /tmp/part$k.json & done; wait
    .venv/bin/python benchmarks/bench_searchbot.py --combine /tmp/part0.json /tmp/part1.json

``--read`` draws SearchBot's samples with :class:`~rummykit.agents.reading.ReadingSampler`
(issue 52, item 3, its first step): deals weighted by the chance that the opponents would
have played their last turns as they did, under the bots' own model, reading their draws
(as the committed ``--read`` runs did); ``--reads draws buys`` reads the choices named
(``buys``: the buy windows passed on since), ``--slip P`` softens the model,
``--turns T`` reads T turns of each opponent back (0: all), ``--sweeps S`` runs S Gibbs
sweeps where ``--attempts A`` whole deals were not kept (the sampler's options). Any of
them implies ``--read``.

``--see`` is a bound, not a player (issue 52, item 1): SearchBot's samples hold the
other seats' true hands (the table's own, read from the game being played) and only the
stock is shuffled, so it measures the most any better sampling of the hidden hands could
give (the stock's order is chance, which no reading of the opponents can know).

Every configuration tried, with its command and figures, is in ``benchmarks/README.md``
("SearchBot experiments").
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path

from bench_search_noise import rotated

import rummykit.evaluate.duplicate
from rummykit.agents.bots import GreedyBot, OutsBot
from rummykit.agents.reading import READS as READABLE
from rummykit.agents.reading import ReadingSampler
from rummykit.agents.rollouts import best_outcome
from rummykit.agents.searchbot import MARGIN, Decision, SearchBot
from rummykit.agents.weigh import LIMITS, clearly_better, paired_outcomes, seat_value
from rummykit.engine.actions import (
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
from rummykit.engine.game import GameState
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError
from rummykit.evaluate.duplicate import SeatRound, better_sign, compare, figures
from rummykit.evaluate.estimate import interval

#: Every SearchBot decision: (phase, CPU seconds, round). Module-level, so the copies that
#: compare() plays all record here.
DECISIONS: list[tuple[str, float, int]] = []
#: A reading bot's samples drawn, those that fell back to a plain determinization, and
#: the decisions in which it read some opponent.
READS = [0, 0, 0]
#: Every rollout's CPU seconds.
ROLLOUTS: list[float] = []
#: The table: SearchBot and three GreedyBots.
PLAYERS = 4
#: The options that name a part of the run, not how it is played (``deals``: deal ``d``'s
#: seed is the same whatever the number of deals).
PART_OPTIONS = frozenset({"part", "out", "combine", "merge", "summary", "against", "deal_seeds"})
#: Options added after runs were committed, and their values in those runs' play.
LATER_OPTIONS = {"reads": "None", "slip": "0.0", "turns": "1", "sweeps": "0", "attempts": "32"}


def timed_outcome(state, bots, rng):
    """:func:`~rummykit.agents.rollouts.best_outcome` (the points and the seat that went
    out), its CPU time kept in :data:`ROLLOUTS`."""
    start = time.process_time()
    outcome = best_outcome(state, bots, rng)
    ROLLOUTS.append(time.process_time() - start)
    return outcome


def led_by(view, first) -> list:
    """SearchBot's candidates at ``view`` with ``first`` first: the rule of
    :meth:`SearchBot.candidates <rummykit.agents.searchbot.SearchBot.candidates>`, which
    puts GreedyBot's choice first, with another bot's choice in its place (``--prior``)."""
    actions = view.legal_actions()
    if view.phase == "play":
        lay_offs = [a for a in actions if isinstance(a, LayOff)]
        chosen = [a for a in actions if isinstance(a, LayDown)]
        if lay_offs:
            chosen.append(max(lay_offs, key=lambda a: (view.rules.point_value(a.card), -a.meld)))
        chosen += [a for a in actions if isinstance(a, (Swap, Discard, EndTurn))]
    else:
        kinds = (DrawStock, TakeDiscard, Buy, Pass, Call, Discard)
        chosen = [a for a in actions if isinstance(a, kinds)]
    return [first] + [a for a in chosen if a != first]


class TimedSearchBot(SearchBot):
    """SearchBot with its decisions and rollouts timed, and the experiments of the flags.

    It weighs and chooses as :class:`~rummykit.agents.searchbot.SearchBot` does (the
    candidates' paired outcomes from :func:`~rummykit.agents.weigh.paired_outcomes`,
    GreedyBots rolling out on :func:`timed_outcome`; the best mean played if clearly
    better than the first candidate's), so that without an experiment it plays as
    SearchBot (``tests/test_bench_searchbot.py`` compares the two). The experiments, none
    of them SearchBot's own: ``prior`` (a bot maker whose choice comes first in place of
    GreedyBot's: the choice played without evidence), ``margin`` (in standard errors,
    :data:`~rummykit.agents.searchbot.MARGIN` unless told), ``pool`` (the rollouts a
    decision may spend in all: with ``c`` candidates it plays ``max(rollouts, pool // c)``
    samples), ``pair_margin`` (the margin of a decision between two candidates),
    ``late_pool`` (the pool from round ``late_from`` on), ``rotate`` (every branch's stock
    rotated, :func:`bench_search_noise.rotated`), ``objective`` (``"out"``: a rollout
    scores 1 if the seat goes out first, else 0), ``out_bonus`` (points added to the
    seat's outcome of a rollout in which it goes out), ``see`` (every sample holds the
    true hands of :attr:`table`, the game being played, and a shuffle of its stock: see
    :func:`seen`) and ``read`` (samples drawn by
    :class:`~rummykit.agents.reading.ReadingSampler`, its fallbacks counted in
    :data:`READS`; ``reads``, ``slip``, ``turns`` (0: every turn), ``sweeps`` and
    ``attempts`` are the sampler's, ``reads`` ``("draws",)`` unless told).

    Without evidence (one sample) it plays as its prior, GreedyBot or another; at a
    margin of 0 the best single rollout decides and play differs:

    >>> from rummykit.engine.game import Game
    >>> def first_round(bot, seed=21):
    ...     state = Game("standard", players=3, seed=seed, turn_limit=15).new_state()
    ...     bots = [bot, GreedyBot(), GreedyBot()]
    ...     while not state.round_scores:
    ...         state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    ...     return state.history
    >>> greedy = first_round(GreedyBot())
    >>> first_round(TimedSearchBot(1, rollouts=1)) == greedy
    True
    >>> first_round(TimedSearchBot(1, rollouts=1, margin=0)) != greedy
    True
    >>> outs = first_round(OutsBot(), seed=22)
    >>> outs != first_round(GreedyBot(), seed=22)
    True
    >>> first_round(TimedSearchBot(1, rollouts=1, prior=OutsBot), seed=22) == outs
    True

    A pool shares its rollouts among the candidates: ``max(rollouts, pool // c)`` samples
    for ``c`` candidates (a draw between two, a discard among many):

    >>> state = Game("standard", players=2, seed=3).new_state()
    >>> bot = TimedSearchBot(1, rollouts=3, pool=20)
    >>> counts = []
    >>> while len(counts) < 40:
    ...     action = bot.choose(state.view(state.to_act))
    ...     if len(bot.last.actions) > 1:
    ...         counts.append((len(bot.last.actions), bot.last.samples))
    ...     state.apply(action)
    >>> all(samples == max(3, 20 // c) for c, samples in counts)
    True
    >>> sorted({samples for _, samples in counts})[0], 10 in {s for _, s in counts}
    (3, True)

    With GreedyBot as its prior, :func:`led_by` is SearchBot's own list of candidates:

    >>> searcher, greedy_bot = SearchBot(), GreedyBot()
    >>> state = Game("standard", players=3, seed=5).new_state()
    >>> for _ in range(300):
    ...     view = state.view(state.to_act)
    ...     if len(view.legal_actions()) > 1:
    ...         assert led_by(view, greedy_bot.choose(view)) == searcher.candidates(view)
    ...     state.apply(greedy_bot.choose(view))
    ...     if state.round_scores:
    ...         break
    """

    #: The sampler's options when none is given: the committed ``--read`` runs'.
    READING = {"reads": ("draws",), "slip": 0.0, "turns": 1, "sweeps": 0, "attempts": 32}

    def __init__(
        self,
        seed=None,
        *,
        rollouts: int = 256,
        margin: float = MARGIN,
        prior=None,
        pool: int | None = None,
        pair_margin: float | None = None,
        late_pool: int | None = None,
        late_from: int = 4,
        rotate: bool = False,
        objective: str = "points",
        out_bonus: float = 0.0,
        see: bool = False,
        read: bool = False,
        reads: tuple[str, ...] | None = None,
        slip: float = 0.0,
        turns: int = 1,
        sweeps: int = 0,
        attempts: int = 32,
    ) -> None:
        super().__init__(seed, rollouts=rollouts)
        if see and rotate:
            raise ArgumentError("see, rotate: a seeing bot's samples are the table's, not rotated")
        if see and read:
            raise ArgumentError("see, read: a seeing bot's samples are the table's, not read")
        self.margin = margin
        self.prior = None if prior is None else prior()
        self.pool = pool
        self.pair_margin = pair_margin
        self.late_pool = late_pool
        self.late_from = late_from
        self.rotate = rotate
        self.objective = objective
        self.out_bonus = out_bonus
        self.see = see
        self.reading = {
            "reads": ("draws",) if reads is None else tuple(reads),
            "slip": slip,
            "turns": turns or None,
            "sweeps": sweeps,
            "attempts": attempts,
        }
        self.read = read or reads is not None or self.reading != TimedSearchBot.READING
        self.table: GameState | None = None
        """The game being played, for a bot that sees (:func:`seeing`)."""
        self.bots: list = []

    def __repr__(self) -> str:
        return f"SearchBot(rollouts={self.rollouts})"

    def candidates(self, view):
        if self.prior is None:
            return super().candidates(view)
        actions = view.legal_actions()
        return actions if len(actions) <= 1 else led_by(view, self.prior.choose(view))

    def value(self, points, out, view) -> float:
        """What a rollout's outcome (its ``points`` and the seat that went ``out``) is worth
        to the seat of ``view``: SearchBot's value, unless an experiment says otherwise."""
        if self.objective == "out":  # 1 if this seat went out in the rollout, else 0
            return float(out == view.seat)
        if self.out_bonus and out == view.seat:  # points are a penalty here: lower is better
            sign = -1 if view.rules.negative_scores else 1
            points = tuple(
                p - sign * self.out_bonus if s == out else p for s, p in enumerate(points)
            )
        return seat_value(points, view.seat, view.rules.negative_scores)

    def weigh(self, view, candidates, samples=None):
        """Each candidate's :meth:`value` on each of ``samples`` determinizations of
        ``view`` (``rollouts`` unless told), paired as SearchBot's are."""
        if len(self.bots) != len(view.names):
            self.bots = [GreedyBot() for _ in view.names]
        branch = rotated if self.rotate else None
        if self.see:
            branch = seen_branch(view, self.table)
        sampler = ReadingSampler(view, **self.reading, **LIMITS) if self.read else None
        weighed = paired_outcomes(
            view,
            candidates,
            rng=self.rng,
            play=timed_outcome,
            bots=self.bots,
            branch=branch,
            sampler=sampler,
        )
        values: list[list[float]] = [[] for _ in candidates]
        for results in itertools.islice(weighed, samples or self.rollouts):
            for number, (points, out) in enumerate(results):
                values[number].append(self.value(points, out, view))
        if sampler is not None:
            READS[0] += sampler.drawn
            READS[1] += sampler.fell_back
            READS[2] += bool(sampler.reading.checks)
        return values

    def choose(self, view):
        start, wall = time.process_time(), time.monotonic()
        candidates = self.candidates(view)
        if len(candidates) <= 1:
            action = super().choose(view)
        else:
            late = self.late_pool is not None and view.round >= self.late_from
            pool = self.late_pool if late else self.pool
            budget = self.rollouts if pool is None else max(self.rollouts, pool // len(candidates))
            pair = self.pair_margin is not None and len(candidates) == 2
            margin = self.pair_margin if pair else self.margin
            values = self.weigh(view, candidates, budget)
            samples = len(values[0])
            means = tuple(sum(v) / samples for v in values)
            best = max(range(len(candidates)), key=lambda n: (means[n], -n))
            if best and not clearly_better(values[best], values[0], margin):
                best = 0
            action = candidates[best]
            seconds = time.monotonic() - wall
            self.last = Decision(tuple(candidates), means, samples, seconds, action)
        DECISIONS.append((view.phase, time.process_time() - start, view.round))
        return action


def seen(view, table: GameState, sample: GameState) -> GameState:
    """The state a seeing bot rolls out from in place of ``sample`` (a determinization of
    ``view``): ``table``'s true hands, its stock's cards shuffled by the sample's own seed,
    and the sample's game (its seeds, its limits). ``table`` must be the game ``view``
    was taken from, at that moment.

    >>> from rummykit.engine.game import Game
    >>> from rummykit.agents.determinize import determinize
    >>> table = Game("standard", players=3, seed=7).new_state()
    >>> view = table.view(0)
    >>> state = seen(view, table, determinize(view, 1))
    >>> state.hands[1:] == table.hands[1:], sorted(state.stock) == sorted(table.stock)
    (True, True)
    >>> state.view(0) == view, state.stock != table.stock
    (True, True)
    >>> table.apply(table.legal_actions()[0])
    >>> seen(view, table, determinize(view, 1))
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: table: not the game this view was taken from, or not at that moment
    """
    _check_table(view, table)
    return _seen(view, table, sample)


def _check_table(view, table: GameState | None) -> None:
    if table is None or table.view(view.seat) != view:
        raise ArgumentError("table: not the game this view was taken from, or not at that moment")


def _seen(view, table: GameState, sample: GameState) -> GameState:
    hands = [
        list(view.hand) if seat == view.seat else list(hand)
        for seat, hand in enumerate(table.hands)
    ]
    stock = list(table.stock)
    random.Random(sample.game.seed).shuffle(stock)
    return GameState.from_view(view, hands, stock, sample.game)


def seen_branch(view, table: GameState):
    """A ``branch`` for :func:`~rummykit.agents.weigh.paired_outcomes`: each sample
    replaced by :func:`seen` (once a sample: every candidate on the same state), a copy
    of it with the candidate played."""
    _check_table(view, table)
    last: list = [None, None]

    def branch(sample, action):
        if last[0] is not sample:
            last[:] = [sample, _seen(view, table, sample)]
        state = last[1].clone()
        state.apply(action)
        return state

    return branch


def seeing(play_round):
    """``duplicate._play_round`` telling each :class:`TimedSearchBot` of a round the game
    it plays (its :attr:`~TimedSearchBot.table`) before the round is played."""

    def play(state, bots, max_actions):
        for bot in bots:
            if isinstance(bot, TimedSearchBot):
                bot.table = state
        return play_round(state, bots, max_actions)

    return play


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


PRIORS = {"greedy": GreedyBot, "outs": OutsBot}


def issue_line(out, points, median: float, seat_rounds: int | None = None) -> str:
    """The issue's line (issue 29 item 5, issue 52 item 4) from the going-out rate and
    points estimates, the median decision and the SearchBot seat-rounds behind them."""
    line = (
        f"searchbot: went out first {100 * out.mean:.1f}% [{100 * out.low:.1f}, "
        f"{100 * out.high:.1f}] (25% if equal), points per game {points.mean:+.1f} "
        f"[{points.low:+.1f}, {points.high:+.1f}] vs GreedyBot, median decision "
        f"{median:.3f} s"
    )
    return line if seat_rounds is None else f"{line}, {seat_rounds:,} seat-rounds"


def read_parts(paths: list[Path]) -> list[dict]:
    """The ``--out`` files of processes that each played a part, checked: no deal twice,
    every part played with the same options."""
    parts = [json.loads(path.read_text()) for path in paths]
    deals = [d for part in parts for d in part["deals"]]
    if len(set(deals)) != len(deals) or len({played_with(part) for part in parts}) != 1:
        raise SystemExit("the parts overlap or were played with other options")
    return parts


def played_with(part: dict) -> tuple:
    """The options a part was played with, as a sorted tuple of ``name=value``: those of its
    file less ``deals`` (it names which deals, as ``--part`` does), an option added since
    its run at the value its play had."""
    named = dict(item.split("=", 1) for item in re.split(r" (?=\w+=)", part["options"]))
    named.pop("deals", None)
    return tuple(sorted({**LATER_OPTIONS, **named}.items()))


def combine(paths: list[Path]) -> None:
    """The issue's line from the ``--out`` files' per-deal figures."""
    parts = read_parts(paths)
    deals = sorted(d for part in parts for d in part["deals"])
    rows = [row for part in parts for row in part["per_deal"]]
    times = sorted(t for part in parts for t in part["times"])
    print(f"{parts[0]['options']}: deals {deals}, {len(times)} decisions, CPU s median "
          f"{statistics.median(times):.3f}, p99 {quantile(times, 0.99):.3f}")  # fmt: skip
    out = interval([row["rate"] for row in rows], (0, 1))
    print(issue_line(out, interval([row["points"] for row in rows]), statistics.median(times)))


def merge(paths: list[Path], out: Path) -> None:
    """Write the ``--out`` files of one run's parts (:func:`read_parts`: played alike;
    started with the same ``--deals``) as one file, its deals in order: what
    ``--summary`` reads of them is unchanged."""
    parts = read_parts(paths)
    if len({re.search(r"\bdeals=(\d+)", part["options"])[1] for part in parts}) != 1:
        raise SystemExit("--merge: the parts were started with other --deals")
    deals = sorted(
        (deal, row)
        for part in parts
        for deal, row in zip(part["deals"], part["per_deal"], strict=True)
    )  # (a deal is in one part only: rows never compare)
    merged = {
        # The options as the newest part names them (options added since count at the
        # value the older parts' play had: read_parts checked it).
        "options": max((part["options"] for part in parts), key=lambda o: o.count("=")),
        "deals": [deal for deal, _ in deals],
        "per_deal": [row for _, row in deals],
        "times": [t for part in parts for t in part["times"]],
        "seat_rounds": sorted(
            (row for part in parts for row in part["seat_rounds"]),
            key=lambda row: row["record"]["deal"],
        ),
    }
    out.write_text(json.dumps(merged))
    print(f"{len(parts)} parts, deals {merged['deals']}: {out}")


def summary(paths: list[Path], against: list[Path] | None = None) -> None:
    """The issue's line recomputed from the ``--out`` files' seat-rounds
    (:func:`rummykit.evaluate.duplicate.figures`, as the comparison computed it) and the
    decisions' CPU seconds kept with each SearchBot seat-round; with ``against`` (the
    files of another run), first the paired differences of :func:`versus`."""
    parts = read_parts(paths)
    records = seat_rounds_of(parts)
    times = [t for part in parts for row in part["seat_rounds"] for t in row["decisions"]]
    found = figures(records, "standard")
    mine = sum(record.bot == "a" for record in records)
    print(f"{parts[0]['options']}: {len(found['per_deal'])} deals, {mine:,} SearchBot "
          f"seat-rounds, {len(times):,} decisions, CPU s median {statistics.median(times):.3f}, "
          f"p99 {quantile(times, 0.99):.3f}")  # fmt: skip
    for line in by_round(records):
        print(line)
    if against:
        for line in versus(records, seat_rounds_of(read_parts(against))):
            print(line)
    print(issue_line(found["went_out_a"], found["points"], statistics.median(times), mine))


def seat_rounds_of(parts: list[dict]) -> list[SeatRound]:
    """The seat-rounds of ``--out`` files' parts (of one run, :func:`read_parts`)."""
    if any("seat_rounds" not in part for part in parts):
        raise SystemExit("a part without seat-rounds (written before they were kept)")
    return [SeatRound.from_dict(row["record"]) for part in parts for row in part["seat_rounds"]]


def versus(mine: list[SeatRound], theirs: list[SeatRound]) -> list[str]:
    """Two SearchBot runs on the same deals, seat-round by seat-round (the seat-rounds of
    SearchBot's seat both runs played: the same deal, seat and round, the same GreedyBots
    around it): the paired difference of going out first and of points (``mine`` minus
    ``theirs``), by round and in all, each with its 95% interval over the deals (a deal's
    mean over its seat-rounds)."""
    sign = better_sign(RuleSet.preset("standard"))
    a = {(r.deal_seed, r.seat, r.round): r for r in mine if r.bot == "a"}
    b = {(r.deal_seed, r.seat, r.round): r for r in theirs if r.bot == "a"}
    both = sorted(set(a) & set(b))
    if not both:
        raise SystemExit("--against: the two runs share no seat-round (other deals?)")
    lines = []
    for number in [*sorted({key[2] for key in both}), None]:
        keys = [key for key in both if number is None or key[2] == number]
        deals: dict[int, list[tuple[float, float]]] = defaultdict(list)
        for key in keys:
            diff = (a[key].went_out - b[key].went_out, sign * (a[key].points - b[key].points))
            deals[key[0]].append(diff)
        out, points = over_deals(deals)
        share_a = 100 * sum(a[key].went_out for key in keys) / len(keys)
        share_b = 100 * sum(b[key].went_out for key in keys) / len(keys)
        where = "in all" if number is None else f"round {number}"
        lines.append(
            f"  versus, {where}: {len(keys):,} seat-rounds ({len(deals)} deals), went out first "
            f"{share_a:.1f}% vs {share_b:.1f}%, difference {out.mean:+.1f} pp [{out.low:+.1f}, "
            f"{out.high:+.1f}], points a round {points.mean:+.2f} [{points.low:+.2f}, "
            f"{points.high:+.2f}]"
        )
    return lines


def over_deals(deals: dict) -> tuple:
    """The 95% intervals over the deals of going out first (in points, times 100) and of
    points, from each deal's list of paired (went out, points) differences (a deal's mean
    over its list)."""
    rows = [[sum(col) / len(pairs) for col in zip(*pairs, strict=True)] for pairs in deals.values()]
    return interval([100 * row[0] for row in rows]), interval([row[1] for row in rows])


def by_round(records: list[SeatRound]) -> list[str]:
    """A line per round of the seat-rounds: SearchBot's share of going out first and
    GreedyBot's in the same seats (the baseline), their paired difference and the points
    a round better, each difference with its 95% interval over the deals (the mean over a
    deal's seats, as the comparison takes it)."""
    sign = better_sign(RuleSet.preset("standard"))
    kept = {(r.deal, r.seat, r.round, r.bot): r for r in records}
    lines = []
    for number in sorted({r.round for r in records}):
        deals: dict[int, list[tuple[float, float]]] = defaultdict(list)
        shares = {"a": [], "b": []}
        for (deal, seat, at, bot), record in sorted(kept.items()):
            if at != number or bot != "a":
                continue
            base = kept[deal, seat, at, "b"]
            shares["a"].append(record.went_out)
            shares["b"].append(base.went_out)
            deals[deal].append(
                (record.went_out - base.went_out, sign * (record.points - base.points))
            )
        out, points = over_deals(deals)
        n = len(shares["a"])
        lines.append(
            f"  round {number}: {n} seat-rounds ({len(deals)} deals), SearchBot out first "
            f"{100 * sum(shares['a']) / n:.1f}%, GreedyBot {100 * sum(shares['b']) / n:.1f}%, "
            f"difference {out.mean:+.1f} pp [{out.low:+.1f}, {out.high:+.1f}], points a "
            f"round {points.mean:+.1f} [{points.low:+.1f}, {points.high:+.1f}]"
        )
    return lines


def seat_round_rows(result, deals: list[int], decisions: dict) -> list[dict]:
    """Every seat-round of ``result`` as kept in an ``--out`` file: its record (the deal
    numbered as in the whole run, ``deals``) and, for SearchBot's, the CPU seconds of its
    decisions (``decisions`` by (deal, seat, round), as played)."""
    rows = []
    for record in result.seat_rounds:
        data = record.to_dict()
        data["deal"] = deals[record.deal]
        times = (
            decisions.get((record.deal, record.seat, record.round), []) if record.bot == "a" else []
        )
        rows.append({"record": data, "decisions": [round(t, 5) for t in times]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2, help="duplicate deals (default 2)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds a game (default 7)")
    parser.add_argument(
        "--rollouts", type=int, default=256, help="samples a decision (default 256, SearchBot's)"
    )
    parser.add_argument("--margin", type=float, default=None, help="SearchBot's margin")
    parser.add_argument("--pool", type=int, default=None, help="SearchBot's pool")
    parser.add_argument(
        "--pair-margin", type=float, default=None, help="the margin between two candidates"
    )
    parser.add_argument("--rotate", action="store_true", help="rotate each branch's stock")
    parser.add_argument(
        "--late-pool", type=int, default=None, help="SearchBot's pool from --late-from on"
    )
    parser.add_argument("--late-from", type=int, default=4, help="the round --late-pool starts")
    parser.add_argument(
        "--objective",
        choices=["points", "out"],
        default="points",
        help="what a rollout scores: SearchBot's points (default) or 1 if it goes out",
    )
    parser.add_argument("--prior", choices=sorted(PRIORS), help="SearchBot's prior")
    parser.add_argument(
        "--read", action="store_true", help="samples that read the opponents (ReadingSampler)"
    )
    parser.add_argument(
        "--reads",
        nargs="+",
        choices=READABLE,
        help="with --read: the choices read (default: draws, as the committed --read runs)",
    )
    parser.add_argument(
        "--slip", type=float, default=0.0, help="with --read: the reading model's slip"
    )
    parser.add_argument("--turns", type=int, default=1, help="with --read: turns read (0: all)")
    parser.add_argument("--sweeps", type=int, default=0, help="with --read: Gibbs sweeps")
    parser.add_argument(
        "--attempts", type=int, default=32, help="with --read: whole deals tried first"
    )
    parser.add_argument(
        "--see",
        action="store_true",
        help="a bound: samples hold the other seats' true hands (the stock shuffled)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--out-bonus", type=float, default=0.0, help="points added for going out (experiment)"
    )
    parser.add_argument(
        "--part", default=None, help="K/N: play only every deal d with d %% N == K (0-based)"
    )
    parser.add_argument("--out", type=Path, help="write this part's figures here (JSON)")
    parser.add_argument("--combine", type=Path, nargs="+", help="only combine --out files")
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="only merge one run's --out files into --out"
    )
    parser.add_argument(
        "--summary",
        type=Path,
        nargs="+",
        help="only print the issue's line from the seat-rounds of --out files",
    )
    parser.add_argument(
        "--against",
        type=Path,
        nargs="+",
        help="with --summary: another run's --out files, compared seat-round by seat-round",
    )
    parser.add_argument(
        "--deal-seeds",
        type=int,
        nargs="+",
        help="play these deals (their seeds, as an --out file keeps them) in place of --deals",
    )
    args = parser.parse_args()
    if args.combine:
        combine(args.combine)
        return
    if args.merge:
        if args.out is None:
            raise SystemExit("--merge: say where with --out")
        merge(args.merge, args.out)
        return
    if args.summary:
        summary(args.summary, args.against)
        return
    options = {
        "margin": MARGIN if args.margin is None else args.margin,
        "prior": None if args.prior is None else PRIORS[args.prior],
        "pool": args.pool,
        "pair_margin": args.pair_margin,
        "late_pool": args.late_pool,
        "late_from": args.late_from,
        "rotate": args.rotate,
        "objective": args.objective,
        "out_bonus": args.out_bonus,
        "see": args.see,
        "read": args.read,
        "reads": args.reads,
        "slip": args.slip,
        "turns": args.turns,
        "sweeps": args.sweeps,
        "attempts": args.attempts,
    }
    if args.see:
        duplicate = rummykit.evaluate.duplicate
        duplicate._play_round = seeing(duplicate._play_round)
    chosen = list(range(args.deals))
    if args.deal_seeds is not None:
        if args.part is not None:
            raise SystemExit("--deal-seeds: the deals are given, --part has nothing to split")
        chosen = list(range(len(args.deal_seeds)))
        rummykit.evaluate.duplicate.deal_seeds = lambda rng, _: list(args.deal_seeds)
    if args.part is not None:
        k, n = (int(x) for x in args.part.split("/"))
        chosen = [d for d in chosen if d % n == k]
        every = rummykit.evaluate.duplicate.deal_seeds

        def some(rng, _):
            # The deals are those of the whole run: deal d's seed is the same in every part.
            seeds = every(rng, args.deals)
            return [seeds[d] for d in chosen]

        rummykit.evaluate.duplicate.deal_seeds = some
    bot = TimedSearchBot(args.seed, rollouts=args.rollouts, **options)
    # Each SearchBot game's decisions, by (deal, seat, round) as compare() numbers them:
    # compare() plays a deal's baseline, then its seats in turn, and reports after each
    # seat's game (the baseline, GreedyBots only, decides nothing of SearchBot's).
    decisions: dict[tuple[int, int, int], list[float]] = defaultdict(list)
    kept = [0]

    def progress(done: int, total: int) -> None:
        deal, seat = divmod(done - 2, PLAYERS + 1)
        for _, seconds, number in DECISIONS[kept[0] :]:
            decisions[deal, seat, number].append(seconds)
        kept[0] = len(DECISIONS)
        print(f"  game {done}/{total}", flush=True)

    start = time.process_time()
    result = compare(
        bot,
        GreedyBot(),
        deals=len(chosen),
        rules="standard",
        players=PLAYERS,
        rounds=args.rounds,
        seed=args.seed,
        progress=progress,
    )
    cpu = time.process_time() - start
    times = [seconds for _, seconds, _ in DECISIONS]
    print(
        f"SearchBot(rollouts={args.rollouts}), standard, 4 players: {len(times)} decisions, "
        f"CPU s median {statistics.median(times):.3f}, p90 {quantile(times, 0.9):.3f}, "
        f"p99 {quantile(times, 0.99):.3f}, max {max(times):.3f}"
    )
    by_phase = defaultdict(list)
    for phase, seconds, _ in DECISIONS:
        by_phase[phase].append(seconds)
    for phase, values in sorted(by_phase.items()):
        print(f"  {phase:>12}: {len(values):5} decisions, median {statistics.median(values):.3f} s")
    print(
        f"rollouts: {len(ROLLOUTS)}, {len(ROLLOUTS) / sum(ROLLOUTS):.0f} per CPU-second "
        f"(median {1000 * statistics.median(ROLLOUTS):.1f} ms); benchmark CPU {cpu:.0f} s"
    )
    print(result)
    if args.read:
        print(f"reading: {READS[2]:,} decisions read some opponent; {READS[0]:,} samples, "
              f"{READS[1]:,} fell back to a plain determinization")  # fmt: skip
    if args.out is not None:
        # GreedyBot's rate in a seat is the same in every deal (one going out a round,
        # shared by four seats) unless a round ends with nobody out: then it is refused.
        if result.went_out_b.low != result.went_out_b.high:
            raise SystemExit("--out: GreedyBot's rate differs between deals")
        part = {
            # Every option but those naming this part, so --combine refuses parts played
            # with any other option, including ones added later.
            "options": " ".join(
                f"{name}={value}"
                for name, value in sorted(vars(args).items())
                if name not in PART_OPTIONS
            ),
            "deals": chosen,
            "per_deal": [
                {"points": row[0], "rate": result.went_out_b.mean + row[1]}
                for row in result.per_deal
            ],
            "times": times,
            "seat_rounds": seat_round_rows(result, chosen, decisions),
        }
        args.out.write_text(json.dumps(part))
    mine = sum(record.bot == "a" for record in result.seat_rounds)
    print(issue_line(result.went_out_a, result.points, statistics.median(times), mine))


if __name__ == "__main__":
    main()
