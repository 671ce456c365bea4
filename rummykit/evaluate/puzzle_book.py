"""A learner's puzzle book: the puzzles of their own mistakes, kept in a file they name.

:func:`rummykit.evaluate.puzzles.from_review` makes a puzzle of each decision a review classed a
mistake or a blunder; a :class:`PuzzleBook` keeps them in a JSON file across sessions,
with every attempt (the choice tried, whether it was right, when), and gives the next
puzzle not yet answered right. The PlayWidget's review panel keeps a learner's mistakes
in one and lets them try again (:mod:`rummykit.widgets.retry`).

**The file.** A JSON object: ``"format": "rummykit puzzle book"``, ``"version": 1``,
``"puzzles"`` (each :meth:`~rummykit.evaluate.puzzles.Puzzle.to_dict`, the list
:func:`rummykit.evaluate.puzzles.load` reads) and ``"attempts"`` (each an :class:`Attempt`). A file
that is not one is refused, named, and never written over; a save is whole or not at all
(see :class:`PuzzleBook`).

>>> import pathlib, tempfile
>>> from rummykit.evaluate.puzzles import load
>>> folder = tempfile.TemporaryDirectory()
>>> book = PuzzleBook(pathlib.Path(folder.name) / "mine.json")
>>> puzzle = load()[0]
>>> book.add([puzzle, puzzle]) == [puzzle], len(book), book.add([puzzle])
(True, 1, [])
>>> book.attempt(puzzle.key, puzzle.choices[-1])[0], book.solved(puzzle.key)
(False, False)
>>> book.attempt(puzzle.key, puzzle.answer)[0], book.solved(puzzle.key)
(True, True)
>>> again = PuzzleBook(book.path)   # another session
>>> again.puzzles == (puzzle,), [a.right for a in again.attempts]
(True, [False, True])
>>> folder.cleanup()
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import uuid
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from rummykit.engine.checks import instance, items
from rummykit.engine.checks import path as checked_path
from rummykit.errors import ArgumentError, OutputError, SaveFileError
from rummykit.evaluate.puzzles import Puzzle, choice_words

__all__ = ["BOOK_FORMAT", "BOOK_VERSION", "Attempt", "PuzzleBook"]


@dataclass(frozen=True)
class Attempt:
    """One try at a puzzle of a :class:`PuzzleBook`."""

    key: str
    """The puzzle's key."""
    choice: str | None
    """The choice tried, or None where the learner asked to be shown the answer."""
    right: bool
    """Whether the choice was the answer (never, when shown)."""
    at: str
    """When, in UTC to the second (ISO 8601: ``2026-03-01T18:04:05+00:00``)."""


#: What the ``format`` field of a puzzle book says.
BOOK_FORMAT = "rummykit puzzle book"
#: The version of the puzzle book's format this code reads and writes.
BOOK_VERSION = 1


