"""What one seat may know and do: the :class:`PlayerView` of a seat, the legal actions
computed from that view alone, and the messages that say why an action is not legal.

>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=3, seed=7).new_state()
>>> view = state.view(state.to_act)
>>> view.phase, len(view.hand), view.my_turn
('draw', 10, True)
>>> view.legal_actions()
[parse_action('draw stock'), parse_action('take discard')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit.engine.actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    LayDown,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.engine.cards import Card, Hand
from rummykit.engine.checks import instance
from rummykit.engine.melds import (
    Meld,
    check_lay_down,
    lay_off_options,
    swap_joker,
)
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import find_contract
from rummykit.errors import IllegalMeldError, Refusal

__all__ = ["PILE_MOVES", "REFUSAL_RULES", "PileMove", "PlayerView", "Refusal", "legal_actions"]

#: Every rule a :class:`~rummykit.errors.Refusal` of the engine names, with what it means:
#: a front end may say each in its own words, reading the refusal's fields, never its text.
REFUSAL_RULES = {
    "notation": "the action's notation cannot be read, or a field of the action is out of range",
    "game over": "no action is possible once the game is over",
    "phase": "the action is not one of this phase's (field phase)",
    "empty discard pile": "there is no discard to take",
    "floating": "a floating player takes the discard only to lay it off",
    "laid down already": "a player lays down once a round",
    "contract": "the melds put down are not the round's contract (field reason)",
    "turn must end": "after the play the turn could not end with a discard",
    "no invalid lay-down": "the rule set has no penalty for an invalid lay-down",
    "legal lay-down": "an invalid lay-down was claimed for melds that are legal",
    "cards not held": "a lay-down names cards the player does not hold",
    "card not held": "the action names a card the player does not hold",
    "lay down first": "a player lays off only after laying down the contract",
    "does not fit": "the card does not fit the meld (fields card, meld)",
    "no such meld": "there is no meld of that number on the table (field meld)",
    "joker swap": "a joker cannot be taken from the table here (fields card, meld, reason)",
    "joker traded once": "under trade-once, a traded joker cannot be traded again",
    "swapped joker must be played": "a joker taken by a swap must be played this turn",
    "no final discard": "the last round's no-final-discard rule (end turn) is not met",
    "taken card kept": "a card taken from the discard pile cannot be discarded the same turn",
    "discard": "the card cannot be discarded now",
    "illegal action": "a refusal that names no particular rule",
}

#: The checks the phase handlers share (:mod:`rummykit.engine.phases`), by name: importable
#: without an underscore so that the handlers import no other module's private name, but
#: not the API (they take the game's own state mid-handler and check no argument; a
#: seat's legal moves are :meth:`PlayerView.legal_actions`, a refusal's reason
#: :meth:`~rummykit.engine.game.GameState.why_not`).
HANDLER_CHECKS = (
    "can_finish",
    "discardable",
    "fits_table",
    "joker_to_play",
    "lay_off_end",
    "match_cards",
    "meld_card_key",
    "rank_major_key",
    "try_swap",
    "why_cannot_finish",
    "why_missing",
    "why_not_discard",
    "why_unplayed_joker",
    "without_cards",
)


# --------------------------------------------------------------------------------------
# The view of one seat: everything a bot or widget may know.

#: The kinds of :class:`PileMove`: a card put on the discard pile (``"upcard"``,
#: ``"discard"``), taken back out of it (``"take"``: the player to draw took the discard;
#: ``"buy"``; ``"call"``: claimed by a call, or given back to its discarder as a rummy
#: penalty), or the pile turned into the stock (``"reshuffle"``).
PILE_MOVES = ("upcard", "discard", "take", "buy", "call", "reshuffle")


@dataclass(frozen=True)
class PileMove:
    """One move of the discard pile this round, as every seat sees it (cards go onto the
    pile and come off it face up).

    >>> PileMove("discard", 1, Card.parse("QH"))
    PileMove(kind='discard', seat=1, card=Card.parse('Q♥'))
    """

    kind: str
    """One of :data:`PILE_MOVES`."""
    seat: int | None
    """Who put the card on the pile or holds it now (None for the up-card and a reshuffle)."""
    card: Card | None
    """The card (the top card for ``"take"``, ``"buy"``, ``"call"``); None for a
    ``"reshuffle"``, which turns every card under the top into the stock, shuffled."""


@dataclass(frozen=True)
class PlayerView:
    """What the player at ``seat`` may see: their own hand and everything public.

    It never holds another player's hand. :meth:`legal_actions` works from the view
    alone, so a bot needs nothing else. :meth:`to_dict` gives it as JSON data.
    """

    seat: int
    """Whose view this is."""
    names: tuple[str, ...]
    """Every seat's name."""
    rules: RuleSet
    """The rule set."""
    round: int
    """The round, 1-based."""
    rounds: int
    """Rounds in the game."""
    phase: str
    """One of :data:`~rummykit.engine.game.PHASES`."""
    to_act: int | None
    """The seat that must act now (None when the game is over)."""
    current: int
    """Whose turn it is (the player who draws and discards)."""
    dealer: int
    """This round's dealer."""
    hand: Hand
    """This seat's cards, sorted by rank."""
    contracts: tuple[Contract, ...]
    """Each seat's contract this round (they differ only with ``repeat_missed_contract``)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    melds: tuple[Meld, ...]
    """The melds on the table, numbered by position (the numbers actions use)."""
    meld_owners: tuple[int, ...]
    """Who laid each meld."""
    laid_down: tuple[bool, ...]
    """Whether each seat has laid down its contract this round."""
    discard_top: Card | None
    """The top card of the discard pile, or None when the pile is empty."""
    discard_size: int
    """Cards in the discard pile."""
    stock_size: int
    """Cards in the stock."""
    scores: tuple[int, ...]
    """Each seat's total so far, signed as the rule set writes scores."""
    buys: tuple[int, ...]
    """Buys each seat has made this round."""
    buy_limit: int | None
    """Most buys per player this round, or None."""
    taken: Card | None
    """The card this seat took from the discard pile this turn (it cannot be discarded)."""
    pending_jokers: tuple[Card, ...]
    """Jokers this seat took by a swap this turn and has not played yet."""
    traded_jokers: frozenset[Card]
    """Jokers that have been traded once (``joker_trade_once``: they cannot be traded again)."""
    offer: Card | None
    """In the ``buy`` and ``call`` phases, the card on offer; else None."""
    offered_by: int | None
    """Who discarded the card on offer (None for the up-card)."""
    pile_moves: tuple[PileMove, ...] = ()
    """Every move of the discard pile this round, oldest first: what went onto it, what
    was taken back out and by whom, and the reshuffles into the stock (see
    :attr:`discard_pile`). Empty in a view built without a history."""

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The cards in the discard pile, bottom first (the last is :attr:`discard_top`),
        from :attr:`pile_moves`; only the top card when the view has no history.

        >>> from rummykit.engine.game import Game
        >>> state = Game(players=3, seed=7).new_state()
        >>> state.view(0).discard_pile == (state.view(0).discard_top,)
        True
        """
        if not self.pile_moves:
            return () if self.discard_top is None else (self.discard_top,)
        pile: list[Card] = []
        for move in self.pile_moves:
            if move.kind in ("upcard", "discard"):
                pile.append(move.card)
            elif move.kind == "reshuffle":
                del pile[:-1]
            elif pile:
                pile.pop()
        return tuple(pile)

    @property
    def contract(self) -> Contract:
        """This seat's contract this round."""
        return self.contracts[self.seat]

    @property
    def is_last_round(self) -> bool:
        """True in the game's last round."""
        return self.round == self.rounds

    @property
    def my_turn(self) -> bool:
        """True when this seat must act."""
        return self.to_act == self.seat

    @property
    def buy_window(self) -> str | None:
        """In the ``buy`` phase, which window is open: ``"after_decline"`` (the player to
        draw declined the discard) or ``"before_draw"`` (that player has not chosen yet);
        else None. A rule set has one kind of window: its ``buy_timing``."""
        return self.rules.buy_timing if self.phase == "buy" else None

    def legal_actions(self) -> list[Action]:
        """Every legal action of this seat now (empty unless it is this seat's decision).

        See :meth:`~rummykit.engine.game.GameState.legal_actions` for what is listed.
        """
        if self.to_act != self.seat:
            return []
        return legal_actions(self)

    def to_dict(self) -> dict:
        """The view as plain JSON data: what this seat may see, and nothing else.

        Cards are written by code (``"8H"``, ``"JK"``), as actions write them; each table
        meld gives its cards, what each joker stands for and which jokers were traded
        once. Use this rather than :func:`dataclasses.asdict`, which cannot rebuild the
        view's :class:`~rummykit.engine.cards.Hand` from plain data.

        >>> import json
        >>> from rummykit.engine.game import Game
        >>> view = Game(players=3, seed=7).new_state().view(1)
        >>> data = view.to_dict()
        >>> len(data["hand"]), data["hand_sizes"], data["phase"]
        (10, [10, 10, 10], 'draw')
        >>> json.loads(json.dumps(data)) == data
        True
        """

        def code(card: Card | None) -> str | None:
            return None if card is None else card.code

        def codes(cards: Iterable[Card]) -> list[str]:
            return [card.code for card in cards]

        return {
            "seat": self.seat,
            "names": list(self.names),
            "rules": self.rules.to_json(),
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "to_act": self.to_act,
            "current": self.current,
            "dealer": self.dealer,
            "hand": codes(self.hand),
            "contracts": [[c.sets, c.runs] for c in self.contracts],
            "hand_sizes": list(self.hand_sizes),
            "melds": [
                {
                    "number": number,
                    "owner": owner,
                    "kind": meld.kind,
                    "cards": codes(meld.cards),
                    "stands_for": [code(card) for card in meld.stands_for],
                    "traded": [card in self.traded_jokers for card in meld.cards],
                }
                for number, (meld, owner) in enumerate(
                    zip(self.melds, self.meld_owners, strict=True)
                )
            ],
            "laid_down": list(self.laid_down),
            "discard_top": code(self.discard_top),
            "discard_size": self.discard_size,
            "stock_size": self.stock_size,
            "scores": list(self.scores),
            "buys": list(self.buys),
            "buy_limit": self.buy_limit,
            "taken": code(self.taken),
            "pending_jokers": codes(self.pending_jokers),
            "offer": code(self.offer),
            "offered_by": self.offered_by,
            "pile_moves": [[m.kind, m.seat, code(m.card)] for m in self.pile_moves],
            "legal_actions": [str(action) for action in self.legal_actions()],
        }

    def can_lay_down(self) -> bool:
        """True when this seat may lay its contract down now (some legal arrangement exists)."""
        return (
            self.to_act == self.seat
            and self.phase == "play"
            and not self.laid_down[self.seat]
            and _canonical_lay_down(self) is not None
        )


