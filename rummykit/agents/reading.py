"""Reading the opponents: which sampled deals agree with what the opponents chose to do.

A determinization (:func:`~rummykit.agents.determinize.determinize`) deals the hidden cards
uniformly among the deals a seat's view allows: it reads the cards the view shows, never
the choices the other seats made. Under a model of how they play, some of those deals are
impossible. :func:`reading` finds what a view tells under the model, :meth:`Reading.agrees`
tests a deal against it, and :class:`ReadingSampler` draws deals until one agrees (at most
``attempts``, then Gibbs sweeps if asked, then it falls back to a uniform deal): the deals
it returns are uniform among those that agree, which is the model's posterior when the
deal was uniform to begin with.

The model is the bots' own: :class:`~rummykit.agents.bots.GreedyBot` (and every bot built on
it) lays its contract down in the first play phase in which the engine offers it. So an
opponent that has not laid down could not lay down at the start of its last play phase.
Its hand then is known from its hand now when its last turn is seen whole: under rules in
which a seat must lay down before it swaps a joker
(:attr:`~rummykit.engine.rules.RuleSet.joker_swap_needs_laid_down`), a seat that has not
laid down can only draw, then discard, in its turn, and it takes part in no call, so at
the start of its last play phase it held its hand now and the card it last discarded, as
long as it has taken or bought no card since and is not in the middle of a turn. The card
it took from the pile that turn, if it took one, is the one it could not discard
(:func:`~rummykit.engine.legal.lay_down_of` is the engine's own test).

The same turn's draw is read too: a GreedyBot not laid down takes the top discard
exactly when it brings its hand closer to its contract (:func:`brings_closer`). If it took
the card, its hand before held the rest; if it drew from the stock, it passed on the card
offered, and its hand before lacked the card it drew, which the view does not show: under
a uniform deal that card is equally likely any of its cards then that did not come from
the pile, so a deal's :meth:`Reading.likelihood` is the share of those cards with which
passing was the bot's choice. Rounds with a reshuffle are not read this way (a card drawn
since came from the reshuffled pile).

So are the buy windows since that turn's discard (its own discard's too), where the
seat's hand was its hand now: a GreedyBot not laid down buys the card offered exactly
when it brings its hand closer (its ``"improves"`` policy), so a seat asked that did not
buy passed on a card that did not. The view shows who bought, not who passed; under
``nearest`` priority every seat asked before the buyer (every seat asked, when nobody
bought) passed, under ``first_call`` only a window nobody bought is read. Buys are read
where the window opens after a decline (``buy_timing``), with no discard calls, no
reshuffle this round and a stock that could pay the penalty throughout.

Earlier turns are read the same way, back from the last (``turns``, one unless told),
as far as the seat's last buy (it then drew a penalty card the view does not show) and
never after a reshuffle: each turn's hand is the next one's, plus that turn's discard,
less the card it drew. Which card it drew from the stock is not shown, and under a
uniform deal every order in which its cards not from the pile could have come is
alike, so :meth:`Reading.likelihood` weighs every possible card of every such draw
alike (exact, and the cost grows as the cards to the power of the turns read), and
:meth:`Reading.keeps` draws one path of cards, which keeps a deal with the same chance.
Its buy windows are read with the hand it held then (none before its first turn).
A person does not play by the bots' rules: with ``slip`` (a chance, below 1), each choice
read is the model's with chance ``1 - slip`` and uniform among its options otherwise
(lay down or not, take or pass, buy or pass), so no deal is impossible and a choice that
is not the model's only weighs less. Which choices are read is ``reads``: ``"draws"``
(taking or passing on the discard) and ``"buys"``; that the seat could not lay down is
always read.

Discards are read when asked (``"discards"``, not in :data:`DEFAULT_READS`): GreedyBot's
discard is a function of its hand (the first card of its order that keeps the distance),
so a deal agrees with a turn only if GreedyBot holding that hand would have discarded that
card. It is a strong check: on seeded GreedyBot games the opponents' last discards agreed
with 9.0% of plain deals, and with fewer than 1 in :data:`ATTEMPTS` in 53 of 92 views
(``benchmarks/bench_reading.py --discards``), so whole deals are seldom kept; even with
four Gibbs sweeps, which deal one opponent at a time, the sampler fell back in half of its
samples there (``benchmarks/bench_reading.py``), which is why they are not read unless
asked. Discards are not read with a ``slip`` (a person's discard is not modelled) nor
where discards may be called (GreedyBot then also shuns a card an opponent could lay
off).

>>> import random
>>> from rummykit.agents.bots import GreedyBot
>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=4, seed=11).new_state()
>>> bots = [GreedyBot() for _ in range(4)]
>>> for _ in range(12):
...     state.apply(bots[state.to_act].choose(state.view(state.to_act)))
>>> view = state.view(state.to_act)
>>> read = reading(view)
>>> view.laid_down, [check.seat for check in read.checks]   # the seats it reads
((False, False, True, False), [0, 1])
>>> read.likelihood(state.hands) > 0                # the true deal is always possible
True
>>> sampler = ReadingSampler(view)
>>> sample = sampler(random.Random(5).getrandbits(63))
>>> read.likelihood(sample.hands) > 0, sample.view(view.seat) == view
(True, True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from rummykit import _native
from rummykit.agents.determinize import HiddenCards, dealt, hidden_cards, view_key
from rummykit.engine.cards import Card
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import contract_rules, instance, whole
from rummykit.engine.game import Game, GameState
from rummykit.engine.legal import PlayerView, lay_down_of
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import contract_distance
from rummykit.errors import ArgumentError, ArgumentTypeError

__all__ = [
    "ATTEMPTS",
    "DEFAULT_READS",
    "READS",
    "LastTurn",
    "Turn",
    "Reading",
    "ReadingSampler",
    "first_agreeing",
    "gibbs_sweeps",
    "brings_closer",
    "distance_counter",
    "reading",
]

#: Deals a :class:`ReadingSampler` draws, at most, before it falls back to a uniform deal.
ATTEMPTS = 32
#: The most attempts :func:`first_agreeing` and :class:`ReadingSampler` accept.
MOST_ATTEMPTS = 10_000
#: The choices :func:`reading` can read (see the module notes).
READS = ("draws", "buys", "discards")
#: The choices it reads unless told.
DEFAULT_READS = ("draws", "buys")

T = TypeVar("T")


def brings_closer(hand: Sequence[Card], card: Card, contract: Contract, rules: RuleSet) -> bool:
    """Whether ``card`` brings ``hand`` closer to ``contract``: GreedyBot's reason to take a
    discard (or buy one) before it has laid down.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H JS QD 2C 5H 7D 9C KS 3D")
    >>> brings_closer(hand, Card.parse("8D"), rules.contracts[0], rules)
    True
    >>> brings_closer(hand, Card.parse("4C"), rules.contracts[0], rules)
    False
    """
    hand = check_cards("hand", hand)
    instance("card", card, Card, "a Card")
    return _closer_by(lambda cards: contract_distance(cards, contract, rules), hand, card)


def _closer_by(distance: Callable[[list[Card]], int], hand: Sequence[Card], card: Card) -> bool:
    """:func:`brings_closer`, the contract distance given as ``distance``."""
    now = distance(list(hand))
    return now > 0 and distance([*hand, card]) < now


@dataclass(frozen=True)
class Turn:
    """One turn of an opponent read: at the start of its play it held :attr:`discard` and
    the cards it held after the turn, and could not lay down; it took :attr:`taken`
    because it brought its hand closer, or drew from the stock (a card it held then) and
    passed on :attr:`offered` because that did not; after the turn it passed on buying
    :attr:`passed`."""

    discard: Card
    """The card it discarded at the end of the turn."""
    taken: Card | None
    """The card it took from the pile at the start of the turn (None: it drew)."""
    offered: Card | None = None
    """The discard it passed on when it drew from the stock (None: it took, or the draw
    is not read)."""
    from_pile: frozenset[Card] = frozenset()
    """The cards it had taken from the pile this round by the end of the turn: not the
    card it drew from the stock."""
    passed: tuple[Card, ...] = ()
    """The cards it was offered to buy after the turn's discard (that one included) and
    passed on, before its next turn or, for its last turn, until now."""


@dataclass(frozen=True)
class LastTurn:
    """One opponent read, from its last turn (its fields, those of a :class:`Turn`) back
    through :attr:`earlier`: at the start of its last turn's play it held its cards now
    and :attr:`discard`, and could not lay down; it took :attr:`taken` because it
    improved its hand, or passed on :attr:`offered` because it did not."""

    seat: int
    discard: Card
    """The card it discarded at the end of that turn."""
    taken: Card | None
    """The card it took from the pile at the start of that turn (None: it drew)."""
    contract: Contract
    """Its contract this round."""
    offered: Card | None = None
    """The discard it passed on when it drew from the stock (None: it took, or the draw
    is not read)."""
    from_pile: frozenset[Card] = frozenset()
    """The cards it took from the pile this round: not the card it drew from the stock."""
    passed: tuple[Card, ...] = ()
    """The cards it was offered to buy since that turn's discard (that one included) and
    passed on, holding its hand now."""
    earlier: tuple[Turn, ...] = ()
    """Its turns before the last that are read, newest first (see :func:`reading`'s
    ``turns``)."""

    @property
    def turns(self) -> tuple[Turn, ...]:
        """Every turn read, the last first."""
        last = Turn(self.discard, self.taken, self.offered, self.from_pile, self.passed)
        return (last, *self.earlier)


@dataclass(frozen=True)
class Reading:
    """What a view tells of the hidden hands under the model (see the module notes)."""

    rules: RuleSet
    players: int
    """Seats at the table (a deal has a hand for each)."""
    last_round: bool
    """Whether this is the game's last round (a lay-down may then leave no discard)."""
    checks: tuple[LastTurn, ...]
    """The opponents read."""
    slip: Fraction = Fraction(0)
    """The chance that a choice read is not the model's but uniform among its options."""
    reads: tuple[str, ...] = DEFAULT_READS
    """The choices read (some of :data:`READS`)."""
    _counters: dict = field(default_factory=dict, compare=False, repr=False)

    def agrees(self, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether a deal (every seat's hand) may be the one played: its
        :meth:`likelihood` is not 0.

        >>> from rummykit.engine.game import Game
        >>> reading(Game("standard", players=3, seed=1).new_state().view(0)).agrees([[]])
        Traceback (most recent call last):
        ...
        rummykit.errors.ArgumentError: hands must be one hand per seat (3), got [[]]
        """
        return self.likelihood(hands) > 0

    def likelihood(self, hands: Sequence[Sequence[Card]]) -> Fraction:
        """The chance, under the model, that the opponents read would have played as they
        did had the deal been ``hands`` (every seat's hand): 0 if one of them could have
        laid down at the start of a play read, would have taken a card it did not take
        (or passed on one it took), or would have bought a card it passed on; for a draw
        from the stock, which card it drew is not shown, and every card it may have drawn
        counts alike (their mean)."""
        self._check(hands)
        chance = Fraction(1)
        for check in self.checks:
            chance *= self._weigh(check, check.turns, list(hands[check.seat]), {})
            if not chance:
                return chance
        return chance

    def _weigh(
        self, check: LastTurn, turns: tuple[Turn, ...], hand: list[Card], known: dict
    ) -> Fraction:
        """The chance of ``turns`` (newest first), ``hand`` the seat's hand after the
        newest and its buy windows: exact, every card it may have drawn weighed alike
        (``known`` keeps the chances found, by turns left and hand)."""
        key = (len(turns), tuple(sorted(hand, key=Card.sort_key)))
        found = known.get(key)
        if found is None:
            found = known[key] = self._weigh_turn(check, turns, hand, known)
        return found

    def _weigh_turn(
        self, check: LastTurn, turns: tuple[Turn, ...], hand: list[Card], known: dict
    ) -> Fraction:
        turn, rest = turns[0], turns[1:]
        then = [*hand, turn.discard]
        chance = self._chose(self._could_not(check, then, turn.taken))
        if "discards" in self.reads and not self._discarded(check, then, turn):
            return Fraction(0)
        for card in turn.passed:
            chance *= self._chose(not self._closer(hand, card, check))
        draws = "draws" in self.reads
        if not chance:
            return chance
        if turn.taken is not None:
            before = _less(then, turn.taken)
            if draws:
                chance *= self._chose(self._closer(before, turn.taken, check))
            return chance * self._weigh(check, rest, before, known) if chance and rest else chance
        offered = turn.offered if draws else None
        if offered is None and not rest:
            return chance
        drawn = self._drawn(turn, then)
        total = Fraction(0)
        for card in drawn:
            before = _less(then, card)
            part = Fraction(1)
            if offered is not None:
                part = self._chose(not self._closer(before, offered, check))
            if part and rest:
                part *= self._weigh(check, rest, before, known)
            total += part
        return chance * total / len(drawn)

    def _chose(self, agrees: bool) -> Fraction:
        """The chance of a choice between two options that ``agrees`` with the model or not."""
        return (1 - self.slip) * agrees + self.slip / 2

    def _kept(self, agrees: bool, rng: random.Random) -> bool:
        """Keep a deal for one two-way choice with the chance :meth:`_chose` gives it over
        the most it gives (no draw of ``rng`` when the model is followed strictly)."""
        if agrees or not self.slip:
            return agrees
        return rng.random() < self._chose(False) / self._chose(True)

    @property
    def most(self) -> Fraction:
        """The :meth:`likelihood` of a deal with which every choice read is the model's:
        the most a deal gets (1 when :attr:`slip` is 0)."""
        draws = "draws" in self.reads
        choices = sum(
            1 + len(turn.passed) + (draws and (turn.taken, turn.offered) != (None, None))
            for check in self.checks
            for turn in check.turns
        )
        return self._chose(True) ** choices

    def keeps(self, hands: Sequence[Sequence[Card]], rng: random.Random) -> bool:
        """Whether to keep a deal: True with the chance :meth:`likelihood` over
        :attr:`most`, at less cost (for each draw from the stock, one card the seat may
        have drawn, chosen by ``rng``, stands for them all: the chance of keeping is then
        the mean). :class:`ReadingSampler` keeps its deals so."""
        self._check(hands)
        return all(self.keeps_seat(check, hands[check.seat], rng) for check in self.checks)

    def keeps_seat(self, check: LastTurn, hand: Sequence[Card], rng: random.Random) -> bool:
        """:meth:`keeps` for one opponent read, ``check``, holding ``hand``."""
        draws = "draws" in self.reads
        hand = list(hand)
        for number, turn in enumerate(check.turns):
            then = [*hand, turn.discard]
            before = None
            if turn.taken is not None:
                before = _less(then, turn.taken)
                if draws and not self._kept(self._closer(before, turn.taken, check), rng):
                    return False
            elif (draws and turn.offered is not None) or number + 1 < len(check.turns):
                drawn = self._drawn(turn, then)
                before = _less(then, drawn[rng.randrange(len(drawn))])
                passed_on = draws and turn.offered is not None
                if passed_on and not self._kept(not self._closer(before, turn.offered, check), rng):
                    return False
            if not self._kept(self._could_not(check, then, turn.taken), rng):
                return False
            if "discards" in self.reads and not self._discarded(check, then, turn):
                return False
            for card in turn.passed:
                if not self._kept(not self._closer(hand, card, check), rng):
                    return False
            hand = before
        return True

    def _check(self, hands: object) -> None:
        if not isinstance(hands, Sequence) or len(hands) != self.players:
            raise ArgumentError(
                f"hands must be one hand per seat ({self.players}), got {hands!r:.80}"
            )

    @staticmethod
    def _drawn(turn: Turn, then: list[Card]) -> list[Card]:
        """The cards of ``then`` the seat may have drawn from the stock (not from the pile)."""
        return [card for card in then if card not in turn.from_pile]

    def _closer(self, hand: Sequence[Card], card: Card, check: LastTurn) -> bool:
        """:func:`brings_closer` of ``card`` to ``hand``."""
        return _closer_by(lambda cards: self._distance(cards, check.contract), hand, card)

    def _distance(self, hand: list[Card], contract: Contract) -> int:
        counter = self._counters.get(contract)
        if counter is None:
            counter = self._counters[contract] = distance_counter(contract, self.rules)
        return counter(hand)

    def _discarded(self, check: LastTurn, then: list[Card], turn: Turn) -> bool:
        """Whether GreedyBot, not laid down and holding ``then`` at the end of ``turn``'s
        play (the card it took not to be discarded), would discard ``turn.discard``: among
        the cards it may discard, one of each face in its order (jokers kept, most points
        first, then rank and suit), the first whose loss keeps the contract distance, else
        the first (GreedyBot's ``_contract_discard``; the tests compare the two)."""
        faces: dict[int, Card] = {}
        for card in then:
            if turn.taken is None or card != turn.taken:
                faces.setdefault(card.index, card)
        points = self.rules.point_value
        order = sorted(faces.values(), key=lambda c: (c.is_joker, -points(c), c.sort_key()))
        now = self._distance(then, check.contract)
        for card in order:
            if self._distance(_less(then, card), check.contract) == now:
                return card.index == turn.discard.index
        return bool(order) and order[0].index == turn.discard.index

    def _could_not(self, check: LastTurn, then: list[Card], taken: Card | None) -> bool:
        """Whether ``check.seat``, holding ``then`` at the start of a play in which it had
        taken ``taken`` from the pile, could not lay down."""
        held = lay_down_of(then, check.contract, self.rules, taken=taken,
                           last_round=self.last_round)  # fmt: skip
        return held is None


def distance_counter(contract: Contract, rules: RuleSet) -> Callable[[Sequence[Card]], int]:
    """:func:`~rummykit.engine.search.contract_distance` of many hands of one ``contract``
    under ``rules`` (copies not limited), the two checked once: where the compiled core
    is built and its sizes hold the contract, each hand's copies are counted and handed
    to it directly (its ``distance``, as ``contract_distance`` calls it), else
    ``contract_distance`` counts. The same values (the tests compare them on every preset
    and other meld rules): a reading asks for thousands a decision.

    >>> from rummykit import parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> distance = distance_counter(rules.contracts[0], rules)
    >>> distance(parse_cards("8S 8H 8D JH JS 2C 5D")), distance(parse_cards("8S 8H 2D JH"))
    (1, 3)
    """
    contract_rules(contract, rules)
    core = _native.distance

    def counted(hand: Sequence[Card]) -> int:
        return contract_distance(hand, contract, rules)

    if core is None or max(contract.sets, contract.runs) > min(core.MAX_SETS, core.MAX_RUNS):
        return counted
    encoded, sets, runs = _native.encode_meld_rules(rules), contract.sets, contract.runs
    most = core.MAX_COUNT

    def distance(hand: Sequence[Card]) -> int:
        counts = [0] * 53  # each natural card's copies by Card.index, then the jokers
        for card in hand:
            counts[card.index] += 1
        if max(counts) > most:
            return counted(hand)
        return core.distance(encoded, sets, runs, counts)

    return distance


def _less(cards: list[Card], card: Card) -> list[Card]:
    """``cards`` less one ``card``."""
    rest = list(cards)
    rest.remove(card)
    return rest


def reading(
    view: PlayerView,
    *,
    reads: Sequence[str] = DEFAULT_READS,
    slip: Fraction | float = 0,
    turns: int | None = 1,
) -> Reading:
    """What ``view`` tells of the other seats' hands under the model (see the module
    notes): each opponent not laid down whose last turn it saw whole; ``reads`` the
    choices read besides that it could not lay down (some of :data:`READS`), ``slip`` the
    chance that a choice is not the model's, ``turns`` how many of each opponent's turns
    are read, the last first (None: all of them this round, back to its last buy).

    >>> from rummykit.engine.game import Game
    >>> reading(Game(seed=1).new_state().view(0), reads=("hands",))
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: reads must be some of draws, buys, discards, got ('hands',)
    >>> reading(Game(seed=1).new_state().view(0), slip=1)
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: slip must be a chance at least 0 and below 1, got 1
    """
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView, got {view!r:.80}")
    if isinstance(reads, str) or not isinstance(reads, Sequence) or not set(reads) <= set(READS):
        raise ArgumentError(f"reads must be some of {', '.join(READS)}, got {reads!r:.80}")
    if isinstance(slip, bool) or not isinstance(slip, (int, float, Fraction)) or not 0 <= slip < 1:
        raise ArgumentError(f"slip must be a chance at least 0 and below 1, got {slip!r:.80}")
    if "discards" in reads and slip:
        raise ArgumentError(f"reads, slip: discards are read only without a slip, got {slip!r}")
    if view.rules.discard_call != "none":
        # A GreedyBot's discard then also shuns a card an opponent could lay off, as the
        # table was when it discarded: not read.
        reads = tuple(choice for choice in reads if choice != "discards")
    if turns is not None:
        whole("turns", turns, low=1, high=10_000)
    rules = view.rules
    checks = []
    if rules.joker_swap_needs_laid_down:
        moves = view.pile_moves
        reshuffled = any(move.kind == "reshuffle" for move in moves)
        windows = _passes(view) if "buys" in reads and not reshuffled else {}
        for seat in range(len(view.names)):
            if seat == view.seat or view.laid_down[seat]:
                continue
            if view.current == seat and view.phase != "draw":
                continue  # in the middle of its turn: it has drawn a card since
            mine = [
                n for n, move in enumerate(moves) if move.kind == "discard" and move.seat == seat
            ]
            if not mine:
                continue  # no turn played this round
            last = mine[-1]
            if any(move.seat == seat and move.kind in ("take", "buy", "call")
                   for move in moves[last + 1 :]):  # fmt: skip
                continue  # a card taken or bought since
            # Its turns, the last first, back to a buy (it then drew cards not shown) or
            # as many as asked; only the last after a reshuffle (a card drawn since came
            # from the pile).
            read = []
            ends = [*mine[1:], len(moves)]
            for number in range(len(mine) - 1, -1, -1):
                at, end = mine[number], ends[number]
                if read and (
                    reshuffled
                    or (turns is not None and len(read) == turns)
                    or any(
                        move.seat == seat and move.kind in ("buy", "call") for move in moves[at:end]
                    )  # fmt: skip
                ):
                    break
                read.append(_turn(view, seat, at, end, reads, reshuffled, windows))
            last_turn, *earlier = read
            checks.append(
                LastTurn(
                    seat,
                    last_turn.discard,
                    last_turn.taken,
                    view.contracts[seat],
                    last_turn.offered,
                    last_turn.from_pile,
                    last_turn.passed,
                    tuple(earlier),
                )  # fmt: skip
            )
    return Reading(
        rules, len(view.names), view.is_last_round, tuple(checks), Fraction(slip), tuple(reads)
    )


def _turn(
    view: PlayerView,
    seat: int,
    at: int,
    end: int,
    reads: Sequence[str],
    reshuffled: bool,
    windows: dict[int, list[tuple[int, Card]]],
) -> Turn:
    """The turn of ``seat`` that discarded the pile move ``at``, its buy windows those of
    the discards from ``at`` to ``end`` (its next discard, or the end of the moves)."""
    rules, moves = view.rules, view.pile_moves
    before = moves[at - 1] if at else None
    taken = offered = None
    if before is not None and before.kind == "take" and before.seat == seat:
        taken = before.card
    elif (
        "draws" in reads
        and before is not None
        and before.kind in ("upcard", "discard", "buy")
        and not reshuffled
        and (before.kind != "buy" or rules.buy_timing == "after_decline")
    ):
        # It drew from the stock and passed on this card (bought, if at all, after it
        # declined; a window before the draw would have offered it another).
        offered = before.card
    from_pile = frozenset(
        move.card
        for move in moves[:at]
        if move.seat == seat and move.kind in ("take", "buy", "call")
    )
    passed = tuple(card for n, card in windows.get(seat, ()) if at <= n < end)
    return Turn(moves[at].card, taken, offered, from_pile, passed)


def _passes(view: PlayerView) -> dict[int, list[tuple[int, Card]]]:
    """The buy windows of this round whose passes the view shows (see the module notes):
    per seat, (the window's discard's place among the pile moves, the card) for each
    window in which it was asked and did not buy."""
    rules, moves, players = view.rules, view.pile_moves, len(view.names)
    if not (
        rules.buying
        and rules.buy_timing == "after_decline"
        and rules.buy_priority in ("nearest", "first_call")
        and rules.discard_call == "none"
        and view.stock_size >= rules.buy_penalty_cards
    ):
        return {}
    limit = view.buy_limit
    found: dict[int, list] = {}
    for n, move in enumerate(moves):
        if move.kind != "discard":
            continue
        drawer = (move.seat + 1) % players
        after = moves[n + 1] if n + 1 < len(moves) else None
        order = [(drawer + i) % players for i in range(1, players)]
        if after is None:
            if view.phase == "buy" and view.current == drawer:
                # This window, open now: the seats asked before this one passed.
                asked = order[: order.index(view.to_act)]
                if rules.buy_priority == "first_call":
                    continue
            elif view.phase == "play" and view.current == drawer:
                asked = order  # the drawer drew from the stock; nobody bought
            else:
                continue  # the drawer has not chosen yet
        elif after.kind == "take":
            continue  # no window: the drawer took the card
        elif after.kind == "buy":
            if rules.buy_priority == "first_call":
                continue  # who else asked to buy is not shown
            asked = order[: order.index(after.seat)]
        else:
            asked = order  # the drawer drew from the stock and discarded; nobody bought
        for seat in asked:
            # A seat's buys now are its buys then if it has bought nothing since (a seat
            # that has is not read).
            if limit is None or view.buys[seat] < limit:
                found.setdefault(seat, []).append((n, move.card))
    return found


def first_agreeing(
    draw: Callable[[], T], agrees: Callable[[T], bool], attempts: int
) -> tuple[T, bool]:
    """The first of at most ``attempts`` draws that ``agrees`` and True, else the last
    draw and False: rejection sampling, uniform among the draws that agree when ``draw``
    is uniform, with a cap."""
    whole("attempts", attempts, low=1, high=MOST_ATTEMPTS)
    for name, given in (("draw", draw), ("agrees", agrees)):
        if not callable(given):
            raise ArgumentTypeError(f"{name} must be a callable, got {given!r:.80}")
    for _ in range(attempts):
        drawn = draw()
        if agrees(drawn):
            return drawn, True
    return drawn, False


class ReadingSampler:
    """Determinizations of ``view`` weighted by its :func:`reading`: called with a seed, it
    draws up to ``attempts`` deals (:func:`~rummykit.agents.determinize.determinize`), keeps
    each with the chance :meth:`Reading.keeps` gives it (its likelihood over the most a deal
    gets) and returns the first kept, or
    the last one drawn (uniform, as a plain determinization) when none is: rejection
    sampling, so the deals returned follow the uniform deal weighted by the likelihood, the
    model's posterior. The first deal is ``determinize(view, seed)``'s, the others (and
    the chances of keeping them) from a generator seeded by ``seed``: where the plain deal
    is kept, a search that reads plays on the very deal one that does not read would.
    :attr:`drawn`, :attr:`fell_back` count the deals returned and the fallbacks.

    When no deal of the ``attempts`` is kept and ``sweeps`` is not 0, the last is
    changed by that many Gibbs sweeps (:func:`gibbs_sweeps`: each opponent read in turn
    dealt a new hand from the stock and the hands not read, kept by its own reading), which
    reaches deals of readings that rejection of whole deals seldom meets; the deals
    returned then follow the posterior as far as the sweeps mix (the tests measure it on
    small shoes), and a deal whose every opponent read was kept is not a fallback.
    ``reads``, ``slip`` and ``turns`` are :func:`reading`'s; ``turn_limit`` and ``max_reshuffles``
    the sampled games' limits, as for :func:`~rummykit.agents.determinize.determinize`.
    """

    def __init__(
        self,
        view: PlayerView,
        *,
        attempts: int = ATTEMPTS,
        reads: Sequence[str] = DEFAULT_READS,
        slip: Fraction | float = 0,
        turns: int | None = 1,
        sweeps: int = 0,
        hidden: HiddenCards | None = None,
        turn_limit: int | None = None,
        max_reshuffles: int | None = None,
    ) -> None:
        whole("attempts", attempts, low=1, high=MOST_ATTEMPTS)
        whole("sweeps", sweeps, low=0, high=MOST_ATTEMPTS)
        self.view = view
        self.reading = reading(view, reads=reads, slip=slip, turns=turns)
        if hidden is None:
            hidden = hidden_cards(view)
        elif not isinstance(hidden, HiddenCards):
            raise ArgumentTypeError(f"hidden must be a HiddenCards, got {hidden!r:.80}")
        elif hidden.key != view_key(view):
            raise ArgumentError(
                "hidden: these constraints were computed for another view (hidden_cards(view))"
            )
        # The sampled games' limits, checked as a game checks them.
        Game(view.rules, players=len(view.names), seed=0, names=view.names,
             turn_limit=turn_limit, max_reshuffles=max_reshuffles)  # fmt: skip
        self.hidden = hidden
        self.attempts = attempts
        self.sweeps = sweeps
        self.limits = {"turn_limit": turn_limit, "max_reshuffles": max_reshuffles}
        self.drawn = 0
        self.fell_back = 0

    def __call__(self, seed: int) -> GameState:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ArgumentTypeError(f"seed must be an integer, got {seed!r}")
        rng = random.Random(f"reading {seed}")
        seeds = itertools.chain([seed], iter(lambda: rng.getrandbits(63), None))

        def draw() -> tuple[int, list[list[Card]], list[Card]]:
            # determinize(view, seed)'s deal, its game not made unless the deal is kept.
            dealing = random.Random(next(seeds))
            return (dealing.getrandbits(63), *dealt(self.view, self.hidden, dealing))

        def agrees(deal: tuple[int, list[list[Card]], list[Card]]) -> bool:
            # Kept with the chance the model gives this deal: rejection sampling whose
            # samples follow the uniform deal weighted by that chance.
            return self.reading.keeps(deal[1], rng)

        if not self.reading.checks:
            deal, found = draw(), True
        else:
            deal, found = first_agreeing(draw, agrees, self.attempts)
            if not found and self.sweeps:
                deal, found = self._swept(deal, rng)
        self.drawn += 1
        self.fell_back += not found
        view = self.view
        game = Game(view.rules, players=len(view.names), seed=deal[0], names=view.names,
                    **self.limits)  # fmt: skip
        return GameState.from_view(view, deal[1], deal[2], game)

    def _swept(
        self, deal: tuple[int, list[list[Card]], list[Card]], rng: random.Random
    ) -> tuple[tuple[int, list[list[Card]], list[Card]], bool]:
        """``deal`` after :attr:`sweeps` of :func:`gibbs_sweeps` (each opponent read kept
        by :meth:`Reading.keeps_seat`), its game's seed drawn afresh, and whether every
        opponent read was kept."""
        hidden, view = self.hidden, self.view
        checks = {check.seat: check for check in self.reading.checks}
        unknown = [
            [] if s == view.seat else [c for c in hand if c not in hidden.known[s]]
            for s, hand in enumerate(deal[1])
        ]

        def keep(seat: int, cards: list[Card]) -> bool:
            return self.reading.keeps_seat(checks[seat], [*hidden.known[seat], *cards], rng)

        unknown, stock, kept = gibbs_sweeps(
            hidden, unknown, list(deal[2]), keep, list(checks), self.sweeps, self.attempts, rng
        )
        hands = [
            list(view.hand) if s == view.seat else [*hidden.known[s], *unknown[s]]
            for s in range(len(view.names))
        ]
        return (rng.getrandbits(63), hands, stock), kept

    def __repr__(self) -> str:
        return (
            f"ReadingSampler(seat {self.view.seat}, {len(self.reading.checks)} opponents read, "
            f"{self.drawn} drawn, {self.fell_back} fell back)"
        )


def gibbs_sweeps(
    hidden: HiddenCards,
    unknown: list[list[Card]],
    stock: list[Card],
    keep: Callable[[int, list[Card]], bool],
    read: Sequence[int],
    sweeps: int,
    attempts: int,
    rng: random.Random,
) -> tuple[list[list[Card]], list[Card], bool]:
    """Gibbs sweeps over an assignment of ``hidden``'s cards (``unknown``: each seat's
    unknown cards; ``stock``): in each sweep, each seat of ``read`` in turn gets new cards
    drawn with the stock's and those of the seats not in ``read`` (uniform among the
    placements ``hidden`` allows, :meth:`~rummykit.agents.determinize.HiddenCards.restrict`),
    the first that ``keep(seat, cards)`` keeps of at most ``attempts`` (none kept: the
    step changes nothing). With ``keep`` true with a chance proportional to a seat's
    likelihood, each step draws from the posterior given every other read seat's cards,
    so the posterior is what the sweeps tend to. Returns the new assignment and whether
    every seat of ``read`` was kept at some step."""
    instance("hidden", hidden, HiddenCards, "a HiddenCards (hidden_cards(view))")
    players = len(hidden.slots)
    if not _an_assignment(hidden, unknown, stock):
        raise ArgumentError(
            "unknown, stock: must be an assignment of hidden's cards (HiddenCards.sample), "
            f"got {unknown!r:.60}, {stock!r:.60}"
        )
    if not callable(keep):
        raise ArgumentTypeError(f"keep must be a callable, got {keep!r:.80}")
    seats = isinstance(read, Sequence) and not isinstance(read, str)
    if (
        not seats
        or len(set(read)) != len(read)
        or not all(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
            for seat in read
        )
    ):
        raise ArgumentError(f"read must be distinct seats (0 to {players - 1}), got {read!r:.80}")
    whole("sweeps", sweeps, low=0, high=MOST_ATTEMPTS)
    whole("attempts", attempts, low=1, high=MOST_ATTEMPTS)
    instance("rng", rng, random.Random, "a random.Random")
    free = [s for s in range(players) if s not in read and hidden.slots[s]]
    unknown = [list(cards) for cards in unknown]
    kept = set()
    for _ in range(sweeps):
        for seat in read:
            cards = [*stock, *unknown[seat], *(c for s in free for c in unknown[s])]
            block = hidden.restrict(unknown, stock, cards)
            for _ in range(attempts):
                hands, drawn = block.sample(rng)
                if keep(seat, hands[seat]):
                    for s in (seat, *free):
                        unknown[s] = hands[s]
                    stock = drawn
                    kept.add(seat)
                    break
    return unknown, stock, len(kept) == len(read)


def _an_assignment(hidden: HiddenCards, unknown: object, stock: object) -> bool:
    """Whether ``unknown`` and ``stock`` are lists of cards that place ``hidden``'s cards."""
    lists = [stock, *unknown] if isinstance(unknown, Sequence) else []
    return (
        bool(lists)
        and all(isinstance(cards, Sequence) and not isinstance(cards, str) for cards in lists)
        and all(isinstance(card, Card) for cards in lists for card in cards)
        and hidden.allows(unknown, stock)
    )
