/* copy.c: moving and converting tensor data: copy_ (broadcast, dtype conversion, across devices,
 * non_blocking from pinned memory), fill, and the C entry points of the Tensor methods built on them
 * (copy.h: copy_ and to; cpu, cuda, float, ..., type_as and type are forms of to, read by
 * csrc/python/copy.c through the op table). Elements are converted and filled by the cast and fill
 * kernels of the device's backend (kernels/backend.h), which for host memory read both sides at once;
 * bytes cross between devices in one transfer through the device layer (devices.h), or, for non_blocking
 * copies from or to pinned memory, as one asynchronous copy of the CUDA runtime. */
#include "copy.h"

#include "../autograd/record.h"

#include <string.h>

#include "../core/devices.h"
#include "../runtime/runtime.h"
#include "dispatch.h"
#include "runner.h"
#include "shape.h"
#include "../core/warn.h"

/* dst := src (already of dst's broadcast shape) by the cast kernel of dst's backend, which reads both
 * (both on one device, or both in host memory). */
static int
copy_kernel(mt_TensorObject *dst, mt_TensorObject *src)
{
    const mt_TensorObject *operands[2] = {dst, src};
    mt_iter it;
    int r = 0;

    mt_iter_of_tensors(&it, 2, operands);
    if (it.numel > 0) {
        MT_RUN_BACKEND(r, mt_tensor_device(dst), 0, NULL, 0, cast, &it, dst->dtype, src->dtype);
    }
    return r;
}

static int
check_copy_shapes(mt_TensorObject *dst, mt_TensorObject *src)
{
    int64_t shape[MT_MAX_DIMS];
    int n;

    if (mt_broadcast_shapes(dst->ndim, dst->sizes, src->ndim, src->sizes, &n, shape) < 0) {
        return -1;
    }
    /* torch's meta copy_ words its shape errors as the CPU's */
    return mt_check_out_shape(mt_cpu_device(), dst, n, shape);
}

/* 1 when the bytes of src, read in memory order, are dst's bytes: both dense with the same sizes,
 * strides and dtype (contiguous tensors are the common case). Dense tensors start at their data
 * pointer, since minitorch strides are never negative. */
static int
same_dense_bytes(const mt_TensorObject *dst, const mt_TensorObject *src)
{
    return dst->dtype == src->dtype && dst->ndim == src->ndim &&
           memcmp(dst->sizes, src->sizes, sizeof(int64_t) * (size_t)dst->ndim) == 0 &&
           memcmp(dst->strides, src->strides, sizeof(int64_t) * (size_t)dst->ndim) == 0 &&
           mt_tensor_is_non_overlapping_and_dense(dst);
}

static int
is_pinned_storage(const mt_TensorObject *t)
{
    return t->storage->pinned;
}

/* Moves the bytes of dense `from` into the same-layout `to` across devices. With non_blocking and a
 * pinned host side the copy is queued on the device's stream and this returns at once (torch's
 * non_blocking); the pinned block is marked as in use until the copy is done. */
static int
transfer(mt_TensorObject *to, mt_TensorObject *from, int non_blocking)
{
    mt_device td = mt_tensor_device(to);
    mt_device fd = mt_tensor_device(from);
    size_t nbytes = (size_t)mt_tensor_numel(to) * mt_dtype_size(to->dtype);

#ifdef MINITORCH_WITH_CUDA
    if (non_blocking && !mt_cuda_is_simulated() && nbytes > 0 && (td.type == MT_DEVICE_CPU) != (fd.type == MT_DEVICE_CPU)) {
        int h2d = td.type == MT_DEVICE_CUDA;
        mt_TensorObject *host = h2d ? from : to;
        int device = h2d ? td.index : fd.index;
        if (is_pinned_storage(host)) {
            int err = mt_cuda_memcpy_async(mt_tensor_data(to), td.index, mt_tensor_data(from), fd.index, nbytes,
                                           h2d ? MT_MEMCPY_HOST_TO_DEVICE : MT_MEMCPY_DEVICE_TO_HOST);
            if (err == MT_RT_SUCCESS) {
                err = mt_cuda_host_record(mt_tensor_data(host), device);
            }
            if (err != MT_RT_SUCCESS) {
                mt_kstatus st;
                mt_kstatus_set(&st, MT_KSTATUS_CUDA_ERROR, err, "%s", mt_cuda_runtime()->error_string(err));
                return mt_raise_kstatus(&st);
            }
            return 0;
        }
    }
#else
    (void)non_blocking;
#endif
    return mt_memcpy(mt_tensor_data(to), td, to->storage, mt_tensor_data(from), fd, from->storage, nbytes);
}

