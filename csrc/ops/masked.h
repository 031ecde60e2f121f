/* masked.h: masked_fill (and masked_fill_), masked_select and take (csrc/ops/masked.c). New references,
 * or NULL with torch's exception. */
#ifndef MT_OPS_MASKED_H
#define MT_OPS_MASKED_H

#include <Python.h>

#include "../core/scalar.h"
#include "../core/tensor.h"

/* value_tensor: the 0-d tensor overload (NULL: the number `value`). */
PyObject *mt_masked_fill(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *value_tensor, mt_scalar value,
                         int inplace);
/* masked_fill_'s mask check: RuntimeError "masked_fill_ only supports boolean masks, ..." unless bool. */
int mt_check_masked_fill_mask(mt_TensorObject *mask);
PyObject *mt_masked_select(mt_TensorObject *self, mt_TensorObject *mask);
PyObject *mt_take(mt_TensorObject *self, mt_TensorObject *index);
/* masked_scatter (inplace: masked_scatter_): source's first elements, in order, where the bool mask
 * (broadcast with self; expanded to self's shape in place) is True. */
PyObject *mt_masked_scatter(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *source, int inplace);

#endif
