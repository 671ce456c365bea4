"""SearchBot (rummykit.agents.searchbot): whole games under every preset, seeded, a position
with a clearly better discard, budgets refused by field (and the benchmark's experiments
refused as options), and the rollout function."""

from __future__ import annotations

import random

import pytest

from rummykit.agents.bots import GreedyBot, OutsBot, RandomBot
from rummykit.agents.searchbot import SearchBot, rollout
from rummykit.engine.actions import Discard, parse_action
from rummykit.engine.game import Game
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError
from tests.support.game_helpers import table


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_plays_whole_games_under_every_preset(preset):
    rules = RuleSet.preset(preset)
    players = rules.min_players
    game = Game(rules, players=players, seed=11, turn_limit=3 * players, max_reshuffles=1)
    searcher = SearchBot(seed=2, rollouts=1)
    bots = [searcher] + [RandomBot(seed=s) for s in range(1, players)]
    state = game.new_state()
    weighed = 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = bots[seat].choose(view)
        if seat == 0:
            assert action in view.legal_actions() or state.is_legal(action)
            weighed += searcher.last.samples
        state.apply(action)  # an illegal action would raise
    assert len(state.round_scores) == rules.rounds
    assert weighed > 0  # some decisions were searched, not only forced


def _history(seed: int) -> list:
    """The first round of a game with a SearchBot."""
    state = Game("standard", players=3, seed=4, turn_limit=12).new_state()
    bots = [SearchBot(seed=seed, rollouts=2), GreedyBot(), RandomBot(seed=5)]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state.history


def test_same_seed_same_game():
    first = _history(7)
    assert _history(7) == first
    assert _history(8) != first


def test_keeps_the_cards_of_its_contract_and_discards_a_dead_one():
    # Two sets of 8s and a pair of 9s towards round 1 (two sets): a 9 is worth keeping,
    # the king is dead weight.
    state = table(
        "standard", 2, {0: "8S 8H 8D 9S 9H 3C 6D KS QC 2C"}, upcard="KC", stock="4H", seed=3
    )
    state.apply("draw stock")
    if state.phase == "buy":
        state.apply("pass")
    assert state.phase == "play" and state.to_act == 0
    bot = SearchBot(seed=1, rollouts=12)
    chosen = bot.choose(state.view(0))
    assert isinstance(chosen, Discard)
    assert chosen.card.code not in ("8S", "8H", "8D", "9S", "9H")
    means = dict(zip(bot.last.actions, bot.last.means, strict=True))
    assert means[parse_action("discard KS")] > means[parse_action("discard 9S")]
    assert bot.last.samples == 12 and bot.last.chosen == chosen


@pytest.mark.parametrize(
    ("budget", "error", "field"),
    [
        ({"rollouts": 0}, ArgumentError, "rollouts"),
        ({"rollouts": -3}, ArgumentError, "rollouts"),
        ({"rollouts": 2.5}, ArgumentTypeError, "rollouts"),
        ({"rollouts": True}, ArgumentTypeError, "rollouts"),
        ({"rollouts": "8"}, ArgumentTypeError, "rollouts"),
        ({"rollouts": None, "seconds": 0}, ArgumentError, "seconds"),
        ({"rollouts": None, "seconds": -1.0}, ArgumentError, "seconds"),
        ({"seconds": "1"}, ArgumentTypeError, "seconds"),
        ({"rollouts": None}, ArgumentError, "budget"),
        ({"seed": "x"}, ArgumentTypeError, "seed"),
    ],
)
def test_bad_budgets_are_refused_by_field(budget, error, field):
    with pytest.raises(error, match=field):
        SearchBot(**budget)


@pytest.mark.parametrize(
    "option",
    ["pool", "margin", "prior", "policy", "rollout", "max_reshuffles", "turn_limit"],
)
def test_the_experiments_options_are_not_searchbots(option):
    """The options only benchmarks/bench_searchbot.py used (its TimedSearchBot has the
    experiments, tested by its doctests) are no longer SearchBot's: passing one is an
    error that names it."""
    with pytest.raises(TypeError, match=option):
        SearchBot(rollouts=1, **{option: 1})


