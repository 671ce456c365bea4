"""The book's exercise generators, by key: an explicit list of each chapter's
:data:`GENERATORS` (chapter 6, :mod:`~rummykit.teach.exercise_sets`; chapter 7,
:mod:`~rummykit.teach.outs_exercises`; chapter 9, :mod:`~rummykit.teach.concept_exercises`).
A chapter with exercises adds its list here; nothing registers itself on import.

>>> ex = EXERCISES["ch6-one-joker"](3)
>>> ex.key, ex.seed
('ch6-one-joker', 3)
>>> list(EXERCISES)[:2], len(EXERCISES)
(['ch6-hands', 'ch6-identical-sets'], 28)
"""

from __future__ import annotations

from rummykit.exercises import registry
from rummykit.teach import concept_exercises, exercise_sets, outs_exercises

__all__ = ["EXERCISES"]

#: Every exercise generator the book uses, by key, read-only: ``EXERCISES[key](seed)`` is
#: the variant of seed ``seed`` (0 is the book's numbers).
EXERCISES = registry(
    (
        *exercise_sets.GENERATORS,
        *outs_exercises.GENERATORS,
        *concept_exercises.GENERATORS,
    )
)
