/* autocast.c: automatic mixed precision, as torch's Autocast dispatch keys have it. It owns the autocast
 * state of a thread (enabled and dtype per device kind, the nesting count, the weight cache), torch's op
 * policies per device kind (one table, below), and the one hook that casts a call's floating tensors
 * before the op runs: bind.c calls it for the ops of the table (ops.def) and minitorch/amp calls it, through
 * _C._autocast_cast, for the ops written in Python. It must not know how any op computes.
 *
 * torch's rules (aten/src/ATen/autocast_mode.h/.cpp): a tensor is eligible when it is on the device kind
 * the region autocasts, floating and not float64; "lower precision" ops cast eligible tensors to the
 * region's dtype, "fp32" ops to float32 ("fp32_set_opt_dtype" ops only when no dtype= is given), and
 * "promote" ops to the widest eligible type. The cast is a recorded `to`, so gradients come back in the
 * tensors' own dtype. While a policy op runs, autocast is off for the ops it calls (torch excludes the
 * Autocast key on redispatch). A float32 leaf that requires grad is cast once per outermost region and
 * the cast kept (torch's weight cache) until the region ends or clear_autocast_cache() runs. */
#include "autocast.h"

#include <string.h>

#include "autograd_type.h"
#include "../core/dtype.h"
#include "../core/tensor.h"

enum { AC_CPU, AC_CUDA, AC_DEVICES };

enum { P_NONE, P_LOWER, P_FP32, P_FP32_OPT_DTYPE, P_PROMOTE, P_BANNED };

/* torch's lists (AutocastCPU, AutocastCUDA), by the name minitorch reaches the op with: aten's name, with
 * `linalg_` for torch.linalg's functions; cross_entropy and grid_sample are aten's cross_entropy_loss and
 * grid_sampler. Ops minitorch does not have are left out. */
