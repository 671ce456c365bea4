"""Melds: sets and runs with reasons, lay-down, lay-off and joker-swap legality.

A run's cards sit at *positions* 1..14: 1 is the ace played low, 2..13 are the
ranks 2..K, and 14 is the ace played high.

>>> from rummykit import RuleSet, parse_cards
>>> rules = RuleSet.preset("standard")
>>> check = check_meld(parse_cards("3S 4S JK 6S"), rules)
>>> check.ok, check.kind, check.describe()
(True, 'run', 'valid run, the joker is the 5♠')
>>> check_meld(parse_cards("KH AH 2H 3H"), rules).reason
'K-A-2-3 turns the corner: runs cannot wrap'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product

from rummykit.engine.cards import NATURALS, Card, Hand, Rank, Suit
from rummykit.engine.checks import cards as check_cards
from rummykit.engine.checks import contract_rules, instance, items, whole
from rummykit.engine.rules import MAX_RUN_LENGTH, Contract, RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError, CardTypeError, IllegalMeldError

__all__ = [
    "Meld",
    "MeldCheck",
    "check_lay_down",
    "check_meld",
    "lay_off",
    "lay_off_options",
    "position_rank",
    "swap_joker",
]

_RANK_AT = {1: Rank.ACE, 14: Rank.ACE} | {p: Rank(p) for p in range(2, 14)}


def position_rank(position: int) -> Rank:
    """The rank at a run position (1 and 14 are both the ace)."""
    return _RANK_AT[whole("position", position, low=1, high=14)]


def _position_word(position: int) -> str:
    return _RANK_AT[position].code


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal set or run as it lies on the table.

    ``cards`` are in table order (a run from its low end up); ``stands_for`` is
    aligned with ``cards``: None for a natural card, and for a joker the natural
    card it represents (deck 0). Build melds with :func:`check_meld`,
    :func:`~rummykit.engine.search.find_contract`, :func:`lay_off` or :func:`swap_joker`, which check the
    rules; the constructor itself does not.
    """

    kind: str
    """``"set"`` or ``"run"``."""
    cards: tuple[Card, ...]
    """The cards, a run from its low end to its high end."""
    stands_for: tuple[Card | None, ...]
    """For each card: None for a natural, the card represented for a joker."""
    rank: Rank | None = None
    """A set's rank (None for a run)."""
    suit: Suit | None = None
    """A run's suit (None for a set)."""
    start: int | None = None
    """A run's lowest position (1 = ace low .. 14 = ace high); None for a set."""

    @property
    def end(self) -> int | None:
        """A run's highest position (None for a set)."""
        return None if self.start is None else self.start + len(self.cards) - 1

    @property
    def jokers(self) -> dict[Card, Card]:
        """Each joker in the meld and the natural card it stands for."""
        return {c: s for c, s in zip(self.cards, self.stands_for, strict=True) if s is not None}

    @property
    def naturals(self) -> tuple[Card, ...]:
        """The natural (non-joker) cards."""
        return tuple(c for c in self.cards if not c.is_joker)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def describe(self) -> str:
        """The meld in plain words: ``"run of hearts 6-9, the joker is the 8♥"``, ``"set of
        3s, the joker stands for a 3"`` (a set's joker has no suit).

        >>> from rummykit import RuleSet, parse_cards
        >>> rules = RuleSet.preset("standard")
        >>> check_meld(parse_cards("3S 3D JK"), rules).meld.describe()
        'set of 3s, the joker stands for a 3'
        >>> check_meld(parse_cards("8S 8D JK JK"), rules).meld.describe()
        'set of 8s, the jokers stand for 8s'
        """
        if self.kind == "set":
            text = f"set of {self.rank.word}s"
        else:
            text = (
                f"run of {self.suit.plural} {_position_word(self.start)}-{_position_word(self.end)}"
            )
        return text + _joker_words(self.jokers, self.kind)

    def __str__(self) -> str:
        return " ".join(card.symbol for card in self.cards)

    def _repr_svg_(self) -> str:
        from rummykit import svg

        return svg.hand_svg(Hand(self.cards))


