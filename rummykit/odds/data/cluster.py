"""Scale out: run a sweep on a Dask cluster (``rummykit tables --dask ADDRESS``).

A sweep is a list of independent tasks, each carrying its own seed
(:func:`rummykit.odds.cells.round_seed`), run by
:func:`~rummykit.odds.data.pool.run_sweep` through any executor and assembled in task order.
:func:`dask_executor` connects to a ``dask.distributed`` scheduler and yields its
executor, so a sweep on any number of Dask workers gives exactly the tables of a serial
run with the same seed. Start a cluster with ``dask scheduler`` on one machine and
``dask worker tcp://HOST:8786`` on each machine that should work (each needs the same
rummykit installed: the workers run its code, and a worker whose copy differs from this
one, :func:`code_fingerprint`, is refused).

Every failure of the cluster is a :class:`~rummykit.errors.ClusterError` naming the
address and what to do, raised within a bounded time:

=====================================================  ==================================
what went wrong                                         raised within
=====================================================  ==================================
not an address (no port, unknown scheme)                at once
nothing listens there, or no route to it                :data:`CONNECT_SECONDS`
a listener that is no scheduler: silent (the            :data:`CONNECT_SECONDS`
dashboard's port 8787), speaking another protocol,
closing at once, or a Dask worker
a scheduler without workers at the start                ``wait`` (:data:`WAIT_SECONDS`)
the scheduler lost mid-run (killed, its machine gone)   about :data:`POLL_SECONDS`
the cluster left without workers mid-run                ``wait`` after the last one left
a task whose workers died ``allowed-failures`` times    when Dask gives up on it
=====================================================  ==================================

Dask itself waits for a silent peer's handshake without limit (``distributed.comm.connect``
bounds the TCP connection only), so the address is first asked who it is: Dask's
handshake and an ``identity`` request, within :data:`CONNECT_SECONDS` in all. A worker that
dies mid-run is Dask's to handle: its tasks go to the other workers, or wait for a new one;
a worker that comes back within ``wait`` seconds finishes the run, with the same tables.

>>> with dask_executor("no-port-here") as cluster:
...     pass
Traceback (most recent call last):
...
rummykit.errors.ClusterError: 'no-port-here' is not a Dask scheduler address (missing port number in address 'no-port-here'): give it as tcp://HOST:PORT, as `dask scheduler` prints it
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, InvalidStateError
from dataclasses import dataclass
from pathlib import Path

from rummykit._optional import require
from rummykit.errors import ArgumentError, ClusterError

__all__ = [
    "CLOSE_SECONDS",
    "CONNECT_SECONDS",
    "Cluster",
    "POLL_SECONDS",
    "WAIT_SECONDS",
    "code_fingerprint",
    "dask_executor",
]

#: Seconds allowed to reach a scheduler and hear it answer as one.
CONNECT_SECONDS = 10
#: Seconds a run waits for a worker when the cluster has none (at the start, or after the
#: last one left mid-run) before it fails; ``rummykit --dask-wait`` changes it.
WAIT_SECONDS = 15
#: Seconds between two looks at the cluster's workers during a run.
POLL_SECONDS = 1.0
#: Seconds allowed to close the connection at the end (a lost scheduler cannot answer).
CLOSE_SECONDS = 5


@dataclass(frozen=True)
class Cluster:
    """A connected Dask cluster: its executor and what the provenance records of it."""

    executor: Executor
    """Runs the sweep's tasks on the cluster's workers; a task's future fails with a
    :class:`~rummykit.errors.ClusterError` when the cluster does (see the module)."""
    address: str
    """The scheduler's address, as given."""
    workers: int
    """Workers connected when the run started."""
    threads: int
    """Threads of those workers, in all (each runs one task at a time)."""
    dashboard: str | None = None
    """The scheduler's dashboard, where a run's progress can be watched (None: it has none)."""

    def facts(self) -> dict:
        """How the run was made, for the JSON provenance."""
        return {
            "executor": "dask",
            "dask": self.address,
            "workers": self.workers,
            "threads": self.threads,
        }


def code_fingerprint() -> str:
    """A digest of rummykit's source here (every ``.py`` and ``.c`` file of the package):
    workers whose digest differs would play other rules or other bots."""
    import rummykit

    package = Path(rummykit.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".c"):
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _workers(count: int) -> str:
    return f"{count} worker{'' if count == 1 else 's'}"


def _start_hint(address: str) -> str:
    return f"start one with `dask scheduler` and workers with `dask worker {address}`"


