"""Bytecode for the live notebooks' Python, compiled once when the book is built.

Pyodide's standard library (``python_stdlib.zip`` of the npm package) and the wheels from
PyPI hold only sources, so a reader's browser compiled every module it imported, the
standard library's included, each time a live notebook started: about two thirds of the
seconds from Pyodide's start to the first widget (issue 31, item 3). Here each ``.py``
gets its bytecode beside it, and the browser only loads it:

- in a wheel, ``__pycache__/NAME.cpython-3XX.pyc``, where the import system looks first,
  with the wheel's ``RECORD`` listing each new file and its hash;
- in the standard library's zip, ``NAME.pyc`` next to ``NAME.py``, where ``zipimport``
  looks first.

Every ``.pyc`` is hash-based and unchecked (PEP 552): the import system uses it without
reading its source, whose time stamp a wheel's unpacking does not keep. The sources stay,
for tracebacks and ``inspect``. A file that does not compile (a test of another Python's
syntax) keeps its source alone, as before.

Bytecode belongs to one Python: this module runs inside Pyodide itself (``lite_bytecode.mjs``
loads the book's Pyodide core in Node and calls :func:`main`), so the magic number and the
cache tag are the browser's. It runs on any Python as well, which is how it is tested.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import json
import marshal
import sys
import warnings
import zipfile
from collections.abc import Callable

#: Changing how the bytecode is made changes this, and the book's build compiles again.
VERSION = "1"
#: The flags of a hash-based pyc whose source is never checked (PEP 552).
_UNCHECKED_HASH = (1).to_bytes(4, "little")


def pyc(source: bytes, filename: str) -> bytes | None:
    """The unchecked hash-based ``.pyc`` of a module's source, or None if it does not
    compile on this Python."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in old sources, and the like
            code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    header = importlib.util.MAGIC_NUMBER + _UNCHECKED_HASH + importlib.util.source_hash(source)
    return header + marshal.dumps(code)


def _entry(name: str, like: zipfile.ZipInfo) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=like.date_time)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = like.external_attr
    return info


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def _compiled_already(names: list[str]) -> bool:
    return any(name.endswith(".pyc") for name in names)


def _record_name(names: list[str]) -> str:
    (name,) = [n for n in names if n.count("/") == 1 and n.endswith(".dist-info/RECORD")]
    return name


def _rewrite_wheel(
    wheel: zipfile.ZipFile,
    target: str,
    drop: Callable[[str], bool],
    added: list[tuple[zipfile.ZipInfo, bytes]],
) -> None:
    """Write to ``target`` the files of ``wheel`` but those ``drop`` names, then ``added``,
    with a ``RECORD`` to match: the dropped files' rows out, a row for each added one."""
    infos = wheel.infolist()
    record_name = _record_name([info.filename for info in infos])
    rows = csv.reader(io.StringIO(wheel.read(record_name).decode()))
    kept = [row for row in rows if row and not drop(row[0])]
    kept += [[info.filename, _record_hash(data), str(len(data))] for info, data in added]
    record = io.StringIO()
    csv.writer(record, lineterminator="\n").writerows(kept)
    with zipfile.ZipFile(target, "w") as out:
        for info in infos:
            if not drop(info.filename):
                data = wheel.read(info)
                out.writestr(
                    info, record.getvalue().encode() if info.filename == record_name else data
                )
        for info, data in added:
            out.writestr(info, data)


def drop_from_wheel(source: str, target: str, prefixes: tuple[str, ...]) -> int:
    """Write to ``target`` the wheel ``source`` without the files under ``prefixes``
    (folders, ending in ``/``), and without them in its ``RECORD``; return how many
    files were left out."""

    def drop(name: str) -> bool:
        return name.startswith(prefixes)

    with zipfile.ZipFile(source) as wheel:
        _rewrite_wheel(wheel, target, drop, [])
        return sum(drop(name) for name in wheel.namelist())


def compile_wheel(source: str, target: str, site_packages: str) -> int:
    """Write to ``target`` the wheel ``source`` with a ``__pycache__`` bytecode file for
    each module, listed in its ``RECORD``; return how many modules were compiled.

    ``site_packages`` is where the wheel is installed (the code objects' file names).
    A wheel that already holds bytecode is copied as it is.
    """
    with zipfile.ZipFile(source) as wheel:
        added: list[tuple[zipfile.ZipInfo, bytes]] = []
        if not _compiled_already(wheel.namelist()):
            for info in wheel.infolist():
                name = info.filename
                # A wheel's NAME.data/ holds scripts and data, not modules.
                if not name.endswith(".py") or name.split("/", 1)[0].endswith(".data"):
                    continue
                code = pyc(wheel.read(info), f"{site_packages}/{name}")
                if code is not None:
                    added.append((_entry(importlib.util.cache_from_source(name), info), code))
        _rewrite_wheel(wheel, target, lambda name: False, added)
    return len(added)


def compile_stdlib(source: str, target: str, archive: str) -> int:
    """Write to ``target`` the standard library's zip ``source`` with ``NAME.pyc`` next to
    each ``NAME.py``; return how many modules were compiled.

    ``archive`` is the zip's path where Python imports it (the code objects' file names).
    A zip that already holds bytecode is copied as it is.
    """
    count = 0
    with zipfile.ZipFile(source) as stdlib, zipfile.ZipFile(target, "w") as out:
        infos = stdlib.infolist()
        compiled_already = _compiled_already([info.filename for info in infos])
        for info in infos:
            data = stdlib.read(info)
            out.writestr(info, data)
            if compiled_already or not info.filename.endswith(".py"):
                continue
            code = pyc(data, f"{archive}/{info.filename}")
            if code is not None:
                out.writestr(_entry(info.filename + "c", info), code)
                count += 1
    return count


def main(jobs: str) -> None:
    """Do each job of the JSON list ``jobs``: ``{"kind": "wheel" or "stdlib", "source",
    "target"}``, and print a line per job. Run inside Pyodide by ``lite_bytecode.mjs``."""
    version = "{}.{}".format(*sys.version_info[:2])
    site_packages = f"{sys.prefix}/lib/python{version}/site-packages"
    archive = next(
        (path for path in sys.path if path.endswith(".zip")),
        f"/lib/python{version.replace('.', '')}.zip",
    )
    for job in json.loads(jobs):
        if job["kind"] == "stdlib":
            count = compile_stdlib(job["source"], job["target"], archive)
        else:
            count = compile_wheel(job["source"], job["target"], site_packages)
        print(f"bytecode: {count} modules of {job['source'].rsplit('/', 1)[-1]}")
