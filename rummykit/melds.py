"""Melds: sets and runs with reasons, contract search, lay-off and joker-swap legality.

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

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from operator import attrgetter

from rummykit.cards import Card, Hand, Rank, Suit
from rummykit.errors import ArgumentError, ArgumentTypeError, IllegalMeldError
from rummykit.rules import Contract, RuleSet

__all__ = [
    "Meld",
    "MeldCheck",
    "check_lay_down",
    "check_meld",
    "contract_completion",
    "contract_distance",
    "contract_within",
    "find_contract",
    "lay_off",
    "lay_off_options",
    "position_rank",
    "swap_joker",
]

_RANK_AT = {1: Rank.ACE, 14: Rank.ACE} | {p: Rank(p) for p in range(2, 14)}


def position_rank(position: int) -> Rank:
    """The rank at a run position (1 and 14 are both the ace)."""
    return _RANK_AT[position]


def _position_word(position: int) -> str:
    return _RANK_AT[position].code


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal set or run as it lies on the table.

    ``cards`` are in table order (a run from its low end up); ``stands_for`` is
    aligned with ``cards``: None for a natural card, and for a joker the natural
    card it represents (deck 0). Build melds with :func:`check_meld`,
    :func:`find_contract`, :func:`lay_off` or :func:`swap_joker`, which check the
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
        """The meld in plain words: ``"run of hearts 6-9, the joker is the 8♥"``."""
        if self.kind == "set":
            text = f"set of {self.rank.word}s"
        else:
            text = (
                f"run of {self.suit.plural} {_position_word(self.start)}-{_position_word(self.end)}"
            )
        return text + _joker_words(self.jokers)

    def __str__(self) -> str:
        return " ".join(card.symbol for card in self.cards)

    def _repr_svg_(self) -> str:
        from rummykit import svg

        return svg.hand_svg(Hand(self.cards))


def _joker_words(jokers: dict[Card, Card]) -> str:
    if not jokers:
        return ""
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
        return f"valid {self.kind}" + _joker_words(self.jokers)

    def __bool__(self) -> bool:
        return self.ok

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b42318"
        return f'<p style="color:{colour}">{self.describe()}</p>'


# ------------------------------------------------------------------------------------
# Checking one meld


#: The most cards in a run: the thirteen ranks, the ace low or high but never both.
MAX_RUN_LENGTH = 13


def _meld_limits(kind: str, rules: RuleSet) -> tuple[int, int, int | None]:
    if kind == "set":
        return rules.min_set_size, rules.min_naturals_in_set, rules.max_jokers_per_meld
    return rules.min_run_size, rules.min_naturals_in_run, rules.max_jokers_per_meld


def _count_problem(kind: str, size: int, naturals: int, rules: RuleSet) -> str | None:
    """The rule a meld of ``size`` cards with ``naturals`` naturals breaks, if any."""
    min_size, min_naturals, max_jokers = _meld_limits(kind, rules)
    jokers = size - naturals
    if size < min_size:
        return f"a {kind} needs at least {min_size} cards, these are {size}"
    if naturals < min_naturals:
        return f"a {kind} needs at least {min_naturals} natural card{'s' if min_naturals != 1 else ''} (not jokers)"
    if max_jokers is not None and jokers > max_jokers:
        return f"a meld may hold at most {max_jokers} joker{'s' if max_jokers != 1 else ''}, this one has {jokers}"
    return None


# The natural card each index stands for (deck 0), to name what a joker represents.
_NATURALS = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_SUITS = tuple(Suit)
_RANKS = tuple(Rank)
_deck_of = attrgetter("deck")


def _make_set(cards: Sequence[Card], rank: Rank) -> Meld:
    """A set; its jokers stand for the suits it lacks first, then for repeats."""
    cards = tuple(cards)
    stands: list[Card | None] = [None] * len(cards)
    jokers = [k for k, card in enumerate(cards) if card.rank is None]
    if jokers:
        held = {card.index // 13 for card in cards if card.rank is not None}
        order = [s for s in range(4) if s not in held] + [0, 1, 2, 3]
        base = rank - 2
        for n, k in enumerate(jokers):
            stands[k] = _NATURALS[order[n % len(order)] * 13 + base]
    return Meld("set", cards, tuple(stands), rank)


def _make_run(slots: Sequence[Card], suit: Suit, start: int) -> Meld:
    """A run from cards already in position order, starting at position ``start``."""
    base = suit.index * 13
    return Meld(
        "run",
        tuple(slots),
        tuple(
            _NATURALS[base + (12 if p in (1, 14) else p - 2)] if c.rank is None else None
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
    meld = _make_set(cards, next(iter(ranks)))
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
                return _make_run(ordered, suit, start), None

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
        return _make_run(slots, suit, start), None
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
    'valid set, the joker is the 7♣'
    >>> check_meld(parse_cards("3S JK JK"), rules).reason
    'a set needs at least 2 natural cards (not jokers)'
    >>> check_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), rules).reason
    'a run cannot use the ace both low and high'
    >>> check_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"), rules).reason
    'a run holds at most 13 cards (the ace plays low or high, never both), these are 14'
    >>> check_meld(parse_cards("4H 5H 6S 7H"), rules).reason
    'a run is cards of one suit, these mix hearts and spades'
    """
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
        return _check_run(cards, rules)  # all ranks differ: meant as a run
    return _check_set(cards, rules)


