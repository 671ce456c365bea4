"""Actions: the moves of Liverpool Rummy as small frozen values with a one-line notation.

Every action prints in the notation :func:`parse_action` reads, so ``parse_action(str(a))
== a`` for every action ``a``. Cards are written by code (``"QS"``, ``"10H"``, ``"JK"``)
and stand for *a* card of that rank and suit: the game picks the physical copy from the
hand of the player who acts (see :meth:`rummykit.engine.game.GameState.apply`). Melds on the
table are numbered 0, 1, 2, ... in the order they were laid, across all players.

=================================  ==========================================================
notation                           meaning
=================================  ==========================================================
``draw stock``                     draw the top card of the stock (declines the discard, so a
                                   buy window may open first)
``take discard``                   take the top card of the discard pile
``buy``                            ask to buy the declined discard (buy window)
``pass``                           do not buy / do not call (also ``decline buy``)
``call``                           call "Liverpool" or "rummy" on the last discard
``lay down 8S 8H 8D | JH JH JS``   lay down the contract, melds separated by ``|``
``lay off 9H -> 2``                lay the 9♥ off onto table meld 2
``lay off JK -> 2 low``            a joker onto either end of a run: ``low`` or ``high``
``swap 7H -> 3``                   put the 7♥ in meld 3 and take the joker standing for it
``discard QS``                     discard the Q♠ and end the turn
``end turn``                       end the turn without a discard (last round, no-discard rule)
``invalid lay down 8S 8H | ...``   a failed lay-down, taking the rule set's penalty
=================================  ==========================================================

>>> parse_action("lay down 8S 8H 8D | JH JH JS")
parse_action('lay down 8S 8H 8D | JH JH JS')
>>> str(parse_action("lay off 9♥ -> 2")), str(parse_action("decline buy"))
('lay off 9H -> 2', 'pass')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rummykit.engine.cards import Card, Rank, Suit
from rummykit.errors import ActionParseError, ActionTypeError, CardParseError

__all__ = [
    "Action",
    "Buy",
    "Call",
    "Discard",
    "DrawStock",
    "EndTurn",
    "InvalidLayDown",
    "LayDown",
    "LayOff",
    "Pass",
    "Swap",
    "TakeDiscard",
    "parse_action",
]


def face(card: Card, action: str = "an action") -> Card:
    """The card with deck 0 (joker number 0): what an action's card code stands for.

    Anything but a :class:`~rummykit.engine.cards.Card` raises
    :class:`~rummykit.errors.ActionTypeError` naming ``action``.
    """
    if not isinstance(card, Card):
        raise ActionTypeError(
            f"{action}'s card must be a Card, got {card!r} (read a code with Card.parse, "
            f"or write the whole action for parse_action)"
        )
    if card.deck == 0:
        return card
    return _FACES[card.index]


def _meld_number(number: object, action: str) -> int:
    """``number`` checked as a table meld's number (an int >= 0, not a bool)."""
    if not isinstance(number, int) or isinstance(number, bool):
        raise ActionTypeError(f"{action}'s meld number must be an integer, got {number!r}")
    if number < 0:
        raise ActionParseError(
            f"{action}'s meld number must be 0 or more (melds are numbered from 0), got {number}"
        )
    return number


# Every face by card index (actions are made often: building a Card checks its fields).
_FACES = {card.index: card for card in [Card(r, s) for s in Suit for r in Rank] + [Card.joker(0)]}


class Action:
    """Base class of every action; ``str(action)`` is its notation."""

    __slots__ = ()
    kind: str = "action"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, repr=False)
class DrawStock(Action):
    """Draw the top card of the stock (declining the top discard)."""

    kind = "draw stock"

    def __str__(self) -> str:
        return "draw stock"


@dataclass(frozen=True, repr=False)
class TakeDiscard(Action):
    """Take the top card of the discard pile."""

    kind = "take discard"

    def __str__(self) -> str:
        return "take discard"


