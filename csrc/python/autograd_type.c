/* autograd_type.c: autograd as Python sees it: the Node type (grad_fn objects: name(), next_functions,
 * metadata, the leaf AccumulateGrad's variable), the tensor's autograd attributes (grad with torch's
 * setter checks and non-leaf warning, grad_fn, is_leaf, requires_grad and its setter rules, retain_grad,
 * retains_grad, _backward_hooks, _base, _version, detach, detach_, data), grad mode, and the engine's entry
 * (_run_backward). minitorch/autograd/ and minitorch/_tensor.py build torch's Python API on these. The
 * graph itself is csrc/autograd/. */
#include "autograd_type.h"

#include <string.h>
#include <structmember.h>

#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "../ops/copy.h"
#include "../ops/dispatch.h"
#include "argparse.h"
#include "../core/dtype.h"
#include "../ops/shape.h"
#include "../core/warn.h"

/* ---- Node ------------------------------------------------------------------------------------------- */

static PyObject *
node_name(mt_node *self, PyObject *unused)
{
    return PyUnicode_FromString(mt_node_torch_name(self));
}

static PyObject *
node_next_functions_get(mt_node *self, void *closure)
{
    PyObject *result = PyTuple_New(self->num_inputs);

    if (result == NULL) {
        return NULL;
    }
    for (int i = 0; i < self->num_inputs; i++) {
        PyObject *fn = self->next[i].node != NULL ? self->next[i].node : Py_None;
        PyObject *pair = Py_BuildValue("(Oi)", fn, self->next[i].node != NULL ? self->next[i].input_nr : 0);
        if (pair == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, pair);
    }
    return result;
}

static PyObject *
node_metadata_get(mt_node *self, void *closure)
{
    if (self->dict == NULL) {
        self->dict = PyDict_New();
        if (self->dict == NULL) {
            return NULL;
        }
    }
    Py_INCREF(self->dict);
    return self->dict;
}

static PyObject *
node_variable_get(mt_node *self, void *closure)
{
    if (self->variable == NULL) {
        PyErr_SetString(PyExc_AttributeError, "'variable' is an attribute of AccumulateGrad nodes only");
        return NULL;
    }
    Py_INCREF(self->variable);
    return (PyObject *)self->variable;
}

/* node._register_hook_dict(tensor): tensor's hook dict runs on the gradient of its output slot. */
static PyObject *
node_register_hook_dict(mt_node *self, PyObject *tensor)
{
    mt_TensorObject *t = (mt_TensorObject *)tensor;
    PyObject *pair;

    if (!mt_Tensor_Check(tensor) || t->hooks == NULL) {
        PyErr_SetString(PyExc_TypeError, "_register_hook_dict expects a tensor with _backward_hooks");
        return NULL;
    }
    if (self->tensor_hooks == NULL && (self->tensor_hooks = PyList_New(0)) == NULL) {
        return NULL;
    }
    pair = Py_BuildValue("(iO)", t->output_nr, t->hooks);
    if (pair == NULL || PyList_Append(self->tensor_hooks, pair) < 0) {
        Py_XDECREF(pair);
        return NULL;
    }
    Py_DECREF(pair);
    Py_RETURN_NONE;
}

/* A hook in one of the node's dicts (made on first use), behind a RemovableHandle, as torch's
 * Node.register_hook and register_prehook return. */
static PyObject *
node_add_hook(PyObject **dict, PyObject *hook)
{
    PyObject *hooks_module, *handle, *id;

    if (!PyCallable_Check(hook)) {
        PyErr_Format(PyExc_TypeError, "hook must be callable, not %s", Py_TYPE(hook)->tp_name);
        return NULL;
    }
    if (*dict == NULL) {
        /* an OrderedDict, as torch's: RemovableHandle keeps a weak reference to it */
        PyObject *collections = PyImport_ImportModule("collections");
        *dict = collections != NULL ? PyObject_CallMethod(collections, "OrderedDict", NULL) : NULL;
        Py_XDECREF(collections);
        if (*dict == NULL) {
            return NULL;
        }
    }
    hooks_module = PyImport_ImportModule("minitorch.utils.hooks");
    if (hooks_module == NULL) {
        return NULL;
    }
    handle = PyObject_CallMethod(hooks_module, "RemovableHandle", "O", *dict);
    Py_DECREF(hooks_module);
    if (handle == NULL) {
        return NULL;
    }
    id = PyObject_GetAttrString(handle, "id");
    if (id == NULL || PyObject_SetItem(*dict, id, hook) < 0) {
        Py_XDECREF(id);
        Py_DECREF(handle);
        return NULL;
    }
    Py_DECREF(id);
    return handle;
}

