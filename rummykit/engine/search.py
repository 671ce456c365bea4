"""Contract search: whether a hand holds a contract (:func:`find_contract`), how many
cards it is from one (:func:`contract_distance`, :func:`contract_within`) and which
cards would complete it (:func:`contract_completion`).

They share one exact solver over run windows and sets, described below; the melds they
return are checked as :mod:`rummykit.engine.melds` checks them.

>>> from rummykit import RuleSet, parse_cards
>>> rules = RuleSet.preset("standard")
>>> hand = parse_cards("3S 3H 3D 9C 9D 9H KS")
>>> [str(meld) for meld in find_contract(hand, rules.contracts[0], rules)]
['3♦ 3♥ 3♠', '9♣ 9♦ 9♥']
>>> contract_distance(parse_cards("3S 3H 9C 9D KS"), rules.contracts[0], rules)
2
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from itertools import combinations
from operator import attrgetter

from rummykit import _native
from rummykit.engine.cards import NATURALS, Card, Hand, Rank, Suit
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import contract_rules
from rummykit.engine.melds import Meld, make_run, make_set
from rummykit.engine.rules import Contract, MeldRules, RuleSet, meld_limits, run_windows
from rummykit.errors import ArgumentError, ArgumentTypeError, UnsupportedRuleError

_SUITS = tuple(Suit)
_RANKS = tuple(Rank)
_deck_of = attrgetter("deck")

__all__ = ["contract_completion", "contract_distance", "contract_within", "find_contract"]


# ------------------------------------------------------------------------------------
# The contract solver.
#
# A hand is reduced to ``cnt``, the copies held of each natural card (indexed as
# Card.index: suit*13 + rank-2), ``tot``, the naturals held of each rank, ``masks``,
# for each suit the run positions held (bit p for position p; an ace sets 1 and 14),
# and its number of jokers. A run is a window of positions in one suit; a set is a
# rank. The solver sweeps run windows in a canonical order (combinations with
# repetition, so each choice of runs is tried once), takes the naturals present in
# each window and fills the holes with jokers, then decides the sets exactly.
#
# Why this is exact:
# - The windows are rummykit.engine.rules.run_windows: only minimum-length windows when every
#   legal run contains a legal run of the minimum length (using fewer cards never hurts
#   the other melds), otherwise every length. The solver reads the meld rules only
#   (MeldRules, with the numbers of rummykit.engine.rules.meld_limits).
# - A run may have to leave one of its naturals to another meld and play a joker in
#   its place (4♥5♥6♥7♥ 5♣ JK JK makes 4♥ JK 6♥ 7♥ + 5♣ 5♥ JK). The first pass never
#   does this; when it finds nothing, a second pass also tries every such swap.
# - Sets: k sets of a rank holding c naturals need max(0, k*size - c) jokers and are
#   possible when c >= k*lo, lo = max(min naturals, size - max jokers). These costs
#   are convex in k, so the S cheapest marginal costs over all ranks are optimal.

_BIG = 1 << 30
_NO_SETS = ([(0, 0)], (0, 0))
_RANK_OF_INDEX = tuple(i % 13 for i in range(52))
_SUIT_OF_INDEX = tuple(i // 13 for i in range(52))
# The run positions of each natural card as bits; the ace is both 1 (low) and 14 (high).
_CARD_BITS = tuple((1 << 1) | (1 << 14) if i % 13 == 12 else 1 << (i % 13 + 2) for i in range(52))


def _cell(suit: int, position: int) -> int:
    return suit * 13 + (12 if position in (1, 14) else position - 2)


class _Plan:
    """A solution as indices: runs as (suit, start, natural-used flag per position)."""

    __slots__ = ("runs", "sets")

    def __init__(self, runs: list, sets: list) -> None:
        self.runs = runs
        self.sets = sets  # [(rank index, number of sets)]


class _Hand:
    """A hand reduced to counts (see the comment above)."""

    __slots__ = ("cards", "cnt", "tot", "masks", "jokers", "repeats")

    def __init__(self, hand: Iterable[Card], sets: bool = True, runs: bool = True) -> None:
        # Count only what the contract needs: rank totals for sets, cards and suit
        # masks for runs.
        cnt = [0] * 52
        tot = [0] * 13
        masks = [0, 0, 0, 0]
        jokers = repeats = 0
        cards = list(hand)
        rank_of = _RANK_OF_INDEX
        if not runs:
            for card in cards:
                i = card.index
                if i == 52:
                    jokers += 1
                else:
                    tot[rank_of[i]] += 1
        elif not sets:
            suit_of, bits_of = _SUIT_OF_INDEX, _CARD_BITS
            for card in cards:
                i = card.index
                if i == 52:
                    jokers += 1
                elif cnt[i]:
                    cnt[i] += 1
                    repeats |= 1 << suit_of[i]
                else:
                    cnt[i] = 1
                    masks[suit_of[i]] |= bits_of[i]
        else:
            suit_of, bits_of = _SUIT_OF_INDEX, _CARD_BITS
            for card in cards:
                i = card.index
                if i == 52:
                    jokers += 1
                    continue
                tot[rank_of[i]] += 1
                if cnt[i]:
                    cnt[i] += 1
                    repeats |= 1 << suit_of[i]
                else:
                    cnt[i] = 1
                    masks[suit_of[i]] |= bits_of[i]
        self.cards, self.cnt, self.tot, self.masks = cards, cnt, tot, masks
        self.jokers, self.repeats = jokers, repeats


class _Solver:
    """Per-meld-rules tables for the contract search (built once per MeldRules, cached).

    It reads the meld rules only (a :class:`~rummykit.engine.rules.MeldRules`), so rule sets
    that differ in play rules alone share one solver.
    """

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        limits = meld_limits(rules)
        self.limits = limits
        self.run_size = limits.run_size
        self.set_size = rules.min_set_size
        self.set_lo = limits.set_naturals
        self.separated = limits.separated
        # The same windows serve every suit: (start, length, position bits).
        self.windows = [
            (start, length, sum(1 << p for p in range(start, start + length)))
            for start, length in run_windows(rules)
        ]
        self.longest = max(length for _, length, _ in self.windows)
        self.cells = [
            [
                tuple(_cell(suit, p) for p in range(start, start + length))
                for start, length, _ in self.windows
            ]
            for suit in range(4)
        ]
        self._tables: dict[int, tuple[tuple, tuple]] = {}
        self._set_costs: dict[tuple[int, ...], int] = {}
        # suit_levels, memoised: one dict per suit, by mask.
        self.levels_by_mask: list[dict[int, tuple]] = [{}, {}, {}, {}]
        # Distance: jokers a meld can take once added cards count as naturals.
        self.set_full = limits.set_cards
        self.set_joker_cap = limits.set_jokers
        self.run_joker_caps = [limits.run_jokers(length) for _, length, _ in self.windows]
        self.cap_most = max(self.run_joker_caps)
        self.run_full = limits.run_cards
        # Keyed by the naturals of the ranks with most (their number says how many sets).
        self._placements: dict[tuple[int, ...], tuple[list, tuple[int, int]]] = {}
        # The meld rules as the compiled distance reads them (one tuple per meld rules).
        self.core_rules = _native.encode_meld_rules(rules)

    def table(self, mask: int) -> tuple[tuple, tuple]:
        """Windows a suit holding ``mask`` can fill legally: ((window, holes), ...), sorted holes."""
        found = self._tables.get(mask)
        if found is None:
            usable = []
            for w, (_, length, bits) in enumerate(self.windows):
                naturals = (mask & bits).bit_count()
                if self.limits.run_ok(length, naturals):
                    usable.append((w, length - naturals))
            found = self._tables[mask] = (tuple(usable), tuple(sorted(h for _, h in usable)))
        return found

    def suit_levels(self, suit: int, mask: int) -> tuple[int, tuple[tuple, ...]]:
        """The windows of ``suit`` by holes: (fewest holes, levels), where ``levels[h]``
        holds (h, suit, window) for each window with h holes, in window order."""
        found = self.levels_by_mask[suit].get(mask)
        if found is None:
            levels: list[list[tuple[int, int, int]]] = [[] for _ in range(self.longest + 1)]
            for w, (_, length, bits) in enumerate(self.windows):
                holes = length - (mask & bits).bit_count()
                levels[holes].append((holes, suit, w))
            fewest = next(h for h, level in enumerate(levels) if level)
            found = (fewest, tuple(map(tuple, levels)))
            self.levels_by_mask[suit][mask] = found
        return found

    # -- sets ----------------------------------------------------------------------
    # Only the `sets` ranks holding most naturals matter (moving a set to a rank with
    # more naturals never costs more), so the joker cost of the sets depends on those
    # counts alone and is memoised on them.

    def _set_marginals(self, tot: list[int], sets: int) -> list[tuple[int, int]]:
        size, lo = self.set_size, self.set_lo
        marginal = []
        top = sorted(tot, reverse=True)[sets - 1]
        for r, c in enumerate(tot):
            if c < lo or c < top:
                continue
            previous = 0
            for k in range(1, min(sets, c // lo) + 1):
                cost = k * size - c
                if cost < 0:
                    cost = 0
                marginal.append((cost - previous, r))
                previous = cost
        return marginal

    def set_cost(self, tot: list[int], sets: int) -> int:
        """Fewest jokers that make ``sets`` sets from ``tot`` (_BIG if impossible)."""
        if sets == 0:
            return 0
        top = (max(tot),) if sets == 1 else tuple(sorted(tot, reverse=True)[:sets])
        cost = self._set_costs.get(top)
        if cost is None:
            marginal = self._set_marginals(list(top), sets)
            marginal.sort()
            cost = _BIG if len(marginal) < sets else sum(c for c, _ in marginal[:sets])
            self._set_costs[top] = cost
        return cost

    def set_plan(self, tot: list[int], jokers: int, sets: int) -> list | None:
        """[(rank index, k)] making ``sets`` sets from ``tot`` with at most ``jokers`` jokers."""
        if self.set_cost(tot, sets) > jokers:
            return None
        if sets == 0:
            return []
        marginal = self._set_marginals(tot, sets)
        marginal.sort()
        counts: dict[int, int] = {}
        for _, r in marginal[:sets]:
            counts[r] = counts.get(r, 0) + 1
        return sorted(counts.items())

    # -- distance ------------------------------------------------------------------
    def set_placements(
        self, tot: list[int], sets: int
    ) -> tuple[list[tuple[int, int]], tuple[int, int]]:
        """(A, B) of every way to place ``sets`` sets on the ranks with the most naturals,
        and the least A and the least B (see the distance comment below)."""
        if sets == 0:
            return _NO_SETS
        top = (max(tot),) if sets == 1 else tuple(sorted(tot, reverse=True)[:sets])
        found = self._placements.get(top)
        if found is None:
            full, cap = self.set_full, self.set_joker_cap
            pairs = []
            for ks in _compositions(sets, sets):
                a = b = 0
                for c, k in zip(top, ks, strict=True):
                    if k:
                        ga, gb = _set_group_cost(c, k, full, cap)
                        a += ga
                        b += gb
                pairs.append((a, b))
            floors = (min(a for a, _ in pairs), min(b for _, b in pairs))
            found = self._placements[top] = (pairs, floors)
        return found

    # -- runs ----------------------------------------------------------------------
    def fits_separation(self, suit: int, start: int, length: int, chosen: list) -> bool:
        if not self.separated:
            return True
        end = start + length - 1
        for s, a, used in chosen:
            if s == suit and not (a + len(used) < start or end + 1 < a):
                return False
        return True

    def run_lower_bound(self, hand: _Hand, runs: int) -> int:
        """Fewest jokers ``runs`` runs need, ignoring how they share cards (_BIG if impossible)."""
        jokers = hand.jokers
        if runs == 1:
            best = _BIG
            tables = self._tables
            for mask in hand.masks:
                if mask:
                    found = tables.get(mask) or self.table(mask)
                    if found[1] and found[1][0] < best:
                        best = found[1][0]
            return best if best <= jokers else _BIG
        holes_seen: list[int] = []
        for suit in range(4):
            mask = hand.masks[suit]
            if mask:
                sorted_holes = self.table(mask)[1]
                repeat = runs if hand.repeats >> suit & 1 else 1
                for holes in sorted_holes[:runs]:
                    if holes > jokers:
                        break
                    holes_seen.extend([holes] * repeat)
        if len(holes_seen) < runs:
            return _BIG
        holes_seen.sort()
        return sum(holes_seen[:runs])

    def search(self, hand: _Hand, sets: int, runs: int, swaps: bool) -> _Plan | None:
        return self._runs(
            list(hand.cnt),
            list(hand.tot),
            list(hand.masks),
            hand.jokers,
            sets,
            runs,
            0,
            0,
            [],
            swaps,
        )

    def _runs(self, cnt, tot, masks, jokers, sets, runs, suit0, w0, chosen, swaps) -> _Plan | None:
        if runs == 0:
            set_plan = self.set_plan(tot, jokers, sets)
            return None if set_plan is None else _Plan(list(chosen), set_plan)
        for suit in range(suit0, 4):
            mask = masks[suit]
            if not mask:
                continue
            suit_cells = self.cells[suit]
            for w, holes in self.table(mask)[0]:
                if (suit == suit0 and w < w0) or holes > jokers:
                    continue
                start, length, _ = self.windows[w]
                if self.separated and not self.fits_separation(suit, start, length, chosen):
                    continue
                cells = suit_cells[w]
                present = [c for c in cells if cnt[c]]
                options: list[tuple] = [()]
                if swaps:
                    # A natural given up serves a run still to come, or a set of its
                    # rank, which needs at least set_lo naturals of that rank.
                    spare = min(self.run_joker_caps[w], jokers) - holes
                    wanted = (
                        present
                        if runs > 1
                        else [c for c in present if sets and tot[_RANK_OF_INDEX[c]] >= self.set_lo]
                    )
                    options += [
                        combo for k in range(1, spare + 1) for combo in combinations(wanted, k)
                    ]
                for given_up in options:
                    used = [c for c in present if c not in given_up] if given_up else present
                    cleared = 0
                    for c in used:
                        cnt[c] -= 1
                        tot[_RANK_OF_INDEX[c]] -= 1
                        if not cnt[c]:
                            cleared |= _CARD_BITS[c]
                    masks[suit] = mask & ~cleared
                    chosen.append((suit, start, [c in used for c in cells]))
                    plan = self._runs(
                        cnt,
                        tot,
                        masks,
                        jokers - holes - len(given_up),
                        sets,
                        runs - 1,
                        suit,
                        w,
                        chosen,
                        swaps,
                    )
                    chosen.pop()
                    masks[suit] = mask
                    for c in used:
                        cnt[c] += 1
                        tot[_RANK_OF_INDEX[c]] += 1
                    if plan is not None:
                        return plan
        return None


# Solvers by the identity of the RuleSet asked about, and by its meld rules.
_SOLVERS: dict[int, tuple[RuleSet, _Solver]] = {}
_SOLVERS_BY_MELD_RULES: dict[MeldRules, _Solver] = {}


def _solver(rules: RuleSet) -> _Solver:
    # By identity first: hashing a RuleSet costs more than a whole quick rejection.
    found = _SOLVERS.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_SOLVERS) > 64:
            _SOLVERS.clear()
        key = rules.meld_rules
        solver = _SOLVERS_BY_MELD_RULES.get(key)
        if solver is None:
            if len(_SOLVERS_BY_MELD_RULES) > 64:
                _SOLVERS_BY_MELD_RULES.clear()
            solver = _SOLVERS_BY_MELD_RULES[key] = _Solver(key)
        found = _SOLVERS[id(rules)] = (rules, solver)
    return found[1]


def _build(plan: _Plan, cards: list[Card], solver: _Solver) -> list[Meld]:
    """Turn an index plan into Meld objects using the hand's own cards (lowest deck first)."""
    pools: dict[int, list[Card]] = {}
    jokers = []
    if plan.runs:
        for card in cards:
            i = card.index
            if i == 52:
                jokers.append(card)
            elif i in pools:
                pools[i].append(card)
            else:
                pools[i] = [card]
    else:  # sets only: just the naturals of the ranks chosen
        wanted = {r for r, _ in plan.sets}
        for card in cards:
            i = card.index
            if i == 52:
                jokers.append(card)
            elif i % 13 in wanted:
                if i in pools:
                    pools[i].append(card)
                else:
                    pools[i] = [card]
    if len(jokers) > 1:
        jokers.sort(key=_deck_of)
        _check_distinct(jokers)
    for pool in pools.values():
        if len(pool) > 1:
            pool.sort(key=_deck_of)
            _check_distinct(pool)
    runs = []
    for suit_index, start, used in plan.runs:
        slots = [
            pools[_cell(suit_index, start + offset)].pop(0) if natural else jokers.pop(0)
            for offset, natural in enumerate(used)
        ]
        runs.append(make_run(slots, _SUITS[suit_index], start))
    sets = []
    size, cap = solver.set_size, max(solver.set_size, solver.set_lo)
    for r, k in plan.sets:
        naturals = [c for i in range(r, 52, 13) for c in pools.get(i, ())]  # clubs first
        if k == 1:
            group = naturals[:cap]
            group.extend(jokers.pop(0) for _ in range(size - len(group)))
            sets.append(make_set(group, _RANKS[r]))
            continue
        groups: list[list[Card]] = [[] for _ in range(k)]
        # Deal the naturals round-robin (at most ``cap`` each) so the jokers spread evenly.
        for i, card in enumerate(naturals[: k * cap]):
            groups[i % k].append(card)
        for group in groups:
            group.extend(jokers.pop(0) for _ in range(max(0, size - len(group))))
            sets.append(make_set(group, _RANKS[r]))
    return sets + runs


