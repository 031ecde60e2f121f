/* engine.c: backward, in torch's order and with torch's accumulation (torch/csrc/autograd/engine.cpp):
 *
 *   - dependencies: a walk from the roots counts the edges into each node; a node runs once every
 *     gradient for it has arrived;
 *   - among ready nodes the one created last runs first (a max-heap on sequence_nr); AccumulateGrad,
 *     whose number is the largest, runs as soon as it is ready;
 *   - the first gradient for a slot is kept as it is, later ones are added in arrival order (InputBuffer);
 *   - a gradient whose shape is a broadcast of its input's is summed back to it (validate_outputs);
 *   - .grad takes the first gradient itself when nothing else holds it and its strides match the leaf's,
 *     a copy otherwise, and is added to in place afterwards (AccumulateGrad);
 *   - saved tensors are freed as each node finishes unless the graph is kept.
 * With inputs (autograd.grad, backward(inputs=)) only the nodes that lead to them run. Hooks registered on
 * tensors run on the gradient before it is used; retain_grad's store runs after them. */
#include "autograd.h"

#include <string.h>

#include "../ops/copy.h"
#include "ops_for_grad.h"

/* ---- the run's state: one task per node reached, found through a small hash map ------------------- */

typedef struct {
    mt_node *node;              /* borrowed: the graph holds it while the run does */
    int deps;                   /* edges into it not yet followed */
    int needed;                 /* with inputs: it leads to one of them */
    int capture;                /* with inputs: index of the input captured at it, or -1 */
    int capture_slot;
    PyObject **buffer;          /* num_outputs gradients (owned), NULL entries: none yet */
} task;

typedef struct {
    task *tasks;
    int n, cap;
    int *slots;                 /* hash map: node pointer -> task index, -1 empty */
    int nslots;
    int *heap;                  /* ready task indices, max-heap on sequence_nr */
    int nheap;
} run_state;

static size_t
hash_ptr(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 7);
}

static int
find_task(const run_state *st, const mt_node *node)
{
    size_t mask = (size_t)st->nslots - 1;
    for (size_t i = hash_ptr(node) & mask;; i = (i + 1) & mask) {
        int t = st->slots[i];
        if (t < 0 || st->tasks[t].node == node) {
            return t;
        }
    }
}

static int
grow_map(run_state *st)
{
    int nslots = st->nslots ? st->nslots * 2 : 64;
    int *slots = PyMem_Malloc(sizeof(int) * (size_t)nslots);

    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < nslots; i++) {
        slots[i] = -1;
    }
    for (int t = 0; t < st->n; t++) {
        size_t mask = (size_t)nslots - 1, i = hash_ptr(st->tasks[t].node) & mask;
        while (slots[i] >= 0) {
            i = (i + 1) & mask;
        }
        slots[i] = t;
    }
    PyMem_Free(st->slots);
    st->slots = slots;
    st->nslots = nslots;
    return 0;
}

