"""The layer machinery of the exact sweep: keys, layers, pruning, counts.

A layer maps each key (a set of packed codes, see :mod:`rummykit.odds.counting._exact_model`) to
the polynomial of the hands that reach it, as residues modulo a few primes. A step maps
every key through :meth:`StateModel.successors` of its entries and prunes what another
entry always does as well as; the compiled step (``_sweep.c``) does the same with the
tables this module gives it. ``docs/exact-sweep.md`` is the design note.
"""

from __future__ import annotations

import array
import collections
import itertools
import math

import numpy as np

from rummykit import _native
from rummykit.errors import ArgumentError
from rummykit.odds.counting._exact_model import (
    ACCEPT,
    COST_MASK,
    JOKER_SHIFT,
    MAX_STATES,
    MORE_IS_BETTER,
    NFIELDS,
    REST_MASK,
    SID_SHIFT,
    START,
    ExactTable,
    Progress,
    State,
    StateModel,
    pareto,
    permute_state,
    state_dominates,
    state_fields,
)

_UNKNOWN = object()
#: Key transitions are kept for this many ranks: keys recur, but memory is finite.
_KEEP_RANKS = 2


class Sweep(StateModel):
    """One sweep: the state model's moves applied to layers of keys (see
    :meth:`run_native` and :meth:`run_python`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._succ: dict = {}
        self._sids: dict = {}
        self._states: list = [ACCEPT]
        self._group = array.array("i", [-1])
        self._proj: list = [None]
        # Per state, flat arrays for the compiled step (grown, never rebuilt): proj (4 a
        # state), permuted states (a row of suit_permutations() a state) and closures
        # (each state's from cends[sid] to cends[sid + 1] in cflat).
        self._proj_arr = array.array("i", [0] * 4)
        self._by_proj: dict = {}
        self._perm_arr = array.array("i")
        self._perm_rows = 0
        self._cends = array.array("q", [0])
        self._cflat = array.array("i")
        self._names: dict = {}
        self._perm: dict = {}
        self._dom: dict = {}
        self._fields = array.array("b")
        self._need = array.array("b")
        self._closures: list = []
        self.native = True
        # The compiled sweep keeps the successors of keys for the next rank (see
        # run_native); off only to test that it changes nothing.
        self.memo = True
        self.memo_stats = None

    def run(self, progress: Progress | None) -> ExactTable:
        """Sweep with the compiled step when it is built (``rummykit._native``'s ``sweep``),
        else in Python."""
        # The compiled step adds residues (< 2**31) times C(decks, k) (< 2**8) in 64 bits.
        if _native.sweep is not None and self.native and max(self.binom) < 256:
            return self.run_native(progress)
        return self.run_python(progress)

    def run_native(self, progress: Progress | None) -> ExactTable:
        """:meth:`run_python` with each step of the layer done by ``_sweep.step`` (C).

        Python still makes every state and its successors (there are a few hundred to a
        few thousand); the compiled step maps the layer's keys (up to hundreds of
        thousands) and adds up their polynomials, which is where the Python sweep spends
        its time. A layer is one array of codes, one of offsets and one of polynomials
        (keys x moduli x cards), so keys never become Python objects.
        """
        moduli = _moduli_for(max(math.comb(self.naturals, n) for n in range(self.T + 1)))
        mods = np.array(moduli, dtype=np.int64)
        width = self.T + 1
        # The compiled step numbers every key of the sweep and holds the layer.
        keys = _native.require("sweep").Keys()
        polys = np.zeros((1, len(moduli), width), dtype=np.int64)
        polys[0, :, 0] = 1
        first = self.prune({self.sid(START) << SID_SHIFT})
        keys.start(
            codes=first,
            offsets=np.array([0, len(first) // 4], dtype=np.int64),
            polys=polys,
            mods=mods,
        )
        # The close of a rank (sets made from the pool) is folded into its last card: one
        # step fewer per rank, and the keys between them are never made.
        steps = [step for step in self.steps() if step[0] == "card"]
        last = self.swept[-1]
        widest = 1
        perms = self.suit_permutations()
        permmaps = np.array(perms, dtype=np.int8).reshape(-1, 4)
        no_perms = np.zeros((0, 4), dtype=np.int8)
        # Within a rank, the suits dealt this rank are interchangeable among themselves,
        # and so are the suits still to deal: keys are made canonical under those
        # permutations after each card (after the last, under all of them).
        subgroups = self.rank_subgroups(perms)
        # Positions of class 0 have the same transitions, and most keys of a rank were
        # keys of the rank before: there each suit's step keeps its keys' successors for
        # the same step of the next rank (a cache per suit, see _sweep.Keys.step).
        caches = {s: i for i, s in enumerate(self.swept)}
        # The moves of the middle (class 0) are valid at every position but the 2 and
        # the ace: near the top they may keep open a run that can no longer be finished
        # (a later position drops it) or start one without the jokers below it that the
        # last positions need (the ace counts them in when the run closes), and neither
        # changes a count. So the compiled sweep moves as in the middle from the 3 to the
        # king, and those steps too keep and read the kept successors.
        middle = next((q for q in range(3, 14) if self.position_class(q) == 0), None)
        for done, (kind, p, s) in enumerate(steps, 1):
            held = self.copies(p, s)
            chosen = subgroups[s]
            merge = len(chosen) > 1
            closes = s == last
            cls, at = (0, middle) if middle and 2 < p < 14 else (self.position_class(p), p)
            cache = caches[s] if cls == 0 and self.memo else -1
            # The states of the keys to step anew (the others' successors are kept).
            present = np.frombuffer(
                keys.present(copies=held + 1, cache=cache), dtype=np.uint32
            ).tolist()
            tables = [
                self.successor_table(kind, cls, at, s, c, present, closes=closes)
                for c in range(held + 1)
            ]
            self.extend_closures()
            if merge:
                self.close_permutations(perms)
            n = len(self._states)
            self.extend_fields()
            # (Copies, not views: the arrays grow while a view exists.)
            cstarts = np.array(self._cends, dtype=np.int64)
            csids = np.array(self._cflat, dtype=np.int32)
            sizes = np.zeros((held + 1, n), dtype=np.int64)
            deltas = []
            for c, table in enumerate(tables):
                rows = [table[sid] for sid in present]
                sizes[c, present] = [len(row) for row in rows]
                deltas.extend(delta for row in rows for delta, _ in row)
            ends = np.cumsum(sizes.reshape(-1)).reshape(held + 1, n)
            starts = np.concatenate((ends[:, :1] - sizes[:, :1], ends), axis=1)
            # Dealt mode: a hand of at most T cards (naturals and jokers) must complete,
            # so arrangements that need more are dropped (counts with n + need > T change;
            # finish() leaves them out in both sweeps).
            need, most = (None, -1) if self.distance or self.profile else (self._need[:n], self.T)
            size = keys.step(
                starts=starts,
                deltas=np.array(deltas, dtype=np.uint32),
                group=np.array(self._group, dtype=np.int32),
                fields=self._fields[: n * NFIELDS],
                proj=np.array(self._proj_arr, dtype=np.int32),
                perms=np.ascontiguousarray(
                    np.array(self._perm_arr, dtype=np.int32).reshape(-1, len(perms))[:, chosen]
                )
                if merge
                else np.zeros(0, dtype=np.int32),
                permmaps=permmaps[chosen] if merge else no_perms,
                binom=np.array(self.binom[: held + 1], dtype=np.int64),
                jcap=self.jcap,
                nge=MORE_IS_BETTER,
                need=need,
                budget=most,
                cstarts=cstarts,
                csids=csids,
                cache=cache,
            )
            # (Keys reached only by hands of more than T natural cards count nothing and
            # are left out: an empty layer means no hand of at most T cards completes.)
            if not size:
                break
            widest = max(widest, size)
            if progress is not None:
                progress(done, len(steps))
        ids, polys = keys.layer()
        ids = np.frombuffer(ids or b"", dtype=np.int64)
        polys = np.frombuffer(polys or b"", dtype=np.int64).reshape(-1, len(moduli), width)
        layer = [keys.codes(int(i)) for i in ids]
        self.memo_stats = keys.stats()
        return self.finish(layer, polys.transpose(1, 0, 2), moduli, widest)

    def successor_table(self, kind, cls, p, s, c, sids, *, closes=False) -> dict:
        """The successors ``(delta, dj)`` of each state in ``sids`` (see :meth:`step_key`),
        followed by the close of the rank when ``closes``."""
        table = self._succ.setdefault((kind, cls, s, c, closes), {})
        for sid in sids:
            if sid not in table:
                entries = [
                    ((self.sid(new) << SID_SHIFT) | (dj << JOKER_SHIFT) | da, dj)
                    for new, dj, da in self.successors(self._states[sid], kind, p, s, c)
                ]
                table[sid] = tuple(self.then_close(entries) if closes else entries)
        return table

    def then_close(self, entries) -> list:
        """Successors ``(delta, dj)`` followed by the close of the rank (:meth:`close_sets`)."""
        out: dict = {}
        for delta, dj in entries:
            sid = delta >> SID_SHIFT
            if not sid:  # complete: nothing left to close
                out.setdefault(delta, dj)
                continue
            for new, dj2, da2 in self.close_sets(self._states[sid]):
                code = (self.sid(new) << SID_SHIFT) | (
                    (delta & REST_MASK) + ((dj2 << JOKER_SHIFT) | da2)
                )
                out.setdefault(code, dj + dj2)
        return list(out.items())

    def suit_permutations(self) -> list[tuple]:
        """Every order of the interchangeable suits, as :func:`permute_state` takes it."""
        slots = sorted(self.symmetric)
        out = []
        for arrangement in itertools.permutations(slots):
            perm = list(range(4))
            for slot, t in zip(slots, arrangement, strict=True):
                perm[slot] = t
            out.append(tuple(perm))
        return out

    def rank_subgroups(self, perms) -> dict:
        """Per suit, the indices in ``perms`` that are canonical after dealing that suit:
        those keeping the suits dealt so far this rank (in sweep order) among themselves
        (after the last suit, all of them)."""
        out = {}
        for i, s in enumerate(self.swept):
            dealt = set(self.swept[: i + 1])
            keep = [
                k
                for k, perm in enumerate(perms)
                if all((perm[slot] in dealt) == (slot in dealt) for slot in range(4))
            ]
            out[s] = keep
        return out

    def close_permutations(self, perms) -> None:
        """Give every state its row of permuted states (which may make new states).

        A state is known by what it says about each suit (its proj), so a permuted state
        is found by its permuted proj; only one not met yet is made."""
        rows, by_proj, projs = self._perm_arr, self._by_proj, self._proj
        while self._perm_rows < len(self._states):
            sid = self._perm_rows
            self._perm_rows += 1
            if not sid:
                rows.extend([0] * len(perms))
                continue
            proj = projs[sid]
            for perm in perms:
                new = by_proj.get((proj[perm[0]], proj[perm[1]], proj[perm[2]], proj[perm[3]]))
                rows.append(
                    self.permute_code(sid << SID_SHIFT, perm) >> SID_SHIFT if new is None else new
                )

    def extend_closures(self) -> None:
        """Each state's closures: the states with some of its runs in progress ended
        instead (one more run done for each, all else alike). A closure can do all the
        state can (a run done is at least as good as one in progress), so the compiled
        step drops a state when a closure is in the key at no more jokers."""
        closures = self._closures
        while len(closures) < len(self._states):
            sid = len(closures)
            out = set()
            if sid:
                sets_done, runs_done, pool, runs, owed, gap = self._states[sid]
                flat = [(t, i) for t in range(4) for i in range(len(runs[t]))]
                for m in range(1, len(flat) + 1):
                    for ended in itertools.combinations(flat, m):
                        left = tuple(
                            tuple(r for i, r in enumerate(runs[t]) if (t, i) not in ended)
                            for t in range(4)
                        )
                        out.add(self.sid(State(sets_done, runs_done + m, pool, left, owed, gap)))
            out.discard(0)  # complete: the step drops what a complete entry dominates
            closures.append(sorted(out))
            self._cflat.extend(closures[-1])
            self._cends.append(len(self._cflat))

    def extend_fields(self) -> None:
        """Each state's fields for dominance: sets, runs and pool (more is better), then
        aces owed and gaps per suit (fewer is better); see :func:`state_dominates`."""
        fields = self._fields
        for sid in range(len(fields) // NFIELDS, len(self._states)):
            state = self._states[sid]
            if sid == 0:
                fields.extend([0] * NFIELDS)
            else:
                fields.extend(state_fields(state))
            self._need.append(self.cards_to_complete(state))

    def run_python(self, progress: Progress | None) -> ExactTable:
        """Sweep the cards, carrying hand counts per key as residues modulo a few primes.

        A layer is a list of keys and one integer array of their hand-count polynomials;
        the exact counts are rebuilt by the Chinese remainder theorem at the end (the
        moduli multiply to more than any count). The successors of a state are computed
        once per class of positions (:meth:`position_class`), and the transitions of keys
        are kept for the last :data:`_KEEP_RANKS` ranks, since most keys recur.
        """
        moduli = _moduli_for(max(math.comb(self.naturals, n) for n in range(self.T + 1)))
        mods = np.array(moduli, dtype=np.int64).reshape(-1, 1, 1)
        width = self.T + 1
        layer = [self.prune({self.sid(START) << SID_SHIFT})]
        polys = np.zeros((len(moduli), 1, width), dtype=np.int64)
        polys[:, 0, 0] = 1
        steps = self.steps()
        widest = 1
        tables: dict = {}
        previous: collections.deque = collections.deque(maxlen=_KEEP_RANKS)
        for done, (kind, p, s) in enumerate(steps, 1):
            held = self.copies(p, s) if kind == "card" else 0
            # Suits of one shoe are interchangeable: merge keys up to suit permutations at
            # the end of each rank (within a rank it costs more time than it saves).
            merge = kind == "close" and len(self.symmetric) > 1
            ids: dict = {}
            targets, parts = [], []
            cls = self.position_class(p) if kind == "card" else -1
            for c in range(held + 1):
                row = []
                table = tables.setdefault((kind, cls, s, c), {})
                before = [old.get((kind, cls, s, c), {}) for old in previous]
                for key in layer:
                    new = table.get(key, _UNKNOWN)
                    if new is _UNKNOWN:
                        for old in before:
                            new = old.get(key, _UNKNOWN)
                            if new is not _UNKNOWN:
                                break
                        else:
                            new = self.step_key(key, kind, p, s, c)
                            if new is not None and merge:
                                new = self.canonical(new)
                        table[key] = new
                    row.append(-1 if new is None else ids.setdefault(new, len(ids)))
                row = np.array(row, dtype=np.int64)
                keep = row >= 0
                if not keep.any():
                    continue
                part = np.zeros((len(moduli), int(keep.sum()), width), dtype=np.int64)
                part[:, :, c:] = polys[:, keep, : width - c] * self.binom[c]
                targets.append(row[keep])
                parts.append(part)
            if not targets:
                layer, polys = [], np.zeros((len(moduli), 0, width), dtype=np.int64)
                break
            order, polys = _merge(np.concatenate(targets), np.concatenate(parts, axis=1))
            polys %= mods
            # Keys reached only by hands of more than T natural cards count nothing: drop
            # them (a count is 0 exactly when all its residues are, since it is below the
            # product of the moduli).
            alive = polys.any(axis=(0, 2))
            if not alive.all():
                polys = polys[:, alive, :]
                order = [t for t, keep in zip(order, alive.tolist(), strict=True) if keep]
            new_keys = list(ids)
            layer = [new_keys[t] for t in order]
            widest = max(widest, len(layer))
            if kind == "close":
                # Keys recur from rank to rank: keep the transitions of the last ranks.
                previous.appendleft(tables)
                tables = {}
            if progress is not None:
                progress(done, len(steps))
        return self.finish(layer, polys, moduli, widest)

    def finish(self, layer, polys, moduli, widest) -> ExactTable:
        """Sum the last layer's polynomials by what each key needs; rebuild the counts."""
        mods = np.array(moduli, dtype=np.int64).reshape(-1, 1)
        width = self.T + 1
        residues: dict = {}
        for row, key in enumerate(layer):
            need = self.need(key)
            if need is None:
                continue
            acc = residues.get(need)
            residues[need] = polys[:, row, :] if acc is None else (acc + polys[:, row, :]) % mods
        # In dealt mode a hand of n naturals that needs more than T - n jokers is left out:
        # no hand of at most T cards has it (and run_native does not count it exactly).
        dealt = not self.distance and not self.profile
        counts = {
            need: [
                0 if dealt and i + need > self.T else _crt([int(r) for r in acc[:, i]], moduli)
                for i in range(width)
            ]
            for need, acc in residues.items()
        }
        counts = {need: poly for need, poly in counts.items() if any(poly)}
        return ExactTable(self.mode, self.naturals, self.T, self.jcap, counts, widest)

    # -- states as integers ------------------------------------------------------------
    # A key is a set of integer codes (see _exact_model's packed codes): the number of a
    # state (0 is "contract complete"), the jokers and the added cards. A key is
    # stored packed, as the bytes of the sorted codes (see _pack): sweeps hold millions.

    def sid(self, state) -> int:
        """The number of a state, with what pruning and canonical keys need of it."""
        found = self._sids.get(state)
        if found is not None:
            return found
        if state.sets_done == self.S and state.runs_done == self.R and not any(state.owed):
            found = 0  # complete: every complete state is the same
        else:
            found = len(self._states)
            if found >= MAX_STATES:
                raise RuntimeError("too many states for a sweep's 32-bit codes")
            self._states.append(state)
            self._group.append(self._intern(("runs", state.runs)))
            proj = tuple(
                self._intern(
                    (
                        state_fields(state)[:MORE_IS_BETTER],
                        state.runs[s],
                        state.owed[s],
                        state.gap[s],
                    )
                )
                for s in range(4)
            )
            self._proj.append(proj)
            self._proj_arr.extend(proj)
            self._by_proj[proj] = found
        self._sids[state] = found
        return found

    def _intern(self, value) -> int:
        return self._names.setdefault(value, len(self._names))

    def canonical(self, key: bytes) -> bytes:
        """The least of the keys got from ``key`` by permuting interchangeable suits.

        Suits are ordered by what the key says about each, and every order is tried only
        among suits the key describes alike, so permuted keys give the same result.
        """
        proj = self._proj
        key = _codes(key)
        movable = self.symmetric
        signature = {
            t: sorted(
                (proj[code >> SID_SHIFT][t], code & REST_MASK) for code in key if code >> SID_SHIFT
            )
            for t in movable
        }
        order = sorted(movable, key=lambda t: signature[t])
        groups = [list(g) for _, g in itertools.groupby(order, key=lambda t: signature[t])]
        slots = sorted(movable)
        best = None
        for arrangement in itertools.product(*(itertools.permutations(g) for g in groups)):
            perm = list(range(4))
            for slot, t in zip(slots, (t for group in arrangement for t in group), strict=True):
                perm[slot] = t
            candidate = tuple(sorted(self.permute_code(code, tuple(perm)) for code in key))
            if best is None or candidate < best:
                best = candidate
        return _pack(best)

    def permute_code(self, code: int, perm: tuple) -> int:
        sid = code >> SID_SHIFT
        if not sid:
            return code
        new = self._perm.get((sid, perm))
        if new is None:
            new = self._perm[(sid, perm)] = self.sid(permute_state(self._states[sid], perm))
        return (new << SID_SHIFT) | (code & REST_MASK)

    def need(self, key):
        key = _codes(key)
        costs = [(code >> JOKER_SHIFT & COST_MASK, code & COST_MASK) for code in key]
        if self.profile:
            runs = [
                self._states[code >> SID_SHIFT].runs_done if code >> SID_SHIFT else self.R
                for code in key
            ]
            return tuple(
                tuple(pareto(cost for cost, done in zip(costs, runs, strict=True) if done >= r))
                for r in range(self.R + 1)
            )
        best = [cost for code, cost in zip(key, costs, strict=True) if not code >> SID_SHIFT]
        if not self.distance:
            return min(j for j, _ in best) if best else None
        return tuple(
            min((a for j, a in best if j <= jokers), default=None)
            for jokers in range(self.jcap + 1)
        )

    def step_key(self, key, kind, p, s, c):
        """The key after one step: every successor of every entry, pruned."""
        cls = self.position_class(p) if kind == "card" else -1
        table = self._succ.setdefault((kind, cls, s, c), {})
        out = set()
        jcap = self.jcap
        for code in _codes(key):
            sid = code >> SID_SHIFT
            if not sid:
                out.add(code)
                continue
            succ = table.get(sid)
            if succ is None:
                succ = table[sid] = tuple(
                    ((self.sid(new) << SID_SHIFT) | (dj << JOKER_SHIFT) | da, dj)
                    for new, dj, da in self.successors(self._states[sid], kind, p, s, c)
                )
            rest = code & REST_MASK
            j = rest >> JOKER_SHIFT
            for delta, dj in succ:
                if j + dj <= jcap:
                    out.add(delta + rest)
        if not out:
            return None
        return self.prune(out) if self.distance or self.profile else self.prune_dealt(out)

    # -- pruning -----------------------------------------------------------------------
    def prune_dealt(self, codes):
        """:meth:`prune` when no cards are added (every cost is a number of jokers)."""
        best: dict = {}
        for code in codes:
            sid = code >> SID_SHIFT
            j = code >> JOKER_SHIFT & COST_MASK
            old = best.get(sid)
            if old is None or j < old:
                best[sid] = j
        done = best.pop(0, None)
        out = [] if done is None else [done << JOKER_SHIFT]
        groups: dict = {}
        group_of = self._group
        for sid, j in best.items():
            if done is None or j < done:
                groups.setdefault(group_of[sid], []).append((j, sid))
        dom = self._dom
        for members in groups.values():
            if len(members) > 1:
                members.sort()
                kept = []
                for j, sid in members:
                    # Only an entry with no more jokers can dominate (they come first).
                    dominated = False
                    for j2, sid2 in members:
                        if j2 > j:
                            break
                        if sid2 == sid:
                            continue
                        pair = (sid2, sid)
                        found = dom.get(pair)
                        if found is None:
                            found = dom[pair] = state_dominates(
                                self._states[sid2], self._states[sid]
                            )
                        if found:
                            dominated = True
                            break
                    if not dominated:
                        kept.append((j, sid))
                members = kept
            for j, sid in members:
                out.append((sid << SID_SHIFT) | (j << JOKER_SHIFT))
        return _pack(sorted(out)) if out else None

    def prune(self, codes):
        """Drop the arrangements another one always does at least as well as."""
        best: dict = {}
        for code in codes:
            best.setdefault(code >> SID_SHIFT, []).append(code & REST_MASK)
        accepted = pareto((r >> JOKER_SHIFT, r & COST_MASK) for r in best.pop(0, ()))
        out = [(j << JOKER_SHIFT) | a for j, a in accepted]
        groups: dict = {}
        group_of = self._group
        for sid, rests in best.items():
            for j, a in pareto((r >> JOKER_SHIFT, r & COST_MASK) for r in rests):
                if any(j2 <= j and a2 <= a for j2, a2 in accepted):
                    continue
                groups.setdefault(group_of[sid], []).append((sid, j, a))
        for members in groups.values():
            for entry in members:
                if len(members) == 1 or not any(
                    other is not entry and self.dominates(other, entry) for other in members
                ):
                    sid, j, a = entry
                    out.append((sid << SID_SHIFT) | (j << JOKER_SHIFT) | a)
        return _pack(sorted(out)) if out else None

    def dominates(self, first: tuple, second: tuple) -> bool:
        """True when entry ``first`` can do all that ``second`` can, at no higher cost.

        Both have the same runs in progress. More sets or runs done, more cards pooled,
        fewer aces owed, fewer gaps and fewer jokers or added cards are each at least as
        good.
        """
        (s1, j1, a1), (s2, j2, a2) = first, second
        if j1 > j2 or a1 > a2:
            return False
        if s1 == s2:
            return j1 < j2 or a1 < a2
        pair = (s1, s2)
        found = self._dom.get(pair)
        if found is None:
            found = self._dom[pair] = state_dominates(self._states[s1], self._states[s2])
        return found


