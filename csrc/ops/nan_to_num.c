/* nan_to_num.c: nan_to_num and nan_to_num_, a composite of the predicates and where (compose.h), run below
 * autograd, which then records torch's one node (NanToNumBackward0, autograd/nan_to_num.c). A floating
 * input gets NaN, +inf and -inf replaced (by default with 0 and the dtype's largest and lowest finite
 * values); an integer or bool input has none of them, so the result is a copy (the in-place form leaves
 * self as it is), as in torch. This file owns torch's checks and defaults, never elements. */
#include "elementwise.h"

#include <float.h>

#include "../autograd/record.h"
#include "compose.h"
#include "copy.h"
#include "dispatch.h"
#include "shape.h"

/* where(pred(t), value, r), r released */
static mt_TensorObject *
replace_where(mt_unary_op pred, mt_TensorObject *t, double value, mt_TensorObject *r)
{
    mt_TensorObject *cond = mt_c_unary(pred, t);
    mt_TensorObject *out = mt_c_where_number(cond, value, r);

    Py_XDECREF(cond);
    Py_XDECREF(r);
    return out;
}

static mt_TensorObject *
nan_to_num_compute(mt_TensorObject *t, double nan, double posinf, double neginf)
{
    mt_TensorObject *r = NULL;

    Py_INCREF(t);
    MT_BELOW_AUTOGRAD({
        r = replace_where(MT_UNARY_ISNAN, t, nan, t);
        r = replace_where(MT_UNARY_ISPOSINF, t, posinf, r);
        r = replace_where(MT_UNARY_ISNEGINF, t, neginf, r);
    });
    return r;
}

PyObject *
mt_nan_to_num(mt_TensorObject *t, const double *nan, const double *posinf, const double *neginf, int inplace)
{
    double largest = t->dtype == MT_FLOAT32    ? (double)FLT_MAX
                     : t->dtype == MT_FLOAT16  ? 65504.0
                     : t->dtype == MT_BFLOAT16 ? 3.3895313892515355e+38
                                               : DBL_MAX;
    mt_TensorObject *original = NULL, *r;
    int rc = 0;

    if (!mt_dtype_is_floating(t->dtype)) {
        if (!inplace) {
            return (PyObject *)mt_clone(t);
        }
        if (mt_ag_bump(t) < 0) {
            return NULL;
        }
        Py_INCREF(t);
        return (PyObject *)t;
    }
    if (inplace) {
        if (mt_ag_check_inplace(t) < 0 || mt_check_no_internal_overlap(t) < 0) {
            return NULL;
        }
        if (mt_ag_nan_to_num_needs_original(t)) {
            original = mt_clone(t);
            if (original == NULL) {
                return NULL;
            }
        }
    }
    r = nan_to_num_compute(t, nan != NULL ? *nan : 0.0, posinf != NULL ? *posinf : largest,
                           neginf != NULL ? *neginf : -largest);
    if (r != NULL && inplace) {
        MT_BELOW_AUTOGRAD(rc = mt_copy_(t, r));
        Py_DECREF(r);
        r = NULL;
        if (rc == 0 && mt_ag_bump(t) == 0) {
            Py_INCREF(t);
            r = t;
        }
    }
    if (r != NULL && mt_ag_nan_to_num(original != NULL ? original : t, t, r) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(original);
    return (PyObject *)r;
}
