"""Self-checking exercises: the reader types an answer and is told right or wrong.

An :class:`Exercise` holds a question and its answer. :meth:`Exercise.check` reads what a
reader typed and returns a :class:`Verdict`; in a notebook or a static book page the
exercise shows a text box and a Check button whose verdict comes from inline JavaScript
(no server, no network), and :class:`rummykit.widgets.ExerciseForm` gives the same as an
ipywidgets form. A generator ``f(seed) -> Exercise`` (:func:`exercise`) makes a variant per
student; the book's generators are listed in :data:`rummykit.teach.EXERCISES`.

>>> from fractions import Fraction
>>> ex = Exercise(
...     key="doc-one-joker",
...     question="What is the chance that one card from 52 cards and 2 jokers is a joker?",
...     answer=Fraction(2, 54),
...     hint="Count the jokers, then every card.",
... )
>>> ex.check("1/27")
Verdict(correct=True, message='Right: 1/27 = 3.70% (1 in 27)', explanation='')
>>> ex.check("3.70%").correct, ex.check("1 in 27").correct, ex.check("0.0370").correct
(True, True, True)
>>> ex.check("0.04")
Verdict(correct=False, message='Nearly: that rounds to the answer, but give at least 3 significant figures.', explanation='')
>>> ex.check("1/26").message
'Not quite. Hint: Count the jokers, then every card.'

How an answer is read (:func:`parse_answer`; the page's JavaScript follows the same rules,
which it receives from :data:`READING_RULES`, and the tests run both on one table):

- Spaces at either end are ignored, runs of spaces count as one, letters may be in either
  case, ``,`` between groups of three digits is a thousands separator (``77,937``).
- A whole number or a fraction of whole numbers (``56``, ``3/47``, ``-2/3``) is exact: it is
  right only when it *equals* the answer.
- A decimal (``0.0638``, ``.0638``, ``6.38e-2``), a percentage (``6.38%``) or a chance as
  ``1 in N`` (``1 in 15.7``; also ``K in N`` and ``K out of N``) is right when it equals
  the answer, or when the answer, written in the same unit (a number, a percentage, the
  N of "K in N"), lies within half a unit of the last digit typed (``0.0638`` covers
  0.06375 to 0.06385) *and* the reader typed at least 3 significant figures. Fewer
  figures that round right get "Nearly" (``0.06`` for 3/47): still not right. A zero
  (``0``, ``0.00``) is right only for an answer of 0.
- An exercise with a ``tolerance`` also accepts any number within that relative distance
  of the answer.
- An answer that is a word (``"yes"``) is compared with the word, case and spaces aside.
- Anything else raises :class:`~rummykit.errors.AnswerError` ("could not read ...").
"""

from __future__ import annotations

import dataclasses
import functools
import html
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType

from rummykit.chance import chance_text
from rummykit.engine.checks import instance, items
from rummykit.errors import AnswerError, ArgumentError, ArgumentTypeError

__all__ = [
    "MIN_SIGNIFICANT",
    "READING_RULES",
    "Exercise",
    "ExerciseSheet",
    "Verdict",
    "answer_text",
    "check_seed",
    "checker_js",
    "exercise",
    "exercise_sheet",
    "markup_html",
    "parse_answer",
    "registry",
]

#: The fewest significant figures a rounded answer must carry to count as right.
MIN_SIGNIFICANT = 3
#: Longer answers are not read (and exponents beyond this are refused): a reader's typo
#: such as ``1e999999`` must not make either checker compute a number of a million digits.
MAX_LENGTH = 100
MAX_EXPONENT = 50

_UNSIGNED = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?"
_FORMS_TEXT = (
    "type a fraction (3/47), a decimal (0.0638), a percentage (6.38%) or 1 in N (1 in 15.7)"
)

