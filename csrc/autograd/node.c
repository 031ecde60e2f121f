/* node.c: the autograd graph's nodes: grad mode, recording a node for an op (edges, input metadata, saved
 * tensors), torch's checks when a saved tensor is read back or a tensor is changed in place, the leaf's
 * AccumulateGrad, and the nodes' lifetime (the Python class of each derivative is made here on first use,
 * as a subclass of the Node type that csrc/python/node_type.c creates). It runs no formula and reads no
 * Python arguments. */
#include "autograd.h"

#include <stdio.h>
#include <string.h>

#include "../ops/shape.h"

/* ---- grad mode -------------------------------------------------------------------------------------- */

static _Thread_local int grad_disabled;     /* 0: on, as every thread starts */

int
mt_grad_enabled(void)
{
    return !grad_disabled;
}

int
mt_set_grad_enabled(int enabled)
{
    int prev = !grad_disabled;
    grad_disabled = !enabled;
    return prev;
}

/* inference mode is the storages' setting: the tensors made in it are inference tensors */
int
mt_inference_mode_enabled(void)
{
    return mt_storage_inference_enabled();
}

int
mt_set_inference_mode(int enabled)
{
    return mt_storage_set_inference(enabled);
}

/* torch's refusals of an inference tensor outside inference_mode */
static int
refuse_inference(mt_TensorObject *t, const char *message)
{
    if (mt_storage_inference_enabled() || !mt_tensor_is_inference(t)) {
        return 0;
    }
    PyErr_SetString(PyExc_RuntimeError, message);
    return -1;
}

int
mt_ag_check_saveable(mt_TensorObject *t)
{
    return refuse_inference(t, "Inference tensors cannot be saved for backward. Please do not use Tensors created "
                               "in inference mode in computation tracked by autograd. To work around this, you can "
                               "make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` "
                               "instead of `torch.inference_mode()`.");
}

