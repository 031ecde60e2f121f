/* sort.h: sort, argsort and topk along a dim as C entry points, with torch's checks and messages, and
 * (values, indices) pairs, which the op table names return_types.sort / topk. Their Python forms are rows
 * of csrc/python/ops.def (csrc/python/sort.c reads the arguments). */
#ifndef MT_SORT_H
#define MT_SORT_H

#include <Python.h>

#include "../core/tensor.h"

/* The op table's codes for the family's rows. */
enum {
    MT_SORT_SORT,
    MT_SORT_ARGSORT,
    MT_SORT_TOPK
};

/* sort(t, dim, descending) as (values, indices); has_stable: the overload with stable= (SortBackward1). */
PyObject *mt_sort(mt_TensorObject *t, int64_t dim, int descending, int has_stable);

/* argsort: sort's indices. */
PyObject *mt_argsort(mt_TensorObject *t, int64_t dim, int descending);

/* topk(t, k, dim, largest, sorted) as (values, indices). */
PyObject *mt_topk(mt_TensorObject *t, int64_t k, int64_t dim, int largest, int sorted);

#endif