static const struct {
    const char *name;
    unsigned char policy[AC_DEVICES];   /* cpu, cuda */
} policies[] = {
    /* lower precision (the region's dtype) */
    {"conv1d", {P_LOWER, P_LOWER}}, {"conv2d", {P_LOWER, P_LOWER}}, {"conv3d", {P_LOWER, P_LOWER}},
    {"conv_tbc", {P_LOWER, P_LOWER}}, {"conv_transpose1d", {P_LOWER, P_LOWER}},
    {"conv_transpose2d", {P_LOWER, P_LOWER}}, {"conv_transpose3d", {P_LOWER, P_LOWER}},
    {"prelu", {P_LOWER, P_LOWER}}, {"addmm", {P_LOWER, P_LOWER}}, {"addmv", {P_NONE, P_LOWER}},
    {"addr", {P_NONE, P_LOWER}}, {"matmul", {P_LOWER, P_LOWER}}, {"einsum", {P_NONE, P_LOWER}},
    {"mm", {P_LOWER, P_LOWER}}, {"mv", {P_NONE, P_LOWER}}, {"linalg_vecdot", {P_LOWER, P_LOWER}},
    {"linear", {P_LOWER, P_LOWER}}, {"addbmm", {P_LOWER, P_LOWER}}, {"baddbmm", {P_LOWER, P_LOWER}},
    {"bmm", {P_LOWER, P_LOWER}}, {"chain_matmul", {P_NONE, P_LOWER}}, {"linalg_multi_dot", {P_NONE, P_LOWER}},
    {"lstm_cell", {P_NONE, P_LOWER}}, {"gru_cell", {P_NONE, P_LOWER}}, {"rnn_tanh_cell", {P_NONE, P_LOWER}},
    {"rnn_relu_cell", {P_NONE, P_LOWER}},
    {"scaled_dot_product_attention", {P_LOWER, P_LOWER}},
    /* float32 */
    {"acos", {P_NONE, P_FP32}}, {"asin", {P_NONE, P_FP32}}, {"cosh", {P_NONE, P_FP32}},
    {"erfinv", {P_NONE, P_FP32}}, {"exp", {P_NONE, P_FP32}}, {"expm1", {P_NONE, P_FP32}},
    {"log", {P_NONE, P_FP32}}, {"log10", {P_NONE, P_FP32}}, {"log2", {P_NONE, P_FP32}},
    {"log1p", {P_NONE, P_FP32}}, {"reciprocal", {P_NONE, P_FP32}}, {"rsqrt", {P_NONE, P_FP32}},
    {"sinh", {P_NONE, P_FP32}}, {"tan", {P_NONE, P_FP32}}, {"pow", {P_NONE, P_FP32}},
    {"softplus", {P_NONE, P_FP32}}, {"layer_norm", {P_NONE, P_FP32}}, {"rms_norm", {P_NONE, P_FP32}},
    {"group_norm", {P_NONE, P_FP32}}, {"nuclear_norm", {P_NONE, P_FP32}},
    {"cosine_similarity", {P_NONE, P_FP32}}, {"poisson_nll_loss", {P_FP32, P_FP32}},
    {"cosine_embedding_loss", {P_FP32, P_FP32}}, {"nll_loss", {P_FP32, P_FP32}},
    {"hinge_embedding_loss", {P_FP32, P_FP32}}, {"kl_div", {P_FP32, P_FP32}}, {"l1_loss", {P_FP32, P_FP32}},
    {"smooth_l1_loss", {P_FP32, P_FP32}}, {"huber_loss", {P_FP32, P_FP32}}, {"mse_loss", {P_FP32, P_FP32}},
    {"margin_ranking_loss", {P_FP32, P_FP32}}, {"multilabel_margin_loss", {P_FP32, P_FP32}},
    {"soft_margin_loss", {P_FP32, P_FP32}}, {"triplet_margin_loss", {P_FP32, P_FP32}},
    {"multi_margin_loss", {P_FP32, P_FP32}}, {"binary_cross_entropy_with_logits", {P_FP32, P_FP32}},
    {"cross_entropy", {P_FP32, P_NONE}}, {"ctc_loss", {P_FP32, P_NONE}},
    {"binary_cross_entropy", {P_FP32, P_BANNED}},
    {"dist", {P_NONE, P_FP32}}, {"pdist", {P_NONE, P_FP32}}, {"cdist", {P_FP32, P_FP32}},
    {"renorm", {P_NONE, P_FP32}}, {"logsumexp", {P_NONE, P_FP32}}, {"norm", {P_NONE, P_FP32}},
    {"avg_pool3d", {P_FP32, P_NONE}}, {"max_pool3d", {P_FP32, P_NONE}}, {"max_unpool2d", {P_FP32, P_NONE}},
    {"max_unpool3d", {P_FP32, P_NONE}}, {"adaptive_avg_pool3d", {P_FP32, P_NONE}},
    {"adaptive_max_pool3d", {P_FP32, P_NONE}}, {"fractional_max_pool2d", {P_FP32, P_NONE}},
    {"fractional_max_pool3d", {P_FP32, P_NONE}}, {"polar", {P_FP32, P_NONE}}, {"quantile", {P_FP32, P_NONE}},
    {"nanquantile", {P_FP32, P_NONE}}, {"stft", {P_FP32, P_NONE}}, {"trace", {P_FP32, P_NONE}},
    {"view_as_complex", {P_FP32, P_NONE}}, {"cholesky", {P_FP32, P_NONE}},
    {"cholesky_inverse", {P_FP32, P_NONE}}, {"cholesky_solve", {P_FP32, P_NONE}}, {"inverse", {P_FP32, P_NONE}},
    {"lu_solve", {P_FP32, P_NONE}}, {"orgqr", {P_FP32, P_NONE}}, {"ormqr", {P_FP32, P_NONE}},
    {"pinverse", {P_FP32, P_NONE}}, {"geqrf", {P_FP32, P_NONE}}, {"qr", {P_FP32, P_NONE}},
    {"svd", {P_FP32, P_NONE}}, {"triangular_solve", {P_FP32, P_NONE}}, {"linalg_cond", {P_FP32, P_NONE}},
    {"linalg_matrix_rank", {P_FP32, P_NONE}}, {"linalg_solve", {P_FP32, P_NONE}},
    {"linalg_cholesky", {P_FP32, P_NONE}}, {"linalg_svdvals", {P_FP32, P_NONE}},
    {"linalg_eigvals", {P_FP32, P_NONE}}, {"linalg_eigvalsh", {P_FP32, P_NONE}}, {"linalg_inv", {P_FP32, P_NONE}},
    {"linalg_householder_product", {P_FP32, P_NONE}}, {"linalg_tensorinv", {P_FP32, P_NONE}},
    {"linalg_tensorsolve", {P_FP32, P_NONE}}, {"linalg_qr", {P_FP32, P_NONE}},
    {"linalg_cholesky_ex", {P_FP32, P_NONE}}, {"linalg_svd", {P_FP32, P_NONE}}, {"linalg_eig", {P_FP32, P_NONE}},
    {"linalg_eigh", {P_FP32, P_NONE}}, {"linalg_lstsq", {P_FP32, P_NONE}}, {"linalg_inv_ex", {P_FP32, P_NONE}},
    {"grid_sample", {P_FP32, P_PROMOTE}},
    /* float32 unless dtype= is given */
    {"prod", {P_FP32, P_FP32_OPT_DTYPE}}, {"softmax", {P_NONE, P_FP32_OPT_DTYPE}},
    {"log_softmax", {P_NONE, P_FP32_OPT_DTYPE}}, {"cumprod", {P_NONE, P_FP32_OPT_DTYPE}},
    {"cumsum", {P_NONE, P_FP32_OPT_DTYPE}}, {"linalg_vector_norm", {P_NONE, P_FP32_OPT_DTYPE}},
    {"linalg_matrix_norm", {P_NONE, P_FP32_OPT_DTYPE}}, {"sum", {P_NONE, P_FP32_OPT_DTYPE}},
    /* the widest type */
    {"addcdiv", {P_NONE, P_PROMOTE}}, {"addcmul", {P_NONE, P_PROMOTE}}, {"atan2", {P_NONE, P_PROMOTE}},
    {"bilinear", {P_NONE, P_PROMOTE}}, {"cross", {P_NONE, P_PROMOTE}}, {"dot", {P_NONE, P_PROMOTE}},
    {"vdot", {P_NONE, P_PROMOTE}}, {"index_put", {P_NONE, P_PROMOTE}}, {"tensordot", {P_NONE, P_PROMOTE}},
    {"scatter_add", {P_NONE, P_PROMOTE}}, {"stack", {P_PROMOTE, P_NONE}}, {"cat", {P_PROMOTE, P_NONE}},
    {"index_copy", {P_PROMOTE, P_NONE}},
};

