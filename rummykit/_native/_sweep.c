/*
 * The inner step of rummykit.odds.counting.exact's sweep, compiled (rummykit._native._sweep).
 *
 * docs/exact-sweep.md is the design note: the state, the packed codes, why each pruning
 * is sound. rummykit/odds/counting/_exact_model.py makes the states and their moves,
 * _exact_layers.py the tables this module reads. A key is a sorted array of uint32 codes
 * (sid << SID_SHIFT | jokers << JOKER_SHIFT | added, see "packed codes" below); a step
 * maps every key of a layer, for every number of copies held, to its successor key:
 * every successor of every entry (the tables come from Python), pruned (per state the
 * Pareto front of (jokers, added), then, without added cards, states one of whose
 * closures is in the key at no more jokers, then entries that a complete entry or a
 * state of the same group dominates), optionally made canonical (the least of the keys
 * under the given suit permutations, trying only those that order the suits by a hash
 * of what the key says about each), and interned. Successors and pruning are those of
 * Sweep.step_key and prune in Python (_exact_layers.py folds each rank's close into its
 * last card here), plus two that Python does not do: the closures above, and with a
 * budget (dealt mode), entries whose state needs more cards than a hand of at most
 * `budget` cards still holds are dropped, and so are the hands of a key that none of
 * its entries can complete (Sweep.finish() leaves those counts out of both sweeps'
 * tables). Canonical keys are another choice than Python's canonical (which orders
 * suits by sorted lists), asked for after every card, under the permutations of the
 * suits dealt / not yet dealt this rank; so the keys differ from the Python sweep's,
 * never the counts (the tests compare the two). The Python code stays the reference and
 * the fallback when this module is not built.
 *
 * The sweep uses a Keys object: it numbers every key of the sweep, holds the current
 * layer (key ids and their polynomials), and keeps, per suit, the successors of each
 * key stepped in the middle of the sweep, where the positions have the same moves: most
 * keys of a rank were keys of the rank before, and those are read, not stepped again.
 * The module-level step() does one step on keys given by their codes (a Keys of their
 * own), for the tests and for callers without one. Both take keyword arguments.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t *data;
    Py_ssize_t len, cap;
} Vec32;

typedef struct {
    int64_t *data;
    Py_ssize_t len, cap;
} Vec64;

static int vec32_reserve(Vec32 *v, Py_ssize_t need) {
    if (v->len + need <= v->cap) return 0;
    Py_ssize_t cap = v->cap ? v->cap : 1024;
    while (cap < v->len + need) cap *= 2;
    uint32_t *data = realloc(v->data, (size_t)cap * sizeof(uint32_t));
    if (!data) return -1;
    v->data = data;
    v->cap = cap;
    return 0;
}

static int vec64_reserve(Vec64 *v, Py_ssize_t need) {
    if (v->len + need <= v->cap) return 0;
    Py_ssize_t cap = v->cap ? v->cap : 1024;
    while (cap < v->len + need) cap *= 2;
    int64_t *data = realloc(v->data, (size_t)cap * sizeof(int64_t));
    if (!data) return -1;
    v->data = data;
    v->cap = cap;
    return 0;
}

static int vec64_push(Vec64 *v, int64_t x) {
    if (v->len == v->cap) {
        Py_ssize_t cap = v->cap ? v->cap * 2 : 1024;
        int64_t *data = realloc(v->data, (size_t)cap * sizeof(int64_t));
        if (!data) return -1;
        v->data = data;
        v->cap = cap;
    }
    v->data[v->len++] = x;
    return 0;
}

/* Sort a short array: insertion sort for few, quicksort (median of three) above that;
 * keys hold tens of codes, their successors a few hundred. */
#define DEFINE_SORT(NAME, T)                                                               \
    static void NAME(T *a, Py_ssize_t n) {                                                 \
        while (n > 16) {                                                                   \
            T x = a[0], y = a[n / 2], z = a[n - 1];                                        \
            T pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y)); \
            Py_ssize_t i = 0, j = n - 1;                                                   \
            for (;;) {                                                                     \
                while (a[i] < pivot) i++;                                                  \
                while (a[j] > pivot) j--;                                                  \
                if (i >= j) break;                                                         \
                T t = a[i];                                                                \
                a[i] = a[j];                                                               \
                a[j] = t;                                                                  \
                i++;                                                                       \
                j--;                                                                       \
            }                                                                              \
            /* a[0..j] <= pivot <= a[j+1..]: recurse on the smaller side */                \
            if (j + 1 < n - j - 1) {                                                       \
                NAME(a, j + 1);                                                            \
                a += j + 1;                                                                \
                n -= j + 1;                                                                \
            } else {                                                                       \
                NAME(a + j + 1, n - j - 1);                                                \
                n = j + 1;                                                                 \
            }                                                                              \
        }                                                                                  \
        for (Py_ssize_t i = 1; i < n; i++) {                                               \
            T x = a[i];                                                                    \
            Py_ssize_t k = i;                                                              \
            while (k > 0 && a[k - 1] > x) {                                                \
                a[k] = a[k - 1];                                                           \
                k--;                                                                       \
            }                                                                              \
            a[k] = x;                                                                      \
        }                                                                                  \
    }

DEFINE_SORT(sort_u32, uint32_t)

/* --- interning keys: open addressing over (codes, offsets) ------------------------- */
typedef struct {
    Vec32 codes;
    Vec64 offsets; /* offsets[i] .. offsets[i + 1] are the codes of key i */
    int64_t *slots; /* key id + 1, or 0 when empty */
    Py_ssize_t nslots;
} Interner;

