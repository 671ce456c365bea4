"""Chapter 7's exercise generators (rummykit/teach/outs_exercises.py), seeds 0-20.

Each answer is checked against a count made here over the unseen cards themselves (every
physical card of the shoe not in the hand or the pile, tried by the copy-limited
``contract_distance``), on the hand read back from the question the reader sees; the
right answer must check and wrong ones must not.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from rummykit import RuleSet, Shoe, contract_distance, parse_cards
from rummykit.teach import EXERCISES
from rummykit.teach.outs_exercises import DISCARD_PILE, PILE

RULES = RuleSet.preset("standard")
CONTRACT = RULES.contracts[0]
SHOE = Shoe(decks=2, jokers=4)
SEEDS = range(21)
KEYS = ["outs-count", "outs-next-card", "outs-two-draws", "outs-rule-error", "outs-best-discard"]
CARD = r"(?:10|[2-9AJQK])[♣♦♥♠]|JK"


def _cards_after(text: str, before: str) -> list:
    """The cards written right after ``before`` in ``text``."""
    match = re.search(re.escape(before) + rf"((?:{CARD})(?: (?:{CARD}))*)", text)
    assert match, (before, text)
    return list(parse_cards(match.group(1).split()))


def _unseen(*known) -> list:
    """The physical cards of the shoe not among ``known`` (matched by face)."""
    out = Counter(card.code for cards in known for card in cards)
    left = []
    for card in SHOE.cards:
        if out[card.code]:
            out[card.code] -= 1
        else:
            left.append(card)
    assert not +out, "a card the shoe does not hold"
    return left


def _out_flags(hand: list, unseen: list) -> tuple[int, list[bool]]:
    """The hand's copy-limited distance, and for each unseen card whether it lowers it."""
    distance = contract_distance(hand, CONTRACT, RULES, decks=2)
    by_face: dict[str, bool] = {}
    flags = []
    for card in unseen:
        if card.code not in by_face:
            after = contract_distance([*hand, card], CONTRACT, RULES, decks=2)
            by_face[card.code] = after < distance
        flags.append(by_face[card.code])
    return distance, flags


def _pile(question: str, seed: int) -> list:
    """The discard pile a question shows: none for the book's hand (seed 0) but for
    outs-two-draws, whose every seed has one (the chapter works its hand with none), and
    PILE cards for a targeted one."""
    if "pile shows" not in question:
        assert seed == 0
        return []
    pile = _cards_after(question, "The discard pile shows ")
    assert len(pile) == PILE
    return pile


def _wrong(answer) -> list:
    if isinstance(answer, int):
        return [answer + 1, answer - 1, 2 * answer + 1]
    return [answer + Fraction(1, 50), answer * Fraction(11, 10), 1 - answer]


def test_every_generator_is_registered():
    assert all(key in EXERCISES for key in KEYS)


@pytest.mark.slow  # 3-7 s a generator: the targeted hands' searches
@pytest.mark.parametrize("key", KEYS)
def test_right_answers_check_and_wrong_ones_do_not(key):
    for seed in SEEDS:
        ex = EXERCISES[key](seed)
        assert ex.seed == seed and ex.key == key
        assert ex.check(str(ex.answer)).correct, (seed, ex.answer)
        if isinstance(ex.answer, Fraction):
            value = float(ex.answer)
            assert ex.check(f"{value:.4g}").correct and ex.check(f"{value:.4%}").correct
        for wrong in _wrong(ex.answer):
            assert not ex.check(str(wrong)).correct, (seed, wrong)
    # The seeds give different exercises, seed 0 the book's.
    assert len({EXERCISES[key](seed).question for seed in SEEDS}) > 10
    assert EXERCISES[key](0) == EXERCISES[key](0)


@pytest.mark.parametrize("seed", SEEDS)
def test_outs_count_is_the_unseen_cards_that_complete(seed):
    ex = EXERCISES["outs-count"](seed)
    hand = _cards_after(ex.question, "2 sets: ")
    assert len(hand) == 10
    pile = _pile(ex.question, seed)
    unseen = _unseen(hand, pile)
    distance, flags = _out_flags(hand, unseen)
    assert distance == 1 and len(unseen) == 98 - len(pile)
    assert ex.answer == sum(flags)