# Card.sort_key as one integer per card index (rank-major, jokers last), for speed.
_RANK_MAJOR = [((i % 13) * 4 + i // 13) * 64 for i in range(52)] + [99 * 64]


def rank_major_key(card: Card) -> int:
    """Sort key of the order legal actions list cards in: rank-major, then suit, then deck
    (jokers last)."""
    return _RANK_MAJOR[card.index] + card.deck


def _empty_ok(view: PlayerView) -> bool:
    """May a play leave this player's hand empty (floating, or going out by melding)?"""
    return _may_empty(view.rules, view.is_last_round)


def _may_empty(rules: RuleSet, last_round: bool) -> bool:
    return rules.floating or (last_round and rules.last_round_no_discard)


def can_finish(view: PlayerView, hand_after: Sequence[Card], pending: Sequence[Card]) -> bool:
    """Could the player still end the turn holding ``hand_after``?"""
    return _finishes(view.rules, view.is_last_round, view.taken, hand_after, pending)


def _finishes(
    rules: RuleSet,
    last_round: bool,
    taken: Card | None,
    hand_after: Sequence[Card],
    pending: Sequence[Card],
) -> bool:
    """:func:`can_finish` from the facts it reads."""
    if not hand_after:
        return _may_empty(rules, last_round)
    if last_round and rules.last_round_no_discard and len(hand_after) == 1:
        return True  # "end turn" without a discard
    return any(card != taken and card not in pending for card in hand_after)


def meld_card_key(pending: Sequence[Card], traded: frozenset[Card]):
    """Sort key choosing which copy of a card a play uses: a joker the seat must still play
    first (``pending``), then one taken by a trade, then the lowest deck."""

    def key(card: Card) -> tuple[int, int]:
        if card.is_joker:
            return (0 if card in pending else 1 if card in traded else 2, card.deck)
        return (0, card.deck)

    return key


def match_cards(hand: Sequence[Card], wanted: Iterable[Card], key) -> list[Card] | None:
    """Physical cards of ``hand`` for the codes ``wanted`` (None when one is missing)."""
    used: list[Card] = []
    for want in wanted:
        copies = [c for c in hand if c.index == want.index and c not in used]
        if not copies:
            return None
        used.append(min(copies, key=key))
    return used


def without_cards(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    """``hand`` less the physical ``cards`` (each removed once)."""
    gone = list(cards)
    rest = []
    for card in hand:
        if card in gone:
            gone.remove(card)
        else:
            rest.append(card)
    return rest


def _might_fit(meld: Meld, card: Card) -> bool:
    """A quick pre-filter before asking :func:`lay_off_options` (which decides)."""
    if card.is_joker:
        return True
    if meld.kind == "set":
        return card.rank == meld.rank
    if card.suit != meld.suit:
        return False
    value = int(card.rank)
    low, high = meld.start - 1, meld.end + 1
    return value in (low, high) or (value == 14 and low == 1)


def _options(view: PlayerView, meld: Meld, card: Card) -> tuple[Meld, ...]:
    if not _might_fit(meld, card):
        return ()
    return lay_off_options(meld, card, view.rules)


def fits_table(view: PlayerView, card: Card, melds: Sequence[Meld] | None = None) -> bool:
    """May ``card`` be laid off on one of ``melds`` (the table's melds by default)?"""
    return any(_options(view, meld, card) for meld in (view.melds if melds is None else melds))


def lay_off_end(old: Meld, new: Meld) -> str | None:
    """The end of a run a lay-off turned ``old`` into ``new`` at (``"low"``/``"high"``);
    None for a set."""
    if old.kind != "run":
        return None
    return "low" if new.start < old.start else "high"


def _canonical_lay_down(view: PlayerView) -> list[Meld] | None:
    """One legal lay-down of this seat's contract (``find_contract``'s), or None: see
    :func:`lay_down_of`."""
    return lay_down_of(
        list(view.hand),
        view.contract,
        view.rules,
        taken=view.taken,
        pending=view.pending_jokers,
        last_round=view.is_last_round,
    )


def lay_down_of(
    hand: list[Card],
    contract: Contract,
    rules: RuleSet,
    *,
    taken: Card | None = None,
    pending: Sequence[Card] = (),
    last_round: bool = False,
) -> list[Meld] | None:
    """The lay-down :meth:`PlayerView.legal_actions` offers a seat holding ``hand`` in its
    play phase, not yet laid down (``find_contract``'s melds of ``contract``), or None:
    ``taken`` is the card it took from the pile this turn (it cannot be discarded),
    ``pending`` the jokers it took by a swap and must still play, ``last_round`` whether
    this is the game's last round. A play needs a turn that can still end, so when
    ``find_contract`` uses so many cards that it could not, a card is given back from a
    meld longer than it needs to be.

    >>> from rummykit.engine.cards import parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H 8D JH JS JC 2C")
    >>> [str(meld) for meld in lay_down_of(hand, rules.contracts[0], rules)]
    ['8♦ 8♥ 8♠', 'J♣ J♥ J♠']
    >>> lay_down_of(hand[:6], rules.contracts[0], rules) is None   # no card left to discard
    True
    """
    if len(hand) < contract.min_cards(rules):
        return None
    melds = find_contract(hand, contract, rules)
    if melds is None:
        return None
    used = [card for meld in melds for card in meld.cards]
    if _finishes(rules, last_round, taken, without_cards(hand, used), pending):
        return melds
    for index, meld in enumerate(melds):
        for drop in dict.fromkeys((meld.cards[0], meld.cards[-1], *meld.cards)):
            groups = [list(m.cards) for m in melds]
            groups[index].remove(drop)
            try:
                trimmed = check_lay_down(groups, contract, rules)
            except IllegalMeldError:
                continue
            rest = without_cards(hand, [c for g in groups for c in g])
            if _finishes(rules, last_round, taken, rest, pending):
                return trimmed
    return None


def joker_to_play(view: PlayerView) -> bool:
    """Must this seat still play a joker taken by a swap before discarding?

    Yes while it can: a laid-down player while the joker fits a meld on the table; a
    player who swapped before laying down while the contract can be laid down. When it
    cannot, the rule cannot be met and the turn may end (the joker may be discarded).
    """
    if not view.pending_jokers:
        return False
    if view.laid_down[view.seat]:
        return any(fits_table(view, joker) for joker in view.pending_jokers)
    return _canonical_lay_down(view) is not None


def discardable(view: PlayerView) -> list[Card]:
    """The physical cards this seat may discard now (one per code)."""
    rules = view.rules
    hand = view.hand
    if view.phase == "play":
        if view.is_last_round and rules.last_round_no_discard and len(hand) == 1:
            return []
        if joker_to_play(view):
            return []
    seen: dict[int, Card] = {}
    taken, pending = view.taken, view.pending_jokers
    # A pending joker left in hand could not be played: discard it last, if at all.
    if pending:
        ordered = sorted(hand, key=lambda c: (c in pending, rank_major_key(c)))
    else:
        ordered = sorted(hand, key=rank_major_key)
    for card in ordered:
        if taken is not None and card == taken:
            continue
        seen.setdefault(card.index, card)
    return sorted(seen.values(), key=rank_major_key)


_DISCARDS: dict[int, Discard] = {}


def _discard_action(card: Card) -> Discard:
    """``Discard(card)``, made once per card face (actions are values)."""
    action = _DISCARDS.get(card.index)
    if action is None:
        action = _DISCARDS[card.index] = Discard(card)
    return action


def legal_actions(view: PlayerView) -> list[Action]:
    """Every legal action of the seat of ``view`` (see :meth:`PlayerView.legal_actions`)."""
    if not isinstance(view, PlayerView):  # (the engine's hot path: the check runs only here)
        instance("view", view, PlayerView, "a PlayerView (GameState.view(seat))")
    phase = view.phase
    if phase == "draw":
        actions: list[Action] = [DrawStock()]
        if view.discard_top is not None and (view.hand or fits_table(view, view.discard_top)):
            actions.append(TakeDiscard())
        return actions
    if phase == "buy":
        return [Buy(), Pass()]
    if phase == "call":
        return [Call(), Pass()]
    if phase == "call discard":
        return [_discard_action(card) for card in discardable(view)]
    if phase != "play":
        return []
    actions = []
    rules = view.rules
    hand = list(view.hand)
    key = meld_card_key(view.pending_jokers, view.traded_jokers)
    if not view.laid_down[view.seat]:
        melds = _canonical_lay_down(view)
        if melds is not None:
            actions.append(LayDown(tuple(m.cards for m in melds)))
    if view.laid_down[view.seat] or not rules.joker_swap_needs_laid_down:
        firsts: dict[int, Card] = {}
        for card in sorted(hand, key=key):
            firsts.setdefault(card.index, card)
        faces = sorted(firsts.values(), key=rank_major_key)
        if view.laid_down[view.seat]:
            # can_finish(hand less the card), counted once: the cards one may discard.
            free = sum(1 for c in hand if c != view.taken and c not in view.pending_jokers)
            single = view.is_last_round and rules.last_round_no_discard and len(hand) == 2
            for card in faces:
                if len(hand) == 1:
                    if not _empty_ok(view):
                        continue
                elif not single:
                    # A pending joker laid off stops being pending; the card itself, if
                    # it could be discarded, no longer can.
                    rest_free = free - (card != view.taken and card not in view.pending_jokers)
                    if rest_free == 0:
                        continue
                for number, meld in enumerate(view.melds):
                    options = _options(view, meld, card)
                    if len(options) == 1:
                        actions.append(LayOff(card, number))
                    elif options:
                        actions.extend(
                            LayOff(card, number, lay_off_end(meld, new)) for new in options
                        )
        if rules.joker_swap != "none":
            # Which table melds hold a joker standing for each card face.
            wanted: dict[int, list[int]] = {}
            for number, meld in enumerate(view.melds):
                for stand in meld.stands_for:
                    if stand is not None:
                        wanted.setdefault(stand.index, []).append(number)
            for card in faces:
                for number in dict.fromkeys(
                    wanted.get(card.index, ()) if not card.is_joker else ()
                ):
                    if not isinstance(try_swap(view, card, number), Refusal):
                        actions.append(Swap(card, number))
    actions.extend(_discard_action(card) for card in discardable(view))
    if view.is_last_round and rules.last_round_no_discard and len(hand) == 1:
        actions.append(EndTurn())
    return actions


def try_swap(view: PlayerView, card: Card, number: int) -> tuple[Meld, Card] | str:
    """The swap of ``card`` into meld ``number``: (new meld, joker), or why it is illegal
    (a :class:`~rummykit.errors.Refusal`).

    The exactness of the card and the kind of meld are :func:`swap_joker`'s rules; the
    turn, the laid-down condition, trade-once and "play the joker this turn" are the game's.
    """
    rules = view.rules
    if rules.joker_swap == "none":
        return Refusal("joker swap", "this rule set does not allow taking jokers from the table")
    if rules.joker_swap_needs_laid_down and not view.laid_down[view.seat]:
        return Refusal("joker swap", "only a player who has laid down may swap a joker")
    meld = view.melds[number]
    if meld.kind == "set" and rules.joker_swap == "runs":
        return Refusal(
            "joker swap",
            "under {rules}, jokers can be taken only from runs, not from sets",
            (("rules", rules.name),),
        )
    if not any(s is not None and s.index == card.index for s in meld.stands_for):
        return Refusal(
            "joker swap",
            "no joker in meld {meld} stands for {card}",
            (("meld", number), ("card", card.symbol)),
        )
    try:
        new, joker = swap_joker(meld, card, rules)
    except IllegalMeldError as error:
        return Refusal("joker swap", "{reason}", (("reason", str(error)),))
    if rules.joker_trade_once and joker in view.traded_jokers:
        return Refusal(
            "joker traded once",
            "this joker has been traded once and lies face down: it cannot be traded again",
        )
    hand_after = [*without_cards(view.hand, [card]), joker]
    pending = [*view.pending_jokers, joker]
    if not can_finish(view, without_cards(hand_after, [joker]), pending):
        return Refusal("turn must end", "after the swap you could not end your turn")
    if rules.swapped_joker_must_be_played:
        if view.laid_down[view.seat]:
            table = list(view.melds)
            table[number] = new
            if not fits_table(view, joker, table):
                return Refusal(
                    "swapped joker must be played",
                    "the joker taken must be played this turn, and it fits no meld on the table",
                )
        elif find_contract(hand_after, view.contract, rules) is None:
            return Refusal(
                "swapped joker must be played",
                "the joker taken must be played this turn: before laying down, swap only "
                "when you can then lay your contract down",
            )
    return new, joker


def why_missing(hand: Sequence[Card], wanted: Sequence[Card]) -> str:
    """Which of the ``wanted`` cards ``hand`` lacks, in words (``"the 7♥"``, ``"2 × 7♥"``)."""
    left = list(hand)
    for want in wanted:
        copies = [c for c in left if c.index == want.index]
        if not copies:
            count = sum(1 for w in wanted if w.index == want.index)
            return f"{count} × {want.symbol}" if count > 1 else f"the {want.symbol}"
        left.remove(copies[0])
    return "those cards"


def why_cannot_finish(view: PlayerView, rest: Sequence[Card]) -> Refusal:
    """Why a play leaving ``rest`` in hand is refused: the turn could not end."""
    if not rest:
        return Refusal(
            "turn must end",
            "every turn ends with a discard, so you must keep a card to discard "
            "({rules} has no floating and no going out by melding here)",
            (("rules", view.rules.name),),
        )
    if view.taken is not None and all(c == view.taken for c in rest):
        return Refusal(
            "turn must end",
            "you could not end your turn: the only card left would be "
            "{card} you took from the discard pile, which you cannot discard",
            (("card", view.taken.symbol),),
        )
    return Refusal(
        "turn must end",
        "you could not end your turn: the cards left must include one you may discard",
    )


def why_unplayed_joker(view: PlayerView, verb: str) -> Refusal:
    """Why a seat holding a joker it took by a swap may not ``verb`` yet, naming the joker
    and where it can go."""
    joker = view.pending_jokers[0]
    fields: tuple[tuple[str, object], ...] = (("joker", joker.symbol), ("verb", verb))
    if view.laid_down[view.seat]:
        fits = tuple(n for n, meld in enumerate(view.melds) if _options(view, meld, joker))
        where = "lay it off (it fits meld {meld_fits})"
        fields += (("meld_fits", fits),)
    else:
        where = "lay your contract down with it"
    return Refusal(
        "swapped joker must be played",
        "the joker you took by a swap ({joker}) must be played this turn before you "
        "{verb}: " + where,
        fields,
    )


def why_not_discard(view: PlayerView, card: Card) -> Refusal:
    """Why the seat of ``view`` may not discard ``card`` now."""
    rules = view.rules
    if (
        view.phase == "play"
        and view.is_last_round
        and rules.last_round_no_discard
        and len(view.hand) == 1
    ):
        return Refusal(
            "no final discard",
            "in the last round you go out by melding every card, with no final discard "
            "({action} keeps your last card)",
            (("action", "end turn"),),
        )
    if joker_to_play(view):
        return why_unplayed_joker(view, "discard")
    if view.taken is not None and view.taken.index == card.index:
        return Refusal(
            "taken card kept",
            "a card taken from the discard pile cannot be discarded in the same turn ({card})",
            (("card", card.symbol),),
        )
    return Refusal("discard", "{card} cannot be discarded now", (("card", card.symbol),))


# --------------------------------------------------------------------------------------
# Save files