def _check_distinct(cards: list[Card]) -> None:
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        raise ArgumentError(
            f"the hand holds the same card twice ({twice!r}): a hand holds each physical "
            f"card once (give copies from other decks their own deck index)"
        )


def _check_copies(hand: _Hand) -> None:
    """_check_distinct for a hand reduced for runs (which counts its copies): equal cards
    share an index, so only a hand with two copies of a natural, or two jokers, can hold
    one card twice."""
    if hand.repeats or hand.jokers > 1:
        _check_distinct(hand.cards)


def find_contract(hand: Iterable[Card], contract: Contract, rules: RuleSet) -> list[Meld] | None:
    """Melds from ``hand`` that complete ``contract``, or None when no arrangement exists.

    Exact for any hand size: it never misses an arrangement and never returns an
    illegal one. Sets come first, then runs; each meld is as short as the rules allow.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> melds = find_contract(parse_cards("3S 4S 5S 6S KC KD KH 9C"), rules.contracts[1], rules)
    >>> [str(m) for m in melds]
    ['K♣ K♦ K♥', '3♠ 4♠ 5♠ 6♠']
    >>> find_contract(parse_cards("3S 4S 5S 7S KC KD KH 9C"), rules.contracts[1], rules) is None
    True

    A hand holds each physical card once: when an arrangement is found the hand is
    checked, and a card held twice raises ArgumentError (a ValueError).

    Where the compiled core is built (``rummykit._native``'s ``distance``) it searches a
    hand given as a list, a tuple or a :class:`~rummykit.engine.cards.Hand`, else Python
    does: the same search step for step, so the same melds either way.
    """
    return _find_contract(hand, contract, rules, _native.distance)