def _require(cards: Iterable[Card], rules: RuleSet, kind: str | None = None) -> Meld:
    check = check_meld(cards, rules, kind=kind)
    if not check.ok:
        raise IllegalMeldError(check.reason)
    return check.meld


# ------------------------------------------------------------------------------------
# The contract solver.
#
# A hand is reduced to ``cnt``, the copies held of each natural card (indexed as
# Card.index: suit*13 + rank-2), ``tot``, the naturals held of each rank, ``masks``,
# for each suit the run positions held (bit p for position p; an ace sets 1 and 14),
# and its number of jokers. A run is a window of positions in one suit; a set is a
# rank. The solver sweeps run windows in a canonical order (combinations with
# repetition, so each choice of runs is tried once), takes the naturals present in
# each window and fills the holes with jokers, then decides the sets exactly.
#
# Why this is exact:
# - When every legal run contains a legal run of the minimum length (true when
#   min_run_size - max_jokers_per_meld >= min_naturals_in_run), only minimum-length
#   windows are tried: using fewer cards never hurts the other melds. Otherwise every
#   length is tried.
# - A run may have to leave one of its naturals to another meld and play a joker in
#   its place (4♥5♥6♥7♥ 5♣ JK JK makes 4♥ JK 6♥ 7♥ + 5♣ 5♥ JK). The first pass never
#   does this; when it finds nothing, a second pass also tries every such swap.
# - Sets: k sets of a rank holding c naturals need max(0, k*size - c) jokers and are
#   possible when c >= k*lo, lo = max(min naturals, size - max jokers). These costs
#   are convex in k, so the S cheapest marginal costs over all ranks are optimal.

