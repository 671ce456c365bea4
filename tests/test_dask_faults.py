"""Dask peers that hang, babble or die: each ends as a ClusterError naming the address.

Local only: every peer listens on 127.0.0.1, every loop is bounded in count and time.
The promise (``rummykit.odds.data.cluster``): every failure within 30 s; a test allows 45 s
so that a loaded machine does not fail it, and the times measured are in the log.
"""

from __future__ import annotations

import contextlib
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.cli import TERMINATED_STATUS, main
from rummykit.errors import ArgumentError, ClusterError
from rummykit.odds.data.cluster import CONNECT_SECONDS, POLL_SECONDS, WAIT_SECONDS, dask_executor
from rummykit.odds.data.pool import run_sweep

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

#: The promise is 30 s; the tests allow this much on a shared, loaded machine.
LIMIT = 45
BIN = Path(sys.executable).parent
#: A simulation long enough to be killed mid-run (minutes), quick to start.
LONG_TABLES = ["tables", "--quick", "--only", "completion_by_turn", "--preset-n", "3"]
LONG_TABLES += ["--n", "50000", "--no-progress"]


# --------------------------------------------------------------------------- bad peers


class Peer:
    """A listener on 127.0.0.1 that is no Dask scheduler, serving each connection in a
    thread as ``kind`` says: "silent" accepts and says nothing, "garbage" writes seeded
    random bytes, "http" answers as a web server would, "close" closes at once."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.1)
        self.address = f"tcp://127.0.0.1:{self.server.getsockname()[1]}"
        self.stop = threading.Event()
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self) -> None:
        deadline = time.monotonic() + 120
        while not self.stop.is_set() and time.monotonic() < deadline:
            try:
                connection, _ = self.server.accept()
            except TimeoutError:
                continue
            self.held.append(connection)
            with contextlib.suppress(OSError):
                if self.kind == "garbage":
                    connection.sendall(random.Random(25).randbytes(4096))
                elif self.kind == "http":
                    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                elif self.kind == "close":
                    connection.close()

    def __enter__(self) -> Peer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)
        for connection in self.held:
            connection.close()
        self.server.close()


KINDS = {
    "silent": "accepted a connection but did not answer as a Dask scheduler within 1 s",
    "garbage": "does not speak Dask's protocol",
    "http": "does not speak Dask's protocol",
    "close": "closed the connection during Dask's handshake",
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_peer_that_is_no_scheduler_is_named_within_the_timeout(kind):
    with Peer(kind) as peer:
        started = time.perf_counter()
        with pytest.raises(ClusterError) as error, dask_executor(peer.address, timeout=1):
            pass
        elapsed = time.perf_counter() - started
    message = str(error.value)
    assert repr(peer.address) in message
    assert KINDS[kind] in message
    assert "give the scheduler's address" in message
    print(f"{kind} peer: ClusterError after {elapsed:.2f} s (timeout 1 s)")
    assert elapsed < 1 + 5  # the timeout, and the thread given up on at worst


def test_a_worker_address_is_no_scheduler():
    # The easy mix-up besides the dashboard's port (a silent peer, above): a worker's.
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp://",
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        worker = next(iter(local.scheduler.workers))
        with (
            pytest.raises(ClusterError, match="is a Dask Worker, not a Dask scheduler") as error,
            dask_executor(worker, timeout=2),
        ):
            pass
        assert repr(worker) in str(error.value)
        # And the scheduler itself is fine.
        with dask_executor(local.scheduler_address) as connected:
            assert (connected.workers, connected.threads) == (1, 1)


def test_bad_timeouts_are_argument_errors():
    for value in (0, -1, float("nan"), "10", True):
        with (
            pytest.raises(ArgumentError, match="positive number of seconds"),
            dask_executor("tcp://127.0.0.1:1", timeout=value),
        ):
            pass


@pytest.mark.slow
def test_cli_on_a_silent_peer_fails_in_one_line_with_the_default_timeout(capfd):
    # The real figure: a run pointed at a silent listener, as the dashboard port can be.
    with Peer("silent") as peer:
        started = time.perf_counter()
        with pytest.raises(SystemExit) as stop:
            main(["simulate", "--contract", "2", "--dask", peer.address])
        elapsed = time.perf_counter() - started
    err = capfd.readouterr().err
    print(f"rummykit simulate on a silent peer: exit {stop.value.code} after {elapsed:.1f} s")
    assert stop.value.code == 2
    assert "Traceback" not in err
    assert err.count("\n") == 1
    assert err.startswith(f"rummykit simulate: {peer.address!r} accepted a connection")
    assert f"within {CONNECT_SECONDS} s" in err
    assert elapsed < LIMIT


@pytest.mark.parametrize("kind", ["garbage", "close"])
def test_cli_on_a_babbling_or_closing_peer_exits_2_without_traceback(kind, tmp_path, capfd):
    with Peer(kind) as peer:
        started = time.perf_counter()
        with pytest.raises(SystemExit) as stop:
            main([*LONG_TABLES, "--out", str(tmp_path / "out"), "--dask", peer.address])
        elapsed = time.perf_counter() - started
    err = capfd.readouterr().err
    assert stop.value.code == 2
    assert "Traceback" not in err
    assert err.startswith(f"rummykit tables: {peer.address!r} ")
    assert not (tmp_path / "out").exists()
    assert elapsed < CONNECT_SECONDS + 5


# --------------------------------------------------------------------------- no workers


def slow_square(x: int) -> int:
    time.sleep(0.2)
    return x * x


@pytest.mark.slow
def test_a_cluster_left_without_workers_says_so_and_fails_after_the_wait():
    heard = []
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as local,
        dask_executor(local.scheduler_address, wait=1, log=heard.append) as cluster,
    ):

        def leave(i, result):
            if i == 0:
                local.scale(0)

        started = time.perf_counter()
        with pytest.raises(ClusterError, match="has had no worker for 1 s") as error:
            run_sweep(
                slow_square,
                [(x,) for x in range(40)],
                executor=cluster.executor,
                progress=False,
                on_result=leave,
            )
        elapsed = time.perf_counter() - started
        # Later tasks are refused at once, with the same error.
        with pytest.raises(ClusterError, match="has had no worker"):
            cluster.executor.submit(slow_square, 3)
    assert repr(local.scheduler_address) in str(error.value)
    assert "--dask-wait SECONDS" in str(error.value)
    assert any("has no worker left: waiting up to 1 s" in line for line in heard)
    assert elapsed < 1 + 10


@pytest.mark.slow
def test_a_worker_that_comes_back_within_the_wait_finishes_the_sweep():
    heard = []
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as local,
        dask_executor(local.scheduler_address, wait=30, log=heard.append) as cluster,
    ):

        def replace(i, result):
            if i == 0:
                local.scale(0)
                deadline = time.monotonic() + 10
                while local.scheduler.workers and time.monotonic() < deadline:
                    time.sleep(0.05)
                time.sleep(2 * POLL_SECONDS)  # the watch sees the empty cluster
                local.scale(1)

        squares = run_sweep(
            slow_square,
            [(x,) for x in range(8)],
            executor=cluster.executor,
            progress=False,
            on_result=replace,
        )
    assert squares == [x * x for x in range(8)]
    assert any("has no worker left" in line for line in heard), heard
    assert any("has 1 worker again" in line for line in heard), heard


def test_the_cli_documents_its_wait_for_workers(capsys):
    with pytest.raises(SystemExit):
        main(["tables", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--dask-wait SECONDS" in help_text
    assert f"(default {WAIT_SECONDS} s)" in help_text
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--contract", "1", "--dask-wait", "0"])
    assert stop.value.code == 2
    assert "must be a positive number of seconds" in capsys.readouterr().err


# --------------------------------------------------------------------------- dying peers


@contextlib.contextmanager
def running(argv: list, **kwargs) -> Iterator[subprocess.Popen]:
    process = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, **kwargs)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def run_on_dask_and(kill, address: str, tmp_path: Path, capfd, *extra: str):
    """Run ``rummykit tables`` on ``address`` (in this process) and call ``kill()`` as
    soon as its first chunk of rounds is checkpointed, mid-run; its exit status, its
    stderr, and the seconds from the kill to its end."""
    chunks = tmp_path / "chunks"
    killed = []

    def kill_when_started() -> None:
        deadline = time.monotonic() + LIMIT
        while time.monotonic() < deadline:
            if chunks.is_dir() and any(p.stat().st_size for p in chunks.iterdir()):
                killed.append(time.perf_counter())
                kill()
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_started, daemon=True)
    killer.start()
    argv = [*MID_RUN, "--out", str(tmp_path / "out"), "--checkpoint", str(chunks)]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--dask", address, *extra])
    ended = time.perf_counter()
    killer.join(LIMIT)
    err = capfd.readouterr().err
    assert killed, f"the run ended before the kill: {err}"
    return stop.value.code, err, ended - killed[0]


#: A run of some 20,000 rounds in chunks of 40 (a second or so on one worker): a kill
#: after the first chunk is mid-run.
MID_RUN = ["tables", "--quick", "--only", "completion_by_turn", "--n", "2000"]
MID_RUN += ["--preset-n", "3", "--no-progress"]

SCHEDULER_WITH_A_WORKER = """
import time, distributed
cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
    protocol="tcp://", host="127.0.0.1", dashboard_address=None)
