"""RetryPanel: a learner's own mistakes as puzzles to try again, in the review panel.

**Keep my mistakes as puzzles** makes a puzzle of each decision of the review on screen
classed a mistake or a blunder (:func:`rummykit.evaluate.puzzles.from_review`: the position as the
seat saw it, the review's best as the answer, the review's values and sentences) and adds
them to the puzzle book in the file the learner names
(:class:`rummykit.evaluate.puzzle_book.PuzzleBook`; a position already there is not added again).
The file box starts empty and nothing is written until a file is named: a notebook's
folder may be shared or read-only, and a learner should know where their puzzles are.

**Next puzzle** shows the next puzzle of the book not yet answered right (in the order
kept, after the one on screen, wrapping): the position (:meth:`Puzzle.position_html`:
the situation, the hand, the discard pile's top, the melds) and its choices, listed in
the hand's order so that the list gives nothing away (the puzzle keeps its answer first).
**Try again** checks the choice picked: "Right." and why, or the review's sentence for
that choice; **Show me** gives the answer and why, and Try again stays off until the next
puzzle. Each try and each Show me is recorded in the book, with its time, so a puzzle
shown comes back until it is answered right.

Everything here reads or writes one small JSON file and takes milliseconds, so it runs
in the buttons' handlers, not in a thread. A file that cannot be read or written, or is
not a puzzle book, is a message in the panel, and changes nothing.

>>> import tempfile, pathlib
>>> from rummykit.evaluate.puzzles import load
>>> folder = tempfile.TemporaryDirectory()
>>> panel = RetryPanel(lambda: None)
>>> panel.keep_button.click()
>>> "Name a file" in panel.book_html.value
True
>>> panel.book_text.value = str(pathlib.Path(folder.name) / "mine.json")
>>> panel.keep_button.click()
>>> "Review your play first" in panel.book_html.value
True
>>> folder.cleanup()
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.errors import ArgumentTypeError, RummyError
from rummykit.evaluate.puzzle_book import PuzzleBook
from rummykit.evaluate.puzzles import MISTAKE_CLASSES, Puzzle, choice_words, from_review
from rummykit.evaluate.reviews import Review
from rummykit.widgets._common import ipywidgets, message_html

__all__ = ["RetryPanel", "shown_order"]


def shown_order(puzzle: Puzzle) -> list[str]:
    """The puzzle's choices as the retry area lists them: by the place in the hand of the
    first card each names (those naming none, such as "draw stock", last), then by text;
    never the answer first for being the answer.

    >>> from rummykit.evaluate.puzzles import load
    >>> puzzle = next(p for p in load() if p.kind == "discard")
    >>> sorted(shown_order(puzzle)) == sorted(puzzle.choices)
    True
    """
    hand = list(puzzle.hand)

    def place(choice: str) -> tuple[int, str]:
        first = next((hand.index(word) for word in choice.split() if word in hand), len(hand))
        return first, choice

    return sorted(puzzle.choices, key=place)


class RetryPanel:
    """The learner's mistakes as puzzles (see the module notes), from the review that
    ``source()`` returns (None before one)."""

    def __init__(self, source: Callable[[], Review | None]) -> None:
        if not callable(source):
            raise ArgumentTypeError(
                f"source must be a callable returning the review, got {source!r}"
            )
        self.source = source
        self.book: PuzzleBook | None = None
        """The book of the puzzle on screen, or None."""
        self.puzzle: Puzzle | None = None
        """The puzzle on screen, or None."""

        self.book_text = ipywidgets.Text(
            value="",
            description="Puzzle file",
            placeholder="my-puzzles.json",
            tooltip="the file your puzzles are kept in (JSON), read again each session",
            layout={"width": "60%"},
        )
        self.keep_button = ipywidgets.Button(
            description="Keep my mistakes as puzzles",
            tooltip="add each decision of this review classed a mistake or a blunder to "
            "the puzzle file, to try again later",
            icon="bookmark",
            # Its own width, never squeezed by the file box beside it (its label was cut).
            layout={"width": "auto", "flex": "0 0 auto"},
        )
        self.next_button = ipywidgets.Button(
            description="Next puzzle",
            tooltip="a puzzle of the file you have not answered right yet",
            icon="puzzle-piece",
        )
        self.book_html = ipywidgets.HTML()
        """What was kept, and how many puzzles the file holds; or what went wrong."""
        self.puzzle_html = ipywidgets.HTML()
        """The puzzle on screen: its question and position."""
        self.choices = ipywidgets.RadioButtons(options=[], value=None, layout={"width": "95%"})
        self.choices.layout.display = "none"
        self.try_button = ipywidgets.Button(
            description="Try again",
            tooltip="check the choice you picked",
            disabled=True,
        )
        self.show_button = ipywidgets.Button(
            description="Show me",
            tooltip="the answer and why (the puzzle comes back until you answer it right)",
            disabled=True,
        )
        self.verdict_html = ipywidgets.HTML()
        """The feedback on the choice tried, or the answer shown."""
        self.keep_button.on_click(lambda _: self.keep())
        self.next_button.on_click(lambda _: self.next_puzzle())
        self.try_button.on_click(lambda _: self.try_again())
        self.show_button.on_click(lambda _: self.show_me())
        heading = ipywidgets.HTML(
            "<strong>Learn from your mistakes</strong>: keep the positions of this review's "
            "mistakes and blunders as puzzles in a file you name, and try them again, "
            "today or another day."
        )
        self.box = ipywidgets.VBox(
            [
                heading,
                ipywidgets.HBox(
                    [self.book_text, self.keep_button, self.next_button],
                    layout={"flex_flow": "row wrap"},
                ),
                self.book_html,
                self.puzzle_html,
                self.choices,
                ipywidgets.HBox([self.try_button, self.show_button]),
                self.verdict_html,
            ]
        )
        self.box.add_class("rk-retry")

    # ------------------------------------------------------------------ acting
    def keep(self) -> list[Puzzle]:
        """Add the review's mistakes and blunders to the book named; the puzzles added."""
        review = self.source()
        book = self._open()
        if book is None:
            return []
        if review is None:
            self._say("Review your play first: the review's mistakes become the puzzles.", "info")
            return []
        found = from_review(review, kinds=MISTAKE_CLASSES)
        if not found:
            self._say(
                "No decision of this review is a mistake or a blunder: nothing to keep.",
                "info",
            )
            return []
        try:
            added = book.add(found)
        except RummyError as error:
            self._say(str(error))
            return []
        again = len(found) - len(added)
        already = f" ({again} already there)" if again else ""
        where = book.path.absolute()
        self._say(
            f"Kept {_count(len(added), 'new puzzle')}{already} in {where}: {self._tally(book)}",
            "ok",
        )
        return added

    def next_puzzle(self) -> Puzzle | None:
        """Show the next puzzle of the book named not yet answered right; None, and a
        message, if there is none."""
        book = self._open()
        if book is None:
            return None
        after = self.puzzle.key if self.puzzle is not None and self._same(book) else None
        puzzle = book.next_puzzle(after)
        self.book = book
        self._show(puzzle)
        if puzzle is None:
            where = book.path.absolute()
            self._say(
                f"No puzzle in {where} yet: review your play, then keep your mistakes."
                if len(book) == 0
                else f"You have answered every puzzle in {where} right.",
                "info",
            )
            return None
        self._say(self._tally(book), "info")
        return puzzle

    def try_again(self) -> bool | None:
        """Check the choice picked on the puzzle on screen, and record it; whether it was
        right (None if nothing was checked)."""
        if self.puzzle is None or self.book is None:
            return None
        if self.choices.value is None:
            self.verdict_html.value = message_html("Pick one of the choices first.", "error")
            return None
        try:
            right, message = self.book.attempt(self.puzzle.key, self.choices.value)
        except RummyError as error:
            self.verdict_html.value = message_html(str(error), "error")
            return None
        self.verdict_html.value = message_html(message, "ok" if right else "error")
        self._say(self._tally(self.book), "info")
        return right

    def show_me(self) -> str | None:
        """Show the answer of the puzzle on screen and why, and record it; the words shown."""
        if self.puzzle is None or self.book is None:
            return None
        try:
            words = self.book.reveal(self.puzzle.key)
        except RummyError as error:
            self.verdict_html.value = message_html(str(error), "error")
            return None
        self.choices.value = self.puzzle.answer
        self.try_button.disabled = True  # the answer is on screen: a try would count nothing
        self.verdict_html.value = message_html(words, "info")
        return words

    # ------------------------------------------------------------------ helpers
    def _open(self) -> PuzzleBook | None:
        """The book of the file named, read now; None, and a message, if there is none."""
        name = self.book_text.value.strip()
        if not name:
            self._say(
                "Name a file for your puzzles first, such as my-puzzles.json: nothing is "
                "written until you do."
            )
            return None
        try:
            return PuzzleBook(name)
        except RummyError as error:
            self._say(str(error))
            return None

    def _same(self, book: PuzzleBook) -> bool:
        return self.book is not None and self.book.path == book.path

    def _show(self, puzzle: Puzzle | None) -> None:
        self.puzzle = puzzle
        self.verdict_html.value = ""
        if puzzle is None:
            self.puzzle_html.value = ""
            self.choices.options = []
            self.choices.layout.display = "none"
            self.try_button.disabled = self.show_button.disabled = True
            return
        self.puzzle_html.value = puzzle.position_html()
        self.choices.options = [(choice_words(c), c) for c in shown_order(puzzle)]
        self.choices.value = None
        self.choices.layout.display = None
        self.try_button.disabled = self.show_button.disabled = False

    @staticmethod
    def _tally(book: PuzzleBook) -> str:
        left = len(book.unsolved())
        return f"{_count(len(book), 'puzzle')} in {book.path.name}, {left} not yet answered right."

    def _say(self, text: str, tone: str = "error") -> None:
        self.book_html.value = message_html(text, tone)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
