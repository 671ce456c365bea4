"""The grading machinery, piece by piece (rummykit.teach.grading): the values a submission
hands back, marking against a key, the student's own form check, rosters and file names,
the autograder zip's checks, and the sandbox's limits on small notebooks.

The whole class graded end to end, hostile notebooks included, is tests/test_grading_class.py.
"""

from __future__ import annotations

import json
import os
import zipfile
from fractions import Fraction

import nbformat
import numpy as np
import pytest

from rummykit.errors import GradingError, RummyError, StudentIdError, SubmissionError
from rummykit.teach.grading import sandbox, values
from rummykit.teach.grading.autograder import load
from rummykit.teach.grading.marking import Expected, Mistake, mark
from rummykit.teach.grading.roster import Student, owner, read_roster, whose
from rummykit.teach.homework import homework
from rummykit.teach.homework.spec import COUNT, NUMBER, PROBABILITY, Question, question_seed

# --- values: plain data in, plain data out ---------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [0, -7, 10**3999, Fraction(-3, 7), 0.1, float("inf"), "text", None, ..., True, [1, [2, "x"]]],
)
def test_a_value_comes_back_as_it_went(value):
    line = values.encode_message({"v": values.encode(value)}, cell=1)
    decoded, facts = values.decode_message(line, ("v", "absent"))
    assert decoded["v"] == value or (value is ... and decoded["v"] is ...)
    assert type(decoded["v"]) is type(value)
    assert decoded["absent"] is values.MISSING and facts == {"cell": 1}


def test_numpy_numbers_come_back_as_python_numbers():
    assert values.decode(values.encode(np.int64(5))) == 5
    assert type(values.decode(values.encode(np.float64(0.5)))) is float
    assert values.decode(values.encode(np.bool_(True))) is True


@pytest.mark.parametrize(
    "value, kind",
    [
        (10**4001, "int"),
        ("x" * 10_001, "str"),
        (list(range(1001)), "list"),
        ([[[1]]], "list"),
        (object(), "object"),
        ({1: 2}, "dict"),
    ],
)
def test_what_the_grader_does_not_take_comes_back_as_its_type(value, kind):
    decoded = values.decode(values.encode(value))
    while isinstance(decoded, list):  # lists nest two deep; the third is refused
        (decoded,) = decoded
    assert isinstance(decoded, values.Unsupported) and decoded.type == kind


@pytest.mark.parametrize(
    "data",
    [
        {"int": "1" * 4001},
        {"int": "0x10"},
        {"int": 5},
        {"fraction": ["1", "0"]},
        {"float": "0x" + "1" * 50},
        {"str": "x" * 10_001},
        {"list": [{"int": "1"}] * 1001},
        {"list": [{"list": [{"list": []}]}]},
        {"eval": "__import__('os')"},
        [1],
        "x",
        {"int": "1", "str": "x"},
        {"unsupported": "x" * 81},
    ],
)
def test_a_value_the_child_did_not_make_is_refused(data):
    with pytest.raises(SubmissionError):
        values.decode(data)


def test_a_snapshot_that_is_no_snapshot_is_refused():
    for line in (b"not json", b"[1, 2]", b'{"values": 3}', b"x" * (values.MAX_MESSAGE + 1)):
        with pytest.raises(SubmissionError):
            values.decode_message(line, ("a",))


# --- marking ------------------------------------------------------------------------------


def _question(form=PROBABILITY) -> Question:
    return Question("demo", "q2", "p_joker", form, lambda rng: {}, "at least one joker")


