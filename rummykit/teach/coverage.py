"""The class coverage activity: do 95% intervals cover 95% of the time?

Each student simulates the same chance from their own seed and reports their count of
successes; the class pools the reports and counts how many of the 95% intervals contain
the exact value. With ``n`` students the count is binomial, ``n`` trials of chance 0.95
(each interval is a Wilson interval from its own independent seed), so it should lie within
about two standard deviations, ``sqrt(n * 0.95 * 0.05)``, of ``0.95 n``.

The chance is round 1's (two sets) in a 10-card hand from two decks and four jokers under
the ``standard`` rules, the chance chapter 2 counts exactly and chapter 6's exercise 12
simulates. A report is a row of four fields, the columns of :data:`CLASS_COLUMNS`; the
class notebook re-deals each row from its seed, so a mistyped count is caught, not pooled.

>>> row = student_report("ada", seed=7)
>>> row.hands, row.successes
(2000, 159)
>>> print(row)
ada, seed 7: 159 of 2,000 hands held two sets, about 8.0% (95%: 6.8% to 9.2%)
>>> row.covers
True
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from rummykit.chance import chance_text, estimate_text
from rummykit.engine.checks import instance, items
from rummykit.engine.rules import CONTRACTS, RuleSet
from rummykit.errors import ArgumentError, RummyError

__all__ = [
    "CLASS_COLUMNS",
    "ClassCoverage",
    "ClassResultsError",
    "StudentReport",
    "class_coverage",
    "exact_chance",
    "read_class_results",
    "student_report",
    "template_csv",
]

#: The columns of the class's results file, in order.
CLASS_COLUMNS = ("student", "seed", "successes", "hands")
#: How many hands each student deals: enough that an interval is a few points wide.
HANDS = 2000
#: The shoe and hand of the activity: round 1, 10 cards, two decks and four jokers.
SHOE = {"decks": 2, "jokers": 4, "cards": 10}
#: The coverage each interval promises.
LEVEL = 0.95


class ClassResultsError(RummyError):
    """A class results file that cannot be read: the message names the line and field."""


@cache
def exact_chance() -> Fraction:
    """The exact chance that the activity's hand holds two sets (round 1's contract).

    >>> round(float(exact_chance()), 6)
    0.089086
    """
    from rummykit.odds import dealt_probability

    return dealt_probability(CONTRACTS[0], **SHOE, rules=RuleSet.preset("standard"))


@dataclass(frozen=True)
class StudentReport:
    """One student's simulated estimate and its 95% Wilson interval."""

    student: str
    """Who reported it (a name or a student ID, as the class writes it)."""
    seed: int
    """The seed the student dealt from."""
    successes: int
    """How many of the hands held the contract."""
    hands: int
    """How many hands were dealt."""

    @property
    def estimate(self) -> float:
        """The share of hands that held the contract."""
        return self.successes / self.hands

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the estimate."""
        from rummykit.odds import wilson_interval

        return wilson_interval(self.successes, self.hands)

    @property
    def covers(self) -> bool:
        """Whether the interval contains the exact chance."""
        low, high = self.interval
        return low <= exact_chance() <= high

    def csv_line(self) -> str:
        """The row to paste into the class's results file.

        >>> StudentReport("ada", 7, 159, 2000).csv_line()
        'ada,7,159,2000'
        """
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(
            [self.student, self.seed, self.successes, self.hands]
        )
        return out.getvalue()

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"{self.student}, seed {self.seed}: {self.successes:,} of {self.hands:,} hands "
            f"held two sets, {estimate_text(self.estimate, low, high)}"
        )


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ArgumentError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}")
    return seed


def student_report(student: str, *, seed: int, hands: int = HANDS) -> StudentReport:
    """Deal ``hands`` hands from ``seed`` and count those that hold two sets.

    The same seed gives the same count, for the student and for the class notebook.

    >>> student_report("bo", seed=7) == student_report("someone else", seed=7)
    False
    >>> student_report("bo", seed=7).successes == student_report("ada", seed=7).successes
    True
    """
    from rummykit.odds import simulate_dealt

    if not isinstance(student, str) or not student.strip():
        raise ArgumentError(f"student must be a name or an ID, got {student!r}")
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= 1_000_000:
        raise ArgumentError(f"hands must be a whole number from 1 to 1,000,000, got {hands!r}")
    estimate = simulate_dealt(
        CONTRACTS[0], **SHOE, rules=RuleSet.preset("standard"), n=hands, seed=_check_seed(seed)
    )
    return StudentReport(student.strip(), seed, estimate.successes, hands)


def template_csv() -> str:
    """The empty results file the class fills: a header line and nothing else.

    >>> template_csv()
    'student,seed,successes,hands\\n'
    """
    return ",".join(CLASS_COLUMNS) + "\n"


def _whole(text: str, field: str, line: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise ClassResultsError(
            f"line {line}: {field} must be a whole number, got {text!r}"
        ) from None
    if value < 0:
        raise ClassResultsError(f"line {line}: {field} must not be negative, got {value}")
    return value


def _line(name: str, text: object) -> str:
    return instance(name, text, str, "a line of text")


def read_class_results(source: str | Path | Iterable[str]) -> list[StudentReport]:
    """The reports in a class results file (a path, or its lines), checked line by line.

    >>> rows = read_class_results(["student,seed,successes,hands", "ada,7,159,2000"])
    >>> rows[0].successes
    159
    >>> read_class_results(["student,seed,successes,hands", "ada,7,lots,2000"])
    Traceback (most recent call last):
    ...
    rummykit.teach.coverage.ClassResultsError: line 2: successes must be a whole number, got 'lots'
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError, ValueError) as error:  # ValueError: a NUL
            raise ClassResultsError(f"cannot read the class results {path}: {error}") from None
    else:
        lines = items("source", source, _line, what="a path or the file's lines")
    rows = list(csv.reader(lines))
    if not rows or tuple(cell.strip() for cell in rows[0]) != CLASS_COLUMNS:
        raise ClassResultsError(
            "line 1: the header must be " + ",".join(CLASS_COLUMNS) + " (see template_csv())"
        )
    reports = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(CLASS_COLUMNS):
            raise ClassResultsError(
                f"line {line}: expected {len(CLASS_COLUMNS)} fields "
                f"({', '.join(CLASS_COLUMNS)}), got {len(row)}"
            )
        student = row[0].strip()
        if not student:
            raise ClassResultsError(f"line {line}: student is empty")
        seed, successes, hands = (
            _whole(text, field, line)
            for text, field in zip(row[1:], CLASS_COLUMNS[1:], strict=True)
        )
        if hands == 0 or successes > hands:
            raise ClassResultsError(
                f"line {line}: successes ({successes}) must be at most hands ({hands}), "
                "and hands at least 1"
            )
        reports.append(StudentReport(student, seed, successes, hands))
    return reports