int
mt_copy_nonblocking_(mt_TensorObject *dst, mt_TensorObject *src, int non_blocking)
{
    mt_device dd = mt_tensor_device(dst);
    mt_device sd = mt_tensor_device(src);
    mt_TensorObject *staged = NULL;
    mt_TensorObject *landing = NULL;
    const mt_backend *be, *src_be;
    int r = -1;

    if (check_copy_shapes(dst, src) < 0) {
        return -1;
    }
    if (mt_tensor_numel(dst) == 0) {
        /* nothing to move, but torch refuses a copy out of an empty meta tensor too: mt_memcpy's refusal */
        return sd.type == MT_DEVICE_META ? mt_memcpy(NULL, dd, NULL, NULL, sd, NULL, 0) : 0;
    }
    be = mt_backend_for(dd);
    src_be = mt_backend_for(sd);
    if (be == NULL || src_be == NULL) {
        return -1;
    }
    if (be == src_be && (be->host_memory || mt_device_equal(dd, sd))) {
        /* one kernel reads src and writes dst: strides, broadcasting and dtypes in one pass. Views of
         * one storage go through a copy first (the kernel's elements are written in no set order); a
         * host copy's temporary is CPU memory, which takes nothing from a simulated device */
        if (dst->storage == src->storage && src != dst) {
            mt_TensorObject *tmp =
                mt_tensor_empty(src->ndim, src->sizes, src->dtype, be->host_memory ? mt_cpu_device() : sd);
            if (tmp == NULL) {
                return -1;
            }
            r = copy_kernel(tmp, src);
            if (r == 0) {
                r = copy_kernel(dst, tmp);
            }
            Py_DECREF(tmp);
            return r;
        }
        return copy_kernel(dst, src);
    }
    /* Across devices (host <-> CUDA, or two CUDA devices): make the source's bytes match dst's layout
     * and dtype on the source's side, move them in one transfer, and scatter them into dst on its own
     * side when dst is not dense. */
    if (same_dense_bytes(dst, src)) {
        staged = src;
        Py_INCREF(staged);
    }
    else {
        staged = mt_tensor_empty_preserving(dst, dst->dtype, sd);
        if (staged == NULL) {
            return -1;
        }
        if (copy_kernel(staged, src) < 0) {
            goto done;
        }
    }
    if (mt_tensor_is_non_overlapping_and_dense(dst)) {
        r = transfer(dst, staged, non_blocking);
    }
    else {
        landing = mt_tensor_empty_preserving(staged, dst->dtype, dd);
        if (landing == NULL) {
            goto done;
        }
        r = transfer(landing, staged, 0);
        /* the transfer ran without the GIL: dst may have another shape now (t.data = x) */
        if (r == 0) {
            r = check_copy_shapes(dst, landing) < 0 ? -1 : copy_kernel(dst, landing);
        }
    }

done:
    Py_XDECREF(landing);
    Py_XDECREF(staged);
    return r;
}

int
mt_copy_(mt_TensorObject *dst, mt_TensorObject *src)
{
    return mt_copy_nonblocking_(dst, src, 0);
}

int
mt_fill_(mt_TensorObject *dst, mt_scalar value)
{
    const mt_TensorObject *operands[1] = {dst};
    mt_value one;
    mt_iter it;
    int r = 0;

    if (mt_backend_for(mt_tensor_device(dst)) == NULL) {
        return -1;
    }
    if (mt_tensor_numel(dst) == 0) {
        /* nothing to write; the byte strides of a shape like (0, 2**62) would not even fit in int64 */
        return 0;
    }
    /* the value converted once; the fill kernel writes its bits through dst's strides */
    mt_scalar_store(value, dst->dtype, one.bytes);
    mt_iter_of_tensors(&it, 1, operands);
    if (it.numel > 0) {
        MT_RUN_BACKEND(r, mt_tensor_device(dst), 0, NULL, 0, fill, &it, dst->dtype, one);
    }
    return r;
}

static mt_TensorObject *
copy_to(mt_TensorObject *src, mt_dtype dtype, mt_device device, int non_blocking, mt_memory_format format)
{
    mt_TensorObject *dst = mt_tensor_empty_in_format(src, dtype, device, format);
    if (dst == NULL) {
        return NULL;
    }
    if (mt_copy_nonblocking_(dst, src, non_blocking) < 0) {
        Py_DECREF(dst);
        return NULL;
    }
    return dst;
}

mt_TensorObject *
mt_copy_to(mt_TensorObject *src, mt_dtype dtype, mt_device device)
{
    return copy_to(src, dtype, device, 0, MT_PRESERVE_FORMAT);
}

mt_TensorObject *
mt_host_readable(mt_TensorObject *t)
{
    if (mt_device_is_host_memory(mt_tensor_device(t))) {
        Py_INCREF(t);
        return t;
    }
    return mt_copy_to(t, t->dtype, mt_cpu_device());
}

/* ---- copy_ and to -------------------------------------------------------------------------------- */