def test_marking_compares_exactly_and_never_says_the_answer():
    question = _question()
    key = Expected.exact(
        Fraction(2, 7),
        checked="the chance of at least one joker",
        hint="take the complement",
        mistakes=[Mistake(Fraction(1, 7), "the chance of exactly one joker")],
    )
    assert mark(question, key, Fraction(4, 14)).earned
    for wrong, said in [
        (Fraction(1, 7), "exactly one joker"),
        (Fraction(3, 7), "take the complement"),
        (2 / 7, "got a float"),
        (..., "no answer yet"),
        (values.MISSING, "never set `p_joker`"),
        (values.Unsupported("DataFrame", "shape (2, 3)"), "DataFrame"),
        ("2/7", "got a str"),
        (Fraction(9, 7), "above 1"),
    ]:
        verdict = mark(question, key, wrong)
        assert not verdict.earned and said in verdict.reason, (wrong, verdict)
        if not isinstance(wrong, (float, str)):  # a reason may quote the student's own value
            assert "2/7" not in verdict.reason and "0.285" not in verdict.reason
        assert "the chance of at least one joker" in verdict.checked


def test_an_interval_and_a_float_form():
    question = _question(NUMBER)
    key = Expected.within(-1.5, -1.4, checked="the lower end")
    assert mark(question, key, -1.45).earned and mark(question, key, Fraction(-29, 20)).earned
    assert not mark(question, key, -1.39).earned and not mark(question, key, float("nan")).earned
    exact = Expected.exact(Fraction(1, 3), checked="a third")
    assert mark(question, exact, 1 / 3).earned and not mark(question, exact, 0.3333).earned
    slip = Expected.exact(
        Fraction(1, 3),
        checked="a third",
        mistakes=[
            Mistake(Fraction(2, 6), "a slip that lands on it"),
            Mistake(Fraction(1, 4), "a quarter"),
        ],
    )
    assert [m.said for m in slip.mistakes] == ["a quarter"]  # a right value is no mistake
    with pytest.raises(RummyError):
        Expected.exact(0.5, checked="x")
    with pytest.raises(RummyError):
        Expected.within(2, 1, checked="x")


# --- the student's side: numbers and form checks ------------------------------------------------


def test_numbers_depend_on_the_course_the_assignment_the_question_and_the_id():
    seeds = {
        question_seed(course, "hw1-counting", q, student)
        for course in ("stat140-2026fall", "stat140-2027fall")
        for q in ("q1", "q2")
        for student in ("ada", "bob")
    }
    assert len(seeds) == 8
    assert question_seed("c", "a", "q1", " Ada ") == question_seed("c", "a", "q1", "ada")


def test_the_students_check_looks_at_the_form_only_and_never_says_passed():
    ok = COUNT.problem(12) is None
    assert ok and "float" in COUNT.problem(12.0) and "below 0" in COUNT.problem(-1)
    assert "Fraction" in COUNT.problem(Fraction(1, 2)) and "no answer" in COUNT.problem(...)
    assert COUNT.problem(True) is not None and COUNT.problem(np.int64(3)) is None
    check = _question().check(Fraction(1, 3))
    assert check.ok and "checked when your notebook is graded" in check.message
    for text in (check.message, check._repr_html_(), repr(check)):
        assert "passed" not in text.lower()
    assert not _question().check(0.3).ok


def test_a_student_must_type_an_id_and_a_course():
    with pytest.raises(StudentIdError, match="STUDENT_ID is empty"):
        homework("hw1-counting", "  ", course="stat140")
    with pytest.raises(StudentIdError, match="a student ID is"):
        homework("hw1-counting", "ada@berkeley.edu", course="stat140")
    with pytest.raises(RummyError, match="course must be"):
        homework("hw1-counting", "ada", course="no spaces allowed")
    with pytest.raises(RummyError, match="no assignment"):
        homework("hw9", "ada", course="stat140")
    with pytest.raises(RummyError, match="has no question 'q99'"):
        homework("hw1-counting", "ada", course="stat140").numbers("q99")


# --- rosters and file names ----------------------------------------------------------------------


