/* dispatch.h: the checks every op makes before it runs a kernel, done once here so that all ops agree
 * with torch: type promotion (torch.result_type: dimensioned tensors over 0-d tensors over Python
 * numbers, each only when it is of a higher category bool < integral < floating), the device check of
 * TensorIterator ops (one common device; 0-d CPU tensors ride along as scalars), the in-place cast
 * check, memory-overlap checks for written-to tensors, the "host kernels only" gate, and a small
 * argument collector for METH_FASTCALL | METH_KEYWORDS entry points. Nothing here touches tensor data
 * or allocates tensors. */
#ifndef MT_DISPATCH_H
#define MT_DISPATCH_H

#include <Python.h>

#include "../core/device.h"
#include "../core/dtype.h"
#include "../core/scalar.h"
#include "../core/tensor.h"

/* ---- type promotion ------------------------------------------------------------------------------ */

/* torch's ResultTypeState: the promoted dtype of each priority class, MT_NUM_DTYPES while empty. */
typedef struct {
    mt_dtype dim_result;        /* tensors with dim > 0 */
    mt_dtype zero_result;       /* 0-d tensors */
    mt_dtype wrapped_result;    /* Python numbers: float -> default dtype, int -> int64, bool -> bool */
} mt_result_type_state;

void mt_result_type_init(mt_result_type_state *state);
void mt_result_type_add_tensor(mt_result_type_state *state, const mt_TensorObject *t);
void mt_result_type_add_scalar(mt_result_type_state *state, mt_scalar s);
/* The result dtype; MT_NUM_DTYPES only if nothing was added. */
mt_dtype mt_result_type_get(const mt_result_type_state *state);

/* An op operand: a tensor (borrowed) or a number. */
typedef struct {
    mt_TensorObject *tensor;    /* NULL for a number */
    mt_scalar scalar;           /* valid when tensor == NULL */
} mt_operand;

/* torch.result_type over n operands. */
mt_dtype mt_result_type(int n, const mt_operand *ops);

/* The dtype torch uses for a Python number standing alone (float -> default dtype). */
mt_dtype mt_scalar_default_dtype(mt_scalar s);

/* ---- device checks ------------------------------------------------------------------------------- */

/* TensorIterator's device rule. The common device is the device of the first non-CPU tensor among
 * `out` (may be NULL; an in-place op's self) and `inputs` (NULL entries, i.e. Python numbers, are
 * skipped), or the CPU. A 0-d CPU input is accepted next to non-CPU tensors (torch treats it as a
 * scalar); anything else on another device raises RuntimeError "Expected all tensors to be on the same
 * device, but found at least two devices, cuda:0 and cpu!". 0 with *common set, or -1. */
int mt_check_same_device(mt_TensorObject *out, int n, mt_TensorObject *const *inputs, mt_device *common);

/* The in-place rule: RuntimeError "result type Float can't be cast to the desired output type Long"
 * unless torch.can_cast(result, out). 0 or -1. */
int mt_check_can_cast(mt_dtype result, mt_dtype out);

/* ---- memory overlap (torch's at::assert_no_internal_overlap / assert_no_partial_overlap) --------- */

/* Raises torch's "unsupported operation: more than one element of the written-to tensor refers to a
 * single memory location. ..." when `out` is expanded (a stride 0 over a dim of size > 1). */
int mt_check_no_internal_overlap(const mt_TensorObject *out);

/* Raises torch's "unsupported operation: some elements of the input tensor and the written-to tensor
 * refer to a single memory location. ..." when `out` and `in` are both dense and share some but not
 * exactly all of their memory. Full overlap (a += a) is fine. */
int mt_check_no_partial_overlap(const mt_TensorObject *out, const mt_TensorObject *in);


/* ---- argument collection ------------------------------------------------------------------------- */

/* Collects FASTCALL arguments by name: `names` lists every parameter (NULL-terminated); the first
 * `npositional` may also be given by position. out[i] is set to a borrowed reference or NULL when the
 * argument was not given. Raises TypeError like torch's parser for too many positional arguments,
 * unknown keywords and duplicates, naming the function `fname`. 0 or -1. */
int mt_collect_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *const *names, int npositional, PyObject **out);

/* The type name torch's argument parser prints for an object: "Tensor", "int", "str", ... */
const char *mt_arg_type_name(PyObject *obj);

/* torch's TypeError "fname(): argument 'name' (position pos) must be want, not <type>", without the
 * position for an argument given by keyword (pos 0). Returns -1. */
int mt_arg_type_error(const char *fname, const char *name, Py_ssize_t pos, const char *want, PyObject *obj);

/* The given arguments as torch's "received an invalid combination of arguments - got (...)" message
 * lists them: "Tensor, str", or "dim=NoneType, " for keywords alone. Never raises. */
void mt_format_given_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, char *buf, size_t len);

/* torch's TypeError for arguments no signature accepts: "fname() received an invalid combination of
 * arguments - got (<args>), but expected <signatures>", with "one of:\n" before them when `several` (the
 * signatures are then torch's " * (...)\n" lines). Returns NULL. */
PyObject *mt_invalid_combination(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                                 int several, const char *signatures);

#endif
