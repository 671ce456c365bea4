"""The exceptions rummykit raises.

Every error is a :class:`RummyError`, itself a :class:`ValueError`, and its message
names the rule or the format that was broken. An argument of the wrong type raises a
subclass that is also a :class:`TypeError` (:class:`ArgumentTypeError`,
:class:`CardTypeError`, :class:`ActionTypeError`), so code written for Python's own
errors keeps working.

>>> issubclass(ArgumentTypeError, RummyError) and issubclass(ArgumentTypeError, TypeError)
True
"""

from __future__ import annotations

__all__ = [
    "ActionTypeError",
    "AnswerError",
    "ArgumentError",
    "ArgumentTypeError",
    "CardCountError",
    "CardParseError",
    "CardTypeError",
    "ClusterError",
    "GradingError",
    "IllegalActionError",
    "IllegalMeldError",
    "MissingDependencyError",
    "OutputError",
    "RuleSetError",
    "RummyError",
    "SaveFileError",
    "StudentIdError",
    "SubmissionError",
    "UnsupportedRuleError",
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


class UnsupportedRuleError(RuleSetError):
    """A rule option that a fast path (such as :mod:`rummykit.odds.play.fastplay`) does not
    implement: the message names the RuleSet field and its value. The engine plays it."""


class SaveFileError(RummyError):
    """A saved game that is corrupt, tampered with or of an unknown version."""


class ArgumentError(RummyError):
    """An argument out of range or malformed: a seat number, the players' names, a limit."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type (a seat given as None, a seed given as a string)."""


class CardCountError(ArgumentError):
    """More copies of a card than the shoe holds: in a hand, or in a hand and the cards
    seen together (the message names the card and the shoe)."""


class CardTypeError(CardParseError, TypeError):
    """Cards given as something that is neither a string of codes nor a list of them."""


class ActionTypeError(IllegalActionError, TypeError):
    """An action built from fields of the wrong type (a code string where a Card is due)."""


class MissingDependencyError(RummyError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""


class AnswerError(RummyError):
    """A reader's answer to an exercise that cannot be read as a number or a word; the
    message quotes the answer and lists the forms that are understood."""


class ClusterError(RummyError):
    """A Dask scheduler that cannot be reached or has no workers; the message names its address."""


class OutputError(ArgumentError):
    """A place to write that cannot be written: the tables' folder (``--out``) or a
    checkpoint (``--checkpoint``), missing, read-only, full, or a file in the way; the
    message names the path and what to do."""


class StudentIdError(ArgumentError):
    """A student ID that is not of the accepted form (see :mod:`rummykit.teach.students`)."""


class SubmissionError(RummyError):
    """A submission the grader cannot take as it is: a notebook that is not JSON, or values
    handed back that are not of the plain, size-bounded form the grader reads
    (:mod:`rummykit.teach.grading.values`); the message names the file or the value."""


class GradingError(RummyError):
    """A grading run that cannot start or go on: an autograder zip that is no autograder,
    a roster line that is no student ID, two files for one student, or the installed
    rummykit changed while grading; the message names the file, the line or the students."""
