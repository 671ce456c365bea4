"""OutsBot: legal play over whole rounds, discards by outs checked against discard_advice,
seeded, picklable; and the parts of the advice it uses (discard_outs, two_draw_chances)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from pathlib import Path

import pytest

from rummykit import RuleSet, discard_advice
from rummykit.agents.bots import GreedyBot, OutsBot
from rummykit.agents.hints import discard_outs, two_draw_chances
from rummykit.engine.actions import Discard
from rummykit.engine.cards import Card, Shoe, parse_cards
from rummykit.engine.game import Game
from rummykit.errors import ArgumentError, ArgumentTypeError, CardCountError
from tests.support.game_helpers import decline, table
from tests.support.game_invariants import LIMITS, play_checked

STANDARD = RuleSet.preset("standard")


def after_draw(hand: str, stock: str, upcard: str, round: int = 1):
    """Seat 0 of 3 holding ``hand`` has drawn ``stock`` (nobody bought ``upcard``)."""
    state = table("standard", 3, {0: hand}, stock=stock, upcard=upcard, round=round)
    decline(state)
    assert state.phase == "play" and state.current == 0
    return state


def best_by_advice(view) -> tuple[set[str], dict]:
    """The legal discards with the lowest distance, then the most outs, then the best
    two-draw chance, by discard_advice on the view."""
    advice = {option.discard: option for option in discard_advice(view)}
    legal = [a.card.code for a in view.legal_actions() if isinstance(a, Discard)]

    def key(code):
        option = advice[code]
        return (option.distance, -option.outs.total, -option.p_two)

    best = min(key(code) for code in legal)
    return {code for code in legal if key(code) == best}, advice


def test_keeps_a_third_pair_where_greedy_sheds_points():
    # Pairs of 8s, 10♣s and kings, two sets to make: greedy keeps the distance (2) and
    # sheds a 10♣ (10 points); the outs are higher keeping all three pairs.
    state = after_draw("6D 9D KS 8S 10C 8H 4D KC 7C 10C", stock="7H", upcard="JS")
    view = state.view(0)
    best, advice = best_by_advice(view)
    assert best == {"4D", "6D", "9D"}
    assert advice["4D"].outs.total > advice["10C"].outs.total
    assert advice["4D"].distance == advice["10C"].distance == 2
    assert GreedyBot().choose(view) == Discard(Card.parse("10C"))
    # Tied on outs and the two-draw chance, and on points (5 each): the fixed order.
    assert OutsBot().choose(view) == Discard(Card.parse("4D"))
    state.apply(OutsBot().choose(view))  # a legal action


def test_ties_on_outs_are_broken_by_the_two_draw_chance():
    state = after_draw("6H 10D AC 5H 3C 9S AD 6D 7D AS", stock="2D", upcard="7S")
    view = state.view(0)
    best, advice = best_by_advice(view)
    assert best == {"7D"}
    tied = [c for c, o in advice.items() if (o.distance, o.outs.total) == (1, 10)]
    assert {"7D", "10D"} <= set(tied)
    assert advice["7D"].p_two > advice["10D"].p_two
    # GreedyBot sheds the 10♦ (10 points); OutsBot keeps it for the better second draw.
    assert GreedyBot().choose(view) == Discard(Card.parse("10D"))
    assert OutsBot().choose(view) == Discard(Card.parse("7D"))


@pytest.mark.parametrize("seed", range(2))
def test_the_discard_is_the_best_by_discard_advice_on_random_positions(seed):
    rng = random.Random(seed)
    cards = rng.sample(Shoe(decks=2, jokers=4).cards, 12)
    hand = " ".join(card.code for card in cards[:10])
    state = after_draw(hand, stock=cards[10].code, upcard=cards[11].code)
    view = state.view(0)
    best, advice = best_by_advice(view)
    chosen = OutsBot().choose(view)
    assert isinstance(chosen, Discard) and chosen.card.code in best
    # Among the best, GreedyBot's order (jokers kept, the most points shed first).
    greedy = GreedyBot()
    assert chosen == min(
        (Discard(Card.parse(code)) for code in best),
        key=lambda a: greedy._discard_key(view, a.card),
    )
    # The parts of the advice the bot uses agree with the advice.
    found = discard_outs(view)
    assert set(found) == set(advice)
    assert all(found[code] == advice[code].outs for code in advice)
    chances = two_draw_chances(view, sorted(best))
    assert chances == {code: advice[code].p_two for code in sorted(best)}


def test_once_laid_down_it_discards_as_greedy_does():
    state = table("standard", 3, {0: "8S 8H 8D 9S 9H 9D 2C 3D 4H KS"}, stock="7C")
    decline(state)
    bot = OutsBot()
    while state.current == 0 and state.phase == "play":
        view = state.view(0)
        assert bot.choose(view) == GreedyBot().choose(view)
        state.apply(bot.choose(view))
    assert state.view(0).laid_down[0]


# A two-round game of the set contracts (2 sets, 3 sets): whole rounds in seconds.
SETS = dataclasses.replace(
    STANDARD,
    name="sets",
    contracts=(STANDARD.contracts[0], STANDARD.contracts[3]),
    deal_sizes=(10, 10),
)


@pytest.mark.slow
def test_plays_checked_games_against_greedy_bots():
    # Every invariant after every action (tests/support/game_invariants.py), OutsBot in two
    # seats of three, then alone against one GreedyBot.
    game = Game(SETS, 3, seed=11, **LIMITS)
    bots = [OutsBot(seed=1), GreedyBot(seed=2), OutsBot(seed=3)]
    final = play_checked(game, bots, rng=random.Random(5))
    assert final.is_over and len(final.round_scores) == 2
    game = Game(SETS, 2, seed=4, **LIMITS)
    final = play_checked(game, [GreedyBot(seed=1), OutsBot(seed=2)], rng=random.Random(6))
    assert final.is_over and len(final.round_scores) == 2


@pytest.mark.slow
def test_plays_a_checked_run_round():
    # The last round of standard, three runs: the costliest outs.
    game = Game("standard", 3, seed=11, **LIMITS)
    bots = [OutsBot(seed=1), GreedyBot(seed=2), OutsBot(seed=3)]
    final = play_checked(game, bots, rng=random.Random(5), round=7)
    assert final.is_over and len(final.round_scores) == 1


def _history(seed: int) -> list[str]:
    state = Game(SETS, 2, seed=seed).new_state()
    bots = [OutsBot(seed=seed), GreedyBot(seed=seed + 1)]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return [str(action) for _, action in state.history]


def test_seeded_and_picklable():
    assert _history(3) == _history(3)
    state = after_draw("6D 9D KS 8S 10C 8H 4D KC 7C 10C", stock="7H", upcard="JS")
    bot = OutsBot(seed=2, buy="never")
    copy = pickle.loads(pickle.dumps(bot))
    assert repr(copy) == "OutsBot(buy='never')"
    assert copy.choose(state.view(0)) == bot.choose(state.view(0))


def test_bad_input_to_the_advice_parts():
    hand = parse_cards("8S 8H 8D JH JS 2C KD")
    contract = STANDARD.contracts[0]
    shoe = {"decks": 2, "jokers": 4}
    with pytest.raises(ArgumentError, match="not in the hand"):
        two_draw_chances(hand, ["QS"], contract, STANDARD, **shoe)
    with pytest.raises(ArgumentTypeError, match="collection of cards or codes"):
        two_draw_chances(hand, "KD", contract, STANDARD, **shoe)
    with pytest.raises(ArgumentTypeError, match="a discard is a Card"):
        two_draw_chances(hand, [3], contract, STANDARD, **shoe)
    with pytest.raises(CardCountError, match="3 copies of 8S"):
        discard_outs(parse_cards("8S 8S 8S"), contract, STANDARD, **shoe)
    with pytest.raises(ArgumentTypeError, match="decks and jokers are required"):
        discard_outs(hand, contract, STANDARD)
    state = after_draw("6D 9D KS 8S 10C 8H 4D KC 7C 10C", stock="7H", upcard="JS")
    with pytest.raises(ArgumentError, match="pass the view alone"):
        discard_outs(state.view(0), contract)


def test_the_play_widget_offers_it():
    from rummykit.widgets.play import BOTS, PlayWidget

    assert isinstance(BOTS["Greedy, discards by outs"](1), OutsBot)
    widget = PlayWidget(bots=2, bot="Greedy, discards by outs", seed=3)
    assert [type(bot) for bot in widget.bots[1:]] == [OutsBot, OutsBot]
    widget.state.check_invariants()


def test_a_greedy_seat_under_study_plays_the_plain_round():
    # The same deals and seeds whichever bot sits in the seat under study: with
    # GreedyBot there (BuyerBot's policy), the round is the one played without it.
    from rummykit.odds.cells import Cell
    from rummykit.odds.play.completion import play_round

    cell = Cell(STANDARD, players=3, round=1)
    for index in range(3):
        assert play_round(cell, 5, index, focal=GreedyBot) == play_round(cell, 5, index)


def test_game_difference_sums_the_rounds_of_the_committed_table():
    import polars as pl

    from rummykit.odds.play.outs_bot import game_difference

    table = pl.read_parquet(Path(__file__).parents[1] / "data" / "outs_bot.parquet")
    rows = table.filter(bot="outs", measure="points minus opponents").sort("round")
    game = game_difference(table)
    assert game["rounds"] == list(range(1, 8))
    assert game["mean"] == pytest.approx(sum(rows["difference"]))
    assert game["stderr"] == pytest.approx(sum(s**2 for s in rows["difference_stderr"]) ** 0.5)
    assert game["ci_low"] < game["mean"] < game["ci_high"]
    with pytest.raises(ValueError, match="one row"):
        game_difference(pl.concat([rows, rows]))
