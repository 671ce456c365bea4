"""The worked example of docs/exact-sweep.md: the sweep on a tiny shoe, step by step.

Run from the repository root (``python docs/exact_sweep_example.py``); the note quotes
its output, and tests/test_exact_sweep_doc.py checks that the quote is what it prints.
It drives the Python sweep's own steps (``Sweep.step_key``, ``canonical``, ``need``)
with exact integer polynomials instead of residues, prints every layer, and checks the
result against ``dealt_count`` and the plain reference.
"""

from __future__ import annotations

import array
import dataclasses
import math
import sys
from pathlib import Path

# This checkout's rummykit, not an installed one.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummykit import Contract, Rank, RuleSet, Suit  # noqa: E402
from rummykit.odds import dealt_count  # noqa: E402
from rummykit.odds.counting._exact_layers import Sweep  # noqa: E402
from rummykit.odds.counting._exact_model import (  # noqa: E402
    ACCEPT,
    START,
    code_added,
    code_jokers,
    code_sid,
    pack_code,
)
from rummykit.odds.counting.reference import reference_dealt_count  # noqa: E402

RULES = dataclasses.replace(
    RuleSet.preset("standard"),
    min_run_size=3,
    min_naturals_in_run=2,
    max_jokers_per_meld=1,
    name="short runs",
)
CONTRACT = Contract(sets=1, runs=1)
RANKS = [Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE]
SUITS = [Suit.HEARTS, Suit.SPADES]
CARDS, JOKERS = 6, 1
SUIT = {s.index: s.symbol for s in Suit}


def show_state(state) -> str:
    """sets/runs done, pool, runs open per suit as (length, naturals), aces owed."""
    if state is ACCEPT:
        return "done"
    out = f"S{state.sets_done} R{state.runs_done}" + (f" pool {state.pool}" if state.pool else "")
    for t, mine in enumerate(state.runs):
        out += "".join(f" {SUIT[t]}{tuple(run[:2])}" for run in mine)
    return out + "".join(f" owes {SUIT[t]}A" for t, k in enumerate(state.owed) if k)


def show_key(sweep, key) -> str:
    entries = []
    for code in sweep_codes(key):
        cost = f"j{code_jokers(code)}" + (f"a{code_added(code)}" if code_added(code) else "")
        entries.append(f"{show_state(sweep._states[code_sid(code)])}: {cost}")
    return "{" + ", ".join(entries) + "}"


def sweep_codes(key) -> list[int]:
    return array.array("I", key).tolist()


def main() -> None:
    sweep = Sweep(CONTRACT, RULES, 1, frozenset(RANKS), tuple(SUITS), CARDS, JOKERS, "dealt")
    layer = {sweep.prune({pack_code(sweep.sid(START))}): [1] + [0] * CARDS}
    print(f"{CONTRACT} under {RULES.name!r}: runs of 3+ (2+ naturals), 1 joker a meld")
    print(f"shoe: 2-5 of hearts and spades, 1 deck + {JOKERS} joker; hands of {CARDS}")
    print()
    print("keys after each step (each card: 0 or 1 copy held; close: sets made)")
    line = []
    for kind, p, s in sweep.steps():
        held = sweep.copies(p, s) if kind == "card" else 0
        merge = kind == "close" and len(sweep.symmetric) > 1
        new_layer: dict = {}
        for key, poly in layer.items():
            for c in range(held + 1):
                new = sweep.step_key(key, kind, p, s, c)
                if new is None:
                    continue
                if merge:
                    new = sweep.canonical(new)
                acc = new_layer.setdefault(new, [0] * (CARDS + 1))
                for n in range(CARDS + 1 - c):
                    acc[n + c] += poly[n] * math.comb(1, c)
        layer = {key: poly for key, poly in new_layer.items() if any(poly)}
        name = "ace" if p == 14 else str(p)
        step = f"{name}{SUIT[s]}" if kind == "card" else f"close {name}"
        line.append(f"{step} {len(layer)}")
        if kind == "close":
            print("  " + ", ".join(line))
            line = []
        if kind == "close" and p == 2:
            for key, poly in layer.items():
                print(f"    {show_key(sweep, key)}  hands by size {poly}")
    counts: dict = {}
    for key, poly in layer.items():
        need = sweep.need(key)
        if need is not None:
            acc = counts.setdefault(need, [0] * (CARDS + 1))
            for n, v in enumerate(poly):
                acc[n] += v if n + need <= CARDS else 0
    print()
    print(f"natural hands by the fewest jokers they need: {dict(sorted(counts.items()))}")
    total = sum(
        math.comb(JOKERS, j) * poly[CARDS - j]
        for j in range(JOKERS + 1)
        for need, poly in counts.items()
        if need <= j
    )
    fast = dealt_count(
        CONTRACT, decks=1, jokers=JOKERS, cards=CARDS, rules=RULES, ranks=RANKS, suits=SUITS
    )
    plain = reference_dealt_count(
        CONTRACT, decks=1, jokers=JOKERS, cards=CARDS, rules=RULES, ranks=RANKS, suits=SUITS
    )
    print(f"{CARDS}-card hands holding the contract: {total} of {math.comb(9, CARDS)}")
    print(f"dealt_count: {fast}; reference_dealt_count: {plain}")
    assert total == fast == plain


if __name__ == "__main__":
    main()