/* A 64-bit mixer (splitmix64's finaliser). */
static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static uint64_t hash_key(const uint32_t *k, Py_ssize_t n) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= k[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static int interner_init(Interner *t) {
    memset(t, 0, sizeof(*t));
    t->nslots = 1 << 16;
    t->slots = calloc((size_t)t->nslots, sizeof(int64_t));
    if (!t->slots) return -1;
    return vec64_push(&t->offsets, 0);
}

static void interner_free(Interner *t) {
    free(t->codes.data);
    free(t->offsets.data);
    free(t->slots);
}

static int interner_grow(Interner *t) {
    Py_ssize_t nslots = t->nslots * 2;
    int64_t *slots = calloc((size_t)nslots, sizeof(int64_t));
    if (!slots) return -1;
    Py_ssize_t nkeys = t->offsets.len - 1;
    for (Py_ssize_t id = 0; id < nkeys; id++) {
        const uint32_t *k = t->codes.data + t->offsets.data[id];
        Py_ssize_t n = (Py_ssize_t)(t->offsets.data[id + 1] - t->offsets.data[id]);
        uint64_t h = hash_key(k, n), i = h & (uint64_t)(nslots - 1);
        while (slots[i]) i = (i + 1) & (uint64_t)(nslots - 1);
        slots[i] = (int64_t)((h >> 32) << 32 | (uint64_t)(id + 1));
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* The id of key k (added when new), or -1 when out of memory. A slot holds the key's
 * id + 1 in its low 32 bits and the high half of its hash in the high 32 bits, so that
 * most keys met on the way are told apart without reading them. */
static int64_t interner_get_hashed(Interner *t, const uint32_t *k, Py_ssize_t n, uint64_t h) {
    Py_ssize_t nkeys = t->offsets.len - 1;
    if (nkeys + 1 >= ((Py_ssize_t)1 << 32) - 1) return -1; /* ids must fit in 32 bits */
    if (2 * (nkeys + 1) > t->nslots && interner_grow(t) < 0) return -1;
    uint64_t mask = (uint64_t)(t->nslots - 1);
    uint64_t i = h & mask, finger = h >> 32;
    while (t->slots[i]) {
        uint64_t slot = (uint64_t)t->slots[i];
        if (slot >> 32 == finger) {
            int64_t id = (int64_t)(slot & 0xffffffffULL) - 1;
            int64_t a = t->offsets.data[id], b = t->offsets.data[id + 1];
            if (b - a == n && memcmp(t->codes.data + a, k, (size_t)n * sizeof(uint32_t)) == 0)
                return id;
        }
        i = (i + 1) & mask;
    }
    if (vec32_reserve(&t->codes, n) < 0) return -1;
    memcpy(t->codes.data + t->codes.len, k, (size_t)n * sizeof(uint32_t));
    t->codes.len += n;
    if (vec64_push(&t->offsets, t->codes.len) < 0) return -1;
    t->slots[i] = (int64_t)(finger << 32 | (uint64_t)(nkeys + 1));
    return nkeys;
}

/* Start reading the slot where a key of hash h is looked for (a hint only: the table
 * may grow before it is read). The slots of a large sweep are tens of megabytes, so
 * each lookup waits for memory; the step asks for the slots of all the successors of a
 * key before it looks the first one up, so that their waits overlap. */
static inline void interner_prefetch(const Interner *t, uint64_t h) {
    __builtin_prefetch(t->slots + (h & (uint64_t)(t->nslots - 1)));
}

/* --- packed codes -------------------------------------------------------------------- */
/* An entry of a key is one uint32 code, sid << SID_SHIFT | jokers << JOKER_SHIFT | added:
 * the state's number (sid, 20 bits; 0 is "contract complete"), the jokers it has used
 * and the natural cards it has added (6 bits each). rummykit/odds/counting/_exact_model.py names
 * the same layout; the module exposes these constants and a test compares them. */
#define SID_SHIFT 12
#define JOKER_SHIFT 6
#define COST_MASK 63u   /* one cost field: jokers or added cards */
#define REST_MASK 4095u /* both cost fields: what a step adds to and keeps */
_Static_assert(COST_MASK == (1u << JOKER_SHIFT) - 1, "a cost field is the bits below JOKER_SHIFT");
_Static_assert(REST_MASK == (1u << SID_SHIFT) - 1, "the costs are the bits below SID_SHIFT");
_Static_assert(SID_SHIFT == 2 * JOKER_SHIFT, "two cost fields below the sid");

static inline uint32_t code_sid(uint32_t code) { return code >> SID_SHIFT; }
static inline uint32_t code_jokers(uint32_t code) { return (code >> JOKER_SHIFT) & COST_MASK; }
static inline uint32_t code_added(uint32_t code) { return code & COST_MASK; }
static inline uint32_t code_rest(uint32_t code) { return code & REST_MASK; }
static inline uint32_t pack_code(uint32_t sid, uint32_t jokers, uint32_t added) {
    return sid << SID_SHIFT | jokers << JOKER_SHIFT | added;
}

/* --- one key, one step --------------------------------------------------------------- */
/* Per state: the stamp of the key that last reached it, and its fewest jokers there. */
typedef struct {
    uint32_t stamp, gstamp;
    uint32_t *seen, *jokers;
    uint32_t *gseen, *ghead; /* per group: stamp, first candidate of the chain */
} Scratch;

typedef struct {
    Scratch *scratch;
    const int64_t *starts; /* successors of sid: deltas[starts[sid] .. starts[sid + 1]] */
    const uint32_t *deltas;
    Py_ssize_t nsids;
    int jcap;
    const int32_t *group;
    const int8_t *fields; /* per sid: nge fields where more is better, then fewer is */
    int nfields, nge;
    const int32_t *perms; /* per sid, nperms permuted sids */
    int nperms;
    const int8_t *permmaps; /* per permutation: slot k gets suit permmaps[4 p + k] */
    const int32_t *proj;    /* per sid and suit: what the state says about that suit */
    const uint64_t *projmix; /* per sid and suit: a hash of proj */
    int slots[4], nslots;   /* the suits the permutations move, in increasing order */
    int block[4];           /* per suit, the least suit a permutation takes it to */
    const int8_t *need;     /* per sid, the fewest cards still to hold to complete */
    int budget;             /* most cards in a hand (naturals + jokers); -1: no bound */
    int bound;              /* fewest natural cards of the hands of the key stepped */
    const int64_t *cstarts; /* per sid, its closures: csids[cstarts[sid] .. cstarts[sid + 1]] */
    const int32_t *csids;
    Py_ssize_t nclosed;     /* sids with closures (0: none given) */
} Step;

/* True when state s1 can do all that s2 can (same group): _state_dominates. */
static int state_dominates(const Step *st, uint32_t s1, uint32_t s2) {
    const int8_t *a = st->fields + (size_t)s1 * st->nfields;
    const int8_t *b = st->fields + (size_t)s2 * st->nfields;
    for (int i = 0; i < st->nge; i++)
        if (a[i] < b[i]) return 0;
    for (int i = st->nge; i < st->nfields; i++)
        if (a[i] > b[i]) return 0;
    return 1;
}

/*
 * The successor of a key, in phases (each a function below, in the order step_key calls
 * them): gather every successor of every entry; keep per state its fewest jokers (dealt
 * mode) and drop the states one of whose closures is in the key at no more jokers, or
 * keep per state the Pareto front of (jokers, added) (distance mode); drop entries a
 * complete entry dominates; drop entries another state of their group dominates; put
 * the key in canonical order. docs/exact-sweep.md argues why each drop is sound.
 */

/* Phase 1: every successor of every entry into work, within the joker cap and (with a
 * budget) the cards a hand can still hold; returns the number of codes, -1 for a sid
 * without a table, -2 when out of memory. */
static Py_ssize_t gather_successors(const Step *st, const uint32_t *key, Py_ssize_t n,
                                    Vec32 *work) {
    work->len = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t code = key[i], sid = code_sid(code);
        if (!sid) {
            if (st->budget >= 0 && st->bound + (int)code_jokers(code) > st->budget) continue;
            if (vec32_reserve(work, 1) < 0) return -2;
            work->data[work->len++] = code;
            continue;
        }
        if ((Py_ssize_t)sid >= st->nsids) return -1;
        uint32_t rest = code_rest(code), j = rest >> JOKER_SHIFT;
        int64_t a = st->starts[sid], b = st->starts[sid + 1];
        if (vec32_reserve(work, (Py_ssize_t)(b - a)) < 0) return -2;
        for (int64_t e = a; e < b; e++) {
            uint32_t delta = st->deltas[e], j2 = j + code_jokers(delta);
            if (j2 > (uint32_t)st->jcap) continue;
            /* Every hand of the key holds at least bound naturals; a state that needs
             * more cards than the budget leaves completes no hand of at most budget
             * cards (the caller drops the hands that no state left can complete). */
            if (st->budget >= 0 && st->bound + (int)j2 + st->need[code_sid(delta)] > st->budget)
                continue;
            work->data[work->len++] = delta + rest;
        }
    }
    return work->len;
}

/* Phase 2, no cards added (dealt mode): per state only the fewest jokers matter. They
 * are kept per state in the stamped scratch arrays; w[0..k) becomes the distinct sids
 * (unsorted), k returned. */
static Py_ssize_t fewest_jokers_per_state(const Step *st, uint32_t *w, Py_ssize_t m) {
    Scratch *sc = st->scratch;
    uint32_t stamp = ++sc->stamp;
    uint32_t *seen = sc->seen, *jokers = sc->jokers;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        uint32_t sid = code_sid(w[i]), j = code_jokers(w[i]);
        if (seen[sid] != stamp) {
            seen[sid] = stamp;
            jokers[sid] = j;
            w[k++] = sid;
        } else if (j < jokers[sid]) {
            jokers[sid] = j;
        }
    }
    return k;
}

/* Phase 3, after phase 2: a state whose closure (some of its runs in progress ended
 * instead) is in the key at no more jokers is dominated by it; the others are packed
 * back into codes. Returns how many are left. */
static Py_ssize_t drop_closed_over(const Step *st, uint32_t *w, Py_ssize_t k) {
    const Scratch *sc = st->scratch;
    const uint32_t stamp = sc->stamp, *seen = sc->seen, *jokers = sc->jokers;
    if (st->nclosed) {
        Py_ssize_t kept = 0;
        for (Py_ssize_t i = 0; i < k; i++) {
            uint32_t sid = w[i];
            int dominated = 0;
            if ((Py_ssize_t)sid < st->nclosed)
                for (int64_t e = st->cstarts[sid]; e < st->cstarts[sid + 1]; e++) {
                    uint32_t c = (uint32_t)st->csids[e];
                    if (seen[c] == stamp && jokers[c] <= jokers[sid]) {
                        dominated = 1;
                        break;
                    }
                }
            if (!dominated) w[kept++] = sid;
        }
        k = kept;
    }
    for (Py_ssize_t i = 0; i < k; i++) w[i] = pack_code(w[i], jokers[w[i]], 0);
    return k;
}

/* Phase 2, with cards added (distance mode): per state the Pareto front of (jokers,
 * added): sorted by (j, a), keep a falling. Returns the entries kept, in w[0..k). */
static Py_ssize_t pareto_per_state(uint32_t *w, Py_ssize_t m) {
    sort_u32(w, m);
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < m;) {
        uint32_t sid = code_sid(w[i]);
        int best_a = 1 << 30;
        Py_ssize_t e = i;
        while (e < m && code_sid(w[e]) == sid) e++;
        for (Py_ssize_t q = i; q < e; q++) {
            int a = (int)code_added(w[q]);
            if (a < best_a) {
                w[k++] = w[q];
                best_a = a;
            }
        }
        i = e;
    }
    return k;
}

/* Phase 4: complete entries (sid 0) go to best (*nbest of them); the other entries that
 * no complete entry dominates (one costing no more jokers and no more added cards) go
 * to cand, and their number is returned. */
static Py_ssize_t drop_under_complete(const uint32_t *w, Py_ssize_t k, uint32_t *best,
                                      Py_ssize_t *nbest, uint32_t *cand) {
    Py_ssize_t nacc = 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (!code_sid(w[i])) best[nacc++] = w[i];
    Py_ssize_t nc = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (!code_sid(w[i])) continue;
        uint32_t j = code_jokers(w[i]), a = code_added(w[i]);
        int dominated = 0;
        for (Py_ssize_t q = 0; q < nacc; q++) {
            if (code_jokers(best[q]) <= j && code_added(best[q]) <= a) {
                dominated = 1;
                break;
            }
        }
        if (!dominated) cand[nc++] = w[i];
    }
    *nbest = nacc;
    return nc;
}

/* Phase 5: within a group (same runs in progress), an entry is dropped when another
 * entry with no more jokers and no more added cards is of a state that dominates it.
 * Candidates are chained per group (stamped heads, no sorting); next, kept and groups
 * are scratch of nc entries each. The entries kept are appended to best[out..]; returns
 * the new size of best. */
