"""Scale-out and long runs: Dask clusters, resumable sweeps, tables written whole or not at all."""

from __future__ import annotations

import dataclasses
import json
import pickle
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from rummykit.cli import main
from rummykit.errors import ArgumentError, ClusterError, OutputError
from rummykit.odds.data.checkpoint import FILE, Checkpoint
from rummykit.odds.data.cluster import dask_executor
from rummykit.odds.data.pool import run_sweep
from rummykit.odds.data.schemas import SCHEMAS
from rummykit.odds.pipeline import RECIPES, build_tables, preset_completion_cells, write_tables
from rummykit.odds.play import completion, fastplay
from rummykit.odds.play.completion import cells, play_rounds, simulate_cells

distributed = pytest.importorskip("distributed")

#: The simulated tables of a small recipe (the dealt-odds ones come with --quick).
SIMULATED = ["buying_value", "completion_by_turn", "completion_summary", "seat_position"]
SMALL = dataclasses.replace(RECIPES["quick"], n=3, preset_n=2)


@pytest.fixture(scope="module")
def cluster():
    """An in-process cluster of two one-thread workers: a real scheduler, quick to start."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as local:
        yield local


@pytest.fixture(scope="module")
def serial_tables():
    return build_tables(SMALL, only=SIMULATED, max_workers=1, progress=False)


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (hidden ones too), by relative path, with its bytes."""
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def an_old_data_directory(tmp_path: Path) -> Path:
    out = tmp_path / "data"
    out.mkdir()
    for name in SCHEMAS:
        for ext in ("parquet", "csv", "json"):
            (out / f"{name}.{ext}").write_bytes(f"old {name}.{ext}\n".encode())
    (out / "README.md").write_text("not a table\n")
    return out


class Interrupted(Exception):
    """The failure a test injects into a run."""


def fail_after(monkeypatch, rounds: int) -> None:
    """Make the round players (the engine's and the compiled simulator's, whichever a
    sweep uses) raise once ``rounds`` rounds have been played."""
    played = [0]
    real, real_fast = completion.play_round, fastplay.play_rounds_fast

    def play_round(cell, seed, index=0):
        if played[0] == rounds:
            raise Interrupted(f"stopped after {rounds} rounds")
        played[0] += 1
        return real(cell, seed, index)

    def play_rounds_fast(cell, seed, indices):
        records = []
        for index in indices:
            if played[0] == rounds:
                raise Interrupted(f"stopped after {rounds} rounds")
            played[0] += 1
            records += real_fast(cell, seed, [index])
        return records

    monkeypatch.setattr(completion, "play_round", play_round)
    monkeypatch.setattr(fastplay, "play_rounds_fast", play_rounds_fast)


# --------------------------------------------------------------------------- same results


@pytest.mark.slow
def test_tables_on_dask_equal_serial_and_process_pool(cluster, serial_tables):
    with distributed.Client(cluster, set_as_default=False) as client:
        on_dask = build_tables(
            SMALL, only=SIMULATED, executor=client.get_executor(), progress=False
        )
    pooled = build_tables(SMALL, only=SIMULATED, max_workers=2, progress=False)
    assert sorted(on_dask) == sorted(serial_tables) == SIMULATED
    for name, (table, _) in serial_tables.items():
        assert on_dask[name][0].equals(table), name
        assert pooled[name][0].equals(table), name


def test_tables_hold_the_other_presets_with_their_own_rounds_per_cell(serial_tables):
    for name in ("completion_by_turn", "completion_summary", "seat_position"):
        table, facts = serial_tables[name]
        family = table.filter(rules="family")
        assert sorted(set(family["players"])) == [2, 4], name
        assert sorted(set(family["round"])) == [1, 4], name
        assert set(family["n"]) == {2}, name
        assert set(table.filter(rules="standard")["n"]) == {3}, name
        assert (facts["rules"], facts["n"], facts["preset_n"]) == (["standard", "family"], 3, 2)
    assert set(serial_tables["buying_value"][0]["rules"]) == {"standard"}
    # Only the player counts a preset allows: pagat is for 3 to 8.
    pagat = dataclasses.replace(SMALL, table_presets=("pagat",))
    assert {(c.players, c.round) for c in preset_completion_cells(pagat)} == {(4, 1), (4, 4)}


