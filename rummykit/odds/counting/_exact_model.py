"""The state model of the exact sweep: partial arrangements, their moves, packed codes.

:mod:`rummykit.odds.counting.exact` is the public API and explains what is counted; this module
says what one card, or the close of a rank, does to one partial arrangement of a hand
(:class:`State`), and how an arrangement and its costs are packed into one integer
code; :mod:`rummykit.odds.counting._exact_layers` sweeps layers of keys with them. The design
note ``docs/exact-sweep.md`` explains the whole sweep and why each pruning is sound.

>>> code = pack_code(5, jokers=2, added=1)
>>> code_sid(code), code_jokers(code), code_added(code)
(5, 2, 1)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from rummykit.engine.cards import Rank
from rummykit.engine.rules import meld_limits
from rummykit.errors import ArgumentError

Progress = Callable[[int, int], None]

# -- packed codes ---------------------------------------------------------------------
# An entry of a key is one 32-bit code: the state's number in the high bits, then the
# jokers it has used, then the natural cards it has added (distance mode):
#
#     bit  31 ........ 12 | 11 ..... 6 | 5 ...... 0
#          sid (20 bits)  | jokers (6) | added (6)
#
# The compiled step (_sweep.c) names the same constants; tests/test_odds_native.py
# checks that the two sides agree.
#: Bits below the state number: ``code >> SID_SHIFT`` is the state's number (sid).
SID_SHIFT = 12
#: Bits below the joker count: ``code >> JOKER_SHIFT & COST_MASK`` is the jokers.
JOKER_SHIFT = 6
#: One cost field (jokers or added cards), 6 bits: ``code & COST_MASK`` is the added.
COST_MASK = (1 << JOKER_SHIFT) - 1
#: Both cost fields, ``jokers << JOKER_SHIFT | added``: what a step adds to and keeps.
REST_MASK = (1 << SID_SHIFT) - 1
#: States a sweep can number in the 32 - SID_SHIFT high bits of a code.
MAX_STATES = 1 << (32 - SID_SHIFT)


def pack_code(sid: int, jokers: int = 0, added: int = 0) -> int:
    """The code of an entry: state ``sid`` having used ``jokers`` jokers, ``added`` cards."""
    return sid << SID_SHIFT | jokers << JOKER_SHIFT | added


def code_sid(code: int) -> int:
    """The state number of a code (0 is "contract complete")."""
    return code >> SID_SHIFT


def code_jokers(code: int) -> int:
    """The jokers of a code."""
    return code >> JOKER_SHIFT & COST_MASK


def code_added(code: int) -> int:
    """The natural cards added of a code (always 0 in dealt mode)."""
    return code & COST_MASK


# -- states -----------------------------------------------------------------------------
# Cards are visited in run order 2, 3, .., K and last the ace, which plays both ends:
# a run through the ace high simply continues from the king, and a run from the ace low
# is started at the 2 with its ace "owed" (or a joker in its place) and the owed aces
# are paid when the aces are dealt at the end. So nothing about the hand's aces is
# carried through the sweep, which keeps keys few.


class Run(NamedTuple):
    """A run in progress in one suit.

    Where runs are windows (same-suit runs unrestricted, see
    :meth:`StateModel.window_moves`), ``length`` is the positions of its window so far
    and ``naturals`` its naturals, ``jokers`` and ``low`` 0. Where same-suit runs must be
    separated and runs go card by card, ``length`` is capped at min_run_size,
    ``naturals`` at min_naturals_in_run, ``jokers`` counts its jokers and ``low`` is 1
    for a run from the ace low that could otherwise reach the ace high.
    """

    length: int
    naturals: int
    jokers: int
    low: int


class State(NamedTuple):
    """A partial arrangement of the hand so far (what a key holds sets of)."""

    sets_done: int
    """Sets made."""
    runs_done: int
    """Runs closed."""
    pool: int
    """Naturals of the current rank put aside for sets (made when the rank closes)."""
    runs: tuple[tuple[Run, ...], ...]
    """Per suit (by :attr:`Suit.index`), its runs in progress, sorted."""
    owed: tuple[int, ...]
    """Per suit, the natural aces owed by ace-low runs (paid when the aces are dealt)."""
    gap: tuple[int, ...]
    """Per suit, 1 when a run of that suit ended at the previous position (separated
    runs only: the next run of the suit may not start here)."""


#: The state "contract complete" (state number 0); sorts before every other state.
ACCEPT = (-1,)
#: The state before any card.
START = State(0, 0, 0, ((),) * 4, (0,) * 4, (0,) * 4)
#: Fields per state that decide dominance: sets, runs, pool, owed x 4, gap x 4 (see
#: :func:`state_fields`); the first :data:`MORE_IS_BETTER` are "more is better".
NFIELDS = 11
MORE_IS_BETTER = 3

_LOW_STARTS = (  # (ace, 2), card by card: 1 natural / 0 joker
    (1, 1),
    (1, 0),
    (0, 1),
    (0, 0),
)


@dataclass(frozen=True)
class ExactTable:
    """The result of one sweep: hand counts of natural cards by what they still need.

    ``counts[need][n]`` is the number of ways to hold ``n`` natural cards (as subsets of
    the physical shoe) for which ``need`` is: in ``"dealt"`` mode the fewest jokers that
    complete the contract (hands that cannot complete it with ``joker_cap`` jokers are
    left out, and so are those whose ``n + need`` exceeds ``max_naturals``: no hand of at
    most that many cards, jokers included, has them); in ``"distance"`` mode a tuple
    whose ``j``-th entry is the fewest natural cards to add when the hand also holds
    ``j`` jokers.
    """

    mode: str
    """``"dealt"`` or ``"distance"``."""
    naturals: int
    """Size of the shoe's natural part (``decks`` x ranks x suits)."""
    max_naturals: int
    """Largest number of natural cards counted."""
    joker_cap: int
    """Largest number of jokers tracked."""
    counts: dict
    """``need -> list`` of hand counts indexed by the number of natural cards."""
    keys: int
    """The largest number of distinct keys in one step of the sweep (a size measure)."""