#define NPOLICIES ((int)(sizeof(policies) / sizeof(policies[0])))

/* torch keeps all of this per thread (thread_local in autocast_mode.cpp and the TLS dispatch key set) */
typedef struct {
    int enabled[AC_DEVICES];
    mt_dtype dtype[AC_DEVICES];
    int nesting;
    int cache_enabled;
    int excluded;               /* inside a policy op */
    PyObject *cache;            /* dict: id(source) -> (source, cast); NULL while empty */
} autocast_state;

static _Thread_local autocast_state state = {{0, 0}, {MT_BFLOAT16, MT_FLOAT16}, 0, 1, 0, NULL};

int
mt_autocast_policy_of(const char *name)
{
    for (int i = 0; i < NPOLICIES; i++) {
        if (strcmp(policies[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

int
mt_autocast_active(void)
{
    return (state.enabled[AC_CPU] || state.enabled[AC_CUDA]) && !state.excluded;
}

int
mt_autocast_set_excluded(int flag)
{
    int previous = state.excluded;

    state.excluded = flag;
    return previous;
}

static int
device_kind(const mt_TensorObject *t)
{
    int type = mt_tensor_device(t).type;
    return type == MT_DEVICE_CPU ? AC_CPU : type == MT_DEVICE_CUDA ? AC_CUDA : -1;
}

static int
is_eligible(const mt_TensorObject *t, int dev)
{
    return device_kind(t) == dev && mt_dtype_is_floating(t->dtype) && t->dtype != MT_FLOAT64;
}

/* A list or tuple of tensors (cat's, stack's): 1, else 0. */
static int
is_tensor_list(PyObject *obj)
{
    Py_ssize_t n;

    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        return 0;
    }
    n = PySequence_Fast_GET_SIZE(obj);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!mt_Tensor_Check(PySequence_Fast_GET_ITEM(obj, i))) {
            return 0;
        }
    }
    return n > 0;
}

/* The first tensor among the values (self first), or NULL. */
static mt_TensorObject *
first_tensor(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    if (self != NULL && mt_Tensor_Check(self)) {
        return (mt_TensorObject *)self;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (args[i] != NULL && mt_Tensor_Check(args[i])) {
            return (mt_TensorObject *)args[i];
        }
        if (args[i] != NULL && is_tensor_list(args[i])) {
            return (mt_TensorObject *)PySequence_Fast_GET_ITEM(args[i], 0);
        }
    }
    return NULL;
}

/* torch's prioritize(): float32 wins over the region's dtype; float64 is ignored. 0 or -1. */
static int
promote_one(mt_TensorObject *t, int dev, mt_dtype *current)
{
    if (!is_eligible(t, dev)) {
        return 0;
    }
    if (*current == MT_FLOAT32 || t->dtype == MT_FLOAT32) {
        *current = MT_FLOAT32;
    }
    else if (!(*current == state.dtype[dev] && t->dtype == state.dtype[dev])) {
        PyErr_SetString(PyExc_RuntimeError, "Unexpected floating ScalarType in at::autocast::prioritize");
        return -1;
    }
    return 0;
}

static int
promote_type(PyObject *const *values, Py_ssize_t n, int dev, mt_dtype *out)
{
    *out = state.dtype[dev];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = values[i];
        if (v == NULL) {
            continue;
        }
        if (mt_Tensor_Check(v)) {
            if (promote_one((mt_TensorObject *)v, dev, out) < 0) {
                return -1;
            }
        }
        else if (is_tensor_list(v)) {
            for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(v); k++) {
                if (promote_one((mt_TensorObject *)PySequence_Fast_GET_ITEM(v, k), dev, out) < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* torch's cached_cast: the tensor as `to` (a recorded `to`), or itself. New reference. */
static PyObject *
cast_tensor(PyObject *obj, int dev, mt_dtype to)
{
    mt_TensorObject *t = (mt_TensorObject *)obj;
    PyObject *key = NULL, *hit, *cast, *entry;
    int cacheable;

    if (!is_eligible(t, dev) || t->dtype == to) {
        Py_INCREF(obj);
        return obj;
    }
    cacheable = state.cache_enabled && to == state.dtype[dev] && t->dtype == MT_FLOAT32 && t->requires_grad &&
                t->grad_fn == NULL && t->base == NULL;
    if (cacheable) {
        key = PyLong_FromVoidPtr(obj);
        if (key == NULL) {
            return NULL;
        }
        hit = state.cache != NULL ? PyDict_GetItemWithError(state.cache, key) : NULL;
        if (hit != NULL) {
            Py_DECREF(key);
            cast = PyTuple_GET_ITEM(hit, 1);
            Py_INCREF(cast);
            return cast;
        }
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            return NULL;
        }
    }
    cast = PyObject_CallMethod(obj, "to", "O", mt_dtype_object(to));
    if (cast == NULL || !cacheable) {
        Py_XDECREF(key);
        return cast;
    }
    if (state.cache == NULL && (state.cache = PyDict_New()) == NULL) {
        goto error;
    }
    entry = PyTuple_Pack(2, obj, cast);
    if (entry == NULL || PyDict_SetItem(state.cache, key, entry) < 0) {
        Py_XDECREF(entry);
        goto error;
    }
    Py_DECREF(entry);
    Py_DECREF(key);
    return cast;
error:
    Py_DECREF(key);
    Py_DECREF(cast);
    return NULL;
}

/* A value of the call with its eligible tensors cast (a list or tuple of tensors as a new list/tuple). */
static PyObject *
cast_value(PyObject *v, int dev, mt_dtype to)
{
    PyObject *seq;
    Py_ssize_t n;

    if (v == NULL) {
        return NULL;
    }
    if (mt_Tensor_Check(v)) {
        return cast_tensor(v, dev, to);
    }
    if (!is_tensor_list(v)) {
        Py_INCREF(v);
        return v;
    }
    n = PySequence_Fast_GET_SIZE(v);
    seq = PyList_Check(v) ? PyList_New(n) : PyTuple_New(n);
    if (seq == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = cast_tensor(PySequence_Fast_GET_ITEM(v, i), dev, to);
        if (item == NULL) {
            Py_DECREF(seq);
            return NULL;
        }
        if (PyList_Check(seq)) {
            PyList_SET_ITEM(seq, i, item);
        }
        else {
            PyTuple_SET_ITEM(seq, i, item);
        }
    }
    return seq;
}

static int
kwarg_given(PyObject *const *args, Py_ssize_t n, PyObject *kwnames, const char *name)
{
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;

    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), name) == 0) {
            return args[n - nkw + k] != Py_None;
        }
    }
    return 0;
}

