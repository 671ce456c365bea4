"""The files a grading run writes (:mod:`~rummykit.teach.grading.run` lists them): the
gradebook CSVs, a feedback file per student, the written answers to mark by hand, and the
run's provenance. The folder is replaced whole, so a run that fails leaves it as it was."""

from __future__ import annotations

import csv
import dataclasses
import datetime
import io
import json
from pathlib import Path

import rummykit
from rummykit.odds.data.output import write_generation
from rummykit.teach.grading.autograder import Autograder

__all__ = ["OUTPUTS", "feedback", "now", "write_outputs"]

#: The output folder's files.
OUTPUTS = (
    "grades.csv",
    "canvas.csv",
    "gradescope.csv",
    "feedback",
    "written",
    "written.csv",
    "grades.json",
)


def now() -> str:
    """The time, in UTC, for the provenance."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}"


def _grades_csv(report, grader: Autograder) -> str:
    names = [q.name for q in grader.questions]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "file", "status", *names, "total", "possible", "reason"])
    for result in report.results:
        writer.writerow(
            [
                result.student,
                result.file,
                result.status,
                *(_number(result.points.get(n)) for n in names),
                _number(result.total),
                _number(grader.possible),
                result.reason,
            ]
        )
    for name in report.unmatched:
        writer.writerow(
            [
                "",
                name,
                "unmatched",
                *("" for _ in names),
                "",
                _number(grader.possible),
                "the file name names no student (see the naming rule)",
            ]
        )
    return buffer.getvalue()


def _lms_csvs(report, grader: Autograder, students) -> tuple[str, str]:
    roster = {s.id: s for s in students or []}
    canvas, gradescope = io.StringIO(), io.StringIO()
    c = csv.writer(canvas, lineterminator="\n")
    g = csv.writer(gradescope, lineterminator="\n")
    c.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", grader.assignment])
    g.writerow(["Name", "SID", "Email", "Total Score"])
    for result in report.results:
        student = roster.get(result.student)
        name = student.name if student else ""
        c.writerow(
            [
                name,
                "",
                result.student,
                "",
                student.section if student else "",
                _number(result.total),
            ]
        )
        g.writerow([name, result.student, student.email if student else "", _number(result.total)])
    return canvas.getvalue(), gradescope.getvalue()


def feedback(result, grader: Autograder) -> str:
    """One student's feedback, in Markdown: per question the points, what was checked and
    why points were lost; never the answer."""
    lines = [f"# {grader.assignment}: feedback for {result.student}", ""]
    auto = sum(grader.points[q.name] for q in grader.autograded)
    got = sum(result.points.get(q.name) or 0 for q in grader.autograded)
    lines.append(f"Autograded points: {got:g} of {auto:g}.")
    if grader.written:
        marked = [q for q in grader.written if result.points.get(q.name) is not None]
        written = sum(grader.points[q.name] for q in grader.written)
        lines.append(
            f"Written questions ({written:g} points) are marked by hand"
            + (f"; marked so far: {', '.join(q.name for q in marked)}." if marked else ".")
        )
    outcome = result.outcome
    if result.status == "missing":
        lines += ["", "No submission was found for you."]
        return "\n".join(lines) + "\n"
    if outcome is not None:
        if outcome.status == "finished":
            lines.append(f"Your notebook ran to its end in {outcome.notebook_seconds:.1f} s.")
        else:
            lines.append(f"Your notebook did not run to its end: {outcome.reason.split(';')[0]}.")
        if outcome.errors:
            shown = "; ".join(
                f"cell {e['cell']}: {e['error']}" + (f" ({e['message']})" if e["message"] else "")
                for e in outcome.errors[:5]
            )
            lines.append(f"Cells that raised an error: {shown}.")
        typed = outcome.student_id
        if typed is not None and typed.strip().lower() != result.student:
            said = f"is {typed!r}" if typed.strip() else "is empty"
            lines.append(
                f"Your notebook's STUDENT_ID {said}, but this submission is graded as "
                f"{result.student!r}: your answers are checked against the numbers of "
                f"{result.student!r}."
            )
    for question in grader.questions:
        points = grader.points[question.name]
        lines.append("")
        if question.variable is None:
            given = result.points.get(question.name)
            state = "not marked yet" if given is None else f"{given:g} of {points:g}"
            lines.append(f"## {question.name} (written): {state}")
            lines.append("Marked by hand with the rubric in the question.")
            continue
        verdict = result.marks.get(question.name)
        earned = result.points.get(question.name) or 0
        lines.append(f"## {question.name} (`{question.variable}`): {earned:g} of {points:g}")
        if verdict is None:
            continue
        lines.append(f"Checked: {verdict.checked}.")
        lines.append("Right." if verdict.earned else f"Points lost: {verdict.reason}.")
    return "\n".join(lines) + "\n"


def _written_page(question, prompt: str, report) -> str:
    lines = [
        f"# {question.name} (written): every answer",
        "",
        "## The question and its rubric",
        "",
        prompt.strip(),
        "",
    ]
    for result in report.results:
        if result.status in ("missing", "unmatched"):
            continue
        lines += [
            f"## {result.student}",
            "",
            result.written.get(question.name, "") or "*(no answer)*",
            "",
        ]
    return "\n".join(lines)


def _written_sheet(report, grader: Autograder) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "question", "points", "possible"])
    for question in grader.written:
        for result in report.results:
            if result.status not in ("missing", "unmatched"):
                writer.writerow(
                    [
                        result.student,
                        question.name,
                        _number(result.points.get(question.name)),
                        _number(grader.points[question.name]),
                    ]
                )
    return buffer.getvalue()


def write_outputs(report, grader: Autograder, students, limits, jobs: int) -> None:
    """Write the output folder ``report.out`` whole (see the module's docstring)."""
    canvas, gradescope = _lms_csvs(report, grader, students)
    facts = {
        "assignment": grader.assignment,
        "course": grader.course,
        "autograder": str(grader.path),
        "autograder_sha256": grader.digest,
        "rummykit": getattr(rummykit, "__version__", ""),
        "isolation": report.isolation.kind,
        "isolation_details": report.isolation.describe(),
        "limits": dataclasses.asdict(limits),
        "jobs": jobs,
        "written_at": now(),
        "submissions": sum(r.status not in ("missing",) for r in report.results),
        "missing": sum(r.status == "missing" for r in report.results),
        "unmatched": list(report.unmatched),
        "run_now": report.ran,
        "seconds": round(report.seconds, 1),
    }

    def write(folder: Path) -> None:
        (folder / "grades.csv").write_text(_grades_csv(report, grader), encoding="utf-8")
        (folder / "canvas.csv").write_text(canvas, encoding="utf-8")
        (folder / "gradescope.csv").write_text(gradescope, encoding="utf-8")
        (folder / "feedback").mkdir()
        for result in report.results:
            (folder / "feedback" / f"{result.student}.md").write_text(
                feedback(result, grader), encoding="utf-8"
            )
        (folder / "written").mkdir()
        for question in grader.written:
            (folder / "written" / f"{question.name}.md").write_text(
                _written_page(question, grader.prompts[question.name], report), encoding="utf-8"
            )
        (folder / "written.csv").write_text(_written_sheet(report, grader), encoding="utf-8")
        (folder / "grades.json").write_text(json.dumps(facts, indent=2) + "\n", encoding="utf-8")

    write_generation(report.out, OUTPUTS, write)