def test_a_roster_of_ids_or_a_csv(tmp_path):
    plain = tmp_path / "ids.txt"
    plain.write_text("# my class\n3032123456\n\n Ada.Lovelace \n")
    assert [s.id for s in read_roster(plain)] == ["3032123456", "ada.lovelace"]
    table = tmp_path / "roster.csv"
    table.write_text("Student,SIS User ID,Section,email\nLovelace Ada,ada,101,ada@x.edu\n")
    (ada,) = read_roster(table)
    assert ada == Student("ada", "Lovelace Ada", "ada@x.edu", "101")


@pytest.mark.parametrize(
    "text, where",
    [
        ("ada\nbad id\n", "line 2"),
        ("ada\nbob\nADA\n", "lines 1 and 3"),
        ("\n# none\n", "no student"),
    ],
)
def test_a_roster_line_that_is_no_id_is_named(tmp_path, text, where):
    path = tmp_path / "ids.txt"
    path.write_text(text)
    with pytest.raises(GradingError, match=where):
        read_roster(path)
    table = tmp_path / "r.csv"
    table.write_text("name,email\nAda,ada@x\n")
    with pytest.raises(GradingError, match="no ID column"):
        read_roster(table)


def test_files_an_lms_renamed_map_to_their_students(tmp_path):
    class_ = [Student("3032123456"), Student("ada_l-2"), Student("l-2")]
    assert owner("lovelaceada_12345_67890_3032123456", class_) == "3032123456"
    assert owner("LATE_ada_l-2", class_) == "ada_l-2"  # the longest ID that fits
    assert owner("3032123456-2", class_) == "3032123456"
    assert owner("x3032123456", class_) is None  # no separator before the ID
    assert owner("name_12345_bob", None) == "name_12345_bob"  # a whole name that is an ID
    assert owner("Name With Space_bob", None) == "bob"
    files = [tmp_path / "3032123456.ipynb", tmp_path / "sub_3032123456.ipynb", tmp_path / "x.ipynb"]
    with pytest.raises(GradingError, match=r"3032123456\.ipynb and sub_3032123456\.ipynb"):
        whose(files, class_)
    found, nobody = whose(files[1:], class_)
    assert found == {"3032123456": files[1]} and nobody == [files[2]]


# --- the autograder zip's checks -----------------------------------------------------------------------


def test_a_zip_that_is_no_autograder_is_refused_by_name(tmp_path):
    text = tmp_path / "notes.zip"
    text.write_text("not a zip")
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("tests/q1.py", "test = {}")
    for path, why in [
        (text, "not a zip"),
        (empty, "no files/rummykit_assignment.json"),
        (tmp_path / "none.zip", "no such file"),
    ]:
        with pytest.raises(GradingError, match=why) as caught:
            load(path)
        assert str(path) in str(caught.value)


# --- the sandbox, on small notebooks -------------------------------------------------------------------


def _notebook(*cells: str) -> bytes:
    cells = [nbformat.v4.new_code_cell(source) for source in cells]
    return nbformat.writes(nbformat.v4.new_notebook(cells=cells)).encode()


@pytest.mark.slow
def test_a_notebook_hands_back_its_values_and_its_errors():
    isolation = sandbox.isolation("process")
    outcome = sandbox.run(
        _notebook("a = 1", "raise ValueError('a student bug')", "b = [a, 2.5]", "%time c = 3"),
        ("a", "b", "c", "d"),
        sandbox.Limits(seconds=30),
        isolation,
    )
    assert outcome.status == "finished" and outcome.reason == ""
    assert outcome.values == {"a": 1, "b": [1, 2.5], "c": 3, "d": values.MISSING}
    assert outcome.errors == ({"cell": 2, "error": "ValueError", "message": "a student bug"},)
    assert (outcome.cell, outcome.cells) == (4, 4)


@pytest.mark.slow
def test_a_loop_keeps_what_was_set_before_it():
    outcome = sandbox.run(
        _notebook("a = 1", "while True: pass", "b = 2"),
        ("a", "b"),
        sandbox.Limits(seconds=3),
        sandbox.isolation("process"),
    )
    assert outcome.status == "timeout" and "3 s limit in cell 2 of 3" in outcome.reason
    assert outcome.values == {"a": 1, "b": values.MISSING} and 3 <= outcome.seconds < 10


