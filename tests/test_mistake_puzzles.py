"""A learner's own mistakes as puzzles (issue 48 item 4): a puzzle of each decision a review
classed a mistake or a blunder (rummykit.evaluate.puzzles.from_review), kept in a puzzle book file
across sessions (rummykit.evaluate.puzzle_book), and tried again in the PlayWidget's review panel
(rummykit.widgets.retry); bad files refused by name and never written over, saves whole."""

from __future__ import annotations

import errno
import json
import os
import re

import pytest

import rummykit.evaluate.puzzle_book as book_module
from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.engine.game import Game, GameState
from rummykit.errors import ArgumentError, ArgumentTypeError, OutputError, SaveFileError
from rummykit.evaluate import puzzles as puzzles_module
from rummykit.evaluate import reviews as reviews_module
from rummykit.evaluate.puzzle_book import BOOK_FORMAT, PuzzleBook
from rummykit.evaluate.puzzles import (
    MISTAKE_CLASSES,
    PUZZLES_FILE,
    choice_words,
    from_review,
    load,
    position_key,
)
from rummykit.evaluate.reviews import review

#: Samples a decision: enough for the random seat's worst choices to be called mistakes
#: (its interval clear of 5 points), small enough for a second.
BUDGET = 32


@pytest.fixture(scope="module")
def game() -> GameState:
    """A round of 30 turns: seat 0 plays at random, two GreedyBots."""
    state = Game("standard", players=3, seed=4, turn_limit=30).new_state()
    bots = [RandomBot(seed=1), GreedyBot(), GreedyBot()]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


@pytest.fixture(scope="module")
def reviewed(game):
    return review(game, 0, budget=BUDGET, seed=0)


@pytest.fixture(scope="module")
def mistakes(reviewed):
    """(verdict, puzzle) of each decision classed a mistake or a blunder."""
    marked = [v for v in reviewed.verdicts if v.kind in ("mistake", "blunder")]
    found = from_review(reviewed)
    assert len(marked) >= 2, "a random player makes mistakes"
    assert len(found) == len(marked)
    return list(zip(marked, found, strict=True))


def _bytes(path) -> bytes:
    return path.read_bytes()


# -- from a review ---------------------------------------------------------------------------


def test_each_mistake_or_blunder_is_a_puzzle_of_the_reviews_best_in_its_words(mistakes):
    for verdict, puzzle in mistakes:
        assert puzzle.answer == str(verdict.best.action)
        assert puzzle.choices == tuple(str(a.action) for a in verdict.alternatives)
        assert puzzle.values == tuple(
            (round(a.value.mean, 2), round(a.value.low, 2), round(a.value.high, 2))
            for a in verdict.alternatives
        )
        # Measured on the review's measurement half, apart from the half it chose on.
        assert puzzle.samples == verdict.samples == BUDGET // 2 == verdict.chosen_on
        assert puzzle.margin == round(min(a.loss.low for a in verdict.alternatives[1:]), 2)
        assert (puzzle.round, puzzle.phase) == (verdict.round, verdict.phase)
        assert puzzle.hand == tuple(c.code for c in verdict.view.hand)
        # The played choice checks wrong, with the review's own sentence in the puzzle's
        # words (card symbols, melds counted from 1).
        played = str(verdict.played)
        said = puzzles_module._worded(verdict.sentence, puzzle.choices)
        assert puzzle.check(played) == (False, f"Not the best choice. {said}")
        loss = verdict.loss
        size = reviews_module._size(loss)
        assert size in verdict.sentence and size in said
        # The solution sets the best against the choice played.
        assert puzzle.solution == puzzles_module._worded(
            verdict.versus(verdict.played), puzzle.choices
        )
        assert puzzle.check(puzzle.answer) == (True, f"Right. {puzzle.solution}")
        assert size in puzzle.solution


def test_inaccuracies_only_when_asked_and_keys_from_the_position(game, reviewed, mistakes):
    kinds = ("inaccuracy", "mistake", "blunder")
    every = from_review(reviewed, kinds=kinds)
    marked = [v for v in reviewed.verdicts if v.kind in kinds]
    assert len(every) == len(marked) > len(mistakes)
    assert [p.answer for p in every] == [str(v.best.action) for v in marked]
    assert [p for p in every if p in [q for _, q in mistakes]] == [q for _, q in mistakes]
    assert from_review(reviewed, kinds=["blunder"]) == [
        p for v, p in mistakes if v.kind == "blunder"
    ]
    assert len({p.key for p in every}) == len(every)
    # A key is the position's, whatever the review: the game replayed to the decision
    # gives it again.
    keys = {v.number: p.key for v, p in zip(marked, every, strict=True)}
    replay = GameState(game.game, game.setup)
    for number, (_, action) in enumerate(game.history):
        if number in keys:
            assert keys.pop(number) == position_key(replay.view(0))
        replay.apply(action)
    assert keys == {}
    assert all(re.fullmatch(r"m[0-9a-f]{16}", p.key) for p in every)


