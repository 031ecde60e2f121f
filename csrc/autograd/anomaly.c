/* anomaly.c: torch's anomaly mode (torch/csrc/autograd/anomaly_mode.h, python_anomaly_mode.cpp). While it
 * is on, each new node keeps the Python stack of the forward call that made it in its metadata dict
 * ("traceback_", a list of strings as traceback.format_stack gives them) and, when it is made by a backward
 * formula (create_graph), the node whose backward made it ("parent_"). When a node's backward fails, the
 * engine warns with that stack (and the parents') before the error goes on; with check_nan, a node whose
 * backward returns NaN is torch's error. The mode is one process-wide flag, as torch's is (not per thread):
 * with it off, recording a node costs one test of it. It computes no gradient and reads no arguments. */
#include "autograd.h"

#include "ops_for_grad.h"
#include "../core/warn.h"

int mt_anomaly_on;
static int check_nan = 1;                       /* torch's default, also while the mode is off */
static _Thread_local mt_node *current_node;     /* the node whose backward this thread is running */

int
mt_anomaly_check_nan_enabled(void)
{
    return check_nan;
}

void
mt_set_anomaly(int enabled, int nan)
{
    mt_anomaly_on = enabled;
    check_nan = nan;
}

mt_node *
mt_anomaly_set_current(mt_node *node)
{
    mt_node *prev = current_node;
    current_node = node;
    return prev;
}

/* The Python objects the mode uses, made once and kept: traceback.format_stack, and the metadata keys and
 * method name as interned strings. Made anew on every node, each name would churn CPython's table of
 * interned strings and fill its method cache (which keeps a reference to every name it is asked for). */
static PyObject *format_stack_fn, *traceback_key, *parent_key, *all_name;

static int
init_names(void)
{
    PyObject *traceback;

    if (format_stack_fn != NULL) {
        return 0;
    }
    if ((traceback_key == NULL && (traceback_key = PyUnicode_InternFromString("traceback_")) == NULL) ||
        (parent_key == NULL && (parent_key = PyUnicode_InternFromString("parent_")) == NULL) ||
        (all_name == NULL && (all_name = PyUnicode_InternFromString("all")) == NULL) ||
        (traceback = PyImport_ImportModule("traceback")) == NULL) {
        return -1;
    }
    format_stack_fn = PyObject_GetAttrString(traceback, "format_stack");
    Py_DECREF(traceback);
    return format_stack_fn != NULL ? 0 : -1;
}

int
mt_anomaly_store(mt_node *node)
{
    PyObject *lines;
    int rc = -1;

    if (init_names() < 0 || (node->dict == NULL && (node->dict = PyDict_New()) == NULL)) {
        return -1;
    }
    /* called from C, format_stack() starts at the innermost Python frame: the caller of the op */
    lines = PyObject_CallNoArgs(format_stack_fn);
    if (lines != NULL && PyDict_SetItem(node->dict, traceback_key, lines) == 0 &&
        (current_node == NULL || PyDict_SetItem(node->dict, parent_key, (PyObject *)current_node) == 0)) {
        rc = 0;
    }
    Py_XDECREF(lines);
    return rc;
}

/* torch's _format_stack: one warning's text for a node (is_parent: a node whose backward made the one that
 * failed). New reference or NULL. */
static PyObject *
format_stack(mt_node *node, int is_parent)
{
    PyObject *stack = node->dict != NULL && traceback_key != NULL ? PyDict_GetItem(node->dict, traceback_key) : NULL;
    PyObject *empty, *joined, *msg;

    if (stack == NULL) {
        return PyUnicode_FromFormat("Error detected in %s. No forward pass information available. Enable detect "
                                    "anomaly during forward pass for more information.",
                                    mt_node_torch_name(node));
    }
    empty = PyUnicode_FromString("");
    joined = empty != NULL ? PyUnicode_Join(empty, stack) : NULL;
    Py_XDECREF(empty);
    if (joined == NULL) {
        return NULL;
    }
    if (is_parent) {
        msg = PyUnicode_FromFormat("\n\nPrevious calculation was induced by %s. Traceback of forward call that "
                                   "induced the previous calculation:\n%U",
                                   mt_node_torch_name(node), joined);
    }
    else {
        msg = PyUnicode_FromFormat("Error detected in %s. Traceback of forward call that caused the error:\n%U",
                                   mt_node_torch_name(node), joined);
    }
    Py_DECREF(joined);
    return msg;
}

void
mt_anomaly_report(mt_node *node)
{
    PyObject *type, *value, *tb;
    int is_parent = 0;

    PyErr_Fetch(&type, &value, &tb);
    Py_INCREF(node);
    /* the failing node, then each parent in turn, one UserWarning each (torch's print_stack) */
    while (node != NULL) {
        PyObject *msg = format_stack(node, is_parent), *parent;
        const char *text = msg != NULL ? PyUnicode_AsUTF8(msg) : NULL;

        if (text == NULL || mt_warn(PyExc_UserWarning, text) < 0) {
            Py_XDECREF(msg);
            Py_DECREF(node);
            break;      /* the backward's own error wins over a failed warning */
        }
        Py_DECREF(msg);
        parent = node->dict != NULL && parent_key != NULL ? PyDict_GetItem(node->dict, parent_key) : NULL;
        Py_XINCREF(parent);
        Py_SETREF(node, (mt_node *)parent);
        is_parent = 1;
    }
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
}

int
mt_anomaly_check_outputs(mt_node *node, PyObject *const *out)
{
    if (!check_nan) {
        return 0;
    }
    if (init_names() < 0) {
        return -1;
    }
    for (int i = 0; i < node->num_inputs; i++) {
        mt_TensorObject *g = (mt_TensorObject *)out[i], *same;
        PyObject *all;
        int ok;

        if (g == NULL || node->next[i].node == NULL) {
            continue;
        }
        /* x == x is false exactly at NaN */
        same = mt_g_eq(g, g);
        all = same != NULL ? PyObject_CallMethodNoArgs((PyObject *)same, all_name) : NULL;
        Py_XDECREF(same);
        ok = all != NULL ? PyObject_IsTrue(all) : -1;
        Py_XDECREF(all);
        if (ok < 0) {
            return -1;
        }
        if (!ok) {
            PyErr_Format(PyExc_RuntimeError, "Function '%s' returned nan values in its %dth output.",
                         mt_node_torch_name(node), i);
            return -1;
        }
    }
    return 0;
}
