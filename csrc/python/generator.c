/* generator.c: the Python face of the random number generators: minitorch.Generator's C half, a capsule (its
 * _handle) around one mt_cpu_generator (torch.Generator(), the default CPU generator) or one mt_cuda_generator
 * (Generator('cuda'), minitorch.cuda's default_generators), and the operations on either kind: manual_seed,
 * seed, initial_seed, get_state and set_state (a CUDA generator's state in torch's CUDAGeneratorImpl layout).
 * The default generators are csrc/core/generator.c's, the draws ops/factory.c's and the kernels'
 * (kernels/cpu/rng.h, kernels/cpu/philox.h). */
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

/* ---- Generator objects: minitorch.Generator holds a capsule (its _handle) around one generator ---------- */

/* The capsule's name says the kind; a default generator's capsule points at core/generator.c's static one
 * and has no destructor, a new generator's frees it. */
#define GENERATOR_CAPSULE "minitorch.Generator"
#define CUDA_GENERATOR_CAPSULE "minitorch.CUDAGenerator"

static void
generator_capsule_free(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, GENERATOR_CAPSULE));
}

static void
cuda_generator_capsule_free(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, CUDA_GENERATOR_CAPSULE));
}

/* The generator behind a handle, of either kind. */
static int
handle_arg(PyObject *handle, mt_generator *gen)
{
    gen->cpu = NULL;
    gen->cuda = NULL;
    if (PyCapsule_IsValid(handle, GENERATOR_CAPSULE)) {
        gen->cpu = PyCapsule_GetPointer(handle, GENERATOR_CAPSULE);
        return 0;
    }
    if (PyCapsule_IsValid(handle, CUDA_GENERATOR_CAPSULE)) {
        gen->cuda = PyCapsule_GetPointer(handle, CUDA_GENERATOR_CAPSULE);
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "expected a minitorch.Generator's handle");
    return -1;
}

int
mt_generator_from_object(PyObject *obj, mt_generator *gen)
{
    PyObject *handle = PyObject_GetAttrString(obj, "_handle");
    int r;

    if (handle == NULL) {
        return -1;
    }
    r = handle_arg(handle, gen);
    Py_DECREF(handle);
    return r;
}

/* A new CPU generator, seeded as torch.Generator() is (67280421310721). */
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

/* A new CUDA generator, as torch's CUDAGeneratorImpl starts: torch's default seed, offset 0. */
static PyObject *
py_cuda_generator_new(PyObject *m, PyObject *unused)
{
    mt_cuda_generator *g = PyMem_Malloc(sizeof(*g));
    PyObject *capsule;

    if (g == NULL) {
        return PyErr_NoMemory();
    }
    g->seed = MT_CPU_DEFAULT_SEED;
    g->offset = 0;
    capsule = PyCapsule_New(g, CUDA_GENERATOR_CAPSULE, cuda_generator_capsule_free);
    if (capsule == NULL) {
        PyMem_Free(g);
    }
    return capsule;
}

/* Device `index`'s default generator (seeded from /dev/urandom at its first use). */
static PyObject *
py_cuda_default_generator(PyObject *m, PyObject *index_obj)
{
    int overflow = 0;
    long index = PyLong_AsLongAndOverflow(index_obj, &overflow);
    mt_cuda_generator *g;

    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    g = mt_cuda_default_generator(overflow != 0 || index > INT32_MAX || index < INT32_MIN ? -1 : (int)index);
    return g == NULL ? NULL : PyCapsule_New(g, CUDA_GENERATOR_CAPSULE, NULL);
}

/* torch's CUDA state: the seed, then the Philox offset as an int64 counted in 32-bit words (native byte
 * order, as torch copies them); an 8-byte state is a seed alone, with offset 0. */
#define CUDA_STATE_SEED_BYTES 8
#define CUDA_STATE_BYTES 16

static void
generator_set_seed(mt_generator g, uint64_t seed)
{
    if (g.cpu != NULL) {
        mt_cpu_generator_manual_seed(g.cpu, seed);
    }
    else {
        g.cuda->seed = seed;
        g.cuda->offset = 0;
    }
}

/* Generator.manual_seed: only that generator (torch.manual_seed seeds every one). */
static PyObject *
py_generator_manual_seed(PyObject *m, PyObject *args)
{
    PyObject *handle, *seed_obj;
    mt_generator g;
    uint64_t seed;

    if (!PyArg_ParseTuple(args, "OO", &handle, &seed_obj) || handle_arg(handle, &g) < 0 ||
        seed_arg(seed_obj, &seed) < 0) {
        return NULL;
    }
    generator_set_seed(g, seed);
    Py_RETURN_NONE;
}

