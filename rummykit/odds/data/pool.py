"""A process pool: run many independent tasks through any :class:`concurrent.futures.Executor`.

A sweep is a list of tasks and a top-level function applied to each. By default the
tasks run on a local :class:`~concurrent.futures.ProcessPoolExecutor`; pass
``max_workers=1`` to run them in this process, or pass any executor, e.g. a Dask
cluster's::

    from rummykit.odds.data.cluster import dask_executor
    with dask_executor("tcp://scheduler:8786") as cluster:
        frame = completion_by_turn(..., executor=cluster.executor)

(or ``Client(LocalCluster(...)).get_executor()``; ``rummykit tables --dask ADDRESS``
does the first).

Results come back in task order whatever the executor and however many workers it has,
and every task carries its own seed, so a sweep gives the same answer everywhere. A
local pool's workers end with this process, however it ends (:func:`die_with_parent`),
and are stopped at once when the sweep fails or is interrupted.

>>> run_sweep(pow, [(2, 3), (3, 2)], max_workers=1, progress=False)
[8, 9]
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import Any

from rummykit.engine.checks import whole
from rummykit.errors import ArgumentError

__all__ = ["MAX_WORKERS", "STOP_SECONDS", "default_workers", "die_with_parent", "run_sweep"]


#: The most local worker processes a sweep starts (more than the CPUs only queue).
MAX_WORKERS = 256


def default_workers() -> int:
    """The worker processes a local sweep uses by default: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_sweep(
    function: Callable[..., Any],
    tasks: Sequence[tuple],
    *,
    executor: Executor | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    description: str = "sweep",
    units: Sequence[int] | None = None,
    unit: str = "task",
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """``[function(*task) for task in tasks]``, run in parallel, results in task order.

    ``function`` must be a module-level function and the tasks picklable (they travel
    to worker processes). ``executor`` is any :class:`~concurrent.futures.Executor`,
    which is used and left open; without one a local process pool of ``max_workers``
    processes (default :func:`default_workers`) is started and shut down, and
    ``max_workers=1`` runs everything in this process. ``progress`` shows a tqdm bar
    counting ``units`` per task (default one; ``unit`` names them). ``on_result(i,
    result)`` is called in this process as each task ``i`` finishes, in the order they
    finish (a checkpoint stores them so: what finished before a failure is kept).

    >>> finished = []
    >>> run_sweep(pow, [(2, 3), (3, 2)], max_workers=1, progress=False,
    ...           on_result=lambda i, result: finished.append((i, result)))
    [8, 9]
    >>> finished
    [(0, 8), (1, 9)]
    """
    if executor is not None and max_workers is not None:
        raise ArgumentError("give either an executor or max_workers, not both")
    if max_workers is not None:
        whole("max_workers", max_workers, low=1, high=MAX_WORKERS)
    tasks = list(tasks)
    units = [1] * len(tasks) if units is None else list(units)
    if len(units) != len(tasks):
        raise ArgumentError(f"give one unit count per task ({len(tasks)}), got {len(units)}")
    bar = _bar(progress, sum(units), description, unit)

    def finished(i: int, result: Any) -> None:
        if on_result is not None:
            on_result(i, result)
        bar.update(units[i])

    try:
        workers = default_workers() if max_workers is None else max_workers
        if executor is None and (workers == 1 or len(tasks) <= 1):
            results = []
            for i, task in enumerate(tasks):
                results.append(function(*task))
                finished(i, results[-1])
            return results
        if executor is not None:
            return _collect(executor, function, tasks, finished)
        return _run_pool(function, tasks, min(workers, len(tasks)), finished)
    finally:
        bar.close()


def _run_pool(function, tasks, workers: int, finished) -> list[Any]:
    """Run the tasks on a new local pool of ``workers`` processes; on any failure
    (a task's error, an interrupt, SIGTERM turned into an exception) the workers are
    stopped at once, not left to finish their tasks."""
    # "spawn" starts clean workers: safe when this process has threads (Jupyter,
    # tqdm's monitor) and the same on every operating system.
    context = multiprocessing.get_context("spawn")
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
    )
    # (Kept now: shutdown() drops the executor's reference to it; see below.)
    result_queue = getattr(pool, "_result_queue", None)
    try:
        results = _collect(pool, function, tasks, finished)
    except BaseException:
        # (Kept too: shutdown(wait=False) drops it without joining it.)
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        # The pool's own processes: those this process started since.
        for process in set(multiprocessing.active_children()) - before:
            process.terminate()
        for process in set(multiprocessing.active_children()) - before:
            process.join(STOP_SECONDS)
        # A worker stopped while it wrote a result leaves the pool's manager thread
        # reading the rest of that message for ever, and the interpreter waits for that
        # thread when it exits (the CLI hung after SIGTERM). Its read ends once every
        # writing end of the result pipe is closed: the workers' closed with them, and
        # this process's is closed here (the executor offers no public way to it).
        writer = getattr(result_queue, "_writer", None)
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()
        # That thread, once its read has ended, closes its wake-up pipe; joined here,
        # it is gone before the interpreter's exit wakes it through that pipe (on
        # Python 3.11 the two raced: "Exception ignored ... Bad file descriptor" after
        # the CLI's SIGTERM message, in 1 CI run of about 5).
        if manager is not None:
            manager.join(STOP_SECONDS)
        raise
    finally:
        pool.shutdown(wait=True)
    return results


#: Seconds a pool's worker is given to stop after its sweep failed, and the longest a
#: worker outlives this process where ``prctl`` is missing (see :func:`die_with_parent`).
STOP_SECONDS = 2.0


def die_with_parent(parent: int) -> None:
    """Make this worker process end when its parent ``parent`` (a pid) does, however it
    ends (SIGKILL included): a pool's initializer, so that no worker outlives the sweep.

    On Linux the kernel sends the worker SIGKILL when the parent dies
    (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon thread checks ``os.getppid()``
    every :data:`STOP_SECONDS` / 4 and ends the process when it changes. A worker holds
    nothing that needs a clean exit: results reach the parent only through the pool.
    """
    if not _kill_me_with_parent():
        threading.Thread(
            target=_watch_parent, args=(parent,), name="rummykit-parent-watch", daemon=True
        ).start()
    if os.getppid() != parent:  # it died before the watch began
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _kill_me_with_parent() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(STOP_SECONDS / 4)
    os._exit(1)


def _collect(executor: Executor, function, tasks, finished) -> list[Any]:
    futures = {executor.submit(function, *task): i for i, task in enumerate(tasks)}
    results: list[Any] = [None] * len(tasks)
    try:
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            finished(i, results[i])
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return results


def _bar(progress: bool, total: int, description: str, unit: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=description, unit=unit, disable=not progress, leave=False)
