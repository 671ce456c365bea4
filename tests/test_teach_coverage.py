"""The class coverage activity (rummykit.teach.coverage): reports, the class file, the count.

The count is checked against an independent computation: each seed's hands dealt by
``simulate_dealt`` itself, the interval from ``wilson_interval``, the exact chance from
``dealt_probability``; and the coverage over many seeds against its binomial law.
"""

from __future__ import annotations

import math
import re

import pytest

from rummykit import CONTRACTS, RuleSet
from rummykit.errors import ArgumentError, RummyError
from rummykit.odds import dealt_probability, simulate_dealt, wilson_interval
from rummykit.teach import coverage
from rummykit.teach.coverage import (
    CLASS_COLUMNS,
    ClassResultsError,
    StudentReport,
    class_coverage,
    read_class_results,
    student_report,
    template_csv,
)

RULES = RuleSet.preset("standard")


def test_the_exact_chance_is_round_one_in_ten_cards_of_two_decks_and_four_jokers():
    assert coverage.exact_chance() == dealt_probability(
        CONTRACTS[0], decks=2, jokers=4, cards=10, rules=RULES
    )


@pytest.mark.parametrize("seed", [0, 1, 17, 39])
def test_a_report_is_the_seeds_own_simulation(seed):
    report = student_report("x", seed=seed)
    direct = simulate_dealt(
        CONTRACTS[0], decks=2, jokers=4, cards=10, rules=RULES, n=2000, seed=seed
    )
    assert (report.successes, report.hands) == (direct.successes, 2000)
    low, high = wilson_interval(direct.successes, 2000)
    assert report.interval == (low, high)
    assert report.covers == (low <= coverage.exact_chance() <= high)


@pytest.mark.slow
def test_the_class_count_matches_an_independent_count_over_forty_seeds():
    reports = [student_report(f"s{seed}", seed=seed) for seed in range(40)]
    p = coverage.exact_chance()
    expected = 0
    for seed in range(40):
        est = simulate_dealt(
            CONTRACTS[0], decks=2, jokers=4, cards=10, rules=RULES, n=2000, seed=seed
        )
        expected += est.ci_low <= p <= est.ci_high
    result = class_coverage(reports)
    assert result.covered == expected
    assert result.rejected == ()
    assert result.expected == pytest.approx(38.0)
    assert result.sd == pytest.approx(math.sqrt(40 * 0.95 * 0.05))
    assert f"{expected} of 40 intervals" in result.summary()


@pytest.mark.slow
def test_intervals_cover_about_ninety_five_percent_over_many_seeds():
    result = class_coverage(student_report("s", seed=seed) for seed in range(1000, 1200))
    assert abs(result.covered - result.expected) <= 4 * result.sd


def test_a_mistyped_count_and_a_repeated_seed_are_left_out_with_the_reason():
    good = student_report("ada", seed=3)
    typo = StudentReport("bo", 4, good.successes, 2000)  # seed 4's own count differs
    assert student_report("bo", seed=4).successes != good.successes
    again = StudentReport("cy", 3, good.successes, 2000)
    result = class_coverage([good, typo, again])
    assert result.reports == (good,)
    reasons = dict((report.student, reason) for report, reason in result.rejected)
    assert reasons["bo"].startswith("seed 4 deals ")
    assert reasons["cy"] == "seed 3 was reported already"
    assert "2 left out" in result.summary()


def test_no_report_is_said_in_words():
    assert class_coverage([]).summary().startswith("No report matched its seed yet")


def test_the_template_and_the_example_file_read_back(tmp_path):
    assert read_class_results(template_csv().splitlines()) == []
    rows = [student_report(f"s{seed}", seed=seed) for seed in range(3)]
    path = tmp_path / "class.csv"
    path.write_text(template_csv() + "\n".join(r.csv_line() for r in rows) + "\n\n")
    assert read_class_results(path) == rows


def test_the_example_file_in_the_activity_is_forty_true_reports():
    from pathlib import Path

    path = Path(__file__).parent.parent / "notebooks" / "activity" / "class_results_example.csv"
    reports = read_class_results(path)
    assert len(reports) == 40
    assert class_coverage(reports).rejected == ()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "line 1: the header must be student,seed,successes,hands"),
        (["name,seed,successes,hands"], "line 1: the header must be"),
        ([",".join(CLASS_COLUMNS), "ada,7,159"], "line 2: expected 4 fields"),
        ([",".join(CLASS_COLUMNS), " ,7,159,2000"], "line 2: student is empty"),
        ([",".join(CLASS_COLUMNS), "ada,seven,159,2000"], "line 2: seed must be a whole number"),
        ([",".join(CLASS_COLUMNS), "ada,7,-1,2000"], "line 2: successes must not be negative"),
        (
            [",".join(CLASS_COLUMNS), "", "ada,7,2001,2000"],
            "line 3: successes (2001) must be at most",
        ),
        ([",".join(CLASS_COLUMNS), "ada,7,0,0"], "line 2: successes (0) must be at most hands (0)"),
    ],
)
def test_a_bad_results_file_names_the_line_and_field(lines, message):
    with pytest.raises(ClassResultsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_class_results(lines)


def test_a_file_that_cannot_be_read_is_a_clear_error(tmp_path):
    path = tmp_path / "class.csv"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ClassResultsError, match="cannot read the class results"):
        read_class_results(path)
    with pytest.raises(ClassResultsError, match="cannot read the class results"):
        read_class_results(tmp_path / "missing.csv")
    assert issubclass(ClassResultsError, RummyError)


@pytest.mark.parametrize(
    ("student", "seed", "hands"),
    [
        ("", 0, 2000),
        (None, 0, 2000),
        ("a", -1, 2000),
        ("a", "7", 2000),
        ("a", True, 2000),
        ("a", 0, 0),
        ("a", 0, 10**7),
    ],
)
def test_bad_arguments_to_a_report_are_clear_errors(student, seed, hands):
    with pytest.raises(ArgumentError):
        student_report(student, seed=seed, hands=hands)


def test_the_chart_marks_the_intervals_that_miss():
    result = class_coverage(student_report(f"s{seed}", seed=seed) for seed in range(5, 17))
    spec = result.chart().to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["rule", "point", "rule"]
    misses = [row for row in result.frame().to_dicts() if row["covers"] == "misses it"]
    assert len(misses) == 12 - result.covered


def test_the_unit_guide_quotes_the_activity_keys_numbers():
    # Issue 49 item 11: the key's figures in book/teachers.md are the class notebook's.
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    notebook = json.loads((root / "notebooks" / "activity" / "coverage_class.ipynb").read_text())
    printed = "".join(
        "".join(output.get("text", ""))
        for output in notebook["cells"][-1]["outputs"]
        if output["output_type"] == "stream"
    )
    missed, expected = re.search(r"1\. (\d+) of 40 missed; ([\d.]+) expected", printed).groups()
    narrower = re.search(r"2\. .*: ([\d.]+) times", printed).group(1)
    covered, wider = re.search(
        r"3\. 200 hands each: (\d+) of 40 contain it; ([\d.]+)", printed
    ).groups()
    guide = " ".join((root / "book" / "teachers.md").read_text().split())
    assert f"{missed} of 40 missed, {int(float(expected))} expected" in guide
    assert f"the pooled interval {narrower} times narrower" in guide
    assert f"with 200 hands each, {covered} of 40 contain the exact chance" in guide
    assert f"the intervals are {wider} times wider" in guide
