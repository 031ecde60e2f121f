/* dispatch.c: type promotion, device and cast checks, shape broadcasting, the choice of a device's
 * kernels and the translation of their status into exceptions, overlap checks and argument collection
 * shared by the op files (see dispatch.h). It decides and raises; it never reads or writes tensor
 * elements and never allocates a tensor, so it stays cheap enough to run on every small-tensor call. */
#include "dispatch.h"

#include <stdio.h>
#include <string.h>

#include "../alloc/caching_allocator.h"
#include "../core/devices.h"
#include "../core/warn.h"

/* ---- type promotion ------------------------------------------------------------------------------ */

#define NO_DTYPE MT_NUM_DTYPES

void
mt_result_type_init(mt_result_type_state *state)
{
    state->dim_result = NO_DTYPE;
    state->zero_result = NO_DTYPE;
    state->wrapped_result = NO_DTYPE;
}

static mt_dtype
promote_skip_undefined(mt_dtype a, mt_dtype b)
{
    if (a == NO_DTYPE) {
        return b;
    }
    if (b == NO_DTYPE) {
        return a;
    }
    return mt_promote_types(a, b);
}

void
mt_result_type_add_tensor(mt_result_type_state *state, const mt_TensorObject *t)
{
    if (t->ndim > 0) {
        state->dim_result = promote_skip_undefined(state->dim_result, t->dtype);
    }
    else {
        state->zero_result = promote_skip_undefined(state->zero_result, t->dtype);
    }
}

mt_dtype
mt_scalar_default_dtype(mt_scalar s)
{
    /* torch wraps a Python float as a double tensor but promotes it as the default dtype */
    if (s.kind == MT_FLOAT64) {
        return mt_default_float_dtype();
    }
    return s.kind;
}

void
mt_result_type_add_scalar(mt_result_type_state *state, mt_scalar s)
{
    state->wrapped_result = promote_skip_undefined(state->wrapped_result, mt_scalar_default_dtype(s));
}

/* torch's combine_categories: the lower-priority class only matters when it is of a higher category
 * (integral over bool, floating over integral); then the two are promoted. */
static mt_dtype
combine_categories(mt_dtype higher, mt_dtype lower)
{
    if (higher != NO_DTYPE && mt_dtype_is_floating(higher)) {
        return higher;
    }
    if (higher == MT_BOOL || (lower != NO_DTYPE && mt_dtype_is_floating(lower))) {
        return promote_skip_undefined(higher, lower);
    }
    if (higher != NO_DTYPE) {
        return higher;
    }
    return lower;
}

mt_dtype
mt_result_type_get(const mt_result_type_state *state)
{
    return combine_categories(state->dim_result,
                              combine_categories(state->zero_result, state->wrapped_result));
}

mt_dtype
mt_result_type(int n, const mt_operand *ops)
{
    mt_result_type_state state;

    mt_result_type_init(&state);
    for (int i = 0; i < n; i++) {
        if (ops[i].tensor != NULL) {
            mt_result_type_add_tensor(&state, ops[i].tensor);
        }
        else {
            mt_result_type_add_scalar(&state, ops[i].scalar);
        }
    }
    return mt_result_type_get(&state);
}

/* ---- shapes and kernel geometry ------------------------------------------------------------------ */

