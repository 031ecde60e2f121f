/* runner.c: how an op runs a kernel (runner.h): TensorIterator's layout of a pointwise result (its fast
 * setup and reorder_dimensions), the result's allocation, the iterator and the backend call. It never
 * touches elements itself. */
#include "runner.h"

#include <string.h>

#include "../kernels/cpu/elementwise.h"
#include "../kernels/cpu/parallel.h"

void
mt_iter_of_tensors(mt_iter *it, int n, const mt_TensorObject *const *tensors)
{
    mt_iter_init(it, tensors[0]->ndim, tensors[0]->sizes);
    for (int k = 0; k < n; k++) {
        if (tensors[k] != NULL) {
            mt_iter_add_tensor(it, tensors[k]);
        }
    }
    mt_iter_coalesce(it);
}

void
mt_lines_along(const mt_TensorObject *x, int dim, int64_t *outer, int64_t *n, int64_t *inner)
{
    *outer = 1;
    *inner = 1;
    *n = x->ndim > 0 ? x->sizes[dim] : 1;
    for (int d = 0; d < x->ndim; d++) {
        if (d < dim) {
            *outer *= x->sizes[d];
        }
        else if (d > dim) {
            *inner *= x->sizes[d];
        }
    }
}

/* ---- pointwise inputs -------------------------------------------------------------------------------- */

void
mt_pointwise_input_init(mt_pointwise_input *in, const mt_operand *op, mt_dtype compute, mt_device device)
{
    in->device_value = NULL;
    if (op->tensor != NULL && op->tensor->ndim > 0) {
        in->tensor = op->tensor;
        return;
    }
    in->tensor = NULL;
    if (op->tensor != NULL && mt_device_equal(mt_tensor_device(op->tensor), device)) {
        in->device_value = op->tensor;
        return;
    }
    if (op->tensor != NULL) {
        mt_scalar s = mt_scalar_load(op->tensor->dtype, mt_tensor_data(op->tensor));
        mt_scalar_store(s, compute, in->slot.bytes);
    }
    else {
        mt_scalar s = op->scalar;
        if (s.kind == MT_INT64 && s.is_uint64 && mt_dtype_is_floating(compute)) {
            /* a Python int in [2**63, 2**64): its value, not its int64 bit pattern (integer dtypes wrap
             * it, as torch does) */
            s.kind = MT_FLOAT64;
            s.v.d = (double)(uint64_t)s.v.i;
        }
        mt_scalar_store(s, compute, in->slot.bytes);
    }
}

/* ---- result layout (TensorIterator's fast setup and reorder_dimensions) -------------------------- */

typedef struct {
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    int linear;                     /* every tensor shares one dense layout: a single flat loop */
    int out_contiguous;             /* a new output is plain contiguous */
    int64_t out_strides[MT_MAX_DIMS];
    int perm[MT_MAX_DIMS];          /* !linear: perm[0] is the fastest-moving tensor dim */
} layout_plan;

static int
same_sizes(const mt_TensorObject *t, int ndim, const int64_t *shape)
{
    return t->ndim == ndim && memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)ndim) == 0;
}

static int
same_strides(const mt_TensorObject *a, const mt_TensorObject *b)
{
    return memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) == 0;
}

void
mt_reorder_dims(int ndim, const int64_t *shape, int nops, int64_t (*strides)[MT_MAX_DIMS], int *perm)
{
    for (int i = 0; i < ndim; i++) {
        perm[i] = ndim - 1 - i;
    }
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int d0 = perm[dim0];
            int d1 = perm[dim1];
            int cmp = 0;
            for (int k = 0; k < nops; k++) {
                int64_t s0 = strides[k][d0];
                int64_t s1 = strides[k][d1];
                if (s0 == 0 || s1 == 0) {
                    continue;
                }
                if (s0 < s1) {
                    cmp = -1;
                    break;
                }
                if (s0 > s1) {
                    cmp = 1;
                    break;
                }
                if (shape[d0] > shape[d1]) {
                    cmp = 1;
                    break;
                }
            }
            if (cmp > 0) {
                int tmp = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = tmp;
                dim1 = dim0;
            }
            else if (cmp < 0) {
                break;
            }
        }
    }
}

