"""The exercises of the book's chapters as generators ``f(seed) -> Exercise``.

Seed 0 gives the book's numbers; another seed picks another shoe or hand size, and the
checked answer, computed by rummykit, changes with it.

>>> from rummykit.exercises import EXERCISES
>>> EXERCISES["ch6-one-joker"](0).check("32.6%").correct
True
"""

from __future__ import annotations

from rummykit.exercises import Exercise, exercise
from rummykit.odds.teaching import prob_at_least_one_joker


@exercise("ch6-one-joker")
def one_joker(seed: int) -> Exercise:
    """Exercise 3: the chance of at least one joker in a dealt hand."""
    decks, jokers, cards = (
        (2, 4, 10) if seed == 0 else (1 + seed % 3, 2 + 2 * (seed % 3), 7 + seed % 5)
    )
    return Exercise(
        "ch6-one-joker",
        f"What is the chance that a {cards}-card hand from {decks} decks and {jokers} jokers"
        " holds at least one joker?",
        prob_at_least_one_joker(decks=decks, jokers=jokers, cards=cards),
        hint="Take the complement: no joker means every card comes from the naturals.",
    )
