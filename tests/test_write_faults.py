"""Fault injection into the write and checkpoint paths of ``rummykit tables``.

Every write, link, rename, exchange and fsync of a generation fails in turn (an OSError,
an interrupt, a kill of the process), and after each ``--out`` holds exactly the old run
or exactly the new one, byte for byte, and the next run cleans up. The output place is
checked before any work; checkpoints that lie are found, reported and played again.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import errno
import json
import os
import pathlib
import pickle
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

from rummykit.cli import main
from rummykit.errors import OutputError, RummyError
from rummykit.odds import pipeline
from rummykit.odds.data import checkpoint as checkpoints
from rummykit.odds.data import output
from rummykit.odds.data.checkpoint import FILE, REJECTED, Checkpoint
from rummykit.odds.data.output import recover, tidy, write_generation
from rummykit.odds.data.schemas import data_directory
from rummykit.odds.play.completion import cells, play_rounds, simulate_cells

#: Two tables of a run with ``--only``: tiny frames (the write path does not read them).
NEW_TABLES = {
    "exact_odds": (pl.DataFrame({"p": [0.25, 0.5]}), {"seed": 1}),
    "distance": (pl.DataFrame({"d": [0, 1, 2]}), {"seed": 1}),
}


def snapshot(directory: Path) -> dict[str, bytes] | None:
    """Every entry under ``directory`` by relative path: a file's bytes, a link's target."""
    if not directory.exists():
        return None
    found = {}
    for path in sorted(directory.rglob("*")):
        key = str(path.relative_to(directory))
        if path.is_symlink():
            found[key] = b"-> " + os.fsencode(os.readlink(path))
        elif path.is_file():
            found[key] = path.read_bytes()
    return found


def old_generation(parent: Path) -> Path:
    """A ``data/`` of a previous run: every table, a README, a subfolder and a link."""
    out = parent / "data"
    out.mkdir()
    for name in ("exact_odds", "exact_jokers", "distance", "outs_bot"):
        for ext in ("parquet", "csv", "json"):
            (out / f"{name}.{ext}").write_bytes(f"old {name}.{ext}\n".encode())
    (out / "README.md").write_text("not a table\n")
    (out / "notes").mkdir()
    (out / "notes" / "a.txt").write_text("kept\n")
    (out / "latest").symlink_to("README.md")
    return out


def hidden_leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


class Injected(OSError):
    """The failure a test injects into a write."""


class Interrupt(KeyboardInterrupt):
    """The interrupt a test injects into a write."""


#: (owner, attribute) of every call that writes, links, renames or syncs on the way.
FAULT_POINTS = [
    (os, "replace"),
    (os, "rename"),
    (os, "link"),
    (os, "symlink"),
    (os, "fsync"),
    (shutil, "copy2"),
    (shutil, "copymode"),
    (pathlib.Path, "mkdir"),
    (pathlib.Path, "write_text"),
    (pathlib.Path, "write_bytes"),
    (pl.DataFrame, "write_parquet"),
    (pl.DataFrame, "write_csv"),
    (output, "exchange"),
]


@contextlib.contextmanager
def faults(monkeypatch, at: int, make, counted: list, *, exchange: bool = True):
    """Count every call of :data:`FAULT_POINTS` (by name in ``counted``) and make the
    ``at``-th raise ``make()`` (never if ``at`` is 0); ``exchange`` False makes the
    system lack ``renameat2(RENAME_EXCHANGE)``, so the journal's two renames are used."""
    with monkeypatch.context() as patch:
        for owner, name in FAULT_POINTS:
            real = getattr(owner, name)
            if owner is output and name == "exchange" and not exchange:
                real = lambda first, second: False  # noqa: E731
            if name == "fsync":  # counted and broken in turn, but not waited for
                real = lambda descriptor: None  # noqa: E731

            def wrapped(*args, _real=real, _name=name, **kwargs):
                counted.append(_name)
                if len(counted) == at:
                    raise make()
                return _real(*args, **kwargs)

            patch.setattr(owner, name, wrapped)
        yield


