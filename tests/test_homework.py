"""The checks every graded assignment passes, once for each assignment of
rummykit.teach.homework.ASSIGNMENTS and each of its autograded questions: the registry
against the master notebook, 500 numbers and answers per question, the keys' mistakes and
words, the master's solutions against the key, no single library call that gives an answer,
the student's own check; and, on the four assignments built as a teacher builds them, no
answer and no solution in anything a student gets, and no callable of the package that
returns an answer.

What is particular to one assignment (each key against an independent method: listing the
hands of small shoes, a second derivation, the simulation run again, the packaged table
against data/outs_bot.csv) is in tests/test_homework_hwN.py."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import io
import itertools
import json
import random
import re
import subprocess
import sys
import time
import zipfile
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

import rummykit.odds
import rummykit.teach.probability
from rummykit.teach.grading.build import build, master_questions
from rummykit.teach.grading.marking import Expected, Mistake, mark
from rummykit.teach.homework import ASSIGNMENTS, NUMBER, WRITTEN, Question, homework
from tests.support.answer_probes import NOT_CALLED, is_answer, reachable
from tests.support.homework import (
    AUTOGRADED,
    COURSE,
    KEYS,
    MASTERS,
    answer,
    key_module,
    run_master,
    student_expected,
    student_numbers,
)
from tests.support.tiers import soak

KEY = {assignment: key_module(assignment).KEY for assignment in ASSIGNMENTS}
#: Made-up students s0, s1, ... whose numbers and answers are counted: make test counts
#: 3,000 a question (each question then has 592 answers or more), make soak 20,000.
STUDENTS = [pytest.param(3_000, id="3,000 students"), soak(20_000, id="20,000 students")]
#: Fewer for a question whose key is slow: hw2's simulated count re-runs the simulation,
#: 200 to 800 hands, for each student (12 s for 5,000).
FEWER = {("hw2-simulation", "q2"): 5_000}
#: Questions where a known slip can land on a right answer for a few students (the key then
#: drops it): a slip's simulated count can be the right count, and a slip's lower end can
#: fall within the table question's tolerance.
SLIPS_CAN_BE_RIGHT = {("hw2-simulation", "q2"), ("hw4-decisions", "q3")}
#: The autograded questions' test ids: hw1-counting-q1, ...
IDS = [f"{assignment}-{name}" for assignment, name in AUTOGRADED]


def _question(assignment: str, name: str) -> Question:
    return ASSIGNMENTS[assignment][name]


def _autograded(assignment: str) -> list[str]:
    return [name for a, name in AUTOGRADED if a == assignment]


@pytest.fixture(scope="module")
def drawn():
    """``drawn(assignment, name, students)``: the question's numbers and key for that many
    students s0, s1, ... (fewer for a slow key; computed once a question and count)."""

    @functools.cache
    def draw(assignment: str, name: str, students: int) -> list[tuple[dict, Expected]]:
        question, key = _question(assignment, name), KEY[assignment][name]
        count = min(students, FEWER.get((assignment, name), students))
        numbers = [question.numbers(f"s{i}", course=COURSE) for i in range(count)]
        return [(one, key(one)) for one in numbers]

    return draw


# --- how a reader writes an answer -----------------------------------------------------------


def _exact(value: int | Fraction | float) -> Fraction:
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _forms(value: int | Fraction | float, *, parts: bool = False) -> set[str]:
    """Every way a reader could write ``value`` in 4 characters or more (not counting a sign
    or a percent sign): exact (``7/20``, ``1234``, ``1,234``, ``1_234``), as a decimal and a
    percentage to 3 to 8 significant figures, and as "1 in N"; with ``parts``, the
    numerator and the denominator on their own too."""
    exact = _exact(value)
    forms = {str(value), repr(value), str(exact)}
    if exact.denominator == 1:
        forms |= {f"{exact.numerator:,}", f"{exact.numerator:_}"}
    elif parts:
        forms |= {str(exact.numerator), str(exact.denominator)}
    with localcontext() as context:
        context.prec = 60
        decimal = Decimal(exact.numerator) / Decimal(exact.denominator)
        for figures in range(3, 9):
            for scaled, suffix in ((decimal, ""), (decimal * 100, "%")):
                if scaled:
                    step = Decimal(1).scaleb(scaled.adjusted() - figures + 1)
                    forms.add(f"{scaled.quantize(step, rounding=ROUND_HALF_EVEN):f}{suffix}")
            if 0 < exact < 1:
                inverse = 1 / decimal
                step = Decimal(1).scaleb(inverse.adjusted() - figures + 1)
                forms.add(f"1 in {inverse.quantize(step, rounding=ROUND_HALF_EVEN):f}")
    # Numbers of one to three digits also stand for the question's own numbers.
    return {form for form in forms if len(form.replace("%", "").replace("-", "")) >= 4}


def _significant(form: str) -> int:
    """The significant digits of a form (``0.0123`` 3, ``1 in 760`` 3, ``1,234`` 4)."""
    return len("".join(c for c in form.rsplit(" in ", 1)[-1] if c.isdigit()).lstrip("0"))


_RUN = re.compile(r"[-0-9.,_/%]+")
_ONE_IN = re.compile(r"(?=(1 in [-0-9.,_/%]+))")


def _occurring(forms: set[str], text: str) -> set[str]:
    """The forms that occur in ``text`` (as substrings). A form of digits, signs and
    separators (or "1 in " and those) occurs only inside one run of them: the runs are
    looked up, not the whole text for each form (any other form is looked for as it is)."""
    by_start: dict[str, list[str]] = {}
    found = set()
    for form in forms:
        if _RUN.fullmatch(form.removeprefix("1 in ")):
            by_start.setdefault(form[:4], []).append(form)
        elif form in text:
            found.add(form)
    runs = set(_RUN.findall(text)) | set(_ONE_IN.findall(text))
    for run in runs:
        for i in range(len(run) - 3):
            for form in by_start.get(run[i : i + 4], ()):
                if run.startswith(form, i):
                    found.add(form)
    return found


def _digits_shown(value: int | Fraction | float) -> list[str]:
    """What of ``value`` may not appear in a key's words: its decimal digits, 4 or more
    in a row, and a Fraction's str (``7/20``)."""
    exact = _exact(value)
    shown = re.findall(r"\d{4,}", repr(value) if isinstance(value, float) else str(exact))
    return shown + ([str(exact)] if exact.denominator != 1 else [])