/* The operands' strides over the result dims (broadcast dims: 0), ordered by mt_reorder_dims. */
static void
compute_perm(layout_plan *p, int n, mt_TensorObject *const *ops)
{
    int ndim = p->ndim;
    int64_t st[MT_ITER_MAX_OPS][MT_MAX_DIMS];

    for (int k = 0; k < n; k++) {
        const mt_TensorObject *t = ops[k];
        int off = ndim - t->ndim;
        for (int d = 0; d < off; d++) {
            st[k][d] = 0;
        }
        for (int i = 0; i < t->ndim; i++) {
            st[k][off + i] = (t->sizes[i] == 1 && p->shape[off + i] != 1) ? 0 : t->strides[i];
        }
    }
    mt_reorder_dims(ndim, p->shape, n, st, p->perm);
}

/* Plans the loop and the new output's strides. `out` is the in-place output or NULL; `in` lists the
 * inputs with dims (ndim > 0); `has_values` says some input is a number or 0-d tensor. */
static void
plan_layout(layout_plan *p, mt_TensorObject *out, int nin, mt_TensorObject *const *in, int has_values)
{
    mt_TensorObject *ops[MT_ITER_MAX_OPS];
    int n = 0;
    int all_same_shape = !(has_values && nin > 0);
    int contiguous = 1;
    int dense_same = 1;

    if (out != NULL) {
        ops[n++] = out;
    }
    for (int i = 0; i < nin; i++) {
        ops[n++] = in[i];
        if (!same_sizes(in[i], p->ndim, p->shape)) {
            all_same_shape = 0;
        }
    }
    p->linear = 0;
    p->out_contiguous = 1;
    if (all_same_shape) {
        /* torch's FastSetupType: all contiguous, or all dense with one shared layout */
        for (int k = 0; k < n; k++) {
            contiguous &= mt_tensor_is_contiguous(ops[k]);
        }
        if (contiguous) {
            p->linear = 1;
            return;
        }
        for (int k = 0; k < n; k++) {
            if (!mt_tensor_is_non_overlapping_and_dense(ops[k]) || !same_strides(ops[k], ops[0])) {
                dense_same = 0;
                break;
            }
        }
        if (dense_same && n > 0) {
            p->linear = 1;
            p->out_contiguous = 0;
            memcpy(p->out_strides, ops[0]->strides, sizeof(int64_t) * (size_t)p->ndim);
            return;
        }
    }
    compute_perm(p, n, ops);
    for (int j = 0; j < p->ndim; j++) {
        if (p->perm[j] != p->ndim - 1 - j) {
            p->out_contiguous = 0;
            break;
        }
    }
    if (!p->out_contiguous) {
        int64_t next = 1;
        for (int j = 0; j < p->ndim; j++) {
            p->out_strides[p->perm[j]] = next;
            next *= p->shape[p->perm[j]];
        }
    }
}

/* the out= tensor offered to this thread's next pointwise result (mt_pointwise_offer_out) */
static _Thread_local mt_TensorObject *offered_out;

void
mt_pointwise_offer_out(mt_TensorObject *out)
{
    offered_out = out;
}

/* The offered out= tensor, taken, when it is what a new result of this dtype, shape and device would be
 * (laid out densely; `contiguous`: in row-major order); else NULL. */
static mt_TensorObject *
take_offered_out(mt_dtype dtype, int ndim, const int64_t *shape, mt_device device, int contiguous)
{
    mt_TensorObject *out = offered_out;

    if (out == NULL || out->dtype != dtype || out->ndim != ndim
        || (ndim > 0 && memcmp(out->sizes, shape, sizeof(int64_t) * (size_t)ndim) != 0)
        || !mt_device_equal(mt_tensor_device(out), device)
        || !(contiguous ? mt_tensor_is_contiguous(out) : mt_tensor_is_non_overlapping_and_dense(out))) {
        return NULL;
    }
    offered_out = NULL;
    return out;
}