static PyObject *
node_register_hook(mt_node *self, PyObject *hook)
{
    return node_add_hook(&self->post_hooks, hook);
}

static PyObject *
node_register_prehook(mt_node *self, PyObject *hook)
{
    return node_add_hook(&self->pre_hooks, hook);
}

static PyMethodDef node_methods[] = {
    {"name", (PyCFunction)node_name, METH_NOARGS, "The node's class name, as torch names it."},
    {"register_hook", (PyCFunction)node_register_hook, METH_O,
     "Calls hook(grad_inputs, grad_outputs) after the node ran; a returned tuple replaces grad_inputs."},
    {"register_prehook", (PyCFunction)node_register_prehook, METH_O,
     "Calls hook(grad_outputs) before the node runs; a returned tuple replaces grad_outputs."},
    {"_register_hook_dict", (PyCFunction)node_register_hook_dict, METH_O, NULL},
    {NULL},
};

static PyGetSetDef node_getset[] = {
    {"next_functions", (getter)node_next_functions_get, NULL,
     "(node, input_nr) for each input of the forward op: where its gradient goes (None: nowhere).", NULL},
    {"metadata", (getter)node_metadata_get, NULL, "A dict for the user's own notes on this node.", NULL},
    {"variable", (getter)node_variable_get, NULL, "AccumulateGrad: the leaf it accumulates into.", NULL},
    {NULL},
};

static PyMemberDef node_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(mt_node, weakreflist), READONLY, NULL},
    {NULL},
};

/* <AddBackward0 object at 0x...>, as torch prints its nodes (a custom Function's with its module) */
static PyObject *
node_repr(PyObject *self)
{
    PyObject *module = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "__module__"), *r;
    const char *name = _PyType_Name(Py_TYPE(self));

    if (module == NULL) {
        return NULL;
    }
    if (PyUnicode_Check(module) && PyUnicode_CompareWithASCIIString(module, "builtins") != 0) {
        r = PyUnicode_FromFormat("<%U.%s object at %p>", module, name, self);
    }
    else {
        r = PyUnicode_FromFormat("<%s object at %p>", name, self);
    }
    Py_DECREF(module);
    return r;
}

static PyObject *
node_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyErr_Format(PyExc_TypeError, "cannot create '%s' instances", type->tp_name);
    return NULL;
}

static PyType_Slot node_slots[] = {
    {Py_tp_dealloc, mt_node_dealloc},
    {Py_tp_traverse, mt_node_traverse},
    {Py_tp_clear, mt_node_clear},
    {Py_tp_methods, node_methods},
    {Py_tp_getset, node_getset},
    {Py_tp_members, node_members},
    {Py_tp_new, node_new},
    {Py_tp_repr, node_repr},
    {Py_tp_doc, "A node of the autograd graph: the backward of one recorded op (a tensor's grad_fn)."},
    {0, NULL},
};

static PyType_Spec node_spec = {
    .name = "minitorch._C._functions.Node",
    .basicsize = sizeof(mt_node),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = node_slots,
};

/* ---- the tensor's autograd attributes ---------------------------------------------------------------- */

PyObject *
mt_tensor_grad_get(mt_TensorObject *self, void *closure)
{
    if (self->grad_fn != NULL && !self->retains_grad && self->grad == NULL) {
        if (mt_warn(PyExc_UserWarning,
                    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field to "
                    "be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access "
                    "the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
                    "github.com/pytorch/pytorch/pull/30531 for more informations.") < 0) {
            return NULL;
        }
    }
    if (self->grad == NULL) {
        Py_RETURN_NONE;
    }
    Py_INCREF(self->grad);
    return self->grad;
}