def _wrong(question: Question, value: int | Fraction | float) -> int | Fraction | float:
    """A value of the question's form that is not ``value``."""
    if question.form.kind == "count":
        return value + 1
    if question.form.kind == "number":
        return value + 1e-3
    return value - Fraction(1, 1000) if value > Fraction(1, 2) else value + Fraction(1, 1000)


# --- the registry, the key and the master agree -----------------------------------------------


def _checked_variables(cells) -> dict[str, str]:
    """The public ``hw.check("qN", variable)`` cells: question -> variable."""
    found = {}
    for cell in cells:
        match = re.fullmatch(r'hw\.check\("(q\d+)", (\w+)\)', cell.source.strip())
        if cell.cell_type == "code" and match:
            found[match[1]] = match[2]
    return found


@pytest.mark.parametrize("assignment", list(ASSIGNMENTS))
def test_the_registry_the_key_and_the_master_agree(assignment):
    master = MASTERS / f"{assignment}.ipynb"
    questions, key = ASSIGNMENTS[assignment], key_module(assignment)
    configs = master_questions(master)
    assert [config["name"] for config in configs] == list(questions)
    cells = nbformat.read(master, as_version=4).cells
    heads = [c.source for c in cells if c.cell_type == "raw" and "# BEGIN QUESTION" in c.source]
    code = "\n".join(cell.source for cell in cells if cell.cell_type == "code")
    autograded = _autograded(assignment)
    assert assignment == key.ASSIGNMENT and sorted(key.KEY) == sorted(autograded)
    assert _checked_variables(cells) == {n: questions[n].variable for n in autograded}
    for config, head in zip(configs, heads, strict=True):
        name, question = config["name"], questions[config["name"]]
        written = question.form is WRITTEN
        assert question.assignment == assignment and question.name == name
        assert config["manual"] == written == (question.variable is None), name
        assert config["points"] in ((3, 4) if written else (2, 3)), name
        if written:
            continue
        assert "check_cell: false" in head, name
        assert re.search(rf'^n{name[1:]} = hw\.numbers\("{name}"\)$', code, re.M), name
        assert f'check("{name}", globals())' in code, name
        # A float is taken only where the key accepts an interval (a value read from a table).
        expected = key.KEY[name](question.numbers("s0", course=COURSE))
        assert (question.form is NUMBER) == (expected.value is None), name
    assert len(autograded) >= 6 and len(questions) - len(autograded) >= 1
    first = cells[0].source
    assert first.startswith("# ASSIGNMENT CONFIG") and "init_cell: false" in first
    assert f'homework("{assignment}", STUDENT_ID, course=COURSE)' in code


