"""Build the optional compiled parts, every one in rummykit/_native/ (the package's Python
face, rummykit/_native/__init__.py, loads them): the exact sweep's step (_sweep.c), the
fast round simulator (_table.c with _contract.c) and the engine's fast contract distance
(_distance.c, with the same _contract.c).

Everything else is in pyproject.toml. The extension is optional: when it cannot be
built (no C compiler), rummykit installs anyway and counts with the same sweep in Python;
without _table the fast simulator says so and the engine plays the rounds; without
_distance, rummykit.engine.search counts distances in Python (the same values, slower).

``RUMMYKIT_PURE=1`` leaves the compiled parts out altogether, for a pure-Python wheel
(``py3-none-any``): the book's live notebooks install that wheel in the reader's browser
(Pyodide), where a wheel built for this machine cannot load.
"""

import os

from setuptools import Extension, setup

PURE = os.environ.get("RUMMYKIT_PURE", "") not in ("", "0")

NATIVE = "rummykit/_native"
SHARED = [f"{NATIVE}/_contract.h", f"{NATIVE}/_read_ints.h"]

EXTENSIONS = [
    Extension(
        "rummykit._native._sweep",
        [f"{NATIVE}/_sweep.c"],
        extra_compile_args=["-O2"],
        optional=True,
    ),
    Extension(
        "rummykit._native._table",
        [f"{NATIVE}/_table.c", f"{NATIVE}/_contract.c"],
        depends=SHARED,
        extra_compile_args=["-O2"],
        optional=True,
    ),
    Extension(
        "rummykit._native._distance",
        [f"{NATIVE}/_distance.c", f"{NATIVE}/_contract.c"],
        depends=SHARED,
        extra_compile_args=["-O2"],
        optional=True,
    ),
]

setup(ext_modules=[] if PURE else EXTENSIONS)
