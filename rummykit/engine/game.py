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

The engine's parts: :mod:`rummykit.engine.events` (:class:`Event`, :class:`RoundResult`),
:mod:`rummykit.engine.legal` (:class:`PlayerView` and the legal actions), :mod:`rummykit.engine.phases`
(the deal and the phase handlers, plain functions of a GameState, to which
:meth:`GameState.apply` dispatches each action by phase) and :mod:`rummykit.engine.saves`
(:func:`load` and the save format, above this module); this module re-exports
:class:`Event`, :class:`RoundResult` and :class:`PlayerView`.

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

import functools
import random
from collections.abc import Iterable, Sequence

from rummykit.engine import phases
from rummykit.engine.actions import (
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
from rummykit.engine.cards import Card, Hand, Shoe, as_rng
from rummykit.engine.checks import whole
from rummykit.engine.events import Event, RoundResult
from rummykit.engine.legal import PileMove, PlayerView, legal_actions, rank_major_key
from rummykit.engine.melds import (
    Meld,
    check_meld,
)
from rummykit.engine.rules import Contract, RuleSet
from rummykit.errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalActionError,
    Refusal,
    RummyError,
)

__all__ = [
    "DEFAULT_NAMES",
    "MAX_NAME_LENGTH",
    "PHASES",
    "Event",
    "Game",
    "GameState",
    "PlayerView",
    "RoundResult",
    "play_game",
]

#: Names given to the seats when none are passed, seat 0 first.
DEFAULT_NAMES = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")