def _find_contract(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, core
) -> list[Meld] | None:
    """:func:`find_contract`, searched by ``core`` (the compiled module, the port of
    :func:`_solve` in ``_contract.c``) where it implements the case, else in Python; with
    ``core=None``, the Python reference."""
    # The core reads the cards in place: only a sequence that list() would copy item for
    # item (a generator is read once, by the reference alone). Arguments of exactly these
    # types pass contract_rules' checks.
    if (
        core is not None
        and type(hand) in _SEQUENCES
        and type(contract) is Contract
        and type(rules) is RuleSet
    ):
        solver = _solver(rules)
        found = core.find(solver.core_rules, contract.sets, contract.runs, hand)
        if found is None:
            return None
        if found is not NotImplemented:  # (the core refuses what it does not implement)
            return _build(_Plan(*found), hand, solver)
    contract_rules(contract, rules)
    solver = _solver(rules)
    try:
        reduced = _Hand(hand, sets=contract.sets > 0, runs=contract.runs > 0)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    plan = _solve(solver, reduced, contract.sets, contract.runs)
    return None if plan is None else _build(plan, reduced.cards, solver)


#: The hands the compiled search reads in place (their items, as list() would give them).
_SEQUENCES = (list, tuple, Hand)


def _solve(solver: _Solver, hand: _Hand, sets: int, runs: int) -> _Plan | None:
    if len(hand.cards) < sets * solver.set_size + runs * solver.run_size:
        return None
    jokers = hand.jokers
    if not runs:
        sets_only = solver.set_plan(hand.tot, jokers, sets)
        return None if sets_only is None else _Plan([], sets_only)
    lower = solver.set_cost(hand.tot, sets)
    if lower > jokers:
        return None
    if runs:
        lower += solver.run_lower_bound(hand, runs)
        if lower > jokers:
            return None
    plan = solver.search(hand, sets, runs, swaps=False)
    if plan is None and jokers and runs and (sets or runs > 1):
        plan = solver.search(hand, sets, runs, swaps=True)
    return plan