/* copy_ from a number: torch wraps it as a 0-d tensor (double, int64 or bool; a complex keeps its real
 * part, with torch's warning) and copies that with the copy kernel's conversions. Returns the new 0-d host
 * tensor, made for a copy into `self`, or NULL. */
static mt_TensorObject *
wrap_number(mt_TensorObject *self, mt_scalar s, int is_complex, double imag)
{
    mt_TensorObject *src;
    int64_t no_sizes = 0;

    if (is_complex) {
        double real = s.v.d;
        if (self->dtype == MT_BOOL) {
            s.kind = MT_BOOL;
            s.v.i = real != 0.0 || imag != 0.0;
        }
        else {
            if (mt_warn(PyExc_UserWarning, "Casting complex values to real discards the imaginary part") < 0) {
                return NULL;
            }
            s.kind = MT_FLOAT64;
            s.v.d = real;
        }
        s.is_uint64 = 0;
    }
    if (s.is_uint64 && mt_dtype_is_floating(self->dtype)) {
        /* torch's uint64 tensor converts exactly; its int64 bits serve the integer dtypes and bool */
        s.kind = MT_FLOAT64;
        s.v.d = (double)(uint64_t)s.v.i;
        s.is_uint64 = 0;
    }
    src = mt_tensor_empty(0, &no_sizes, s.kind, mt_cpu_device());
    if (src != NULL) {
        mt_scalar_store(s, s.kind, mt_tensor_data(src));
    }
    return src;
}

/* torch's is_same / is_same_data shortcut of copy_: src is self, or a view with self's exact layout */
static int
same_data(const mt_TensorObject *a, const mt_TensorObject *b)
{
    return a == b || (a->storage == b->storage && a->dtype == b->dtype && a->ndim == b->ndim &&
                      mt_tensor_data(a) == mt_tensor_data(b) &&
                      memcmp(a->sizes, b->sizes, sizeof(int64_t) * (size_t)a->ndim) == 0 &&
                      memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) == 0);
}

int
mt_copy_checked_(mt_TensorObject *dst, mt_TensorObject *src, int non_blocking)
{
    /* TensorIterator refuses to write an expanded tensor, or one that shares some but not all of src's
     * memory (before it looks at shapes), unless src is dst's own data, which copy_ returns at once */
    if (same_data(dst, src)) {
        return 0;
    }
    if (mt_check_no_internal_overlap(dst) < 0 || mt_check_no_partial_overlap(dst, src) < 0) {
        return -1;
    }
    return mt_copy_nonblocking_(dst, src, non_blocking);
}

PyObject *
mt_tensor_copy_(mt_TensorObject *self, mt_TensorObject *tensor, mt_scalar number, int is_complex, double imag,
                int non_blocking)
{
    mt_TensorObject *src = tensor;

    if (src != NULL) {
        Py_INCREF(src);
    }
    else if ((src = wrap_number(self, number, is_complex, imag)) == NULL) {
        return NULL;
    }
    if (mt_ag_check_inplace(self) < 0 ||
        mt_copy_checked_(self, src, non_blocking) < 0 || mt_ag_bump(self) < 0 || mt_ag_copy(self, src) < 0) {
        Py_DECREF(src);
        return NULL;
    }
    Py_DECREF(src);
    Py_INCREF(self);
    return (PyObject *)self;
}

PyObject *
mt_to(mt_TensorObject *self, const mt_device *device, mt_dtype dtype, int copy, int non_blocking,
      mt_memory_format format)
{
    mt_device target = mt_tensor_device(self);
    mt_dtype target_dtype = dtype != MT_NUM_DTYPES ? dtype : self->dtype;

    if (device != NULL && mt_device_resolve(*device, &target) < 0) {
        return NULL;
    }
    /* self when nothing would change (torch's to_will_alias: same dtype and device, no copy=True, and
     * memory_format preserve_format or the one self's strides already suggest) */
    if (!copy && target_dtype == self->dtype && mt_device_equal(target, mt_tensor_device(self)) &&
        (format == MT_PRESERVE_FORMAT || mt_memory_format_suggest(self->ndim, self->sizes, self->strides) == format)) {
        Py_INCREF(self);
        return (PyObject *)self;
    }
    {
        mt_TensorObject *r = copy_to(self, target_dtype, target, non_blocking, format);
        if (r != NULL && mt_ag_view(MT_AG_TO_COPY, self, r, 0, NULL) < 0) {
            Py_CLEAR(r);
        }
        return (PyObject *)r;
    }
}

mt_TensorObject *
mt_tensor_contiguous(mt_TensorObject *t)
{
    mt_TensorObject *c;
    if (mt_tensor_is_contiguous(t)) {
        Py_INCREF(t);
        return t;
    }
    c = mt_tensor_empty(t->ndim, t->sizes, t->dtype, mt_tensor_device(t));
    if (c != NULL && mt_copy_(c, t) < 0) {
        Py_CLEAR(c);
    }
    return c;
}
