"""Resumable sweeps: every finished chunk of simulated rounds kept in a directory.

``rummykit tables --checkpoint DIR`` (or ``simulate_cells(..., checkpoint=Checkpoint(DIR))``)
appends each chunk of rounds to ``DIR/rounds.jsonl`` as soon as it comes back from a
worker, and skips, on the next run, every chunk already there: an interrupted run
(Ctrl-C, a killed job, a worker lost for good) resumes where it stopped, and its tables
are those of an uninterrupted run, since every round's seed depends only on the base
seed, its cell and its index (:func:`~rummykit.odds.cells.round_seed`).

A chunk is found again only under the same key: the rules (a fingerprint of every
option), players, shoe, round, buying policies, base seed, round indices, the function
that played them, the rummykit version, the turn limit and a fingerprint of rummykit's
source (:func:`rummykit.odds.data.cluster.code_fingerprint`, the one the Dask workers are
checked with). Anything else makes a new key, so a changed run, or changed code with the
same version string, never reads stale rounds. One run at a time may use a directory.

Every line carries a digest of its chunk and records. A line that fails it (edited by
hand, records appended, garbage, a format from before digests) is never reused: it is
moved to ``rounds.rejected.jsonl`` with a warning naming the file and the line, and its
chunk is played again, so one bad line costs one chunk. This finds accidents and hand
edits; a digest without a secret key cannot stop someone who recomputes it on purpose.
A checkpoint that cannot be read or written is an :class:`~rummykit.errors.OutputError`
naming the file.

>>> import tempfile
>>> from rummykit.odds.play.completion import cells, play_rounds
>>> cell = cells(players=2, rounds=1)[0]
>>> with tempfile.TemporaryDirectory() as directory:
...     store = Checkpoint(directory)
...     store.put(cell, 7, [0, 1], play_rounds, play_rounds(cell, 7, [0, 1]))
...     again = Checkpoint(directory)
...     again.get(cell, 7, [0, 1], play_rounds) == play_rounds(cell, 7, [0, 1])
...     again.get(cell, 8, [0, 1], play_rounds) is None
True
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from rummykit.engine.rules import RuleSet
from rummykit.errors import OutputError
from rummykit.odds.cells import TURN_LIMIT_PER_PLAYER, Cell, RoundRecord
from rummykit.odds.data.cluster import code_fingerprint
from rummykit.odds.data.output import check_output
from rummykit.odds.data.pool import run_sweep

__all__ = ["Checkpoint", "kept_sweep", "rules_fingerprint"]

#: The file of a checkpoint directory: one JSON line per finished chunk.
FILE = "rounds.jsonl"
#: Where lines that fail verification are moved, for a look.
REJECTED = "rounds.rejected.jsonl"


def rules_fingerprint(rules: RuleSet) -> str:
    """A short digest of every option of ``rules`` (their ``repr``, which lists them all).

    >>> standard = RuleSet.preset("standard")
    >>> rules_fingerprint(standard) == rules_fingerprint(RuleSet.preset("standard"))
    True
    >>> rules_fingerprint(standard) == rules_fingerprint(dataclasses.replace(standard, buying=False))
    False
    """
    return hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


def _chunk_fields(cell: Cell, seed: int, indices: Sequence[int], play: Callable, code: str) -> dict:
    import rummykit

    return {
        "rules": cell.rules.name,
        "rules_fingerprint": rules_fingerprint(cell.rules),
        "players": cell.players,
        "decks": cell.decks,
        "jokers": cell.jokers,
        "round": cell.round,
        "buy": cell.buy if isinstance(cell.buy, str) else list(cell.buy),
        "rotate": cell.rotate,
        "seed": seed,
        "indices": list(indices),
        "play": f"{play.__module__}.{play.__qualname__}",
        "rummykit_version": rummykit.__version__,
        "turn_limit_per_player": TURN_LIMIT_PER_PLAYER,
        "code": code,
    }


def _key(fields: dict) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _digest(fields: dict, records: list) -> str:
    body = json.dumps({"chunk": fields, "records": records}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _record(values: list) -> RoundRecord:
    index, turns, ended, out, laid_down, seat_turns, points, buys = values
    return RoundRecord(
        index, turns, ended, out, tuple(laid_down), tuple(seat_turns), tuple(points), tuple(buys)
    )


def _verified(line: bytes) -> tuple[dict, list[RoundRecord]]:
    """The chunk and records of a line, or ValueError saying why it cannot be trusted."""
    try:
        entry = json.loads(line)
        fields, values, digest = entry["chunk"], entry["records"], entry["digest"]
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"not a chunk of rounds ({type(error).__name__}: {error})") from None
    if digest != _digest(fields, values):
        raise ValueError("its digest does not match its records (edited or damaged)")
    if isinstance(fields, dict) and fields.get("kind") == "value":
        return fields, values  # a task's value (put_value), checked by its reader
    try:
        records = [_record(r) for r in values]
        if [r.index for r in records] != fields["indices"]:
            raise ValueError("the rounds are not the chunk's indices")
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"not a chunk of rounds ({error})") from None
    return fields, records


class Checkpoint:
    """The finished chunks in ``directory`` (created if missing), and more as they finish.

    ``reused`` counts the chunks :meth:`get` found, ``stored`` those :meth:`put` added;
    ``rejected`` lists the warnings about lines not reused (each also given to ``warn``,
    by default :func:`warnings.warn`).
    """

    def __init__(self, directory: Path | str, *, warn: Callable[[str], None] | None = None) -> None:
        self.directory = check_output(directory, needed=0, option="checkpoint", replaced=False)
        self.path = self.directory / FILE
        self.reused = 0
        self.stored = 0
        self.rejected: list[str] = []
        self._warn = warn
        self._code = code_fingerprint()
        self._chunks: dict[str, list[RoundRecord]] = {}
        try:
            self.directory.mkdir(exist_ok=True)
            if self.path.exists():
                self._load()
            with self.path.open("ab"):  # can chunks be added?
                pass
        except OSError as error:
            raise OutputError(
                f"checkpoint {str(self.path)!r} cannot be used ({error.strerror}): "
                "name another directory with --checkpoint"
            ) from None

    def _reject(self, message: str) -> None:
        self.rejected.append(message)
        if self._warn is None:
            warnings.warn(message, RuntimeWarning, stacklevel=3)
        else:
            self._warn(message)

    def _load(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            # An interrupted write leaves at most the last line partial: drop it, so the
            # next chunk starts a line of its own.
            data = data[: data.rfind(b"\n") + 1]
            with self.path.open("r+b") as file:
                file.truncate(len(data))
        kept, bad, other = [], [], 0
        for number, line in enumerate(data.splitlines(keepends=True), 1):
            try:
                fields, records = _verified(line)
            except ValueError as error:
                bad.append(line)
                self._reject(
                    f"checkpoint {str(self.path)!r} line {number}: {error}; its chunk is "
                    f"played again (the line is moved to {REJECTED})"
                )
                continue
            kept.append(line)
            if fields.get("code") != self._code:
                other += 1
            self._chunks[_key(fields)] = records
        if other:
            self._reject(
                f"checkpoint {str(self.path)!r}: {other} chunks were played by other rummykit "
                f"code (its source differs from this, {self._code}): they are played again"
            )
        if bad:
            with (self.directory / REJECTED).open("ab") as file:
                file.writelines(bad)
                file.flush()
                os.fsync(file.fileno())
            scratch = self.directory / f".{FILE}.rewrite"
            scratch.write_bytes(b"".join(kept))
            os.replace(scratch, self.path)

    def __len__(self) -> int:
        return len(self._chunks)

    def get(
        self, cell: Cell, seed: int, indices: Sequence[int], play: Callable
    ) -> list[RoundRecord] | None:
        """The records of this chunk if it finished before, else None."""
        found = self._chunks.get(_key(_chunk_fields(cell, seed, indices, play, self._code)))
        if found is not None:
            self.reused += 1
        return found

    def put(
        self,
        cell: Cell,
        seed: int,
        indices: Sequence[int],
        play: Callable,
        records: Sequence[RoundRecord],
    ) -> None:
        """Keep the records of a finished chunk (appended and flushed at once)."""
        fields = _chunk_fields(cell, seed, indices, play, self._code)
        self._append(fields, [list(dataclasses.astuple(r)) for r in records], "chunk")
        self._chunks[_key(fields)] = list(records)

    def _append(self, fields: dict, values: list, what: str) -> None:
        entry = {"chunk": fields, "records": values, "digest": _digest(fields, values)}
        try:
            with self.path.open("a") as file:
                file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        except OSError as error:
            raise OutputError(
                f"checkpoint {str(self.path)!r}: a finished {what} could not be added "
                f"({error.strerror}); the {len(self._chunks)} kept there are whole: "
                "free some space and run again with the same --checkpoint"
            ) from None
        self.stored += 1

    def _value_fields(self, fields: dict) -> dict:
        import rummykit

        return {
            **fields,
            "kind": "value",
            "rummykit_version": rummykit.__version__,
            "code": self._code,
        }

    def get_value(self, fields: dict) -> list | None:
        """The value :meth:`put_value` kept under ``fields`` (the task's JSON fields: a
        sweep's task other than a chunk of rounds, such as a ladder's unit), else None."""
        found = self._chunks.get(_key(self._value_fields(fields)))
        if found is not None:
            self.reused += 1
        return found

    def put_value(self, fields: dict, value: list) -> None:
        """Keep ``value`` (a JSON list) under ``fields``, as :meth:`put` keeps a chunk."""
        fields = self._value_fields(fields)
        self._append(fields, value, "task")
        self._chunks[_key(fields)] = value


def kept_sweep(
    function: Callable,
    tasks: Sequence[tuple],
    *,
    fields: Callable[[tuple], dict],
    checkpoint: Checkpoint | None = None,
    units: Sequence[int] | None = None,
    **options,
) -> list:
    """Every task's result, in task order, as :func:`~rummykit.odds.data.pool.run_sweep`
    gives them, but each task already in ``checkpoint`` (its value kept under
    ``fields(task)``, :meth:`Checkpoint.get_value`) taken from there, and each task run
    kept there as it finishes. A result must be a JSON list (or a tuple, kept as one);
    one read back from the checkpoint is a list. ``units`` and ``options`` go to
    ``run_sweep``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     store = Checkpoint(directory)
    ...     first = kept_sweep(divmod, [(7, 2), (9, 4)], fields=lambda t: {"t": list(t)},
    ...                        checkpoint=store, max_workers=1, progress=False)
    ...     again = Checkpoint(directory)
    ...     second = kept_sweep(divmod, [(7, 2), (9, 4)], fields=lambda t: {"t": list(t)},
    ...                         checkpoint=again, max_workers=1, progress=False)
    >>> first, second, again.reused
    ([(3, 1), (2, 1)], [[3, 1], [2, 1]], 2)
    """
    results: dict[int, object] = {}
    todo = []
    for i, task in enumerate(tasks):
        found = None if checkpoint is None else checkpoint.get_value(fields(task))
        if found is None:
            todo.append(i)
        else:
            results[i] = found

    def finished(j: int, result) -> None:
        if checkpoint is not None:
            checkpoint.put_value(fields(tasks[todo[j]]), list(result))

    played = run_sweep(
        function,
        [tasks[i] for i in todo],
        units=None if units is None else [units[i] for i in todo],
        on_result=finished,
        **options,
    )
    results |= dict(zip(todo, played, strict=True))
    return [results[i] for i in range(len(tasks))]