/* The task of node, added when new (*added = 1). Index or -1. */
static int
get_task(run_state *st, mt_node *node, int *added)
{
    int t;
    size_t mask, i;

    *added = 0;
    if (st->nslots > 0) {
        t = find_task(st, node);
        if (t >= 0) {
            return t;
        }
    }
    if (2 * (st->n + 1) > st->nslots && grow_map(st) < 0) {
        return -1;
    }
    if (st->n == st->cap) {
        int cap = st->cap ? st->cap * 2 : 32;
        task *tasks = PyMem_Realloc(st->tasks, sizeof(task) * (size_t)cap);
        int *heap = PyMem_Realloc(st->heap, sizeof(int) * (size_t)cap);
        if (tasks != NULL) {
            st->tasks = tasks;
        }
        if (heap != NULL) {
            st->heap = heap;
        }
        if (tasks == NULL || heap == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        st->cap = cap;
    }
    t = st->n;
    memset(&st->tasks[t], 0, sizeof(task));
    st->tasks[t].node = node;
    st->tasks[t].capture = -1;
    st->tasks[t].buffer = PyMem_Calloc((size_t)(node->num_outputs > 0 ? node->num_outputs : 1), sizeof(PyObject *));
    if (st->tasks[t].buffer == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    st->n++;
    mask = (size_t)st->nslots - 1;
    for (i = hash_ptr(node) & mask; st->slots[i] >= 0; i = (i + 1) & mask) {
    }
    st->slots[i] = t;
    *added = 1;
    return t;
}

static void
free_state(run_state *st)
{
    for (int t = 0; t < st->n; t++) {
        for (int k = 0; k < st->tasks[t].node->num_outputs; k++) {
            Py_XDECREF(st->tasks[t].buffer[k]);
        }
        PyMem_Free(st->tasks[t].buffer);
    }
    PyMem_Free(st->tasks);
    PyMem_Free(st->slots);
    PyMem_Free(st->heap);
}

static int
heap_before(const run_state *st, int a, int b)
{
    return st->tasks[a].node->sequence_nr > st->tasks[b].node->sequence_nr;
}

static void
heap_push(run_state *st, int t)
{
    int i = st->nheap++;
    st->heap[i] = t;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!heap_before(st, st->heap[i], st->heap[parent])) {
            break;
        }
        int tmp = st->heap[i];
        st->heap[i] = st->heap[parent];
        st->heap[parent] = tmp;
        i = parent;
    }
}

static int
heap_pop(run_state *st)
{
    int top = st->heap[0];
    int i = 0;

    st->heap[0] = st->heap[--st->nheap];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, best = i;
        if (l < st->nheap && heap_before(st, st->heap[l], st->heap[best])) {
            best = l;
        }
        if (r < st->nheap && heap_before(st, st->heap[r], st->heap[best])) {
            best = r;
        }
        if (best == i) {
            break;
        }
        int tmp = st->heap[i];
        st->heap[i] = st->heap[best];
        st->heap[best] = tmp;
        i = best;
    }
    return top;
}

/* ---- the graph walk ---------------------------------------------------------------------------------- */

/* Adds every node reachable from `root` and counts the edges into each. */
static int
compute_dependencies(run_state *st, mt_node *root)
{
    int added, t = get_task(st, root, &added);
    int *stack = NULL;
    int nstack = 0, capstack = 0;

    if (t < 0) {
        return -1;
    }
    if (!added) {
        return 0;
    }
    for (;;) {
        mt_node *node = st->tasks[t].node;
        for (int i = 0; i < node->num_inputs; i++) {
            mt_node *next = (mt_node *)node->next[i].node;
            int u;
            if (next == NULL) {
                continue;
            }
            u = get_task(st, next, &added);
            if (u < 0) {
                PyMem_Free(stack);
                return -1;
            }
            st->tasks[u].deps++;
            if (added) {
                if (nstack == capstack) {
                    int cap = capstack ? capstack * 2 : 64;
                    int *s = PyMem_Realloc(stack, sizeof(int) * (size_t)cap);
                    if (s == NULL) {
                        PyMem_Free(stack);
                        PyErr_NoMemory();
                        return -1;
                    }
                    stack = s;
                    capstack = cap;
                }
                stack[nstack++] = u;
            }
        }
        if (nstack == 0) {
            break;
        }
        t = stack[--nstack];
    }
    PyMem_Free(stack);
    return 0;
}

/* With inputs: a node leads to them when it is a target or one of its edges goes to a node that leads
 * to them; it runs when one of its edges does, or when it is a target that runs (backward(inputs=)).
 * Nodes were added in walk order (a node after its first parent), so sweeping the list backwards settles
 * most of them at once; the sweep repeats until nothing changes. */
static void
mark_needed(run_state *st, const char *target, const char *runs)
{
    char *leads = PyMem_Calloc((size_t)st->n + 1, 1);
    int changed = 1;

    if (leads == NULL) {
        /* mark everything: correct, only slower */
        for (int t = 0; t < st->n; t++) {
            st->tasks[t].needed = 1;
        }
        return;
    }
    for (int t = 0; t < st->n; t++) {
        leads[t] = target[t];
        st->tasks[t].needed = runs[t];
    }
    while (changed) {
        changed = 0;
        for (int t = st->n - 1; t >= 0; t--) {
            task *k = &st->tasks[t];
            if (k->needed) {
                continue;
            }
            for (int i = 0; i < k->node->num_inputs; i++) {
                mt_node *next = (mt_node *)k->node->next[i].node;
                if (next != NULL && leads[find_task(st, next)]) {
                    k->needed = 1;
                    leads[t] = 1;
                    changed = 1;
                    break;
                }
            }
        }
    }
    PyMem_Free(leads);
}

