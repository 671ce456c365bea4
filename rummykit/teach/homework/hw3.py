"""The numbers of assignment 3, ``hw3-waiting`` (being written)."""

from __future__ import annotations

ASSIGNMENT = "hw3-waiting"
QUESTIONS = ()
