"""Duplicate evaluation: two bots compared on the same deals, every seat of every deal.

As duplicate bridge removes the luck of the cards, :func:`compare` plays each deal once
with ``bot_b`` in every seat (the baseline) and once per seat with ``bot_a`` in that
seat and ``bot_b`` in the others, then compares ``bot_a`` with the ``bot_b`` that sat in
the same seat of the same deal. Each figure is a paired difference, averaged over the
seats of a deal, with a 95% interval over the deals (Student's t).

>>> from rummykit.agents.bots import GreedyBot, RandomBot
>>> result = compare(GreedyBot(), RandomBot(), deals=4, players=2, rounds=1, seed=1)
>>> result.points.mean > 0, result.deals, result.games
(True, 4, 12)
>>> compare(GreedyBot(), GreedyBot(), deals=3, players=2, rounds=1, seed=1).points.mean
0.0

What is the same in the paired games: each round of a deal is dealt from its own seed
(a fresh :class:`~rummykit.engine.game.Game` per round, the dealer moving on as in a game), so
reshuffles or a buy lottery in one round never change the next round's cards; each
seat's bot gets a generator seeded by the deal and the seat, whichever bot sits there.
So a bot compared with a copy of itself plays every paired game identically, and every
difference is exactly 0. Under ``repeat_missed_contract`` the contracts carry from round
to round as in a game.

The figures (``bot_a`` minus ``bot_b`` in the same seat, signed so that positive means
``bot_a`` did better):

* ``points``: points per game (the rounds played) better than the baseline;
* ``went_out``: share of rounds the seat went out first;
* ``laid_down``: share of rounds the seat laid down its contract within its first
  ``turn`` turns;

and :attr:`Comparison.went_out_a` / ``went_out_b``, each bot's own share of rounds won
(``1 / players`` if they are equal). :attr:`Comparison.seat_rounds` keeps every seat-round
the figures come from (:class:`SeatRound`), so that they can be kept, recomputed
(:func:`figures`) and looked at round by round:

>>> result = compare(GreedyBot(), RandomBot(), deals=2, players=2, rounds=2, seed=1)
>>> len(result.seat_rounds)   # per deal: the baseline's 2 seats x 2 rounds, then bot_a's
16
>>> again = figures(result.seat_rounds, result.rules)
>>> again["points"] == result.points, again["per_deal"] == result.per_deal
(True, True)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rummykit.agents.bots import Bot
from rummykit.chance import chance_text, difference_text, estimate_text
from rummykit.engine.checks import whole
from rummykit.engine.game import Game, GameState
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.estimate import Estimate, interval

# (Estimate and interval, imported here from rummykit.evaluate.estimate, their one home and
# reference page, stay importable from this module as before.)
__all__ = ["Comparison", "SeatRound", "compare", "figures"]

#: The most deals :func:`compare` plays (each is ``players + 1`` whole games).
MAX_DEALS = 100_000


@dataclass(frozen=True)
class SeatRound:
    """One seat's round of a duplicate game: what :func:`compare` compares, kept whole."""

    deal: int
    """The deal's number in the comparison (0 first)."""
    deal_seed: int
    """The deal's seed: playing it again gives the same seat-rounds."""
    seat: int
    round: int
    """The round's number in the game (1 first)."""
    bot: str
    """``"a"`` (``bot_a`` in this seat, ``bot_b`` in the others) or ``"b"`` (the
    baseline: ``bot_b`` in every seat)."""
    points: int
    """The seat's points of the round (as scored: a penalty unless the rules' scores are
    negative)."""
    went_out: bool
    """Whether the seat went out first."""
    laid_down: int
    """The seat's turn when it laid down its contract, 0 if it never did."""

    def to_dict(self) -> dict:
        """As plain data (JSON-ready); :meth:`from_dict` reads it back."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: dict) -> SeatRound:
        """The seat-round of :meth:`to_dict`'s data, every field checked."""
        if not isinstance(data, dict) or set(data) != set(cls.__dataclass_fields__):
            raise ArgumentError(
                f"a seat-round has the fields {', '.join(cls.__dataclass_fields__)}, got {data!r:.120}"
            )
        for name in ("deal", "deal_seed", "seat", "round", "points", "laid_down"):
            if type(data[name]) is not int:
                raise ArgumentTypeError(f"seat-round {name} must be an integer, got {data[name]!r}")
        if data["bot"] not in ("a", "b") or type(data["went_out"]) is not bool:
            raise ArgumentError(
                f"seat-round bot must be 'a' or 'b' and went_out a bool, got {data!r:.120}"
            )
        return cls(**data)


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare` (see the module notes for each figure)."""

    bot_a: str
    bot_b: str
    rules: str
    players: int
    deals: int
    rounds: int
    """Rounds per game."""
    turn: int
    """The turn of ``laid_down``."""
    games: int
    """Games played (the baseline and one per seat, per deal)."""
    points: Estimate
    went_out: Estimate
    laid_down: Estimate
    went_out_a: Estimate
    went_out_b: Estimate
    per_deal: tuple[tuple[float, float, float], ...]
    """Each deal's (points, went_out, laid_down) differences."""
    seat_rounds: tuple[SeatRound, ...] = ()
    """Every seat-round played: per deal the baseline's (every seat, every round), then
    ``bot_a``'s seat of each of its games."""

    def to_dict(self) -> dict:
        """As plain data (JSON-ready)."""
        out = {
            name: getattr(self, name)
            for name in ("bot_a", "bot_b", "rules", "players", "deals", "rounds", "turn", "games")
        }
        for name in ("points", "went_out", "laid_down", "went_out_a", "went_out_b"):
            out[name] = getattr(self, name).to_dict()
        out["per_deal"] = [list(row) for row in self.per_deal]
        return out

    def __str__(self) -> str:
        return "\n".join(
            [
                f"{self.bot_a} vs {self.bot_b}: {self.rules}, {self.players} players, "
                f"{self.deals} deals x {self.players} seats, {self.rounds} rounds a game",
                f"points per game better: {self.points}",
                f"went out first: {_share(self.went_out_a)} vs {_share(self.went_out_b)} "
                f"({chance_text(Fraction(1, self.players))} if equal), difference "
                f"{_points(self.went_out)}",
                f"laid down by turn {self.turn}: difference {_points(self.laid_down)}",
            ]
        )

    def _repr_html_(self) -> str:
        import html

        return "<pre>" + html.escape(str(self)) + "</pre>"


def _share(e: Estimate) -> str:
    # (A share of 0 or 1 has its interval clipped to [0, 1], and a mean equal to an end
    # may differ from it in the last bit.)
    return estimate_text(min(max(e.mean, e.low), e.high), e.low, e.high, of="rounds")


def _points(e: Estimate) -> str:
    return difference_text(e.mean, e.low, e.high)


def _fresh(bot: Bot, seed: int) -> Bot:
    """A copy of ``bot`` with its generator seeded (bots are stateful)."""
    other = copy.deepcopy(bot)
    if isinstance(getattr(other, "rng", None), random.Random):
        other.rng = random.Random(seed)
    return other


def _play_round(state: GameState, bots: list, max_actions: int) -> None:
    for _ in range(max_actions):
        if state.round_scores:
            return
        seat = state.to_act
        state.apply(bots[seat].choose(state.view(seat)))
    raise ArgumentError(f"max_actions: a round did not end within {max_actions:,} actions")


def seated_rounds(
    rules, players, deal_seed, makers, limits, rounds, max_actions
) -> list[list[tuple[int, bool, int]]]:
    """Play one duplicate game of the deal ``deal_seed``, seat ``s``'s bot made by
    ``makers[s](seed)`` from a seed of the deal and the seat (whichever bot sits there);
    per seat, per round, (points, went out first, the turn of the seat's lay-down or 0 if
    it never laid down). The arguments are those :func:`setup` checked."""
    chance = random.Random(deal_seed)
    round_seeds = [chance.getrandbits(63) for _ in range(rounds)]
    dealer = chance.randrange(players)
    bot_seeds = [chance.getrandbits(63) for _ in range(players)]
    bots = [make(seed) for make, seed in zip(makers, bot_seeds, strict=True)]
    played: list[list[tuple[int, bool, int]]] = [[] for _ in range(players)]
    scores = [0] * players
    contracts = None
    for number in range(rounds):
        game = Game(rules, players=players, seed=round_seeds[number], **limits)
        state = game.new_state(round=number + 1, dealer=(dealer + number) % players, scores=scores)
        if contracts is not None:
            state.contract_index = list(contracts)
        _play_round(state, bots, max_actions)
        result = state.results[0]
        turns = [0] * players
        down = [0] * players
        for event in state.log:
            if event.kind in ("draw stock", "take discard"):
                turns[event.seat] += 1
            elif event.kind == "lay down" and not down[event.seat]:
                down[event.seat] = turns[event.seat]
        for seat in range(players):
            played[seat].append((result.points[seat], result.went_out == seat, down[seat]))
        scores = list(state.scores)
        contracts = state.contract_index
    return played


def seated_game(
    rules, players, deal_seed, makers, limits, rounds, turn, max_actions
) -> list[tuple]:
    """:func:`seated_rounds` summed per seat: (points, rounds went out first, rounds laid
    down by ``turn``, and per round the turn of the seat's lay-down, 0 if it never laid
    down). Shared with :mod:`rummykit.evaluate.ladder`."""
    played = seated_rounds(rules, players, deal_seed, makers, limits, rounds, max_actions)
    return [
        (
            sum(points for points, _, _ in mine),
            sum(out for _, out, _ in mine),
            sum(0 < down <= turn for _, _, down in mine),
            tuple(down for _, _, down in mine),
        )
        for mine in played
    ]


def setup(
    rules: RuleSet | str,
    *,
    players: int,
    deals: int,
    seed: int,
    rounds: int | None,
    turn: int,
    max_reshuffles: int | None,
    turn_limit: int | None,
    max_actions: int,
    progress: Callable | None,
    hint: str,
) -> tuple[RuleSet, int, dict]:
    """The options of a duplicate run checked (each refusal names its field, ``hint``
    the cost of a deal): the rules, the rounds a game (None: every round) and the
    limits of each round. Shared with :mod:`rummykit.evaluate.ladder`."""
    if isinstance(rules, str):
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet or a preset name, got {rules!r}")
    whole("players", players, low=rules.min_players, high=rules.max_players)
    rules.check_players(players)
    whole("deals", deals, low=1, high=MAX_DEALS, hint=hint)
    whole("seed", seed, low=0)
    whole("turn", turn, low=1)
    whole("max_actions", max_actions, low=1)
    if rounds is None:
        rounds = rules.rounds
    whole("rounds", rounds, low=1, high=rules.rounds)
    limits = {"max_reshuffles": max_reshuffles, "turn_limit": turn_limit}
    Game(rules, players=players, seed=0, **limits)  # checks the limits
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be None or a callable, got {progress!r}")
    return rules, rounds, limits


def better_sign(rules: RuleSet) -> int:
    """+1 if more points are better under ``rules``, else -1 (points are penalties)."""
    return 1 if rules.negative_scores else -1


def deal_seeds(rng: random.Random, deals: int) -> list[int]:
    """The seeds of ``deals`` deals drawn from ``rng`` (deal ``i`` the same whatever
    is played with it)."""
    return [rng.getrandbits(63) for _ in range(deals)]


def compare(
    bot_a: Bot,
    bot_b: Bot,
    *,
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
) -> Comparison:
    """Compare ``bot_a`` with ``bot_b`` on ``deals`` duplicate deals (see the module notes).

    ``rounds``: the first rounds of each game (default every round); ``turn``: the turn
    of the laid-down figure; ``max_reshuffles`` and ``turn_limit``: each round's limits
    (:class:`~rummykit.engine.game.Game`); ``progress(done, total)`` is called after each game.
    Reproducible from ``seed``; the bots given are copied, never played.
    """
    for name, bot in (("bot_a", bot_a), ("bot_b", bot_b)):
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentTypeError(f"{name} must be a bot with choose(view), got {bot!r}")
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
        hint="each deal plays players + 1 games",
    )
    rng = random.Random(seed)
    total, done = deals * (players + 1), 0
    make_a, make_b = (lambda s: _fresh(bot_a, s)), (lambda s: _fresh(bot_b, s))
    seat_rounds: list[SeatRound] = []
    for deal, deal_seed in enumerate(deal_seeds(rng, deals)):
        args = (rules, players, deal_seed)
        rest = (limits, rounds, max_actions)

        base = seated_rounds(*args, [make_b] * players, *rest)
        done += 1
        for seat in range(players):
            seat_rounds += _records(deal, deal_seed, seat, "b", base[seat])
        for seat in range(players):
            seats = [make_a if s == seat else make_b for s in range(players)]
            played = seated_rounds(*args, seats, *rest)[seat]
            seat_rounds += _records(deal, deal_seed, seat, "a", played)
            done += 1
            if progress is not None:
                progress(done, total)
    return Comparison(
        bot_a=repr(bot_a),
        bot_b=repr(bot_b),
        rules=rules.name,
        players=players,
        deals=deals,
        rounds=rounds,
        turn=turn,
        games=total,
        **figures(seat_rounds, rules, turn=turn),
        seat_rounds=tuple(seat_rounds),
    )


def _records(deal: int, deal_seed: int, seat: int, bot: str, played: list) -> list[SeatRound]:
    return [
        SeatRound(deal, deal_seed, seat, number, bot, points, out, down)
        for number, (points, out, down) in enumerate(played, start=1)
    ]


def figures(seat_rounds, rules: RuleSet | str, *, turn: int = 8) -> dict:
    """The figures of :class:`Comparison` (``points``, ``went_out``, ``laid_down``,
    ``went_out_a``, ``went_out_b``, ``per_deal``) from its :class:`SeatRound` records,
    those of :attr:`Comparison.seat_rounds` or records kept and read back: :func:`compare`
    makes its own this way. Every deal needs the baseline's seat-rounds and ``bot_a``'s,
    for every seat and round.

    >>> from rummykit.agents.bots import GreedyBot, RandomBot
    >>> result = compare(GreedyBot(), RandomBot(), deals=3, players=2, rounds=2, seed=4)
    >>> again = figures(result.seat_rounds[:8], "standard")   # the first deal's
    >>> again["per_deal"] == result.per_deal[:1]
    True
    >>> figures(result.seat_rounds[:7], "standard")
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: seat_rounds: deal 0 has 3 seat-rounds of bot_a and 4 of the baseline; each needs every seat of every round
    """
    if isinstance(rules, str):
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet or a preset name, got {rules!r:.80}")
    if not isinstance(seat_rounds, (list, tuple)):
        raise ArgumentTypeError(
            f"seat_rounds must be a list of SeatRound records, got {seat_rounds!r:.80}"
        )
    whole("turn", turn, low=1)
    sign = better_sign(rules)
    deals: dict[int, dict[str, dict[tuple[int, int], SeatRound]]] = {}
    for record in seat_rounds:
        if not isinstance(record, SeatRound):
            raise ArgumentTypeError(f"seat_rounds: each must be a SeatRound, got {record!r:.80}")
        mine = deals.setdefault(record.deal, {"a": {}, "b": {}})[record.bot]
        key = (record.seat, record.round)
        if key in mine:
            raise ArgumentError(
                f"seat_rounds: deal {record.deal}, seat {record.seat}, round {record.round} "
                f"of bot_{record.bot} twice"
            )
        mine[key] = record
    if not deals:
        raise ArgumentError("seat_rounds: no seat-round to compute figures from")

    def total(rows: list[SeatRound], name: str) -> int:
        return sum(getattr(row, name) for row in rows)

    def laid(rows: list[SeatRound]) -> int:
        return sum(0 < row.laid_down <= turn for row in rows)

    per_deal, rate_a, rate_b = [], [], []
    for deal in sorted(deals):
        a, b = deals[deal]["a"], deals[deal]["b"]
        if set(a) != set(b) or not a:
            raise ArgumentError(
                f"seat_rounds: deal {deal} has {len(a)} seat-rounds of bot_a and {len(b)} of "
                "the baseline; each needs every seat of every round"
            )
        seats = sorted({seat for seat, _ in a})
        rounds = len(a) // len(seats)
        if len(seats) * rounds != len(a) or {r for _, r in a} != set(range(1, rounds + 1)):
            raise ArgumentError(f"seat_rounds: deal {deal} lacks rounds of some seats")
        diffs = []
        for seat in seats:
            mine = [a[seat, r] for r in range(1, rounds + 1)]
            theirs = [b[seat, r] for r in range(1, rounds + 1)]
            diffs.append(
                (
                    sign * (total(mine, "points") - total(theirs, "points")),
                    (total(mine, "went_out") - total(theirs, "went_out")) / rounds,
                    (laid(mine) - laid(theirs)) / rounds,
                    total(mine, "went_out") / rounds,
                    total(theirs, "went_out") / rounds,
                )
            )
        means = [sum(d[i] for d in diffs) / len(seats) for i in range(5)]
        per_deal.append(tuple(means[:3]))
        rate_a.append(means[3])
        rate_b.append(means[4])
    return {
        "points": interval([d[0] for d in per_deal]),
        "went_out": interval([d[1] for d in per_deal], (-1, 1)),
        "laid_down": interval([d[2] for d in per_deal], (-1, 1)),
        "went_out_a": interval(rate_a, (0, 1)),
        "went_out_b": interval(rate_b, (0, 1)),
        "per_deal": tuple(per_deal),
    }
