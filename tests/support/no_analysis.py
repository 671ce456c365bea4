"""Code to run first in a child Python so that the analysis extra (numpy, polars, pyarrow,
altair) cannot be imported there: what the book's live notebooks (Pyodide) lack."""

HIDE_ANALYSIS = """
import importlib.abc, sys

class _Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {"numpy", "polars", "pyarrow", "altair"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, _Hidden())
"""
