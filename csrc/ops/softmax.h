/* softmax.h: softmax and log_softmax as C entry points: the tensor, the dim, the dtype= in; a new tensor out,
 * with torch's checks and messages in torch's order. Their Python forms are rows of csrc/python/ops.def
 * (csrc/python/softmax.c reads the arguments). */
#ifndef MT_SOFTMAX_H
#define MT_SOFTMAX_H

#include <Python.h>

#include "../core/tensor.h"

/* The op table's codes for the family's rows (csrc/python/ops.def). */
enum {
    MT_SOFTMAX_SOFTMAX,         /* softmax(input, dim, dtype=None) */
    MT_SOFTMAX_LOG,             /* log_softmax(input, dim, dtype=None) */
    MT_SOFTMAX_INTERNAL,        /* _softmax(input, dim, half_to_float) */
    MT_SOFTMAX_INTERNAL_LOG     /* _log_softmax(input, dim, half_to_float) */
};

/* softmax (log 0) or log_softmax (log 1) of t along dim; dtype (MT_NUM_DTYPES: none) converts t first, as
 * torch's t.to(dtype) (recorded as ToCopyBackward0). Records SoftmaxBackward0 / LogSoftmaxBackward0. */
PyObject *mt_softmax(int log, mt_TensorObject *t, int64_t dim, mt_dtype dtype);

/* torch._softmax / torch._log_softmax(t, dim, half_to_float): half_to_float is an error on the CPU. */
PyObject *mt_softmax_internal(int log, mt_TensorObject *t, int64_t dim, int half_to_float);

/* The gradient of softmax (log 0) / log_softmax (log 1) along dim (wrapped) from grad and the forward's
 * result, by the device's backward kernel (torch's CPU kernels, bit for bit), nothing recorded: 0 with
 * *out the new tensor, 0 with *out NULL where the device has no such kernel or grad and result differ in
 * dtype or device, -1 on an error. */
int mt_softmax_backward_kernel(int log, mt_TensorObject *grad, mt_TensorObject *result, int dim,
                               mt_TensorObject **out);

#endif
