"""How much reading the opponents tells, and what it costs (issue 52, item 3).

Run from the repository root:

    .venv/bin/python benchmarks/bench_reading.py              # 4 games, seed 100
    .venv/bin/python benchmarks/bench_reading.py --games 8 --seed 7

Views: seat 0's draw and play phases in seeded games of four GreedyBots (``standard``,
seven rounds), each kept with chance 0.3. For each way of reading (which choices, how
many turns back, the sampler's attempts and Gibbs sweeps) and each view that reads some
opponent, it prints the share of plain determinizations the reading rules out (one
minus the share :meth:`~rummykit.agents.reading.Reading.keeps` keeps, 30 a view), the
sampler's fallbacks (10 samples a view), its CPU milliseconds a sample, beside a plain
determinization's measured in the same run, and how many of the opponents' hidden cards
its samples place in the right hand (by face: ``placed right``) and how far each
opponent not laid down is from its contract in them against in truth (the mean absolute
difference of the contract distances, ``distance off by``), each beside a plain
determinization's on the same views. Issue 52's bound (a), a sample holding the true
hands, places all of them and is off by 0.

``--discards`` also asks what the opponents' last discards would tell, were they read
(they are not: see :mod:`rummykit.agents.reading`): GreedyBot's discard is a function of
its hand, so a deal agrees with a discard when GreedyBot holding the opponent's hand of
then would have discarded that card. For each view that reads some opponent it draws up
to ``--draws`` plain deals and prints the share whose last discards agree, then, on the
views where 3 or more such deals were found, placed right and distance off for the
first 10 plain deals, the first 10 kept by the reading (draws and buys) and the first 10
that also agree with every discard.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections import Counter

from rummykit.agents.bots import GreedyBot
from rummykit.agents.determinize import determinize, hidden_cards
from rummykit.agents.reading import ATTEMPTS, ReadingSampler, distance_counter, reading
from rummykit.engine.actions import Discard
from rummykit.engine.game import Game

#: The ways of reading compared: (reads, turns, attempts, sweeps).
WAYS = (
    (("draws",), 1, 32, 0),
    (("draws", "buys"), 1, 32, 0),
    (("draws", "buys"), 1, 8, 2),
    (("draws", "buys"), 2, 32, 0),
    (("draws", "buys"), 2, 8, 2),
    (("draws", "buys"), 3, 8, 2),
    (("draws", "buys"), None, 8, 2),
    (("draws", "buys", "discards"), 1, 32, 0),
    (("draws", "buys", "discards"), 1, 8, 2),
    (("draws", "buys", "discards"), 1, 8, 4),
    (("draws", "buys", "discards"), 2, 8, 4),
)


def views(games: int, seed: int) -> list:
    """Seat 0's views in ``games`` seeded games of GreedyBots, each kept with chance 0.3,
    with the table's true hands."""
    found = []
    for game in range(games):
        state = Game("standard", players=4, seed=seed + game).new_state()
        bots = [GreedyBot() for _ in range(4)]
        rng = random.Random(game)
        while state.phase != "over":
            if state.to_act == 0 and state.phase in ("draw", "play") and rng.random() < 0.3:
                found.append((state.view(0), [list(hand) for hand in state.hands]))
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return found


def placed_right(view, hidden, sample_hands, hands) -> tuple[int, int]:
    """(the opponents' hidden cards a sample puts in the right hand, by face; all of them)."""
    right = total = 0
    for seat, hand in enumerate(hands):
        if seat == view.seat:
            continue
        known = Counter(card.index for card in hidden.known[seat])
        true = Counter(card.index for card in hand) - known
        right += sum((true & (Counter(card.index for card in sample_hands[seat]) - known)).values())
        total += sum(true.values())
    return right, total


def distance_off(view, sample_hands, hands) -> tuple[int, int]:
    """(the sum over the opponents not laid down of how far a sample's contract distance
    is from the true one; how many opponents)."""
    off = count = 0
    for seat, hand in enumerate(hands):
        if seat == view.seat or view.laid_down[seat]:
            continue
        counter = distance_counter(view.contracts[seat], view.rules)
        off += abs(counter(sample_hands[seat]) - counter(hand))
        count += 1
    return off, count