@dataclass(frozen=True)
class ClassCoverage:
    """The class's pooled result: how many intervals contain the exact chance."""

    reports: tuple[StudentReport, ...]
    """The reports that match their seeds, the ones counted."""
    rejected: tuple[tuple[StudentReport, str], ...]
    """The reports left out, each with the reason."""

    @property
    def covered(self) -> int:
        """How many of the counted intervals contain the exact chance."""
        return sum(report.covers for report in self.reports)

    @property
    def expected(self) -> float:
        """The expected count, ``0.95 n``."""
        return LEVEL * len(self.reports)

    @property
    def sd(self) -> float:
        """The standard deviation of the count, ``sqrt(n * 0.95 * 0.05)``."""
        return math.sqrt(len(self.reports) * LEVEL * (1 - LEVEL))

    def summary(self) -> str:
        """The result in a sentence."""
        n = len(self.reports)
        if n == 0:
            return "No report matched its seed yet: nothing to count."
        off = (self.covered - self.expected) / self.sd
        verdict = (
            "within two standard deviations of it, as 95% intervals should be"
            if abs(off) <= 2
            else f"{abs(off):.1f} standard deviations from it: check the reports"
        )
        left_out = f" ({len(self.rejected)} left out: see rejected)" if self.rejected else ""
        return (
            f"{self.covered} of {n} intervals contain the exact chance {exact_chance_text()}"
            f"{left_out}. The expected count is {self.expected:.1f} with a standard "
            f"deviation of {self.sd:.2f}: the class's count is {verdict}."
        )

    def frame(self):
        """The counted reports as a long-form polars frame, one row per student."""
        import polars as pl

        return pl.DataFrame(
            {
                "student": [r.student for r in self.reports],
                "seed": [r.seed for r in self.reports],
                "p": [r.estimate for r in self.reports],
                "ci_low": [r.interval[0] for r in self.reports],
                "ci_high": [r.interval[1] for r in self.reports],
                "covers": ["contains it" if r.covers else "misses it" for r in self.reports],
            }
        )

    def chart(self):
        """Each student's interval (a bar, ordered by estimate) against the exact chance
        (a dashed line): the intervals that miss it in vermilion."""
        import altair as alt
        import polars as pl

        frame = self.frame()
        order = frame.sort("p")["student"].to_list()
        colour = alt.Color(
            "covers:N",
            title="The interval",
            scale=alt.Scale(domain=["contains it", "misses it"], range=["#0072B2", "#D55E00"]),
        )
        base = alt.Chart(frame).encode(
            y=alt.Y("student:N", title=None, sort=order, axis=alt.Axis(labels=False, ticks=False)),
            color=colour,
        )
        bars = base.mark_rule(strokeWidth=2).encode(
            x=alt.X(
                "ci_low:Q",
                title="Chance of two sets in 10 cards",
                scale=alt.Scale(zero=False),
                axis=alt.Axis(format=".0%", tickMinStep=0.01),
            ),
            x2="ci_high:Q",
        )
        points = base.mark_point(filled=True, size=20).encode(
            x="p:Q",
            tooltip=[
                alt.Tooltip("student:N", title="Student"),
                alt.Tooltip("p:Q", title="Estimate", format=".2%"),
                alt.Tooltip("ci_low:Q", title="95% interval from", format=".2%"),
                alt.Tooltip("ci_high:Q", title="95% interval to", format=".2%"),
            ],
        )
        exact = pl.DataFrame({"p": [float(exact_chance())]})
        line = alt.Chart(exact).mark_rule(strokeDash=[6, 3], color="#000000").encode(x="p:Q")
        return alt.layer(bars, points, line).properties(
            title="Each student's 95% interval, lowest estimate first; the exact chance dashed",
            width=420,
            height=alt.Step(8),
        )

    def _repr_html_(self) -> str:
        return f"<p>{self.summary()}</p>"


