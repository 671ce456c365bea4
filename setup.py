"""Build the optional compiled step of the exact sweep (rummykit/odds/_sweep.c).

Everything else is in pyproject.toml. The extension is optional: when it cannot be
built (no C compiler), rummykit installs anyway and counts with the same sweep in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rummykit.odds._sweep",
            ["rummykit/odds/_sweep.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