int
mt_broadcast_shapes_on(mt_device device, int n, const int *ndims, const int64_t *const *shapes, int *nout,
                       int64_t *out)
{
    /* torch's meta kernels broadcast every shape at once (torch/_refs' _broadcast_shapes): the common
     * shape has the longest rank from the start, each shape in turn is compared from its last dim and
     * the message names the shape's index and the common shape as it stands then. The CPU and cuda
     * kernels broadcast two shapes at a time (infer_size): shape k against the shapes before it. */
    int nmax = 0, nsofar = 0;
    char had[1024], common[1024];

    for (int k = 0; k < n; k++) {
        nmax = ndims[k] > nmax ? ndims[k] : nmax;
    }
    for (int d = 0; d < nmax; d++) {
        out[d] = 1;
    }
    for (int k = 0; k < n; k++) {
        nsofar = ndims[k] > nsofar ? ndims[k] : nsofar;
        for (int i = 0; i < ndims[k]; i++) {
            /* i counts from the trailing dim */
            int64_t sa = out[nmax - 1 - i];
            int64_t sb = shapes[k][ndims[k] - 1 - i];
            if (sa == sb || sb == 1) {
                continue;
            }
            if (sa == 1) {
                out[nmax - 1 - i] = sb;
                continue;
            }
            if (device.type == MT_DEVICE_META) {
                mt_format_shape(ndims[k], shapes[k], had, sizeof(had));
                mt_format_shape(nmax, out, common, sizeof(common));
                PyErr_Format(PyExc_RuntimeError,
                             "Attempting to broadcast a dimension of length %lld at %d! Mismatching argument at "
                             "index %d had minitorch.Size(%s); but expected shape should be broadcastable to %s",
                             (long long)sb, -1 - i, k, had, common);
            }
            else {
                PyErr_Format(PyExc_RuntimeError,
                             "The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                             "non-singleton dimension %d",
                             (long long)sa, (long long)sb, nsofar - 1 - i);
            }
            return -1;
        }
    }
    *nout = nmax;
    return 0;
}

int
mt_broadcast_operands(int n, mt_TensorObject *const *tensors, int *nout, int64_t *out)
{
    int ndims[MT_ITER_MAX_OPS];
    const int64_t *shapes[MT_ITER_MAX_OPS];
    mt_device device = mt_cpu_device();

    for (int k = 0; k < n; k++) {
        ndims[k] = tensors[k] != NULL ? tensors[k]->ndim : 0;
        shapes[k] = tensors[k] != NULL ? tensors[k]->sizes : NULL;
        if (tensors[k] != NULL && mt_tensor_device(tensors[k]).type == MT_DEVICE_META) {
            device = mt_tensor_device(tensors[k]);
        }
    }
    return mt_broadcast_shapes_on(device, n, ndims, shapes, nout, out);
}

int
mt_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out)
{
    const int ndims[2] = {na, nb};
    const int64_t *const shapes[2] = {a, b};
    int64_t common[MT_MAX_DIMS];

    /* out may be a or b: the common shape is built apart */
    if (mt_broadcast_shapes_on(mt_cpu_device(), 2, ndims, shapes, nout, common) < 0) {
        return -1;
    }
    memcpy(out, common, sizeof(int64_t) * (size_t)*nout);
    return 0;
}

int
mt_check_out_shape(mt_device device, const mt_TensorObject *out, int ndim, const int64_t *shape)
{
    char a[1024], b[1024];

    if (out->ndim == ndim && memcmp(out->sizes, shape, sizeof(int64_t) * (size_t)ndim) == 0) {
        return 0;
    }
    mt_format_shape(out->ndim, out->sizes, a, sizeof(a));
    mt_format_shape(ndim, shape, b, sizeof(b));
    if (device.type == MT_DEVICE_META) {
        /* torch's meta check (check_inplace_broadcast) prints a Size and a Python tuple: (4, 2, 3), (4,) */
        b[0] = '(';
        b[strlen(b) - 1] = '\0';
        PyErr_Format(PyExc_RuntimeError, "output with shape minitorch.Size(%s) doesn't match the broadcast shape %s%s)",
                     a, b, ndim == 1 ? "," : "");
        return -1;
    }
    PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a, b);
    return -1;
}

void
mt_iter_add_tensor(mt_iter *it, const mt_TensorObject *t)
{
    mt_iter_add(it, mt_tensor_data(t), t->ndim, t->sizes, t->strides, mt_dtype_size(t->dtype));
}

