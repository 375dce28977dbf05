/* What the extension's Python types share (_vector.c: Batch, _deal.c: Deal). */
#ifndef PREFERANS_PC_PY_H
#define PREFERANS_PC_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pc.h"

#define NRULES 18

/* The 18 numbers of vector_claim.core_parameters as a pc_rules: 0, or -1 with an error. */
int pc_py_rules(PyObject *seq, pc_rules *r);

/* preferans.env._vector.Deal: one deal, its cards dealt one chance outcome at a time. */
extern PyTypeObject pc_DealType;

/* float_list(buffer) -> list[float] of a float32 buffer (_floats.c). */
PyObject *pc_float_list(PyObject *module, PyObject *arg);

#endif
