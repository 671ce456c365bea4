"""What the PlayWidget says: prompts, counts, and the engine's reasons in the words of its
buttons."""

from __future__ import annotations

import re

#: What the human seat is asked to do in each phase.
PROMPTS = {
    "draw": "Your turn: draw from the stock or take the discard.",
    "buy": "buy it (it comes with penalty cards) or pass?",
    "play": "Lay down, lay off or swap a joker if you like, then discard.",
    "call": "The last discard could have been laid off: call, or pass?",
    "call discard": "You claimed the discard: now discard a card.",
}


#: Said when the widget passes for the human on their own discard's buy offer.
OWN_DISCARD_NOTE = (
    "Your own discard was not offered to you to buy back: the rule books let only the "
    "other players buy it (you passed)."
)


#: The Meld dropdown's one option while the table has no meld.
NO_MELD = -1


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def count_words(number: int, what: str = "card") -> str:
    return f"{number} {what}{'s' if number != 1 else ''}"


# What the widget says for an action of the wrong phase: the engine names the phase and
# the actions' notation; a reader of the widget sees the buttons.
_PHASE_PLAIN = {
    "draw": "first draw a card: press Draw from stock or Take discard",
    "buy": "a discard is on offer: press Buy or Pass first",
    "play": (
        "you have drawn this turn: lay down, lay off or swap a joker if you like, then "
        "press Discard"
    ),
    "call": "the last discard could have been laid off: press Call or Pass first",
    "call discard": "you claimed the discard: select a card and press Discard",
    "over": "the game is over",
}


_WRONG_PHASE = re.compile(r"^\S+ cannot [a-z ]+ in the '([a-z ]+)' phase: .*$", re.DOTALL)


# The actions' notation, as the engine quotes it, and the button that plays each.
_BUTTON_NAMES = {
    "'draw stock'": "Draw from stock",
    "'take discard'": "Take discard",
    "'lay down'": "Lay down",
    "'end turn'": "End turn",
    "'buy'": "Buy",
    "'pass'": "Pass",
    "'call'": "Call",
}


_NO_MELD_YET = re.compile(r"[Tt]here is no meld -?\d+: no meld is on the table yet")


_NUMBERED = re.compile(r"numbered 0 to (\d+)")


# A table meld's number, not a card ("meld 3♠ 4♠ ...") nor a lay-down's own meld, which
# check_lay_down counts from 1 as the widget's "Meld 1: ..." does ("meld 1 (8♠ 8♥) is not").
_MELD_NUMBERS = re.compile(r"\b(melds?) (\d+(?:, \d+)*)(?![\d♠♥♦♣])(?! \([^()]*\) is not a meld)")


def meld_number(number: int) -> int:
    """The number the widget shows for the engine's meld ``number``: melds are counted
    from 1 on screen (the engine and the action notation count from 0).

    >>> meld_number(0)
    1
    """
    return number + 1


def plain_words(reason: str) -> str:
    """An engine message as the PlayWidget shows it: the button names for the actions,
    plain words for the phase, meld numbers counted from 1 as the widget shows them.

    >>> plain_words("Ann cannot discard in the 'draw' phase: first draw from the stock "
    ...             "('draw stock') or take the discard ('take discard')")
    'first draw a card: press Draw from stock or Take discard'
    >>> plain_words("There is no meld 0: no meld is on the table yet")
    'there is no meld on the table yet'
    >>> plain_words("cannot lay off the 5♥ onto meld 0: the run is full")
    'cannot lay off the 5♥ onto meld 1: the run is full'
    >>> plain_words("cannot lay down: meld 1 (8♠ 8♥) is not a meld: too few cards")
    'cannot lay down: meld 1 (8♠ 8♥) is not a meld: too few cards'
    >>> plain_words("the meld 3♠ 4♠ 5♠ 6♠ has no joker to take")
    'the meld 3♠ 4♠ 5♠ 6♠ has no joker to take'
    >>> plain_words("a turn ends with a discard; 'end turn' is only for the last round")
    'a turn ends with a discard; End turn is only for the last round'
    """
    wrong = _WRONG_PHASE.match(reason)
    if wrong and wrong.group(1) in _PHASE_PLAIN:
        return _PHASE_PLAIN[wrong.group(1)]
    text = _NO_MELD_YET.sub("there is no meld on the table yet", reason)
    text = _NUMBERED.sub(lambda m: f"numbered 1 to {meld_number(int(m.group(1)))}", text)
    text = _MELD_NUMBERS.sub(
        lambda m: (
            f"{m.group(1)} " + ", ".join(str(meld_number(int(n))) for n in m.group(2).split(", "))
        ),
        text,
    )
    for notation, name in _BUTTON_NAMES.items():
        text = text.replace(notation, name)
    return text
