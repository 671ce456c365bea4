"""ExerciseForm: an exercise as an ipywidgets form, for a live notebook."""

from __future__ import annotations

from rummykit.errors import AnswerError
from rummykit.exercises import Exercise, Verdict, markup_html
from rummykit.widgets._common import ipywidgets, message_html

__all__ = ["ExerciseForm"]


class ExerciseForm:
    """The question, a text box, a Check button and the verdict of
    :meth:`Exercise.check <rummykit.exercises.Exercise.check>`.

    >>> from fractions import Fraction
    >>> form = ExerciseForm(Exercise("doc-half", "Chance of heads?", Fraction(1, 2)))
    >>> form.answer.value = "50%"
    >>> form.check_button.click()
    >>> form.verdict
    'Right: 1/2 = 50.0%'
    >>> form.answer.value = "half a chance"
    >>> form.check_button.click()
    >>> form.verdict
    "could not read 'half a chance': type a fraction (3/47), a decimal (0.0638), a percentage (6.38%) or 1 in N (1 in 15.7)"
    """

    def __init__(self, exercise: Exercise) -> None:
        self.exercise = exercise
        self.result: Verdict | None = None
        """The last verdict (None before the first check and after unreadable input)."""
        self.verdict = ""
        """The verdict line's text."""
        self.question_html = ipywidgets.HTML(markup_html(exercise.question))
        self.answer = ipywidgets.Text(
            description="Answer",
            placeholder="e.g. 3/47, 0.0638, 6.38% or 1 in 15.7",
            continuous_update=False,
        )
        self.check_button = ipywidgets.Button(
            description="Check", button_style="primary", tooltip="check the answer"
        )
        self.verdict_html = ipywidgets.HTML()
        self.check_button.on_click(lambda _: self.check())
        seed = "" if exercise.seed is None else f", seed {exercise.seed}"
        self.box = ipywidgets.VBox(
            [
                self.question_html,
                ipywidgets.HBox([self.answer, self.check_button]),
                self.verdict_html,
                ipywidgets.HTML(message_html(f"Exercise {exercise.key}{seed}")),
            ]
        )
        self.box.add_class("rk-exercise-form")

    def check(self) -> Verdict | None:
        """Check the text in the box and show the verdict (or why it cannot be read)."""
        try:
            self.result = self.exercise.check(self.answer.value)
        except AnswerError as error:
            self.result = None
            self.verdict = str(error)
            self.verdict_html.value = message_html(self.verdict, "error")
            return None
        self.verdict = self.result.message
        tone = "ok" if self.result.correct else "info"
        text = message_html(self.verdict, tone)
        if self.result.correct and self.result.explanation:
            text += f"<div>{markup_html(self.result.explanation)}</div>"
        self.verdict_html.value = text
        return self.result

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