@pytest.mark.slow
@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "journal"])
def test_every_write_and_rename_failing_in_turn_leaves_old_or_new(tmp_path, monkeypatch, exchange):
    base = tmp_path / "base"
    base.mkdir()
    old = snapshot(old_generation(base))
    # The new run, written without faults: its calls are the ones to break in turn.
    calls: list[str] = []
    with faults(monkeypatch, 0, None, calls, exchange=exchange):
        pipeline.write_tables(NEW_TABLES, base / "data", "rummykit tables --only ...")
    new = snapshot(base / "data")
    assert new != old and new["README.md"] == old["README.md"] and "latest" in new
    assert new["exact_jokers.csv"] == old["exact_jokers.csv"]  # carried over
    assert {"rename" if not exchange else "exchange", "fsync", "link"} <= set(calls)
    outcomes = collections.Counter()
    for make in (lambda: Injected(28, "No space left on device"), Interrupt):
        for k in range(1, len(calls) + 1):
            case = tmp_path / f"{make.__name__ if isinstance(make, type) else 'oserror'}-{k}"
            case.mkdir()
            out = old_generation(case)
            made: list[str] = []
            try:
                with faults(monkeypatch, k, make, made, exchange=exchange):
                    pipeline.write_tables(NEW_TABLES, out, "rummykit tables --only ...")
                outcomes["written"] += 1
            except OutputError as error:  # an OSError: said plainly, results kept
                assert "so it is as it was" in str(error) or "cannot write in" in str(error)
                outcomes["refused"] += 1
            except Interrupt:
                outcomes["interrupted"] += 1
            after = snapshot(out)
            assert after in (old, new), (k, made[-1])
            # The next run cleans up: nothing hidden stays beside --out.
            said: list[str] = []
            tidy(out, said.append)
            assert hidden_leftovers(case) == [], (k, made[-1])
            for kept in case.glob("data.unwritten-*"):
                assert any(str(kept) in line for line in said)
    # and the next run writes the new generation over what a failure left
    pipeline.write_tables(NEW_TABLES, out, "rummykit tables --only ...")
    assert snapshot(out) == new and hidden_leftovers(case) == []
    assert outcomes["refused"] > 0 and outcomes["interrupted"] > 0 and outcomes["written"] > 0
    assert sum(outcomes.values()) == 2 * len(calls)


#: The system calls of a swap at which the child process is killed, in turn.
KILL_POINTS = [(os, "replace"), (os, "rename"), (os, "fsync"), (os, "link"), (output, "exchange")]


