"""Reading the opponents (rummykit.agents.reading): the model holds of the bots' own play,
its reading is exact against enumeration on a one-deck shoe, and its sampler draws
uniformly among the deals that agree.

The oracle: a one-deck, jokerless shoe (each card one physical card), GreedyBots playing
part of a round, one seat's view. A few hidden cards (some in opponents' hands, some in
the stock) are placed in every way the view allows (the sub-problem of
:meth:`~rummykit.agents.determinize.HiddenCards.restrict`, every other card where it is);
each placement either lets an opponent read by the model lay down at the start of its
last play (it disagrees) or not. The reading sampler's placements must match the uniform
distribution over those that agree, and a sampler that does not read (uniform over all)
must fail the same test.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, OutsBot
from rummykit.agents.determinize import determinize, hidden_cards
from rummykit.agents.reading import (
    ATTEMPTS,
    READS,
    ReadingSampler,
    brings_closer,
    distance_counter,
    first_agreeing,
    gibbs_sweeps,
    reading,
)
from rummykit.agents.rollouts import best_rollout
from rummykit.agents.weigh import LIMITS, paired_outcomes
from rummykit.engine.actions import Discard, LayDown
from rummykit.engine.game import Game
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import contract_distance
from rummykit.errors import ArgumentError, ArgumentTypeError
from tests.support.sampling import ONE_DECK, fits_exact


def _play(rules, players: int, seed: int, steps: int, bots) -> Game:
    state = Game(rules, players=players, seed=seed, turn_limit=60).new_state(round=1 + seed % 3)
    for _ in range(steps):
        if state.round_scores:
            break
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("name", ["standard", "pagat", "family"])
def test_the_true_deal_agrees_with_the_reading_of_the_bots_play(name):
    """At every moment of rounds played by GreedyBot, BuyerBot and OutsBot, every seat's
    reading agrees with the true hands (the model is the bots' own) where the seat read
    buys by the model's policy ("improves"; "always" never passes); it reads some seat at
    most moments, and a seat that never buys is sometimes read wrong (the buy check can
    fail)."""
    checks = views = misread = 0
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        bots = [GreedyBot(), BuyerBot("always"), OutsBot(), BuyerBot("never"), GreedyBot()][
            :players
        ]
        state = Game(name, players=players, seed=seed, turn_limit=40).new_state(round=1 + seed)
        while not state.round_scores:
            for seat in range(players):
                view = state.view(seat)
                read = reading(view)
                for check in read.checks:
                    one = dataclasses.replace(read, checks=(check,))
                    agrees = one.agrees(state.hands)
                    if bots[check.seat].buy == "never":
                        misread += not agrees
                    else:
                        assert agrees, (name, players, seed, seat, check)
                draws = reading(view, reads=("draws",))
                assert draws.agrees(state.hands), (name, players, seed, seat, read.checks)
                checks += len(read.checks)
                views += 1
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert checks > views / 2
    assert misread > 0 or name != "pagat"


@pytest.mark.slow
def test_the_true_deal_agrees_with_a_reading_of_three_turns():
    """Read three turns back (each draw's card unknown, every possible one weighed), the
    true deal is possible at every moment of rounds of GreedyBot, OutsBot and
    BuyerBot("always"), and earlier turns are read at some."""
    deeper = 0
    for players, seed in ((3, 1), (4, 2)):
        bots = [GreedyBot(), OutsBot(), BuyerBot("always"), GreedyBot()][:players]
        state = Game("standard", players=players, seed=seed, turn_limit=40).new_state(round=3)
        while not state.round_scores:
            read = reading(state.view(state.to_act), turns=3)
            assert read.agrees(state.hands), (players, seed, read.checks)
            deeper += sum(len(check.earlier) for check in read.checks)
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert deeper > 20


@pytest.mark.slow
def test_reading_more_never_makes_a_deal_likelier():
    """Each choice read is one more factor of at most 1: on plain deals of seeded views,
    reading buys as well as draws, and two turns as well as one, gives each deal at most
    the likelihood it had, and less for some."""
    less = 0
    for seed in range(3):
        state = _play("standard", 4, seed, 30 + 6 * seed, [GreedyBot()] * 4)
        view = state.view(state.to_act)
        ways = [reading(view, reads=("draws",)), reading(view), reading(view, turns=2)]
        for sample in range(15):
            hands = determinize(view, sample).hands
            chances = [way.likelihood(hands) for way in ways]
            assert chances[0] >= chances[1] >= chances[2]
            less += chances[0] > chances[2]
    assert less > 0


class Waiter(GreedyBot):
    """A GreedyBot that never lays down (it discards instead): a player the model does
    not describe."""

    def choose(self, view):
        actions = view.legal_actions()
        if any(isinstance(a, LayDown) for a in actions):
            return next(a for a in actions if isinstance(a, Discard))
        return super().choose(view)


def test_a_player_who_waits_to_lay_down_is_read_wrong():
    """The reading can fail: against a player that holds its contract and does not lay
    down, the true deal disagrees with the reading of its opponents' views."""
    disagreed = 0
    for seed in range(6):
        state = Game("standard", players=3, seed=seed, turn_limit=40).new_state()
        bots = [Waiter(), GreedyBot(), GreedyBot()]
        while not state.round_scores:
            disagreed += not reading(state.view(1)).agrees(state.hands)
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert disagreed > 0


def test_with_a_slip_a_player_who_waits_is_weighed_down_not_ruled_out():
    """A person may not play by the model: with ``slip`` a Waiter's true deal is always
    possible, and where the strict reading rules it out it weighs less than a deal that
    agrees with every choice read; the strict likelihood is the slip's at 0."""
    weighed_down = 0
    for seed in range(6):
        state = Game("standard", players=3, seed=seed, turn_limit=40).new_state()
        bots = [Waiter(), GreedyBot(), GreedyBot()]
        while not state.round_scores:
            view = state.view(1)
            soft = reading(view, slip=0.2)
            assert soft.likelihood(state.hands) > 0
            if not reading(view).agrees(state.hands):
                assert soft.likelihood(state.hands) < soft.most
                weighed_down += 1
            assert reading(view, slip=0).likelihood(state.hands) == reading(view).likelihood(
                state.hands
            )
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert weighed_down > 0


def test_a_seat_is_read_only_when_its_last_turn_is_seen_whole():
    """Who is read: each opponent not laid down that has discarded this round, has taken
    or bought nothing since, and is not in the middle of its turn; a seat is never read
    by itself."""
    for seed in range(8):
        state = _play("standard", 4, seed, 10 + 7 * seed, [GreedyBot(), BuyerBot("always")] * 2)
        for seat in range(4):
            view = state.view(seat)
            read = {check.seat: check for check in reading(view).checks}
            moves = view.pile_moves
            for other in range(4):
                discards = [
                    n for n, m in enumerate(moves) if m.kind == "discard" and m.seat == other
                ]
                since = moves[discards[-1] + 1 :] if discards else ()
                expected = (
                    other != seat
                    and not view.laid_down[other]
                    and bool(discards)
                    and not any(m.seat == other and m.kind in ("take", "buy") for m in since)
                    and not (view.current == other and view.phase != "draw")
                )
                assert (other in read) == expected
                if expected:
                    assert read[other].discard == moves[discards[-1]].card
                    before = moves[discards[-1] - 1]
                    took = before.kind == "take" and before.seat == other
                    assert read[other].taken == (before.card if took else None)


@pytest.mark.slow
@pytest.mark.parametrize("priority", ["nearest", "first_call"])
def test_the_passes_read_are_the_passes_logged(priority):
    """Each turn's ``passed`` cards are the cards its seat passed on buying after that
    turn's discard (until its next turn, or now), as the game's log has them (the "pass
    buy" events, each with the card then on offer), for every turn read: all of them under
    ``nearest`` priority (standard's), those of windows nobody bought under
    ``first_call``."""
    rules = dataclasses.replace(RuleSet.preset("standard"), name=priority, buy_priority=priority)
    read_some = earlier = 0
    for seed in range(6):
        state = Game(rules, players=4, seed=seed, turn_limit=60).new_state(round=1 + seed % 7)
        bots = [GreedyBot() for _ in range(4)]
        while (
            not state.round_scores
            and len(state.stock) >= rules.buy_penalty_cards
            and not any(move.kind == "reshuffle" for move in state.view(0).pile_moves)
        ):
            passes = _logged_passes(state)
            for seat in range(4):
                for check in reading(state.view(seat), turns=None).checks:
                    logged = passes[check.seat][::-1][: len(check.turns)]
                    discards = [m.card for m in state.view(seat).pile_moves
                                if m.kind == "discard" and m.seat == check.seat]  # fmt: skip
                    assert [turn.discard for turn in check.turns] == discards[::-1][: len(logged)]
                    for number, (turn, cards) in enumerate(zip(check.turns, logged, strict=True)):
                        if priority == "nearest":
                            assert list(turn.passed) == cards, (seed, seat, check)
                        else:
                            assert _is_subsequence(turn.passed, cards), (seed, seat, check)
                        read_some += bool(turn.passed)
                        earlier += bool(turn.passed) and number > 0
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert read_some > 20 and earlier > 10


def _logged_passes(state) -> dict[int, list[list]]:
    """Per seat, per turn of this round (the oldest first), the cards it passed on buying
    after that turn's discard, from the log."""
    passes: dict[int, list[list]] = {seat: [] for seat in range(state.players)}
    offer = None
    start = max(n for n, event in enumerate(state.log) if event.kind == "deal")
    for event in state.log[start:]:
        if event.kind in ("discard", "upcard"):
            offer = event.cards[0]
            if event.kind == "discard":
                passes[event.seat].append([])
        elif event.kind == "pass buy" and passes[event.seat]:
            passes[event.seat][-1].append(offer)
    return passes


def _is_subsequence(some, every) -> bool:
    rest = iter(every)
    return all(any(card == other for other in rest) for card in some)


def test_no_buys_are_read_where_the_window_opens_before_the_draw():
    """family's buy window opens before the draw, which the reading does not follow: no
    pass is read there (draws still are)."""
    assert RuleSet.preset("family").buy_timing == "before_draw"
    read = 0
    for seed in range(4):
        state = _play("family", 4, seed, 40, [GreedyBot()] * 4)
        for seat in range(4):
            checks = reading(state.view(seat)).checks
            assert all(check.passed == () for check in checks)
            read += len(checks)
    assert read > 0


def test_no_reading_where_a_seat_may_swap_before_laying_down():
    rules = dataclasses.replace(
        RuleSet.preset("standard"), name="swaps first", joker_swap_needs_laid_down=False
    )
    state = _play(rules, 4, 3, 40, [GreedyBot()] * 4)
    assert reading(state.view(0)).checks == ()
    assert reading(_play("standard", 4, 3, 40, [GreedyBot()] * 4).view(0)).checks


# --------------------------------------------------------------------------------------
# The oracle


def _case(seed: int, count: int = 5, slip=0):
    """A one-deck round played by GreedyBots, a seat's view that reads some opponent, and
    ``count`` hidden cards whose placements the view allows: some agree with the reading
    and some do not. None if this seed gives no such case."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    state = _play(ONE_DECK, players, seed, rng.randrange(8, 30), [GreedyBot()] * players)
    if state.round_scores:
        return None
    seat = state.to_act
    view = state.view(seat)
    read = reading(view, slip=slip)
    if not read.checks:
        return None
    hidden = hidden_cards(view)
    opponent = read.checks[0].seat
    theirs = [c for c in state.hands[opponent] if c in hidden.pool]
    in_stock = [c for c in hidden.pool if c in state.stock]
    rng.shuffle(theirs)
    rng.shuffle(in_stock)
    cards = theirs[:3] + in_stock[: count - 3]
    sub = hidden.restrict(state.hands, state.stock, cards)
    places = sorted(state.stock.index(c) for c in cards if c in state.stock)
    return state, view, read, sub, places, cards


def _deal(state, sub, places, cards, hands, stock):
    """The whole deal with ``cards`` placed as a sample of ``sub`` says (``hands`` per
    seat, ``stock`` in the order of ``places``), every other card where it is; and the
    placement: where each of ``cards`` went."""
    whole = [
        [c for c in hand if c not in cards] + list(hands[s]) for s, hand in enumerate(state.hands)
    ]
    where = {card: ("hand", s) for s, hand in enumerate(hands) for card in hand}
    where.update({card: ("stock", place) for card, place in zip(stock, places, strict=True)})
    return whole, tuple(where[card] for card in cards)


def _exact(state, read, sub, places, cards):
    """Every placement the view allows, with its likelihood under the reading."""
    targets = [("hand", s) for s, n in enumerate(sub.slots) for _ in range(n)]
    targets += [("stock", p) for p in places]
    found = {}
    for order in itertools.permutations(cards):
        place = dict(zip(order, targets, strict=True))
        stock = [c for c in order if place[c][0] == "stock"]
        if not all(c in sub.stock_pool for c in stock):
            continue
        hands = [[c for c in order if place[c] == ("hand", s)] for s in range(len(sub.slots))]
        stock.sort(key=lambda c: place[c][1])
        whole, placement = _deal(state, sub, places, cards, hands, stock)
        found[placement] = read.likelihood(whole)
    return found


def _cases(wanted: int, slip=0):
    out = []
    for seed in range(400):
        case = _case(seed, slip=slip)
        if case is None:
            continue
        found = _exact(case[0], case[2], case[3], case[4], case[5])
        most = case[2].most
        share = sum(found.values()) / len(found) / most
        if 0.1 <= share <= 0.9 and any(0 < chance < most for chance in found.values()):
            out.append((case, found))
            if len(out) == wanted:
                break
    return out


@pytest.mark.slow
@pytest.mark.parametrize("slip", [0, Fraction(1, 4)])
def test_the_reading_sampler_matches_the_exact_distribution_and_a_plain_one_fails(slip):
    cases = _cases(3, slip)
    assert len(cases) == 3  # enough cases in which the reading rules out some placements
    # (or, with a slip, weighs them down), one of them reading a pass on a buy
    assert any(check.passed for case, _ in cases for check in case[2].checks)
    for case, found in cases:
        total = sum(found.values())
        exact = {placement: float(chance / total) for placement, chance in found.items() if chance}
        read_sampler, plain = _samplers(*case, found)
        assert fits_exact(read_sampler, exact, 6_000, random.Random(1))
        assert not fits_exact(plain, exact, 6_000, random.Random(1))


def _samplers(state, view, read, sub, places, cards, found):
    """The case's placements drawn by the reading sampler's rule (uniform draws, each kept
    with its likelihood, ``found``'s: the first kept of up to 400) and by a plain uniform
    draw."""

    def draw(rng):
        hands, stock = sub.sample(rng)
        return _deal(state, sub, places, cards, hands, stock)

    def read_sampler(rng):
        most = read.most
        (_, placement), found_one = first_agreeing(
            lambda: draw(rng), lambda drawn: rng.random() < found[drawn[1]] / most, 400
        )
        assert found_one
        return placement

    def plain(rng):
        return draw(rng)[1]

    return read_sampler, plain


def _two_seat_case(seed: int, turns):
    """Like :func:`_case`, with two cards of each of two opponents read and two of the
    stock moving: a case for the Gibbs sweeps, whose blocks are one read seat each."""
    rng = random.Random(seed)
    players = 3 + seed % 2
    state = _play(ONE_DECK, players, seed, rng.randrange(12, 30), [GreedyBot()] * players)
    if state.round_scores:
        return None
    seat = state.to_act
    view = state.view(seat)
    read = reading(view, turns=turns)
    if len(read.checks) < 2:
        return None
    hidden = hidden_cards(view)
    cards = []
    for check in read.checks[:2]:
        theirs = [c for c in state.hands[check.seat] if c in hidden.pool]
        rng.shuffle(theirs)
        cards += theirs[:2]
    in_stock = [c for c in hidden.pool if c in state.stock]
    rng.shuffle(in_stock)
    cards += in_stock[:2]
    sub = hidden.restrict(state.hands, state.stock, cards)
    places = sorted(state.stock.index(c) for c in cards if c in state.stock)
    return state, view, read, sub, places, cards


def _gibbs_sampler(case, sweeps: int):
    """The case's placements drawn uniformly, then ``sweeps`` of :func:`gibbs_sweeps`."""
    state, view, read, sub, places, cards = case
    checks = {check.seat: check for check in read.checks}
    moving = set(cards)

    def draw(rng):
        def keep(seat, mine):
            hand = [c for c in state.hands[seat] if c not in moving] + list(mine)
            return read.keeps_seat(checks[seat], hand, rng)

        unknown, stock = sub.sample(rng)
        unknown, stock, _ = gibbs_sweeps(sub, unknown, stock, keep, list(checks), sweeps, 400, rng)
        return _deal(state, sub, places, cards, unknown, stock)[1]

    return draw


@pytest.mark.slow
@pytest.mark.parametrize("turns", [1, 2])
def test_gibbs_sweeps_reach_the_exact_distribution(turns):
    """:func:`gibbs_sweeps` on cases with two opponents read (two cards of each and two
    of the stock moving, every other card where it is): from a uniform placement, three
    sweeps of steps kept by :meth:`Reading.keeps_seat` give the placements of the exact
    weighted distribution (chi-square at 0.1%); no sweep (the uniform start) does not."""
    tested = 0
    for seed in range(300):
        case = _two_seat_case(seed, turns)
        if case is None:
            continue
        state, view, read, sub, places, cards = case
        found = _exact(state, read, sub, places, cards)
        total = sum(found.values())
        if not 0.05 <= total / len(found) <= 0.7:
            continue
        exact = {placement: float(chance / total) for placement, chance in found.items() if chance}
        assert fits_exact(_gibbs_sampler(case, 3), exact, 4_000, random.Random(2))
        assert not fits_exact(_gibbs_sampler(case, 0), exact, 4_000, random.Random(2))
        tested += 1
        if tested == 2:
            break
    assert tested == 2


# --------------------------------------------------------------------------------------
# The sampler


def test_the_sampler_keeps_the_view_and_agrees_or_says_it_fell_back():
    state = _play("standard", 4, 1, 20, [GreedyBot()] * 4)
    view = state.view(state.to_act)
    sampler = ReadingSampler(view, max_reshuffles=2)
    assert sampler.reading.checks
    for seed in range(30):
        sample = sampler(seed)
        assert sample.view(view.seat) == view
        assert sampler.reading.agrees(sample.hands)
    assert (sampler.drawn, sampler.fell_back) == (30, 0)
    assert repr(sampler).endswith("opponents read, 30 drawn, 0 fell back)")
    assert sampler(7).snapshot() == ReadingSampler(view, max_reshuffles=2)(7).snapshot()


def test_sweeps_take_the_place_of_most_fallbacks_and_their_deals_agree():
    """Where whole deals are seldom kept (two turns read, two attempts), Gibbs sweeps
    after the attempts fail leave fewer fallbacks, every deal not a fallback agrees
    with the reading, and the view is kept."""
    state = _play("standard", 4, 2, 30, [GreedyBot()] * 4)
    view = state.view(state.to_act)
    plain = ReadingSampler(view, turns=2, attempts=2, max_reshuffles=2)
    swept = ReadingSampler(view, turns=2, attempts=2, sweeps=2, max_reshuffles=2)
    for seed in range(40):
        plain(seed)
        sample = swept(seed)
        assert sample.view(view.seat) == view
        before = swept.fell_back
        assert swept.reading.agrees(sample.hands) or swept.fell_back == before
    assert plain.fell_back >= 10
    assert swept.fell_back < plain.fell_back / 2
    with pytest.raises(ArgumentError, match="sweeps"):
        ReadingSampler(view, sweeps=-1)
    with pytest.raises(ArgumentError, match="turns"):
        reading(view, turns=0)


class Unmet:
    """A reading no deal meets: the sampler must fall back."""

    checks = ("a check",)

    @staticmethod
    def keeps(hands, rng) -> bool:
        return False


def test_the_sampler_falls_back_to_a_plain_sample_when_none_agrees():
    """When no deal of ``attempts`` agrees, the sampler returns the last one drawn (a
    plain determinization from the same seeds) and counts a fallback."""
    state = _play("standard", 4, 1, 20, [GreedyBot()] * 4)
    view = state.view(state.to_act)
    sampler = ReadingSampler(view, attempts=3)
    sampler.reading = Unmet()
    sample = sampler(5)
    assert (sampler.drawn, sampler.fell_back) == (1, 1)
    rng = random.Random("reading 5")
    for _ in range(2):
        plain = determinize(view, rng.getrandbits(63), hidden=sampler.hidden)
    assert sample.snapshot() == plain.snapshot()


def test_where_the_plain_deal_is_kept_the_sampler_returns_it():
    """The first deal drawn is ``determinize(view, seed)``'s: a search that reads plays on
    the deals of one that does not wherever the reading keeps them (always, at a
    likelihood of 1; never at 0)."""
    state = _play("standard", 4, 2, 14, [GreedyBot()] * 4)
    view = state.view(state.to_act)
    sampler = ReadingSampler(view)
    assert sampler.reading.checks
    chances = Counter()
    for seed in range(80):
        plain = determinize(view, seed, hidden=sampler.hidden)
        sample = sampler(seed)
        chance = sampler.reading.likelihood(plain.hands)
        chances[chance == 1, chance == 0] += 1
        if chance == 1:
            assert sample.snapshot() == plain.snapshot()
        elif chance == 0:
            assert sample.snapshot() != plain.snapshot()
    assert chances[True, False] and chances[False, True]


@pytest.mark.slow
@pytest.mark.parametrize(("slip", "turns"), [(0, 1), (Fraction(1, 4), 1), (0, 3)])
def test_a_deal_is_kept_as_often_as_its_likelihood_says(slip, turns):
    """:meth:`Reading.keeps` (one card drawn standing for all) keeps each deal with the
    chance :meth:`Reading.likelihood` over :attr:`Reading.most` computes exactly: over
    2,000 tries of deals whose chance lies strictly between 0 and 1, the share kept lies
    within 4 standard errors of it; a deal of chance 0 is never kept, one of 1 always.
    With a slip no deal has chance 0, and the most is the chance of a deal that agrees
    with every choice read. Reading three turns back, one path of draws stands for all
    (their mean is the likelihood)."""
    state = _play("standard", 4, 2, 14 if turns == 1 else 52, [GreedyBot()] * 4)
    view = state.view(state.to_act)
    read = reading(view, slip=slip, turns=turns)
    assert read.checks and any(check.passed for check in read.checks)
    assert max(len(check.turns) for check in read.checks) == turns
    hidden = hidden_cards(view)
    seen = set()
    rng = random.Random(9)
    strict = reading(view, turns=turns)
    # (Three turns back, a plain deal with which every path of draws agrees is rare.)
    wanted = {0.5, 1} if slip else {0, 0.5, 1} if turns == 1 else {0, 0.5}
    for seed in range(200):
        hands = determinize(view, seed, hidden=hidden).hands
        chance = read.likelihood(hands) / read.most
        if strict.likelihood(hands) == 1:
            assert chance == 1
        kept = sum(read.keeps(hands, rng) for _ in range(2_000 if 0 < chance < 1 else 20))
        if chance in (0, 1):
            assert kept == (20 if chance == 1 else 0)
        else:
            p = float(chance)
            assert abs(kept / 2_000 - p) <= 4 * (p * (1 - p) / 2_000) ** 0.5
        seen.add(0 if chance == 0 else 1 if chance == 1 else 0.5)
        if seen == wanted and seed >= 20:
            break
    assert seen == wanted


def test_brings_closer_is_greedy_bots_own_reason_to_take():
    """:func:`brings_closer` against GreedyBot's own test of a card, on the discards and offers
    of seeded rounds."""
    compared = taken = 0
    for seed in range(6):
        state = Game("standard", players=3, seed=seed).new_state(round=1 + seed)
        bot = GreedyBot()
        while not state.round_scores:
            view = state.view(state.to_act)
            card = view.discard_top if view.phase == "draw" else view.offer
            if card is not None and not view.laid_down[view.seat]:
                mine = brings_closer(list(view.hand), card, view.contract, view.rules)
                assert mine == bot._improves(view, card)
                compared += 1
                taken += mine
            state.apply(bot.choose(view))
    assert compared > 100 and 0 < taken < compared


def test_the_discard_read_is_greedy_bots_own():
    """The reading's discard check against GreedyBot's own discards: at every discard of
    a GreedyBot not laid down in seeded rounds, the card it chose agrees and every other
    face it could have discarded does not."""
    from rummykit.agents.reading import LastTurn, Reading, Turn

    compared = 0
    for seed in range(5):
        state = Game("standard", players=3, seed=seed).new_state(round=1 + seed)
        bot = GreedyBot()
        while not state.round_scores:
            view = state.view(state.to_act)
            action = bot.choose(view)
            if isinstance(action, Discard) and not view.laid_down[view.seat]:
                read = Reading(view.rules, 3, view.is_last_round, (), reads=READS)
                check = LastTurn(view.seat, action.card, view.taken, view.contract)
                faces = {card.index: card for card in view.hand if card != view.taken}
                for card in faces.values():
                    turn = Turn(card, view.taken)
                    agrees = read._discarded(check, list(view.hand), turn)
                    assert agrees == (card.index == action.card.index), (seed, card, action)
                compared += 1
            state.apply(action)
    assert compared > 60


def test_discards_read_rule_out_the_deals_a_greedy_bot_would_not_have_discarded_from():
    """With discards read, the true deal of GreedyBots' rounds agrees at every moment; an
    OutsBot's (which discards by outs) is sometimes read wrong; discards are not read
    with a slip, nor where discards may be called."""
    misread = 0
    for seed in range(3):
        bots = [GreedyBot(), OutsBot(), GreedyBot(), BuyerBot("always")]
        state = Game("standard", players=4, seed=seed, turn_limit=40).new_state(round=2 + seed)
        while not state.round_scores:
            read = reading(state.view(0), reads=READS)
            for check in read.checks:
                agrees = dataclasses.replace(read, checks=(check,)).agrees(state.hands)
                if isinstance(bots[check.seat], OutsBot):
                    misread += not agrees
                else:
                    assert agrees, (seed, check)
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert misread > 0
    view = Game(seed=1).new_state().view(0)
    with pytest.raises(ArgumentError, match="slip"):
        reading(view, reads=READS, slip=0.1)
    rummy = Game("wikipedia", seed=1).new_state().view(0)
    assert rummy.rules.discard_call != "none"
    assert "discards" not in reading(rummy, reads=READS).reads


def test_bad_input_is_refused_by_field():
    state = Game("standard", players=3, seed=1).new_state()
    view = state.view(0)
    with pytest.raises(ArgumentTypeError, match="view"):
        reading("a view")
    with pytest.raises(ArgumentError, match="attempts"):
        ReadingSampler(view, attempts=0)
    with pytest.raises(ArgumentTypeError, match="seed"):
        ReadingSampler(view)("1")
    with pytest.raises(ArgumentError, match="hands"):
        reading(view).agrees([[], []])
    with pytest.raises(ArgumentError, match="attempts"):
        first_agreeing(lambda: 1, bool, 0)
    assert ATTEMPTS >= 1


def test_paired_outcomes_draw_their_deals_from_the_sampler():
    """A weighing given a ReadingSampler plays every candidate on deals that agree with
    the reading; without one it draws determinize's deals from the same seeds."""
    state = _play("standard", 4, 1, 20, [GreedyBot()] * 4)
    view = state.view(state.to_act)
    actions = view.legal_actions()
    bots = [GreedyBot() for _ in range(4)]
    samples = []

    def branch(sample, action):
        samples.append(sample)
        played = sample.clone()
        played.apply(action)
        return played

    sampler = ReadingSampler(view, **LIMITS)
    weighed = paired_outcomes(
        view, actions, rng=random.Random(3), play=best_rollout, bots=bots, branch=branch,
        sampler=sampler,
    )  # fmt: skip
    list(itertools.islice(weighed, 20))
    assert sampler.drawn == 20 and len(samples) == 20 * len(actions)
    assert all(sampler.reading.agrees(sample.hands) for sample in samples)
    hidden = hidden_cards(view)

    def plain(seed):
        return determinize(view, seed, hidden=hidden, **LIMITS)

    def first(**options):
        weighed = paired_outcomes(
            view, actions, rng=random.Random(3), play=best_rollout, bots=bots, **options
        )
        return list(itertools.islice(weighed, 6))

    assert first() == first(sampler=plain)


@pytest.mark.slow
def test_a_distance_counter_is_contract_distance():
    """distance_counter (the core handed each hand's copies directly, checked once) gives
    contract_distance's value on random hands of every contract of every preset and of
    other meld rules; a contract past the core's sizes, and every hand without the core,
    count through contract_distance."""
    from tests.test_search_fast import RULES, random_hands

    rng = random.Random(52)
    for rules in RULES.values():
        for contract in rules.contracts:
            counter = distance_counter(contract, rules)
            for hand in random_hands(rng, 2, 12):
                assert counter(hand) == contract_distance(hand, contract, rules), (
                    rules.name,
                    contract,
                    sorted(hand),
                )
    standard = RuleSet.preset("standard")
    many = Contract(sets=9, runs=0)
    hand = random_hands(rng, 2, 1, most=12)[0]
    assert distance_counter(many, standard)(hand) == contract_distance(hand, many, standard)
    with pytest.raises(ArgumentTypeError, match="contract"):
        distance_counter("2 sets", standard)


def test_without_the_core_a_distance_counter_is_contract_distance(monkeypatch):
    from rummykit import _native

    monkeypatch.setattr(_native, "distance", None)
    rules = RuleSet.preset("standard")
    hand = [card for card in Game(rules, players=2, seed=4).new_state().hands[0]]
    counter = distance_counter(rules.contracts[2], rules)
    assert counter(hand) == contract_distance(hand, rules.contracts[2], rules)
