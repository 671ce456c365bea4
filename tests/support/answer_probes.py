"""No public callable of rummykit returns a graded answer (run by tests/test_homework.py).

For each student and autograded question, every public callable of every module a student's
install has (a module's ``__all__``: its functions, and its classes called as constructors;
their methods are out of scope) that takes one to three parameters without defaults is
called with what the student could try: the question's seed
(:func:`~rummykit.teach.homework.spec.question_seed`), the student ID, the course, the
assignment's name, the question's name and the question's numbers, in every order without
repeats, and with the numbers as keywords. Every int, Fraction and float reachable in what
it returns (the value, the items of a list, tuple or set, a dict's keys and values, a
dataclass's fields: one level deep) is compared with that student's answer (a float with
the answer's exact float; an interval's answer with the interval).

No call is made twice where it would do the same again: one without the seed or the numbers
is the same for every question (made once, under an alarm of :data:`SHARED_SECONDS`), and
one refused for its arguments' types (rummykit's type errors) or that recursed without end
on them is refused again for arguments of the same types. :data:`NOT_CALLED` lists what is
never called, and why.

Run as a script in a child process, in an empty folder:
``python tests/support/answer_probes.py OUT SITE ROOT STUDENT...`` imports rummykit from
the folder SITE (where the test unpacked the wheel students get) and the keys from the
project's folder ROOT, and writes one JSON object to OUT: ``{"found", "calls", "returned",
"callables", "timeouts", "rummykit", "seconds"}``. A child, under an alarm of
:data:`SECONDS` a call and a memory limit, because what it calls acts on the process and
the folder it runs in: files written at relative paths (an ID is a fine folder name),
process pools started, and :func:`rummykit.odds.data.pool.die_with_parent` ends a process
whose parent is not the pid it is given. The child ends with ``os._exit``, so that a thread
a callable left running cannot keep it alive.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import itertools
import json
import os
import pkgutil
import resource
import signal
import sys
import time
from fractions import Fraction
from pathlib import Path

#: Seconds a call may take.
SECONDS = 2.0
#: Seconds a call may take that is made once for every question (without the seed or the
#: numbers): class_sharing, 120,000 made-up students' numbers, takes 2 to 4.
SHARED_SECONDS = 20.0
#: Memory a call may take above the loaded modules (a seed of 20 digits passed as a size).
MEMORY_BYTES = 1 << 30
#: The modules left out: the widgets and the command line (front ends over the modules
#: probed), and the ``__main__`` modules (they run a command when imported).
LEFT_OUT = ("rummykit.widgets", "rummykit.cli")
#: Callables not called, each with why: none of them computes a number, and each call would
#: spend seconds or end the probe.
NOT_CALLED = {
    "rummykit.odds.data.pool.die_with_parent": (
        "a pool worker's initializer: ends the process unless given its parent's pid; returns None"
    ),
    "rummykit.odds.data.pool.run_sweep": (
        "maps `function` over `tasks` in a process pool: no value a student passes here is "
        "a function, and each call spends the whole alarm starting the pool"
    ),
    "rummykit.teach.grading.build.pure_wheel": (
        "builds rummykit's wheel with pip in a subprocess (seconds); returns its path"
    ),
    "rummykit.odds.data.output.write_generation": (
        "replaces the folder `out` whole (a lock, a staging folder, fsync: tenths of a "
        "second a call, before it refuses a value that is no function); returns its path"
    ),
    "rummykit.odds.pipeline.write_tables": (
        "writes the tables into the folder `out` by write_generation; returns the paths"
    ),
    "rummykit.teach.slides.build": (
        "writes the slide decks into the folder `out` with nbconvert (a second or more a "
        "call); returns their paths"
    ),
}


class Timeout(BaseException):
    """The alarm: a BaseException, so that no ``except Exception`` in the code swallows it."""


def _alarm(signum, frame):
    raise Timeout


def modules() -> list:
    """Every module of the package as a student's install has it, but :data:`LEFT_OUT`
    and those that need an optional dependency that is missing."""
    import rummykit

    found = []
    for info in pkgutil.walk_packages(rummykit.__path__, "rummykit."):
        name = info.name
        if name.startswith(LEFT_OUT) or name.endswith("__main__"):
            continue
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as error:
            if (error.name or "").startswith("rummykit"):
                raise
    return found


def callables() -> dict[str, tuple[object, int]]:
    """The public functions and classes that take one to three parameters without
    defaults, by qualified name, each with that number."""
    found: dict[str, tuple[object, int]] = {}
    for module in modules():
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name, None)
            if not (inspect.isfunction(value) or inspect.isclass(value)):
                continue
            if inspect.isclass(value) and issubclass(value, BaseException):
                continue
            try:
                parameters = inspect.signature(value).parameters.values()
            except (TypeError, ValueError):  # a class whose signature is not known
                continue
            required = [
                p
                for p in parameters
                if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            ]
            label = f"{value.__module__}.{value.__qualname__}"
            if 1 <= len(required) <= 3 and label not in NOT_CALLED:
                found.setdefault(label, (value, len(required)))
    return found


def reachable(result: object) -> list[int | Fraction | float]:
    """The numbers in ``result``, one level deep."""
    values = [result]
    if isinstance(result, dict):
        values += [*result.keys(), *result.values()]
    elif isinstance(result, (list, tuple, set, frozenset)):
        values += list(result)
    elif dataclasses.is_dataclass(result) and not isinstance(result, type):
        values += [getattr(result, field.name) for field in dataclasses.fields(result)]
    return [
        value
        for value in values
        if isinstance(value, (int, Fraction, float)) and not isinstance(value, bool)
    ]


def is_answer(value: int | Fraction | float, expected) -> bool:
    """Whether ``value`` is the answer ``expected`` holds (a float: its exact float)."""
    if expected.value is None:
        return expected.low <= value <= expected.high
    if isinstance(value, float):
        return value == float(expected.value)
    return Fraction(value) == Fraction(expected.value)


def _call(function, args: tuple, kwargs: dict, seconds: float):
    """What ``function(*args, **kwargs)`` returns, and None; or None and the class of what
    it raised (:class:`Timeout` when it ran out of time)."""
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function(*args, **kwargs), None
    except BaseException as error:  # noqa: BLE001 - a call that fails returns no answer
        return None, type(error)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


#: What a student could pass, by kind (the numbers also as keywords: ``**numbers``).
KINDS = ("seed", "student", "course", "assignment", "question", "numbers")


def _fresh(value: object) -> object:
    """``value``, copied where a call could change it (the numbers: a dict of ints, strs
    and lists of strs)."""
    if isinstance(value, dict):
        return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
    return value


def probe(students: list[str]) -> dict:
    from rummykit.errors import ActionTypeError, ArgumentTypeError, CardTypeError
    from rummykit.teach.homework import ASSIGNMENTS
    from rummykit.teach.homework.spec import question_seed
    from tests.support.homework import AUTOGRADED, COURSE, key_module

    keys = {assignment: key_module(assignment).KEY for assignment in ASSIGNMENTS}
    library = callables()
    type_refusals = (ArgumentTypeError, CardTypeError, ActionTypeError, RecursionError)
    orders = {count: list(itertools.permutations(KINDS, count)) for count in (1, 2, 3)}
    # A call without the seed or the numbers is the same for every question that tries
    # it: it is made once, and may take SHARED_SECONDS.
    remembered: dict[tuple, list] = {}
    # A call refused for its arguments' types (rummykit's type errors say so: "a seed
    # given as a string"), or that recursed without end on them (a str is iterable to any
    # depth), is refused again for arguments of the same types: not made again.
    refused: set[tuple] = set()
    found, timeouts, calls, returned = [], {}, 0, 0
    for student, (assignment, name) in itertools.product(students, AUTOGRADED):
        question = ASSIGNMENTS[assignment][name]
        numbers = question.numbers(student, course=COURSE)
        expected = keys[assignment][name](numbers)
        values = {
            "seed": question_seed(COURSE, assignment, name, student),
            "student": student,
            "course": COURSE,
            "assignment": assignment,
            "question": name,
            "numbers": numbers,
        }
        # The other kinds' types are always the same (an int, strs).
        numbers_types = tuple((key, type(value)) for key, value in numbers.items())
        for label, (function, count) in library.items():
            signal.signal(signal.SIGALRM, _alarm)  # in case a callable set its own handler
            for kinds in [*orders[count], ("**numbers",)]:
                given = "numbers" in kinds or kinds == ("**numbers",)
                shape = (label, kinds, numbers_types if given else None)
                if shape in refused:
                    continue
                shared = "seed" not in kinds and not given
                if kinds == ("**numbers",):
                    args, kwargs = (), _fresh(numbers)
                else:
                    args, kwargs = tuple(_fresh(values[kind]) for kind in kinds), {}
                memo = (label, args)
                if shared and memo in remembered:
                    numbers_found = remembered[memo]
                else:
                    seconds = SHARED_SECONDS if shared else SECONDS
                    result, error = _call(function, args, kwargs, seconds)
                    calls += 1
                    if error is Timeout:
                        timeouts[label] = timeouts.get(label, 0) + 1
                    if error is not None and issubclass(error, type_refusals):
                        refused.add(shape)
                    returned += error is None
                    numbers_found = reachable(result) if error is None else []
                    if shared:
                        remembered[memo] = numbers_found
                for value in numbers_found:
                    if is_answer(value, expected):
                        found.append([assignment, name, student, label, list(kinds), repr(value)])
    return {
        "found": found,
        "calls": calls,
        "returned": returned,
        "callables": len(library),
        "timeouts": timeouts,
    }


def main(out: str, students: list[str]) -> None:
    import rummykit

    started = time.perf_counter()
    callables()  # every module loaded before the limit is set
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    limit = pages * resource.getpagesize() + MEMORY_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    report = probe(students)
    report["rummykit"] = rummykit.__file__
    report["seconds"] = time.perf_counter() - started
    Path(out).write_text(json.dumps(report))
    os._exit(0)


if __name__ == "__main__":
    # OUT, the folder rummykit is installed in (first on the path), the project's folder
    # (for tests.support and the keys), the students.
    sys.path[:1] = [sys.argv[2]]
    sys.path.append(sys.argv[3])
    main(sys.argv[1], sys.argv[4:])
