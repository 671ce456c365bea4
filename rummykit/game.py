"""The game engine: a :class:`Game` (configuration and factory) and the :class:`GameState`
of one play-through, the only mutable object, which keeps its history.

>>> game = Game("standard", players=3, seed=7)
>>> state = game.new_state()
>>> state.round, state.phase, len(state.view(0).hand)
(1, 'draw', 10)
>>> state.legal_actions()
[parse_action('draw stock'), parse_action('take discard')]
>>> state.apply("draw stock")
>>> state.phase
'buy'

One turn: the player to act in the ``draw`` phase draws from the stock (``draw stock``,
which declines the top discard) or takes the top discard. Declining opens a **buy
window** (phase ``buy``) in which the other players are asked, one at a time in the
order the rule set's ``buy_priority`` gives, whether they ``buy`` or ``pass``; the buyer
takes the discard and the penalty cards, then the player to draw gets the top stock
card. Under ``buy_timing="before_draw"`` (the ``family`` preset, source 004) the buy
window opens instead at the start of the turn, before the player to draw chooses, and
the ``draw`` phase follows it (:attr:`PlayerView.buy_window` tells the two windows
apart). In the ``play`` phase the player may lay down, lay off, swap jokers, and ends the
turn with ``discard``. Under a ``discard_call`` rule a discard that could have been
laid off opens a ``call`` phase before the next draw.

Chance is explicit and seeded: the first dealer, every deal, the cut, every reshuffle
of the discard pile into the stock and the "first call" buy lottery come from the
game's ``random.Random(seed)``, in that order of events; a test can script the first
deal with ``new_state(hands=..., upcard=..., stock=...)``.

Choices where the rules leave a gap (each is documented where it is implemented):

* Melds on the table are numbered 0, 1, ... in the order they were laid this round.
* A card code in an action stands for the lowest-deck copy in the acting player's hand,
  except that a discard avoids the card taken from the pile this turn and a joker taken
  by a swap, and a melded joker is first a joker taken by a swap, then a traded one.
* Anyone but the player about to draw may buy (RULES.md), the discarder included: with
  two players the discarder is the only possible buyer.
* A buy needs the stock to hold the penalty cards (the stock is not rebuilt for a buy).
  A buy window opens only when someone may buy; else the turn goes on at once.
* Buying before the draw (``buy_timing="before_draw"``): one window per turn, on the top
  discard at the start of the turn. After a buy the player to draw may draw from the
  stock or take the new top discard (source 004 is silent; its normal turn draws "from
  the stock or the top discard"), and drawing from the stock opens no second window.
* A round also ends when the player to draw declines the discard and no card can be
  drawn from the stock, even after reshuffling (source 000: "both piles run out").
* No lay-off, lay-down or swap may leave a player unable to end the turn.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit.actions import (
    Action,
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
    parse_action,
)
from rummykit.cards import Card, Hand, Shoe, as_rng
from rummykit.errors import (
    ArgumentError,
    ArgumentTypeError,
    CardParseError,
    IllegalActionError,
    IllegalMeldError,
    RuleSetError,
    RummyError,
    SaveFileError,
)
from rummykit.melds import (
    Meld,
    check_lay_down,
    check_meld,
    find_contract,
    lay_off,
    lay_off_options,
    swap_joker,
)
from rummykit.rules import Contract, RuleSet

__all__ = [
    "DEFAULT_NAMES",
    "PHASES",
    "Event",
    "Game",
    "GameState",
    "PlayerView",
    "RoundResult",
    "load",
    "play_game",
]

#: Names given to the seats when none are passed, seat 0 first.
DEFAULT_NAMES = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")

#: The phases of a game.
PHASES = ("draw", "buy", "play", "call", "call discard", "over")

SAVE_FORMAT = "rummykit.game"
SAVE_VERSION = 1
#: The largest save :func:`load` reads, in bytes of UTF-8 (a whole game of 8 players
#: is some tens of kilobytes), and the deepest nesting of its JSON (a save nests 4 deep).
MAX_SAVE_BYTES = 1_000_000
MAX_SAVE_DEPTH = 8


# --------------------------------------------------------------------------------------
# Events


@dataclass(frozen=True)
class Event:
    """One thing that happened, chance outcomes included; :meth:`GameState.log` lists them.

    Private details (the cards dealt or drawn from the stock) are kept in ``cards`` for
    replay checks and analysis; :func:`rummykit.narrate.narrate` tells only public ones.
    """

    round: int
    """The round (1-based)."""
    kind: str
    """What happened: ``"deal"``, ``"upcard"``, ``"cut"``, ``"draw stock"``, ``"take discard"``,
    ``"decline"``, ``"buy limit"``, ``"buy"``, ``"pass buy"``, ``"buy lottery"``, ``"lay down"``,
    ``"lay off"``,
    ``"swap"``, ``"discard"``, ``"call"``, ``"rummy penalty"``, ``"reshuffle"``, ``"float"``,
    ``"end turn"``, ``"go out"``, ``"invalid lay down"``, ``"piles exhausted"``,
    ``"round end"`` or ``"game end"``."""
    seat: int | None = None
    """The seat concerned, if any."""
    cards: tuple[Card, ...] = ()
    """The cards concerned (for a buy: the bought card then the penalty cards)."""
    meld: int | None = None
    """The table meld concerned, if any."""
    melds: tuple[Meld, ...] = ()
    """Melds laid down (``"lay down"``) or the meld after a lay-off or swap."""
    scores: tuple[int, ...] = ()
    """Numbers that go with the event: for ``"round end"`` each seat's points this round
    (signed as the rule set writes them), for ``"game end"`` the totals, for ``"cut"``
    (cards cut, 1 if perfect else 0), for ``"reshuffle"`` the new stock's size, for
    ``"buy lottery"`` the seats that asked, for ``"call"`` the discarder's seat, for a
    ``"buy"`` before the draw (``buy_timing="before_draw"``) the seat about to draw, for
    ``"buy limit"`` (a seat not asked to buy the card, having made its most buys this
    round) the buys made and the limit."""


@dataclass(frozen=True)
class RoundResult:
    """The table as a round ended, before the next deal: what every player shows to score.

    :attr:`GameState.results` keeps one per finished round, so the finished table can
    still be shown once the next round is dealt.

    >>> from rummykit.bots import GreedyBot
    >>> state = Game(players=2, seed=3).new_state(round=7)
    >>> final = play_game(state, [GreedyBot(seed=0), GreedyBot(seed=1)])
    >>> result = final.results[0]
    >>> result.round, result.points == final.round_scores[0], len(result.hands[result.went_out])
    (7, True, 0)
    """

    round: int
    """The round (1-based)."""
    contracts: tuple[Contract, ...]
    """Each seat's contract in that round."""
    hands: tuple[Hand, ...]
    """The cards each seat held at the end (they scored these)."""
    melds: tuple[Meld, ...]
    """The melds on the table, by meld number."""
    meld_owners: tuple[int, ...]
    """Who laid each meld."""
    laid_down: tuple[bool, ...]
    """Whether each seat had laid down its contract."""
    went_out: int | None
    """The seat that went out, or None when the round ended another way (the piles ran
    out, or the turn limit was reached)."""
    points: tuple[int, ...]
    """Each seat's points this round, signed as the rule set writes them."""
    scores: tuple[int, ...]
    """Each seat's total after the round."""