int
mt_tensor_grad_set(mt_TensorObject *self, PyObject *value, void *closure)
{
    mt_TensorObject *g = (mt_TensorObject *)value;

    if (value == NULL || value == Py_None) {
        Py_CLEAR(self->grad);
        return 0;
    }
    if (!mt_Tensor_Check(value)) {
        PyErr_Format(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got grad of type %s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    if (g == self) {
        PyErr_SetString(PyExc_RuntimeError, "can't assign Variable as its own grad");
        return -1;
    }
    if (g->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "attempting to assign a gradient with dtype '%s' to a tensor with grad_dtype '%s'. The gradient "
                     "must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                     "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
                     "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that "
                     "assume they match.",
                     mt_dtype_c_name(g->dtype), mt_dtype_scalar_name(self->dtype));
        return -1;
    }
    if (mt_tensor_device(g).type != mt_tensor_device(self).type) {
        PyErr_Format(PyExc_RuntimeError,
                     "attempting to assign a gradient with device type '%s' to a tensor with device type '%s'. Please "
                     "ensure that the gradient and the tensor are on the same device",
                     mt_tensor_device(g).type == MT_DEVICE_CPU ? "cpu" : "cuda",
                     mt_tensor_device(self).type == MT_DEVICE_CPU ? "cpu" : "cuda");
        return -1;
    }
    if (mt_tensor_device(g).index != mt_tensor_device(self).index) {
        PyErr_SetString(PyExc_RuntimeError, "assigned grad has data located on a different device");
        return -1;
    }
    if (g->ndim != self->ndim || memcmp(g->sizes, self->sizes, sizeof(int64_t) * (size_t)g->ndim) != 0) {
        char got[256], want[256];
        mt_format_shape(g->ndim, g->sizes, got, sizeof got);
        mt_format_shape(self->ndim, self->sizes, want, sizeof want);
        PyErr_Format(PyExc_RuntimeError,
                     "attempting to assign a gradient of size '%s' to a tensor of size '%s'. Please ensure that the "
                     "gradient and the tensor are the same size",
                     got, want);
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(self->grad, value);
    return 0;
}

PyObject *
mt_tensor_grad_fn_get(mt_TensorObject *self, void *closure)
{
    PyObject *fn = self->grad_fn != NULL ? self->grad_fn : Py_None;
    Py_INCREF(fn);
    return fn;
}

PyObject *
mt_tensor_is_leaf_get(mt_TensorObject *self, void *closure)
{
    return PyBool_FromLong(self->grad_fn == NULL);
}

PyObject *
mt_tensor_requires_grad_get(mt_TensorObject *self, void *closure)
{
    return PyBool_FromLong(mt_requires_grad(self));
}

int
mt_tensor_set_requires_grad(mt_TensorObject *self, int flag, int from_method)
{
    if (self->grad_fn != NULL) {
        if (flag && from_method) {
            return 0;   /* requires_grad_() on a non-leaf: already true */
        }
        PyErr_SetString(PyExc_RuntimeError,
                        flag ? "you can only change requires_grad flags of leaf variables."
                             : "you can only change requires_grad flags of leaf variables. If you want to use a "
                               "computed variable in a subgraph that doesn't require differentiation use var_no_grad = "
                               "var.detach().");
        return -1;
    }
    if (flag && !mt_dtype_is_floating(self->dtype)) {
        /* the attribute setter and requires_grad_() word this differently in torch */
        PyErr_SetString(PyExc_RuntimeError, from_method
                                                ? "only Tensors of floating point dtype can require gradients"
                                                : "only Tensors of floating point and complex dtype can require "
                                                  "gradients");
        return -1;
    }
    if (flag && mt_ag_check_inference_requires_grad(self) < 0) {
        return -1;
    }
    self->requires_grad = flag;
    return 0;
}

PyObject *
mt_tensor_retains_grad_get(mt_TensorObject *self, void *closure)
{
    return PyBool_FromLong(self->retains_grad);
}

PyObject *
mt_tensor_backward_hooks_get(mt_TensorObject *self, void *closure)
{
    PyObject *h = self->hooks != NULL ? self->hooks : Py_None;
    Py_INCREF(h);
    return h;
}

int
mt_tensor_backward_hooks_set(mt_TensorObject *self, PyObject *value, void *closure)
{
    if (value == NULL || value == Py_None) {
        Py_CLEAR(self->hooks);
        return 0;
    }
    if (!PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_backward_hooks must be a dict or None");
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(self->hooks, value);
    return 0;
}

PyObject *
mt_tensor_base_get(mt_TensorObject *self, void *closure)
{
    PyObject *b = self->base != NULL ? self->base : Py_None;
    Py_INCREF(b);
    return b;
}

PyObject *
mt_tensor_version_get(mt_TensorObject *self, void *closure)
{
    if (mt_tensor_is_inference(self)) {
        PyErr_SetString(PyExc_RuntimeError, "Inference tensors do not track version counter.");
        return NULL;
    }
    return PyLong_FromLongLong(mt_tensor_version(self));
}

PyObject *
mt_tensor_output_nr_get(mt_TensorObject *self, void *closure)
{
    return PyLong_FromLong(self->output_nr);
}

/* A new tensor over self's memory, outside the graph: detach() shares the version counter, .data does not. */
static mt_TensorObject *
detached(mt_TensorObject *self, int share_version)
{
    mt_TensorObject *t =
        mt_tensor_from_storage(self->storage, self->ndim, self->sizes, self->strides, self->offset, self->dtype);

    if (t != NULL && share_version && mt_tensor_share_version(t, self) < 0) {
        Py_CLEAR(t);
    }
    return t;
}

PyObject *
mt_tensor_detach(mt_TensorObject *self, PyObject *unused)
{
    return (PyObject *)detached(self, 1);
}

PyObject *
mt_tensor_detach_(mt_TensorObject *self, PyObject *unused)
{
    if (self->base != NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                        "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                        "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                        "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
        return NULL;
    }
    Py_CLEAR(self->grad_fn);
    self->output_nr = 0;
    self->requires_grad = 0;
    Py_INCREF(self);
    return (PyObject *)self;
}

PyObject *
mt_tensor_data_alias(mt_TensorObject *self)
{
    return (PyObject *)detached(self, 0);
}

PyObject *
mt_tensor_retain_grad(mt_TensorObject *self, PyObject *unused)
{
    PyObject *ref, *pair;
    mt_node *node = (mt_node *)self->grad_fn;

    if (!mt_requires_grad(self)) {
        PyErr_SetString(PyExc_RuntimeError, "can't retain_grad on Tensor that has requires_grad=False");
        return NULL;
    }
    if (node == NULL || self->retains_grad) {
        Py_RETURN_NONE;
    }
    if (node->retains == NULL && (node->retains = PyList_New(0)) == NULL) {
        return NULL;
    }
    ref = PyWeakref_NewRef((PyObject *)self, NULL);
    pair = ref != NULL ? Py_BuildValue("(iN)", self->output_nr, ref) : NULL;
    if (pair == NULL || PyList_Append(node->retains, pair) < 0) {
        Py_XDECREF(pair);
        return NULL;
    }
    Py_DECREF(pair);
    self->retains_grad = 1;
    Py_RETURN_NONE;
}

PyObject *
mt_tensor_is_view(mt_TensorObject *self, PyObject *unused)
{
    return PyBool_FromLong(self->base != NULL);
}

/* ---- custom Functions: a node whose formula is the class's Python backward ---------------------------- */

/* node->extra is (ctx, backward, is_tensor): the FunctionCtx, the class's backward, and which forward
 * arguments were tensors (each of them is one edge, in order). */
static int
python_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    PyObject *ctx = PyTuple_GET_ITEM(node->extra, 0), *fn = PyTuple_GET_ITEM(node->extra, 1);
    PyObject *is_tensor = PyTuple_GET_ITEM(node->extra, 2);
    Py_ssize_t nargs = PyTuple_GET_SIZE(is_tensor);
    PyObject *args = PyTuple_New(node->num_outputs + 1), *r;
    int edge = 0, rc = -1;

    if (args == NULL) {
        return -1;
    }
    Py_INCREF(ctx);
    PyTuple_SET_ITEM(args, 0, ctx);
    for (int k = 0; k < node->num_outputs; k++) {
        PyObject *g = grads[k] != NULL ? grads[k] : Py_None;
        Py_INCREF(g);
        PyTuple_SET_ITEM(args, k + 1, g);
    }
    if (node->saved[0].saved) {
        /* an in-place op's node keeps its result (function_record_inplace): backward reads it through
         * ctx.saved_tensors, checked as torch checks a saved output (its version, a freed graph) */
        mt_TensorObject *result = mt_ag_unpack(node, 0);
        PyObject *saved = result != NULL ? PyTuple_Pack(1, (PyObject *)result) : NULL;
        int failed = saved == NULL || PyObject_SetAttrString(ctx, "to_save", saved) < 0;
        Py_XDECREF(result);
        Py_XDECREF(saved);
        if (failed) {
            Py_DECREF(args);
            return -1;
        }
    }
    r = PyObject_Call(fn, args, NULL);
    Py_DECREF(args);
    if (node->saved[0].saved) {
        /* the result stays with the node alone, freed with the graph */
        PyObject *type, *value, *tb, *empty;
        PyErr_Fetch(&type, &value, &tb);
        empty = PyTuple_New(0);
        if (empty == NULL || PyObject_SetAttrString(ctx, "to_save", empty) < 0) {
            Py_CLEAR(r);
        }
        Py_XDECREF(empty);
        if (type != NULL) {
            PyErr_Restore(type, value, tb);
        }
    }
    if (r == NULL) {
        return -1;
    }
    if (!PyTuple_Check(r)) {
        Py_SETREF(r, PyTuple_Pack(1, r));
        if (r == NULL) {
            return -1;
        }
    }
    if (PyTuple_GET_SIZE(r) < nargs) {
        PyErr_Format(PyExc_RuntimeError, "function %s returned an incorrect number of gradients (expected %zd, got %zd)",
                     mt_node_name(node), nargs, PyTuple_GET_SIZE(r));
        goto done;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *g = PyTuple_GET_ITEM(r, i);
        if (PyTuple_GET_ITEM(is_tensor, i) != Py_True) {
            continue;
        }
        if (g != Py_None && !mt_Tensor_Check(g)) {
            PyErr_Format(PyExc_TypeError, "function %s returned a gradient that is not a Tensor or None: %s",
                         mt_node_name(node), Py_TYPE(g)->tp_name);
            goto done;
        }
        if (g != Py_None && node->next[edge].node != NULL) {
            Py_INCREF(g);
            out[edge] = g;
        }
        edge++;
    }
    rc = 0;

done:
    Py_DECREF(r);
    return rc;
}

/* One derivative row per custom Function class name, made on first use and kept for the process. */
static PyObject *function_rows;     /* dict: name -> capsule of an mt_derivative */

static mt_derivative *
function_row(PyObject *name)
{
    PyObject *cap;
    mt_derivative *d;
    const char *text;

    if (function_rows == NULL && (function_rows = PyDict_New()) == NULL) {
        return NULL;
    }
    cap = PyDict_GetItemWithError(function_rows, name);
    if (cap != NULL) {
        return PyCapsule_GetPointer(cap, NULL);
    }
    if (PyErr_Occurred() || (text = PyUnicode_AsUTF8(name)) == NULL) {
        return NULL;
    }
    d = PyMem_Calloc(1, sizeof(mt_derivative) + strlen(text) + 1);
    if (d == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    strcpy((char *)(d + 1), text);
    d->name = (const char *)(d + 1);
    d->apply = python_backward;
    cap = PyCapsule_New(d, NULL, NULL);
    if (cap == NULL || PyDict_SetItem(function_rows, name, cap) < 0) {
        Py_XDECREF(cap);
        PyMem_Free(d);
        return NULL;
    }
    Py_DECREF(cap);
    return d;
}

/* The tensors among a Function's arguments (its node's inputs, *n of them, in a new PyMem array) and a
 * tuple of bools saying which arguments are tensors (backward's results line up with the arguments).
 * 0, or -1 with an exception (what was made is left in *inputs and *is_tensor for the caller to free). */
static int
function_inputs(PyObject *fargs, mt_TensorObject ***inputs, PyObject **is_tensor, Py_ssize_t *n)
{
    *inputs = PyMem_Calloc((size_t)PyTuple_GET_SIZE(fargs) + 1, sizeof(mt_TensorObject *));
    if (*inputs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *is_tensor = PyTuple_New(PyTuple_GET_SIZE(fargs));
    if (*is_tensor == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fargs); i++) {
        PyObject *a = PyTuple_GET_ITEM(fargs, i);
        int t = mt_Tensor_Check(a);
        Py_INCREF(t ? Py_True : Py_False);
        PyTuple_SET_ITEM(*is_tensor, i, t ? Py_True : Py_False);
        if (t) {
            (*inputs)[(*n)++] = (mt_TensorObject *)a;
        }
    }
    return 0;
}

/* the tensors of ctx.save_for_backward() checked as the C ops' saved tensors are (mt_ag_save); read from
 * ctx's __dict__, so that a ctx that saved nothing costs no AttributeError */
static int
check_saved(PyObject *ctx)
{
    PyObject *dict = PyObject_GenericGetDict(ctx, NULL), *saved;
    int rc = 0;

    if (dict == NULL) {
        PyErr_Clear();  /* a ctx without a __dict__ saved nothing */
        return 0;
    }
    saved = PyDict_GetItemString(dict, "to_save");
    Py_XINCREF(saved);
    Py_DECREF(dict);
    if (saved == NULL) {
        return 0;
    }
    if (PyTuple_Check(saved)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(saved) && rc == 0; i++) {
            PyObject *t = PyTuple_GET_ITEM(saved, i);
            if (mt_Tensor_Check(t)) {
                rc = mt_ag_check_saveable((mt_TensorObject *)t);
            }
        }
    }
    Py_DECREF(saved);
    return rc;
}

/* _function_record(name, ctx, backward, args, outputs): outputs become the node's outputs; the tensors
 * among args its inputs. Returns the node, or None when nothing requires grad. */
static PyObject *
function_record(PyObject *module, PyObject *args)
{
    PyObject *name, *ctx, *backward, *fargs, *outputs, *is_tensor = NULL;
    mt_TensorObject **inputs = NULL;
    mt_derivative *d;
    mt_node *node = NULL;
    Py_ssize_t n = 0;

    if (!PyArg_ParseTuple(args, "UOOO!O!:_function_record", &name, &ctx, &backward, &PyTuple_Type, &fargs,
                          &PyTuple_Type, &outputs)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(fargs) > INT_MAX || PyTuple_GET_SIZE(outputs) > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many arguments");
        return NULL;
    }
    if (function_inputs(fargs, &inputs, &is_tensor, &n) < 0) {
        goto error;
    }
    if (!mt_ag_needed((int)n, inputs)) {
        PyMem_Free(inputs);
        Py_DECREF(is_tensor);
        Py_RETURN_NONE;
    }
    if (check_saved(ctx) < 0) {
        goto error;
    }
    d = function_row(name);
    if (d == NULL) {
        goto error;
    }
    node = mt_ag_node(d, (int)n, inputs, (int)PyTuple_GET_SIZE(outputs));
    if (node == NULL) {
        goto error;
    }
    node->extra = Py_BuildValue("(OOO)", ctx, backward, is_tensor);
    if (node->extra == NULL) {
        goto error;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(outputs); k++) {
        PyObject *o = PyTuple_GET_ITEM(outputs, k);
        if (mt_Tensor_Check(o) && mt_ag_set_output(node, (mt_TensorObject *)o, (int)k) < 0) {
            goto error;
        }
    }
    PyMem_Free(inputs);
    Py_DECREF(is_tensor);
    return (PyObject *)node;

error:
    PyMem_Free(inputs);
    Py_XDECREF(is_tensor);
    Py_XDECREF(node);
    return NULL;
}

/* _function_record_inplace(name, ctx, backward, args, result, save_result): the in-place form of an nn op
 * written as a Function. args[0] is self: torch's errors for an in-place op on a leaf (or a view of one)
 * come first; then result's values are written into self (one version bump) and, when autograd records,
 * one node is made whose output is self, as torch's in-place ops do (a view's base gets CopySlices).
 * save_result: the node keeps self (its new values) for backward. Returns the node, or None. */
static PyObject *
function_record_inplace(PyObject *module, PyObject *args)
{
    PyObject *name, *ctx, *backward, *fargs, *is_tensor = NULL;
    mt_TensorObject *result, *self, **inputs = NULL;
    mt_derivative *d;
    mt_node *node = NULL;
    Py_ssize_t n = 0;
    int save_result, needed, rc;

    if (!PyArg_ParseTuple(args, "UOOO!O!p:_function_record_inplace", &name, &ctx, &backward, &PyTuple_Type, &fargs,
                          mt_TensorTypePtr, &result, &save_result)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(fargs) < 1 || PyTuple_GET_SIZE(fargs) > INT_MAX || !mt_Tensor_Check(PyTuple_GET_ITEM(fargs, 0))) {
        PyErr_SetString(PyExc_TypeError, "_function_record_inplace: args must start with the tensor written");
        return NULL;
    }
    self = (mt_TensorObject *)PyTuple_GET_ITEM(fargs, 0);
    if (function_inputs(fargs, &inputs, &is_tensor, &n) < 0) {
        goto error;
    }
    needed = mt_ag_needed((int)n, inputs);
    if (needed && mt_ag_check_inplace(self) < 0) {
        goto error;
    }
    /* an in-place op's TensorIterator refuses a self whose elements share memory (an expanded tensor) */
    if (mt_check_no_internal_overlap(self) < 0) {
        goto error;
    }
    MT_BELOW_AUTOGRAD(rc = mt_copy_(self, result));
    if (rc < 0 || mt_ag_bump(self) < 0) {
        goto error;
    }
    if (!needed) {
        PyMem_Free(inputs);
        Py_DECREF(is_tensor);
        Py_RETURN_NONE;
    }
    d = function_row(name);
    node = d != NULL ? mt_ag_node(d, (int)n, inputs, 1) : NULL;
    if (node == NULL) {
        goto error;
    }
    node->extra = Py_BuildValue("(OOO)", ctx, backward, is_tensor);
    if (node->extra == NULL || (save_result && mt_ag_save(node, 0, self, 1) < 0) ||
        mt_ag_set_inplace_output(node, self, (int)n, inputs) < 0) {
        goto error;
    }
    PyMem_Free(inputs);
    Py_DECREF(is_tensor);
    return (PyObject *)node;

error:
    PyMem_Free(inputs);
    Py_XDECREF(is_tensor);
    Py_XDECREF(node);
    return NULL;
}

/* ---- module functions --------------------------------------------------------------------------------- */

static PyObject *
set_grad_enabled(PyObject *module, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg);
    if (flag < 0) {
        return NULL;
    }
    mt_set_grad_enabled(flag);
    Py_RETURN_NONE;
}

static PyObject *
is_grad_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt_grad_enabled());
}

