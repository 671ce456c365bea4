"""Seeded games under every preset but ``family`` replay exactly as recorded.

``tests/data/preset_saves.json`` holds, for seeded games under ``standard``, ``pagat``,
``wikipedia`` and ``bga`` at every player count they allow, played by GreedyBot,
BuyerBot("always") and RandomBot, the number of actions, the final scores and the
SHA-256 of :meth:`~rummykit.engine.game.GameState.save`. A rule option that one preset uses
(such as ``family``'s buy timing) must leave every other preset's games as they were:
the same decisions, the same chance outcomes, byte for byte the same save.

Regenerate the file (only after a deliberate change to these presets' play) with

    .venv/bin/python tests/test_preset_saves.py --regenerate
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.engine.game import Game, GameState, play_game
from rummykit.engine.rules import RuleSet
from rummykit.engine.saves import load

DATA = Path(__file__).parent / "data" / "preset_saves.json"
PRESETS = ("standard", "pagat", "wikipedia", "bga")
BOTS = {
    "greedy": lambda seed: GreedyBot(seed=seed),
    "always buys": lambda seed: BuyerBot("always", seed=seed),
    "random": lambda seed: RandomBot(seed=seed),
}
#: Random players rarely go out: the game's safety limits keep their games short.
LIMITS = {"turn_limit": 150, "max_reshuffles": 1}


def games() -> list[dict]:
    """Every recorded game's set-up: preset, players, bot, seed and first round."""
    out = []
    for preset in PRESETS:
        rules = RuleSet.preset(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            for number, bot in enumerate(BOTS):
                out.append(
                    {
                        "id": f"{preset}-{players}p-{bot.replace(' ', '-')}",
                        "preset": preset,
                        "players": players,
                        "bot": bot,
                        "seed": 1000 * players + number,
                        # Random bots start late, where the contracts are long.
                        "round": 5 if bot == "random" else 1,
                    }
                )
    return out


def play(entry: dict) -> GameState:
    game = Game(entry["preset"], entry["players"], seed=entry["seed"], **LIMITS)
    bots = [BOTS[entry["bot"]](seed) for seed in range(entry["players"])]
    return play_game(game.new_state(round=entry["round"]), bots)


def record(state: GameState) -> dict:
    return {
        "actions": len(state.history),
        "scores": list(state.scores),
        "save_sha256": hashlib.sha256(state.save().encode()).hexdigest(),
    }


def _recorded() -> dict[str, dict]:
    return {entry["id"]: entry for entry in json.loads(DATA.read_text())["games"]}


@pytest.mark.parametrize("entry", games(), ids=lambda e: e["id"])
def test_seeded_game_replays_as_recorded(entry):
    want = _recorded()[entry["id"]]
    state = play(entry)
    assert record(state) == want["record"], f"{entry['id']} no longer plays as recorded"
    assert load(state.save()).snapshot() == state.snapshot()


def test_every_recorded_game_is_played():
    assert sorted(_recorded()) == sorted(entry["id"] for entry in games())


def regenerate() -> None:
    entries = [{**entry, "record": record(play(entry))} for entry in games()]
    DATA.parent.mkdir(exist_ok=True)
    text = json.dumps({"about": __doc__.splitlines()[0], "games": entries}, indent=1)
    DATA.write_text(text + "\n")
    print(f"{len(entries)} games written to {DATA}")


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        regenerate()
    else:
        print(__doc__)