void
mt_autocast_cast_free(PyObject **cast, Py_ssize_t n)
{
    if (cast == NULL) {
        return;
    }
    for (Py_ssize_t i = 0; i <= n; i++) {
        Py_XDECREF(cast[i]);
    }
    PyMem_Free(cast);
}

int
mt_autocast_cast(int policy, PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames,
                 PyObject ***cast)
{
    mt_TensorObject *first;
    PyObject **out;
    mt_dtype to;
    int dev, p;

    *cast = NULL;
    if (policy < 0 || !mt_autocast_active() || (first = first_tensor(self, args, n)) == NULL ||
        (dev = device_kind(first)) < 0 || !state.enabled[dev] || (p = policies[policy].policy[dev]) == P_NONE ||
        kwarg_given(args, n, kwnames, "out")) {
        return 0;
    }
    if (p == P_BANNED) {
        PyErr_SetString(PyExc_RuntimeError,
                        "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
                        "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
                        "In this case, combine the two layers using "
                        "torch.nn.functional.binary_cross_entropy_with_logits\n"
                        "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
                        "safe to autocast.");
        return -1;
    }
    if (p == P_FP32_OPT_DTYPE && kwarg_given(args, n, kwnames, "dtype")) {
        return 0;
    }
    if (p == P_LOWER) {
        to = state.dtype[dev];
    }
    else if (p == P_PROMOTE) {
        if (promote_type(args, n, dev, &to) < 0) {
            return -1;
        }
        if (self != NULL && mt_Tensor_Check(self) && promote_one((mt_TensorObject *)self, dev, &to) < 0) {
            return -1;
        }
    }
    else {
        to = MT_FLOAT32;
    }
    out = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    if (out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (self != NULL && (out[0] = cast_value(self, dev, to)) == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (args[i] != NULL && (out[1 + i] = cast_value(args[i], dev, to)) == NULL) {
            goto error;
        }
    }
    *cast = out;
    return 1;
error:
    mt_autocast_cast_free(out, n);
    return -1;
}

/* ---- minitorch._C's functions ------------------------------------------------------------------------ */

static int
device_arg(PyObject *obj, int *dev)
{
    long v = PyLong_AsLong(obj);

    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v != AC_CPU && v != AC_CUDA) {
        PyErr_SetString(PyExc_ValueError, "autocast device kind: 0 (cpu) or 1 (cuda)");
        return -1;
    }
    *dev = (int)v;
    return 0;
}

