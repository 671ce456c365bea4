"""``load(save(state))`` is the same game (issue 25): for states the engine reaches by
random and bot play within the RuleSet's bounds (every preset, 2 to 8 players, partial
and whole games, rounds bounded or not, buys), the loaded game has the same save, the
same snapshot and the same legal actions; and ``save()`` never writes what ``load()``
refuses (over MAX_SAVE_BYTES it raises instead)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import RuleSet
from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.engine.game import Game
from rummykit.engine.saves import MAX_SAVE_BYTES, load
from rummykit.errors import SaveFileError

BOTS = {"random": RandomBot, "greedy": GreedyBot, "buyer": lambda seed: BuyerBot("always", seed)}


def _play(preset: str, players: int, seed: int, kind: str, steps: int, bounded: bool):
    rules = RuleSet.preset(preset)
    players = max(rules.min_players, min(players, rules.max_players))
    limits = {"max_reshuffles": 2, "turn_limit": 60} if bounded else {"max_reshuffles": 1}
    state = Game(rules, players, seed=seed, **limits).new_state()
    bots = [BOTS[kind](seed + seat) for seat in range(players)]
    for _ in range(steps):
        if state.to_act is None:
            break
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


def _same_game(state) -> None:
    text = state.save()
    assert len(text.encode("utf-8")) <= MAX_SAVE_BYTES
    again = load(text)
    assert again.save() == text
    assert again.snapshot() == state.snapshot()
    assert again.legal_actions() == state.legal_actions()
    assert again.history == state.history


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(RuleSet.presets()),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    kind=st.sampled_from(sorted(BOTS)),
    steps=st.integers(0, 400),
    bounded=st.booleans(),
)
def test_load_of_save_is_the_same_game(preset, players, seed, kind, steps, bounded):
    _same_game(_play(preset, players, seed, kind, steps, bounded))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["random", "buyer"])
def test_whole_games_of_eight_round_trip(kind):
    # The longest games the tests reach: 8 seats, every round, many buys (BuyerBot buys
    # whenever it may), RandomBots passing the stock round until the reshuffle limit.
    state = _play("standard", 8, 7, kind, 10**6, bounded=False)
    assert state.is_over and len(state.round_scores) == state.rules.rounds
    if kind == "buyer":
        assert sum(kind == "buy" for kind in (e.kind for e in state.log)) > 20
    _same_game(state)


def test_save_refuses_to_write_what_load_refuses(monkeypatch):
    import rummykit.engine.saves as saves

    state = _play("standard", 2, 3, "random", 300, bounded=True)
    size = len(state.save().encode("utf-8"))
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", size - 1)
    with pytest.raises(SaveFileError, match="max_reshuffles or turn_limit"):
        state.save()
    monkeypatch.undo()
    # And load() refuses the same text at the same cap: the two agree.
    text = state.save()
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", size - 1)
    with pytest.raises(SaveFileError, match="bytes"):
        load(text)
    assert json.loads(text)["format"] == "rummykit.game"


def test_a_save_missing_or_adding_a_part_is_named_in_a_readers_words():
    # Issue 50 item 10: "must hold exactly the keys [...]" was a developer's sentence.
    from rummykit.engine.saves import dumps

    text = dumps(Game("standard", players=2, seed=1).new_state())
    data = json.loads(text)
    del data["state"]
    data["notes"] = "mine"
    with pytest.raises(SaveFileError) as refused:
        load(json.dumps(data))
    assert str(refused.value) == (
        "this is not a whole rummykit save: it has no 'state'; it holds 'notes', which no "
        "save holds"
    )