static Py_ssize_t drop_dominated_in_groups(const Step *st, const uint32_t *cand, Py_ssize_t nc,
                                           uint32_t *next, uint32_t *kept, uint32_t *groups,
                                           uint32_t *best, Py_ssize_t out) {
    Scratch *sc = st->scratch;
    uint32_t gstamp = ++sc->gstamp;
    Py_ssize_t ng = 0;
    for (Py_ssize_t i = 0; i < nc; i++) {
        uint32_t g = (uint32_t)st->group[code_sid(cand[i])];
        kept[i] = 1;
        if (sc->gseen[g] != gstamp) {
            sc->gseen[g] = gstamp;
            sc->ghead[g] = UINT32_MAX;
            groups[ng++] = g;
        }
        next[i] = sc->ghead[g];
        sc->ghead[g] = (uint32_t)i;
    }
    for (Py_ssize_t x = 0; x < ng; x++) {
        uint32_t head = sc->ghead[groups[x]];
        if (next[head] == UINT32_MAX) continue; /* one member */
        for (uint32_t e = head; e != UINT32_MAX; e = next[e]) {
            uint32_t s2 = code_sid(cand[e]), j2 = code_jokers(cand[e]), a2 = code_added(cand[e]);
            for (uint32_t f = head; f != UINT32_MAX; f = next[f]) {
                if (f == e) continue;
                uint32_t s1 = code_sid(cand[f]), j1 = code_jokers(cand[f]);
                uint32_t a1 = code_added(cand[f]);
                if (j1 > j2 || a1 > a2) continue;
                if (s1 == s2 ? (j1 < j2 || a1 < a2) : state_dominates(st, s1, s2)) {
                    kept[e] = 0;
                    break;
                }
            }
        }
    }
    for (Py_ssize_t i = 0; i < nc; i++)
        if (kept[i]) best[out++] = cand[i];
    return out;
}

/* Phase 6: the key (out codes, unsorted) in canonical order: sorted, and with
 * permutations given, the least of the keys under those of them that order the suits
 * by what the key says about each. trial has room for 2 x out codes. */
static void canonical_key(const Step *st, uint32_t *best, Py_ssize_t out, uint32_t *trial) {
    if (!st->nperms) {
        sort_u32(best, out);
        return;
    }
    /* Order the suits by what the key says about each: the sum of a hash of (what the
     * entry's state says about the suit, jokers, added) over the entries, which a
     * permutation of the key carries to the permuted suit. Try only the permutations
     * that put the suits of each block in that order (every order among equal sums):
     * the least of the keys they give is then the same for every permutation of the
     * key, so it is canonical. (Python orders by the sorted lists instead: another
     * canonical choice, same counts.) */
    uint64_t sig[4] = {0, 0, 0, 0};
    for (Py_ssize_t i = 0; i < out; i++) {
        uint32_t sid = code_sid(best[i]);
        if (!sid) continue;
        uint64_t odd = 2 * (uint64_t)code_rest(best[i]) + 1;
        const uint64_t *h = st->projmix + (size_t)sid * 4;
        for (int t = 0; t < 4; t++) sig[t] += h[t] * odd;
    }
    int rank[4] = {0, 0, 0, 0};
    for (int x = 0; x < st->nslots; x++)
        for (int y = 0; y < st->nslots; y++)
            if (sig[st->slots[y]] < sig[st->slots[x]]) rank[st->slots[x]]++;
    /* Suits of one block that every entry describes alike (same projection) are swapped
     * by a permutation without changing the key: of the orders among them, try only the
     * one keeping them in increasing order (the keys left out are the same keys). */
    int alike[6][2], nalike = 0;
    for (int x = 0; x < st->nslots; x++)
        for (int y = x + 1; y < st->nslots; y++) {
            int u = st->slots[x], v = st->slots[y];
            if (st->block[u] != st->block[v] || rank[u] != rank[v]) continue;
            int same = 1;
            for (Py_ssize_t i = 0; i < out && same; i++) {
                size_t sid = code_sid(best[i]);
                same = st->proj[sid * 4 + u] == st->proj[sid * 4 + v];
            }
            if (same) {
                alike[nalike][0] = u;
                alike[nalike][1] = v;
                nalike++;
            }
        }
    uint32_t *least = trial + out; /* the least permuted key so far */
    int found = 0;
    for (int p = 0; p < st->nperms; p++) {
        const int8_t *map = st->permmaps + 4 * p;
        int ok = 1;
        for (int x = 1; x < st->nslots && ok; x++)
            ok = st->block[st->slots[x - 1]] != st->block[st->slots[x]] ||
                 rank[map[st->slots[x - 1]]] <= rank[map[st->slots[x]]];
        if (ok && nalike) {
            int slot_of[4];
            for (int k = 0; k < 4; k++) slot_of[map[k]] = k;
            for (int q = 0; q < nalike && ok; q++)
                ok = slot_of[alike[q][0]] < slot_of[alike[q][1]];
        }
        if (!ok) continue;
        for (Py_ssize_t i = 0; i < out; i++) {
            uint32_t code = best[i], sid = code_sid(code);
            trial[i] = sid ? ((uint32_t)st->perms[(size_t)sid * st->nperms + p] << SID_SHIFT) |
                                 code_rest(code)
                           : code;
        }
        sort_u32(trial, out);
        Py_ssize_t i = 0;
        while (found && i < out && trial[i] == least[i]) i++;
        if (!found || (i < out && trial[i] < least[i]))
            memcpy(least, trial, (size_t)out * sizeof(uint32_t));
        found = 1;
    }
    if (found)
        memcpy(best, least, (size_t)out * sizeof(uint32_t));
    else /* not a product of symmetric groups: no permutation was tried */
        sort_u32(best, out);
}

/*
 * The successor of key (n codes) into best (reserved by the caller); returns the number
 * of codes, 0 for "no key", -1 for a sid without a table, -2 when out of memory.
 * work has room for 4 x the successors (scratch after them), trial for 2 x.
 */
static Py_ssize_t step_key(const Step *st, const uint32_t *key, Py_ssize_t n, Vec32 *work,
                           uint32_t *best, uint32_t *trial) {
    Py_ssize_t m = gather_successors(st, key, n, work);
    if (m <= 0) return m;
    uint32_t *w = work->data;
    uint32_t added = 0;
    for (Py_ssize_t i = 0; i < m; i++) added |= code_added(w[i]);
    Py_ssize_t k = added ? pareto_per_state(w, m)
                         : drop_closed_over(st, w, fewest_jokers_per_state(st, w, m));
    /* Scratch after the successors (reserved by the caller): candidates, their chains
     * and marks; w itself is free again once the candidates are out of it. */
    uint32_t *cand = w + m, *next = cand + m, *kept = cand + 2 * m;
    Py_ssize_t out = 0;
    Py_ssize_t nc = drop_under_complete(w, k, best, &out, cand);
    out = drop_dominated_in_groups(st, cand, nc, next, kept, w, best, out);
    if (!out) return 0;
    canonical_key(st, best, out, trial);
    return out;
}

/* The moduli _exact_layers.py uses (its PRIMES): a remainder by a constant is a multiplication. */
static const int64_t PRIMES[] = {2147483647, 2147483629, 2147483587,
                                 2147483579, 2147483563, 2147483549};

/* Every entry of keys x W x M residues (a layer's rows), reduced modulo mods[m]. */
static void reduce_all(int64_t *x, Py_ssize_t keys, Py_ssize_t M, Py_ssize_t W,
                       const int64_t *mods) {
    for (Py_ssize_t m = 0; m < M; m++) {
        int64_t mod = mods[m];
#define REDUCE(P)                                                                          \
    for (Py_ssize_t i = 0; i < keys * W; i++) x[i * M + m] %= (P);
        if (mod == PRIMES[0]) { REDUCE(2147483647) }
        else if (mod == PRIMES[1]) { REDUCE(2147483629) }
        else if (mod == PRIMES[2]) { REDUCE(2147483587) }
        else if (mod == PRIMES[3]) { REDUCE(2147483579) }
        else if (mod == PRIMES[4]) { REDUCE(2147483563) }
        else if (mod == PRIMES[5]) { REDUCE(2147483549) }
        else { REDUCE(mod) }
#undef REDUCE
    }
}

