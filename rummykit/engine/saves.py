"""Saving and loading games: the save format's version and bounds, and :func:`load`,
which replays a save and checks every action and the result.

:meth:`GameState.save <rummykit.engine.game.GameState.save>` writes a save; :func:`load` reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from rummykit.engine.cards import Card
from rummykit.engine.checks import instance
from rummykit.engine.game import MAX_NAME_LENGTH, Game, GameState
from rummykit.engine.rules import RuleSet
from rummykit.errors import (
    CardParseError,
    IllegalActionError,
    RuleSetError,
    RummyError,
    SaveFileError,
)

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_SAVE_BYTES",
    "MAX_SAVE_DEPTH",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "dumps",
    "load",
]

SAVE_FORMAT = "rummykit.game"  # the save format's name, not a module path: it never changes
SAVE_VERSION = 1
#: The largest save :func:`load` reads, in bytes of UTF-8, and the deepest nesting of its
#: JSON (a save nests 4 deep). A game's length has no bound of the rules: with neither
#: ``max_reshuffles`` nor ``turn_limit`` (:class:`~rummykit.engine.game.Game`) random players can
#: pass the stock round for ever, so the cap cannot follow from the RuleSet. Instead
#: :meth:`~rummykit.engine.game.GameState.save` refuses to write a save over the cap (a
#: :class:`~rummykit.errors.SaveFileError` saying so), so every save it writes loads. A whole
#: game of 8 RandomBots with ``max_reshuffles=3`` is about 50 kB (2 players: about 100 kB),
#: a tenth of the cap or less; a game past the cap has about 30,000 actions.
MAX_SAVE_BYTES = 1_000_000
MAX_SAVE_DEPTH = 8


def dumps(state: GameState) -> str:
    """``state`` as the JSON text of a save (what :meth:`GameState.save
    <rummykit.engine.game.GameState.save>` returns): configuration, set-up, every action, and
    the resulting state.

    :func:`load` replays the actions and checks they reproduce the state. A save over
    :data:`MAX_SAVE_BYTES` (about 30,000 actions), which :func:`load` would refuse, is not
    written: a :class:`~rummykit.errors.SaveFileError` says so.
    """
    instance("state", state, GameState, "a GameState")
    game = state.game
    text = json.dumps(
        {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": game.rules.to_json(),
            "players": game.players,
            "seed": game.seed,
            "names": list(game.names),
            "turn_limit": game.turn_limit,
            "max_reshuffles": game.max_reshuffles,
            "setup": state.setup,
            "actions": [[seat, str(action)] for seat, action in state.history],
            "state": state.snapshot(),
        },
        indent=1,
    )
    # load() reads at most MAX_SAVE_BYTES: never write a save it would refuse.
    size = len(text) if len(text) * 4 <= MAX_SAVE_BYTES else len(text.encode("utf-8"))
    if size > MAX_SAVE_BYTES:
        raise SaveFileError(
            f"this game's save would be {size:,} bytes, more than the {MAX_SAVE_BYTES:,} "
            f"a save may be ({len(state.history):,} actions): play with max_reshuffles or "
            "turn_limit (Game) to bound a round, or keep the game in memory"
        )
    return text


def load(text: str) -> GameState:
    """Rebuild a game saved by :meth:`~rummykit.engine.game.GameState.save`, replaying and checking every action.

    Raises :class:`~rummykit.errors.SaveFileError` for anything that is not a valid save
    of a known version: bad JSON, wrong types, unreadable card codes or actions, an
    illegal action, or a replay that does not reproduce the recorded state; the message
    names the field (and the seat or action) where the problem is. The work is bounded
    before it starts: a text of over :data:`MAX_SAVE_BYTES` bytes or nested deeper than
    :data:`MAX_SAVE_DEPTH` is refused unread, and rules beyond the bounds of
    :mod:`rummykit.engine.rules` (such as more than 8 decks or 32 jokers) before a card is made.

    >>> from rummykit.engine.game import Game
    >>> state = Game(players=3, seed=5).new_state()
    >>> state.apply("draw stock")
    >>> load(state.save()).snapshot() == state.snapshot()
    True
    >>> load('{"format": "rummykit.game", "version": 99}')
    Traceback (most recent call last):
    ...
    rummykit.errors.SaveFileError: unknown save version 99 (this rummykit reads version 1)
    """
    text = _check_save_size(text)
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except SaveFileError:
        raise
    except (TypeError, ValueError, RecursionError) as error:
        raise SaveFileError(f"not a rummykit save file: invalid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"not a rummykit save file (format should be {SAVE_FORMAT!r})")
    if type(data.get("version")) is not int or data["version"] != SAVE_VERSION:
        raise SaveFileError(
            f"unknown save version {data.get('version')!r} "
            f"(this rummykit reads version {SAVE_VERSION})"
        )
    expected = {
        "format",
        "version",
        "rules",
        "players",
        "seed",
        "names",
        "turn_limit",
        "max_reshuffles",
        "setup",
        "actions",
        "state",
    }
    if set(data) != expected:
        # In a reader's words (issue 50 item 10): what is missing, what does not belong.
        missing = ", ".join(repr(key) for key in sorted(expected - set(data)))
        extra = ", ".join(repr(key) for key in sorted(set(data) - expected))
        parts = [f"it has no {missing}"] if missing else []
        parts += [f"it holds {extra}, which no save holds"] if extra else []
        raise SaveFileError(f"this is not a whole rummykit save: {'; '.join(parts)}")
    try:
        rules = RuleSet.from_json(data["rules"])
    except RuleSetError as error:
        raise SaveFileError(f"bad 'rules' in the save file: {error}") from None
    players, seed, names, limit = data["players"], data["seed"], data["names"], data["turn_limit"]
    for name, value in (("players", players), ("seed", seed)):
        if type(value) is not int:
            raise SaveFileError(f"{name!r} must be an integer, got {value!r}")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SaveFileError("'names' must be a list of strings")
    for seat, name in enumerate(names):
        if not name or not name.isprintable() or len(name) > MAX_NAME_LENGTH:
            raise SaveFileError(
                f"'names', seat {seat}: a name is 1 to {MAX_NAME_LENGTH} printable characters "
                f"(no control characters), got {name[: MAX_NAME_LENGTH + 1]!r}"
            )
    reshuffles = data["max_reshuffles"]
    if limit is not None and type(limit) is not int:
        raise SaveFileError("'turn_limit' must be an integer or null")
    if reshuffles is not None and type(reshuffles) is not int:
        raise SaveFileError("'max_reshuffles' must be an integer or null")
    setup = data["setup"]
    keys = {"dealer", "round", "hands", "upcard", "stock", "cut", "scores"}
    if not isinstance(setup, dict) or set(setup) != keys:
        raise SaveFileError(f"'setup' must be an object with the keys {sorted(keys)}")
    for name in ("dealer", "round", "cut"):
        if setup[name] is not None and type(setup[name]) is not int:
            raise SaveFileError(f"setup {name!r} must be an integer or null")
    if isinstance(setup["hands"], list):
        for seat, hand in enumerate(setup["hands"]):
            _check_codes(hand, f"setup 'hands', seat {seat}")
    else:
        _check_codes(setup["hands"], "setup 'hands'")
    _check_codes(setup["stock"], "setup 'stock'")
    if setup["upcard"] is not None and not isinstance(setup["upcard"], str):
        raise SaveFileError("setup 'upcard' must be a card code or null")
    _check_codes(None if setup["upcard"] is None else [setup["upcard"]], "setup 'upcard'")
    if setup["scores"] is not None and (
        not isinstance(setup["scores"], list) or not all(type(s) is int for s in setup["scores"])
    ):
        raise SaveFileError("setup 'scores' must be a list of integers or null")
    try:
        game = Game(
            rules, players, seed=seed, names=names, turn_limit=limit, max_reshuffles=reshuffles
        )
        state = game.new_state(
            dealer=setup["dealer"],
            round=setup["round"],
            hands=setup["hands"],
            upcard=setup["upcard"],
            stock=setup["stock"],
            cut=setup["cut"],
            scores=setup["scores"],
        )
    except RummyError as error:
        raise SaveFileError(f"the save file's set-up cannot be dealt: {error}") from None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise SaveFileError("'actions' must be a list of [seat, action] pairs")
    for number, entry in enumerate(actions):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or type(entry[0]) is not int
            or not isinstance(entry[1], str)
        ):
            raise SaveFileError(f"action {number} must be a [seat, action] pair, got {entry!r}")
        seat, text = entry
        if seat != state.to_act:
            raise SaveFileError(
                f"action {number} ({text!r}) is recorded for seat {seat}, but seat "
                f"{state.to_act} was to act"
            )
        try:
            state.apply(text)
        except IllegalActionError as error:
            raise SaveFileError(
                f"action {number} ({text!r}) is illegal on replay: {error}"
            ) from None
    replayed = state.snapshot()
    # Compared as JSON text, so that true is not 1 and 1.0 is not 1 (Python's == says so).
    if _canonical(data["state"]) != _canonical(replayed):
        raise SaveFileError(
            f"the replayed actions do not reproduce the recorded state: "
            f"{_state_difference(data['state'], replayed, state.names)} (the file was changed)"
        )
    return state


def _canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    """An object of the save's JSON, refused when a key is given twice (json keeps the last)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise SaveFileError(f"the save file gives the key {key!r} twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> None:
    raise SaveFileError(f"the save file holds {name}, which is not a number of JSON")


