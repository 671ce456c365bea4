"""The exercises of chapter 9 (*More probability at the table*) as generators
``f(seed) -> Exercise``, listed in :data:`GENERATORS` (and in the book's registry,
:data:`rummykit.teach.EXERCISES`).

Each generator has a list of at least 40 variants, every one with its own answer: seed 0
is the book's, and seed ``s`` takes variant ``s`` modulo the list's length, so a class of
40 with seeds 0 to 39 has 40 different answers to every question (``tests`` checks it).
The answers come from :mod:`rummykit.teach.concepts`, which the tests check against
independent methods.

>>> ex = wait(0)
>>> print(ex.question)
Of the 90 cards you have not seen, 2 are the queen of hearts you need. Drawing from the shuffled stock, how many draws do you expect to make up to and including the first queen of hearts?
>>> ex.check("91/3").correct, ex.check("45").correct
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from math import ceil

from rummykit.engine.cards import Hand, Shoe, Suit
from rummykit.engine.rules import CONTRACTS, RuleSet
from rummykit.errors import ArgumentError
from rummykit.exercises import Exercise, exercise
from rummykit.teach.concepts import (
    hypergeom_moments,
    kept_two_chance,
    paired_counts,
    poisson_games,
    set_count_moments,
    waiting_time_mean,
    waiting_time_survival,
)
from rummykit.teach.probability import prob_at_least_one_joker

__all__ = ["GENERATORS", "VARIANTS", "variant"]

#: Per exercise key, the numbers of each variant; the first is the book's.
VARIANTS: dict[str, tuple[dict, ...]] = {}
_RULES = RuleSet.preset("standard")


def variant(key: str, seed: int) -> dict:
    """The numbers of exercise ``key`` for ``seed``: variant ``seed`` modulo their count.

    >>> variant("ch9-fpc", 0)
    {'decks': 2, 'cards': 12}
    """
    options = VARIANTS[key]
    return dict(options[seed % len(options)])


def _distinct(options: list[dict], answer: Callable[..., object]) -> tuple[dict, ...]:
    """The options, less any whose answer an earlier option already has."""
    seen, kept = set(), []
    for numbers in options:
        value = answer(**numbers)
        if value not in seen:
            seen.add(value)
            kept.append(numbers)
    return tuple(kept)


def _shoe(decks: int, jokers: int) -> str:
    return f"{decks} deck{'s' if decks > 1 else ''} and {jokers} jokers"


def _register(
    key: str,
    options: list[dict],
    answer: Callable[..., object],
    *,
    cheap=True,
    worked: tuple[object, ...] = (),
):
    # An answer that costs a search (ch9-paired) is not computed at import: the tests
    # check that its variants' answers differ. ``worked`` are answers the book's text
    # works out or prints (a worked example, another exercise's question): no variant has
    # one, so no student's exercise is answered on the page (issue 49 item 12).
    if worked:
        options = [numbers for numbers in options if answer(**numbers) not in worked]
    VARIANTS[key] = _distinct(options, answer) if cheap else tuple(options)

    def wrap(build: Callable[..., Exercise]) -> Callable[[int], Exercise]:
        @exercise(key)
        def generator(seed: int) -> Exercise:
            return build(**variant(key, seed))

        generator.__doc__ = build.__doc__
        return generator

    return wrap


def _fpc_answer(decks: int, cards: int) -> Fraction:
    return hypergeom_moments(population=54 * decks, successes=4 * decks, draws=cards)[1]


@_register(
    "ch9-fpc",
    [{"decks": 2, "cards": 12}]
    + [{"decks": d, "cards": c} for d in (1, 2, 3, 4, 6) for c in range(6, 16)],
    _fpc_answer,
    # The chapter works out a 10-card hand from two decks and four jokers.
    worked=(_fpc_answer(2, 10),),
)
def fpc(decks: int, cards: int) -> Exercise:
    """The variance of the number of eights, with the finite-population correction."""
    jokers = 2 * decks
    population = 54 * decks
    return Exercise(
        "ch9-fpc",
        f"A {cards}-card hand is dealt from {_shoe(decks, jokers)}. What is the variance of "
        "the number of eights in it?",
        _fpc_answer(decks, cards),
        hint="Var X = n (K/N) (1 - K/N) (N - n) / (N - 1): the binomial's variance times the "
        "finite-population correction.",
        explanation=f"N = {population}, K = {4 * decks}, n = {cards}.",
        chance=False,
    )


def _next_answer(seen: int, hearts: int) -> Fraction:
    return Fraction(26 - hearts, 98 - seen)


@_register(
    "ch9-next-heart",
    [{"seen": 3, "hearts": 4}]
    + [{"seen": s, "hearts": h} for s in range(0, 10) for h in range(1, 8) if h <= 10 + s],
    _next_answer,
)
def next_heart(seen: int, hearts: int) -> Exercise:
    """The chance that a card deep in the stock is a heart: the symmetry argument."""
    rng = random.Random(f"ch9-next-heart:{seen}:{hearts}")
    shoe = Shoe(decks=2, jokers=4).cards
    red = [card for card in shoe if card.suit is Suit.HEARTS]
    other = [card for card in shoe if card.suit is not Suit.HEARTS]
    cards = rng.sample(red, hearts) + rng.sample(other, 10 + seen - hearts)
    rng.shuffle(cards)
    hand, pile = Hand(cards[:10]), cards[10:]
    pile_text = " ".join(str(card) for card in pile) if pile else "nothing"
    position = 2 + rng.randrange(8)
    return Exercise(
        "ch9-next-heart",
        f"You hold {hand} (two decks and four jokers, four players). The discard pile "
        f"shows {pile_text}. What is the chance that the card {position} from the top of "
        "the stock is a heart?",
        _next_answer(seen, hearts),
        hint="Every unseen card is equally likely to be at any position of the stock: "
        "count the unseen hearts over the unseen cards.",
        explanation="The position does not matter: by symmetry each unseen card is as likely "
        "to be there as any other.",
    )


def _sets_answer(decks: int, cards: int) -> Fraction:
    return set_count_moments(decks=decks, jokers=2 * decks, cards=cards)[1]


@_register(
    "ch9-set-variance",
    [{"decks": 2, "cards": 12}]
    + [{"decks": d, "cards": c} for d in (1, 2, 3) for c in range(6, 20)],
    _sets_answer,
    # The chapter prints the variance of a 10-card hand from two decks and four jokers.
    worked=(_sets_answer(2, 10),),
)
def set_variance(decks: int, cards: int) -> Exercise:
    """The variance of the number of ranks with three or more natural cards."""
    return Exercise(
        "ch9-set-variance",
        f"A {cards}-card hand is dealt from {_shoe(decks, 2 * decks)}. Let X be the number of "
        "ranks of which it holds three or more natural cards (jokers count for no rank). "
        "What is Var X?",
        _sets_answer(decks, cards),
        hint="X is a sum of 13 indicators: Var X = 13 Var I + 13 x 12 Cov(I_r, I_s), and "
        "P(I_r = I_s = 1) is a two-rank hypergeometric sum.",
        explanation="The covariance is negative: the variance is below 13 p (1 - p).",
        chance=False,
    )


def _wait_answer(unseen: int, wanted: int) -> Fraction:
    return waiting_time_mean(unseen=unseen, wanted=wanted)


@_register(
    "ch9-wait",
    [{"unseen": 90, "wanted": 2}]
    + [{"unseen": u, "wanted": w} for u in range(60, 100, 3) for w in (1, 2, 3)],
    _wait_answer,
    # The chapter works out 2 wanted among 95 (32 draws) and, censoring, 2 among 60.
    worked=(_wait_answer(95, 2), _wait_answer(60, 2)),
)
def wait(unseen: int, wanted: int) -> Exercise:
    """The expected wait for the first of the wanted cards: (U + 1) / (K + 1)."""
    name = {1: "ace of spades", 2: "queen of hearts", 3: "seven of clubs"}[wanted]
    copies = "is the" if wanted == 1 else "are the"
    return Exercise(
        "ch9-wait",
        f"Of the {unseen} cards you have not seen, {wanted} {copies} {name} you need. "
        "Drawing from the shuffled stock, how many draws do you expect to make up to and "
        f"including the first {name}?",
        _wait_answer(unseen, wanted),
        hint="The wanted cards split the others into K + 1 runs of equal expected length.",
        explanation=f"(U + 1) / (K + 1) = {unseen + 1} / {wanted + 1}.",
        chance=False,
    )


def _censored_answer(unseen: int, limit: int) -> Fraction:
    return waiting_time_survival(limit, unseen=unseen, wanted=2)


@_register(
    "ch9-censored",
    [{"unseen": 80, "limit": 20}]
    + [{"unseen": u, "limit": t} for u in (60, 70, 80, 90) for t in range(10, 40, 3)],
    _censored_answer,
)
def censored(unseen: int, limit: int) -> Exercise:
    """The chance a wait is cut off by the limit: P(T > L)."""
    return Exercise(
        "ch9-censored",
        f"Two of the {unseen} unseen cards are the card you wait for, and the round will be "
        f"stopped after you have drawn {limit} more cards. What is the chance that you are "
        "still waiting when it stops (your wait is censored)?",
        _censored_answer(unseen, limit),
        hint=f"None of the two among the first {limit} draws: C(U - 2, L) / C(U, L).",
        explanation="A mean of the waits that did end leaves these out, and is too small.",
    )


def _chebyshev_answer(decks: int, cards: int) -> int:
    p = prob_at_least_one_joker(decks=decks, jokers=2 * decks, cards=cards)
    return ceil(p * (1 - p) / (Fraction(5, 100) * Fraction(1, 100) ** 2))


@_register(
    "ch9-chebyshev",
    # The question gives the chance of a joker, which is exercise ch6-one-joker's answer
    # for its shoes (1 to 3 decks, two jokers a deck, 7, 10, 11 or 12 cards): not those.
    [{"decks": 2, "cards": 9}]
    + [
        {"decks": d, "cards": c}
        for d in (1, 2, 3, 4, 5)
        for c in range(5, 16)
        if d > 3 or c not in (7, 10, 11, 12)
    ],
    _chebyshev_answer,
)
def chebyshev(decks: int, cards: int) -> Exercise:
    """The law of large numbers with Chebyshev's bound on the sample size."""
    p = prob_at_least_one_joker(decks=decks, jokers=2 * decks, cards=cards)
    return Exercise(
        "ch9-chebyshev",
        f"The chance that a {cards}-card hand from {_shoe(decks, 2 * decks)} holds a joker "
        f"is p = {p.numerator}/{p.denominator}. By Chebyshev's inequality, how many hands "
        "must you simulate to be sure that the chance of an estimate more than 1 percentage "
        "point from p is at most 5%? (The smallest whole number the bound allows.)",
        _chebyshev_answer(decks, cards),
        hint="P(|p̂ - p| >= ε) <= p (1 - p) / (n ε²): set it to 0.05 with ε = 0.01.",
        explanation="The law of large numbers in numbers: the bound shrinks like 1/n.",
        chance=False,
    )


