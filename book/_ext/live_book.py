"""The book's live notebooks: JupyterLite with the Pyodide kernel, built to work offline.

jupyterlite-sphinx builds a JupyterLite site into ``_build/html/lite`` at the end of the
book's build, and its ``notebooklite`` directive embeds a notebook of ``book/live`` in a
page behind a start button. The reader's browser then runs Python (Pyodide) with
rummykit in it: no server, and, with what this extension prepares, no network either.
Before the build it makes, in ``build/lite`` (kept between builds, so a second build
fetches nothing):

- the Pyodide core, from the npm package ``pyodide`` (``npm pack``): the kernel's own
  default loads it from a CDN. Its lock lists some 350 packages it does not ship, so the
  lock is emptied (and given the ``info.version`` that pyodide-lock requires);
- a wheelhouse of the pure-Python packages the kernel and the widgets need, from PyPI
  (``pip download``; :data:`WHEELHOUSE`), locked offline with uv by the kernel's
  PyodideLockAddon;
- rummykit as a pure-Python wheel (``RUMMYKIT_PURE=1``, see setup.py), built afresh;
- ``jupyter_lite_config.json``, which points the lite build at all of these;
- the bytecode of every module of these, standard library included (lite_bytecode.py),
  compiled by Pyodide's own Python in Node, so that the reader's browser does not compile
  it each time a live notebook starts (issue 31, item 3: some seconds of every start).

It also deletes the ``.jupyterlite.doit.db`` of an earlier build (a stale one makes the
lite build skip writing ``pyodideUrl``, and the kernel silently falls back to the CDN),
copies the live notebooks into the lite contents (a page Sphinx does not re-read runs no
directive, and its notebook would be missing), and strips the Google Fonts stylesheet that
jupyterlite-sphinx adds to every page (offline_book rightly rejects it; the fallback font
serves).

The pages' side (a labelled start button, a status line, the cells run once the kernel is
ready, a frame as tall as the notebook) is ``book/_static/live_notebook.js``; it reaches
the app through ``exposeAppInBrowser``, set in ``book/live/jupyter-lite.json``.

numpy, polars, pyarrow and altair have no Pyodide wheels on PyPI: every widget runs
without them (DealWidget and the OddsExplorer ask rummykit.odds.answer, which reads the
tables' odds from rummykit.odds.known_odds; the explorers estimate the rest with the standard
library, read the completion tables from rummykit.odds.known_completion and draw plainly).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError
from sphinx.util import logging

# Sphinx imports this folder's extensions by name; a test loads this file by its path.
sys.path.insert(0, str(Path(__file__).resolve().parent))
import lite_bytecode  # noqa: E402

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
#: Where the inputs of the lite build are kept between builds.
CACHE = ROOT / "build" / "lite"
#: The Pyodide core: the version jupyterlite-pyodide-kernel 0.8.6 is made for.
PYODIDE_VERSION = "314.0.6"
#: Pyodide's Python, for which the wheelhouse is downloaded.
PYODIDE_PYTHON = "3.14"
#: What the live notebooks import beside rummykit (ipywidgets brings the rest, traitlets and
#: the like; the kernel needs comm, ipython, jedi, micropip and packaging).
WHEELHOUSE = (
    "comm==0.2.3",
    "ipython==9.12.0",
    "ipywidgets==8.1.9",
    "jedi==0.20.1",
    "micropip==0.11.1",
    "packaging==26.4",
)
#: The front-end extensions the live notebooks use, of those installed beside the book's
#: Python: the widgets' manager and the kernel. The others there (jupytext's, ipylab's,
#: jupyterlab_pygments') would each be loaded and started with every live notebook.
LAB_EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "@jupyterlite/pyodide-kernel-extension")
#: What the site's jedi leaves out: typeshed's stubs of 198 packages from PyPI (``stubs/``:
#: jedi reads a package's stubs only to complete names of that package; a live notebook
#: can install none of them, and for the three the site has, Pygments, decorator and
#: pexpect, jedi reads their sources instead) and Django's stubs: 4,792 of its 5,710
#: files. Unpacking jedi, which IPython imports as the kernel starts, was most of the time
#: the kernel spent loading its 21 packages (1.25 s of 1.81 s in Node).
JEDI_LEFT_OUT = ("jedi/third_party/typeshed/stubs/", "jedi/third_party/django-stubs/")
#: Files of the npm package the site does not need (types, source maps, demo consoles).
_NOT_SHIPPED = (".d.ts", ".map", ".html", ".md")
#: The folder of the live notebooks, book/live; the lite contents hold them under the same
#: name (the directive ``{notebooklite} /live/meld.ipynb`` names them so). Not ``lite``:
#: the lite build leaves out any contents under a folder named like its output, lite/.
LIVE_FOLDER = "live"


def _run(command: list[str], what: str, **kwargs: Any) -> None:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise ExtensionError(
            f"live_book: {what} failed ({' '.join(command)}):\n{done.stdout}\n{done.stderr}"
        )


def compile_bytecode(core: Path, jobs: list[tuple[str, Path, Path]]) -> None:
    """Run the ``(kind, source, target)`` jobs of :mod:`lite_bytecode` with the Python of
    the Pyodide core in ``core``, in Node (``lite_bytecode.mjs``)."""
    node = shutil.which("node")
    if node is None:
        raise ExtensionError(
            "live_book: compiling the live notebooks' Python needs Node.js (it comes with "
            "npm), and node is missing: apt-get install -y npm"
        )
    with tempfile.TemporaryDirectory() as scratch:
        listing = Path(scratch) / "jobs.json"
        listing.write_text(
            json.dumps(
                [
                    {"kind": kind, "source": str(source), "target": str(target)}
                    for kind, source, target in jobs
                ]
            )
        )
        script = Path(__file__).resolve().parent / "lite_bytecode.mjs"
        _run([node, str(script), str(core), str(listing)], "compiling the bytecode in Pyodide")


def _compile_in_place(core: Path, kind: str, files: list[Path]) -> None:
    """Compile each of ``files`` (wheels, or the standard library's zip) where it is: a
    file is replaced only once all of them are compiled."""
    pairs = [(path, path.with_name(path.name + ".compiled")) for path in files]
    try:
        compile_bytecode(core, [(kind, path, new) for path, new in pairs])
        for path, new in pairs:
            new.chmod(path.stat().st_mode)  # Node writes its files 0666
            os.replace(new, path)
    finally:
        for _, new in pairs:
            new.unlink(missing_ok=True)


def pyodide_core(cache: Path = CACHE) -> Path:
    """The folder of the Pyodide core, packed by npm once and unpacked with its lock
    emptied and its standard library compiled (:mod:`lite_bytecode`).

    The folder is named ``pyodide`` and holds the core in ``pyodide/``: the kernel's addon
    copies the folder into its cache under its own name and reads ``pyodide/pyodide``.
    """
    folder = cache / f"pyodide-{PYODIDE_VERSION}" / "pyodide"
    core = folder / "pyodide"
    # Beside the folder the addon copies, so that the site does not ship it.
    stamp = folder.parent / "bytecode.txt"
    if (core / "pyodide-lock.json").is_file() and _stamped(stamp, ""):
        return folder
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise ExtensionError(
                "live_book: the live notebooks need the Pyodide core from npm, and npm is "
                "missing: apt-get install -y npm"
            )
        cache.mkdir(parents=True, exist_ok=True)
        _run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(cache)],
            "npm pack",
        )
    shutil.rmtree(folder.parent, ignore_errors=True)
    unpacked = cache / "pyodide-unpacked"
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(unpacked, filter="data")
    core.mkdir(parents=True)
    for path in (unpacked / "package").iterdir():
        if not path.name.endswith(_NOT_SHIPPED):
            shutil.move(path, core / path.name)
    shutil.rmtree(unpacked)
    lock_path = core / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    # The core ships none of the packages its lock lists: the lock addon would fetch them
    # from the CDN. The lock gets only what the wheelhouse provides.
    lock["packages"] = {}
    lock["info"]["version"] = PYODIDE_VERSION  # pyodide-lock 0.1.2 refuses a lock without
    lock_path.write_text(json.dumps(lock, indent=1))
    _compile_in_place(core, "stdlib", [core / "python_stdlib.zip"])
    stamp.write_text(_stamp_text(""))
    return folder


def _stamp_text(what: str) -> str:
    return f"{what}bytecode {lite_bytecode.VERSION}\n"


def _stamped(stamp: Path, what: str) -> bool:
    return stamp.is_file() and stamp.read_text() == _stamp_text(what)


def wheelhouse(cache: Path = CACHE) -> Path:
    """The folder of :data:`WHEELHOUSE` and their dependencies as pure-Python wheels for
    Pyodide's Python, downloaded and compiled once (again only when the list changes)."""
    folder = cache / "wheelhouse"
    stamp = folder / "specs.txt"
    wanted = "\n".join((*WHEELHOUSE, *JEDI_LEFT_OUT)) + "\n"
    if _stamped(stamp, wanted):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    _run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:"]
        + ["--python-version", PYODIDE_PYTHON, "--platform", "any", "--implementation", "py"]
        + ["--dest", str(folder), *WHEELHOUSE],
        "pip download of the wheelhouse",
    )
    for jedi in folder.glob("jedi-*.whl"):
        slim = jedi.with_name(jedi.name + ".slim")
        lite_bytecode.drop_from_wheel(str(jedi), str(slim), JEDI_LEFT_OUT)
        os.replace(slim, jedi)
    _compile_in_place(pyodide_core(cache) / "pyodide", "wheel", sorted(folder.glob("*.whl")))
    stamp.write_text(_stamp_text(wanted))
    return folder