# --------------------------------------------------------------------------------------
# The view of one seat: everything a bot or widget may know.


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
    """One of :data:`PHASES`."""
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

        See :meth:`GameState.legal_actions` for what is listed.
        """
        if self.to_act != self.seat:
            return []
        return _legal_actions(self)

    def to_dict(self) -> dict:
        """The view as plain JSON data: what this seat may see, and nothing else.

        Cards are written by code (``"8H"``, ``"JK"``), as actions write them; each table
        meld gives its cards, what each joker stands for and which jokers were traded
        once. Use this rather than :func:`dataclasses.asdict`, which cannot rebuild the
        view's :class:`~rummykit.cards.Hand` from plain data.

        >>> import json
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
            "rules": _rules_to_json(self.rules),
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


def _by_rank(card: Card) -> int:
    return _RANK_MAJOR[card.index] + card.deck


def _empty_ok(view: PlayerView) -> bool:
    """May a play leave this player's hand empty (floating, or going out by melding)?"""
    rules = view.rules
    return rules.floating or (view.is_last_round and rules.last_round_no_discard)


def _can_finish(view: PlayerView, hand_after: Sequence[Card], pending: Sequence[Card]) -> bool:
    """Could the player still end the turn holding ``hand_after``?"""
    if not hand_after:
        return _empty_ok(view)
    if view.is_last_round and view.rules.last_round_no_discard and len(hand_after) == 1:
        return True  # "end turn" without a discard
    taken = view.taken
    return any(card != taken and card not in pending for card in hand_after)


def _meld_key(pending: Sequence[Card], traded: frozenset[Card]):
    def key(card: Card) -> tuple[int, int]:
        if card.is_joker:
            return (0 if card in pending else 1 if card in traded else 2, card.deck)
        return (0, card.deck)

    return key


def _match(hand: Sequence[Card], wanted: Iterable[Card], key) -> list[Card] | None:
    """Physical cards of ``hand`` for the codes ``wanted`` (None when one is missing)."""
    used: list[Card] = []
    for want in wanted:
        copies = [c for c in hand if c.index == want.index and c not in used]
        if not copies:
            return None
        used.append(min(copies, key=key))
    return used


