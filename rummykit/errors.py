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

from dataclasses import dataclass

__all__ = [
    "ActionParseError",
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
    "Refusal",
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


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse an action: the rule broken, the particulars of the case, and
    the message, so that a front end can say it in its own words without reading the text
    (:meth:`rummykit.GameState.why_not` returns one; an :class:`IllegalActionError`
    carries one).

    The message is ``template`` with ``fields`` put in. Three kinds of field are shown the
    way a front end chooses (:meth:`words`), by their names: ``meld`` or ``meld_...``
    holds a meld's number on the table (an int, counted from 0 as the action notation
    counts), or a tuple of them; ``action`` or ``action_...`` an action's notation
    (``"draw stock"``), shown quoted; ``card`` or ``card_...`` a card's symbol, shown as
    "the 5♥". A field that is a refusal (the reason of another) is shown the same way.

    >>> refusal = Refusal("no such meld", "there is no meld {meld} on the table", (("meld", 3),))
    >>> print(refusal)
    there is no meld 3 on the table
    >>> refusal.words(melds_from=1)
    'there is no meld 4 on the table'
    >>> Refusal("phase", "{action} or {action_other}",
    ...         (("action", "buy"), ("action_other", "pass"))).words(actions={"buy": "Buy"})
    "Buy or 'pass'"
    """

    rule: str
    """The rule broken, in a few words that do not change with the case (``"phase"``,
    ``"no such meld"``, ``"does not fit"``, ...)."""
    template: str
    """The message with a ``{name}`` for each field."""
    fields: tuple[tuple[str, object], ...] = ()
    """The particulars of the case, as (name, value) pairs."""

    def __post_init__(self) -> None:
        if not isinstance(self.rule, str) or not self.rule:
            raise ArgumentTypeError(f"rule must be a non-empty string, got {self.rule!r}")
        if not isinstance(self.template, str):
            raise ArgumentTypeError(f"template must be a string, got {self.template!r}")
        if not isinstance(self.fields, tuple) or not all(
            isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
            for pair in self.fields
        ):
            raise ArgumentTypeError(f"fields must be (name, value) pairs, got {self.fields!r}")
        try:
            self.words()
        except (KeyError, IndexError, ValueError, TypeError) as error:
            raise ArgumentError(
                f"template {self.template!r} does not fit the fields {self.fields!r}: {error}"
            ) from None

    @property
    def field(self) -> dict[str, object]:
        """The fields as a dict.

        >>> Refusal("phase", "not in the {phase!r} phase", (("phase", "draw"),)).field
        {'phase': 'draw'}
        """
        return dict(self.fields)

    @property
    def message(self) -> str:
        """The message, as :class:`IllegalActionError` says it."""
        return self.words()

    def words(
        self,
        *,
        melds_from: int = 0,
        actions: dict[str, str] | None = None,
        cards: str | None = None,
    ) -> str:
        """The message with melds numbered from ``melds_from`` (0 as the action notation
        counts them, 1 as a screen that says "Meld 1" does), each action's notation
        shown as ``actions`` names it (a button's name) or quoted when it does not, and
        each card field as ``cards`` says (``"a card"``, for a reason that holds for every
        card) or as "the 5♥".

        >>> refusal = Refusal("discard", "{card} cannot be discarded now", (("card", "5♥"),))
        >>> refusal.words(), refusal.words(cards="a card")
        ('the 5♥ cannot be discarded now', 'a card cannot be discarded now')
        """
        if not isinstance(melds_from, int) or isinstance(melds_from, bool):
            raise ArgumentTypeError(f"melds_from must be an integer, got {melds_from!r}")
        values = {}
        for name, value in self.fields:
            if _kind(name, "meld"):
                numbers = value if isinstance(value, tuple) else (value,)
                value = ", ".join(str(number + melds_from) for number in numbers)
            elif _kind(name, "action"):
                value = (actions or {}).get(value, repr(value))
            elif _kind(name, "card"):
                value = f"the {value}" if cards is None else cards
            elif isinstance(value, Refusal):  # a refusal given as the reason of another
                value = value.words(melds_from=melds_from, actions=actions, cards=cards)
            values[name] = value
        return self.template.format(**values)

    def __str__(self) -> str:
        return self.message


def _kind(name: str, kind: str) -> bool:
    """Whether a refusal's field ``name`` is of ``kind`` ("meld", "action", "card")."""
    return name == kind or name.startswith(kind + "_")


class IllegalActionError(RummyError):
    """An action the rules do not allow in the current game state; its :attr:`refusal`
    says which rule, with the particulars of the case.

    >>> error = IllegalActionError.because("no such meld", "there is no meld {meld}", meld=2)
    >>> str(error), error.refusal.rule, error.refusal.words(melds_from=1)
    ('there is no meld 2', 'no such meld', 'there is no meld 3')
    >>> IllegalActionError("a plain message").refusal.rule
    'illegal action'
    """

    #: The rule of a refusal raised with a message only (no particulars).
    rule = "illegal action"

    def __init__(self, message: str, *, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        if refusal is None:
            # A message with no particulars: the template is the message itself.
            refusal = Refusal(self.rule, "{message}", (("message", message),))
        self.refusal = refusal

    @classmethod
    def because(cls, rule: str, template: str, **fields: object) -> IllegalActionError:
        """The error whose refusal is ``rule`` with ``template`` and ``fields``."""
        return cls.of(Refusal(rule, template, tuple(fields.items())))

    @classmethod
    def of(cls, refusal: Refusal) -> IllegalActionError:
        """The error that says ``refusal``."""
        return cls(refusal.message, refusal=refusal)


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


class ActionParseError(IllegalActionError):
    """An action's notation that cannot be read, or an action built from fields out of
    range (a lay-off's end that is neither "low" nor "high"); its refusal's rule is
    ``"notation"``."""

    rule = "notation"


class ActionTypeError(ActionParseError, TypeError):
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