/* best holds room codes and trial twice as many; grow them to hold need. */
static int ensure_room(uint32_t **best, uint32_t **trial, Py_ssize_t *room, Py_ssize_t need) {
    if (need <= *room) return 0;
    uint32_t *b = realloc(*best, sizeof(uint32_t) * (size_t)need);
    if (!b) return -1;
    *best = b;
    uint32_t *t = realloc(*trial, sizeof(uint32_t) * 2 * (size_t)need);
    if (!t) return -1;
    *trial = t;
    *room = need;
    return 0;
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len % itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes is not a whole number of items", name,
                     view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* --- the keys of a sweep ------------------------------------------------------------- */
/* A Keys object numbers every key of one sweep and holds its current layer: per row a
 * key id and its hand-count polynomial (moduli x width residues), with the lowest and
 * highest number of cards it counts. It also keeps, per cache, the successors each key
 * had at a step: in the middle of the sweep the positions of one class have the same
 * transitions (StateModel.position_class), and most keys of a rank were keys of the
 * rank before, so the same step of the next rank reads them instead of making them
 * again. A record is: the bound it was made for (the fewest natural cards of the key's
 * hands), the number of copies, then per number of copies the successor's id + 1 (0: no
 * successor). */
#define NCACHES 8

/* What a step needs of each key id, in one place (one cache line to read). */
typedef struct {
    uint32_t stamp; /* the last step that reached it */
    uint32_t row;   /* its row in that step's layer */
    uint32_t least; /* min (jokers + need) over its entries; UINT32_MAX: not known yet */
} KeyInfo;

typedef struct {
    Vec64 ids;   /* per row: the key's id */
    Vec64 polys; /* rows x W x M residues: a number of cards's residues side by side */
    Vec32 span;  /* per row: lowest | highest << 8 number of cards with a count */
} Layer;

/* Numbers of copies a step may ask about (0 .. decks: decks are at most 8). */
#define MAX_COPIES 64

typedef struct {
    PyObject_HEAD
    Interner t;
    Vec32 index[NCACHES];   /* per key id: its record + 1 in records (0: none) */
    Vec32 records[NCACHES];
    KeyInfo *info;          /* per key id */
    Py_ssize_t nstamp;
    uint32_t steps;
    long long hits, misses;
    Layer cur, next;
    Py_ssize_t M, W;        /* moduli and width of the polynomials (0 before start) */
    int64_t mods[6];
    Vec32 found;            /* per row of the layer: its record + 1 for found_for (0: none) */
    int found_for[2];       /* the cache and copies found was looked up for; -1: none */
    Vec32 work;             /* step_key's scratch, kept from step to step */
    Vec32 batch;            /* the successors of one key, one per number of copies */
    uint32_t *best, *trial;
    Py_ssize_t room;
    int ready;
} KeysObject;

static void layer_free(Layer *l) {
    free(l->ids.data);
    free(l->polys.data);
    free(l->span.data);
    memset(l, 0, sizeof(*l));
}

static PyObject *Keys_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    if (PyTuple_GET_SIZE(args) || (kwds && PyDict_GET_SIZE(kwds))) {
        PyErr_SetString(PyExc_TypeError, "Keys() takes no arguments");
        return NULL;
    }
    KeysObject *self = (KeysObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (interner_init(&self->t) < 0) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->ready = 1;
    self->found_for[0] = self->found_for[1] = -1;
    return (PyObject *)self;
}

static void Keys_dealloc(KeysObject *self) {
    if (self->ready) interner_free(&self->t);
    for (int c = 0; c < NCACHES; c++) {
        free(self->index[c].data);
        free(self->records[c].data);
    }
    free(self->info);
    layer_free(&self->cur);
    layer_free(&self->next);
    free(self->found.data);
    free(self->work.data);
    free(self->batch.data);
    free(self->best);
    free(self->trial);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t keys_count(const KeysObject *K) { return K->t.offsets.len - 1; }

/* The id of a key (made when new, with room in the per-key arrays), or -1. */
static int64_t keys_add_hashed(KeysObject *K, const uint32_t *k, Py_ssize_t n, uint64_t h) {
    int64_t id = interner_get_hashed(&K->t, k, n, h);
    if (id < 0) return -1;
    if (id >= K->nstamp) {
        Py_ssize_t cap = K->nstamp ? 2 * K->nstamp : 1 << 12;
        while (cap <= id) cap *= 2;
        KeyInfo *info = realloc(K->info, sizeof(KeyInfo) * (size_t)cap);
        if (!info) return -1;
        K->info = info;
        for (Py_ssize_t i = K->nstamp; i < cap; i++)
            info[i] = (KeyInfo){.stamp = 0, .row = 0, .least = UINT32_MAX};
        K->nstamp = cap;
    }
    return id;
}

static int64_t keys_add(KeysObject *K, const uint32_t *k, Py_ssize_t n) {
    return keys_add_hashed(K, k, n, hash_key(k, n));
}

static const uint32_t *keys_codes(const KeysObject *K, int64_t id, Py_ssize_t *n) {
    int64_t a = K->t.offsets.data[id];
    *n = (Py_ssize_t)(K->t.offsets.data[id + 1] - a);
    return K->t.codes.data + a;
}

/* Where the record of key id in a cache, made for this bound and copies, is (+ 1), or 0. */
static uint32_t keys_record_at(const KeysObject *K, int cache, int64_t id, uint32_t bound,
                               uint32_t copies) {
    if (cache < 0 || id >= K->index[cache].len) return 0;
    uint32_t at = K->index[cache].data[id];
    if (!at) return 0;
    const uint32_t *rec = K->records[cache].data + at - 1;
    return rec[0] == bound && rec[1] == copies ? at : 0;
}

/* Room for a new record of key id (2 + copies entries), or NULL; *at is where it is (+ 1).
 * The caller points the key's index to it only once its successors are in, so a step
 * that fails half way leaves no half-made record. */
static uint32_t *keys_new_record(KeysObject *K, int cache, int64_t id, uint32_t bound,
                                 uint32_t copies, uint32_t *at) {
    Vec32 *index = &K->index[cache], *records = &K->records[cache];
    if (id >= index->len) {
        if (vec32_reserve(index, id + 1 - index->len) < 0) return NULL;
        memset(index->data + index->len, 0, sizeof(uint32_t) * (size_t)(id + 1 - index->len));
        index->len = id + 1;
    }
    if (records->len + 2 + copies >= UINT32_MAX || vec32_reserve(records, 2 + copies) < 0)
        return NULL;
    uint32_t *rec = records->data + records->len;
    *at = (uint32_t)records->len + 1;
    records->len += 2 + copies;
    rec[0] = bound;
    rec[1] = copies;
    return rec + 2;
}

/* Each row's lowest and highest number of cards with a count (lowest W: none). */
static int layer_spans(Layer *l, Py_ssize_t M, Py_ssize_t W) {
    Py_ssize_t rows = l->ids.len;
    l->span.len = 0;
    if (vec32_reserve(&l->span, rows ? rows : 1) < 0) return -1;
    for (Py_ssize_t i = 0; i < rows; i++) {
        const int64_t *p = l->polys.data + i * M * W;
        Py_ssize_t lo = W, hi = 0;
        for (Py_ssize_t w = 0; w < W; w++)
            for (Py_ssize_t m = 0; m < M; m++)
                if (p[w * M + m]) {
                    if (lo == W) lo = w;
                    hi = w;
                    break;
                }
        l->span.data[i] = (uint32_t)(lo | hi << 8);
    }
    l->span.len = rows;
    return 0;
}

PyDoc_STRVAR(start_doc,
"start(codes, offsets, polys, mods) -> int\n\n"
"Make the keys codes[offsets[i]:offsets[i + 1]] (uint32) the current layer, with\n"
"their polynomials (int64, keys x moduli x width, residues modulo mods); returns its\n"
"size. Width is at most 255 and there are at most 6 moduli, each below 2**31.");

/* The checks and the copy shared by Keys.start and the module's step. */
static int keys_start(KeysObject *K, Py_buffer *cv, Py_buffer *ov, Py_buffer *pv,
                      Py_buffer *mv) {
    if (cv->len % 4 || ov->len % 8 || pv->len % 8 || mv->len % 8) {
        PyErr_SetString(PyExc_ValueError, "start: arrays of whole items");
        return -1;
    }
    const uint32_t *codes = cv->buf;
    const int64_t *offsets = ov->buf, *polys = pv->buf, *mods = mv->buf;
    Py_ssize_t nkeys = ov->len / 8 - 1, ncodes = cv->len / 4, M = mv->len / 8;
    Py_ssize_t W = nkeys > 0 && M > 0 ? pv->len / 8 / nkeys / M : 0;
    if (nkeys < 0 || M < 1 || M > 6 || W < 1 || W > 255 || pv->len / 8 != nkeys * M * W) {
        PyErr_SetString(PyExc_ValueError, "step: inconsistent array sizes");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nkeys; i++)
        if (offsets[i] < 0 || offsets[i + 1] < offsets[i] || offsets[i + 1] > ncodes) {
            PyErr_SetString(PyExc_ValueError, "step: offsets out of range");
            return -1;
        }
    int bounded = 1;
    for (Py_ssize_t m = 0; m < M; m++) bounded &= mods[m] > 0 && mods[m] <= INT32_MAX;
    for (Py_ssize_t i = 0; i < nkeys; i++)
        for (Py_ssize_t m = 0; m < M; m++)
            for (Py_ssize_t w = 0; w < W; w++) {
                int64_t x = polys[(i * M + m) * W + w];
                bounded &= x >= 0 && x < mods[m];
            }
    if (!bounded) {
        PyErr_SetString(PyExc_ValueError,
                        "step: residues, moduli or weights too large for 64-bit sums");
        return -1;
    }
    K->M = M;
    K->W = W;
    memcpy(K->mods, mods, sizeof(int64_t) * (size_t)M);
    K->found_for[0] = K->found_for[1] = -1; /* a new layer: present() looks again */
    Layer *l = &K->cur;
    l->ids.len = l->polys.len = 0;
    Py_ssize_t size = nkeys * M * W;
    if (vec64_reserve(&l->ids, nkeys ? nkeys : 1) < 0 ||
        vec64_reserve(&l->polys, size ? size : 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nkeys; i++) {
        int64_t id = keys_add(K, codes + offsets[i], (Py_ssize_t)(offsets[i + 1] - offsets[i]));
        if (id < 0) {
            PyErr_NoMemory();
            return -1;
        }
        l->ids.data[l->ids.len++] = id;
    }
    for (Py_ssize_t i = 0; i < nkeys; i++) /* keys x M x W in, keys x W x M held */
        for (Py_ssize_t m = 0; m < M; m++)
            for (Py_ssize_t w = 0; w < W; w++)
                l->polys.data[(i * W + w) * M + m] = polys[(i * M + m) * W + w];
    l->polys.len = size;
    if (layer_spans(l, M, W) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Keys_start(KeysObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"codes", "offsets", "polys", "mods", NULL};
    PyObject *objs[4];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO:start", kwlist, &objs[0], &objs[1],
                                     &objs[2], &objs[3]))
        return NULL;
    Py_buffer v[4];
    int got = 0, ok = 0;
    for (; got < 4; got++)
        if (PyObject_GetBuffer(objs[got], &v[got], PyBUF_C_CONTIGUOUS) < 0) break;
    if (got == 4) ok = keys_start(self, &v[0], &v[1], &v[2], &v[3]) == 0;
    while (got > 0) PyBuffer_Release(&v[--got]);
    return ok ? PyLong_FromSsize_t(self->cur.ids.len) : NULL;
}

static PyObject *Keys_codes(KeysObject *self, PyObject *arg) {
    Py_ssize_t id = PyLong_AsSsize_t(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    if (id < 0 || id >= keys_count(self)) {
        PyErr_Format(PyExc_IndexError, "codes: no key %zd", id);
        return NULL;
    }
    Py_ssize_t n;
    const uint32_t *k = keys_codes(self, id, &n);
    return PyBytes_FromStringAndSize((const char *)k, (Py_ssize_t)(sizeof(uint32_t) * (size_t)n));
}

/* The current layer's polynomials as keys x M x W (held as keys x W x M), or NULL. */
static int64_t *layer_polys(const KeysObject *K) {
    const Layer *l = &K->cur;
    Py_ssize_t M = K->M, W = K->W;
    int64_t *out = malloc(sizeof(int64_t) * (size_t)(l->polys.len ? l->polys.len : 1));
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < l->ids.len; i++)
        for (Py_ssize_t m = 0; m < M; m++)
            for (Py_ssize_t w = 0; w < W; w++)
                out[(i * M + m) * W + w] = l->polys.data[(i * W + w) * M + m];
    return out;
}

static PyObject *Keys_layer(KeysObject *self, PyObject *Py_UNUSED(ignored)) {
    const Layer *l = &self->cur;
    int64_t *polys = layer_polys(self);
    if (!polys) return PyErr_NoMemory();
    PyObject *result = Py_BuildValue(
        "(y#y#)", (const char *)l->ids.data, (Py_ssize_t)(sizeof(int64_t) * (size_t)l->ids.len),
        (const char *)polys, (Py_ssize_t)(sizeof(int64_t) * (size_t)l->polys.len));
    free(polys);
    return result;
}

static PyObject *Keys_stats(KeysObject *self, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(nLL)", keys_count(self), self->hits, self->misses);
}

PyDoc_STRVAR(present_doc,
"present(copies, cache) -> bytes\n\n"
"The states (uint32, increasing, without 0) of the current layer's keys that the\n"
"step with this number of copies and cache (-1: none) makes anew: the successor\n"
"tables it needs.");

static PyObject *Keys_present(KeysObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"copies", "cache", NULL};
    int copies, cache;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ii:present", kwlist, &copies, &cache))
        return NULL;
    if (cache < -1 || cache >= NCACHES || copies < 1) {
        PyErr_SetString(PyExc_ValueError, "present: cache or copies out of range");
        return NULL;
    }
    /* The records found are kept per row for the step that follows. */
    const Layer *l = &self->cur;
    self->found_for[0] = self->found_for[1] = -1;
    self->found.len = 0;
    if (vec32_reserve(&self->found, l->ids.len ? l->ids.len : 1) < 0) return PyErr_NoMemory();
    Vec32 seen = {0}; /* a byte per state, grown as states are met */
    Py_ssize_t nseen = 0;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < l->ids.len; i++) {
        uint32_t lo = l->span.data[i] & 255;
        uint32_t at = keys_record_at(self, cache, l->ids.data[i], lo, (uint32_t)copies);
        self->found.data[i] = at;
        if (at) continue;
        Py_ssize_t n;
        const uint32_t *k = keys_codes(self, l->ids.data[i], &n);
        for (Py_ssize_t q = 0; q < n; q++) {
            Py_ssize_t sid = code_sid(k[q]);
            if (sid >= nseen) {
                Py_ssize_t words = (sid + 1 + 3) / 4 * 2; /* room to spare */
                if (vec32_reserve(&seen, words - seen.len) < 0) goto done;
                memset(seen.data + seen.len, 0, sizeof(uint32_t) * (size_t)(words - seen.len));
                seen.len = words;
                nseen = 4 * words;
            }
            ((uint8_t *)seen.data)[sid] = 1;
        }
    }
    self->found.len = l->ids.len;
    self->found_for[0] = cache;
    self->found_for[1] = copies;
    Vec32 out = {0};
    for (Py_ssize_t sid = 1; sid < nseen; sid++)
        if (((uint8_t *)seen.data)[sid]) {
            if (vec32_reserve(&out, 1) < 0) {
                free(out.data);
                goto done;
            }
            out.data[out.len++] = (uint32_t)sid;
        }
    result = PyBytes_FromStringAndSize((const char *)out.data,
                                       (Py_ssize_t)(sizeof(uint32_t) * (size_t)out.len));
    free(out.data);
done:
    if (!result && !PyErr_Occurred()) PyErr_NoMemory();
    free(seen.data);
    return result;
}