def _without(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
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


def _fits_table(view: PlayerView, card: Card, melds: Sequence[Meld] | None = None) -> bool:
    return any(_options(view, meld, card) for meld in (view.melds if melds is None else melds))


def _end_of(old: Meld, new: Meld) -> str | None:
    if old.kind != "run":
        return None
    return "low" if new.start < old.start else "high"


def _canonical_lay_down(view: PlayerView) -> list[Meld] | None:
    """One legal lay-down of this seat's contract (``find_contract``'s), or None.

    When ``find_contract`` uses so many cards that the turn could not end, a card is
    given back from a meld longer than it needs to be.
    """
    hand = list(view.hand)
    if len(hand) < view.contract.min_cards(view.rules):
        return None
    melds = find_contract(hand, view.contract, view.rules)
    if melds is None:
        return None
    used = [card for meld in melds for card in meld.cards]
    if _can_finish(view, _without(hand, used), view.pending_jokers):
        return melds
    for index, meld in enumerate(melds):
        for drop in dict.fromkeys((meld.cards[0], meld.cards[-1], *meld.cards)):
            groups = [list(m.cards) for m in melds]
            groups[index].remove(drop)
            try:
                trimmed = check_lay_down(groups, view.contract, view.rules)
            except IllegalMeldError:
                continue
            if _can_finish(
                view, _without(hand, [c for g in groups for c in g]), view.pending_jokers
            ):
                return trimmed
    return None


def _joker_to_play(view: PlayerView) -> bool:
    """Must this seat still play a joker taken by a swap before discarding?

    Yes while it can: a laid-down player while the joker fits a meld on the table; a
    player who swapped before laying down while the contract can be laid down. When it
    cannot, the rule cannot be met and the turn may end (the joker may be discarded).
    """
    if not view.pending_jokers:
        return False
    if view.laid_down[view.seat]:
        return any(_fits_table(view, joker) for joker in view.pending_jokers)
    return _canonical_lay_down(view) is not None


def _discardable(view: PlayerView) -> list[Card]:
    """The physical cards this seat may discard now (one per code)."""
    rules = view.rules
    hand = view.hand
    if view.phase == "play":
        if view.is_last_round and rules.last_round_no_discard and len(hand) == 1:
            return []
        if _joker_to_play(view):
            return []
    seen: dict[int, Card] = {}
    taken, pending = view.taken, view.pending_jokers
    # A pending joker left in hand could not be played: discard it last, if at all.
    if pending:
        ordered = sorted(hand, key=lambda c: (c in pending, _by_rank(c)))
    else:
        ordered = sorted(hand, key=_by_rank)
    for card in ordered:
        if taken is not None and card == taken:
            continue
        seen.setdefault(card.index, card)
    return sorted(seen.values(), key=_by_rank)


_DISCARDS: dict[int, Discard] = {}


def _discard_action(card: Card) -> Discard:
    """``Discard(card)``, made once per card face (actions are values)."""
    action = _DISCARDS.get(card.index)
    if action is None:
        action = _DISCARDS[card.index] = Discard(card)
    return action


def _legal_actions(view: PlayerView) -> list[Action]:
    phase = view.phase
    if phase == "draw":
        actions: list[Action] = [DrawStock()]
        if view.discard_top is not None and (view.hand or _fits_table(view, view.discard_top)):
            actions.append(TakeDiscard())
        return actions
    if phase == "buy":
        return [Buy(), Pass()]
    if phase == "call":
        return [Call(), Pass()]
    if phase == "call discard":
        return [_discard_action(card) for card in _discardable(view)]
    if phase != "play":
        return []
    actions = []
    rules = view.rules
    hand = list(view.hand)
    key = _meld_key(view.pending_jokers, view.traded_jokers)
    if not view.laid_down[view.seat]:
        melds = _canonical_lay_down(view)
        if melds is not None:
            actions.append(LayDown(tuple(m.cards for m in melds)))
    if view.laid_down[view.seat] or not rules.joker_swap_needs_laid_down:
        firsts: dict[int, Card] = {}
        for card in sorted(hand, key=key):
            firsts.setdefault(card.index, card)
        faces = sorted(firsts.values(), key=_by_rank)
        if view.laid_down[view.seat]:
            # _can_finish(hand less the card), counted once: the cards one may discard.
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
                        actions.extend(LayOff(card, number, _end_of(meld, new)) for new in options)
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
                    if not isinstance(_try_swap(view, card, number), str):
                        actions.append(Swap(card, number))
    actions.extend(_discard_action(card) for card in _discardable(view))
    if view.is_last_round and rules.last_round_no_discard and len(hand) == 1:
        actions.append(EndTurn())
    return actions


def _try_swap(view: PlayerView, card: Card, number: int) -> tuple[Meld, Card] | str:
    """The swap of ``card`` into meld ``number``: (new meld, joker), or why it is illegal.

    The exactness of the card and the kind of meld are :func:`swap_joker`'s rules; the
    turn, the laid-down condition, trade-once and "play the joker this turn" are the game's.
    """
    rules = view.rules
    if rules.joker_swap == "none":
        return "this rule set does not allow taking jokers from the table"
    if rules.joker_swap_needs_laid_down and not view.laid_down[view.seat]:
        return "only a player who has laid down may swap a joker"
    meld = view.melds[number]
    if not any(s is not None and s.index == card.index for s in meld.stands_for):
        return f"no joker in meld {number} stands for the {card.symbol}"
    try:
        new, joker = swap_joker(meld, card, rules)
    except IllegalMeldError as error:
        return str(error)
    if rules.joker_trade_once and joker in view.traded_jokers:
        return "this joker has been traded once and lies face down: it cannot be traded again"
    hand_after = [*_without(view.hand, [card]), joker]
    pending = [*view.pending_jokers, joker]
    if not _can_finish(view, _without(hand_after, [joker]), pending):
        return "after the swap you could not end your turn"
    if rules.swapped_joker_must_be_played:
        if view.laid_down[view.seat]:
            table = list(view.melds)
            table[number] = new
            if not _fits_table(view, joker, table):
                return "the joker taken must be played this turn, and it fits no meld on the table"
        elif find_contract(hand_after, view.contract, rules) is None:
            return (
                "the joker taken must be played this turn: before laying down, swap only "
                "when you can then lay your contract down"
            )
    return new, joker


# --------------------------------------------------------------------------------------
# The game: configuration and factory


class Game:
    """A table: the rule set, the number of players, their names and the seed.

    ``rules`` is a :class:`RuleSet` or a preset name. ``seed`` is an int, a
    ``random.Random`` (an int seed is drawn from it) or None (a fresh seed, kept in
    :attr:`seed` so the game can be replayed).

    Two limits keep a round from going on for ever when nobody can go out, which random
    players easily achieve (source 000 warns of "stubborn" players). Both default to
    None, the rules as written. ``max_reshuffles``: the stock is rebuilt from the
    discard pile at most this many times a round, after which an empty stock ends the
    round (source 000 suggests three). ``turn_limit``: a round in which this many turns
    were started ends (not a rule of the sources). A round ended either way is scored
    as when both piles run out.

    >>> game = Game("family", players=2, seed=1)
    >>> game.decks, game.jokers, game.shoe.size
    (2, 2, 106)
    """

    def __init__(
        self,
        rules: RuleSet | str = "standard",
        players: int = 4,
        *,
        seed: int | random.Random | None = None,
        names: Sequence[str] | None = None,
        turn_limit: int | None = None,
        max_reshuffles: int | None = None,
    ) -> None:
        if isinstance(rules, str):
            rules = _preset(rules)
        if not isinstance(rules, RuleSet):
            raise ArgumentTypeError(f"rules must be a RuleSet or a preset name, got {rules!r}")
        rules.check_players(players)
        if isinstance(seed, random.Random) or seed is None:
            seed = as_rng(seed).getrandbits(63)
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise ArgumentTypeError(f"seed must be an int, a random.Random or None, got {seed!r}")
        if names is None:
            names = tuple(DEFAULT_NAMES[:players])
        elif isinstance(names, str) or not isinstance(names, Iterable):
            raise ArgumentTypeError(f"names must be a sequence of strings, got {names!r}")
        names = tuple(names)
        if len(names) != players or not all(isinstance(n, str) and n for n in names):
            raise ArgumentError(
                f"names: give one non-empty name per player ({players}), got {names!r}"
            )
        for name, value, low in (
            ("turn_limit", turn_limit, 1),
            ("max_reshuffles", max_reshuffles, 0),
        ):
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise ArgumentTypeError(f"{name} must be None or an integer, got {value!r}")
            if value < low:
                raise ArgumentError(f"{name} must be None or an integer >= {low}, got {value!r}")
        self.rules: RuleSet = rules
        self.players: int = players
        self.seed: int = seed
        self.names: tuple[str, ...] = names
        self.turn_limit: int | None = turn_limit
        self.max_reshuffles: int | None = max_reshuffles
        self.decks: int = rules.decks_for(players)
        self.jokers: int = rules.jokers_for(self.decks)
        self.shoe: Shoe = Shoe(decks=self.decks, jokers=self.jokers)
        self._all_cards = frozenset(self.shoe.cards)

    def __repr__(self) -> str:
        return f"Game({self.rules.name!r}, players={self.players}, seed={self.seed})"

    def limits(self) -> dict[str, int | None]:
        """The safety limits, to copy into another Game: ``Game(..., **game.limits())``."""
        return {"turn_limit": self.turn_limit, "max_reshuffles": self.max_reshuffles}

    def new_state(
        self,
        *,
        dealer: int | None = None,
        round: int = 1,
        hands: Sequence[str | Iterable[Card] | None] | None = None,
        upcard: str | Card | None = None,
        stock: str | Iterable[Card] | None = None,
        cut: int | None = None,
        scores: Sequence[int] | None = None,
    ) -> GameState:
        """The state at the start of round ``round`` (1-based), dealt from the seed.

        A test scripts the first deal: ``hands`` gives a hand per seat (codes such as
        ``"8S 8H 8D JK"``, or None for a random hand), ``upcard`` the first discard,
        ``stock`` the top cards of the stock (top first), ``cut`` the number of cards the
        cutter lifts (perfect-cut rule). A code names the lowest-deck copy not yet used.
        The other cards are shuffled from the seed. ``dealer`` defaults to a seat drawn
        from the seed; ``scores`` are the totals before this round.

        >>> hands = ["8S 8H 8D JH JH JS 2C 3C 4C 5C", None]
        >>> state = Game(players=2, seed=3).new_state(dealer=1, hands=hands, upcard="KS")
        >>> str(state.view(0).hand), state.view(0).discard_top, state.current
        ('2♣ 3♣ 4♣ 5♣ 8♦ 8♥ 8♠ J♥ J♥ J♠', Card.parse('K♠'), 0)
        """
        setup = {
            "dealer": dealer,
            "round": round,
            "hands": None if hands is None else [_codes(h) for h in hands],
            "upcard": None if upcard is None else _codes([upcard])[0],
            "stock": None if stock is None else _codes(stock),
            "cut": cut,
            "scores": None if scores is None else list(scores),
        }
        return GameState(self, setup)

    def play(self, bots: Sequence, **setup) -> GameState:
        """Play a whole game with one bot per seat (see :func:`play_game`)."""
        return play_game(self.new_state(**setup), bots)


# Games named by preset share one (immutable) RuleSet, and so the search tables that
# rummykit.melds keeps per rule set: a fresh copy per game would rebuild them each time.
_preset = functools.cache(RuleSet.preset)


def _codes(cards: str | Iterable[Card | str] | Card | None) -> list[str] | None:
    if cards is None:
        return None
    if isinstance(cards, Card):
        return [cards.code]
    if isinstance(cards, str):
        return [Card.parse(token).code for token in cards.replace(",", " ").split()]
    return [card.code if isinstance(card, Card) else Card.parse(card).code for card in cards]


# --------------------------------------------------------------------------------------
# The state of one play-through


class GameState:
    """One play-through of a :class:`Game`: the only mutable object, with its history.

    Make one with :meth:`Game.new_state`. :meth:`legal_actions` lists what the player
    to act may do, :meth:`apply` plays one action (or raises
    :class:`~rummykit.errors.IllegalActionError` and changes nothing), :meth:`view`
    gives one seat's :class:`PlayerView`, :attr:`history` the actions so far and
    :attr:`log` every event. :meth:`save` writes JSON that :func:`load` replays.

    The whole truth is in plain attributes, for tests and analysis (read them, change
    them only through :meth:`apply`): ``hands`` (one list per seat), ``stock`` and
    ``discards`` (top card last), ``melds`` and ``owners`` (the table, by meld number),
    ``laid_down``, ``buys``, ``penalties`` (points added this round: +invalid lay-downs,
    -perfect cut), ``taken`` (the card taken from the pile this turn), ``pending``
    (jokers taken by a swap this turn), ``traded`` (jokers traded once), ``scores``,
    ``round_scores``, ``results``, ``phase``, ``current``, ``to_act``, ``dealer``,
    ``reshuffles``.
    """

    def __init__(self, game: Game, setup: dict) -> None:
        self.game = game
        self.rules = game.rules
        self.players = game.players
        self.setup = setup
        self.rng = random.Random(game.seed)
        n = self.players
        self.history: list[tuple[int, Action]] = []
        """Every action applied, with the seat that played it."""
        self.log: list[Event] = []
        """Every event, chance outcomes included."""
        self.scores: list[int] = [0] * n if setup["scores"] is None else list(setup["scores"])
        if len(self.scores) != n or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in self.scores
        ):
            raise ArgumentError(f"scores must give one integer per seat, got {setup['scores']!r}")
        self.round_scores: list[tuple[int, ...]] = []
        """Each finished round's points per seat (signed as the rule set writes them)."""
        self.results: list[RoundResult] = []
        """Each finished round's table, hands and points (see :class:`RoundResult`)."""
        first = setup["round"]
        if (
            not isinstance(first, int)
            or isinstance(first, bool)
            or not 1 <= first <= self.rules.rounds
        ):
            raise ArgumentError(f"round must be 1..{self.rules.rounds}, got {first!r}")
        self.round_index = first - 1
        self.contract_index = [self.round_index] * n
        dealer = setup["dealer"]
        if dealer is None:
            dealer = self.rng.randrange(n)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise ArgumentError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.dealer = dealer
        self.phase = "draw"
        self._deal(scripted=setup)

    # ----------------------------------------------------------------------------- dealing
    def _deal(self, scripted: dict | None = None) -> None:
        n, rules, rng = self.players, self.rules, self.rng
        size = rules.deal_sizes[self.round_index]
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.melds: list[Meld] = []
        self.owners: list[int] = []
        self.laid_down = [False] * n
        self.buys = [0] * n
        self.penalties = [0] * n
        self.traded: set[Card] = set()
        self.reshuffles = 0
        self.turns = 0
        self.last_turn = [-1] * n
        self.taken: Card | None = None
        self.pending: list[Card] = []
        self.offer: Card | None = None
        self.offered_by: int | None = None
        self.queue: list[int] = []
        self.requests: list[int] = []
        self.went_out: int | None = None
        self.top_by: int | None = None
        r = self.round_index + 1
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        cut = None if scripted is None else scripted.get("cut")
        if rules.perfect_cut_bonus:
            shoe_size = self.game.shoe.size
            if cut is None:
                cut = rng.randint(1, shoe_size - 1)
            cutter = (self.dealer - 1) % n
            perfect = cut == n * size + 1
            self.log.append(Event(r, "cut", cutter, scores=(cut, int(perfect))))
            if perfect:
                self.penalties[cutter] -= rules.perfect_cut_bonus
        pool = list(self.game.shoe.cards)
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
                    self.hands[seat].append(pool.pop())
        for seat in range(n):
            if script_hands[seat] is not None:
                self.hands[seat] = list(script_hands[seat])
        upcard = script_up if script_up is not None else pool.pop()
        self.stock: list[Card] = pool + list(reversed(script_stock or []))
        self.discards: list[Card] = [upcard]
        for seat in order:
            self.log.append(Event(r, "deal", seat, tuple(self.hands[seat])))
        self.log.append(Event(r, "upcard", None, (upcard,)))
        self.current = order[0]
        self.to_act: int | None = self.current
        self.phase = "draw"
        self._start_turn()

    def _start_turn(self) -> None:
        self.turns += 1
        self.last_turn[self.current] = self.turns
        self.taken = None
        self.pending = []
        self.phase = "draw"
        self.to_act = self.current
        if self.rules.buy_timing == "before_draw":
            self._open_buy_window()

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

    # ----------------------------------------------------------------------------- reading
    @property
    def round(self) -> int:
        """The round being played (1-based; the last round once the game is over)."""
        return min(self.round_index, self.rules.rounds - 1) + 1

    @property
    def is_over(self) -> bool:
        """True once the last round has been scored."""
        return self.phase == "over"

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, seat 0 first."""
        return self.game.names

    def contract(self, seat: int) -> Contract:
        """The contract ``seat`` plays this round."""
        return self.rules.contracts[self.contract_index[seat]]

    def buy_limit(self) -> int | None:
        """Most buys per player this round (None: unlimited)."""
        rules = self.rules
        if self.round_index == rules.rounds - 1 and rules.last_round_buy_limit is not None:
            return rules.last_round_buy_limit
        return rules.buy_limit

    def winners(self) -> list[int]:
        """The seats with the best total (lowest, or least negative when scores are
        negative); several on a tie."""
        best = max(self.scores) if self.rules.negative_scores else min(self.scores)
        return [seat for seat, score in enumerate(self.scores) if score == best]

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ArgumentTypeError(f"seat must be an integer 0..{self.players - 1}, got {seat!r}")
        if not 0 <= seat < self.players:
            raise ArgumentError(f"seat must be 0..{self.players - 1}, got {seat!r}")

    def hand(self, seat: int) -> Hand:
        """``seat``'s cards (the whole truth, for tests and analysis; bots use :meth:`view`)."""
        self._check_seat(seat)
        return Hand(self.hands[seat])

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see (see :class:`PlayerView`)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        own = seat == self.to_act or seat == self.current
        offer = self.offer if self.phase in ("buy", "call") else None
        view = object.__new__(PlayerView)
        # A view is built for every action: fill the frozen dataclass's fields at once
        # rather than through its __init__, which sets them one by one.
        view.__dict__.update(
            seat=seat,
            names=self.game.names,
            rules=self.rules,
            round=self.round,
            rounds=self.rules.rounds,
            phase=self.phase,
            to_act=self.to_act,
            current=self.current,
            dealer=self.dealer,
            # The cards are known good: skip Hand's per-card check.
            hand=tuple.__new__(Hand, sorted(self.hands[seat], key=_by_rank)),
            contracts=tuple(map(self.rules.contracts.__getitem__, self.contract_index)),
            hand_sizes=tuple(map(len, self.hands)),
            melds=tuple(self.melds),
            meld_owners=tuple(self.owners),
            laid_down=tuple(self.laid_down),
            discard_top=self.discards[-1] if self.discards else None,
            discard_size=len(self.discards),
            stock_size=len(self.stock),
            scores=tuple(self.scores),
            buys=tuple(self.buys),
            buy_limit=self.buy_limit(),
            taken=self.taken if own else None,
            pending_jokers=tuple(self.pending) if own else (),
            traded_jokers=frozenset(self.traded),
            offer=offer,
            offered_by=self.offered_by if offer is not None else None,
        )
        return view

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (empty exactly when the game is over).

        Lay-downs are a documented canonical subset: at most one ``lay down`` is listed,
        the arrangement :func:`~rummykit.melds.find_contract` finds (a card given back if
        needed so the turn can end); :meth:`apply` accepts any legal arrangement, and
        :meth:`can_lay_down` says whether one exists. Everything else is listed in full:
        one action per distinct card code (copies of a card are interchangeable), per
        table meld and, for a card that fits either end of a run, per end.
        """
        if self.to_act is None:
            return []
        return _legal_actions(self.view(self.to_act))

    def can_lay_down(self) -> bool:
        """True when the player to act may lay down their contract now."""
        return self.to_act is not None and self.view(self.to_act).can_lay_down()

    def clone(self) -> GameState:
        """An independent copy (RNG state included), e.g. to try an action."""
        other = object.__new__(GameState)
        for name, value in self.__dict__.items():
            if name == "hands":
                value = [list(hand) for hand in value]
            elif isinstance(value, list):
                value = list(value)  # lists of immutable things (cards, melds, events)
            elif isinstance(value, set):
                value = set(value)
            elif isinstance(value, random.Random):
                copy = random.Random()
                copy.setstate(value.getstate())
                value = copy
            other.__dict__[name] = value
        return other

    # ----------------------------------------------------------------------------- acting
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an :class:`~rummykit.actions.Action` or its notation) for the
        player to act.

        Raises :class:`~rummykit.errors.IllegalActionError` naming the rule broken, and
        then the state is exactly as before: every check runs before anything changes.
        """
        self._apply(parse_action(action), None)

    def _apply(self, action: Action, view: PlayerView | None) -> None:
        """:meth:`apply` for a parsed action; ``view``: the actor's view of this state, if built."""
        if self.to_act is None:
            raise IllegalActionError(f"the game is over: no {action.kind!r} is possible")
        seat = self.to_act
        handler = _HANDLERS.get((self.phase, type(action)))
        if handler is None:
            raise IllegalActionError(
                f"{self.game.names[seat]} cannot {action.kind} in the {self.phase!r} phase: "
                f"{_PHASE_HELP[self.phase]}"
            )
        # Buying, passing and drawing from the stock need no view (they are most actions).
        if view is None and handler not in _VIEWLESS:
            view = self.view(seat)
        commit = handler(self, view, action)
        commit()
        self.history.append((seat, action))

    def _event(
        self,
        kind: str,
        seat: int | None = None,
        cards: tuple[Card, ...] = (),
        *,
        meld: int | None = None,
        melds: tuple[Meld, ...] = (),
        scores: tuple[int, ...] = (),
    ) -> None:
        event = object.__new__(Event)
        # As in view(): events are logged for every action, so fill the fields at once.
        event.__dict__.update(
            round=self.round_index + 1,
            kind=kind,
            seat=seat,
            cards=cards,
            meld=meld,
            melds=melds,
            scores=scores,
        )
        self.log.append(event)

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

    def _note_buy_limits(self, top: Card) -> None:
        """Log a ``"buy limit"`` event for each seat a buy window skips for its buy limit."""
        limit = self.buy_limit()
        if limit is None or len(self.stock) < self.rules.buy_penalty_cards:
            return  # no limit, or no window for anyone (the stock cannot pay the penalty)
        n = self.players
        for seat in ((self.current + i) % n for i in range(1, n)):
            if self.buys[seat] >= limit:
                self._event("buy limit", seat, (top,), scores=(self.buys[seat], limit))

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
            self.reshuffles += 1
            self._event("reshuffle", None, (), scores=(len(self.stock),))
        return self.stock.pop() if self.stock else None

    def _take_discard(self, view: PlayerView, action: TakeDiscard):
        if not self.discards:
            raise IllegalActionError("the discard pile is empty: draw from the stock")
        card = self.discards[-1]
        if not self.hands[self.current] and not _fits_table(view, card):
            raise IllegalActionError(
                f"a floating player may take the discard only to lay it off, and the "
                f"{card.symbol} fits no meld (a card taken from the pile cannot be discarded "
                f"the same turn)"
            )

        def commit() -> None:
            seat = self.current
            self.discards.pop()
            self.top_by = None
            self.hands[seat].append(card)
            self.taken = card
            self._event("take discard", seat, (card,))
            self.phase = "play"

        return commit

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
            self._event("buy lottery", winner, (), scores=tuple(self.requests))
            self._execute_buy(winner)
            return
        self._close_buy_window()

    def _execute_buy(self, seat: int) -> None:
        card = self.discards.pop()
        self.top_by = None
        penalty = [self.stock.pop() for _ in range(self.rules.buy_penalty_cards)]
        self.hands[seat].extend([card, *penalty])
        self.buys[seat] += 1
        before = (self.current,) if self.rules.buy_timing == "before_draw" else ()
        self._event("buy", seat, (card, *penalty), scores=before)
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
        rest = _without(self.hands[seat], [c for g in cards for c in g])
        if not _can_finish(view, rest, self.pending):
            raise IllegalActionError(_cannot_finish(view, rest))

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
        found = _match(self.hands[seat], wanted, _meld_key(self.pending, frozenset(self.traded)))
        if found is None:
            raise IllegalActionError(
                f"{self.game.names[seat]} does not hold "
                f"{_missing(self.hands[seat], wanted)} (the hand is {Hand(view.hand)})"
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
        found = _match(
            self.hands[seat], [action.card], _meld_key(self.pending, frozenset(self.traded))
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
            chosen = [m for m in options if _end_of(meld, m) == action.end]
            if not chosen:
                raise IllegalActionError(
                    f"the {card.symbol} cannot go at the {action.end} end of meld {action.meld} "
                    f"({meld.describe()})"
                )
            new = chosen[0]
        rest = _without(self.hands[seat], [card])
        pending = [j for j in self.pending if j != card]
        if not _can_finish(view, rest, pending):
            raise IllegalActionError(_cannot_finish(view, rest))

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
        found = _match(self.hands[seat], [action.card], lambda c: c.deck)
        if found is None:
            raise IllegalActionError(f"{self.game.names[seat]} holds no {action.card.symbol}")
        card = found[0]
        result = _try_swap(view, card, action.meld)
        if isinstance(result, str):
            raise IllegalActionError(
                f"cannot swap the {card.symbol} into meld {action.meld}: {result}"
            )
        new, joker = result

        def commit() -> None:
            self.hands[seat] = [*_without(self.hands[seat], [card]), joker]
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
        card = {c.index: c for c in _discardable(view)}.get(action.card.index)
        if card is None:
            raise IllegalActionError(_why_not_discard(view, action.card))

        def commit() -> None:
            hand.remove(card)
            self.discards.append(card)
            self.top_by = seat
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
        if EndTurn() not in _legal_actions(view):
            if _joker_to_play(view):
                raise IllegalActionError(_unplayed_joker(view, "end the turn"))
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
        if not _fits_table(view, card):
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
            self._event("call", caller, (card,), scores=(offender,))
            self.queue = []
            self.offer = None
            self.discards.pop()
            self.top_by = None
            if self.rules.discard_call == "liverpool":
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
                hands=tuple(Hand(sorted(hand, key=_by_rank)) for hand in self.hands),
                melds=tuple(self.melds),
                meld_owners=tuple(self.owners),
                laid_down=tuple(self.laid_down),
                went_out=self.went_out,
                points=tuple(points),
                scores=tuple(self.scores),
            )
        )
        self._event("round end", self.went_out, scores=tuple(points))
        for seat in range(self.players):
            missed = not self.laid_down[seat]
            if not (rules.repeat_missed_contract and missed):
                self.contract_index[seat] = min(self.contract_index[seat] + 1, rules.rounds - 1)
        self.round_index += 1
        if self.round_index >= rules.rounds:
            self.phase = "over"
            self.to_act = None
            self._event("game end", None, scores=tuple(self.scores))
            return
        self.dealer = (self.dealer + 1) % self.players
        self._deal()

    # ----------------------------------------------------------------------------- checks
    def check_invariants(self, *, checked_melds: set[tuple[Card, ...]] | None = None) -> None:
        """Raise AssertionError if the state breaks an invariant of the game.

        Cards in hands, melds, stock and discard pile are exactly the shoe; every meld on
        the table is legal; a player who has not laid down has no melds; only the player
        to act has legal actions, and there are some exactly when the game is not over.
        ``checked_melds`` (a set the caller keeps between calls) skips the meld check
        for card sequences already found legal, as a speed-up for long random runs.
        """
        if self.is_over:
            assert self.to_act is None and not self.legal_actions(), "over, yet actions listed"
            return
        cards = [c for h in self.hands for c in h] + self.stock + self.discards
        cards += [c for m in self.melds for c in m.cards]
        shoe = self.game.shoe
        distinct = set(cards)
        assert len(cards) == len(distinct) == shoe.size and distinct <= self.game._all_cards, (
            "cards are not exactly the shoe"
        )
        for number, meld in enumerate(self.melds):
            if checked_melds is not None and meld.cards in checked_melds:
                continue
            check = check_meld(meld.cards, self.rules)
            assert check.ok, f"meld {number} {meld} is illegal: {check.reason}"
            if checked_melds is not None:
                checked_melds.add(meld.cards)
        for seat in range(self.players):
            assert self.laid_down[seat] or seat not in self.owners, "melds without a lay-down"
        assert self.legal_actions(), f"no legal action in phase {self.phase!r}"

    def snapshot(self) -> dict:
        """The whole state as plain JSON data (physical cards as ``"code/deck"``)."""

        def cards(seq: Iterable[Card]) -> list[str]:
            return [f"{c.code}/{c.deck}" for c in seq]

        return {
            "round": self.round_index + 1,
            "phase": self.phase,
            "dealer": self.dealer,
            "current": self.current,
            "to_act": self.to_act,
            "scores": list(self.scores),
            "round_scores": [list(s) for s in self.round_scores],
            "hands": [cards(h) for h in self.hands],
            "melds": [cards(m.cards) for m in self.melds],
            "owners": list(self.owners),
            "laid_down": list(self.laid_down),
            "stock": cards(self.stock),
            "discards": cards(self.discards),
            "buys": list(self.buys),
            "contracts": list(self.contract_index),
        }

    # ----------------------------------------------------------------------------- saving
    def save(self) -> str:
        """The game as JSON: configuration, set-up, every action, and the resulting state.

        :func:`load` replays the actions and checks they reproduce the state.
        """
        game = self.game
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "version": SAVE_VERSION,
                "rules": _rules_to_json(game.rules),
                "players": game.players,
                "seed": game.seed,
                "names": list(game.names),
                "turn_limit": game.turn_limit,
                "max_reshuffles": game.max_reshuffles,
                "setup": self.setup,
                "actions": [[seat, str(action)] for seat, action in self.history],
                "state": self.snapshot(),
            },
            indent=1,
        )

    def narrate(self, round: int | None = None) -> str:
        """The round (default: the current one) in plain words, from the table's view."""
        from rummykit.narrate import narrate

        return narrate(self, round=round)

    def __repr__(self) -> str:
        who = "nobody" if self.to_act is None else self.game.names[self.to_act]
        return (
            f"<GameState {self.game.rules.name} round {self.round} of {self.rules.rounds}, "
            f"phase {self.phase!r}, {who} to act>"
        )