# ------------------------------------------------------------------------------------
# Contract distance: a branch-and-bound over the same windows.
#
# With cards added, a meld's holes are filled by the hand's jokers (at most ``cap``
# of them per meld: the joker limit, and enough naturals once added cards count as
# naturals) or by added cards. For an arrangement with holes h_i and caps cap_i the
# fewest added cards are max(sum max(0, h_i - cap_i), sum h_i - jokers). Sets only
# ever need the ranks with the most naturals (swapping a set onto a rank with more
# naturals never costs more), so the sets are settled over the top S ranks.


def _set_group_cost(c: int, k: int, full: int, cap: int) -> tuple[int, int]:
    """(holes beyond joker capacity, holes) for k sets of one rank holding c naturals."""
    holes = max(0, k * full - c)
    q, rem = divmod(holes, k)
    return rem * max(0, q + 1 - cap) + (k - rem) * max(0, q - cap), holes


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


class _Distance:
    """One contract_distance search; ``best`` is the fewest added cards found so far.

    The search stops once ``best`` reaches ``goal``, a value the caller knows the
    answer cannot go below (or needs no more than).
    """

    def __init__(
        self, solver: _Solver, hand: _Hand, sets: int, runs: int, best: int, goal: int
    ) -> None:
        self.solver, self.sets, self.runs, self.jokers = solver, sets, runs, hand.jokers
        self.best, self.goal = best, goal
        self.floor_a, self.floor_b = solver.set_placements(hand.tot, sets)[1]
        self.entries = self._entries(hand) if runs else []

    def _entries(self, hand: _Hand) -> list[tuple[int, int, int]]:
        """(holes, suit, window) for every window of every suit, fewest holes first (then
        by suit and window), leaving out the windows too full of holes to beat ``best``."""
        solver, jokers = self.solver, hand.jokers
        known = solver.levels_by_mask
        levels = [
            known[suit].get(mask) or solver.suit_levels(suit, mask)
            for suit, mask in enumerate(hand.masks)
        ]
        fewest = min([first for first, _ in levels])
        # Every run has at least the fewest holes, the sets at least the floors: a run
        # with more holes than ``most`` costs ``best`` or more.
        cap, others = solver.cap_most, self.runs - 1
        others_a = others * max(0, fewest - cap) + self.floor_a
        others_b = others * fewest + self.floor_b - jokers
        most = fewest
        while (
            most < solver.longest
            and max(others_a + max(0, most + 1 - cap), others_b + most + 1) < self.best
        ):
            most += 1
        entries: list[tuple[int, int, int]] = []
        for h in range(fewest, most + 1):
            for _, by_holes in levels:
                entries += by_holes[h]
        return entries

    def search(
        self, cnt: list[int], tot: list[int], a: int, b: int, runs_left: int, j0: int, chosen: list
    ) -> None:
        jokers = self.jokers
        if runs_left == 0:
            for sa, sb in self.solver.set_placements(tot, self.sets)[0]:
                d = max(a + sa, b + sb - jokers)
                if d < self.best:
                    self.best = d
            return
        if runs_left == 1 and not self.sets:
            self._last_run(cnt, a, b, j0, chosen)
            return
        solver = self.solver
        swaps = jokers > 0 and (self.sets or self.runs > 1)
        cap_most, windows, all_cells, caps = (
            solver.cap_most,
            solver.windows,
            solver.cells,
            solver.run_joker_caps,
        )
        separated = solver.separated
        floor_a, floor_b = self.floor_a, self.floor_b - jokers
        rank_of = _RANK_OF_INDEX
        empty_tried = 0
        entries = self.entries
        for j in range(j0, len(entries)):
            h0, suit, w = entries[j]
            # Every run still to place has at least h0 holes (the entries are sorted).
            low_a = a + runs_left * (h0 - cap_most if h0 > cap_most else 0) + floor_a
            low_b = b + runs_left * h0 + floor_b
            if (low_a if low_a > low_b else low_b) >= self.best:
                return
            start, length, _ = windows[w]
            if separated and not solver.fits_separation(suit, start, length, chosen):
                continue
            cells = all_cells[suit][w]
            present = [c for c in cells if cnt[c]]
            if not present:
                # Empty windows of one suit are all alike: try one per suit and level.
                if empty_tried >> suit & 1:
                    continue
                empty_tried |= 1 << suit
            holes = length - len(present)
            cap = caps[w]
            # The runs after this one have at least h0 holes each; this one has its own,
            # which may be more (cards taken by the runs before), and one more for each
            # natural it gives up.
            rest_a = low_a - (h0 - cap_most if h0 > cap_most else 0)
            rest_b = low_b - h0
            if max(rest_a + (holes - cap if holes > cap else 0), rest_b + holes) >= self.best:
                continue
            options: list[tuple] = [()]
            if swaps:
                options += [
                    combo
                    for k in range(1, min(cap, jokers) - holes + 1)
                    for combo in combinations(present, k)
                ]
            chosen.append((suit, start, cells))
            for given_up in options:
                h = holes + len(given_up)
                if given_up and max(rest_a + (h - cap if h > cap else 0), rest_b + h) >= self.best:
                    break  # (the options give up more and more naturals)
                used = [c for c in present if c not in given_up] if given_up else present
                for c in used:
                    cnt[c] -= 1
                    tot[rank_of[c]] -= 1
                self.search(
                    cnt, tot, a + (h - cap if h > cap else 0), b + h, runs_left - 1, j, chosen
                )
                for c in used:
                    cnt[c] += 1
                    tot[rank_of[c]] += 1
                if self.best <= self.goal:
                    chosen.pop()
                    return
            chosen.pop()

    def _last_run(self, cnt: list[int], a: int, b: int, j0: int, chosen: list) -> None:
        """The last run of a contract without sets: its cost is known on sight. (Giving up
        a natural to a joker only adds holes, with no meld left to take the card.)"""
        solver, jokers = self.solver, self.jokers
        cap_most, windows, cells, caps = (
            solver.cap_most,
            solver.windows,
            solver.cells,
            solver.run_joker_caps,
        )
        entries = self.entries
        for j in range(j0, len(entries)):
            h0, suit, w = entries[j]
            if max(a + max(0, h0 - cap_most) + self.floor_a, b + h0 - jokers) >= self.best:
                return
            start, length, _ = windows[w]
            if solver.separated and not solver.fits_separation(suit, start, length, chosen):
                continue
            h = length
            for c in cells[suit][w]:
                if cnt[c]:
                    h -= 1
            d = max(a + max(0, h - caps[w]), b + h - jokers)
            if d < self.best:
                self.best = d
                if d <= self.goal:
                    return


