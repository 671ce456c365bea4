"""The numbers of assignment 1, ``hw1-counting`` (being written)."""

from __future__ import annotations

ASSIGNMENT = "hw1-counting"
QUESTIONS = ()
