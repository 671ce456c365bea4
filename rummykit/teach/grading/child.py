"""The child process that runs one student's notebook, inside the sandbox
(:mod:`~rummykit.teach.grading.sandbox` starts it; it never runs in the grader's process).

``python -I -m rummykit.teach.grading.child NOTEBOOK CHANNEL_FD NAMES_JSON LIMITS_JSON [UID]``

It sets its own limits (memory, processes, file size, CPU time) before any of the
student's code runs, then runs every code cell in order with IPython (magics work; a cell
that raises is recorded and the next one runs, as otter and nbgrader do), and after each
cell writes the values of the answer variables to the channel (a file
the grader opened and handed over as ``CHANNEL_FD``) as one line of JSON
(:func:`~rummykit.teach.grading.values.encode_message`). The grader reads the last
complete line: answers from the cells that finished are marked even if a later cell loops
or crashes. Whatever this process writes is only data to the grader: a student who writes
to the channel only hands in other answers, which are marked like any.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import time

from rummykit.teach.grading.values import MAX_MESSAGE, encode, encode_message

#: The most bytes one variable's encoded value may take in a snapshot.
MAX_VALUE_BYTES = 64 * 1024
#: The most errors a snapshot lists.
MAX_ERRORS = 20


def _limit(kind: int, value: int) -> None:
    try:
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):  # a hard limit already lower: keep it
        soft, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY and hard < value:
            resource.setrlimit(kind, (hard, hard))


def set_limits(limits: dict) -> None:
    """Memory (address space), file size (every file written, printed output included),
    processes, CPU seconds, open files, no core files."""
    _limit(resource.RLIMIT_AS, int(limits["memory"]))
    _limit(resource.RLIMIT_FSIZE, int(limits["output"]))
    _limit(resource.RLIMIT_NPROC, int(limits["processes"]))
    _limit(resource.RLIMIT_CPU, int(limits["cpu"]))
    _limit(resource.RLIMIT_NOFILE, 256)
    _limit(resource.RLIMIT_CORE, 0)
    # Past the file-size limit a write fails (OSError) instead of killing the process.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def code_cells(path: str) -> list[str]:
    """The sources of the notebook's code cells, in order (plain JSON reading: the grader
    has already checked that the file is a notebook)."""
    with open(path, encoding="utf-8") as file:
        notebook = json.load(file)
    cells = []
    for cell in notebook.get("cells", []):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            cells.append("".join(source) if isinstance(source, list) else str(source))
    return cells


def snapshot(namespace: dict, names: list[str]) -> dict:
    """The encoded values of ``names`` that the namespace holds (a name it lacks is left
    out: the grader reads it as never set)."""
    values = {}
    for name in names:
        if name in namespace:
            try:
                encoded = encode(namespace[name])
                if len(json.dumps(encoded)) > MAX_VALUE_BYTES:
                    encoded = {"unsupported": "value", "text": "too large to hand back"}
            except Exception as error:  # a student's object may raise anything
                encoded = {"unsupported": type(error).__name__[:80], "text": "could not be read"}
            values[name] = encoded
    return values


def _text(error: BaseException) -> str:
    try:
        return str(error)[:200]
    except Exception:  # a student's exception may fail to print
        return ""


def drop_to(uid: int) -> None:
    """Become ``uid`` (group too, no other groups) for good: the grader, run as root,
    starts the sandbox as root and each child drops to the user ID leased for it before the
    student's code runs, so the process limit counts only its processes."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit(f"could not drop to user ID {uid}")


def main(argv: list[str]) -> int:
    notebook, channel, names, limits = (
        argv[0],
        int(argv[1]),
        json.loads(argv[2]),
        json.loads(argv[3]),
    )
    if len(argv) > 4:
        drop_to(int(argv[4]))
    set_limits(limits)
    started = time.monotonic()
    cells = code_cells(notebook)

    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance(history_length=0)
    shell.history_manager.enabled = False
    errors: list[dict] = []

    def send(cell: int, done: bool) -> None:
        values = snapshot(shell.user_ns, names)
        student_id = shell.user_ns.get("STUDENT_ID")
        facts = {
            "cell": cell,
            "cells": len(cells),
            "done": done,
            "seconds": round(time.monotonic() - started, 3),
            "errors": errors[-MAX_ERRORS:],
            "student_id": student_id[:80] if isinstance(student_id, str) else None,
        }
        line = encode_message(values, **facts)
        if len(line) > MAX_MESSAGE:
            line = encode_message({}, **facts, too_large=True)
        os.write(channel, line)

    send(0, False)
    for index, source in enumerate(cells, start=1):
        result = shell.run_cell(source, store_history=False)
        error = result.error_before_exec or result.error_in_exec
        if error is not None:
            errors.append(
                {"cell": index, "error": type(error).__name__[:80], "message": _text(error)}
            )
        send(index, False)
    send(len(cells), True)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