class StateModel:
    """The states of one sweep and their moves, from the contract, rules and shoe.

    It knows what one card or the close of a rank does to one partial arrangement
    (:meth:`successors`); keys, layers and counts are
    :class:`~rummykit.odds.counting._exact_layers.Sweep`'s.
    """

    def __init__(
        self,
        contract,
        rules,
        decks,
        ranks,
        suits,
        max_naturals,
        joker_cap,
        mode,
        *,
        swept=None,
        profile=False,
    ):
        self.S, self.R = contract.sets, contract.runs
        self.d = decks
        self.T = max_naturals
        self.distance = mode == "distance"
        self.mode = mode
        # The meld rules, through the numbers every contract search reads off them.
        self.limits = limits = meld_limits(rules)
        self.J = limits.max_jokers
        self.Ls = limits.set_cards
        self.set_naturals = limits.set_naturals
        self.mr = limits.run_size
        self.nr = limits.run_naturals
        self.separated = limits.separated
        self.ace_low, self.ace_high = limits.positions[0] == 1, limits.positions[-1] == 14
        self.last = limits.positions[-1]
        # Jokers beyond what the contract could ever use are never tracked.
        useful = self.S * (self.Ls - self.set_naturals)
        useful += self.R * (13 if self.J is None else self.J)
        self.jcap = min(joker_cap, useful)
        if self.jcap >= 64:
            raise ArgumentError("more jokers than a sweep can track")
        self.suits = tuple(s.index for s in suits)
        self.ranks = ranks
        self.naturals = decks * len(ranks) * len(suits)
        # The suits swept: in distance mode every suit, since added cards may be of any.
        self.swept = (
            swept if swept is not None else (tuple(range(4)) if self.distance else self.suits)
        )
        # Suits that are interchangeable: same copies in the shoe and among the swept.
        self.symmetric = (
            self.suits if not self.distance else (self.swept if len(self.suits) == 4 else ())
        )
        # Profile mode (one suit of a runs-only contract): the result is, for each
        # number of runs r, the fewest jokers that make r runs.
        self.profile = profile
        self.binom = [math.comb(decks, k) for k in range(decks + 1)]
        self._moves: dict = {}
        # Runs are windows over their naturals, their jokers charged when they close
        # (see window_moves); not where the gap between same-suit runs makes a joker's
        # position matter (there runs go card by card, see continue_runs).
        self.windows = not self.separated

    # -- the steps ---------------------------------------------------------------------
    def steps(self):
        """(kind, position, suit) in sweep order; position 14 is the ace (high or low)."""
        out = []
        for p in range(2, 15):
            for s in self.swept:
                out.append(("card", p, s))
            out.append(("close", p, None))
        return out

    def copies(self, p: int, s: int) -> int:
        rank = Rank.ACE if p == 14 else Rank(p)
        return self.d if rank in self.ranks and s in self.suits else 0

    def position_class(self, p: int) -> int:
        """Positions of one class have the same transitions, so they share one cache.

        Class 0 is the middle of the sweep, where no ace is involved and every run in
        progress can still be finished; other positions are their own class. (The
        compiled sweep also moves as in the middle at the positions near the top, see
        :meth:`~rummykit.odds.counting._exact_layers.Sweep.run_native`.)
        """
        if p not in (2, 14) and self.last - p >= max(self.mr - 1, self.nr):
            return 0
        return p

    def cards_to_complete(self, state) -> int:
        """The fewest cards (natural or joker) a hand still needs to complete from ``state``.

        Each set still to make needs ``Ls`` cards (less the cards pooled this rank), each
        run in progress its missing length or naturals (an open window at least one more
        natural), each run not started ``mr``, and each ace owed to an ace-low run is a
        card still to hold. A lower bound, used to drop arrangements a hand of at most
        ``T`` cards cannot complete (see :meth:`~rummykit.odds.counting._exact_layers.Sweep.run_native`).
        """
        if state is ACCEPT:
            return 0
        sets_done, runs_done, pool, runs, owed, _ = state
        need = max(0, (self.S - sets_done) * self.Ls - pool) + sum(owed)
        started = 0
        for mine in runs:
            for length, nats, _, _ in mine:
                if self.windows:  # another natural, and the jokers lengthening it
                    need += max(max(self.mr, length + 1) - length, self.nr - nats)
                else:
                    need += max(self.mr - length, self.nr - nats, 0)
                started += 1
        return need + max(0, self.R - runs_done - started) * self.mr

    # -- one arrangement, one step -----------------------------------------------------
    def successors(self, state, kind, p, s, c):
        if kind == "close":
            return self.close_sets(state)
        sets_done, runs_done, pool, runs, owed, gap = state
        spare = self.d - c if self.distance else 0
        # At the ace the owed aces are paid first.
        must = owed[s] if p == 14 else 0
        moves = self.window_moves(p, s, state) if self.windows else self.card_moves(p, s, state)
        out = []
        for still, closed, used, jk, owe in moves:
            n_used = used + must
            if n_used > c + spare or owed[s] + owe > self.d:
                continue
            new_gap = _replace(gap, s, 1 if closed else 0) if self.separated else gap
            new_owed = _replace(owed, s, 0 if p == 14 else owed[s] + owe)
            new_all = _replace(runs, s, still)
            for pool2, paid in self.allocate(c, spare, n_used, sets_done, pool):
                new = State(sets_done, runs_done + closed, pool2, new_all, new_owed, new_gap)
                out.append((new, jk, paid))
        return out

    # -- runs as windows (same-suit runs unrestricted) ---------------------------------
    # A run is a window of at least min_run_size positions of one suit holding its
    # naturals; the other positions are jokers. A run in progress is (length, naturals,
    # 0, 0): the positions of its window so far, from its first natural (or the jokers
    # below it, when too few positions are left above it to reach min_run_size) to the
    # current one; each position without a natural is a joker, paid as it passes. The
    # jokers that lengthen a short run to min_run_size may sit below or above its
    # naturals (runs are at most 13 long, so the window fits), so they are paid when the
    # run closes, at one of its naturals; or the run stays open for a later natural when
    # one could make it cheaper. Each run is then found once, at its last natural, where
    # a run going card by card would be found with its jokers first or last.
    def window_moves(self, p, s, state):
        """The moves of suit ``s`` at position ``p``: (runs still open, runs closed,
        naturals used, jokers, aces owed), for every run open in ``s`` and every choice
        of runs to start here."""
        runs = state.runs
        mine = runs[s]
        free = self.R - state.runs_done - sum(len(r) for r in runs)
        # The moves depend on the runs open in this suit and the runs still to start
        # only, and are alike at positions of one class.
        memo = (self.position_class(p), mine, free)
        found = self._moves.get(memo)
        if found is None:
            found = self._moves[memo] = self._window_moves(p, mine, free)
        return found

    def _window_moves(self, p, mine, free):
        if p > self.last:  # the ace, with no ace-high runs: open runs cannot go on
            return [] if mine else [((), 0, 0, 0, 0)]
        remaining = self.last - p
        options = []
        for length, nats, _, _ in mine:
            longer = self.reach(length + 1, remaining)
            ways = self.after_natural(longer, nats + 1, remaining, paid=length - nats)
            if self.keep_open(longer, nats, remaining):
                ways.append((Run(longer, nats, 0, 0), 0, longer - length, 0))
            if not ways:
                return []  # a run that cannot close: not starting it does as well
            options.append(ways)
        starts = self.window_starts(p, remaining) if free > 0 else []
        out = set()
        for combo in itertools.product(*options):
            for k in range(free + 1 if starts else 1):
                for extra in itertools.combinations_with_replacement(starts, k):
                    moves = combo + extra
                    out.add(
                        (
                            tuple(sorted(run for run, _, _, _ in moves if run is not None)),
                            sum(run is None for run, _, _, _ in moves),
                            sum(move[1] for move in moves),
                            sum(move[2] for move in moves),
                            sum(move[3] for move in moves),
                        )
                    )
        return list(out)

    def window_starts(self, p, remaining):
        """The runs whose first natural is here: (run or None when closed at once,
        naturals used here, jokers, aces owed). At the 2 also the runs whose first
        natural is the ace low (owed until the aces are dealt)."""
        kinds = self.after_natural(self.reach(1, remaining), 1, remaining, paid=0)
        if p == 2 and self.ace_low:
            # The ace low at position 1 (closed there, or open), then the 2 in it or not.
            at_ace = self.after_natural(self.reach(1, remaining + 1), 1, remaining + 1, paid=0)
            for run, _, jokers, _ in at_ace:
                if run is None:
                    kinds.append((None, 0, jokers, 1))
                    continue
                length = run.length
                longer = self.reach(length + 1, remaining)
                for two in self.after_natural(longer, 2, remaining, paid=length - 1):
                    kinds.append((two[0], 1, jokers + two[2], 1))
                if self.keep_open(longer, 1, remaining):
                    kinds.append((Run(longer, 1, 0, 0), 0, jokers + longer - length, 1))
        return kinds

    def reach(self, length, remaining) -> int:
        """The length of an open run with ``remaining`` positions above it: jokers below
        its first natural when the positions above cannot bring it to ``mr``."""
        return max(length, self.mr - remaining)

    def after_natural(self, length, nats, remaining, *, paid):
        """A run that takes a natural here (length and naturals counting it), ``paid``
        jokers paid for it before: closed now (None, 1, jokers, 0) and/or kept open
        (run, 1, jokers, 0)."""
        out = []
        jokers = max(self.mr, length) - nats
        if self.limits.run_ok(max(self.mr, length), nats):
            out.append((None, 1, jokers - paid, 0))
        if self.keep_open(length, nats, remaining):
            out.append((Run(length, nats, 0, 0), 1, length - nats - paid, 0))
        return out

    def keep_open(self, length, nats, remaining) -> bool:
        """Whether a run of this length and naturals (up to here) should stay open: some
        later natural closes it legally, and more cheaply than closing it now."""
        if nats >= self.nr and length >= self.mr:
            return False  # one more natural adds at least one position: no saving
        for more in range(max(1, self.nr - nats), remaining + 1):
            # The fewest jokers with `more` naturals, on the next positions.
            total = length + more
            if total > 13:
                break
            if self.limits.jokers_ok(max(self.mr, total) - nats - more):
                return True
        return False

    # -- runs card by card (same-suit runs separated) ----------------------------------
    def card_moves(self, p, s, state):
        """:meth:`window_moves` where runs go card by card, each position a natural or a
        joker, and a run closes as soon as it is legal."""
        runs = state.runs
        mine = runs[s]
        out = []
        for cont, used, jk in self.continue_runs(mine, p):
            in_progress = sum(len(r) for r in runs) - len(mine) + len(cont)
            for new_runs, used2, jk2, owe in self.start_runs(p, s, state, cont, in_progress):
                closed = [r for r in new_runs if r.length >= self.mr and r.naturals >= self.nr]
                still = tuple(
                    sorted(r for r in new_runs if r.length < self.mr or r.naturals < self.nr)
                )
                out.append((still, len(closed), used + used2, jk + jk2, owe))
        return out

    def continue_runs(self, mine, p):
        """Every way to extend each run in progress by one card: natural or joker."""
        if not mine:
            return [((), 0, 0)]
        if p == 14 and not self.ace_high:
            return []
        remaining = self.last - p  # positions after this one
        options = []
        for length, nats, jk, low in mine:
            if p == 14 and low:
                return []  # a run from the ace low cannot reach the ace high
            ways = []
            nat = Run(min(length + 1, self.mr), min(nats + 1, self.nr), jk, low)
            if self.can_finish(nat, remaining):
                ways.append((nat, 1, 0))
            if self.limits.jokers_ok(jk + 1):
                joker = Run(min(length + 1, self.mr), nats, jk + 1, low)
                if self.can_finish(joker, remaining):
                    ways.append((joker, 0, 1))
            if not ways:
                return []
            options.append(ways)
        out = set()
        for combo in itertools.product(*options):
            out.add(
                (
                    tuple(sorted(r for r, _, _ in combo)),
                    sum(u for _, u, _ in combo),
                    sum(k for _, _, k in combo),
                )
            )
        return list(out)

    def can_finish(self, run, remaining):
        length, nats, _, _ = run
        if length >= self.mr and nats >= self.nr:
            return True
        return max(self.mr - length, self.nr - nats) <= remaining

    def start_kinds(self, p):
        """The runs that can start at position p: (run, naturals used, jokers, aces owed)."""
        if p == 14:
            return []
        remaining = self.last - p
        kinds = []
        for nat in (1, 0):
            run = Run(1, nat, 1 - nat, 0)
            if (nat or self.limits.jokers_ok(1)) and self.can_finish(run, remaining):
                kinds.append((run, nat, 1 - nat, 0))
        if p == 2 and self.ace_low:
            for ace, two in _LOW_STARTS:
                jokers = 2 - ace - two
                run = Run(min(2, self.mr), min(ace + two, self.nr), jokers, int(self.ace_high))
                if not self.limits.jokers_ok(jokers):
                    continue
                if self.can_finish(run, remaining):
                    kinds.append((run, two, jokers, ace))
        return kinds

    def start_runs(self, p, s, state, cont, in_progress):
        """Runs in progress after starting new ones here: (runs, naturals, jokers, owed)."""
        out = [(cont, 0, 0, 0)]
        free = self.R - state.runs_done - in_progress
        if free <= 0:
            return out
        if self.separated:
            if state.gap[s] or cont:
                return out
            free = 1
        kinds = self.start_kinds(p)
        for k in range(1, free + 1):
            for combo in itertools.combinations_with_replacement(kinds, k):
                out.append(
                    (
                        tuple(sorted(cont + tuple(run for run, _, _, _ in combo))),
                        sum(n for _, n, _, _ in combo),
                        sum(j for _, _, j, _ in combo),
                        sum(o for _, _, _, o in combo),
                    )
                )
        return out

    def allocate(self, c, spare, used, sets_done, pool):
        """The other copies of this card go to the set pool: (pool, cards added)."""
        if used > c + spare:
            return []
        room = max((self.S - sets_done) * self.Ls - pool, 0) if self.S else 0
        free = min(max(c - used, 0), room)
        most = min(room, c + spare - used)
        return [(pool + q, max(0, used + q - c)) for q in range(free, most + 1)]

    def close_sets(self, state):
        """End of a rank: make sets from the pool (each set is min size, naturals first)."""
        sets_done, runs_done, pool, runs, owed, gap = state
        out = [(State(sets_done, runs_done, 0, runs, owed, gap), 0, 0)]
        for k in range(1, self.S - sets_done + 1):
            if pool < k * self.set_naturals:
                break
            jokers = max(0, k * self.Ls - pool)
            out.append((State(sets_done + k, runs_done, 0, runs, owed, gap), jokers, 0))
        return out