print(cluster.scheduler_address, flush=True)
time.sleep(120)
"""


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_is_a_cluster_error(tmp_path, capfd):
    with running(
        [sys.executable, "-c", SCHEDULER_WITH_A_WORKER], stdout=subprocess.PIPE
    ) as scheduler:
        address = scheduler.stdout.readline().strip()
        assert address.startswith("tcp://127.0.0.1:"), address
        status, err, elapsed = run_on_dask_and(scheduler.kill, address, tmp_path, capfd)
    print(f"scheduler killed mid-run: exit {status} {elapsed:.1f} s after the kill")
    assert status == 2, err
    assert "Traceback" not in err
    assert f"rummykit tables: lost the Dask scheduler at {address!r} mid-run" in err
    assert elapsed < LIMIT
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_only_worker_killed_mid_run_is_a_cluster_error_after_the_wait(tmp_path, capfd):
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None
    ) as local:
        address = local.scheduler_address
        worker_argv = [BIN / "dask", "worker", address, "--nthreads", "1", "--no-nanny"]
        with running([*worker_argv, "--no-dashboard"]) as worker:
            deadline = time.monotonic() + LIMIT  # (--dask-wait 3 holds at the start too)
            while not local.scheduler.workers and time.monotonic() < deadline:
                time.sleep(0.1)
            status, err, elapsed = run_on_dask_and(
                worker.kill, address, tmp_path, capfd, "--dask-wait", "3"
            )
    print(f"only worker killed mid-run (--dask-wait 3): exit {status} {elapsed:.1f} s after")
    assert status == 2, err
    assert "Traceback" not in err
    assert f"the Dask cluster at {address} has no worker left: waiting up to 3 s" in err
    assert f"rummykit tables: the Dask cluster at {address!r} has had no worker for 3 s" in err
    assert elapsed < 3 + LIMIT


# --------------------------------------------------------------------------- left behind


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_no_process_outlives_a_killed_tables_run(how, tmp_path):
    argv = [BIN / "rummykit", *LONG_TABLES, "--workers", "2", "--out", tmp_path / "out"]
    with running(argv) as run:
        parent = psutil.Process(run.pid)
        deadline = time.monotonic() + LIMIT
        # The resource tracker and two pool workers, playing.
        while len(parent.children()) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        children = parent.children(recursive=True)
        assert len(children) >= 3, children
        time.sleep(1)
        killed = time.perf_counter()
        run.send_signal(how)
        status = run.wait(15)
        _, alive = psutil.wait_procs(children, timeout=15)
        elapsed = time.perf_counter() - killed
        for child in alive:  # (they would hold stderr open for minutes)
            child.kill()
        assert alive == []
        err = run.stderr.read()
    print(f"{how.name}: exit {status}; every child gone {elapsed:.1f} s after the signal")
    if how == signal.SIGTERM:
        assert status == TERMINATED_STATUS
        assert err == (
            "rummykit tables: stopped by SIGTERM, its worker processes with it; with "
            "--checkpoint DIR, run it again to resume\n"
        )
    else:
        assert status == -signal.SIGKILL
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_pool_worker_ends_when_its_parent_does_without_prctl():
    # Where prctl is missing (sys.platform made "darwin" here), die_with_parent watches
    # the parent's pid: the child of an intermediate process that is killed ends too.
    # (With prctl, as on Linux, test_no_process_outlives_a_killed_tables_run.)
    platform = "darwin"
    script = f"""
import os, subprocess, sys
child = subprocess.Popen([sys.executable, "-c",
    "import os, sys, time; from rummykit.odds.data.pool import die_with_parent; "
    "sys.platform = {platform!r}; "
    "die_with_parent(int(sys.argv[1])); print(os.getpid(), flush=True); time.sleep(60)",
    str(os.getpid())], stdout=subprocess.PIPE, text=True)
print(child.stdout.readline().strip(), flush=True)
os.kill(os.getpid(), 9)
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=False
    )
    pid = int(result.stdout.strip())
    deadline = time.monotonic() + 10
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        with contextlib.suppress(psutil.NoSuchProcess):
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        time.sleep(0.05)
    alive = psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    assert not alive, f"worker {pid} outlived its parent"