@pytest.mark.slow
@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "journal"])
def test_a_kill_at_every_step_leaves_old_or_new_and_the_next_run_recovers(tmp_path, exchange):
    # The process dies (os._exit: no handler runs) at the k-th call, for every k; what
    # a reader then finds, after the readers' recover(), is one whole generation.
    def write(folder: Path) -> None:
        (folder / "exact_odds.csv").write_bytes(b"new exact_odds.csv\n")
        (folder / "distance.csv").write_bytes(b"new distance.csv\n")

    files = ["exact_odds.csv", "distance.csv"]

    def run(out: Path, kill_at: int) -> int:
        """Write in a child process killed at call ``kill_at``; the calls it made."""
        reading, writing = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover (the child: never back into pytest)
            try:
                os.close(reading)
                count = [0]
                for owner, name in KILL_POINTS:
                    real = getattr(owner, name)
                    if owner is output and not exchange:
                        real = lambda first, second: False  # noqa: E731
                    if name == "fsync":  # a kill, not a power cut: no need to wait
                        real = lambda descriptor: None  # noqa: E731

                    def wrapped(*args, _real=real, **kwargs):
                        count[0] += 1
                        if count[0] == kill_at:
                            os._exit(9)
                        return _real(*args, **kwargs)

                    setattr(owner, name, wrapped)
                write_generation(out, files, write)
                os.write(writing, str(count[0]).encode())
            finally:
                os._exit(0 if count[0] else 1)
        os.close(writing)
        made = os.read(reading, 100)
        os.close(reading)
        _, status = os.waitpid(child, 0)
        return int(made) if os.WEXITSTATUS(status) == 0 else -os.WEXITSTATUS(status)

    base = tmp_path / "base"
    base.mkdir()
    old = snapshot(old_generation(base))
    total = run(base / "data", 0)
    new = snapshot(base / "data")
    assert total > 3 and new != old
    seen = collections.Counter()
    for k in range(1, total + 1):
        case = tmp_path / f"kill-{k}"
        case.mkdir()
        out = old_generation(case)
        assert run(out, k) == -9
        if not out.exists():  # killed between the journal's two renames
            assert not exchange and (case / ".data.swap").exists()
            seen["missing"] += 1
            recover(out)
        seen["old" if snapshot(out) == old else "new" if snapshot(out) == new else "mixed"] += 1
        said: list[str] = []
        tidy(out, said.append)
        assert hidden_leftovers(case) == [], k
        assert all("removed" in line or "completed" in line for line in said)
        write_generation(out, files, write)
        assert snapshot(out) == new
    assert seen["mixed"] == 0 and seen["old"] > 0 and seen["new"] > 0, seen
    assert seen["missing"] == (0 if exchange else 1), seen


def test_a_stale_staging_folder_is_removed_with_a_line(tmp_path, capsys):
    out = old_generation(tmp_path)
    (tmp_path / ".data.new-0123456789ab").mkdir()
    (tmp_path / ".data.new-0123456789ab" / "half.parquet").write_bytes(b"half")
    (out / ".data-tables-0123456789ab").mkdir()  # rummykit's staging before generations
    assert main(["tables", "--quick", "--only", "exact_odds", "--workers", "1",
                 "--no-progress", "--out", str(out)]) == 0  # fmt: skip
    err = capsys.readouterr().err
    assert f"removed '{tmp_path / '.data.new-0123456789ab'}', left by a run killed" in err
    assert f"removed '{out / '.data-tables-0123456789ab'}'" in err
    assert hidden_leftovers(tmp_path) == [] and hidden_leftovers(out) == []
    assert (out / "README.md").read_text() == "not a table\n"
    assert (out / "distance.csv").read_bytes() == b"old distance.csv\n"
    assert (out / "exact_odds.csv").read_bytes() != b"old exact_odds.csv\n"


# --------------------------------------------------------------------------- failing early


@pytest.fixture
def nothing_computed(monkeypatch):
    """Make any computation fail the test: an early check must come first."""

    def build_tables(*args, **kwargs):
        raise AssertionError("the tables were computed before the output place was checked")

    monkeypatch.setattr(pipeline, "build_tables", build_tables)


