"""SearchBot's choices beside GreedyBot's (rummykit.odds.play.search_decisions): the facts
of a choice against the view, the paired rows against a hand count, the games kept in a
checkpoint, and the committed table."""

from __future__ import annotations

import json
import random
from pathlib import Path

import polars as pl
import pytest

from rummykit.agents.bots import GreedyBot
from rummykit.engine.actions import Buy, Discard, LayDown, TakeDiscard
from rummykit.engine.game import Game
from rummykit.errors import RummyError
from rummykit.evaluate.duplicate import deal_seeds
from rummykit.odds.data.checkpoint import Checkpoint
from rummykit.odds.data.schemas import SEARCH_DECISIONS_SCHEMA, frame
from rummykit.odds.pipeline import DATA_SEED, RECIPES
from rummykit.odds.play.search_decisions import (
    DECISION_MEASURES,
    decision_rows,
    describe,
    play_search_game,
    search_decisions_table,
)

ROOT = Path(__file__).parents[1]


def _views(seed: int, players: int = 3, actions: int = 400):
    """Every view to act of a seeded greedy round, with its legal actions."""
    state = Game("standard", players=players, seed=seed).new_state()
    bots = [GreedyBot(seed=s) for s in range(players)]
    for _ in range(actions):
        if state.round_scores:
            return
        view = state.view(state.to_act)
        yield view
        state.apply(bots[state.to_act].choose(view))


def test_the_facts_of_a_choice_are_those_of_its_view():
    kinds = set()
    for seed in range(3):
        for view in _views(seed):
            for action in view.legal_actions():
                facts = describe(view, action, view.rules)
                kinds.add(facts["decision"])
                if view.phase == "draw":
                    assert facts["takes the discard"] == isinstance(action, TakeDiscard)
                elif view.phase == "buy":
                    assert facts["buys"] == isinstance(action, Buy)
                elif facts["decision"] == "lay down":
                    assert facts["lays down"] == isinstance(action, LayDown)
                elif facts["decision"] == "discard":
                    card = action.card
                    assert isinstance(action, Discard)
                    assert facts["points of the discard"] == view.rules.point_value(card)
                    assert facts["discards a high card"] == (view.rules.point_value(card) >= 10)
                    same = [c for c in view.hand if not card.is_joker and c.rank == card.rank]
                    assert facts["breaks a pair"] == (len(same) >= 2)
                else:
                    assert facts == {"decision": None}
    assert {"draw", "buy", "discard", None} <= kinds


def _choice(decision, measure, value, differs):
    return {"decision": decision, measure: value, "differs from greedy": differs}


def test_the_rows_are_the_paired_means_over_the_games():
    # Two games: greedy never buys; the search buys 1 of 2 offers, then 2 of 2.
    games = [
        [
            [_choice("buy", "buys", False, False), _choice("buy", "buys", True, True)],
            [_choice("buy", "buys", False, False), _choice("buy", "buys", False, False)],
        ],
        [
            [_choice("buy", "buys", False, False), _choice("buy", "buys", True, True)],
            [_choice("buy", "buys", False, False), _choice("buy", "buys", True, True)],
        ],
    ]
    rows = {(r["decision"], r["measure"], r["bot"]): r for r in decision_rows(games)}
    search, greedy = rows["buy", "buys", "search"], rows["buy", "buys", "greedy"]
    assert search["mean"] == pytest.approx(0.75) and greedy["mean"] == 0.0
    assert search["difference"] == pytest.approx(0.75) and greedy["difference"] == 0.0
    assert search["n"] == 4 and search["games"] == 2
    assert search["difference_ci_low"] <= 0.75 <= search["difference_ci_high"]
    assert rows["any", "differs from greedy", "search"]["mean"] == pytest.approx(0.75)
    # A measure seen in fewer than two games has no interval: no row.
    assert ("discard", "points of the discard", "search") not in rows
    # A discard measure counts only positions where both bots discard.
    discards = [
        [
            [_choice("discard", "points of the discard", 10, False), _choice(None, "x", 0, True)],
            [
                _choice("discard", "points of the discard", 5, False),
                _choice("discard", "points of the discard", 15, True),
            ],
        ]
    ] * 2
    rows = {(r["decision"], r["measure"], r["bot"]): r for r in decision_rows(discards)}
    assert rows["discard", "points of the discard", "search"]["mean"] == 15
    assert rows["discard", "points of the discard", "greedy"]["mean"] == 5
    assert rows["discard", "points of the discard", "search"]["n"] == 2


