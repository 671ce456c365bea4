"""Run one submission's notebook in a child process of its own, with limits, and take back
its answers as data.

Two isolations, the best this machine allows (:func:`isolation`):

``bubblewrap`` (Linux, with ``bwrap`` installed and user namespaces allowed)
    The notebook runs in a new network namespace (no network), a new PID namespace (it sees
    no process of the grader's, so it cannot signal one), and a file system of its own: the
    system's folders, the Python installation and the rummykit package read-only, a
    private ``/tmp``, and its working folder ``/submission``, a ``tmpfs`` of at most
    :attr:`Limits.disk` bytes holding only its notebook. The teacher's files (the
    submissions, the autograder zip and its key, the home folder) are not there at all.
    Run as root, the grader also drops each child to a user ID of its own, leased for the
    run from :data:`FIRST_UID` on (one no other child of any grading run on this machine
    holds), so the process limit counts only its processes, it can write nothing of
    root's, and the clean-up after it (every process of that ID killed) reaches no other
    student's run.

``process`` (elsewhere)
    A child process in a new session, in a folder of its own holding only its notebook,
    with the same limits, in a network namespace of its own where Linux lets ``unshare``
    make one (no network), started through a small go-between (so a notebook that kills
    its parent ends only its own run); but it runs as you: it can read your files and use
    the network, it can signal your other processes, a process limit counts all of yours
    and none of root's, and if you can change the installed rummykit so can it (the grader
    checks the package after every submission and stops if it changed,
    :mod:`~rummykit.teach.grading.integrity`).

In both, the child sets its limits before the student's code runs
(:func:`rummykit.teach.grading.child.set_limits`: memory, file size, processes, CPU
time), a wall-clock limit kills its whole process tree, and what comes back is only the
last complete line of the channel it was handed
(:func:`~rummykit.teach.grading.values.decode_message`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from rummykit.errors import ArgumentError, GradingError, SubmissionError
from rummykit.teach.grading.values import MISSING, decode_message

__all__ = ["FIRST_UID", "UIDS", "Isolation", "Limits", "Outcome", "isolation", "run"]

#: The first user ID a child runs as when the grader runs as root (it leases one of
#: FIRST_UID .. FIRST_UID + UIDS - 1 for each run).
FIRST_UID = 3_100_000
#: How many user IDs the leases go through: as many children can run at once, over every
#: grading run on the machine.
UIDS = 4096
#: The facts of a snapshot line that the grader reads, with their types.
_FACTS = {"cell": int, "cells": int, "done": bool, "seconds": (int, float)}


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one submission may use."""

    seconds: float = 60.0
    """Wall-clock seconds for the whole notebook."""
    memory: int = 2 << 30
    """Bytes of address space (RLIMIT_AS)."""
    output: int = 8 << 20
    """Bytes of any one file it writes, its printed output included (RLIMIT_FSIZE)."""
    processes: int = 64
    """Processes it may run at once (RLIMIT_NPROC; counted per child under bubblewrap run
    as root, else over all the user's processes)."""
    disk: int = 64 << 20
    """Bytes of its working folder and of /tmp (bubblewrap's tmpfs)."""

    def __post_init__(self) -> None:
        if not (isinstance(self.seconds, (int, float)) and 1 <= self.seconds <= 24 * 3600):
            raise ArgumentError(f"timeout must be from 1 to 86400 seconds, got {self.seconds!r}")
        if not (isinstance(self.memory, int) and self.memory >= 256 << 20):
            raise ArgumentError(f"memory must be at least 256 MiB, got {self.memory!r} bytes")
        for name in ("output", "processes", "disk"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ArgumentError(f"{name} must be a whole number, 1 or more, got {value!r}")

    def child(self) -> dict:
        """The limits the child sets on itself."""
        return {
            "memory": self.memory,
            "output": self.output,
            "processes": self.processes,
            "cpu": int(self.seconds) + 5,
        }


@dataclasses.dataclass(frozen=True)
class Isolation:
    """How submissions are kept apart from the grader (see the module's docstring)."""

    kind: str
    """``"bubblewrap"`` or ``"process"``."""
    bwrap: str | None = None
    """The bwrap program (bubblewrap only)."""
    own_uid: bool = False
    """Whether each child runs as a user ID of its own (bubblewrap run as root)."""
    unshare: tuple[str, ...] = ()
    """Process only: the ``unshare`` command that gives the child a network namespace of
    its own (no network), where Linux allows one (empty elsewhere)."""

    def describe(self) -> str:
        """One line for the run's summary and the CSV's provenance."""
        if self.kind == "bubblewrap":
            uid = ", a user ID of its own for each notebook" if self.own_uid else ""
            return (
                "bubblewrap: no network, no view of the grader's processes or files, "
                f"the package read-only{uid}"
            )
        network = "no network, " if self.unshare else ""
        return (
            f"process: a child process with limits, in a folder of its own, {network}running "
            "as you (install bubblewrap to isolate it)"
        )


def _bwrap() -> str | None:
    return shutil.which("bwrap") if sys.platform.startswith("linux") else None


def isolation(wanted: str = "auto") -> Isolation:
    """The isolation to grade with: ``"auto"`` (bubblewrap where it works, else process,
    but never process for a grader run as root: the notebooks would run as root),
    ``"bubblewrap"`` (an error naming the cause where it does not work) or ``"process"``."""
    if wanted not in ("auto", "bubblewrap", "process"):
        raise ArgumentError(f"isolation is auto, bubblewrap or process, got {wanted!r}")
    root = os.geteuid() == 0 if hasattr(os, "geteuid") else False
    if wanted == "process":
        return _process(root)
    program = _bwrap()
    problem = "bwrap is not installed" if program is None else None
    if program is not None:
        candidate = Isolation("bubblewrap", program, own_uid=root)
        problem = _probe(candidate)
        if problem is None:
            return candidate
    if wanted == "bubblewrap" or root:
        install = (
            "install it (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install "
            "bubblewrap; it needs Linux)"
            if program is None
            else "bwrap cannot start a sandbox here"
        )
        raise GradingError(
            f"isolation bubblewrap: {problem}: {install}"
            + (
                "; run as root, the grader will not run notebooks as plain processes unless "
                "told to (--isolation process): they would run as root, able to change or "
                "end anything on this machine"
                if root and wanted == "auto"
                else ""
            )
        )
    return _process(root)


def _process(root: bool) -> Isolation:
    """Process isolation, in a network namespace of its own where ``unshare`` can make
    one (as root, or through a user namespace)."""
    program = shutil.which("unshare") if sys.platform.startswith("linux") else None
    if program is not None:
        command = (program, "--net") if root else (program, "--net", "--user", "--map-root-user")
        try:
            done = subprocess.run([*command, "true"], capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            done = None
        if done is not None and done.returncode == 0:
            return Isolation("process", unshare=(*command, "--"))
    return Isolation("process")


def _probe(candidate: Isolation) -> str | None:
    """Why a trivial child cannot run in ``candidate``, or None if it can."""
    notebook = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    try:
        outcome = run(notebook.encode(), (), Limits(seconds=60), candidate)
    except GradingError as error:
        return str(error)
    if outcome.status != "finished":
        return outcome.reason
    return None


#: Process isolation's go-between: the notebook's parent is this small process, not the
#: grader, so a notebook that kills its parent ends only its own run. It tells the grader
#: the child's process ID (on a pipe the child is not handed, before the student's code
#: can run), and passes on the child's exit status, and its signal.
_SUPERVISOR = (
    "import os, signal, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[3:], pass_fds=(int(sys.argv[1]),))\n"
    "os.write(int(sys.argv[2]), str(child.pid).encode())\n"
    "os.close(int(sys.argv[2]))\n"
    "code = child.wait()\n"
    "if code < 0:\n"
    "    signal.signal(-code, signal.SIG_DFL)\n"
    "    os.kill(os.getpid(), -code)\n"
    "sys.exit(code)\n"
)


class _Orphan:
    """Process isolation's child, as the grader sees it: not its own child (the
    go-between's), so it cannot wait for it, but it can watch it end. A notebook that
    kills its parent keeps running, its last cells and its last snapshot still to come:
    the grader waits for them as it would have, within the same limit."""

    def __init__(self, report: int, deadline: float):
        """Read the child's process ID from ``report`` (the go-between writes it as soon
        as the child is started) and take a handle on that process while it exists."""
        self.pid = self.handle = None
        if select.select([report], [], [], max(0.0, deadline - time.monotonic()))[0]:
            with contextlib.suppress(OSError, ValueError, UnicodeDecodeError):
                self.pid = int(os.read(report, 32).decode("ascii"))
        if self.pid is not None and hasattr(os, "pidfd_open"):
            with contextlib.suppress(OSError):
                self.handle = os.pidfd_open(self.pid)

    def ended(self) -> bool:
        """Whether the child has ended (a zombie has: nobody may reap an orphan)."""
        if self.pid is None:
            return True
        try:
            line = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return True
        return line[line.rfind(")") + 2 :][:1] in ("Z", "X", "")  # the state, after the name

    def wait(self, deadline: float) -> bool:
        """Wait until the child ends or ``deadline`` (monotonic) passes; whether it ended."""
        while not self.ended():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self.handle is not None:
                select.select([self.handle], [], [], left)
            else:
                time.sleep(min(0.05, left))
        return True

    def close(self) -> None:
        if self.handle is not None:
            os.close(self.handle)
            self.handle = None


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What came back from one submission's run."""

    values: dict
    """The answer variables' values (:data:`~rummykit.teach.grading.values.MISSING` where
    never set)."""
    status: str
    """``finished``, ``timeout``, ``crashed`` (killed by a signal), ``stopped`` (it ended
    before its last cell) or ``unreadable`` (it handed back nothing the grader reads)."""
    reason: str
    """One line: what stopped it (empty when it finished), and what was cut."""
    cell: int
    """The last code cell that finished (0: none)."""
    cells: int
    errors: tuple[dict, ...]
    """The cells that raised: ``{"cell", "error", "message"}``."""
    student_id: str | None
    """The ID typed in the notebook's ``STUDENT_ID`` (None if it set none)."""
    notebook_seconds: float
    """The notebook's own run time, as the child measured it."""
    seconds: float
    """Wall-clock seconds of the whole run, sandbox and start-up included."""
    output: str
    """The end of what the notebook printed (at most 2,000 characters)."""


def _environment(home: str, python_bin: str) -> dict[str, str]:
    return {
        "PATH": f"{python_bin}:/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": "/tmp" if home == "/submission" else home,
        "LANG": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": f"{home}/.matplotlib",
        "IPYTHONDIR": f"{home}/.ipython",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "POLARS_MAX_THREADS": "1",
        "RAYON_NUM_THREADS": "1",
    }


def _python_roots() -> list[Path]:
    """The folders the child's Python needs, read-only: the installation, the virtual
    environment and the rummykit package (an editable install's lives in a checkout;
    only the package's own folder is bound, never the checkout)."""
    import rummykit

    roots = {
        Path(p).resolve()
        for p in (sys.base_prefix, sys.base_exec_prefix, sys.prefix, sys.exec_prefix)
    }
    roots.add(Path(sys.executable).resolve().parent.parent)
    roots.add(Path(rummykit.__file__).resolve().parent)
    kept: list[Path] = []
    for root in sorted(roots, key=lambda p: len(p.parts)):
        if root.is_dir() and not any(root.is_relative_to(k) for k in kept) and root != Path("/"):
            kept.append(root)
    return kept


def _bwrap_command(
    candidate: Isolation, limits: Limits, notebook_fd: int, child: list[str]
) -> list[str]:
    if candidate.own_uid:
        # bwrap as root, no user namespace: the child keeps CAP_SETUID and CAP_SETGID only
        # to drop to its leased user ID before the student's code runs.
        unshare = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        unshare += ["--unshare-cgroup-try", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        unshare = ["--unshare-all"]
    command = [candidate.bwrap, *unshare, "--die-with-parent", "--new-session"]
    command += ["--hostname", "grading", "--clearenv"]
    for name, value in _environment("/submission", str(Path(sys.executable).parent)).items():
        command += ["--setenv", name, value]
    command += ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    # The private /tmp first: a Python installed under /tmp (a checkout's .venv there) is
    # bound into it below, not hidden by it.
    command += ["--size", str(limits.disk), "--perms", "1777", "--tmpfs", "/tmp"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        path = Path(top)
        if path.is_symlink():
            command += ["--symlink", os.readlink(path), top]
        elif path.is_dir():
            command += ["--ro-bind", top, top]
    made: set[Path] = set()
    for root in _python_roots():
        if any(root.is_relative_to(top) for top in ("/usr", "/etc")):
            continue
        # bwrap would make the folders above a bind readable by root only; the child,
        # under its leased user ID, must pass through them.
        for parent in reversed(root.parents[:-1]):
            if parent not in made and parent != Path("/tmp"):
                made.add(parent)
                command += ["--perms", "0755", "--dir", str(parent)]
        command += ["--ro-bind", str(root), str(root)]
    command += ["--proc", "/proc", "--dev", "/dev"]
    command += ["--size", str(limits.disk), "--perms", "0777", "--tmpfs", "/submission"]
    command += ["--perms", "0644", "--file", str(notebook_fd), "/submission/submission.ipynb"]
    command += ["--chdir", "/submission", "--"]
    return command + child


def run(
    notebook: bytes,
    names: tuple[str, ...],
    limits: Limits,
    candidate: Isolation,
) -> Outcome:
    """Run ``notebook`` (its bytes) in a child process under ``candidate``'s isolation,
    within ``limits``, and return the values of ``names`` it hands back."""
    if candidate.kind == "bubblewrap" and candidate.own_uid:
        with _leased_uid() as user:
            return _run(notebook, names, limits, candidate, user)
    return _run(notebook, names, limits, candidate, None)


def _run(
    notebook: bytes,
    names: tuple[str, ...],
    limits: Limits,
    candidate: Isolation,
    user: int | None,
) -> Outcome:
    scratch = Path(tempfile.mkdtemp(prefix="rummykit-grading-"))
    os.chmod(scratch, 0o700)
    fds: dict[str, int] = {}
    report = orphan = None  # process isolation: where the go-between tells the child's ID
    started = time.monotonic()
    try:
        channel_path, output_path = scratch / "channel", scratch / "output"
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
        fds["channel"] = os.open(channel_path, flags, 0o600)
        fds["output"] = os.open(output_path, flags, 0o600)
        child_args = [
            json.dumps(list(names)),
            json.dumps(limits.child()),
        ]
        python = [sys.executable, "-I", "-B", "-u", "-m", "rummykit.teach.grading.child"]
        if candidate.kind == "bubblewrap":
            (scratch / "notebook").write_bytes(notebook)
            fds["notebook"] = os.open(scratch / "notebook", os.O_RDONLY | os.O_CLOEXEC)
            if user is not None:
                child_args.append(str(user))
            child = [*python, "submission.ipynb", str(fds["channel"]), *child_args]
            command = _bwrap_command(candidate, limits, fds["notebook"], child)
            cwd = "/"
            env = None
        else:
            folder = scratch / "submission"
            folder.mkdir()
            (folder / "submission.ipynb").write_bytes(notebook)
            child = [*python, "submission.ipynb", str(fds["channel"]), *child_args]
            report, fds["report"] = os.pipe()
            supervisor = [sys.executable, "-I", "-c", _SUPERVISOR, str(fds["channel"])]
            supervisor.append(str(fds["report"]))
            command = [*candidate.unshare, *supervisor, *child]
            cwd = str(folder)
            env = _environment(str(folder), str(Path(sys.executable).parent))
        passed = tuple(fd for name, fd in fds.items() if name != "output")
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=fds["output"],
                stderr=fds["output"],
                pass_fds=passed,
                cwd=cwd,
                env=env if env is not None else {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                start_new_session=True,
            )
        except OSError as error:
            raise GradingError(f"cannot start the sandbox ({command[0]}): {error}") from None
        for fd in fds.values():
            os.close(fd)
        fds.clear()
        timed_out = False
        deadline = started + limits.seconds
        if report is not None:
            orphan = _Orphan(report, deadline)
        try:
            returncode = process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(process, user)
            returncode = process.wait()
        if orphan is not None and not timed_out and returncode < 0:
            # the go-between was killed (by the notebook, or it passed on its signal)
            timed_out = not orphan.wait(deadline)
        _kill(process, user)  # what it left behind (a forked child still running)
        seconds = time.monotonic() - started
        return _outcome(channel_path, output_path, names, limits, returncode, timed_out, seconds)
    finally:
        for fd in fds.values():
            os.close(fd)
        if orphan is not None:
            orphan.close()
        if report is not None:
            os.close(report)
        shutil.rmtree(scratch, ignore_errors=True)


def _leases() -> Path:
    """The folder of the user IDs' lock files: root's own, nobody else may write there."""
    folder = Path(tempfile.gettempdir()) / "rummykit-grading-uids"
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    facts = os.lstat(folder)
    if (
        not stat.S_ISDIR(facts.st_mode)
        or facts.st_uid != os.geteuid()
        or facts.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        raise GradingError(
            f"{folder} must be a folder of the grader's own that nobody else may write to "
            "(it holds the locks of the user IDs the notebooks run as): remove it"
        )
    return folder


@contextlib.contextmanager
def _leased_uid() -> Iterator[int]:
    """A user ID no other child runs as, on this machine, while the block runs: the first
    of :data:`FIRST_UID` on whose lock file this process takes an exclusive ``flock``
    (released when the block ends, or when the grader dies). Two grading runs at once
    (or a run and another's start-up check) once shared slot 0's ID, and one's clean-up,
    every process of that ID killed, ended the other's student before it handed anything
    back."""
    folder = _leases()
    for uid in range(FIRST_UID, FIRST_UID + UIDS):
        fd = os.open(
            folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600
        )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield uid
        finally:
            os.close(fd)
        return
    raise GradingError(
        f"all {UIDS} user IDs from {FIRST_UID} are in use by children of grading runs "
        f"(their locks: {folder}); wait for a run to end"
    )


def _kill(process: subprocess.Popen, user: int | None) -> None:
    """Kill the child's process group and, when it ran as a leased user ID of its own, every
    process of that ID (one that left the group with setsid)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if user is not None:
        # kill(-1) as that user reaches every process of it but the caller; a shell of
        # the system's, since the grader's own Python may lie where that user cannot go.
        killer = subprocess.Popen(
            ["/bin/sh", "-c", "kill -KILL -1"],
            user=user,
            group=user,
            extra_groups=[],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={"PATH": "/usr/bin:/bin"},
            cwd="/",
        )
        killer.wait()


def _last_snapshot(path: Path, names: tuple[str, ...]) -> tuple[dict | None, dict]:
    """The values and facts of the last line of the channel that reads as a snapshot."""
    try:
        data = path.read_bytes()
    except OSError:
        return None, {}
    for line in reversed(data.split(b"\n")):
        if not line.strip():
            continue
        try:
            values, facts = decode_message(line, names)
        except SubmissionError:
            continue
        return values, facts
    return None, {}


def _clean(facts: dict) -> dict:
    """The facts of a snapshot, kept only where they have their types (the child is the
    student's: its facts are words for the feedback, never trusted for marks)."""
    clean = {}
    for name, kind in _FACTS.items():
        value = facts.get(name)
        if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
            clean[name] = value
    errors = []
    for error in facts.get("errors", [])[:20] if isinstance(facts.get("errors"), list) else []:
        if (
            isinstance(error, dict)
            and isinstance(error.get("cell"), int)
            and isinstance(error.get("error"), str)
            and isinstance(error.get("message"), str)
        ):
            errors.append(
                {
                    "cell": error["cell"],
                    "error": error["error"][:80],
                    "message": error["message"][:200],
                }
            )
    clean["errors"] = tuple(errors)
    student_id = facts.get("student_id")
    clean["student_id"] = student_id[:80] if isinstance(student_id, str) else None
    return clean


def _outcome(
    channel: Path,
    output: Path,
    names: tuple[str, ...],
    limits: Limits,
    returncode: int,
    timed_out: bool,
    seconds: float,
) -> Outcome:
    values, raw = _last_snapshot(channel, names)
    facts = _clean(raw)
    cell, cells = facts.get("cell", 0), facts.get("cells", 0)
    try:
        size = output.stat().st_size
        with output.open("rb") as file:
            file.seek(max(0, size - 2000))
            printed = file.read().decode("utf-8", "replace")
    except OSError:
        size, printed = 0, ""
    where = f"in cell {cell + 1} of {cells}" if cells else "before its first cell"
    if values is None:
        status = "unreadable"
        values = dict.fromkeys(names, MISSING)
        first = printed.strip().splitlines()[-1][:200] if printed.strip() else "no output"
        reason = f"the notebook could not be run ({first})"
        if timed_out:
            reason = f"ran past the {limits.seconds:g} s limit before its first cell"
    elif timed_out:
        status = "timeout"
        reason = (
            f"ran past the {limits.seconds:g} s limit {where}: answers set before it are marked"
        )
    elif facts.get("done") is True:
        status, reason = "finished", ""
    elif returncode < 0 or returncode > 128:
        status = "crashed"
        number = -returncode if returncode < 0 else returncode - 128
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        reason = (
            f"the notebook's process was killed ({name}) {where}: answers set before it are marked"
        )
    else:
        status = "stopped"
        reason = (
            f"the notebook's process stopped {where} (exit status {returncode}): answers set "
            "before it are marked"
        )
    if size >= limits.output:
        cut = f"it printed {limits.output // (1 << 20)} MiB or more, and the output was cut there"
        reason = f"{reason}; {cut}" if reason else cut
    return Outcome(
        values=values,
        status=status,
        reason=reason,
        cell=cell,
        cells=cells,
        errors=facts.get("errors", ()),
        student_id=facts.get("student_id"),
        notebook_seconds=float(facts.get("seconds", 0.0)),
        seconds=seconds,
        output=printed[-2000:],
    )