static PyObject *
py_generator_seed(PyObject *m, PyObject *handle)
{
    mt_generator g;
    uint64_t seed;

    if (handle_arg(handle, &g) < 0) {
        return NULL;
    }
    seed = mt_cpu_nondeterministic_seed();
    generator_set_seed(g, seed);
    return PyLong_FromUnsignedLongLong(seed);
}

static PyObject *
py_generator_initial_seed(PyObject *m, PyObject *handle)
{
    mt_generator g;

    if (handle_arg(handle, &g) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(g.cpu != NULL ? mt_cpu_generator_initial_seed(g.cpu) : g.cuda->seed);
}

/* The state as torch's bytes: CPUGeneratorImplState's, or the CUDA seed and offset. */
static PyObject *
py_generator_get_state(PyObject *m, PyObject *handle)
{
    uint8_t state[MT_CPU_RNG_STATE_BYTES > CUDA_STATE_BYTES ? MT_CPU_RNG_STATE_BYTES : CUDA_STATE_BYTES];
    mt_generator g;
    int64_t words;

    if (handle_arg(handle, &g) < 0) {
        return NULL;
    }
    if (g.cpu != NULL) {
        mt_cpu_generator_get_state(g.cpu, state);
        return PyBytes_FromStringAndSize((const char *)state, MT_CPU_RNG_STATE_BYTES);
    }
    words = (int64_t)(g.cuda->offset * 4);
    memcpy(state, &g.cuda->seed, CUDA_STATE_SEED_BYTES);
    memcpy(state + CUDA_STATE_SEED_BYTES, &words, sizeof(words));
    return PyBytes_FromStringAndSize((const char *)state, CUDA_STATE_BYTES);
}

static int
cpu_set_state(mt_cpu_generator *g, const char *bytes, Py_ssize_t n)
{
    int err = mt_cpu_generator_set_state(g, (const uint8_t *)bytes, n);

    if (err == MT_RNG_ERR_SIZE) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected a CPUGeneratorImplState of size %d but found the input RNG state size to be %zd",
                     MT_CPU_RNG_STATE_BYTES, n);
        return -1;
    }
    if (err != MT_RNG_OK) {
        PyErr_SetString(PyExc_RuntimeError, "Invalid mt19937 state");
        return -1;
    }
    return 0;
}

/* torch's order: the seed is set (and the offset reset) before the offset is checked. */
static int
cuda_set_state(mt_cuda_generator *g, const char *bytes, Py_ssize_t n)
{
    int64_t words = 0;

    if (n != CUDA_STATE_BYTES && n != CUDA_STATE_SEED_BYTES) {
        PyErr_SetString(PyExc_RuntimeError, "RNG state is wrong size");
        return -1;
    }
    memcpy(&g->seed, bytes, CUDA_STATE_SEED_BYTES);
    g->offset = 0;
    if (n == CUDA_STATE_BYTES) {
        memcpy(&words, bytes + CUDA_STATE_SEED_BYTES, sizeof(words));
    }
    if ((uint64_t)words % 4 != 0) {
        PyErr_SetString(PyExc_RuntimeError, "offset must be a multiple of 4");
        return -1;
    }
    g->offset = (uint64_t)words / 4;
    return 0;
}

static PyObject *
py_generator_set_state(PyObject *m, PyObject *args)
{
    PyObject *handle;
    mt_generator g;
    const char *bytes;
    Py_ssize_t n;

    if (!PyArg_ParseTuple(args, "Oy#", &handle, &bytes, &n) || handle_arg(handle, &g) < 0) {
        return NULL;
    }
    if ((g.cpu != NULL ? cpu_set_state(g.cpu, bytes, n) : cuda_set_state(g.cuda, bytes, n)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

PyMethodDef mt_generator_functions[] = {
    {"_generator_new", py_generator_new, METH_NOARGS, NULL},
    {"_default_generator", py_default_generator, METH_NOARGS, NULL},
    {"_cuda_generator_new", py_cuda_generator_new, METH_NOARGS, NULL},
    {"_cuda_default_generator", py_cuda_default_generator, METH_O, NULL},
    {"_generator_manual_seed", py_generator_manual_seed, METH_VARARGS, NULL},
    {"_generator_seed", py_generator_seed, METH_O, NULL},
    {"_generator_initial_seed", py_generator_initial_seed, METH_O, NULL},
    {"_generator_get_state", py_generator_get_state, METH_O, NULL},
    {"_generator_set_state", py_generator_set_state, METH_VARARGS, NULL},
    {NULL},
};
