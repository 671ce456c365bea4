"""The phase handlers of :class:`~rummykit.game.GameState`: the draw, buy, play and call
phases, and the end of a turn and of a round.

Each handler takes the acting seat's view and the action, checks the action against the
rules without changing anything (raising :class:`~rummykit.errors.IllegalActionError`
with the reason), and returns a ``commit()`` that plays it: this is how
:meth:`GameState.apply <rummykit.game.GameState.apply>` validates before it commits.
GameState inherits them from :class:`_PhaseHandlers`, kept apart to hold game.py to a
readable size; they work on GameState's attributes.
"""

from __future__ import annotations

from rummykit.actions import (
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
from rummykit.cards import Card, Hand
from rummykit.errors import (
    IllegalActionError,
    IllegalMeldError,
)
from rummykit.events import (
    BuyDetails,
    BuyLimitDetails,
    BuyLotteryDetails,
    CallDetails,
    GameEndDetails,
    ReshuffleDetails,
    RoundEndDetails,
    RoundResult,
)
from rummykit.legal import (
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
from rummykit.melds import (
    Meld,
    check_lay_down,
    lay_off,
    lay_off_options,
)

__all__: list[str] = []


class _PhaseHandlers:
    """The phase handlers of GameState (a mixin: GameState is the only subclass)."""

    # -- draw phase
    def _draw_stock(self, view: PlayerView, action: DrawStock):
        def commit() -> None:
            seat = self.current
            top = self.discards[-1] if self.discards else None
            self._event("decline", seat, () if top is None else (top,))
            if self.rules.buy_timing == "after_decline" and self._open_buy_window():
                return
            self._finish_draw()

        return commit

    # -- the buy window: opened on a decline (or before the draw), asked seat by seat, closed
    def _open_buy_window(self) -> bool:
        """Offer the top discard to those who may buy it (phase ``buy``); False if nobody may."""
        top = self.discards[-1] if self.discards else None
        if top is None or not self.rules.buying:
            return False
        self._note_buy_limits(top)
        queue = self._buyers()
        if not queue:
            return False
        self.offer, self.offered_by = top, self.top_by
        self.queue, self.requests = queue, []
        self.phase = "buy"
        self.to_act = queue[0]
        return True

    def _note_buy_limits(self, top: Card) -> None:
        """Log a ``"buy limit"`` event for each seat a buy window skips for its buy limit."""
        limit = self.buy_limit()
        if limit is None or len(self.stock) < self.rules.buy_penalty_cards:
            return  # no limit, or no window for anyone (the stock cannot pay the penalty)
        n = self.players
        for seat in ((self.current + i) % n for i in range(1, n)):
            if self.buys[seat] >= limit:
                self._event(
                    "buy limit", seat, (top,), details=BuyLimitDetails(self.buys[seat], limit)
                )

    def _buyers(self) -> list[int]:
        """The seats that may buy the top discard, in the order they are asked."""
        n, rules = self.players, self.rules
        limit = self.buy_limit()
        if len(self.stock) < rules.buy_penalty_cards:
            return []
        seats = [(self.current + i) % n for i in range(1, n)]
        seats = [s for s in seats if limit is None or self.buys[s] < limit]
        if rules.buy_priority == "longest_waiting":
            # Oldest last turn first; seats tie (no turn yet this round) in clockwise order.
            seats.sort(key=lambda s: self.last_turn[s])
        return seats

    def _finish_draw(self) -> None:
        """The player to draw gets the top stock card (after any buy), or the round ends."""
        seat = self.current
        card = self._pop_stock()
        self.offer = self.offered_by = None
        self.queue, self.requests = [], []
        if card is None:
            self._event("piles exhausted", seat)
            self._end_round()
            return
        self.hands[seat].append(card)
        self._event("draw stock", seat, (card,))
        self.phase = "play"
        self.to_act = seat

    def _pop_stock(self) -> Card | None:
        limit = self.game.max_reshuffles
        if (
            not self.stock
            and self.rules.reshuffle_discards
            and len(self.discards) > 1
            and (limit is None or self.reshuffles < limit)
        ):
            top = self.discards.pop()
            self.stock = self.discards
            self.rng.shuffle(self.stock)
            self.discards = [top]
            self._pile_move("reshuffle", None, None)
            self.reshuffles += 1
            self._event("reshuffle", None, (), details=ReshuffleDetails(len(self.stock)))
        return self.stock.pop() if self.stock else None

    def _take_discard(self, view: PlayerView, action: TakeDiscard):
        if not self.discards:
            raise IllegalActionError("the discard pile is empty: draw from the stock")
        card = self.discards[-1]
        if not self.hands[self.current] and not fits_table(view, card):
            raise IllegalActionError(
                f"a floating player may take the discard only to lay it off, and the "
                f"{card.symbol} fits no meld (a card taken from the pile cannot be discarded "
                f"the same turn)"
            )

        def commit() -> None:
            seat = self.current
            self.discards.pop()
            self.top_by = None
            self._pile_move("take", seat, card)
            self.hands[seat].append(card)
            self.taken = card
            self._event("take discard", seat, (card,))
            self.phase = "play"

        return commit

    def _pile_move(self, kind: str, seat: int | None, card: Card | None) -> None:
        # A new tuple per move (a few a turn), so each view shares it without a copy.
        self.pile_moves = (*self.pile_moves, PileMove(kind, seat, card))

    # -- buy phase
    def _buy(self, view: PlayerView, action: Buy):
        def commit() -> None:
            seat = self.to_act
            if self.rules.buy_priority == "first_call":
                self.requests.append(seat)
                self._next_buyer()
                return
            self._execute_buy(seat)

        return commit

    def _pass_buy(self, view: PlayerView, action: Pass):
        def commit() -> None:
            self._event("pass buy", self.to_act)
            self._next_buyer()

        return commit

    def _next_buyer(self) -> None:
        self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
            return
        if self.requests:
            # "First to call": who calls first is chance, drawn from the seed.
            winner = self.requests[0] if len(self.requests) == 1 else self.rng.choice(self.requests)
            self._event("buy lottery", winner, (), details=BuyLotteryDetails(tuple(self.requests)))
            self._execute_buy(winner)
            return
        self._close_buy_window()

    def _execute_buy(self, seat: int) -> None:
        card = self.discards.pop()
        self.top_by = None
        self._pile_move("buy", seat, card)
        penalty = [self.stock.pop() for _ in range(self.rules.buy_penalty_cards)]
        self.hands[seat].extend([card, *penalty])
        self.buys[seat] += 1
        drawer = self.current if self.rules.buy_timing == "before_draw" else None
        self._event("buy", seat, (card, *penalty), details=BuyDetails(drawer))
        self._close_buy_window()

    def _close_buy_window(self) -> None:
        """After the buy window: the player to draw draws (after a decline) or chooses."""
        if self.rules.buy_timing == "after_decline":
            self._finish_draw()
            return
        self.offer = self.offered_by = None
        self.queue, self.requests = [], []
        self.phase = "draw"
        self.to_act = self.current

    # -- play phase
    def _lay_down(self, view: PlayerView, action: LayDown):
        seat = self.current
        if self.laid_down[seat]:
            raise IllegalActionError(
                "you have already laid down this round: after laying down you may only lay off"
            )
        cards = self._cards_for_melds(view, action.melds)
        try:
            melds = check_lay_down([list(g) for g in cards], self.contract(seat), self.rules)
        except IllegalMeldError as error:
            raise IllegalActionError(f"cannot lay down: {error}") from None
        rest = without_cards(self.hands[seat], [c for g in cards for c in g])
        if not can_finish(view, rest, self.pending):
            raise IllegalActionError(why_cannot_finish(view, rest))

        def commit() -> None:
            self.hands[seat] = rest
            start = len(self.melds)
            self.melds.extend(melds)
            self.owners.extend([seat] * len(melds))
            self.laid_down[seat] = True
            self.pending = [j for j in self.pending if j in rest]
            self._event("lay down", seat, meld=start, melds=tuple(melds))
            self._after_play(seat)

        return commit

    def _invalid_lay_down(self, view: PlayerView, action: InvalidLayDown):
        seat = self.current
        penalty = self.rules.invalid_lay_down_penalty
        if not penalty:
            raise IllegalActionError(
                f"{self.rules.name} has no penalty for an invalid lay-down: a lay-down that "
                f"breaks a rule is simply refused"
            )
        if self.laid_down[seat]:
            raise IllegalActionError("you have already laid down this round")
        cards = self._cards_for_melds(view, action.melds)
        try:
            check_lay_down([list(g) for g in cards], self.contract(seat), self.rules)
        except IllegalMeldError:
            pass
        else:
            raise IllegalActionError("these melds are a legal lay-down: use 'lay down'")

        def commit() -> None:
            self.penalties[seat] += penalty
            self._event("invalid lay down", seat, tuple(c for g in cards for c in g))

        return commit

    def _cards_for_melds(self, view: PlayerView, groups) -> list[list[Card]]:
        seat = self.current
        wanted = [card for group in groups for card in group]
        found = match_cards(
            self.hands[seat], wanted, meld_card_key(self.pending, frozenset(self.traded))
        )
        if found is None:
            raise IllegalActionError(
                f"{self.game.names[seat]} does not hold "
                f"{why_missing(self.hands[seat], wanted)} (the hand is {Hand(view.hand)})"
            )
        out, i = [], 0
        for group in groups:
            out.append(found[i : i + len(group)])
            i += len(group)
        return out

    def _lay_off(self, view: PlayerView, action: LayOff):
        seat = self.current
        if not self.laid_down[seat]:
            raise IllegalActionError(
                "you must lay down your contract before laying off cards onto melds"
            )
        meld = self._table_meld(action.meld)
        found = match_cards(
            self.hands[seat], [action.card], meld_card_key(self.pending, frozenset(self.traded))
        )
        if found is None:
            raise IllegalActionError(f"{self.game.names[seat]} holds no {action.card.symbol}")
        card = found[0]
        options = lay_off_options(meld, card, self.rules)
        if not options:
            try:
                lay_off(meld, card, self.rules, end=action.end)
            except IllegalMeldError as error:
                raise IllegalActionError(
                    f"cannot lay off the {card.symbol} onto meld {action.meld}: {error}"
                ) from None
            raise IllegalActionError(
                f"the {card.symbol} does not fit meld {action.meld} ({meld.describe()})"
            )
        if action.end is None:
            new = options[0]
        else:
            chosen = [m for m in options if lay_off_end(meld, m) == action.end]
            if not chosen:
                raise IllegalActionError(
                    f"the {card.symbol} cannot go at the {action.end} end of meld {action.meld} "
                    f"({meld.describe()})"
                )
            new = chosen[0]
        rest = without_cards(self.hands[seat], [card])
        pending = [j for j in self.pending if j != card]
        if not can_finish(view, rest, pending):
            raise IllegalActionError(why_cannot_finish(view, rest))

        def commit() -> None:
            self.hands[seat] = rest
            self.melds[action.meld] = new
            self.pending = pending
            self._event("lay off", seat, (card,), meld=action.meld, melds=(new,))
            self._after_play(seat)

        return commit

    def _swap(self, view: PlayerView, action: Swap):
        seat = self.current
        self._table_meld(action.meld)
        if action.card.is_joker:
            raise IllegalActionError("a swap plays a natural card in place of a joker, not a joker")
        found = match_cards(self.hands[seat], [action.card], lambda c: c.deck)
        if found is None:
            raise IllegalActionError(f"{self.game.names[seat]} holds no {action.card.symbol}")
        card = found[0]
        result = try_swap(view, card, action.meld)
        if isinstance(result, str):
            raise IllegalActionError(
                f"cannot swap the {card.symbol} into meld {action.meld}: {result}"
            )
        new, joker = result

        def commit() -> None:
            self.hands[seat] = [*without_cards(self.hands[seat], [card]), joker]
            self.melds[action.meld] = new
            if self.rules.swapped_joker_must_be_played:
                self.pending.append(joker)
            self.traded.add(joker)
            self._event("swap", seat, (card, joker), meld=action.meld, melds=(new,))

        return commit

    def _table_meld(self, number: int) -> Meld:
        if not isinstance(number, int) or not 0 <= number < len(self.melds):
            raise IllegalActionError(
                f"there is no meld {number} on the table (melds are numbered 0 to "
                f"{len(self.melds) - 1} in the order they were laid)"
                if self.melds
                else f"there is no meld {number}: no meld is on the table yet"
            )
        return self.melds[number]

    def _after_play(self, seat: int) -> None:
        """After a lay-down or lay-off: an empty hand goes out or floats."""
        if self.hands[seat]:
            return
        if self.round_index == self.rules.rounds - 1 and self.rules.last_round_no_discard:
            self._event("go out", seat)
            self.went_out = seat
            self._end_round()
            return
        self._event("float", seat)
        self._next_turn()

    def _discard(self, view: PlayerView, action: Discard):
        seat = self.to_act
        hand = self.hands[seat]
        copies = [c for c in hand if c.index == action.card.index]
        if not copies:
            raise IllegalActionError(f"{self.game.names[seat]} holds no {action.card.symbol}")
        # The lowest-deck copy that may be discarded (not the card taken from the pile).
        card = {c.index: c for c in discardable(view)}.get(action.card.index)
        if card is None:
            raise IllegalActionError(why_not_discard(view, action.card))

        def commit() -> None:
            hand.remove(card)
            self.discards.append(card)
            self.top_by = seat
            self._pile_move("discard", seat, card)
            self._event("discard", seat, (card,))
            if self.phase == "call discard":
                # The Liverpool caller's discard cannot itself be called; play resumes
                # after the player whose discard was claimed (still self.current).
                self._next_turn()
                return
            if not hand:
                self._event("go out", seat)
                self.went_out = seat
                self._end_round()
                return
            if self._callable(seat, card):
                return
            self._next_turn()

        return commit

    def _end_turn(self, view: PlayerView, action: EndTurn):
        if EndTurn() not in legal_actions(view):
            if joker_to_play(view):
                raise IllegalActionError(why_unplayed_joker(view, "end the turn"))
            raise IllegalActionError(
                "a turn ends with a discard; 'end turn' is only for the last round under "
                "the no-final-discard rule, holding a single card"
            )

        def commit() -> None:
            self._event("end turn", self.current)
            self._next_turn()

        return commit

    # -- calls (Liverpool / rummy)
    def _callable(self, seat: int, card: Card) -> bool:
        """Open the call window if the discard could have been laid off."""
        rule = self.rules.discard_call
        if rule == "none" or not self.laid_down[seat]:
            return False
        view = self.view(seat)
        if not fits_table(view, card):
            return False
        n = self.players
        others = [(seat + i) % n for i in range(1, n)]
        if rule == "liverpool":
            others = [s for s in others if self.laid_down[s] and self.hands[s]]
        if not others:
            return False
        self.offer, self.offered_by = card, seat
        self.queue = others
        self.phase = "call"
        self.to_act = others[0]
        return True

    def _call(self, view: PlayerView, action: Call):
        def commit() -> None:
            caller, card, offender = self.to_act, self.offer, self.offered_by
            self._event("call", caller, (card,), details=CallDetails(offender))
            self.queue = []
            self.offer = None
            self.discards.pop()
            self.top_by = None
            liverpool = self.rules.discard_call == "liverpool"
            self._pile_move("call", caller if liverpool else offender, card)
            if liverpool:
                # The caller claims the card and discards one of theirs; play then
                # resumes with the player after the original discarder.
                self.hands[caller].append(card)
                self.phase = "call discard"
                self.to_act = caller
                self.taken = card
                self.pending = []
                return
            # Rummy: the offender takes the discard back plus one card from the stock.
            self.hands[offender].append(card)
            extra = self._pop_stock()
            if extra is not None:
                self.hands[offender].append(extra)
            self._event("rummy penalty", offender, (card,) if extra is None else (card, extra))
            self.offered_by = None
            self._next_turn_from(offender)

        return commit

    def _pass_call(self, view: PlayerView, action: Pass):
        def commit() -> None:
            self.queue.pop(0)
            if self.queue:
                self.to_act = self.queue[0]
                return
            offender = self.offered_by
            self.offer = self.offered_by = None
            self._next_turn_from(offender)

        return commit

    # -- turns and rounds
    def _next_turn(self) -> None:
        self._next_turn_from(self.current)

    def _next_turn_from(self, seat: int) -> None:
        limit = self.game.turn_limit
        if limit is not None and self.turns >= limit:
            self._event("piles exhausted", None)
            self._end_round()
            return
        self.current = (seat + 1) % self.players
        self._start_turn()

    def _end_round(self) -> None:
        rules = self.rules
        sign = -1 if rules.negative_scores else 1
        points = []
        for seat in range(self.players):
            value = sum(rules.point_value(card) for card in self.hands[seat])
            points.append(sign * (value + self.penalties[seat]))
        for seat in range(self.players):
            self.scores[seat] += points[seat]
        self.round_scores.append(tuple(points))
        self.results.append(
            RoundResult(
                round=self.round_index + 1,
                contracts=tuple(rules.contracts[i] for i in self.contract_index),
                hands=tuple(Hand(sorted(hand, key=rank_major_key)) for hand in self.hands),
                melds=tuple(self.melds),
                meld_owners=tuple(self.owners),
                laid_down=tuple(self.laid_down),
                went_out=self.went_out,
                points=tuple(points),
                scores=tuple(self.scores),
            )
        )
        self._event("round end", self.went_out, details=RoundEndDetails(tuple(points)))
        for seat in range(self.players):
            missed = not self.laid_down[seat]
            if not (rules.repeat_missed_contract and missed):
                self.contract_index[seat] = min(self.contract_index[seat] + 1, rules.rounds - 1)
        self.round_index += 1
        if self.round_index >= rules.rounds:
            self.phase = "over"
            self.to_act = None
            self._event("game end", None, details=GameEndDetails(tuple(self.scores)))
            return
        self.dealer = (self.dealer + 1) % self.players
        self._deal()
