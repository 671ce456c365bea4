"""The outs and the discard advice in PlayWidget and DealWidget (issue 19, item 5).

The widgets must show the numbers of :func:`rummykit.outs` and
:func:`rummykit.discard_advice` for the position on screen, follow the position as it
changes, count off the main thread, and show a refused input's error changing nothing.
"""

from __future__ import annotations

import html
import re
import threading

import pytest

from rummykit import RuleSet, discard_advice, outs, parse_cards

pytest.importorskip("ipywidgets")

from rummykit.chance import chance_text  # noqa: E402
from rummykit.widgets import DealWidget, PlayWidget  # noqa: E402
from rummykit.widgets import hints as hint_module  # noqa: E402
from rummykit.widgets.hints import OutsPane  # noqa: E402

STANDARD = RuleSet.preset("standard")


def _shoe(view):
    decks = view.rules.decks_for(len(view.names))
    return decks, view.rules.jokers_for(decks)


def _seen(widget):
    """What the seat knows is out of the stock, built here from the whole state: the
    melds, every card of the discard pile, and the cards other seats took from the pile
    (the discard, a buy, a call) that they still hold."""
    state, seat = widget.state, widget.seat
    cards = [card for meld in state.melds for card in meld.cards] + list(state.discards)
    taken = {
        event.cards[0]
        for event in state.log
        if event.round == state.round and event.kind in ("take discard", "buy", "call")
    }
    for other, hand in enumerate(state.hands):
        if other != seat:
            cards += [card for card in hand if card in taken]
    return cards