/* ---- gradients in and out ------------------------------------------------------------------------------ */

/* Adds grad (stolen) into slot *buf: kept as is the first time, added to afterwards (in place when the
 * sum may be written into the first gradient, as torch's InputBuffer does). 0 or -1. */
static int
buffer_add(PyObject **buf, PyObject *grad, int create_graph)
{
    mt_TensorObject *old = (mt_TensorObject *)*buf, *sum;

    if (old == NULL) {
        *buf = grad;
        return 0;
    }
    if (!create_graph && Py_REFCNT(old) == 1 && old->base == NULL && mt_tensor_is_contiguous(old) &&
        old->ndim == ((mt_TensorObject *)grad)->ndim &&
        memcmp(old->sizes, ((mt_TensorObject *)grad)->sizes, sizeof(int64_t) * (size_t)old->ndim) == 0 &&
        old->dtype == ((mt_TensorObject *)grad)->dtype) {
        sum = mt_g_add_(old, (mt_TensorObject *)grad);
        Py_XDECREF(sum);
    }
    else {
        sum = mt_g_add(old, (mt_TensorObject *)grad);
        if (sum != NULL) {
            Py_SETREF(*buf, (PyObject *)sum);
        }
    }
    Py_DECREF(grad);
    return sum != NULL ? 0 : -1;
}

static int
same_sizes(const mt_TensorObject *t, int ndim, const int64_t *sizes)
{
    return t->ndim == ndim && (ndim == 0 || memcmp(t->sizes, sizes, sizeof(int64_t) * (size_t)ndim) == 0);
}

/* torch's is_expandable_to: `sizes` broadcasts to t's shape. */
static int
expandable_to(int ndim, const int64_t *sizes, const mt_TensorObject *t)
{
    if (ndim > t->ndim) {
        return 0;
    }
    for (int i = 0; i < ndim; i++) {
        int64_t s = sizes[ndim - 1 - i], g = t->sizes[t->ndim - 1 - i];
        if (s != g && s != 1) {
            return 0;
        }
    }
    return 1;
}

/* torch's validate_outputs for the gradient of input i of node: summed back over broadcast dims, cast to
 * the input's dtype; an incompatible shape or another device is torch's error. Steals *grad, replaces it. */
static int
validate(const mt_node *node, int i, PyObject **grad)
{
    const mt_input_meta *m = &node->meta[i];
    mt_TensorObject *g = (mt_TensorObject *)*grad;

    if (!same_sizes(g, m->ndim, m->sizes)) {
        if (!expandable_to(m->ndim, m->sizes, g)) {
            char got[256], want[256];
            mt_format_shape(g->ndim, g->sizes, got, sizeof got);
            mt_format_shape(m->ndim, m->sizes, want, sizeof want);
            PyErr_Format(PyExc_RuntimeError,
                         "Function %s returned an invalid gradient at index %d - got %s but expected shape "
                         "compatible with %s",
                         mt_node_name(node), i, got, want);
            return -1;
        }
        g = mt_g_sum_to(g, m->ndim, m->sizes);
        if (g == NULL) {
            return -1;
        }
        Py_SETREF(*grad, (PyObject *)g);
    }
    if (mt_tensor_device(g).type != m->device.type || mt_tensor_device(g).index != m->device.index) {
        if (g->ndim == 0 && mt_tensor_device(g).type == MT_DEVICE_CPU) {
            g = mt_g_to(g, m->dtype, m->device);
            if (g == NULL) {
                return -1;
            }
            Py_SETREF(*grad, (PyObject *)g);
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "Function %s returned an invalid gradient at index %d - expected device "
                         "%s but got %s",
                         mt_node_name(node), i, m->device.type == MT_DEVICE_CPU ? "cpu" : "cuda",
                         mt_tensor_device(g).type == MT_DEVICE_CPU ? "cpu" : "cuda");
            return -1;
        }
    }
    if (g->dtype != m->dtype) {
        g = mt_g_to(g, m->dtype, m->device);
        if (g == NULL) {
            return -1;
        }
        Py_SETREF(*grad, (PyObject *)g);
    }
    return 0;
}

