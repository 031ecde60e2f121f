/* autograd.h: torch's autograd graph as the ops see it. An op whose inputs require grad (with grad mode on)
 * records one node: the derivative it runs backward (its torch name, AddBackward0, and formula), edges to
 * the nodes that made its inputs (a leaf's AccumulateGrad), what each input looked like (so a gradient can
 * be summed back over broadcast dims), and the tensors and numbers its formula needs. The engine
 * (engine.c) runs the nodes in torch's order; the formulas (derivatives.c) are written with minitorch's
 * own ops, so they run on every device and record nodes themselves under create_graph=True.
 *
 * Ownership: a tensor owns its grad_fn; a node owns the nodes of its inputs and its saved tensors; an
 * AccumulateGrad owns its leaf; a node's own output is saved as an alias without a grad_fn, so no node
 * and tensor keep each other alive. */
#ifndef MT_AUTOGRAD_H
#define MT_AUTOGRAD_H

#include <Python.h>
#include <stdint.h>

#include "../core/scalar.h"
#include "../core/tensor.h"

/* ---- grad mode (per thread, as torch's) ----------------------------------------------------------- */

int mt_grad_enabled(void);
/* Sets grad mode; returns the previous one. */
int mt_set_grad_enabled(int enabled);
int mt_inference_mode_enabled(void);
int mt_set_inference_mode(int enabled);

/* t saved for backward: torch's RuntimeError for an inference tensor outside inference_mode. 0 or -1. */
int mt_ag_check_saveable(mt_TensorObject *t);

/* requires_grad=True on an inference tensor outside inference_mode: torch's RuntimeError. 0 or -1. */
int mt_ag_check_inference_requires_grad(mt_TensorObject *t);

/* ---- anomaly mode (anomaly.c): one process-wide flag, as torch's ------------------------------------ */

extern int mt_anomaly_on;
int mt_anomaly_check_nan_enabled(void);
void mt_set_anomaly(int enabled, int check_nan);

/* ---- nodes ------------------------------------------------------------------------------------------ */

typedef struct mt_node mt_node;

/* A node's formula: grads[i] is the gradient of the forward op's output i (NULL: none arrived); it sets
 * out[j] to the gradient of input j (a new reference, or NULL for none). 0, or -1 with an exception. */
typedef int (*mt_backward_fn)(mt_node *node, PyObject *const *grads, PyObject **out);

typedef struct {
    const char *name;           /* torch's class name: "AddBackward0" */
    mt_backward_fn apply;       /* every row has one (torch's NotImplemented nodes: one that raises);
                                 * AccumulateGrad's is NULL: the engine accumulates itself */
    PyTypeObject *type;         /* the Python class of its nodes, made at the first one */
} mt_derivative;

/* What the gradient for one input must look like (torch's InputMetadata). */
typedef struct {
    int ndim;
    mt_dtype dtype;
    mt_device device;
    int64_t *sizes;
} mt_input_meta;

typedef struct {
    PyObject *node;             /* the node its gradient goes to (owned), NULL: none needs it */
    int input_nr;               /* which input of that node */
} mt_edge;

#define MT_NODE_MAX_SAVED 4

typedef struct {
    mt_TensorObject *tensor;    /* owned; NULL when nothing was saved or after release */
    int64_t version;            /* its version counter when saved */
    int is_output;              /* an alias of the node's own output (grad_fn left out: no cycle) */
    int saved;                  /* something was saved here (so a NULL tensor means it was released) */
} mt_saved;

struct mt_node {
    PyObject_HEAD
    mt_derivative *fn;          /* NULL for AccumulateGrad */
    uint64_t sequence_nr;       /* creation order; UINT64_MAX for AccumulateGrad */
    int num_inputs;             /* edges: one per input of the forward op */
    int num_outputs;            /* the forward op's outputs, whose gradients the node takes */
    mt_edge *next;
    mt_input_meta *meta;        /* per input */
    mt_saved saved[MT_NODE_MAX_SAVED];
    mt_scalar scalars[2];       /* numbers the formula needs (alpha, beta, the number operand) */
    int64_t ints[4];            /* small integer arguments (dims, an index, a start) */
    uint64_t mask;              /* a set of dims */
    int flag;                   /* a boolean argument (keepdim) or layout bits */
    int released;               /* saved tensors freed by a backward without retain_graph */
    PyObject *extra;            /* anything else the formula needs (a tuple), or a custom Function's ctx */
    PyObject *tensor_hooks;     /* list of (output_nr, dict of hooks) from register_hook on outputs */
    PyObject *retains;          /* list of (output_nr, weakref to a tensor that retains its grad) */
    PyObject *post_hooks;       /* dict: node.register_hook(fn(grad_inputs, grad_outputs)) */
    PyObject *pre_hooks;        /* dict: node.register_prehook(fn(grad_outputs)) */
    mt_TensorObject *variable;  /* AccumulateGrad: its leaf (owned) */
    PyObject *dict;
    PyObject *weakreflist;
};