def test_the_four_assignments_ask_24_autograded_questions():
    assert len(ASSIGNMENTS) >= 4 and len(AUTOGRADED) >= 24
    assert KEYS.is_dir() and len(list(KEYS.glob("hw*.py"))) == len(ASSIGNMENTS)


# --- many numbers, many answers ---------------------------------------------------------------


def _plain(value: object) -> bool:
    """An int, a str or a list of strs: what a student reads and types."""
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, str | int) and not isinstance(value, bool)


@pytest.mark.parametrize("students", STUDENTS)
@pytest.mark.parametrize(("assignment", "name"), AUTOGRADED, ids=IDS)
def test_a_question_has_500_parameter_sets_and_500_answers(drawn, assignment, name, students):
    keyed = drawn(assignment, name, students)
    assert all(_plain(value) for numbers, _ in keyed for value in numbers.values())
    parameters = {json.dumps(numbers, sort_keys=True) for numbers, _ in keyed}
    answers = {
        expected.value if expected.value is not None else (expected.low, expected.high)
        for _, expected in keyed
    }
    assert len(parameters) >= 500 and len(answers) >= 500, (len(parameters), len(answers))
    form = _question(assignment, name).form
    assert all(form.problem(answer(expected)) is None for _, expected in keyed)


# --- the keys' mistakes and words ------------------------------------------------------------


def test_a_key_drops_a_mistake_that_is_a_right_answer():
    exact = Expected.exact(
        Fraction(1, 3),
        checked="the chance",
        mistakes=[
            Mistake(Fraction(2, 6), "the same Fraction"),
            Mistake(1 / 3, "its float"),
            Mistake(Fraction(1, 4), "a slip"),
        ],
    )
    assert [mistake.said for mistake in exact.mistakes] == ["a slip"]
    within = Expected.within(
        0.1,
        0.2,
        checked="the lower end",
        mistakes=[Mistake(0.15, "inside"), Mistake(0.2, "an end"), Mistake(0.25, "outside")],
    )
    assert [mistake.said for mistake in within.mistakes] == ["outside"]


@pytest.mark.parametrize("students", STUDENTS)
@pytest.mark.parametrize(("assignment", "name"), AUTOGRADED, ids=IDS)
def test_the_keys_mistakes_are_wrong_and_its_words_hold_no_answer(
    drawn, assignment, name, students
):
    question, keyed = _question(assignment, name), drawn(assignment, name, students)
    without = 0
    for numbers, expected in keyed:
        assert expected.checked and expected.hint, numbers
        assert len(expected.mistakes) <= 2, numbers
        without += not expected.mistakes
        words = [expected.checked, expected.hint, *(m.said for m in expected.mistakes)]
        for mistake in expected.mistakes:
            assert mistake.said and not expected.accepts(mistake.value), (numbers, mistake)
        for shown in _digits_shown(answer(expected)):
            assert not any(shown in text for text in words), (numbers, shown)
    if (assignment, name) in SLIPS_CAN_BE_RIGHT:
        assert without <= len(keyed) // 200, without
    else:
        assert without == 0
    # Every form of the answer, for the first 40 students; the grader names a slip it sees.
    for numbers, expected in keyed[:40]:
        words = " ".join([expected.checked, expected.hint, *(m.said for m in expected.mistakes)])
        assert not _occurring(_forms(answer(expected)), words), numbers
        for mistake in expected.mistakes:
            # the form first: a slip that gives no probability is told so
            problem = question.form.problem(mistake.value)
            said = mistake.said if problem is None else problem
            assert said in mark(question, expected, mistake.value).reason, numbers


# --- the master's solutions -------------------------------------------------------------------