def _check_save_size(text: object) -> str:
    """Refuse a save too big or nested too deep to read, before parsing it; the text."""
    if isinstance(text, bytes | bytearray):
        size = len(text)
    elif isinstance(text, str):
        # A character is 1 to 4 bytes of UTF-8: count exactly only near the limit.
        size = (
            len(text) if len(text) * 4 <= MAX_SAVE_BYTES else len(text.encode("utf-8", "replace"))
        )
    else:
        raise SaveFileError(f"a save file is JSON text, got {type(text).__name__}")
    if size > MAX_SAVE_BYTES:
        raise SaveFileError(
            f"the save file is {size:,} bytes, more than the {MAX_SAVE_BYTES:,} a save may be"
        )
    if isinstance(text, bytes | bytearray):
        # Decoded here, and the text (not the bytes) parsed: json.loads would read bytes
        # of UTF-16 or UTF-32 too, past the nesting guard below.
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise SaveFileError(
                f"a save file is UTF-8 text: byte {error.start} is not UTF-8"
            ) from None
    # The deepest nesting of brackets outside strings (json.loads would recurse on them).
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_SAVE_DEPTH:
            raise SaveFileError(
                f"the save file nests more than {MAX_SAVE_DEPTH} levels deep: not a rummykit save"
            )
    return text