def test_a_recorded_choice_differs_from_greedy_exactly_when_its_facts_may():
    record = play_search_game("standard", 3, 12345, 1, 2, 4)
    assert record
    for greedy, mine in record:
        assert greedy["differs from greedy"] is False
        assert greedy["decision"] in {"draw", "buy", "lay down", "discard", None}
        if not mine["differs from greedy"]:
            assert greedy == {**mine, "differs from greedy": False}
    # Reproducible from the deal's seed.
    assert play_search_game("standard", 3, 12345, 1, 2, 4) == record


def test_the_table_keeps_each_game_in_a_checkpoint(tmp_path):
    options = {"deals": 1, "players": 2, "rounds": 1, "rollouts": 2, "seed": 4}
    options |= {"progress": False, "max_workers": 1}
    store = Checkpoint(tmp_path)
    first, seconds = search_decisions_table(checkpoint=store, **options)
    assert store.stored == 2 and seconds > 0
    again = Checkpoint(tmp_path)
    second, _ = search_decisions_table(checkpoint=again, **options)
    assert (again.reused, again.stored) == (2, 0) and second.equals(first)
    assert dict(first.schema) == SEARCH_DECISIONS_SCHEMA
    assert set(first["rollouts"]) == {2}


@pytest.mark.parametrize(
    ("bad", "field"),
    [({"deals": 0}, "deals"), ({"rollouts": 0}, "rollouts"), ({"players": 9}, "players")],
)
def test_bad_input_is_refused_by_name_before_any_game(bad, field, tmp_path):
    store = Checkpoint(tmp_path)
    with pytest.raises(RummyError, match=field):
        search_decisions_table(
            **{"deals": 1, "seed": 0, "progress": False, "max_workers": 1, **bad},
            checkpoint=store,
        )
    assert store.stored == 0


def test_the_committed_table():
    table = pl.read_parquet(ROOT / "data" / "search_decisions.parquet")
    provenance = json.loads((ROOT / "data" / "search_decisions.json").read_text())
    recipe = RECIPES["default"]
    assert provenance["seed"] == DATA_SEED and provenance["n"] == recipe.search_decision_deals
    games = recipe.search_decision_deals * recipe.focus_players
    assert table["games"].max() == games and set(table["rollouts"]) == {256}
    assert {(r["decision"], r["measure"]) for r in table.iter_rows(named=True)} == set(
        DECISION_MEASURES
    )
    greedy = table.filter(bot="greedy")
    assert (greedy["difference"] == 0).all()
    differs = table.filter(measure="differs from greedy")
    assert differs.filter(bot="greedy")["mean"].item() == 0
    assert 0 < differs.filter(bot="search")["mean"].item() < 0.5
    for row in table.iter_rows(named=True):
        assert row["ci_low"] <= row["mean"] <= row["ci_high"]
        assert row["difference_ci_low"] <= row["difference"] <= row["difference_ci_high"]


#: The games behind the committed table, from its run's checkpoint: [deal seed, seat,
#: the game's record (play_search_game), CPU seconds], in the table's task order.
RECORDED = ROOT / "tests" / "data" / "search_decision_games.json"


def test_the_committed_table_is_the_rows_of_its_recorded_games():
    recipe = RECIPES["default"]
    games = json.loads(RECORDED.read_text())
    seeds = deal_seeds(random.Random(DATA_SEED), recipe.search_decision_deals)
    assert [(g[0], g[1]) for g in games] == [
        (s, seat) for s in seeds for seat in range(recipe.focus_players)
    ]
    rows = [
        {"rules": "standard", "players": recipe.focus_players, "rollouts": 256, **row}
        for row in decision_rows([g[2] for g in games])
    ]
    committed = pl.read_parquet(ROOT / "data" / "search_decisions.parquet")
    assert committed.equals(frame(rows, SEARCH_DECISIONS_SCHEMA))


@pytest.mark.slow
def test_a_recorded_game_replays_the_same():
    # The recorded game that took the least CPU, its SearchBot at the default budget.
    games = json.loads(RECORDED.read_text())
    deal_seed, seat, record, _ = min(games, key=lambda g: g[3])
    again = play_search_game("standard", 4, deal_seed, seat, None, None)
    assert json.loads(json.dumps(again)) == record