def state_dominates(first: State, second: State) -> bool:
    """True when state ``first`` can do all that ``second`` can (same runs in progress).

    More sets or runs done and more cards pooled are each at least as good (a set or run
    done need not be made again; a pooled natural can always be left out of a set),
    fewer aces owed and fewer gaps too (an owed ace is a card still to hold, a gap a
    position where no run may start).
    """
    if (
        first.sets_done < second.sets_done
        or first.runs_done < second.runs_done
        or first.pool < second.pool
    ):
        return False
    if any(x > y for x, y in zip(first.owed, second.owed, strict=True)):
        return False
    return all(x <= y for x, y in zip(first.gap, second.gap, strict=True))


def state_fields(state: State) -> tuple[int, ...]:
    """The :data:`NFIELDS` fields of a state that :func:`state_dominates` compares, as
    the compiled step reads them: :data:`MORE_IS_BETTER` first, then fewer is better."""
    return (state.sets_done, state.runs_done, state.pool) + state.owed + state.gap


def permute_state(state: State, perm: tuple) -> State:
    """The state with suit ``perm[k]``'s runs, owed aces and gap in suit ``k``."""
    if state is ACCEPT:
        return state
    return State(
        state.sets_done,
        state.runs_done,
        state.pool,
        tuple(state.runs[i] for i in perm),
        tuple(state.owed[i] for i in perm),
        tuple(state.gap[i] for i in perm),
    )


def _replace(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def pareto(costs):
    """The Pareto front of (jokers, added) pairs, by increasing jokers."""
    costs = sorted(set(costs))
    out = []
    best_a = math.inf
    for j, a in costs:
        if a < best_a:
            out.append((j, a))
            best_a = a
    return out
