/* formula.h: what the formula files share (autograd/softmax.c, reduce_stats.c, scan.c): the temporaries of
 * one formula, released together. Each step's result is kept; a NULL marks a failure, and every later
 * step given it returns NULL too (compose.h's calls do), so a formula checks once at its end. */
#ifndef MT_AUTOGRAD_FORMULA_H
#define MT_AUTOGRAD_FORMULA_H

#include <Python.h>

#include "../core/tensor.h"

#define MT_FORMULA_MAX_TEMPS 32

typedef struct {
    mt_TensorObject *t[MT_FORMULA_MAX_TEMPS];
    int n;
} mt_temps;

/* t, kept to be released by mt_temps_drop (a NULL is passed through) */
static inline mt_TensorObject *
mt_keep(mt_temps *s, mt_TensorObject *t)
{
    if (t != NULL && s->n < MT_FORMULA_MAX_TEMPS) {
        s->t[s->n++] = t;
    }
    else if (t != NULL) {
        /* more temporaries than a formula may have: a programming error, never leaked silently */
        Py_DECREF(t);
        PyErr_SetString(PyExc_SystemError, "minitorch: a formula kept too many temporaries");
        return NULL;
    }
    return t;
}

static inline void
mt_temps_drop(mt_temps *s)
{
    for (int i = 0; i < s->n; i++) {
        Py_DECREF(s->t[i]);
    }
    s->n = 0;
}

#endif