static PyObject *
autocast_is_enabled(PyObject *module, PyObject *arg)
{
    int dev;

    (void)module;
    if (device_arg(arg, &dev) < 0) {
        return NULL;
    }
    return PyBool_FromLong(state.enabled[dev]);
}

static PyObject *
autocast_set_enabled(PyObject *module, PyObject *args)
{
    PyObject *devobj;
    int dev, flag;

    (void)module;
    if (!PyArg_ParseTuple(args, "Op", &devobj, &flag) || device_arg(devobj, &dev) < 0) {
        return NULL;
    }
    state.enabled[dev] = flag;
    Py_RETURN_NONE;
}

static PyObject *
autocast_get_dtype(PyObject *module, PyObject *arg)
{
    PyObject *d;
    int dev;

    (void)module;
    if (device_arg(arg, &dev) < 0) {
        return NULL;
    }
    d = mt_dtype_object(state.dtype[dev]);
    Py_INCREF(d);
    return d;
}

static PyObject *
autocast_set_dtype(PyObject *module, PyObject *args)
{
    PyObject *devobj, *dtobj;
    mt_dtype d;
    int dev;

    (void)module;
    if (!PyArg_ParseTuple(args, "OO", &devobj, &dtobj) || device_arg(devobj, &dev) < 0 ||
        mt_dtype_from_object(dtobj, &d) < 0) {
        return NULL;
    }
    state.dtype[dev] = d;
    Py_RETURN_NONE;
}

static PyObject *
autocast_increment_nesting(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromLong(++state.nesting);
}

static PyObject *
autocast_decrement_nesting(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromLong(--state.nesting);
}

static PyObject *
autocast_is_cache_enabled(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyBool_FromLong(state.cache_enabled);
}

static PyObject *
autocast_set_cache_enabled(PyObject *module, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg);

    (void)module;
    if (flag < 0) {
        return NULL;
    }
    state.cache_enabled = flag;
    Py_RETURN_NONE;
}

static PyObject *
autocast_clear_cache(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    Py_CLEAR(state.cache);
    Py_RETURN_NONE;
}