#: The phases of a game.
PHASES = ("draw", "buy", "play", "call", "call discard", "over")
#: The longest player name, in characters: a name is printed in every narration and view.
MAX_NAME_LENGTH = 40


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
        for name in names:
            # A name is printed in every narration and view: no control characters, no
            # lone surrogates (which no encoding can write), no names of pages.
            if not name.isprintable() or len(name) > MAX_NAME_LENGTH:
                raise ArgumentError(
                    f"names: a name is at most {MAX_NAME_LENGTH} printable characters "
                    f"(no control characters), got {name[: MAX_NAME_LENGTH + 1]!r}"
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
# rummykit.engine.melds keeps per rule set: a fresh copy per game would rebuild them each time.
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
    them only through :meth:`apply`). ``history``, ``log``, ``scores``, ``round_scores``
    and ``results`` span the game; those below are the round's, set by each deal and
    changed by the phase handlers (:mod:`rummykit.engine.phases`).
    """

    hands: list[list[Card]]
    """Each seat's cards."""
    stock: list[Card]
    """The stock, top card last."""
    discards: list[Card]
    """The discard pile, top card last."""
    pile_moves: tuple[PileMove, ...]
    """This round's moves of the discard pile (one tuple, which every view shares)."""
    melds: list[Meld]
    """The melds on the table, by meld number."""
    owners: list[int]
    """The seat that laid each meld."""
    laid_down: list[bool]
    """Whether each seat has laid down its contract."""
    buys: list[int]
    """Each seat's buys this round."""
    penalties: list[int]
    """Points added to each seat this round: + invalid lay-downs, - a perfect cut."""
    traded: set[Card]
    """The jokers traded once (taken by a swap)."""
    reshuffles: int
    """How often the discard pile was shuffled into a new stock this round."""
    turns: int
    """The turns started this round."""
    last_turn: list[int]
    """The number of each seat's last turn this round (-1: none yet)."""
    phase: str
    """One of :data:`PHASES`."""
    current: int
    """The seat whose turn it is."""
    to_act: int | None
    """The seat to act: the current seat, or a seat asked to buy or call (None once the
    game is over)."""
    taken: Card | None
    """The card taken from the pile this turn."""
    pending: list[Card]
    """The jokers taken by a swap this turn, which must be played."""
    offer: Card | None
    """The card offered in a buy or call window."""
    offered_by: int | None
    """The seat that discarded the offered card (None as for :attr:`top_by`)."""
    queue: list[int]
    """The seats still to be asked in a buy or call window, the one asked now first."""
    requests: list[int]
    """The seats that asked to buy (``buy_priority="first_call"``)."""
    went_out: int | None
    """The seat that went out this round."""
    top_by: int | None
    """The seat that discarded the top card of the pile; None when that card was not the
    last discard (the up-card, or a card uncovered by a take, a buy or a call)."""

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
        if setup["cut"] is not None:
            # The cutter lifts at least one card and leaves at least one.
            whole("cut", setup["cut"], low=1, high=game.shoe.size - 1)
        self.phase = "draw"
        phases.deal(self, scripted=setup)

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
            hand=tuple.__new__(Hand, sorted(self.hands[seat], key=rank_major_key)),
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
            pile_moves=self.pile_moves,
        )
        return view

    @classmethod
    def from_view(
        cls, view: PlayerView, hands: list[list[Card]], stock: list[Card], game: Game
    ) -> GameState:
        """The one inverse of :meth:`view`: a state of ``game`` that ``view.seat`` would see
        as ``view``, with the cards the view hides given (every seat's ``hands``, the
        ``stock``, top card last). What a view does not hold starts afresh (no history, no
        log); the turn counts and the buy or call window's order are read back from the
        view's moves of the discard pile, the window's order as the phase handlers make
        it (:func:`~rummykit.engine.phases.buy_order`, :func:`~rummykit.engine.phases.call_order`).
        Determinization (:func:`~rummykit.agents.determinize.determinize`) deals hidden
        cards into it.

        >>> state = Game(players=3, seed=5).new_state()
        >>> state.apply("draw stock")
        >>> view = state.view(0)
        >>> again = GameState.from_view(view, state.hands, state.stock, state.game)
        >>> again.view(0) == view, again.legal_actions() == state.legal_actions()
        (True, True)
        """
        if not isinstance(view, PlayerView):
            raise ArgumentTypeError(f"view must be a PlayerView, got {type(view).__name__}")
        if not isinstance(game, Game):
            raise ArgumentTypeError(f"game must be a Game, got {type(game).__name__}")
        if not isinstance(hands, list) or len(hands) != len(view.names):
            raise ArgumentError(
                f"hands must be a list of {len(view.names)} hands, one per seat, got {hands!r:.80}"
            )
        rules = game.rules
        contracts = list(rules.contracts)
        round_index = view.round - 1

        def contract_index(contract) -> int:
            if contracts[round_index] == contract:
                return round_index
            return contracts.index(contract)

        n = len(hands)
        last_turn = [-1] * n
        turns = 0
        called = False
        for move in view.pile_moves:
            # A turn ends with a discard, but for the one a Liverpool caller makes.
            if move.kind == "discard" and not called:
                turns += 1
                last_turn[move.seat] = turns
            called = move.kind == "call" and rules.discard_call == "liverpool"
        turns += 1
        last_turn[view.current] = turns
        top_by = None
        if view.pile_moves and view.pile_moves[-1].kind == "discard":
            top_by = view.pile_moves[-1].seat
        state = object.__new__(cls)
        state.__dict__.update(
            game=game,
            rules=rules,
            players=n,
            setup={"dealer": view.dealer, "round": view.round},
            rng=random.Random(game.seed),
            history=[],
            log=[],
            scores=list(view.scores),
            round_scores=[],
            results=[],
            round_index=round_index,
            contract_index=[contract_index(c) for c in view.contracts],
            dealer=view.dealer,
            phase=view.phase,
            hands=hands,
            melds=list(view.melds),
            owners=list(view.meld_owners),
            laid_down=list(view.laid_down),
            buys=list(view.buys),
            penalties=[0] * n,
            traded=set(view.traded_jokers),
            reshuffles=sum(move.kind == "reshuffle" for move in view.pile_moves),
            turns=turns,
            last_turn=last_turn,
            taken=view.taken,
            pending=list(view.pending_jokers),
            offer=view.offer,
            offered_by=view.offered_by,
            queue=[],
            requests=[],
            went_out=None,
            top_by=top_by,
            stock=stock,
            discards=list(view.discard_pile),
            pile_moves=view.pile_moves,
            current=view.current,
            to_act=view.to_act,
        )
        if view.phase in ("buy", "call") and view.to_act is not None:
            if view.phase == "call":
                order = phases.call_order(state, view.offered_by)
            else:
                order = phases.buy_order(state)
            to_act = view.to_act
            state.queue = order[order.index(to_act) :] if to_act in order else [to_act]
        return state

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (empty exactly when the game is over).

        Lay-downs are a documented canonical subset: at most one ``lay down`` is listed,
        the arrangement :func:`~rummykit.engine.search.find_contract` finds (a card given back if
        needed so the turn can end); :meth:`apply` accepts any legal arrangement, and
        :meth:`can_lay_down` says whether one exists. Everything else is listed in full:
        one action per distinct card code (copies of a card are interchangeable), per
        table meld and, for a card that fits either end of a run, per end.
        """
        if self.to_act is None:
            return []
        return legal_actions(self.view(self.to_act))

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
        """Play ``action`` (an :class:`~rummykit.engine.actions.Action` or its notation) for the
        player to act.

        Raises :class:`~rummykit.errors.IllegalActionError` naming the rule broken, and
        then the state is exactly as before: every check runs before anything changes.
        """
        self._apply(parse_action(action), None)

    def why_not(self, action: Action | str) -> Refusal | None:
        """Why ``action`` (or its notation) is illegal for the player to act now: a
        :class:`~rummykit.errors.Refusal` naming the rule broken, with the particulars of
        the case and the words :meth:`apply` would raise; None when it is legal. Nothing
        changes: the checks of :meth:`apply` run without its commit (no clone is made).

        >>> state = Game(players=3, seed=5).new_state()
        >>> state.why_not("draw stock") is None
        True
        >>> refusal = state.why_not("buy")
        >>> print(refusal)
        Ann cannot buy in the 'draw' phase: first draw from the stock ('draw stock') or take the discard ('take discard')
        >>> refusal.rule, refusal.field["phase"]
        ('phase', 'draw')

        An action that cannot be read is refused too, by the rule of the notation:

        >>> state.why_not("fly").rule
        'notation'
        """
        try:
            self._check(parse_action(action), None)
        except IllegalActionError as error:
            return error.refusal
        except RummyError as error:  # an argument the checks refuse (no rule of the game)
            return Refusal("illegal action", "{message}", (("message", str(error)),))
        return None

    def is_legal(self, action: Action | str) -> bool:
        """Whether :meth:`apply` would play ``action`` now (see :meth:`why_not`).

        >>> state = Game(players=3, seed=5).new_state()
        >>> state.is_legal("draw stock"), state.is_legal("pass")
        (True, False)
        """
        return self.why_not(action) is None

    def _apply(self, action: Action, view: PlayerView | None) -> None:
        """:meth:`apply` for a parsed action; ``view``: the actor's view of this state, if built."""
        seat = self.to_act
        commit = self._check(action, view)
        commit()
        self.history.append((seat, action))

    def _check(self, action: Action, view: PlayerView | None):
        """The commit that plays ``action``, once every check passed (nothing changed yet)."""
        if self.to_act is None:
            raise IllegalActionError.because(
                "game over", "the game is over: no {kind!r} is possible", kind=action.kind
            )
        seat = self.to_act
        handler = _HANDLERS.get((self.phase, type(action)))
        if handler is None:
            hint, fields = _PHASE_HELP[self.phase]
            raise IllegalActionError.because(
                "phase",
                "{player} cannot {kind} in the {phase!r} phase: " + hint,
                player=self.game.names[seat],
                kind=action.kind,
                phase=self.phase,
                **fields,
            )
        # A handler builds the view it needs when none is given: buying, passing and
        # drawing from the stock need none (they are most actions).
        return handler(self, action, view)

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
        pile = self.view(0).discard_pile
        assert pile == tuple(self.discards), "the pile moves do not give the discard pile"
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

        :func:`load` replays the actions and checks they reproduce the state. A save over
        :data:`~rummykit.engine.saves.MAX_SAVE_BYTES` (about 30,000 actions), which :func:`load`
        would refuse, is not written: a :class:`~rummykit.errors.SaveFileError` says so.
        """
        # The save format lives in rummykit.engine.saves, which reads GameState: imported here,
        # when used, so that the engine below saves never imports it at module level.
        from rummykit.engine.saves import dumps

        return dumps(self)

    def narrate(self, round: int | None = None) -> str:
        """The round (default: the current one) in plain words, from the table's view."""
        from rummykit.engine.narrate import narrate

        return narrate(self, round=round)

    def __repr__(self) -> str:
        who = "nobody" if self.to_act is None else self.game.names[self.to_act]
        return (
            f"<GameState {self.game.rules.name} round {self.round} of {self.rules.rounds}, "
            f"phase {self.phase!r}, {who} to act>"
        )