static PyObject *
set_inference_mode(PyObject *module, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg);
    if (flag < 0) {
        return NULL;
    }
    mt_set_inference_mode(flag);
    Py_RETURN_NONE;
}

static PyObject *
is_inference_mode_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt_inference_mode_enabled());
}

static PyObject *
set_anomaly_enabled(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static mt_parser parser = MT_PARSER("set_anomaly_enabled(bool enabled, bool check_nan=True)");
    mt_parsed p;

    if (mt_parse(&parser, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    mt_set_anomaly(p.arg[0].b, p.arg[1].b);
    mt_parsed_clear(&p);
    Py_RETURN_NONE;
}

static PyObject *
is_anomaly_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt_anomaly_on);
}

static PyObject *
is_anomaly_check_nan_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt_anomaly_check_nan_enabled());
}

/* The tensors of a sequence (a tuple or a list), as a new tuple checked to hold tensors only. */
static PyObject *
tensor_tuple(PyObject *seq, const char *what)
{
    PyObject *t = PySequence_Tuple(seq);

    if (t == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        if (!mt_Tensor_Check(PyTuple_GET_ITEM(t, i))) {
            PyErr_Format(PyExc_TypeError, "%s must be Tensors, got %s at position %zd", what,
                         Py_TYPE(PyTuple_GET_ITEM(t, i))->tp_name, i);
            Py_DECREF(t);
            return NULL;
        }
    }
    return t;
}

