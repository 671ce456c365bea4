"""A deliberately naive contract oracle for the property tests.

It knows nothing of rummykit.engine.melds: a meld is checked by trying every placement,
and a contract by trying every way to pick disjoint subsets of the hand.
"""

from __future__ import annotations

from itertools import combinations

from rummykit.engine.cards import Card, Rank
from rummykit.engine.rules import Contract, RuleSet


def _positions(card: Card, rules: RuleSet) -> list[int]:
    if card.rank == Rank.ACE:
        return [p for p, ok in ((1, rules.ace_low), (14, rules.ace_high)) if ok]
    return [int(card.rank)]


def naive_set(cards: list[Card], rules: RuleSet) -> bool:
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    if len(cards) < rules.min_set_size or len(naturals) < rules.min_naturals_in_set:
        return False
    if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
        return False
    return len({c.rank for c in naturals}) == 1


def naive_run_windows(cards: list[Card], rules: RuleSet) -> list[tuple[int, int]]:
    """Every (start, end) a run of these cards could occupy (empty if not a run)."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    if len(cards) < rules.min_run_size or len(naturals) < rules.min_naturals_in_run:
        return []
    if rules.max_jokers_per_meld is not None and jokers > rules.max_jokers_per_meld:
        return []
    if len({c.suit for c in naturals}) != 1:
        return []
    allowed = set(rules.run_positions())
    windows = []
    for start in range(1, 15):
        end = start + len(cards) - 1
        if not all(p in allowed for p in range(start, end + 1)):
            continue
        if start == 1 and end == 14:
            continue

        if _place(naturals, 0, set(), start, end, rules):
            windows.append((start, end))
    return windows


def _place(
    naturals: list[Card], i: int, used: set[int], start: int, end: int, rules: RuleSet
) -> bool:
    """Try every choice of position in [start, end] for each natural, none shared."""
    if i == len(naturals):
        return True
    return any(
        start <= p <= end
        and p not in used
        and _place(naturals, i + 1, used | {p}, start, end, rules)
        for p in _positions(naturals[i], rules)
    )


def _separated(windows: list[tuple[int, int, object]]) -> bool:
    for (a1, b1, s1), (a2, b2, s2) in combinations(windows, 2):
        if s1 == s2 and not (b1 + 1 < a2 or b2 + 1 < a1):
            return False
    return True


def naive_contract(hand: list[Card], contract: Contract, rules: RuleSet) -> bool:
    """True when some disjoint choice of subsets of ``hand`` makes the contract."""
    hand = list(hand)

    def runs_ok(remaining: list[Card], runs_left: int, chosen: list[list[tuple]]) -> bool:
        if runs_left == 0:
            if rules.same_suit_runs != "separated":
                return True

            # some choice of windows, one per run, pairwise separated
            def pick(i: int, picked: list) -> bool:
                if i == len(chosen):
                    return _separated(picked)
                return any(pick(i + 1, picked + [w]) for w in chosen[i])

            return pick(0, [])
        for size in range(rules.min_run_size, len(remaining) + 1):
            for combo in combinations(range(len(remaining)), size):
                cards = [remaining[i] for i in combo]
                windows = naive_run_windows(cards, rules)
                if not windows:
                    continue
                suit = next(c.suit for c in cards if not c.is_joker)
                rest = [c for i, c in enumerate(remaining) if i not in combo]
                if runs_ok(rest, runs_left - 1, chosen + [[(a, b, suit) for a, b in windows]]):
                    return True
        return False

    def sets_ok(remaining: list[Card], sets_left: int) -> bool:
        if sets_left == 0:
            return runs_ok(remaining, contract.runs, [])
        for size in range(rules.min_set_size, len(remaining) + 1):
            for combo in combinations(range(len(remaining)), size):
                cards = [remaining[i] for i in combo]
                if naive_set(cards, rules):
                    rest = [c for i, c in enumerate(remaining) if i not in combo]
                    if sets_ok(rest, sets_left - 1):
                        return True
        return False

    return sets_ok(hand, contract.sets)
