/* generator.c: the Python face of the random number generators: minitorch.Generator's C half (a capsule, its
 * _handle, around one mt_cpu_generator: new, manual_seed, seed, initial_seed, get_state, set_state) and the
 * same operations on each CUDA device's default generator, by device index, for minitorch.cuda's
 * default_generators (their state in torch's CUDAGeneratorImpl layout). The generators themselves and the
 * draws are csrc/ops/factory.c's and the kernels' (kernels/cpu/rng.h, kernels/cpu/philox.h). */
#include "generator.h"

#include <stdint.h>
#include <string.h>

#include "../core/scalar.h"
#include "../kernels/cpu/rng.h"
#include "../ops/factory.h"

static int
seed_arg(PyObject *obj, uint64_t *seed)
{
    /* torch accepts [-2**63, 2**64); a negative seed s means s + 2**64 */
    int overflow = 0;
    long long v;
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        return -1;
    }
    v = PyLong_AsLongLongAndOverflow(index, &overflow);
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(index);
        Py_DECREF(index);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            mt_raise_long_overflow();
            return -1;
        }
        *seed = u;
        return 0;
    }
    Py_DECREF(index);
    if (overflow < 0) {
        mt_raise_long_overflow();
        return -1;
    }
    *seed = (uint64_t)v;
    return 0;
}

/* ---- Generator objects: minitorch.Generator holds a capsule (its _handle) around one mt_cpu_generator --- */

#define GENERATOR_CAPSULE "minitorch.Generator"

static void
generator_capsule_free(PyObject *capsule)
{
    void *g = PyCapsule_GetPointer(capsule, GENERATOR_CAPSULE);
    /* the default generator's capsule has no destructor; only generators made here are freed */
    PyMem_Free(g);
}

mt_cpu_generator *
mt_generator_from_object(PyObject *obj)
{
    PyObject *handle = PyObject_GetAttrString(obj, "_handle");
    mt_cpu_generator *g;

    if (handle == NULL) {
        return NULL;
    }
    g = PyCapsule_GetPointer(handle, GENERATOR_CAPSULE);
    Py_DECREF(handle);
    return g;
}

/* A new generator, seeded as torch.Generator() is (67280421310721). */
static PyObject *
py_generator_new(PyObject *m, PyObject *unused)
{
    mt_cpu_generator *g = PyMem_Malloc(sizeof(*g));
    PyObject *capsule;

    if (g == NULL) {
        return PyErr_NoMemory();
    }
    mt_cpu_generator_init_default(g);
    capsule = PyCapsule_New(g, GENERATOR_CAPSULE, generator_capsule_free);
    if (capsule == NULL) {
        PyMem_Free(g);
    }
    return capsule;
}

static PyObject *
py_default_generator(PyObject *m, PyObject *unused)
{
    return PyCapsule_New(mt_default_generator(), GENERATOR_CAPSULE, NULL);
}

static mt_cpu_generator *
handle_arg(PyObject *handle)
{
    return PyCapsule_GetPointer(handle, GENERATOR_CAPSULE);
}

/* Generator.manual_seed: only that generator (torch.manual_seed, above, seeds every one). */
static PyObject *
py_generator_manual_seed(PyObject *m, PyObject *args)
{
    PyObject *handle, *seed_obj;
    mt_cpu_generator *g;
    uint64_t seed;

    if (!PyArg_ParseTuple(args, "OO", &handle, &seed_obj) || (g = handle_arg(handle)) == NULL ||
        seed_arg(seed_obj, &seed) < 0) {
        return NULL;
    }
    mt_cpu_generator_manual_seed(g, seed);
    Py_RETURN_NONE;
}

static PyObject *
py_generator_seed(PyObject *m, PyObject *handle)
{
    mt_cpu_generator *g = handle_arg(handle);
    uint64_t seed;

    if (g == NULL) {
        return NULL;
    }
    seed = mt_cpu_nondeterministic_seed();
    mt_cpu_generator_manual_seed(g, seed);
    return PyLong_FromUnsignedLongLong(seed);
}

static PyObject *
py_generator_initial_seed(PyObject *m, PyObject *handle)
{
    mt_cpu_generator *g = handle_arg(handle);
    return g == NULL ? NULL : PyLong_FromUnsignedLongLong(mt_cpu_generator_initial_seed(g));
}

/* The state as torch's CPUGeneratorImplState bytes. */
static PyObject *
py_generator_get_state(PyObject *m, PyObject *handle)
{
    uint8_t state[MT_CPU_RNG_STATE_BYTES];
    mt_cpu_generator *g = handle_arg(handle);

    if (g == NULL) {
        return NULL;
    }
    mt_cpu_generator_get_state(g, state);
    return PyBytes_FromStringAndSize((const char *)state, sizeof(state));
}

