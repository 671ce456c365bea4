/* Reading a Python sequence of small integers into a C array, and the meld rules into a
   solver: shared by the compiled
   round simulator (_table.c) and the compiled contract distance (_distance.c). Include
   after <Python.h>. */
#ifndef RUMMYKIT_READ_INTS_H
#define RUMMYKIT_READ_INTS_H

/* Read the integers of seq into out: exactly `most` of them when exact, else at most
   `most`. Their number, or -1 with a Python error set (named by what) when seq is not
   such a sequence of integers. */
static Py_ssize_t read_some_ints(PyObject *seq, int *out, Py_ssize_t most, int exact,
                                 const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (exact ? n != most : n > most) {
        PyErr_Format(PyExc_ValueError, "%s: expected %s%zd integers", what, exact ? "" : "at most ", most);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return n;
}

/* Read exactly n integers of seq into out; -1 with a Python error set (named by what)
   when seq is not a sequence of n integers. */
static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    return read_some_ints(seq, out, n, 1, what) < 0 ? -1 : 0;
}

/* Read the meld rules of rummykit._native.encode_meld_rules (at most MAX_RULE_INTS
   integers, _contract.h) into s; -1 with a ValueError naming what does not fit. */
static int read_meld_rules(PyObject *seq, Solver *s) {
    int r[MAX_RULE_INTS];
    Py_ssize_t n = read_some_ints(seq, r, MAX_RULE_INTS, 0, "rules");
    if (n < 0) return -1;
    const char *why = solver_init(s, r, (int)n);
    if (why) {
        PyErr_Format(PyExc_ValueError, "rules: %s", why);
        return -1;
    }
    return 0;
}

/* The meld rules' layout as module constants, for the tests to compare with Python's. */
static int add_rules_layout(PyObject *m) {
    if (PyModule_AddIntConstant(m, "RULES_HEADER", RULES_HEADER) < 0 ||
        PyModule_AddIntConstant(m, "WINDOW_FIELDS", WINDOW_FIELDS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_WINDOWS", MAXW) < 0)
        return -1;
    return 0;
}

#endif
