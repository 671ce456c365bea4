"""The numbers of assignment 2, ``hw2-simulation`` (being written)."""

from __future__ import annotations

ASSIGNMENT = "hw2-simulation"
QUESTIONS = ()