static PyTypeObject KeysType;

PyDoc_STRVAR(step_doc,
"step(codes, offsets, polys, starts, deltas, group, fields, proj, perms, permmaps,\n"
"     mods, binom, jcap, nge[, need, budget, cstarts, csids]) -> (polys, codes, offsets)\n\n"
"One step of the sweep for every key of a layer and every number of copies held.\n"
"codes: uint32, the layer's keys one after another; offsets: int64, key i is\n"
"codes[offsets[i]:offsets[i + 1]]; polys: int64, keys x moduli x width, each key's\n"
"hand counts by number of cards, residues modulo mods; starts: int64, copies x\n"
"(sids + 1), the successors of sid when holding c copies are\n"
"deltas[starts[c, sid]:starts[c, sid + 1]] (uint32 codes to add to an entry's jokers\n"
"and added cards); group: int32 per sid; fields: int8, sids x nfields, the first nge\n"
"'more is better'; proj: int32, sids x 4; perms: int32, sids x nperms, the permuted\n"
"sids; permmaps: int8, nperms x 4 (no permutations: keys are not made canonical);\n"
"binom: int64 per number of copies, the ways to hold that many; need: int8 per sid,\n"
"the fewest cards still to hold to complete, and budget: the most cards in a hand\n"
"(-1, the default: no budget); entries that cannot complete within it are dropped,\n"
"and hand counts that no entry of their key can complete are not carried; cstarts\n"
"(int64, closed sids + 1) and csids (int32): each sid's closures, states that\n"
"dominate it (without added cards, a state is dropped when one of its closures is in\n"
"the key at no more jokers).\n"
"Returns the next layer: its polynomials (shifted by c cards, times binom[c], summed\n"
"per key, modulo mods) and its keys, numbered in the order they were first reached;\n"
"keys whose hands all count zero are left out. Keys.step does the same on the layer\n"
"a Keys object holds.");

PyDoc_STRVAR(keys_step_doc,
"step(starts, deltas, group, fields, proj, perms, permmaps, binom, jcap, nge, need,\n"
"     budget, cstarts, csids, cache) -> int\n\n"
"The module's step() on the current layer, which it replaces; returns the new\n"
"layer's size. cache (0..7, or -1 for none) names the successors kept: a key stepped\n"
"before with this cache (for the same bound and copies) takes them without being\n"
"stepped again, and a key stepped now keeps its own. The caller passes a cache only\n"
"to steps with the same tables, such as one suit's steps at the positions of one\n"
"class.");

enum { B_STARTS, B_DELTAS, B_GROUP, B_FIELDS, B_PROJ, B_PERMS, B_PERMMAPS, B_BINOM, NBUF };

/* What one step holds while it runs: the caller's arrays and its own scratch. */
typedef struct {
    Py_buffer b[NBUF];
    int got; /* buffers of b taken */
    Py_buffer need_view, cstarts_view, csids_view;
    int have_need, have_closures;
    uint64_t *projmix;
    Scratch scratch;
} StepHold;

static void step_release(StepHold *h) {
    while (h->got > 0) PyBuffer_Release(&h->b[--h->got]);
    if (h->have_need) PyBuffer_Release(&h->need_view);
    if (h->have_closures) {
        PyBuffer_Release(&h->cstarts_view);
        PyBuffer_Release(&h->csids_view);
    }
    free(h->projmix);
    free(h->scratch.gseen);
    free(h->scratch.ghead);
    free(h->scratch.seen);
    free(h->scratch.jokers);
}

/* Phase 1 of a step: take the arrays, check them against each other and the layer, and
 * fill st with them; 0, or -1 with an error set. */