@pytest.mark.slow
def test_worker_processes_give_the_serial_tables(serial_tables):
    # Separate processes: every task and record crosses a pickle, as on a real cluster.
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as local,
        dask_executor(local.scheduler_address) as connected,
    ):
        assert connected.address.startswith("tcp://")
        tables = build_tables(
            SMALL, only=["completion_by_turn"], executor=connected.executor, progress=False
        )
    assert tables["completion_by_turn"][0].equals(serial_tables["completion_by_turn"][0])


def test_chunking_does_not_change_the_records():
    grid = cells(players=[2, 3], rounds=1)
    whole = simulate_cells(grid, n=5, seed=4, max_workers=1, progress=False, chunk=5)
    for chunk in (1, 2, 3):
        split = simulate_cells(grid, n=5, seed=4, max_workers=1, progress=False, chunk=chunk)
        assert split == whole, chunk


def test_simulate_cells_takes_a_play_function_per_chunk():
    grid = cells(players=2, rounds=[1, 4])
    asked = []

    def recording_play(cell, seed, indices):
        asked.append((cell.round, seed, list(indices)))
        return play_rounds(cell, seed, indices)

    records = simulate_cells(
        grid, n=3, seed=9, max_workers=1, progress=False, play=recording_play, chunk=2
    )
    assert asked == [(1, 9, [0, 1]), (1, 9, [2]), (4, 9, [0, 1]), (4, 9, [2])]
    assert records == simulate_cells(grid, n=3, seed=9, max_workers=1, progress=False)
    with pytest.raises(ArgumentError, match="chunk must be a positive integer"):
        simulate_cells(grid, n=3, chunk=0)


@pytest.mark.slow
def test_cli_tables_on_dask_write_the_serial_files(cluster, tmp_path, capsys):
    serial, on_dask = tmp_path / "serial", tmp_path / "dask"
    quick = ["tables", "--quick", "--n", "2", "--preset-n", "3", "--no-progress"]
    assert main([*quick, "--out", str(serial), "--workers", "1"]) == 0
    assert main([*quick, "--out", str(on_dask), "--dask", cluster.scheduler_address]) == 0
    assert "on the Dask cluster at inproc://" in capsys.readouterr().err
    for name in SCHEMAS:
        assert pl.read_parquet(on_dask / f"{name}.parquet").equals(
            pl.read_parquet(serial / f"{name}.parquet")
        ), name
        for ext in ("parquet", "csv"):
            assert (on_dask / f"{name}.{ext}").read_bytes() == (
                serial / f"{name}.{ext}"
            ).read_bytes()
        provenance = json.loads((on_dask / f"{name}.json").read_text())
        assert provenance["command"] == "rummykit tables --seed 2026 --quick --n 2 --preset-n 3"
        run = provenance["run"]
        assert run["executor"] == "dask"
        assert run["dask"] == cluster.scheduler_address
        assert (run["workers"], run["threads"]) == (2, 2)
        assert isinstance(run["seconds"], float)
        here = json.loads((serial / f"{name}.json").read_text())["run"]
        assert (here["executor"], here["workers"]) == ("this process", 1)
        assert "dask" not in here


@pytest.mark.slow
def test_cli_simulate_on_dask_prints_the_serial_estimate(cluster, capsys):
    argv = ["simulate", "--contract", "2", "--n", "250000", "--seed", "5"]
    assert main(argv) == 0
    serial = capsys.readouterr().out
    assert main([*argv, "--dask", cluster.scheduler_address]) == 0
    captured = capsys.readouterr()
    assert captured.out == serial
    assert "n = 250,000, seed 5" in serial
    assert "2 workers" in captured.err


def test_dealt_simulation_is_the_same_on_any_executor(cluster):
    from rummykit import CONTRACTS, RuleSet
    from rummykit.odds.dealt.simulate import simulate_dealt

    # 1 set + 1 run in 10 cards: about 2%, so some 150 successes in 7,000 hands.
    hand = dict(decks=2, jokers=4, cards=10, rules=RuleSet.preset("standard"), n=7_000, seed=2)
    serial = simulate_dealt(CONTRACTS[1], **hand, batch=3_000)
    assert 100 < serial.successes < 250
    reported = []
    with distributed.Client(cluster, set_as_default=False) as client:
        spread = simulate_dealt(
            CONTRACTS[1],
            **hand,
            batch=3_000,
            executor=client.get_executor(),
            progress=lambda done, n: reported.append((done, n)),
        )
    assert spread == serial
    assert sorted(reported)[-1] == (7_000, 7_000) and len(reported) == 3
    # The batches are the serial run's: another seed deals other hands.
    assert simulate_dealt(CONTRACTS[1], **{**hand, "seed": 3}, batch=3_000) != serial


