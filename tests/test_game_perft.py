"""Perft for the game engine: legal-action counts from seeded positions, checked against
``tests/data/perft_game.json`` as chess engines check perft counts.

Each position is a game (preset, players, seed, first round) and the actions played
from its start, stored in notation so that the position does not depend on any bot.
The file records, per position, the number of legal actions of each kind (depth 1) and
the number of legal actions summed over every position one action later (depth 2). On a
mismatch the test prints the count per action kind.

Regenerate the file (only after a deliberate rule change) with

    .venv/bin/python tests/test_game_perft.py --regenerate
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummykit.agents.bots import GreedyBot
from rummykit.engine.game import Game, GameState

DATA = Path(__file__).parent / "data" / "perft_game.json"


def position(entry: dict) -> GameState:
    game = Game(entry["preset"], entry["players"], seed=entry["seed"])
    state = game.new_state(round=entry["round"])
    for action in entry["actions"]:
        state.apply(action)
    return state


def counts(state: GameState) -> dict[str, int]:
    """Legal actions per kind, and ``"depth 2"``: legal actions one action later, summed."""
    listed = state.legal_actions()
    out = dict(sorted(Counter(action.kind for action in listed).items()))
    deeper = 0
    for action in listed:
        trial = state.clone()
        trial.apply(action)
        deeper += len(trial.legal_actions())
    out["depth 2"] = deeper
    return out


def _entries() -> list[dict]:
    return json.loads(DATA.read_text())["positions"]


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["id"])
def test_perft(entry):
    state = position(entry)
    assert state.phase == entry["phase"]
    found = counts(state)
    if found != entry["counts"]:
        lines = [f"{entry['id']} ({state.phase}, {state.names[state.to_act]} to act):"]
        for kind in sorted(set(found) | set(entry["counts"])):
            want, got = entry["counts"].get(kind, 0), found.get(kind, 0)
            mark = "" if want == got else "   <-- mismatch"
            lines.append(f"  {kind:<16} expected {want:>5}  found {got:>5}{mark}")
        pytest.fail("\n".join(lines))


def regenerate() -> None:
    """Pick positions from seeded GreedyBot games: one per phase seen, richest first."""
    positions = []
    rng = random.Random(2024)
    tables = [
        ("standard", 2),
        ("standard", 4),
        ("standard", 8),
        ("pagat", 3),
        ("wikipedia", 4),
        ("bga", 5),
        ("family", 3),
    ]
    for preset, players in tables:
        for start in (1, 4, 7):
            game = Game(preset, players, seed=rng.getrandbits(32))
            state = game.new_state(round=start)
            bots = [GreedyBot(seed=s) for s in range(players)]
            wanted = {"draw", "buy", "play", "call", "call discard"}
            best: dict[str, tuple[int, int]] = {}
            history = []
            while state.to_act is not None and state.round == start:
                phase = state.phase
                size = len(state.legal_actions())
                if phase in wanted and size >= best.get(phase, (-1, 0))[0]:
                    best[phase] = (size, len(history))
                action = bots[state.to_act].choose(state.view(state.to_act))
                history.append(str(action))
                state.apply(action)
            for phase, (_, length) in sorted(best.items()):
                entry = {
                    "id": f"{preset}-{players}p-r{start}-{phase.replace(' ', '-')}",
                    "preset": preset,
                    "players": players,
                    "seed": game.seed,
                    "round": start,
                    "actions": history[:length],
                    "phase": phase,
                }
                entry["counts"] = counts(position(entry))
                positions.append(entry)
    DATA.parent.mkdir(exist_ok=True)
    text = json.dumps({"about": __doc__.splitlines()[0], "positions": positions}, indent=1)
    DATA.write_text(text + "\n")
    print(f"{len(positions)} positions written to {DATA}")


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        regenerate()
    else:
        print(__doc__)