@pytest.mark.parametrize("student", ["s0", "s1", "ada.lovelace", "3032123456", "s19999"])
@pytest.mark.parametrize("assignment", list(ASSIGNMENTS))
def test_the_masters_solutions_earn_the_marks_and_a_wrong_value_does_not(assignment, student):
    namespace = run_master(MASTERS / f"{assignment}.ipynb", student)
    for name in _autograded(assignment):
        question = _question(assignment, name)
        expected = student_expected(assignment, name, student)
        assert mark(question, expected, namespace[question.variable]).earned, name
        right = answer(expected)
        assert not mark(question, expected, right + 1).earned, name
        # A wrong value of the right form (right + 1 may be no probability at all).
        wrong = _wrong(question, right)
        assert question.form.problem(wrong) is None and not mark(question, expected, wrong).earned
        if question.form is not NUMBER:
            assert not mark(question, expected, float(right)).earned, name


# --- no single library call is the answer -----------------------------------------------------

#: Parameters of the library's callables that the probe does not fill: a contract, rules or
#: an odds cell (no question's numbers make one), or presets (whole tables, slow).
_NOT_FILLED = {"contract", "rules", "cell", "cells", "presets"}


@functools.cache
def _library() -> tuple[tuple[str, object, inspect.Signature], ...]:
    """The public callables of the teaching formulas and of rummykit.odds."""
    found = []
    for module in (rummykit.teach.probability, rummykit.odds):
        for name in module.__all__:
            function = getattr(module, name)
            if not callable(function):
                continue
            signature = inspect.signature(function)
            parameters = signature.parameters.values()
            if _NOT_FILLED & set(signature.parameters) or any(
                p.kind is p.VAR_KEYWORD for p in parameters
            ):
                continue
            found.append((f"{module.__name__}.{name}", function, signature))
    return tuple(found)


def _as_number(value: object) -> object:
    """A number written as a str (``"0.05"``, ``"7/20"``, ``"1.96"``) as the Fraction it
    stands for, as a student might pass it; anything else as it is."""
    if isinstance(value, str):
        try:
            return Fraction(value)
        except ValueError:
            return value
    return value


def _bindings(signature: inspect.Signature, numbers: dict) -> list[dict]:
    """The numbers bound to the parameters they name: as they are, without the lists (the
    numbers' ``ranks`` is a list, the library's a count, left to its default), with the
    strs that are numbers as Fractions, and both."""
    bound = {name: numbers[name] for name in signature.parameters if name in numbers}
    plain = {name: value for name, value in bound.items() if not isinstance(value, list)}
    found: list[dict] = []
    for one in (bound, plain):
        for variant in (one, {name: _as_number(value) for name, value in one.items()}):
            if variant not in found:
                found.append(variant)
    return found


def _candidates(numbers: dict) -> list[int]:
    """Values to try for a parameter the numbers do not name: each int of the numbers up
    to 500 (a seed or a number of hands is no count of cards, and a population of thousands
    only slows the library's sums)."""
    return sorted(
        {v for v in numbers.values() if isinstance(v, int) and not isinstance(v, bool) and v <= 500}
    )