#: The one table both checkers read: how text is tidied, the forms of an answer (regular
#: expressions in the syntax Python and JavaScript share), and the verdicts' words. The
#: JavaScript of the page receives it as JSON, so a change here changes both.
READING_RULES: dict = {
    "tidy": [
        [r"\s+", " "],
        ["\u2212", "-"],  # the minus sign a word processor types
        [r"([0-9]),(?=[0-9]{3}(?![0-9]))", "$1"],  # thousands separators
    ],
    "forms": {
        "fraction": r"^(-?[0-9]+) ?/ ?([0-9]+)$",
        "percent": rf"^(-?{_UNSIGNED}) ?%$",
        "one_in": rf"^([0-9]+) (?:in|out of) ({_UNSIGNED})$",
        "number": rf"^(-?{_UNSIGNED})$",
        "word": r"^[a-z][a-z' -]*$",
        "decimal": r"^(-?)([0-9]*)(?:\.([0-9]*))?(?:e([+-]?[0-9]+))?$",
    },
    "min_significant": MIN_SIGNIFICANT,
    "max_length": MAX_LENGTH,
    "max_exponent": MAX_EXPONENT,
    "messages": {
        "empty": f"could not read an empty answer: {_FORMS_TEXT}",
        "unreadable": f"could not read '{{text}}': {_FORMS_TEXT}",
        "zero": "could not read '{text}': it divides by zero",
        "too_long": f"could not read '{{text}}': an answer has at most {MAX_LENGTH} characters"
        f" and exponents at most {MAX_EXPONENT}",
        "nearly": (
            f"Nearly: that rounds to the answer, but give at least {MIN_SIGNIFICANT} "
            "significant figures."
        ),
        "wrong": "Not quite.",
        "wrong_hint": "Not quite. Hint: {hint}",
        "right": "Right: {answer}",
    },
}

_MESSAGES = READING_RULES["messages"]
_KEY = re.compile(r"[a-z0-9][a-z0-9-]*")


def _python_pattern(pattern: str) -> str:
    # JavaScript writes a group in a replacement as $1, Python as \1.
    return re.sub(r"\$([0-9])", r"\\\1", pattern)


_TIDY = [(re.compile(p), _python_pattern(r)) for p, r in READING_RULES["tidy"]]
_FORMS = {name: re.compile(p) for name, p in READING_RULES["forms"].items()}


@dataclasses.dataclass(frozen=True)
class _Approximate:
    """A number typed to some precision: ``mantissa * 10**exponent``, in ``unit``."""

    unit: str  # "value", "percent" or "one_in" (the N of "K in N")
    mantissa: int
    exponent: int
    significant: int
    k: int = 1


@dataclasses.dataclass(frozen=True)
class _Reading:
    value: Fraction | str
    approximate: _Approximate | None = None


def _error(name: str, text: str) -> AnswerError:
    return AnswerError(_MESSAGES[name].replace("{text}", text))


def _decimal(text: str, raw: str, unit: str, k: int = 1) -> tuple[Fraction, _Approximate]:
    sign, whole, fraction, exponent = _FORMS["decimal"].match(text).groups()
    fraction = fraction or ""
    power = int(exponent or 0)
    if abs(power) > MAX_EXPONENT:
        raise _error("too_long", raw)
    digits = (whole or "") + fraction
    mantissa = int(sign + digits)
    scale = power - len(fraction)
    value = Fraction(mantissa) * Fraction(10) ** scale
    return value, _Approximate(unit, mantissa, scale, len(digits.lstrip("0")), k)


def _read(text: str) -> _Reading:
    if not isinstance(text, str):
        raise AnswerError(f"could not read {text!r}: an answer is text, such as '3/47'")
    raw = text.strip()
    if not raw:
        raise _error("empty", raw)
    if len(raw) > MAX_LENGTH:
        raise _error("too_long", raw[:MAX_LENGTH] + "...")
    tidy = raw.lower()
    for pattern, replacement in _TIDY:
        tidy = pattern.sub(replacement, tidy)
    if match := _FORMS["fraction"].match(tidy):
        numerator, denominator = (int(group) for group in match.groups())
        if denominator == 0:
            raise _error("zero", raw)
        return _Reading(Fraction(numerator, denominator))
    if match := _FORMS["percent"].match(tidy):
        value, approximate = _decimal(match.group(1), raw, "percent")
        return _Reading(value / 100, approximate)
    if match := _FORMS["one_in"].match(tidy):
        k = int(match.group(1))
        n, approximate = _decimal(match.group(2), raw, "one_in", k)
        if n == 0:
            raise _error("zero", raw)
        return _Reading(k / n, approximate)
    if match := _FORMS["number"].match(tidy):
        return _Reading(*_decimal(match.group(1), raw, "value"))
    if _FORMS["word"].match(tidy):
        return _Reading(tidy)
    raise _error("unreadable", raw)


