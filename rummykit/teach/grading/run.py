"""Grade a class: every submission in a sandbox of its own, marked in this process.

:func:`grade` checks everything it is given before it runs anything (the autograder zip,
the folder, every notebook, the roster, two files for one student), runs each notebook in
a child process (:mod:`~rummykit.teach.grading.sandbox`) on ``jobs`` cores with a progress
bar, marks the answers it hands back with the key in this process
(:mod:`~rummykit.teach.grading.marking`), and writes the output folder whole:

``grades.csv``
    One row a student: ``student``, ``file``, ``status`` (``graded``, ``timeout``,
    ``crashed``, ``stopped``, ``unreadable``, ``missing``, ``unmatched``), the points of
    each question (a written question's column stays empty until its points are merged
    with ``written=``), ``total``, ``possible`` (autograded and written points) and
    ``reason`` (one line: what stopped the notebook, and the questions that lost points).
``canvas.csv``, ``gradescope.csv``
    The totals in the columns Canvas's and Gradescope's score imports read.
``feedback/ID.md``
    For each student, per question: the points, what was checked, and why points were
    lost, never the answer.
``written/QUESTION.md`` and ``written.csv``
    Each written question's rubric and every student's answer, and a sheet of
    ``student,question,points`` to fill in and merge with ``written=``.
``grades.json``
    How the run was made: the zip's digest, the isolation, the limits, the counts.

A run that fails leaves the folder as it was (it is replaced whole,
:func:`rummykit.odds.data.output.write_generation`). Each finished submission is kept
in a journal beside it (``.NAME.journal.jsonl``), keyed by the notebook's bytes, the
limits and the installed rummykit: run the same command again after an interruption and
only the rest is run; nobody is run twice.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import csv
import dataclasses
import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from rummykit.engine.checks import choice, instance, whole
from rummykit.engine.checks import path as check_path
from rummykit.errors import ArgumentTypeError, GradingError, OutputError, SubmissionError
from rummykit.teach.grading import integrity, sandbox
from rummykit.teach.grading.autograder import Autograder, load
from rummykit.teach.grading.marking import Mark, mark
from rummykit.teach.grading.outputs import write_outputs
from rummykit.teach.grading.roster import Student, read_roster, whose
from rummykit.teach.grading.values import MISSING, Unsupported, decode, encode

__all__ = ["MAX_NOTEBOOK", "Report", "Result", "grade"]

#: The largest notebook file graded (bytes): a notebook of this course is well under 1 MB.
MAX_NOTEBOOK = 20 << 20


@dataclasses.dataclass(frozen=True)
class Result:
    """One student's grade."""

    student: str
    file: str
    status: str
    points: dict
    """``{question: points}`` (None for a written question not marked yet)."""
    marks: dict
    """``{autograded question: Mark}``."""
    reason: str
    outcome: sandbox.Outcome | None = None
    written: dict = dataclasses.field(default_factory=dict)
    """``{written question: the student's answer (Markdown)}``."""

    @property
    def total(self) -> float:
        return float(sum(p for p in self.points.values() if p is not None))


@dataclasses.dataclass(frozen=True)
class Report:
    """A grading run: its results and how it was made."""

    out: Path
    results: tuple[Result, ...]
    unmatched: tuple[str, ...]
    isolation: sandbox.Isolation
    ran: int
    """Submissions run in this call (the rest came from the journal)."""
    seconds: float

    def summary(self) -> str:
        graded = [r for r in self.results if r.status not in ("missing", "unmatched")]
        problems = sum(r.status not in ("graded",) for r in graded)
        return (
            f"graded {len(graded)} submissions into {self.out} ({self.ran} run now, "
            f"{len(graded) - self.ran} from the journal), {problems} stopped early; "
            f"{sum(r.status == 'missing' for r in self.results)} missing, "
            f"{len(self.unmatched)} files naming nobody; isolation: {self.isolation.kind}"
        )


def _journal(out: Path) -> Path:
    return out.parent / f".{out.name}.journal.jsonl"