class PuzzleBook:
    """A learner's puzzles (:func:`~rummykit.evaluate.puzzles.from_review`) and their attempts,
    kept in the JSON file ``path`` across sessions.

    The file is read when the book is made, if it exists (a missing file is an empty
    book: nothing is written until a puzzle is added). A file that is not a puzzle book
    (not JSON, or without ``"format": "rummykit puzzle book"``), or a folder, is refused
    with a :class:`~rummykit.errors.SaveFileError` naming it, and never written over.

    Every change (:meth:`add`, :meth:`attempt`, :meth:`reveal`) reads the file again
    first, so two sessions on one file keep each other's puzzles and attempts, and is
    saved at once, whole or not at all: the book is written to a hidden file beside it
    and renamed over it (``os.replace``), so a save cut short (a full disk, an interrupt)
    leaves the old file as it was, raises :class:`~rummykit.errors.OutputError` naming
    the file, and changes nothing in the book either. (Two sessions saving in the same
    instant may still lose one change: there is no lock.) The file's ``puzzles`` list is
    :func:`~rummykit.evaluate.puzzles.load`'s, so ``load(path)`` reads a book's puzzles too.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = checked_path("path", path).expanduser()
        """The book's file."""
        if not self.path.name:
            raise ArgumentError(f"path must name a file, got {str(path)!r}")
        self._puzzles, self._attempts = self._read()

    # ---------------------------------------------------------------- reading
    @property
    def puzzles(self) -> tuple[Puzzle, ...]:
        """The puzzles, in the order they were added."""
        return tuple(self._puzzles.values())

    @property
    def attempts(self) -> tuple[Attempt, ...]:
        """Every attempt, oldest first."""
        return tuple(self._attempts)

    def __len__(self) -> int:
        return len(self._puzzles)

    def __contains__(self, key: object) -> bool:
        return key in self._puzzles

    def __repr__(self) -> str:
        return f"PuzzleBook({str(self.path)!r})"

    def puzzle(self, key: str) -> Puzzle:
        """The puzzle of ``key``."""
        if not isinstance(key, str) or key not in self._puzzles:
            raise ArgumentError(f"key must be the key of a puzzle in {self}, got {key!r:.80}")
        return self._puzzles[key]

    def solved(self, key: str) -> bool:
        """Whether puzzle ``key`` has been answered right."""
        self.puzzle(key)
        return any(a.key == key and a.right for a in self._attempts)

    def unsolved(self) -> list[Puzzle]:
        """The puzzles not yet answered right, in the order they were added."""
        right = {a.key for a in self._attempts if a.right}
        return [p for key, p in self._puzzles.items() if key not in right]

    def next_puzzle(self, after: str | None = None) -> Puzzle | None:
        """The first puzzle not yet answered right after puzzle ``after`` in the book's
        order (from the first, past the last), ``after`` itself last; None if every
        puzzle has been answered right."""
        keys = list(self._puzzles)
        start = keys.index(after) + 1 if after in self._puzzles else 0
        right = {a.key for a in self._attempts if a.right}
        for key in keys[start:] + keys[:start]:
            if key not in right:
                return self._puzzles[key]
        return None

    # ---------------------------------------------------------------- changing
    def add(self, puzzles: Iterable[Puzzle]) -> list[Puzzle]:
        """Add ``puzzles`` (those of a key not in the book yet), and save; the puzzles
        added, in order."""
        given = items("puzzles", puzzles, lambda name, p: instance(name, p, Puzzle, "a Puzzle"))
        held, attempts = self._current()
        added = []
        for puzzle in given:
            if puzzle.key not in held:
                held[puzzle.key] = puzzle
                added.append(puzzle)
        if added:
            self._save(held, attempts)
        return added

    def attempt(self, key: str, choice: str) -> tuple[bool, str]:
        """Check ``choice`` on puzzle ``key`` (:meth:`Puzzle.check`), record the attempt
        and save; whether it was right, and the feedback."""
        puzzle = self.puzzle(key)
        right, message = puzzle.check(choice)  # (refuses what is not one of its choices)
        self._record(puzzle, " ".join(choice.split()), right)
        return right, message

    def reveal(self, key: str) -> str:
        """The answer of puzzle ``key`` and why, in words; recorded as an attempt not
        answered right (the puzzle comes back), and saved."""
        puzzle = self.puzzle(key)
        self._record(puzzle, None, False)
        return f"The answer: {choice_words(puzzle.answer)}. {puzzle.solution}"

    def _record(self, puzzle: Puzzle, choice: str | None, right: bool) -> None:
        at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        held, attempts = self._current()
        held.setdefault(puzzle.key, puzzle)  # (if another session's save dropped it)
        self._save(held, [*attempts, Attempt(puzzle.key, choice, right, at)])

    # ---------------------------------------------------------------- the file
    def _current(self) -> tuple[dict[str, Puzzle], list[Attempt]]:
        """A copy of the book as its file holds it now (another session may have saved
        since; the book takes it), or as this one holds it if the file is gone."""
        if self.path.exists():
            self._puzzles, self._attempts = self._read()
        return dict(self._puzzles), list(self._attempts)

    def _read(self) -> tuple[dict[str, Puzzle], list[Attempt]]:
        name = str(self.path)
        if self.path.is_dir():
            raise SaveFileError(
                f"puzzle book: {name!r} is a folder: name a file in it, such as "
                f"{str(self.path / 'my-puzzles.json')!r}"
            )
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}, []
        except OSError as error:
            raise SaveFileError(
                f"puzzle book: cannot read {name!r}: {error.strerror or error}"
            ) from None
        except UnicodeDecodeError:
            raise SaveFileError(
                f"puzzle book: {name!r} is not a puzzle book (not text): it is left as it "
                "is; name another file"
            ) from None
        try:
            data = json.loads(text)
        except ValueError as error:
            raise SaveFileError(
                f"puzzle book: {name!r} is not a puzzle book (not JSON: {error}): it is left "
                "as it is; name another file"
            ) from None
        if not isinstance(data, dict) or data.get("format") != BOOK_FORMAT:
            raise SaveFileError(
                f'puzzle book: {name!r} is not a puzzle book (no "format": '
                f'"{BOOK_FORMAT}"): it is left as it is; name another file'
            )
        if data.get("version") != BOOK_VERSION:
            raise SaveFileError(
                f"puzzle book: {name!r} is of version {data.get('version')!r}; this rummykit "
                f"reads version {BOOK_VERSION}"
            )
        try:
            return self._parsed(data)
        except SaveFileError as error:
            raise SaveFileError(f"puzzle book {name!r}: {error}") from None

    @staticmethod
    def _parsed(data: dict) -> tuple[dict[str, Puzzle], list[Attempt]]:
        puzzles, attempts = data.get("puzzles"), data.get("attempts")
        if not isinstance(puzzles, list) or not isinstance(attempts, list):
            raise SaveFileError("its puzzles and attempts must be lists")
        held: dict[str, Puzzle] = {}
        for entry in puzzles:
            puzzle = Puzzle.from_dict(entry)
            if puzzle.key in held:
                raise SaveFileError(f"it holds puzzle {puzzle.key!r} twice")
            held[puzzle.key] = puzzle
        tried = []
        for entry in attempts:
            try:
                attempt = Attempt(**entry)
            except TypeError:
                raise SaveFileError(f"an attempt could not be read: {entry!r:.80}") from None
            puzzle = held.get(attempt.key) if isinstance(attempt.key, str) else None
            if (
                puzzle is None
                or not (attempt.choice is None or attempt.choice in puzzle.choices)
                or attempt.right is not (attempt.choice == puzzle.answer)
                or not isinstance(attempt.at, str)
            ):
                raise SaveFileError(f"an attempt is not one of its puzzles': {entry!r:.80}")
            tried.append(attempt)
        return held, tried

    def _save(self, puzzles: dict[str, Puzzle], attempts: list[Attempt]) -> None:
        """Write the book whole or not at all (see the class notes), then hold it."""
        document = {
            "format": BOOK_FORMAT,
            "version": BOOK_VERSION,
            "puzzles": [p.to_dict() for p in puzzles.values()],
            "attempts": [asdict(a) for a in attempts],
        }
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        scratch = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex[:12]}.partial")
        try:
            with open(scratch, "x", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(scratch, self.path)
        except BaseException as error:
            with contextlib.suppress(OSError):
                scratch.unlink(missing_ok=True)
            if isinstance(error, OSError):
                kept = "the file is as it was" if self.path.exists() else "nothing was written"
                raise OutputError(
                    f"puzzle book: cannot write {str(self.path)!r}: {error.strerror or error}; "
                    f"{kept}"
                ) from None
            raise
        self._puzzles, self._attempts = dict(puzzles), list(attempts)
