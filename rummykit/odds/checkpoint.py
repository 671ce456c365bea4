"""Resumable sweeps: every finished chunk of simulated rounds kept in a directory.

``rummykit tables --checkpoint DIR`` (or ``simulate_cells(..., checkpoint=Checkpoint(DIR))``)
appends each chunk of rounds to ``DIR/rounds.jsonl`` as soon as it comes back from a
worker, and skips, on the next run, every chunk already there: an interrupted run
(Ctrl-C, a killed job, a worker lost for good) resumes where it stopped, and its tables
are those of an uninterrupted run, since every round's seed depends only on the base
seed, its cell and its index (:func:`~rummykit.odds.completion.round_seed`).

A chunk is found again only under the same key: the rules (a fingerprint of every
option), players, shoe, round, buying policies, base seed, round indices, the function
that played them, the rummykit version and the turn limit. Anything else makes a new
key, so a changed run never reads stale rounds. One run at a time may use a directory.

>>> import tempfile
>>> from rummykit.odds.completion import cells, play_rounds
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
from collections.abc import Callable, Sequence
from pathlib import Path

from rummykit.errors import ArgumentError
from rummykit.odds.completion import TURN_LIMIT_PER_PLAYER, Cell, RoundRecord
from rummykit.rules import RuleSet

__all__ = ["Checkpoint", "rules_fingerprint"]

#: The file of a checkpoint directory: one JSON line per finished chunk.
FILE = "rounds.jsonl"


def rules_fingerprint(rules: RuleSet) -> str:
    """A short digest of every option of ``rules`` (their ``repr``, which lists them all).

    >>> standard = RuleSet.preset("standard")
    >>> rules_fingerprint(standard) == rules_fingerprint(RuleSet.preset("standard"))
    True
    >>> rules_fingerprint(standard) == rules_fingerprint(dataclasses.replace(standard, buying=False))
    False
    """
    return hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


def _chunk_fields(cell: Cell, seed: int, indices: Sequence[int], play: Callable) -> dict:
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
    }


def _key(fields: dict) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _record(values: list) -> RoundRecord:
    index, turns, ended, out, laid_down, seat_turns, points, buys = values
    return RoundRecord(
        index, turns, ended, out, tuple(laid_down), tuple(seat_turns), tuple(points), tuple(buys)
    )


class Checkpoint:
    """The finished chunks in ``directory`` (created if missing), and more as they finish.

    ``reused`` counts the chunks :meth:`get` found, ``stored`` those :meth:`put` added.
    """

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise ArgumentError(f"checkpoint {str(self.directory)!r} is a file, not a directory")
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / FILE
        self.reused = 0
        self.stored = 0
        self._chunks: dict[str, list[RoundRecord]] = {}
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            # An interrupted write leaves at most the last line partial: drop it, so the
            # next chunk starts a line of its own.
            data = data[: data.rfind(b"\n") + 1]
            with self.path.open("r+b") as file:
                file.truncate(len(data))
        for number, line in enumerate(data.splitlines(), 1):
            try:
                entry = json.loads(line)
                fields, records = entry["chunk"], [_record(r) for r in entry["records"]]
                if [r.index for r in records] != fields["indices"]:
                    raise ValueError("the rounds are not the chunk's indices")
            except (ValueError, KeyError, TypeError) as error:
                raise ArgumentError(
                    f"checkpoint {str(self.path)!r} line {number} is not a chunk of rounds "
                    f"({error}): remove the file to start afresh"
                ) from None
            self._chunks[_key(fields)] = records

    def __len__(self) -> int:
        return len(self._chunks)

    def get(
        self, cell: Cell, seed: int, indices: Sequence[int], play: Callable
    ) -> list[RoundRecord] | None:
        """The records of this chunk if it finished before, else None."""
        found = self._chunks.get(_key(_chunk_fields(cell, seed, indices, play)))
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
        fields = _chunk_fields(cell, seed, indices, play)
        entry = {"chunk": fields, "records": [list(dataclasses.astuple(r)) for r in records]}
        with self.path.open("a") as file:
            file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._chunks[_key(fields)] = list(records)
        self.stored += 1
