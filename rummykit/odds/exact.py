"""Exact contract odds by counting hands, never by sampling.

A dealt hand is a multiset of natural cards (0..``decks`` copies of each of the 52) plus
some jokers. Whether it "contains" a contract depends on the naturals only through the
fewest jokers the contract needs, so we count natural multisets by that number and mix
in the jokers at the end with binomials.

The count is a sweep over the cards in run order: the ranks 2..K, then the aces, which
end runs through the king (ace high) and pay for runs started from the ace low (such a
run starts at the 2 and owes its ace until the aces are dealt). At each card we branch
on how many copies the hand holds, weighted by the number of ways to hold them,
``C(decks, k)``, and by ``x**k`` in a polynomial that counts cards. The key of a branch
is the *set* of partial arrangements the hand so far allows (sets and runs completed,
runs in progress per suit and their joker use, cards pooled for a set of the current
rank, aces owed to ace-low runs), each with the fewest jokers it needs. Two hands with
the same key have the same future, and every hand follows exactly one branch, so each
hand is counted once however many arrangements it has. A run in progress is a window
over its naturals: where its jokers sit does not matter, so the jokers that bring a
short run to length are paid when it closes, and a run is carried once, not once per
place of its jokers.

Runs never mix suits, so a contract of runs only is counted one suit at a time: a sweep
of a single suit gives, per holding, the fewest jokers that make r runs (r = 0..R), and
the suits are combined by a min-plus convolution. A contract with sets and runs needs
all four suits in one sweep; its keys remember recent cards of every suit, so it takes
longer on full shoes. Each step of the sweep is done by a compiled extension
(``_sweep.c``, :data:`NATIVE`) when it is built, else in Python, with the same counts.
From the 3 to the king every position has the moves of the middle of the sweep, and
most keys of a rank were keys of the rank before, so the compiled sweep keeps each
key's successors and reads them at the next rank instead of stepping the key again
(two thirds of the keys stepped, in the widest sweeps). The compiled step also drops
every arrangement that needs more cards than a hand of at most ``max_naturals`` cards
(jokers included) can still hold, which makes the cost grow steeply with the hand size:
a sweep answers every smaller hand and every joker count up to its own, so
:func:`dealt_count` sweeps for exactly the hand it is asked about.
Measured on one core under ``standard`` (CPU seconds, every joker count the contract
can use; :data:`rummykit.odds.tables.SWEEP_SECONDS` has the whole grid):

=================  ============  ============  ============
contract           12 cards      14 cards      15 cards
=================  ============  ============  ============
1 set + 1 run      0.2 - 0.8     0.3 - 1.6     0.3 - 1.8
2 sets + 1 run     0.2 - 1.0     0.9 - 7.9     1.7 - 15
1 set + 2 runs     0.5 - 1.7     4.3 - 25      11 - 76 (1 - 3 decks)
=================  ============  ============  ============

(1 to 4 decks; the Python sweep, which does not drop arrangements by hand size, takes
12 s for 1 set + 1 run with 1 deck and 15 cards, and minutes for 1 set + 2 runs.)
:func:`rummykit.odds.simulate.simulate_dealt` estimates any cell in a second.

>>> from fractions import Fraction
>>> from rummykit import CONTRACTS, RuleSet
>>> rules = RuleSet.preset("standard")
>>> p = dealt_probability(CONTRACTS[0], decks=2, jokers=4, cards=10, rules=rules)
>>> isinstance(p, Fraction), 0 < p < 1
(True, True)
"""

from __future__ import annotations

import array
import collections
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rummykit.cards import Rank, Suit
from rummykit.rules import Contract, RuleSet

__all__ = [
    "ExactTable",
    "dealt_count",
    "cached_probability",
    "dealt_probability",
    "distance_distribution",
    "exact_table",
    "sweep_rules",
]

Progress = Callable[[int, int], None]

#: Hand sizes and joker counts a distance sweep covers (and exact_table's defaults), so
#: that one sweep serves a whole table. A dealt-mode sweep covers what it is asked: its
#: cost grows fast with the hand size (see run_native), so dealt_count sweeps for its
#: own hand size and jokers, and a table asks once for its largest.
_MIN_CARDS = 15
_MIN_JOKERS = 8

_ALL_RANKS = frozenset(Rank)
_ALL_SUITS = tuple(Suit)
_ACCEPT = (-1,)  # the state "contract complete"; sorts before every other state
_UNKNOWN = object()
#: Key transitions are kept for this many ranks: keys recur, but memory is finite.
_KEEP_RANKS = 2
#: Fields per state that decide dominance (see _Sweep.extend_fields).
_NFIELDS = 11

try:
    from rummykit.odds import _sweep as _native
except ImportError:  # not built (no C compiler): the same sweep runs in Python
    _native = None
#: True when the compiled step of the sweep is built; sweeps then use it.
NATIVE = _native is not None


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


