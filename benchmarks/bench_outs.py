"""Speed of outs and discard_advice: hands per second, against the direct computation.

Random 10- and 12-card hands from 2 decks + 4 jokers, for each of the 7 contracts of
``standard``, on one core (CPU time of this process). ``outs/s`` is :func:`rummykit.outs`;
``direct/s`` is the reference it must agree with (checked here, hand by hand): the
copy-limited ``contract_distance`` of the hand and of the hand plus each face with an
unseen copy; ``ratio`` is outs/s over direct/s. ``advice/s`` is :func:`discard_advice` on
the hand as one after its draw (every distinct discard with its outs and two-draw chance).
No goal yet (issue 19); a couple of minutes with the defaults.

    .venv/bin/python benchmarks/bench_outs.py [--hands N] [--advice-hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from rummykit import RuleSet, Shoe, contract_distance, discard_advice, outs
from rummykit.engine.cards import Card, Rank, Suit

FACES = [Card(rank, suit, 999) for suit in Suit for rank in Rank] + [Card.joker(999)]


def direct(hand, contract, rules, decks, jokers) -> dict[str, int]:
    """The outs by definition: every face with an unseen copy, the limited distance."""
    distance = contract_distance(hand, contract, rules, decks=decks)
    held = Counter(card.code for card in hand)
    found = {}
    for face in FACES:
        unseen = (jokers if face.is_joker else decks) - held[face.code]
        if (
            distance
            and unseen > 0
            and contract_distance([*hand, face], contract, rules, decks=decks) < distance
        ):
            found[face.code] = unseen
    return found


def per_second(function, hands) -> tuple[float, list]:
    start = time.process_time()
    results = [function(hand) for hand in hands]
    return len(hands) / (time.process_time() - start), results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6, help="hands per cell for outs")
    parser.add_argument("--direct-hands", type=int, default=2, help="hands per direct cell")
    parser.add_argument("--advice-hands", type=int, default=2, help="hands per advice cell")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = RuleSet.preset("standard")
    decks, jokers = 2, 4
    shoe = Shoe(decks=decks, jokers=jokers)
    rng = random.Random(args.seed)
    print(
        f"{'cards':>5} {'contract':<15} {'outs/s':>8} {'direct/s':>9} {'ratio':>6} {'advice/s':>9}"
    )
    for cards in (10, 12):
        for contract in rules.contracts:
            hands = [rng.sample(shoe.cards, cards) for _ in range(args.hands)]
            outs_rate, found = per_second(
                lambda h, c=contract: outs(h, c, rules, decks=decks, jokers=jokers), hands
            )
            few = hands[: args.direct_hands]
            direct_rate, expected = per_second(
                lambda h, c=contract: direct(h, c, rules, decks, jokers), few
            )
            for result, want in zip(found, expected, strict=False):
                assert result.cards == want, (result.cards, want)
            advice_rate, _ = per_second(
                lambda h, c=contract: discard_advice(h, c, rules, decks=decks, jokers=jokers),
                hands[: args.advice_hands],
            )
            print(
                f"{cards:>5} {str(contract):<15} {outs_rate:>8.1f} {direct_rate:>9.1f} "
                f"{outs_rate / direct_rate:>5.1f}x {advice_rate:>9.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