@pytest.mark.slow
def test_output_memory_and_a_crash_are_limited_and_said():
    limits = sandbox.Limits(seconds=30, output=1 << 20, memory=1 << 30)
    flood = sandbox.run(
        _notebook("a = 1", "for _ in range(10**5): print('x' * 100)", "b = 2"),
        ("a", "b"),
        limits,
        sandbox.isolation("process"),
    )
    assert flood.values == {"a": 1, "b": 2} and "printed 1 MiB or more" in flood.reason
    greedy = sandbox.run(
        _notebook("a = bytearray(2 * 2**30)", "b = 2"),
        ("a", "b"),
        limits,
        sandbox.isolation("process"),
    )
    assert greedy.values["b"] == 2 and greedy.errors[0]["error"] == "MemoryError"
    crash = sandbox.run(
        _notebook("a = 1", "import ctypes; ctypes.string_at(0)", "b = 2"),
        ("a", "b"),
        limits,
        sandbox.isolation("process"),
    )
    assert crash.status == "crashed" and "SIGSEGV" in crash.reason and "cell 2 of 3" in crash.reason
    assert crash.values == {"a": 1, "b": values.MISSING}


def _isolation(kind: str):
    """``kind``'s isolation; bubblewrap skips where it cannot run, but never in CI."""
    try:
        return sandbox.isolation(kind)
    except GradingError:
        if os.environ.get("CI") or kind == "process":
            raise
        pytest.skip("bubblewrap cannot run here (CI installs it: .ci/run)")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bubblewrap", "process"])
def test_a_notebook_that_kills_its_parent_runs_on_to_its_end(kind):
    """The notebook's parent is a go-between (plain processes) or the sandbox's init
    (bubblewrap): killing it ends no run, and the grader waits for the notebook's later
    cells (as plain processes it once cut them off, under load: CI failed on the hostile
    class's ``killer``)."""
    isolation = _isolation(kind)
    kill = "import os, signal, time\ntry:\n    os.kill(os.getppid(), signal.SIGKILL)\n"
    kill += "except OSError:\n    pass\ntime.sleep(1)"  # a sandbox's init may refuse
    outcome = sandbox.run(
        _notebook("a = 1", kill, "b = 2"), ("a", "b"), sandbox.Limits(seconds=30), isolation
    )
    assert outcome.status == "finished" and outcome.values == {"a": 1, "b": 2}
    assert outcome.errors == ()
    looping = sandbox.run(
        _notebook("a = 1", kill + "\nwhile True: pass", "b = 2"),
        ("a", "b"),
        sandbox.Limits(seconds=3),
        isolation,
    )
    assert looping.status == "timeout" and "3 s limit in cell 2 of 3" in looping.reason
    assert looping.values == {"a": 1, "b": values.MISSING} and 3 <= looping.seconds < 10


@pytest.mark.slow
def test_two_runs_at_once_never_share_a_user_id():
    """As root under bubblewrap each child runs as a user ID it leases, and the clean-up
    after a run kills every process of that ID: a second run (another grader, or its
    start-up check) started while the first runs must not end the first's notebook (they
    once both ran as slot 0's ID, and CI lost a solved notebook to it)."""
    import threading

    isolation = _isolation("bubblewrap")
    if not isolation.own_uid:
        pytest.skip("only a grader run as root gives each child a user ID of its own")
    slow = _notebook("import time, os\nuid = os.getuid()\ntime.sleep(4)", "b = 2")
    outcomes = {}
    first = threading.Thread(
        target=lambda: outcomes.update(
            first=sandbox.run(slow, ("b", "uid"), sandbox.Limits(seconds=30), isolation)
        )
    )
    first.start()
    try:
        for _ in range(3):
            other = sandbox.run(
                _notebook("import os\nuid = os.getuid()"), ("uid",), sandbox.Limits(), isolation
            )
            assert other.status == "finished"
            assert sandbox.FIRST_UID <= other.values["uid"] < sandbox.FIRST_UID + sandbox.UIDS
    finally:
        first.join()
    assert outcomes["first"].status == "finished", outcomes["first"].reason
    assert outcomes["first"].values["b"] == 2
    assert outcomes["first"].values["uid"] != other.values["uid"]


