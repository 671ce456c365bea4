"""How well they play: duplicate matches (:mod:`~rummykit.evaluate.duplicate`), the ladder
of bots (:mod:`~rummykit.evaluate.ladder`), the review of a seat's decisions and its words
and page (:mod:`~rummykit.evaluate.reviews`), the bots beside it, round stories, and puzzles
made of decisions (:mod:`~rummykit.evaluate.puzzles`). They stand on the engine and the
agents.
"""