def test_a_review_on_one_sample_marks_nothing_so_no_puzzle(game):
    # One sample a decision has no interval, so no loss is sure: every choice is "good".
    assert from_review(review(game, 0, budget=1, seed=0, round=1)) == []


@pytest.mark.parametrize(
    ("review_", "kinds", "error", "words"),
    [
        ("a review", MISTAKE_CLASSES, ArgumentTypeError, "review must be a Review"),
        (None, MISTAKE_CLASSES, ArgumentTypeError, "review must be a Review"),
        ("ok", "mistake", ArgumentTypeError, "kinds must be a list of classes"),
        ("ok", ["good"], ArgumentError, "kinds\\[0\\] must be one of"),
        ("ok", [], ArgumentError, "at least 1"),
    ],
)
def test_bad_arguments_are_refused_by_name(reviewed, review_, kinds, error, words):
    with pytest.raises(error, match=words):
        from_review(reviewed if review_ == "ok" else review_, kinds=kinds)


# -- the puzzle book ---------------------------------------------------------------------------


def test_a_book_goes_to_its_file_and_back_with_every_attempt(tmp_path, mistakes):
    path = tmp_path / "mine.json"
    book = PuzzleBook(path)
    assert len(book) == 0 and not path.exists()  # nothing written until a puzzle is added
    found = [p for _, p in mistakes]
    assert book.add(found) == found
    (_, first), (_, second) = mistakes[:2]
    wrong = next(c for c in first.choices if c != first.answer)
    assert book.attempt(first.key, f" {wrong}  ") == first.check(wrong)
    assert book.reveal(first.key).startswith(f"The answer: {choice_words(first.answer)}. ")
    assert book.attempt(second.key, second.answer) == (True, f"Right. {second.solution}")
    again = PuzzleBook(str(path))  # a new session
    assert again.puzzles == tuple(found)
    assert [(a.key, a.choice, a.right) for a in again.attempts] == [
        (first.key, wrong, False),
        (first.key, None, False),
        (second.key, second.answer, True),
    ]
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00"
    assert all(re.fullmatch(stamp, a.at) for a in again.attempts)
    assert not again.solved(first.key) and again.solved(second.key)
    assert again.unsolved() == [p for p in found if p is not second]
    # The next puzzle not yet answered right, after the one given, wrapping.
    assert again.next_puzzle() == first
    assert again.next_puzzle(first.key) == (found[2] if len(found) > 2 else first)
    assert again.next_puzzle(found[-1].key) == first
    # load() reads a book's puzzles; the file says what it is.
    assert load(path) == found
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == (BOOK_FORMAT, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]  # no scratch left


def test_a_puzzle_is_kept_once_and_a_book_all_answered_has_no_next(tmp_path, mistakes):
    path = tmp_path / "mine.json"
    book = PuzzleBook(path)
    puzzle = mistakes[0][1]
    assert book.add([puzzle, puzzle]) == [puzzle]
    before = _bytes(path)
    assert book.add([puzzle]) == [] and _bytes(path) == before  # nothing new: not written
    assert len(PuzzleBook(path)) == 1
    book.attempt(puzzle.key, puzzle.answer)
    assert book.next_puzzle() is None and book.unsolved() == []


def test_two_sessions_on_one_file_keep_each_others_work(tmp_path, mistakes):
    path = tmp_path / "mine.json"
    one, two = PuzzleBook(path), PuzzleBook(path)  # both opened on an empty file
    (_, first), (_, second) = mistakes[:2]
    one.add([first])
    two.add([second])  # reads the file again first: keeps the first session's puzzle
    one.attempt(first.key, first.answer)
    assert [p.key for p in PuzzleBook(path).puzzles] == [first.key, second.key]
    assert two.solved(second.key) is False and PuzzleBook(path).solved(first.key)
    assert two.add([first]) == [] and two.solved(first.key)  # it read the file: up to date


NOT_A_BOOK = {
    "not JSON": b"{",
    "empty": b"",
    "not text": b"\xff\xfe\x00garbage",
    "a set of puzzles, not a book": b'{"puzzles": []}',
    "a list": b"[1, 2]",
}


@pytest.mark.parametrize("content", list(NOT_A_BOOK.values()), ids=list(NOT_A_BOOK))
def test_a_file_that_is_not_a_book_is_refused_by_name_and_left_as_it_was(tmp_path, content):
    path = tmp_path / "notes.json"
    path.write_bytes(content)
    with pytest.raises(SaveFileError, match=f"{re.escape(repr(str(path)))} is not a puzzle book"):
        PuzzleBook(path)
    assert _bytes(path) == content


