"""The numbers of assignment 4, ``hw4-decisions`` (being written)."""

from __future__ import annotations

ASSIGNMENT = "hw4-decisions"
QUESTIONS = ()
