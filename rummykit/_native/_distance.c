/*
 * rummykit._distance: the engine's fast path for search.contract_distance, compiled from
 * the solver that the fast round simulator ports (odds/_contract.c). It lives outside
 * rummykit.odds so that the engine can import it without that package's numpy and
 * polars. search.py decides when it may be used (_core_refusal) and keeps the Python
 * reference; docs/fast-distance.md is the design note.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_contract.h"
#include "_read_ints.h"

/* The meld rules in the order of search._Solver.core_rules (and of _table.distance). */
#define RULE_FIELDS 8

/* One solver per rule set, kept while the rules asked about stay the same (the engine
 * asks about one rule set at a time; the module runs under the GIL). */
static Solver cached_solver;
static int cached_rules[RULE_FIELDS];
static int cached = 0;

static const Solver *solver_for(const int *r) {
    if (!cached || memcmp(r, cached_rules, sizeof(cached_rules))) {
        solver_init(&cached_solver, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
        memcpy(cached_rules, r, sizeof(cached_rules));
        cached = 1;
    }
    return &cached_solver;
}

static const char distance_doc[] =
    "distance(rules, sets, runs, counts, decks=0) -> int\n\n"
    "search.contract_distance of the hand with counts[i] cards of index i (53 counts,\n"
    "0..255): copies unlimited for decks=0, else at most decks copies of each natural in\n"
    "the hand with its added cards (each count at most decks); -1 when no cards can make\n"
    "the contract. rules: (min_set_size, min_run_size, max_jokers_per_meld or -1,\n"
    "min_naturals_in_set, min_naturals_in_run, ace_low, ace_high, separated).";

static PyObject *py_distance(PyObject *self, PyObject *args) {
    PyObject *rules, *counts_seq;
    int sets, runs, decks = 0;
    if (!PyArg_ParseTuple(args, "OiiO|i", &rules, &sets, &runs, &counts_seq, &decks)) return NULL;
    if (sets < 0 || sets > MAXSETS || runs < 0 || runs > MAXRUNS || sets + runs == 0) {
        PyErr_SetString(PyExc_ValueError, "sets and runs out of range");
        return NULL;
    }
    if (decks < 0 || decks > 255) {
        PyErr_SetString(PyExc_ValueError, "decks must be 0..255");
        return NULL;
    }
    int r[RULE_FIELDS], c[53];
    if (read_ints(rules, r, RULE_FIELDS, "rules") < 0 || read_ints(counts_seq, c, 53, "counts") < 0)
        return NULL;
    unsigned char counts[53];
    for (int i = 0; i < 53; i++) {
        if (c[i] < 0 || c[i] > 255 || (decks && i < 52 && c[i] > decks)) {
            PyErr_SetString(PyExc_ValueError, "counts must be 0..255, and at most decks");
            return NULL;
        }
        counts[i] = (unsigned char)c[i];
    }
    const Solver *s = solver_for(r);
    int v;
    if (decks) {
        v = limited_distance(s, counts, sets, runs, decks);
    } else {
        RHand h;
        rhand_from_counts(&h, counts);
        v = distance(s, &h, sets, runs);
    }
    return PyLong_FromLong(v);
}

static PyMethodDef methods[] = {
    {"distance", py_distance, METH_VARARGS, distance_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_distance",
    "The compiled contract distance of rummykit.search (see the comment atop _distance.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__distance(void) {
    contract_init();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* The fixed sizes search.py checks before it calls (tests compare them). */
    if (PyModule_AddIntConstant(m, "MAX_SETS", MAXSETS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_RUNS", MAXRUNS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_COUNT", 255) < 0 ||
        PyModule_AddIntConstant(m, "RULE_FIELDS", RULE_FIELDS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
