/*
 * rummykit._native._distance: the engine's fast path for search.contract_distance,
 * compiled from the solver that the fast round simulator ports (_contract.c). It needs
 * nothing but Python, so that the engine can import it (through rummykit._native)
 * without rummykit.odds's numpy and polars. search.py decides when it may be used
 * (_core_refusal) and keeps the Python reference; docs/fast-distance.md is the design note.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_contract.h"
#include "_read_ints.h"

/* One solver, kept while the rules asked about stay the same (the engine asks about one
 * rule set at a time; the module runs under the GIL): search.py passes the same tuple of
 * rummykit._native.encode_meld_rules (cached per meld rules) each time, so the tuple
 * last read is kept and a call with that very tuple reads nothing (a tuple of ints cannot
 * change). Another object is read and its solver built anew. */
static Solver cached_solver;
static PyObject *cached_rules = NULL;

static const Solver *solver_for(PyObject *rules) {
    if (rules == cached_rules) return &cached_solver;
    Py_CLEAR(cached_rules);
    if (read_meld_rules(rules, &cached_solver) < 0) return NULL;
    if (PyTuple_CheckExact(rules)) {
        Py_INCREF(rules);
        cached_rules = rules;
    }
    return &cached_solver;
}

static const char distance_doc[] =
    "distance(rules, sets, runs, counts, decks=0) -> int\n\n"
    "search.contract_distance of the hand with counts[i] cards of index i (53 counts,\n"
    "0..255): copies unlimited for decks=0, else at most decks copies of each natural in\n"
    "the hand with its added cards (each count at most decks); -1 when no cards can make\n"
    "the contract. rules: rummykit._native.encode_meld_rules(rules).";

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
    int c[53];
    if (read_ints(counts_seq, c, 53, "counts") < 0) return NULL;
    unsigned char counts[53];
    for (int i = 0; i < 53; i++) {
        if (c[i] < 0 || c[i] > 255 || (decks && i < 52 && c[i] > decks)) {
            PyErr_SetString(PyExc_ValueError, "counts must be 0..255, and at most decks");
            return NULL;
        }
        counts[i] = (unsigned char)c[i];
    }
    const Solver *s = solver_for(rules);
    if (!s) return NULL;
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
    "The compiled contract distance of rummykit.engine.search (see the comment atop _distance.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__distance(void) {
    contract_init();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* The fixed sizes search.py checks before it calls (tests compare them). */
    if (PyModule_AddIntConstant(m, "MAX_SETS", MAXSETS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_RUNS", MAXRUNS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_COUNT", 255) < 0 || add_rules_layout(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
