"""Outs: the unseen cards that bring a hand one card closer to its contract, and which
discard keeps the most of them.

Poker players count the cards that improve them, mahjong players the tiles that lower
their shanten (*ukeire*). :func:`outs` does the same for a contract: the faces whose
unseen copies lower :func:`~rummykit.engine.search.contract_distance` (copies limited by the
shoe), and the exact chance that the next stock card is one. :func:`discard_advice`
weighs every discard of a hand after its draw; its parts, :func:`discard_outs` (the
outs of every discard) and :func:`two_draw_chances` (the two-draw chance of the
discards asked for), serve :class:`~rummykit.agents.bots.OutsBot`, which cannot afford the
two-draw chance of every discard at every turn.

>>> from rummykit import RuleSet, parse_cards
>>> rules = RuleSet.preset("standard")
>>> hand = parse_cards("8S 8H 8D JH JS 2C 5D")
>>> result = outs(hand, rules.contracts[0], rules, decks=2, jokers=4)
>>> result.distance, result.cards, result.unseen
(1, {'JC': 2, 'JD': 2, 'JH': 1, 'JS': 1, 'JK': 4}, 101)
>>> result.p_next
Fraction(10, 101)

Unseen copies of a face are the shoe's copies (``decks`` of a natural, ``jokers`` of the
joker) less those in the hand and those ``seen`` (the discard pile, the melds on the
table: whatever the player knows is not in the stock). Every unseen card is taken as
equally likely to be the next stock card.

This module uses the standard library only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from rummykit import _native
from rummykit.chance import chance_text
from rummykit.engine.cards import Card, Rank, Suit
from rummykit.engine.checks import contract_rules
from rummykit.engine.legal import PlayerView
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import contract_distance, contract_within
from rummykit.errors import ArgumentError, ArgumentTypeError, CardCountError

__all__ = [
    "DiscardAdvice",
    "DiscardOption",
    "Outs",
    "discard_advice",
    "discard_outs",
    "outs",
    "seen_parts",
    "seen_text",
    "two_draw_chances",
    "view_seen",
]

# One card of each face, suit-major as Card.index numbers them, then the joker.
_FACES = (
    *sorted((Card(rank, suit) for suit in Suit for rank in Rank), key=lambda c: c.index),
    Card.joker(),
)
# Cards added to a hand get deck numbers far above any a shoe uses, so none is held twice.
_SPARE_DECK = 1000


@dataclass(frozen=True)
class Outs:
    """The outs of a hand: its distance, the out faces with their unseen copies, and the
    number of unseen cards.

    >>> result = Outs(distance=1, cards={"8H": 2, "JK": 3}, unseen=90)
    >>> result.total, result.p_next
    (5, Fraction(1, 18))
    >>> result
    Outs(distance=1, cards={'8H': 2, 'JK': 3}, unseen=90)
    """

    distance: int
    """The fewest natural cards to add for the contract, copies limited by the shoe."""
    cards: dict[str, int] = field(hash=False)
    """Card code (``"8H"``, ``"JK"``) to the unseen copies of that face that bring the hand
    one card closer; a face with no unseen copy is absent; empty at distance 0."""
    unseen: int
    """The shoe's size less the hand and the seen cards: the cards the next one may be."""

    @property
    def total(self) -> int:
        """The unseen cards that are outs."""
        return sum(self.cards.values())

    @property
    def p_next(self) -> Fraction:
        """The exact chance that the next unseen card is an out (0 when none is unseen)."""
        return Fraction(self.total, self.unseen) if self.unseen else Fraction(0)

    def __repr__(self) -> str:
        return f"Outs(distance={self.distance}, cards={self.cards!r}, unseen={self.unseen})"

    def _repr_html_(self) -> str:
        from rummykit import svg

        head = (
            f"<p>Distance {self.distance}: {self.total} out{'s' if self.total != 1 else ''} "
            f"of {self.unseen} unseen cards (next card helps: {_percent(self.p_next)}).</p>"
        )
        if not self.cards:
            return head
        faces = [Card.parse(code) for code in self.cards]
        labels = [f"×{count}" for count in self.cards.values()]
        return head + svg.hand_svg(faces, overlap=0, labels=labels)