/* requires_grad as torch reports it: a leaf's flag, or having a grad_fn. */
static inline int
mt_requires_grad(const mt_TensorObject *t)
{
    return t->requires_grad || t->grad_fn != NULL;
}

/* 1 when an op over these inputs (NULL entries: numbers) records a node: grad mode is on and one of them
 * requires grad. */
int mt_ag_needed(int n, mt_TensorObject *const *inputs);

/* A new node of derivative d over n inputs (NULL: a number, no edge). Edges go to each input's grad_fn,
 * or its AccumulateGrad for a leaf that requires grad. New reference or NULL. */
mt_node *mt_ag_node(mt_derivative *d, int n, mt_TensorObject *const *inputs, int num_outputs);

/* Makes `out` output nr of `node` (its grad_fn). A result of a dtype that cannot require grad (integers,
 * bool) stays outside the graph, as in torch. 0 or -1. */
int mt_ag_set_output(mt_node *node, mt_TensorObject *out, int nr);

/* Saves t in slot i for the formula, with its current version; is_output when t is the node's own output
 * (an alias is kept, without grad_fn). 0 or -1. */
int mt_ag_save(mt_node *node, int i, mt_TensorObject *t, int is_output);

/* The tensor saved in slot i, checked: torch's "Trying to backward through the graph a second time" when
 * it was freed, and torch's version-counter error when it was changed in place since. New reference or
 * NULL. */
mt_TensorObject *mt_ag_unpack(mt_node *node, int i);

/* Before an in-place op writes `self` with grad mode on: torch's errors for a leaf that requires grad or
 * a view of one. 0 or -1. */
int mt_ag_check_inplace(mt_TensorObject *self);

/* After an in-place op: bumps self's version. 0 or -1. */
int mt_ag_bump(mt_TensorObject *self);

/* The node's Python class name. */
const char *mt_node_name(const mt_node *node);

/* What the node's name() says, as torch's: the class name, or the C++ name of the nodes torch writes in
 * C++ (torch::autograd::AccumulateGrad, torch::autograd::CopySlices, torch::autograd::NotImplemented). */
const char *mt_node_torch_name(const mt_node *node);

/* The leaf's AccumulateGrad node (made on demand): new reference or NULL. */
PyObject *mt_ag_grad_accumulator(mt_TensorObject *leaf);

/* After an in-place op on self recorded `node` (over the op's n inputs, self first): self's new grad_fn,
 * or, when self is a view, torch's rebasing: the base gets a CopySlices node and self an
 * AsStridedBackward0 over it (inplace.c). 0 or -1. */
int mt_ag_set_inplace_output(mt_node *node, mt_TensorObject *self, int n, mt_TensorObject *const *inputs);

/* The row of a leaf's AccumulateGrad node (its fn is NULL: the engine accumulates). */
extern mt_derivative mt_accumulate_grad;

/* The node type's slots (csrc/python/node_type.c installs them) and the release of saved tensors. */
int mt_node_traverse(mt_node *self, visitproc visit, void *arg);
int mt_node_clear(mt_node *self);
void mt_node_dealloc(mt_node *self);
void mt_node_release_variables(mt_node *node);

/* Anomaly mode's side of a node (anomaly.c). store: keeps the forward stack (and the node whose backward
 * runs, if any) in a new node's metadata, 0 or -1. set_current: the node whose backward this thread runs
 * now (returns the previous one). report: torch's warnings naming the node that failed and the forward
 * calls behind it, the pending exception kept. check_outputs: torch's error when one of the gradients a
 * node returned (out, one per input) holds NaN, with check_nan; 0 or -1. */
int mt_anomaly_store(mt_node *node);
mt_node *mt_anomaly_set_current(mt_node *node);
void mt_anomaly_report(mt_node *node);
int mt_anomaly_check_outputs(mt_node *node, PyObject *const *out);

/* ---- the engine (engine.c) ------------------------------------------------------------------------ */

/* Runs backward from roots[i] (tensors) with grads[i] (tensors). With `inputs` (n_inputs > 0), only what
 * leads to them runs and their gradients are returned as a tuple (autograd.grad, when !accumulate) or
 * accumulated into their .grad (backward(inputs=)). keep_graph keeps saved tensors; create_graph records
 * the backward's own ops. Returns the tuple (autograd.grad), None, or NULL. */
PyObject *mt_engine_run(int n_roots, mt_TensorObject *const *roots, PyObject *const *grads, int keep_graph,
                        int create_graph, int n_inputs, mt_TensorObject *const *inputs, int accumulate,
                        int allow_unused);

/* The Node type every node class derives from (created by csrc/python/autograd_type.c). */
extern PyTypeObject *mt_NodeTypePtr;

#endif