static PyObject *
autocast_set_excluded(PyObject *module, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg);

    (void)module;
    if (flag < 0) {
        return NULL;
    }
    return PyBool_FromLong(mt_autocast_set_excluded(flag));
}

/* _autocast_cast(name, args, kwargs): the hook for an op written in Python. None when its policy does
 * not apply to this call, else (args, kwargs) with the eligible tensors cast. */
static PyObject *
autocast_cast_py(PyObject *module, PyObject *a)
{
    PyObject *name, *args, *kwargs, *kwnames = NULL, **values = NULL, **cast = NULL, *result = NULL;
    PyObject *new_args = NULL, *new_kwargs = NULL;
    Py_ssize_t npos, nkw, n, pos = 0, k = 0;
    PyObject *key, *value;
    int policy, r;

    (void)module;
    if (!PyArg_ParseTuple(a, "UO!O!", &name, &PyTuple_Type, &args, &PyDict_Type, &kwargs)) {
        return NULL;
    }
    policy = mt_autocast_policy_of(PyUnicode_AsUTF8(name));
    if (policy < 0 || !mt_autocast_active()) {
        Py_RETURN_NONE;
    }
    npos = PyTuple_GET_SIZE(args);
    nkw = PyDict_GET_SIZE(kwargs);
    n = npos + nkw;
    values = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    kwnames = PyTuple_New(nkw);
    if (values == NULL || kwnames == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < npos; i++) {
        values[i] = PyTuple_GET_ITEM(args, i);
    }
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
        Py_INCREF(key);
        PyTuple_SET_ITEM(kwnames, k, key);
        values[npos + k++] = value;
    }
    r = mt_autocast_cast(policy, NULL, values, n, kwnames, &cast);
    if (r <= 0) {
        result = r < 0 ? NULL : Py_None;
        Py_XINCREF(result);
        goto done;
    }
    new_args = PyTuple_New(npos);
    new_kwargs = PyDict_New();
    if (new_args == NULL || new_kwargs == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < npos; i++) {
        PyTuple_SET_ITEM(new_args, i, cast[1 + i]);
        cast[1 + i] = NULL;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyDict_SetItem(new_kwargs, PyTuple_GET_ITEM(kwnames, i), cast[1 + npos + i]) < 0) {
            goto done;
        }
    }
    result = PyTuple_Pack(2, new_args, new_kwargs);
done:
    mt_autocast_cast_free(cast, n);
    PyMem_Free(values);
    Py_XDECREF(kwnames);
    Py_XDECREF(new_args);
    Py_XDECREF(new_kwargs);
    return result;
}

PyMethodDef mt_autocast_functions[] = {
    {"_autocast_is_enabled", (PyCFunction)autocast_is_enabled, METH_O,
     "Whether autocast is on for a device kind (0 cpu, 1 cuda) in this thread."},
    {"_autocast_set_enabled", (PyCFunction)autocast_set_enabled, METH_VARARGS,
     "Turns autocast on or off for a device kind in this thread."},
    {"_autocast_get_dtype", (PyCFunction)autocast_get_dtype, METH_O, "The autocast dtype of a device kind."},
    {"_autocast_set_dtype", (PyCFunction)autocast_set_dtype, METH_VARARGS, "Sets a device kind's autocast dtype."},
    {"_autocast_increment_nesting", (PyCFunction)autocast_increment_nesting, METH_NOARGS,
     "Enters an autocast region; the new depth."},
    {"_autocast_decrement_nesting", (PyCFunction)autocast_decrement_nesting, METH_NOARGS,
     "Leaves an autocast region; the new depth."},
    {"_autocast_is_cache_enabled", (PyCFunction)autocast_is_cache_enabled, METH_NOARGS,
     "Whether autocast keeps the casts of float32 leaves (the weight cache)."},
    {"_autocast_set_cache_enabled", (PyCFunction)autocast_set_cache_enabled, METH_O,
     "Turns the weight cache on or off in this thread."},
    {"_autocast_clear_cache", (PyCFunction)autocast_clear_cache, METH_NOARGS, "Empties the weight cache."},
    {"_autocast_set_excluded", (PyCFunction)autocast_set_excluded, METH_O,
     "Inside (True) or outside a policy op; the previous value."},
    {"_autocast_cast", (PyCFunction)autocast_cast_py, METH_VARARGS,
     "_autocast_cast(name, args, kwargs): None, or (args, kwargs) cast by the op's autocast policy."},
    {NULL, NULL, 0, NULL},
};