def contract_distance(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, *, decks: int | None = None
) -> int:
    """The fewest cards that must be added to ``hand`` for it to hold ``contract``.

    Added cards are natural cards of any rank and suit; with ``decks`` given, the hand
    with its added cards holds at most ``decks`` copies of any card (as a shoe of that
    many decks allows), otherwise copies are not limited. Jokers are never added (a
    natural does whatever a joker would, where a copy is left). The result is 0
    exactly when :func:`find_contract` finds the contract.

    Where the compiled core is built (``rummykit._native``'s ``distance``, see
    ``docs/fast-distance.md``) it counts, else Python does: the same value either way.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> contract_distance(parse_cards("8S 8H 8D JH JS 2C 5D"), rules.contracts[0], rules)
    1
    >>> contract_distance(parse_cards("8S 8H 2D JH 4S 3C 5D"), rules.contracts[0], rules)
    3
    >>> hand = parse_cards("7H 8H 9H 10H 7H 8H 9H")
    >>> contract_distance(hand, rules.contracts[2], rules, decks=2)  # a second 10♥
    1
    """
    return _contract_distance(hand, contract, rules, decks, _native.distance)


def _contract_distance(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, decks: int | None, core
) -> int:
    """:func:`contract_distance`, counted by ``core`` (the compiled module) where it
    implements the case, else in Python; with ``core=None``, the Python reference."""
    contract_rules(contract, rules)
    solver = _solver(rules)
    try:
        reduced = _Hand(hand)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    _check_copies(reduced)
    valid = decks is None or (isinstance(decks, int) and not isinstance(decks, bool) and decks >= 1)
    over = [i for i, n in enumerate(reduced.cnt) if n > decks] if valid and decks else []
    fast = core is not None and _core_refusal(contract, reduced, decks if valid else None) is None
    if fast and valid and not over:
        found = core.distance(
            solver.core_rules,
            contract.sets,
            contract.runs,
            [*reduced.cnt, reduced.jokers],
            decks or 0,
        )
        if found < 0:
            raise _impossible(contract, decks)
        return found
    if fast:
        distance = core.distance(
            solver.core_rules, contract.sets, contract.runs, [*reduced.cnt, reduced.jokers]
        )
    else:
        distance = _unlimited_distance(solver, reduced, contract)
    if decks is None or distance == 0:
        return distance
    if not valid:
        raise ArgumentError(f"decks must be None or an integer >= 1, got {decks!r}")
    if over:
        raise ArgumentError(
            f"the hand holds {reduced.cnt[over[0]]} copies of {NATURALS[over[0]]}, "
            f"more than {decks} deck{'s' if decks != 1 else ''} have"
        )
    return len(_cheapest_additions(solver, reduced, contract, decks, distance))


