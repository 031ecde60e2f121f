/* out.h: torch's out= protocol and Tensor.resize_ (csrc/ops/out.c). An op given out= computes its result
 * as the functional form would, then torch's rules write it into `out`: the autograd refusal, the dtype
 * rule of the op's kind, the device check, at::native::resize_output (with its deprecation warning) and
 * a copy into out's own strides. */
#ifndef MT_OUT_H
#define MT_OUT_H

#include <Python.h>

#include "../core/tensor.h"
#include "../core/memory_format.h"

/* Tensor.resize_(sizes, memory_format): torch's resize_ (resize_impl_cpu_): the same sizes with no
 * format (MT_NUM_MEMORY_FORMATS) keep the geometry; otherwise dense strides of `format` and a storage grown (never shrunk) to hold
 * offset + numel elements. Torch's errors: a tensor that requires grad, negative or overflowing sizes, a
 * storage that is not resizable. 0, or -1 with an exception. */
int mt_resize_(mt_TensorObject *t, int ndim, const int64_t *sizes, mt_memory_format format);

/* resize_output's UserWarning for an out of shape `from` that had elements ("An output with one or more
 * elements was resized since it had shape [2], ..."). 0, or -1 when the warning became an error. */
int mt_warn_out_resized(int from_ndim, const int64_t *from_sizes, int ndim, const int64_t *sizes);

/* at::native::resize_output: nothing when out has the shape already; else torch's UserWarning when out
 * had elements ("An output with one or more elements was resized ..."), then mt_resize_. 0 or -1. */
int mt_resize_output(mt_TensorObject *out, int ndim, const int64_t *sizes);

/* The structured kernels' check of an out= tensor's dtype and device against the result's: RuntimeError
 * "Expected out tensor to have dtype float, but got double instead" (or "... device cuda:0, but got cpu
 * instead"). 0 or -1. */
int mt_out_check_dtype_device(mt_dtype out_dtype, mt_device out_device, mt_dtype dtype, mt_device device);

/* How an op's kind judges out's dtype against the result's. */
typedef enum {
    MT_OUT_CAST,            /* torch.can_cast(result, out) ("result type Float can't be cast to the desired
                             * output type Long", or the op's own message when given) */
    MT_OUT_ITER,            /* TensorIterator's element-wise ops: MT_OUT_CAST, and an out of another dtype
                             * is written through a temporary, so resize_output warns twice */
    MT_OUT_CAT,             /* cat/stack: can_cast, with cat's TypeError */
    MT_OUT_SAME,            /* structured kernels: the same dtype (mt_out_check_dtype_device's message) */
    MT_OUT_MESSAGE          /* the same dtype, with the op's own message: a format with %1$s the result's
                             * dtype name and %2$s out's (torch's "Float", "Double") */
} mt_out_rule;

/* How torch writes out= when the result is a meta tensor. */
typedef enum {
    MT_OUT_META_KERNEL,     /* a C++ meta function (structured kernels): the rule's own words, as on the CPU */
    MT_OUT_META_CAST,       /* torch/_prims_common's out_wrapper over a meta function or reference: out resized,
                             * then "Attempting to copy from device meta to device cpu, but cross-device copies
                             * are not allowed!", then a safe cast (mt_check_can_cast's meta words) */
    MT_OUT_META_EXACT       /* out_wrapper(exact_dtype=True): the same, then the same dtype ("Expected out tensor
                             * to have dtype torch.float32 but got torch.int64 instead") */
} mt_out_meta;

/* out_wrapper's device check of a meta result or input `from` against out: "Attempting to copy from device
 * meta to device cpu, but cross-device copies are not allowed!". torch makes it on the op's first argument
 * before the op runs, when that is a tensor, and on the result after out is resized. 0 or -1. */
int mt_out_check_meta_device(const mt_TensorObject *from, const mt_TensorObject *out);

/* torch/_prims_common's out_wrapper, which writes the result of a meta function or reference into out: out
 * resized, the device (mt_out_check_meta_device), then the same dtype when `exact` ("Expected out tensor to
 * have dtype torch.float32 but got torch.int64 instead") or else a safe cast ("Attempting to cast from ..."),
 * a copy (none from a meta result) and a version bump. New reference to out, or NULL with an exception. */
PyObject *mt_out_write_wrapped(mt_TensorObject *out, mt_TensorObject *r, int exact);

/* Raises torch's VariableType refusal of out= for `op` (below). Returns -1. */
int mt_out_refuse_grad(const char *op);

/* torch's VariableType refusal for a differentiable op: "add(): functions with out=... arguments don't
 * support automatic differentiation, but one of the arguments requires grad." when grad mode is on and
 * `out` or the functional `result` (NULL: not computed yet) requires grad. `op` is torch's op name (an
 * alias's target). 0 or -1. */
int mt_out_check_grad(const char *op, PyObject *result, const mt_TensorObject *out);

/* Writes the functional `result` (a tensor) into out by `rule` (`message` for MT_OUT_MESSAGE): the dtype
 * rule, the device, resize_output, a copy (cast into out's dtype, through out's strides) and a version
 * bump; a meta result or a meta out by `meta` instead. New reference to out, or NULL with an exception. */
PyObject *mt_out_write(mt_TensorObject *out, PyObject *result, mt_out_rule rule, const char *message,
                       mt_out_meta meta);

#endif