_HANDLERS = {
    ("draw", DrawStock): GameState._draw_stock,
    ("draw", TakeDiscard): GameState._take_discard,
    ("buy", Buy): GameState._buy,
    ("buy", Pass): GameState._pass_buy,
    ("play", LayDown): GameState._lay_down,
    ("play", InvalidLayDown): GameState._invalid_lay_down,
    ("play", LayOff): GameState._lay_off,
    ("play", Swap): GameState._swap,
    ("play", Discard): GameState._discard,
    ("play", EndTurn): GameState._end_turn,
    ("call", Call): GameState._call,
    ("call", Pass): GameState._pass_call,
    ("call discard", Discard): GameState._discard,
}
_VIEWLESS = {
    GameState._draw_stock,
    GameState._buy,
    GameState._pass_buy,
    GameState._call,
    GameState._pass_call,
}
_PHASE_HELP = {
    "draw": "first draw from the stock ('draw stock') or take the discard ('take discard')",
    "buy": "the discard is offered: 'buy' or 'pass'",
    "play": "lay down, lay off, swap a joker, then discard",
    "call": "the last discard could have been laid off: 'call' or 'pass'",
    "call discard": "you claimed the discard: now discard a card",
    "over": "the game is over",
}


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


def _missing(hand: Sequence[Card], wanted: Sequence[Card]) -> str:
    left = list(hand)
    for want in wanted:
        copies = [c for c in left if c.index == want.index]
        if not copies:
            count = sum(1 for w in wanted if w.index == want.index)
            return f"{count} × {want.symbol}" if count > 1 else f"the {want.symbol}"
        left.remove(copies[0])
    return "those cards"