# The compiled core's fixed sizes (rummykit/_native/_contract.h: MAXSETS, MAXRUNS; counts
# and decks are bytes).
_CORE_MELDS = 8
_CORE_COUNT = 255


def _core_refusal(contract: Contract, hand: _Hand, decks: int | None) -> str | None:
    """Why the compiled core cannot count this distance (a field and its value), or None.

    It implements every meld rule the solver reads; only its fixed sizes limit it."""
    if contract.sets > _CORE_MELDS or contract.runs > _CORE_MELDS:
        return f"contracts={contract} (more than {_CORE_MELDS} sets or runs)"
    if hand.jokers > _CORE_COUNT or max(hand.cnt) > _CORE_COUNT:
        return f"hand={len(hand.cards)} cards (more than {_CORE_COUNT} copies of one card)"
    if decks is not None and decks > _CORE_COUNT:
        return f"decks={decks} (more than {_CORE_COUNT})"
    return None


def _fast_distance(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, *, decks: int | None = None
) -> int:
    """:func:`contract_distance` by the compiled core only: UnsupportedRuleError (naming
    the field and value) for what it does not implement, _native.NotBuiltError (a RummyError)
    when it is not built."""
    core = _native.require("distance")
    try:
        reduced = _Hand(hand)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    valid = isinstance(decks, int) and not isinstance(decks, bool) and decks >= 1
    why = _core_refusal(contract, reduced, decks if valid else None)
    if why is not None:
        raise UnsupportedRuleError(
            f"the compiled contract distance does not implement {why}, {rules.name}: "
            f"contract_distance counts it in Python"
        )
    return _contract_distance(hand, contract, rules, decks, core)


