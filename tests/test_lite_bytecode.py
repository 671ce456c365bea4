"""The live notebooks' bytecode (book/_ext/lite_bytecode.py), on this machine's Python.

The book's build runs the same functions inside Pyodide (tests/test_book_live.py checks
there that Pyodide imports the site's modules from their bytecode). Here: a compiled
wheel installs as a wheel should (every file in its RECORD, with its hash) and its
modules are imported from the bytecode, not the source; so is a compiled standard
library zip; what does not compile keeps its source alone; leaving files out of a wheel
leaves them out of its RECORD too.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib
import io
import json
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import lite_bytecode  # noqa: E402

RECORD = "toy-1.0.dist-info/RECORD"


def _wheel(path: Path, files: dict[str, str]) -> Path:
    """A wheel of ``files`` with a RECORD that lists each with its hash."""
    rows = []
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest())
            rows.append(f"{name},sha256={digest.rstrip(b'=').decode()},{len(text.encode())}")
        wheel.writestr(RECORD, "\n".join([*rows, f"{RECORD},,"]) + "\n")
    return path


TOY = {
    "toy/__init__.py": "VALUE = 'from the source'\n",
    "toy/sub/deep.py": "def f():\n    return 42\n",
    "toy/old.py": "print 'python 2'\n",
    "toy/data.json": "{}",
    "toy-1.0.data/scripts/tool.py": "print('a script')\n",
    "toy-1.0.dist-info/METADATA": "Name: toy\nVersion: 1.0\n",
}


def _record(wheel: zipfile.ZipFile) -> dict[str, tuple[str, str]]:
    rows = csv.reader(io.StringIO(wheel.read(RECORD).decode()))
    return {row[0]: (row[1], row[2]) for row in rows}


def _import_fresh(folder: Path, name: str):
    sys.path.insert(0, str(folder))
    try:
        importlib.invalidate_caches()
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
        for module in [m for m in sys.modules if m == "toy" or m.startswith("toy.")]:
            del sys.modules[module]


def test_a_compiled_wheel_records_its_bytecode_and_imports_from_it(tmp_path: Path):
    source = _wheel(tmp_path / "toy-1.0-py3-none-any.whl", TOY)
    target = tmp_path / "compiled.whl"
    count = lite_bytecode.compile_wheel(str(source), str(target), "/site")
    assert count == 2  # toy/__init__.py and toy/sub/deep.py; not Python 2, not a script

    tag = sys.implementation.cache_tag
    with zipfile.ZipFile(target) as wheel:
        names = set(wheel.namelist())
        added = names - set(TOY) - {RECORD}
        assert added == {
            f"toy/__pycache__/__init__.{tag}.pyc",
            f"toy/sub/__pycache__/deep.{tag}.pyc",
        }
        for name, text in TOY.items():  # every source kept, byte for byte
            assert wheel.read(name).decode() == text
        record = _record(wheel)
        assert set(record) == names
        for name in names - {RECORD}:
            data = wheel.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert record[name] == (f"sha256={digest.decode()}", str(len(data))), name
        pyc = wheel.read(f"toy/__pycache__/__init__.{tag}.pyc")
        assert pyc[:4] == importlib.util.MAGIC_NUMBER
        assert pyc[4:8] == (1).to_bytes(4, "little")  # hash-based, source never checked
        wheel.extractall(tmp_path / "site")

    # The source changed after unpacking: the import system still takes the bytecode.
    (tmp_path / "site" / "toy" / "__init__.py").write_text("VALUE = 'edited'\n")
    toy = _import_fresh(tmp_path / "site", "toy")
    assert toy.VALUE == "from the source"
    assert toy.__cached__.endswith(f"__init__.{tag}.pyc")

    # Compiling again copies: a wheel that holds bytecode is left as it is.
    again = tmp_path / "again.whl"
    assert lite_bytecode.compile_wheel(str(target), str(again), "/site") == 0
    with zipfile.ZipFile(target) as first, zipfile.ZipFile(again) as second:
        assert sorted(first.namelist()) == sorted(second.namelist())
        assert all(first.read(name) == second.read(name) for name in first.namelist())


def test_a_compiled_standard_library_zip_is_imported_from_its_bytecode(tmp_path: Path):
    source = tmp_path / "stdlib.zip"
    with zipfile.ZipFile(source, "w") as stdlib:
        stdlib.writestr("toy/__init__.py", "VALUE = 'from the source'\n")
        stdlib.writestr("toy/old.py", "print 'python 2'\n")
    target = tmp_path / "compiled.zip"
    assert lite_bytecode.compile_stdlib(str(source), str(target), str(target)) == 1
    with zipfile.ZipFile(target) as stdlib:
        assert sorted(stdlib.namelist()) == ["toy/__init__.py", "toy/__init__.pyc", "toy/old.py"]
        # The source differs from the bytecode's: zipimport takes the bytecode.
        edited = tmp_path / "edited.zip"
        with zipfile.ZipFile(edited, "w") as out:
            for info in stdlib.infolist():
                data = stdlib.read(info)
                if info.filename == "toy/__init__.py":
                    data = b"VALUE = 'edited'\n"
                out.writestr(info, data)
    toy = _import_fresh(edited, "toy")
    assert toy.VALUE == "from the source"
    assert toy.__file__.endswith("__init__.pyc")


def test_files_left_out_of_a_wheel_leave_its_record(tmp_path: Path):
    source = _wheel(tmp_path / "toy-1.0-py3-none-any.whl", TOY)
    target = tmp_path / "slim.whl"
    assert lite_bytecode.drop_from_wheel(str(source), str(target), ("toy/sub/",)) == 1
    with zipfile.ZipFile(target) as wheel:
        assert "toy/sub/deep.py" not in wheel.namelist()
        assert set(_record(wheel)) == set(wheel.namelist())
        assert wheel.read("toy/__init__.py") == zipfile.ZipFile(source).read("toy/__init__.py")


def test_main_runs_each_job_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture):
    source = _wheel(tmp_path / "toy-1.0-py3-none-any.whl", TOY)
    jobs = [{"kind": "wheel", "source": str(source), "target": str(tmp_path / "out.whl")}]
    lite_bytecode.main(json.dumps(jobs))
    assert capsys.readouterr().out == "bytecode: 2 modules of toy-1.0-py3-none-any.whl\n"
    assert (tmp_path / "out.whl").is_file()