static mt_TensorObject *
new_output(const layout_plan *p, mt_dtype dtype, mt_device device)
{
    if (p->out_contiguous) {
        return mt_tensor_empty(p->ndim, p->shape, dtype, device);
    }
    return mt_tensor_empty_strided(p->ndim, p->shape, p->out_strides, dtype, device);
}

/* Reorders the iterator's dims (stored innermost first) so that dim j is tensor dim perm[j]. */
static void
iter_permute(mt_iter *it, const int *perm)
{
    int64_t shape[MT_MAX_DIMS];
    int64_t strides[MT_ITER_MAX_OPS][MT_MAX_DIMS];
    int n = it->ndim;

    for (int j = 0; j < n; j++) {
        int src = n - 1 - perm[j];
        shape[j] = it->shape[src];
        for (int k = 0; k < it->nops; k++) {
            strides[k][j] = it->strides[k][src];
        }
    }
    memcpy(it->shape, shape, sizeof(int64_t) * (size_t)n);
    for (int k = 0; k < it->nops; k++) {
        memcpy(it->strides[k], strides[k], sizeof(int64_t) * (size_t)n);
    }
}

/* Where a value input's one element lives: the slot, or the 0-d device tensor's memory. */
static char *
input_value_data(mt_pointwise_input *in)
{
    return in->device_value != NULL ? mt_tensor_data(in->device_value) : (char *)in->slot.bytes;
}

/* Builds the iterator for out and the inputs; a flat one when the plan allows. */
static void
build_iter(mt_iter *it, const layout_plan *p, mt_TensorObject *out, int nin, mt_pointwise_input *in,
           mt_dtype compute)
{
    size_t csize = mt_dtype_size(compute);

    if (p->linear) {
        int64_t numel = mt_tensor_numel(out);
        it->ndim = 1;
        it->nops = 1 + nin;
        it->numel = numel;
        it->shape[0] = numel;
        it->data[0] = mt_tensor_data(out);
        it->strides[0][0] = (int64_t)mt_dtype_size(out->dtype);
        for (int k = 0; k < nin; k++) {
            if (in[k].tensor != NULL) {
                it->data[1 + k] = mt_tensor_data(in[k].tensor);
                it->strides[1 + k][0] = (int64_t)mt_dtype_size(in[k].tensor->dtype);
            }
            else {
                it->data[1 + k] = input_value_data(&in[k]);
                it->strides[1 + k][0] = 0;
            }
        }
        return;
    }
    mt_iter_init(it, p->ndim, p->shape);
    mt_iter_add_tensor(it, out);
    for (int k = 0; k < nin; k++) {
        if (in[k].tensor != NULL) {
            mt_iter_add_tensor(it, in[k].tensor);
        }
        else {
            mt_iter_add(it, input_value_data(&in[k]), 0, NULL, NULL, csize);
        }
    }
    iter_permute(it, p->perm);
    mt_iter_coalesce(it);
}

/* ---- the pointwise runner ---------------------------------------------------------------------------- */

/* The backend call over `it`. The storages of out and of the tensor inputs are held while a host kernel
 * runs without the GIL; bit k+1 of host_values: input k is a host value (slot) that a device backend
 * passes by value. */
