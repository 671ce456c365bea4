"""Issue 48 item 5: a seat's accuracy beside the bots' on the same deals
(rummykit.evaluate.beside), and the mistakes grouped by decision type (rummykit.evaluate.reviews)."""

from __future__ import annotations

import math

import pytest

from rummykit.agents.bots import BuyerBot, GreedyBot, RandomBot
from rummykit.engine.actions import parse_action
from rummykit.engine.game import Game, GameState
from rummykit.errors import ArgumentError, ArgumentTypeError, RummyError
from rummykit.evaluate.beside import BOT_NAMES, DEFAULT_BOTS, SEARCH_BUDGET, beside_bots, make_bot
from rummykit.evaluate.estimate import Estimate
from rummykit.evaluate.reviews import (
    CLASSES,
    DECISION_TYPES,
    Alternative,
    Review,
    Verdict,
    decision_type,
    mistakes_by_type,
    review,
)

BUDGET = 2  # samples a decision: the replays are what is tested, not the verdicts' power


def _played(bots, *, rounds: int = 2, players: int = 3, seed: int = 4) -> GameState:
    """``rounds`` rounds of a short-round game (a turn limit of 12) played by ``bots``."""
    state = Game("standard", players=players, seed=seed, turn_limit=12).new_state()
    while len(state.round_scores) < rounds:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


@pytest.fixture(scope="module")
def by_random():
    """Seat 0 played at random (a learner's mistakes), two rounds, GreedyBots beside."""
    return _played([RandomBot(seed=1), GreedyBot(), GreedyBot()])


@pytest.fixture(scope="module")
def by_greedy():
    return _played([GreedyBot(), GreedyBot(), GreedyBot()])


def _dealt(state: GameState, seat: int, number: int) -> list[int]:
    """The cards ``seat`` was dealt in round ``number`` of ``state`` (by index, sorted)."""
    replay = GameState(state.game, state.setup)
    for _, action in state.history:
        if replay.round == number:
            break
        replay.apply(action)
    return sorted(card.index for card in replay.hands[seat])


