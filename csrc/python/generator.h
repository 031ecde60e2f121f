/* generator.h: minitorch.Generator's C half, CPU and CUDA generators alike (the module functions below), and the
 * C generator behind a Generator object for the random factories' generator= argument. */
#ifndef MT_GENERATOR_H
#define MT_GENERATOR_H

#include <Python.h>

#include "../ops/factory.h"

/* The C generator behind a minitorch.Generator (its `_handle`, a capsule made by _C._generator_new,
 * _C._default_generator, _C._cuda_generator_new or _C._cuda_default_generator): a CPU or a CUDA one in *gen;
 * -1 with TypeError for anything else. */
int mt_generator_from_object(PyObject *obj, mt_generator *gen);

/* _generator_new, _default_generator, _cuda_generator_new, _cuda_default_generator and the operations on any
 * of their handles: _generator_manual_seed, _generator_seed, ..., _generator_set_state (NULL-terminated). */
extern PyMethodDef mt_generator_functions[];

#endif