# --------------------------------------------------------------------------- bad addresses


@pytest.mark.slow
def test_an_unreachable_scheduler_fails_within_30_s_and_writes_nothing(tmp_path):
    out = an_old_data_directory(tmp_path)
    before = snapshot(out)
    # Port 1 (tcpmux) is outside the ephemeral ports, so nothing listens there and the
    # client cannot connect to itself (a free ephemeral port can: TCP's self-connect).
    address = "tcp://127.0.0.1:1"
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "tables", "--quick", "--out", str(out)]
        + ["--dask", address, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    elapsed = time.perf_counter() - started
    assert result.returncode == 2
    assert f"cannot reach the Dask scheduler at '{address}'" in result.stderr
    assert "Traceback" not in result.stderr
    assert elapsed < 30
    assert snapshot(out) == before


def test_a_malformed_address_is_named_at_once(tmp_path, capsys):
    out = an_old_data_directory(tmp_path)
    before = snapshot(out)
    started = time.perf_counter()
    with pytest.raises(SystemExit) as stop:
        main(["tables", "--quick", "--out", str(out), "--dask", "scheduler-without-port"])
    assert stop.value.code == 2
    assert time.perf_counter() - started < 5
    assert "'scheduler-without-port' is not a Dask scheduler address" in capsys.readouterr().err
    assert snapshot(out) == before
    with (
        pytest.raises(ClusterError, match="unknown address scheme 'udp'"),
        dask_executor("udp://x:1"),
    ):
        pass


def test_dask_and_workers_together_are_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["tables", "--quick", "--dask", "tcp://127.0.0.1:1", "--workers", "2"])
    assert stop.value.code == 2
    assert "either --dask or --workers" in capsys.readouterr().err


def test_a_scheduler_without_workers_is_named():
    heard = []
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty:
        started = time.perf_counter()
        with (
            pytest.raises(
                ClusterError, match="has no worker after 1 s: start one with `dask worker"
            ),
            dask_executor(empty.scheduler_address, wait=1, log=heard.append),
        ):
            pass
        assert time.perf_counter() - started < 10
    assert heard == [
        f"the Dask scheduler at {empty.scheduler_address} has no worker yet: waiting up to "
        f"1 s for one (`dask worker {empty.scheduler_address}`)"
    ]


def test_workers_running_another_rummykit_are_refused(cluster, monkeypatch):
    from rummykit.odds.data import cluster as scale_out

    real = scale_out.code_fingerprint

    def fingerprint(dask_worker=None):  # Client.run passes the worker it runs on
        return real() if dask_worker is None else "edited-elsewhere"

    monkeypatch.setattr(scale_out, "code_fingerprint", fingerprint)
    with (
        pytest.raises(ClusterError, match="run another rummykit than this machine"),
        dask_executor(cluster.scheduler_address),
    ):
        pass
    monkeypatch.undo()
    with dask_executor(cluster.scheduler_address) as connected:
        assert (connected.workers, connected.threads) == (2, 2)


# --------------------------------------------------------------------------- atomic writes


def test_a_run_failing_midway_leaves_the_out_directory_unchanged(tmp_path, monkeypatch):
    out = an_old_data_directory(tmp_path)
    before = snapshot(out)
    fail_after(monkeypatch, 5)
    with pytest.raises(Interrupted):
        main(["tables", "--quick", "--out", str(out), "--workers", "1", "--no-progress"])
    assert snapshot(out) == before