def _cannot_finish(view: PlayerView, rest: Sequence[Card]) -> str:
    if not rest:
        return (
            "every turn ends with a discard, so you must keep a card to discard "
            f"({view.rules.name} has no floating and no going out by melding here)"
        )
    if view.taken is not None and all(c == view.taken for c in rest):
        return (
            f"you could not end your turn: the only card left would be the "
            f"{view.taken.symbol} you took from the discard pile, which you cannot discard"
        )
    return "you could not end your turn: the cards left must include one you may discard"


def _unplayed_joker(view: PlayerView, verb: str) -> str:
    """Why a seat holding a joker it took by a swap may not ``verb`` yet, naming the joker
    and where it can go."""
    joker = view.pending_jokers[0]
    if view.laid_down[view.seat]:
        fits = [n for n, meld in enumerate(view.melds) if _options(view, meld, joker)]
        where = f"lay it off (it fits meld {', '.join(map(str, fits))})"
    else:
        where = "lay your contract down with it"
    return (
        f"the joker you took by a swap ({joker.symbol}) must be played this turn before you "
        f"{verb}: {where}"
    )


def _why_not_discard(view: PlayerView, card: Card) -> str:
    rules = view.rules
    if (
        view.phase == "play"
        and view.is_last_round
        and rules.last_round_no_discard
        and len(view.hand) == 1
    ):
        return (
            "in the last round you go out by melding every card, with no final discard "
            "('end turn' keeps your last card)"
        )
    if _joker_to_play(view):
        return _unplayed_joker(view, "discard")
    if view.taken is not None and view.taken.index == card.index:
        return (
            f"a card taken from the discard pile cannot be discarded in the same turn "
            f"(the {card.symbol})"
        )
    return f"the {card.symbol} cannot be discarded now"