def tables_fail(argv: list[str], capsys) -> str:
    """The one-line message of a ``rummykit tables`` run that stops with exit status 2."""
    with pytest.raises(SystemExit) as stopped:
        main(["tables", "--quick", "--only", "exact_odds", "--workers", "1", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err, err
    last = err.splitlines()[-1]
    assert last.startswith("rummykit tables: "), err
    return last


def test_an_unusable_out_fails_at_once_with_one_line(tmp_path, capsys, nothing_computed):
    (tmp_path / "file").write_text("in the way\n")
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    cases = {
        "": "--out '' names no folder: give one (the default is data)",
        str(tmp_path / "file"): "is a file, not a directory",
        str(tmp_path / "no" / "data"): f"its parent folder '{tmp_path / 'no'}' does not exist",
        str(tmp_path / "link"): f"is a symbolic link to '{tmp_path / 'gone'}', which does not",
    }
    for out, message in cases.items():
        assert message in tables_fail(["--out", out], capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "link"]


def test_a_full_disk_fails_at_once_stating_the_estimate(tmp_path, capsys, monkeypatch,
                                                        nothing_computed):  # fmt: skip
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(output.shutil, "disk_usage", lambda path: usage._replace(free=5_000))
    need = pipeline.planned_bytes(["exact_odds"])
    committed = [data_directory() / f"exact_odds.{ext}" for ext in ("parquet", "csv", "json")]
    assert need == 2 * sum(path.stat().st_size for path in committed)
    err = tables_fail(["--out", str(tmp_path / "data")], capsys)
    assert f"0.005 MB free on its file system, and the tables need about {need / 1e6:.3f} MB" in err


def test_a_bad_checkpoint_fails_at_once(tmp_path, capsys, nothing_computed):
    (tmp_path / "file").write_text("in the way\n")
    (tmp_path / "chunks" / FILE).mkdir(parents=True)  # a directory where the file goes
    out = ["--out", str(tmp_path / "data")]
    assert "checkpoint '' names no folder" in tables_fail([*out, "--checkpoint", ""], capsys)
    err = tables_fail([*out, "--checkpoint", str(tmp_path / "file")], capsys)
    assert f"checkpoint '{tmp_path / 'file'}' is a file, not a directory" in err
    err = tables_fail([*out, "--checkpoint", str(tmp_path / "chunks")], capsys)
    assert f"checkpoint '{tmp_path / 'chunks' / FILE}' cannot be used (Is a directory)" in err


def test_a_run_whose_records_would_not_fit_in_memory_is_refused_at_once(
    tmp_path, capsys, monkeypatch, nothing_computed
):
    out = old_generation(tmp_path)
    before = snapshot(out)
    planned = pipeline.planned_memory(pipeline.RECIPES["default"])
    monkeypatch.setattr(pipeline, "available_memory", lambda: planned - 1)
    with pytest.raises(SystemExit) as stopped:
        main(["tables", "--out", str(out), "--workers", "1", "--no-progress"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"about {planned / 1e9:.1f} GB for n=10,000 and preset_n=2,000" in err
    assert "give a smaller --n or --preset-n" in err
    assert snapshot(out) == before
    # Enough memory, or tables that keep no records: no refusal.
    monkeypatch.setattr(pipeline, "available_memory", lambda: planned)
    assert pipeline.check_memory(pipeline.RECIPES["default"]) == planned
    monkeypatch.setattr(pipeline, "available_memory", lambda: 0)
    assert pipeline.check_memory(pipeline.RECIPES["default"], ["exact_odds", "outs_bot"]) == 0


def test_the_planned_memory_bounds_the_records_measured(monkeypatch):
    """:func:`pipeline.planned_memory` is at least what the records of a small run take."""
    import tracemalloc

    recipe = dataclasses.replace(pipeline.RECIPES["quick"], n=300, preset_n=30)
    _, _, every, others = pipeline.completion_grids(recipe)
    tracemalloc.start()
    try:
        kept = simulate_cells(every, n=recipe.n, max_workers=1, progress=False)
        kept |= simulate_cells(others, n=recipe.preset_n, max_workers=1, progress=False)
        taken = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert sum(map(len, kept.values())) == len(every) * 300 + len(others) * 30
    assert taken <= pipeline.planned_memory(recipe) <= 2 * taken


@contextlib.contextmanager
def read_only(folder: Path, monkeypatch):
    """``folder`` as a read-only bind mount (which stops root too, unlike chmod). Where
    mounting is refused (no privilege here), the file system's refusal is made instead:
    every ``mkdir`` inside ``folder`` fails with EROFS, as a read-only mount's does."""
    folder.mkdir()
    try:
        made = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
        mounted = made.returncode == 0
    except OSError:  # no mount command
        mounted = False
    if not mounted:
        real_mkdir = pathlib.Path.mkdir

        def mkdir(self, *args, **kwargs):
            if self.parent == folder or folder in self.parents:
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
            return real_mkdir(self, *args, **kwargs)

        with monkeypatch.context() as patched:
            patched.setattr(pathlib.Path, "mkdir", mkdir)
            yield folder
        return
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_read_only_place_fails_at_once(tmp_path, capsys, monkeypatch, nothing_computed):
    with read_only(tmp_path / "ro", monkeypatch) as folder:
        err = tables_fail(["--out", str(folder / "data")], capsys)
        assert f"cannot write in '{folder}' (Read-only file system), where the new" in err
        out = ["--out", str(tmp_path / "data")]
        err = tables_fail([*out, "--checkpoint", str(folder)], capsys)
        assert f"checkpoint '{folder}': cannot write in '{folder}' (Read-only file" in err


def test_a_write_failing_on_a_full_disk_keeps_the_results(tmp_path, capsys, monkeypatch):
    out = old_generation(tmp_path)
    before = snapshot(out)
    real = pl.DataFrame.write_csv

    def write_csv(self, path, *args, **kwargs):
        if Path(path).name == "exact_odds.csv":
            raise OSError(28, "No space left on device")
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_csv", write_csv)
    err = tables_fail(["--out", str(out), "--no-progress"], capsys)
    (kept,) = tmp_path.glob("data.unwritten-*")
    assert "No space left on device" in err and f"kept in '{kept}'" in err
    assert snapshot(out) == before
    # The files whole before the failure, and every table pickled.
    assert sorted(p.name for p in kept.iterdir() if "exact_odds" in p.name) == [
        "exact_odds.parquet"
    ]
    monkeypatch.undo()
    tables = pickle.loads((kept / "tables.pickle").read_bytes())
    pipeline.write_tables(**tables, out=tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere" / "exact_odds.csv").exists()
    said: list[str] = []
    tidy(out, said.append)
    assert said == [f"'{kept}' holds the results of a run whose write failed: remove it when done"]


# --------------------------------------------------------------------------- checkpoints


GRID = cells(players=[2, 3], rounds=1)
SWEEP = {"n": 4, "seed": 5, "max_workers": 1, "progress": False, "chunk": 2}


@pytest.fixture(scope="module")
def uninterrupted():
    return simulate_cells(GRID, **SWEEP)


def full_checkpoint(directory: Path) -> Path:
    simulate_cells(GRID, **SWEEP, checkpoint=Checkpoint(directory))
    return directory / FILE


def resumed(directory: Path) -> tuple[dict, Checkpoint, list[str]]:
    said: list[str] = []
    store = Checkpoint(directory, warn=said.append)
    return simulate_cells(GRID, **SWEEP, checkpoint=store), store, said


def edit_line(path: Path, number: int, change) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    entry = json.loads(lines[number - 1])
    change(entry)
    lines[number - 1] = json.dumps(entry, separators=(",", ":")).encode() + b"\n"
    path.write_bytes(b"".join(lines))


def test_a_whole_checkpoint_is_reused(tmp_path, uninterrupted):
    full_checkpoint(tmp_path)
    records, store, said = resumed(tmp_path)
    assert records == uninterrupted and (store.reused, store.stored, said) == (4, 0, [])


@pytest.mark.parametrize(
    "change",
    [
        lambda entry: entry["records"][0].__setitem__(1, entry["records"][0][1] + 1),  # turns
        lambda entry: entry["records"].append(entry["records"][0]),
        lambda entry: entry["chunk"].__setitem__("seed", 6),
    ],
    ids=["edited-record", "appended-record", "edited-key"],
)
def test_a_hand_edited_chunk_is_played_again_and_reported(tmp_path, uninterrupted, change):
    path = full_checkpoint(tmp_path)
    edit_line(path, 2, change)
    records, store, said = resumed(tmp_path)
    assert records == uninterrupted
    assert (store.reused, store.stored) == (3, 1)
    assert said == [
        f"checkpoint '{path}' line 2: its digest does not match its records (edited or "
        f"damaged); its chunk is played again (the line is moved to {REJECTED})"
    ]
    assert len((tmp_path / REJECTED).read_bytes().splitlines()) == 1
    assert resumed(tmp_path)[2] == []  # fixed: the next run has nothing to say


def test_a_garbage_line_costs_one_chunk(tmp_path, uninterrupted):
    path = full_checkpoint(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[0] = b"garbage\n"
    path.write_bytes(b"".join(lines))
    records, store, said = resumed(tmp_path)
    assert records == uninterrupted and (store.reused, store.stored) == (3, 1)
    assert said[0].startswith(f"checkpoint '{path}' line 1: not a chunk of rounds")
    assert (tmp_path / REJECTED).read_bytes() == b"garbage\n"


def test_chunks_of_other_code_are_played_again(tmp_path, monkeypatch, uninterrupted):
    with monkeypatch.context() as patch:
        patch.setattr(checkpoints, "code_fingerprint", lambda: "other-code-0.1.0")
        full_checkpoint(tmp_path)
    records, store, said = resumed(tmp_path)
    assert records == uninterrupted and (store.reused, store.stored) == (0, 4)
    assert said == [
        f"checkpoint '{tmp_path / FILE}': 4 chunks were played by other rummykit code "
        f"(its source differs from this, {checkpoints.code_fingerprint()}): they are played again"
    ]


def test_a_checkpoint_killed_at_every_chunk_resumes_to_the_same_records(
    tmp_path, monkeypatch, uninterrupted
):
    # The k-th chunk's line is cut halfway and the run stops: every k, then resumed.
    for k in range(1, 5):
        directory = tmp_path / str(k)
        real, puts = Checkpoint.put, [0]

        def put(self, *args, _real=real, _k=k, _puts=puts):
            _puts[0] += 1
            if _puts[0] == _k:
                with self.path.open("a") as file:
                    file.write('{"chunk":{"rules":"stan')
                raise Injected("killed while writing")
            return _real(self, *args)

        with monkeypatch.context() as patch:
            patch.setattr(Checkpoint, "put", put)
            puts[0] = 0
            with pytest.raises(Injected):
                simulate_cells(GRID, **SWEEP, checkpoint=Checkpoint(directory))
        records, store, said = resumed(directory)
        assert records == uninterrupted and (store.reused, store.stored) == (k - 1, 5 - k), k
        assert said == []


def test_a_checkpoint_that_cannot_be_written_names_the_file(tmp_path, monkeypatch):
    store = Checkpoint(tmp_path)
    cell = GRID[0]
    real_open = pathlib.Path.open

    def full(self, mode="r", *args, **kwargs):
        if "a" in mode:
            raise OSError(28, "No space left on device")
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", full)
    with pytest.raises(OutputError, match=f"checkpoint '{tmp_path / FILE}': a finished chunk"):
        store.put(cell, 5, [0], play_rounds, play_rounds(cell, 5, [0]))
    with pytest.raises(RummyError, match=f"checkpoint '{tmp_path / FILE}' cannot be used"):
        Checkpoint(tmp_path)


def test_no_widget_writes_tables():
    # Issue 26 item 16: the CLI's messages for an unwritable --out have no widget
    # counterpart to agree with; no widget writes a table or opens a file itself (the
    # PlayWidget's Save fills a text box). The one widget that keeps a file, the review's
    # retry panel, writes it only through PuzzleBook, whose atomic save and refusals
    # tests/test_mistake_puzzles.py checks.
    widgets = Path(__file__).parents[1] / "rummykit" / "widgets"
    calls = re.compile(r"write_parquet|write_csv|write_text|write_bytes|write_tables|(?<!\w)open\(")
    keeping = []
    for source in widgets.glob("*.py"):
        text = source.read_text()
        assert calls.search(text) is None, (source.name, calls.search(text))
        if "PuzzleBook(" in text:
            keeping.append(source.name)
    assert keeping == ["retry.py"]