def _joker_words(jokers: dict[Card, Card], kind: str | None) -> str:
    """The jokers of a meld in words: a run's stand for exact cards, a set's for its rank
    (any suit: a natural of that rank may still be laid off onto the set)."""
    if not jokers:
        return ""
    if kind == "set":
        word = next(iter(jokers.values())).rank.word
        if len(jokers) == 1:
            article = "an" if word.startswith(("8", "ace")) else "a"
            return f", the joker stands for {article} {word}"
        return f", the jokers stand for {word}s"
    names = [stand.symbol for stand in jokers.values()]
    if len(names) == 1:
        return f", the joker is the {names[0]}"
    return ", the jokers are the " + " and the ".join(names)


@dataclass(frozen=True)
class MeldCheck:
    """The verdict of :func:`check_meld`: legal or not, and why."""

    ok: bool
    """True when the cards form a legal meld."""
    kind: str | None
    """``"set"``, ``"run"``, or None when the cards form neither."""
    reason: str | None = None
    """When not ok, the rule broken, in words a learner understands."""
    meld: Meld | None = None
    """The meld when ok."""
    jokers: dict[Card, Card] = field(default_factory=dict)
    """Each joker and the card it stands for (empty when not ok)."""

    def describe(self) -> str:
        """``"valid run, the joker is the 7♥"`` or ``"not a meld: <reason>"``."""
        if not self.ok:
            return f"not a meld: {self.reason}"
        return f"valid {self.kind}" + _joker_words(self.jokers, self.kind)

    def __bool__(self) -> bool:
        return self.ok

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b42318"
        return f'<p style="color:{colour}">{self.describe()}</p>'


# ------------------------------------------------------------------------------------
# Checking one meld


def _kind_rules(kind: str, rules: RuleSet) -> tuple[int, int, int | None]:
    if kind == "set":
        return rules.min_set_size, rules.min_naturals_in_set, rules.max_jokers_per_meld
    return rules.min_run_size, rules.min_naturals_in_run, rules.max_jokers_per_meld


def _count_problem(kind: str, size: int, naturals: int, rules: RuleSet) -> str | None:
    """The rule a meld of ``size`` cards with ``naturals`` naturals breaks, if any."""
    min_size, min_naturals, max_jokers = _kind_rules(kind, rules)
    jokers = size - naturals
    if size < min_size:
        return f"a {kind} needs at least {min_size} cards, these are {size}"
    if naturals < min_naturals:
        return f"a {kind} needs at least {min_naturals} natural card{'s' if min_naturals != 1 else ''} (not jokers)"
    if max_jokers is not None and jokers > max_jokers:
        return f"a meld may hold at most {max_jokers} joker{'s' if max_jokers != 1 else ''}, this one has {jokers}"
    return None