/* ---- storages held while the GIL is released ----------------------------------------------------- */

void
mt_hold_storages(mt_storage **held, int n, const mt_TensorObject *const *operands)
{
    for (int i = 0; i < n; i++) {
        held[i] = operands[i] != NULL ? operands[i]->storage : NULL;
        if (held[i] != NULL) {
            mt_storage_incref(held[i]);
        }
    }
}

void
mt_release_storages(mt_storage **held, int n)
{
    for (int i = 0; i < n; i++) {
        if (held[i] != NULL) {
            mt_storage_decref(held[i]);
        }
    }
}

/* ---- device checks ------------------------------------------------------------------------------- */

int
mt_raise_meta_device_mismatch(mt_device expected, mt_device found)
{
    char a[32], b[32];

    mt_device_format(found, a, sizeof(a));
    mt_device_format(expected, b, sizeof(b));
    PyErr_Format(PyExc_RuntimeError, "Tensor on device %s is not on the expected device %s!", a, b);
    return -1;
}

int
mt_raise_no_meta_kernel(const char *op)
{
    PyErr_Format(PyExc_NotImplementedError,
                 "%s: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel "
                 "registered. You may have run into this message while using an operator with PT2 compilation APIs "
                 "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a "
                 "fake impl. Please see the following for next steps:  "
                 "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html", op);
    return -1;
}

/* The meta kernels' order: the first input that is not a 0-d CPU tensor is expected, then `out`. */
static int
meta_device_mismatch(mt_TensorObject *out, int n, mt_TensorObject *const *inputs)
{
    mt_device expected = mt_cpu_device();
    int found = 0;

    for (int i = 0; i <= n; i++) {
        mt_TensorObject *t = i < n ? inputs[i] : out;
        if (t == NULL || (t->ndim == 0 && mt_tensor_device(t).type == MT_DEVICE_CPU)) {
            continue;
        }
        if (!found) {
            expected = mt_tensor_device(t);
            found = 1;
        }
        else if (!mt_device_equal(mt_tensor_device(t), expected)) {
            return mt_raise_meta_device_mismatch(expected, mt_tensor_device(t));
        }
    }
    return mt_raise_meta_device_mismatch(expected, out != NULL ? mt_tensor_device(out) : expected);
}

static int
device_mismatch(mt_device common, mt_device other)
{
    char a[32], b[32];

    mt_device_format(common, a, sizeof(a));
    mt_device_format(other, b, sizeof(b));
    PyErr_Format(PyExc_RuntimeError,
                 "Expected all tensors to be on the same device, but found at least two devices, %s and %s!",
                 a, b);
    return -1;
}

int
mt_check_same_device(mt_TensorObject *out, int n, mt_TensorObject *const *inputs, mt_device *common)
{
    mt_device dev = mt_cpu_device();
    int found = 0;

    /* the first non-CPU operand, output first, decides (TensorIteratorBase::compute_types) */
    if (out != NULL && mt_tensor_device(out).type != MT_DEVICE_CPU) {
        dev = mt_tensor_device(out);
        found = 1;
    }
    for (int i = 0; !found && i < n; i++) {
        if (inputs[i] != NULL && mt_tensor_device(inputs[i]).type != MT_DEVICE_CPU) {
            dev = mt_tensor_device(inputs[i]);
            found = 1;
        }
    }
    if (found) {
        if (out != NULL && !mt_device_equal(mt_tensor_device(out), dev)) {
            return dev.type == MT_DEVICE_META || mt_tensor_device(out).type == MT_DEVICE_META
                       ? meta_device_mismatch(out, n, inputs)
                       : device_mismatch(dev, mt_tensor_device(out));
        }
        for (int i = 0; i < n; i++) {
            mt_TensorObject *t = inputs[i];
            if (t == NULL || mt_device_equal(mt_tensor_device(t), dev)) {
                continue;
            }
            /* a 0-d CPU input is read as a scalar by the kernel, wherever the kernel runs */
            if (t->ndim == 0 && mt_tensor_device(t).type == MT_DEVICE_CPU) {
                continue;
            }
            return dev.type == MT_DEVICE_META || mt_tensor_device(t).type == MT_DEVICE_META
                       ? meta_device_mismatch(out, n, inputs)
                       : device_mismatch(dev, mt_tensor_device(t));
        }
    }
    *common = dev;
    return 0;
}