static int
run_kernel(mt_device device, const mt_iter *it, mt_TensorObject *out, int nin, const mt_pointwise_input *in,
           const mt_pointwise_kernel *kernel)
{
    const mt_TensorObject *operands[4] = {out, NULL, NULL, NULL};
    unsigned host_values = 0;
    int large = it->numel > MT_PARALLEL_GRAIN_SIZE;
    int result;

    for (int k = 0; k < nin; k++) {
        operands[1 + k] = in[k].tensor != NULL ? in[k].tensor : in[k].device_value;
        if (operands[1 + k] == NULL) {
            host_values |= 1u << (k + 1);
        }
    }
    switch (kernel->kind) {
    case MT_POINTWISE_UNARY:
        MT_RUN_BACKEND(result, device, large, operands, 2, unary, it, &kernel->args.unary);
        break;
    case MT_POINTWISE_BINARY:
        MT_RUN_BACKEND(result, device, large, operands, 3, binary, it, &kernel->args.binary, host_values);
        break;
    case MT_POINTWISE_WHERE:
        MT_RUN_BACKEND(result, device, large, operands, 4, where, it, kernel->args.where_itemsize, host_values);
        break;
    case MT_POINTWISE_GELU:
        MT_RUN_BACKEND(result, device, large, operands, 1 + nin, gelu, it, &kernel->args.gelu);
        break;
    default:
        MT_RUN_BACKEND(result, device, large, operands, 4, fma, it, kernel->args.fma_dtype, host_values);
        break;
    }
    return result;
}

mt_TensorObject *
mt_run_pointwise(mt_TensorObject *out, mt_dtype out_dtype, int ndim, const int64_t *shape, int nin,
                 mt_pointwise_input *in, mt_dtype value_dtype, mt_device device, mt_pointwise_kernel *kernel)
{
    mt_TensorObject *with_dims[MT_ITER_MAX_OPS];
    int ntensors = 0;
    layout_plan plan;
    mt_iter it;

    plan.ndim = ndim;
    memcpy(plan.shape, shape, sizeof(int64_t) * (size_t)ndim);
    if (out == NULL) {
        out = take_offered_out(out_dtype, ndim, shape, device, 0);
    }
    for (int k = 0; k < nin; k++) {
        if (in[k].tensor != NULL) {
            with_dims[ntensors++] = in[k].tensor;
        }
    }
    plan_layout(&plan, out, ntensors, with_dims, ntensors < nin);
    if (out != NULL) {
        Py_INCREF(out);
    }
    else {
        out = new_output(&plan, out_dtype, device);
        if (out == NULL) {
            return NULL;
        }
    }
    if (kernel->kind == MT_POINTWISE_UNARY) {
        kernel->args.unary.out_dtype = out->dtype;
    }
    else if (kernel->kind == MT_POINTWISE_BINARY) {
        kernel->args.binary.out_dtype = out->dtype;
    }
    if (mt_tensor_numel(out) > 0) {
        build_iter(&it, &plan, out, nin, in, value_dtype);
        if (run_kernel(device, &it, out, nin, in, kernel) < 0) {
            Py_CLEAR(out);
        }
    }
    return out;
}

mt_TensorObject *
mt_run_binary_contiguous(mt_binary_kernel_args *kargs, mt_TensorObject *out, mt_dtype out_dtype, mt_TensorObject *x,
                         mt_TensorObject *y)
{
    const mt_TensorObject *operands[3];
    char *od, *xd, *yd;
    int64_t n;

    if (out == NULL) {
        out = take_offered_out(out_dtype, x->ndim, x->sizes, mt_tensor_device(x), 1);
    }
    if (out != NULL) {
        Py_INCREF(out);
    }
    else {
        out = mt_tensor_empty(x->ndim, x->sizes, out_dtype, mt_tensor_device(x));
        if (out == NULL) {
            return NULL;
        }
    }
    kargs->out_dtype = out->dtype;
    n = mt_tensor_numel(out);
    operands[0] = out;
    operands[1] = x;
    operands[2] = y;
    od = mt_tensor_data(out);
    xd = mt_tensor_data(x);
    yd = mt_tensor_data(y);
    MT_RUN_KERNEL(&mt_cpu_backend, n > MT_PARALLEL_GRAIN_SIZE, operands, 3,
                  mt_cpu_binary_contiguous(kargs, od, xd, yd, n));
    return out;
}