def exact_chance_text() -> str:
    """The exact chance in words (:func:`rummykit.chance.chance_text`)."""
    return chance_text(float(exact_chance()))


def _report(name: str, report: object) -> StudentReport:
    return instance(name, report, StudentReport, "a StudentReport")


def class_coverage(reports: Iterable[StudentReport]) -> ClassCoverage:
    """Pool the class's reports: re-deal each from its seed, count those that match.

    A report whose count differs from what its seed deals is left out, with the reason,
    and so is a second report from the same seed (two students who share a seed are not
    independent).

    >>> good = student_report("ada", seed=7)
    >>> typo = StudentReport("bo", seed=8, successes=1, hands=2000)
    >>> result = class_coverage([good, typo])
    >>> result.covered, [reason for _, reason in result.rejected]
    (1, ['seed 8 deals 178 successes in 2,000 hands, not 1'])
    """
    kept: list[StudentReport] = []
    rejected: list[tuple[StudentReport, str]] = []
    seeds: set[int] = set()
    for report in items("reports", reports, _report, what="a list of StudentReports"):
        if report.seed in seeds:
            rejected.append((report, f"seed {report.seed} was reported already"))
            continue
        dealt = student_report(report.student, seed=report.seed, hands=report.hands)
        if dealt.successes != report.successes:
            rejected.append(
                (
                    report,
                    f"seed {report.seed} deals {dealt.successes:,} successes in "
                    f"{report.hands:,} hands, not {report.successes:,}",
                )
            )
            continue
        seeds.add(report.seed)
        kept.append(report)
    return ClassCoverage(tuple(kept), tuple(rejected))
