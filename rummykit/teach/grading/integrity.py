"""The installed rummykit, fingerprinted: the grader takes its fingerprint before grading
and again after every submission, and stops if a submission changed it (where the
sandbox cannot make the package read-only, a notebook could otherwise make every later
submission pass).

The fingerprint covers every file of the package's folder (sources, compiled modules,
bytecode, data) by path and content, and the hooks Python runs at every start from the
site-packages folders (``*.pth``, an editable install's finder, ``sitecustomize.py``,
``usercustomize.py``), by path
and content.

>>> fingerprint() == fingerprint()
True
"""

from __future__ import annotations

import hashlib
import site
import sys
from pathlib import Path

__all__ = ["fingerprint", "package_folder", "watched"]


def package_folder() -> Path:
    """The folder of the rummykit this process imported."""
    import rummykit

    return Path(rummykit.__file__).resolve().parent


def watched() -> list[Path]:
    """Every file the fingerprint covers, sorted."""
    files = [path for path in package_folder().rglob("*") if path.is_file()]
    folders = {Path(p) for p in [*site.getsitepackages(), *sys.path] if p and "site-packages" in p}
    for folder in folders:
        if folder.is_dir():
            files += [p for p in folder.glob("*.pth") if p.is_file()]
            files += [p for p in folder.glob("__editable__*") if p.is_file()]
            files += [folder / n for n in ("sitecustomize.py", "usercustomize.py")]
    return sorted(set(files))


def fingerprint() -> str:
    """A digest of :func:`watched`'s files: their paths, and their bytes where they exist."""
    digest = hashlib.sha256()
    for path in watched():
        digest.update(str(path).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except FileNotFoundError:
            digest.update(b"\1absent")
        except OSError as error:
            digest.update(f"\1{type(error).__name__}".encode())
        digest.update(b"\0")
    return digest.hexdigest()