def rummykit_wheel(cache: Path = CACHE) -> Path:
    """The folder holding rummykit built now as a pure-Python wheel.

    It is built from a copy of the package's sources: built in the checkout, setuptools
    would reuse its ``build/lib``, where a module deleted since would still be.
    """
    folder = cache / "rummykit"
    shutil.rmtree(folder, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as scratch:
        source = Path(scratch) / "source"
        ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.egg-info")
        shutil.copytree(ROOT / "rummykit", source / "rummykit", ignore=ignore)
        for name in ("setup.py", "pyproject.toml", "README.md"):
            shutil.copy(ROOT / name, source / name)
        _run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
            + ["--wheel-dir", str(folder), str(source)],
            "the pure-Python wheel of rummykit",
            env={**os.environ, "RUMMYKIT_PURE": "1"},
        )
    wheels = [path.name for path in folder.glob("*.whl")]
    if len(wheels) != 1 or not wheels[0].endswith("-py3-none-any.whl"):
        raise ExtensionError(f"live_book: expected one pure-Python rummykit wheel, got {wheels}")
    return folder


def lab_extensions(cache: Path = CACHE) -> Path:
    """A folder of links to the :data:`LAB_EXTENSIONS` installed with this Python."""
    installed = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    folder = cache / "labextensions"
    shutil.rmtree(folder, ignore_errors=True)
    for name in LAB_EXTENSIONS:
        if not (installed / name / "package.json").is_file():
            raise ExtensionError(
                f"live_book: the front-end extension {name} is not installed in {installed}"
            )
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).symlink_to(installed / name, target_is_directory=True)
    return folder


