/* Reading a Python sequence of small integers into a C array: shared by the compiled
   round simulator (_table.c) and the compiled contract distance (../_distance.c). Include
   after <Python.h>. */
#ifndef RUMMYKIT_READ_INTS_H
#define RUMMYKIT_READ_INTS_H

/* Read exactly n integers of seq into out; -1 with a Python error set (named by what)
   when seq is not a sequence of n integers. */
static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd integers", what, n);
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
    return 0;
}

#endif
