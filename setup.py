"""Build the optional compiled parts: the exact sweep's step (rummykit/odds/_sweep.c), the
fast round simulator (rummykit/odds/_table.c, _contract.c) and the engine's fast contract
distance (rummykit/_distance.c, with the same _contract.c).

Everything else is in pyproject.toml. The extension is optional: when it cannot be
built (no C compiler), rummykit installs anyway and counts with the same sweep in Python;
without _table the fast simulator says so and the engine plays the rounds; without
_distance, rummykit.search counts distances in Python (the same values, slower).

``RUMMYKIT_PURE=1`` leaves the compiled parts out altogether, for a pure-Python wheel
(``py3-none-any``): the book's live notebooks install that wheel in the reader's browser
(Pyodide), where a wheel built for this machine cannot load.
"""

import os

from setuptools import Extension, setup

PURE = os.environ.get("RUMMYKIT_PURE", "") not in ("", "0")

EXTENSIONS = [
    Extension(
        "rummykit.odds._sweep",
        ["rummykit/odds/_sweep.c"],
        extra_compile_args=["-O2"],
        optional=True,
    ),
    Extension(
        "rummykit.odds._table",
        ["rummykit/odds/_table.c", "rummykit/odds/_contract.c"],
        depends=["rummykit/odds/_contract.h", "rummykit/odds/_read_ints.h"],
        extra_compile_args=["-O2"],
        optional=True,
    ),
    Extension(
        "rummykit._distance",
        ["rummykit/_distance.c", "rummykit/odds/_contract.c"],
        depends=["rummykit/odds/_contract.h", "rummykit/odds/_read_ints.h"],
        extra_compile_args=["-O2"],
        optional=True,
    ),
]

setup(ext_modules=[] if PURE else EXTENSIONS)