# A JSON string; the closing quote is optional so that an unclosed string matches to
# the end instead of failing and being retried from every later quote (quadratic).
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?')
_BRACKETS = re.compile(r"[\[\]{}]")


def _state_difference(recorded: object, replayed: dict, names: Sequence[str]) -> str:
    """Where the recorded ``state`` of a save differs from the replay: field, seat, meld."""
    if not isinstance(recorded, dict) or set(recorded) != set(replayed):
        return f"'state' must be an object with the keys {sorted(replayed)}"
    for key, value in replayed.items():
        saved = recorded[key]
        if _canonical(saved) == _canonical(value):
            continue
        if key in _PER_SEAT and isinstance(saved, list) and len(saved) == len(value):
            seat = next(
                s
                for s, (a, b) in enumerate(zip(saved, value, strict=True))
                if _canonical(a) != _canonical(b)
            )
            return f"'state' {key!r} differs for seat {seat} ({names[seat]})"
        if key in ("melds", "owners") and isinstance(saved, list) and len(saved) == len(value):
            meld = next(
                m
                for m, (a, b) in enumerate(zip(saved, value, strict=True))
                if _canonical(a) != _canonical(b)
            )
            return f"'state' {key!r} differs at meld {meld}"
        return f"'state' {key!r} differs"
    return "'state' differs"  # unreachable: the snapshots differ in some key


#: Snapshot fields that hold one entry per seat.
_PER_SEAT = ("scores", "hands", "laid_down", "buys", "contracts")


def _check_codes(value: object, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        raise SaveFileError(f"{where} must be a list of card codes or null, got {value!r}")
    for item in value:
        if not isinstance(item, str):
            raise SaveFileError(f"{where}: expected a card code, got {item!r}")
        try:
            Card.parse(item)
        except CardParseError as error:
            raise SaveFileError(f"{where}: bad card in the save file: {error}") from None