/* torch's obeys_layout_contract: strides like the leaf's when it is dense, contiguous otherwise. */
static int
obeys_layout(const mt_TensorObject *grad, const mt_TensorObject *var)
{
    if (mt_tensor_is_non_overlapping_and_dense(var)) {
        for (int i = 0; i < var->ndim; i++) {
            if (var->sizes[i] != 1 && grad->strides[i] != var->strides[i]) {
                return 0;
            }
        }
        return 1;
    }
    return mt_tensor_is_contiguous(grad);
}

/* torch's clone_obey_contract: a copy with the leaf's strides when it is dense, contiguous otherwise. */
static mt_TensorObject *
clone_obeying(mt_TensorObject *grad, const mt_TensorObject *var)
{
    if (mt_tensor_is_non_overlapping_and_dense(var)) {
        mt_TensorObject *out = mt_tensor_empty_preserving(var, grad->dtype, mt_tensor_device(grad));
        if (out != NULL && mt_copy_(out, grad) < 0) {
            Py_CLEAR(out);
        }
        return out;
    }
    return mt_g_clone_contiguous(grad);
}

/* AccumulateGrad: grad (stolen) into leaf.grad. */
static int
accumulate(mt_TensorObject *var, PyObject *grad, int create_graph)
{
    mt_TensorObject *g = (mt_TensorObject *)grad, *sum;

    if (var->grad == NULL) {
        if (!create_graph && Py_REFCNT(g) == 1 && g->grad_fn == NULL && obeys_layout(g, var)) {
            var->grad = grad;
            return 0;
        }
        sum = clone_obeying(g, var);
        Py_DECREF(g);
        if (sum == NULL) {
            return -1;
        }
        var->grad = (PyObject *)sum;
        return 0;
    }
    if (!create_graph) {
        sum = mt_g_add_((mt_TensorObject *)var->grad, g);
        Py_DECREF(g);
        Py_XDECREF(sum);
        return sum != NULL ? 0 : -1;
    }
    sum = mt_g_add((mt_TensorObject *)var->grad, g);
    Py_DECREF(g);
    if (sum == NULL) {
        return -1;
    }
    Py_SETREF(var->grad, (PyObject *)sum);
    return 0;
}

/* Calls the hooks of a dict (in order) on *grad; a hook's non-None result replaces it. */
static int
call_hook_dict(PyObject *hooks, PyObject **grad)
{
    PyObject *values = PyMapping_Values(hooks);
    int rc = 0;

    if (values == NULL) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(values) && rc == 0; k++) {
        PyObject *r = PyObject_CallOneArg(PyList_GET_ITEM(values, k), *grad);
        if (r == NULL) {
            rc = -1;
        }
        else if (r == Py_None) {
            Py_DECREF(r);
        }
        else if (!mt_Tensor_Check(r)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor or None (got %s)", Py_TYPE(r)->tp_name);
            Py_DECREF(r);
            rc = -1;
        }
        else {
            Py_SETREF(*grad, r);
        }
    }
    Py_DECREF(values);
    return rc;
}

