/* preferans.env._vector.float_list: a float32 buffer as a list of Python floats, the
 * shape OpenSpiel's Python API gives a tensor in.  Tensors are mostly 0 and 1: those two
 * values share one float object each (as numpy's tolist would not), so a list of a few
 * thousand entries costs little more than the list itself. */
#include <string.h>

#include "pc_py.h"

static PyObject *zero, *one;

PyObject *pc_float_list(PyObject *module, PyObject *arg)
{
    (void)module;
    Py_buffer v;
    if (PyObject_GetBuffer(arg, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (v.itemsize != 4 || !v.format || strcmp(v.format, "f")) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "float_list needs a contiguous float32 buffer");
        return NULL;
    }
    if (!zero && (!(zero = PyFloat_FromDouble(0.0)) || !(one = PyFloat_FromDouble(1.0)))) {
        Py_CLEAR(zero);
        PyBuffer_Release(&v);
        return NULL;
    }
    Py_ssize_t n = v.len / 4;
    const float *x = v.buf;
    PyObject *list = PyList_New(n);
    if (!list) {
        PyBuffer_Release(&v);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item;
        if (x[i] == 0.0f) {
            item = zero;
            Py_INCREF(item);
        } else if (x[i] == 1.0f) {
            item = one;
            Py_INCREF(item);
        } else if (!(item = PyFloat_FromDouble((double)x[i]))) {
            Py_DECREF(list);
            PyBuffer_Release(&v);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    PyBuffer_Release(&v);
    return list;
}
