/* copy.h: copying elements between tensors: broadcasting the source to the destination's shape,
 * converting dtypes, and moving between devices (host, simulated GPU, CUDA). Every path that moves or
 * converts data (contiguous, to, clone, setitem, type promotion of operands) comes through here. */
#ifndef MT_COPY_H
#define MT_COPY_H

#include "../core/scalar.h"
#include "../core/tensor.h"

/* dst[...] = src, src broadcast to dst's shape (torch's copy_ rules and errors). 0 or -1. */
int mt_copy_(mt_TensorObject *dst, mt_TensorObject *src);

/* copy_ with torch's non_blocking: when set and the host side is pinned memory (Tensor.pin_memory()),
 * a host<->CUDA transfer is queued asynchronously and this returns before it completes (the caller
 * synchronizes before reading a pinned destination, as in torch). Otherwise exactly mt_copy_. */
int mt_copy_nonblocking_(mt_TensorObject *dst, mt_TensorObject *src, int non_blocking);

/* Returns `t` itself (new reference) if contiguous, else a contiguous copy. */
mt_TensorObject *mt_tensor_contiguous(mt_TensorObject *t);
/* Tensor.copy_'s whole behaviour: nothing when src is dst's own data (same storage, offset and
 * geometry); else torch's overlap checks before anything else (an expanded dst, or a src sharing some
 * but not all of dst's memory, raise torch's RuntimeError), then mt_copy_nonblocking_. 0 or -1. */
int mt_copy_checked_(mt_TensorObject *dst, mt_TensorObject *src, int non_blocking);

/* Fills every element of dst with `value` converted to dst's dtype. 0 or -1. */
int mt_fill_(mt_TensorObject *dst, mt_scalar value);

/* A new contiguous tensor with src's values converted to `dtype` on `device`. */
mt_TensorObject *mt_copy_to(mt_TensorObject *src, mt_dtype dtype, mt_device device);

/* t itself (a new reference) when host code can read its memory (the CPU's and the simulated GPU's: the
 * device registry knows), else a contiguous copy on the CPU: for the few values the op layer reads
 * itself (item(), tolist(), index tensors). */
mt_TensorObject *mt_host_readable(mt_TensorObject *t);

/* self.copy_(src, non_blocking): from `tensor`, or when it is NULL from a number (`number`; a complex one
 * is number.v.d + imag j), as torch does it. Returns self (new reference), or NULL with torch's error. */
PyObject *mt_tensor_copy_(mt_TensorObject *self, mt_TensorObject *tensor, mt_scalar number, int is_complex,
                          double imag, int non_blocking);

/* self.to(device, dtype, non_blocking, copy, memory_format): device NULL and dtype MT_NUM_DTYPES keep
 * self's. Returns self itself when nothing would change (torch's to_will_alias), else a converted copy
 * laid out in `format`; non_blocking makes a copy from pinned host memory asynchronous. */
PyObject *mt_to(mt_TensorObject *self, const mt_device *device, mt_dtype dtype, int copy, int non_blocking,
                mt_memory_format format);

#endif
