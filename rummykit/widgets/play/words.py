"""What the PlayWidget says: prompts, counts, and the engine's reasons in the words of its
buttons."""

from __future__ import annotations

from rummykit.errors import Refusal

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


# What the widget says for an action of the wrong phase (the engine's refusal of rule
# "phase" names the phase and the actions' notation; a reader of the widget sees buttons).
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


#: The button that plays each action, by the action's notation.
BUTTON_NAMES = {
    "draw stock": "Draw from stock",
    "take discard": "Take discard",
    "lay down": "Lay down",
    "end turn": "End turn",
    "buy": "Buy",
    "pass": "Pass",
    "call": "Call",
}


def meld_number(number: int) -> int:
    """The number the widget shows for the engine's meld ``number``: melds are counted
    from 1 on screen (the engine and the action notation count from 0).

    >>> meld_number(0)
    1
    """
    return number + 1


def refusal_words(refusal: Refusal, *, any_card: bool = False) -> str:
    """The engine's refusal as the PlayWidget says it: plain words for the phase, the
    buttons' names for the actions, melds counted from 1 as the widget shows them, and
    "a card" for each card when ``any_card`` (a reason that holds for every card).

    >>> from rummykit import Game
    >>> state = Game(players=3, seed=5).new_state()
    >>> refusal_words(state.why_not("discard 5H"))
    'first draw a card: press Draw from stock or Take discard'
    >>> state.apply("draw stock")
    >>> while state.phase == "buy":  # the others pass on the discard
    ...     state.apply("pass")
    >>> refusal_words(state.why_not("lay off 5H -> 0"))
    'you must lay down your contract before laying off cards onto melds'
    >>> from rummykit.errors import Refusal
    >>> refusal_words(Refusal("does not fit", "{card} does not fit meld {meld}",
    ...                       (("card", "5♥"), ("meld", 0))))
    'the 5♥ does not fit meld 1'
    >>> refusal_words(Refusal("no such meld", "there is no meld {meld}: no meld is on "
    ...                       "the table yet", (("meld", 0),)))
    'there is no meld on the table yet'
    >>> refusal_words(Refusal("no final discard", "a turn ends with a discard; {action} is "
    ...                       "only for the last round", (("action", "end turn"),)))
    'a turn ends with a discard; End turn is only for the last round'
    """
    fields = refusal.field
    if refusal.rule == "phase" and fields.get("phase") in _PHASE_PLAIN:
        return _PHASE_PLAIN[fields["phase"]]
    if refusal.rule == "no such meld" and "meld_last" not in fields:
        return "there is no meld on the table yet"
    return refusal.words(
        melds_from=meld_number(0), actions=BUTTON_NAMES, cards="a card" if any_card else None
    )
