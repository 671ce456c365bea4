"""Every public callable given hostile arguments (issue 25): each call returns normally
or raises a RummyError within 2 s and 1 GB. The probes run in one child process
(tests/support/hostile_probes.py) under RLIMIT_AS and an alarm; a probe that hangs where no
alarm reaches (in C) is killed from here by a deadline, named, and the child restarted
after it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "support" / "hostile_probes.py"
#: Callables whose argument checks are not written yet (issue 25, item 6): none. A
#: callable put here must fail a probe (so that a fixed one leaves the list), each with
#: the reason in a comment.
OPEN: set[str] = set()

#: The child is killed when no probe line arrives for this long (the alarm is 2 s).
STALL_SECONDS = 20


def _run_probes() -> list[dict]:
    results: list[dict] = []
    skip = 0
    while True:
        child = subprocess.Popen(
            [sys.executable, str(PROBES), str(skip)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        current = None
        try:
            out, _ = child.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            child.kill()
            out, _ = child.communicate()
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        done = False
        for line in lines:
            if line["outcome"] == "start":
                current = line
            elif line["outcome"] == "done":
                done = True
            else:
                results.append(line)
                current = None
        if done:
            return results
        if current is None:
            raise AssertionError(f"the probe child died before a probe (exit {child.returncode})")
        # The child died or hung inside a probe: that probe failed; go on after it.
        results.append({**current, "outcome": "failed", "detail": "killed: hung or died"})
        skip = current["i"] + 1


@pytest.mark.slow
def test_every_public_callable_returns_or_refuses_hostile_arguments():
    results = _run_probes()
    failed = [r for r in results if r["outcome"] == "failed"]
    held = len(results) - len(failed)
    refused = sum(r["outcome"] == "refused" for r in results)
    print(
        f"hostile probes: {len(results)} tried, {held} held ({refused} refused), "
        f"{len(failed)} failed, all in the {len(OPEN)} open callables"
    )
    assert len(results) > 8800
    closed = [r for r in failed if r["probe"].split("(")[0] not in OPEN]
    assert not closed, "\n".join(f"{r['probe']}: {r['detail']}" for r in closed)
    still_open = {r["probe"].split("(")[0] for r in failed}
    assert still_open >= OPEN, (
        f"these hold every probe now, take them off OPEN: {OPEN - still_open}"
    )
    assert not failed, "\n".join(f"{r['probe']}: {r['detail']}" for r in failed)
