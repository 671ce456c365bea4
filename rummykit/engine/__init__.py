"""The rules of the game, with the standard library only: cards and shoes
(:mod:`~rummykit.engine.cards`), rule sets (:mod:`~rummykit.engine.rules`), melds and the
contract search (:mod:`~rummykit.engine.melds`, :mod:`~rummykit.engine.search`), actions and
events, what a seat may do (:mod:`~rummykit.engine.legal`), the phases of a turn, the game
and its state (:mod:`~rummykit.engine.game`), saves and a round in words.

Nothing here imports the agents, the evaluation, the odds, Jupyter, polars or altair: they
stand on the engine (docs/architecture.md). The package's own face, :mod:`rummykit`, offers
the engine's public names.
"""
