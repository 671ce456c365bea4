"""The PlayWidget's review panel: the human seat's decisions so far, weighed in the
background, the same as :func:`rummykit.review`, dropped when the game moves on."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("ipywidgets")

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