def _check_args(contract: Contract, decks: int, jokers: int, cards: int, rules: RuleSet) -> None:
    if not isinstance(contract, Contract):
        raise TypeError(f"contract must be a Contract, got {contract!r}")
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {rules!r}")
    for name, value, low in (("decks", decks, 1), ("jokers", jokers, 0), ("cards", cards, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


def _shoe(decks: int, ranks: Iterable[Rank] | None, suits: Iterable[Suit] | None):
    rank_set = _ALL_RANKS if ranks is None else frozenset(Rank(r) for r in ranks)
    suit_set = _ALL_SUITS if suits is None else tuple(s for s in _ALL_SUITS if s in set(suits))
    if not rank_set or not suit_set:
        raise ValueError("a shoe needs at least one rank and one suit")
    return rank_set, suit_set, decks * len(rank_set) * len(suit_set)


def dealt_count(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    progress: Progress | None = None,
) -> int:
    """The number of ``cards``-card hands (subsets of the physical shoe) holding ``contract``.

    ``ranks`` and ``suits`` shrink the shoe to those ranks and suits (all by default), for
    teaching and for tests that enumerate every hand.

    >>> from rummykit import Contract, Rank, RuleSet, Suit
    >>> rules = RuleSet.preset("standard")
    >>> dealt_count(Contract(sets=1), decks=1, jokers=0, cards=3, rules=rules,
    ...             ranks=[Rank.TWO], suits=list(Suit))   # C(4, 3) hands, all sets
    4
    """
    _check_args(contract, decks, jokers, cards, rules)
    rank_set, suit_set, naturals = _shoe(decks, ranks, suits)
    if cards < contract.min_cards(rules):
        return 0  # too few cards for the melds: no sweep needed
    table = exact_table(
        contract,
        rules=rules,
        decks=decks,
        ranks=rank_set,
        suits=suit_set,
        max_naturals=cards,
        joker_cap=jokers,
        progress=progress,
    )
    total = 0
    for j in range(min(jokers, cards) + 1):
        ways_jokers = math.comb(jokers, j)
        for need, poly in table.counts.items():
            if need <= j:
                total += ways_jokers * poly[cards - j]
    return total


def dealt_probability(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    progress: Progress | None = None,
) -> Fraction:
    """The exact probability that ``cards`` cards dealt from the shoe hold ``contract``.

    The shoe is ``decks`` standard decks plus ``jokers`` jokers (``ranks``/``suits``
    shrink it). The hand holds the contract when it has ``contract.sets`` sets and
    ``contract.runs`` runs, no card in two melds, each legal under ``rules``: exactly what
    :func:`rummykit.melds.find_contract` decides. Sweeps are cached, so a second call
    with another hand size or joker count is immediate.

    P = #hands holding the contract / C(52 * decks + jokers, cards).

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> dealt_probability(Contract(sets=1), decks=1, jokers=0, cards=3, rules=rules)
    Fraction(1, 425)
    >>> Fraction(13 * 4, math.comb(52, 3))   # 13 ranks x C(4, 3) sets among C(52, 3) hands
    Fraction(1, 425)
    """
    count = dealt_count(
        contract,
        decks=decks,
        jokers=jokers,
        cards=cards,
        rules=rules,
        ranks=ranks,
        suits=suits,
        progress=progress,
    )
    _, _, naturals = _shoe(decks, ranks, suits)
    return Fraction(count, math.comb(naturals + jokers, cards))


def cached_probability(
    contract: Contract, *, decks: int, jokers: int, cards: int, rules: RuleSet
) -> Fraction | None:
    """:func:`dealt_probability` when a sweep already made in this process answers it
    (so nothing is counted), else None; a hand too small for the contract is 0.

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> cached_probability(Contract(sets=1, runs=1), decks=1, jokers=1, cards=6, rules=rules)
    Fraction(0, 1)
    >>> p = dealt_probability(Contract(sets=1, runs=1), decks=1, jokers=1, cards=8, rules=rules)
    >>> cached_probability(Contract(sets=1, runs=1), decks=1, jokers=0, cards=7, rules=rules) > 0
    True
    """
    _check_args(contract, decks, jokers, cards, rules)
    if cards < contract.min_cards(rules):
        return Fraction(0)
    key = (contract, sweep_rules(rules), decks, _ALL_RANKS, _ALL_SUITS, "dealt")
    if not any(c >= cards and j >= jokers for c, j, _ in list(_CACHE.get(key, ()))):
        return None
    return dealt_probability(contract, decks=decks, jokers=jokers, cards=cards, rules=rules)


def distance_distribution(
    contract: Contract,
    *,
    decks: int,
    jokers: int,
    cards: int,
    rules: RuleSet,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    progress: Progress | None = None,
) -> dict[int, Fraction]:
    """The exact distribution of the contract distance of a dealt hand.

    The distance of a hand is the fewest natural cards to add so that it holds
    ``contract`` (what :func:`rummykit.melds.contract_distance` computes with
    ``decks=decks``): added cards may be any natural of the 52, as long as the hand then
    holds at most ``decks`` copies of each card; jokers are not added. The added cards
    may be of ranks or suits missing from a shrunken shoe. Distance 0 means the hand
    holds the contract, so ``result[0] == dealt_probability(...)``.

    >>> from rummykit import Contract, RuleSet
    >>> rules = RuleSet.preset("standard")
    >>> dist = distance_distribution(Contract(sets=1), decks=1, jokers=0, cards=2, rules=rules)
    >>> dist == {1: Fraction(1, 17), 2: Fraction(16, 17)}   # a pair needs one more card
    True
    """
    _check_args(contract, decks, jokers, cards, rules)
    rank_set, suit_set, naturals = _shoe(decks, ranks, suits)
    table = exact_table(
        contract,
        rules=rules,
        decks=decks,
        ranks=rank_set,
        suits=suit_set,
        max_naturals=max(cards, _MIN_CARDS),
        joker_cap=max(jokers, _MIN_JOKERS),
        mode="distance",
        progress=progress,
    )
    total = math.comb(naturals + jokers, cards)
    result: dict[int, int] = defaultdict(int)
    for j in range(min(jokers, cards) + 1):
        ways_jokers = math.comb(jokers, j)
        for need, poly in table.counts.items():
            if poly[cards - j]:
                # Jokers beyond the most the contract can use change nothing.
                result[need[min(j, len(need) - 1)]] += ways_jokers * poly[cards - j]
    return {d: Fraction(n, total) for d, n in sorted(result.items()) if n}


def exact_table(
    contract: Contract,
    *,
    rules: RuleSet,
    decks: int,
    ranks: Iterable[Rank] | None = None,
    suits: Iterable[Suit] | None = None,
    max_naturals: int = _MIN_CARDS,
    joker_cap: int = _MIN_JOKERS,
    mode: str = "dealt",
    progress: Progress | None = None,
) -> ExactTable:
    """Run (or fetch from the cache) one sweep; see :class:`ExactTable`.

    ``progress(done, total)`` is called after each step of the sweep.
    """
    if mode not in ("dealt", "distance"):
        raise ValueError(f"mode must be 'dealt' or 'distance', got {mode!r}")
    rank_set, suit_set, _ = _shoe(decks, ranks, suits)
    return _cached_table(
        contract, rules, decks, rank_set, suit_set, max_naturals, joker_cap, mode, progress
    )


def sweep_rules(rules: RuleSet) -> tuple:
    """The rules a sweep depends on: two rule sets with the same tuple share their sweeps.

    Meld sizes, naturals required, jokers per meld, same-suit runs and the ace; the rest
    (dealing, buying, scoring) never changes which hands hold a contract.

    >>> sweep_rules(RuleSet.preset("bga")) == sweep_rules(RuleSet.preset("standard"))
    True
    """
    return (
        rules.min_set_size,
        rules.min_naturals_in_set,
        rules.min_run_size,
        rules.min_naturals_in_run,
        rules.max_jokers_per_meld,
        rules.same_suit_runs == "separated",
        rules.ace_low,
        rules.ace_high,
    )


def _cached_table(contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode, progress):
    key = (contract, sweep_rules(rules), decks, ranks, suits, mode)
    # A table answers any request with no more cards and no more jokers than it was
    # asked for (its own joker_cap may be lower: jokers the contract cannot use).
    for cards, jokers, table in _CACHE.get(key, ()):
        if cards >= max_naturals and jokers >= joker_cap:
            return table
    if contract.sets == 0:
        table = _runs_only(
            contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode, progress
        )
    else:
        sweep = _Sweep(contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode)
        table = sweep.run(progress)
    _CACHE.setdefault(key, []).append((max_naturals, joker_cap, table))
    return table


_CACHE: dict = {}


def _runs_only(contract, rules, decks, ranks, suits, max_naturals, joker_cap, mode, progress):
    """Runs never mix suits, so sweep one suit and combine the suits afterwards.

    One suit's sweep gives, for each holding of that suit, its *profile*: for each number
    of runs r = 0..R, the best (jokers, added cards) that make r runs in the suit (one
    pair in "dealt" mode, a Pareto front in "distance" mode). A hand's best for R runs is
    the min-plus convolution of its suits' profiles, and suits are dealt independently
    given their sizes, so the count is a product of polynomials summed over profiles.
    In distance mode the suits missing from the shoe count too (cards may be added).
    """
    kinds = [(suits[0], len(suits))]
    if mode == "distance" and len(suits) < 4:
        kinds.append((None, 4 - len(suits)))
    top, R = max_naturals, contract.runs
    combined = {(((0, 0),),) + ((),) * R: [1] + [0] * top}
    jcap = 0
    for suit, repeat in kinds:
        sweep = _Sweep(
            contract,
            rules,
            decks,
            ranks,
            (suit,) if suit else (),
            max_naturals,
            joker_cap,
            mode,
            swept=((suit or suits[0]).index,),
            profile=True,
        )
        jcap = sweep.jcap
        one = sweep.run(progress).counts
        for _ in range(repeat):
            combined = _convolve(combined, one, R, jcap, top)
    counts: dict = {}
    for prof, poly in combined.items():
        front = prof[R]
        if not front:
            continue
        if mode == "dealt":
            need = front[0][0]
        else:
            need = tuple(min(a for j, a in front if j <= k) for k in range(jcap + 1))
        acc = counts.setdefault(need, [0] * (top + 1))
        for i, v in enumerate(poly):
            acc[i] += v
    naturals = decks * len(ranks) * len(suits)
    return ExactTable(mode, naturals, top, jcap, counts, len(combined))


def _convolve(combined: dict, one: dict, R: int, jcap: int, top: int) -> dict:
    """Add one suit: min-plus convolve the profiles, multiply the polynomials."""
    out: dict = {}
    for prof_a, poly_a in combined.items():
        for prof_b, poly_b in one.items():
            prof = tuple(
                tuple(
                    _pareto(
                        (ja + jb, aa + ab)
                        for i in range(r + 1)
                        for ja, aa in prof_a[i]
                        for jb, ab in prof_b[r - i]
                        if ja + jb <= jcap
                    )
                )
                for r in range(R + 1)
            )
            acc = out.setdefault(prof, [0] * (top + 1))
            for i, u in enumerate(poly_a):
                if u:
                    for k in range(top + 1 - i):
                        if poly_b[k]:
                            acc[i + k] += u * poly_b[k]
    return out


# ------------------------------------------------------------------------------------
# The sweep.
#
# Cards are visited in run order 2, 3, .., K and last the ace, which plays both ends:
# a run through the ace high simply continues from the king, and a run from the ace low
# is started at the 2 with its ace "owed" (or a joker in its place) and the owed aces
# are paid when the aces are dealt at the end. So nothing about the hand's aces is
# carried through the sweep, which keeps keys few.
#
# A partial arrangement ("state") is a tuple
#   (sets_done, runs_done, pool, runs, owed, gap)
# with ``runs`` a tuple per suit of the runs in progress: each (length, naturals, 0, 0)
# when runs are windows (see _Sweep.window_moves), or, where same-suit runs must be
# separated and runs go card by card, (length, naturals, jokers, from_ace_low) with
# length capped at min_run_size and naturals at min_naturals_in_run; ``pool`` the
# naturals of the current rank put aside for sets;
# ``owed`` per suit the natural aces owed by ace-low runs; ``gap`` per suit 1 when a
# run of that suit ended at the previous position ("separated" runs only). A key is a
# frozenset of (state, jokers, added), where ``added`` counts natural cards added to
# the hand (distance mode only).
#
# Arrangements are pruned where another always does at least as well, which keeps keys
# small and does not change the answer: a run ends as soon as it is legal, or at its
# last natural (extending it only uses more cards), a run in progress is never
# abandoned (not starting it is as good), spare cards of the hand always go to the pool
# (pooled cards cost nothing), and see _dominates; the compiled step also drops an
# arrangement when one with some of its runs in progress ended instead is in the key at
# no more jokers (extend_closures).

_LOW_STARTS = (  # (ace, 2), card by card: 1 natural / 0 joker
    (1, 1),
    (1, 0),
    (0, 1),
    (0, 0),
)


class _Sweep:
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
        self.J = rules.max_jokers_per_meld
        jmax = math.inf if self.J is None else self.J
        self.Ls = max(rules.min_set_size, rules.min_naturals_in_set)
        self.set_naturals = max(rules.min_naturals_in_set, self.Ls - jmax)
        self.mr = rules.min_run_size
        self.nr = rules.min_naturals_in_run
        self.separated = rules.same_suit_runs == "separated"
        self.ace_low, self.ace_high = rules.ace_low, rules.ace_high
        self.last = 14 if rules.ace_high else 13
        # Jokers beyond what the contract could ever use are never tracked.
        useful = self.S * (self.Ls - self.set_naturals)
        useful += self.R * (13 if self.J is None else self.J)
        self.jcap = min(joker_cap, useful)
        if self.jcap >= 64:
            raise ValueError("more jokers than a sweep can track")
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
        self._succ: dict = {}
        self._sids: dict = {}
        self._states: list = [_ACCEPT]
        self._group = array.array("i", [-1])
        self._proj: list = [None]
        # Per state, flat arrays for the compiled step (grown, never rebuilt): proj (4 a
        # state), permuted states (a row of suit_permutations() a state) and closures
        # (each state's from cends[sid] to cends[sid + 1] in cflat).
        self._proj_arr = array.array("i", [0] * 4)
        self._by_proj: dict = {}
        self._perm_arr = array.array("i")
        self._perm_rows = 0
        self._cends = array.array("q", [0])
        self._cflat = array.array("i")
        self._names: dict = {}
        self._perm: dict = {}
        self._dom: dict = {}
        self._fields = array.array("b")
        self._need = array.array("b")
        self._closures: list = []
        self._moves: dict = {}
        self.native = True
        # The compiled sweep keeps the successors of keys for the next rank (see
        # run_native); off only to test that it changes nothing.
        self.memo = True
        self.memo_stats = None
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
        :meth:`run_native`.)
        """
        if p not in (2, 14) and self.last - p >= max(self.mr - 1, self.nr):
            return 0
        return p

    def run(self, progress: Progress | None) -> ExactTable:
        """Sweep with the compiled step when it is built (:data:`NATIVE`), else in Python."""
        # The compiled step adds residues (< 2**31) times C(decks, k) (< 2**8) in 64 bits.
        if NATIVE and self.native and max(self.binom) < 256:
            return self.run_native(progress)
        return self.run_python(progress)

    def run_native(self, progress: Progress | None) -> ExactTable:
        """:meth:`run_python` with each step of the layer done by ``_sweep.step`` (C).

        Python still makes every state and its successors (there are a few hundred to a
        few thousand); the compiled step maps the layer's keys (up to hundreds of
        thousands) and adds up their polynomials, which is where the Python sweep spends
        its time. A layer is one array of codes, one of offsets and one of polynomials
        (keys x moduli x cards), so keys never become Python objects.
        """
        start = (0, 0, 0, ((),) * 4, (0,) * 4, (0,) * 4)
        moduli = _moduli_for(max(math.comb(self.naturals, n) for n in range(self.T + 1)))
        mods = np.array(moduli, dtype=np.int64)
        width = self.T + 1
        # The compiled step numbers every key of the sweep and holds the layer.
        keys = _native.Keys()
        polys = np.zeros((1, len(moduli), width), dtype=np.int64)
        polys[0, :, 0] = 1
        first = self.prune({self.sid(start) << 12})
        keys.start(first, np.array([0, len(first) // 4], dtype=np.int64), polys, mods)
        # The close of a rank (sets made from the pool) is folded into its last card: one
        # step fewer per rank, and the keys between them are never made.
        steps = [step for step in self.steps() if step[0] == "card"]
        last = self.swept[-1]
        widest = 1
        perms = self.suit_permutations()
        permmaps = np.array(perms, dtype=np.int8).reshape(-1, 4)
        no_perms = np.zeros((0, 4), dtype=np.int8)
        # Within a rank, the suits dealt this rank are interchangeable among themselves,
        # and so are the suits still to deal: keys are made canonical under those
        # permutations after each card (after the last, under all of them).
        subgroups = self.rank_subgroups(perms)
        # Positions of class 0 have the same transitions, and most keys of a rank were
        # keys of the rank before: there each suit's step keeps its keys' successors for
        # the same step of the next rank (a cache per suit, see _sweep.Keys.step).
        caches = {s: i for i, s in enumerate(self.swept)}
        # The moves of the middle (class 0) are valid at every position but the 2 and
        # the ace: near the top they may keep open a run that can no longer be finished
        # (a later position drops it) or start one without the jokers below it that the
        # last positions need (the ace counts them in when the run closes), and neither
        # changes a count. So the compiled sweep moves as in the middle from the 3 to the
        # king, and those steps too keep and read the kept successors.
        middle = next((q for q in range(3, 14) if self.position_class(q) == 0), None)
        for done, (kind, p, s) in enumerate(steps, 1):
            held = self.copies(p, s)
            chosen = subgroups[s]
            merge = len(chosen) > 1
            closes = s == last
            cls, at = (0, middle) if middle and 2 < p < 14 else (self.position_class(p), p)
            cache = caches[s] if cls == 0 and self.memo else -1
            # The states of the keys to step anew (the others' successors are kept).
            present = np.frombuffer(keys.present(held + 1, cache), dtype=np.uint32).tolist()
            tables = [
                self.successor_table(kind, cls, at, s, c, present, closes=closes)
                for c in range(held + 1)
            ]
            self.extend_closures()
            if merge:
                self.close_permutations(perms)
            n = len(self._states)
            self.extend_fields()
            # (Copies, not views: the arrays grow while a view exists.)
            cstarts = np.array(self._cends, dtype=np.int64)
            csids = np.array(self._cflat, dtype=np.int32)
            # Dealt mode: a hand of at most T cards (naturals and jokers) must complete,
            # so arrangements that need more are dropped (counts with n + need > T change;
            # finish() leaves them out in both sweeps).
            budget = (None, -1) if self.distance or self.profile else (self._need[:n], self.T)
            sizes = np.zeros((held + 1, n), dtype=np.int64)
            deltas = []
            for c, table in enumerate(tables):
                rows = [table[sid] for sid in present]
                sizes[c, present] = [len(row) for row in rows]
                deltas.extend(delta for row in rows for delta, _ in row)
            ends = np.cumsum(sizes.reshape(-1)).reshape(held + 1, n)
            starts = np.concatenate((ends[:, :1] - sizes[:, :1], ends), axis=1)
            size = keys.step(
                starts,
                np.array(deltas, dtype=np.uint32),
                np.array(self._group, dtype=np.int32),
                self._fields[: n * _NFIELDS],
                np.array(self._proj_arr, dtype=np.int32),
                np.ascontiguousarray(
                    np.array(self._perm_arr, dtype=np.int32).reshape(-1, len(perms))[:, chosen]
                )
                if merge
                else np.zeros(0, dtype=np.int32),
                permmaps[chosen] if merge else no_perms,
                np.array(self.binom[: held + 1], dtype=np.int64),
                self.jcap,
                3,
                *budget,
                cstarts,
                csids,
                cache,
            )
            # (Keys reached only by hands of more than T natural cards count nothing and
            # are left out: an empty layer means no hand of at most T cards completes.)
            if not size:
                break
            widest = max(widest, size)
            if progress is not None:
                progress(done, len(steps))
        ids, polys = keys.layer()
        ids = np.frombuffer(ids or b"", dtype=np.int64)
        polys = np.frombuffer(polys or b"", dtype=np.int64).reshape(-1, len(moduli), width)
        layer = [keys.codes(int(i)) for i in ids]
        self.memo_stats = keys.stats()
        return self.finish(layer, polys.transpose(1, 0, 2), moduli, widest)

    def successor_table(self, kind, cls, p, s, c, sids, *, closes=False) -> dict:
        """The successors ``(delta, dj)`` of each state in ``sids`` (see :meth:`step_key`),
        followed by the close of the rank when ``closes``."""
        table = self._succ.setdefault((kind, cls, s, c, closes), {})
        for sid in sids:
            if sid not in table:
                entries = [
                    ((self.sid(new) << 12) | (dj << 6) | da, dj)
                    for new, dj, da in self.successors(self._states[sid], kind, p, s, c)
                ]
                table[sid] = tuple(self.then_close(entries) if closes else entries)
        return table

    def then_close(self, entries) -> list:
        """Successors ``(delta, dj)`` followed by the close of the rank (:meth:`close_sets`)."""
        out: dict = {}
        for delta, dj in entries:
            sid = delta >> 12
            if not sid:  # complete: nothing left to close
                out.setdefault(delta, dj)
                continue
            for new, dj2, da2 in self.close_sets(self._states[sid]):
                code = (self.sid(new) << 12) | ((delta & 4095) + ((dj2 << 6) | da2))
                out.setdefault(code, dj + dj2)
        return list(out.items())

    def suit_permutations(self) -> list[tuple]:
        """Every order of the interchangeable suits, as :func:`_permute` takes it."""
        slots = sorted(self.symmetric)
        out = []
        for arrangement in itertools.permutations(slots):
            perm = list(range(4))
            for slot, t in zip(slots, arrangement, strict=True):
                perm[slot] = t
            out.append(tuple(perm))
        return out

    def rank_subgroups(self, perms) -> dict:
        """Per suit, the indices in ``perms`` that are canonical after dealing that suit:
        those keeping the suits dealt so far this rank (in sweep order) among themselves
        (after the last suit, all of them)."""
        out = {}
        for i, s in enumerate(self.swept):
            dealt = set(self.swept[: i + 1])
            keep = [
                k
                for k, perm in enumerate(perms)
                if all((perm[slot] in dealt) == (slot in dealt) for slot in range(4))
            ]
            out[s] = keep
        return out

    def close_permutations(self, perms) -> None:
        """Give every state its row of permuted states (which may make new states).

        A state is known by what it says about each suit (its proj), so a permuted state
        is found by its permuted proj; only one not met yet is made."""
        rows, by_proj, projs = self._perm_arr, self._by_proj, self._proj
        while self._perm_rows < len(self._states):
            sid = self._perm_rows
            self._perm_rows += 1
            if not sid:
                rows.extend([0] * len(perms))
                continue
            proj = projs[sid]
            for perm in perms:
                new = by_proj.get((proj[perm[0]], proj[perm[1]], proj[perm[2]], proj[perm[3]]))
                rows.append(self.permute_code(sid << 12, perm) >> 12 if new is None else new)

    def extend_closures(self) -> None:
        """Each state's closures: the states with some of its runs in progress ended
        instead (one more run done for each, all else alike). A closure can do all the
        state can (a run done is at least as good as one in progress), so the compiled
        step drops a state when a closure is in the key at no more jokers."""
        closures = self._closures
        while len(closures) < len(self._states):
            sid = len(closures)
            out = set()
            if sid:
                sets_done, runs_done, pool, runs, owed, gap = self._states[sid]
                flat = [(t, i) for t in range(4) for i in range(len(runs[t]))]
                for m in range(1, len(flat) + 1):
                    for ended in itertools.combinations(flat, m):
                        left = tuple(
                            tuple(r for i, r in enumerate(runs[t]) if (t, i) not in ended)
                            for t in range(4)
                        )
                        out.add(self.sid((sets_done, runs_done + m, pool, left, owed, gap)))
            out.discard(0)  # complete: the step drops what a complete entry dominates
            closures.append(sorted(out))
            self._cflat.extend(closures[-1])
            self._cends.append(len(self._cflat))

    def extend_fields(self) -> None:
        """Each state's fields for dominance: sets, runs and pool (more is better), then
        aces owed and gaps per suit (fewer is better); see :func:`_state_dominates`."""
        fields = self._fields
        for sid in range(len(fields) // _NFIELDS, len(self._states)):
            state = self._states[sid]
            if sid == 0:
                fields.extend([0] * _NFIELDS)
            else:
                fields.extend(state[:3] + state[4] + state[5])
            self._need.append(self.cards_to_complete(state))

    def cards_to_complete(self, state) -> int:
        """The fewest cards (natural or joker) a hand still needs to complete from ``state``.

        Each set still to make needs ``Ls`` cards (less the cards pooled this rank), each
        run in progress its missing length or naturals (an open window at least one more
        natural), each run not started ``mr``, and each ace owed to an ace-low run is a
        card still to hold. A lower bound, used to drop arrangements a hand of at most
        ``T`` cards cannot complete (see :meth:`run_native`).
        """
        if state is _ACCEPT:
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

    def run_python(self, progress: Progress | None) -> ExactTable:
        """Sweep the cards, carrying hand counts per key as residues modulo a few primes.

        A layer is a list of keys and one integer array of their hand-count polynomials;
        the exact counts are rebuilt by the Chinese remainder theorem at the end (the
        moduli multiply to more than any count). The successors of a state are computed
        once per class of positions (:meth:`position_class`), and the transitions of keys
        are kept for the last :data:`_KEEP_RANKS` ranks, since most keys recur.
        """
        start = (0, 0, 0, ((),) * 4, (0,) * 4, (0,) * 4)
        moduli = _moduli_for(max(math.comb(self.naturals, n) for n in range(self.T + 1)))
        mods = np.array(moduli, dtype=np.int64).reshape(-1, 1, 1)
        width = self.T + 1
        layer = [self.prune({self.sid(start) << 12})]
        polys = np.zeros((len(moduli), 1, width), dtype=np.int64)
        polys[:, 0, 0] = 1
        steps = self.steps()
        widest = 1
        tables: dict = {}
        previous: collections.deque = collections.deque(maxlen=_KEEP_RANKS)
        for done, (kind, p, s) in enumerate(steps, 1):
            held = self.copies(p, s) if kind == "card" else 0
            # Suits of one shoe are interchangeable: merge keys up to suit permutations at
            # the end of each rank (within a rank it costs more time than it saves).
            merge = kind == "close" and len(self.symmetric) > 1
            ids: dict = {}
            targets, parts = [], []
            cls = self.position_class(p) if kind == "card" else -1
            for c in range(held + 1):
                row = []
                table = tables.setdefault((kind, cls, s, c), {})
                before = [old.get((kind, cls, s, c), {}) for old in previous]
                for key in layer:
                    new = table.get(key, _UNKNOWN)
                    if new is _UNKNOWN:
                        for old in before:
                            new = old.get(key, _UNKNOWN)
                            if new is not _UNKNOWN:
                                break
                        else:
                            new = self.step_key(key, kind, p, s, c)
                            if new is not None and merge:
                                new = self.canonical(new)
                        table[key] = new
                    row.append(-1 if new is None else ids.setdefault(new, len(ids)))
                row = np.array(row, dtype=np.int64)
                keep = row >= 0
                if not keep.any():
                    continue
                part = np.zeros((len(moduli), int(keep.sum()), width), dtype=np.int64)
                part[:, :, c:] = polys[:, keep, : width - c] * self.binom[c]
                targets.append(row[keep])
                parts.append(part)
            if not targets:
                layer, polys = [], np.zeros((len(moduli), 0, width), dtype=np.int64)
                break
            order, polys = _merge(np.concatenate(targets), np.concatenate(parts, axis=1))
            polys %= mods
            # Keys reached only by hands of more than T natural cards count nothing: drop
            # them (a count is 0 exactly when all its residues are, since it is below the
            # product of the moduli).
            alive = polys.any(axis=(0, 2))
            if not alive.all():
                polys = polys[:, alive, :]
                order = [t for t, keep in zip(order, alive.tolist(), strict=True) if keep]
            new_keys = list(ids)
            layer = [new_keys[t] for t in order]
            widest = max(widest, len(layer))
            if kind == "close":
                # Keys recur from rank to rank: keep the transitions of the last ranks.
                previous.appendleft(tables)
                tables = {}
            if progress is not None:
                progress(done, len(steps))
        return self.finish(layer, polys, moduli, widest)

    def finish(self, layer, polys, moduli, widest) -> ExactTable:
        """Sum the last layer's polynomials by what each key needs; rebuild the counts."""
        mods = np.array(moduli, dtype=np.int64).reshape(-1, 1)
        width = self.T + 1
        residues: dict = {}
        for row, key in enumerate(layer):
            need = self.need(key)
            if need is None:
                continue
            acc = residues.get(need)
            residues[need] = polys[:, row, :] if acc is None else (acc + polys[:, row, :]) % mods
        # In dealt mode a hand of n naturals that needs more than T - n jokers is left out:
        # no hand of at most T cards has it (and run_native does not count it exactly).
        dealt = not self.distance and not self.profile
        counts = {
            need: [
                0 if dealt and i + need > self.T else _crt([int(r) for r in acc[:, i]], moduli)
                for i in range(width)
            ]
            for need, acc in residues.items()
        }
        counts = {need: poly for need, poly in counts.items() if any(poly)}
        return ExactTable(self.mode, self.naturals, self.T, self.jcap, counts, widest)

    # -- states as integers ------------------------------------------------------------
    # A key is a set of integer codes ``sid << 12 | j << 6 | a``: ``sid`` numbers the state
    # (0 is "contract complete"), ``j`` the jokers and ``a`` the added cards. It is
    # stored packed, as the bytes of the sorted codes (see _pack): sweeps hold millions.

    def sid(self, state) -> int:
        """The number of a state, with what pruning and canonical keys need of it."""
        found = self._sids.get(state)
        if found is not None:
            return found
        if state[0] == self.S and state[1] == self.R and not any(state[4]):
            found = 0  # complete: every complete state is the same
        else:
            found = len(self._states)
            if found >= 1 << 20:
                raise RuntimeError("too many states for a sweep's 32-bit codes")
            self._states.append(state)
            self._group.append(self._intern(("runs", state[3])))
            proj = tuple(
                self._intern((state[:3], state[3][s], state[4][s], state[5][s])) for s in range(4)
            )
            self._proj.append(proj)
            self._proj_arr.extend(proj)
            self._by_proj[proj] = found
        self._sids[state] = found
        return found

    def _intern(self, value) -> int:
        return self._names.setdefault(value, len(self._names))

    def canonical(self, key: bytes) -> bytes:
        """The least of the keys got from ``key`` by permuting interchangeable suits.

        Suits are ordered by what the key says about each, and every order is tried only
        among suits the key describes alike, so permuted keys give the same result.
        """
        proj = self._proj
        key = _codes(key)
        movable = self.symmetric
        signature = {
            t: sorted((proj[code >> 12][t], code & 4095) for code in key if code >> 12)
            for t in movable
        }
        order = sorted(movable, key=lambda t: signature[t])
        groups = [list(g) for _, g in itertools.groupby(order, key=lambda t: signature[t])]
        slots = sorted(movable)
        best = None
        for arrangement in itertools.product(*(itertools.permutations(g) for g in groups)):
            perm = list(range(4))
            for slot, t in zip(slots, (t for group in arrangement for t in group), strict=True):
                perm[slot] = t
            candidate = tuple(sorted(self.permute_code(code, tuple(perm)) for code in key))
            if best is None or candidate < best:
                best = candidate
        return _pack(best)

    def permute_code(self, code: int, perm: tuple) -> int:
        sid = code >> 12
        if not sid:
            return code
        new = self._perm.get((sid, perm))
        if new is None:
            new = self._perm[(sid, perm)] = self.sid(_permute(self._states[sid], perm))
        return (new << 12) | (code & 4095)

    def need(self, key):
        key = _codes(key)
        costs = [((code >> 6) & 63, code & 63) for code in key]
        if self.profile:
            runs = [self._states[code >> 12][1] if code >> 12 else self.R for code in key]
            return tuple(
                tuple(_pareto(cost for cost, done in zip(costs, runs, strict=True) if done >= r))
                for r in range(self.R + 1)
            )
        best = [cost for code, cost in zip(key, costs, strict=True) if not code >> 12]
        if not self.distance:
            return min(j for j, _ in best) if best else None
        return tuple(
            min((a for j, a in best if j <= jokers), default=None)
            for jokers in range(self.jcap + 1)
        )

    def step_key(self, key, kind, p, s, c):
        """The key after one step: every successor of every entry, pruned."""
        cls = self.position_class(p) if kind == "card" else -1
        table = self._succ.setdefault((kind, cls, s, c), {})
        out = set()
        jcap = self.jcap
        for code in _codes(key):
            sid = code >> 12
            if not sid:
                out.add(code)
                continue
            succ = table.get(sid)
            if succ is None:
                succ = table[sid] = tuple(
                    ((self.sid(new) << 12) | (dj << 6) | da, dj)
                    for new, dj, da in self.successors(self._states[sid], kind, p, s, c)
                )
            rest = code & 4095
            j = rest >> 6
            for delta, dj in succ:
                if j + dj <= jcap:
                    out.add(delta + rest)
        if not out:
            return None
        return self.prune(out) if self.distance or self.profile else self.prune_dealt(out)

    # -- pruning -----------------------------------------------------------------------
    def prune_dealt(self, codes):
        """:meth:`prune` when no cards are added (every cost is a number of jokers)."""
        best: dict = {}
        for code in codes:
            sid = code >> 12
            j = code >> 6 & 63
            old = best.get(sid)
            if old is None or j < old:
                best[sid] = j
        done = best.pop(0, None)
        out = [] if done is None else [done << 6]
        groups: dict = {}
        group_of = self._group
        for sid, j in best.items():
            if done is None or j < done:
                groups.setdefault(group_of[sid], []).append((j, sid))
        dom = self._dom
        for members in groups.values():
            if len(members) > 1:
                members.sort()
                kept = []
                for j, sid in members:
                    # Only an entry with no more jokers can dominate (they come first).
                    dominated = False
                    for j2, sid2 in members:
                        if j2 > j:
                            break
                        if sid2 == sid:
                            continue
                        pair = (sid2, sid)
                        found = dom.get(pair)
                        if found is None:
                            found = dom[pair] = _state_dominates(
                                self._states[sid2], self._states[sid]
                            )
                        if found:
                            dominated = True
                            break
                    if not dominated:
                        kept.append((j, sid))
                members = kept
            for j, sid in members:
                out.append((sid << 12) | (j << 6))
        return _pack(sorted(out)) if out else None

    def prune(self, codes):
        """Drop the arrangements another one always does at least as well as."""
        best: dict = {}
        for code in codes:
            best.setdefault(code >> 12, []).append(code & 4095)
        accepted = _pareto((r >> 6, r & 63) for r in best.pop(0, ()))
        out = [(j << 6) | a for j, a in accepted]
        groups: dict = {}
        group_of = self._group
        for sid, rests in best.items():
            for j, a in _pareto((r >> 6, r & 63) for r in rests):
                if any(j2 <= j and a2 <= a for j2, a2 in accepted):
                    continue
                groups.setdefault(group_of[sid], []).append((sid, j, a))
        for members in groups.values():
            for entry in members:
                if len(members) == 1 or not any(
                    other is not entry and self.dominates(other, entry) for other in members
                ):
                    sid, j, a = entry
                    out.append((sid << 12) | (j << 6) | a)
        return _pack(sorted(out)) if out else None

    def dominates(self, first: tuple, second: tuple) -> bool:
        """True when entry ``first`` can do all that ``second`` can, at no higher cost.

        Both have the same runs in progress. More sets or runs done, more cards pooled,
        fewer aces owed, fewer gaps and fewer jokers or added cards are each at least as
        good.
        """
        (s1, j1, a1), (s2, j2, a2) = first, second
        if j1 > j2 or a1 > a2:
            return False
        if s1 == s2:
            return j1 < j2 or a1 < a2
        pair = (s1, s2)
        found = self._dom.get(pair)
        if found is None:
            found = self._dom[pair] = _state_dominates(self._states[s1], self._states[s2])
        return found

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
                new = (sets_done, runs_done + closed, pool2, new_all, new_owed, new_gap)
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
        runs = state[3]
        mine = runs[s]
        free = self.R - state[1] - sum(len(r) for r in runs)
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
                ways.append(((longer, nats, 0, 0), 0, longer - length, 0))
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
                length = run[0]
                longer = self.reach(length + 1, remaining)
                for two in self.after_natural(longer, 2, remaining, paid=length - 1):
                    kinds.append((two[0], 1, jokers + two[2], 1))
                if self.keep_open(longer, 1, remaining):
                    kinds.append(((longer, 1, 0, 0), 0, jokers + longer - length, 1))
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
        if nats >= self.nr and length <= 13 and (self.J is None or jokers <= self.J):
            out.append((None, 1, jokers - paid, 0))
        if self.keep_open(length, nats, remaining):
            out.append(((length, nats, 0, 0), 1, length - nats - paid, 0))
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
            if self.J is None or max(self.mr, total) - nats - more <= self.J:
                return True
        return False

    # -- runs card by card (same-suit runs separated) ----------------------------------
    def card_moves(self, p, s, state):
        """:meth:`window_moves` where runs go card by card, each position a natural or a
        joker, and a run closes as soon as it is legal."""
        runs = state[3]
        mine = runs[s]
        out = []
        for cont, used, jk in self.continue_runs(mine, p):
            in_progress = sum(len(r) for r in runs) - len(mine) + len(cont)
            for new_runs, used2, jk2, owe in self.start_runs(p, s, state, cont, in_progress):
                closed = [r for r in new_runs if r[0] >= self.mr and r[1] >= self.nr]
                still = tuple(sorted(r for r in new_runs if r[0] < self.mr or r[1] < self.nr))
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
            nat = (min(length + 1, self.mr), min(nats + 1, self.nr), jk, low)
            if self.can_finish(nat, remaining):
                ways.append((nat, 1, 0))
            if self.J is None or jk < self.J:
                joker = (min(length + 1, self.mr), nats, jk + 1, low)
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
            run = (1, nat, 1 - nat, 0)
            if (nat or self.J != 0) and self.can_finish(run, remaining):
                kinds.append((run, nat, 1 - nat, 0))
        if p == 2 and self.ace_low:
            for ace, two in _LOW_STARTS:
                jokers = 2 - ace - two
                run = (min(2, self.mr), min(ace + two, self.nr), jokers, 1 if self.ace_high else 0)
                if self.J is not None and jokers > self.J:
                    continue
                if self.can_finish(run, remaining):
                    kinds.append((run, two, jokers, ace))
        return kinds

    def start_runs(self, p, s, state, cont, in_progress):
        """Runs in progress after starting new ones here: (runs, naturals, jokers, owed)."""
        out = [(cont, 0, 0, 0)]
        free = self.R - state[1] - in_progress
        if free <= 0:
            return out
        if self.separated:
            if state[5][s] or cont:
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
        out = [((sets_done, runs_done, 0, runs, owed, gap), 0, 0)]
        for k in range(1, self.S - sets_done + 1):
            if pool < k * self.set_naturals:
                break
            jokers = max(0, k * self.Ls - pool)
            out.append(((sets_done + k, runs_done, 0, runs, owed, gap), jokers, 0))
        return out