def _results(function, signature: inspect.Signature, numbers: dict):
    """Every value ``function`` returns for each binding of the numbers (:func:`_bindings`),
    each of the numbers' ints (:func:`_candidates`) tried in every required parameter the
    binding leaves (400 choices at most)."""
    for bound in _bindings(signature, numbers):
        free = [
            p.name
            for p in signature.parameters.values()
            if p.name not in bound
            and p.default is p.empty
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
        choices = list(itertools.product(_candidates(numbers), repeat=len(free)))
        for choice in random.Random(0).sample(choices, min(len(choices), 400)):
            try:
                yield function(**bound, **dict(zip(free, choice, strict=True)))
            except Exception:  # a call that fails returns no answer
                continue


def _flat(result: object) -> list:
    """The numbers in ``result``, its lists and tuples flattened."""
    if isinstance(result, list | tuple):
        return [item for part in result for item in _flat(part)]
    number = isinstance(result, int | Fraction | float) and not isinstance(result, bool)
    return [result] if number else []


def _accepts(expected: Expected, value: int | Fraction | float) -> bool:
    try:
        return expected.accepts(value)
    except OverflowError:  # an int too large for a float is no interval's value
        return False


def _answered(question: Question, expected_of) -> tuple[dict[str, set], int]:
    """The library's callables that return a student's answer (``expected_of(numbers)``,
    None for no answer) for students s0 to s29, each with the answers it returned, and the
    number of results looked into."""
    found: dict[str, set] = {}
    results = 0
    for i in range(30):
        numbers = question.numbers(f"s{i}", course=COURSE)
        expected = expected_of(numbers)
        if expected is None:
            continue
        for label, function, signature in _library():
            for result in _results(function, signature, numbers):
                results += 1
                if any(_accepts(expected, value) for value in _flat(result)):
                    found.setdefault(label, set()).add(_answer_key(expected))
    return found, results


def _answer_key(expected: Expected) -> object:
    return expected.value if expected.value is not None else (expected.low, expected.high)


@pytest.mark.parametrize(("assignment", "name"), AUTOGRADED, ids=IDS)
def test_no_single_library_call_is_the_answer(assignment, name):
    found, results = _answered(_question(assignment, name), KEY[assignment][name])
    # A callable that gives the answer follows it from student to student: it returns the
    # answers of two students whose answers differ. One student's answer met among the
    # thousands of results is chance, and is all the probe meets: hw4's sign-test p-value
    # of exactly 1 (wins half the untied deals) among the 1s of pmfs and chances with
    # degenerate arguments, hw3's mean wait of 13 as the 13 ranks, a float within the table
    # question's tolerance of 0.0001 among thousands of floats.
    followers = {label: answers for label, answers in found.items() if len(answers) >= 2}
    assert not followers, followers
    assert results >= 30  # the numbers' names reach the library's parameters


def _seen(numbers: dict, function) -> set:
    """Every number the probe gets from ``function``."""
    signature = inspect.signature(function)
    return {value for result in _results(function, signature, numbers) for value in _flat(result)}


def test_the_library_probe_finds_the_one_call_answers_of_simpler_questions():
    names = {label.rsplit(".", 1)[1] for label, _, _ in _library()}
    assert {"prob_at_least_one_joker", "prob_at_least_of_rank", "hypergeom_pmf"} <= names
    assert {"sample_size", "wilson_interval", "absorption_time", "matrix_power"} <= names
    probability = rummykit.teach.probability

    def slip(assignment: str, name: str, said: str):
        """The question whose answer is the key's slip that ``said`` starts: a simpler
        question (the answer without the condition, or without the jokers)."""

        def expected_of(numbers: dict) -> Expected | None:
            expected = KEY[assignment][name](numbers)
            values = [m.value for m in expected.mistakes if m.said.startswith(said)]
            # (None where the slip is the right answer, and the key drops it)
            return Expected.exact(values[0], checked="") if values else None

        return expected_of

    # hw1's q5 without its condition is one call, prob_at_least_of_rank(k, decks=, jokers=,
    # cards=): the probe finds it, for student after student.
    q5 = _question("hw1-counting", "q5")
    found, _ = _answered(q5, slip("hw1-counting", "q5", "the chance without the condition"))
    assert len(found["rummykit.teach.probability.prob_at_least_of_rank"]) >= 20
    # hw2's q1 without its jokers is prob_at_least_of_rank(size, ...): the numbers' size fills
    # a parameter they do not name.
    q1 = _question("hw2-simulation", "q1")
    found, _ = _answered(q1, slip("hw2-simulation", "q1", "the chance of at least size naturals:"))
    assert len(found["rummykit.teach.probability.prob_at_least_of_rank"]) >= 20

    # hw1's q2 names ranks (a list); the library's ranks is a count, left to its default.
    one = student_numbers("hw1-counting", "q2", "s0")
    function = probability.prob_at_least_one_joker
    at_least_one = function(decks=one["decks"], jokers=one["jokers"], cards=one["cards"])
    assert at_least_one in _seen(one, function)
    # hw2's q4 gives its half-width and z as decimal strs: sample_size gets them as
    # Fractions, and answers.
    results = _seen(student_numbers("hw2-simulation", "q4", "s0"), probability.sample_size)
    assert results and all(isinstance(result, int) for result in results)
    # What a callable returns is looked into: lists and tuples flattened, floats kept.
    assert _flat([Fraction(1, 3), (2, [0.5]), True, "7"]) == [Fraction(1, 3), 2, 0.5]
    interval = Expected.within(0.25, 0.5, checked="")
    assert _accepts(interval, Fraction(1, 3)) and not _accepts(interval, 10**400)


# --- the student's check ----------------------------------------------------------------------


@pytest.mark.parametrize(("assignment", "name"), AUTOGRADED, ids=IDS)
def test_the_students_check_gives_the_form_and_never_the_answer(assignment, name):
    hw = homework(assignment, "ada.lovelace", course=COURSE)
    question = _question(assignment, name)
    right = answer(KEY[assignment][name](hw.numbers(name)))
    check = hw.check(name, right)
    assert check.ok and question.form.describe() in check.message
    assert "the form asked for" in check.message
    assert "checked when your notebook is graded" in check.message
    assert "passed" not in check.message.lower()
    digits = re.findall(r"\d+", repr(right) if isinstance(right, float) else str(right))
    assert not [d for d in digits if len(d) > 1 and d in check.message]
    assert not _occurring(_forms(right), check.message)
    assert check.message == hw.check(name, _wrong(question, right)).message  # no value shown
    as_float = hw.check(name, float(right))
    if question.form is NUMBER:
        assert as_float.ok
    else:
        assert not as_float.ok and "got a float" in as_float.message
        assert question.form.describe() in as_float.message


# --- what students get, as built --------------------------------------------------------------

#: The students whose answers are looked for in what students get.
SCANNED = ["ada.lovelace", "3032123456", *(f"s{i}" for i in range(40))]
#: The students the package's callables are tried for.
PROBED = ["ada.lovelace", "3032123456", *(f"s{i}" for i in range(8))]
PROBES = Path(__file__).parent / "support" / "answer_probes.py"
#: Lines of a key that the package has too, for reasons of its own: the rules every
#: exercise module reads, and the shoe as card codes (hw4's numbers draw hands from it).
SHARED_LINES = {
    'RULES = RuleSet.preset("standard")',
    "return tuple(card.code for card in Shoe(decks, jokers).cards)",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """The four assignments built as a teacher builds them."""
    return build(out=tmp_path_factory.mktemp("assignments"), course=COURSE)


@pytest.fixture(scope="module")
def wheel(built) -> dict[str, bytes]:
    """The pure wheel in the autograder zip, member by member: rummykit as the autograder,
    and a student who installs it, get it."""
    wheels = set()
    for _, autograder in built.values():
        with zipfile.ZipFile(autograder) as zipped:
            (name,) = [
                n for n in zipped.namelist() if re.fullmatch(r"rummykit-.*-py3-none-any\.whl", n)
            ]
            wheels.add(zipped.read(name))
    (data,) = wheels  # one wheel, in every assignment's zip
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return {member: package.read(member) for member in package.namelist()}


def _texts(members: dict[str, bytes]) -> dict[str, str]:
    """The members that are text (UTF-8, no NUL byte), but the wheel's RECORD (its files'
    hashes in base64, which change with every edit and hold no content)."""
    texts = {}
    for member, data in members.items():
        try:
            text = data.decode()
        except UnicodeDecodeError:
            continue
        if "\0" not in text and not member.endswith(".dist-info/RECORD"):
            texts[member] = text
    return texts


def _solution_lines(master: Path) -> list[str]:
    """The master's solution lines: in a code cell, those between ``# BEGIN SOLUTION``
    (``NO PROMPT`` or not) and ``# END SOLUTION`` or marked ``# SOLUTION``, but those its
    prompt (``\"\"\" # BEGIN PROMPT`` ... ``\"\"\" # END PROMPT``) gives the student too
    (``def p_event(...):`` above ``...``); a Markdown cell between the raw cells ``# BEGIN
    SOLUTION`` and ``# END SOLUTION`` (a written question's model answer) whole."""
    lines, in_block = [], False
    for cell in nbformat.read(master, as_version=4).cells:
        head = cell.source.strip()
        if cell.cell_type == "raw":
            if head.startswith("# BEGIN SOLUTION"):
                in_block = True
            elif head.startswith("# END SOLUTION"):
                in_block = False
            continue
        if cell.cell_type == "markdown":
            if in_block:
                lines += cell.source.splitlines()
            continue
        prompts = re.findall(
            r'"""\s*#\s*BEGIN PROMPT\n(.*?)"""\s*#\s*END PROMPT', cell.source, re.S
        )
        given = {line.strip() for prompt in prompts for line in prompt.splitlines()}
        inside = False
        for line in cell.source.splitlines():
            marker = line.strip()
            if marker.startswith("# BEGIN SOLUTION"):
                inside = True
            elif marker.startswith("# END SOLUTION"):
                inside = False
            elif (inside or marker.endswith("# SOLUTION")) and marker not in given:
                lines.append(line.split("# SOLUTION")[0])
    return [line.strip() for line in lines if len(line.strip()) > 12]


def _key_lines(assignment: str) -> set[str]:
    """The lines of more than 30 characters of the assignment's key, but its imports (the
    package's own modules' names) and :data:`SHARED_LINES`."""
    source = KEYS / f"{assignment.replace('-', '_')}.py"
    lines = {line.strip() for line in source.read_text(encoding="utf-8").splitlines()}
    return {
        line
        for line in lines - SHARED_LINES
        if len(line) > 30 and not re.match(r"(from \S+ )?import ", line)
    }


def _key_sources() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(KEYS.glob("*.py"))]


@pytest.mark.slow
def test_no_answer_solution_or_key_line_is_in_what_students_get(built, wheel):
    notebooks = {name: student.read_text(encoding="utf-8") for name, (student, _) in built.items()}
    assert sorted(notebooks) == sorted(ASSIGNMENTS)
    package = _texts(wheel)
    # Every member of the package a student reads is text, and it is all scanned.
    members = [m for m in wheel if m.endswith((".py", ".json", ".csv"))]
    assert len(members) >= 100 and set(members) <= set(package)
    assert any(m.endswith("teach/homework/data/outs_bot.csv") for m in package)
    keys = {path.name for path in KEYS.glob("*.py")} | {"rummykit_key.py"}
    assert not any(m.startswith(("files/", "tests/")) or Path(m).name in keys for m in wheel)
    for name, text in notebooks.items():
        notebook = nbformat.reads(text, as_version=4)
        assert not any(cell.get("outputs") for cell in notebook.cells), name
        assert "hidden: true" not in text and "rummykit.teach.grading.otter" not in text
        solutions = _solution_lines(MASTERS / f"{name}.ipynb")
        assert len(solutions) >= 10, name
        for line in solutions:
            assert line not in text, (name, line)
    # No line of a key; the same scan finds them where they are, in the autograder zip.
    student_files = {**notebooks, **package}
    for assignment, (_, autograder) in built.items():
        lines = _key_lines(assignment)
        assert len(lines) >= 40, assignment
        for line in lines:
            assert not [name for name, text in student_files.items() if line in text], line
        with zipfile.ZipFile(autograder) as zipped:
            shipped = zipped.read("files/rummykit_key.py").decode()
        assert all(line in shipped for line in lines), assignment
    assert all(any(line in source for source in _key_sources()) for line in SHARED_LINES)
    # Every answer of 42 students, in every form a reader could write it. In the notebooks:
    # forms of 4 characters or more, and a Fraction's numerator and denominator on their
    # own. In the package: forms of 6 significant digits or more. It holds thousands of
    # chances and counts of its own (known_completion.json's chances to 4 places,
    # known_odds.json's counts of hands, outs_bot.csv, doctests), among which forms of 3 to 5
    # significant digits of these answers stand by chance: 0.1706, 2062, 5,100, "1 in 760"
    # in chance.py, 1888 inside a longer number. Forms of 6 characters are not enough
    # (0.1706 is 6), nor matching whole numbers only (a count of 4 digits stands alone in a
    # table). With 6 significant digits, the forms of 400 students' answers meet none.
    forms, package_forms = set(), set()
    for (assignment, name), student in itertools.product(AUTOGRADED, SCANNED):
        value = answer(student_expected(assignment, name, student))
        forms |= _forms(value, parts=True)
        package_forms |= {f for f in _forms(value) if _significant(f) >= 6}
    assert len(forms) >= 10_000 and len(package_forms) >= 5_000
    for name, text in notebooks.items():
        assert not _occurring(forms, text), name
    for member, text in package.items():
        assert not _occurring(package_forms, text), member
    # The scan finds an answer planted in a file it scans.
    planted = answer(student_expected("hw1-counting", "q2", "ada.lovelace"))
    decimal = next(
        f for f in sorted(_forms(planted)) if f.startswith("0.") and _significant(f) == 7
    )
    for text in (notebooks["hw1-counting"], package["rummykit/teach/homework/hw1.py"]):
        assert _occurring(package_forms, f"{text}\n# p = {decimal}\n") == {decimal}
        assert str(planted) in _occurring(forms, f"{text}\np = {planted}\n")


#: A module planted in the package the probe calls: a public function that returns every
#: key's answer for the numbers it is given.
PLANTED = '''"""Planted by tests/test_homework.py: the probe must find what this returns."""

import functools
import importlib.util
from pathlib import Path

__all__ = ["leak"]


@functools.cache
def _keys():
    found = []
    for path in sorted(Path({keys!r}).glob("*.py")):
        spec = importlib.util.spec_from_file_location("planted_" + path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found += module.KEY.values()
    return found


def leak(numbers):
    answers = []
    for expect in _keys():
        try:
            expected = expect(numbers)
        except Exception:
            continue
        value = expected.value
        answers.append((expected.low + expected.high) / 2 if value is None else value)
    return answers
'''
PLANTED_LABEL = "rummykit.planted_leak.leak"


@pytest.mark.slow
@pytest.mark.parametrize(
    "probed",
    # make test probes three students' numbers (the two odd names and s0), make soak all ten.
    [pytest.param(PROBED[:3], id="3 students"), soak(PROBED, id="10 students")],
)
def test_no_callable_of_the_package_returns_an_answer(wheel, tmp_path, probed):
    # The package as the wheel installs it (pure Python: no compiled core).
    installed = tmp_path / "site"
    for member, data in wheel.items():
        (installed / member).parent.mkdir(parents=True, exist_ok=True)
        (installed / member).write_bytes(data)
    # And a module that leaks: the probe must find its answers, and only them.
    (installed / "rummykit" / "planted_leak.py").write_text(PLANTED.format(keys=str(KEYS)))
    work, out = tmp_path / "work", tmp_path / "found.json"
    work.mkdir()
    root = Path(__file__).resolve().parents[1]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(PROBES), str(out), str(installed), str(root), *probed],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["rummykit"].startswith(str(installed)), report["rummykit"]
    assert report["callables"] >= 250 and report["calls"] >= 500_000, report
    assert report["returned"] >= 50_000, report  # calls that returned something to look into
    leaked = {(a, q, s) for a, q, s, label, kinds, _ in report["found"] if label == PLANTED_LABEL}
    assert leaked == {(a, q, s) for (a, q), s in itertools.product(AUTOGRADED, probed)}
    others = [hit for hit in report["found"] if hit[3] != PLANTED_LABEL]
    assert not others, others[:20]
    print(
        f"{report['calls']:,} calls of {report['callables']} callables ({report['returned']:,} "
        f"returned) in {time.perf_counter() - started:.0f} s; out of time: {report['timeouts']}"
    )