int
mt_check_can_cast(mt_device device, mt_dtype result, mt_dtype out)
{
    if (result == out || mt_can_cast(result, out)) {
        return 0;
    }
    if (device.type == MT_DEVICE_META) {
        /* torch's meta functions and references write their result with torch/_prims_common's check */
        PyErr_Format(PyExc_RuntimeError,
                     "Attempting to cast from minitorch.%s to out tensor with dtype minitorch.%s, but this can't be "
                     "cast because it is not safe!",
                     mt_dtype_name(result), mt_dtype_name(out));
        return -1;
    }
    PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                 mt_dtype_scalar_name(result), mt_dtype_scalar_name(out));
    return -1;
}


/* ---- kernels: the backend of a device, and what its status means in Python ----------------------- */

const mt_backend *
mt_backend_for(mt_device d)
{
    if (mt_device_is_host_memory(d)) {
        return &mt_cpu_backend;
    }
    if (d.type == MT_DEVICE_META) {
        return &mt_meta_backend;
    }
    if (mt_cuda_backend == NULL) {
        PyErr_SetString(PyExc_AssertionError, "minitorch not compiled with CUDA enabled");
    }
    return mt_cuda_backend;
}

/* Temporaries of a CUDA device's kernels: its caching allocator, with the allocator's errors. */
static int
scratch_alloc(int device, size_t nbytes, void **ptr, mt_kstatus *st)
{
    int err = mt_cuda_malloc_raw(device, nbytes, ptr, st->message, sizeof(st->message));

    switch (err) {
    case MT_ALLOC_OK:
        return 0;
    case MT_ALLOC_ERR_OOM:
        st->kind = MT_KSTATUS_OUT_OF_MEMORY;
        return -1;
    case MT_ALLOC_ERR_HOST_MEMORY:
        st->kind = MT_KSTATUS_NO_MEMORY;
        return -1;
    default:
        st->kind = MT_KSTATUS_ACCELERATOR_ERROR;
        return -1;
    }
}

void
mt_kctx_init(mt_kctx *ctx, mt_device d)
{
    ctx->device = d.index;
    ctx->scratch_alloc = scratch_alloc;
    ctx->scratch_free = mt_cuda_free;
    ctx->status.kind = MT_KSTATUS_OK;
    ctx->status.code = 0;
    ctx->status.message[0] = '\0';
    ctx->status.warning[0] = '\0';
}

int
mt_raise_kstatus(const mt_kstatus *st)
{
    switch (st->kind) {
    case MT_KSTATUS_OK:
        return 0;
    case MT_KSTATUS_CUDA_ERROR:
        /* torch's C10_CUDA_CHECK text; AcceleratorError is a RuntimeError, as torch.AcceleratorError */
        PyErr_Format(mt_AcceleratorError,
                     "CUDA error: %s\n"
                     "CUDA kernel errors might be asynchronously reported at some other API call, so the "
                     "stacktrace below might be incorrect.\n"
                     "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
                     "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
                     st->message);
        return -1;
    case MT_KSTATUS_OUT_OF_MEMORY:
        PyErr_SetString(mt_OutOfMemoryError, st->message);
        return -1;
    case MT_KSTATUS_NO_MEMORY:
        PyErr_NoMemory();
        return -1;
    case MT_KSTATUS_ACCELERATOR_ERROR:
        PyErr_SetString(mt_AcceleratorError, st->message);
        return -1;
    default:
        PyErr_SetString(PyExc_RuntimeError, st->message);
        return -1;
    }
}

