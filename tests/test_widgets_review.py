"""The PlayWidget's review panel: the human seat's decisions so far, weighed in the
background, the same as :func:`rummykit.review`, dropped when the game moves on."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("ipywidgets")

from rummykit.beside import DEFAULT_BOTS, beside_bots  # noqa: E402
from rummykit.bots import RandomBot  # noqa: E402
from rummykit.errors import ArgumentError, ArgumentTypeError  # noqa: E402
from rummykit.reviews import CLASSES, review  # noqa: E402
from rummykit.widgets import PlayWidget  # noqa: E402
from rummykit.widgets import review as panel_module  # noqa: E402
from rummykit.widgets.review import MARKS, ReviewPanel, action_text  # noqa: E402

BUDGET = 16


def _widget(**kwargs) -> PlayWidget:
    options = {"bots": 2, "seed": 11, "review_budget": BUDGET}
    return PlayWidget(**(options | kwargs))


def _play(widget: PlayWidget, moves: int, seed: int = 4) -> None:
    """The human plays ``moves`` random legal moves (a random player makes mistakes)."""
    chooser = RandomBot(seed=seed)
    for _ in range(moves):
        widget.wait(30)
        if widget.finished or widget.between_rounds or widget.state.to_act != widget.seat:
            break
        assert widget.act(chooser.choose(widget.view)) is True
    widget.wait(30)


@pytest.fixture(scope="module")
def reviewed():
    """A widget whose human has played a while, its review done in the background."""
    widget = _widget()
    _play(widget, 30)
    panel = widget.review_panel
    panel.review_button.click()
    panel.wait(120)
    yield widget, panel
    widget.close()


@pytest.mark.slow
def test_the_panel_is_under_the_play_and_reviews_what_the_library_reviews(reviewed):
    widget, panel = reviewed
    assert panel.box in widget.box.children
    expected = review(widget.state, widget.seat, budget=BUDGET, seed=0)
    got = panel.review
    assert got is not None and panel.error is None
    assert len(got.verdicts) == len(expected.verdicts) >= 5
    for mine, theirs in zip(got.verdicts, expected.verdicts, strict=True):
        assert (mine.number, mine.played, mine.kind, mine.loss) == (
            theirs.number,
            theirs.played,
            theirs.kind,
            theirs.loss,
        )
    assert not panel.review_button.disabled and panel.progress.layout.display == "none"
    summary = panel.summary_html.value
    assert f"{len(got.verdicts)} decisions reviewed" in summary
    assert f"Accuracy {round(100 * got.accuracy)} in 100" in summary


@pytest.mark.slow
def test_each_decision_is_listed_with_its_class_and_shown_with_its_alternatives(reviewed):
    _, panel = reviewed
    verdicts = panel.review.verdicts
    assert [value for _, value in panel.decisions.options] == list(range(len(verdicts)))
    for (label, _), verdict in zip(panel.decisions.options, verdicts, strict=True):
        assert f"round {verdict.round}, {verdict.phase}: {action_text(verdict.played)}" in label
        assert f"({verdict.kind}" in label and MARKS[verdict.kind][0] in label
    for index in (len(verdicts) - 1, 0):
        panel.decisions.value = index
        verdict = verdicts[index]
        detail = panel.detail_html.value
        assert panel.selected is verdict
        assert verdict.sentence.replace("'", "&#x27;") in detail
        assert f"Round {verdict.view.round} " in detail and "<svg" in detail
        assert detail.count("<tr>") + detail.count("<tr style") == 1 + len(verdict.alternatives)
        assert "(played)" in detail and "(best)" in detail
        best = verdict.best.value
        assert f"{best.mean:+.1f} ({best.low:+.1f} to {best.high:+.1f})" in detail


@pytest.mark.slow
def test_next_mistake_visits_every_marked_decision_in_order_and_wraps(reviewed):
    _, panel = reviewed
    verdicts = panel.review.verdicts
    marked = [i for i, v in enumerate(verdicts) if CLASSES.index(v.kind) >= 2]
    assert marked, "a random player's decisions include an inaccuracy or worse"
    assert not panel.next_button.disabled
    panel.decisions.value = 0
    seen = []
    for _ in range(len(marked) + 1):
        panel.next_button.click()
        seen.append(panel.decisions.value)
    first = [i for i in marked if i > 0] + [i for i in marked if i == 0]
    assert seen == (first + first)[: len(marked) + 1]


def test_a_review_before_any_decision_says_so_and_finds_no_mistake():
    widget = _widget(background=False)
    panel = widget.review_panel
    panel.start()  # the human's first turn: nothing decided yet
    assert panel.review is not None and panel.review.verdicts == ()
    assert "You have made no decision with a choice yet" in panel.summary_html.value
    assert panel.next_button.disabled and panel.decisions.options == ()
    assert panel.next_mistake() is None
    assert "No decision of this review is an inaccuracy" in panel.detail_html.value


def test_the_review_runs_in_a_thread_and_is_dropped_when_the_game_moves_on(monkeypatch):
    release = threading.Event()
    real = panel_module.review

    def slow(*args, **kwargs):
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(panel_module, "review", slow)
    widget = _widget()
    _play(widget, 6)
    panel = widget.review_panel
    panel.review_button.click()  # returns at once: the review waits in its thread
    assert panel.review is None and panel.review_button.disabled
    assert panel.progress.layout.display is None
    assert widget.act(RandomBot(seed=1).choose(widget.view)) is True  # the game moves on
    release.set()
    panel.wait(60)
    assert panel.review is None and panel.error is None
    assert "The game moved on while the review ran" in panel.summary_html.value
    assert panel.decisions.options == () and not panel.review_button.disabled
    # Once the game stands still, a review is shown.
    panel.review_button.click()
    panel.wait(60)
    assert panel.review is not None and len(panel.decisions.options) > 0
    widget.close()


def test_a_new_game_drops_the_review_and_says_nothing_of_a_stale_one(monkeypatch):
    release = threading.Event()
    real = panel_module.review
    monkeypatch.setattr(
        panel_module, "review", lambda *a, **k: (release.wait(30), real(*a, **k))[1]
    )
    widget = _widget()
    _play(widget, 4)
    widget.review_panel.review_button.click()
    widget.new_game_button.click()
    release.set()
    widget.review_panel.wait(60)
    panel = widget.review_panel
    assert panel.review is None and panel.summary_html.value == ""
    assert panel.decisions.options == () and panel.detail_html.value == ""
    widget.close()


def test_an_error_in_the_review_thread_is_shown_not_lost(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("no samples today")

    monkeypatch.setattr(panel_module, "review", broken)
    widget = _widget()
    panel = widget.review_panel
    panel.review_button.click()
    panel.wait(30)
    assert panel.error == "The review stopped with an error: ValueError: no samples today"
    assert "no samples today" in panel.summary_html.value and 'role="alert"' in (
        panel.summary_html.value
    )
    assert panel.review is None and not panel.review_button.disabled
    widget.close()


@pytest.mark.slow
def test_the_same_game_reviews_the_same_every_time():
    one, two = _widget(background=False), _widget(background=False)
    for widget in (one, two):
        _play(widget, 10)
        widget.review_panel.start()
    assert one.state.save() == two.state.save()
    assert one.review_panel.review.to_dict() == two.review_panel.review.to_dict()
    assert one.review_panel.decisions.options == two.review_panel.decisions.options


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"budget": 0}, ArgumentError, "budget"),
        ({"budget": 10_001}, ArgumentError, "budget"),
        ({"seat": -1}, ArgumentError, "seat"),
        ({"seed": "x"}, ArgumentTypeError, "seed"),
    ],
)
def test_a_bad_budget_seat_or_seed_is_refused_by_name(options, error, words):
    with pytest.raises(error, match=words):
        ReviewPanel(lambda: None, **options)
    with pytest.raises(ArgumentTypeError, match="source"):
        ReviewPanel("not a game")


def test_a_panel_with_no_game_says_so():
    panel = ReviewPanel(lambda: None, background=False)
    panel.start()
    assert panel.review is None and "No game to review yet" in panel.summary_html.value


def test_a_bad_review_budget_for_the_widget_is_refused_before_any_game():
    with pytest.raises(ArgumentError, match="budget"):
        _widget(review_budget=0)


def test_the_default_budget_is_smaller_where_the_engine_plays_the_samples(monkeypatch):
    built = dict(panel_module._native.available())
    assert built["table"], "the compiled round simulator is built here"
    assert ReviewPanel(lambda: None).budget == panel_module.REVIEW_BUDGET == 128
    monkeypatch.setattr(panel_module._native, "available", lambda: built | {"table": False})
    assert ReviewPanel(lambda: None).budget == panel_module.ENGINE_BUDGET == 16
    assert ReviewPanel(lambda: None, budget=40).budget == 40


def test_the_panel_tells_each_finished_rounds_story():
    from rummykit.bots import GreedyBot
    from rummykit.game import Game

    state = Game("standard", players=3, seed=11, turn_limit=40).new_state()
    bots = [RandomBot(seed=3), GreedyBot(), GreedyBot()]
    while len(state.round_scores) < 2:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    panel = ReviewPanel(lambda: state, budget=BUDGET, background=False)
    panel.start()
    result = panel.review
    assert [r for r, _ in result.results] == [1, 2]
    import html

    shown = panel.story_html.value
    latest, first = result.story(2), result.story(1)
    later = shown.index(html.escape(latest.summary()))
    assert later < shown.index(html.escape(first.summary()))  # the latest first
    assert shown.count("<svg") == 2 and "<details open>" in shown
    panel.reset()
    assert panel.story_html.value == ""


# -- mistakes by decision type, and Beside the bots (issue 48 item 5) -------------------------


def _short_game(rounds: int = 1):
    """A short game (a turn limit of 12): seat 0 random, two GreedyBots."""
    from rummykit.bots import GreedyBot
    from rummykit.game import Game

    state = Game("standard", players=3, seed=4, turn_limit=12).new_state()
    bots = [RandomBot(seed=1), GreedyBot(), GreedyBot()]
    while len(state.round_scores) < rounds:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


def _greedy_beside(*args, **kwargs):
    """beside_bots with GreedyBot alone beside the seat (quick), as the panel calls it."""
    return beside_bots(*args, bots=["GreedyBot"], **kwargs)


def test_the_summary_counts_the_mistakes_by_decision_type():
    state = _short_game()
    panel = ReviewPanel(lambda: state, budget=2, background=False)
    assert panel.beside_button.disabled  # nothing reviewed yet
    panel.start()
    table = panel.review.mistakes_by_type()
    summary = panel.summary_html.value
    assert table._repr_html_() in summary and "Mistakes by decision type" in summary
    assert all(f"<td>{t.type}</td><td>{t.decisions}</td>" in summary for t in table.tallies)
    assert not panel.beside_button.disabled and panel.beside is None


def test_beside_the_bots_needs_a_review_and_shows_the_librarys_comparison(monkeypatch):
    monkeypatch.setattr(panel_module, "beside_bots", _greedy_beside)
    state = _short_game()
    panel = ReviewPanel(lambda: state, budget=2, background=False)
    panel.start_beside()
    assert panel.beside is None and "Review your play first" in panel.beside_html.value
    panel.start()
    panel.beside_button.click()
    expected = _greedy_beside(state, 0, budget=2, own=panel.review)
    assert panel.beside is not None and panel.error is None
    assert panel.beside.to_dict() == expected.to_dict()
    assert panel.beside.players[0].review is panel.review  # the review on screen, not redone
    assert panel.beside_html.value == expected._repr_html_()
    assert "Accuracy beside the bots" in panel.beside_html.value
    assert not panel.review_button.disabled and not panel.beside_button.disabled
    panel.reset()
    assert panel.beside is None and panel.beside_html.value == ""
    assert panel.beside_button.disabled


@pytest.mark.slow
def test_beside_the_bots_sets_greedybot_outsbot_and_searchbot_beside_the_seat():
    state = _short_game()
    panel = ReviewPanel(lambda: state, budget=2, background=False)
    panel.start()
    panel.beside_button.click()
    assert [p.player for p in panel.beside.players] == ["Ann", *DEFAULT_BOTS]
    assert panel.beside.to_dict() == beside_bots(state, 0, budget=2).to_dict()


def test_beside_the_bots_is_refused_once_the_game_has_moved_on_since_the_review(monkeypatch):
    monkeypatch.setattr(panel_module, "beside_bots", _greedy_beside)
    widget = _widget(background=False, review_budget=2)
    _play(widget, 4)
    panel = widget.review_panel
    panel.start()
    assert widget.act(RandomBot(seed=1).choose(widget.view)) is True  # the game moves on
    panel.beside_button.click()
    assert panel.beside is None and "The game moved on since this review" in (
        panel.beside_html.value
    )
    widget.close()


def test_beside_the_bots_runs_in_a_thread_and_is_dropped_when_the_game_moves_on(monkeypatch):
    release = threading.Event()

    def slow(*args, **kwargs):
        release.wait(30)
        return _greedy_beside(*args, **kwargs)

    monkeypatch.setattr(panel_module, "beside_bots", slow)
    widget = _widget(review_budget=2)
    _play(widget, 4)
    panel = widget.review_panel
    panel.review_button.click()
    panel.wait(60)
    panel.beside_button.click()  # returns at once: the replays wait in their thread
    assert panel.beside is None and panel.review_button.disabled and panel.beside_button.disabled
    assert panel.progress.layout.display is None
    assert widget.act(RandomBot(seed=1).choose(widget.view)) is True
    release.set()
    panel.wait(60)
    assert panel.beside is None and panel.error is None
    assert "The game moved on while the bots replayed your rounds" in panel.beside_html.value
    assert not panel.review_button.disabled
    widget.close()


def test_a_new_game_drops_beside_the_bots_and_an_error_in_it_is_shown(monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(
        panel_module, "beside_bots", lambda *a, **k: (release.wait(30), _greedy_beside(*a, **k))[1]
    )
    widget = _widget(review_budget=2)
    _play(widget, 4)
    panel = widget.review_panel
    panel.review_button.click()
    panel.wait(60)
    panel.beside_button.click()
    widget.new_game_button.click()
    release.set()
    panel.wait(60)
    assert panel.beside is None and panel.beside_html.value == "" and panel.review is None

    def broken(*args, **kwargs):
        raise ValueError("no bots today")

    monkeypatch.setattr(panel_module, "beside_bots", broken)
    _play(widget, 4)
    panel.review_button.click()
    panel.wait(60)
    panel.beside_button.click()
    panel.wait(60)
    assert panel.error == "Beside the bots stopped with an error: ValueError: no bots today"
    assert 'role="alert"' in panel.beside_html.value and panel.review is not None
    assert not panel.review_button.disabled and not panel.beside_button.disabled
    widget.close()


def test_the_replays_other_seats_play_as_the_games_bots(monkeypatch):
    from rummykit.widgets.play import BOTS

    widget = _widget(background=False)
    assert widget.review_panel.others == widget._beside_others
    assert widget._beside_others() == [None, BOTS["Greedy"], BOTS["Greedy"]]
    widget.bot_kind.value = "Random"  # from the next New game: the game on the table stays
    assert widget._beside_others() == [None, BOTS["Greedy"], BOTS["Greedy"]]
    widget.new_game()
    assert widget._beside_others() == [None, BOTS["Random"], BOTS["Random"]]
    strong = _widget(background=False, level="strong", bots=1, strong_seconds=None,
                     strong_samples=2)  # fmt: skip
    assert strong._beside_others() == [None, "SearchBot"]  # at the replays' small budget
    for one in (widget, strong):
        one.close()