static int step_take_arrays(const KeysObject *K, PyObject **objs, int jcap, int nge,
                            PyObject *need_obj, int budget, PyObject *cstarts_obj,
                            PyObject *csids_obj, int cache, StepHold *h, Step *st) {
    static const Py_ssize_t itemsize[NBUF] = {8, 4, 4, 1, 4, 4, 1, 8};
    static const char *names[NBUF] = {"starts", "deltas", "group", "fields",
                                      "proj",   "perms",  "permmaps", "binom"};
    Py_buffer *b = h->b;
    if (!K->M) {
        PyErr_SetString(PyExc_ValueError, "step: no layer (start first)");
        return -1;
    }
    if (cache < -1 || cache >= NCACHES) {
        PyErr_SetString(PyExc_ValueError, "step: cache must be -1 or 0..7");
        return -1;
    }
    for (; h->got < NBUF; h->got++)
        if (get_buffer(objs[h->got], &b[h->got], itemsize[h->got], names[h->got]) < 0)
            return -1;
    const Py_ssize_t nkeys = K->cur.ids.len;
    const int64_t *binom = b[B_BINOM].buf;
    Py_ssize_t nsids = b[B_GROUP].len / 4;
    int copies = (int)(b[B_BINOM].len / 8);
    Py_ssize_t nperms = b[B_PERMMAPS].len / 4;
    if (copies < 1 || nsids < 1 ||
        b[B_STARTS].len / 8 != (Py_ssize_t)copies * (nsids + 1) || b[B_FIELDS].len % nsids ||
        nge < 0 || nge > b[B_FIELDS].len / nsids || b[B_PROJ].len / 4 != 4 * nsids ||
        b[B_PERMS].len / 4 != nsids * nperms || b[B_PERMMAPS].len != 4 * nperms || jcap < 0 ||
        jcap > (int)COST_MASK) {
        PyErr_SetString(PyExc_ValueError, "step: inconsistent array sizes");
        return -1;
    }
    if (budget >= 0) {
        if (!need_obj || need_obj == Py_None) {
            PyErr_SetString(PyExc_ValueError, "step: a budget needs the need array");
            return -1;
        }
        if (get_buffer(need_obj, &h->need_view, 1, "need") < 0) return -1;
        h->have_need = 1;
        if (h->need_view.len != nsids) {
            PyErr_SetString(PyExc_ValueError, "step: need has not one entry per sid");
            return -1;
        }
        for (Py_ssize_t i = 0; i < nsids; i++)
            if (((const int8_t *)h->need_view.buf)[i] < 0) {
                PyErr_SetString(PyExc_ValueError, "step: a need is negative");
                return -1;
            }
    } else if (budget < -1) {
        PyErr_SetString(PyExc_ValueError, "step: budget must be >= 0, or -1 for none");
        return -1;
    }
    Py_ssize_t nclosed = 0;
    if (cstarts_obj && cstarts_obj != Py_None) {
        if (!csids_obj || csids_obj == Py_None) {
            PyErr_SetString(PyExc_ValueError, "step: cstarts needs csids");
            return -1;
        }
        if (get_buffer(cstarts_obj, &h->cstarts_view, 8, "cstarts") < 0) return -1;
        if (get_buffer(csids_obj, &h->csids_view, 4, "csids") < 0) {
            PyBuffer_Release(&h->cstarts_view);
            return -1;
        }
        h->have_closures = 1;
        nclosed = h->cstarts_view.len / 8 - 1;
        const int64_t *cs = h->cstarts_view.buf;
        const int32_t *ci = h->csids_view.buf;
        int ok = nclosed >= 0 && nclosed <= nsids && cs[0] == 0;
        for (Py_ssize_t i = 0; ok && i < nclosed; i++)
            ok = cs[i] <= cs[i + 1] && cs[i + 1] <= h->csids_view.len / 4;
        for (Py_ssize_t e = 0; ok && e < h->csids_view.len / 4; e++)
            ok = ci[e] > 0 && ci[e] < nsids;
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "step: closures out of range");
            return -1;
        }
    }
    if (copies > MAX_COPIES) {
        PyErr_SetString(PyExc_ValueError, "step: more than MAX_COPIES numbers of copies");
        return -1;
    }
    int bounded = (int64_t)copies * nkeys < (1 << 24);
    for (int c = 0; c < copies; c++) bounded &= binom[c] >= 0 && binom[c] < 256;
    if (!bounded) {
        PyErr_SetString(PyExc_ValueError,
                        "step: residues, moduli or weights too large for 64-bit sums");
        return -1;
    }
    const uint32_t *deltas = b[B_DELTAS].buf;
    for (Py_ssize_t e = 0; e < b[B_DELTAS].len / 4; e++)
        if ((Py_ssize_t)code_sid(deltas[e]) >= nsids) {
            PyErr_SetString(PyExc_ValueError, "step: a successor is not a known state");
            return -1;
        }
    *st = (Step){
        .deltas = b[B_DELTAS].buf,
        .nsids = nsids,
        .jcap = jcap,
        .group = b[B_GROUP].buf,
        .fields = b[B_FIELDS].buf,
        .nfields = (int)(b[B_FIELDS].len / nsids),
        .nge = nge,
        .perms = b[B_PERMS].buf,
        .nperms = (int)nperms,
        .permmaps = b[B_PERMMAPS].buf,
        .proj = b[B_PROJ].buf,
        .need = h->have_need ? h->need_view.buf : NULL,
        .budget = budget,
        .cstarts = h->have_closures ? h->cstarts_view.buf : NULL,
        .csids = h->have_closures ? h->csids_view.buf : NULL,
        .nclosed = h->have_closures ? nclosed : 0,
    };
    return 0;
}

/* Phase 2: what the permutations move (blocks of suits), the scratch arrays of
 * step_key, the hashes of the states' projections, and room for a key; 0, or -1 with
 * an error set. */