def measure(found: list, reads, turns, attempts: int, sweeps: int) -> tuple:
    """(share ruled out, fallbacks, samples, CPU ms a sample, share placed right and a plain
    sample's, distance off by and a plain sample's, on the same views) of one way of
    reading."""
    right = [0, 0, 0]  # the sampler's, a plain sample's, of all
    off = [0, 0, 0]  # the sampler's, a plain sample's, opponents
    kept = tried = fell = drawn = 0
    seconds = 0.0
    for number, (view, truth) in enumerate(found):
        rng = random.Random(number)
        hidden = hidden_cards(view)
        read = reading(view, reads=reads, turns=turns)
        if not read.checks:
            continue
        for _ in range(30):
            deal = determinize(view, rng.getrandbits(63), hidden=hidden).hands
            kept += read.keeps(deal, rng)
            tried += 1
        sampler = ReadingSampler(
            view, reads=reads, turns=turns, attempts=attempts, sweeps=sweeps, hidden=hidden
        )
        samples = []
        start = time.process_time()
        for _ in range(10):
            samples.append(sampler(rng.getrandbits(63)))
        seconds += time.process_time() - start
        fell += sampler.fell_back
        drawn += sampler.drawn
        for sample in samples:
            plain = determinize(view, rng.getrandbits(63), hidden=hidden)
            mine, total = placed_right(view, hidden, sample.hands, truth)
            right[0] += mine
            right[1] += placed_right(view, hidden, plain.hands, truth)[0]
            right[2] += total
            mine, count = distance_off(view, sample.hands, truth)
            off[0] += mine
            off[1] += distance_off(view, plain.hands, truth)[0]
            off[2] += count
    return (1 - kept / tried, fell, drawn, 1000 * seconds / drawn, right[0] / right[2],
            right[1] / right[2], off[0] / off[2], off[1] / off[2])  # fmt: skip


def greedy_discard(view, seat: int, hand: list, taken) -> int:
    """The face (:attr:`~rummykit.engine.cards.Card.index`) GreedyBot would discard holding
    ``hand`` in ``seat``'s play, not laid down, ``taken`` the card it took this turn."""
    from rummykit.engine.cards import Hand
    from rummykit.engine.legal import discardable

    seen = dataclasses.replace(view, seat=seat, hand=Hand(hand), taken=taken,
                               pending_jokers=(), phase="play", to_act=seat, current=seat)  # fmt: skip
    discards = [Discard(card) for card in discardable(seen)]
    return JUDGE._contract_discard(seen, discards).card.index


def discards_tell(found: list, draws: int) -> None:
    """Print what the opponents' last discards would tell (see ``--discards``)."""
    agreed = tried = used = views = rare = 0
    totals = {way: [0, 0, 0, 0] for way in ("plain", "read", "discards")}
    for number, (view, hands) in enumerate(found):
        read = reading(view)
        if not read.checks:
            continue
        hidden, rng = hidden_cards(view), random.Random(number)
        kept = {way: [] for way in totals}
        before = agreed
        views += 1
        for _ in range(draws):
            sample = determinize(view, rng.getrandbits(63), hidden=hidden)
            tried += 1
            kept["plain"].append(sample)
            agrees = all(
                greedy_discard(view, c.seat, [*sample.hands[c.seat], c.discard], c.taken)
                == c.discard.index
                for c in read.checks
            )
            agreed += agrees
            if read.keeps(sample.hands, rng):
                kept["read"].append(sample)
                if agrees:
                    kept["discards"].append(sample)
        rare += (agreed - before) * ATTEMPTS < draws  # fewer than 1 in ATTEMPTS agree
        if len(kept["discards"]) < 3:
            continue
        used += 1
        for way, samples in kept.items():
            for sample in samples[:10]:
                right, total = placed_right(view, hidden, sample.hands, hands)
                off, count = distance_off(view, sample.hands, hands)
                for k, value in enumerate((right, total, off, count)):
                    totals[way][k] += value
    print(f"discards: {agreed:,} of {tried:,} plain deals agree with every last discard read "
          f"({100 * agreed / tried:.1f}%); in {rare} of {views} views fewer than 1 in "
          f"{ATTEMPTS}; {used} views with 3 or more agreeing")  # fmt: skip
    for way, (right, total, off, count) in totals.items():
        print(
            f"  {way}: placed right {100 * right / total:.2f}%, distance off by {off / count:.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--discards", action="store_true", help="what discards would tell")
    parser.add_argument("--draws", type=int, default=400, help="with --discards: deals a view")
    args = parser.parse_args()
    found = views(args.games, args.seed)
    start = time.process_time()
    for number, (view, _) in enumerate(found):
        hidden = hidden_cards(view)
        for k in range(10):
            determinize(view, number * 10 + k, hidden=hidden)
    plain = 1000 * (time.process_time() - start) / (10 * len(found))
    print(f"{len(found)} views of seat 0 in {args.games} games (seed {args.seed})")
    print(f"plain determinization: {plain:.2f} ms a sample")
    for reads, turns, attempts, sweeps in WAYS:
        ruled, fell, drawn, ms, right, plain_right, off, plain_off = measure(
            found, reads, turns, attempts, sweeps
        )
        way = (
            f"reads {'+'.join(reads)}, turns {turns or 'all'}, attempts {attempts}, sweeps {sweeps}"
        )
        print(
            f"{way}: rules out {100 * ruled:.1f}% of plain deals, fell back {fell}/{drawn} "
            f"({100 * fell / drawn:.1f}%), {ms:.2f} ms a sample ({ms / plain:.1f}x plain), "
            f"placed right {100 * right:.2f}% (plain {100 * plain_right:.2f}%), "
            f"distance off by {off:.3f} (plain {plain_off:.3f})"
        )
    if args.discards:
        discards_tell(found, args.draws)


#: The GreedyBot whose discards --discards asks about.
JUDGE = GreedyBot()

if __name__ == "__main__":
    main()
