"""Measure the grid of :data:`rummykit.odds.data.plan.SWEEP_SECONDS`.

Run from the repository root (about eight minutes on one core):

    .venv/bin/python benchmarks/sweep_seconds.py               # prints the dict
    .venv/bin/python benchmarks/sweep_seconds.py --timeout 400
    .venv/bin/python benchmarks/sweep_seconds.py --write  # and rewrites the data file

Each exact sweep of a contract mixing sets and runs (preset, sets, runs, decks, largest
hand) runs alone in a child process, for every joker count the contract can use, as
``rummykit tables`` and the widgets ask for it; its CPU time is printed as the literal
that ``SWEEP_SECONDS`` holds (None: stopped after ``--timeout`` seconds of wall time).
With ``--write`` the measurements also replace ``rummykit/odds/sweep_seconds.json``, the
data file ``SWEEP_SECONDS`` is read from, once every sweep is measured.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

from rummykit.odds.data.plan import SWEEP_SECONDS, SWEEP_SECONDS_FILE, write_sweep_seconds

#: The package's data file, next to rummykit/odds/data/plan.py in this checkout.
DATA_FILE = Path(__file__).resolve().parents[1] / "rummykit" / "odds" / SWEEP_SECONDS_FILE


def _sweep(preset: str, sets: int, runs: int, decks: int, cards: int, queue) -> None:
    from rummykit import Contract, RuleSet
    from rummykit.odds import exact_table

    start = time.process_time()
    exact_table(
        Contract(sets=sets, runs=runs),
        rules=RuleSet.preset(preset),
        decks=decks,
        max_naturals=cards,
        joker_cap=8,
    )
    queue.put(time.process_time() - start)


def measure(preset: str, sets: int, runs: int, decks: int, cards: int, timeout: float):
    """CPU seconds of one sweep in a child process, or None when stopped after ``timeout``."""
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_sweep, args=(preset, sets, runs, decks, cards, queue))
    child.start()
    try:
        return queue.get(timeout=timeout)
    except Exception:  # queue.Empty: out of time
        return None
    finally:
        child.terminate()
        child.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=400, help="seconds per sweep")
    parser.add_argument(
        "--write", action="store_true", help=f"also write the measurements to {DATA_FILE}"
    )
    args = parser.parse_args()
    measured = {}
    print("SWEEP_SECONDS = {")
    for key, by_cards in SWEEP_SECONDS.items():
        times = {}
        for cards in by_cards:
            seconds = measure(*key, cards, args.timeout)
            if seconds is None:
                times[cards] = None
                break  # a larger hand takes longer still
            # Two significant digits, tenths of a second from 10 s on.
            times[cards] = round(seconds, 1) if seconds >= 10 else float(f"{seconds:.2g}")
        body = ", ".join(f"{cards}: {value}" for cards, value in times.items())
        print(f"    {key!r}: {{{body}}},", flush=True)
        measured[key] = times
    print("}")
    if args.write:
        write_sweep_seconds(measured, DATA_FILE)
        print(f"wrote {DATA_FILE}")


if __name__ == "__main__":
    main()
