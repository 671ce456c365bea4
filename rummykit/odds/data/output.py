"""The output folder of ``rummykit tables``: checked before any work, replaced whole.

A reader of the folder (``--out``, ``data/`` by default) sees all of the old run or all
of the new one, never a mix, as SQLite promises that a crash never leaves a half-written
database. How, for the next maintainer:

1. :func:`check_output` runs before anything is computed: the place must be named, not a
   file, not a dangling link, its parent must exist and be writable (tried by making a
   folder there, so a read-only mount is found even by root, whom ``chmod`` does not
   stop), and its file system must have room for the planned tables.
2. :func:`write_generation` builds the complete new generation beside the folder, in
   ``.NAME.new-TOKEN``: the files this run does not rewrite (tables left by ``--only``, a
   README) are hard-linked in (copied where links fail), the new ones written and
   fsynced. Nothing in the folder has changed yet.
3. The two folders are swapped in one atomic step, ``renameat2(RENAME_EXCHANGE)``
   (:func:`exchange`; Linux 3.15 and later), and the old generation, now under the
   staging name, is removed. Where the exchange is not supported, a journal
   ``.NAME.swap`` naming both folders is written (and fsynced) first, then two renames
   (folder -> ``.NAME.old-TOKEN``, new -> folder); between them the folder is missing
   for an instant, and :func:`recover` (run by the next write and by the readers'
   :func:`rummykit.odds.data.schemas.data_directory`) completes it: the new generation if it
   is there (it was complete before the journal was written), else the old one back.
4. A run killed in step 2 or 3 leaves hidden ``.NAME.new-*`` / ``.NAME.old-*`` folders:
   :func:`tidy` removes them at the start of the next run and says so. A write that fails
   with an OSError (a full disk) keeps what was computed in a visible
   ``NAME.unwritten-TOKEN`` folder, which is reported, never removed.

What it costs: the folder's inode changes with every run, so a shell whose working
directory is inside ``--out`` stays in the old, removed generation (``cd`` again); the
files carried over are hard links, which is safe because the old generation is removed
and nothing writes a table in place. A mount point cannot be swapped and is refused.

One run at a time writes beside a folder: the parent is locked (``flock``) while a
generation is built and swapped, and :func:`tidy` skips a locked parent.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import shutil
import sys
import uuid
from collections.abc import Callable, Collection, Iterator
from pathlib import Path

from rummykit.errors import OutputError

__all__ = ["check_output", "exchange", "megabytes", "recover", "tidy", "write_generation"]

# renameat2(2): relative to the working directory, swap both names.
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def megabytes(size: int) -> str:
    """A size in words.

    >>> megabytes(3_600_000), megabytes(512)
    ('3.6 MB', '0.001 MB')
    """
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{max(size, 1000) / 1e6:.3f} MB"


def check_output(
    out: str | os.PathLike, *, needed: int, option: str = "--out", replaced: bool = True
) -> Path:
    """``out`` as an absolute path (links followed) if a generation can be written there,
    else an :class:`~rummykit.errors.OutputError` naming ``option`` and what is wrong.
    ``needed`` is the room the new files take, in bytes. A folder written in place, not
    ``replaced`` whole (a checkpoint), may be a mount point and must itself be writable.

    >>> check_output("", needed=0)
    Traceback (most recent call last):
    ...
    rummykit.errors.OutputError: --out '' names no folder: give one (the default is data)
    """
    text = os.fspath(out)
    if not text.strip():
        raise OutputError(f"{option} {text!r} names no folder: give one (the default is data)")
    path = Path(text)
    if path.is_symlink() and not path.exists():
        raise OutputError(
            f"{option} {text!r} is a symbolic link to {os.readlink(path)!r}, which does not "
            "exist: create the folder it points to, or remove the link"
        )
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {text!r} is a file, not a directory: name a directory")
    real = path.resolve()
    parent = real.parent
    if not parent.is_dir():
        raise OutputError(
            f"{option} {text!r}: its parent folder {str(parent)!r} does not exist: create it first"
        )
    if replaced and real.exists() and os.path.ismount(real):
        raise OutputError(
            f"{option} {text!r} is a mount point, which cannot be replaced whole: "
            "name a folder inside it"
        )
    where = parent if replaced or not real.exists() else real
    probe = where / f".{real.name}.probe-{uuid.uuid4().hex[:12]}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError as error:
        raise OutputError(
            f"{option} {text!r}: cannot write in {str(where)!r} ({error.strerror})"
            + (", where the new tables are built before they replace the old" if replaced else "")
            + ": name a writable place"
        ) from None
    free = shutil.disk_usage(parent).free
    if free < needed:
        raise OutputError(
            f"{option} {text!r}: {megabytes(free)} free on its file system, and the tables "
            f"need about {megabytes(needed)}: free some space or name another place"
        )
    return real


def exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one atomic step (``renameat2(RENAME_EXCHANGE)``): True when done,
    False where the system or the file system does not support it."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library without it (glibc < 2.28, musl)
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE):
        code = ctypes.get_errno()
        if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
            return False
        raise OSError(code, os.strerror(code), str(first), None, str(second))
    return True


def _journal(real: Path) -> Path:
    return real.parent / f".{real.name}.swap"


def _sync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def _locked(parent: Path, *, wait: bool = True) -> Iterator[bool]:
    """Hold an exclusive lock on ``parent`` (yields False if ``wait`` is off and another
    process holds it)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield True
        return
    descriptor = os.open(parent, os.O_RDONLY)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)