static int step_prepare(KeysObject *K, StepHold *h, Step *st) {
    /* The permutations are those of a product of symmetric groups (of blocks of
     * suits); a suit's block is the least suit some permutation takes it to. */
    for (int k = 0; k < 4; k++) {
        int moved = 0;
        st->block[k] = k;
        for (Py_ssize_t p = 0; p < st->nperms; p++) {
            int x = st->permmaps[4 * p + k];
            if (x < 0 || x > 3) {
                PyErr_SetString(PyExc_ValueError, "step: a permutation maps outside the suits");
                return -1;
            }
            moved |= x != k;
            if (x < st->block[k]) st->block[k] = x;
        }
        if (moved) st->slots[st->nslots++] = k;
    }
    if (st->nperms == 1) st->nperms = 0; /* the identity alone changes nothing */
    const Py_ssize_t nsids = st->nsids;
    Scratch *sc = &h->scratch;
    sc->seen = calloc((size_t)nsids, sizeof(uint32_t));
    sc->jokers = calloc((size_t)nsids, sizeof(uint32_t));
    int32_t ngroups = 1;
    for (Py_ssize_t i = 0; i < nsids; i++) {
        int32_t g = st->group[i];
        if (g < -1) {
            PyErr_SetString(PyExc_ValueError, "step: a group is negative");
            return -1;
        }
        if (g + 1 > ngroups) ngroups = g + 1;
    }
    sc->gseen = calloc((size_t)ngroups, sizeof(uint32_t));
    sc->ghead = calloc((size_t)ngroups, sizeof(uint32_t));
    if (!sc->seen || !sc->jokers || !sc->gseen || !sc->ghead) {
        PyErr_NoMemory();
        return -1;
    }
    st->scratch = sc;
    h->projmix = malloc(sizeof(uint64_t) * 4 * (size_t)nsids);
    if (!h->projmix) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < 4 * nsids; i++)
        h->projmix[i] = mix64((uint64_t)(uint32_t)st->proj[i] + 1);
    st->projmix = h->projmix;
    if (!K->room) {
        K->room = 1024;
        K->best = malloc(sizeof(uint32_t) * (size_t)K->room);
        K->trial = malloc(sizeof(uint32_t) * 2 * (size_t)K->room);
        if (!K->best || !K->trial) {
            K->room = 0;
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* The errors of the phases that run without the GIL (keys_step raises them after). */
#define STEP_NO_MEMORY (-2)
#define STEP_NO_TABLE (-3)

/* Phase 3: the ids of the successors of key key_id holding c = 0 .. copies - 1 copies
 * (ids[c], -1 when it has none), its hands holding at least lo naturals before (the
 * tables for c copies start at all_starts + c * (nsids + 1)); 0, or STEP_NO_MEMORY or
 * STEP_NO_TABLE on an error. Runs without the GIL: it sets no Python error (keys_step
 * does, once it holds the GIL again).
 *
 * Every successor key is made first, then the slots of all of them are asked for
 * (interner_prefetch), then they are looked up in order: the key ids are those of
 * making and interning one successor after the other, and the lookups' waits for memory
 * overlap. */
static int key_successors(KeysObject *K, Step *st, int64_t key_id, int copies, Py_ssize_t lo,
                          const int64_t *all_starts, int64_t *ids) {
    const Py_ssize_t nsids = st->nsids, W = K->W;
    /* The key's codes stay where they are until the first successor is interned. */
    Py_ssize_t n;
    const uint32_t *key = keys_codes(K, key_id, &n);
    /* Successors fit in work (with three times as much scratch), each key in a stride of
     * batch, the canonical trials in trial. */
    Py_ssize_t most = 0;
    for (int c = 0; c < copies; c++) {
        const int64_t *starts = all_starts + (size_t)c * (nsids + 1);
        Py_ssize_t m = 0;
        for (Py_ssize_t q = 0; q < n; q++) {
            uint32_t sid = code_sid(key[q]);
            if (!sid)
                m += 1;
            else if ((Py_ssize_t)sid < nsids)
                m += (Py_ssize_t)(starts[sid + 1] - starts[sid]);
        }
        if (m > most) most = m;
    }
    const Py_ssize_t stride = most + 1;
    if (vec32_reserve(&K->work, 4 * most + 2) < 0 ||
        ensure_room(&K->best, &K->trial, &K->room, stride) < 0)
        return STEP_NO_MEMORY;
    K->batch.len = 0;
    if (vec32_reserve(&K->batch, (Py_ssize_t)copies * stride) < 0) return STEP_NO_MEMORY;
    Py_ssize_t got[MAX_COPIES];
    uint64_t hash[MAX_COPIES];
    for (int c = 0; c < copies; c++) {
        got[c] = 0;
        if (lo + c >= W) continue; /* every hand would hold too many cards */
        st->starts = all_starts + (size_t)c * (nsids + 1);
        st->bound = (int)(lo + c);
        uint32_t *out = K->batch.data + (size_t)c * stride;
        got[c] = step_key(st, key, n, &K->work, out, K->trial);
        if (got[c] == -1) return STEP_NO_TABLE;
        if (got[c] < -1) return STEP_NO_MEMORY;
        if (got[c]) {
            hash[c] = hash_key(out, got[c]);
            interner_prefetch(&K->t, hash[c]);
        }
    }
    for (int c = 0; c < copies; c++) {
        ids[c] = -1;
        if (!got[c]) continue;
        int64_t id = keys_add_hashed(K, K->batch.data + (size_t)c * stride, got[c], hash[c]);
        if (id < 0 || id + 1 >= UINT32_MAX) return STEP_NO_MEMORY;
        __builtin_prefetch(&K->info[id]); /* read by add_to_next */
        ids[c] = id;
    }
    return 0;
}

/* Ask for what the step of row j will read (hints only, nothing changes): with the
 * successors kept, first their record, a stage later the successors' KeyInfo, a stage
 * after that their rows of the next layer; else the key's place in the arena and then
 * its codes. The rows of a layer follow no order of key ids, so each of these reads
 * waits for memory when it is not asked for ahead. */
#define AHEAD 8
static inline void prefetch_row(const KeysObject *K, const uint32_t *found, int cache,
                                Py_ssize_t j, int stage, uint32_t stamp) {
    int64_t key_id = K->cur.ids.data[j];
    uint32_t at = found ? found[j] : 0;
    if (at) {
        const uint32_t *rec = K->records[cache].data + at - 1;
        if (stage == 0) {
            __builtin_prefetch(rec);
            return;
        }
        uint32_t copies = rec[1];
        for (uint32_t c = 0; c < copies; c++) {
            if (!rec[2 + c]) continue;
            const KeyInfo *info = &K->info[rec[2 + c] - 1];
            if (stage == 1)
                __builtin_prefetch(info);
            else if (info->stamp == stamp)
                __builtin_prefetch(K->next.polys.data + (size_t)info->row * K->M * K->W);
        }
        return;
    }
    if (stage == 0)
        __builtin_prefetch(K->t.offsets.data + key_id);
    else if (stage == 1)
        __builtin_prefetch(K->t.codes.data + K->t.offsets.data[key_id]);
}

/* Phase 4: row i of the layer (its hands holding lo..hi naturals), holding c more
 * copies in weight ways, goes to key id: its polynomial, shifted by c cards and times
 * weight, is added to id's row of the next layer (made when id is new there). With a
 * budget, only the hands some state of id completes within it. 0, or STEP_NO_MEMORY
 * (no Python error set: it runs without the GIL). */
static int add_to_next(KeysObject *K, const Step *st, uint32_t stamp, Py_ssize_t i,
                       Py_ssize_t lo, Py_ssize_t hi, int c, int64_t weight, int64_t id) {
    const Py_ssize_t M = K->M, W = K->W, MW = M * W;
    Layer *out = &K->next;
    /* With a budget, a hand of w naturals counts only when some state of the key
     * completes within the budget: w + jokers + need <= budget. */
    KeyInfo *info = &K->info[id];
    Py_ssize_t top = W;
    if (st->budget >= 0) {
        if (info->least == UINT32_MAX) {
            Py_ssize_t len;
            const uint32_t *next = keys_codes(K, id, &len);
            int least = 1 << 30;
            for (Py_ssize_t q = 0; q < len; q++) {
                int r = (int)code_jokers(next[q]) + st->need[code_sid(next[q])];
                if (r < least) least = r;
            }
            info->least = (uint32_t)least;
        }
        if (st->budget - (Py_ssize_t)info->least + 1 < top)
            top = st->budget - (Py_ssize_t)info->least + 1;
    }
    Py_ssize_t from = lo + c, to = hi + c + 1 < top ? hi + c + 1 : top;
    if (from >= to) return 0; /* every hand would be too large */
    if (info->stamp != stamp) { /* new in this layer: its polynomial starts at 0 */
        info->stamp = stamp;
        info->row = (uint32_t)out->ids.len;
        if (vec64_push(&out->ids, id) < 0 || vec64_reserve(&out->polys, MW) < 0 ||
            vec32_reserve(&out->span, 1) < 0)
            return STEP_NO_MEMORY;
        memset(out->polys.data + out->polys.len, 0, sizeof(int64_t) * (size_t)MW);
        out->polys.len += MW;
        out->span.data[out->span.len++] = (uint32_t)(from | (to - 1) << 8);
    } else {
        /* Its lowest number of cards is exact (a count there is added, and every count
         * added is positive); its highest may be one with no count (an interior zero of
         * the polynomial added), which only costs zero terms. */
        uint32_t span = out->span.data[info->row];
        Py_ssize_t lo2 = span & 255, hi2 = span >> 8;
        if (from < lo2) lo2 = from;
        if (to - 1 > hi2) hi2 = to - 1;
        out->span.data[info->row] = (uint32_t)(lo2 | hi2 << 8);
    }
    /* Residues are below 2**31 and binom[c] below 2**8 (checked): the sums of fewer than
     * 2**24 terms fit in 63 bits, reduced once at the end. */
    const int64_t *src = K->cur.polys.data + i * MW;
    int64_t *dst = out->polys.data + (size_t)info->row * MW;
    for (Py_ssize_t x = from * M; x < to * M; x++) dst[x] += src[x - c * M] * weight;
    return 0;
}

/* One step of the current layer, in phases: take and check the arrays, prepare the
 * scratch, then for every key and number of copies find the successor (kept from a
 * step before with this cache, or made now and kept) and add the key's hands to it;
 * last, reduce the sums and make the next layer current. 0, or -1 with an error set. */
static int keys_step(KeysObject *K, PyObject **objs, int jcap, int nge, PyObject *need_obj,
                     int budget, PyObject *cstarts_obj, PyObject *csids_obj, int cache) {
    StepHold h = {0};
    Step st;
    int status = -1;
    if (step_take_arrays(K, objs, jcap, nge, need_obj, budget, cstarts_obj, csids_obj, cache,
                         &h, &st) < 0 ||
        step_prepare(K, &h, &st) < 0)
        goto done;
    const Py_ssize_t W = K->W, nkeys = K->cur.ids.len;
    const int copies = (int)(h.b[B_BINOM].len / 8);
    const int64_t *binom = h.b[B_BINOM].buf;
    if (++K->steps == 0) { /* the stamps wrapped around: start them again */
        for (Py_ssize_t i = 0; i < K->nstamp; i++) K->info[i].stamp = 0;
        K->steps = 1;
    }
    const uint32_t stamp = K->steps;
    const int64_t *all_starts = h.b[B_STARTS].buf;
    const Layer *in = &K->cur;
    Layer *out = &K->next;
    out->span.len = 0;
    /* The records present() found for this layer, when it looked for this cache and copies. */
    const uint32_t *found =
        cache >= 0 && K->found_for[0] == cache && K->found_for[1] == copies ? K->found.data : NULL;
    K->found_for[0] = K->found_for[1] = -1; /* the layer is about to change */
    out->ids.len = out->polys.len = 0;
    /* The layer is stepped without the GIL: nothing from here to reduce_all touches a
     * Python object (the buffers stay held in h), so a count in a thread lets the
     * interpreter (a notebook's kernel) run meanwhile. An error is noted in failed and
     * raised once the GIL is back. */
    int64_t failed = 0;
    PyThreadState *save = PyEval_SaveThread();
    for (Py_ssize_t i = 0; i < nkeys; i++) {
        if (i + 3 * AHEAD < nkeys) prefetch_row(K, found, cache, i + 3 * AHEAD, 0, stamp);
        if (i + 2 * AHEAD < nkeys) prefetch_row(K, found, cache, i + 2 * AHEAD, 1, stamp);
        if (i + AHEAD < nkeys) prefetch_row(K, found, cache, i + AHEAD, 2, stamp);
        const int64_t key_id = in->ids.data[i];
        const Py_ssize_t lo = in->span.data[i] & 255, hi = in->span.data[i] >> 8;
        if (lo >= W) continue; /* no hand: nothing to carry */
        /* The successors of this key for every number of copies: kept from a step before
         * with this cache, or made now (and kept). */
        const uint32_t at = found ? found[i]
                                  : keys_record_at(K, cache, key_id, (uint32_t)lo, (uint32_t)copies);
        const uint32_t *rec = at ? K->records[cache].data + at - 1 + 2 : NULL;
        uint32_t *keep = NULL, kept_at = 0;
        if (cache >= 0) {
            if (rec) {
                K->hits++;
            } else {
                K->misses++;
                keep = keys_new_record(K, cache, key_id, (uint32_t)lo, (uint32_t)copies,
                                       &kept_at);
                if (!keep) {
                    failed = STEP_NO_MEMORY;
                    goto stepped;
                }
            }
        }
        int64_t ids[MAX_COPIES];
        if (!rec) {
            int error = key_successors(K, &st, key_id, copies, lo, all_starts, ids);
            if (error) {
                failed = error;
                goto stepped;
            }
            if (keep)
                for (int c = 0; c < copies; c++) keep[c] = ids[c] < 0 ? 0 : (uint32_t)ids[c] + 1;
        }
        for (int c = 0; c < copies; c++) {
            int64_t id = rec ? (int64_t)rec[c] - 1 : ids[c];
            if (id < 0) continue;
            if (add_to_next(K, &st, stamp, i, lo, hi, c, binom[c], id) < 0) {
                failed = STEP_NO_MEMORY;
                goto stepped;
            }
        }
        if (keep) K->index[cache].data[key_id] = kept_at; /* its successors are all in */
    }
    /* (A key gets a row only when a count is added to it: no row counts nothing.) */
    reduce_all(out->polys.data, out->ids.len, K->M, W, K->mods);
stepped:
    PyEval_RestoreThread(save);
    if (failed == STEP_NO_TABLE) {
        PyErr_SetString(PyExc_ValueError, "step: a state has no successor table");
        goto done;
    }
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    Layer swap = K->cur;
    K->cur = K->next;
    K->next = swap;
    status = 0;
done:
    step_release(&h);
    return status;
}

static PyObject *Keys_step(KeysObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"starts", "deltas", "group", "fields", "proj", "perms",
                             "permmaps", "binom", "jcap", "nge", "need", "budget",
                             "cstarts", "csids", "cache", NULL};
    PyObject *objs[NBUF], *need_obj = NULL, *cstarts_obj = NULL, *csids_obj = NULL;
    int jcap, nge, budget = -1, cache = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOOii|$OiOOi:step", kwlist,
                                     &objs[B_STARTS], &objs[B_DELTAS], &objs[B_GROUP],
                                     &objs[B_FIELDS], &objs[B_PROJ], &objs[B_PERMS],
                                     &objs[B_PERMMAPS], &objs[B_BINOM], &jcap, &nge, &need_obj,
                                     &budget, &cstarts_obj, &csids_obj, &cache))
        return NULL;
    if (keys_step(self, objs, jcap, nge, need_obj, budget, cstarts_obj, csids_obj, cache) < 0)
        return NULL;
    return PyLong_FromSsize_t(self->cur.ids.len);
}