def _paired_parts(unseen_size: int):
    rng = random.Random(f"ch9-paired:{unseen_size}")
    cards = Shoe(decks=2, jokers=4).cards
    while True:
        drawn = rng.sample(cards, 9 + unseen_size)
        hand, unseen = drawn[:9], drawn[9:]
        first, second = rng.sample(hand, 2)
        a = kept_two_chance(hand, first, CONTRACTS[0], _RULES, unseen=unseen)
        b = kept_two_chance(hand, second, CONTRACTS[0], _RULES, unseen=unseen)
        if a != b and a > 0 and b > 0:
            return hand, unseen, first, second, a - b


def _paired_answer(unseen_size: int) -> Fraction:
    return _paired_parts(unseen_size)[-1]


@_register("ch9-paired", [{"unseen_size": u} for u in range(20, 62)], _paired_answer, cheap=False)
def paired(unseen_size: int) -> Exercise:
    """Two discards compared exactly, the quantity the chapter's paired simulation estimates."""
    hand, unseen, first, second, _ = _paired_parts(unseen_size)
    return Exercise(
        "ch9-paired",
        f"You hold {Hand(hand)} and must discard before two draws, keeping both cards you "
        f"draw, aiming for two sets (standard rules). Only these {len(unseen)} cards can come: "
        f"{Hand(unseen)}. By how much does discarding {first} beat discarding {second}: the "
        "chance of holding two sets after the two draws, minus the other's? (Negative if it "
        "is worse.)",
        _paired_answer(unseen_size),
        hint="Count, for each discard, the pairs of cards after which the 10 cards hold "
        "two sets; divide by C(U, 2) and subtract.",
        explanation="The same pairs decide both chances: a paired comparison.",
        chance=False,
    )