/* The tensor hooks of a node's outputs, then retain_grad's stores. */
static int
call_tensor_hooks(mt_node *node, PyObject **buffer)
{
    if (node->variable != NULL) {
        if (node->variable->hooks != NULL && buffer[0] != NULL && call_hook_dict(node->variable->hooks, &buffer[0]) < 0) {
            return -1;
        }
        return 0;
    }
    if (node->tensor_hooks != NULL) {
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(node->tensor_hooks); k++) {
            PyObject *pair = PyList_GET_ITEM(node->tensor_hooks, k);
            int nr = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            if (nr >= 0 && nr < node->num_outputs && buffer[nr] != NULL &&
                call_hook_dict(PyTuple_GET_ITEM(pair, 1), &buffer[nr]) < 0) {
                return -1;
            }
        }
    }
    if (node->retains != NULL) {
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(node->retains); k++) {
            PyObject *pair = PyList_GET_ITEM(node->retains, k);
            int nr = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            mt_TensorObject *t = (mt_TensorObject *)PyWeakref_GetObject(PyTuple_GET_ITEM(pair, 1));
            mt_TensorObject *g;
            if ((PyObject *)t == Py_None || nr < 0 || nr >= node->num_outputs || buffer[nr] == NULL ||
                !t->retains_grad) {
                continue;
            }
            if (t->grad == NULL) {
                g = mt_g_clone_contiguous((mt_TensorObject *)buffer[nr]);
            }
            else {
                g = mt_g_add((mt_TensorObject *)t->grad, (mt_TensorObject *)buffer[nr]);
            }
            if (g == NULL) {
                return -1;
            }
            Py_XSETREF(t->grad, (PyObject *)g);
        }
    }
    return 0;
}

/* The gradients as a tuple (None for a missing one). */
static PyObject *
grads_tuple(PyObject *const *grads, int n)
{
    PyObject *t = PyTuple_New(n);

    for (int i = 0; t != NULL && i < n; i++) {
        PyObject *g = grads[i] != NULL ? grads[i] : Py_None;
        Py_INCREF(g);
        PyTuple_SET_ITEM(t, i, g);
    }
    return t;
}

/* A hook's result, a tuple of n tensors or Nones, replaces grads (None: keep them). */
static int
replace_grads(PyObject *r, const char *what, PyObject **grads, int n)
{
    if (r == Py_None) {
        return 0;
    }
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != n) {
        PyErr_Format(PyExc_RuntimeError, "hook '%s' has returned an incorrect number of values (got %zd, but "
                     "expected %d)", what, PyTuple_Check(r) ? PyTuple_GET_SIZE(r) : (Py_ssize_t)1, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *g = PyTuple_GET_ITEM(r, i);
        if (g != Py_None && !mt_Tensor_Check(g)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor or None (got %s)", Py_TYPE(g)->tp_name);
            return -1;
        }
        if (g != Py_None) {
            Py_INCREF(g);
        }
        Py_XSETREF(grads[i], g == Py_None ? NULL : g);
    }
    return 0;
}

/* Calls each hook of a node's dict: pre-hooks as hook(grad_outputs), post-hooks as hook(grad_inputs,
 * grad_outputs); a returned tuple replaces `grads`. */
static int
call_node_hooks(PyObject *hooks, PyObject **grads, int n, PyObject *const *outputs_for_post, int nout)
{
    PyObject *values = PyMapping_Values(hooks);
    int rc = 0;

    if (values == NULL) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(values) && rc == 0; k++) {
        PyObject *a = grads_tuple(grads, n), *b = NULL, *r;
        if (a != NULL && outputs_for_post != NULL) {
            b = grads_tuple(outputs_for_post, nout);
        }
        if (a == NULL || (outputs_for_post != NULL && b == NULL)) {
            Py_XDECREF(a);
            rc = -1;
            break;
        }
        r = b != NULL ? PyObject_CallFunctionObjArgs(PyList_GET_ITEM(values, k), a, b, NULL)
                      : PyObject_CallOneArg(PyList_GET_ITEM(values, k), a);
        Py_DECREF(a);
        Py_XDECREF(b);
        rc = r != NULL ? replace_grads(r, b != NULL ? "hook" : "prehook", grads, n) : -1;
        Py_XDECREF(r);
    }
    Py_DECREF(values);
    return rc;
}