def test_a_write_failing_midway_leaves_the_out_directory_unchanged(
    tmp_path, monkeypatch, serial_tables
):
    out = an_old_data_directory(tmp_path)
    before = snapshot(out)
    written = []
    real = pl.DataFrame.write_csv

    def write_csv(self, path, *args, **kwargs):
        if len(written) == 2:
            raise OSError("disk full")
        written.append(path)
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_csv", write_csv)
    with pytest.raises(OutputError, match=r"failed \(disk full\), so it is as it was"):
        write_tables(serial_tables, out, "rummykit tables")
    assert len(written) == 2
    assert snapshot(out) == before  # no table replaced, no temporary directory inside
    # What was computed is kept beside it, and every table pickled.
    (kept,) = tmp_path.glob("data.unwritten-*")
    saved = pickle.loads((kept / "tables.pickle").read_bytes())
    assert saved["tables"].keys() == serial_tables.keys()
    fresh = tmp_path / "new" / "data"
    (tmp_path / "new").mkdir()
    with pytest.raises(OutputError, match="disk full"):
        write_tables(serial_tables, fresh, "rummykit tables")
    assert not fresh.exists()
    assert [p.name.split("-")[0] for p in (tmp_path / "new").iterdir()] == ["data.unwritten"]


def test_write_tables_replaces_the_tables_and_keeps_other_files(tmp_path, serial_tables):
    out = an_old_data_directory(tmp_path)
    paths = write_tables(serial_tables, out, "rummykit tables", run={"seconds": 1.5})
    assert sorted(p.name for p in paths) == sorted(
        f"{name}.{ext}" for name in SIMULATED for ext in ("parquet", "csv", "json")
    )
    for name, (table, _) in serial_tables.items():
        assert pl.read_parquet(out / f"{name}.parquet").equals(table)
        assert json.loads((out / f"{name}.json").read_text())["run"] == {"seconds": 1.5}
    assert (out / "README.md").read_text() == "not a table\n"
    assert (out / "exact_odds.csv").read_text() == "old exact_odds.csv\n"
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


# --------------------------------------------------------------------------- resuming


def test_an_interrupted_sweep_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    grid = cells(players=[2, 3], rounds=[1, 4])
    whole = simulate_cells(grid, n=7, seed=3, max_workers=1, progress=False, chunk=3)
    directory = tmp_path / "checkpoint"
    with monkeypatch.context() as patch:
        # 7 rounds in chunks of 3 are 3 chunks a cell, 12 in all: the first cell's 3
        # chunks finish, then the next cell's first chunk fails in its second round.
        fail_after(patch, 8)
        with pytest.raises(Interrupted):
            simulate_cells(
                grid, n=7, seed=3, max_workers=1, progress=False, chunk=3,
                checkpoint=Checkpoint(directory),
            )  # fmt: skip
    assert len(Checkpoint(directory)) == 3
    store = Checkpoint(directory)
    resumed = simulate_cells(
        grid, n=7, seed=3, max_workers=1, progress=False, chunk=3, checkpoint=store
    )
    assert resumed == whole
    assert (store.reused, store.stored) == (3, 12 - 3)
    # Run again: every chunk comes from the checkpoint, none is played.
    again = Checkpoint(directory)
    fail_after(monkeypatch, 0)
    assert simulate_cells(grid, n=7, seed=3, max_workers=1, progress=False, chunk=3,
                          checkpoint=again) == whole  # fmt: skip
    assert (again.reused, again.stored) == (12, 0)


def test_chunks_played_on_dask_resume_a_serial_run(cluster, tmp_path, monkeypatch):
    grid = cells(players=[2, 3], rounds=1)
    store = Checkpoint(tmp_path)
    with distributed.Client(cluster, set_as_default=False) as client:
        on_dask = simulate_cells(
            grid, n=4, seed=6, executor=client.get_executor(), progress=False, chunk=2,
            checkpoint=store,
        )  # fmt: skip
    assert store.stored == 4
    fail_after(monkeypatch, 0)  # nothing may be played again
    again = Checkpoint(tmp_path)
    resumed = simulate_cells(
        grid, n=4, seed=6, max_workers=1, progress=False, chunk=2, checkpoint=again
    )
    assert resumed == on_dask
    assert again.reused == 4
    monkeypatch.undo()
    assert on_dask == simulate_cells(grid, n=4, seed=6, max_workers=1, progress=False)


