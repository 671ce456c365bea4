"""Buying before the draw (``buy_timing="before_draw"``, the ``family`` preset, source 004).

Scripted rounds deal with ``new_state(hands=..., upcard=..., stock=...)`` and the last
seat dealing, so seat 0 plays first; under ``family`` the first buy window opens on the
up-card before seat 0 draws. Then random play, saves, the bots, the play widget, the
completion tables, and the other rule sets, which keep their window after the decline.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot
from rummykit.engine.actions import Buy, DrawStock, Pass, TakeDiscard
from rummykit.engine.cards import Card, parse_cards
from rummykit.engine.events import BuyDetails
from rummykit.engine.game import Game, GameState
from rummykit.engine.rules import RuleSet
from rummykit.engine.saves import load
from rummykit.errors import IllegalActionError, RuleSetError, SaveFileError
from rummykit.odds.cells import Cell
from rummykit.odds.play.completion import play_round
from tests.support import game_helpers
from tests.support.game_helpers import play
from tests.support.game_invariants import BOTS, LIMITS, play_checked

FAMILY = RuleSet.preset("family")
AFTER_DECLINE = dataclasses.replace(FAMILY, buy_timing="after_decline")
WIKIPEDIA_BEFORE = dataclasses.replace(
    RuleSet.preset("wikipedia"), name="wikipedia, before the draw", buy_timing="before_draw"
)
STANDARD_BEFORE = dataclasses.replace(
    RuleSet.preset("standard"), name="standard, before the draw", buy_timing="before_draw"
)


def table(rules: RuleSet | str = "family", players: int = 3, hands=None, **setup) -> GameState:
    """A state whose seat 0 plays first, with the hands given (others random); the up-card
    is the 7♥ unless told."""
    return game_helpers.table(rules, players, hands, **{"upcard": "7H", **setup})


def discard_any(state: GameState) -> None:
    """End the turn of the player in the play phase with the first discard listed."""
    assert state.phase == "play"
    state.apply(next(a for a in state.legal_actions() if a.kind == "discard"))


def kinds(state: GameState, start: int) -> list[tuple[str, int | None]]:
    return [(e.kind, e.seat) for e in state.log[start:]]


# ------------------------------------------------------------------------------------ options


def test_the_option_is_checked_and_family_uses_it():
    assert RuleSet.preset("standard").buy_timing == "after_decline"
    assert FAMILY.buy_timing == "before_draw"
    for name in ("standard", "pagat", "wikipedia", "bga"):
        assert RuleSet.preset(name).buy_timing == "after_decline"
    with pytest.raises(RuleSetError, match="buy_timing must be one of 'after_decline', 'bef"):
        dataclasses.replace(FAMILY, buy_timing="whenever")


def test_the_timing_does_not_change_the_dealt_hand_odds():
    # Exact sweeps are shared by rule sets with the same sweep rules: buying is not one.
    assert FAMILY.meld_rules == AFTER_DECLINE.meld_rules


# ------------------------------------------------------------------------------------ scripted


def test_a_buyer_takes_the_discard_before_the_player_to_draw_chooses():
    state = table(hands={0: "2C 3C 4C 9D 9H JS QS"}, stock="KS 5D")
    # The window opens before seat 0's draw: seat 0 is not asked, the others are.
    assert (state.phase, state.to_act, state.current) == ("buy", 1, 0)
    view = state.view(1)
    assert view.buy_window == "before_draw" and view.offer == Card.parse("7H")
    assert view.offered_by is None  # the up-card
    assert view.legal_actions() == [Buy(), Pass()] and state.view(0).legal_actions() == []
    with pytest.raises(IllegalActionError, match="cannot draw stock in the 'buy' phase"):
        state.apply("draw stock")
    mark = len(state.log)
    play(state, "buy", "pass")  # first call: seat 1 alone asked to buy
    assert kinds(state, mark) == [("pass buy", 2), ("buy lottery", 1), ("buy", 1)]
    buy = state.log[-1]
    assert buy.cards == tuple(parse_cards("7H KS")) and buy.details == BuyDetails(drawer=0)
    assert state.hands[1][-2:] == list(parse_cards("7H KS")) and state.buys == [0, 1, 0]
    # Now seat 0 chooses; the pile is empty, so only the stock is left.
    assert (state.phase, state.to_act) == ("draw", 0)
    assert state.view(0).buy_window is None and state.view(0).offer is None
    assert state.legal_actions() == [DrawStock()]
    state.apply("draw stock")
    assert state.phase == "play" and state.hands[0][-1] == Card.parse("5D")
    assert len(state.hands[0]) == 8 and len(state.hands[1]) == 9
    text = state.narrate()
    assert "Before Ann draws, Bea buys the 7♥ and draws a penalty card.\nAnn draws from" in text


def test_nobody_buys_and_the_player_to_draw_takes_the_discard():
    state = table(hands={0: "7S 7D 4C 9D 9H JS QS"})
    play(state, "pass", "pass")
    assert (state.phase, state.to_act, state.view(0).discard_top) == ("draw", 0, Card.parse("7H"))
    assert state.legal_actions() == [DrawStock(), TakeDiscard()]
    state.apply("take discard")
    assert state.phase == "play" and state.taken == Card.parse("7H")
    assert "discard 7H" not in map(str, state.legal_actions())
    assert [e.kind for e in state.log if e.kind in ("buy", "decline")] == []


def test_drawing_from_the_stock_opens_no_second_window():
    state = table()
    play(state, "pass", "pass", "draw stock")
    assert state.phase == "play" and state.to_act == 0
    assert [e.kind for e in state.log[-2:]] == ["decline", "draw stock"]
    assert "Ann passes on the 7♥ and draws from the stock." in state.narrate()


def test_after_a_buy_the_player_to_draw_may_take_the_new_top_discard():
    state = table(hands={0: "2C 3C 4C 9D 9H JS QS"})
    play(state, "pass", "pass", "draw stock", "discard 9D")
    # Seat 1's turn: seat 2 buys seat 0's 9♦ (nearest to seat 1 is asked first).
    assert (state.phase, state.queue) == ("buy", [2, 0])
    assert state.view(2).offered_by == 0
    play(state, "buy", "pass")
    assert (state.phase, state.to_act) == ("draw", 1)
    # The new top card is the up-card seat 0 passed on: seat 1 may take it (the reading
    # chosen where source 004 is silent) or draw.
    assert state.view(1).discard_top == Card.parse("7H")
    assert state.legal_actions() == [DrawStock(), TakeDiscard()]
    state.apply("take discard")
    assert state.taken == Card.parse("7H") and Card.parse("7H") in state.hands[1]
    assert "discard 7H" not in map(str, state.legal_actions())
    text = state.narrate()
    assert "Before Bea draws, Cal buys the 9♦ and draws a penalty card." in text
    assert text.endswith("Bea takes the 7♥ from the discard pile.")


def test_the_buy_limit_stops_a_buyer():
    state = table(players=3)
    turns = 0
    while state.buys[1] < 3:
        # Seat 1 buys whatever is offered before the draw; seat 2 passes.
        while state.phase == "buy":
            state.apply("buy" if state.to_act == 1 else "pass")
        state.apply("draw stock")
        discard_any(state)
        turns += 1
    # Bought before the draws of seats 0, 2 and 0 again (not asked on its own turn).
    assert turns == 4 and state.buys == [0, 3, 0] and state.current == 1
    # At the limit seat 1 is no longer asked; the others still are, nearest first.
    asked = []
    for _ in range(3):
        assert state.phase == "buy"
        asked.append(list(state.queue))
        while state.phase == "buy":
            state.apply("pass")
        state.apply("draw stock")
        discard_any(state)
    assert asked == [[2, 0], [0], [2]]
    assert state.buys == [0, 3, 0] and state.buy_limit() == 3


def test_at_the_limit_with_two_players_no_window_opens():
    state = table(players=2)
    for _ in range(3):
        play(state, "buy", "draw stock")  # seat 1 buys before seat 0 draws
        discard_any(state)
        play(state, "pass", "draw stock")  # seat 0 passes before seat 1 draws
        discard_any(state)
    assert state.buys == [0, 3]
    # Seat 0's turn starts at the draw: the only other seat may not buy any more.
    assert (state.phase, state.to_act, state.current) == ("draw", 0, 0)
    mark = len(state.log)
    state.apply("draw stock")
    assert [e.kind for e in state.log[mark:]] == ["decline", "draw stock"]


def test_a_buy_needs_the_penalty_card_in_the_stock_before_the_draw_too():
    state = table()
    play(state, "pass", "pass", "draw stock")
    # Move the stock under the discard pile: the cards are all still there.
    state.discards = state.stock + state.discards
    state.stock = []
    discard_any(state)
    assert (state.phase, state.to_act, state.current) == ("draw", 1, 1)
    state.apply("draw stock")  # the pile is shuffled into a new stock
    assert state.phase == "play" and any(e.kind == "reshuffle" for e in state.log)
    state.check_invariants()


def test_first_call_before_the_draw_is_the_seeded_lottery():
    winners = set()
    for seed in range(12):
        state = table(players=4, seed=seed)
        assert state.queue == [1, 2, 3]
        play(state, "buy", "pass", "buy")
        assert (state.phase, state.to_act) == ("draw", 0)
        winners |= {seat for seat in (1, 3) if state.buys[seat]}
        assert sum(state.buys) == 1 and state.buys[2] == 0
        assert "Bea and Dee all ask to buy" in state.narrate()
    assert winners == {1, 3}


def test_nearest_priority_before_the_draw_gives_the_card_to_the_first_who_buys():
    state = table(STANDARD_BEFORE, players=4, upcard="7H")
    assert state.phase == "buy" and state.queue == [1, 2, 3]
    play(state, "pass", "buy")
    assert state.buys == [0, 0, 1, 0]  # seat 3 was not asked
    assert (state.phase, state.to_act) == ("draw", 0)


def test_a_call_window_comes_before_the_next_turns_buy_window():
    rules = dataclasses.replace(STANDARD_BEFORE, discard_call="rummy")
    hands = {0: "8S 8H 8D 9S 9H 9D 8C 3D 4H KC"}
    state = table(rules, hands=hands, stock="5S")
    play(state, "pass", "pass", "draw stock", "lay down 8S 8H 8D | 9S 9H 9D", "discard 8C")
    # The 8♣ fits the set of 8s: first the rummy call, then seat 1's turn and its window.
    assert (state.phase, state.to_act) == ("call", 1)
    play(state, "pass", "pass")
    assert (state.phase, state.current, state.queue) == ("buy", 1, [2, 0])
    assert state.view(2).offer == Card.parse("8C") and state.view(2).offered_by == 0


def test_no_buying_means_no_window_before_the_draw():
    rules = dataclasses.replace(FAMILY, buying=False)
    state = table(rules)
    assert (state.phase, state.to_act) == ("draw", 0)


def test_other_presets_keep_the_window_after_the_decline():
    for name in ("standard", "pagat", "wikipedia", "bga"):
        state = Game(name, 4, seed=3).new_state()
        assert state.phase == "draw" and state.to_act == state.current
        state.apply("draw stock")
        assert state.phase == "buy" and state.view(state.to_act).buy_window == "after_decline"


# ------------------------------------------------------------------------------------ saves


def test_save_and_load_with_the_option():
    state = table(hands={0: "2C 3C 4C 9D 9H JS QS"})
    play(state, "pass", "pass", "draw stock", "discard 9D", "buy")  # mid-window
    text = state.save()
    assert json.loads(text)["rules"]["buy_timing"] == "before_draw"
    again = load(text)
    assert again.rules == FAMILY and again.snapshot() == state.snapshot()
    assert (again.phase, again.to_act, again.queue, again.requests) == ("buy", 0, [0], [2])
    again.apply("pass")
    state.apply("pass")
    assert again.snapshot() == state.snapshot() and again.log == state.log
    # Dropping the option replays under the default window, which the actions do not fit.
    data = json.loads(text)
    del data["rules"]["buy_timing"]
    with pytest.raises(SaveFileError, match="action 0 .* recorded for seat 1"):
        load(json.dumps(data))
    data["rules"]["buy_timing"] = "at tea time"
    with pytest.raises(SaveFileError, match="buy_timing must be one of"):
        load(json.dumps(data))


def test_saves_without_the_option_load_with_the_default():
    # A save written before the option existed has no buy_timing: the window after the
    # decline, which is what that rummykit played. Such games still save that way.
    state = table(AFTER_DECLINE)
    play(state, "draw stock", "buy", "pass")
    data = json.loads(state.save())
    assert "buy_timing" not in data["rules"]
    again = load(state.save())
    assert again.rules.buy_timing == "after_decline" and again.snapshot() == state.snapshot()


# ------------------------------------------------------------------------------------ random play


def _check_windows(state: GameState) -> None:
    """Under before_draw: every buy comes before the draw of the seat it names, at most
    one per turn, and nothing is bought between a decline and the stock draw."""
    expecting = None  # the seat a before-draw buy named, until it draws
    previous = None
    for event in state.log:
        if event.kind == "buy":
            assert event.details.drawer is not None and expecting is None, (
                "a second buy in one turn"
            )
            assert previous is None or previous.kind != "decline", "a buy after a decline"
            expecting = event.details.drawer
        elif event.kind in ("decline", "take discard"):
            assert expecting in (None, event.seat), "the buy named another seat"
            expecting = None
        elif event.kind == "round end":
            expecting = None
        previous = event


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("rules", [FAMILY, STANDARD_BEFORE], ids=lambda r: r.name)
def test_random_play_before_the_draw_keeps_every_invariant(rules, players, bot):
    # play_checked checks the invariants after every action, probes listed and unlisted
    # actions, and at the end save/load and replay from the seed.
    rng = random.Random(f"buy timing-{rules.name}-{players}-{bot}")
    for start in sorted(rng.sample(range(1, 8), 3)):
        game = Game(rules, players, seed=rng.getrandbits(32), **LIMITS)
        bots = [BOTS[bot](seed=rng.getrandbits(32)) for _ in range(players)]
        final = play_checked(game, bots, rng=rng, round=start, probe_every=8, probe_size=4)
        assert final.is_over
        _check_windows(final)
        assert max(final.buys) <= (rules.buy_limit or 10**6)


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("players", range(3, 7))
def test_random_play_before_the_draw_with_calls_and_floating(players, bot):
    # wikipedia's Liverpool call, floating and last-round rules, buying before the draw:
    # a call window comes between a discard and the next turn's buy window.
    rng = random.Random(f"buy timing-wikipedia-{players}-{bot}")
    for start in sorted(rng.sample(range(1, 8), 3)):
        game = Game(WIKIPEDIA_BEFORE, players, seed=rng.getrandbits(32), **LIMITS)
        bots = [BOTS[bot](seed=rng.getrandbits(32)) for _ in range(players)]
        final = play_checked(game, bots, rng=rng, round=start, probe_every=8, probe_size=4)
        assert final.is_over
        _check_windows(final)


def test_random_games_buy_before_the_draw():
    rng = random.Random(21)
    buys = 0
    for players in range(2, 7):
        game = Game(FAMILY, players, seed=rng.getrandbits(32), **LIMITS)
        bots = [GreedyBot(seed=rng.getrandbits(32)) for _ in range(players)]
        final = play_checked(game, bots, rng=rng, round=1, probe_every=50, probe_size=2)
        _check_windows(final)
        buys += sum(1 for e in final.log if e.kind == "buy")
    assert buys > 0


# ------------------------------------------------------------------------------------ bots


def test_bots_decide_in_the_window_before_the_draw_by_their_buy_policy():
    hands = {1: "7S 7D 2C 4D 9H JS KC", 2: "2S 3S 4D 9C JD QD KH"}
    state = table(hands=hands)
    assert state.to_act == 1
    view = state.view(1)
    assert GreedyBot(seed=1).choose(view) == Buy()  # the 7♥ makes a set of 7s
    assert BuyerBot("never").choose(view) == Pass()
    state.apply("pass")
    view = state.view(2)
    assert view.buy_window == "before_draw"
    assert GreedyBot(seed=1).choose(view) == Pass()  # the 7♥ helps nothing
    assert BuyerBot("always").choose(view) == Buy()


# ------------------------------------------------------------------------------------ widget


def test_play_widget_asks_before_the_bot_draws():
    from rummykit.widgets import PlayWidget

    for seed in range(40):
        widget = PlayWidget("family", bots=2, seed=seed)
        state = widget.state
        if state.phase == "buy" and state.to_act == widget.seat and state.current != 0:
            break
    else:
        pytest.fail("no seed in 0..39 opens a before-draw window for the human first")
    view = widget.view
    drawer = state.names[state.current]
    assert f"is on offer before {drawer} draws: buy it" in widget.status_html.value
    size = len(view.hand)
    offer = view.offer
    widget.buy_button.click()
    assert len(widget.state.hand(0)) == size + 1 + FAMILY.buy_penalty_cards
    assert widget.state.buys[0] == 1
    assert f"Before {drawer} draws, Ann buys the {offer}" in widget.log_html.value


# ------------------------------------------------------------------------------------ tables


def test_completion_plays_family_with_either_timing():
    records = {}
    for rules in (FAMILY, AFTER_DECLINE):
        cell = Cell(rules, players=3, round=1, buy="always")
        records[rules.buy_timing] = [play_round(cell, seed=5, index=i) for i in range(6)]
        for record in records[rules.buy_timing]:
            assert max(record.buys) <= 3 and sum(record.seat_turns) == record.turns
    assert records["before_draw"] != records["after_decline"]