def test_user_ids_are_leased_one_holder_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(sandbox, "UIDS", 2)
    with sandbox._leased_uid() as one, sandbox._leased_uid() as two:
        assert (one, two) == (sandbox.FIRST_UID, sandbox.FIRST_UID + 1)
        with pytest.raises(GradingError, match="all 2 user IDs .* are in use"):
            sandbox._leased_uid().__enter__()
    with sandbox._leased_uid() as again:  # released at the block's end
        assert again == sandbox.FIRST_UID
    (tmp_path / "rummykit-grading-uids").chmod(0o777)
    with pytest.raises(GradingError, match="nobody else may write to"):
        sandbox._leased_uid().__enter__()


def test_limits_are_checked():
    for bad in ({"seconds": 0}, {"memory": 1 << 20}, {"output": 0}, {"processes": True}):
        with pytest.raises(RummyError):
            sandbox.Limits(**bad)
    with pytest.raises(RummyError, match="auto, bubblewrap or process"):
        sandbox.isolation("docker")


def test_a_snapshot_line_from_the_student_is_only_data(tmp_path):
    """The grader reads the last line that parses; a line the notebook wrote is only
    answers, and facts of the wrong type are dropped."""
    channel = tmp_path / "channel"
    forged = {"values": {"a": {"int": "7"}}, "cell": "9", "done": "yes", "errors": [{"cell": 1}]}
    channel.write_bytes(
        values.encode_message({"a": {"int": "1"}}, cell=1, cells=2)
        + (json.dumps(forged) + "\n").encode()
        + b'{"values": {"a": '
    )
    found, facts = sandbox._last_snapshot(channel, ("a",))
    assert found == {"a": 7}
    assert sandbox._clean(facts) == {"errors": (), "student_id": None}


def test_under_otter_the_student_is_gradescopes_or_the_typed_id(tmp_path, monkeypatch):
    from rummykit.teach.grading.otter import student_named

    monkeypatch.chdir(tmp_path)
    assert student_named({"STUDENT_ID": " Ada "}) == "ada"
    (tmp_path / "submission_metadata.json").write_text("{}")  # what a plain otter run writes
    assert student_named({"STUDENT_ID": "ada"}) == "ada"
    metadata = {"users": [{"email": "Bob.Smith@berkeley.edu", "sid": ""}]}
    (tmp_path / "submission_metadata.json").write_text(json.dumps(metadata))
    assert student_named({"STUDENT_ID": "ada"}) == "bob.smith"
    metadata["users"][0]["sid"] = "3032123456"
    (tmp_path / "submission_metadata.json").write_text(json.dumps(metadata))
    assert student_named({"STUDENT_ID": "ada"}) == "3032123456"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bubblewrap", "process"])
def test_a_notebook_reaches_no_network(kind):
    """A server on this machine's loopback, which the grader reaches: a sandboxed notebook
    cannot (its network namespace has a loopback of its own, down)."""
    import socket

    isolation = _isolation(kind)
    if not isolation.unshare and kind == "process":
        pytest.skip("unshare cannot make a network namespace here")
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    try:
        reach = (
            f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=3)"
            "\n    reached = True\nexcept OSError:\n    reached = False"
        )
        outcome = sandbox.run(_notebook(reach), ("reached",), sandbox.Limits(seconds=30), isolation)
        assert outcome.values == {"reached": False}
        socket.create_connection(("127.0.0.1", port), timeout=3).close()  # the grader can
    finally:
        server.close()