def _buy_answer(n: int, both: int, only_buy: int, only_never: int) -> float:
    result = paired_counts(n, both=both, only_first=only_buy, only_second=only_never)
    return round(1.96 * result.paired_se, 6)


@_register(
    "ch9-buy-pairing",
    [{"n": 1000, "both": 200, "only_buy": 47, "only_never": 74}]
    + [
        {"n": n, "both": n // 5, "only_buy": n * a // 100, "only_never": n * b // 100}
        for n in (500, 1000, 2000)
        for a in (3, 4, 5, 6)
        for b in (5, 7, 9, 11)
    ],
    _buy_answer,
)
def buy_pairing(n: int, both: int, only_buy: int, only_never: int) -> Exercise:
    """Should I buy? The paired interval of a difference from the four counts of a
    paired table."""
    unpaired = paired_counts(n, both=both, only_first=only_buy, only_second=only_never)
    return Exercise(
        "ch9-buy-pairing",
        f"{n} deals are each played twice, once buying whenever a buy improves the hand and "
        "once never buying (the same deal and stock both times). Both plays went out in "
        f"{both} deals, only the buying play in {only_buy}, only the never-buying play in "
        f"{only_never}, neither in the rest. With D = 1 if only the buying play went out, "
        "-1 if only the other did, 0 otherwise, the difference of the two chances is the "
        "mean of the D's. What is the half-width of its paired 95% interval, 1.96 standard "
        f"errors of that mean (sample variance with n - 1)? (Within 1% is right.)",
        _buy_answer(n, both, only_buy, only_never),
        hint="D² is 1 on the deals where the plays differ: the sum of (D - mean)² is "
        "(only_buy + only_never) - n mean²; divide by n - 1, then by n, take the root.",
        explanation=f"Had each policy had its own {n} deals, the same two chances would give "
        f"a half-width of {1.96 * unpaired.unpaired_se:.4f}. Paired, the deals on which both "
        "plays went out, or neither did, have D = 0: the luck of the deal, which both plays "
        "share, adds no spread.",
        tolerance=0.01,
        chance=False,
    )


def _round_7_chance(players: int) -> Fraction:
    """The exact chance that a 12-card hand of the standard shoe for ``players`` holds round
    7's contract (three runs), from the committed tables."""
    from rummykit.odds.answer import ExactCell, known_probability

    decks = _RULES.decks_for(players)
    cell = ExactCell(_RULES, 7, _RULES.contracts[6], decks, _RULES.jokers_for(decks), 12)
    chance = known_probability(cell)
    if chance is None:  # pragma: no cover - the committed tables hold every standard shoe
        raise ArgumentError(f"no exact chance of round 7 at {players} players in data/")
    return chance


_TARGETS = (
    Fraction(1, 10),
    Fraction(1, 4),
    Fraction(1, 3),
    Fraction(1, 2),
    Fraction(2, 3),
    Fraction(3, 4),
    Fraction(9, 10),
)


def _poisson_answer(players: int, target: Fraction) -> int:
    return poisson_games(_round_7_chance(players), players=players, target=target)


@_register(
    "ch9-poisson",
    [{"players": 4, "target": Fraction(1, 2)}]
    + [{"players": n, "target": t} for n in range(2, 9) for t in _TARGETS],
    _poisson_answer,
)
def poisson(players: int, target: Fraction) -> Exercise:
    """Rare events: how many games before a rare deal is likely, by the Poisson
    approximation."""
    p = _round_7_chance(players)
    decks = _RULES.decks_for(players)
    shoe = _shoe(decks, _RULES.jokers_for(decks))
    return Exercise(
        "ch9-poisson",
        f"A 12-card hand from {shoe} holds round 7's contract (three runs) as dealt with "
        f"chance p = {p.numerator}/{p.denominator}. A table of {players} players deals one "
        "such hand to each player a game. By the Poisson approximation, how many games must "
        f"the table play before the chance that some hand has been dealt it complete is at "
        f"least {target}? (The smallest whole number of games.)",
        _poisson_answer(players, target),
        hint="The number of complete hands in G games is about Poisson with mean G n p: "
        "solve 1 - exp(-G n p) >= target for G.",
        explanation="G >= -ln(1 - target) / (n p); Le Cam's bound says the Poisson law is "
        "within G n p² of the binomial's, a tiny number here.",
        chance=False,
    )


#: Chapter 9's generators, ``generator(seed) -> Exercise``, in the chapter's order.
GENERATORS = (
    fpc,
    next_heart,
    set_variance,
    wait,
    censored,
    chebyshev,
    paired,
    buy_pairing,
    poisson,
)
