"""Build the optional compiled parts: the exact sweep's step (rummykit/odds/_sweep.c), the
fast round simulator (rummykit/odds/_table.c, _contract.c) and the engine's fast contract
distance (rummykit/_distance.c, with the same _contract.c).

Everything else is in pyproject.toml. The extension is optional: when it cannot be
built (no C compiler), rummykit installs anyway and counts with the same sweep in Python;
without _table the fast simulator says so and the engine plays the rounds; without
_distance, rummykit.search counts distances in Python (the same values, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rummykit.odds._sweep",
            ["rummykit/odds/_sweep.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "rummykit.odds._table",
            ["rummykit/odds/_table.c", "rummykit/odds/_contract.c"],
            depends=["rummykit/odds/_contract.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "rummykit._distance",
            ["rummykit/_distance.c", "rummykit/odds/_contract.c"],
            depends=["rummykit/odds/_contract.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