#: Primes below 2**31: a product of residues times a binomial weight stays within int64.
PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549)


def _pack(codes) -> bytes:
    """A key from its codes in increasing order (the bytes of 32-bit integers)."""
    return array.array("I", codes).tobytes()


def _codes(key: bytes) -> list[int]:
    """The codes of a packed key."""
    return array.array("I", key).tolist()


def _moduli_for(bound: int) -> tuple[int, ...]:
    """The fewest of :data:`PRIMES` whose product exceeds ``bound``."""
    product = 1
    for k, prime in enumerate(PRIMES, 1):
        product *= prime
        if product > bound:
            return PRIMES[:k]
    raise ArgumentError(f"counts up to {bound} need more moduli than are defined")


def _crt(residues: list[int], moduli: tuple[int, ...]) -> int:
    """The integer in [0, product of moduli) with the given residues."""
    value, product = 0, 1
    for r, m in zip(residues, moduli, strict=True):
        # value + product * t == r (mod m)
        t = ((r - value) * pow(product, -1, m)) % m
        value += product * t
        product *= m
    return value


def _merge(targets: np.ndarray, parts: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Sum the rows of ``parts`` (axis 1) that go to the same target key."""
    order = np.argsort(targets, kind="stable")
    targets = targets[order]
    starts = np.flatnonzero(np.r_[True, targets[1:] != targets[:-1]])
    summed = np.add.reduceat(parts[:, order, :], starts, axis=1)
    return targets[starts].tolist(), summed