@dataclass(frozen=True)
class DiscardOption:
    """One discard of :func:`discard_advice`: the card, the outs of the hand it leaves and
    the exact chance of holding the contract within the next two stock draws."""

    discard: str
    """The code of the face discarded (``"KS"``, ``"JK"``)."""
    outs: Outs
    """The outs of the hand left (its ``distance`` is the distance after the discard)."""
    p_two: Fraction
    """The exact chance of holding the contract after one or both of the next two stock
    draws, discarding in between whatever gives the best chance on the second."""

    @property
    def distance(self) -> int:
        """The distance of the hand left."""
        return self.outs.distance

    @property
    def p_next(self) -> Fraction:
        """The exact chance that the next stock card is an out of the hand left."""
        return self.outs.p_next

    def __repr__(self) -> str:
        return f"DiscardOption(discard={self.discard!r}, outs={self.outs!r}, p_two={self.p_two!r})"


class DiscardAdvice(tuple):
    """The :class:`DiscardOption` of every distinct face of a hand, best first: lowest
    distance, then most outs, then the best two-draw chance, then the card code. A tuple,
    shown in Jupyter as a table.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> advice = discard_advice(parse_cards("8S 8H 8D JH JS JD 2C"), rules.contracts[0],
    ...                         rules, decks=2, jokers=4)
    >>> advice[0]
    DiscardOption(discard='2C', outs=Outs(distance=0, cards={}, unseen=101), p_two=Fraction(1, 1))
    >>> advice._repr_html_().count("<tr>") == len(advice) + 1 == 8
    True
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "DiscardAdvice(" + repr(list(self)) + ")"

    def _repr_html_(self) -> str:
        from rummykit import svg

        rows = "".join(
            f"<tr><td>{svg.card_svg(Card.parse(option.discard), width=36)}</td>"
            f"<td>{option.distance}</td><td>{option.outs.total}</td>"
            f"<td>{_percent(option.p_next)}</td><td>{_percent(option.p_two)}</td></tr>"
            for option in self
        )
        return (
            "<table><thead><tr><th>discard</th><th>distance</th><th>outs</th>"
            "<th>next card helps</th><th>contract in two draws</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )


def _percent(value: Fraction) -> str:
    # Words a student can read: "1 in 280", never a "0.0%" for a chance above zero.
    return chance_text(float(value))


def _cards(value: object, name: str) -> list[Card]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} is a collection of Card objects, got {value!r}")
    cards = list(value)
    for card in cards:
        if not isinstance(card, Card):
            raise ArgumentTypeError(f"{name} is a collection of Card objects, got {card!r}")
    return cards


def _count(value: object, name: str, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
    if value < least:
        raise ArgumentError(f"{name} must be at least {least}, got {value}")
    return value


class _Shoe:
    """The unseen copies of each face (by Card.index), checked against the shoe."""

    def __init__(self, hand: list[Card], seen: list[Card], decks: int, jokers: int) -> None:
        copies = [decks] * 52 + [jokers]
        held = Counter(card.index for card in hand)
        for index, count in held.items():
            if count > copies[index]:
                raise CardCountError(
                    f"the hand holds {count} copies of {_FACES[index].code}, more than a shoe "
                    f"of {decks} deck(s) and {jokers} joker(s) has ({copies[index]})"
                )
        out = Counter(card.index for card in seen)
        for index, count in out.items():
            if held[index] + count > copies[index]:
                raise CardCountError(
                    f"the hand and the seen cards hold {held[index] + count} copies of "
                    f"{_FACES[index].code}, more than a shoe of {decks} deck(s) and "
                    f"{jokers} joker(s) has ({copies[index]})"
                )
        self.decks = decks
        self.unseen = [copies[i] - held[i] - out[i] for i in range(53)]
        self.size = 52 * decks + jokers - len(hand) - len(seen)


def _spare(index: int, serial: int) -> Card:
    face = _FACES[index]
    return Card(face.rank, face.suit, _SPARE_DECK + serial)


# The added cards, built once (hints add them by the hundred thousand).
_SPARES = tuple(tuple(_spare(index, serial) for index in range(53)) for serial in range(16))


def _plus(cards: list[Card], index: int, serial: int = 0) -> list[Card]:
    card = _SPARES[serial][index] if serial < len(_SPARES) else _spare(index, serial)
    return [*cards, card]


def _descends(
    cards: list[Card], contract: Contract, rules: RuleSet, decks: int, unlimited: int, prefer
) -> tuple[int, ...] | None:
    """``unlimited`` naturals (as Card.index) that, added one at a time, each lower the
    unlimited distance of ``cards`` by one and keep within ``decks`` copies, so make the
    contract: then the copy-limited distance, never below the unlimited one, equals it.
    Greedy (faces in ``prefer`` tried first, the first that lowers it taken), so None
    proves nothing; the caller then runs the copy-limited search."""
    held = Counter(card.index for card in cards)
    order = [*dict.fromkeys([*prefer, *range(52)])]
    grown = list(cards)
    path = []
    for step in range(unlimited, 0, -1):
        for index in order:
            if held[index] >= decks:
                continue
            trial = _plus(grown, index, step)
            if contract_distance(trial, contract, rules) == step - 1:
                grown = trial
                held[index] += 1
                path.append(index)
                break
        else:
            return None
    return tuple(path)


def _outs(hand: list[Card], contract: Contract, rules: RuleSet, shoe: _Shoe) -> Outs:
    if _native.available()["distance"]:
        # The copy-limited distance is compiled: the definition itself is quickest, one
        # distance per face with an unseen copy (bench_outs.py measures both ways).
        distance = contract_distance(hand, contract, rules, decks=shoe.decks)
        cards: dict[str, int] = {}
        if distance:
            for index, copies in enumerate(shoe.unseen):
                grown = _plus(hand, index)
                if (
                    copies
                    and contract_distance(grown, contract, rules, decks=shoe.decks) < distance
                ):
                    cards[_FACES[index].code] = copies
        return Outs(distance=distance, cards=cards, unseen=shoe.size)
    unlimited = contract_distance(hand, contract, rules)
    completion = _descends(hand, contract, rules, shoe.decks, unlimited, ())
    if completion is None:
        distance, completion = contract_distance(hand, contract, rules, decks=shoe.decks), ()
    else:
        distance = unlimited
    cards = {}
    if distance:
        for index, copies in enumerate(shoe.unseen):
            if not copies:
                continue
            if index in completion:
                # The hand with this card and the rest of the completion holds the
                # contract within the copies: one card closer, no search needed.
                cards[_FACES[index].code] = copies
                continue
            grown = _plus(hand, index)
            # The unlimited distance is a lower bound: at the distance or above, no out.
            below = contract_distance(grown, contract, rules)
            if below >= distance:
                continue
            if (
                _descends(grown, contract, rules, shoe.decks, below, completion) is not None
                or contract_distance(grown, contract, rules, decks=shoe.decks) < distance
            ):
                cards[_FACES[index].code] = copies
    return Outs(distance=distance, cards=cards, unseen=shoe.size)


def outs(
    hand: Iterable[Card],
    contract: Contract,
    rules: RuleSet,
    *,
    decks: int,
    jokers: int,
    seen: Iterable[Card] = (),
) -> Outs:
    """The outs of ``hand`` for ``contract``: which unseen faces bring it one card closer.

    ``.distance`` equals ``contract_distance(hand, contract, rules, decks=decks)``; a
    face is an out when adding one copy of it lowers that distance (for the joker, the
    distance of the hand holding one more joker). The shoe holds ``decks`` copies of
    each natural and ``jokers`` jokers; ``seen`` are cards known not to be in the stock.

    Cost: with the compiled distance (``rummykit._native``, docs/fast-distance.md), one
    copy-limited ``contract_distance`` per face with an unseen copy: 360-1,800 hands a
    second (random 10- and 12-card hands, 2 decks + 4 jokers; ``benchmarks/bench_outs.py``).
    Without it, in Python: a greedy descent (one unlimited distance per face tried, a
    step at a time) finds a completion within the shoe's copies, whose faces are outs at
    once; every other face with an unseen copy costs one unlimited distance (a lower
    bound, which rules most out) and, when below the distance, another descent. The slow
    copy-limited search of ``contract_distance(..., decks=decks)`` runs only where a
    descent fails. About 1,000 hands a second for 2 sets, 20-70 for the contracts of two
    or three runs.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("7H 8H 9H 10H 7H 8H 9H")  # two runs: a 6♥, a joker or the other 10♥
    >>> outs(hand, rules.contracts[2], rules, decks=2, jokers=4, seen=parse_cards("10H JK"))
    Outs(distance=1, cards={'6H': 2, 'JK': 3}, unseen=99)
    >>> outs(parse_cards("8S 8H 8D JH JS JD"), rules.contracts[0], rules, decks=2, jokers=4).cards
    {}
    >>> outs(parse_cards("8S 8S 8S"), rules.contracts[0], rules, decks=2, jokers=4)
    Traceback (most recent call last):
    ...
    rummykit.errors.CardCountError: the hand holds 3 copies of 8S, more than a shoe of 2 deck(s) and 4 joker(s) has (2)
    """
    hand = _cards(hand, "hand")
    seen = _cards(seen, "seen")
    contract_rules(contract, rules)
    shoe = _Shoe(hand, seen, _count(decks, "decks", 1), _count(jokers, "jokers", 0))
    return _outs(hand, contract, rules, shoe)


class _Memo:
    """Hands as multisets of faces, and memoized completion checks over them."""

    def __init__(self, contract: Contract, rules: RuleSet) -> None:
        self.contract = contract
        self.rules = rules
        self.completes: dict[tuple, bool] = {}
        self.finishers: dict[tuple, frozenset[int]] = {}

    @staticmethod
    def key(cards: list[Card]) -> tuple:
        return tuple(sorted(card.index for card in cards))

    def within(self, cards: list[Card], added: int) -> bool:
        """Whether ``added`` cards at most make ``cards`` hold the contract (copies not
        limited): the compiled unlimited distance where it is built, which is the same
        test and 10-50 times quicker than the Python search of contract_within."""
        if _native.available()["distance"]:
            return contract_distance(cards, self.contract, self.rules) <= added
        return contract_within(cards, self.contract, self.rules, added)

    def complete(self, cards: list[Card]) -> bool:
        key = self.key(cards)
        if key not in self.completes:
            self.completes[key] = self.within(cards, 0)
        return self.completes[key]

    def finishing(self, cards: list[Card]) -> frozenset[int]:
        """The faces one copy of which makes ``cards`` hold the contract."""
        key = self.key(cards)
        if key not in self.finishers:
            if not self.within(cards, 1):
                found = frozenset()
            else:
                found = frozenset(i for i in range(53) if self.within(_plus(cards, i, 1), 0))
            self.finishers[key] = found
        return self.finishers[key]


def _p_two(left: list[Card], result: Outs, shoe: _Shoe, memo: _Memo) -> Fraction:
    """The chance that ``left`` holds the contract after the next stock card, or after
    the one after it with the best discard in between (every ordered pair of distinct
    unseen cards equally likely)."""
    if result.distance == 0:
        return Fraction(1)
    if result.distance > 2 or shoe.size == 0:
        # Each card lowers the distance by one at most.
        return Fraction(0)
    outs_codes = set(result.cards)
    rest = shoe.size - 1
    wins = 0
    for x, copies in enumerate(shoe.unseen):
        if not copies:
            continue
        code = _FACES[x].code
        if result.distance == 2 and code not in outs_codes:
            continue
        held = _plus(left, x)
        if memo.complete(held):
            wins += copies * max(rest, 1)
            continue
        if rest == 0:
            continue
        best = 0
        for y in dict.fromkeys(card.index for card in held):
            after = list(held)
            del after[next(i for i, card in enumerate(after) if card.index == y)]
            good = sum(
                shoe.unseen[z] - (z == x)
                for z in memo.finishing(after)
                if shoe.unseen[z] > (z == x)
            )
            best = max(best, good)
        wins += copies * best
    return Fraction(wins, shoe.size * max(rest, 1))


def seen_parts(view: PlayerView) -> dict[str, list[Card]]:
    """The cards a seat's view knows are out of the stock, besides its hand, by where they
    are: ``"table"`` (the melds), ``"pile"`` (the whole discard pile, buried cards too:
    every card went onto it face up) and, per other seat that took a card from the pile
    this round (the discard, a buy, a call) and has not laid it on the table or
    discarded it since, ``"taken by NAME"``. A reshuffle turns the pile under its top
    into the stock: those cards are unseen again (in the stock, in an unknown order).

    Cards are the physical cards the view shows (the view names each card's deck, so a
    card taken and later laid on the table is counted once).

    >>> from rummykit.engine.game import Game
    >>> state = Game(players=3, seed=7).new_state()
    >>> {where: len(cards) for where, cards in seen_parts(state.view(0)).items()}
    {'table': 0, 'pile': 1}
    """
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView, got {view!r}")
    on_table = [card for meld in view.melds for card in meld.cards]
    parts: dict[str, list[Card]] = {"table": on_table, "pile": list(view.discard_pile)}
    held: dict[Card, int] = {}
    for move in view.pile_moves:
        if move.kind in ("take", "buy", "call") and move.seat != view.seat:
            held[move.card] = move.seat
        elif move.kind == "discard":
            held.pop(move.card, None)
    laid = set(on_table)
    for card, seat in held.items():
        if card not in laid:
            parts.setdefault(f"taken by {view.names[seat]}", []).append(card)
    return parts


def view_seen(view: PlayerView) -> list[Card]:
    """The cards a seat's view knows are out of the stock, besides its hand: the melds on
    the table, every card of the discard pile, and the cards other seats took from the
    pile and still hold (:func:`seen_parts`); the ``seen`` that :func:`discard_advice`
    takes from a view.

    >>> from rummykit.engine.game import Game
    >>> state = Game(players=3, seed=7).new_state()
    >>> view_seen(state.view(0)) == [state.view(0).discard_top]
    True
    """
    return [card for cards in seen_parts(view).values() for card in cards]


def seen_text(view: PlayerView) -> str:
    """What the hints of ``view`` count as seen, in words.

    >>> from rummykit.engine.game import Game
    >>> state = Game(players=3, seed=7).new_state()
    >>> seen_text(state.view(0))
    'counting as seen: your hand, 1 card in the discard pile'
    """
    words = ["your hand"]
    for where, cards in seen_parts(view).items():
        if not cards and where != "pile":
            continue
        count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
        if where == "table":
            words.append(f"{count} on the table")
        elif where == "pile":
            words.append(f"{count} in the discard pile")
        else:
            words.append(f"{count} {where} from the pile")
    text = "counting as seen: " + ", ".join(words)
    if any(move.kind == "reshuffle" for move in view.pile_moves):
        text += " (the pile reshuffled into the stock counts as unseen again)"
    return text


def _resolve(
    hand: Iterable[Card] | PlayerView,
    contract: Contract | None,
    rules: RuleSet | None,
    decks: int | None,
    jokers: int | None,
    seen: Iterable[Card],
) -> tuple[list[Card], Contract, RuleSet, _Shoe]:
    """The hand, contract, rules and shoe of the arguments of :func:`discard_advice`
    (a hand with its shoe, or a PlayerView alone), checked."""
    if isinstance(hand, PlayerView):
        view = hand
        if contract is not None or rules is not None or decks is not None or jokers is not None:
            raise ArgumentError(
                "a PlayerView brings its own contract, rules and shoe: pass the view alone"
            )
        hand, contract, rules = view.hand, view.contract, view.rules
        decks = rules.decks_for(len(view.names))
        jokers = rules.jokers_for(decks)
        seen = [*_cards(seen, "seen"), *view_seen(view)]
    if decks is None or jokers is None:
        raise ArgumentTypeError("decks and jokers are required with a hand (not a PlayerView)")
    hand = _cards(hand, "hand")
    seen = _cards(seen, "seen")
    contract_rules(contract, rules)
    shoe = _Shoe(hand, seen, _count(decks, "decks", 1), _count(jokers, "jokers", 0))
    return hand, contract, rules, shoe


def discard_advice(
    hand: Iterable[Card] | PlayerView,
    contract: Contract | None = None,
    rules: RuleSet | None = None,
    *,
    decks: int | None = None,
    jokers: int | None = None,
    seen: Iterable[Card] = (),
) -> DiscardAdvice:
    """Every discard of ``hand`` (a hand after its draw), best first, as
    :class:`DiscardOption`: the distance after it, its :class:`Outs`, the chance that the
    next stock card helps, and the chance of holding the contract within the next two
    stock draws with the best discard in between (exact Fractions over the unseen cards).

    The discarded card joins ``seen`` (it lies on the pile). Given a
    :class:`~rummykit.engine.legal.PlayerView`, the hand, the contract and the rules are the
    view's, the shoe is the one its rules deal for its players, and ``seen`` adds the
    cards it knows are out of the stock (:func:`view_seen`: the melds on the table, the
    whole discard pile, the cards others took from the pile and still hold).

    Cost: :func:`outs` once per distinct face of the hand, and for the two-draw chance of
    each discard leaving distance 1 or 2 (a card lowers it by one at most, so the rest
    have none) up to 53 first cards x the distinct discards x 53 second cards of
    completion checks (memoized over hands, hands 2 away ruled out first): from about
    0.02 to 0.7 s a hand of 10 or 12 cards (``benchmarks/bench_outs.py``).

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> advice = discard_advice(parse_cards("8S 8H 8D JH JS 2C KD"), rules.contracts[0],
    ...                         rules, decks=2, jokers=4)
    >>> [(option.discard, option.distance, option.outs.total) for option in advice[:3]]
    [('2C', 1, 10), ('KD', 1, 10), ('JH', 2, 24)]
    >>> advice[0].p_next, advice[0].p_two  # 10/101 now, else 10 of the 100 left
    (Fraction(10, 101), Fraction(191, 1010))
    """
    hand, contract, rules, shoe = _resolve(hand, contract, rules, decks, jokers, seen)
    memo = _Memo(contract, rules)
    options = []
    for index in dict.fromkeys(card.index for card in hand):
        left = _left(hand, index)
        result = _outs(left, contract, rules, shoe)
        options.append(DiscardOption(_FACES[index].code, result, _p_two(left, result, shoe, memo)))
    options.sort(key=lambda o: (o.distance, -o.outs.total, -o.p_two, o.discard))
    return DiscardAdvice(options)


def _left(hand: list[Card], index: int) -> list[Card]:
    """``hand`` less one card of face ``index``."""
    at = next(i for i, card in enumerate(hand) if card.index == index)
    return hand[:at] + hand[at + 1 :]


def discard_outs(
    hand: Iterable[Card] | PlayerView,
    contract: Contract | None = None,
    rules: RuleSet | None = None,
    *,
    decks: int | None = None,
    jokers: int | None = None,
    seen: Iterable[Card] = (),
) -> dict[str, Outs]:
    """The :class:`Outs` of the hand each discard leaves, by the code of the face
    discarded (in the hand's order): :func:`discard_advice` without the two-draw chance,
    the costly part of the advice, so a bot can weigh every discard at every turn.
    Arguments as :func:`discard_advice`; the outs are those of its options.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> found = discard_outs(parse_cards("8S 8H 8D JH JS 2C KD"), rules.contracts[0], rules,
    ...                      decks=2, jokers=4)
    >>> list(found)
    ['8S', '8H', '8D', 'JH', 'JS', '2C', 'KD']
    >>> found["KD"]
    Outs(distance=1, cards={'JC': 2, 'JD': 2, 'JH': 1, 'JS': 1, 'JK': 4}, unseen=101)
    >>> found["8S"].distance, found["8S"].total
    (2, 15)
    """
    hand, contract, rules, shoe = _resolve(hand, contract, rules, decks, jokers, seen)
    return {
        _FACES[index].code: _outs(_left(hand, index), contract, rules, shoe)
        for index in dict.fromkeys(card.index for card in hand)
    }


def two_draw_chances(
    hand: Iterable[Card] | PlayerView,
    discards: Iterable[Card | str],
    contract: Contract | None = None,
    rules: RuleSet | None = None,
    *,
    decks: int | None = None,
    jokers: int | None = None,
    seen: Iterable[Card] = (),
) -> dict[str, Fraction]:
    """The ``p_two`` of :func:`discard_advice`'s options for ``discards`` only (cards or
    codes, each a face the hand holds), by code. Arguments as :func:`discard_advice`.

    The discards share their completion checks (the hands after two draws overlap), so a
    few discards cost much less than the whole advice.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> two_draw_chances(parse_cards("8S 8H 8D JH JS 2C KD"), ["KD", "2C"], rules.contracts[0],
    ...                  rules, decks=2, jokers=4)
    {'KD': Fraction(191, 1010), '2C': Fraction(191, 1010)}
    """
    hand, contract, rules, shoe = _resolve(hand, contract, rules, decks, jokers, seen)
    if isinstance(discards, (str, Card)) or not isinstance(discards, Iterable):
        raise ArgumentTypeError(f"discards is a collection of cards or codes, got {discards!r}")
    faces = []
    for discard in discards:
        card = Card.parse(discard) if isinstance(discard, str) else discard
        if not isinstance(card, Card):
            raise ArgumentTypeError(f"a discard is a Card or a card code, got {discard!r}")
        if all(held.index != card.index for held in hand):
            raise ArgumentError(f"the discard {card.code} is not in the hand")
        faces.append(card.index)
    memo = _Memo(contract, rules)
    chances = {}
    for index in dict.fromkeys(faces):
        left = _left(hand, index)
        chances[_FACES[index].code] = _p_two(left, _outs(left, contract, rules, shoe), shoe, memo)
    return chances