def test_the_package_probe_looks_one_level_deep_and_compares_exactly():
    @dataclasses.dataclass
    class Box:
        count: int
        items: list

    assert reachable(Box(3, [4])) == [3]  # one level: the list's items are not reached
    assert reachable({Fraction(1, 2): 0.5, "x": True}) == [Fraction(1, 2), 0.5]
    assert reachable([1, (2,)]) == [1] and reachable(7) == [7]
    exact = Expected.exact(Fraction(1, 3), checked="")
    assert is_answer(Fraction(2, 6), exact) and is_answer(1 / 3, exact)
    assert not is_answer(0.3333, exact) and not is_answer(1, exact)
    interval = Expected.within(0.1, 0.2, checked="")
    assert is_answer(0.15, interval) and is_answer(Fraction(1, 5), interval)
    assert not is_answer(0.25, interval)
    # What is not called is a public callable still, and says why.
    for label, why in NOT_CALLED.items():
        module, name = label.rsplit(".", 1)
        assert name in importlib.import_module(module).__all__ and len(why) > 30, label


def test_the_scan_finds_an_answer_in_every_form():
    value = Fraction(7, 2048)  # 0.00341796875
    forms = _forms(value)
    assert {"7/2048", "0.00342", "0.3418%", "1 in 292.6", "0.0034179688"} <= forms
    assert "2048" not in forms and "2048" in _forms(value, parts=True)
    assert "0.0034" not in forms  # 2 significant figures stand for too many values
    text = 'p,0.00342\n{"chance": "1 in 292.6 (0.3418%)", "exact": "7/2048"}'
    assert _occurring(forms, text) == {"0.00342", "1 in 292.6", "0.3418%", "7/2048"}
    # Inside a longer number too: the scan looks for substrings.
    assert _occurring(forms, "x = 10.0034180") == {"0.003418", "0.0034180"}
    assert _occurring({"1e-05"}, "p = 1e-05") == {"1e-05"}  # not digits alone: as it is
    assert not _occurring(forms, "0.0034179 1 in 292.5 0.342")  # other values, too short
    assert _significant("0.0034180") == 5 and _significant("1 in 292.6") == 4
    assert _significant("12,345%") == 5
