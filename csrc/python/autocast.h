/* autocast.h: automatic mixed precision (csrc/python/autocast.c): the per-thread autocast state, the
 * op policies (torch's lists, per device kind) and the one hook that casts a call's tensors. */
#ifndef MT_AUTOCAST_H
#define MT_AUTOCAST_H

#include <Python.h>

/* The index of `name`'s row among the policies (torch's aten name: "mm", "mse_loss", "linalg_vector_norm"),
 * or -1 when no device has a policy for it. */
int mt_autocast_policy_of(const char *name);

/* Whether autocast is on for some device kind in this thread and not excluded (inside a policy op). */
int mt_autocast_active(void);

/* Marks this thread inside (1) or outside (0) a policy op; the previous mark. */
int mt_autocast_set_excluded(int flag);

/* A call's arguments in vectorcall layout (`n` values: the positional ones, then the values of
 * `kwnames`), with `self` (NULL for a function) as value -1. When the row's policy applies to this call,
 * sets *cast to a new array of n + 1 new references (cast[0] is self, possibly NULL; cast[1 + i] the
 * value i: the tensor cast to the policy's dtype, or the same object) and returns 1; 0 when it does not
 * apply; -1 with an exception set (torch's errors: a banned op). The array is freed with
 * mt_autocast_cast_free. */
int mt_autocast_cast(int policy, PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames,
                     PyObject ***cast);
void mt_autocast_cast_free(PyObject **cast, Py_ssize_t n);

/* minitorch._C's autocast functions (the state's getters and setters, the cache, the hook for the ops
 * written in Python). */
extern PyMethodDef mt_autocast_functions[];

#endif
