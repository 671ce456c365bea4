"""The PlayWidget's review panel: the human seat's decisions so far, weighed in the
background, the same as :func:`rummykit.review`, dropped when the game moves on; and its
retry area, the learner's mistakes kept as puzzles in a file and tried again."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("ipywidgets")

from rummykit.agents.bots import RandomBot  # noqa: E402
from rummykit.errors import ArgumentError, ArgumentTypeError  # noqa: E402
from rummykit.evaluate.beside import DEFAULT_BOTS, beside_bots  # noqa: E402
from rummykit.evaluate.puzzle_book import PuzzleBook  # noqa: E402
from rummykit.evaluate.puzzles import MISTAKE_CLASSES, choice_words, from_review  # noqa: E402
from rummykit.evaluate.reviews import CLASSES, review  # noqa: E402
from rummykit.widgets import PlayWidget  # noqa: E402
from rummykit.widgets import review as panel_module  # noqa: E402
from rummykit.widgets._common import message_html  # noqa: E402
from rummykit.widgets.retry import RetryPanel, shown_order  # noqa: E402
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
    from rummykit.agents.bots import GreedyBot
    from rummykit.engine.game import Game

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
    from rummykit.agents.bots import GreedyBot
    from rummykit.engine.game import Game

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


# -- learn from your own mistakes: the retry area (issue 48 item 4) --------------------------


@pytest.fixture(scope="module")
def mistaken():
    """A widget whose human played at random, reviewed in the handler: mistakes to keep."""
    widget = _widget(background=False)
    _play(widget, 30)
    widget.review_panel.start()
    marked = [v for v in widget.review_panel.review.verdicts if v.kind in MISTAKE_CLASSES]
    assert len(marked) >= 2, "a random player makes mistakes"
    yield widget, marked
    widget.close()


def test_keep_my_mistakes_writes_them_only_to_the_file_named(mistaken, tmp_path, monkeypatch):
    widget, marked = mistaken
    retry = widget.review_panel.retry
    assert retry.box in widget.review_panel.box.children and retry.book_text.value == ""
    monkeypatch.chdir(tmp_path)  # the notebook's folder
    retry.keep_button.click()
    assert "Name a file for your puzzles first" in retry.book_html.value
    assert list(tmp_path.iterdir()) == []  # nothing written unless a file is named
    retry.book_text.value = " my-puzzles.json "
    retry.keep_button.click()
    path = tmp_path / "my-puzzles.json"
    kept = from_review(widget.review_panel.review)
    assert PuzzleBook(path).puzzles == tuple(kept)
    assert [p.answer for p in kept] == [str(v.best.action) for v in marked]
    assert f"Kept {len(kept)} new puzzles in {path}: {len(kept)} puzzles in my-puzzles.json, " in (
        retry.book_html.value
    )
    before = path.read_bytes()
    retry.keep_button.click()
    assert f"Kept 0 new puzzles ({len(kept)} already there)" in retry.book_html.value
    assert path.read_bytes() == before


def test_a_new_session_tries_again_the_puzzles_the_first_kept(mistaken, tmp_path):
    first, marked = mistaken
    path = tmp_path / "my-puzzles.json"
    first.review_panel.retry.book_text.value = str(path)
    first.review_panel.retry.keep_button.click()
    kept = PuzzleBook(path).puzzles
    second = _widget(background=False)  # a new session: its own game, nothing reviewed
    retry = second.review_panel.retry
    assert retry.try_button.disabled and retry.show_button.disabled
    assert retry.choices.layout.display == "none"
    retry.book_text.value = str(path)
    retry.next_button.click()
    one = kept[0]
    assert retry.puzzle == one and retry.puzzle_html.value == one.position_html()
    assert "<svg" in retry.puzzle_html.value and "your hand" in retry.puzzle_html.value
    assert [value for _, value in retry.choices.options] == shown_order(one)
    assert [label for label, _ in retry.choices.options] == [
        choice_words(c) for c in shown_order(one)
    ]
    assert retry.choices.value is None and retry.choices.layout.display is None
    retry.try_button.click()  # nothing picked: nothing checked
    assert "Pick one of the choices first" in retry.verdict_html.value
    assert PuzzleBook(path).attempts == ()
    # What the learner played, tried again: the review's sentence.
    played = str(marked[0].played)
    retry.choices.value = played
    retry.try_button.click()
    assert retry.verdict_html.value == message_html(one.check(played)[1], "error")
    assert "Not the best choice. You " in retry.verdict_html.value
    retry.show_button.click()
    shown = f"The answer: {choice_words(one.answer)}. {one.solution}"
    assert retry.verdict_html.value == message_html(shown, "info")
    assert retry.choices.value == one.answer and retry.try_button.disabled
    # The next puzzle, answered right; then the first again, as it was not.
    retry.next_button.click()
    two = kept[1]
    assert retry.puzzle == two and retry.verdict_html.value == ""
    assert not retry.try_button.disabled and retry.choices.value is None
    retry.choices.value = two.answer
    retry.try_button.click()
    assert retry.verdict_html.value == message_html(f"Right. {two.solution}", "ok")
    book = PuzzleBook(path)  # a third session sees every attempt
    assert [(a.key, a.choice, a.right) for a in book.attempts] == [
        (one.key, played, False),
        (one.key, None, False),
        (two.key, two.answer, True),
    ]
    assert f"{len(kept)} puzzles in my-puzzles.json, {len(kept) - 1} not yet" in (
        retry.book_html.value
    )
    retry.next_button.click()
    assert retry.puzzle == book.next_puzzle(two.key) != two
    for puzzle in kept:  # every one answered right: none left
        if not book.solved(puzzle.key):
            book.attempt(puzzle.key, puzzle.answer)
    retry.next_button.click()
    assert retry.puzzle is None and f"You have answered every puzzle in {path} right" in (
        retry.book_html.value
    )
    assert retry.try_button.disabled and retry.choices.options == ()
    second.close()


def test_bad_files_and_nothing_to_keep_are_messages_that_change_nothing(mistaken, tmp_path):
    widget, _ = mistaken
    retry = widget.review_panel.retry
    retry.book_text.value = str(tmp_path)  # a folder
    for button in (retry.keep_button, retry.next_button):
        button.click()
        assert "is a folder: name a file in it" in retry.book_html.value
        assert 'role="alert"' in retry.book_html.value
    assert list(tmp_path.iterdir()) == []
    notes = tmp_path / "notes.json"
    notes.write_text("{ my notes")
    retry.book_text.value = str(notes)
    for button in (retry.keep_button, retry.next_button):
        button.click()
        assert "is not a puzzle book (not JSON" in retry.book_html.value
    assert notes.read_text() == "{ my notes"
    retry.book_text.value = str(tmp_path / "missing" / "puzzles.json")
    retry.keep_button.click()
    assert "cannot write" in retry.book_html.value and "nothing was written" in (
        retry.book_html.value
    )
    retry.next_button.click()
    assert "No puzzle in" in retry.book_html.value and retry.puzzle is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json"]
    # Nothing reviewed yet; a review on one sample a decision, which marks nothing.
    fresh = _widget(background=False, review_budget=1)
    fresh_retry = fresh.review_panel.retry
    fresh_retry.book_text.value = str(tmp_path / "mine.json")
    fresh_retry.keep_button.click()
    assert "Review your play first" in fresh_retry.book_html.value
    _play(fresh, 10)
    fresh.review_panel.start()
    assert fresh.review_panel.review.verdicts
    fresh_retry.keep_button.click()
    assert "No decision of this review is a mistake or a blunder" in fresh_retry.book_html.value
    assert not (tmp_path / "mine.json").exists()
    fresh.close()
    with pytest.raises(ArgumentTypeError, match="source"):
        RetryPanel("not a review")