def _state_dominates(first: tuple, second: tuple) -> bool:
    """True when state ``first`` can do all that ``second`` can (same runs in progress)."""
    if first[0] < second[0] or first[1] < second[1] or first[2] < second[2]:
        return False
    if any(x > y for x, y in zip(first[4], second[4], strict=True)):
        return False
    return all(x <= y for x, y in zip(first[5], second[5], strict=True))


def _permute(state: tuple, perm: tuple) -> tuple:
    if state[0] < 0:
        return state
    sets_done, runs_done, pool, runs, owed, gap = state
    return (
        sets_done,
        runs_done,
        pool,
        tuple(runs[i] for i in perm),
        tuple(owed[i] for i in perm),
        tuple(gap[i] for i in perm),
    )


def _replace(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _pareto(costs):
    costs = sorted(set(costs))
    out = []
    best_a = math.inf
    for j, a in costs:
        if a < best_a:
            out.append((j, a))
            best_a = a
    return out


#: Primes below 2**31: a product of residues times a binomial weight stays within int64.
_PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549)


def _pack(codes) -> bytes:
    """A key from its codes in increasing order (the bytes of 32-bit integers)."""
    return array.array("I", codes).tobytes()


def _codes(key: bytes) -> list[int]:
    """The codes of a packed key."""
    return array.array("I", key).tolist()


def _moduli_for(bound: int) -> tuple[int, ...]:
    """The fewest of :data:`_PRIMES` whose product exceeds ``bound``."""
    product = 1
    for k, prime in enumerate(_PRIMES, 1):
        product *= prime
        if product > bound:
            return _PRIMES[:k]
    raise ValueError(f"counts up to {bound} need more moduli than are defined")


def _crt(residues: list[int], moduli: tuple[int, ...]) -> int:
    """The integer in [0, product of moduli) with the given residues."""
    value, product = 0, 1
    for r, m in zip(residues, moduli, strict=True):
        # value + product * t == r (mod m)
        t = ((r - value) * pow(product, -1, m)) % m
        value += product * t
        product *= m
    return value


def _merge(targets: np.ndarray, parts: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Sum the rows of ``parts`` (axis 1) that go to the same target key."""
    order = np.argsort(targets, kind="stable")
    targets = targets[order]
    starts = np.flatnonzero(np.r_[True, targets[1:] != targets[:-1]])
    summed = np.add.reduceat(parts[:, order, :], starts, axis=1)
    return targets[starts].tolist(), summed