def _impossible(contract: Contract, decks: int | None) -> ArgumentError:
    return ArgumentError(f"no cards from {decks} deck(s) can make the contract {contract} here")


def contract_completion(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, *, decks: int | None = None
) -> Hand:
    """An example of the cards missing from ``hand``: natural cards, as few as
    :func:`contract_distance` says (``decks`` as there), that make ``contract`` once added.

    Empty when the hand already holds the contract. Of the smallest completions, the one
    found first (the search is deterministic); a card added twice is two copies, each
    given a deck index the hand does not use for that card.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H 2D JH 4S 3C 5D")
    >>> contract_distance(hand, rules.contracts[0], rules)
    3
    >>> missing = contract_completion(hand, rules.contracts[0], rules)
    >>> str(missing), find_contract([*hand, *missing], rules.contracts[0], rules) is not None
    ('2♣ 2♣ 8♣', True)
    >>> str(contract_completion(hand, rules.contracts[0], rules, decks=1))  # one 2♣ only
    '2♣ 2♥ 8♣'
    >>> contract_completion(parse_cards("8S 8H 8D JH JS JD"), rules.contracts[0], rules)
    parse_cards('')
    """
    hand = list(check_cards("hand", hand))
    distance = contract_distance(hand, contract, rules, decks=decks)
    if distance == 0:
        return Hand()
    contract_rules(contract, rules)
    added = _cheapest_additions(_solver(rules), _Hand(hand), contract, decks, distance)
    used: dict[int, set[int]] = {}
    for card in hand:
        if not card.is_joker:
            used.setdefault(card.index, set()).add(card.deck)
    cards = []
    for i in added:
        taken = used.setdefault(i, set())
        deck = min(set(range(len(taken) + 1)) - taken)
        taken.add(deck)
        cards.append(Card(NATURALS[i].rank, NATURALS[i].suit, deck))
    return Hand(cards).sorted()


