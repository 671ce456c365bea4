"""Altair chart builders for the rummykit book and notebooks.

Each builder takes a long-form polars ``DataFrame`` (one row per plotted
value) and returns an ``alt.Chart`` (or a layered chart). Encodings carry
explicit types (``"p:Q"``, ``"decks:O"``), titles and axes use plain words, and
probabilities are shown as percentages.

This module is presentation only: the engine modules (cards, rules, melds,
odds, game) never import polars or altair.
"""

from __future__ import annotations