def _book_text(puzzle, **changes) -> str:
    document = {"format": BOOK_FORMAT, "version": 1, "puzzles": [puzzle.to_dict()]}
    return json.dumps(document | {"attempts": []} | changes)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"version": 2}, "of version 2; this rummykit reads version 1"),
        ({"attempts": {}}, "puzzles and attempts must be lists"),
        ({"puzzles": [{"key": "x"}]}, "a puzzle could not be read"),
        ({"attempts": [{"key": "nope", "choice": None, "right": False, "at": "now"}]}, "attempt"),
        ({"attempts": [{"key": "K", "choice": "ANSWER", "right": False, "at": "now"}]}, "attempt"),
        ({"attempts": [["K"]]}, "an attempt could not be read"),
    ],
)
def test_a_damaged_book_is_refused_by_name_and_left_as_it_was(tmp_path, mistakes, changes, words):
    puzzle = mistakes[0][1]
    text = _book_text(puzzle, **changes).replace('"K"', json.dumps(puzzle.key))
    text = text.replace('"ANSWER"', json.dumps(puzzle.answer))  # marked wrong: a lie
    path = tmp_path / "mine.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveFileError, match=re.escape(str(path))) as caught:
        PuzzleBook(path)
    assert words in str(caught.value)
    assert path.read_text(encoding="utf-8") == text


def test_a_book_whose_file_another_program_replaced_is_never_written_over(tmp_path, mistakes):
    path = tmp_path / "mine.json"
    book = PuzzleBook(path)
    book.add([mistakes[0][1]])
    path.write_text("my shopping list")
    with pytest.raises(SaveFileError, match="is not a puzzle book"):
        book.add([mistakes[1][1]])
    with pytest.raises(SaveFileError, match="is not a puzzle book"):
        book.attempt(mistakes[0][1].key, mistakes[0][1].answer)
    assert path.read_text() == "my shopping list" and len(book) == 1


def test_a_folder_or_a_bad_path_or_key_is_refused(tmp_path, mistakes):
    with pytest.raises(SaveFileError, match="is a folder: name a file in it"):
        PuzzleBook(tmp_path)
    with pytest.raises(ArgumentTypeError, match="path must be a path"):
        PuzzleBook(None)
    book = PuzzleBook(tmp_path / "mine.json")
    puzzle = mistakes[0][1]
    with pytest.raises(ArgumentTypeError, match=r"puzzles\[0\] must be a Puzzle"):
        book.add([puzzle.to_dict()])
    book.add([puzzle])
    before = _bytes(book.path)
    with pytest.raises(ArgumentError, match="key must be the key of a puzzle"):
        book.attempt("m0", puzzle.answer)
    with pytest.raises(ArgumentError, match="choice must be one of the puzzle's choices"):
        book.attempt(puzzle.key, "eat the cards")
    assert _bytes(book.path) == before and book.attempts == ()
    # A folder that does not exist: nothing is written, and nothing made.
    missing = PuzzleBook(tmp_path / "missing" / "mine.json")
    with pytest.raises(OutputError, match="cannot write .*nothing was written"):
        missing.add([puzzle])
    assert not (tmp_path / "missing").exists() and len(missing) == 0


class _HalfWritten:
    """A file that takes half of what is written to it, then finds the disk full."""

    written: list[str] = []

    def __init__(self, *args, **kwargs):
        self.file = open(*args, **kwargs)  # noqa: SIM115 (closed on leaving the with)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()

    def write(self, text):
        self.file.write(text[: len(text) // 2])
        self.file.flush()
        self.written.append(self.file.name)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("failure", ["disk full mid-write", "fsync", "interrupt at rename"])
def test_a_save_cut_short_leaves_the_old_file_whole_and_the_book_unchanged(
    tmp_path, monkeypatch, mistakes, failure
):
    path = tmp_path / "mine.json"
    book = PuzzleBook(path)
    (_, first), (_, second) = mistakes[:2]
    book.add([first])
    before = _bytes(path)
    if failure == "disk full mid-write":
        monkeypatch.setattr(book_module, "open", _HalfWritten, raising=False)
        expected = OutputError
    elif failure == "fsync":

        def fsync(fd):
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        monkeypatch.setattr(book_module.os, "fsync", fsync)
        expected = OutputError
    else:

        def replace(*args):
            raise KeyboardInterrupt

        monkeypatch.setattr(book_module.os, "replace", replace)
        expected = KeyboardInterrupt
    with pytest.raises(expected) as caught:
        book.add([second])
    if expected is OutputError:
        assert str(path) in str(caught.value) and "the file is as it was" in str(caught.value)
    if failure == "disk full mid-write":  # half a book was written beside the file
        assert _HalfWritten.written and _HalfWritten.written[-1].endswith(".partial")
    assert _bytes(path) == before  # whole, byte for byte
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]  # no scratch left
    assert book.puzzles == (first,)  # the book holds what its file holds
    monkeypatch.undo()
    assert book.add([second]) == [second] and PuzzleBook(path).puzzles == (first, second)


def test_the_books_puzzle_set_is_no_puzzle_book():
    # data/puzzles.json is a set, not a learner's book: refused, so never written over.
    before = _bytes(PUZZLES_FILE)
    with pytest.raises(SaveFileError, match="is not a puzzle book"):
        PuzzleBook(PUZZLES_FILE)
    assert _bytes(PUZZLES_FILE) == before