@dataclass(frozen=True, repr=False)
class Buy(Action):
    """Ask to buy the discard the player about to draw declined."""

    kind = "buy"

    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True, repr=False)
class Pass(Action):
    """Decline to buy, or decline to call a discard."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, repr=False)
class Call(Action):
    """Call "Liverpool" (claim) or "rummy" (penalise) on a discard that could be laid off."""

    kind = "call"

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, repr=False)
class EndTurn(Action):
    """End the turn without discarding (only when the rules forbid the last discard)."""

    kind = "end turn"

    def __str__(self) -> str:
        return "end turn"


def _groups(melds, action: str) -> tuple[tuple[Card, ...], ...]:
    def listed(value: object) -> bool:
        return isinstance(value, Iterable) and not isinstance(value, str | bytes | Card)

    if not listed(melds):
        raise ActionTypeError(
            f"{action}'s melds must be a sequence of card sequences, got {melds!r}"
        )
    groups = tuple(melds)
    for group in groups:
        if not listed(group):
            raise ActionTypeError(
                f"each meld of {action} must be a sequence of Cards, got {group!r}"
            )
    return tuple(tuple(face(card, action) for card in group) for group in groups)


def _format_groups(melds: tuple[tuple[Card, ...], ...]) -> str:
    return " | ".join(" ".join(card.code for card in group) for group in melds)


@dataclass(frozen=True, repr=False)
class LayDown(Action):
    """Lay down the contract: ``melds`` is one tuple of cards per meld."""

    melds: tuple[tuple[Card, ...], ...]
    """The cards of each meld, by code (deck 0)."""
    kind = "lay down"

    def __post_init__(self) -> None:
        object.__setattr__(self, "melds", _groups(self.melds, "a lay-down"))

    def __str__(self) -> str:
        return f"lay down {_format_groups(self.melds)}"


@dataclass(frozen=True, repr=False)
class InvalidLayDown(Action):
    """A lay-down that breaks a rule, played deliberately to take the rule set's penalty.

    Only legal under a rule set with ``invalid_lay_down_penalty``; never listed by
    ``legal_actions()``.
    """

    melds: tuple[tuple[Card, ...], ...]
    """The cards of each attempted meld, by code (deck 0)."""
    kind = "invalid lay down"

    def __post_init__(self) -> None:
        object.__setattr__(self, "melds", _groups(self.melds, "an invalid lay-down"))

    def __str__(self) -> str:
        return f"invalid lay down {_format_groups(self.melds)}"


@dataclass(frozen=True, repr=False)
class LayOff(Action):
    """Lay ``card`` off onto table meld number ``meld``; ``end`` picks a run's end for a joker."""

    card: Card
    """The card laid off, by code."""
    meld: int
    """The table meld's number (0 = first meld laid this round)."""
    end: str | None = None
    """``"low"`` or ``"high"`` when the card could go at either end of a run, else None."""
    kind = "lay off"

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", face(self.card, "a lay-off"))
        _meld_number(self.meld, "a lay-off")
        if self.end not in (None, "low", "high"):
            raise ActionParseError(f"a lay-off's end is 'low' or 'high', got {self.end!r}")

    def __str__(self) -> str:
        end = f" {self.end}" if self.end else ""
        return f"lay off {self.card.code} -> {self.meld}{end}"


@dataclass(frozen=True, repr=False)
class Swap(Action):
    """Play ``card`` into table meld ``meld`` in place of the joker that stands for it."""

    card: Card
    """The natural card played, by code."""
    meld: int
    """The table meld's number."""
    kind = "swap"

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", face(self.card, "a swap"))
        _meld_number(self.meld, "a swap")

    def __str__(self) -> str:
        return f"swap {self.card.code} -> {self.meld}"


@dataclass(frozen=True, repr=False)
class Discard(Action):
    """Discard ``card``, ending the turn."""

    card: Card
    """The card discarded, by code."""
    kind = "discard"

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", face(self.card, "a discard"))

    def __str__(self) -> str:
        return f"discard {self.card.code}"