def make_set(cards: Sequence[Card], rank: Rank) -> Meld:
    """The set of ``cards`` of ``rank``, built unchecked (for cards already found to be a set).

    Its jokers stand for the suits it lacks first, then for repeats. :func:`check_meld`
    is the checked way in; the contract search (:mod:`rummykit.engine.search`) builds its melds here.

    >>> from rummykit import parse_cards
    >>> make_set(parse_cards("8S 8H JK"), Rank.EIGHT).stands_for
    (None, None, Card.parse('8♣'))
    """
    cards = tuple(cards)
    stands: list[Card | None] = [None] * len(cards)
    jokers = [k for k, card in enumerate(cards) if card.rank is None]
    if jokers:
        held = {card.index // 13 for card in cards if card.rank is not None}
        order = [s for s in range(4) if s not in held] + [0, 1, 2, 3]
        base = rank - 2
        for n, k in enumerate(jokers):
            stands[k] = NATURALS[order[n % len(order)] * 13 + base]
    return Meld("set", cards, tuple(stands), rank)


def make_run(slots: Sequence[Card], suit: Suit, start: int) -> Meld:
    """The run of ``slots`` (cards already in position order) of ``suit`` from ``start``, unchecked.

    Position 1 is the low ace, 14 the high ace. :func:`check_meld` is the checked way in.

    >>> from rummykit import parse_cards
    >>> make_run(parse_cards("4H JK 6H"), Suit.HEARTS, 4).stands_for
    (None, Card.parse('5♥'), None)
    """
    base = suit.index * 13
    return Meld(
        "run",
        tuple(slots),
        tuple(
            NATURALS[base + (12 if p in (1, 14) else p - 2)] if c.rank is None else None
            for p, c in enumerate(slots, start)
        ),
        None,
        suit,
        start,
    )


def _check_set(cards: list[Card], rules: RuleSet) -> MeldCheck:
    naturals = [c for c in cards if not c.is_joker]
    ranks = {c.rank for c in naturals}
    if len(ranks) > 1:
        shown = ", ".join(sorted((r.code for r in ranks), key=lambda code: Card.parse(code + "S")))
        return MeldCheck(False, None, f"a set is cards of one rank, these mix {shown}")
    problem = _count_problem("set", len(cards), len(naturals), rules)
    if problem:
        return MeldCheck(False, "set", problem)
    meld = make_set(cards, next(iter(ranks)))
    return MeldCheck(True, "set", meld=meld, jokers=meld.jokers)


def _wrap_words(positions: Sequence[int]) -> str | None:
    """If ranks (2..14) would be consecutive only by going round the corner, name the corner."""
    present = set(positions)
    if not ({13, 14} & present and 2 in present) and not (13 in present and 2 in present):
        return None
    # Going round: K-A-2 (or Q-K-A-2-3 ...): show the stretch across the corner.
    high = [p for p in (11, 12, 13, 14) if p in present]
    low = [p for p in (2, 3, 4, 5) if p in present]
    if not high or not low:
        return None
    words = [position_rank(p).code for p in range(min(high), 14)] + ["A"]
    words += [position_rank(p).code for p in range(2, max(low) + 1)]
    return "-".join(words)


def _place_run(cards: list[Card], rules: RuleSet) -> tuple[Meld | None, str | None]:
    """Place a run's cards at positions, honouring the given order when it is a valid one."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    suit = naturals[0].suit
    allowed = rules.run_positions()
    lowest, highest = allowed[0], allowed[-1]
    aces = [c for c in naturals if c.rank == Rank.ACE]
    others = sorted((c for c in naturals if c.rank != Rank.ACE), key=lambda c: c.rank)
    if len(aces) > 1:
        return None, "a run cannot use the ace both low and high"
    seen: set[Rank] = set()
    for card in others:
        if card.rank in seen:
            return (
                None,
                f"a run holds each rank once, and there are two {card.rank.code}{suit.symbol}",
            )
        seen.add(card.rank)

    choices = []  # candidate natural placements: position -> card
    if aces:
        if rules.ace_low:
            choices.append({1: aces[0]} | {int(c.rank): c for c in others})
        if rules.ace_high:
            choices.append({14: aces[0]} | {int(c.rank): c for c in others})
        if not choices:
            return None, "aces cannot be played in runs under these rules"
    else:
        choices.append({int(c.rank): c for c in others})

    # The order given, when it reads as a run (up or down), decides where jokers go.
    for ordered in (cards, cards[::-1]):
        for placed in choices:
            first = next(i for i, c in enumerate(ordered) if not c.is_joker)
            start = min(p for p, c in placed.items() if c is ordered[first]) - first
            if start < lowest or start + len(cards) - 1 > highest:
                continue
            if all(c.is_joker or placed.get(start + i) is c for i, c in enumerate(ordered)):
                return make_run(ordered, suit, start), None

    best_problem = None
    for placed in choices:
        low, high = min(placed), max(placed)
        span = high - low + 1
        gaps = span - len(placed)
        if gaps > len(jokers):
            best_problem = best_problem or (
                f"the cards are not in sequence: the gaps between "
                f"{position_rank(low).code}{suit.symbol} and {position_rank(high).code}{suit.symbol} "
                f"need {gaps} joker{'s' if gaps != 1 else ''}, the meld has {len(jokers)}"
            )
            continue
        extra = len(jokers) - gaps
        up = min(extra, highest - high)
        down = extra - up
        if low - down < lowest:
            best_problem = best_problem or "the run is longer than the ranks allow (no wrapping)"
            continue
        start = low - down
        spare = iter(jokers)
        slots = [placed.get(p) or next(spare) for p in range(start, high + up + 1)]
        return make_run(slots, suit, start), None
    wrap = _wrap_words([14 if c.rank == Rank.ACE else int(c.rank) for c in naturals])
    if wrap:
        return None, f"{wrap} turns the corner: runs cannot wrap"
    return None, best_problem


def _check_run(cards: list[Card], rules: RuleSet) -> MeldCheck:
    naturals = [c for c in cards if not c.is_joker]
    suits = {c.suit for c in naturals}
    if len(suits) > 1:
        shown = " and ".join(s.plural for s in Suit if s in suits)
        return MeldCheck(False, None, f"a run is cards of one suit, these mix {shown}")
    problem = _count_problem("run", len(cards), len(naturals), rules)
    if problem:
        return MeldCheck(False, "run", problem)
    meld, problem = _place_run(cards, rules)
    if meld is None:
        return MeldCheck(False, "run", problem)
    if len(cards) > MAX_RUN_LENGTH:
        # Placing 14 cards takes positions 1..14: the ace, or a joker standing for it,
        # played both low and high.
        return MeldCheck(
            False,
            "run",
            f"a run holds at most {MAX_RUN_LENGTH} cards (the ace plays low or high, never "
            f"both), these are {len(cards)}",
        )
    return MeldCheck(True, "run", meld=meld, jokers=meld.jokers)


def check_meld(cards: Iterable[Card], rules: RuleSet, *, kind: str | None = None) -> MeldCheck:
    """Check whether ``cards`` form a legal set or run under ``rules``.

    ``kind`` may force ``"set"`` or ``"run"``; by default the cards decide. For a run,
    cards given in sequence (up or down) keep their jokers where they were placed;
    otherwise jokers fill the gaps, then extend the run upwards, then downwards.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> check_meld(parse_cards("7D 7D 7S JK"), rules).describe()
    'valid set, the joker stands for a 7'
    >>> check_meld(parse_cards("3S JK JK"), rules).reason
    'a set needs at least 2 natural cards (not jokers)'
    >>> check_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), rules).reason
    'a run cannot use the ace both low and high'
    >>> check_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"), rules).reason
    'a run holds at most 13 cards (the ace plays low or high, never both), these are 14'
    >>> check_meld(parse_cards("4H 5H 6S 7H"), rules).reason
    'a run is cards of one suit, these mix hearts and spades'
    """
    instance("rules", rules, RuleSet, "a RuleSet")
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise CardTypeError(f"check_meld takes an iterable of Card objects, got {cards!r}")
    cards = list(cards)
    if kind not in (None, "set", "run"):
        raise ArgumentError(f"kind must be 'set', 'run' or None, got {kind!r}")
    if not cards:
        return MeldCheck(False, None, "a meld needs cards")
    for card in cards:
        if not isinstance(card, Card):
            raise ArgumentTypeError(f"check_meld takes Card objects, got {card!r}")
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        return MeldCheck(False, None, f"the same card ({twice}) is used twice")
    naturals = [c for c in cards if not c.is_joker]
    if not naturals:
        return MeldCheck(False, None, "a meld needs natural cards: jokers cannot be played alone")
    if kind == "set":
        return _check_set(cards, rules)
    if kind == "run":
        return _check_run(cards, rules)
    one_rank = len({c.rank for c in naturals}) == 1
    one_suit = len({c.suit for c in naturals}) == 1
    if one_rank and one_suit and len(naturals) == 1:
        # A single natural with jokers: whichever kind works, else the likelier reason.
        as_set, as_run = _check_set(cards, rules), _check_run(cards, rules)
        if as_set.ok or as_run.ok:
            return as_set if as_set.ok else as_run
        return as_run if len(cards) >= rules.min_run_size else as_set
    if one_rank:
        return _check_set(cards, rules)
    if one_suit:
        return _check_run(cards, rules)
    if len({c.rank for c in naturals}) == len(naturals):
        # All ranks differ: meant as a run. Too few cards for one is the first rule they
        # break (a set of them would break its rank in every card).
        if len(cards) < rules.min_run_size:
            return _too_few(cards, rules)
        return _check_run(cards, rules)
    return _check_set(cards, rules)


def _too_few(cards: list[Card], rules: RuleSet) -> MeldCheck:
    """The refusal of ``cards`` of different ranks, fewer than a run needs: fewer than
    any meld needs, or than a run needs.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> check_meld(parse_cards("4H 9S"), rules).reason
    'a meld needs at least 3 cards (a set 3, a run 4), these are 2'
    >>> check_meld(parse_cards("4H 5S JK"), rules).reason
    'a run needs at least 4 cards, these are 3'
    """
    size, fewest = len(cards), min(rules.min_set_size, rules.min_run_size)
    if size < fewest:
        return MeldCheck(
            False,
            None,
            f"a meld needs at least {fewest} cards (a set {rules.min_set_size}, a run "
            f"{rules.min_run_size}), these are {size}",
        )
    naturals = sum(not card.is_joker for card in cards)
    return MeldCheck(False, "run", _count_problem("run", size, naturals, rules))


def _require(cards: Iterable[Card], rules: RuleSet, kind: str | None = None) -> Meld:
    check = check_meld(cards, rules, kind=kind)
    if not check.ok:
        raise IllegalMeldError(check.reason)
    return check.meld


# ------------------------------------------------------------------------------------
# Laying down, laying off, swapping jokers


def check_lay_down(
    groups: Sequence[Sequence[Card]], contract: Contract, rules: RuleSet
) -> list[Meld]:
    """Check a lay-down: ``groups`` of cards meant to make ``contract``.

    Returns the melds, or raises :class:`IllegalMeldError` naming the rule broken: an
    illegal meld, a card in two melds, the wrong number of sets or runs (exactly the
    contract's, or at least that many when ``rules.extra_melds``), or two runs of one
    suit that are not separated when ``rules.same_suit_runs == "separated"``. A group of
    one natural and jokers counts as a set or a run, whichever the contract needs.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> melds = check_lay_down([parse_cards("8S 8H 8D"), parse_cards("JH JH JS")], rules.contracts[0], rules)
    >>> [m.kind for m in melds]
    ['set', 'set']
    >>> check_lay_down([parse_cards("8S 8H 8D")], rules.contracts[0], rules)
    Traceback (most recent call last):
    ...
    rummykit.errors.IllegalMeldError: the contract is 2 sets: these melds make 1 set
    """
    contract_rules(contract, rules)
    groups = items("groups", groups, lambda name, group: list(check_cards(name, group)))
    seen: set[Card] = set()
    for group in groups:
        for card in group:
            if card in seen:
                raise IllegalMeldError(f"the {card} is in two melds: each card goes in one meld")
            seen.add(card)
    options: list[dict[str, Meld]] = []
    for number, group in enumerate(groups, 1):
        fits = {}
        for kind in ("set", "run"):
            check = check_meld(group, rules, kind=kind)
            if check.ok:
                fits[kind] = check.meld
        if not fits:
            reason = check_meld(group, rules).reason
            raise IllegalMeldError(
                f"meld {number} ({' '.join(map(str, group))}) is not a meld: {reason}"
            )
        options.append(fits)

    def counts_ok(sets: int, runs: int) -> bool:
        if rules.extra_melds:
            return sets >= contract.sets and runs >= contract.runs
        return sets == contract.sets and runs == contract.runs

    best: list[Meld] | None = None
    for kinds in product(*[sorted(fits) for fits in options]):
        if counts_ok(kinds.count("set"), kinds.count("run")):
            best = [fits[kind] for fits, kind in zip(options, kinds, strict=True)]
            break
    if best is None:
        kinds = [next(iter(fits)) for fits in options]
        made = " + ".join(
            f"{n} {kind}{'s' if n != 1 else ''}"
            for kind in ("set", "run")
            if (n := kinds.count(kind)) or not kinds
        )
        wanted = f"at least {contract}" if rules.extra_melds else str(contract)
        raise IllegalMeldError(f"the contract is {wanted}: these melds make {made}")
    if rules.same_suit_runs == "separated":
        runs = [m for m in best if m.kind == "run"]
        for a, b in combinations(runs, 2):
            if a.suit == b.suit and not (a.end + 1 < b.start or b.end + 1 < a.start):
                raise IllegalMeldError(
                    f"two runs of {a.suit.plural} must be separated by at least one card: "
                    f"{a} and {b} touch or overlap"
                )
    return best


def lay_off_options(meld: Meld, card: Card, rules: RuleSet) -> tuple[Meld, ...]:
    """Every meld ``card`` can turn ``meld`` into when laid off (empty when none).

    A natural extends a set of its rank, or a run of its suit at the end where its rank
    is next; a joker extends a set, or a run at either end, within the joker limit.
    (The same-suit separation rule of some presets applies to contracts, not lay-offs.)

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> run = check_meld(parse_cards("5H 6H 7H 8H"), rules).meld
    >>> [str(m) for m in lay_off_options(run, parse_cards("JK")[0], rules)]
    ['JK 5♥ 6♥ 7♥ 8♥', '5♥ 6♥ 7♥ 8♥ JK']
    """
    instance("meld", meld, Meld, "a Meld (check_meld(cards, rules).meld)")
    instance("card", card, Card, "a Card")
    instance("rules", rules, RuleSet, "a RuleSet")
    jokers = sum(1 for c in meld.cards if c.is_joker)
    if (
        card.is_joker
        and rules.max_jokers_per_meld is not None
        and jokers >= rules.max_jokers_per_meld
    ):
        return ()
    if card in meld.cards:
        return ()
    if meld.kind == "set":
        if card.is_joker or card.rank == meld.rank:
            return (make_set(meld.cards + (card,), meld.rank),)
        return ()
    allowed = rules.run_positions()
    lowest, highest = allowed[0], allowed[-1]
    options = []
    low, high = meld.start - 1, meld.end + 1
    if (
        low >= lowest
        and not (low == 1 and meld.end == 14)
        and (card.is_joker or (card.suit == meld.suit and position_rank(low) == card.rank))
    ):
        options.append(make_run((card, *meld.cards), meld.suit, low))
    if (
        high <= highest
        and not (high == 14 and meld.start == 1)
        and (card.is_joker or (card.suit == meld.suit and position_rank(high) == card.rank))
    ):
        options.append(make_run((*meld.cards, card), meld.suit, meld.start))
    return tuple(options)


def lay_off(meld: Meld, card: Card, rules: RuleSet, *, end: str | None = None) -> Meld:
    """Lay ``card`` off onto ``meld``; raise :class:`IllegalMeldError` naming the rule if it can't.

    ``end`` chooses the end of a run (``"low"`` or ``"high"``) when the card fits both
    (a joker, or an ace on a 2-K run); by default the high end.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> run = check_meld(parse_cards("5H 6H 7H 8H"), rules).meld
    >>> str(lay_off(run, parse_cards("4H")[0], rules))
    '4♥ 5♥ 6♥ 7♥ 8♥'
    >>> lay_off(run, parse_cards("10H")[0], rules)
    Traceback (most recent call last):
    ...
    rummykit.errors.IllegalMeldError: the 10♥ does not extend the run 5♥ 6♥ 7♥ 8♥: it takes the 4♥ or the 9♥
    """
    instance("meld", meld, Meld, "a Meld (check_meld(cards, rules).meld)")
    instance("card", card, Card, "a Card")
    instance("rules", rules, RuleSet, "a RuleSet")
    if end not in (None, "low", "high"):
        raise ArgumentError(f"end must be 'low', 'high' or None, got {end!r}")
    options = lay_off_options(meld, card, rules)
    if meld.kind == "run" and end is not None:
        options = tuple(m for m in options if (m.start < meld.start) == (end == "low"))
    if options:
        return options[-1]
    raise IllegalMeldError(_lay_off_reason(meld, card, rules, end))


def _lay_off_reason(meld: Meld, card: Card, rules: RuleSet, end: str | None) -> str:
    if card in meld.cards:
        return f"the {card} is already in that meld"
    jokers = sum(1 for c in meld.cards if c.is_joker)
    if (
        card.is_joker
        and rules.max_jokers_per_meld is not None
        and jokers >= rules.max_jokers_per_meld
    ):
        return f"a meld may hold at most {rules.max_jokers_per_meld} jokers, this one is full"
    if meld.kind == "set":
        return f"the {card} does not match the set of {meld.rank.word}s"
    if card.is_joker:
        return f"the run {meld} cannot grow at the {end} end"
    if card.suit != meld.suit:
        return f"the {card} is not a {meld.suit.plural[:-1]}: the run {meld} is {meld.suit.plural}"
    allowed = rules.run_positions()
    wanted = [
        f"the {position_rank(p).code}{meld.suit.symbol}"
        for p in (meld.start - 1, meld.end + 1)
        if allowed[0] <= p <= allowed[-1]
        and not (p == 14 and meld.start == 1)
        and not (p == 1 and meld.end == 14)
    ]
    if not wanted:
        return f"the run {meld} cannot grow: it already spans every rank it may"
    return f"the {card} does not extend the run {meld}: it takes {' or '.join(wanted)}"


def swap_joker(meld: Meld, card: Card, rules: RuleSet) -> tuple[Meld, Card]:
    """Replace the joker in ``meld`` that stands for ``card``; return the new meld and the joker.

    Checks the meld rules only (which melds jokers may be taken from, and that ``card``
    is what the joker stands for; in a set, any natural of the set's rank). Whether the
    player may swap now (laid down, whose turn) is the game's business.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> run = check_meld(parse_cards("3S 4S JK 6S"), rules).meld
    >>> new, joker = swap_joker(run, parse_cards("5S")[0], rules)
    >>> str(new), joker.is_joker
    ('3♠ 4♠ 5♠ 6♠', True)
    >>> swap_joker(run, parse_cards("7S")[0], rules)
    Traceback (most recent call last):
    ...
    rummykit.errors.IllegalMeldError: the joker stands for the 5♠, not the 7♠
    """
    instance("meld", meld, Meld, "a Meld (check_meld(cards, rules).meld)")
    instance("card", card, Card, "a Card")
    instance("rules", rules, RuleSet, "a RuleSet")
    if rules.joker_swap == "none":
        raise IllegalMeldError("these rules do not allow taking a joker from a meld")
    if meld.kind == "set" and rules.joker_swap == "runs":
        raise IllegalMeldError("jokers can only be taken from runs, not from sets")
    if card.is_joker:
        raise IllegalMeldError(
            "a joker is replaced by the natural card it stands for, not by a joker"
        )
    jokers = meld.jokers
    if not jokers:
        raise IllegalMeldError(f"the meld {meld} has no joker to take")
    if meld.kind == "set":
        if card.rank != meld.rank:
            raise IllegalMeldError(
                f"the jokers in this set stand for {meld.rank.word}s, not the {card}"
            )
        joker = next(iter(jokers))
        cards = tuple(card if c is joker else c for c in meld.cards)
        return make_set(cards, meld.rank), joker
    for joker, stands in jokers.items():
        if stands.rank == card.rank and stands.suit == card.suit:
            cards = tuple(card if c is joker else c for c in meld.cards)
            return make_run(cards, meld.suit, meld.start), joker
    wanted = " or the ".join(str(s) for s in jokers.values())
    raise IllegalMeldError(f"the joker stands for the {wanted}, not the {card}")