# --------------------------------------------------------------------------------------
# Save files


#: Rule options added after save version 1 came out. They are written only when they
#: differ from their default, so a game that does not use them saves exactly as before
#: and an older rummykit still reads it; a save without them loads with the default.
_LATER_OPTIONS = ("buy_timing",)


def _rules_to_json(rules: RuleSet) -> dict:
    out = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name in _LATER_OPTIONS and value == f.default:
            continue
        if f.name == "contracts":
            value = [[c.sets, c.runs] for c in value]
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[f.name] = value
    return out


def _rules_from_json(data: object) -> RuleSet:
    if not isinstance(data, dict):
        raise SaveFileError("'rules' must be an object of rule options")
    known = {f.name for f in dataclasses.fields(RuleSet)}
    unknown = set(data) - known
    if unknown:
        raise SaveFileError(f"unknown rule options in the save file: {sorted(unknown)}")
    values = {}
    for name, value in data.items():
        if name == "contracts":
            if not isinstance(value, list) or not all(
                isinstance(c, list) and len(c) == 2 and all(type(x) is int for x in c)
                for c in value
            ):
                raise SaveFileError("'contracts' must be a list of [sets, runs] pairs of integers")
            try:
                value = tuple(Contract(*c) for c in value)
            except RuleSetError as error:
                raise SaveFileError(f"bad contract in the save file: {error}") from None
        elif name in ("decks_by_players", "jokers_by_decks"):
            if not isinstance(value, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                for p in value
            ):
                raise SaveFileError(f"{name!r} must be a list of integer pairs")
            value = tuple(tuple(p) for p in value)
        elif name == "deal_sizes":
            if not isinstance(value, list) or not all(type(x) is int for x in value):
                raise SaveFileError("'deal_sizes' must be a list of integers")
            value = tuple(value)
        elif isinstance(value, list | dict):
            raise SaveFileError(f"rule option {name!r} has a bad value: {value!r}")
        values[name] = value
    try:
        return RuleSet(**values)
    except (RuleSetError, TypeError) as error:
        raise SaveFileError(f"the save file's rules cannot be played: {error}") from None