_BIG = 1 << 30
_NO_SETS = ([(0, 0)], (0, 0))
_RANK_OF_INDEX = tuple(i % 13 for i in range(52))
_SUIT_OF_INDEX = tuple(i // 13 for i in range(52))
# The run positions of each natural card as bits; the ace is both 1 (low) and 14 (high).
_CARD_BITS = tuple((1 << 1) | (1 << 14) if i % 13 == 12 else 1 << (i % 13 + 2) for i in range(52))


def _cell(suit: int, position: int) -> int:
    return suit * 13 + (12 if position in (1, 14) else position - 2)


class _Plan:
    """A solution as indices: runs as (suit, start, natural-used flag per position)."""

    __slots__ = ("runs", "sets")

    def __init__(self, runs: list, sets: list) -> None:
        self.runs = runs
        self.sets = sets  # [(rank index, number of sets)]


class _Hand:
    """A hand reduced to counts (see the comment above)."""

    __slots__ = ("cards", "cnt", "tot", "masks", "jokers", "repeats")

    def __init__(self, hand: Iterable[Card], sets: bool = True, runs: bool = True) -> None:
        # Count only what the contract needs: rank totals for sets, cards and suit
        # masks for runs.
        cnt = [0] * 52
        tot = [0] * 13
        masks = [0, 0, 0, 0]
        jokers = repeats = 0
        cards = list(hand)
        rank_of = _RANK_OF_INDEX
        if not runs:
            for card in cards:
                i = card.index
                if i == 52:
                    jokers += 1
                else:
                    tot[rank_of[i]] += 1
        elif not sets:
            suit_of, bits_of = _SUIT_OF_INDEX, _CARD_BITS
            for card in cards:
                i = card.index
                if i == 52:
                    jokers += 1
                elif cnt[i]:
                    cnt[i] += 1
                    repeats |= 1 << suit_of[i]
                else:
                    cnt[i] = 1
                    masks[suit_of[i]] |= bits_of[i]
        else:
            suit_of, bits_of = _SUIT_OF_INDEX, _CARD_BITS
            for card in cards:
                i = card.index
                if i == 52:
                    jokers += 1
                    continue
                tot[rank_of[i]] += 1
                if cnt[i]:
                    cnt[i] += 1
                    repeats |= 1 << suit_of[i]
                else:
                    cnt[i] = 1
                    masks[suit_of[i]] |= bits_of[i]
        self.cards, self.cnt, self.tot, self.masks = cards, cnt, tot, masks
        self.jokers, self.repeats = jokers, repeats


class _Solver:
    """Per-RuleSet tables for the contract search (built once per RuleSet, cached)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        max_jokers = rules.max_jokers_per_meld
        self.max_jokers = _BIG if max_jokers is None else max_jokers
        self.run_size = rules.min_run_size
        self.run_naturals = rules.min_naturals_in_run
        self.set_size = rules.min_set_size
        self.set_naturals = rules.min_naturals_in_set
        self.set_lo = max(self.set_naturals, self.set_size - self.max_jokers, 1)
        self.separated = rules.same_suit_runs == "separated"
        positions = rules.run_positions()
        minimal_runs = self.run_size - self.max_jokers >= self.run_naturals
        longest = min(13, len(positions))
        lengths = [self.run_size] if minimal_runs else range(self.run_size, longest + 1)
        self.longest = lengths[-1]
        # The same windows serve every suit: (start, length, position bits).
        self.windows = [
            (start, length, sum(1 << p for p in range(start, start + length)))
            for start in positions
            for length in lengths
            if start + length - 1 <= positions[-1]
        ]
        self.cells = [
            [
                tuple(_cell(suit, p) for p in range(start, start + length))
                for start, length, _ in self.windows
            ]
            for suit in range(4)
        ]
        self._tables: dict[int, tuple[tuple, tuple]] = {}
        self._set_costs: dict[tuple[int, ...], int] = {}
        # suit_levels, memoised: one dict per suit, by mask.
        self.levels_by_mask: list[dict[int, tuple]] = [{}, {}, {}, {}]
        # Distance: jokers a meld can take once added cards count as naturals.
        self.set_full = max(self.set_size, self.set_naturals)
        self.set_joker_cap = min(self.max_jokers, self.set_full - self.set_naturals)
        self.run_joker_caps = [
            min(self.max_jokers, length - self.run_naturals) for _, length, _ in self.windows
        ]
        self.cap_most = max(self.run_joker_caps)
        self.run_full = max(self.run_size, self.run_naturals)
        # Keyed by the naturals of the ranks with most (their number says how many sets).
        self._placements: dict[tuple[int, ...], tuple[list, tuple[int, int]]] = {}

    def table(self, mask: int) -> tuple[tuple, tuple]:
        """Windows a suit holding ``mask`` can fill legally: ((window, holes), ...), sorted holes."""
        found = self._tables.get(mask)
        if found is None:
            usable = []
            for w, (_, length, bits) in enumerate(self.windows):
                naturals = (mask & bits).bit_count()
                holes = length - naturals
                if naturals >= self.run_naturals and holes <= self.max_jokers:
                    usable.append((w, holes))
            found = self._tables[mask] = (tuple(usable), tuple(sorted(h for _, h in usable)))
        return found

    def suit_levels(self, suit: int, mask: int) -> tuple[int, tuple[tuple, ...]]:
        """The windows of ``suit`` by holes: (fewest holes, levels), where ``levels[h]``
        holds (h, suit, window) for each window with h holes, in window order."""
        found = self.levels_by_mask[suit].get(mask)
        if found is None:
            levels: list[list[tuple[int, int, int]]] = [[] for _ in range(self.longest + 1)]
            for w, (_, length, bits) in enumerate(self.windows):
                holes = length - (mask & bits).bit_count()
                levels[holes].append((holes, suit, w))
            fewest = next(h for h, level in enumerate(levels) if level)
            found = (fewest, tuple(map(tuple, levels)))
            self.levels_by_mask[suit][mask] = found
        return found

    # -- sets ----------------------------------------------------------------------
    # Only the `sets` ranks holding most naturals matter (moving a set to a rank with
    # more naturals never costs more), so the joker cost of the sets depends on those
    # counts alone and is memoised on them.

    def _set_marginals(self, tot: list[int], sets: int) -> list[tuple[int, int]]:
        size, lo = self.set_size, self.set_lo
        marginal = []
        top = sorted(tot, reverse=True)[sets - 1]
        for r, c in enumerate(tot):
            if c < lo or c < top:
                continue
            previous = 0
            for k in range(1, min(sets, c // lo) + 1):
                cost = k * size - c
                if cost < 0:
                    cost = 0
                marginal.append((cost - previous, r))
                previous = cost
        return marginal

    def set_cost(self, tot: list[int], sets: int) -> int:
        """Fewest jokers that make ``sets`` sets from ``tot`` (_BIG if impossible)."""
        if sets == 0:
            return 0
        top = (max(tot),) if sets == 1 else tuple(sorted(tot, reverse=True)[:sets])
        cost = self._set_costs.get(top)
        if cost is None:
            marginal = self._set_marginals(list(top), sets)
            marginal.sort()
            cost = _BIG if len(marginal) < sets else sum(c for c, _ in marginal[:sets])
            self._set_costs[top] = cost
        return cost

    def set_plan(self, tot: list[int], jokers: int, sets: int) -> list | None:
        """[(rank index, k)] making ``sets`` sets from ``tot`` with at most ``jokers`` jokers."""
        if self.set_cost(tot, sets) > jokers:
            return None
        if sets == 0:
            return []
        marginal = self._set_marginals(tot, sets)
        marginal.sort()
        counts: dict[int, int] = {}
        for _, r in marginal[:sets]:
            counts[r] = counts.get(r, 0) + 1
        return sorted(counts.items())

    # -- distance ------------------------------------------------------------------
    def set_placements(
        self, tot: list[int], sets: int
    ) -> tuple[list[tuple[int, int]], tuple[int, int]]:
        """(A, B) of every way to place ``sets`` sets on the ranks with the most naturals,
        and the least A and the least B (see the distance comment below)."""
        if sets == 0:
            return _NO_SETS
        top = (max(tot),) if sets == 1 else tuple(sorted(tot, reverse=True)[:sets])
        found = self._placements.get(top)
        if found is None:
            full, cap = self.set_full, self.set_joker_cap
            pairs = []
            for ks in _compositions(sets, sets):
                a = b = 0
                for c, k in zip(top, ks, strict=True):
                    if k:
                        ga, gb = _set_group_cost(c, k, full, cap)
                        a += ga
                        b += gb
                pairs.append((a, b))
            floors = (min(a for a, _ in pairs), min(b for _, b in pairs))
            found = self._placements[top] = (pairs, floors)
        return found

    # -- runs ----------------------------------------------------------------------
    def fits_separation(self, suit: int, start: int, length: int, chosen: list) -> bool:
        if not self.separated:
            return True
        end = start + length - 1
        for s, a, used in chosen:
            if s == suit and not (a + len(used) < start or end + 1 < a):
                return False
        return True

    def run_lower_bound(self, hand: _Hand, runs: int) -> int:
        """Fewest jokers ``runs`` runs need, ignoring how they share cards (_BIG if impossible)."""
        jokers = hand.jokers
        if runs == 1:
            best = _BIG
            tables = self._tables
            for mask in hand.masks:
                if mask:
                    found = tables.get(mask) or self.table(mask)
                    if found[1] and found[1][0] < best:
                        best = found[1][0]
            return best if best <= jokers else _BIG
        holes_seen: list[int] = []
        for suit in range(4):
            mask = hand.masks[suit]
            if mask:
                sorted_holes = self.table(mask)[1]
                repeat = runs if hand.repeats >> suit & 1 else 1
                for holes in sorted_holes[:runs]:
                    if holes > jokers:
                        break
                    holes_seen.extend([holes] * repeat)
        if len(holes_seen) < runs:
            return _BIG
        holes_seen.sort()
        return sum(holes_seen[:runs])

    def search(self, hand: _Hand, sets: int, runs: int, swaps: bool) -> _Plan | None:
        return self._runs(
            list(hand.cnt),
            list(hand.tot),
            list(hand.masks),
            hand.jokers,
            sets,
            runs,
            0,
            0,
            [],
            swaps,
        )

    def _runs(self, cnt, tot, masks, jokers, sets, runs, suit0, w0, chosen, swaps) -> _Plan | None:
        if runs == 0:
            set_plan = self.set_plan(tot, jokers, sets)
            return None if set_plan is None else _Plan(list(chosen), set_plan)
        need, max_jokers = self.run_naturals, self.max_jokers
        for suit in range(suit0, 4):
            mask = masks[suit]
            if not mask:
                continue
            suit_cells = self.cells[suit]
            for w, holes in self.table(mask)[0]:
                if (suit == suit0 and w < w0) or holes > jokers:
                    continue
                start, length, _ = self.windows[w]
                if self.separated and not self.fits_separation(suit, start, length, chosen):
                    continue
                cells = suit_cells[w]
                present = [c for c in cells if cnt[c]]
                options: list[tuple] = [()]
                if swaps:
                    # A natural given up serves a run still to come, or a set of its
                    # rank, which needs at least set_lo naturals of that rank.
                    spare = min(min(max_jokers, jokers) - holes, len(present) - need)
                    wanted = (
                        present
                        if runs > 1
                        else [c for c in present if sets and tot[_RANK_OF_INDEX[c]] >= self.set_lo]
                    )
                    options += [
                        combo for k in range(1, spare + 1) for combo in combinations(wanted, k)
                    ]
                for given_up in options:
                    used = [c for c in present if c not in given_up] if given_up else present
                    cleared = 0
                    for c in used:
                        cnt[c] -= 1
                        tot[_RANK_OF_INDEX[c]] -= 1
                        if not cnt[c]:
                            cleared |= _CARD_BITS[c]
                    masks[suit] = mask & ~cleared
                    chosen.append((suit, start, [c in used for c in cells]))
                    plan = self._runs(
                        cnt,
                        tot,
                        masks,
                        jokers - holes - len(given_up),
                        sets,
                        runs - 1,
                        suit,
                        w,
                        chosen,
                        swaps,
                    )
                    chosen.pop()
                    masks[suit] = mask
                    for c in used:
                        cnt[c] += 1
                        tot[_RANK_OF_INDEX[c]] += 1
                    if plan is not None:
                        return plan
        return None


_SOLVERS: dict[int, _Solver] = {}


def _solver(rules: RuleSet) -> _Solver:
    # Keyed by identity: hashing a RuleSet costs more than a whole quick rejection.
    solver = _SOLVERS.get(id(rules))
    if solver is None or solver.rules is not rules:
        if len(_SOLVERS) > 64:
            _SOLVERS.clear()
        solver = _SOLVERS[id(rules)] = _Solver(rules)
    return solver


def _build(plan: _Plan, cards: list[Card], solver: _Solver) -> list[Meld]:
    """Turn an index plan into Meld objects using the hand's own cards (lowest deck first)."""
    pools: dict[int, list[Card]] = {}
    jokers = []
    if plan.runs:
        for card in cards:
            i = card.index
            if i == 52:
                jokers.append(card)
            elif i in pools:
                pools[i].append(card)
            else:
                pools[i] = [card]
    else:  # sets only: just the naturals of the ranks chosen
        wanted = {r for r, _ in plan.sets}
        for card in cards:
            i = card.index
            if i == 52:
                jokers.append(card)
            elif i % 13 in wanted:
                if i in pools:
                    pools[i].append(card)
                else:
                    pools[i] = [card]
    if len(jokers) > 1:
        jokers.sort(key=_deck_of)
        _check_distinct(jokers)
    for pool in pools.values():
        if len(pool) > 1:
            pool.sort(key=_deck_of)
            _check_distinct(pool)
    runs = []
    for suit_index, start, used in plan.runs:
        slots = [
            pools[_cell(suit_index, start + offset)].pop(0) if natural else jokers.pop(0)
            for offset, natural in enumerate(used)
        ]
        runs.append(_make_run(slots, _SUITS[suit_index], start))
    sets = []
    size, cap = solver.set_size, max(solver.set_size, solver.set_lo)
    for r, k in plan.sets:
        naturals = [c for i in range(r, 52, 13) for c in pools.get(i, ())]  # clubs first
        if k == 1:
            group = naturals[:cap]
            group.extend(jokers.pop(0) for _ in range(size - len(group)))
            sets.append(_make_set(group, _RANKS[r]))
            continue
        groups: list[list[Card]] = [[] for _ in range(k)]
        # Deal the naturals round-robin (at most ``cap`` each) so the jokers spread evenly.
        for i, card in enumerate(naturals[: k * cap]):
            groups[i % k].append(card)
        for group in groups:
            group.extend(jokers.pop(0) for _ in range(max(0, size - len(group))))
            sets.append(_make_set(group, _RANKS[r]))
    return sets + runs


def _check_distinct(cards: list[Card]) -> None:
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        raise ArgumentError(
            f"the hand holds the same card twice ({twice!r}): a hand holds each physical "
            f"card once (give copies from other decks their own deck index)"
        )


def _check_copies(hand: _Hand) -> None:
    """_check_distinct for a hand reduced for runs (which counts its copies): equal cards
    share an index, so only a hand with two copies of a natural, or two jokers, can hold
    one card twice."""
    if hand.repeats or hand.jokers > 1:
        _check_distinct(hand.cards)


def find_contract(hand: Iterable[Card], contract: Contract, rules: RuleSet) -> list[Meld] | None:
    """Melds from ``hand`` that complete ``contract``, or None when no arrangement exists.

    Exact for any hand size: it never misses an arrangement and never returns an
    illegal one. Sets come first, then runs; each meld is as short as the rules allow.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> melds = find_contract(parse_cards("3S 4S 5S 6S KC KD KH 9C"), rules.contracts[1], rules)
    >>> [str(m) for m in melds]
    ['K♣ K♦ K♥', '3♠ 4♠ 5♠ 6♠']
    >>> find_contract(parse_cards("3S 4S 5S 7S KC KD KH 9C"), rules.contracts[1], rules) is None
    True

    A hand holds each physical card once: when an arrangement is found the hand is
    checked, and a card held twice raises ArgumentError (a ValueError).
    """
    solver = _solver(rules)
    try:
        reduced = _Hand(hand, sets=contract.sets > 0, runs=contract.runs > 0)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    plan = _solve(solver, reduced, contract.sets, contract.runs)
    return None if plan is None else _build(plan, reduced.cards, solver)


def _solve(solver: _Solver, hand: _Hand, sets: int, runs: int) -> _Plan | None:
    if len(hand.cards) < sets * solver.set_size + runs * solver.run_size:
        return None
    jokers = hand.jokers
    if not runs:
        sets_only = solver.set_plan(hand.tot, jokers, sets)
        return None if sets_only is None else _Plan([], sets_only)
    lower = solver.set_cost(hand.tot, sets)
    if lower > jokers:
        return None
    if runs:
        lower += solver.run_lower_bound(hand, runs)
        if lower > jokers:
            return None
    plan = solver.search(hand, sets, runs, swaps=False)
    if plan is None and jokers and runs and (sets or runs > 1):
        plan = solver.search(hand, sets, runs, swaps=True)
    return plan


# ------------------------------------------------------------------------------------
# Contract distance: a branch-and-bound over the same windows.
#
# With cards added, a meld's holes are filled by the hand's jokers (at most ``cap``
# of them per meld: the joker limit, and enough naturals once added cards count as
# naturals) or by added cards. For an arrangement with holes h_i and caps cap_i the
# fewest added cards are max(sum max(0, h_i - cap_i), sum h_i - jokers). Sets only
# ever need the ranks with the most naturals (swapping a set onto a rank with more
# naturals never costs more), so the sets are settled over the top S ranks.


def _set_group_cost(c: int, k: int, full: int, cap: int) -> tuple[int, int]:
    """(holes beyond joker capacity, holes) for k sets of one rank holding c naturals."""
    holes = max(0, k * full - c)
    q, rem = divmod(holes, k)
    return rem * max(0, q + 1 - cap) + (k - rem) * max(0, q - cap), holes


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


class _Distance:
    """One contract_distance search; ``best`` is the fewest added cards found so far.

    The search stops once ``best`` reaches ``goal``, a value the caller knows the
    answer cannot go below (or needs no more than).
    """

    def __init__(
        self, solver: _Solver, hand: _Hand, sets: int, runs: int, best: int, goal: int
    ) -> None:
        self.solver, self.sets, self.runs, self.jokers = solver, sets, runs, hand.jokers
        self.best, self.goal = best, goal
        self.floor_a, self.floor_b = solver.set_placements(hand.tot, sets)[1]
        self.entries = self._entries(hand) if runs else []

    def _entries(self, hand: _Hand) -> list[tuple[int, int, int]]:
        """(holes, suit, window) for every window of every suit, fewest holes first (then
        by suit and window), leaving out the windows too full of holes to beat ``best``."""
        solver, jokers = self.solver, hand.jokers
        known = solver.levels_by_mask
        levels = [
            known[suit].get(mask) or solver.suit_levels(suit, mask)
            for suit, mask in enumerate(hand.masks)
        ]
        fewest = min([first for first, _ in levels])
        # Every run has at least the fewest holes, the sets at least the floors: a run
        # with more holes than ``most`` costs ``best`` or more.
        cap, others = solver.cap_most, self.runs - 1
        others_a = others * max(0, fewest - cap) + self.floor_a
        others_b = others * fewest + self.floor_b - jokers
        most = fewest
        while (
            most < solver.longest
            and max(others_a + max(0, most + 1 - cap), others_b + most + 1) < self.best
        ):
            most += 1
        entries: list[tuple[int, int, int]] = []
        for h in range(fewest, most + 1):
            for _, by_holes in levels:
                entries += by_holes[h]
        return entries

    def search(
        self, cnt: list[int], tot: list[int], a: int, b: int, runs_left: int, j0: int, chosen: list
    ) -> None:
        jokers = self.jokers
        if runs_left == 0:
            for sa, sb in self.solver.set_placements(tot, self.sets)[0]:
                d = max(a + sa, b + sb - jokers)
                if d < self.best:
                    self.best = d
            return
        if runs_left == 1 and not self.sets:
            self._last_run(cnt, a, b, j0, chosen)
            return
        solver = self.solver
        swaps = jokers > 0 and (self.sets or self.runs > 1)
        cap_most, windows, all_cells, caps = (
            solver.cap_most,
            solver.windows,
            solver.cells,
            solver.run_joker_caps,
        )
        separated = solver.separated
        floor_a, floor_b = self.floor_a, self.floor_b - jokers
        rank_of = _RANK_OF_INDEX
        empty_tried = 0
        entries = self.entries
        for j in range(j0, len(entries)):
            h0, suit, w = entries[j]
            # Every run still to place has at least h0 holes (the entries are sorted).
            low_a = a + runs_left * (h0 - cap_most if h0 > cap_most else 0) + floor_a
            low_b = b + runs_left * h0 + floor_b
            if (low_a if low_a > low_b else low_b) >= self.best:
                return
            start, length, _ = windows[w]
            if separated and not solver.fits_separation(suit, start, length, chosen):
                continue
            cells = all_cells[suit][w]
            present = [c for c in cells if cnt[c]]
            if not present:
                # Empty windows of one suit are all alike: try one per suit and level.
                if empty_tried >> suit & 1:
                    continue
                empty_tried |= 1 << suit
            holes = length - len(present)
            cap = caps[w]
            # The runs after this one have at least h0 holes each; this one has its own,
            # which may be more (cards taken by the runs before), and one more for each
            # natural it gives up.
            rest_a = low_a - (h0 - cap_most if h0 > cap_most else 0)
            rest_b = low_b - h0
            if max(rest_a + (holes - cap if holes > cap else 0), rest_b + holes) >= self.best:
                continue
            options: list[tuple] = [()]
            if swaps:
                options += [
                    combo
                    for k in range(1, min(cap, jokers) - holes + 1)
                    for combo in combinations(present, k)
                ]
            chosen.append((suit, start, cells))
            for given_up in options:
                h = holes + len(given_up)
                if given_up and max(rest_a + (h - cap if h > cap else 0), rest_b + h) >= self.best:
                    break  # (the options give up more and more naturals)
                used = [c for c in present if c not in given_up] if given_up else present
                for c in used:
                    cnt[c] -= 1
                    tot[rank_of[c]] -= 1
                self.search(
                    cnt, tot, a + (h - cap if h > cap else 0), b + h, runs_left - 1, j, chosen
                )
                for c in used:
                    cnt[c] += 1
                    tot[rank_of[c]] += 1
                if self.best <= self.goal:
                    chosen.pop()
                    return
            chosen.pop()

    def _last_run(self, cnt: list[int], a: int, b: int, j0: int, chosen: list) -> None:
        """The last run of a contract without sets: its cost is known on sight. (Giving up
        a natural to a joker only adds holes, with no meld left to take the card.)"""
        solver, jokers = self.solver, self.jokers
        cap_most, windows, cells, caps = (
            solver.cap_most,
            solver.windows,
            solver.cells,
            solver.run_joker_caps,
        )
        entries = self.entries
        for j in range(j0, len(entries)):
            h0, suit, w = entries[j]
            if max(a + max(0, h0 - cap_most) + self.floor_a, b + h0 - jokers) >= self.best:
                return
            start, length, _ = windows[w]
            if solver.separated and not solver.fits_separation(suit, start, length, chosen):
                continue
            h = length
            for c in cells[suit][w]:
                if cnt[c]:
                    h -= 1
            d = max(a + max(0, h - caps[w]), b + h - jokers)
            if d < self.best:
                self.best = d
                if d <= self.goal:
                    return


def contract_distance(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, *, decks: int | None = None
) -> int:
    """The fewest cards that must be added to ``hand`` for it to hold ``contract``.

    Added cards are natural cards of any rank and suit; with ``decks`` given, the hand
    with its added cards holds at most ``decks`` copies of any card (as a shoe of that
    many decks allows), otherwise copies are not limited. Jokers are never added (a
    natural does whatever a joker would, where a copy is left). The result is 0
    exactly when :func:`find_contract` finds the contract.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> contract_distance(parse_cards("8S 8H 8D JH JS 2C 5D"), rules.contracts[0], rules)
    1
    >>> contract_distance(parse_cards("8S 8H 2D JH 4S 3C 5D"), rules.contracts[0], rules)
    3
    >>> hand = parse_cards("7H 8H 9H 10H 7H 8H 9H")
    >>> contract_distance(hand, rules.contracts[2], rules, decks=2)  # a second 10♥
    1
    """
    solver = _solver(rules)
    try:
        reduced = _Hand(hand)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    _check_copies(reduced)
    distance = _unlimited_distance(solver, reduced, contract)
    if decks is None or distance == 0:
        return distance
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
        raise ArgumentError(f"decks must be None or an integer >= 1, got {decks!r}")
    over = [i for i, n in enumerate(reduced.cnt) if n > decks]
    if over:
        raise ArgumentError(
            f"the hand holds {reduced.cnt[over[0]]} copies of {_NATURALS[over[0]]}, "
            f"more than {decks} deck{'s' if decks != 1 else ''} have"
        )
    return len(_cheapest_additions(solver, reduced, contract, decks, distance))


def contract_completion(
    hand: Iterable[Card], contract: Contract, rules: RuleSet, *, decks: int | None = None
) -> Hand:
    """An example of the cards missing from ``hand``: natural cards, as few as
    :func:`contract_distance` says (``decks`` as there), that make ``contract`` once added.

    Empty when the hand already holds the contract. Of the smallest completions, the one
    found first (the search is deterministic); a card added twice is two copies, each
    given a deck index the hand does not use for that card.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H 2D JH 4S 3C 5D")
    >>> contract_distance(hand, rules.contracts[0], rules)
    3
    >>> missing = contract_completion(hand, rules.contracts[0], rules)
    >>> str(missing), find_contract([*hand, *missing], rules.contracts[0], rules) is not None
    ('2♣ 2♣ 8♣', True)
    >>> str(contract_completion(hand, rules.contracts[0], rules, decks=1))  # one 2♣ only
    '2♣ 2♥ 8♣'
    >>> contract_completion(parse_cards("8S 8H 8D JH JS JD"), rules.contracts[0], rules)
    parse_cards('')
    """
    hand = list(hand)
    distance = contract_distance(hand, contract, rules, decks=decks)
    if distance == 0:
        return Hand()
    added = _cheapest_additions(_solver(rules), _Hand(hand), contract, decks, distance)
    used: dict[int, set[int]] = {}
    for card in hand:
        if not card.is_joker:
            used.setdefault(card.index, set()).add(card.deck)
    cards = []
    for i in added:
        taken = used.setdefault(i, set())
        deck = min(set(range(len(taken) + 1)) - taken)
        taken.add(deck)
        cards.append(Card(_NATURALS[i].rank, _NATURALS[i].suit, deck))
    return Hand(cards).sorted()


def contract_within(hand: Iterable[Card], contract: Contract, rules: RuleSet, cards: int) -> bool:
    """Whether at most ``cards`` cards added to ``hand`` make ``contract``.

    The same as ``contract_distance(hand, contract, rules) <= cards`` (copies not
    limited), but quicker: the search stops as soon as it finds ``cards`` enough, and
    gives up on every arrangement that needs more. A player who knows the distance is
    one of two neighbours (a card drawn or discarded moves it by at most one) needs no
    more than this. With ``cards=0`` it is whether :func:`find_contract` finds the
    contract.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> hand = parse_cards("8S 8H 2D JH 4S 3C 5D")
    >>> contract_distance(hand, rules.contracts[0], rules)
    3
    >>> contract_within(hand, rules.contracts[0], rules, 2)
    False
    >>> contract_within(hand, rules.contracts[0], rules, 3)
    True
    """
    if not isinstance(cards, int) or isinstance(cards, bool) or cards < 0:
        raise ArgumentError(f"cards must be an integer >= 0, got {cards!r}")
    solver = _solver(rules)
    sets, runs = contract.sets, contract.runs
    try:
        reduced = _Hand(hand, sets=sets > 0, runs=runs > 0)
    except (AttributeError, TypeError, IndexError):
        raise ArgumentTypeError(f"a hand is a collection of Card objects, got {hand!r}") from None
    if runs:
        _check_copies(reduced)
    else:  # (copies are counted only for runs)
        _check_distinct(reduced.cards)
    if cards == 0:
        return _solve(solver, reduced, sets, runs) is not None
    # Past 0 the search is exact, and a hand holding the contract costs it 0: no need
    # to ask _solve first.
    search = _Distance(solver, reduced, sets, runs, cards + 1, cards)
    search.search(list(reduced.cnt), list(reduced.tot), 0, 0, runs, 0, [])
    return search.best <= cards


def _unlimited_distance(solver: _Solver, hand: _Hand, contract: Contract) -> int:
    if _solve(solver, hand, contract.sets, contract.runs) is not None:
        return 0
    # Past 0 the search is exact; found 1 (or a relaxed 0), nothing is left to find.
    best = contract.sets * solver.set_full + contract.runs * solver.run_full
    search = _Distance(solver, hand, contract.sets, contract.runs, best, 1)
    search.search(list(hand.cnt), list(hand.tot), 0, 0, contract.runs, 0, [])
    return max(search.best, 1)


def _cheapest_additions(
    solver: _Solver, hand: _Hand, contract: Contract, decks: int | None, lower: int
) -> tuple[int, ...]:
    """A* over the cards added, one at a time, within ``decks`` copies of each card (no
    limit for None): the indices of the fewest natural cards that make the contract.

    The distance without a copy limit is a consistent lower bound (one card brings a
    hand at most one card closer), so the first hand popped that holds the contract is
    one with the fewest cards added. Of the hands as close, the one with the most cards
    added is popped first (any order among equals keeps the result optimal): without a
    limit the bound is exact, and the search walks straight down one cheapest path.
    """
    cards = hand.cards
    counts = hand.cnt
    # Added cards get deck indices no card of the hand has, so that none is held twice.
    base = 1 + max((card.deck for card in cards), default=0)
    frontier = [(lower, 0, ())]
    seen = {()}
    while frontier:
        _, _, added = heapq.heappop(frontier)
        added_count = len(added)
        extra = [Card(_NATURALS[i].rank, _NATURALS[i].suit, base + n) for n, i in enumerate(added)]
        if _solve(solver, _Hand(cards + extra), contract.sets, contract.runs) is not None:
            return added
        for i in range(52):
            if decks is not None and counts[i] + added.count(i) >= decks:
                continue
            grown = tuple(sorted((*added, i)))
            if grown in seen:
                continue
            seen.add(grown)
            more = extra + [Card(_NATURALS[i].rank, _NATURALS[i].suit, base + len(extra))]
            bound = _unlimited_distance(solver, _Hand(cards + more), contract)
            heapq.heappush(frontier, (added_count + 1 + bound, -added_count - 1, grown))
    raise ArgumentError(f"no cards from {decks} deck(s) can make the contract {contract} here")


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
    groups = [list(group) for group in groups]
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
            return (_make_set(meld.cards + (card,), meld.rank),)
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
        options.append(_make_run((card, *meld.cards), meld.suit, low))
    if (
        high <= highest
        and not (high == 14 and meld.start == 1)
        and (card.is_joker or (card.suit == meld.suit and position_rank(high) == card.rank))
    ):
        options.append(_make_run((*meld.cards, card), meld.suit, meld.start))
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
        return _make_set(cards, meld.rank), joker
    for joker, stands in jokers.items():
        if stands.rank == card.rank and stands.suit == card.suit:
            cards = tuple(card if c is joker else c for c in meld.cards)
            return _make_run(cards, meld.suit, meld.start), joker
    wanted = " or the ".join(str(s) for s in jokers.values())
    raise IllegalMeldError(f"the joker stands for the {wanted}, not the {card}")
