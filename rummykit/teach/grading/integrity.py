"""The installed rummykit, fingerprinted: the grader takes a snapshot of it before grading
and compares after every submission, and stops if a submission changed it (where the
sandbox cannot make the package read-only, a notebook could otherwise make every later
submission pass).

The snapshot covers every file of the package's folder (sources, compiled modules,
bytecode, data) by path and content, and the hooks Python runs at every start from the
site-packages folders (``*.pth``, an editable install's finder, ``sitecustomize.py``,
``usercustomize.py``). Before the first snapshot the grader brings the package's bytecode
up to date (:func:`prepare`), so that no honest process writes there while it grades.

>>> changed(snapshot(), snapshot())
[]
"""

from __future__ import annotations

import compileall
import contextlib
import hashlib
import io
import site
import sys
from pathlib import Path

__all__ = ["changed", "package_folder", "prepare", "snapshot", "watched"]


def package_folder() -> Path:
    """The folder of the rummykit this process imported."""
    import rummykit

    return Path(rummykit.__file__).resolve().parent


def watched() -> list[Path]:
    """Every file the snapshot covers, sorted."""
    files = [path for path in package_folder().rglob("*") if path.is_file()]
    folders = {Path(p) for p in [*site.getsitepackages(), *sys.path] if p and "site-packages" in p}
    for folder in folders:
        if folder.is_dir():
            files += [p for p in folder.glob("*.pth") if p.is_file()]
            files += [p for p in folder.glob("__editable__*") if p.is_file()]
            files += [folder / n for n in ("sitecustomize.py", "usercustomize.py")]
    return sorted(set(files))


def snapshot() -> dict[str, str]:
    """``{path: digest of its bytes}`` for :func:`watched`'s files (``"absent"`` for a
    hook that does not exist, which is how it should be)."""
    found = {}
    for path in watched():
        try:
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        except FileNotFoundError:
            found[str(path)] = "absent"
        except OSError as error:
            found[str(path)] = type(error).__name__
    return found


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The paths added, removed or changed between two snapshots, sorted."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def prepare() -> None:
    """Compile the package's bytecode where it is missing or stale (quietly; nothing if
    the folder is read-only), so that importing rummykit writes nothing while grading."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(OSError):
        compileall.compile_dir(str(package_folder()), quiet=2, workers=1)