def _run_key(
    notebook: bytes,
    names: tuple[str, ...],
    limits: sandbox.Limits,
    isolation: sandbox.Isolation,
    package: str,
) -> str:
    text = json.dumps(
        [
            hashlib.sha256(notebook).hexdigest(),
            names,
            dataclasses.asdict(limits),
            isolation.kind,
            package,
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _outcome_json(outcome: sandbox.Outcome) -> dict:
    values = {}
    for name, value in outcome.values.items():
        if value is MISSING:
            continue
        values[name] = (
            {"unsupported": value.type, "text": value.text}
            if isinstance(value, Unsupported)
            else encode(value)
        )
    data = dataclasses.asdict(outcome)
    data["values"] = values
    data["errors"] = list(outcome.errors)
    return data


def _outcome_from(data: dict, names: tuple[str, ...]) -> sandbox.Outcome:
    values = {n: decode(data["values"][n]) if n in data["values"] else MISSING for n in names}
    fields = {f.name for f in dataclasses.fields(sandbox.Outcome)}
    kept = {k: v for k, v in data.items() if k in fields}
    kept["values"] = values
    kept["errors"] = tuple(kept.get("errors", ()))
    return sandbox.Outcome(**kept)


def _read_journal(path: Path, names: tuple[str, ...]) -> dict[str, sandbox.Outcome]:
    found = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return found
    for line in lines:
        try:
            entry = json.loads(line)
            found[entry["key"]] = _outcome_from(entry["outcome"], names)
        except (ValueError, KeyError, TypeError, SubmissionError):
            continue  # a line cut short by an interruption: that submission runs again
    return found


def _check_notebooks(paths: dict[str, Path]) -> dict[str, bytes]:
    """Every notebook's bytes, or a GradingError naming every file that is no notebook."""
    found, bad = {}, []
    for student, path in sorted(paths.items()):
        try:
            size = path.stat().st_size
            if size > MAX_NOTEBOOK:
                bad.append(f"{path.name} ({size:,} bytes: more than {MAX_NOTEBOOK:,})")
                continue
            data = path.read_bytes()
            notebook = json.loads(data.decode("utf-8"))
        except OSError as error:
            bad.append(f"{path.name} (cannot be read: {error.strerror})")
            continue
        except (UnicodeDecodeError, ValueError, RecursionError):
            bad.append(f"{path.name} (not JSON)")
            continue
        if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
            bad.append(f"{path.name} (JSON, but no notebook: it has no list of cells)")
            continue
        found[student] = data
    if bad:
        raise GradingError(
            "these submissions are no notebooks, so nothing was graded: "
            + "; ".join(bad)
            + ": ask for the .ipynb file again, or move the file out of the folder"
        )
    return found


def _check_out(out: Path) -> Path:
    out = Path(out)
    if str(out).strip() in ("", "."):
        raise OutputError(f"out {str(out)!r} names no folder: give one, such as grades/hw1")
    if out.exists() and not out.is_dir():
        raise OutputError(f"out {str(out)!r} is a file: name a folder for the grades")
    parent = out.resolve().parent
    if not parent.is_dir():
        raise OutputError(f"out {str(out)!r}: its parent folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise OutputError(f"out {str(out)!r}: cannot write in {str(parent)!r}")
    return out.resolve()


def _read_written(path: Path, autograder: Autograder, students: set[str]) -> dict:
    """``{(student, question): points}`` from a filled-in ``written.csv``."""
    try:
        with Path(path).open(newline="", encoding="utf-8-sig") as file:
            rows = list(csv.DictReader(file))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise GradingError(f"written {str(path)!r}: cannot read it ({error})") from None
    found = {}
    for line, row in enumerate(rows, start=2):
        student, question, points = (
            row.get(k, "") or "" for k in ("student", "question", "points")
        )
        if not points.strip():
            continue
        if question not in autograder.prompts:
            raise GradingError(
                f"written {str(path)!r}, line {line}: no written question {question!r}"
            )
        if student not in students:
            raise GradingError(f"written {str(path)!r}, line {line}: no submission of {student!r}")
        try:
            value = float(points)
        except ValueError:
            value = -1.0
        if not 0 <= value <= autograder.points[question]:
            raise GradingError(
                f"written {str(path)!r}, line {line}: points {points!r} for {question} are not "
                f"from 0 to {autograder.points[question]:g}"
            )
        found[(student, question)] = value
    return found


def _written_answers(notebook: bytes, autograder: Autograder) -> dict[str, str]:
    """Each written question's answer: the Markdown cells after its prompt, up to otter's
    end-of-question marker (the prompt is found by its first line)."""
    try:
        cells = json.loads(notebook.decode("utf-8"))["cells"]
    except (ValueError, KeyError, TypeError):
        return {}
    texts = []
    for cell in cells:
        source = cell.get("source", "") if isinstance(cell, dict) else ""
        text = "".join(source) if isinstance(source, list) else str(source)
        texts.append((cell.get("cell_type") if isinstance(cell, dict) else None, text))
    answers = {}
    for name, prompt in autograder.prompts.items():
        head = prompt.strip().splitlines()[0] if prompt.strip() else ""
        start = next((i for i, (_, t) in enumerate(texts) if head and head in t), None)
        if start is None:
            answers[name] = ""
            continue
        parts = []
        for kind, text in texts[start + 1 :]:
            if "<!-- END QUESTION -->" in text or "<!-- BEGIN QUESTION -->" in text:
                break
            if kind == "markdown":
                parts.append(text.strip())
        answers[name] = "\n\n".join(parts)[:20_000]
    return answers


def _mark_all(autograder: Autograder, student: str, outcome: sandbox.Outcome) -> dict[str, Mark]:
    marks = {}
    for question in autograder.autograded:
        numbers = question.numbers(student, course=autograder.course)
        try:
            expected = autograder.key.KEY[question.name](numbers)
        except Exception as error:  # the key's own bug: the teacher's to fix, said plainly
            raise GradingError(
                f"the answer key of {autograder.assignment} {question.name} raised "
                f"{type(error).__name__}: {error} for {student!r}'s numbers {numbers}: fix "
                f"assignments/keys/, build the zip again and grade again (nothing was run twice: "
                "the journal keeps every notebook's answers)"
            ) from None
        marks[question.name] = mark(
            question, expected, outcome.values.get(question.variable, MISSING)
        )
    return marks


def _gist(reason: str) -> str:
    """The first words of a mark's reason, for the CSV's one line ("no answer yet", "not
    right for your numbers", "got a float")."""
    head = reason.split(";")[0].split(" (")[0].split(": ")[0].split(", ")[0]
    return head if len(head) <= 40 else head[:37] + "..."


def _result(
    autograder: Autograder,
    student: str,
    path: Path,
    outcome: sandbox.Outcome,
    notebook: bytes,
    written: dict,
) -> Result:
    marks = _mark_all(autograder, student, outcome)
    points: dict = {}
    for question in autograder.questions:
        if question.variable is None:
            points[question.name] = written.get((student, question.name))
        else:
            points[question.name] = (
                autograder.points[question.name] if marks[question.name].earned else 0.0
            )
    lost = [q.name for q in autograder.autograded if not marks[q.name].earned]
    reason = outcome.reason
    if lost:
        said = ", ".join(f"{name} ({_gist(marks[name].reason)})" for name in lost)
        reason = (f"{reason}; " if reason else "") + f"points lost on {said}"
    status = "graded" if outcome.status == "finished" else outcome.status
    return Result(
        student,
        path.name,
        status,
        points,
        marks,
        reason,
        outcome,
        _written_answers(notebook, autograder),
    )


def grade(
    autograder: Path,
    submissions: Path,
    out: Path,
    *,
    roster: Path | None = None,
    jobs: int | None = None,
    limits: sandbox.Limits | None = None,
    isolation: str = "auto",
    written: Path | None = None,
    fresh: bool = False,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> Report:
    """Grade every ``*.ipynb`` of ``submissions`` with the ``autograder`` zip into the
    folder ``out`` (see the module's docstring); return the :class:`Report`."""

    started = time.monotonic()
    autograder, submissions, out = (
        check_path(name, value)
        for name, value in (("autograder", autograder), ("submissions", submissions), ("out", out))
    )
    roster = None if roster is None else check_path("roster", roster)
    written = None if written is None else check_path("written", written)
    limits = instance(
        "limits",
        sandbox.Limits() if limits is None else limits,
        sandbox.Limits,
        "a rummykit.teach.assign.Limits",
    )
    jobs = whole("jobs", os.cpu_count() or 1 if jobs is None else jobs, low=1, high=256)
    choice("isolation", isolation, ("auto", "bubblewrap", "process"))
    for name, flag in (("fresh", fresh), ("progress", progress)):
        instance(name, flag, bool, "True or False")
    if log is not None and not callable(log):
        raise ArgumentTypeError(f"log must be a function of one str, or None, got {log!r}")
    grader = load(autograder)
    folder = Path(submissions)
    if not folder.is_dir():
        raise GradingError(f"submissions {str(folder)!r}: no such folder")
    files = sorted(p for p in folder.glob("*.ipynb") if p.is_file())
    if not files:
        raise GradingError(f"submissions {str(folder)!r}: no notebook (*.ipynb) in it")
    students = read_roster(roster) if roster is not None else None
    paths, nobody = whose(files, students)
    notebooks = _check_notebooks(paths)
    marks_written = _read_written(written, grader, set(paths)) if written is not None else {}
    out = _check_out(out)
    chosen = sandbox.isolation(isolation)

    with _no_bytecode():  # this process must not change the package it watches
        return _run_and_write(
            grader,
            paths,
            nobody,
            notebooks,
            students,
            marks_written,
            out,
            chosen,
            limits,
            jobs,
            fresh,
            progress,
            log,
            started,
        )


@contextlib.contextmanager
def _no_bytecode() -> Iterator[None]:
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        yield
    finally:
        sys.dont_write_bytecode = before


def _run_and_write(
    grader: Autograder,
    paths: dict[str, Path],
    nobody: list[Path],
    notebooks: dict[str, bytes],
    students: list[Student] | None,
    marks_written: dict,
    out: Path,
    chosen: sandbox.Isolation,
    limits: sandbox.Limits,
    jobs: int,
    fresh: bool,
    progress: bool,
    log: Callable[[str], None] | None,
    started: float,
) -> Report:
    """Run what the journal lacks, mark everyone, write the folder (see :func:`grade`)."""
    integrity.prepare()
    baseline = integrity.snapshot()
    package = hashlib.sha256(json.dumps(baseline, sort_keys=True).encode()).hexdigest()
    names = grader.names
    journal_path = _journal(out)
    if fresh:
        journal_path.unlink(missing_ok=True)
    kept = _read_journal(journal_path, names)
    keys = {s: _run_key(notebooks[s], names, limits, chosen, package) for s in notebooks}
    outcomes = {s: kept[k] for s, k in keys.items() if k in kept}
    pending = sorted(s for s in notebooks if s not in outcomes)
    ran = _run_pending(
        pending,
        notebooks,
        keys,
        names,
        limits,
        chosen,
        jobs,
        baseline,
        journal_path,
        outcomes,
        progress,
        len(notebooks),
    )

    results = [
        _result(grader, s, paths[s], outcomes[s], notebooks[s], marks_written)
        for s in sorted(notebooks)
    ]
    for student in students or []:
        if student.id not in notebooks:
            results.append(
                Result(
                    student.id,
                    "",
                    "missing",
                    {q.name: 0.0 for q in grader.questions},
                    {},
                    "no submission",
                )
            )
    report = Report(
        out, tuple(results), tuple(p.name for p in nobody), chosen, ran, time.monotonic() - started
    )
    write_outputs(report, grader, students, limits, jobs)
    if log is not None:
        log(report.summary())
    return report


def _run_pending(
    pending: list[str],
    notebooks: dict[str, bytes],
    keys: dict[str, str],
    names: tuple[str, ...],
    limits: sandbox.Limits,
    chosen: sandbox.Isolation,
    jobs: int,
    baseline: dict[str, str],
    journal_path: Path,
    outcomes: dict,
    progress: bool,
    total: int,
) -> int:
    """Run ``pending`` on ``jobs`` workers, keeping each outcome in ``outcomes`` and the
    journal; stop with a GradingError if the installed package changes."""
    if not pending:
        return 0
    from tqdm.auto import tqdm

    running: set[str] = set()
    lock = threading.Lock()

    def work(student: str) -> sandbox.Outcome:
        with lock:
            running.add(student)
        return sandbox.run(notebooks[student], names, limits, chosen)

    bar = tqdm(
        total=total,
        initial=total - len(pending),
        desc="grading",
        unit="notebook",
        disable=not progress,
        file=sys.stderr,
    )
    changed_by: list[str] = []
    changes: list[str] = []
    done = 0
    with (
        journal_path.open("a", encoding="utf-8") as journal,
        concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool,
    ):
        futures = {pool.submit(work, s): s for s in pending}
        try:
            for future in concurrent.futures.as_completed(futures):
                student = futures[future]
                outcome = future.result()
                with lock:
                    suspects = sorted(running)
                    running.discard(student)
                changes = integrity.changed(baseline, integrity.snapshot())
                if changes:
                    changed_by = suspects
                    for other in futures:
                        other.cancel()
                    break
                outcomes[student] = outcome
                entry = {
                    "key": keys[student],
                    "student": student,
                    "outcome": _outcome_json(outcome),
                }
                journal.write(json.dumps(entry) + "\n")
                journal.flush()
                os.fsync(journal.fileno())
                done += 1
                bar.update(1)
        finally:
            bar.close()
    if changed_by:
        shown = ", ".join(changes[:5]) + (
            f" and {len(changes) - 5} more" if len(changes) > 5 else ""
        )
        raise GradingError(
            "the installed rummykit changed while grading "
            + ", ".join(changed_by)
            + f" ({shown}): a submission may have written to it, so grading stopped and "
            "nothing was written; reinstall rummykit (or, if you changed it yourself, run "
            "again), and grade with bubblewrap (--isolation bubblewrap), which makes the "
            "package read-only"
        )
    return done