def load(text: str) -> GameState:
    """Rebuild a game saved by :meth:`GameState.save`, replaying and checking every action.

    Raises :class:`~rummykit.errors.SaveFileError` for anything that is not a valid save
    of a known version: bad JSON, wrong types, unreadable card codes or actions, an
    illegal action, or a replay that does not reproduce the recorded state; the message
    names the field (and the seat or action) where the problem is. The work is bounded
    before it starts: a text of over :data:`MAX_SAVE_BYTES` bytes or nested deeper than
    :data:`MAX_SAVE_DEPTH` is refused unread, and rules beyond the bounds of
    :mod:`rummykit.rules` (such as more than 8 decks or 32 jokers) before a card is made.

    >>> state = Game(players=3, seed=5).new_state()
    >>> state.apply("draw stock")
    >>> load(state.save()).snapshot() == state.snapshot()
    True
    >>> load('{"format": "rummykit.game", "version": 99}')
    Traceback (most recent call last):
    ...
    rummykit.errors.SaveFileError: unknown save version 99 (this rummykit reads version 1)
    """
    _check_save_size(text)
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise SaveFileError(f"not a rummykit save file: invalid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"not a rummykit save file (format should be {SAVE_FORMAT!r})")
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(
            f"unknown save version {data.get('version')!r} "
            f"(this rummykit reads version {SAVE_VERSION})"
        )
    expected = {
        "format",
        "version",
        "rules",
        "players",
        "seed",
        "names",
        "turn_limit",
        "max_reshuffles",
        "setup",
        "actions",
        "state",
    }
    if set(data) != expected:
        raise SaveFileError(f"the save file must hold exactly the keys {sorted(expected)}")
    rules = _rules_from_json(data["rules"])
    players, seed, names, limit = data["players"], data["seed"], data["names"], data["turn_limit"]
    for name, value in (("players", players), ("seed", seed)):
        if type(value) is not int:
            raise SaveFileError(f"{name!r} must be an integer, got {value!r}")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SaveFileError("'names' must be a list of strings")
    reshuffles = data["max_reshuffles"]
    if limit is not None and type(limit) is not int:
        raise SaveFileError("'turn_limit' must be an integer or null")
    if reshuffles is not None and type(reshuffles) is not int:
        raise SaveFileError("'max_reshuffles' must be an integer or null")
    setup = data["setup"]
    keys = {"dealer", "round", "hands", "upcard", "stock", "cut", "scores"}
    if not isinstance(setup, dict) or set(setup) != keys:
        raise SaveFileError(f"'setup' must be an object with the keys {sorted(keys)}")
    for name in ("dealer", "round", "cut"):
        if setup[name] is not None and type(setup[name]) is not int:
            raise SaveFileError(f"setup {name!r} must be an integer or null")
    if isinstance(setup["hands"], list):
        for seat, hand in enumerate(setup["hands"]):
            _check_codes(hand, f"setup 'hands', seat {seat}")
    else:
        _check_codes(setup["hands"], "setup 'hands'")
    _check_codes(setup["stock"], "setup 'stock'")
    if setup["upcard"] is not None and not isinstance(setup["upcard"], str):
        raise SaveFileError("setup 'upcard' must be a card code or null")
    _check_codes(None if setup["upcard"] is None else [setup["upcard"]], "setup 'upcard'")
    if setup["scores"] is not None and (
        not isinstance(setup["scores"], list) or not all(type(s) is int for s in setup["scores"])
    ):
        raise SaveFileError("setup 'scores' must be a list of integers or null")
    try:
        game = Game(
            rules, players, seed=seed, names=names, turn_limit=limit, max_reshuffles=reshuffles
        )
        state = game.new_state(
            dealer=setup["dealer"],
            round=setup["round"],
            hands=setup["hands"],
            upcard=setup["upcard"],
            stock=setup["stock"],
            cut=setup["cut"],
            scores=setup["scores"],
        )
    except RummyError as error:
        raise SaveFileError(f"the save file's set-up cannot be dealt: {error}") from None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise SaveFileError("'actions' must be a list of [seat, action] pairs")
    for number, entry in enumerate(actions):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or type(entry[0]) is not int
            or not isinstance(entry[1], str)
        ):
            raise SaveFileError(f"action {number} must be a [seat, action] pair, got {entry!r}")
        seat, text = entry
        if seat != state.to_act:
            raise SaveFileError(
                f"action {number} ({text!r}) is recorded for seat {seat}, but seat "
                f"{state.to_act} was to act"
            )
        try:
            state.apply(text)
        except IllegalActionError as error:
            raise SaveFileError(
                f"action {number} ({text!r}) is illegal on replay: {error}"
            ) from None
    replayed = state.snapshot()
    if data["state"] != replayed:
        raise SaveFileError(
            f"the replayed actions do not reproduce the recorded state: "
            f"{_state_difference(data['state'], replayed, state.names)} (the file was changed)"
        )
    return state


