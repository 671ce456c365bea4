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

static const char find_doc[] =
    "find(rules, sets, runs, cards) -> plan, None or NotImplemented\n\n"
    "search._solve of the hand `cards` (a list or tuple of objects whose `index` is an\n"
    "int, 0..51 a natural, 52 a joker), as search.find_contract asks it: the plan\n"
    "((suit, start, used), ...), ((rank, sets), ...)) with used a tuple of bools per\n"
    "position of the run (a natural of the hand, else a joker), or None when the hand\n"
    "holds no arrangement. NotImplemented when the core does not implement the case\n"
    "(an index not an int of 0..52, more than 255 copies, a contract or rules beyond its\n"
    "fixed sizes): the caller asks the Python reference. rules:\n"
    "rummykit._native.encode_meld_rules(rules).";

/* The attribute every card has (Card.index), interned once. */
static PyObject *index_name = NULL;

static PyObject *refuse(void) {
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *plan_object(const Plan *plan) {
    PyObject *runs = PyTuple_New(plan->nruns), *sets = PyTuple_New(plan->nsets);
    if (!runs || !sets) goto fail;
    for (int i = 0; i < plan->nruns; i++) {
        PyObject *used = PyTuple_New(plan->len[i]);
        if (!used) goto fail;
        for (int q = 0; q < plan->len[i]; q++) {
            PyObject *flag = plan->used[i][q] ? Py_True : Py_False;
            Py_INCREF(flag);
            PyTuple_SET_ITEM(used, q, flag);
        }
        PyObject *run = Py_BuildValue("(iiN)", plan->suit[i], plan->start[i], used);
        if (!run) goto fail;
        PyTuple_SET_ITEM(runs, i, run);
    }
    for (int i = 0; i < plan->nsets; i++) {
        PyObject *set = Py_BuildValue("(ii)", plan->srank[i], plan->sk[i]);
        if (!set) goto fail;
        PyTuple_SET_ITEM(sets, i, set);
    }
    return Py_BuildValue("(NN)", runs, sets);
fail:
    Py_XDECREF(runs);
    Py_XDECREF(sets);
    return NULL;
}

static PyObject *py_find(PyObject *self, PyObject *args) {
    PyObject *rules, *cards;
    int sets, runs;
    if (!PyArg_ParseTuple(args, "OiiO", &rules, &sets, &runs, &cards)) return NULL;
    if (!PyList_Check(cards) && !PyTuple_Check(cards)) {
        PyErr_SetString(PyExc_TypeError, "find: cards must be a list or a tuple");
        return NULL;
    }
    if (sets < 0 || sets > MAXSETS || runs < 0 || runs > MAXRUNS || sets + runs == 0)
        Py_RETURN_NOTIMPLEMENTED;
    int c[53] = {0};
    /* (The size and each item are read afresh, each item held while its attribute is
     * read: an object's attribute lookup may run code that changes the list.) */
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(cards); i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(cards, i);
        Py_INCREF(item);
        PyObject *index = PyObject_GetAttr(item, index_name);
        Py_DECREF(item);
        if (!index) return refuse();
        long v = PyLong_CheckExact(index) ? PyLong_AsLong(index) : -1;
        Py_DECREF(index);
        if (v < 0 || v > 52 || ++c[v] > 255) return refuse();
    }
    unsigned char counts[53];
    for (int i = 0; i < 53; i++) counts[i] = (unsigned char)c[i];
    const Solver *s = solver_for(rules);
    if (!s) return refuse();
    RHand h;
    rhand_from_counts(&h, counts);
    Plan plan;
    if (!solve(s, &h, sets, runs, &plan)) Py_RETURN_NONE;
    return plan_object(&plan);
}

static PyMethodDef methods[] = {
    {"distance", py_distance, METH_VARARGS, distance_doc},
    {"find", py_find, METH_VARARGS, find_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_distance",
    "The compiled contract distance of rummykit.engine.search (see the comment atop _distance.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__distance(void) {
    contract_init();
    if (!index_name && !(index_name = PyUnicode_InternFromString("index"))) return NULL;
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