def parse_answer(text: str) -> Fraction | str:
    """What a reader typed, as an exact number, or as a tidied word.

    >>> parse_answer("3/47"), parse_answer(" 0.25 "), parse_answer("25%"), parse_answer("1 in 4")
    (Fraction(3, 47), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4))
    >>> parse_answer(" 12 "), parse_answer("77,937"), parse_answer("6.38e-2")
    (Fraction(12, 1), Fraction(77937, 1), Fraction(319, 5000))
    >>> parse_answer("  Two   Pairs ")
    'two pairs'
    >>> parse_answer("3/0")
    Traceback (most recent call last):
        ...
    rummykit.errors.AnswerError: could not read '3/0': it divides by zero
    >>> parse_answer("0,5")
    Traceback (most recent call last):
        ...
    rummykit.errors.AnswerError: could not read '0,5': type a fraction (3/47), a decimal (0.0638), a percentage (6.38%) or 1 in N (1 in 15.7)
    """
    return _read(text).value


def _as_fraction(value: int | Fraction | float, name: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        raise ArgumentTypeError(f"{name} must be an int, a Fraction or a float, got {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ArgumentError(f"{name} must be a finite number, got {value!r}")
        # The shortest decimal that is the float: 0.1 means 1/10, as the reader would type.
        return Fraction(repr(value))
    return Fraction(value)


def _figures(x: Fraction, figures: int) -> str:
    """``x`` (positive) to ``figures`` significant figures, with thousands separators (a
    whole number as it is)."""
    if x.denominator == 1:
        return f"{x.numerator:,}"
    decimals = max(0, figures - 1 - math.floor(math.log10(x)))
    return f"{float(x):,.{decimals}f}"


def answer_text(answer: int | Fraction | float | str, *, chance: bool = True) -> str:
    """The answer as the verdict shows it: exact, and readable beside it (a ``chance``
    between 0 and 1 in :func:`rummykit.chance.chance_text`'s words to three figures,
    other numbers to 4 significant figures; a float, itself not exact, to 4 significant
    figures alone).

    >>> answer_text(Fraction(3, 47)), answer_text(Fraction(49909, 153117))
    ('3/47 = 6.38% (1 in 15.7)', '49909/153117 = 32.6%')
    >>> answer_text(Fraction(1, 425)), answer_text(Fraction(0), chance=True)
    ('1/425 = 1 in 425', '0')
    >>> answer_text(Fraction(331, 1000), chance=False), answer_text(3.0822070014844885)
    ('331/1000 (0.3310)', '3.082')
    >>> answer_text(77937), answer_text(Fraction(342, 25)), answer_text(0.25), answer_text("yes")
    ('77,937', '342/25 (13.68)', '0.25', 'yes')
    """
    if isinstance(answer, str):
        return answer
    instance("chance", chance, bool, "True or False")
    if isinstance(answer, float):
        value = _as_fraction(answer, "answer")
        if value == 0 or len(repr(abs(answer)).replace(".", "").strip("0")) <= 4:
            return repr(answer)
        return ("-" if answer < 0 else "") + _figures(abs(value), 4)
    value = _as_fraction(answer, "answer")
    if value.denominator == 1:
        return f"{value.numerator:,}"
    size = abs(value)
    if chance and 0 < value < 1:
        return f"{value} = {chance_text(value, digits=3)}"
    return f"{value} ({'-' if value < 0 else ''}{_figures(size, 4)})"


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a checker says of one answer."""

    correct: bool
    """Whether the answer is right."""
    message: str
    """``"Right: ..."``, ``"Nearly: ..."`` or ``"Not quite. Hint: ..."``."""
    explanation: str = ""
    """The exercise's explanation, given with a right answer."""


def _within_half_unit(approximate: _Approximate, target: Fraction) -> bool:
    unit = Fraction(10) ** approximate.exponent
    return 2 * abs(approximate.mantissa * unit - target) <= unit


@dataclasses.dataclass(frozen=True)
class Exercise:
    """A question, its answer and how to help a reader who is wrong.

    ``answer`` is exact (an int or a Fraction), a float (read as its shortest decimal), or
    a word (a str; a str holding a number such as ``"3/47"`` is that number). ``tolerance``
    is a relative distance also accepted (for answers that are not exact); ``seed`` is the
    variant's seed, set by the :func:`exercise` generator.
    """

    key: str
    """A unique id of lowercase letters, digits and ``-``: the page's element ids use it."""
    question: str
    """Plain text; ``**bold**`` and ```code``` are shown as such, a blank line parts
    paragraphs."""
    answer: int | Fraction | float | str
    """The right answer."""
    hint: str = ""
    """Shown when the reader is wrong."""
    explanation: str = ""
    """Shown when the reader is right."""
    tolerance: float = 0.0
    """A relative tolerance: numbers within ``tolerance * |answer|`` are right too."""
    seed: int | None = None
    """The seed of the variant (0 is the book's numbers); None for an exercise not made by
    a generator."""
    chance: bool = True
    """Whether the answer is a probability: the verdict then shows one between 0 and 1 as
    "1 in N" or a percentage, as it shows other numbers to 4 significant figures."""

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not _KEY.fullmatch(self.key):
            raise ArgumentError(f"key must be lowercase letters, digits and '-', got {self.key!r}")
        for name in ("question", "hint", "explanation"):
            if not isinstance(getattr(self, name), str):
                raise ArgumentTypeError(f"{name} must be a str, got {getattr(self, name)!r}")
        if not self.question.strip():
            raise ArgumentError(f"exercise {self.key}: the question is empty")
        tolerance = _as_fraction(self.tolerance, "tolerance")
        if tolerance < 0:
            raise ArgumentError(f"tolerance must be 0 or more, got {self.tolerance!r}")
        check_seed(self.seed, allow_none=True)
        instance("chance", self.chance, bool, "True or False")
        if isinstance(self.answer, str):
            try:
                _read(self.answer)
            except AnswerError as error:
                raise ArgumentError(f"exercise {self.key}: the answer: {error}") from None
        else:
            _as_fraction(self.answer, "answer")

    @functools.cached_property
    def _value(self) -> Fraction | str:
        if isinstance(self.answer, str):
            return _read(self.answer).value
        return _as_fraction(self.answer, "answer")

    @property
    def answer_text(self) -> str:
        """The answer as a right verdict shows it, e.g. ``"3/47 = 6.38% (1 in 15.7)"``."""
        return answer_text(self.answer, chance=self.chance)

    def _verdict(self, kind: str) -> Verdict:
        if kind == "right":
            message = _MESSAGES["right"].replace("{answer}", self.answer_text)
            return Verdict(True, message, self.explanation)
        if kind == "wrong" and self.hint:
            return Verdict(False, _MESSAGES["wrong_hint"].replace("{hint}", self.hint))
        return Verdict(False, _MESSAGES[kind])

    def check(self, text: str) -> Verdict:
        """The verdict on ``text``, typed by a reader; raises AnswerError when it cannot
        be read (the page says the same: "could not read ...")."""
        reading = _read(text)
        answer = self._value
        if isinstance(answer, str) or isinstance(reading.value, str):
            if isinstance(answer, Fraction):
                raise _error("unreadable", text.strip())
            return self._verdict("right" if reading.value == answer else "wrong")
        if reading.value == answer:
            return self._verdict("right")
        tolerance = _as_fraction(self.tolerance, "tolerance")
        if tolerance and abs(reading.value - answer) <= tolerance * abs(answer):
            return self._verdict("right")
        approximate = reading.approximate
        # A typed zero (0, 0.00) claims no figure: it is wrong, never "Nearly".
        if approximate is not None and approximate.significant > 0:
            if approximate.unit == "value":
                target = answer
            elif approximate.unit == "percent":
                target = 100 * answer
            else:
                target = approximate.k / answer if answer > 0 else None
            if target is not None and _within_half_unit(approximate, target):
                if approximate.significant >= MIN_SIGNIFICANT:
                    return self._verdict("right")
                return self._verdict("nearly")
        return self._verdict("wrong")

    def _checker_data(self) -> dict:
        data = {
            "right": self._verdict("right").message,
            "wrong": self._verdict("wrong").message,
        }
        if isinstance(self._value, str):
            data["word"] = self._value
        else:
            tolerance = _as_fraction(self.tolerance, "tolerance")
            data["answer"] = [str(self._value.numerator), str(self._value.denominator)]
            data["tolerance"] = [str(tolerance.numerator), str(tolerance.denominator)]
        return data

    @property
    def element_id(self) -> str:
        """The id of the exercise's element on a page: its key and its seed."""
        return self.key if self.seed is None else f"{self.key}-seed-{self.seed}"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        # What a notebook shows as text (and a page without HTML): the question, never
        # the answer, which the dataclass repr spells out.
        seed = "" if self.seed is None else f", seed {self.seed}"
        printer.text(f"Exercise {self.key}{seed}: {self.question}")

    def _repr_html_(self) -> str:
        data = html.escape(json.dumps(self._checker_data()), quote=True)
        box = f"{self.element_id}-answer"
        seed = "" if self.seed is None else f", seed {self.seed}"
        explanation = ""
        if self.explanation:
            explanation = (
                f'<div class="rk-explanation" hidden>{markup_html(self.explanation)}</div>'
            )
        return (
            f'<div class="rk-exercise" id="{self.element_id}" data-exercise="{data}" '
            'style="border-left:3px solid #4a6fa5;padding:.2em .8em;margin:.8em 0">'
            f"<script>{_page_script()}</script>"
            f'<div class="rk-question">{markup_html(self.question)}</div>'
            f'<label for="{box}">Your answer: </label>'
            f'<input type="text" id="{box}" class="rk-answer" size="32" autocomplete="off" '
            f'placeholder="{self._placeholder}" '
            "onkeydown=\"if (event.key === 'Enter') rummykitCheck(this)\"> "
            '<button type="button" class="rk-check" onclick="rummykitCheck(this)">'
            "Check</button>"
            '<p class="rk-verdict" role="status" aria-live="polite" style="min-height:1.2em">'
            "</p>"
            f"{explanation}"
            f'<p class="rk-variant" style="font-size:80%;color:#555">Exercise {self.key}'
            f"{seed}</p></div>"
        )

    @property
    def _placeholder(self) -> str:
        """What the answer box suggests: a chance's forms for a chance, a number's for a
        count or a mean (issue 50 item 10: a count's box suggested "1 in 15.7")."""
        if isinstance(self._value, str):
            return "a word"
        if self.chance and 0 <= self._value <= 1:
            return "e.g. 3/47, 0.0638, 6.38% or 1 in 15.7"
        return "a whole number, a fraction or a decimal"

    def __str__(self) -> str:
        seed = "" if self.seed is None else f" (seed {self.seed})"
        return f"Exercise {self.key}{seed}: {self.question}"


def markup_html(text: str) -> str:
    """Light markdown as HTML: paragraphs, ``**bold**``, ``*italic*`` and ```code```
    (an exercise's question and explanation, on a page and in
    :class:`~rummykit.widgets.ExerciseForm`).

    >>> markup_html("Find **P(X >= 3)** for `cards=10`.")
    '<p>Find <strong>P(X &gt;= 3)</strong> for <code>cards=10</code>.</p>'
    """
    instance("text", text, str, "a str")
    paragraphs = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        part = html.escape(paragraph)
        part = re.sub(r"`([^`]+)`", r"<code>\1</code>", part)
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"(?<![*\w])\*([^*]+)\*(?!\*)", r"<em>\1</em>", part)
        paragraphs.append(f"<p>{part}</p>")
    return "".join(paragraphs)


# The checker in the page. It mirrors Exercise.check step by step, with exact arithmetic
# on BigInt fractions [numerator, denominator > 0], so that rounding decides alike.
_CHECKER_CORE = r"""
function rkFrac(n, d) { return [BigInt(n), BigInt(d)]; }
function rkSub(a, b) { return [a[0] * b[1] - b[0] * a[1], a[1] * b[1]]; }
function rkMul(a, b) { return [a[0] * b[0], a[1] * b[1]]; }
function rkAbs(a) { return [a[0] < 0n ? -a[0] : a[0], a[1]]; }
function rkLe(a, b) { return a[0] * b[1] <= b[0] * a[1]; }
function rkEq(a, b) { return a[0] * b[1] === b[0] * a[1]; }
function rkPow10(e) { return e >= 0 ? [10n ** BigInt(e), 1n] : [1n, 10n ** BigInt(-e)]; }

function rkError(name, text) {
  // A function, so that "$&" in what the reader typed is not a replacement pattern.
  return {error: RK_RULES.messages[name].replace("{text}", () => text)};
}

function rkDecimal(text, raw, unit, k) {
  const m = new RegExp(RK_RULES.forms.decimal).exec(text);
  const fraction = m[3] || "";
  const power = parseInt(m[4] || "0", 10);
  if (Math.abs(power) > RK_RULES.max_exponent) return rkError("too_long", raw);
  const digits = (m[2] || "") + fraction;
  const mantissa = BigInt(m[1] + (digits === "" ? "0" : digits));
  const scale = power - fraction.length;
  const significant = digits.replace(/^0+/, "").length;
  return {value: rkMul([mantissa, 1n], rkPow10(scale)),
          approximate: {unit: unit, mantissa: mantissa, exponent: scale,
                        significant: significant, k: k}};
}

function rkRead(text) {
  const raw = text.trim();
  if (raw === "") return rkError("empty", raw);
  if (raw.length > RK_RULES.max_length)
    return rkError("too_long", raw.slice(0, RK_RULES.max_length) + "...");
  let tidy = raw.toLowerCase();
  for (const [pattern, replacement] of RK_RULES.tidy)
    tidy = tidy.replace(new RegExp(pattern, "g"), replacement);
  const forms = RK_RULES.forms;
  let m = new RegExp(forms.fraction).exec(tidy);
  if (m) {
    if (BigInt(m[2]) === 0n) return rkError("zero", raw);
    return {value: rkFrac(m[1], m[2]), approximate: null};
  }
  m = new RegExp(forms.percent).exec(tidy);
  if (m) {
    const r = rkDecimal(m[1], raw, "percent", 1n);
    if (r.error) return r;
    return {value: rkMul(r.value, [1n, 100n]), approximate: r.approximate};
  }
  m = new RegExp(forms.one_in).exec(tidy);
  if (m) {
    const k = BigInt(m[1]);
    const r = rkDecimal(m[2], raw, "one_in", k);
    if (r.error) return r;
    if (r.value[0] === 0n) return rkError("zero", raw);
    return {value: [k * r.value[1], r.value[0]], approximate: r.approximate};
  }
  m = new RegExp(forms.number).exec(tidy);
  if (m) return rkDecimal(m[1], raw, "value", 1n);
  if (new RegExp(forms.word).exec(tidy)) return {word: tidy};
  return rkError("unreadable", raw);
}

// {correct, message, error}: error is true when the answer could not be read.
function rkVerdict(text, data) {
  const right = {correct: true, message: data.right, error: false};
  const wrong = {correct: false, message: data.wrong, error: false};
  const reading = rkRead(text);
  if (reading.error) return {correct: false, message: reading.error, error: true};
  if (data.word !== undefined || reading.word !== undefined) {
    if (data.word === undefined) {
      const e = rkError("unreadable", text.trim());
      return {correct: false, message: e.error, error: true};
    }
    return reading.word === data.word ? right : wrong;
  }
  const answer = rkFrac(data.answer[0], data.answer[1]);
  const tolerance = rkFrac(data.tolerance[0], data.tolerance[1]);
  if (rkEq(reading.value, answer)) return right;
  if (tolerance[0] !== 0n &&
      rkLe(rkAbs(rkSub(reading.value, answer)), rkMul(tolerance, rkAbs(answer)))) return right;
  const a = reading.approximate;
  if (a && a.significant > 0) {
    let target = null;
    if (a.unit === "value") target = answer;
    else if (a.unit === "percent") target = rkMul(answer, [100n, 1n]);
    else if (answer[0] > 0n) target = [a.k * answer[1], answer[0]];
    if (target !== null) {
      const unit = rkPow10(a.exponent);
      const gap = rkAbs(rkSub(rkMul([a.mantissa, 1n], unit), target));
      if (rkLe(rkMul(gap, [2n, 1n]), unit)) {
        if (a.significant >= RK_RULES.min_significant) return right;
        return {correct: false, message: RK_RULES.messages.nearly, error: false, nearly: true};
      }
    }
  }
  return wrong;
}
"""

# Wires the checker to an exercise's elements; defined once per page, however many
# exercises it holds (each output carries the script, since each may be shown alone).
_CHECKER_PAGE = r"""
window.rummykitCheck = function (element) {
  const box = element.closest(".rk-exercise");
  const data = JSON.parse(box.dataset.exercise);
  const verdict = rkVerdict(box.querySelector(".rk-answer").value, data);
  const line = box.querySelector(".rk-verdict");
  line.textContent = verdict.message;
  const kind = verdict.correct ? "right"
    : (verdict.error ? "unread" : (verdict.nearly ? "nearly" : "wrong"));
  line.dataset.verdict = kind;
  // Colours on white at least 4.5:1; "Nearly" and unreadable input in amber.
  line.style.color = {right: "#1a7f37", wrong: "#b42318"}[kind] || "#8a4b00";
  const explanation = box.querySelector(".rk-explanation");
  if (explanation) explanation.hidden = !verdict.correct;
};
"""


def checker_js() -> str:
    """The page's checker without the page: ``rkRead(text)`` and ``rkVerdict(text, data)``
    with :data:`READING_RULES` as ``RK_RULES`` (for tests that run it in node)."""
    return f"const RK_RULES = {_rules_json()};\n{_CHECKER_CORE}"


@functools.cache
def _rules_json() -> str:
    # "<" escaped: the JSON sits inside a <script> element of the page.
    return json.dumps(READING_RULES).replace("<", "\\u003c")


@functools.cache
def _page_script() -> str:
    return f"if (!window.rummykitCheck) {{ (function () {{{checker_js()}{_CHECKER_PAGE}}})(); }}"


def check_seed(seed: object, *, allow_none: bool = False) -> None:
    """Refuse a seed that is not a whole number from 0 (or None, if ``allow_none``)."""
    instance("allow_none", allow_none, bool, "True or False")
    if seed is None and allow_none:
        return
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentTypeError(f"seed must be an int, got {seed!r}")
    if seed < 0:
        raise ArgumentError(f"seed must be 0 or more, got {seed}")


#: A generator of exercise variants: ``generator(seed) -> Exercise``, its key in ``.key``.
Generator = Callable[[int], Exercise]


def exercise(key: str) -> Callable[[Callable[[int], Exercise]], Generator]:
    """Make ``f(seed) -> Exercise`` the generator ``key``: the generator checks the seed,
    checks that the exercise carries the key, gives it the seed and has the key as
    ``.key``. Nothing is registered: a registry is an explicit list (:func:`registry`).

    >>> @exercise("doc-jokers-in-a-deck")
    ... def jokers(seed: int) -> Exercise:
    ...     jokers = 2 + seed % 3
    ...     return Exercise("doc-jokers-in-a-deck", f"Cards in 1 deck and {jokers} jokers?",
    ...                     answer=52 + jokers)
    >>> jokers(4)
    Exercise(key='doc-jokers-in-a-deck', question='Cards in 1 deck and 3 jokers?', answer=55, hint='', explanation='', tolerance=0.0, seed=4, chance=True)
    >>> jokers.key
    'doc-jokers-in-a-deck'
    """
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise ArgumentError(f"key must be lowercase letters, digits and '-', got {key!r}")

    def wrap(generator: Callable[[int], Exercise]) -> Generator:
        @functools.wraps(generator)
        def variant(seed: int) -> Exercise:
            check_seed(seed)
            made = generator(seed)
            if not isinstance(made, Exercise) or made.key != key:
                raise ArgumentError(
                    f"generator {key!r} must return an Exercise with key {key!r}, got {made!r}"
                )
            return dataclasses.replace(made, seed=seed)

        variant.key = key
        return variant

    return wrap


def registry(generators: Iterable[Generator]) -> Mapping[str, Generator]:
    """The generators made by :func:`exercise`, by key, in their order, read-only.

    >>> @exercise("doc-two")
    ... def two(seed: int) -> Exercise:
    ...     return Exercise("doc-two", "One plus one?", answer=2)
    >>> book = registry([two])
    >>> list(book), book["doc-two"](7).seed
    (['doc-two'], 7)
    >>> registry([two, two])
    Traceback (most recent call last):
    ...
    rummykit.errors.ArgumentError: two exercise generators have the key 'doc-two'
    """
    found: dict[str, Generator] = {}
    for generator in items("generators", generators, what="a list of exercise generators"):
        key = getattr(generator, "key", None)
        if not callable(generator) or not isinstance(key, str):
            raise ArgumentTypeError(
                f"a registry holds generators made by exercise(key), got {generator!r}"
            )
        if key in found:
            raise ArgumentError(f"two exercise generators have the key {key!r}")
        found[key] = generator
    return MappingProxyType(found)


@dataclasses.dataclass(frozen=True)
class ExerciseSheet:
    """Every exercise for one seed: a student's sheet, and the teacher's answer key."""

    seed: int
    exercises: tuple[Exercise, ...]

    def answer_key(self) -> dict[str, str]:
        """``{key: answer}`` as the verdicts show the answers."""
        return {ex.key: ex.answer_text for ex in self.exercises}

    def answer_key_html(self) -> str:
        """The answer key as an HTML table: key, question, answer."""
        rows = "".join(
            f"<tr><td>{html.escape(ex.key)}</td><td>{markup_html(ex.question)}</td>"
            f"<td>{html.escape(ex.answer_text)}</td></tr>"
            for ex in self.exercises
        )
        return (
            f"<table><caption>Answers for seed {self.seed}</caption>"
            f"<thead><tr><th>Exercise</th><th>Question</th><th>Answer</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    def _repr_html_(self) -> str:
        body = "".join(ex._repr_html_() for ex in self.exercises)
        return f"<h3>Exercises for seed {self.seed}</h3>{body}"


def exercise_sheet(
    seed: int, generators: Mapping[str, Generator], keys: Iterable[str] | None = None
) -> ExerciseSheet:
    """The exercises of ``generators`` (a :func:`registry`; or those of ``keys``) in the
    variant of ``seed``.

    >>> @exercise("doc-three")
    ... def three(seed: int) -> Exercise:
    ...     return Exercise("doc-three", "One plus two?", answer=3)
    >>> sheet = exercise_sheet(3, registry([three]))
    >>> sheet.answer_key(), sheet.exercises[0].seed
    ({'doc-three': '3'}, 3)
    """
    check_seed(seed)
    instance("generators", generators, Mapping, "a registry of exercise generators")
    if keys is None:
        chosen = list(generators)
    else:
        what = "a list of exercise keys"
        chosen = items("keys", keys, lambda name, key: instance(name, key, str, "a key"), what=what)
    unknown = [key for key in chosen if key not in generators]
    if unknown:
        raise ArgumentError(f"no exercise registered as {unknown}; known: {sorted(generators)}")
    return ExerciseSheet(seed, tuple(generators[key](seed) for key in chosen))