static PyMethodDef Keys_methods[] = {
    {"start", (PyCFunction)(void (*)(void))Keys_start, METH_VARARGS | METH_KEYWORDS, start_doc},
    {"present", (PyCFunction)(void (*)(void))Keys_present, METH_VARARGS | METH_KEYWORDS,
     present_doc},
    {"step", (PyCFunction)(void (*)(void))Keys_step, METH_VARARGS | METH_KEYWORDS,
     keys_step_doc},
    {"layer", (PyCFunction)Keys_layer, METH_NOARGS,
     "layer() -> (ids, polys): the current layer, its key ids (int64) and polynomials\n"
     "(int64, keys x moduli x width)."},
    {"codes", (PyCFunction)Keys_codes, METH_O, "codes(id) -> bytes: the uint32 codes of a key."},
    {"stats", (PyCFunction)Keys_stats, METH_NOARGS,
     "stats() -> (keys, hits, misses): keys made, and keys stepped with a cache that found\n"
     "their successors kept or made them."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeysType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rummykit._native._sweep.Keys",
    .tp_doc = PyDoc_STR("Keys()\n\nEvery key of one sweep, numbered, its current layer, and "
                        "the successors kept for its steps (see step)."),
    .tp_basicsize = sizeof(KeysObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Keys_new,
    .tp_dealloc = (destructor)Keys_dealloc,
    .tp_methods = Keys_methods,
};

/* step() on keys given by their codes: a layer of a Keys of their own. */
static PyObject *py_step(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *kwlist[] = {"codes", "offsets", "polys", "starts", "deltas", "group",
                             "fields", "proj", "perms", "permmaps", "mods", "binom",
                             "jcap", "nge", "need", "budget", "cstarts", "csids", NULL};
    PyObject *in[4], *objs[NBUF];
    int jcap, nge, budget = -1;
    PyObject *need_obj = NULL, *cstarts_obj = NULL, *csids_obj = NULL;
    /* codes, offsets, polys, then the step's arrays, with mods between permmaps and binom */
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOOOOOOii|$OiOO:step", kwlist, &in[0],
                                     &in[1], &in[2], &objs[B_STARTS], &objs[B_DELTAS],
                                     &objs[B_GROUP], &objs[B_FIELDS], &objs[B_PROJ],
                                     &objs[B_PERMS], &objs[B_PERMMAPS], &in[3], &objs[B_BINOM],
                                     &jcap, &nge, &need_obj, &budget, &cstarts_obj, &csids_obj))
        return NULL;
    Py_buffer v[4], gv;
    int got = 0, have_group = 0;
    PyObject *result = NULL;
    KeysObject *K = (KeysObject *)PyObject_CallNoArgs((PyObject *)&KeysType);
    if (!K) return NULL;
    for (; got < 4; got++)
        if (PyObject_GetBuffer(in[got], &v[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    if (get_buffer(objs[B_GROUP], &gv, 4, "group") < 0) goto done;
    have_group = 1;
    for (Py_ssize_t e = 0; e < v[0].len / 4; e++)
        if ((Py_ssize_t)code_sid(((const uint32_t *)v[0].buf)[e]) >= gv.len / 4) {
            PyErr_SetString(PyExc_ValueError, "step: a key holds an unknown state");
            goto done;
        }
    if (keys_start(K, &v[0], &v[1], &v[2], &v[3]) < 0) goto done;
    if (keys_step(K, objs, jcap, nge, need_obj, budget, cstarts_obj, csids_obj, -1) < 0)
        goto done;
    /* The next layer's keys by their codes, in the order of their rows. */
    const Layer *l = &K->cur;
    Vec32 codes = {0};
    Vec64 offsets = {0};
    int failed = vec64_push(&offsets, 0) < 0;
    for (Py_ssize_t r = 0; r < l->ids.len && !failed; r++) {
        Py_ssize_t n;
        const uint32_t *k = keys_codes(K, l->ids.data[r], &n);
        failed = vec32_reserve(&codes, n) < 0;
        if (failed) break;
        memcpy(codes.data + codes.len, k, sizeof(uint32_t) * (size_t)n);
        codes.len += n;
        failed = vec64_push(&offsets, codes.len) < 0;
    }
    int64_t *polys = failed ? NULL : layer_polys(K);
    if (!polys)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(y#y#y#)", (const char *)polys,
                               (Py_ssize_t)(sizeof(int64_t) * (size_t)l->polys.len),
                               (const char *)codes.data,
                               (Py_ssize_t)(sizeof(uint32_t) * (size_t)codes.len),
                               (const char *)offsets.data,
                               (Py_ssize_t)(sizeof(int64_t) * (size_t)offsets.len));
    free(polys);
    free(codes.data);
    free(offsets.data);
done:
    if (have_group) PyBuffer_Release(&gv);
    while (got > 0) PyBuffer_Release(&v[--got]);
    Py_DECREF((PyObject *)K);
    return result;
}

static PyMethodDef methods[] = {
    {"step", (PyCFunction)(void (*)(void))py_step, METH_VARARGS | METH_KEYWORDS, step_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sweep",
    "The compiled inner step of rummykit.odds.exact's sweep (see docs/exact-sweep.md).", -1,
    methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sweep(void) {
    if (PyType_Ready(&KeysType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KeysType);
    if (PyModule_AddObject(m, "Keys", (PyObject *)&KeysType) < 0) {
        Py_DECREF(&KeysType);
        Py_DECREF(m);
        return NULL;
    }
    /* The packed-code layout and the moduli, for the test that Python names the same. */
    PyObject *primes = PyTuple_New(sizeof(PRIMES) / sizeof(PRIMES[0]));
    if (!primes) {
        Py_DECREF(m);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(primes); i++) {
        PyObject *prime = PyLong_FromLongLong(PRIMES[i]);
        if (!prime) {
            Py_DECREF(primes);
            Py_DECREF(m);
            return NULL;
        }
        PyTuple_SET_ITEM(primes, i, prime);
    }
    if (PyModule_AddObject(m, "PRIMES", primes) < 0) {
        Py_DECREF(primes);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "SID_SHIFT", SID_SHIFT) < 0 ||
        PyModule_AddIntConstant(m, "JOKER_SHIFT", JOKER_SHIFT) < 0 ||
        PyModule_AddIntConstant(m, "COST_MASK", COST_MASK) < 0 ||
        PyModule_AddIntConstant(m, "REST_MASK", REST_MASK) < 0 ||
        PyModule_AddIntConstant(m, "NCACHES", NCACHES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
