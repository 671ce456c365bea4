"""The phase handlers: the draw, buy, play and call phases, the deal and the end of a turn
and of a round, as plain functions of a :class:`~rummykit.engine.game.GameState`.

A handler takes the state, the action and (if the caller built it) the acting seat's
:class:`~rummykit.engine.legal.PlayerView`; it checks the action against the rules without
changing anything (raising :class:`~rummykit.errors.IllegalActionError` with the reason)
and returns a ``commit()`` that plays it. :meth:`GameState.apply
<rummykit.engine.game.GameState.apply>` finds the handler of the phase and the action, and
calls the commit once every check passed (:meth:`~rummykit.engine.game.GameState.why_not` calls
only the checks). The commits change the state's attributes and log its events; the
whole buy window (opened on a decline or before the draw, asked seat by seat, closed)
is here.

>>> from rummykit.engine.game import Game
>>> state = Game(players=3, seed=5).new_state()
>>> commit = on_draw_stock(state, DrawStock())  # checked; nothing changed yet
>>> state.phase, len(state.log)
('draw', 4)
>>> state.apply("draw stock")  # the same handler's commit, and the action recorded
>>> state.phase, state.log[-1].kind
('buy', 'decline')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rummykit.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    InvalidLayDown,
    LayDown,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.engine.cards import Card, Hand
from rummykit.engine.events import (
    BuyDetails,
    BuyLimitDetails,
    BuyLotteryDetails,
    CallDetails,
    CutDetails,
    Event,
    EventDetails,
    GameEndDetails,
    ReshuffleDetails,
    RoundEndDetails,
    RoundResult,
)
from rummykit.engine.legal import (
    PileMove,
    PlayerView,
    can_finish,
    discardable,
    fits_table,
    joker_to_play,
    lay_off_end,
    legal_actions,
    match_cards,
    meld_card_key,
    rank_major_key,
    try_swap,
    why_cannot_finish,
    why_missing,
    why_not_discard,
    why_unplayed_joker,
    without_cards,
)
from rummykit.engine.melds import (
    Meld,
    check_lay_down,
    lay_off,
    lay_off_options,
)
from rummykit.errors import (
    ArgumentError,
    IllegalActionError,
    IllegalMeldError,
    Refusal,
)

if TYPE_CHECKING:
    from rummykit.engine.game import GameState

__all__ = [
    "Commit",
    "buy_order",
    "call_order",
    "deal",
    "on_buy",
    "on_call",
    "on_discard",
    "on_draw_stock",
    "on_end_turn",
    "on_invalid_lay_down",
    "on_lay_down",
    "on_lay_off",
    "on_pass_buy",
    "on_pass_call",
    "on_swap",
    "on_take_discard",
]

#: What a handler returns: the function that plays the checked action.
Commit = Callable[[], None]


# -- the deal and the turns ------------------------------------------------------------


def deal(state: GameState, scripted: dict | None = None) -> None:
    """Deal round ``state.round_index + 1``: a fresh table, the cut (under a
    ``perfect_cut_bonus``), the hands, the up-card, and the first turn (its buy window
    under ``buy_timing="before_draw"``). ``scripted`` is the set-up of
    :meth:`Game.new_state <rummykit.engine.game.Game.new_state>` (scripted hands, up-card, stock
    and cut) for the first round; later rounds are dealt from the seed alone."""
    n, rules, rng = state.players, state.rules, state.rng
    size = rules.deal_sizes[state.round_index]
    state.hands = [[] for _ in range(n)]
    state.melds = []
    state.owners = []
    state.laid_down = [False] * n
    state.buys = [0] * n
    state.penalties = [0] * n
    state.traded = set()
    state.reshuffles = 0
    state.turns = 0
    state.last_turn = [-1] * n
    state.taken = None
    state.pending = []
    state.offer = None
    state.offered_by = None
    state.queue = []
    state.requests = []
    state.went_out = None
    state.top_by = None
    r = state.round_index + 1
    order = [(state.dealer + 1 + i) % n for i in range(n)]
    cut = None if scripted is None else scripted.get("cut")
    if rules.perfect_cut_bonus:
        shoe_size = state.game.shoe.size
        if cut is None:
            cut = rng.randint(1, shoe_size - 1)
        cutter = (state.dealer - 1) % n
        perfect = cut == n * size + 1
        _event(state, "cut", cutter, details=CutDetails(cut, perfect))
        if perfect:
            state.penalties[cutter] -= rules.perfect_cut_bonus
    pool = list(state.game.shoe.cards)
    script_hands = [None] * n
    script_up = script_stock = None
    if scripted is not None:
        hands = scripted.get("hands")
        if hands is not None:
            if len(hands) != n:
                raise ArgumentError(
                    f"hands must give one entry (or None) per seat, got {len(hands)}"
                )
            script_hands = [
                None if h is None else _take(pool, h, f"the hand of seat {seat}")
                for seat, h in enumerate(hands)
            ]
            for seat, hand in enumerate(script_hands):
                if hand is not None and len(hand) != size:
                    raise ArgumentError(
                        f"round {r} deals {size} cards, but the hand scripted for seat "
                        f"{seat} has {len(hand)}"
                    )
        if scripted.get("upcard") is not None:
            script_up = _take(pool, [scripted["upcard"]], "the up-card")[0]
        if scripted.get("stock") is not None:
            script_stock = _take(pool, scripted["stock"], "the stock")
    rng.shuffle(pool)
    for _ in range(size):
        for seat in order:
            if script_hands[seat] is None:
                state.hands[seat].append(pool.pop())
    for seat in range(n):
        if script_hands[seat] is not None:
            state.hands[seat] = list(script_hands[seat])
    upcard = script_up if script_up is not None else pool.pop()
    state.stock = pool + list(reversed(script_stock or []))
    state.discards = [upcard]
    state.pile_moves = (PileMove("upcard", None, upcard),)
    for seat in order:
        _event(state, "deal", seat, tuple(state.hands[seat]))
    _event(state, "upcard", None, (upcard,))
    state.current = order[0]
    state.to_act = state.current
    state.phase = "draw"
    _start_turn(state)


def _take(pool: list[Card], codes: Iterable[str], where: str) -> list[Card]:
    """Remove the lowest-deck copy of each code from ``pool`` (scripted deals); ``where``
    names the part of the deal for an error."""
    out = []
    for code in codes:
        want = Card.parse(code)
        copies = [c for c in pool if c.index == want.index]
        if not copies:
            raise ArgumentError(
                f"no {want.symbol} is left in the shoe for {where} in the scripted deal"
            )
        card = min(copies, key=lambda c: c.deck)
        pool.remove(card)
        out.append(card)
    return out


def _start_turn(state: GameState) -> None:
    state.turns += 1
    state.last_turn[state.current] = state.turns
    state.taken = None
    state.pending = []
    state.phase = "draw"
    state.to_act = state.current
    if state.rules.buy_timing == "before_draw":
        _open_buy_window(state)


def _event(
    state: GameState,
    kind: str,
    seat: int | None = None,
    cards: tuple[Card, ...] = (),
    *,
    meld: int | None = None,
    melds: tuple[Meld, ...] = (),
    details: EventDetails | None = None,
) -> None:
    """Log a ``kind`` event of this round."""
    event = object.__new__(Event)
    # Events are logged for every action: fill the frozen dataclass's fields at once
    # (as GameState.view does) rather than through its __init__ and its check.
    event.__dict__.update(
        round=state.round_index + 1,
        kind=kind,
        seat=seat,
        cards=cards,
        meld=meld,
        melds=melds,
        details=details,
    )
    state.log.append(event)


def _pile_move(state: GameState, kind: str, seat: int | None, card: Card | None) -> None:
    # A new tuple per move (a few a turn), so each view shares it without a copy.
    state.pile_moves = (*state.pile_moves, PileMove(kind, seat, card))


# -- the draw phase --------------------------------------------------------------------


def on_draw_stock(state: GameState, action: DrawStock, view: PlayerView | None = None) -> Commit:
    """Draw from the stock, declining the top discard: the buy window opens on it (after a
    decline), else the player draws."""

    def commit() -> None:
        seat = state.current
        top = state.discards[-1] if state.discards else None
        _event(state, "decline", seat, () if top is None else (top,))
        if state.rules.buy_timing == "after_decline" and _open_buy_window(state):
            return
        _finish_draw(state)

    return commit


def on_take_discard(
    state: GameState, action: TakeDiscard, view: PlayerView | None = None
) -> Commit:
    """Take the top discard (a floating player only to lay it off)."""
    if not state.discards:
        raise IllegalActionError.because(
            "empty discard pile", "the discard pile is empty: draw from the stock"
        )
    card = state.discards[-1]
    if not state.hands[state.current] and not fits_table(
        view if view is not None else state.view(state.to_act), card
    ):
        raise IllegalActionError.because(
            "floating",
            "a floating player may take the discard only to lay it off, and "
            "{card} fits no meld (a card taken from the pile cannot be discarded "
            "the same turn)",
            card=card.symbol,
        )

    def commit() -> None:
        seat = state.current
        state.discards.pop()
        state.top_by = None
        _pile_move(state, "take", seat, card)
        state.hands[seat].append(card)
        state.taken = card
        _event(state, "take discard", seat, (card,))
        state.phase = "play"

    return commit


def _finish_draw(state: GameState) -> None:
    """The player to draw gets the top stock card (after any buy), or the round ends."""
    seat = state.current
    card = _pop_stock(state)
    state.offer = state.offered_by = None
    state.queue, state.requests = [], []
    if card is None:
        _event(state, "piles exhausted", seat)
        _end_round(state)
        return
    state.hands[seat].append(card)
    _event(state, "draw stock", seat, (card,))
    state.phase = "play"
    state.to_act = seat


def _pop_stock(state: GameState) -> Card | None:
    limit = state.game.max_reshuffles
    if (
        not state.stock
        and state.rules.reshuffle_discards
        and len(state.discards) > 1
        and (limit is None or state.reshuffles < limit)
    ):
        top = state.discards.pop()
        state.stock = state.discards
        state.rng.shuffle(state.stock)
        state.discards = [top]
        _pile_move(state, "reshuffle", None, None)
        state.reshuffles += 1
        _event(state, "reshuffle", None, (), details=ReshuffleDetails(len(state.stock)))
    return state.stock.pop() if state.stock else None


# -- the buy window: opened on a decline (or before the draw), asked seat by seat, closed


def _open_buy_window(state: GameState) -> bool:
    """Offer the top discard to those who may buy it (phase ``buy``); False if nobody may."""
    top = state.discards[-1] if state.discards else None
    if top is None or not state.rules.buying:
        return False
    _note_buy_limits(state, top)
    # No window when the stock cannot pay the penalty cards.
    queue = buy_order(state) if len(state.stock) >= state.rules.buy_penalty_cards else []
    if not queue:
        return False
    state.offer, state.offered_by = top, state.top_by
    state.queue, state.requests = queue, []
    state.phase = "buy"
    state.to_act = queue[0]
    return True


def _note_buy_limits(state: GameState, top: Card) -> None:
    """Log a ``"buy limit"`` event for each seat a buy window skips for its buy limit."""
    limit = state.buy_limit()
    if limit is None or len(state.stock) < state.rules.buy_penalty_cards:
        return  # no limit, or no window for anyone (the stock cannot pay the penalty)
    n = state.players
    for seat in ((state.current + i) % n for i in range(1, n)):
        if state.buys[seat] >= limit:
            _event(
                state, "buy limit", seat, (top,), details=BuyLimitDetails(state.buys[seat], limit)
            )


def buy_order(state: GameState) -> list[int]:
    """The seats that may buy the top discard, in the order they are asked, stock apart
    (the buy window's one order: :meth:`GameState.from_view
    <rummykit.engine.game.GameState.from_view>` reads it too)."""
    n, rules = state.players, state.rules
    limit = state.buy_limit()
    seats = [(state.current + i) % n for i in range(1, n)]
    seats = [s for s in seats if limit is None or state.buys[s] < limit]
    if rules.buy_priority == "longest_waiting":
        # Oldest last turn first; seats tie (no turn yet this round) in clockwise order.
        seats.sort(key=lambda s: state.last_turn[s])
    return seats


def on_buy(state: GameState, action: Buy, view: PlayerView | None = None) -> Commit:
    """Buy the offered discard (under ``first_call``: ask to, and the window goes on)."""

    def commit() -> None:
        seat = state.to_act
        if state.rules.buy_priority == "first_call":
            state.requests.append(seat)
            _next_buyer(state)
            return
        _execute_buy(state, seat)

    return commit


def on_pass_buy(state: GameState, action: Pass, view: PlayerView | None = None) -> Commit:
    """Pass on the offered discard: the next seat is asked, or the window closes."""

    def commit() -> None:
        _event(state, "pass buy", state.to_act)
        _next_buyer(state)

    return commit


def _next_buyer(state: GameState) -> None:
    state.queue.pop(0)
    if state.queue:
        state.to_act = state.queue[0]
        return
    if state.requests:
        # "First to call": who calls first is chance, drawn from the seed.
        winner = state.requests[0] if len(state.requests) == 1 else state.rng.choice(state.requests)
        _event(state, "buy lottery", winner, (), details=BuyLotteryDetails(tuple(state.requests)))
        _execute_buy(state, winner)
        return
    _close_buy_window(state)


def _execute_buy(state: GameState, seat: int) -> None:
    card = state.discards.pop()
    state.top_by = None
    _pile_move(state, "buy", seat, card)
    penalty = [state.stock.pop() for _ in range(state.rules.buy_penalty_cards)]
    state.hands[seat].extend([card, *penalty])
    state.buys[seat] += 1
    drawer = state.current if state.rules.buy_timing == "before_draw" else None
    _event(state, "buy", seat, (card, *penalty), details=BuyDetails(drawer))
    _close_buy_window(state)


def _close_buy_window(state: GameState) -> None:
    """After the buy window: the player to draw draws (after a decline) or chooses."""
    if state.rules.buy_timing == "after_decline":
        _finish_draw(state)
        return
    state.offer = state.offered_by = None
    state.queue, state.requests = [], []
    state.phase = "draw"
    state.to_act = state.current


# -- the play phase --------------------------------------------------------------------


def on_lay_down(state: GameState, action: LayDown, view: PlayerView | None = None) -> Commit:
    """Lay the contract down, any legal arrangement of the hand's cards."""
    if view is None:
        view = state.view(state.to_act)
    seat = state.current
    if state.laid_down[seat]:
        raise IllegalActionError.because(
            "laid down already",
            "you have already laid down this round: after laying down you may only lay off",
        )
    cards = _cards_for_melds(state, view, action.melds)
    try:
        melds = check_lay_down([list(g) for g in cards], state.contract(seat), state.rules)
    except IllegalMeldError as error:
        raise IllegalActionError.because(
            "contract", "cannot lay down: {reason}", reason=str(error)
        ) from None
    rest = without_cards(state.hands[seat], [c for g in cards for c in g])
    if not can_finish(view, rest, state.pending):
        raise IllegalActionError.of(why_cannot_finish(view, rest))

    def commit() -> None:
        state.hands[seat] = rest
        start = len(state.melds)
        state.melds.extend(melds)
        state.owners.extend([seat] * len(melds))
        state.laid_down[seat] = True
        state.pending = [j for j in state.pending if j in rest]
        _event(state, "lay down", seat, meld=start, melds=tuple(melds))
        _after_play(state, seat)

    return commit


def on_invalid_lay_down(
    state: GameState, action: InvalidLayDown, view: PlayerView | None = None
) -> Commit:
    """Lay down melds that break a rule, for the rule set's penalty."""
    if view is None:
        view = state.view(state.to_act)
    seat = state.current
    penalty = state.rules.invalid_lay_down_penalty
    if not penalty:
        raise IllegalActionError.because(
            "no invalid lay-down",
            "{rules} has no penalty for an invalid lay-down: a lay-down that "
            "breaks a rule is simply refused",
            rules=state.rules.name,
        )
    if state.laid_down[seat]:
        raise IllegalActionError.because(
            "laid down already", "you have already laid down this round"
        )
    cards = _cards_for_melds(state, view, action.melds)
    try:
        check_lay_down([list(g) for g in cards], state.contract(seat), state.rules)
    except IllegalMeldError:
        pass
    else:
        raise IllegalActionError.because(
            "legal lay-down", "these melds are a legal lay-down: use {action}", action="lay down"
        )

    def commit() -> None:
        state.penalties[seat] += penalty
        _event(state, "invalid lay down", seat, tuple(c for g in cards for c in g))

    return commit


def _cards_for_melds(state: GameState, view: PlayerView, groups) -> list[list[Card]]:
    seat = state.current
    wanted = [card for group in groups for card in group]
    found = match_cards(
        state.hands[seat], wanted, meld_card_key(state.pending, frozenset(state.traded))
    )
    if found is None:
        raise IllegalActionError.because(
            "cards not held",
            "{player} does not hold {missing} (the hand is {hand})",
            player=state.game.names[seat],
            missing=why_missing(state.hands[seat], wanted),
            hand=str(Hand(view.hand)),
        )
    out, i = [], 0
    for group in groups:
        out.append(found[i : i + len(group)])
        i += len(group)
    return out


def on_lay_off(state: GameState, action: LayOff, view: PlayerView | None = None) -> Commit:
    """Lay a card off onto a meld on the table (after laying down)."""
    if view is None:
        view = state.view(state.to_act)
    seat = state.current
    if not state.laid_down[seat]:
        raise IllegalActionError.because(
            "lay down first", "you must lay down your contract before laying off cards onto melds"
        )
    meld = _table_meld(state, action.meld)
    found = match_cards(
        state.hands[seat], [action.card], meld_card_key(state.pending, frozenset(state.traded))
    )
    if found is None:
        raise IllegalActionError.because(
            "card not held",
            "{player} holds no {symbol}",
            player=state.game.names[seat],
            symbol=action.card.symbol,
        )
    card = found[0]
    options = lay_off_options(meld, card, state.rules)
    if not options:
        try:
            lay_off(meld, card, state.rules, end=action.end)
        except IllegalMeldError as error:
            raise IllegalActionError.because(
                "does not fit",
                "cannot lay off {card} onto meld {meld}: {reason}",
                card=card.symbol,
                meld=action.meld,
                reason=str(error),
            ) from None
        raise IllegalActionError.because(
            "does not fit",
            "{card} does not fit meld {meld} ({kind})",
            card=card.symbol,
            meld=action.meld,
            kind=meld.describe(),
        )
    if action.end is None:
        new = options[0]
    else:
        chosen = [m for m in options if lay_off_end(meld, m) == action.end]
        if not chosen:
            raise IllegalActionError.because(
                "does not fit",
                "{card} cannot go at the {end} end of meld {meld} ({kind})",
                card=card.symbol,
                end=action.end,
                meld=action.meld,
                kind=meld.describe(),
            )
        new = chosen[0]
    rest = without_cards(state.hands[seat], [card])
    pending = [j for j in state.pending if j != card]
    if not can_finish(view, rest, pending):
        raise IllegalActionError.of(why_cannot_finish(view, rest))

    def commit() -> None:
        state.hands[seat] = rest
        state.melds[action.meld] = new
        state.pending = pending
        _event(state, "lay off", seat, (card,), meld=action.meld, melds=(new,))
        _after_play(state, seat)

    return commit


def on_swap(state: GameState, action: Swap, view: PlayerView | None = None) -> Commit:
    """Play a natural card in a meld in place of the joker standing for it; take the joker."""
    if view is None:
        view = state.view(state.to_act)
    seat = state.current
    _table_meld(state, action.meld)
    if action.card.is_joker:
        raise IllegalActionError.because(
            "joker swap", "a swap plays a natural card in place of a joker, not a joker"
        )
    found = match_cards(state.hands[seat], [action.card], lambda c: c.deck)
    if found is None:
        raise IllegalActionError.because(
            "card not held",
            "{player} holds no {symbol}",
            player=state.game.names[seat],
            symbol=action.card.symbol,
        )
    card = found[0]
    result = try_swap(view, card, action.meld)
    if isinstance(result, Refusal):
        raise IllegalActionError.because(
            result.rule,
            "cannot swap {card} into meld {meld}: {reason}",
            card=card.symbol,
            meld=action.meld,
            reason=result,
        )
    new, joker = result

    def commit() -> None:
        state.hands[seat] = [*without_cards(state.hands[seat], [card]), joker]
        state.melds[action.meld] = new
        if state.rules.swapped_joker_must_be_played:
            state.pending.append(joker)
        state.traded.add(joker)
        _event(state, "swap", seat, (card, joker), meld=action.meld, melds=(new,))

    return commit


def _table_meld(state: GameState, number: int) -> Meld:
    if not isinstance(number, int) or not 0 <= number < len(state.melds):
        if not state.melds:
            raise IllegalActionError.because(
                "no such meld", "there is no meld {meld}: no meld is on the table yet", meld=number
            )
        raise IllegalActionError.because(
            "no such meld",
            "there is no meld {meld} on the table (melds are numbered {meld_first} to "
            "{meld_last} in the order they were laid)",
            meld=number,
            meld_first=0,
            meld_last=len(state.melds) - 1,
        )
    return state.melds[number]


def _after_play(state: GameState, seat: int) -> None:
    """After a lay-down or lay-off: an empty hand goes out or floats."""
    if state.hands[seat]:
        return
    if state.round_index == state.rules.rounds - 1 and state.rules.last_round_no_discard:
        _event(state, "go out", seat)
        state.went_out = seat
        _end_round(state)
        return
    _event(state, "float", seat)
    _next_turn(state)


def on_discard(state: GameState, action: Discard, view: PlayerView | None = None) -> Commit:
    """Discard a card, ending the turn (or going out, or opening a call window)."""
    if view is None:
        view = state.view(state.to_act)
    seat = state.to_act
    hand = state.hands[seat]
    copies = [c for c in hand if c.index == action.card.index]
    if not copies:
        raise IllegalActionError.because(
            "card not held",
            "{player} holds no {symbol}",
            player=state.game.names[seat],
            symbol=action.card.symbol,
        )
    # The lowest-deck copy that may be discarded (not the card taken from the pile).
    card = {c.index: c for c in discardable(view)}.get(action.card.index)
    if card is None:
        raise IllegalActionError.of(why_not_discard(view, action.card))

    def commit() -> None:
        hand.remove(card)
        state.discards.append(card)
        state.top_by = seat
        _pile_move(state, "discard", seat, card)
        _event(state, "discard", seat, (card,))
        if state.phase == "call discard":
            # The Liverpool caller's discard cannot itself be called; play resumes
            # after the player whose discard was claimed (still state.current).
            _next_turn(state)
            return
        if not hand:
            _event(state, "go out", seat)
            state.went_out = seat
            _end_round(state)
            return
        if _callable(state, seat, card):
            return
        _next_turn(state)

    return commit


def on_end_turn(state: GameState, action: EndTurn, view: PlayerView | None = None) -> Commit:
    """End the turn without discarding (the last round under ``last_round_no_discard``)."""
    if view is None:
        view = state.view(state.to_act)
    if EndTurn() not in legal_actions(view):
        if joker_to_play(view):
            raise IllegalActionError.of(why_unplayed_joker(view, "end the turn"))
        raise IllegalActionError.because(
            "no final discard",
            "a turn ends with a discard; {action} is only for the last round under "
            "the no-final-discard rule, holding a single card",
            action="end turn",
        )

    def commit() -> None:
        _event(state, "end turn", state.current)
        _next_turn(state)

    return commit


# -- calls (Liverpool, rummy) ----------------------------------------------------------


def call_order(state: GameState, seat: int) -> list[int]:
    """The seats that may call ``seat``'s discard, in the order they are asked (under
    Liverpool calls, only those laid down with cards left)."""
    n = state.players
    others = [(seat + i) % n for i in range(1, n)]
    if state.rules.discard_call == "liverpool":
        others = [s for s in others if state.laid_down[s] and state.hands[s]]
    return others


def _callable(state: GameState, seat: int, card: Card) -> bool:
    """Open the call window if the discard could have been laid off."""
    rule = state.rules.discard_call
    if rule == "none" or not state.laid_down[seat]:
        return False
    view = state.view(seat)
    if not fits_table(view, card):
        return False
    others = call_order(state, seat)
    if not others:
        return False
    state.offer, state.offered_by = card, seat
    state.queue = others
    state.phase = "call"
    state.to_act = others[0]
    return True


def on_call(state: GameState, action: Call, view: PlayerView | None = None) -> Commit:
    """Call the discard that could have been laid off (Liverpool or rummy)."""

    def commit() -> None:
        caller, card, offender = state.to_act, state.offer, state.offered_by
        _event(state, "call", caller, (card,), details=CallDetails(offender))
        state.queue = []
        state.offer = None
        state.discards.pop()
        state.top_by = None
        liverpool = state.rules.discard_call == "liverpool"
        _pile_move(state, "call", caller if liverpool else offender, card)
        if liverpool:
            # The caller claims the card and discards one of theirs; play then
            # resumes with the player after the original discarder.
            state.hands[caller].append(card)
            state.phase = "call discard"
            state.to_act = caller
            state.taken = card
            state.pending = []
            return
        # Rummy: the offender takes the discard back plus one card from the stock.
        state.hands[offender].append(card)
        extra = _pop_stock(state)
        if extra is not None:
            state.hands[offender].append(extra)
        _event(state, "rummy penalty", offender, (card,) if extra is None else (card, extra))
        state.offered_by = None
        _next_turn_from(state, offender)

    return commit


def on_pass_call(state: GameState, action: Pass, view: PlayerView | None = None) -> Commit:
    """Pass on calling the discard: the next seat is asked, or play goes on."""

    def commit() -> None:
        state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
            return
        offender = state.offered_by
        state.offer = state.offered_by = None
        _next_turn_from(state, offender)

    return commit


# -- turns and rounds ------------------------------------------------------------------


def _next_turn(state: GameState) -> None:
    _next_turn_from(state, state.current)


def _next_turn_from(state: GameState, seat: int) -> None:
    limit = state.game.turn_limit
    if limit is not None and state.turns >= limit:
        _event(state, "piles exhausted", None)
        _end_round(state)
        return
    state.current = (seat + 1) % state.players
    _start_turn(state)


def _end_round(state: GameState) -> None:
    rules = state.rules
    sign = -1 if rules.negative_scores else 1
    points = []
    for seat in range(state.players):
        value = sum(rules.point_value(card) for card in state.hands[seat])
        points.append(sign * (value + state.penalties[seat]))
    for seat in range(state.players):
        state.scores[seat] += points[seat]
    state.round_scores.append(tuple(points))
    state.results.append(
        RoundResult(
            round=state.round_index + 1,
            contracts=tuple(rules.contracts[i] for i in state.contract_index),
            hands=tuple(Hand(sorted(hand, key=rank_major_key)) for hand in state.hands),
            melds=tuple(state.melds),
            meld_owners=tuple(state.owners),
            laid_down=tuple(state.laid_down),
            went_out=state.went_out,
            points=tuple(points),
            scores=tuple(state.scores),
        )
    )
    _event(state, "round end", state.went_out, details=RoundEndDetails(tuple(points)))
    for seat in range(state.players):
        missed = not state.laid_down[seat]
        if not (rules.repeat_missed_contract and missed):
            state.contract_index[seat] = min(state.contract_index[seat] + 1, rules.rounds - 1)
    state.round_index += 1
    if state.round_index >= rules.rounds:
        state.phase = "over"
        state.to_act = None
        _event(state, "game end", None, details=GameEndDetails(tuple(state.scores)))
        return
    state.dealer = (state.dealer + 1) % state.players
    deal(state)
