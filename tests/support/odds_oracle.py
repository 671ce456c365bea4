"""A deliberately naive oracle for contract odds: try every subset of the hand as a meld.

It shares no code with :mod:`rummykit.odds.counting.exact`: melds are found by brute force over
subsets of the hand's cards, and whole shoes are enumerated hand by hand.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

from more_itertools import distinct_combinations

from rummykit.engine.cards import Rank, Suit
from rummykit.engine.rules import Contract, RuleSet

JOKER = None


def _positions(rank: Rank, rules: RuleSet) -> list[int]:
    if rank == Rank.ACE:
        return [p for p in (1, 14) if p in rules.run_positions()]
    return [int(rank)]


def set_ok(cards: list, rules: RuleSet) -> bool:
    naturals = [c for c in cards if c is not JOKER]
    jokers = len(cards) - len(naturals)
    if len({rank for rank, _ in naturals}) > 1:
        return False
    if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
        return False
    return len(cards) >= rules.min_set_size and len(naturals) >= rules.min_naturals_in_set


def run_windows(cards: list, rules: RuleSet) -> list[tuple[int, int]]:
    """Every (low, high) window of positions the cards can fill as one run."""
    naturals = [c for c in cards if c is not JOKER]
    jokers = len(cards) - len(naturals)
    if not naturals or len({suit for _, suit in naturals}) > 1:
        return []
    if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
        return []
    if len(cards) < rules.min_run_size or len(naturals) < rules.min_naturals_in_run:
        return []
    size = len(cards)
    allowed = set(rules.run_positions())
    out = []
    for low in range(1, 15):
        window = range(low, low + size)
        if not set(window) <= allowed or (1 in window and 14 in window):
            continue
        for choice in itertools.product(*(_positions(rank, rules) for rank, _ in naturals)):
            if len(set(choice)) == len(choice) and all(p in window for p in choice):
                out.append((low, low + size - 1))
                break
    return out


def holds(naturals: tuple, jokers: int, contract: Contract, rules: RuleSet) -> bool:
    """Whether naturals ((rank, suit) with repeats) plus ``jokers`` jokers hold the contract."""
    return _holds(
        tuple(sorted(naturals, key=lambda c: (c[0], c[1].index))), jokers, contract, rules
    )


@cache
def _holds(naturals: tuple, jokers: int, contract: Contract, rules: RuleSet) -> bool:
    cards = list(naturals) + [JOKER] * jokers
    n = len(cards)
    sets, runs = [], []
    for mask in range(1, 1 << n):
        chosen = [cards[i] for i in range(n) if mask >> i & 1]
        if contract.sets and set_ok(chosen, rules):
            sets.append(mask)
        if contract.runs:
            windows = run_windows(chosen, rules)
            if windows:
                suit = next(c for c in chosen if c is not JOKER)[1]
                runs.append((mask, suit, windows))
    for set_masks in itertools.combinations(sets, contract.sets):
        used = 0
        for m in set_masks:
            if used & m:
                break
            used |= m
        else:
            for picked in itertools.combinations(runs, contract.runs):
                if _runs_fit(picked, used, rules):
                    return True
    return False


def _runs_fit(picked, used: int, rules: RuleSet) -> bool:
    for mask, _, _ in picked:
        if used & mask:
            return False
        used |= mask
    if rules.same_suit_runs != "separated":
        return True
    for windows in itertools.product(*(w for _, _, w in picked)):
        ok = True
        for (a, sa, _), (b, sb, _) in itertools.combinations(
            [(w, s, None) for w, (_, s, _) in zip(windows, picked, strict=True)], 2
        ):
            if sa == sb and not (a[1] + 1 < b[0] or b[1] + 1 < a[0]):
                ok = False
        if ok:
            return True
    return False


def distance(naturals: tuple, jokers: int, contract: Contract, rules: RuleSet, decks: int) -> int:
    """Fewest naturals of the 52 to add (at most ``decks`` copies of a card in all)."""
    # The copies still in the shoe; each distinct set of added faces is tried once.
    left = [
        (rank, suit)
        for rank in Rank
        for suit in Suit
        for _ in range(decks - list(naturals).count((rank, suit)))
    ]
    for k in range(0, 20):
        for added in distinct_combinations(left, k):
            if holds(tuple(naturals) + added, jokers, contract, rules):
                return k
    raise AssertionError("no distance found")


def shoe_hands(ranks, suits, decks: int, jokers: int, cards: int):
    """Every hand as (naturals, jokers, number of physical hands it stands for)."""
    # The shoe's natural cards, each face ``decks`` times: its distinct combinations are
    # the face multisets, each standing for C(decks, k) choices of copies per face.
    shoe = [(rank, suit) for rank in ranks for suit in suits for _ in range(decks)]
    for j in range(min(jokers, cards) + 1):
        for combo in distinct_combinations(shoe, cards - j):
            counts = {t: combo.count(t) for t in set(combo)}
            ways = math.comb(jokers, j)
            for v in counts.values():
                ways *= math.comb(decks, v)
            yield combo, j, ways