def test_a_checkpoint_is_found_only_under_the_same_key(tmp_path):
    cell = cells(players=2, rounds=1)[0]
    store = Checkpoint(tmp_path)
    records = play_rounds(cell, 7, [0, 1])
    store.put(cell, 7, [0, 1], play_rounds, records)
    assert store.get(cell, 7, [0, 1], play_rounds) == records
    other_rules = dataclasses.replace(cell.rules, buy_penalty_cards=2)
    changed = [
        (dataclasses.replace(cell, rules=other_rules), 7, [0, 1], play_rounds),
        (dataclasses.replace(cell, buy="never"), 7, [0, 1], play_rounds),
        (cell, 8, [0, 1], play_rounds),
        (cell, 7, [0, 1, 2], play_rounds),
        (cell, 7, [0, 1], completion.play_round),
    ]
    for key in changed:
        assert store.get(*key) is None, key
    assert store.reused == 1


def test_a_checkpoint_drops_a_partial_last_line_and_names_a_corrupt_one(tmp_path):
    cell = cells(players=2, rounds=1)[0]
    store = Checkpoint(tmp_path)
    store.put(cell, 7, [0], play_rounds, play_rounds(cell, 7, [0]))
    store.put(cell, 7, [1], play_rounds, play_rounds(cell, 7, [1]))
    path = tmp_path / FILE
    whole = path.read_bytes()
    path.write_bytes(whole[:-25])  # the second chunk cut short, as a killed run leaves it
    cut = Checkpoint(tmp_path)
    assert len(cut) == 1 and cut.get(cell, 7, [1], play_rounds) is None
    cut.put(cell, 7, [1], play_rounds, play_rounds(cell, 7, [1]))
    assert path.read_bytes() == whole
    path.write_bytes(b"{}\n" + whole)
    with pytest.warns(RuntimeWarning, match=f"checkpoint '{path}' line 1: not a chunk"):
        garbage = Checkpoint(tmp_path)
    assert len(garbage) == 2 and path.read_bytes() == whole  # the line moved aside
    with pytest.raises(ArgumentError, match="is a file, not a directory"):
        Checkpoint(path)


@pytest.mark.slow
def test_cli_tables_resume_after_an_interruption(tmp_path, monkeypatch, capsys):
    quick = ["tables", "--quick", "--only", *SIMULATED, "--workers", "1", "--no-progress"]
    plain, resumed, directory = tmp_path / "plain", tmp_path / "resumed", tmp_path / "chunks"
    assert main([*quick, "--out", str(plain)]) == 0
    with monkeypatch.context() as patch:
        fail_after(patch, 30)
        with pytest.raises(Interrupted):
            main([*quick, "--out", str(resumed), "--checkpoint", str(directory)])
    assert not resumed.exists()
    stored = len(Checkpoint(directory))
    assert stored > 0
    capsys.readouterr()
    assert main([*quick, "--out", str(resumed), "--checkpoint", str(directory)]) == 0
    assert f"{stored} chunks reused" in capsys.readouterr().err
    for name in SIMULATED:
        for ext in ("parquet", "csv"):
            assert (resumed / f"{name}.{ext}").read_bytes() == (
                plain / f"{name}.{ext}"
            ).read_bytes()
        run = json.loads((resumed / f"{name}.json").read_text())["run"]
        assert run["checkpoint"]["chunks_reused"] == stored
        assert run["checkpoint"]["chunks_played"] > 0


def test_run_sweep_reports_each_result_as_it_finishes():
    seen = []
    with pytest.raises(ZeroDivisionError):
        run_sweep(divmod, [(7, 2), (8, 3), (1, 0), (9, 4)], max_workers=1, progress=False,
                  on_result=lambda i, result: seen.append((i, result)))  # fmt: skip
    assert seen == [(0, (3, 1)), (1, (2, 2))]


def test_a_task_lost_by_dasks_executor_is_told_from_a_tasks_own_error():
    from rummykit.odds.data.cluster import _lost_by_the_executor

    def raised(code: str, filename: str) -> BaseException:
        try:
            exec(compile(code, filename, "exec"), {})
        except BaseException as error:  # noqa: BLE001 (the test's own raise)
            return error
        raise AssertionError("did not raise")

    unpack = "typ, exc, tb = [1, 2, 3, 4]"
    assert _lost_by_the_executor(raised(unpack, "/site-packages/distributed/cfexecutor.py"))
    assert not _lost_by_the_executor(raised(unpack, "/work/rummykit/odds/play/fastplay.py"))
    assert not _lost_by_the_executor(raised("1 / 0", "/site-packages/distributed/cfexecutor.py"))
