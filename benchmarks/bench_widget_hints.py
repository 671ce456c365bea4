"""How long the widgets' outs take: why PlayWidget and DealWidget count them in a thread.

For each round of ``standard`` at a table of four (2 decks, 4 jokers), seeded deals:
the seconds of :func:`rummykit.outs` for the hand before its first draw (what
PlayWidget's hint and DealWidget show) and of :func:`rummykit.discard_advice` for the
hand after it (PlayWidget's hint when a discard is due), on one core (CPU time of this
process), median and slowest. The widgets keep the notebook free when a count takes
long (rummykit/widgets/hints.py); a handler should return within about 0.1 s.

    .venv/bin/python benchmarks/bench_widget_hints.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rummykit import discard_advice, outs
from rummykit.engine.actions import DrawStock
from rummykit.engine.game import Game

#: The longest a control's handler may take before a reader feels it (seconds).
RESPONSIVE = 0.1


def seconds(function) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4, help="seeded deals per round")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = Game("standard", players=4, seed=args.seed)
    rules = game.rules
    decks = rules.decks_for(4)
    jokers = rules.jokers_for(decks)
    print(
        f"{'round':>5} {'contract':<15} {'outs median':>11} {'slowest':>8} "
        f"{'advice median':>13} {'slowest':>8}  over {RESPONSIVE} s"
    )
    for number, contract in enumerate(rules.contracts, 1):
        outs_times, advice_times = [], []
        for deal in range(args.deals):
            state = Game("standard", players=4, seed=args.seed + deal).new_state(round=number)
            view = state.view(state.current)
            seen = [card for meld in view.melds for card in meld.cards]
            seen += [view.discard_top] if view.discard_top is not None else []
            outs_times.append(
                seconds(
                    lambda v=view, s=seen: outs(
                        v.hand, v.contract, rules, decks=decks, jokers=jokers, seen=s
                    )
                )
            )
            state.apply(DrawStock())
            after = state.view(state.current)
            advice_times.append(seconds(lambda v=after: discard_advice(v)))
        slow = sum(t > RESPONSIVE for t in outs_times + advice_times)
        print(
            f"{number:>5} {str(contract):<15} {statistics.median(outs_times):>11.3f} "
            f"{max(outs_times):>8.3f} {statistics.median(advice_times):>13.3f} "
            f"{max(advice_times):>8.3f}  {slow} of {2 * args.deals}",
            flush=True,
        )


if __name__ == "__main__":
    main()