def _first(verdicts, number: int) -> Verdict:
    return next(v for v in verdicts if v.round == number)


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval (95%), written out apart from rummykit.chance."""
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


# -- accuracy beside the bots -------------------------------------------------------------


@pytest.mark.slow
def test_each_bot_plays_each_round_from_the_games_deal(by_random):
    result = beside_bots(
        by_random, 0, bots=["RandomBot", "SearchBot"], budget=BUDGET, search_budget=4
    )
    assert result.rounds == (1, 2)
    mine = result.players[0].review.verdicts
    for row in result.players[1:]:
        assert {v.round for v in row.review.verdicts} == {1, 2}
        for number in result.rounds:
            theirs = _first(row.review.verdicts, number)
            # The same hand as dealt in the game, in the same position as the seat's first
            # decision of the round (the other seats replayed the game's moves till then).
            assert sorted(c.index for c in theirs.view.hand) == _dealt(by_random, 0, number)
            assert theirs.number == _first(mine, number).number
            assert theirs.view == _first(mine, number).view


def test_each_accuracy_is_a_share_with_its_wilson_interval(by_random):
    bots = ["RandomBot", "SearchBot"]
    result = beside_bots(by_random, 0, bots=bots, budget=BUDGET, search_budget=4, round=2)
    assert [p.player for p in result.players] == ["Ann", *bots]
    assert [p.bot for p in result.players] == [False, True, True]
    for row in result.players:
        good = sum(v.kind in ("best", "good") for v in row.review.verdicts)
        accuracy = row.accuracy
        assert row.decisions == len(row.review.verdicts) == accuracy.n > 0
        assert 0 <= accuracy.low <= accuracy.mean <= accuracy.high <= 1
        assert accuracy.mean == good / row.decisions
        low, high = _wilson(good, row.decisions)
        assert accuracy.low == pytest.approx(low) and accuracy.high == pytest.approx(high)
    # The seat's own row is the plain review.
    plain = review(by_random, 0, budget=BUDGET, round=2)
    assert result.players[0].review == plain
    assert result.players[0].accuracy.mean == plain.accuracy
    # Long form, and in words.
    rows = result.rows()
    assert [r["player"] for r in rows] == ["Ann", *bots]
    assert set(rows[0]) == {
        "player", "bot", "decisions", "accuracy", "accuracy_low", "accuracy_high", "total_loss"
    }  # fmt: skip
    text = str(result)
    assert text.startswith("Accuracy beside the bots: Ann (seat 0)")
    assert "not the same positions" in text and "independent" in text
    assert all(f"{name} " in text for name in bots)
    assert "<table>" in result._repr_html_()


@pytest.mark.slow
def test_the_default_bots_are_greedybot_outsbot_and_searchbot(by_random):
    result = beside_bots(by_random, 0, budget=BUDGET, round=1)
    assert DEFAULT_BOTS == ("GreedyBot", "OutsBot", "SearchBot")
    assert [p.player for p in result.players] == ["Ann", *DEFAULT_BOTS]
    assert result.search_budget == SEARCH_BUDGET == 64
    for row in result.players:
        assert 0 <= row.accuracy.low <= row.accuracy.mean <= row.accuracy.high <= 1


def test_greedybot_beside_itself_gives_the_plain_reviews_verdicts(by_greedy):
    # GreedyBot in the seat chooses as the game's GreedyBot did at every decision, so the
    # replayed rounds are the game's, action for action, and so are the verdicts (each
    # decision's samples are drawn from the seed and its place in the history).
    plain = review(by_greedy, 0, budget=BUDGET, seed=3)
    result = beside_bots(by_greedy, 0, bots=["GreedyBot"], budget=BUDGET, seed=3)
    greedy = result.player("GreedyBot").review
    assert len(plain.verdicts) > 10
    assert [v.to_dict() for v in greedy.verdicts] == [v.to_dict() for v in plain.verdicts]
    assert greedy.verdicts == plain.verdicts and greedy.results == plain.results
    assert result.player("GreedyBot").accuracy == result.player("Ann").accuracy


def test_greedybot_beside_itself_holds_whoever_played_the_other_seats():
    # The other seats replay the game's moves for as long as the bot chooses as the seat
    # did: GreedyBot never chooses otherwise here, so RandomBots' moves are replayed to the
    # round's end, and others="OutsBot" never plays.
    state = _played([GreedyBot(), RandomBot(seed=5), RandomBot(seed=6)], rounds=1)
    plain = review(state, 0, budget=BUDGET)
    result = beside_bots(state, 0, bots=["GreedyBot"], others="OutsBot", budget=BUDGET)
    assert result.player("GreedyBot").review.verdicts == plain.verdicts
    assert result.others == "OutsBot"


@pytest.mark.slow
def test_another_bot_shares_the_verdicts_until_its_first_other_choice(by_greedy):
    # What holds for a bot that plays otherwise: up to its first choice other than the
    # seat's, the round is the game's and so are the verdicts; that choice is made in the
    # seat's own position; after it the round is the bot's own.
    # (A GreedyBot that buys every card offered: it differs at the first buy GreedyBot passed.)
    plain = review(by_greedy, 0, budget=BUDGET)
    always = {"buyer": lambda seed: BuyerBot("always", seed=seed)}
    result = beside_bots(by_greedy, 0, bots=always, budget=BUDGET)
    buyer = result.player("buyer").review.verdicts
    splits = []
    for number in (1, 2):
        mine = [v for v in plain.verdicts if v.round == number]
        theirs = [v for v in buyer if v.round == number]
        split = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a.played != b.played),
            None,
        )
        assert split is not None, "GreedyBot passed a buy in every round"
        assert theirs[:split] == mine[:split]
        assert theirs[split].view == mine[split].view and theirs[split].number == mine[split].number
        assert str(theirs[split].played) == "buy" and str(mine[split].played) == "pass"
        splits.append(split)
    assert max(splits) > 0  # verdicts shared before the split, not only the position


def test_the_replays_are_reproducible_and_seeded(by_random):
    options = {"bots": ["SearchBot"], "budget": BUDGET, "search_budget": 4, "seed": 1, "round": 1}
    one, two = beside_bots(by_random, 0, **options), beside_bots(by_random, 0, **options)
    assert one.to_dict() == two.to_dict()
    assert one.player("SearchBot").review.verdicts == two.player("SearchBot").review.verdicts


def test_others_may_be_given_seat_by_seat_as_names_or_factories(by_random):
    others = [None, "RandomBot", lambda seed: BuyerBot("never", seed=seed)]
    result = beside_bots(by_random, 0, bots=["GreedyBot"], others=others, budget=BUDGET, round=2)
    assert result.rounds == (2,) and result.others == "BuyerBot and RandomBot"
    assert {v.round for v in result.player("GreedyBot").review.verdicts} == {2}
    # Custom bots to set beside: a mapping of names to factories.
    custom = beside_bots(
        by_random, 0, bots={"cautious": lambda seed: GreedyBot(seed=seed, buy="never")},
        budget=BUDGET, round=1,
    )  # fmt: skip
    assert [p.player for p in custom.players] == ["Ann", "cautious"]


def test_a_round_in_progress_is_played_to_its_end_and_a_round_not_begun_is_left_out():
    state = Game("standard", players=3, seed=7, turn_limit=12).new_state()
    bots = [RandomBot(seed=2), GreedyBot(), GreedyBot()]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    # Round 2 is dealt and seat 0 has not acted in it: no round of its to set beside.
    assert beside_bots(state, 0, bots=["GreedyBot"], budget=1).rounds == (1,)
    while state.to_act != 0:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    state.apply(bots[0].choose(state.view(0)))  # seat 0 acts in round 2: a save mid-round
    assert len(state.round_scores) == 1 and state.round == 2
    result = beside_bots(state, 0, bots=["GreedyBot"], budget=1)
    assert result.rounds == (1, 2)
    # The bot's round 2 is played to its end (it has a result); the seat's is unfinished.
    assert [r for r, _ in result.player("GreedyBot").review.results] == [1, 2]
    assert [r for r, _ in result.player("Ann").review.results] == [1]


@pytest.mark.slow
def test_progress_counts_the_rounds_and_can_stop_the_work(by_greedy):
    calls = []
    beside_bots(
        by_greedy, 0, bots=["GreedyBot", "SearchBot"], budget=1, search_budget=1,
        progress=lambda done, total: calls.append((done, total)),
    )  # fmt: skip
    assert {total for _, total in calls} == {2 * 2 + 1}  # 2 bots x 2 rounds, and the seat's
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == 5 and len(calls) > 5

    class Stop(Exception):
        pass

    def stop(done: int, total: int) -> None:
        if done >= 2:
            raise Stop

    with pytest.raises(Stop):
        beside_bots(by_greedy, 0, bots=["GreedyBot", "SearchBot"], budget=1, progress=stop)


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"bots": ["NoBot"]}, ArgumentError, "bots must name bots of 'GreedyBot'"),
        ({"bots": []}, ArgumentError, "bots: give at least one bot"),
        ({"bots": ["OutsBot", "OutsBot"]}, ArgumentError, "bots must name each bot once"),
        ({"bots": "GreedyBot"}, ArgumentTypeError, "bots must be a list of bot names"),
        ({"bots": {"x": 3}}, ArgumentTypeError, "bots must map names to bot factories"),
        ({"budget": 0}, ArgumentError, "budget must be a whole number of samples"),
        ({"search_budget": 0}, ArgumentError, "search_budget must be an integer from 1"),
        ({"seat": 3}, ArgumentError, r"seat must be a seat 0\.\.2, got 3"),
        ({"seat": -1}, ArgumentError, "seat must be a seat"),
        ({"seed": -1}, ArgumentError, "seed must be a non-negative integer"),
        ({"round": 5}, ArgumentError, r"round must be the number of a round this game played"),
        ({"others": "Nobody"}, ArgumentError, "others must name a bot of"),
        ({"others": ["GreedyBot"]}, ArgumentError, r"others must be a bot's name or one entry"),
        ({"others": [None, 3, "GreedyBot"]}, ArgumentTypeError, r"others\[1\] must be a bot"),
        ({"others": [None, lambda s: 3, "GreedyBot"]}, ArgumentTypeError, r"others\[1\] must make"),
        ({"progress": 3}, ArgumentTypeError, "progress must be a callable"),
        ({"own": "mine"}, ArgumentTypeError, "own must be a Review"),
    ],
)
def test_bad_input_is_refused_by_field(by_random, options, error, words):
    arguments = {"seat": 0, "bots": ["GreedyBot"], "budget": 1} | options
    seat = arguments.pop("seat")
    with pytest.raises(error, match=words) as raised:
        beside_bots(by_random, seat, **arguments)
    assert isinstance(raised.value, RummyError)


def test_a_review_given_as_own_must_be_the_same_seats_budgets_and_seeds(by_random):
    other_seat = Review(seat=1, name="Bea", budget=1, seed=0, verdicts=())
    with pytest.raises(ArgumentError, match="own must be the review of the same seat"):
        beside_bots(by_random, 0, bots=["GreedyBot"], budget=1, own=other_seat)
    own = review(by_random, 0, budget=1, round=1)
    with pytest.raises(ArgumentError, match="own must be the review of the same seat"):
        beside_bots(by_random, 0, bots=["GreedyBot"], budget=1, round=2, own=own)
    result = beside_bots(by_random, 0, bots=["GreedyBot"], budget=1, round=1, own=own)
    assert result.players[0].review is own
    with pytest.raises(ArgumentTypeError, match="game must be a GameState or a save"):
        beside_bots(3, 0)


def test_make_bot_makes_each_named_bot_and_refuses_others():
    assert [type(make_bot(name, 1)).__name__ for name in BOT_NAMES] == list(BOT_NAMES)
    assert make_bot("SearchBot", 1, search_budget=8).rollouts == 8
    with pytest.raises(ArgumentError, match="name must be one of 'GreedyBot'"):
        make_bot("Deep Blue", 1)
    with pytest.raises(ArgumentError, match="search_budget"):
        make_bot("SearchBot", 1, search_budget=0)


# -- mistakes by decision type -------------------------------------------------------------


def test_the_types_add_up_to_the_reviews_verdicts(by_random, by_greedy):
    one = review(by_random, 0, budget=BUDGET)
    two = review(by_greedy, 1, budget=BUDGET)
    table = one.mistakes_by_type()
    assert table == mistakes_by_type(one) == mistakes_by_type(list(one.verdicts))
    assert table.decisions == len(one.verdicts) > 0
    assert [t.type for t in table.tallies] == [k for k in DECISION_TYPES if table.tally(k)]
    marked = sum(CLASSES.index(v.kind) >= 2 for v in one.verdicts)
    assert sum(t.inaccuracies for t in table.tallies) == marked
    worse = sum(CLASSES.index(v.kind) >= 3 for v in one.verdicts)
    assert sum(t.mistakes for t in table.tallies) == worse
    assert sum(t.loss for t in table.tallies) == pytest.approx(one.total_loss)
    for tally in table.tallies:
        assert tally.decisions == sum(decision_type(v) == tally.type for v in one.verdicts)
    both = mistakes_by_type([one, two])
    assert both.decisions == len(one.verdicts) + len(two.verdicts)
    assert len(both.rows()) == len(both.tallies)


def _verdict(phase: str, played: str, best: str, kind: str, loss: float, *others: str) -> Verdict:
    """A constructed verdict: ``best`` first among the alternatives, ``played`` with
    ``loss``."""

    def estimate(mean: float) -> Estimate:
        return Estimate(mean, mean - 1, mean + 1, 8)

    actions = list(dict.fromkeys(parse_action(a) for a in (best, played, *others)))
    alternatives = tuple(
        Alternative(
            action=a,
            value=estimate(0.0),
            out=Estimate(0.0, 0.0, 0.3, 8),
            loss=estimate(loss if a == parse_action(played) else 0.0),
        )
        for a in actions
    )
    return Verdict(
        number=0, round=1, phase=phase, view=None, played=parse_action(played),
        alternatives=alternatives, kind=kind, samples=8, sentence="",
    )  # fmt: skip


LAY_DOWN = "lay down 8S 8H 8D | JH JH JS"


def test_each_verdict_gets_its_type_by_the_rule():
    cases = [
        (_verdict("buy", "buy", "pass", "mistake", 6), "buy"),
        (_verdict("draw", "take discard", "draw stock", "good", 1), "take or draw"),
        (_verdict("play", LAY_DOWN, "discard 2C", "inaccuracy", 3), "lay down"),
        # Holding back when a lay-down was legal: a decision of when to lay down.
        (_verdict("play", "discard 2C", "discard 9D", "good", 0.5, LAY_DOWN), "lay down"),
        (
            _verdict("play", "invalid lay down 8S 8H | 2C 3C", "discard 2C", "blunder", 20),
            "lay down",
        ),
        (_verdict("play", "discard 4H", "lay off 4H -> 0", "mistake", 6), "lay off"),  # missed
        (_verdict("play", "lay off 4H -> 0", "discard 9C", "good", 1), "lay off"),
        (_verdict("play", "swap 7H -> 1", "discard 9C", "good", 1), "lay off"),
        # A lay-off that was legal but neither played nor best: the question was the discard.
        (_verdict("play", "discard 9C", "discard 2D", "good", 1, "lay off 4H -> 0"), "discard"),
        (_verdict("play", "end turn", "discard 9C", "good", 1), "discard"),
        (_verdict("call discard", "discard 9C", "discard 2D", "good", 1), "discard"),
        (_verdict("call", "pass", "call", "mistake", 7), "call"),
    ]
    assert [decision_type(v) for v, _ in cases] == [kind for _, kind in cases]
    broken = _verdict("over", "pass", "call", "good", 0)
    with pytest.raises(ArgumentError, match="a decision of no known phase"):
        decision_type(broken)


def test_each_types_counts_shares_and_intervals_are_right_on_constructed_verdicts():
    kinds = {  # per type: the classes of its decisions
        "buy": ["best", "good", "inaccuracy", "mistake", "blunder"],
        "take or draw": ["best"] * 7 + ["good"] * 2 + ["mistake"],
        "discard": ["good", "inaccuracy", "inaccuracy"],
    }
    actions = {
        "buy": ("buy", "buy", "pass"),
        "take or draw": ("draw", "take discard", "draw stock"),
        "discard": ("play", "discard 9C", "discard 2D"),
    }
    verdicts = []
    for kind, classes in kinds.items():
        phase, played, best = actions[kind]
        for number, cls in enumerate(classes):
            mine = best if cls == "best" else played
            verdicts.append(_verdict(phase, mine, best, cls, 0.0 if cls == "best" else number))
    table = mistakes_by_type(verdicts)
    assert [t.type for t in table.tallies] == ["buy", "take or draw", "discard"]
    expected = {  # (decisions, inaccuracy or worse, mistake or worse)
        "buy": (5, 3, 2),
        "take or draw": (10, 1, 1),
        "discard": (3, 2, 0),
    }
    for tally in table.tallies:
        n, inaccurate, mistaken = expected[tally.type]
        assert (tally.decisions, tally.inaccuracies, tally.mistakes) == (n, inaccurate, mistaken)
        for count, share in ((inaccurate, tally.inaccuracy_share), (mistaken, tally.mistake_share)):
            low, high = _wilson(count, n)
            assert share.mean == count / n and share.n == n
            assert share.low == pytest.approx(low) and share.high == pytest.approx(high)
    # Loss: the played choice's mean loss, added up.
    assert table.tally("take or draw").loss == sum(range(7, 10))
    assert table.tally("lay off") is None
    row = table.rows()[0]
    assert row["type"] == "buy" and row["inaccuracy_share"] == 3 / 5
    assert row["mistake_low"] == pytest.approx(_wilson(2, 5)[0])
    text = str(table)
    assert text.startswith("Mistakes by decision type (18 decisions")
    assert "3: about 60% (95%: 23% to 88%)" in text  # the buys: 3 of 5 inaccuracy or worse
    assert "<th>mistake or worse</th>" in table._repr_html_()
    assert str(mistakes_by_type([])) == "Mistakes by decision type: no decision to judge"


def test_mistakes_by_type_refuses_what_is_no_review():
    with pytest.raises(ArgumentTypeError, match="reviews must be a Review"):
        mistakes_by_type("my game")
    with pytest.raises(ArgumentTypeError, match="reviews must hold reviews or verdicts only"):
        mistakes_by_type([3])
    with pytest.raises(ArgumentError, match="decision must be a decision type"):
        mistakes_by_type([]).tally("bluff")
