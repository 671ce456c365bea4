"""The exceptions rummykit raises.

Every error is a :class:`RummyError`, itself a :class:`ValueError`, and its message
names the rule or the format that was broken.
"""

from __future__ import annotations

__all__ = [
    "CardParseError",
    "IllegalActionError",
    "IllegalMeldError",
    "MissingDependencyError",
    "RuleSetError",
    "RummyError",
    "SaveFileError",
]


class RummyError(ValueError):
    """Base class of every error rummykit raises on bad input."""


class CardParseError(RummyError):
    """A card code such as ``"8H"`` or ``"10♠"`` could not be read."""


class RuleSetError(RummyError):
    """A combination of rule options that cannot be played."""


class IllegalMeldError(RummyError):
    """Cards that do not form the meld asked for (a set, a run, a lay-off, a swap)."""


class IllegalActionError(RummyError):
    """An action the rules do not allow in the current game state."""


class SaveFileError(RummyError):
    """A saved game that is corrupt, tampered with or of an unknown version."""


class MissingDependencyError(RummyError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""
