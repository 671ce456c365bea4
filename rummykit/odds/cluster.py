"""Scale out: run a sweep on a Dask cluster (``rummykit tables --dask ADDRESS``).

A sweep is a list of independent tasks, each carrying its own seed
(:func:`rummykit.odds.completion.round_seed`), run by
:func:`~rummykit.odds.pool.run_sweep` through any executor and assembled in task order.
:func:`dask_executor` connects to a ``dask.distributed`` scheduler and yields its
executor, so a sweep on any number of Dask workers gives exactly the tables of a serial
run with the same seed. Start a cluster with ``dask scheduler`` on one machine and
``dask worker tcp://HOST:8786`` on each machine that should work (each needs the same
rummykit installed: the workers run its code, and a worker whose copy differs from this
one, :func:`code_fingerprint`, is refused).

An address that cannot be reached fails within :data:`CONNECT_SECONDS` (a scheduler
reached but without workers, within twice that) with a
:class:`~rummykit.errors.ClusterError` naming it:

>>> with dask_executor("no-port-here") as cluster:
...     pass
Traceback (most recent call last):
...
rummykit.errors.ClusterError: 'no-port-here' is not a Dask scheduler address (missing port number in address 'no-port-here'): give it as tcp://HOST:PORT, as `dask scheduler` prints it
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

from rummykit._optional import require
from rummykit.errors import ClusterError

__all__ = ["CONNECT_SECONDS", "Cluster", "code_fingerprint", "dask_executor"]

#: Seconds allowed to reach a scheduler, and then for it to have a worker.
CONNECT_SECONDS = 10


@dataclass(frozen=True)
class Cluster:
    """A connected Dask cluster: its executor and what the provenance records of it."""

    executor: Executor
    """Runs the sweep's tasks on the cluster's workers."""
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


def _check_code(client, address: str) -> None:
    """Refuse a cluster whose workers run another rummykit than this process."""
    here = code_fingerprint()
    try:
        # Sent by reference to this module: a worker without rummykit cannot load it.
        theirs = client.run(code_fingerprint)
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


@contextlib.contextmanager
def dask_executor(address: str, *, timeout: float = CONNECT_SECONDS) -> Iterator[Cluster]:
    """Connect to the Dask scheduler at ``address``; yield a :class:`Cluster`, close on exit.

    Raises :class:`~rummykit.errors.ClusterError`, naming ``address``, when it is not an
    address, nothing answers there within ``timeout`` seconds, or no worker has joined
    it within ``timeout`` seconds more, or its workers run another rummykit (another
    :func:`code_fingerprint`); MissingDependencyError without ``distributed`` (the
    ``dask`` extra).
    """
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
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r} within {timeout:g} s ({error}); "
            f"start one with `dask scheduler` and workers with `dask worker {address}`"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {address!r} has no worker after {timeout:g} s: "
                f"start one with `dask worker {address}`"
            ) from None
        _check_code(client, address)
        info = client.scheduler_info(n_workers=-1)
        workers = info["workers"]
        yield Cluster(
            executor=client.get_executor(),
            address=address,
            workers=len(workers),
            threads=sum(worker["nthreads"] for worker in workers.values()),
            dashboard=client.dashboard_link if "dashboard" in info["services"] else None,
        )
    finally:
        client.close()
