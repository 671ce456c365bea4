"""Grading a class: how long 300 submissions take on every core, and what each costs
beyond the notebook's own run time.

Builds assignment 1 (``hw1-counting``) for a made-up course, writes ``--submissions``
notebooks from its student version (right answers, blank, wrong answers, an endless loop
after the first answer, and forging ones that redefine names, patch rummykit and write
fake results), grades them with :func:`rummykit.teach.assign.grade` on ``--jobs`` workers,
and checks that each earned what its answers earn. As the reference, in the same run, otter's
own grading in the grading process (``otter.api.grade_submission``, what
``python -m rummykit.teach grade`` did before it sandboxed each notebook) grades the first
``--reference`` right notebooks one after another.

    .venv/bin/python benchmarks/bench_grading.py          # --submissions 300 --jobs 2

The last line is ``grading: N submissions in S s on J workers (P s a submission per
core)``; the line before it says how much of P is the notebooks' own run time (a
notebook stopped at the time limit counts the whole limit). Goals (issue 47): S <= 600 for
300 submissions on 2 cores, and at most 3 s a submission per core beyond the notebook's own
run time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rummykit.teach.assign import Limits, build, grade  # noqa: E402
from tests.support.homework import COURSE  # noqa: E402
from tests.test_grading_class import (  # noqa: E402
    FIRST,
    FORGE,
    HW1,
    LOOP,
    PATCH,
    PRINT,
    REDEFINE,
    earned,
    notebook,
    right,
    wrong,
)

#: The kinds of submission, and how many of each in a hundred.
MIX = {"right": 40, "blank": 15, "wrong": 25, "forging": 18, "looping": 2}


def submissions(student_nb: Path, folder: Path, count: int, seed: int) -> dict[str, str]:
    """Write ``count`` notebooks into ``folder``; ``{student: kind}``."""
    rng = random.Random(seed)
    kinds = [kind for kind, share in MIX.items() for _ in range(share)]
    made = {}
    for index in range(count):
        student = f"s{index:04d}"
        kind = "right" if index == 0 else rng.choice(kinds)
        if kind == "right":
            text = notebook(student_nb, student, right(student))
        elif kind == "blank":
            text = notebook(student_nb, student, {})
        elif kind == "wrong":
            text = notebook(student_nb, student, wrong(student))
        elif kind == "looping":
            text = notebook(student_nb, student, right(student), after={FIRST: LOOP})
        else:
            cells = rng.choice([REDEFINE, PATCH, FORGE, PRINT])
            text = notebook(student_nb, student, wrong(student), end=cells)
        (folder / f"{student}.ipynb").write_text(text)
        made[student] = kind
    return made


def reference(zipped: Path, folder: Path, students: list[str]) -> float:
    """Seconds a submission with otter's grading in this process."""
    from otter.api import grade_submission

    started = time.monotonic()
    for student in students:
        with contextlib.redirect_stdout(io.StringIO()):
            grade_submission(str(folder / f"{student}.ipynb"), str(zipped), quiet=True)
    return (time.monotonic() - started) / max(1, len(students))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        help="each notebook's limit, seconds (the looping ones run to it)",
    )
    parser.add_argument(
        "--reference",
        type=int,
        default=6,
        help="right notebooks graded by otter in this process, as the reference",
    )
    parser.add_argument("--isolation", default="auto")
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        built = build(out=scratch / "built", names=[HW1], course=COURSE)
        student_nb, zipped = built[HW1]
        folder = scratch / "submissions"
        folder.mkdir()
        kinds = submissions(student_nb, folder, args.submissions, args.seed)
        counts = {k: sum(v == k for v in kinds.values()) for k in MIX}
        print(
            f"{args.submissions} submissions: " + ", ".join(f"{n} {k}" for k, n in counts.items())
        )
        started = time.monotonic()
        report = grade(
            zipped,
            folder,
            scratch / "grades",
            jobs=args.jobs,
            limits=Limits(seconds=args.timeout),
            isolation=args.isolation,
            progress=True,
        )
        seconds = time.monotonic() - started
        from rummykit.teach.grading.autograder import load

        points = load(zipped).points
        wrongly = []
        for result in report.results:
            kind = kinds[result.student]
            given = {"right": right, "looping": right}.get(kind, wrong)(result.student)
            if kind == "blank":
                given = {}
            if kind == "looping":
                given = {FIRST: given[FIRST]}
            if (
                kind == "forging"
                and "values.encode" in (folder / f"{result.student}.ipynb").read_text()
            ):
                continue  # PATCH answers every question 1 in its own process: marked as such
            if result.total != earned(result.student, given, points):
                wrongly.append(result.student)
        own = sum(
            args.timeout if r.status == "timeout" else r.outcome.notebook_seconds
            for r in report.results
        )
        statuses = {
            s: sum(r.status == s for r in report.results)
            for s in sorted({r.status for r in report.results})
        }
        print(f"isolation: {report.isolation.describe()}")
        print(
            f"statuses: {statuses}; every submission earned what its answers earn: "
            f"{'yes' if not wrongly else 'no: ' + ', '.join(wrongly[:5])}"
        )
        right_ones = [s for s, k in kinds.items() if k == "right"][: args.reference]
        per_reference = reference(zipped, folder, right_ones) if right_ones else float("nan")
        per_core = seconds * args.jobs / args.submissions
        beyond = (seconds * args.jobs - own) / args.submissions
        print(
            f"reference: otter's grading in the grading process, {len(right_ones)} right "
            f"notebooks one after another: {per_reference:.2f} s a submission; sandboxed: "
            f"{per_core:.2f} s a submission per core ({per_reference / per_core:.1f}x)"
        )
        print(
            f"the notebooks' own run time: {own:.0f} s in all; beyond it, "
            f"{beyond:.2f} s a submission per core (goal: at most 3 s)"
        )
        print(
            f"grading: {args.submissions} submissions in {seconds:.0f} s on {args.jobs} "
            f"workers ({per_core:.2f} s a submission per core)"
        )
        if wrongly:
            sys.exit(1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