def _check_save_size(text: object) -> None:
    """Refuse a save too big or nested too deep to read, before parsing it."""
    if isinstance(text, bytes | bytearray):
        size = len(text)
    elif isinstance(text, str):
        # A character is 1 to 4 bytes of UTF-8: count exactly only near the limit.
        size = (
            len(text) if len(text) * 4 <= MAX_SAVE_BYTES else len(text.encode("utf-8", "replace"))
        )
    else:
        raise SaveFileError(f"a save file is JSON text, got {type(text).__name__}")
    if size > MAX_SAVE_BYTES:
        raise SaveFileError(
            f"the save file is {size:,} bytes, more than the {MAX_SAVE_BYTES:,} a save may be"
        )
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8", "replace")
    # The deepest nesting of brackets outside strings (json.loads would recurse on them).
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_SAVE_DEPTH:
            raise SaveFileError(
                f"the save file nests more than {MAX_SAVE_DEPTH} levels deep: not a rummykit save"
            )


# A JSON string; the closing quote is optional so that an unclosed string matches to
# the end instead of failing and being retried from every later quote (quadratic).
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?')
_BRACKETS = re.compile(r"[\[\]{}]")


def _state_difference(recorded: object, replayed: dict, names: Sequence[str]) -> str:
    """Where the recorded ``state`` of a save differs from the replay: field, seat, meld."""
    if not isinstance(recorded, dict) or set(recorded) != set(replayed):
        return f"'state' must be an object with the keys {sorted(replayed)}"
    for key, value in replayed.items():
        saved = recorded[key]
        if saved == value:
            continue
        if key in _PER_SEAT and isinstance(saved, list) and len(saved) == len(value):
            seat = next(s for s, (a, b) in enumerate(zip(saved, value, strict=True)) if a != b)
            return f"'state' {key!r} differs for seat {seat} ({names[seat]})"
        if key in ("melds", "owners") and isinstance(saved, list) and len(saved) == len(value):
            meld = next(m for m, (a, b) in enumerate(zip(saved, value, strict=True)) if a != b)
            return f"'state' {key!r} differs at meld {meld}"
        return f"'state' {key!r} differs"
    return "'state' differs"  # unreachable: the snapshots differ in some key


#: Snapshot fields that hold one entry per seat.
_PER_SEAT = ("scores", "hands", "laid_down", "buys", "contracts")


def _check_codes(value: object, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        raise SaveFileError(f"{where} must be a list of card codes or null, got {value!r}")
    for item in value:
        if not isinstance(item, str):
            raise SaveFileError(f"{where}: expected a card code, got {item!r}")
        try:
            Card.parse(item)
        except CardParseError as error:
            raise SaveFileError(f"{where}: bad card in the save file: {error}") from None


# --------------------------------------------------------------------------------------
# Playing with bots


def play_game(state: GameState, bots: Sequence, *, max_actions: int = 1_000_000) -> GameState:
    """Let ``bots`` (one per seat, each with ``choose(view) -> Action``) play ``state`` out.

    >>> from rummykit.bots import GreedyBot
    >>> game = Game("standard", players=3, seed=11)
    >>> final = play_game(game.new_state(), [GreedyBot(seed=s) for s in range(3)])
    >>> final.is_over, len(final.round_scores)
    (True, 7)
    """
    if len(bots) != state.players:
        raise ArgumentError(f"give one bot per seat ({state.players}), got {len(bots)}")
    for _ in range(max_actions):
        seat = state.to_act
        if seat is None:
            return state
        view = state.view(seat)
        played = len(state.history)
        action = parse_action(bots[seat].choose(view))
        # The view still describes the state unless the bot changed it (an odd bot might).
        fresh = len(state.history) == played and state.to_act == seat
        state._apply(action, view if fresh else None)
    raise RuntimeError(f"the game did not end within {max_actions} actions")