def contract_within(hand: Iterable[Card], contract: Contract, rules: RuleSet, cards: int) -> bool:
    """Whether at most ``cards`` cards added to ``hand`` make ``contract``.

    The same as ``contract_distance(hand, contract, rules) <= cards`` (copies not
    limited), but quicker: the search stops as soon as it finds ``cards`` enough, and
    gives up on every arrangement that needs more. A player who knows the distance is
    one of two neighbours (a card drawn or discarded moves it by at most one) needs no
    more than this. With ``cards=0`` it is whether :func:`find_contract` finds the
    contract.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H 2D JH 4S 3C 5D")
    >>> contract_distance(hand, rules.contracts[0], rules)
    3
    >>> contract_within(hand, rules.contracts[0], rules, 2)
    False
    >>> contract_within(hand, rules.contracts[0], rules, 3)
    True
    """
    if not isinstance(cards, int) or isinstance(cards, bool) or cards < 0:
        raise ArgumentError(f"cards must be an integer >= 0, got {cards!r}")
    contract_rules(contract, rules)
    solver = _solver(rules)
    sets, runs = contract.sets, contract.runs
    try:
        reduced = _Hand(hand, sets=sets > 0, runs=runs > 0)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    if runs:
        _check_copies(reduced)
    else:  # (copies are counted only for runs)
        _check_distinct(reduced.cards)
    if cards == 0:
        return _solve(solver, reduced, sets, runs) is not None
    # Past 0 the search is exact, and a hand holding the contract costs it 0: no need
    # to ask _solve first.
    search = _Distance(solver, reduced, sets, runs, cards + 1, cards)
    search.search(list(reduced.cnt), list(reduced.tot), 0, 0, runs, 0, [])
    return search.best <= cards


def _unlimited_distance(solver: _Solver, hand: _Hand, contract: Contract) -> int:
    if _solve(solver, hand, contract.sets, contract.runs) is not None:
        return 0
    # Past 0 the search is exact; found 1 (or a relaxed 0), nothing is left to find.
    best = contract.sets * solver.set_full + contract.runs * solver.run_full
    search = _Distance(solver, hand, contract.sets, contract.runs, best, 1)
    search.search(list(hand.cnt), list(hand.tot), 0, 0, contract.runs, 0, [])
    return max(search.best, 1)


def _cheapest_additions(
    solver: _Solver, hand: _Hand, contract: Contract, decks: int | None, lower: int
) -> tuple[int, ...]:
    """A* over the cards added, one at a time, within ``decks`` copies of each card (no
    limit for None): the indices of the fewest natural cards that make the contract.

    The distance without a copy limit is a consistent lower bound (one card brings a
    hand at most one card closer), so the first hand popped that holds the contract is
    one with the fewest cards added. Of the hands as close, the one with the most cards
    added is popped first (any order among equals keeps the result optimal): without a
    limit the bound is exact, and the search walks straight down one cheapest path.
    """
    cards = hand.cards
    counts = hand.cnt
    # Added cards get deck indices no card of the hand has, so that none is held twice.
    base = 1 + max((card.deck for card in cards), default=0)
    if decks is not None:
        # Adding cards never loses a contract: none can be made unless every copy left
        # makes it (else the search below would try every set of copies first). No
        # smallest arrangement holds more copies of a card than one per run and a whole
        # set of it per set.
        most = min(decks, contract.runs + contract.sets * solver.set_full)
        rest = [
            Card(NATURALS[i].rank, NATURALS[i].suit, base + n)
            for i in range(52)
            for n in range(max(0, most - counts[i]))
        ]
        if _solve(solver, _Hand(cards + rest), contract.sets, contract.runs) is None:
            raise _impossible(contract, decks)
    frontier = [(lower, 0, ())]
    seen = {()}
    while frontier:
        _, _, added = heapq.heappop(frontier)
        added_count = len(added)
        extra = [Card(NATURALS[i].rank, NATURALS[i].suit, base + n) for n, i in enumerate(added)]
        if _solve(solver, _Hand(cards + extra), contract.sets, contract.runs) is not None:
            return added
        for i in range(52):
            if decks is not None and counts[i] + added.count(i) >= decks:
                continue
            grown = tuple(sorted((*added, i)))
            if grown in seen:
                continue
            seen.add(grown)
            more = extra + [Card(NATURALS[i].rank, NATURALS[i].suit, base + len(extra))]
            bound = _unlimited_distance(solver, _Hand(cards + more), contract)
            heapq.heappush(frontier, (added_count + 1 + bound, -added_count - 1, grown))
    raise _impossible(contract, decks)
