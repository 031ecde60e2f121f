/* module.c: initialisation of minitorch._C: registers the types (dtype, finfo, iinfo, device, Size, Tensor), the
 * exceptions, the op table's functions (python/bind.c), the function tables of the op files not yet in
 * it and of the device layer, and build facts
 * (has_cuda, cuda_version, cuda_archs, _build_info). It holds no logic of its own. */
#include <Python.h>

#include "core/devices.h"
#include "core/device.h"
#include "core/dtype.h"
#include "core/layout.h"
#include "core/memory_format.h"
#include "core/tensor.h"
#include "ops/linalg.h"
#include "python/argparse.h"
#include "python/autocast.h"
#include "python/autograd_type.h"
#include "python/bind.h"
#include "python/cuda_streams.h"
#include "python/device_type.h"
#include "python/generator.h"
#include "python/interop.h"
#include "python/return_types.h"
#include "python/tensor_type.h"
#include "python/type_info.h"

#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *
Py_NewRef(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#endif


static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "minitorch._C",
    .m_doc = "minitorch's C core: tensors, devices, ops and the CUDA memory layer.",
    .m_size = -1,
};

/* Written by setup.py for each build (build_info.c): the CUDA toolkit ("" in a CPU-only build), the
 * architectures with machine code ("75;90"), the PTX architecture, the rule that chose them, the UTC time. */
extern const char mt_build_cuda_version[], mt_build_cuda_archs[], mt_build_cuda_ptx[], mt_build_arch_rule[],
    mt_build_time[];

static PyObject *
text_or_none(const char *text)
{
    return text[0] != '\0' ? PyUnicode_FromString(text) : Py_NewRef(Py_None);
}

/* has_cuda, cuda_version, cuda_archs (as before) and _build_info, a dict of every fact for
 * `python -m minitorch`. */
static int
add_build_info(PyObject *module)
{
    PyObject *info = NULL, *text = NULL, *sep = NULL, *archs = NULL;
    int has_cuda = mt_build_cuda_version[0] != '\0';

    if (PyModule_AddObject(module, "has_cuda", Py_NewRef(has_cuda ? Py_True : Py_False)) < 0 ||
        PyModule_AddObject(module, "cuda_version", text_or_none(mt_build_cuda_version)) < 0 ||
        PyModule_AddStringConstant(module, "cuda_archs", mt_build_cuda_archs) < 0) {
        return -1;
    }
    if (mt_build_cuda_archs[0] == '\0') {
        archs = PyList_New(0);
    }
    else if ((text = PyUnicode_FromString(mt_build_cuda_archs)) != NULL && (sep = PyUnicode_FromString(";")) != NULL) {
        archs = PyUnicode_Split(text, sep, -1);
    }
    if (archs == NULL) {
        goto error;
    }
    info = Py_BuildValue("{sOsNsOsNsNsN}", "cuda", has_cuda ? Py_True : Py_False,
                         "cuda_version", text_or_none(mt_build_cuda_version), "archs", archs,
                         "ptx", text_or_none(mt_build_cuda_ptx), "arch_rule", text_or_none(mt_build_arch_rule),
                         "built_at", PyUnicode_FromString(mt_build_time));
    if (info == NULL || PyModule_AddObject(module, "_build_info", info) < 0) {
        goto error;
    }
    Py_XDECREF(text);
    Py_XDECREF(sep);
    Py_DECREF(archs);
    return 0;
error:
    Py_XDECREF(info);
    Py_XDECREF(text);
    Py_XDECREF(sep);
    Py_XDECREF(archs);
    return -1;
}

PyMODINIT_FUNC
PyInit__C(void)
{
    PyMethodDef *tables[] = {
        NULL,   /* the op table's functions (mt_bind_functions), once built */
        mt_generator_functions, mt_matmul_functions, mt_cuda_functions, mt_cuda_stream_functions,
        mt_threads_functions, mt_interop_functions, mt_argparse_functions, mt_autograd_functions,
        mt_autocast_functions, mt_dtype_functions, mt_default_device_functions, mt_out_functions,
        mt_loss_functions, mt_elementwise_functions,
    };
    PyObject *module;
    PyMethodDef *all;

    if (mt_bind_init() < 0) {
        return NULL;
    }
    tables[0] = mt_bind_functions();
    all = mt_concat_method_tables(tables, sizeof(tables) / sizeof(tables[0]));
    if (all == NULL) {
        return NULL;
    }
    module_def.m_methods = all;
    module = PyModule_Create(&module_def);
    if (module == NULL) {
        return NULL;
    }
    if (mt_dtype_init(module) < 0 || mt_memory_format_init(module) < 0 || mt_layout_init(module) < 0 ||
        mt_device_type_init(module) < 0 || mt_type_info_init(module) < 0 || mt_size_init(module) < 0 ||
        mt_tensor_init(module) < 0 || mt_devices_init(module) < 0 || mt_return_types_init(module) < 0 ||
        mt_linalg_init(module) < 0 ||
        mt_autograd_init(module) < 0 || add_build_info(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