int
mt_ag_check_inference_requires_grad(mt_TensorObject *t)
{
    return refuse_inference(t, "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
}

/* ---- node lifetime ---------------------------------------------------------------------------------- */

PyTypeObject *mt_NodeTypePtr = NULL;
static uint64_t next_sequence_nr;       /* torch's is per thread; the GIL orders ours */

/* AccumulateGrad's own row: no formula (the engine accumulates). */
mt_derivative mt_accumulate_grad = {"AccumulateGrad", NULL, NULL};

const char *
mt_node_name(const mt_node *node)
{
    return node->fn != NULL ? node->fn->name : "AccumulateGrad";
}

const char *
mt_node_torch_name(const mt_node *node)
{
    /* torch's nodes written in C++ answer name() with their C++ name */
    if (node->variable != NULL) {
        return "torch::autograd::AccumulateGrad";
    }
    if (node->fn != NULL && strcmp(node->fn->name, "CopySlices") == 0) {
        return "torch::autograd::CopySlices";
    }
    if (node->fn != NULL && strcmp(node->fn->name, "NotImplemented") == 0) {
        return "torch::autograd::NotImplemented";
    }
    return mt_node_name(node);
}

static PyTypeObject *
derivative_type(mt_derivative *d)
{
    PyType_Slot slots[] = {
        {Py_tp_dealloc, mt_node_dealloc},
        {Py_tp_traverse, mt_node_traverse},
        {Py_tp_clear, mt_node_clear},
        {0, NULL},
    };
    PyType_Spec spec;
    PyObject *bases;
    char *qualname;

    if (d->type != NULL) {
        return d->type;
    }
    /* module "builtins", as torch's node classes have: their repr is <AddBackward0 object at 0x...>. The
     * name is kept for the process (Python 3.11 points into it). */
    qualname = PyMem_Malloc(strlen(d->name) + sizeof "builtins.");
    if (qualname == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    strcpy(qualname, "builtins.");
    strcat(qualname, d->name);
    spec.name = qualname;
    spec.basicsize = 0;
    spec.itemsize = 0;
    spec.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
    spec.slots = slots;
    bases = PyTuple_Pack(1, (PyObject *)mt_NodeTypePtr);
    if (bases == NULL) {
        PyMem_Free(qualname);
        return NULL;
    }
    d->type = (PyTypeObject *)PyType_FromSpecWithBases(&spec, bases);
    Py_DECREF(bases);
    if (d->type == NULL) {
        PyMem_Free(qualname);
    }
    return d->type;
}

static mt_node *
node_alloc(mt_derivative *d)
{
    PyTypeObject *type = derivative_type(d);
    mt_node *node;

    if (type == NULL) {
        return NULL;
    }
    node = (mt_node *)type->tp_alloc(type, 0);
    if (node == NULL) {
        return NULL;
    }
    /* tp_alloc zeroed every field */
    node->fn = d;
    node->sequence_nr = next_sequence_nr++;
    if (mt_anomaly_on && mt_anomaly_store(node) < 0) {
        Py_DECREF(node);
        return NULL;
    }
    return node;
}

/* Drops the saved tensors (after a backward without retain_graph). */
static void
release_saved(mt_node *node)
{
    for (int i = 0; i < MT_NODE_MAX_SAVED; i++) {
        Py_CLEAR(node->saved[i].tensor);
    }
}

void
mt_node_release_variables(mt_node *node)
{
    release_saved(node);
    node->released = 1;
}

int
mt_node_traverse(mt_node *self, visitproc visit, void *arg)
{
    for (int i = 0; i < self->num_inputs; i++) {
        Py_VISIT(self->next[i].node);
    }
    for (int i = 0; i < MT_NODE_MAX_SAVED; i++) {
        Py_VISIT(self->saved[i].tensor);
    }
    Py_VISIT(self->extra);
    Py_VISIT(self->tensor_hooks);
    Py_VISIT(self->retains);
    Py_VISIT(self->post_hooks);
    Py_VISIT(self->pre_hooks);
    Py_VISIT(self->variable);
    Py_VISIT(self->dict);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

int
mt_node_clear(mt_node *self)
{
    for (int i = 0; i < self->num_inputs; i++) {
        Py_CLEAR(self->next[i].node);
    }
    release_saved(self);
    Py_CLEAR(self->extra);
    Py_CLEAR(self->tensor_hooks);
    Py_CLEAR(self->retains);
    Py_CLEAR(self->post_hooks);
    Py_CLEAR(self->pre_hooks);
    if (self->variable != NULL) {
        if (self->variable->grad_accumulator == (PyObject *)self) {
            self->variable->grad_accumulator = NULL;
        }
        Py_CLEAR(self->variable);
    }
    Py_CLEAR(self->dict);
    return 0;
}

void
mt_node_dealloc(mt_node *self)
{
    PyTypeObject *type = Py_TYPE(self);

    PyObject_GC_UnTrack(self);
    /* a long chain of nodes is freed one after the other, not by recursion on the C stack */
    Py_TRASHCAN_BEGIN(self, mt_node_dealloc)
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    mt_node_clear(self);
    PyMem_Free(self->next);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
    Py_TRASHCAN_END
}

/* ---- recording -------------------------------------------------------------------------------------- */

int
mt_ag_needed(int n, mt_TensorObject *const *inputs)
{
    if (grad_disabled) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (inputs[i] != NULL && mt_requires_grad(inputs[i])) {
            return 1;
        }
    }
    return 0;
}

PyObject *
mt_ag_grad_accumulator(mt_TensorObject *leaf)
{
    mt_node *node;

    if (leaf->grad_accumulator != NULL) {
        Py_INCREF(leaf->grad_accumulator);
        return leaf->grad_accumulator;
    }
    node = node_alloc(&mt_accumulate_grad);
    if (node == NULL) {
        return NULL;
    }
    node->fn = NULL;
    node->sequence_nr = UINT64_MAX;
    node->num_outputs = 1;
    Py_INCREF(leaf);
    node->variable = leaf;
    leaf->grad_accumulator = (PyObject *)node;
    return (PyObject *)node;
}

mt_node *
mt_ag_node(mt_derivative *d, int n, mt_TensorObject *const *inputs, int num_outputs)
{
    mt_node *node = node_alloc(d);
    size_t total_dims = 0;
    int64_t *sizes;

    if (node == NULL) {
        return NULL;
    }
    node->num_outputs = num_outputs;
    for (int i = 0; i < n; i++) {
        if (inputs[i] != NULL) {
            total_dims += (size_t)inputs[i]->ndim;
        }
    }
    /* one block: the edges, the metadata, then every input's sizes */
    node->next = PyMem_Calloc(1, n * (sizeof(mt_edge) + sizeof(mt_input_meta)) + total_dims * sizeof(int64_t) + 1);
    if (node->next == NULL) {
        Py_DECREF(node);
        PyErr_NoMemory();
        return NULL;
    }
    node->meta = (mt_input_meta *)(node->next + n);
    sizes = (int64_t *)(node->meta + n);
    node->num_inputs = n;
    for (int i = 0; i < n; i++) {
        mt_TensorObject *t = inputs[i];
        mt_input_meta *m = &node->meta[i];

        if (t == NULL) {
            m->ndim = -1;
            continue;
        }
        m->ndim = t->ndim;
        m->dtype = t->dtype;
        m->device = mt_tensor_device(t);
        m->sizes = sizes;
        memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
        sizes += t->ndim;
        if (!mt_requires_grad(t)) {
            continue;
        }
        if (t->grad_fn != NULL) {
            Py_INCREF(t->grad_fn);
            node->next[i].node = t->grad_fn;
            node->next[i].input_nr = t->output_nr;
        }
        else {
            node->next[i].node = mt_ag_grad_accumulator(t);
            if (node->next[i].node == NULL) {
                Py_DECREF(node);
                return NULL;
            }
        }
    }
    return node;
}

int
mt_ag_set_output(mt_node *node, mt_TensorObject *out, int nr)
{
    if (!mt_dtype_is_floating(out->dtype)) {
        return 0;
    }
    Py_INCREF(node);
    Py_XSETREF(out->grad_fn, (PyObject *)node);
    out->output_nr = nr;
    return 0;
}

/* A new tensor object over t's memory and version counter, outside the graph. */
static mt_TensorObject *
alias_of(mt_TensorObject *t)
{
    mt_TensorObject *a = mt_tensor_from_storage(t->storage, t->ndim, t->sizes, t->strides, t->offset, t->dtype);

    if (a != NULL && mt_tensor_share_version(a, t) < 0) {
        Py_CLEAR(a);
    }
    return a;
}

int
mt_ag_save(mt_node *node, int i, mt_TensorObject *t, int is_output)
{
    mt_saved *s = &node->saved[i];

    if (mt_ag_check_saveable(t) < 0) {
        return -1;
    }
    if (is_output) {
        s->tensor = alias_of(t);
        if (s->tensor == NULL) {
            return -1;
        }
    }
    else {
        Py_INCREF(t);
        s->tensor = t;
    }
    s->version = mt_tensor_version(t);
    s->is_output = is_output;
    s->saved = 1;
    return 0;
}

mt_TensorObject *
mt_ag_unpack(mt_node *node, int i)
{
    mt_saved *s = &node->saved[i];
    mt_TensorObject *t = s->tensor;

    if (t == NULL) {
        if (s->saved) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Trying to backward through the graph a second time (or directly access saved tensors after "
                            "they have already been freed). Saved intermediate values of the graph are freed when you "
                            "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
                            "through the graph a second time or if you need to access saved tensors after calling "
                            "backward.");
        }
        else {
            PyErr_Format(PyExc_SystemError, "%s: no tensor saved in slot %d", mt_node_name(node), i);
        }
        return NULL;
    }
    if (mt_tensor_version(t) != s->version) {
        char type[64], shape[256], which[128] = "";
        const mt_node *maker = s->is_output ? node : (const mt_node *)t->grad_fn;
        int nr = s->is_output ? 0 : t->output_nr;

        mt_tensor_type_string(t, type, sizeof type);
        mt_format_shape(t->ndim, t->sizes, shape, sizeof shape);
        if (maker != NULL) {
            /* torch 2.13 names the forward op: ExpBackward0 -> Exp, LeakyReluBackward1 -> LeakyRelu1 */
            const char *name = mt_node_name(maker), *cut = strstr(name, "Backward");
            int len = cut != NULL ? (int)(cut - name) : (int)strlen(name);
            const char *rest = cut != NULL ? cut + strlen("Backward") : "";
            snprintf(which, sizeof which, ", which is output %d of %.*s%s,", nr, len, name,
                     strcmp(rest, "0") == 0 ? "" : rest);
        }
        PyErr_Format(PyExc_RuntimeError,
                     "one of the variables needed for gradient computation has been modified by an inplace "
                     "operation: [%s %s]%s is at version %lld; expected version %lld instead. Hint: %s",
                     type, shape, which, (long long)mt_tensor_version(t), (long long)s->version,
                     mt_anomaly_on ? "the backtrace further above shows the operation that failed to compute its "
                                     "gradient. The variable in question was changed in there or anywhere later. "
                                     "Good luck!"
                                   : "enable anomaly detection to find the operation that failed to compute its "
                                     "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).");
        return NULL;
    }
    if (s->is_output && !grad_disabled) {
        /* create_graph: the formula's use of the output is itself differentiated, through this node */
        mt_TensorObject *a = alias_of(t);
        if (a != NULL) {
            mt_ag_set_output(node, a, 0);
        }
        return a;
    }
    Py_INCREF(t);
    return t;
}

/* ---- in-place changes ------------------------------------------------------------------------------- */

int
mt_ag_check_inplace(mt_TensorObject *self)
{
    mt_TensorObject *base = (mt_TensorObject *)self->base;

    if (grad_disabled) {
        return 0;
    }
    if (base != NULL && base->grad_fn == NULL && base->requires_grad) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a view of a leaf Variable that requires grad is being used in an in-place operation.");
        return -1;
    }
    if (base == NULL && self->grad_fn == NULL && self->requires_grad) {
        PyErr_SetString(PyExc_RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation.");
        return -1;
    }
    return 0;
}

int
mt_ag_bump(mt_TensorObject *self)
{
    return mt_tensor_bump_version(self);
}