def _rows(table: str) -> list[list[str]]:
    """The advice table's rows as the texts of their cells."""
    rows = re.findall(r"<tr class='rk-advice-row'.*?</tr>", table)
    return [
        [html.unescape(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        for row in rows
    ]


def _drawn_widget(**options) -> PlayWidget:
    widget = PlayWidget(bots=2, seed=5, hint=True, background=False, **options)
    widget.draw_button.click()
    assert widget.view.phase == "play"
    return widget


def test_before_the_draw_the_hint_shows_the_outs_of_the_hand():
    widget = PlayWidget(bots=2, seed=5, hint=True, background=False)
    view = widget.view
    assert view.phase == "draw" and view.discard_top is not None
    decks, jokers = _shoe(view)
    want = outs(view.hand, view.contract, STANDARD, decks=decks, jokers=jokers, seen=_seen(widget))
    shown = widget.outs_pane.result
    assert shown == want and want.total > 0
    text = html.unescape(widget.outs_pane.html.value)
    assert f"Outs: {want.total} of the {want.unseen} unseen cards" in text
    assert chance_text(want.p_next) in text
    for code, copies in want.cards.items():
        face = str(parse_cards(code)[0])
        assert f"{face} ×{copies}" in text
    # The unseen cards: the shoe less the hand and the up-card.
    assert want.unseen == 52 * decks + jokers - len(view.hand) - 1


def test_after_the_draw_the_hint_shows_the_advice_for_every_discard():
    widget = _drawn_widget()
    view = widget.view
    want = discard_advice(view)
    assert widget.outs_pane.result == want
    decks, jokers = _shoe(view)
    # The same numbers as discard_advice of the hand with the shoe and seen cards spelt out.
    spelt = discard_advice(
        view.hand, view.contract, STANDARD, decks=decks, jokers=jokers, seen=_seen(widget)
    )
    assert spelt == want
    rows = _rows(widget.outs_pane.html.value)
    assert len(rows) == len({card.code for card in view.hand}) == len(want)
    best = (want[0].distance, want[0].outs.total, want[0].p_two)
    for row, option in zip(rows, want, strict=True):
        card, distance, total, next_card, two, marks = row
        assert card == str(parse_cards(option.discard)[0])
        assert (int(distance), int(total)) == (option.distance, option.outs.total)
        assert (next_card, two) == (chance_text(option.p_next), chance_text(option.p_two))
        assert ("best" in marks) == ((option.distance, option.outs.total, option.p_two) == best)
    assert "best" in rows[0][-1] and "selected" not in widget.outs_pane.html.value
    for option in want:  # the exact fractions are there too, on hover
        assert f"title='exactly {option.p_next}'" in widget.outs_pane.html.value


def test_selecting_a_card_marks_its_row_without_counting_again(monkeypatch):
    widget = _drawn_widget()
    advice = widget.outs_pane.result
    calls = []
    monkeypatch.setattr(hint_module, "discard_advice", lambda view: calls.append(view))
    card = widget.hand.cards[-1]
    widget.hand.select([card])
    assert calls == [] and widget.outs_pane.result is advice
    marked = [row[0] for row in _rows(widget.outs_pane.html.value) if "selected" in row[-1]]
    assert marked == [str(card)]
    # The sentence hint is still there, beside the table.
    assert f"If you discard the {card}" in widget.hint_html.value


def test_the_hint_follows_the_play_and_goes_with_the_checkbox():
    widget = _drawn_widget()
    widget.hint.value = False
    assert widget.outs_pane.html.value == "" and widget.outs_pane.result is None
    widget.hint.value = True
    assert widget.outs_pane.result == discard_advice(widget.view)
    before = list(widget.view.hand)
    widget.hand.select([widget.hand.cards[0]])
    widget.discard_button.click()
    # The bots have played; the human is to draw again with a new hand: its outs.
    view = widget.view
    assert view.phase in ("draw", "buy") and view.to_act == widget.seat
    assert list(view.hand) != before
    decks, jokers = _shoe(view)
    want = outs(view.hand, view.contract, STANDARD, decks=decks, jokers=jokers, seen=_seen(widget))
    assert widget.outs_pane.result == want


def test_a_refused_click_leaves_the_outs_as_they_were():
    widget = PlayWidget(bots=2, seed=5, hint=True, background=False)
    result, shown = widget.outs_pane.result, widget.outs_pane.html.value
    history = list(widget.state.history)
    widget.hand.buttons[0].value = True
    widget.discard_button.click()  # before the draw: the engine refuses it
    assert 'role="alert"' in widget.message_html.value
    assert widget.state.history == history
    assert widget.outs_pane.result == result and widget.outs_pane.html.value == shown


def test_no_outs_once_laid_down():
    from rummykit.engine.game import Game

    game = Game("standard", players=2, seed=3)
    state = game.new_state(
        round=3, dealer=1, hands=["3S 4S JK 6S 9H 10H JH QH 5S 2C", None], stock="KC", upcard="7D"
    )
    widget = PlayWidget(bots=1, seed=3, hint=True, background=False)
    assert widget.load(state.save())
    # Before the draw the hand holds the contract: the outs say so, and no "lay it down"
    # (a hand is laid down in the play phase only).
    assert "none needed" in widget.outs_pane.html.value
    assert "lay it down" not in widget.hint_html.value
    widget.draw_button.click()
    # Holding the contract after the draw: no table of "0 away, 0 outs, 100%" discards,
    # but the advice to lay it down.
    assert all(option.distance == 0 for option in discard_advice(widget.view))
    assert widget.outs_pane.result is None and widget.outs_pane.html.value == ""
    assert "You hold your contract, 2 runs: lay it down" in widget.hint_html.value
    widget.hand.select([widget.hand.cards[0]])
    assert "you will still hold your contract" in widget.hint_html.value
    assert widget.auto_lay_down()
    assert widget.view.laid_down[0]
    assert widget.outs_pane.result is None and widget.outs_pane.html.value == ""


def test_the_advice_is_counted_off_the_main_thread(monkeypatch):
    """The click returns while the count is still running, in another thread; the result
    replaces "Counting" when it is done."""
    started, release = threading.Event(), threading.Event()
    threads = []

    def slow_advice(view):
        threads.append(threading.current_thread())
        started.set()
        assert release.wait(30)
        return discard_advice(view)

    monkeypatch.setattr(hint_module, "discard_advice", slow_advice)
    widget = PlayWidget(bots=2, seed=5, hint=True)
    widget.wait(30)
    widget.draw_button.click()  # returns with the count blocked in its thread
    assert "Counting the outs of every discard" in widget.outs_pane.html.value
    assert widget.outs_pane.result is None
    assert started.wait(30) and threads[0] is not threading.main_thread()
    release.set()
    widget.wait(30)
    assert widget.outs_pane.result == discard_advice(widget.view)
    assert "rk-advice" in widget.outs_pane.html.value


def test_a_position_left_behind_is_never_shown(monkeypatch):
    hands = [parse_cards("8S 8H 8D JH JS 2C 5D"), parse_cards("8S 8H 8D JH JS JD 2C")]
    first_started, release = threading.Event(), threading.Event()

    def slow_outs(hand, *args, **kwargs):
        if list(hand) == list(hands[0]):
            first_started.set()
            assert release.wait(30)
        return outs(hand, *args, **kwargs)

    monkeypatch.setattr(hint_module, "outs", slow_outs)
    pane = OutsPane()
    contract = STANDARD.contracts[0]
    pane.show_outs(hands[0], contract, STANDARD, decks=2, jokers=4)
    assert first_started.wait(30)
    pane.show_outs(hands[1], contract, STANDARD, decks=2, jokers=4)
    release.set()
    pane.wait(30)
    assert pane.result == outs(hands[1], contract, STANDARD, decks=2, jokers=4)
    assert pane.result.distance == 0 and "the hand holds 2 sets" in pane.html.value
    # The first is kept: asked again, it shows at once.
    pane.show_outs(hands[0], contract, STANDARD, decks=2, jokers=4)
    assert pane.result.total == 10


@pytest.mark.parametrize("background", [False, True])
def test_a_refused_hand_shows_the_rules_error_and_changes_nothing(background):
    pane = OutsPane(background=background)
    contract = STANDARD.contracts[0]
    good = parse_cards("8S 8H 8D JH JS 2C 5D")
    pane.show_outs(good, contract, STANDARD, decks=2, jokers=4)
    pane.wait(30)
    result = pane.result
    assert result.total == 10
    pane.show_outs(parse_cards("8S 8S 8S JH"), contract, STANDARD, decks=2, jokers=4)
    pane.wait(30)
    assert pane.result is result
    assert pane.error == (
        "the hand holds 3 copies of 8S, more than a shoe of 2 deck(s) and 4 joker(s) has (2)"
    )
    assert 'role="alert"' in pane.html.value and "3 copies of 8S" in pane.html.value
    pane.show_outs(good, contract, STANDARD, decks=2, jokers=4)
    assert pane.error is None and pane.result is result and "Outs: 10" in pane.html.value


def _want(widget: DealWidget):
    return outs(
        widget.hand,
        widget.contract,
        widget.rules,
        decks=widget.decks.value,
        jokers=widget.jokers.value,
    )


def test_deal_shows_the_outs_of_the_dealt_hand_and_follows_re_deals():
    widget = DealWidget(seed=3, odds=False, background=False)
    assert widget.outs is None and widget.outs_pane.html.value == ""
    widget.deal_button.click()
    first = widget.outs
    assert first == _want(widget) and first.distance == widget.distance
    assert first.unseen == 52 * widget.decks.value + widget.jokers.value - len(widget.hand)
    text = html.unescape(widget.outs_pane.html.value)
    assert chance_text(first.p_next) in text
    assert 'aria-label="5 out faces"' in text  # 6♣ 6♦ 6♥ 6♠ and the joker
    widget.four_colour.value = True  # drawn again, not counted again
    assert widget.outs is first and "#1b7837" in widget.outs_pane.html.value
    assert "#1b7837" not in text
    hands = set()
    for _ in range(4):
        widget.deal_button.click()
        hands.add(tuple(card.code for card in widget.hand))
        assert widget.outs == _want(widget) and widget.outs.distance == widget.distance
    assert len(hands) == 4


@pytest.mark.parametrize("round", [2, 5, 6, 7])
def test_deal_outs_follow_the_contract_and_the_shoe(round):
    widget = DealWidget(seed=11, odds=False, background=False)
    widget.deal_button.click()
    widget.round.value = round
    assert widget.contract == STANDARD.contracts[round - 1]
    assert len(widget.hand) == STANDARD.deal_sizes[round - 1]
    assert widget.outs == _want(widget) and widget.outs.distance == widget.distance
    widget.decks.value = 3  # the jokers follow the decks
    assert widget.jokers.value == STANDARD.jokers_for(3)
    assert widget.outs == _want(widget) and widget.outs.unseen == 156 + 6 - len(widget.hand)


def test_deal_outs_in_the_background_replace_counting():
    widget = DealWidget(seed=4, round=6, odds=False)
    widget.deal_button.click()
    widget.wait(60)
    assert widget.outs == _want(widget)
    assert "Outs:" in widget.outs_pane.html.value


def test_deal_a_value_out_of_range_shows_the_error_and_keeps_the_outs():
    widget = DealWidget(seed=3, odds=False, background=False)
    widget.deal_button.click()
    hand, result = list(widget.hand), widget.outs
    widget.decks.value = 9
    assert "Decks must be a whole number from 1 to 4, not 9" in widget.status_html.value
    assert 'role="alert"' in widget.status_html.value
    assert list(widget.hand) == hand and widget.outs is result
    assert widget.outs_pane.html.value == ""  # no outs of a shoe that is not there
    widget.decks.value = 2
    assert widget.jokers.value == 4 and list(widget.hand) == hand
    assert widget.outs == result and "Outs:" in widget.outs_pane.html.value


def test_deal_outs_follow_the_preset():
    widget = DealWidget(seed=2, round=2, odds=False, background=False)
    widget.deal_button.click()
    for preset in RuleSet.presets():
        widget.preset.value = preset
        assert widget.rules.name == preset and len(widget.hand) == widget.hand_size
        assert widget.outs == _want(widget) and widget.outs.distance == widget.distance
        assert widget.outs.unseen == 52 * widget.decks.value + widget.jokers.value - len(
            widget.hand
        )