_HANDLERS = {
    ("draw", DrawStock): phases.on_draw_stock,
    ("draw", TakeDiscard): phases.on_take_discard,
    ("buy", Buy): phases.on_buy,
    ("buy", Pass): phases.on_pass_buy,
    ("play", LayDown): phases.on_lay_down,
    ("play", InvalidLayDown): phases.on_invalid_lay_down,
    ("play", LayOff): phases.on_lay_off,
    ("play", Swap): phases.on_swap,
    ("play", Discard): phases.on_discard,
    ("play", EndTurn): phases.on_end_turn,
    ("call", Call): phases.on_call,
    ("call", Pass): phases.on_pass_call,
    ("call discard", Discard): phases.on_discard,
}
#: What may be done in each phase: a template and its fields (actions in their notation).
_PHASE_HELP = {
    "draw": (
        "first draw from the stock ({action_stock}) or take the discard ({action_take})",
        {"action_stock": "draw stock", "action_take": "take discard"},
    ),
    "buy": (
        "the discard is offered: {action_buy} or {action_pass}",
        {"action_buy": "buy", "action_pass": "pass"},
    ),
    "play": ("lay down, lay off, swap a joker, then discard", {}),
    "call": (
        "the last discard could have been laid off: {action_call} or {action_pass}",
        {"action_call": "call", "action_pass": "pass"},
    ),
    "call discard": ("you claimed the discard: now discard a card", {}),
    "over": ("the game is over", {}),
}


# --------------------------------------------------------------------------------------
# Playing with bots


def play_game(state: GameState, bots: Sequence, *, max_actions: int = 1_000_000) -> GameState:
    """Let ``bots`` (one per seat, each with ``choose(view) -> Action``) play ``state`` out.

    >>> from rummykit.agents.bots import GreedyBot
    >>> game = Game("standard", players=3, seed=11)
    >>> final = play_game(game.new_state(), [GreedyBot(seed=s) for s in range(3)])
    >>> final.is_over, len(final.round_scores)
    (True, 7)
    """
    if not isinstance(state, GameState):
        raise ArgumentTypeError(f"state must be a GameState, got {state!r}")
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ArgumentTypeError(f"bots must be a sequence of bots, one per seat, got {bots!r}")
    for seat, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentTypeError(
                f"bots: seat {seat}'s bot has no choose(view) method, got {bot!r}"
            )
    whole("max_actions", max_actions, low=1)
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
    raise ArgumentError(
        f"the game did not end within max_actions={max_actions:,} actions: allow more, or "
        "bound the rounds with max_reshuffles or turn_limit (Game)"
    )