_WORDS = {
    "draw stock": DrawStock(),
    "draw": DrawStock(),
    "take discard": TakeDiscard(),
    "take": TakeDiscard(),
    "buy": Buy(),
    "pass": Pass(),
    "decline buy": Pass(),
    "decline": Pass(),
    "no": Pass(),
    "call": Call(),
    "liverpool": Call(),
    "call liverpool": Call(),
    "rummy": Call(),
    "call rummy": Call(),
    "end turn": EndTurn(),
}
_TARGET = re.compile(r"^(\S+)\s*->\s*(\d+)(?:\s+(low|high))?$", re.IGNORECASE)
#: Most digits in a meld number: more than any table holds, and few enough that reading
#: the number costs nothing (Python refuses to read ints of over 4,300 digits).
MAX_MELD_DIGITS = 6


def _short(text: str) -> str:
    """``text`` quoted for an error message, cut short when it is long."""
    return repr(text) if len(text) <= 80 else f"{text[:60]!r}... ({len(text)} characters)"


def _card(code: str, text: str) -> Card:
    try:
        return Card.parse(code)
    except CardParseError as error:
        raise ActionParseError(f"cannot read action {_short(text)}: {error}") from None


def _parse_groups(body: str, text: str) -> tuple[tuple[Card, ...], ...]:
    groups = [part.split() for part in body.split("|")]
    if not body.strip() or any(not group for group in groups):
        raise ActionParseError(
            f"cannot read action {_short(text)}: write each meld's cards by code, melds separated "
            f"by '|', e.g. 'lay down 8S 8H 8D | JH JH JS'"
        )
    return tuple(tuple(_card(code, text) for code in group) for group in groups)


def parse_action(text: str | Action) -> Action:
    """Read an action from its notation (see the module docstring); actions pass through.

    Words are case-insensitive and spaces are free. A malformed text raises
    :class:`~rummykit.errors.ActionParseError` (an
    :class:`~rummykit.errors.IllegalActionError` whose refusal's rule is ``"notation"``).

    >>> parse_action("swap 7h -> 3")
    parse_action('swap 7H -> 3')
    >>> parse_action("lay off JK->2 low").end
    'low'
    >>> parse_action("discard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.errors.ActionParseError: cannot read action 'discard': ...
    """
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise ActionParseError(f"an action is a string or an Action, got {text!r}")
    words = " ".join(text.split())
    lower = words.lower()
    if lower in _WORDS:
        return _WORDS[lower]
    for prefix, cls in (("invalid lay down ", InvalidLayDown), ("lay down ", LayDown)):
        if lower.startswith(prefix):
            return cls(_parse_groups(words[len(prefix) :], text))
    for prefix, cls in (("lay off ", LayOff), ("swap ", Swap)):
        if lower.startswith(prefix):
            match = _TARGET.match(words[len(prefix) :].strip())
            if not match or (cls is Swap and match.group(3)):
                break
            card = _card(match.group(1), text)
            digits = match.group(2)
            if len(digits) > MAX_MELD_DIGITS:
                raise ActionParseError(
                    f"cannot read action {_short(text)}: a meld number has at most "
                    f"{MAX_MELD_DIGITS} digits, this one has {len(digits)}"
                )
            if cls is Swap:
                return Swap(card, int(digits))
            return LayOff(card, int(digits), match.group(3) and match.group(3).lower())
    if lower.startswith("discard "):
        parts = words.split()
        if len(parts) == 2:
            return Discard(_card(parts[1], text))
    raise ActionParseError(
        f"cannot read action {_short(text)}: expected e.g. 'draw stock', 'take discard', 'buy', "
        f"'pass', 'call', 'lay down 8S 8H 8D | JH JH JS', 'lay off 9H -> 2', "
        f"'swap 7H -> 3', 'discard QS' or 'end turn'"
    )