/* _run_backward(tensors, grad_tensors, keep_graph, create_graph, inputs, allow_unused, accumulate_grad) */
static PyObject *
run_backward(PyObject *module, PyObject *args)
{
    PyObject *tensors_in, *grads_in, *inputs_in, *tensors = NULL, *grads = NULL, *inputs = NULL, *result = NULL;
    int keep_graph, create_graph, allow_unused, accumulate;

    /* the flags are read as torch's engine entry reads them: as integers (a tensor given for
     * retain_graph fails as torch's does) */
    if (!PyArg_ParseTuple(args, "OOiiOii:_run_backward", &tensors_in, &grads_in, &keep_graph, &create_graph,
                          &inputs_in, &allow_unused, &accumulate)) {
        return NULL;
    }
    tensors = tensor_tuple(tensors_in, "tensors");
    grads = tensors != NULL ? tensor_tuple(grads_in, "grad_tensors") : NULL;
    inputs = grads != NULL ? tensor_tuple(inputs_in, "inputs") : NULL;
    if (inputs == NULL) {
        goto done;
    }
    if (PyTuple_GET_SIZE(tensors) != PyTuple_GET_SIZE(grads)) {
        PyErr_Format(PyExc_RuntimeError, "got %zd tensors and %zd gradients", PyTuple_GET_SIZE(tensors),
                     PyTuple_GET_SIZE(grads));
        goto done;
    }
    if (PyTuple_GET_SIZE(tensors) > INT_MAX || PyTuple_GET_SIZE(inputs) > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many tensors");
        goto done;
    }
    result = mt_engine_run((int)PyTuple_GET_SIZE(tensors), (mt_TensorObject *const *)&PyTuple_GET_ITEM(tensors, 0),
                           &PyTuple_GET_ITEM(grads, 0), keep_graph, create_graph, (int)PyTuple_GET_SIZE(inputs),
                           (mt_TensorObject *const *)&PyTuple_GET_ITEM(inputs, 0), accumulate, allow_unused);

done:
    Py_XDECREF(tensors);
    Py_XDECREF(grads);
    Py_XDECREF(inputs);
    return result;
}

