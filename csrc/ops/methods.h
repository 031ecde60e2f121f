/* methods.h: how the op files not yet in the op table (csrc/python/ops.def) plug into the Tensor type and
 * the module without tensor.c or module.c knowing their contents. Each exports NULL-terminated method
 * tables; tensor.c concatenates the tensor tables (after the op table's methods) into Tensor's tp_methods
 * and module.c the function tables into the module. */
#ifndef MT_METHODS_H
#define MT_METHODS_H

#include <Python.h>


/* csrc/ops/threads.c: set_num_threads, get_num_threads (the host kernels' thread pool). */
extern PyMethodDef mt_threads_functions[];

#endif