_NOT_A_SCHEDULER = (
    "give the scheduler's address, as `dask scheduler` prints it (tcp://HOST:8786; "
    "its dashboard, :8787, is another port)"
)


async def _identity(address: str, timeout: float) -> dict:
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _accepts(address: str) -> bool:
    """Whether a TCP connection to ``address`` (tcp://HOST:PORT) is accepted at all."""
    from distributed.comm import parse_address, parse_host_port

    try:
        host, port = parse_host_port(parse_address(address)[1])
        with socket.create_connection((host, port), timeout=CLOSE_SECONDS):
            return True
    except (OSError, ValueError, TypeError):
        return False


def _ask_identity(address: str, timeout: float) -> dict:
    """The identity of the Dask server at ``address`` (Dask's handshake, then an
    ``identity`` request), all within ``timeout`` seconds, or a ClusterError."""
    from distributed.comm import CommClosedError

    outcome: dict = {}

    def ask() -> None:
        # Its own event loop, in its own thread: the caller may be running one (Jupyter).
        try:
            outcome["identity"] = asyncio.run(
                asyncio.wait_for(_identity(address, timeout), timeout)
            )
        except BaseException as error:  # handed to the caller's thread, below
            outcome["error"] = error

    thread = threading.Thread(target=ask, name="rummykit-dask-identity", daemon=True)
    thread.start()
    thread.join(timeout + CLOSE_SECONDS)
    error = outcome.get("error")
    timed_out = "identity" not in outcome and (error is None or isinstance(error, TimeoutError))
    if timed_out and not _accepts(address):  # Dask retries a refused connection till then
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r} within {timeout:g} s (no "
            f"connection accepted); {_start_hint(address)}"
        )
    if timed_out:
        raise ClusterError(
            f"{address!r} accepted a connection but did not answer as a Dask scheduler "
            f"within {timeout:g} s: {_NOT_A_SCHEDULER}"
        )
    if isinstance(error, CommClosedError):
        raise ClusterError(
            f"{address!r} closed the connection during Dask's handshake ({error}): it is no "
            f"Dask scheduler, or one of another Dask version; {_NOT_A_SCHEDULER}"
        )
    if isinstance(error, OSError):
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r} within {timeout:g} s ({error}); "
            f"{_start_hint(address)}"
        )
    if error is not None:
        raise ClusterError(
            f"{address!r} does not speak Dask's protocol ({type(error).__name__}: {error}): "
            f"{_NOT_A_SCHEDULER}"
        )
    identity = outcome["identity"]
    kind = identity.get("type") if isinstance(identity, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else f"a server answering {identity!r:.80}"
        raise ClusterError(f"{address!r} is {what}, not a Dask scheduler: {_NOT_A_SCHEDULER}")
    return identity


def _check_code(client, address: str, timeout: float) -> None:
    """Refuse a cluster whose workers run another rummykit than this process."""
    here = code_fingerprint()
    try:
        # Sent by reference to this module: a worker without rummykit cannot load it.
        theirs = client.run(code_fingerprint, callback_timeout=timeout)
    except TimeoutError:
        raise ClusterError(
            f"the workers of the Dask scheduler at {address!r} did not answer within "
            f"{timeout:g} s: check that they are running (`dask worker {address}`)"
        ) from None
    except Exception as error:  # whatever a worker raised, sent back
        raise ClusterError(
            f"the workers of the Dask scheduler at {address!r} cannot run rummykit "
            f"({type(error).__name__}: {error}): install it on each, as here"
        ) from None
    other = sorted(worker for worker, code in theirs.items() if code != here)
    if other:
        raise ClusterError(
            f"the Dask workers {', '.join(other)} of the scheduler at {address!r} run "
            "another rummykit than this machine (its source differs), so their rounds "
            "would differ: install the same rummykit on each"
        )


def _lost_by_the_executor(error: BaseException) -> bool:
    """Whether a task's error is Dask's executor failing to pass on a lost task's outcome:
    when the only worker dies as the task runs, distributed's ``cfexecutor`` raises a
    ``ValueError`` of its own (it unpacks an outcome that is no exception triple) instead
    of the task's error. The task was lost, not failed."""
    frames = traceback.extract_tb(error.__traceback__)
    return (
        isinstance(error, ValueError)
        and bool(frames)
        and (frames[-1].filename.replace("\\", "/").endswith("distributed/cfexecutor.py"))
    )


class _TaskFuture(Future):
    """The future of one task on the cluster: the Dask task's outcome, or the cluster's
    failure; cancelling it cancels the Dask task."""

    def __init__(self, call: tuple, client) -> None:
        super().__init__()
        self.call = call  # (fn, args, kwargs): submitted again if lost with its worker
        self.task: Future | None = None
        self.client = client

    def cancel(self) -> bool:
        if not super().cancel():
            return False
        self.drop_task()
        self.set_running_or_notify_cancel()  # wakes as_completed() and wait()
        return True

    def drop_task(self) -> None:
        """Cancel the Dask task, freeing its worker."""
        # (Dask's executor cancels the Dask task with the future it wraps, which a client
        # that lost its scheduler refuses, and logs: then Dask has dropped it already.)
        if self.client.status == "running":
            self.task.cancel()

    def settle(self, *, result=None, error: BaseException | None = None) -> None:
        """Finish with ``result`` or ``error``, unless already finished or cancelled."""
        with contextlib.suppress(InvalidStateError):
            if error is None:
                self.set_result(result)
            else:
                self.set_exception(error)


class _WatchedExecutor(Executor):
    """The cluster's executor, watched: a thread looks at the cluster every
    :data:`POLL_SECONDS` and fails every task still running when the scheduler is lost,
    stops answering, or has had no worker for ``wait`` seconds."""

    def __init__(self, client, address: str, wait: float, log: Callable[[str], None]) -> None:
        self.client = client
        self.address = address
        self.wait = wait
        self.log = log
        self.inner = client.get_executor()
        self.running: set[_TaskFuture] = set()
        self.lock = threading.Lock()
        self.failure: ClusterError | None = None
        self.stopped = threading.Event()
        self.watcher = threading.Thread(target=self.watch, name="rummykit-dask-watch", daemon=True)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self.failure is not None:
            raise self.failure
        future = _TaskFuture((fn, args, kwargs), self.client)
        self.start(future)
        return future

    def start(self, future: _TaskFuture) -> None:
        """Submit the future's call to Dask and follow the task."""
        fn, args, kwargs = future.call
        future.task = self.inner.submit(fn, *args, **kwargs)
        with self.lock:
            self.running.add(future)
        future.task.add_done_callback(lambda task: self.finished(future, task))
        if self.failure is not None:  # failed while submitting
            future.settle(error=self.failure)

    def finished(self, future: _TaskFuture, task: Future) -> None:
        with self.lock:
            self.running.discard(future)
        if task.cancelled():
            # Cancelled by Dask, not by us: the client lost the scheduler and dropped
            # every task (Dask's reason "scheduler-connection-lost").
            future.settle(error=self.failure or self.lost())
            return
        error = task.exception()
        if error is not None and _lost_by_the_executor(error):
            # Lost with its worker (Dask reschedules such a task itself, unless its executor
            # lost it first): submitted again, it runs on another worker, or the watcher
            # fails it when the cluster has had no worker for ``wait`` seconds.
            if self.failure is None:
                self.start(future)
            else:
                future.settle(error=self.failure)
            return
        if error is not None and type(error).__name__ == "KilledWorker":
            error = ClusterError(
                f"the Dask cluster at {self.address!r} gave up on a task: {error} (Dask's "
                "distributed.scheduler.allowed-failures); a task that kills its worker "
                "may need more memory per worker"
            )
        future.settle(result=None if error is not None else task.result(), error=error)

    def lost(self) -> ClusterError:
        return ClusterError(
            f"lost the Dask scheduler at {self.address!r} mid-run (its connection closed, "
            f"and Dask dropped the unfinished tasks): start it again and run again; "
            "with --checkpoint DIR only the unfinished rounds are played"
        )

    def fail(self, error: ClusterError) -> None:
        self.failure = error
        with self.lock:
            running = list(self.running)
        for future in running:
            future.settle(error=error)
            future.drop_task()

    def watch(self) -> None:
        empty_since = silent_since = None
        while not self.stopped.wait(POLL_SECONDS):
            if self.client.status != "running":
                self.fail(self.lost())
                return
            now = time.monotonic()
            try:
                workers = len(self.client.nthreads(callback_timeout=CLOSE_SECONDS))
            except Exception:  # no answer now; Dask reconnects or closes the client
                silent_since = silent_since or now
                if time.monotonic() - silent_since >= self.wait:
                    self.fail(
                        ClusterError(
                            f"the Dask scheduler at {self.address!r} has not answered for "
                            f"{self.wait:g} s: check it is running, and run again"
                        )
                    )
                    return
                continue
            silent_since = None
            if workers:
                if empty_since is not None:
                    self.log(f"the Dask cluster at {self.address} has {_workers(workers)} again")
                empty_since = None
            elif empty_since is None:
                empty_since = now
                self.log(
                    f"the Dask cluster at {self.address} has no worker left: waiting up to "
                    f"{self.wait:g} s for one (`dask worker {self.address}`)"
                )
            elif now - empty_since >= self.wait:
                self.fail(
                    ClusterError(
                        f"the Dask cluster at {self.address!r} has had no worker for "
                        f"{self.wait:g} s: start one with `dask worker {self.address}` (or "
                        "wait longer: --dask-wait SECONDS) and run again; with --checkpoint "
                        "DIR only the unfinished rounds are played"
                    )
                )
                return

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.stopped.set()
        self.inner.shutdown(wait=wait)


def _seconds(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ArgumentError(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


@contextlib.contextmanager
def dask_executor(
    address: str,
    *,
    timeout: float = CONNECT_SECONDS,
    wait: float = WAIT_SECONDS,
    log: Callable[[str], None] | None = None,
) -> Iterator[Cluster]:
    """Connect to the Dask scheduler at ``address``; yield a :class:`Cluster`, close on exit.

    Raises :class:`~rummykit.errors.ClusterError`, naming ``address``, when it is not an
    address, nothing answers there as a Dask scheduler within ``timeout`` seconds, no
    worker has joined it within ``wait`` seconds more, or its workers run another
    rummykit (another :func:`code_fingerprint`); during the run, the futures of the
    cluster's executor fail with one when the scheduler is lost or the cluster has had
    no worker for ``wait`` seconds (see the module's table). ``log`` is told, in a line,
    when the cluster has no worker and the run waits for one. MissingDependencyError
    without ``distributed`` (the ``dask`` extra).
    """
    timeout = _seconds(timeout, "timeout")
    wait = _seconds(wait, "wait")
    say = log if log is not None else (lambda message: None)
    distributed = require("distributed", extra="dask", feature="--dask")
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        # A malformed address is caught here: a Client built from one would spend 10 s
        # closing itself when the failed object is collected. (An in-process cluster's
        # address, inproc://..., has no port.)
        scheme, _ = parse_address(address)
        get_backend(scheme)
        if scheme != "inproc":
            get_address_host_port(address)
    except (ValueError, TypeError) as error:
        raise ClusterError(
            f"{address!r} is not a Dask scheduler address ({error}): give it as "
            "tcp://HOST:PORT, as `dask scheduler` prints it"
        ) from None
    # An in-process scheduler (inproc://) answers on this process's own event loop.
    identity = None if scheme == "inproc" else _ask_identity(address, timeout)
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except Exception as error:  # it answered as a scheduler a moment ago
        raise ClusterError(
            f"cannot connect to the Dask scheduler at {address!r} within {timeout:g} s "
            f"({type(error).__name__}: {error}); {_start_hint(address)}"
        ) from None
    try:
        cluster = _start(client, address, identity, timeout, wait, say)
    except BaseException:
        _close(client)
        raise
    try:
        yield cluster
    finally:
        cluster.executor.stopped.set()
        _close(client)


def _start(client, address: str, identity: dict | None, timeout, wait, say) -> Cluster:
    """The connected cluster, once it has a worker running this rummykit."""
    try:
        if not client.nthreads(callback_timeout=timeout):
            say(
                f"the Dask scheduler at {address} has no worker yet: waiting up to {wait:g} s "
                f"for one (`dask worker {address}`)"
            )
        try:
            client.wait_for_workers(1, timeout=wait)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {address!r} has no worker after {wait:g} s: "
                f"start one with `dask worker {address}`"
            ) from None
        _check_code(client, address, timeout)
        workers = client.nthreads(callback_timeout=timeout)
        services = (identity or client.scheduler_info(n_workers=0))["services"]
    except (OSError, TimeoutError) as error:  # Dask's own, while asking the scheduler
        raise ClusterError(
            f"lost the Dask scheduler at {address!r} ({type(error).__name__}: {error}); "
            f"{_start_hint(address)}"
        ) from None
    executor = _WatchedExecutor(client, address, wait, say)
    executor.watcher.start()
    return Cluster(
        executor=executor,
        address=address,
        workers=len(workers),
        threads=sum(workers.values()),
        dashboard=client.dashboard_link if "dashboard" in services else None,
    )


def _close(client) -> None:
    # A lost scheduler cannot answer a polite goodbye: it gets CLOSE_SECONDS.
    with contextlib.suppress(Exception):
        client.close(timeout=CLOSE_SECONDS)
