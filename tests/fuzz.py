"""A seeded fuzzer of the engine: random play over every table, with malformed and
illegal input thrown in between the legal actions.

:func:`run` plays games round every (preset, players) pair the presets allow (from
``game_invariants.tables()``), with random and greedy bots from a random start round,
until it has applied the number of actions asked for. It checks, after every action:

* the invariants of :meth:`GameState.check_invariants`: the cards in hands, melds,
  stock and discard pile are exactly the shoe, every meld is legal, and
  ``legal_actions()`` is empty exactly when the game is over;
* score arithmetic: a round's points are, per seat, the cards left in hand plus the
  round's penalties, signed as the rules write them, and each total is the set-up
  score plus the rounds' points;

and, at one random step of every game and at its end, replay identity: ``load(save())``
gives back the same state and byte for byte the same save.

Between legal actions it throws bursts of bad input from a seeded corpus: junk values
and mangled action strings (truncated, spliced, huge or negative meld numbers, very
long), well-formed actions the rules refuse (``game_invariants``' unlisted actions,
random lay-downs), action constructors given fields of the wrong type, malformed card
strings, and save files broken in many ways (truncated, re-typed fields, cards
duplicated beyond the shoe, deep nesting, huge numbers, huge shoes). Every refused
input must raise a :class:`~rummykit.errors.RummyError` and leave the game as it was
(its fingerprint after each input, its ``save()`` byte-identical over each burst); an
accepted one must be a legal action (listed by ``legal_actions()``, or a lay-down,
which is listed only in one canonical form). Any other exception is a *mishandled
input*; a broken check is an *invariant break*.

The CI-sized run is ``tests/test_fuzz.py``; ``make soak`` runs a million actions:

    .venv/bin/python tests/fuzz.py --actions 1000000 --seed 0
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rummykit.engine.actions import (
    Discard,
    InvalidLayDown,
    LayDown,
    LayOff,
    Swap,
    parse_action,
)
from rummykit.engine.cards import Card, parse_cards
from rummykit.engine.game import Game, GameState
from rummykit.engine.saves import load
from rummykit.errors import RummyError

if __name__ == "__main__":  # run as a script (make soak): the project's folder first
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.game_invariants import BOTS, LIMITS, _unlisted, tables  # noqa: E402

#: How many failures of each kind a report keeps, to show.
KEEP = 5
#: One burst of bad input in this many compares the whole save() before and after.
SAVE_EVERY = 20


@dataclass
class Report:
    """What a fuzz run did and found."""

    actions: int = 0
    """Actions applied (legal ones, including accepted random lay-downs)."""
    games: int = 0
    rounds: int = 0
    inputs: int = 0
    """Malformed or illegal inputs tried (actions, constructors, card strings, saves)."""
    breaks: list[str] = field(default_factory=list)
    """Invariant breaks (the first :data:`KEEP`), and their count in ``break_count``."""
    break_count: int = 0
    mishandled: list[str] = field(default_factory=list)
    """Inputs answered by an exception other than a RummyError (the first few)."""
    mishandled_count: int = 0
    tables: set[tuple[str, int]] = field(default_factory=set)
    """The (preset, players) tables played."""

    def broke(self, what: str) -> None:
        self.break_count += 1
        if len(self.breaks) < KEEP:
            self.breaks.append(what)

    def mishandle(self, what: str, error: BaseException) -> None:
        self.mishandled_count += 1
        if len(self.mishandled) < KEEP:
            self.mishandled.append(f"{what}: {type(error).__name__}: {str(error)[:200]}")

    @property
    def ok(self) -> bool:
        return self.break_count == 0 and self.mishandled_count == 0

    def summary(self, seconds: float) -> str:
        return (
            f"soak: {self.actions:,} actions, {self.rounds:,} rounds, {self.break_count:,} "
            f"invariant breaks, {self.mishandled_count:,} mishandled inputs ({self.inputs:,} "
            f"malformed inputs tried) in {seconds:,.0f} s"
        )


# ------------------------------------------------------------------------------ corpus

_JUNK = [
    None,
    0,
    -1,
    2.5,
    float("nan"),
    True,
    b"draw stock",
    ["draw stock"],
    {"action": "buy"},
    (),
    object(),
    Card.parse("8H"),
    10**100,
]
_CHARS = list("0123456789 ->|,;:xXJKjkHSDC♥♠♦♣\x00\ufe0f\t\n-٣½") + ["->", " | ", "10", "JK"]
_WORDS = [
    "draw stock",
    "take discard",
    "buy",
    "pass",
    "call",
    "end turn",
    "discard",
    "lay down",
    "lay off",
    "swap",
    "invalid lay down",
]


def _mangle(text: str, rng: random.Random) -> str:
    """``text`` broken in one of many ways (it may still, by chance, read as an action)."""
    how = rng.randrange(9)
    if how == 0:
        return text[: rng.randrange(len(text) + 1)]
    if how == 1:
        at = rng.randrange(len(text) + 1)
        return text[:at] + "".join(rng.choices(_CHARS, k=rng.randint(1, 4))) + text[at:]
    if how == 2:
        digits = rng.choice(["1" * rng.randint(7, 5000), "-1", "1e3", "٣", "0x1", "+2", "²"])
        return f"{rng.choice(['lay off', 'swap'])} {rng.choice(['9H', 'JK', 'ZZ'])} -> {digits}"
    if how == 3:
        return text + rng.choice([" low", " high", " sideways", " | 8S", " ->", " 0", "  "])
    if how == 4:
        return text.upper() if rng.random() < 0.5 else text.swapcase()
    if how == 5:
        return rng.choice(_WORDS) + " " + " ".join(rng.choices(_CHARS, k=rng.randint(0, 6)))
    if how == 6:
        codes = [card.code for card in rng.choices(_SHOE, k=rng.randint(1, 300))]
        return "lay down " + " | ".join(" ".join(codes[i : i + 4]) for i in range(0, len(codes), 4))
    if how == 7:
        return rng.choice(["x" * 10_000, "lay down " + "|" * 500, "\x00" * 50, " ", ""])
    return "".join(rng.choices(_CHARS, k=rng.randint(1, 30)))


_SHOE = Game("standard", 8, seed=0).shoe.cards  # 3 decks and 6 jokers: every code


def bad_actions(state: GameState, listed: list, rng: random.Random) -> list[object]:
    """A burst of inputs for ``state.apply``: junk, mangled text, unlisted actions."""
    out: list[object] = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(4)
        if kind == 0:
            out.append(rng.choice(_JUNK))
        elif kind == 1:
            base = str(rng.choice(listed)) if listed else "draw stock"
            out.append(_mangle(base, rng))
        elif kind == 2:
            unlisted = _unlisted(state, listed, rng)
            if unlisted:
                out.append(rng.choice(unlisted))
        else:
            hand = state.hands[state.to_act] if state.to_act is not None else []
            pool = list(hand) + list(rng.choices(_SHOE, k=3))
            groups = [rng.sample(pool, min(len(pool), rng.randint(1, 5))) for _ in range(3)]
            groups = groups[: rng.randint(1, 3)]
            out.append(LayDown(groups) if rng.random() < 0.8 else InvalidLayDown(groups))
    return out


def bad_constructors(rng: random.Random) -> list:
    """Action constructors given fields of the wrong type (each call must raise)."""
    card = rng.choice(_SHOE)
    wrong = rng.choice(["QS", None, 5, 1.5, True, [card], b"8H", {"card": "QS"}])
    return [
        lambda: Discard(wrong),
        lambda: LayOff(wrong, 0),
        lambda: LayOff(card, rng.choice([False, True, "0", 1.0, None, -3])),
        lambda: Swap(card, rng.choice([False, "2", None, -1, 0.0])),
        lambda: Swap(wrong, 1),
        lambda: LayDown(rng.choice([None, 5, "8S 8H 8D", [card], [[wrong]], [["8S"]]])),
        lambda: LayOff(card, 0, rng.choice(["middle", 1, "LOW", True])),
    ]


def bad_card_strings(rng: random.Random) -> list[object]:
    """Inputs for ``parse_cards`` (any outcome but a non-RummyError is fine)."""
    return [
        _mangle(" ".join(c.code for c in rng.choices(_SHOE, k=5)), rng),
        rng.choice(_JUNK),
        [rng.choice(_JUNK), "8H"],
        "".join(rng.choices(_CHARS, k=rng.randint(0, 40))),
        [["8H"]],
    ]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


_RETYPED = [
    None,
    True,
    -1,
    0,
    10**30,
    1e308,
    "x",
    "",
    "JK",
    [],
    {},
    [[[]]],
    [None],
    ["JK"] * 40,
    [[2, 10**12]],
    {"format": "rummykit.game"},
]


def bad_saves(text: str, rng: random.Random, count: int) -> list[str]:
    """``count`` versions of the save ``text`` broken in ways :func:`load` must refuse
    (or, where the change is harmless, accept)."""
    data = json.loads(text)
    paths = list(_paths(data))
    out = []
    for _ in range(count):
        how = rng.randrange(8)
        if how == 0:
            out.append(text[: rng.randrange(len(text))])
            continue
        if how == 1:
            depth = rng.choice([9, 50, 5000, 200_000])
            out.append("[" * depth + text + "]" * depth)
            continue
        if how == 2 and rng.random() < 0.1:
            out.append(text[:-1] + ', "padding": "' + "x" * 1_000_001 + '"}')
            continue
        copy = json.loads(text)
        if how in (2, 3):  # re-type any field
            path = rng.choice(paths[1:])
            _set(copy, path, rng.choice(_RETYPED))
        elif how == 4:  # cards duplicated beyond the shoe
            code = rng.choice(["JK", "AS", "8H", "10D"])
            copy["setup"][rng.choice(["hands", "stock"])] = (
                [[code] * 30] + [None] * (copy["players"] - 1)
                if rng.random() < 0.5
                else [code] * 30
            )
        elif how == 5:  # huge numbers and shoes in the rules
            key = rng.choice(
                ["jokers_by_decks", "decks_by_players", "max_players", "deal_sizes", "seed"]
            )
            huge = {
                "jokers_by_decks": [[2, 10**12], [3, 10**12]],
                "decks_by_players": [[n, 10**9] for n in range(2, 9)],
                "max_players": 10**15,
                "deal_sizes": [10**9] * 7,
                "seed": 10**400,
            }[key]
            (copy if key == "seed" else copy["rules"])[key] = huge
        elif how == 6:  # actions: swapped, re-seated, replaced by mangled text
            actions = copy["actions"]
            if actions:
                i = rng.randrange(len(actions))
                choice = rng.randrange(3)
                if choice == 0:
                    j = rng.randrange(len(actions))
                    actions[i], actions[j] = actions[j], actions[i]
                elif choice == 1:
                    actions[i] = [rng.choice([-1, 0, 1, 99, True, "0"]), actions[i][1]]
                else:
                    actions[i] = [actions[i][0], _mangle(actions[i][1], rng)]
        else:  # a key removed or added
            if rng.random() < 0.5:
                path = rng.choice([p for p in paths[1:] if isinstance(p[-1], str)] or [("x",)])
                _delete(copy, path)
            else:
                copy[rng.choice(["extra", "state", "Rules"])] = 1
        out.append(json.dumps(copy))
    return out


def _set(data, path, value) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _delete(data, path) -> None:
    for key in path[:-1]:
        data = data[key]
    if isinstance(data, dict):
        data.pop(path[-1], None)


# ------------------------------------------------------------------------------ checks


def _fingerprint(state: GameState) -> list:
    """Every attribute of the state (the history and log by length), cheaper to take
    than ``save()`` and finer: it also holds what a save leaves out."""
    out = []
    for name, value in state.__dict__.items():
        if name in ("history", "log"):
            out.append(len(value))  # append-only
        elif name == "hands":
            out.append(tuple(map(tuple, value)))
        elif isinstance(value, list):
            out.append(tuple(value))
        elif isinstance(value, set):
            out.append(frozenset(value))
        elif isinstance(value, random.Random):
            out.append(value.getstate())
        else:
            out.append(value)
    return out


class _Driver:
    def __init__(self, report: Report, rng: random.Random) -> None:
        self.report = report
        self.rng = rng

    def step(self, state: GameState, action: object) -> None:
        """Apply ``action`` (known legal, or accepted), then check scores and invariants."""
        hands, penalties, rounds = state.hands, state.penalties, len(state.round_scores)
        state.apply(action)
        self.report.actions += 1
        if len(state.round_scores) > rounds:
            self.report.rounds += 1
            # state.hands and penalties are rebuilt at a deal: the old lists hold the
            # round's final hands and penalties.
            sign = -1 if state.rules.negative_scores else 1
            expected = tuple(
                sign * (sum(state.rules.point_value(c) for c in hand) + extra)
                for hand, extra in zip(hands, penalties, strict=True)
            )
            if state.round_scores[-1] != expected:
                self.report.broke(f"round points {state.round_scores[-1]} != {expected}")
        start = state.setup["scores"] or [0] * state.players
        totals = [s + sum(r[seat] for r in state.round_scores) for seat, s in enumerate(start)]
        if state.scores != totals:
            self.report.broke(f"totals {state.scores} are not the rounds' sums {totals}")
        try:
            state.check_invariants(checked_melds=self.melds)
        except AssertionError as error:
            self.report.broke(f"{state!r} after {action}: {error}")

    def burst(self, state: GameState) -> None:
        """Throw bad input at ``state``; what is refused must change nothing."""
        rng, report = self.rng, self.report
        listed = state.legal_actions()
        # The fingerprint is checked after every input; the whole save, which costs
        # more, over one burst in SAVE_EVERY.
        before = state.save() if rng.randrange(SAVE_EVERY) == 0 else None
        for bad in bad_actions(state, listed, rng):
            report.inputs += 1
            mark = _fingerprint(state)
            try:
                parsed = parse_action(bad)
            except RummyError:
                parsed = None
            except Exception as error:
                report.mishandle(f"parse_action({bad!r:.80})", error)
                continue
            try:
                if not isinstance(parsed, LayDown | InvalidLayDown | None) and parsed in listed:
                    continue  # legal after all: not a refusal to test
                self.step(state, bad)
            except RummyError:
                if _fingerprint(state) != mark:
                    report.broke(f"refused {bad!r:.80} changed the state")
                continue
            except Exception as error:
                report.mishandle(f"apply({bad!r:.80})", error)
                return
            # Accepted (and checked by step): only a lay-down, listed in one canonical
            # form only, or a lay-off listed with or without its end (the end may be
            # left out or named when the card fits one end only), may be.
            offs = {(a.card, a.meld) for a in listed if isinstance(a, LayOff)}
            if not isinstance(parsed, LayDown | InvalidLayDown) and not (
                isinstance(parsed, LayOff) and (parsed.card, parsed.meld) in offs
            ):
                report.broke(f"accepted {bad!r:.80}, not listed in {listed}")
            return  # the state moved on: the save check below no longer applies
        if before is not None and state.save() != before:
            report.broke("a burst of refused inputs changed save()")

    def others(self) -> None:
        """Constructors and card strings: anything but a non-RummyError is fine."""
        rng, report = self.rng, self.report
        for build in bad_constructors(rng):
            report.inputs += 1
            try:
                action = build()
            except RummyError:
                continue
            except Exception as error:
                report.mishandle("an action constructor", error)
                continue
            report.broke(f"an action was built from fields of the wrong type: {action!r}")
        for value in bad_card_strings(rng):
            report.inputs += 1
            try:
                parse_cards(value)
            except RummyError:
                pass
            except Exception as error:
                report.mishandle(f"parse_cards({value!r:.80})", error)

    def saves(self, state: GameState, count: int) -> None:
        """Replay identity of ``state``, then ``count`` broken saves of it."""
        text = state.save()
        try:
            again = load(text)
        except Exception as error:
            self.report.broke(f"the game's own save does not load: {error}")
            return
        if again.save() != text or again.snapshot() != state.snapshot():
            self.report.broke("load(save()) is not the same game")
        for bad in bad_saves(text, self.rng, count):
            self.report.inputs += 1
            try:
                load(bad)
            except RummyError:
                pass
            except Exception as error:
                self.report.mishandle(f"load of a broken save ({bad[:60]!r})", error)
        if state.save() != text:
            self.report.broke("loading broken saves changed the game")

    def game(self, game: Game, bots: list, start: int, budget: int, most: int | None) -> None:
        """Play ``game`` from round ``start`` to its end (or ``most`` actions, or the run's
        ``budget``), fuzzing on the way."""
        rng = self.rng
        self.melds: set = set()
        state = game.new_state(round=start)
        self.report.tables.add((game.rules.name, game.players))
        probe = rng.randrange(1, 80)  # one early step: replay and broken saves (cheap loads)
        steps = 0
        while state.to_act is not None and self.report.actions < budget:
            if most is not None and steps >= most:
                break
            if rng.random() < 0.12:
                self.burst(state)
                if state.to_act is None:
                    break
            if steps % 50 == 0:
                self.others()
            if steps == probe:
                self.saves(state, 6)
            seat = state.to_act
            self.step(state, bots[seat].choose(state.view(seat)))
            steps += 1
        self.saves(state, 2)
        self.report.games += 1


def run(actions: int, *, seed: int = 0, game_actions: int | None = None) -> Report:
    """Fuzz until ``actions`` actions have been applied; every choice comes from ``seed``.

    ``game_actions`` cuts each game short after that many steps, so that a short run
    still visits every table with both bots.
    """
    rng = random.Random(seed)
    report = Report()
    driver = _Driver(report, rng)
    cycle = itertools.cycle(itertools.product(tables(), sorted(BOTS)))
    while report.actions < actions:
        (name, players), bot = next(cycle)
        game = Game(name, players, seed=rng.getrandbits(32), **LIMITS)
        bots = [BOTS[bot](seed=rng.getrandbits(32)) for _ in range(players)]
        driver.game(game, bots, rng.randint(1, game.rules.rounds), actions, game_actions)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description="Fuzz the rummykit engine (see the docstring)")
    parser.add_argument("--actions", type=int, default=1_000_000, help="actions to apply")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    args = parser.parse_args()
    start = time.perf_counter()
    report = run(args.actions, seed=args.seed)
    for line in report.breaks + report.mishandled:
        print(line, file=sys.stderr)
    print(report.summary(time.perf_counter() - start))
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