def test_a_seconds_budget_decides_with_at_least_one_sample():
    state = Game("standard", players=4, seed=9).new_state()
    bot = SearchBot(seed=1, rollouts=None, seconds=0.01)
    action = bot.choose(state.view(state.to_act))
    assert action in state.legal_actions()
    assert bot.last.samples >= 1


def test_rollout_is_a_function_of_state_bots_and_seed():
    state = Game("standard", players=3, seed=6, max_reshuffles=1).new_state()
    bots = [RandomBot() for _ in range(3)]  # random bots: their rng is reseeded too
    points = rollout(state.clone(), bots, random.Random(5))
    assert rollout(state.clone(), bots, random.Random(5)) == points
    assert len({rollout(state.clone(), bots, random.Random(s)) for s in range(8)}) > 1
    # By hand: the same reseeding, the same play.
    chance = random.Random(5)
    by_hand = state.clone()
    by_hand.rng = random.Random(chance.getrandbits(63))
    mine = [RandomBot(seed=chance.getrandbits(63)) for _ in range(3)]
    while not by_hand.round_scores:
        by_hand.apply(mine[by_hand.to_act].choose(by_hand.view(by_hand.to_act)))
    assert by_hand.round_scores[0] == points
    with pytest.raises(ArgumentError, match="bots"):
        rollout(state.clone(), bots[:2], random.Random(1))
    with pytest.raises(ArgumentTypeError, match="rng"):
        rollout(state.clone(), bots, 5)


def test_without_evidence_it_plays_as_greedybot():
    """One sample gives no standard error: with its margin every decision is GreedyBot's
    (the choice weighed first). A margin of 0 and another prior are the benchmark's
    experiments: benchmarks/bench_searchbot.py's TimedSearchBot doctests them."""

    def first_round(bot, seed=21):
        state = Game("standard", players=3, seed=seed, turn_limit=15).new_state()
        bots = [bot, GreedyBot(), GreedyBot()]
        while not state.round_scores:
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
        return state.history

    assert first_round(SearchBot(seed=1, rollouts=1)) == first_round(GreedyBot())
    greedy = first_round(GreedyBot(), seed=22)
    assert greedy != first_round(OutsBot(), seed=22)  # a seed where the bots' play differs
    assert first_round(SearchBot(seed=1, rollouts=1), seed=22) == greedy


def test_a_view_not_to_act_is_refused():
    state = Game("standard", players=3, seed=9).new_state()
    idle = next(seat for seat in range(3) if seat != state.to_act)
    with pytest.raises(ArgumentError, match="view"):
        SearchBot(rollouts=1).choose(state.view(idle))


def test_weigh_gives_the_paired_outcomes_choose_compares():
    """choose() is weigh() and a comparison: the same seed gives the same means, every
    candidate gets one outcome a sample, and a bad count or no candidate is refused."""
    state = Game("standard", players=3, seed=9).new_state()
    view = state.view(state.to_act)
    chooser = SearchBot(seed=4, rollouts=5)
    chooser.choose(view)
    weigher = SearchBot(seed=4, rollouts=5)
    values = weigher.weigh(view, weigher.candidates(view))
    assert [len(v) for v in values] == [5] * len(chooser.last.actions)
    assert tuple(sum(v) / 5 for v in values) == chooser.last.means
    again = SearchBot(seed=4, rollouts=5).weigh(view, weigher.candidates(view), samples=2)
    assert [v[:2] for v in values] == again  # the same samples, fewer of them
    with pytest.raises(ArgumentError, match="samples"):
        weigher.weigh(view, weigher.candidates(view), samples=0)
    with pytest.raises(ArgumentError, match="candidates"):
        weigher.weigh(view, [])
