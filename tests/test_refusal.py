"""The engine's structured refusal (issue 51, item 2): ``GameState.why_not`` and every
``IllegalActionError`` carry a :class:`~rummykit.errors.Refusal` naming the rule, with the
particulars as fields, so that the PlayWidget says it in its own words without reading
the message."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from rummykit import Game, Refusal
from rummykit.engine.actions import Discard, LayOff, Swap
from rummykit.engine.legal import REFUSAL_RULES
from rummykit.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from rummykit.widgets.play.words import BUTTON_NAMES, refusal_words

PACKAGE = Path(__file__).parent.parent / "rummykit"


def _probes(state) -> list:
    """Actions worth trying in ``state``: every pile move, each card of the hand discarded,
    laid off and swapped into every meld number on the table and one past it."""
    hand = state.hand(state.to_act)
    texts = ["draw stock", "take discard", "buy", "pass", "call", "end turn", "lay down", "fly"]
    actions: list = list(texts)
    for card in hand[:4]:
        actions.append(Discard(card))
        for number in range(len(state.melds) + 1):
            actions.append(LayOff(card, number))
            if not card.is_joker:
                actions.append(Swap(card, number))
    return actions


def _refusals(preset: str, seed: int, steps: int = 80):
    """Each (state, action, error) of a seeded random game where ``apply`` refused a probe."""
    state = Game(preset, players=3, seed=seed).new_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            return
        for action in _probes(state):
            trial = state.clone()
            try:
                trial.apply(action)
            except IllegalActionError as error:
                yield state, action, error
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("preset", ["standard", "family", "wikipedia"])
def test_every_refusal_names_a_known_rule_and_says_the_message(preset):
    seen = set()
    for state, action, error in _refusals(preset, seed=7):
        refusal = error.refusal
        assert refusal.rule in REFUSAL_RULES, (refusal, action)
        assert refusal.rule != "illegal action", (refusal, action)  # each names its rule
        assert str(refusal) == refusal.message == str(error)
        assert state.why_not(action) == refusal
        fields = refusal.field
        numbers = {name for name in fields if name == "meld" or name.startswith("meld_")}
        shifted = refusal.words(melds_from=1)
        if not numbers:
            assert shifted == refusal.message  # nothing else is renumbered
        if isinstance(action, LayOff | Swap) and fields.get("meld") == action.meld:
            # The meld the action named, counted from 1 as the widget counts.
            assert f"meld {action.meld + 1}" in shifted, shifted
            assert f"meld {action.meld}" in refusal.message
        seen.add(refusal.rule)
    # The probes reach the rules a learner meets first.
    assert {"phase", "notation", "no such meld", "lay down first"} <= seen, seen


def test_a_refusal_renumbers_melds_and_names_buttons_through_nested_reasons():
    inner = Refusal(
        "joker swap", "no joker in meld {meld} stands for {card}", (("meld", 2), ("card", "5♥"))
    )
    outer = Refusal(
        "joker swap",
        "cannot swap {card} into meld {meld}: {reason}; try {action}",
        (("card", "5♥"), ("meld", 2), ("reason", inner), ("action", "end turn")),
    )
    assert outer.message == (
        "cannot swap the 5♥ into meld 2: no joker in meld 2 stands for the 5♥; try 'end turn'"
    )
    assert outer.words(melds_from=1, actions=BUTTON_NAMES, cards="a card") == (
        "cannot swap a card into meld 3: no joker in meld 3 stands for a card; try End turn"
    )
    several = Refusal(
        "swapped joker must be played", "it fits meld {meld_fits}", (("meld_fits", (0, 3)),)
    )
    assert several.words(melds_from=1) == "it fits meld 1, 4"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("", "text"), ArgumentTypeError),
        ((None, "text"), ArgumentTypeError),
        (("rule", None), ArgumentTypeError),
        (("rule", "{missing}"), ArgumentError),
        (("rule", "{0}"), ArgumentError),
        (("rule", "text", [("meld", 1)]), ArgumentTypeError),
        (("rule", "text", (("meld",),)), ArgumentTypeError),
        (("rule", "{meld}", (("meld", "three"),)), ArgumentError),
    ],
)
def test_a_malformed_refusal_is_refused(args, error):
    with pytest.raises(error):
        Refusal(*args)


def test_a_refusal_checks_how_it_is_asked_for_words():
    refusal = Refusal("no such meld", "there is no meld {meld}", (("meld", 0),))
    with pytest.raises(ArgumentTypeError, match="melds_from"):
        refusal.words(melds_from="1")


def test_the_widget_says_the_phase_in_its_own_words():
    state = Game(players=3, seed=5).new_state()
    refusal = state.why_not("discard 5H")
    assert refusal.rule == "phase" and refusal.field["phase"] == "draw"
    assert refusal_words(refusal) == "first draw a card: press Draw from stock or Take discard"
    assert "'draw stock'" in refusal.message  # the engine says the notation


def test_every_rule_the_engine_names_is_listed():
    """The rule of each refusal written in the engine (the first argument of
    ``IllegalActionError.because`` and of ``Refusal``) is one of REFUSAL_RULES, and each
    listed rule is written somewhere (or is a default of errors.py)."""
    written = set()
    for path in (PACKAGE / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            first = node.args[0]
            if name in ("because", "Refusal") and isinstance(first, ast.Constant):
                written.add(first.value)
    assert written <= set(REFUSAL_RULES), written - set(REFUSAL_RULES)
    defaults = {"notation", "illegal action"}  # ActionParseError's and IllegalActionError's
    assert set(REFUSAL_RULES) == written | defaults, set(REFUSAL_RULES) - written - defaults


def test_no_widget_reads_the_engines_message_text():
    """The PlayWidget shows the structured refusal: no regular expression in its package."""
    for path in (PACKAGE / "widgets" / "play").glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "re" not in imported, path
