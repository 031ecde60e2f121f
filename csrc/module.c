/* module.c: initialisation of minitorch._C: registers the types (dtype, device, Size, Tensor), the
 * exceptions, the function tables of the op files and of the device layer, and build facts
 * (has_cuda, cuda_version, cuda_archs). It holds no logic of its own. */
#include <Python.h>

#include "core/devices.h"
#include "core/device.h"
#include "core/dtype.h"
#include "core/memory_format.h"
#include "core/tensor.h"
#include "ops/methods.h"

#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *
Py_NewRef(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#endif

int mt_reduce_init(PyObject *module);
PyMethodDef *mt_concat_method_tables(PyMethodDef *const *tables, size_t ntables);

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "minitorch._C",
    .m_doc = "minitorch's C core: tensors, devices, ops and the CUDA memory layer.",
    .m_size = -1,
};

static int
add_build_info(PyObject *module)
{
#ifdef MINITORCH_WITH_CUDA
    if (PyModule_AddObject(module, "has_cuda", Py_NewRef(Py_True)) < 0 ||
        PyModule_AddStringConstant(module, "cuda_version", MINITORCH_CUDA_VERSION) < 0 ||
        PyModule_AddStringConstant(module, "cuda_archs", MINITORCH_CUDA_ARCHS) < 0) {
        return -1;
    }
#else
    if (PyModule_AddObject(module, "has_cuda", Py_NewRef(Py_False)) < 0 ||
        PyModule_AddObject(module, "cuda_version", Py_NewRef(Py_None)) < 0 ||
        PyModule_AddStringConstant(module, "cuda_archs", "") < 0) {
        return -1;
    }
#endif
    return 0;
}

PyMODINIT_FUNC
PyInit__C(void)
{
    PyMethodDef *tables[] = {
        mt_factory_functions, mt_convert_functions, mt_shape_functions, mt_elementwise_functions,
        mt_reduce_functions,  mt_matmul_functions,  mt_addmm_functions, mt_cuda_functions,
        mt_threads_functions,
        mt_interop_functions,
    };
    PyObject *module;
    PyMethodDef *all = mt_concat_method_tables(tables, sizeof(tables) / sizeof(tables[0]));

    if (all == NULL) {
        return NULL;
    }
    module_def.m_methods = all;
    module = PyModule_Create(&module_def);
    if (module == NULL) {
        return NULL;
    }
    if (mt_dtype_init(module) < 0 || mt_memory_format_init(module) < 0 || mt_device_init(module) < 0 || mt_size_init(module) < 0 ||
        mt_tensor_init(module) < 0 || mt_devices_init(module) < 0 || mt_reduce_init(module) < 0 ||
        add_build_info(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