def recover(real: Path) -> None:
    """Complete a swap that a killed run left half done (see the module's note, step 3):
    the folder is afterwards the new generation if that was complete, else the old one."""
    journal = _journal(real)
    if not journal.exists():
        return
    names = json.loads(journal.read_text())
    new, old = real.parent / names["new"], real.parent / names["old"]
    if not real.exists():
        os.rename(new if new.exists() else old, real)
        _sync(real.parent)
    journal.unlink()
    for left in (new, old):
        shutil.rmtree(left, ignore_errors=True)


def tidy(out: Path, log: Callable[[str], None]) -> None:
    """Before a run: complete a half-done swap, remove the hidden folders a killed run
    left beside ``out`` (each with a line to ``log``), report kept unwritten results."""
    real = Path(out).resolve()
    parent = real.parent
    if not parent.is_dir():
        return
    with _locked(parent, wait=False) as mine:
        if not mine:
            log(f"another run is writing beside {str(real)!r}: its folders are left alone")
            return
        if _journal(real).exists():
            recover(real)
            log(f"completed the swap of {str(real)!r} that a killed run left half done")
        stale = [
            *parent.glob(f".{real.name}.new-*"),
            *parent.glob(f".{real.name}.old-*"),
            *parent.glob(f".{real.name}.probe-*"),
            # The staging folders of rummykit before generations (inside and beside).
            *parent.glob(f".{real.name}-tables-*"),
            *(real.glob(f".{real.name}-tables-*") if real.is_dir() else ()),
        ]
        for path in sorted(stale):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:  # the scratch file of a journal
                path.unlink(missing_ok=True)
            log(f"removed {str(path)!r}, left by a run killed while writing {str(real)!r}")
        for path in sorted(parent.glob(f"{real.name}.unwritten-*")):
            log(f"{str(path)!r} holds the results of a run whose write failed: remove it when done")


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # a file system without hard links
        shutil.copy2(source, target)


def _carry(real: Path, new: Path, rewritten: Collection[str]) -> None:
    """Put into ``new`` every entry of ``real`` except the ``rewritten`` file names."""
    for entry in os.scandir(real):
        if entry.name in rewritten or entry.name.startswith(f".{real.name}-tables-"):
            continue
        target = new / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir():
            shutil.copytree(entry.path, target, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry.path, str(target))


def _swap(new: Path, real: Path) -> None:
    """Make the complete ``new`` the folder ``real`` in one step a reader cannot split.
    An OSError before that step leaves ``real`` as it was; after it, errors are ignored
    (what is left over is hidden, and :func:`tidy` removes it)."""
    parent = real.parent
    journal = _journal(real)
    if not real.exists():
        os.rename(new, real)
        leftover = None
    elif exchange(new, real):
        leftover = new  # the old generation now
    else:
        old = parent / f".{real.name}.old-{uuid.uuid4().hex[:12]}"
        scratch = parent / f".{real.name}.new-{uuid.uuid4().hex[:12]}.swap"
        scratch.write_text(json.dumps({"new": new.name, "old": old.name}) + "\n")
        _sync(scratch)
        os.replace(scratch, journal)
        _sync(parent)
        os.rename(real, old)
        try:
            os.rename(new, real)
        except BaseException:
            os.rename(old, real)  # roll back; if this fails too, recover() completes it
            journal.unlink()
            raise
        leftover = old
    with contextlib.suppress(OSError):
        _sync(parent)
        journal.unlink(missing_ok=True)
        if leftover is not None:
            shutil.rmtree(leftover)


def write_generation(
    out: Path,
    files: Collection[str],
    write: Callable[[Path], None],
    *,
    rescue: Callable[[Path], str] | None = None,
) -> Path:
    """Replace the folder ``out`` whole by one where ``write(folder)`` wrote ``files``
    (names inside it) and every other entry of ``out`` is carried over; the folder.

    A failure leaves ``out`` as it was. An OSError (a full disk, a read-only mount) is
    an :class:`~rummykit.errors.OutputError` saying so; what was written is kept in
    ``NAME.unwritten-TOKEN`` beside ``out``, with what ``rescue(that folder)`` says it
    saved. Any other exception (an interrupt) removes the staging folder and passes.
    """
    real = Path(out).resolve()
    parent = real.parent
    with _locked(parent):
        recover(real)
        token = uuid.uuid4().hex[:12]
        new = parent / f".{real.name}.new-{token}"
        try:
            new.mkdir()
            if real.exists():
                shutil.copymode(real, new)
                _carry(real, new, set(files))
            write(new)
            for name in files:
                _sync(new / name)
            _sync(new)
            _swap(new, real)
        except OSError as error:
            kept = parent / f"{real.name}.unwritten-{token}"
            saved = "nothing could be kept"
            with contextlib.suppress(OSError):
                os.rename(new, kept)
                saved = f"the files written before it are kept in {str(kept)!r}"
            if rescue is not None and kept.exists():
                saved += rescue(kept)
            with contextlib.suppress(OSError):
                recover(real)
            raise OutputError(
                f"writing the tables to {str(out)!r} failed ({error}), so it is as it was: "
                f"{saved}; fix that and run again (with --checkpoint DIR the simulated "
                "rounds are kept and not played again), or with --out elsewhere"
            ) from None
        except BaseException:
            shutil.rmtree(new, ignore_errors=True)
            raise
    return real
