/* sort.c (python): the binding of the rows of ops.def for sort, argsort and topk. The parser read every
 * argument's type and value; out= is refused, then the op runs its own checks (csrc/ops/sort.c). sort's
 * overload with stable= records SortBackward1, as torch's sort.stable does. */
#include "../ops/sort.h"
#include "bind.h"

enum {
    R_INPUT,
    R_K,
    R_DIM,
    R_DESCENDING,
    R_STABLE,
    R_LARGEST,
    R_SORTED,
    R_OUT
};

static const char *const sort_roles[] = {"input", "k", "dim", "descending", "stable", "largest", "sorted", "out",
                                         NULL};

static PyObject *
sort_call(const mt_call *c)
{
    mt_TensorObject *t = mt_call_arg(c, R_INPUT)->tensor;
    const mt_arg *dim = mt_call_arg(c, R_DIM);
    const mt_arg *descending = mt_call_arg(c, R_DESCENDING);
    int64_t d = dim != NULL ? dim->i : -1;
    int desc = descending != NULL && descending->b;

    if (mt_bind_refuse_out(c, R_OUT) < 0) {
        return NULL;
    }
    switch (c->code) {
    case MT_SORT_SORT:
        return mt_sort(t, d, desc, mt_call_arg(c, R_STABLE) != NULL);
    case MT_SORT_ARGSORT:
        return mt_argsort(t, d, desc);
    default:
        return mt_topk(t, mt_call_arg(c, R_K)->i, d, mt_call_arg(c, R_LARGEST)->b, mt_call_arg(c, R_SORTED)->b);
    }
}

const mt_binding mt_binding_sort = {sort_call, NULL, sort_roles};
