/* optim.c: the optimizers' fused updates (optim.h). SGD's step is torch's single-tensor sequence of ops
 * (neg, add, mul_, add_, add_) computed in one kernel call (kernels/kernel_types.h, mt_sgd_step_args),
 * which reads and writes each tensor once instead of once per op. This file owns the step's checks, the
 * version counters and the choice of kernel; it never touches elements and records no autograd node.
 *
 * The kernel computes each element as torch's ops do, in their order, so the result is theirs bit for
 * bit, also when the parameter and its gradient or its buffer are views of the same elements (each op
 * reads what the one before wrote). The one sharing it cannot follow is a gradient in the momentum
 * buffer's memory (torch's mul_ changes the gradient it then adds): for that the op does nothing and
 * returns False, and the caller runs torch's ops one by one. Partly shared memory raises torch's overlap
 * error, as torch's ops would. */
#include "optim.h"

#include "../autograd/autograd.h"
#include "../core/dtype.h"
#include "../core/scalar.h"
#include "../kernels/cpu/parallel.h"
#include "dispatch.h"
#include "runner.h"

/* torch's add reads its alpha in the tensors' dtype with c10's overflow check ("value cannot be converted
 * to type float without overflow"): the step checks each alpha it will use before writing anything. */
static int
check_alpha(double alpha, mt_dtype dtype)
{
    mt_scalar s, unused;

    s.kind = MT_FLOAT64;
    s.is_uint64 = 0;
    s.v.d = alpha;
    return mt_scalar_checked(s, dtype, &unused);
}

static int
same_shape(const mt_TensorObject *a, const mt_TensorObject *b)
{
    if (a->ndim != b->ndim) {
        return 0;
    }
    for (int d = 0; d < a->ndim; d++) {
        if (a->sizes[d] != b->sizes[d]) {
            return 0;
        }
    }
    return 1;
}

static int
sgd_check(mt_TensorObject *param, mt_TensorObject *grad, mt_TensorObject *buf, const mt_sgd_step_args *args,
          mt_device *device)
{
    mt_TensorObject *inputs[2] = {grad, buf};

    if ((args->momentum != 0.0) != (buf != NULL)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "_sgd_step(): momentum_buffer must be given exactly when momentum is not 0");
        return -1;
    }
    if (mt_check_same_device(param, buf != NULL ? 2 : 1, inputs, device) < 0) {
        return -1;
    }
    if ((param->dtype != MT_FLOAT32 && param->dtype != MT_FLOAT64) || grad->dtype != param->dtype ||
        (buf != NULL && buf->dtype != param->dtype)) {
        PyErr_Format(PyExc_RuntimeError,
                     "_sgd_step(): expected float32 or float64 tensors of one dtype, but got param %s, grad %s%s%s",
                     mt_dtype_name(param->dtype), mt_dtype_name(grad->dtype), buf != NULL ? ", momentum_buffer " : "",
                     buf != NULL ? mt_dtype_name(buf->dtype) : "");
        return -1;
    }
    if (!same_shape(param, grad) || (buf != NULL && !same_shape(param, buf))) {
        PyErr_SetString(PyExc_RuntimeError, "_sgd_step(): param, grad and momentum_buffer must have one shape");
        return -1;
    }
    if (mt_check_no_internal_overlap(param) < 0 || mt_check_no_partial_overlap(param, grad) < 0 ||
        (buf != NULL && (mt_check_no_internal_overlap(buf) < 0 || mt_check_no_partial_overlap(param, buf) < 0 ||
                         mt_check_no_partial_overlap(buf, grad) < 0))) {
        return -1;
    }
    if ((args->weight_decay != 0.0 && check_alpha(args->weight_decay, param->dtype) < 0) ||
        (buf != NULL && check_alpha(1.0 - args->dampening, param->dtype) < 0) ||
        (buf != NULL && args->nesterov && check_alpha(args->momentum, param->dtype) < 0) ||
        check_alpha(-args->lr, param->dtype) < 0) {
        return -1;
    }
    /* grad mode on: torch's in-place errors for a leaf that requires grad */
    if (mt_ag_check_inplace(param) < 0 || (buf != NULL && mt_ag_check_inplace(buf) < 0)) {
        return -1;
    }
    return 0;
}

PyObject *
mt_sgd_step(mt_TensorObject *param, mt_TensorObject *grad, mt_TensorObject *buf, mt_sgd_step_args args)
{
    const mt_TensorObject *operands[3] = {param, grad, buf};
    const mt_backend *be;
    mt_device device;
    mt_iter it;
    int r = 0;

    if (sgd_check(param, grad, buf, &args, &device) < 0) {
        return NULL;
    }
    if (buf != NULL && mt_same_memory(buf, grad)) {
        Py_RETURN_FALSE;
    }
    be = mt_backend_for(device);
    if (be == NULL) {
        return NULL;
    }
    if (be->sgd_step == NULL) {
        PyErr_Format(PyExc_RuntimeError, "_sgd_step(): minitorch has no fused SGD kernel for %s tensors", be->name);
        return NULL;
    }
    args.dtype = param->dtype;
    if (mt_tensor_numel(param) > 0) {
        mt_iter_of_tensors(&it, 3, operands);
        MT_RUN_BACKEND(r, device, it.numel > MT_PARALLEL_GRAIN_SIZE, operands, 3, sgd_step, &it, &args);
        if (r < 0) {
            return NULL;
        }
    }
    /* the versions torch's ops leave: param.add_ once, buf.mul_ and buf.add_ twice */
    if (mt_tensor_bump_version(param) < 0 ||
        (buf != NULL && (mt_tensor_bump_version(buf) < 0 || mt_tensor_bump_version(buf) < 0))) {
        return NULL;
    }
    Py_RETURN_TRUE;
}