PyMethodDef mt_autograd_functions[] = {
    {"_set_grad_enabled", (PyCFunction)set_grad_enabled, METH_O, "Sets grad mode for this thread."},
    {"is_grad_enabled", (PyCFunction)is_grad_enabled, METH_NOARGS, "Whether grad mode is on in this thread."},
    {"_set_inference_mode", (PyCFunction)set_inference_mode, METH_O, "Sets inference mode for this thread."},
    {"is_inference_mode_enabled", (PyCFunction)is_inference_mode_enabled, METH_NOARGS,
     "Whether inference mode is on in this thread."},
    {"set_anomaly_enabled", (PyCFunction)(void (*)(void))set_anomaly_enabled, METH_FASTCALL | METH_KEYWORDS,
     "Turns anomaly mode on or off for the process (and whether it checks gradients for NaN)."},
    {"is_anomaly_enabled", (PyCFunction)is_anomaly_enabled, METH_NOARGS, "Whether anomaly mode is on."},
    {"is_anomaly_check_nan_enabled", (PyCFunction)is_anomaly_check_nan_enabled, METH_NOARGS,
     "Whether anomaly mode checks the gradients of backward for NaN."},
    {"_function_record", (PyCFunction)function_record, METH_VARARGS,
     "Records a custom Function's node: _function_record(name, ctx, backward, args, outputs)."},
    {"_function_record_inplace", (PyCFunction)function_record_inplace, METH_VARARGS,
     "The in-place form of a Function: _function_record_inplace(name, ctx, backward, args, result, save_result)."},
    {"_run_backward", (PyCFunction)run_backward, METH_VARARGS,
     "The engine: _run_backward(tensors, grad_tensors, keep_graph, create_graph, inputs, allow_unused, "
     "accumulate_grad)."},
    {NULL},
};

int
mt_autograd_init(PyObject *module)
{
    mt_NodeTypePtr = (PyTypeObject *)PyType_FromSpec(&node_spec);
    if (mt_NodeTypePtr == NULL) {
        return -1;
    }
    Py_INCREF(mt_NodeTypePtr);
    if (PyModule_AddObject(module, "_Node", (PyObject *)mt_NodeTypePtr) < 0) {
        Py_DECREF(mt_NodeTypePtr);
        return -1;
    }
    return 0;
}