static PyObject *
py_generator_set_state(PyObject *m, PyObject *args)
{
    PyObject *handle;
    mt_cpu_generator *g;
    const char *bytes;
    Py_ssize_t n;
    int err;

    if (!PyArg_ParseTuple(args, "Oy#", &handle, &bytes, &n) || (g = handle_arg(handle)) == NULL) {
        return NULL;
    }
    err = mt_cpu_generator_set_state(g, (const uint8_t *)bytes, n);
    if (err == MT_RNG_ERR_SIZE) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected a CPUGeneratorImplState of size %d but found the input RNG state size to be %zd",
                     MT_CPU_RNG_STATE_BYTES, n);
        return NULL;
    }
    if (err != MT_RNG_OK) {
        PyErr_SetString(PyExc_RuntimeError, "Invalid mt19937 state");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- the CUDA devices' default generators, by device index ----------------------------------------------- */

/* torch's CUDA state: the seed, then the Philox offset as an int64 counted in 32-bit words (native byte
 * order, as torch copies them); an 8-byte state is a seed alone, with offset 0. */
#define CUDA_STATE_SEED_BYTES 8
#define CUDA_STATE_BYTES 16

static mt_cuda_generator *
cuda_generator_arg(PyObject *index_obj)
{
    int overflow = 0;
    long index = PyLong_AsLongAndOverflow(index_obj, &overflow);

    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return mt_cuda_default_generator(overflow != 0 || index > INT32_MAX || index < INT32_MIN ? -1 : (int)index);
}

static PyObject *
py_cuda_generator_manual_seed(PyObject *m, PyObject *args)
{
    PyObject *index, *seed_obj;
    mt_cuda_generator *g;
    uint64_t seed;

    if (!PyArg_ParseTuple(args, "OO", &index, &seed_obj) || (g = cuda_generator_arg(index)) == NULL ||
        seed_arg(seed_obj, &seed) < 0) {
        return NULL;
    }
    g->seed = seed;
    g->offset = 0;
    Py_RETURN_NONE;
}

static PyObject *
py_cuda_generator_seed(PyObject *m, PyObject *index)
{
    mt_cuda_generator *g = cuda_generator_arg(index);

    if (g == NULL) {
        return NULL;
    }
    g->seed = mt_cpu_nondeterministic_seed();
    g->offset = 0;
    return PyLong_FromUnsignedLongLong(g->seed);
}

static PyObject *
py_cuda_generator_initial_seed(PyObject *m, PyObject *index)
{
    mt_cuda_generator *g = cuda_generator_arg(index);
    return g == NULL ? NULL : PyLong_FromUnsignedLongLong(g->seed);
}

static PyObject *
py_cuda_generator_get_state(PyObject *m, PyObject *index)
{
    uint8_t state[CUDA_STATE_BYTES];
    mt_cuda_generator *g = cuda_generator_arg(index);
    int64_t words;

    if (g == NULL) {
        return NULL;
    }
    words = (int64_t)(g->offset * 4);
    memcpy(state, &g->seed, CUDA_STATE_SEED_BYTES);
    memcpy(state + CUDA_STATE_SEED_BYTES, &words, sizeof(words));
    return PyBytes_FromStringAndSize((const char *)state, sizeof(state));
}

/* torch's order: the seed is set (and the offset reset) before the offset is checked. */
static PyObject *
py_cuda_generator_set_state(PyObject *m, PyObject *args)
{
    PyObject *index;
    mt_cuda_generator *g;
    const char *bytes;
    Py_ssize_t n;
    int64_t words = 0;

    if (!PyArg_ParseTuple(args, "Oy#", &index, &bytes, &n) || (g = cuda_generator_arg(index)) == NULL) {
        return NULL;
    }
    if (n != CUDA_STATE_BYTES && n != CUDA_STATE_SEED_BYTES) {
        PyErr_SetString(PyExc_RuntimeError, "RNG state is wrong size");
        return NULL;
    }
    memcpy(&g->seed, bytes, CUDA_STATE_SEED_BYTES);
    g->offset = 0;
    if (n == CUDA_STATE_BYTES) {
        memcpy(&words, bytes + CUDA_STATE_SEED_BYTES, sizeof(words));
    }
    if ((uint64_t)words % 4 != 0) {
        PyErr_SetString(PyExc_RuntimeError, "offset must be a multiple of 4");
        return NULL;
    }
    g->offset = (uint64_t)words / 4;
    Py_RETURN_NONE;
}

PyMethodDef mt_generator_functions[] = {
    {"_generator_new", py_generator_new, METH_NOARGS, NULL},
    {"_default_generator", py_default_generator, METH_NOARGS, NULL},
    {"_generator_manual_seed", py_generator_manual_seed, METH_VARARGS, NULL},
    {"_generator_seed", py_generator_seed, METH_O, NULL},
    {"_generator_initial_seed", py_generator_initial_seed, METH_O, NULL},
    {"_generator_get_state", py_generator_get_state, METH_O, NULL},
    {"_generator_set_state", py_generator_set_state, METH_VARARGS, NULL},
    {"_cuda_generator_manual_seed", py_cuda_generator_manual_seed, METH_VARARGS, NULL},
    {"_cuda_generator_seed", py_cuda_generator_seed, METH_O, NULL},
    {"_cuda_generator_initial_seed", py_cuda_generator_initial_seed, METH_O, NULL},
    {"_cuda_generator_get_state", py_cuda_generator_get_state, METH_O, NULL},
    {"_cuda_generator_set_state", py_cuda_generator_set_state, METH_VARARGS, NULL},
    {NULL},
};
