/* rearrange.h: the ops that move elements without computing (csrc/ops/rearrange.c): flip, roll, repeat,
 * tile and movedim. New references, or NULL with torch's exception. */
#ifndef MT_OPS_REARRANGE_H
#define MT_OPS_REARRANGE_H

#include <Python.h>
#include <stdint.h>

#include "../core/tensor.h"

PyObject *mt_flip(mt_TensorObject *t, int ndims, const int64_t *dims);
PyObject *mt_roll(mt_TensorObject *t, int nshifts, const int64_t *shifts, int ndims, const int64_t *dims);
PyObject *mt_repeat(mt_TensorObject *t, int n, const int64_t *repeats);
PyObject *mt_tile(mt_TensorObject *t, int n, const int64_t *dims);
PyObject *mt_movedim(mt_TensorObject *t, int n, const int64_t *source, int m, const int64_t *destination);

#endif