def lite_config(cache: Path = CACHE) -> Path:
    """Prepare every input of the lite build and write its ``jupyter_lite_config.json``."""
    core = pyodide_core(cache)
    houses = wheelhouse(cache)
    own = rummykit_wheel(cache)
    _compile_in_place(core / "pyodide", "wheel", list(own.glob("*.whl")))
    config = {
        "LiteBuildConfig": {
            "no_sourcemaps": True,
            "cache_dir": str(cache / "lite-cache"),
            "ignore_sys_prefix": ["federated_extensions"],
        },
        "FederatedExtensionAddon": {"extra_labextensions_path": [str(lab_extensions(cache))]},
        "PyodideAddon": {"pyodide_url": str(core)},
        "PyodideLockAddon": {
            "enabled": True,
            "specs": ["rummykit", *WHEELHOUSE],
            "wheels": [str(own)],
            # The kernel ships its own stubs of the widgets' front-end packages.
            "excludes_extra": ["widgetsnbextension", "jupyterlab-widgets"],
            # Loaded with Pyodide, all at once, so that neither the first cell nor the
            # kernel's start waits for them: the kernel loads micropip, then piplite, then
            # jedi, one after the other, unless they are loaded already.
            "prefetch_extra": ["ipywidgets", "rummykit", "micropip", "piplite", "jedi"],
            "pyodide_lock_uv_options": {
                "extra_uv_args": ["--offline", "--no-index", f"--find-links={houses}"]
            },
        },
    }
    path = cache / "jupyter_lite_config.json"
    path.write_text(json.dumps(config, indent=1) + "\n")
    return path


def _prepare(app: Sphinx, config: Config) -> None:
    source = Path(app.srcdir)
    for folder in {source, Path.cwd(), source / str(config.jupyterlite_dir)}:
        (folder / ".jupyterlite.doit.db").unlink(missing_ok=True)
    config.jupyterlite_config = str(lite_config())
    # After jupyterlite-sphinx has emptied its contents folder (priority 500).
    contents = source / config.jupyterlite_content_dir / LIVE_FOLDER
    contents.mkdir(parents=True, exist_ok=True)
    for notebook in sorted((source / LIVE_FOLDER).glob("*.ipynb")):
        shutil.copy(notebook, contents / notebook.name)


def _strip_fonts(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    # A new list: the builder shares the original one between pages.
    context["css_files"] = [
        css
        for css in context.get("css_files", [])
        if not str(css.filename).startswith("https://fonts.googleapis.com/")
    ]


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", _prepare, priority=600)
    # Before offline_book's check (priority 900), which would fail the build on the font.
    app.connect("html-page-context", _strip_fonts, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