/* Runs one node: its formula on its gradients, then hands each result on. */
static int
run_node(run_state *st, int t, int keep_graph, int create_graph, int accumulate_leaves, PyObject **captured)
{
    mt_node *node = st->tasks[t].node;
    PyObject **buffer = st->tasks[t].buffer;
    PyObject *small[8], **out = small;
    int any = 0, rc = -1;

    if (call_tensor_hooks(node, buffer) < 0) {
        return -1;
    }
    if (node->pre_hooks != NULL && call_node_hooks(node->pre_hooks, buffer, node->num_outputs, NULL, 0) < 0) {
        return -1;
    }
    if (st->tasks[t].capture >= 0) {
        PyObject *g = buffer[st->tasks[t].capture_slot];
        Py_XINCREF(g);
        Py_XSETREF(captured[st->tasks[t].capture], g);
    }
    if (!st->tasks[t].needed) {
        return 0;
    }
    if (node->variable != NULL) {
        PyObject *g = buffer[0];
        if (!accumulate_leaves || g == NULL) {
            return 0;
        }
        buffer[0] = NULL;
        return accumulate(node->variable, g, create_graph);
    }
    for (int k = 0; k < node->num_outputs; k++) {
        any |= buffer[k] != NULL;
    }
    if (node->num_inputs > 8) {
        out = PyMem_Calloc((size_t)node->num_inputs, sizeof(PyObject *));
        if (out == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    else {
        memset(small, 0, sizeof small);
    }
    if (any && node->fn->apply(node, buffer, out) < 0) {
        goto done;
    }
    if (node->post_hooks != NULL &&
        call_node_hooks(node->post_hooks, out, node->num_inputs, buffer, node->num_outputs) < 0) {
        goto done;
    }
    if (!keep_graph) {
        mt_node_release_variables(node);
    }
    if (mt_anomaly_on && mt_anomaly_check_outputs(node, out) < 0) {
        goto done;
    }
    for (int i = 0; i < node->num_inputs; i++) {
        mt_node *next = (mt_node *)node->next[i].node;
        int u;
        if (next == NULL) {
            Py_CLEAR(out[i]);
            continue;
        }
        u = find_task(st, next);
        if (out[i] != NULL) {
            if (validate(node, i, &out[i]) < 0 ||
                buffer_add(&st->tasks[u].buffer[node->next[i].input_nr], out[i], create_graph) < 0) {
                out[i] = NULL;
                for (int j = i + 1; j < node->num_inputs; j++) {
                    Py_CLEAR(out[j]);
                }
                goto done;
            }
            out[i] = NULL;
        }
        if (--st->tasks[u].deps == 0) {
            heap_push(st, u);
        }
    }
    rc = 0;

done:
    for (int i = 0; i < node->num_inputs; i++) {
        Py_CLEAR(out[i]);
    }
    if (out != small) {
        PyMem_Free(out);
    }
    return rc;
}

/* run_node, and under anomaly mode: nodes made meanwhile name this one as their parent, and a failure
 * warns with the forward stack of the node (torch's GraphTask::set_exception). */
static int
evaluate(run_state *st, int t, int keep_graph, int create_graph, int accumulate_leaves, PyObject **captured)
{
    mt_node *node = st->tasks[t].node, *prev;
    int rc;

    if (!mt_anomaly_on) {
        return run_node(st, t, keep_graph, create_graph, accumulate_leaves, captured);
    }
    prev = mt_anomaly_set_current(node);
    rc = run_node(st, t, keep_graph, create_graph, accumulate_leaves, captured);
    mt_anomaly_set_current(prev);
    if (rc < 0) {
        mt_anomaly_report(node);
    }
    return rc;
}

/* The node a gradient for t goes to, and which of its inputs: (grad_fn, output_nr), or a leaf's
 * AccumulateGrad. New reference, or NULL: t needs no grad (no exception) or an error. */
static mt_node *
gradient_edge(mt_TensorObject *t, int *nr)
{
    if (t->grad_fn != NULL) {
        *nr = t->output_nr;
        Py_INCREF(t->grad_fn);
        return (mt_node *)t->grad_fn;
    }
    *nr = 0;
    if (!t->requires_grad) {
        return NULL;
    }
    return (mt_node *)mt_ag_grad_accumulator(t);
}

PyObject *
mt_engine_run(int n_roots, mt_TensorObject *const *roots, PyObject *const *grads, int keep_graph, int create_graph,
              int n_inputs, mt_TensorObject *const *inputs, int accumulate_leaves, int allow_unused)
{
    run_state st;
    PyObject **captured = NULL;
    mt_node **held = NULL;
    int nheld = 0;
    PyObject *result = NULL;
    int prev_grad = mt_set_grad_enabled(create_graph);

    memset(&st, 0, sizeof st);
    held = PyMem_Calloc((size_t)(n_roots + n_inputs + 1), sizeof(mt_node *));
    captured = PyMem_Calloc((size_t)(n_inputs + 1), sizeof(PyObject *));
    if (held == NULL || captured == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < n_roots; i++) {
        int nr, t, added;
        mt_node *node = gradient_edge(roots[i], &nr);
        if (node == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_RuntimeError,
                             "element %d of tensors does not require grad and does not have a grad_fn", i);
            }
            goto done;
        }
        held[nheld++] = node;
        if (compute_dependencies(&st, node) < 0) {
            goto done;
        }
        t = get_task(&st, node, &added);
        if (t < 0) {
            goto done;
        }
        Py_INCREF(grads[i]);
        if (buffer_add(&st.tasks[t].buffer[nr], grads[i], create_graph) < 0) {
            goto done;
        }
    }
    if (n_inputs > 0) {
        char *target = PyMem_Calloc((size_t)st.n + 1, 1), *runs = PyMem_Calloc((size_t)st.n + 1, 1);
        if (target == NULL || runs == NULL) {
            PyMem_Free(target);
            PyMem_Free(runs);
            PyErr_NoMemory();
            goto done;
        }
        for (int i = 0; i < n_inputs; i++) {
            int nr, t;
            mt_node *node = gradient_edge(inputs[i], &nr);
            if (node == NULL) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_RuntimeError, "One of the differentiated Tensors does not require grad");
                }
                PyMem_Free(target);
                PyMem_Free(runs);
                goto done;
            }
            held[nheld++] = node;
            t = find_task(&st, node);
            if (t < 0) {
                continue;   /* not in this graph: its gradient stays None */
            }
            target[t] = 1;
            /* backward(inputs=) runs the target (a leaf's AccumulateGrad, a non-leaf's node whose
             * retain_grad store fills .grad); autograd.grad only captures what flows into it */
            runs[t] = (char)accumulate_leaves;
            st.tasks[t].capture = i;
            st.tasks[t].capture_slot = nr;
        }
        mark_needed(&st, target, runs);
        PyMem_Free(target);
        PyMem_Free(runs);
    }
    else {
        for (int t = 0; t < st.n; t++) {
            st.tasks[t].needed = 1;
        }
    }
    for (int t = 0; t < st.n; t++) {
        if (st.tasks[t].deps == 0) {
            heap_push(&st, t);
        }
    }
    while (st.nheap > 0) {
        int t = heap_pop(&st);
        if (evaluate(&st, t, keep_graph, create_graph, accumulate_leaves, captured) < 0) {
            goto done;
        }
        for (int k = 0; k < st.tasks[t].node->num_outputs; k++) {
            Py_CLEAR(st.tasks[t].buffer[k]);
        }
    }
    if (n_inputs > 0 && !accumulate_leaves) {
        result = PyTuple_New(n_inputs);
        if (result == NULL) {
            goto done;
        }
        for (int i = 0; i < n_inputs; i++) {
            PyObject *g = captured[i];
            if (g == NULL) {
                if (!allow_unused) {
                    Py_CLEAR(result);
                    PyErr_Format(PyExc_RuntimeError,
                                 "The differentiated Tensor at index %d appears to not have been used in the graph. "
                                 "Set allow_unused=True if this is the desired behavior.",
                                 i);
                    goto done;
                }
                g = Py_None;
            }
            Py_INCREF(g);
            PyTuple_SET_ITEM(result, i, g);
        }
    }
    else {
        Py_INCREF(Py_None);
        result = Py_None;
    }

done:
    mt_set_grad_enabled(prev_grad);
    free_state(&st);
    if (captured != NULL) {
        for (int i = 0; i < n_inputs; i++) {
            Py_XDECREF(captured[i]);
        }
    }
    PyMem_Free(captured);
    if (held != NULL) {
        for (int i = 0; i < nheld; i++) {
            Py_XDECREF(held[i]);
        }
    }
    PyMem_Free(held);
    return result;
}