int
mt_kernel_result(const mt_kctx *ctx, int rc)
{
    if (rc != 0) {
        return mt_raise_kstatus(&ctx->status);
    }
    if (ctx->status.warning[0] != '\0' && mt_warn(PyExc_UserWarning, ctx->status.warning) < 0) {
        return -1;
    }
    return 0;
}

/* ---- memory overlap ------------------------------------------------------------------------------ */

int
mt_has_internal_overlap(const mt_TensorObject *t)
{
    if (mt_tensor_is_contiguous(t)) {
        return 0;
    }
    for (int d = 0; d < t->ndim; d++) {
        if (t->strides[d] == 0 && t->sizes[d] > 1) {
            return 1;
        }
    }
    return 0;
}

int
mt_check_no_internal_overlap(const mt_TensorObject *out)
{
    if (mt_has_internal_overlap(out)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "unsupported operation: more than one element of the written-to tensor refers to a single "
                        "memory location. Please clone() the tensor before performing the operation.");
        return -1;
    }
    return 0;
}

/* torch's get_overlap_status of two tensors' memory. */
typedef enum { OVERLAP_NO, OVERLAP_FULL, OVERLAP_PARTIAL, OVERLAP_TOO_HARD } overlap_status;

static overlap_status
get_overlap_status(const mt_TensorObject *a, const mt_TensorObject *b)
{
    int64_t na, nb;
    const char *a_begin, *a_end, *b_begin, *b_end;

    if (a == b) {
        return OVERLAP_FULL;
    }
    if (a->storage != b->storage) {
        return OVERLAP_NO;     /* torch may say "too hard" first: neither raises */
    }
    na = mt_tensor_numel(a);
    nb = mt_tensor_numel(b);
    if (na == 0 || nb == 0) {
        return OVERLAP_NO;
    }
    /* only dense layouts are judged; anything else is "too hard" and allowed */
    if (!mt_tensor_is_non_overlapping_and_dense(a) || !mt_tensor_is_non_overlapping_and_dense(b)) {
        return OVERLAP_TOO_HARD;
    }
    a_begin = mt_tensor_data(a);
    a_end = a_begin + na * (int64_t)mt_dtype_size(a->dtype);
    b_begin = mt_tensor_data(b);
    b_end = b_begin + nb * (int64_t)mt_dtype_size(b->dtype);
    if (a_begin == b_begin && a_end == b_end) {
        return a->ndim == b->ndim && memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) == 0
                   ? OVERLAP_FULL
                   : OVERLAP_PARTIAL;
    }
    return a_begin < b_end && b_begin < a_end ? OVERLAP_PARTIAL : OVERLAP_NO;
}

static int
raise_overlap(void)
{
    PyErr_SetString(PyExc_RuntimeError,
                    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                    "single memory location. Please clone() the tensor before performing the operation.");
    return -1;
}

int
mt_check_no_partial_overlap(const mt_TensorObject *out, const mt_TensorObject *in)
{
    return get_overlap_status(out, in) == OVERLAP_PARTIAL ? raise_overlap() : 0;
}

int
mt_check_no_overlap(const mt_TensorObject *out, const mt_TensorObject *in)
{
    overlap_status lap = get_overlap_status(out, in);
    return lap == OVERLAP_PARTIAL || lap == OVERLAP_FULL ? raise_overlap() : 0;
}

int
mt_same_memory(const mt_TensorObject *a, const mt_TensorObject *b)
{
    return get_overlap_status(a, b) == OVERLAP_FULL;
}

int
mt_check_out_none(const char *fname, PyObject *out)
{
    if (out != NULL && out != Py_None) {
        PyErr_Format(PyExc_NotImplementedError, "%s(): the out= argument is not supported by minitorch yet",
                     fname);
        return -1;
    }
    return 0;
}