@pytest.mark.parametrize("seed", SEEDS)
def test_next_card_chance_is_the_share_of_unseen_outs(seed):
    ex = EXERCISES["outs-next-card"](seed)
    hand = _cards_after(ex.question, "2 sets: ")
    pile = _cards_after(ex.question, "The discard pile shows ")
    unseen = _unseen(hand, pile)
    distance, flags = _out_flags(hand, unseen)
    assert distance == 1 and len(pile) == (4 if seed == 0 else PILE)
    assert len(unseen) == 108 - 10 - len(pile)
    assert ex.answer == Fraction(sum(flags), len(unseen))


@pytest.mark.parametrize("seed", SEEDS)
def test_two_draw_chance_over_every_ordered_pair_of_unseen_cards(seed):
    ex = EXERCISES["outs-two-draws"](seed)
    hand = _cards_after(ex.question, "2 sets: ")
    unseen = _unseen(hand, _pile(ex.question, seed))
    distance, flags = _out_flags(hand, unseen)
    assert f"It has {sum(flags)} outs among {len(unseen)} unseen cards" in ex.question
    pairs = list(permutations(range(len(unseen)), 2))
    hits = sum(1 for first, second in pairs if flags[first] or flags[second])
    assert ex.answer == Fraction(hits, len(pairs))


@pytest.mark.parametrize("seed", SEEDS)
def test_rule_error_against_the_pairs_counted(seed):
    ex = EXERCISES["outs-rule-error"](seed)
    total, unseen = map(int, re.search(r"(\d+) outs among (\d+) unseen", ex.question).groups())
    both = total * (total - 1)  # ordered pairs of two outs
    either = unseen * (unseen - 1) - (unseen - total) * (unseen - total - 1)
    exact = Fraction(either, unseen * (unseen - 1))
    assert ex.answer == 2 * Fraction(total, unseen) - exact == Fraction(both, unseen * (unseen - 1))


@pytest.mark.slow  # about 2 s a seed: 11 discards x 53 faces of copy-limited distance
@pytest.mark.parametrize("seed", SEEDS)
def test_best_discard_keeps_the_most_outs_by_trying_every_discard(seed):
    ex = EXERCISES["outs-best-discard"](seed)
    hand = _cards_after(ex.question, "and hold ")
    assert len(hand) == 11
    # The book's hands (seeds 0 and 1) have no pile; a targeted one shows DISCARD_PILE cards.
    pile = _cards_after(ex.question, "The discard pile shows ") if seed >= 2 else []
    assert len(pile) == (DISCARD_PILE if seed >= 2 else 0)
    assert ("pile shows" in ex.question) == (seed >= 2)
    unseen = _unseen(hand, pile)  # the discard lies on the pile: still not in the stock
    results = []
    for index in {card.code: i for i, card in enumerate(hand)}.values():  # a face once
        left = hand[:index] + hand[index + 1 :]
        distance, flags = _out_flags(left, unseen)
        results.append((distance, sum(flags)))
    least = min(distance for distance, _ in results)
    assert least == 1
    assert ex.answer == max(total for distance, total in results if distance == least)


@pytest.mark.slow  # about 10 s a generator on a busy machine: the targeted hands' searches
@pytest.mark.parametrize(
    "key", ["outs-count", "outs-next-card", "outs-two-draws", "outs-rule-error"]
)
def test_seeds_0_to_39_give_40_different_answers(key):
    assert len({EXERCISES[key](seed).answer for seed in range(40)}) == 40


@pytest.mark.slow  # about 30 s on a busy machine: the targeted hands' searches
def test_best_discard_seeds_0_to_39_give_40_different_answers():
    answers = [EXERCISES["outs-best-discard"](seed).answer for seed in range(40)]
    assert len(set(answers)) == 40
    # The book's hands stay: chapter 7 shows seed 1 and works it out.
    assert answers[:2] == [10, 42]
